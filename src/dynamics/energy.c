/* Potential (gravity, joint and tendon springs) and kinetic energy (tendon armature included,
 * through M). */
#include "core/arena.h"
#include "core/math.h"
#include "dynamics/dynamics.h"

void gs_energyPos(const gsModel* m, gsData* d) {
  gsReal e = 0;
  if (!(m->opt.disableflags & GS_DSBL_GRAVITY))
    for (int b = 1; b < m->nbody; b++) e -= m->body_mass[b] * gs_dot3(m->opt.gravity, d->xipos + 3 * b);
  if (!(m->opt.disableflags & GS_DSBL_SPRING)) {
    for (int j = 0; j < m->njnt; j++) {
      gsReal k = m->jnt_stiffness[j];
      if (k == 0) continue;
      const gsReal* q = d->qpos + m->jnt_qposadr[j];
      const gsReal* q0 = m->qpos_spring + m->jnt_qposadr[j];
      gsReal quat[4], dif[3];
      switch (m->jnt_type[j]) {
        case GS_JNT_FREE:
          gs_sub3(dif, q, q0);
          e += 0.5 * k * gs_dot3(dif, dif);
          q += 3; q0 += 3;
          /* fall through */
        case GS_JNT_BALL:
          gs_copy4(quat, q);
          gs_normalize4(quat);
          gs_subQuat(dif, quat, q0);
          e += 0.5 * k * gs_dot3(dif, dif);
          break;
        default:
          e += 0.5 * k * (q[0] - q0[0]) * (q[0] - q0[0]);
          break;
      }
    }
    /* tendon springs: stretched only outside the dead band of their two spring lengths */
    for (int t = 0; t < m->ntendon; t++) {
      gsReal k = m->tendon_stiffness[t], len = d->ten_length[t];
      const gsReal* rest = m->tendon_lengthspring + 2 * t;
      gsReal s = len > rest[1] ? len - rest[1] : len < rest[0] ? len - rest[0] : 0;
      e += 0.5 * k * s * s;
    }
  }
  d->energy[0] = e;
}

void gs_energyVel(const gsModel* m, gsData* d) {
  size_t mark = gs_arenaMark(d);
  gsReal* Mv = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)m->nv);
  if (Mv) {
    gs_mulM(m, d, Mv, d->qvel);
    gsReal e = 0;
    for (int i = 0; i < m->nv; i++) e += d->qvel[i] * Mv[i];
    d->energy[1] = 0.5 * e;
  }
  gs_arenaRelease(d, mark);
}
