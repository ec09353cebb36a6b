/* Jacobians (src/dynamics/jacobian.c) without the Python oracle:
 * - gs_jac against central differences: column i of jacp is the velocity of a point fixed on the
 *   body when dof i moves at unit speed (qpos moved by gs_integratePos, so ball and free dofs are
 *   body-frame angular velocities), column i of jacr the body's angular velocity, for sites, coms
 *   and random points on every body of a branched hinge/slide tree, of a model with free, ball,
 *   hinge and slide joints in several trees, and of the double pendulum; zero columns for dofs
 *   that do not move the body, and an all-zero Jacobian for the world and a welded body;
 * - the double pendulum's Jacobian of its second mass in closed form;
 * - Cartesian forces and torques (xfrc_applied, at each body's com) enter qfrc_smooth as
 *   jacp^T f + jacr^T t. */
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

int main(void) {
  test_fd(TREE_XML, "tree");
  test_fd(FLOAT_XML, "float");
  test_fd(PENDULUM_XML, "double pendulum");
  test_pendulum();
  test_xfrc(TREE_XML, "tree");
  test_xfrc(FLOAT_XML, "float");
  return CHECK_SUMMARY();
}
