/* The dual problem's machinery (dual.h): Y by rows with its runs, the diagonal and elliptic
 * blocks of A, the row and block updates of the sweeps, and the final accelerations. An elliptic
 * contact is one block, minimised over its cone (the seed's GPGS): in the coordinates
 * y_j = f_j / mu_j the cone is circular, and the block problem is solved by accelerated projected
 * gradient with the exact projection on that cone (constraint/force.c). */
#include <math.h>
#include <string.h>

#include "constraint/constraint.h"
#include "constraint/force.h"
#include "core/math.h"
#include "solver/dual.h"

/* the dofs of Y's row r: the ancestors of J's columns (mark[i] == stamp once i is listed);
 * written to out (when given) ascending; returns how many */
static int row_pattern(const gsModel* m, const gsData* d, int r, int* mark, int stamp, int* out) {
  const int* c = d->efc_J_colind + d->efc_J_rowadr[r];
  int n = 0;
  for (int k = d->efc_J_rownnz[r] - 1; k >= 0; k--) {
    for (int i = c[k]; i >= 0 && mark[i] != stamp; i = m->dof_parentid[i]) {
      mark[i] = stamp;
      if (out) out[n] = i;
      n++;
    }
  }
  if (!out) return n;
  /* each walk lists a chain descending: reversed, the usual one or two chains are ascending
   * already, and the insertion sort only checks */
  for (int a = 0, e = n - 1; a < e; a++, e--) {
    int t = out[a];
    out[a] = out[e];
    out[e] = t;
  }
  for (int a = 1; a < n; a++) {
    int t = out[a], e = a - 1;
    for (; e >= 0 && out[e] > t; e--) out[e + 1] = out[e];
    out[e + 1] = t;
  }
  return n;
}

/* whether J's row r holds the ancestors of its columns already, as the rows of contacts and of
 * connect and weld constraints do: then Y's row has J's columns (marks them with stamp) */
static int closed_pattern(const gsModel* m, const gsData* d, int r, int* mark, int stamp) {
  const int* c = d->efc_J_colind + d->efc_J_rowadr[r];
  /* ascending: a parent in the row comes before its child */
  for (int k = 0, n = d->efc_J_rownnz[r]; k < n; k++) {
    int p = m->dof_parentid[c[k]];
    if (p >= 0 && mark[p] != stamp) return 0;
    mark[c[k]] = stamp;
  }
  return 1;
}

/* rows of one contact share their Jacobian's columns, hence Y's: they are eliminated together */
enum { GS_PGS_GROUP = 10 };

static int same_columns(const gsData* d, int r, int s) {
  int n = d->efc_J_rownnz[r];
  return n == d->efc_J_rownnz[s] &&
         !memcmp(d->efc_J_colind + d->efc_J_rowadr[r], d->efc_J_colind + d->efc_J_rowadr[s],
                 sizeof(int) * (size_t)n);
}

/* z = L^-T z for k interleaved vectors that are non-zero on the dofs col (n, ascending, closed
 * under ancestors): leaves first, each dof pushing onto its ancestors */
static inline void eliminate_chains(const gsModel* m, const gsData* d, const int* col, int n,
                                    gsReal* z, int k) {
  for (int e = n - 1; e >= 0; e--) {
    int j = col[e];
    const gsReal* zj = z + j * k;
    int adr = m->dof_Madr[j] + 1;
    for (int i = m->dof_parentid[j]; i >= 0; i = m->dof_parentid[i]) {
      gsReal l = d->qLD[adr++];
      gsReal* zi = z + i * k;
      for (int t = 0; t < k; t++) zi[t] -= l * zj[t];
    }
  }
}

/* Y's rows r .. r+k-1, which share the columns col (n of them): z = L^-T J^T for all k at once
 * (z holds them interleaved, zero on entry and on return); then the scaling by D^-1/2 and the
 * diagonal of A */
static void eliminate_group(const gsModel* m, gsData* d, gsDual* w, int r, int k, const int* col,
                            int n, gsReal* z, const gsReal* dsqrt) {
  for (int t = 0; t < k; t++) {
    const int* c = d->efc_J_colind + d->efc_J_rowadr[r + t];
    const gsReal* v = d->efc_J + d->efc_J_rowadr[r + t];
    for (int e = 0; e < d->efc_J_rownnz[r + t]; e++) z[c[e] * k + t] = v[e];
  }
  /* the usual group sizes get their own copy of the loop, with k known to the compiler */
  switch (k) {
    case 1: eliminate_chains(m, d, col, n, z, 1); break;
    case 3: eliminate_chains(m, d, col, n, z, 3); break;
    case 4: eliminate_chains(m, d, col, n, z, 4); break;
    case 6: eliminate_chains(m, d, col, n, z, 6); break;
    default: eliminate_chains(m, d, col, n, z, k);
  }
  /* rows of a group are consecutive in val, n apart */
  gsReal* y = w->val + w->adr[r];
  for (int e = 0; e < n; e++) {
    gsReal* ze = z + col[e] * k;
    for (int t = 0; t < k; t++) {
      y[t * n + e] = ze[t] * dsqrt[col[e]];
      ze[t] = 0;
    }
  }
  for (int t = 0; t < k; t++) {
    gsReal sum = 0;
    for (int e = 0; e < n; e++) sum += y[t * n + e] * y[t * n + e];
    w->diag[r + t] = sum;
  }
}

/* Y by rows, its runs, the diagonal of A and the elliptic contacts' blocks; u = 0. With
 * regularised, the rows' R count in inv (the main solve), else not (noslip). */
int gs_dualSetup(const gsModel* m, gsData* d, gsDual* w, int regularised) {
  int nv = m->nv, nefc = d->nefc;
  size_t rows = (size_t)nefc;
  w->adr = gs_stackAlloc(d, sizeof(int) * rows);
  w->nnz = gs_stackAlloc(d, sizeof(int) * rows);
  w->runadr = gs_stackAlloc(d, sizeof(int) * rows);
  w->nrun = gs_stackAlloc(d, sizeof(int) * rows);
  w->blockadr = gs_stackAlloc(d, sizeof(int) * rows);
  w->diag = gs_stackAlloc(d, sizeof(gsReal) * rows);
  w->inv = gs_stackAlloc(d, sizeof(gsReal) * rows);
  w->b = gs_stackAlloc(d, sizeof(gsReal) * rows);
  w->u = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nv);
  gsReal* z = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nv * GS_PGS_GROUP);
  gsReal* dsqrt = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nv);
  int* mark = gs_stackAlloc(d, sizeof(int) * (size_t)nv);
  int* source = gs_stackAlloc(d, sizeof(int) * rows);
  if (!w->adr || !w->nnz || !w->runadr || !w->nrun || !w->blockadr || !w->diag || !w->inv || !w->b || !w->u ||
      !z || !dsqrt || !mark || !source)
    return 0;
  /* sizes first: Y's non-zeros and the blocks */
  for (int i = 0; i < nv; i++) mark[i] = -1;
  size_t total = 0, nblock = 0;
  for (int r = 0; r < nefc; r++) {
    w->adr[r] = (int)total;
    /* how Y's columns come: 1 those of the row before, 2 J's own, 0 the ancestors' walk */
    if (r > 0 && same_columns(d, r - 1, r)) source[r] = 1, w->nnz[r] = w->nnz[r - 1];
    else if (closed_pattern(m, d, r, mark, r)) source[r] = 2, w->nnz[r] = d->efc_J_rownnz[r];
    else source[r] = 0, w->nnz[r] = row_pattern(m, d, r, mark, nefc + r, NULL);
    total += (size_t)w->nnz[r];
    w->blockadr[r] = -1;
    if (d->efc_type[r] == GS_CNSTR_CONTACT_ELLIPTIC && (r == 0 || d->efc_id[r - 1] != d->efc_id[r] ||
                                                        d->efc_type[r - 1] != d->efc_type[r])) {
      int n = d->contact[d->efc_id[r]].dim;
      w->blockadr[r] = (int)nblock;
      nblock += (size_t)(n * n);
    }
  }
  if (total > 0x7fffffff) return 0;
  w->col = gs_stackAlloc(d, sizeof(int) * (total ? total : 1));
  w->val = gs_stackAlloc(d, sizeof(gsReal) * (total ? total : 1));
  w->block = gs_stackAlloc(d, sizeof(gsReal) * (nblock ? nblock : 1));
  if (!w->col || !w->val || !w->block) return 0;

  /* the columns of each row, and how many runs of consecutive dofs they make */
  for (int i = 0; i < nv; i++) mark[i] = -1;
  size_t nruns = 0;
  for (int r = 0; r < nefc; r++) {
    int* col = w->col + w->adr[r];
    int n = w->nnz[r];
    if (source[r] == 1) memcpy(col, col - n, sizeof(int) * (size_t)n);
    else if (source[r] == 2) memcpy(col, d->efc_J_colind + d->efc_J_rowadr[r], sizeof(int) * (size_t)n);
    else row_pattern(m, d, r, mark, r, col);
    w->runadr[r] = (int)nruns;
    for (int e = 0; e < n; e++) nruns += e == 0 || col[e] != col[e - 1] + 1;
    w->nrun[r] = (int)nruns - w->runadr[r];
  }
  w->run = gs_stackAlloc(d, sizeof(int) * 2 * (nruns ? nruns : 1));
  if (!w->run) return 0;
  for (int r = 0; r < nefc; r++) {
    const int* col = w->col + w->adr[r];
    int* run = w->run + 2 * w->runadr[r];
    for (int e = 0; e < w->nnz[r]; e++) {
      if (e == 0 || col[e] != col[e - 1] + 1) {
        run[0] = col[e], run[1] = 0;
        run += 2;
      }
      run[-1]++;
    }
  }

  for (int i = 0; i < nv; i++) {
    w->u[i] = 0;
    dsqrt[i] = sqrt(d->qLDiagInv[i]);
  }
  memset(z, 0, sizeof(gsReal) * (size_t)nv * GS_PGS_GROUP);
  gs_mulJ(d, w->b, d->qacc_smooth);
  for (int r = 0; r < nefc; r++) w->b[r] -= d->efc_aref[r];
  for (int r = 0; r < nefc;) {
    int k = 1;
    while (r + k < nefc && k < GS_PGS_GROUP && source[r + k] == 1) k++;
    eliminate_group(m, d, w, r, k, w->col + w->adr[r], w->nnz[r], z, dsqrt);
    r += k;
  }
  for (int r = 0; r < nefc; r++) {
    /* a multiply in the sweeps, not a divide: the sweep is one chain of dependent rows */
    gsReal A = w->diag[r] + (regularised ? d->efc_R[r] : 0);
    w->inv[r] = A > GS_MINVAL ? 1 / A : 0;
  }
  for (int r = 0; r < nefc; r++) {
    if (w->blockadr[r] < 0) continue;
    int n = d->contact[d->efc_id[r]].dim;
    gsReal* B = w->block + w->blockadr[r];
    for (int p = 0; p < n; p++) {
      B[p * n + p] = w->diag[r + p];
      for (int q = p + 1; q < n; q++) B[p * n + q] = B[q * n + p] = gs_dualRowProduct(w, r + p, r + q);
    }
  }
  return 1;
}

int gs_dualReuse(const gsModel* m, gsData* d, gsDual* w, const gsDual* kept) {
  *w = *kept;
  w->b = gs_stackAlloc(d, sizeof(gsReal) * (size_t)d->nefc);
  w->u = gs_stackAlloc(d, sizeof(gsReal) * (size_t)m->nv);
  if (!w->b || !w->u) return 0;
  memset(w->u, 0, sizeof(gsReal) * (size_t)m->nv);
  gs_mulJ(d, w->b, d->qacc_smooth);
  for (int r = 0; r < d->nefc; r++) w->b[r] -= d->efc_aref[r];
  return 1;
}

/* u = Y f for the forces efc_force holds */
void gs_dualAccumulate(gsData* d, gsDual* w, int nv) {
  for (int i = 0; i < nv; i++) w->u[i] = 0;
  for (int r = 0; r < d->nefc; r++)
    if (d->efc_force[r] != 0) gs_dualMoveU(w, r, d->efc_force[r]);
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
    if (ball) gs_projectBall(y, n, radius); else gs_projectCone(y, n);
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

/* one elliptic contact at rows r .. r+n-1 (first: the first row to update, 0 or 1 for noslip);
 * returns the dual cost change */
gsReal gs_dualBlockUpdate(gsData* d, gsDual* w, int r, int n, int noslip) {
  const gsContact* c = d->contact + d->efc_id[r];
  int f0 = noslip ? 1 : 0, k = n - f0;
  gsReal A[36] = {0}, g[6] = {0}, x[6] = {0}, old[6] = {0}, scale[6] = {0};
  const gsReal* B = w->block + w->blockadr[r];
  for (int p = 0; p < k; p++) {
    int rp = r + f0 + p;
    for (int q = 0; q < k; q++) A[p * k + q] = B[(f0 + p) * n + f0 + q];
    gsReal R = noslip ? 0 : d->efc_R[rp];
    A[p * k + p] += R;
    g[p] = gs_dualRowGrad(w, rp) + R * d->efc_force[rp];
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
  for (int p = 0; p < k; p++) gs_dualApply(d, w, r + f0 + p, x[p] - old[p]);
  return dc;
}

/* one scalar row (R: its regulariser in this pass, as in inv); returns the dual cost change */
gsReal gs_dualRowUpdate(gsData* d, gsDual* w, int r, gsReal R) {
  if (w->inv[r] == 0) return 0;
  gsReal A = w->diag[r] + R;
  gsReal f = d->efc_force[r];
  gsReal g = gs_dualRowGrad(w, r) + R * f;
  gsReal x = f - g * w->inv[r];
  int type = d->efc_type[r];
  if (type == GS_CNSTR_FRICTION_DOF || type == GS_CNSTR_FRICTION_TENDON) {
    gsReal fl = d->efc_frictionloss[r];
    x = x < -fl ? -fl : x > fl ? fl : x;
  } else if (type != GS_CNSTR_EQUALITY) {
    x = x < 0 ? 0 : x;
  }
  gsReal delta = x - f;
  gs_dualApply(d, w, r, delta);
  return g * delta + 0.5 * A * delta * delta;
}

/* qacc = a0 + M^-1 J^T f, and the states the primal solvers would report there */
void gs_dualFinish(const gsModel* m, gsData* d) {
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

