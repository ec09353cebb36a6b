/* The editable model tree: creation with MJCF's defaults, and freeing. */
#include <stdlib.h>
#include <string.h>

#include "gauss/gauss.h"
#include "model/spec_slices.h"

static const gsReal kSolref[GS_NREF] = {0.02, 1};
static const gsReal kSolimp[GS_NIMP] = {0.9, 0.95, 0.001, 0.5, 2};

void gs_defaultOption(gsOption* o) {
  memset(o, 0, sizeof(*o));
  o->timestep = 0.002;
  o->impratio = 1;
  o->tolerance = 1e-8;
  o->ls_tolerance = 0.01;
  o->noslip_tolerance = 1e-6;
  o->ccd_tolerance = 1e-6;
  o->gravity[2] = -9.81;
  o->magnetic[1] = -0.5;
  memcpy(o->o_solref, kSolref, sizeof(kSolref));
  memcpy(o->o_solimp, kSolimp, sizeof(kSolimp));
  o->o_friction[0] = 1;
  o->o_friction[1] = 1;
  o->o_friction[2] = 0.005;
  o->o_friction[3] = 0.0001;
  o->o_friction[4] = 0.0001;
  o->integrator = GS_INT_EULER;
  o->cone = GS_CONE_PYRAMIDAL;
  o->jacobian = GS_JAC_AUTO;
  o->solver = GS_SOL_NEWTON;
  o->iterations = 100;
  o->ls_iterations = 50;
  o->noslip_iterations = 0;
  o->ccd_iterations = 35;
}

void gs_defaultCompilerOptions(gsCompilerOptions* c) {
  memset(c, 0, sizeof(*c));
  c->degree = 1;
  strcpy(c->eulerseq, "xyz");
  c->inertiafromgeom = GS_INERTIAFROMGEOM_AUTO;
  c->inertiagrouprange[0] = 0;
  c->inertiagrouprange[1] = 5;
  c->autolimits = 1;
  c->settotalmass = -1;
  gsLengthRangeOptions* lr = &c->lengthrange;
  lr->mode = GS_LRMODE_MUSCLE;
  lr->useexisting = 1;
  lr->uselimit = 0;
  lr->accel = 20;
  lr->maxforce = 0;
  lr->timeconst = 1;
  lr->timestep = 0.01;
  lr->inttotal = 10;
  lr->interval = 2;
  lr->tolrange = 0.05;
}

gsSpec* gs_specNew(void) {
  gsSpec* s = calloc(1, sizeof(gsSpec));
  if (!s) return NULL;
  gs_defaultCompilerOptions(&s->compiler);
  gs_defaultOption(&s->option);
  /* <size memory nconmax njmax nstack>: -1, sized by the compiler */
  s->size_memory = s->size_nconmax = s->size_njmax = s->size_nstack = -1;
  gs_specInitWorld(s);
  gs_specInitSensing(s);
  s->world = gs_specAddBody(NULL);
  /* MJCF names the world body "world" */
  if (s->world && !gs_specSetName(&s->world->info, "world")) {
    gs_specFree(s);
    return NULL;
  }
  if (!s->world) {
    free(s);
    return NULL;
  }
  return s;
}

void gs_specFree(gsSpec* s) {
  if (!s) return;
  /* each element frees what its attribute table says it owns (spec_access.c) */
  gs_specFreeList(GS_SK_TENDON, (void***)&s->tendon, &s->ntendon, &s->ntendon_cap);
  gs_specFreeList(GS_SK_ACTUATOR, (void***)&s->actuator, &s->nactuator, &s->nactuator_cap);
  gs_specFreeList(GS_SK_SENSOR, (void***)&s->sensor, &s->nsensor, &s->nsensor_cap);
  gs_specFreeList(GS_SK_EQUALITY, (void***)&s->equality, &s->nequality, &s->nequality_cap);
  gs_specFreeList(GS_SK_KEY, (void***)&s->key, &s->nkey, &s->nkey_cap);
  gs_specFreeList(GS_SK_NUMERIC, (void***)&s->numeric, &s->nnumeric, &s->nnumeric_cap);
  gs_specFreeList(GS_SK_TEXT, (void***)&s->text, &s->ntext, &s->ntext_cap);
  gs_specFreeList(GS_SK_TUPLE, (void***)&s->tuple, &s->ntuple, &s->ntuple_cap);
  gs_specFreeList(GS_SK_MESH, (void***)&s->mesh, &s->nmesh, &s->nmesh_cap);
  gs_specFreeList(GS_SK_HFIELD, (void***)&s->hfield, &s->nhfield, &s->nhfield_cap);
  gs_specFreeList(GS_SK_TEXTURE, (void***)&s->texture, &s->ntexture, &s->ntexture_cap);
  gs_specFreeList(GS_SK_MATERIAL, (void***)&s->material, &s->nmaterial, &s->nmaterial_cap);
  gs_specFreeList(GS_SK_PAIR, (void***)&s->pair, &s->npair, &s->npair_cap);
  gs_specFreeList(GS_SK_EXCLUDE, (void***)&s->exclude, &s->nexclude, &s->nexclude_cap);
  for (int i = 0; i < s->nframename; i++) free(s->framename[i]);
  free(s->framename);
  gs_specFreeElement(GS_SK_BODY, s->world);
  for (int i = 0; i < s->nstring; i++) free(s->strings[i]);
  free(s->strings);
  free(s->modelname);
  free(s);
}

gsSpecBody* gs_specAddBody(gsSpecBody* parent) {
  gsSpecBody* b = calloc(1, sizeof(gsSpecBody));
  if (!b) return NULL;
  b->parent = parent;
  gs_orientSetQuat(&b->orient, NULL);
  gs_orientSetQuat(&b->inertial.orient, NULL);
  if (parent && !gs_specPush((void***)&parent->child, &parent->nchild, &parent->nchild_cap, b)) {
    free(b);
    return NULL;
  }
  return b;
}

gsSpecJoint* gs_specAddJoint(gsSpecBody* body) {
  gsSpecJoint* j = calloc(1, sizeof(gsSpecJoint));
  if (!j) return NULL;
  j->type = GS_JNT_HINGE;
  j->axis[2] = 1;
  j->limited = GS_LIMITED_AUTO;
  j->actfrclimited = GS_LIMITED_AUTO;
  j->align = 2;  /* auto: the compiler's alignfree */
  memcpy(j->solref_limit, kSolref, sizeof(kSolref));
  memcpy(j->solimp_limit, kSolimp, sizeof(kSolimp));
  memcpy(j->solref_friction, kSolref, sizeof(kSolref));
  memcpy(j->solimp_friction, kSolimp, sizeof(kSolimp));
  if (!gs_specPush((void***)&body->joint, &body->njoint, &body->njoint_cap, j)) {
    free(j);
    return NULL;
  }
  return j;
}

gsSpecGeom* gs_specAddGeom(gsSpecBody* body) {
  gsSpecGeom* g = calloc(1, sizeof(gsSpecGeom));
  if (!g) return NULL;
  g->type = GS_GEOM_SPHERE;
  gs_orientSetQuat(&g->orient, NULL);
  g->mass = -1;
  g->density = 1000;
  g->fitscale = 1;
  g->contype = 1;
  g->conaffinity = 1;
  g->condim = 3;
  g->friction[0] = 1;
  g->friction[1] = 0.005;
  g->friction[2] = 0.0001;
  g->solmix = 1;
  memcpy(g->solref, kSolref, sizeof(kSolref));
  memcpy(g->solimp, kSolimp, sizeof(kSolimp));
  g->rgba[0] = g->rgba[1] = g->rgba[2] = 0.5;
  g->rgba[3] = 1;
  /* MJCF's fluidcoef defaults: blunt, slender, angular drag, Kutta lift, Magnus lift */
  g->fluidcoef[0] = 0.5;
  g->fluidcoef[1] = 0.25;
  g->fluidcoef[2] = 1.5;
  g->fluidcoef[3] = 1;
  g->fluidcoef[4] = 1;
  if (!gs_specPush((void***)&body->geom, &body->ngeom, &body->ngeom_cap, g)) {
    free(g);
    return NULL;
  }
  return g;
}

gsSpecSite* gs_specAddSite(gsSpecBody* body) {
  gsSpecSite* s = calloc(1, sizeof(gsSpecSite));
  if (!s) return NULL;
  s->type = GS_GEOM_SPHERE;
  s->size[0] = s->size[1] = s->size[2] = 0.005;
  gs_orientSetQuat(&s->orient, NULL);
  s->rgba[0] = s->rgba[1] = s->rgba[2] = 0.5;
  s->rgba[3] = 1;
  if (!gs_specPush((void***)&body->site, &body->nsite, &body->nsite_cap, s)) {
    free(s);
    return NULL;
  }
  return s;
}

int gs_specSetString(char** dst, const char* s) {
  char* copy = NULL;
  if (s) {
    size_t n = strlen(s) + 1;
    copy = malloc(n);
    if (!copy) return 0;
    memcpy(copy, s, n);
  }
  free(*dst);
  *dst = copy;
  return 1;
}

int gs_specSetName(gsSpecInfo* info, const char* name) {
  return gs_specSetString(&info->name, name);
}

const char* gs_specIntern(gsSpec* spec, const char* s) {
  for (int i = 0; i < spec->nstring; i++)
    if (strcmp(spec->strings[i], s) == 0) return spec->strings[i];
  char* copy = malloc(strlen(s) + 1);
  if (!copy) return NULL;
  strcpy(copy, s);
  if (!gs_specPush((void***)&spec->strings, &spec->nstring, &spec->nstring_cap, copy)) {
    free(copy);
    return NULL;
  }
  return copy;
}
