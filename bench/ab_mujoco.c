/* gauss against MuJoCo (the benchmark partner, loaded only by this program, never by the
 * library) in one process, rated by the thread's CPU time: on a machine shared with other work
 * the time the scheduler gives to other processes is not counted, where wall-clock rounds move by
 * 2x between runs minutes apart. Both load MODEL, reset to its first keyframe (or the default
 * state), take the same controls (seeded, inside the control ranges) and step N times; who goes
 * first alternates over R rounds; prints the minimum and the median per step of each and the
 * ratio (above 1: gauss is faster).
 *
 *   gcc -O2 -Iinclude -I$MJ/include bench/ab_mujoco.c -o /tmp/ab_mujoco build/release/libgauss.so \
 *       $MJ/libmujoco.so.3.3.7 -Wl,-rpath,$PWD/build/release:$MJ
 *   /tmp/ab_mujoco MODEL.xml N R [smooth]
 *
 * (MJ: the mujoco Python package's folder.) */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gauss/gauss.h"
#include "mujoco/mujoco.h"
#include "bench_util.h"


int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: ab_mujoco MODEL.xml STEPS ROUNDS\n");
    return 2;
  }
  int steps = atoi(argv[2]), rounds = atoi(argv[3]);
  if (steps < 1 || rounds < 1 || rounds > 200) return 2;
  char err[1000];
  gsModel* gm = gs_loadXML(argv[1], err, sizeof err);
  if (!gm) { fprintf(stderr, "%s\n", err); return 1; }
  mjModel* mm = mj_loadXML(argv[1], NULL, err, sizeof err);
  if (!mm) { fprintf(stderr, "%s\n", err); return 1; }
  if (argc > 4 && !strcmp(argv[4], "smooth")) {  /* contacts disabled in both */
    gm->opt.disableflags |= GS_DSBL_CONTACT;
    mm->opt.disableflags |= mjDSBL_CONTACT;
  }
  gsData* gd = gs_makeData(gm);
  mjData* md = mj_makeData(mm);
  int* limited = malloc(sizeof(int) * (size_t)(mm->nu ? mm->nu : 1));
  for (int i = 0; i < mm->nu; i++) limited[i] = mm->actuator_ctrllimited[i];
  double tg[200], tm[200];
  for (int r = 0; r < rounds; r++) {
    for (int kk = 0; kk < 2; kk++) {
      int k = (r & 1) ? 1 - kk : kk;
      double t0;
      if (k == 0) {
        if (gm->nkey) gs_resetDataKeyframe(gm, gd, 0);
        else gs_resetData(gm, gd);
        bench_controls(gm->nu, gm->actuator_ctrllimited, gm->actuator_ctrlrange, gd->ctrl);
        t0 = bench_seconds(CLOCK_THREAD_CPUTIME_ID);
        for (int s = 0; s < steps; s++) gs_step(gm, gd);
        tg[r] = (bench_seconds(CLOCK_THREAD_CPUTIME_ID) - t0) / steps;
      } else {
        if (mm->nkey) mj_resetDataKeyframe(mm, md, 0);
        else mj_resetData(mm, md);
        bench_controls(mm->nu, limited, mm->actuator_ctrlrange, md->ctrl);
        t0 = bench_seconds(CLOCK_THREAD_CPUTIME_ID);
        for (int s = 0; s < steps; s++) mj_step(mm, md);
        tm[r] = (bench_seconds(CLOCK_THREAD_CPUTIME_ID) - t0) / steps;
      }
    }
  }
  qsort(tg, (size_t)rounds, sizeof(double), bench_cmp_double);
  qsort(tm, (size_t)rounds, sizeof(double), bench_cmp_double);
  printf("%s: gauss %.1f / %.1f us, MuJoCo %.1f / %.1f us (min / median CPU time per step, %d "
         "rounds of %d): %.3fx (min) %.3fx (median)\n",
         argv[1], 1e6 * tg[0], 1e6 * tg[rounds / 2], 1e6 * tm[0], 1e6 * tm[rounds / 2], rounds,
         steps, tm[0] / tg[0], tm[rounds / 2] / tg[rounds / 2]);
  free(limited);
  mj_deleteData(md);
  mj_deleteModel(mm);
  gs_freeData(gd);
  gs_freeModel(gm);
  return 0;
}
