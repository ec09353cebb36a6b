/* The forward pipeline: position stage, velocity stage, force stage, and the checks that reset a
 * diverged simulation. */
#include "constraint/constraint.h"
#include "solver/solver.h"
#include "core/math.h"
#include "core/timer.h"
#include "dynamics/dynamics.h"
#include "pipeline/pipeline.h"

void gs_fwdPositionSmooth(const gsModel* m, gsData* d) {
  double t = gs_timerStart(d);
  gs_kinematics(m, d);
  gs_comPos(m, d);
  gs_tendon(m, d);
  gs_timerStop(d, GS_TIMER_POS_KINEMATICS, t);
  t = gs_timerStart(d);
  gs_crb(m, d);
  gs_factorM(m, d);
  gs_timerStop(d, GS_TIMER_POS_INERTIA, t);
}

void gs_fwdPosition(const gsModel* m, gsData* d) {
  gs_fwdPositionSmooth(m, d);
  double t = gs_timerStart(d);
  gs_collision(m, d);
  gs_timerStop(d, GS_TIMER_POS_COLLISION, t);
  t = gs_timerStart(d);
  gs_makeConstraint(m, d);
  gs_makeImpedance(m, d);
  gs_island(m, d);
  gs_timerStop(d, GS_TIMER_POS_MAKE, t);
  if (m->opt.enableflags & GS_ENBL_ENERGY) gs_energyPos(m, d);
}

void gs_fwdVelocity(const gsModel* m, gsData* d) {
  gs_comVel(m, d);
  gs_passive(m, d);
  gs_rne(m, d, 0, d->qfrc_bias);
  double t = gs_timerStart(d);
  gs_referenceConstraint(m, d);
  gs_timerStop(d, GS_TIMER_VEL_REFERENCE, t);
  if (m->opt.enableflags & GS_ENBL_ENERGY) gs_energyVel(m, d);
}

void gs_fwdActuation(const gsModel* m, gsData* d) {
  /* a bad control is never applied: all controls are cleared and the event counted */
  for (int i = 0; i < m->nu; i++) {
    if (!isfinite(d->ctrl[i]) || fabs(d->ctrl[i]) > GS_MAXVAL) {
      gs_zero(d->ctrl, m->nu);
      d->warning[GS_WARN_BADCTRL].number++;
      d->warning[GS_WARN_BADCTRL].lastinfo = i;
      break;
    }
  }
  /* actuators arrive with their own stage; until then no actuator force */
  gs_zero(d->qfrc_actuator, m->nv);
}

void gs_fwdAcceleration(const gsModel* m, gsData* d) {
  for (int i = 0; i < m->nv; i++)
    d->qfrc_smooth[i] = d->qfrc_passive[i] - d->qfrc_bias[i] + d->qfrc_applied[i] + d->qfrc_actuator[i];
  /* Cartesian forces and torques act at each body's centre of mass */
  for (int b = 1; b < m->nbody; b++) {
    const gsReal* f = d->xfrc_applied + 6 * b;
    if (f[0] == 0 && f[1] == 0 && f[2] == 0 && f[3] == 0 && f[4] == 0 && f[5] == 0) continue;
    gs_applyFT(m, d, f, f + 3, d->xipos + 3 * b, b, d->qfrc_smooth);
  }
  gs_solveM(m, d, d->qacc_smooth, d->qfrc_smooth, 1);
}

void gs_fwdConstraint(const gsModel* m, gsData* d) {
  memset(d->solver_niter, 0, sizeof(d->solver_niter));
  d->solver_nnoslip = 0;
  if (d->nefc == 0) {
    gs_zero(d->qfrc_constraint, m->nv);
    gs_copy(d->qacc, d->qacc_smooth, m->nv);
    return;
  }
  int iter;
  switch (m->opt.solver) {
    case GS_SOL_PGS: iter = gs_solvePGS(m, d); break;
    case GS_SOL_CG: iter = gs_solveNewton(m, d, 1); break;
    default: iter = gs_solveNewton(m, d, 0); break;
  }
  if (iter < 0) {
    /* no room for the solver: no constraint force this step, and the event counted */
    d->warning[GS_WARN_ARENAFULL].number++;
    d->warning[GS_WARN_ARENAFULL].lastinfo = d->nefc;
    gs_zero(d->efc_force, d->nefc);
    gs_zero(d->qfrc_constraint, m->nv);
    gs_copy(d->qacc, d->qacc_smooth, m->nv);
    return;
  }
  /* the primal solvers count per island; PGS solves all rows as one */
  if (m->opt.solver == GS_SOL_PGS) d->solver_niter[0] = iter;
  if (m->opt.noslip_iterations > 0) {
    int n = gs_solveNoslip(m, d);
    d->solver_nnoslip = n > 0 ? n : 0;
  }
}

void gs_forward(const gsModel* m, gsData* d) {
  double t = gs_timerStart(d);
  gs_fwdPosition(m, d);
  gs_fwdVelocity(m, d);
  gs_fwdActuation(m, d);
  gs_fwdAcceleration(m, d);
  double tc = gs_timerStart(d);
  gs_fwdConstraint(m, d);
  gs_timerStop(d, GS_TIMER_CONSTRAINT, tc);
  gs_timerStop(d, GS_TIMER_FORWARD, t);
}

/* ---- divergence checks ---- */
static int is_bad(gsReal x) { return !isfinite(x) || fabs(x) > GS_MAXVAL; }

/* on a bad value: reset to the model's initial state (unless autoreset is off), which clears the
 * counters as MuJoCo's reset does, then record this warning */
static int check(const gsModel* m, gsData* d, const gsReal* x, int n, int warning) {
  for (int i = 0; i < n; i++) {
    if (is_bad(x[i])) {
      if (!(m->opt.disableflags & GS_DSBL_AUTORESET)) gs_resetData(m, d);
      d->warning[warning].number++;
      d->warning[warning].lastinfo = i;
      return 1;
    }
  }
  return 0;
}

int gs_checkPos(const gsModel* m, gsData* d) { return check(m, d, d->qpos, m->nq, GS_WARN_BADQPOS); }
int gs_checkVel(const gsModel* m, gsData* d) { return check(m, d, d->qvel, m->nv, GS_WARN_BADQVEL); }
int gs_checkAcc(const gsModel* m, gsData* d) {
  if (check(m, d, d->qacc, m->nv, GS_WARN_BADQACC)) {
    gs_forward(m, d);  /* the integrator that follows needs a consistent state */
    return 1;
  }
  return 0;
}
