/* Com-based quantities (src/dynamics/com.c) without the Python oracle, on a branched tree of hinges
 * and slides and on a model with free, ball, hinge and slide joints in several trees:
 * - subtree_com and body_subtreemass against mass-weighted sums over each subtree;
 * - cinert, through what it means: applied to any spatial velocity (w, v) at the tree's reference
 *   point r it gives the body's momentum about r, [I_c w + (c - r) x m v_c; m v_c] with
 *   v_c = v + w x (c - r), from body_mass, body_inertia, xipos and ximat;
 * - cdof: the spatial velocity (at r, world axes) of every body when dof j alone moves at unit
 *   speed, by central differences of the kinematics: cdof_j for the bodies the dof carries, zero
 *   for the others;
 * - cvel the same for the whole qvel, and the sum of cdof_j qvel_j over the body's chain;
 * - cdof_dot: the sum over the chain of cdof_dot_j qvel_j is the time derivative, at a point fixed
 *   in space, of cvel along q (+) t qvel (qvel held constant). */
#include "core_util.h"

#include "check.h"

/* sums of a dozen O(1) products: a few ulps */
#define TOL_SUM 1e-13
/* central differences with h = 1e-5 of positions and frames of size O(1) moving at O(1..10):
 * truncation h^2/6 |x'''| ~ 2e-10, rounding eps |x| / h ~ 1e-10 */
#define H_FD 1e-5
#define TOL_FD 1e-7

static int is_ancestor(const gsModel* m, int a, int b) {  /* a == b or a above b */
  for (; b > 0; b = m->body_parentid[b])
    if (a == b) return 1;
  return a == 0;
}

/* spatial velocity [w; v at r] of body b from its com velocity and angular velocity */
static void spatial_at(double out[6], const double vcom[3], const double w[3], const double xipos[3],
                       const double r[3]) {
  double d[3], t[3];
  for (int i = 0; i < 3; i++) d[i] = r[i] - xipos[i];
  cross3(t, w, d);
  for (int i = 0; i < 3; i++) out[i] = w[i], out[3 + i] = vcom[i] + t[i];
}

/* moves a spatial motion vector [w; v at r] to the point r0 */
static void transport(double out[6], const double s[6], const double r[3], const double r0[3]) {
  double d[3], t[3];
  for (int i = 0; i < 3; i++) d[i] = r0[i] - r[i];
  cross3(t, s, d);
  for (int i = 0; i < 3; i++) out[i] = s[i], out[3 + i] = s[3 + i] + t[i];
}

static void test_subtree(const gsModel* m, gsData* d, const char* name) {
  double ecom = 0, emass = 0;
  for (int b = 0; b < m->nbody; b++) {
    double mass = 0, s[3] = {0, 0, 0};
    for (int c = 0; c < m->nbody; c++) {
      if (!is_ancestor(m, b, c)) continue;
      mass += m->body_mass[c];
      for (int i = 0; i < 3; i++) s[i] += m->body_mass[c] * d->xipos[3 * c + i];
    }
    emass = fmax(emass, fabs(mass - m->body_subtreemass[b]));
    for (int i = 0; i < 3; i++) s[i] /= mass;
    ecom = fmax(ecom, maxdiff(s, d->subtree_com + 3 * b, 3));
  }
  CHECK(emass < TOL_SUM, "%s: body_subtreemass is the subtree's mass (err %g)", name, emass);
  CHECK(ecom < TOL_SUM, "%s: subtree_com is the mass-weighted mean of xipos (err %g)", name, ecom);
}

static void test_cinert(const gsModel* m, gsData* d, unsigned* seed, const char* name) {
  double err = 0, ezero = maxabs(d->cinert, 10);
  for (int b = 1; b < m->nbody; b++) {
    const double* ci = d->cinert + 10 * b;
    const double* r = d->subtree_com + 3 * m->body_rootid[b];
    double mass = m->body_mass[b], c[3], Ic[9];
    for (int i = 0; i < 3; i++) c[i] = d->xipos[3 * b + i] - r[i];
    world_inertia(m, d, b, Ic);
    for (int k = 0; k < 3; k++) {
      double w[3], v[3];
      for (int i = 0; i < 3; i++) w[i] = urand(seed), v[i] = urand(seed);
      /* the engine's 10-vector: symmetric I about r (xx yy zz xy xz yz), h = m c, m */
      double Ir[9] = {ci[0], ci[3], ci[4], ci[3], ci[1], ci[5], ci[4], ci[5], ci[2]};
      double f[6], t[3];
      matvec3(f, Ir, w);
      cross3(t, ci + 6, v);
      for (int i = 0; i < 3; i++) f[i] += t[i];
      cross3(t, ci + 6, w);
      for (int i = 0; i < 3; i++) f[3 + i] = ci[9] * v[i] - t[i];
      /* the rigid body's momentum about r */
      double vc[3], L[3], want[6];
      cross3(t, w, c);
      for (int i = 0; i < 3; i++) vc[i] = v[i] + t[i];
      matvec3(L, Ic, w);
      cross3(t, c, vc);
      for (int i = 0; i < 3; i++) want[i] = L[i] + mass * t[i], want[3 + i] = mass * vc[i];
      err = fmax(err, maxdiff(f, want, 6));
    }
  }
  CHECK(err < TOL_SUM, "%s: cinert maps velocities to momenta about the tree's com (err %g)", name, err);
  CHECK(ezero == 0, "%s: the world's cinert is zero", name);
}

/* spatial velocities at r (q's reference points) of every body along q (+) t v, by differences;
 * dd is scratch */
static void spatial_fd(const gsModel* m, gsData* dd, const double* q, const double* v,
                       const double* subtree_com, double out[][6]) {
  double vc[MAXV][3], w[MAXV][3];
  body_vel_fd(m, dd, q, v, H_FD, vc, w);
  for (int b = 0; b < m->nbody; b++)
    spatial_at(out[b], vc[b], w[b], dd->xipos + 3 * b, subtree_com + 3 * m->body_rootid[b]);
}

static void test_cdof_cvel(const gsModel* m, gsData* d, gsData* dd, const char* name) {
  int nv = m->nv;
  double sv[MAXV][6], e[MAXV];
  double ecdof = 0, ezero = 0;
  /* dof j alone: cdof_j on the bodies it carries, nothing elsewhere */
  for (int j = 0; j < nv; j++) {
    memset(e, 0, sizeof(e));
    e[j] = 1;
    spatial_fd(m, dd, d->qpos, e, d->subtree_com, sv);
    for (int b = 1; b < m->nbody; b++) {
      if (is_ancestor(m, m->dof_bodyid[j], b)) ecdof = fmax(ecdof, maxdiff(sv[b], d->cdof + 6 * j, 6));
      else ezero = fmax(ezero, maxabs(sv[b], 6));
    }
  }
  CHECK(ecdof < TOL_FD, "%s: cdof is the spatial velocity of the dof's subtree (err %g)", name, ecdof);
  CHECK(ezero < TOL_FD, "%s: a dof moves no body outside its subtree (max %g)", name, ezero);

  /* all of qvel: cvel, and cvel = sum over the chain of cdof qvel */
  spatial_fd(m, dd, d->qpos, d->qvel, d->subtree_com, sv);
  double ecvel = 0, esum = maxabs(d->cvel, 6);
  for (int b = 1; b < m->nbody; b++) {
    ecvel = fmax(ecvel, maxdiff(sv[b], d->cvel + 6 * b, 6));
    double s[6] = {0, 0, 0, 0, 0, 0};
    for (int j = 0; j < nv; j++)
      if (is_ancestor(m, m->dof_bodyid[j], b))
        for (int i = 0; i < 6; i++) s[i] += d->cdof[6 * j + i] * d->qvel[j];
    esum = fmax(esum, maxdiff(s, d->cvel + 6 * b, 6));
  }
  CHECK(ecvel < TOL_FD, "%s: cvel against differences of the kinematics (err %g)", name, ecvel);
  CHECK(esum < TOL_SUM, "%s: cvel is the sum of cdof qvel over the chain (err %g)", name, esum);
}

static void test_cdof_dot(const gsModel* m, gsData* d, gsData* dd, const char* name) {
  double cv[2][MAXV][6], r[2][MAXV][3];
  for (int s = 0; s < 2; s++) {
    set_moved(m, dd, d->qpos, d->qvel, s ? -H_FD : H_FD);
    memcpy(dd->qvel, d->qvel, sizeof(double) * (size_t)m->nv);
    kin(m, dd);
    gs_comVel(m, dd);
    for (int b = 0; b < m->nbody; b++) {
      memcpy(cv[s][b], dd->cvel + 6 * b, sizeof(cv[s][b]));
      memcpy(r[s][b], dd->subtree_com + 3 * m->body_rootid[b], sizeof(r[s][b]));
    }
  }
  double err = 0, scale = 0;
  for (int b = 1; b < m->nbody; b++) {
    const double* r0 = d->subtree_com + 3 * m->body_rootid[b];
    double p[6], q[6], want[6], got[6] = {0, 0, 0, 0, 0, 0};
    transport(p, cv[0][b], r[0][b], r0);
    transport(q, cv[1][b], r[1][b], r0);
    for (int i = 0; i < 6; i++) want[i] = (p[i] - q[i]) / (2 * H_FD);
    for (int j = 0; j < m->nv; j++)
      if (is_ancestor(m, m->dof_bodyid[j], b))
        for (int i = 0; i < 6; i++) got[i] += d->cdof_dot[6 * j + i] * d->qvel[j];
    err = fmax(err, maxdiff(got, want, 6));
    scale = fmax(scale, maxabs(want, 6));
  }
  CHECK(err < TOL_FD, "%s: sum of cdof_dot qvel is d/dt cvel at a fixed point (err %g)", name, err);
  CHECK(scale > 0.1, "%s: the bias accelerations are not trivially zero (%g)", name, scale);
}

static void test_model(const char* xml, const char* name) {
  gsModel* m = load_xml(xml);
  CHECK(m != NULL, "%s loads", name);
  if (!m) return;
  gsData* d = gs_makeData(m);
  gsData* dd = gs_makeData(m);
  unsigned seed = 5;
  for (int trial = 0; trial < 3; trial++) {
    random_state(m, d, &seed, 1.0, 1.5);
    kin(m, d);
    gs_comVel(m, d);
    test_subtree(m, d, name);
    test_cinert(m, d, &seed, name);
    test_cdof_cvel(m, d, dd, name);
    test_cdof_dot(m, d, dd, name);
  }
  /* each tree has its own reference point */
  int roots = 0;
  for (int b = 1; b < m->nbody; b++) roots += m->body_parentid[b] == 0 && m->body_dofnum[b] > 0;
  if (roots > 1) {
    int r1 = -1, r2 = -1;
    for (int b = 1; b < m->nbody; b++)
      if (m->body_parentid[b] == 0 && m->body_dofnum[b] > 0) {
        if (r1 < 0) r1 = b;
        else r2 = b;
      }
    CHECK(maxdiff(d->subtree_com + 3 * r1, d->subtree_com + 3 * r2, 3) > 0.1,
          "%s: trees have different reference points", name);
  }
  gs_freeData(dd);
  gs_freeData(d);
  gs_freeModel(m);
}

int main(void) {
  test_model(TREE_XML, "tree");
  test_model(FLOAT_XML, "float");
  return CHECK_SUMMARY();
}
