/* General convex geometry (convex.c): support functions of the primitive geoms and a GJK
 * distance / EPA penetration query on any two of them. */
#ifndef GAUSS_CONVEX_H
#define GAUSS_CONVEX_H

#include "collision/collision.h"

typedef struct gsConvex gsConvex;

/* a convex geom in world frame */
struct gsConvex {
  int type;            /* GS_GEOM_SPHERE .. GS_GEOM_MESH */
  const gsReal* size;
  const gsReal* pos;   /* centre */
  const gsReal* mat;   /* orientation, row-major */
  gsReal radius;       /* spheres and capsules: a point or segment core swept by this radius */
  gsReal inflate;      /* the core's support moved this far along the direction: a polytope
                        * grown by a margin as a curved shape (see gs_collideConvex) */
  const gsReal* vert;  /* meshes: the mesh's vertices and hull graph (mesh_graph) */
  const int* graph;    /* NULL where the mesh has none: nvert vertices scanned */
  const int* cells;    /* the mesh's mesh_hullcell row: where support climbs start */
  int nvert;
  int* hint;           /* meshes: where non-NULL, the hull vertex the last support call ended at
                        * (-1: none yet), where the next one starts its climb
                        * (gs_meshSupportWalk) */
  /* a shape that is not a geom (the prisms of a height field): its own support function of the
   * core in world frame, with `data` for it; NULL for geoms (gs_convexFromGeom) */
  void (*support)(gsReal r[3], const gsConvex* c, const gsReal dir[3]);
  const void* data;
};

void gs_convexFromGeom(gsConvex* c, const gsModel* m, const gsData* d, int g);

/* support point of c's core (c without its radius) in world direction dir (dir need not be unit) */
void gs_convexSupport(gsReal r[3], const gsConvex* c, const gsReal dir[3]);

#ifdef GAUSS_COUNT_SUPPORT
/* calls of gs_convexSupport so far: a cost measure for benchmarks (built with
 * -DGAUSS_COUNT_SUPPORT, off otherwise) */
extern long gs_convexSupportCount;
#endif

/* Signed distance between a and b. Returns 0 when the surfaces are certainly at least `cutoff`
 * apart (nothing else is written), else 1 with dist (negative when penetrating), the witness
 * points pa on a and pb on b, and the unit normal from a towards b. tol: MJCF's ccd_tolerance;
 * maxiter: its ccd_iterations, for each of GJK and EPA. A cutoff of 0 is MJCF's overlap test
 * (no distance, and its own tetrahedron step, see convex.c). */
int gs_convexDistance(const gsConvex* a, const gsConvex* b, gsReal cutoff, gsReal tol, int maxiter,
                      gsReal* dist, gsReal pa[3], gsReal pb[3], gsReal normal[3]);

/* The contact test of a and b inside a margin as MJCF's native pipeline makes it: both grown by
 * half the margin, their overlap (gs_convexDistance without a cutoff), the witness points moved
 * back. Returns 0 where they do not come within the margin, else 1 with dist (< margin; negative
 * when penetrating), the witness points and the unit normal from a towards b. */
int gs_convexContact(const gsConvex* a, const gsConvex* b, gsReal margin, gsReal tol, int maxiter,
                     gsReal* dist, gsReal pa[3], gsReal pb[3], gsReal normal[3]);

/* MJCF's older pipeline (convex_mpr.c): the penetration of a and b, grown by grow_a and grow_b
 * (half the margin; a height field's prism is not grown), by portal refinement from the interior
 * point ca - cb (their centres): 1 with the depth of the grown pair, the unit normal from a
 * towards b and the contact point where they overlap, 0 where they do not */
int gs_convexPenetrationMPR(const gsConvex* a, const gsReal ca[3], gsReal grow_a, const gsConvex* b,
                            const gsReal cb[3], gsReal grow_b, const gsModel* m, gsReal* depth,
                            gsReal normal[3], gsReal pos[3]);

/* MJCF's normal at a contact point pos of a rounded geom g (round_normal.c): spheres and capsules
 * towards their core, cylinders towards their axis where the point is deep enough below a cap;
 * gs_roundDirection returns 1 with that unit direction (pointing into g) where the rule gives
 * one, 0 otherwise and for other shapes; gs_roundNormal replaces nrm by it where it does */
int gs_roundDirection(gsReal dir[3], const gsModel* m, const gsData* d, int g, const gsReal pos[3]);
void gs_roundNormal(gsReal nrm[3], const gsModel* m, const gsData* d, int g, const gsReal pos[3]);

/* tolerance and iterations used by the collision stage and gs_geomDistance */
void gs_convexSettings(const gsModel* m, gsReal* tol, int* maxiter);

#endif
