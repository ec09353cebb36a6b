/* Small pieces the C benchmarks share: a clock, the comparison their medians sort with, and the
 * controls the side-by-side benchmarks give both engines. A file that includes this defines
 * _POSIX_C_SOURCE first (clock_gettime). */
#ifndef GAUSS_BENCH_UTIL_H
#define GAUSS_BENCH_UTIL_H
#include <stdlib.h>
#include <time.h>

/* seconds on a clock: CLOCK_MONOTONIC for wall time, CLOCK_THREAD_CPUTIME_ID for the time the
 * scheduler gave this thread (for a machine shared with other work) */
static inline double bench_seconds(clockid_t id) {
  struct timespec t;
  clock_gettime(id, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static inline double bench_now(void) { return bench_seconds(CLOCK_MONOTONIC); }

/* ascending doubles, for qsort */
static inline int bench_cmp_double(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* seeded, uniform inside each actuator's control range (or [-1, 1] where it is not limited), the
 * same every call */
static inline void bench_controls(int nu, const int* limited, const double* range, double* ctrl) {
  srand(1);
  for (int i = 0; i < nu; i++) {
    double lo = -1, hi = 1;
    if (limited[i]) { lo = range[2 * i]; hi = range[2 * i + 1]; }
    ctrl[i] = lo + (hi - lo) * (rand() / (double)RAND_MAX);
  }
}

#endif
