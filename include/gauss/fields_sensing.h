/* Sizes and model arrays of the sensing slice: sensors, equality constraints, keyframes, custom
 * numeric/text/tuple data, mocap bodies and user data. See fields.h. Enumerations are numbered as
 * MJCF's (mjtSensor, mjtDataType, mjtStage, mjtEq), because saved values must mean the same. */
#ifndef GAUSS_FIELDS_SENSING_H
#define GAUSS_FIELDS_SENSING_H

#define GS_NEQDATA 11  /* eq_data: anchor(s), relative pose and torque scale, or polynomial */
#define GS_NSENS 3     /* sensor_intprm: contact sensors' data bits, reduction, number of slots */

typedef enum {
  GS_SENS_TOUCH = 0, GS_SENS_ACCELEROMETER, GS_SENS_VELOCIMETER, GS_SENS_GYRO, GS_SENS_FORCE,
  GS_SENS_TORQUE, GS_SENS_MAGNETOMETER, GS_SENS_RANGEFINDER, GS_SENS_CAMPROJECTION,
  GS_SENS_JOINTPOS, GS_SENS_JOINTVEL, GS_SENS_TENDONPOS, GS_SENS_TENDONVEL, GS_SENS_ACTUATORPOS,
  GS_SENS_ACTUATORVEL, GS_SENS_ACTUATORFRC, GS_SENS_JOINTACTFRC, GS_SENS_TENDONACTFRC,
  GS_SENS_BALLQUAT, GS_SENS_BALLANGVEL, GS_SENS_JOINTLIMITPOS, GS_SENS_JOINTLIMITVEL,
  GS_SENS_JOINTLIMITFRC, GS_SENS_TENDONLIMITPOS, GS_SENS_TENDONLIMITVEL, GS_SENS_TENDONLIMITFRC,
  GS_SENS_FRAMEPOS, GS_SENS_FRAMEQUAT, GS_SENS_FRAMEXAXIS, GS_SENS_FRAMEYAXIS, GS_SENS_FRAMEZAXIS,
  GS_SENS_FRAMELINVEL, GS_SENS_FRAMEANGVEL, GS_SENS_FRAMELINACC, GS_SENS_FRAMEANGACC,
  GS_SENS_SUBTREECOM, GS_SENS_SUBTREELINVEL, GS_SENS_SUBTREEANGMOM, GS_SENS_INSIDESITE,
  GS_SENS_GEOMDIST, GS_SENS_GEOMNORMAL, GS_SENS_GEOMFROMTO, GS_SENS_CONTACT, GS_SENS_E_POTENTIAL,
  GS_SENS_E_KINETIC, GS_SENS_CLOCK, GS_SENS_TACTILE, GS_SENS_PLUGIN, GS_SENS_USER, GS_NSENSTYPE
} gsSensorType;

/* what a sensor's values are: any real, non-negative, a unit vector, a unit quaternion */
typedef enum {
  GS_DATATYPE_REAL = 0, GS_DATATYPE_POSITIVE, GS_DATATYPE_AXIS, GS_DATATYPE_QUATERNION
} gsDataType;

/* the pipeline stage after which a sensor can be computed */
typedef enum { GS_STAGE_NONE = 0, GS_STAGE_POS, GS_STAGE_VEL, GS_STAGE_ACC } gsStage;

typedef enum {
  GS_EQ_CONNECT = 0, GS_EQ_WELD, GS_EQ_JOINT, GS_EQ_TENDON, GS_EQ_FLEX, GS_EQ_DISTANCE
} gsEqType;

/* contact sensors: the fields of each slot (sensor_intprm[0] holds their bits, in this order) */
typedef enum {
  GS_CONDATA_FOUND = 0, GS_CONDATA_FORCE, GS_CONDATA_TORQUE, GS_CONDATA_DIST, GS_CONDATA_POS,
  GS_CONDATA_NORMAL, GS_CONDATA_TANGENT, GS_NCONDATA
} gsConDataType;

/* contact sensors: how the contacts found are reduced to the slots (sensor_intprm[1]) */
typedef enum {
  GS_CONREDUCE_NONE = 0, GS_CONREDUCE_MINDIST, GS_CONREDUCE_MAXFORCE, GS_CONREDUCE_NETFORCE
} gsConReduce;

#define GS_SIZES_SENSING(X)                                                                        \
  X(nmocap)        /* mocap bodies */                                                            \
  X(neq)           /* equality constraints */                                                    \
  X(nsensor)       /* sensors */                                                                 \
  X(nsensordata)   /* values of all sensors */                                                   \
  X(nkey)          /* keyframes */                                                               \
  X(nnumeric)      /* custom numeric fields */                                                   \
  X(nnumericdata)  /* their values */                                                            \
  X(ntext)         /* custom text fields */                                                      \
  X(ntextdata)     /* their characters, with a NUL each */                                       \
  X(ntuple)        /* custom tuples */                                                           \
  X(ntupledata)    /* their elements */                                                          \
  X(nuserdata)     /* reals of d->userdata */                                                    \
  X(nuser_body)    /* user data per body, ... */                                                 \
  X(nuser_jnt)                                                                                     \
  X(nuser_geom)                                                                                    \
  X(nuser_site)                                                                                    \
  X(nuser_sensor)

#define GS_FIELDS_SENSING(X)                                                                       \
  /* mocap bodies and the user data of the tree */                                               \
  X(int,    body_mocapid,      nbody,     1)                                                       \
  X(gsReal, body_user,         nbody,     GS_COLS(1, nuser_body))                                  \
  X(gsReal, jnt_user,          njnt,      GS_COLS(1, nuser_jnt))                                   \
  X(gsReal, geom_user,         ngeom,     GS_COLS(1, nuser_geom))                                  \
  X(gsReal, site_user,         nsite,     GS_COLS(1, nuser_site))                                  \
  /* equality constraints */                                                                     \
  X(int,    eq_type,           neq,       1)                                                       \
  X(int,    eq_obj1id,         neq,       1)                                                       \
  X(int,    eq_obj2id,         neq,       1)                                                       \
  X(int,    eq_objtype,        neq,       1)                                                       \
  X(int,    eq_active0,        neq,       1)                                                       \
  X(gsReal, eq_solref,         neq,       GS_NREF)                                                 \
  X(gsReal, eq_solimp,         neq,       GS_NIMP)                                                 \
  X(gsReal, eq_data,           neq,       GS_NEQDATA)                                              \
  /* sensors */                                                                                  \
  X(int,    sensor_type,       nsensor,   1)                                                       \
  X(int,    sensor_datatype,   nsensor,   1)                                                       \
  X(int,    sensor_needstage,  nsensor,   1)                                                       \
  X(int,    sensor_objtype,    nsensor,   1)                                                       \
  X(int,    sensor_objid,      nsensor,   1)                                                       \
  X(int,    sensor_reftype,    nsensor,   1)                                                       \
  X(int,    sensor_refid,      nsensor,   1)                                                       \
  X(int,    sensor_intprm,     nsensor,   GS_NSENS)                                                \
  X(int,    sensor_dim,        nsensor,   1)                                                       \
  X(int,    sensor_adr,        nsensor,   1)                                                       \
  X(gsReal, sensor_cutoff,     nsensor,   1)                                                       \
  X(gsReal, sensor_noise,      nsensor,   1)                                                       \
  X(gsReal, sensor_user,       nsensor,   GS_COLS(1, nuser_sensor))                                \
  X(int,    sensor_plugin,     nsensor,   1)                                                       \
  /* keyframes */                                                                                \
  X(gsReal, key_time,          nkey,      1)                                                       \
  X(gsReal, key_qpos,          nkey,      GS_COLS(1, nq))                                          \
  X(gsReal, key_qvel,          nkey,      GS_COLS(1, nv))                                          \
  X(gsReal, key_act,           nkey,      GS_COLS(1, na))                                          \
  X(gsReal, key_ctrl,          nkey,      GS_COLS(1, nu))                                          \
  X(gsReal, key_mpos,          nkey,      GS_COLS(3, nmocap))                                      \
  X(gsReal, key_mquat,         nkey,      GS_COLS(4, nmocap))                                      \
  /* custom data */                                                                              \
  X(int,    numeric_adr,       nnumeric,  1)                                                       \
  X(int,    numeric_size,      nnumeric,  1)                                                       \
  X(gsReal, numeric_data,      nnumericdata, 1)                                                    \
  X(int,    text_adr,          ntext,     1)                                                       \
  X(int,    text_size,         ntext,     1)                                                       \
  X(char,   text_data,         ntextdata, 1)                                                       \
  X(int,    tuple_adr,         ntuple,    1)                                                       \
  X(int,    tuple_size,        ntuple,    1)                                                       \
  X(int,    tuple_objtype,     ntupledata, 1)                                                      \
  X(int,    tuple_objid,       ntupledata, 1)                                                      \
  X(gsReal, tuple_objprm,      ntupledata, 1)                                                      \
  /* names */                                                                                    \
  X(int,    name_eqadr,        neq,       1)                                                       \
  X(int,    name_sensoradr,    nsensor,   1)                                                       \
  X(int,    name_keyadr,       nkey,      1)                                                       \
  X(int,    name_numericadr,   nnumeric,  1)                                                       \
  X(int,    name_textadr,      ntext,     1)                                                       \
  X(int,    name_tupleadr,     ntuple,    1)

/* data arrays of the sensors: the values of every sensor, sensor_adr[i] onwards */
#define GS_DATA_FIELDS_SENSING(X)                                                                  \
  X(gsReal, sensordata,        nsensordata, 1)

#endif
