/* Spec elements of the sensing slice: sensors, equality constraints, keyframes, custom
 * numeric/text/tuple data, and the <size> values of user data and keyframes. Included by spec.h. */
#ifndef GAUSS_SPEC_SENSING_H
#define GAUSS_SPEC_SENSING_H

#include "export.h"

typedef struct gsSpecSensor {
  gsSpecInfo info;
  int type;               /* gsSensorType */
  int objtype;            /* gsObject of the sensed object; GS_OBJ_UNKNOWN: none */
  char* objname;          /* owned */
  int reftype;            /* gsObject of the second object (reference frame, camera, geom2...) */
  char* refname;          /* owned */
  int intprm[GS_NSENS];   /* contact sensors: data bits, reduction, number of slots */
  int dim;                /* user sensors: number of values */
  int datatype;           /* user sensors: gsDataType */
  int needstage;          /* user sensors: gsStage */
  gsReal cutoff;          /* 0: no cutoff */
  gsReal noise;           /* standard deviation of the noise to add */
  int nuser;
  gsReal* user;           /* owned */
} gsSpecSensor;

typedef struct gsSpecEquality {
  gsSpecInfo info;
  int type;               /* gsEqType */
  int objtype;            /* connect, weld: GS_OBJ_BODY or GS_OBJ_SITE */
  char* name1;            /* body1/site1/joint1/tendon1, owned */
  char* name2;            /* the second one; NULL: the world (connect, weld) or none */
  int active;
  gsReal solref[GS_NREF];
  gsReal solimp[GS_NIMP];
  gsReal anchor[3];       /* connect: in body1's frame; weld: in body2's frame */
  gsReal relpose[7];      /* weld: pose of body2 in body1's frame; a zero quaternion: as at qpos0 */
  gsReal torquescale;     /* weld */
  gsReal polycoef[5];     /* joint, tendon: obj1 = poly(obj2) */
} gsSpecEquality;

/* a keyframe; each vector is NULL when not given (the model's default), else n values, which may
 * be fewer than the model needs */
typedef struct gsSpecKey {
  gsSpecInfo info;
  gsReal time;
  int nqpos, nqvel, nact, nctrl, nmpos, nmquat;
  gsReal *qpos, *qvel, *act, *ctrl, *mpos, *mquat;  /* owned */
} gsSpecKey;

typedef struct gsSpecNumeric {
  gsSpecInfo info;
  int size;               /* < 0: the number of values given */
  int ndata;
  gsReal* data;           /* owned; padded with zeros up to size */
} gsSpecNumeric;

typedef struct gsSpecText {
  gsSpecInfo info;
  char* data;             /* owned */
} gsSpecText;

typedef struct gsSpecTupleElement {
  int objtype;            /* gsObject */
  char* objname;          /* owned */
  gsReal prm;
} gsSpecTupleElement;

typedef struct gsSpecTuple {
  gsSpecInfo info;
  int nelement, nelement_cap;
  gsSpecTupleElement** element;
} gsSpecTuple;

/* members added to gsSpecBody */
#define GS_SPECBODY_SENSING                                                                        \
  int mocap;              /* a body moved by d->mocap_pos/mocap_quat (a fixed child of the world) */

/* members added to gsSpec. The nuser_* values are those of <size> (-1: the longest user= array of
 * the element kind); the actuation slice reads nuser_tendon and nuser_actuator, the world slice
 * nuser_cam. */
#define GS_SPEC_SENSING                                                                            \
  int nsensor, nsensor_cap;                                                                        \
  gsSpecSensor** sensor;                                                                           \
  int nequality, nequality_cap;                                                                    \
  gsSpecEquality** equality;                                                                       \
  int nkey, nkey_cap;                                                                              \
  gsSpecKey** key;                                                                                 \
  int nnumeric, nnumeric_cap;                                                                      \
  gsSpecNumeric** numeric;                                                                         \
  int ntext, ntext_cap;                                                                            \
  gsSpecText** text;                                                                               \
  int ntuple, ntuple_cap;                                                                          \
  gsSpecTuple** tuple;                                                                             \
  int size_nkey;          /* <size nkey>: at least this many keyframes */                          \
  int nuserdata;          /* <size nuserdata> */                                                   \
  int nuser_body, nuser_jnt, nuser_geom, nuser_site, nuser_cam, nuser_tendon, nuser_actuator,      \
      nuser_sensor;

/* add an element with MJCF's defaults; NULL only when out of memory */
GS_API gsSpecSensor* gs_specAddSensor(gsSpec* spec, int type);
GS_API gsSpecEquality* gs_specAddEquality(gsSpec* spec, int type);
GS_API gsSpecKey* gs_specAddKey(gsSpec* spec);
GS_API gsSpecNumeric* gs_specAddNumeric(gsSpec* spec);
GS_API gsSpecText* gs_specAddText(gsSpec* spec);
GS_API gsSpecTuple* gs_specAddTuple(gsSpec* spec);
GS_API gsSpecTupleElement* gs_specAddTupleElement(gsSpecTuple* tuple);

#endif
