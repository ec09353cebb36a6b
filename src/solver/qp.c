/* A dense convex QP through its KKT conditions, solved as an LCP by Lemke (solver/lcp.h). The
 * problems of rigid-contact inverse dynamics have tens to a few hundred variables; the decision
 * to keep this solver rather than link a library is written in docs/architecture.md. */
#include <math.h>
#include <string.h>

#include "core/dense.h"
#include "solver/lcp.h"

size_t gs_qpWork(int n, int mA, int nonneg) {
  size_t nn = (size_t)n, mm = (size_t)mA;
  size_t s = (nonneg ? 1 : 2) * nn + mm;
  size_t kkt = s * s + 3 * s + gs_lemkeWork((int)s) + 8;
  if (nonneg) return kkt;
  /* free variables: the factored form, or the split x = x+ - x- when H is singular */
  size_t split = kkt + 4 * nn * nn + 2 * nn * mm + 4 * nn;
  size_t pd = nn * nn + nn * mm + mm * mm + 3 * mm + 2 * nn + gs_lemkeWork(mA) + 8;
  return pd > split ? pd : split;
}

int gs_qp(int n, const gsReal* H, const gsReal* g, int mA, const gsReal* A, const gsReal* b,
          int nonneg, gsReal reg, gsReal* x, gsReal* lambda, gsLCPStat* stat, gsReal* work) {
  memset(stat, 0, sizeof(*stat));
  if (nonneg) {
    /* [x; lambda] >= 0 with [H x + g - A^T lambda; A x - b] >= 0 and complementary */
    int s = n + mA;
    gsReal* M = work;
    gsReal* q = M + (size_t)s * s;
    gsReal* zz = q + s;
    gsReal* ww = zz + s;
    for (int i = 0; i < n; i++) {
      gsReal* mi = M + (size_t)i * s;
      memcpy(mi, H + (size_t)i * n, sizeof(gsReal) * (size_t)n);
      for (int j = 0; j < mA; j++) mi[n + j] = -A[(size_t)j * n + i];
      q[i] = g[i];
    }
    for (int j = 0; j < mA; j++) {
      gsReal* mj = M + (size_t)(n + j) * s;
      memcpy(mj, A + (size_t)j * n, sizeof(gsReal) * (size_t)n);
      memset(mj + n, 0, sizeof(gsReal) * (size_t)mA);
      q[n + j] = -b[j];
    }
    gs_lemke(s, M, q, zz, ww, reg, 0, stat, ww + s);
    memcpy(x, zz, sizeof(gsReal) * (size_t)n);
    if (lambda) memcpy(lambda, zz + n, sizeof(gsReal) * (size_t)mA);
    return stat->status;
  }
  /* H positive definite: x = H^-1 (A^T lambda - g), lambda from the LCP A H^-1 A^T */
  gsReal* L = work;
  gsReal* C = L + (size_t)n * n;        /* L^-1 A^T, n x mA, stored by columns (mA rows of n) */
  gsReal* Ml = C + (size_t)n * mA;
  gsReal* ql = Ml + (size_t)mA * mA;
  gsReal* lam = ql + mA;
  gsReal* wl = lam + mA;
  gsReal* hg = wl + mA;                 /* L^-1 g */
  gsReal* t = hg + n;
  memcpy(L, H, sizeof(gsReal) * (size_t)n * n);
  if (gs_cholesky(L, n, 1e-12) >= 0) {
    /* H singular: x = x+ - x-, both >= 0, is a monotone LCP Lemke solves exactly, where a
     * regularised factor would be ill-conditioned */
    int n2 = 2 * n;
    gsReal* H2 = work;
    gsReal* A2 = H2 + (size_t)n2 * n2;
    gsReal* g2 = A2 + (size_t)mA * n2;
    gsReal* x2 = g2 + n2;
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        gsReal h = H[(size_t)i * n + j];
        H2[(size_t)i * n2 + j] = h;
        H2[(size_t)i * n2 + n + j] = -h;
        H2[(size_t)(n + i) * n2 + j] = -h;
        H2[(size_t)(n + i) * n2 + n + j] = h;
      }
    for (int k = 0; k < mA; k++)
      for (int j = 0; j < n; j++) {
        A2[(size_t)k * n2 + j] = A[(size_t)k * n + j];
        A2[(size_t)k * n2 + n + j] = -A[(size_t)k * n + j];
      }
    for (int i = 0; i < n; i++) { g2[i] = g[i]; g2[n + i] = -g[i]; }
    gs_qp(n2, H2, g2, mA, A2, b, 1, reg, x2, lambda, stat, x2 + n2);
    for (int i = 0; i < n; i++) x[i] = x2[i] - x2[n + i];
    return stat->status;
  }
  memcpy(hg, g, sizeof(gsReal) * (size_t)n);
  gs_solveL(L, n, hg);
  for (int j = 0; j < mA; j++) {
    gsReal* cj = C + (size_t)j * n;
    memcpy(cj, A + (size_t)j * n, sizeof(gsReal) * (size_t)n);
    gs_solveL(L, n, cj);
  }
  gs_denseMulBT(Ml, C, C, mA, n, mA);
  for (int j = 0; j < mA; j++) {
    gsReal s = 0;
    for (int i = 0; i < n; i++) s += C[(size_t)j * n + i] * hg[i];
    ql[j] = -s - b[j];
  }
  gsReal keepreg = stat->reg;
  if (mA > 0) gs_lemke(mA, Ml, ql, lam, wl, 0, 0, stat, t + n);
  if (keepreg > 0 && stat->status == 0) stat->status = 1;
  if (stat->reg < keepreg) stat->reg = keepreg;
  /* x = L^-T (C lambda - L^-1 g) */
  for (int i = 0; i < n; i++) t[i] = -hg[i];
  for (int j = 0; j < mA; j++) {
    gsReal lj = lam[j];
    if (lj == 0) continue;
    for (int i = 0; i < n; i++) t[i] += C[(size_t)j * n + i] * lj;
  }
  gs_solveLT(L, n, t);
  memcpy(x, t, sizeof(gsReal) * (size_t)n);
  if (lambda) memcpy(lambda, lam, sizeof(gsReal) * (size_t)mA);
  return stat->status;
}
