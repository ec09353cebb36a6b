/* src/solver/dual.c: the dense setup's two paths for A's products (32-byte vectors where the
 * processor has AVX2, 16-byte ones otherwise) give the same forces and accelerations to the bit,
 * and the finish's M^-1 J^T f from the setup's Y (L^-1 D^-1/2 Y f) equals a solve with M of
 * J^T f to rounding. On the Gymnasium humanoid (PGS, pyramidal contacts): its joint limits alone
 * at states past their ranges (contacts off; 1 to 17 rows, so blocks of four columns with every
 * remainder), and lying on the floor with its limits and contacts (the pyramids' derived rows). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gauss/gauss.h"
#include "solver/dual.h"

/* each limited hinge past its range (by up to 0.05 either way) with probability `share`, else
 * inside it; random velocities */
static void limit_state(const gsModel* m, gsData* d, unsigned* seed, double share) {
  memcpy(d->qpos, m->qpos0, sizeof(double) * (size_t)m->nq);
  d->qpos[2] = 1.4;
  for (int j = 0; j < m->njnt; j++) {
    if (!m->jnt_limited[j]) continue;
    double lo = m->jnt_range[2 * j], hi = m->jnt_range[2 * j + 1];
    double u = (double)rand_r(seed) / RAND_MAX, v = (double)rand_r(seed) / RAND_MAX;
    int a = m->jnt_qposadr[j];
    if (u < share) d->qpos[a] = (v < 0.5 ? lo : hi) + 0.1 * (v < 0.5 ? v - 0.25 : v - 0.75);
    else d->qpos[a] = lo + (hi - lo) * v;
  }
  for (int i = 0; i < m->nv; i++) d->qvel[i] = (double)rand_r(seed) / RAND_MAX - 0.5;
}

/* forward with the 16-byte products and with the vector ones: 1 when forces and accelerations
 * agree to the bit; the largest gap between qacc and qacc_smooth + M^-1 qfrc_constraint in *gap */
static int both_paths(const gsModel* m, gsData* d, gsData* e, double* gap) {
  memcpy(e->qpos, d->qpos, sizeof(double) * (size_t)m->nq);
  memcpy(e->qvel, d->qvel, sizeof(double) * (size_t)m->nv);
  memcpy(e->qacc_warmstart, d->qacc_warmstart, sizeof(double) * (size_t)m->nv);
  gs_dualNoAVX2 = 1;
  gs_forward(m, d);
  gs_dualNoAVX2 = 0;
  gs_forward(m, e);
  int same = d->nefc == e->nefc &&
             !memcmp(d->efc_force, e->efc_force, sizeof(double) * (size_t)d->nefc) &&
             !memcmp(d->qacc, e->qacc, sizeof(double) * (size_t)m->nv);
  double x[64], scale = 1;
  gs_solveM(m, e, x, e->qfrc_constraint, 1);
  *gap = 0;
  for (int i = 0; i < m->nv; i++) scale = fmax(scale, fabs(e->qacc[i]));
  for (int i = 0; i < m->nv; i++)
    *gap = fmax(*gap, fabs(e->qacc[i] - (e->qacc_smooth[i] + x[i])) / scale);
  return same;
}

int main(void) {
  char err[512];
  gsModel* m = gs_loadXML(GAUSS_TEST_MODELS "/gymnasium/humanoid.xml", err, sizeof err);
  CHECK(m != NULL, "humanoid loads: %s", err);
  if (!m) return CHECK_SUMMARY();
  CHECK(m->nv <= 64, "nv %d", m->nv);
  gsData* d = gs_makeData(m);
  gsData* e = gs_makeData(m);
  printf("A's products in 32-byte vectors on this processor: %s\n", gs_dualAVX2() ? "yes" : "no");

  /* limits alone: every row count from 1 up */
  m->opt.disableflags |= GS_DSBL_CONTACT;
  unsigned seed = 11;
  int counts[32] = {0}, differ = 0;
  double worst = 0;
  for (int k = 0; k < 400; k++) {
    limit_state(m, d, &seed, (k % 8 + 1) / 8.0);
    double gap;
    differ += !both_paths(m, d, e, &gap);
    worst = fmax(worst, gap);
    if (d->nefc < 32) counts[d->nefc]++;
  }
  int seen = 0;
  for (int n = 1; n <= 12; n++) seen += counts[n] > 0;
  CHECK(seen == 12, "limit rows: every count from 1 to 12 reached (%d of 12)", seen);
  CHECK(differ == 0, "limits: the two product paths differ at %d of 400 states", differ);
  /* a solve with M of J^T f against L^-1 D^-1/2 Y f: the same sum in another order */
  CHECK(worst < 1e-12, "limits: qacc off qacc_smooth + M^-1 J^T f by %g (relative)", worst);

  /* lying on the floor: limits and pyramidal contacts */
  m->opt.disableflags &= ~GS_DSBL_CONTACT;
  gs_resetData(m, d);
  for (int i = 0; i < 600; i++) gs_step(m, d);
  differ = 0;
  worst = 0;
  int most = 0;
  for (int k = 0; k < 50; k++) {
    gs_step(m, d);
    double gap;
    differ += !both_paths(m, d, e, &gap);
    worst = fmax(worst, gap);
    if (d->nefc > most) most = d->nefc;
  }
  CHECK(most > 12, "on the floor: contact rows (at most %d rows)", most);
  CHECK(differ == 0, "contacts: the two product paths differ at %d of 50 states", differ);
  CHECK(worst < 1e-12, "contacts: qacc off qacc_smooth + M^-1 J^T f by %g (relative)", worst);

  gs_freeData(e);
  gs_freeData(d);
  gs_freeModel(m);
  return CHECK_SUMMARY();
}
