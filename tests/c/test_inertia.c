/* The joint-space inertia matrix (src/dynamics/inertia.c: CRB, the LTDL factor, products and
 * solves) without the Python oracle:
 * - the double pendulum's M(q) in closed form (Tedrake, "Multi-Body Dynamics") at several states;
 * - a free body's M in closed form: m I for the world-frame translation of the body origin, the
 *   body-frame inertia for the body-frame angular velocity, and the coupling -m R [c]x when the
 *   com sits at c in the body frame;
 * - on a branched hinge/slide tree and on a model with free, ball, hinge and slide joints: M is
 *   the Hessian of the kinetic energy, 2T(v) = v^T M v with T summed over the bodies from
 *   velocities found by central differences of the kinematics (entries by polarization), plus the
 *   armature on the diagonal; this also checks the zeros between branches and between trees;
 * - the factor in qLD/qLDiagInv: L^T D L reproduces M, D > 0, qLDiagInv = 1/D; a non-positive
 *   pivot is reported through GS_WARN_INERTIA with its dof, at a leaf and at a leaf's parent and
 *   grandparent eliminated with it (two or three dofs of a chain go in one pass);
 * - gs_mulM is the dense product with gs_fullM's matrix, gs_solveM inverts it (several right-hand
 *   sides, and each unit vector: zeros the solve skips, on three slides whose M holds an exact
 *   zero between a dof and its parent). */
#include "core_util.h"

#include "check.h"

/* closed forms and factor products: sums of a few O(1) products, relative to |M| ~ 1..5 */
#define TOL_EXACT 1e-13
/* Polarization of T from velocities by central differences (h = 1e-5): the velocities err by
 * ~1e-10 relative (truncation h^2/6 |x'''| and rounding eps |x|/h), so 2T and M by a few 1e-10 */
#define H_FD 1e-5
#define TOL_FD 1e-8

static void test_pendulum(void) {
  gsModel* m = load_xml(PENDULUM_XML);
  CHECK(m != NULL, "double pendulum loads");
  if (!m) return;
  gsData* d = gs_makeData(m);
  const double states[][2] = {{0, 0}, {0.3, -0.7}, {2.0, 1.1}, {-1.2, 3.0}, {M_PI, M_PI / 2}};
  for (int s = 0; s < 5; s++) {
    d->qpos[0] = states[s][0];
    d->qpos[1] = states[s][1];
    gs_forward(m, d);
    double M[4], want[4];
    gs_fullM(m, M, d->qM);
    dp_mass(d->qpos, want);
    double e = maxdiff(M, want, 4);
    CHECK(e < TOL_EXACT, "double pendulum M at q = (%g, %g): err %g (M11 %g, want %g)", d->qpos[0],
          d->qpos[1], e, M[0], want[0]);
  }
  gs_freeData(d);
  gs_freeModel(m);
}

static void test_free_body(void) {
  gsModel* m = load_xml(FREE_XML);
  CHECK(m != NULL, "free bodies load");
  if (!m) return;
  gsData* d = gs_makeData(m);
  unsigned seed = 3;
  double M[MAXV * MAXV];
  int nv = m->nv;
  for (int trial = 0; trial < 4; trial++) {
    random_state(m, d, &seed, 2.0, 0);
    gs_forward(m, d);
    gs_fullM(m, M, d->qM);
    double err = 0, ecross = 0;
    for (int b = 1; b < m->nbody; b++) {
      int a = m->body_dofadr[b];
      double mass = m->body_mass[b], Q[9], Ib[9], R[9];
      const double* c = m->body_ipos + 3 * b;
      const double* J = m->body_inertia + 3 * b;
      quat2mat(Q, m->body_iquat + 4 * b);
      quat2mat(R, d->qpos + m->jnt_qposadr[m->body_jntadr[b]] + 3);
      /* I about the com in the body frame, then moved to the body origin */
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
          Ib[3 * i + j] = Q[3 * i] * J[0] * Q[3 * j] + Q[3 * i + 1] * J[1] * Q[3 * j + 1] +
                          Q[3 * i + 2] * J[2] * Q[3 * j + 2] +
                          mass * ((i == j) * dot3(c, c) - c[i] * c[j]);
      /* the coupling of translation (rows) and rotation (columns): -m R C, with C w = c x w */
      double C[9] = {0, -c[2], c[1], c[2], 0, -c[0], -c[1], c[0], 0}, RC[9];
      matmul3(RC, R, C);
      for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
          double want;
          if (i < 3 && j < 3) want = mass * (i == j);
          else if (i >= 3 && j >= 3) want = Ib[3 * (i - 3) + (j - 3)];
          else if (i < 3) want = -mass * RC[3 * i + (j - 3)];
          else want = -mass * RC[3 * j + (i - 3)];
          err = fmax(err, fabs(M[(a + i) * nv + a + j] - want));
        }
      /* the bodies are separate trees */
      for (int i = 0; i < nv; i++)
        for (int j = a; j < a + 6; j++)
          if (i < a || i >= a + 6) ecross = fmax(ecross, fabs(M[i * nv + j]));
    }
    CHECK(err < TOL_EXACT, "free bodies: M in closed form (err %g)", err);
    CHECK(ecross == 0, "free bodies: no coupling between trees (%g)", ecross);
  }
  gs_freeData(d);
  gs_freeModel(m);
}

static void test_energy_hessian(const char* xml, const char* name) {
  gsModel* m = load_xml(xml);
  CHECK(m != NULL, "%s loads", name);
  if (!m) return;
  gsData* d = gs_makeData(m);
  gsData* dd = gs_makeData(m);
  int nv = m->nv;
  unsigned seed = 17;
  double M[MAXV * MAXV], T[MAXV], e[MAXV];
  for (int trial = 0; trial < 2; trial++) {
    random_state(m, d, &seed, 1.0, 0);
    gs_forward(m, d);
    gs_fullM(m, M, d->qM);
    for (int i = 0; i < nv; i++) {
      memset(e, 0, sizeof(e));
      e[i] = 1;
      T[i] = kinetic_fd(m, dd, d->qpos, e, H_FD);
    }
    double err = 0, earm = 0, scale = 0;
    for (int i = 0; i < nv; i++) {
      double arm = m->dof_armature[i];
      earm = fmax(earm, fabs(M[i * nv + i] - 2 * T[i] - arm));
      scale = fmax(scale, fabs(M[i * nv + i]));
      for (int j = 0; j < i; j++) {
        memset(e, 0, sizeof(e));
        e[i] = e[j] = 1;
        double Mij = kinetic_fd(m, dd, d->qpos, e, H_FD) - T[i] - T[j];
        err = fmax(err, fmax(fabs(M[i * nv + j] - Mij), fabs(M[j * nv + i] - Mij)));
      }
    }
    CHECK(earm < TOL_FD * scale, "%s: M_ii = 2 T(e_i) + armature (err %g)", name, earm);
    CHECK(err < TOL_FD * scale, "%s: M_ij = T(e_i + e_j) - T(e_i) - T(e_j) (err %g)", name, err);
  }
  gs_freeData(dd);
  gs_freeData(d);
  gs_freeModel(m);
}

/* is dof a an ancestor of dof b (or b itself)? */
static int dof_above(const gsModel* m, int a, int b) {
  for (; b >= 0; b = m->dof_parentid[b])
    if (a == b) return 1;
  return 0;
}

static void test_factor_solve(const char* xml, const char* name) {
  gsModel* m = load_xml(xml);
  CHECK(m != NULL, "%s loads", name);
  if (!m) return;
  gsData* d = gs_makeData(m);
  int nv = m->nv;
  unsigned seed = 23;
  double M[MAXV * MAXV], L[MAXV * MAXV], D[MAXV];
  for (int trial = 0; trial < 3; trial++) {
    random_state(m, d, &seed, 1.0, 0);
    gs_forward(m, d);
    gs_fullM(m, M, d->qM);
    CHECK(d->warning[GS_WARN_INERTIA].number == 0, "%s: M positive definite", name);
    /* L: unit lower triangular, row k holds its multipliers at k's ancestors (qLD's storage:
     * D_k, then L_k,p(k), L_k,p(p(k)), ...) */
    memset(L, 0, sizeof(L));
    double einv = 0, dmin = INFINITY;
    for (int k = 0; k < nv; k++) {
      int adr = m->dof_Madr[k];
      L[k * nv + k] = 1;
      D[k] = d->qLD[adr];
      dmin = fmin(dmin, D[k]);
      einv = fmax(einv, fabs(d->qLDiagInv[k] * D[k] - 1));
      for (int i = m->dof_parentid[k]; i >= 0; i = m->dof_parentid[i]) L[k * nv + i] = d->qLD[++adr];
    }
    double err = 0, scale = maxabs(M, nv * nv);
    for (int i = 0; i < nv; i++)
      for (int j = 0; j < nv; j++) {
        double s = 0;
        for (int k = 0; k < nv; k++) s += L[k * nv + i] * D[k] * L[k * nv + j];
        err = fmax(err, fabs(s - M[i * nv + j]));
      }
    CHECK(err < TOL_EXACT * scale, "%s: L^T D L reproduces M (err %g)", name, err);
    CHECK(dmin > 0 && einv < 1e-15, "%s: D > 0 (min %g), qLDiagInv = 1/D (err %g)", name, dmin, einv);
    /* M's pattern: non-zero only between a dof and its ancestors */
    int pattern = 1;
    for (int i = 0; i < nv; i++)
      for (int j = 0; j < nv; j++)
        if (!dof_above(m, i, j) && !dof_above(m, j, i) && M[i * nv + j] != 0) pattern = 0;
    CHECK(pattern, "%s: M is zero between dofs on different branches", name);

    /* products and solves, three right-hand sides at once */
    double x[3 * MAXV], y[3 * MAXV], z[3 * MAXV];
    for (int i = 0; i < 3 * nv; i++) x[i] = urand(&seed);
    double edense = 0, esolve = 0;
    for (int r = 0; r < 3; r++) {
      gs_mulM(m, d, y + r * nv, x + r * nv);
      for (int i = 0; i < nv; i++) {
        double s = 0;
        for (int j = 0; j < nv; j++) s += M[i * nv + j] * x[r * nv + j];
        edense = fmax(edense, fabs(s - y[r * nv + i]));
      }
    }
    gs_solveM(m, d, z, y, 3);
    esolve = maxdiff(z, x, 3 * nv);
    CHECK(edense < TOL_EXACT * scale, "%s: mulM is the dense product (err %g)", name, edense);
    CHECK(esolve < 1e-11, "%s: solveM inverts mulM (err %g)", name, esolve);
    memcpy(z, y, sizeof(double) * (size_t)nv);
    gs_solveM(m, d, z, z, 1);  /* in place */
    CHECK(maxdiff(z, x, nv) < 1e-11, "%s: solveM in place", name);
    /* unit right-hand sides: the solve skips the zeros of its first pass (a dof's descendants
     * are zero, a parent taken with its child can be), which random ones never have */
    double eunit = 0;
    for (int j = 0; j < nv; j++) {
      for (int i = 0; i < nv; i++) z[i] = i == j;
      gs_solveM(m, d, z, z, 1);
      gs_mulM(m, d, y, z);
      for (int i = 0; i < nv; i++) eunit = fmax(eunit, fabs(y[i] - (i == j)));
    }
    CHECK(eunit < 1e-11, "%s: solveM of each unit vector (err %g)", name, eunit);
  }

  /* a non-positive pivot at a leaf dof is reported with its index */
  int leaf = nv - 1;
  d->qM[m->dof_Madr[leaf]] = -1;
  gs_factorM(m, d);
  CHECK(d->warning[GS_WARN_INERTIA].number == 1 && d->warning[GS_WARN_INERTIA].lastinfo == leaf,
        "%s: negative pivot reported (%d times, dof %d)", name, d->warning[GS_WARN_INERTIA].number,
        d->warning[GS_WARN_INERTIA].lastinfo);
  /* and one at the leaf's parent or grandparent when they are eliminated together (a chain:
   * each parent is the dof before), reported with that dof's index: its ancestors' pivots may
   * then fail too, and the report names the first in the elimination's order */
  for (int up = 1; up <= 2 && leaf - up >= 0 && m->dof_parentid[leaf - up + 1] == leaf - up; up++) {
    gs_forward(m, d);
    memset(d->warning, 0, sizeof(d->warning));
    d->qM[m->dof_Madr[leaf - up]] = -1;
    gs_factorM(m, d);
    CHECK(d->warning[GS_WARN_INERTIA].number == 1 &&
              d->warning[GS_WARN_INERTIA].lastinfo == leaf - up,
          "%s: negative pivot %d up a chain reported (%d times, dof %d)", name, up,
          d->warning[GS_WARN_INERTIA].number, d->warning[GS_WARN_INERTIA].lastinfo);
  }
  gs_freeData(d);
  gs_freeModel(m);
}

/* three slides on one body, the last two along x and y: M's entry between them is exactly zero
 * (m x.y), so the factor's multiplier is, and a solve's value at the middle dof can stay zero
 * when the last one moves it (the first slide's axis is not orthogonal to y: the last dof still
 * reaches it) */
#define SLIDES_XML \
  "<mujoco model='slides'><option><flag contact='disable' constraint='disable'/></option>" \
  "<worldbody><body name='b'>" \
  "  <joint name='s0' type='slide' axis='0 1 1'/><joint name='s1' type='slide' axis='1 0 0'/>" \
  "  <joint name='s2' type='slide' axis='0 1 0'/>" \
  "  <inertial pos='0.1 0.2 0' mass='2' diaginertia='0.1 0.2 0.3'/>" \
  "</body></worldbody></mujoco>"

int main(void) {
  test_pendulum();
  test_free_body();
  test_energy_hessian(TREE_XML, "tree");
  test_energy_hessian(FLOAT_XML, "float");
  test_factor_solve(TREE_XML, "tree");
  test_factor_solve(FLOAT_XML, "float");
  test_factor_solve(PENDULUM_XML, "double pendulum");
  test_factor_solve(SLIDES_XML, "slides");
  return CHECK_SUMMARY();
}
