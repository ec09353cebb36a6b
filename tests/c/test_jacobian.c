/* Jacobians (src/dynamics/jacobian.c) without the Python oracle:
 * - gs_jac against central differences: column i of jacp is the velocity of a point fixed on the
 *   body when dof i moves at unit speed (qpos moved by gs_integratePos, so ball and free dofs are
 *   body-frame angular velocities), column i of jacr the body's angular velocity, for sites, coms
 *   and random points on every body of a branched hinge/slide tree, of a model with free, ball,
 *   hinge and slide joints in several trees, and of the double pendulum; zero columns for dofs
 *   that do not move the body, and an all-zero Jacobian for the world and a welded body;
 * - the double pendulum's Jacobian of its second mass in closed form;
 * - Cartesian forces and torques (xfrc_applied, at each body's com) enter qfrc_smooth as
 *   jacp^T f + jacr^T t;
 * - the Jacobians of frames (body origin and com, site, geom, a body-fixed axis) and of the double
 *   pendulum's subtree coms, and the time derivatives, in closed form; bad ids give zeros;
 * - gs_differentiatePos inverts gs_integratePos; M's halves (gs_mulM2, gs_solveM2) against M. */
#include "core_util.h"

#include "check.h"

/* differences with h = 1e-5 of positions O(1) moving at O(1): truncation h^2/6 |x'''| ~ 1e-10,
 * rounding eps |x| / h ~ 1e-10 */
#define H_FD 1e-5
#define TOL_FD 1e-8
#define TOL_EXACT 1e-13

static void test_fd(const char* xml, const char* name) {
  gsModel* m = load_xml(xml);
  CHECK(m != NULL, "%s loads", name);
  if (!m) return;
  gsData* d = gs_makeData(m);
  gsData* dd = gs_makeData(m);
  int nv = m->nv, nb = m->nbody;
  unsigned seed = 73;
  double jacp[3 * MAXV], jacr[3 * MAXV], jp2[3 * MAXV], e[MAXV];
  for (int trial = 0; trial < 3; trial++) {
    random_state(m, d, &seed, 1.0, 0);
    kin(m, d);
    /* points fixed on body b, in body coordinates: its com, a random point, its first site */
    double local[MAXV][3][3];
    int npt[MAXV];
    for (int b = 0; b < nb; b++) {
      double r[3];
      for (int i = 0; i < 3; i++) r[i] = d->xipos[3 * b + i] - d->xpos[3 * b + i];
      matTvec3(local[b][0], d->xmat + 9 * b, r);
      for (int i = 0; i < 3; i++) local[b][1][i] = urand(&seed);
      npt[b] = 2;
    }
    int nsitept = 0;
    for (int s = 0; s < m->nsite; s++) {
      int b = m->site_bodyid[s];
      if (npt[b] == 3) continue;
      double r[3];
      for (int i = 0; i < 3; i++) r[i] = d->site_xpos[3 * s + i] - d->xpos[3 * b + i];
      matTvec3(local[b][npt[b]++], d->xmat + 9 * b, r);
      nsitept++;
    }
    double ep = 0, er = 0, ezero = 0;
    for (int b = 0; b < nb; b++) {
      for (int k = 0; k < npt[b]; k++) {
        double p[3];
        matvec3(p, d->xmat + 9 * b, local[b][k]);
        for (int i = 0; i < 3; i++) p[i] += d->xpos[3 * b + i];
        gs_jac(m, d, jacp, jacr, p, b);
        /* only one of the two outputs: the same numbers */
        gs_jac(m, d, jp2, NULL, p, b);
        ezero = fmax(ezero, maxdiff(jp2, jacp, 3 * nv));
        gs_jac(m, d, NULL, jp2, p, b);
        ezero = fmax(ezero, maxdiff(jp2, jacr, 3 * nv));
        for (int i = 0; i < nv; i++) {
          memset(e, 0, sizeof(e));
          e[i] = 1;
          double pp[3], pm[3], Rp[9], Rm[9], w[3];
          set_moved(m, dd, d->qpos, e, H_FD);
          gs_kinematics(m, dd);
          matvec3(pp, dd->xmat + 9 * b, local[b][k]);
          for (int c = 0; c < 3; c++) pp[c] += dd->xpos[3 * b + c];
          memcpy(Rp, dd->xmat + 9 * b, sizeof(Rp));
          set_moved(m, dd, d->qpos, e, -H_FD);
          gs_kinematics(m, dd);
          matvec3(pm, dd->xmat + 9 * b, local[b][k]);
          for (int c = 0; c < 3; c++) pm[c] += dd->xpos[3 * b + c];
          memcpy(Rm, dd->xmat + 9 * b, sizeof(Rm));
          omega_fd(w, Rp, Rm, d->xmat + 9 * b, H_FD);
          for (int c = 0; c < 3; c++) {
            ep = fmax(ep, fabs(jacp[c * nv + i] - (pp[c] - pm[c]) / (2 * H_FD)));
            er = fmax(er, fabs(jacr[c * nv + i] - w[c]));
          }
        }
      }
    }
    CHECK(ep < TOL_FD, "%s: jacp against differences of the kinematics (err %g)", name, ep);
    CHECK(er < TOL_FD, "%s: jacr against differences of the kinematics (err %g)", name, er);
    CHECK(ezero == 0, "%s: jacp or jacr alone (NULL for the other) are the same", name);
    CHECK(m->nsite == 0 || nsitept > 0, "%s: sites among the points", name);
  }
  /* the world body: nothing moves it */
  double p[3] = {0.3, 0.2, 0.1};
  gs_jac(m, d, jacp, jacr, p, 0);
  CHECK(maxabs(jacp, 3 * nv) == 0 && maxabs(jacr, 3 * nv) == 0, "%s: world body's Jacobian is zero", name);
  int welded = gs_name2id(m, GS_OBJ_BODY, "fixed");
  if (welded >= 0) {
    for (int i = 0; i < 3 * nv; i++) jacp[i] = jacr[i] = 1;  /* must be overwritten */
    gs_jac(m, d, jacp, jacr, p, welded);
    CHECK(maxabs(jacp, 3 * nv) == 0 && maxabs(jacr, 3 * nv) == 0, "%s: welded body's Jacobian is zero", name);
  }
  gs_freeData(dd);
  gs_freeData(d);
  gs_freeModel(m);
}

static void test_pendulum(void) {
  gsModel* m = load_xml(PENDULUM_XML);
  CHECK(m != NULL, "double pendulum loads");
  if (!m) return;
  gsData* d = gs_makeData(m);
  const double states[][2] = {{0, 0}, {0.3, -0.7}, {2.0, 1.1}, {-1.2, 3.0}};
  for (int s = 0; s < 4; s++) {
    d->qpos[0] = states[s][0];
    d->qpos[1] = states[s][1];
    kin(m, d);
    double jacp[6], jacr[6];
    gs_jac(m, d, jacp, jacr, d->xipos + 3 * 2, 2);
    double c1 = cos(d->qpos[0]), s1 = sin(d->qpos[0]);
    double c12 = cos(d->qpos[0] + d->qpos[1]), s12 = sin(d->qpos[0] + d->qpos[1]);
    /* p2 = (l1 s1 + l2 s12, 0, 2 - l1 c1 - l2 c12); rows x, y, z; columns q1, q2 */
    double want[6] = {DP_L1 * c1 + DP_L2 * c12, DP_L2 * c12, 0, 0,
                      DP_L1 * s1 + DP_L2 * s12, DP_L2 * s12};
    double wantr[6] = {0, 0, -1, -1, 0, 0};
    double pos[3] = {DP_L1 * s1 + DP_L2 * s12, 0, 2 - DP_L1 * c1 - DP_L2 * c12};
    CHECK(maxdiff(d->xipos + 6, pos, 3) < TOL_EXACT, "double pendulum state %d: second mass at p2", s);
    CHECK(maxdiff(jacp, want, 6) < TOL_EXACT, "double pendulum state %d: jacp in closed form (err %g)",
          s, maxdiff(jacp, want, 6));
    CHECK(maxdiff(jacr, wantr, 6) < TOL_EXACT, "double pendulum state %d: jacr = -y for both", s);
  }
  gs_freeData(d);
  gs_freeModel(m);
}

static void test_xfrc(const char* xml, const char* name) {
  gsModel* m = load_xml(xml);
  CHECK(m != NULL, "%s loads", name);
  if (!m) return;
  gsData* d = gs_makeData(m);
  int nv = m->nv;
  unsigned seed = 79;
  random_state(m, d, &seed, 1.0, 1.0);
  gs_forward(m, d);
  double base[MAXV], want[MAXV] = {0}, jacp[3 * MAXV], jacr[3 * MAXV];
  memcpy(base, d->qfrc_smooth, sizeof(double) * (size_t)nv);
  for (int b = 1; b < m->nbody; b++) {
    double* f = d->xfrc_applied + 6 * b;
    for (int i = 0; i < 6; i++) f[i] = urand(&seed);
    gs_jac(m, d, jacp, jacr, d->xipos + 3 * b, b);
    for (int i = 0; i < nv; i++)
      for (int c = 0; c < 3; c++) want[i] += jacp[c * nv + i] * f[c] + jacr[c * nv + i] * f[3 + c];
  }
  gs_forward(m, d);
  double err = 0;
  for (int i = 0; i < nv; i++) err = fmax(err, fabs(d->qfrc_smooth[i] - base[i] - want[i]));
  CHECK(err < TOL_EXACT * 10, "%s: xfrc_applied enters as J^T (f, t) at the com (err %g)", name, err);
  CHECK(maxabs(want, nv) > 0.1, "%s: the applied forces do something", name);
  gs_freeData(d);
  gs_freeModel(m);
}

/* a pendulum about -y through (0, 0, 2), with a site and a geom at local (x, z) = (a, b): at angle q
 * the point is (a c - b s, 0, 2 + a s + b c), so its Jacobian is (-a s - b c, 0, a c - b s) and
 * its derivative v (-a c + b s, 0, -a s - b c) */
#define SP_SA 0.2
#define SP_SB (-0.9)
#define SP_GA (-0.1)
#define SP_GB (-0.5)
#define SITE_PENDULUM_XML \
    "<mujoco model='site pendulum'>" \
    "  <worldbody>" \
    "    <body name='link' pos='0 0 2'>" \
    "      <joint name='q' type='hinge' axis='0 -1 0'/>" \
    "      <geom name='bob' type='sphere' size='0.1' pos='-0.1 0 -0.5'/>" \
    "      <site name='tip' pos='0.2 0 -0.9'/>" \
    "    </body>" \
    "  </worldbody>" \
    "</mujoco>"

static void point_closed(double q, double a, double b, double pos[3], double jac[3]) {
  double c = cos(q), s = sin(q);
  pos[0] = a * c - b * s, pos[1] = 0, pos[2] = 2 + a * s + b * c;
  jac[0] = -a * s - b * c, jac[1] = 0, jac[2] = a * c - b * s;
}

static void test_site_pendulum(void) {
  gsModel* m = load_xml(SITE_PENDULUM_XML);
  CHECK(m != NULL, "site pendulum loads");
  if (!m) return;
  gsData* d = gs_makeData(m);
  const double states[][2] = {{0, 0}, {0.4, -1.3}, {2.5, 0.7}, {-1.9, 2.2}};
  double jp[3], jr[3];
  const double wantr[3] = {0, -1, 0};
  for (int k = 0; k < 4; k++) {
    double q = states[k][0], v = states[k][1];
    d->qpos[0] = q;
    d->qvel[0] = v;
    gs_forward(m, d);
    double pos[3], want[3];
    point_closed(q, SP_SA, SP_SB, pos, want);
    CHECK(maxdiff(d->site_xpos, pos, 3) < TOL_EXACT, "site pendulum %d: site at its closed form", k);
    gs_jacSite(m, d, jp, jr, 0);
    CHECK(maxdiff(jp, want, 3) < TOL_EXACT, "site pendulum %d: site jacp closed form (err %g)", k,
          maxdiff(jp, want, 3));
    CHECK(maxdiff(jr, wantr, 3) < TOL_EXACT, "site pendulum %d: site jacr = -y", k);
    point_closed(q, SP_GA, SP_GB, pos, want);
    gs_jacGeom(m, d, jp, jr, 0);
    CHECK(maxdiff(jp, want, 3) < TOL_EXACT && maxdiff(jr, wantr, 3) < TOL_EXACT,
          "site pendulum %d: geom Jacobian closed form (err %g)", k, maxdiff(jp, want, 3));
    /* the body's origin is on the axis, its com is the geom's centre (the only mass) */
    gs_jacBody(m, d, jp, jr, 1);
    CHECK(maxabs(jp, 3) < TOL_EXACT && maxdiff(jr, wantr, 3) < TOL_EXACT,
          "site pendulum %d: origin on the axis does not move", k);
    gs_jacBodyCom(m, d, jp, NULL, 1);
    CHECK(maxdiff(jp, want, 3) < TOL_EXACT, "site pendulum %d: com Jacobian closed form", k);
    gs_jacSubtreeCom(m, d, jp, 1);
    CHECK(maxdiff(jp, want, 3) < TOL_EXACT, "site pendulum %d: one body: subtree com = com", k);
    /* time derivative of the site's Jacobian */
    double c = cos(q), s = sin(q);
    double wantd[3] = {v * (-SP_SA * c + SP_SB * s), 0, v * (-SP_SA * s - SP_SB * c)};
    gs_jacDot(m, d, jp, jr, d->site_xpos, 1);
    CHECK(maxdiff(jp, wantd, 3) < TOL_EXACT, "site pendulum %d: jacDot closed form (err %g)", k,
          maxdiff(jp, wantd, 3));
    CHECK(maxabs(jr, 3) == 0, "site pendulum %d: a fixed axis: jacr does not change", k);
    /* an axis turning with the body: d(axis)/dq = -y x axis */
    double axis[3] = {0.3, -0.4, 0.5}, ja[3], wanta[3];
    cross3(wanta, wantr, axis);
    gs_jacPointAxis(m, d, jp, ja, d->site_xpos, axis, 1);
    point_closed(q, SP_SA, SP_SB, pos, want);
    CHECK(maxdiff(jp, want, 3) < TOL_EXACT && maxdiff(ja, wanta, 3) < TOL_EXACT,
          "site pendulum %d: point-axis Jacobian closed form", k);
  }
  /* bad ids: zeros, nothing read out of range (ASan) */
  double jp2[3] = {1, 1, 1}, jr2[3] = {1, 1, 1}, p0[3] = {0, 0, 0};
  int bad[] = {-1, 5, 1 << 30};
  for (int i = 0; i < 3; i++) {
    gs_jacSite(m, d, jp2, jr2, bad[i]);
    CHECK(maxabs(jp2, 3) == 0 && maxabs(jr2, 3) == 0, "bad site id %d: zeros", bad[i]);
    jp2[0] = jr2[0] = 1;
    gs_jacGeom(m, d, jp2, jr2, bad[i]);
    CHECK(maxabs(jp2, 3) == 0 && maxabs(jr2, 3) == 0, "bad geom id %d: zeros", bad[i]);
    jp2[0] = jr2[0] = 1;
    gs_jacBody(m, d, jp2, jr2, bad[i]);
    CHECK(maxabs(jp2, 3) == 0 && maxabs(jr2, 3) == 0, "bad body id %d: zeros (jacBody)", bad[i]);
    jp2[0] = jr2[0] = 1;
    gs_jacBodyCom(m, d, jp2, jr2, bad[i]);
    CHECK(maxabs(jp2, 3) == 0 && maxabs(jr2, 3) == 0, "bad body id %d: zeros (jacBodyCom)", bad[i]);
    jp2[0] = 1;
    gs_jacSubtreeCom(m, d, jp2, bad[i]);
    CHECK(maxabs(jp2, 3) == 0, "bad body id %d: zeros (jacSubtreeCom)", bad[i]);
    jp2[0] = jr2[0] = 1;
    gs_jacDot(m, d, jp2, jr2, p0, bad[i]);
    CHECK(maxabs(jp2, 3) == 0 && maxabs(jr2, 3) == 0, "bad body id %d: zeros (jacDot)", bad[i]);
    jp2[0] = jr2[0] = 1;
    gs_jacPointAxis(m, d, jp2, jr2, p0, p0, bad[i]);
    CHECK(maxabs(jp2, 3) == 0 && maxabs(jr2, 3) == 0, "bad body id %d: zeros (jacPointAxis)", bad[i]);
  }
  /* NULL outputs are skipped */
  gs_jacSite(m, d, NULL, NULL, 0);
  gs_jacDot(m, d, NULL, NULL, p0, 1);
  gs_jacPointAxis(m, d, NULL, NULL, p0, p0, 1);
  gs_jacSubtreeCom(m, d, NULL, 1);
  CHECK(1, "NULL Jacobians are not written");
  gs_freeData(d);
  gs_freeModel(m);
}

/* the double pendulum: the subtree com of link1 is (m1 p1c + m2 p2c) / (m1 + m2) and the second
 * mass's Jacobian changes at d/dt [l1 c1 + l2 c12, l2 c12; 0 0; l1 s1 + l2 s12, l2 s12] */
static void test_pendulum_subtree_dot(void) {
  gsModel* m = load_xml(PENDULUM_XML);
  CHECK(m != NULL, "double pendulum loads");
  if (!m) return;
  gsData* d = gs_makeData(m);
  const double states[][4] = {{0, 0, 0, 0}, {0.3, -0.7, 1.2, -0.4}, {2.0, 1.1, -0.8, 2.1}};
  for (int k = 0; k < 3; k++) {
    for (int i = 0; i < 2; i++) d->qpos[i] = states[k][i], d->qvel[i] = states[k][2 + i];
    gs_forward(m, d);
    double q1 = d->qpos[0], q12 = d->qpos[0] + d->qpos[1], v1 = d->qvel[0], v12 = v1 + d->qvel[1];
    double c1 = cos(q1), s1 = sin(q1), c12 = cos(q12), s12 = sin(q12);
    double j1[6] = {DP_L1 * c1, 0, 0, 0, DP_L1 * s1, 0};
    double j2[6] = {DP_L1 * c1 + DP_L2 * c12, DP_L2 * c12, 0, 0, DP_L1 * s1 + DP_L2 * s12, DP_L2 * s12};
    double want[6], jp[6], jr[6];
    for (int i = 0; i < 6; i++) want[i] = (DP_M1 * j1[i] + DP_M2 * j2[i]) / (DP_M1 + DP_M2);
    gs_jacSubtreeCom(m, d, jp, 1);
    CHECK(maxdiff(jp, want, 6) < TOL_EXACT, "double pendulum %d: subtree com Jacobian (err %g)", k,
          maxdiff(jp, want, 6));
    gs_jacSubtreeCom(m, d, jp, 2);
    CHECK(maxdiff(jp, j2, 6) < TOL_EXACT, "double pendulum %d: leaf subtree = its com", k);
    gs_jacSubtreeCom(m, d, jp, 0);
    CHECK(maxdiff(jp, want, 6) < TOL_EXACT, "double pendulum %d: world subtree = whole model", k);
    double wantd[6] = {-DP_L1 * s1 * v1 - DP_L2 * s12 * v12, -DP_L2 * s12 * v12, 0, 0,
                       DP_L1 * c1 * v1 + DP_L2 * c12 * v12, DP_L2 * c12 * v12};
    gs_jacDot(m, d, jp, jr, d->xipos + 6, 2);
    CHECK(maxdiff(jp, wantd, 6) < TOL_EXACT, "double pendulum %d: jacDot closed form (err %g)", k,
          maxdiff(jp, wantd, 6));
    CHECK(maxabs(jr, 6) == 0, "double pendulum %d: parallel axes: jacr constant", k);
  }
  gs_freeData(d);
  gs_freeModel(m);
}

/* gs_differentiatePos(gs_integratePos(q, v, h)) = v, and equal positions give zero */
static void test_differentiate(const char* xml, const char* name) {
  gsModel* m = load_xml(xml);
  CHECK(m != NULL, "%s loads", name);
  if (!m) return;
  gsData* d = gs_makeData(m);
  unsigned seed = 91;
  double q2[MAXV], v[MAXV];
  for (int trial = 0; trial < 5; trial++) {
    random_state(m, d, &seed, 1.0, 2.0);
    double h = 0.05 + 0.3 * (trial + 1) / 5.0;  /* rotations by |v| h < pi */
    memcpy(q2, d->qpos, sizeof(double) * (size_t)m->nq);
    gs_integratePos(m, q2, d->qvel, h);
    gs_differentiatePos(m, v, h, d->qpos, q2);
    CHECK(maxdiff(v, d->qvel, m->nv) < 1e-12, "%s trial %d: differentiate(integrate(v)) = v (err %g)",
          name, trial, maxdiff(v, d->qvel, m->nv));
    gs_differentiatePos(m, v, h, d->qpos, d->qpos);
    CHECK(maxabs(v, m->nv) == 0, "%s trial %d: equal positions: zero velocity", name, trial);
  }
  gs_freeData(d);
  gs_freeModel(m);
}

/* M = L^T D L: |D^1/2 L x|^2 = x^T M x and |D^-1/2 L^-T y|^2 = y^T M^-1 y */
static void test_M_halves(const char* xml, const char* name) {
  gsModel* m = load_xml(xml);
  CHECK(m != NULL, "%s loads", name);
  if (!m) return;
  gsData* d = gs_makeData(m);
  unsigned seed = 97;
  random_state(m, d, &seed, 1.0, 1.0);
  gs_forward(m, d);
  int nv = m->nv;
  double x[2 * MAXV], Mx[MAXV], h[2 * MAXV], z[2 * MAXV];
  for (int i = 0; i < 2 * nv; i++) x[i] = urand(&seed);
  gs_mulM(m, d, Mx, x);
  gs_mulM2(m, d, h, x);
  double a = 0, b = 0;
  for (int i = 0; i < nv; i++) a += h[i] * h[i], b += x[i] * Mx[i];
  CHECK(fabs(a - b) < 1e-12 * fmax(1, b), "%s: |mulM2 x|^2 = x' M x (%g vs %g)", name, a, b);
  gs_solveM(m, d, z, x, 2);
  gs_solveM2(m, d, h, x, 2);
  for (int r = 0; r < 2; r++) {
    a = b = 0;
    for (int i = 0; i < nv; i++) a += h[r * nv + i] * h[r * nv + i], b += x[r * nv + i] * z[r * nv + i];
    CHECK(fabs(a - b) < 1e-12 * fmax(1, b), "%s rhs %d: |solveM2 y|^2 = y' M^-1 y (%g vs %g)", name,
          r, a, b);
  }
  /* in place, as documented */
  memcpy(h, x, sizeof(double) * (size_t)(2 * nv));
  gs_solveM(m, d, h, h, 2);
  CHECK(maxdiff(h, z, 2 * nv) == 0, "%s: solveM in place", name);
  gs_freeData(d);
  gs_freeModel(m);
}

int main(void) {
  test_fd(TREE_XML, "tree");
  test_fd(FLOAT_XML, "float");
  test_fd(PENDULUM_XML, "double pendulum");
  test_pendulum();
  test_xfrc(TREE_XML, "tree");
  test_xfrc(FLOAT_XML, "float");
  test_site_pendulum();
  test_pendulum_subtree_dot();
  test_differentiate(TREE_XML, "tree");
  test_differentiate(FLOAT_XML, "float");
  test_M_halves(TREE_XML, "tree");
  test_M_halves(FLOAT_XML, "float");
  return CHECK_SUMMARY();
}
