/* The actuation slice of the MJCF reader: <tendon> (fixed and spatial tendons with their paths),
 * <actuator> (general and every shortcut), and their <default> kinds.
 *
 * MJCF's shortcuts (motor, position, velocity, intvelocity, damper, cylinder, muscle, adhesion)
 * are not separate element types: each is <general> with some parameters implied. A default class
 * holds one actuator default, which every actuator element of the class (whatever its kind)
 * modifies in document order; an actuator element starts from its class's default and applies its
 * own kind in the same way. So an actuator is built by replaying, root class first, each
 * actuator element of each class in the chain, then the element itself, through one function
 * (apply_kind) that sets the attributes given and then the parameters the kind implies. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "xml_internal.h"
#include "xml_keywords.h"

#define IS(s) (strcmp(a->name, (s)) == 0)


/* ---- the schema of the slice's elements ---- */

typedef enum {
  K_GENERAL = 0, K_MOTOR, K_POSITION, K_VELOCITY, K_INTVELOCITY, K_DAMPER, K_CYLINDER, K_MUSCLE,
  K_ADHESION, K_NKIND
} ActKind;

static const char* const kActKinds[K_NKIND] = {"general", "motor",    "position", "velocity",
                                               "intvelocity", "damper", "cylinder", "muscle",
                                               "adhesion"};

/* attributes of each actuator kind in the <actuator> section and in <default> (where names,
 * classes, transmission targets and length ranges have no place) */
#define ACT_TARGETS "joint jointinparent tendon cranksite slidersite site refsite "
static const char* const kActAttrs[K_NKIND] = {
    "name class group ctrllimited forcelimited actlimited ctrlrange forcerange actrange "
    "lengthrange gear cranklength user dyntype gaintype biastype dynprm gainprm biasprm actdim "
    "actearly body " ACT_TARGETS,
    "name class group ctrllimited forcelimited ctrlrange forcerange lengthrange gear cranklength "
    "user " ACT_TARGETS,
    "name class group ctrllimited forcelimited ctrlrange forcerange lengthrange gear cranklength "
    "user kp kv dampratio timeconst inheritrange " ACT_TARGETS,
    "name class group ctrllimited forcelimited ctrlrange forcerange lengthrange gear cranklength "
    "user kv " ACT_TARGETS,
    "name class group ctrllimited forcelimited ctrlrange forcerange actrange lengthrange gear "
    "cranklength user kp kv dampratio inheritrange " ACT_TARGETS,
    "name class group forcelimited ctrlrange forcerange lengthrange gear cranklength user "
    "kv " ACT_TARGETS,
    "name class group ctrllimited forcelimited ctrlrange forcerange lengthrange gear cranklength "
    "user timeconst area diameter bias " ACT_TARGETS,
    "name class group ctrllimited forcelimited ctrlrange forcerange lengthrange gear cranklength "
    "user timeconst tausmooth range force scale lmin lmax vmax fpmax fvmax joint jointinparent "
    "tendon cranksite slidersite",
    "name class group forcelimited ctrlrange forcerange gain user body",
};
static const char* const kActDefaultAttrs[K_NKIND] = {
    "group ctrllimited forcelimited actlimited ctrlrange forcerange actrange gear cranklength user "
    "dyntype gaintype biastype dynprm gainprm biasprm actdim actearly",
    "group ctrllimited forcelimited ctrlrange forcerange gear cranklength user",
    "group ctrllimited forcelimited ctrlrange forcerange gear cranklength user kp kv dampratio "
    "timeconst inheritrange",
    "group ctrllimited forcelimited ctrlrange forcerange gear cranklength user kv",
    "group ctrllimited forcelimited ctrlrange forcerange actrange gear cranklength user kp kv "
    "dampratio inheritrange",
    "group forcelimited ctrlrange forcerange gear cranklength user kv",
    "group ctrllimited forcelimited ctrlrange forcerange gear cranklength user timeconst area "
    "diameter bias",
    "group ctrllimited forcelimited ctrlrange forcerange gear cranklength user timeconst range "
    "force scale lmin lmax vmax fpmax fvmax",
    "group forcelimited ctrlrange forcerange gain user",
};

#define TENDON_COMMON                                                                              \
  "group limited range margin solreflimit solimplimit solreffriction solimpfriction "             \
  "frictionloss springlength stiffness damping user "
static const char kFixedAttrs[] =
    "name class " TENDON_COMMON "armature actuatorfrclimited actuatorfrcrange";
static const char kSpatialAttrs[] =
    "name class " TENDON_COMMON "armature actuatorfrclimited actuatorfrcrange width material rgba";
static const char kTendonDefaultAttrs[] = TENDON_COMMON "width material rgba";

static int act_kind(const char* name) {
  for (int k = 0; k < K_NKIND; k++)
    if (strcmp(name, kActKinds[k]) == 0) return k;
  return -1;
}

const char* gsx_attrsActuation(const char* element) {
  /* the section elements take no attributes; tendon path elements (site, geom, joint) share their
   * names with the tree's and are checked by this file itself */
  if (strcmp(element, "tendon") == 0 || strcmp(element, "actuator") == 0) return "";
  if (strcmp(element, "fixed") == 0) return kFixedAttrs;
  if (strcmp(element, "spatial") == 0) return kSpatialAttrs;
  if (strcmp(element, "pulley") == 0) return "divisor";
  int k = act_kind(element);
  return k >= 0 ? kActAttrs[k] : NULL;
}

static int count_attrs(xmlNodePtr node) {
  int n = 0;
  for (xmlAttrPtr at = node->properties; at; at = at->next) n += gsx_isMjcfAttr(at);
  return n;
}

/* tendons' path elements and actuators take no child elements */
static int no_child(gsxCtx* c, xmlNodePtr ch, const gsxFile* src, void* user) {
  return gsx_childError(c, ch, src, (const char*)user);
}

static int no_children(gsxCtx* c, xmlNodePtr node, const gsxFile* src, const char* elem) {
  return gsx_eachChild(c, node, src, no_child, (void*)elem);
}

/* ---- values ---- */

static int nonneg(gsxCtx* c, const gsxAt* a, gsReal* out) {
  gsReal v;
  if (!gsx_real(c, a, &v)) return GSX_ERR;
  if (v < 0) return gsx_attrError(c, a, "must not be negative (got %g)", v);
  *out = v;
  return GSX_OK;
}

/* ---- tendons ---- */

static int set_tendon(gsxCtx* c, void* obj, const gsxAt* a) {
  gsSpecTendon* t = obj;
  if (IS("group")) return gsx_int(c, a, &t->group);
  if (IS("limited")) return gsx_keyword(c, a, gsx_falseTrueAuto, 3, &t->limited);
  if (IS("range")) return gsx_reals(c, a, t->range, 2, 2, NULL);
  if (IS("actuatorfrclimited")) return gsx_keyword(c, a, gsx_falseTrueAuto, 3, &t->actfrclimited);
  if (IS("actuatorfrcrange")) return gsx_reals(c, a, t->actfrcrange, 2, 2, NULL);
  if (IS("margin")) return gsx_real(c, a, &t->margin);
  if (IS("solreflimit")) return gsx_reals(c, a, t->solref_limit, 1, GS_NREF, NULL);
  if (IS("solimplimit")) return gsx_reals(c, a, t->solimp_limit, 1, GS_NIMP, NULL);
  if (IS("solreffriction")) return gsx_reals(c, a, t->solref_friction, 1, GS_NREF, NULL);
  if (IS("solimpfriction")) return gsx_reals(c, a, t->solimp_friction, 1, GS_NIMP, NULL);
  if (IS("frictionloss")) return nonneg(c, a, &t->frictionloss);
  if (IS("width")) return nonneg(c, a, &t->width);
  if (IS("material")) return gsx_setString(c, &t->material, a);
  if (IS("rgba")) return gsx_reals(c, a, t->rgba, 4, 4, NULL);
  if (IS("springlength")) {
    gsReal v[2];
    int n;
    if (!gsx_reals(c, a, v, 1, 2, &n)) return GSX_ERR;
    /* one value: a spring without a dead band */
    t->springlength[0] = v[0];
    t->springlength[1] = n == 2 ? v[1] : v[0];
    return GSX_OK;
  }
  if (IS("stiffness")) return nonneg(c, a, &t->stiffness);
  if (IS("damping")) return nonneg(c, a, &t->damping);
  if (IS("armature")) return nonneg(c, a, &t->armature);
  if (IS("user")) return gsx_userAttr(c, a, &t->user, &t->nuser);
  return GSX_UNUSED;
}

/* one element of a path: <site site>, <geom geom sidesite>, <pulley divisor>, <joint joint coef> */
static int read_wrap(gsxCtx* c, xmlNodePtr node, const gsxFile* src, gsSpecTendon* t) {
  const char* name = gsx_name(node);
  int line = gsx_line(node);
  const char* parent = t->spatial ? "spatial" : "fixed";
  int kind = !t->spatial && strcmp(name, "joint") == 0 ? GS_PATH_JOINT
             : t->spatial && strcmp(name, "site") == 0  ? GS_PATH_SITE
             : t->spatial && strcmp(name, "geom") == 0  ? GS_PATH_GEOM
             : t->spatial && strcmp(name, "pulley") == 0 ? GS_PATH_PULLEY
                                                          : -1;
  if (kind < 0)
    return gsx_childError(c, node, src, parent);
  static const char* const kAttrs[] = {"joint coef", "site", "geom sidesite", "divisor"};
  static const char* const kRequired[][2] = {{"joint", "coef"}, {"site", NULL}, {"geom", NULL},
                                             {"divisor", NULL}};
  if (!gsx_checkAttrList(c, node, src, name, kAttrs[kind])) return 0;
  for (int i = 0; i < 2; i++)
    if (kRequired[kind][i] && !gsx_hasAttr(node, kRequired[kind][i]))
      return gsx_error(c, src->name, line, name, "missing required attribute '%s'",
                       kRequired[kind][i]);
  gsSpecWrap* w = gs_specAddWrap(t, kind);
  if (!w) return gsx_oom(c);
  w->info.file = src->name;
  w->info.line = line;
  for (xmlAttrPtr at = node->properties; at; at = at->next) {
    if (!gsx_isMjcfAttr(at)) continue;
    xmlChar* v = gsx_attrValue(c, at);
    if (!v) return gsx_oom(c);
    gsxAt a = {name, (const char*)at->name, (const char*)v, src->name, line};
    int ok;
    if (strcmp(a.name, "coef") == 0 || strcmp(a.name, "divisor") == 0)
      ok = gsx_real(c, &a, &w->prm);
    else if (strcmp(a.name, "sidesite") == 0)
      ok = gs_specSetString(&w->sidesite, a.value) ? 1 : gsx_oom(c);
    else
      ok = gs_specSetString(&w->target, a.value) ? 1 : gsx_oom(c);
    xmlFree(v);
    if (!ok) return 0;
  }
  return no_children(c, node, src, name);
}

static int wrap_child(gsxCtx* c, xmlNodePtr ch, const gsxFile* src, void* user) {
  return read_wrap(c, ch, src, user);
}

static int read_tendon(gsxCtx* c, xmlNodePtr node, const gsxFile* src, int spatial) {
  const char* elem = spatial ? "spatial" : "fixed";
  int cls;
  if (!gsx_checkAttrs(c, node, src, elem, 0)) return 0;
  /* tendons live outside the tree: no childclass reaches them, "main" applies */
  if (!gsx_elementClass(c, node, src, elem, "class", 0, &cls)) return 0;
  gsSpecTendon* t = gs_specAddTendon(c->spec, spatial);
  if (!t) return gsx_oom(c);
  if (!gsx_setInfo(c, &t->info, node, src) ||
      !gsx_applyClass(c, cls, "tendon", set_tendon, t) ||
      !gsx_applyOwn(c, node, src, elem, set_tendon, t, "name class") ||
      !gsx_eachChild(c, node, src, wrap_child, t))
    return 0;
  return 1;
}

static int tendon_child(gsxCtx* c, xmlNodePtr ch, const gsxFile* src, void* user) {
  (void)user;
  const char* name = gsx_name(ch);
  if (strcmp(name, "spatial") == 0) return read_tendon(c, ch, src, 1);
  if (strcmp(name, "fixed") == 0) return read_tendon(c, ch, src, 0);
  return gsx_childError(c, ch, src, "tendon");
}

/* ---- actuators ---- */

/* what one actuator element (or default) gives, beyond the fields of the general form */
typedef struct {
  gsSpecActuator* act;
  int kind;               /* ActKind */
  int ntarget;            /* transmission targets given */
  int has_slider;         /* cranklength or slidersite given */
  int has_refsite;
  /* shortcut parameters: value and whether given */
  gsReal kp, kv, dampratio, timeconst[2], inheritrange, area, diameter, bias[3], gain;
  gsReal tausmooth, range[2], force, scale, lmin, lmax, vmax, fpmax, fvmax;
  int has_kp, has_kv, has_dampratio, has_timeconst, has_inheritrange, has_area, has_diameter,
      has_bias, has_gain, has_tausmooth, has_range, has_force, has_scale, has_lmin, has_lmax,
      has_vmax, has_fpmax, has_fvmax;
} ActState;

static int set_target(gsxCtx* c, ActState* s, const gsxAt* a, int trntype) {
  if (++s->ntarget > 1)
    return gsx_attrError(c, a, "an actuator has at most one transmission target "
                               "(joint, jointinparent, tendon, site, cranksite, body)");
  s->act->trntype = trntype;
  return gsx_setString(c, &s->act->target, a);
}

/* a real shortcut parameter, with its given flag */
static int set_param(gsxCtx* c, const gsxAt* a, gsReal* v, int* given) {
  if (!gsx_real(c, a, v)) return GSX_ERR;
  *given = 1;
  return GSX_OK;
}

static int set_actuator(gsxCtx* c, void* obj, const gsxAt* a) {
  ActState* s = obj;
  gsSpecActuator* t = s->act;
  /* the general form */
  if (IS("group")) return gsx_int(c, a, &t->group);
  if (IS("ctrllimited")) return gsx_keyword(c, a, gsx_falseTrueAuto, 3, &t->ctrllimited);
  if (IS("forcelimited")) return gsx_keyword(c, a, gsx_falseTrueAuto, 3, &t->forcelimited);
  if (IS("actlimited")) return gsx_keyword(c, a, gsx_falseTrueAuto, 3, &t->actlimited);
  if (IS("ctrlrange")) return gsx_reals(c, a, t->ctrlrange, 2, 2, NULL);
  if (IS("forcerange")) return gsx_reals(c, a, t->forcerange, 2, 2, NULL);
  if (IS("actrange")) return gsx_reals(c, a, t->actrange, 2, 2, NULL);
  if (IS("lengthrange")) return gsx_reals(c, a, t->lengthrange, 2, 2, NULL);
  if (IS("gear")) return gsx_reals(c, a, t->gear, 1, 6, NULL);
  if (IS("cranklength")) {
    s->has_slider = 1;
    return gsx_real(c, a, &t->cranklength);
  }
  if (IS("user")) return gsx_userAttr(c, a, &t->user, &t->nuser);
  if (IS("dyntype")) return gsx_keyword(c, a, gsx_dynTypes, 6, &t->dyntype);
  if (IS("gaintype")) return gsx_keyword(c, a, gsx_gainTypes, 4, &t->gaintype);
  if (IS("biastype")) return gsx_keyword(c, a, gsx_biasTypes, 4, &t->biastype);
  if (IS("dynprm")) return gsx_reals(c, a, t->dynprm, 1, GS_NDYN, NULL);
  if (IS("gainprm")) return gsx_reals(c, a, t->gainprm, 1, GS_NGAIN, NULL);
  if (IS("biasprm")) return gsx_reals(c, a, t->biasprm, 1, GS_NBIAS, NULL);
  if (IS("actdim")) return gsx_int(c, a, &t->actdim);
  if (IS("actearly")) return gsx_bool(c, a, &t->actearly);
  /* transmission */
  if (IS("joint")) return set_target(c, s, a, GS_TRN_JOINT);
  if (IS("jointinparent")) return set_target(c, s, a, GS_TRN_JOINTINPARENT);
  if (IS("tendon")) return set_target(c, s, a, GS_TRN_TENDON);
  if (IS("site")) return set_target(c, s, a, GS_TRN_SITE);
  if (IS("cranksite")) return set_target(c, s, a, GS_TRN_SLIDERCRANK);
  if (IS("body")) return set_target(c, s, a, GS_TRN_BODY);
  if (IS("refsite")) {
    s->has_refsite = 1;
    return gsx_setString(c, &t->refsite, a);
  }
  if (IS("slidersite")) {
    s->has_slider = 1;
    return gsx_setString(c, &t->slidersite, a);
  }
  /* shortcut parameters, used by finish_kind */
  if (IS("kp")) return set_param(c, a, &s->kp, &s->has_kp);
  if (IS("kv")) return set_param(c, a, &s->kv, &s->has_kv);
  if (IS("dampratio")) return set_param(c, a, &s->dampratio, &s->has_dampratio);
  if (IS("inheritrange")) return set_param(c, a, &s->inheritrange, &s->has_inheritrange);
  if (IS("area")) return set_param(c, a, &s->area, &s->has_area);
  if (IS("diameter")) return set_param(c, a, &s->diameter, &s->has_diameter);
  if (IS("gain")) return set_param(c, a, &s->gain, &s->has_gain);
  if (IS("tausmooth")) return set_param(c, a, &s->tausmooth, &s->has_tausmooth);
  if (IS("force")) return set_param(c, a, &s->force, &s->has_force);
  if (IS("scale")) return set_param(c, a, &s->scale, &s->has_scale);
  if (IS("lmin")) return set_param(c, a, &s->lmin, &s->has_lmin);
  if (IS("lmax")) return set_param(c, a, &s->lmax, &s->has_lmax);
  if (IS("vmax")) return set_param(c, a, &s->vmax, &s->has_vmax);
  if (IS("fpmax")) return set_param(c, a, &s->fpmax, &s->has_fpmax);
  if (IS("fvmax")) return set_param(c, a, &s->fvmax, &s->has_fvmax);
  if (IS("timeconst")) {
    /* a muscle's timeconst holds activation and deactivation time constants */
    int n = s->kind == K_MUSCLE ? 2 : 1;
    if (!gsx_reals(c, a, s->timeconst, n, n, NULL)) return GSX_ERR;
    s->has_timeconst = 1;
    return GSX_OK;
  }
  if (IS("bias")) {
    if (!gsx_reals(c, a, s->bias, 3, 3, NULL)) return GSX_ERR;
    s->has_bias = 1;
    return GSX_OK;
  }
  if (IS("range")) {
    if (!gsx_reals(c, a, s->range, 2, 2, NULL)) return GSX_ERR;
    s->has_range = 1;
    return GSX_OK;
  }
  return GSX_UNUSED;
}

/* the gain and bias of a position servo (position, intvelocity): kp, kv or dampratio. A
 * positive biasprm[2] stands for a damping ratio, turned into damping by the compiler. position
 * rejects kv with dampratio and negative values; intvelocity (as MJCF does) ignores them. */
static int servo_gains(gsxCtx* c, ActState* s, const char* file, int line) {
  gsSpecActuator* t = s->act;
  const char* elem = kActKinds[s->kind];
  if (s->kind == K_POSITION) {
    if (s->has_kv && s->has_dampratio)
      return gsx_error(c, file, line, elem, "kv and dampratio cannot both be given");
    if (s->has_kv && s->kv < 0) return gsx_error(c, file, line, elem, "kv cannot be negative");
    if (s->has_dampratio && s->dampratio < 0)
      return gsx_error(c, file, line, elem, "dampratio cannot be negative");
  }
  if (s->has_kp) t->gainprm[0] = s->kp;
  if (s->has_kv && !s->has_dampratio && s->kv >= 0) t->biasprm[2] = -s->kv;
  if (s->has_dampratio && !s->has_kv && s->dampratio >= 0) t->biasprm[2] = s->dampratio;
  if (s->has_inheritrange) t->inheritrange = s->inheritrange;
  t->gaintype = GS_GAIN_FIXED;
  t->biastype = GS_BIAS_AFFINE;
  t->biasprm[1] = -t->gainprm[0];
  return 1;
}

/* the parameters each kind implies, once its attributes are set; MJCF's values (found by
 * experiment where its documentation is silent: which parameters a kind resets, and which it
 * keeps from the class default) */
static int finish_kind(gsxCtx* c, ActState* s, const char* file, int line) {
  gsSpecActuator* t = s->act;
  const char* elem = kActKinds[s->kind];
  switch (s->kind) {
    case K_GENERAL:
      break;
    case K_MOTOR:
      t->gainprm[0] = 1;
      t->dyntype = GS_DYN_NONE;
      t->gaintype = GS_GAIN_FIXED;
      t->biastype = GS_BIAS_NONE;
      break;
    case K_POSITION:
      if (s->has_timeconst) {
        if (s->timeconst[0] < 0)
          return gsx_error(c, file, line, elem, "timeconst cannot be negative");
        t->dynprm[0] = s->timeconst[0];
        t->dyntype = s->timeconst[0] > 0 ? GS_DYN_FILTEREXACT : GS_DYN_NONE;
      }
      if (!servo_gains(c, s, file, line)) return 0;
      if (t->inheritrange > 0 && (t->ctrlrange[0] != 0 || t->ctrlrange[1] != 0))
        return gsx_error(c, file, line, elem, "ctrlrange and inheritrange cannot both be given");
      break;
    case K_INTVELOCITY:
      if (!servo_gains(c, s, file, line)) return 0;
      t->dyntype = GS_DYN_INTEGRATOR;
      t->actlimited = GS_LIMITED_TRUE;
      if (t->inheritrange > 0 && (t->actrange[0] != 0 || t->actrange[1] != 0))
        return gsx_error(c, file, line, elem, "actrange and inheritrange cannot both be given");
      break;
    case K_VELOCITY:
      if (s->has_kv) t->gainprm[0] = s->kv;
      memset(t->biasprm, 0, sizeof(t->biasprm));
      t->biasprm[2] = -t->gainprm[0];
      t->dyntype = GS_DYN_NONE;
      t->gaintype = GS_GAIN_FIXED;
      t->biastype = GS_BIAS_AFFINE;
      break;
    case K_DAMPER: {
      /* kv is not taken from the class default: 0 unless given */
      gsReal kv = s->has_kv ? s->kv : 0;
      if (kv < 0)
        return gsx_error(c, file, line, elem, "damping coefficient kv cannot be negative");
      if (t->ctrlrange[0] < 0 || t->ctrlrange[1] < 0)
        return gsx_error(c, file, line, elem, "damper control range cannot be negative");
      memset(t->gainprm, 0, sizeof(t->gainprm));
      t->gainprm[2] = -kv;
      t->ctrllimited = GS_LIMITED_TRUE;
      t->dyntype = GS_DYN_NONE;
      t->gaintype = GS_GAIN_AFFINE;
      t->biastype = GS_BIAS_NONE;
      break;
    }
    case K_CYLINDER:
      if (s->has_timeconst) t->dynprm[0] = s->timeconst[0];
      if (s->has_area) t->gainprm[0] = s->area;
      /* a negative diameter counts as not given */
      if (s->has_diameter && s->diameter >= 0)
        t->gainprm[0] = 0.25 * 3.14159265358979323846 * s->diameter * s->diameter;
      /* MJCF reads three values of bias and uses the first */
      if (s->has_bias) t->biasprm[0] = s->bias[0];
      t->dyntype = GS_DYN_FILTER;
      t->gaintype = GS_GAIN_FIXED;
      t->biastype = GS_BIAS_AFFINE;
      break;
    case K_MUSCLE: {
      /* parameters still at <general>'s defaults take the muscle's defaults, before the
       * attributes given (so that a class default of the muscle kind is kept) */
      static const gsReal kMuscle[9] = {0.75, 1.05, -1, 200, 0.5, 1.6, 1.5, 1.3, 1.2};
      if (t->dynprm[0] == 1) t->dynprm[0] = 0.01;
      if (t->dynprm[1] == 0) t->dynprm[1] = 0.04;
      if (t->gainprm[0] == 1) t->gainprm[0] = kMuscle[0];
      for (int i = 1; i < 9; i++)
        if (t->gainprm[i] == 0) t->gainprm[i] = kMuscle[i];
      /* MJCF ignores negative muscle parameters (force -1 means automatic anyway) */
      if ((s->has_tausmooth && s->tausmooth < 0) || (!s->has_tausmooth && t->dynprm[2] < 0))
        return gsx_error(c, file, line, elem, "tausmooth (dynprm[2]) cannot be negative");
      const gsReal given[11] = {s->timeconst[0], s->timeconst[1], s->tausmooth, s->range[0],
                                s->range[1], s->force, s->scale, s->lmin, s->lmax, s->vmax,
                                s->fpmax};
      const int has[11] = {s->has_timeconst, s->has_timeconst, s->has_tausmooth, s->has_range,
                           s->has_range, s->has_force, s->has_scale, s->has_lmin, s->has_lmax,
                           s->has_vmax, s->has_fpmax};
      gsReal* dst[11] = {&t->dynprm[0], &t->dynprm[1], &t->dynprm[2], &t->gainprm[0],
                         &t->gainprm[1], &t->gainprm[2], &t->gainprm[3], &t->gainprm[4],
                         &t->gainprm[5], &t->gainprm[6], &t->gainprm[7]};
      for (int i = 0; i < 11; i++)
        if (has[i] && given[i] >= 0) *dst[i] = given[i];
      if (s->has_fvmax && s->fvmax >= 0) t->gainprm[8] = s->fvmax;
      memcpy(t->biasprm, t->gainprm, 9 * sizeof(gsReal));
      t->dyntype = GS_DYN_MUSCLE;
      t->gaintype = GS_GAIN_MUSCLE;
      t->biastype = GS_BIAS_MUSCLE;
      break;
    }
    case K_ADHESION:
      if (s->has_gain) t->gainprm[0] = s->gain;
      if (t->gainprm[0] < 0)
        return gsx_error(c, file, line, elem, "adhesion gain cannot be negative");
      if (t->ctrlrange[0] < 0 || t->ctrlrange[1] < 0)
        return gsx_error(c, file, line, elem, "adhesion control range cannot be negative");
      t->ctrllimited = GS_LIMITED_TRUE;
      t->gaintype = GS_GAIN_FIXED;
      t->biastype = GS_BIAS_NONE;
      break;
  }
  return 1;
}

/* the values a default class holds for one actuator kind, then what the kind implies */
static int apply_default_kind(gsxCtx* c, gsSpecActuator* t, int kind, const gsxDefaultElem* el, int n) {
  ActState s;
  memset(&s, 0, sizeof(s));
  s.act = t;
  s.kind = kind;
  const char* file = NULL;
  int line = 0;
  if (n == 0) return 1;  /* none of it reaches the class (a later top-level <default>) */
  for (int i = 0; i < n; i++) {
    const gsxAttr* d = &el->attr[i];
    file = d->file;
    line = d->line;
    if (!d->name[0]) continue;  /* the mark of an element without attributes */
    gsxAt a = {kActKinds[kind], d->name, d->value, d->file, d->line};
    if (!gsx_applyOne(c, set_actuator, &s, &a)) return 0;
  }
  return finish_kind(c, &s, file, line);
}

/* the actuator default of class cls: its ancestors' first, then its own actuator elements in the
 * order they were written */
static int apply_actuator_class(gsxCtx* c, int cls, int of, gsSpecActuator* t) {
  if (of < 0) return 1;
  if (!apply_actuator_class(c, cls, c->defs.cls[of].parent, t)) return 0;
  const gsxClass* k = &c->defs.cls[of];
  for (int e = 0; e < k->nelem; e++) {
    int kind = act_kind(k->elem[e].kind);
    if (kind >= 0 && !apply_default_kind(c, t, kind, &k->elem[e], gsx_classSees(&c->defs, cls, of, e)))
      return 0;
  }
  return 1;
}

static int read_actuator(gsxCtx* c, xmlNodePtr node, const gsxFile* src, int kind) {
  const char* elem = kActKinds[kind];
  int line = gsx_line(node), cls;
  if (!gsx_checkAttrs(c, node, src, elem, 0)) return 0;
  if (!gsx_elementClass(c, node, src, elem, "class", 0, &cls)) return 0;
  gsSpecActuator* t = gs_specAddActuator(c->spec);
  if (!t) return gsx_oom(c);
  if (!gsx_setInfo(c, &t->info, node, src) || !apply_actuator_class(c, cls, cls, t)) return 0;
  ActState s;
  memset(&s, 0, sizeof(s));
  s.act = t;
  s.kind = kind;
  if (!gsx_applyOwn(c, node, src, elem, set_actuator, &s, "name class") ||
      !finish_kind(c, &s, src->name, line))
    return 0;
  if (s.has_refsite && t->trntype != GS_TRN_SITE)
    return gsx_error(c, src->name, line, elem, "refsite can only be used with a site transmission");
  if (s.has_slider && t->trntype != GS_TRN_SLIDERCRANK)
    return gsx_error(c, src->name, line, elem,
                     "cranklength and slidersite can only be used with a slider-crank transmission "
                     "(cranksite)");
  return no_children(c, node, src, elem);
}

static int actuator_child(gsxCtx* c, xmlNodePtr ch, const gsxFile* src, void* user) {
  (void)user;
  const char* name = gsx_name(ch);
  int kind = act_kind(name);
  if (kind >= 0) return read_actuator(c, ch, src, kind);
  if (strcmp(name, "plugin") == 0) return gsx_skipElement(c, ch, src);
  return gsx_childError(c, ch, src, "actuator");
}

/* ---- hooks ---- */

int gsx_readActuationSection(gsxCtx* c, xmlNodePtr node, const gsxFile* src) {
  const char* name = gsx_name(node);
  if (strcmp(name, "tendon") == 0)
    return gsx_checkAttrs(c, node, src, name, 0) && gsx_eachChild(c, node, src, tendon_child, NULL);
  if (strcmp(name, "actuator") == 0)
    return gsx_checkAttrs(c, node, src, name, 0) &&
           gsx_eachChild(c, node, src, actuator_child, NULL);
  return -1;
}

/* the class a <default> child belongs to, from the enclosing <default> element; -1 when the
 * element came from an included file (its parent is that file's root) */
static int enclosing_class(gsxCtx* c, xmlNodePtr node) {
  xmlNodePtr p = node->parent;
  if (!p || p->type != XML_ELEMENT_NODE || strcmp(gsx_name(p), "default") != 0) return -1;
  xmlChar* name = gsx_getAttr(c, p, "class");
  int cls = name ? gsx_classFind(&c->defs, (const char*)name) : 0;
  xmlFree(name);
  return cls;
}

/* MJCF allows each element kind once per default class */
static int check_unique(gsxCtx* c, xmlNodePtr node, const gsxFile* src) {
  const char* name = gsx_name(node);
  for (xmlNodePtr s = node->prev; s; s = s->prev)
    if (s->type == XML_ELEMENT_NODE && strcmp(gsx_name(s), name) == 0)
      return gsx_error(c, src->name, gsx_line(node), name,
                       "a <default> class may hold only one <%s> (the earlier one is at line %d)",
                       name, gsx_line(s));
  return 1;
}

int gsx_checkDefaultActuation(gsxCtx* c, xmlNodePtr node, const gsxFile* src) {
  const char* name = gsx_name(node);
  int kind = act_kind(name);
  if (kind < 0 && strcmp(name, "tendon") != 0) return -1;
  int line = gsx_line(node);
  if (!check_unique(c, node, src) || !no_children(c, node, src, name)) return 0;
  for (xmlAttrPtr at = node->properties; at; at = at->next) {
    if (!gsx_isMjcfAttr(at)) continue;
    const char* an = (const char*)at->name;
    if (strcmp(an, "name") == 0 || strcmp(an, "class") == 0)
      return gsx_error(c, src->name, line, name, "attribute '%s' is not allowed in <default>", an);
  }
  if (kind < 0) {
    gsSpecTendon t;
    memset(&t, 0, sizeof(t));
    int ok = gsx_checkAttrList(c, node, src, name, kTendonDefaultAttrs) &&
             gsx_applyOwn(c, node, src, name, set_tendon, &t, NULL);
    free(t.material);
    free(t.user);
    return ok;
  }
  /* the values are checked now, on the class's actuator default as it stands here (as MJCF
   * does: a shortcut's checks see what the class has so far); the class replays them each time
   * it is used */
  int cls = enclosing_class(c, node);
  gsSpecActuator t;
  memset(&t, 0, sizeof(t));
  gs_specDefaultActuator(&t);
  ActState s;
  memset(&s, 0, sizeof(s));
  s.act = &t;
  s.kind = kind;
  int ok = gsx_checkAttrList(c, node, src, name, kActDefaultAttrs[kind]) &&
           (cls < 0 || apply_actuator_class(c, cls, cls, &t)) &&
           gsx_applyOwn(c, node, src, name, set_actuator, &s, NULL) &&
           finish_kind(c, &s, src->name, line);
  free(t.user);
  if (!ok) return 0;
  /* an element without attributes still sets the parameters its kind implies, in its place among
   * the class's actuator elements: leave a mark where the class stores its values */
  if (count_attrs(node) == 0) {
    gsxAttr mark = {"", "", src->name, line};
    if (cls >= 0 && !gsx_classAddAttr(&c->defs, cls, name, &mark)) return gsx_oom(c);
  }
  return 1;
}
