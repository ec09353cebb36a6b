/* MJCF composition by models: <model name file> in <asset> names a sub-model, read from its file
 * as a model of its own (its compiler settings, default classes and assets) where it is named;
 * <attach model body prefix> in a body, frame or replicate places a copy of one of its bodies
 * (or, without body=, the contents of its world body) there. What comes along, as MJCF 3.3.7
 * compiles it:
 * - the subtree, its pose composed with the enclosing frame, angles converted from the
 *   sub-model's units to the model's (orientations become quaternions);
 * - every mesh, height field, texture and material of the sub-model, once per model and prefix;
 * - the tendons, actuators, sensors, equalities, contact pairs and exclusions of the sub-model
 *   all of whose references are inside the subtree (with no body=, all of them), after the
 *   model's own elements of their kind;
 * - its keyframes, named with the prefix, holding the sub-model's values for the attached
 *   joints, actuators and mocap bodies and the model's defaults elsewhere (inside replicates:
 *   from the first replica only, and without controls and activations, as MJCF 3.3.7 does);
 * - names take the prefix, then the suffixes of the replicates being read;
 * - the sub-model's compiler settings that act per element: its angle unit and euler sequence
 *   (orientations converted here), meshdir and texturedir (its assets' files), autolimits
 *   (limited="auto" of its joints, tendons and actuators resolved here), alignfree (its free
 *   joints), and inertiafromgeom, boundmass, boundinertia and balanceinertia (kept by its bodies,
 *   gsSpecBody.own_mass). Its settotalmass, discardvisual and fusestatic are not used: MJCF applies
 *   the model's to the whole tree, attached parts included.
 * - its custom data (numeric, text, and the tuples naming only attached elements) and, with no
 *   body=, its frame names, as copy_custom and copy_frame_names say.
 * The sub-model's <option>, <size>, <visual> and <statistic> are not used. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/math.h"
#include "model/compile.h"
#include "model/spec_slices.h"
#include "xml_internal.h"

/* ---- <model> in <asset> (first pass) ---- */

/* file relative to dir (unless absolute), malloc'ed; NULL out of memory */
static char* resolve(const char* file, const char* dir) {
  while (file[0] == '.' && file[1] == '/') file += 2;
  size_t n = strlen(dir) + strlen(file) + 2;
  char* path = malloc(n);
  if (!path) return NULL;
  if (file[0] == '/' || strcmp(dir, ".") == 0) snprintf(path, n, "%s", file);
  else snprintf(path, n, "%s/%s", dir, file);
  return path;
}

static int model_child(gsxCtx* c, xmlNodePtr ch, const gsxFile* src, void* user) {
  (void)user;
  if (strcmp(gsx_name(ch), "model") != 0) return 1;
  int line = gsx_line(ch);
  if (!gsx_checkAttrList(c, ch, src, "model", "name file content_type") ||
      !gsx_requireAttr(c, ch, src, "model", "name") || !gsx_requireAttr(c, ch, src, "model", "file") ||
      !gsx_checkChildren(c, ch, src, "model"))
    return 0;
  xmlChar* name = gsx_getAttr(c, ch, "name");
  xmlChar* file = gsx_getAttr(c, ch, "file");
  int ok = name && file;
  for (int i = 0; ok && i < c->nmodel; i++)
    if (strcmp(c->model[i].name, (const char*)name) == 0)
      ok = gsx_error(c, src->name, line, "model", "repeated name '%.60s'", (const char*)name);
  if (ok && c->nmodel == c->capmodel) {
    int cap = c->capmodel ? 2 * c->capmodel : 4;
    struct gsxModel* p = realloc(c->model, sizeof(*p) * (size_t)cap);
    if (!p) ok = gsx_oom(c);
    else c->model = p, c->capmodel = cap;
  }
  if (ok) {
    struct gsxModel* m = &c->model[c->nmodel];
    memset(m, 0, sizeof(*m));
    m->name = malloc(strlen((const char*)name) + 1);
    /* relative to the directory of the file that names it (an included file's own), as MJCF
     * does when the model is loaded by an absolute path; MJCF also finds a relative one from the
     * working directory, which the engine does not look at */
    m->path = resolve((const char*)file, src->dir);
    if (!m->name || !m->path) {
      free(m->name);
      free(m->path);
      ok = gsx_oom(c);
    } else {
      strcpy(m->name, (const char*)name);
      m->file = src->name;
      m->line = line;
      c->nmodel++;
      /* read now, as MJCF does: a bad sub-model is an error even when nothing attaches it */
      m->spec = c->parse_model(c, m->path, m->file, m->line);
      ok = m->spec != NULL;
    }
  }
  xmlFree(name);
  xmlFree(file);
  return ok;
}

int gsx_readModels(gsxCtx* c, xmlNodePtr node, const gsxFile* src) {
  return gsx_eachChild(c, node, src, model_child, NULL);
}

void gsx_attachFree(gsxCtx* c) {
  gs_specFree(c->held);
  c->held = NULL;
  for (int i = 0; i < c->nmodel; i++) {
    free(c->model[i].name);
    free(c->model[i].path);
    gs_specFree(c->model[i].spec);
    for (int k = 0; k < c->model[i].nprefix; k++) free(c->model[i].prefix[k]);
    free(c->model[i].prefix);
  }
  free(c->model);
  c->model = NULL;
  c->nmodel = c->capmodel = 0;
  for (int i = 0; i < c->nattkey; i++) {
    if (c->attkey[i].key) gs_specFreeElement(GS_SK_KEY, c->attkey[i].key);
    free(c->attkey[i].jnt), free(c->attkey[i].act), free(c->attkey[i].jtype), free(c->attkey[i].asize);
    free(c->attkey[i].mocap);
  }
  free(c->attkey);
  c->attkey = NULL;
  free(c->origin);
  c->origin = NULL;
  c->norigin = c->caporigin = 0;
  c->nattkey = c->capattkey = 0;
}

/* ---- copying ---- */

/* the scratch spec holding what attaches bring, made on first use */
static gsSpec* held(gsxCtx* c) {
  if (!c->held) c->held = gs_specNew();
  return c->held;
}

/* one attach being made */
typedef struct {
  gsxCtx* c;
  const gsSpec* child;
  gsCompileCtx cc;        /* the sub-model's compiler settings, for its orientations */
  const char* prefix;
  const char* file;       /* the <attach> element, for messages */
  int line;
  gsReal angle;           /* factor from the sub-model's angle unit to the model's */
  /* the sub-model's elements copied, and their copies (by position in the child's lists) */
  int nmap, capmap;
  struct { const void* from; void* to; } * map;
} Attach;

static int map_add(Attach* a, const void* from, void* to) {
  if (a->nmap == a->capmap) {
    int cap = a->capmap ? 2 * a->capmap : 64;
    void* p = realloc(a->map, sizeof(*a->map) * (size_t)cap);
    if (!p) return 0;
    a->map = p;
    a->capmap = cap;
  }
  a->map[a->nmap].from = from;
  a->map[a->nmap].to = to;
  a->nmap++;
  return 1;
}

static void* map_find(const Attach* a, const void* from) {
  for (int i = a->nmap - 1; i >= 0; i--)
    if (a->map[i].from == from) return a->map[i].to;
  return NULL;
}

/* *s becomes prefix + *s (+ the replicas' suffixes when `replica`); NULL stays NULL. `info`: the
 * element so named, recorded inside replicates under prefix + name, so that the model's own
 * elements naming it are replicated along (MJCF 3.3.7 does so) */
static int prefixed_as(Attach* a, char** s, int replica, gsSpecInfo* info) {
  if (!*s) return 1;
  size_t n = strlen(a->prefix) + strlen(*s) + 1;
  char* t = malloc(n);
  if (!t) return 0;
  snprintf(t, n, "%s%s", a->prefix, *s);
  char* full = t;
  if (replica && a->c->nrep) {
    if (!gsx_replicaName(a->c, t, &full) || (info && !gsx_replicaRecord(a->c, info, t))) {
      free(full != t ? full : NULL);
      free(t);
      return 0;
    }
    free(t);
  }
  free(*s);
  *s = full;
  return 1;
}

static int prefixed(Attach* a, char** s, int replica) { return prefixed_as(a, s, replica, NULL); }

/* the copy's file name in the model's string pool (the sub-model's pool goes with it) */
static int reintern(Attach* a, gsSpecInfo* info) {
  if (!info->file) return 1;
  info->file = gs_specIntern(a->c->spec, info->file);
  return info->file != NULL;
}

/* an orientation of the sub-model as a quaternion, in place */
static int to_quat(Attach* a, gsOrientation* o, const gsSpecInfo* info, const char* kind) {
  gsReal q[4];
  if (!gs_compileOrientation(&a->cc, q, o, info, kind)) {
    a->c->failed = 1;  /* the message is in c->err */
    return 0;
  }
  memset(o, 0, sizeof(*o));
  o->type = GS_ORIENT_QUAT;
  gs_copy4(o->quat, q);
  return 1;
}

/* a pose given in the frame (fpos, fquat), made relative to the body holding the frame */
static void place(const gsxAttachFrame* f, gsReal pos[3], gsOrientation* o) {
  if (!f->framed) return;
  gsReal p[3], q[4];
  gs_rotVecQuat(p, pos, f->fquat);
  gs_add3(pos, p, f->fpos);
  gs_mulQuat(q, f->fquat, o->quat);
  gs_normalize4(q);
  gs_copy4(o->quat, q);
}

/* a geom or site written with fromto directly in the world body, placed by a frame: the pose and
 * size it stands for (capsules, cylinders, boxes, ellipsoids), which the frame then moves */
static void fromto_pose(int type, gsReal size[3], gsReal pos[3], gsOrientation* o, int* has,
                        const gsReal ft[6]) {
  int axial = type == GS_GEOM_CAPSULE || type == GS_GEOM_CYLINDER;
  int boxlike = type == GS_GEOM_BOX || type == GS_GEOM_ELLIPSOID;
  gsReal d[3];
  gs_sub3(d, ft, ft + 3);
  gsReal len = gs_norm3(d);
  if (!*has || (!axial && !boxlike) || len < GS_MINVAL) return;
  for (int k = 0; k < 3; k++) pos[k] = 0.5 * (ft[k] + ft[k + 3]);
  memset(o, 0, sizeof(*o));
  o->type = GS_ORIENT_QUAT;
  gs_quatZ2Vec(o->quat, d);
  if (axial) size[1] = 0.5 * len;
  else size[1] = size[0], size[2] = 0.5 * len;
  *has = 0;
}

/* the asset references of a copied geom or site: names of assets, which take the prefix only */
static int copy_assetref(Attach* a, const gsSpecBody* from, gsSpecBody* to, const void* owner,
                         const void* copy) {
  const gsSpecAssetRef* r = gs_specFindAssetRef(from, owner);
  if (!r) return 1;
  gsSpecAssetRef* nr = gs_specAssetRef(to, copy);
  return nr && gs_specSetString(&nr->material, r->material) && gs_specSetString(&nr->mesh, r->mesh) &&
         gs_specSetString(&nr->hfield, r->hfield) && prefixed(a, &nr->material, 0) &&
         prefixed(a, &nr->mesh, 0) && prefixed(a, &nr->hfield, 0);
}

/* one more element made by an attach: with replicas, a short file must not grow without bound
 * (models attaching models many times each multiply); 0 after the error */
static int count_made(Attach* a) {
  if (++a->c->replicated <= GSX_MAX_REPLICATED) return 1;
  return gsx_error(a->c, a->file, a->line, "attach",
                   "attaches and replicates make more than %d elements", GSX_MAX_REPLICATED);
}

/* an element this attach made, for the check of repeated names */
static int origin_add(Attach* a, int kind, const gsSpecInfo* info) {
  gsxCtx* c = a->c;
  if (!info->name) return 1;
  if (c->norigin == c->caporigin) {
    int cap = c->caporigin ? 2 * c->caporigin : 64;
    void* p = realloc(c->origin, sizeof(*c->origin) * (size_t)cap);
    if (!p) return 0;
    c->origin = p;
    c->caporigin = cap;
  }
  c->origin[c->norigin++] = (struct gsxOrigin){info, kind, a->file, a->line};
  return 1;
}

/* copy element el of kind into list, renamed; *out the copy */
static void* copy_el(Attach* a, int kind, const void* el, void*** list, int* n, int* cap) {
  if (!count_made(a)) return NULL;
  void* cp = gs_specCopyElement(kind, el);
  if (!cp) return NULL;
  gsSpecInfo* info = cp;
  if (!reintern(a, info) || !prefixed_as(a, &info->name, 1, info) || !gs_specPush(list, n, cap, cp) ||
      !map_add(a, el, cp)) {
    gs_specFreeElement(kind, cp);
    return NULL;
  }
  return origin_add(a, kind, info) ? cp : NULL;
}

#define COPY(kind, el, owner, name) \
  copy_el(a, kind, el, (void***)&(owner)->name, &(owner)->n##name, &(owner)->n##name##_cap)

/* limited="auto" resolved by the sub-model's autolimits, as MJCF resolves it for the elements
 * attached (given: whether the range was written; < 0: a range other than "0 0" counts as
 * written); 0 after the error */
static int own_limited(Attach* a, int* limited, const gsReal range[2], int given, const gsSpecInfo* info,
                       const char* kind, const char* attr, const char* flag) {
  if (*limited != GS_LIMITED_AUTO) return 1;
  if (given < 0) given = range[0] != 0 || range[1] != 0;
  if (a->child->compiler.autolimits) {
    *limited = given && range[0] < range[1] ? GS_LIMITED_TRUE : GS_LIMITED_FALSE;
    return 1;
  }
  if (given)
    return gsx_error(a->c, info->file, info->line, kind,
                     "%s is given but %s is not, and the sub-model's compiler has autolimits=\"false\": "
                     "give %s explicitly", attr, flag, flag);
  *limited = GS_LIMITED_FALSE;
  return 1;
}

/* joint angles in the model's unit; the sub-model's autolimits and alignfree */
static int convert_joint(Attach* a, gsSpecJoint* j) {
  if (j->limited == GS_LIMITED_AUTO && a->child->compiler.autolimits)
    j->limited = j->range_given ? GS_LIMITED_TRUE : GS_LIMITED_FALSE;
  if (j->type != GS_JNT_FREE &&
      (!own_limited(a, &j->limited, j->range, j->range_given, &j->info, "joint", "range", "limited") ||
       !own_limited(a, &j->actfrclimited, j->actfrcrange, -1, &j->info, "joint", "actuatorfrcrange",
                    "actuatorfrclimited")))
    return 0;
  if (j->align == 2) j->align = a->child->compiler.alignfree != 0;
  if (a->angle == 1) return 1;
  if (j->type == GS_JNT_HINGE || j->type == GS_JNT_BALL) {
    j->range[0] *= a->angle;
    j->range[1] *= a->angle;
  }
  if (j->type == GS_JNT_HINGE) {
    j->ref *= a->angle;
    j->springref *= a->angle;
  }
  return 1;
}

/* a body keeps the mass settings of its own model's compiler (one attached there before keeps
 * those it came with) */
static void own_mass(Attach* a, gsSpecBody* b) {
  if (b->own_mass) return;
  const gsCompilerOptions* o = &a->child->compiler;
  b->own_mass = 1;
  b->inertiafromgeom = o->inertiafromgeom;
  b->boundmass = o->boundmass;
  b->boundinertia = o->boundinertia;
  b->balanceinertia = o->balanceinertia;
}

/* the contents of body `from` (joints, geoms, sites, cameras, lights, child bodies) into `to`;
 * `f` places the ones written directly in it (the world body's contents), NULL: none */
static int copy_contents(Attach* a, const gsSpecBody* from, gsSpecBody* to, const gsxAttachFrame* f);

static gsSpecBody* copy_body(Attach* a, const gsSpecBody* b, gsSpecBody* parent,
                             const gsxAttachFrame* f) {
  if (!count_made(a)) return NULL;
  gsSpecBody* nb = gs_specCopyElement(GS_SK_BODY, b);
  if (!nb) return NULL;
  nb->parent = parent;
  if (!gs_specPush((void***)&parent->child, &parent->nchild, &parent->nchild_cap, nb)) {
    gs_specFreeElement(GS_SK_BODY, nb);
    return NULL;
  }
  if (!reintern(a, &nb->info) || !prefixed_as(a, &nb->info.name, 1, &nb->info) || !map_add(a, b, nb) ||
      !origin_add(a, GS_SK_BODY, &nb->info))
    return NULL;
  own_mass(a, nb);
  if (!to_quat(a, &nb->orient, &nb->info, "body")) return NULL;
  if (nb->inertial.given && !nb->inertial.has_full &&
      !to_quat(a, &nb->inertial.orient, &nb->info, "inertial"))
    return NULL;
  if (f) place(f, nb->pos, &nb->orient);
  return copy_contents(a, b, nb, NULL) ? nb : NULL;
}

static int copy_contents(Attach* a, const gsSpecBody* from, gsSpecBody* to, const gsxAttachFrame* f) {
  for (int i = 0; i < from->njoint; i++) {
    gsSpecJoint* j = COPY(GS_SK_JOINT, from->joint[i], to, joint);
    if (!j || !convert_joint(a, j)) return 0;
    if (f && f->framed) {
      gsReal p[3];
      gs_rotVecQuat(p, j->pos, f->fquat);
      gs_add3(j->pos, p, f->fpos);
      gs_rotVecQuat(p, j->axis, f->fquat);
      gs_copy3(j->axis, p);
    }
  }
  for (int i = 0; i < from->ngeom; i++) {
    gsSpecGeom* g = COPY(GS_SK_GEOM, from->geom[i], to, geom);
    if (!g || !copy_assetref(a, from, to, from->geom[i], g)) return 0;
    if (f && f->framed) fromto_pose(g->type, g->size, g->pos, &g->orient, &g->has_fromto, g->fromto);
    if (!to_quat(a, &g->orient, &g->info, "geom")) return 0;
    if (f) place(f, g->pos, &g->orient);
  }
  for (int i = 0; i < from->nsite; i++) {
    gsSpecSite* s = COPY(GS_SK_SITE, from->site[i], to, site);
    if (!s || !copy_assetref(a, from, to, from->site[i], s)) return 0;
    if (f && f->framed) fromto_pose(s->type, s->size, s->pos, &s->orient, &s->has_fromto, s->fromto);
    if (!to_quat(a, &s->orient, &s->info, "site")) return 0;
    if (f) place(f, s->pos, &s->orient);
  }
  for (int i = 0; i < from->ncamera; i++) {
    gsSpecCamera* cam = COPY(GS_SK_CAMERA, from->camera[i], to, camera);
    if (!cam || !prefixed(a, &cam->target, 1) || !to_quat(a, &cam->orient, &cam->info, "camera"))
      return 0;
    if (f) place(f, cam->pos, &cam->orient);
  }
  for (int i = 0; i < from->nlight; i++) {
    gsSpecLight* l = COPY(GS_SK_LIGHT, from->light[i], to, light);
    if (!l || !prefixed(a, &l->target, 1) || !prefixed(a, &l->texture, 0)) return 0;
    if (f && f->framed) {
      gsReal p[3];
      gs_rotVecQuat(p, l->pos, f->fquat);
      gs_add3(l->pos, p, f->fpos);
      gs_rotVecQuat(p, l->dir, f->fquat);
      gs_copy3(l->dir, p);
    }
  }
  for (int i = 0; i < from->nchild; i++)
    if (!copy_body(a, from->child[i], to, f)) return 0;
  return 1;
}

/* ---- the elements that refer to the subtree ---- */

/* names of the subtree's elements, and of the referring elements copied so far */
typedef struct {
  int n, cap;
  const char** name;
} Names;

static int names_add(Names* s, const char* name) {
  if (!name) return 1;
  if (s->n == s->cap) {
    int cap = s->cap ? 2 * s->cap : 64;
    const char** p = realloc(s->name, sizeof(char*) * (size_t)cap);
    if (!p) return 0;
    s->name = p;
    s->cap = cap;
  }
  s->name[s->n++] = name;
  return 1;
}

static int names_has(const Names* s, const char* name) {
  for (int i = 0; i < s->n; i++)
    if (strcmp(s->name[i], name) == 0) return 1;
  return 0;
}

static int subtree_names(Names* s, const gsSpecBody* b) {
  int ok = names_add(s, b->info.name);
  for (int i = 0; ok && i < b->njoint; i++) ok = names_add(s, b->joint[i]->info.name);
  for (int i = 0; ok && i < b->ngeom; i++) ok = names_add(s, b->geom[i]->info.name);
  for (int i = 0; ok && i < b->nsite; i++) ok = names_add(s, b->site[i]->info.name);
  for (int i = 0; ok && i < b->ncamera; i++) ok = names_add(s, b->camera[i]->info.name);
  for (int i = 0; ok && i < b->nchild; i++) ok = subtree_names(s, b->child[i]);
  return ok;
}

#define MAXREF 1024

/* the names an element of kind refers to (its owned strings); the count */
static int references(int kind, void* el, char*** refs) {
  int n = 0;
  switch (kind) {
    case GS_SK_TENDON: {
      gsSpecTendon* t = el;
      for (int i = 0; i < t->nwrap && n + 2 <= MAXREF; i++) {
        refs[n++] = &t->wrap[i]->target;
        refs[n++] = &t->wrap[i]->sidesite;
      }
      break;
    }
    case GS_SK_ACTUATOR: {
      gsSpecActuator* a = el;
      refs[n++] = &a->target, refs[n++] = &a->refsite, refs[n++] = &a->slidersite;
      break;
    }
    case GS_SK_SENSOR: {
      gsSpecSensor* s = el;
      refs[n++] = &s->objname, refs[n++] = &s->refname;
      break;
    }
    case GS_SK_EQUALITY: {
      gsSpecEquality* e = el;
      refs[n++] = &e->name1, refs[n++] = &e->name2;
      break;
    }
    case GS_SK_PAIR: {
      gsSpecPair* p = el;
      refs[n++] = &p->geom1, refs[n++] = &p->geom2;
      break;
    }
    case GS_SK_EXCLUDE: {
      gsSpecExclude* e = el;
      refs[n++] = &e->body1, refs[n++] = &e->body2;
      break;
    }
    default:
      break;
  }
  return n;
}

/* copy the elements of one kind whose references are all in `in` (all of them when `all`); the
 * names of the copied ones join `in` (a sensor may name a copied tendon or actuator) */
static int copy_referring(Attach* a, int kind, void* const* list, int n, void*** dst, int* ndst,
                          int* cap, Names* in, int all) {
  char** refs[MAXREF];
  for (int i = 0; i < n; i++) {
    int nr = references(kind, list[i], refs), keep = 1;
    for (int r = 0; !all && keep && r < nr; r++)
      if (*refs[r] && !names_has(in, *refs[r])) keep = 0;
    if (!keep) continue;
    void* cp = copy_el(a, kind, list[i], dst, ndst, cap);
    if (!cp) return 0;
    nr = references(kind, cp, refs);
    for (int r = 0; r < nr; r++)
      if (!prefixed(a, refs[r], 1)) return 0;
    if (kind == GS_SK_ACTUATOR) {
      gsSpecActuator* u = cp;
      if (!own_limited(a, &u->ctrllimited, u->ctrlrange, -1, &u->info, "actuator", "ctrlrange", "ctrllimited") ||
          !own_limited(a, &u->forcelimited, u->forcerange, -1, &u->info, "actuator", "forcerange", "forcelimited") ||
          !own_limited(a, &u->actlimited, u->actrange, -1, &u->info, "actuator", "actrange", "actlimited"))
        return 0;
    }
    if (kind == GS_SK_TENDON) {
      gsSpecTendon* t = cp;
      if (!own_limited(a, &t->limited, t->range, -1, &t->info, "tendon", "range", "limited") ||
          !own_limited(a, &t->actfrclimited, t->actfrcrange, -1, &t->info, "tendon", "actuatorfrcrange",
                       "actuatorfrclimited"))
        return 0;
      if (!prefixed(a, &t->material, 0)) return 0;
      for (int w = 0; w < t->nwrap; w++)
        if (t->wrap[w]->info.file && !(t->wrap[w]->info.file = gs_specIntern(a->c->spec, t->wrap[w]->info.file)))
          return 0;
    }
    if (!names_add(in, ((gsSpecInfo*)list[i])->name)) return 0;
  }
  return 1;
}

/* the sub-model's custom data, as MJCF 3.3.7 brings it along: every numeric and text, and the
 * tuples all of whose objects are in `in` (all of them when `all`), names and objects taking the
 * prefix only (MJCF adds no replica suffix here: a tuple naming a replicated body then names
 * none, and the model is refused as MJCF refuses it) */
static int copy_custom(Attach* a, const Names* in, int all) {
  const gsSpec* ch = a->child;
  gsSpec* s = held(a->c);
  if (!s) return 0;
  int nrep = a->c->nrep, ok = 1;
  a->c->nrep = 0;
  for (int i = 0; ok && i < ch->nnumeric; i++) ok = COPY(GS_SK_NUMERIC, ch->numeric[i], s, numeric) != NULL;
  for (int i = 0; ok && i < ch->ntext; i++) ok = COPY(GS_SK_TEXT, ch->text[i], s, text) != NULL;
  for (int i = 0; ok && i < ch->ntuple; i++) {
    const gsSpecTuple* t = ch->tuple[i];
    int keep = 1;
    for (int e = 0; !all && keep && e < t->nelement; e++)
      keep = t->element[e]->objname && names_has(in, t->element[e]->objname);
    if (!keep) continue;
    gsSpecTuple* cp = COPY(GS_SK_TUPLE, t, s, tuple);
    ok = cp != NULL;
    for (int e = 0; ok && e < cp->nelement; e++) ok = prefixed(a, &cp->element[e]->objname, 0);
  }
  a->c->nrep = nrep;
  return ok;
}

/* the names of the sub-model's frames (with no body=, all of them), prefixed and suffixed like
 * the bodies; a name the model has already is an error at the <attach> */
static int copy_frame_names(Attach* a) {
  const gsSpec* ch = a->child;
  gsSpec* s = a->c->spec;
  for (int i = 0; i < ch->nframename; i++) {
    char* name = NULL;
    if (!gs_specSetString(&name, ch->framename[i]) || !prefixed(a, &name, 1)) {
      free(name);
      return 0;
    }
    for (int k = 0; k < s->nframename; k++)
      if (strcmp(s->framename[k], name) == 0) {
        gsx_error(a->c, a->file, a->line, "attach", "repeated name '%.60s' in frame", name);
        free(name);
        return 0;
      }
    if (!gs_specPush((void***)&s->framename, &s->nframename, &s->nframename_cap, name)) {
      free(name);
      return 0;
    }
  }
  return 1;
}

/* the sub-model's assets, once per model and prefix */
static int copy_assets(Attach* a, struct gsxModel* md) {
  for (int k = 0; k < md->nprefix; k++)
    if (strcmp(md->prefix[k], a->prefix) == 0) return 1;
  char** p = realloc(md->prefix, sizeof(char*) * (size_t)(md->nprefix + 1));
  if (!p) return 0;
  md->prefix = p;
  if (!(p[md->nprefix] = malloc(strlen(a->prefix) + 1))) return 0;
  strcpy(p[md->nprefix++], a->prefix);
  const gsSpec* ch = a->child;
  gsSpec* s = held(a->c);
  if (!s) return 0;
  /* asset names take the prefix only: replicas share them */
  int nrep = a->c->nrep;
  a->c->nrep = 0;
  int ok = 1;
  for (int i = 0; ok && i < ch->ntexture; i++) ok = COPY(GS_SK_TEXTURE, ch->texture[i], s, texture) != NULL;
  for (int i = 0; ok && i < ch->nmaterial; i++) {
    gsSpecMaterial* m = COPY(GS_SK_MATERIAL, ch->material[i], s, material);
    ok = m != NULL;
    for (int r = 0; ok && r < GS_NTEXROLE; r++) ok = prefixed(a, &m->texture[r], 0);
  }
  for (int i = 0; ok && i < ch->nmesh; i++) {
    gsSpecMesh* m = COPY(GS_SK_MESH, ch->mesh[i], s, mesh);
    ok = m && prefixed(a, &m->material, 0);
  }
  for (int i = 0; ok && i < ch->nhfield; i++) ok = COPY(GS_SK_HFIELD, ch->hfield[i], s, hfield) != NULL;
  a->c->nrep = nrep;
  return ok;
}

/* ---- keyframes ---- */

/* the joints of a tree in the compiler's order (bodies depth first, in order) */
static int tree_joints(const gsSpecBody* b, const gsSpecJoint** out, int n) {
  for (int i = 0; i < b->njoint; i++) {
    if (out) out[n] = b->joint[i];
    n++;
  }
  for (int i = 0; i < b->nchild; i++) n = tree_joints(b->child[i], out, n);
  return n;
}

/* the mocap bodies of a tree in the compiler's order */
static int tree_mocap(const gsSpecBody* b, const gsSpecBody** out, int n) {
  if (b->mocap) {
    if (out) out[n] = b;
    n++;
  }
  for (int i = 0; i < b->nchild; i++) n = tree_mocap(b->child[i], out, n);
  return n;
}

static int qpos_size(int type) { return type == GS_JNT_FREE ? 7 : type == GS_JNT_BALL ? 4 : 1; }
static int dof_size(int type) { return type == GS_JNT_FREE ? 6 : type == GS_JNT_BALL ? 3 : 1; }
static int act_size(const gsSpecActuator* u) {
  return u->actdim >= 0 ? u->actdim : u->dyntype != GS_DYN_NONE;
}

/* remember the sub-model's keyframes with the joints and actuators they map to */
static int record_keys(Attach* a) {
  const gsSpec* ch = a->child;
  if (!ch->nkey) return 1;
  int nj = tree_joints(ch->world, NULL, 0), nm = tree_mocap(ch->world, NULL, 0);
  const gsSpecJoint** cj = malloc(sizeof(void*) * (size_t)(nj ? nj : 1));
  const gsSpecBody** cm = malloc(sizeof(void*) * (size_t)(nm ? nm : 1));
  if (!cj || !cm) {
    free(cj), free(cm);
    return 0;
  }
  tree_joints(ch->world, cj, 0);
  tree_mocap(ch->world, cm, 0);
  gsxCtx* c = a->c;
  int ok = 1;
  for (int k = 0; ok && k < ch->nkey; k++) {
    if (c->nattkey == c->capattkey) {
      int cap = c->capattkey ? 2 * c->capattkey : 8;
      void* p = realloc(c->attkey, sizeof(*c->attkey) * (size_t)cap);
      if (!p) {
        ok = 0;
        break;
      }
      c->attkey = p;
      c->capattkey = cap;
    }
    struct gsxAttachKey* r = &c->attkey[c->nattkey];
    memset(r, 0, sizeof(*r));
    r->key = gs_specCopyElement(GS_SK_KEY, ch->key[k]);
    r->njnt = nj;
    r->nact = ch->nactuator;
    r->jnt = malloc(sizeof(void*) * (size_t)(nj ? nj : 1));
    r->act = malloc(sizeof(void*) * (size_t)(ch->nactuator ? ch->nactuator : 1));
    r->jtype = malloc(sizeof(int) * (size_t)(nj ? nj : 1));
    r->asize = malloc(sizeof(int) * (size_t)(ch->nactuator ? ch->nactuator : 1));
    r->nmocap = nm;
    r->mocap = malloc(sizeof(void*) * (size_t)(nm ? nm : 1));
    ok = r->key && r->jnt && r->act && r->jtype && r->asize && r->mocap;
    if (ok) {
      c->nattkey++;
      int nrep = c->nrep;
      c->nrep = 0;  /* keys take the prefix only */
      ok = reintern(a, &r->key->info) && prefixed(a, &r->key->info.name, 0);
      c->nrep = nrep;
      for (int j = 0; j < nj; j++) r->jnt[j] = map_find(a, cj[j]), r->jtype[j] = cj[j]->type;
      for (int b = 0; b < nm; b++) r->mocap[b] = map_find(a, cm[b]);
      /* inside replicates MJCF leaves the keys' controls and activations at zero */
      for (int u = 0; u < ch->nactuator; u++)
        r->act[u] = c->nrep ? NULL : map_find(a, ch->actuator[u]), r->asize[u] = act_size(ch->actuator[u]);
    } else {
      gs_specFreeElement(GS_SK_KEY, r->key);
      free(r->jnt), free(r->act), free(r->jtype), free(r->asize), free(r->mocap);
    }
  }
  free(cj);
  free(cm);
  return ok;
}

typedef struct {
  const void* p;
  int adr, dof;
} Slot;

static int by_ptr(const void* x, const void* y) {
  const Slot *a = x, *b = y;
  return (a->p > b->p) - (a->p < b->p);
}

static const Slot* slot_of(const Slot* s, int n, const void* p) {
  Slot key = {p, 0, 0};
  return p ? bsearch(&key, s, (size_t)n, sizeof(Slot), by_ptr) : NULL;
}

/* a key vector of the model: n values, all `fill` */
static gsReal* filled(int n, gsReal fill) {
  gsReal* out = malloc(sizeof(gsReal) * (size_t)(n ? n : 1));
  if (out)
    for (int i = 0; i < n; i++) out[i] = fill;
  return out;
}

/* move list `name` of the held spec to the end of the model's */
#define MOVE(name)                                                                          \
  for (int i = 0; ok && i < h->n##name; i++) {                                              \
    ok = gs_specPush((void***)&s->name, &s->n##name, &s->n##name##_cap, h->name[i]);        \
    if (ok) h->name[i] = NULL;                                                              \
  }

/* a recorded replica name: the element and the suffix its replicas gave its name */
typedef struct {
  const void* el;
  const char* suffix;
} Suffix;

static int by_el(const void* x, const void* y) {
  const Suffix *a = x, *b = y;
  return (a->el > b->el) - (a->el < b->el);
}

static const char* suffix_of(const Suffix* s, int n, const void* el) {
  Suffix key = {el, NULL};
  const Suffix* f = n ? bsearch(&key, s, (size_t)n, sizeof(Suffix), by_el) : NULL;
  return f ? f->suffix : "";
}

/* the held elements of one kind into the model's list. Inside replicates MJCF orders them per
 * replica: the model's own elements made for a replica (those naming replicated ones), then what
 * the attaches of that replica brought; so one made in a replica goes after the last element of
 * the same replica, others at the end. */
static int place_held(const Suffix* sx, int nsx, void*** list, int* n, int* cap, void** held, int nheld) {
  const char** suf = malloc(sizeof(char*) * (size_t)(*n + nheld + 1));
  if (!suf) return 0;
  for (int i = 0; i < *n; i++) suf[i] = suffix_of(sx, nsx, (*list)[i]);
  int ok = 1;
  for (int k = 0; ok && k < nheld; k++) {
    const char* own = suffix_of(sx, nsx, held[k]);
    int at = *n;
    if (own[0])
      for (int i = *n - 1; i >= 0; i--)
        if (strcmp(suf[i], own) == 0) {
          at = i + 1;
          break;
        }
    ok = gs_specPush(list, n, cap, held[k]);  /* grows the list; then moved into place */
    if (!ok) break;
    held[k] = NULL;
    void* el = (*list)[*n - 1];
    memmove(*list + at + 1, *list + at, sizeof(void*) * (size_t)(*n - 1 - at));
    memmove(suf + at + 1, suf + at, sizeof(char*) * (size_t)(*n - 1 - at));
    (*list)[at] = el;
    suf[at] = own;
  }
  free(suf);
  return ok;
}

/* every recorded replica name, sorted by element; NULL with *n 0 when there are none */
static Suffix* suffixes(const gsxCtx* c, int* n) {
  *n = 0;
  if (!c->nrepname) return NULL;
  Suffix* s = malloc(sizeof(Suffix) * (size_t)c->nrepname);
  if (!s) return NULL;
  for (int i = 0; i < c->nrepname; i++) {
    const gsSpecInfo* info = c->repname[i].info;
    size_t nb = strlen(c->repname[i].base);
    const char* name = info->name ? info->name : "";
    s[i] = (Suffix){info, strlen(name) >= nb ? name + nb : ""};
  }
  qsort(s, (size_t)c->nrepname, sizeof(Suffix), by_el);
  *n = c->nrepname;
  return s;
}

#define PLACE(name) \
  ok = ok && place_held(sx, nsx, (void***)&s->name, &s->n##name, &s->n##name##_cap, (void**)h->name, h->n##name);

static int by_kind_name(const void* x, const void* y) {
  const struct gsxOrigin *a = x, *b = y;
  if (a->kind != b->kind) return a->kind - b->kind;
  int d = strcmp(a->info->name, b->info->name);
  if (d) return d;
  return (a->info > b->info) - (a->info < b->info);
}

static const char* kind_name(int kind) {
  switch (kind) {
    case GS_SK_BODY: return "body";
    case GS_SK_JOINT: return "joint";
    case GS_SK_GEOM: return "geom";
    case GS_SK_SITE: return "site";
    case GS_SK_CAMERA: return "camera";
    case GS_SK_LIGHT: return "light";
    case GS_SK_TENDON: return "tendon";
    case GS_SK_ACTUATOR: return "actuator";
    case GS_SK_SENSOR: return "sensor";
    case GS_SK_EQUALITY: return "equality";
    case GS_SK_PAIR: return "pair";
    case GS_SK_EXCLUDE: return "exclude";
    case GS_SK_NUMERIC: return "numeric";
    case GS_SK_TEXT: return "text";
    case GS_SK_TUPLE: return "tuple";
    case GS_SK_MESH: return "mesh";
    case GS_SK_HFIELD: return "hfield";
    case GS_SK_TEXTURE: return "texture";
    case GS_SK_MATERIAL: return "material";
    default: return "element";
  }
}

/* a name two attaches made: the error names both <attach> elements (the compiler's own check
 * would name the sub-model's element twice) */
static int repeated_names(gsxCtx* c) {
  if (c->norigin < 2) return 1;
  qsort(c->origin, (size_t)c->norigin, sizeof(*c->origin), by_kind_name);
  for (int i = 1; i < c->norigin; i++) {
    const struct gsxOrigin *p = &c->origin[i - 1], *q = &c->origin[i];
    if (p->kind != q->kind || strcmp(p->info->name, q->info->name) != 0) continue;
    /* the error at the later <attach> of the two */
    const struct gsxOrigin *x = p->line <= q->line ? p : q, *y = x == p ? q : p;
    return gsx_error(c, y->file, y->line, "attach",
                     "repeated name '%.60s' in %s (also made by the <attach> at %.400s:%d)", y->info->name,
                     kind_name(y->kind), x->file, x->line);
  }
  return 1;
}

static int attach_keys(gsxCtx* c);

int gsx_attachFinish(gsxCtx* c) {
  gsSpec *s = c->spec, *h = c->held;
  int ok = repeated_names(c);
  if (!ok) return 0;
  if (h) {
    int nsx = 0;
    Suffix* sx = suffixes(c, &nsx);
    if (c->nrepname && !sx) return gsx_oom(c);
    MOVE(texture) MOVE(material) MOVE(mesh) MOVE(hfield) MOVE(numeric) MOVE(text) MOVE(tuple)
    PLACE(tendon) PLACE(actuator) PLACE(sensor) PLACE(equality) PLACE(pair) PLACE(exclude)
    free(sx);
    if (!ok) return gsx_oom(c);
    /* what moved is the model's now; the scratch spec frees the rest */
    h->ntexture = h->nmaterial = h->nmesh = h->nhfield = h->ntendon = h->nactuator = 0;
    h->nsensor = h->nequality = h->npair = h->nexclude = h->nnumeric = h->ntext = h->ntuple = 0;
  }
  return attach_keys(c);
}
#undef MOVE
#undef PLACE

static int attach_keys(gsxCtx* c) {
  if (!c->nattkey) return 1;
  gsSpec* s = c->spec;
  int nj = tree_joints(s->world, NULL, 0);
  const gsSpecJoint** pj = malloc(sizeof(void*) * (size_t)(nj ? nj : 1));
  Slot* js = malloc(sizeof(Slot) * (size_t)(nj ? nj : 1));
  Slot* us = malloc(sizeof(Slot) * (size_t)(s->nactuator ? s->nactuator : 1));
  int nmb = tree_mocap(s->world, NULL, 0);
  const gsSpecBody** pm = malloc(sizeof(void*) * (size_t)(nmb ? nmb : 1));
  Slot* ms = malloc(sizeof(Slot) * (size_t)(nmb ? nmb : 1));
  int ok = pj && js && us && pm && ms;
  int nq = 0, nv = 0, na = 0;
  if (ok) {
    tree_joints(s->world, pj, 0);
    for (int j = 0; j < nj; j++) {
      js[j] = (Slot){pj[j], nq, nv};
      nq += qpos_size(pj[j]->type);
      nv += dof_size(pj[j]->type);
    }
    for (int u = 0; u < s->nactuator; u++) {
      us[u] = (Slot){s->actuator[u], u, na};
      na += act_size(s->actuator[u]);
    }
    tree_mocap(s->world, pm, 0);
    for (int b = 0; b < nmb; b++) ms[b] = (Slot){pm[b], b, 0};
    qsort(ms, (size_t)nmb, sizeof(Slot), by_ptr);
    qsort(js, (size_t)nj, sizeof(Slot), by_ptr);
    qsort(us, (size_t)s->nactuator, sizeof(Slot), by_ptr);
  }
  for (int k = 0; ok && k < c->nattkey; k++) {
    struct gsxAttachKey* r = &c->attkey[k];
    gsSpecKey* key = r->key;
    /* qpos: NaN marks the model's default (qpos0), which the compiler puts there */
    gsReal *qpos = NULL, *qvel = NULL, *act = NULL, *ctrl = NULL;
    if (key->qpos) ok = ok && (qpos = filled(nq, NAN)) != NULL;
    if (key->qvel) ok = ok && (qvel = filled(nv, 0)) != NULL;
    if (key->act) ok = ok && (act = filled(na, 0)) != NULL;
    if (key->ctrl) ok = ok && (ctrl = filled(s->nactuator, 0)) != NULL;
    int cq = 0, cv = 0;
    for (int j = 0; ok && j < r->njnt; j++) {
      /* the sub-model's layout: its joints in its order */
      const gsSpecJoint* cj = r->jnt[j];
      int t = r->jtype[j];
      const Slot* sl = slot_of(js, nj, cj);
      int mq = sl ? qpos_size(t) : 0, mv = sl ? dof_size(t) : 0;
      for (int i = 0; qpos && i < mq; i++)
        qpos[sl->adr + i] = cq + i < key->nqpos ? key->qpos[cq + i] : 0;
      for (int i = 0; qvel && i < mv; i++)
        qvel[sl->dof + i] = cv + i < key->nqvel ? key->qvel[cv + i] : 0;
      /* a joint the attach left out still has its place in the sub-model's vectors */
      cq += qpos_size(t);
      cv += dof_size(t);
    }
    int ca = 0;
    for (int u = 0; ok && u < r->nact; u++) {
      const gsSpecActuator* cu = r->act[u];
      const Slot* sl = slot_of(us, s->nactuator, cu);
      if (ctrl && sl && u < key->nctrl) ctrl[sl->adr] = key->ctrl[u];
      int m = r->asize[u];
      for (int i = 0; act && sl && i < m; i++) act[sl->dof + i] = ca + i < key->nact ? key->act[ca + i] : 0;
      ca += m;
    }
    /* mocap poses: NaN marks the model's defaults (the bodies' own poses) */
    gsReal *mpos = NULL, *mquat = NULL;
    if (key->mpos) ok = ok && (mpos = filled(3 * nmb, NAN)) != NULL;
    if (key->mquat) ok = ok && (mquat = filled(4 * nmb, NAN)) != NULL;
    for (int b = 0; ok && b < r->nmocap; b++) {
      const Slot* sl = slot_of(ms, nmb, r->mocap[b]);
      if (!sl) continue;
      for (int i = 0; mpos && i < 3 && 3 * b + 3 <= key->nmpos; i++) mpos[3 * sl->adr + i] = key->mpos[3 * b + i];
      for (int i = 0; mquat && i < 4 && 4 * b + 4 <= key->nmquat; i++) mquat[4 * sl->adr + i] = key->mquat[4 * b + i];
    }
    if (ok) {
      free(key->qpos), free(key->qvel), free(key->act), free(key->ctrl);
      key->qpos = qpos, key->nqpos = qpos ? nq : 0;
      key->qvel = qvel, key->nqvel = qvel ? nv : 0;
      key->act = act, key->nact = act ? na : 0;
      key->ctrl = ctrl, key->nctrl = ctrl ? s->nactuator : 0;
      free(key->mpos), free(key->mquat);
      key->mpos = mpos, key->nmpos = mpos ? 3 * nmb : 0;
      key->mquat = mquat, key->nmquat = mquat ? 4 * nmb : 0;
      ok = gs_specPush((void***)&s->key, &s->nkey, &s->nkey_cap, key);
      if (ok) r->key = NULL;
    } else {
      free(qpos), free(qvel), free(act), free(ctrl), free(mpos), free(mquat);
    }
  }
  free(pm);
  free(ms);
  free(pj);
  free(js);
  free(us);
  return ok ? 1 : gsx_oom(c);
}

/* ---- <attach> ---- */

static gsSpecBody* find_body(gsSpecBody* b, const char* name) {
  if (b->info.name && strcmp(b->info.name, name) == 0) return b;
  for (int i = 0; i < b->nchild; i++) {
    gsSpecBody* r = find_body(b->child[i], name);
    if (r) return r;
  }
  return NULL;
}

int gsx_attach(gsxCtx* c, xmlNodePtr node, const gsxFile* src, gsSpecBody* body,
               const gsxAttachFrame* frame) {
  int line = gsx_line(node);
  if (!gsx_checkAttrList(c, node, src, "attach", "model body prefix") ||
      !gsx_requireAttr(c, node, src, "attach", "model") ||
      !gsx_requireAttr(c, node, src, "attach", "prefix") || !gsx_checkChildren(c, node, src, "attach"))
    return 0;
  xmlChar* model = gsx_getAttr(c, node, "model");
  xmlChar* bname = gsx_getAttr(c, node, "body");
  xmlChar* prefix = gsx_getAttr(c, node, "prefix");
  struct gsxModel* md = NULL;
  int ok = model && prefix;
  for (int i = 0; ok && i < c->nmodel && !md; i++)
    if (strcmp(c->model[i].name, (const char*)model) == 0) md = &c->model[i];
  if (ok && !md)
    ok = gsx_error(c, src->name, line, "attach", "unknown model '%.60s' (no <model> of that name in "
                   "<asset>)", (const char*)model);
  gsSpecBody* from = NULL;
  if (ok) {
    from = bname ? find_body(md->spec->world, (const char*)bname) : md->spec->world;
    if (!from || (bname && from == md->spec->world))
      ok = gsx_error(c, src->name, line, "attach", "model '%.60s' (%s) has no body '%.60s'",
                     md->name, md->path, (const char*)bname);
  }
  Attach a;
  memset(&a, 0, sizeof(a));
  if (ok) {
    a.c = c;
    a.child = md->spec;
    a.cc.spec = md->spec;
    a.cc.err = c->err;
    a.cc.errsz = c->errsz;
    a.prefix = (const char*)prefix;
    a.file = src->name;
    a.line = line;
    gsReal from_unit = md->spec->compiler.degree ? GS_PI / 180 : 1;
    gsReal to_unit = c->spec->compiler.degree ? GS_PI / 180 : 1;
    a.angle = from_unit == to_unit ? 1 : from_unit / to_unit;
    ok = copy_assets(&a, md);
    if (!ok && !c->failed) gsx_oom(c);
  }
  Names in = {0, 0, NULL};
  int all = from == (md ? md->spec->world : NULL);
  if (ok) {
    ok = (all ? copy_contents(&a, from, body, frame) : copy_body(&a, from, body, frame) != NULL) &&
         (all || subtree_names(&in, from));
    if (!ok && !c->failed) gsx_oom(c);
  }
  gsSpec* s = ok ? held(c) : NULL;
  if (ok && !s) ok = gsx_oom(c);
  if (ok) {
    const gsSpec* ch = md->spec;
#define REFERRING(K, name) \
    ok = ok && copy_referring(&a, K, (void* const*)ch->name, ch->n##name, (void***)&s->name, &s->n##name, &s->n##name##_cap, &in, all)
    REFERRING(GS_SK_TENDON, tendon);
    REFERRING(GS_SK_ACTUATOR, actuator);
    REFERRING(GS_SK_SENSOR, sensor);
    REFERRING(GS_SK_EQUALITY, equality);
    REFERRING(GS_SK_PAIR, pair);
    REFERRING(GS_SK_EXCLUDE, exclude);
#undef REFERRING
    /* keyframes: inside replicates, from the first replica only (MJCF's rule) */
    int first = 1;
    for (int k = 0; k < c->nrep; k++)
      if (c->rep[k].index) first = 0;
    if (ok && first) ok = record_keys(&a) && copy_custom(&a, &in, all);
    if (ok && all) ok = copy_frame_names(&a);
    if (!ok && !c->failed) gsx_oom(c);
  }
  free(in.name);
  free(a.map);
  xmlFree(model);
  xmlFree(bname);
  xmlFree(prefix);
  return ok && !c->failed;
}
