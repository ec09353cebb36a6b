/* Recursive Newton-Euler in the com-based frame: the bias force c(q, v) (gravity, Coriolis,
 * centripetal), or M qacc + c when an acceleration is given, M without the dofs' armature (the
 * bodies' inertia alone, as MJCF's RNE). */
#include <string.h>

#include "core/arena.h"
#include "core/math.h"
#include "dynamics/dynamics.h"
#include "core/pair.h"

#ifdef GS_PAIR
static inline void cross3_pair(gs_pair r[3], const gs_pair a[3], const gs_pair b[3]) {
  r[0] = a[1] * b[2] - a[2] * b[1];
  r[1] = a[2] * b[0] - a[0] * b[2];
  r[2] = a[0] * b[1] - a[1] * b[0];
}

/* f = I a + v x* (I v) (- ext when given) for bodies b and b + 1 */
static void body_forces_pair(const gsReal* cinert, const gsReal* cacc, const gsReal* cvel,
                             const gsReal* ext, gsReal* cfrc, int b) {
  gs_pair I[10], a[6], v[6], f[6], Iv[6], x[3], y[3], z[3], vIv[6];
  const gsReal *I0 = cinert + 10 * b, *I1 = I0 + 10;
  const gsReal *a0 = cacc + 6 * b, *a1 = a0 + 6, *v0 = cvel + 6 * b, *v1 = v0 + 6;
  for (int k = 0; k < 10; k++) I[k] = (gs_pair){I0[k], I1[k]};
  for (int k = 0; k < 6; k++) {
    a[k] = (gs_pair){a0[k], a1[k]};
    v[k] = (gs_pair){v0[k], v1[k]};
  }
  /* the formula of gs_mulInertVec, each body's values those of the scalar path */
  GS_MUL_INERT_VEC(f, I, a);
  GS_MUL_INERT_VEC(Iv, I, v);
  /* v x* Iv: gs_crossForce's three products */
  cross3_pair(x, v, Iv);
  cross3_pair(y, v + 3, Iv + 3);
  cross3_pair(z, v, Iv + 3);
  for (int k = 0; k < 3; k++) {
    vIv[k] = x[k] + y[k];
    vIv[3 + k] = z[k];
  }
  if (ext) {
    const gsReal *e0 = ext + 6 * b, *e1 = e0 + 6;
    for (int k = 0; k < 6; k++) vIv[k] = vIv[k] - (gs_pair){e0[k], e1[k]};
  }
  gsReal *f0 = cfrc + 6 * b, *f1 = f0 + 6;
  for (int k = 0; k < 6; k++) {
    f[k] += vIv[k];
    f0[k] = f[k][0];
    f1[k] = f[k][1];
  }
}
#endif

/* f = I a + v x* (I v) (- ext when given) for body b */
static void body_force(const gsReal* cinert, const gsReal* cacc, const gsReal* cvel,
                       const gsReal* ext, gsReal* cfrc, int b) {
  gsReal Iv[6], vxIv[6];
  const gsReal* I = cinert + 10 * b;
  const gsReal* v = cvel + 6 * b;
  gsReal* f = cfrc + 6 * b;
  gs_mulInertVec(f, I, cacc + 6 * b);
  gs_mulInertVec(Iv, I, v);
  gs_crossForce(vxIv, v, Iv);
  if (ext)
    for (int i = 0; i < 6; i++) f[i] += vxIv[i] - ext[6 * b + i];
  else
    for (int i = 0; i < 6; i++) f[i] += vxIv[i];
}

void gs_bodyForce(const gsReal* cinert, const gsReal* cacc, const gsReal* cvel, gsReal* cfrc, int b) {
  body_force(cinert, cacc, cvel, NULL, cfrc, b);
}

void gs_bodyForces(const gsModel* m, const gsReal* cinert, const gsReal* cacc, const gsReal* cvel,
                   const gsReal* ext, gsReal* cfrc) {
  /* the bodies do not depend on each other: two at a time */
  int b = 1;
#ifdef GS_PAIR
  for (; b + 2 <= m->nbody; b += 2) body_forces_pair(cinert, cacc, cvel, ext, cfrc, b);
#endif
  for (; b < m->nbody; b++) body_force(cinert, cacc, cvel, ext, cfrc, b);
}

/* body b's acceleration with no joint acceleration: its parent's (pa) plus cdof_dot qvel over its
 * dofs, into cacc */
static inline void bias_acc_body(const gsModel* m, const gsReal* cdof_dot, const gsReal* qvel,
                                 const gsReal* pa, gsReal* cacc, int b) {
  gsReal* a = cacc + 6 * b;
  memcpy(a, pa, 6 * sizeof(gsReal));  /* whole: a is updated two values at a time */
  for (int j = m->body_dofadr[b], end = j + m->body_dofnum[b]; j < end; j++)
    gs_addScaledPair(a, cdof_dot + 6 * j, qvel[j], 6);
}

void gs_rneBiasAccBody(const gsModel* m, const gsReal* cdof_dot, const gsReal* qvel,
                       const gsReal* pa, gsReal* cacc, int b) {
  bias_acc_body(m, cdof_dot, qvel, pa, cacc, b);
}

void gs_rneOf(const gsModel* m, const gsData* d, const gsReal* cvel, const gsReal* cdof_dot,
              const gsReal* qvel, const gsReal* qacc, int with_gravity, gsReal* scratch,
              gsReal* result) {
  gsReal* cacc = scratch;                   /* nbody x 6 */
  gsReal* cfrc = scratch + 6 * m->nbody;    /* nbody x 6 */
  /* gravity as an upward acceleration of the world */
  for (int i = 0; i < 6; i++) cacc[i] = 0;
  if (with_gravity)
    for (int i = 0; i < 3; i++) cacc[3 + i] = -m->opt.gravity[i];

  for (int b = 1; b < m->nbody; b++) {
    const gsReal* ap = cacc + 6 * m->body_parentid[b];
    if (!qacc) {
      /* the bias alone: the products with a zero acceleration add nothing */
      bias_acc_body(m, cdof_dot, qvel, ap, cacc, b);
      continue;
    }
    gsReal* a = cacc + 6 * b;
    memcpy(a, ap, 6 * sizeof(gsReal));
    for (int j = m->body_dofadr[b], end = j + m->body_dofnum[b]; j < end; j++)
      for (int i = 0; i < 6; i++) a[i] += cdof_dot[6 * j + i] * qvel[j] + d->cdof[6 * j + i] * qacc[j];
  }
  gs_bodyForces(m, d->cinert, cacc, cvel, NULL, cfrc);
  for (int b = m->nbody - 1; b > 0; b--) {
    int p = m->body_parentid[b];
    if (p > 0)
      gs_addToPair(cfrc + 6 * p, cfrc + 6 * b, 6);  /* parent and child: never the same */
  }
  for (int j = 0; j < m->nv; j++) result[j] = gs_dot6Pair(d->cdof + 6 * j, cfrc + 6 * m->dof_bodyid[j]);
}

void gs_rne(const gsModel* m, gsData* d, int with_acc, gsReal* result) {
  size_t mark = gs_arenaMark(d);
  gsReal* scratch = gs_arenaAlloc(d, sizeof(gsReal) * 12 * (size_t)m->nbody);
  if (scratch) {
    int gravity = !(m->opt.disableflags & GS_DSBL_GRAVITY);
    gs_rneOf(m, d, d->cvel, d->cdof_dot, d->qvel, with_acc ? d->qacc : NULL, gravity, scratch, result);
  }
  gs_arenaRelease(d, mark);
}
