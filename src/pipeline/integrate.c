/* Integrators: semi-implicit Euler (with implicit joint damping, seed 000 §II-B), implicit and
 * implicit-fast Euler (joint and tendon damping implicit), and classic 4th-order Runge-Kutta;
 * and the step functions. */
#include <string.h>

#include "core/arena.h"
#include "core/math.h"
#include "core/timer.h"
#include "dynamics/dynamics.h"
#include "pipeline/pipeline.h"

void gs_integratePos(const gsModel* m, gsReal* qpos, const gsReal* qvel, gsReal h) {
  for (int j = 0; j < m->njnt; j++) {
    gsReal* q = qpos + m->jnt_qposadr[j];
    const gsReal* v = qvel + m->jnt_dofadr[j];
    switch (m->jnt_type[j]) {
      case GS_JNT_FREE:
        gs_addScl3(q, q, v, h);
        q += 3;
        v += 3;
        /* fall through */
      case GS_JNT_BALL:
        gs_quatIntegrate(q, v, h);  /* angular velocity in the body frame */
        break;
      default:
        q[0] += h * v[0];
        break;
    }
  }
}

/* the inverse of gs_integratePos: qvel moves qpos1 to qpos2 in time dt. Quaternions (normalised
 * copies) by the log map of q1^-1 q2 along the shorter arc, which is gs_integratePos's body-frame
 * angular velocity; the other coordinates by their difference. */
void gs_differentiatePos(const gsModel* m, gsReal* qvel, gsReal dt, const gsReal* qpos1,
                         const gsReal* qpos2) {
  gsReal inv = 1 / dt;
  for (int j = 0; j < m->njnt; j++) {
    int pa = m->jnt_qposadr[j];
    const gsReal* q1 = qpos1 + pa;
    const gsReal* q2 = qpos2 + pa;
    gsReal* v = qvel + m->jnt_dofadr[j];
    switch (m->jnt_type[j]) {
      case GS_JNT_FREE:
        for (int i = 0; i < 3; i++) v[i] = (q2[i] - q1[i]) * inv;
        q1 += 3;
        q2 += 3;
        v += 3;
        /* fall through */
      case GS_JNT_BALL: {
        gsReal a[4] = {q1[0], q1[1], q1[2], q1[3]}, b[4] = {q2[0], q2[1], q2[2], q2[3]};
        gs_normalize4(a);
        gs_normalize4(b);
        gs_subQuat(v, b, a);
        gs_scl3(v, v, inv);
        break;
      }
      default:
        v[0] = (q2[0] - q1[0]) * inv;
        break;
    }
  }
}

void gs_normalizeQuat(const gsModel* m, gsReal* qpos) {
  for (int j = 0; j < m->njnt; j++) {
    int t = m->jnt_type[j];
    if (t == GS_JNT_FREE) gs_normalize4(qpos + m->jnt_qposadr[j] + 3);
    else if (t == GS_JNT_BALL) gs_normalize4(qpos + m->jnt_qposadr[j]);
  }
}

/* act moves with act_dot (filterexact exactly, clamped to actrange), qvel += h qacc; qpos moves
 * with qvel_pos (NULL: the new qvel, which makes Euler semi-implicit) */
static void advance(const gsModel* m, gsData* d, const gsReal* act_dot, const gsReal* qacc,
                    const gsReal* qvel_pos) {
  gsReal h = m->opt.timestep;
  if (m->na) gs_advanceActivation(m, d, act_dot, h);
  for (int i = 0; i < m->nv; i++) d->qvel[i] += h * qacc[i];
  gs_integratePos(m, d->qpos, qvel_pos ? qvel_pos : d->qvel, h);
  d->time += h;
}

/* Euler: damping forces integrated implicitly, (M + hB) qacc' = M qacc, taken as
 * qacc' = qacc - (M + hB)^-1 hB qacc: no product with M (B is diagonal), and the rounding falls
 * on the small correction rather than on all of qacc. With `kept` (steps that share the position
 * stage), the factor of M + hB is taken from it once made there. */
static void euler(const gsModel* m, gsData* d, gsStepKeep* kept) {
  size_t mark = gs_arenaMark(d);
  int nv = m->nv;
  if (kept && kept->state < 0) {
    advance(m, d, d->act_dot, d->qacc, NULL);  /* known to have no implicit damping */
    return;
  }
  int reuse = kept && kept->state == 1;
  gsReal* H = kept ? kept->H : gs_arenaAlloc(d, sizeof(gsReal) * (size_t)m->nM);
  gsReal* Hinv = kept ? kept->Hinv : gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nv);
  gsReal* acc = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nv);
  int has = reuse || (H && Hinv && acc && gs_stepMatrix(m, d, GS_INT_EULER, H, NULL) == 1);
  if (kept && !reuse && acc) kept->state = has ? 1 : -1;
  if (has && acc) {
    if (!reuse) gs_factorLTDL(m, H, Hinv);
    /* has: the damper flag is on (gs_stepMatrix added hB to M) */
    gsReal h = m->opt.timestep;
    for (int i = 0; i < nv; i++) acc[i] = h * m->dof_damping[i] * d->qacc[i];
    gs_solveLTDL(m, H, Hinv, acc, 1);
    for (int i = 0; i < nv; i++) acc[i] = d->qacc[i] - acc[i];
    advance(m, d, d->act_dot, acc, NULL);
  } else {
    /* no implicit damping (or no room for it) */
    advance(m, d, d->act_dot, d->qacc, NULL);
  }
  gs_arenaRelease(d, mark);
}

/* implicit in velocity: (M - h dF/dv) qacc' = qfrc_smooth + qfrc_constraint, with F the smooth
 * force; implicitfast keeps only the damping part of dF/dv (symmetric, LTDL), implicit also the
 * velocity derivative of the bias force (non-symmetric, tree LU) */
static void implicit(const gsModel* m, gsData* d, int full) {
  int nv = m->nv;
  size_t mark = gs_arenaMark(d);
  gsReal* rhs = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nv);
  gsReal* R = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)m->nM);
  gsReal* C = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)m->nM);
  if (!rhs || !R || !C) goto fallback;
  for (int i = 0; i < nv; i++) rhs[i] = d->qfrc_smooth[i] + d->qfrc_constraint[i];
  if (gs_stepMatrix(m, d, m->opt.integrator, R, C) < 0) goto fallback;
  if (!full) {
    gs_factorLTDL(m, R, C);  /* C holds 1/D here */
    gs_solveLTDL(m, R, C, rhs, 1);
  } else {
    gs_factorTreeLU(m, R, C);
    gs_solveTreeLU(m, R, C, rhs);
  }
  advance(m, d, d->act_dot, rhs, NULL);
  gs_arenaRelease(d, mark);
  return;
fallback:
  gs_arenaRelease(d, mark);
  advance(m, d, d->act_dot, d->qacc, NULL);
}

/* Rotations of ball and free joints live on SO(3): a stage at q0 exp(theta) moves with
 * d(theta)/dt = dexp^-1(theta, w) = w + 1/2 theta x w + 1/12 theta x (theta x w) + O(|theta|^3 |w|),
 * not with w itself. Runge-Kutta-Munthe-Kaas: combining these stage derivatives keeps RK4 fourth
 * order for orientations; combining the raw body angular velocities is only second order (the
 * direction of the angular momentum of a tumbling body then drifts as h^2). */
static void dexpinv_rotations(const gsModel* m, gsReal* k, const gsReal* theta_rate, gsReal scale) {
  for (int j = 0; j < m->njnt; j++) {
    int t = m->jnt_type[j];
    if (t != GS_JNT_BALL && t != GS_JNT_FREE) continue;
    int adr = m->jnt_dofadr[j] + (t == GS_JNT_FREE ? 3 : 0);
    gsReal theta[3], c1[3], c2[3];
    gs_scl3(theta, theta_rate + adr, scale);
    gs_cross(c1, theta, k + adr);
    gs_cross(c2, theta, c1);
    for (int i = 0; i < 3; i++) k[adr + i] += 0.5 * c1[i] + c2[i] / 12;
  }
}

/* whether a callback is set that runs inside a forward pass (and may read the data there) */
static int callbacks_set(const gsData* d) {
  const gsCallbacks* cb = &d->cb;
  return cb->control || cb->act_dyn || cb->act_gain || cb->act_bias || cb->contactfilter;
}

/* whether a force evaluation may leave the geom frames out (GS_PASS_NOGEOM) because nothing reads
 * them before a later evaluation of the same step computes them: no collision (contacts off), no
 * fluid forces on geom ellipsoids, no tendon wrapping around geoms, and no user callback of the
 * pass that might read them; the sensors (the first evaluation only) are the caller's to check */
static int geoms_unread(const gsModel* m, const gsData* d) {
  if (!(m->opt.disableflags & (GS_DSBL_CONTACT | GS_DSBL_CONSTRAINT))) return 0;
  if (callbacks_set(d)) return 0;
  if (gs_fluidActive(m))
    for (int g = 0; g < m->ngeom; g++)
      if (m->geom_fluid[GS_NFLUID * g] != 0) return 0;
  for (int w = 0; w < m->nwrap; w++)
    if (m->wrap_type[w] == GS_WRAP_SPHERE || m->wrap_type[w] == GS_WRAP_CYLINDER) return 0;
  return 1;
}

/* classic RK4 on (qpos, qvel, act): stages at t, t + h/2, t + h/2, t + h; positions move along the
 * weighted stage derivatives in the tangent space (quaternions by the exponential map, with the
 * dexp correction above) */
static void rk4(const gsModel* m, gsData* d, int pass) {
  static const gsReal A[3] = {0.5, 0.5, 1};            /* the tableau is diagonal below */
  static const gsReal B[4] = {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6};
  int nq = m->nq, nv = m->nv, na = m->na;
  gsReal h = m->opt.timestep, t0 = d->time;
  size_t mark = gs_arenaMark(d);
  gsReal* qpos0 = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nq);
  gsReal* qvel0 = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nv);
  gsReal* Fv = gs_arenaAlloc(d, sizeof(gsReal) * 4 * (size_t)nv);  /* stage velocities */
  gsReal* Fa = gs_arenaAlloc(d, sizeof(gsReal) * 4 * (size_t)nv);  /* stage accelerations */
  gsReal* dv = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nv);
  gsReal* da = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nv);
  /* activations: the state, the stage rates act_dot and their combination */
  gsReal* act0 = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)(na ? na : 1));
  gsReal* Fx = gs_arenaAlloc(d, sizeof(gsReal) * 4 * (size_t)(na ? na : 1));
  gsReal* dx = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)(na ? na : 1));
  if (!qpos0 || !qvel0 || !Fv || !Fa || !dv || !da || !act0 || !Fx || !dx) {
    gs_arenaRelease(d, mark);
    gs_completePosition(m, d);  /* the islands the first evaluation left to the last */
    if (pass & GS_PASS_NOTENDON) {  /* and its tendons */
      gs_tendon(m, d);
      gs_transmissionVelocity(m, d, 1);
    }
    euler(m, d, NULL);
    return;
  }
  memcpy(qpos0, d->qpos, sizeof(gsReal) * (size_t)nq);
  memcpy(qvel0, d->qvel, sizeof(gsReal) * (size_t)nv);
  memcpy(Fv, d->qvel, sizeof(gsReal) * (size_t)nv);
  memcpy(Fa, d->qacc, sizeof(gsReal) * (size_t)nv);
  gs_copy(act0, d->act, na);
  gs_copy(Fx, d->act_dot, na);
  int nogeom = geoms_unread(m, d) ? GS_PASS_NOGEOM : 0;
  /* the second and third evaluations' constraint outputs past qacc, unless a callback may read
   * them before the last evaluation overwrites them */
  int rates = callbacks_set(d) ? 0 : GS_PASS_RATES;
  /* and their tendons where nothing but sensors reads them, and the actuators' forces where the
   * controls alone make them: the first evaluation's, from the same controls */
  int later = 0;
  if (rates) {
    if (m->ntendon && gs_tendonsUnread(m)) later |= GS_PASS_NOTENDON;
    if (m->nu && gs_actuationConstant(m, d)) later |= GS_PASS_KEEPACT;
  }
  pass &= ~GS_PASS_NOTENDON;
  for (int s = 1; s < 4; s++) {
    const gsReal* pv = Fv + (size_t)(s - 1) * nv;
    const gsReal* pa = Fa + (size_t)(s - 1) * nv;
    const gsReal* px = Fx + (size_t)(s - 1) * na;
    memcpy(d->qpos, qpos0, sizeof(gsReal) * (size_t)nq);
    gs_integratePos(m, d->qpos, pv, A[s - 1] * h);
    for (int i = 0; i < nv; i++) d->qvel[i] = qvel0[i] + A[s - 1] * h * pa[i];
    for (int i = 0; i < na; i++) d->act[i] = act0[i] + A[s - 1] * h * px[i];
    d->time = t0 + A[s - 1] * h;
    /* the last evaluation's islands are the step's; PGS reads none */
    int last = s == 3 || m->opt.solver != GS_SOL_PGS;
    /* and the last evaluation's geom frames are the step's */
    gs_forwardPass(m, d, GS_STAGE_NONE, 1, NULL,
                   pass | (last ? 0 : GS_PASS_NOISLAND) | (s == 3 ? 0 : nogeom | rates | later));
    memcpy(Fv + (size_t)s * nv, d->qvel, sizeof(gsReal) * (size_t)nv);
    dexpinv_rotations(m, Fv + (size_t)s * nv, pv, A[s - 1] * h);
    memcpy(Fa + (size_t)s * nv, d->qacc, sizeof(gsReal) * (size_t)nv);
    gs_copy(Fx + (size_t)s * na, d->act_dot, na);
  }
  for (int i = 0; i < na; i++) {
    dx[i] = 0;
    for (int s = 0; s < 4; s++) dx[i] += B[s] * Fx[(size_t)s * na + i];
  }
  for (int i = 0; i < nv; i++) {
    dv[i] = da[i] = 0;
    for (int s = 0; s < 4; s++) {
      dv[i] += B[s] * Fv[(size_t)s * nv + i];
      da[i] += B[s] * Fa[(size_t)s * nv + i];
    }
  }
  memcpy(d->qpos, qpos0, sizeof(gsReal) * (size_t)nq);
  memcpy(d->qvel, qvel0, sizeof(gsReal) * (size_t)nv);
  gs_copy(d->act, act0, na);
  d->time = t0;
  advance(m, d, dx, da, dv);
  gs_arenaRelease(d, mark);
}

/* pass: what RK4's force evaluations may leave out (GS_PASS_CHECKED), and GS_PASS_NOTENDON
 * where the step's first evaluation left the tendons out (RK4's fallback to Euler computes them) */
static void integrate(const gsModel* m, gsData* d, int allow_rk4, gsStepKeep* kept, int pass) {
  /* the constraint solver of the next step starts from this step's acceleration: with RK4 the
   * last evaluation's, and all four evaluations start from the warm start the step was given
   * (as MJCF's RK4 does: after the step qacc_warmstart is the final qacc, and the evaluations
   * leave it alone; the Gymnasium humanoid's qacc after one step from the same state, against
   * MuJoCo: 1.1e-5 apart when the later evaluations started from the first one's, 3.8e-8 now) */
  int rk4_step = m->opt.integrator == GS_INT_RK4 && allow_rk4;
  if (!rk4_step) gs_copy(d->qacc_warmstart, d->qacc, m->nv);
  switch (m->opt.integrator) {
    case GS_INT_RK4:
      if (rk4_step) {
        rk4(m, d, pass);
        gs_copy(d->qacc_warmstart, d->qacc, m->nv);
      } else {
        euler(m, d, NULL);  /* step2 has one force evaluation: RK4 falls back to Euler */
      }
      break;
    case GS_INT_IMPLICIT: implicit(m, d, 1); break;
    case GS_INT_IMPLICITFAST: implicit(m, d, 0); break;
    default: euler(m, d, kept); break;
  }
}

void gs_stepSkip(const gsModel* m, gsData* d, int skipstage, int skipsensor, gsStepKeep* kept) {
  double t = gs_timerStart(d);
  gs_checkPos(m, d);
  gs_checkVel(m, d);
  /* the contact parameters matter where contacts are made: in the position stage; checked
   * here, once for the step's passes (a bad one is counted by each position stage) */
  int pass = 0;
  if (skipstage < GS_STAGE_POS && !gs_checkContact(m, d)) pass = GS_PASS_CHECKED;
  /* RK4's first evaluation: its islands are overwritten by the later ones (PGS reads none) */
  int noisland = m->opt.integrator == GS_INT_RK4 && m->opt.solver == GS_SOL_PGS;
  /* and its geom frames, where neither the sensors nor anything else reads them */
  int nogeom = m->opt.integrator == GS_INT_RK4 && (skipsensor || m->nsensor == 0) &&
               geoms_unread(m, d);
  /* and its constraint outputs past qacc where no sensor, callback or comparison with the
   * inverse reads them (the last evaluation's are the step's) */
  int rates = m->opt.integrator == GS_INT_RK4 && (skipsensor || m->nsensor == 0) &&
              !(m->opt.enableflags & GS_ENBL_FWDINV) && !callbacks_set(d);
  /* and its tendons where nothing but the sensors reads them */
  int notendon = rates && m->ntendon && gs_tendonsUnread(m);
  gs_forwardPass(m, d, skipstage, skipsensor, kept ? kept->dual : NULL,
                 pass | (noisland ? GS_PASS_NOISLAND : 0) | (nogeom ? GS_PASS_NOGEOM : 0) |
                     (rates ? GS_PASS_RATES : 0) | (notendon ? GS_PASS_NOTENDON : 0));
  /* a reset (bad qacc) recomputed the position stage at another state */
  if (gs_checkAcc(m, d) && kept) {
    kept->state = 0;
    kept = NULL;
  }
  if (m->opt.enableflags & GS_ENBL_FWDINV) gs_compareFwdInv(m, d);  /* as MJCF's step: before integrating */
  integrate(m, d, 1, kept, pass | (notendon ? GS_PASS_NOTENDON : 0));
  gs_timerStop(d, GS_TIMER_STEP, t);
}

void gs_step(const gsModel* m, gsData* d) { gs_stepSkip(m, d, GS_STAGE_NONE, 0, NULL); }

void gs_step1(const gsModel* m, gsData* d) {
  gs_checkPos(m, d);
  gs_checkVel(m, d);
  gs_checkContact(m, d);
  gs_fwdPosition(m, d);
  gs_sensorPos(m, d);
  gs_fwdVelocity(m, d);
  gs_sensorVel(m, d);
}

void gs_step2(const gsModel* m, gsData* d) {
  gs_completePosition(m, d);  /* after an inverse pass instead of step1 */
  if (d->cb.control) d->cb.control(m, d, d->cb.user);
  gs_fwdActuation(m, d);
  gs_fwdAcceleration(m, d);
  gs_fwdConstraint(m, d);
  gs_sensorAcc(m, d);
  gs_checkAcc(m, d);
  if (m->opt.enableflags & GS_ENBL_FWDINV) gs_compareFwdInv(m, d);
  integrate(m, d, 0, NULL, 0);
}
