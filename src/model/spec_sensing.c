/* Spec elements of the sensing slice: creation with MJCF's defaults; freeing is table-driven (spec_access.c). */
#include <stdlib.h>
#include <string.h>

#include "gauss/gauss.h"
#include "model/spec_slices.h"

static const gsReal kSolref[GS_NREF] = {0.02, 1};
static const gsReal kSolimp[GS_NIMP] = {0.9, 0.95, 0.001, 0.5, 2};

void gs_specInitSensing(gsSpec* s) {
  s->nuser_body = s->nuser_jnt = s->nuser_geom = s->nuser_site = -1;
  s->nuser_cam = s->nuser_tendon = s->nuser_actuator = s->nuser_sensor = -1;
}

/* allocate a zeroed element and append it to a list; NULL when out of memory */
static void* add(void*** list, int* n, int* cap, size_t size) {
  void* p = calloc(1, size);
  if (p && !gs_specPush(list, n, cap, p)) {
    free(p);
    return NULL;
  }
  return p;
}

gsSpecSensor* gs_specAddSensor(gsSpec* spec, int type) {
  gsSpecSensor* s = add((void***)&spec->sensor, &spec->nsensor, &spec->nsensor_cap, sizeof(*s));
  if (!s) return NULL;
  s->type = type;
  s->needstage = GS_STAGE_ACC;
  /* contact sensors: "found", no reduction, one slot */
  s->intprm[0] = 1 << GS_CONDATA_FOUND;
  s->intprm[2] = 1;
  return s;
}

gsSpecEquality* gs_specAddEquality(gsSpec* spec, int type) {
  gsSpecEquality* e =
      add((void***)&spec->equality, &spec->nequality, &spec->nequality_cap, sizeof(*e));
  if (!e) return NULL;
  e->type = type;
  e->objtype = GS_OBJ_BODY;
  e->active = 1;
  memcpy(e->solref, kSolref, sizeof(kSolref));
  memcpy(e->solimp, kSolimp, sizeof(kSolimp));
  e->torquescale = 1;
  e->polycoef[1] = 1;  /* obj1 = obj2 */
  return e;
}

gsSpecKey* gs_specAddKey(gsSpec* spec) {
  return add((void***)&spec->key, &spec->nkey, &spec->nkey_cap, sizeof(gsSpecKey));
}

gsSpecNumeric* gs_specAddNumeric(gsSpec* spec) {
  gsSpecNumeric* n =
      add((void***)&spec->numeric, &spec->nnumeric, &spec->nnumeric_cap, sizeof(*n));
  if (n) n->size = -1;
  return n;
}

gsSpecText* gs_specAddText(gsSpec* spec) {
  return add((void***)&spec->text, &spec->ntext, &spec->ntext_cap, sizeof(gsSpecText));
}

gsSpecTuple* gs_specAddTuple(gsSpec* spec) {
  return add((void***)&spec->tuple, &spec->ntuple, &spec->ntuple_cap, sizeof(gsSpecTuple));
}

gsSpecTupleElement* gs_specAddTupleElement(gsSpecTuple* t) {
  return add((void***)&t->element, &t->nelement, &t->nelement_cap, sizeof(gsSpecTupleElement));
}

