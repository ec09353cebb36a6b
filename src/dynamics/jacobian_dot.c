/* The time derivative of a point's Jacobian, d/dt J(q(t)) along the current velocity, from the
 * body velocities cvel and the subspace derivatives cdof_dot of the velocity stage. */
#include "core/math.h"
#include "dynamics/dynamics.h"

/* Column j of jacp is S_lin + S_ang x (p - c) for the subspace S_j expressed at the root's com c;
 * holding c still (the column does not depend on it),
 *   d/dt = Sdot_lin + Sdot_ang x (p - c) + S_ang x pdot,
 * pdot the velocity of the point carried by the body (cvel_lin + cvel_ang x (p - c)).
 * cdof_dot of a ball's (or a free joint's rotational) dofs is the velocity before the joint
 * crossed with S: enough for RNE, where the joint's own part cancels in the sum over its dofs,
 * but each axis itself turns with the body's whole velocity, so here Sdot = cvel_body x S. */
void gs_jacDot(const gsModel* m, const gsData* d, gsReal* jacp, gsReal* jacr,
               const gsReal point[3], int body) {
  int nv = m->nv;
  if (jacp) gs_zero(jacp, 3 * nv);
  if (jacr) gs_zero(jacr, 3 * nv);
  if (body < 0 || body >= m->nbody) return;
  gsReal off[3], pvel[3];
  gs_sub3(off, point, d->subtree_com + 3 * m->body_rootid[body]);
  const gsReal* v = d->cvel + 6 * body;
  gs_cross(pvel, v, off);
  gs_add3(pvel, pvel, v + 3);
  for (int j = gs_bodyLastDof(m, body); j >= 0; j = m->dof_parentid[j]) {
    const gsReal* s = d->cdof + 6 * j;
    gsReal sdot[6];
    int t = m->jnt_type[m->dof_jntid[j]];
    int turning = t == GS_JNT_BALL || (t == GS_JNT_FREE && j >= m->jnt_dofadr[m->dof_jntid[j]] + 3);
    if (turning) gs_crossMotion(sdot, d->cvel + 6 * m->dof_bodyid[j], s);
    else for (int i = 0; i < 6; i++) sdot[i] = d->cdof_dot[6 * j + i];
    if (jacr)
      for (int i = 0; i < 3; i++) jacr[i * nv + j] = sdot[i];
    if (jacp) {
      gsReal a[3], b[3];
      gs_cross(a, sdot, off);
      gs_cross(b, s, pvel);
      for (int i = 0; i < 3; i++) jacp[i * nv + j] = sdot[3 + i] + a[i] + b[i];
    }
  }
}
