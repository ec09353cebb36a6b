/* Attribute setters, one per element kind the reader fills in the spec. Each takes one attribute
 * (already known to be valid MJCF for the element) and returns GSX_OK when it was stored, GSX_ERR
 * after reporting a bad value, or GSX_UNUSED when the engine does not simulate it (the caller
 * warns). name=, class= and childclass= are handled by the reader, not here. Angles are stored
 * as written: the compiler converts them with compiler.degree. */
#include <string.h>

#include "xml_internal.h"
#include "xml_keywords.h"


#define IS(s) (strcmp(a->name, (s)) == 0)

/* a real that may not be negative (masses, densities) */
static int nonneg_real(gsxCtx* c, const gsxAt* a, gsReal* out) {
  gsReal v;
  if (!gsx_real(c, a, &v)) return GSX_ERR;
  if (v < 0) return gsx_attrError(c, a, "negative value %g", v);
  *out = v;
  return GSX_OK;
}

/* ---- <compiler> ---- */

int gsx_compilerAttr(gsxCtx* c, gsCompilerOptions* o, const gsxAt* a) {
  if (IS("angle")) {
    static const char* const w[] = {"radian", "degree"};
    return gsx_keyword(c, a, w, 2, &o->degree);
  }
  if (IS("eulerseq")) {
    const char* v = a->value;
    int ok = strlen(v) == 3;
    for (int i = 0; ok && i < 3; i++) ok = strchr("xyzXYZ", v[i]) != NULL;
    if (!ok)
      return gsx_attrError(c, a, "invalid value '%.40s' (expected 3 characters from xyzXYZ)", v);
    memcpy(o->eulerseq, v, 4);
    return GSX_OK;
  }
  if (IS("inertiafromgeom")) return gsx_keyword(c, a, gsx_falseTrueAuto, 3, &o->inertiafromgeom);
  if (IS("inertiagrouprange")) return gsx_ints(c, a, o->inertiagrouprange, 2, 2, NULL);
  if (IS("autolimits")) return gsx_bool(c, a, &o->autolimits);
  if (IS("balanceinertia")) return gsx_bool(c, a, &o->balanceinertia);
  if (IS("boundmass")) return gsx_real(c, a, &o->boundmass);
  if (IS("boundinertia")) return gsx_real(c, a, &o->boundinertia);
  if (IS("settotalmass")) return gsx_real(c, a, &o->settotalmass);
  if (IS("meshdir") || IS("texturedir") || IS("assetdir")) {
    const char* v = gs_specIntern(c->spec, a->value);
    if (!v) return gsx_oom(c);
    if (IS("meshdir")) o->meshdir = v;
    else if (IS("texturedir")) o->texturedir = v;
    else o->assetdir = v;
    return GSX_OK;
  }
  if (IS("strippath")) return gsx_bool(c, a, &o->strippath);
  if (IS("discardvisual") || IS("fusestatic") || IS("alignfree") || IS("fitaabb")) {
    int* v = IS("discardvisual") ? &o->discardvisual : IS("fusestatic") ? &o->fusestatic
           : IS("alignfree") ? &o->alignfree : &o->fitaabb;
    return gsx_bool(c, a, v) ? GSX_OK : GSX_ERR;
  }
  if (IS("coordinate")) {
    static const char* const w[] = {"local", "global"};
    int v;
    if (!gsx_keyword(c, a, w, 2, &v)) return GSX_ERR;
    /* MuJoCo 3 removed global coordinates; local is what the compiler does anyway */
    if (v == 1) return gsx_attrError(c, a, "global coordinates are not supported (use local)");
    return GSX_OK;
  }
  return GSX_UNUSED;
}

/* <compiler><lengthrange> */
int gsx_lengthrangeAttr(gsxCtx* c, gsLengthRangeOptions* o, const gsxAt* a) {
  if (IS("mode")) {
    static const char* const w[] = {"none", "muscle", "muscleuser", "all"};
    return gsx_keyword(c, a, w, 4, &o->mode);
  }
  if (IS("useexisting")) return gsx_bool(c, a, &o->useexisting);
  if (IS("uselimit")) return gsx_bool(c, a, &o->uselimit);
  gsReal* v = IS("accel") ? &o->accel : IS("maxforce") ? &o->maxforce
            : IS("timeconst") ? &o->timeconst : IS("timestep") ? &o->timestep
            : IS("inttotal") ? &o->inttotal : IS("interval") ? &o->interval
            : IS("tolrange") ? &o->tolrange : NULL;
  if (!v) return GSX_UNUSED;
  int r = nonneg_real(c, a, v);
  if (r != GSX_OK) return r;
  /* a decay without a time constant, or a simulation without time, has no meaning */
  if (*v == 0 && (IS("timeconst") || IS("inttotal") || IS("accel")))
    return gsx_attrError(c, a, "must be positive");
  return GSX_OK;
}

/* ---- <option> and <flag> ---- */

int gsx_optionAttr(gsxCtx* c, gsOption* o, const gsxAt* a) {
  if (IS("timestep")) return gsx_real(c, a, &o->timestep);
  if (IS("impratio")) return gsx_real(c, a, &o->impratio);
  if (IS("tolerance")) return gsx_real(c, a, &o->tolerance);
  if (IS("ls_tolerance")) return gsx_real(c, a, &o->ls_tolerance);
  if (IS("noslip_tolerance")) return gsx_real(c, a, &o->noslip_tolerance);
  if (IS("ccd_tolerance")) return gsx_real(c, a, &o->ccd_tolerance);
  if (IS("gravity")) return gsx_reals(c, a, o->gravity, 3, 3, NULL);
  if (IS("wind")) return gsx_reals(c, a, o->wind, 3, 3, NULL);
  if (IS("magnetic")) return gsx_reals(c, a, o->magnetic, 3, 3, NULL);
  if (IS("density")) return gsx_real(c, a, &o->density);
  if (IS("viscosity")) return gsx_real(c, a, &o->viscosity);
  if (IS("o_margin")) return gsx_real(c, a, &o->o_margin);
  if (IS("o_solref")) return gsx_reals(c, a, o->o_solref, 1, GS_NREF, NULL);
  if (IS("o_solimp")) return gsx_reals(c, a, o->o_solimp, 1, GS_NIMP, NULL);
  if (IS("o_friction")) return gsx_reals(c, a, o->o_friction, 1, 5, NULL);
  if (IS("integrator")) {
    static const char* const w[] = {"Euler", "RK4", "implicit", "implicitfast"};
    return gsx_keyword(c, a, w, 4, &o->integrator);
  }
  if (IS("cone")) {
    static const char* const w[] = {"pyramidal", "elliptic"};
    return gsx_keyword(c, a, w, 2, &o->cone);
  }
  if (IS("jacobian")) {
    static const char* const w[] = {"dense", "sparse", "auto"};
    return gsx_keyword(c, a, w, 3, &o->jacobian);
  }
  if (IS("solver")) {
    static const char* const w[] = {"PGS", "CG", "Newton"};
    return gsx_keyword(c, a, w, 3, &o->solver);
  }
  if (IS("iterations")) return gsx_int(c, a, &o->iterations);
  if (IS("ls_iterations")) return gsx_int(c, a, &o->ls_iterations);
  if (IS("noslip_iterations")) return gsx_int(c, a, &o->noslip_iterations);
  if (IS("ccd_iterations")) return gsx_int(c, a, &o->ccd_iterations);
  if (IS("actuatorgroupdisable")) {
    /* a list of the groups (0 to 30) whose actuators are disabled */
    int groups[31], n = 0;
    if (!gsx_ints(c, a, groups, 0, 31, &n)) return GSX_ERR;
    o->actuatorgroupdisable = 0;
    for (int i = 0; i < n; i++) {
      if (groups[i] < 0 || groups[i] > 30)
        return gsx_attrError(c, a, "actuator groups are 0 to 30"), GSX_ERR;
      o->actuatorgroupdisable |= 1 << groups[i];
    }
    return GSX_OK;
  }
  return GSX_UNUSED;
}

int gsx_flagAttr(gsxCtx* c, gsOption* o, const gsxAt* a) {
  static const char* const w[] = {"disable", "enable"};
  int enable;
  if (!gsx_keyword(c, a, w, 2, &enable)) return GSX_ERR;
  /* disable-bits are set by "disable", enable-bits by "enable" */
  /* nativeccd="disable": MJCF's older convex pipeline (src/collision/convex_mpr.c); what of it
   * is not reproduced is named once the model is read (gsx_warnOlderConvex) */
  if (IS("nativeccd")) c->nativeccd_file = enable ? NULL : a->file, c->nativeccd_line = a->line;
  for (int i = 0; i < GS_NDISABLE; i++)
    if (IS(gs_disable_names[i])) {
      if (enable)
        o->disableflags &= ~(1 << i);
      else
        o->disableflags |= 1 << i;
      return GSX_OK;
    }
  for (int i = 0; i < GS_NENABLE; i++)
    if (IS(gs_enable_names[i])) {
      if (enable)
        o->enableflags |= 1 << i;
      else
        o->enableflags &= ~(1 << i);
      return GSX_OK;
    }
  return GSX_UNUSED;
}

/* ---- kinematic tree ---- */

int gsx_bodyAttr(gsxCtx* c, gsSpecBody* b, const gsxAt* a) {
  int r = gsx_orientAttr(c, &b->orient, a);
  if (r >= 0) return r;
  if (IS("pos")) return gsx_reals(c, a, b->pos, 3, 3, NULL);
  if (IS("mocap")) return gsx_bool(c, a, &b->mocap);
  if (IS("user")) return gsx_userAttr(c, a, &b->user, &b->nuser);
  if (IS("gravcomp")) return gsx_real(c, a, &b->gravcomp);
  return GSX_UNUSED;
}

/* stiffness and damping: MJCF allows polynomial coefficients; the engine uses the first */
static int first_coef(gsxCtx* c, const gsxAt* a, gsReal* out) {
  gsReal v[3];
  int n;
  if (!gsx_reals(c, a, v, 1, 3, &n)) return GSX_ERR;
  *out = v[0];
  if (n > 1)
    gsx_warn(c, a->file, a->line,
             "attribute '%s' of <%s>: only the first coefficient is simulated yet", a->name,
             a->elem);
  return GSX_OK;
}

int gsx_jointAttr(gsxCtx* c, gsSpecJoint* j, const gsxAt* a) {
  if (IS("type")) return gsx_keyword(c, a, gsx_jointTypes, 4, &j->type);
  if (IS("group")) return gsx_int(c, a, &j->group);
  if (IS("pos")) return gsx_reals(c, a, j->pos, 3, 3, NULL);
  if (IS("axis")) return gsx_reals(c, a, j->axis, 3, 3, NULL);
  if (IS("limited")) return gsx_keyword(c, a, gsx_falseTrueAuto, 3, &j->limited);
  if (IS("range")) {
    if (!gsx_reals(c, a, j->range, 2, 2, NULL)) return GSX_ERR;
    j->range_given = 1;  /* drives autolimits */
    return GSX_OK;
  }
  if (IS("solreflimit")) return gsx_reals(c, a, j->solref_limit, 1, GS_NREF, NULL);
  if (IS("solimplimit")) return gsx_reals(c, a, j->solimp_limit, 1, GS_NIMP, NULL);
  if (IS("solreffriction")) return gsx_reals(c, a, j->solref_friction, 1, GS_NREF, NULL);
  if (IS("solimpfriction")) return gsx_reals(c, a, j->solimp_friction, 1, GS_NIMP, NULL);
  if (IS("stiffness")) return first_coef(c, a, &j->stiffness);
  if (IS("damping")) return first_coef(c, a, &j->damping);
  if (IS("armature")) return gsx_real(c, a, &j->armature);
  if (IS("springdamper")) return gsx_reals(c, a, j->springdamper, 2, 2, NULL);
  if (IS("frictionloss")) return gsx_real(c, a, &j->frictionloss);
  if (IS("margin")) return gsx_real(c, a, &j->margin);
  if (IS("ref")) return gsx_real(c, a, &j->ref);
  if (IS("springref")) return gsx_real(c, a, &j->springref);
  if (IS("actuatorgravcomp")) return gsx_bool(c, a, &j->actgravcomp);
  if (IS("actuatorfrclimited")) return gsx_keyword(c, a, gsx_falseTrueAuto, 3, &j->actfrclimited);
  if (IS("actuatorfrcrange")) return gsx_reals(c, a, j->actfrcrange, 2, 2, NULL);
  if (IS("user")) return gsx_userAttr(c, a, &j->user, &j->nuser);
  return GSX_UNUSED;
}

int gsx_geomAttr(gsxCtx* c, gsSpecGeom* g, const gsxAt* a) {
  int r = gsx_orientAttr(c, &g->orient, a);
  if (r >= 0) return r;
  if (IS("type")) return gsx_keyword(c, a, gsx_geomTypes, 8, &g->type);
  if (IS("size")) return gsx_reals(c, a, g->size, 1, 3, NULL);
  if (IS("pos")) return gsx_reals(c, a, g->pos, 3, 3, NULL);
  if (IS("fromto")) {
    if (!gsx_reals(c, a, g->fromto, 6, 6, NULL)) return GSX_ERR;
    g->has_fromto = 1;
    return GSX_OK;
  }
  if (IS("mass")) return nonneg_real(c, a, &g->mass);
  if (IS("density")) return nonneg_real(c, a, &g->density);
  if (IS("fitscale")) return nonneg_real(c, a, &g->fitscale);
  if (IS("contype")) return gsx_int(c, a, &g->contype);
  if (IS("conaffinity")) return gsx_int(c, a, &g->conaffinity);
  if (IS("condim")) return gsx_int(c, a, &g->condim);
  if (IS("group")) return gsx_int(c, a, &g->group);
  if (IS("priority")) return gsx_int(c, a, &g->priority);
  if (IS("friction")) return gsx_reals(c, a, g->friction, 1, 3, NULL);
  if (IS("solmix")) return gsx_real(c, a, &g->solmix);
  if (IS("solref")) return gsx_reals(c, a, g->solref, 1, GS_NREF, NULL);
  if (IS("solimp")) return gsx_reals(c, a, g->solimp, 1, GS_NIMP, NULL);
  if (IS("margin")) return gsx_real(c, a, &g->margin);
  if (IS("gap")) return gsx_real(c, a, &g->gap);
  if (IS("rgba")) return gsx_reals(c, a, g->rgba, 4, 4, NULL);
  if (IS("fluidshape")) {
    static const char* const kShapes[] = {"none", "ellipsoid"};
    return gsx_keyword(c, a, kShapes, 2, &g->fluidshape);
  }
  /* as MJCF: up to five values, the first ones given replace the defaults */
  if (IS("fluidcoef")) return gsx_reals(c, a, g->fluidcoef, 1, 5, NULL);
  if (IS("user")) return gsx_userAttr(c, a, &g->user, &g->nuser);
  /* asset references: read by the world slice (xml_world.c) */
  if (IS("material") || IS("mesh") || IS("hfield")) return GSX_OK;
  return GSX_UNUSED;
}

int gsx_siteAttr(gsxCtx* c, gsSpecSite* s, const gsxAt* a) {
  int r = gsx_orientAttr(c, &s->orient, a);
  if (r >= 0) return r;
  if (IS("type")) return gsx_keyword(c, a, gsx_geomTypes, 8, &s->type);
  if (IS("size")) return gsx_reals(c, a, s->size, 1, 3, NULL);
  if (IS("pos")) return gsx_reals(c, a, s->pos, 3, 3, NULL);
  if (IS("fromto")) {
    if (!gsx_reals(c, a, s->fromto, 6, 6, NULL)) return GSX_ERR;
    s->has_fromto = 1;
    return GSX_OK;
  }
  if (IS("group")) return gsx_int(c, a, &s->group);
  if (IS("rgba")) return gsx_reals(c, a, s->rgba, 4, 4, NULL);
  if (IS("user")) return gsx_userAttr(c, a, &s->user, &s->nuser);
  if (IS("material")) return GSX_OK;  /* read by the world slice (xml_world.c) */
  return GSX_UNUSED;
}

int gsx_inertialAttr(gsxCtx* c, gsSpecInertial* in, const gsxAt* a) {
  int r = gsx_orientAttr(c, &in->orient, a);
  if (r >= 0) return r;
  if (IS("pos")) return gsx_reals(c, a, in->pos, 3, 3, NULL);
  if (IS("mass")) return nonneg_real(c, a, &in->mass);
  if (IS("diaginertia")) {
    gsReal v[3];
    if (!gsx_reals(c, a, v, 3, 3, NULL)) return GSX_ERR;
    for (int i = 0; i < 3; i++)
      if (v[i] < 0) return gsx_attrError(c, a, "negative inertia %g", v[i]);
    memcpy(in->diaginertia, v, sizeof(v));
    in->has_full = 0;
    return GSX_OK;
  }
  if (IS("fullinertia")) {
    gsReal v[6];
    if (!gsx_reals(c, a, v, 6, 6, NULL)) return GSX_ERR;
    for (int i = 0; i < 3; i++)
      if (v[i] < 0) return gsx_attrError(c, a, "negative inertia %g", v[i]);
    memcpy(in->fullinertia, v, sizeof(v));
    in->has_full = 1;
    return GSX_OK;
  }
  return GSX_UNUSED;
}

/* the geoms of b's subtree by type */
static void count_geoms(const gsSpecBody* b, int* count) {
  for (int i = 0; i < b->ngeom; i++)
    if (b->geom[i]->type >= 0 && b->geom[i]->type < GS_NGEOMTYPE) count[b->geom[i]->type]++;
  for (int i = 0; i < b->nchild; i++) count_geoms(b->child[i], count);
}

void gsx_warnOlderConvex(gsxCtx* c) {
  const gsSpec* s = c->spec;
  if (!c->nativeccd_file || !(s->option.disableflags & GS_DSBL_NATIVECCD) || !s->world) return;
  int n[GS_NGEOMTYPE] = {0}, dist = 0;
  count_geoms(s->world, n);
  for (int i = 0; i < s->nsensor; i++) {
    int t = s->sensor[i]->type;
    dist += t == GS_SENS_GEOMDIST || t == GS_SENS_GEOMNORMAL || t == GS_SENS_GEOMFROMTO;
  }
  if (n[GS_GEOM_ELLIPSOID])
    gsx_warn(c, c->nativeccd_file, c->nativeccd_line,
             "flag nativeccd=\"disable\": the contact normals MJCF's older convex pipeline gives "
             "ellipsoids are approached, not reproduced (gauss takes the exact nearest surface "
             "point's normal, MJCF an iteration's: about 93 %% of contacts within 1e-6)");
  if (s->option.enableflags & GS_ENBL_MULTICCD)
    gsx_warn(c, c->nativeccd_file, c->nativeccd_line,
             "flag nativeccd=\"disable\" with multiccd: the extra contacts of MJCF's older "
             "pipeline (the pair turned about the contact) are found as the default pipeline's "
             "margin case finds them, which keeps fewer of them near one another");
  if (dist)
    gsx_warn(c, c->nativeccd_file, c->nativeccd_line,
             "flag nativeccd=\"disable\": distance, normal and fromto sensors keep the exact "
             "distance, not MJCF's older pipeline's estimate");
}
