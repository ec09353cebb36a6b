/* Poses of elements written in <frame>s, as MuJoCo's spec reads and writes them. A spec places
 * what a frame holds when it is read or attached: a body's pos and orient hold its pose in the
 * parent body (gsSpecBody.framed/frame_pos/frame_quat the frames' composed pose), a joint's,
 * geom's, site's, camera's or light's its pose in its body (its `frame` record holds that frame's
 * pose there). MuJoCo's spec gives these poses in the frame instead: the bindings convert with
 * the frame pose given here, so that editing a framed element and compiling gives what MuJoCo
 * gives. A fromto written through the spec in a frame and a frame's pose edited after it placed
 * what it holds are taken here too. */
#include <stdio.h>
#include <string.h>

#include "core/math.h"
#include "model/compile.h"
#include "model/spec_slices.h"

gsSpecFrame* gs_specFrameOf(int kind, const void* el) {
  if (!el) return NULL;
  switch (kind) {
    case GS_SK_BODY: return ((const gsSpecBody*)el)->inframe;
    case GS_SK_JOINT: return ((const gsSpecJoint*)el)->frame;
    case GS_SK_GEOM: return ((const gsSpecGeom*)el)->frame;
    case GS_SK_SITE: return ((const gsSpecSite*)el)->frame;
    case GS_SK_CAMERA: return ((const gsSpecCamera*)el)->frame;
    case GS_SK_LIGHT: return ((const gsSpecLight*)el)->frame;
    case GS_SK_FRAME: return ((const gsSpecFrame*)el)->frame;
    default: return NULL;
  }
}

int gs_specFramePose(int kind, const void* el, gsReal pos[3], gsReal quat[4]) {
  if (!el) return 0;
  const gsSpecFrame* f = NULL;
  switch (kind) {
    case GS_SK_BODY: {
      const gsSpecBody* b = el;
      if (!b->framed || !b->parent) return 0;
      memcpy(pos, b->frame_pos, 3 * sizeof(gsReal));
      memcpy(quat, b->frame_quat, 4 * sizeof(gsReal));
      return 1;
    }
    case GS_SK_JOINT:
    case GS_SK_GEOM:
    case GS_SK_SITE:
    case GS_SK_CAMERA:
    case GS_SK_LIGHT: f = gs_specFrameOf(kind, el); break;
    default: return 0;
  }
  if (!f) return 0;
  gs_specFrameBodyPose(f, pos, quat);
  return 1;
}

/* the orientation of an element kind that has one, with its info */
static gsOrientation* orientation(int kind, void* el, const gsSpecInfo** info) {
  switch (kind) {
    case GS_SK_BODY: *info = &((gsSpecBody*)el)->info; return &((gsSpecBody*)el)->orient;
    case GS_SK_GEOM: *info = &((gsSpecGeom*)el)->info; return &((gsSpecGeom*)el)->orient;
    case GS_SK_SITE: *info = &((gsSpecSite*)el)->info; return &((gsSpecSite*)el)->orient;
    case GS_SK_CAMERA: *info = &((gsSpecCamera*)el)->info; return &((gsSpecCamera*)el)->orient;
    default: return NULL;
  }
}

int gs_specFramedOrient(gsSpec* spec, int kind, void* el, char* err, int errsz) {
  gsReal fp[3], fq[4];
  const gsSpecInfo* info = NULL;
  gsOrientation* o = el ? orientation(kind, el, &info) : NULL;
  if (!o || !gs_specFramePose(kind, el, fp, fq)) {
    if (err && errsz > 0) snprintf(err, (size_t)errsz, "the element has no orientation in a frame");
    return 0;
  }
  /* the form as now written, in the spec's angle unit and euler sequence, meant in the frame */
  gsReal q[4], r[4];
  if (!gs_specOrientation(spec, q, o, info, "element", err, errsz)) return 0;
  gs_mulQuat(r, fq, q);
  gs_normalize4(r);
  o->type = GS_ORIENT_QUAT;
  gs_copy4(o->quat, r);
  return 1;
}

/* ---- a fromto written in a frame; a frame's pose changed after it placed what it holds ---- */

/* the pose (p, q) composed with (pos, quat): pos <- q pos + p, quat <- q quat */
static void compose(const gsReal p[3], const gsReal q[4], gsReal pos[3], gsReal quat[4]) {
  gsReal r[3], s[4];
  gs_rotVecQuat(r, pos, q);
  gs_add3(pos, r, p);
  if (!quat) return;
  gs_mulQuat(s, q, quat);
  gs_normalize4(s);
  gs_copy4(quat, s);
}

int gs_specFramedFromto(gsSpec* spec, int kind, void* el, char* err, int errsz) {
  (void)spec;
  gsReal fp[3], fq[4];
  int type, *has;
  gsReal *size, *pos, *fromto;
  gsOrientation* o;
  if (kind == GS_SK_GEOM) {
    gsSpecGeom* g = el;
    type = g->type, has = &g->has_fromto, size = g->size, pos = g->pos, fromto = g->fromto, o = &g->orient;
  } else if (kind == GS_SK_SITE) {
    gsSpecSite* s = el;
    type = s->type, has = &s->has_fromto, size = s->size, pos = s->pos, fromto = s->fromto, o = &s->orient;
  } else {
    if (err && errsz > 0) snprintf(err, (size_t)errsz, "only geoms and sites have fromto");
    return 0;
  }
  if (!el || !gs_specFramePose(kind, el, fp, fq)) {
    if (err && errsz > 0) snprintf(err, (size_t)errsz, "the element is not in a frame");
    return 0;
  }
  /* as MJCF's frames take it: the pose and size it stands for in the frame, which the frame then
   * moves like any pose (the turn about the segment follows the frame) */
  gs_fromtoPose(type, size, pos, o, has, fromto);
  if (!*has) {
    compose(fp, fq, pos, o->quat);
    return 1;
  }
  /* a kind the compiler takes fromto of as it is (or rejects): the segment in the body */
  compose(fp, fq, fromto, NULL);
  compose(fp, fq, fromto + 3, NULL);
  return 1;
}

/* f is g or written in it, at any depth */
static int inside(const gsSpecFrame* f, const gsSpecFrame* g) {
  for (; f; f = f->frame)
    if (f == g) return 1;
  return 0;
}

/* an element's orientation made a quaternion (in the spec's angle unit and euler sequence), then
 * turned by d */
static int turn(gsSpec* spec, const gsReal d[4], gsOrientation* o, const gsSpecInfo* info, char* err, int errsz) {
  gsReal q[4], r[4];
  if (!gs_specOrientation(spec, q, o, info, "element", err, errsz)) return 0;
  gs_mulQuat(r, d, q);
  gs_normalize4(r);
  memset(o, 0, sizeof(*o));
  o->type = GS_ORIENT_QUAT;
  gs_copy4(o->quat, r);
  return 1;
}

int gs_specSetFramePose(gsSpec* spec, gsSpecBody* body, gsSpecFrame* frame, const gsReal pos[3],
                        const gsReal quat[4], char* err, int errsz) {
  int inbody = 0;
  for (int i = 0; body && frame && i < body->nframe && !inbody; i++) inbody = body->frame[i] == frame;
  if (!inbody) {
    if (err && errsz > 0) snprintf(err, (size_t)errsz, "the frame is not one of the body's");
    return 0;
  }
  gsReal q[4];
  gs_copy4(q, quat);
  if (gs_normalize4(q) < GS_MINVAL) {
    if (err && errsz > 0) snprintf(err, (size_t)errsz, "frame quat is zero");
    return 0;
  }
  if (!frame->placed) {  /* nothing placed by it yet: its pose in the body follows pos and quat */
    gs_copy3(frame->pos, pos);
    gs_copy4(frame->quat, quat);
    return 1;
  }
  /* its new pose in the body: the enclosing frames' composed with (pos, q) */
  gsReal np[3] = {0, 0, 0}, nq[4] = {1, 0, 0, 0}, inv[4], dq[4], dp[3], r[3];
  if (frame->frame) gs_specFrameBodyPose(frame->frame, np, nq);
  gs_rotVecQuat(r, pos, nq);
  gs_add3(np, np, r);
  gs_mulQuat(dq, nq, q);
  gs_normalize4(dq);
  gs_copy4(nq, dq);
  /* the move d taking its present pose in the body to the new one: d = new old^-1 */
  gs_negQuat(inv, frame->bquat);
  gs_mulQuat(dq, nq, inv);
  gs_normalize4(dq);
  gs_rotVecQuat(dp, frame->bpos, dq);
  gs_sub3(dp, np, dp);
  /* what it holds, directly or in its frames, moves with it */
  for (int i = 0; i < body->njoint; i++) {
    gsSpecJoint* j = body->joint[i];
    if (!inside(j->frame, frame)) continue;
    compose(dp, dq, j->pos, NULL);
    gs_rotVecQuat(r, j->axis, dq);
    gs_copy3(j->axis, r);
  }
  for (int i = 0; i < body->ngeom; i++) {
    gsSpecGeom* g = body->geom[i];
    if (!inside(g->frame, frame)) continue;
    if (!turn(spec, dq, &g->orient, &g->info, err, errsz)) return 0;
    compose(dp, dq, g->pos, NULL);
    if (g->has_fromto) compose(dp, dq, g->fromto, NULL), compose(dp, dq, g->fromto + 3, NULL);
  }
  for (int i = 0; i < body->nsite; i++) {
    gsSpecSite* s = body->site[i];
    if (!inside(s->frame, frame)) continue;
    if (!turn(spec, dq, &s->orient, &s->info, err, errsz)) return 0;
    compose(dp, dq, s->pos, NULL);
    if (s->has_fromto) compose(dp, dq, s->fromto, NULL), compose(dp, dq, s->fromto + 3, NULL);
  }
  for (int i = 0; i < body->ncamera; i++) {
    gsSpecCamera* c = body->camera[i];
    if (!inside(c->frame, frame)) continue;
    if (!turn(spec, dq, &c->orient, &c->info, err, errsz)) return 0;
    compose(dp, dq, c->pos, NULL);
  }
  for (int i = 0; i < body->nlight; i++) {
    gsSpecLight* l = body->light[i];
    if (!inside(l->frame, frame)) continue;
    compose(dp, dq, l->pos, NULL);
    gs_rotVecQuat(r, l->dir, dq);
    gs_copy3(l->dir, r);
  }
  for (int i = 0; i < body->nchild; i++) {
    gsSpecBody* c = body->child[i];
    if (!inside(c->inframe, frame)) continue;
    if (!turn(spec, dq, &c->orient, &c->info, err, errsz)) return 0;
    compose(dp, dq, c->pos, NULL);
    if (c->framed) compose(dp, dq, c->frame_pos, c->frame_quat);
  }
  for (int i = 0; i < body->nframe; i++) {
    gsSpecFrame* f = body->frame[i];
    if (f != frame && f->placed && inside(f, frame)) compose(dp, dq, f->bpos, f->bquat);
  }
  gs_copy3(frame->pos, pos);
  gs_copy4(frame->quat, quat);
  gs_copy3(frame->bpos, np);
  gs_copy4(frame->bquat, nq);
  return 1;
}
