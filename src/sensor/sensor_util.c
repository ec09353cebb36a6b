/* What the sensors share: the frames of the objects they sense, those frames' velocities and
 * accelerations, and the limit rows of joints and tendons. */
#include <math.h>

#include "core/math.h"
#include "sensor/sensor.h"

int gs_objectBody(const gsModel* m, int type, int id) {
  switch (type) {
    case GS_OBJ_BODY: case GS_OBJ_XBODY: return id;
    case GS_OBJ_GEOM: return m->geom_bodyid[id];
    case GS_OBJ_SITE: return m->site_bodyid[id];
    case GS_OBJ_CAMERA: return m->cam_bodyid[id];
    default: return 0;
  }
}

/* a camera's pose: fixed to its body, following the body's position (or its subtree's com) at
 * the orientation of qpos0, or placed on its body and turned towards a target body (its z axis
 * points away from the target, its x axis stays horizontal) */
static void camera_frame(const gsModel* m, const gsData* d, int c, gsReal pos[3], gsReal mat[9]) {
  int b = m->cam_bodyid[c], mode = m->cam_mode[c], tb = m->cam_targetbodyid[c];
  gsReal t[3], local[9];
  if (mode == GS_CAMLIGHT_TRACK || mode == GS_CAMLIGHT_TRACKCOM) {
    const gsReal* base = mode == GS_CAMLIGHT_TRACK ? d->xpos + 3 * b : d->subtree_com + 3 * b;
    gs_add3(pos, base, mode == GS_CAMLIGHT_TRACK ? m->cam_pos0 + 3 * c : m->cam_poscom0 + 3 * c);
    for (int k = 0; k < 9; k++) mat[k] = m->cam_mat0[9 * c + k];
    return;
  }
  gs_mulMatVec3(t, d->xmat + 9 * b, m->cam_pos + 3 * c);
  gs_add3(pos, t, d->xpos + 3 * b);
  gs_quat2Mat(local, m->cam_quat + 4 * c);
  gs_mulMat3(mat, d->xmat + 9 * b, local);
  if ((mode == GS_CAMLIGHT_TARGETBODY || mode == GS_CAMLIGHT_TARGETBODYCOM) && tb >= 0) {
    const gsReal* target = mode == GS_CAMLIGHT_TARGETBODY ? d->xpos + 3 * tb : d->subtree_com + 3 * tb;
    const gsReal up[3] = {0, 0, 1};
    gsReal x[3], y[3], z[3];
    gs_sub3(z, pos, target);
    gs_normalize3(z);
    gs_cross(x, up, z);
    gs_normalize3(x);
    gs_cross(y, z, x);
    for (int k = 0; k < 3; k++) mat[3 * k] = x[k], mat[3 * k + 1] = y[k], mat[3 * k + 2] = z[k];
  }
}

void gs_objectFrame(const gsModel* m, const gsData* d, int type, int id, gsReal pos[3], gsReal mat[9]) {
  const gsReal *p, *r;
  switch (type) {
    case GS_OBJ_BODY: p = d->xipos + 3 * id, r = d->ximat + 9 * id; break;
    case GS_OBJ_XBODY: p = d->xpos + 3 * id, r = d->xmat + 9 * id; break;
    case GS_OBJ_GEOM: p = d->geom_xpos + 3 * id, r = d->geom_xmat + 9 * id; break;
    case GS_OBJ_SITE: p = d->site_xpos + 3 * id, r = d->site_xmat + 9 * id; break;
    case GS_OBJ_CAMERA: camera_frame(m, d, id, pos, mat); return;
    default: p = d->xpos, r = d->xmat; break;
  }
  gs_copy3(pos, p);
  for (int k = 0; k < 9; k++) mat[k] = r[k];
}

void gs_objectQuat(const gsModel* m, const gsData* d, int type, int id, gsReal quat[4]) {
  int b = gs_objectBody(m, type, id);
  const gsReal* local;
  switch (type) {
    case GS_OBJ_BODY: local = m->body_iquat + 4 * id; break;
    case GS_OBJ_GEOM: local = m->geom_quat + 4 * id; break;
    case GS_OBJ_SITE: local = m->site_quat + 4 * id; break;
    /* a camera's body orientation times its own, whatever its mode (as MJCF's frame sensors
     * read it; its frame axes do follow the mode) */
    case GS_OBJ_CAMERA: local = m->cam_quat + 4 * id; break;
    default: gs_copy4(quat, d->xquat + 4 * b); return;
  }
  gs_mulQuat(quat, d->xquat + 4 * b, local);
}

/* a com-based spatial motion vector of body b moved to point p and, when rot is given, turned
 * into that frame: the linear part picks up w x (p - c) */
static void motion_at(const gsModel* m, const gsData* d, const gsReal* v, int b, const gsReal p[3],
                      const gsReal* rot, gsReal res[6]) {
  gsReal r[3], wxr[3], lin[3];
  gs_sub3(r, p, d->subtree_com + 3 * m->body_rootid[b]);
  gs_cross(wxr, v, r);
  gs_add3(lin, v + 3, wxr);
  if (rot) {
    gs_mulMatTVec3(res, rot, v);
    gs_mulMatTVec3(res + 3, rot, lin);
  } else {
    gs_copy3(res, v);
    gs_copy3(res + 3, lin);
  }
}

void gs_objectVelocity(const gsModel* m, const gsData* d, int type, int id, int local, gsReal res[6]) {
  int b = gs_objectBody(m, type, id);
  gsReal pos[3], mat[9];
  gs_objectFrame(m, d, type, id, pos, mat);
  motion_at(m, d, d->cvel + 6 * b, b, pos, local ? mat : NULL, res);
}

void gs_objectAcceleration(const gsModel* m, const gsData* d, int type, int id, int local, gsReal res[6]) {
  int b = gs_objectBody(m, type, id);
  /* objects welded to the world: MJCF's sensors read no acceleration there (not even gravity's,
   * which an accelerometer on a moving body at rest reads: measured against MuJoCo 3.3.7) */
  if (m->body_weldid[b] == 0) {
    gs_zero(res, 6);
    return;
  }
  gsReal pos[3], mat[9], vel[6], wxv[3];
  gs_objectFrame(m, d, type, id, pos, mat);
  motion_at(m, d, d->cvel + 6 * b, b, pos, local ? mat : NULL, vel);
  motion_at(m, d, d->cacc + 6 * b, b, pos, local ? mat : NULL, res);
  /* the spatial acceleration is the rate of the velocity field at a fixed point; the point that
   * moves with the body adds w x v */
  gs_cross(wxv, vel, vel + 3);
  for (int k = 0; k < 3; k++) res[3 + k] += wxv[k];
}

/* 1 when point x lies in site s's volume */
int gs_insideSite(const gsModel* m, const gsData* d, int s, const gsReal x[3]) {
  gsReal r[3], p[3];
  const gsReal* size = m->site_size + 3 * s;
  gs_sub3(r, x, d->site_xpos + 3 * s);
  gs_mulMatTVec3(p, d->site_xmat + 9 * s, r);
  switch (m->site_type[s]) {
    case GS_GEOM_SPHERE: return gs_dot3(p, p) <= size[0] * size[0];
    case GS_GEOM_CAPSULE: {
      gsReal z = fabs(p[2]) > size[1] ? fabs(p[2]) - size[1] : 0;
      return p[0] * p[0] + p[1] * p[1] + z * z <= size[0] * size[0];
    }
    case GS_GEOM_ELLIPSOID: {
      gsReal a = p[0] / size[0], b = p[1] / size[1], c = p[2] / size[2];
      return a * a + b * b + c * c <= 1;
    }
    case GS_GEOM_CYLINDER:
      return p[0] * p[0] + p[1] * p[1] <= size[0] * size[0] && fabs(p[2]) <= size[1];
    case GS_GEOM_BOX:
      return fabs(p[0]) <= size[0] && fabs(p[1]) <= size[1] && fabs(p[2]) <= size[2];
    default: return 0;
  }
}

gsReal gs_limitValue(const gsData* d, int kind, int id, int what) {
  for (int r = d->ne + d->nf, e = r + d->nl; r < e; r++) {
    if (d->efc_type[r] != kind || d->efc_id[r] != id) continue;
    switch (what) {
      case 0: return d->efc_pos[r] - d->efc_margin[r];
      case 1: return d->efc_vel[r];
      default: return d->efc_force[r];
    }
  }
  return 0;
}
