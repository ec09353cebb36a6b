/* Runtime of gs_inverseRigid against the number of contacts (seed 004, Fig. 14):
 *   inverse_rigid_bench MODEL.xml [REPS]
 * loads MODEL (its first keyframe is the standing pose), runs the position and velocity stages
 * once, then times each method alone (skipstage VEL: the reduction, the solve and the forces)
 * over REPS calls, the no-slip method warm-started from the previous call as in a control loop.
 * Prints one line per method: name, contacts, microseconds per call, pivots, status.
 * bench/inverse_rigid_bench.py makes the models and the table of docs/inverse_rigid.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gauss/gauss.h"
#include "bench_util.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s MODEL.xml [REPS]\n", argv[0]);
    return 2;
  }
  int reps = argc > 2 ? atoi(argv[2]) : 2000;
  char err[1000];
  gsModel* m = gs_loadXML(argv[1], err, sizeof err);
  if (!m) {
    fprintf(stderr, "%s\n", err);
    return 1;
  }
  gsData* d = gs_makeData(m);
  if (m->nkey > 0) gs_resetDataKeyframe(m, d, 0);
  gs_forward(m, d);
  const char* names[] = {"noslip", "coulomb", "qp", "qp_stage1", "qp_kkt"};
  gsReal* qfrc = calloc((size_t)m->nv, sizeof(gsReal));
  gsReal* force = calloc(3 * (size_t)d->ncon + 3, sizeof(gsReal));
  for (int k = 0; k < 5; k++) {
    gsRigidOpt opt;
    gs_defaultRigidOpt(&opt);
    opt.method = k < 3 ? k : GS_RIGID_QP;
    opt.stage2 = k != 3;
    opt.kkt = k == 4;
    opt.skipstage = GS_STAGE_VEL;
    gsRigidWarm warm = {0};
    gsRigidStat st;
    int n = k == GS_RIGID_COULOMB || k == 4 ? (reps / 10 > 5 ? reps / 10 : 5) : reps;
    memset(d->qacc, 0, sizeof(gsReal) * (size_t)m->nv);
    gs_inverseRigid(m, d, &opt, &warm, qfrc, force, NULL, &st);   /* warm-up */
    double best = 1e30;
    for (int trial = 0; trial < 3; trial++) {
      double t0 = bench_now();
      for (int i = 0; i < n; i++) gs_inverseRigid(m, d, &opt, &warm, qfrc, force, NULL, &st);
      double t = (bench_now() - t0) / n;
      if (t < best) best = t;
    }
    printf("%s %d %.3f %d %d\n", names[k], st.ncon, 1e6 * best, st.pivots, st.status);
  }
  free(qfrc);
  free(force);
  gs_freeData(d);
  gs_freeModel(m);
  return 0;
}
