/* Passive forces (src/dynamics/passive.c) and the spring energy without the Python oracle:
 * - joint springs and dampers of hinges and slides in closed form from the numbers in the XML:
 *   -k (q - springref) - b v (springref, not ref, is the spring's rest position), and the energy
 *   1/2 k (q - springref)^2;
 * - ball and free joints in closed form: turned by theta about n from the rest orientation (and
 *   moved by dx), the spring gives -k theta n in the body frame (and -k dx), the shorter way round
 *   past half a turn; the energy 1/2 k (theta^2 + |dx|^2);
 * - every joint type at random states: the spring force is -dE/dq, E from gs_energyPos (gravity
 *   off), by central differences along each dof;
 * - damping -b v per dof, and the spring and damper disable flags;
 * - tendons: the spring force (dead band included) is -dE/dq as above; the damper force is
 *   -b J^T J v; armature adds a J^T J to M on M's tree pattern and a J^T (dJ/dt v) to the bias
 *   force (dJ/dt by central differences of ten_J along v);
 * - gravity compensation: with gravcomp = 1 on every body and v = 0, qfrc_gravcomp cancels the
 *   bias force (gravity alone) exactly; a share c of it gives c times; actuatorgravcomp moves a
 *   joint's part to qfrc_actuator; both passive flags off, or gravity off, remove it. */
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


/* tendons over TREE_XML's joints and sites: a fixed tendon across the two branches, one along a
 * branch, and a spatial tendon through a pulley, with springs (one with a dead band), dampers and
 * armature */
#define TENDON_TREE_XML(ARM)                                                                   \
  "<mujoco model='tendons'>"                                                                   \
  "  <option gravity='0 0 -9.81'/>"                                                            \
  "  <worldbody>"                                                                              \
  "    <body name='base' pos='0 0 1'>"                                                         \
  "      <joint name='x' type='slide' axis='1 0 0'/><joint name='rz' axis='0 0 1'/>"           \
  "      <geom type='box' size='0.1 0.1 0.05' mass='2'/>"                                      \
  "      <site name='b0' pos='0.1 0.05 0.05'/><site name='b1' pos='-0.1 -0.05 0.05'/>"        \
  "      <body name='a' pos='0.15 0 0'><joint name='ha' axis='0 1 0'/>"                        \
  "        <geom type='capsule' fromto='0 0 0 0.3 0 0' size='0.03'/>"                          \
  "        <site name='a0' pos='0.2 0.02 0'/>"                                                 \
  "        <body name='a2' pos='0.3 0 0'><joint name='ha2' axis='0 1 1'/>"                    \
  "          <geom type='capsule' fromto='0 0 0 0.2 0 0' size='0.02'/>"                        \
  "          <site name='a1' pos='0.2 0 0.03'/></body></body>"                                 \
  "      <body name='b' pos='-0.15 0 0'><joint name='hb' axis='1 0 0'/>"                       \
  "        <joint name='sb' type='slide' axis='0 0 1'/>"                                       \
  "        <geom type='capsule' fromto='0 0 0 0 0 -0.3' size='0.03'/>"                         \
  "        <site name='l0' pos='0.03 0 -0.25'/></body>"                                        \
  "    </body>"                                                                                \
  "  </worldbody>"                                                                             \
  "  <tendon>"                                                                                 \
  "    <fixed name='across' stiffness='4' damping='0.6' armature='" ARM "'"                    \
  "           springlength='-0.2 0.3'>"                                                        \
  "      <joint joint='ha2' coef='1'/><joint joint='hb' coef='-0.7'/><joint joint='x' coef='0.2'/>" \
  "    </fixed>"                                                                               \
  "    <fixed name='along' stiffness='2' damping='0.3' armature='" ARM "'>"                    \
  "      <joint joint='ha' coef='0.5'/><joint joint='ha2' coef='1'/></fixed>"                  \
  "    <spatial name='pulley' stiffness='6' damping='0.4' armature='" ARM "'"                 \
  "             springlength='0.3 0.5'>"                                                       \
  "      <site site='b0'/><site site='a0'/><site site='a1'/><pulley divisor='2'/>"             \
  "      <site site='b1'/><site site='l0'/></spatial>"                                         \
  "  </tendon>"                                                                                \
  "</mujoco>"

/* the tendons' forces: springs by -dE/dq (E from gs_energyPos, gravity off), dampers in closed
 * form from ten_J */
static void test_tendon_forces(void) {
  gsModel* m = load_xml(TENDON_TREE_XML("0.1"));
  CHECK(m != NULL, "tendon tree loads");
  if (!m) return;
  m->opt.disableflags |= GS_DSBL_GRAVITY;
  gsData* d = gs_makeData(m);
  gsData* dd = gs_makeData(m);
  int nv = m->nv, nt = m->ntendon;
  unsigned seed = 73;
  double e[MAXV], want[MAXV];
  int outside_below = 0, outside_above = 0, inside = 0;
  for (int trial = 0; trial < 6; trial++) {
    random_state(m, d, &seed, 0.8, 2.0);
    gs_forward(m, d);
    for (int t = 0; t < nt; t++) {
      const double* r = m->tendon_lengthspring + 2 * t;
      double L = d->ten_length[t];
      outside_below += L < r[0];
      outside_above += L > r[1];
      inside += L >= r[0] && L <= r[1] && r[0] < r[1];
    }
    for (int i = 0; i < nv; i++) {
      memset(e, 0, sizeof(e));
      e[i] = 1;
      set_moved(m, dd, d->qpos, e, H_FD);
      gs_forward(m, dd);
      gs_energyPos(m, dd);
      double Ep = dd->energy[0];
      set_moved(m, dd, d->qpos, e, -H_FD);
      gs_forward(m, dd);
      gs_energyPos(m, dd);
      want[i] = -(Ep - dd->energy[0]) / (2 * H_FD);
    }
    double err = maxdiff(d->qfrc_spring, want, nv);
    CHECK(err < TOL_FD * fmax(1, maxabs(want, nv)), "tendons: spring force = -dE/dq (err %g of %g)",
          err, maxabs(want, nv));
    /* dampers: joints have none here, so qfrc_damper = -sum_t b_t J_t (J_t . v) */
    for (int i = 0; i < nv; i++) want[i] = 0;
    for (int t = 0; t < nt; t++) {
      const double* J = d->ten_J + (size_t)t * nv;
      double v = 0;
      for (int i = 0; i < nv; i++) v += J[i] * d->qvel[i];
      for (int i = 0; i < nv; i++) want[i] -= m->tendon_damping[t] * v * J[i];
    }
    err = maxdiff(d->qfrc_damper, want, nv);
    CHECK(err < TOL_EXACT * fmax(1, maxabs(want, nv)), "tendons: damper force -b J^T J v (err %g)",
          err);
    double sum[MAXV];
    for (int i = 0; i < nv; i++) sum[i] = d->qfrc_spring[i] + d->qfrc_damper[i];
    CHECK(maxdiff(d->qfrc_passive, sum, nv) == 0, "tendons: passive = spring + damper");
  }
  CHECK(outside_below > 0 && outside_above > 0 && inside > 0,
        "tendons: states below (%d), above (%d) and inside (%d) the dead band", outside_below,
        outside_above, inside);
  gs_freeData(dd);
  gs_freeData(d);
  gs_freeModel(m);
}

/* 1 when dof j is dof i or one of its ancestors */
static int on_chain(const gsModel* m, int i, int j) {
  for (int k = i; k >= 0; k = m->dof_parentid[k])
    if (k == j) return 1;
  return 0;
}

/* armature a: M gains a J^T J on the pairs of dofs of one chain and nothing across branches; the
 * bias force gains a J^T (dJ/dt v) */
static void test_tendon_armature(void) {
  gsModel* m = load_xml(TENDON_TREE_XML("0.3"));
  gsModel* m0 = load_xml(TENDON_TREE_XML("0"));
  CHECK(m && m0, "tendon trees load");
  if (!m || !m0) {
    if (m) gs_freeModel(m);
    if (m0) gs_freeModel(m0);
    return;
  }
  gsData* d = gs_makeData(m);
  gsData* d0 = gs_makeData(m0);
  gsData* dd = gs_makeData(m);
  int nv = m->nv, nt = m->ntendon;
  static double M[MAXV * MAXV], M0[MAXV * MAXV];
  double Jp[8][MAXV], Jm[8][MAXV];
  const double h = 1e-6;
  unsigned seed = 79;
  int across = 0;
  for (int trial = 0; trial < 4; trial++) {
    random_state(m, d, &seed, 0.8, 2.0);
    memcpy(d0->qpos, d->qpos, sizeof(double) * (size_t)m->nq);
    memcpy(d0->qvel, d->qvel, sizeof(double) * (size_t)nv);
    gs_forward(m, d);
    gs_forward(m0, d0);
    gs_fullM(m, M, d->qM);
    gs_fullM(m0, M0, d0->qM);
    double err = 0;
    for (int i = 0; i < nv; i++)
      for (int j = 0; j < nv; j++) {
        double w = 0;
        if (on_chain(m, i, j) || on_chain(m, j, i))
          for (int t = 0; t < nt; t++)
            w += 0.3 * d->ten_J[t * nv + i] * d->ten_J[t * nv + j];
        else
          for (int t = 0; t < nt; t++) across |= d->ten_J[t * nv + i] * d->ten_J[t * nv + j] != 0;
        err = fmax(err, fabs(M[i * nv + j] - M0[i * nv + j] - w));
      }
    CHECK(err < TOL_EXACT, "armature: M - M0 = a J^T J on the tree pattern (err %g)", err);
    /* dJ/dt v by central differences of ten_J along v: h^2 truncation, eps/h rounding */
    set_moved(m, dd, d->qpos, d->qvel, h);
    gs_forward(m, dd);
    for (int t = 0; t < nt; t++) memcpy(Jp[t], dd->ten_J + t * nv, sizeof(double) * (size_t)nv);
    set_moved(m, dd, d->qpos, d->qvel, -h);
    gs_forward(m, dd);
    for (int t = 0; t < nt; t++) memcpy(Jm[t], dd->ten_J + t * nv, sizeof(double) * (size_t)nv);
    double want[MAXV] = {0}, diff[MAXV];
    for (int t = 0; t < nt; t++) {
      double jdv = 0;
      for (int i = 0; i < nv; i++) jdv += (Jp[t][i] - Jm[t][i]) / (2 * h) * d->qvel[i];
      for (int i = 0; i < nv; i++) want[i] += 0.3 * d->ten_J[t * nv + i] * jdv;
    }
    for (int i = 0; i < nv; i++) diff[i] = d->qfrc_bias[i] - d0->qfrc_bias[i];
    err = maxdiff(diff, want, nv);
    CHECK(err < 1e-7 * fmax(1, maxabs(want, nv)), "armature: bias + a J^T (dJ/dt v) (err %g of %g)",
          err, maxabs(want, nv));
    CHECK(maxabs(want, nv) > 1e-3, "armature: the bias term is not trivial (%g)", maxabs(want, nv));
  }
  CHECK(across, "armature: some tendon couples dofs of different branches");
  gs_freeData(dd);
  gs_freeData(d);
  gs_freeData(d0);
  gs_freeModel(m);
  gs_freeModel(m0);
}

/* gravity compensation on the tree of TREE_XML, each body's gravcomp set by hand */
static void test_gravcomp(void) {
  gsModel* m = load_xml(TREE_XML);
  CHECK(m != NULL, "tree loads");
  if (!m) return;
  gsData* d = gs_makeData(m);
  int nv = m->nv;
  unsigned seed = 83;
  random_state(m, d, &seed, 1.0, 0.0);
  memset(d->qvel, 0, sizeof(double) * (size_t)nv);
  for (int b = 1; b < m->nbody; b++) m->body_gravcomp[b] = 1;
  m->opt.disableflags |= GS_DSBL_SPRING;  /* the damper flag alone keeps the passive stage on */
  gs_forward(m, d);
  double err = 0;
  for (int i = 0; i < nv; i++) err = fmax(err, fabs(d->qfrc_gravcomp[i] - d->qfrc_bias[i]));
  CHECK(err < TOL_EXACT * fmax(1, maxabs(d->qfrc_bias, nv)),
        "gravcomp 1: qfrc_gravcomp = gravity's bias force at rest (err %g)", err);
  CHECK(maxabs(d->qacc, nv) < TOL_EXACT, "gravcomp 1: at rest in gravity (qacc %g)",
        maxabs(d->qacc, nv));
  double full[MAXV];
  memcpy(full, d->qfrc_gravcomp, sizeof(double) * (size_t)nv);
  for (int b = 1; b < m->nbody; b++) m->body_gravcomp[b] = 0.35;
  gs_forward(m, d);
  err = 0;
  for (int i = 0; i < nv; i++) err = fmax(err, fabs(d->qfrc_gravcomp[i] - 0.35 * full[i]));
  CHECK(err < TOL_EXACT, "gravcomp 0.35: 0.35 times the full compensation (err %g)", err);
  CHECK(maxdiff(d->qfrc_passive, d->qfrc_gravcomp, nv) == 0, "gravcomp: in qfrc_passive");
  /* each flag that MJCF applies */
  m->opt.disableflags |= GS_DSBL_GRAVITY;
  gs_forward(m, d);
  CHECK(maxabs(d->qfrc_gravcomp, nv) == 0, "gravcomp: none with gravity off");
  m->opt.disableflags &= ~GS_DSBL_GRAVITY;
  m->opt.disableflags |= GS_DSBL_DAMPER;
  gs_forward(m, d);
  CHECK(maxabs(d->qfrc_gravcomp, nv) == 0 && maxabs(d->qfrc_passive, nv) == 0,
        "gravcomp: none with springs and dampers both off");
  gs_freeData(d);
  gs_freeModel(m);
}

/* actuatorgravcomp: the joint's compensation goes to qfrc_actuator (there are actuators) */
static void test_gravcomp_actuator(void) {
  static const char* xml =
      "<mujoco><worldbody><body pos='0 0 1' gravcomp='1'>"
      "  <joint name='a' axis='0 1 0' actuatorgravcomp='true'/>"
      "  <geom type='capsule' fromto='0 0 0 0.3 0 0' size='0.03'/>"
      "  <body pos='0.3 0 0' gravcomp='0.5'><joint name='b' axis='0 1 0'/>"
      "    <geom type='capsule' fromto='0 0 0 0.3 0 0' size='0.03'/></body></body>"
      "</worldbody><actuator><motor joint='b'/></actuator></mujoco>";
  gsModel* m = load_xml(xml);
  CHECK(m != NULL, "actuatorgravcomp model loads");
  if (!m) return;
  gsData* d = gs_makeData(m);
  d->qpos[0] = 0.3;
  d->qpos[1] = -0.6;
  gs_forward(m, d);
  CHECK(m->jnt_actgravcomp[0] == 1 && m->jnt_actgravcomp[1] == 0, "actuatorgravcomp read");
  CHECK(fabs(d->qfrc_gravcomp[0]) > 0.1 && fabs(d->qfrc_gravcomp[1]) > 0.01,
        "both joints compensated");
  CHECK(d->qfrc_actuator[0] == d->qfrc_gravcomp[0] && d->qfrc_passive[0] == 0,
        "joint a: compensation in qfrc_actuator, not qfrc_passive");
  CHECK(d->qfrc_actuator[1] == 0 && d->qfrc_passive[1] == d->qfrc_gravcomp[1],
        "joint b: compensation in qfrc_passive");
  m->opt.disableflags |= GS_DSBL_ACTUATION;
  gs_forward(m, d);
  CHECK(d->qfrc_actuator[0] == 0 && d->qfrc_passive[0] == 0,
        "actuation off: the routed compensation is not applied");
  gs_freeData(d);
  gs_freeModel(m);
}

int main(void) {
  test_hinge_slide();
  test_ball_free_closed();
  test_gradient(TREE_XML, "tree");
  test_gradient(FLOAT_XML, "float");
  test_damping_flags();
  test_tendon_forces();
  test_tendon_armature();
  test_gravcomp();
  test_gravcomp_actuator();
  return CHECK_SUMMARY();
}
