/* Narrow phase: a plane against a sphere, capsule, ellipsoid, cylinder or box. The plane is
 * infinite (its size only matters for rendering); its normal is the geom's local z axis and
 * contact normals always equal it. */
#include "collision/pair_util.h"

int gs_collidePlaneSphere(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2,
                          gsReal margin) {
  gsReal n[3];
  gs_pairAxis(n, d->geom_xmat + 9 * g1, 2);
  return gs_pairPlanePoint(con, d->geom_xpos + 3 * g1, n, d->geom_xpos + 3 * g2,
                           m->geom_size[3 * g2], margin);
}

/* the two end spheres, the end along +axis first (at most 2 contacts); the first tangent is the
 * capsule's axis projected onto the plane */
int gs_collidePlaneCapsule(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2,
                           gsReal margin) {
  gsReal n[3], px[3], py[3], axis[3], t1[3], t2[3], end[3];
  gs_pairAxis(n, d->geom_xmat + 9 * g1, 2);
  gs_pairAxis(px, d->geom_xmat + 9 * g1, 0);
  gs_pairAxis(py, d->geom_xmat + 9 * g1, 1);
  gs_pairAxis(axis, d->geom_xmat + 9 * g2, 2);
  /* projected through the plane's own x and y axes: a capsule normal to the plane then gives
   * (nearly) exactly zero, and the tangent (1,0,0) */
  gs_scl3(t1, px, gs_dot3(px, axis));
  gs_addScl3(t1, t1, py, gs_dot3(py, axis));
  gs_normalize3(t1);
  gs_cross(t2, n, t1);
  const gsReal* p0 = d->geom_xpos + 3 * g1;
  const gsReal* p = d->geom_xpos + 3 * g2;
  gsReal r = m->geom_size[3 * g2], h = m->geom_size[3 * g2 + 1];
  int ncon = 0;
  for (int s = 1; s >= -1; s -= 2) {
    gs_addScl3(end, p, axis, s * h);
    if (gs_pairPlanePoint(con + ncon, p0, n, end, r, margin)) {
      gs_copy3(con[ncon].frame + 3, t1);
      gs_copy3(con[ncon].frame + 6, t2);
      ncon++;
    }
  }
  return ncon;
}

/* the ellipsoid's point deepest along -normal */
int gs_collidePlaneEllipsoid(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2,
                             gsReal margin) {
  gsReal n[3], nl[3], sn[3], pl[3], pw[3], dif[3], pos[3];
  gs_pairAxis(n, d->geom_xmat + 9 * g1, 2);
  const gsReal* mat = d->geom_xmat + 9 * g2;
  const gsReal* s = m->geom_size + 3 * g2;
  gs_mulMatTVec3(nl, mat, n);
  for (int i = 0; i < 3; i++) sn[i] = s[i] * nl[i];
  gsReal len = gs_norm3(sn);
  if (len < GS_MINVAL) return 0;
  for (int i = 0; i < 3; i++) pl[i] = -s[i] * sn[i] / len;
  gs_mulMatVec3(pw, mat, pl);
  gs_add3(pw, pw, d->geom_xpos + 3 * g2);
  gs_sub3(dif, pw, d->geom_xpos + 3 * g1);
  gsReal dist = gs_dot3(dif, n);
  if (dist > margin) return 0;
  gs_addScl3(pos, pw, n, -0.5 * dist);
  gs_pairSet(con, dist, pos, n);
  return 1;
}

/* up to 4 contacts: the deepest point of the rim of the cap nearer the plane, the matching point
 * of the other cap, and two more points on the nearer cap's rim at +-120 degrees */
int gs_collidePlaneCylinder(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2,
                            gsReal margin) {
  gsReal n[3], axis[3], dif[3], vec[3], side[3], p[3], pos[3];
  gs_pairAxis(n, d->geom_xmat + 9 * g1, 2);
  gs_pairAxis(axis, d->geom_xmat + 9 * g2, 2);
  const gsReal* c = d->geom_xpos + 3 * g2;
  gsReal r = m->geom_size[3 * g2], h = m->geom_size[3 * g2 + 1];
  gsReal pa = gs_dot3(n, axis);
  if (pa > 0) {  /* make the axis point towards the plane */
    gs_scl3(axis, axis, -1);
    pa = -pa;
  }
  gs_sub3(dif, c, d->geom_xpos + 3 * g1);
  gsReal d0 = gs_dot3(dif, n);
  /* vec: the radius within the cap pointing most towards the plane */
  gs_scl3(vec, axis, pa);
  gs_sub3(vec, vec, n);
  gsReal len = gs_norm3(vec);
  if (len < GS_MINVAL) {
    gs_pairAxis(vec, d->geom_xmat + 9 * g2, 0);
    gs_scl3(vec, vec, r);
  } else {
    gs_scl3(vec, vec, r / len);
  }
  gsReal pv = gs_dot3(vec, n);
  int ncon = 0;
  gsReal dist = d0 + pa * h + pv;
  if (dist <= margin) {
    gs_addScl3(p, c, axis, h);
    gs_add3(p, p, vec);
    gs_addScl3(pos, p, n, -0.5 * dist);
    gs_pairSet(con + ncon++, dist, pos, n);
  }
  dist = d0 - pa * h + pv;
  if (dist <= margin) {
    gs_addScl3(p, c, axis, -h);
    gs_add3(p, p, vec);
    gs_addScl3(pos, p, n, -0.5 * dist);
    gs_pairSet(con + ncon++, dist, pos, n);
  }
  dist = d0 + pa * h - 0.5 * pv;
  if (dist <= margin) {
    gs_cross(side, vec, axis);
    gs_normalize3(side);
    gs_scl3(side, side, r * sqrt(3.0) / 2);
    for (int s = 1; s >= -1; s -= 2) {
      gs_addScl3(p, c, axis, h);
      gs_addScl3(p, p, vec, -0.5);
      gs_addScl3(p, p, side, s);
      gs_addScl3(pos, p, n, -0.5 * dist);
      gs_pairSet(con + ncon++, dist, pos, n);
    }
  }
  return ncon;
}

/* the box's corners on the plane's side of its centre that are within margin, at most 4; corner
 * k has sign + along local axis j when bit j of k is set */
int gs_collidePlaneBox(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2,
                       gsReal margin) {
  gsReal n[3], nl[3], dif[3], corner[3], cw[3], pos[3];
  gs_pairAxis(n, d->geom_xmat + 9 * g1, 2);
  const gsReal* mat = d->geom_xmat + 9 * g2;
  const gsReal* s = m->geom_size + 3 * g2;
  const gsReal* c = d->geom_xpos + 3 * g2;
  gs_sub3(dif, c, d->geom_xpos + 3 * g1);
  gsReal d0 = gs_dot3(dif, n);
  gs_mulMatTVec3(nl, mat, n);
  int ncon = 0;
  for (int k = 0; k < 8 && ncon < 4; k++) {
    for (int j = 0; j < 3; j++) corner[j] = (k & (1 << j)) ? s[j] : -s[j];
    gsReal ld = gs_dot3(corner, nl);
    if (ld > 0 || d0 + ld > margin) continue;
    gsReal dist = d0 + ld;
    gs_mulMatVec3(cw, mat, corner);
    gs_add3(cw, cw, c);
    gs_addScl3(pos, cw, n, -0.5 * dist);
    gs_pairSet(con + ncon++, dist, pos, n);
  }
  return ncon;
}
