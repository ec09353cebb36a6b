/* Stepping tests in C: a hand-built spec through the compiler, identities of the mass matrix and
 * the Jacobian, no heap allocation while stepping, resets on bad values, and every corpus model
 * stepped under each integrator (this test also runs under ASan and UBSan). */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gauss/gauss.h"

#include "check.h"

/* ---- heap allocation counting: the test links with --wrap for these four ---- */
static long nalloc = 0;
void* __real_malloc(size_t n);
void* __real_calloc(size_t n, size_t s);
void* __real_realloc(void* p, size_t n);
void* __real_aligned_alloc(size_t a, size_t n);
void* __wrap_malloc(size_t n) { nalloc++; return __real_malloc(n); }
void* __wrap_calloc(size_t n, size_t s) { nalloc++; return __real_calloc(n, s); }
void* __wrap_realloc(void* p, size_t n) { nalloc++; return __real_realloc(p, n); }
void* __wrap_aligned_alloc(size_t a, size_t n) { nalloc++; return __real_aligned_alloc(a, n); }

/* a chain built with the spec API: free base, ball, hinge and slide joints */
static gsModel* build_chain(void) {
  gsSpec* s = gs_specNew();
  s->compiler.degree = 0;
  gsSpecBody* base = gs_specAddBody(s->world);
  base->pos[2] = 1;
  gs_specAddJoint(base)->type = GS_JNT_FREE;
  gsSpecGeom* g = gs_specAddGeom(base);
  g->type = GS_GEOM_BOX;
  g->size[0] = 0.2; g->size[1] = 0.1; g->size[2] = 0.05;
  gsSpecBody* parent = base;
  int types[3] = {GS_JNT_BALL, GS_JNT_HINGE, GS_JNT_SLIDE};
  for (int i = 0; i < 3; i++) {
    gsSpecBody* b = gs_specAddBody(parent);
    b->pos[0] = 0.3;
    b->orient.type = GS_ORIENT_EULER;
    b->orient.euler[0] = 0.3 * i; b->orient.euler[1] = 0.2; b->orient.euler[2] = -0.1;
    gsSpecJoint* j = gs_specAddJoint(b);
    j->type = types[i];
    j->axis[0] = 1; j->axis[1] = 0.5; j->axis[2] = 0.2;
    j->pos[0] = -0.1;
    j->damping = 0.1 * i;
    j->stiffness = 0.5;
    gsSpecGeom* c = gs_specAddGeom(b);
    c->type = GS_GEOM_CAPSULE;
    c->has_fromto = 1;
    c->fromto[3] = 0.3; c->fromto[4] = 0.05;
    c->size[0] = 0.04;
    parent = b;
  }
  char err[512];
  gsModel* m = gs_compile(s, err, sizeof(err));
  if (!m) printf("compile failed: %s\n", err);
  gs_specFree(s);
  return m;
}

static void random_state(const gsModel* m, gsData* d, unsigned* seed) {
  for (int i = 0; i < m->nq; i++) d->qpos[i] = m->qpos0[i] + 0.5 * ((double)rand_r(seed) / RAND_MAX - 0.5);
  gs_normalizeQuat(m, d->qpos);
  for (int i = 0; i < m->nv; i++) d->qvel[i] = 2 * ((double)rand_r(seed) / RAND_MAX - 0.5);
}

static void test_chain(void) {
  gsModel* m = build_chain();
  CHECK(m != NULL, "hand-built chain compiles");
  if (!m) return;
  CHECK(m->nq == 7 + 4 + 1 + 1 && m->nv == 6 + 3 + 1 + 1, "sizes nq=%d nv=%d", m->nq, m->nv);
  gsData* d = gs_makeData(m);
  unsigned seed = 7;
  random_state(m, d, &seed);
  gs_forward(m, d);
  int nv = m->nv;
  double* M = malloc(sizeof(double) * nv * nv);
  double x[16], y[16], z[16];
  gs_fullM(m, M, d->qM);
  double asym = 0;
  for (int i = 0; i < nv; i++)
    for (int j = 0; j < nv; j++) asym = fmax(asym, fabs(M[i * nv + j] - M[j * nv + i]));
  CHECK(asym == 0, "M symmetric (%g)", asym);
  /* solve(M, M x) == x */
  for (int i = 0; i < nv; i++) x[i] = sin(1.0 + i);
  gs_mulM(m, d, y, x);
  double dense_err = 0;
  for (int i = 0; i < nv; i++) {
    double s = 0;
    for (int j = 0; j < nv; j++) s += M[i * nv + j] * x[j];
    dense_err = fmax(dense_err, fabs(s - y[i]));
  }
  CHECK(dense_err < 1e-12, "mulM equals the dense product (%g)", dense_err);
  gs_solveM(m, d, z, y, 1);
  double solve_err = 0;
  for (int i = 0; i < nv; i++) solve_err = fmax(solve_err, fabs(z[i] - x[i]));
  CHECK(solve_err < 1e-12, "solveM inverts mulM (%g)", solve_err);
  /* Jacobian of the last body's com against a finite difference of the kinematics */
  int b = m->nbody - 1;
  double jacp[3 * 16], p0[3], p1[3], v[3] = {0, 0, 0};
  gs_jac(m, d, jacp, NULL, d->xipos + 3 * b, b);
  for (int r = 0; r < 3; r++)
    for (int j = 0; j < nv; j++) v[r] += jacp[r * nv + j] * d->qvel[j];
  memcpy(p0, d->xipos + 3 * b, sizeof(p0));
  const double h = 1e-7;
  gs_integratePos(m, d->qpos, d->qvel, h);
  gs_kinematics(m, d);
  memcpy(p1, d->xipos + 3 * b, sizeof(p1));
  double jerr = 0;
  for (int r = 0; r < 3; r++) jerr = fmax(jerr, fabs((p1[r] - p0[r]) / h - v[r]));
  CHECK(jerr < 1e-5, "Jacobian matches the finite difference of the kinematics (%g)", jerr);
  free(M);
  gs_freeData(d);
  gs_freeModel(m);
}

/* MJCF of the corpus with contacts and constraints off, or NULL when it does not load */
static gsModel* load(const char* path) {
  char err[1024];
  gsModel* m = gs_loadXML(path, err, sizeof(err));
  if (!m) printf("load %s: %s\n", path, err);
  else m->opt.disableflags |= GS_DSBL_CONTACT | GS_DSBL_CONSTRAINT;
  return m;
}

/* with contacts: the model falls and lands, so the contact and constraint counts vary */
static void test_no_allocation(const char* path, int contacts) {
  gsModel* m = load(path);
  CHECK(m != NULL, "%s loads", path);
  if (!m) return;
  if (contacts) m->opt.disableflags &= ~(GS_DSBL_CONTACT | GS_DSBL_CONSTRAINT);
  for (int integrator = 0; integrator < 4; integrator++) {
    for (int solver = contacts ? 0 : 2; solver < 3; solver++) {
      m->opt.integrator = integrator;
      m->opt.solver = solver;
      gsData* d = gs_makeData(m);
      gs_step(m, d);  /* first step outside the count: nothing is lazily allocated anyway */
      long before = nalloc;
      int maxefc = 0;
      for (int i = 0; i < 1000; i++) {
        gs_step(m, d);
        maxefc = d->nefc > maxefc ? d->nefc : maxefc;
      }
      for (int i = 0; i < 10; i++) { gs_step1(m, d); gs_step2(m, d); }
      CHECK(nalloc == before, "%s integrator %d solver %d: %ld heap allocations in 1010 steps "
            "(up to %d constraint rows)", path, integrator, solver, nalloc - before, maxefc);
      if (contacts) CHECK(maxefc > 0, "%s: the model touches the floor (%d rows)", path, maxefc);
      CHECK(d->warning[GS_WARN_ARENAFULL].number == 0 && d->warning[GS_WARN_CNSTRFULL].number == 0,
            "%s: no full arena or rows", path);
      gs_freeData(d);
    }
  }
  gs_freeModel(m);
}

static void test_bad_values(const char* path) {
  gsModel* m = load(path);
  if (!m) return;
  gsData* d = gs_makeData(m);
  for (int i = 0; i < 10; i++) gs_step(m, d);
  d->qpos[0] = NAN;
  gs_step(m, d);
  CHECK(d->warning[GS_WARN_BADQPOS].number == 1, "NaN in qpos counted");
  CHECK(d->time == m->opt.timestep, "reset then one step (time %g)", d->time);
  d->qvel[m->nv - 1] = INFINITY;
  gs_step(m, d);
  CHECK(d->warning[GS_WARN_BADQVEL].number == 1, "Inf in qvel counted");
  CHECK(d->warning[GS_WARN_BADQVEL].lastinfo == m->nv - 1, "lastinfo names the dof");
  d->qfrc_applied[0] = 1e300;
  gs_step(m, d);
  CHECK(d->warning[GS_WARN_BADQACC].number == 1, "huge force makes qacc bad");
  int finite = 1;
  for (int i = 0; i < m->nq; i++) finite &= isfinite(d->qpos[i]);
  CHECK(finite && d->qfrc_applied[0] == 0, "state reset after bad qacc");
  gs_freeData(d);
  gs_freeModel(m);
}

/* every model of a corpus folder, 200 steps under each integrator, stays finite */
static void test_corpus_dir(const char* dir) {
  DIR* dp = opendir(dir);
  CHECK(dp != NULL, "open %s", dir);
  if (!dp) return;
  struct dirent* e;
  while ((e = readdir(dp))) {
    size_t n = strlen(e->d_name);
    if (n < 5 || strcmp(e->d_name + n - 4, ".xml")) continue;
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
    gsModel* m = load(path);
    CHECK(m != NULL, "%s loads", path);
    if (!m) continue;
    gsData* d = gs_makeData(m);
    for (int integrator = 0; integrator < 4; integrator++) {
      m->opt.integrator = integrator;
      gs_resetData(m, d);
      for (int i = 0; i < 200; i++) gs_step(m, d);
      /* some models diverge without their constraints under RK4 (so does MuJoCo on them: tiny
       * inertias with damping); divergence must end in a reset, never in a non-finite state */
      int finite = 1;
      for (int i = 0; i < m->nq; i++) finite &= isfinite(d->qpos[i]);
      for (int i = 0; i < m->nv; i++) finite &= isfinite(d->qvel[i]) && isfinite(d->qacc[i]);
      CHECK(finite && d->warning[GS_WARN_ARENAFULL].number == 0, "%s integrator %d: finite state", path,
            integrator);
    }
    gs_freeData(d);
    gs_freeModel(m);
  }
  closedir(dp);
}

int main(void) {
  test_chain();
  test_no_allocation(GAUSS_TEST_MODELS "/gymnasium/humanoid.xml", 0);
  test_no_allocation(GAUSS_TEST_MODELS "/gymnasium/ant.xml", 0);
  test_no_allocation(GAUSS_TEST_MODELS "/gymnasium/humanoid.xml", 1);
  test_no_allocation(GAUSS_TEST_MODELS "/gymnasium/ant.xml", 1);
  test_bad_values(GAUSS_TEST_MODELS "/gymnasium/ant.xml");
  test_corpus_dir(GAUSS_TEST_MODELS "/gymnasium");
  test_corpus_dir(GAUSS_TEST_MODELS "/dm_control");
  test_corpus_dir(GAUSS_TEST_MODELS "/mujoco");
  return CHECK_SUMMARY();
}
