/* The actuation slice of the compiler: tendons and their paths, actuators (transmission targets,
 * limits, activation states), and what is defined at qpos0 (tendon lengths and inverse weights,
 * actuator lengths, acc0, position servos' damping from their damping ratio). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/math.h"
#include "dynamics/dynamics.h"
#include "model/compile.h"

/* activation states of an actuator; -1 after reporting an invalid actdim */
static int actuator_actnum(gsCompileCtx* c, const gsSpecActuator* a) {
  if (a->actdim < 0) return a->dyntype != GS_DYN_NONE;
  if (a->dyntype == GS_DYN_NONE && a->actdim > 0)
    return gs_compileFail(c, &a->info, "actuator", "actdim %d needs activation dynamics (dyntype)",
                          a->actdim), -1;
  if (a->dyntype != GS_DYN_NONE && a->actdim == 0)
    return gs_compileFail(c, &a->info, "actuator", "actdim 0 with activation dynamics (dyntype)"),
           -1;
  if (a->actdim > 1 && a->dyntype != GS_DYN_USER)
    return gs_compileFail(c, &a->info, "actuator", "actdim > 1 needs dyntype 'user'"), -1;
  return a->actdim;
}

/* the number of user values per element: <size> when given, else the longest user= */
static int user_columns(gsCompileCtx* c, int given, int n, const gsSpecInfo* const* info,
                        const int* nuser, const char* kind) {
  int cols = 0;
  for (int i = 0; i < n; i++)
    if (nuser[i] > cols) cols = nuser[i];
  if (given < 0) return cols;
  for (int i = 0; i < n; i++)
    if (nuser[i] > given)
      return gs_compileFail(c, info[i], kind, "user has %d values, more than nuser_%s = %d",
                            nuser[i], kind, given), -1;
  return given;
}

/* M^-1 x in place, solved only over the kinematic trees where x is not zero: outside them the
 * full solve keeps zeros, and inside it does the same operations, so the result is the same to
 * the bit; a model of many trees (100 humanoids: 2100 actuators, 2800 dofs) compiles in linear
 * rather than quadratic time */
static void solve_trees(const gsModel* m, const gsData* d, gsReal* x) {
  int lo = 0, hi = m->nv;
  while (lo < hi && x[lo] == 0) lo++;
  while (hi > lo && x[hi - 1] == 0) hi--;
  if (lo == hi) return;
  while (m->dof_parentid[lo] >= 0) lo = m->dof_parentid[lo];  /* the first dof of its tree */
  int root = m->body_rootid[m->dof_bodyid[hi - 1]];
  while (hi < m->nv && m->body_rootid[m->dof_bodyid[hi]] == root) hi++;
  gs_solveLTDLRange(m, d->qLD, d->qLDiagInv, x, lo, hi);
}

/* ---- the sparsity of the actuator moments, from the spec (the tree is not compiled yet) ---- */

static int joint_dofs(int type) { return type == GS_JNT_FREE ? 6 : type == GS_JNT_BALL ? 3 : 1; }

static int same_name(const gsSpecInfo* info, const char* name) {
  return name && info->name && strcmp(info->name, name) == 0;
}

/* the dofs that move body b: those of its joints and its ancestors' */
static int chain_dofs(const gsSpecBody* b) {
  int n = 0;
  for (; b; b = b->parent)
    for (int k = 0; k < b->njoint; k++) n += joint_dofs(b->joint[k]->type);
  return n;
}

/* the chain of the body holding the named site (kind 0), geom (1) or body (2); 0 when none */
static int chain_of(const gsCompileCtx* c, int kind, const char* name) {
  for (int b = 0; b < c->nbody; b++) {
    const gsSpecBody* sb = c->body[b];
    if (kind == 2 && same_name(&sb->info, name)) return chain_dofs(sb);
    int n = kind == 0 ? sb->nsite : kind == 1 ? sb->ngeom : 0;
    for (int k = 0; k < n; k++)
      if (same_name(kind == 0 ? &sb->site[k]->info : &sb->geom[k]->info, name))
        return chain_dofs(sb);
  }
  return 0;
}

static int joint_named(const gsCompileCtx* c, const char* name) {
  for (int b = 0; b < c->nbody; b++)
    for (int k = 0; k < c->body[b]->njoint; k++)
      if (same_name(&c->body[b]->joint[k]->info, name)) return joint_dofs(c->body[b]->joint[k]->type);
  return 0;
}

/* a bound of the non-zeros of tendon t's Jacobian: a fixed tendon's joints (one dof each), the
 * chains of a spatial tendon's sites and geoms */
static int tendon_dofs(const gsCompileCtx* c, const gsSpecTendon* t) {
  int n = 0;
  for (int k = 0; k < t->nwrap; k++) {
    const gsSpecWrap* w = t->wrap[k];
    if (w->kind == GS_PATH_JOINT) n += 1;
    else if (w->kind == GS_PATH_SITE) n += chain_of(c, 0, w->target);
    else if (w->kind == GS_PATH_GEOM) n += chain_of(c, 1, w->target);
  }
  return n;
}

/* a bound of the non-zeros of actuator a's moment arm (at most nv) */
static int moment_dofs(const gsCompileCtx* c, const gsSpecActuator* a, int nv) {
  int n = nv;
  switch (a->trntype) {
    case GS_TRN_JOINT:
    case GS_TRN_JOINTINPARENT: n = joint_named(c, a->target); break;
    case GS_TRN_TENDON:
      for (int t = 0; t < c->spec->ntendon; t++)
        if (same_name(&c->spec->tendon[t]->info, a->target)) n = tendon_dofs(c, c->spec->tendon[t]);
      break;
    case GS_TRN_SITE: n = chain_of(c, 0, a->target) + chain_of(c, 0, a->refsite); break;
    case GS_TRN_SLIDERCRANK: n = chain_of(c, 0, a->target) + chain_of(c, 0, a->slidersite); break;
    default: break;  /* body (adhesion): any dof its contacts reach */
  }
  return n < nv ? n : nv;
}

int gs_compileSizesActuation(gsCompileCtx* c, gsModel* sizes) {
  const gsSpec* spec = c->spec;
  int nt = spec->ntendon, na = spec->nactuator;
  sizes->ntendon = nt;
  sizes->nu += na;  /* core sizes: the slice adds its own */
  for (int i = 0; i < nt; i++) {
    sizes->nwrap += spec->tendon[i]->nwrap;
    sizes->nnames += (int)gs_compileNameBytes(&spec->tendon[i]->info);
  }
  for (int i = 0; i < na; i++) {
    const gsSpecActuator* a = spec->actuator[i];
    int n = actuator_actnum(c, a);
    if (n < 0) return 0;
    sizes->na += n;
    sizes->nnames += (int)gs_compileNameBytes(&a->info);
  }
  /* user columns */
  int cap = nt > na ? nt : na;
  const gsSpecInfo** info = malloc(sizeof(*info) * (size_t)(cap ? cap : 1));
  int* nuser = malloc(sizeof(int) * (size_t)(cap ? cap : 1));
  if (!info || !nuser) {
    free(info);
    free(nuser);
    return gs_compileFail(c, NULL, "model", "out of memory");
  }
  for (int i = 0; i < nt; i++) info[i] = &spec->tendon[i]->info, nuser[i] = spec->tendon[i]->nuser;
  int ut = user_columns(c, spec->nuser_tendon, nt, info, nuser, "tendon");
  for (int i = 0; i < na; i++)
    info[i] = &spec->actuator[i]->info, nuser[i] = spec->actuator[i]->nuser;
  int ua = ut < 0 ? -1 : user_columns(c, spec->nuser_actuator, na, info, nuser, "actuator");
  free(info);
  free(nuser);
  if (ut < 0 || ua < 0) return 0;
  sizes->nuser_tendon = ut;
  sizes->nuser_actuator = ua;
  sizes->nten_J = nt * sizes->nv;
  sizes->nJmom = 0;
  for (int i = 0; i < na; i++) sizes->nJmom += moment_dofs(c, spec->actuator[i], sizes->nv);
  return 1;
}

/* MJCF's rule for limited="auto" (ctrllimited, forcelimited, actlimited, tendons' limited and
 * actuatorfrclimited): with compiler.autolimits, limited when the range is a proper interval;
 * without, a range that is not "0 0" must come with an explicit limited */
static int resolve_limited(gsCompileCtx* c, const gsSpecInfo* info, const char* kind, int limited,
                           const gsReal range[2], const char* attr, const char* flag, int* out) {
  if (limited != GS_LIMITED_AUTO) {
    *out = limited == GS_LIMITED_TRUE;
    return 1;
  }
  if (c->spec->compiler.autolimits) {
    *out = range[0] < range[1];
    return 1;
  }
  if (range[0] != 0 || range[1] != 0)
    return gs_compileFail(c, info, kind,
                          "%s is given but %s is not: set compiler autolimits=\"true\" or give "
                          "%s explicitly", attr, flag, flag);
  *out = 0;
  return 1;
}

/* an object named by an element; -1 after reporting */
static int find(gsCompileCtx* c, const gsModel* m, int type, const char* name,
                const gsSpecInfo* info, const char* kind, const char* what) {
  int id = gs_name2id(m, type, name);
  if (id < 0) gs_compileFail(c, info, kind, "%s '%s' not found", what, name ? name : "");
  return id;
}

static const char* const kPathNames[] = {"joint", "site", "geom", "pulley"};

/* the path of spatial tendon t: sites at both ends and around each geom, pulleys between
 * branches that start and end with sites */
static int check_spatial_path(gsCompileCtx* c, const gsSpecTendon* t) {
  int n = t->nwrap;
  const char* kind = "spatial";
  if (n < 2) return gs_compileFail(c, &t->info, kind, "the path needs at least two elements");
  if (t->wrap[n - 1]->kind == GS_PATH_PULLEY)
    {
    const gsSpecInfo wi = {t->info.name, t->wrap[n - 1]->info.file, t->wrap[n - 1]->info.line};
    return gs_compileFail(c, &wi, kind, "the path ends with a pulley");
  }
  for (int k = 0; k < n; k++) {
    const gsSpecWrap* w = t->wrap[k];
    const gsSpecInfo wi = {t->info.name, w->info.file, w->info.line};
    int prev = k > 0 ? t->wrap[k - 1]->kind : -1, next = k + 1 < n ? t->wrap[k + 1]->kind : -1;
    if (w->kind == GS_PATH_GEOM && (prev != GS_PATH_SITE || next != GS_PATH_SITE))
      return gs_compileFail(c, &wi, kind, "a geom in the path must be between two sites");
    if (w->kind == GS_PATH_SITE && (prev == -1 || prev == GS_PATH_PULLEY) &&
        (next == -1 || next == GS_PATH_PULLEY))
      return gs_compileFail(c, &wi, kind,
                            "site '%s' needs a neighbour in the path that is not a pulley",
                            w->target);
    if (w->kind == GS_PATH_SITE && prev == GS_PATH_SITE &&
        strcmp(w->target, t->wrap[k - 1]->target) == 0)
      return gs_compileFail(c, &wi, kind, "site '%s' is repeated", w->target);
    if (w->kind == GS_PATH_PULLEY && !(w->prm > 0))
      return gs_compileFail(c, &wi, kind, "pulley divisor must be positive");
  }
  return 1;
}

static int compile_tendons(gsCompileCtx* c, gsModel* m) {
  const gsSpec* spec = c->spec;
  int adr = 0, nu = m->nuser_tendon;
  for (int i = 0; i < m->ntendon; i++) {
    const gsSpecTendon* t = spec->tendon[i];
    const char* kind = t->spatial ? "spatial" : "fixed";
    m->name_tendonadr[i] = gs_compileName(c, m, &t->info);
    if (t->nwrap == 0) return gs_compileFail(c, &t->info, kind, "the path is empty");
    if (t->spatial && !check_spatial_path(c, t)) return 0;
    m->tendon_adr[i] = adr;
    m->tendon_num[i] = t->nwrap;
    for (int k = 0; k < t->nwrap; k++, adr++) {
      const gsSpecWrap* w = t->wrap[k];
      const char* what = kPathNames[w->kind];
      /* errors name the tendon at the line of the path element */
      const gsSpecInfo wi = {t->info.name, w->info.file, w->info.line};
      m->wrap_prm[adr] = 0;
      switch (w->kind) {
        case GS_PATH_JOINT: {
          int j = find(c, m, GS_OBJ_JOINT, w->target, &wi, kind, "joint");
          if (j < 0) return 0;
          /* MJCF takes any joint: of a ball or free joint the first coordinate and dof */
          m->wrap_type[adr] = GS_WRAP_JOINT;
          m->wrap_objid[adr] = j;
          m->wrap_prm[adr] = w->prm;
          break;
        }
        case GS_PATH_SITE: {
          int s = find(c, m, GS_OBJ_SITE, w->target, &wi, kind, what);
          if (s < 0) return 0;
          m->wrap_type[adr] = GS_WRAP_SITE;
          m->wrap_objid[adr] = s;
          break;
        }
        case GS_PATH_GEOM: {
          int g = find(c, m, GS_OBJ_GEOM, w->target, &wi, kind, what);
          if (g < 0) return 0;
          int gt = m->geom_type[g];
          if (gt != GS_GEOM_SPHERE && gt != GS_GEOM_CYLINDER)
            return gs_compileFail(c, &wi, kind,
                                  "geom '%s' to wrap around must be a sphere or a cylinder",
                                  w->target);
          if (!(m->geom_size[3 * g] > 0))
            return gs_compileFail(c, &wi, kind, "geom '%s' to wrap around has no radius",
                                  w->target);
          m->wrap_type[adr] = gt == GS_GEOM_SPHERE ? GS_WRAP_SPHERE : GS_WRAP_CYLINDER;
          m->wrap_objid[adr] = g;
          m->wrap_prm[adr] = -1;
          if (w->sidesite) {
            int s = find(c, m, GS_OBJ_SITE, w->sidesite, &wi, kind, "side site");
            if (s < 0) return 0;
            m->wrap_prm[adr] = s;
          }
          break;
        }
        case GS_PATH_PULLEY:
          m->wrap_type[adr] = GS_WRAP_PULLEY;
          m->wrap_objid[adr] = -1;
          m->wrap_prm[adr] = w->prm;
          break;
      }
    }
    m->tendon_matid[i] = -1;
    if (t->material) {
      m->tendon_matid[i] = find(c, m, GS_OBJ_MATERIAL, t->material, &t->info, kind, "material");
      if (m->tendon_matid[i] < 0) return 0;
    }
    m->tendon_group[i] = t->group;
    int limited = 0, actfrclimited = 0;
    if (!resolve_limited(c, &t->info, kind, t->limited, t->range, "range", "limited", &limited) ||
        !resolve_limited(c, &t->info, kind, t->actfrclimited, t->actfrcrange, "actuatorfrcrange",
                         "actuatorfrclimited", &actfrclimited))
      return 0;
    if (limited && !(t->range[0] < t->range[1]))
      return gs_compileFail(c, &t->info, kind, "limited, but range[0] < range[1] does not hold");
    if (actfrclimited &&
        !(t->actfrcrange[0] < t->actfrcrange[1] && t->actfrcrange[0] <= 0 &&
          t->actfrcrange[1] >= 0))
      return gs_compileFail(c, &t->info, kind,
                            "actuatorfrcrange must be an interval that contains 0");
    if (t->spatial && !(t->width > 0))
      return gs_compileFail(c, &t->info, kind, "width must be positive");
    if (t->armature != 0)
      for (int k = 0; k < t->nwrap; k++)
        if (t->wrap[k]->kind == GS_PATH_GEOM)
          return gs_compileFail(c, &t->info, kind,
                                "armature is not supported on a path that wraps around geoms");
    m->tendon_limited[i] = limited;
    m->tendon_actfrclimited[i] = actfrclimited;
    m->tendon_width[i] = t->width;
    memcpy(m->tendon_solref_lim + GS_NREF * i, t->solref_limit, sizeof(t->solref_limit));
    memcpy(m->tendon_solimp_lim + GS_NIMP * i, t->solimp_limit, sizeof(t->solimp_limit));
    memcpy(m->tendon_solref_fri + GS_NREF * i, t->solref_friction, sizeof(t->solref_friction));
    memcpy(m->tendon_solimp_fri + GS_NIMP * i, t->solimp_friction, sizeof(t->solimp_friction));
    memcpy(m->tendon_range + 2 * i, t->range, sizeof(t->range));
    memcpy(m->tendon_actfrcrange + 2 * i, t->actfrcrange, sizeof(t->actfrcrange));
    m->tendon_margin[i] = t->margin;
    m->tendon_stiffness[i] = t->stiffness;
    m->tendon_damping[i] = t->damping;
    m->tendon_armature[i] = t->armature;
    m->tendon_frictionloss[i] = t->frictionloss;
    /* both -1: filled at qpos0 (the length at qpos_spring) */
    if (!(t->springlength[0] == -1 && t->springlength[1] == -1) &&
        t->springlength[0] > t->springlength[1])
      return gs_compileFail(c, &t->info, kind, "springlength[0] must not exceed springlength[1]");
    memcpy(m->tendon_lengthspring + 2 * i, t->springlength, sizeof(t->springlength));
    /* colours at single precision, as MJCF stores them */
    for (int k = 0; k < 4; k++) m->tendon_rgba[4 * i + k] = gs_compileFloat(t->rgba[k]);
    for (int k = 0; k < nu; k++) m->tendon_user[(size_t)i * nu + k] = k < t->nuser ? t->user[k] : 0;
  }
  return 1;
}

/* the range an actuator inherits from its joint or tendon (inheritrange, position servos) */
static int inherit_range(gsCompileCtx* c, const gsModel* m, const gsSpecActuator* a, int i,
                         gsReal ctrlrange[2], gsReal actrange[2]) {
  if (!(a->inheritrange > 0)) return 1;
  /* only position servos (gain kp, bias -kp) inherit; others keep what they have */
  if (!(a->gaintype == GS_GAIN_FIXED && a->biastype == GS_BIAS_AFFINE &&
        a->gainprm[0] == -a->biasprm[1]))
    return 1;
  gsReal* dst;
  if (a->dyntype == GS_DYN_NONE || a->dyntype == GS_DYN_FILTEREXACT)
    dst = ctrlrange;
  else if (a->dyntype == GS_DYN_INTEGRATOR)
    dst = actrange;
  else
    return gs_compileFail(c, &a->info, "actuator",
                          "inheritrange is only for position and intvelocity actuators");
  const gsReal* range;
  int type = m->actuator_trntype[i], id = m->actuator_trnid[2 * i];
  if (type == GS_TRN_JOINT || type == GS_TRN_JOINTINPARENT) {
    if (m->jnt_type[id] != GS_JNT_HINGE && m->jnt_type[id] != GS_JNT_SLIDE)
      return gs_compileFail(c, &a->info, "actuator", "inheritrange needs a hinge or slide joint");
    range = m->jnt_range + 2 * id;
  }
  else if (type == GS_TRN_TENDON)
    range = m->tendon_range + 2 * id;
  else
    return gs_compileFail(c, &a->info, "actuator",
                          "inheritrange needs a joint or tendon transmission");
  if (range[0] == range[1])
    return gs_compileFail(c, &a->info, "actuator",
                          "inheritrange: the target '%s' has no range", a->target);
  gsReal mid = 0.5 * (range[0] + range[1]), half = 0.5 * (range[1] - range[0]) * a->inheritrange;
  dst[0] = mid - half;
  dst[1] = mid + half;
  return 1;
}

static int compile_actuators(gsCompileCtx* c, gsModel* m) {
  const gsSpec* spec = c->spec;
  int actadr = 0, nu = m->nuser_actuator;
  const char* kind = "actuator";
  for (int i = 0; i < m->nu; i++) {
    const gsSpecActuator* a = spec->actuator[i];
    m->name_actuatoradr[i] = gs_compileName(c, m, &a->info);
    /* transmission */
    if (!a->target) return gs_compileFail(c, &a->info, kind, "missing transmission target");
    int type = a->trntype, id = -1, id1 = -1;
    switch (type) {
      case GS_TRN_JOINT:
      case GS_TRN_JOINTINPARENT:
        id = find(c, m, GS_OBJ_JOINT, a->target, &a->info, kind, "joint");
        break;
      case GS_TRN_TENDON:
        id = find(c, m, GS_OBJ_TENDON, a->target, &a->info, kind, "tendon");
        break;
      case GS_TRN_SITE:
        id = find(c, m, GS_OBJ_SITE, a->target, &a->info, kind, "site");
        if (id >= 0 && a->refsite) {
          id1 = find(c, m, GS_OBJ_SITE, a->refsite, &a->info, kind, "reference site");
          if (id1 < 0) return 0;
        }
        break;
      case GS_TRN_SLIDERCRANK:
        id = find(c, m, GS_OBJ_SITE, a->target, &a->info, kind, "crank site");
        if (id < 0) return 0;
        if (!a->slidersite)
          return gs_compileFail(c, &a->info, kind, "a slider-crank needs a slidersite");
        id1 = find(c, m, GS_OBJ_SITE, a->slidersite, &a->info, kind, "slider site");
        if (id1 < 0) return 0;
        if (!(a->cranklength > 0))
          return gs_compileFail(c, &a->info, kind, "cranklength must be positive");
        break;
      case GS_TRN_BODY:
        id = find(c, m, GS_OBJ_BODY, a->target, &a->info, kind, "body");
        break;
      default:
        return gs_compileFail(c, &a->info, kind, "unknown transmission type %d", type);
    }
    if (id < 0) return 0;
    m->actuator_trntype[i] = type;
    m->actuator_trnid[2 * i] = id;
    m->actuator_trnid[2 * i + 1] = id1;
    m->actuator_dyntype[i] = a->dyntype;
    m->actuator_gaintype[i] = a->gaintype;
    m->actuator_biastype[i] = a->biastype;
    memcpy(m->actuator_dynprm + GS_NDYN * i, a->dynprm, sizeof(a->dynprm));
    memcpy(m->actuator_gainprm + GS_NGAIN * i, a->gainprm, sizeof(a->gainprm));
    memcpy(m->actuator_biasprm + GS_NBIAS * i, a->biasprm, sizeof(a->biasprm));
    m->actuator_group[i] = a->group;
    m->actuator_actearly[i] = a->actearly;
    memcpy(m->actuator_gear + 6 * i, a->gear, sizeof(a->gear));
    m->actuator_cranklength[i] = a->cranklength;
    memcpy(m->actuator_lengthrange + 2 * i, a->lengthrange, sizeof(a->lengthrange));
    m->actuator_plugin[i] = -1;
    /* limits */
    gsReal ctrlrange[2] = {a->ctrlrange[0], a->ctrlrange[1]};
    gsReal actrange[2] = {a->actrange[0], a->actrange[1]};
    if (!inherit_range(c, m, a, i, ctrlrange, actrange)) return 0;
    int ctrllimited = 0, forcelimited = 0, actlimited = 0;
    if (!resolve_limited(c, &a->info, kind, a->ctrllimited, ctrlrange, "ctrlrange", "ctrllimited",
                         &ctrllimited) ||
        !resolve_limited(c, &a->info, kind, a->forcelimited, a->forcerange, "forcerange",
                         "forcelimited", &forcelimited) ||
        !resolve_limited(c, &a->info, kind, a->actlimited, actrange, "actrange", "actlimited",
                         &actlimited))
      return 0;
    if (ctrllimited && !(ctrlrange[0] < ctrlrange[1]))
      return gs_compileFail(c, &a->info, kind, "invalid ctrlrange: ctrlrange[0] < [1] must hold");
    if (forcelimited && !(a->forcerange[0] < a->forcerange[1]))
      return gs_compileFail(c, &a->info, kind, "invalid forcerange: forcerange[0] < [1] must hold");
    if (actlimited && a->dyntype == GS_DYN_NONE)
      return gs_compileFail(c, &a->info, kind, "actrange is given but dyntype is 'none'");
    if (actlimited && !(actrange[0] < actrange[1]))
      return gs_compileFail(c, &a->info, kind, "invalid actrange: actrange[0] < [1] must hold");
    for (int k = 0; k < 2; k++) {
      /* muscle gain and bias: range, scale, lmin, lmax, vmax, fpmax, fvmax */
      const gsReal* p = k == 0 ? a->gainprm : a->biasprm;
      if (!(k == 0 ? a->gaintype == GS_GAIN_MUSCLE : a->biastype == GS_BIAS_MUSCLE)) continue;
      if (!(p[0] < p[1]))
        return gs_compileFail(c, &a->info, kind, "muscle: range[0] < range[1] must hold");
      if (!(p[3] > 0 && p[6] > 0 && p[7] > 0 && p[8] > 0))
        return gs_compileFail(c, &a->info, kind,
                              "muscle: scale, vmax, fpmax and fvmax must be positive");
      if (!(p[4] < 1 && 1 < p[5]))
        return gs_compileFail(c, &a->info, kind, "muscle: lmin < 1 < lmax must hold");
    }
    m->actuator_ctrllimited[i] = ctrllimited;
    m->actuator_forcelimited[i] = forcelimited;
    m->actuator_actlimited[i] = actlimited;
    memcpy(m->actuator_ctrlrange + 2 * i, ctrlrange, sizeof(ctrlrange));
    memcpy(m->actuator_forcerange + 2 * i, a->forcerange, sizeof(a->forcerange));
    memcpy(m->actuator_actrange + 2 * i, actrange, sizeof(actrange));
    /* activation states */
    int n = actuator_actnum(c, a);
    if (n < 0) return 0;
    m->actuator_actnum[i] = n;
    m->actuator_actadr[i] = n ? actadr : -1;
    actadr += n;
    for (int k = 0; k < nu; k++)
      m->actuator_user[(size_t)i * nu + k] = k < a->nuser ? a->user[k] : 0;
  }
  return 1;
}

/* the joints' actuatorfrcrange: MJCF limits hinges and slides only, and a ball's or free joint's
 * range is kept but never limits */
static int compile_joint_actfrc(gsCompileCtx* c, gsModel* m) {
  int j = 0;
  for (int b = 0; b < c->nbody; b++)
    for (int k = 0; k < c->body[b]->njoint; k++, j++) {
      const gsSpecJoint* sj = c->body[b]->joint[k];
      int limited = 0;
      memcpy(m->jnt_actfrcrange + 2 * j, sj->actfrcrange, sizeof(sj->actfrcrange));
      if (sj->type == GS_JNT_HINGE || sj->type == GS_JNT_SLIDE) {
        if (!resolve_limited(c, &sj->info, "joint", sj->actfrclimited, sj->actfrcrange,
                             "actuatorfrcrange", "actuatorfrclimited", &limited))
          return 0;
        if (limited && !(sj->actfrcrange[0] < sj->actfrcrange[1]))
          return gs_compileFail(c, &sj->info, "joint",
                                "actuatorfrcrange[0] must be smaller than actuatorfrcrange[1]");
      }
      m->jnt_actfrclimited[j] = limited;
    }
  return 1;
}

int gs_compileActuation(gsCompileCtx* c, gsModel* m) {
  const gsSpec* spec = c->spec;
  if (!compile_joint_actfrc(c, m)) return 0;
  if (!compile_tendons(c, m)) return 0;
  /* names of the tendons are in m now: actuators look their tendons up there */
  if (!compile_actuators(c, m)) return 0;
  const gsSpecInfo** info = malloc(sizeof(*info) * (size_t)(m->ntendon + m->nu + 1));
  if (!info) return gs_compileFail(c, NULL, "model", "out of memory");
  /* names are unique within a kind of object */
  for (int i = 0; i < m->ntendon; i++) info[i] = &spec->tendon[i]->info;
  int ok = gs_compileUniqueInfos(c, info, m->ntendon, "tendon");
  for (int i = 0; i < m->nu; i++) info[i] = &spec->actuator[i]->info;
  ok = ok && gs_compileUniqueInfos(c, info, m->nu, "actuator");
  free(info);
  return ok;
}

/* ---- at qpos0 ---- */

int gs_compileActuationAtQpos0(gsCompileCtx* c, gsModel* m, gsData* d) {
  int nv = m->nv, ok = 1;
  if (m->ntendon == 0 && m->nu == 0) return 1;
  gs_tendon(m, d);
  for (int i = 0; i < m->ntendon; i++) m->tendon_length0[i] = d->ten_length[i];

  /* spring rest lengths not given: the length at qpos_spring */
  int spring = 0;
  for (int i = 0; i < m->ntendon; i++)
    spring |= m->tendon_lengthspring[2 * i] == -1 && m->tendon_lengthspring[2 * i + 1] == -1;
  if (spring) {
    gsData* ds = gs_makeData(m);
    if (!ds) return gs_compileFail(c, NULL, "model", "out of memory");
    gs_copy(ds->qpos, m->qpos_spring, m->nq);
    gs_kinematics(m, ds);
    gs_comPos(m, ds);
    gs_tendon(m, ds);
    for (int i = 0; i < m->ntendon; i++)
      if (m->tendon_lengthspring[2 * i] == -1 && m->tendon_lengthspring[2 * i + 1] == -1)
        m->tendon_lengthspring[2 * i] = m->tendon_lengthspring[2 * i + 1] = ds->ten_length[i];
    gs_freeData(ds);
  }

  gsReal* x = malloc(sizeof(gsReal) * (size_t)(nv ? nv : 1));
  if (!x) return gs_compileFail(c, NULL, "model", "out of memory");
  gs_solveM(m, d, x, x, 0);  /* the factor of M, should the data have deferred it */

  /* tendons: inverse weight J M^-1 J^T */
  for (int t = 0; t < m->ntendon; t++) {
    const gsReal* J = d->ten_J + (size_t)t * nv;
    gs_copy(x, J, nv);
    solve_trees(m, d, x);  /* M with the tendons' armature (gs_crb) */
    gsReal w = 0;
    for (int k = 0; k < nv; k++) w += J[k] * x[k];
    m->tendon_invweight0[t] = w;
  }

  /* actuators: length, acc0 = |M^-1 moment|, damping of position servos from dampratio */
  gsReal* moment = malloc(sizeof(gsReal) * (size_t)(nv ? nv : 1));
  if (!moment) ok = gs_compileFail(c, NULL, "model", "out of memory");
  for (int i = 0; ok && i < m->nu; i++) {
    gsReal length;
    if (!gs_actuatorMoment(m, d, i, &length, moment)) {
      ok = gs_compileFail(c, c->spec ? &c->spec->actuator[i]->info : NULL, "actuator", "out of scratch memory");
      break;
    }
    m->actuator_length0[i] = length;
    gs_copy(x, moment, nv);
    solve_trees(m, d, x);
    gsReal acc = 0;
    for (int k = 0; k < nv; k++) acc += x[k] * x[k];
    m->actuator_acc0[i] = sqrt(acc);
    gsReal* bias = m->actuator_biasprm + GS_NBIAS * i;
    gsReal kp = m->actuator_gainprm[GS_NGAIN * i];
    if (bias[2] > 0 && kp == -bias[1]) {
      /* the mass the servo moves: each dof's inertia at qpos0 reflected through the moment arm;
       * the dof's own, without the tendons' armature (which MJCF leaves out here) */
      gsReal mass = 0;
      for (int k = 0; k < nv; k++) {
        if (moment[k] == 0) continue;
        gsReal mk = d->qM[m->dof_Madr[k]];
        for (int t = 0; t < m->ntendon; t++) {
          gsReal Jtk = d->ten_J[(size_t)t * nv + k];
          mk -= m->tendon_armature[t] * Jtk * Jtk;
        }
        mass += mk / (moment[k] * moment[k]);
      }
      bias[2] = -2 * bias[2] * sqrt(kp * mass);
    }
  }
  free(moment);
  free(x);
  return ok;
}
