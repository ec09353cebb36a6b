/* One engine's steps of a model under callgrind, for instruction counts stage by stage against
 * MuJoCo's (the benchmark partner, loaded only by this program, never by the library):
 *
 *   gcc -O2 -Iinclude -I$MJ/include bench/cg_step.c -o /tmp/cg_step build/release/libgauss.so \
 *       $MJ/libmujoco.so.3.3.7 -Wl,-rpath,$PWD/build/release:$MJ
 *   valgrind --tool=callgrind --collect-atstart=no --toggle-collect=gs_step \
 *       /tmp/cg_step g MODEL.xml 200 smooth
 *   valgrind --tool=callgrind --collect-atstart=no --toggle-collect=mj_step \
 *       /tmp/cg_step m MODEL.xml 200 smooth
 *
 * (MJ: the mujoco Python package's folder.) Both reset to the first keyframe (or the default
 * state), take the same controls (seeded, inside the control ranges), run 20 steps uncounted,
 * then N steps; "smooth" disables contacts; "skip=K" runs K uncounted steps instead of 20 (for
 * late states: piles settled, contacts steady). With skip, count only the N steps by toggling on
 * the functions that run them (gs_step / mj_step count the skipped steps too):
 *   valgrind --tool=callgrind --collect-atstart=no --toggle-collect=cg_counted_gs \
 *       /tmp/cg_step g MODEL.xml 200 skip=6000     (cg_counted_mj for MuJoCo's) */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gauss/gauss.h"
#include "mujoco/mujoco.h"
#include "bench_util.h"


/* the counted steps, outside main so that callgrind can toggle on them alone */
__attribute__((noinline)) void cg_counted_gs(const gsModel* m, gsData* d, int steps) {
  for (int s = 0; s < steps; s++) gs_step(m, d);
}

__attribute__((noinline)) void cg_counted_mj(const mjModel* m, mjData* d, int steps) {
  for (int s = 0; s < steps; s++) mj_step(m, d);
}

int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: cg_step g|m MODEL.xml STEPS [smooth] [skip=K]\n");
    return 2;
  }
  int steps = atoi(argv[3]), smooth = 0, skip = 20;
  for (int i = 4; i < argc; i++) {
    if (!strcmp(argv[i], "smooth")) smooth = 1;
    else if (!strncmp(argv[i], "skip=", 5)) skip = atoi(argv[i] + 5);
  }
  char err[1000];
  if (argv[1][0] == 'g') {
    gsModel* m = gs_loadXML(argv[2], err, sizeof err);
    if (!m) { fprintf(stderr, "%s\n", err); return 1; }
    if (smooth) m->opt.disableflags |= GS_DSBL_CONTACT;
    gsData* d = gs_makeData(m);
    if (m->nkey) gs_resetDataKeyframe(m, d, 0);
    bench_controls(m->nu, m->actuator_ctrllimited, m->actuator_ctrlrange, d->ctrl);
    for (int s = 0; s < skip; s++) gs_step(m, d);
    cg_counted_gs(m, d, steps);
    printf("qpos0 %.17g nefc %d\n", d->qpos[0], d->nefc);
  } else {
    mjModel* m = mj_loadXML(argv[2], NULL, err, sizeof err);
    if (!m) { fprintf(stderr, "%s\n", err); return 1; }
    if (smooth) m->opt.disableflags |= mjDSBL_CONTACT;
    mjData* d = mj_makeData(m);
    if (m->nkey) mj_resetDataKeyframe(m, d, 0);
    int limited[m->nu ? m->nu : 1];
    for (int i = 0; i < m->nu; i++) limited[i] = m->actuator_ctrllimited[i];
    bench_controls(m->nu, limited, m->actuator_ctrlrange, d->ctrl);
    for (int s = 0; s < skip; s++) mj_step(m, d);
    cg_counted_mj(m, d, steps);
    printf("qpos0 %.17g nefc %d\n", d->qpos[0], d->nefc);
  }
  return 0;
}
