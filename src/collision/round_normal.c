/* MJCF's contact normals at rounded geoms: where one of a pair is a sphere, a capsule or (deep
 * enough) a cylinder, MJCF reports the direction from the contact point to its core instead of
 * the normal its convex search found. Used by the height fields (pair_hfield.c) and by the older
 * convex pipeline (convex_mpr.c). */
#include <math.h>

#include "collision/convex.h"
#include "collision/pair_util.h"

/* Spheres and capsules take the normal towards their core (the centre, or the nearest point of
 * the axis segment) from the contact point, as MJCF reports them on height fields; it is the
 * penetration normal while the core is outside the prism by less than the radius, and points the
 * other way beyond that. Cylinders take the direction from the contact point straight to their
 * axis when the point is deeper than a twentieth of the half-height below the nearer cap and
 * nearer the side than four times its depth below that cap (measured against MJCF by moving a
 * cylinder through a flat field until its normal switches, and checked on random poses), and
 * keep the penetration normal otherwise. Other shapes keep the penetration normal. */
int gs_roundDirection(gsReal dir[3], const gsModel* m, const gsData* d, int g, const gsReal pos[3]) {
  int type = m->geom_type[g];
  if (type != GS_GEOM_SPHERE && type != GS_GEOM_CAPSULE && type != GS_GEOM_CYLINDER) return 0;
  const gsReal* c = d->geom_xpos + 3 * g;
  const gsReal* size = m->geom_size + 3 * g;
  gsReal core[3], v[3];
  gs_copy3(core, c);
  if (type != GS_GEOM_SPHERE) {
    gsReal axis[3], rel[3];
    gs_pairAxis(axis, d->geom_xmat + 9 * g, 2);
    gs_sub3(rel, pos, c);
    gsReal z = gs_dot3(rel, axis), h = size[1];
    if (type == GS_GEOM_CYLINDER) {
      gsReal radial[3], capDepth = h - fabs(z);
      gs_addScl3(radial, rel, axis, -z);
      if (!(capDepth > 0.05 * h && size[0] - gs_norm3(radial) < 4 * capDepth)) return 0;
    }
    gs_addScl3(core, c, axis, gs_pairClamp(z, -h, h));
  }
  gs_sub3(v, core, pos);
  gsReal len = gs_norm3(v);
  if (!(len > 1e-12)) return 0;  /* on the core: no direction */
  gs_scl3(dir, v, 1 / len);
  return 1;
}

void gs_roundNormal(gsReal nrm[3], const gsModel* m, const gsData* d, int g, const gsReal pos[3]) {
  gsReal dir[3];
  if (gs_roundDirection(dir, m, d, g, pos)) gs_copy3(nrm, dir);
}
