/* Shared by the core tests (test_kinematics.c, test_com.c, test_inertia.c, test_rne.c,
 * test_passive.c, test_jacobian.c, test_energy.c): the test models, random states, and small
 * vector helpers written here, independently of the engine's math, so that the tests never check
 * the engine against itself.
 *
 * Finite differences move qpos with gs_integratePos, which for ball and free joints turns the
 * orientation by exp(h w) with w in the body frame: the direction in which dof i of a ball or free
 * joint moves the body, so d/dh f(q (+) h e_i) is column i of the Jacobian of f. A central
 * difference with step h errs by h^2/6 |f'''| (truncation) plus about eps |f| / h (rounding);
 * each file states its h and the bound it derives from these two terms. */
#ifndef GAUSS_TEST_CORE_UTIL_H
#define GAUSS_TEST_CORE_UTIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gauss/gauss.h"

#define MAXV 32  /* the test models have fewer dofs, bodies and coordinates than this */

/* ---- models ---- */

/* A branched tree of hinges and slides (no quaternion coordinates): a base with two joints on one
 * body, two branches, a body with a hinge and a slide, refs and springrefs, tilted axes, joint
 * anchors off the body origin, inertial frames turned and offset. Gravity is tilted so that every
 * component matters. */
#define TREE_XML \
    "<mujoco model='tree'>" \
    "  <compiler angle='radian'/>" \
    "  <option gravity='0.3 -0.2 -9.81'>" \
    "    <flag contact='disable' constraint='disable'/>" \
    "  </option>" \
    "  <worldbody>" \
    "    <body name='base' pos='0.1 -0.2 1' euler='0.1 0.2 0.3'>" \
    "      <joint name='s0' type='slide' axis='1 0.2 0' stiffness='3' damping='0.4' springref='0.05'/>" \
    "      <joint name='h0' type='hinge' axis='0 0 1' pos='0.05 0 0' armature='0.01'/>" \
    "      <inertial pos='0.02 0.01 -0.03' quat='0.9 0.1 0.3 -0.2' mass='2' diaginertia='0.03 0.04 0.05'/>" \
    "      <body name='a1' pos='0.3 0 0' euler='0.2 -0.1 0.4'>" \
    "        <joint name='ha1' type='hinge' axis='0 1 0' pos='-0.1 0 0' ref='0.2' stiffness='2' damping='0.1'/>" \
    "        <inertial pos='0.1 0.02 0' quat='1 0.2 0 0.1' mass='0.7' diaginertia='0.01 0.02 0.015'/>" \
    "        <site name='a1_tip' pos='0.2 0.03 -0.01'/>" \
    "        <body name='a2' pos='0.25 0 0'>" \
    "          <joint name='ha2' type='hinge' axis='0.3 0.4 1' pos='0 0.02 0' springref='-0.3' stiffness='1.5'/>" \
    "          <joint name='sa2' type='slide' axis='1 0 0.5' ref='0.1' damping='0.2'/>" \
    "          <inertial pos='0.1 0 0.01' mass='0.4' diaginertia='0.004 0.005 0.006'/>" \
    "          <geom type='box' size='0.05 0.02 0.03' pos='0.1 0 0' euler='0.3 0 0.2' mass='0'/>" \
    "          <site name='a2_tip' pos='0.2 -0.01 0.02' euler='0 0.5 0'/>" \
    "        </body>" \
    "      </body>" \
    "      <body name='b1' pos='-0.2 0.1 0' quat='0.8 0 0.6 0'>" \
    "        <joint name='sb1' type='slide' axis='0 0 1' armature='0.05'/>" \
    "        <inertial pos='0 0 -0.05' mass='0.5' diaginertia='0.002 0.003 0.004'/>" \
    "        <body name='b2' pos='0 0 -0.2'>" \
    "          <joint name='hb2' type='hinge' axis='1 0 0' pos='0 0 0.05' damping='0.3'/>" \
    "          <inertial pos='0 0.1 -0.1' quat='0.7 0.7 0.1 0' mass='0.3' diaginertia='0.001 0.002 0.0025'/>" \
    "          <site name='b2_tip' pos='0 0.15 -0.2'/>" \
    "        </body>" \
    "      </body>" \
    "    </body>" \
    "  </worldbody>" \
    "</mujoco>"


/* Every joint type and several trees: a free torso with a ball-jointed arm (hinge forearm) and a
 * leg on a slide and a hinge; a ball pendulum hanging from the world with a hinge below; a lone
 * free body (a tree of exactly six dofs); a body welded to the world. Springs on ball, free,
 * hinge and slide joints. */
#define FLOAT_XML \
    "<mujoco model='float'>" \
    "  <compiler angle='radian'/>" \
    "  <option gravity='0.1 0.2 -9.81'>" \
    "    <flag contact='disable' constraint='disable'/>" \
    "  </option>" \
    "  <worldbody>" \
    "    <body name='fixed' pos='0 0 0.5'><geom type='sphere' size='0.1'/>" \
    "      <site name='fixed_site' pos='0.1 0 0'/></body>" \
    "    <body name='torso' pos='0 0 1' quat='0.9 0.1 -0.2 0.3'>" \
    "      <joint name='root' type='free' stiffness='4' damping='0.3' armature='0.03'/>" \
    "      <inertial pos='0.03 -0.02 0.01' quat='0.95 0.2 0.1 0.05' mass='3' diaginertia='0.1 0.12 0.15'/>" \
    "      <body name='arm' pos='0.2 0.1 0' euler='0.3 0.1 -0.2'>" \
    "        <joint name='shoulder' type='ball' pos='-0.05 0 0' stiffness='2' damping='0.1' armature='0.02'/>" \
    "        <inertial pos='0.1 0.01 0' quat='0.8 0 0.3 0.1' mass='0.8' diaginertia='0.01 0.012 0.015'/>" \
    "        <body name='forearm' pos='0.25 0 0'>" \
    "          <joint name='elbow' type='hinge' axis='0 1 0.2' pos='0.01 0 0' stiffness='1'/>" \
    "          <inertial pos='0.1 0 -0.01' mass='0.5' diaginertia='0.004 0.005 0.007'/>" \
    "          <site name='hand' pos='0.22 0.01 0.03'/>" \
    "        </body>" \
    "      </body>" \
    "      <body name='leg' pos='0 -0.05 -0.3'>" \
    "        <joint name='hip' type='slide' axis='0.1 0 1' stiffness='5' damping='0.5'/>" \
    "        <joint name='knee' type='hinge' axis='1 0 0' pos='0 0 0.05'/>" \
    "        <inertial pos='0 0.02 -0.15' mass='1.1' diaginertia='0.02 0.025 0.01'/>" \
    "        <site name='foot' pos='0 0.03 -0.3'/>" \
    "      </body>" \
    "    </body>" \
    "    <body name='pend' pos='1 0 1.5'>" \
    "      <joint name='pivot' type='ball' pos='0 0 0.1'/>" \
    "      <inertial pos='0.02 0 -0.2' quat='0.9 0 0.4 0' mass='1' diaginertia='0.02 0.03 0.04'/>" \
    "      <body name='bob' pos='0 0 -0.4'>" \
    "        <joint name='swing' type='hinge' axis='1 1 0' damping='0.2'/>" \
    "        <inertial pos='0 0.05 -0.1' mass='0.6' diaginertia='0.003 0.004 0.005'/>" \
    "        <site name='bob_site' pos='0.05 0 -0.25'/>" \
    "      </body>" \
    "    </body>" \
    "    <body name='rock' pos='-1 0.5 2' euler='0.5 0.4 0.3'>" \
    "      <freejoint name='rockjoint'/>" \
    "      <inertial pos='0.05 0.1 -0.02' quat='0.6 0.3 0.5 0.2' mass='2.5' diaginertia='0.05 0.07 0.09'/>" \
    "      <site name='rock_site' pos='0.2 -0.1 0.1'/>" \
    "    </body>" \
    "  </worldbody>" \
    "</mujoco>"


/* Tedrake's simple double pendulum (Underactuated Robotics, "Multi-Body Dynamics"), in the x-z
 * plane: masses m1, m2 at distances l1, l2 below the joints, both hinges about -y, so that
 * q = 0 hangs down and p1 = l1 (sin q1, -cos q1) in (x, z). The bodies also have small rotational
 * inertias i1, i2 about the hinge direction (the closed forms below add them: they enter M only,
 * as i1 + i2 in M11, i2 in M12 and M22; with parallel axes there is no gyroscopic term). */
#define DP_M1 1.3
#define DP_M2 0.8
#define DP_L1 1.1
#define DP_L2 0.7
#define DP_I1 0.004
#define DP_I2 0.002
#define DP_G 9.81
#define PENDULUM_XML \
    "<mujoco model='double pendulum'>" \
    "  <compiler angle='radian'/>" \
    "  <option gravity='0 0 -9.81'><flag contact='disable' constraint='disable'/></option>" \
    "  <worldbody>" \
    "    <body name='link1' pos='0 0 2'>" \
    "      <joint name='q1' type='hinge' axis='0 -1 0'/>" \
    "      <inertial pos='0 0 -1.1' mass='1.3' diaginertia='0.004 0.004 0.004'/>" \
    "      <body name='link2' pos='0 0 -1.1'>" \
    "        <joint name='q2' type='hinge' axis='0 -1 0'/>" \
    "        <inertial pos='0 0 -0.7' mass='0.8' diaginertia='0.002 0.002 0.002'/>" \
    "      </body>" \
    "    </body>" \
    "  </worldbody>" \
    "</mujoco>"


/* three free bodies: centred, with a turned inertial frame, and with an offset and turned one
 * (gravity off the vertical, so that each of its components is tested) */
#define FREE_XML \
    "<mujoco><compiler angle='radian'/>" \
    "  <option gravity='0.5 -0.3 -9.81'><flag contact='disable' constraint='disable'/></option>" \
    "  <worldbody>" \
    "    <body name='centred'><freejoint/>" \
    "      <inertial pos='0 0 0' mass='2' diaginertia='0.1 0.2 0.25'/></body>" \
    "    <body name='turned'><freejoint/>" \
    "      <inertial pos='0 0 0' quat='0.8 0.2 -0.3 0.4' mass='1.5' diaginertia='0.05 0.09 0.12'/></body>" \
    "    <body name='offset'><freejoint/>" \
    "      <inertial pos='0.3 -0.2 0.1' quat='0.6 0.1 0.5 -0.2' mass='1.2' diaginertia='0.04 0.06 0.08'/></body>" \
    "  </worldbody>" \
    "</mujoco>"

/* the closed forms: M(q), the bias c(q, v) = C(q, v) v - tau_g(q), with Tedrake's C and tau_g */
static inline void dp_mass(const double q[2], double M[4]) {
  double c2 = cos(q[1]);
  double a = DP_M2 * DP_L1 * DP_L2 * c2;
  M[0] = (DP_M1 + DP_M2) * DP_L1 * DP_L1 + DP_M2 * DP_L2 * DP_L2 + 2 * a + DP_I1 + DP_I2;
  M[1] = M[2] = DP_M2 * DP_L2 * DP_L2 + a + DP_I2;
  M[3] = DP_M2 * DP_L2 * DP_L2 + DP_I2;
}
static inline void dp_bias(const double q[2], const double v[2], double c[2]) {
  double s1 = sin(q[0]), s2 = sin(q[1]), s12 = sin(q[0] + q[1]);
  double k = DP_M2 * DP_L1 * DP_L2 * s2;
  double C[4] = {0, -k * (2 * v[0] + v[1]), 0.5 * k * (2 * v[0] + v[1]), -0.5 * k * v[0]};
  double taug[2] = {-DP_G * ((DP_M1 + DP_M2) * DP_L1 * s1 + DP_M2 * DP_L2 * s12),
                    -DP_G * DP_M2 * DP_L2 * s12};
  c[0] = C[0] * v[0] + C[1] * v[1] - taug[0];
  c[1] = C[2] * v[0] + C[3] * v[1] - taug[1];
}

static inline gsModel* load_xml(const char* xml) {
  char err[1024] = "";
  gsModel* m = gs_loadXMLString(xml, err, sizeof(err));
  if (!m) printf("load failed: %s\n", err);
  else if (m->nv > MAXV || m->nq > MAXV || m->nbody > MAXV)
    printf("model larger than the tests' MAXV\n"), gs_freeModel(m), m = NULL;
  return m;
}

/* ---- random states ---- */
static inline double urand(unsigned* seed) { return 2 * ((double)rand_r(seed) / RAND_MAX) - 1; }

/* hinges and slides at qpos0 + qscale u, ball and free orientations uniformly random (a
 * normalised 4-vector of uniforms is not uniform on SO(3), but covers it), free positions moved
 * by qscale u; velocities vscale u */
static inline void random_state(const gsModel* m, gsData* d, unsigned* seed, double qscale,
                                double vscale) {
  for (int j = 0; j < m->njnt; j++) {
    double* q = d->qpos + m->jnt_qposadr[j];
    const double* q0 = m->qpos0 + m->jnt_qposadr[j];
    switch (m->jnt_type[j]) {
      case GS_JNT_FREE:
        for (int i = 0; i < 3; i++) q[i] = q0[i] + qscale * urand(seed);
        q += 3;
        /* fall through */
      case GS_JNT_BALL: {
        double n = 0;
        for (int i = 0; i < 4; i++) q[i] = urand(seed), n += q[i] * q[i];
        for (int i = 0; i < 4; i++) q[i] /= sqrt(n);
        break;
      }
      default:
        q[0] = q0[0] + qscale * urand(seed);
    }
  }
  for (int i = 0; i < m->nv; i++) d->qvel[i] = vscale * urand(seed);
}

/* position stages only: frames and com quantities (the state of d->qpos) */
static inline void kin(const gsModel* m, gsData* d) {
  gs_kinematics(m, d);
  gs_comPos(m, d);
}

/* d->qpos <- q (+) h v */
static inline void set_moved(const gsModel* m, gsData* d, const double* q, const double* v, double h) {
  memcpy(d->qpos, q, sizeof(double) * (size_t)m->nq);
  gs_integratePos(m, d->qpos, v, h);
}

/* ---- small vector helpers (the tests' own, not the engine's) ---- */
static inline void cross3(double r[3], const double a[3], const double b[3]) {
  double t[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
  r[0] = t[0]; r[1] = t[1]; r[2] = t[2];
}
static inline double dot3(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static inline double maxabs(const double* a, int n) {
  double r = 0;
  for (int i = 0; i < n; i++) r = fmax(r, fabs(a[i]));
  return r;
}
static inline double maxdiff(const double* a, const double* b, int n) {
  double r = 0;
  for (int i = 0; i < n; i++) r = fmax(r, fabs(a[i] - b[i]));
  return r;
}
/* r = A b (3x3 row-major), r = A^T b */
static inline void matvec3(double r[3], const double A[9], const double b[3]) {
  double t[3];
  for (int i = 0; i < 3; i++) t[i] = A[3 * i] * b[0] + A[3 * i + 1] * b[1] + A[3 * i + 2] * b[2];
  r[0] = t[0]; r[1] = t[1]; r[2] = t[2];
}
static inline void matTvec3(double r[3], const double A[9], const double b[3]) {
  double t[3];
  for (int i = 0; i < 3; i++) t[i] = A[i] * b[0] + A[3 + i] * b[1] + A[6 + i] * b[2];
  r[0] = t[0]; r[1] = t[1]; r[2] = t[2];
}
static inline void matmul3(double r[9], const double A[9], const double B[9]) {
  double t[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      t[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
  memcpy(r, t, sizeof(t));
}
/* r = A B^T */
static inline void matmulT3(double r[9], const double A[9], const double B[9]) {
  double t[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      t[3 * i + j] = A[3 * i] * B[3 * j] + A[3 * i + 1] * B[3 * j + 1] + A[3 * i + 2] * B[3 * j + 2];
  memcpy(r, t, sizeof(t));
}
/* rotation matrix of the unit quaternion (w, x, y, z), the textbook formula */
static inline void quat2mat(double R[9], const double q[4]) {
  double n = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  double w = q[0] / sqrt(n), x = q[1] / sqrt(n), y = q[2] / sqrt(n), z = q[3] / sqrt(n);
  R[0] = 1 - 2 * (y * y + z * z); R[1] = 2 * (x * y - w * z);     R[2] = 2 * (x * z + w * y);
  R[3] = 2 * (x * y + w * z);     R[4] = 1 - 2 * (x * x + z * z); R[5] = 2 * (y * z - w * x);
  R[6] = 2 * (x * z - w * y);     R[7] = 2 * (y * z + w * x);     R[8] = 1 - 2 * (x * x + y * y);
}
/* Rodrigues: rotation by angle about the (normalised) axis */
static inline void axis_angle_mat(double R[9], const double axis[3], double angle) {
  double n = sqrt(dot3(axis, axis)), x = axis[0] / n, y = axis[1] / n, z = axis[2] / n;
  double c = cos(angle), s = sin(angle), t = 1 - c;
  R[0] = t * x * x + c;     R[1] = t * x * y - s * z; R[2] = t * x * z + s * y;
  R[3] = t * x * y + s * z; R[4] = t * y * y + c;     R[5] = t * y * z - s * x;
  R[6] = t * x * z - s * y; R[7] = t * y * z + s * x; R[8] = t * z * z + c;
}
/* world inertia about the com of body b: ximat diag(body_inertia) ximat^T */
static inline void world_inertia(const gsModel* m, const gsData* d, int b, double I[9]) {
  const double* R = d->ximat + 9 * b;
  const double* J = m->body_inertia + 3 * b;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      I[3 * i + j] = R[3 * i] * J[0] * R[3 * j] + R[3 * i + 1] * J[1] * R[3 * j + 1] +
                     R[3 * i + 2] * J[2] * R[3 * j + 2];
}
/* angular velocity (world) from a central difference of a rotation matrix: W = dR/dt R^T is
 * skew, w its axial vector (the antisymmetric part, so that O(h^2) errors in the symmetric part
 * drop out) */
static inline void omega_fd(double w[3], const double Rp[9], const double Rm[9], const double R[9],
                            double h) {
  double dR[9], W[9];
  for (int i = 0; i < 9; i++) dR[i] = (Rp[i] - Rm[i]) / (2 * h);
  matmulT3(W, dR, R);
  w[0] = 0.5 * (W[7] - W[5]);
  w[1] = 0.5 * (W[2] - W[6]);
  w[2] = 0.5 * (W[3] - W[1]);
}

/* body velocities by central differences of the kinematics along q (+) t v: the linear velocity of
 * each body's com and its angular velocity, both in world coordinates. dd is scratch data; it is
 * left holding the kinematics at q itself. */
static inline void body_vel_fd(const gsModel* m, gsData* dd, const double* q, const double* v,
                               double h, double vcom[][3], double omega[][3]) {
  double xp[MAXV][3], Rp[MAXV][9], xm[MAXV][3], Rm[MAXV][9];
  set_moved(m, dd, q, v, h);
  gs_kinematics(m, dd);
  memcpy(xp, dd->xipos, sizeof(double) * 3 * (size_t)m->nbody);
  memcpy(Rp, dd->ximat, sizeof(double) * 9 * (size_t)m->nbody);
  set_moved(m, dd, q, v, -h);
  gs_kinematics(m, dd);
  memcpy(xm, dd->xipos, sizeof(double) * 3 * (size_t)m->nbody);
  memcpy(Rm, dd->ximat, sizeof(double) * 9 * (size_t)m->nbody);
  set_moved(m, dd, q, v, 0);
  gs_kinematics(m, dd);
  for (int b = 0; b < m->nbody; b++) {
    for (int i = 0; i < 3; i++) vcom[b][i] = (xp[b][i] - xm[b][i]) / (2 * h);
    omega_fd(omega[b], Rp[b], Rm[b], dd->ximat + 9 * b, h);
  }
}

/* kinetic energy sum over bodies of 1/2 m |v|^2 + 1/2 w^T I w, from body_vel_fd */
static inline double kinetic_fd(const gsModel* m, gsData* dd, const double* q, const double* v,
                                double h) {
  double vc[MAXV][3], w[MAXV][3], I[9], Iw[3];
  body_vel_fd(m, dd, q, v, h, vc, w);
  double T = 0;
  for (int b = 1; b < m->nbody; b++) {
    world_inertia(m, dd, b, I);
    matvec3(Iw, I, w[b]);
    T += 0.5 * m->body_mass[b] * dot3(vc[b], vc[b]) + 0.5 * dot3(w[b], Iw);
  }
  return T;
}

#endif
