/* Passive forces, split as MJCF splits them: springs (joints toward qpos_spring, tendons toward
 * their spring length range), dampers (viscous, joints and tendons), gravity compensation (a lift
 * of gravcomp times each body's weight at its centre of mass) and fluid forces; qfrc_passive is
 * their sum, less the gravity compensation of the joints that route it to the actuators. */
#include "core/math.h"
#include "dynamics/dynamics.h"

static void joint_springs(const gsModel* m, gsData* d) {
  for (int j = 0; j < m->njnt; j++) {
    gsReal k = m->jnt_stiffness[j];
    if (k == 0) continue;
    int qa = m->jnt_qposadr[j], da = m->jnt_dofadr[j];
    gsReal* f = d->qfrc_spring + da;
    const gsReal* q = d->qpos + qa;
    const gsReal* q0 = m->qpos_spring + qa;
    gsReal quat[4], dif[3];
    switch (m->jnt_type[j]) {
      case GS_JNT_FREE:
        for (int i = 0; i < 3; i++) f[i] = -k * (q[i] - q0[i]);
        f += 3; q += 3; q0 += 3;
        /* fall through */
      case GS_JNT_BALL:
        /* restoring torque along the rotation vector from the rest orientation */
        gs_copy4(quat, q);
        gs_normalize4(quat);
        gs_subQuat(dif, quat, q0);
        for (int i = 0; i < 3; i++) f[i] = -k * dif[i];
        break;
      default:
        f[0] = -k * (q[0] - q0[0]);
        break;
    }
  }
}

/* qfrc += J_t^T f */
static void add_tendon_force(const gsModel* m, const gsData* d, int t, gsReal f, gsReal* qfrc) {
  const gsReal* J = d->ten_J + (size_t)t * m->nv;
  int lo, hi;
  gs_tendonSpan(m, t, &lo, &hi);
  for (int i = lo; i < hi; i++) qfrc[i] += J[i] * f;
}

/* a tendon's spring pulls only outside [lower, upper] of its spring lengths, toward the nearer
 * end (a dead band between them; equal ends make the ordinary spring) */
static void tendon_springs(const gsModel* m, gsData* d) {
  for (int t = 0; t < m->ntendon; t++) {
    gsReal k = m->tendon_stiffness[t];
    if (k == 0) continue;
    gsReal len = d->ten_length[t];
    const gsReal* rest = m->tendon_lengthspring + 2 * t;
    gsReal f = len > rest[1] ? k * (rest[1] - len) : len < rest[0] ? k * (rest[0] - len) : 0;
    if (f != 0) add_tendon_force(m, d, t, f, d->qfrc_spring);
  }
}

static void dampers(const gsModel* m, gsData* d) {
  int nv = m->nv;
  for (int i = 0; i < nv; i++) d->qfrc_damper[i] = -m->dof_damping[i] * d->qvel[i];
  for (int t = 0; t < m->ntendon; t++) {
    gsReal b = m->tendon_damping[t];
    if (b == 0) continue;
    /* the tendon's velocity J qvel, here: ten_velocity belongs to the actuation stage */
    const gsReal* J = d->ten_J + (size_t)t * nv;
    gsReal v = 0;
    int lo, hi;
    gs_tendonSpan(m, t, &lo, &hi);
    for (int i = lo; i < hi; i++) v += J[i] * d->qvel[i];
    add_tendon_force(m, d, t, -b * v, d->qfrc_damper);
  }
}

/* whether any body is compensated and gravity acts */
static int gravcomp_on(const gsModel* m) {
  const gsReal* g = m->opt.gravity;
  if ((m->opt.disableflags & GS_DSBL_GRAVITY) || (g[0] == 0 && g[1] == 0 && g[2] == 0)) return 0;
  return !gs_allZero(m->body_gravcomp + 1, m->nbody - 1);
}

/* the force -gravcomp m g at each compensated body's centre of mass, mapped by its Jacobian */
static void gravcomp(const gsModel* m, gsData* d) {
  for (int b = 1; b < m->nbody; b++) {
    gsReal c = m->body_gravcomp[b];
    if (c == 0) continue;
    gsReal force[3], torque[3] = {0, 0, 0};
    gs_scl3(force, m->opt.gravity, -c * m->body_mass[b]);
    gs_applyFT(m, d, force, torque, d->xipos + 3 * b, b, d->qfrc_gravcomp);
  }
}

void gs_passive(const gsModel* m, gsData* d) {
  int nv = m->nv;
  gs_zero(d->qfrc_spring, nv);
  gs_zero(d->qfrc_damper, nv);
  gs_zero(d->qfrc_gravcomp, nv);
  gs_zero(d->qfrc_fluid, nv);
  gs_zero(d->qfrc_passive, nv);
  int spring = !(m->opt.disableflags & GS_DSBL_SPRING);
  int damper = !(m->opt.disableflags & GS_DSBL_DAMPER);
  /* MJCF computes no passive force at all, gravity compensation and fluid included, when both
   * springs and dampers are off */
  if (!spring && !damper) return;
  if (spring) {
    joint_springs(m, d);
    tendon_springs(m, d);
  }
  if (damper) dampers(m, d);
  int gc = gravcomp_on(m);
  if (gc) gravcomp(m, d);

  /* fluid forces (fluid.c: zero unless density or viscosity is positive), after the early
   * return: MJCF computes no fluid force either when springs and dampers are both off */
  gs_fluid(m, d);

  for (int i = 0; i < nv; i++)
    d->qfrc_passive[i] = d->qfrc_spring[i] + d->qfrc_damper[i] + d->qfrc_fluid[i];
  if (gc)
    for (int i = 0; i < nv; i++)
      if (!m->jnt_actgravcomp[m->dof_jntid[i]]) d->qfrc_passive[i] += d->qfrc_gravcomp[i];
}

void gs_gravcompActuator(const gsModel* m, gsData* d) {
  if (m->nu == 0 || (m->opt.disableflags & GS_DSBL_ACTUATION) || !gravcomp_on(m)) return;
  for (int i = 0; i < m->nv; i++)
    if (m->jnt_actgravcomp[m->dof_jntid[i]]) d->qfrc_actuator[i] += d->qfrc_gravcomp[i];
}
