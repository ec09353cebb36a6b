/* Internal: pipeline stages not in the public header. */
#ifndef GAUSS_PIPELINE_H
#define GAUSS_PIPELINE_H

#include "gauss/gauss.h"

/* the position stage without collision: frames, com quantities, tendons, M and its factor */
void gs_fwdPositionSmooth(const gsModel* m, gsData* d);
/* gs_forward, with the sensors left out when skipsensor (the inner stages of RK4) */
void gs_forwardSkipSensor(const gsModel* m, gsData* d, int skipsensor);
void gs_fwdConstraint(const gsModel* m, gsData* d);
/* with `kept`, PGS's dual setup of the same position stage (NULL: none; solver/dual.h) */
struct gsDual;
void gs_fwdConstraintKept(const gsModel* m, gsData* d, const struct gsDual* kept, int pass);
void gs_forwardSkipKept(const gsModel* m, gsData* d, int skipstage, int skipsensor,
                        const struct gsDual* kept);
/* what a forward pass inside a step may leave out: the islands, where a later pass of the same
 * step overwrites them before anything reads them (RK4's first three force evaluations with PGS,
 * which solves without them; deferred as the inverse defers them), the geom frames likewise
 * (RK4's first three evaluations where nothing reads them: gs_geomsUnread), and the check of the
 * contact parameters, made once at the step's start (gs_checkContact); and with GS_PASS_RATES,
 * what RK4's first three evaluations compute past the rates they are for (qacc, act_dot) where
 * no sensor, callback or comparison reads the data before the last evaluation overwrites it:
 * the constraint force in joint space (qfrc_constraint) and the rows' states, when PGS finds
 * qacc without them. GS_PASS_KEEPACT: the actuators' transmissions, velocities and forces left
 * as an earlier pass of the step made them, where qfrc_actuator depends on the controls alone
 * (gs_actuationConstant; RK4's second and third evaluations); GS_PASS_NOTENDON: the tendons'
 * lengths, Jacobians and velocities left out where nothing of the pass reads them
 * (gs_tendonsUnread, and no sensor or callback: RK4's first three evaluations) */
enum {
  GS_PASS_NOISLAND = 1,
  GS_PASS_CHECKED = 2,
  GS_PASS_NOGEOM = 4,
  GS_PASS_RATES = 8,
  GS_PASS_KEEPACT = 16,
  GS_PASS_NOTENDON = 32
};
void gs_forwardPass(const gsModel* m, gsData* d, int skipstage, int skipsensor,
                    const struct gsDual* kept, int pass);
/* what steps of the same position stage share: Euler's factored M + hB (H: nM values, Hinv: nv;
 * state 0 not made yet, 1 made, -1 the model has no implicit damping) and PGS's dual setup (dual:
 * NULL none) */
typedef struct {
  gsReal* H;
  gsReal* Hinv;
  int state;
  const struct gsDual* dual;
} gsStepKeep;

/* gs_step with gs_forwardSkip's skipstage and skipsensor: the finite differences of a step whose
 * position (or position and velocity) inputs did not change; `kept` (NULL: none) carries Euler's
 * factor between steps of the same position stage. gs_step is gs_stepSkip(NONE, 0, NULL) */
void gs_stepSkip(const gsModel* m, gsData* d, int skipstage, int skipsensor, gsStepKeep* kept);

/* the inverse's position stage: gs_fwdPosition without the factor of M and the islands (recorded
 * in gsData.deferred); gs_completePosition computes what was deferred */
void gs_fwdPositionInverse(const gsModel* m, gsData* d);
void gs_completePosition(const gsModel* m, gsData* d);

/* the arena reals one gs_inverseRigid call takes at most, for nv dofs and ncon contacts
 * (inverse_rigid.c; src/model/capacity.c adds it) */
size_t gs_inverseRigidReals(int nv, int ncon);

/* the velocity-update matrix H of `integrator` in qM's tree storage (step_matrix.c): 0 none (H =
 * M: Euler without implicit damping, RK4), 1 symmetric in R, 2 R lower and C upper (implicit), -1
 * no room in the arena (what it allocated stays on the arena: the caller's mark releases it); R
 * and C hold nM values each */
int gs_stepMatrix(const gsModel* m, gsData* d, int integrator, gsReal* R, gsReal* C);

/* fwdinv flag: the inverse of the forward's qacc, the differences in solver_fwdinv (inverse_pass.c) */
void gs_compareFwdInv(const gsModel* m, gsData* d);

/* 1 when a bad value was found (and the data reset) */
int gs_checkPos(const gsModel* m, gsData* d);
int gs_checkVel(const gsModel* m, gsData* d);
int gs_checkAcc(const gsModel* m, gsData* d);
/* non-finite contact parameters in the model: the data reset (the position stage counts it) */
int gs_checkContact(const gsModel* m, gsData* d);

#endif
