/* Narrow phase: a sphere against a sphere, capsule, cylinder or box. */
#include "collision/pair_util.h"

int gs_collideSphereSphere(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2,
                           gsReal margin) {
  gsReal z1[3], z2[3];
  gs_pairZ(z1, z2, d, g1, g2);
  return gs_pairSpheres(con, d->geom_xpos + 3 * g1, m->geom_size[3 * g1],
                        d->geom_xpos + 3 * g2, m->geom_size[3 * g2], margin, z1, z2);
}

/* the sphere against the nearest point of the capsule's segment */
int gs_collideSphereCapsule(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2,
                            gsReal margin) {
  const gsReal* p1 = d->geom_xpos + 3 * g1;
  const gsReal* p2 = d->geom_xpos + 3 * g2;
  gsReal axis[3], dif[3], near[3];
  gs_pairAxis(axis, d->geom_xmat + 9 * g2, 2);
  gs_sub3(dif, p1, p2);
  gsReal h = m->geom_size[3 * g2 + 1];
  gsReal t = gs_pairClamp(gs_dot3(dif, axis), -h, h);
  gs_addScl3(near, p2, axis, t);
  gsReal z1[3];
  gs_pairAxis(z1, d->geom_xmat + 9 * g1, 2);
  return gs_pairSpheres(con, p1, m->geom_size[3 * g1], near, m->geom_size[3 * g2], margin, z1,
                        axis);
}

/* outside: against the nearest point of the side, a cap or a rim; centre inside: out through
 * the side or the cap, whichever is nearer (the side on a tie) */
int gs_collideSphereCylinder(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2,
                             gsReal margin) {
  const gsReal* c = d->geom_xpos + 3 * g1;
  const gsReal* p = d->geom_xpos + 3 * g2;
  gsReal r = m->geom_size[3 * g1];
  gsReal R = m->geom_size[3 * g2], h = m->geom_size[3 * g2 + 1];
  gsReal axis[3], dif[3], rad[3], n[3], pos[3], near[3];
  gs_pairAxis(axis, d->geom_xmat + 9 * g2, 2);
  gs_sub3(dif, c, p);
  gsReal z = gs_dot3(dif, axis);
  gs_addScl3(rad, dif, axis, -z);   /* radial part of the centre */
  gsReal rlen = gs_norm3(rad);
  gsReal az = fabs(z);
  int side;
  gsReal dist;
  if (rlen < R && az < h) {  /* centre inside */
    side = R - rlen <= h - az;
    dist = -(side ? R - rlen : h - az) - r;
  } else if (az < h) {
    side = 1;
    if (rlen > margin + r + R) return 0;  /* (so compared, as MuJoCo does, to the last bit) */
    dist = rlen - R - r;
  } else if (rlen < R) {
    side = 0;
    if (az > margin + r + h) return 0;
    dist = az - h - r;
  } else {  /* nearest to a rim */
    gs_scl3(near, rad, R / rlen);
    gs_addScl3(near, near, axis, z > 0 ? h : -h);
    gs_add3(near, near, p);
    gsReal z1[3];
    gs_pairAxis(z1, d->geom_xmat + 9 * g1, 2);
    return gs_pairSpheres(con, c, r, near, 0, margin, z1, axis);
  }
  if (dist > margin && rlen < R && az < h) return 0;
  if (side) {
    if (rlen < GS_MINVAL) {  /* centre on the axis: as for coincident spheres */
      gsReal z1[3];
      gs_pairAxis(z1, d->geom_xmat + 9 * g1, 2);
      gs_cross(n, z1, axis);
    } else {
      gs_scl3(n, rad, -1);
    }
    gs_normalize3(n);
  } else {
    gs_scl3(n, axis, z > 0 ? -1 : 1);
  }
  gs_addScl3(pos, c, n, r + 0.5 * dist);
  gs_pairSet(con, dist, pos, n);
  return 1;
}

/* a sphere of radius r centred at c (world) against the box g2. Outside: against the nearest
 * point of the box; centre inside (or on the surface): out through the nearest face (the first of
 * x, y, z on a tie). Also used by capsule-box, whose contacts are spheres along the axis. */
int gs_pairSphereBox(const gsModel* m, const gsData* d, gsContact* con, const gsReal c[3], gsReal r,
                     int g2, gsReal margin) {
  const gsReal* p = d->geom_xpos + 3 * g2;
  const gsReal* mat = d->geom_xmat + 9 * g2;
  const gsReal* s = m->geom_size + 3 * g2;
  gsReal dif[3], loc[3], clamped[3], nl[3], n[3], pos[3];
  gs_sub3(dif, c, p);
  gs_mulMatTVec3(loc, mat, dif);
  for (int i = 0; i < 3; i++) clamped[i] = gs_pairClamp(loc[i], -s[i], s[i]);
  gs_sub3(nl, clamped, loc);
  gsReal out = gs_norm3(nl);
  gsReal dist;
  if (out > GS_MINVAL) {
    dist = out - r;
    if (dist > margin) return 0;
    gs_scl3(nl, nl, 1 / out);
  } else {
    int k = 0;
    gsReal depth = s[0] - fabs(loc[0]);
    for (int i = 1; i < 3; i++)
      if (s[i] - fabs(loc[i]) < depth) {
        depth = s[i] - fabs(loc[i]);
        k = i;
      }
    dist = -depth - r;
    if (dist > margin) return 0;
    gs_zero3(nl);
    nl[k] = loc[k] > 0 ? -1 : 1;
  }
  gs_mulMatVec3(n, mat, nl);
  gs_addScl3(pos, c, n, r + 0.5 * dist);
  gs_pairSet(con, dist, pos, n);
  return 1;
}

int gs_collideSphereBox(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2,
                        gsReal margin) {
  return gs_pairSphereBox(m, d, con, d->geom_xpos + 3 * g1, m->geom_size[3 * g1], g2, margin);
}
