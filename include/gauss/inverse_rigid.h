/* Inverse dynamics under rigid contact (seed 004): the generalized forces of the actuated dofs
 * and the contact forces that produce a desired acceleration, with contacts that neither
 * penetrate nor (no-slip) slide. d->qacc holds the desired acceleration; the accelerations of
 * dofs no actuator drives (a floating base) are outputs. Contacts are those of the collision
 * stage that enter the constraint problem. Dynamics are discretized at the velocity level, as in
 * the seed: v+ = qvel + dt qacc, with the contact conditions on v+. Actuated dofs are those of
 * actuators with joint transmissions; xfrc_applied is not included (qfrc_applied is). A model
 * without unactuated dofs has all its motion prescribed: its contacts get no force. */
#ifndef GAUSS_INVERSE_RIGID_H
#define GAUSS_INVERSE_RIGID_H

#include "export.h"
#include "model.h"
#include "data.h"

typedef enum {
  GS_RIGID_NOSLIP = 0,   /* section 3: the LCP of eqs. 36-39, Algorithm 1's rows, Algorithm 2 */
  GS_RIGID_COULOMB,      /* section 4: the MLCP of eq. 53 (friction pyramid) by Lemke */
  GS_RIGID_QP            /* section 5: Stage I (eqs. 63-73 reduced as in 5.1.2) and Stage II */
} gsRigidMethod;

/* The QP's Stage I objective. ENERGY is the seed's (eq. 63): the kinetic energy of v+ with the
 * actuated velocities prescribed; its optimality conditions make the base's share of each
 * contact velocity, J_U (v_U+ + M_UU^-1 M_UA v_A+), complementary to the force, not the contact's
 * own velocity J v+, so a forward simulation under the same torques gives other forces. CONTACT
 * minimizes 1/2 |G^T f|^2 + b^T f instead, whose optimality conditions are 0 <= beta _|_ (pyramid
 * edge velocities after the step) >= 0: the complementarity-free model of the forward step
 * (Anitescu's, MuJoCo's pyramidal cone) inverted, convex as well. */
typedef enum {
  GS_RIGID_ENERGY = 0,
  GS_RIGID_CONTACT
} gsRigidObjective;

typedef struct {
  int method;        /* gsRigidMethod */
  int friction;      /* QP: 1 bounds friction by each contact's friction[0] (pyramid), 0 unbounded */
  int warmstart;     /* no-slip: start the pivots from warm->nb (when warm is given) */
  int stage2;        /* QP: 1 runs Stage II (minimum-norm torques among Stage I's optima) */
  int skipstage;     /* GS_STAGE_NONE: run the position and velocity stages first; POS, VEL: as
                        gs_forwardSkip, keep the stages already computed */
  gsReal reg;        /* Lemke's first regularisation (0: 1e-10 of the matrix's largest entry) */
  gsReal dt;         /* the step of the velocity-level discretization (0: opt.timestep) */
  int kkt;           /* QP: 1 solves both stages through their KKT LCPs, without the fast paths
                        (least squares over the pyramid's edges, taken when no bound they leave
                        out is violated); for comparisons */
  int mindiff;       /* Coulomb: 1 takes, among all the LCP's solutions, the one nearest the last
                        call's forces in warm (Algorithm 3, by enumeration: at most 2 contacts;
                        with more, or without warm, Lemke's) */
  int objective;     /* QP: gsRigidObjective (Stage I's objective; Stage II keeps its optima) */
  int smooth;        /* QP with warm: Stage II takes, among Stage I's optima, the actuated forces
                        nearest the last call's (warm->tau) rather than the least ones */
  int repair;        /* no-slip: when the normal LCP has no solution (the desired motion asks the
                        contacts to pull), take the forces of the LCP regularised until it has
                        one and, as in section 3.5 (eqs. 40-45), the actuated accelerations
                        nearest the desired ones with which no contact closes and no held
                        contact slides under those forces; status 2 */
  const gsReal* weight; /* QP: NULL, or one weight per contact of d->contact: Stage II adds
                        weight[c] |beta_c|^2 (beta: the contact's forces along its pyramid's
                        edges; in units of the mean squared torque a unit edge force gives) to
                        its objective and runs in those edges, so that among Stage I's optima a
                        weighted contact carries less (a controller ramps a foot's weight to shift
                        its load before it lifts or after it lands); 0 entries add nothing */
} gsRigidOpt;

#define GS_RIGID_MAXWARM 64
typedef struct {
  int nnb;                    /* no-slip: the non-basic set of the last call, as contact ids */
  int nb[GS_RIGID_MAXWARM];
  int ncon;                   /* the last call's contacts (geom pairs) and their forces */
  int geom[2 * GS_RIGID_MAXWARM];
  gsReal force[3 * GS_RIGID_MAXWARM];
  int ntau;                   /* the last call's actuated forces (QP: smooth) */
  gsReal tau[GS_RIGID_MAXWARM];
} gsRigidWarm;

typedef struct {
  int status;        /* 0 solved, 1 solved with regularisation, 2 solved for repaired desired
                        accelerations (opt.repair), -1 not solved (forces zero), -2 no room in
                        the arena */
  int ncon;          /* contacts used */
  int pivots;        /* Lemke pivots or PPM principal pivots, all solves together */
  int fallback;      /* no-slip: PPM handed over to Lemke */
  int ntangent;      /* no-slip: tangent rows kept by Algorithm 1 */
  int nnb;           /* no-slip: contacts with a positive normal force */
  gsReal residual;   /* the LCP's max |min(z, w)| (QP: of its KKT system) */
  gsReal reg;        /* regularisation used */
  gsReal penetration;/* most negative normal velocity v+ over the contacts (0 when none) */
} gsRigidStat;

GS_API void gs_defaultRigidOpt(gsRigidOpt* opt);
/* qfrc (nv): generalized forces, zero on dofs no actuator drives; force (3 per contact of
 * d->contact, normal first, in the contact frame; zero for contacts not used); qacc (nv): the
 * acceleration the forces produce. Any output may be NULL. Scratch from the arena, no heap.
 * Returns stat->status (stat may be NULL). */
GS_API int gs_inverseRigid(const gsModel* m, gsData* d, const gsRigidOpt* opt, gsRigidWarm* warm,
                           gsReal* qfrc, gsReal* force, gsReal* qacc, gsRigidStat* stat);

#endif
