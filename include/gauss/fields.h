/* The one list of model and data arrays.
 *
 * X(type, name, rows, cols): the array `name` holds rows*cols elements of `type`, where `rows` is a
 * size field of gsModel (nq, nv, nbody, ...). This list drives allocation, copying, resetting,
 * printing and the Python views; add a field here and everything else follows.
 */
#ifndef GAUSS_FIELDS_H
#define GAUSS_FIELDS_H

/* each slice of the engine lists its own sizes and arrays: GS_SIZES_<SLICE>(X) with X(size) and
 * GS_FIELDS_<SLICE>(X) with X(type, name, rows, cols) */
#include "fields_actuation.h"  /* tendons, wraps, actuators */
#include "fields_sensing.h"    /* sensors, equality constraints, keyframes, custom data, user data */
#include "fields_world.h"      /* cameras, lights, assets, contact pairs and exclusions */

/* ---- model: compiled, read-only after gs_compile ---- */
#define GS_MODEL_FIELDS(X)                                                                         \
  /* default state */                                                                              \
  X(gsReal, qpos0,             nq,     1)                                                          \
  X(gsReal, qpos_spring,       nq,     1)                                                          \
  /* bodies: the tree */                                                                           \
  X(int,    body_parentid,     nbody,  1)                                                          \
  X(int,    body_rootid,       nbody,  1)                                                          \
  X(int,    body_weldid,       nbody,  1)                                                          \
  X(int,    body_jntnum,       nbody,  1)                                                          \
  X(int,    body_jntadr,       nbody,  1)                                                          \
  X(int,    body_dofnum,       nbody,  1)                                                          \
  X(int,    body_dofadr,       nbody,  1)                                                          \
  X(int,    body_geomnum,      nbody,  1)                                                          \
  X(int,    body_geomadr,      nbody,  1)                                                          \
  X(gsReal, body_pos,          nbody,  3)                                                          \
  X(gsReal, body_quat,         nbody,  4)                                                          \
  X(gsReal, body_ipos,         nbody,  3)                                                          \
  X(gsReal, body_iquat,        nbody,  4)                                                          \
  X(gsReal, body_mass,         nbody,  1)                                                          \
  X(gsReal, body_gravcomp,     nbody,  1)   /* share of the body's weight cancelled (gravcomp) */  \
  X(gsReal, body_subtreemass,  nbody,  1)                                                          \
  X(gsReal, body_inertia,      nbody,  3)                                                          \
  X(gsReal, body_invweight0,   nbody,  2)   /* mean inverse inertia at qpos0: translation, rotation */\
  X(int,    body_sameframe,    nbody,  1)   /* gsSameFrame of the inertial frame: NONE, BODY, BODYROT */\
  X(int,    body_slider,       nbody,  1)   /* 1: inverse weights 1/mass (a body of the world, or of a static body of the world, on orthogonal slides, at compile time; MuJoCo's body_simple 2) */\
  /* joints */                                                                                     \
  X(int,    jnt_type,          njnt,   1)                                                          \
  X(int,    jnt_qposadr,       njnt,   1)                                                          \
  X(int,    jnt_dofadr,        njnt,   1)                                                          \
  X(int,    jnt_bodyid,        njnt,   1)                                                          \
  X(int,    jnt_group,         njnt,   1)                                                          \
  X(int,    jnt_limited,       njnt,   1)                                                          \
  X(gsReal, jnt_pos,           njnt,   3)                                                          \
  X(gsReal, jnt_axis,          njnt,   3)                                                          \
  X(gsReal, jnt_stiffness,     njnt,   1)                                                          \
  X(gsReal, jnt_range,         njnt,   2)                                                          \
  X(gsReal, jnt_margin,        njnt,   1)                                                          \
  X(gsReal, jnt_solref,        njnt,   GS_NREF)                                                    \
  X(gsReal, jnt_solimp,        njnt,   GS_NIMP)                                                    \
  X(int,    jnt_actgravcomp,   njnt,   1)   /* gravity compensation applied through the actuators */\
  /* degrees of freedom */                                                                         \
  X(int,    dof_bodyid,        nv,     1)                                                          \
  X(int,    dof_jntid,         nv,     1)                                                          \
  X(int,    dof_parentid,      nv,     1)                                                          \
  X(int,    dof_Madr,          nv,     1)                                                          \
  X(int,    M_dofid,           nM,     1)   /* the dof of each stored entry of M: i, then i's ancestors */\
  X(int,    dof_freetail,      nv,     1)   /* r when the dof's row of M ends with the six entries of the free joint r .. r + 5 at the root of its tree (the dof is past them), else -1 */\
  X(int,    dof_diagonal,      nv,     1)   /* 1: M's row and column of the dof hold its diagonal alone, exactly (a free body of the world without children, its inertial frame at the joint and unrotated; MuJoCo's simple free bodies) */\
  X(gsReal, dof_armature,      nv,     1)                                                          \
  X(gsReal, dof_damping,       nv,     1)                                                          \
  X(gsReal, dof_frictionloss,  nv,     1)                                                          \
  X(gsReal, dof_invweight0,    nv,     1)   /* diagonal of M^-1 at qpos0, averaged per joint part */\
  X(gsReal, dof_solref,        nv,     GS_NREF)                                                    \
  X(gsReal, dof_solimp,        nv,     GS_NIMP)                                                    \
  /* geoms */                                                                                      \
  X(int,    geom_type,         ngeom,  1)                                                          \
  X(int,    geom_contype,      ngeom,  1)                                                          \
  X(int,    geom_conaffinity,  ngeom,  1)                                                          \
  X(int,    geom_condim,       ngeom,  1)                                                          \
  X(int,    geom_bodyid,       ngeom,  1)                                                          \
  X(int,    geom_group,        ngeom,  1)                                                          \
  X(int,    geom_priority,     ngeom,  1)                                                          \
  X(gsReal, geom_size,         ngeom,  3)                                                          \
  X(gsReal, geom_pos,          ngeom,  3)                                                          \
  X(gsReal, geom_quat,         ngeom,  4)                                                          \
  X(gsReal, geom_friction,     ngeom,  3)                                                          \
  X(gsReal, geom_solmix,       ngeom,  1)                                                          \
  X(gsReal, geom_solref,       ngeom,  GS_NREF)                                                    \
  X(gsReal, geom_solimp,       ngeom,  GS_NIMP)                                                    \
  X(gsReal, geom_margin,       ngeom,  1)                                                          \
  X(gsReal, geom_gap,          ngeom,  1)                                                          \
  X(gsReal, geom_rbound,       ngeom,  1)                                                          \
  X(gsReal, geom_rgba,         ngeom,  4)                                                          \
  X(int,    geom_sameframe,    ngeom,  1)   /* gsSameFrame */                                       \
  X(gsReal, geom_fluid,        ngeom,  GS_NFLUID)   /* fluid interaction (GS_NFLUID) */       \
  /* sites */                                                                                      \
  X(int,    site_type,         nsite,  1)                                                          \
  X(int,    site_bodyid,       nsite,  1)                                                          \
  X(int,    site_group,        nsite,  1)                                                          \
  X(gsReal, site_size,         nsite,  3)                                                          \
  X(gsReal, site_pos,          nsite,  3)                                                          \
  X(gsReal, site_quat,         nsite,  4)                                                          \
  X(gsReal, site_rgba,         nsite,  4)                                                          \
  X(int,    site_sameframe,    nsite,  1)   /* gsSameFrame */                                       \
  /* names: offsets into `names`, a buffer of NUL-terminated strings ("" = unnamed) */             \
  X(int,    name_bodyadr,      nbody,  1)                                                          \
  X(int,    name_jntadr,       njnt,   1)                                                          \
  X(int,    name_geomadr,      ngeom,  1)                                                          \
  X(int,    name_siteadr,      nsite,  1)                                                          \
  X(char,   names,             nnames, 1)                                                          \
  GS_FIELDS_ACTUATION(X)                                                                           \
  GS_FIELDS_SENSING(X)                                                                             \
  GS_FIELDS_WORLD(X)

/* ---- data: state, every intermediate quantity, in the order the pipeline computes them ---- */
#define GS_DATA_FIELDS(X)                                                                          \
  /* state and inputs */                                                                           \
  X(gsReal, qpos,              nq,     1)                                                          \
  X(gsReal, qvel,              nv,     1)                                                          \
  X(gsReal, act,               na,     1)                                                          \
  X(gsReal, ctrl,              nu,     1)                                                          \
  X(gsReal, qfrc_applied,      nv,     1)                                                          \
  X(gsReal, xfrc_applied,      nbody,  6)                                                          \
  X(gsReal, qacc_warmstart,    nv,     1)                                                          \
  X(int,    eq_active,         neq,    1)   /* equality constraints switched on */                  \
  X(gsReal, mocap_pos,         nmocap, 3)                                                          \
  X(gsReal, mocap_quat,        nmocap, 4)                                                          \
  X(gsReal, userdata,          nuserdata, 1)                                                       \
  /* outputs of the step */                                                                        \
  X(gsReal, qacc,              nv,     1)                                                          \
  X(gsReal, act_dot,           na,     1)                                                          \
  /* position stage: kinematics */                                                                 \
  X(gsReal, xpos,              nbody,  3)                                                          \
  X(gsReal, xquat,             nbody,  4)                                                          \
  X(gsReal, xmat,              nbody,  9)                                                          \
  X(gsReal, xipos,             nbody,  3)                                                          \
  X(gsReal, ximat,             nbody,  9)                                                          \
  X(gsReal, xanchor,           njnt,   3)                                                          \
  X(gsReal, xaxis,             njnt,   3)                                                          \
  X(gsReal, geom_xpos,         ngeom,  3)                                                          \
  X(gsReal, geom_xmat,         ngeom,  9)                                                          \
  X(gsReal, site_xpos,         nsite,  3)                                                          \
  X(gsReal, site_xmat,         nsite,  9)                                                          \
  /* position stage: com-based quantities, inertia */                                              \
  X(gsReal, subtree_com,       nbody,  3)                                                          \
  X(gsReal, cinert,            nbody,  10)                                                         \
  X(gsReal, crb,               nbody,  10)                                                         \
  X(gsReal, cdof,              nv,     6)                                                          \
  X(gsReal, qM,                nM,     1)                                                          \
  X(gsReal, qLD,               nM,     1)                                                          \
  X(gsReal, qLDiagInv,         nv,     1)                                                          \
  /* position stage: tendons (fields_actuation.h) */                                               \
  GS_DATA_FIELDS_ACTUATION(X)                                                                      \
  /* velocity stage */                                                                             \
  X(gsReal, cvel,              nbody,  6)                                                          \
  X(gsReal, cdof_dot,          nv,     6)                                                          \
  X(gsReal, qfrc_bias,         nv,     1)                                                          \
  X(gsReal, qfrc_passive,      nv,     1)   /* spring + damper + gravcomp + fluid */              \
  X(gsReal, qfrc_spring,       nv,     1)   /* joint and tendon springs */                          \
  X(gsReal, qfrc_damper,       nv,     1)   /* joint and tendon dampers */                          \
  X(gsReal, qfrc_gravcomp,     nv,     1)   /* gravity compensation */                             \
  X(gsReal, qfrc_fluid,        nv,     1)   /* fluid forces */                                     \
  /* force stage */                                                                                \
  X(gsReal, qfrc_actuator,     nv,     1)                                                          \
  X(gsReal, qfrc_smooth,       nv,     1)                                                          \
  X(gsReal, qacc_smooth,       nv,     1)                                                          \
  X(gsReal, qfrc_constraint,   nv,     1)                                                          \
  X(gsReal, qfrc_inverse,      nv,     1)  /* gs_inverse: the applied force that gives qacc */    \
  /* after the constraint solver (gs_rnePostConstraint, gs_subtreeVel): body accelerations, the    \
   * forces between bodies and from outside, subtree momenta; then the sensors */                  \
  X(gsReal, cacc,              nbody,  6)                                                          \
  X(gsReal, cfrc_int,          nbody,  6)                                                          \
  X(gsReal, cfrc_ext,          nbody,  6)                                                          \
  X(gsReal, subtree_linvel,    nbody,  3)                                                          \
  X(gsReal, subtree_angmom,    nbody,  3)                                                          \
  GS_DATA_FIELDS_SENSING(X)

#endif
