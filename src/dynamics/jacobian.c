/* Jacobians of points on bodies, and Cartesian forces mapped to joint space through them. */
#include "core/math.h"
#include "dynamics/dynamics.h"

int gs_bodyLastDof(const gsModel* m, int b) {
  while (b > 0 && m->body_dofnum[b] == 0) b = m->body_parentid[b];
  return b > 0 ? m->body_dofadr[b] + m->body_dofnum[b] - 1 : -1;
}

/* velocity of `point` due to unit motion of dof j: linear = cdof_lin + cdof_ang x (point - ref) */
static void point_velocity(gsReal lin[3], const gsReal* cdof, const gsReal off[3]) {
  gsReal t[3];
  gs_cross(t, cdof, off);
  gs_add3(lin, cdof + 3, t);
}

void gs_jacChain(const gsModel* m, const gsData* d, gsReal* jacp, gsReal* jacr,
                 const gsReal point[3], int body) {
  int nv = m->nv;
  gsReal off[3];
  gs_sub3(off, point, d->subtree_com + 3 * m->body_rootid[body]);
  for (int j = gs_bodyLastDof(m, body); j >= 0; j = m->dof_parentid[j]) {
    const gsReal* s = d->cdof + 6 * j;
    if (jacp) {
      gsReal lin[3];
      point_velocity(lin, s, off);
      for (int i = 0; i < 3; i++) jacp[i * nv + j] = lin[i];
    }
    if (jacr)
      for (int i = 0; i < 3; i++) jacr[i * nv + j] = s[i];
  }
}

void gs_jac(const gsModel* m, const gsData* d, gsReal* jacp, gsReal* jacr, const gsReal point[3],
            int body) {
  if (jacp) gs_zero(jacp, 3 * m->nv);
  if (jacr) gs_zero(jacr, 3 * m->nv);
  if (body < 0 || body >= m->nbody) return;
  gs_jacChain(m, d, jacp, jacr, point, body);
}

void gs_applyFT(const gsModel* m, const gsData* d, const gsReal force[3], const gsReal torque[3],
                const gsReal point[3], int body, gsReal* qfrc) {
  gsReal off[3];
  gs_sub3(off, point, d->subtree_com + 3 * m->body_rootid[body]);
  for (int j = gs_bodyLastDof(m, body); j >= 0; j = m->dof_parentid[j]) {
    const gsReal* s = d->cdof + 6 * j;
    gsReal lin[3];
    point_velocity(lin, s, off);
    qfrc[j] += gs_dot3(lin, force) + gs_dot3(s, torque);
  }
}
