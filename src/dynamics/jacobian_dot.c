/* The time derivative of a point's Jacobian, d/dt J(q(t)) along the current velocity, from the
 * body velocities cvel and the subspace derivatives cdof_dot of the velocity stage. */
#include "core/math.h"
#include "dynamics/dynamics.h"

/* the derivative of a ball's (or a free joint's rotational) subspace S = [a; a x (c - anchor)]:
 * the axis a is a column of the body's frame and turns with the body's whole angular velocity,
 * the anchor moves with the body less the joints after this one in the body (MJCF computes it
 * before them): Sdot = [w x a; (w x a) x (c - anchor) - a x anchor_vel]. With no joint after it
 * this is cvel_body x S; cdof_dot holds the velocity before the joint crossed with S instead, which
 * RNE may use (the joint's own part cancels in the sum over its dofs) but a column alone may not. */
static void turning_dot(const gsModel* m, const gsData* d, int j, const gsReal c[3], gsReal sdot[6]) {
  int b = m->dof_bodyid[j], jnt = m->dof_jntid[j];
  const gsReal* s = d->cdof + 6 * j;
  gsReal v[6], r[3], pa[3];
  for (int i = 0; i < 6; i++) v[i] = d->cvel[6 * b + i];
  int last = m->body_dofadr[b] + m->body_dofnum[b];
  int after = m->jnt_dofadr[jnt] + (m->jnt_type[jnt] == GS_JNT_FREE ? 6 : 3);
  for (int k = after; k < last; k++)
    for (int i = 0; i < 6; i++) v[i] -= d->cdof[6 * k + i] * d->qvel[k];
  gs_cross(sdot, d->cvel + 6 * b, s);
  gs_sub3(r, d->xanchor + 3 * jnt, c);
  gs_cross(pa, v, r);
  gs_add3(pa, pa, v + 3);   /* the anchor's velocity */
  gs_sub3(r, c, d->xanchor + 3 * jnt);
  gsReal t1[3], t2[3];
  gs_cross(t1, sdot, r);
  gs_cross(t2, s, pa);
  gs_sub3(sdot + 3, t1, t2);
}

/* Column j of jacp is S_lin + S_ang x (p - c) for the subspace S_j expressed at the root's com c;
 * holding c still (the column does not depend on it),
 *   d/dt = Sdot_lin + Sdot_ang x (p - c) + S_ang x pdot,
 * pdot the velocity of the point carried by the body (cvel_lin + cvel_ang x (p - c)); Sdot is
 * cdof_dot, except for the turning axes of ball and free joints (turning_dot). */
void gs_jacDot(const gsModel* m, const gsData* d, gsReal* jacp, gsReal* jacr,
               const gsReal point[3], int body) {
  int nv = m->nv;
  if (jacp) gs_zero(jacp, 3 * nv);
  if (jacr) gs_zero(jacr, 3 * nv);
  if (body < 0 || body >= m->nbody) return;
  const gsReal* c = d->subtree_com + 3 * m->body_rootid[body];
  gsReal off[3], pvel[3];
  gs_sub3(off, point, c);
  const gsReal* v = d->cvel + 6 * body;
  gs_cross(pvel, v, off);
  gs_add3(pvel, pvel, v + 3);
  for (int j = gs_bodyLastDof(m, body); j >= 0; j = m->dof_parentid[j]) {
    const gsReal* s = d->cdof + 6 * j;
    gsReal sdot[6];
    int jnt = m->dof_jntid[j], t = m->jnt_type[jnt];
    if (t == GS_JNT_BALL || (t == GS_JNT_FREE && j >= m->jnt_dofadr[jnt] + 3))
      turning_dot(m, d, j, c, sdot);
    else
      for (int i = 0; i < 6; i++) sdot[i] = d->cdof_dot[6 * j + i];
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
