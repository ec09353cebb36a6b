/* Support points of convex meshes: the hull vertex farthest along a direction, found on the hull
 * graph (mesh_graph, fields_world.h). Small hulls are scanned; larger ones are climbed: from a
 * vertex, move to any neighbour farther along the direction until none is, which on a convex
 * polytope ends at a farthest vertex. */
#include <math.h>

#include "collision/mesh.h"
#include "core/hull_cell.h"
#include "core/hull_climb.h"

/* hulls up to this many vertices are scanned (8-vertex boxes among them, whose exact ties the
 * scan decides as MJCF does); larger ones climbed: on bench/collision_bench.py's pile of 50 random
 * hulls (mostly 13 to 24 vertices) 206 -> 148 us per collision stage with 24 -> 12, contacts
 * unchanged (MuJoCo 175 us) */
#define MESH_SCAN_MAX 12
#define MESH_SAMPLES 16   /* vertices a climb without a starting vertex chooses its start from */

int gs_meshSupportScan(const gsReal* vert, int nvert, const gsReal u[3]) {
  int best = 0;
  gsReal bd = gs_dot3(vert, u);
  for (int i = 1; i < nvert; i++) {
    gsReal di = gs_dot3(vert + 3 * i, u);
    if (di > bd) bd = di, best = i;
  }
  return best;
}

/* Where a climb ended at cur with a neighbour within rounding of it (values >= lo): the plateau
 * of the vertices connected to cur with values >= lo, and the one among them that no neighbour
 * beats. A climb from anywhere ends on the plateau (elsewhere a neighbour is higher by more than
 * rounding), so when that vertex is the plateau's only one, every climb ends there, the climb
 * from vertex 0 included. Returns its local index, or -1 where the plateau has several such
 * vertices (values equal to the last bit, or coplanar faces that are not all neighbours) or more
 * than 32. */
static int plateau_top(const gsReal* vert, const int* edgeadr, const int* globalid,
                       const int* edges, const gsReal u[3], int cur, gsReal lo) {
  int P[32], n = 1, top = -1;
  gsReal val[32];
  P[0] = cur, val[0] = gs_dot3(vert + 3 * globalid[cur], u);
  for (int i = 0; i < n; i++) {
    int beaten = 0;
    for (const int* e = edges + edgeadr[P[i]]; *e >= 0; e++) {
      gsReal de = gs_dot3(vert + 3 * globalid[*e], u);
      beaten |= de > val[i];
      if (!(de >= lo)) continue;
      int known = 0;
      for (int j = 0; j < n && !known; j++) known = P[j] == *e;
      if (known) continue;
      if (n == 32) return -1;
      P[n] = *e, val[n] = de, n++;
    }
    if (!beaten) {
      if (top >= 0) return -1;
      top = P[i];
    }
  }
  return top;
}

int gs_meshSupportVertex(const gsReal* vert, const int* graph, const int* cells, const gsReal u[3]) {
  int nv = graph[0];
  const int* globalid = graph + 2 + nv;
  if (nv <= MESH_SCAN_MAX) {
    /* on a tie the vertex first in the mesh's order, not the hull's: MJCF scans the mesh's
     * vertices (flat faces pressed together tie whenever the direction is their normal, and the
     * tie decides EPA's contact point: cubes pressed face to face with their 8 vertices listed
     * in 20 orders, tests/python/test_collision_robots.py) */
    int best = globalid[0];
    gsReal bd = gs_dot3(vert + 3 * best, u);
    for (int i = 1; i < nv; i++) {
      int g = globalid[i];
      gsReal di = gs_dot3(vert + 3 * g, u);
      if (di > bd || (di == bd && g < best)) bd = di, best = g;
    }
    return best;
  }
  /* the climb from vertex 0's answer, found from a nearer start (gs_meshSupportWalk without an
   * earlier vertex: the same vertex, see there) */
  int start = -1;
  return gs_meshSupportWalk(vert, graph, cells, u, &start);
}

int gs_meshSupportClimb(const gsReal* vert, const int* graph, const gsReal u[3], int* start) {
  int nv = graph[0];
  const int* edgeadr = graph + 2;
  const int* globalid = graph + 2 + nv;
  const int* edges = graph + 2 + 2 * nv;
  int s = *start >= 0 && *start < nv ? *start : 0;
  *start = gs_hullClimb(vert, nv, edgeadr, globalid, edges, u, s, NULL);
  return globalid[*start];
}

int gs_meshSupportWalk(const gsReal* vert, const int* graph, const int* cells, const gsReal u[3],
                       int* start) {
  int nv = graph[0];
  if (nv <= MESH_SCAN_MAX) return gs_meshSupportVertex(vert, graph, cells, u);
  const int* edgeadr = graph + 2;
  const int* globalid = graph + 2 + nv;
  const int* edges = graph + 2 + 2 * nv;
  int s = *start >= 0 && *start < nv ? *start : -1;
  gsReal tie = INFINITY;
  /* the compiler's farthest vertex for u's cell of directions, where it is nearer the top than
   * the earlier vertex (EPA's directions jump across the hull: from the earlier vertex its climbs
   * took ~6 moves on a 296-vertex die, from the cell's ~1) */
  int k = cells ? gs_hullCell(u) : -1, cs = k >= 0 ? cells[k] : -1;
  if (cs >= 0 && cs < nv &&
      (s < 0 || gs_dot3(vert + 3 * globalid[cs], u) > gs_dot3(vert + 3 * globalid[s], u)))
    s = cs;
  if (s < 0) {
    /* no earlier vertex: the farthest of a few spread over the hull's order, so that the first
     * climb of a query is not one across the whole hull */
    gsReal best = -INFINITY;
    for (int i = 0; i < MESH_SAMPLES; i++) {
      int l = (int)((long)i * nv / MESH_SAMPLES);
      gsReal v = gs_dot3(vert + 3 * globalid[l], u);
      if (v > best) best = v, s = l;
    }
    if (s < 0) s = 0;  /* a direction of NaN: no sample is farther than -inf */
  }
  int cur = gs_hullClimb(vert, nv, edgeadr, globalid, edges, u, s, s ? &tie : NULL);
  /* a walk ends at the farthest vertex when it is the only one; where a neighbour comes within
   * rounding of it (u along a face's normal: EPA's directions often are), the plateau decides,
   * and where it does not, where a walk stops may depend on where it started: walked again from
   * vertex 0, as gs_meshSupportVertex does, so that the answer never depends on the previous
   * call */
  if (tie < INFINITY) {
    int top = plateau_top(vert, edgeadr, globalid, edges, u, cur, tie);
    cur = top >= 0 ? top : gs_hullClimb(vert, nv, edgeadr, globalid, edges, u, 0, NULL);
  }
  *start = cur;
  return globalid[cur];
}

int gs_meshSupportLocal(const gsReal* vert, const int* graph, const int* cells, const gsReal u[3],
                        int* local) {
  int nv = graph[0], l = -1;
  const int* globalid = graph + 2 + nv;
  int g = gs_meshSupportWalk(vert, graph, cells, u, &l);
  if (l < 0)  /* scanned: looked up among the few */
    for (l = 0; l < nv && globalid[l] != g;) l++;
  *local = l;
  return g;
}

/* ---- plane against mesh ---- */

#include "collision/collision.h"
#include "collision/pair_util.h"

/* MJCF's rule, found by sweeping poses and margins of boxes, tetrahedra, octahedra and random
 * hulls (tests/python/test_collision_mesh.py): the deepest hull vertex, if within the margin;
 * then its hull neighbours in the order of mesh_graph's list, each one within the margin and
 * farther than 0.3 rbound from the first contact's position (the midpoint between the vertex and
 * the plane), until 3 contacts in all. Later neighbours are compared with the first contact only. */
int gs_collidePlaneMesh(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2, gsReal margin) {
  gsReal n[3], nl[3], dir[3];
  gs_pairAxis(n, d->geom_xmat + 9 * g1, 2);
  const gsReal* mat = d->geom_xmat + 9 * g2;
  const gsReal* pos = d->geom_xpos + 3 * g2;
  int id = m->geom_dataid[g2];
  const gsReal* vert = m->mesh_vert + 3 * m->mesh_vertadr[id];
  gs_mulMatTVec3(nl, mat, n);
  gs_scl3(dir, nl, -1);
  if (m->mesh_graphadr[id] < 0) {  /* no hull graph (a distance sensor's mesh): the deepest vertex */
    gsReal p[3];
    gs_mulMatVec3(p, mat, vert + 3 * gs_meshSupportScan(vert, m->mesh_vertnum[id], dir));
    gs_add3(p, p, pos);
    return gs_pairPlanePoint(con, d->geom_xpos + 3 * g1, n, p, 0, margin);
  }
  const int* graph = m->mesh_graph + m->mesh_graphadr[id];
  int nv = graph[0];
  const int* edgeadr = graph + 2;
  const int* globalid = graph + 2 + nv;
  const int* edges = graph + 2 + 2 * nv;
  /* the deepest vertex, and its local index */
  int local, first = gs_meshSupportLocal(vert, graph, m->mesh_hullcell + GS_HULLCELLS * id, dir, &local);
  if (local == nv) return 0;
  const gsReal* p0 = d->geom_xpos + 3 * g1;
  gsReal p[3], dif[3];
  gs_mulMatVec3(p, mat, vert + 3 * first);
  gs_add3(p, p, pos);
  int ncon = gs_pairPlanePoint(con, p0, n, p, 0, margin);
  if (!ncon) return 0;
  gsReal mindist = 0.3 * m->geom_rbound[g2];
  for (const int* e = edges + edgeadr[local]; *e >= 0 && ncon < 3; e++) {
    gs_mulMatVec3(p, mat, vert + 3 * globalid[*e]);
    gs_add3(p, p, pos);
    gs_sub3(dif, p, con[0].pos);
    if (gs_norm3(dif) <= mindist) continue;
    ncon += gs_pairPlanePoint(con + ncon, p0, n, p, 0, margin);
  }
  return ncon;
}
