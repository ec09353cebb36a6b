/* Two builds of libgauss timed against each other in one process: both load MODEL, set the same
 * controls (seeded, inside the control ranges) after each reset, and step N times, the builds
 * alternating which goes first over R rounds; prints the median time per step of each and the
 * last qpos[0] of both (equal when the change keeps the numbers). Each round starts from the
 * model's first keyframe where it has one, else from the default state.
 *
 *   gcc -O2 -Iinclude bench/ab_step.c -o /tmp/ab_step -ldl
 *   /tmp/ab_step MODEL.xml BEFORE/libgauss.so AFTER/libgauss.so N R [cpu]
 *
 * With `cpu`, the rounds are timed by the thread's CPU time (the time the scheduler gives other
 * processes on a shared machine is not counted) and the minimum over rounds is printed too; with
 * `smooth` after it (`cpu smooth`, or `wall smooth`), contacts are disabled in both. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gauss/gauss.h"
#include "bench_util.h"
typedef gsModel* (*load_f)(const char*, char*, int);
typedef gsData* (*make_f)(const gsModel*);
typedef void (*step_f)(const gsModel*, gsData*);
typedef void (*reset_f)(const gsModel*, gsData*);
typedef void (*resetkey_f)(const gsModel*, gsData*, int);
static clockid_t clock_id = CLOCK_MONOTONIC;
int main(int argc, char** argv) {
  if (argc < 6) {
    fprintf(stderr, "usage: ab_step MODEL.xml BEFORE.so AFTER.so STEPS ROUNDS\n");
    return 2;
  }
  const char* libs[2] = {argv[2], argv[3]};
  int steps = atoi(argv[4]), rounds = atoi(argv[5]);
  int cpu = argc > 6 && !strcmp(argv[6], "cpu");
  int smooth = argc > 7 && !strcmp(argv[7], "smooth");
  if (cpu) clock_id = CLOCK_THREAD_CPUTIME_ID;
  if (rounds < 1 || rounds > 64 || steps < 1) return 2;
  gsModel* m[2]; gsData* d[2]; step_f st[2]; reset_f rs[2]; resetkey_f rk[2];
  for (int k = 0; k < 2; k++) {
    void* h = dlopen(libs[k], RTLD_NOW | RTLD_LOCAL);
    if (!h) { fprintf(stderr, "%s\n", dlerror()); return 1; }
    char err[1000];
    m[k] = ((load_f)dlsym(h, "gs_loadXML"))(argv[1], err, sizeof err);
    if (!m[k]) { fprintf(stderr, "%s\n", err); return 1; }
    if (smooth) m[k]->opt.disableflags |= GS_DSBL_CONTACT;
    d[k] = ((make_f)dlsym(h, "gs_makeData"))(m[k]);
    st[k] = (step_f)dlsym(h, "gs_step"); rs[k] = (reset_f)dlsym(h, "gs_resetData");
    rk[k] = (resetkey_f)dlsym(h, "gs_resetDataKeyframe");
  }
  double t[2][64];
  for (int r = 0; r < rounds; r++) {
    for (int kk = 0; kk < 2; kk++) {
      int k = (r & 1) ? 1 - kk : kk;
      if (m[k]->nkey) rk[k](m[k], d[k], 0);  /* a model's first keyframe where it has one */
      else rs[k](m[k], d[k]);
      srand(1);
      for (int i = 0; i < m[k]->nu; i++) {
        double lo = -1, hi = 1;
        if (m[k]->actuator_ctrllimited[i]) { lo = m[k]->actuator_ctrlrange[2*i]; hi = m[k]->actuator_ctrlrange[2*i+1]; }
        d[k]->ctrl[i] = lo + (hi - lo) * (rand() / (double)RAND_MAX);
      }
      double t0 = bench_seconds(clock_id);
      for (int s = 0; s < steps; s++) st[k](m[k], d[k]);
      t[k][r] = (bench_seconds(clock_id) - t0) / steps;
    }
  }
  qsort(t[0], rounds, sizeof(double), bench_cmp_double); qsort(t[1], rounds, sizeof(double), bench_cmp_double);
  if (cpu)
    printf("CPU time: minimum before %.1f us/step, after %.1f us/step: %.3fx\n", 1e6 * t[0][0],
           1e6 * t[1][0], t[0][0] / t[1][0]);
  printf("%s: before %.1f us/step, after %.1f us/step (median of %d alternating rounds of %d steps): %.2fx\n",
         argv[1], 1e6 * t[0][rounds/2], 1e6 * t[1][rounds/2], rounds, steps, t[0][rounds/2] / t[1][rounds/2]);
  printf("final qpos0 %.17g %.17g\n", d[0]->qpos[0], d[1]->qpos[0]);
  return 0;
}
