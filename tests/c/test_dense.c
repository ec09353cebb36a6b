/* src/core/dense.c: products against their definitions, Cholesky solves of random SPD systems,
 * the failure of Cholesky on singular matrices, Gram-Schmidt's orthogonality. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "core/dense.h"
#include "lcp_util.h"

int main(void) {
  enum { R = 5, K = 4, C = 3 };
  double A[R * K], B[K * C], Bt[C * K], At[K * R], res[R * C], res2[R * C];
  rand_fill(A, R * K);
  rand_fill(B, K * C);
  for (int i = 0; i < K; i++)
    for (int j = 0; j < C; j++) Bt[j * K + i] = B[i * C + j];
  for (int i = 0; i < R; i++)
    for (int j = 0; j < K; j++) At[j * R + i] = A[i * K + j];
  gs_denseMul(res, A, B, R, K, C);
  double err = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) {
      double s = 0;
      for (int k = 0; k < K; k++) s += A[i * K + k] * B[k * C + j];
      err = fmax(err, fabs(s - res[i * C + j]));
    }
  CHECK(err < 1e-15, "A B off by %g", err);
  gs_denseMulBT(res2, A, Bt, R, K, C);
  err = 0;
  for (int i = 0; i < R * C; i++) err = fmax(err, fabs(res2[i] - res[i]));
  CHECK(err < 1e-15, "A (B^T)^T off by %g", err);
  gs_denseMulAT(res2, At, B, R, K, C);
  err = 0;
  for (int i = 0; i < R * C; i++) err = fmax(err, fabs(res2[i] - res[i]));
  CHECK(err < 1e-15, "(A^T)^T B off by %g", err);
  double x[K], y[R], yt[R];
  rand_fill(x, K);
  gs_denseMulVec(y, A, x, R, K, 0);
  gs_denseMulVecT(yt, At, x, K, R, 0);   /* (A^T)^T x = A x */
  double e2 = 0;
  for (int i = 0; i < R; i++) {
    double s = 0;
    for (int k = 0; k < K; k++) s += A[i * K + k] * x[k];
    e2 = fmax(e2, fabs(s - y[i]));
    e2 = fmax(e2, fabs(s - yt[i]));
  }
  CHECK(e2 < 1e-15, "A x off by %g", e2);

  /* SPD solves: residual of (G G^T + I) x = b */
  for (int trial = 0; trial < 20; trial++) {
    int n = 3 + trial;
    double* M = dalloc((size_t)n * n);
    double* G = dalloc((size_t)n * n);
    double* L = dalloc((size_t)n * n);
    double* b = dalloc((size_t)n);
    double* s = dalloc((size_t)n);
    rand_psd(M, G, n, n);
    for (int i = 0; i < n; i++) M[i * n + i] += 1;
    memcpy(L, M, sizeof(double) * n * n);
    CHECK(gs_cholesky(L, n, 1e-14) < 0, "SPD matrix of size %d refused", n);
    rand_fill(b, n);
    memcpy(s, b, sizeof(double) * n);
    gs_cholSolve(L, n, s);
    double r = 0;
    for (int i = 0; i < n; i++) {
      double t = -b[i];
      for (int j = 0; j < n; j++) t += M[i * n + j] * s[j];
      r = fmax(r, fabs(t));
    }
    CHECK(r < 1e-12, "solve residual %g at n %d", r, n);
    /* rank r < n: the factorization fails at a pivot >= r */
    int rk = n / 2;
    rand_psd(M, G, n, rk);
    memcpy(L, M, sizeof(double) * n * n);
    int bad = gs_cholesky(L, n, 1e-10);
    CHECK(bad >= rk, "rank-%d matrix of size %d: failed at %d", rk, n, bad);
    free(M); free(G); free(L); free(b); free(s);
  }

  /* LU with partial pivoting: residual of a general system (a zero leading pivot forces a swap) */
  {
    enum { N = 9 };
    double A[N * N], LU[N * N], b[N], x[N];
    int piv[N];
    rand_fill(A, N * N);
    A[0] = 0;
    memcpy(LU, A, sizeof A);
    CHECK(gs_luFactor(LU, N, piv, 1e-14) < 0, "LU refused a general matrix");
    rand_fill(b, N);
    memcpy(x, b, sizeof b);
    gs_luSolve(LU, N, piv, x);
    double r = 0;
    for (int i = 0; i < N; i++) {
      double t = -b[i];
      for (int j = 0; j < N; j++) t += A[i * N + j] * x[j];
      r = fmax(r, fabs(t));
    }
    CHECK(r < 1e-12, "LU solve residual %g", r);
    for (int j = 0; j < N; j++) A[j * N + 3] = 2 * A[j * N + 1];   /* dependent columns */
    memcpy(LU, A, sizeof A);
    CHECK(gs_luFactor(LU, N, piv, 1e-12) >= 0, "LU accepted a singular matrix");
  }

  /* Gram-Schmidt: the remainder is orthogonal to the basis and the coefficients rebuild v */
  double Q[3 * 6], v[6], v0[6], coef[3];
  int k = 0;
  for (int i = 0; i < 3; i++) {
    double row[6];
    rand_fill(row, 6);
    double nr = gs_orthogonalize(Q, k, 6, row, NULL);
    for (int j = 0; j < 6; j++) Q[k * 6 + j] = row[j] / nr;
    k++;
  }
  rand_fill(v, 6);
  memcpy(v0, v, sizeof v);
  gs_orthogonalize(Q, 3, 6, v, coef);
  double dmax = 0, rb = 0;
  for (int i = 0; i < 3; i++) {
    double d = 0;
    for (int j = 0; j < 6; j++) d += Q[i * 6 + j] * v[j];
    dmax = fmax(dmax, fabs(d));
  }
  for (int j = 0; j < 6; j++) {
    double s = v[j];
    for (int i = 0; i < 3; i++) s += coef[i] * Q[i * 6 + j];
    rb = fmax(rb, fabs(s - v0[j]));
  }
  CHECK(dmax < 1e-15 && rb < 1e-15, "Gram-Schmidt: dot %g, rebuild %g", dmax, rb);
  return CHECK_SUMMARY();
}
