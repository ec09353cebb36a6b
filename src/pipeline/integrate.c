/* Integrators: semi-implicit Euler (with implicit joint damping, seed 000 §II-B), implicit and
 * implicit-fast Euler (joint and tendon damping implicit), and classic 4th-order Runge-Kutta;
 * and the step functions. */
#include <string.h>

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

/* number of ancestor dofs: the stored length of the dof's row of M, less the diagonal */
static int dof_depth(const gsModel* m, int i) { return gs_rowLen(m, i) - 1; }

/* H = M + h B in qM's storage, B the joint damping (none when the damper flag is off), and with
 * tendons (the implicit integrators) the tendons' damping b J^T J, kept to M's tree pattern as
 * MJCF keeps it; Euler's implicit damping is the joints' alone, as MJCF's */
static void damped_mass(const gsModel* m, const gsData* d, gsReal* H, int tendons) {
  memcpy(H, d->qM, sizeof(gsReal) * (size_t)m->nM);
  if (!(m->opt.disableflags & GS_DSBL_DAMPER)) {
    for (int i = 0; i < m->nv; i++) H[m->dof_Madr[i]] += m->opt.timestep * m->dof_damping[i];
    if (tendons) gs_addTendonTree(m, d->ten_J, m->tendon_damping, m->opt.timestep, H);
  }
}

static int has_damping(const gsModel* m) {
  if (m->opt.disableflags & GS_DSBL_DAMPER) return 0;
  for (int i = 0; i < m->nv; i++)
    if (m->dof_damping[i] > 0) return 1;
  return 0;
}

/* Euler: damping forces integrated implicitly, (M + hB) qacc' = M qacc */
static void euler(const gsModel* m, gsData* d) {
  if ((m->opt.disableflags & GS_DSBL_EULERDAMP) || !has_damping(m)) {
    advance(m, d, d->act_dot, d->qacc, NULL);
    return;
  }
  size_t mark = gs_stackMark(d);
  int nv = m->nv;
  gsReal* H = gs_stackAlloc(d, sizeof(gsReal) * (size_t)m->nM);
  gsReal* Hinv = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nv);
  gsReal* acc = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nv);
  if (H && Hinv && acc) {
    damped_mass(m, d, H, 0);
    gs_factorLTDL(m, H, Hinv);
    gs_mulM(m, d, acc, d->qacc);
    gs_solveLTDL(m, H, Hinv, acc, 1);
    advance(m, d, d->act_dot, acc, NULL);
  } else {
    advance(m, d, d->act_dot, d->qacc, NULL);
  }
  gs_stackRelease(d, mark);
}

/* Subtracts h d(qfrc_actuator)/d(qvel) = h sum_i dforce_i/dvelocity_i moment_i^T moment_i (affine
 * gains and biases in the velocity) from the tree-pattern matrix H, symmetric: products of two
 * dofs neither of which is an ancestor of the other lie outside the pattern and are left out, as
 * MJCF's implicit-fast integrator leaves out what lies outside the pattern of M. MuJoCo's
 * implicit-fast also leaves out the couplings between the dofs of a "simple" body (below), whose
 * part of M is diagonal and stored so: drop_simple does the same. */

/* MuJoCo's simple bodies, found by experiment with its compiler: a leaf child of the world whose
 * inertial frame is its body frame, with joints at the body origin, slides with orthogonal axes,
 * and at most one rotational joint, the last */
static int simple_body(const gsModel* m, int b) {
  if (m->body_parentid[b] != 0 || m->body_sameframe[b] != GS_SAMEFRAME_BODY) return 0;
  if (b + 1 < m->nbody && m->body_parentid[b + 1] == b) return 0;  /* children follow at once */
  int adr = m->body_jntadr[b], n = m->body_jntnum[b];
  for (int k = adr; k < adr + n; k++) {
    const gsReal* p = m->jnt_pos + 3 * k;
    if (p[0] != 0 || p[1] != 0 || p[2] != 0) return 0;
    if (m->jnt_type[k] != GS_JNT_SLIDE) {
      if (k != adr + n - 1) return 0;
      continue;
    }
    for (int l = adr; l < k; l++)
      if (fabs(gs_dot3(m->jnt_axis + 3 * k, m->jnt_axis + 3 * l)) > GS_MINVAL) return 0;
  }
  return 1;
}

static void add_actuator_damping(const gsModel* m, const gsData* d, gsReal* H, gsReal h,
                                 int drop_simple) {
  for (int i = 0; i < m->nu; i++) {
    gsReal g;
    if (!gs_actuatorVelocityGain(m, d, i, &g)) continue;
    int adr = d->moment_rowadr[i], n = d->moment_rownnz[i];
    const int* col = d->moment_colind + adr;
    const gsReal* mom = d->actuator_moment + adr;
    /* columns ascend: for a pair a > b, b is an ancestor of a or outside the pattern */
    for (int p = 0; p < n; p++) {
      int a = col[p], madr = m->dof_Madr[a], b = a, k = 0;
      int simple = drop_simple && simple_body(m, m->dof_bodyid[a]);
      for (int q = p; q >= 0; q--) {
        while (b > col[q]) b = m->dof_parentid[b], k++;
        if (b == col[q] && (k == 0 || !simple)) H[madr + k] -= h * g * mom[p] * mom[q];
        if (b < 0) break;
      }
    }
  }
}

/* Adds h d(qfrc_bias)/d(qvel) to the tree-pattern matrix (R rows, C columns). c(q, v) is a
 * quadratic form in v, so the central difference with a unit step is exact up to rounding:
 * c(v + e_j) - c(v - e_j) = 2 (dc/dv) e_j. Column j is non-zero only at j's ancestors and
 * descendants; the descendants of dof j are the dofs after it that are deeper in the tree. */
static int add_bias_derivative(const gsModel* m, gsData* d, gsReal* R, gsReal* C, gsReal h) {
  int nv = m->nv, nb = m->nbody;
  gsReal* v = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nv);
  gsReal* cp = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nv);
  gsReal* cm = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nv);
  gsReal* cvel = gs_stackAlloc(d, sizeof(gsReal) * 6 * (size_t)nb);
  gsReal* cdd = gs_stackAlloc(d, sizeof(gsReal) * 6 * (size_t)nv);
  gsReal* scratch = gs_stackAlloc(d, sizeof(gsReal) * 12 * (size_t)nb);
  if (!v || !cp || !cm || !cvel || !cdd || !scratch) return 0;
  memcpy(v, d->qvel, sizeof(gsReal) * (size_t)nv);
  for (int j = 0; j < nv; j++) {
    gsReal vj = v[j];
    v[j] = vj + 1;
    gs_comVelOf(m, v, cvel, cdd, d->cdof);
    gs_rneOf(m, d, cvel, cdd, v, NULL, 0, scratch, cp);
    v[j] = vj - 1;
    gs_comVelOf(m, v, cvel, cdd, d->cdof);
    gs_rneOf(m, d, cvel, cdd, v, NULL, 0, scratch, cm);
    v[j] = vj;
    /* column j: diagonal, ancestors (stored in C of j), descendants (stored in R of each) */
    int adr = m->dof_Madr[j], depth = dof_depth(m, j);
    R[adr] += h * 0.5 * (cp[j] - cm[j]);
    int t = 1;
    for (int a = m->dof_parentid[j]; a >= 0; a = m->dof_parentid[a], t++) C[adr + t] += h * 0.5 * (cp[a] - cm[a]);
    for (int i = j + 1; i < nv && dof_depth(m, i) > depth; i++)
      R[m->dof_Madr[i] + dof_depth(m, i) - depth] += h * 0.5 * (cp[i] - cm[i]);
  }
  return 1;
}

/* the matrix H of the velocity update H (qvel' - qvel) / h = force, in qM's tree storage:
 * Euler's M + h B (joint damping; 0 when Euler has none to treat implicitly: H = M), implicitfast's
 * M - h dF/dv with the damping part of dF/dv (symmetric, R), implicit's with the velocity
 * derivative of the bias force too (R lower, C upper); 0 for RK4 (no such matrix) */
int gs_stepMatrix(const gsModel* m, gsData* d, gsReal* R, gsReal* C) {
  gsReal h = m->opt.timestep;
  switch (m->opt.integrator) {
    case GS_INT_IMPLICIT:
    case GS_INT_IMPLICITFAST: {
      int full = m->opt.integrator == GS_INT_IMPLICIT;
      damped_mass(m, d, R, 1);
      add_actuator_damping(m, d, R, h, !full);
      if (!full) {
        /* fluid forces' velocity derivative, symmetric form (dynamics/fluid.c) */
        return gs_fluidDerivative(m, d, h, R, NULL) ? 1 : -1;
      }
      memcpy(C, R, sizeof(gsReal) * (size_t)m->nM);
      if (!add_bias_derivative(m, d, R, C, h)) return -1;
      /* fluid forces' velocity derivative (dynamics/fluid.c) */
      return gs_fluidDerivative(m, d, h, R, C) ? 2 : -1;
    }
    case GS_INT_RK4: return 0;
    default:
      if ((m->opt.disableflags & GS_DSBL_EULERDAMP) || !has_damping(m)) return 0;
      damped_mass(m, d, R, 0);
      return 1;
  }
}

/* implicit in velocity: (M - h dF/dv) qacc' = qfrc_smooth + qfrc_constraint, with F the smooth
 * force; implicitfast keeps only the damping part of dF/dv (symmetric, LTDL), implicit also the
 * velocity derivative of the bias force (non-symmetric, tree LU) */
static void implicit(const gsModel* m, gsData* d, int full) {
  int nv = m->nv;
  size_t mark = gs_stackMark(d);
  gsReal* rhs = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nv);
  gsReal* R = gs_stackAlloc(d, sizeof(gsReal) * (size_t)m->nM);
  gsReal* C = gs_stackAlloc(d, sizeof(gsReal) * (size_t)m->nM);
  if (!rhs || !R || !C) goto fallback;
  for (int i = 0; i < nv; i++) rhs[i] = d->qfrc_smooth[i] + d->qfrc_constraint[i];
  if (gs_stepMatrix(m, d, R, C) < 0) goto fallback;
  if (!full) {
    gs_factorLTDL(m, R, C);  /* C holds 1/D here */
    gs_solveLTDL(m, R, C, rhs, 1);
  } else {
    gs_factorTreeLU(m, R, C);
    gs_solveTreeLU(m, R, C, rhs);
  }
  advance(m, d, d->act_dot, rhs, NULL);
  gs_stackRelease(d, mark);
  return;
fallback:
  gs_stackRelease(d, mark);
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

/* classic RK4 on (qpos, qvel, act): stages at t, t + h/2, t + h/2, t + h; positions move along the
 * weighted stage derivatives in the tangent space (quaternions by the exponential map, with the
 * dexp correction above) */
static void rk4(const gsModel* m, gsData* d) {
  static const gsReal A[3] = {0.5, 0.5, 1};            /* the tableau is diagonal below */
  static const gsReal B[4] = {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6};
  int nq = m->nq, nv = m->nv, na = m->na;
  gsReal h = m->opt.timestep, t0 = d->time;
  size_t mark = gs_stackMark(d);
  gsReal* qpos0 = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nq);
  gsReal* qvel0 = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nv);
  gsReal* Fv = gs_stackAlloc(d, sizeof(gsReal) * 4 * (size_t)nv);  /* stage velocities */
  gsReal* Fa = gs_stackAlloc(d, sizeof(gsReal) * 4 * (size_t)nv);  /* stage accelerations */
  gsReal* dv = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nv);
  gsReal* da = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nv);
  /* activations: the state, the stage rates act_dot and their combination */
  gsReal* act0 = gs_stackAlloc(d, sizeof(gsReal) * (size_t)(na ? na : 1));
  gsReal* Fx = gs_stackAlloc(d, sizeof(gsReal) * 4 * (size_t)(na ? na : 1));
  gsReal* dx = gs_stackAlloc(d, sizeof(gsReal) * (size_t)(na ? na : 1));
  if (!qpos0 || !qvel0 || !Fv || !Fa || !dv || !da || !act0 || !Fx || !dx) {
    gs_stackRelease(d, mark);
    euler(m, d);
    return;
  }
  memcpy(qpos0, d->qpos, sizeof(gsReal) * (size_t)nq);
  memcpy(qvel0, d->qvel, sizeof(gsReal) * (size_t)nv);
  memcpy(Fv, d->qvel, sizeof(gsReal) * (size_t)nv);
  memcpy(Fa, d->qacc, sizeof(gsReal) * (size_t)nv);
  gs_copy(act0, d->act, na);
  gs_copy(Fx, d->act_dot, na);
  for (int s = 1; s < 4; s++) {
    const gsReal* pv = Fv + (size_t)(s - 1) * nv;
    const gsReal* pa = Fa + (size_t)(s - 1) * nv;
    const gsReal* px = Fx + (size_t)(s - 1) * na;
    memcpy(d->qpos, qpos0, sizeof(gsReal) * (size_t)nq);
    gs_integratePos(m, d->qpos, pv, A[s - 1] * h);
    for (int i = 0; i < nv; i++) d->qvel[i] = qvel0[i] + A[s - 1] * h * pa[i];
    for (int i = 0; i < na; i++) d->act[i] = act0[i] + A[s - 1] * h * px[i];
    d->time = t0 + A[s - 1] * h;
    gs_forwardSkipSensor(m, d, 1);
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
  gs_stackRelease(d, mark);
}

static void integrate(const gsModel* m, gsData* d, int allow_rk4) {
  /* the constraint solver of the next step starts from this step's acceleration */
  gs_copy(d->qacc_warmstart, d->qacc, m->nv);
  switch (m->opt.integrator) {
    case GS_INT_RK4:
      if (allow_rk4) rk4(m, d);
      else euler(m, d);  /* step2 has one force evaluation: RK4 falls back to Euler */
      break;
    case GS_INT_IMPLICIT: implicit(m, d, 1); break;
    case GS_INT_IMPLICITFAST: implicit(m, d, 0); break;
    default: euler(m, d); break;
  }
}

void gs_step(const gsModel* m, gsData* d) {
  double t = gs_timerStart(d);
  gs_checkPos(m, d);
  gs_checkVel(m, d);
  gs_checkContact(m, d);
  gs_forward(m, d);
  gs_checkAcc(m, d);
  if (m->opt.enableflags & GS_ENBL_FWDINV) gs_compareFwdInv(m, d);  /* as MJCF's step: before integrating */
  integrate(m, d, 1);
  gs_timerStop(d, GS_TIMER_STEP, t);
}

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
  if (d->cb.control) d->cb.control(m, d, d->cb.user);
  gs_fwdActuation(m, d);
  gs_fwdAcceleration(m, d);
  gs_fwdConstraint(m, d);
  gs_sensorAcc(m, d);
  gs_checkAcc(m, d);
  if (m->opt.enableflags & GS_ENBL_FWDINV) gs_compareFwdInv(m, d);
  integrate(m, d, 0);
}
