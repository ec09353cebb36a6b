/* Time of the dense QP solver (src/solver/qp.c) on problems read from a file, for the comparison
 * with QP libraries (bench/qp_library_bench.py):
 *   qp_bench PROBLEM.txt [REPS]
 * PROBLEM: "n mA" then H (n x n), g (n), A (mA x n), b (mA), whitespace-separated; the variables
 * are non-negative. Prints: microseconds per solve, objective, pivots, status, then x. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "solver/lcp.h"
#include "bench_util.h"

static int read_all(FILE* f, double* x, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (fscanf(f, "%lf", &x[i]) != 1) return 0;
  return 1;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s PROBLEM.txt [REPS]\n", argv[0]);
    return 2;
  }
  int reps = argc > 2 ? atoi(argv[2]) : 200;
  FILE* f = fopen(argv[1], "r");
  int n, mA;
  if (!f || fscanf(f, "%d %d", &n, &mA) != 2 || n <= 0 || mA < 0) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  double* H = malloc(sizeof(double) * (size_t)n * n);
  double* g = malloc(sizeof(double) * (size_t)n);
  double* A = malloc(sizeof(double) * ((size_t)mA * n + 1));
  double* b = malloc(sizeof(double) * ((size_t)mA + 1));
  double* x = malloc(sizeof(double) * (size_t)n);
  double* work = malloc(sizeof(double) * gs_qpWork(n, mA, 1));
  if (!read_all(f, H, (size_t)n * n) || !read_all(f, g, (size_t)n) ||
      !read_all(f, A, (size_t)mA * n) || !read_all(f, b, (size_t)mA)) {
    fprintf(stderr, "short file %s\n", argv[1]);
    return 1;
  }
  fclose(f);
  gsLCPStat st;
  gs_qp(n, H, g, mA, A, b, 1, 0, x, NULL, &st, work);
  double best = 1e30;
  for (int trial = 0; trial < 3; trial++) {
    double t0 = bench_now();
    for (int i = 0; i < reps; i++) gs_qp(n, H, g, mA, A, b, 1, 0, x, NULL, &st, work);
    double t = (bench_now() - t0) / reps;
    if (t < best) best = t;
  }
  double obj = 0;
  for (int i = 0; i < n; i++) {
    double hx = 0;
    for (int j = 0; j < n; j++) hx += H[(size_t)i * n + j] * x[j];
    obj += 0.5 * x[i] * hx + g[i] * x[i];
  }
  printf("%.3f %.17g %d %d\n", 1e6 * best, obj, st.pivots, st.status);
  for (int i = 0; i < n; i++) printf("%.17g\n", x[i]);
  free(H); free(g); free(A); free(b); free(x); free(work);
  return 0;
}
