/* The sensing slice of the compiler: mocap bodies, user data of the tree, equality constraints,
 * sensors, keyframes and custom data. Objects are found by name in the model being built, so
 * sensors and constraints may name tendons, actuators and cameras of the earlier slices. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/math.h"
#include "model/check.h"
#include "model/compile.h"

#define MAX_NUMERIC 500  /* MJCF's bound on the size of a numeric field */

/* element names of the sensor types, for messages */
static const char* const kSensorName[GS_NSENSTYPE] = {
    "touch", "accelerometer", "velocimeter", "gyro", "force", "torque", "magnetometer",
    "rangefinder", "camprojection", "jointpos", "jointvel", "tendonpos", "tendonvel",
    "actuatorpos", "actuatorvel", "actuatorfrc", "jointactuatorfrc", "tendonactuatorfrc",
    "ballquat", "ballangvel", "jointlimitpos", "jointlimitvel", "jointlimitfrc", "tendonlimitpos",
    "tendonlimitvel", "tendonlimitfrc", "framepos", "framequat", "framexaxis", "frameyaxis",
    "framezaxis", "framelinvel", "frameangvel", "framelinacc", "frameangacc", "subtreecom",
    "subtreelinvel", "subtreeangmom", "insidesite", "distance", "normal", "fromto", "contact",
    "e_potential", "e_kinetic", "clock", "tactile", "plugin", "user"};

static const char* const kEqName[] = {"connect", "weld", "joint", "tendon", "flex", "distance"};

static const char* const kObjName[GS_NOBJECT] = {
    "object", "body", "xbody", "joint", "dof", "geom", "site", "camera", "light", "flex", "mesh",
    "skin", "hfield", "texture", "material", "pair", "exclude", "equality", "tendon", "actuator",
    "sensor", "numeric", "text", "tuple", "key", "plugin"};

/* what each sensor type outputs and when: datatype, stage, number of values */
typedef struct {
  int datatype, stage, dim;
} SensorProps;

#define R GS_DATATYPE_REAL
#define P GS_DATATYPE_POSITIVE
#define A GS_DATATYPE_AXIS
#define Q GS_DATATYPE_QUATERNION
#define SPOS GS_STAGE_POS
#define SVEL GS_STAGE_VEL
#define SACC GS_STAGE_ACC
static const SensorProps kProps[GS_NSENSTYPE] = {
    [GS_SENS_TOUCH] = {P, SACC, 1},          [GS_SENS_ACCELEROMETER] = {R, SACC, 3},
    [GS_SENS_VELOCIMETER] = {R, SVEL, 3},    [GS_SENS_GYRO] = {R, SVEL, 3},
    [GS_SENS_FORCE] = {R, SACC, 3},          [GS_SENS_TORQUE] = {R, SACC, 3},
    [GS_SENS_MAGNETOMETER] = {R, SPOS, 3},   [GS_SENS_RANGEFINDER] = {P, SPOS, 1},
    [GS_SENS_CAMPROJECTION] = {R, SPOS, 2},  [GS_SENS_JOINTPOS] = {R, SPOS, 1},
    [GS_SENS_JOINTVEL] = {R, SVEL, 1},       [GS_SENS_TENDONPOS] = {R, SPOS, 1},
    [GS_SENS_TENDONVEL] = {R, SVEL, 1},      [GS_SENS_ACTUATORPOS] = {R, SPOS, 1},
    [GS_SENS_ACTUATORVEL] = {R, SVEL, 1},    [GS_SENS_ACTUATORFRC] = {R, SACC, 1},
    [GS_SENS_JOINTACTFRC] = {R, SACC, 1},    [GS_SENS_TENDONACTFRC] = {R, SACC, 1},
    [GS_SENS_BALLQUAT] = {Q, SPOS, 4},       [GS_SENS_BALLANGVEL] = {R, SVEL, 3},
    [GS_SENS_JOINTLIMITPOS] = {R, SPOS, 1},  [GS_SENS_JOINTLIMITVEL] = {R, SVEL, 1},
    [GS_SENS_JOINTLIMITFRC] = {R, SACC, 1},  [GS_SENS_TENDONLIMITPOS] = {R, SPOS, 1},
    [GS_SENS_TENDONLIMITVEL] = {R, SVEL, 1}, [GS_SENS_TENDONLIMITFRC] = {R, SACC, 1},
    [GS_SENS_FRAMEPOS] = {R, SPOS, 3},       [GS_SENS_FRAMEQUAT] = {Q, SPOS, 4},
    [GS_SENS_FRAMEXAXIS] = {A, SPOS, 3},     [GS_SENS_FRAMEYAXIS] = {A, SPOS, 3},
    [GS_SENS_FRAMEZAXIS] = {A, SPOS, 3},     [GS_SENS_FRAMELINVEL] = {R, SVEL, 3},
    [GS_SENS_FRAMEANGVEL] = {R, SVEL, 3},    [GS_SENS_FRAMELINACC] = {R, SACC, 3},
    [GS_SENS_FRAMEANGACC] = {R, SACC, 3},    [GS_SENS_SUBTREECOM] = {R, SPOS, 3},
    [GS_SENS_SUBTREELINVEL] = {R, SVEL, 3},  [GS_SENS_SUBTREEANGMOM] = {R, SVEL, 3},
    [GS_SENS_INSIDESITE] = {P, SPOS, 1},     [GS_SENS_GEOMDIST] = {R, SPOS, 1},
    [GS_SENS_GEOMNORMAL] = {A, SPOS, 3},     [GS_SENS_GEOMFROMTO] = {R, SPOS, 6},
    [GS_SENS_CONTACT] = {R, SACC, 0},        [GS_SENS_E_POTENTIAL] = {R, SPOS, 1},
    [GS_SENS_E_KINETIC] = {R, SPOS, 1},      [GS_SENS_CLOCK] = {R, SPOS, 1},
    [GS_SENS_TACTILE] = {R, SACC, 0},        [GS_SENS_PLUGIN] = {R, SACC, 0},
    [GS_SENS_USER] = {R, SACC, 0},
};
#undef R
#undef P
#undef A
#undef Q
#undef SPOS
#undef SVEL
#undef SACC

/* values per slot of a contact sensor: found, force, torque, dist, pos, normal, tangent */
static const int kConDataSize[GS_NCONDATA] = {1, 3, 3, 1, 3, 3, 3};

static const char* sensor_kind(const gsSpecSensor* s) {
  return s->type >= 0 && s->type < GS_NSENSTYPE ? kSensorName[s->type] : "sensor";
}

static const char* eq_kind(const gsSpecEquality* e) {
  return e->type >= 0 && e->type <= GS_EQ_DISTANCE ? kEqName[e->type] : "equality";
}

/* number of values of a sensor; -1 after reporting an error */
static int sensor_dim(gsCompileCtx* c, const gsSpecSensor* s) {
  if (s->type < 0 || s->type >= GS_NSENSTYPE || s->type == GS_SENS_TACTILE ||
      s->type == GS_SENS_PLUGIN) {
    gs_compileFail(c, &s->info, sensor_kind(s), "sensor type %d is not supported", s->type);
    return -1;
  }
  if (s->type == GS_SENS_CONTACT) {
    if (s->intprm[2] <= 0) {
      gs_compileFail(c, &s->info, "contact", "num must be positive");
      return -1;
    }
    int per = 0;
    for (int k = 0; k < GS_NCONDATA; k++)
      if (s->intprm[0] & (1 << k)) per += kConDataSize[k];
    return per * s->intprm[2];
  }
  if (s->type == GS_SENS_USER) {
    if (s->dim < 0) {
      gs_compileFail(c, &s->info, "user", "dim must be non-negative");
      return -1;
    }
    if (s->datatype == GS_DATATYPE_AXIS && s->dim != 3) {
      gs_compileFail(c, &s->info, "user", "datatype axis requires dim 3");
      return -1;
    }
    if (s->datatype == GS_DATATYPE_QUATERNION && s->dim != 4) {
      gs_compileFail(c, &s->info, "user", "datatype quaternion requires dim 4");
      return -1;
    }
    return s->dim;
  }
  return kProps[s->type].dim;
}

/* the user= arrays of one kind of element of the tree, in model order */
enum { U_BODY, U_JOINT, U_GEOM, U_SITE };
static const char* const kUserKind[] = {"body", "joint", "geom", "site"};

typedef struct {
  const gsReal* user;
  int nuser;
  const gsSpecInfo* info;
} UserRef;

/* the elements of one kind, written to out when it is not NULL; returns how many */
static int tree_users(const gsCompileCtx* c, int kind, UserRef* out) {
  int n = 0;
  for (int b = 0; b < c->nbody; b++) {
    const gsSpecBody* sb = c->body[b];
    if (kind == U_BODY) {
      if (out) out[n] = (UserRef){sb->user, sb->nuser, &sb->info};
      n++;
      continue;
    }
    int k = kind == U_JOINT ? sb->njoint : kind == U_GEOM ? sb->ngeom : sb->nsite;
    for (int i = 0; i < k; i++, n++) {
      if (!out) continue;
      if (kind == U_JOINT) {
        const gsSpecJoint* e = sb->joint[i];
        out[n] = (UserRef){e->user, e->nuser, &e->info};
      } else if (kind == U_GEOM) {
        const gsSpecGeom* e = sb->geom[i];
        out[n] = (UserRef){e->user, e->nuser, &e->info};
      } else {
        const gsSpecSite* e = sb->site[i];
        out[n] = (UserRef){e->user, e->nuser, &e->info};
      }
    }
  }
  return n;
}

/* the user arrays of one kind (malloc'd, *n of them); NULL after an error */
static UserRef* tree_user_list(gsCompileCtx* c, int kind, int* n) {
  *n = tree_users(c, kind, NULL);
  UserRef* list = malloc(sizeof(UserRef) * (size_t)(*n ? *n : 1));
  if (!list) {
    gs_compileFail(c, NULL, "model", "out of memory");
    return NULL;
  }
  tree_users(c, kind, list);
  return list;
}

/* columns of a kind's user data: as <size> asks (-1: the longest array); -1 after an error */
static int tree_user_columns(gsCompileCtx* c, int kind, int requested, const char* size) {
  int n, cols = 0;
  UserRef* list = tree_user_list(c, kind, &n);
  if (!list) return -1;
  for (int i = 0; i < n; i++) {
    if (requested >= 0 && list[i].nuser > requested) {
      gs_compileFail(c, list[i].info, kUserKind[kind], "user has %d values, more than %s = %d",
                     list[i].nuser, size, requested);
      free(list);
      return -1;
    }
    if (list[i].nuser > cols) cols = list[i].nuser;
  }
  free(list);
  return requested >= 0 ? requested : cols;
}

/* copy a kind's user arrays into its model field (zero-padded to cols) */
static int tree_user_fill(gsCompileCtx* c, int kind, gsReal* dst, int cols) {
  int n;
  UserRef* list = tree_user_list(c, kind, &n);
  if (!list) return 0;
  for (int i = 0; i < n && cols > 0; i++)
    if (list[i].nuser)
      memcpy(dst + (size_t)cols * i, list[i].user, sizeof(gsReal) * (size_t)list[i].nuser);
  free(list);
  return 1;
}

int gs_compileSizesSensing(gsCompileCtx* c, gsModel* sz) {
  const gsSpec* spec = c->spec;

  /* mocap bodies */
  for (int b = 1; b < c->nbody; b++) sz->nmocap += c->body[b]->mocap != 0;

  /* user data columns */
  if ((sz->nuser_body = tree_user_columns(c, U_BODY, spec->nuser_body, "nuser_body")) < 0 ||
      (sz->nuser_jnt = tree_user_columns(c, U_JOINT, spec->nuser_jnt, "nuser_jnt")) < 0 ||
      (sz->nuser_geom = tree_user_columns(c, U_GEOM, spec->nuser_geom, "nuser_geom")) < 0 ||
      (sz->nuser_site = tree_user_columns(c, U_SITE, spec->nuser_site, "nuser_site")) < 0)
    return 0;
  sz->nuserdata = spec->nuserdata;
  if (sz->nuserdata < 0) return gs_compileFail(c, NULL, "size", "nuserdata must be non-negative");

  /* equality constraints */
  sz->neq = spec->nequality;
  for (int i = 0; i < spec->nequality; i++)
    sz->nnames += (int)gs_compileNameBytes(&spec->equality[i]->info);

  /* sensors */
  sz->nsensor = spec->nsensor;
  int longest = 0;
  for (int i = 0; i < spec->nsensor; i++) {
    const gsSpecSensor* s = spec->sensor[i];
    int dim = sensor_dim(c, s);
    if (dim < 0) return 0;
    sz->nsensordata += dim;
    sz->nnames += (int)gs_compileNameBytes(&s->info);
    if (s->nuser > longest) longest = s->nuser;
  }
  sz->nuser_sensor = spec->nuser_sensor < 0 ? longest : spec->nuser_sensor;
  for (int i = 0; i < spec->nsensor; i++)
    if (spec->sensor[i]->nuser > sz->nuser_sensor)
      return gs_compileFail(c, &spec->sensor[i]->info, sensor_kind(spec->sensor[i]),
                            "user has %d values, more than nuser_sensor = %d",
                            spec->sensor[i]->nuser, sz->nuser_sensor);

  /* keyframes: those written, and more with the model's defaults up to <size nkey> */
  sz->nkey = spec->nkey > spec->size_nkey ? spec->nkey : spec->size_nkey;
  for (int i = 0; i < spec->nkey; i++) sz->nnames += (int)gs_compileNameBytes(&spec->key[i]->info);
  sz->nnames += sz->nkey - spec->nkey;  /* unnamed */

  /* custom data */
  sz->nnumeric = spec->nnumeric;
  for (int i = 0; i < spec->nnumeric; i++) {
    const gsSpecNumeric* n = spec->numeric[i];
    int size = n->size >= 0 ? n->size : n->ndata;
    if (size < 1 || size > MAX_NUMERIC)
      return gs_compileFail(c, &n->info, "numeric", "size must be between 1 and %d", MAX_NUMERIC);
    if (n->ndata > size)
      return gs_compileFail(c, &n->info, "numeric", "data has %d values, more than size %d",
                            n->ndata, size);
    sz->nnumericdata += size;
    sz->nnames += (int)gs_compileNameBytes(&n->info);
  }
  sz->ntext = spec->ntext;
  for (int i = 0; i < spec->ntext; i++) {
    const gsSpecText* t = spec->text[i];
    if (!t->data || !t->data[0]) return gs_compileFail(c, &t->info, "text", "text cannot be empty");
    sz->ntextdata += (int)strlen(t->data) + 1;
    sz->nnames += (int)gs_compileNameBytes(&t->info);
  }
  sz->ntuple = spec->ntuple;
  for (int i = 0; i < spec->ntuple; i++) {
    const gsSpecTuple* t = spec->tuple[i];
    if (t->nelement == 0) return gs_compileFail(c, &t->info, "tuple", "tuple is empty");
    sz->ntupledata += t->nelement;
    sz->nnames += (int)gs_compileNameBytes(&t->info);
  }
  return 1;
}

/* ---- lookups ---- */

/* an int field of the model by name (another slice's), NULL when it has none */
static const int* int_field(const gsModel* m, const char* name) {
  gsFieldInfo fi;
  for (int i = 0; gs_modelField(m, i, &fi); i++)
    if (strcmp(fi.name, name) == 0) return fi.type == GS_TYPE_INT ? fi.ptr : NULL;
  return NULL;
}

/* index of the first element whose non-empty name an earlier one has, -1 when none */
static int repeated(void* const* list, int n) {
  for (int i = 1; i < n; i++) {
    const gsSpecInfo* a = list[i];  /* every element struct starts with its info */
    if (!a->name || !a->name[0]) continue;
    for (int k = 0; k < i; k++) {
      const gsSpecInfo* b = list[k];
      if (b->name && strcmp(a->name, b->name) == 0) return i;
    }
  }
  return -1;
}

static int repeated_fail(gsCompileCtx* c, const gsSpecInfo* info, const char* kind,
                         const char* what) {
  return gs_compileFail(c, info, kind, "repeated name '%s' (names of %s must be unique)",
                        info->name, what);
}

/* names are unique within each kind of object */
static int check_names(gsCompileCtx* c) {
  const gsSpec* s = c->spec;
  int r;
  if ((r = repeated((void* const*)s->equality, s->nequality)) >= 0)
    return repeated_fail(c, &s->equality[r]->info, eq_kind(s->equality[r]), "equality constraints");
  if ((r = repeated((void* const*)s->sensor, s->nsensor)) >= 0)
    return repeated_fail(c, &s->sensor[r]->info, sensor_kind(s->sensor[r]), "sensors");
  if ((r = repeated((void* const*)s->key, s->nkey)) >= 0)
    return repeated_fail(c, &s->key[r]->info, "key", "keyframes");
  if ((r = repeated((void* const*)s->numeric, s->nnumeric)) >= 0)
    return repeated_fail(c, &s->numeric[r]->info, "numeric", "numeric fields");
  if ((r = repeated((void* const*)s->text, s->ntext)) >= 0)
    return repeated_fail(c, &s->text[r]->info, "text", "text fields");
  if ((r = repeated((void* const*)s->tuple, s->ntuple)) >= 0)
    return repeated_fail(c, &s->tuple[r]->info, "tuple", "tuples");
  return 1;
}

/* ---- equality constraints ---- */

static int compile_equality(gsCompileCtx* c, gsModel* m, int i) {
  const gsSpecEquality* e = c->spec->equality[i];
  const char* kind = eq_kind(e);
  int objtype, id1, id2 = -1;
  switch (e->type) {
    case GS_EQ_CONNECT:
    case GS_EQ_WELD:
      objtype = e->objtype;
      if (objtype != GS_OBJ_BODY && objtype != GS_OBJ_SITE)
        return gs_compileFail(c, &e->info, kind, "objects must be bodies or sites");
      if (objtype == GS_OBJ_SITE && (!e->name1 || !e->name2))
        return gs_compileFail(c, &e->info, kind, "site1 and site2 must both be given");
      break;
    case GS_EQ_JOINT: objtype = GS_OBJ_JOINT; break;
    case GS_EQ_TENDON: objtype = GS_OBJ_TENDON; break;
    default:
      return gs_compileFail(c, &e->info, kind, "equality type %d is not supported", e->type);
  }
  if (!e->name1) return gs_compileFail(c, &e->info, kind, "the first object is not given");
  id1 = gs_compileObjectId(m, objtype, e->name1);
  if (id1 < 0)
    return gs_compileFail(c, &e->info, kind, "unknown %s '%s'", kObjName[objtype], e->name1);
  if (e->name2) {
    id2 = gs_compileObjectId(m, objtype, e->name2);
    if (id2 < 0)
      return gs_compileFail(c, &e->info, kind, "unknown %s '%s'", kObjName[objtype], e->name2);
  } else if (objtype == GS_OBJ_BODY) {
    id2 = 0;  /* the world */
  }
  if (id1 == id2)
    return gs_compileFail(c, &e->info, kind, "both objects are %s '%s'", kObjName[objtype],
                          objtype == GS_OBJ_BODY && id1 == 0 ? "world" : e->name1);
  if (objtype == GS_OBJ_JOINT)
    for (int k = 0; k < 2; k++) {
      int j = k ? id2 : id1;
      if (j >= 0 && m->jnt_type[j] != GS_JNT_HINGE && m->jnt_type[j] != GS_JNT_SLIDE)
        return gs_compileFail(c, &e->info, kind, "joint '%s' must be a hinge or a slide",
                              k ? e->name2 : e->name1);
    }
  for (int k = 0; k < GS_NREF; k++)
    if (!isfinite(e->solref[k])) return gs_compileFail(c, &e->info, kind, "solref is not finite");

  m->name_eqadr[i] = gs_compileName(c, m, &e->info);
  m->eq_type[i] = e->type;
  m->eq_obj1id[i] = id1;
  m->eq_obj2id[i] = id2;
  /* MJCF records the object type of connect and weld constraints only */
  m->eq_objtype[i] = e->type == GS_EQ_CONNECT || e->type == GS_EQ_WELD ? objtype : GS_OBJ_UNKNOWN;
  m->eq_active0[i] = e->active != 0;
  memcpy(m->eq_solref + GS_NREF * i, e->solref, sizeof(e->solref));
  memcpy(m->eq_solimp + GS_NIMP * i, e->solimp, sizeof(e->solimp));

  /* eq_data in MJCF's layout; what depends on the configuration is done at qpos0 */
  gsReal* data = m->eq_data + GS_NEQDATA * i;
  memset(data, 0, GS_NEQDATA * sizeof(gsReal));
  switch (e->type) {
    case GS_EQ_CONNECT:
      if (objtype == GS_OBJ_BODY) {
        gs_copy3(data, e->anchor);
        data[10] = e->torquescale;
      }
      break;
    case GS_EQ_WELD:
      if (objtype == GS_OBJ_BODY) {
        gs_copy3(data, e->anchor);
        memcpy(data + 3, e->relpose, 7 * sizeof(gsReal));
      } else {
        data[1] = 1;  /* as MJCF stores a site weld: a leftover of its defaults, unused */
      }
      data[10] = e->torquescale;
      break;
    default:
      memcpy(data, e->polycoef, 5 * sizeof(gsReal));
      data[10] = e->torquescale;
      break;
  }
  return 1;
}

/* ---- sensors ---- */

static const char kFrameTypes[] = "body, xbody, geom, site or camera";

static int frame_type(int t) {
  return t == GS_OBJ_BODY || t == GS_OBJ_XBODY || t == GS_OBJ_GEOM || t == GS_OBJ_SITE ||
         t == GS_OBJ_CAMERA;
}

void gs_sensorObjects(int t, int objtype, int reftype, int* obj_ok, int* ref_ok) {
  switch (t) {
    case GS_SENS_TOUCH: case GS_SENS_ACCELEROMETER: case GS_SENS_VELOCIMETER: case GS_SENS_GYRO:
    case GS_SENS_FORCE: case GS_SENS_TORQUE: case GS_SENS_MAGNETOMETER: case GS_SENS_RANGEFINDER:
      *obj_ok = objtype == GS_OBJ_SITE, *ref_ok = reftype == GS_OBJ_UNKNOWN;
      break;
    case GS_SENS_CAMPROJECTION:
      *obj_ok = objtype == GS_OBJ_SITE, *ref_ok = reftype == GS_OBJ_CAMERA;
      break;
    case GS_SENS_JOINTPOS: case GS_SENS_JOINTVEL: case GS_SENS_JOINTACTFRC: case GS_SENS_BALLQUAT:
    case GS_SENS_BALLANGVEL: case GS_SENS_JOINTLIMITPOS: case GS_SENS_JOINTLIMITVEL:
    case GS_SENS_JOINTLIMITFRC:
      *obj_ok = objtype == GS_OBJ_JOINT, *ref_ok = reftype == GS_OBJ_UNKNOWN;
      break;
    case GS_SENS_TENDONPOS: case GS_SENS_TENDONVEL: case GS_SENS_TENDONACTFRC:
    case GS_SENS_TENDONLIMITPOS: case GS_SENS_TENDONLIMITVEL: case GS_SENS_TENDONLIMITFRC:
      *obj_ok = objtype == GS_OBJ_TENDON, *ref_ok = reftype == GS_OBJ_UNKNOWN;
      break;
    case GS_SENS_ACTUATORPOS: case GS_SENS_ACTUATORVEL: case GS_SENS_ACTUATORFRC:
      *obj_ok = objtype == GS_OBJ_ACTUATOR, *ref_ok = reftype == GS_OBJ_UNKNOWN;
      break;
    case GS_SENS_FRAMEPOS: case GS_SENS_FRAMEQUAT: case GS_SENS_FRAMEXAXIS: case GS_SENS_FRAMEYAXIS:
    case GS_SENS_FRAMEZAXIS: case GS_SENS_FRAMELINVEL: case GS_SENS_FRAMEANGVEL:
    case GS_SENS_FRAMELINACC: case GS_SENS_FRAMEANGACC:
      *obj_ok = frame_type(objtype), *ref_ok = reftype == GS_OBJ_UNKNOWN || frame_type(reftype);
      break;
    case GS_SENS_SUBTREECOM: case GS_SENS_SUBTREELINVEL: case GS_SENS_SUBTREEANGMOM:
      *obj_ok = objtype == GS_OBJ_BODY, *ref_ok = reftype == GS_OBJ_UNKNOWN;
      break;
    case GS_SENS_INSIDESITE:
      *obj_ok = frame_type(objtype), *ref_ok = reftype == GS_OBJ_SITE;
      break;
    case GS_SENS_GEOMDIST: case GS_SENS_GEOMNORMAL: case GS_SENS_GEOMFROMTO:
      *obj_ok = objtype == GS_OBJ_GEOM || objtype == GS_OBJ_BODY;
      *ref_ok = reftype == GS_OBJ_GEOM || reftype == GS_OBJ_BODY;
      break;
    case GS_SENS_CONTACT:
      *obj_ok = objtype == GS_OBJ_UNKNOWN || objtype == GS_OBJ_GEOM || objtype == GS_OBJ_BODY ||
                objtype == GS_OBJ_XBODY || objtype == GS_OBJ_SITE;
      *ref_ok = reftype == GS_OBJ_UNKNOWN || reftype == GS_OBJ_GEOM || reftype == GS_OBJ_BODY ||
                reftype == GS_OBJ_XBODY;
      break;
    case GS_SENS_E_POTENTIAL: case GS_SENS_E_KINETIC: case GS_SENS_CLOCK:
      *obj_ok = objtype == GS_OBJ_UNKNOWN, *ref_ok = reftype == GS_OBJ_UNKNOWN;
      break;
    case GS_SENS_USER:  /* any object, or none */
      *obj_ok = objtype >= 0 && objtype < GS_NOBJECT, *ref_ok = reftype == GS_OBJ_UNKNOWN;
      break;
    default:  /* tactile, plugin: not compiled */
      *obj_ok = *ref_ok = 0;
      break;
  }
}

int gs_sensorDim(int t, const int intprm[GS_NSENS]) {
  if (t < 0 || t >= GS_NSENSTYPE || t == GS_SENS_USER || t == GS_SENS_TACTILE || t == GS_SENS_PLUGIN)
    return -1;
  if (t != GS_SENS_CONTACT) return kProps[t].dim;
  int per = 0;
  for (int k = 0; k < GS_NCONDATA; k++)
    if (intprm[0] & (1 << k)) per += kConDataSize[k];
  return per * intprm[2];
}

/* resolve one named object of a sensor; *id stays -1 when there is none */
static int sensor_object(gsCompileCtx* c, const gsModel* m, const gsSpecSensor* s, int type,
                         const char* name, int* id) {
  *id = -1;
  if (type == GS_OBJ_UNKNOWN) return 1;
  if (type < 0 || type >= GS_NOBJECT)
    return gs_compileFail(c, &s->info, sensor_kind(s), "invalid object type %d", type);
  if (!name)
    return gs_compileFail(c, &s->info, sensor_kind(s), "the %s is not named", kObjName[type]);
  *id = gs_compileObjectId(m, type, name);
  if (*id < 0)
    return gs_compileFail(c, &s->info, sensor_kind(s), "unknown %s '%s'", kObjName[type], name);
  return 1;
}

static int compile_sensor(gsCompileCtx* c, gsModel* m, int i, int* adr) {
  const gsSpecSensor* s = c->spec->sensor[i];
  const char* kind = sensor_kind(s);
  int t = s->type, objtype = s->objtype, reftype = s->reftype, objid, refid;
  int dim = sensor_dim(c, s);
  if (dim < 0) return 0;

  /* the object types each sensor type accepts */
  if ((t == GS_SENS_FRAMEPOS || t == GS_SENS_FRAMEQUAT || t == GS_SENS_FRAMEXAXIS ||
       t == GS_SENS_FRAMEYAXIS || t == GS_SENS_FRAMEZAXIS || t == GS_SENS_FRAMELINVEL ||
       t == GS_SENS_FRAMEANGVEL || t == GS_SENS_FRAMELINACC || t == GS_SENS_FRAMEANGACC ||
       t == GS_SENS_INSIDESITE) && !frame_type(objtype))
    return gs_compileFail(c, &s->info, kind, "objtype must be %s", kFrameTypes);
  if (t >= GS_SENS_FRAMEPOS && t <= GS_SENS_FRAMEANGACC && reftype != GS_OBJ_UNKNOWN &&
      !frame_type(reftype))
    return gs_compileFail(c, &s->info, kind, "reftype must be %s", kFrameTypes);
  int obj_ok, ref_ok;
  gs_sensorObjects(t, objtype, reftype, &obj_ok, &ref_ok);
  if (!obj_ok)
    return gs_compileFail(c, &s->info, kind, "cannot sense a %s",
                          objtype >= 0 && objtype < GS_NOBJECT ? kObjName[objtype] : "object");
  if (!ref_ok) return gs_compileFail(c, &s->info, kind, "invalid reference object type");
  if (!sensor_object(c, m, s, objtype, s->objname, &objid) ||
      !sensor_object(c, m, s, reftype, s->refname, &refid))
    return 0;

  /* conditions on the objects */
  if (objtype == GS_OBJ_JOINT) {
    int jt = m->jnt_type[objid];
    if ((t == GS_SENS_JOINTPOS || t == GS_SENS_JOINTVEL || t == GS_SENS_JOINTACTFRC) &&
        jt != GS_JNT_SLIDE && jt != GS_JNT_HINGE)
      return gs_compileFail(c, &s->info, kind, "joint '%s' must be a slide or a hinge", s->objname);
    if ((t == GS_SENS_BALLQUAT || t == GS_SENS_BALLANGVEL) && jt != GS_JNT_BALL)
      return gs_compileFail(c, &s->info, kind, "joint '%s' must be a ball joint", s->objname);
    if ((t == GS_SENS_JOINTLIMITPOS || t == GS_SENS_JOINTLIMITVEL || t == GS_SENS_JOINTLIMITFRC) &&
        !m->jnt_limited[objid])
      return gs_compileFail(c, &s->info, kind, "joint '%s' must be limited", s->objname);
  }
  /* pixels need an image size */
  if (t == GS_SENS_CAMPROJECTION &&
      (m->cam_resolution[2 * refid] <= 0 || m->cam_resolution[2 * refid + 1] <= 0))
    return gs_compileFail(c, &s->info, kind, "camera '%s' has no resolution", s->refname);
  if (t == GS_SENS_TENDONLIMITPOS || t == GS_SENS_TENDONLIMITVEL || t == GS_SENS_TENDONLIMITFRC) {
    const int* limited = int_field(m, "tendon_limited");
    if (!limited || !limited[objid])
      return gs_compileFail(c, &s->info, kind, "tendon '%s' must be limited", s->objname);
  }
  if ((t == GS_SENS_GEOMDIST || t == GS_SENS_GEOMNORMAL || t == GS_SENS_GEOMFROMTO) &&
      objtype == reftype && objid == refid)
    return gs_compileFail(c, &s->info, kind, "the two objects must differ");
  if (!(s->noise >= 0)) return gs_compileFail(c, &s->info, kind, "noise must be non-negative");
  if (!(s->cutoff >= 0)) return gs_compileFail(c, &s->info, kind, "cutoff must be non-negative");
  /* a unit vector or quaternion cannot be cut off; a geom normal's cutoff is the largest distance
   * looked for instead */
  int datatype = t == GS_SENS_USER ? s->datatype : kProps[t].datatype;
  if (s->cutoff > 0 && t != GS_SENS_GEOMNORMAL &&
      (datatype == GS_DATATYPE_AXIS || datatype == GS_DATATYPE_QUATERNION))
    return gs_compileFail(c, &s->info, kind, "cutoff cannot apply to a unit vector or quaternion");

  m->name_sensoradr[i] = gs_compileName(c, m, &s->info);
  m->sensor_type[i] = t;
  m->sensor_datatype[i] = datatype;
  m->sensor_needstage[i] = t == GS_SENS_USER ? s->needstage : kProps[t].stage;
  m->sensor_objtype[i] = objtype;
  m->sensor_objid[i] = objid;
  m->sensor_reftype[i] = reftype;
  m->sensor_refid[i] = refid;
  if (t == GS_SENS_CONTACT) memcpy(m->sensor_intprm + GS_NSENS * i, s->intprm, sizeof(s->intprm));
  m->sensor_dim[i] = dim;
  m->sensor_adr[i] = *adr;
  *adr += dim;
  m->sensor_cutoff[i] = s->cutoff;
  m->sensor_noise[i] = s->noise;
  if (s->nuser)
    memcpy(m->sensor_user + (size_t)m->nuser_sensor * i, s->user,
           sizeof(gsReal) * (size_t)s->nuser);
  m->sensor_plugin[i] = -1;
  return 1;
}

/* ---- keyframes ---- */

/* normalise a quaternion, leaving a zero one as it is */
static void normalize_nonzero(gsReal q[4]) {
  gsReal n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (n >= GS_MINVAL)
    for (int k = 0; k < 4; k++) q[k] /= n;
}

static int key_vector(gsCompileCtx* c, const gsSpecKey* k, const char* what, const gsReal* v, int n,
                      int expected, gsReal* dst) {
  if (!v) return 1;
  if (n > expected)
    return gs_compileFail(c, &k->info, "key", "%s has %d values, the model has %d", what, n,
                          expected);
  /* values not written are zero (MJCF's rule) */
  memset(dst, 0, sizeof(gsReal) * (size_t)expected);
  memcpy(dst, v, sizeof(gsReal) * (size_t)n);
  return 1;
}

static int compile_key(gsCompileCtx* c, gsModel* m, int i) {
  gsReal* qpos = m->key_qpos + (size_t)m->nq * i;
  gsReal* mpos = m->key_mpos + (size_t)3 * m->nmocap * i;
  gsReal* mquat = m->key_mquat + (size_t)4 * m->nmocap * i;
  /* the model's defaults; the vectors of other keys are zero already */
  memcpy(qpos, m->qpos0, sizeof(gsReal) * (size_t)m->nq);
  for (int b = 0; b < m->nbody; b++) {
    int id = m->body_mocapid[b];
    if (id < 0) continue;
    gs_copy3(mpos + 3 * id, m->body_pos + 3 * b);
    gs_copy4(mquat + 4 * id, m->body_quat + 4 * b);
  }
  if (i >= c->spec->nkey) {
    m->name_keyadr[i] = gs_compileName(c, m, &(gsSpecInfo){NULL, NULL, 0});
    return 1;
  }

  const gsSpecKey* k = c->spec->key[i];
  m->name_keyadr[i] = gs_compileName(c, m, &k->info);
  if (!isfinite(k->time)) return gs_compileFail(c, &k->info, "key", "time is not finite");
  m->key_time[i] = k->time;
  if (!key_vector(c, k, "qpos", k->qpos, k->nqpos, m->nq, qpos) ||
      !key_vector(c, k, "qvel", k->qvel, k->nqvel, m->nv, m->key_qvel + (size_t)m->nv * i) ||
      !key_vector(c, k, "act", k->act, k->nact, m->na, m->key_act + (size_t)m->na * i) ||
      !key_vector(c, k, "ctrl", k->ctrl, k->nctrl, m->nu, m->key_ctrl + (size_t)m->nu * i))
    return 0;
  /* a NaN stands for the model's default: the keys of attached sub-models (src/mjcf/xml_attach.c)
   * give values for the sub-model's joints only */
  for (int j = 0; k->qpos && j < m->nq; j++)
    if (isnan(qpos[j])) qpos[j] = m->qpos0[j];
  if (k->qpos)
    for (int j = 0; j < m->njnt; j++) {
      int t = m->jnt_type[j], adr = m->jnt_qposadr[j];
      if (t == GS_JNT_BALL) gs_normalize4(qpos + adr);
      if (t == GS_JNT_FREE) gs_normalize4(qpos + adr + 3);
    }

  /* mocap poses: a body that the values do not cover keeps the pose its element wrote (for the
   * orientation: its quat=, as MJCF reads it) */
  if (k->mpos && k->nmpos > 3 * m->nmocap)
    return gs_compileFail(c, &k->info, "key", "mpos has %d values, the model has %d", k->nmpos,
                          3 * m->nmocap);
  if (k->mquat && k->nmquat > 4 * m->nmocap)
    return gs_compileFail(c, &k->info, "key", "mquat has %d values, the model has %d",
                          k->nmquat, 4 * m->nmocap);
  for (int b = 0; b < c->nbody; b++) {
    int id = m->body_mocapid[b];
    if (id < 0) continue;
    if (k->mpos) {
      /* NaN: not given (an attached sub-model's key, src/mjcf/xml_attach.c) */
      if (3 * id + 3 <= k->nmpos && !isnan(k->mpos[3 * id])) gs_copy3(mpos + 3 * id, k->mpos + 3 * id);
      else gs_copy3(mpos + 3 * id, c->body[b]->pos);
    }
    if (k->mquat) {
      if (4 * id + 4 <= k->nmquat && !isnan(k->mquat[4 * id])) {
        gs_copy4(mquat + 4 * id, k->mquat + 4 * id);
        normalize_nonzero(mquat + 4 * id);
      } else {
        gs_copy4(mquat + 4 * id, c->body[b]->orient.quat);
        gs_normalize4(mquat + 4 * id);
      }
    }
  }
  return 1;
}

/* ---- custom data ---- */

static int compile_tuple(gsCompileCtx* c, gsModel* m, int i, int* adr) {
  const gsSpecTuple* t = c->spec->tuple[i];
  m->name_tupleadr[i] = gs_compileName(c, m, &t->info);
  m->tuple_adr[i] = *adr;
  m->tuple_size[i] = t->nelement;
  for (int k = 0; k < t->nelement; k++, (*adr)++) {
    const gsSpecTupleElement* e = t->element[k];
    if (e->objtype <= GS_OBJ_UNKNOWN || e->objtype >= GS_NOBJECT)
      return gs_compileFail(c, &t->info, "tuple", "element %d: invalid object type %d", k,
                            e->objtype);
    int id = gs_compileObjectId(m, e->objtype, e->objname);
    if (id < 0)
      return gs_compileFail(c, &t->info, "tuple", "element %d: unknown %s '%s'", k,
                            kObjName[e->objtype], e->objname ? e->objname : "");
    m->tuple_objtype[*adr] = e->objtype;
    m->tuple_objid[*adr] = id;
    m->tuple_objprm[*adr] = e->prm;
  }
  return 1;
}

int gs_compileSensing(gsCompileCtx* c, gsModel* m) {
  const gsSpec* spec = c->spec;

  /* mocap bodies: fixed children of the world, so that their pose is theirs alone */
  int nmocap = 0;
  for (int b = 0; b < m->nbody; b++) {
    m->body_mocapid[b] = -1;
    if (b == 0 || !c->body[b]->mocap) continue;
    if (m->body_parentid[b] != 0 || m->body_jntnum[b] != 0)
      return gs_compileFail(c, &c->body[b]->info, "body",
                            "a mocap body must be a child of the world without joints");
    m->body_mocapid[b] = nmocap++;
  }

  /* user data of the tree */
  if (!tree_user_fill(c, U_BODY, m->body_user, m->nuser_body) ||
      !tree_user_fill(c, U_JOINT, m->jnt_user, m->nuser_jnt) ||
      !tree_user_fill(c, U_GEOM, m->geom_user, m->nuser_geom) ||
      !tree_user_fill(c, U_SITE, m->site_user, m->nuser_site))
    return 0;

  if (!check_names(c)) return 0;

  for (int i = 0; i < m->neq; i++)
    if (!compile_equality(c, m, i)) return 0;

  int adr = 0;
  for (int i = 0; i < m->nsensor; i++)
    if (!compile_sensor(c, m, i, &adr)) return 0;

  for (int i = 0; i < m->nkey; i++)
    if (!compile_key(c, m, i)) return 0;

  adr = 0;
  for (int i = 0; i < m->nnumeric; i++) {
    const gsSpecNumeric* n = spec->numeric[i];
    m->name_numericadr[i] = gs_compileName(c, m, &n->info);
    m->numeric_adr[i] = adr;
    m->numeric_size[i] = n->size >= 0 ? n->size : n->ndata;
    if (n->ndata) memcpy(m->numeric_data + adr, n->data, sizeof(gsReal) * (size_t)n->ndata);
    adr += m->numeric_size[i];
  }
  adr = 0;
  for (int i = 0; i < m->ntext; i++) {
    const gsSpecText* t = spec->text[i];
    size_t len = strlen(t->data) + 1;
    m->name_textadr[i] = gs_compileName(c, m, &t->info);
    m->text_adr[i] = adr;
    m->text_size[i] = (int)len;
    memcpy(m->text_data + adr, t->data, len);
    adr += (int)len;
  }
  /* tuples last: they may name any object, keys and custom fields included */
  adr = 0;
  for (int i = 0; i < m->ntuple; i++)
    if (!compile_tuple(c, m, i, &adr)) return 0;
  return 1;
}

/* ---- at qpos0: the poses equality constraints keep ---- */

int gs_compileSensingAtQpos0(gsCompileCtx* c, gsModel* m, gsData* d) {
  (void)c;
  for (int i = 0; i < m->neq; i++) {
    int type = m->eq_type[i];
    if ((type != GS_EQ_CONNECT && type != GS_EQ_WELD) || m->eq_objtype[i] != GS_OBJ_BODY) continue;
    gsReal* data = m->eq_data + GS_NEQDATA * i;
    int b1 = m->eq_obj1id[i], b2 = m->eq_obj2id[i];
    const gsReal *x1 = d->xpos + 3 * b1, *q1 = d->xquat + 4 * b1;
    const gsReal *x2 = d->xpos + 3 * b2, *q2 = d->xquat + 4 * b2;
    gsReal p[3], r[3], qinv[4];
    if (type == GS_EQ_CONNECT) {
      /* the anchor, given in body1's frame, in body2's frame */
      gs_rotVecQuat(p, data, q1);
      gs_add3(p, p, x1);
      gs_sub3(p, p, x2);
      gs_negQuat(qinv, q2);
      gs_rotVecQuat(data + 3, p, qinv);
    } else if (sqrt(gs_dot3(data + 6, data + 6) + data[9] * data[9]) < GS_MINVAL) {
      /* no relative pose given: the one at qpos0, of body2's anchor point and orientation in
       * body1's frame */
      gs_rotVecQuat(p, data, q2);
      gs_add3(p, p, x2);
      gs_sub3(r, p, x1);
      gs_negQuat(qinv, q1);
      gs_rotVecQuat(data + 3, r, qinv);
      gs_mulQuat(data + 6, qinv, q2);
      gs_normalize4(data + 6);
    } else {
      gs_normalize4(data + 6);
    }
  }
  return 1;
}
