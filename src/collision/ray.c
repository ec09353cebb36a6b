/* Ray casting against the geoms (MJCF's mj_ray semantics): the distance is measured along vec in
 * units of |vec|, -1 when nothing is hit. A ray that starts inside a solid geom hits its far side;
 * planes are one-sided (seen from +z) and bounded by their x, y sizes when those are positive;
 * height fields are a base box under surface prisms (ray_hfield); meshes are their triangles
 * (mesh_face, not the convex hull: MJCF's rays enter the dents of a non-convex mesh), either
 * side; geoms with rgba alpha 0 are invisible to rays. */
#include <math.h>

#include "collision/collision.h"
#include "core/math.h"
#include "core/pair.h"
#include "gauss/gauss.h"

#define NGROUP 6

/* smallest x >= 0 with a x^2 + 2 b x + c = 0, -1 when none; det = b^2 - a c */
static inline gsReal quad_root_det(gsReal a, gsReal b, gsReal det) {
  if (a <= 0 || det < 0) return -1;
  gsReal sq = sqrt(det);
  gsReal x1 = (-b - sq) / a;
  if (x1 >= 0) return x1;
  gsReal x2 = (-b + sq) / a;
  return x2 >= 0 ? x2 : -1;
}

static gsReal quad_root(gsReal a, gsReal b, gsReal c) { return quad_root_det(a, b, b * b - a * c); }

static gsReal min_pos(gsReal a, gsReal b) {
  if (a < 0) return b;
  if (b < 0) return a;
  return a < b ? a : b;
}

static gsReal ray_sphere(const gsReal p[3], const gsReal v[3], gsReal r) {
  return quad_root(gs_dot3(v, v), gs_dot3(p, v), gs_dot3(p, p) - r * r);
}

/* infinite cylinder side of radius r about z, limited to |z| <= h */
static gsReal ray_side(const gsReal p[3], const gsReal v[3], gsReal r, gsReal h) {
  gsReal a = v[0] * v[0] + v[1] * v[1];
  gsReal b = p[0] * v[0] + p[1] * v[1];
  gsReal c = p[0] * p[0] + p[1] * p[1] - r * r;
  gsReal det = b * b - a * c;
  if (a <= 0 || det < 0) return -1;
  gsReal sq = sqrt(det), best = -1;
  for (int s = -1; s <= 1; s += 2) {
    gsReal x = (-b + s * sq) / a;
    if (x >= 0 && fabs(p[2] + x * v[2]) <= h) best = min_pos(best, x);
  }
  return best;
}

/* the disk z = z0, x^2 + y^2 <= r^2 */
static gsReal ray_disk(const gsReal p[3], const gsReal v[3], gsReal r, gsReal z0) {
  if (v[2] == 0) return -1;
  gsReal x = (z0 - p[2]) / v[2];
  if (x < 0) return -1;
  gsReal px = p[0] + x * v[0], py = p[1] + x * v[1];
  return px * px + py * py <= r * r ? x : -1;
}

static gsReal ray_capsule(const gsReal p[3], const gsReal v[3], gsReal r, gsReal h) {
  gsReal best = ray_side(p, v, r, h);
  gsReal a = gs_dot3(v, v);
  for (int s = -1; s <= 1; s += 2) {
    /* the end sphere at z = s h; only its half beyond the cylinder part counts */
    gsReal q[3] = {p[0], p[1], p[2] - s * h};
    gsReal b = gs_dot3(q, v), det = b * b - a * (gs_dot3(q, q) - r * r);
    if (a <= 0 || det < 0) continue;
    gsReal sq = sqrt(det);
    for (int t = -1; t <= 1; t += 2) {
      gsReal x = (-b + t * sq) / a;
      if (x >= 0 && s * (q[2] + x * v[2]) >= 0) best = min_pos(best, x);
    }
  }
  return best;
}

static gsReal ray_ellipsoid(const gsReal p[3], const gsReal v[3], const gsReal* s) {
  gsReal ps[3] = {p[0] / s[0], p[1] / s[1], p[2] / s[2]};
  gsReal vs[3] = {v[0] / s[0], v[1] / s[1], v[2] / s[2]};
  return ray_sphere(ps, vs, 1);
}

static gsReal ray_cylinder(const gsReal p[3], const gsReal v[3], gsReal r, gsReal h) {
  gsReal best = ray_side(p, v, r, h);
  best = min_pos(best, ray_disk(p, v, r, h));
  return min_pos(best, ray_disk(p, v, r, -h));
}

static gsReal ray_box(const gsReal p[3], const gsReal v[3], const gsReal* s) {
  gsReal best = -1;
  for (int i = 0; i < 3; i++) {
    if (v[i] == 0) continue;
    int j = (i + 1) % 3, k = (i + 2) % 3;
    for (int sg = -1; sg <= 1; sg += 2) {
      gsReal x = (sg * s[i] - p[i]) / v[i];
      if (x < 0) continue;
      if (fabs(p[j] + x * v[j]) <= s[j] && fabs(p[k] + x * v[k]) <= s[k]) best = min_pos(best, x);
    }
  }
  return best;
}

static gsReal ray_plane(const gsReal p[3], const gsReal v[3], const gsReal* s) {
  if (p[2] < 0 || v[2] >= 0) return -1;  /* one-sided: from above, going down */
  gsReal x = -p[2] / v[2];
  if (s[0] > 0 && fabs(p[0] + x * v[0]) > s[0]) return -1;
  if (s[1] > 0 && fabs(p[1] + x * v[1]) > s[1]) return -1;
  return x;
}

/* the triangle (a, b, c), either side (Moller-Trumbore) */
static gsReal ray_triangle(const gsReal p[3], const gsReal v[3], const gsReal a[3], const gsReal b[3],
                          const gsReal c[3]) {
  gsReal e1[3], e2[3], h[3], s[3], q[3];
  gs_sub3(e1, b, a);
  gs_sub3(e2, c, a);
  gs_cross(h, v, e2);
  gsReal det = gs_dot3(e1, h);
  if (det == 0) return -1;
  gs_sub3(s, p, a);
  gsReal u = gs_dot3(s, h) / det;
  if (u < 0 || u > 1) return -1;
  gs_cross(q, s, e1);
  gsReal w = gs_dot3(v, q) / det;
  if (w < 0 || u + w > 1) return -1;
  gsReal x = gs_dot3(e2, q) / det;
  return x >= 0 ? x : -1;
}

/* Height field h (see pair_hfield.c for its layout), cast as MJCF's mj_ray does: the base box
 * (z from -size[3] to 0) as a solid of its own (a ray starting inside it hits its top at z = 0),
 * the surface triangles from either side, and the field's border walls from z = 0 up to the
 * surface, from either side. The walls between cells are not surfaces, so a ray starting under
 * the surface and above z = 0 leaves through the triangles, the border or the base's top. */
/* bound >= 0: a hit already known at that distance (another geom's), so that rows beyond it are
 * not searched; the result is then only meaningful when nearer than bound */
/* the cell of a field with n samples holding offset x (cells of width w): floor(x / w) taken in
 * floating point and kept within [-1, n], so that a far or non-finite ray cannot overflow the
 * integer (callers clamp to the cells) */
static int cell(gsReal x, gsReal w, int n) {
  gsReal f = floor(x / w);
  if (!(f >= -1)) return -1;
  return f > n ? n : (int)f;
}

static gsReal ray_hfield(const gsModel* m, int h, const gsReal p[3], const gsReal v[3], gsReal bound) {
  const gsReal* hs = m->hfield_size + 4 * h;
  int nrow = m->hfield_nrow[h], ncol = m->hfield_ncol[h];
  const gsReal* data = m->hfield_data + m->hfield_adr[h];
  if (nrow < 2 || ncol < 2) return -1;
  /* the part of the ray inside the field's box */
  gsReal lo[3] = {-hs[0], -hs[1], -hs[3]}, hi[3] = {hs[0], hs[1], hs[2]};
  gsReal t0 = 0, t1 = INFINITY;
  /* z first, and out at the first empty interval: t0 only grows and t1 only shrinks, in any order
   * of the axes, so an empty part stays empty (a rangefinder under the field or looking away from
   * it ends after one axis) */
  for (int k = 0; k < 3; k++) {
    int i = 2 - k;
    if (v[i] == 0) {
      if (p[i] < lo[i] || p[i] > hi[i]) return -1;
      continue;
    }
    gsReal a = (lo[i] - p[i]) / v[i], b = (hi[i] - p[i]) / v[i];
    if (a > b) { gsReal t = a; a = b; b = t; }
    if (a > t0) t0 = a;
    if (b < t1) t1 = b;
    if (!(t0 <= t1)) return -1;
  }
  gsReal dx = 2 * hs[0] / (ncol - 1), dy = 2 * hs[1] / (nrow - 1), best = -1;
  /* the base box */
  if (hs[3] > 0) {
    gsReal pb[3] = {p[0], p[1], p[2] + 0.5 * hs[3]}, sb[3] = {hs[0], hs[1], 0.5 * hs[3]};
    best = ray_box(pb, v, sb);
  }
  /* the triangles of the cells under the ray's part inside the box, row by row: in each row only
   * the columns its part within the row's band crosses (one cell more each side for rounding), so
   * that a long ray costs the cells along it, not the rectangle they span */
  gsReal xa = p[0] + t0 * v[0], xb = p[0] + t1 * v[0], ya = p[1] + t0 * v[1], yb = p[1] + t1 * v[1];
  int c0 = cell(gs_fmin(xa, xb) + hs[0], dx, ncol), c1 = cell(gs_fmax(xa, xb) + hs[0], dx, ncol);
  int r0 = cell(gs_fmin(ya, yb) + hs[1], dy, nrow), r1 = cell(gs_fmax(ya, yb) + hs[1], dy, nrow);
  c0 = c0 < 0 ? 0 : c0 > ncol - 2 ? ncol - 2 : c0, c1 = c1 < 0 ? 0 : c1 > ncol - 2 ? ncol - 2 : c1;
  r0 = r0 < 0 ? 0 : r0 > nrow - 2 ? nrow - 2 : r0, r1 = r1 < 0 ? 0 : r1 > nrow - 2 ? nrow - 2 : r1;
  /* rows in the order the ray meets them: once a hit is nearer than a row's band, no later row
   * can hold a nearer one */
  int step = v[1] < 0 ? -1 : 1;
  gsReal ix = v[0] != 0 ? 1 / v[0] : 0;
  for (int r = step > 0 ? r0 : r1; r >= r0 && r <= r1; r += step) {
    int ca = c0, cb = c1;
    gsReal ra = t0, rb = t1;  /* the ray's part within the row's band */
    if (v[1] != 0) {
      gsReal ta = (-hs[1] + r * dy - p[1]) / v[1], tb = (-hs[1] + (r + 1) * dy - p[1]) / v[1];
      if (ta > tb) { gsReal t = ta; ta = tb; tb = t; }
      if ((best >= 0 && ta > best) || (bound >= 0 && ta > bound)) break;
      ta = ta < t0 ? t0 : ta;
      tb = tb > t1 ? t1 : tb;
      ra = ta, rb = tb;
      gsReal xr0 = p[0] + ta * v[0], xr1 = p[0] + tb * v[0];
      int ka = cell(gs_fmin(xr0, xr1) + hs[0], dx, ncol) - 1;
      int kb = cell(gs_fmax(xr0, xr1) + hs[0], dx, ncol) + 1;
      ca = ka > c0 ? ka : c0;
      cb = kb < c1 ? kb : c1;
    }
    int edge_row = r == 0 || r == nrow - 2;
    /* a cell's right column (its corners' heights, the ray's parameter at its x) is the next
     * cell's left one: carried along the row, each the same expression as for that cell */
    const gsReal *row0 = data + r * ncol, *row1 = row0 + ncol;
    gsReal hl0 = hs[2] * row0[ca], hl1 = hs[2] * row1[ca];
    gsReal ul = v[0] != 0 ? (-hs[0] + ca * dx - p[0]) * ix : 0;
    for (int c = ca; c <= cb; c++) {
      gsReal q[4][3];  /* corners (c, r), (c + 1, r), (c, r + 1), (c + 1, r + 1) */
      gsReal hr0 = hs[2] * row0[c + 1], hr1 = hs[2] * row1[c + 1];
      q[0][2] = hl0, q[1][2] = hr0, q[2][2] = hl1, q[3][2] = hr1;
      hl0 = hr0, hl1 = hr1;
      gsReal ztop = 0;  /* the cell's triangles and border walls lie at or below this */
      for (int k = 0; k < 4; k++) ztop = q[k][2] > ztop ? q[k][2] : ztop;
      /* a ray that stays above the cell's highest corner over the cell's columns (within the
       * row's part) meets nothing there: skip the triangle tests (rangefinders looking ahead over
       * terrain cross many such cells). The part is widened and the height lowered by a relative
       * 1e-9, far more than rounding, so that no hit the tests would report is skipped. */
      gsReal ca_t = ra, cb_t = rb;
      if (v[0] != 0) {
        gsReal u0 = ul, u1 = (-hs[0] + (c + 1) * dx - p[0]) * ix;
        ul = u1;
        if (u0 > u1) { gsReal t = u0; u0 = u1; u1 = t; }
        ca_t = u0 > ra ? u0 : ra;
        cb_t = u1 < rb ? u1 : rb;
      }
      if (ca_t > cb_t) { gsReal t = ca_t; ca_t = cb_t; cb_t = t; }
      gsReal wid = 1e-9 * (fabs(ca_t) + fabs(cb_t)) + 1e-300;
      gsReal za = p[2] + (ca_t - wid) * v[2], zb = p[2] + (cb_t + wid) * v[2];
      gsReal zlo = za < zb ? za : zb;
      if (zlo - 1e-9 * (fabs(za) + fabs(zb) + ztop + fabs(p[2])) > ztop) continue;
      for (int k = 0; k < 4; k++) {
        q[k][0] = -hs[0] + (c + (k & 1)) * dx;
        q[k][1] = -hs[1] + (r + (k >> 1)) * dy;
      }
      /* only cells in the first or last row or column have edges on the field's border */
      int edge_cell = edge_row || c == 0 || c == ncol - 2;
      static const int tri[2][3] = {{0, 3, 2}, {0, 1, 3}};
      for (int t = 0; t < 2; t++) {
        const gsReal *a = q[tri[t][0]], *b = q[tri[t][1]], *cc = q[tri[t][2]];
        best = min_pos(best, ray_triangle(p, v, a, b, cc));
        if (!edge_cell) continue;
        /* the prism's walls on the field's border, down to the base's top */
        for (int e = 0; e < 3; e++) {
          const gsReal* u = q[tri[t][e]];
          const gsReal* w = q[tri[t][(e + 1) % 3]];
          int border = (u[0] == w[0] && fabs(u[0]) == hs[0]) || (u[1] == w[1] && fabs(u[1]) == hs[1]);
          if (!border) continue;
          gsReal ub[3] = {u[0], u[1], 0}, wb[3] = {w[0], w[1], 0};
          best = min_pos(best, ray_triangle(p, v, u, w, wb));
          best = min_pos(best, ray_triangle(p, v, u, wb, ub));
        }
      }
    }
  }
  return best;
}

/* where the ray p + x v (x >= 0) enters the box (lo[3], hi[3]): x, 0 from inside, -1 when it
 * misses the box */
static gsReal tree_box_entry(const gsReal* box, const gsReal p[3], const gsReal v[3]) {
  gsReal tmin = 0, tmax = INFINITY;
  for (int i = 0; i < 3; i++) {
    if (v[i] == 0) {
      if (p[i] < box[i] || p[i] > box[3 + i]) return -1;
      continue;
    }
    gsReal t1 = (box[i] - p[i]) / v[i], t2 = (box[3 + i] - p[i]) / v[i];
    if (t1 > t2) {
      gsReal t = t1;
      t1 = t2, t2 = t;
    }
    tmin = t1 > tmin ? t1 : tmin;
    tmax = t2 < tmax ? t2 : tmax;
    if (!(tmin <= tmax)) return -1;  /* (NaN: a non-finite ray misses) */
  }
  return tmin;
}

/* mesh k's triangles, from either side; vertices are in the geom's frame */
static gsReal ray_mesh(const gsModel* m, int k, gsReal rbound, const gsReal p[3], const gsReal v[3]) {
  /* the bounding sphere first (slightly enlarged: rbound is rounded like the vertices) */
  if (ray_sphere(p, v, rbound * (1 + 1e-6) + 1e-12) < 0) return -1;
  const gsReal* vert = m->mesh_vert + 3 * m->mesh_vertadr[k];
  const int* face = m->mesh_face + 3 * m->mesh_faceadr[k];
  int ta = m->mesh_treeadr[k];
  gsReal best = -1;
  if (ta >= 0) {
    /* down the triangle tree (fields_world.h): a node is entered where the ray meets its box
     * nearer than the best hit so far; its triangles are the only ones a hit there can be on,
     * so the least hit is the same as over all triangles */
    const int* order = m->mesh_treeface + m->mesh_faceadr[k];
    int stack[64], n = 0;
    stack[n++] = 0;
    while (n > 0) {
      int node = stack[--n];
      gsReal t = tree_box_entry(m->mesh_treebox + 6 * (ta + node), p, v);
      if (t < 0 || (best >= 0 && t > best)) continue;
      const int* ch = m->mesh_treechild + 2 * (ta + node);
      if (ch[0] < 0) {
        for (int i = -1 - ch[0]; i < -1 - ch[0] + ch[1]; i++) {
          const int* f = face + 3 * order[i];
          best = min_pos(best, ray_triangle(p, v, vert + 3 * f[0], vert + 3 * f[1], vert + 3 * f[2]));
        }
      } else if (n + 2 <= 64) {
        stack[n++] = ch[1], stack[n++] = ch[0];
      } else {
        ta = -1;  /* deeper than a built tree goes: every triangle, below */
        break;
      }
    }
    if (ta >= 0) return best;
    best = -1;
  }
  for (int f = 0; f < m->mesh_facenum[k]; f++, face += 3)
    best = min_pos(best, ray_triangle(p, v, vert + 3 * face[0], vert + 3 * face[1], vert + 3 * face[2]));
  return best;
}

/* a primitive of the given type and size, in its own frame (p, v local); -1 when missed or when
 * the type is not a primitive */
static gsReal ray_primitive(int type, const gsReal* s, const gsReal p[3], const gsReal v[3]) {
  switch (type) {
    case GS_GEOM_PLANE: return ray_plane(p, v, s);
    case GS_GEOM_SPHERE: return ray_sphere(p, v, s[0]);
    case GS_GEOM_CAPSULE: return ray_capsule(p, v, s[0], s[1]);
    case GS_GEOM_ELLIPSOID: return ray_ellipsoid(p, v, s);
    case GS_GEOM_CYLINDER: return ray_cylinder(p, v, s[0], s[1]);
    case GS_GEOM_BOX: return ray_box(p, v, s);
    default: return -1;
  }
}

/* ray_plane's one-sided test on the two local z components alone (gs_mulMatTVec3's third row),
 * with dp the ray's start less the plane's origin: a ray from below or not going down misses
 * without the rest of the change of frame */
static inline int plane_missed(const gsReal* mat, const gsReal dp[3], const gsReal vec[3]) {
  return mat[2] * vec[0] + mat[5] * vec[1] + mat[8] * vec[2] >= 0 ||
         mat[2] * dp[0] + mat[5] * dp[1] + mat[8] * dp[2] < 0;
}

/* distance along vec to geom g, -1 when missed or when g's type is not cast against */
static gsReal ray_geom(const gsModel* m, const gsData* d, int g, const gsReal pnt[3], const gsReal vec[3],
                       gsReal bound) {
  const gsReal* s = m->geom_size + 3 * g;
  const gsReal* mat = d->geom_xmat + 9 * g;
  gsReal dp[3], p[3], v[3];
  gs_sub3(dp, pnt, d->geom_xpos + 3 * g);
  if (m->geom_type[g] == GS_GEOM_PLANE && plane_missed(mat, dp, vec)) return -1;
  gs_mulMatTVec3(p, mat, dp);
  gs_mulMatTVec3(v, mat, vec);
  switch (m->geom_type[g]) {
    case GS_GEOM_HFIELD:
      return m->geom_dataid[g] >= 0 ? ray_hfield(m, m->geom_dataid[g], p, v, bound) : -1;
    case GS_GEOM_MESH: return m->geom_dataid[g] >= 0 ? ray_mesh(m, m->geom_dataid[g], m->geom_rbound[g], p, v) : -1;
    default: return ray_primitive(m->geom_type[g], s, p, v);
  }
}

/* one primitive anywhere (gauss.h): the touch sensor casts onto its site's volume */
gsReal gs_rayGeom(const gsReal pos[3], const gsReal mat[9], const gsReal size[3], const gsReal pnt[3],
                  const gsReal vec[3], int type) {
  gsReal dp[3], p[3], v[3];
  gs_sub3(dp, pnt, pos);
  gs_mulMatTVec3(p, mat, dp);
  gs_mulMatTVec3(v, mat, vec);
  return ray_primitive(type, size, p, v);
}

/* The geoms a ray may hit are listed first (those its filters pass: body, static, group,
 * alpha), with their bounding spheres' squared radii (the sphere slightly enlarged: rbound is
 * rounded; -1 for geoms without one: planes, height fields, rbound 0). A run of rays with the same
 * filters (a body's rangefinders) shares one list (gs_rayGeoms, gs_rayAmong); gs_ray lists
 * RAY_CHUNK geoms at a time. A first pass over the list takes each geom's bounding-sphere
 * discriminant, two geoms at a time; the second goes through the geoms in order, and a bounded
 * geom whose sphere the ray's line misses ends at one comparison. A rangefinder that looks at
 * nothing (twenty a step on the quadruped) is mostly these two passes. Each value is the
 * arithmetic of ray_sphere's sums on the same inputs (a pair's lanes round as scalars do) and the
 * tests are the same, only in another order: the same distances and geoms bit for bit. */
#define RAY_CHUNK 64

/* whether geom g passes gs_ray's filters */
static inline int ray_candidate(const gsModel* m, int g, const unsigned char* geomgroup,
                                int flg_static, int bodyexclude) {
  int body = m->geom_bodyid[g], grp = m->geom_group[g];
  if (body == bodyexclude) return 0;
  if (!flg_static && m->body_weldid[body] == 0) return 0;
  if (geomgroup && (grp < 0 || grp >= NGROUP || !geomgroup[grp])) return 0;
  return m->geom_rgba[4 * g + 3] != 0;
}

/* the squared radius of geom g's enlarged bounding sphere, -1 when it has none */
static inline gsReal ray_bound2(const gsModel* m, int g) {
  int type = m->geom_type[g];
  gsReal rb = m->geom_rbound[g];
  if (type == GS_GEOM_PLANE || type == GS_GEOM_HFIELD || !(rb > 0)) return -1;
  gsReal R = rb * (1 + 1e-6) + 1e-12;
  return R * R;
}

/* the geoms g0 .. g1 - 1 that pass the filters, with their R2; returns how many */
static int list_geoms(const gsModel* m, int g0, int g1, const unsigned char* geomgroup,
                      int flg_static, int bodyexclude, int* geom, gsReal* R2) {
  int k = 0;
  for (int g = g0; g < g1; g++)
    if (ray_candidate(m, g, geomgroup, flg_static, bodyexclude)) geom[k] = g, R2[k++] = ray_bound2(m, g);
  return k;
}

void gs_rayGeoms(const gsModel* m, const unsigned char* geomgroup, int flg_static, int bodyexclude,
                 int* geom, gsReal* R2, int* n) {
  *n = list_geoms(m, 0, m->ngeom, geomgroup, flg_static, bodyexclude, geom, R2);
}

/* The bundle's rays start within rho of their mean start P and point within theta of their mean
 * direction A: they lie in the cone of half-angle theta from P along A, thickened by rho. A
 * bounding sphere (centre X, the list's enlarged radius R) farther from that cone than R + rho
 * is missed by every ray; it is left out only when the gap exceeds the rounding of these sums by
 * far (a millionth of the distances), so each ray's own tests would have passed it by or tested
 * it exactly and missed: the same nearest hit. The distance from X to the cone, w = X - P, t = w.A,
 * h = |w - t A|: h cos theta - t sin theta beside the cone, |w| beyond its apex (where
 * t cos theta + h sin theta < 0), <= 0 inside. A bundle wider than a half-space culls no sphere.
 * A plane is left out when each ray misses it by ray_geom's first tests (plane_missed: the same
 * sums, so the same answers); height fields stay. (The quadruped's twenty rangefinders: a cone
 * of 55 degrees, which leaves out its legs' geoms at most poses, and its walls and floor where
 * they look up or away.) */
int gs_rayCull(const gsModel* m, const gsData* d, const gsReal* pnt, const gsReal* vec, int nray,
               int* geom, gsReal* R2, int n) {
  if (nray < 2) return n;
  gsReal P[3] = {0, 0, 0}, A[3] = {0, 0, 0};
  for (int k = 0; k < nray; k++)
    for (int i = 0; i < 3; i++) P[i] += pnt[3 * k + i], A[i] += vec[3 * k + i];
  gsReal an = gs_norm3(A);
  if (!(an > 0)) return n;
  for (int i = 0; i < 3; i++) P[i] /= nray, A[i] /= an;
  gsReal rho = 0, ct = 1;
  for (int k = 0; k < nray; k++) {
    gsReal dp[3];
    gs_sub3(dp, pnt + 3 * k, P);
    gsReal r = gs_norm3(dp), c = gs_dot3(vec + 3 * k, A);
    if (r > rho) rho = r;
    if (c < ct) ct = c;
  }
  int cone = ct > 0.01 && rho < INFINITY;
  gsReal st = cone ? sqrt(1 - ct * ct) : 0;
  int kept = 0;
  for (int q = 0; q < n; q++) {
    int keep = 1, g = geom[q];
    if (m->geom_type[g] == GS_GEOM_PLANE) {
      const gsReal* mat = d->geom_xmat + 9 * g;
      keep = 0;
      for (int k = 0; k < nray && !keep; k++) {
        gsReal dp[3];
        gs_sub3(dp, pnt + 3 * k, d->geom_xpos + 3 * g);
        keep = !plane_missed(mat, dp, vec + 3 * k);
      }
    } else if (cone && R2[q] >= 0) {
      gsReal w[3], u[3], R = sqrt(R2[q]);
      gs_sub3(w, d->geom_xpos + 3 * g, P);
      gsReal t = gs_dot3(w, A);
      for (int i = 0; i < 3; i++) u[i] = w[i] - t * A[i];
      gsReal h = gs_norm3(u), wn = gs_norm3(w);
      gsReal dist = t * ct + h * st < 0 ? wn : h * ct - t * st;
      keep = !(dist > R + rho + 1e-6 * (wn + R + rho));
    }
    if (keep) geom[kept] = g, R2[kept] = R2[q], kept++;
  }
  return kept;
}

void gs_rayCentres(const gsData* d, const int* geom, int n, gsReal* xyz) {
  for (int k = 0; k < n; k++) {
    const gsReal* x = d->geom_xpos + 3 * geom[k];
    xyz[k] = x[0], xyz[n + k] = x[1], xyz[2 * n + k] = x[2];
  }
}

/* the nearest hit among the n listed geoms (at most RAY_CHUNK; X, Y, Z their centres) nearer than
 * *best (-1: none yet) */
static void cast_chunk(const gsModel* m, const gsData* d, const gsReal pnt[3], const gsReal vec[3],
                       gsReal vv, const int* geom, const gsReal* R2, const gsReal* X,
                       const gsReal* Y, const gsReal* Z, int n, gsReal* best, int* bestid) {
  gsReal bs[RAY_CHUNK], cs[RAY_CHUNK], dets[RAY_CHUNK];
  int k = 0;
#ifdef GS_PAIR
  const gs_pair p0 = {pnt[0], pnt[0]}, p1 = {pnt[1], pnt[1]}, p2 = {pnt[2], pnt[2]};
  const gs_pair v0 = {vec[0], vec[0]}, v1 = {vec[1], vec[1]}, v2 = {vec[2], vec[2]};
  const gs_pair vv2 = {vv, vv};
  for (; k + 2 <= n; k += 2) {
    gs_pair dx = p0 - gs_pairLoad(X + k), dy = p1 - gs_pairLoad(Y + k), dz = p2 - gs_pairLoad(Z + k);
    gs_pair cc = (dx * dx + dy * dy + dz * dz) - gs_pairLoad(R2 + k);
    gs_pair bb = dx * v0 + dy * v1 + dz * v2;
    gs_pair det = bb * bb - vv2 * cc;
    memcpy(bs + k, &bb, sizeof bb);
    memcpy(cs + k, &cc, sizeof cc);
    memcpy(dets + k, &det, sizeof det);
  }
#endif
  for (; k < n; k++) {
    gsReal dx = pnt[0] - X[k], dy = pnt[1] - Y[k], dz = pnt[2] - Z[k];
    gsReal cc = (dx * dx + dy * dy + dz * dz) - R2[k];
    gsReal bb = dx * vec[0] + dy * vec[1] + dz * vec[2];
    bs[k] = bb, cs[k] = cc, dets[k] = bb * bb - vv * cc;
  }
  int sized = !(vv <= 0);
  for (k = 0; k < n; k++) {
    if (R2[k] >= 0) {
      /* a geom whose bounding sphere the ray misses (quad_root's first test), or meets only
       * beyond the nearest hit so far (from outside the sphere, c > 0, where the ray comes in),
       * is not hit */
      if (!sized || dets[k] < 0) continue;
      gsReal enter = quad_root_det(vv, bs[k], dets[k]);
      if (enter < 0) continue;
      if (*best >= 0 && enter > *best && cs[k] > 0) continue;
    }
    gsReal x = ray_geom(m, d, geom[k], pnt, vec, *best);
    if (x >= 0 && (*best < 0 || x < *best)) *best = x, *bestid = geom[k];
  }
}

gsReal gs_rayAmong(const gsModel* m, const gsData* d, const gsReal pnt[3], const gsReal vec[3],
                   const int* geom, const gsReal* R2, const gsReal* xyz, int n, int* geomid) {
  gsReal vv = gs_dot3(vec, vec), best = -1;
  int bestid = -1;
  for (int k = 0; k < n; k += RAY_CHUNK)
    cast_chunk(m, d, pnt, vec, vv, geom + k, R2 + k, xyz + k, xyz + n + k, xyz + 2 * n + k,
               n - k < RAY_CHUNK ? n - k : RAY_CHUNK, &best, &bestid);
  if (geomid) *geomid = bestid;
  return best;
}

gsReal gs_ray(const gsModel* m, const gsData* d, const gsReal pnt[3], const gsReal vec[3],
              const unsigned char* geomgroup, int flg_static, int bodyexclude, int* geomid) {
  gsReal vv = gs_dot3(vec, vec), best = -1, R2[RAY_CHUNK], xyz[3 * RAY_CHUNK];
  int bestid = -1, geom[RAY_CHUNK];
  for (int g0 = 0; g0 < m->ngeom; g0 += RAY_CHUNK) {
    int end = m->ngeom - g0 < RAY_CHUNK ? m->ngeom : g0 + RAY_CHUNK;
    int n = list_geoms(m, g0, end, geomgroup, flg_static, bodyexclude, geom, R2);
    gs_rayCentres(d, geom, n, xyz);
    cast_chunk(m, d, pnt, vec, vv, geom, R2, xyz, xyz + n, xyz + 2 * n, n, &best, &bestid);
  }
  if (geomid) *geomid = bestid;
  return best;
}
