/* MJCF's alignfree (and <freejoint align>): a body on a free joint without child bodies has its
 * frame moved to its inertial frame, so that its free joint's dofs act at the centre of mass along
 * the principal axes (M is diagonal there). The body keeps its place in the world: its geoms,
 * sites, cameras and lights are re-expressed in the new frame, and the free joint's qpos0 follows
 * the body. */
#include <string.h>

#include "core/math.h"
#include "gauss/gauss.h"
#include "model/compile.h"

/* a point and an orientation given in the old body frame, in the new one: p' = iq^-1 (p - ipos) */
static void reframe(gsReal pos[3], gsReal quat[4], const gsReal ipos[3], const gsReal iqinv[4]) {
  gsReal d[3];
  gs_sub3(d, pos, ipos);
  gs_rotVecQuat(pos, d, iqinv);
  if (quat) {
    gsReal q[4];
    gs_mulQuat(q, iqinv, quat);
    gs_normalize4(q);
    gs_copy4(quat, q);
  }
}

static int aligned(const gsCompileCtx* c, const gsModel* m, int b) {
  if (m->body_jntnum[b] != 1 || m->jnt_type[m->body_jntadr[b]] != GS_JNT_FREE) return 0;
  for (int k = b + 1; k < m->nbody; k++)
    if (m->body_parentid[k] == b) return 0;  /* its children would have to move too: MJCF leaves it */
  int align = c->body[b]->joint[0]->align;
  return align == 2 ? c->spec->compiler.alignfree != 0 : align == 1;
}

void gs_compileAlignFree(gsCompileCtx* c, gsModel* m) {
  for (int b = 1; b < m->nbody; b++) {
    if (!aligned(c, m, b)) continue;
    gsReal ipos[3], iq[4], iqinv[4], dp[3], q[4];
    gs_copy3(ipos, m->body_ipos + 3 * b);
    gs_copy4(iq, m->body_iquat + 4 * b);
    gs_negQuat(iqinv, iq);
    /* the body's new pose in its parent (the world): the old frame composed with the inertial one */
    gsReal* pos = m->body_pos + 3 * b;
    gsReal* quat = m->body_quat + 4 * b;
    gs_rotVecQuat(dp, ipos, quat);
    gs_add3(pos, pos, dp);
    gs_mulQuat(q, quat, iq);
    gs_normalize4(q);
    gs_copy4(quat, q);
    gs_zero(m->body_ipos + 3 * b, 3);
    m->body_iquat[4 * b] = 1;
    gs_zero(m->body_iquat + 4 * b + 1, 3);
    for (int g = 0; g < m->ngeom; g++)
      if (m->geom_bodyid[g] == b) reframe(m->geom_pos + 3 * g, m->geom_quat + 4 * g, ipos, iqinv);
    for (int s = 0; s < m->nsite; s++)
      if (m->site_bodyid[s] == b) reframe(m->site_pos + 3 * s, m->site_quat + 4 * s, ipos, iqinv);
    for (int k = 0; k < m->ncam; k++)
      if (m->cam_bodyid[k] == b) reframe(m->cam_pos + 3 * k, m->cam_quat + 4 * k, ipos, iqinv);
    for (int k = 0; k < m->nlight; k++) {
      if (m->light_bodyid[k] != b) continue;
      gsReal zero[3] = {0, 0, 0}, dir[3];
      reframe(m->light_pos + 3 * k, NULL, ipos, iqinv);
      gs_copy3(dir, m->light_dir + 3 * k);
      reframe(dir, NULL, zero, iqinv);
      gs_copy3(m->light_dir + 3 * k, dir);
    }
    /* equality anchors stay as written, now read in the new frame: MJCF does not move them */
    int qadr = m->jnt_qposadr[m->body_jntadr[b]];
    gs_copy3(m->qpos0 + qadr, pos);
    gs_copy4(m->qpos0 + qadr + 3, quat);
    memcpy(m->qpos_spring + qadr, m->qpos0 + qadr, 7 * sizeof(gsReal));
  }
}
