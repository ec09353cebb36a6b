/* The velocity-product force of tendon armature. A tendon with armature a adds the kinetic energy
 * a/2 (J qvel)^2; its Lagrange equations give a J^T J qacc (in M, gs_crb) plus a J^T (dJ/dt qvel),
 * which joins the bias force. dJ/dt qvel is the tendon's acceleration at qacc = 0: zero for a fixed
 * tendon; for a straight segment of length L, direction u, between points with relative velocity
 * w and relative acceleration (at qacc = 0) c, it is (|w|^2 - (u.w)^2) / L + u.c, divided by the
 * pulley divisor of its branch. Paths that wrap around geoms cannot carry armature (compiler). */
#include <string.h>

#include "core/arena.h"
#include "core/math.h"
#include "dynamics/dynamics.h"

/* velocity and acceleration at qacc = 0 of the point p fixed to body b; acc_b: the body's spatial
 * acceleration at qacc = 0, in the com frame as cvel */
static void point_motion(const gsModel* m, const gsData* d, const gsReal* acc_b, int b,
                         const gsReal p[3], gsReal vel[3], gsReal acc[3]) {
  const gsReal* v = d->cvel + 6 * b;
  gsReal off[3], t[3];
  gs_sub3(off, p, d->subtree_com + 3 * m->body_rootid[b]);
  gs_cross(t, v, off);
  gs_add3(vel, v + 3, t);
  /* classical acceleration of a body point: a_lin + alpha x off + omega x vel */
  gs_cross(t, acc_b, off);
  gs_add3(acc, acc_b + 3, t);
  gs_cross(t, v, vel);
  gs_add3(acc, acc, t);
}

/* d^2 L / dt^2 at qacc = 0 of the straight segment between sites s0 and s1 */
static gsReal segment_bias(const gsModel* m, const gsData* d, const gsReal* bacc, int s0, int s1) {
  const gsReal* x0 = d->site_xpos + 3 * s0;
  const gsReal* x1 = d->site_xpos + 3 * s1;
  int b0 = m->site_bodyid[s0], b1 = m->site_bodyid[s1];
  gsReal u[3], v0[3], v1[3], a0[3], a1[3], w[3], c[3];
  gs_sub3(u, x1, x0);
  gsReal L = gs_normalize3(u);
  if (L < GS_MINVAL) return 0;
  point_motion(m, d, bacc + 6 * b0, b0, x0, v0, a0);
  point_motion(m, d, bacc + 6 * b1, b1, x1, v1, a1);
  gs_sub3(w, v1, v0);
  gs_sub3(c, a1, a0);
  gsReal uw = gs_dot3(u, w);
  return (gs_dot3(w, w) - uw * uw) / L + gs_dot3(u, c);
}

void gs_tendonArmatureBias(const gsModel* m, gsData* d, gsReal* qfrc) {
  int any = 0;
  for (int t = 0; t < m->ntendon && !any; t++)
    any = m->tendon_armature[t] != 0 && m->tendon_num[t] > 0 &&
          m->wrap_type[m->tendon_adr[t]] != GS_WRAP_JOINT;
  if (!any) return;
  size_t mark = gs_arenaMark(d);
  gsReal* bacc = gs_arenaAlloc(d, sizeof(gsReal) * 6 * (size_t)m->nbody);
  if (!bacc) {
    gs_arenaRelease(d, mark);
    return;
  }
  /* each body's spatial acceleration at qacc = 0 (no gravity): sum of cdof_dot qvel up its chain */
  memset(bacc, 0, sizeof(gsReal) * 6);
  for (int b = 1; b < m->nbody; b++) {
    gsReal* a = bacc + 6 * b;
    memcpy(a, bacc + 6 * m->body_parentid[b], sizeof(gsReal) * 6);
    for (int j = m->body_dofadr[b]; j < m->body_dofadr[b] + m->body_dofnum[b]; j++)
      for (int k = 0; k < 6; k++) a[k] += d->cdof_dot[6 * j + k] * d->qvel[j];
  }
  for (int t = 0; t < m->ntendon; t++) {
    gsReal arm = m->tendon_armature[t];
    int adr = m->tendon_adr[t], end = adr + m->tendon_num[t];
    if (arm == 0 || adr == end || m->wrap_type[adr] == GS_WRAP_JOINT) continue;
    gsReal divisor = 1, jdot_v = 0;
    for (int k = adr; k + 1 < end; k++) {
      if (m->wrap_type[k] == GS_WRAP_PULLEY) divisor = m->wrap_prm[k];
      if (m->wrap_type[k] == GS_WRAP_SITE && m->wrap_type[k + 1] == GS_WRAP_SITE)
        jdot_v += segment_bias(m, d, bacc, m->wrap_objid[k], m->wrap_objid[k + 1]) / divisor;
    }
    const gsReal* J = d->ten_J + (size_t)t * m->nv;
    gsReal f = arm * jdot_v;
    for (int i = 0; i < m->nv; i++) qfrc[i] += J[i] * f;
  }
  gs_arenaRelease(d, mark);
}
