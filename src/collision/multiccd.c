/* Several contacts for one convex pair: MJCF's `multiccd` flag (GS_ENBL_MULTICCD).
 *
 * GJK/EPA give one contact point, which leaves a face resting on a face free to rock about it.
 * With the flag on, MuJoCo 3.3.7 adds points in two ways, and this file follows both as measured
 * against it (tests/python/test_collision_multiccd.py; MJCF documents only the outline, section
 * "Multiple contacts" of its computation chapter):
 *
 * - Between two polytopes (boxes and meshes) inside no margin: the features of the two shapes
 *   that face each other along the contact normal n are found (a face when its outward normal
 *   f has |f - n| < 1.6e-3, else an edge when its direction e has |e.n| < 1.6e-3, else a
 *   vertex; both thresholds found by tilting boxes of sizes 0.1 to 10 until the count changed,
 *   the same at every size). Face against face: the second geom's face clipped by the prism of
 *   the first's (along the first face's normal); edge against face: the edge clipped by the
 *   face's prism. The points replace the single contact, each with the single contact's
 *   distance, the face's normal in place of EPA's (the second geom's when both are faces), and
 *   moved half the depth along that normal (for points of the second geom's face, the midpoint
 *   the single contact uses). Vertex or crossing edges keep the single contact.
 * - Every other pair of capsules, cylinders, boxes and meshes, and polytopes inside a positive
 *   margin: the pair is collided again with the first geom turned by -1e-3 rad and the second
 *   by +1e-3 rad about each tangent of the contact frame through the single contact's point;
 *   each contact so found (its point and normal as they come, the single contact's distance)
 *   is added unless it lies within 1e-3 of the geoms' bounding radii of one already there.
 *   Spheres and ellipsoids get no more points (MuJoCo adds none either).
 *
 * Clipping keeps every corner of the overlap; where the overlap has more than 4 corners 4 are
 * kept, as MuJoCo 3.3.7 keeps 4. Which 4, as measured on a mesh cube turned about z on a smaller
 * box or mesh floor (overlaps of 5 to 8 corners; tests test_overlap_of_more_than_four_corners_*):
 * - the order matters, not only the overlap's shape: a mesh face's corners are taken in the order
 *   of its compiled polygon (mesh_polyvert); the second face is clipped starting from its
 *   corner 2 and the overlap's corners are then read backwards (among the starts and directions
 *   of either face clipped by the other, this reading fits most poses); a second face wholly
 *   inside the first (nothing clipped) starts from its corner 0 instead (a mesh cube lying flat
 *   inside a larger face: MuJoCo's order in 80 of 80 poses, 0 from corner 2);
 * - of that list, slots (0, 1, 2, 3) are the start; slots 0 and 2 stay; the fourth slot moves
 *   forward along the list one corner at a time while |(a - d) x (d - b) + (b - c) x (c - a)|
 *   (a, b, c, d the slots' corners) strictly grows, then the second slot likewise, again until
 *   the fourth no longer moves; the points are reported in slot order. That measure is
 *   |(a - b) x (d - c)|: twice the area of the quadrilateral whose diagonals are a-b and c-d, so
 *   the kept corners alternate (0, 4, 2, 6 of an octagon). Searching every corner for each slot
 *   instead, or going on after the fourth stops, fits fewer poses.
 * Of 60 such poses MuJoCo's 4 points and their order are then followed in 48 (box floor) and 43
 * (mesh floor) (the library before: 0 and 0); of the poses whose choice is no tie (MuJoCo's
 * points stay under 4-ulp jitters of the pose: 45 and 37), in 35 and 35. A tie here is two
 * corners of equal measure in exact arithmetic: both on a side parallel to the other diagonal.
 * Not followed: MuJoCo keeps 4 corners that are consecutive in the list, or those of the list
 * turned by one, nearly all where a corner of the cube lies inside the floor's face: the list
 * MuJoCo searches then likely starts elsewhere.
 * A box (not a mesh cube) lying flat wholly inside a larger face: on a box floor MuJoCo's order
 * of the four points is a tie (it moves under 4-ulp jitters of the pose in 12 of 20 poses; gauss
 * has MuJoCo's nominal order in 30 of 30); on a mesh floor (the box then the first geom) it
 * does not move, and is gauss's in 14 of 30 poses and gauss's list started from the box face's
 * corner 2 in the other 16: not followed. Measured further on 120 random poses (box half sizes
 * 0.1-0.5, anywhere inside a 3 x 3 mesh floor, any yaw; gauss's order in 75, the same sets in
 * 120):
 * - MuJoCo's list always runs the way gauss's does and starts at the box face's corner 0 or 2
 *   (of gauss's numbering; never 1 or 3).
 * - The start changes exactly where a floor corner crosses the line of one of the box's sides
 *   (not at every such crossing): a square box of half size 0.25 at (1, 1) flips at yaws
 *   -129.929, -66.64, -60.23 and 39.929 degrees, where the floor corners (3, 3) and (3, -3)
 *   cross at -129.93, -66.64, -60.23 and 39.93; other positions alike, so it depends on the
 *   position, not on the yaw alone. Classed by which side of the box's side lines each floor
 *   corner lies (55 classes), every class has one start.
 * - No single Sutherland-Hodgman clip of the floor's polygon by the box's sides gives it: any of
 *   the 24 orders of the four sides, the floor's polygon from any corner either way, the
 *   intersection emitted before or after the vertex, the result read either way: at most 107
 *   of 120 (the +-y sides first, then +-x, the floor from corner 2 backwards); clips whose
 *   result starts at the entry or exit crossing of each side: 75 (a constant start). Where the
 *   sides are taken cyclically from the box face's corner s the result starts at s whatever the
 *   floor's start, so that only renames the question.
 * - Nor: the ccd tolerance and iterations (the same order at 1e-12/500, 1e-6/50 and 1e-3/50 in
 *   60 poses), the EPA normal's tilt (exactly vertical normals come with both starts), where the
 *   single contact lies on the box (on a diagonal, an edge or inside, both starts), which face's
 *   normal is nearer EPA's, the floor's support vertex along EPA's normal, the floor corner
 *   nearest the box; the sign of one floor corner's coordinate across the box (best: corner 3's
 *   y, 110 of 120; the first corner from corner 3 on outside the box's y slab, 111).
 * - The points are the box's corners to 1-4 ulps of the coordinates (not bit for bit), as an
 *   intersection of clipped sides would leave them.
 * The same question in MuJoCo's test/engine/testdata/collision_convex/perf/boxmesh.xml: equal
 * mesh cubes stacked with their faces aligned (offsets 4e-9 to 4e-5 of the half size, turned by
 * ~1e-6 rad), at the sweep's
 * simulated states (200 steps, tightened ccd), gauss lists MuJoCo's four points of 46 of 75
 * (second state) and 72 of 100 (third) pairs in another order (the same points; MuJoCo's list
 * started one place later or earlier), and MuJoCo's own order stays under 10 jitters of qpos by
 * 4 ulps in all of them: no tie at that scale; likely the same unknown start as above. */
#include <math.h>
#include <string.h>

#include "collision/collision.h"
#include "collision/convex.h"
#include "collision/mesh.h"
#include "collision/stage.h"
#include "core/math.h"

#define FACE_TOL 1.6e-3  /* |f - n| below this: a face faces n */
#define EDGE_TOL 1.6e-3  /* |e . n| below this: an edge lies across n */
#define TURN 1e-3        /* the legacy turn, radians */
#define MAXPOLY 256      /* corners of a face taken (a larger face keeps the single contact) */
#define MAXKEEP 4        /* points kept of a clipped overlap */

typedef struct {
  int n;                    /* 1 vertex, 2 edge, >= 3 face (counter-clockwise about its normal) */
  gsReal v[MAXPOLY][3];     /* world */
  gsReal nrm[3];            /* a face's outward unit normal, world */
} Feature;

static void to_world(gsReal r[3], const gsConvex* c, const gsReal p[3]) {
  gs_mulMatVec3(r, c->mat, p);
  gs_add3(r, r, c->pos);
}

/* a face faces dir when 1 - f.dir < FACE_TOL^2 / 2 (that is |f - dir| < FACE_TOL) */
static int faces(gsReal cosang) { return 1 - cosang < 0.5 * FACE_TOL * FACE_TOL; }

/* the feature of a box farthest along the unit direction dir */
static void box_feature(Feature* f, const gsConvex* c, const gsReal dir[3]) {
  gsReal u[3];
  const gsReal* s = c->size;
  gs_mulMatTVec3(u, c->mat, dir);
  int i = 0;
  for (int k = 1; k < 3; k++)
    if (fabs(u[k]) > fabs(u[i])) i = k;
  gsReal si = u[i] >= 0 ? 1 : -1;
  if (faces(fabs(u[i]))) {
    /* the face's corners counter-clockwise about its outward normal si e_i */
    int j = (i + 1) % 3, k = (i + 2) % 3;
    static const gsReal cj[4] = {1, -1, -1, 1}, ck[4] = {1, 1, -1, -1};
    f->n = 4;
    gsReal li[3] = {0, 0, 0};
    li[i] = si;
    gs_mulMatVec3(f->nrm, c->mat, li);
    for (int q = 0; q < 4; q++) {
      int qq = si > 0 ? q : 3 - q;
      gsReal p[3];
      p[i] = si * s[i], p[j] = cj[qq] * s[j], p[k] = ck[qq] * s[k];
      to_world(f->v[q], c, p);
    }
    return;
  }
  gsReal p[3];
  for (int k = 0; k < 3; k++) p[k] = u[k] >= 0 ? s[k] : -s[k];
  to_world(f->v[0], c, p);
  f->n = 1;
  int e = -1;
  for (int k = 0; k < 3; k++)
    if (k != i && fabs(u[k]) < EDGE_TOL && (e < 0 || fabs(u[k]) < fabs(u[e]))) e = k;
  if (e >= 0) {
    p[e] = -p[e];
    to_world(f->v[1], c, p);
    f->n = 2;
  }
}

/* ---- meshes: the hull graph (fields_world.h) ---- */

static const gsReal* mvert(const gsConvex* c, int id) { return c->vert + 3 * id; }

static void tri_normal(gsReal nrm[3], const gsConvex* c, const int* t) {
  gsReal e1[3], e2[3];
  gs_sub3(e1, mvert(c, t[1]), mvert(c, t[0]));
  gs_sub3(e2, mvert(c, t[2]), mvert(c, t[0]));
  gs_cross(nrm, e1, e2);
  gs_normalize3(nrm);
}

/* the corners of the mesh face through vertex s with unit normal nrm (local): every hull vertex
 * in its plane, ordered counter-clockwise about nrm; 0 when there are more than MAXPOLY */
static int mesh_face(gsReal (*out)[3], const gsConvex* c, int s, const gsReal nrm[3]) {
  const int* g = c->graph;
  int nv = g[0];
  const int* gid = g + 2 + nv;
  gsReal h = gs_dot3(nrm, mvert(c, s)), ext = 0;
  for (int i = 0; i < nv; i++) {
    const gsReal* v = mvert(c, gid[i]);
    for (int k = 0; k < 3; k++) ext = fabs(v[k]) > ext ? fabs(v[k]) : ext;
  }
  /* vertices are stored in single precision: a flat face's corners agree to ~1e-7 of the size */
  gsReal tol = 1e-6 * ext;
  int n = 0;
  for (int i = 0; i < nv; i++) {
    const gsReal* v = mvert(c, gid[i]);
    if (fabs(gs_dot3(nrm, v) - h) > tol) continue;
    if (n == MAXPOLY) return 0;
    gs_copy3(out[n++], v);
  }
  /* order by angle about the centroid in the face's plane */
  gsReal cen[3] = {0, 0, 0}, t1[3], t2[3], ang[MAXPOLY];
  for (int i = 0; i < n; i++) gs_add3(cen, cen, out[i]);
  gs_scl3(cen, cen, 1.0 / n);
  gs_sub3(t1, out[0], cen);
  gs_normalize3(t1);
  gs_cross(t2, nrm, t1);
  for (int i = 0; i < n; i++) {
    gsReal d[3];
    gs_sub3(d, out[i], cen);
    ang[i] = atan2(gs_dot3(d, t2), gs_dot3(d, t1));
  }
  for (int i = 1; i < n; i++)  /* insertion sort: faces are small */
    for (int j = i; j > 0 && ang[j] < ang[j - 1]; j--) {
      gsReal ta = ang[j], tv[3];
      ang[j] = ang[j - 1], ang[j - 1] = ta;
      gs_copy3(tv, out[j]), gs_copy3(out[j], out[j - 1]), gs_copy3(out[j - 1], tv);
    }
  return n;
}

/* the feature of a mesh's hull farthest along the unit direction dir; 0 without a hull graph */
static int mesh_feature(Feature* f, const gsConvex* c, const gsReal dir[3]) {
  const int* g = c->graph;
  if (!g) return 0;
  int nv = g[0], nface = g[1];
  const int* edgeadr = g + 2;
  const int* gid = g + 2 + nv;
  const int* edges = g + 2 + 2 * nv;
  int end = edgeadr[nv - 1];
  while (edges[end] >= 0) end++;
  const int* tri = edges + end + 1;
  gsReal u[3];
  gs_mulMatTVec3(u, c->mat, dir);
  int s = gs_meshSupportVertex(c->vert, g, u);
  /* the hull face through s that best faces u */
  gsReal best = -2, bn[3] = {0, 0, 0};
  for (int t = 0; t < nface; t++) {
    const int* tv = tri + 3 * t;
    if (tv[0] != s && tv[1] != s && tv[2] != s) continue;
    gsReal nrm[3];
    tri_normal(nrm, c, tv);
    gsReal d = gs_dot3(nrm, u);
    if (d > best) best = d, gs_copy3(bn, nrm);
  }
  if (faces(best)) {
    gsReal loc[MAXPOLY][3];
    int n = mesh_face(loc, c, s, bn);
    if (n < 3) return 0;  /* a face of more than MAXPOLY corners: the single contact stays */
    for (int i = 0; i < n; i++) to_world(f->v[i], c, loc[i]);
    gs_mulMatVec3(f->nrm, c->mat, bn);
    f->n = n;
    return 1;
  }
  to_world(f->v[0], c, mvert(c, s));
  f->n = 1;
  /* the hull edge from s that lies most across u */
  int ls = -1;
  for (int i = 0; i < nv && ls < 0; i++)
    if (gid[i] == s) ls = i;
  if (ls < 0) return 1;
  gsReal bestv = EDGE_TOL;
  int w = -1;
  for (const int* e = edges + edgeadr[ls]; *e >= 0; e++) {
    gsReal d[3];
    gs_sub3(d, mvert(c, gid[*e]), mvert(c, s));
    gs_normalize3(d);
    gsReal v = fabs(gs_dot3(d, u));
    if (v < bestv) bestv = v, w = gid[*e];
  }
  if (w >= 0) {
    to_world(f->v[1], c, mvert(c, w));
    f->n = 2;
  }
  return 1;
}

static int feature(Feature* f, const gsConvex* c, const gsReal dir[3]) {
  if (c->type == GS_GEOM_BOX) {
    box_feature(f, c, dir);
    return 1;
  }
  return mesh_feature(f, c, dir);
}

/* ---- clipping, seen along n ---- */

/* the inward normal of the side plane through edge k of face f and its normal: points inside
 * the face's prism have m.(x - v_k) >= 0 */
static void side(gsReal m[3], const Feature* f, int k) {
  gsReal e[3];
  gs_sub3(e, f->v[(k + 1) % f->n], f->v[k]);
  gs_cross(m, f->nrm, e);
}

/* whether every corner of face p lies inside the prism of face f (nothing to clip) */
static int inside_prism(const Feature* p, const Feature* f) {
  for (int k = 0; k < f->n; k++) {
    gsReal m[3];
    side(m, f, k);
    for (int i = 0; i < p->n; i++)
      if (gs_dot3(m, p->v[i]) - gs_dot3(m, f->v[k]) < 0) return 0;
  }
  return 1;
}

/* polygon p (np corners) clipped by the prism of face f along its normal: Sutherland-Hodgman */
static int clip_polygon(gsReal (*p)[3], int np, const Feature* f) {
  gsReal tmp[2 * MAXPOLY + 8][3];
  for (int k = 0; k < f->n && np > 0; k++) {
    gsReal m[3];
    side(m, f, k);
    int nt = 0;
    for (int i = 0; i < np; i++) {
      const gsReal* cur = p[i];
      const gsReal* prev = p[(i + np - 1) % np];
      gsReal dc = gs_dot3(m, cur) - gs_dot3(m, f->v[k]);
      gsReal dp = gs_dot3(m, prev) - gs_dot3(m, f->v[k]);
      if ((dc >= 0) != (dp >= 0) && nt < 2 * MAXPOLY + 8) {
        gsReal t = dp / (dp - dc), x[3];
        gs_sub3(x, cur, prev);
        gs_addScl3(tmp[nt++], prev, x, t);
      }
      if (dc >= 0 && nt < 2 * MAXPOLY + 8) gs_copy3(tmp[nt++], cur);
    }
    np = nt < 2 * MAXPOLY ? nt : 2 * MAXPOLY;
    memcpy(p, tmp, sizeof(gsReal) * 3 * (size_t)np);
  }
  return np;
}

/* segment a-b clipped by the prism of face f along its normal: 0 when nothing is left */
static int clip_segment(gsReal a[3], gsReal b[3], const Feature* f) {
  gsReal t0 = 0, t1 = 1, d[3];
  gs_sub3(d, b, a);
  for (int k = 0; k < f->n; k++) {
    gsReal m[3];
    side(m, f, k);
    gsReal da = gs_dot3(m, a) - gs_dot3(m, f->v[k]), dd = gs_dot3(m, d);
    if (dd == 0) {
      if (da < 0) return 0;
      continue;
    }
    gsReal t = -da / dd;
    if (dd > 0) t0 = t > t0 ? t : t0;
    else t1 = t < t1 ? t : t1;
    if (t0 > t1) return 0;
  }
  gsReal a0[3];
  gs_copy3(a0, a);
  gs_addScl3(a, a0, d, t0);
  gs_addScl3(b, a0, d, t1);
  return 1;
}

/* the area measure of MuJoCo's choice: with a-b and c-d the diagonals it is twice the area of
 * the quadrilateral they span (the expression as measured, whose a x b terms cancel) */
static gsReal quad_measure(const gsReal a[3], const gsReal b[3], const gsReal c[3], const gsReal d[3]) {
  gsReal u[3], v[3], w[3], x[3], y[3];
  gs_sub3(u, a, d), gs_sub3(v, d, b), gs_cross(w, u, v);
  gs_sub3(u, b, c), gs_sub3(v, c, a), gs_cross(x, u, v);
  gs_add3(y, w, x);
  return gs_norm3(y);
}

/* quad_measure of the corners in slots k */
static gsReal slots_measure(gsReal (*p)[3], const int k[MAXKEEP]) {
  return quad_measure(p[k[0]], p[k[1]], p[k[2]], p[k[3]]);
}

/* move slot s forward along the list one corner at a time while quad_measure strictly grows;
 * 1 when it moved */
static int climb(gsReal (*p)[3], int np, int k[MAXKEEP], int s) {
  int moved = 0;
  gsReal cur = slots_measure(p, k);
  for (int step = 0; step < np; step++) {
    int was = k[s];
    k[s] = (was + 1) % np;
    gsReal next = slots_measure(p, k);
    if (!(next > cur)) {
      k[s] = was;
      break;
    }
    cur = next, moved = 1;
  }
  return moved;
}

/* keep MAXKEEP of the np corners of the clipped overlap, as measured against MuJoCo: slots
 * (0, 1, 2, 3) to start with; slots 0 and 2 stay; the fourth slot climbs forward while the
 * measure grows, then the second; again until the fourth no longer moves. The points keep the
 * slots' order */
static int reduce(gsReal (*p)[3], int np) {
  if (np <= MAXKEEP) return np;
  int k[MAXKEEP] = {0, 1, 2, 3};
  for (int round = 0; round < np * np && climb(p, np, k, 3); round++) climb(p, np, k, 1);
  gsReal q[MAXKEEP][3];
  for (int i = 0; i < MAXKEEP; i++) gs_copy3(q[i], p[k[i]]);
  memcpy(p, q, sizeof q);
  return MAXKEEP;
}

/* a mesh face's corners in the order of its compiled polygon (mesh_polyvert), where one has the
 * face's normal: MuJoCo's clipping follows that order (the choice of 4 of more corners depends on
 * it); the face's normal is then the polygon's (mesh_polynormal), as MuJoCo reports it, rather
 * than that of the hull triangle found first: vertices are stored in single precision, so the
 * triangles of a flat face differ in normal by up to ~1e-7 (MuJoCo's multiple_objects.xml at
 * rest: 5e-8, qacc apart by 5e-6) */
static void compiled_order(Feature* f, const gsModel* m, int g, const gsConvex* c) {
  if (f->n < 3 || m->geom_type[g] != GS_GEOM_MESH) return;
  int id = m->geom_dataid[g];
  gsReal loc[3];
  gs_mulMatTVec3(loc, c->mat, f->nrm);
  int best = -1;
  gsReal bd = -2;
  for (int p = m->mesh_polyadr[id]; p < m->mesh_polyadr[id] + m->mesh_polynum[id]; p++) {
    gsReal d = gs_dot3(m->mesh_polynormal + 3 * p, loc);
    if (d > bd) bd = d, best = p;
  }
  if (best < 0 || !faces(bd) || m->mesh_polyvertnum[best] != f->n) return;
  const int* pv = m->mesh_polyvert + m->mesh_polyvertadr[best];
  for (int i = 0; i < f->n; i++) to_world(f->v[i], c, mvert(c, pv[i]));
  gs_mulMatVec3(f->nrm, c->mat, m->mesh_polynormal + 3 * best);
}

/* the polytope contacts: 0 where the single contact stays (a vertex, crossing edges, nothing left
 * after clipping, a mesh without a hull graph) */
static int polytope_contacts(const gsModel* m, gsContact* con, const gsConvex* a, int ga, const gsConvex* b,
                             int gb) {
  gsReal n[3], mn[3], dist = con[0].dist;
  gs_copy3(n, con[0].frame);
  gs_scl3(mn, n, -1);
  Feature fa, fb;
  if (!feature(&fa, a, n) || !feature(&fb, b, mn)) return 0;
  compiled_order(&fa, m, ga, a);
  compiled_order(&fb, m, gb, b);
  /* MuJoCo reports the face's normal in place of EPA's where a face is involved (the second
   * geom's when both are faces): measured on boxes tilted by less than the face threshold, whose
   * single contact keeps EPA's normal */
  gsReal pts[2 * MAXPOLY][3], off;
  int np = 0;
  if (fa.n >= 3 && fb.n >= 3) {
    /* b's face clipped by the prism of a's face: corners on b's face, half the depth towards a */
    gs_scl3(n, fb.nrm, -1);
    /* clipped from b's corner 2 on (corner 0 when b's face lies wholly inside a's), the overlap
     * then read backwards: the order in which MuJoCo searches the overlap's corners (measured on
     * square faces, see the top of this file) */
    np = fb.n;
    int start = inside_prism(&fb, &fa) ? 0 : 2;
    for (int i = 0; i < np; i++) gs_copy3(pts[i], fb.v[(i + start) % np]);
    np = clip_polygon(pts, np, &fa);
    for (int i = 0, j = np - 1; i < j; i++, j--) {
      gsReal t[3];
      gs_copy3(t, pts[i]), gs_copy3(pts[i], pts[j]), gs_copy3(pts[j], t);
    }
    np = reduce(pts, np);
    off = -0.5 * dist;
  } else if (fa.n == 2 && fb.n >= 3) {
    gs_scl3(n, fb.nrm, -1);
    gs_copy3(pts[0], fa.v[0]), gs_copy3(pts[1], fa.v[1]);
    np = clip_segment(pts[0], pts[1], &fb) ? 2 : 0;
    off = -0.5 * dist;
  } else if (fb.n == 2 && fa.n >= 3) {
    gs_copy3(n, fa.nrm);
    gs_copy3(pts[0], fb.v[0]), gs_copy3(pts[1], fb.v[1]);
    np = clip_segment(pts[0], pts[1], &fa) ? 2 : 0;
    off = -0.5 * dist;
  } else {
    return 0;
  }
  if (np == 0) return 0;
  for (int i = 0; i < np; i++) {
    gsContact* c = con + i;
    gsReal pos[3];
    gs_addScl3(pos, pts[i], n, off);
    c->dist = dist;
    gs_copy3(c->pos, pos);
    gs_copy3(c->frame, n);
    gs_zero3(c->frame + 3);
    gs_zero3(c->frame + 6);
  }
  return np;
}

/* ---- the legacy way: turn the second geom and collide again ---- */

/* rotation matrix (row-major) of angle t about unit axis k */
static void rotation(gsReal R[9], const gsReal k[3], gsReal t) {
  gsReal c = cos(t), s = sin(t), v = 1 - c;
  R[0] = c + k[0] * k[0] * v, R[1] = k[0] * k[1] * v - k[2] * s, R[2] = k[0] * k[2] * v + k[1] * s;
  R[3] = k[1] * k[0] * v + k[2] * s, R[4] = c + k[1] * k[1] * v, R[5] = k[1] * k[2] * v - k[0] * s;
  R[6] = k[2] * k[0] * v - k[1] * s, R[7] = k[2] * k[1] * v + k[0] * s, R[8] = c + k[2] * k[2] * v;
}

static void mat_mul(gsReal r[9], const gsReal a[9], const gsReal b[9]) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      r[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
}

/* rows of R applied to v (R v) and its transpose (R^T v) */
static void rot_apply(gsReal r[3], const gsReal R[9], const gsReal v[3], int transpose) {
  if (transpose) gs_mulMatTVec3(r, R, v);
  else gs_mulMatVec3(r, R, v);
}

static int turned_contacts(const gsModel* m, gsContact* con, const gsConvex* a, const gsConvex* b,
                           gsReal margin, gsReal size) {
  gsReal frame[9], tol;
  int maxiter, n = 1;
  gs_copy3(frame, con[0].frame);
  gs_contactFrame(frame);
  gs_convexSettings(m, &tol, &maxiter);
  /* points closer than this to a contact already found add nothing */
  gsReal same = 1e-3 * size, p0[3];
  gs_copy3(p0, con[0].pos);
  for (int q = 0; q < 4; q++) {
    /* the first geom turned by -TURN and the second by +TURN about a tangent through the single
     * contact's point; the turned pair's contact point and normal are kept as they are, with the
     * single contact's distance (MuJoCo's points equal those of its own collision of the turned
     * pair to the last bit: a capsule's end, the edges of a mesh box inside a margin) */
    gsReal R[9], Rt[9], mat_a[9], mat_b[9], pos_a[3], pos_b[3], dist, pa[3], pb[3], nrm[3], r[3];
    rotation(R, frame + 3 + 3 * (q / 2), q % 2 ? -TURN : TURN);
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) Rt[3 * i + j] = R[3 * j + i];
    mat_mul(mat_a, Rt, a->mat);
    mat_mul(mat_b, R, b->mat);
    gs_sub3(r, a->pos, p0);
    rot_apply(pos_a, R, r, 1);
    gs_add3(pos_a, pos_a, p0);
    gs_sub3(r, b->pos, p0);
    rot_apply(pos_b, R, r, 0);
    gs_add3(pos_b, pos_b, p0);
    gsConvex at = *a, bt = *b;
    at.mat = mat_a, at.pos = pos_a;
    bt.mat = mat_b, bt.pos = pos_b;
    if (!gs_convexDistance(&at, &bt, margin, tol, maxiter, &dist, pa, pb, nrm)) continue;
    /* the turned pair's own contact point (its midpoint), left where the turn put it */
    gsReal pos[3];
    gs_add3(pos, pa, pb);
    gs_scl3(pos, pos, 0.5);
    int dup = 0;
    for (int i = 0; i < n && !dup; i++) {
      gsReal d[3];
      gs_sub3(d, pos, con[i].pos);
      dup = gs_norm3(d) < same;
    }
    if (dup) continue;
    gsContact* c = con + n++;
    c->dist = con[0].dist;
    gs_copy3(c->pos, pos);
    gs_copy3(c->frame, nrm);
    gs_zero3(c->frame + 3);
    gs_zero3(c->frame + 6);
  }
  return n;
}

/* flat parts that the turn can bring into contact */
static int turnable(int type) {
  return type == GS_GEOM_CAPSULE || type == GS_GEOM_CYLINDER || type == GS_GEOM_BOX ||
         type == GS_GEOM_MESH;
}

int gs_collideConvexMulti(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2,
                          gsReal margin) {
  int n = gs_collideConvex(m, d, con, g1, g2, margin);
  if (n != 1 || !(m->opt.enableflags & GS_ENBL_MULTICCD)) return n;
  int t1 = m->geom_type[g1], t2 = m->geom_type[g2];
  if (!turnable(t1) || !turnable(t2)) return n;
  gsConvex a, b;
  gs_convexFromGeom(&a, m, d, g1);
  gs_convexFromGeom(&b, m, d, g2);
  int poly = (t1 == GS_GEOM_BOX || t1 == GS_GEOM_MESH) && (t2 == GS_GEOM_BOX || t2 == GS_GEOM_MESH);
  if (poly && margin <= 0) {
    int k = polytope_contacts(m, con, &a, g1, &b, g2);
    return k > 0 ? k : 1;
  }
  return turned_contacts(m, con, &a, &b, margin, m->geom_rbound[g1] + m->geom_rbound[g2]);
}
