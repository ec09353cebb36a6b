/* Poses of elements written in <frame>s, as MuJoCo's spec reads and writes them. A spec places
 * what a frame holds when it is read or attached: a body's pos and orient hold its pose in the
 * parent body (gsSpecBody.framed/frame_pos/frame_quat the frames' composed pose), a joint's,
 * geom's, site's, camera's or light's its pose in its body (its `frame` record holds that frame's
 * pose there). MuJoCo's spec gives these poses in the frame instead: the bindings convert with
 * the frame pose given here, so that editing a framed element and compiling gives what MuJoCo
 * gives. A fromto written through the spec in a frame and a frame's pose edited after it placed
 * what it holds are taken here too. */
#include <stdio.h>
#include <stdlib.h>
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
  /* the other forms are kept: a later change of the form's type reads them, as on MuJoCo's spec */
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

/* the fields a geom and a site share for their pose and shape, by pointer */
typedef struct {
  int type, *has;
  gsReal *size, *pos, *fromto;
  gsOrientation* o;
  const gsSpecInfo* info;
} Shape;

static int shape_of(int kind, void* el, Shape* sh) {
  if (kind == GS_SK_GEOM) {
    gsSpecGeom* g = el;
    *sh = (Shape){g->type, &g->has_fromto, g->size, g->pos, g->fromto, &g->orient, &g->info};
  } else if (kind == GS_SK_SITE) {
    gsSpecSite* s = el;
    *sh = (Shape){s->type, &s->has_fromto, s->size, s->pos, s->fromto, &s->orient, &s->info};
  } else {
    return 0;
  }
  return 1;
}

int gs_specFramedFromto(gsSpec* spec, int kind, void* el, char* err, int errsz) {
  (void)spec;
  gsReal fp[3], fq[4];
  Shape sh;
  if (!el || !shape_of(kind, el, &sh)) {
    if (err && errsz > 0) snprintf(err, (size_t)errsz, "only geoms and sites have fromto");
    return 0;
  }
  if (!gs_specFramePose(kind, el, fp, fq)) {
    if (err && errsz > 0) snprintf(err, (size_t)errsz, "the element is not in a frame");
    return 0;
  }
  /* as MJCF's frames take it: the pose and size it stands for in the frame, which the frame then
   * moves like any pose (the turn about the segment follows the frame) */
  gs_fromtoPose(sh.type, sh.size, sh.pos, sh.o, sh.has, sh.fromto);
  if (!*sh.has) {
    compose(fp, fq, sh.pos, sh.o->quat);
    return 1;
  }
  /* a type fromto does not stand for a pose on: kept as written (read back so), which the
   * compiler then refuses as MuJoCo's does ("fromto requires a capsule, cylinder, box or
   * ellipsoid") */
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
  gs_orientSetQuat(o, r);
  return 1;
}

/* an element's pose in its body (and a body's frames' pose) moved by (dp, dq): pos <- dq pos +
 * dp, the orientation, a joint's axis and a light's dir turned by dq; a fromto that stands for no
 * pose stays as written (the compiler refuses it) */
static int move(gsSpec* spec, int kind, void* el, const gsReal dp[3], const gsReal dq[4], char* err, int errsz) {
  gsReal r[3];
  switch (kind) {
    case GS_SK_JOINT: {
      gsSpecJoint* j = el;
      compose(dp, dq, j->pos, NULL);
      gs_rotVecQuat(r, j->axis, dq);
      gs_copy3(j->axis, r);
      return 1;
    }
    case GS_SK_GEOM:
    case GS_SK_SITE: {
      Shape sh;
      shape_of(kind, el, &sh);
      /* a fromto that stands for a pose is taken as that pose, so that the turn about the
       * segment follows the frame as MuJoCo's compile makes it */
      gs_fromtoPose(sh.type, sh.size, sh.pos, sh.o, sh.has, sh.fromto);
      if (!turn(spec, dq, sh.o, sh.info, err, errsz)) return 0;
      compose(dp, dq, sh.pos, NULL);
      return 1;
    }
    case GS_SK_CAMERA: {
      gsSpecCamera* c = el;
      if (!turn(spec, dq, &c->orient, &c->info, err, errsz)) return 0;
      compose(dp, dq, c->pos, NULL);
      return 1;
    }
    case GS_SK_LIGHT: {
      gsSpecLight* l = el;
      compose(dp, dq, l->pos, NULL);
      gs_rotVecQuat(r, l->dir, dq);
      gs_copy3(l->dir, r);
      return 1;
    }
    case GS_SK_BODY: {
      gsSpecBody* c = el;
      if (!turn(spec, dq, &c->orient, &c->info, err, errsz)) return 0;
      compose(dp, dq, c->pos, NULL);
      if (c->framed) compose(dp, dq, c->frame_pos, c->frame_quat);
      return 1;
    }
    default: return 0;
  }
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
#define MOVE(n, list, kind, where)                                                   \
  for (int i = 0; i < body->n; i++)                                                  \
    if (inside(body->list[i]->where, frame) && !move(spec, kind, body->list[i], dp, dq, err, errsz)) \
      return 0;
  MOVE(njoint, joint, GS_SK_JOINT, frame)
  MOVE(ngeom, geom, GS_SK_GEOM, frame)
  MOVE(nsite, site, GS_SK_SITE, frame)
  MOVE(ncamera, camera, GS_SK_CAMERA, frame)
  MOVE(nlight, light, GS_SK_LIGHT, frame)
  MOVE(nchild, child, GS_SK_BODY, inframe)
#undef MOVE
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

/* ---- an element put in a frame (MuJoCo's element.set_frame) ---- */

void gs_specPlaceFrame(gsSpecFrame* f) {
  for (; f && !f->placed; f = f->frame) {
    gs_specFrameBodyPose(f, f->bpos, f->bquat);
    f->placed = 1;
  }
}

/* the frame an element is written in, as a place to store another */
static gsSpecFrame** frame_slot(int kind, void* el) {
  switch (kind) {
    case GS_SK_BODY: return &((gsSpecBody*)el)->inframe;
    case GS_SK_JOINT: return &((gsSpecJoint*)el)->frame;
    case GS_SK_GEOM: return &((gsSpecGeom*)el)->frame;
    case GS_SK_SITE: return &((gsSpecSite*)el)->frame;
    case GS_SK_CAMERA: return &((gsSpecCamera*)el)->frame;
    case GS_SK_LIGHT: return &((gsSpecLight*)el)->frame;
    default: return NULL;
  }
}

/* frame f written in `up` (NULL: directly in the body), its pose in it kept as it reads. The body
 * keeps enclosing frames first: f and the frames it holds move after up when up came later. */
static int set_enclosing(gsSpec* spec, gsSpecBody* body, gsSpecFrame* f, gsSpecFrame* up, char* err,
                         int errsz) {
  if (up && inside(up, f)) {
    if (err && errsz > 0) snprintf(err, (size_t)errsz, "a frame cannot be written in itself or in a frame it holds");
    return 0;
  }
  int at = -1, upat = -1;
  for (int i = 0; i < body->nframe; i++) {
    if (body->frame[i] == f) at = i;
    if (body->frame[i] == up) upat = i;
  }
  if (upat > at) {
    gsSpecFrame** order = malloc(sizeof(*order) * (size_t)body->nframe);
    if (!order) {
      if (err && errsz > 0) snprintf(err, (size_t)errsz, "out of memory");
      return 0;
    }
    int n = 0;
    for (int i = 0; i < body->nframe; i++) {
      if (!inside(body->frame[i], f)) order[n++] = body->frame[i];
      if (i != upat) continue;
      for (int k = at; k < body->nframe; k++)
        if (inside(body->frame[k], f)) order[n++] = body->frame[k];
    }
    memcpy(body->frame, order, sizeof(*order) * (size_t)body->nframe);
    free(order);
  }
  f->frame = up;
  if (!f->placed) return 1;  /* its pose in the body follows its enclosing frames' */
  gs_specPlaceFrame(up);
  /* placed: its new pose in the body from the same pos and quat, what it holds moving along */
  gsReal pos[3], quat[4];
  gs_copy3(pos, f->pos);
  gs_copy4(quat, f->quat);
  return gs_specSetFramePose(spec, body, f, pos, quat, err, errsz);
}

int gs_specSetFrame(gsSpec* spec, int kind, void* el, gsSpecFrame* frame, char* err, int errsz) {
  gsSpecFrame** slot = el && kind != GS_SK_FRAME ? frame_slot(kind, el) : NULL;
  if (!slot && kind != GS_SK_FRAME) {
    if (err && errsz > 0)
      snprintf(err, (size_t)errsz, "only bodies, joints, geoms, sites, cameras, lights and frames are put in frames");
    return 0;
  }
  gsSpecBody* body = gs_specParent(spec, kind, el);
  if (!body) {
    if (err && errsz > 0)
      snprintf(err, (size_t)errsz, "the element is not in the spec (the world body is in no frame)");
    return 0;
  }
  int inbody = frame == NULL;
  for (int i = 0; i < body->nframe && !inbody; i++) inbody = body->frame[i] == frame;
  if (!inbody) {  /* MuJoCo's compile refuses it: "Frame and body have mismatched parents" */
    if (err && errsz > 0)
      snprintf(err, (size_t)errsz, "the frame is not one of body '%s''s, where the element is (mismatched parents)",
               body->info.name ? body->info.name : "");
    return 0;
  }
  if (kind == GS_SK_FRAME) return set_enclosing(spec, body, el, frame, err, errsz);
  /* its pose in its frame stays as it reads: it moves from the old frame's pose to the new one's
   * (d = new old^-1), the frame and those enclosing it keeping their pose from now on */
  gsReal op[3] = {0, 0, 0}, oq[4] = {1, 0, 0, 0}, np[3] = {0, 0, 0}, nq[4] = {1, 0, 0, 0};
  gsReal inv[4], dq[4], dp[3];
  gs_specFramePose(kind, el, op, oq);
  gs_specPlaceFrame(frame);
  if (frame) gs_specFrameBodyPose(frame, np, nq);
  gs_negQuat(inv, oq);
  gs_mulQuat(dq, nq, inv);
  gs_normalize4(dq);
  gs_rotVecQuat(dp, op, dq);
  gs_sub3(dp, np, dp);
  if (!move(spec, kind, el, dp, dq, err, errsz)) return 0;
  *slot = frame;
  if (kind == GS_SK_BODY) {
    gsSpecBody* b = el;
    b->framed = frame != NULL;
    gs_copy3(b->frame_pos, np);
    gs_copy4(b->frame_quat, nq);
  }
  return 1;
}
