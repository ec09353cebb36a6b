/* Recursive Newton-Euler in the com-based frame: the bias force c(q, v) (gravity, Coriolis,
 * centripetal), or M qacc + c when an acceleration is given, M without the dofs' armature (the
 * bodies' inertia alone, as MJCF's RNE). */
#include <string.h>

#include "core/math.h"
#include "dynamics/dynamics.h"
#include "core/pair.h"

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
    gsReal* a = cacc + 6 * b;
    const gsReal* ap = cacc + 6 * m->body_parentid[b];
    memcpy(a, ap, 6 * sizeof(gsReal));  /* whole: a is updated two values at a time */
    int adr = m->body_dofadr[b], end = adr + m->body_dofnum[b];
    if (qacc) {
      for (int j = adr; j < end; j++)
        for (int i = 0; i < 6; i++) a[i] += cdof_dot[6 * j + i] * qvel[j] + d->cdof[6 * j + i] * qacc[j];
    } else {
      /* the bias alone: the products with a zero acceleration add nothing */
      for (int j = adr; j < end; j++) gs_addScaledPair(a, cdof_dot + 6 * j, qvel[j], 6);
    }
    /* f = I a + v x* (I v) */
    gsReal Iv[6], vxIv[6];
    const gsReal* I = d->cinert + 10 * b;
    const gsReal* v = cvel + 6 * b;
    gs_mulInertVec(cfrc + 6 * b, I, a);
    gs_mulInertVec(Iv, I, v);
    gs_crossForce(vxIv, v, Iv);
    for (int i = 0; i < 6; i++) cfrc[6 * b + i] += vxIv[i];
  }
  for (int b = m->nbody - 1; b > 0; b--) {
    int p = m->body_parentid[b];
    if (p > 0)
      gs_addToPair(cfrc + 6 * p, cfrc + 6 * b, 6);  /* parent and child: never the same */
  }
  for (int j = 0; j < m->nv; j++) result[j] = gs_dot6Pair(d->cdof + 6 * j, cfrc + 6 * m->dof_bodyid[j]);
}

void gs_rne(const gsModel* m, gsData* d, int with_acc, gsReal* result) {
  size_t mark = gs_stackMark(d);
  gsReal* scratch = gs_stackAlloc(d, sizeof(gsReal) * 12 * (size_t)m->nbody);
  if (scratch) {
    int gravity = !(m->opt.disableflags & GS_DSBL_GRAVITY);
    gs_rneOf(m, d, d->cvel, d->cdof_dot, d->qvel, with_acc ? d->qacc : NULL, gravity, scratch, result);
  }
  gs_stackRelease(d, mark);
}
