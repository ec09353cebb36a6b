/* Quantities after the constraint solver that only sensors and users read: the bodies'
 * accelerations and the forces between bodies and from outside (gs_rnePostConstraint), and the
 * subtrees' linear velocity and angular momentum (gs_subtreeVel). Spatial vectors are in the
 * com-based frame of the other stages: [angular; linear], about the subtree com of each body's
 * kinematic tree. */
#include "core/arena.h"
#include "core/math.h"
#include "core/pair.h"
#include "dynamics/dynamics.h"
#include "gauss/gauss.h"

/* add (or, with sign -1, subtract) the force f and torque t acting at point p to the com-based
 * force of body b: the torque about the tree's com picks up (p - c) x f */
static void add_wrench(const gsModel* m, gsData* d, int b, const gsReal f[3], const gsReal t[3],
                       const gsReal p[3], gsReal sign) {
  gsReal r[3], rxf[3];
  gsReal* dst = d->cfrc_ext + 6 * b;
  gs_sub3(r, p, d->subtree_com + 3 * m->body_rootid[b]);
  gs_cross(rxf, r, f);
  for (int k = 0; k < 3; k++) {
    dst[k] += sign * (t[k] + rxf[k]);
    dst[3 + k] += sign * f[k];
  }
}

/* the anchor points of connect and weld constraint i on its two bodies, as the rows use them */
static void eq_anchors(const gsModel* m, const gsData* d, int i, int* b1, int* b2, gsReal p1[3],
                       gsReal p2[3]) {
  const gsReal* data = m->eq_data + GS_NEQDATA * i;
  int o1 = m->eq_obj1id[i], o2 = m->eq_obj2id[i];
  if (m->eq_objtype[i] == GS_OBJ_SITE) {
    *b1 = m->site_bodyid[o1];
    *b2 = m->site_bodyid[o2];
    gs_copy3(p1, d->site_xpos + 3 * o1);
    gs_copy3(p2, d->site_xpos + 3 * o2);
    return;
  }
  *b1 = o1;
  *b2 = o2;
  /* connect: anchor in body1's frame, then body2's; weld: anchor in body2's frame, then the
   * relative position, which puts body1's point on the same anchor */
  int weld = m->eq_type[i] == GS_EQ_WELD;
  gsReal t[3];
  gs_mulMatVec3(t, d->xmat + 9 * o1, data + (weld ? 3 : 0));
  gs_add3(p1, t, d->xpos + 3 * o1);
  gs_mulMatVec3(t, d->xmat + 9 * o2, data + (weld ? 0 : 3));
  gs_add3(p2, t, d->xpos + 3 * o2);
}

/* cfrc_ext: applied Cartesian forces, contact forces and the forces of connect and weld
 * constraints, each on the bodies it acts on */
static void external_forces(const gsModel* m, gsData* d) {
  gs_zero(d->cfrc_ext, 6 * m->nbody);
  for (int b = 1; b < m->nbody; b++) {
    const gsReal* x = d->xfrc_applied + 6 * b;
    if (x[0] || x[1] || x[2] || x[3] || x[4] || x[5]) add_wrench(m, d, b, x, x + 3, d->xipos + 3 * b, 1);
  }
  for (int i = 0; i < d->ncon; i++) {
    const gsContact* c = d->contact + i;
    if (c->efc_address < 0) continue;
    gsReal local[6], f[3], t[3];
    gs_contactForce(m, d, i, local);
    /* the frame's rows are the normal and the tangents: world = frame^T local */
    gs_mulMatTVec3(f, c->frame, local);
    gs_mulMatTVec3(t, c->frame, local + 3);
    /* the force acts on geom2's body, its reaction on geom1's; the world takes none */
    int b1 = m->geom_bodyid[c->geom1], b2 = m->geom_bodyid[c->geom2];
    if (b1) add_wrench(m, d, b1, f, t, c->pos, -1);
    if (b2) add_wrench(m, d, b2, f, t, c->pos, 1);
  }
  for (int r = 0; r < d->ne;) {
    int i = d->efc_id[r], type = m->eq_type[i];
    if (d->efc_type[r] != GS_CNSTR_EQUALITY || (type != GS_EQ_CONNECT && type != GS_EQ_WELD)) {
      r++;
      continue;
    }
    /* the rows are world-frame position differences p1 - p2 (and, for a weld, the orientation
     * error): their force pushes body1 at p1 and pulls body2 at p2, and a weld's three orientation
     * forces count as a torque as they are (as MJCF counts them: torquescale, which scales the
     * rows, is not applied again) */
    int nrow = type == GS_EQ_WELD ? 6 : 3;
    if (r + nrow > d->ne) break;  /* rows cut short by a full arena */
    gsReal f[3], t[3] = {0, 0, 0}, p1[3], p2[3];
    int b1, b2;
    gs_copy3(f, d->efc_force + r);
    if (type == GS_EQ_WELD) gs_copy3(t, d->efc_force + r + 3);
    eq_anchors(m, d, i, &b1, &b2, p1, p2);
    if (b1) add_wrench(m, d, b1, f, t, p1, 1);
    if (b2) add_wrench(m, d, b2, f, t, p2, -1);
    r += nrow;
  }
}

void gs_rnePostConstraint(const gsModel* m, gsData* d) {
  int nb = m->nbody;
  /* the world accelerates upwards against gravity: every acceleration then includes it, which is
   * what an accelerometer reads */
  gs_zero(d->cacc, 6);
  if (!(m->opt.disableflags & GS_DSBL_GRAVITY)) gs_scl3(d->cacc + 3, m->opt.gravity, -1);
  gs_zero(d->cfrc_int, 6);
  external_forces(m, d);
  /* forward: cacc = cacc(parent) + cdof_dot qvel + cdof qacc; the force the parent exerts is
   * I cacc + cvel x* (I cvel) - cfrc_ext */
  for (int b = 1; b < nb; b++) {
    gsReal* a = d->cacc + 6 * b;
    gs_copy(a, d->cacc + 6 * m->body_parentid[b], 6);
    /* two values at a time, each the same operation */
    for (int k = m->body_dofadr[b], e = k + m->body_dofnum[b]; k < e; k++) {
      gs_addScaledPair(a, d->cdof_dot + 6 * k, d->qvel[k], 6);
      gs_addScaledPair(a, d->cdof + 6 * k, d->qacc[k], 6);
    }
  }
  gs_bodyForces(m, d->cinert, d->cacc, d->cvel, d->cfrc_ext, d->cfrc_int);
  /* backward: each body also carries what its children need */
  for (int b = nb - 1; b > 0; b--)
    gs_addScl(d->cfrc_int + 6 * m->body_parentid[b], d->cfrc_int + 6 * b, 1, 6);
}

/* velocity of body b's com, from its com-based spatial velocity (inlined: its three values then
 * stay in registers, where a call stored them one by one and the caller's products loaded them
 * two at a time, which waits for the stores to reach the cache) */
static inline __attribute__((always_inline)) void com_velocity(const gsModel* m, const gsData* d, int b, gsReal v[3]) {
  const gsReal* cv = d->cvel + 6 * b;
  gsReal r[3], wxr[3];
  gs_sub3(r, d->xipos + 3 * b, d->subtree_com + 3 * m->body_rootid[b]);
  gs_cross(wxr, cv, r);
  gs_add3(v, cv + 3, wxr);
}

/* body b alone: its com's velocity v (into vel), momentum m v, and angular momentum about its com,
 * R diag(inertia) R^T w with R the principal axes */
static inline void body_momenta(const gsModel* m, gsData* d, int b, gsReal* vel) {
  gsReal wl[3];
  com_velocity(m, d, b, vel);
  gs_scl3(d->subtree_linvel + 3 * b, vel, m->body_mass[b]);
  gs_mulMatTVec3(wl, d->ximat + 9 * b, d->cvel + 6 * b);
  for (int k = 0; k < 3; k++) wl[k] *= m->body_inertia[3 * b + k];
  gs_mulMatVec3(d->subtree_angmom + 3 * b, d->ximat + 9 * b, wl);
}

#ifdef GS_PAIR
/* body_momenta of bodies b and b + 1 side by side (lane k: body b + k), each value the scalar
 * path's operations in its order */
static inline void body_momenta_pair(const gsModel* m, gsData* d, int b, gsReal* vel) {
  const gsReal *c0 = d->cvel + 6 * b, *c1 = c0 + 6;
  const gsReal *p0 = d->xipos + 3 * b, *p1 = p0 + 3;
  const gsReal *s0 = d->subtree_com + 3 * m->body_rootid[b];
  const gsReal *s1 = d->subtree_com + 3 * m->body_rootid[b + 1];
  const gsReal *R0 = d->ximat + 9 * b, *R1 = R0 + 9;
  gs_pair w[3], r[3], v[3], wl[3], R[9];
  for (int k = 0; k < 3; k++) {
    w[k] = (gs_pair){c0[k], c1[k]};
    r[k] = (gs_pair){p0[k], p1[k]} - (gs_pair){s0[k], s1[k]};
  }
  for (int k = 0; k < 9; k++) R[k] = (gs_pair){R0[k], R1[k]};
  /* com_velocity: lin + w x r */
  v[0] = (gs_pair){c0[3], c1[3]} + (w[1] * r[2] - w[2] * r[1]);
  v[1] = (gs_pair){c0[4], c1[4]} + (w[2] * r[0] - w[0] * r[2]);
  v[2] = (gs_pair){c0[5], c1[5]} + (w[0] * r[1] - w[1] * r[0]);
  gs_pair mass = {m->body_mass[b], m->body_mass[b + 1]};
  /* R^T w, scaled by the principal inertia, then R of it */
  for (int k = 0; k < 3; k++)
    wl[k] = (R[k] * w[0] + R[3 + k] * w[1] + R[6 + k] * w[2]) *
            (gs_pair){m->body_inertia[3 * b + k], m->body_inertia[3 * b + 3 + k]};
  gsReal *v0 = vel, *v1 = vel + 3, *l0 = d->subtree_linvel + 3 * b, *l1 = l0 + 3;
  gsReal *a0 = d->subtree_angmom + 3 * b, *a1 = a0 + 3;
  for (int k = 0; k < 3; k++) {
    gs_pair lin = v[k] * mass;
    gs_pair ang = R[3 * k] * wl[0] + R[3 * k + 1] * wl[1] + R[3 * k + 2] * wl[2];
    v0[k] = v[k][0], v1[k] = v[k][1];
    l0[k] = lin[0], l1[k] = lin[1];
    a0[k] = ang[0], a1[k] = ang[1];
  }
}
#endif

void gs_subtreeVel(const gsModel* m, gsData* d) {
  int nb = m->nbody;
  /* each body's com velocity, kept for the angular pass (recomputed there when the arena has no
   * room: the same values) */
  size_t mark = gs_arenaMark(d), bytes = sizeof(gsReal) * 3 * (size_t)nb;
  gsReal* vel = bytes <= gs_stackRoom(d) ? gs_arenaAlloc(d, bytes) : NULL;
  gsReal one[3];
  int b = 0;
#ifdef GS_PAIR
  if (vel)
    for (; b + 1 < nb; b += 2) body_momenta_pair(m, d, b, vel + 3 * b);
#endif
  for (; b < nb; b++) body_momenta(m, d, b, vel ? vel + 3 * b : one);
  /* linear: the subtree's momentum over its mass */
  for (int b = nb - 1; b > 0; b--)
    gs_addScl(d->subtree_linvel + 3 * m->body_parentid[b], d->subtree_linvel + 3 * b, 1, 3);
  for (int b = 0; b < nb; b++) {
    gsReal mass = m->body_subtreemass[b];
    if (mass > GS_MINVAL) gs_scl3(d->subtree_linvel + 3 * b, d->subtree_linvel + 3 * b, 1 / mass);
  }
  /* angular, about each subtree's com: a body's own part plus its com's motion relative to its
   * subtree's; a child's subtree then moves it to the parent's subtree com (children come after
   * their parent, so a body is complete when its turn comes) */
  for (int b = nb - 1; b > 0; b--) {
    int p = m->body_parentid[b];
    gsReal dx[3], dv[3], dl[3];
    const gsReal* v = vel ? vel + 3 * b : one;
    if (!vel) com_velocity(m, d, b, one);
    gs_sub3(dx, d->xipos + 3 * b, d->subtree_com + 3 * b);
    gs_sub3(dv, v, d->subtree_linvel + 3 * b);
    gs_cross(dl, dx, dv);
    gs_addScl(d->subtree_angmom + 3 * b, dl, m->body_mass[b], 3);
    gs_addScl(d->subtree_angmom + 3 * p, d->subtree_angmom + 3 * b, 1, 3);
    gs_sub3(dx, d->subtree_com + 3 * b, d->subtree_com + 3 * p);
    gs_sub3(dv, d->subtree_linvel + 3 * b, d->subtree_linvel + 3 * p);
    gs_cross(dl, dx, dv);
    gs_addScl(d->subtree_angmom + 3 * p, dl, m->body_subtreemass[b], 3);
  }
  gs_arenaRelease(d, mark);
}
