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
 * The order of the points (measured; tests/python/test_multiccd_order.py). Face against face,
 * the second geom's face is clipped by the sides of the first's (Sutherland-Hodgman), and MuJoCo
 * 3.3.7's list is what this walk gives:
 * - a mesh face's corners are those of its compiled polygon (mesh_polyvert), in that order; a
 *   box face's start from a corner fixed per face (box_feature's table, counter-clockwise about
 *   the outward normal like a polygon);
 * - the second face's corners are taken from its last to its first; the first face's sides from
 *   the one ending at its last corner backwards (sides n-2, ..., 0, then n-1, side k running
 *   from corner k to k+1);
 * - each side walks the current polygon's edges (cur, next) from its first corner, keeping the
 *   edge's crossing of the side, then next where next is inside.
 * So a second face wholly inside the first comes out as its corners from the last backwards
 * turned by the first face's count of sides, and a box lying wholly inside a mesh face (the box
 * then the first geom) as its corners in an order decided by where the mesh face's corners lie
 * against the lines of the box's sides. Measured: a box on a mesh floor, any face down, random
 * sizes, positions and yaws: 360 of 360 poses in MuJoCo's order (the earlier walk, from the
 * second face's corner 2 forwards and read backwards, or from corner 0 where nothing was
 * clipped: 75 of 120 with the bottom face down; the start flips exactly where a floor corner
 * crosses a side's line); MuJoCo's test/engine/testdata/collision_convex/perf/boxmesh.xml, equal
 * mesh cubes stacked with aligned faces, at the sweep's simulated states: every pair's four
 * points in MuJoCo's order (before: 46 of 75 and 72 of 100 in another order).
 *
 * Clipping keeps every corner of the overlap; where the overlap has more than 4 corners 4 are
 * kept, as MuJoCo 3.3.7 keeps 4: of the list, slots (0, 1, 2, 3) are the start; slot 0 stays;
 * the fourth slot moves forward along the list one corner at a time while
 * |(a - d) x (d - b) + (b - c) x (c - a)| (a, b, c, d the slots' corners) strictly grows, then
 * the third slot likewise, then the second, again until the fourth no longer moves; the points
 * are reported in slot order. That measure is |(a - b) x (d - c)|: twice the area of the
 * quadrilateral whose diagonals are a-b and c-d, so the kept corners alternate (0, 4, 2, 6 of an
 * octagon). Measured on 60 mesh cubes turned about z on a smaller box or mesh floor (overlaps of
 * 5 to 8 corners): MuJoCo's 4 points in MuJoCo's order in every pose whose choice is no tie
 * (45 and 37; before 35 and 35). A tie here is two corners of equal measure in exact arithmetic
 * (MuJoCo's own choice moves under 4-ulp jitters of the pose): both on a side parallel to the
 * other diagonal.
 * Random prisms (3- to 8-gons, mesh) on box, mesh-box and prism floors, and boxes on prisms (200
 * poses; points compared to 1e-7: a prism's compiled vertices differ from MuJoCo's by ~1e-10,
 * another matter): every overlap of at most four corners in MuJoCo's order; of 333 overlaps of
 * more than four (two seeds of 300 poses) whose MuJoCo points stay under 10 jitters, 307 in
 * MuJoCo's order (287 with the fourth and second slots climbing only). Of the other 26, 21 meet an
 * exact tie of the measure along the search, decided by rounding: a side parallel to the other
 * diagonal (a box floor's opposite sides), or a slot landing on another slot's corner (both
 * measures then twice one triangle). 5 are not understood: there MuJoCo keeps the list's corner 1
 * in the first slot and corner 0 in the fourth (4 of them), which no climbing tried gives (any
 * order of the slots with or without slot 0, each moving by steps or to its best corner, the
 * diagonals paired otherwise, slots stopped at or pushed past a taken corner). */
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
  int id[MAXPOLY];          /* a mesh face's corners: their mesh vertex ids */
  int polygon;              /* 1: a mesh face taken from its compiled polygon already */
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
    /* the face's corners (signs of x, y, z) counter-clockwise about its outward normal, from the
     * corner MuJoCo 3.3.7 starts at: the start decides the order of the sides that clip (see
     * clip_polygon), measured for each face on a mesh floor (a box lying wholly inside it, 60
     * random poses per face: 60 agree with this start, 0 or 50 with the others) */
    static const signed char corner[6][4][3] = {
        {{-1, -1, -1}, {-1, -1, 1}, {-1, 1, 1}, {-1, 1, -1}},  /* -x */
        {{1, -1, 1}, {1, -1, -1}, {1, 1, -1}, {1, 1, 1}},      /* +x */
        {{-1, -1, -1}, {1, -1, -1}, {1, -1, 1}, {-1, -1, 1}},  /* -y */
        {{-1, 1, 1}, {1, 1, 1}, {1, 1, -1}, {-1, 1, -1}},      /* +y */
        {{1, -1, -1}, {-1, -1, -1}, {-1, 1, -1}, {1, 1, -1}},  /* -z */
        {{-1, -1, 1}, {1, -1, 1}, {1, 1, 1}, {-1, 1, 1}}};     /* +z */
    const signed char(*fc)[3] = corner[2 * i + (si > 0)];
    f->n = 4;
    gsReal li[3] = {0, 0, 0};
    li[i] = si;
    gs_mulMatVec3(f->nrm, c->mat, li);
    for (int q = 0; q < 4; q++) {
      gsReal p[3] = {fc[q][0] * s[0], fc[q][1] * s[1], fc[q][2] * s[2]};
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
static int mesh_face(gsReal (*out)[3], int* id, const gsConvex* c, int s, const gsReal nrm[3]) {
  const int* g = c->graph;
  int nv = g[0];
  const int* gid = g + 2 + nv;
  gsReal h = gs_dot3(nrm, mvert(c, s));
  /* the largest coordinate: one maximum per axis, the three chains independent (a maximum is
   * exact in any order; one chain of 3 nv dependent maxima was most of this function's time) */
  gsReal e0 = 0, e1 = 0, e2 = 0;
  for (int i = 0; i < nv; i++) {
    const gsReal* v = mvert(c, gid[i]);
    gsReal a0 = fabs(v[0]), a1 = fabs(v[1]), a2 = fabs(v[2]);
    e0 = a0 > e0 ? a0 : e0;
    e1 = a1 > e1 ? a1 : e1;
    e2 = a2 > e2 ? a2 : e2;
  }
  gsReal ext = e0 > e1 ? e0 : e1;
  ext = e2 > ext ? e2 : ext;
  /* vertices are stored in single precision: a flat face's corners agree to ~1e-7 of the size */
  gsReal tol = 1e-6 * ext;
  int n = 0;
  for (int i = 0; i < nv; i++) {
    const gsReal* v = mvert(c, gid[i]);
    if (fabs(gs_dot3(nrm, v) - h) > tol) continue;
    if (n == MAXPOLY) return 0;
    id[n] = gid[i];
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
      int ti = id[j];
      ang[j] = ang[j - 1], ang[j - 1] = ta;
      id[j] = id[j - 1], id[j - 1] = ti;
      gs_copy3(tv, out[j]), gs_copy3(out[j], out[j - 1]), gs_copy3(out[j - 1], tv);
    }
  return n;
}

/* the face through hull vertex s (mesh vertex id) that faces local direction u, from the compiled
 * polygons s is a corner of (mesh_polymap): the one whose normal is nearest u, the first of ties;
 * its corners and normal as compiled_order gives them. 0 where none faces u (or the nearest has
 * more than MAXPOLY corners): then the hull's triangles through s decide. (The triangles' scan,
 * the face's vertices found by a scan of the hull and the polygon by a scan of all polygons were
 * two thirds of the step of 100 resting dice of 296 hull vertices.) */
static int polygon_face(Feature* f, const gsModel* m, int g, const gsConvex* c, int s,
                        const gsReal u[3]) {
  int id = m->geom_dataid[g], pa = m->mesh_polyadr[id], v = m->mesh_vertadr[id] + s, best = -1;
  gsReal bd = -2;
  for (int k = m->mesh_polymapadr[v]; k < m->mesh_polymapadr[v] + m->mesh_polymapnum[v]; k++) {
    int p = pa + m->mesh_polymap[k];
    const gsReal* nrm = m->mesh_polynormal + 3 * p;
    /* a sliver's normal is not of unit length (mesh_poly.c): it faces nothing; nor does one
     * whose first corners are exactly in a line, stored as (1, 0, 0) where MJCF's is not finite */
    if (!(fabs(gs_dot3(nrm, nrm) - 1) < 1e-9)) continue;
    if (m->mesh_polyvertnum[p] < 3) continue;
    if (nrm[0] == 1 && nrm[1] == 0 && nrm[2] == 0) {
      const int* pv = m->mesh_polyvert + m->mesh_polyvertadr[p];
      gsReal e1[3], e2[3], x[3];
      gs_sub3(e1, mvert(c, pv[1]), mvert(c, pv[0]));
      gs_sub3(e2, mvert(c, pv[2]), mvert(c, pv[0]));
      gs_cross(x, e1, e2);
      if (gs_norm3(x) < 1e-14) continue;
    }
    gsReal d = gs_dot3(nrm, u);
    if (d > bd || (d == bd && p < best)) bd = d, best = p;
  }
  if (best < 0 || !faces(bd)) return 0;
  int n = m->mesh_polyvertnum[best];
  if (n > MAXPOLY) return 0;
  const int* pv = m->mesh_polyvert + m->mesh_polyvertadr[best];
  for (int i = 0; i < n; i++) {
    to_world(f->v[i], c, mvert(c, pv[i]));
    f->id[i] = pv[i];
  }
  gs_mulMatVec3(f->nrm, c->mat, m->mesh_polynormal + 3 * best);
  f->n = n;
  f->polygon = 1;
  return 1;
}

/* the feature of a mesh's hull farthest along the unit direction dir; 0 without a hull graph */
static int mesh_feature(Feature* f, const gsModel* m, int geom, const gsConvex* c,
                        const gsReal dir[3]) {
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
  /* the support vertex, and its local index */
  int ls, s = gs_meshSupportLocal(c->vert, g, c->cells, u, &ls);
  if (polygon_face(f, m, geom, c, s, u)) return 1;
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
    int n = mesh_face(loc, f->id, c, s, bn);
    if (n < 3) return 0;  /* a face of more than MAXPOLY corners: the single contact stays */
    for (int i = 0; i < n; i++) to_world(f->v[i], c, loc[i]);
    gs_mulMatVec3(f->nrm, c->mat, bn);
    f->n = n;
    return 1;
  }
  to_world(f->v[0], c, mvert(c, s));
  f->n = 1;
  /* the hull edge from s that lies most across u */
  if (ls >= nv) return 1;
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

static int feature(Feature* f, const gsModel* m, int g, const gsConvex* c, const gsReal dir[3]) {
  f->polygon = 0;
  if (c->type == GS_GEOM_BOX) {
    box_feature(f, c, dir);
    return 1;
  }
  return mesh_feature(f, m, g, c, dir);
}

/* ---- clipping, seen along n ---- */

/* the inward normal of the side plane through edge k of face f and its normal: points inside
 * the face's prism have m.(x - v_k) >= 0 */
static void side(gsReal m[3], const Feature* f, int k) {
  gsReal e[3];
  gs_sub3(e, f->v[(k + 1) % f->n], f->v[k]);
  gs_cross(m, f->nrm, e);
}

/* face p clipped by the prism of face f along f's normal, in the order MuJoCo 3.3.7 gives the
 * corners (measured, see the top of this file): p's corners are taken from its last to its first,
 * f's sides from the one ending at f's last corner backwards (sides n-2, ..., 0, then n-1), and
 * each side walks the polygon's edges (cur, next) from its first corner, keeping the crossing of
 * the edge, then next where next is inside. Sutherland-Hodgman; the corners kept go to out */
static int clip_polygon(gsReal (*out)[3], const Feature* p, const Feature* f) {
  gsReal buf[2][2 * MAXPOLY + 8][3];
  int np = p->n, cur = 0;
  for (int i = 0; i < np; i++) gs_copy3(buf[0][i], p->v[np - 1 - i]);
  for (int s = 0; s < f->n && np > 0; s++) {
    int k = (2 * f->n - 2 - s) % f->n;
    gsReal m[3];
    side(m, f, k);
    gsReal h = gs_dot3(m, f->v[k]);
    const gsReal (*q)[3] = (const gsReal (*)[3])buf[cur];
    gsReal (*t)[3] = buf[1 - cur];
    int nt = 0;
    for (int i = 0; i < np && nt < 2 * MAXPOLY; i++) {
      const gsReal* a = q[i];
      const gsReal* b = q[(i + 1) % np];
      gsReal da = gs_dot3(m, a) - h, db = gs_dot3(m, b) - h;
      if ((da >= 0) != (db >= 0)) {
        gsReal x[3];
        gs_sub3(x, b, a);
        gs_addScl3(t[nt++], a, x, da / (da - db));
      }
      if (db >= 0) gs_copy3(t[nt++], b);
    }
    np = nt, cur = 1 - cur;
  }
  memcpy(out, buf[cur], sizeof(gsReal) * 3 * (size_t)np);
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
 * (0, 1, 2, 3) to start with; slot 0 stays; the fourth slot climbs forward while the measure
 * grows, then the third, then the second; again until the fourth no longer moves. The points
 * keep the slots' order */
static int reduce(gsReal (*p)[3], int np) {
  if (np <= MAXKEEP) return np;
  int k[MAXKEEP] = {0, 1, 2, 3};
  for (int round = 0; round < np * np && climb(p, np, k, 3); round++) {
    climb(p, np, k, 2);
    climb(p, np, k, 1);
  }
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
  if (f->n < 3 || f->polygon || m->geom_type[g] != GS_GEOM_MESH) return;
  int id = m->geom_dataid[g];
  gsReal loc[3];
  gs_mulMatTVec3(loc, c->mat, f->nrm);
  /* the polygon whose normal is nearest the face's, the first of ties: among the polygons the
   * face's corners are corners of (mesh_polymap). A polygon outside them with a normal as near
   * would be a hull face turned from this one by about the rounding of its vertices, and so
   * within the face's plane tolerance (mesh_face), its corners among the face's. (Scanning all
   * of a 296-vertex die's 510 polygons was a seventh of its step.) */
  int best = -1, pa = m->mesh_polyadr[id], va = m->mesh_vertadr[id];
  gsReal bd = -2;
  for (int i = 0; i < f->n; i++) {
    int v = va + f->id[i];
    for (int k = m->mesh_polymapadr[v]; k < m->mesh_polymapadr[v] + m->mesh_polymapnum[v]; k++) {
      int p = pa + m->mesh_polymap[k];
      gsReal d = gs_dot3(m->mesh_polynormal + 3 * p, loc);
      if (d > bd || (d == bd && p < best)) bd = d, best = p;
    }
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
  if (!feature(&fa, m, ga, a, n) || !feature(&fb, m, gb, b, mn)) return 0;
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
    np = clip_polygon(pts, &fb, &fa);
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
    gsReal pos[3];
    if (m->opt.disableflags & GS_DSBL_NATIVECCD) {
      /* MJCF's older pipeline on the turned pair (convex_mpr.c) */
      gsReal depth;
      if (!gs_convexPenetrationMPR(&at, at.pos, margin / 2, &bt, bt.pos, margin / 2, m, &depth, nrm,
                                   pos))
        continue;
    } else {
      if (!gs_convexContact(&at, &bt, margin, tol, maxiter, &dist, pa, pb, nrm)) continue;
      /* the turned pair's own contact point (its midpoint), left where the turn put it */
      gs_add3(pos, pa, pb);
      gs_scl3(pos, pos, 0.5);
    }
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
  if (poly && margin <= 0 && !(m->opt.disableflags & GS_DSBL_NATIVECCD)) {
    int k = polytope_contacts(m, con, &a, g1, &b, g2);
    return k > 0 ? k : 1;
  }
  return turned_contacts(m, con, &a, &b, margin, m->geom_rbound[g1] + m->geom_rbound[g2]);
}
