/* src/pipeline/inverse_rigid.c from C: a box on four feet (the three methods carry its weight
 * and leave it at rest; the QP's Stage II splits it evenly, or onto one diagonal pair with
 * contact weights), the warm start's set kept between calls, the arena: every call stays within the capacity the compiler gave, with no warning,
 * and a data whose arena is too small reports status -2 instead of writing past it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "gauss/gauss.h"

static const char* XML =
    "<mujoco><option timestep='0.002' gravity='0 0 -9.81'/><worldbody>"
    "<geom type='plane' size='5 5 .1'/><body pos='0 0 0.0599'><freejoint/>"
    "<geom type='box' size='0.2 0.1 0.01' mass='2'/>"
    "<geom type='sphere' size='0.01' pos='0.2 0.1 -0.05' mass='0.1'/>"
    "<geom type='sphere' size='0.01' pos='0.2 -0.1 -0.05' mass='0.1'/>"
    "<geom type='sphere' size='0.01' pos='-0.2 0.1 -0.05' mass='0.1'/>"
    "<geom type='sphere' size='0.01' pos='-0.2 -0.1 -0.05' mass='0.1'/>"
    "</body></worldbody></mujoco>";

int main(void) {
  char err[512];
  gsModel* m = gs_loadXMLString(XML, err, sizeof err);
  CHECK(m != NULL, "load: %s", err);
  if (!m) return CHECK_SUMMARY();
  gsData* d = gs_makeData(m);
  const double weight = 2.4 * 9.81;
  for (int method = GS_RIGID_NOSLIP; method <= GS_RIGID_QP; method++) {
    gsRigidOpt opt;
    gs_defaultRigidOpt(&opt);
    opt.method = method;
    memset(d->qacc, 0, sizeof(gsReal) * (size_t)m->nv);
    gsReal qfrc[6], qacc[6], force[3 * 8];
    gsRigidStat st;
    int status = gs_inverseRigid(m, d, &opt, NULL, qfrc, force, qacc, &st);
    CHECK(status == 0 && st.ncon == 4, "method %d: status %d, %d contacts", method, status, st.ncon);
    /* the plane's normal is +z: the normal forces alone carry the weight */
    double fz = 0, amax = 0;
    for (int c = 0; c < d->ncon; c++) fz += force[3 * c] * d->contact[c].frame[2];
    for (int i = 0; i < 6; i++) amax = fmax(amax, fabs(qacc[i]));
    CHECK(fabs(fz - weight) < 1e-9, "method %d: vertical force %.12g, weight %.12g", method, fz, weight);
    CHECK(amax < 1e-9, "method %d: acceleration %g", method, amax);
    if (method == GS_RIGID_QP)
      for (int c = 0; c < 4; c++)
        CHECK(fabs(force[3 * c] - weight / 4) < 1e-6 * weight, "QP split: %g", force[3 * c]);
  }
  /* warm start: the second call keeps the set and pivots no more */
  {
    gsRigidOpt opt;
    gs_defaultRigidOpt(&opt);
    gsRigidWarm warm = {0};
    gsRigidStat st;
    memset(d->qacc, 0, sizeof(gsReal) * (size_t)m->nv);
    gs_inverseRigid(m, d, &opt, &warm, NULL, NULL, NULL, &st);
    int n1 = warm.nnb, first[GS_RIGID_MAXWARM];
    memcpy(first, warm.nb, sizeof first);
    CHECK(st.pivots >= 1 && n1 >= 1, "cold: %d pivots, %d contacts", st.pivots, n1);
    gs_inverseRigid(m, d, &opt, &warm, NULL, NULL, NULL, &st);
    CHECK(st.pivots == 0 && warm.nnb == n1 && !memcmp(first, warm.nb, sizeof(int) * (size_t)n1),
          "warm: %d pivots, %d contacts", st.pivots, warm.nnb);
  }
  /* Stage II's contact weights: the diagonal pair of feet at (0.2, 0.1) and (-0.2, -0.1)
   * weighted, the other pair (whose diagonal passes under the centre of mass) takes the box;
   * the net force and the acceleration stay Stage I's */
  {
    gsRigidOpt opt;
    gs_defaultRigidOpt(&opt);
    opt.method = GS_RIGID_QP;
    gsReal wt[8] = {0}, force[3 * 8], qacc[6];
    for (int c = 0; c < d->ncon && c < 8; c++) {
      const gsReal* p = d->contact[c].pos;
      wt[c] = p[0] * p[1] > 0 ? 10 : 0;
    }
    opt.weight = wt;
    memset(d->qacc, 0, sizeof(gsReal) * (size_t)m->nv);
    gsRigidStat st;
    int status = gs_inverseRigid(m, d, &opt, NULL, NULL, force, qacc, &st);
    double fz = 0, fw = 0, amax = 0;
    for (int c = 0; c < d->ncon; c++) {
      fz += force[3 * c] * d->contact[c].frame[2];
      if (wt[c] > 0) fw += force[3 * c];
    }
    for (int i = 0; i < 6; i++) amax = fmax(amax, fabs(qacc[i]));
    CHECK(status == 0 && fabs(fz - weight) < 1e-9 && amax < 1e-9,
          "weights: status %d, vertical force %.12g, acceleration %g", status, fz, amax);
    CHECK(fw < 0.02 * weight, "weights: the weighted pair carries %g of %g", fw, weight);
  }
  /* the arena: within the capacity, no warning */
  size_t pstack, maxuse;
  size_t narena = gs_dataArena(d, &pstack, &maxuse);
  int nw;
  gsWarningStat* w = gs_dataWarning(d, &nw);
  CHECK(maxuse <= narena && w[GS_WARN_ARENAFULL].number == 0, "arena %zu of %zu, %d warnings",
        maxuse, narena, w[GS_WARN_ARENAFULL].number);
  gs_freeData(d);
  gs_freeModel(m);
  /* an arena sized by <size memory> (16 kB) that holds the forward pass but not Coulomb's dense
   * problem: status -2, no overrun */
  char small[2048];
  snprintf(small, sizeof small, "%s", XML);
  char* at = strstr(small, "<option");
  memmove(at + 22, at, strlen(at) + 1);
  memcpy(at, "<size memory='16K'/>  ", 22);
  m = gs_loadXMLString(small, err, sizeof err);
  CHECK(m != NULL, "load small: %s", err);
  if (m) {
    d = gs_makeData(m);
    gs_forward(m, d);
    CHECK(d->ncon == 4, "small arena: the forward pass found %d contacts", d->ncon);
    gsRigidOpt opt;
    gs_defaultRigidOpt(&opt);
    opt.method = GS_RIGID_COULOMB;   /* a 24 x 24 LCP and Lemke's tableau: 14 kB */
    opt.skipstage = GS_STAGE_VEL;
    gsRigidStat st;
    int status = gs_inverseRigid(m, d, &opt, NULL, NULL, NULL, NULL, &st);
    CHECK(status == -2, "small arena: status %d", status);
    gs_freeData(d);
    gs_freeModel(m);
  }
  return CHECK_SUMMARY();
}
