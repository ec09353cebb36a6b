/* MJCF's older general convex pipeline, chosen by the option flag nativeccd="disable" (MuJoCo
 * 3.3.7 keeps it for models written before its own GJK/EPA, dm_control's Kinova arm among them):
 * the penetration of two convex shapes by Minkowski portal refinement through libccd (Debian's
 * libccd-dev 2.1, the version MuJoCo builds), where the convex.c pipeline finds the exact
 * penetration. What MJCF feeds it was found by measuring MuJoCo 3.3.7's contacts
 * (tests/python/test_collision_legacy.py):
 * - the portal starts from the geoms' centres (geom_xpos), with the model's ccd_tolerance as the
 *   portal's tolerance and ccd_iterations as its iteration limit;
 * - each shape is whole (a sphere's or capsule's radius included), grown by half the margin, its
 *   support computed in its own frame as MJCF does to the last bit (shape_support);
 * - a mesh's support is a plain climb over its hull graph that starts at the vertex where the
 *   previous support of the same query ended (at vertex 0 for the first): where a hull has
 *   vertices level along a direction the climb's start decides which is returned, and with it
 *   the portal (starting every climb afresh, or scanning all vertices, gives other contacts on
 *   Kinova's meshes);
 * - the distance is the margin less the portal's depth, the point libccd's;
 * - the normal is libccd's direction where neither geom is rounded; a rounded geom gives its own
 *   direction at the point (a sphere's centre, a capsule's axis, a cylinder's axis deep below a
 *   cap as gs_roundDirection, an ellipsoid's nearest surface point), and where both are rounded
 *   the two directions are averaged.
 * Approached, not reproduced: the ellipsoid's direction (MJCF's own iteration stops short of the
 * nearest point: about 93 % of contacts within 1e-6), distance sensors, and the older multiccd's
 * extra points; named in the load warnings where a model has them (gsx_warnOlderConvex). */
#include <math.h>

#include <ccd/ccd.h>

#include "collision/convex.h"
#include "collision/mesh.h"
#include "collision/pair_util.h"

typedef struct {
  const gsConvex* c;
  const gsReal* centre;
  gsReal grow;  /* the support moved this far along the direction: half the margin */
  int start;    /* meshes: the hull vertex the last support ended at (-1: none yet) */
  long* calls;  /* support calls of this query so far, both shapes together */
  long cap;     /* beyond this many, the query gives up (SUPPORT_CAP) */
} Shape;

/* libccd's portal discovery and refinement loop until they converge, without a count: on shapes
 * that are not convex to rounding (a mesh vertex edited to 1e30 beside ones of 0.1, its hull
 * graph stale) they never did, and the step hung. A query past this many support calls (a
 * converging one takes tens, and its penetration loop at most ccd_iterations) gets points far
 * behind each direction, which every loop of libccd takes for a separating one: no contact. */
#define SUPPORT_CAP 1000

/* The support point along the unit direction dir, as MJCF's older pipeline computes it, to the
 * last bit: in the geom's frame (u = R^T dir), the whole shape (a sphere's u r, no division by
 * |u|), grown by u times half the margin, then R r + pos. Computed in the world frame instead
 * (the core's support plus the radius along dir / |dir|) the points differ in the last bits, and
 * where the portal stops on a curved surface depends on them: MJCF's contacts were then equal to
 * 1e-9 on 116 of 150 sphere-mesh poses, and on 150 of 150 this way. */
static void shape_support(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* out) {
  Shape* s = (Shape*)obj;  /* libccd hands back the pointer it was given, which is not const */
  const gsConvex* c = s->c;
  if (++*s->calls > s->cap) {
    gs_addScl3(out->v, s->centre, dir->v, -1e20);
    return;
  }
  if (c->support) {  /* a height field's prism: in the world frame, never grown */
    c->support(out->v, c, dir->v);
    return;
  }
  const gsReal* size = c->size;
  gsReal u[3], r[3];
  gs_mulMatTVec3(u, c->mat, dir->v);
  switch (c->type) {
    case GS_GEOM_SPHERE:
      gs_scl3(r, u, size[0]);
      break;
    case GS_GEOM_CAPSULE:
      gs_scl3(r, u, size[0]);
      r[2] += u[2] >= 0 ? size[1] : -size[1];
      break;
    case GS_GEOM_ELLIPSOID: {
      gsReal su[3] = {size[0] * u[0], size[1] * u[1], size[2] * u[2]}, n = gs_norm3(su);
      for (int i = 0; i < 3; i++) r[i] = n > 0 ? size[i] * su[i] / n : 0;
      break;
    }
    case GS_GEOM_CYLINDER: {
      gsReal n = sqrt(u[0] * u[0] + u[1] * u[1]);
      r[0] = n > 0 ? u[0] / n * size[0] : 0;
      r[1] = n > 0 ? u[1] / n * size[0] : 0;
      r[2] = u[2] >= 0 ? size[1] : -size[1];
      break;
    }
    case GS_GEOM_BOX:
      for (int i = 0; i < 3; i++) r[i] = u[i] >= 0 ? size[i] : -size[i];
      break;
    case GS_GEOM_MESH: {
      int v = c->graph ? gs_meshSupportClimb(c->vert, c->graph, u, &s->start)
                       : gs_meshSupportScan(c->vert, c->nvert, u);
      gs_copy3(r, c->vert + 3 * v);
      break;
    }
    default:
      gs_zero3(r);
  }
  if (s->grow > 0) gs_addScl3(r, r, u, s->grow);
  gs_mulMatVec3(out->v, c->mat, r);
  gs_add3(out->v, out->v, c->pos);
}

static void shape_centre(const void* obj, ccd_vec3_t* out) {
  const Shape* s = obj;
  gs_copy3(out->v, s->centre);
}

int gs_convexPenetrationMPR(const gsConvex* a, const gsReal ca[3], gsReal grow_a, const gsConvex* b,
                            const gsReal cb[3], gsReal grow_b, const gsModel* m, gsReal* depth,
                            gsReal normal[3], gsReal pos[3]) {
  long calls = 0, cap = SUPPORT_CAP + 2L * (m->opt.ccd_iterations > 0 ? m->opt.ccd_iterations : 0);
  Shape sa = {a, ca, grow_a, -1, &calls, cap}, sb = {b, cb, grow_b, -1, &calls, cap};
  ccd_t ccd;
  CCD_INIT(&ccd);
  ccd.support1 = shape_support, ccd.support2 = shape_support;
  ccd.center1 = shape_centre, ccd.center2 = shape_centre;
  ccd.max_iterations = (unsigned long)(m->opt.ccd_iterations > 0 ? m->opt.ccd_iterations : 0);
  ccd.mpr_tolerance = m->opt.ccd_tolerance;
  ccd_real_t dep;
  ccd_vec3_t dir, p;
  if (ccdMPRPenetration(&sa, &sb, &ccd, &dep, &dir, &p) != 0) return 0;
  *depth = dep;
  gs_copy3(normal, dir.v);
  gs_copy3(pos, p.v);
  return 1;
}

/* sum (p_i s_i / (s_i^2 + t))^2 - 1 */
static gsReal ellipsoid_gap(const gsReal p[3], const gsReal s[3], const gsReal s2[3], gsReal t) {
  gsReal f = -1;
  for (int k = 0; k < 3; k++) {
    gsReal u = p[k] * s[k] / (s2[k] + t);
    f += u * u;
  }
  return f;
}

/* An ellipsoid's direction at a contact point, in MJCF's older pipeline: the inward normal at the
 * surface point nearest to it (measured: MuJoCo's normals are that point's to 1e-9, neither the
 * gradient at the contact point, the direction to the centre, nor the portal's). The nearest
 * point of sum (q_i / s_i)^2 = 1 to p (the ellipsoid's frame) is q_i = p_i s_i^2 / (s_i^2 + t) with
 * sum (p_i s_i / (s_i^2 + t))^2 = 1, t > -min s_i^2 (the left side falls as t grows); the normal
 * there is p_i / (s_i^2 + t). 0 where it has no direction. */
static int ellipsoid_direction(gsReal dir[3], const gsModel* m, const gsData* d, int g,
                               const gsReal pos[3]) {
  const gsReal* s = m->geom_size + 3 * g;
  const gsReal* R = d->geom_xmat + 9 * g;
  gsReal rel[3], p[3];
  gs_sub3(rel, pos, d->geom_xpos + 3 * g);
  gs_mulMatTVec3(p, R, rel);
  gsReal s2[3] = {s[0] * s[0], s[1] * s[1], s[2] * s[2]};
  /* the root by bisection on (lo, hi): f falls from lo (a pole) to -1 */
  gsReal lo = -gs_fmin(s2[0], gs_fmin(s2[1], s2[2])), hi = gs_fmax(s2[0], gs_fmax(s2[1], s2[2]));
  gsReal t = hi;
  for (int it = 0; it < 2000 && ellipsoid_gap(p, s, s2, hi) > 0; it++) hi *= 2;
  for (int it = 0; it < 200; it++) {
    t = lo + (hi - lo) / 2;
    if (!(t > lo && t < hi)) break;  /* the interval is down to rounding */
    if (ellipsoid_gap(p, s, s2, t) > 0) lo = t;
    else hi = t;
  }
  gsReal n[3], w[3];
  for (int k = 0; k < 3; k++) n[k] = -p[k] / (s2[k] + t);  /* inward */
  gs_mulMatVec3(w, R, n);
  gsReal len = gs_norm3(w);
  if (!(len > 0)) return 0;
  gs_scl3(dir, w, 1 / len);
  return 1;
}

/* the direction a rounded geom gives the normal (pointing into it), 0 where it gives none */
static int rounded_direction(gsReal dir[3], const gsModel* m, const gsData* d, int g,
                             const gsReal pos[3]) {
  if (m->geom_type[g] == GS_GEOM_ELLIPSOID) return ellipsoid_direction(dir, m, d, g, pos);
  return gs_roundDirection(dir, m, d, g, pos);
}

int gs_collideConvexMPR(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2,
                        gsReal margin) {
  gsConvex a, b;
  gs_convexFromGeom(&a, m, d, g1);
  gs_convexFromGeom(&b, m, d, g2);
  gsReal depth, nrm[3], pos[3];
  if (!gs_convexPenetrationMPR(&a, a.pos, margin / 2, &b, b.pos, margin / 2, m, &depth, nrm, pos))
    return 0;
  /* where a geom is rounded, its own normal; where both are, the two averaged */
  gsReal n1[3], n2[3], sum[3] = {0, 0, 0};
  int r1 = rounded_direction(n1, m, d, g1, pos), r2 = rounded_direction(n2, m, d, g2, pos);
  if (r1) gs_sub3(sum, sum, n1);  /* pointing out of the first geom */
  if (r2) gs_add3(sum, sum, n2);
  gsReal len = gs_norm3(sum);
  if ((r1 || r2) && len > 0) gs_scl3(nrm, sum, 1 / len);
  gs_pairSet(con, margin - depth, pos, nrm);
  return 1;
}
