/* A copy of a spec's body subtree (or of its world body's contents) placed in another spec's
 * body, with what comes along as MJCF 3.3.7 compiles <attach> (and MuJoCo's spec attach makes):
 * - the subtree, its pose composed with the frame it is placed by, angles converted from the
 *   attached spec's unit to the model's (orientations become quaternions);
 * - its meshes, height fields, textures and materials (gs_attachAssets; names with the prefix);
 * - the tendons, actuators, sensors, equalities, contact pairs and exclusions all of whose
 *   references are inside the subtree (with the world body, all of them);
 * - its keyframes, made into the model's once the tree is whole (gs_attachKeys), holding the
 *   attached spec's values for the attached joints, actuators and mocap bodies and the model's
 *   defaults elsewhere (NaN marking qpos0 for the compiler);
 * - its compiler settings that act per element: its angle unit and euler sequence (orientations
 *   converted here), autolimits (limited="auto" of its joints, tendons and actuators resolved
 *   here), alignfree (its free joints), and inertiafromgeom, boundmass, boundinertia and
 *   balanceinertia (kept by its bodies, gsSpecBody.own_mass). Its settotalmass, discardvisual
 *   and fusestatic are not used: MJCF applies the model's to the whole tree, attached parts
 *   included;
 * - its custom data (numeric, text, and the tuples naming only attached elements), and the names
 *   of the frames written in the subtree (prefixed like its bodies; their poses are already in
 *   their children's);
 * - names take the prefix and suffix, then whatever the host adds (the replicas' suffixes).
 * The host (gsAttachHost) says where the elements other than the tree go, limits and records
 * what is made and reports errors: MJCF's reader (src/mjcf/xml_attach.c) and gs_specAttach below. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/math.h"
#include "model/attach.h"
#include "model/spec_slices.h"

static int attach_error(gsAttach* a, const char* file, int line, const char* elem, const char* fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  a->h->failed = 1;
  if (a->h->error) a->h->error(a->h->user, file, line, elem, msg);
  return 0;
}

static int map_add(gsAttach* a, const void* from, void* to) {
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

static void* map_find(const gsAttach* a, const void* from) {
  for (int i = a->nmap - 1; i >= 0; i--)
    if (a->map[i].from == from) return a->map[i].to;
  return NULL;
}

/* *s becomes prefix + *s + suffix (renamed by the host when `replica`, unless a->plain); NULL
 * stays NULL. `info`: the element so named (the host may record it) */
static int prefixed_as(gsAttach* a, char** s, int replica, gsSpecInfo* info) {
  if (!*s) return 1;
  size_t n = strlen(a->prefix) + strlen(*s) + strlen(a->suffix) + 1;
  char* t = malloc(n);
  if (!t) return 0;
  snprintf(t, n, "%s%s%s", a->prefix, *s, a->suffix);
  free(*s);
  *s = t;
  return !replica || a->plain || !a->h->rename || a->h->rename(a->h->user, s, info);
}

static int prefixed(gsAttach* a, char** s, int replica) { return prefixed_as(a, s, replica, NULL); }

/* the copy's file name in the model's string pool (the sub-model's pool goes with it) */
static int reintern(gsAttach* a, gsSpecInfo* info) {
  if (!info->file) return 1;
  info->file = gs_specIntern(a->h->spec, info->file);
  return info->file != NULL;
}

/* an orientation of the sub-model as a quaternion, in place */
static int to_quat(gsAttach* a, gsOrientation* o, const gsSpecInfo* info, const char* kind) {
  gsReal q[4];
  if (!gs_compileOrientation(&a->cc, q, o, info, kind)) {
    a->h->failed = 1;  /* the message is in c->err */
    return 0;
  }
  gs_orientSetQuat(o, q);
  return 1;
}

/* a pose given in the frame (fpos, fquat), made relative to the body holding the frame */
static void place(const gsAttachFrame* f, gsReal pos[3], gsOrientation* o) {
  if (!f->framed) return;
  gsReal p[3], q[4];
  gs_rotVecQuat(p, pos, f->fquat);
  gs_add3(pos, p, f->fpos);
  gs_mulQuat(q, f->fquat, o->quat);
  gs_normalize4(q);
  gs_copy4(o->quat, q);
}

/* the asset references of a copied geom or site: names of assets, which take the prefix only */
static int copy_assetref(gsAttach* a, const gsSpecBody* from, gsSpecBody* to, const void* owner,
                         const void* copy) {
  const gsSpecAssetRef* r = gs_specFindAssetRef(from, owner);
  if (!r) return 1;
  gsSpecAssetRef* nr = gs_specAssetRef(to, copy);
  return nr && gs_specSetString(&nr->material, r->material) && gs_specSetString(&nr->mesh, r->mesh) &&
         gs_specSetString(&nr->hfield, r->hfield) && prefixed(a, &nr->material, 0) &&
         prefixed(a, &nr->mesh, 0) && prefixed(a, &nr->hfield, 0);
}

/* one more element made: the host may limit them; 0 after the error */
static int count_made(gsAttach* a) {
  if (!a->h->made || a->h->made(a->h->user, a->file, a->line)) return 1;
  a->h->failed = 1;
  return 0;
}

/* an element this attach made, told to the host */
static int origin_add(gsAttach* a, int kind, const gsSpecInfo* info) {
  return !info->name || !a->h->origin || a->h->origin(a->h->user, kind, info, a->file, a->line);
}

/* copy element el of kind into list, renamed; *out the copy */
static void* copy_el(gsAttach* a, int kind, const void* el, void*** list, int* n, int* cap) {
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
static int own_limited(gsAttach* a, int* limited, const gsReal range[2], int given, const gsSpecInfo* info,
                       const char* kind, const char* attr, const char* flag) {
  if (*limited != GS_LIMITED_AUTO) return 1;
  if (given < 0) given = range[0] != 0 || range[1] != 0;
  if (a->child->compiler.autolimits) {
    *limited = given && range[0] < range[1] ? GS_LIMITED_TRUE : GS_LIMITED_FALSE;
    return 1;
  }
  if (given)
    return attach_error(a, info->file, info->line, kind,
                     "%s is given but %s is not, and the sub-model's compiler has autolimits=\"false\": "
                     "give %s explicitly", attr, flag, flag);
  *limited = GS_LIMITED_FALSE;
  return 1;
}

/* joint angles in the model's unit; the sub-model's autolimits and alignfree */
static int convert_joint(gsAttach* a, gsSpecJoint* j) {
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
static void own_mass(gsAttach* a, gsSpecBody* b) {
  if (b->own_mass) return;
  const gsCompilerOptions* o = &a->child->compiler;
  b->own_mass = 1;
  b->inertiafromgeom = o->inertiafromgeom;
  b->boundmass = o->boundmass;
  b->boundinertia = o->boundinertia;
  b->balanceinertia = o->balanceinertia;
}

/* frame `from` (the sub-model's) copied into body `to`: named with the prefix and suffix like the
 * bodies (a name the model has already is an error at the <attach>), written in the copy of its
 * enclosing frame, else in f's frame record; its pose in the body placed by f (NULL: as it was) */
static int copy_frame(gsAttach* a, const gsSpecFrame* from, gsSpecBody* to, const gsAttachFrame* f) {
  gsSpec* s = a->h->spec;
  char* name = NULL;
  if (from->info.name) {
    if (!gs_specSetString(&name, from->info.name) || !prefixed(a, &name, 1)) {
      free(name);
      return 0;
    }
    for (int k = 0; k < s->nframename; k++)
      if (strcmp(s->framename[k], name) == 0) {
        attach_error(a, a->file, a->line, "attach", "repeated name '%.60s' in frame", name);
        free(name);
        return 0;
      }
  }
  gsSpecFrame* nf = gs_specCopyElement(GS_SK_FRAME, from);
  if (!nf || !gs_specPush((void***)&to->frame, &to->nframe, &to->nframe_cap, nf)) {
    gs_specFreeElement(GS_SK_FRAME, nf);
    free(name);
    return 0;
  }
  free(nf->info.name);
  nf->info.name = NULL;
  gsSpecFrame* up = from->frame ? map_find(a, from->frame) : NULL;
  nf->frame = up ? up : f ? f->frame : NULL;
  gs_specFrameBodyPose(from, nf->bpos, nf->bquat);
  if (f && f->framed) {
    gsReal p[3], q[4];
    gs_rotVecQuat(p, nf->bpos, f->fquat);
    gs_add3(nf->bpos, p, f->fpos);
    gs_mulQuat(q, f->fquat, nf->bquat);
    gs_normalize4(q);
    gs_copy4(nf->bquat, q);
  }
  nf->placed = 1;
  if (!reintern(a, &nf->info) || !map_add(a, from, nf)) {
    free(name);
    return 0;
  }
  if (!name) return 1;
  char* own = NULL;
  int ok = gs_specSetString(&own, name) && gs_specPush((void***)&s->framename, &s->nframename, &s->nframename_cap, own);
  if (!ok) free(own);
  nf->info.name = name;
  return ok;
}

/* the frames written in body `from` of the sub-model, now in `to` (enclosing ones come first) */
static int copy_frames(gsAttach* a, const gsSpecBody* from, gsSpecBody* to, const gsAttachFrame* f) {
  for (int i = 0; i < from->nframe; i++)
    if (!copy_frame(a, from->frame[i], to, f)) return 0;
  return 1;
}

/* the contents of body `from` (joints, geoms, sites, cameras, lights, child bodies) into `to`;
 * `f` places the ones written directly in it (the world body's contents), NULL: none */
static int copy_contents(gsAttach* a, const gsSpecBody* from, gsSpecBody* to, const gsAttachFrame* f);

static gsSpecBody* copy_body(gsAttach* a, const gsSpecBody* b, gsSpecBody* parent,
                             const gsAttachFrame* f) {
  if (!count_made(a)) return NULL;
  gsSpecBody* nb = gs_specCopyElement(GS_SK_BODY, b);
  if (!nb) return NULL;
  nb->parent = parent;
  /* the frames come below, with the prefix */
  for (int i = 0; i < nb->nframe; i++) gs_specFreeElement(GS_SK_FRAME, nb->frame[i]);
  nb->nframe = 0;
  if (!gs_specPush((void***)&parent->child, &parent->nchild, &parent->nchild_cap, nb)) {
    gs_specFreeElement(GS_SK_BODY, nb);
    return NULL;
  }
  /* the frame it is written in: the copy of its own; the body attached (body=) and the world's
   * children outside frames: the frame it is attached in */
  nb->inframe = b == a->top ? (f ? f->frame : NULL) : b->inframe ? map_find(a, b->inframe) : f ? f->frame : NULL;
  if (!reintern(a, &nb->info) || !prefixed_as(a, &nb->info.name, 1, &nb->info) || !map_add(a, b, nb) ||
      !origin_add(a, GS_SK_BODY, &nb->info) || !copy_frames(a, b, nb, NULL))
    return NULL;
  own_mass(a, nb);
  if (!to_quat(a, &nb->orient, &nb->info, "body")) return NULL;
  if (nb->inertial.given && !nb->inertial.has_full &&
      !to_quat(a, &nb->inertial.orient, &nb->info, "inertial"))
    return NULL;
  if (f) {
    /* placed by the frame it is attached in. The body attached (body=) takes its pose without
     * the frames around it in the sub-model, as MJCF does; a child of the world body keeps them,
     * composed into that frame. The body remembers the frames around it now, for an attach of
     * it in turn. */
    gsReal fp[3] = {0, 0, 0}, fq[4] = {1, 0, 0, 0};
    int own = nb->framed && b != a->top;
    if (nb->framed && b == a->top) {
      gsReal inv[4], p[3], q[4];
      gs_negQuat(inv, nb->frame_quat);
      gs_sub3(p, nb->pos, nb->frame_pos);
      gs_rotVecQuat(nb->pos, p, inv);
      gs_mulQuat(q, inv, nb->orient.quat);
      gs_normalize4(q);
      gs_copy4(nb->orient.quat, q);
    } else if (own) {
      gs_copy3(fp, nb->frame_pos);
      gs_copy4(fq, nb->frame_quat);
    }
    place(f, nb->pos, &nb->orient);
    if (f->framed) {
      gsReal q[4];
      gs_rotVecQuat(nb->frame_pos, fp, f->fquat);
      gs_add3(nb->frame_pos, nb->frame_pos, f->fpos);
      gs_mulQuat(q, f->fquat, fq);
      gs_normalize4(q);
      gs_copy4(nb->frame_quat, q);
    }
    nb->framed = f->framed || own;
  }
  return copy_contents(a, b, nb, NULL) ? nb : NULL;
}

/* a copied element's frame: the copy of its own, else the frame it is attached in (for what is
 * written directly in the world body; f NULL: none) */
static void frame_of_copy(const gsAttach* a, struct gsSpecFrame** frame, const gsAttachFrame* f) {
  *frame = *frame ? map_find(a, *frame) : f ? f->frame : NULL;
}

static int copy_contents(gsAttach* a, const gsSpecBody* from, gsSpecBody* to, const gsAttachFrame* f) {
  for (int i = 0; i < from->njoint; i++) {
    gsSpecJoint* j = COPY(GS_SK_JOINT, from->joint[i], to, joint);
    if (!j || !convert_joint(a, j)) return 0;
    frame_of_copy(a, &j->frame, f);
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
    if (f && f->framed) gs_fromtoPose(g->type, g->size, g->pos, &g->orient, &g->has_fromto, g->fromto);
    if (!to_quat(a, &g->orient, &g->info, "geom")) return 0;
    if (f) place(f, g->pos, &g->orient);
    frame_of_copy(a, &g->frame, f);
  }
  for (int i = 0; i < from->nsite; i++) {
    gsSpecSite* s = COPY(GS_SK_SITE, from->site[i], to, site);
    if (!s || !copy_assetref(a, from, to, from->site[i], s)) return 0;
    if (f && f->framed) gs_fromtoPose(s->type, s->size, s->pos, &s->orient, &s->has_fromto, s->fromto);
    if (!to_quat(a, &s->orient, &s->info, "site")) return 0;
    if (f) place(f, s->pos, &s->orient);
    frame_of_copy(a, &s->frame, f);
  }
  for (int i = 0; i < from->ncamera; i++) {
    gsSpecCamera* cam = COPY(GS_SK_CAMERA, from->camera[i], to, camera);
    if (!cam || !prefixed(a, &cam->target, 1) || !to_quat(a, &cam->orient, &cam->info, "camera"))
      return 0;
    if (f) place(f, cam->pos, &cam->orient);
    frame_of_copy(a, &cam->frame, f);
  }
  for (int i = 0; i < from->nlight; i++) {
    gsSpecLight* l = COPY(GS_SK_LIGHT, from->light[i], to, light);
    if (!l || !prefixed(a, &l->target, 1) || !prefixed(a, &l->texture, 0)) return 0;
    frame_of_copy(a, &l->frame, f);
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

/* the names an element of kind refers to (pointers to its owned strings, at most max); the count;
 * shared with the MJCF reader's replicates, which copy such elements along */
int gs_specReferences(int kind, void* el, char*** refs, int max) {
  int n = 0;
  switch (kind) {
    case GS_SK_TENDON: {
      gsSpecTendon* t = el;
      for (int i = 0; i < t->nwrap && n + 2 <= max; i++) {
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
static int copy_referring(gsAttach* a, int kind, void* const* list, int n, void*** dst, int* ndst,
                          int* cap, Names* in, int all) {
  char** refs[MAXREF];
  for (int i = 0; i < n; i++) {
    int nr = gs_specReferences(kind, list[i], refs, MAXREF), keep = 1;
    for (int r = 0; !all && keep && r < nr; r++)
      if (*refs[r] && !names_has(in, *refs[r])) keep = 0;
    if (!keep) continue;
    void* cp = copy_el(a, kind, list[i], dst, ndst, cap);
    if (!cp) return 0;
    nr = gs_specReferences(kind, cp, refs, MAXREF);
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
        if (t->wrap[w]->info.file && !(t->wrap[w]->info.file = gs_specIntern(a->h->spec, t->wrap[w]->info.file)))
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
static int copy_custom(gsAttach* a, const Names* in, int all) {
  const gsSpec* ch = a->child;
  gsSpec* s = a->h->dst;
  int ok = 1;
  a->plain = 1;
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
  a->plain = 0;
  return ok;
}

int gs_attachAssets(gsAttach* a) {
  const gsSpec* ch = a->child;
  gsSpec* s = a->h->dst;
  /* asset names take the prefix only: replicas share them */
  a->plain = 1;
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
  a->plain = 0;
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
static int record_keys(gsAttach* a) {
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
  gsAttachHost* c = a->h;
  int ok = 1;
  for (int k = 0; ok && k < ch->nkey; k++) {
    if (c->nkey == c->capkey) {
      int cap = c->capkey ? 2 * c->capkey : 8;
      void* p = realloc(c->key, sizeof(*c->key) * (size_t)cap);
      if (!p) {
        ok = 0;
        break;
      }
      c->key = p;
      c->capkey = cap;
    }
    gsAttachKey* r = &c->key[c->nkey];
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
      c->nkey++;
      ok = reintern(a, &r->key->info) && prefixed(a, &r->key->info.name, 0);  /* the prefix only */
      for (int j = 0; j < nj; j++) r->jnt[j] = map_find(a, cj[j]), r->jtype[j] = cj[j]->type;
      for (int b = 0; b < nm; b++) r->mocap[b] = map_find(a, cm[b]);
      /* inside replicates MJCF leaves the keys' controls and activations at zero (keyctrl 0) */
      for (int u = 0; u < ch->nactuator; u++)
        r->act[u] = c->keyctrl ? map_find(a, ch->actuator[u]) : NULL, r->asize[u] = act_size(ch->actuator[u]);
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


int gs_attachKeys(gsAttachHost* c) {
  if (!c->nkey) return 1;
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
  for (int k = 0; ok && k < c->nkey; k++) {
    gsAttachKey* r = &c->key[k];
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
  return ok;
}
/* ---- an attach ---- */

void gs_attachBegin(gsAttach* a, gsAttachHost* h, const gsSpec* child, const char* prefix,
                    const char* suffix, const char* file, int line) {
  memset(a, 0, sizeof(*a));
  a->h = h;
  a->child = child;
  a->cc.spec = child;
  a->cc.err = h->err;
  a->cc.errsz = h->errsz;
  a->prefix = prefix ? prefix : "";
  a->suffix = suffix ? suffix : "";
  a->file = file;
  a->line = line;
  gsReal from_unit = child->compiler.degree ? GS_PI / 180 : 1;
  gsReal to_unit = h->spec->compiler.degree ? GS_PI / 180 : 1;
  a->angle = from_unit == to_unit ? 1 : from_unit / to_unit;
}

void gs_attachEnd(gsAttach* a) {
  free(a->map);
  a->map = NULL;
  a->nmap = a->capmap = 0;
}

int gs_attachTree(gsAttach* a, const gsSpecBody* from, gsSpecBody* body, const gsAttachFrame* f,
                  int first) {
  const gsSpec* ch = a->child;
  gsSpec* s = a->h->dst;
  int all = from == ch->world;
  a->top = all ? NULL : from;
  Names in = {0, 0, NULL};
  int ok = (all ? copy_frames(a, from, body, f) && copy_contents(a, from, body, f)
               : copy_body(a, from, body, f) != NULL) &&
           (all || subtree_names(&in, from));
#define REFERRING(K, name)                                                                          \
  ok = ok && copy_referring(a, K, (void* const*)ch->name, ch->n##name, (void***)&s->name, &s->n##name, \
                            &s->n##name##_cap, &in, all)
  REFERRING(GS_SK_TENDON, tendon);
  REFERRING(GS_SK_ACTUATOR, actuator);
  REFERRING(GS_SK_SENSOR, sensor);
  REFERRING(GS_SK_EQUALITY, equality);
  REFERRING(GS_SK_PAIR, pair);
  REFERRING(GS_SK_EXCLUDE, exclude);
#undef REFERRING
  if (ok && first) ok = record_keys(a) && copy_custom(a, &in, all);
  free(in.name);
  return ok;
}

void gs_attachHostFree(gsAttachHost* h) {
  for (int i = 0; i < h->nkey; i++) {
    if (h->key[i].key) gs_specFreeElement(GS_SK_KEY, h->key[i].key);
    free(h->key[i].jnt), free(h->key[i].act), free(h->key[i].jtype), free(h->key[i].asize);
    free(h->key[i].mocap);
  }
  free(h->key);
  h->key = NULL;
  h->nkey = h->capkey = 0;
}

/* ---- gs_specAttach ---- */

typedef struct {
  char* err;
  int errsz;
} Report;

static void report(void* user, const char* file, int line, const char* elem, const char* msg) {
  Report* r = user;
  if (!r->err || r->errsz <= 0) return;
  if (file && line > 0) snprintf(r->err, (size_t)r->errsz, "%s:%d: %s: %s", file, line, elem ? elem : "", msg);
  else snprintf(r->err, (size_t)r->errsz, "%s: %s", elem ? elem : "attach", msg);
}

static int contains(const gsSpecBody* b, const gsSpecBody* x) {
  if (b == x) return 1;
  for (int i = 0; i < b->nchild; i++)
    if (contains(b->child[i], x)) return 1;
  return 0;
}

/* gs_specAttach, the contents written in frame record `frame` of body (NULL: none) */
static int attach_at(gsSpec* spec, gsSpecBody* body, const gsReal pos[3], const gsReal quat[4],
                     gsSpecFrame* frame, const gsSpec* child, const gsSpecBody* from, const char* prefix,
                     const char* suffix, char* err, int errsz) {
  if (err && errsz > 0) err[0] = 0;
  if (!spec || !body || !child) {
    if (err && errsz > 0) snprintf(err, (size_t)errsz, "attach: no spec, body or child given");
    return 0;
  }
  if (!from) from = child->world;
  if (child == spec || !contains(child->world, from) || (spec->world && !contains(spec->world, body))) {
    if (err && errsz > 0)
      snprintf(err, (size_t)errsz, child == spec ? "attach: a spec cannot attach itself (copy it first)"
                                                 : "attach: the body is not in its spec");
    return 0;
  }
  Report r = {err, errsz};
  gsAttachHost h;
  memset(&h, 0, sizeof(h));
  h.spec = h.dst = spec;
  h.user = &r;
  h.error = report;
  h.err = err;
  h.errsz = errsz;
  h.keyctrl = 1;
  gsAttachFrame f = {1, {0, 0, 0}, {1, 0, 0, 0}, frame};
  if (pos) gs_copy3(f.fpos, pos);
  if (quat) {
    gs_copy4(f.fquat, quat);
    gs_normalize4(f.fquat);
  }
  gsAttach a;
  gs_attachBegin(&a, &h, child, prefix, suffix, NULL, 0);
  int ok = gs_attachAssets(&a) && gs_attachTree(&a, from, body, &f, 1) && gs_attachKeys(&h);
  gs_attachEnd(&a);
  gs_attachHostFree(&h);
  if (!ok && !h.failed && err && errsz > 0) snprintf(err, (size_t)errsz, "attach: out of memory");
  return ok;
}

int gs_specAttach(gsSpec* spec, gsSpecBody* body, const gsReal pos[3], const gsReal quat[4],
                  const gsSpec* child, const gsSpecBody* from, const char* prefix, const char* suffix,
                  char* err, int errsz) {
  return attach_at(spec, body, pos, quat, NULL, child, from, prefix, suffix, err, errsz);
}

gsSpecFrame* gs_specAttachFrame(gsSpec* spec, gsSpecFrame* frame, const gsSpec* child,
                                const gsSpecBody* from, const char* prefix, const char* suffix,
                                char* err, int errsz) {
  gsSpecBody* body = gs_specParent(spec, GS_SK_FRAME, frame);
  if (!body) {
    if (err && errsz > 0) snprintf(err, (size_t)errsz, "attach: the frame is not in the spec");
    return NULL;
  }
  /* as MuJoCo's spec attach: a new frame in the one given holds what is attached */
  gsSpecFrame* in = gs_specAddFrame(body, frame);
  if (!in) {
    if (err && errsz > 0) snprintf(err, (size_t)errsz, "attach: out of memory");
    return NULL;
  }
  gs_specPlaceFrame(in);
  if (!attach_at(spec, body, in->bpos, in->bquat, in, child, from, prefix, suffix, err, errsz)) return NULL;
  return in;
}

int gs_specAttachSite(gsSpec* spec, const gsSpecSite* site, const gsSpec* child, const gsSpecBody* from,
                      const char* prefix, const char* suffix, char* err, int errsz) {
  gsSpecBody* body = gs_specParent(spec, GS_SK_SITE, site);
  if (!body) {
    if (err && errsz > 0) snprintf(err, (size_t)errsz, "attach: the site is not in the spec");
    return 0;
  }
  /* the site's pose in its body, its orientation in the spec's own units */
  gsReal q[4];
  if (!gs_specOrientation(spec, q, &site->orient, &site->info, "site", err, errsz)) return 0;
  /* as MuJoCo's: what is attached is written in a new frame at the site */
  gsSpecFrame* in = gs_specAddFrame(body, NULL);
  if (!in) {
    if (err && errsz > 0) snprintf(err, (size_t)errsz, "attach: out of memory");
    return 0;
  }
  in->placed = 1;
  gs_copy3(in->bpos, site->pos);
  gs_copy4(in->bquat, q);
  gs_normalize4(in->bquat);
  return attach_at(spec, body, site->pos, q, in, child, from, prefix, suffix, err, errsz);
}
