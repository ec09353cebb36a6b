/* Signed distance between two geoms (MJCF's mj_geomDistance): the smallest signed distance
 * between their surfaces, capped at distmax; fromto gets the closest points (on g1, then on g2),
 * or zeros when the distance is distmax or more. */
#include <math.h>

#include "collision/convex.h"
#include "collision/pair_util.h"

static int is_convex(int type) { return type >= GS_GEOM_SPHERE && type <= GS_GEOM_MESH; }  /* meshes: their hulls */

/* plane p against convex c: the deepest point of c below the plane (planes are infinite here) */
static int plane_distance(const gsModel* m, const gsData* d, int p, int g, gsReal distmax,
                         gsReal* dist, gsReal pp[3], gsReal pg[3]) {
  gsConvex c;
  const gsReal* mat = d->geom_xmat + 9 * p;
  gsReal n[3], mn[3], rel[3];
  gs_pairAxis(n, mat, 2);
  gs_scl3(mn, n, -1);
  gs_convexFromGeom(&c, m, d, g);
  gs_convexSupport(pg, &c, mn);
  gs_addScl3(pg, pg, n, -c.radius);
  gs_sub3(rel, pg, d->geom_xpos + 3 * p);
  gsReal h = gs_dot3(rel, n);
  if (h >= distmax) return 0;
  *dist = h;
  gs_addScl3(pp, pg, n, -h);
  return 1;
}

gsReal gs_geomDistance(const gsModel* m, const gsData* d, int g1, int g2, gsReal distmax,
                       gsReal fromto[6]) {
  int t1 = m->geom_type[g1], t2 = m->geom_type[g2], found = 0;
  gsReal dist = distmax, p1[3], p2[3];
  /* height fields: not a distance query (their pair function reports penetration of prisms
   * raised by the margin); distmax, as for pairs without a function */
  if (t1 == GS_GEOM_HFIELD || t2 == GS_GEOM_HFIELD) {
    if (fromto) gs_zero(fromto, 6);
    return distmax;
  }
  if (is_convex(t1) && is_convex(t2)) {
    /* bounding spheres at least distmax apart: nothing nearer (the convex search's distance is
     * never below the true one, which is never below the spheres' gap) */
    gsReal r1 = m->geom_rbound[g1], r2 = m->geom_rbound[g2], dx[3];
    gs_sub3(dx, d->geom_xpos + 3 * g1, d->geom_xpos + 3 * g2);
    if (r1 > 0 && r2 > 0 && gs_norm3(dx) - r1 - r2 > distmax + 1e-9 * (r1 + r2)) {
      if (fromto) gs_zero(fromto, 6);
      return distmax;
    }
    gsConvex a, b;
    gsReal tol, nrm[3];
    int maxiter;
    gs_convexFromGeom(&a, m, d, g1);
    gs_convexFromGeom(&b, m, d, g2);
    gs_convexSettings(m, &tol, &maxiter);
    found = gs_convexDistance(&a, &b, distmax, tol, maxiter, &dist, p1, p2, nrm);  /* dist < distmax */
  } else if (t1 == GS_GEOM_PLANE && is_convex(t2)) {
    found = plane_distance(m, d, g1, g2, distmax, &dist, p1, p2);
  } else if (t2 == GS_GEOM_PLANE && is_convex(t1)) {
    found = plane_distance(m, d, g2, g1, distmax, &dist, p2, p1);
  } else {
    /* other types (height fields): the narrow-phase function, if there is one */
    int swap = t1 > t2, ga = swap ? g2 : g1, gb = swap ? g1 : g2;
    gsCollideFn fn = gs_collideTable[m->geom_type[ga]][m->geom_type[gb]];
    gsContact con[GS_MAXCONPAIR];
    int n = fn ? fn(m, d, con, ga, gb, distmax) : 0;
    for (int i = 0; i < n; i++) {
      if (con[i].dist < dist) {
        dist = con[i].dist;
        gs_addScl3(swap ? p2 : p1, con[i].pos, con[i].frame, -0.5 * dist);
        gs_addScl3(swap ? p1 : p2, con[i].pos, con[i].frame, 0.5 * dist);
        found = 1;
      }
    }
  }
  if (!found) {
    if (fromto) gs_zero(fromto, 6);
    return distmax;
  }
  if (fromto) gs_copy3(fromto, p1), gs_copy3(fromto + 3, p2);
  return dist;
}
