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
 * Spheres and ellipsoids first try the prism's faces, top vertices and edges with an exact
 * answer each (prism_face_contact): EPA against their curved surfaces converges only linearly
 * and was most of the cost of a height field under a few such geoms.
 *
 * Under the flag nativeccd="disable" each prism goes to MJCF's older pipeline instead
 * (convex_mpr.c), the portal starting from the prism's vertex centroid and the geom's centre, the
 * prism raised by the margin and the geom grown by half of it: MuJoCo's contacts to 1e-9 on most
 * poses and within MuJoCo's own movement under jitters on nearly all others
 * (tests/python/test_collision_legacy.py).
 *
 * Margin, as MJCF treats it for height fields (measured against MuJoCo 3.3.7): the tops of the
 * prisms are raised by the margin and only penetration of those raised prisms counts, so a geom
 * closer than the margin above the surface is in contact while one beside a border wall is not;
 * the reported distance and position are those between the raised prism and the geom grown by
 * half the margin. Without a margin this is the plain penetration of the prisms.
 *
 * Boxes and meshes with a margin of exactly 0 (polytopes against the prism polytopes): MJCF's
 * depths are shallower than the prisms' true penetration on most contacts, tolerance-free: its
 * EPA stops where the box's or mesh's vertex of a support point is one the polytope already has,
 * whatever the prism's vertex (convex.c, known_vertex; a face through the origin to rounding is
 * no answer: a box flush on a flat field). Measured on test_collision_hfield.py's random poses:
 * 265 of 272 box contacts and 113 of 113 mesh contacts are MuJoCo's to 1e-9 (31 and 9 with EPA
 * run to the end). Found earlier and kept as evidence: its normal is that of a triangle of three
 * Minkowski vertices that is not a face of the difference's hull (an expansion stopped early),
 * and ccd_iterations changes the contacts where ccd_tolerance does not. On the box misses left,
 * MJCF's path already differs before EPA (its depth is none of gauss's expansion's), with support
 * points of the box repeated in GJK: not found. With a margin (even 1e-9) the geom is grown into
 * a curved shape and both give the prisms' penetration.
 * Cylinders: MJCF replaces the penetration normal by the direction from the contact point to
 * the axis on some contacts (see gs_roundNormal); its rule was found by bisection and holds on every
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

/* h(n) = s_A(n) + s_B(-n), the support function of the Minkowski difference of the prism A and
 * the geom B (with its radius), at the unit direction n; B's support point along -n in b */
static gsReal support_gap(const gsConvex* A, const gsConvex* B, const gsReal n[3], gsReal b[3]) {
  gsReal a[3], m[3] = {-n[0], -n[1], -n[2]};
  prism_support(a, A, n);
  gs_convexSupport(b, B, m);
  gs_addScl3(b, b, m, B->radius);
  return gs_dot3(n, a) - gs_dot3(n, b);
}

/* The penetration of a prism (A) by a sphere or an ellipsoid (B) where it is an edge's: along
 * the directions n(t) = cos t n1 + sin t w between the normals n1, n2 of the edge's two faces,
 * h(n) = n . (p - c) + |S R^T n| + r (p on the edge, c, S, R, r: B's centre, semi-axes, frame and
 * radius), smooth in t; its least value on the arc is found by Newton's method. That is the depth
 * if no other direction does better, which a ball inside B certifies: B's radii of curvature are
 * at least rho = r + min(S)^2 / max(S), so the ball of radius rho touching B's boundary from
 * inside at b (B's support point along -n) lies in B (Blaschke's rolling theorem) and B is at
 * least as deep as it; with rho above the depth h, that ball's centre q = b + rho n is outside
 * the prism with its nearest point on the edge, so the ball's depth is rho - |q - e| = h. The
 * contact is returned when that lower bound meets h(n) within tol; 0 where it does not apply (a
 * face or a vertex of the prism, or a ball too small). */
static int prism_edge_contact(const gsConvex* A, const gsConvex* B, const gsReal p0[3],
                              const gsReal p1[3], const gsReal n1[3], const gsReal n2[3], gsReal tol,
                              gsReal* dist, gsReal pa[3], gsReal pb[3], gsReal nrm[3]) {
  gsReal t[3], w[3], pc[3], x[3] = {0, 0, 0}, y[3] = {0, 0, 0}, rho = B->radius;
  gs_cross(t, n1, n2);
  gsReal sphi = gs_normalize3(t), cphi = gs_dot3(n1, n2);
  if (!(sphi > 1e-9)) return 0;
  gsReal phi = atan2(sphi, cphi);
  gs_cross(w, t, n1);
  gs_sub3(pc, p0, B->pos);
  gsReal alpha = gs_dot3(n1, pc), beta = gs_dot3(w, pc);
  int ell = B->type == GS_GEOM_ELLIPSOID;
  if (ell) {
    const gsReal* s = B->size;
    gs_mulMatTVec3(x, B->mat, n1);
    gs_mulMatTVec3(y, B->mat, w);
    for (int i = 0; i < 3; i++) x[i] *= s[i], y[i] *= s[i];
    gsReal lo = s[0] < s[1] ? s[0] : s[1], hi = s[0] > s[1] ? s[0] : s[1];
    lo = lo < s[2] ? lo : s[2], hi = hi > s[2] ? hi : s[2];
    rho += lo * lo / hi;
  }
  /* Newton's method on h(t) from the direction of B's centre seen from the edge (where a sphere's
   * answer is), kept inside the arc */
  gsReal th = atan2(-beta, -alpha);
  th = th < 0.01 * phi ? 0.01 * phi : th > 0.99 * phi ? 0.99 * phi : th;
  int conv = 0;
  for (int it = 0; it < 30 && !conv; it++) {
    gsReal c = cos(th), sn = sin(th), d1 = -sn * alpha + c * beta, d2 = -c * alpha - sn * beta;
    if (ell) {
      gsReal g[3], gp[3];
      for (int i = 0; i < 3; i++) g[i] = c * x[i] + sn * y[i], gp[i] = -sn * x[i] + c * y[i];
      gsReal ng = gs_norm3(g), ggp = gs_dot3(g, gp);
      if (!(ng > 0)) return 0;
      d1 += ggp / ng;
      d2 += (gs_dot3(gp, gp) - ng * ng) / ng - ggp * ggp / (ng * ng * ng);
    }
    if (!(d2 > 0)) return 0;  /* not near a least value */
    gsReal step = d1 / d2;
    th -= step;
    if (!(th > 0 && th < phi)) return 0;  /* the least value is at a face's normal, or beyond */
    conv = fabs(step) < 1e-15 * (1 + phi);
  }
  gsReal n[3], b[3];
  gs_scl3(n, n1, cos(th));
  gs_addScl3(n, n, w, sin(th));
  gsReal h = support_gap(A, B, n, b);
  if (!(h > 0)) return -1;  /* n separates them (or they touch: no contact at margin 0) */
  if (!(h < rho)) return 0;
  /* the ball's centre and its nearest point e on the edge's line */
  gsReal q[3], e[3], v[3], len2, u;
  gs_addScl3(q, b, n, rho);
  gs_sub3(e, p1, p0);
  len2 = gs_dot3(e, e);
  gs_sub3(v, q, p0);
  u = gs_dot3(v, e) / len2;
  if (!(u > 0 && u < 1)) return 0;  /* a vertex's */
  gs_addScl3(e, p0, e, u);
  gs_sub3(v, q, e);
  /* q - e within the edge's normal cone: a n1 + b n2 with a, b >= 0 */
  gsReal kb = gs_dot3(v, w) / sphi, ka = gs_dot3(v, n1) - kb * cphi;
  if (!(ka >= 0 && kb >= 0)) return 0;
  gsReal lower = rho - gs_norm3(v);
  if (!(h - lower <= tol)) return 0;
  *dist = -h;
  gs_copy3(pb, b);
  gs_addScl3(pa, b, n, h);
  gs_copy3(nrm, n);
  return 1;
}

/* The same where the contact is a vertex v's of the prism: h(n) = n . (v - c) + |S R^T n| + r
 * over unit n (the depth of v inside B), least where its gradient on the sphere vanishes,
 * found by Newton's method on the tangent plane from the direction from v to c; certified by
 * the same ball, whose centre must then have its nearest point of the prism at v (q - v in the
 * vertex's normal cone: no edge from v leans towards it). */
static int prism_vertex_contact(const gsConvex* A, const gsConvex* B, const Prism* p, int k,
                                gsReal tol, gsReal* dist, gsReal pa[3], gsReal pb[3],
                                gsReal nrm[3]) {
  const gsReal* v = p->v[k];
  int top = k < 3, j = top ? k : k - 3, off = top ? 0 : 3;
  const gsReal* nb[3] = {p->v[off + (j + 1) % 3], p->v[off + (j + 2) % 3], p->v[top ? k + 3 : k - 3]};
  gsReal d[3], n[3], W[9] = {0}, rho = B->radius;
  gs_sub3(d, v, B->pos);
  int ell = B->type == GS_GEOM_ELLIPSOID;
  if (ell) {
    /* W = R S^2 R^T: |S R^T n|^2 = n . W n */
    const gsReal *s = B->size, *R = B->mat;
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++)
        for (int i = 0; i < 3; i++) W[3 * a + b] += R[3 * a + i] * s[i] * s[i] * R[3 * b + i];
    gsReal lo = s[0] < s[1] ? s[0] : s[1], hi = s[0] > s[1] ? s[0] : s[1];
    lo = lo < s[2] ? lo : s[2], hi = hi > s[2] ? hi : s[2];
    rho += lo * lo / hi;
  }
  gs_scl3(n, d, -1);
  if (!(gs_normalize3(n) > 0)) return 0;
  int conv = 0;
  for (int it = 0; it < 30 && !conv; it++) {
    /* H(x) = x . d + sqrt(x . W x): gradient G, Hessian K = W / m - (W n)(W n)^T / m^3 */
    gsReal G[3], Wn[3] = {0, 0, 0}, m = 0, e1[3], e2[3], ax[3] = {0, 0, 0};
    gs_copy3(G, d);
    if (ell) {
      gs_mulMatVec3(Wn, W, n);
      m = sqrt(gs_dot3(n, Wn));
      if (!(m > 0)) return 0;
      gs_addScl3(G, G, Wn, 1 / m);
    }
    int a = fabs(n[0]) < fabs(n[1]) ? (fabs(n[0]) < fabs(n[2]) ? 0 : 2) : (fabs(n[1]) < fabs(n[2]) ? 1 : 2);
    ax[a] = 1;
    gs_cross(e1, n, ax);
    gs_normalize3(e1);
    gs_cross(e2, n, e1);
    gsReal g1 = gs_dot3(e1, G), g2 = gs_dot3(e2, G), nG = gs_dot3(n, G);
    gsReal h11 = -nG, h22 = -nG, h12 = 0;
    if (ell) {
      gsReal W1[3], W2[3], a1 = gs_dot3(e1, Wn), a2 = gs_dot3(e2, Wn), m3 = m * m * m;
      gs_mulMatVec3(W1, W, e1);
      gs_mulMatVec3(W2, W, e2);
      h11 += gs_dot3(e1, W1) / m - a1 * a1 / m3;
      h22 += gs_dot3(e2, W2) / m - a2 * a2 / m3;
      h12 += gs_dot3(e1, W2) / m - a1 * a2 / m3;
    }
    gsReal det = h11 * h22 - h12 * h12;
    if (!(h11 > 0 && det > 0)) return 0;  /* not near a least value */
    gsReal s1 = -(h22 * g1 - h12 * g2) / det, s2 = -(h11 * g2 - h12 * g1) / det;
    gs_addScl3(n, n, e1, s1);
    gs_addScl3(n, n, e2, s2);
    gs_normalize3(n);
    conv = fabs(s1) + fabs(s2) < 1e-15;
  }
  for (int i = 0; i < 3; i++) {
    gsReal e[3];
    gs_sub3(e, nb[i], v);
    if (!(gs_dot3(n, e) <= 0)) return 0;  /* an edge's or a face's */
  }
  gsReal b[3], h = support_gap(A, B, n, b);
  if (!(h > 0)) return -1;  /* n separates them (or they touch: no contact at margin 0) */
  if (!(h < rho)) return 0;
  gsReal q[3];
  gs_addScl3(q, b, n, rho);
  gs_sub3(q, q, v);
  for (int i = 0; i < 3; i++) {
    gsReal e[3];
    gs_sub3(e, nb[i], v);
    if (!(gs_dot3(q, e) <= 0)) return 0;
  }
  gsReal lower = rho - gs_norm3(q);
  if (!(h - lower <= tol)) return 0;
  *dist = -h;
  gs_copy3(pb, b);
  gs_addScl3(pa, b, n, h);
  gs_copy3(nrm, n);
  return 1;
}

/* the prism's nine edges: their vertices and the two faces (of prism_planes) that meet there */
static const int prism_edges[9][4] = {
    {0, 1, 0, 1}, {1, 2, 0, 2}, {2, 0, 0, 3},  /* top */
    {0, 3, 3, 1}, {1, 4, 1, 2}, {2, 5, 2, 3},  /* vertical */
    {3, 4, 1, 4}, {4, 5, 2, 4}, {5, 3, 3, 4}}; /* base */

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
static int prism_face_contact(const Prism* p, const gsConvex* A, const gsConvex* B, gsReal tol,
                              gsReal* dist, gsReal pa[3], gsReal pb[3], gsReal nrm[3], int* done) {
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
  for (int k = 0; k < 12; k++) {
    /* the top vertices, then the edges */
    const int* E = prism_edges[k < 3 ? 0 : k - 3];
    int r = k < 3 ? prism_vertex_contact(A, B, p, k, tol, dist, pa, pb, nrm)
                  : prism_edge_contact(A, B, p->v[E[0]], p->v[E[1]], n[E[2]], n[E[3]], tol, dist, pa, pb, nrm);
    if (r) {
      *done = 1;
      return r > 0;
    }
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

  int legacy = (m->opt.disableflags & GS_DSBL_NATIVECCD) != 0;
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
        if (legacy) {
          /* MJCF's older pipeline: the portal from the prism's vertex centroid */
          gsReal depth;
          if (!gs_convexPenetrationMPR(&pc, centre, 0, &geom, geom.pos, 0.5 * margin, m, &depth, nrm,
                                       pos))
            continue;
          dist = -depth;
        } else {
          int done = 0, hit = smooth && prism_face_contact(&prism, &pc, &geom, tol, &dist, pa, pb, nrm, &done);
          if (!done) hit = gs_convexDistance(&pc, &geom, 0, tol, maxiter, &dist, pa, pb, nrm);
          if (!hit) continue;
          gs_add3(pos, pa, pb);
          gs_scl3(pos, pos, 0.5);
        }
        gs_roundNormal(nrm, m, d, g2, pos);
        gs_pairSet(con + n, dist, pos, nrm);
        if (++n == GS_MAXCONPAIR) return n;
      }
    }
  }
  return n;
}
