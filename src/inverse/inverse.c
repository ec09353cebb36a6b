/* The acceleration stage of the analytical inverse (seed 000 §III). With soft constraints the
 * force of every row is a function of its own residual jar = J qacc - aref (Theorems 2 and 4: the
 * equality rows by the soft Gauss principle, friction loss Huber, limits and contacts by the
 * projection on the dual cone, Algorithm 5 for elliptic cones); the solvers minimize over qacc
 * with that map, the inverse evaluates it once at the given qacc: no factorization, no iteration. */
#include <string.h>

#include "constraint/constraint.h"
#include "constraint/force.h"
#include "core/arena.h"
#include "core/math.h"
#include "inverse/inverse.h"

/* a row at least this much stiffer than its approximate inverse inertia (R / A) multiplies the
 * error of qacc by A / R in its force: solimp above 0.999 */
#define STIFF_RATIO 1e-3

void gs_invConstraint(const gsModel* m, gsData* d) {
  int nefc = d->nefc;
  if (nefc == 0) {
    gs_zero(d->qfrc_constraint, m->nv);
    return;
  }
  size_t mark = gs_arenaMark(d);
  gsReal* jar = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nefc);
  if (!jar) {
    /* no room (counted by the arena): no constraint force */
    gs_zero(d->efc_force, nefc);
    gs_zero(d->qfrc_constraint, m->nv);
    return;
  }
  gs_constraintResidual(d, d->qacc, jar);
  gs_constraintForce(m, d, jar, d->efc_force, d->efc_state, NULL);
  gs_mulJT(m, d, d->qfrc_constraint, d->efc_force);
  for (int r = 0; r < nefc; r++) {
    if (d->efc_R[r] < STIFF_RATIO * d->efc_diagApprox[r]) {
      gs_warning(d, GS_WARN_STIFFINVERSE, r);
      break;
    }
  }
  gs_arenaRelease(d, mark);
}

void gs_invForce(const gsModel* m, gsData* d) {
  int nv = m->nv;
  gs_mulM(m, d, d->qfrc_inverse, d->qacc);
  for (int i = 0; i < nv; i++)
    d->qfrc_inverse[i] += d->qfrc_bias[i] - d->qfrc_passive[i] - d->qfrc_constraint[i];
}

void gs_mulTree(const gsModel* m, const gsReal* R, const gsReal* C, gsReal* res, const gsReal* x) {
  const gsReal* U = C ? C : R;
  for (int i = 0; i < m->nv; i++) res[i] = R[m->dof_Madr[i]] * x[i];
  for (int i = 0; i < m->nv; i++) {
    int adr = m->dof_Madr[i] + 1;
    for (int j = m->dof_parentid[i]; j >= 0; j = m->dof_parentid[j], adr++) {
      res[i] += R[adr] * x[j];
      res[j] += U[adr] * x[i];
    }
  }
}
