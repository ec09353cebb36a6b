/* The soft constraint model's force (seed 000 eq. 13-15, Theorem 4): the map from a row's
 * residual jar = J a - aref to its force and state, and the projections on the friction cone.
 * Every solver uses it (Newton and CG for their cost, PGS for its warm start and final states),
 * and so will the analytical inverse, which applies the map once to the given acceleration. */
#ifndef GAUSS_CONSTRAINT_FORCE_H
#define GAUSS_CONSTRAINT_FORCE_H

#include <math.h>

#include "core/math.h"
#include "gauss/gauss.h"

/* An elliptic contact at residual x (its dim values): in the coordinates u_j = (f_j / mu) x_j of
 * its tangential rows the dual cone is circular, N >= mu T. Small enough to set up inline in the
 * solvers' inner loops. */
typedef struct {
  gsReal N, T, u[5];  /* normal, tangential norm, scaled tangential residuals u_j = f_j/mu jar_j */
  gsReal mu, D0, s[5];
} gsConeResidual;

static inline void gs_coneSetup(gsConeResidual* k, const gsData* d, const gsContact* c, int r,
                                const gsReal* x) {
  int n = c->dim;
  k->mu = c->mu;
  k->D0 = d->efc_D[r];
  k->N = x[0];
  gsReal T2 = 0;
  for (int j = 1; j < n; j++) {
    k->s[j - 1] = k->mu > GS_MINVAL ? c->friction[j - 1] / k->mu : 0;
    k->u[j - 1] = k->s[j - 1] * x[j];
    T2 += k->u[j - 1] * k->u[j - 1];
  }
  k->T = sqrt(T2);
}

/* zone of an elliptic contact: 0 inside the dual cone (no force), 1 quadratic, 2 on the cone */
static inline int gs_coneZone(const gsConeResidual* k) {
  if (k->N >= k->mu * k->T) return 0;
  if (k->mu * k->N + k->T <= 0 || k->mu <= GS_MINVAL) return 1;
  return 2;
}

/* force and state of the row (or the whole elliptic contact) at r for the residuals jar; adds
 * its part of the primal cost to *total and returns its number of rows. Equality rows are
 * quadratic, friction loss Huber (linear past R fl), limits and pyramidal edges half-quadratic; an
 * elliptic contact is zero in the dual cone, quadratic where its normal is pulled back past its
 * cone's mirror, and on the cone in between. Inline: Newton and CG call it in their inner loops. */
static inline int gs_rowForce(const gsData* d, int r, const gsReal* jar, gsReal* force,
                              int* state, gsReal* total) {
  int type = d->efc_type[r];
  gsReal D = d->efc_D[r], x = jar[r];
  if (type == GS_CNSTR_CONTACT_ELLIPTIC) {
    const gsContact* c = d->contact + d->efc_id[r];
    int n = c->dim;
    gsConeResidual k;
    gs_coneSetup(&k, d, c, r, jar + r);
    int zone = gs_coneZone(&k);
    if (zone == 0) {
      for (int j = 0; j < n; j++) force[r + j] = 0, state[r + j] = GS_CNSTRSTATE_SATISFIED;
    } else if (zone == 1) {
      for (int j = 0; j < n; j++) {
        gsReal Dj = d->efc_D[r + j], xj = jar[r + j];
        force[r + j] = -Dj * xj;
        state[r + j] = GS_CNSTRSTATE_QUADRATIC;
        *total += 0.5 * Dj * xj * xj;
      }
    } else {
      gsReal a = k.D0 / (1 + k.mu * k.mu), gap = k.N - k.mu * k.T, cc = a * gap;
      force[r] = -cc;
      for (int j = 1; j < n; j++) force[r + j] = cc * c->friction[j - 1] * k.u[j - 1] / k.T;
      for (int j = 0; j < n; j++) state[r + j] = GS_CNSTRSTATE_CONE;
      *total += 0.5 * a * gap * gap;
    }
    return n;
  }
  gsReal f = 0;
  int s = GS_CNSTRSTATE_SATISFIED;
  if (type == GS_CNSTR_EQUALITY) {
    f = -D * x, s = GS_CNSTRSTATE_QUADRATIC;
  } else if (type == GS_CNSTR_FRICTION_DOF || type == GS_CNSTR_FRICTION_TENDON) {
    gsReal fl = d->efc_frictionloss[r], R = d->efc_R[r];
    if (x <= -R * fl) {
      f = fl, s = GS_CNSTRSTATE_LINEARNEG;
      *total += -fl * x - 0.5 * R * fl * fl;
    } else if (x >= R * fl) {
      f = -fl, s = GS_CNSTRSTATE_LINEARPOS;
      *total += fl * x - 0.5 * R * fl * fl;
    } else {
      f = -D * x, s = GS_CNSTRSTATE_QUADRATIC;
    }
  } else if (x < 0) {
    f = -D * x, s = GS_CNSTRSTATE_QUADRATIC;
  }
  if (s == GS_CNSTRSTATE_QUADRATIC) *total += 0.5 * D * x * x;
  force[r] = f;
  state[r] = s;
  return 1;
}

/* the force and state of every row for jar = J qacc - aref; cost, when asked, is the constraint
 * part of the primal cost (seed 000 eq. 13 with the Huber and cone terms) */
void gs_constraintForce(const gsModel* m, gsData* d, const gsReal* jar, gsReal* force, int* state,
                        gsReal* cost);

/* Euclidean projection of y (n values) on the circular cone y0 >= |y_1..n-1| */
void gs_projectCone(gsReal* y, int n);

/* Euclidean projection of y (n values) on the ball |y| <= radius */
void gs_projectBall(gsReal* y, int n, gsReal radius);

#endif
