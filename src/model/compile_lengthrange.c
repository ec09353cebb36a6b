/* actuator_lengthrange at compile time (<compiler><lengthrange>, MJCF's "Length range").
 *
 * For each actuator the mode selects (muscles by default) whose range is not given already, the
 * range is copied from the limits of its joint or tendon (uselimit), or found by simulation:
 * from qpos0 at rest, a force along the actuator's moment pulls the transmission to its shortest
 * (then longest) length, with the model's joint and tendon limits and equality constraints on
 * and contacts, passive forces, gravity, friction loss and actuators off; the velocity decays by
 * exp(-h / timeconst) each step, so the motion settles where the force meets the limits (or the
 * geometry). The force's size gives joint accelerations of norm `accel` (its joint force of norm
 * at most `maxforce`).
 * The extreme length over the last `interval` seconds of `inttotal` is the result; when the
 * lengths in that interval spread over more than `tolrange` of the range, the motion has not
 * settled (or nothing limits the actuator) and compiling fails, naming the actuator. */
#include <math.h>
#include <stdlib.h>

#include "core/math.h"
#include "dynamics/dynamics.h"
#include "model/compile.h"

/* the simulation of one actuator in one direction. Each step is gs_step1, the force, gs_step2, as
 * in MJCF, so that the force is the one at the step's start and RK4 models step as Euler does
 * (step2 has one force evaluation) */
typedef struct {
  int id;            /* actuator */
  gsReal sign;       /* -1: shorten, +1: lengthen */
  gsReal accel, maxforce;
  gsReal length;     /* the length at the start of the last step */
  gsReal lo, hi;     /* extremes recorded */
  int recorded;
  int failed;        /* the arena could not hold the transmission's scratch */
  gsReal* moment;    /* nv */
  gsReal* x;         /* nv */
} gsLengthRun;

static void push(const gsModel* m, gsData* d, gsLengthRun* r) {
  int nv = m->nv;
  gsReal length;
  gs_zero(d->qfrc_applied, nv);
  if (!gs_transmission(m, d, r->id, &length, r->moment)) {
    r->failed = 1;
    return;
  }
  r->length = length;
  /* |M^-1 moment| is the acceleration a unit force gives: scale the force to `accel` */
  gs_solveM(m, d, r->x, r->moment, 1);
  gsReal norm = 0;
  for (int k = 0; k < nv; k++) norm += r->x[k] * r->x[k];
  norm = sqrt(norm);
  if (norm < GS_MINVAL) return;
  gsReal f = r->accel / norm;
  /* maxforce bounds the norm of the joint force f * moment */
  if (r->maxforce > 0) {
    gsReal mnorm = sqrt(gs_dot(r->moment, r->moment, nv));
    if (f * mnorm > r->maxforce) f = r->maxforce / mnorm;
  }
  for (int k = 0; k < nv; k++) d->qfrc_applied[k] = r->sign * f * r->moment[k];
}

/* one direction: the extremes of the length over the last interval in r->lo, r->hi */
static int simulate(gsModel* m, gsData* d, gsLengthRun* r, const gsLengthRangeOptions* o) {
  gs_resetData(m, d);
  gsReal record = o->inttotal - o->interval;
  r->recorded = 0;
  gsReal decay = exp(-m->opt.timestep / o->timeconst);
  /* by the clock (as MJCF does: the rounding of the summed time decides whether a last step is
   * taken); a step that ends within the last interval records the length it started from */
  while (d->time < o->inttotal && !r->failed) {
    gs_step1(m, d);
    push(m, d, r);
    if (r->failed) break;
    gs_step2(m, d);
    for (int k = 0; k < m->nv; k++) d->qvel[k] *= decay;
    if (d->time >= record) {
      if (!r->recorded || r->length < r->lo) r->lo = r->length;
      if (!r->recorded || r->length > r->hi) r->hi = r->length;
      r->recorded = 1;
    }
  }
  return !r->failed && r->recorded;
}

/* whether actuator i is one the mode asks for */
static int selected(const gsModel* m, int i, int mode) {
  int gain = m->actuator_gaintype[i], bias = m->actuator_biastype[i];
  int muscle = gain == GS_GAIN_MUSCLE || bias == GS_BIAS_MUSCLE;
  int user = gain == GS_GAIN_USER || bias == GS_BIAS_USER;
  switch (mode) {
    case GS_LRMODE_MUSCLE: return muscle;
    case GS_LRMODE_MUSCLEUSER: return muscle || user;
    case GS_LRMODE_ALL: return 1;
    default: return 0;
  }
}

/* the limits of a limited joint or tendon transmission, copied as they are (the gear does not
 * scale them, as in MJCF); 0 when there are none */
static int copy_limit(const gsModel* m, int i, gsReal* range) {
  int id = m->actuator_trnid[2 * i];
  switch (m->actuator_trntype[i]) {
    case GS_TRN_JOINT:
    case GS_TRN_JOINTINPARENT:
      if (!m->jnt_limited[id]) return 0;
      range[0] = m->jnt_range[2 * id];
      range[1] = m->jnt_range[2 * id + 1];
      return 1;
    case GS_TRN_TENDON:
      if (!m->tendon_limited[id]) return 0;
      range[0] = m->tendon_range[2 * id];
      range[1] = m->tendon_range[2 * id + 1];
      return 1;
    default:
      return 0;
  }
}

int gs_compileLengthRange(gsCompileCtx* c, gsModel* m) {
  const gsLengthRangeOptions* o = &c->spec->compiler.lengthrange;
  if (o->mode == GS_LRMODE_NONE || m->nu == 0) return 1;

  /* which actuators need a simulation */
  int nsim = 0;
  for (int i = 0; i < m->nu; i++) {
    gsReal* range = m->actuator_lengthrange + 2 * i;
    if (!selected(m, i, o->mode)) continue;
    if (o->useexisting && range[0] < range[1]) continue;
    if (o->uselimit && copy_limit(m, i, range)) continue;
    nsim++;
  }
  if (nsim == 0) return 1;
  if (m->nv == 0) return 1;

  /* the model's options for the simulation, restored after */
  gsOption saved = m->opt;
  m->opt.disableflags |= GS_DSBL_CONTACT | GS_DSBL_SPRING | GS_DSBL_DAMPER | GS_DSBL_GRAVITY |
                         GS_DSBL_FRICTIONLOSS | GS_DSBL_ACTUATION | GS_DSBL_SENSOR;
  m->opt.density = 0;  /* fluid forces are passive forces too */
  m->opt.viscosity = 0;
  if (o->timestep > 0) m->opt.timestep = o->timestep;

  /* a bound on the work a model may ask of the compiler: the defaults take 10^3 steps per
   * actuator and direction, 10^6 is minutes for a large model */
  if (!(o->inttotal / m->opt.timestep <= 1e6)) {
    m->opt = saved;
    return gs_compileFail(c, NULL, "lengthrange",
                          "inttotal / timestep = %g steps per actuator, more than 10^6",
                          o->inttotal / (o->timestep > 0 ? o->timestep : saved.timestep));
  }

  gsData* d = gs_makeData(m);
  gsReal* buf = malloc(sizeof(gsReal) * 2 * (size_t)m->nv);
  int ok = 1;
  if (!d || !buf) ok = gs_compileFail(c, NULL, "model", "out of memory");
  for (int i = 0; ok && i < m->nu; i++) {
    gsReal* range = m->actuator_lengthrange + 2 * i;
    if (!selected(m, i, o->mode)) continue;
    if (o->useexisting && range[0] < range[1]) continue;
    if (o->uselimit && copy_limit(m, i, range)) continue;
    const gsSpecInfo* info = &c->spec->actuator[i]->info;
    gsLengthRun run[2];
    for (int side = 0; ok && side < 2; side++) {
      gsLengthRun* r = run + side;
      r->id = i;
      r->sign = side == 0 ? -1 : 1;
      r->accel = o->accel;
      r->maxforce = o->maxforce;
      r->failed = 0;
      r->moment = buf;
      r->x = buf + m->nv;
      if (!simulate(m, d, r, o))
        ok = gs_compileFail(c, info, "actuator",
                            r->failed ? "out of scratch memory in the length range computation"
                                      : "the length range computation recorded no length "
                                        "(<lengthrange interval> exceeds inttotal/timestep)");
    }
    if (!ok) break;
    gsReal lo = run[0].lo, hi = run[1].hi;
    if (!(lo < hi)) {
      ok = gs_compileFail(c, info, "actuator",
                          "invalid length range (%g, %g) computed: the actuator's length does "
                          "not change under its force (a body transmission has none)", lo, hi);
      break;
    }
    for (int side = 0; side < 2; side++) {
      gsReal spread = run[side].hi - run[side].lo;
      if (!(spread <= o->tolrange * (hi - lo))) {
        ok = gs_compileFail(
            c, info, "actuator",
            "the length range computation did not converge: pushed to its %s length, the length "
            "still spanned (%g, %g) over the last %g s, more than tolrange %g of the range "
            "(%g, %g); add joint or tendon limits, or adjust <compiler><lengthrange> (inttotal, "
            "timeconst, accel), or give lengthrange",
            side == 0 ? "shortest" : "longest", run[side].lo, run[side].hi, o->interval,
            o->tolrange, lo, hi);
        break;
      }
    }
    if (!ok) break;
    range[0] = lo;
    range[1] = hi;
  }
  free(buf);
  gs_freeData(d);
  m->opt = saved;
  return ok;
}
