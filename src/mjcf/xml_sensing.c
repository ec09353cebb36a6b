/* The sensing slice of the MJCF reader: <sensor>, <equality>, <keyframe> and <custom>, and the
 * <size> values of keyframes and user data (user= itself is read by gsx_userAttr, xml_util.c).
 *
 * Several element names mean different things in different sections (<joint> and <tendon> in
 * <equality>, <contact> in <sensor>), so the attributes of these elements are checked against the
 * lists below rather than the reader's schema table. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "xml_internal.h"
#include "xml_keywords.h"

#define IS(s) (strcmp(a->name, (s)) == 0)

/* ---- helpers ---- */

/* the next white-space separated word of *p into buf (truncated to n - 1 characters); 0 at the
 * end. strtok is not used: its hidden state would make parsing on several threads unsafe. */
static int next_word(const char** p, char* buf, size_t n) {
  const char* s = *p;
  while (*s && isspace((unsigned char)*s)) s++;
  if (!*s) return 0;
  size_t k = 0;
  while (*s && !isspace((unsigned char)*s)) {
    if (k + 1 < n) buf[k++] = *s;
    s++;
  }
  buf[k] = 0;
  *p = s;
  return 1;
}

/* an object type name (body, xbody, geom, ...) */
static int obj_type(gsxCtx* c, const gsxAt* a, int* out) {
  int v;
  if (!gsx_keyword(c, a, gsx_objNames + 1, GS_NOBJECT - 1, &v)) return GSX_ERR;
  *out = v + 1;
  return GSX_OK;
}

/* how many of the space-separated attributes are present */
static int count_present(xmlNodePtr node, const char* attrs) {
  char w[32];
  int n = 0;
  while (next_word(&attrs, w, sizeof(w))) n += gsx_hasAttr(node, w);
  return n;
}

/* ---- <size> ---- */

/* <size memory>: bytes, as a whole number with an optional unit K, M, G, T, P or E (powers of
 * 1024, as MJCF reads them: "16M" is 16 MiB); "-1": chosen by the engine */
static int size_memory(gsxCtx* c, const gsxAt* a, long long* out) {
  const char* p = a->value;
  while (isspace((unsigned char)*p)) p++;
  if (strcmp(p, "-1") == 0 || (p[0] == '-' && p[1] == '1' && isspace((unsigned char)p[2]))) {
    *out = -1;
    return 1;
  }
  if (!isdigit((unsigned char)*p))
    return gsx_attrError(c, a, "expected a number of bytes with an optional unit K, M, G, T, "
                               "P or E, or -1");
  errno = 0;
  char* end;
  unsigned long long v = strtoull(p, &end, 10);
  int shift = 0;
  const char* units = "KMGTPE";
  const char* u = *end ? strchr(units, *end) : NULL;
  if (u) {
    shift = 10 * (int)(u - units + 1);
    end++;
  }
  while (isspace((unsigned char)*end)) end++;
  if (*end)
    return gsx_attrError(c, a, "expected a number of bytes with an optional unit K, M, G, T, "
                               "P or E, or -1");
  if (errno == ERANGE || v > ((unsigned long long)LLONG_MAX >> shift))
    return gsx_attrError(c, a, "too large");
  *out = (long long)(v << shift);
  return 1;
}

int gsx_sizeAttr(gsxCtx* c, gsSpec* s, const gsxAt* a) {
  int* nuser = IS("nuser_body")       ? &s->nuser_body
               : IS("nuser_jnt")      ? &s->nuser_jnt
               : IS("nuser_geom")     ? &s->nuser_geom
               : IS("nuser_site")     ? &s->nuser_site
               : IS("nuser_cam")      ? &s->nuser_cam
               : IS("nuser_tendon")   ? &s->nuser_tendon
               : IS("nuser_actuator") ? &s->nuser_actuator
               : IS("nuser_sensor")   ? &s->nuser_sensor
                                      : NULL;
  int v;
  if (nuser) {
    if (!gsx_int(c, a, &v)) return GSX_ERR;
    if (v < -1) return gsx_attrError(c, a, "must be >= -1 (-1: the longest user array)");
    *nuser = v;
    return GSX_OK;
  }
  if (IS("nkey")) {
    if (!gsx_int(c, a, &v)) return GSX_ERR;
    s->size_nkey = v;  /* a negative count asks for nothing more than the keys written */
    return GSX_OK;
  }
  if (IS("nuserdata")) {
    if (!gsx_int(c, a, &v)) return GSX_ERR;
    if (v < 0) return gsx_attrError(c, a, "must be non-negative");
    s->nuserdata = v;
    return GSX_OK;
  }
  int* count = IS("nconmax") ? &s->size_nconmax
               : IS("njmax") ? &s->size_njmax
               : IS("nstack") ? &s->size_nstack
                              : NULL;
  if (count) {
    if (!gsx_int(c, a, &v)) return GSX_ERR;
    if (v < -1) return gsx_attrError(c, a, "must be >= -1 (-1: sized by the engine)");
    /* after a memory size (this <size> or an earlier one) the legacy sizes are refused, as in
     * MJCF; a memory size after them replaces them (below) */
    if (count != &s->size_nconmax && v != -1 && s->size_memory >= 0)
      return gsx_attrError(c, a, "memory is given: it and '%s' cannot both be given", a->name);
    *count = v;
    /* nconmax and njmax size the contacts and constraint rows, nstack (MJCF's legacy stack
     * size) adds that many numbers to the arena (src/model/capacity.c) */
    return GSX_OK;
  }
  if (IS("memory")) {
    if (!size_memory(c, a, &s->size_memory)) return GSX_ERR;
    /* it replaces an earlier <size>'s njmax or nstack */
    if (s->size_memory >= 0) s->size_njmax = s->size_nstack = -1;
    return GSX_OK;
  }
  return GSX_UNUSED;
}

/* ---- <sensor> ---- */

/* how a sensor element names its objects */
enum {
  K_SITE,      /* site= */
  K_CAMPROJ,   /* site=, camera= (reference) */
  K_JOINT,     /* joint= */
  K_TENDON,    /* tendon= */
  K_ACTUATOR,  /* actuator= */
  K_FRAME,     /* objtype= objname=, optional reftype= refname= */
  K_FRAMEACC,  /* objtype= objname= */
  K_BODY,      /* body= */
  K_INSIDE,    /* objtype= objname=, site= (reference) */
  K_PAIR,      /* one of geom1= body1=, one of geom2= body2= */
  K_CONTACT,   /* at most one of geom1 body1 subtree1 site, at most one of geom2 body2 subtree2 */
  K_NONE,      /* nothing */
  K_USER,      /* dim=, optional objtype= objname= */
  K_SKIP       /* valid MJCF the engine does not compile: warned and left out */
};

typedef struct {
  const char* name;
  int type;  /* gsSensorType */
  int kind;
} SensorElem;

static const SensorElem kSensors[] = {
    {"touch", GS_SENS_TOUCH, K_SITE},
    {"accelerometer", GS_SENS_ACCELEROMETER, K_SITE},
    {"velocimeter", GS_SENS_VELOCIMETER, K_SITE},
    {"gyro", GS_SENS_GYRO, K_SITE},
    {"force", GS_SENS_FORCE, K_SITE},
    {"torque", GS_SENS_TORQUE, K_SITE},
    {"magnetometer", GS_SENS_MAGNETOMETER, K_SITE},
    {"camprojection", GS_SENS_CAMPROJECTION, K_CAMPROJ},
    {"rangefinder", GS_SENS_RANGEFINDER, K_SITE},
    {"jointpos", GS_SENS_JOINTPOS, K_JOINT},
    {"jointvel", GS_SENS_JOINTVEL, K_JOINT},
    {"tendonpos", GS_SENS_TENDONPOS, K_TENDON},
    {"tendonvel", GS_SENS_TENDONVEL, K_TENDON},
    {"actuatorpos", GS_SENS_ACTUATORPOS, K_ACTUATOR},
    {"actuatorvel", GS_SENS_ACTUATORVEL, K_ACTUATOR},
    {"actuatorfrc", GS_SENS_ACTUATORFRC, K_ACTUATOR},
    {"jointactuatorfrc", GS_SENS_JOINTACTFRC, K_JOINT},
    {"tendonactuatorfrc", GS_SENS_TENDONACTFRC, K_TENDON},
    {"ballquat", GS_SENS_BALLQUAT, K_JOINT},
    {"ballangvel", GS_SENS_BALLANGVEL, K_JOINT},
    {"jointlimitpos", GS_SENS_JOINTLIMITPOS, K_JOINT},
    {"jointlimitvel", GS_SENS_JOINTLIMITVEL, K_JOINT},
    {"jointlimitfrc", GS_SENS_JOINTLIMITFRC, K_JOINT},
    {"tendonlimitpos", GS_SENS_TENDONLIMITPOS, K_TENDON},
    {"tendonlimitvel", GS_SENS_TENDONLIMITVEL, K_TENDON},
    {"tendonlimitfrc", GS_SENS_TENDONLIMITFRC, K_TENDON},
    {"framepos", GS_SENS_FRAMEPOS, K_FRAME},
    {"framequat", GS_SENS_FRAMEQUAT, K_FRAME},
    {"framexaxis", GS_SENS_FRAMEXAXIS, K_FRAME},
    {"frameyaxis", GS_SENS_FRAMEYAXIS, K_FRAME},
    {"framezaxis", GS_SENS_FRAMEZAXIS, K_FRAME},
    {"framelinvel", GS_SENS_FRAMELINVEL, K_FRAME},
    {"frameangvel", GS_SENS_FRAMEANGVEL, K_FRAME},
    {"framelinacc", GS_SENS_FRAMELINACC, K_FRAMEACC},
    {"frameangacc", GS_SENS_FRAMEANGACC, K_FRAMEACC},
    {"subtreecom", GS_SENS_SUBTREECOM, K_BODY},
    {"subtreelinvel", GS_SENS_SUBTREELINVEL, K_BODY},
    {"subtreeangmom", GS_SENS_SUBTREEANGMOM, K_BODY},
    {"insidesite", GS_SENS_INSIDESITE, K_INSIDE},
    {"distance", GS_SENS_GEOMDIST, K_PAIR},
    {"normal", GS_SENS_GEOMNORMAL, K_PAIR},
    {"fromto", GS_SENS_GEOMFROMTO, K_PAIR},
    {"contact", GS_SENS_CONTACT, K_CONTACT},
    {"e_potential", GS_SENS_E_POTENTIAL, K_NONE},
    {"e_kinetic", GS_SENS_E_KINETIC, K_NONE},
    {"clock", GS_SENS_CLOCK, K_NONE},
    {"user", GS_SENS_USER, K_USER},
    /* tactile sensors read the vertices of a compiled mesh and plugin sensors need a plugin */
    {"tactile", GS_SENS_TACTILE, K_SKIP},
    {"plugin", GS_SENS_PLUGIN, K_SKIP},
};
#define NSENSORELEM ((int)(sizeof(kSensors) / sizeof(kSensors[0])))

/* the attributes of each kind, after "name noise cutoff user" */
static const char* kind_attrs(int kind) {
  switch (kind) {
    case K_SITE: return "site";
    case K_CAMPROJ: return "site camera";
    case K_JOINT: return "joint";
    case K_TENDON: return "tendon";
    case K_ACTUATOR: return "actuator";
    case K_FRAME: return "objtype objname reftype refname";
    case K_FRAMEACC: return "objtype objname";
    case K_BODY: return "body";
    case K_INSIDE: return "objtype objname site";
    case K_PAIR: return "geom1 geom2 body1 body2";
    case K_USER: return "objtype objname datatype needstage dim";
    default: return "";
  }
}

static const SensorElem* find_sensor(const char* name) {
  for (int i = 0; i < NSENSORELEM; i++)
    if (strcmp(kSensors[i].name, name) == 0) return &kSensors[i];
  return NULL;
}

static const char* const kConData[GS_NCONDATA] = {"found", "force", "torque", "dist",
                                                  "pos",   "normal", "tangent"};

/* data= of a contact sensor: fields in their canonical order, each at most once */
static int contact_data(gsxCtx* c, const gsxAt* a, int* bits) {
  char w[64];
  const char* p = a->value;
  int b = 0, last = -1;
  while (next_word(&p, w, sizeof(w))) {
    int k = -1;
    for (int i = 0; i < GS_NCONDATA; i++)
      if (strcmp(w, kConData[i]) == 0) k = i;
    if (k < 0)
      return gsx_attrError(c, a, "invalid value '%.40s' (allowed: found, force, torque, dist, "
                           "pos, normal, tangent)", w);
    if (k == last) return gsx_attrError(c, a, "'%s' is repeated", w);
    if (k < last)
      return gsx_attrError(c, a, "must be in the order found, force, torque, dist, pos, "
                           "normal, tangent");
    b |= 1 << k;
    last = k;
  }
  *bits = b ? b : 1 << GS_CONDATA_FOUND;  /* nothing listed: whether a contact was found */
  return GSX_OK;
}

static int set_object(gsxCtx* c, gsSpecSensor* s, int ref, int type, const gsxAt* a) {
  if (ref) {
    s->reftype = type;
    return gsx_setString(c, &s->refname, a);
  }
  s->objtype = type;
  return gsx_setString(c, &s->objname, a);
}

typedef struct {
  gsSpecSensor* s;
  int kind;
} SensorCtx;

static int set_sensor(gsxCtx* c, void* o, const gsxAt* a) {
  SensorCtx* sc = o;
  gsSpecSensor* s = sc->s;
  if (IS("noise")) return gsx_real(c, a, &s->noise);
  if (IS("cutoff")) return gsx_real(c, a, &s->cutoff);
  if (IS("user")) return gsx_userAttr(c, a, &s->user, &s->nuser);
  if (IS("site")) return set_object(c, s, sc->kind == K_INSIDE, GS_OBJ_SITE, a);
  if (IS("camera")) return set_object(c, s, 1, GS_OBJ_CAMERA, a);
  if (IS("joint")) return set_object(c, s, 0, GS_OBJ_JOINT, a);
  if (IS("tendon")) return set_object(c, s, 0, GS_OBJ_TENDON, a);
  if (IS("actuator")) return set_object(c, s, 0, GS_OBJ_ACTUATOR, a);
  if (IS("body")) return set_object(c, s, 0, GS_OBJ_BODY, a);
  if (IS("geom1")) return set_object(c, s, 0, GS_OBJ_GEOM, a);
  if (IS("body1")) return set_object(c, s, 0, GS_OBJ_BODY, a);
  if (IS("subtree1")) return set_object(c, s, 0, GS_OBJ_XBODY, a);
  if (IS("geom2")) return set_object(c, s, 1, GS_OBJ_GEOM, a);
  if (IS("body2")) return set_object(c, s, 1, GS_OBJ_BODY, a);
  if (IS("subtree2")) return set_object(c, s, 1, GS_OBJ_XBODY, a);
  if (IS("objname")) return gsx_setString(c, &s->objname, a);
  if (IS("refname")) return gsx_setString(c, &s->refname, a);
  if (IS("objtype")) {
    if (sc->kind == K_USER) {
      /* MJCF lets a user sensor name an unknown type: it then has no object */
      for (int i = 1; i < GS_NOBJECT; i++)
        if (strcmp(a->value, gsx_objNames[i]) == 0) {
          s->objtype = i;
          return GSX_OK;
        }
      gsx_warn(c, a->file, a->line, "<user>: objtype '%.40s' is not an object type: the sensor "
               "has no object", a->value);
      s->objtype = GS_OBJ_UNKNOWN;
      return GSX_OK;
    }
    return obj_type(c, a, &s->objtype);
  }
  if (IS("reftype")) return obj_type(c, a, &s->reftype);
  if (IS("dim")) return gsx_int(c, a, &s->dim);
  if (IS("datatype")) {
    static const char* const w[] = {"real", "positive", "axis", "quaternion"};
    return gsx_keyword(c, a, w, 4, &s->datatype);
  }
  if (IS("needstage")) {
    static const char* const w[] = {"none", "pos", "vel", "acc"};
    return gsx_keyword(c, a, w, 4, &s->needstage);
  }
  if (IS("data")) return contact_data(c, a, &s->intprm[0]);
  if (IS("reduce")) {
    static const char* const w[] = {"none", "mindist", "maxforce", "netforce"};
    return gsx_keyword(c, a, w, 4, &s->intprm[1]);
  }
  if (IS("num")) {
    int v;
    if (!gsx_int(c, a, &v)) return GSX_ERR;
    if (v <= 0) return gsx_attrError(c, a, "must be positive");
    s->intprm[2] = v;
    return GSX_OK;
  }
  return GSX_UNUSED;
}

/* the attributes an element must, may not, or may only together have */
static int check_sensor(gsxCtx* c, xmlNodePtr node, const gsxFile* src, const char* elem,
                        int kind) {
  int line = gsx_line(node);
  switch (kind) {
    case K_SITE: return gsx_requireAttr(c, node, src, elem, "site");
    case K_CAMPROJ:
      return gsx_requireAttr(c, node, src, elem, "site") &&
             gsx_requireAttr(c, node, src, elem, "camera");
    case K_JOINT: return gsx_requireAttr(c, node, src, elem, "joint");
    case K_TENDON: return gsx_requireAttr(c, node, src, elem, "tendon");
    case K_ACTUATOR: return gsx_requireAttr(c, node, src, elem, "actuator");
    case K_BODY: return gsx_requireAttr(c, node, src, elem, "body");
    case K_FRAME:
    case K_FRAMEACC:
    case K_INSIDE:
      if (!gsx_requireAttr(c, node, src, elem, "objtype") ||
          !gsx_requireAttr(c, node, src, elem, "objname"))
        return 0;
      if (kind == K_INSIDE) return gsx_requireAttr(c, node, src, elem, "site");
      if (gsx_hasAttr(node, "reftype") && !gsx_hasAttr(node, "refname"))
        return gsx_error(c, src->name, line, elem, "reftype is given but refname is missing");
      if (gsx_hasAttr(node, "refname") && !gsx_hasAttr(node, "reftype"))
        return gsx_error(c, src->name, line, elem, "refname is given but reftype is missing");
      return 1;
    case K_PAIR:
      if (count_present(node, "geom1 body1") != 1)
        return gsx_error(c, src->name, line, elem, "exactly one of geom1, body1 must be given");
      if (count_present(node, "geom2 body2") != 1)
        return gsx_error(c, src->name, line, elem, "exactly one of geom2, body2 must be given");
      return 1;
    case K_CONTACT:
      if (count_present(node, "geom1 body1 subtree1 site") > 1)
        return gsx_error(c, src->name, line, elem,
                         "at most one of geom1, body1, subtree1, site may be given");
      if (count_present(node, "geom2 body2 subtree2") > 1)
        return gsx_error(c, src->name, line, elem,
                         "at most one of geom2, body2, subtree2 may be given");
      return 1;
    case K_USER:
      if (!gsx_requireAttr(c, node, src, elem, "dim")) return 0;
      if (gsx_hasAttr(node, "objtype") && !gsx_hasAttr(node, "objname"))
        return gsx_error(c, src->name, line, elem, "objtype is given but objname is missing");
      if (gsx_hasAttr(node, "objname") && !gsx_hasAttr(node, "objtype"))
        return gsx_error(c, src->name, line, elem, "objname is given but objtype is missing");
      return 1;
    default:
      return 1;
  }
}

static int sensor_child(gsxCtx* c, xmlNodePtr node, const gsxFile* src, void* user) {
  (void)user;
  const char* name = gsx_name(node);
  const SensorElem* se = find_sensor(name);
  if (!se) return gsx_childError(c, node, src, "sensor");
  if (se->kind == K_SKIP) return gsx_skipElement(c, node, src);
  char attrs[200];
  if (se->kind == K_CONTACT)
    strcpy(attrs, "name cutoff user geom1 geom2 body1 body2 subtree1 subtree2 site data num "
                  "reduce");
  else
    snprintf(attrs, sizeof(attrs), "name noise cutoff user %s", kind_attrs(se->kind));
  if (!gsx_checkAttrList(c, node, src, name, attrs) || !check_sensor(c, node, src, name, se->kind))
    return 0;
  gsSpecSensor* s = gs_specAddSensor(c->spec, se->type);
  if (!s) return gsx_oom(c);
  SensorCtx sc = {s, se->kind};
  return gsx_setInfo(c, &s->info, node, src) &&
         gsx_applyOwn(c, node, src, name, set_sensor, &sc, "name") &&
         gsx_checkChildren(c, node, src, name);
}

/* ---- <equality> ---- */

static int set_equality(gsxCtx* c, void* o, const gsxAt* a) {
  gsSpecEquality* e = o;
  if (IS("active")) return gsx_bool(c, a, &e->active);
  if (IS("solref")) return gsx_reals(c, a, e->solref, 1, GS_NREF, NULL);
  if (IS("solimp")) return gsx_reals(c, a, e->solimp, 1, GS_NIMP, NULL);
  if (IS("body1") || IS("joint1") || IS("tendon1")) return gsx_setString(c, &e->name1, a);
  if (IS("body2") || IS("joint2") || IS("tendon2")) return gsx_setString(c, &e->name2, a);
  if (IS("site1")) {
    e->objtype = GS_OBJ_SITE;
    return gsx_setString(c, &e->name1, a);
  }
  if (IS("site2")) {
    e->objtype = GS_OBJ_SITE;
    return gsx_setString(c, &e->name2, a);
  }
  if (IS("anchor")) return gsx_reals(c, a, e->anchor, 3, 3, NULL);
  if (IS("relpose")) return gsx_reals(c, a, e->relpose, 7, 7, NULL);
  if (IS("torquescale")) return gsx_real(c, a, &e->torquescale);
  if (IS("polycoef")) {
    gsReal v[5] = {0, 0, 0, 0, 0};
    if (!gsx_reals(c, a, v, 1, 5, NULL)) return GSX_ERR;
    memcpy(e->polycoef, v, sizeof(v));  /* coefficients not written are zero */
    return GSX_OK;
  }
  return GSX_UNUSED;
}

#define EQ_COMMON "name class active solref solimp "

static int equality_child(gsxCtx* c, xmlNodePtr node, const gsxFile* src, void* user) {
  (void)user;
  const char* name = gsx_name(node);
  int line = gsx_line(node), type;
  const char* attrs;
  if (strcmp(name, "connect") == 0) {
    type = GS_EQ_CONNECT;
    attrs = EQ_COMMON "body1 body2 site1 site2 anchor";
  } else if (strcmp(name, "weld") == 0) {
    type = GS_EQ_WELD;
    attrs = EQ_COMMON "body1 body2 site1 site2 anchor relpose torquescale";
  } else if (strcmp(name, "joint") == 0) {
    type = GS_EQ_JOINT;
    attrs = EQ_COMMON "joint1 joint2 polycoef";
  } else if (strcmp(name, "tendon") == 0) {
    type = GS_EQ_TENDON;
    attrs = EQ_COMMON "tendon1 tendon2 polycoef";
  } else if (strcmp(name, "flex") == 0) {
    if (!gsx_checkAttrList(c, node, src, name, EQ_COMMON "flex")) return 0;
    return gsx_skipElement(c, node, src);  /* flexes are not simulated, so neither is this */
  } else {
    return gsx_childError(c, node, src, "equality");
  }
  if (!gsx_checkAttrList(c, node, src, name, attrs)) return 0;

  if (type == GS_EQ_CONNECT || type == GS_EQ_WELD) {
    int sites = count_present(node, "site1 site2");
    int bodies = count_present(node, type == GS_EQ_CONNECT ? "body1 body2 anchor"
                                                           : "body1 body2 anchor relpose");
    if (sites && bodies)
      return gsx_error(c, src->name, line, name,
                       "body and site semantics cannot be mixed (site1/site2 with body1, body2, "
                       "anchor%s)", type == GS_EQ_WELD ? ", relpose" : "");
    if (sites && sites != 2)
      return gsx_error(c, src->name, line, name, "site1 and site2 must both be given");
    if (!sites && type == GS_EQ_CONNECT &&
        (!gsx_hasAttr(node, "body1") || !gsx_hasAttr(node, "anchor")))
      return gsx_error(c, src->name, line, name,
                       "either body1 and anchor, or site1 and site2 must be given");
    if (!sites && type == GS_EQ_WELD && !gsx_hasAttr(node, "body1"))
      return gsx_error(c, src->name, line, name, "either body1, or site1 and site2 must be given");
  } else if (!gsx_requireAttr(c, node, src, name, type == GS_EQ_JOINT ? "joint1" : "tendon1")) {
    return 0;
  }

  int cls;
  if (!gsx_elementClass(c, node, src, name, "class", 0, &cls)) return 0;
  gsSpecEquality* e = gs_specAddEquality(c->spec, type);
  if (!e) return gsx_oom(c);
  return gsx_setInfo(c, &e->info, node, src) &&
         gsx_applyClass(c, cls, "equality", set_equality, e) &&
         gsx_applyOwn(c, node, src, name, set_equality, e, "name class") &&
         gsx_checkChildren(c, node, src, name);
}

/* ---- <keyframe> ---- */

typedef struct {
  gsSpecKey* k;
} KeyCtx;

static int set_key(gsxCtx* c, void* o, const gsxAt* a) {
  gsSpecKey* k = ((KeyCtx*)o)->k;
  const int max = 1 << 24;
  if (IS("time")) return gsx_real(c, a, &k->time);
  if (IS("qpos")) return gsx_realList(c, a, &k->qpos, &k->nqpos, max);
  if (IS("qvel")) return gsx_realList(c, a, &k->qvel, &k->nqvel, max);
  if (IS("act")) return gsx_realList(c, a, &k->act, &k->nact, max);
  if (IS("ctrl")) return gsx_realList(c, a, &k->ctrl, &k->nctrl, max);
  if (IS("mpos")) return gsx_realList(c, a, &k->mpos, &k->nmpos, max);
  if (IS("mquat")) return gsx_realList(c, a, &k->mquat, &k->nmquat, max);
  return GSX_UNUSED;
}

static int key_child(gsxCtx* c, xmlNodePtr node, const gsxFile* src, void* user) {
  (void)user;
  const char* name = gsx_name(node);
  if (strcmp(name, "key") != 0)
    return gsx_childError(c, node, src, "keyframe");
  if (!gsx_checkAttrList(c, node, src, name, "name time qpos qvel act ctrl mpos mquat")) return 0;
  gsSpecKey* k = gs_specAddKey(c->spec);
  if (!k) return gsx_oom(c);
  KeyCtx kc = {k};
  if (!gsx_setInfo(c, &k->info, node, src) ||
      !gsx_applyOwn(c, node, src, name, set_key, &kc, "name"))
    return 0;
  /* an empty vector is the same as none */
  if (k->qpos && !k->nqpos) { free(k->qpos); k->qpos = NULL; }
  if (k->qvel && !k->nqvel) { free(k->qvel); k->qvel = NULL; }
  if (k->act && !k->nact) { free(k->act); k->act = NULL; }
  if (k->ctrl && !k->nctrl) { free(k->ctrl); k->ctrl = NULL; }
  if (k->mpos && !k->nmpos) { free(k->mpos); k->mpos = NULL; }
  if (k->mquat && !k->nmquat) { free(k->mquat); k->mquat = NULL; }
  return gsx_checkChildren(c, node, src, name);
}

/* ---- <custom> ---- */

#define GSX_MAX_NUMERIC 500  /* MJCF's bound on the size of a numeric field */

static int set_numeric(gsxCtx* c, void* o, const gsxAt* a) {
  gsSpecNumeric* n = o;
  if (IS("size")) {
    int v;
    if (!gsx_int(c, a, &v)) return GSX_ERR;
    if (v < 1 || v > GSX_MAX_NUMERIC)
      return gsx_attrError(c, a, "must be between 1 and %d", GSX_MAX_NUMERIC);
    n->size = v;
    return GSX_OK;
  }
  if (IS("data")) return gsx_realList(c, a, &n->data, &n->ndata, GSX_MAX_NUMERIC);
  return GSX_UNUSED;
}

static int set_text(gsxCtx* c, void* o, const gsxAt* a) {
  gsSpecText* t = o;
  if (IS("data")) {
    if (!a->value[0]) return gsx_attrError(c, a, "text cannot be empty");
    return gsx_setString(c, &t->data, a);
  }
  return GSX_UNUSED;
}

static int set_element(gsxCtx* c, void* o, const gsxAt* a) {
  gsSpecTupleElement* e = o;
  if (IS("objtype")) return obj_type(c, a, &e->objtype);
  if (IS("objname")) return gsx_setString(c, &e->objname, a);
  if (IS("prm")) return gsx_real(c, a, &e->prm);
  return GSX_UNUSED;
}

static int tuple_child(gsxCtx* c, xmlNodePtr node, const gsxFile* src, void* user) {
  gsSpecTuple* t = user;
  const char* name = gsx_name(node);
  if (strcmp(name, "element") != 0)
    return gsx_childError(c, node, src, "tuple");
  if (!gsx_checkAttrList(c, node, src, name, "objtype objname prm") ||
      !gsx_requireAttr(c, node, src, name, "objtype") ||
      !gsx_requireAttr(c, node, src, name, "objname"))
    return 0;
  gsSpecTupleElement* e = gs_specAddTupleElement(t);
  if (!e) return gsx_oom(c);
  return gsx_applyOwn(c, node, src, name, set_element, e, NULL) &&
         gsx_checkChildren(c, node, src, name);
}

static int custom_child(gsxCtx* c, xmlNodePtr node, const gsxFile* src, void* user) {
  (void)user;
  const char* name = gsx_name(node);
  int line = gsx_line(node);
  if (strcmp(name, "numeric") == 0) {
    if (!gsx_checkAttrList(c, node, src, name, "name size data") ||
        !gsx_requireAttr(c, node, src, name, "name"))
      return 0;
    gsSpecNumeric* n = gs_specAddNumeric(c->spec);
    if (!n) return gsx_oom(c);
    if (!gsx_setInfo(c, &n->info, node, src) ||
        !gsx_applyOwn(c, node, src, name, set_numeric, n, "name"))
      return 0;
    if (n->size < 0 && n->ndata == 0)
      return gsx_error(c, src->name, line, name, "size or data must be given (1 to %d values)",
                       GSX_MAX_NUMERIC);
    if (n->size >= 0 && n->ndata > n->size)
      return gsx_error(c, src->name, line, name, "data has %d values, more than size %d",
                       n->ndata, n->size);
    return gsx_checkChildren(c, node, src, name);
  }
  if (strcmp(name, "text") == 0) {
    if (!gsx_checkAttrList(c, node, src, name, "name data") ||
        !gsx_requireAttr(c, node, src, name, "name") ||
        !gsx_requireAttr(c, node, src, name, "data"))
      return 0;
    gsSpecText* t = gs_specAddText(c->spec);
    if (!t) return gsx_oom(c);
    return gsx_setInfo(c, &t->info, node, src) &&
           gsx_applyOwn(c, node, src, name, set_text, t, "name") &&
           gsx_checkChildren(c, node, src, name);
  }
  if (strcmp(name, "tuple") == 0) {
    if (!gsx_checkAttrList(c, node, src, name, "name") ||
        !gsx_requireAttr(c, node, src, name, "name"))
      return 0;
    gsSpecTuple* t = gs_specAddTuple(c->spec);
    if (!t) return gsx_oom(c);
    return gsx_setInfo(c, &t->info, node, src) && gsx_eachChild(c, node, src, tuple_child, t);
  }
  return gsx_childError(c, node, src, "custom");
}

/* ---- the hooks ---- */

int gsx_readSensingSection(gsxCtx* c, xmlNodePtr node, const gsxFile* src) {
  const char* name = gsx_name(node);
  gsxChildFn fn = strcmp(name, "sensor") == 0     ? sensor_child
                  : strcmp(name, "equality") == 0 ? equality_child
                  : strcmp(name, "keyframe") == 0 ? key_child
                  : strcmp(name, "custom") == 0   ? custom_child
                                                  : NULL;
  if (!fn) return -1;
  return gsx_checkAttrList(c, node, src, name, "") && gsx_eachChild(c, node, src, fn, NULL);
}

int gsx_checkDefaultSensing(gsxCtx* c, xmlNodePtr node, const gsxFile* src) {
  if (strcmp(gsx_name(node), "equality") != 0) return -1;
  gsSpecEquality scratch;
  memset(&scratch, 0, sizeof(scratch));
  int ok = gsx_checkAttrList(c, node, src, "equality", "active solref solimp") &&
           gsx_applyOwn(c, node, src, "equality", set_equality, &scratch, NULL);
  return ok;
}

const char* gsx_attrsSensing(const char* element) {
  /* names that mean one element only; <joint>, <tendon>, <contact>, <flex>, <plugin> belong to
   * several sections and are checked by the readers themselves */
  static const struct {
    const char* elem;
    const char* attrs;
  } kTable[] = {
      {"sensor", ""},
      {"equality", ""},
      {"keyframe", ""},
      {"custom", ""},
      {"connect", EQ_COMMON "body1 body2 site1 site2 anchor"},
      {"weld", EQ_COMMON "body1 body2 site1 site2 anchor relpose torquescale"},
      {"key", "name time qpos qvel act ctrl mpos mquat"},
      {"numeric", "name size data"},
      {"text", "name data"},
      {"tuple", "name"},
      {"element", "objtype objname prm"},
  };
  for (size_t i = 0; i < sizeof(kTable) / sizeof(kTable[0]); i++)
    if (strcmp(kTable[i].elem, element) == 0) return kTable[i].attrs;
  const SensorElem* se = find_sensor(element);
  if (!se || se->kind == K_SKIP || se->kind == K_CONTACT || strcmp(element, "contact") == 0)
    return NULL;
  /* the name noise cutoff user prefix is common to the rest; kind_attrs gives the remainder */
  switch (se->kind) {
    case K_SITE: return "name noise cutoff user site";
    case K_CAMPROJ: return "name noise cutoff user site camera";
    case K_JOINT: return "name noise cutoff user joint";
    case K_TENDON: return "name noise cutoff user tendon";
    case K_ACTUATOR: return "name noise cutoff user actuator";
    case K_FRAME: return "name noise cutoff user objtype objname reftype refname";
    case K_FRAMEACC: return "name noise cutoff user objtype objname";
    case K_BODY: return "name noise cutoff user body";
    case K_INSIDE: return "name noise cutoff user objtype objname site";
    case K_PAIR: return "name noise cutoff user geom1 geom2 body1 body2";
    case K_USER: return "name noise cutoff user objtype objname datatype needstage dim";
    default: return "name noise cutoff user";
  }
}
