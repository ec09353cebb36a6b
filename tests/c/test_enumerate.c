/* src/solver/enumerate.c: with a P-matrix the LCP has one solution, which must be Lemke's; with
 * M = [1 1; 1 1], q = (-1, -1) every z >= 0 with z1 + z2 = 1 solves it and the bases give its two
 * vertices: the one nearest z0 must be returned; without a solution none is found. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "lcp_util.h"
#include "solver/lcp.h"

int main(void) {
  gsLCPStat st;
  for (int trial = 0; trial < 20; trial++) {
    int n = 2 + trial % 9;
    double* M = dalloc((size_t)n * n);
    double* G = dalloc((size_t)n * n);
    double *q = dalloc(n), *z = dalloc(n), *w = dalloc(n), *zl = dalloc(n), *wl = dalloc(n);
    double *z0 = dalloc(n), *wt = dalloc(n);
    double* work = dalloc(gs_lcpEnumWork(n));
    double* lw = dalloc(gs_lemkeWork(n));
    rand_psd(M, G, n, n);
    for (int i = 0; i < n; i++) { M[i * n + i] += 0.3; q[i] = urand(); wt[i] = 1; }
    int found = gs_lcpNearest(n, M, q, z0, wt, z, w, work);
    gs_lemke(n, M, q, zl, wl, 0, 0, &st, lw);
    double dz = 0;
    for (int i = 0; i < n; i++) dz = fmax(dz, fabs(z[i] - zl[i]));
    CHECK(found == 1, "trial %d: %d solutions of a P-matrix LCP", trial, found);
    CHECK(dz < 1e-9 && gs_lcpResidual(n, z, w) < 1e-9, "trial %d: off Lemke's by %g", trial, dz);
    free(M); free(G); free(q); free(z); free(w); free(zl); free(wl); free(z0); free(wt);
    free(work); free(lw);
  }
  {
    double M[4] = {1, 1, 1, 1}, q[2] = {-1, -1}, wt[2] = {1, 1}, z[2], w[2];
    double* work = dalloc(gs_lcpEnumWork(2));
    double a[2] = {0.9, 0.1}, b[2] = {0.2, 0.8};
    int found = gs_lcpNearest(2, M, q, a, wt, z, w, work);
    CHECK(found == 2 && z[0] == 1 && z[1] == 0, "nearest (0.9, 0.1): %d, (%g, %g)", found, z[0], z[1]);
    found = gs_lcpNearest(2, M, q, b, wt, z, w, work);
    CHECK(found == 2 && z[0] == 0 && z[1] == 1, "nearest (0.2, 0.8): %d, (%g, %g)", found, z[0], z[1]);
    double M0[4] = {0, 0, 0, 0};
    z[0] = z[1] = 7;
    found = gs_lcpNearest(2, M0, q, a, wt, z, w, work);
    CHECK(found == 0 && z[0] == 7, "no solution: %d found", found);
    free(work);
  }
  return CHECK_SUMMARY();
}
