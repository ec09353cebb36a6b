/* Internal interface of the constraint stage: rows (rows.c), the soft model's parameters
 * (impedance.c), islands (island.c); the force map is in force.h, the solvers in src/solver. */
#ifndef GAUSS_CONSTRAINT_H
#define GAUSS_CONSTRAINT_H

#include "gauss/gauss.h"

/* rows of every active constraint in MJCF's order, with J, pos, margin, frictionloss; sets the
 * contacts' efc_address and mu. Raises GS_WARN_CNSTRFULL when the rows do not fit. */
void gs_makeConstraint(const gsModel* m, gsData* d);

/* diagApprox, R, D and the stiffness/damping/impedance of every row (position dependent) */
void gs_makeImpedance(const gsModel* m, gsData* d);

/* the constraint islands of the rows (gsData's island fields); nisland = 0 when the island flag
 * is disabled */
void gs_island(const gsModel* m, gsData* d);

/* efc_vel = J qvel and efc_aref (velocity dependent) */
void gs_referenceConstraint(const gsModel* m, gsData* d);

/* y = J x (nefc values) and x = J^T y (nv values) */
void gs_mulJ(const gsData* d, gsReal* y, const gsReal* x);
void gs_mulJT(const gsModel* m, const gsData* d, gsReal* x, const gsReal* y);

/* jar = J a - aref (nefc values) */
void gs_constraintResidual(const gsData* d, const gsReal* a, gsReal* jar);

/* rows of contact i: normal row first */
static inline int gs_contactRows(const gsModel* m, const gsContact* c) {
  if (c->dim == 1) return 1;
  return m->opt.cone == GS_CONE_ELLIPTIC ? c->dim : 2 * (c->dim - 1);
}

#endif
