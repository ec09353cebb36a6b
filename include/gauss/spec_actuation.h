/* Spec elements of the actuation slice: tendons (fixed, spatial with site/geom/pulley wraps) and
 * actuators (general and every shortcut). Included by spec.h. */
#ifndef GAUSS_SPEC_ACTUATION_H
#define GAUSS_SPEC_ACTUATION_H

#include "export.h"

/* what one element of a tendon's path names */
typedef enum { GS_PATH_JOINT = 0, GS_PATH_SITE, GS_PATH_GEOM, GS_PATH_PULLEY } gsPathKind;

typedef struct gsSpecWrap {
  gsSpecInfo info;        /* where it was written; no name of its own */
  int kind;               /* gsPathKind */
  char* target;           /* joint, site or geom name (owned); NULL for a pulley */
  char* sidesite;         /* geom: site that picks the side to wrap on (owned), or NULL */
  gsReal prm;             /* joint: coef; pulley: divisor */
} gsSpecWrap;

typedef struct gsSpecTendon {
  gsSpecInfo info;
  int spatial;            /* 0: fixed (joints), 1: spatial (sites, geoms, pulleys) */
  int group;
  int limited;            /* gsLimited */
  gsReal range[2];
  int actfrclimited;      /* gsLimited; false unless given (MJCF's default for tendons) */
  gsReal actfrcrange[2];
  gsReal margin;
  gsReal solref_limit[GS_NREF];
  gsReal solimp_limit[GS_NIMP];
  gsReal solref_friction[GS_NREF];
  gsReal solimp_friction[GS_NIMP];
  gsReal frictionloss;
  gsReal width;
  char* material;         /* owned, NULL when not given */
  gsReal rgba[4];
  gsReal springlength[2]; /* both -1: the length at qpos_spring */
  gsReal stiffness;
  gsReal damping;
  gsReal armature;
  int nuser;
  gsReal* user;           /* owned */
  int nwrap, nwrap_cap;
  gsSpecWrap** wrap;      /* the path, in order */
} gsSpecTendon;

/* Actuators are stored in the general form; the MJCF shortcuts (motor, position, ...) are mapped
 * to it by the reader. */
typedef struct gsSpecActuator {
  gsSpecInfo info;
  int trntype;            /* gsTrnType */
  char* target;           /* joint, tendon, site, crank site or body name (owned), NULL: none */
  char* refsite;          /* site transmission: reference site (owned) or NULL */
  char* slidersite;       /* slider-crank: the slider's site (owned) or NULL */
  int group;
  int ctrllimited;        /* gsLimited */
  int forcelimited;       /* gsLimited */
  int actlimited;         /* gsLimited */
  gsReal ctrlrange[2];
  gsReal forcerange[2];
  gsReal actrange[2];
  gsReal lengthrange[2];
  gsReal gear[6];
  gsReal cranklength;
  int dyntype;            /* gsDynType */
  int gaintype;           /* gsGainType */
  int biastype;           /* gsBiasType */
  gsReal dynprm[GS_NDYN];
  gsReal gainprm[GS_NGAIN];
  gsReal biasprm[GS_NBIAS];
  int actdim;             /* activation states; -1: 1 with activation dynamics, else 0 */
  int actearly;
  gsReal inheritrange;    /* > 0: the control (or activation) range from the target's range */
  int nuser;
  gsReal* user;           /* owned */
} gsSpecActuator;

/* members added to gsSpecBody: none */
#define GS_SPECBODY_ACTUATION

/* members added to gsSpec */
#define GS_SPEC_ACTUATION                                                                          \
  int ntendon, ntendon_cap;                                                                        \
  gsSpecTendon** tendon;                                                                           \
  int nactuator, nactuator_cap;                                                                    \
  gsSpecActuator** actuator;
/* (<size nuser_tendon> and <size nuser_actuator> are the spec's nuser_tendon and nuser_actuator,
 * read with <size> by the sensing slice: -1 sizes them from the longest user= array) */

/* add elements with MJCF's default values; NULL only when out of memory */
GS_API gsSpecTendon* gs_specAddTendon(gsSpec* spec, int spatial);
GS_API gsSpecWrap* gs_specAddWrap(gsSpecTendon* tendon, int kind);
GS_API gsSpecActuator* gs_specAddActuator(gsSpec* spec);
/* reset an actuator to MJCF's defaults (the values of <general> with no attributes) */
GS_API void gs_specDefaultActuator(gsSpecActuator* a);

#endif
