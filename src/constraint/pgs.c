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
  gsReal* minvjt;  /* row i: M^-1 J_i^T (nv values) */
  gsReal* Adiag;   /* J_i M^-1 J_i^T */
  gsReal* a;       /* current acceleration */
} gsDual;

static gsReal row_dot(const gsData* d, int r, const gsReal* x) {
  const int* c = d->efc_J_colind + d->efc_J_rowadr[r];
  const gsReal* v = d->efc_J + d->efc_J_rowadr[r];
  gsReal s = 0;
  for (int k = 0; k < d->efc_J_rownnz[r]; k++) s += v[k] * x[c[k]];
  return s;
}

static int dual_setup(const gsModel* m, gsData* d, gsDual* w) {
  int nv = m->nv, nefc = d->nefc;
  w->minvjt = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nefc * nv);
  w->Adiag = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nefc);
  w->a = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nv);
  if (!w->minvjt || !w->Adiag || !w->a) return 0;
  for (int r = 0; r < nefc; r++) {
    gsReal* x = w->minvjt + (size_t)r * nv;
    gs_zero(x, nv);
    const int* c = d->efc_J_colind + d->efc_J_rowadr[r];
    const gsReal* v = d->efc_J + d->efc_J_rowadr[r];
    for (int k = 0; k < d->efc_J_rownnz[r]; k++) x[c[k]] = v[k];
    gs_solveM(m, d, x, x, 1);
    w->Adiag[r] = row_dot(d, r, x);
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

/* change row r's force by delta: the acceleration follows */
static void apply(const gsModel* m, gsData* d, gsDual* w, int r, gsReal delta) {
  if (delta == 0) return;
  d->efc_force[r] += delta;
  gs_addScl(w->a, w->minvjt + (size_t)r * m->nv, delta, m->nv);
}

/* one elliptic contact at rows r .. r+n-1 (first: the first row to update, 0 or 1 for noslip);
 * returns the dual cost change */
static gsReal block_update(const gsModel* m, gsData* d, gsDual* w, int r, int n, int noslip) {
  const gsContact* c = d->contact + d->efc_id[r];
  int f0 = noslip ? 1 : 0, k = n - f0;
  gsReal A[36] = {0}, g[6] = {0}, x[6] = {0}, old[6] = {0}, scale[6] = {0};
  for (int p = 0; p < k; p++) {
    int rp = r + f0 + p;
    for (int q = 0; q < k; q++)
      A[p * k + q] = row_dot(d, rp, w->minvjt + (size_t)(r + f0 + q) * m->nv);
    gsReal R = noslip ? 0 : d->efc_R[rp];
    A[p * k + p] += R;
    g[p] = row_dot(d, rp, w->a) - d->efc_aref[rp] + R * d->efc_force[rp];
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
  for (int p = 0; p < k; p++) apply(m, d, w, r + f0 + p, x[p] - old[p]);
  return dc;
}

/* one scalar row; returns the dual cost change */
static gsReal row_update(const gsModel* m, gsData* d, gsDual* w, int r, gsReal R) {
  gsReal A = w->Adiag[r] + R;
  if (A <= GS_MINVAL) return 0;
  gsReal f = d->efc_force[r];
  gsReal g = row_dot(d, r, w->a) - d->efc_aref[r] + R * f;
  gsReal x = f - g / A;
  int type = d->efc_type[r];
  if (type == GS_CNSTR_FRICTION_DOF || type == GS_CNSTR_FRICTION_TENDON) {
    gsReal fl = d->efc_frictionloss[r];
    x = x < -fl ? -fl : x > fl ? fl : x;
  } else if (type != GS_CNSTR_EQUALITY) {
    x = x < 0 ? 0 : x;
  }
  gsReal delta = x - f;
  apply(m, d, w, r, delta);
  return g * delta + 0.5 * A * delta * delta;
}

/* forces and acceleration consistent with each other from qacc_warmstart, when that is better
 * than no force; a = a0 + M^-1 J^T f */
static void dual_start(const gsModel* m, gsData* d, gsDual* w) {
  int nv = m->nv, nefc = d->nefc;
  gs_copy(w->a, d->qacc_smooth, nv);
  memset(d->efc_force, 0, sizeof(gsReal) * (size_t)nefc);
  if (m->opt.disableflags & GS_DSBL_WARMSTART) return;
  size_t mark = gs_stackMark(d);
  gsReal* jar = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nefc);
  gsReal* f = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nefc);
  int* state = gs_stackAlloc(d, sizeof(int) * (size_t)nefc);
  if (!jar || !f || !state) {
    gs_stackRelease(d, mark);
    return;
  }
  gs_mulJ(d, jar, d->qacc_warmstart);
  for (int r = 0; r < nefc; r++) jar[r] -= d->efc_aref[r];
  gs_constraintForce(m, d, jar, f, state, NULL);
  /* dual cost of f: 1/2 f^T (A + R) f + f^T (J a0 - aref) */
  for (int r = 0; r < nefc; r++) apply(m, d, w, r, f[r]);
  gsReal cost = 0;
  for (int r = 0; r < nefc; r++) {
    gsReal ja = row_dot(d, r, w->a), ja0 = row_dot(d, r, d->qacc_smooth);
    cost += 0.5 * f[r] * (ja - ja0) + 0.5 * d->efc_R[r] * f[r] * f[r] + f[r] * (ja0 - d->efc_aref[r]);
  }
  if (!(cost < 0)) {
    gs_copy(w->a, d->qacc_smooth, nv);
    memset(d->efc_force, 0, sizeof(gsReal) * (size_t)nefc);
  }
  gs_stackRelease(d, mark);
}

static void finish(const gsModel* m, gsData* d, const gsDual* w) {
  int nefc = d->nefc;
  gs_copy(d->qacc, w->a, m->nv);
  gs_mulJT(m, d, d->qfrc_constraint, d->efc_force);
  /* states from the final acceleration, as the primal solvers report them */
  size_t mark = gs_stackMark(d);
  gsReal* jar = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nefc);
  gsReal* f = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nefc);
  if (jar && f) {
    gs_mulJ(d, jar, d->qacc);
    for (int r = 0; r < nefc; r++) jar[r] -= d->efc_aref[r];
    gs_constraintForce(m, d, jar, f, d->efc_state, NULL);
  }
  gs_stackRelease(d, mark);
}

static gsReal tolerance_scale(const gsModel* m, const gsData* d) {
  gsReal mean = 0;
  for (int i = 0; i < m->nv; i++) mean += d->qM[m->dof_Madr[i]];
  mean = m->nv ? mean / m->nv : 1;
  return 1 / (mean * (m->nv > 1 ? m->nv : 1));
}

int gs_solvePGS(const gsModel* m, gsData* d) {
  size_t mark = gs_stackMark(d);
  gsDual w;
  if (!dual_setup(m, d, &w)) {
    gs_stackRelease(d, mark);
    return -1;
  }
  dual_start(m, d, &w);
  gsReal scale = tolerance_scale(m, d);
  int iter = 0;
  for (; iter < m->opt.iterations; iter++) {
    gsReal change = 0;
    for (int r = 0; r < d->nefc;) {
      if (d->efc_type[r] == GS_CNSTR_CONTACT_ELLIPTIC) {
        int n = d->contact[d->efc_id[r]].dim;
        change += block_update(m, d, &w, r, n, 0);
        r += n;
      } else {
        change += row_update(m, d, &w, r, d->efc_R[r]);
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
  finish(m, d, &w);
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
  /* start from the main solver's forces */
  gs_copy(w.a, d->qacc_smooth, m->nv);
  for (int r = 0; r < d->nefc; r++)
    if (d->efc_force[r] != 0) gs_addScl(w.a, w.minvjt + (size_t)r * m->nv, d->efc_force[r], m->nv);
  gsReal scale = tolerance_scale(m, d);
  int iter = 0;
  for (; iter < m->opt.noslip_iterations; iter++) {
    gsReal change = 0;
    for (int r = 0; r < d->nefc;) {
      int type = d->efc_type[r];
      if (type == GS_CNSTR_FRICTION_DOF || type == GS_CNSTR_FRICTION_TENDON) {
        change += row_update(m, d, &w, r, 0);
        r++;
      } else if (type == GS_CNSTR_CONTACT_ELLIPTIC) {
        int n = d->contact[d->efc_id[r]].dim;
        if (n > 1) change += block_update(m, d, &w, r, n, 1);
        r += n;
      } else if (type == GS_CNSTR_CONTACT_PYRAMIDAL) {
        /* each pair of opposite edges: their sum (the normal force) held, their difference
         * (the friction force) re-solved within [-sum, sum] */
        int n = gs_contactRows(m, d->contact + d->efc_id[r]);
        for (int p = r; p < r + n; p += 2) {
          const gsReal* x1 = w.minvjt + (size_t)p * m->nv;
          const gsReal* x2 = w.minvjt + (size_t)(p + 1) * m->nv;
          gsReal A = w.Adiag[p] + w.Adiag[p + 1] - 2 * row_dot(d, p, x2);
          (void)x1;
          if (A <= GS_MINVAL) continue;
          gsReal g = row_dot(d, p, w.a) - d->efc_aref[p] - row_dot(d, p + 1, w.a) + d->efc_aref[p + 1];
          gsReal f1 = d->efc_force[p], f2 = d->efc_force[p + 1], sum = f1 + f2;
          /* f1 = (sum + t)/2, f2 = (sum - t)/2; the cost in t has curvature A/4 and slope g/2 */
          gsReal t = f1 - f2, tn = t - 2 * g / A;
          tn = tn < -sum ? -sum : tn > sum ? sum : tn;
          gsReal dt = tn - t;
          apply(m, d, &w, p, 0.5 * dt);
          apply(m, d, &w, p + 1, -0.5 * dt);
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
  finish(m, d, &w);
  gs_stackRelease(d, mark);
  return iter;
}
