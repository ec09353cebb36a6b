/* Forward kinematics: body, joint, geom and site frames from qpos. */
#include <math.h>

#include "core/arena.h"
#include "core/math.h"
#include "gauss/gauss.h"
#include "core/pair.h"
#include "dynamics/dynamics.h"

/* frame (pos, mat) of an object attached to body b at local (lpos, lquat): copied from the body's
 * or its inertial frame where the compiler found them the same (sameframe), else the offset turned
 * by the body's matrix and the orientation composed by quaternions (MuJoCo's rounding, bit for bit) */
static void attach(const gsData* d, int b, int sameframe, gsReal xpos[3], gsReal xmat[9],
                   const gsReal lpos[3], const gsReal lquat[4]) {
  const gsReal* bpos = d->xpos + 3 * b;
  const gsReal* bmat = d->xmat + 9 * b;
  switch (sameframe) {
    case GS_SAMEFRAME_BODY:
      gs_copy3(xpos, bpos);
      gs_copy(xmat, bmat, 9);
      return;
    case GS_SAMEFRAME_INERTIA:
      gs_copy3(xpos, d->xipos + 3 * b);
      gs_copy(xmat, d->ximat + 9 * b, 9);
      return;
    case GS_SAMEFRAME_BODYROT:
      gs_copy(xmat, bmat, 9);
      break;
    case GS_SAMEFRAME_INERTIAROT:
      gs_copy(xmat, d->ximat + 9 * b, 9);
      break;
    default: {
      gsReal q[4];
      gs_mulQuat(q, d->xquat + 4 * b, lquat);  /* unit times unit: no renormalisation needed */
      gs_quat2Mat(xmat, q);
    }
  }
  gs_mulMatVec3(xpos, bmat, lpos);
  gs_add3(xpos, xpos, bpos);
}

#ifdef GS_PAIR
/* attach's general path (sameframe none) for objects i and i + 1 side by side (structure of
 * arrays: value k of both in one pair), each value the same operations in the same order */
static void attach_pair(const gsData* d, const int* bodyid, int i, gsReal* xpos, gsReal* xmat,
                        const gsReal* lpos, const gsReal* lquat) {
  int b0 = bodyid ? bodyid[i] : i + 1, b1 = bodyid ? bodyid[i + 1] : i + 2;
  const gsReal *a0 = d->xquat + 4 * b0, *a1 = d->xquat + 4 * b1;
  const gsReal *c0 = lquat + 4 * i, *c1 = c0 + 4;
  gs_pair a[4], c[4], q[4], R[9], p[3], v[3], o[3];
  for (int k = 0; k < 4; k++) {
    a[k] = (gs_pair){a0[k], a1[k]};
    c[k] = (gs_pair){c0[k], c1[k]};
  }
  /* gs_mulQuat */
  q[0] = a[0] * c[0] - a[1] * c[1] - a[2] * c[2] - a[3] * c[3];
  q[1] = a[0] * c[1] + a[1] * c[0] + a[2] * c[3] - a[3] * c[2];
  q[2] = a[0] * c[2] - a[1] * c[3] + a[2] * c[0] + a[3] * c[1];
  q[3] = a[0] * c[3] + a[1] * c[2] - a[2] * c[1] + a[3] * c[0];
  /* gs_quat2Mat */
  gs_pair ww = q[0] * q[0], xx = q[1] * q[1], yy = q[2] * q[2], zz = q[3] * q[3];
  gs_pair wx = q[0] * q[1], wy = q[0] * q[2], wz = q[0] * q[3];
  gs_pair xy = q[1] * q[2], xz = q[1] * q[3], yz = q[2] * q[3], two = {2, 2};
  R[0] = ww + xx - yy - zz; R[1] = two * (xy - wz);      R[2] = two * (xz + wy);
  R[3] = two * (xy + wz);     R[4] = ww - xx + yy - zz; R[5] = two * (yz - wx);
  R[6] = two * (xz - wy);     R[7] = two * (yz + wx);      R[8] = ww - xx - yy + zz;
  /* gs_mulMatVec3 with the body's matrix, then the body's position */
  const gsReal *m0 = d->xmat + 9 * b0, *m1 = d->xmat + 9 * b1;
  const gsReal *p0 = d->xpos + 3 * b0, *p1 = d->xpos + 3 * b1;
  const gsReal *l0 = lpos + 3 * i, *l1 = l0 + 3;
  for (int k = 0; k < 3; k++) {
    v[k] = (gs_pair){l0[k], l1[k]};
    p[k] = (gs_pair){p0[k], p1[k]};
  }
  for (int k = 0; k < 3; k++) {
    gs_pair r0 = {m0[3 * k], m1[3 * k]}, r1 = {m0[3 * k + 1], m1[3 * k + 1]};
    gs_pair r2 = {m0[3 * k + 2], m1[3 * k + 2]};
    o[k] = r0 * v[0] + r1 * v[1] + r2 * v[2];
    o[k] = o[k] + p[k];
  }
  gsReal *x0 = xpos + 3 * i, *x1 = x0 + 3, *R0 = xmat + 9 * i, *R1 = R0 + 9;
  for (int k = 0; k < 3; k++) {
    x0[k] = o[k][0];
    x1[k] = o[k][1];
  }
  for (int k = 0; k < 9; k++) {
    R0[k] = R[k][0];
    R1[k] = R[k][1];
  }
}
#endif

/* the frames of n objects (geoms, sites, or with bodyid NULL the inertial frames of bodies 1 ..
 * n) attached to bodies; two at a time where both take attach's general path */
static void attach_all(const gsData* d, int n, const int* bodyid, const int* sameframe,
                       gsReal* xpos, gsReal* xmat, const gsReal* lpos, const gsReal* lquat) {
  for (int i = 0; i < n;) {
#ifdef GS_PAIR
    if (i + 1 < n && sameframe[i] == GS_SAMEFRAME_NONE && sameframe[i + 1] == GS_SAMEFRAME_NONE) {
      attach_pair(d, bodyid, i, xpos, xmat, lpos, lquat);
      i += 2;
      continue;
    }
#endif
    attach(d, bodyid ? bodyid[i] : i + 1, sameframe[i], xpos + 3 * i, xmat + 9 * i, lpos + 3 * i,
           lquat + 4 * i);
    i++;
  }
}

void gs_geomFrames(const gsModel* m, gsData* d) {
  d->deferred &= ~GS_DEFER_GEOM;
  attach_all(d, m->ngeom, m->geom_bodyid, m->geom_sameframe, d->geom_xpos, d->geom_xmat,
             m->geom_pos, m->geom_quat);
}

void gs_kinematics(const gsModel* m, gsData* d) { gs_kinematicsPart(m, d, 1); }

void gs_kinematicsPart(const gsModel* m, gsData* d, int geoms) {
  /* the world */
  gs_zero3(d->xpos);
  gs_unitQuat(d->xquat);
  gs_quat2Mat(d->xmat, d->xquat);
  gs_zero3(d->xipos);
  gs_quat2Mat(d->ximat, d->xquat);

  /* every hinge's half-angle sine and cosine first (gs_axisAngle2Quat's): called between the
   * bodies' products the library's sincos takes about 1.35 times a step's average time per
   * instruction (each call waits on its own chain), called back to back about 1.0-1.3, as the
   * calls overlap (bench/time_vs_instructions.py). The same calls on the same angles: the same
   * values. */
  size_t mark = gs_arenaMark(d), bytes = sizeof(gsReal) * 2 * (size_t)m->njnt;
  /* from the arena where it has room (capacity.c reserves it), else each at its turn as before */
  gsReal* sc = m->njnt && bytes <= gs_stackRoom(d) ? gs_arenaAlloc(d, bytes) : NULL;
  for (int j = 0; sc && j < m->njnt; j++) {
    if (m->jnt_type[j] != GS_JNT_HINGE) continue;
    int a = m->jnt_qposadr[j];
    gsReal half = 0.5 * (d->qpos[a] - m->qpos0[a]);
    sc[2 * j] = sin(half);
    sc[2 * j + 1] = cos(half);
  }

  for (int b = 1; b < m->nbody; b++) {
    int p = m->body_parentid[b];
    gsReal* xpos = d->xpos + 3 * b;
    gsReal* xquat = d->xquat + 4 * b;
    int jadr = m->body_jntadr[b], jnum = m->body_jntnum[b];

    if (m->body_mocapid[b] >= 0) {
      /* mocap body: a child of the world without joints, placed by the data */
      int id = m->body_mocapid[b];
      gs_copy3(xpos, d->mocap_pos + 3 * id);
      gs_copy4(xquat, d->mocap_quat + 4 * id);
      gs_normalize4(xquat);
    } else if (jnum == 1 && m->jnt_type[jadr] == GS_JNT_FREE) {
      /* free body: qpos holds the world frame directly */
      const gsReal* q = d->qpos + m->jnt_qposadr[jadr];
      gs_copy3(xpos, q);
      gs_copy4(xquat, q + 3);
      gs_normalize4(xquat);
      gs_copy3(d->xanchor + 3 * jadr, xpos);
      gsReal z[3] = {0, 0, 1};
      gs_copy3(d->xaxis + 3 * jadr, z);
    } else {
      /* frame in the parent (its offset turned by the parent's matrix), then each joint in order;
       * the frame is built in locals (registers: the chain of products along the joints does not
       * go through memory, which the data's other arrays might alias) and stored once */
      gsReal pos[3], quat[4];
      gs_mulMatVec3(pos, d->xmat + 9 * p, m->body_pos + 3 * b);
      gs_add3(pos, pos, d->xpos + 3 * p);
      /* most bodies keep their parent's orientation (a unit quaternion): the product would
       * return the parent's quaternion itself */
      const gsReal* bq = m->body_quat + 4 * b;
      if (bq[0] == 1 && gs_allZero(bq + 1, 3)) gs_copy4(quat, d->xquat + 4 * p);
      else gs_mulQuat(quat, d->xquat + 4 * p, bq);
      for (int j = jadr; j < jadr + jnum; j++) {
        const gsReal* q = d->qpos + m->jnt_qposadr[j];
        const gsReal* q0 = m->qpos0 + m->jnt_qposadr[j];
        gsReal* anchor = d->xanchor + 3 * j;
        gsReal* axis = d->xaxis + 3 * j;
        /* most joints sit at their body's origin: the turned offset is then zero, the anchor is
         * the body's position and a rotation leaves the position where it is (the same values
         * as the general path, which adds and subtracts zeros) */
        const gsReal* jpos = m->jnt_pos + 3 * j;
        int centred = gs_allZero(jpos, 3);
        if (centred) {
          gs_copy3(anchor, pos);
        } else {
          gs_rotVecQuat(anchor, jpos, quat);
          gs_add3(anchor, anchor, pos);
        }
        gs_rotVecQuat(axis, m->jnt_axis + 3 * j, quat);
        gsReal rot[4];
        switch (m->jnt_type[j]) {
          case GS_JNT_SLIDE:
            gs_addScl3(pos, pos, axis, q[0] - q0[0]);
            continue;
          case GS_JNT_HINGE:
            if (sc) gs_axisSinCos2Quat(rot, m->jnt_axis + 3 * j, sc[2 * j], sc[2 * j + 1]);
            else gs_axisAngle2Quat(rot, m->jnt_axis + 3 * j, q[0] - q0[0]);
            break;
          case GS_JNT_BALL:
            gs_copy4(rot, q);
            gs_normalize4(rot);
            break;
          default:
            continue;  /* a free joint among others is rejected by the compiler */
        }
        /* rotate about the anchor: the anchor stays where it is */
        gs_mulQuat(quat, quat, rot);
        if (!centred) {
          gsReal off[3];
          gs_rotVecQuat(off, jpos, quat);
          gs_sub3(pos, anchor, off);
        }
      }
      gs_normalize4(quat);
      gs_copy3(xpos, pos);
      gs_copy4(xquat, quat);
    }
    gs_quat2Mat(d->xmat + 9 * b, xquat);
  }
  gs_arenaRelease(d, mark);
  /* the inertial frames, once every body is placed (no body's frame reads one): two at a time */
  attach_all(d, m->nbody - 1, NULL, m->body_sameframe + 1, d->xipos + 3, d->ximat + 9,
             m->body_ipos + 3, m->body_iquat + 4);

  if (geoms) gs_geomFrames(m, d);
  else d->deferred |= GS_DEFER_GEOM;
  attach_all(d, m->nsite, m->site_bodyid, m->site_sameframe, d->site_xpos, d->site_xmat,
             m->site_pos, m->site_quat);
}
