/* gauss's general convex narrow phase (convex.c, mesh hulls in mesh.c) against libccd 2.1's
 * GJK/EPA (ccdGJKPenetration) and MPR (ccdMPRPenetration) on the same shapes, with support
 * functions written from the shapes' definitions in bench/ccd_pairs.h.
 *
 * libccd runs with epa_tolerance = mpr_tolerance = TOL = 1e-6: EPA stops when the next support
 * point is within TOL of the nearest face of its polytope, MPR when the portal is within TOL of
 * the boundary, so where their search ends on the face that holds the answer, their depth is
 * within TOL of the true one. That is the tolerance of the two-sided agreement below.
 *
 * Two-sided agreement is asserted on aligned pairs whose answer is known in closed form: each
 * kind of pair stacked along z, where the depth is pen(z) (ccd_pairs.h: h_a(z) + h_b(-z)) and a
 * search over all directions confirms z is the least. On random pairs it cannot be: measured
 * over thousands of pairs (bench/ccd_bench.c), libccd's EPA reports depths off by up to 0.2 on
 * smooth and mixed shapes at any epa_tolerance from 1e-4 to 1e-10 (its search ends early, on
 * an edge or a vertex of the polytope), and MPR answers the depth along its portal's direction,
 * which is not the least depth (errors up to 0.8). On random pairs the test asserts instead
 * what must hold whoever is right: the depth that gauss's normal leaves, pen(n_gauss), is never
 * more than TOL above what libccd's normal leaves, pen(n_libccd); gauss's reported depth is the
 * depth its normal leaves; and where libccd's GJK and MPR both say "no intersection", gauss
 * reports a positive distance (and a negative one where both say they intersect). */
#include "ccd_pairs.h"

#include "check.h"

#define TOL 1e-6

/* libccd's penetration answer: 1 if it reports an intersection, with the depth and the unit
 * direction along which b moves out of a */
static int ccd_pen(const Shape* a, const Shape* b, int mpr, double* depth, double n[3]) {
  ccd_t c;
  ccd_setup(&c, a, b, TOL);
  ccd_real_t dep;
  ccd_vec3_t dir, pos;
  int r = mpr ? ccdMPRPenetration(a, b, &c, &dep, &dir, &pos) : ccdGJKPenetration(a, b, &c, &dep, &dir, &pos);
  if (r != 0) return 0;
  double nn = gs_norm3(dir.v);
  *depth = dep;
  gs_scl3(n, dir.v, nn > 0 ? 1 / nn : 0);
  return 1;
}

static double angle(const double a[3], const double b[3]) {
  double c[3];
  gs_cross(c, a, b);
  return atan2(gs_norm3(c), gs_dot3(a, b));
}

/* b above a along z by its extent below its centre, sunk by delta; identity orientations except
 * for meshes, which keep their own frame. Both centres on the z axis, so MPR's ray from the
 * centres' difference is the answer's direction too. */
static void aligned(gsModel* m, gsData* d, int kind, double delta, const char* what) {
  static const double Z[3] = {0, 0, 1};
  Pair p;
  random_pair(m, &p, kind);
  if (m->geom_type[p.ga] != GS_GEOM_MESH) p.sa[0] = 1, p.sa[1] = 0.9, p.sa[2] = 0.5;
  if (m->geom_type[p.ga] == GS_GEOM_CYLINDER) p.sa[1] = 0.5, p.sa[2] = 0;
  if (m->geom_type[p.gb] != GS_GEOM_MESH) p.sb[0] = 0.4, p.sb[1] = 0.3, p.sb[2] = 0.35;
  if (m->geom_type[p.gb] == GS_GEOM_CYLINDER) p.sb[2] = 0;
  /* a box on a mesh's top vertex: wider than the mesh (radii < 0.9 + 0.1 margin of the box's
   * half width), so that tilting the direction costs more on the box's face than it gains on
   * the mesh and z stays the least */
  if (kind == KIND_MB) p.sb[0] = p.sb[1] = 2, p.sb[2] = 0.5;
  for (int i = 0; i < 9; i++) p.mata[i] = p.matb[i] = i % 4 == 0;
  gs_zero3(p.posa), gs_zero3(p.posb);
  Shape a, b;
  pair_apply(m, d, &p, &a, &b);
  /* the gap along z at coincident centres is -pen(z); place b to sink by delta */
  double mz[3] = {0, 0, -1}, top[3], bottom[3];
  shape_support(top, &a, Z);
  shape_support(bottom, &b, mz);
  p.posb[2] = top[2] - bottom[2] - delta;
  pair_apply(m, d, &p, &a, &b);
  double truth = pen_along(&a, &b, Z), nref[3];
  CHECK(fabs(truth - delta) < 1e-12, "%s: pen(z) %.17g, placed for %g", what, truth, delta);
  double ref = reference(&a, &b, Z, 1, nref, kind);
  CHECK(ref > truth - 1e-12, "%s: a direction leaves less than z: %.17g < %.17g", what, ref, truth);
  gsReal gd, gn[3];
  int found = gauss_query(m, d, p.ga, p.gb, 0, &gd, gn);
  /* the answer lies on a flat face of the Minkowski difference: converged, gauss's EPA ends on
   * that face to rounding level */
  CHECK(found && fabs(-gd - truth) < 1e-9 && angle(gn, Z) < 1e-9,
        "%s: gauss depth %.17g normal %g %g %g, truth %.17g along z", what, -gd, gn[0], gn[1], gn[2],
        truth);
  /* gs_geomDistance: the public call answers the same */
  CHECK(fabs(gs_geomDistance(m, d, p.ga, p.gb, 0, NULL) - gd) < 1e-15, "%s: gs_geomDistance", what);
  /* The answer lies on a flat face of the Minkowski difference (a face of one geom swept over
   * the other's extreme point or face); libccd finds it as a face of its polytope (EPA) or
   * portal (MPR) whose corners lie within TOL of the boundary. The corners are at least ~0.1
   * apart here, so the face's tilt is below TOL / 0.1 = 1e-5. */
  double dtol = TOL, ntol = 1e-5;
  int curved = kind == KIND_BE || kind == KIND_EY;
  /* EPA against an ellipsoid: libccd 2.1 ends its search before its own test is met (the
   * support point along its answer's normal lies 1e-4 to 1e-3 beyond its face, not within
   * epa_tolerance: measured 1.2e-4 to 9.4e-4 on these pairs, with depth errors up to 5.6e-4 and
   * normal errors up to 9.6e-4), so it is held to what it reaches; its polytope stays inside the
   * Minkowski difference, so its depth is still never above the truth by more than TOL */
  double epa_dtol = curved ? 1e-3 : TOL, epa_ntol = curved ? 2e-3 : ntol;
  for (int mpr = 0; mpr < 2; mpr++) {
    double dep, n[3];
    int hit = ccd_pen(&a, &b, mpr, &dep, n);
    double dt = mpr ? dtol : epa_dtol, nt = mpr ? ntol : epa_ntol;
    CHECK(hit && fabs(dep - truth) < dt && angle(n, Z) < nt && dep < truth + TOL,
          "%s: libccd %s depth %.17g normal %g %g %g, truth %.17g along z; its normal leaves %.17g",
          what, mpr ? "MPR" : "EPA", dep, n[0], n[1], n[2], truth, pen_along(&a, &b, n));
    /* gauss against libccd directly: gauss is within 1e-9 of the truth (above) */
    if (hit) CHECK(fabs(dep + gd) < dt + 1e-9, "%s: gauss %.17g vs libccd %s %.17g", what, -gd,
                   mpr ? "MPR" : "EPA", dep);
  }
}

static void aligned_pairs(gsModel* m, gsData* d) {
  /* (two random hulls touch vertex to vertex or edge to edge: no closed form along z) */
  for (int kind = 0; kind < NKIND; kind++)
    for (int k = 0; k < 3 && kind != KIND_MM; k++) {
      double delta = 0.02 + 0.06 * k;
      char what[64];
      snprintf(what, sizeof(what), "aligned %s sunk %g", KIND_NAME[kind], delta);
      aligned(m, d, kind, delta, what);
    }
}

/* random pairs: one-sided agreement (see the top) */
static void random_pairs(gsModel* m, gsData* d, int n) {
  for (int kind = 0; kind < NKIND; kind++) {
    int npen = 0, nsep = 0;
    for (int i = 0; i < n; i++) {
      Pair p;
      Shape a, b;
      random_pair(m, &p, kind);
      pair_apply(m, d, &p, &a, &b);
      gsReal gd, gn[3];
      int found = gauss_query(m, d, p.ga, p.gb, 10, &gd, gn);
      CHECK(found, "%s pair %d: gauss reports nothing within 10", KIND_NAME[kind], i);
      if (!found) continue;
      ccd_t c;
      ccd_setup(&c, &a, &b, TOL);
      int gjk_hit = ccdGJKIntersect(&a, &b, &c), mpr_hit = ccdMPRIntersect(&a, &b, &c);
      /* within TOL of touching, libccd's verdict is its tolerance's to make */
      if (fabs(gd) < TOL) continue;
      if (!gjk_hit && !mpr_hit) {
        nsep++;
        CHECK(gd > 0, "%s pair %d: libccd says apart, gauss dist %g", KIND_NAME[kind], i, gd);
        continue;
      }
      if (gjk_hit && mpr_hit) CHECK(gd < 0, "%s pair %d: libccd says they intersect, gauss dist %g",
                                    KIND_NAME[kind], i, gd);
      if (gd >= 0) continue;
      npen++;
      double pg = pen_along(&a, &b, gn);
      CHECK(fabs(pg + gd) < 1e-9, "%s pair %d: gauss depth %.17g, its normal leaves %.17g",
            KIND_NAME[kind], i, -gd, pg);
      for (int mpr = 0; mpr < 2; mpr++) {
        double dep, nc[3];
        if (!ccd_pen(&a, &b, mpr, &dep, nc)) continue;
        double pc = pen_along(&a, &b, nc);
        CHECK(pg <= pc + TOL, "%s pair %d: gauss's normal leaves %.17g, libccd %s's %.17g",
              KIND_NAME[kind], i, pg, mpr ? "MPR" : "EPA", pc);
      }
    }
    /* the draw gives both classes (centre distances uniform up to the bounding radii' sum) */
    CHECK(npen > n / 10 && nsep > n / 10, "%s: %d penetrating, %d separated of %d", KIND_NAME[kind],
          npen, nsep, n);
  }
}

/* Deep pairs where the least depth hides near another local least value of pen(n), each against
 * the converged reference search (reference: spread directions and each shape's own face and edge
 * directions, each refined; it does not start from gauss's answer). */
static void deep_pair(gsModel* m, gsData* d, const Pair* p, const char* what) {
  Shape a, b;
  pair_apply(m, d, p, &a, &b);
  gsReal gd, gn[3];
  int found = gauss_query(m, d, p->ga, p->gb, 0, &gd, gn);
  double nref[3];
  double ref = reference(&a, &b, NULL, 0, nref, 1);
  /* gauss's normal leaves no more than the least the search finds (which may stall a little
   * above the least value on a crease: only this side is held), and its depth is what its
   * normal leaves */
  double pg = pen_along(&a, &b, gn);
  CHECK(found && pg - ref < 1e-9 && fabs(pg + gd) < 1e-9,
        "%s: gauss depth %.17g, its normal leaves %.17g, reference %.17g", what, -gd, pg, ref);
}

static void deep_pairs(gsModel* m, gsData* d) {
  /* a box face's least value 2.3e-3 above the least: a box edge on the cylinder's cap 0.2 rad
   * away (a local search near the face would take it) */
  Pair by = {KIND_BY, G_BOX, G_CYL,
             {0.81158286940236146, 0.58100611271439118, 0.57053690027840287},
             {0.64832556708238398, 0.53288361566962505, 0},
             {0.75710221722667015, 0.36534445632278478, 0.41532764175156922},
             {0.73449281649175546, 0.37811616938530351, 0.52039124731278796},
             {0.46097575488618686, -0.3191875382295683, 0.82802214272690666, -0.33914699395345921,
              -0.92561136107364672, -0.16799679980203039, 0.82004918748782518, -0.20337876902552801,
              -0.53493589000011821},
             {0.57658946423040724, 0.33170840761110643, 0.74666868292342081, 0.78863397271939595,
              -0.46480854000060112, -0.40250401018540483, 0.21354401609812185, 0.82092786130244944,
              -0.52960022632743597}};
  deep_pair(m, d, &by, "deep box-cylinder");
  /* a crease's least value (the side line of the larger cylinder) 8.9e-5 above the least: the
   * two rims against each other 0.18 rad away */
  Pair yy = {KIND_YY, G_CYL, G_CYL + 1,
             {0.96357316775521218, 0.9980059696800736, 0},
             {0.39531516192708649, 0.4356005930821012, 0},
             {-0.76529815916663835, -0.32040951393981043, 0.56585725236891204},
             {0.0778786726085271, 0.7809256566034477, -0.087172296270373595},
             {-0.024867612607266887, -0.069631672582031345, 0.99726276979372086,
              -0.78882939963607113, -0.61144017170217091, -0.062362606573294066,
              0.61410893179712889, -0.78822100111723026, -0.03972245315612899},
             {0.24302990626887566, -0.90542482130857005, 0.34805510715587146,
              -0.33647293468609446, 0.25784805989149046, 0.90570433488745172,
              -0.90979251968933461, -0.33722436295223102, -0.24198615693628694}};
  deep_pair(m, d, &yy, "deep cylinder-cylinder");
  /* a crease's least value (the cylinder's side line) 3.8e-7 above the least: the ellipsoid on
   * the cylinder's rim 0.15 rad away, where EPA's direction points */
  Pair ey = {KIND_EY, G_ELL, G_CYL,
             {0.35227857398977935, 0.9908599810010752, 0.40984688020716054},
             {0.73844007069103434, 0.76156146961653248, 0},
             {-0.74560139916851709, 0.035466154761300661, -0.14851341436066501},
             {-1.2683485840111346, 1.3837851791566556, 0.33474727212043115},
             {0.44679205489848611, -0.76440762488137481, 0.46482022621956059,
              0.36391625095360458, 0.62992287129275981, 0.68612108152581808,
              -0.81727707784536641, -0.13739781383086314, 0.55962489113962599},
             {-0.80204708457807428, 0.097990716806558131, -0.58916745797739822,
              0.33775687816642219, 0.88798072141616358, -0.31210659980926925,
              0.49258579493432914, -0.44931954977829269, -0.74529938737124179}};
  deep_pair(m, d, &ey, "deep ellipsoid-cylinder");
}

int main(void) {
  gsModel* m = pairs_model();
  CHECK(m != NULL, "pairs model");
  if (!m) return CHECK_SUMMARY();
  /* gauss runs MJCF's GJK/EPA, which stop within ccd_tolerance of the answer: converged here
   * (tolerance 1e-12, 500 iterations), so that its answers can be held to closed forms */
  m->opt.ccd_tolerance = 1e-12;
  m->opt.ccd_iterations = 500;
  gsData* d = gs_makeData(m);
  aligned_pairs(m, d);
  deep_pairs(m, d);
  random_pairs(m, d, 200);
  gs_freeData(d);
  gs_freeModel(m);
  return CHECK_SUMMARY();
}
