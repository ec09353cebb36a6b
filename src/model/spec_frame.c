/* Poses of bodies written in <frame>s, as MuJoCo's spec reads and writes them. A spec places a
 * body's frames when it is read or attached: its pos and orient hold its pose in the parent body,
 * and gsSpecBody.framed/frame_pos/frame_quat the frames' composed pose. MuJoCo's spec gives a
 * body's pos and quat in its frame instead; these convert, so that editing a framed body's pose
 * and compiling gives what MuJoCo gives (the frames' pose stays recorded as it was). */
#include <stdio.h>
#include <string.h>

#include "core/math.h"
#include "model/compile.h"
#include "model/spec_slices.h"

/* the frame pose of el (a body written in frames), 0 when it has none */
static const gsSpecBody* framed_body(int kind, const void* el) {
  if (kind != GS_SK_BODY || !el) return NULL;
  const gsSpecBody* b = el;
  return b->framed && b->parent ? b : NULL;
}

/* the unit quaternion of an orientation in the spec's angle unit and euler sequence; 0 with the
 * reason in err */
static int orient_quat(const gsSpec* spec, const gsSpecInfo* info, const gsOrientation* o,
                       gsReal q[4], char* err, int errsz) {
  gsCompileCtx cc;
  memset(&cc, 0, sizeof(cc));
  cc.spec = spec;
  cc.err = err;
  cc.errsz = errsz;
  return gs_compileOrientation(&cc, q, o, info, "body");
}

int gs_specFramedPose(const gsSpec* spec, int kind, const void* el, gsReal pos[3], gsReal quat[4]) {
  const gsSpecBody* b = framed_body(kind, el);
  if (!b) return 0;
  gsReal inv[4], p[3], q[4];
  char err[200];
  if (!orient_quat(spec, &b->info, &b->orient, q, err, (int)sizeof(err))) gs_unitQuat(q);
  /* (pos, quat) = frame^-1 (body pose in the parent) */
  gs_negQuat(inv, b->frame_quat);
  gs_sub3(p, b->pos, b->frame_pos);
  gs_rotVecQuat(pos, p, inv);
  gs_mulQuat(quat, inv, q);
  gs_normalize4(quat);
  return 1;
}

int gs_specFramedSetPos(gsSpec* spec, int kind, void* el, const gsReal pos[3]) {
  (void)spec;
  gsSpecBody* b = (gsSpecBody*)framed_body(kind, el);
  if (!b || !pos) return 0;
  gsReal p[3];
  gs_rotVecQuat(p, pos, b->frame_quat);
  gs_add3(b->pos, p, b->frame_pos);
  return 1;
}

int gs_specFramedOrient(gsSpec* spec, int kind, void* el, char* err, int errsz) {
  gsSpecBody* b = (gsSpecBody*)framed_body(kind, el);
  if (!b) {
    if (err && errsz > 0) snprintf(err, (size_t)errsz, "the element is not a body written in a frame");
    return 0;
  }
  gsReal q[4], r[4];
  if (!orient_quat(spec, &b->info, &b->orient, q, err, errsz)) return 0;
  gs_mulQuat(r, b->frame_quat, q);
  gs_normalize4(r);
  b->orient.type = GS_ORIENT_QUAT;
  gs_copy4(b->orient.quat, r);
  return 1;
}
