/* Internal interface of the inverse dynamics (seed 000 §III): the acceleration stage of the
 * inverse, run by the pipeline (src/pipeline/inverse_pass.c) after the position and velocity
 * stages. */
#ifndef GAUSS_INVERSE_H
#define GAUSS_INVERSE_H

#include "gauss/gauss.h"

/* efc_force and efc_state of every row from jar = J qacc - aref by the soft model's force map
 * (constraint/force.h, the solvers' map), and qfrc_constraint = J^T efc_force; counts
 * GS_WARN_STIFFINVERSE for a row whose R is below 1e-3 of its diagApprox */
void gs_invConstraint(const gsModel* m, gsData* d);

/* qfrc_inverse = M qacc + qfrc_bias - qfrc_passive - qfrc_constraint (M with the armature of
 * dofs and tendons, as stored in qM) */
void gs_invForce(const gsModel* m, gsData* d);

/* res = H x for a matrix H with qM's tree pattern: symmetric when C is NULL (R holds it), else R
 * holds the lower part (row i, its ancestors) and C the upper part at the same places */
void gs_mulTree(const gsModel* m, const gsReal* R, const gsReal* C, gsReal* res, const gsReal* x);

#endif
