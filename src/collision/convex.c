/* General convex-convex collision: GJK for the distance between separated shapes, EPA for the
 * penetration depth of overlapping ones, both on the Minkowski difference A - B built from the
 * support functions of the primitives. Between primitives (not meshes or custom shapes) both only
 * locate the answer: finish_depth ends it exactly by the kind of contact found there (a point on a
 * face, an edge on a smooth part, two crossing edges, smooth parts), which GJK and EPA reach only
 * linearly. All work is on the C stack (no heap, no arena). */
#include <math.h>
#include <string.h>

#include "collision/convex.h"
#include "collision/mesh.h"
#include "collision/pair_util.h"

#define EPA_MAXV 256              /* polytope vertices */
#define EPA_MAXF (2 * EPA_MAXV)   /* polytope faces (a closed triangulation has 2V - 4) */

/* ---------------- support functions ---------------- */

/* support point in local coordinates, u: local direction */
static void support_local(gsReal r[3], int type, const gsReal* s, const gsReal u[3]) {
  switch (type) {
    case GS_GEOM_SPHERE:  /* the core: the centre */
      gs_zero3(r);
      return;
    case GS_GEOM_CAPSULE:  /* the core: the axis segment */
      r[0] = r[1] = 0;
      r[2] = u[2] >= 0 ? s[1] : -s[1];
      return;
    case GS_GEOM_ELLIPSOID: {
      /* maximiser of u.x on sum (x_i/s_i)^2 = 1: x_i = s_i^2 u_i / |s o u| */
      gsReal su[3] = {s[0] * u[0], s[1] * u[1], s[2] * u[2]};
      gsReal n = gs_norm3(su);
      if (n > 0) {
        gsReal inv = 1 / n;  /* one division: support calls are the narrow phase's inner loop */
        for (int i = 0; i < 3; i++) r[i] = s[i] * su[i] * inv;
      } else {
        r[0] = s[0], r[1] = r[2] = 0;
      }
      return;
    }
    case GS_GEOM_CYLINDER: {
      gsReal n = sqrt(u[0] * u[0] + u[1] * u[1]);
      if (n > 0) {
        gsReal sn = s[0] / n;
        r[0] = sn * u[0], r[1] = sn * u[1];
      } else {
        r[0] = r[1] = 0;
      }
      r[2] = u[2] >= 0 ? s[1] : -s[1];
      return;
    }
    case GS_GEOM_BOX:
      for (int i = 0; i < 3; i++) r[i] = u[i] >= 0 ? s[i] : -s[i];
      return;
    default:  /* not a convex primitive: a point */
      gs_zero3(r);
      return;
  }
}

#ifdef GAUSS_COUNT_SUPPORT
long gs_convexSupportCount;
#endif

void gs_convexSupport(gsReal r[3], const gsConvex* c, const gsReal dir[3]) {
#ifdef GAUSS_COUNT_SUPPORT
  gs_convexSupportCount++;
#endif
  if (c->support) {
    c->support(r, c, dir);
    return;
  }
  gsReal u[3], p[3];
  gs_mulMatTVec3(u, c->mat, dir);
  if (c->type == GS_GEOM_MESH)
    gs_copy3(p, c->vert + 3 * (!c->graph ? gs_meshSupportScan(c->vert, c->nvert, u)
                               : c->hint ? gs_meshSupportWalk(c->vert, c->graph, u, c->hint)
                                         : gs_meshSupportVertex(c->vert, c->graph, u)));
  else support_local(p, c->type, c->size, u);
  gs_mulMatVec3(r, c->mat, p);
  gs_add3(r, r, c->pos);
  if (c->inflate > 0) {
    gsReal n = gs_norm3(dir);
    if (n > 0) gs_addScl3(r, r, dir, c->inflate / n);
  }
}

void gs_convexSettings(const gsModel* m, gsReal* tol, int* maxiter) {
  /* MuJoCo's defaults (ccd_tolerance 1e-6, 35 iterations) stop its GJK/EPA before smooth shapes
   * converge (errors of 1e-4 in the distance and 1e-2 in the normal on ellipsoids). Here the
   * iterations run to a fixed tight tolerance, with the model's values as a floor: 1e-13 on the
   * distance puts the normal within ~sqrt(2e-13 / r) of the exact one (6e-7 for radii of
   * curvature r ~ 0.5); below that the face normals of EPA's small triangles are rounding-bound
   * and the search stalls rather than converges. Between primitives the finishing step (see
   * finish_depth) usually ends the search long before, at rounding level. */
  gsReal t = m->opt.ccd_tolerance;
  *tol = t > 0 && t < 1e-13 ? t : 1e-13;
  /* capped: a model may ask for any number, and a collision call must stay bounded */
  int it = m->opt.ccd_iterations;
  *maxiter = it < 200 ? 200 : it > 1000 ? 1000 : it;
}

/* The derivative J of c's support point with respect to the direction dir (a unit vector) on
 * the smooth parts of a primitive, as the quadratic forms of the tangents t1, t2 added to q:
 * t1.J.t1, t2.J.t2, t1.J.t2 (J is symmetric). J is 0 where the support point stays put (a box, a
 * sphere's or capsule's core, a cylinder's rim along its axis) and the curvature of an ellipsoid
 * or a cylinder's side. Returns 0 where it has none: a cylinder's cap along its axis (a face),
 * meshes and custom shapes. */
static int add_support_derivative(gsReal q[3], const gsConvex* c, const gsReal dir[3],
                                const gsReal t1[3], const gsReal t2[3]) {
  if (c->support || c->type == GS_GEOM_MESH) return 0;
  if (c->type != GS_GEOM_ELLIPSOID && c->type != GS_GEOM_CYLINDER) return 1;
  gsReal u[3], a[3], b[3];
  const gsReal* s = c->size;
  gs_mulMatTVec3(u, c->mat, dir);
  gs_mulMatTVec3(a, c->mat, t1);
  gs_mulMatTVec3(b, c->mat, t2);
  if (c->type == GS_GEOM_ELLIPSOID) {
    /* x_i = s_i^2 u_i / |s o u|: dx_i/du_j = (s_i^2 delta_ij - x_i x_j) / |s o u| */
    gsReal su[3] = {s[0] * u[0], s[1] * u[1], s[2] * u[2]}, N = gs_norm3(su);
    if (!(N > 0)) return 0;
    gsReal x[3] = {s[0] * su[0], s[1] * su[1], s[2] * su[2]};  /* N times the support point */
    gsReal xa = gs_dot3(x, a) / N, xb = gs_dot3(x, b) / N, saa = 0, sbb = 0, sab = 0;
    for (int i = 0; i < 3; i++) {
      gsReal ss = s[i] * s[i];
      saa += ss * a[i] * a[i], sbb += ss * b[i] * b[i], sab += ss * a[i] * b[i];
    }
    q[0] += (saa - xa * xa) / N, q[1] += (sbb - xb * xb) / N, q[2] += (sab - xa * xb) / N;
  } else {
    /* x_xy = r u_xy / |u_xy|: r (I - e e^T) / |u_xy| in the plane, e = u_xy / |u_xy| */
    gsReal m = sqrt(u[0] * u[0] + u[1] * u[1]);
    if (!(m > 1e-6)) return 0;
    gsReal ea = (u[0] * a[0] + u[1] * a[1]) / m, eb = (u[0] * b[0] + u[1] * b[1]) / m, r = s[0] / m;
    q[0] += r * (a[0] * a[0] + a[1] * a[1] - ea * ea);
    q[1] += r * (b[0] * b[0] + b[1] * b[1] - eb * eb);
    q[2] += r * (a[0] * b[0] + a[1] * b[1] - ea * eb);
  }
  return 1;
}

/* ---------------- Minkowski difference ---------------- */

typedef struct {
  gsReal w[3];   /* a - b */
  gsReal a[3];   /* support point of A */
  gsReal b[3];   /* support point of B */
} Vert;

/* support of A - B in direction dir */
static void support_ab(Vert* v, const gsConvex* A, const gsConvex* B, const gsReal dir[3]) {
  gsReal nd[3] = {-dir[0], -dir[1], -dir[2]};
  gs_convexSupport(v->a, A, dir);
  gs_convexSupport(v->b, B, nd);
  gs_sub3(v->w, v->a, v->b);
}

/* ---------------- GJK: closest point of a simplex to the origin ---------------- */

/* closest point of triangle (a, b, c) to the origin: barycentric weights in lam */
static void closest_triangle(const gsReal a[3], const gsReal b[3], const gsReal c[3], gsReal lam[3]) {
  gsReal ab[3], ac[3];
  gs_sub3(ab, b, a);
  gs_sub3(ac, c, a);
  gsReal d1 = -gs_dot3(ab, a), d2 = -gs_dot3(ac, a);
  lam[0] = lam[1] = lam[2] = 0;
  if (d1 <= 0 && d2 <= 0) { lam[0] = 1; return; }
  gsReal d3 = -gs_dot3(ab, b), d4 = -gs_dot3(ac, b);
  if (d3 >= 0 && d4 <= d3) { lam[1] = 1; return; }
  gsReal vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    gsReal t = d1 / (d1 - d3);
    lam[0] = 1 - t, lam[1] = t;
    return;
  }
  gsReal d5 = -gs_dot3(ab, c), d6 = -gs_dot3(ac, c);
  if (d6 >= 0 && d5 <= d6) { lam[2] = 1; return; }
  gsReal vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    gsReal t = d2 / (d2 - d6);
    lam[0] = 1 - t, lam[2] = t;
    return;
  }
  gsReal va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    gsReal t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    lam[1] = 1 - t, lam[2] = t;
    return;
  }
  gsReal den = va + vb + vc;
  if (!(den > 0)) {  /* degenerate triangle: best of its edges */
    lam[0] = 1;
    return;
  }
  lam[1] = vb / den, lam[2] = vc / den, lam[0] = 1 - lam[1] - lam[2];
}

static gsReal tet_volume(const gsReal a[3], const gsReal b[3], const gsReal c[3], const gsReal d[3]) {
  gsReal ab[3], ac[3], ad[3], x[3];
  gs_sub3(ab, b, a), gs_sub3(ac, c, a), gs_sub3(ad, d, a);
  gs_cross(x, ab, ac);
  return gs_dot3(x, ad);
}

/* The point of the simplex s[0..k) closest to the origin: its weights on the vertices in lam (0
 * for the vertices not needed) and the point in v; returns 1 when the origin is inside the
 * tetrahedron. */
static int closest_simplex(const Vert* s, int k, gsReal lam[4], gsReal v[3]) {
  lam[0] = 1, lam[1] = lam[2] = lam[3] = 0;
  if (k == 2) {
    gsReal e[3];
    gs_sub3(e, s[1].w, s[0].w);
    gsReal ee = gs_dot3(e, e);
    gsReal t = ee > 0 ? -gs_dot3(s[0].w, e) / ee : 0;
    if (t <= 0) lam[0] = 1, lam[1] = 0;
    else if (t >= 1) lam[0] = 0, lam[1] = 1;
    else lam[0] = 1 - t, lam[1] = t;
  } else if (k == 3) {
    closest_triangle(s[0].w, s[1].w, s[2].w, lam);
  } else if (k == 4) {
    /* the origin is inside when it is on the inner side of every face */
    static const int face[4][4] = {{1, 2, 3, 0}, {0, 3, 2, 1}, {0, 1, 3, 2}, {0, 2, 1, 3}};
    gsReal zero[3] = {0, 0, 0};
    gsReal best = INFINITY;
    int inside = 1;
    for (int f = 0; f < 4; f++) {
      const gsReal *a = s[face[f][0]].w, *b = s[face[f][1]].w, *c = s[face[f][2]].w;
      const gsReal* o = s[face[f][3]].w;
      gsReal vo = tet_volume(a, b, c, o), v0 = tet_volume(a, b, c, zero);
      if (vo * v0 >= 0 && vo != 0) continue;  /* origin on the same side as the opposite vertex */
      inside = 0;
      gsReal l3[3], p[3] = {0, 0, 0};
      closest_triangle(a, b, c, l3);
      for (int i = 0; i < 3; i++) gs_addScl3(p, p, s[face[f][i]].w, l3[i]);
      gsReal dd = gs_dot3(p, p);
      if (dd < best) {
        best = dd;
        lam[0] = lam[1] = lam[2] = lam[3] = 0;
        for (int i = 0; i < 3; i++) lam[face[f][i]] = l3[i];
      }
    }
    if (inside) {
      gs_zero3(v);
      return 1;
    }
  }
  gs_zero3(v);
  for (int i = 0; i < k; i++)
    if (lam[i] > 0) gs_addScl3(v, v, s[i].w, lam[i]);
  return 0;
}

/* keeps the vertices of s[0..*n) with positive weights */
static void reduce_simplex(Vert* s, int* n, const gsReal lam[4]) {
  int m = 0;
  for (int i = 0; i < *n; i++) {
    if (lam[i] > 0) {
      if (m != i) s[m] = s[i];
      m++;
    }
  }
  *n = m;
}

/* witness points of the simplex for the point closest to the origin */
static void witness(const Vert* s, int n, gsReal pa[3], gsReal pb[3]) {
  /* barycentric weights again, from the reduced simplex */
  gsReal lam[3] = {1, 0, 0};
  if (n == 2) {
    gsReal e[3];
    gs_sub3(e, s[1].w, s[0].w);
    gsReal ee = gs_dot3(e, e);
    gsReal t = ee > 0 ? -gs_dot3(s[0].w, e) / ee : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    lam[0] = 1 - t, lam[1] = t;
  } else if (n == 3) {
    closest_triangle(s[0].w, s[1].w, s[2].w, lam);
  }
  gs_zero3(pa), gs_zero3(pb);
  for (int i = 0; i < n && i < 3; i++) {
    gs_addScl3(pa, pa, s[i].a, lam[i]);
    gs_addScl3(pb, pb, s[i].b, lam[i]);
  }
}

/* ---------------- EPA ---------------- */

/* A face of the polytope. Its neighbours are kept so that the faces a new vertex sees are found by
 * walking from the face being expanded (they form a connected cap), not by testing every face. */
typedef struct {
  int v[3];       /* counter-clockwise seen from outside */
  int adj[3];     /* the face across edge (v[k], v[k+1]) */
  gsReal n[3];    /* outward unit normal */
  gsReal dist;    /* n . w of its vertices: distance of its plane from the origin */
} Face;

static int make_face(Face* f, const Vert* V, int a, int b, int c) {
  gsReal e1[3], e2[3];
  f->v[0] = a, f->v[1] = b, f->v[2] = c;
  gs_sub3(e1, V[b].w, V[a].w);
  gs_sub3(e2, V[c].w, V[a].w);
  gs_cross(f->n, e1, e2);
  gsReal nn = gs_norm3(f->n);
  /* flat, or overflowed (huge shapes): a NaN distance would also break the nearest-face search */
  if (!(nn > 0 && nn < INFINITY)) return 0;
  gs_scl3(f->n, f->n, 1 / nn);
  f->dist = gs_dot3(f->n, V[a].w);
  return 1;
}

/* Makes s[0..n) a tetrahedron whose closure contains the origin, when GJK stopped with the origin
 * on a vertex, edge or face of a smaller simplex. Returns the number of vertices (4 on success). */
static int complete_simplex(const gsConvex* A, const gsConvex* B, Vert* s, int n) {
  static const gsReal axes[6][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {-1, 0, 0}, {0, -1, 0}, {0, 0, -1}};
  if (n == 0) {
    support_ab(&s[0], A, B, axes[0]);
    n = 1;
  }
  if (n == 1) {
    for (int i = 0; i < 6 && n == 1; i++) {
      support_ab(&s[1], A, B, axes[i]);
      gsReal e[3];
      gs_sub3(e, s[1].w, s[0].w);
      if (gs_dot3(e, e) > 1e-24) n = 2;
    }
    if (n == 1) return 1;
  }
  if (n == 2) {
    gsReal e[3], ax[3];
    gs_sub3(e, s[1].w, s[0].w);
    /* directions perpendicular to the edge */
    int k = fabs(e[0]) < fabs(e[1]) ? (fabs(e[0]) < fabs(e[2]) ? 0 : 2) : (fabs(e[1]) < fabs(e[2]) ? 1 : 2);
    gs_cross(ax, e, axes[k]);
    gs_normalize3(ax);
    for (int i = 0; i < 6 && n == 2; i++) {
      gsReal dir[3], q[4];
      gsReal en[3];
      gs_copy3(en, e);
      gs_normalize3(en);
      gs_axisAngle2Quat(q, en, i * (3.14159265358979323846 / 3));
      gs_rotVecQuat(dir, ax, q);
      support_ab(&s[2], A, B, dir);
      gsReal f[3], x[3];
      gs_sub3(f, s[2].w, s[0].w);
      gs_cross(x, e, f);
      if (gs_dot3(x, x) > 1e-24 * gs_dot3(e, e)) n = 3;
    }
    if (n == 2) return 2;
  }
  if (n == 3) {
    gsReal e1[3], e2[3], nrm[3];
    gs_sub3(e1, s[1].w, s[0].w);
    gs_sub3(e2, s[2].w, s[0].w);
    gs_cross(nrm, e1, e2);
    gs_normalize3(nrm);
    for (int sgn = 0; sgn < 2 && n == 3; sgn++) {
      gsReal dir[3];
      gs_scl3(dir, nrm, sgn ? -1 : 1);
      support_ab(&s[3], A, B, dir);
      gsReal h = gs_dot3(nrm, s[3].w) - gs_dot3(nrm, s[0].w);
      if (fabs(h) > 1e-12) n = 4;
    }
  }
  return n;
}

/* barycentric weights of the origin projected on face f, unnormalised (lam[k] for vertex k,
 * negative on the far side of the opposite edge); returns their sum */
static gsReal face_weights(const Face* f, const Vert* V, gsReal lam[3]) {
  gsReal p[3], tot = 0;
  gs_scl3(p, f->n, f->dist);
  for (int k = 0; k < 3; k++) {
    gsReal e1[3], e2[3], x[3];
    gs_sub3(e1, V[f->v[(k + 1) % 3]].w, p);
    gs_sub3(e2, V[f->v[(k + 2) % 3]].w, p);
    gs_cross(x, e1, e2);
    lam[k] = gs_dot3(x, f->n);
    tot += lam[k];
  }
  return tot;
}

/* the origin projected on face f with weights lam (sum tot > 0), as depth, normal and witness
 * points */
static void face_result(const Face* f, const Vert* V, const gsReal lam[3], gsReal tot, gsReal* depth,
                       gsReal pa[3], gsReal pb[3], gsReal normal[3]) {
  gs_zero3(pa), gs_zero3(pb);
  for (int k = 0; k < 3; k++) {
    gs_addScl3(pa, pa, V[f->v[k]].a, lam[k] / tot);
    gs_addScl3(pb, pb, V[f->v[k]].b, lam[k] / tot);
  }
  *depth = f->dist;
  gs_copy3(normal, f->n);
}

/* the index k of edge (a, b) in face f, or -1 */
static int face_edge(const Face* f, int a, int b) {
  for (int k = 0; k < 3; k++)
    if (f->v[k] == a && f->v[(k + 1) % 3] == b) return k;
  return -1;
}

/* whether c is a geom primitive: an analytic support function, smooth or with a few flat faces
 * and edges (meshes and custom shapes are polytopes: Newton's method has nothing to work on) */
static int primitive(const gsConvex* c) { return !c->support && c->type != GS_GEOM_MESH && c->inflate == 0; }

/* The finishing step (finish_depth) tries every kind of contact whose answer direction lies within
 * ~0.45 rad of the direction where EPA or GJK stands: a flat face whose normal is that near, edges
 * whose crease circles pass that near. The least depth of those found is the answer; a narrower
 * window missed nearby least values (a cylinder's cap 0.13 rad from EPA's direction while a box
 * edge's crease passed within 0.05 rad: the crease's local least value, 1e-2 above the cap's, was
 * taken). epa accepts the answer only where the polytope's faces nearer than it lie within the
 * same angle of the answer and within 0.3 rad of EPA's direction, well inside the window (a
 * least value 0.46 rad from EPA's direction, 0.33 rad from a crease's, was missed otherwise). */
#define FINISH_COS 0.9   /* cos 0.45 */
#define FINISH_SIN 0.43  /* sin 0.45 */
#define ACCEPT_COS 0.955 /* cos 0.3 */

/* The flat faces of c (box faces, cylinder caps) whose outward normals are within the finishing
 * window of the unit direction dir: their normals in nrm and the local axes along them in axis;
 * returns their number (at most 3) */
static int flat_faces(const gsConvex* c, const gsReal dir[3], gsReal nrm[3][3], int axis[3]) {
  if (c->support || (c->type != GS_GEOM_BOX && c->type != GS_GEOM_CYLINDER)) return 0;
  gsReal u[3];
  gs_mulMatTVec3(u, c->mat, dir);
  int n = 0;
  for (int k = c->type == GS_GEOM_BOX ? 0 : 2; k < 3; k++) {
    if (!(fabs(u[k]) > FINISH_COS)) continue;
    gsReal sgn = u[k] > 0 ? 1 : -1;
    for (int i = 0; i < 3; i++) nrm[n][i] = sgn * c->mat[3 * i + k];
    axis[n++] = k;
  }
  return n;
}

/* A face's normal c lying on the crease circle of one of the same shape's edges (axis, a box's
 * face normal and the edges along that face): along the circle, h has a corner there, a least
 * value where the other's support point projects inside the face across that edge's direction */
typedef struct {
  gsReal c[3];
  gsReal axis[3];
} Corner;

/* Whether the point p, projected along the local axis on c's face there, falls strictly inside
 * it; for a box, the corners on the crease circles of the face's edges are added to corner
 * (*ncorner of them); for a cylinder's cap, where p falls outside, the unit radial direction
 * towards it in rim. */
static int inside_face(const gsConvex* c, int axis, const gsReal p[3], const gsReal nrm[3],
                      Corner* corner, int* ncorner, gsReal rim[3]) {
  gsReal d[3], q[3];
  gs_sub3(d, p, c->pos);
  gs_mulMatTVec3(q, c->mat, d);
  const gsReal* s = c->size;
  if (c->type == GS_GEOM_CYLINDER) {
    gsReal r2 = q[0] * q[0] + q[1] * q[1];
    if (r2 < s[0] * s[0] * (1 - 1e-9)) return 1;
    gsReal e[3] = {q[0], q[1], 0};
    gs_mulMatVec3(rim, c->mat, e);
    gs_scl3(rim, rim, 1 / sqrt(r2));
    return 0;
  }
  int inside = 1;
  for (int j = 0; j < 3; j++) {
    if (j == axis) continue;
    if (!(fabs(q[j]) < s[j] * (1 - 1e-9))) {
      inside = 0;
      continue;
    }
    /* inside across the edges along the third axis */
    int e = 3 - j - axis;
    Corner* k = corner + (*ncorner)++;
    gs_copy3(k->c, nrm);
    for (int i = 0; i < 3; i++) k->axis[i] = c->mat[3 * i + e];
  }
  return inside;
}

/* A start for newton_depth where a cylinder's cap was looked at but the other's support point
 * along its normal falls outside it: the cap's normal tilted by RIM_TILT rad so that the cap's
 * support point is on its rim, on the other's side (see face_depth) */
#define RIM_TILT 0.05

/* A point of one shape against a flat face of the other. The depth's least value over directions
 * is then at the face normal exactly: h(n) there has a corner (the face's vertices take turns as
 * the support point) whose subgradients include one along the normal when the other shape's
 * support point projects inside the face, and a corner beats any curvature. EPA's polytope only
 * approaches such a corner linearly; here it is taken at once when the direction n0 (EPA's
 * nearest face) points at a face. The witness on the face is the projection of the other's.
 * The corners of h along the creases through those faces are listed in corner (*ncorner of
 * them, at most 12) for newton_depth.
 * Where the other's support point falls outside a cylinder's cap, the least value nearby may be
 * that point, or the other's rim, against the cap's rim: h is smooth there (both support points
 * move along rims) but may be separated from n0 by a ridge that Newton's method from n0 does not
 * cross (two rims 0.18 rad from a cylinder side's crease, 9e-5 below its least value). Such
 * contacts have the cap's normal tilted towards the rim point facing the other's; those
 * directions are written to rim (*nrim of them, at most 2) as starts for newton_depth. */
static int face_depth(const gsConvex* A, const gsConvex* B, const gsReal n0[3], gsReal lower,
                     gsReal upper, gsReal round, gsReal* depth, gsReal pa[3], gsReal pb[3],
                     gsReal normal[3], Corner* corner, int* ncorner, gsReal rim[2][3], int* nrim) {
  gsReal c[3], sa[3], sb[3], m0[3] = {-n0[0], -n0[1], -n0[2]}, fn[3][3], e[3];
  int ax[3], found = 0;
  *ncorner = 0, *nrim = 0;
  for (int side = 0; side < 2; side++) {
    /* side 0: a face of A, outward along the normal; side 1: a face of B, outward against it */
    const gsConvex *F = side ? B : A, *O = side ? A : B;
    gsReal sgn = side ? -1 : 1, *sf = side ? sb : sa, *so = side ? sa : sb;
    int nface = flat_faces(F, side ? m0 : n0, fn, ax);
    for (int f = 0; f < nface; f++) {
      gsReal mf[3] = {-fn[f][0], -fn[f][1], -fn[f][2]};
      gs_scl3(c, fn[f], sgn);  /* the contact normal, from A towards B */
      gs_convexSupport(so, O, mf);
      if (!inside_face(F, ax[f], so, c, corner, ncorner, e)) {
        /* F's rim towards O's point: F's support along its face normal tilted towards e */
        if (F->type == GS_GEOM_CYLINDER) {
          gs_scl3(rim[*nrim], fn[f], cos(RIM_TILT));
          gs_addScl3(rim[*nrim], rim[*nrim], e, sin(RIM_TILT));
          gs_scl3(rim[*nrim], rim[*nrim], sgn);
          (*nrim)++;
        }
        continue;
      }
      gs_convexSupport(sf, F, fn[f]);
      gsReal h = gs_dot3(c, sa) - gs_dot3(c, sb);
      /* within EPA's bounds of the depth (else the face was not the answer's after all) */
      if (!(h >= lower - round && h <= upper + round)) continue;
      if (found && h >= *depth) continue;
      found = 1, *depth = h;
      /* the witness on the face: the other's point moved across by the depth */
      gs_copy3(side ? pa : pb, so);
      gs_addScl3(side ? pb : pa, so, c, sgn * h);
      gs_copy3(normal, c);
    }
  }
  return found;
}

/* whether the arc of the crease circle (axis kink) from n to m reaches or passes one of the
 * corners on that circle */
static int crosses_corner(const gsReal n[3], const gsReal m[3], const gsReal kink[3],
                         const Corner* corner, int ncorner) {
  for (int i = 0; i < ncorner; i++) {
    const gsReal* c = corner[i].c;
    if (!(fabs(gs_dot3(corner[i].axis, kink)) > 1 - 1e-12)) continue;  /* another circle */
    if (!(gs_dot3(c, n) > 0 && gs_dot3(c, m) > 0)) continue;
    gsReal x[3], y[3];
    gs_cross(x, c, n);
    gs_cross(y, c, m);
    if (gs_dot3(x, kink) * gs_dot3(y, kink) <= 0) return 1;
  }
  return 0;
}

/* Signed distance as an optimisation over directions: h(n) = n . w(n), the support value of A - B,
 * is at least the depth for every unit n (at most minus the distance when apart), and its least
 * value is the depth. Where both shapes are smooth at the answer, h is smooth on the unit sphere:
 * Newton's method there (gradient: the tangential part of w; Hessian: the derivative of w along
 * the tangents, by differences of support points, less h) converges quadratically where EPA's
 * polytope and GJK's simplex refine only linearly.
 *
 * With `kink` (a unit axis), one shape has an edge along it (a box edge, a cylinder's side, a
 * capsule's core): its support point jumps from one end of the edge to the other where n crosses
 * the great circle n . kink = 0, so h has a crease there and the answer lies on it. Newton's
 * method then runs along the circle, and the answer is checked to be a minimum across it (h grows
 * on both sides: the support points just off the circle have a . kink of both signs); its witness
 * points are where the edge meets the line along n.
 *
 * A face's normal on the circle where h has a least value along it (corner, from face_depth) is a
 * corner that Newton's steps only hop around (they fail to descend after a few iterations): a run
 * whose step would reach or pass one stops at once (the corner is a face's answer or, with the
 * other's support point beyond the face along the circle's axis, none).
 *
 * From the direction n0, with [lower, upper] bounds of the least value from the caller. Returns 0,
 * writing nothing, when a step fails to descend, the Hessian is not positive definite, the end
 * point keeps a gradient or the answer leaves the bounds: the caller goes on without it. */
static int newton_depth(const gsConvex* A, const gsConvex* B, const gsReal n0[3], const gsReal* kink,
                       const Corner* corner, int ncorner, gsReal lower, gsReal upper,
                       gsReal round, gsReal* depth, gsReal pa[3], gsReal pb[3], gsReal normal[3]) {
  const gsReal eps = 1e-6;  /* difference step in the direction: error ~eps in the Hessian */
  gsReal n[3], t1[3], t2[3] = {0, 0, 0}, H[2][2] = {{0, 0}, {0, 0}}, step = 1;
  Vert w;
  gs_copy3(n, n0);
  if (kink) {
    gs_addScl3(n, n, kink, -gs_dot3(n, kink));
    if (gs_normalize3(n) < 0.5) return 0;
  }
  support_ab(&w, A, B, n);
  gsReal h = gs_dot3(n, w.w);
  int done = 0;
  gsReal prev = 0;  /* the last full exact Newton step taken (0: none yet, or another) */
  for (int it = 0; it < 12; it++) {
    /* tangents of the unit sphere at n (the same axis while n moves a little: H stays valid);
     * along a crease only the one along the circle */
    if (kink) {
      gs_cross(t1, kink, n);
      gs_normalize3(t1);
    } else {
      gsReal ax[3] = {0, 0, 0};
      ax[fabs(n[0]) < fabs(n[1]) ? (fabs(n[0]) < fabs(n[2]) ? 0 : 2) : (fabs(n[1]) < fabs(n[2]) ? 1 : 2)] = 1;
      gs_cross(t1, n, ax);
      gs_normalize3(t1);
      gs_cross(t2, n, t1);
    }
    gsReal g[2] = {gs_dot3(w.w, t1), kink ? 0 : gs_dot3(w.w, t2)};
    /* the derivative of w = a(n) - b(-n) along the tangents, from the shapes' curvatures where
     * they have them (exact, and no support calls), else by differences below */
    gsReal q[3] = {0, 0, 0}, m0[3] = {-n[0], -n[1], -n[2]};
    int exact = add_support_derivative(q, A, n, t1, t2) && add_support_derivative(q, B, m0, t1, t2);
    if (exact) {
      H[0][0] = q[0] - h;
      if (kink) H[1][1] = 1, H[0][1] = H[1][0] = 0;
      else H[1][1] = q[1] - h, H[0][1] = H[1][0] = q[2];
    } else if (step > 1e-4) {
      /* the Hessian again, unless the last step was small enough to keep it (the iteration
       * then contracts by the Hessian's change, ~ the step) */
      Vert w1, w2;
      gsReal d1[3], d2[3], e1[3], e2[3];
      gs_addScl3(d1, n, t1, eps);
      support_ab(&w1, A, B, d1);
      gs_sub3(e1, w1.w, w.w);
      H[0][0] = gs_dot3(e1, t1) / eps - h;
      if (kink) {
        H[1][1] = 1, H[0][1] = H[1][0] = 0;
      } else {
        gs_addScl3(d2, n, t2, eps);
        support_ab(&w2, A, B, d2);
        gs_sub3(e2, w2.w, w.w);
        H[1][1] = gs_dot3(e2, t2) / eps - h;
        H[0][1] = H[1][0] = 0.5 * (gs_dot3(e1, t2) + gs_dot3(e2, t1)) / eps;
      }
    }
    gsReal det = H[0][0] * H[1][1] - H[0][1] * H[1][0];
    if (!(H[0][0] > 0 && H[1][1] > 0 && det > 0)) return 0;
    gsReal s1 = -(H[1][1] * g[0] - H[0][1] * g[1]) / det;
    gsReal s2 = -(H[0][0] * g[1] - H[1][0] * g[0]) / det;
    step = sqrt(s1 * s1 + s2 * s2);
    if (!isfinite(step)) return 0;
    /* a descent direction (H is positive definite): far steps are shortened, and halved while h
     * does not decrease (deep overlaps, where h is nearly flat around the answer); after the
     * first step only twice: a step that must be cut more runs into a corner of h (a face's
     * normal on a crease), which Newton's method does not converge to and face_depth answers */
    gsReal scl = step > 0.2 ? 0.2 / step : 1, m[3], hm = INFINITY;
    Vert wm;
    for (int half = 0; half < (it == 0 ? 6 : 2); half++, scl *= 0.5) {
      gs_addScl3(m, n, t1, s1 * scl);
      if (kink) gs_addScl3(m, m, kink, -gs_dot3(m, kink));
      else gs_addScl3(m, m, t2, s2 * scl);
      gs_normalize3(m);
      if (kink && crosses_corner(n, m, kink, corner, ncorner)) return 0;
      support_ab(&wm, A, B, m);
      hm = gs_dot3(m, wm.w);
      /* h only decreases towards the least value, down to rounding */
      if (hm <= h + round) break;
    }
    if (!(hm <= h + round)) return 0;
    step *= scl;
    gs_copy3(n, m);
    w = wm;
    h = hm;
    /* the next step would be ~step^2 times the curvature's variation: below rounding */
    if (step < 1e-8) {
      done = 1;
      break;
    }
    /* or, after two full steps with the exact Hessian (quadratic convergence: s' ~ c s^2, c
     * measured from the last two), below 1e-12 */
    int full = scl == 1 && exact;
    if (full && prev > 0 && step < 1e-4 && step * step * step < 1e-12 * prev * prev) {
      done = 1;
      break;
    }
    prev = full ? step : 0;
  }
  if (!done) return 0;
  /* a least value where h is smooth (along the crease: on the circle) has no tangential
   * gradient; steps also become small where the differences straddle a crease not accounted
   * for (a huge Hessian), which this rejects */
  gsReal grad[3];
  gs_addScl3(grad, w.w, n, -gs_dot3(w.w, n));
  if (kink) gs_addScl3(grad, grad, kink, -gs_dot3(grad, kink));
  if (!(gs_norm3(grad) <= 1e-6 * gs_norm3(w.w) + 100 * round)) return 0;
  if (kink) {
    /* the edge's ends, just off the circle on either side */
    Vert wp, wn;
    gsReal dp[3], dn[3];
    gs_addScl3(dp, n, kink, 1e-9);
    gs_addScl3(dn, n, kink, -1e-9);
    support_ab(&wp, A, B, dp);
    support_ab(&wn, A, B, dn);
    gsReal kp = gs_dot3(wp.w, kink), kn = gs_dot3(wn.w, kink);
    if (!(kp > 0 && kn < 0)) return 0;
    gsReal lam = kn / (kn - kp);  /* where w along the edge has no component along it */
    for (int i = 0; i < 3; i++) {
      w.a[i] = wn.a[i] + lam * (wp.a[i] - wn.a[i]);
      w.b[i] = wn.b[i] + lam * (wp.b[i] - wn.b[i]);
      w.w[i] = w.a[i] - w.b[i];
    }
    h = gs_dot3(n, w.w);
  }
  if (!(h >= lower - 100 * round && h <= upper + 100 * round)) return 0;
  *depth = h;
  gs_copy3(normal, n);
  gs_copy3(pa, w.a);
  gs_copy3(pb, w.b);
  return 1;
}

/* Edges of both shapes crossing (box edges, cylinder sides, capsule cores): the answer's normal
 * is across both, n = ka x kb up to sign, when the closest points of the two edges' lines fall
 * strictly inside both edges. The corners this finds along either edge's crease circle are added
 * to corner (for newton_depth). */
static int edge_depth(const gsConvex* A, const gsConvex* B, const gsReal n0[3], const gsReal ka[3],
                     const gsReal kb[3], gsReal lower, gsReal upper, gsReal round, gsReal* depth,
                     gsReal pa[3], gsReal pb[3], gsReal normal[3], Corner* corner, int* ncorner) {
  gsReal n[3], m[3], d[3], a0[3], a1[3], b0[3], b1[3];
  gs_cross(n, ka, kb);
  if (gs_normalize3(n) < 1e-3) return 0;  /* near parallel edges: a face, no crossing */
  if (gs_dot3(n, n0) < 0) gs_scl3(n, n, -1);
  if (gs_dot3(n, n0) < FINISH_COS) return 0;
  gs_scl3(m, n, -1);
  /* each edge's ends: the support points just off its circle on either side */
  gs_addScl3(d, n, ka, -1e-9), gs_convexSupport(a0, A, d);
  gs_addScl3(d, n, ka, 1e-9), gs_convexSupport(a1, A, d);
  gs_addScl3(d, m, kb, -1e-9), gs_convexSupport(b0, B, d);
  gs_addScl3(d, m, kb, 1e-9), gs_convexSupport(b1, B, d);
  gsReal ea[3], eb[3], r[3];
  gs_sub3(ea, a1, a0), gs_sub3(eb, b1, b0), gs_sub3(r, a0, b0);
  gsReal aa = gs_dot3(ea, ea), ab = gs_dot3(ea, eb), bb = gs_dot3(eb, eb);
  gsReal ar = gs_dot3(ea, r), br = gs_dot3(eb, r), den = aa * bb - ab * ab;
  if (!(den > 1e-12 * aa * bb)) return 0;
  gsReal sa = (ab * br - ar * bb) / den, sb = (aa * br - ab * ar) / den;
  /* along one edge's crease circle, n is a corner of h (the other's support point jumps), a least
   * value there where the closest point falls inside the other edge */
  if (sb > 0 && sb < 1) {
    gs_copy3(corner[*ncorner].c, n), gs_copy3(corner[*ncorner].axis, ka);
    (*ncorner)++;
  }
  if (sa > 0 && sa < 1) {
    gs_copy3(corner[*ncorner].c, n), gs_copy3(corner[*ncorner].axis, kb);
    (*ncorner)++;
  }
  if (!(sa > 0 && sa < 1 && sb > 0 && sb < 1)) return 0;
  gs_addScl3(pa, a0, ea, sa);
  gs_addScl3(pb, b0, eb, sb);
  gs_sub3(d, pa, pb);
  gsReal h = gs_dot3(n, d);
  if (!(h >= lower - 100 * round && h <= upper + 100 * round)) return 0;
  *depth = h;
  gs_copy3(normal, n);
  return 1;
}

/* the axes of c's edges whose crease circles pass within the finishing window of the direction n:
 * up to 3 in ax (2 at most within that window), their number returned */
static int creases(const gsConvex* c, const gsReal n[3], gsReal ax[3][3]) {
  int k = 0;
  for (int j = 0; j < 3; j++) {
    if (c->type != GS_GEOM_BOX && !(j == 2 && (c->type == GS_GEOM_CYLINDER || c->type == GS_GEOM_CAPSULE)))
      continue;
    gsReal a[3] = {c->mat[j], c->mat[3 + j], c->mat[6 + j]};
    if (fabs(gs_dot3(a, n)) < FINISH_SIN) gs_copy3(ax[k++], a);
  }
  return k;
}

/* the size of the shapes, from support points a of A and b of B: their distances from the centres */
static gsReal shape_scale(const gsConvex* A, const gsConvex* B, const gsReal a[3], const gsReal b[3]) {
  gsReal da[3], db[3];
  gs_sub3(da, a, A->pos);
  gs_sub3(db, b, B->pos);
  return gs_norm3(da) + gs_norm3(db);
}

/* the rounding of support values of shapes of that size: w = a - b is a difference of positions */
static gsReal support_rounding(const gsConvex* A, const gsConvex* B, gsReal scale) {
  return 1e-14 * (scale + gs_norm3(A->pos) + gs_norm3(B->pos));
}

/* keeps the answer (h, qa, qb, qn) in (*depth, pa, pb, normal) when it is the first or the least */
static void keep_least(int* found, gsReal h, const gsReal qa[3], const gsReal qb[3], const gsReal qn[3],
                      gsReal* depth, gsReal pa[3], gsReal pb[3], gsReal normal[3]) {
  if (*found && h >= *depth) return;
  *found = 1, *depth = h;
  gs_copy3(pa, qa), gs_copy3(pb, qb), gs_copy3(normal, qn);
}

/* Finishes a distance query near the direction n0 (see face_depth, newton_depth, edge_depth): by
 * every kind of contact found within the finishing window of n0 (flat faces, crossing edges, one
 * crease at a time, smooth parts). Each answer is a local least value of the support value, so at
 * least the depth; where several hold one (deep overlaps of boxes and cylinders: a cap's normal
 * near a box edge's crease), the least is taken. 0 when none applies. */
static int finish_depth(const gsConvex* A, const gsConvex* B, const gsReal n0[3], gsReal lower,
                       gsReal upper, gsReal round, gsReal* depth, gsReal pa[3], gsReal pb[3],
                       gsReal normal[3]) {
  gsReal h, qa[3], qb[3], qn[3];
  Corner corner[20];  /* 12 from face_depth, 2 from each of at most 4 crossings */
  int ncorner, nrim;
  gsReal rim[2][3];
  int found = face_depth(A, B, n0, lower, upper, round, depth, pa, pb, normal, corner, &ncorner,
                        rim, &nrim);
  gsReal ka[3][3], kb[3][3];
  int na = creases(A, n0, ka), nb = creases(B, n0, kb);
  for (int i = 0; i < na; i++)
    for (int j = 0; j < nb; j++)
      if (edge_depth(A, B, n0, ka[i], kb[j], lower, upper, round, &h, qa, qb, qn, corner, &ncorner))
        keep_least(&found, h, qa, qb, qn, depth, pa, pb, normal);
  for (int i = 0; i < na + nb; i++)
    if (newton_depth(A, B, n0, i < na ? ka[i] : kb[i - na], corner, ncorner,
                    lower, upper, round, &h, qa, qb, qn))
      keep_least(&found, h, qa, qb, qn, depth, pa, pb, normal);
  /* smooth parts, or near a crease but not on it (a box's vertex, a capsule's end, a cylinder's
   * rim): also where a crease's answer was found, when n0 lies off every crease by more than
   * 0.05 rad (an ellipsoid on a cylinder's rim 0.15 rad off its side's crease, where EPA's
   * direction was, 3.8e-7 below the crease's least value); from on a crease that start mostly
   * ends nowhere or at the same answer (run always, 20% more support calls on box-ellipsoid) */
  int off = 1;
  for (int i = 0; i < na + nb; i++) off = off && fabs(gs_dot3(n0, i < na ? ka[i] : kb[i - na])) > 0.05;
  if ((!found || off) &&
      newton_depth(A, B, n0, NULL, NULL, 0, lower, upper, round, &h, qa, qb, qn))
    keep_least(&found, h, qa, qb, qn, depth, pa, pb, normal);
  /* a cap's rim against the other (see face_depth) */
  for (int i = 0; i < nrim; i++)
    if (newton_depth(A, B, rim[i], NULL, NULL, 0, lower, upper, round, &h, qa, qb, qn))
      keep_least(&found, h, qa, qb, qn, depth, pa, pb, normal);
  return found;
}

static int epa(const gsConvex* A, const gsConvex* B, const Vert* s, gsReal tol, int maxiter,
               gsReal* depth, gsReal pa[3], gsReal pb[3], gsReal normal[3]) {
  Vert V[EPA_MAXV];
  Face F[EPA_MAXF];
  gsReal fdist[EPA_MAXF];  /* face distances, +inf for removed faces: the search for the nearest */
  int freeList[EPA_MAXF], nfree = 0;
  int nv = 4, nf = 4;
  memcpy(V, s, 4 * sizeof(Vert));
  /* orient the tetrahedron: the fourth vertex must be behind face (0, 1, 2) */
  if (tet_volume(V[0].w, V[1].w, V[2].w, V[3].w) > 0) {
    Vert t = V[1];
    V[1] = V[2];
    V[2] = t;
  }
  static const int tet[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
  for (int i = 0; i < 4; i++) {
    if (!make_face(&F[i], V, tet[i][0], tet[i][1], tet[i][2])) return 0;
    fdist[i] = F[i].dist;
  }
  for (int i = 0; i < 4; i++)
    for (int k = 0; k < 3; k++)
      for (int j = 0; j < 4; j++)
        if (j != i && face_edge(&F[j], F[i].v[(k + 1) % 3], F[i].v[k]) >= 0) F[i].adj[k] = j;

  /* The smallest face distance is a lower bound of the depth that only grows; when rounding
   * breaks the polytope it drops, and the last result before that is kept.
   * Between primitives EPA only needs to find the answer's neighbourhood: finish_depth ends it,
   * tried when the gap between the bounds falls below 1e-2, 1e-3, ... 1e-6 of the shapes' size
   * (EPA goes on when it does not apply or its answer is not accepted). A first try at 3e-3
   * needed ~8% fewer support calls (fewer answers not accepted) but accepted a box face's least
   * value 2e-3 above a box edge's on a cylinder's cap 0.2 rad away: the polytope nearer the face
   * hid the other. */
  int polish = primitive(A) && primitive(B);
  gsReal scale = 0;
  for (int i = 0; i < 4; i++) {
    gsReal r = shape_scale(A, B, V[i].a, V[i].b);
    scale = r > scale ? r : scale;
  }
  gsReal trigger = 1e-2 * scale;  /* the gap where finishing is tried */
  int cand = 0, converged = 0;     /* a finished answer not accepted (see below) */
  gsReal cdepth = 0, cpa[3] = {0, 0, 0}, cpb[3] = {0, 0, 0}, cnormal[3] = {0, 0, 0};
  int found = 0;
  Face result;                /* the face answering so far, and the origin's weights on it */
  gsReal rlam[3] = {0, 0, 0}, rtot = 0;
  memset(&result, 0, sizeof result);
  gsReal upper = INFINITY;  /* the least support value seen: an upper bound of the depth */
  gsReal lower = -INFINITY; /* the largest lower bound seen, and iterations since it grew */
  int stall = 0;
  for (int it = 0; it < maxiter; it++) {
    /* the nearest face: the least distance first (a loop the compiler vectorises), then where */
    gsReal nearest = fdist[0];
    for (int f = 1; f < nf; f++) nearest = fdist[f] < nearest ? fdist[f] : nearest;
    int best = 0;
    while (fdist[best] != nearest) best++;
    if (found && nearest < result.dist - 1e-10) break;  /* broken by rounding */
    /* near rounding level the polytope may cycle (faces removed and made again) without raising
     * the lower bound: stop when it has not grown for a while */
    if (nearest > lower + 0.01 * tol) lower = nearest, stall = 0;
    else if (++stall > 16) break;
    /* Faces within tol of the nearest are as good an answer. Coplanar faces (a flat contact) tie
     * up to rounding, and the witness points of one that does not hold the origin's projection
     * lie outside the shapes: walk across the edge the projection is beyond while the face there
     * is within tol. */
    gsReal lam[3], tot = 0;
    for (int step = 0;; step++) {
      tot = face_weights(&F[best], V, lam);
      int k = lam[0] < lam[1] ? (lam[0] < lam[2] ? 0 : 2) : (lam[1] < lam[2] ? 1 : 2);
      if (!(lam[k] < -1e-9 * tot) || step == 16) break;
      int g = F[best].adj[(k + 1) % 3];  /* across the edge opposite vertex k */
      if (!(fdist[g] <= nearest + tol)) break;
      best = g;
    }
    /* faces are recycled, vertices are not: the answer is kept as a copy of its face */
    if ((!found || fdist[best] >= result.dist) && tot > 0) {
      result = F[best];
      gs_copy3(rlam, lam);
      rtot = tot;
      found = 1;
    }
    Vert w;
    support_ab(&w, A, B, F[best].n);
    gsReal dw = gs_dot3(F[best].n, w.w);
    if (dw < upper) upper = dw;
    if (upper - nearest <= tol) {
      converged = 1;
      break;
    }
    if (nv == EPA_MAXV) break;
    if (polish && upper - nearest <= trigger) {
      /* tried again on a finer polytope, down to 1e-6 of the size */
      trigger *= 0.1;
      polish = trigger > 1e-7 * scale;
      gsReal round = support_rounding(A, B, scale), h, qa[3], qb[3], qn[3];
      if (finish_depth(A, B, F[best].n, nearest, upper, round, &h, qa, qb, qn)) {
        /* a local least value; the depth is the global one, which may only hide where the
         * polytope's faces are nearer than it: accepted when all of those face its way and
         * EPA's (where the finishing step looked, see FINISH_COS) */
        int other = 0;
        for (int f = 0; f < nf && !other; f++)
          other = fdist[f] < h - 100 * round &&
                  (gs_dot3(F[f].n, qn) < FINISH_COS || gs_dot3(F[f].n, F[best].n) < ACCEPT_COS);
        if (!other) {
          *depth = h;
          gs_copy3(pa, qa), gs_copy3(pb, qb), gs_copy3(normal, qn);
          return 1;
        }
        /* kept in case EPA does not converge: a depth actually reached in some direction */
        if (!cand || h < cdepth) {
          cand = 1, cdepth = h;
          gs_copy3(cpa, qa), gs_copy3(cpb, qb), gs_copy3(cnormal, qn);
        }
      }
    }

    /* the faces that see w: a connected cap around the best face, found by walking across
     * edges; the edges where it meets the faces that do not see w form the horizon */
    int stack[EPA_MAXF], nstack = 0, gone[EPA_MAXF], ngone = 0;
    int hor[EPA_MAXF][3], nh = 0;  /* horizon edge (a, b) of a removed face, the face across */
    stack[nstack++] = best;
    fdist[best] = INFINITY;
    gone[ngone++] = best;
    while (nstack > 0) {
      int f = stack[--nstack];
      for (int k = 0; k < 3; k++) {
        int g = F[f].adj[k];
        if (fdist[g] == INFINITY) continue;  /* removed already */
        gsReal dv[3];
        gs_sub3(dv, w.w, V[F[g].v[0]].w);
        if (gs_dot3(F[g].n, dv) > 0) {
          fdist[g] = INFINITY;
          gone[ngone++] = g;
          stack[nstack++] = g;
        } else if (nh < EPA_MAXF) {
          hor[nh][0] = F[f].v[k], hor[nh][1] = F[f].v[(k + 1) % 3], hor[nh][2] = g;
          nh++;
        }
      }
    }
    /* a horizon edge may have been recorded from a face removed later through another path:
     * keep only the edges whose face across still stands */
    int m = 0;
    for (int e = 0; e < nh; e++)
      if (fdist[hor[e][2]] != INFINITY) hor[m][0] = hor[e][0], hor[m][1] = hor[e][1], hor[m][2] = hor[e][2], m++;
    nh = m;
    if (nh < 3) break;
    for (int i = 0; i < ngone; i++) freeList[nfree++] = gone[i];
    if (nf - nfree + nh > EPA_MAXF) break;

    /* the cone from w over the horizon */
    V[nv] = w;
    int made[EPA_MAXF];
    int ok = 1;
    for (int e = 0; e < nh && ok; e++) {
      int f = nfree > 0 ? freeList[--nfree] : nf++;
      made[e] = f;
      ok = make_face(&F[f], V, hor[e][0], hor[e][1], nv);
      fdist[f] = F[f].dist;
      int g = hor[e][2], k = face_edge(&F[g], hor[e][1], hor[e][0]);
      if (k < 0) ok = 0;
      else F[g].adj[k] = f, F[f].adj[0] = g;
    }
    nv++;
    if (!ok) break;
    /* new face (a, b, w): across (b, w) is the new face over the horizon edge starting at b,
     * across (w, a) the one ending at a; the horizon must be one simple loop */
    for (int e = 0; e < nh && ok; e++) {
      int next = -1, prev = -1;
      for (int j = 0; j < nh; j++) {
        if (hor[j][0] == hor[e][1]) next = next < 0 ? j : -2;
        if (hor[j][1] == hor[e][0]) prev = prev < 0 ? j : -2;
      }
      if (next < 0 || prev < 0) ok = 0;
      else F[made[e]].adj[1] = made[next], F[made[e]].adj[2] = made[prev];
    }
    if (!ok) break;
  }
  if (!converged && cand && cdepth <= upper) {
    /* EPA stopped short (iterations, rounding, room): its nearest face is only a lower bound,
     * while the finished answer is a depth reached, the least one known */
    *depth = cdepth;
    gs_copy3(pa, cpa), gs_copy3(pb, cpb), gs_copy3(normal, cnormal);
    return 1;
  }
  if (found) face_result(&result, V, rlam, rtot, depth, pa, pb, normal);
  return found;
}

/* ---------------- GJK ---------------- */

/* fallback normal of degenerate cases: from A's centre towards B's, or (1,0,0) where they coincide */
static void centre_normal(gsReal normal[3], const gsConvex* A, const gsConvex* B) {
  gs_sub3(normal, B->pos, A->pos);
  if (gs_normalize3(normal) == 0) normal[0] = 1, normal[1] = normal[2] = 0;
}

/* gs_convexDistance on the cores */
static int core_distance(const gsConvex* A, const gsConvex* B, gsReal cutoff, gsReal tol, int maxiter,
                        gsReal* dist, gsReal pa[3], gsReal pb[3], gsReal normal[3]) {
  Vert s[4];
  int n = 0, penetrating = 0;
  gsReal v[3];
  gs_sub3(v, A->pos, B->pos);
  if (gs_dot3(v, v) == 0) v[0] = 1;

  /* separated primitives: GJK only needs to find the neighbourhood of the answer, finish_depth
   * ends it (tried once, when the gap between the bounds falls below 1e-2 of the size) */
  int finish = primitive(A) && primitive(B);
  gsReal scale = 0;
  Vert best[4];  /* the simplex kept over restarts (see below) */
  gsReal vbest[3] = {0, 0, 0}, bestv = 0;
  int nbest = 0, saved = 0, restarts = 0;
  for (int it = 0; it < maxiter; it++) {
    gsReal nv = gs_norm3(v), dir[3] = {-v[0], -v[1], -v[2]};
    if (!isfinite(nv)) return 0;  /* non-finite poses or sizes: no contact rather than a spin */
    Vert w;
    support_ab(&w, A, B, dir);
    gsReal vw = gs_dot3(v, w.w);
    if (vw > cutoff * nv) return 0;            /* a separating plane at least cutoff apart */
    if (n > 0 && nv * nv - vw <= tol * nv) break;  /* converged */
    if (it == 0) scale = shape_scale(A, B, w.a, w.b);
    if (finish && n > 0 && vw > 0 && nv * nv - vw <= 1e-2 * scale * nv) {
      finish = 0;
      gsReal round = support_rounding(A, B, scale), h;
      /* the least support value lies between -|v| (the distance is at most |v|) and that of
       * the direction -v */
      gsReal n0[3];
      gs_scl3(n0, dir, 1 / nv);
      if (finish_depth(A, B, n0, -nv, -vw / nv, round, &h, pa, pb, normal)) {
        if (-h >= cutoff) return 0;
        *dist = -h;
        return 1;
      }
    }
    gsReal vv = n > 0 ? nv * nv : 0;
    int dup = 0;
    for (int i = 0; i < n; i++)
      if (s[i].w[0] == w.w[0] && s[i].w[1] == w.w[1] && s[i].w[2] == w.w[2]) dup = 1;
    if (dup) break;
    s[n++] = w;
    gsReal lam[4], vnew[3];
    if (closest_simplex(s, n, lam, vnew)) {
      gs_copy3(v, vnew);
      penetrating = 1;
      break;
    }
    if (gs_dot3(vnew, vnew) >= vv && vv > 0) {
      /* no progress: rounding level, or a nearly flat simplex whose sub-simplex search went
       * wrong (seen on curved shapes near contact, with the gap still ~1e-3 of the distance).
       * The simplex before this step is kept; in the second case GJK starts again from the new
       * support point alone, a few times, and keeps whichever ends nearer */
      n--;
      if (restarts < 4 && nv * nv - vw > 1e3 * tol * nv) {
        if (!saved || nv < bestv) saved = 1, bestv = nv, nbest = n, memcpy(best, s, n * sizeof(Vert)), gs_copy3(vbest, v);
        restarts++;
        s[0] = w, n = 1;
        gs_copy3(v, w.w);
        continue;
      }
      break;
    }
    gs_copy3(v, vnew);
    reduce_simplex(s, &n, lam);
    if (gs_dot3(v, v) < 1e-26) break;  /* the origin is on the simplex */
  }

  if (saved && !penetrating && bestv < gs_norm3(v)) n = nbest, memcpy(s, best, n * sizeof(Vert)), gs_copy3(v, vbest);

  if (!penetrating && gs_dot3(v, v) < 1e-26) {
    /* touching or overlapping with the origin on a vertex, edge or face: grow the simplex into a
     * tetrahedron for EPA */
    n = complete_simplex(A, B, s, n);
    if (n < 4) {  /* flat difference: report contact at distance zero */
      *dist = 0;
      witness(s, n < 3 ? n : 3, pa, pb);
      centre_normal(normal, A, B);
      return 0 < cutoff;
    }
    penetrating = 1;
  }

  if (!penetrating) {
    gsReal d = gs_norm3(v);
    if (d >= cutoff) return 0;
    witness(s, n, pa, pb);
    *dist = d;
    gs_scl3(normal, v, -1 / d);
    return 1;
  }

  gsReal depth;
  if (!epa(A, B, s, tol, maxiter, &depth, pa, pb, normal)) {
    /* degenerate polytope: fall back on the centres */
    *dist = 0;
    gs_copy3(pa, A->pos), gs_copy3(pb, B->pos);
    centre_normal(normal, A, B);
    return 1;
  }
  /* a depth below rounding of the shapes' size (1e-16 of it) is no depth: shapes exactly flush
   * (cubelets of MuJoCo's model/cube/cube_3x3x3.xml at rest, EPA's depth 1.5e-33 after the
   * rotation's rounding) touch at distance 0, which is no contact at margin 0, as in MuJoCo */
  if (depth > 0 && depth < 1e-16 * shape_scale(A, B, pa, pb)) depth = 0;
  *dist = -depth;
  return 1;
}

/* how far (the sine of the angle) a direction may turn before a grown polytope's witness point
 * may move to another vertex (see unique_witness) */
#define LONE_SLOPE 1e-3
#define CROSSING_SIN2 0.04  /* edges crossing at less than asin(0.2) count as parallel */

/* the part of c (a mesh or a box) farthest along dir when it stands alone for directions within
 * asin(LONE_SLOPE) of dir: 1 a vertex, 2 an edge (its direction in world frame in edge), 0 else */
static int lone_part(const gsConvex* c, const gsReal dir[3], gsReal edge[3]) {
  gsReal u[3], e[3] = {0, 0, 0};
  gs_mulMatTVec3(u, c->mat, dir);
  int kind = 0;
  if (c->type == GS_GEOM_BOX) {  /* the edges at a box vertex fall at the rates |u_i| / |u| */
    gsReal n = gs_norm3(u) * LONE_SLOPE;
    int level = 0, axis = 0;
    for (int i = 0; i < 3; i++)
      if (!(fabs(u[i]) > n)) level++, axis = i;
    kind = level == 0 ? 1 : level == 1 ? 2 : 0;
    e[axis] = 1;
  } else if (c->type == GS_GEOM_MESH && c->graph && c->hint) {
    int ends[2];
    kind = gs_meshSupportFeature(c->vert, c->graph, u, c->hint, LONE_SLOPE, ends);
    if (kind == 2) gs_sub3(e, c->vert + 3 * ends[1], c->vert + 3 * ends[0]);
  }
  if (kind == 2) gs_mulMatVec3(edge, c->mat, e);
  return kind;
}

/* Two polytopes apart by d, A grown by a radius r > d (see gs_collideConvex): the grown pair
 * overlaps by r - d along the pair's normal n, exactly (the nearest point of the difference, pushed
 * out by r). Its witness points are not unique where faces or parallel edges face each other,
 * and there EPA on the grown pair picks them; where the farthest point of A along n or of B along
 * -n is a lone vertex, or both are lone edges that cross, they are unique: the pair's own witness
 * points (A's moved out by r), which the grown pair's EPA only approaches, its final face's
 * vertices coming from directions within ~sqrt(2 tol / r) of n, where those supports are the
 * vertex or the edges (LONE_SLOPE), so that it stops within ~sqrt(2 r tol) of them (1e-8 for a
 * 1 mm margin; crossing edges: that over the sine of their angle). */
static int unique_witness(const gsConvex* A, const gsConvex* B, const gsReal n[3]) {
  gsReal nb[3] = {-n[0], -n[1], -n[2]}, ea[3], eb[3], x[3];
  int ka = lone_part(A, n, ea);
  if (ka == 1) return 1;
  int kb = lone_part(B, nb, eb);
  if (kb == 1) return 1;
  if (ka != 2 || kb != 2) return 0;
  /* two crossing edges: the points are unique too, the expansion's error grown by 1 / sin of
   * their angle (kept at most ~5) */
  gs_cross(x, ea, eb);
  return gs_dot3(x, x) > CROSSING_SIN2 * gs_dot3(ea, ea) * gs_dot3(eb, eb);
}

int gs_convexDistance(const gsConvex* A0, const gsConvex* B0, gsReal cutoff, gsReal tol, int maxiter,
                      gsReal* dist, gsReal pa[3], gsReal pb[3], gsReal normal[3]) {
  /* the successive directions of GJK and EPA are close: a mesh's support climb starts where the
   * previous one of this query ended (the caller's hint where it keeps one) */
  gsConvex a = *A0, b = *B0;
  int ha = -1, hb = -1;
  if (!a.hint) a.hint = &ha;
  if (!b.hint) b.hint = &hb;
  const gsConvex *A = &a, *B = &b;
  gsReal r = A->radius + B->radius;
  if (!core_distance(A, B, cutoff + r, tol, maxiter, dist, pa, pb, normal)) return 0;
  *dist -= r;
  gs_addScl3(pa, pa, normal, A->radius);
  gs_addScl3(pb, pb, normal, -B->radius);
  return *dist < cutoff;
}

/* ---------------- the pair function ---------------- */

/* flat-faced shapes: meshes and boxes, not swept by a radius */
static int polytope(const gsConvex* c) {
  return !c->support && c->radius == 0 && (c->type == GS_GEOM_MESH || c->type == GS_GEOM_BOX);
}

int gs_collideConvex(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2, gsReal margin) {
  if (m->opt.disableflags & GS_DSBL_NATIVECCD) return gs_collideConvexMPR(m, d, con, g1, g2, margin);
  /* geoms whose centres coincide to the bit: MJCF's GJK starts from the centres' difference and
   * reports no contact there (measured for every pair this function takes, meshes and multiccd
   * included; 1e-9 apart, both report the contact; the older pipeline's portal does not do
   * this): none here either */
  const gsReal *x1 = d->geom_xpos + 3 * g1, *x2 = d->geom_xpos + 3 * g2;
  if (x1[0] == x2[0] && x1[1] == x2[1] && x1[2] == x2[2]) return 0;
  gsConvex a, b;
  gsReal tol, dist, pa[3], pb[3], nrm[3];
  int maxiter;
  int ha = -1, hb = -1;  /* the mesh climbs of both queries start where the last one ended */
  gs_convexFromGeom(&a, m, d, g1);
  gs_convexFromGeom(&b, m, d, g2);
  a.hint = &ha, b.hint = &hb;
  gs_convexSettings(m, &tol, &maxiter);
  /* (a contact means dist < margin) */
  if (!gs_convexDistance(&a, &b, margin, tol, maxiter, &dist, pa, pb, nrm)) return 0;
  if (dist > 0 && polytope(&a) && polytope(&b) && !unique_witness(&a, &b, nrm)) {
    /* Two polytopes apart within a positive margin: MJCF grows the first by the margin (a
     * rounded polytope) and takes the penetration of the grown pair, then moves its witness
     * back by the margin. Where flat faces face each other the closest points are not unique
     * and this decides which are reported: measured against MuJoCo 3.3.7 on mesh boxes and
     * random hulls apart within the margin (tests/python/test_collision_robots.py), its contact
     * points are EPA's on the grown pair, not GJK's on the pair itself, and move with the
     * margin (where the witness points are unique, the pair's own are the grown pair's:
     * unique_witness). Penetrating pairs keep the exact query: the grown pair's EPA, on a
     * curved shape, stops ~1e-8 short of the depth, where MuJoCo's (converged settings) does
     * not. */
    gsConvex grown = a;
    gsReal gdist, ga[3], gb[3], gn[3];
    grown.inflate = margin;
    if (gs_convexDistance(&grown, &b, 0, tol, maxiter, &gdist, ga, gb, gn)) {
      gs_addScl3(pa, ga, gn, -margin);
      gs_copy3(pb, gb);
      gs_copy3(nrm, gn);
      dist = gdist + margin;
    }
  }
  gsReal pos[3];
  gs_add3(pos, pa, pb);
  gs_scl3(pos, pos, 0.5);
  gs_pairSet(con, dist, pos, nrm);
  return 1;
}
