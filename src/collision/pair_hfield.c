/* Height fields against convex geoms.
 *
 * A height field of nrow x ncol elevations spans [-sx, sx] x [-sy, sy] in its frame; elevation
 * h in [0, 1] (hfield_data, row r at y = -sy + 2 sy r / (nrow - 1), column c at x likewise) is at
 * z = h sz, and the field is solid down to its base, z = -base. Each grid cell is split along
 * the diagonal from its corner (c, r) to (c + 1, r + 1) into two triangles, and each triangle
 * with the base below it is a triangular prism: a convex polytope of six vertices. The geom is
 * collided with every prism of the cells under its bounding box (in the field's frame), one
 * general convex query per prism (convex.c), so any geom with a support function works (meshes
 * included), and each prism that touches gives at most one contact, up to GS_MAXCONPAIR.
 *
 * Margin, as MJCF treats it for height fields (measured against MuJoCo 3.3.7): the tops of the
 * prisms are raised by the margin and only penetration of those raised prisms counts, so a geom
 * closer than the margin above the surface is in contact while one beside a border wall is not;
 * the reported distance and position are those between the raised prism and the geom grown by
 * half the margin. Without a margin this is the plain penetration of the prisms.
 *
 * Not reproduced: with a margin of exactly 0, MJCF's contacts of boxes and meshes (polytopes
 * against the prism polytopes) have depths shallower than the prisms' true penetration (ours,
 * checked by a separating-axis search) and other normals, on most contacts. With a margin of
 * 1e-9 its contacts are ours to 1e-8 (test_collision_hfield.py), so that case is a different
 * computation of MJCF's, not another prism. Measured on the contacts of test_random_poses (box:
 * 289 contacts, mesh: 128):
 * - its zero-margin path has no tolerance: ccd_tolerance 0.5, 0.05 and 1e-13 give the very same
 *   contacts (all of them, box and mesh), while ccd_iterations changes them (at 6, the count on
 *   26 of 150 poses); so it stops on a structural test only.
 * - its normal is that of a triangle of three vertices of the Minkowski difference (prism vertex
 *   minus geom vertex), its depth that triangle's distance from the origin, and the triangle is
 *   not a face of the difference's hull: an expansion stopped early.
 * - GJK from the prism's vertex centroid minus the geom's centre (other starts: far fewer), then
 *   an expansion of the nearest face from GJK's tetrahedron, passes through MJCF's triangle on
 *   238 of 289 box contacts; with ccd_iterations = L, MJCF returns the nearest face after L - 2
 *   expansions on 2569 of 2589 (contact, L) pairs whose supports repeat no geom vertex.
 * - along those expansions, stopping at the first face whose support point uses a geom vertex
 *   already in the polytope (whatever its prism vertex) is MJCF's choice at 445 of 463 steps:
 *   224 of 289 box contacts (201 of 275 and 161 of 221 with two other seeds), 100 of 128 mesh
 *   contacts. Where such a support does not stop MJCF, it spends one to three more iterations
 *   (ccd_iterations above) before the expansion goes on as ours; what it does then is not known.
 * - ruled out as the stop, on those 463 steps: the same vertex pair already present (266),
 *   any relabelling of the prism's six vertices (per triangle too; a constant label is best),
 *   stale or lagged vertex indices, prism and geom vertex both in the face, the kind of prism
 *   edge between the support and the vertex it shares, the gap (support - face distance) over
 *   the distance, the origin's projection outside a face, a lower bound above the best upper
 *   bound (return the previous face), dropping the face, reusing the old vertex, a prism
 *   support that climbs from its last vertex. Ruled out as the start: Muratori's GJK gives the
 *   same tetrahedra; a double pyramid on GJK's triangle matches fewer (177).
 * - exact support ties (faces holding a translated box or prism edge) occur on 30% of contacts
 *   and on a third of the misses: MJCF's tie-breaking is part of the answer as well.
 * It is not Minkowski portal refinement: MPR from the same interior point gives MJCF's depth and
 * normal on 278 of 289 contacts only with MJCF's older convex library (flag nativeccd="disable"),
 * and on 41 with its default pipeline, whatever the portal's stop rule. The same prism as a mesh
 * geom against the box is at the converged depth on most contacts (not on 42 of 289).
 * Cylinders: MJCF replaces the penetration normal by the direction from the contact point to
 * the axis on some contacts (see round_normal); its rule was found by bisection and holds on every
 * contact of test_random_poses with MJCF's ccd settings converged (its defaults stop its EPA
 * before the normals of these curved shapes converge).
 */
#include <math.h>

#include "collision/convex.h"
#include "collision/pair_util.h"

typedef struct {
  gsReal v[6][3];  /* world frame: the three top vertices, then the three at the base */
} Prism;

static void prism_support(gsReal r[3], const gsConvex* c, const gsReal dir[3]) {
  const Prism* p = c->data;
  int best = 0;
  gsReal bd = gs_dot3(p->v[0], dir);
  for (int i = 1; i < 6; i++) {
    gsReal x = gs_dot3(p->v[i], dir);
    if (x > bd) bd = x, best = i;
  }
  gs_copy3(r, p->v[best]);
}

/* The prism's five faces as outward unit normals n[i] and offsets c[i] (the prism is
 * n[i] . x <= c[i]): the top, the three sides, the base */
static void prism_planes(const Prism* p, gsReal n[5][3], gsReal c[5]) {
  gsReal e1[3], e2[3], up[3];
  gs_sub3(e1, p->v[1], p->v[0]);
  gs_sub3(e2, p->v[2], p->v[0]);
  gs_cross(n[0], e1, e2);
  gs_sub3(up, p->v[0], p->v[3]);  /* the field's z axis, base to top */
  if (gs_dot3(n[0], up) < 0) gs_scl3(n[0], n[0], -1);
  gs_normalize3(n[0]);
  for (int k = 0; k < 3; k++) {
    const gsReal *a = p->v[k], *b = p->v[(k + 1) % 3], *o = p->v[(k + 2) % 3];
    gsReal e[3], t[3];
    gs_sub3(e, b, a);
    gs_cross(n[k + 1], e, up);
    gs_sub3(t, o, a);
    if (gs_dot3(n[k + 1], t) > 0) gs_scl3(n[k + 1], n[k + 1], -1);
    gs_normalize3(n[k + 1]);
  }
  gs_normalize3(up);
  gs_scl3(n[4], up, -1);
  for (int i = 0; i < 4; i++) c[i] = gs_dot3(n[i], p->v[i == 0 ? 0 : i - 1]);
  c[4] = gs_dot3(n[4], p->v[3]);
}

/* The penetration of a prism (A) by a strictly convex geom (B: a sphere or an ellipsoid, whose
 * support point is unique) where it is a face's, without GJK and EPA. For a face F of the prism
 * with outward normal n_F, let b be B's support point along -n_F and e_i = c_i - n_i . b its depth
 * below each face plane i. The support function of A - B is h(n) >= max over a in A of
 * n . (a - b), whose least value over unit n is the least e_i (the origin's distance to the
 * boundary of A - b, when b is inside A); and h(n_F) = e_F. So where e_F is the least e_i, the
 * depth is e_F exactly, along n_F; where e_F <= 0, n_F separates the two (no contact). EPA on
 * the prism's vertices against a curved shape only approaches this linearly, at hundreds of
 * support calls per prism. Returns 1 with the contact, 0 with no contact (*done = 1), or leaves
 * *done = 0 where no face answers (an edge or a vertex of the prism is the contact's). */
static int prism_face_contact(const Prism* p, const gsConvex* B, gsReal* dist, gsReal pa[3],
                              gsReal pb[3], gsReal nrm[3], int* done) {
  gsReal n[5][3], c[5];
  prism_planes(p, n, c);
  *done = 0;
  for (int f = 0; f < 5; f++) {
    gsReal b[3], m[3] = {-n[f][0], -n[f][1], -n[f][2]};
    gs_convexSupport(b, B, m);
    gs_addScl3(b, b, m, B->radius);
    gsReal ef = c[f] - gs_dot3(n[f], b);
    if (!(ef > 0)) {
      *done = 1;  /* a separating plane (or touching at distance 0: no contact at margin 0) */
      return 0;
    }
    int least = 1;
    for (int i = 0; i < 5 && least; i++) least = i == f || c[i] - gs_dot3(n[i], b) >= ef;
    if (!least) continue;
    *done = 1;
    *dist = -ef;
    gs_copy3(pb, b);
    gs_addScl3(pa, b, n[f], ef);
    gs_copy3(nrm, n[f]);
    return 1;
  }
  return 0;
}

/* extent of the convex c along the unit world direction u: [lo, hi] of u.x over c */
static void extent(const gsConvex* c, const gsReal u[3], gsReal* lo, gsReal* hi) {
  gsReal mu[3] = {-u[0], -u[1], -u[2]}, p[3];
  gs_convexSupport(p, c, u);
  *hi = gs_dot3(p, u) + c->radius;
  gs_convexSupport(p, c, mu);
  *lo = gs_dot3(p, u) - c->radius;
}

/* the cells [*i0, *i1] (of n - 1) whose span on an axis of n samples over [-s, s] meets
 * [lo, hi]; 0 when none does */
static int cell_range(gsReal lo, gsReal hi, gsReal s, int n, int* i0, int* i1) {
  if (hi < -s || lo > s || !(lo <= hi)) return 0;
  gsReal step = 2 * s / (n - 1);
  gsReal a = floor((lo + s) / step), b = floor((hi + s) / step);
  *i0 = a < 0 ? 0 : a > n - 2 ? n - 2 : (int)a;
  *i1 = b < 0 ? 0 : b > n - 2 ? n - 2 : (int)b;
  return 1;
}

/* Spheres and capsules take the normal towards their core (the centre, or the nearest point of
 * the axis segment) from the contact point, as MJCF reports them on height fields; it is the
 * penetration normal while the core is outside the prism by less than the radius, and points the
 * other way beyond that. Cylinders take the direction from the contact point straight to their
 * axis when the point is deeper than a twentieth of the half-height below the nearer cap and
 * nearer the side than four times its depth below that cap (measured against MJCF by moving a
 * cylinder through a flat field until its normal switches, and checked on random poses), and
 * keep the penetration normal otherwise. Other shapes keep the penetration normal. */
static void round_normal(gsReal nrm[3], const gsModel* m, const gsData* d, int g, const gsReal pos[3]) {
  int type = m->geom_type[g];
  if (type != GS_GEOM_SPHERE && type != GS_GEOM_CAPSULE && type != GS_GEOM_CYLINDER) return;
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
      if (!(capDepth > 0.05 * h && size[0] - gs_norm3(radial) < 4 * capDepth)) return;
    }
    gs_addScl3(core, c, axis, gs_pairClamp(z, -h, h));
  }
  gs_sub3(v, core, pos);
  gsReal len = gs_norm3(v);
  if (len > 1e-12) gs_scl3(nrm, v, 1 / len);  /* (on the core: no direction, keep the normal) */
}

int gs_collideHFieldConvex(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2,
                           gsReal margin) {
  int h = m->geom_dataid[g1];
  if (h < 0) return 0;
  int nrow = m->hfield_nrow[h], ncol = m->hfield_ncol[h];
  if (nrow < 2 || ncol < 2) return 0;
  const gsReal* hs = m->hfield_size + 4 * h;
  const gsReal* data = m->hfield_data + m->hfield_adr[h];
  const gsReal* hpos = d->geom_xpos + 3 * g1;
  const gsReal* hmat = d->geom_xmat + 9 * g1;

  gsConvex geom;
  gs_convexFromGeom(&geom, m, d, g2);

  /* the geom's box in the field's frame (the field's axes are the columns of hmat) */
  gsReal lo[3], hi[3];
  for (int k = 0; k < 3; k++) {
    gsReal axis[3], o;
    gs_pairAxis(axis, hmat, k);
    extent(&geom, axis, lo + k, hi + k);
    o = gs_dot3(hpos, axis);
    lo[k] -= o, hi[k] -= o;
  }
  if (lo[2] >= hs[2] + margin || hi[2] <= -hs[3]) return 0;
  int c0, c1, r0, r1;
  if (!cell_range(lo[0], hi[0], hs[0], ncol, &c0, &c1) || !cell_range(lo[1], hi[1], hs[1], nrow, &r0, &r1))
    return 0;

  gsReal tol;
  int maxiter;
  gs_convexSettings(m, &tol, &maxiter);
  geom.radius += 0.5 * margin;

  /* a unique support point in every direction: the face test below applies */
  int smooth = m->geom_type[g2] == GS_GEOM_SPHERE || m->geom_type[g2] == GS_GEOM_ELLIPSOID;
  Prism prism;
  gsConvex pc = {0};
  pc.support = prism_support;
  pc.data = &prism;
  gsReal centre[3];
  pc.pos = centre;

  gsReal dx = 2 * hs[0] / (ncol - 1), dy = 2 * hs[1] / (nrow - 1);
  /* the two triangles of a cell, as corner offsets (column, row): the one above the diagonal
   * first */
  static const int tri[2][3][2] = {{{0, 0}, {1, 1}, {0, 1}}, {{0, 0}, {1, 0}, {1, 1}}};
  int n = 0;
  for (int r = r0; r <= r1; r++) {
    for (int c = c0; c <= c1; c++) {
      for (int t = 0; t < 2; t++) {
        gsReal top = -INFINITY, local[6][3];
        for (int k = 0; k < 3; k++) {
          int cc = c + tri[t][k][0], rr = r + tri[t][k][1];
          local[k][0] = local[k + 3][0] = -hs[0] + cc * dx;
          local[k][1] = local[k + 3][1] = -hs[1] + rr * dy;
          local[k][2] = data[rr * ncol + cc] * hs[2] + margin;
          local[k + 3][2] = -hs[3];
          if (local[k][2] > top) top = local[k][2];
        }
        if (lo[2] >= top) continue;  /* the geom is above this prism */
        gs_zero3(centre);
        for (int k = 0; k < 6; k++) {
          gsReal w[3];
          gs_mulMatVec3(w, hmat, local[k]);
          gs_add3(prism.v[k], w, hpos);
          gs_addScl3(centre, centre, prism.v[k], 1.0 / 6);
        }
        gsReal dist, pa[3], pb[3], nrm[3], pos[3];
        /* the raised prism penetrating the grown geom: on a face, at once (smooth geoms) */
        int done = 0, hit = smooth && prism_face_contact(&prism, &geom, &dist, pa, pb, nrm, &done);
        if (!done) hit = gs_convexDistance(&pc, &geom, 0, tol, maxiter, &dist, pa, pb, nrm);
        if (!hit) continue;
        gs_add3(pos, pa, pb);
        gs_scl3(pos, pos, 0.5);
        round_normal(nrm, m, d, g2, pos);
        gs_pairSet(con + n, dist, pos, nrm);
        if (++n == GS_MAXCONPAIR) return n;
      }
    }
  }
  return n;
}
