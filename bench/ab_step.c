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
typedef int (*field_f)(const gsModel*, int, gsFieldInfo*);
typedef int (*dfield_f)(const gsModel*, const gsData*, int, gsFieldInfo*);
typedef const char* (*size_f)(const gsModel*, int, int*);
typedef gsOption* (*option_f)(gsModel*);

/* Each build's model and data are read through its own introspection (sizes, options and fields
 * by name), never through this file's gsModel: two builds whose field lists differ (a field
 * added) lay the struct out differently, and one of them would otherwise be handed another
 * field's array. */
static void* h_lib[2];

static void* field_of(int k, const gsModel* m, const gsData* d, const char* name) {
  gsFieldInfo fi;
  if (d) {
    dfield_f f = (dfield_f)dlsym(h_lib[k], "gs_dataField");
    for (int i = 0; f(m, d, i, &fi); i++)
      if (!strcmp(fi.name, name)) return fi.ptr;
  } else {
    field_f f = (field_f)dlsym(h_lib[k], "gs_modelField");
    for (int i = 0; f(m, i, &fi); i++)
      if (!strcmp(fi.name, name)) return fi.ptr;
  }
  fprintf(stderr, "no field %s\n", name);
  exit(1);
}

static int size_of(int k, const gsModel* m, const char* name) {
  size_f f = (size_f)dlsym(h_lib[k], "gs_modelSize");
  int v = 0;
  const char* n;
  for (int i = 0; (n = f(m, i, &v)) != NULL; i++)
    if (!strcmp(n, name)) return v;
  fprintf(stderr, "no size %s\n", name);
  exit(1);
}
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
    void* h = h_lib[k] = dlopen(libs[k], RTLD_NOW | RTLD_LOCAL);
    if (!h) { fprintf(stderr, "%s\n", dlerror()); return 1; }
    char err[1000];
    m[k] = ((load_f)dlsym(h, "gs_loadXML"))(argv[1], err, sizeof err);
    if (!m[k]) { fprintf(stderr, "%s\n", err); return 1; }
    if (smooth) ((option_f)dlsym(h, "gs_modelOption"))(m[k])->disableflags |= GS_DSBL_CONTACT;
    d[k] = ((make_f)dlsym(h, "gs_makeData"))(m[k]);
    st[k] = (step_f)dlsym(h, "gs_step"); rs[k] = (reset_f)dlsym(h, "gs_resetData");
    rk[k] = (resetkey_f)dlsym(h, "gs_resetDataKeyframe");
  }
  double t[2][64];
  for (int r = 0; r < rounds; r++) {
    for (int kk = 0; kk < 2; kk++) {
      int k = (r & 1) ? 1 - kk : kk;
      if (size_of(k, m[k], "nkey")) rk[k](m[k], d[k], 0);  /* the first keyframe where there is one */
      else rs[k](m[k], d[k]);
      srand(1);
      const int* limited = field_of(k, m[k], NULL, "actuator_ctrllimited");
      const double* range = field_of(k, m[k], NULL, "actuator_ctrlrange");
      double* ctrl = field_of(k, m[k], d[k], "ctrl");
      for (int i = 0; i < size_of(k, m[k], "nu"); i++) {
        double lo = -1, hi = 1;
        if (limited[i]) lo = range[2 * i], hi = range[2 * i + 1];
        ctrl[i] = lo + (hi - lo) * (rand() / (double)RAND_MAX);
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
  printf("final qpos0 %.17g %.17g\n", ((double*)field_of(0, m[0], d[0], "qpos"))[0],
         ((double*)field_of(1, m[1], d[1], "qpos"))[0]);
  return 0;
}
