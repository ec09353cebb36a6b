/* Actuators through the public API: the sparse moment rows (layout, and the derivative of the
 * actuator length, by central differences), actuator velocities (moment . qvel and the rate of the
 * length), qfrc_actuator = moment^T force, the exact filter's step response, bad controls, user
 * dynamics, gain and bias callbacks, and the activation clamp. Also runs under ASan and UBSan. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gauss/gauss.h"

#include "check.h"
#include "core_util.h"

/* hinge and slide joints only: qpos and qvel have the same coordinates */
static const char* kChain =
    "<mujoco><option timestep='0.002'/>"
    "<worldbody><site name='w' pos='.4 .2 .3' euler='10 20 30'/>"
    "<body name='a' pos='0 0 .5'><joint name='h' type='hinge' axis='0 1 0'/>"
    "<geom type='capsule' size='.05' fromto='0 0 0 0 0 -.6'/>"
    "<site name='sa' pos='.1 .05 -.3' euler='0 30 0'/>"
    "<body name='b' pos='0 0 -.6'><joint name='s' type='slide' axis='1 0 0'/><geom size='.06'/>"
    "<site name='sb' pos='.2 -.1 -.05' euler='20 0 10'/>"
    "<body name='c' pos='.2 0 -.2'><joint name='h2' type='hinge' axis='1 1 0'/>"
    "<geom type='capsule' size='.04' fromto='0 0 0 .3 0 -.1'/><site name='sc' pos='.3 0 -.1'/>"
    "</body></body></body></worldbody>"
    "<tendon><spatial name='st'><site site='w'/><site site='sb'/><site site='sc'/></spatial>"
    "<fixed name='t'><joint joint='h' coef='1.5'/><joint joint='s' coef='-.7'/></fixed></tendon>"
    "<actuator>"
    "<motor joint='s' gear='2'/>"
    "<motor tendon='st' gear='1.5'/>"
    "<motor tendon='t'/>"
    /* translation only: the rotational part of a refsite length is a rotation vector, whose
     * rate is the relative angular velocity (the moment) only near the identity */
    "<general site='sc' refsite='sa' gear='1 2 3 0 0 0' gainprm='2' biastype='affine'"
    " biasprm='0 -1 -.5'/>"
    "<motor cranksite='sc' slidersite='sa' cranklength='.5' gear='2'/>"
    "<general joint='h2' dyntype='filterexact' dynprm='.05' gainprm='3'/>"
    "</actuator></mujoco>";

static void set_state(const gsModel* m, gsData* d) {
  for (int i = 0; i < m->nq; i++) d->qpos[i] = 0.3 * sin(1.7 * i + 0.4);
  for (int i = 0; i < m->nv; i++) d->qvel[i] = 0.8 * cos(2.3 * i + 0.1);
  for (int i = 0; i < m->nu; i++) d->ctrl[i] = 0.5 * sin(0.9 * i + 1);
  for (int i = 0; i < m->na; i++) d->act[i] = 0.2;
}

static void test_moments(void) {
  gsModel* m = load_xml(kChain);
  CHECK(m != NULL, "chain loads");
  if (!m) return;
  gsData* d = gs_makeData(m);
  gsData* e = gs_makeData(m);
  set_state(m, d);
  gs_forward(m, d);
  int nu = m->nu, nv = m->nv, total = 0;
  for (int i = 0; i < nu; i++) {
    int adr = d->moment_rowadr[i], n = d->moment_rownnz[i];
    CHECK(adr == total, "row %d starts where the previous ends (%d != %d)", i, adr, total);
    total += n;
    for (int k = adr + 1; k < adr + n; k++)
      CHECK(d->moment_colind[k] > d->moment_colind[k - 1], "row %d: columns ascend", i);
  }
  CHECK(total <= m->nJmom, "the moments fit nJmom (%d > %d)", total, m->nJmom);
  CHECK(m->nJmom < nu * nv, "nJmom is sparser than dense (%d)", m->nJmom);

  /* moment = d length / d qpos, by central differences of the position stage */
  const double eps = 1e-6;
  for (int j = 0; j < nv; j++) {
    double lp[16], lm[16];
    for (int s = 0; s < 2; s++) {
      memcpy(e->qpos, d->qpos, sizeof(gsReal) * (size_t)m->nq);
      e->qpos[j] += s ? -eps : eps;
      gs_fwdPosition(m, e);
      for (int i = 0; i < nu; i++) (s ? lm : lp)[i] = e->actuator_length[i];
    }
    for (int i = 0; i < nu; i++) {
      double mom = 0;
      for (int k = d->moment_rowadr[i]; k < d->moment_rowadr[i] + d->moment_rownnz[i]; k++)
        if (d->moment_colind[k] == j) mom = d->actuator_moment[k];
      double fd = (lp[i] - lm[i]) / (2 * eps);
      CHECK(fabs(fd - mom) < 1e-7 * (1 + fabs(mom)), "actuator %d dof %d: moment %.12g, d length %.12g",
            i, j, mom, fd);
    }
  }
  /* velocity = moment . qvel; qfrc_actuator = moment^T force */
  double qfrc[16] = {0};
  for (int i = 0; i < nu; i++) {
    double v = 0;
    for (int k = d->moment_rowadr[i]; k < d->moment_rowadr[i] + d->moment_rownnz[i]; k++) {
      v += d->actuator_moment[k] * d->qvel[d->moment_colind[k]];
      qfrc[d->moment_colind[k]] += d->actuator_moment[k] * d->actuator_force[i];
    }
    CHECK(fabs(v - d->actuator_velocity[i]) < 1e-12, "actuator %d velocity", i);
  }
  for (int j = 0; j < nv; j++)
    CHECK(fabs(qfrc[j] - d->qfrc_actuator[j]) < 1e-12, "qfrc_actuator[%d]", j);
  gs_freeData(e);
  gs_freeData(d);
  gs_freeModel(m);
}

static void test_filterexact_and_bad_ctrl(void) {
  gsModel* m = load_xml(kChain);
  if (!m) return;
  gsData* d = gs_makeData(m);
  int f = m->nu - 1, a = m->actuator_actadr[f];
  double tau = 0.05, h = m->opt.timestep;
  d->ctrl[f] = 1;
  int ok = 1;
  for (int n = 1; n <= 100; n++) {
    gs_step(m, d);
    ok &= fabs(d->act[a] - (1 - exp(-n * h / tau))) < 1e-13;
  }
  CHECK(ok, "filterexact: act = 1 - exp(-t / tau) at every step");
  /* a NaN control: counted, and every control acts as 0 (the filter decays) */
  d->ctrl[0] = NAN;
  double before = d->act[a];
  gs_step(m, d);
  CHECK(d->warning[GS_WARN_BADCTRL].number == 1, "bad control counted");
  CHECK(fabs(d->act[a] - before * exp(-h / tau)) < 1e-13, "the filter sees control 0");
  gs_freeData(d);
  gs_freeModel(m);
}

/* ---- user callbacks ---- */
static gsReal user_dyn(const gsModel* m, const gsData* d, int id, void* user) {
  (void)m, (void)id;
  return *(double*)user * d->ctrl[id];
}
static gsReal user_gain(const gsModel* m, const gsData* d, int id, void* user) {
  (void)m, (void)d, (void)id, (void)user;
  return 4;
}
static gsReal user_bias(const gsModel* m, const gsData* d, int id, void* user) {
  (void)m, (void)user;
  return -10 * d->actuator_length[id];
}

static void test_user_callbacks(void) {
  gsModel* m = load_xml(
      "<mujoco><worldbody><body><joint name='x' type='slide'/><geom size='.1'/></body>"
      "</worldbody><actuator><general joint='x' dyntype='user' gaintype='user' biastype='user'"
      " actlimited='true' actrange='-1 .5'/></actuator></mujoco>");
  CHECK(m != NULL, "user model loads");
  if (!m) return;
  gsData* d = gs_makeData(m);
  double k = 3;
  gsCallbacks* cb = gs_dataCallbacks(d);
  /* without callbacks MJCF's behaviour: nothing */
  d->ctrl[0] = 1;
  d->act[0] = 0.25;
  d->qpos[0] = 0.1;
  gs_forward(m, d);
  CHECK(d->act_dot[0] == 0 && d->actuator_force[0] == 0, "no callbacks: no rate, no force");
  cb->act_dyn = user_dyn;
  cb->act_gain = user_gain;
  cb->act_bias = user_bias;
  cb->user = &k;
  gs_forward(m, d);
  CHECK(d->act_dot[0] == 3, "act_dot from the callback (%g)", d->act_dot[0]);
  CHECK(fabs(d->actuator_force[0] - (4 * 0.25 - 10 * 0.1)) < 1e-15, "force = gain act + bias (%g)",
        d->actuator_force[0]);
  /* the activation is clamped to actrange after the step */
  for (int n = 0; n < 200; n++) gs_step(m, d);
  CHECK(d->act[0] == 0.5, "act clamped to 0.5 (%g)", d->act[0]);
  gs_freeData(d);
  gs_freeModel(m);
}

int main(void) {
  test_moments();
  test_filterexact_and_bad_ctrl();
  test_user_callbacks();
  return CHECK_SUMMARY();
}
