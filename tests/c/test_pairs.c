/* The analytic narrow-phase functions called directly: closed-form cases (sphere distances, a box
 * or a cylinder resting on a plane, a box on a bigger box, a capsule lying on one, a sphere inside a box) and a
 * robustness sweep over random, coincident, exactly touching, huge and tiny geoms (no NaN, unit
 * normals, never more contacts than the function's maximum). The comparison with MuJoCo is in
 * tests/python/test_collision_pairs.py. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collision/collision.h"
#include "core/math.h"
#include "gauss/gauss.h"

#include "check.h"

enum { P = GS_GEOM_PLANE, S = GS_GEOM_SPHERE, C = GS_GEOM_CAPSULE, E = GS_GEOM_ELLIPSOID,
       Y = GS_GEOM_CYLINDER, B = GS_GEOM_BOX };

static const char* TYPENAME[] = {"plane", "hfield", "sphere", "capsule", "ellipsoid", "cylinder",
                                 "box"};

typedef struct {
  int t1, t2, maxcon;
  gsCollideFn fn;
} PairInfo;

static const PairInfo PAIRS[] = {
    {P, S, 1, gs_collidePlaneSphere},     {P, C, 2, gs_collidePlaneCapsule},
    {P, E, 1, gs_collidePlaneEllipsoid},  {P, Y, 4, gs_collidePlaneCylinder},
    {P, B, 4, gs_collidePlaneBox},        {S, S, 1, gs_collideSphereSphere},
    {S, C, 1, gs_collideSphereCapsule},   {S, Y, 1, gs_collideSphereCylinder},
    {S, B, 1, gs_collideSphereBox},       {C, C, 2, gs_collideCapsuleCapsule},
    {C, B, 2, gs_collideCapsuleBox},      {B, B, 8, gs_collideBoxBox},
};
#define NPAIRS ((int)(sizeof(PAIRS) / sizeof(PAIRS[0])))

/* a model with two static geoms of the given types; poses and sizes are then set by hand */
static gsModel* two_geoms(int t1, int t2) {
  char xml[512];
  snprintf(xml, sizeof(xml),
           "<mujoco><worldbody><geom type='%s' size='1 1 1'/><geom type='%s' size='1 1 1'/>"
           "</worldbody></mujoco>", TYPENAME[t1], TYPENAME[t2]);
  char err[256] = "";
  gsModel* m = gs_loadXMLString(xml, err, sizeof(err));
  if (!m) printf("cannot load %s-%s: %s\n", TYPENAME[t1], TYPENAME[t2], err);
  return m;
}

/* two_geoms and its data (freed by close_pair) */
static gsData* open_pair(gsModel** m, int t1, int t2) {
  *m = two_geoms(t1, t2);
  return gs_makeData(*m);
}

static void close_pair(gsModel* m, gsData* d) {
  gs_freeData(d);
  gs_freeModel(m);
}

static void set_size(gsModel* m, int g, gsReal a, gsReal b, gsReal c) {
  m->geom_size[3 * g] = a;
  m->geom_size[3 * g + 1] = b;
  m->geom_size[3 * g + 2] = c;
}

static void set_pose(gsData* d, int g, gsReal x, gsReal y, gsReal z, const gsReal q[4]) {
  d->geom_xpos[3 * g] = x;
  d->geom_xpos[3 * g + 1] = y;
  d->geom_xpos[3 * g + 2] = z;
  gsReal qn[4];
  gs_copy4(qn, q);
  gs_normalize4(qn);
  gs_quat2Mat(d->geom_xmat + 9 * g, qn);
}

static const gsReal QID[4] = {1, 0, 0, 0};
static gsContact con[GS_MAXCONPAIR];

static int near(gsReal a, gsReal b, gsReal tol) { return fabs(a - b) <= tol; }

static int has_contact_at(int n, gsReal x, gsReal y, gsReal z, gsReal dist) {
  for (int i = 0; i < n; i++)
    if (near(con[i].pos[0], x, 1e-12) && near(con[i].pos[1], y, 1e-12) &&
        near(con[i].pos[2], z, 1e-12) && near(con[i].dist, dist, 1e-12))
      return 1;
  return 0;
}

static void closed_forms(void) {
  /* two spheres 1 apart, radii 0.3 and 0.5: dist 0.2, normal along the centre line */
  gsModel* m;
  gsData* d = open_pair(&m, S, S);
  set_size(m, 0, 0.3, 0, 0);
  set_size(m, 1, 0.5, 0, 0);
  set_pose(d, 0, 0, 0, 0, QID);
  set_pose(d, 1, 0.6, 0.8, 0, QID);
  int n = gs_collideSphereSphere(m, d, con, 0, 1, 0.25);
  CHECK(n == 1 && near(con[0].dist, 0.2, 1e-15), "sphere-sphere: n %d dist %g", n, con[0].dist);
  CHECK(near(con[0].frame[0], 0.6, 1e-15) && near(con[0].frame[1], 0.8, 1e-15),
        "sphere-sphere normal");
  CHECK(near(con[0].pos[0], 0.6 * 0.4, 1e-15) && near(con[0].pos[1], 0.8 * 0.4, 1e-15),
        "sphere-sphere midpoint");
  n = gs_collideSphereSphere(m, d, con, 0, 1, 0.1);
  CHECK(n == 0, "sphere-sphere beyond the margin: %d", n);
  close_pair(m, d);

  /* a 0.2 x 0.4 x 0.6 box sunk by h = 0.01 into the plane z = 0: 4 corners at depth h */
  d = open_pair(&m, P, B);
  set_size(m, 1, 0.1, 0.2, 0.3);
  set_pose(d, 0, 0, 0, 0, QID);
  set_pose(d, 1, 1, 2, 0.29, QID);
  n = gs_collidePlaneBox(m, d, con, 0, 1, 0);
  CHECK(n == 4, "plane-box: %d contacts", n);
  for (int sx = -1; sx <= 1; sx += 2)
    for (int sy = -1; sy <= 1; sy += 2)
      CHECK(has_contact_at(n, 1 + 0.1 * sx, 2 + 0.2 * sy, -0.005, -0.01),
            "plane-box corner %d %d", sx, sy);
  for (int i = 0; i < n; i++) CHECK(con[i].frame[2] == 1, "plane-box normal");
  close_pair(m, d);

  /* a capsule lying on the plane, sunk by 0.02: its two end spheres */
  d = open_pair(&m, P, C);
  set_size(m, 1, 0.1, 0.5, 0);
  set_pose(d, 0, 0, 0, 0, QID);
  gsReal qy[4] = {cos(GS_PI / 4), 0, sin(GS_PI / 4), 0};  /* axis along x */
  set_pose(d, 1, 0, 0, 0.08, qy);
  n = gs_collidePlaneCapsule(m, d, con, 0, 1, 0);
  CHECK(n == 2, "plane-capsule: %d contacts", n);
  CHECK(has_contact_at(n, 0.5, 0, -0.01, -0.02) && has_contact_at(n, -0.5, 0, -0.01, -0.02),
        "plane-capsule ends");
  close_pair(m, d);

  /* an upright cylinder sunk by 0.01: three points of its bottom rim, 120 degrees apart */
  d = open_pair(&m, P, Y);
  set_size(m, 1, 0.2, 0.3, 0);
  set_pose(d, 0, 0, 0, 0, QID);
  set_pose(d, 1, 0, 0, 0.29, QID);
  n = gs_collidePlaneCylinder(m, d, con, 0, 1, 0);
  CHECK(n == 3, "plane-cylinder: %d contacts", n);
  for (int i = 0; i < n; i++) {
    gsReal rr = hypot(con[i].pos[0], con[i].pos[1]);
    CHECK(near(rr, 0.2, 1e-12) && near(con[i].dist, -0.01, 1e-12), "plane-cylinder rim point");
  }
  close_pair(m, d);

  /* a capsule (radius 0.1, half-length 0.2) lying along x on the top face of a 0.6 x 0.4 x 0.8
   * box, sunk by 0.01: the spheres at its two ends touch the face. Moved along x so that it
   * overhangs the face's edge, the contacts are the segment's part over the face: the edge and
   * the inner end. */
  d = open_pair(&m, C, B);
  set_size(m, 0, 0.1, 0.2, 0);
  set_size(m, 1, 0.3, 0.2, 0.4);
  set_pose(d, 0, 0, 0, 0.49, qy);
  set_pose(d, 1, 0, 0, 0, QID);
  n = gs_collideCapsuleBox(m, d, con, 0, 1, 0);
  CHECK(n == 2 && has_contact_at(n, -0.2, 0, 0.395, -0.01) && has_contact_at(n, 0.2, 0, 0.395, -0.01),
        "capsule on a box face: %d contacts", n);
  for (int i = 0; i < n; i++) CHECK(con[i].frame[2] == -1, "capsule on a box face: normal");
  set_pose(d, 0, 0.25, 0, 0.49, qy);
  n = gs_collideCapsuleBox(m, d, con, 0, 1, 0);
  CHECK(n == 2 && has_contact_at(n, 0.3, 0, 0.395, -0.01) && has_contact_at(n, 0.05, 0, 0.395, -0.01),
        "capsule over a box edge: %d contacts", n);
  set_pose(d, 0, 0.25, 0, 0.51, qy);  /* 0.01 above: none without a margin, 2 with */
  n = gs_collideCapsuleBox(m, d, con, 0, 1, 0);
  CHECK(n == 0, "capsule above a box: %d contacts", n);
  n = gs_collideCapsuleBox(m, d, con, 0, 1, 0.02);
  CHECK(n == 2 && near(con[0].dist, 0.01, 1e-12) && near(con[1].dist, 0.01, 1e-12),
        "capsule above a box, within the margin: %d contacts", n);
  close_pair(m, d);

  /* a sphere whose centre is inside a box, nearest the +y face: pushed out through it */
  d = open_pair(&m, S, B);
  set_size(m, 0, 0.1, 0, 0);
  set_size(m, 1, 0.5, 0.5, 0.5);
  set_pose(d, 0, 0.1, 0.4, -0.2, QID);
  set_pose(d, 1, 0, 0, 0, QID);
  n = gs_collideSphereBox(m, d, con, 0, 1, 0);
  CHECK(n == 1 && near(con[0].dist, -0.2, 1e-15) && con[0].frame[1] == -1,
        "sphere inside box: n %d dist %g normal %g", n, con[0].dist, con[0].frame[1]);
  close_pair(m, d);

  /* two crossed capsules, axes 0.25 apart: one contact on the common perpendicular */
  d = open_pair(&m, C, C);
  set_size(m, 0, 0.1, 1, 0);
  set_size(m, 1, 0.2, 1, 0);
  set_pose(d, 0, 0, 0, 0, qy);
  gsReal qx[4] = {cos(GS_PI / 4), sin(GS_PI / 4), 0, 0};  /* axis along -y */
  set_pose(d, 1, 0.3, 0.1, 0.25, qx);
  n = gs_collideCapsuleCapsule(m, d, con, 0, 1, 0);
  CHECK(n == 1 && near(con[0].dist, -0.05, 1e-15) && near(con[0].frame[2], 1, 1e-15) &&
        has_contact_at(n, 0.3, 0, 0.075, -0.05), "crossed capsules: n %d", n);
  close_pair(m, d);

  /* a 0.2 x 0.3 x 0.1 (half sizes) box flat on a 0.5 x 0.5 x 0.1 one (top face z = 0.1), sunk by
   * h = 0.02: 4 contacts at the corners of the smaller face, midway between the faces (z = 0.09);
   * dist is -h / 2, half the overlap, as MuJoCo reports it for face contacts (measured) */
  d = open_pair(&m, B, B);
  set_size(m, 0, 0.5, 0.5, 0.1);
  set_size(m, 1, 0.2, 0.3, 0.1);
  set_pose(d, 0, 0, 0, 0, QID);
  set_pose(d, 1, 0.1, 0.05, 0.18, QID);
  n = gs_collideBoxBox(m, d, con, 0, 1, 0);
  CHECK(n == 4, "box on box: %d contacts", n);
  for (int sx = -1; sx <= 1; sx += 2)
    for (int sy = -1; sy <= 1; sy += 2)
      CHECK(has_contact_at(n, 0.1 + 0.2 * sx, 0.05 + 0.3 * sy, 0.09, -0.01),
            "box on box corner %d %d", sx, sy);
  for (int i = 0; i < n; i++) CHECK(con[i].frame[2] == 1, "box on box normal");
  /* lifted 0.03 above within a margin of 0.05: the same corners, full distance (parallel faces) */
  set_pose(d, 1, 0.1, 0.05, 0.23, QID);
  n = gs_collideBoxBox(m, d, con, 0, 1, 0.05);
  CHECK(n == 4 && has_contact_at(n, 0.3, 0.35, 0.115, 0.03), "box above box: %d contacts", n);
  CHECK(gs_collideBoxBox(m, d, con, 0, 1, 0.02) == 0, "box above box beyond the margin");
  close_pair(m, d);
}

static gsReal urand(void) { return rand() / (gsReal)RAND_MAX; }

static void random_quat(gsReal q[4]) {
  for (int i = 0; i < 4; i++) q[i] = urand() - 0.5;
  if (gs_normalize4(q) < 1e-3) gs_unitQuat(q);
}

/* random poses and sizes at three scales, coincident centres, identical orientations, exactly
 * touching spheres */
static void robustness(void) {
  const gsReal scales[3] = {1, 1e6, 1e-6};
  for (int p = 0; p < NPAIRS; p++) {
    const PairInfo* pi = PAIRS + p;
    gsModel* m = two_geoms(pi->t1, pi->t2);
    CHECK(m != NULL, "model");
    if (!m) continue;
    gsData* d = gs_makeData(m);
    int bad = 0, total = 0;
    for (int it = 0; it < 3000; it++) {
      gsReal sc = scales[it % 3];
      for (int g = 0; g < 2; g++)
        set_size(m, g, sc * (0.05 + urand()), sc * (0.05 + urand()), sc * (0.05 + urand()));
      gsReal q1[4], q2[4];
      random_quat(q1);
      random_quat(q2);
      int mode = (it / 3) % 5;
      if (mode == 1) gs_copy4(q2, q1);                     /* aligned */
      if (mode == 2) { gs_copy4(q1, QID); gs_copy4(q2, QID); }
      gsReal x = sc * (urand() - 0.5) * 3, y = sc * (urand() - 0.5) * 3, z = sc * (urand() - 0.5) * 3;
      if (mode == 3) x = y = z = 0;                        /* coincident centres */
      if (mode == 4 && pi->t1 == S && pi->t2 == S) {       /* exactly touching */
        x = m->geom_size[0] + m->geom_size[3];
        y = z = 0;
      }
      set_pose(d, 0, 0, 0, 0, q1);
      set_pose(d, 1, x, y, z, q2);
      gsReal margin = (it % 2) ? 0.1 * sc : 0;
      int n = pi->fn(m, d, con, 0, 1, margin);
      total += n;
      if (n < 0 || n > pi->maxcon) {
        bad++;
        continue;
      }
      for (int i = 0; i < n; i++) {
        int finite = isfinite(con[i].dist);
        for (int k = 0; k < 3; k++) finite = finite && isfinite(con[i].pos[k]);
        for (int k = 0; k < 9; k++) finite = finite && isfinite(con[i].frame[k]);
        /* (a contact exactly at the margin may exceed it in the last bit, as in MuJoCo) */
        if (!finite || fabs(gs_norm3(con[i].frame) - 1) > 1e-10 ||
            con[i].dist > margin + 1e-12 * sc)
          bad++;
      }
    }
    CHECK(bad == 0, "%s-%s: %d bad contacts", TYPENAME[pi->t1], TYPENAME[pi->t2], bad);
    printf("%s-%s: %d contacts\n", TYPENAME[pi->t1], TYPENAME[pi->t2], total);
    gs_freeData(d);
    gs_freeModel(m);
  }
}

/* gs_collideConvex does not depend on the order of its shapes beyond its tolerance: the same
 * distance, the normal turned round. The table always calls it in the order of the types, but two
 * shapes of one type come in either order, and the public gs_collideGeoms must agree with it.
 * MJCF's GJK and EPA follow different paths in the two orders and stop within ccd_tolerance of
 * the answer: run converged here (tolerance 1e-12, 500 iterations), the distances agree to
 * ~1e-12 and the normals to ~sqrt(1e-12 / size). Random poses from deep overlaps to apart; the
 * normal is compared where the centres are apart (with coincident centres the least depth may be
 * reached in several directions). */
static void convex_order(void) {
  static const int pairs[][2] = {{S, E}, {C, E}, {C, Y}, {E, E}, {E, Y}, {E, B}, {Y, Y}, {Y, B}};
  gsContact one, two, pub[GS_MAXCONPAIR];
  for (int p = 0; p < (int)(sizeof(pairs) / sizeof(pairs[0])); p++) {
    int t1 = pairs[p][0], t2 = pairs[p][1];
    gsModel* m = two_geoms(t1, t2);
    CHECK(m != NULL, "model");
    if (!m) continue;
    gsData* d = gs_makeData(m);
    m->opt.ccd_tolerance = 1e-12;
    m->opt.ccd_iterations = 500;
    int ncase = 0, bad = 0;
    for (int it = 0; it < 300; it++) {
      for (int g = 0; g < 2; g++) set_size(m, g, 0.1 + 0.3 * urand(), 0.1 + 0.3 * urand(), 0.1 + 0.3 * urand());
      gsReal q1[4], q2[4];
      random_quat(q1);
      random_quat(q2);
      int centred = it % 20 == 0;
      gsReal x = centred ? 0 : urand() - 0.5, y = centred ? 0 : urand() - 0.5, z = centred ? 0 : urand() - 0.5;
      set_pose(d, 0, 0, 0, 0, q1);
      set_pose(d, 1, x, y, z, q2);
      int n1 = gs_collideConvex(m, d, &one, 0, 1, 0.1);
      int n2 = gs_collideConvex(m, d, &two, 1, 0, 0.1);
      int np = gs_collideGeoms(m, d, 1, 0, 0.1, pub, GS_MAXCONPAIR);
      /* on the margin's edge rounding decides whether there is a contact */
      if (n1 != n2 || !n1) {
        if (n1 != n2 && fabs((n1 ? one.dist : two.dist) - 0.1) > 1e-9) bad++;
        continue;
      }
      ncase++;
      if (fabs(one.dist - two.dist) > 1e-10 || np != 1 || fabs(pub[0].dist - one.dist) > 1e-10 ||
          pub[0].geom1 != 1 || pub[0].geom2 != 0)
        bad++;
      else if (!centred)
        for (int k = 0; k < 3; k++)
          if (fabs(one.frame[k] + two.frame[k]) > 1e-4 || fabs(pub[0].frame[k] + one.frame[k]) > 1e-4) {
            bad++;
            break;
          }
    }
    CHECK(bad == 0 && ncase > 100, "%s-%s: %d of %d cases differ with the order", TYPENAME[t1],
          TYPENAME[t2], bad, ncase);
    gs_freeData(d);
    gs_freeModel(m);
  }
}

int main(void) {
  srand(12345);
  closed_forms();
  robustness();
  convex_order();
  return CHECK_SUMMARY();
}
