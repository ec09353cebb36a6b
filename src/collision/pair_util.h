/* Small helpers shared by the analytic narrow-phase functions (pair_*.c). */
#ifndef GAUSS_COLLISION_PAIR_UTIL_H
#define GAUSS_COLLISION_PAIR_UTIL_H

#include "collision/collision.h"
#include "core/math.h"

/* column c of a row-major 3x3 matrix: the world direction of the frame's local axis c */
static inline void gs_pairAxis(gsReal r[3], const gsReal mat[9], int c) {
  r[0] = mat[c]; r[1] = mat[3 + c]; r[2] = mat[6 + c];
}

static inline gsReal gs_pairClamp(gsReal x, gsReal lo, gsReal hi) {
  return x < lo ? lo : (x > hi ? hi : x);
}

/* write one contact: normal n (unit, from geom1 towards geom2), tangents left for the caller */
static inline void gs_pairSet(gsContact* c, gsReal dist, const gsReal pos[3], const gsReal n[3]) {
  c->dist = dist;
  gs_copy3(c->pos, pos);
  gs_copy3(c->frame, n);
  gs_zero3(c->frame + 3);
  gs_zero3(c->frame + 6);
}

/* two spheres (centres p1, p2, radii r1, r2): the contact of their surfaces when closer than
 * margin. Coincident centres take the normal across the z axes of the geoms' frames z1 and z2,
 * or (1,0,0) when those are parallel. */
static inline int gs_pairSpheres(gsContact* c, const gsReal p1[3], gsReal r1, const gsReal p2[3],
                                 gsReal r2, gsReal margin, const gsReal z1[3], const gsReal z2[3]) {
  gsReal n[3], pos[3];
  gs_sub3(n, p2, p1);
  gsReal cdist = gs_norm3(n);
  gsReal dist = cdist - r1 - r2;
  if (dist > margin) return 0;
  if (cdist < GS_MINVAL) {
    gs_cross(n, z1, z2);
    gs_normalize3(n);
  } else {
    gs_scl3(n, n, 1 / cdist);
  }
  gs_addScl3(pos, p1, n, r1 + 0.5 * dist);
  gs_pairSet(c, dist, pos, n);
  return 1;
}

/* the z axes of two geoms' frames, for gs_pairSpheres */
static inline void gs_pairZ(gsReal z1[3], gsReal z2[3], const gsData* d, int g1, int g2) {
  gs_pairAxis(z1, d->geom_xmat + 9 * g1, 2);
  gs_pairAxis(z2, d->geom_xmat + 9 * g2, 2);
}

/* a sphere against the plane through p0 with unit normal n (pointing from plane to sphere) */
static inline int gs_pairPlanePoint(gsContact* c, const gsReal p0[3], const gsReal n[3],
                                    const gsReal p[3], gsReal r, gsReal margin) {
  gsReal dif[3], pos[3];
  gs_sub3(dif, p, p0);
  gsReal cdist = gs_dot3(dif, n);
  if (cdist > margin + r) return 0;  /* (so compared, as MuJoCo does, to the last bit) */
  gsReal dist = cdist - r;
  gs_addScl3(pos, p, n, -(r + 0.5 * dist));
  gs_pairSet(c, dist, pos, n);
  return 1;
}

/* a sphere (centre c, radius r) against the box g2 (pair_sphere.c) */
int gs_pairSphereBox(const gsModel* m, const gsData* d, gsContact* con, const gsReal c[3], gsReal r,
                     int g2, gsReal margin);

#endif
