/* The forward pipeline: position stage, velocity stage, force stage, and the checks that reset a
 * diverged simulation. */
#include <stdint.h>
#include <string.h>

#include "constraint/constraint.h"
#include "solver/solver.h"
#include "core/math.h"
#include "core/moving.h"
#include "core/timer.h"
#include "dynamics/dynamics.h"
#include "pipeline/pipeline.h"

/* frames, com quantities, tendons, M, and the factor of M unless deferred (the inverse needs none) */
static void position_smooth(const gsModel* m, gsData* d, int factor, int pass) {
  double t = gs_timerStart(d);
  gs_kinematicsPart(m, d, !(pass & GS_PASS_NOGEOM));
  gs_comPos(m, d);
  if (!(pass & GS_PASS_NOTENDON)) gs_tendon(m, d);
  gs_timerStop(d, GS_TIMER_POS_KINEMATICS, t);
  t = gs_timerStart(d);
  gs_crb(m, d);
  if (factor) gs_factorM(m, d);
  else d->deferred |= GS_DEFER_FACTOR;
  gs_timerStop(d, GS_TIMER_POS_INERTIA, t);
}

void gs_fwdPositionSmooth(const gsModel* m, gsData* d) { position_smooth(m, d, 1, 0); }

/* ---- options: a value outside its enumeration or range is counted, and the stage that reads
 * it uses MJCF's default instead (integrate.c: Euler; gs_fwdConstraint: Newton; rows.c: pyramidal;
 * primal.c: auto), or its floor (iterations: none; ls_iterations: one) ---- */
static void check_options(const gsModel* m, gsData* d) {
  const gsOption* o = &m->opt;
  if ((unsigned)o->integrator > GS_INT_IMPLICITFAST) gs_warning(d, GS_WARN_BADOPTION, GS_OPTION_INTEGRATOR);
  if ((unsigned)o->cone > GS_CONE_ELLIPTIC) gs_warning(d, GS_WARN_BADOPTION, GS_OPTION_CONE);
  if ((unsigned)o->jacobian > GS_JAC_AUTO) gs_warning(d, GS_WARN_BADOPTION, GS_OPTION_JACOBIAN);
  if ((unsigned)o->solver > GS_SOL_NEWTON) gs_warning(d, GS_WARN_BADOPTION, GS_OPTION_SOLVER);
  if (o->iterations < 0) gs_warning(d, GS_WARN_BADOPTION, GS_OPTION_ITERATIONS);
  if (o->ls_iterations < 0) gs_warning(d, GS_WARN_BADOPTION, GS_OPTION_LS_ITERATIONS);
  if (o->noslip_iterations < 0) gs_warning(d, GS_WARN_BADOPTION, GS_OPTION_NOSLIP_ITERATIONS);
  if (o->ccd_iterations < 0) gs_warning(d, GS_WARN_BADOPTION, GS_OPTION_CCD_ITERATIONS);
}

/* ---- contact parameters: a NaN or Inf in a geom's size or contact parameters gives contacts
 * with no force, or none at all (the geom falls through the floor in silence). The test is on the
 * bits: a non-finite double has every exponent bit set, and only then does adding one to its
 * exponent carry into the sign bit; and, add and or vectorize (SSE2), so a model's few hundred
 * values cost tens of nanoseconds. ---- */
static uint64_t exponent_carry(const gsReal* x, int n) {
  const uint64_t exponent = 0x7ff0000000000000ull, one = 0x0010000000000000ull;
  uint64_t bad = 0;
  for (int i = 0; i < n; i++) {
    uint64_t b;
    memcpy(&b, x + i, sizeof b);
    bad |= (b & exponent) + one;
  }
  return bad;
}

static int finite_all(const gsReal* x, int n) { return !(exponent_carry(x, n) >> 63); }

/* the geom (or ngeom + the pair) with a non-finite contact parameter, -1 when none */
static int bad_contact_params(const gsModel* m) {
  if (m->opt.disableflags & (GS_DSBL_CONTACT | GS_DSBL_CONSTRAINT)) return -1;
  int ng = m->ngeom, np = m->npair;
  /* geoms all fixed to the world pair with none (the filter's first rule) and, without explicit
   * pairs, no parameter of theirs is read (dm_control's props: 41 geoms, ~700 values, a fifth
   * of the step's instructions) */
  if (np == 0 && !gs_anyMovingGeom(m)) return -1;
  /* whole fields at once, without branches; the culprit is looked for only when one holds a
   * bad value */
  uint64_t bits = exponent_carry(m->geom_size, 3 * ng) | exponent_carry(m->geom_friction, 3 * ng) |
                  exponent_carry(m->geom_margin, ng) | exponent_carry(m->geom_gap, ng) |
                  exponent_carry(m->geom_solref, GS_NREF * ng) |
                  exponent_carry(m->geom_solimp, GS_NIMP * ng) | exponent_carry(m->geom_solmix, ng);
  if (np)
    bits |= exponent_carry(m->pair_friction, 5 * np) | exponent_carry(m->pair_margin, np) |
            exponent_carry(m->pair_gap, np) | exponent_carry(m->pair_solref, GS_NREF * np) |
            exponent_carry(m->pair_solreffriction, GS_NREF * np) |
            exponent_carry(m->pair_solimp, GS_NIMP * np);
  if (!(bits >> 63)) return -1;
  for (int g = 0; g < ng; g++)
    if (!finite_all(m->geom_size + 3 * g, 3) || !finite_all(m->geom_friction + 3 * g, 3) ||
        !isfinite(m->geom_margin[g]) || !isfinite(m->geom_gap[g]) ||
        !finite_all(m->geom_solref + GS_NREF * g, GS_NREF) ||
        !finite_all(m->geom_solimp + GS_NIMP * g, GS_NIMP) || !isfinite(m->geom_solmix[g]))
      return g;
  for (int p = 0; p < np; p++)
    if (!finite_all(m->pair_friction + 5 * p, 5) || !isfinite(m->pair_margin[p]) ||
        !isfinite(m->pair_gap[p]) || !finite_all(m->pair_solref + GS_NREF * p, GS_NREF) ||
        !finite_all(m->pair_solreffriction + GS_NREF * p, GS_NREF) ||
        !finite_all(m->pair_solimp + GS_NIMP * p, GS_NIMP))
      return ng + p;
  return -1;
}

/* the position stage; the inverse's (full 0) leaves out the factor of M and the islands, which
 * it does not use: gsData.deferred records them for the passes that do (gs_completePosition).
 * pass: what a pass inside a step may leave out (GS_PASS_*, pipeline.h). */
static void position_stage(const gsModel* m, gsData* d, int full, int pass) {
  check_options(m, d);
  position_smooth(m, d, full, pass);
  double t = gs_timerStart(d);
  /* contacts made of non-finite parameters would carry NaN into the solver: none are made, and
   * the event is counted (gs_checkContact resets the step) */
  int bad = pass & GS_PASS_CHECKED ? -1 : bad_contact_params(m);
  if (bad < 0) {
    gs_collision(m, d);
  } else {
    d->ncon = 0;
    gs_warning(d, GS_WARN_BADCONTACT, bad);
  }
  gs_timerStop(d, GS_TIMER_POS_COLLISION, t);
  t = gs_timerStart(d);
  gs_makeConstraint(m, d);
  gs_makeImpedance(m, d);
  if (full && !(pass & GS_PASS_NOISLAND)) {
    gs_island(m, d);
  } else {
    d->deferred |= GS_DEFER_ISLAND;
    d->nisland = d->nidof = 0;
  }
  gs_timerStop(d, GS_TIMER_POS_MAKE, t);
  /* transmissions after the contacts (adhesion pulls through them); their time is the
   * actuation's, counted once per forward pass with gs_fwdActuation */
  if (!(pass & GS_PASS_KEEPACT)) {
    t = gs_timerStart(d);
    gs_transmissionAll(m, d);
    if (d->timeron) d->timer[GS_TIMER_ACTUATION].duration += gs_clock() - t;
  }
  if (m->opt.enableflags & GS_ENBL_ENERGY) gs_energyPos(m, d);
}

void gs_fwdPosition(const gsModel* m, gsData* d) { position_stage(m, d, 1, 0); }

void gs_fwdPositionInverse(const gsModel* m, gsData* d) { position_stage(m, d, 0, 0); }

void gs_completePosition(const gsModel* m, gsData* d) {
  if (d->deferred & GS_DEFER_GEOM) gs_geomFrames(m, d);
  if (d->deferred & GS_DEFER_FACTOR) gs_factorM(m, d);
  if (d->deferred & GS_DEFER_ISLAND) gs_island(m, d);
}

static void velocity_stage(const gsModel* m, gsData* d, int pass) {
  gs_comVel(m, d);
  /* ten_velocity, actuator_velocity: the actuators' forces read them (the passive forces take
   * the tendons' velocities from ten_J themselves) */
  if (!(pass & GS_PASS_KEEPACT)) gs_transmissionVelocity(m, d, !(pass & GS_PASS_NOTENDON));
  double tp = gs_timerStart(d);
  gs_passive(m, d);
  gs_timerStop(d, GS_TIMER_PASSIVE, tp);
  gs_rne(m, d, 0, d->qfrc_bias);
  gs_tendonArmatureBias(m, d, d->qfrc_bias);  /* MJCF's bias force includes it; gs_rne does not */
  double t = gs_timerStart(d);
  gs_referenceConstraint(m, d);
  gs_timerStop(d, GS_TIMER_VEL_REFERENCE, t);
  if (m->opt.enableflags & GS_ENBL_ENERGY) gs_energyVel(m, d);
}

void gs_fwdVelocity(const gsModel* m, gsData* d) { velocity_stage(m, d, 0); }

void gs_fwdActuation(const gsModel* m, gsData* d) {
  double t = gs_timerStart(d);
  /* a bad control is never applied: the actuators act as if every control were zero, and the
   * event is counted on every pass that sees it, as MJCF does; d->ctrl stays as written */
  gs_actuation(m, d);
  gs_timerStop(d, GS_TIMER_ACTUATION, t);
}

void gs_fwdAcceleration(const gsModel* m, gsData* d) {
  for (int i = 0; i < m->nv; i++)
    d->qfrc_smooth[i] = d->qfrc_passive[i] - d->qfrc_bias[i] + d->qfrc_applied[i] + d->qfrc_actuator[i];
  /* Cartesian forces and torques act at each body's centre of mass */
  for (int b = 1; b < m->nbody; b++) {
    const gsReal* f = d->xfrc_applied + 6 * b;
    if (gs_allZero(f, 6)) continue;
    gs_applyFT(m, d, f, f + 3, d->xipos + 3 * b, b, d->qfrc_smooth);
  }
  gs_solveM(m, d, d->qacc_smooth, d->qfrc_smooth, 1);
}

void gs_fwdConstraint(const gsModel* m, gsData* d) { gs_fwdConstraintKept(m, d, NULL, 0); }

void gs_fwdConstraintKept(const gsModel* m, gsData* d, const struct gsDual* kept, int pass) {
  memset(d->solver_niter, 0, sizeof(d->solver_niter));
  d->solver_nnoslip = 0;
  if (d->nefc == 0) {
    gs_zero(d->qfrc_constraint, m->nv);
    gs_copy(d->qacc, d->qacc_smooth, m->nv);
    return;
  }
  int iter;
  switch (m->opt.solver) {
    case GS_SOL_PGS:
      /* noslip reads the rows' states */
      iter = gs_solvePGS(m, d, kept, (pass & GS_PASS_RATES) && m->opt.noslip_iterations <= 0);
      break;
    case GS_SOL_CG: iter = gs_solveNewton(m, d, 1); break;
    default: iter = gs_solveNewton(m, d, 0); break;
  }
  if (iter < 0) {
    /* no room for the solver: no constraint force this step, and the event counted */
    gs_warning(d, GS_WARN_ARENAFULL, d->nefc);
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

/* a sensor stage, timed */
static void sensors(const gsModel* m, gsData* d, void (*stage)(const gsModel*, gsData*)) {
  double t = gs_timerStart(d);
  stage(m, d);
  gs_timerStop(d, GS_TIMER_SENSOR, t);
}

/* MJCF's mj_forwardSkip: the stages before skipstage are left as they are (their outputs were
 * computed from the same qpos, or qpos and qvel); the energy goes with its stage */
void gs_forwardSkip(const gsModel* m, gsData* d, int skipstage, int skipsensor) {
  gs_forwardSkipKept(m, d, skipstage, skipsensor, NULL);
}

void gs_forwardSkipKept(const gsModel* m, gsData* d, int skipstage, int skipsensor,
                        const struct gsDual* kept) {
  gs_forwardPass(m, d, skipstage, skipsensor, kept, 0);
}

void gs_forwardPass(const gsModel* m, gsData* d, int skipstage, int skipsensor,
                    const struct gsDual* kept, int pass) {
  double t = gs_timerStart(d);
  if (skipstage >= GS_STAGE_POS) gs_completePosition(m, d);  /* after an inverse pass */
  if (skipstage < GS_STAGE_POS) {
    position_stage(m, d, 1, pass);
    if (!skipsensor) sensors(m, d, gs_sensorPos);
  }
  if (skipstage < GS_STAGE_VEL) {
    velocity_stage(m, d, pass);
    if (!skipsensor) sensors(m, d, gs_sensorVel);
  }
  if (d->cb.control) d->cb.control(m, d, d->cb.user);
  if (!(pass & GS_PASS_KEEPACT)) gs_fwdActuation(m, d);
  gs_fwdAcceleration(m, d);
  double tc = gs_timerStart(d);
  gs_fwdConstraintKept(m, d, kept, pass);
  gs_timerStop(d, GS_TIMER_CONSTRAINT, tc);
  if (!skipsensor) sensors(m, d, gs_sensorAcc);
  gs_timerStop(d, GS_TIMER_FORWARD, t);
}

void gs_forwardSkipSensor(const gsModel* m, gsData* d, int skipsensor) {
  gs_forwardSkip(m, d, GS_STAGE_NONE, skipsensor);
}

void gs_forward(const gsModel* m, gsData* d) { gs_forwardSkip(m, d, GS_STAGE_NONE, 0); }

/* ---- divergence checks ---- */
/* infinite, NaN (which fails the comparison) or beyond GS_MAXVAL; without branches */
static int is_bad(gsReal x) { return !(fabs(x) <= GS_MAXVAL); }

/* on a bad value: reset to the model's initial state (unless autoreset is off), which clears the
 * counters as MuJoCo's reset does, then record this warning */
static int check(const gsModel* m, gsData* d, const gsReal* x, int n, int warning) {
  /* one pass without branches, then the index */
  int any = 0;
  for (int i = 0; i < n; i++) any |= is_bad(x[i]);
  if (!any) return 0;
  for (int i = 0; i < n; i++) {
    if (is_bad(x[i])) {
      if (!(m->opt.disableflags & GS_DSBL_AUTORESET)) gs_resetData(m, d);
      gs_warning(d, warning, i);
      return 1;
    }
  }
  return 0;
}

int gs_checkContact(const gsModel* m, gsData* d) {
  if (bad_contact_params(m) < 0) return 0;
  /* the position stage counts it; the step starts again from the initial state */
  if (!(m->opt.disableflags & GS_DSBL_AUTORESET)) gs_resetData(m, d);
  return 1;
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
