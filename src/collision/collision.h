/* Internal interface of the collision stage: the narrow-phase functions and their table.
 *
 * A pair function writes up to GS_MAXCONPAIR contacts for geoms g1 and g2 (type of g1 <= type
 * of g2) whose surfaces are closer than `margin`: dist (negative when penetrating), pos (midpoint
 * between the surfaces) and frame[0..2] (the unit normal, pointing from g1 towards g2). It
 * returns how many it wrote. Everything else in gsContact is filled by the caller. */
#ifndef GAUSS_COLLISION_H
#define GAUSS_COLLISION_H

#include "gauss/gauss.h"

#define GS_MAXCONPAIR 50

typedef int (*gsCollideFn)(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2,
                           gsReal margin);

/* [type1][type2] with type1 <= type2; NULL where no function exists yet */
extern const gsCollideFn gs_collideTable[GS_NGEOMTYPE][GS_NGEOMTYPE];

/* analytic pairs (pair_plane.c, pair_sphere.c, pair_capsule.c, pair_box.c) */
int gs_collidePlaneSphere(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2, gsReal margin);
int gs_collidePlaneCapsule(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2, gsReal margin);
int gs_collidePlaneEllipsoid(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2, gsReal margin);
int gs_collidePlaneCylinder(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2, gsReal margin);
int gs_collidePlaneBox(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2, gsReal margin);
int gs_collidePlaneMesh(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2, gsReal margin);
int gs_collideSphereSphere(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2, gsReal margin);
int gs_collideSphereCapsule(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2, gsReal margin);
int gs_collideSphereCylinder(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2, gsReal margin);
int gs_collideSphereBox(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2, gsReal margin);
int gs_collideCapsuleCapsule(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2, gsReal margin);
int gs_collideCapsuleBox(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2, gsReal margin);
int gs_collideBoxBox(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2, gsReal margin);

/* a height field (g1) against any convex geom (pair_hfield.c): one convex query per prism of the
 * cells under the geom */
int gs_collideHFieldConvex(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2, gsReal margin);

/* rays (ray.c) with gs_ray's filters taken once for a run of rays: the geoms they pass, ascending,
 * into geom (ngeom values), their bounding spheres' squared radii into R2 (-1: none), *n how many,
 * their centres (gs_rayCentres); then each ray cast among them, as gs_ray casts it (the same
 * distance and geom) */
void gs_rayGeoms(const gsModel* m, const unsigned char* geomgroup, int flg_static, int bodyexclude,
                 int* geom, gsReal* R2, int* n);
/* the listed geoms (n of them) that no ray of a bundle can hit left out, the order of the others
 * kept; returns how many remain. The nray rays start at pnt (3 values a ray) and point along the
 * unit vectors vec. Bit for bit the casts of gs_rayAmong over the whole list. */
int gs_rayCull(const gsModel* m, const gsData* d, const gsReal* pnt, const gsReal* vec, int nray,
               int* geom, gsReal* R2, int n);
/* the listed geoms' centres at this state, by coordinate: x of all, then y, then z (3 n values) */
void gs_rayCentres(const gsData* d, const int* geom, int n, gsReal* xyz);
gsReal gs_rayAmong(const gsModel* m, const gsData* d, const gsReal pnt[3], const gsReal vec[3],
                   const int* geom, const gsReal* R2, const gsReal* xyz, int n, int* geomid);

/* general convex pairs (convex.c): any two of sphere, capsule, ellipsoid, cylinder, box and
 * mesh (its convex hull), by GJK/EPA; used where no analytic function is listed */
int gs_collideConvex(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2, gsReal margin);

/* the same with MJCF's multiccd flag honoured (multiccd.c): more contacts where flat parts meet;
 * the table's entry for the pairs of capsules, cylinders, boxes and meshes that have no
 * analytic function */
int gs_collideConvexMulti(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2,
                          gsReal margin);

/* the same pairs by MJCF's older pipeline (convex_mpr.c), which gs_collideConvex hands them to
 * under the flag nativeccd="disable" */
int gs_collideConvexMPR(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2,
                        gsReal margin);

#endif
