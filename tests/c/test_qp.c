/* src/solver/qp.c: QPs whose optimum is built in through the KKT conditions (x*, multipliers
 * lambda* >= 0 on the active rows, g = A^T lambda* + mu* - H x*): with H positive definite the
 * optimum is unique and x must equal x*; with H only semidefinite the optimal value is unique and
 * must be reached, feasibly. Also the projection onto the orthant, in closed form. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "lcp_util.h"
#include "solver/lcp.h"

static double objective(int n, const double* H, const double* g, const double* x) {
  double f = 0;
  for (int i = 0; i < n; i++) {
    double hx = 0;
    for (int j = 0; j < n; j++) hx += H[i * n + j] * x[j];
    f += 0.5 * x[i] * hx + g[i] * x[i];
  }
  return f;
}

int main(void) {
  gsLCPStat st;
  for (int trial = 0; trial < 24; trial++) {
    int n = 3 + trial % 8, mA = 2 + trial % 5, nonneg = trial % 2, psd = (trial / 2) % 3 == 2;
    double* H = dalloc((size_t)n * n);
    double* G = dalloc((size_t)n * n);
    double* A = dalloc((size_t)mA * n);
    double *g = dalloc(n), *b = dalloc(mA), *xs = dalloc(n), *x = dalloc(n), *lam = dalloc(mA);
    double* work = dalloc(gs_qpWork(n, mA, nonneg));
    rand_psd(H, G, n, psd ? (n > 1 ? n / 2 : 1) : n);
    if (!psd) for (int i = 0; i < n; i++) H[i * n + i] += 0.2;
    rand_fill(A, mA * n);
    rand_fill(xs, n);
    if (nonneg) for (int i = 0; i < n; i++) xs[i] = i % 3 == 0 ? 0 : fabs(xs[i]) + 0.1;
    for (int i = 0; i < n; i++) {
      g[i] = 0;
      for (int j = 0; j < n; j++) g[i] -= H[i * n + j] * xs[j];
      if (nonneg && xs[i] == 0) g[i] += fabs(urand()) + 0.1;   /* mu* on the bound */
    }
    for (int k = 0; k < mA; k++) {
      double ax = 0;
      for (int j = 0; j < n; j++) ax += A[k * n + j] * xs[j];
      int active = k % 2 == 0;
      b[k] = active ? ax : ax - 0.5 - fabs(urand());
      double l = active ? fabs(urand()) + 0.1 : 0;
      for (int j = 0; j < n; j++) g[j] += A[k * n + j] * l;   /* -(A^T lambda) moves to g: + */
    }
    /* stationarity: H x + g - A^T lambda - mu = 0: g above = -H x* + A^T lambda* + mu* */
    int status = gs_qp(n, H, g, mA, A, b, nonneg, 0, x, lam, &st, work);
    CHECK(status >= 0, "trial %d: status %d", trial, status);
    double infeas = 0, dx = 0;
    for (int k = 0; k < mA; k++) {
      double ax = -b[k];
      for (int j = 0; j < n; j++) ax += A[k * n + j] * x[j];
      infeas = fmax(infeas, -ax);
    }
    for (int i = 0; i < n; i++) {
      if (nonneg) infeas = fmax(infeas, -x[i]);
      dx = fmax(dx, fabs(x[i] - xs[i]));
    }
    double df = objective(n, H, g, x) - objective(n, H, g, xs);
    CHECK(infeas < 1e-9, "trial %d: infeasible by %g", trial, infeas);
    if (!psd) CHECK(dx < 1e-9, "trial %d (n %d, m %d, nonneg %d): x off by %g", trial, n, mA,
                    nonneg, dx);
    if (psd && nonneg) CHECK(fabs(df) < 1e-9, "trial %d: objective off by %g", trial, df);
    if (psd && !nonneg)   /* H is regularised: the optimum moves by about reg |x|^2 */
      CHECK(df < 1e-8 && df > -1e-8, "trial %d: objective off by %g (reg %g)", trial, df, st.reg);
    free(H); free(G); free(A); free(g); free(b); free(xs); free(x); free(lam); free(work);
  }
  /* projection onto the orthant: min 1/2 |x - c|^2, x >= 0 gives max(c, 0) */
  {
    enum { N = 7 };
    double H[N * N] = {0}, c[N], g[N], x[N];
    double* work = dalloc(gs_qpWork(N, 0, 1));
    rand_fill(c, N);
    for (int i = 0; i < N; i++) { H[i * N + i] = 1; g[i] = -c[i]; }
    gs_qp(N, H, g, 0, NULL, NULL, 1, 0, x, NULL, &st, work);
    double e = 0;
    for (int i = 0; i < N; i++) e = fmax(e, fabs(x[i] - (c[i] > 0 ? c[i] : 0)));
    CHECK(e < 1e-14, "projection off by %g", e);
    free(work);
  }
  return CHECK_SUMMARY();
}
