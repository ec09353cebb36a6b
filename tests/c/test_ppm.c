/* src/solver/ppm.c: factored LCPs M = G G^T (G n x r, n > r: indeterminate, as four feet or more
 * under a body of six dofs). In Baraff's solvable form q = G s the method must settle without
 * its Lemke fallback; w = q + M z is unique over the solution set, so it must equal Lemke's.
 * Warm-started from the previous set on a slightly moved problem it reaches a solution in fewer
 * principal pivots than from cold (counted), and keeps the same non-basic set. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "lcp_util.h"
#include "solver/lcp.h"

int main(void) {
  gsLCPStat st, sl;
  long cold_total = 0, warm_total = 0;
  int same_set = 0, ntrial = 40;
  for (int trial = 0; trial < ntrial; trial++) {
    int r = 3 + trial % 4, n = 4 + trial;
    double* G = dalloc((size_t)n * r);
    double* M = dalloc((size_t)n * n);
    double *q = dalloc(n), *s = dalloc(r), *z = dalloc(n), *w = dalloc(n);
    double *zl = dalloc(n), *wl = dalloc(n);
    double* work = dalloc(gs_ppmWork(n, r));
    double* lw = dalloc(gs_lemkeWork(n));
    int *nb = calloc(n, sizeof(int)), *nb2 = calloc(n, sizeof(int));
    rand_psd(M, G, n, r);
    rand_fill(s, r);
    for (int i = 0; i < n; i++) {
      q[i] = 0;
      for (int k = 0; k < r; k++) q[i] += G[i * r + k] * s[k];
    }
    int nnb = 0;
    int status = gs_ppm(n, r, G, q, z, w, nb, &nnb, 0, &st, work);
    CHECK(status == 0 && !st.fallback, "trial %d: status %d fallback %d", trial, status, st.fallback);
    CHECK(st.residual < 1e-9, "trial %d: residual %g", trial, st.residual);
    CHECK(nnb <= r, "trial %d: %d positive components for rank %d", trial, nnb, r);
    gs_lemke(n, M, q, zl, wl, 0, 0, &sl, lw);
    double dw = 0;
    for (int i = 0; i < n; i++) dw = fmax(dw, fabs(w[i] - wl[i]));
    CHECK(sl.status == 0 && dw < 1e-9, "trial %d: w differs from Lemke's by %g", trial, dw);
    /* move the problem a little: cold against warm */
    for (int k = 0; k < r; k++) s[k] += 1e-3 * urand();
    for (int i = 0; i < n; i++) {
      q[i] = 0;
      for (int k = 0; k < r; k++) q[i] += G[i * r + k] * s[k];
    }
    int n0 = 0;
    gs_ppm(n, r, G, q, z, w, nb2, &n0, 0, &st, work);
    CHECK(st.status == 0 && st.residual < 1e-9, "trial %d cold: %d %g", trial, st.status, st.residual);
    cold_total += st.pivots;
    int wprev[64], nprev = nnb;
    memcpy(wprev, nb, sizeof(int) * nnb);
    int cold_piv = st.pivots;
    gs_ppm(n, r, G, q, z, w, nb, &nnb, 0, &st, work);
    CHECK(st.status == 0 && st.residual < 1e-9, "trial %d warm: %d %g", trial, st.status, st.residual);
    CHECK(st.pivots <= cold_piv, "trial %d: warm %d pivots, cold %d", trial, st.pivots, cold_piv);
    warm_total += st.pivots;
    int same = nnb == nprev;
    for (int a = 0; same && a < nnb; a++) same = nb[a] == wprev[a];
    same_set += same;
    free(G); free(M); free(q); free(s); free(z); free(w); free(zl); free(wl); free(work); free(lw);
    free(nb); free(nb2);
  }
  printf("principal pivots over %d moved problems: cold %ld, warm %ld; same set kept %d times\n",
         ntrial, cold_total, warm_total, same_set);
  CHECK(warm_total < cold_total, "warm %ld pivots, cold %ld", warm_total, cold_total);
  CHECK(same_set >= ntrial * 3 / 4, "the warm start kept the set %d of %d times", same_set, ntrial);

  /* feasible but outside G's range (w* > 0 where z* = 0): solved, by the fallback if need be */
  for (int trial = 0; trial < 10; trial++) {
    int r = 4, n = 10 + trial;
    double* G = dalloc((size_t)n * r);
    double* M = dalloc((size_t)n * n);
    double *q = dalloc(n), *z = dalloc(n), *w = dalloc(n);
    double* work = dalloc(gs_ppmWork(n, r));
    int* nb = calloc(n, sizeof(int));
    rand_psd(M, G, n, r);
    /* z* = (1.5, 1.5, 0, ...), w* = 0 on those two and random positive elsewhere */
    for (int i = 0; i < n; i++) {
      double t = 0;
      for (int j = 0; j < 2; j++) t += M[i * n + j] * 1.5;
      q[i] = (i < 2 ? 0 : fabs(urand())) - t;
    }
    int nnb = 0;
    gs_ppm(n, r, G, q, z, w, nb, &nnb, 0, &st, work);
    CHECK(st.status >= 0 && st.residual < 1e-9, "feasible trial %d: status %d residual %g", trial,
          st.status, st.residual);
    free(G); free(M); free(q); free(z); free(w); free(work); free(nb);
  }
  return CHECK_SUMMARY();
}
