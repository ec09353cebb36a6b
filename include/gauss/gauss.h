/* gauss: multi-joint dynamics with contact. The whole public API. */
#ifndef GAUSS_GAUSS_H
#define GAUSS_GAUSS_H

#include "export.h"

#include "model.h"
#include "data.h"
#include "spec.h"
#include "spec_access.h" /* spec elements by attribute name, deleting, parsing without compiling */
#include "state.h"   /* gs_stateSize, gs_getState, gs_setState */
#include "rollout.h" /* gs_stepN, gs_rollout */
#include "inverse_rigid.h" /* gs_inverseRigid: inverse dynamics under rigid contact */

#ifdef __cplusplus
extern "C" {
#endif

#define GS_VERSION 1   /* library version, also stamped into binary models */

/* ---- loading ---- */

/* Warnings from the last load on this thread: MJCF elements and attributes that are valid but not
 * yet simulated. One per line; empty when there were none. */
GS_API const char* gs_loadWarnings(void);

/* MJCF from a file or a string; NULL on error, with a message naming the file, line and element */
GS_API gsModel* gs_loadXML(const char* path, char* err, int errsz);
GS_API gsModel* gs_loadXMLString(const char* xml, char* err, int errsz);

/* URDF (a <robot> file): links and joints as MJCF's loader reads them, with its defaults
 * (fusestatic, discardvisual, strippath; radians) and the <mujoco><compiler/option/size>
 * extension; an error names file, line and element. gs_loadXML and the other loaders take URDF
 * too; these refuse any other file. */
GS_API gsModel* gs_loadURDF(const char* path, char* err, int errsz);
GS_API gsModel* gs_loadURDFString(const char* urdf, char* err, int errsz);

/* MJCF to a spec (the editable tree), for callers that want to modify it before compiling */
GS_API gsSpec* gs_parseXML(const char* path, char* err, int errsz);
GS_API gsSpec* gs_parseXMLString(const char* xml, char* err, int errsz);

/* MJCF with in-memory files: an <include> (or an asset file) is looked up in the VFS first, by
 * the name as written in the XML, then by the path resolved against the including file's folder;
 * what is not there is read from the disk */
typedef struct gsVFS gsVFS;
GS_API gsVFS* gs_vfsNew(void);
GS_API int gs_vfsAdd(gsVFS* vfs, const char* name, const void* data, size_t n);  /* copies; 0 on error */
GS_API void gs_vfsFree(gsVFS* vfs);
GS_API gsModel* gs_loadXMLVFS(const char* path, const gsVFS* vfs, char* err, int errsz);
GS_API gsModel* gs_loadXMLStringVFS(const char* xml, const gsVFS* vfs, char* err, int errsz);
GS_API gsModel* gs_loadXMLWithAssets(const char* path, const char* const* names,
                              const void* const* data, const size_t* sizes, int n, char* err,
                              int errsz);
/* flags of gs_loadXMLOpt */
#define GS_LOAD_CONFINED 1  /* includes and asset files only from the model file's directory (real
                               paths: no "..", absolute path or link out of it) and from vfs; for
                               XML text, from vfs only. Messages quote nothing of other files. */
/* load MJCF from a file (path) or text (xml), exactly one given; vfs may be NULL */
GS_API gsModel* gs_loadXMLOpt(const char* path, const char* xml, const gsVFS* vfs, int flags,
                              char* err, int errsz);

/* ---- the cache of mesh files: every loader keeps each mesh file it builds (decoded, convex hull,
 * inertia) in one process-wide cache, keyed by the file's contents and the mesh's attributes, so
 * that loading the same model again skips that work; least recently used meshes go first past the
 * capacity (500 MB at start; 0 turns the cache off). Safe from several threads. ---- */
GS_API size_t gs_meshCacheSize(void);                  /* bytes held now */
GS_API size_t gs_meshCacheCapacity(void);
GS_API size_t gs_setMeshCacheCapacity(size_t bytes);   /* returns the new capacity */
GS_API void gs_clearMeshCache(void);

/* ---- binary models: versioned, checked (a truncated, corrupted or foreign file is an error) ---- */
GS_API int gs_saveModel(const gsModel* m, const char* path, char* err, int errsz);   /* 1 ok, 0 error */
GS_API size_t gs_sizeModel(const gsModel* m);                                     /* bytes of the binary */
GS_API int gs_saveModelBuffer(const gsModel* m, void* buf, size_t bufsz);  /* bytes written, 0: too small */
GS_API gsModel* gs_loadModel(const char* path, char* err, int errsz);
GS_API gsModel* gs_loadModelBuffer(const void* buf, size_t n, char* err, int errsz);
/* the checks gs_loadModel applies, for a model whose fields were written by hand: every id,
 * address and count in range, the tree as the compiler lays it out, every real finite and signed
 * as the compiler keeps it (masses, inertias, timestep, sizes, ...), the options' enumerations,
 * the capacities. 1 when valid; 0 with a message naming the field and the element in err */
GS_API int gs_validateModel(const gsModel* m, char* err, int errsz);

/* ---- MJCF from a compiled model: loading the result compiles to the same arrays ---- */
GS_API int gs_saveXML(const gsModel* m, const char* path, char* err, int errsz);   /* 1 ok, 0 error */
/* the document's length (without the NUL), of which the first bufsz - 1 bytes are copied to buf
 * (buf may be NULL); -1 on error */
GS_API int gs_saveXMLString(const gsModel* m, char* buf, int bufsz, char* err, int errsz);

/* ---- model and data ---- */
GS_API void gs_freeModel(gsModel* m);
GS_API gsModel* gs_copyModel(const gsModel* m);

GS_API gsData* gs_makeData(const gsModel* m);
GS_API void gs_freeData(gsData* d);
GS_API void gs_resetData(const gsModel* m, gsData* d);                    /* qpos = qpos0, all else zero */
/* reset, then the state of keyframe `key` (time, qpos, qvel, act, ctrl, mocap poses); a key out
 * of range leaves the plain reset */
GS_API void gs_resetDataKeyframe(const gsModel* m, gsData* d, int key);
/* recompute every quantity defined at qpos0 after model fields were edited (masses, inertias,
 * positions, armature, gains, qpos0 itself, ...), as the compiler does (MuJoCo's mj_setConst):
 * body_subtreemass, body/dof/tendon_invweight0, stat.meaninertia, cam/light pos0 and mat0,
 * tendon_length0, actuator_length0 and acc0, position servos' damping from dampratio, equality
 * anchors. d is used for the computation and left reset to qpos0 (as gs_resetData). Returns 0
 * with a message in err when the edited model has no valid constants (a moving body without
 * mass, overflowing inertias). actuator_lengthrange is left as it is. */
GS_API int gs_setConst(gsModel* m, gsData* d, char* err, int errsz);
GS_API gsData* gs_copyData(gsData* dst, const gsModel* m, const gsData* src); /* dst NULL: a new data */

/* the scalars of gsData, for bindings that do not mirror its layout */
GS_API gsReal* gs_dataTime(gsData* d);
GS_API gsReal* gs_dataEnergy(gsData* d);                       /* potential, kinetic */
GS_API gsWarningStat* gs_dataWarning(gsData* d, int* n);       /* n gets GS_NWARNING */
GS_API size_t gs_dataArena(const gsData* d, size_t* pstack, size_t* maxuse);  /* returns narena */
GS_API gsTimerStat* gs_dataTimer(gsData* d, int* n);           /* n gets GS_NTIMER */
GS_API gsCallbacks* gs_dataCallbacks(gsData* d);               /* d->cb, for bindings */

/* stage timers (d->timer) on or off; off by default, and kept by gs_resetData, which zeroes them */
GS_API void gs_setTimer(gsData* d, int on);

/* name of an object, "" when unnamed; id from name, -1 when absent */
/* object types, numbered as MJCF's mjtObj (sensor_objtype and friends hold these values) */
typedef enum {
  GS_OBJ_UNKNOWN = 0, GS_OBJ_BODY, GS_OBJ_XBODY, GS_OBJ_JOINT, GS_OBJ_DOF, GS_OBJ_GEOM, GS_OBJ_SITE,
  GS_OBJ_CAMERA, GS_OBJ_LIGHT, GS_OBJ_FLEX, GS_OBJ_MESH, GS_OBJ_SKIN, GS_OBJ_HFIELD, GS_OBJ_TEXTURE,
  GS_OBJ_MATERIAL, GS_OBJ_PAIR, GS_OBJ_EXCLUDE, GS_OBJ_EQUALITY, GS_OBJ_TENDON, GS_OBJ_ACTUATOR,
  GS_OBJ_SENSOR, GS_OBJ_NUMERIC, GS_OBJ_TEXT, GS_OBJ_TUPLE, GS_OBJ_KEY, GS_OBJ_PLUGIN, GS_NOBJECT
} gsObject;
GS_API const char* gs_id2name(const gsModel* m, int type, int id);
GS_API int gs_name2id(const gsModel* m, int type, const char* name);

/* ---- simulation ---- */
GS_API void gs_step(const gsModel* m, gsData* d);     /* forward, then integrate */
GS_API void gs_step1(const gsModel* m, gsData* d);    /* position and velocity stages: set ctrl after */
GS_API void gs_step2(const gsModel* m, gsData* d);    /* force stage and integration */
GS_API void gs_forward(const gsModel* m, gsData* d);  /* everything up to qacc, no integration */
/* the forward pass with the position stage (skipstage GS_STAGE_POS), or the position and velocity
 * stages (GS_STAGE_VEL), left as they are: for callers that changed only later inputs (qvel,
 * ctrl, act, qfrc_applied, xfrc_applied), e.g. finite differences; skipsensor leaves sensordata.
 * gs_forward is gs_forwardSkip(m, d, GS_STAGE_NONE, 0) */
GS_API void gs_forwardSkip(const gsModel* m, gsData* d, int skipstage, int skipsensor);
/* inverse dynamics (seed 000 §III): from qpos, qvel and qacc, the constraint forces efc_force
 * (each row's force from its residual J qacc - aref, no solver) and qfrc_inverse, the applied
 * force (qfrc_applied + qfrc_actuator + J^T xfrc_applied) that gives qacc:
 * qfrc_inverse = M qacc + qfrc_bias - qfrc_passive - qfrc_constraint. With the invdiscrete flag
 * qacc is read as the integrator's discrete step (Euler with implicit damping, implicit,
 * implicitfast) and left as given. Non-finite qacc: efc_force, qfrc_constraint and qfrc_inverse
 * zero and GS_WARN_BADQACC counted (no reset). Sensors are computed as by gs_forward. Unlike
 * gs_forward it leaves out the factor of M (qLD) and the islands, which it does not use: gs_solveM
 * and a later gs_forwardSkip compute them first (gsData.deferred). Under RK4, invdiscrete has no
 * discrete step to invert and qacc is read as continuous. */
GS_API void gs_inverse(const gsModel* m, gsData* d);
/* gs_inverse with the stages before skipstage left as they are (gs_forwardSkip's rule) */
GS_API void gs_inverseSkip(const gsModel* m, gsData* d, int skipstage, int skipsensor);

/* transition derivatives of one gs_step by finite differences (MJCF's mjd_transitionFD): state
 * x = (dq in the tangent space of qpos, qvel, act), n = 2 nv + na; row-major A = dx'/dx (n x n),
 * B = dx'/dctrl (n x nu), C = dsensordata/dx (nsensordata x n), D = dsensordata/dctrl
 * (nsensordata x nu), any of them NULL; forward differences of step eps, or centred. A control at
 * a limit of its ctrlrange is differenced one-sided, into the range. The data's inputs (time,
 * qpos, qvel, act, ctrl, qacc_warmstart) are left bit-identical; its computed fields hold the
 * last perturbed step's, as after a gs_step. No room in the arena: NaN matrices and
 * GS_WARN_ARENAFULL */
GS_API void gs_transitionFD(const gsModel* m, gsData* d, gsReal eps, int centered, gsReal* A,
                            gsReal* B, gsReal* C, gsReal* D);

/* pipeline stages, for callers that need one of them */
GS_API void gs_kinematics(const gsModel* m, gsData* d);
GS_API void gs_comPos(const gsModel* m, gsData* d);
GS_API void gs_crb(const gsModel* m, gsData* d);
GS_API void gs_factorM(const gsModel* m, gsData* d);
GS_API void gs_comVel(const gsModel* m, gsData* d);
/* the bias c(q, v) (with_acc 0), or (M - armature) qacc + c: the bodies' inertia only */
GS_API void gs_rne(const gsModel* m, gsData* d, int with_acc, gsReal* result);
GS_API void gs_passive(const gsModel* m, gsData* d);
/* after the constraint solver: cacc, cfrc_int, cfrc_ext (MJCF's mj_rnePostConstraint) */
GS_API void gs_rnePostConstraint(const gsModel* m, gsData* d);
/* subtree_linvel and subtree_angmom, after the velocity stage (MJCF's mj_subtreeVel) */
GS_API void gs_subtreeVel(const gsModel* m, gsData* d);
/* sensors, each after the stage it reads: position, velocity, acceleration (sensordata) */
GS_API void gs_sensorPos(const gsModel* m, gsData* d);
GS_API void gs_sensorVel(const gsModel* m, gsData* d);
GS_API void gs_sensorAcc(const gsModel* m, gsData* d);
GS_API void gs_tendon(const gsModel* m, gsData* d);        /* ten_length, ten_J, tendon paths */
GS_API void gs_fwdPosition(const gsModel* m, gsData* d);
GS_API void gs_fwdVelocity(const gsModel* m, gsData* d);
GS_API void gs_fwdActuation(const gsModel* m, gsData* d);  /* actuator_*, act_dot, qfrc_actuator */
GS_API void gs_fwdAcceleration(const gsModel* m, gsData* d);
/* qpos moves with qvel for time h, in place (MJCF's mj_integratePos): free and ball quaternions
 * turn by the body-frame angular velocity, q <- q * exp(h omega / 2), and are normalised */
GS_API void gs_integratePos(const gsModel* m, gsReal* qpos, const gsReal* qvel, gsReal h);
/* the inverse (MJCF's mj_differentiatePos): qvel (nv) that moves qpos1 to qpos2 in time dt;
 * quaternions (normalised first) by the log map of q1^-1 q2 along the shorter arc, so rotations
 * up to pi; dt must be non-zero (MJCF's divides by it too) */
GS_API void gs_differentiatePos(const gsModel* m, gsReal* qvel, gsReal dt, const gsReal* qpos1,
                                const gsReal* qpos2);
GS_API void gs_normalizeQuat(const gsModel* m, gsReal* qpos);

/* energies, written to d->energy (potential, kinetic) */
GS_API void gs_energyPos(const gsModel* m, gsData* d);
GS_API void gs_energyVel(const gsModel* m, gsData* d);

/* ---- collision ---- */
GS_API void gs_collision(const gsModel* m, gsData* d);   /* broad phase, filters, narrow phase: d->contact */
GS_API int gs_contactCapacity(const gsModel* m);          /* contacts a data has room for */
GS_API gsContact* gs_dataContact(gsData* d, int* ncon, int* nconmax);   /* for bindings */
/* the narrow phase of geoms g1 and g2 at their poses in d (after gs_kinematics), without the
 * broad phase's filters: up to maxcon contacts closer than margin, with dist, pos, the normal
 * frame[0..2] from g1 towards g2, geom1 and geom2 set (the rest as gs_collision leaves it to the
 * constraint stage: unset). Returns how many, or -1 when the ids are invalid or no function
 * collides their types (plane-plane, height field-plane, height field-height field). */
GS_API int gs_collideGeoms(const gsModel* m, const gsData* d, int g1, int g2, gsReal margin,
                           gsContact* con, int maxcon);
/* ray from pnt along vec: distance in units of |vec| to the nearest geom hit (-1: none), its id in
 * *geomid (-1: none). geomgroup: 6 flags, NULL for all groups; flg_static: include geoms of bodies
 * welded to the world; bodyexclude: a body whose geoms are skipped (-1: none) */
GS_API gsReal gs_ray(const gsModel* m, const gsData* d, const gsReal pnt[3], const gsReal vec[3],
              const unsigned char* geomgroup, int flg_static, int bodyexclude, int* geomid);
/* ray against one primitive (plane, sphere, capsule, ellipsoid, cylinder, box) of the given size
 * at pos, mat: distance along vec in units of |vec|, -1 when missed or for other types */
GS_API gsReal gs_rayGeom(const gsReal pos[3], const gsReal mat[9], const gsReal size[3],
                         const gsReal pnt[3], const gsReal vec[3], int type);
/* signed distance between the surfaces of geoms g1 and g2, capped at distmax; fromto (may be
 * NULL): closest point on g1, then on g2 (zeros when the distance is distmax or more); height
 * fields are not supported (distmax) */
GS_API gsReal gs_geomDistance(const gsModel* m, const gsData* d, int g1, int g2, gsReal distmax,
                       gsReal fromto[6]);

/* ---- the mass matrix ---- */
GS_API void gs_fullM(const gsModel* m, gsReal* dst, const gsReal* M);       /* dense nv x nv from qM */
/* res = M vec (nv), from qM (after gs_crb) */
GS_API void gs_mulM(const gsModel* m, const gsData* d, gsReal* res, const gsReal* vec);
/* x = M^-1 y for n right-hand sides, each nv long, stored one after the other (n x nv, as MJCF's
 * mj_solveM); x may be y. Uses the factor qLD (after gs_factorM). */
GS_API void gs_solveM(const gsModel* m, gsData* d, gsReal* x, const gsReal* y, int n);
/* the halves of M = L^T D L (MJCF's mj_mulM2 and mj_solveM2): res = D^1/2 L vec, and
 * x = D^-1/2 L^-T y for n right-hand sides (x may be y); after gs_factorM */
GS_API void gs_mulM2(const gsModel* m, const gsData* d, gsReal* res, const gsReal* vec);
GS_API void gs_solveM2(const gsModel* m, gsData* d, gsReal* x, const gsReal* y, int n);

/* ---- Jacobians (3 x nv, row-major): jacp maps qvel to a point's linear velocity, jacr to the
 * angular velocity of its body. After the position stage (cdof, subtree_com), except gs_jacDot.
 * jacp or jacr may be NULL (not computed). A bad id writes zeros. ---- */
/* a world-frame point moving with `body` */
GS_API void gs_jac(const gsModel* m, const gsData* d, gsReal* jacp, gsReal* jacr,
            const gsReal point[3], int body);
GS_API void gs_jacBody(const gsModel* m, const gsData* d, gsReal* jacp, gsReal* jacr, int body);
GS_API void gs_jacBodyCom(const gsModel* m, const gsData* d, gsReal* jacp, gsReal* jacr, int body);
GS_API void gs_jacSite(const gsModel* m, const gsData* d, gsReal* jacp, gsReal* jacr, int site);
GS_API void gs_jacGeom(const gsModel* m, const gsData* d, gsReal* jacp, gsReal* jacr, int geom);
/* the centre of mass of the subtree rooted at body (subtree_com; body 0: the whole model), linear
 * only; zeros for a massless subtree */
GS_API void gs_jacSubtreeCom(const gsModel* m, const gsData* d, gsReal* jacp, int body);
/* jacpoint: gs_jac's jacp of point; jacaxis: d(axis)/dt per unit qvel of a world-frame axis turning
 * with body (columns jacr_j x axis) */
GS_API void gs_jacPointAxis(const gsModel* m, const gsData* d, gsReal* jacpoint, gsReal* jacaxis,
                            const gsReal point[3], const gsReal axis[3], int body);
/* d/dt of gs_jac's jacp and jacr along qvel, for a point moving with body: needs the velocity
 * stage too (cvel, cdof_dot, after gs_comVel / gs_fwdVelocity) */
GS_API void gs_jacDot(const gsModel* m, const gsData* d, gsReal* jacp, gsReal* jacr,
                      const gsReal point[3], int body);

/* ---- arena ---- */
GS_API void* gs_stackAlloc(gsData* d, size_t bytes);   /* NULL + GS_WARN_ARENAFULL when full */
GS_API size_t gs_stackMark(const gsData* d);
GS_API void gs_stackRelease(gsData* d, size_t mark);

/* ---- field introspection (drives printing and the Python views) ---- */
typedef enum { GS_TYPE_REAL = 0, GS_TYPE_INT = 1, GS_TYPE_CHAR = 2 } gsFieldType;
typedef struct {
  const char* name;
  int type;      /* gsFieldType */
  int rows;      /* for this model */
  int cols;
  void* ptr;
} gsFieldInfo;

GS_API int gs_modelSizeCount(void);
/* name of size i, with its value for m in *value (value may be NULL); NULL when out of range */
GS_API const char* gs_modelSize(const gsModel* m, int i, int* value);
/* the options of m (for bindings that do not mirror gsModel's layout) */
GS_API gsOption* gs_modelOption(gsModel* m);
GS_API gsStatistic* gs_modelStatistic(gsModel* m);
GS_API gsVisual* gs_modelVisual(gsModel* m);

GS_API int gs_modelFieldCount(void);
GS_API int gs_modelField(const gsModel* m, int i, gsFieldInfo* info);   /* 0 when i is out of range */
GS_API int gs_dataFieldCount(void);
GS_API int gs_dataField(const gsModel* m, const gsData* d, int i, gsFieldInfo* info);
/* gs_dataField of the first n fields (at most gs_dataFieldCount()) into info[0..n): one call for
 * bindings that view every field of each new data; returns how many were written */
GS_API int gs_dataFields(const gsModel* m, const gsData* d, gsFieldInfo* info, int n);
/* name of the size that the rows of field i follow ("nbody", "nv", ...); NULL when out of range */
GS_API const char* gs_modelFieldRows(int i);
GS_API const char* gs_dataFieldRows(int i);
/* constraint rows (GS_EFC_FIELDS, then efc_J_colind and efc_J): rows = nefc (nJ for the last two);
 */
GS_API int gs_dataEfcFieldCount(void);
GS_API int gs_dataEfcField(const gsData* d, int i, gsFieldInfo* info);
/* nefc, ne, nf, nl, nJ, solver iterations (the slowest island's), noslip iterations, nisland, nidof */
GS_API void gs_dataEfcCounts(const gsData* d, int counts[9]);
/* the constraint islands (gsData's GS_ISLAND_FIELDS): dof arrays of nv rows, island arrays of
 * nisland */
GS_API int gs_dataIslandFieldCount(void);
GS_API int gs_dataIslandField(const gsData* d, int i, gsFieldInfo* info);
/* iterations of the last solve: the most over the islands */
GS_API int gs_solverIterations(const gsData* d);
/* solver statistics of the last step: GS_NSOLVER records per island for GS_NISLAND islands;
 * niter (may be NULL) gets the GS_NISLAND iteration counts */
GS_API gsSolverStat* gs_dataSolver(gsData* d, int** niter);
/* solver_fwdinv (2 values) */
GS_API gsReal* gs_dataFwdinv(gsData* d);

/* ---- constraint forces ---- */
/* the force and torque of contact i in its frame (normal, tangents, then torques: 6 values);
 * zeros when the contact has no rows */
GS_API void gs_contactForce(const gsModel* m, const gsData* d, int i, gsReal result[6]);

/* print every field of the model / data, readable */
GS_API int gs_printModel(const gsModel* m, const char* path);   /* path NULL: stdout; 0 on error */
GS_API int gs_printData(const gsModel* m, const gsData* d, const char* path);

#ifdef __cplusplus
}
#endif
#endif
