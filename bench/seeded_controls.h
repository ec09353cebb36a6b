/* The controls the side-by-side C benchmarks give both engines: seeded, uniform inside each
 * actuator's control range (or [-1, 1] where it is not limited), the same every call. */
#ifndef GAUSS_BENCH_SEEDED_CONTROLS_H
#define GAUSS_BENCH_SEEDED_CONTROLS_H
#include <stdlib.h>

static void controls(int nu, const int* limited, const double* range, double* ctrl) {
  srand(1);
  for (int i = 0; i < nu; i++) {
    double lo = -1, hi = 1;
    if (limited[i]) { lo = range[2 * i]; hi = range[2 * i + 1]; }
    ctrl[i] = lo + (hi - lo) * (rand() / (double)RAND_MAX);
  }
}

#endif
