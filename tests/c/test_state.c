/* State arrays and rollouts from C: component sizes add up, get/set round trips every component,
 * a restored GS_STATE_INTEGRATION state steps on bit for bit, bad specs are refused, and
 * gs_rollout and gs_stepBatch give the same bits as a plain loop on 1, 2 and 3 threads (this test also runs under
 * ASan and UBSan, which then see the threads). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gauss/gauss.h"

#include "check.h"
#include "core_util.h"

static const char* XML =
    "<mujoco><size nuserdata='2'/>"
    "<worldbody><geom type='plane' size='5 5 .1'/>"
    "<body mocap='true' pos='2 0 0'><geom size='.1' contype='0' conaffinity='0'/></body>"
    "<body name='a' pos='0 0 .3'><freejoint/><geom size='.1'/>"
    "<body pos='0 0 .3'><joint name='h' type='hinge' axis='0 1 0'/><geom size='.05' fromto='0 0 0 .3 0 0' type='capsule'/></body>"
    "</body></worldbody>"
    "<equality><connect body1='a' anchor='0 0 0' active='false'/></equality>"
    "<actuator><general joint='h' dyntype='filter' dynprm='.1'/></actuator>"
    "<sensor><jointpos joint='h'/><framepos objtype='body' objname='a'/></sensor></mujoco>";

static void fill(gsReal* x, int n, unsigned* seed) {
  for (int i = 0; i < n; i++) x[i] = (gsReal)rand_r(seed) / RAND_MAX - 0.5;
}

static int same(const gsReal* a, const gsReal* b, size_t n) { return memcmp(a, b, n * sizeof(gsReal)) == 0; }

int main(void) {
  gsModel* m = load_xml(XML);
  CHECK(m != NULL, "model loads");
  if (!m) return CHECK_SUMMARY();
  gsData* d = gs_makeData(m);

  /* sizes: each component as the header lists it, the sets their sums */
  int want[GS_NSTATE] = {1, m->nq, m->nv, m->na, m->nv, m->nu, m->nv, 6 * m->nbody, m->neq,
                         3 * m->nmocap, 4 * m->nmocap, m->nuserdata, 0};
  int sum = 0;
  for (int i = 0; i < GS_NSTATE; i++) {
    CHECK(gs_stateSize(m, 1u << i) == want[i], "component %d: %d reals, want %d", i, gs_stateSize(m, 1u << i), want[i]);
    sum += want[i];
  }
  CHECK(gs_stateSize(m, GS_STATE_INTEGRATION) == sum, "INTEGRATION holds every component");
  CHECK(gs_stateSize(m, GS_STATE_PHYSICS) == m->nq + m->nv + m->na, "PHYSICS");
  CHECK(gs_stateSize(m, 1u << GS_NSTATE) == -1, "a bit beyond GS_NSTATE is refused");

  /* round trip of random values through every component */
  unsigned seed = 11;
  int n = gs_stateSize(m, GS_STATE_INTEGRATION);
  gsReal* s = malloc(sizeof(gsReal) * (size_t)n);
  gsReal* t = malloc(sizeof(gsReal) * (size_t)n);
  fill(s, n, &seed);
  int adr_eq = 1 + m->nq + 3 * m->nv + m->na + m->nu + 6 * m->nbody;
  s[adr_eq] = 1;  /* eq_active reads back as 0 or 1 */
  CHECK(gs_setState(m, d, s, GS_STATE_INTEGRATION) == n, "set returns the count");
  CHECK(gs_getState(m, d, t, GS_STATE_INTEGRATION) == n, "get returns the count");
  CHECK(same(s, t, (size_t)n), "every component round trips");
  CHECK(d->eq_active[0] == 1, "eq_active set from a non-zero value");
  CHECK(gs_setState(m, d, s, 1u << 20) == -1 && gs_getState(m, d, t, 1u << 20) == -1, "bad spec refused");

  /* a restored state steps on bit for bit (with contacts on the plane) */
  gs_resetData(m, d);
  d->ctrl[0] = 0.7;
  gs_stepN(m, d, 200);
  gs_getState(m, d, s, GS_STATE_INTEGRATION);
  gsData* e = gs_makeData(m);
  gs_setState(m, e, s, GS_STATE_INTEGRATION);
  gs_stepN(m, d, 300);
  gs_stepN(m, e, 300);
  CHECK(same(d->qpos, e->qpos, (size_t)m->nq) && same(d->qvel, e->qvel, (size_t)m->nv) &&
        same(d->act, e->act, (size_t)m->na), "restored state continues bit for bit");

  /* rollouts: a plain loop against 1, 2 and 3 threads */
  enum { NBATCH = 5, NSTEP = 60 };
  int ns = gs_stateSize(m, GS_STATE_FULLPHYSICS), nsd = m->nsensordata;
  gsReal* s0 = malloc(sizeof(gsReal) * NBATCH * (size_t)ns);
  gsReal* ctrl = malloc(sizeof(gsReal) * NBATCH * NSTEP * (size_t)m->nu);
  gsReal* ref = malloc(sizeof(gsReal) * NBATCH * NSTEP * (size_t)ns);
  gsReal* refsd = malloc(sizeof(gsReal) * NBATCH * NSTEP * (size_t)nsd);
  gsReal* out = malloc(sizeof(gsReal) * NBATCH * NSTEP * (size_t)ns);
  gsReal* outsd = malloc(sizeof(gsReal) * NBATCH * NSTEP * (size_t)nsd);
  fill(ctrl, NBATCH * NSTEP * m->nu, &seed);
  for (int i = 0; i < NBATCH; i++) {
    gs_resetData(m, d);
    fill(d->qvel, m->nv, &seed);
    gs_getState(m, d, s0 + i * ns, GS_STATE_FULLPHYSICS);
  }
  for (int i = 0; i < NBATCH; i++) {
    gs_resetData(m, d);
    gs_setState(m, d, s0 + i * ns, GS_STATE_FULLPHYSICS);
    for (int k = 0; k < NSTEP; k++) {
      memcpy(d->ctrl, ctrl + (i * NSTEP + k) * m->nu, sizeof(gsReal) * (size_t)m->nu);
      gs_step(m, d);
      gs_getState(m, d, ref + (i * NSTEP + k) * ns, GS_STATE_FULLPHYSICS);
      memcpy(refsd + (i * NSTEP + k) * nsd, d->sensordata, sizeof(gsReal) * (size_t)nsd);
    }
  }
  gsData* datas[3] = {gs_makeData(m), gs_makeData(m), gs_makeData(m)};
  for (int nthread = 1; nthread <= 3; nthread++) {
    memset(out, 0, sizeof(gsReal) * NBATCH * NSTEP * (size_t)ns);
    int rc = gs_rollout(m, datas, nthread, NBATCH, NSTEP, GS_STATE_CTRL, s0, NULL, ctrl, out, outsd);
    CHECK(rc == 0, "rollout runs");
    CHECK(same(out, ref, NBATCH * NSTEP * (size_t)ns), "%d threads: states equal the plain loop", nthread);
    CHECK(same(outsd, refsd, NBATCH * NSTEP * (size_t)nsd), "%d threads: sensors equal the plain loop", nthread);
  }
  CHECK(gs_rollout(m, datas, 1, NBATCH, NSTEP, GS_STATE_QPOS, s0, NULL, ctrl, out, outsd) == -1,
        "a control spec outside USER is refused");

  /* gs_stepBatch: three datas, each with its own state and controls, stepped together on 1, 2
   * and 3 threads with the post-constraint pass, equal the same datas stepped one by one */
  {
    gsData* alone[3] = {gs_makeData(m), gs_makeData(m), gs_makeData(m)};
    gsReal u[3 * 8];
    CHECK(m->nu <= 8, "the model has few controls");
    fill(u, 3 * m->nu, &seed);
    for (int nthread = 1; nthread <= 3; nthread++) {
      for (int k = 0; k < 3; k++) {
        gs_resetData(m, datas[k]);
        gs_resetData(m, alone[k]);
        gs_setState(m, datas[k], s0 + (size_t)k * (size_t)ns, GS_STATE_FULLPHYSICS);
        gs_setState(m, alone[k], s0 + (size_t)k * (size_t)ns, GS_STATE_FULLPHYSICS);
        memcpy(alone[k]->ctrl, u + k * m->nu, sizeof(gsReal) * (size_t)m->nu);
        for (int t = 0; t < 4; t++) gs_step(m, alone[k]);
        gs_rnePostConstraint(m, alone[k]);
      }
      CHECK(gs_stepBatch(m, datas, 3, nthread, 4, u, 1) == 0, "step batch runs");
      for (int k = 0; k < 3; k++) {
        CHECK(same(datas[k]->qpos, alone[k]->qpos, (size_t)m->nq) &&
                  same(datas[k]->qvel, alone[k]->qvel, (size_t)m->nv) &&
                  same(datas[k]->cfrc_ext, alone[k]->cfrc_ext, 6 * (size_t)m->nbody),
              "%d threads: batch data %d equals its own steps", nthread, k);
      }
    }
    CHECK(gs_stepBatch(m, datas, 3, 0, 1, NULL, 0) == -1, "no threads is refused");
    for (int k = 0; k < 3; k++) gs_freeData(alone[k]);
  }
  for (int k = 0; k < 3; k++) gs_freeData(datas[k]);
  free(s0), free(ctrl), free(ref), free(refsd), free(out), free(outsd), free(s), free(t);
  gs_freeData(e);
  gs_freeData(d);
  gs_freeModel(m);
  return CHECK_SUMMARY();
}
