/* General convex-convex collision as MJCF's native pipeline runs it: GJK on the Minkowski
 * difference A - B of the geoms' support functions, then EPA where the geoms overlap. Every rule
 * below was measured against MuJoCo 3.3.7 with mj_geomDistance and the contacts, one iteration at
 * a time (ccd_iterations 1, 2, ...), and gauss follows it step by step: the same iterates, the
 * same polytope, the same stopping point at the model's ccd_tolerance and ccd_iterations
 * (tests/python/test_collision_ccd_steps.py). In short:
 * - GJK is Gilbert-Johnson-Keerthi's closest-point iteration from the centres' difference; it
 *   stops when the duality gap |x|^2 - x.s is at most tol^2 / 2, and where it runs out of
 *   iterations it reports the iterate before the last one.
 * - Without a margin (a contact test, cutoff 0) GJK only decides overlap: its tetrahedron test
 *   takes the winding of the simplex as it comes (see boolean_tetra), so about half of the
 *   tetrahedra holding the origin are first stepped past, which changes EPA's start.
 * - Where the overlap test meets the origin on its segment (centres offset exactly along an axis
 *   of both geoms), EPA starts from a double pyramid over the segment (bipyramid); an origin met
 *   on the last allowed iteration is no overlap.
 * - EPA expands the polytope's nearest face until the least support value seen is within tol of
 *   it, and answers with that face: its depth converges like tol, its normal like sqrt(tol).
 * - Spheres and capsules run GJK on their cores (a point, a segment); where the cores come
 *   within tol, both run again as whole shapes. A margin grows both geoms by half of it.
 * - Two polytopes (no margin: a margin grows them into curved shapes) run with a tolerance of
 *   0, EPA until its support point is one of its vertices already (core_distance, known_vertex).
 * All work is on the C stack (no heap, no arena). */
#include <math.h>
#include <string.h>

#include "collision/convex.h"
#include "collision/mesh.h"
#include "collision/pair_util.h"

#define EPA_MAXV 512              /* polytope vertices */
#define EPA_MAXF (2 * EPA_MAXV)   /* polytope faces (a closed triangulation has 2V - 4) */

/* ---------------- support functions ---------------- */

/* support point in local coordinates, u: local direction */
static inline __attribute__((always_inline)) void support_local(gsReal r[3], int type,
                                                                const gsReal* s, const gsReal u[3]) {
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

/* (inlined into GJK's and EPA's support of A - B: the two support points of an iteration then
 * overlap, their divisions and square roots not waiting on each other's) */
static inline __attribute__((always_inline)) void support_point(gsReal r[3], const gsConvex* c,
                                                                const gsReal dir[3]) {
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
                               : c->hint ? gs_meshSupportWalk(c->vert, c->graph, c->cells, u, c->hint)
                                         : gs_meshSupportVertex(c->vert, c->graph, c->cells, u)));
  else support_local(p, c->type, c->size, u);
  gs_mulMatVec3(r, c->mat, p);
  gs_add3(r, r, c->pos);
  if (c->inflate > 0) {
    gsReal n = gs_norm3(dir);
    if (n > 0) gs_addScl3(r, r, dir, c->inflate / n);
  }
}

void gs_convexSupport(gsReal r[3], const gsConvex* c, const gsReal dir[3]) {
  support_point(r, c, dir);
}

void gs_convexSettings(const gsModel* m, gsReal* tol, int* maxiter) {
  /* the model's own: MJCF's answers depend on both (at the defaults, 1e-6 and 35, EPA's normal
   * on curved shapes is ~1e-3 from the exact one, and so is MuJoCo's) */
  *tol = m->opt.ccd_tolerance;
  int it = m->opt.ccd_iterations;
  /* (EPA's polytope, on the stack, bounds its own iterations: see epa) */
  *maxiter = it < 0 ? 0 : it;
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
  support_point(v->a, A, dir);
  support_point(v->b, B, nd);
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

/* a polytope as it stands: a box, a mesh's hull or a shape of its own support function (a height
 * field's prism), not rounded or grown */
static int polytope(const gsConvex* c) {
  return (c->type == GS_GEOM_BOX || c->type == GS_GEOM_MESH || c->support) && c->radius == 0 &&
         c->inflate == 0;
}

/* whether support point w is one the polytope V[0..nv) already has, as MJCF tells it for two
 * polytopes: by the geoms' vertices, each side's point equal to the same vertex's; a shape of its
 * own support function (a height field's prism) names no vertex of its own, so there the other
 * side's vertex alone decides (measured: MuJoCo's contacts of height fields with boxes and meshes
 * are EPA's nearest face where the box's or mesh's vertex comes again, whatever the prism's: of
 * test_collision_hfield.py's random poses 265 of 272 box contacts and 113 of 113 mesh contacts,
 * 31 and 9 with EPA run to the end; see pair_hfield.c) */
static int known_vertex(const gsConvex* A, const gsConvex* B, const Vert* V, int nv, const Vert* w) {
  for (int i = 0; i < nv; i++) {
    const gsReal *a = V[i].a, *b = V[i].b;
    if ((A->support || (a[0] == w->a[0] && a[1] == w->a[1] && a[2] == w->a[2])) &&
        (B->support || (b[0] == w->b[0] && b[1] == w->b[1] && b[2] == w->b[2])))
      return 1;
  }
  return 0;
}

/* A face of the polytope. Its neighbours are kept so that the faces a new vertex sees are found by
 * walking from the face being expanded (they form a connected cap), not by testing every face. */
typedef struct {
  int v[3];       /* counter-clockwise seen from outside */
  int adj[3];     /* the face across edge (v[k], v[k+1]) */
  int adje[3];    /* that edge's index in the face across */
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

/* EPA from the tetrahedron s (holding the origin, or one GJK left just outside it: the first
 * expansions then carry the polytope over the origin). Each iteration takes the nearest face,
 * adds the support point along its normal and replaces the faces that point sees by the cone
 * from it over their horizon. It stops when the least support value seen is within tol of the
 * nearest face (or when the iterations run out) and answers with that face: depth, normal, and
 * the witness points of the origin's projection on it. Returns 0 on a degenerate polytope. */
static int epa(const gsConvex* A, const gsConvex* B, const Vert* s, int ns, gsReal tol, int maxiter,
               int polytopes, gsReal* depth, gsReal pa[3], gsReal pb[3], gsReal normal[3]) {
  Vert V[EPA_MAXV];
  Face F[EPA_MAXF];
  /* face distances, +inf for removed faces and the three past the last: the search for the
   * nearest, four at a time */
  gsReal fdist[EPA_MAXF + 3];
  int freeList[EPA_MAXF], nfree = 0;
  /* the horizon edges starting and ending at a vertex, valid where stamp[v] is the iteration's
   * (one loop through the horizon then links the new faces to their neighbours) */
  int hstart[EPA_MAXV], hend[EPA_MAXV], stamp[EPA_MAXV];
  int nv = ns, nf;
  memcpy(V, s, (size_t)ns * sizeof(Vert));
  if (ns == 4) {
    /* orient the tetrahedron: the fourth vertex must be behind face (0, 1, 2) */
    if (tet_volume(V[0].w, V[1].w, V[2].w, V[3].w) > 0) {
      Vert t = V[1];
      V[1] = V[2];
      V[2] = t;
    }
    /* its faces, and across each edge (v[k], v[k+1]) the face holding (v[k+1], v[k]) */
    static const int tet[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
    static const int tadj[4][3] = {{1, 3, 2}, {2, 3, 0}, {0, 3, 1}, {1, 2, 0}};
    static const int tadje[4][3] = {{2, 2, 0}, {2, 0, 0}, {2, 1, 0}, {1, 1, 1}};
    for (int i = 0; i < 4; i++) {
      if (!make_face(&F[i], V, tet[i][0], tet[i][1], tet[i][2])) return 0;
      fdist[i] = F[i].dist;
      for (int k = 0; k < 3; k++) F[i].adj[k] = tadj[i][k], F[i].adje[k] = tadje[i][k];
    }
    nf = 4;
  } else {
    /* the double pyramid over a segment holding the origin (bipyramid): apexes s0 and s1, the
     * ring s2, s3, s4 counter-clockwise about s0 - s1 */
    static const int bip[6][3] = {{0, 2, 3}, {0, 3, 4}, {0, 4, 2}, {1, 3, 2}, {1, 4, 3}, {1, 2, 4}};
    for (int i = 0; i < 6; i++) {
      if (!make_face(&F[i], V, bip[i][0], bip[i][1], bip[i][2])) return 0;
      fdist[i] = F[i].dist;
    }
    for (int i = 0; i < 6; i++)
      for (int k = 0; k < 3; k++) {
        int a = F[i].v[k], b = F[i].v[(k + 1) % 3];
        F[i].adj[k] = -1;
        for (int j = 0; j < 6; j++)
          for (int l = 0; l < 3; l++)
            if (F[j].v[l] == b && F[j].v[(l + 1) % 3] == a) F[i].adj[k] = j, F[i].adje[k] = l;
        if (F[i].adj[k] < 0) return 0;
      }
    nf = 6;
  }
  for (int i = 0; i < nv; i++) stamp[i] = -1;

  int found = 0;
  Face result;                /* the face answering so far (faces are recycled: kept as a copy) */
  memset(&result, 0, sizeof result);
  gsReal upper = INFINITY;    /* the least support value seen: an upper bound of the depth */
  gsReal lower = -INFINITY;   /* the largest nearest distance seen, and iterations since it grew */
  int stall = 0;
  for (int it = 0; it < maxiter; it++) {
    /* the nearest face: the least distance first (four running minima: no chain of dependent
     * comparisons), then the first face holding it */
    fdist[nf] = fdist[nf + 1] = fdist[nf + 2] = INFINITY;
    gsReal m0 = fdist[0], m1 = fdist[1], m2 = fdist[2], m3 = fdist[3];
    for (int f = 4; f < nf; f += 4) {
      m0 = fdist[f] < m0 ? fdist[f] : m0;
      m1 = fdist[f + 1] < m1 ? fdist[f + 1] : m1;
      m2 = fdist[f + 2] < m2 ? fdist[f + 2] : m2;
      m3 = fdist[f + 3] < m3 ? fdist[f + 3] : m3;
    }
    m0 = m1 < m0 ? m1 : m0, m2 = m3 < m2 ? m3 : m2;
    gsReal nearest = m2 < m0 ? m2 : m0;
    int best = 0;
    while (fdist[best] != nearest) best++;
    /* safeguards for rounding, not met where MJCF converges: a polytope broken by rounding (its
     * nearest face drops) keeps the last answer; one cycling at rounding level stops */
    if (found && nearest < result.dist - 1e-10) break;
    if (nearest > lower + 0.01 * tol) lower = nearest, stall = 0;
    else if (++stall > 16) break;
    result = F[best];
    found = 1;
    Vert w;
    support_ab(&w, A, B, F[best].n);
    /* two polytopes stop where no support point is new (a face through the origin to rounding
     * is no answer: a box flush on a flat height field, where MJCF goes on to the box's depth) */
    if (polytopes && nearest > 1e-12 * gs_norm3(w.w) && known_vertex(A, B, V, nv, &w)) break;
    gsReal dw = gs_dot3(F[best].n, w.w);
    if (dw < upper) upper = dw;
    if (upper - nearest <= tol) break;
    if (nv == EPA_MAXV) break;

    /* the faces that see w: a connected cap around the best face, found by walking across
     * edges; the edges where it meets the faces that do not see w form the horizon */
    int stack[EPA_MAXF], nstack = 0, gone[EPA_MAXF], ngone = 0;
    int hor[EPA_MAXF][4], nh = 0;  /* horizon edge (a, b) of a removed face, the face across and
                                    * the edge's index there */
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
          hor[nh][3] = F[f].adje[k];
          nh++;
        }
      }
    }
    /* a horizon edge may have been recorded from a face removed later through another path:
     * keep only the edges whose face across still stands */
    int m = 0;
    for (int e = 0; e < nh; e++)
      if (fdist[hor[e][2]] != INFINITY) memcpy(hor[m++], hor[e], sizeof hor[e]);
    nh = m;
    if (nh < 3) break;
    /* the horizon must be one simple loop: no vertex starting or ending two of its edges */
    int simple = 1;
    for (int e = 0; e < nh; e++) {
      int a = hor[e][0], b = hor[e][1];
      if (stamp[a] == it && hstart[a] >= 0) simple = 0;
      if (stamp[b] == it && hend[b] >= 0) simple = 0;
      if (stamp[a] != it) stamp[a] = it, hend[a] = -1;
      if (stamp[b] != it) stamp[b] = it, hstart[b] = -1;
      hstart[a] = e, hend[b] = e;
    }
    for (int i = 0; i < ngone; i++) freeList[nfree++] = gone[i];
    if (nf - nfree + nh > EPA_MAXF) break;

    /* the cone from w over the horizon */
    V[nv] = w, stamp[nv] = -1;
    if (!simple) break;
    /* the faces' normals as make_face has them, in passes: the square roots and reciprocals of
     * all new faces then run side by side, two to an instruction */
    gsReal cn[EPA_MAXF][3], len[EPA_MAXF];
    for (int e = 0; e < nh; e++) {
      gsReal e1[3], e2[3];
      gs_sub3(e1, V[hor[e][1]].w, V[hor[e][0]].w);
      gs_sub3(e2, w.w, V[hor[e][0]].w);
      gs_cross(cn[e], e1, e2);
      len[e] = gs_dot3(cn[e], cn[e]);
    }
    for (int e = 0; e < nh; e++) len[e] = sqrt(len[e]);
    int ok = 1;
    for (int e = 0; e < nh; e++) ok &= len[e] > 0 && len[e] < INFINITY;  /* as make_face */
    if (!ok) break;
    for (int e = 0; e < nh; e++) len[e] = 1 / len[e];
    int made[EPA_MAXF];
    for (int e = 0; e < nh; e++) {
      int f = nfree > 0 ? freeList[--nfree] : nf++;
      made[e] = f;
      Face* fc = &F[f];
      fc->v[0] = hor[e][0], fc->v[1] = hor[e][1], fc->v[2] = nv;
      gs_scl3(fc->n, cn[e], len[e]);
      fc->dist = fdist[f] = gs_dot3(fc->n, V[hor[e][0]].w);
      int g = hor[e][2], k = hor[e][3];
      F[g].adj[k] = f, F[g].adje[k] = 0;
      fc->adj[0] = g, fc->adje[0] = k;
    }
    nv++;
    /* new face (a, b, w): across (b, w) is the new face over the horizon edge starting at b,
     * across (w, a) the one ending at a */
    for (int e = 0; e < nh && ok; e++) {
      int next = hstart[hor[e][1]], prev = hend[hor[e][0]];
      if (stamp[hor[e][1]] != it || stamp[hor[e][0]] != it || next < 0 || prev < 0) ok = 0;
      else {
        Face* f = &F[made[e]];
        f->adj[1] = made[next], f->adje[1] = 2;
        f->adj[2] = made[prev], f->adje[2] = 1;
      }
    }
    if (!ok) break;
  }
  if (!found) return 0;
  gsReal lam[3], tot = face_weights(&result, V, lam);
  if (!(tot != 0)) return 0;
  face_result(&result, V, lam, tot, depth, pa, pb, normal);
  return 1;
}

/* ---------------- GJK ---------------- */

/* fallback normal of degenerate cases: from A's centre towards B's, or (1,0,0) where they coincide */
static void centre_normal(gsReal normal[3], const gsConvex* A, const gsConvex* B) {
  gs_sub3(normal, B->pos, A->pos);
  if (gs_normalize3(normal) == 0) normal[0] = 1, normal[1] = normal[2] = 0;
}

static gsReal shape_scale(const gsConvex* A, const gsConvex* B, const gsReal a[3], const gsReal b[3]) {
  gsReal da[3], db[3];
  gs_sub3(da, a, A->pos);
  gs_sub3(db, b, B->pos);
  return gs_norm3(da) + gs_norm3(db);
}

/* MJCF's tetrahedron step of GJK without a margin (an overlap test). The faces holding the
 * newest vertex s[3] get the normals they would have if det(s1 - s0, s2 - s0, s3 - s0) were
 * positive; where it is negative all point inwards, and a tetrahedron holding the origin looks
 * as if the origin were in front of every face. Of the faces the origin is in front of, the one
 * it is farthest from is kept whole (Muratori's vertex order: the winding stays positive) and
 * the search goes along its normal, towards the origin's side. Measured on 384 random ellipsoid
 * pairs and 50 cylinder-box pairs: the choice and the order reproduce MuJoCo's iterates in all.
 * Returns 1 when the origin is inside as tested; where it is not but really is, the tetrahedron
 * is copied to held and *hold set. */
static int boolean_tetra(Vert* s, int* n, gsReal v[3], Vert held[4], int* hold) {
  /* the faces opposite s0, s1, s2, their vertices in the order kept */
  static const int keep[3][3] = {{1, 2, 3}, {2, 0, 3}, {0, 1, 3}};
  gsReal det = tet_volume(s[0].w, s[1].w, s[2].w, s[3].w);
  int best = -1, truly = 1;
  gsReal bestd = 0, bestn[3] = {0, 0, 0};
  for (int j = 0; j < 3; j++) {
    const gsReal *a = s[keep[j][0]].w, *b = s[keep[j][1]].w, *c = s[keep[j][2]].w, *o = s[j].w;
    gsReal e1[3], e2[3], nn[3];
    gs_sub3(e1, b, a), gs_sub3(e2, c, a);
    gs_cross(nn, e1, e2);
    if (gs_dot3(nn, o) - gs_dot3(nn, a) > 0) gs_scl3(nn, nn, -1);  /* the true outward normal */
    if (gs_dot3(nn, a) < 0) truly = 0;
    if (det < 0) gs_scl3(nn, nn, -1);                               /* the winding assumed */
    gsReal front = -gs_dot3(nn, a);
    if (front > 0) {
      front /= gs_norm3(nn);
      if (best < 0 || front > bestd) best = j, bestd = front, gs_copy3(bestn, nn);
    }
  }
  if (best < 0) return 1;
  /* the face opposite s3 does not bound the test above; it does bound the true one */
  gsReal e1[3], e2[3], nn[3];
  gs_sub3(e1, s[1].w, s[0].w), gs_sub3(e2, s[2].w, s[0].w);
  gs_cross(nn, e1, e2);
  if (gs_dot3(nn, s[3].w) - gs_dot3(nn, s[0].w) > 0) gs_scl3(nn, nn, -1);
  if (gs_dot3(nn, s[0].w) < 0) truly = 0;
  if (truly) memcpy(held, s, 4 * sizeof(Vert)), *hold = 1;
  Vert f[3] = {s[keep[best][0]], s[keep[best][1]], s[keep[best][2]]};
  s[0] = f[0], s[1] = f[1], s[2] = f[2];
  *n = 3;
  gs_normalize3(bestn);
  gs_scl3(v, bestn, gs_dot3(bestn, s[0].w));  /* the origin's projection on the face's plane */
  return 0;
}

/* s[2], s[3], s[4]: the support points about segment s[0] s[1] that make it MJCF's double
 * pyramid (see core_distance); 0 where the segment has no length */
static int bipyramid(const gsConvex* A, const gsConvex* B, Vert* s) {
  static const gsReal axes[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  gsReal e[3], u[3], d0[3];
  gs_sub3(e, s[1].w, s[0].w);
  gs_scl3(u, e, -1);
  if (!(gs_dot3(e, e) > 0)) return 0;
  int k = fabs(e[1]) < fabs(e[0]) ? 1 : 0;
  if (fabs(e[2]) < fabs(e[k])) k = 2;
  gs_cross(d0, axes[k], e);
  gs_normalize3(d0);
  gs_normalize3(u);
  support_ab(&s[2], A, B, d0);
  for (int i = 1; i < 3; i++) {
    gsReal q[4], d[3];
    gs_axisAngle2Quat(q, u, i * (2 * 3.14159265358979323846 / 3));
    gs_rotVecQuat(d, d0, q);
    support_ab(&s[2 + i], A, B, d);
  }
  return 1;
}

/* gs_convexDistance on the cores. *capped: whether GJK ran out of iterations (its answer is then
 * the iterate before the last one, as MJCF reports it). Two polytopes run to the end whatever
 * ccd_tolerance says, as in MJCF (measured: mj_geomDistance and the contacts of random mesh-mesh,
 * box-mesh and height field-box or -mesh pairs are the same to the bit at ccd_tolerance 1e-3 and
 * 1e-12, where a curved pair, or the same polytopes grown by a margin, move by up to 1e-3): here
 * a tolerance of 0, EPA stopping where no support point is new (known_vertex). It decides flush
 * faces, where EPA's faces part by less than the tolerance: MuJoCo's model/cube/cube_3x3x3.xml
 * at its own settings. */
static int core_distance(const gsConvex* A, const gsConvex* B, gsReal cutoff, gsReal tol, int maxiter,
                        int cores, gsReal* dist, gsReal pa[3], gsReal pb[3], gsReal normal[3],
                        int* capped) {
  Vert s[5], held[4];
  int n = 0, hold = 0, inside = 0, onlast = 0;
  gsReal v[3], vprev[3], stale = -1;
  gs_sub3(v, A->pos, B->pos);
  if (gs_dot3(v, v) == 0) v[0] = 1;
  int overlap_test = cutoff == 0;  /* no margin: MJCF's GJK only decides overlap */
  int polytopes = polytope(A) && polytope(B);
  if (polytopes) tol = 0;
  gsReal eps = 0.5 * tol * tol;
  *capped = 1;
  for (int it = 0; it < maxiter; it++) {
    gs_copy3(vprev, v);
    gsReal vv = gs_dot3(v, v), dir[3] = {-v[0], -v[1], -v[2]};
    if (!isfinite(vv)) return 0;  /* non-finite poses or sizes: no contact rather than a spin */
    Vert w;
    support_ab(&w, A, B, dir);
    gsReal vw = gs_dot3(v, w.w);
    /* (the norm only where a margin or the duality gap asks for it: an overlap test has none) */
    gsReal nv = overlap_test ? 0 : sqrt(vv);
    if (vw > cutoff * nv) return 0;  /* a separating plane at least cutoff apart */
    /* converged: the duality gap within tol^2 / 2 (an overlap test has no such stop) */
    if (!overlap_test && n > 0 && nv * nv - vw <= eps) {
      *capped = 0;
      break;
    }
    int dup = 0;
    for (int i = 0; i < n; i++)
      if (s[i].w[0] == w.w[0] && s[i].w[1] == w.w[1] && s[i].w[2] == w.w[2]) dup = 1;
    if (dup) {  /* no progress at rounding level */
      *capped = 0;
      break;
    }
    s[n++] = w;
    if (n == 4 && overlap_test) {
      /* a tetrahedron that holds the origin but is stepped past is kept in held: where the
       * iterations run out before the next one is found, EPA starts from it (as MJCF does) */
      if (boolean_tetra(s, &n, v, held, &hold)) {
        inside = 1, *capped = 0;
        break;
      }
    } else {
      gsReal lam[4], vnew[3];
      if (closest_simplex(s, n, lam, vnew)) {
        inside = 1, *capped = 0;
        break;
      }
      if (n > 1 && gs_dot3(vnew, vnew) >= gs_dot3(v, v)) {
        /* no progress: the distance did not decrease (rounding level). Below the tolerances
         * doubles resolve (gap <= tol^2 / 2 at tol 1e-13) GJK would otherwise wander on
         * rounding until its iterations run out (measured: capsules on a height field 8e-2 off
         * at 2000 iterations, where MuJoCo stops) */
        n--;
        *capped = 0;
        break;
      }
      gs_copy3(v, vnew);
      reduce_simplex(s, &n, lam);
      if (gs_dot3(v, v) < 1e-26) {  /* the origin is on the simplex */
        *capped = 0;
        onlast = it == maxiter - 1;
        break;
      }
    }
    if (it == maxiter - 1) stale = gs_norm3(vprev);
  }
  if (!inside && *capped && hold) memcpy(s, held, sizeof held), n = 4, inside = 1;

  if (cores && (inside || gs_dot3(v, v) < 1e-26)) {
    /* rounded shapes whose cores overlap or touch: the caller runs them again whole */
    *dist = 0;
    return 1;
  }
  int ns = 4;
  if (!inside && overlap_test && gs_dot3(v, v) < 1e-26) {
    /* the origin on a vertex, edge or face of the simplex, found at GJK's last iteration: MJCF
     * decides this at the iteration after, so with none left there is no overlap (measured:
     * geoms whose centres are offset exactly along an axis of both, ccd_iterations 2 and 3) */
    if (onlast) return 0;
    /* on a segment (those centres' offset): MJCF's double pyramid, the segment's ends and three
     * support points about it a third of a turn apart (bipyramid), the first along a x e (e
     * from the first end to the second, a the axis of e's least component, the first of ties),
     * turning about the segment towards its first end; measured on such pairs one EPA iteration
     * at a time, tests/python/test_collision_ccd_steps.py::test_aligned_centres */
    if (n == 2 && bipyramid(A, B, s)) ns = 5, inside = 1;
  }
  if (!inside && gs_dot3(v, v) < 1e-26) {
    /* touching or overlapping with the origin on a vertex, edge or face: grow the simplex into a
     * tetrahedron for EPA */
    n = complete_simplex(A, B, s, n);
    if (n < 4) {  /* flat difference: report contact at distance zero */
      *dist = 0;
      witness(s, n < 3 ? n : 3, pa, pb);
      centre_normal(normal, A, B);
      return 0 < cutoff;
    }
    inside = 1;
  }

  if (!inside) {
    /* out of iterations: MJCF reports the norm of the iterate before the last one, with the
     * last one's witness points and direction */
    gsReal d = stale >= 0 ? stale : gs_norm3(v);
    if (d >= cutoff) return 0;
    witness(s, n, pa, pb);
    *dist = d;
    gs_copy3(normal, v);
    gs_scl3(normal, normal, -1 / gs_norm3(v));
    return 1;
  }

  gsReal depth;
  int ok = epa(A, B, s, ns, tol, maxiter, polytopes, &depth, pa, pb, normal);
  /* a flat double pyramid (a shape without extent across the segment): the tetrahedron instead */
  if (!ok && ns == 5 && complete_simplex(A, B, s, 2) == 4)
    ok = epa(A, B, s, 4, tol, maxiter, polytopes, &depth, pa, pb, normal);
  if (!ok) {
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

/* Spheres and capsules (rounded: a core swept by a radius) run GJK on their cores first, with
 * the other geom grown by `grow`; where the cores overlap or come within tol of each other
 * (MJCF's rule, measured: a sphere's centre inside an ellipsoid, or a GJK step that finds a
 * tetrahedron holding the origin), the caller runs the whole shapes instead. Returns 0 when the
 * cores are at least `cutoff` apart, 1 with *whole set when the whole shapes are to be run, else
 * 1 with the distance of the rounded shapes (the grown one's growth taken off again). */
static int rounded_cores(gsConvex* a, gsConvex* b, gsReal grow, gsReal cutoff, gsReal tol, int maxiter,
                         gsReal* dist, gsReal pa[3], gsReal pb[3], gsReal normal[3], int* whole) {
  gsReal ga = a->radius > 0 ? 0 : grow, gb = b->radius > 0 ? 0 : grow, r = a->radius + b->radius;
  int capped;
  a->inflate += ga, b->inflate += gb;
  int found = core_distance(a, b, cutoff + r - ga - gb, tol, maxiter, 1, dist, pa, pb, normal, &capped);
  a->inflate -= ga, b->inflate -= gb;
  if (!found) return 0;
  /* (where GJK ran out of iterations on the cores, their answer stands) */
  *whole = *dist <= tol && !capped;
  if (*whole) return 1;
  *dist += ga + gb - r;
  gs_addScl3(pa, pa, normal, a->radius - ga);
  gs_addScl3(pb, pb, normal, gb - b->radius);
  return 1;
}

/* a and b made ready for a search on the whole shapes: mesh climbs given a hint where the
 * caller keeps none, and where either is rounded, its core searched first (rounded_cores, the
 * other geom grown by grow); *done where the cores' answer stands, else the radii are moved into
 * the inflation. Returns 0 where the cores' search failed. */
static int cores_first(gsConvex* a, gsConvex* b, int* ha, int* hb, gsReal grow, gsReal cutoff,
                       gsReal tol, int maxiter, gsReal* dist, gsReal pa[3], gsReal pb[3],
                       gsReal normal[3], int* done) {
  int whole = 1;
  if (!a->hint) a->hint = ha;
  if (!b->hint) b->hint = hb;
  *done = 0;
  if (a->radius + b->radius > 0) {
    if (!rounded_cores(a, b, grow, cutoff, tol, maxiter, dist, pa, pb, normal, &whole)) return 0;
    *done = !whole;
    if (*done) return 1;
    a->inflate += a->radius, b->inflate += b->radius;
    a->radius = b->radius = 0;
  }
  return 1;
}

int gs_convexDistance(const gsConvex* A0, const gsConvex* B0, gsReal cutoff, gsReal tol, int maxiter,
                      gsReal* dist, gsReal pa[3], gsReal pb[3], gsReal normal[3]) {
  /* the successive directions of GJK and EPA are close: a mesh's support climb starts where the
   * previous one of this query ended (the caller's hint where it keeps one) */
  gsConvex a = *A0, b = *B0;
  int ha = -1, hb = -1, capped, done;
  if (!cores_first(&a, &b, &ha, &hb, 0, cutoff, tol, maxiter, dist, pa, pb, normal, &done)) return 0;
  if (done) return *dist < cutoff;
  return core_distance(&a, &b, cutoff, tol, maxiter, 0, dist, pa, pb, normal, &capped) &&
         *dist < cutoff;
}

int gs_convexContact(const gsConvex* A, const gsConvex* B, gsReal margin, gsReal tol, int maxiter,
                     gsReal* dist, gsReal pa[3], gsReal pb[3], gsReal normal[3]) {
  gsConvex a = *A, b = *B;
  int ha = -1, hb = -1, capped, done;
  gsReal half = margin > 0 ? margin / 2 : 0;
  /* rounded shapes: the cores as they are, the other geom grown by its half of the margin
   * (measured: MJCF's iterates then agree to the bit); the margin bounds the search */
  if (!cores_first(&a, &b, &ha, &hb, half, 2 * half, tol, maxiter, dist, pa, pb, normal, &done))
    return 0;
  if (done) return *dist < margin;
  /* the overlap of the pair grown by half the margin each (measured on ellipsoids, cylinders and
   * boxes apart and overlapping within the margin), its witness points moved back */
  a.inflate += half, b.inflate += half;
  if (!core_distance(&a, &b, 0, tol, maxiter, 0, dist, pa, pb, normal, &capped)) return 0;
  gs_addScl3(pa, pa, normal, -half);
  gs_addScl3(pb, pb, normal, half);
  *dist += 2 * half;
  return *dist < margin;
}

/* ---------------- the pair function ---------------- */

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
  if (!gs_convexContact(&a, &b, margin, tol, maxiter, &dist, pa, pb, nrm)) return 0;
  gsReal pos[3];
  gs_add3(pos, pa, pb);
  gs_scl3(pos, pos, 0.5);
  gs_pairSet(con, dist, pos, nrm);
  return 1;
}
