/* Which narrow-phase function handles which pair of geom types (type1 <= type2), and the public
 * call of one pair's function (gs_collideGeoms). */
#include "collision/collision.h"

#define P GS_GEOM_PLANE
#define H GS_GEOM_HFIELD
#define S GS_GEOM_SPHERE
#define C GS_GEOM_CAPSULE
#define E GS_GEOM_ELLIPSOID
#define Y GS_GEOM_CYLINDER
#define B GS_GEOM_BOX
#define M GS_GEOM_MESH

const gsCollideFn gs_collideTable[GS_NGEOMTYPE][GS_NGEOMTYPE] = {
    [P][S] = gs_collidePlaneSphere,    [P][C] = gs_collidePlaneCapsule,
    [P][E] = gs_collidePlaneEllipsoid, [P][Y] = gs_collidePlaneCylinder,
    [P][B] = gs_collidePlaneBox,
    /* height fields: against every convex type, meshes through their hulls (plane-hfield and
     * hfield-hfield are not collided, as in MJCF) */
    [H][S] = gs_collideHFieldConvex,   [H][C] = gs_collideHFieldConvex,
    [H][E] = gs_collideHFieldConvex,   [H][Y] = gs_collideHFieldConvex,
    [H][B] = gs_collideHFieldConvex,   [H][M] = gs_collideHFieldConvex,
    [S][S] = gs_collideSphereSphere,   [S][C] = gs_collideSphereCapsule,
    [S][E] = gs_collideConvex,         [S][Y] = gs_collideSphereCylinder,
    [S][B] = gs_collideSphereBox,
    [C][C] = gs_collideCapsuleCapsule, [C][E] = gs_collideConvex,
    /* capsule-box matches MJCF's contacts on ~99% of random poses and on exactly aligned ones;
     * box-box (separating axes, clipped faces, up to 8 contacts) matches on resting and shallow
     * contacts, not yet on MuJoCo's contact counts in deep penetration and with parallel faces
     * inside a margin (see pair_box.c): still closer to it than one convex contact */
    [C][Y] = gs_collideConvexMulti,    [C][B] = gs_collideCapsuleBox,
    [E][E] = gs_collideConvex,         [E][Y] = gs_collideConvex,
    [E][B] = gs_collideConvex,
    [Y][Y] = gs_collideConvexMulti,    [Y][B] = gs_collideConvexMulti,
    [B][B] = gs_collideBoxBox,
    /* meshes: their convex hulls */
    [P][M] = gs_collidePlaneMesh,
    [S][M] = gs_collideConvex,         [C][M] = gs_collideConvexMulti,
    [E][M] = gs_collideConvex,         [Y][M] = gs_collideConvexMulti,
    [B][M] = gs_collideConvexMulti,    [M][M] = gs_collideConvexMulti,
};

int gs_collideGeoms(const gsModel* m, const gsData* d, int g1, int g2, gsReal margin,
                    gsContact* con, int maxcon) {
  if (g1 < 0 || g1 >= m->ngeom || g2 < 0 || g2 >= m->ngeom || g1 == g2 || maxcon < 0) return -1;
  int swap = m->geom_type[g1] > m->geom_type[g2];
  int a = swap ? g2 : g1, b = swap ? g1 : g2;
  gsCollideFn fn = gs_collideTable[m->geom_type[a]][m->geom_type[b]];
  if (!fn) return -1;
  /* a pair function writes up to GS_MAXCONPAIR contacts */
  gsContact buf[GS_MAXCONPAIR];
  int n = fn(m, d, buf, a, b, margin);
  if (n > maxcon) n = maxcon;
  for (int i = 0; i < n; i++) {
    con[i] = buf[i];
    con[i].geom1 = g1;
    con[i].geom2 = g2;
    /* the normal points from g1 to g2 */
    if (swap)
      for (int k = 0; k < 3; k++) con[i].frame[k] = -con[i].frame[k];
  }
  return n;
}
