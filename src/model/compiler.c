/* The compiler: gsSpec tree -> gsModel flat arrays. Resolves frames (orientation forms, fromto,
 * angle units), inertia (explicit or from geoms), the dof tree and the sparsity of M. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/math.h"
#include "dynamics/dynamics.h"
#include "gauss/gauss.h"
#include "model/capacity.h"
#include "model/check.h"
#include "model/compile.h"
#include "model/mesh.h"
#include "model/model_alloc.h"
#include "pipeline/pipeline.h"

static int all_finite(const gsReal* v, int n) {
  for (int i = 0; i < n; i++)
    if (!isfinite(v[i])) return 0;
  return 1;
}

/* ---- geoms: frame, size, volume and inertia ---- */

/* frame and size of a geom or site; fromto overrides pos and orientation */
int gs_compileShape(gsCompileCtx* c, const gsSpecInfo* info, const char* kind, int type,
                         const gsReal* size_in, const gsReal* pos_in, const gsOrientation* orient,
                         int has_fromto, const gsReal* fromto, gsReal size[3], gsReal pos[3],
                         gsReal quat[4]) {
  memcpy(size, size_in, 3 * sizeof(gsReal));
  if (has_fromto) {
    if (type != GS_GEOM_CAPSULE && type != GS_GEOM_CYLINDER && type != GS_GEOM_BOX &&
        type != GS_GEOM_ELLIPSOID)
      return gs_compileFail(c, info, kind, "fromto requires a capsule, cylinder, box or ellipsoid");
    if (gs_fromtoPosClash(type, has_fromto, pos_in))
      return gs_compileFail(c, info, kind, "both pos and fromto defined");
    /* MJCF's convention: the local z axis points from the "to" end to the "from" end */
    gsReal dir[3];
    gs_sub3(dir, fromto, fromto + 3);
    gsReal len = gs_norm3(dir);
    if (len < GS_MINVAL) return gs_compileFail(c, info, kind, "fromto points coincide");
    for (int i = 0; i < 3; i++) pos[i] = 0.5 * (fromto[i] + fromto[i + 3]);
    gs_compileQuatZ2Vec(quat, dir);
    if (type == GS_GEOM_CAPSULE || type == GS_GEOM_CYLINDER) {
      size[1] = 0.5 * len;
    } else {
      size[1] = size[0];  /* boxes and ellipsoids along a segment have a square section */
      size[2] = 0.5 * len;
    }
  } else {
    gs_copy3(pos, pos_in);
    if (!gs_compileOrientation(c, quat, orient, info, kind)) return 0;
  }
  if (!all_finite(size, 3) || !all_finite(pos, 3)) return gs_compileFail(c, info, kind, "non-finite size or position");
  return 1;
}

static int check_geom_size(gsCompileCtx* c, const gsSpecGeom* g, const gsReal size[3], int on_world) {
  static const char* names[] = {"plane", "hfield", "sphere", "capsule", "ellipsoid", "cylinder", "box", "mesh"};
  int need = 0;
  switch (g->type) {
    case GS_GEOM_SPHERE: need = 1; break;
    case GS_GEOM_CAPSULE: case GS_GEOM_CYLINDER: need = 2; break;
    case GS_GEOM_ELLIPSOID: case GS_GEOM_BOX: need = 3; break;
    case GS_GEOM_PLANE:
      if (!on_world) return gs_compileFail(c, &g->info, "geom", "plane geoms are only allowed in static bodies");
      return 1;
    case GS_GEOM_HFIELD:
      return 1;  /* sized by its height field (gs_compileHFieldGeom) */
    case GS_GEOM_MESH:
      return 1;  /* checked by the mesh stage once meshes exist */
    default:
      return gs_compileFail(c, &g->info, "geom", "unknown geom type %d", g->type);
  }
  for (int i = 0; i < need; i++)
    if (size[i] <= 0) return gs_compileFail(c, &g->info, "geom", "size[%d] of %s geom must be positive", i, names[g->type]);
  return 1;
}

/* volume of a primitive; every formula is written in the operation order of MJCF's compiler, so that
 * masses and inertias (and from them the inertial frames) round to the same doubles */
static gsReal geom_volume(int type, const gsReal s[3]) {
  switch (type) {
    case GS_GEOM_SPHERE: return 4 * GS_PI * s[0] * s[0] * s[0] / 3;
    case GS_GEOM_CAPSULE: {
      gsReal r = s[0], h = 2 * s[1];
      return GS_PI * (r * r * h + 4 * r * r * r / 3);
    }
    case GS_GEOM_CYLINDER: return GS_PI * s[0] * s[0] * 2 * s[1];
    case GS_GEOM_ELLIPSOID: return 4 * GS_PI * s[0] * s[1] * s[2] / 3;
    case GS_GEOM_BOX:
    case GS_GEOM_HFIELD:  /* as MJCF: the box of the geom's size */
      return 8 * s[0] * s[1] * s[2];
    default: return 0;  /* planes: no mass; meshes: their own volume */
  }
}

/* principal inertia of a primitive of mass m about its centre, in its frame */
static void geom_inertia(int type, const gsReal s[3], gsReal m, gsReal I[3]) {
  I[0] = I[1] = I[2] = 0;
  switch (type) {
    case GS_GEOM_SPHERE:
      I[0] = I[1] = I[2] = 2 * m * s[0] * s[0] / 5;
      break;
    case GS_GEOM_CAPSULE: {
      /* a cylinder of length h plus two hemispheres (mass split by volume); each hemisphere's
       * moment about its flat face is a sphere's, and moving it to the capsule's centre adds
       * ms h (3r + 2h) / 8 (parallel axes through the hemisphere's centroid, 3r/8 from the face).
       * The terms are grouped as MJCF's compiler groups them, so the moments round the same */
      gsReal r = s[0], h = 2 * s[1];
      gsReal ms = m * (4 * r) / (3 * h + 4 * r), mc = m - ms;
      I[0] = I[1] = mc * (3 * r * r + h * h) / 12 + (ms * h * (3 * r + 2 * h) / 8 + 2 * ms * r * r / 5);
      I[2] = mc * r * r / 2 + 2 * ms * r * r / 5;
      break;
    }
    case GS_GEOM_CYLINDER: {
      gsReal r = s[0], h = 2 * s[1];
      I[0] = I[1] = m * (3 * r * r + h * h) / 12;
      I[2] = m * r * r / 2;
      break;
    }
    case GS_GEOM_ELLIPSOID:
      I[0] = m * (s[1] * s[1] + s[2] * s[2]) / 5;
      I[1] = m * (s[0] * s[0] + s[2] * s[2]) / 5;
      I[2] = m * (s[0] * s[0] + s[1] * s[1]) / 5;
      break;
    case GS_GEOM_BOX:
    case GS_GEOM_HFIELD:
      I[0] = m * (s[1] * s[1] + s[2] * s[2]) / 3;
      I[1] = m * (s[0] * s[0] + s[2] * s[2]) / 3;
      I[2] = m * (s[0] * s[0] + s[1] * s[1]) / 3;
      break;
    default:
      break;
  }
}

static gsReal geom_rbound(int type, const gsReal s[3]) {
  switch (type) {
    case GS_GEOM_SPHERE: return s[0];
    case GS_GEOM_CAPSULE: return s[0] + s[1];
    case GS_GEOM_CYLINDER: return sqrt(s[0] * s[0] + s[1] * s[1]);
    case GS_GEOM_ELLIPSOID: return fmax(fmax(s[0], s[1]), s[2]);
    case GS_GEOM_BOX: return gs_norm3(s);
    default: return 0;
  }
}

/* a mesh geom's frame is the mesh's inertial frame: the mesh's offset moves into the geom's pos
 * and quat, and its size is the half-extent of the vertices about that frame's origin */
static int mesh_geom_frame(gsCompileCtx* c, const gsSpecBody* b, const gsSpecGeom* g, gsModel* m, int id) {
  const gsMeshBuild* mb = gs_compileGeomMesh(c, b, g);
  if (!mb) {
    const gsSpecAssetRef* r = gs_specFindAssetRef(b, g);
    if (!r || !r->mesh) return gs_compileFail(c, &g->info, "geom", "a mesh geom needs a mesh");
    return gs_compileFail(c, &g->info, "geom", "unknown mesh '%s'", r->mesh);
  }
  gsReal* pos = m->geom_pos + 3 * id;
  gsReal* quat = m->geom_quat + 4 * id;
  gsReal off[3];
  gs_rotVecQuat(off, mb->pos, quat);
  gs_add3(pos, pos, off);
  gs_mulQuat(quat, quat, mb->quat);  /* not renormalized, as MJCF leaves it */
  gs_copy3(m->geom_size + 3 * id, mb->halfsize);
  return 1;
}

/* A primitive geom that names a mesh is fitted to it, as MJCF does: it takes the mesh's frame (as a
 * mesh geom would) and sizes from the mesh's equivalent inertia box (half-sizes h, the box of the
 * mesh's volume and principal inertia) or, under compiler fitaabb, from the bounding box of its
 * vertices in that frame (half-sizes h, the frame moved to the box's centre), each size times
 * fitscale: sphere radius mean(h) (bounding box: max(h)); cylinder and capsule radius the mean of
 * h0, h1 (bounding box: their max) and half-length h2, less r/2 for the inertia box's capsule and r
 * for the bounding box's, whose caps then reach the box's ends; ellipsoid and box h. */
static int fit_geom(gsCompileCtx* c, const gsSpecBody* b, const gsSpecGeom* g, gsModel* m, int id) {
  const gsMeshBuild* mb = gs_compileGeomMesh(c, b, g);
  if (!mb) {
    const gsSpecAssetRef* r = gs_specFindAssetRef(b, g);
    return gs_compileFail(c, &g->info, "geom", "unknown mesh '%s'", r && r->mesh ? r->mesh : "");
  }
  int type = g->type;
  if (type == GS_GEOM_PLANE || type == GS_GEOM_HFIELD)
    return gs_compileFail(c, &g->info, "geom", "only a sphere, capsule, cylinder, ellipsoid or box can be fitted to a mesh");
  int aabb = c->spec->compiler.fitaabb;
  gsReal h[3], center[3] = {0, 0, 0};
  if (aabb) {
    const gsReal *lo = mb->aabb, *hi = mb->aabb + 3;
    for (int k = 0; k < 3; k++) h[k] = (hi[k] - lo[k]) / 2, center[k] = (hi[k] + lo[k]) / 2;
  } else {
    if (!(mb->volume > 0))
      return gs_compileFail(c, &g->info, "geom", "mesh has no volume: a primitive cannot be fitted to its inertia");
    gs_compileMeshBox(mb, h);
  }
  gsReal* size = m->geom_size + 3 * id;
  switch (type) {
    case GS_GEOM_SPHERE:
      size[0] = aabb ? fmax(fmax(h[0], h[1]), h[2]) : (h[0] + h[1] + h[2]) / 3;
      size[1] = size[2] = 0;
      break;
    case GS_GEOM_CAPSULE:
    case GS_GEOM_CYLINDER:
      size[0] = aabb ? fmax(h[0], h[1]) : (h[0] + h[1]) / 2;
      size[1] = h[2];
      if (type == GS_GEOM_CAPSULE) size[1] -= aabb ? size[0] : size[0] / 2;
      size[2] = 0;
      break;
    default:
      gs_copy3(size, h);
      break;
  }
  for (int k = 0; k < 3; k++) size[k] *= g->fitscale;
  gsReal* pos = m->geom_pos + 3 * id;
  gsReal* quat = m->geom_quat + 4 * id;
  gsReal off[3];
  gs_rotVecQuat(off, mb->pos, quat);
  gs_add3(pos, pos, off);
  gs_mulQuat(quat, quat, mb->quat);
  gs_rotVecQuat(off, center, quat);
  gs_add3(pos, pos, off);
  return 1;
}

/* the smallest geom mass (and, for a given mass, volume) that counts, as MJCF */
#define GEOM_MASS_EPS 1e-14

/* mass and principal inertia (about its centre, in its frame) of one geom of a body: 1 when it has
 * mass, 0 when it adds nothing (outside the inertia groups, no volume, massless), -1 on bad input */
static int geom_mass_inertia(gsCompileCtx* c, const gsSpecBody* sb, const gsSpecGeom* sg,
                             const gsModel* m, int id, gsReal* gmass, gsReal I[3]) {
  const gsCompilerOptions* copt = &c->spec->compiler;
  if (sg->group < copt->inertiagrouprange[0] || sg->group > copt->inertiagrouprange[1]) return 0;
  gsReal V = geom_volume(sg->type, m->geom_size + 3 * id);
  const gsMeshBuild* mb = NULL;
  if (sg->type == GS_GEOM_MESH) {  /* the mesh's volume (or area) and principal inertia */
    mb = gs_compileGeomMesh(c, sb, sg);
    V = mb->volume;
  }
  if (V <= 0) return 0;
  if (!(sg->mass >= 0) && !(sg->density >= 0 && isfinite(sg->density)))
    return gs_compileFail(c, &sg->info, "geom", "mass and density must be non-negative") - 1;
  /* a given mass is kept as it is; otherwise density times volume */
  *gmass = sg->mass >= 0 ? sg->mass : sg->density * V;
  if (!isfinite(*gmass))
    return gs_compileFail(c, &sg->info, "geom", "mass and density must be non-negative") - 1;
  /* massless geoms do not shape the inertial frame; MJCF counts a geom's mass only above 1e-14,
   * and a given mass only on a volume above 1e-14 (its density would be meaningless) */
  if (!(*gmass > GEOM_MASS_EPS) || (sg->mass >= 0 && !(V > GEOM_MASS_EPS))) return 0;
  if (mb) gs_compileMeshInertia(mb, *gmass, I);  /* through the mesh's box of equal inertia (compile_mesh.c) */
  else geom_inertia(sg->type, m->geom_size + 3 * id, *gmass, I);
  return 1;
}

/* the body's inertia tensor about its centre of mass com, summed geom by geom as MJCF's compiler
 * does (so that it rounds the same): each geom's rotated inertia R diag(I) R^T, then its
 * parallel-axis term m (|d|^2 1 - d d^T) with d its offset from the centre, the diagonal as
 * m (d_a^2 + d_b^2) over the two other axes */
static int body_inertia_tensor(gsCompileCtx* c, const gsSpecBody* sb, const gsModel* m, int first,
                               const gsReal com[3], gsReal J[9]) {
  for (int k = 0; k < 9; k++) J[k] = 0;
  for (int g = 0; g < sb->ngeom; g++) {
    gsReal gm, I[3], R[9], d[3];
    int id = first + g;
    int has = geom_mass_inertia(c, sb, sb->geom[g], m, id, &gm, I);
    if (has < 0) return 0;
    if (!has) continue;
    gs_quat2Mat(R, m->geom_quat + 4 * id);
    gs_sub3(d, m->geom_pos + 3 * id, com);
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) {
        /* both halves from the lower triangle (hi >= lo), so the tensor is exactly symmetric */
        int hi = i > j ? i : j, lo = i > j ? j : i;
        gsReal v = 0;
        for (int k = 0; k < 3; k++) v += R[3 * hi + k] * I[k] * R[3 * lo + k];
        gsReal par;
        if (i == j) {
          int a = i == 0 ? 1 : 0, b = i == 2 ? 1 : 2;  /* the other two axes, in order */
          par = gm * (d[a] * d[a] + d[b] * d[b]);
        } else {
          par = -gm * d[lo] * d[hi];
        }
        J[3 * i + j] = J[3 * i + j] + v + par;
      }
  }
  return 1;
}

/* colours are single precision in MJCF's compiled models: round them the same way, so that values
 * compare equal and a saved model reloads to the same numbers */
static void copy_rgba(gsReal dst[4], const gsReal src[4]) {
  for (int i = 0; i < 4; i++) dst[i] = gs_compileFloat(src[i]);
}

/* ---- frames that coincide ---- */

/* MuJoCo's tolerance for frames that count as the same: every coordinate within it */
#define SAMEFRAME_TOL 1e-6

static int same_pos(const gsReal a[3], const gsReal b[3]) {
  for (int i = 0; i < 3; i++)
    if (!(fabs(a[i] - b[i]) < SAMEFRAME_TOL)) return 0;
  return 1;
}
/* q and -q are the same rotation */
static int same_quat(const gsReal a[4], const gsReal b[4]) {
  int plus = 1, minus = 1;
  for (int i = 0; i < 4; i++) {
    if (!(fabs(a[i] - b[i]) < SAMEFRAME_TOL)) plus = 0;
    if (!(fabs(a[i] + b[i]) < SAMEFRAME_TOL)) minus = 0;
  }
  return plus || minus;
}
static int frame_relation(const gsModel* m, int b, const gsReal pos[3], const gsReal quat[4]) {
  static const gsReal zero[3] = {0, 0, 0}, unit[4] = {1, 0, 0, 0};
  int id = same_quat(quat, unit);
  if (id && same_pos(pos, zero)) return GS_SAMEFRAME_BODY;
  if (id) return GS_SAMEFRAME_BODYROT;
  int irot = same_quat(quat, m->body_iquat + 4 * b);
  if (irot && same_pos(pos, m->body_ipos + 3 * b)) return GS_SAMEFRAME_INERTIA;
  if (irot) return GS_SAMEFRAME_INERTIAROT;
  return GS_SAMEFRAME_NONE;
}

/* what slider_body and diagonal_body share: a body of the world or of a static body of the world,
 * with joints and a mass, no child body, its inertial frame its own frame (within 1e-10) */
static int simple_frame(const gsModel* m, int b) {
  static const gsReal eps = 1e-10;
  int p = m->body_parentid[b];
  if ((p != 0 && (m->body_weldid[p] != 0 || m->body_parentid[p] != 0)) || m->body_jntnum[b] == 0 ||
      m->body_mass[b] < GS_MINVAL)
    return 0;
  for (int k = b + 1; k < m->nbody; k++)
    if (m->body_parentid[k] == b) return 0;
  const gsReal* q = m->body_iquat + 4 * b;
  return !(gs_norm3(m->body_ipos + 3 * b) > eps || fabs(q[0] - 1) > eps || fabs(q[1]) > eps ||
           fabs(q[2]) > eps || fabs(q[3]) > eps);
}

/* a joint's anchor on the body's origin (to 1e-6 in each coordinate) */
static int anchored_at_origin(const gsModel* m, int j) {
  for (int k = 0; k < 3; k++)
    if (fabs(m->jnt_pos[3 * j + k]) >= 1e-6) return 0;
  return 1;
}

/* A body in the world or in a static body of the world (a URDF's static root), without children,
 * whose inertial frame is its own frame and whose joints are only mutually orthogonal slides has
 * a diagonal block of M: MJCF then takes its weights as 1/mass, leaving the armature out (MuJoCo
 * 3.3.7's body_simple 2; one static body deeper it does not). Not where a slide's anchor is off
 * the body's origin by 1e-6 or more in any coordinate (though it does not move the slide), nor
 * on a spatial tendon with armature (tendon_armature_bodies): measured against MuJoCo 3.3.7,
 * whose weights there come from M^-1 (a third of 1/mass for one slide's body). Decided here,
 * once: gs_setConst keeps it after edits, as MJCF does. */
static int slider_body(const gsModel* m, int b) {
  static const gsReal eps = 1e-10;
  if (!simple_frame(m, b)) return 0;
  int j0 = m->body_jntadr[b], n = m->body_jntnum[b];
  for (int j = j0; j < j0 + n; j++) {
    if (m->jnt_type[j] != GS_JNT_SLIDE || !anchored_at_origin(m, j)) return 0;
    for (int k = j0; k < j; k++)
      if (fabs(gs_dot3(m->jnt_axis + 3 * j, m->jnt_axis + 3 * k)) > eps) return 0;
  }
  return 1;
}

/* a free body whose mass matrix block is diagonal whatever its pose (dof_diagonal): simple_frame's
 * body with a free joint alone, at the body's origin; its block is then diag(m, m, m, I) (the free
 * joint's rotations are about the body's axes), which gs_crb writes exactly, as MuJoCo does for
 * its simple bodies (qM holds body_mass and body_inertia there, zeros off the diagonal) */
static int diagonal_body(const gsModel* m, int b) {
  int j = m->body_jntadr[b];
  return simple_frame(m, b) && m->body_jntnum[b] == 1 && m->jnt_type[j] == GS_JNT_FREE &&
         anchored_at_origin(m, j);
}

/* which frames the kinematics copies: the inertial frame from the body frame, a geom's or site's
 * from either; a frame within the tolerance of another is taken as it */
static void compile_sameframe(gsModel* m) {
  for (int b = 0; b < m->nbody; b++) {
    int r = frame_relation(m, b, m->body_ipos + 3 * b, m->body_iquat + 4 * b);
    m->body_sameframe[b] = r == GS_SAMEFRAME_BODY || r == GS_SAMEFRAME_BODYROT ? r : GS_SAMEFRAME_NONE;
  }
  for (int g = 0; g < m->ngeom; g++)
    m->geom_sameframe[g] = frame_relation(m, m->geom_bodyid[g], m->geom_pos + 3 * g, m->geom_quat + 4 * g);
  for (int s = 0; s < m->nsite; s++)
    m->site_sameframe[s] = frame_relation(m, m->site_bodyid[s], m->site_pos + 3 * s, m->site_quat + 4 * s);
}

/* MJCF's rule for moving bodies: each body with joints, or one of the bodies welded to it (its
 * descendants reached without crossing another joint), must by itself have a mass and all three
 * principal moments of at least GS_MINVAL. Masses spread over several welded bodies do not add up
 * (two point masses apart are refused), and a jointed child does not count for its parent: M would
 * be near singular in the parent's degrees of freedom, or the joint's own mass ill defined. */
/* the bodies holding a site of a spatial tendon with armature (its inertia couples their dofs,
 * and MJCF then takes their weights from M^-1; a fixed tendon's armature leaves them as they
 * are, measured against MuJoCo 3.3.7) */
static void tendon_armature_bodies(gsModel* m) {
  for (int t = 0; t < m->ntendon; t++) {
    if (!(m->tendon_armature[t] > 0)) continue;
    for (int w = m->tendon_adr[t]; w < m->tendon_adr[t] + m->tendon_num[t]; w++)
      if (m->wrap_type[w] == GS_WRAP_SITE) m->body_slider[m->site_bodyid[m->wrap_objid[w]]] = 0;
  }
}

static int check_moving_bodies(gsCompileCtx* c, const gsModel* m) {
  unsigned char* solid = calloc((size_t)m->nbody, 1);
  if (!solid) return gs_compileFail(c, NULL, "model", "out of memory"), 0;
  for (int b = 1; b < m->nbody; b++) {
    const gsReal* I = m->body_inertia + 3 * b;
    if (m->body_mass[b] >= GS_MINVAL && I[0] >= GS_MINVAL && I[1] >= GS_MINVAL && I[2] >= GS_MINVAL)
      solid[m->body_weldid[b]] = 1;
  }
  int bad = 0;
  for (int b = 1; b < m->nbody && !bad; b++) {
    if (m->body_jntnum[b] && !solid[b]) bad = b;
  }
  free(solid);
  if (bad)
    gs_compileFail(c, &c->body[bad]->info, "body",
                   "mass and inertia of moving bodies must be larger than mjMINVAL (1e-15): neither this "
                   "body nor a body welded to it (no joint between) has both");
  return !bad;
}

/* ---- the tree ---- */
static void flatten(gsCompileCtx* c, const gsSpecBody* b) {
  c->body[c->nbody++] = b;
  for (int i = 0; i < b->nchild; i++) flatten(c, b->child[i]);
}

static int count_bodies(const gsSpecBody* b) {
  int n = 1;
  for (int i = 0; i < b->nchild; i++) n += count_bodies(b->child[i]);
  return n;
}

static int joint_nq(int type) { return type == GS_JNT_FREE ? 7 : type == GS_JNT_BALL ? 4 : 1; }
static int joint_nv(int type) { return type == GS_JNT_FREE ? 6 : type == GS_JNT_BALL ? 3 : 1; }

/* A joint's springdamper (time constant tc, damping ratio z, both positive) replaces its stiffness and
 * damping by those of a mass-spring-damper with the joint's inertia at qpos0, the inverse of the
 * mean invweight0 of its dofs (a free joint's translational and rotational parts averaged, as
 * MJCF does) (the solref convention: natural frequency 1/(tc z), damping 2/tc per unit mass):
 * k = mass / (tc z)^2, b = 2 mass / tc on every dof of the joint. */
static void compile_springdamper(gsCompileCtx* c, gsModel* m) {
  for (int j = 0; j < m->njnt; j++) {
    int b = m->jnt_bodyid[j];
    const gsSpecJoint* sj = c->body[b]->joint[j - m->body_jntadr[b]];
    gsReal tc = sj->springdamper[0], z = sj->springdamper[1];
    if (!(tc > 0 && z > 0)) continue;
    int a = m->jnt_dofadr[j], n = joint_nv(m->jnt_type[j]);
    gsReal w = 0;
    for (int k = 0; k < n; k++) w += m->dof_invweight0[a + k];
    gsReal mass = n / w;
    m->jnt_stiffness[j] = mass / (tc * tc * z * z);
    for (int k = 0; k < n; k++) m->dof_damping[a + k] = 2 * mass / tc;
  }
}

static int body_index(const gsCompileCtx* c, const gsSpecBody* b) {
  for (int i = 0; i < c->nbody; i++)
    if (c->body[i] == b) return i;
  return -1;
}

/* the smallest eigenvalue a full inertia matrix may have (MJCF's) */
#define FULLINERTIA_MIN 1e-14

/* the inertial frame of a body without mass: its pose as written in its parent, i.e. without the
 * <frame>s around it (MuJoCo 3.3.7 takes the pose relative to the body's frame) */
static void massless_frame(const gsSpecBody* sb, const gsModel* m, int b, gsReal ipos[3], gsReal iquat[4]) {
  gs_copy3(ipos, m->body_pos + 3 * b);
  gs_copy4(iquat, m->body_quat + 4 * b);
  if (!sb->framed) return;
  gsReal inv[4], p[3];
  gs_negQuat(inv, sb->frame_quat);
  gs_sub3(p, ipos, sb->frame_pos);
  gs_rotVecQuat(ipos, p, inv);
  gs_mulQuat(iquat, inv, m->body_quat + 4 * b);
  gs_normalize4(iquat);
}

/* explicit <inertial> element: mass, inertia (diagonal or full), frame */
static int explicit_inertial(gsCompileCtx* c, const gsSpecBody* b, gsReal* mass, gsReal ipos[3],
                             gsReal iquat[4], gsReal inertia[3]) {
  const gsSpecInertial* in = &b->inertial;
  if (!(in->mass >= 0) || !isfinite(in->mass)) return gs_compileFail(c, &b->info, "body", "inertial mass must be non-negative");
  *mass = in->mass;
  gs_copy3(ipos, in->pos);
  gsReal q[4];
  if (!gs_compileOrientation(c, q, &in->orient, &b->info, "body")) return 0;
  if (in->has_full) {
    const gsReal* f = in->fullinertia;
    gsReal mat[9] = {f[0], f[3], f[4], f[3], f[1], f[5], f[4], f[5], f[2]}, vec[9], eq[4];
    if (!all_finite(f, 6)) return gs_compileFail(c, &b->info, "body", "fullinertia is not finite");
    gs_eig3(inertia, vec, eq, mat);
    /* MJCF's test: the last eigenvalue, which is the smallest unless the solver left moments
     * within 1e-12 of each other unsorted (so "0 1e-14 1e-14" passes, "0 1 1" does not) */
    if (!(inertia[2] >= FULLINERTIA_MIN))
      return gs_compileFail(c, &b->info, "body",
                            "fullinertia must have positive eigenvalues (the last, %g, is below 1e-14)",
                            inertia[2]);
    /* MJCF allows no orientation with fullinertia (q is then the identity): the frame is the
     * eigen-solver's, left with the norm it has, as MJCF leaves it */
    gs_mulQuat(iquat, q, eq);
  } else {
    gs_copy3(inertia, in->diaginertia);
    gs_copy4(iquat, q);
  }
  for (int i = 0; i < 3; i++)
    if (!(inertia[i] >= 0) || !isfinite(inertia[i]))
      return gs_compileFail(c, &b->info, "body", "inertia must be non-negative");
  return 1;
}

gsModel* gs_compileSpec(const gsSpec* spec, char* err, int errsz) {
  return gs_compileSpecStore(spec, err, errsz, NULL, 0);
}

gsModel* gs_compileSpecStore(const gsSpec* spec, char* err, int errsz, gsMeshStore* store,
                             int skip_moving) {
  gsCompileCtx c = {spec, err, errsz, 0, 0, NULL, 0, 0, NULL, store, skip_moving};
  if (err && errsz > 0) err[0] = 0;
  if (!spec || !spec->world) {
    if (err && errsz > 0) snprintf(err, (size_t)errsz, "gs_compile: no spec");
    return NULL;
  }
  if (!gs_compileUniqueNames(&c)) return NULL;
  const gsCompilerOptions* copt = &spec->compiler;
  int nbody = count_bodies(spec->world);
  c.body = malloc(sizeof(gsSpecBody*) * (size_t)nbody);
  if (!c.body) {
    if (err && errsz > 0) snprintf(err, (size_t)errsz, "gs_compile: out of memory");
    return NULL;
  }
  flatten(&c, spec->world);

  /* ---- sizes ---- */
  gsModel sz;
  memset(&sz, 0, sizeof(sz));
  sz.nbody = nbody;
  sz.nnames = (int)strlen(gs_compileModelName(spec)) + 1;  /* first in names (compile_names.c) */
  for (int b = 0; b < nbody; b++) {
    const gsSpecBody* sb = c.body[b];
    sz.nnames += (int)gs_compileNameBytes(&sb->info);
    for (int j = 0; j < sb->njoint; j++) {
      const gsSpecJoint* sj = sb->joint[j];
      if (b == 0) { gs_compileFail(&c, &sj->info, "joint", "joint on the world body"); goto error; }
      if (sj->type < GS_JNT_FREE || sj->type > GS_JNT_HINGE) { gs_compileFail(&c, &sj->info, "joint", "unknown joint type %d", sj->type); goto error; }
      /* with fusestatic (skip_moving: the fused tree is compiled next) a free body may sit in
       * static bodies that fusing takes away, as MJCF allows; the fused tree is checked then */
      if (sj->type == GS_JNT_FREE && sb->parent != spec->world && !c.skip_moving) {
        gs_compileFail(&c, &sj->info, "joint", "free joint can only be used on a child of the world body");
        goto error;
      }
      if ((sj->type == GS_JNT_HINGE || sj->type == GS_JNT_BALL) && j > 0 && sb->joint[j - 1]->type == GS_JNT_BALL) {
        /* a ball already spans every rotation: another rotation after it is redundant */
        gs_compileFail(&c, &sj->info, "joint", "a ball joint is followed by another rotational joint in the same body");
        goto error;
      }
      if (sj->type == GS_JNT_FREE && sb->njoint > 1) {
        gs_compileFail(&c, &sj->info, "joint", "a free joint must be the only joint of its body");
        goto error;
      }
      sz.njnt++;
      sz.nq += joint_nq(sj->type);
      sz.nv += joint_nv(sj->type);
      sz.nnames += (int)gs_compileNameBytes(&sj->info);
    }
    sz.ngeom += sb->ngeom;
    sz.nsite += sb->nsite;
    for (int g = 0; g < sb->ngeom; g++) sz.nnames += (int)gs_compileNameBytes(&sb->geom[g]->info);
    for (int s = 0; s < sb->nsite; s++) sz.nnames += (int)gs_compileNameBytes(&sb->site[s]->info);
  }

  /* dof tree first: nM depends on the depth of each dof */
  int* dof_parent = malloc(sizeof(int) * (size_t)(sz.nv + 1));
  int* body_lastdof = malloc(sizeof(int) * (size_t)nbody);
  if (!dof_parent || !body_lastdof) {
    free(dof_parent); free(body_lastdof);
    gs_compileFail(&c, NULL, "model", "out of memory");
    goto error;
  }
  {
    int dof = 0;
    body_lastdof[0] = -1;
    sz.nM = 0;
    for (int b = 1; b < nbody; b++) {
      int parent = body_index(&c, c.body[b]->parent);
      int last = body_lastdof[parent];
      for (int j = 0; j < c.body[b]->njoint; j++) {
        int nv = joint_nv(c.body[b]->joint[j]->type);
        for (int k = 0; k < nv; k++) {
          dof_parent[dof] = last;
          last = dof++;
        }
      }
      body_lastdof[b] = last;
    }
    for (int i = 0; i < sz.nv; i++) {
      int depth = 1;
      for (int p = dof_parent[i]; p >= 0; p = dof_parent[p]) depth++;
      sz.nM += depth;
    }
  }

  if (!gs_compileSizesWorld(&c, &sz) || !gs_compileSizesActuation(&c, &sz) ||
      !gs_compileSizesSensing(&c, &sz)) {
    free(dof_parent); free(body_lastdof);
    goto error;
  }

  gsModel* m = gs_allocModel(&sz);
  if (!m) {
    free(dof_parent); free(body_lastdof);
    gs_compileFail(&c, NULL, "model", "out of memory");
    goto error;
  }
  m->opt = spec->option;
  {
    char why[200];
    if (!gs_checkOptionValues(&m->opt, why, sizeof why)) {
      gs_compileFail(&c, NULL, "option", "%s", why);  /* the rules the binary loader applies */
      goto error_model;
    }
  }

  /* ---- bodies, joints, dofs, geoms, sites ---- */
  int jnt = 0, dof = 0, qadr = 0, geom = 0, site = 0;
  for (int b = 0; b < nbody; b++) {
    const gsSpecBody* sb = c.body[b];
    int parent = b == 0 ? -1 : body_index(&c, sb->parent);
    m->body_parentid[b] = b == 0 ? 0 : parent;
    m->name_bodyadr[b] = gs_compileName(&c, m, &sb->info);
    if (!isfinite(sb->gravcomp)) { gs_compileFail(&c, &sb->info, "body", "non-finite gravcomp"); goto error_model; }
    m->body_gravcomp[b] = b == 0 ? 0 : sb->gravcomp;

    /* frame relative to the parent */
    if (b == 0) {
      gs_unitQuat(m->body_quat);
    } else {
      gs_copy3(m->body_pos + 3 * b, sb->pos);
      if (!all_finite(sb->pos, 3)) { gs_compileFail(&c, &sb->info, "body", "non-finite pos"); goto error_model; }
      if (!gs_compileOrientation(&c, m->body_quat + 4 * b, &sb->orient, &sb->info, "body")) goto error_model;
    }
    m->body_rootid[b] = b == 0 ? 0 : (parent == 0 ? b : m->body_rootid[parent]);

    /* joints and dofs */
    m->body_jntadr[b] = sb->njoint ? jnt : -1;
    m->body_jntnum[b] = sb->njoint;
    m->body_dofadr[b] = -1;
    m->body_dofnum[b] = 0;
    for (int j = 0; j < sb->njoint; j++, jnt++) {
      const gsSpecJoint* sj = sb->joint[j];
      m->name_jntadr[jnt] = gs_compileName(&c, m, &sj->info);
      m->jnt_type[jnt] = sj->type;
      m->jnt_bodyid[jnt] = b;
      m->jnt_qposadr[jnt] = qadr;
      m->jnt_dofadr[jnt] = dof;
      m->jnt_group[jnt] = sj->group;
      gs_copy3(m->jnt_pos + 3 * jnt, sj->pos);
      gs_copy3(m->jnt_axis + 3 * jnt, sj->axis);
      if (sj->type == GS_JNT_BALL || sj->type == GS_JNT_FREE) {
        /* MJCF ignores the axis of a ball or free joint (a default class's included) and
         * compiles z (measured against MuJoCo 3.3.7: its test/engine/testdata/inertia.xml) */
        gs_zero3(m->jnt_axis + 3 * jnt);
        m->jnt_axis[3 * jnt + 2] = 1;
      }
      if ((sj->type == GS_JNT_HINGE || sj->type == GS_JNT_SLIDE) &&
          gs_normalize3(m->jnt_axis + 3 * jnt) < GS_MINVAL) {
        gs_compileFail(&c, &sj->info, "joint", "axis must not be zero");
        goto error_model;
      }
      if (sj->stiffness < 0 || sj->damping < 0 || sj->armature < 0 || sj->frictionloss < 0) {
        gs_compileFail(&c, &sj->info, "joint", "stiffness, damping, armature and frictionloss must be non-negative");
        goto error_model;
      }
      if ((sj->springdamper[0] != 0 || sj->springdamper[1] != 0) &&
          !(sj->springdamper[0] > 0 && sj->springdamper[1] > 0)) {
        gs_compileFail(&c, &sj->info, "joint", "springdamper values must both be positive when given");
        goto error_model;
      }
      m->jnt_stiffness[jnt] = sj->stiffness;
      m->jnt_actgravcomp[jnt] = sj->actgravcomp != 0;
      int angular = sj->type == GS_JNT_HINGE || sj->type == GS_JNT_BALL;
      int limited = sj->limited;
      if (sj->type == GS_JNT_FREE) {
        limited = 0;  /* MJCF: a free joint has no limits, whatever a default class says */
      } else if (limited == GS_LIMITED_AUTO) {
        if (!copt->autolimits && sj->range_given) {
          gs_compileFail(&c, &sj->info, "joint", "range is given but limited is auto and autolimits is off");
          goto error_model;
        }
        limited = sj->range_given;
      }
      m->jnt_limited[jnt] = limited;
      /* MJCF converts the range to radians only when the joint is limited */
      for (int k = 0; k < 2; k++)
        m->jnt_range[2 * jnt + k] = angular && limited ? gs_compileRadian(&c, sj->range[k]) : sj->range[k];
      if (limited && sj->type != GS_JNT_BALL && m->jnt_range[2 * jnt] >= m->jnt_range[2 * jnt + 1]) {
        gs_compileFail(&c, &sj->info, "joint", "range[0] must be smaller than range[1]");
        goto error_model;
      }
      m->jnt_margin[jnt] = sj->margin;
      memcpy(m->jnt_solref + GS_NREF * jnt, sj->solref_limit, sizeof(sj->solref_limit));
      memcpy(m->jnt_solimp + GS_NIMP * jnt, sj->solimp_limit, sizeof(sj->solimp_limit));

      /* default configuration and spring rest configuration */
      gsReal* q0 = m->qpos0 + qadr;
      gsReal* qs = m->qpos_spring + qadr;
      switch (sj->type) {
        case GS_JNT_FREE:
          gs_copy3(q0, m->body_pos + 3 * b);
          gs_copy4(q0 + 3, m->body_quat + 4 * b);
          memcpy(qs, q0, 7 * sizeof(gsReal));
          break;
        case GS_JNT_BALL:
          gs_unitQuat(q0);
          gs_unitQuat(qs);
          break;
        default:
          q0[0] = angular ? gs_compileRadian(&c, sj->ref) : sj->ref;
          qs[0] = angular ? gs_compileRadian(&c, sj->springref) : sj->springref;
          break;
      }

      int nv = joint_nv(sj->type);
      if (m->body_dofadr[b] < 0) m->body_dofadr[b] = dof;
      m->body_dofnum[b] += nv;
      for (int k = 0; k < nv; k++, dof++) {
        m->dof_bodyid[dof] = b;
        m->dof_jntid[dof] = jnt;
        m->dof_parentid[dof] = dof_parent[dof];
        m->dof_armature[dof] = sj->armature;
        m->dof_damping[dof] = sj->damping;
        m->dof_frictionloss[dof] = sj->frictionloss;
        memcpy(m->dof_solref + GS_NREF * dof, sj->solref_friction, sizeof(sj->solref_friction));
        memcpy(m->dof_solimp + GS_NIMP * dof, sj->solimp_friction, sizeof(sj->solimp_friction));
      }
      qadr += joint_nq(sj->type);
    }
    /* a body without joints is welded to its parent */
    m->body_weldid[b] = (b == 0 || sb->njoint) ? b : m->body_weldid[parent];

    /* geoms */
    m->body_geomadr[b] = sb->ngeom ? geom : -1;
    m->body_geomnum[b] = sb->ngeom;
    for (int g = 0; g < sb->ngeom; g++, geom++) {
      const gsSpecGeom* sg = sb->geom[g];
      m->name_geomadr[geom] = gs_compileName(&c, m, &sg->info);
      m->geom_type[geom] = sg->type;
      m->geom_bodyid[geom] = b;
      if (!gs_compileShape(&c, &sg->info, "geom", sg->type, sg->size, sg->pos, &sg->orient, sg->has_fromto,
                         sg->fromto, m->geom_size + 3 * geom, m->geom_pos + 3 * geom, m->geom_quat + 4 * geom))
        goto error_model;
      if (sg->type != GS_GEOM_MESH && gs_specFindAssetRef(sb, sg) && gs_specFindAssetRef(sb, sg)->mesh &&
          !fit_geom(&c, sb, sg, m, geom))
        goto error_model;
      /* planes only where nothing moves: the world and bodies welded to it (no joint on the path) */
      if (!check_geom_size(&c, sg, m->geom_size + 3 * geom, m->body_weldid[b] == 0)) goto error_model;
      if (sg->type == GS_GEOM_MESH && !mesh_geom_frame(&c, sb, sg, m, geom)) goto error_model;
      if (sg->condim != 1 && sg->condim != 3 && sg->condim != 4 && sg->condim != 6) {
        gs_compileFail(&c, &sg->info, "geom", "condim must be 1, 3, 4 or 6");
        goto error_model;
      }
      m->geom_contype[geom] = sg->contype;
      m->geom_conaffinity[geom] = sg->conaffinity;
      m->geom_condim[geom] = sg->condim;
      m->geom_group[geom] = sg->group;
      m->geom_priority[geom] = sg->priority;
      gs_copy3(m->geom_friction + 3 * geom, sg->friction);
      m->geom_solmix[geom] = sg->solmix;
      memcpy(m->geom_solref + GS_NREF * geom, sg->solref, sizeof(sg->solref));
      memcpy(m->geom_solimp + GS_NIMP * geom, sg->solimp, sizeof(sg->solimp));
      m->geom_margin[geom] = sg->margin;
      m->geom_gap[geom] = sg->gap;
      m->geom_rbound[geom] = sg->type == GS_GEOM_MESH ? gs_norm3(m->geom_size + 3 * geom)
                                                      : geom_rbound(sg->type, m->geom_size + 3 * geom);
      if (sg->type == GS_GEOM_HFIELD &&
          !gs_compileHFieldGeom(&c, sb, sg, m->geom_size + 3 * geom, m->geom_rbound + geom))
        goto error_model;
      copy_rgba(m->geom_rgba + 4 * geom, sg->rgba);
      gs_compileGeomFluid(sg, sg->type, m->geom_size + 3 * geom, m->geom_fluid + GS_NFLUID * geom);
    }

    /* sites */
    for (int s = 0; s < sb->nsite; s++, site++) {
      const gsSpecSite* ss = sb->site[s];
      m->name_siteadr[site] = gs_compileName(&c, m, &ss->info);
      m->site_type[site] = ss->type;
      m->site_bodyid[site] = b;
      m->site_group[site] = ss->group;
      if (!gs_compileShape(&c, &ss->info, "site", ss->type, ss->size, ss->pos, &ss->orient, ss->has_fromto,
                         ss->fromto, m->site_size + 3 * site, m->site_pos + 3 * site, m->site_quat + 4 * site))
        goto error_model;
      copy_rgba(m->site_rgba + 4 * site, ss->rgba);
    }

    /* inertia: explicit, or from the geoms of the body */
    if (b > 0) {
      int ifg = sb->own_mass ? sb->inertiafromgeom : copt->inertiafromgeom;
      int use_geoms = ifg == GS_INERTIAFROMGEOM_TRUE || (ifg == GS_INERTIAFROMGEOM_AUTO && !sb->inertial.given);
      gsReal* ipos = m->body_ipos + 3 * b;
      gsReal* iquat = m->body_iquat + 4 * b;
      gsReal* inertia = m->body_inertia + 3 * b;
      gsReal mass = 0, mc[3] = {0, 0, 0};
      int ncontrib = 0, single = -1;
      gsReal single_I[3] = {0, 0, 0};
      if (use_geoms) {
        int first = m->body_geomadr[b];
        for (int g = 0; g < sb->ngeom; g++) {
          gsReal gm, I[3];
          int has = geom_mass_inertia(&c, sb, sb->geom[g], m, first + g, &gm, I);
          if (has < 0) goto error_model;
          if (!has) continue;
          const gsReal* gpos = m->geom_pos + 3 * (first + g);
          mass += gm;
          for (int i = 0; i < 3; i++) mc[i] += gm * gpos[i];
          ncontrib++;
          single = first + g;
          gs_copy3(single_I, I);
        }
      }
      /* MJCF keeps an explicit <inertial> where the geoms give no mass, even with
       * inertiafromgeom="true" (measured against MuJoCo 3.3.7: a body with none, or only
       * massless ones or ones outside inertiagrouprange) */
      if (use_geoms && mass < GS_MINVAL && sb->inertial.given) use_geoms = 0;
      if (use_geoms) {
        int first = m->body_geomadr[b];
        m->body_mass[b] = mass;
        if (ncontrib == 1) {
          /* one geom: its own frame is already principal; keep it as written */
          gs_copy3(ipos, m->geom_pos + 3 * single);
          gs_copy4(iquat, m->geom_quat + 4 * single);
          gs_copy3(inertia, single_I);
        } else if (mass < GS_MINVAL) {
          /* no mass: MJCF puts the inertial frame at the body's own pose in its parent (measured
           * against MuJoCo 3.3.7; it shows in xipos, the body com Jacobian and body frame
           * sensors, never in the dynamics) */
          massless_frame(sb, m, b, ipos, iquat);
          gs_zero3(inertia);
        } else {
          gsReal J[9], vec[9];
          for (int i = 0; i < 3; i++) ipos[i] = mc[i] / mass;
          if (!body_inertia_tensor(&c, sb, m, first, ipos, J)) goto error_model;
          gs_eig3(inertia, vec, iquat, J);
        }
      } else if (sb->inertial.given) {
        if (!explicit_inertial(&c, sb, m->body_mass + b, ipos, iquat, inertia)) goto error_model;
      } else {
        /* neither geoms nor <inertial>: as a body whose geoms give no mass (MuJoCo 3.3.7) */
        massless_frame(sb, m, b, ipos, iquat);
      }
    } else {
      gs_unitQuat(m->body_iquat);
    }
  }

  /* ---- mass bounds, total mass, validity ---- */
  for (int b = 1; b < nbody; b++) {
    gsReal* I = m->body_inertia + 3 * b;
    const gsSpecBody* sb = c.body[b];
    gsReal boundmass = sb->own_mass ? sb->boundmass : copt->boundmass;
    gsReal boundinertia = sb->own_mass ? sb->boundinertia : copt->boundinertia;
    if (m->body_mass[b] < boundmass) m->body_mass[b] = boundmass;
    for (int k = 0; k < 3; k++)
      if (I[k] < boundinertia) I[k] = boundinertia;
  }
  for (int b = 1; b < nbody; b++) {
    gsReal* I = m->body_inertia + 3 * b;
    /* principal moments of a physical body satisfy the triangle inequality */
    int bad = I[0] + I[1] < I[2] * (1 - 1e-10) || I[0] + I[2] < I[1] * (1 - 1e-10) ||
              I[1] + I[2] < I[0] * (1 - 1e-10);
    if (bad) {
      if (c.body[b]->own_mass ? c.body[b]->balanceinertia : copt->balanceinertia) {
        gsReal mean = (I[0] + I[1] + I[2]) / 3;
        I[0] = I[1] = I[2] = mean;
      } else {
        gs_compileFail(&c, &c.body[b]->info, "body", "inertia must satisfy A + B >= C; use balanceinertia if intended");
        goto error_model;
      }
    }
  }
  /* bounded and balanced, before settotalmass scales them (as MJCF orders it) */
  if (!c.skip_moving && !check_moving_bodies(&c, m)) goto error_model;
  if (copt->settotalmass > 0) {
    gsReal total = 0;
    for (int b = 1; b < nbody; b++) total += m->body_mass[b];
    /* MJCF divides by at least mjMINVAL: a model of (nearly) no mass is scaled up hugely, its
     * inertia included (measured against MuJoCo 3.3.7) */
    gsReal s = copt->settotalmass / (total > GS_MINVAL ? total : GS_MINVAL);
    for (int b = 1; b < nbody; b++) {
      m->body_mass[b] *= s;
      gs_scl3(m->body_inertia + 3 * b, m->body_inertia + 3 * b, s);
    }
  }
  for (int b = 1; b < nbody; b++) {
    gsReal* I = m->body_inertia + 3 * b;
    /* a geom's size or density can be so large that its mass or inertia overflows */
    if (!isfinite(m->body_mass[b]) || !isfinite(I[0]) || !isfinite(I[1]) || !isfinite(I[2])) {
      gs_compileFail(&c, &c.body[b]->info, "body", "mass and inertia must be finite (got mass %g, inertia %g %g %g)",
                     m->body_mass[b], I[0], I[1], I[2]);
      goto error_model;
    }
  }
  /* subtree masses, leaves first: children come after their parents in the numbering */
  gs_compileSubtreeMass(m);

  compile_sameframe(m);
  for (int b = 1; b < nbody; b++) m->body_slider[b] = slider_body(m, b);

  /* ---- sparsity of M: row i holds (i,i) then its ancestors (i, parent(i)), ... ---- */
  {
    int adr = 0;
    for (int i = 0; i < m->nv; i++) {
      m->dof_Madr[i] = adr;
      /* the column of each entry: the kernels on M index by it instead of walking the chain */
      for (int p = i; p >= 0; p = m->dof_parentid[p]) m->M_dofid[adr++] = p;
    }
    for (int i = 0; i < m->nv; i++) m->dof_freetail[i] = gs_freeTailOf(m, i);
  }

  /* the slices: their arrays, then what is defined at the default configuration */
  if (!gs_compileWorld(&c, m) || !gs_compileActuation(&c, m) || !gs_compileSensing(&c, m) ||
      !gs_compileNameOrder(&c, m) || !gs_compileFrames(&c, m) /* frames, for the MJCF writer */)
    goto error_model;
  gs_compileAlignFree(&c, m);
  compile_sameframe(m);  /* again: aligned bodies' elements moved */
  /* after the alignment, which puts a free body's inertial frame at its origin (MuJoCo's simple
   * bodies too) */
  for (int b = 1; b < nbody; b++) {
    int diagonal = diagonal_body(m, b);
    for (int i = m->body_dofadr[b]; i < m->body_dofadr[b] + m->body_dofnum[b]; i++)
      m->dof_diagonal[i] = diagonal;
  }
  tendon_armature_bodies(m);
  for (int t = 0; t < m->ntendon; t++) {
    int lo, hi;
    gs_tendonSpanOf(m, t, &lo, &hi);
    m->tendon_dofadr[t] = lo;
    m->tendon_dofnum[t] = hi - lo;
  }
  /* MJCF's <size>: njmax (legacy: room for that many constraints) and memory both size the
   * constraint memory, so only one may be given */
  if (c.spec->size_njmax >= 0 && c.spec->size_memory >= 0) {
    gs_compileFail(&c, NULL, "size", "njmax and memory cannot both be given");
    goto error_model;
  }
  if (c.spec->size_nstack >= 0 && c.spec->size_memory >= 0) {  /* as MJCF refuses it */
    gs_compileFail(&c, NULL, "size", "nstack and memory cannot both be given");
    goto error_model;
  }
  gs_setCapacity(m, c.spec->size_nconmax, c.spec->size_njmax, c.spec->size_memory, c.spec->size_nstack);
  {
    gsData* d = gs_makeData(m);
    if (!d) {
      gs_compileFail(&c, NULL, "model", "out of memory");
      goto error_model;
    }
    /* what is defined at qpos0 (as gs_setConst), then the length ranges, which simulate the
     * complete model */
    int ok = gs_compileAtQpos0(&c, m, d);
    if (ok) compile_springdamper(&c, m);
    ok = ok && gs_compileLengthRange(&c, m);
    gs_freeData(d);
    if (!ok) goto error_model;
  }

  free(dof_parent);
  free(body_lastdof);
  free(c.body);
  gs_compileMeshFree(&c);
  return m;

error_model:
  free(dof_parent);
  free(body_lastdof);
  gs_freeModel(m);
error:
  free(c.body);
  gs_compileMeshFree(&c);
  return NULL;
}
