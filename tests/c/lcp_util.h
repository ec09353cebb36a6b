/* Random problems for the tests of the dense solvers: a fixed LCG so that runs repeat. */
#ifndef GAUSS_TEST_LCP_UTIL_H
#define GAUSS_TEST_LCP_UTIL_H

#include <math.h>
#include <stdlib.h>

static unsigned long long lcg_state = 12345;
static double urand(void) {   /* uniform in [-1, 1) */
  lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(lcg_state >> 11) / 9007199254740992.0 * 2 - 1;
}
static void rand_fill(double* a, int n) { for (int i = 0; i < n; i++) a[i] = urand(); }
/* G G^T (n x n) of a random n x r G */
static void rand_psd(double* M, double* G, int n, int r) {
  rand_fill(G, n * r);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int k = 0; k < r; k++) s += G[i * r + k] * G[j * r + k];
      M[i * n + j] = s;
    }
}
static double* dalloc(size_t n) { return (double*)calloc(n > 0 ? n : 1, sizeof(double)); }

#endif
