/* Lemke's complementary pivoting on a dense tableau (solver/lcp.h). The tableau holds
 * [I | -M | -e | q] for the variables (w, z, z0); its first n columns are B^-1, which the
 * lexicographic ratio test compares to break ties, so degenerate problems cannot cycle. */
#include <math.h>
#include <string.h>

#include "core/dense.h"
#include "solver/lcp.h"

size_t gs_lemkeWork(int n) { return (size_t)n * (size_t)(2 * n + 2) + 2 * (size_t)n + 8; }

gsReal gs_lcpResidual(int n, const gsReal* z, const gsReal* w) {
  gsReal r = 0;
  for (int i = 0; i < n; i++) {
    gsReal m = fabs(z[i] < w[i] ? z[i] : w[i]);
    if (!(m <= r)) r = m;   /* NaN propagates */
  }
  return r;
}

static void pivot(gsReal* T, int n, int cols, int r, int e) {
  gsReal* tr = T + (size_t)r * cols;
  gsReal inv = 1 / tr[e];
  for (int j = 0; j < cols; j++) tr[j] *= inv;
  tr[e] = 1;
  for (int i = 0; i < n; i++) {
    if (i == r) continue;
    gsReal* ti = T + (size_t)i * cols;
    gsReal f = ti[e];
    if (f == 0) continue;
    for (int j = 0; j < cols; j++) ti[j] -= f * tr[j];
    ti[e] = 0;
  }
}

/* row i is lexicographically smaller than row k in (rhs, B^-1 row) / T[., e] */
static int lex_less(const gsReal* T, int n, int cols, int i, int k, int e) {
  const gsReal* ti = T + (size_t)i * cols;
  const gsReal* tk = T + (size_t)k * cols;
  gsReal ai = ti[e], ak = tk[e];
  gsReal ri = ti[cols - 1] / ai, rk = tk[cols - 1] / ak;
  gsReal scale = fabs(ri) > fabs(rk) ? fabs(ri) : fabs(rk);
  if (fabs(ri - rk) > 1e-12 * (scale > 1 ? scale : 1)) return ri < rk;
  for (int j = 0; j < n; j++) {
    gsReal vi = ti[j] / ai, vk = tk[j] / ak;
    if (fabs(vi - vk) > 1e-13) return vi < vk;
  }
  return i < k;
}

/* one attempt on M + reg I: 1 solved, 0 ray or pivot limit */
static int attempt(int n, const gsReal* M, const gsReal* q, gsReal reg, int maxpivot,
                   gsReal* z, int* npiv, gsReal* work) {
  int cols = 2 * n + 2, z0 = 2 * n;
  gsReal* T = work;
  int* basis = (int*)(T + (size_t)n * cols);
  memset(T, 0, sizeof(gsReal) * (size_t)n * cols);
  gsReal mmax = 0;
  for (int i = 0; i < n; i++) {
    gsReal* ti = T + (size_t)i * cols;
    ti[i] = 1;
    for (int j = 0; j < n; j++) {
      ti[n + j] = -M[(size_t)i * n + j];
      if (fabs(M[(size_t)i * n + j]) > mmax) mmax = fabs(M[(size_t)i * n + j]);
    }
    ti[n + i] -= reg;
    ti[z0] = -1;
    ti[cols - 1] = q[i];
    basis[i] = i;
  }
  gsReal tol = 1e-12 * (mmax > 1 ? mmax : 1);
  /* z0 enters where q is most negative: every basic variable becomes non-negative */
  int r = 0;
  for (int i = 1; i < n; i++) {
    gsReal qi = T[(size_t)i * cols + cols - 1], qr = T[(size_t)r * cols + cols - 1];
    if (qi < qr || (qi == qr && lex_less(T, n, cols, i, r, z0))) r = i;
  }
  int leaving = basis[r];
  pivot(T, n, cols, r, z0);
  basis[r] = z0;
  (*npiv)++;
  for (int it = 0; it < maxpivot; it++) {
    int e = leaving < n ? leaving + n : leaving - n;   /* the complement of what left */
    int best = -1;
    for (int i = 0; i < n; i++) {
      if (T[(size_t)i * cols + e] <= tol) continue;
      if (best < 0) { best = i; continue; }
      /* on a tie z0 leaves: the solution is reached one pivot early */
      const gsReal* ti = T + (size_t)i * cols;
      const gsReal* tb = T + (size_t)best * cols;
      gsReal ri = ti[cols - 1] / ti[e], rb = tb[cols - 1] / tb[e];
      gsReal sc = fabs(ri) > fabs(rb) ? fabs(ri) : fabs(rb);
      int tie = fabs(ri - rb) <= 1e-12 * (sc > 1 ? sc : 1);
      if (tie && (basis[i] == z0 || basis[best] == z0)) {
        if (basis[i] == z0) best = i;
      } else if (lex_less(T, n, cols, i, best, e)) {
        best = i;
      }
    }
    if (best < 0) return 0;   /* secondary ray */
    leaving = basis[best];
    pivot(T, n, cols, best, e);
    basis[best] = e;
    (*npiv)++;
    if (leaving == z0) {
      memset(z, 0, sizeof(gsReal) * (size_t)n);
      for (int i = 0; i < n; i++) {
        if (basis[i] >= n && basis[i] < z0) {
          gsReal v = T[(size_t)i * cols + cols - 1];
          z[basis[i] - n] = v > 0 ? v : 0;
        }
      }
      return 1;
    }
  }
  return 0;
}

/* An unregularised answer is checked as well: near-degenerate pivots (equality rows given as
 * two opposite inequalities) can end on a basis whose values round-off has spoilt. Each row
 * against the size of its own terms, |min(z_i, w_i)| <= 1e-8 (1 + |q_i| + sum_j |M_ij z_j|)
 * (w = q + M z recomputed from the problem given): the rounding of w_i grows with its terms,
 * not with the largest variable elsewhere (a bound of max |M| max |z| let a large multiplier
 * of one row pass a residual of 151 in another). */
static int rows_solved(int n, const gsReal* M, const gsReal* q, const gsReal* z, const gsReal* w) {
  for (int i = 0; i < n; i++) {
    const gsReal* mi = M + (size_t)i * n;
    gsReal size = 1 + fabs(q[i]);
    for (int j = 0; j < n; j++) size += fabs(mi[j] * z[j]);
    gsReal r = fabs(z[i] < w[i] ? z[i] : w[i]);
    if (!(r <= 1e-8 * size)) return 0;   /* NaN fails */
  }
  return 1;
}

int gs_lemke(int n, const gsReal* M, const gsReal* q, gsReal* z, gsReal* w, gsReal reg0,
             int maxpivot, gsLCPStat* stat, gsReal* work) {
  memset(stat, 0, sizeof(*stat));
  stat->status = -1;
  if (n <= 0) { stat->status = 0; return 0; }
  int trivial = 1;
  for (int i = 0; i < n; i++) if (!(q[i] >= 0)) trivial = 0;
  if (trivial) {
    memset(z, 0, sizeof(gsReal) * (size_t)n);
    memcpy(w, q, sizeof(gsReal) * (size_t)n);
    stat->status = 0;
    return 0;
  }
  if (maxpivot <= 0) maxpivot = 50 * n + 100;
  gsReal mmax = 0;
  for (size_t i = 0; i < (size_t)n * n; i++) if (fabs(M[i]) > mmax) mmax = fabs(M[i]);
  gsReal scale = mmax > 0 ? mmax : 1;
  gsReal reg = reg0 > 0 ? reg0 : 0;
  gsReal regstep = reg0 > 0 ? reg0 : 1e-10 * scale;
  gsReal qmax = 0;
  for (int i = 0; i < n; i++) if (fabs(q[i]) > qmax) qmax = fabs(q[i]);
  for (;;) {
    if (attempt(n, M, q, reg, maxpivot, z, &stat->pivots, work)) {
      gs_denseMulVec(w, M, z, n, n, 0);
      for (int i = 0; i < n; i++) w[i] += q[i];
      stat->reg = reg;
      stat->residual = gs_lcpResidual(n, z, w);
      /* a regularised answer counts when it nearly solves the problem given: on one with no
       * solution it is a huge z that only the regularisation balances */
      int exact = reg == 0 && rows_solved(n, M, q, z, w);
      if (exact || (reg > 0 && stat->residual <= 1e-6 * (1 + qmax))) {
        stat->status = reg > 0 ? 1 : 0;
        return stat->status;
      }
    }
    reg = reg == 0 ? regstep : reg * 100;
    if (reg > 1e-2 * scale) break;
  }
  memset(z, 0, sizeof(gsReal) * (size_t)n);
  memcpy(w, q, sizeof(gsReal) * (size_t)n);
  stat->residual = gs_lcpResidual(n, z, w);
  return -1;
}
