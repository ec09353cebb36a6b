/* MJCF's fusestatic: a body without joints (not a mocap body, named by no other element, holding
 * no site a force or torque sensor reads) is merged into its parent. Its geoms, sites, cameras and
 * lights are appended to the parent's, re-expressed in the parent's frame; its child bodies take
 * its place among the parent's children; its mass and inertia are added to the parent's (not to
 * the world's). Kinematics and dynamics are those of the unfused model.
 *
 * Runs on a copy of the spec whose bodies already carry their compiled inertia explicitly
 * (compile_discard.c), so that the inertia a geom gave its body is kept when the geom moves. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/math.h"
#include "gauss/gauss.h"
#include "model/compile.h"
#include "model/spec_slices.h"

#define FUSE_MINMASS 1e-15  /* bodies lighter than this add nothing to their parent (MJCF's mjMINVAL) */
#define FUSE_MINEIG 1e-14   /* the smallest principal moment a fused sum may have (MJCF's) */

typedef struct {
  gsCompileCtx* c;
  const char** refs;  /* body names other elements use */
  int nref;
  const char** sites; /* sites read by force and torque sensors */
  int nsite;
  /* MuJoCo 3.3.7 looks the bodies that references name up by the place each body had when it was
   * last looked at (first: its place in the unfused tree), and counts a place beyond the bodies
   * left as a failed reference, which keeps the named body being examined. Followed, so that the
   * same bodies are fused: the named bodies, their recorded places, the bodies left */
  int nnamed;
  const char** name;
  int* place;
  int nleft;
  int here;           /* place of the body being examined */
} FuseCtx;

static int named(const char* name, const char* const* names, int n) {
  if (!name) return 0;
  for (int i = 0; i < n; i++)
    if (names[i] && strcmp(names[i], name) == 0) return 1;
  return 0;
}

static int is_body(int objtype) { return objtype == GS_OBJ_BODY || objtype == GS_OBJ_XBODY; }

/* the names of bodies that other elements refer to; each name pushed once per reference */
static int collect_refs(const gsSpec* s, const gsSpecBody* b, const char*** refs, int* n, int* cap) {
  for (int i = 0; i < b->ncamera; i++)
    if (b->camera[i]->target && !gs_specPush((void***)refs, n, cap, b->camera[i]->target)) return 0;
  for (int i = 0; i < b->nlight; i++)
    if (b->light[i]->target && !gs_specPush((void***)refs, n, cap, b->light[i]->target)) return 0;
  for (int i = 0; i < b->nchild; i++)
    if (!collect_refs(s, b->child[i], refs, n, cap)) return 0;
  return 1;
}

static int push(const char*** list, int* n, int* cap, const char* s) {
  return !s || gs_specPush((void***)list, n, cap, (void*)s);
}

static int reference_lists(const gsSpec* s, FuseCtx* f) {
  int cap = 0, scap = 0;
  f->refs = NULL, f->nref = 0, f->sites = NULL, f->nsite = 0;
  for (int i = 0; i < s->nsensor; i++) {
    const gsSpecSensor* x = s->sensor[i];
    if (is_body(x->objtype) && !push(&f->refs, &f->nref, &cap, x->objname)) return 0;
    if (is_body(x->reftype) && !push(&f->refs, &f->nref, &cap, x->refname)) return 0;
    if ((x->type == GS_SENS_FORCE || x->type == GS_SENS_TORQUE) && x->objtype == GS_OBJ_SITE &&
        !push(&f->sites, &f->nsite, &scap, x->objname))
      return 0;
  }
  for (int i = 0; i < s->nequality; i++) {
    const gsSpecEquality* e = s->equality[i];
    if ((e->type == GS_EQ_CONNECT || e->type == GS_EQ_WELD) && e->objtype == GS_OBJ_BODY &&
        (!push(&f->refs, &f->nref, &cap, e->name1) || !push(&f->refs, &f->nref, &cap, e->name2)))
      return 0;
  }
  for (int i = 0; i < s->nexclude; i++)
    if (!push(&f->refs, &f->nref, &cap, s->exclude[i]->body1) ||
        !push(&f->refs, &f->nref, &cap, s->exclude[i]->body2))
      return 0;
  for (int i = 0; i < s->nactuator; i++)
    if (s->actuator[i]->trntype == GS_TRN_BODY && !push(&f->refs, &f->nref, &cap, s->actuator[i]->target))
      return 0;
  for (int i = 0; i < s->ntuple; i++)
    for (int k = 0; k < s->tuple[i]->nelement; k++)
      if (is_body(s->tuple[i]->element[k]->objtype) &&
          !push(&f->refs, &f->nref, &cap, s->tuple[i]->element[k]->objname))
        return 0;
  return collect_refs(s, s->world, &f->refs, &f->nref, &cap);
}

static int named_index(const FuseCtx* f, const char* name) {
  for (int i = 0; i < f->nnamed; i++)
    if (f->name[i] && strcmp(f->name[i], name) == 0) return i;
  return -1;
}

/* a named body may go when no element names it, none of its sites feeds a force or torque sensor,
 * and every body an element names is found at its recorded place (see FuseCtx) */
static int unreferenced(FuseCtx* f, const gsSpecBody* b) {
  int self = named_index(f, b->info.name);
  if (self >= 0) f->place[self] = f->here;
  if (named(b->info.name, f->refs, f->nref)) return 0;
  for (int i = 0; i < b->nsite; i++)
    if (named(b->site[i]->info.name, f->sites, f->nsite)) return 0;
  for (int i = 0; i < f->nref; i++) {
    int k = f->refs[i] ? named_index(f, f->refs[i]) : -1;
    if (k >= 0 && f->place[k] > f->nleft - 1) return 0;
  }
  return 1;
}

static int fusable(FuseCtx* f, const gsSpecBody* b) {
  if (b->info.name && b->info.name[0] && !unreferenced(f, b)) return 0;
  return b->njoint == 0 && !b->mocap;
}

/* the named bodies and their places in the unfused tree (pre-order) */
static int list_named(FuseCtx* f, const gsSpecBody* b, int* place) {
  int here = (*place)++;
  if (b->info.name) {
    f->name[f->nnamed] = b->info.name;
    f->place[f->nnamed++] = here;
  }
  for (int i = 0; i < b->nchild; i++)
    if (!list_named(f, b->child[i], place)) return 0;
  return 1;
}

static int count_bodies(const gsSpecBody* b) {
  int n = 1;
  for (int i = 0; i < b->nchild; i++) n += count_bodies(b->child[i]);
  return n;
}

/* pose (p, q) of the fused body in its parent applied to a point and an orientation */
static void move_point(gsReal x[3], const gsReal p[3], const gsReal q[4]) {
  gsReal r[3];
  gs_rotVecQuat(r, x, q);
  gs_add3(x, r, p);
}

static int move_orient(FuseCtx* f, gsOrientation* o, const gsSpecInfo* info, const char* kind,
                       const gsReal q[4]) {
  gsReal local[4], r[4];
  if (!gs_compileOrientation(f->c, local, o, info, kind)) return 0;
  gs_mulQuat(r, q, local);
  gs_normalize4(r);
  gs_orientSetQuat(o, r);
  return 1;
}

/* a geom's or site's frame moved; a fromto is resolved first in the old frame (pos, quat, size),
 * so that the element keeps the orientation about its axis it had */
static int move_shape(FuseCtx* f, const gsSpecInfo* info, const char* kind, int type, gsReal size[3],
                      gsReal pos[3], gsOrientation* o, int* has_fromto, const gsReal fromto[6],
                      const gsReal p[3], const gsReal q[4]) {
  if (*has_fromto) {
    gsReal sz[3], ps[3], qs[4];
    if (!gs_compileShape(f->c, info, kind, type, size, pos, o, 1, fromto, sz, ps, qs)) return 0;
    gs_copy3(size, sz);
    gs_copy3(pos, ps);
    gs_orientSetQuat(o, qs);
    *has_fromto = 0;
  }
  move_point(pos, p, q);
  return move_orient(f, o, info, kind, q);
}

/* a body's inertia about its centre of mass as a tensor in its own frame, from principal moments
 * and their frame. The sum a fuse step left (a full matrix) is taken to its principal frame first,
 * as MJCF keeps every body's inertia, so that a second fuse step rounds as there. */
static void inertia_tensor(const gsSpecInertial* in, gsReal I[9]) {
  gsReal R[9], diag[3];
  if (in->has_full) {
    const gsReal* v = in->fullinertia;
    gsReal full[9] = {v[0], v[3], v[4], v[3], v[1], v[5], v[4], v[5], v[2]}, vec[9], q[4];
    gs_eig3(diag, vec, q, full);
    gs_quat2Mat(R, q);
  } else {
    gs_copy3(diag, in->diaginertia);
    gs_quat2Mat(R, in->orient.quat);
  }
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      gsReal s = 0;
      for (int k = 0; k < 3; k++) s += R[3 * i + k] * diag[k] * R[3 * j + k];
      I[3 * i + j] = s;
    }
}

/* I += m (|d|^2 E - d d^T): the tensor moved by d away from the centre of mass (parallel axes) */
static void parallel_axes(gsReal I[9], gsReal m, const gsReal d[3]) {
  gsReal dd = gs_dot3(d, d);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) I[3 * i + j] += m * ((i == j ? dd : 0) - d[i] * d[j]);
}

/* the child's inertia (given in its frame, which is at p in the parent) added to the parent's.
 * MuJoCo 3.3.7 places the child's inertial frame (ipos, iquat) in the parent at
 * (ipos + iquat p, iquat): the inertial frame composed on the wrong side of the body's pose, so
 * that a fused body turned in its parent adds its inertia as if it were not turned. Reproduced
 * here, as models compile there; the same as the unfused body's only for bodies not turned.
 * A massless parent is no special case (its inertia, if any, is added too). The sum is taken to
 * its principal frame at each step, and MJCF requires its eigenvalues to be positive (as for a
 * fullinertia): 0 after that error. */
static int add_inertia(FuseCtx* f, gsSpecBody* parent, const gsSpecBody* child, const gsReal p[3]) {
  gsSpecInertial* par = &parent->inertial;
  const gsSpecInertial* ch = &child->inertial;
  if (ch->mass < FUSE_MINMASS) return 1;
  gsReal cpos[3], Ic[9], Ip[9], com[3], dp[3], dc[3], R[9];
  gs_quat2Mat(R, ch->orient.quat);  /* through the matrix, as MJCF rounds it */
  for (int i = 0; i < 3; i++) cpos[i] = ch->pos[i] + (R[3 * i] * p[0] + R[3 * i + 1] * p[1] + R[3 * i + 2] * p[2]);
  inertia_tensor(ch, Ic);
  inertia_tensor(par, Ip);
  gsReal m = par->mass + ch->mass;
  for (int i = 0; i < 3; i++) com[i] = (par->mass * par->pos[i] + ch->mass * cpos[i]) / m;
  gs_sub3(dp, par->pos, com);
  gs_sub3(dc, cpos, com);
  parallel_axes(Ip, par->mass, dp);
  parallel_axes(Ic, ch->mass, dc);
  for (int i = 0; i < 9; i++) Ip[i] += Ic[i];
  /* the upper triangle, mirrored (the sums above round the two halves differently) */
  gsReal sym[9] = {Ip[0], Ip[1], Ip[2], Ip[1], Ip[4], Ip[5], Ip[2], Ip[5], Ip[8]};
  gsReal val[3], vec[9], q[4];
  gs_eig3(val, vec, q, sym);
  /* only the last eigenvalue is tested, as for a fullinertia (compiler.c) */
  if (!(val[2] >= FUSE_MINEIG))
    return gs_compileFail(f->c, &child->info, "body",
                          "fusestatic: the inertia of this body added to its parent's must have positive "
                          "eigenvalues (the last, %g, is below 1e-14)",
                          val[2]);
  /* kept as the full matrix: the compiler takes it to the same principal frame, whose
   * quaternion it keeps with the norm the eigen-solver gave it (as MJCF) */
  par->mass = m;
  par->given = 1;
  gs_copy3(par->pos, com);
  par->has_full = 1;
  gsReal v[6] = {sym[0], sym[4], sym[8], sym[1], sym[2], sym[5]};
  memcpy(par->fullinertia, v, sizeof(v));
  gs_orientSetQuat(&par->orient, NULL);
  return 1;
}

/* body's elements (in its frame, at p, q in parent) moved to the end of the parent's lists */
static int move_elements(FuseCtx* f, gsSpecBody* par, gsSpecBody* b, const gsReal p[3],
                         const gsReal q[4]) {
  for (int i = 0; i < b->ngeom; i++) {
    gsSpecGeom* g = b->geom[i];
    if (!move_shape(f, &g->info, "geom", g->type, g->size, g->pos, &g->orient, &g->has_fromto,
                    g->fromto, p, q) ||
        !gs_specPush((void***)&par->geom, &par->ngeom, &par->ngeom_cap, g))
      return 0;
    g->frame = NULL;  /* the body's frames go with it: written directly in the parent */
  }
  b->ngeom = 0;
  for (int i = 0; i < b->nsite; i++) {
    gsSpecSite* s = b->site[i];
    if (!move_shape(f, &s->info, "site", s->type, s->size, s->pos, &s->orient, &s->has_fromto,
                    s->fromto, p, q) ||
        !gs_specPush((void***)&par->site, &par->nsite, &par->nsite_cap, s))
      return 0;
    s->frame = NULL;
  }
  b->nsite = 0;
  for (int i = 0; i < b->ncamera; i++) {
    gsSpecCamera* cam = b->camera[i];
    move_point(cam->pos, p, q);
    if (!move_orient(f, &cam->orient, &cam->info, "camera", q) ||
        !gs_specPush((void***)&par->camera, &par->ncamera, &par->ncamera_cap, cam))
      return 0;
    cam->frame = NULL;
  }
  b->ncamera = 0;
  for (int i = 0; i < b->nlight; i++) {
    gsSpecLight* l = b->light[i];
    gsReal d[3];
    move_point(l->pos, p, q);
    gs_rotVecQuat(d, l->dir, q);
    gs_copy3(l->dir, d);
    if (!gs_specPush((void***)&par->light, &par->nlight, &par->nlight_cap, l)) return 0;
    l->frame = NULL;
  }
  b->nlight = 0;
  /* the asset references follow their geoms and sites (found by address) */
  for (int i = 0; i < b->nassetref; i++)
    if (!gs_specPush((void***)&par->assetref, &par->nassetref, &par->nassetref_cap, b->assetref[i]))
      return 0;
  b->nassetref = 0;
  return 1;
}

/* child k of par fused into par: its children take its place, in their order */
static int fuse_child(FuseCtx* f, gsSpecBody* par, int k) {
  gsSpecBody* b = par->child[k];
  gsReal p[3], q[4];
  gs_copy3(p, b->pos);
  if (!gs_compileOrientation(f->c, q, &b->orient, &b->info, "body")) return 0;
  if (par->parent && !add_inertia(f, par, b, p)) return 0;
  if (!move_elements(f, par, b, p, q)) return 0;
  for (int i = 0; i < b->nchild; i++) {
    gsSpecBody* ch = b->child[i];
    move_point(ch->pos, p, q);
    if (!move_orient(f, &ch->orient, &ch->info, "body", q)) return 0;
    ch->parent = par;
    ch->inframe = NULL;  /* as MuJoCo's: in none of the parent's frames */
  }
  int n = par->nchild - 1 + b->nchild;
  if (n > par->nchild_cap) {
    gsSpecBody** grown = realloc(par->child, sizeof(gsSpecBody*) * (size_t)n);
    if (!grown) return 0;
    par->child = grown;
    par->nchild_cap = n;
  }
  memmove(par->child + k + b->nchild, par->child + k + 1,
          sizeof(gsSpecBody*) * (size_t)(par->nchild - k - 1));
  if (b->nchild) memcpy(par->child + k, b->child, sizeof(gsSpecBody*) * (size_t)b->nchild);
  par->nchild = n;
  b->nchild = 0;
  /* its name goes with it (MJCF's references can no longer find it) */
  int self = b->info.name ? named_index(f, b->info.name) : -1;
  if (self >= 0) f->name[self] = NULL;
  gs_specFreeElement(GS_SK_BODY, b);
  return 1;
}

/* the tree in pre-order: a fused child's children are looked at next, in its place */
static int fuse_tree(FuseCtx* f, gsSpecBody* b) {
  int k = 0;
  while (k < b->nchild) {
    f->here++;
    if (fusable(f, b->child[k])) {
      if (!fuse_child(f, b, k)) return 0;
      f->here--, f->nleft--;
    } else if (!fuse_tree(f, b->child[k++])) {
      return 0;
    }
  }
  return 1;
}

int gs_compileFuseStatic(gsSpec* s, char* err, int errsz) {
  gsCompileCtx c;
  memset(&c, 0, sizeof(c));
  c.spec = s, c.err = err, c.errsz = errsz;
  FuseCtx f;
  memset(&f, 0, sizeof(f));
  f.c = &c;
  f.nleft = count_bodies(s->world);
  f.name = malloc(sizeof(char*) * (size_t)f.nleft);
  f.place = malloc(sizeof(int) * (size_t)f.nleft);
  int place = 0;
  /* the world is "world" to references */
  int ok = f.name && f.place && list_named(&f, s->world, &place);
  if (ok && !s->world->info.name) f.name[f.nnamed] = "world", f.place[f.nnamed++] = 0;
  ok = ok && reference_lists(s, &f) && fuse_tree(&f, s->world);
  free(f.refs);
  free(f.sites);
  free(f.name);
  free(f.place);
  if (!ok && !c.failed && err && errsz > 0) snprintf(err, (size_t)errsz, "out of memory");
  return ok;
}
