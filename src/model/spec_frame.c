/* Poses of elements written in <frame>s, as MuJoCo's spec reads and writes them. A spec places
 * what a frame holds when it is read or attached: a body's pos and orient hold its pose in the
 * parent body (gsSpecBody.framed/frame_pos/frame_quat the frames' composed pose), a joint's,
 * geom's, site's, camera's or light's its pose in its body (its `frame` record holds that frame's
 * pose there). MuJoCo's spec gives these poses in the frame instead: the bindings convert with
 * the frame pose given here, so that editing a framed element and compiling gives what MuJoCo
 * gives. */
#include <stdio.h>
#include <string.h>

#include "core/math.h"
#include "model/compile.h"
#include "model/spec_slices.h"

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
    case GS_SK_JOINT: f = ((const gsSpecJoint*)el)->frame; break;
    case GS_SK_GEOM: f = ((const gsSpecGeom*)el)->frame; break;
    case GS_SK_SITE: f = ((const gsSpecSite*)el)->frame; break;
    case GS_SK_CAMERA: f = ((const gsSpecCamera*)el)->frame; break;
    case GS_SK_LIGHT: f = ((const gsSpecLight*)el)->frame; break;
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
