/* PGS (MJCF's solver="PGS"): projected Gauss-Seidel sweeps over the dual problem of dual.h,
 * scalar rows by their exact minimiser clipped to their admissible set, elliptic contacts as one
 * block on their cone; from the warm start's forces when they beat zero. */
#include <string.h>

#include "constraint/constraint.h"
#include "constraint/force.h"
#include "solver/dual.h"
#include "solver/solver.h"

/* the forces of qacc_warmstart when they are better than no force */
static void dual_start(const gsModel* m, gsData* d, gsDual* w) {
  int nefc = d->nefc;
  memset(d->efc_force, 0, sizeof(gsReal) * (size_t)nefc);
  if (m->opt.disableflags & GS_DSBL_WARMSTART) return;
  size_t mark = gs_stackMark(d);
  gsReal* jar = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nefc);
  int* state = gs_stackAlloc(d, sizeof(int) * (size_t)nefc);
  if (jar && state) {
    gs_constraintResidual(d, d->qacc_warmstart, jar);
    gs_constraintForce(m, d, jar, d->efc_force, state, NULL);
    gs_dualAccumulate(d, w, m->nv);
    /* dual cost: 1/2 f^T (A + R) f + f^T b; zero force costs 0 */
    gsReal cost = 0;
    for (int r = 0; r < nefc; r++) {
      gsReal f = d->efc_force[r];
      cost += f * (0.5 * (gs_dualRowGrad(w, r) - w->b[r]) + 0.5 * d->efc_R[r] * f + w->b[r]);
    }
    if (!(cost < 0)) {
      memset(d->efc_force, 0, sizeof(gsReal) * (size_t)nefc);
      memset(w->u, 0, sizeof(gsReal) * (size_t)m->nv);
    }
  }
  gs_stackRelease(d, mark);
}

enum { GS_PGS_DENSE_AFTER = 6 };

int gs_solvePGS(const gsModel* m, gsData* d, const gsDual* kept) {
  size_t mark = gs_stackMark(d);
  gsDual w;
  if (kept ? !gs_dualReuse(m, d, &w, kept) : !gs_dualSetup(m, d, &w, 1)) {
    gs_stackRelease(d, mark);
    return -1;
  }
  dual_start(m, d, &w);
  gsReal scale = gs_solverScale(m);
  /* the rows before the first elliptic contact (equalities, friction loss, limits come first)
   * are scalar: their own loop, without the per-row test of the type, which mispredicts where
   * the kinds change */
  int scalar = 0;
  while (scalar < d->nefc && d->efc_type[scalar] != GS_CNSTR_CONTACT_ELLIPTIC) scalar++;
  int iter = 0;
  for (; iter < m->opt.iterations; iter++) {
    gsReal change = 0;
    /* a solve still going after a few sweeps is likely a long one: A whole, when it pays, makes
     * the rest cheaper (a quick warm-started solve never pays for forming it) */
    if (iter == GS_PGS_DENSE_AFTER) gs_dualDense(m, d, &w);
    for (int r = 0; r < scalar; r++) change += gs_dualRowUpdate(d, &w, r, d->efc_R[r]);
    for (int r = scalar; r < d->nefc;) {
      if (d->efc_type[r] == GS_CNSTR_CONTACT_ELLIPTIC) {
        int n = d->contact[d->efc_id[r]].dim;
        change += gs_dualBlockUpdate(d, &w, r, n, 0);
        r += n;
      } else {
        change += gs_dualRowUpdate(d, &w, r, d->efc_R[r]);
        r++;
      }
    }
    gsReal improvement = -scale * change;
    if (iter < GS_NSOLVER) {
      memset(d->solver + iter, 0, sizeof(gsSolverStat));
      d->solver[iter].improvement = improvement;
    }
    if (improvement < m->opt.tolerance) {
      iter++;
      break;
    }
  }
  gs_dualFinish(m, d);
  gs_stackRelease(d, mark);
  return iter;
}

