/* Random pairs of convex geoms posed for both gauss and libccd, shared by the libccd benchmark
 * (bench/ccd_bench.c) and the agreement test (tests/c/test_libccd.c).
 *
 * One model holds two of each primitive (box, ellipsoid, cylinder) and NMESH meshes of 30 to 100
 * random points; a pair is two of its geoms with sizes written into geom_size and poses into
 * geom_xpos/geom_xmat, as the collision stage sees them. libccd gets support functions of the
 * same shapes written here from their definitions, not gauss's.
 *
 * The yardstick for penetration is pen(n) = h_a(n) + h_b(-n) (h: support function), how far b
 * must move along the unit direction n to clear a. It is the depth that any reported normal
 * really leaves, whatever depth a method reports with it. pen is the support function of the
 * Minkowski difference a - b, so its minimum over unit n is the signed distance from the origin
 * to that set's boundary: the penetration depth when the geoms overlap, minus the distance when
 * they are apart. */
#ifndef GAUSS_BENCH_CCD_PAIRS_H
#define GAUSS_BENCH_CCD_PAIRS_H

#include <ccd/ccd.h>
#include <libqhull_r/qhull_ra.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collision/convex.h"
#include "core/math.h"
#include "gauss/gauss.h"

#define NMESH 8
#define TWO_PI 6.283185307179586
enum { KIND_BE, KIND_EY, KIND_YY, KIND_BY, KIND_MM, KIND_MB, NKIND };
static const char* KIND_NAME[NKIND] = {"box-ellipsoid", "ellipsoid-cylinder", "cylinder-cylinder",
                                       "box-cylinder", "mesh-mesh", "mesh-box"};
/* geom ids in the model of pairs_model: box 0 1, ellipsoid 2 3, cylinder 4 5, meshes 6.. */
enum { G_BOX = 0, G_ELL = 2, G_CYL = 4, G_MESH = 6 };

/* ---- random numbers (xorshift64*: reproducible across platforms) ---- */
static double rng_next(unsigned long long* st) {
  *st ^= *st >> 12, *st ^= *st << 25, *st ^= *st >> 27;
  return (double)((*st * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}
/* the pairs' own stream: only the draws of pairs and models use it */
static unsigned long long pairs_rng = 88172645463325252ULL;
static double urand(void) { return rng_next(&pairs_rng); }
static double urange(double a, double b) { return a + (b - a) * urand(); }
static void unit_vec(double v[3]) {
  double n;
  do {
    for (int i = 0; i < 3; i++) v[i] = urange(-1, 1);
    n = gs_norm3(v);
  } while (n < 0.1 || n > 1);
  gs_scl3(v, v, 1 / n);
}

/* the model: meshes are points on random ellipsoids, pulled inwards by up to 30% so that some
 * of them are not hull vertices */
static gsModel* pairs_model(void) {
  size_t cap = 200000, len = 0;
  char* xml = malloc(cap);
  len += snprintf(xml + len, cap - len, "<mujoco><asset>");
  for (int k = 0; k < NMESH; k++) {
    int np = 30 + (int)(urand() * 71);
    double ax[3] = {urange(0.3, 0.9), urange(0.3, 0.9), urange(0.3, 0.9)};
    len += snprintf(xml + len, cap - len, "<mesh name='m%d' vertex='", k);
    for (int i = 0; i < np; i++) {
      double v[3], r = urange(0.7, 1);
      unit_vec(v);
      len += snprintf(xml + len, cap - len, "%.6f %.6f %.6f ", r * ax[0] * v[0], r * ax[1] * v[1],
                      r * ax[2] * v[2]);
    }
    len += snprintf(xml + len, cap - len, "'/>");
  }
  len += snprintf(xml + len, cap - len,
                  "</asset><worldbody><geom type='box' size='1 1 1'/><geom type='box' size='1 1 1'/>"
                  "<geom type='ellipsoid' size='1 1 1'/><geom type='ellipsoid' size='1 1 1'/>"
                  "<geom type='cylinder' size='1 1'/><geom type='cylinder' size='1 1'/>");
  for (int k = 0; k < NMESH; k++)
    len += snprintf(xml + len, cap - len, "<geom type='mesh' mesh='m%d'/>", k);
  snprintf(xml + len, cap - len, "</worldbody></mujoco>");
  char err[512] = "";
  gsModel* m = gs_loadXMLString(xml, err, sizeof(err));
  if (!m) fprintf(stderr, "pairs model: %s\n", err);
  free(xml);
  return m;
}

/* ---- the shapes for libccd ---- */
typedef struct {
  int type;
  double size[3], pos[3], mat[9];  /* mat: row-major, columns are the geom's axes */
  const gsReal* vert;              /* meshes: all vertices in the geom frame */
  int nvert;
} Shape;

static void shape_support_local(double r[3], const Shape* s, const double u[3]) {
  switch (s->type) {
    case GS_GEOM_BOX:
      for (int i = 0; i < 3; i++) r[i] = u[i] >= 0 ? s->size[i] : -s->size[i];
      return;
    case GS_GEOM_ELLIPSOID: {  /* Lagrange: x_i = a_i^2 u_i / |a o u| */
      double w[3] = {s->size[0] * u[0], s->size[1] * u[1], s->size[2] * u[2]};
      double n = gs_norm3(w);
      for (int i = 0; i < 3; i++) r[i] = n > 0 ? s->size[i] * w[i] / n : (i == 0 ? s->size[0] : 0);
      return;
    }
    case GS_GEOM_CYLINDER: {  /* the rim point farthest along u's radial part, on the cap facing u */
      double n = hypot(u[0], u[1]);
      r[0] = n > 0 ? s->size[0] * u[0] / n : s->size[0];
      r[1] = n > 0 ? s->size[0] * u[1] / n : 0;
      r[2] = u[2] >= 0 ? s->size[1] : -s->size[1];
      return;
    }
    default: {  /* mesh: the farthest of all its points */
      int best = 0;
      double bd = -INFINITY;
      for (int i = 0; i < s->nvert; i++) {
        const gsReal* v = s->vert + 3 * i;
        double dv = v[0] * u[0] + v[1] * u[1] + v[2] * u[2];
        if (dv > bd) bd = dv, best = i;
      }
      for (int i = 0; i < 3; i++) r[i] = s->vert[3 * best + i];
    }
  }
}

static void shape_support(double r[3], const Shape* s, const double dir[3]) {
  double u[3], rl[3];
  gs_mulMatTVec3(u, s->mat, dir);
  shape_support_local(rl, s, u);
  gs_mulMatVec3(r, s->mat, rl);
  gs_add3(r, r, s->pos);
}

static void ccd_support(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* vec) {
  shape_support(vec->v, (const Shape*)obj, dir->v);
}
static void ccd_center(const void* obj, ccd_vec3_t* center) {
  const Shape* s = obj;
  for (int i = 0; i < 3; i++) center->v[i] = s->pos[i];
}

/* h_a(n) + h_b(-n): the depth left along unit n (negative: the gap along n) */
static double pen_along(const Shape* a, const Shape* b, const double n[3]) {
  double pa[3], pb[3], mn[3];
  gs_scl3(mn, n, -1);
  shape_support(pa, a, n);
  shape_support(pb, b, mn);
  return gs_dot3(pa, n) - gs_dot3(pb, n);
}

/* ---- the reference search ----
 * It draws from its own stream, seeded by the caller (the pair's index), and starts only from
 * directions of its own, so that it answers the same on the same pair whatever the method under
 * test does. */

/* a crease axis of a shape: along one of its edges (box edges, a cylinder's side), where its
 * support point jumps from one end of the edge to the other as n crosses n . axis = 0 */
static int shape_creases(const Shape* s, double ax[3][3]) {
  int k = 0;
  for (int j = 0; j < 3; j++) {
    if (s->type != GS_GEOM_BOX && !(s->type == GS_GEOM_CYLINDER && j == 2)) continue;
    for (int i = 0; i < 3; i++) ax[k][i] = s->mat[3 * i + j];
    k++;
  }
  return k;
}

/* the directions of a shape's straight and curved edges at NRIM points of a rim: box edges and a
 * cylinder's side (its creases) and the tangents of a cylinder's two rim circles */
enum { NRIM = 24 };
static int shape_tangents(const Shape* s, double t[3 + NRIM][3]) {
  double ax[3][3];
  int k = shape_creases(s, ax);
  for (int j = 0; j < k; j++) gs_copy3(t[j], ax[j]);
  if (s->type == GS_GEOM_CYLINDER)
    for (int r = 0; r < NRIM; r++, k++) {
      double th = TWO_PI * r / NRIM, c = cos(th), sn = sin(th);
      for (int i = 0; i < 3; i++) t[k][i] = -sn * s->mat[3 * i] + c * s->mat[3 * i + 1];
    }
  return k;
}

/* a local search for the minimum of pen over the sphere from n: steps along 12 tangent
 * directions turned by a random angle each round (pen has creases on flat faces and edges, where
 * fixed axes can stall), halving the step when none improves; returns the least pen, n updated */
static double refine(const Shape* a, const Shape* b, double n[3], unsigned long long* rng) {
  double best = pen_along(a, b, n), step = 0.1;
  while (step > 1e-11) {
    double t1[3], t2[3], e[3] = {1, 0, 0};
    if (fabs(n[0]) > 0.6) e[0] = 0, e[1] = 1;
    gs_cross(t1, n, e);
    gs_scl3(t1, t1, 1 / gs_norm3(t1));
    gs_cross(t2, n, t1);
    double phase = rng_next(rng) * TWO_PI / 12, cand[3], cbest[3];
    int improved = 0;
    for (int k = 0; k < 12; k++) {
      double th = phase + k * TWO_PI / 12;
      for (int i = 0; i < 3; i++) cand[i] = n[i] + step * (cos(th) * t1[i] + sin(th) * t2[i]);
      gs_scl3(cand, cand, 1 / gs_norm3(cand));
      double v = pen_along(a, b, cand);
      if (v < best) best = v, gs_copy3(cbest, cand), improved = 1;
    }
    if (improved) {
      gs_copy3(n, cbest);
      step *= 1.5;
    } else {
      step *= 0.5;
    }
  }
  return best;
}

/* The least pen along the crease circle n . k = 0 from n projected on it, by steps of turns about
 * k (a search over the sphere stalls next to a crease: few of its steps stay close enough to the
 * crease to descend along it); n updated where that is less than at n */
static double refine_crease(const Shape* a, const Shape* b, double n[3], const double k[3],
                            double at_n) {
  double m[3], t[3];
  gs_copy3(m, n);
  gs_addScl3(m, m, k, -gs_dot3(m, k));
  double len = gs_norm3(m);
  if (len < 0.5) return at_n;
  gs_scl3(m, m, 1 / len);
  double best = pen_along(a, b, m), step = 0.05;
  while (step > 1e-12) {
    int improved = 0;
    for (int sgn = -1; sgn <= 1 && !improved; sgn += 2) {
      double c[3];
      gs_cross(t, k, m);
      for (int i = 0; i < 3; i++) c[i] = cos(step) * m[i] + sgn * sin(step) * t[i];
      gs_addScl3(c, c, k, -gs_dot3(c, k));
      gs_scl3(c, c, 1 / gs_norm3(c));
      double v = pen_along(a, b, c);
      if (v < best) best = v, gs_copy3(m, c), improved = 1;
    }
    step *= improved ? 1.5 : 0.5;
  }
  if (best < at_n) {
    gs_copy3(n, m);
    return best;
  }
  return at_n;
}

/* refine, then along each crease of either shape that passes within 0.3 rad of where it ended */
static double refine_all(const Shape* a, const Shape* b, double n[3], unsigned long long* rng) {
  double v = refine(a, b, n, rng), ka[3][3], kb[3][3];
  int na = shape_creases(a, ka), nb = shape_creases(b, kb);
  double end[3];
  gs_copy3(end, n);
  for (int i = 0; i < na + nb; i++) {
    const double* k = i < na ? ka[i] : kb[i - na];
    if (fabs(gs_dot3(end, k)) > 0.3) continue;
    double m[3];
    gs_copy3(m, end);
    double w = refine_crease(a, b, m, k, INFINITY);
    if (w < v) v = w, gs_copy3(n, m);
  }
  return v;
}

/* ---- polytopes: the exact answer from the hull of the Minkowski difference ---- */

/* a polytope's vertices in world coordinates (box corners, mesh points); their number */
static int shape_points(const Shape* s, double* out) {
  int n = 0;
  if (s->type == GS_GEOM_BOX) {
    for (int k = 0; k < 8; k++, n++) {
      double l[3] = {k & 1 ? s->size[0] : -s->size[0], k & 2 ? s->size[1] : -s->size[1],
                     k & 4 ? s->size[2] : -s->size[2]};
      gs_mulMatVec3(out + 3 * n, s->mat, l);
      gs_add3(out + 3 * n, out + 3 * n, s->pos);
    }
  } else {
    for (; n < s->nvert; n++) {
      double l[3] = {s->vert[3 * n], s->vert[3 * n + 1], s->vert[3 * n + 2]};
      gs_mulMatVec3(out + 3 * n, s->mat, l);
      gs_add3(out + 3 * n, out + 3 * n, s->pos);
    }
  }
  return n;
}

/* the point of the triangle (p, q, r) closest to the origin, in x */
static void closest_on_triangle(const double p[3], const double q[3], const double r[3], double x[3]) {
  double e1[3], e2[3], nn[3];
  gs_copy3(x, p);
  gs_sub3(e1, q, p), gs_sub3(e2, r, p);
  gs_cross(nn, e1, e2);
  double n2 = gs_dot3(nn, nn);
  if (n2 > 0) {  /* the origin's projection on the plane, inside all three edges */
    double t = gs_dot3(p, nn) / n2, y[3], c[3];
    int in = 1;
    gs_scl3(y, nn, t);
    const double* v[3] = {p, q, r};
    for (int k = 0; k < 3 && in; k++) {
      double e[3], d[3];
      gs_sub3(e, v[(k + 1) % 3], v[k]), gs_sub3(d, y, v[k]);
      gs_cross(c, e, d);
      in = gs_dot3(c, nn) >= 0;
    }
    if (in) {
      gs_copy3(x, y);
      return;
    }
  }
  /* else on an edge */
  const double* v[3] = {p, q, r};
  double best = INFINITY;
  for (int k = 0; k < 3; k++) {
    const double *a = v[k], *b = v[(k + 1) % 3];
    double e[3], y[3];
    gs_sub3(e, b, a);
    double ee = gs_dot3(e, e), t = ee > 0 ? -gs_dot3(a, e) / ee : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    gs_addScl3(y, a, e, t);
    double dd = gs_dot3(y, y);
    if (dd < best) best = dd, gs_copy3(x, y);
  }
}

/* The least pen for two polytopes (boxes, meshes), exactly: pen is the support function of the
 * Minkowski difference M = {pa - pb}, the hull of the vertices' differences (qhull). Inside M the
 * least pen is the distance to the nearest facet's plane, along its outward normal; outside, minus
 * the distance to the nearest point of M's surface, along the direction from it to the origin.
 * 0 when qhull fails. */
static int polytope_reference(const Shape* a, const Shape* b, double* ref, double nref[3]) {
  enum { MAXP = 128 };
  static double pa[3 * MAXP], pb[3 * MAXP];
  static coordT pts[3 * MAXP * MAXP];
  if ((a->type == GS_GEOM_MESH && a->nvert > MAXP) || (b->type == GS_GEOM_MESH && b->nvert > MAXP))
    return 0;
  int na = shape_points(a, pa), nb = shape_points(b, pb), np = 0;
  for (int i = 0; i < na; i++)
    for (int j = 0; j < nb; j++, np++)
      for (int k = 0; k < 3; k++) pts[3 * np + k] = pa[3 * i + k] - pb[3 * j + k];
  qhT qh_qh;
  qhT* qh = &qh_qh;
  qh_zero(qh, stderr);
  char cmd[] = "qhull Qt";
  int ok = qh_new_qhull(qh, 3, np, pts, False, cmd, NULL, stderr) == 0;
  if (ok) {
    facetT* facet;
    vertexT *vertex, **vertexp;
    double plane = INFINITY, surf = INFINITY, pn[3] = {0, 0, 1}, sn[3] = {0, 0, 1};
    int inside = 1;
    FORALLfacets {
      /* qhull's planes: normal . x + offset = 0, outward normals */
      double off = facet->offset;
      if (off >= 0) inside = 0;
      if (-off < plane) plane = -off, gs_copy3(pn, facet->normal);
      double v[3][3];
      int k = 0;
      FOREACHvertex_(facet->vertices) if (k < 3) gs_copy3(v[k++], vertex->point);
      if (k < 3) continue;
      double x[3];
      closest_on_triangle(v[0], v[1], v[2], x);
      double dx = gs_norm3(x);
      if (dx < surf && dx > 0) surf = dx, gs_scl3(sn, x, -1 / dx);
    }
    if (inside) *ref = plane, gs_copy3(nref, pn);
    else *ref = -surf, gs_copy3(nref, sn);
  }
  qh_freeqhull(qh, !qh_ALL);
  int curlong, totlong;
  qh_memfreeshort(qh, &curlong, &totlong);
  return ok;
}

/* The converged reference: the least pen over a pool of directions and local searches from the
 * best of them. The pool: NS directions spread on the sphere, each shape's face normals, NC
 * directions along each of its creases (a crease's least value lies in a V-shaped valley that
 * spread directions miss: an ellipsoid on a cylinder's side was found 4.5e-3 too high without
 * them), and the
 * directions across an edge or rim tangent of each shape (where two edges cross, and rims meet
 * edges or rims); the searches start from the NBEST least of the pool at least 0.1 rad apart,
 * and from each given start (a search stalls short of the least on polytopes, whose pen has
 * creases everywhere: there the hull above answers). The depth (positive) or minus the distance,
 * its direction in nref;
 * seed: the search's random stream (the pair's index), the same answer for the same seed. */
static double reference(const Shape* a, const Shape* b, const double* starts, int nstart,
                        double nref[3], unsigned long long seed) {
  int poly = (a->type == GS_GEOM_BOX || a->type == GS_GEOM_MESH) &&
             (b->type == GS_GEOM_BOX || b->type == GS_GEOM_MESH);
  double exact;
  if (poly && polytope_reference(a, b, &exact, nref)) return exact;
  enum { NS = 1000, NC = 360, NBEST = 8, NPOOL = NS + 12 + 6 * NC + 2 * (3 + NRIM) * (3 + NRIM) };
  static double pool[NPOOL][3], val[NPOOL];
  nref[0] = nref[1] = 0, nref[2] = 1;
  int np = 0;
  for (int i = 0; i < NS; i++, np++) {  /* a Fibonacci sphere */
    double z = 1 - (2 * i + 1.0) / NS, r = sqrt(1 - z * z), ph = i * 2.399963229728653;
    pool[np][0] = r * cos(ph), pool[np][1] = r * sin(ph), pool[np][2] = z;
  }
  const Shape* sh[2] = {a, b};
  for (int s = 0; s < 2; s++) {  /* face normals: box faces, cylinder caps */
    double ax[3][3];
    int k = shape_creases(sh[s], ax);
    if (sh[s]->type == GS_GEOM_CYLINDER) gs_copy3(ax[0], ax[k - 1]), k = 1;
    for (int j = 0; j < k; j++, np += 2) gs_copy3(pool[np], ax[j]), gs_scl3(pool[np + 1], ax[j], -1);
  }
  for (int s = 0; s < 2; s++) {  /* along the creases (their valleys are narrow, see above) */
    double ax[3][3];
    int k = shape_creases(sh[s], ax);
    for (int j = 0; j < k; j++) {
      double u[3], v[3], e[3] = {1, 0, 0};
      if (fabs(ax[j][0]) > 0.6) e[0] = 0, e[1] = 1;
      gs_cross(u, ax[j], e);
      gs_scl3(u, u, 1 / gs_norm3(u));
      gs_cross(v, ax[j], u);
      for (int i = 0; i < NC; i++, np++) {
        double th = TWO_PI * i / NC;
        for (int c = 0; c < 3; c++) pool[np][c] = cos(th) * u[c] + sin(th) * v[c];
      }
    }
  }
  double ta[3 + NRIM][3], tb[3 + NRIM][3];
  int nta = shape_tangents(a, ta), ntb = shape_tangents(b, tb);
  for (int i = 0; i < nta; i++)
    for (int j = 0; j < ntb; j++) {
      double c[3];
      gs_cross(c, ta[i], tb[j]);
      double len = gs_norm3(c);
      if (len < 1e-6) continue;
      gs_scl3(pool[np++], c, 1 / len);
      gs_scl3(pool[np++], c, -1 / len);
    }
  double best = INFINITY;
  for (int i = 0; i < np; i++) {
    val[i] = pen_along(a, b, pool[i]);
    if (val[i] < best) best = val[i], gs_copy3(nref, pool[i]);
  }
  /* the NBEST least, spread apart */
  int pick[NBEST], npick = 0;
  while (npick < NBEST) {
    int w = -1;
    for (int i = 0; i < np; i++) {
      if (w >= 0 && val[i] >= val[w]) continue;
      int near = 0;
      for (int k = 0; k < npick && !near; k++) near = gs_dot3(pool[i], pool[pick[k]]) > 0.995;
      if (!near) w = i;
    }
    if (w < 0) break;
    pick[npick++] = w;
  }
  unsigned long long rng = 0x9E3779B97F4A7C15ULL * (seed + 1);
  if (!rng) rng = 1;
  for (int k = 0; k < npick + nstart; k++) {
    double n[3];
    gs_copy3(n, k < npick ? pool[pick[k]] : starts + 3 * (k - npick));
    double v = refine_all(a, b, n, &rng);
    if (v < best) best = v, gs_copy3(nref, n);
  }
  return best;
}

/* ---- pairs ---- */
typedef struct {
  int kind, ga, gb;
  gsReal sa[3], sb[3];                /* sizes */
  gsReal posa[3], posb[3], mata[9], matb[9];
} Pair;

static void kind_geoms(int kind, int* ga, int* gb) {
  int ma = G_MESH + (int)(urand() * NMESH), mb;
  do mb = G_MESH + (int)(urand() * NMESH); while (mb == ma);
  switch (kind) {
    case KIND_BE: *ga = G_BOX, *gb = G_ELL; return;
    case KIND_EY: *ga = G_ELL, *gb = G_CYL; return;
    case KIND_YY: *ga = G_CYL, *gb = G_CYL + 1; return;
    case KIND_BY: *ga = G_BOX, *gb = G_CYL; return;
    case KIND_MM: *ga = ma, *gb = mb; return;
    default: *ga = ma, *gb = G_BOX; return;
  }
}

static void random_size(gsReal s[3], int type) {
  s[0] = urange(0.2, 1), s[1] = urange(0.2, 1), s[2] = urange(0.2, 1);
  if (type == GS_GEOM_CYLINDER) s[2] = 0;
}

static void random_mat(gsReal mat[9]) {
  gsReal q[4] = {urange(-1, 1), urange(-1, 1), urange(-1, 1), urange(-1, 1)};
  if (gs_normalize4(q) < 1e-3) q[0] = 1, q[1] = q[2] = q[3] = 0;
  gs_quat2Mat(mat, q);
}

/* the size of geom g for a pair: a mesh keeps its own, a primitive draws one; returns a radius
 * that bounds the shape */
static double shape_size(const gsModel* m, int g, double size[3]) {
  int t = m->geom_type[g];
  if (t == GS_GEOM_MESH) {
    gs_copy3(size, m->geom_size + 3 * g);
    return m->geom_rbound[g];
  }
  random_size(size, t);
  return t == GS_GEOM_CYLINDER ? hypot(size[0], size[1]) : gs_norm3(size);
}

/* a pair of the kind with random sizes and orientations, b at a random direction from a and a
 * centre distance uniform in [0, rsum] (rsum: the sum of the bounding radii), so that both
 * penetrating and separated pairs occur */
static void random_pair(const gsModel* m, Pair* p, int kind) {
  p->kind = kind;
  kind_geoms(kind, &p->ga, &p->gb);
  double ra = shape_size(m, p->ga, p->sa), rb = shape_size(m, p->gb, p->sb);
  random_mat(p->mata);
  random_mat(p->matb);
  double u[3], dist = urange(0, ra + rb);
  unit_vec(u);
  for (int i = 0; i < 3; i++) p->posa[i] = urange(-1, 1), p->posb[i] = p->posa[i] + dist * u[i];
}

/* write the pair into the model and data (gauss) and into two shapes (libccd) */
static void pair_apply(gsModel* m, gsData* d, const Pair* p, Shape* a, Shape* b) {
  const int g[2] = {p->ga, p->gb};
  const gsReal* s[2] = {p->sa, p->sb};
  const gsReal* pos[2] = {p->posa, p->posb};
  const gsReal* mat[2] = {p->mata, p->matb};
  Shape* sh[2] = {a, b};
  for (int k = 0; k < 2; k++) {
    gs_copy3(m->geom_size + 3 * g[k], s[k]);
    gs_copy3(d->geom_xpos + 3 * g[k], pos[k]);
    memcpy(d->geom_xmat + 9 * g[k], mat[k], 9 * sizeof(gsReal));
    Shape* t = sh[k];
    t->type = m->geom_type[g[k]];
    gs_copy3(t->size, s[k]);
    gs_copy3(t->pos, pos[k]);
    memcpy(t->mat, mat[k], sizeof(t->mat));
    t->vert = NULL, t->nvert = 0;
    if (t->type == GS_GEOM_MESH) {
      int id = m->geom_dataid[g[k]];
      t->vert = m->mesh_vert + 3 * m->mesh_vertadr[id];
      t->nvert = m->mesh_vertnum[id];
    }
  }
}

/* gauss's answer through the collision code's own query and settings: the signed distance and
 * the unit normal from a towards b; 0 when not found within cutoff */
static int gauss_query(const gsModel* m, const gsData* d, int ga, int gb, gsReal cutoff, gsReal* dist,
                       gsReal normal[3]) {
  gsConvex a, b;
  gsReal tol, pa[3], pb[3];
  int maxiter;
  gs_convexFromGeom(&a, m, d, ga);
  gs_convexFromGeom(&b, m, d, gb);
  gs_convexSettings(m, &tol, &maxiter);
  return gs_convexDistance(&a, &b, cutoff, tol, maxiter, dist, pa, pb, normal);
}

/* libccd's settings: the given EPA/MPR tolerance; no cap on GJK iterations beyond 1000 */
static void ccd_setup(ccd_t* c, const Shape* a, const Shape* b, double tol) {
  CCD_INIT(c);
  c->support1 = ccd_support;
  c->support2 = ccd_support;
  c->center1 = ccd_center;
  c->center2 = ccd_center;
  c->max_iterations = 1000;
  c->epa_tolerance = tol;
  c->mpr_tolerance = tol;
  (void)a, (void)b;
}

#endif
