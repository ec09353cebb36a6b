/* The constraint solvers: from qacc_smooth and the rows of the constraint stage to qacc,
 * efc_force and efc_state. Newton and CG on the reduced primal (primal.c, with the Hessian of
 * hessian.c), PGS on the dual (pgs.c) and the noslip pass (noslip.c), both on dual.c. Each returns
 * the iterations it used, -1 when the arena cannot hold its scratch (qacc then stays smooth). */
#ifndef GAUSS_SOLVER_H
#define GAUSS_SOLVER_H

#include "gauss/gauss.h"

int gs_solveNewton(const gsModel* m, gsData* d, int cg);
/* kept: a dual setup of the same position stage to start from (NULL: none) */
struct gsDual;
int gs_solvePGS(const gsModel* m, gsData* d, const struct gsDual* kept, int rates);
int gs_solveNoslip(const gsModel* m, gsData* d);

/* the solvers compare improvements and gradients with the tolerance in units of
 * stat.meaninertia (the mean diagonal of M at qpos0) times nv */
static inline gsReal gs_solverScale(const gsModel* m) {
  gsReal mean = m->stat.meaninertia > 0 ? m->stat.meaninertia : 1;
  return 1 / (mean * (m->nv > 1 ? m->nv : 1));
}

#endif
