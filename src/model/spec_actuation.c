/* Spec elements of the actuation slice: creation with MJCF's defaults; freeing is table-driven (spec_access.c). */
#include <stdlib.h>
#include <string.h>

#include "gauss/gauss.h"
#include "model/spec_slices.h"

static const gsReal kSolref[GS_NREF] = {0.02, 1};
static const gsReal kSolimp[GS_NIMP] = {0.9, 0.95, 0.001, 0.5, 2};

gsSpecTendon* gs_specAddTendon(gsSpec* spec, int spatial) {
  gsSpecTendon* t = calloc(1, sizeof(gsSpecTendon));
  if (!t) return NULL;
  t->spatial = spatial;
  t->limited = GS_LIMITED_AUTO;
  t->actfrclimited = GS_LIMITED_FALSE;
  memcpy(t->solref_limit, kSolref, sizeof(kSolref));
  memcpy(t->solref_friction, kSolref, sizeof(kSolref));
  memcpy(t->solimp_limit, kSolimp, sizeof(kSolimp));
  memcpy(t->solimp_friction, kSolimp, sizeof(kSolimp));
  t->width = 0.003;
  for (int i = 0; i < 3; i++) t->rgba[i] = 0.5;
  t->rgba[3] = 1;
  t->springlength[0] = t->springlength[1] = -1;
  if (!gs_specPush((void***)&spec->tendon, &spec->ntendon, &spec->ntendon_cap, t)) {
    free(t);
    return NULL;
  }
  return t;
}

gsSpecWrap* gs_specAddWrap(gsSpecTendon* tendon, int kind) {
  gsSpecWrap* w = calloc(1, sizeof(gsSpecWrap));
  if (!w) return NULL;
  w->kind = kind;
  w->prm = kind == GS_PATH_PULLEY ? 1 : 0;
  if (!gs_specPush((void***)&tendon->wrap, &tendon->nwrap, &tendon->nwrap_cap, w)) {
    free(w);
    return NULL;
  }
  return w;
}

void gs_specDefaultActuator(gsSpecActuator* a) {
  a->trntype = GS_TRN_JOINT;
  a->group = 0;
  a->ctrllimited = a->forcelimited = a->actlimited = GS_LIMITED_AUTO;
  memset(a->ctrlrange, 0, sizeof(a->ctrlrange));
  memset(a->forcerange, 0, sizeof(a->forcerange));
  memset(a->actrange, 0, sizeof(a->actrange));
  memset(a->lengthrange, 0, sizeof(a->lengthrange));
  memset(a->gear, 0, sizeof(a->gear));
  a->gear[0] = 1;
  a->cranklength = 0;
  a->dyntype = GS_DYN_NONE;
  a->gaintype = GS_GAIN_FIXED;
  a->biastype = GS_BIAS_NONE;
  memset(a->dynprm, 0, sizeof(a->dynprm));
  memset(a->gainprm, 0, sizeof(a->gainprm));
  memset(a->biasprm, 0, sizeof(a->biasprm));
  a->dynprm[0] = 1;
  a->gainprm[0] = 1;
  a->actdim = -1;
  a->actearly = 0;
  a->inheritrange = 0;
}

gsSpecActuator* gs_specAddActuator(gsSpec* spec) {
  gsSpecActuator* a = calloc(1, sizeof(gsSpecActuator));
  if (!a) return NULL;
  gs_specDefaultActuator(a);
  if (!gs_specPush((void***)&spec->actuator, &spec->nactuator, &spec->nactuator_cap, a)) {
    free(a);
    return NULL;
  }
  return a;
}

