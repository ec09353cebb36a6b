/* Forward kinematics: body, joint, geom and site frames from qpos. */
#include "core/math.h"
#include "gauss/gauss.h"

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

void gs_kinematics(const gsModel* m, gsData* d) {
  /* the world */
  gs_zero3(d->xpos);
  gs_unitQuat(d->xquat);
  gs_quat2Mat(d->xmat, d->xquat);
  gs_zero3(d->xipos);
  gs_quat2Mat(d->ximat, d->xquat);

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
      /* frame in the parent (its offset turned by the parent's matrix), then each joint in order */
      gs_mulMatVec3(xpos, d->xmat + 9 * p, m->body_pos + 3 * b);
      gs_add3(xpos, xpos, d->xpos + 3 * p);
      /* most bodies keep their parent's orientation (a unit quaternion): the product would
       * return the parent's quaternion itself */
      const gsReal* bq = m->body_quat + 4 * b;
      if (bq[0] == 1 && bq[1] == 0 && bq[2] == 0 && bq[3] == 0) gs_copy4(xquat, d->xquat + 4 * p);
      else gs_mulQuat(xquat, d->xquat + 4 * p, bq);
      for (int j = jadr; j < jadr + jnum; j++) {
        const gsReal* q = d->qpos + m->jnt_qposadr[j];
        const gsReal* q0 = m->qpos0 + m->jnt_qposadr[j];
        gsReal* anchor = d->xanchor + 3 * j;
        gsReal* axis = d->xaxis + 3 * j;
        /* most joints sit at their body's origin: the turned offset is then zero, the anchor is
         * the body's position and a rotation leaves the position where it is (the same values
         * as the general path, which adds and subtracts zeros) */
        const gsReal* jpos = m->jnt_pos + 3 * j;
        int centred = jpos[0] == 0 && jpos[1] == 0 && jpos[2] == 0;
        if (centred) {
          gs_copy3(anchor, xpos);
        } else {
          gs_rotVecQuat(anchor, jpos, xquat);
          gs_add3(anchor, anchor, xpos);
        }
        gs_rotVecQuat(axis, m->jnt_axis + 3 * j, xquat);
        gsReal rot[4];
        switch (m->jnt_type[j]) {
          case GS_JNT_SLIDE:
            gs_addScl3(xpos, xpos, axis, q[0] - q0[0]);
            continue;
          case GS_JNT_HINGE:
            gs_axisAngle2Quat(rot, m->jnt_axis + 3 * j, q[0] - q0[0]);
            break;
          case GS_JNT_BALL:
            gs_copy4(rot, q);
            gs_normalize4(rot);
            break;
          default:
            continue;  /* a free joint among others is rejected by the compiler */
        }
        /* rotate about the anchor: the anchor stays where it is */
        gs_mulQuat(xquat, xquat, rot);
        if (!centred) {
          gsReal off[3];
          gs_rotVecQuat(off, jpos, xquat);
          gs_sub3(xpos, anchor, off);
        }
      }
      gs_normalize4(xquat);
    }
    gs_quat2Mat(d->xmat + 9 * b, xquat);
    attach(d, b, m->body_sameframe[b], d->xipos + 3 * b, d->ximat + 9 * b, m->body_ipos + 3 * b,
           m->body_iquat + 4 * b);
  }

  for (int g = 0; g < m->ngeom; g++)
    attach(d, m->geom_bodyid[g], m->geom_sameframe[g], d->geom_xpos + 3 * g, d->geom_xmat + 9 * g,
           m->geom_pos + 3 * g, m->geom_quat + 4 * g);
  for (int s = 0; s < m->nsite; s++)
    attach(d, m->site_bodyid[s], m->site_sameframe[s], d->site_xpos + 3 * s, d->site_xmat + 9 * s,
           m->site_pos + 3 * s, m->site_quat + 4 * s);
}
