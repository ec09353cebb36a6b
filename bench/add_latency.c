/* The rate of a chain of dependent scalar additions on this machine: each addition waits for the
 * one before, so the rate is the clock over the addition's latency in cycles (two on the wide
 * cores whose fast adders take two, four on older ones). With the instructions callgrind counts
 * and the time a step takes, it tells whether a step is bound by its chains of latency or by
 * its instruction count (docs/performance.md, "Smooth dynamics, ninth pass").
 *
 *   gcc -O2 bench/add_latency.c -o /tmp/add_latency && /tmp/add_latency */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>

int main(void) {
  const long n = 400000000;
  double x = 1.0, y = 1e-9;
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  /* without -ffast-math the compiler may not regroup the sums: one chain of n additions */
  for (long i = 0; i < n; i++) x += y;
  clock_gettime(CLOCK_MONOTONIC, &b);
  double t = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
  printf("%.2f G dependent additions a second (x = %g)\n", (double)n / t / 1e9, x);
  return 0;
}
