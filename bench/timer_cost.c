/* What gauss's stage timers cost a step: one model stepped with the timers off and on in
 * alternating rounds (the same controls, from the first keyframe or the default state each
 * round), rated by the thread's CPU time; prints the best round of each and their ratio, and the
 * cost of one clock read on this machine.
 *
 *   gcc -O2 -Iinclude bench/timer_cost.c -o /tmp/timer_cost build/release/libgauss.so \
 *       -Wl,-rpath,$PWD/build/release
 *   /tmp/timer_cost MODEL.xml [STEPS [smooth]]
 *
 * ("smooth": contacts disabled.) bench/suite.py times both engines with their timers off for
 * this reason: the clock is read some 25-35 times a step, in each engine. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gauss/gauss.h"
#include "bench_util.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: timer_cost MODEL.xml [STEPS [smooth]]\n");
    return 2;
  }
  char err[1000];
  gsModel* m = gs_loadXML(argv[1], err, sizeof err);
  if (!m) {
    fprintf(stderr, "%s\n", err);
    return 1;
  }
  if (argc > 3 && !strcmp(argv[3], "smooth")) m->opt.disableflags |= GS_DSBL_CONTACT;
  gsData* d = gs_makeData(m);
  int steps = argc > 2 ? atoi(argv[2]) : 5000;
  double best[2] = {1e30, 1e30};
  for (int round = 0; round < 10; round++) {
    for (int on = 0; on < 2; on++) {
      if (m->nkey) gs_resetDataKeyframe(m, d, 0);
      else gs_resetData(m, d);
      bench_controls(m->nu, m->actuator_ctrllimited, m->actuator_ctrlrange, d->ctrl);
      d->timeron = on;
      double t = bench_seconds(CLOCK_THREAD_CPUTIME_ID);
      for (int s = 0; s < steps; s++) gs_step(m, d);
      t = (bench_seconds(CLOCK_THREAD_CPUTIME_ID) - t) / steps;
      if (t < best[on]) best[on] = t;
    }
  }
  printf("%s: timers off %.2f us/step, on %.2f us/step: %.3fx\n", argv[1], best[0] * 1e6,
         best[1] * 1e6, best[1] / best[0]);
  struct timespec a;
  double t0 = bench_seconds(CLOCK_THREAD_CPUTIME_ID);
  for (int i = 0; i < 1000000; i++) clock_gettime(CLOCK_MONOTONIC, &a);
  printf("one clock read (CLOCK_MONOTONIC): %.1f ns\n", (bench_seconds(CLOCK_THREAD_CPUTIME_ID) - t0) * 1e3);
  gs_freeData(d);
  gs_freeModel(m);
  return 0;
}
