/* The clock of the stage timers. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "core/timer.h"

double gs_clock(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
