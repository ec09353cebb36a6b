/* Recursive Newton-Euler (src/dynamics/rne.c) and the smooth forward dynamics it feeds, without the
 * Python oracle:
 * - the double pendulum in closed form (Tedrake, "Multi-Body Dynamics"): qfrc_bias = C(q, v) v -
 *   tau_g(q), and qacc = M^-1 (tau - C v + tau_g) with applied joint torques, at several states;
 * - free bodies: bias (-m g, w x I w), free fall qacc = g with Euler's equations I a + w x I w = 0
 *   for the rotation, and a com off the body origin accelerating at exactly g;
 * - on a branched hinge/slide tree, Lagrange's equations by central differences:
 *   c = dM/dt v - 1/2 d/dq (v^T M v) + dU/dq, with M from gs_fullM and U = -sum m g . xipos;
 * - generalised gravity (v = 0) = dU/dq along every dof, ball and free joints included;
 * - on every model, d'Alembert body by body: the bias and then forward's qacc against
 *   sum_b J_b^T [m (a_b - g); I alpha_b + w x I w] (+ armature qacc), with body accelerations from second
 *   differences of the kinematics along q (+) t v and Jacobian columns from first differences;
 * - the power identity v^T c(q, v) = 1/2 v^T dM/dt v without gravity (no force does work);
 * - gs_rne with an acceleration gives M qacc + bias less the armature's armature qacc (columns of
 *   M from RNE against CRB's M), and at forward's qacc the applied and passive forces (inverse
 *   dynamics). */
#include "core_util.h"

#include "check.h"

/* closed forms: rounding of sums of O(10) terms */
#define TOL_EXACT 1e-12
/* first differences with h = 1e-5 of M or U (entries O(1..10)): truncation h^2/6 |f'''| ~ 1e-9,
 * rounding eps |f| / h ~ 1e-10; multiplied by |v|^2 ~ 4 */
#define H1 1e-5
#define TOL_FD1 1e-7
/* second differences with h = 2e-4 of positions of size O(1): rounding 4 eps |x| / h^2 ~ 5e-8,
 * truncation h^2/12 |x''''| ~ 3e-8 |x''''| (|v| <= 1.5); times masses and lever arms O(1..3) and
 * summed over the bodies: relative to the generalised forces (|c| ~ 10..30) */
#define H2 2e-4
#define TOL_FD2 2e-6

static void test_pendulum(void) {
  gsModel* m = load_xml(PENDULUM_XML);
  CHECK(m != NULL, "double pendulum loads");
  if (!m) return;
  gsData* d = gs_makeData(m);
  const double states[][4] = {{0, 0, 0, 0}, {0.3, -0.7, 1.5, -2.0}, {2.0, 1.1, -0.4, 3.0},
                              {-1.2, 3.0, 2.5, 0.7}, {M_PI, M_PI / 2, 0, -1}};
  const double tau[][2] = {{0, 0}, {1.0, -0.5}, {0, 2.0}, {-3.0, 0.2}, {0.5, 0.5}};
  for (int s = 0; s < 5; s++) {
    d->qpos[0] = states[s][0]; d->qpos[1] = states[s][1];
    d->qvel[0] = states[s][2]; d->qvel[1] = states[s][3];
    d->qfrc_applied[0] = tau[s][0]; d->qfrc_applied[1] = tau[s][1];
    gs_forward(m, d);
    double c[2], M[4];
    dp_bias(d->qpos, d->qvel, c);
    dp_mass(d->qpos, M);
    double r0 = tau[s][0] - c[0], r1 = tau[s][1] - c[1], det = M[0] * M[3] - M[1] * M[2];
    double qacc[2] = {(M[3] * r0 - M[1] * r1) / det, (M[0] * r1 - M[2] * r0) / det};
    double eb = maxdiff(d->qfrc_bias, c, 2), ea = maxdiff(d->qacc, qacc, 2);
    CHECK(eb < TOL_EXACT, "double pendulum state %d: bias (%g %g), want (%g %g)", s,
          d->qfrc_bias[0], d->qfrc_bias[1], c[0], c[1]);
    CHECK(ea < TOL_EXACT, "double pendulum state %d: qacc (%g %g), want (%g %g)", s, d->qacc[0],
          d->qacc[1], qacc[0], qacc[1]);
  }
  /* hanging still: no bias; horizontal: the full weight's torque */
  d->qpos[0] = d->qpos[1] = d->qvel[0] = d->qvel[1] = 0;
  d->qfrc_applied[0] = d->qfrc_applied[1] = 0;
  gs_forward(m, d);
  CHECK(maxabs(d->qfrc_bias, 2) < 1e-15 && maxabs(d->qacc, 2) < 1e-15, "hanging still: rest");
  d->qpos[0] = M_PI / 2;
  gs_forward(m, d);
  double want = DP_G * (DP_M1 * DP_L1 + DP_M2 * (DP_L1 + DP_L2));
  CHECK(fabs(d->qfrc_bias[0] - want) < TOL_EXACT, "horizontal: bias %g, want g (m1 l1 + m2 (l1 + l2)) = %g",
        d->qfrc_bias[0], want);
  gs_freeData(d);
  gs_freeModel(m);
}

static void test_free_body(void) {
  gsModel* m = load_xml(FREE_XML);
  CHECK(m != NULL, "free bodies load");
  if (!m) return;
  gsData* d = gs_makeData(m);
  unsigned seed = 31;
  const double* g = m->opt.gravity;
  for (int trial = 0; trial < 4; trial++) {
    random_state(m, d, &seed, 2.0, 3.0);
    gs_forward(m, d);
    double ebias = 0, efall = 0, eeuler = 0, ecom = 0;
    for (int b = 1; b < m->nbody; b++) {
      int a = m->body_dofadr[b];
      double mass = m->body_mass[b], Q[9], Ib[9], R[9], Iw[3], wIw[3], Ia[3], t[3];
      const double* c = m->body_ipos + 3 * b;
      const double* J = m->body_inertia + 3 * b;
      const double* w = d->qvel + a + 3;
      const double* alpha = d->qacc + a + 3;
      quat2mat(Q, m->body_iquat + 4 * b);
      quat2mat(R, d->qpos + m->jnt_qposadr[m->body_jntadr[b]] + 3);
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
          Ib[3 * i + j] = Q[3 * i] * J[0] * Q[3 * j] + Q[3 * i + 1] * J[1] * Q[3 * j + 1] +
                          Q[3 * i + 2] * J[2] * Q[3 * j + 2];
      /* about the com, in the body frame: I alpha + w x I w = 0 (gravity has no torque there) */
      matvec3(Iw, Ib, w);
      cross3(wIw, w, Iw);
      matvec3(Ia, Ib, alpha);
      for (int i = 0; i < 3; i++) eeuler = fmax(eeuler, fabs(Ia[i] + wIw[i]));
      /* the com falls at g: a_origin + R (alpha x c + w x (w x c)) */
      double ac[3], wc[3], wwc[3], acom[3];
      cross3(ac, alpha, c);
      cross3(wc, w, c);
      cross3(wwc, w, wc);
      for (int i = 0; i < 3; i++) t[i] = ac[i] + wwc[i];
      matvec3(acom, R, t);
      for (int i = 0; i < 3; i++) ecom = fmax(ecom, fabs(d->qacc[a + i] + acom[i] - g[i]));
      if (dot3(c, c) == 0) {
        /* centred: bias (-m g, w x I w), qacc (g, -I^-1 (w x I w)) */
        for (int i = 0; i < 3; i++) {
          ebias = fmax(ebias, fabs(d->qfrc_bias[a + i] + mass * g[i]));
          ebias = fmax(ebias, fabs(d->qfrc_bias[a + 3 + i] - wIw[i]));
          efall = fmax(efall, fabs(d->qacc[a + i] - g[i]));
        }
      }
    }
    CHECK(ebias < TOL_EXACT, "free bodies: bias = (-m g, w x I w) (err %g)", ebias);
    CHECK(efall < TOL_EXACT, "free bodies: the origin of a centred body falls at g (err %g)", efall);
    CHECK(eeuler < TOL_EXACT, "free bodies: Euler's equations about the com (err %g)", eeuler);
    CHECK(ecom < TOL_EXACT, "free bodies: every com falls at g (err %g)", ecom);
  }
  gs_freeData(d);
  gs_freeModel(m);
}

/* generalised gravity and the inputs to the tests below */
static double potential(const gsModel* m, const gsData* d) {
  double U = 0;
  for (int b = 1; b < m->nbody; b++) U -= m->body_mass[b] * dot3(m->opt.gravity, d->xipos + 3 * b);
  return U;
}

/* dense M at qpos (+) h v, into M */
static void mass_at(const gsModel* m, gsData* dd, const double* q, const double* v, double h, double* M) {
  set_moved(m, dd, q, v, h);
  kin(m, dd);
  gs_crb(m, dd);
  gs_fullM(m, M, dd->qM);
}

static void test_lagrange(void) {
  gsModel* m = load_xml(TREE_XML);
  CHECK(m != NULL, "tree loads");
  if (!m) return;
  gsData* d = gs_makeData(m);
  gsData* dd = gs_makeData(m);
  int nv = m->nv;
  CHECK(m->nq == nv, "tree: hinges and slides only (qpos moves as qvel)");
  unsigned seed = 41;
  double Mp[MAXV * MAXV], Mm[MAXV * MAXV], e[MAXV];
  for (int trial = 0; trial < 3; trial++) {
    random_state(m, d, &seed, 1.0, 1.5);
    gs_forward(m, d);
    double want[MAXV], Mdot_v[MAXV];
    /* dM/dt v, dM/dt along v */
    mass_at(m, dd, d->qpos, d->qvel, H1, Mp);
    mass_at(m, dd, d->qpos, d->qvel, -H1, Mm);
    for (int i = 0; i < nv; i++) {
      Mdot_v[i] = 0;
      for (int j = 0; j < nv; j++) Mdot_v[i] += (Mp[i * nv + j] - Mm[i * nv + j]) / (2 * H1) * d->qvel[j];
    }
    for (int i = 0; i < nv; i++) {
      memset(e, 0, sizeof(e));
      e[i] = 1;
      /* - d/dq_i (1/2 v^T M v) + dU/dq_i */
      mass_at(m, dd, d->qpos, e, H1, Mp);
      double Up = potential(m, dd);
      mass_at(m, dd, d->qpos, e, -H1, Mm);
      double Um = potential(m, dd);
      double dT = 0;
      for (int j = 0; j < nv; j++)
        for (int k = 0; k < nv; k++)
          dT += 0.5 * d->qvel[j] * (Mp[j * nv + k] - Mm[j * nv + k]) / (2 * H1) * d->qvel[k];
      want[i] = Mdot_v[i] - dT + (Up - Um) / (2 * H1);
    }
    double err = maxdiff(d->qfrc_bias, want, nv);
    CHECK(err < TOL_FD1 * fmax(1, maxabs(want, nv)), "tree: bias from Lagrange's equations (err %g of %g)",
          err, maxabs(want, nv));
  }
  gs_freeData(dd);
  gs_freeData(d);
  gs_freeModel(m);
}

/* d'Alembert body by body. Body accelerations along q (+) t v (v held constant, the bias part)
 * from second differences; Jacobian columns from first differences along each dof. */
static void test_dalembert(const char* xml, const char* name) {
  gsModel* m = load_xml(xml);
  CHECK(m != NULL, "%s loads", name);
  if (!m) return;
  gsData* d = gs_makeData(m);
  gsData* dd = gs_makeData(m);
  int nv = m->nv, nb = m->nbody;
  unsigned seed = 43;
  const double* g = m->opt.gravity;
  for (int trial = 0; trial < 3; trial++) {
    random_state(m, d, &seed, 1.0, 1.5);
    for (int i = 0; i < nv; i++) d->qfrc_applied[i] = 5 * urand(&seed);
    gs_forward(m, d);

    /* positions and frames at q (+) h v, q, q (+) -h v */
    double x[3][MAXV][3], R[3][MAXV][9];
    for (int s = 0; s < 3; s++) {
      set_moved(m, dd, d->qpos, d->qvel, (1 - s) * H2);
      gs_kinematics(m, dd);
      memcpy(x[s], dd->xipos, sizeof(double) * 3 * (size_t)nb);
      memcpy(R[s], dd->ximat, sizeof(double) * 9 * (size_t)nb);
    }
    double a0[MAXV][3], al0[MAXV][3], w[MAXV][3], vc[MAXV][3];
    body_vel_fd(m, dd, d->qpos, d->qvel, H1, vc, w);
    for (int b = 1; b < nb; b++) {
      double Rdd[9], W[9];
      for (int i = 0; i < 3; i++) a0[b][i] = (x[0][b][i] - 2 * x[1][b][i] + x[2][b][i]) / (H2 * H2);
      /* d/dt (dR/dt R^T) = R'' R^T + R' R'^T; the second term is symmetric */
      for (int i = 0; i < 9; i++) Rdd[i] = (R[0][b][i] - 2 * R[1][b][i] + R[2][b][i]) / (H2 * H2);
      matmulT3(W, Rdd, R[1][b]);
      al0[b][0] = 0.5 * (W[7] - W[5]);
      al0[b][1] = 0.5 * (W[2] - W[6]);
      al0[b][2] = 0.5 * (W[3] - W[1]);
    }
    /* Jacobian columns: com velocity and angular velocity of every body per unit qvel_i */
    static double Jv[MAXV][MAXV][3], Jw[MAXV][MAXV][3];
    double e[MAXV];
    for (int i = 0; i < nv; i++) {
      memset(e, 0, sizeof(e));
      e[i] = 1;
      body_vel_fd(m, dd, d->qpos, e, H1, Jv[i], Jw[i]);
    }
    /* the bias (qacc = 0), then the full motion (forward's qacc) */
    for (int pass = 0; pass < 2; pass++) {
      double want[MAXV] = {0}, got[MAXV];
      for (int b = 1; b < nb; b++) {
        double a[3], al[3], I[9], Iw[3], wIw[3], f[3], tq[3];
        memcpy(a, a0[b], sizeof(a));
        memcpy(al, al0[b], sizeof(al));
        if (pass)
          for (int i = 0; i < nv; i++)
            for (int k = 0; k < 3; k++) a[k] += Jv[i][b][k] * d->qacc[i], al[k] += Jw[i][b][k] * d->qacc[i];
        world_inertia(m, d, b, I);
        matvec3(Iw, I, w[b]);
        cross3(wIw, w[b], Iw);
        matvec3(tq, I, al);
        for (int k = 0; k < 3; k++) f[k] = m->body_mass[b] * (a[k] - g[k]), tq[k] += wIw[k];
        for (int i = 0; i < nv; i++) want[i] += dot3(Jv[i][b], f) + dot3(Jw[i][b], tq);
      }
      for (int i = 0; i < nv; i++)
        got[i] = pass ? d->qfrc_applied[i] + d->qfrc_passive[i] - m->dof_armature[i] * d->qacc[i]
                      : d->qfrc_bias[i];
      double err = maxdiff(got, want, nv), scale = fmax(1, maxabs(want, nv));
      CHECK(err < TOL_FD2 * scale, "%s: %s body by body (err %g of %g)", name,
            pass ? "forward's qacc balances the forces" : "bias = sum J^T (inertial - gravity) forces",
            err, scale);
    }
  }
  gs_freeData(dd);
  gs_freeData(d);
  gs_freeModel(m);
}

/* v = 0: the bias is the generalised gravity, dU/dq along each dof; without gravity, zero */
static void test_gravity(const char* xml, const char* name) {
  gsModel* m = load_xml(xml);
  CHECK(m != NULL, "%s loads", name);
  if (!m) return;
  gsData* d = gs_makeData(m);
  gsData* dd = gs_makeData(m);
  int nv = m->nv;
  unsigned seed = 47;
  double e[MAXV], want[MAXV];
  for (int trial = 0; trial < 3; trial++) {
    random_state(m, d, &seed, 1.0, 0);
    gs_forward(m, d);
    for (int i = 0; i < nv; i++) {
      memset(e, 0, sizeof(e));
      e[i] = 1;
      set_moved(m, dd, d->qpos, e, H1);
      gs_kinematics(m, dd);
      double Up = potential(m, dd);
      set_moved(m, dd, d->qpos, e, -H1);
      gs_kinematics(m, dd);
      want[i] = (Up - potential(m, dd)) / (2 * H1);
    }
    double err = maxdiff(d->qfrc_bias, want, nv);
    CHECK(err < TOL_FD1 * fmax(1, maxabs(want, nv)), "%s: generalised gravity = dU/dq (err %g of %g)",
          name, err, maxabs(want, nv));
  }
  m->opt.disableflags |= GS_DSBL_GRAVITY;
  gs_forward(m, d);
  CHECK(maxabs(d->qfrc_bias, nv) == 0, "%s: no gravity, no velocity: no bias", name);
  gs_freeData(dd);
  gs_freeData(d);
  gs_freeModel(m);
}

/* without gravity: v^T c = 1/2 v^T (dM/dt) v, and c is quadratic in v */
static void test_power(const char* xml, const char* name) {
  gsModel* m = load_xml(xml);
  CHECK(m != NULL, "%s loads", name);
  if (!m) return;
  m->opt.disableflags |= GS_DSBL_GRAVITY;
  gsData* d = gs_makeData(m);
  gsData* dd = gs_makeData(m);
  int nv = m->nv;
  unsigned seed = 53;
  double Mp[MAXV * MAXV], Mm[MAXV * MAXV];
  for (int trial = 0; trial < 3; trial++) {
    random_state(m, d, &seed, 1.0, 1.5);
    gs_forward(m, d);
    mass_at(m, dd, d->qpos, d->qvel, H1, Mp);
    mass_at(m, dd, d->qpos, d->qvel, -H1, Mm);
    double vc = 0, vMv = 0;
    for (int i = 0; i < nv; i++) {
      vc += d->qvel[i] * d->qfrc_bias[i];
      for (int j = 0; j < nv; j++) vMv += d->qvel[i] * (Mp[i * nv + j] - Mm[i * nv + j]) / (2 * H1) * d->qvel[j];
    }
    CHECK(fabs(vc - 0.5 * vMv) < TOL_FD1 * fmax(1, fabs(vc)), "%s: v^T c = 1/2 v^T dM/dt v (%g vs %g)",
          name, vc, 0.5 * vMv);
    double c1[MAXV];
    memcpy(c1, d->qfrc_bias, sizeof(double) * (size_t)nv);
    for (int i = 0; i < nv; i++) d->qvel[i] *= -2;
    gs_forward(m, d);
    double eq = 0;
    for (int i = 0; i < nv; i++) eq = fmax(eq, fabs(d->qfrc_bias[i] - 4 * c1[i]));
    CHECK(eq < TOL_EXACT * fmax(1, maxabs(c1, nv)), "%s: c(q, -2v) = 4 c(q, v) (err %g)", name, eq);
  }
  gs_freeData(dd);
  gs_freeData(d);
  gs_freeModel(m);
}

/* gs_rne with an acceleration: M qacc + bias, and inverse dynamics at forward's qacc */
static void test_rne_acc(const char* xml, const char* name) {
  gsModel* m = load_xml(xml);
  CHECK(m != NULL, "%s loads", name);
  if (!m) return;
  gsData* d = gs_makeData(m);
  int nv = m->nv;
  unsigned seed = 59;
  double M[MAXV * MAXV], r0[MAXV], r1[MAXV], Ma[MAXV];
  for (int trial = 0; trial < 3; trial++) {
    random_state(m, d, &seed, 1.0, 1.5);
    for (int i = 0; i < nv; i++) d->qfrc_applied[i] = 5 * urand(&seed);
    gs_forward(m, d);
    /* inverse dynamics at forward's acceleration: the forces that caused it (RNE works on the
     * bodies: the armature's share, armature qacc, is not in it, as in MJCF) */
    gs_rne(m, d, 1, r1);
    double eid = 0, scale = 1;
    for (int i = 0; i < nv; i++) {
      double arm = m->dof_armature[i] * d->qacc[i];
      eid = fmax(eid, fabs(r1[i] + arm - d->qfrc_applied[i] - d->qfrc_passive[i]));
      scale = fmax(scale, fabs(r1[i]));
    }
    CHECK(eid < TOL_EXACT * scale, "%s: rne(qacc) + armature qacc = applied + passive forces (err %g)",
          name, eid);
    /* any acceleration: M qacc + c */
    for (int i = 0; i < nv; i++) d->qacc[i] = 3 * urand(&seed);
    gs_rne(m, d, 1, r1);
    gs_mulM(m, d, Ma, d->qacc);
    double emul = 0;
    for (int i = 0; i < nv; i++)
      emul = fmax(emul, fabs(r1[i] + m->dof_armature[i] * d->qacc[i] - Ma[i] - d->qfrc_bias[i]));
    CHECK(emul < TOL_EXACT * scale, "%s: rne(qacc) + armature qacc = M qacc + bias (err %g)", name, emul);
    gs_rne(m, d, 0, r0);
    CHECK(maxdiff(r0, d->qfrc_bias, nv) == 0, "%s: rne without acceleration is qfrc_bias", name);
    /* the columns of M by RNE (cinert) against CRB */
    gs_fullM(m, M, d->qM);
    double ecol = 0;
    for (int j = 0; j < nv; j++) {
      for (int i = 0; i < nv; i++) d->qacc[i] = i == j;
      gs_rne(m, d, 1, r1);
      for (int i = 0; i < nv; i++)
        ecol = fmax(ecol, fabs(r1[i] - r0[i] - M[i * nv + j] + (i == j) * m->dof_armature[j]));
    }
    CHECK(ecol < TOL_EXACT * scale, "%s: rne(e_j) - rne(0) = M e_j - armature (err %g)", name, ecol);
  }
  gs_freeData(d);
  gs_freeModel(m);
}

int main(void) {
  test_pendulum();
  test_free_body();
  test_lagrange();
  test_dalembert(TREE_XML, "tree");
  test_dalembert(FLOAT_XML, "float");
  test_dalembert(PENDULUM_XML, "double pendulum");
  test_gravity(TREE_XML, "tree");
  test_gravity(FLOAT_XML, "float");
  test_power(TREE_XML, "tree");
  test_power(FLOAT_XML, "float");
  test_rne_acc(TREE_XML, "tree");
  test_rne_acc(FLOAT_XML, "float");
  return CHECK_SUMMARY();
}
