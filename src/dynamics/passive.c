/* Passive forces: joint springs toward qpos_spring and viscous joint damping. */
#include "core/math.h"
#include "dynamics/dynamics.h"
#include "gauss/gauss.h"

void gs_passive(const gsModel* m, gsData* d) {
  gs_zero(d->qfrc_passive, m->nv);
  if (!(m->opt.disableflags & GS_DSBL_SPRING)) {
    for (int j = 0; j < m->njnt; j++) {
      gsReal k = m->jnt_stiffness[j];
      if (k == 0) continue;
      int qa = m->jnt_qposadr[j], da = m->jnt_dofadr[j];
      gsReal* f = d->qfrc_passive + da;
      const gsReal* q = d->qpos + qa;
      const gsReal* q0 = m->qpos_spring + qa;
      gsReal quat[4], dif[3];
      switch (m->jnt_type[j]) {
        case GS_JNT_FREE:
          for (int i = 0; i < 3; i++) f[i] -= k * (q[i] - q0[i]);
          f += 3; q += 3; q0 += 3;
          /* fall through */
        case GS_JNT_BALL:
          /* restoring torque along the rotation vector from the rest orientation */
          gs_copy4(quat, q);
          gs_normalize4(quat);
          gs_subQuat(dif, quat, q0);
          for (int i = 0; i < 3; i++) f[i] -= k * dif[i];
          break;
        default:
          f[0] -= k * (q[0] - q0[0]);
          break;
      }
    }
  }
  if (!(m->opt.disableflags & GS_DSBL_DAMPER))
    for (int i = 0; i < m->nv; i++) d->qfrc_passive[i] -= m->dof_damping[i] * d->qvel[i];

  /* fluid forces (fluid.c: zero unless density or viscosity is positive) */
  gs_fluid(m, d);
  for (int i = 0; i < m->nv; i++) d->qfrc_passive[i] += d->qfrc_fluid[i];
}
