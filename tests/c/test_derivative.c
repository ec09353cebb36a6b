/* Transition derivatives (gs_transitionFD): the closed form of a damped slide joint driven by a
 * motor under Euler, any subset of the matrices giving the same bits as all four, and the data's
 * state left bit-identical on a scene with contacts, a ball joint and an activation. This test
 * also runs under ASan and UBSan. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gauss/gauss.h"

#include "check.h"
#include "core_util.h"

#define H 0.01
#define B_DAMP 0.7
#define MASS 2.0
#define GEAR 3.0

static const char* kSlide =
    "<mujoco><option timestep='0.01' gravity='0 0 0'/><worldbody><body>"
    "<joint name='x' type='slide' axis='1 0 0' damping='0.7'/>"
    "<geom type='sphere' size='.1' mass='2'/></body></worldbody>"
    "<actuator><motor name='m' joint='x' gear='3' ctrlrange='-1 1'/></actuator>"
    "<sensor><jointpos joint='x'/><actuatorfrc actuator='m'/></sensor></mujoco>";

/* Euler with implicit damping: v' = v + h (g u - b v) / (M + h b), q' = q + h v' */
static void test_slide(int centered, double u) {
  gsModel* m = load_xml(kSlide);
  if (!m) {
    CHECK(0, "slide model");
    return;
  }
  gsData* d = gs_makeData(m);
  d->qpos[0] = 0.3;
  d->qvel[0] = -0.8;
  d->ctrl[0] = u;
  double A[4], B[2], C[4], D[2];
  gs_transitionFD(m, d, 1e-6, centered, A, B, C, D);
  double k = H / (MASS + H * B_DAMP), dvdv = 1 - k * B_DAMP;
  double A0[4] = {1, H * dvdv, 0, dvdv}, B0[2] = {H * k * GEAR, k * GEAR};
  double C0[4] = {1, 0, 0, 0}, D0[2] = {0, 1};
  for (int i = 0; i < 4; i++) CHECK(fabs(A[i] - A0[i]) < 1e-8, "A[%d] %g vs %g", i, A[i], A0[i]);
  for (int i = 0; i < 2; i++) CHECK(fabs(B[i] - B0[i]) < 1e-8, "B[%d] %g vs %g (u %g)", i, B[i], B0[i], u);
  for (int i = 0; i < 4; i++) CHECK(fabs(C[i] - C0[i]) < 1e-8, "C[%d] %g", i, C[i]);
  for (int i = 0; i < 2; i++) CHECK(fabs(D[i] - D0[i]) < 1e-8, "D[%d] %g", i, D[i]);
  gs_freeData(d);
  gs_freeModel(m);
}

static const char* kScene =
    "<mujoco><option timestep='0.005'/><worldbody><geom type='plane' size='5 5 .1'/>"
    "<body pos='0 0 .09'><freejoint/><geom type='box' size='.1 .08 .06'/>"
    "<body pos='.15 0 0'><joint type='ball' damping='.05'/>"
    "<geom type='capsule' fromto='0 0 0 .2 0 0' size='.03'/>"
    "<body pos='.2 0 0'><joint name='h' axis='0 1 0' damping='.1' range='-1 1'/>"
    "<geom type='capsule' fromto='0 0 0 .2 0 0' size='.03'/><site name='tip' pos='.2 0 0'/>"
    "</body></body></body></worldbody>"
    "<actuator><general joint='h' dyntype='filter' dynprm='.05' ctrlrange='-1 1'/>"
    "<motor joint='h' ctrlrange='-1 1'/></actuator>"
    "<sensor><touch site='tip'/><jointvel joint='h'/></sensor></mujoco>";

static int same(const double* a, const double* b, int n) { return !memcmp(a, b, sizeof(double) * (size_t)n); }

static void test_subsets_and_state(int centered) {
  gsModel* m = load_xml(kScene);
  if (!m) {
    CHECK(0, "scene model");
    return;
  }
  gsData* d = gs_makeData(m);
  unsigned seed = 3;
  for (int s = 0; s < 30; s++) {
    for (int i = 0; i < m->nu; i++) d->ctrl[i] = urand(&seed);
    gs_step(m, d);
  }
  CHECK(d->ncon > 0, "the scene touches the floor");
  int n = 2 * m->nv + m->na, nu = m->nu, ns = m->nsensordata;
  enum { N = 2 * 10 + 1 };  /* free 6, ball 3, hinge 1; one activation */
  CHECK(n == N, "state size %d", n);
  static double A[N * N], B[N * 2], C[2 * N], D[2 * 2], A1[N * N], B1[N * 2], C1[2 * N], D1[2 * 2];
  double qpos[MAXV], qvel[MAXV], act[4], ctrl[4], warm[MAXV], t = d->time;
  memcpy(qpos, d->qpos, sizeof(double) * (size_t)m->nq);
  memcpy(qvel, d->qvel, sizeof(double) * (size_t)m->nv);
  memcpy(act, d->act, sizeof(double) * (size_t)m->na);
  memcpy(ctrl, d->ctrl, sizeof(double) * (size_t)nu);
  memcpy(warm, d->qacc_warmstart, sizeof(double) * (size_t)m->nv);
  gs_transitionFD(m, d, 1e-6, centered, A, B, C, D);
  CHECK(d->time == t && same(qpos, d->qpos, m->nq) && same(qvel, d->qvel, m->nv) &&
            same(act, d->act, m->na) && same(ctrl, d->ctrl, nu) && same(warm, d->qacc_warmstart, m->nv),
        "the state is left bit-identical");
  /* the sensors change nothing in the dynamics: each matrix alone gives the same bits */
  gs_transitionFD(m, d, 1e-6, centered, A1, NULL, NULL, NULL);
  gs_transitionFD(m, d, 1e-6, centered, NULL, B1, NULL, NULL);
  gs_transitionFD(m, d, 1e-6, centered, NULL, NULL, C1, NULL);
  gs_transitionFD(m, d, 1e-6, centered, NULL, NULL, NULL, D1);
  CHECK(same(A, A1, n * n) && same(B, B1, n * nu) && same(C, C1, ns * n) && same(D, D1, ns * nu),
        "subsets give the same bits (centred %d)", centered);
  double amax = 0;
  for (int i = 0; i < n * n; i++) amax = fabs(A[i]) > amax ? fabs(A[i]) : amax;
  CHECK(isfinite(amax) && amax >= 1, "A holds the identity's order at least: %g", amax);
  gs_transitionFD(m, d, 1e-6, centered, NULL, NULL, NULL, NULL);  /* nothing asked: nothing done */
  CHECK(d->time == t && same(qpos, d->qpos, m->nq), "nothing asked leaves the state");
  gs_freeData(d);
  gs_freeModel(m);
}

/* the columns of controls and velocities (steps that keep the position stage, Euler's factor and
 * PGS's dual setup) against full gs_step calls on a copy, differenced the same way: the same bits */
static void test_reuse_bits(const char* solver) {
  char xml[4000];
  snprintf(xml, sizeof xml, "%s", kScene);
  char* opt = strstr(xml, "<option ");
  char tail[4000];
  snprintf(tail, sizeof tail, "%s", opt + 8);
  snprintf(opt + 8, sizeof xml - (size_t)(opt + 8 - xml), "solver='%s' %s", solver, tail);
  gsModel* m = load_xml(xml);
  if (!m) {
    CHECK(0, "scene model");
    return;
  }
  gsData* d = gs_makeData(m);
  unsigned seed = 5;
  for (int s = 0; s < 30; s++) {
    for (int i = 0; i < m->nu; i++) d->ctrl[i] = urand(&seed);
    gs_step(m, d);
  }
  CHECK(d->nefc > 0, "rows at the state");
  enum { N = 2 * 10 + 1 };
  static double A[N * N], B[N * 2];
  gs_transitionFD(m, d, 1e-6, 0, A, B, NULL, NULL);
  int nv = m->nv, nq = m->nq, na = m->na;
  double x0[3 * MAXV], x1[3 * MAXV], col[N];
  gsData* c = gs_copyData(NULL, m, d);
  gs_step(m, c);
  memcpy(x0, c->qpos, sizeof(double) * (size_t)nq);
  memcpy(x0 + nq, c->qvel, sizeof(double) * (size_t)nv);
  memcpy(x0 + nq + nv, c->act, sizeof(double) * (size_t)na);
  for (int k = 0; k < m->nu + nv; k++) {
    gs_copyData(c, m, d);
    if (k < m->nu) c->ctrl[k] += 1e-6;
    else c->qvel[k - m->nu] += 1e-6;
    gs_step(m, c);
    memcpy(x1, c->qpos, sizeof(double) * (size_t)nq);
    memcpy(x1 + nq, c->qvel, sizeof(double) * (size_t)nv);
    memcpy(x1 + nq + nv, c->act, sizeof(double) * (size_t)na);
    gs_differentiatePos(m, col, 1e-6, x0, x1);
    for (int i = 0; i < nv + na; i++) col[nv + i] = (x1[nq + i] - x0[nq + i]) / 1e-6;
    int ok = 1;
    for (int i = 0; i < N; i++) {
      double v = k < m->nu ? B[i * m->nu + k] : A[i * N + nv + (k - m->nu)];
      ok &= !memcmp(&v, col + i, sizeof v);
    }
    CHECK(ok, "%s: column %d as full steps give it", solver, k);
  }
  gs_freeData(c);
  gs_freeData(d);
  gs_freeModel(m);
}

int main(void) {
  test_reuse_bits("PGS");
  test_reuse_bits("Newton");
  for (int c = 0; c < 2; c++) {
    test_slide(c, 0.25);
    test_slide(c, 1);   /* at the upper limit: one-sided into the range */
    test_slide(c, -1);
    test_subsets_and_state(c);
  }
  return CHECK_SUMMARY();
}
