/* The hill climb over a mesh's hull graph (mesh_graph, fields_world.h): from a vertex, move to
 * the neighbour farthest along a direction while one is farther than the current vertex, which on
 * a convex polytope ends at a farthest vertex. Shared by the compiler, which climbs to each hull
 * cell's vertex (mesh_hullcell), and the collision stage's support points. */
#ifndef GAUSS_CORE_HULL_CLIMB_H
#define GAUSS_CORE_HULL_CLIMB_H

#include <math.h>

#include "core/math.h"
#include "gauss/gauss.h"

/* the climb from local vertex `from` (nv hull vertices; edgeadr, globalid, edges: the graph's
 * parts): each move strictly increases the value, so a climb visits a vertex at most once; of
 * neighbours that tie, the first listed. With tie non-NULL, *tie is set to the last vertex's
 * value less 1e-12 (relative) when a neighbour comes that near, to +inf otherwise. Returns the
 * local index. */
static inline int gs_hullClimb(const gsReal* vert, int nv, const int* edgeadr, const int* globalid,
                               const int* edges, const gsReal u[3], int from, gsReal* tie) {
  int cur = from;
  gsReal cd = gs_dot3(vert + 3 * globalid[from], u), near = -INFINITY;
  for (int steps = 0; steps < nv; steps++) {
    int next = -1;
    near = -INFINITY;
    /* written to compile without branches (conditional moves): which neighbour wins is data,
     * and mispredicted branches cost more than the climb's arithmetic */
    for (const int* e = edges + edgeadr[cur]; *e >= 0; e++) {
      gsReal de = gs_dot3(vert + 3 * globalid[*e], u);
      int up = de > cd;
      near = de > near ? de : near;  /* at the last vertex: its largest neighbour */
      next = up ? *e : next;
      cd = up ? de : cd;
    }
    if (next < 0) break;
    cur = next;
  }
  if (tie) {
    const gsReal* v = vert + 3 * globalid[cur];
    gsReal scale = (fabs(v[0]) + fabs(v[1]) + fabs(v[2])) * (fabs(u[0]) + fabs(u[1]) + fabs(u[2]));
    *tie = cd - near > 1e-12 * scale ? INFINITY : cd - 1e-12 * scale;
  }
  return cur;
}

#endif
