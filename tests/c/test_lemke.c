/* src/solver/lemke.c: random LCPs with a solution built in (z* >= 0, w* >= 0 complementary,
 * q = w* - M z*): P-matrices (unique solution: z must equal z*), rank-deficient PSD matrices
 * (w = q + M z is unique over the solution set: it must equal w*), degenerate ones (z*_i = w*_i = 0,
 * repeated rows) and an infeasible one (reported, never a wrong "solved"). */
#include <math.h>
#include <string.h>

#include "check.h"
#include "lcp_util.h"
#include "solver/lcp.h"

/* q from a complementary pair; degenerate: every third index has z* = w* = 0 */
static void make_q(int n, const double* M, double* zs, double* ws, double* q, int degenerate) {
  for (int i = 0; i < n; i++) {
    double u = fabs(urand()) + 0.1;
    zs[i] = ws[i] = 0;
    if (degenerate && i % 3 == 0) continue;
    if (urand() > 0) zs[i] = u; else ws[i] = u;
  }
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j < n; j++) s += M[i * n + j] * zs[j];
    q[i] = ws[i] - s;
  }
}

int main(void) {
  gsLCPStat st;
  for (int trial = 0; trial < 30; trial++) {
    int n = 4 + trial;
    int kind = trial % 3;   /* 0 P-matrix, 1 PSD rank n/3, 2 degenerate PSD with repeated rows */
    double* M = dalloc((size_t)n * n);
    double* G = dalloc((size_t)n * n);
    double *q = dalloc(n), *zs = dalloc(n), *ws = dalloc(n), *z = dalloc(n), *w = dalloc(n);
    double* work = dalloc(gs_lemkeWork(n));
    if (kind == 0) {
      /* PD symmetric part plus a skew part: a P-matrix that is not symmetric */
      rand_psd(M, G, n, n);
      for (int i = 0; i < n; i++) {
        M[i * n + i] += 0.5;
        for (int j = 0; j < i; j++) {
          double s = urand();
          M[i * n + j] += s;
          M[j * n + i] -= s;
        }
      }
    } else {
      int r = n / 3 > 1 ? n / 3 : 1;
      rand_psd(M, G, n, r);
      if (kind == 2)   /* row and column 1 repeat row and column 0 */
        for (int k = 0; k < r; k++) G[r + k] = G[k];
      if (kind == 2)
        for (int i = 0; i < n; i++)
          for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < r; k++) s += G[i * r + k] * G[j * r + k];
            M[i * n + j] = s;
          }
    }
    make_q(n, M, zs, ws, q, kind == 2);
    int status = gs_lemke(n, M, q, z, w, 0, 0, &st, work);
    CHECK(status == 0, "trial %d (n %d, kind %d): status %d", trial, n, kind, status);
    CHECK(st.residual < 1e-9, "trial %d: residual %g", trial, st.residual);
    double zmin = 0, wmin = 0, dz = 0, dw = 0;
    for (int i = 0; i < n; i++) {
      zmin = fmin(zmin, z[i]);
      wmin = fmin(wmin, w[i]);
      dz = fmax(dz, fabs(z[i] - zs[i]));
      dw = fmax(dw, fabs(w[i] - ws[i]));
    }
    CHECK(zmin >= 0 && wmin > -1e-9, "trial %d: min z %g, min w %g", trial, zmin, wmin);
    if (kind == 0) CHECK(dz < 1e-9, "trial %d: P-matrix solution off by %g", trial, dz);
    CHECK(dw < 1e-9, "trial %d: w off by %g", trial, dw);
    CHECK(st.pivots > 0 && st.pivots <= 50 * n + 100, "trial %d: %d pivots", trial, st.pivots);
    free(M); free(G); free(q); free(zs); free(ws); free(z); free(w); free(work);
  }
  /* infeasible: w = -1 + 0 z can never be non-negative */
  {
    double M[4] = {0, 0, 0, 0}, q[2] = {-1, -1}, z[2], w[2];
    double* work = dalloc(gs_lemkeWork(2));
    int status = gs_lemke(2, M, q, z, w, 0, 0, &st, work);
    CHECK(status != 0, "an infeasible LCP reported solved without regularisation");
    CHECK(status == -1 || st.reg > 0, "status %d reg %g", status, st.reg);
    free(work);
  }
  /* trivial: q >= 0 gives z = 0 without a pivot */
  {
    double M[4] = {1, 0, 0, 1}, q[2] = {1, 0}, z[2], w[2];
    double* work = dalloc(gs_lemkeWork(2));
    gs_lemke(2, M, q, z, w, 0, 0, &st, work);
    CHECK(st.pivots == 0 && z[0] == 0 && z[1] == 0 && w[0] == 1, "trivial LCP");
    free(work);
  }
  return CHECK_SUMMARY();
}
