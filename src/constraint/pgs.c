/* The dual problem (seed 000 eq. 17): minimise 1/2 f^T (A + R) f + f^T (J a0 - aref) over the
 * admissible forces, A = J M^-1 J^T, by projected Gauss-Seidel. Scalar rows take their exact
 * minimiser and are clipped; an elliptic contact is one block, minimised over its cone (the seed's
 * GPGS): in the coordinates y_j = f_j / mu_j the cone is circular, and the block problem is
 * solved by accelerated projected gradient with the exact projection on that cone. The noslip
 * pass re-solves the friction dimensions with R = 0 and the normal forces held. The acceleration
 * a = a0 + M^-1 J^T f is kept up to date, so a row update costs O(nnz + nv). */
#include <math.h>
#include <string.h>

#include "constraint/constraint.h"
#include "core/math.h"

typedef struct {
  gsReal* A;   /* J M^-1 J^T, nefc x nefc */
  gsReal* b;   /* J a0 - aref: the dual gradient at f = 0 */
} gsDual;

/* (A f)_r + b_r: the dual gradient of row r without its regulariser */
static gsReal row_grad(const gsData* d, const gsDual* w, int r) {
  const gsReal* Ar = w->A + (size_t)r * d->nefc;
  return w->b[r] + gs_dot(Ar, d->efc_force, d->nefc);
}

/* A = J M^-1 J^T = Z^T D^-1 Z with Z = L^-T J^T (M = L^T D L): each column of Z is non-zero only
 * on the ancestors of its row's columns, so it costs a chain, not a full solve, and two rows of
 * different trees meet nowhere */
static int dual_setup(const gsModel* m, gsData* d, gsDual* w) {
  int nv = m->nv, nefc = d->nefc;
  size_t nA = (size_t)nefc * nefc;
  if (nA > ((size_t)1 << 21)) return 0;  /* the arena's bound for PGS (src/core/data.c) */
  w->A = gs_stackAlloc(d, sizeof(gsReal) * nA);
  w->b = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nefc);
  gsReal* Z = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nefc * nv);
  int* lo = gs_stackAlloc(d, sizeof(int) * (size_t)nefc);
  int* hi = gs_stackAlloc(d, sizeof(int) * (size_t)nefc);
  if (!w->A || !w->b || !Z || !lo || !hi) return 0;
  gs_mulJ(d, w->b, d->qacc_smooth);
  for (int r = 0; r < nefc; r++) {
    w->b[r] -= d->efc_aref[r];
    gsReal* z = Z + (size_t)r * nv;
    gs_zero(z, nv);
    const int* c = d->efc_J_colind + d->efc_J_rowadr[r];
    const gsReal* v = d->efc_J + d->efc_J_rowadr[r];
    int n = d->efc_J_rownnz[r];
    lo[r] = nv, hi[r] = -1;
    for (int k = 0; k < n; k++) z[c[k]] = v[k];
    if (!n) continue;
    hi[r] = c[n - 1];
    for (int k = hi[r]; k >= 0; k--) {
      gsReal zk = z[k];
      if (zk == 0) continue;
      lo[r] = k;
      int adr = m->dof_Madr[k] + 1;
      for (int i = m->dof_parentid[k]; i >= 0; i = m->dof_parentid[i]) z[i] -= d->qLD[adr++] * zk;
    }
  }
  for (int r = 0; r < nefc; r++) {
    const gsReal* zr = Z + (size_t)r * nv;
    for (int s2 = r; s2 < nefc; s2++) {
      const gsReal* zs = Z + (size_t)s2 * nv;
      int a = lo[r] > lo[s2] ? lo[r] : lo[s2], e = hi[r] < hi[s2] ? hi[r] : hi[s2];
      gsReal sum = 0;
      for (int k = a; k <= e; k++) sum += zr[k] * zs[k] * d->qLDiagInv[k];
      w->A[(size_t)r * nefc + s2] = w->A[(size_t)s2 * nefc + r] = sum;
    }
  }
  return 1;
}

/* Euclidean projection on the circular cone y0 >= |y_t| (n values) */
static void project_cone(gsReal* y, int n) {
  gsReal t = 0;
  for (int j = 1; j < n; j++) t += y[j] * y[j];
  t = sqrt(t);
  if (t <= y[0]) return;
  if (t <= -y[0]) {
    for (int j = 0; j < n; j++) y[j] = 0;
    return;
  }
  gsReal s = 0.5 * (y[0] + t);
  y[0] = s;
  for (int j = 1; j < n; j++) y[j] *= s / t;
}

/* Euclidean projection on the ball |y| <= radius (n values) */
static void project_ball(gsReal* y, int n, gsReal radius) {
  gsReal t = sqrt(gs_dot(y, y, n));
  if (t > radius) {
    for (int j = 0; j < n; j++) y[j] = t > 0 ? y[j] * radius / t : 0;
  }
}

/* minimise 1/2 x^T A x + g^T x over y = S x in the cone (ball: ball of `radius`), from x; A n x n.
 * Accelerated projected gradient: the block is at most 6 x 6 and the outer sweeps repeat it. */
static void block_solve(const gsReal* A, const gsReal* g, const gsReal* scale, int n, int ball,
                        gsReal radius, gsReal* x) {
  gsReal As[36], gs[6], y[6], z[6], yold[6];
  gsReal L = 0;
  for (int p = 0; p < n; p++) {
    gs[p] = g[p] * scale[p];
    gsReal row = 0;
    for (int q = 0; q < n; q++) {
      As[p * n + q] = scale[p] * A[p * n + q] * scale[q];
      row += fabs(As[p * n + q]);
    }
    if (row > L) L = row;
    y[p] = scale[p] > 0 ? x[p] / scale[p] : 0;
  }
  if (L <= 0) return;
  memcpy(z, y, sizeof(gsReal) * (size_t)n);
  gsReal t = 1;
  for (int it = 0; it < 100; it++) {
    memcpy(yold, y, sizeof(gsReal) * (size_t)n);
    for (int p = 0; p < n; p++) {
      gsReal grad = gs[p];
      for (int q = 0; q < n; q++) grad += As[p * n + q] * z[q];
      y[p] = z[p] - grad / L;
    }
    if (ball) project_ball(y, n, radius); else project_cone(y, n);
    gsReal tn = 0.5 * (1 + sqrt(1 + 4 * t * t)), change = 0, size = 0;
    for (int p = 0; p < n; p++) {
      z[p] = y[p] + (t - 1) / tn * (y[p] - yold[p]);
      change += (y[p] - yold[p]) * (y[p] - yold[p]);
      size += y[p] * y[p];
    }
    t = tn;
    if (change <= 1e-30 + 1e-28 * size) break;
  }
  for (int p = 0; p < n; p++) x[p] = y[p] * scale[p];
}

static void apply(gsData* d, int r, gsReal delta) { d->efc_force[r] += delta; }

/* one elliptic contact at rows r .. r+n-1 (first: the first row to update, 0 or 1 for noslip);
 * returns the dual cost change */
static gsReal block_update(gsData* d, gsDual* w, int r, int n, int noslip) {
  const gsContact* c = d->contact + d->efc_id[r];
  int f0 = noslip ? 1 : 0, k = n - f0;
  gsReal A[36] = {0}, g[6] = {0}, x[6] = {0}, old[6] = {0}, scale[6] = {0};
  for (int p = 0; p < k; p++) {
    int rp = r + f0 + p;
    for (int q = 0; q < k; q++)
      A[p * k + q] = w->A[(size_t)rp * d->nefc + r + f0 + q];
    gsReal R = noslip ? 0 : d->efc_R[rp];
    A[p * k + p] += R;
    g[p] = row_grad(d, w, rp) + R * d->efc_force[rp];
    old[p] = x[p] = d->efc_force[rp];
    scale[p] = (noslip || p > 0) ? c->friction[f0 + p - 1] : 1;
  }
  /* g is the gradient at the old forces: shift to the problem in x */
  gsReal gx[6] = {0};
  for (int p = 0; p < k; p++) {
    gx[p] = g[p];
    for (int q = 0; q < k; q++) gx[p] -= A[p * k + q] * old[q];
  }
  block_solve(A, gx, scale, k, noslip, noslip ? d->efc_force[r] : 0, x);
  gsReal dc = 0;
  for (int p = 0; p < k; p++) {
    gsReal dp = x[p] - old[p];
    dc += g[p] * dp;
    for (int q = 0; q < k; q++) dc += 0.5 * dp * A[p * k + q] * (x[q] - old[q]);
  }
  /* the inner solve is approximate: never accept a step that raises the cost */
  if (!(dc < 0)) return 0;
  for (int p = 0; p < k; p++) apply(d, r + f0 + p, x[p] - old[p]);
  return dc;
}

/* one scalar row; returns the dual cost change */
static gsReal row_update(gsData* d, gsDual* w, int r, gsReal R) {
  gsReal A = w->A[(size_t)r * d->nefc + r] + R;
  if (A <= GS_MINVAL) return 0;
  gsReal f = d->efc_force[r];
  gsReal g = row_grad(d, w, r) + R * f;
  gsReal x = f - g / A;
  int type = d->efc_type[r];
  if (type == GS_CNSTR_FRICTION_DOF || type == GS_CNSTR_FRICTION_TENDON) {
    gsReal fl = d->efc_frictionloss[r];
    x = x < -fl ? -fl : x > fl ? fl : x;
  } else if (type != GS_CNSTR_EQUALITY) {
    x = x < 0 ? 0 : x;
  }
  gsReal delta = x - f;
  apply(d, r, delta);
  return g * delta + 0.5 * A * delta * delta;
}

/* the forces of qacc_warmstart when they are better than no force */
static void dual_start(const gsModel* m, gsData* d, gsDual* w) {
  int nefc = d->nefc;
  memset(d->efc_force, 0, sizeof(gsReal) * (size_t)nefc);
  if (m->opt.disableflags & GS_DSBL_WARMSTART) return;
  size_t mark = gs_stackMark(d);
  gsReal* jar = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nefc);
  int* state = gs_stackAlloc(d, sizeof(int) * (size_t)nefc);
  if (jar && state) {
    gs_constraintResidual(d, d->qacc_warmstart, jar);
    gs_constraintForce(m, d, jar, d->efc_force, state, NULL);
    /* dual cost: 1/2 f^T (A + R) f + f^T b; zero force costs 0 */
    gsReal cost = 0;
    for (int r = 0; r < nefc; r++) {
      gsReal f = d->efc_force[r];
      cost += f * (0.5 * (row_grad(d, w, r) - w->b[r]) + 0.5 * d->efc_R[r] * f + w->b[r]);
    }
    if (!(cost < 0)) memset(d->efc_force, 0, sizeof(gsReal) * (size_t)nefc);
  }
  gs_stackRelease(d, mark);
}

/* qacc = a0 + M^-1 J^T f, and the states the primal solvers would report there */
static void finish(const gsModel* m, gsData* d) {
  int nefc = d->nefc;
  gs_mulJT(m, d, d->qfrc_constraint, d->efc_force);
  gs_solveM(m, d, d->qacc, d->qfrc_constraint, 1);
  for (int i = 0; i < m->nv; i++) d->qacc[i] += d->qacc_smooth[i];
  size_t mark = gs_stackMark(d);
  gsReal* jar = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nefc);
  gsReal* f = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nefc);
  if (jar && f) {
    gs_constraintResidual(d, d->qacc, jar);
    gs_constraintForce(m, d, jar, f, d->efc_state, NULL);
  }
  gs_stackRelease(d, mark);
}

int gs_solvePGS(const gsModel* m, gsData* d) {
  size_t mark = gs_stackMark(d);
  gsDual w;
  if (!dual_setup(m, d, &w)) {
    gs_stackRelease(d, mark);
    return -1;
  }
  dual_start(m, d, &w);
  gsReal scale = gs_solverScale(m, d);
  int iter = 0;
  for (; iter < m->opt.iterations; iter++) {
    gsReal change = 0;
    for (int r = 0; r < d->nefc;) {
      if (d->efc_type[r] == GS_CNSTR_CONTACT_ELLIPTIC) {
        int n = d->contact[d->efc_id[r]].dim;
        change += block_update(d, &w, r, n, 0);
        r += n;
      } else {
        change += row_update(d, &w, r, d->efc_R[r]);
        r++;
      }
    }
    gsReal improvement = -scale * change;
    if (iter < GS_NSOLVER) {
      memset(d->solver + iter, 0, sizeof(gsSolverStat));
      d->solver[iter].improvement = improvement;
    }
    if (improvement < m->opt.tolerance) {
      iter++;
      break;
    }
  }
  finish(m, d);
  gs_stackRelease(d, mark);
  return iter;
}

int gs_solveNoslip(const gsModel* m, gsData* d) {
  size_t mark = gs_stackMark(d);
  gsDual w;
  if (!dual_setup(m, d, &w)) {
    gs_stackRelease(d, mark);
    return -1;
  }
  /* start from the main solver's forces, which efc_force holds */
  gsReal scale = gs_solverScale(m, d);
  int iter = 0;
  for (; iter < m->opt.noslip_iterations; iter++) {
    gsReal change = 0;
    for (int r = 0; r < d->nefc;) {
      int type = d->efc_type[r];
      if (type == GS_CNSTR_FRICTION_DOF || type == GS_CNSTR_FRICTION_TENDON) {
        change += row_update(d, &w, r, 0);
        r++;
      } else if (type == GS_CNSTR_CONTACT_ELLIPTIC) {
        int n = d->contact[d->efc_id[r]].dim;
        if (n > 1) change += block_update(d, &w, r, n, 1);
        r += n;
      } else if (type == GS_CNSTR_CONTACT_PYRAMIDAL) {
        /* each pair of opposite edges: their sum (the normal force) held, their difference
         * (the friction force) re-solved within [-sum, sum] */
        int n = gs_contactRows(m, d->contact + d->efc_id[r]);
        for (int p = r; p < r + n; p += 2) {
          size_t ne = (size_t)d->nefc;
          gsReal A = w.A[p * ne + p] + w.A[(p + 1) * ne + p + 1] - 2 * w.A[p * ne + p + 1];
          if (A <= GS_MINVAL) continue;
          gsReal g = row_grad(d, &w, p) - row_grad(d, &w, p + 1);
          gsReal f1 = d->efc_force[p], f2 = d->efc_force[p + 1], sum = f1 + f2;
          /* f1 = (sum + t)/2, f2 = (sum - t)/2; the cost in t has curvature A/4 and slope g/2 */
          gsReal t = f1 - f2, tn = t - 2 * g / A;
          tn = tn < -sum ? -sum : tn > sum ? sum : tn;
          gsReal dt = tn - t;
          apply(d, p, 0.5 * dt);
          apply(d, p + 1, -0.5 * dt);
          change += 0.5 * g * dt + 0.125 * A * dt * dt;
        }
        r += n;
      } else {
        r++;
      }
    }
    if (-scale * change < m->opt.noslip_tolerance) {
      iter++;
      break;
    }
  }
  finish(m, d);
  gs_stackRelease(d, mark);
  return iter;
}
