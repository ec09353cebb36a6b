/* Internal interfaces between the dynamics stages and the pipeline. */
#ifndef GAUSS_DYNAMICS_H
#define GAUSS_DYNAMICS_H

#include <stdint.h>
#include <string.h>

#include "gauss/gauss.h"

/* whether v[0 .. n) are all zero, of either sign (as v[k] == 0 for each, NaN not zero): their
 * bits but the signs all clear. One test for the lot instead of a comparison and two branches
 * per value, for values read every step that are mostly zero (offsets of joints, applied
 * forces, gravity compensation) */
static inline int gs_allZero(const gsReal* v, int n) {
  _Static_assert(sizeof(gsReal) == sizeof(uint64_t), "gsReal is a double");
  uint64_t any = 0;
  for (int k = 0; k < n; k++) {
    uint64_t u;
    memcpy(&u, v + k, sizeof u);
    any |= u;
  }
  return (any << 1) == 0;
}

/* number of stored elements of row i of M: the diagonal and one per ancestor dof */
static inline int gs_rowLen(const gsModel* m, int i) {
  return (i + 1 < m->nv ? m->dof_Madr[i + 1] : m->nM) - m->dof_Madr[i];
}

/* dof_freetail of dof i, from the tree's storage: the root of i's tree is the column of the last
 * entry of row i; when it is a free joint's first dof r and i is past r + 5, row i ends with the
 * entries of r + 5, r + 4, ..., r (the compiler writes it, the binary check compares) */
static inline int gs_freeTailOf(const gsModel* m, int i) {
  int r = m->M_dofid[m->dof_Madr[i] + gs_rowLen(m, i) - 1];
  return m->jnt_type[m->dof_jntid[r]] == GS_JNT_FREE && i > r + 5 ? r : -1;
}

/* H += scale * sum over tendons of coef[t] J_t^T J_t (J_t row t of ten_J, ntendon x nv), kept to
 * the tree pattern of qM's storage: the entries of two dofs on different branches are dropped, as
 * MJCF drops them (tendon armature in M, tendon damping in the implicit integrators) */
void gs_addTendonTree(const gsModel* m, const gsReal* ten_J, const gsReal* coef, gsReal scale,
                      gsReal* H);

/* qfrc += the velocity-product force of the tendons' armature: J^T a (dJ/dt qvel) per tendon (a
 * fixed tendon's J is constant; spatial tendons of sites and pulleys), after gs_tendon and
 * gs_comVel */
void gs_tendonArmatureBias(const gsModel* m, gsData* d, gsReal* qfrc);

/* the passive forces' gravity compensation of the joints routed to the actuators
 * (actuatorgravcomp): qfrc_actuator += qfrc_gravcomp on their dofs, when there are actuators and
 * actuation is on (MJCF applies it in the actuation stage, before the joints' actuator force
 * ranges); after gs_passive */
void gs_gravcompActuator(const gsModel* m, gsData* d);

/* gs_kinematics with the geom frames left out unless `geoms` (recorded in gsData.deferred:
 * the passes of a step whose geom frames nothing reads before a later pass overwrites them),
 * and the geom frames alone (from the body frames) */
void gs_kinematicsPart(const gsModel* m, gsData* d, int geoms);
void gs_geomFrames(const gsModel* m, gsData* d);

/* LTDL factorisation (H = L^T D L) in the tree-sparse storage of qM, in place; diaginv = 1/D.
 * Returns the index of the first non-positive pivot, or -1 when M is positive definite. */
int gs_factorLTDL(const gsModel* m, gsReal* LD, gsReal* diaginv);
/* the same on the listed dofs alone: whole trees, in increasing order */
int gs_factorLTDLDofs(const gsModel* m, gsReal* LD, gsReal* diaginv, const int* dofs, int ndof);
/* x <- H^-1 x for n right-hand sides of length nv, with a factor from gs_factorLTDL */
void gs_solveLTDL(const gsModel* m, const gsReal* LD, const gsReal* diaginv, gsReal* x, int n);
/* the same for one right-hand side whose non-zeros, and so the solution's, lie in the dofs
 * [first, end) of whole kinematic trees (a tree's dofs are contiguous): the cost of those trees
 * alone, and the same numbers as the full solve */
void gs_solveLTDLRange(const gsModel* m, const gsReal* LD, const gsReal* diaginv, gsReal* x,
                       int first, int end);

/* x <- L^-1 S x with M's factor (M = L^T D L) and S = diag(scale): the second half of gs_solveM
 * (whose S is D^-1) on its own, for a right-hand side already through L^-T (the dual's Y f) */
void gs_solveLowerScaled(const gsModel* m, const gsData* d, gsReal* x, const gsReal* scale);

/* LU of a non-symmetric matrix with the tree pattern of M: R rows (diagonal, then ancestors), C
 * mirrored columns, both in qM's storage; in place. Returns the first zero pivot or -1. */
int gs_factorTreeLU(const gsModel* m, gsReal* R, gsReal* C);
void gs_solveTreeLU(const gsModel* m, const gsReal* R, const gsReal* C, gsReal* x);

/* cvel and cdof_dot for an arbitrary velocity vector (scratch callers) */
void gs_comVelOf(const gsModel* m, const gsReal* qvel, gsReal* cvel, gsReal* cdof_dot, const gsReal* cdof);
/* gs_comVelOf's step for body b alone, from its parent's velocity pv: cvel of b, cdof_dot of its
 * dofs (the same operations) */
void gs_comVelBody(const gsModel* m, const gsReal* qvel, gsReal* cvel, gsReal* cdof_dot,
                   const gsReal* cdof, const gsReal* pv, int b);

/* cfrc = I cacc + cvel x* (I cvel) (- ext when ext is given) for bodies 1 .. nbody - 1, each
 * body's 6-vector from its own 10-value inertia (rne.c) */
void gs_bodyForces(const gsModel* m, const gsReal* cinert, const gsReal* cacc, const gsReal* cvel,
                   const gsReal* ext, gsReal* cfrc);
/* gs_rneOf's acceleration of body b without joint accelerations (the bias), from its parent's
 * pa: cacc of b (the same operations) */
void gs_rneBiasAccBody(const gsModel* m, const gsReal* cdof_dot, const gsReal* qvel,
                       const gsReal* pa, gsReal* cacc, int b);
/* gs_bodyForces for body b alone, without ext (the same values) */
void gs_bodyForce(const gsReal* cinert, const gsReal* cacc, const gsReal* cvel, gsReal* cfrc, int b);

/* recursive Newton-Euler with explicit inputs: result = (M - armature) qacc + c(q, v) (+ gravity
 * when with_gravity): the bodies' inertia only, as MJCF's RNE, since armature belongs to the
 * motors, not the bodies; qacc may be NULL; needs 12*nbody reals of scratch */
void gs_rneOf(const gsModel* m, const gsData* d, const gsReal* cvel, const gsReal* cdof_dot,
              const gsReal* qvel, const gsReal* qacc, int with_gravity, gsReal* scratch, gsReal* result);

/* the non-zeros of gs_jac's rows (3 x nv each, row-major): only the entries of the dofs that move
 * body, the rest left as they are (gs_jac zeroes them first) */
void gs_jacChain(const gsModel* m, const gsData* d, gsReal* jacp, gsReal* jacr,
                 const gsReal point[3], int body);

/* add J(point on body)^T [force; torque] to qfrc */
void gs_applyFT(const gsModel* m, const gsData* d, const gsReal force[3], const gsReal torque[3],
                const gsReal point[3], int body, gsReal* qfrc);

/* the last dof of the chain that moves body b, or -1 when b is welded to the world */
int gs_bodyLastDof(const gsModel* m, int b);

/* the dofs [lo, hi) outside which tendon t's row of ten_J is always zero: a fixed tendon's
 * joints, a spatial tendon's dofs up to the last one moving a site or wrapping geom (lo = 0),
 * found from its path (the compiler writes them to tendon_dofadr and tendon_dofnum, the binary
 * check compares) */
void gs_tendonSpanOf(const gsModel* m, int t, int* lo, int* hi);
/* 1 when nothing of the dynamics reads the tendons' lengths, Jacobians and velocities: no tendon
 * with a limit, friction loss, spring, damping or armature, none pulled by an actuator or held by
 * an equality (what reads them then is the sensors and the user's code) */
int gs_tendonsUnread(const gsModel* m);

/* the same, as the compiler wrote it: read five times a step, constant for the model */
static inline void gs_tendonSpan(const gsModel* m, int t, int* lo, int* hi) {
  *lo = m->tendon_dofadr[t];
  *hi = *lo + m->tendon_dofnum[t];
}

/* length and moment arm of actuator i with a joint transmission (joint, jointinparent): the
 * moment's values on the joint's dofs from jnt_dofadr (1, 3 or 6 of them: the count returned) */
int gs_jointTransmission(const gsModel* m, const gsData* d, int i, gsReal* length, gsReal* vals);

/* length and moment arm (nv values: d length / d qpos per dof) of actuator i, after gs_tendon;
 * 0 when the arena is full */
int gs_transmission(const gsModel* m, gsData* d, int i, gsReal* length, gsReal* moment);

/* fluid forces (fluid.c) */
/* semi-axes of the ellipsoid standing for a geom of the type and size */
void gs_geomSemiAxes(int type, const gsReal size[3], gsReal r[3]);
/* whether fluid forces act: density or viscosity positive, passive forces not all disabled */
int gs_fluidActive(const gsModel* m);
/* qfrc_fluid: the inertia-box and ellipsoid models (zero when inactive) */
void gs_fluid(const gsModel* m, gsData* d);
/* adds -h d(qfrc_fluid)/d(qvel) to a matrix in qM's tree pattern: R rows (diagonal, then
 * ancestors), C the mirrored columns (the implicit integrator's LU), or C NULL for the symmetric
 * form of implicitfast; 0 when the arena is full */
int gs_fluidDerivative(const gsModel* m, gsData* d, gsReal h, gsReal* R, gsReal* C);

/* ---- actuation.c ---- */


/* length and moment arm of actuator i with a joint transmission (joint, jointinparent): the
 * moment's values on the joint's dofs from jnt_dofadr (1, 3 or 6 of them: the count returned) */
int gs_jointTransmission(const gsModel* m, const gsData* d, int i, gsReal* length, gsReal* vals);

/* length and moment arm (nv values) of actuator i, every transmission (adhesion after the
 * contacts); 0 when the arena is full */
int gs_actuatorMoment(const gsModel* m, gsData* d, int i, gsReal* length, gsReal* moment);
/* actuator_length and the sparse actuator moments of all actuators (position stage) */
void gs_transmissionAll(const gsModel* m, gsData* d);
/* ten_velocity = ten_J qvel (unless tendons is 0) and actuator_velocity = moment qvel (velocity
 * stage) */
void gs_transmissionVelocity(const gsModel* m, gsData* d, int tendons);
/* act_dot, actuator_force and qfrc_actuator from ctrl and act (force stage) */
void gs_actuation(const gsModel* m, gsData* d);
/* 1 when qfrc_actuator depends on the controls alone, not on the state or time: every actuator
 * without dynamics, of fixed gain and no bias, on a hinge or slide (its moment the gear), its
 * control finite; no gravity compensation through the actuators. The callbacks are the caller's
 * to check (a control callback may change the controls between passes) */
int gs_actuationConstant(const gsModel* m, const gsData* d);
/* 1 when actuator i's group is disabled (option actuatorgroupdisable) */
int gs_actuatorDisabled(const gsModel* m, int i);
/* activation of actuator i after a step h with rate act_dot: exact for filterexact, clamped to
 * actrange when actlimited */
gsReal gs_nextActivation(const gsModel* m, int i, gsReal act, gsReal act_dot, gsReal h);
/* act <- the next activations of the enabled actuators (nothing with actuation disabled) */
void gs_advanceActivation(const gsModel* m, gsData* d, const gsReal* act_dot, gsReal h);
/* d actuator_force[i] / d actuator_velocity from affine gains and biases, in *dfdv; 0 when
 * there is none */
int gs_actuatorVelocityGain(const gsModel* m, const gsData* d, int i, gsReal* dfdv);
/* MJCF's muscle curves: active force-length, force-velocity, passive force-length, and the
 * activation rate */
gsReal gs_muscleFL(gsReal L, gsReal lmin, gsReal lmax);
gsReal gs_muscleFV(gsReal V, gsReal fvmax);
gsReal gs_muscleFP(gsReal L, gsReal lmax, gsReal fpmax);
gsReal gs_muscleDynamics(gsReal ctrl, gsReal act, const gsReal* prm);

#endif
