/* gsData: everything that changes while simulating. The arrays listed in fields.h, a few scalars,
 * warning counters, and an arena from which every stage takes its scratch memory, so that stepping
 * never touches the heap. */
#ifndef GAUSS_DATA_H
#define GAUSS_DATA_H

#include "model.h"

typedef enum {
  GS_WARN_INERTIA = 0,   /* (near-)singular inertia matrix */
  GS_WARN_CONTACTFULL,   /* too many contacts */
  GS_WARN_CNSTRFULL,     /* too many constraint rows */
  GS_WARN_ARENAFULL,     /* scratch arena exhausted */
  GS_WARN_BADQPOS,       /* NaN, Inf or huge value in qpos: data reset */
  GS_WARN_BADQVEL,       /* ... in qvel: data reset */
  GS_WARN_BADQACC,       /* ... in qacc: data reset */
  GS_WARN_BADCTRL,       /* ... in ctrl */
  GS_WARN_BADSOLREF,     /* solref mixing the two formats: the default used instead */
  GS_WARN_BADOPTION,     /* an option out of its enumeration or range: MJCF's default used
                            (lastinfo: GS_OPTION_INTEGRATOR, ...) */
  GS_WARN_BADCONTACT,    /* NaN or Inf in a geom's size, friction, margin, gap, solref, solimp
                            or solmix, or a pair's: data reset (lastinfo: the geom) */
  GS_WARN_STIFFINVERSE,  /* gs_inverse: a row with R below 1e-3 of its diagApprox (solimp near
                            1): its force amplifies any error of qacc (lastinfo: the row) */
  GS_NWARNING
} gsWarning;

/* lastinfo of GS_WARN_BADOPTION: which option */
typedef enum {
  GS_OPTION_INTEGRATOR = 0, GS_OPTION_CONE, GS_OPTION_JACOBIAN, GS_OPTION_SOLVER,
  GS_OPTION_ITERATIONS, GS_OPTION_LS_ITERATIONS, GS_OPTION_NOSLIP_ITERATIONS,
  GS_OPTION_CCD_ITERATIONS
} gsOptionCode;

typedef struct {
  int lastinfo;     /* index of the offending element (dof, body, ...) at the last occurrence */
  int number;       /* how many times it happened since the last reset (MJCF's mjWarningStat) */
  long long total;  /* how many times since the data was made: gs_resetData keeps it */
} gsWarningStat;

/* one contact between two geoms (MJCF's mjContact, without what later stages add) */
typedef struct {
  gsReal dist;                /* signed distance between the surfaces; negative: penetration */
  gsReal pos[3];              /* midpoint between the surfaces */
  gsReal frame[9];            /* rows: normal (from geom1 to geom2), then two tangents */
  gsReal includemargin;       /* included in the constraint problem when dist < includemargin */
  gsReal friction[5];         /* tangent1, tangent2, spin, roll1, roll2 */
  gsReal solref[GS_NREF];     /* normal direction */
  gsReal solreffriction[GS_NREF]; /* friction directions (0 0: use solref) */
  gsReal solimp[GS_NIMP];
  gsReal mu;                  /* friction of the regularised cone, set by the constraint stage */
  int dim;                    /* condim: 1, 3, 4 or 6 */
  int geom1, geom2;           /* geom ids; geom1's type <= geom2's type */
  int exclude;                /* 0: included, 1: in the gap, 2: fused, ... (set later) */
  int efc_address;            /* first constraint row, -1 when none */
} gsContact;

/* constraint types and states, numbered as MJCF's mjtConstraint and mjtConstraintState */
typedef enum {
  GS_CNSTR_EQUALITY = 0, GS_CNSTR_FRICTION_DOF, GS_CNSTR_FRICTION_TENDON, GS_CNSTR_LIMIT_JOINT,
  GS_CNSTR_LIMIT_TENDON, GS_CNSTR_CONTACT_FRICTIONLESS, GS_CNSTR_CONTACT_PYRAMIDAL,
  GS_CNSTR_CONTACT_ELLIPTIC
} gsConstraintType;

typedef enum {
  GS_CNSTRSTATE_SATISFIED = 0,  /* no force */
  GS_CNSTRSTATE_QUADRATIC,      /* force -D (J qacc - aref) */
  GS_CNSTRSTATE_LINEARNEG,      /* friction loss at its bound: force +frictionloss */
  GS_CNSTRSTATE_LINEARPOS,      /* ... force -frictionloss */
  GS_CNSTRSTATE_CONE            /* elliptic contact on the surface of its cone */
} gsConstraintState;

/* one iteration of the constraint solver */
typedef struct {
  gsReal improvement;  /* cost reduction, scaled by 1 / (mean inertia * nv) */
  gsReal gradient;     /* gradient norm, scaled the same way */
  gsReal lineslope;    /* slope of the cost at the start of the line search */
  int nactive;         /* rows with a force */
  int nchange;         /* rows whose state changed */
  int neval;           /* cost evaluations of the line search */
  int nupdate;         /* Hessian updates (Newton) */
} gsSolverStat;

/* stage timers, filled while d->timeron is set (gs_setTimer); MJCF's mjtTimer has the same idea.
 * The stages nest: STEP holds FORWARD (four times per step with RK4), which holds the others. */
typedef enum {
  GS_TIMER_STEP = 0,        /* gs_step */
  GS_TIMER_FORWARD,         /* gs_forward */
  GS_TIMER_POS_KINEMATICS,  /* frames, com quantities, tendons */
  GS_TIMER_POS_INERTIA,     /* composite rigid body M and its factor */
  GS_TIMER_POS_COLLISION,   /* broad and narrow phase */
  GS_TIMER_POS_MAKE,        /* constraint rows and their impedance */
  GS_TIMER_VEL_REFERENCE,   /* reference acceleration of the rows */
  GS_TIMER_CONSTRAINT,      /* the constraint solver (and noslip) */
  GS_TIMER_ACTUATION,       /* transmissions, actuator dynamics and forces */
  GS_TIMER_PASSIVE,         /* springs, dampers, gravity compensation, fluid forces */
  GS_TIMER_SENSOR,          /* sensors, with the post-constraint quantities they read */
  GS_NTIMER
} gsTimer;

typedef struct {
  gsReal duration;  /* seconds, summed over the calls */
  int number;       /* calls since the last reset */
} gsTimerStat;

#define GS_NSOLVER 200  /* iterations whose statistics are kept, per island */
#define GS_NISLAND 20   /* islands whose solver statistics are kept */
/* gsData.deferred: position-stage outputs left out by the inverse (and the geom frames, by the
 * force evaluations of RK4 whose geom frames nothing reads) */
enum { GS_DEFER_FACTOR = 1, GS_DEFER_ISLAND = 2, GS_DEFER_GEOM = 4 };

/* constraint rows: X(type, name, cols), each holding nefc rows of cols values (room: nefcmax) */
#define GS_EFC_FIELDS(X)                                                                           \
  X(int,    efc_type,          1)   /* gsConstraintType */                                         \
  X(int,    efc_id,            1)   /* equality, dof, joint, tendon or contact id */               \
  X(int,    efc_J_rownnz,      1)   /* non-zeros of the row of J */                                \
  X(int,    efc_J_rowadr,      1)   /* their address in efc_J_colind / efc_J */                    \
  X(gsReal, efc_pos,           1)   /* residual: distance, violation */                           \
  X(gsReal, efc_margin,        1)   /* inclusion margin of limits and contacts */                  \
  X(gsReal, efc_frictionloss,  1)   /* bound of friction loss rows */                              \
  X(gsReal, efc_diagApprox,    1)   /* approximation of diag(J M^-1 J^T) */                        \
  X(gsReal, efc_R,             1)   /* regulariser (seed 000 eq. 27) */                           \
  X(gsReal, efc_D,             1)   /* 1 / R */                                                     \
  X(gsReal, efc_KBIP,          4)   /* stiffness, damping, impedance, its derivative */            \
  X(gsReal, efc_vel,           1)   /* J qvel */                                                    \
  X(gsReal, efc_aref,          1)   /* reference acceleration (seed 000 eq. 24, 28) */            \
  X(gsReal, efc_force,         1)   /* constraint force */                                         \
  X(int,    efc_state,         1)   /* gsConstraintState */                                        \
  X(int,    efc_island,        1)   /* island of the row; -1: none (a row without columns) */     \
  X(int,    map_efc2iefc,      1)   /* position of the row in the rows sorted by island */         \
  X(int,    map_iefc2efc,      1)   /* row at each position of that order */

/* constraint islands: X(name, rows), int arrays of nv rows, of which islands use the first
 * nisland (an island holds at least one tree with dofs) */
#define GS_ISLAND_FIELDS(X)                                                                        \
  X(dof_island,      nv)       /* island of each dof; -1: no row involves its tree */           \
  X(map_dof2idof,    nv)       /* position of the dof in the dofs sorted by island */           \
  X(map_idof2dof,    nv)       /* dof at each position; from nidof on: unconstrained dofs */    \
  X(island_nv,       nisland)  /* dofs of each island */                                        \
  X(island_idofadr,  nisland)  /* its first position in map_idof2dof */                         \
  X(island_dofadr,   nisland)  /* its first dof */                                              \
  X(island_ne,       nisland)  /* its equality rows */                                          \
  X(island_nf,       nisland)  /* its friction loss rows */                                     \
  X(island_nefc,     nisland)  /* its rows */                                                   \
  X(island_iefcadr,  nisland)  /* its first position in map_iefc2efc */

/* user callbacks, per data (no global state): each called where MJCF calls its mjcb_* (NULL:
 * not called), with `user` as given. control: after the velocity stage, to set ctrl (and
 * qfrc_applied, xfrc_applied); sensor: for user sensors, at the stage of each; act_dyn, act_gain,
 * act_bias: for actuators of dyntype, gaintype, biastype 'user'; contactfilter: for each pair of
 * geoms the broad phase and the built-in filters keep, 1 to drop the pair. */
typedef struct gsData gsData;
typedef struct gsModel gsModel;
typedef struct {
  void (*control)(const gsModel* m, gsData* d, void* user);
  void (*sensor)(const gsModel* m, gsData* d, int stage, void* user);
  gsReal (*act_dyn)(const gsModel* m, const gsData* d, int id, void* user);
  gsReal (*act_gain)(const gsModel* m, const gsData* d, int id, void* user);
  gsReal (*act_bias)(const gsModel* m, const gsData* d, int id, void* user);
  int (*contactfilter)(const gsModel* m, gsData* d, int geom1, int geom2, void* user);
  void* user;
} gsCallbacks;

struct gsData {
  gsReal time;
  gsReal energy[2];                   /* potential, kinetic */
  gsWarningStat warning[GS_NWARNING];
  int timeron;                        /* 1: fill timer (costs two clock reads per stage) */
  gsTimerStat timer[GS_NTIMER];

  /* arena: a stack of scratch memory, in bytes */
  size_t narena;
  size_t pstack;                      /* bytes in use */
  size_t maxuse;                      /* high-water mark */
  unsigned char* arena;

  /* contacts of the last collision stage: ncon of them, room for nconmax */
  int ncon;
  int nconmax;
  gsContact* contact;

#define GS_X(type, name, rows, cols) type* name;
  GS_DATA_FIELDS(GS_X)
#undef GS_X

  /* constraint rows of the last constraint stage, in MJCF's order: ne equality, nf friction loss,
   * nl limit rows, then contacts; J is stored by rows, sparse (nJ non-zeros, room for nJmax) */
  int nefc, nefcmax;
  int ne, nf, nl;
  int nJ, nJmax;
#define GS_X(type, name, cols) type* name;
  GS_EFC_FIELDS(GS_X)
#undef GS_X
  int* efc_J_colind;
  gsReal* efc_J;
  void* efcbuffer;

  /* constraint islands of the last constraint stage (MJCF's mj_island): the connected
   * components of the graph whose nodes are kinematic trees and whose edges are rows involving
   * two trees; nisland is 0 when the island flag is disabled or there are no rows */
  int nisland, nislandmax;            /* islands, room for them (nv) */
  int nidof;                          /* dofs in all islands */
#define GS_X(name, rows) int* name;
  GS_ISLAND_FIELDS(GS_X)
#undef GS_X
  void* islandbuffer;

  /* constraint solver: iterations of the last solve and their statistics, per island (island 0
   * holds the whole problem when there are no islands, and PGS, which solves all rows at once) */
  int solver_niter[GS_NISLAND];
  int solver_nnoslip;   /* noslip iterations of the last solve */
  /* fwdinv flag, after the forward pass of each step: |qfrc_constraint - the inverse's| (the rows'
   * forces compared in joint space, as MJCF does), |qfrc_applied + qfrc_actuator + J^T xfrc -
   * qfrc_inverse|; 0 without rows */
  gsReal solver_fwdinv[2];
  /* position-stage outputs the inverse leaves out (it needs neither): bit 1 the factor of M (qLD,
   * qLDiagInv), bit 2 the islands; gs_solveM and the passes that skip the position stage complete
   * them first. Bit 4: the geom frames, left out by the first force evaluations of an RK4 step
   * where nothing reads them before the last evaluation computes them (never set after a step) */
  int deferred;
  gsSolverStat solver[GS_NISLAND * GS_NSOLVER];

  gsCallbacks cb;                     /* copied by gs_copyData, kept by the resets */

  void* buffer;
  size_t nbuffer;
};

/* count one occurrence of `warning` (number and total) with `info` as its lastinfo, as MJCF's
 * mj_warning counts */
GS_API void gs_warning(gsData* d, gsWarning warning, int info);

#endif
