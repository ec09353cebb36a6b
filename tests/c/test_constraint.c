/* Faults of the constraint stage in C, so that they also run under ASan and UBSan: NaN and Inf in
 * ctrl, qfrc_applied and xfrc_applied, a solref with a negative time constant, 10 000 contacts at
 * once, and contact and row capacities smaller than the scene. Each must end in a warning count
 * and a finite state, never in a crash or a write out of bounds. Also each limit row's impedance
 * and regulariser from its own parameters, rows of several sets taking turns. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gauss/gauss.h"

#include "check.h"

static gsModel* from_string(const char* xml) {
  char err[1024];
  gsModel* m = gs_loadXMLString(xml, err, sizeof(err));
  if (!m) printf("load: %s\n", err);
  return m;
}

static int finite_state(const gsModel* m, const gsData* d) {
  int ok = 1;
  for (int i = 0; i < m->nq; i++) ok &= isfinite(d->qpos[i]);
  for (int i = 0; i < m->nv; i++) ok &= isfinite(d->qvel[i]) && isfinite(d->qacc[i]);
  for (int i = 0; i < d->nefc; i++) ok &= isfinite(d->efc_force[i]);
  return ok;
}

static const char* kScene =
    "<mujoco><option timestep='0.002'/>"
    "<worldbody><geom type='plane' size='5 5 0.1'/>"
    "<body pos='0 0 0.1'><freejoint/><geom type='box' size='0.1 0.1 0.1' solref='%s'/></body>"
    "<body pos='1 0 0.5'><joint name='h' type='hinge' axis='0 1 0' limited='true' range='-30 30'/>"
    "<geom type='capsule' fromto='0 0 0 0.3 0 0' size='0.02'/></body></worldbody>"
    "<actuator><motor joint='h'/></actuator></mujoco>";

static gsModel* scene(const char* solref) {
  char xml[2048];
  snprintf(xml, sizeof(xml), kScene, solref);
  return from_string(xml);
}

/* one bad value in an input: a bad force diverges qacc, which resets the data and is counted
 * once; a bad control stays where the user wrote it and is counted on every step that sees it
 * (as MJCF counts it), the actuators acting as if it were zero; a finite state either way */
static void test_bad_inputs(void) {
  gsModel* m = scene("0.02 1");
  CHECK(m != NULL, "scene loads");
  if (!m) return;
  const double bad[3] = {NAN, INFINITY, -INFINITY};
  for (int solver = 0; solver < 3; solver++) {
    m->opt.solver = solver;
    for (int where = 0; where < 3; where++) {
      for (int k = 0; k < 3; k++) {
        gsData* d = gs_makeData(m);
        for (int i = 0; i < 50; i++) gs_step(m, d);
        int kind = GS_WARN_BADQACC;
        if (where == 0) d->ctrl[0] = bad[k], kind = GS_WARN_BADCTRL;
        if (where == 1) d->qfrc_applied[2] = bad[k];
        if (where == 2) d->xfrc_applied[6 * 1 + 4] = bad[k];
        for (int i = 0; i < 50; i++) gs_step(m, d);
        int expect = where == 0 ? 50 : 1;
        CHECK(d->warning[kind].number == expect, "solver %d input %d value %g: warning %d counted %d",
              solver, where, bad[k], kind, d->warning[kind].number);
        if (where == 0) CHECK(!isfinite(d->ctrl[0]), "the bad control is left as written");
        CHECK(finite_state(m, d), "solver %d input %d value %g: finite state", solver, where, bad[k]);
        gs_freeData(d);
      }
    }
  }
  gs_freeModel(m);
}

/* a negative time constant with a positive damping ratio mixes the two formats of solref: the
 * default is used (the box rests on the plane) and the event counted */
static void test_mixed_solref(void) {
  const char* mixed[3] = {"-0.02 1", "0.02 -1", "0 1"};
  for (int i = 0; i < 3; i++) {
    gsModel* m = scene(mixed[i]);
    CHECK(m != NULL, "scene with solref %s loads", mixed[i]);
    if (!m) continue;
    gsData* d = gs_makeData(m);
    for (int s = 0; s < 500; s++) gs_step(m, d);
    CHECK(d->warning[GS_WARN_BADSOLREF].number > 0, "solref %s counted", mixed[i]);
    CHECK(finite_state(m, d) && d->qpos[2] > 0.099, "solref %s: the box rests on the plane (z %g)",
          mixed[i], d->qpos[2]);
    gs_freeData(d);
    gs_freeModel(m);
  }
}

/* 2500 boxes on one free body touching a plane: 10 000 contacts */
static gsModel* many_contacts(void) {
  const int n = 50;
  size_t cap = 200000;
  char* xml = malloc(cap);
  size_t len = (size_t)snprintf(xml, cap,
                                "<mujoco><worldbody><geom type='plane' size='5 5 0.1'/>"
                                "<body pos='0 0 0.01'><freejoint/>");
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      len += (size_t)snprintf(xml + len, cap - len,
                              "<geom type='box' size='0.009 0.009 0.01' pos='%g %g 0'/>",
                              (i - n / 2) * 0.02, (j - n / 2) * 0.02);
  snprintf(xml + len, cap - len, "</body></worldbody></mujoco>");
  gsModel* m = from_string(xml);
  free(xml);
  return m;
}

static void test_many_contacts(void) {
  gsModel* m = many_contacts();
  CHECK(m != NULL, "10 000 contact scene loads");
  if (!m) return;
  for (int cone = 0; cone < 2; cone++) {
    for (int solver = 1; solver < 3; solver++) {  /* Newton, CG (PGS: below, fewer steps) */
      m->opt.cone = cone, m->opt.solver = solver;
      gsData* d = gs_makeData(m);
      for (int s = 0; s < 3; s++) gs_step(m, d);
      CHECK(d->ncon == 10000, "cone %d solver %d: 10 000 contacts (%d)", cone, solver, d->ncon);
      CHECK(finite_state(m, d), "cone %d solver %d: finite", cone, solver);
      int nwarn = 0;
      for (int w = 0; w < GS_NWARNING; w++) nwarn += d->warning[w].number;
      CHECK(nwarn == 0, "cone %d solver %d: nothing to warn about (%d)", cone, solver, nwarn);
      gs_freeData(d);
    }
  }
  /* PGS keeps memory in proportion to the Jacobian's non-zeros, so 40 000 rows (30 000 on the
   * elliptic cone) fit: at the state Newton reached, PGS solves the same convex problem and gives
   * the same acceleration, and the normal forces account for the body's vertical motion
   * (m (g + a_z), the only other force being its weight) */
  for (int cone = 0; cone < 2; cone++) {
    m->opt.cone = cone, m->opt.solver = GS_SOL_NEWTON, m->opt.iterations = 100;
    gsData* d = gs_makeData(m);
    for (int s = 0; s < 3; s++) gs_step(m, d);
    gs_forward(m, d);  /* the acceleration at the state the steps reached */
    gsReal az_newton = d->qacc[2], g = 9.81, mass = m->body_mass[1];
    m->opt.solver = GS_SOL_PGS, m->opt.iterations = 5;
    gs_forward(m, d);
    int nwarn = 0;
    for (int w = 0; w < GS_NWARNING; w++) nwarn += d->warning[w].number;
    CHECK(d->ncon == 10000 && d->nefc == (cone ? 30000 : 40000) && finite_state(m, d) && nwarn == 0,
          "PGS cone %d: 10 000 contacts, %d rows, finite, %d warnings", cone, d->nefc, nwarn);
    gsReal fn = 0;
    for (int i = 0; i < d->ncon; i++) {
      gsReal f[6];
      gs_contactForce(m, d, i, f);
      fn += f[0];
    }
    /* five sweeps over 30 000 or 40 000 rows are not converged: within 1% of g, not to rounding */
    CHECK(fabs(d->qacc[2] - az_newton) < 0.01 * g, "PGS cone %d: vertical acceleration %g, Newton's %g",
          cone, d->qacc[2], az_newton);
    CHECK(fabs(fn - mass * (g + d->qacc[2])) < 0.01 * mass * g && fn > mass * g,
          "PGS cone %d: normal forces %g carry the weight %g and the acceleration %g", cone, fn,
          mass * g, d->qacc[2]);
    gs_step(m, d);
    CHECK(finite_state(m, d), "PGS cone %d: a step, finite", cone);
    gs_freeData(d);
  }

  /* capacities smaller than the scene: contacts beyond room are dropped and counted, rows that
   * do not fit are dropped whole contact by whole contact, and counted */
  m->opt.cone = GS_CONE_PYRAMIDAL, m->opt.solver = GS_SOL_NEWTON, m->opt.iterations = 100;
  gsData* d = gs_makeData(m);
  d->nconmax = 5000;
  for (int s = 0; s < 3; s++) gs_step(m, d);
  CHECK(d->ncon == 5000 && d->warning[GS_WARN_CONTACTFULL].number > 0,
        "contact capacity 5000: %d contacts, %d warnings", d->ncon, d->warning[GS_WARN_CONTACTFULL].number);
  CHECK(finite_state(m, d), "contact capacity 5000: finite");
  gs_freeData(d);
  d = gs_makeData(m);
  d->nefcmax = 1001;  /* not a multiple of a contact's 4 rows */
  for (int s = 0; s < 3; s++) gs_step(m, d);
  CHECK(d->nefc == 1000 && d->warning[GS_WARN_CNSTRFULL].number > 0,
        "row capacity 1001: %d rows, %d warnings", d->nefc, d->warning[GS_WARN_CNSTRFULL].number);
  int kept = 0;
  for (int i = 0; i < d->ncon; i++) kept += d->contact[i].efc_address >= 0;
  CHECK(kept == 250, "row capacity 1001: 250 whole contacts keep rows (%d)", kept);
  CHECK(finite_state(m, d), "row capacity 1001: finite");
  gs_freeData(d);
  gs_freeModel(m);
}

/* Each limit row's stiffness, damping, impedance and regulariser from MJCF's formulas, written out
 * here: the rows take turns between parameter sets, so a row that shares its solref with the row
 * before but not its solimp (joint 3), or its solimp but not its solref (joint 5), or returns to
 * an earlier set (joints 2 and 4), must each get its own numbers, not the row before's (the
 * impedance stage keeps the last row's set while the numbers repeat). Widths of 0.5 put two rows
 * inside their impedance's transition, one in each half. */
static const char* kLimits =
    "<mujoco><option timestep='0.002' gravity='0 0 0'/><worldbody>"
    "%s"
    "</worldbody></mujoco>";

typedef struct {
  double ref[2], imp[5];
} limit_params;

static double expected_imp(const double* s, double dist, double* impP) {
  double lo = 1e-4, hi = 0.9999;
  double dmin = fmin(fmax(s[0], lo), hi), dmax = fmin(fmax(s[1], lo), hi);
  double width = s[2], mid = fmin(fmax(s[3], lo), hi), p = s[4] < 1 ? 1 : s[4];
  double x = fabs(dist) / width;
  *impP = 0;
  if (x >= 1) return dmax;
  double y, dy;
  if (x <= mid) {
    y = pow(x, p) / pow(mid, p - 1);
    dy = p * pow(x, p - 1) / pow(mid, p - 1);
  } else {
    y = 1 - pow(1 - x, p) / pow(1 - mid, p - 1);
    dy = p * pow(1 - x, p - 1) / pow(1 - mid, p - 1);
  }
  *impP = dy * (dmax - dmin) / width * (dist < 0 ? -1 : 1);
  return dmin + y * (dmax - dmin);
}

static int near(double a, double b) { return fabs(a - b) <= 1e-12 * (fabs(a) + fabs(b)) + 1e-300; }

static void test_limit_parameters(void) {
  const limit_params A = {{0.02, 1}, {0.9, 0.95, 0.001, 0.5, 2}};
  const limit_params B = {{0.05, 0.7}, {0.8, 0.99, 0.5, 0.3, 3}};
  const limit_params C = {{0.02, 1}, {0.7, 0.9, 0.5, 0.6, 2}};   /* A's solref, another solimp */
  const limit_params D = {{0.03, 0.5}, {0.9, 0.95, 0.001, 0.5, 2}};  /* A's solimp, another solref */
  const limit_params* joint[6] = {&A, &B, &A, &C, &A, &D};
  char bodies[4096] = "", one[512];
  for (int j = 0; j < 6; j++) {
    const limit_params* q = joint[j];
    snprintf(one, sizeof(one),
             "<body pos='%d 0 0'><joint type='hinge' axis='0 1 0' range='-0.1 0.1' "
             "solreflimit='%g %g' solimplimit='%g %g %g %g %g'/>"
             "<geom type='capsule' fromto='0 0 0 0.3 0 0' size='0.02'/></body>",
             2 * j, q->ref[0], q->ref[1], q->imp[0], q->imp[1], q->imp[2], q->imp[3], q->imp[4]);
    strcat(bodies, one);
  }
  char xml[8192];
  snprintf(xml, sizeof(xml), kLimits, bodies);
  gsModel* m = from_string(xml);
  CHECK(m != NULL, "limit scene loads");
  if (!m) return;
  gsData* d = gs_makeData(m);
  for (int j = 0; j < 6; j++) d->qpos[j] = 0.3;  /* 0.2 past the upper limit: one row each */
  gs_forward(m, d);
  CHECK(d->nefc == 6, "six limit rows (%d)", d->nefc);
  for (int r = 0; r < d->nefc; r++) {
    int j = d->efc_id[r];
    const limit_params* q = joint[j];
    double impP, imp = expected_imp(q->imp, d->efc_pos[r] - d->efc_margin[r], &impP);
    double dmax = fmin(fmax(q->imp[1], 1e-4), 0.9999), tc = q->ref[0], dr = q->ref[1];
    double k = 1 / (dmax * dmax * tc * tc * dr * dr), b = 2 / (dmax * tc);
    double R = (1 - imp) / imp * m->dof_invweight0[m->jnt_dofadr[j]];
    const double* kbip = d->efc_KBIP + 4 * r;
    CHECK(near(kbip[0], k) && near(kbip[1], b), "joint %d: k %.17g b %.17g, expected %.17g %.17g",
          j, kbip[0], kbip[1], k, b);
    CHECK(near(kbip[2], imp) && near(kbip[3], impP),
          "joint %d: impedance %.17g slope %.17g, expected %.17g %.17g", j, kbip[2], kbip[3], imp,
          impP);
    CHECK(near(d->efc_R[r], R), "joint %d: R %.17g, expected %.17g", j, d->efc_R[r], R);
  }
  gs_freeData(d);
  gs_freeModel(m);
}

int main(void) {
  test_bad_inputs();
  test_limit_parameters();
  test_mixed_solref();
  test_many_contacts();
  return CHECK_SUMMARY();
}
