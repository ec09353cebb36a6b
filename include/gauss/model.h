/* gsModel: the compiled model. Flat structure-of-arrays, read-only after gs_compile, shareable
 * between threads. Enumerations follow MJCF's numbering so that saved values mean the same thing. */
#ifndef GAUSS_MODEL_H
#define GAUSS_MODEL_H

#include "export.h"

#include <stddef.h>

typedef double gsReal;

#define GS_NREF 2  /* solref: timeconst, dampratio (or -stiffness, -damping) */
#define GS_NIMP 5  /* solimp: dmin, dmax, width, midpoint, power */
/* geom_fluid: ellipsoid flag, 5 fluidcoef (blunt, slender, angular drag, Kutta, Magnus lift),
 * virtual mass (3) and virtual inertia (3) of the equivalent ellipsoid per unit fluid density */
#define GS_NFLUID 12

#include "fields.h"

typedef enum { GS_JNT_FREE = 0, GS_JNT_BALL, GS_JNT_SLIDE, GS_JNT_HINGE } gsJointType;

typedef enum {
  GS_GEOM_PLANE = 0, GS_GEOM_HFIELD, GS_GEOM_SPHERE, GS_GEOM_CAPSULE, GS_GEOM_ELLIPSOID,
  GS_GEOM_CYLINDER, GS_GEOM_BOX, GS_GEOM_MESH, GS_NGEOMTYPE
} gsGeomType;

/* how a geom's or site's frame relates to its body's (body_sameframe: the inertial frame's): the
 * kinematics copies the frame it names instead of composing one that differs by under 1e-6 */
typedef enum {
  GS_SAMEFRAME_NONE = 0,   /* its own frame */
  GS_SAMEFRAME_BODY,       /* the body frame */
  GS_SAMEFRAME_INERTIA,    /* the body's inertial frame */
  GS_SAMEFRAME_BODYROT,    /* the body frame's orientation, its own position */
  GS_SAMEFRAME_INERTIAROT  /* the inertial frame's orientation, its own position */
} gsSameFrame;

typedef enum { GS_INT_EULER = 0, GS_INT_RK4, GS_INT_IMPLICIT, GS_INT_IMPLICITFAST } gsIntegrator;
typedef enum { GS_CONE_PYRAMIDAL = 0, GS_CONE_ELLIPTIC } gsCone;
typedef enum { GS_JAC_DENSE = 0, GS_JAC_SPARSE, GS_JAC_AUTO } gsJacobian;
typedef enum { GS_SOL_PGS = 0, GS_SOL_CG, GS_SOL_NEWTON } gsSolver;

/* <flag> bits, in MJCF's order */
typedef enum {
  GS_DSBL_CONSTRAINT = 1 << 0, GS_DSBL_EQUALITY = 1 << 1, GS_DSBL_FRICTIONLOSS = 1 << 2,
  GS_DSBL_LIMIT = 1 << 3, GS_DSBL_CONTACT = 1 << 4, GS_DSBL_SPRING = 1 << 5,
  GS_DSBL_DAMPER = 1 << 6, GS_DSBL_GRAVITY = 1 << 7, GS_DSBL_CLAMPCTRL = 1 << 8,
  GS_DSBL_WARMSTART = 1 << 9, GS_DSBL_FILTERPARENT = 1 << 10, GS_DSBL_ACTUATION = 1 << 11,
  GS_DSBL_REFSAFE = 1 << 12, GS_DSBL_SENSOR = 1 << 13, GS_DSBL_MIDPHASE = 1 << 14,
  GS_DSBL_EULERDAMP = 1 << 15, GS_DSBL_AUTORESET = 1 << 16, GS_DSBL_NATIVECCD = 1 << 17,
  GS_DSBL_ISLAND = 1 << 18
} gsDisableBit;
#define GS_NDISABLE 19

typedef enum {
  GS_ENBL_OVERRIDE = 1 << 0, GS_ENBL_ENERGY = 1 << 1, GS_ENBL_FWDINV = 1 << 2,
  GS_ENBL_INVDISCRETE = 1 << 3, GS_ENBL_MULTICCD = 1 << 4
} gsEnableBit;
#define GS_NENABLE 5

/* names of the flags as MJCF's <flag> writes them, indexed by bit number */
GS_API extern const char* const gs_disable_names[GS_NDISABLE];
GS_API extern const char* const gs_enable_names[GS_NENABLE];

/* physics options: <option> */
typedef struct {
  gsReal timestep;
  gsReal impratio;
  gsReal tolerance;
  gsReal ls_tolerance;
  gsReal noslip_tolerance;
  gsReal ccd_tolerance;
  gsReal gravity[3];
  gsReal wind[3];
  gsReal magnetic[3];
  gsReal density;
  gsReal viscosity;
  gsReal o_margin;
  gsReal o_solref[GS_NREF];
  gsReal o_solimp[GS_NIMP];
  gsReal o_friction[5];
  int integrator;      /* gsIntegrator */
  int cone;            /* gsCone */
  int jacobian;        /* gsJacobian */
  int solver;          /* gsSolver */
  int iterations;
  int ls_iterations;
  int noslip_iterations;
  int ccd_iterations;
  int disableflags;    /* gsDisableBit */
  int enableflags;     /* gsEnableBit */
  int actuatorgroupdisable;  /* bit g set: the actuators of group g (0..30) exert no force */
} gsOption;

/* quantities MJCF derives from the model at qpos0 (<statistic> may give them) */
typedef struct {
  gsReal meaninertia;  /* trace(M(qpos0)) / nv: the solvers' unit of cost and gradient */
  gsReal extent;       /* size of the model at qpos0: the renderer's unit of clipping and view */
  gsReal center[3];    /* centre of the model's bounding box at qpos0 */
} gsStatistic;

/* <visual>: what the renderer reads of it (MJCF's defaults unless the model gives them) */
typedef struct {
  gsReal fovy, azimuth, elevation;          /* <global>: the free camera (degrees) */
  gsReal znear, zfar, fogstart, fogend;     /* <map>: clipping planes and fog, in extents */
  gsReal headlight_ambient[3], headlight_diffuse[3], headlight_specular[3];
  /* <map>: the mouse's spring, force arrows (force / meanmass * map_force units of length),
   * transparency, haze, the shadow volumes of directional and spot lights, tendon width */
  gsReal map_stiffness, map_stiffnessrot, map_force, map_torque, map_alpha, map_haze,
      map_shadowclip, map_shadowscale, map_actuatortendon;
  /* <scale>: sizes of decorations, in units of the model's mean size */
  gsReal scale_forcewidth, scale_contactwidth, scale_contactheight, scale_connect, scale_com,
      scale_camera, scale_light, scale_selectpoint, scale_jointlength, scale_jointwidth,
      scale_actuatorlength, scale_actuatorwidth, scale_framelength, scale_framewidth,
      scale_constraint, scale_slidercrank, scale_frustum;
  /* <rgba>: colours of decorations, fog and haze */
  gsReal rgba_fog[4], rgba_haze[4], rgba_force[4], rgba_inertia[4], rgba_joint[4],
      rgba_actuator[4], rgba_actuatornegative[4], rgba_actuatorpositive[4], rgba_com[4],
      rgba_camera[4], rgba_light[4], rgba_selectpoint[4], rgba_connect[4], rgba_contactpoint[4],
      rgba_contactforce[4], rgba_contactfriction[4], rgba_contacttorque[4], rgba_contactgap[4],
      rgba_rangefinder[4], rgba_constraint[4], rgba_slidercrank[4], rgba_crankbroken[4],
      rgba_frustum[4], rgba_bv[4], rgba_bvactive[4];
  int headlight_active;
  int numslices, numstacks;                 /* <quality>: tessellation of round shapes */
  int shadowsize, offsamples, numquads;     /* <quality>: shadow map side, samples per pixel */
} gsVisual;

/* sizes of the model: X(name) for each int size; slices of the engine add theirs in their own
 * fields_*.h, so that this list, like the arrays, is written once */
#define GS_MODEL_SIZES(X)                                                                          \
  X(nq)        /* generalized coordinates */                                                      \
  X(nv)        /* degrees of freedom */                                                           \
  X(nu)        /* actuators */                                                                    \
  X(na)        /* activation states */                                                            \
  X(nbody)     /* bodies, including the world body 0 */                                           \
  X(njnt)      /* joints */                                                                       \
  X(ngeom)     /* geoms */                                                                        \
  X(nsite)     /* sites */                                                                        \
  X(nM)        /* non-zeros of the tree-sparse mass matrix */                                     \
  X(nnames)    /* bytes of the names buffer */                                                    \
  /* capacities of the pipeline, computed by the compiler (src/model/capacity.c) */               \
  X(nconmax)   /* contacts a data has room for */                                                 \
  X(nefcmax)   /* constraint rows */                                                              \
  X(nJmax)     /* non-zeros of the constraint Jacobian */                                         \
  X(narena)    /* bytes of the data's scratch arena */                                            \
  GS_SIZES_ACTUATION(X)                                                                            \
  GS_SIZES_SENSING(X)                                                                              \
  GS_SIZES_WORLD(X)

/* index of each size in GS_MODEL_SIZES: GS_SIZE_nq, ... */
enum {
#define GS_S(name) GS_SIZE_##name,
  GS_MODEL_SIZES(GS_S)
#undef GS_S
  GS_NSIZES
};

/* A width that depends on the model (key_qpos has nq columns, key_mpos 3 * nmocap): the field
 * lists write GS_COLS(k, size) for k * size columns. Tables built at compile time hold it as a
 * negative code; GS_COLS_SIZE(code) is the index of the size, GS_COLS_MUL(code) the factor.
 * gs_modelField reports the actual width. */
#define GS_COLS(k, size) (-1 - GS_SIZE_##size - GS_NSIZES * ((k) - 1))
#define GS_COLS_SIZE(code) ((-1 - (code)) % GS_NSIZES)
#define GS_COLS_MUL(code) ((-1 - (code)) / GS_NSIZES + 1)

typedef struct gsModel {
#define GS_S(name) int name;
  GS_MODEL_SIZES(GS_S)
#undef GS_S

  gsOption opt;
  gsStatistic stat;
  gsVisual vis;

  /* arrays, one allocation */
#define GS_X(type, name, rows, cols) type* name;
  GS_MODEL_FIELDS(GS_X)
#undef GS_X

  void* buffer;
  size_t nbuffer;
} gsModel;

#endif
