/* The analytical inverse against the forward: the round trip (forward at a tight Newton tolerance,
 * then the inverse of its qacc gives back the applied force and the rows' forces), skipped stages
 * giving the same bits as the full passes, and bad accelerations (counted, nothing computed, no
 * crash). This test also runs under ASan and UBSan. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gauss/gauss.h"

#include "check.h"
#include "core_util.h"

/* a box on a plane (elliptic cone), a limited hinge with friction loss and a motor, a second box
 * held by a weld to the world, and a ball in contact (pyramidal contacts come from the cone flag) */
static const char* kScene =
    "<mujoco><option timestep='0.002' cone='%s' tolerance='1e-14' iterations='200'/>"
    "<worldbody><geom name='floor' type='plane' size='5 5 0.1'/>"
    "<body pos='0 0 0.099'><freejoint/><geom type='box' size='0.1 0.1 0.1'/></body>"
    "<body pos='1 0 0.5'><joint name='h' type='hinge' axis='0 1 0' range='-30 30' frictionloss='0.3'"
    " damping='0.1'/><geom type='capsule' fromto='0 0 0 0.3 0 0' size='0.02'/></body>"
    "<body name='w' pos='0 1 0.5'><freejoint/><geom type='sphere' size='0.1'/></body>"
    "<body pos='0.5 0.5 0.05'><freejoint/><geom type='sphere' size='0.06' condim='6'/></body>"
    "</worldbody><equality><weld body1='w'/></equality>"
    "<actuator><motor joint='h'/></actuator></mujoco>";

static gsModel* scene(const char* cone) {
  char xml[2000];
  snprintf(xml, sizeof xml, kScene, cone);
  return load_xml(xml);
}

static double max_abs(const gsReal* x, int n) {
  double r = 0;
  for (int i = 0; i < n; i++) r = fmax(r, fabs(x[i]));
  return r;
}

/* after some steps with random-ish forces: forward, then the inverse of its qacc */
static void test_round_trip(const char* cone) {
  gsModel* m = scene(cone);
  CHECK(m != NULL, "%s: scene loads", cone);
  if (!m) return;
  gsData* d = gs_makeData(m);
  int nv = m->nv, rows = 0;
  double worst_q = 0, worst_f = 0;
  gsReal applied[64], force[256];
  for (int k = 0; k < 200; k++) {
    for (int i = 0; i < nv; i++) d->qfrc_applied[i] = 0.5 * sin(0.37 * k + i);
    d->ctrl[0] = cos(0.11 * k);
    d->xfrc_applied[6 * 2 + 0] = 0.2 * sin(0.05 * k);
    gs_step(m, d);
    if (k % 20) continue;
    gs_forward(m, d);
    /* qfrc_applied + qfrc_actuator + J^T xfrc_applied: the smooth force less the passive and
     * bias forces */
    for (int i = 0; i < nv; i++)
      applied[i] = d->qfrc_smooth[i] - d->qfrc_passive[i] + d->qfrc_bias[i];
    int nefc = d->nefc;
    rows += nefc;
    memcpy(force, d->efc_force, sizeof(gsReal) * (size_t)nefc);
    gs_inverse(m, d);
    CHECK(d->nefc == nefc, "%s: same rows", cone);
    double qs = fmax(1, max_abs(applied, nv)), fs = fmax(1, max_abs(force, nefc));
    for (int i = 0; i < nv; i++) worst_q = fmax(worst_q, fabs(d->qfrc_inverse[i] - applied[i]) / qs);
    for (int r = 0; r < nefc; r++) worst_f = fmax(worst_f, fabs(d->efc_force[r] - force[r]) / fs);
  }
  CHECK(rows > 0, "%s: rows seen", cone);
  CHECK(worst_q < 1e-8, "%s: qfrc_inverse round trip %g", cone, worst_q);
  CHECK(worst_f < 1e-8, "%s: efc_force round trip %g", cone, worst_f);
  gs_freeData(d);
  gs_freeModel(m);
}

/* skipping stages whose inputs did not change gives the same bits */
static void test_skip(void) {
  gsModel* m = scene("elliptic");
  if (!m) return;
  gsData* a = gs_makeData(m);
  for (int k = 0; k < 50; k++) gs_step(m, a);
  gsData* b = gs_copyData(NULL, m, a);
  int nv = m->nv;
  gs_forward(m, a);
  gs_forward(m, b);
  a->ctrl[0] = b->ctrl[0] = 0.7;
  a->qfrc_applied[1] = b->qfrc_applied[1] = 0.3;
  gs_forward(m, a);
  gs_forwardSkip(m, b, GS_STAGE_VEL, 0);
  CHECK(memcmp(a->qacc, b->qacc, sizeof(gsReal) * (size_t)nv) == 0, "forward skip vel: same qacc");
  a->qvel[0] = b->qvel[0] = a->qvel[0] + 1e-6;
  gs_forward(m, a);
  gs_forwardSkip(m, b, GS_STAGE_POS, 0);
  CHECK(memcmp(a->qacc, b->qacc, sizeof(gsReal) * (size_t)nv) == 0, "forward skip pos: same qacc");
  for (int i = 0; i < nv; i++) a->qacc[i] = b->qacc[i] = 0.1 * i;
  gs_inverse(m, a);
  gs_inverseSkip(m, b, GS_STAGE_VEL, 0);
  CHECK(memcmp(a->qfrc_inverse, b->qfrc_inverse, sizeof(gsReal) * (size_t)nv) == 0,
        "inverse skip vel: same qfrc_inverse");
  /* the inverse leaves out the factor of M and the islands (gsData.deferred): a forward that
   * skips the position stage after it computes them first, and gives the full forward's bits */
  for (int i = 0; i < nv; i++) a->qacc[i] = b->qacc[i] = -0.2 * i;
  gs_inverse(m, b);
  CHECK(b->deferred == (GS_DEFER_FACTOR | GS_DEFER_ISLAND), "inverse defers: %d", b->deferred);
  a->ctrl[0] = b->ctrl[0] = -0.4;
  gs_forward(m, a);
  gs_forwardSkip(m, b, GS_STAGE_VEL, 0);
  CHECK(b->deferred == 0, "completed: %d", b->deferred);
  CHECK(memcmp(a->qacc, b->qacc, sizeof(gsReal) * (size_t)nv) == 0, "forward skip after inverse");
  CHECK(memcmp(a->qLD, b->qLD, sizeof(gsReal) * (size_t)m->nM) == 0, "same factor");
  CHECK(a->nisland == b->nisland, "same islands");
  /* gs_solveM after the inverse factors first */
  gsReal x[64], y[64];
  for (int i = 0; i < nv; i++) y[i] = 1 + i;
  gs_inverse(m, b);
  gs_solveM(m, b, x, y, 1);
  gs_solveM(m, a, y, y, 1);
  CHECK(memcmp(x, y, sizeof(gsReal) * (size_t)nv) == 0, "solveM after the inverse");
  gs_freeData(a);
  gs_freeData(b);
  gs_freeModel(m);
}

/* NaN or Inf in qacc: counted, nothing computed from it, the state kept */
static void test_bad_qacc(void) {
  gsModel* m = scene("pyramidal");
  if (!m) return;
  gsData* d = gs_makeData(m);
  for (int k = 0; k < 20; k++) gs_step(m, d);
  gs_forward(m, d);
  gsReal q0 = d->qpos[0];
  const double bad[2] = {NAN, INFINITY};
  for (int k = 0; k < 2; k++) {
    d->qacc[3] = bad[k];
    gs_inverse(m, d);
    CHECK(d->warning[GS_WARN_BADQACC].number == k + 1, "bad qacc %g counted", bad[k]);
    CHECK(d->warning[GS_WARN_BADQACC].lastinfo == 3, "lastinfo: the dof");
    CHECK(max_abs(d->qfrc_inverse, m->nv) == 0, "qfrc_inverse not computed");
    CHECK(d->nefc == 0 || max_abs(d->efc_force, d->nefc) == 0, "efc_force not computed");
    CHECK(d->qpos[0] == q0, "state kept");
  }
  gs_freeData(d);
  gs_freeModel(m);
}

int main(void) {
  test_round_trip("elliptic");
  test_round_trip("pyramidal");
  test_skip();
  test_bad_qacc();
  return CHECK_SUMMARY();
}
