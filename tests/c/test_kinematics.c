/* Forward kinematics (src/dynamics/kinematics.c) without the Python oracle: a chain with hinge,
 * slide, ball and free joints at a state whose frames are computed by hand, and, at random states
 * of two larger models, every frame against a forward kinematics written here with rotation
 * matrices (Rodrigues' formula, the textbook quaternion-to-matrix map) instead of the engine's
 * quaternion products. Conventions checked: quaternions are (w, x, y, z); a hinge turns by
 * q - qpos0 (qpos0 = ref) about its axis through its anchor, right-handed; a slide moves by
 * q - qpos0 along its axis; a ball's quaternion is the rotation relative to the parent frame,
 * composed on the right; a free joint's qpos is the body's world position and orientation; joint
 * anchors and axes are in the body frame; euler angles are intrinsic x, y, z. */
#include "core_util.h"

#include "check.h"

/* hand-computed frames are exact up to the rounding of sin/cos(pi/2) and a few products */
#define TOL_HAND 1e-14
/* the matrix forward kinematics rounds differently from the engine's quaternions: a few ulps per
 * composed frame, times the depth of the trees (at most 4) */
#define TOL_FK 1e-12

static const char* kHandXML =
    "<mujoco model='hand'>"
    "  <compiler angle='radian'/>"
    "  <worldbody>"
    "    <body name='b1' pos='0 0 1'>"
    "      <joint name='hinge' type='hinge' axis='0 0 1' pos='0.1 0 0'/>"
    "      <inertial pos='0 0 0' mass='1' diaginertia='0.01 0.01 0.01'/>"
    "      <site name='s1' pos='0.5 0 0'/>"
    "      <body name='b2' pos='0.5 0 0'>"
    "        <joint name='slide' type='slide' axis='1 0 0'/>"
    "        <inertial pos='0 0 0' mass='1' diaginertia='0.01 0.01 0.01'/>"
    "        <body name='b3' pos='0 0.4 0'>"
    "          <joint name='ball' type='ball' pos='0 -0.1 0'/>"
    "          <inertial pos='0 0.2 0' mass='1' diaginertia='0.01 0.02 0.03'/>"
    "          <site name='tip' pos='0 0.3 0'/>"
    "        </body>"
    "      </body>"
    "    </body>"
    "    <body name='f'>"
    "      <freejoint name='free'/>"
    "      <inertial pos='0 0 0' mass='1' diaginertia='0.01 0.01 0.01'/>"
    "      <site name='fs' pos='0.1 0.2 0.3'/>"
    "      <body name='fc' pos='0 0 0.2'>"
    "        <joint name='fh' type='hinge' axis='1 0 0' ref='0.25'/>"
    "        <inertial pos='0 0 0' mass='1' diaginertia='0.01 0.01 0.01'/>"
    "      </body>"
    "    </body>"
    "    <body name='e' pos='0 0 3' euler='0.3 -0.5 0.7'><geom type='sphere' size='0.1'/></body>"
    "  </worldbody>"
    "</mujoco>";

static int body(const gsModel* m, const char* name) { return gs_name2id(m, GS_OBJ_BODY, name); }
static int site(const gsModel* m, const char* name) { return gs_name2id(m, GS_OBJ_SITE, name); }
static int jnt(const gsModel* m, const char* name) { return gs_name2id(m, GS_OBJ_JOINT, name); }

/* |a - b| for quaternions up to sign (q and -q are the same rotation) */
static double quatdiff(const double* a, const double* b) {
  double p = 0, n = 0;
  for (int i = 0; i < 4; i++) p = fmax(p, fabs(a[i] - b[i])), n = fmax(n, fabs(a[i] + b[i]));
  return fmin(p, n);
}

static void check3(const double* got, double x, double y, double z, const char* what) {
  double want[3] = {x, y, z};
  double e = maxdiff(got, want, 3);
  CHECK(e < TOL_HAND, "%s = (%.15g %.15g %.15g), want (%g %g %g) (err %g)", what, got[0], got[1],
        got[2], x, y, z, e);
}

static void test_hand_chain(void) {
  gsModel* m = load_xml(kHandXML);
  CHECK(m != NULL, "hand model loads");
  if (!m) return;
  CHECK(m->nq == 1 + 1 + 4 + 7 + 1 && m->nv == 1 + 1 + 3 + 6 + 1, "sizes nq=%d nv=%d", m->nq, m->nv);
  gsData* d = gs_makeData(m);
  const double r = sqrt(0.5), pi2 = M_PI / 2;

  /* the reference pose: qpos0 holds the refs and the bodies are where the XML puts them */
  CHECK(d->qpos[m->jnt_qposadr[jnt(m, "fh")]] == 0.25, "qpos0 of a hinge is its ref");
  gs_kinematics(m, d);
  check3(d->xpos + 3 * body(m, "b3"), 0.5, 0.4, 1, "b3 at qpos0");
  check3(d->xpos + 3 * body(m, "fc"), 0, 0, 0.2, "fc at qpos0 (hinge at its ref)");
  check3(d->site_xpos + 3 * site(m, "tip"), 0.5, 0.7, 1, "tip at qpos0");

  /* hinge +90 deg about z, slide +0.2, ball +90 deg about x, free body at (1, 2, 3) turned +90 deg
   * about z, its child's hinge at ref + 90 deg about x */
  d->qpos[m->jnt_qposadr[jnt(m, "hinge")]] = pi2;
  d->qpos[m->jnt_qposadr[jnt(m, "slide")]] = 0.2;
  double* qb = d->qpos + m->jnt_qposadr[jnt(m, "ball")];
  qb[0] = r; qb[1] = r; qb[2] = 0; qb[3] = 0;
  double* qf = d->qpos + m->jnt_qposadr[jnt(m, "free")];
  double free_q[7] = {1, 2, 3, r, 0, 0, r};
  memcpy(qf, free_q, sizeof(free_q));
  d->qpos[m->jnt_qposadr[jnt(m, "fh")]] = 0.25 + pi2;
  gs_kinematics(m, d);

  /* b1 turns about the anchor (0.1, 0, 1): its origin, 0.1 behind the anchor along x, ends 0.1
   * behind it along y */
  int b1 = body(m, "b1"), b2 = body(m, "b2"), b3 = body(m, "b3");
  check3(d->xpos + 3 * b1, 0.1, -0.1, 1, "b1 xpos");
  double qz[4] = {r, 0, 0, r}, q3[4] = {0.5, 0.5, 0.5, 0.5};
  CHECK(quatdiff(d->xquat + 4 * b1, qz) < TOL_HAND, "b1 xquat is +90 deg about z");
  check3(d->xanchor + 3 * jnt(m, "hinge"), 0.1, 0, 1, "hinge anchor");
  check3(d->xaxis + 3 * jnt(m, "hinge"), 0, 0, 1, "hinge axis");
  check3(d->site_xpos + 3 * site(m, "s1"), 0.1, 0.4, 1, "site s1");
  /* the slide's local x is world y after b1's turn */
  check3(d->xaxis + 3 * jnt(m, "slide"), 0, 1, 0, "slide axis");
  check3(d->xanchor + 3 * jnt(m, "slide"), 0.1, 0.4, 1, "slide anchor");
  check3(d->xpos + 3 * b2, 0.1, 0.6, 1, "b2 xpos (slid 0.2 along world y)");
  /* b3's frame before the ball: (0.1, 0.6, 1) + Rz90 (0, 0.4, 0); the anchor 0.1 back along its
   * y; after the ball its y points up (Rz90 Rx90 maps x->y, y->z, z->x: quaternion
   * (1/2, 1/2, 1/2, 1/2)) */
  check3(d->xanchor + 3 * jnt(m, "ball"), -0.2, 0.6, 1, "ball anchor");
  check3(d->xpos + 3 * b3, -0.2, 0.6, 1.1, "b3 xpos");
  CHECK(quatdiff(d->xquat + 4 * b3, q3) < TOL_HAND, "b3 xquat = (%g %g %g %g)", d->xquat[4 * b3],
        d->xquat[4 * b3 + 1], d->xquat[4 * b3 + 2], d->xquat[4 * b3 + 3]);
  double R3[9] = {0, 0, 1, 1, 0, 0, 0, 1, 0};
  CHECK(maxdiff(d->xmat + 9 * b3, R3, 9) < TOL_HAND, "b3 xmat");
  CHECK(maxdiff(d->ximat + 9 * b3, R3, 9) < TOL_HAND, "b3 ximat");
  check3(d->xipos + 3 * b3, -0.2, 0.6, 1.3, "b3 xipos");
  check3(d->site_xpos + 3 * site(m, "tip"), -0.2, 0.6, 1.4, "site tip");
  CHECK(maxdiff(d->site_xmat + 9 * site(m, "tip"), R3, 9) < TOL_HAND, "site tip xmat");

  /* the free body: qpos is its world frame */
  int f = body(m, "f"), fc = body(m, "fc");
  check3(d->xpos + 3 * f, 1, 2, 3, "free body xpos");
  CHECK(quatdiff(d->xquat + 4 * f, qz) < TOL_HAND, "free body xquat");
  check3(d->site_xpos + 3 * site(m, "fs"), 0.8, 2.1, 3.3, "site on the free body");
  check3(d->xpos + 3 * fc, 1, 2, 3.2, "child of the free body");
  CHECK(quatdiff(d->xquat + 4 * fc, q3) < TOL_HAND, "child of the free body: xquat");
  check3(d->xaxis + 3 * jnt(m, "fh"), 0, 1, 0, "hinge axis on the free body");
  check3(d->xanchor + 3 * jnt(m, "fh"), 1, 2, 3.2, "hinge anchor on the free body");

  /* euler='a b c' is intrinsic x, y, z: R = Rx(a) Ry(b) Rz(c) */
  double ex[3] = {1, 0, 0}, ey[3] = {0, 1, 0}, ez[3] = {0, 0, 1}, Rx[9], Ry[9], Rz[9], Re[9];
  axis_angle_mat(Rx, ex, 0.3);
  axis_angle_mat(Ry, ey, -0.5);
  axis_angle_mat(Rz, ez, 0.7);
  matmul3(Re, Rx, Ry);
  matmul3(Re, Re, Rz);
  CHECK(maxdiff(d->xmat + 9 * body(m, "e"), Re, 9) < TOL_HAND, "euler body: Rx Ry Rz (err %g)",
        maxdiff(d->xmat + 9 * body(m, "e"), Re, 9));

  /* quaternions need not be normalised, and q and -q are the same orientation */
  double xpos[MAXV * 3], xmat[MAXV * 9];
  memcpy(xpos, d->xpos, sizeof(double) * 3 * (size_t)m->nbody);
  memcpy(xmat, d->xmat, sizeof(double) * 9 * (size_t)m->nbody);
  for (int i = 0; i < 4; i++) qb[i] *= -2.5, qf[3 + i] *= 0.3;
  gs_kinematics(m, d);
  CHECK(maxdiff(xpos, d->xpos, 3 * m->nbody) < TOL_HAND && maxdiff(xmat, d->xmat, 9 * m->nbody) < TOL_HAND,
        "scaled and negated quaternions give the same frames");
  double nq = 0;
  for (int i = 0; i < 4; i++) nq += d->xquat[4 * b3 + i] * d->xquat[4 * b3 + i];
  CHECK(fabs(nq - 1) < 1e-15, "xquat is unit (|q|^2 - 1 = %g)", nq - 1);

  gs_freeData(d);
  gs_freeModel(m);
}

/* ---- forward kinematics with matrices ---- */
typedef struct {
  double xpos[MAXV][3], xmat[MAXV][9], xipos[MAXV][3], ximat[MAXV][9];
  double anchor[MAXV][3], axis[MAXV][3];
} Frames;

static void attach(const double* x, const double* R, const double* lpos, const double* lquat,
                   double* px, double* pR) {
  double Rl[9];
  matvec3(px, R, lpos);
  for (int i = 0; i < 3; i++) px[i] += x[i];
  quat2mat(Rl, lquat);
  matmul3(pR, R, Rl);
}

static void fk_matrices(const gsModel* m, const double* qpos, Frames* F) {
  double I9[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  memset(F, 0, sizeof(*F));
  memcpy(F->xmat[0], I9, sizeof(I9));
  memcpy(F->ximat[0], I9, sizeof(I9));
  for (int b = 1; b < m->nbody; b++) {
    int p = m->body_parentid[b], j0 = m->body_jntadr[b], nj = m->body_jntnum[b];
    double* x = F->xpos[b];
    double* R = F->xmat[b];
    if (nj == 1 && m->jnt_type[j0] == GS_JNT_FREE) {
      const double* q = qpos + m->jnt_qposadr[j0];
      memcpy(x, q, 3 * sizeof(double));
      quat2mat(R, q + 3);
      memcpy(F->anchor[j0], x, 3 * sizeof(double));
    } else {
      attach(F->xpos[p], F->xmat[p], m->body_pos + 3 * b, m->body_quat + 4 * b, x, R);
      for (int j = j0; j < j0 + nj; j++) {
        const double* q = qpos + m->jnt_qposadr[j];
        const double* q0 = m->qpos0 + m->jnt_qposadr[j];
        const double* lp = m->jnt_pos + 3 * j;
        double Rj[9], t[3];
        matvec3(F->anchor[j], R, lp);
        for (int i = 0; i < 3; i++) F->anchor[j][i] += x[i];
        matvec3(F->axis[j], R, m->jnt_axis + 3 * j);
        if (m->jnt_type[j] == GS_JNT_SLIDE) {
          for (int i = 0; i < 3; i++) x[i] += F->axis[j][i] * (q[0] - q0[0]);
          continue;
        }
        if (m->jnt_type[j] == GS_JNT_HINGE) axis_angle_mat(Rj, m->jnt_axis + 3 * j, q[0] - q0[0]);
        else quat2mat(Rj, q);
        matmul3(R, R, Rj);
        matvec3(t, R, lp);  /* the anchor stays put */
        for (int i = 0; i < 3; i++) x[i] = F->anchor[j][i] - t[i];
      }
    }
    attach(x, R, m->body_ipos + 3 * b, m->body_iquat + 4 * b, F->xipos[b], F->ximat[b]);
  }
}

static void test_random_frames(const char* xml, const char* name) {
  gsModel* m = load_xml(xml);
  CHECK(m != NULL, "%s loads", name);
  if (!m) return;
  gsData* d = gs_makeData(m);
  unsigned seed = 11;
  Frames F;
  double exyz = 0, eR = 0, equat = 0, eortho = 0, ejnt = 0, egeom = 0, esite = 0, eunit = 0;
  for (int trial = 0; trial < 10; trial++) {
    random_state(m, d, &seed, 1.0, 0);
    gs_kinematics(m, d);
    fk_matrices(m, d->qpos, &F);
    for (int b = 0; b < m->nbody; b++) {
      double Rq[9], RRt[9], n = 0;
      exyz = fmax(exyz, maxdiff(d->xpos + 3 * b, F.xpos[b], 3));
      exyz = fmax(exyz, maxdiff(d->xipos + 3 * b, F.xipos[b], 3));
      eR = fmax(eR, maxdiff(d->xmat + 9 * b, F.xmat[b], 9));
      eR = fmax(eR, maxdiff(d->ximat + 9 * b, F.ximat[b], 9));
      quat2mat(Rq, d->xquat + 4 * b);
      equat = fmax(equat, maxdiff(Rq, d->xmat + 9 * b, 9));
      for (int i = 0; i < 4; i++) n += d->xquat[4 * b + i] * d->xquat[4 * b + i];
      eunit = fmax(eunit, fabs(n - 1));
      const double* R = d->xmat + 9 * b;
      matmulT3(RRt, R, R);
      for (int i = 0; i < 3; i++) RRt[4 * i] -= 1;
      eortho = fmax(eortho, maxabs(RRt, 9));
    }
    for (int j = 0; j < m->njnt; j++) {
      ejnt = fmax(ejnt, maxdiff(d->xanchor + 3 * j, F.anchor[j], 3));
      if (m->jnt_type[j] == GS_JNT_HINGE || m->jnt_type[j] == GS_JNT_SLIDE)
        ejnt = fmax(ejnt, maxdiff(d->xaxis + 3 * j, F.axis[j], 3));
    }
    for (int g = 0; g < m->ngeom; g++) {
      int b = m->geom_bodyid[g];
      double x[3], R[9];
      attach(F.xpos[b], F.xmat[b], m->geom_pos + 3 * g, m->geom_quat + 4 * g, x, R);
      egeom = fmax(egeom, fmax(maxdiff(d->geom_xpos + 3 * g, x, 3), maxdiff(d->geom_xmat + 9 * g, R, 9)));
    }
    for (int s = 0; s < m->nsite; s++) {
      int b = m->site_bodyid[s];
      double x[3], R[9];
      attach(F.xpos[b], F.xmat[b], m->site_pos + 3 * s, m->site_quat + 4 * s, x, R);
      esite = fmax(esite, fmax(maxdiff(d->site_xpos + 3 * s, x, 3), maxdiff(d->site_xmat + 9 * s, R, 9)));
    }
  }
  CHECK(exyz < TOL_FK, "%s: xpos and xipos against the matrix kinematics (err %g)", name, exyz);
  CHECK(eR < TOL_FK, "%s: xmat and ximat against the matrix kinematics (err %g)", name, eR);
  CHECK(equat < TOL_FK, "%s: xmat is the matrix of xquat (err %g)", name, equat);
  CHECK(eunit < 1e-15, "%s: xquat unit (err %g)", name, eunit);
  CHECK(eortho < TOL_FK, "%s: xmat orthonormal (err %g)", name, eortho);
  CHECK(ejnt < TOL_FK, "%s: joint anchors and axes (err %g)", name, ejnt);
  CHECK(egeom < TOL_FK, "%s: geom frames (err %g)", name, egeom);
  CHECK(esite < TOL_FK, "%s: site frames (err %g)", name, esite);
  CHECK(m->nsite > 0, "%s has sites to check", name);
  gs_freeData(d);
  gs_freeModel(m);
}

/* The hinges' half-angle sines and cosines come from the arena, all first, where it has room,
 * else each at its joint's turn: the same frames bit for bit either way (the same library calls
 * on the same angles), and an arena without room for them is no warning of its own. */
static void test_arena_without_room(void) {
  gsModel* m = load_xml(TREE_XML);
  CHECK(m != NULL, "tree loads");
  if (!m) return;
  gsData* d = gs_makeData(m);
  unsigned seed = 5;
  int same = 1, hinges = 0;
  for (int j = 0; j < m->njnt; j++) hinges += m->jnt_type[j] == GS_JNT_HINGE;
  size_t nq = 4 * (size_t)m->nbody, nx = 3 * (size_t)m->nbody;
  double* keep = malloc(sizeof(double) * (nq + nx));
  for (int trial = 0; keep && trial < 5; trial++) {
    random_state(m, d, &seed, 2.0, 0);
    gs_kinematics(m, d);
    memcpy(keep, d->xquat, sizeof(double) * nq);
    memcpy(keep + nq, d->xpos, sizeof(double) * nx);
    size_t pstack = d->pstack;
    int warned = d->warning[GS_WARN_ARENAFULL].number;
    d->pstack = d->narena - 8;  /* no room for two values a joint */
    gs_kinematics(m, d);
    d->pstack = pstack;
    same &= !memcmp(keep, d->xquat, sizeof(double) * nq) &&
            !memcmp(keep + nq, d->xpos, sizeof(double) * nx);
    CHECK(d->warning[GS_WARN_ARENAFULL].number == warned, "trial %d: no arena warning", trial);
  }
  CHECK(keep && same, "frames with and without the arena's room: bit for bit");
  CHECK(hinges >= 2, "the tree has hinges (%d)", hinges);
  free(keep);
  gs_freeData(d);
  gs_freeModel(m);
}

int main(void) {
  test_hand_chain();
  test_arena_without_room();
  test_random_frames(TREE_XML, "tree");
  test_random_frames(FLOAT_XML, "float");
  return CHECK_SUMMARY();
}
