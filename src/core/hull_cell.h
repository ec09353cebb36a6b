/* The cells of directions where climbs over a mesh's hull graph start (mesh_hullcell,
 * fields_world.h): a cube's six faces, each cut into 4 x 4 equal squares. Shared by the compiler,
 * which finds each cell's farthest hull vertex, and the collision stage, which starts its climbs
 * there. */
#ifndef GAUSS_CORE_HULL_CELL_H
#define GAUSS_CORE_HULL_CELL_H

#include <math.h>

#include "gauss/gauss.h"

/* which quarter of [-1, 1] t falls in (0 for NaN) */
static inline int gs_hullQuarter(gsReal t) {
  return t >= -0.5 ? (t >= 0 ? (t >= 0.5 ? 3 : 2) : 1) : 0;
}

/* the cell of direction u: the axis of its largest component in magnitude (the first of ties)
 * and that component's sign pick the face, the other two components over it the square; -1 for
 * a zero or NaN direction */
static inline int gs_hullCell(const gsReal u[3]) {
  gsReal a0 = fabs(u[0]), a1 = fabs(u[1]), a2 = fabs(u[2]);
  int ax = a0 >= a1 ? (a0 >= a2 ? 0 : 2) : (a1 >= a2 ? 1 : 2);
  gsReal big = ax == 0 ? a0 : ax == 1 ? a1 : a2;
  if (!(big > 0) || big == INFINITY) return -1;
  gsReal inv = 1 / big;
  int i = gs_hullQuarter(u[(ax + 1) % 3] * inv), j = gs_hullQuarter(u[(ax + 2) % 3] * inv);
  return ((2 * ax + (u[ax] < 0)) * 4 + i) * 4 + j;
}

/* the centre direction of cell k (not of unit length) */
static inline void gs_hullCellDir(int k, gsReal u[3]) {
  int j = k % 4, i = (k / 4) % 4, face = k / 16, ax = face / 2;
  u[ax] = face % 2 ? -1 : 1;
  u[(ax + 1) % 3] = -0.75 + 0.5 * i;
  u[(ax + 2) % 3] = -0.75 + 0.5 * j;
}

#endif
