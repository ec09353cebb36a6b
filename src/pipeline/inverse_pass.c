/* The inverse pass (MJCF's mj_inverseSkip): the forward's position and velocity stages, then the
 * analytical acceleration stage of src/inverse; the discrete-time reading of qacc (invdiscrete);
 * and the forward/inverse comparison of the fwdinv flag. The stages live in the pipeline because
 * the position and velocity stages are the forward's own. */
#include <string.h>

#include "core/arena.h"
#include "core/math.h"
#include "core/timer.h"
#include "dynamics/dynamics.h"
#include "inverse/inverse.h"
#include "pipeline/pipeline.h"

/* invdiscrete: qacc is the integrator's (qvel' - qvel) / h, which solves H qacc = force with H
 * the integrator's velocity-update matrix; the continuous-time acceleration with the same force
 * is M^-1 H qacc. Euler without damping and RK4 need no change (RK4 has no such matrix; it is read
 * as continuous). 0 when the arena had no room (qacc left as is). */
static int discrete_acc(const gsModel* m, gsData* d) {
  int nv = m->nv;
  gsReal* R = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)m->nM);
  gsReal* C = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)m->nM);
  gsReal* qfrc = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nv);
  if (!R || !C || !qfrc) return 0;
  int kind = gs_stepMatrix(m, d, m->opt.integrator, R, C);
  if (kind <= 0) return kind == 0;
  gs_mulTree(m, R, kind == 2 ? C : NULL, qfrc, d->qacc);
  gs_solveM(m, d, d->qacc, qfrc, 1);
  return 1;
}

static int first_bad(const gsReal* x, int n) {
  for (int i = 0; i < n; i++)
    if (!isfinite(x[i])) return i;
  return -1;
}

void gs_inverseSkip(const gsModel* m, gsData* d, int skipstage, int skipsensor) {
  int nv = m->nv;
  if (skipstage < GS_STAGE_POS) {
    gs_fwdPositionInverse(m, d);
    if (!skipsensor) gs_sensorPos(m, d);
  }
  if (skipstage < GS_STAGE_VEL) {
    gs_fwdVelocity(m, d);
    if (!skipsensor) gs_sensorVel(m, d);
  }
  /* a non-finite acceleration has no inverse: nothing is computed from it, and the event is
   * counted; the data is not reset (the caller's state is an input here, not a trajectory) */
  int bad = first_bad(d->qacc, nv);
  if (bad >= 0) {
    gs_warning(d, GS_WARN_BADQACC, bad);
    gs_zero(d->efc_force, d->nefc);
    gs_zero(d->qfrc_constraint, nv);
    gs_zero(d->qfrc_inverse, nv);
    return;
  }
  size_t mark = gs_arenaMark(d);
  gsReal* saved = NULL;
  if ((m->opt.enableflags & GS_ENBL_INVDISCRETE) && m->opt.integrator != GS_INT_RK4) {
    saved = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nv);
    if (saved) {
      gs_copy(saved, d->qacc, nv);
      discrete_acc(m, d);
    }
  }
  gs_invConstraint(m, d);
  gs_invForce(m, d);
  if (!skipsensor) gs_sensorAcc(m, d);
  if (saved) gs_copy(d->qacc, saved, nv);
  gs_arenaRelease(d, mark);
}

void gs_inverse(const gsModel* m, gsData* d) { gs_inverseSkip(m, d, GS_STAGE_NONE, 0); }

/* fwdinv (MJCF's mj_compareFwdInv, after the forward pass of a step): the inverse of the forward's
 * qacc from the same position and velocity stages. solver_fwdinv[0] is the norm of the difference
 * of the constraint forces in joint space, qfrc_constraint (the rows' forces through J^T),
 * solver_fwdinv[1] that of the applied force; measured on MuJoCo 3.3.7, whose [0] equals the
 * norm of the qfrc_constraint difference to the last bit, not that of efc_force. The forward's
 * efc_force and qfrc_constraint are kept. */
void gs_compareFwdInv(const gsModel* m, gsData* d) {
  int nv = m->nv, nefc = d->nefc;
  d->solver_fwdinv[0] = d->solver_fwdinv[1] = 0;
  if (nefc == 0) return;
  size_t mark = gs_arenaMark(d);
  gsReal* qforce = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nv);
  gsReal* qfrc = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nv);
  gsReal* force = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nefc);
  if (qforce && qfrc && force) {
    /* the applied force the forward used: qfrc_smooth less the passive and bias forces */
    for (int i = 0; i < nv; i++)
      qforce[i] = d->qfrc_smooth[i] - d->qfrc_passive[i] + d->qfrc_bias[i];
    gs_copy(qfrc, d->qfrc_constraint, nv);
    gs_copy(force, d->efc_force, nefc);
    gs_inverseSkip(m, d, GS_STAGE_VEL, 1);
    gsReal a = 0, b = 0;
    for (int i = 0; i < nv; i++) {
      gsReal dc = qfrc[i] - d->qfrc_constraint[i], da = qforce[i] - d->qfrc_inverse[i];
      a += dc * dc;
      b += da * da;
    }
    d->solver_fwdinv[0] = sqrt(a);
    d->solver_fwdinv[1] = sqrt(b);
    gs_copy(d->qfrc_constraint, qfrc, nv);
    gs_copy(d->efc_force, force, nefc);
  }
  gs_arenaRelease(d, mark);
}
