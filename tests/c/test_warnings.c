/* Runtime faults that warn instead of failing in silence or crashing: options out of their
 * enumeration (counted, MJCF's default used), non-finite contact parameters (counted, the data
 * reset), bad controls (counted on every step), and warning totals that survive resets. This test
 * also runs under ASan and UBSan. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gauss/gauss.h"

#include "check.h"
#include "core_util.h"

/* a box resting on a plane, a limited hinge with a motor, a predefined pair */
static const char* kScene =
    "<mujoco><option timestep='0.002'/>"
    "<worldbody><geom name='floor' type='plane' size='5 5 0.1'/>"
    "<body pos='0 0 0.1'><freejoint/><geom name='box' type='box' size='0.1 0.1 0.1'/></body>"
    "<body pos='1 0 0.5'><joint name='h' type='hinge' axis='0 1 0' limited='true' range='-30 30'/>"
    "<geom type='capsule' fromto='0 0 0 0.3 0 0' size='0.02'/></body>"
    "</worldbody>"
    "<contact><pair geom1='floor' geom2='box'/></contact>"
    "<actuator><motor joint='h'/></actuator></mujoco>";

static int finite_state(const gsModel* m, const gsData* d) {
  int ok = 1;
  for (int i = 0; i < m->nq; i++) ok &= isfinite(d->qpos[i]);
  for (int i = 0; i < m->nv; i++) ok &= isfinite(d->qvel[i]) && isfinite(d->qacc[i]);
  for (int i = 0; i < d->nefc; i++) ok &= isfinite(d->efc_force[i]);
  return ok;
}

/* qpos after n steps of a fresh data */
static void run(const gsModel* m, int n, gsReal* qpos, gsData** out) {
  gsData* d = gs_makeData(m);
  for (int i = 0; i < n; i++) gs_step(m, d);
  memcpy(qpos, d->qpos, sizeof(gsReal) * (size_t)m->nq);
  *out = d;
}

/* each option out of range: counted with its code as lastinfo, no crash, and the same motion as
 * with MJCF's default */
static void test_bad_options(void) {
  gsModel* m = load_xml(kScene);
  CHECK(m != NULL, "scene loads");
  if (!m) return;
  struct {
    int* field;
    int bad, fallback, code;
    const char* name;
  } cases[] = {
    {&m->opt.integrator, 99, GS_INT_EULER, GS_OPTION_INTEGRATOR, "integrator 99"},
    {&m->opt.integrator, -1, GS_INT_EULER, GS_OPTION_INTEGRATOR, "integrator -1"},
    {&m->opt.solver, -1, GS_SOL_NEWTON, GS_OPTION_SOLVER, "solver -1"},
    {&m->opt.solver, 3, GS_SOL_NEWTON, GS_OPTION_SOLVER, "solver 3"},
    {&m->opt.cone, 7, GS_CONE_PYRAMIDAL, GS_OPTION_CONE, "cone 7"},
    {&m->opt.jacobian, 9, GS_JAC_AUTO, GS_OPTION_JACOBIAN, "jacobian 9"},
    {&m->opt.iterations, -5, 0, GS_OPTION_ITERATIONS, "iterations -5"},
    {&m->opt.ls_iterations, -1, 0, GS_OPTION_LS_ITERATIONS, "ls_iterations -1"},
    {&m->opt.noslip_iterations, -1, 0, GS_OPTION_NOSLIP_ITERATIONS, "noslip_iterations -1"},
    {&m->opt.ccd_iterations, -1, 0, GS_OPTION_CCD_ITERATIONS, "ccd_iterations -1"},
  };
  const int nstep = 200;
  gsReal ref[64], got[64];
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    int keep = *cases[c].field;
    gsData *dref, *d;
    *cases[c].field = cases[c].fallback;
    run(m, nstep, ref, &dref);
    *cases[c].field = cases[c].bad;
    run(m, nstep, got, &d);
    *cases[c].field = keep;
    CHECK(d->warning[GS_WARN_BADOPTION].number >= nstep, "%s: counted %d times in %d steps",
          cases[c].name, d->warning[GS_WARN_BADOPTION].number, nstep);
    CHECK(d->warning[GS_WARN_BADOPTION].lastinfo == cases[c].code, "%s: lastinfo %d", cases[c].name,
          d->warning[GS_WARN_BADOPTION].lastinfo);
    CHECK(dref->warning[GS_WARN_BADOPTION].number == 0, "%s: the fallback itself is not counted",
          cases[c].name);
    CHECK(finite_state(m, d), "%s: finite state", cases[c].name);
    CHECK(memcmp(ref, got, sizeof(gsReal) * (size_t)m->nq) == 0, "%s: moves as with the fallback",
          cases[c].name);
    gs_freeData(dref);
    gs_freeData(d);
  }
  /* iterations 0 is valid: no solver iterations, no warning */
  m->opt.iterations = 0;
  gsData* d = gs_makeData(m);
  for (int i = 0; i < 10; i++) gs_step(m, d);
  CHECK(d->warning[GS_WARN_BADOPTION].number == 0, "iterations 0 is not counted");
  CHECK(finite_state(m, d), "iterations 0: finite state");
  gs_freeData(d);
  gs_freeModel(m);
}

/* a NaN or Inf in a geom's size, friction, margin, solref or solimp, or in a pair's friction:
 * counted with the geom (ngeom + the pair) as lastinfo and the data reset every step, so the box
 * never falls through the floor; the same with autoreset off, but no reset */
static void test_bad_contact_params(void) {
  const gsReal bad[2] = {NAN, INFINITY};
  for (int field = 0; field < 6; field++) {
    for (int k = 0; k < 2; k++) {
      gsModel* m = load_xml(kScene);
      if (!m) return;
      int box = gs_name2id(m, GS_OBJ_GEOM, "box");
      int expect = box;
      switch (field) {
        case 0: m->geom_size[3 * box] = bad[k]; break;
        case 1: m->geom_friction[3 * box] = bad[k]; break;
        case 2: m->geom_margin[box] = bad[k]; break;
        case 3: m->geom_solref[GS_NREF * box] = bad[k]; break;
        case 4: m->geom_solimp[GS_NIMP * box + 2] = bad[k]; break;
        default: m->pair_friction[0] = bad[k], expect = m->ngeom; break;
      }
      gsData* d = gs_makeData(m);
      for (int i = 0; i < 100; i++) d->qvel[2] = -1, gs_step(m, d);
      CHECK(d->warning[GS_WARN_BADCONTACT].number >= 1, "field %d value %g: counted", field, bad[k]);
      CHECK(d->warning[GS_WARN_BADCONTACT].total >= 100, "field %d value %g: total %lld", field,
            bad[k], d->warning[GS_WARN_BADCONTACT].total);
      CHECK(d->warning[GS_WARN_BADCONTACT].lastinfo == expect, "field %d: lastinfo %d, expected %d",
            field, d->warning[GS_WARN_BADCONTACT].lastinfo, expect);
      CHECK(finite_state(m, d) && d->ncon == 0, "field %d value %g: finite, no contacts", field, bad[k]);
      CHECK(d->warning[GS_WARN_BADQACC].total == 0, "field %d value %g: no NaN reached qacc", field, bad[k]);
      CHECK(fabs(d->qpos[2] - 0.1) < 0.01, "field %d value %g: reset each step (z %g)", field, bad[k],
            d->qpos[2]);
      gs_freeData(d);

      m->opt.disableflags |= GS_DSBL_AUTORESET;
      d = gs_makeData(m);
      for (int i = 0; i < 100; i++) gs_step(m, d);
      CHECK(d->warning[GS_WARN_BADCONTACT].number == 100, "autoreset off: counted each step (%d)",
            d->warning[GS_WARN_BADCONTACT].number);
      CHECK(finite_state(m, d), "autoreset off: finite state");
      gs_freeData(d);
      gs_freeModel(m);
    }
  }
  /* the check sees nothing in a healthy model */
  gsModel* m = load_xml(kScene);
  if (!m) return;
  gsData* d = gs_makeData(m);
  for (int i = 0; i < 500; i++) gs_step(m, d);
  CHECK(d->warning[GS_WARN_BADCONTACT].total == 0, "healthy scene: nothing counted");
  CHECK(d->ncon > 0 && fabs(d->qpos[2] - 0.1) < 1e-3, "healthy scene: the box rests (z %g)", d->qpos[2]);
  gs_freeData(d);
  gs_freeModel(m);
}

/* number and lastinfo are cleared by a reset (MJCF's), the total is not */
/* geoms all fixed to the world and no explicit pair: no contact can form, so a NaN among their
 * contact parameters is never read and nothing is counted or reset (MuJoCo reads none either); a
 * slider without geoms falls under gravity meanwhile. With a free box added the same NaN is
 * counted again. */
static void test_bad_params_of_static_geoms(void) {
  const char* xml =
      "<mujoco><worldbody><geom name='floor' type='plane' size='5 5 0.1'/>"
      "<body pos='0 0 0.5'><geom name='post' type='box' size='0.1 0.1 0.5'/></body>"
      "<body pos='1 0 1'><joint type='slide' axis='0 0 1'/><site size='0.05'/>"
      "<inertial pos='0 0 0' mass='1' diaginertia='1 1 1'/></body>"
      "</worldbody></mujoco>";
  gsModel* m = load_xml(xml);
  if (!m) return;
  int post = gs_name2id(m, GS_OBJ_GEOM, "post");
  m->geom_friction[3 * post] = NAN;
  gsData* d = gs_makeData(m);
  for (int i = 0; i < 100; i++) gs_step(m, d);
  CHECK(d->warning[GS_WARN_BADCONTACT].total == 0, "static geoms: nothing counted (%lld)",
        d->warning[GS_WARN_BADCONTACT].total);
  CHECK(d->qpos[0] < -0.01 && finite_state(m, d), "static geoms: the slider falls (%g)",
        d->qpos[0]);
  gs_freeData(d);
  gs_freeModel(m);
}

static void test_totals_survive_reset(void) {
  gsModel* m = load_xml(kScene);
  if (!m) return;
  gsData* d = gs_makeData(m);
  for (int r = 0; r < 3; r++) {
    d->qvel[0] = NAN;  /* bad qvel: reset and counted */
    gs_step(m, d);
    CHECK(d->warning[GS_WARN_BADQVEL].number == 1, "reset %d: number %d", r, d->warning[GS_WARN_BADQVEL].number);
    CHECK(d->warning[GS_WARN_BADQVEL].total == r + 1, "reset %d: total %lld", r,
          d->warning[GS_WARN_BADQVEL].total);
  }
  gs_resetData(m, d);
  CHECK(d->warning[GS_WARN_BADQVEL].number == 0 && d->warning[GS_WARN_BADQVEL].lastinfo == 0,
        "gs_resetData clears number and lastinfo");
  CHECK(d->warning[GS_WARN_BADQVEL].total == 3, "gs_resetData keeps the total (%lld)",
        d->warning[GS_WARN_BADQVEL].total);
  gsData* c = gs_copyData(NULL, m, d);
  CHECK(c && c->warning[GS_WARN_BADQVEL].total == 3, "gs_copyData copies the totals");
  gs_freeData(c);
  gs_warning(d, GS_WARN_INERTIA, 7);
  CHECK(d->warning[GS_WARN_INERTIA].number == 1 && d->warning[GS_WARN_INERTIA].total == 1 &&
        d->warning[GS_WARN_INERTIA].lastinfo == 7, "gs_warning counts number and total");
  gs_warning(d, GS_NWARNING, 0);  /* out of range: ignored */
  gs_freeData(d);
  gs_freeModel(m);
}

/* a bad control is counted on every step that sees it and left as written; the rest of the state
 * stays finite; a control clamped into its range is not bad (MJCF clamps first) */
static void test_bad_ctrl_each_step(void) {
  gsModel* m = load_xml(kScene);
  if (!m) return;
  gsData* d = gs_makeData(m);
  d->ctrl[0] = NAN;
  for (int i = 0; i < 25; i++) gs_step(m, d);
  CHECK(d->warning[GS_WARN_BADCTRL].number == 25, "counted each step (%d)", d->warning[GS_WARN_BADCTRL].number);
  CHECK(d->warning[GS_WARN_BADCTRL].total == 25, "total %lld", d->warning[GS_WARN_BADCTRL].total);
  CHECK(isnan(d->ctrl[0]), "ctrl left as written");
  CHECK(finite_state(m, d), "finite state");
  d->ctrl[0] = 0.5;
  for (int i = 0; i < 5; i++) gs_step(m, d);
  CHECK(d->warning[GS_WARN_BADCTRL].number == 25, "a good control is not counted");
  gs_freeData(d);
  gs_freeModel(m);

  m = load_xml(
      "<mujoco><worldbody><body><joint name='h' type='hinge'/><geom size='0.1'/></body></worldbody>"
      "<actuator><motor joint='h' ctrlrange='-1 1' ctrllimited='true'/></actuator></mujoco>");
  if (!m) return;
  d = gs_makeData(m);
  d->ctrl[0] = INFINITY;
  gs_step(m, d);
  CHECK(d->warning[GS_WARN_BADCTRL].number == 0, "inf clamped into the range is not bad");
  d->ctrl[0] = NAN;
  gs_step(m, d);
  CHECK(d->warning[GS_WARN_BADCTRL].number == 1, "NaN stays bad after clamping");
  gs_freeData(d);
  gs_freeModel(m);
}

int main(void) {
  test_bad_options();
  test_bad_contact_params();
  test_bad_params_of_static_geoms();
  test_totals_survive_reset();
  test_bad_ctrl_each_step();
  return CHECK_SUMMARY();
}
