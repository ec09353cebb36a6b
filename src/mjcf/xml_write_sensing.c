/* The MJCF writer's part for the sensing slice: <size> (user data sizes), the user= arrays and
 * mocap= of the tree's elements, <equality>, <sensor>, <keyframe> (every key written out in
 * full) and <custom>. */
#include <string.h>

#include "model/capacity.h"
#include "xml_write_internal.h"
#include "xml_keywords.h"

/* element names of the sensor types (gsSensorType); NULL: not written (no element reads it) */
static const char* const kSensorNames[GS_NSENSTYPE] = {
    [GS_SENS_TOUCH] = "touch", [GS_SENS_ACCELEROMETER] = "accelerometer",
    [GS_SENS_VELOCIMETER] = "velocimeter", [GS_SENS_GYRO] = "gyro", [GS_SENS_FORCE] = "force",
    [GS_SENS_TORQUE] = "torque", [GS_SENS_MAGNETOMETER] = "magnetometer",
    [GS_SENS_RANGEFINDER] = "rangefinder", [GS_SENS_CAMPROJECTION] = "camprojection",
    [GS_SENS_JOINTPOS] = "jointpos", [GS_SENS_JOINTVEL] = "jointvel",
    [GS_SENS_TENDONPOS] = "tendonpos", [GS_SENS_TENDONVEL] = "tendonvel",
    [GS_SENS_ACTUATORPOS] = "actuatorpos", [GS_SENS_ACTUATORVEL] = "actuatorvel",
    [GS_SENS_ACTUATORFRC] = "actuatorfrc", [GS_SENS_JOINTACTFRC] = "jointactuatorfrc",
    [GS_SENS_TENDONACTFRC] = "tendonactuatorfrc", [GS_SENS_BALLQUAT] = "ballquat",
    [GS_SENS_BALLANGVEL] = "ballangvel", [GS_SENS_JOINTLIMITPOS] = "jointlimitpos",
    [GS_SENS_JOINTLIMITVEL] = "jointlimitvel", [GS_SENS_JOINTLIMITFRC] = "jointlimitfrc",
    [GS_SENS_TENDONLIMITPOS] = "tendonlimitpos", [GS_SENS_TENDONLIMITVEL] = "tendonlimitvel",
    [GS_SENS_TENDONLIMITFRC] = "tendonlimitfrc", [GS_SENS_FRAMEPOS] = "framepos",
    [GS_SENS_FRAMEQUAT] = "framequat", [GS_SENS_FRAMEXAXIS] = "framexaxis",
    [GS_SENS_FRAMEYAXIS] = "frameyaxis", [GS_SENS_FRAMEZAXIS] = "framezaxis",
    [GS_SENS_FRAMELINVEL] = "framelinvel", [GS_SENS_FRAMEANGVEL] = "frameangvel",
    [GS_SENS_FRAMELINACC] = "framelinacc", [GS_SENS_FRAMEANGACC] = "frameangacc",
    [GS_SENS_SUBTREECOM] = "subtreecom", [GS_SENS_SUBTREELINVEL] = "subtreelinvel",
    [GS_SENS_SUBTREEANGMOM] = "subtreeangmom", [GS_SENS_INSIDESITE] = "insidesite",
    [GS_SENS_GEOMDIST] = "distance", [GS_SENS_GEOMNORMAL] = "normal",
    [GS_SENS_GEOMFROMTO] = "fromto", [GS_SENS_CONTACT] = "contact",
    [GS_SENS_E_POTENTIAL] = "e_potential", [GS_SENS_E_KINETIC] = "e_kinetic",
    [GS_SENS_CLOCK] = "clock", [GS_SENS_USER] = "user",
};

/* ---- <size> and the tree's elements ---- */

void gsw_writeSizeSensing(gswWriter* w) {
  const gsModel* m = w->m;
  /* the capacities, where a <size> set them (src/model/capacity.c) */
  long nconmax, njmax, nstack;
  long long memory;
  gs_capacitySettings(m, &nconmax, &njmax, &memory, &nstack);
  if (nconmax >= 0 || njmax >= 0 || nstack >= 0 || memory >= 0) {
    gsw_open(w, "size");
    if (nconmax >= 0) gsw_int(w, "nconmax", (int)nconmax);
    if (njmax >= 0) gsw_int(w, "njmax", (int)njmax);
    if (nstack >= 0) gsw_int(w, "nstack", (int)nstack);
    if (memory >= 0) gsw_int(w, "memory", (int)memory);
    gsw_end(w);
  }
  const int nuser[] = {m->nuser_body,   m->nuser_jnt,    m->nuser_geom,     m->nuser_site,
                       m->nuser_cam,    m->nuser_tendon, m->nuser_actuator, m->nuser_sensor};
  static const char* const names[] = {"nuser_body", "nuser_jnt",    "nuser_geom",
                                      "nuser_site", "nuser_cam",    "nuser_tendon",
                                      "nuser_actuator", "nuser_sensor"};
  int any = m->nuserdata > 0;
  for (int i = 0; i < 8; i++) any |= nuser[i] > 0;
  if (!any) return;
  gsw_open(w, "size");
  /* the widths of the user arrays as compiled, whatever the elements write */
  for (int i = 0; i < 8; i++)
    if (nuser[i] > 0) gsw_int(w, names[i], nuser[i]);
  if (m->nuserdata > 0) gsw_int(w, "nuserdata", m->nuserdata);
  gsw_end(w);
}

/* user= with the n values of a row, when any is not zero (zero is what a missing one gives) */
static void user_row(gswWriter* w, const gsReal* row, int n) {
  int any = 0;
  for (int k = 0; k < n; k++) any |= row[k] != 0;
  if (any) gsw_reals(w, "user", row, n);
}

void gsw_attrsSensing(gswWriter* w, int type, int id) {
  const gsModel* m = w->m;
  switch (type) {
    case GS_OBJ_BODY:
      if (m->body_mocapid[id] >= 0) gsw_bool(w, "mocap", 1);
      user_row(w, m->body_user + (size_t)id * m->nuser_body, m->nuser_body);
      break;
    case GS_OBJ_JOINT: user_row(w, m->jnt_user + (size_t)id * m->nuser_jnt, m->nuser_jnt); break;
    case GS_OBJ_GEOM: user_row(w, m->geom_user + (size_t)id * m->nuser_geom, m->nuser_geom); break;
    case GS_OBJ_SITE: user_row(w, m->site_user + (size_t)id * m->nuser_site, m->nuser_site); break;
    default: break;
  }
}

/* ---- <equality> ---- */

static void write_equality(gswWriter* w, int i) {
  const gsModel* m = w->m;
  int type = m->eq_type[i], o1 = m->eq_obj1id[i], o2 = m->eq_obj2id[i];
  const gsReal* data = m->eq_data + GS_NEQDATA * i;
  static const char* const kElem[] = {"connect", "weld", "joint", "tendon"};
  if (type < GS_EQ_CONNECT || type > GS_EQ_TENDON)
    return gsw_fail(w, "equality %d: type %d cannot be written", i, type);
  gsw_open(w, kElem[type]);
  gsw_name(w, GS_OBJ_EQUALITY, i);
  gsw_bool(w, "active", m->eq_active0[i]);
  gsw_reals(w, "solref", m->eq_solref + GS_NREF * i, GS_NREF);
  gsw_reals(w, "solimp", m->eq_solimp + GS_NIMP * i, GS_NIMP);
  if (type == GS_EQ_CONNECT || type == GS_EQ_WELD) {
    if (m->eq_objtype[i] == GS_OBJ_SITE) {
      gsw_ref(w, "site1", GS_OBJ_SITE, o1);
      gsw_ref(w, "site2", GS_OBJ_SITE, o2);
    } else {
      gsw_ref(w, "body1", GS_OBJ_BODY, o1);
      if (o2 > 0) gsw_ref(w, "body2", GS_OBJ_BODY, o2);  /* none: the world */
      gsw_reals(w, "anchor", data, 3);
      /* the relative pose as compiled (found at qpos0 when it was not given) */
      if (type == GS_EQ_WELD) gsw_reals(w, "relpose", data + 3, 7);
    }
    if (type == GS_EQ_WELD) gsw_real(w, "torquescale", data[10]);
  } else {
    int ot = type == GS_EQ_JOINT ? GS_OBJ_JOINT : GS_OBJ_TENDON;
    gsw_ref(w, type == GS_EQ_JOINT ? "joint1" : "tendon1", ot, o1);
    if (o2 >= 0) gsw_ref(w, type == GS_EQ_JOINT ? "joint2" : "tendon2", ot, o2);
    gsw_reals(w, "polycoef", data, 5);
  }
  gsw_end(w);
}

/* ---- <sensor> ---- */

static void obj_attrs(gswWriter* w, const char* typeattr, const char* nameattr, int type, int id) {
  if (type <= 0 || type >= GS_NOBJECT) return gsw_fail(w, "sensor object type %d", type);
  gsw_str(w, typeattr, gsx_objNames[type]);
  gsw_ref(w, nameattr, type, id);
}

static void write_sensor(gswWriter* w, int i) {
  const gsModel* m = w->m;
  int t = m->sensor_type[i];
  int ot = m->sensor_objtype[i], oid = m->sensor_objid[i];
  int rt = m->sensor_reftype[i], rid = m->sensor_refid[i];
  if (t < 0 || t >= GS_NSENSTYPE || !kSensorNames[t])
    return gsw_fail(w, "sensor %d: type %d cannot be written", i, t);
  gsw_open(w, kSensorNames[t]);
  gsw_name(w, GS_OBJ_SENSOR, i);
  if (t != GS_SENS_CONTACT) gsw_real(w, "noise", m->sensor_noise[i]);
  gsw_real(w, "cutoff", m->sensor_cutoff[i]);
  switch (t) {
    case GS_SENS_TOUCH: case GS_SENS_ACCELEROMETER: case GS_SENS_VELOCIMETER: case GS_SENS_GYRO:
    case GS_SENS_FORCE: case GS_SENS_TORQUE: case GS_SENS_MAGNETOMETER: case GS_SENS_RANGEFINDER:
      gsw_ref(w, "site", GS_OBJ_SITE, oid);
      break;
    case GS_SENS_CAMPROJECTION:
      gsw_ref(w, "site", GS_OBJ_SITE, oid);
      gsw_ref(w, "camera", GS_OBJ_CAMERA, rid);
      break;
    case GS_SENS_JOINTPOS: case GS_SENS_JOINTVEL: case GS_SENS_JOINTACTFRC: case GS_SENS_BALLQUAT:
    case GS_SENS_BALLANGVEL: case GS_SENS_JOINTLIMITPOS: case GS_SENS_JOINTLIMITVEL:
    case GS_SENS_JOINTLIMITFRC:
      gsw_ref(w, "joint", GS_OBJ_JOINT, oid);
      break;
    case GS_SENS_TENDONPOS: case GS_SENS_TENDONVEL: case GS_SENS_TENDONACTFRC:
    case GS_SENS_TENDONLIMITPOS: case GS_SENS_TENDONLIMITVEL: case GS_SENS_TENDONLIMITFRC:
      gsw_ref(w, "tendon", GS_OBJ_TENDON, oid);
      break;
    case GS_SENS_ACTUATORPOS: case GS_SENS_ACTUATORVEL: case GS_SENS_ACTUATORFRC:
      gsw_ref(w, "actuator", GS_OBJ_ACTUATOR, oid);
      break;
    case GS_SENS_SUBTREECOM: case GS_SENS_SUBTREELINVEL: case GS_SENS_SUBTREEANGMOM:
      gsw_ref(w, "body", GS_OBJ_BODY, oid);
      break;
    case GS_SENS_INSIDESITE:
      obj_attrs(w, "objtype", "objname", ot, oid);
      gsw_ref(w, "site", GS_OBJ_SITE, rid);
      break;
    case GS_SENS_GEOMDIST: case GS_SENS_GEOMNORMAL: case GS_SENS_GEOMFROMTO:
      gsw_ref(w, ot == GS_OBJ_GEOM ? "geom1" : "body1", ot, oid);
      gsw_ref(w, rt == GS_OBJ_GEOM ? "geom2" : "body2", rt, rid);
      break;
    case GS_SENS_CONTACT: {
      static const char* const kData[GS_NCONDATA] = {"found", "force", "torque", "dist",
                                                     "pos",   "normal", "tangent"};
      static const char* const kReduce[] = {"none", "mindist", "maxforce", "netforce"};
      const int* prm = m->sensor_intprm + GS_NSENS * i;
      if (ot != GS_OBJ_UNKNOWN)
        gsw_ref(w, ot == GS_OBJ_GEOM ? "geom1" : ot == GS_OBJ_XBODY ? "subtree1"
                   : ot == GS_OBJ_SITE ? "site" : "body1", ot == GS_OBJ_XBODY ? GS_OBJ_BODY : ot,
                oid);
      if (rt != GS_OBJ_UNKNOWN)
        gsw_ref(w, rt == GS_OBJ_GEOM ? "geom2" : rt == GS_OBJ_XBODY ? "subtree2" : "body2",
                rt == GS_OBJ_XBODY ? GS_OBJ_BODY : rt, rid);
      gsw_printf(w, " data=\"");
      const char* sep = "";
      for (int k = 0; k < GS_NCONDATA; k++)
        if (prm[0] & (1 << k)) gsw_printf(w, "%s%s", sep, kData[k]), sep = " ";
      gsw_printf(w, "\"");
      gsw_keyword(w, "reduce", kReduce, 4, prm[1]);
      gsw_int(w, "num", prm[2]);
      break;
    }
    case GS_SENS_E_POTENTIAL: case GS_SENS_E_KINETIC: case GS_SENS_CLOCK:
      break;
    case GS_SENS_USER: {
      static const char* const kDataType[] = {"real", "positive", "axis", "quaternion"};
      static const char* const kStage[] = {"none", "pos", "vel", "acc"};
      if (ot != GS_OBJ_UNKNOWN) obj_attrs(w, "objtype", "objname", ot, oid);
      gsw_keyword(w, "datatype", kDataType, 4, m->sensor_datatype[i]);
      gsw_keyword(w, "needstage", kStage, 4, m->sensor_needstage[i]);
      gsw_int(w, "dim", m->sensor_dim[i]);
      break;
    }
    default:  /* frame sensors */
      obj_attrs(w, "objtype", "objname", ot, oid);
      if (rt != GS_OBJ_UNKNOWN && t != GS_SENS_FRAMELINACC && t != GS_SENS_FRAMEANGACC)
        obj_attrs(w, "reftype", "refname", rt, rid);
      break;
  }
  user_row(w, m->sensor_user + (size_t)i * m->nuser_sensor, m->nuser_sensor);
  gsw_end(w);
}

/* ---- <keyframe> and <custom> ---- */

static void write_key(gswWriter* w, int k) {
  const gsModel* m = w->m;
  gsw_open(w, "key");
  gsw_name(w, GS_OBJ_KEY, k);
  gsw_real(w, "time", m->key_time[k]);
  if (m->nq) gsw_reals(w, "qpos", m->key_qpos + (size_t)k * m->nq, m->nq);
  if (m->nv) gsw_reals(w, "qvel", m->key_qvel + (size_t)k * m->nv, m->nv);
  if (m->na) gsw_reals(w, "act", m->key_act + (size_t)k * m->na, m->na);
  if (m->nu) gsw_reals(w, "ctrl", m->key_ctrl + (size_t)k * m->nu, m->nu);
  if (m->nmocap) {
    gsw_reals(w, "mpos", m->key_mpos + (size_t)k * 3 * m->nmocap, 3 * m->nmocap);
    gsw_reals(w, "mquat", m->key_mquat + (size_t)k * 4 * m->nmocap, 4 * m->nmocap);
  }
  gsw_end(w);
}

static void write_custom(gswWriter* w) {
  const gsModel* m = w->m;
  for (int i = 0; i < m->nnumeric; i++) {
    gsw_open(w, "numeric");
    gsw_name(w, GS_OBJ_NUMERIC, i);
    gsw_int(w, "size", m->numeric_size[i]);
    gsw_reals(w, "data", m->numeric_data + m->numeric_adr[i], m->numeric_size[i]);
    gsw_end(w);
  }
  for (int i = 0; i < m->ntext; i++) {
    gsw_open(w, "text");
    gsw_name(w, GS_OBJ_TEXT, i);
    gsw_str(w, "data", m->text_data + m->text_adr[i]);
    gsw_end(w);
  }
  for (int i = 0; i < m->ntuple; i++) {
    gsw_open(w, "tuple");
    gsw_name(w, GS_OBJ_TUPLE, i);
    gsw_begin(w);
    for (int k = m->tuple_adr[i]; k < m->tuple_adr[i] + m->tuple_size[i]; k++) {
      gsw_open(w, "element");
      obj_attrs(w, "objtype", "objname", m->tuple_objtype[k], m->tuple_objid[k]);
      gsw_real(w, "prm", m->tuple_objprm[k]);
      gsw_end(w);
    }
    gsw_close(w, "tuple");
  }
}

void gsw_writeSensingSections(gswWriter* w) {
  const gsModel* m = w->m;
  if (m->neq) {
    gsw_open(w, "equality");
    gsw_begin(w);
    for (int i = 0; i < m->neq && !w->failed; i++) write_equality(w, i);
    gsw_close(w, "equality");
  }
  if (m->nsensor) {
    gsw_open(w, "sensor");
    gsw_begin(w);
    for (int i = 0; i < m->nsensor && !w->failed; i++) write_sensor(w, i);
    gsw_close(w, "sensor");
  }
  if (m->nkey) {
    gsw_open(w, "keyframe");
    gsw_begin(w);
    for (int k = 0; k < m->nkey; k++) write_key(w, k);
    gsw_close(w, "keyframe");
  }
  if (m->nnumeric || m->ntext || m->ntuple) {
    gsw_open(w, "custom");
    gsw_begin(w);
    write_custom(w);
    gsw_close(w, "custom");
  }
}
