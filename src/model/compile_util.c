/* What the compiler and its slices share (compile.h): error reporting, names, angles and
 * orientations. Kept apart from compiler.c, which calls the slices, so that the slices do not call
 * back into it. */
#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/math.h"
#include "gauss/gauss.h"
#include "model/compile.h"
#include "model/io.h"
#include "model/spec_slices.h"

/* error naming file, line and element: "file:line: <kind> 'name': message" */
int gs_compileFail(gsCompileCtx* c, const gsSpecInfo* info, const char* kind, const char* fmt, ...) {
  if (c->failed) return 0;
  c->failed = 1;
  if (!c->err || c->errsz <= 0) return 0;
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  /* an error of the whole model names the model's file (the spec's; "<spec>" when built by
   * hand), without a line */
  const char* file = info && info->file ? info->file
                     : c->spec           ? (c->spec->file ? c->spec->file : "<spec>")
                                         : "<model>";  /* gs_setConst: a compiled model */
  int line = info ? info->line : 0;
  const char* name = info && info->name ? info->name : "";
  char where[1100], full[1800];
  if (line > 0)
    snprintf(where, sizeof(where), "%.1000s:%d", file, line);
  else
    snprintf(where, sizeof(where), "%.1000s", file);
  if (name[0])
    snprintf(full, sizeof(full), "%s: %s '%.100s': %s", where, kind, name, msg);
  else
    snprintf(full, sizeof(full), "%s: %s: %s", where, kind, msg);
  gs_copyClean(c->err, (size_t)c->errsz, full);
  return 0;
}

gsReal gs_compileRadian(const gsCompileCtx* c, gsReal angle) {
  /* divided, then multiplied: MuJoCo's compiler converts in this order, which fixes the last bit */
  return c->spec->compiler.degree ? angle / 180.0 * GS_PI : angle;
}

/* The compiler normalises by dividing by the norm (the runtime helpers scale by its reciprocal),
 * and keeps a vector or quaternion whose norm is within GS_MINVAL of 1 as given: MuJoCo's compiler
 * rounds this way, and compiled frames must agree with it to the last bit. */
static gsReal normalize3_div(gsReal v[3]) {
  gsReal n = gs_norm3(v);
  if (n >= GS_MINVAL && fabs(n - 1) >= GS_MINVAL) {
    v[0] /= n; v[1] /= n; v[2] /= n;
  }
  return n;
}
static gsReal normalize4_div(gsReal q[4]) {
  gsReal n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (n >= GS_MINVAL && fabs(n - 1) >= GS_MINVAL) {
    q[0] /= n; q[1] /= n; q[2] /= n; q[3] /= n;
  }
  return n;
}

/* the smallest rotation taking the z axis to vec (as gs_quatZ2Vec, normalising by division) */
void gs_compileQuatZ2Vec(gsReal q[4], const gsReal vec[3]) {
  gsReal v[3] = {vec[0], vec[1], vec[2]};
  gs_unitQuat(q);
  if (normalize3_div(v) < GS_MINVAL) return;
  gsReal axis[3] = {-v[1], v[0], 0};  /* z x v */
  gsReal s = normalize3_div(axis);
  if (s < GS_MINVAL) {
    /* opposite: half turn about x, through the axis-angle formula (cos(pi/2) is not 0) */
    gsReal x[3] = {1, 0, 0};
    if (v[2] < 0) gs_axisAngle2Quat(q, x, GS_PI);
    return;
  }
  gs_axisAngle2Quat(q, axis, atan2(s, v[2]));
}

/* ---- orientation ---- */
int gs_compileOrientation(gsCompileCtx* c, gsReal q[4], const gsOrientation* o,
                          const gsSpecInfo* info, const char* kind) {
  switch (o->type) {
    case GS_ORIENT_QUAT:
      gs_copy4(q, o->quat);
      if (normalize4_div(q) < GS_MINVAL) return gs_compileFail(c, info, kind, "zero quaternion");
      return 1;
    case GS_ORIENT_AXISANGLE: {
      gsReal axis[3] = {o->axisangle[0], o->axisangle[1], o->axisangle[2]};
      if (normalize3_div(axis) < GS_MINVAL) return gs_compileFail(c, info, kind, "axisangle has a zero axis");
      gs_axisAngle2Quat(q, axis, gs_compileRadian(c, o->axisangle[3]));
      return 1;
    }
    case GS_ORIENT_EULER: {
      const char* seq = c->spec->compiler.eulerseq;
      if (strlen(seq) != 3) return gs_compileFail(c, info, kind, "eulerseq must have 3 characters");
      gs_unitQuat(q);
      for (int i = 0; i < 3; i++) {
        gsReal axis[3] = {0, 0, 0}, r[4];
        char ch = seq[i];
        int k = (ch == 'x' || ch == 'X') ? 0 : (ch == 'y' || ch == 'Y') ? 1 : (ch == 'z' || ch == 'Z') ? 2 : -1;
        if (k < 0) return gs_compileFail(c, info, kind, "eulerseq may contain only x, y, z, X, Y, Z");
        axis[k] = 1;
        gs_axisAngle2Quat(r, axis, gs_compileRadian(c, o->euler[i]));
        /* lower case: axes that move with the frame (post-multiply); upper case: fixed axes */
        if (ch >= 'a') gs_mulQuat(q, q, r);
        else gs_mulQuat(q, r, q);
      }
      gs_normalize4(q);
      return 1;
    }
    case GS_ORIENT_XYAXES: {
      gsReal x[3] = {o->xyaxes[0], o->xyaxes[1], o->xyaxes[2]};
      gsReal y[3] = {o->xyaxes[3], o->xyaxes[4], o->xyaxes[5]}, z[3];
      if (normalize3_div(x) < GS_MINVAL) return gs_compileFail(c, info, kind, "xyaxes has a zero x axis");
      gs_addScl3(y, y, x, -gs_dot3(x, y));  /* make y orthogonal to x */
      if (normalize3_div(y) < GS_MINVAL) return gs_compileFail(c, info, kind, "xyaxes: y is parallel to x");
      gs_cross(z, x, y);
      gsReal mat[9] = {x[0], y[0], z[0], x[1], y[1], z[1], x[2], y[2], z[2]};
      gs_mat2Quat(q, mat);
      return 1;
    }
    case GS_ORIENT_ZAXIS:
      if (gs_norm3(o->zaxis) < GS_MINVAL) return gs_compileFail(c, info, kind, "zaxis is zero");
      gs_compileQuatZ2Vec(q, o->zaxis);
      return 1;
    default:
      return gs_compileFail(c, info, kind, "unknown orientation type %d", o->type);
  }
}

int gs_specOrientation(gsSpec* spec, gsReal q[4], const gsOrientation* o, const gsSpecInfo* info,
                       const char* kind, char* err, int errsz) {
  gsCompileCtx cc;
  memset(&cc, 0, sizeof(cc));
  cc.spec = spec;
  cc.err = err;
  cc.errsz = errsz;
  return gs_compileOrientation(&cc, q, o, info, kind);
}

int gs_fromtoReduces(int type) {
  return type == GS_GEOM_CAPSULE || type == GS_GEOM_CYLINDER || type == GS_GEOM_BOX || type == GS_GEOM_ELLIPSOID;
}

int gs_fromtoPosClash(int type, int has, const gsReal pos[3]) {
  return has && gs_fromtoReduces(type) && (pos[0] != 0 || pos[1] != 0 || pos[2] != 0);
}

void gs_fromtoPose(int type, gsReal size[3], gsReal pos[3], gsOrientation* o, int* has, const gsReal ft[6]) {
  int axial = type == GS_GEOM_CAPSULE || type == GS_GEOM_CYLINDER;
  int boxlike = type == GS_GEOM_BOX || type == GS_GEOM_ELLIPSOID;
  gsReal d[3];
  gs_sub3(d, ft, ft + 3);
  gsReal len = gs_norm3(d);
  if (!*has || (!axial && !boxlike) || len < GS_MINVAL) return;
  for (int k = 0; k < 3; k++) pos[k] = 0.5 * (ft[k] + ft[k + 3]);
  gsReal q[4];
  gs_quatZ2Vec(q, d);
  gs_orientSetQuat(o, q);
  if (axial) size[1] = 0.5 * len;
  else size[1] = size[0], size[2] = 0.5 * len;
  *has = 0;
}

int gs_compileObjectId(const gsModel* m, int type, const char* name) {
  if (!name) return -1;
  int id = gs_name2id(m, type, name);
  if (id < 0 && (type == GS_OBJ_BODY || type == GS_OBJ_XBODY) && strcmp(name, "world") == 0)
    id = 0;
  return id;
}

size_t gs_compileNameBytes(const gsSpecInfo* info) { return (info->name ? strlen(info->name) : 0) + 1; }

int gs_compileName(gsCompileCtx* c, gsModel* m, const gsSpecInfo* info) {
  int a = c->nameadr;
  size_t n = gs_compileNameBytes(info);
  if (info->name) memcpy(m->names + a, info->name, n);
  else m->names[a] = 0;
  c->nameadr += (int)n;
  return a;
}

gsReal gs_compileFloat(gsReal v) {
  /* beyond float's range the value would become inf, which no model array may hold: saturate */
  if (v > FLT_MAX) v = FLT_MAX;
  if (v < -FLT_MAX) v = -FLT_MAX;
  return (gsReal)(float)v;
}
