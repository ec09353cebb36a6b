/* Sizes and model arrays of the actuation slice: tendons (fixed and spatial, with their wraps) and
 * actuators. See fields.h. Enumerations are numbered as MJCF's (mjtWrap, mjtTrn, mjtDyn, mjtGain,
 * mjtBias), so that compiled values mean the same thing. */
#ifndef GAUSS_FIELDS_ACTUATION_H
#define GAUSS_FIELDS_ACTUATION_H

/* wrap_type: one element of a tendon's path */
typedef enum {
  GS_WRAP_NONE = 0, GS_WRAP_JOINT, GS_WRAP_PULLEY, GS_WRAP_SITE, GS_WRAP_SPHERE, GS_WRAP_CYLINDER
} gsWrapType;

/* actuator_trntype: what the actuator pulls on */
typedef enum {
  GS_TRN_JOINT = 0, GS_TRN_JOINTINPARENT, GS_TRN_SLIDERCRANK, GS_TRN_TENDON, GS_TRN_SITE,
  GS_TRN_BODY
} gsTrnType;

/* actuator_dyntype: activation dynamics */
typedef enum {
  GS_DYN_NONE = 0, GS_DYN_INTEGRATOR, GS_DYN_FILTER, GS_DYN_FILTEREXACT, GS_DYN_MUSCLE, GS_DYN_USER
} gsDynType;

/* actuator_gaintype, actuator_biastype */
typedef enum { GS_GAIN_FIXED = 0, GS_GAIN_AFFINE, GS_GAIN_MUSCLE, GS_GAIN_USER } gsGainType;
typedef enum { GS_BIAS_NONE = 0, GS_BIAS_AFFINE, GS_BIAS_MUSCLE, GS_BIAS_USER } gsBiasType;

#define GS_NDYN 10   /* actuator_dynprm per actuator */
#define GS_NGAIN 10  /* actuator_gainprm */
#define GS_NBIAS 10  /* actuator_biasprm */

/* nu and na are core sizes (model.h). The data list does not take GS_COLS widths yet, so the
 * dense tendon Jacobian is one column of the product size nten_J. */
#define GS_SIZES_ACTUATION(X)                                                                      \
  X(ntendon)         /* tendons */                                                                 \
  X(nwrap)           /* elements of all tendon paths */                                            \
  X(nuser_tendon)    /* user values per tendon */                                                  \
  X(nuser_actuator)  /* user values per actuator */                                                \
  X(nten_J)          /* ntendon * nv: ten_J (data), row-major */                                 \
  X(nJmom)           /* room for the sparse actuator moments (data: actuator_moment): the sum \
                        over actuators of the dofs each transmission can touch (compile) */

#define GS_FIELDS_ACTUATION(X)                                                                     \
  /* tendons */                                                                                    \
  X(int,    tendon_adr,            ntendon,        1)                                              \
  X(int,    tendon_num,            ntendon,        1)                                              \
  X(int,    tendon_dofadr,         ntendon,        1)   /* ten_J's row is zero outside these dofs */\
  X(int,    tendon_dofnum,         ntendon,        1)                                              \
  X(int,    tendon_matid,          ntendon,        1)                                              \
  X(int,    tendon_group,          ntendon,        1)                                              \
  X(int,    tendon_limited,        ntendon,        1)                                              \
  X(int,    tendon_actfrclimited,  ntendon,        1)                                              \
  X(gsReal, tendon_width,          ntendon,        1)                                              \
  X(gsReal, tendon_solref_lim,     ntendon,        GS_NREF)                                        \
  X(gsReal, tendon_solimp_lim,     ntendon,        GS_NIMP)                                        \
  X(gsReal, tendon_solref_fri,     ntendon,        GS_NREF)                                        \
  X(gsReal, tendon_solimp_fri,     ntendon,        GS_NIMP)                                        \
  X(gsReal, tendon_range,          ntendon,        2)                                              \
  X(gsReal, tendon_actfrcrange,    ntendon,        2)                                              \
  X(gsReal, tendon_margin,         ntendon,        1)                                              \
  X(gsReal, tendon_stiffness,      ntendon,        1)                                              \
  X(gsReal, tendon_damping,        ntendon,        1)                                              \
  X(gsReal, tendon_armature,       ntendon,        1)                                              \
  X(gsReal, tendon_frictionloss,   ntendon,        1)                                              \
  X(gsReal, tendon_lengthspring,   ntendon,        2)                                              \
  X(gsReal, tendon_length0,        ntendon,        1)                                              \
  X(gsReal, tendon_invweight0,     ntendon,        1)                                              \
  X(gsReal, tendon_user,           ntendon,        GS_COLS(1, nuser_tendon))                       \
  X(gsReal, tendon_rgba,           ntendon,        4)                                              \
  /* tendon paths: joint (objid joint, prm coef), site (objid site), sphere or cylinder (objid   \
   * geom, prm side site or -1), pulley (objid -1, prm divisor) */                                 \
  X(int,    wrap_type,             nwrap,          1)                                              \
  X(int,    wrap_objid,            nwrap,          1)                                              \
  X(gsReal, wrap_prm,              nwrap,          1)                                              \
  /* actuators */                                                                                  \
  X(int,    actuator_trntype,      nu,             1)                                              \
  X(int,    actuator_dyntype,      nu,             1)                                              \
  X(int,    actuator_gaintype,     nu,             1)                                              \
  X(int,    actuator_biastype,     nu,             1)                                              \
  X(int,    actuator_trnid,        nu,             2)                                              \
  X(int,    actuator_actadr,       nu,             1)                                              \
  X(int,    actuator_actnum,       nu,             1)                                              \
  X(int,    actuator_group,        nu,             1)                                              \
  X(int,    actuator_ctrllimited,  nu,             1)                                              \
  X(int,    actuator_forcelimited, nu,             1)                                              \
  X(int,    actuator_actlimited,   nu,             1)                                              \
  X(gsReal, actuator_dynprm,       nu,             GS_NDYN)                                        \
  X(gsReal, actuator_gainprm,      nu,             GS_NGAIN)                                       \
  X(gsReal, actuator_biasprm,      nu,             GS_NBIAS)                                       \
  X(int,    actuator_actearly,     nu,             1)                                              \
  X(gsReal, actuator_ctrlrange,    nu,             2)                                              \
  X(gsReal, actuator_forcerange,   nu,             2)                                              \
  X(gsReal, actuator_actrange,     nu,             2)                                              \
  X(gsReal, actuator_gear,         nu,             6)                                              \
  X(gsReal, actuator_cranklength,  nu,             1)                                              \
  X(gsReal, actuator_acc0,         nu,             1)                                              \
  X(gsReal, actuator_length0,      nu,             1)                                              \
  X(gsReal, actuator_lengthrange,  nu,             2)                                              \
  X(int,    actuator_plugin,       nu,             1)                                              \
  X(gsReal, actuator_user,         nu,             GS_COLS(1, nuser_actuator))                     \
  /* the joints' bounds of the actuators' generalized force (actuatorfrcrange) */                  \
  X(int,    jnt_actfrclimited,     njnt,           1)                                              \
  X(gsReal, jnt_actfrcrange,       njnt,           2)                                              \
  /* names */                                                                                      \
  X(int,    name_tendonadr,        ntendon,        1)                                              \
  X(int,    name_actuatoradr,      nu,             1)

/* data arrays of the tendon stage (gs_tendon): lengths, dense Jacobians (ntendon x nv, row-major)
 * and the points of each spatial tendon's path: ten_wrapnum[i] points from ten_wrapadr[i] in
 * wrap_xpos (3 per point, 2 points per row) with wrap_obj (-1 site, -2 pulley, else the geom
 * wrapped around; 0 for unused slots) */
#define GS_DATA_FIELDS_ACTUATION(X)                                                                \
  X(int,    ten_wrapadr,       ntendon, 1)                                                         \
  X(int,    ten_wrapnum,       ntendon, 1)                                                         \
  X(gsReal, ten_length,        ntendon, 1)                                                         \
  X(gsReal, ten_J,             nten_J,  1)                                                         \
  X(int,    wrap_obj,          nwrap,   2)                                                         \
  X(gsReal, wrap_xpos,         nwrap,   6)                                                         \
  X(gsReal, ten_velocity,      ntendon, 1)                                                         \
  /* actuators: lengths and moment arms (position stage, after the contacts), velocities        \
   * (velocity stage), forces (gs_fwdActuation). The moments are MJCF's sparse rows:             \
   * moment_rownnz[i] entries from moment_rowadr[i] (the rows one after the other, in actuator   \
   * order) in moment_colind (dofs ascending) and actuator_moment. Where the layout differs from \
   * MuJoCo's: a row holds the moment's non-zeros only, where MuJoCo keeps the transmission's     \
   * whole pattern (a site's chain, a tendon's dofs) with the zeros in it, so rownnz may be       \
   * smaller (a dof that happens to give zero, a gear of zero): the densified moments are equal, \
   * and a row never needs more room than its pattern, which nJmom sums. */                      \
  X(gsReal, actuator_length,   nu,      1)                                                         \
  X(int,    moment_rownnz,     nu,      1)                                                         \
  X(int,    moment_rowadr,     nu,      1)                                                         \
  X(int,    moment_colind,     nJmom,   1)                                                         \
  X(gsReal, actuator_moment,   nJmom,   1)                                                         \
  X(gsReal, actuator_velocity, nu,      1)                                                         \
  X(gsReal, actuator_force,    nu,      1)

#endif
