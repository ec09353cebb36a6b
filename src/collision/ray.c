/* Ray casting against the geoms (MJCF's mj_ray semantics): the distance is measured along vec in
 * units of |vec|, -1 when nothing is hit. A ray that starts inside a solid geom hits its far side;
 * planes are one-sided (seen from +z) and bounded by their x, y sizes when those are positive;
 * geoms with rgba alpha 0 are invisible to rays. Height fields and meshes are not cast against yet. */
#include <math.h>

#include "core/math.h"
#include "gauss/gauss.h"

#define NGROUP 6

/* smallest x >= 0 with a x^2 + 2 b x + c = 0, -1 when none */
static gsReal quadRoot(gsReal a, gsReal b, gsReal c) {
  gsReal det = b * b - a * c;
  if (a <= 0 || det < 0) return -1;
  gsReal sq = sqrt(det);
  gsReal x1 = (-b - sq) / a;
  if (x1 >= 0) return x1;
  gsReal x2 = (-b + sq) / a;
  return x2 >= 0 ? x2 : -1;
}

static gsReal minPos(gsReal a, gsReal b) {
  if (a < 0) return b;
  if (b < 0) return a;
  return a < b ? a : b;
}

static gsReal raySphere(const gsReal p[3], const gsReal v[3], gsReal r) {
  return quadRoot(gs_dot3(v, v), gs_dot3(p, v), gs_dot3(p, p) - r * r);
}

/* infinite cylinder side of radius r about z, limited to |z| <= h */
static gsReal raySide(const gsReal p[3], const gsReal v[3], gsReal r, gsReal h) {
  gsReal a = v[0] * v[0] + v[1] * v[1];
  gsReal b = p[0] * v[0] + p[1] * v[1];
  gsReal c = p[0] * p[0] + p[1] * p[1] - r * r;
  gsReal det = b * b - a * c;
  if (a <= 0 || det < 0) return -1;
  gsReal sq = sqrt(det), best = -1;
  for (int s = -1; s <= 1; s += 2) {
    gsReal x = (-b + s * sq) / a;
    if (x >= 0 && fabs(p[2] + x * v[2]) <= h) best = minPos(best, x);
  }
  return best;
}

/* the disk z = z0, x^2 + y^2 <= r^2 */
static gsReal rayDisk(const gsReal p[3], const gsReal v[3], gsReal r, gsReal z0) {
  if (v[2] == 0) return -1;
  gsReal x = (z0 - p[2]) / v[2];
  if (x < 0) return -1;
  gsReal px = p[0] + x * v[0], py = p[1] + x * v[1];
  return px * px + py * py <= r * r ? x : -1;
}

static gsReal rayCapsule(const gsReal p[3], const gsReal v[3], gsReal r, gsReal h) {
  gsReal best = raySide(p, v, r, h);
  gsReal a = gs_dot3(v, v);
  for (int s = -1; s <= 1; s += 2) {
    /* the end sphere at z = s h; only its half beyond the cylinder part counts */
    gsReal q[3] = {p[0], p[1], p[2] - s * h};
    gsReal b = gs_dot3(q, v), det = b * b - a * (gs_dot3(q, q) - r * r);
    if (a <= 0 || det < 0) continue;
    gsReal sq = sqrt(det);
    for (int t = -1; t <= 1; t += 2) {
      gsReal x = (-b + t * sq) / a;
      if (x >= 0 && s * (q[2] + x * v[2]) >= 0) best = minPos(best, x);
    }
  }
  return best;
}

static gsReal rayEllipsoid(const gsReal p[3], const gsReal v[3], const gsReal* s) {
  gsReal ps[3] = {p[0] / s[0], p[1] / s[1], p[2] / s[2]};
  gsReal vs[3] = {v[0] / s[0], v[1] / s[1], v[2] / s[2]};
  return raySphere(ps, vs, 1);
}

static gsReal rayCylinder(const gsReal p[3], const gsReal v[3], gsReal r, gsReal h) {
  gsReal best = raySide(p, v, r, h);
  best = minPos(best, rayDisk(p, v, r, h));
  return minPos(best, rayDisk(p, v, r, -h));
}

static gsReal rayBox(const gsReal p[3], const gsReal v[3], const gsReal* s) {
  gsReal best = -1;
  for (int i = 0; i < 3; i++) {
    if (v[i] == 0) continue;
    int j = (i + 1) % 3, k = (i + 2) % 3;
    for (int sg = -1; sg <= 1; sg += 2) {
      gsReal x = (sg * s[i] - p[i]) / v[i];
      if (x < 0) continue;
      if (fabs(p[j] + x * v[j]) <= s[j] && fabs(p[k] + x * v[k]) <= s[k]) best = minPos(best, x);
    }
  }
  return best;
}

static gsReal rayPlane(const gsReal p[3], const gsReal v[3], const gsReal* s) {
  if (p[2] < 0 || v[2] >= 0) return -1;  /* one-sided: from above, going down */
  gsReal x = -p[2] / v[2];
  if (s[0] > 0 && fabs(p[0] + x * v[0]) > s[0]) return -1;
  if (s[1] > 0 && fabs(p[1] + x * v[1]) > s[1]) return -1;
  return x;
}

/* distance along vec to geom g, -1 when missed or when g's type is not cast against */
static gsReal rayGeom(const gsModel* m, const gsData* d, int g, const gsReal pnt[3], const gsReal vec[3]) {
  const gsReal* s = m->geom_size + 3 * g;
  const gsReal* mat = d->geom_xmat + 9 * g;
  gsReal dp[3], p[3], v[3];
  gs_sub3(dp, pnt, d->geom_xpos + 3 * g);
  gs_mulMatTVec3(p, mat, dp);
  gs_mulMatTVec3(v, mat, vec);
  switch (m->geom_type[g]) {
    case GS_GEOM_PLANE: return rayPlane(p, v, s);
    case GS_GEOM_SPHERE: return raySphere(p, v, s[0]);
    case GS_GEOM_CAPSULE: return rayCapsule(p, v, s[0], s[1]);
    case GS_GEOM_ELLIPSOID: return rayEllipsoid(p, v, s);
    case GS_GEOM_CYLINDER: return rayCylinder(p, v, s[0], s[1]);
    case GS_GEOM_BOX: return rayBox(p, v, s);
    default: return -1;
  }
}

gsReal gs_ray(const gsModel* m, const gsData* d, const gsReal pnt[3], const gsReal vec[3],
              const unsigned char* geomgroup, int flg_static, int bodyexclude, int* geomid) {
  gsReal best = -1;
  int bestid = -1;
  for (int g = 0; g < m->ngeom; g++) {
    int body = m->geom_bodyid[g], grp = m->geom_group[g];
    if (body == bodyexclude) continue;
    if (!flg_static && m->body_weldid[body] == 0) continue;
    if (geomgroup && (grp < 0 || grp >= NGROUP || !geomgroup[grp])) continue;
    if (m->geom_rgba[4 * g + 3] == 0) continue;
    gsReal x = rayGeom(m, d, g, pnt, vec);
    if (x >= 0 && (best < 0 || x < best)) best = x, bestid = g;
  }
  if (geomid) *geomid = bestid;
  return best;
}
