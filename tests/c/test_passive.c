/* Passive forces (src/dynamics/passive.c) and the spring energy without the Python oracle:
 * - joint springs and dampers of hinges and slides in closed form from the numbers in the XML:
 *   -k (q - springref) - b v (springref, not ref, is the spring's rest position), and the energy
 *   1/2 k (q - springref)^2;
 * - ball and free joints in closed form: turned by theta about n from the rest orientation (and
 *   moved by dx), the spring gives -k theta n in the body frame (and -k dx), the shorter way round
 *   past half a turn; the energy 1/2 k (theta^2 + |dx|^2);
 * - every joint type at random states: the spring force is -dE/dq, E from gs_energyPos (gravity
 *   off), by central differences along each dof;
 * - damping -b v per dof, and the spring and damper disable flags. */
#include "core_util.h"

#include "check.h"

/* closed forms: a few O(1) products */
#define TOL_EXACT 1e-13
/* differences of E (size ~1..10) with h = 1e-5: truncation h^2/6 |E'''| ~ 1e-9, rounding
 * eps |E| / h ~ 2e-10 */
#define H_FD 1e-5
#define TOL_FD 1e-7

static int jadr_q(const gsModel* m, const char* name) {
  return m->jnt_qposadr[gs_name2id(m, GS_OBJ_JOINT, name)];
}
static int jadr_v(const gsModel* m, const char* name) {
  return m->jnt_dofadr[gs_name2id(m, GS_OBJ_JOINT, name)];
}

/* the tree's joints as its XML writes them */
static const struct { const char* name; double k, b, springref; } kTreeJoints[] = {
    {"s0", 3, 0.4, 0.05}, {"h0", 0, 0, 0}, {"ha1", 2, 0.1, 0}, {"ha2", 1.5, 0, -0.3},
    {"sa2", 0, 0.2, 0},   {"sb1", 0, 0, 0}, {"hb2", 0, 0.3, 0}};

static void test_hinge_slide(void) {
  gsModel* m = load_xml(TREE_XML);
  CHECK(m != NULL, "tree loads");
  if (!m) return;
  m->opt.disableflags |= GS_DSBL_GRAVITY;  /* gs_energyPos: springs only */
  gsData* d = gs_makeData(m);
  int n = sizeof(kTreeJoints) / sizeof(kTreeJoints[0]);
  CHECK(m->njnt == n, "tree has %d joints", m->njnt);
  unsigned seed = 61;
  for (int trial = 0; trial < 3; trial++) {
    random_state(m, d, &seed, 1.0, 2.0);
    gs_forward(m, d);
    double err = 0, E = 0;
    for (int j = 0; j < n; j++) {
      double q = d->qpos[jadr_q(m, kTreeJoints[j].name)];
      int v = jadr_v(m, kTreeJoints[j].name);
      double want = -kTreeJoints[j].k * (q - kTreeJoints[j].springref) - kTreeJoints[j].b * d->qvel[v];
      err = fmax(err, fabs(d->qfrc_passive[v] - want));
      E += 0.5 * kTreeJoints[j].k * (q - kTreeJoints[j].springref) * (q - kTreeJoints[j].springref);
    }
    CHECK(err < TOL_EXACT, "tree: qfrc_passive = -k (q - springref) - b v (err %g)", err);
    gs_energyPos(m, d);
    CHECK(fabs(d->energy[0] - E) < TOL_EXACT, "tree: spring energy %g, want %g", d->energy[0], E);
  }
  /* the hinge with ref 0.2 and no springref rests at q = 0, not at its ref */
  memcpy(d->qpos, m->qpos0, sizeof(double) * (size_t)m->nq);
  memset(d->qvel, 0, sizeof(double) * (size_t)m->nv);
  gs_forward(m, d);
  CHECK(fabs(d->qfrc_passive[jadr_v(m, "ha1")] + 2 * 0.2) < TOL_EXACT,
        "hinge at its ref 0.2: spring force -k ref (%g)", d->qfrc_passive[jadr_v(m, "ha1")]);
  gs_freeData(d);
  gs_freeModel(m);
}

/* r = a * b, quaternions (w, x, y, z) */
static void qmul(double r[4], const double a[4], const double b[4]) {
  double t[4] = {a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
                 a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
                 a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
                 a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]};
  memcpy(r, t, sizeof(t));
}

static void test_ball_free_closed(void) {
  gsModel* m = load_xml(FLOAT_XML);
  CHECK(m != NULL, "float loads");
  if (!m) return;
  m->opt.disableflags |= GS_DSBL_GRAVITY;
  gsData* d = gs_makeData(m);
  const double kShoulder = 2, kRoot = 4;
  double n[3] = {0.3, -0.5, 0.8};
  double nn = sqrt(dot3(n, n));
  for (int i = 0; i < 3; i++) n[i] /= nn;
  const double angles[] = {0.4, -1.3, 0.8 * M_PI, 1.2 * M_PI};
  for (int a = 0; a < 4; a++) {
    double th = angles[a];
    /* the shorter way: past half a turn the spring pulls on through it */
    double eff = th > M_PI ? th - 2 * M_PI : th;
    double rot[4] = {cos(th / 2), n[0] * sin(th / 2), n[1] * sin(th / 2), n[2] * sin(th / 2)};
    memcpy(d->qpos, m->qpos0, sizeof(double) * (size_t)m->nq);
    memset(d->qvel, 0, sizeof(double) * (size_t)m->nv);
    /* the shoulder rests at the identity; the torso at its XML frame */
    memcpy(d->qpos + jadr_q(m, "shoulder"), rot, sizeof(rot));
    double* root = d->qpos + jadr_q(m, "root");
    double dx[3] = {0.1, -0.2, 0.05};
    for (int i = 0; i < 3; i++) root[i] += dx[i];
    qmul(root + 3, root + 3, rot);
    gs_forward(m, d);
    gs_energyPos(m, d);
    const double* fs = d->qfrc_passive + jadr_v(m, "shoulder");
    const double* fr = d->qfrc_passive + jadr_v(m, "root");
    double es = 0, er = 0;
    for (int i = 0; i < 3; i++) {
      es = fmax(es, fabs(fs[i] + kShoulder * eff * n[i]));
      er = fmax(er, fabs(fr[i] + kRoot * dx[i]));
      er = fmax(er, fabs(fr[3 + i] + kRoot * eff * n[i]));
    }
    CHECK(es < TOL_EXACT, "ball spring turned %g rad: -k theta n (err %g)", th, es);
    CHECK(er < TOL_EXACT, "free spring moved and turned %g rad: -k (dx, theta n) (err %g)", th, er);
    double E = 0.5 * kShoulder * eff * eff + 0.5 * kRoot * (dot3(dx, dx) + eff * eff);
    CHECK(fabs(d->energy[0] - E) < TOL_EXACT, "ball and free spring energy %g, want %g", d->energy[0], E);
  }
  gs_freeData(d);
  gs_freeModel(m);
}

static void test_gradient(const char* xml, const char* name) {
  gsModel* m = load_xml(xml);
  CHECK(m != NULL, "%s loads", name);
  if (!m) return;
  m->opt.disableflags |= GS_DSBL_GRAVITY | GS_DSBL_DAMPER;
  gsData* d = gs_makeData(m);
  gsData* dd = gs_makeData(m);
  int nv = m->nv;
  unsigned seed = 67;
  double e[MAXV], want[MAXV];
  for (int trial = 0; trial < 3; trial++) {
    /* orientations within a turn of about 0.6 pi of the rest: away from the cut at pi */
    random_state(m, d, &seed, 1.0, 2.0);
    for (int j = 0; j < m->njnt; j++) {
      int t = m->jnt_type[j];
      if (t != GS_JNT_BALL && t != GS_JNT_FREE) continue;
      double* q = d->qpos + m->jnt_qposadr[j] + (t == GS_JNT_FREE ? 3 : 0);
      const double* q0 = m->qpos_spring + m->jnt_qposadr[j] + (t == GS_JNT_FREE ? 3 : 0);
      double w[3] = {urand(&seed), urand(&seed), urand(&seed)}, nw = sqrt(dot3(w, w));
      double ang = 0.6 * M_PI * urand(&seed), r[4] = {cos(ang / 2), 0, 0, 0};
      for (int i = 0; i < 3; i++) r[1 + i] = w[i] / nw * sin(ang / 2);
      qmul(q, q0, r);
    }
    gs_forward(m, d);
    for (int i = 0; i < nv; i++) {
      memset(e, 0, sizeof(e));
      e[i] = 1;
      set_moved(m, dd, d->qpos, e, H_FD);
      gs_energyPos(m, dd);
      double Ep = dd->energy[0];
      set_moved(m, dd, d->qpos, e, -H_FD);
      gs_energyPos(m, dd);
      want[i] = -(Ep - dd->energy[0]) / (2 * H_FD);
    }
    double err = maxdiff(d->qfrc_passive, want, nv);
    CHECK(err < TOL_FD * fmax(1, maxabs(want, nv)), "%s: spring force = -dE/dq (err %g of %g)", name,
          err, maxabs(want, nv));
    CHECK(maxabs(want, nv) > 0.1, "%s: the springs are stretched", name);
  }
  gs_freeData(dd);
  gs_freeData(d);
  gs_freeModel(m);
}

static void test_damping_flags(void) {
  gsModel* m = load_xml(FLOAT_XML);
  CHECK(m != NULL, "float loads");
  if (!m) return;
  gsData* d = gs_makeData(m);
  int nv = m->nv;
  /* damping per dof as the XML gives it */
  double b[MAXV] = {0};
  for (int i = 0; i < 6; i++) b[jadr_v(m, "root") + i] = 0.3;
  for (int i = 0; i < 3; i++) b[jadr_v(m, "shoulder") + i] = 0.1;
  b[jadr_v(m, "hip")] = 0.5;
  b[jadr_v(m, "swing")] = 0.2;
  unsigned seed = 71;
  random_state(m, d, &seed, 1.0, 2.0);
  double q[MAXV];
  memcpy(q, d->qpos, sizeof(q));
  /* at the springs' rest: damping only */
  memcpy(d->qpos, m->qpos_spring, sizeof(double) * (size_t)m->nq);
  gs_forward(m, d);
  double err = 0;
  for (int i = 0; i < nv; i++) err = fmax(err, fabs(d->qfrc_passive[i] + b[i] * d->qvel[i]));
  CHECK(err < TOL_EXACT, "float: damping -b v per dof (err %g)", err);

  /* springs and dampers add; each flag removes its part */
  memcpy(d->qpos, q, sizeof(q));
  gs_forward(m, d);
  double both[MAXV], spring[MAXV], damper[MAXV];
  memcpy(both, d->qfrc_passive, sizeof(double) * (size_t)nv);
  m->opt.disableflags |= GS_DSBL_DAMPER;
  gs_forward(m, d);
  memcpy(spring, d->qfrc_passive, sizeof(double) * (size_t)nv);
  m->opt.disableflags ^= GS_DSBL_DAMPER | GS_DSBL_SPRING;
  gs_forward(m, d);
  memcpy(damper, d->qfrc_passive, sizeof(double) * (size_t)nv);
  double eadd = 0, edamp = 0;
  for (int i = 0; i < nv; i++) {
    eadd = fmax(eadd, fabs(both[i] - spring[i] - damper[i]));
    edamp = fmax(edamp, fabs(damper[i] + b[i] * d->qvel[i]));
  }
  CHECK(eadd < TOL_EXACT, "float: passive = spring + damper (err %g)", eadd);
  CHECK(edamp < TOL_EXACT, "float: spring flag off leaves -b v (err %g)", edamp);
  CHECK(maxabs(spring, nv) > 0.1, "float: springs act with the damper flag off");
  m->opt.disableflags |= GS_DSBL_DAMPER;
  gs_forward(m, d);
  CHECK(maxabs(d->qfrc_passive, nv) == 0, "float: both flags off: no passive force");
  gs_freeData(d);
  gs_freeModel(m);
}

int main(void) {
  test_hinge_slide();
  test_ball_free_closed();
  test_gradient(TREE_XML, "tree");
  test_gradient(FLOAT_XML, "float");
  test_damping_flags();
  return CHECK_SUMMARY();
}
