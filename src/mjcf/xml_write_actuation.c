/* The MJCF writer's part for the actuation slice: <tendon> (fixed and spatial, with their paths)
 * and <actuator>, every actuator as <general> with its dynamics, gain and bias types and
 * parameters written out, so that no shortcut has anything left to imply. */
#include <stdio.h>

#include "xml_write_internal.h"
#include "xml_keywords.h"


/* user="..." when the model keeps n user values per object */
static void user_attr(gswWriter* w, const gsReal* user, int n) {
  if (n > 0) gsw_reals(w, "user", user, n);
}

static int is_spatial(const gsModel* m, int t) {
  return m->tendon_num[t] > 0 && m->wrap_type[m->tendon_adr[t]] != GS_WRAP_JOINT;
}

static void appearance(gswWriter* w, int t) {
  const gsModel* m = w->m;
  gsw_real(w, "width", m->tendon_width[t]);
  gsw_reals(w, "rgba", m->tendon_rgba + 4 * t, 4);
  if (m->tendon_matid[t] >= 0) gsw_ref(w, "material", GS_OBJ_MATERIAL, m->tendon_matid[t]);
}

/* class="..." of the default class that carries fixed tendon t's appearance */
static void fixed_class(gswWriter* w, int t) {
  char cls[32];
  snprintf(cls, sizeof cls, "gauss_fixed_%d", t);
  gsw_str(w, "class", cls);
}

/* MJCF lets a fixed tendon take width, rgba and material from its class only: one class per
 * fixed tendon carries them */
void gsw_writeDefaultsActuation(gswWriter* w) {
  const gsModel* m = w->m;
  int nfixed = 0;
  for (int t = 0; t < m->ntendon; t++) nfixed += !is_spatial(m, t);
  if (!nfixed) return;
  gsw_open(w, "default");
  gsw_begin(w);
  for (int t = 0; t < m->ntendon; t++) {
    if (is_spatial(m, t)) continue;
    gsw_open(w, "default");
    fixed_class(w, t);
    gsw_begin(w);
    gsw_open(w, "tendon");
    appearance(w, t);
    gsw_end(w);
    gsw_close(w, "default");
  }
  gsw_close(w, "default");
}

static void write_tendon(gswWriter* w, int t) {
  const gsModel* m = w->m;
  int adr = m->tendon_adr[t], num = m->tendon_num[t];
  int spatial = is_spatial(m, t);
  const char* elem = spatial ? "spatial" : "fixed";
  gsw_open(w, elem);
  gsw_name(w, GS_OBJ_TENDON, t);
  gsw_int(w, "group", m->tendon_group[t]);
  gsw_bool(w, "limited", m->tendon_limited[t]);
  gsw_reals(w, "range", m->tendon_range + 2 * t, 2);
  gsw_bool(w, "actuatorfrclimited", m->tendon_actfrclimited[t]);
  gsw_reals(w, "actuatorfrcrange", m->tendon_actfrcrange + 2 * t, 2);
  gsw_real(w, "margin", m->tendon_margin[t]);
  gsw_reals(w, "solreflimit", m->tendon_solref_lim + GS_NREF * t, GS_NREF);
  gsw_reals(w, "solimplimit", m->tendon_solimp_lim + GS_NIMP * t, GS_NIMP);
  gsw_reals(w, "solreffriction", m->tendon_solref_fri + GS_NREF * t, GS_NREF);
  gsw_reals(w, "solimpfriction", m->tendon_solimp_fri + GS_NIMP * t, GS_NIMP);
  gsw_real(w, "frictionloss", m->tendon_frictionloss[t]);
  /* the rest lengths as compiled (at qpos_spring when they were not given) */
  gsw_reals(w, "springlength", m->tendon_lengthspring + 2 * t, 2);
  gsw_real(w, "stiffness", m->tendon_stiffness[t]);
  gsw_real(w, "damping", m->tendon_damping[t]);
  gsw_real(w, "armature", m->tendon_armature[t]);
  if (spatial) {
    appearance(w, t);
  } else {
    /* a fixed tendon takes its appearance from a class only (see gsw_writeDefaultsActuation) */
    fixed_class(w, t);
  }
  user_attr(w, m->tendon_user + (size_t)t * m->nuser_tendon, m->nuser_tendon);
  gsw_begin(w);
  for (int k = adr; k < adr + num; k++) {
    switch (m->wrap_type[k]) {
      case GS_WRAP_JOINT:
        gsw_open(w, "joint");
        gsw_ref(w, "joint", GS_OBJ_JOINT, m->wrap_objid[k]);
        gsw_real(w, "coef", m->wrap_prm[k]);
        break;
      case GS_WRAP_SITE:
        gsw_open(w, "site");
        gsw_ref(w, "site", GS_OBJ_SITE, m->wrap_objid[k]);
        break;
      case GS_WRAP_SPHERE:
      case GS_WRAP_CYLINDER:
        gsw_open(w, "geom");
        gsw_ref(w, "geom", GS_OBJ_GEOM, m->wrap_objid[k]);
        if (m->wrap_prm[k] >= 0) gsw_ref(w, "sidesite", GS_OBJ_SITE, (int)m->wrap_prm[k]);
        break;
      case GS_WRAP_PULLEY:
        gsw_open(w, "pulley");
        gsw_real(w, "divisor", m->wrap_prm[k]);
        break;
      default:
        gsw_fail(w, "tendon %d: unknown path element type %d", t, m->wrap_type[k]);
        return;
    }
    gsw_end(w);
  }
  gsw_close(w, elem);
}

static void write_actuator(gswWriter* w, int i) {
  const gsModel* m = w->m;
  int type = m->actuator_trntype[i], id = m->actuator_trnid[2 * i],
      id1 = m->actuator_trnid[2 * i + 1];
  gsw_open(w, "general");
  gsw_name(w, GS_OBJ_ACTUATOR, i);
  switch (type) {
    case GS_TRN_JOINT: gsw_ref(w, "joint", GS_OBJ_JOINT, id); break;
    case GS_TRN_JOINTINPARENT: gsw_ref(w, "jointinparent", GS_OBJ_JOINT, id); break;
    case GS_TRN_TENDON: gsw_ref(w, "tendon", GS_OBJ_TENDON, id); break;
    case GS_TRN_SITE:
      gsw_ref(w, "site", GS_OBJ_SITE, id);
      if (id1 >= 0) gsw_ref(w, "refsite", GS_OBJ_SITE, id1);
      break;
    case GS_TRN_SLIDERCRANK:
      gsw_ref(w, "cranksite", GS_OBJ_SITE, id);
      gsw_ref(w, "slidersite", GS_OBJ_SITE, id1);
      break;
    case GS_TRN_BODY: gsw_ref(w, "body", GS_OBJ_BODY, id); break;
    default: gsw_fail(w, "actuator %d: unknown transmission type %d", i, type); return;
  }
  gsw_int(w, "group", m->actuator_group[i]);
  gsw_bool(w, "ctrllimited", m->actuator_ctrllimited[i]);
  gsw_bool(w, "forcelimited", m->actuator_forcelimited[i]);
  gsw_bool(w, "actlimited", m->actuator_actlimited[i]);
  gsw_reals(w, "ctrlrange", m->actuator_ctrlrange + 2 * i, 2);
  gsw_reals(w, "forcerange", m->actuator_forcerange + 2 * i, 2);
  gsw_reals(w, "actrange", m->actuator_actrange + 2 * i, 2);
  gsw_reals(w, "lengthrange", m->actuator_lengthrange + 2 * i, 2);
  gsw_reals(w, "gear", m->actuator_gear + 6 * i, 6);
  if (type == GS_TRN_SLIDERCRANK) gsw_real(w, "cranklength", m->actuator_cranklength[i]);
  gsw_keyword(w, "dyntype", gsx_dynTypes, 6, m->actuator_dyntype[i]);
  gsw_keyword(w, "gaintype", gsx_gainTypes, 4, m->actuator_gaintype[i]);
  gsw_keyword(w, "biastype", gsx_biasTypes, 4, m->actuator_biastype[i]);
  gsw_reals(w, "dynprm", m->actuator_dynprm + GS_NDYN * i, GS_NDYN);
  gsw_reals(w, "gainprm", m->actuator_gainprm + GS_NGAIN * i, GS_NGAIN);
  gsw_reals(w, "biasprm", m->actuator_biasprm + GS_NBIAS * i, GS_NBIAS);
  /* activation states: written only where they differ from what the dynamics imply */
  int implied = m->actuator_dyntype[i] != GS_DYN_NONE;
  if (m->actuator_actnum[i] != implied) gsw_int(w, "actdim", m->actuator_actnum[i]);
  gsw_bool(w, "actearly", m->actuator_actearly[i]);
  user_attr(w, m->actuator_user + (size_t)i * m->nuser_actuator, m->nuser_actuator);
  gsw_end(w);
}

void gsw_writeActuation(gswWriter* w) {
  const gsModel* m = w->m;
  if (m->ntendon) {
    gsw_open(w, "tendon");
    gsw_begin(w);
    for (int t = 0; t < m->ntendon && !w->failed; t++) write_tendon(w, t);
    gsw_close(w, "tendon");
  }
  if (m->nu) {
    gsw_open(w, "actuator");
    gsw_begin(w);
    for (int i = 0; i < m->nu && !w->failed; i++) write_actuator(w, i);
    gsw_close(w, "actuator");
  }
}
