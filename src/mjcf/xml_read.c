/* The MJCF reader: walks the document (with includes spliced in) and fills a gsSpec. Elements the
 * engine simulates are read; other valid MJCF is skipped with a warning; anything outside MJCF,
 * a malformed value or an impossible model is an error naming the file, line and element. */
#define _XOPEN_SOURCE 700  /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>

#include "core/math.h"
#include "model/compile.h"
#include "model/spec_slices.h"
#include "xml_internal.h"

/* warnings of the last parse on this thread; a fixed buffer, so that nothing outlives a thread */
static _Thread_local char g_warnings[16384];

const char* gs_loadWarnings(void) { return g_warnings; }

/* ---- setters (gsxSetFn) of the core elements ---- */

static int set_compiler(gsxCtx* c, void* o, const gsxAt* a) { return gsx_compilerAttr(c, o, a); }
static int set_lengthrange(gsxCtx* c, void* o, const gsxAt* a) { return gsx_lengthrangeAttr(c, o, a); }

/* the children of <compiler>: <lengthrange> (the options of the length range computation) */
static int compiler_child(gsxCtx* c, xmlNodePtr ch, const gsxFile* src, void* user) {
  gsCompilerOptions* o = user;
  const char* name = gsx_name(ch);
  int line = gsx_line(ch);
  if (!gsx_isElement(name)) return gsx_error(c, src->name, line, name, "unknown element");
  if (!gsx_childAllowed("compiler", name))
    return gsx_error(c, src->name, line, name, "element is not allowed in <compiler>");
  return gsx_checkAttrs(c, ch, src, name, 0) &&
         gsx_applyOwn(c, ch, src, name, set_lengthrange, &o->lengthrange, NULL) &&
         gsx_checkChildren(c, ch, src, name);
}
static int set_option(gsxCtx* c, void* o, const gsxAt* a) { return gsx_optionAttr(c, o, a); }
static int set_flag(gsxCtx* c, void* o, const gsxAt* a) { return gsx_flagAttr(c, o, a); }
static int set_body(gsxCtx* c, void* o, const gsxAt* a) { return gsx_bodyAttr(c, o, a); }
static int set_joint(gsxCtx* c, void* o, const gsxAt* a) { return gsx_jointAttr(c, o, a); }
static int set_geom(gsxCtx* c, void* o, const gsxAt* a) { return gsx_geomAttr(c, o, a); }
static int set_site(gsxCtx* c, void* o, const gsxAt* a) { return gsx_siteAttr(c, o, a); }
static int set_inertial(gsxCtx* c, void* o, const gsxAt* a) { return gsx_inertialAttr(c, o, a); }
/* <size>: keyframes and user data; the rest is not used by the engine */
static int set_size(gsxCtx* c, void* o, const gsxAt* a) { return gsx_sizeAttr(c, o, a); }

static int set_freejoint(gsxCtx* c, void* o, const gsxAt* a) {
  gsSpecJoint* j = o;
  if (strcmp(a->name, "group") == 0) return gsx_int(c, a, &j->group);
  if (strcmp(a->name, "align") == 0) {
    static const char* const w[] = {"false", "true", "auto"};
    return gsx_keyword(c, a, w, 3, &j->align) ? GSX_OK : GSX_ERR;
  }
  return GSX_UNUSED;
}

/* ---- kinematic tree ---- */

typedef struct {
  gsSpecBody* body;
  int cls;        /* class for elements without class=: from the nearest childclass */
  int world;
  int ninertial_own;
  int* ninertial; /* <inertial> elements of the body, frames included */
  int framed;     /* inside <frame>: the children are placed by (fpos, fquat) in the body */
  gsReal fpos[3];
  gsReal fquat[4];
  gsSpecFrame* frame;  /* the innermost <frame> record the children are written in (NULL: none) */
} BodyWalk;

static int read_joint(gsxCtx* c, xmlNodePtr node, const gsxFile* src, BodyWalk* w) {
  int cls;
  if (!gsx_checkAttrs(c, node, src, "joint", 0)) return 0;
  if (!gsx_elementClass(c, node, src, "joint", "class", w->cls, &cls)) return 0;
  gsSpecJoint* j = gs_specAddJoint(w->body);
  if (!j) return gsx_oom(c);
  return gsx_setInfo(c, &j->info, node, src) && gsx_applyClass(c, cls, "joint", set_joint, j) &&
         gsx_applyOwn(c, node, src, "joint", set_joint, j, "name class") &&
         gsx_checkChildren(c, node, src, "joint");
}

/* <freejoint>: a free joint that takes no values from default classes */
static int read_freejoint(gsxCtx* c, xmlNodePtr node, const gsxFile* src, BodyWalk* w) {
  if (!gsx_checkAttrs(c, node, src, "freejoint", 0)) return 0;
  gsSpecJoint* j = gs_specAddJoint(w->body);
  if (!j) return gsx_oom(c);
  j->type = GS_JNT_FREE;
  return gsx_setInfo(c, &j->info, node, src) &&
         gsx_applyOwn(c, node, src, "freejoint", set_freejoint, j, "name") &&
         gsx_checkChildren(c, node, src, "freejoint");
}

static int read_geom(gsxCtx* c, xmlNodePtr node, const gsxFile* src, BodyWalk* w) {
  int cls;
  if (!gsx_checkAttrs(c, node, src, "geom", 0)) return 0;
  if (!gsx_elementClass(c, node, src, "geom", "class", w->cls, &cls)) return 0;
  gsSpecGeom* g = gs_specAddGeom(w->body);
  if (!g) return gsx_oom(c);
  return gsx_setInfo(c, &g->info, node, src) && gsx_applyClass(c, cls, "geom", set_geom, g) &&
         gsx_applyOwn(c, node, src, "geom", set_geom, g, "name class") &&
         gsx_checkChildren(c, node, src, "geom");
}

static int read_site(gsxCtx* c, xmlNodePtr node, const gsxFile* src, BodyWalk* w) {
  int cls;
  if (!gsx_checkAttrs(c, node, src, "site", 0)) return 0;
  if (!gsx_elementClass(c, node, src, "site", "class", w->cls, &cls)) return 0;
  gsSpecSite* s = gs_specAddSite(w->body);
  if (!s) return gsx_oom(c);
  return gsx_setInfo(c, &s->info, node, src) && gsx_applyClass(c, cls, "site", set_site, s) &&
         gsx_applyOwn(c, node, src, "site", set_site, s, "name class") &&
         gsx_checkChildren(c, node, src, "site");
}

static int read_inertial(gsxCtx* c, xmlNodePtr node, const gsxFile* src, BodyWalk* w) {
  int line = gsx_line(node);
  if ((*w->ninertial)++ > 0)
    return gsx_error(c, src->name, line, "inertial", "more than one <inertial> in a body");
  if (!gsx_checkAttrs(c, node, src, "inertial", 0)) return 0;
  static const char* const kRequired[] = {"pos", "mass"};
  for (int i = 0; i < 2; i++)
    if (!gsx_hasAttr(node, kRequired[i]))
      return gsx_error(c, src->name, line, "inertial", "missing required attribute '%s'",
                       kRequired[i]);
  int diag = gsx_hasAttr(node, "diaginertia"), full = gsx_hasAttr(node, "fullinertia");
  if (!diag && !full)
    return gsx_error(c, src->name, line, "inertial",
                     "missing required attribute 'diaginertia' (or 'fullinertia')");
  if (diag && full)
    return gsx_error(c, src->name, line, "inertial",
                     "diaginertia and fullinertia cannot both be given");
  if (full) {
    /* a full inertia matrix already says how the inertia is oriented */
    static const char* const kOrient[] = {"quat", "axisangle", "euler", "xyaxes", "zaxis"};
    for (int i = 0; i < 5; i++)
      if (gsx_hasAttr(node, kOrient[i]))
        return gsx_error(c, src->name, line, "inertial",
                         "fullinertia and %s cannot both be given", kOrient[i]);
  }
  gsSpecInertial* in = &w->body->inertial;
  in->given = 1;
  return gsx_applyOwn(c, node, src, "inertial", set_inertial, in, NULL) &&
         gsx_checkChildren(c, node, src, "inertial");
}

static int read_body(gsxCtx* c, xmlNodePtr node, const gsxFile* src, BodyWalk* parent);
static int read_frame(gsxCtx* c, xmlNodePtr node, const gsxFile* src, BodyWalk* parent);
static int read_replicate(gsxCtx* c, xmlNodePtr node, const gsxFile* src, BodyWalk* parent);
static void frame_vector(const BodyWalk* w, gsReal v[3]);
static void frame_point(const BodyWalk* w, gsReal p[3]);
static int frame_pose(gsxCtx* c, const BodyWalk* w, gsReal pos[3], gsOrientation* o,
                      const gsxFile* src, xmlNodePtr node);

static int body_child(gsxCtx* c, xmlNodePtr ch, const gsxFile* src, void* user) {
  BodyWalk* w = user;
  const char* name = gsx_name(ch);
  const char* parent = w->world ? "worldbody" : "body";
  int line = gsx_line(ch);
  if (!gsx_isElement(name)) return gsx_error(c, src->name, line, name, "unknown element");
  if (!gsx_childAllowed(parent, name))
    return gsx_error(c, src->name, line, name, "element is not allowed in <%s>", parent);
  int joint = strcmp(name, "joint") == 0, freejoint = strcmp(name, "freejoint") == 0;
  if (w->world && (joint || freejoint))
    return gsx_error(c, src->name, line, name, "joint on the world body");
  if (w->world && strcmp(name, "inertial") == 0)
    return gsx_error(c, src->name, line, name, "inertial on the world body");
  if (strcmp(name, "frame") == 0) return read_frame(c, ch, src, w);
  if (strcmp(name, "replicate") == 0) return read_replicate(c, ch, src, w);
  if (strcmp(name, "attach") == 0) {  /* sub-models: xml_attach.c */
    gsxAttachFrame f = {w->framed, {w->fpos[0], w->fpos[1], w->fpos[2]},
                        {w->fquat[0], w->fquat[1], w->fquat[2], w->fquat[3]}, w->frame};
    return gsx_attach(c, ch, src, w->body, &f);
  }
  /* what the element adds to the body, for a frame to place it */
  gsSpecBody* b = w->body;
  int n0[6] = {b->nchild, b->njoint, b->ngeom, b->nsite, b->ncamera, b->nlight};
  int r;
  if (strcmp(name, "body") == 0) r = read_body(c, ch, src, w);
  else if (joint) r = read_joint(c, ch, src, w);
  else if (freejoint) r = read_freejoint(c, ch, src, w);
  /* geoms and sites: the world slice reads their material, mesh and hfield */
  else if (strcmp(name, "geom") == 0)
    r = read_geom(c, ch, src, w) && gsx_readWorldBodyChild(c, ch, src, b, w->cls);
  else if (strcmp(name, "site") == 0)
    r = read_site(c, ch, src, w) && gsx_readWorldBodyChild(c, ch, src, b, w->cls);
  else if (strcmp(name, "inertial") == 0) r = read_inertial(c, ch, src, w);
  else if (strcmp(name, "composite") == 0) r = gsx_readComposite(c, ch, src, b);  /* cable */
  else {
    r = gsx_readWorldBodyChild(c, ch, src, w->body, w->cls);  /* camera, light */
    /* replicate, attach, composite, flexcomp, plugin */
    if (r < 0) return gsx_skipElement(c, ch, src);
  }
  if (!r || !w->framed) return r;
  for (int i = n0[0]; i < b->nchild; i++) {
    gsSpecBody* child = b->child[i];
    if (!frame_pose(c, w, child->pos, &child->orient, src, ch)) return 0;
    child->framed = 1;  /* remembered for an attach of the child */
    child->inframe = w->frame;
    gs_copy3(child->frame_pos, w->fpos);
    gs_copy4(child->frame_quat, w->fquat);
  }
  /* each remembers its frame record, so that the spec API gives its pose in the frame */
  for (int i = n0[1]; i < b->njoint; i++) {
    gsSpecJoint* j = b->joint[i];
    frame_point(w, j->pos);
    frame_vector(w, j->axis);
    j->frame = w->frame;
  }
  for (int i = n0[2]; i < b->ngeom; i++) {
    gsSpecGeom* g = b->geom[i];
    if (gs_fromtoPosClash(g->type, g->has_fromto, g->pos))
      return gsx_error(c, src->name, g->info.line, "geom", "both pos and fromto defined");
    gs_fromtoPose(g->type, g->size, g->pos, &g->orient, &g->has_fromto, g->fromto);
    if (!frame_pose(c, w, g->pos, &g->orient, src, ch)) return 0;
    g->frame = w->frame;
  }
  for (int i = n0[3]; i < b->nsite; i++) {
    gsSpecSite* s = b->site[i];
    if (gs_fromtoPosClash(s->type, s->has_fromto, s->pos))
      return gsx_error(c, src->name, s->info.line, "site", "both pos and fromto defined");
    gs_fromtoPose(s->type, s->size, s->pos, &s->orient, &s->has_fromto, s->fromto);
    if (!frame_pose(c, w, s->pos, &s->orient, src, ch)) return 0;
    s->frame = w->frame;
  }
  for (int i = n0[4]; i < b->ncamera; i++) {
    if (!frame_pose(c, w, b->camera[i]->pos, &b->camera[i]->orient, src, ch)) return 0;
    b->camera[i]->frame = w->frame;
  }
  for (int i = n0[5]; i < b->nlight; i++) {
    frame_point(w, b->light[i]->pos);
    frame_vector(w, b->light[i]->dir);
    b->light[i]->frame = w->frame;
  }
  /* an <inertial> in a frame stays in body coordinates, as in MJCF */
  return 1;
}

/* ---- <frame>: a pose composed into its children, which belong to the enclosing body ---- */

/* an orientation as a unit quaternion, with the compiler's angle unit and euler sequence (known
 * after the first pass) */
static int orient_quat(gsxCtx* c, gsReal q[4], const gsOrientation* o, const gsxFile* src,
                       xmlNodePtr node) {
  gsCompileCtx cc;
  memset(&cc, 0, sizeof(cc));
  cc.spec = c->spec;
  cc.err = c->err;
  cc.errsz = c->errsz;
  gsSpecInfo info = {NULL, src->name, gsx_line(node)};
  if (gs_compileOrientation(&cc, q, o, &info, gsx_name(node))) return 1;
  c->failed = 1;  /* the message is in c->err */
  return 0;
}

static void frame_vector(const BodyWalk* w, gsReal v[3]) {
  gsReal r[3];
  gs_rotVecQuat(r, v, w->fquat);
  gs_copy3(v, r);
}

static void frame_point(const BodyWalk* w, gsReal p[3]) {
  frame_vector(w, p);
  gs_add3(p, p, w->fpos);
}

/* a child pose (pos, orientation) given in the frame, made relative to the body */
static int frame_pose(gsxCtx* c, const BodyWalk* w, gsReal pos[3], gsOrientation* o,
                      const gsxFile* src, xmlNodePtr node) {
  gsReal q[4], r[4];
  if (!orient_quat(c, q, o, src, node)) return 0;
  gs_mulQuat(r, w->fquat, q);
  gs_normalize4(r);
  /* the other forms are kept, as the element's own orientation attributes leave them */
  o->type = GS_ORIENT_QUAT;
  gs_copy4(o->quat, r);
  frame_point(w, pos);
  return 1;
}

/* the body keeps a record of each <frame> (gsSpecFrame: its name, where it is written, its pose as
 * written and as placed in the body, w's), so that a copy of its subtree (<attach body=...>)
 * brings it along and MJCF written back names it; names, like those of other elements, are used
 * once */
static gsSpecFrame* frame_record(gsxCtx* c, xmlNodePtr node, const gsxFile* src, BodyWalk* w,
                                 const gsReal pos[3], const gsReal quat[4]) {
  gsSpecFrame* rec = gs_specAddFrame(w->body, w->frame);
  if (!rec) {
    gsx_oom(c);
    return NULL;
  }
  rec->info.file = src->name;
  rec->info.line = gsx_line(node);
  gs_copy3(rec->pos, pos);
  gs_copy4(rec->quat, quat);
  gs_copy3(rec->bpos, w->fpos);
  gs_copy4(rec->bquat, w->fquat);
  rec->placed = 1;
  w->frame = rec;
  return rec;
}

static int frame_name(gsxCtx* c, xmlNodePtr node, const gsxFile* src, BodyWalk* w,
                      const gsReal pos[3], const gsReal quat[4]) {
  gsSpecFrame* rec = frame_record(c, node, src, w, pos, quat);
  if (!rec) return 0;
  xmlChar* given = gsx_getAttr(c, node, "name");
  if (!given) return 1;
  char* name = NULL;  /* inside replicates, the replica's name */
  if (!gsx_replicaName(c, (const char*)given, &name)) {
    xmlFree(given);
    return gsx_oom(c);
  }
  xmlFree(given);
  gsSpec* s = c->spec;
  int ok = 1;
  for (int i = 0; i < s->nframename && ok; i++)
    if (strcmp(s->framename[i], (const char*)name) == 0)
      ok = gsx_error(c, src->name, gsx_line(node), "frame", "repeated name '%.60s'",
                     (const char*)name);
  char* copy = NULL;
  if (ok && (!gs_specSetString(&copy, (const char*)name) ||
             !gs_specPush((void***)&s->framename, &s->nframename, &s->nframename_cap, copy))) {
    free(copy);
    ok = gsx_oom(c);
  }
  if (ok && !gs_specSetString(&rec->info.name, (const char*)name)) ok = gsx_oom(c);
  free(name);
  return ok;
}

/* w (a copy of parent) takes the pose (pos, quat) given in parent's frame: nested frames compose,
 * the parent's pose first */
static void compose_frame(BodyWalk* w, const BodyWalk* parent, const gsReal pos[3], const gsReal quat[4]) {
  if (!parent->framed) {
    gs_zero3(w->fpos);
    gs_unitQuat(w->fquat);
  }
  w->framed = 1;
  gsReal p[3];
  gs_rotVecQuat(p, pos, w->fquat);
  gs_add3(w->fpos, w->fpos, p);
  gs_mulQuat(w->fquat, w->fquat, quat);
  gs_normalize4(w->fquat);
}

static int read_frame(gsxCtx* c, xmlNodePtr node, const gsxFile* src, BodyWalk* parent) {
  BodyWalk w = *parent;
  if (!gsx_checkAttrs(c, node, src, "frame", 0)) return 0;
  /* childclass, or class (which MJCF reads the same way on a frame) */
  const char* clsattr = gsx_hasAttr(node, "childclass") ? "childclass" : "class";
  if (!gsx_elementClass(c, node, src, "frame", clsattr, parent->cls, &w.cls)) return 0;
  /* pos and orientation read like a body's, on a scratch body */
  gsSpecBody tmp;
  memset(&tmp, 0, sizeof(tmp));
  gs_orientSetQuat(&tmp.orient, NULL);
  gsReal q[4], pos[3];
  if (!gsx_applyOwn(c, node, src, "frame", set_body, &tmp, "name childclass class") ||
      !orient_quat(c, q, &tmp.orient, src, node))
    return 0;
  gs_copy3(pos, tmp.pos);
  compose_frame(&w, parent, pos, q);
  if (!frame_name(c, node, src, &w, pos, q)) return 0;
  return gsx_eachChild(c, node, src, body_child, &w);
}

/* ---- <replicate>: its children read count times into the enclosing body, replica i placed by the
 * i-th power of the step (offset, then euler), composed into the enclosing frame like a <frame>;
 * names take the replica's suffix (xml_replicate.c) ---- */

static int replicate_attr(gsxCtx* c, void* o, const gsxAt* a) {
  gsReal* step = o;  /* offset[3], euler[3], count, then sep is read by the caller */
  if (strcmp(a->name, "offset") == 0) return gsx_reals(c, a, step, 3, 3, NULL) ? GSX_OK : GSX_ERR;
  if (strcmp(a->name, "euler") == 0) return gsx_reals(c, a, step + 3, 3, 3, NULL) ? GSX_OK : GSX_ERR;
  if (strcmp(a->name, "count") == 0) {
    int n;
    if (!gsx_int(c, a, &n)) return GSX_ERR;
    if (n <= 0) return gsx_attrError(c, a, "the number of replicas must be positive, got %d", n);
    if (n > GSX_MAX_REPLICAS) return gsx_attrError(c, a, "%d replicas: at most %d", n, GSX_MAX_REPLICAS);
    step[6] = n;
    return GSX_OK;
  }
  if (strcmp(a->name, "sep") == 0) return GSX_OK;
  /* MJCF 3.3.7 reads prefix and names nothing with it: the replicas' names take only the
   * suffixes (two replicates of one name under different prefixes are a repeated name there) */
  if (strcmp(a->name, "prefix") == 0) return GSX_OK;
  return GSX_UNUSED;
}

/* a replica's children: anything a body holds but joints, which would pile up in the enclosing body */
static int replica_child(gsxCtx* c, xmlNodePtr ch, const gsxFile* src, void* user) {
  const char* name = gsx_name(ch);
  if (strcmp(name, "joint") == 0 || strcmp(name, "freejoint") == 0)
    return gsx_error(c, src->name, gsx_line(ch), name,
                     "joints cannot be direct children of <replicate>: wrap them in a body");
  return body_child(c, ch, src, user);
}

static int read_replicate(gsxCtx* c, xmlNodePtr node, const gsxFile* src, BodyWalk* parent) {
  int line = gsx_line(node);
  if (c->nrep == GSX_MAX_REPLICATE_DEPTH)
    return gsx_error(c, src->name, line, "replicate", "replicates nested deeper than %d", GSX_MAX_REPLICATE_DEPTH);
  if (!gsx_checkAttrs(c, node, src, "replicate", 0)) return 0;
  gsReal step[7] = {0, 0, 0, 0, 0, 0, 0};
  if (!gsx_applyOwn(c, node, src, "replicate", replicate_attr, step, "")) return 0;
  int count = (int)step[6];
  if (count <= 0) return gsx_error(c, src->name, line, "replicate", "missing required attribute 'count'");
  if (c->replicas * (long long)count > GSX_MAX_REPLICAS)
    return gsx_error(c, src->name, line, "replicate", "nested replicates make more than %d replicas",
                     GSX_MAX_REPLICAS);
  gsOrientation o;
  memset(&o, 0, sizeof(o));
  o.type = GS_ORIENT_EULER;
  gs_copy3(o.euler, step + 3);
  gsReal dq[4];
  if (!orient_quat(c, dq, &o, src, node)) return 0;
  xmlChar* sep = gsx_getAttr(c, node, "sep");
  char* sepcopy = NULL;
  if (!gs_specSetString(&sepcopy, sep ? (const char*)sep : "")) {
    if (sep) xmlFree(sep);
    return gsx_oom(c);
  }
  if (sep) xmlFree(sep);
  int digits = 1;
  for (int n = count; n >= 10; n /= 10) digits++;
  int k = c->nrep++;
  if (k == 0) c->repgroup++;  /* a new outermost replicate: references are replicated along one */
  c->rep[k].sep = sepcopy;
  c->rep[k].digits = digits;
  long long outer = c->replicas;
  c->replicas = outer * count;
  /* replica i's pose in the enclosing frame: (pos, quat) = step^i */
  gsReal pos[3] = {0, 0, 0}, quat[4] = {1, 0, 0, 0};
  int ok = 1;
  for (int i = 0; ok && i < count; i++) {
    c->rep[k].index = i;
    BodyWalk w = *parent;
    compose_frame(&w, parent, pos, quat);
    /* each replica is an unnamed frame, as in MJCF's spec */
    ok = frame_record(c, node, src, &w, pos, quat) && gsx_eachChild(c, node, src, replica_child, &w);
    /* the next replica: this one's frame, then the step */
    gsReal p[3];
    gs_rotVecQuat(p, step, quat);
    gs_add3(pos, pos, p);
    gsReal q[4];
    gs_mulQuat(q, quat, dq);
    gs_normalize4(q);
    gs_copy4(quat, q);
  }
  c->nrep--;
  c->replicas = outer;
  free(c->rep[k].sep);
  c->rep[k].sep = NULL;
  return ok;
}

static int read_body(gsxCtx* c, xmlNodePtr node, const gsxFile* src, BodyWalk* parent) {
  BodyWalk w;
  memset(&w, 0, sizeof(w));
  w.cls = parent->cls;
  w.ninertial = &w.ninertial_own;
  if (!gsx_checkAttrs(c, node, src, "body", 0)) return 0;
  /* childclass applies to everything below this body */
  if (!gsx_elementClass(c, node, src, "body", "childclass", parent->cls, &w.cls)) return 0;
  w.body = gs_specAddBody(parent->body);
  if (!w.body) return gsx_oom(c);
  return gsx_setInfo(c, &w.body->info, node, src) &&
         gsx_applyOwn(c, node, src, "body", set_body, w.body, "name childclass") &&
         gsx_eachChild(c, node, src, body_child, &w);
}

static int read_worldbody(gsxCtx* c, xmlNodePtr node, const gsxFile* src) {
  gsSpecBody* world = c->spec->world;
  if (!gsx_checkAttrs(c, node, src, "worldbody", 0)) return 0;
  if (!world->info.file) {
    world->info.file = src->name;
    world->info.line = gsx_line(node);
  }
  BodyWalk w;
  memset(&w, 0, sizeof(w));
  w.body = world;
  w.cls = 0;  /* "main" */
  w.world = 1;
  w.ninertial = &w.ninertial_own;
  return gsx_eachChild(c, node, src, body_child, &w);
}

/* ---- <default> ---- */

static int read_default(gsxCtx* c, xmlNodePtr node, const gsxFile* src, int parent);

/* store the attributes of a default element in class cls */
int gsx_storeDefault(gsxCtx* c, xmlNodePtr node, const gsxFile* src, int cls) {
  int line = gsx_line(node);
  for (xmlAttrPtr at = node->properties; at; at = at->next) {
    if (!gsx_isMjcfAttr(at)) continue;
    xmlChar* v = gsx_attrValue(c, at);
    if (!v) return gsx_oom(c);
    gsxAttr a = {(char*)at->name, (char*)v, src->name, line};
    int ok = gsx_classAddAttr(&c->defs, cls, gsx_name(node), &a);
    xmlFree(v);
    if (!ok) return gsx_oom(c);
  }
  return 1;
}

/* a <default>'s children in two passes, as MJCF reads them: its own element values first, then
 * the classes inside it, wherever they are written (a class is a copy of its parent when made) */
typedef struct {
  int cls, classes;
} DefaultPass;

static int default_child(gsxCtx* c, xmlNodePtr ch, const gsxFile* src, void* user) {
  const DefaultPass* pass = user;
  int cls = pass->cls;
  const char* name = gsx_name(ch);
  int line = gsx_line(ch);
  int is_class = strcmp(name, "default") == 0;
  if (pass->classes) return is_class ? read_default(c, ch, src, cls) : 1;
  if (is_class) return 1;
  if (!gsx_isElement(name)) return gsx_error(c, src->name, line, name, "unknown element");
  if (!gsx_childAllowed("default", name))
    return gsx_error(c, src->name, line, name, "element is not allowed in <default>");

  gsxSetFn fn = strcmp(name, "joint") == 0  ? set_joint
             : strcmp(name, "geom") == 0 ? set_geom
             : strcmp(name, "site") == 0 ? set_site
                                         : NULL;
  if (!fn) {
    /* the slices check the values of their own kinds (actuators, tendons, cameras, ...) */
    int r = gsx_checkDefaultActuation(c, ch, src);
    if (r < 0) r = gsx_checkDefaultSensing(c, ch, src);
    if (r < 0) r = gsx_checkDefaultWorld(c, ch, src);
    if (r >= 0) return r && gsx_storeDefault(c, ch, src, cls) && gsx_checkChildren(c, ch, src, name);
    /* kept for when the element is simulated; nothing uses it yet */
    return gsx_storeDefault(c, ch, src, cls) && gsx_skipElement(c, ch, src);
  }
  /* check the values now, where the line is known, on a scratch element */
  union {
    gsSpecJoint j;
    gsSpecGeom g;
    gsSpecSite s;
  } scratch;
  memset(&scratch, 0, sizeof(scratch));
  int ok = gsx_checkAttrs(c, ch, src, name, 1) && gsx_applyOwn(c, ch, src, name, fn, &scratch, NULL);
  /* user= allocates its array, also in the scratch element */
  free(fn == set_joint ? scratch.j.user : fn == set_geom ? scratch.g.user : scratch.s.user);
  return ok && gsx_storeDefault(c, ch, src, cls) && gsx_checkChildren(c, ch, src, name);
}

/* parent: index of the enclosing class, -1 for the top-level <default> (the class "main") */
static int read_default(gsxCtx* c, xmlNodePtr node, const gsxFile* src, int parent) {
  int line = gsx_line(node), cls;
  if (!gsx_checkAttrs(c, node, src, "default", 0)) return 0;
  xmlChar* name = gsx_getAttr(c, node, "class");
  if (parent < 0) {
    if (name && strcmp((const char*)name, "main") != 0) {
      gsx_error(c, src->name, line, "default",
                "the top-level default class is 'main' and cannot be renamed to '%s'",
                (const char*)name);
      xmlFree(name);
      return 0;
    }
    cls = 0;  /* repeated top-level <default> sections add to "main" */
  } else {
    if (!name)
      return gsx_error(c, src->name, line, "default", "missing required attribute 'class'");
    if (gsx_classFind(&c->defs, (const char*)name) >= 0) {
      gsx_error(c, src->name, line, "default", "duplicate class '%.60s'", (const char*)name);
      xmlFree(name);
      return 0;
    }
    cls = gsx_classAdd(&c->defs, (const char*)name, parent);
    if (cls < 0) {
      xmlFree(name);
      return gsx_oom(c);
    }
  }
  xmlFree(name);
  DefaultPass values = {cls, 0}, classes = {cls, 1};
  return gsx_eachChild(c, node, src, default_child, &values) &&
         gsx_eachChild(c, node, src, default_child, &classes);
}

/* ---- sections ---- */

static int flag_child(gsxCtx* c, xmlNodePtr ch, const gsxFile* src, void* user) {
  gsOption* o = user;
  const char* name = gsx_name(ch);
  int line = gsx_line(ch);
  if (!gsx_isElement(name)) return gsx_error(c, src->name, line, name, "unknown element");
  if (strcmp(name, "flag") != 0)
    return gsx_error(c, src->name, line, name, "element is not allowed in <option>");
  return gsx_checkAttrs(c, ch, src, "flag", 0) && gsx_applyOwn(c, ch, src, "flag", set_flag, o, NULL) &&
         gsx_checkChildren(c, ch, src, "flag");
}

/* first pass over the top level: the sections that the rest depends on, wherever they are */
static int top_settings(gsxCtx* c, xmlNodePtr ch, const gsxFile* src, void* user) {
  (void)user;
  const char* name = gsx_name(ch);
  int line = gsx_line(ch);
  if (!gsx_isElement(name)) return gsx_error(c, src->name, line, name, "unknown element");
  /* a file of bodies meant for an <include> inside <worldbody>, loaded on its own (Gymnasium-
   * Robotics' hand/robot.xml, fetch/robot.xml): MJCF accepts <body> and <frame> here and leaves
   * them out of the model */
  if (strcmp(name, "body") == 0 || strcmp(name, "frame") == 0) {
    gsx_warn(c, src->name, line, "<%s> directly in <mujoco>, not in <worldbody>: not part of the "
             "model (as in MJCF)", name);
    return 1;
  }
  if (!gsx_childAllowed("mujoco", name))
    return gsx_error(c, src->name, line, name, "element is not allowed in <mujoco>");
  if (strcmp(name, "compiler") == 0)
    return gsx_checkAttrs(c, ch, src, name, 0) &&
           gsx_applyOwn(c, ch, src, name, set_compiler, &c->spec->compiler, NULL) &&
           gsx_eachChild(c, ch, src, compiler_child, &c->spec->compiler);
  if (strcmp(name, "option") == 0)
    return gsx_checkAttrs(c, ch, src, name, 0) &&
           gsx_applyOwn(c, ch, src, name, set_option, &c->spec->option, NULL) &&
           gsx_eachChild(c, ch, src, flag_child, &c->spec->option);
  if (strcmp(name, "size") == 0) {
    /* memory and a legacy size on one element: refused whatever their order, as in MJCF (across
     * elements the order decides: xml_sensing.c) */
    int both = 0;
    xmlChar* mem = gsx_getAttr(c, ch, "memory");
    for (int k = 0; k < 2 && mem && strcmp((const char*)mem, "-1") != 0; k++) {
      xmlChar* v = gsx_getAttr(c, ch, k ? "nstack" : "njmax");  /* -1: not given */
      both |= v && strtol((const char*)v, NULL, 10) != -1;
      xmlFree(v);
    }
    xmlFree(mem);
    if (both)
      return gsx_error(c, src->name, line, name, "memory and njmax or nstack cannot both be given");
  }
  if (strcmp(name, "size") == 0)
    return gsx_checkAttrs(c, ch, src, name, 0) &&
           gsx_applyOwn(c, ch, src, name, set_size, c->spec, NULL) && gsx_checkChildren(c, ch, src, name);
  if (strcmp(name, "default") == 0) return read_default(c, ch, src, -1);
  if (strcmp(name, "asset") == 0) return gsx_readModels(c, ch, src);  /* <model>: xml_attach.c */
  return 1;
}

/* second pass: the kinematic tree; every other section is skipped with a warning */
static int top_model(gsxCtx* c, xmlNodePtr ch, const gsxFile* src, void* user) {
  (void)user;
  const char* name = gsx_name(ch);
  if (strcmp(name, "worldbody") == 0) return read_worldbody(c, ch, src);
  if (strcmp(name, "compiler") == 0 || strcmp(name, "option") == 0 ||
      strcmp(name, "size") == 0 || strcmp(name, "default") == 0 || strcmp(name, "body") == 0 ||
      strcmp(name, "frame") == 0)
    return 1;
  /* the slices read their own sections: <tendon> <actuator>; <sensor> <equality> <keyframe>
   * <custom>; <asset> <contact> <visual> <statistic> */
  int r = gsx_readActuationSection(c, ch, src);
  if (r < 0) r = gsx_readSensingSection(c, ch, src);
  if (r < 0) r = gsx_readWorldSection(c, ch, src);
  if (r >= 0) return r;
  return gsx_skipElement(c, ch, src);
}

static int read_mujoco(gsxCtx* c, const gsxFile* f) {
  xmlNodePtr root = xmlDocGetRootElement(f->doc);
  int line = gsx_line(root);
  /* URDF: MJCF's loaders read it too (urdf_read.c) */
  if (strcmp(gsx_name(root), "robot") == 0) return gsx_readURDF(c, f);
  if (strcmp(gsx_name(root), "mujoco") != 0)
    return gsx_error(c, f->name, line, gsx_name(root), "the root element must be <mujoco> (MJCF) or <robot> (URDF)");
  if (!gsx_checkAttrs(c, root, f, "mujoco", 0)) return 0;
  xmlChar* model = gsx_getAttr(c, root, "model");
  if (model) {
    size_t n = strlen((const char*)model) + 1;
    c->spec->modelname = malloc(n);
    if (c->spec->modelname) memcpy(c->spec->modelname, model, n);
    xmlFree(model);
    if (!c->spec->modelname) return gsx_oom(c);
  }
  /* compiler, option and defaults first, as they apply to the whole model */
  return gsx_eachChild(c, root, f, top_settings, NULL) &&
         gsx_eachChild(c, root, f, top_model, NULL);
}

/* ---- public API ---- */

/* confined loading: files may come from the model's directory, as the disk really lays it out */
static int confine_root(gsxCtx* c, const char* path) {
  const char* slash = strrchr(path, '/');
  char dir[PATH_MAX];
  if (!slash)
    snprintf(dir, sizeof dir, ".");
  else if (snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path) >=
           (int)sizeof dir)
    return errno = ENAMETOOLONG, 0;
  char real[PATH_MAX];
  if (!realpath(dir, real)) return 0;
  size_t n = strlen(real) + 1;
  c->root = malloc(n);
  if (!c->root) return errno = ENOMEM, 0;
  memcpy(c->root, real, n);
  return 1;
}

/* the slices' attribute tables, asked by the schema in this order */
static const gsxAttrsFn kSliceAttrs[] = {gsx_attrsActuation, gsx_attrsSensing, gsx_attrsWorld,
                                         NULL};

static gsSpec* parse_model(gsxCtx* outer, const char* path, const char* file, int line);

/* outer: the model attaching this one (parse_model), NULL for the main file */
static gsSpec* parse_in(const char* path, const char* xml, const gsVFS* vfs, int flags, char* err,
                        int errsz, gsxCtx* outer, const char* from_file, int from_line) {
  if (!outer) {
    if (err && errsz > 0) err[0] = 0;
    g_warnings[0] = 0;
  }
  xmlInitParser();

  gsxCtx c;
  memset(&c, 0, sizeof(c));
  c.outer = outer;
  c.parse_model = parse_model;
  c.err = err;
  c.errsz = errsz;
  c.vfs = vfs;
  c.confined = (flags & GS_LOAD_CONFINED) != 0;
  c.attrs = kSliceAttrs;
  c.spec = gs_specNew();
  if (!c.spec) {
    gsx_oom(&c);
    return NULL;
  }
  if (gsx_classAdd(&c.defs, "main", -1) != 0) gsx_oom(&c);

  /* model-level messages of the compiler name the file */
  c.spec->file = gs_specIntern(c.spec, path ? path : "<string>");
  if (!c.spec->file) gsx_oom(&c);
  c.spec->size_memory = c.spec->size_nconmax = c.spec->size_njmax = c.spec->size_nstack = -1;
  c.replicas = 1;  /* the product of the counts of the replicates being read */
  if (outer && outer->root && !(c.root = strdup(outer->root))) gsx_oom(&c);
  if (!c.failed && path && c.confined && !c.root && !confine_root(&c, path))
    gsx_error(&c, path, 0, NULL, "cannot read file: %s", strerror(errno));

  gsxFile* f = NULL;
  if (!c.failed && outer) {
    /* a sub-model's file that cannot be read is an error at its <model> element */
    void* data = NULL;
    size_t n = 0;
    if (!gsx_readAsset(&c, path, &data, &n))
      gsx_error(&c, from_file, from_line, "model", "cannot read file '%s': %s", path, gsx_readError(&c));
    free(data);
  }
  if (!c.failed && path)
    f = gsx_loadFile(&c, path, NULL, 0);
  else if (!c.failed && xml)
    f = gsx_loadString(&c, xml, strlen(xml), "<string>", ".", NULL);
  else if (!c.failed)
    gsx_error(&c, NULL, 0, NULL, "no XML given");
  if (f) {
    if (f->canon) c.incstack[c.ninc++] = f->canon;  /* a file including itself is a cycle */
    c.canon = f->canon;
    /* a sub-model that is (or attaches) one of the models attaching it; a runaway chain */
    int depth = 0;
    for (const gsxCtx* o = outer; o && !c.failed; o = o->outer, depth++)
      if (o->canon && f->canon && strcmp(o->canon, f->canon) == 0)
        gsx_error(&c, from_file, from_line, "model", "'%s' attaches itself (a cycle of models)", path);
    if (!c.failed && depth > GSX_MAX_INCLUDE_DEPTH)
      gsx_error(&c, from_file, from_line, "model", "sub-models nest more than %d deep",
                GSX_MAX_INCLUDE_DEPTH);
    xmlNodePtr root = xmlDocGetRootElement(f->doc);
    if (!c.failed && (flags & GSX_PARSE_URDF) && strcmp(gsx_name(root), "robot") != 0)  /* gs_loadURDF */
      gsx_error(&c, f->name, gsx_line(root), gsx_name(root), "the root element of URDF must be <robot>");
    else if (!c.failed && read_mujoco(&c, f) && !c.failed && gsx_replicateReferences(&c))
      gsx_attachFinish(&c);
    if (!c.failed && !outer) gsx_warnOlderConvex(&c);
  }

  /* before the spec goes: warnings point into its string pool */
  if (!outer) {
    gsx_formatWarnings(&c, g_warnings, sizeof(g_warnings));
  } else {
    for (int i = 0; i < c.nwarn; i++) {
      const char* file = c.warn[i].file ? gs_specIntern(outer->spec, c.warn[i].file) : NULL;
      gsx_warn(outer, file, c.warn[i].line, "%s", c.warn[i].text);
    }
    if (c.failed) outer->failed = 1;
  }
  gsx_attachFree(&c);
  gsSpec* spec = c.spec;
  if (c.failed) {
    gs_specFree(spec);
    spec = NULL;
  }
  free(c.root);
  gsx_ctxFree(&c);
  return spec;
}

gsSpec* gsx_parse(const char* path, const char* xml, const gsVFS* vfs, int flags, char* err,
                  int errsz) {
  return parse_in(path, xml, vfs, flags, err, errsz, NULL, NULL, 0);
}

static gsSpec* parse_model(gsxCtx* outer, const char* path, const char* file, int line) {
  return parse_in(path, NULL, outer->vfs, outer->confined ? GS_LOAD_CONFINED : 0, outer->err,
                  outer->errsz, outer, file, line);
}

gsSpec* gs_parseXML(const char* path, char* err, int errsz) {
  if (!path) {
    if (err && errsz > 0) snprintf(err, (size_t)errsz, "no file given");
    return NULL;
  }
  return gsx_parse(path, NULL, NULL, 0, err, errsz);
}

gsSpec* gs_parseXMLString(const char* xml, char* err, int errsz) {
  return gsx_parse(NULL, xml, NULL, 0, err, errsz);
}

static gsModel* compile_and_free(gsSpec* spec, char* err, int errsz) {
  if (!spec) return NULL;
  gsModel* m = gs_compile(spec, err, errsz);
  gs_specFree(spec);
  return m;
}

gsModel* gs_loadXML(const char* path, char* err, int errsz) {
  return compile_and_free(gs_parseXML(path, err, errsz), err, errsz);
}

gsModel* gs_loadXMLString(const char* xml, char* err, int errsz) {
  return compile_and_free(gs_parseXMLString(xml, err, errsz), err, errsz);
}

gsModel* gs_loadXMLVFS(const char* path, const gsVFS* vfs, char* err, int errsz) {
  if (!path) {
    if (err && errsz > 0) snprintf(err, (size_t)errsz, "no file given");
    return NULL;
  }
  return compile_and_free(gsx_parse(path, NULL, vfs, 0, err, errsz), err, errsz);
}

gsModel* gs_loadXMLStringVFS(const char* xml, const gsVFS* vfs, char* err, int errsz) {
  return compile_and_free(gsx_parse(NULL, xml, vfs, 0, err, errsz), err, errsz);
}

gsModel* gs_loadXMLOpt(const char* path, const char* xml, const gsVFS* vfs, int flags, char* err,
                       int errsz) {
  if ((path == NULL) == (xml == NULL)) {
    if (err && errsz > 0) snprintf(err, (size_t)errsz, "give exactly one of a path and XML text");
    return NULL;
  }
  return compile_and_free(gsx_parse(path, xml, vfs, flags, err, errsz), err, errsz);
}

gsSpec* gs_parseXMLOpt(const char* path, const char* xml, const gsVFS* vfs, int flags, char* err,
                       int errsz) {
  if ((path == NULL) == (xml == NULL)) {
    if (err && errsz > 0) snprintf(err, (size_t)errsz, "give exactly one of a path and XML text");
    return NULL;
  }
  return gsx_parse(path, xml, vfs, flags, err, errsz);
}

gsModel* gs_loadXMLWithAssets(const char* path, const char* const* names,
                              const void* const* data, const size_t* sizes, int n, char* err,
                              int errsz) {
  gsVFS* vfs = gs_vfsNew();
  if (!vfs) {
    if (err && errsz > 0) snprintf(err, (size_t)errsz, "out of memory");
    return NULL;
  }
  for (int i = 0; i < n; i++) {
    if (!gs_vfsAdd(vfs, names[i], data[i], sizes[i])) {
      if (err && errsz > 0)
        snprintf(err, (size_t)errsz, "cannot add the in-memory file '%.200s' (empty or repeated "
                 "name, or out of memory)", names[i] ? names[i] : "");
      gs_vfsFree(vfs);
      return NULL;
    }
  }
  gsModel* m = gs_loadXMLVFS(path, vfs, err, errsz);
  gs_vfsFree(vfs);
  return m;
}
