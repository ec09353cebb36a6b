/* gauss: multi-joint dynamics with contact. The whole public API. */
#ifndef GAUSS_GAUSS_H
#define GAUSS_GAUSS_H

#include "model.h"
#include "data.h"
#include "spec.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GS_VERSION 1   /* library version, also stamped into binary models */

/* ---- loading ---- */

/* Warnings from the last load on this thread: MJCF elements and attributes that are valid but not
 * yet simulated. One per line; empty when there were none. */
const char* gs_loadWarnings(void);

/* MJCF from a file or a string; NULL on error, with a message naming the file, line and element */
gsModel* gs_loadXML(const char* path, char* err, int errsz);
gsModel* gs_loadXMLString(const char* xml, char* err, int errsz);

/* MJCF to a spec (the editable tree), for callers that want to modify it before compiling */
gsSpec* gs_parseXML(const char* path, char* err, int errsz);
gsSpec* gs_parseXMLString(const char* xml, char* err, int errsz);

/* MJCF with in-memory files: an <include> (or an asset file) is looked up in the VFS first, by
 * the name as written in the XML, then by the path resolved against the including file's folder;
 * what is not there is read from the disk */
typedef struct gsVFS gsVFS;
gsVFS* gs_vfsNew(void);
int gs_vfsAdd(gsVFS* vfs, const char* name, const void* data, size_t n);  /* copies; 0 on error */
void gs_vfsFree(gsVFS* vfs);
gsModel* gs_loadXMLVFS(const char* path, const gsVFS* vfs, char* err, int errsz);
gsModel* gs_loadXMLStringVFS(const char* xml, const gsVFS* vfs, char* err, int errsz);
gsModel* gs_loadXMLWithAssets(const char* path, const char* const* names,
                              const void* const* data, const size_t* sizes, int n, char* err,
                              int errsz);

/* ---- binary models: versioned, checked (a truncated, corrupted or foreign file is an error) ---- */
int gs_saveModel(const gsModel* m, const char* path, char* err, int errsz);   /* 1 ok, 0 error */
size_t gs_sizeModel(const gsModel* m);                                     /* bytes of the binary */
int gs_saveModelBuffer(const gsModel* m, void* buf, size_t bufsz);  /* bytes written, 0: too small */
gsModel* gs_loadModel(const char* path, char* err, int errsz);
gsModel* gs_loadModelBuffer(const void* buf, size_t n, char* err, int errsz);

/* ---- MJCF from a compiled model: loading the result compiles to the same arrays ---- */
int gs_saveXML(const gsModel* m, const char* path, char* err, int errsz);   /* 1 ok, 0 error */
/* the document's length (without the NUL), of which the first bufsz - 1 bytes are copied to buf
 * (buf may be NULL); -1 on error */
int gs_saveXMLString(const gsModel* m, char* buf, int bufsz, char* err, int errsz);

/* ---- model and data ---- */
void gs_freeModel(gsModel* m);
gsModel* gs_copyModel(const gsModel* m);

gsData* gs_makeData(const gsModel* m);
void gs_freeData(gsData* d);
void gs_resetData(const gsModel* m, gsData* d);                    /* qpos = qpos0, all else zero */
/* reset, then the state of keyframe `key` (time, qpos, qvel, act, ctrl, mocap poses); a key out
 * of range leaves the plain reset */
void gs_resetDataKeyframe(const gsModel* m, gsData* d, int key);
gsData* gs_copyData(gsData* dst, const gsModel* m, const gsData* src); /* dst NULL: a new data */

/* the scalars of gsData, for bindings that do not mirror its layout */
gsReal* gs_dataTime(gsData* d);
gsReal* gs_dataEnergy(gsData* d);                       /* potential, kinetic */
gsWarningStat* gs_dataWarning(gsData* d, int* n);       /* n gets GS_NWARNING */
size_t gs_dataArena(const gsData* d, size_t* pstack, size_t* maxuse);  /* returns narena */
gsTimerStat* gs_dataTimer(gsData* d, int* n);           /* n gets GS_NTIMER */

/* stage timers (d->timer) on or off; off by default, and kept by gs_resetData, which zeroes them */
void gs_setTimer(gsData* d, int on);

/* name of an object, "" when unnamed; id from name, -1 when absent */
/* object types, numbered as MJCF's mjtObj (sensor_objtype and friends hold these values) */
typedef enum {
  GS_OBJ_UNKNOWN = 0, GS_OBJ_BODY, GS_OBJ_XBODY, GS_OBJ_JOINT, GS_OBJ_DOF, GS_OBJ_GEOM, GS_OBJ_SITE,
  GS_OBJ_CAMERA, GS_OBJ_LIGHT, GS_OBJ_FLEX, GS_OBJ_MESH, GS_OBJ_SKIN, GS_OBJ_HFIELD, GS_OBJ_TEXTURE,
  GS_OBJ_MATERIAL, GS_OBJ_PAIR, GS_OBJ_EXCLUDE, GS_OBJ_EQUALITY, GS_OBJ_TENDON, GS_OBJ_ACTUATOR,
  GS_OBJ_SENSOR, GS_OBJ_NUMERIC, GS_OBJ_TEXT, GS_OBJ_TUPLE, GS_OBJ_KEY, GS_OBJ_PLUGIN, GS_NOBJECT
} gsObject;
const char* gs_id2name(const gsModel* m, int type, int id);
int gs_name2id(const gsModel* m, int type, const char* name);

/* ---- simulation ---- */
void gs_step(const gsModel* m, gsData* d);     /* forward, then integrate */
void gs_step1(const gsModel* m, gsData* d);    /* position and velocity stages: set ctrl after */
void gs_step2(const gsModel* m, gsData* d);    /* force stage and integration */
void gs_forward(const gsModel* m, gsData* d);  /* everything up to qacc, no integration */

/* pipeline stages, for callers that need one of them */
void gs_kinematics(const gsModel* m, gsData* d);
void gs_comPos(const gsModel* m, gsData* d);
void gs_crb(const gsModel* m, gsData* d);
void gs_factorM(const gsModel* m, gsData* d);
void gs_comVel(const gsModel* m, gsData* d);
void gs_rne(const gsModel* m, gsData* d, int with_acc, gsReal* result);
void gs_passive(const gsModel* m, gsData* d);
void gs_tendon(const gsModel* m, gsData* d);        /* ten_length, ten_J, tendon paths */
void gs_fwdPosition(const gsModel* m, gsData* d);
void gs_fwdVelocity(const gsModel* m, gsData* d);
void gs_fwdAcceleration(const gsModel* m, gsData* d);
void gs_integratePos(const gsModel* m, gsReal* qpos, const gsReal* qvel, gsReal h);
void gs_normalizeQuat(const gsModel* m, gsReal* qpos);

/* energies, written to d->energy (potential, kinetic) */
void gs_energyPos(const gsModel* m, gsData* d);
void gs_energyVel(const gsModel* m, gsData* d);

/* ---- collision ---- */
void gs_collision(const gsModel* m, gsData* d);   /* broad phase, filters, narrow phase: d->contact */
int gs_contactCapacity(const gsModel* m);          /* contacts a data has room for */
gsContact* gs_dataContact(gsData* d, int* ncon, int* nconmax);   /* for bindings */
/* ray from pnt along vec: distance in units of |vec| to the nearest geom hit (-1: none), its id in
 * *geomid (-1: none). geomgroup: 6 flags, NULL for all groups; flg_static: include geoms of bodies
 * welded to the world; bodyexclude: a body whose geoms are skipped (-1: none) */
gsReal gs_ray(const gsModel* m, const gsData* d, const gsReal pnt[3], const gsReal vec[3],
              const unsigned char* geomgroup, int flg_static, int bodyexclude, int* geomid);
/* signed distance between the surfaces of geoms g1 and g2, capped at distmax; fromto (may be
 * NULL): closest point on g1, then on g2 (zeros when the distance is distmax or more); height
 * fields are not supported (distmax) */
gsReal gs_geomDistance(const gsModel* m, const gsData* d, int g1, int g2, gsReal distmax,
                       gsReal fromto[6]);

/* ---- the mass matrix ---- */
void gs_fullM(const gsModel* m, gsReal* dst, const gsReal* M);       /* dense nv x nv from qM */
void gs_mulM(const gsModel* m, const gsData* d, gsReal* res, const gsReal* vec);
void gs_solveM(const gsModel* m, gsData* d, gsReal* x, const gsReal* y, int n); /* x = M^-1 y */

/* ---- Jacobians (3 x nv, row-major) of a point on a body ---- */
void gs_jac(const gsModel* m, const gsData* d, gsReal* jacp, gsReal* jacr,
            const gsReal point[3], int body);

/* ---- arena ---- */
void* gs_stackAlloc(gsData* d, size_t bytes);   /* NULL + GS_WARN_ARENAFULL when full */
size_t gs_stackMark(const gsData* d);
void gs_stackRelease(gsData* d, size_t mark);

/* ---- field introspection (drives printing and the Python views) ---- */
typedef enum { GS_TYPE_REAL = 0, GS_TYPE_INT = 1, GS_TYPE_CHAR = 2 } gsFieldType;
typedef struct {
  const char* name;
  int type;      /* gsFieldType */
  int rows;      /* for this model */
  int cols;
  void* ptr;
} gsFieldInfo;

int gs_modelSizeCount(void);
/* name of size i, with its value for m in *value (value may be NULL); NULL when out of range */
const char* gs_modelSize(const gsModel* m, int i, int* value);
/* the options of m (for bindings that do not mirror gsModel's layout) */
gsOption* gs_modelOption(gsModel* m);
gsStatistic* gs_modelStatistic(gsModel* m);

int gs_modelFieldCount(void);
int gs_modelField(const gsModel* m, int i, gsFieldInfo* info);   /* 0 when i is out of range */
int gs_dataFieldCount(void);
int gs_dataField(const gsModel* m, const gsData* d, int i, gsFieldInfo* info);
/* name of the size that the rows of field i follow ("nbody", "nv", ...); NULL when out of range */
const char* gs_modelFieldRows(int i);
const char* gs_dataFieldRows(int i);
/* constraint rows (GS_EFC_FIELDS, then efc_J_colind and efc_J): rows = nefc (nJ for the last two);
 */
int gs_dataEfcFieldCount(void);
int gs_dataEfcField(const gsData* d, int i, gsFieldInfo* info);
/* nefc, ne, nf, nl, nJ, solver iterations (the slowest island's), noslip iterations, nisland, nidof */
void gs_dataEfcCounts(const gsData* d, int counts[9]);
/* the constraint islands (gsData's GS_ISLAND_FIELDS): dof arrays of nv rows, island arrays of
 * nisland */
int gs_dataIslandFieldCount(void);
int gs_dataIslandField(const gsData* d, int i, gsFieldInfo* info);
/* iterations of the last solve: the most over the islands */
int gs_solverIterations(const gsData* d);
/* solver statistics of the last step: GS_NSOLVER records per island for GS_NISLAND islands;
 * niter (may be NULL) gets the GS_NISLAND iteration counts */
gsSolverStat* gs_dataSolver(gsData* d, int** niter);

/* ---- constraint forces ---- */
/* the force and torque of contact i in its frame (normal, tangents, then torques: 6 values);
 * zeros when the contact has no rows */
void gs_contactForce(const gsModel* m, const gsData* d, int i, gsReal result[6]);

/* print every field of the model / data, readable */
int gs_printModel(const gsModel* m, const char* path);   /* path NULL: stdout; 0 on error */
int gs_printData(const gsModel* m, const gsData* d, const char* path);

#ifdef __cplusplus
}
#endif
#endif
