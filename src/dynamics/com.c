/* Com-based quantities. Every tree has its own reference point, the centre of mass of its root
 * subtree; spatial vectors of a tree's bodies and dofs are expressed there, in world orientation
 * (seed 002 §2.3). */
#include <string.h>

#include "core/math.h"
#include "gauss/gauss.h"
#include "core/pair.h"

/* R diag(J) R^T, then the parallel-axis shift m(|c|^2 1 - c c^T), c the body's centre of mass
 * from its tree's reference point; m c and m last. A macro over the element type (T: gsReal or a
 * core/pair.h pair) so that two bodies at a time take the same sums in the same order. */
#define BODY_INERTIA(T, I, R, J, c, mass)                                                   \
  do {                                                                                      \
    T full_[9];                                                                             \
    for (int i_ = 0; i_ < 3; i_++)                                                          \
      for (int j_ = i_; j_ < 3; j_++)                                                       \
        full_[3 * i_ + j_] = R[3 * i_] * J[0] * R[3 * j_] +                                 \
                             R[3 * i_ + 1] * J[1] * R[3 * j_ + 1] +                         \
                             R[3 * i_ + 2] * J[2] * R[3 * j_ + 2];                          \
    T cc_ = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];                                        \
    I[0] = full_[0] + mass * (cc_ - c[0] * c[0]);                                           \
    I[1] = full_[4] + mass * (cc_ - c[1] * c[1]);                                           \
    I[2] = full_[8] + mass * (cc_ - c[2] * c[2]);                                           \
    I[3] = full_[1] - mass * c[0] * c[1];                                                   \
    I[4] = full_[2] - mass * c[0] * c[2];                                                   \
    I[5] = full_[5] - mass * c[1] * c[2];                                                   \
    for (int k_ = 0; k_ < 3; k_++) I[6 + k_] = c[k_] * mass;                                \
    I[9] = mass;                                                                            \
  } while (0)

/* body b's cinert */
static void body_inertia(const gsModel* m, gsData* d, int b) {
  gsReal* I = d->cinert + 10 * b;
  const gsReal* R = d->ximat + 9 * b;
  const gsReal* J = m->body_inertia + 3 * b;
  gsReal mass = m->body_mass[b], c[3];
  gs_sub3(c, d->xipos + 3 * b, d->subtree_com + 3 * m->body_rootid[b]);
  BODY_INERTIA(gsReal, I, R, J, c, mass);
}

#ifdef GS_PAIR
/* body_inertia for bodies b and b + 1 side by side (structure of arrays: value k of both bodies
 * in one pair), each value the same operations in the same order */
static void body_inertia_pair(const gsModel* m, gsData* d, int b) {
  gs_pair R[9], J[3], c[3];
  const gsReal *R0 = d->ximat + 9 * b, *R1 = R0 + 9;
  const gsReal *J0 = m->body_inertia + 3 * b, *J1 = J0 + 3;
  const gsReal *x0 = d->xipos + 3 * b, *x1 = x0 + 3;
  const gsReal *c0 = d->subtree_com + 3 * m->body_rootid[b];
  const gsReal *c1 = d->subtree_com + 3 * m->body_rootid[b + 1];
  gs_pair mass = {m->body_mass[b], m->body_mass[b + 1]};
  for (int k = 0; k < 9; k++) R[k] = (gs_pair){R0[k], R1[k]};
  for (int k = 0; k < 3; k++) {
    J[k] = (gs_pair){J0[k], J1[k]};
    c[k] = (gs_pair){x0[k], x1[k]} - (gs_pair){c0[k], c1[k]};
  }
  gs_pair I[10];
  BODY_INERTIA(gs_pair, I, R, J, c, mass);
  gsReal *I0 = d->cinert + 10 * b, *I1 = I0 + 10;
  for (int k = 0; k < 10; k++) {
    I0[k] = I[k][0];
    I1[k] = I[k][1];
  }
}
#endif

/* subtree centres of mass, composite-ready inertias cinert, and motion subspaces cdof */
void gs_comPos(const gsModel* m, gsData* d) {
  /* subtree com: mass-weighted positions, summed leaves to root */
  for (int b = 0; b < m->nbody; b++) gs_scl3(d->subtree_com + 3 * b, d->xipos + 3 * b, m->body_mass[b]);
  for (int b = m->nbody - 1; b > 0; b--) {
    gsReal* parent = d->subtree_com + 3 * m->body_parentid[b];
    gs_add3(parent, parent, d->subtree_com + 3 * b);
  }
  for (int b = 0; b < m->nbody; b++) {
    gsReal mass = m->body_subtreemass[b];
    if (mass < GS_MINVAL) gs_copy3(d->subtree_com + 3 * b, d->xipos + 3 * b);
    else gs_scl3(d->subtree_com + 3 * b, d->subtree_com + 3 * b, 1 / mass);
  }

  /* body inertia about the tree's reference point, in world orientation: the bodies do not
   * depend on each other, two at a time */
  for (int i = 0; i < 10; i++) d->cinert[i] = 0;
  int b = 1;
#ifdef GS_PAIR
  for (; b + 2 <= m->nbody; b += 2) body_inertia_pair(m, d, b);
#endif
  for (; b < m->nbody; b++) body_inertia(m, d, b);

  /* motion subspaces: [axis; axis x (reference - anchor)] for rotations, [0; axis] for slides */
  for (int j = 0; j < m->njnt; j++) {
    int b = m->jnt_bodyid[j];
    gsReal* cdof = d->cdof + 6 * m->jnt_dofadr[j];
    const gsReal* R = d->xmat + 9 * b;
    gsReal off[3];
    gs_sub3(off, d->subtree_com + 3 * m->body_rootid[b], d->xanchor + 3 * j);
    switch (m->jnt_type[j]) {
      case GS_JNT_FREE:
        /* translation along the world axes, then rotation about the body's own axes */
        for (int k = 0; k < 3; k++) {
          gsReal* s = cdof + 6 * k;
          s[0] = s[1] = s[2] = 0;
          s[3] = k == 0; s[4] = k == 1; s[5] = k == 2;
        }
        cdof += 18;
        /* fall through */
      case GS_JNT_BALL:
        for (int k = 0; k < 3; k++) {
          gsReal* s = cdof + 6 * k;
          s[0] = R[k]; s[1] = R[3 + k]; s[2] = R[6 + k];
          gs_cross(s + 3, s, off);
        }
        break;
      case GS_JNT_SLIDE:
        cdof[0] = cdof[1] = cdof[2] = 0;
        gs_copy3(cdof + 3, d->xaxis + 3 * j);
        break;
      case GS_JNT_HINGE:
        gs_copy3(cdof, d->xaxis + 3 * j);
        gs_cross(cdof + 3, cdof, off);
        break;
    }
  }
}

/* body b's velocity cvel from its parent's (pv) and its dofs' velocities, and the time
 * derivatives cdof_dot of its dofs' motion subspaces */
static inline void com_vel_body(const gsModel* m, const gsReal* qvel, gsReal* cvel,
                                gsReal* cdof_dot, const gsReal* cdof, const gsReal* pv, int b) {
#ifdef GS_PAIR
  /* the body's velocity held in three pairs (registers) from its parent's to its own: the
   * updates are gs_addScaledPair's, two values at a time */
  gs_pair v01 = gs_pairLoad(pv), v23 = gs_pairLoad(pv + 2), v45 = gs_pairLoad(pv + 4);
  int jadr = m->body_jntadr[b];
  for (int j = jadr; j < jadr + m->body_jntnum[b]; j++) {
    int dof = m->jnt_dofadr[j], n;
    switch (m->jnt_type[j]) {
      case GS_JNT_FREE:
        /* world-fixed translation axes do not change */
        for (int k = 0; k < 18; k++) cdof_dot[6 * dof + k] = 0;
        v23[1] += qvel[dof];
        v45[0] += qvel[dof + 1];
        v45[1] += qvel[dof + 2];
        dof += 3;
        /* fall through */
      case GS_JNT_BALL:
        /* axes fixed in the body: d/dt S_k = v_body x S_k; summed over k this equals the
         * velocity before the joint crossed with each S_k (the joint's own part cancels) */
        n = 3;
        break;
      default:
        n = 1;
        break;
    }
    gsReal v[6] = {v01[0], v01[1], v23[0], v23[1], v45[0], v45[1]};
    for (int k = 0; k < n; k++) gs_crossMotion(cdof_dot + 6 * (dof + k), v, cdof + 6 * (dof + k));
    for (int k = 0; k < n; k++) {
      const gsReal* s = cdof + 6 * (dof + k);
      gs_pair q2 = {qvel[dof + k], qvel[dof + k]};
      v01 += gs_pairLoad(s) * q2;
      v23 += gs_pairLoad(s + 2) * q2;
      v45 += gs_pairLoad(s + 4) * q2;
    }
  }
  gsReal* out = cvel + 6 * b;
  memcpy(out, &v01, sizeof v01);
  memcpy(out + 2, &v23, sizeof v23);
  memcpy(out + 4, &v45, sizeof v45);
#else
  gsReal v[6];
  memcpy(v, pv, sizeof v);
  int jadr = m->body_jntadr[b];
  for (int j = jadr; j < jadr + m->body_jntnum[b]; j++) {
    int dof = m->jnt_dofadr[j], n = 1;
    if (m->jnt_type[j] == GS_JNT_FREE) {
      for (int k = 0; k < 18; k++) cdof_dot[6 * dof + k] = 0;
      for (int k = 0; k < 3; k++) v[3 + k] += qvel[dof + k];
      dof += 3;
      n = 3;
    } else if (m->jnt_type[j] == GS_JNT_BALL) {
      n = 3;
    }
    for (int k = 0; k < n; k++) gs_crossMotion(cdof_dot + 6 * (dof + k), v, cdof + 6 * (dof + k));
    for (int k = 0; k < n; k++) gs_addScaledPair(v, cdof + 6 * (dof + k), qvel[dof + k], 6);
  }
  memcpy(cvel + 6 * b, v, sizeof v);
#endif
}

/* body velocities cvel and the time derivatives cdof_dot of the motion subspaces, for any qvel */
void gs_comVelOf(const gsModel* m, const gsReal* qvel, gsReal* cvel, gsReal* cdof_dot,
                 const gsReal* cdof) {
  for (int i = 0; i < 6; i++) cvel[i] = 0;
  for (int b = 1; b < m->nbody; b++)
    com_vel_body(m, qvel, cvel, cdof_dot, cdof, cvel + 6 * m->body_parentid[b], b);
}

void gs_comVelBody(const gsModel* m, const gsReal* qvel, gsReal* cvel, gsReal* cdof_dot,
                   const gsReal* cdof, const gsReal* pv, int b) {
  com_vel_body(m, qvel, cvel, cdof_dot, cdof, pv, b);
}

void gs_comVel(const gsModel* m, gsData* d) { gs_comVelOf(m, d->qvel, d->cvel, d->cdof_dot, d->cdof); }
