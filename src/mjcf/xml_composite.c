/* <composite>: the macro that expands into a chain of bodies. MJCF 3.3.7 keeps one type, cable:
 * count vertices (given by `vertex`, or on a curve made of s, cos(s) and sin(s)) make count - 1
 * bodies, each a child of the previous one, with its x axis along its edge, a ball joint (the
 * first one's joint set by `initial`), a geom along the edge, sites at the two ends of the chain,
 * and contact exclusions between neighbours. Names are MJCF's: prefix + B_first, B_<i>, B_last,
 * J_first, J_<i>, J_last, G<i>, S_first, S_last; the chain also adds a custom text
 * "composite_<prefix>". User default classes do not apply (MJCF's rule). The types MJCF 3.3.7
 * retired (particle, grid, rope, loop, cloth) are refused with its message; the elasticity plugin
 * and the skin are named in the load warnings. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/math.h"
#include "model/spec_slices.h"
#include "xml_internal.h"

#define COMPOSITE_ATTRS "prefix type count offset vertex initial curve size quat"
#define CJOINT_ATTRS                                                                              \
  "kind solreffix solimpfix type axis group stiffness damping armature limited range margin "    \
  "solreflimit solimplimit frictionloss solreffriction solimpfriction"
#define CGEOM_ATTRS                                                                               \
  "type contype conaffinity condim group priority size material rgba friction mass density "     \
  "solmix solref solimp margin gap"
#define CSITE_ATTRS "group size material rgba"

/* the most vertices of one cable: a chain this long is already far beyond any real model */
#define COMPOSITE_MAX_VERTS 100000

enum { INIT_BALL = 0, INIT_FREE, INIT_NONE };
enum { CURVE_ZERO = 0, CURVE_S, CURVE_COS, CURVE_SIN };

typedef struct {
  gsxCtx* c;
  const gsxFile* src;
  int line;
  /* the attributes of <composite> */
  char* prefix;
  int count[3], has_count;
  gsReal offset[3], quat[4], size[3];
  gsReal* vertex;
  int nvertex;  /* reals given */
  int has_vertex;
  int initial;
  int curve[3], has_curve;
  /* the children: templates copied to every element made */
  int njoint;
  gsSpecJoint joint;
  int ngeom;
  gsSpecGeom geom;
  char* geom_material;
  gsSpecSite site;
  char* site_material;
} Composite;

static void composite_free(Composite* k) {
  free(k->prefix);
  free(k->vertex);
  free(k->joint.user);
  free(k->geom.user);
  free(k->site.user);
  free(k->geom_material);
  free(k->site_material);
}

/* ---- attributes ---- */

static int curve_word(const char* w, size_t n) {
  if (n == 1 && w[0] == 's') return CURVE_S;
  if (n == 6 && strncmp(w, "cos(s)", 6) == 0) return CURVE_COS;
  if (n == 6 && strncmp(w, "sin(s)", 6) == 0) return CURVE_SIN;
  if (n == 1 && w[0] == '0') return CURVE_ZERO;
  return -1;
}

static int set_curve(gsxCtx* c, Composite* k, const gsxAt* a) {
  const char* p = a->value;
  int n = 0;
  k->curve[0] = k->curve[1] = k->curve[2] = CURVE_ZERO;
  while (*p) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    if (!*p) break;
    const char* end = p;
    while (*end && *end != ' ' && *end != '\t' && *end != '\n' && *end != '\r') end++;
    if (n == 3) return gsx_attrError(c, a, "the curve array must have a maximum of 3 components");
    int w = curve_word(p, (size_t)(end - p));
    if (w < 0) return gsx_attrError(c, a, "the curve array contains an invalid shape '%.*s' "
                                    "(s, cos(s), sin(s) or 0)", (int)(end - p > 40 ? 40 : end - p), p);
    k->curve[n++] = w;
    p = end;
  }
  k->has_curve = 1;
  return GSX_OK;
}

static int set_composite(gsxCtx* c, void* obj, const gsxAt* a) {
  Composite* k = obj;
  const char* n = a->name;
  int cnt;
  if (strcmp(n, "prefix") == 0) return gsx_setString(c, &k->prefix, a);
  if (strcmp(n, "type") == 0) return GSX_OK;  /* checked before */
  if (strcmp(n, "count") == 0) {
    k->has_count = 1;
    return gsx_ints(c, a, k->count, 1, 3, &cnt);
  }
  if (strcmp(n, "offset") == 0) return gsx_reals(c, a, k->offset, 3, 3, &cnt);
  if (strcmp(n, "quat") == 0) return gsx_reals(c, a, k->quat, 4, 4, &cnt);
  if (strcmp(n, "size") == 0) return gsx_reals(c, a, k->size, 1, 3, &cnt);
  if (strcmp(n, "vertex") == 0) {
    k->has_vertex = gsx_countTokens(a->value) > 0;  /* an empty list is no list, as in MJCF */
    return gsx_realList(c, a, &k->vertex, &k->nvertex, 3 * COMPOSITE_MAX_VERTS + 2);
  }
  if (strcmp(n, "initial") == 0) {
    /* free and none are keywords; any other value gives the ball joint, as in MJCF */
    k->initial = strcmp(a->value, "free") == 0 ? INIT_FREE
                 : strcmp(a->value, "none") == 0 ? INIT_NONE
                                                 : INIT_BALL;
    return GSX_OK;
  }
  if (strcmp(n, "curve") == 0) return set_curve(c, k, a);
  return GSX_UNUSED;
}

/* <joint kind="main">: a joint's attributes; type and axis do not apply to the cable's ball
 * joints, and the equality attributes (solreffix, solimpfix) to no joint of a cable */
static int set_cjoint(gsxCtx* c, void* obj, const gsxAt* a) {
  if (strcmp(a->name, "kind") == 0) {
    if (strcmp(a->value, "main") != 0)
      return gsx_attrError(c, a, "invalid keyword '%.40s' (the only kind is main)", a->value);
    return GSX_OK;
  }
  if (strcmp(a->name, "type") == 0 || strcmp(a->name, "axis") == 0 ||
      strcmp(a->name, "solreffix") == 0 || strcmp(a->name, "solimpfix") == 0) {
    gsSpecJoint scratch;
    memset(&scratch, 0, sizeof(scratch));
    if (strcmp(a->name, "type") == 0 || strcmp(a->name, "axis") == 0) {
      int r = gsx_jointAttr(c, &scratch, a);  /* still a valid value */
      free(scratch.user);
      if (r == GSX_ERR) return r;
      return GSX_OK;
    }
    gsReal v[5];
    int cnt;
    return gsx_reals(c, a, v, 1, strcmp(a->name, "solreffix") == 0 ? 2 : 5, &cnt);
  }
  return gsx_jointAttr(c, obj, a);
}

static int set_cgeom(gsxCtx* c, void* obj, const gsxAt* a) {
  Composite* k = obj;
  if (strcmp(a->name, "material") == 0) return gsx_setString(c, &k->geom_material, a);
  return gsx_geomAttr(c, &k->geom, a);
}

static int set_csite(gsxCtx* c, void* obj, const gsxAt* a) {
  Composite* k = obj;
  if (strcmp(a->name, "material") == 0) return gsx_setString(c, &k->site_material, a);
  return gsx_siteAttr(c, &k->site, a);
}

static int composite_child(gsxCtx* c, xmlNodePtr ch, const gsxFile* src, void* user) {
  Composite* k = user;
  const char* name = gsx_name(ch);
  int line = gsx_line(ch);
  if (!gsx_isElement(name)) return gsx_error(c, src->name, line, name, "unknown element");
  if (strcmp(name, "joint") == 0) {
    if (!gsx_checkAttrList(c, ch, src, name, CJOINT_ATTRS) ||
        !gsx_requireAttr(c, ch, src, name, "kind"))
      return 0;
    if (k->njoint++ > 0)
      return gsx_error(c, src->name, line, "composite",
                       "only particles are allowed to have multiple joints");
    return gsx_applyOwn(c, ch, src, name, set_cjoint, &k->joint, NULL) &&
           gsx_checkChildren(c, ch, src, name);
  }
  if (strcmp(name, "geom") == 0) {
    if (k->ngeom++ > 0)
      return gsx_error(c, src->name, line, name, "a composite has at most one <geom>");
    return gsx_checkAttrList(c, ch, src, name, CGEOM_ATTRS) &&
           gsx_applyOwn(c, ch, src, name, set_cgeom, k, NULL) && gsx_checkChildren(c, ch, src, name);
  }
  if (strcmp(name, "site") == 0)
    return gsx_checkAttrList(c, ch, src, name, CSITE_ATTRS) &&
           gsx_applyOwn(c, ch, src, name, set_csite, k, NULL) && gsx_checkChildren(c, ch, src, name);
  /* the elasticity plugin and the skin: valid, not simulated */
  if (strcmp(name, "plugin") == 0 || strcmp(name, "skin") == 0) return gsx_skipElement(c, ch, src);
  return gsx_error(c, src->name, line, name, "element is not allowed in <composite>");
}

/* ---- the chain ---- */

/* the rotation taking the x axis to the unit vector d by the least angle (a half turn about z when
 * d is -x). With twist, where d is perpendicular to x, MJCF's rotation is that one followed by a
 * turn of 2 phi about x, phi the angle of d from y about x (measured against MuJoCo 3.3.7 on the
 * first body of straight cables along y, z, -z and (0 1 1)) */
static void quat_x2vec(gsReal q[4], const gsReal d[3], int twist) {
  gsReal axis[3] = {0, -d[2], d[1]};
  gsReal s = gs_norm3(axis);
  if (s < GS_MINVAL) {
    q[0] = d[0] < 0 ? 0 : 1;
    q[1] = q[2] = 0;
    q[3] = d[0] < 0 ? 1 : 0;
    return;
  }
  gs_scl3(axis, axis, 1 / s);
  gs_axisAngle2Quat(q, axis, atan2(s, d[0]));
  if (twist && d[0] == 0) {
    gsReal x[3] = {1, 0, 0}, t[4], r[4];
    gs_axisAngle2Quat(t, x, 2 * atan2(d[2], d[1]));
    gs_mulQuat(r, q, t);
    gs_copy4(q, r);
  }
}

/* MJCF keeps a bent cable's frames as a rotation matrix would give them back (w > 0 where the
 * trace 4 w^2 - 1 is positive, else the component of the largest diagonal term positive), so a
 * body's quaternion, the previous frame's inverse times its own, can come out with w < 0; f and
 * the body's q change sign together (measured against MuJoCo 3.3.7 on its coil.xml: 5 of 70
 * bodies). Where the rule is near a tie (trace or diagonal terms equal to 1e-9, e.g. quarter
 * turns) the sign is left as carried along, which is what MuJoCo gives at right-angle corners. */
static void canonical_sign(gsReal f[4], gsReal q[4]) {
  const gsReal eps = 1e-9;
  gsReal trace = 4 * f[0] * f[0] - 1;
  int k = 0;
  if (trace <= -eps) {
    /* the largest diagonal term is the one of the largest |x|, |y| or |z| */
    int big = 1;
    for (int i = 2; i < 4; i++)
      if (fabs(f[i]) > fabs(f[big])) big = i;
    for (int i = 1; i < 4; i++)
      if (i != big && fabs(f[big]) * fabs(f[big]) - f[i] * f[i] < eps) return;
    k = big;
  } else if (trace < eps) {
    return;
  }
  if (f[k] >= 0) return;
  for (int i = 0; i < 4; i++) f[i] = -f[i], q[i] = -q[i];
}

/* the first body's frame: x along the first edge e0, z along e0 x e1 (the plane of the first
 * corner); a straight start takes the least rotation from x (returns 1 then) */
static int first_frame(gsReal q[4], const gsReal d[3], const gsReal* e1) {
  gsReal b[3] = {0, 0, 0};
  if (e1) gs_cross(b, d, e1);
  gsReal bn = gs_norm3(b);
  if (bn < GS_MINVAL) {
    quat_x2vec(q, d, 1);
    return 1;
  }
  gsReal z[3], y[3], R[9];
  gs_scl3(z, b, 1 / bn);
  gs_cross(y, z, d);
  for (int r = 0; r < 3; r++) R[3 * r] = d[r], R[3 * r + 1] = y[r], R[3 * r + 2] = z[r];
  gs_mat2Quat(q, R);
  gs_normalize4(q);
  return 0;
}

static gsReal curve_value(int kind, gsReal t, const gsReal size[3]) {
  switch (kind) {
    case CURVE_S: return size[0] * t;
    case CURVE_COS: return size[1] * cos(GS_PI * size[2] * t);
    case CURVE_SIN: return size[1] * sin(GS_PI * size[2] * t);
    default: return 0;
  }
}

/* a name of the chain: prefix + base, with the replicates' suffixes when inside <replicate>
 * (malloc'ed in *out); 0 when out of memory */
static int full_name(gsxCtx* c, const Composite* k, const char* base, char** out) {
  const char* pre = k->prefix ? k->prefix : "";
  size_t n = strlen(pre) + strlen(base) + 1;
  char* full = malloc(n);
  if (!full) return 0;
  snprintf(full, n, "%s%s", pre, base);
  if (!c->nrep) {
    *out = full;
    return 1;
  }
  int ok = gsx_replicaName(c, full, out);
  free(full);
  return ok;
}

static int set_name(gsxCtx* c, gsSpecInfo* info, const Composite* k, const char* base) {
  char* name = NULL;
  int ok = full_name(c, k, base, &name) && gs_specSetName(info, name);
  if (ok && c->nrep) {
    /* remembered with its unsuffixed name, for references replicated along */
    const char* pre = k->prefix ? k->prefix : "";
    size_t n = strlen(pre) + strlen(base) + 1;
    char* plain = malloc(n);
    ok = plain != NULL;
    if (ok) {
      snprintf(plain, n, "%s%s", pre, base);
      ok = gsx_replicaRecord(c, info, plain);
    }
    free(plain);
  }
  free(name);
  return ok ? 1 : gsx_oom(c);
}

static int copy_user(gsReal** dst, const gsReal* src, int n) {
  *dst = NULL;
  if (!n) return 1;
  *dst = malloc(sizeof(gsReal) * (size_t)n);
  if (!*dst) return 0;
  memcpy(*dst, src, sizeof(gsReal) * (size_t)n);
  return 1;
}

static int add_material(gsxCtx* c, gsSpecBody* b, const void* owner, const char* material) {
  if (!material) return 1;
  gsSpecAssetRef* r = gs_specAddAssetRef(b, owner);
  if (!r || !gs_specSetString(&r->material, material)) return gsx_oom(c);
  return 1;
}

/* the element names of body i of n: first, last or the index */
static void chain_name(char* out, size_t sz, char letter, int i, int n) {
  if (i == 0) snprintf(out, sz, "%c_first", letter);
  else if (i == n - 1) snprintf(out, sz, "%c_last", letter);
  else snprintf(out, sz, "%c_%d", letter, i);
}

static int info_here(gsxCtx* c, gsSpecInfo* info, const Composite* k) {
  info->file = k->src->name;
  info->line = k->line;
  if (c->nrep && ++c->replicated > GSX_MAX_REPLICATED)
    return gsx_error(c, k->src->name, k->line, "composite", "replicates make more than %d elements",
                     GSX_MAX_REPLICATED);
  return 1;
}

/* an edge between two vertices, subtracted in single precision as MJCF does (the vertices are
 * single precision values; through volatiles, which GCC 12 keeps) */
static void edge(gsReal e[3], const gsReal* to, const gsReal* from) {
  for (int k = 0; k < 3; k++) {
    volatile float d = (float)to[k] - (float)from[k];
    e[k] = d;
  }
}

static int make_cable(gsxCtx* c, Composite* k, gsSpecBody* parent, const gsReal* vert, int nv) {
  int nb = nv - 1;
  gsReal frame[4];  /* the previous body's orientation in the composite's frame */
  gs_unitQuat(frame);
  int straight = 0;  /* the first two edges are parallel */
  gsSpecBody* b = parent;
  char base[64];
  for (int i = 0; i < nb; i++) {
    const gsReal* p0 = vert + 3 * i;
    gsReal e[3];
    edge(e, vert + 3 * (i + 1), p0);
    gsReal len = gs_norm3(e), d[3];
    gs_scl3(d, e, len > 0 ? 1 / len : 0);
    gsSpecBody* nb_ = gs_specAddBody(b);
    if (!nb_) return gsx_oom(c);
    chain_name(base, sizeof base, 'B', i, nb);
    if (!info_here(c, &nb_->info, k) || !set_name(c, &nb_->info, k, base)) return 0;
    gsReal q[4];
    if (i == 0) {
      /* the first body: at the first vertex, its x axis along the first edge */
      gsReal e1[3];
      if (nb > 1) edge(e1, vert + 6, vert + 3);
      straight = first_frame(frame, d, nb > 1 ? e1 : NULL);
      gs_copy4(q, frame);
      gs_add3(nb_->pos, p0, k->offset);
    } else if (straight) {
      /* after a straight start every body takes the first one's rule in the composite's frame:
       * the least rotation from x onto its edge (twisted where the edge is perpendicular to x),
       * whatever the previous body's frame (measured against MuJoCo 3.3.7: right-angle corners
       * and general bends after straight starts) */
      gsReal inv[4], g[4];
      quat_x2vec(g, d, 1);
      gs_negQuat(inv, frame);
      gs_mulQuat(q, inv, g);
      gs_normalize4(q);
      gs_copy4(frame, g);
    } else {
      /* the next: at the end of the previous edge, the previous frame carried onto its edge by the
       * least rotation (parallel transport) */
      gsReal inv[4], local[3];
      gs_negQuat(inv, frame);
      gs_rotVecQuat(local, d, inv);
      quat_x2vec(q, local, 0);
      gsReal f[4];
      gs_mulQuat(f, frame, q);
      canonical_sign(f, q);
      gs_copy4(frame, f);
    }
    if (i > 0) {
      /* at the end of the previous edge, along the previous body's x */
      gsReal prev[3];
      edge(prev, p0, vert + 3 * (i - 1));
      nb_->pos[0] = gs_norm3(prev);
      nb_->pos[1] = nb_->pos[2] = 0;
    }
    gs_orientSetQuat(&nb_->orient, q);
    /* the joint */
    if (i > 0 || k->initial != INIT_NONE) {
      gsSpecJoint* j = gs_specAddJoint(nb_);
      if (!j) return gsx_oom(c);
      if (i == 0 && k->initial == INIT_FREE) {
        j->type = GS_JNT_FREE;  /* a plain free joint: the <joint> values are the ball joints' */
        j->group = 3;
      } else {
        gsSpecInfo keep = j->info;
        *j = k->joint;
        j->info = keep;
        if (!copy_user(&j->user, k->joint.user, k->joint.nuser)) return gsx_oom(c);
        j->type = GS_JNT_BALL;
        gs_zero3(j->pos);
      }
      chain_name(base, sizeof base, 'J', i, nb);
      if (!info_here(c, &j->info, k) || !set_name(c, &j->info, k, base)) return 0;
    }
    /* the geom along the edge */
    gsSpecGeom* g = gs_specAddGeom(nb_);
    if (!g) return gsx_oom(c);
    {
      gsSpecInfo keep = g->info;
      *g = k->geom;
      g->info = keep;
      if (!copy_user(&g->user, k->geom.user, k->geom.nuser)) return gsx_oom(c);
    }
    snprintf(base, sizeof base, "G%d", i);
    if (!info_here(c, &g->info, k) || !set_name(c, &g->info, k, base)) return 0;
    g->pos[0] = len / 2;
    g->pos[1] = g->pos[2] = 0;
    g->has_fromto = 0;
    if (g->type == GS_GEOM_BOX) {
      g->size[0] = len / 2;
      gs_orientSetQuat(&g->orient, NULL);
    } else {
      /* capsule, cylinder: the axis along the edge, as fromto from the body's origin */
      gsReal minus_x[3] = {-1, 0, 0};
      g->size[1] = len / 2;
      gsReal q[4];
      gs_quatZ2Vec(q, minus_x);
      gs_orientSetQuat(&g->orient, q);
    }
    if (!add_material(c, nb_, g, k->geom_material)) return 0;
    /* the sites at the ends */
    for (int end = 0; end < 2; end++) {
      if ((end == 0 && i != 0) || (end == 1 && (i != nb - 1 || i == 0))) continue;
      gsSpecSite* s = gs_specAddSite(nb_);
      if (!s) return gsx_oom(c);
      gsSpecInfo keep = s->info;
      *s = k->site;
      s->info = keep;
      if (!copy_user(&s->user, k->site.user, k->site.nuser)) return gsx_oom(c);
      if (!info_here(c, &s->info, k) || !set_name(c, &s->info, k, end ? "S_last" : "S_first"))
        return 0;
      gs_zero3(s->pos);
      if (end) s->pos[0] = len;
      if (!add_material(c, nb_, s, k->site_material)) return 0;
    }
    b = nb_;
  }
  /* neighbours do not collide; MJCF names the pair k (k = 1 .. n-1) (B_<k-1>, B_<k>), the first
   * and the last by those names, except that the second body of the first pair is always B_1 (a
   * chain of two bodies then names a body it does not have, and MJCF refuses it) */
  for (int p = 1; p < nb; p++) {
    gsSpecExclude* x = gs_specAddExclude(c->spec);
    if (!x) return gsx_oom(c);
    if (!info_here(c, &x->info, k)) return 0;
    char b1[64], b2[64];
    chain_name(b1, sizeof b1, 'B', p - 1, nb);
    if (p == 1) snprintf(b2, sizeof b2, "B_1");
    else chain_name(b2, sizeof b2, 'B', p, nb);
    char *n1 = NULL, *n2 = NULL;
    int ok = full_name(c, k, b1, &n1) && full_name(c, k, b2, &n2) &&
             gs_specSetString(&x->body1, n1) && gs_specSetString(&x->body2, n2);
    free(n1);
    free(n2);
    if (!ok) return gsx_oom(c);
  }
  return 1;
}

/* MJCF records each composite in a custom text "composite_<prefix>" = "rope_<prefix>" (once per
 * name: the replicas of a composite share it) */
static int add_text(gsxCtx* c, const Composite* k) {
  const char* pre = k->prefix ? k->prefix : "";
  char name[512], data[512];
  snprintf(name, sizeof name, "composite_%.400s", pre);
  snprintf(data, sizeof data, "rope_%.400s", pre);
  gsSpec* s = c->spec;
  for (int i = 0; i < s->ntext; i++)
    if (s->text[i]->info.name && strcmp(s->text[i]->info.name, name) == 0) return 1;
  gsSpecText* t = gs_specAddText(s);
  if (!t) return gsx_oom(c);
  t->info.file = k->src->name;
  t->info.line = k->line;
  if (!gs_specSetName(&t->info, name) || !gs_specSetString(&t->data, data)) return gsx_oom(c);
  return 1;
}

static const char* const kRetired[][2] = {
    {"particle", "replicate"}, {"grid", "flex"}, {"rope", "cable"}, {"loop", "flexcomp"},
    {"cloth", "shell"},
};

int gsx_readComposite(gsxCtx* c, xmlNodePtr node, const gsxFile* src, gsSpecBody* parent) {
  int line = gsx_line(node);
  if (!gsx_checkAttrList(c, node, src, "composite", COMPOSITE_ATTRS)) return 0;
  if (!gsx_requireAttr(c, node, src, "composite", "type")) return 0;
  xmlChar* type = gsx_getAttr(c, node, "type");
  if (!type) return c->failed ? 0 : gsx_oom(c);
  int ok = 1;
  if (strcmp((const char*)type, "cable") != 0) {
    ok = 0;
    for (size_t i = 0; i < sizeof kRetired / sizeof kRetired[0]; i++)
      if (strcmp((const char*)type, kRetired[i][0]) == 0)
        gsx_error(c, src->name, line, "composite",
                  "The \"%s\" composite type is deprecated. Please use \"%s\" instead.", kRetired[i][0],
                  kRetired[i][1]);
    if (!c->failed)
      gsx_error(c, src->name, line, "composite", "attribute 'type': invalid keyword '%.40s' "
                "(the only type is cable)", (const char*)type);
  }
  xmlFree(type);
  if (!ok) return 0;

  Composite k;
  memset(&k, 0, sizeof(k));
  k.c = c;
  k.src = src;
  k.line = line;
  k.count[0] = 0, k.count[1] = k.count[2] = 1;
  k.size[0] = 1;
  gs_unitQuat(k.quat);
  /* the children's templates: MJCF's values, then the cable's own defaults (joints and sites in
   * group 3); user classes do not apply */
  gsSpecBody scratch;
  memset(&scratch, 0, sizeof(scratch));
  gsSpecJoint* j0 = gs_specAddJoint(&scratch);
  gsSpecGeom* g0 = gs_specAddGeom(&scratch);
  gsSpecSite* s0 = gs_specAddSite(&scratch);
  if (!j0 || !g0 || !s0) {
    ok = gsx_oom(c);
  } else {
    k.joint = *j0, k.geom = *g0, k.site = *s0;
    k.joint.group = 3;
    k.site.group = 3;
  }
  for (int i = 0; i < scratch.njoint; i++) free(scratch.joint[i]);
  for (int i = 0; i < scratch.ngeom; i++) free(scratch.geom[i]);
  for (int i = 0; i < scratch.nsite; i++) free(scratch.site[i]);
  free(scratch.joint), free(scratch.geom), free(scratch.site);
  k.joint.info.name = k.geom.info.name = k.site.info.name = NULL;

  ok = ok && gsx_applyOwn(c, node, src, "composite", set_composite, &k, "type") &&
       gsx_eachChild(c, node, src, composite_child, &k);
  gsReal* vert = NULL;
  int nv = 0;
  if (ok) {
    if (k.has_count)
      for (int i = 0; i < 3 && ok; i++)
        if (k.count[i] <= 0) ok = gsx_error(c, src->name, line, "composite", "positive counts expected");
    if (ok && k.has_vertex && k.has_count)
      ok = gsx_error(c, src->name, line, "composite", "either vertex or count can be specified, not both");
    if (ok && !k.has_vertex && !k.has_count)
      ok = gsx_error(c, src->name, line, "composite",
                     "missing required attribute 'count' (or 'vertex')");
    if (ok && !k.has_vertex && (k.count[0] < 2 || k.count[1] != 1 || k.count[2] != 1))
      ok = gsx_error(c, src->name, line, "composite",
                     "a cable must be one-dimensional: count is \"n 1 1\" with n >= 2");
    if (ok && !k.has_vertex && k.count[0] > COMPOSITE_MAX_VERTS)
      ok = gsx_error(c, src->name, line, "composite", "count above %d", COMPOSITE_MAX_VERTS);
    if (ok && !k.has_vertex && k.size[0] == 0 && k.size[1] == 0 && k.size[2] == 0)
      ok = gsx_error(c, src->name, line, "composite", "positive spacing or length expected");
    if (ok && k.ngeom == 0)
      ok = gsx_error(c, src->name, line, "composite", "a cable needs a <geom> of type capsule, "
                     "cylinder or box");
    if (ok && k.geom.type != GS_GEOM_CAPSULE && k.geom.type != GS_GEOM_CYLINDER &&
        k.geom.type != GS_GEOM_BOX)
      ok = gsx_error(c, src->name, line, "composite",
                     "cable geom type must be capsule, cylinder or box");
    if (ok && k.has_vertex && k.nvertex / 3 < 2)
      ok = gsx_error(c, src->name, line, "composite", "a cable needs at least 2 vertices");
  }
  if (ok) {
    /* MJCF turns the curve by quat as given, without normalising it */
    gsReal qn = sqrt(k.quat[0] * k.quat[0] + k.quat[1] * k.quat[1] + k.quat[2] * k.quat[2] +
                     k.quat[3] * k.quat[3]);
    if (!(qn >= GS_MINVAL)) ok = gsx_error(c, src->name, line, "composite", "quat is zero");
  }
  if (ok) {
    /* the vertices, kept in single precision as MJCF keeps them */
    nv = k.has_vertex ? k.nvertex / 3 : k.count[0];
    vert = malloc(sizeof(gsReal) * 3 * (size_t)nv);
    if (!vert) ok = gsx_oom(c);
    for (int i = 0; ok && i < nv; i++)
    {
      gsReal v[3], r[3];
      for (int a = 0; a < 3; a++)
        v[a] = k.has_vertex ? k.vertex[3 * i + a]
               : curve_value(k.has_curve ? k.curve[a] : CURVE_ZERO, (gsReal)i / (gsReal)(nv - 1),
                             k.size);
      /* quat turns a curve (given vertices are in the parent's frame already) */
      if (k.has_vertex) gs_copy3(r, v);
      else gs_rotVecQuat(r, v, k.quat);
      for (int a = 0; a < 3; a++) {
        volatile float single = (float)r[a];  /* a volatile: GCC 12 may drop a bare round trip */
        vert[3 * i + a] = single;
      }
    }
  }
  ok = ok && make_cable(c, &k, parent, vert, nv) && add_text(c, &k);
  free(vert);
  composite_free(&k);
  return ok;
}
