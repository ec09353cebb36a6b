/* A deep copy of a spec (MuJoCo's spec.copy()): every element through its attribute table
 * (spec_access.c), bodies with their contents, the asset references re-pointed at the copied geoms
 * and sites, and the file names re-interned in the copy's own string pool. */
#include <stdlib.h>
#include <string.h>

#include "gauss/gauss.h"
#include "model/spec_slices.h"

/* the copy's pool string for a string of the source's pool; 0 when out of memory */
static int reintern(gsSpec* s, const char** p) {
  if (!*p) return 1;
  *p = gs_specIntern(s, *p);
  return *p != NULL;
}

static void* copy_of(gsSpec* s, int kind, const void* el, int* ok) {
  void* c = *ok ? gs_specCopyElement(kind, el) : NULL;
  if (!c) {
    *ok = 0;
    return NULL;
  }
  /* every kind but tuple elements starts with its info */
  if (kind != GS_SK_TUPLEELEMENT && kind != GS_SK_WRAP && !reintern(s, &((gsSpecInfo*)c)->file)) *ok = 0;
  if (kind == GS_SK_WRAP && !reintern(s, &((gsSpecWrap*)c)->info.file)) *ok = 0;
  if (kind == GS_SK_TENDON)
    for (int i = 0; i < ((gsSpecTendon*)c)->nwrap; i++)
      if (!reintern(s, &((gsSpecTendon*)c)->wrap[i]->info.file)) *ok = 0;
  return c;
}

/* push a copy of each element of list into *dst */
static int copy_list(gsSpec* s, int kind, void* const* list, int n, void*** dst, int* ndst, int* cap) {
  int ok = 1;
  for (int i = 0; ok && i < n; i++) {
    void* c = copy_of(s, kind, list[i], &ok);
    if (ok && !gs_specPush(dst, ndst, cap, c)) ok = 0;
    if (!ok) gs_specFreeElement(kind, c);
  }
  return ok;
}

static int index_of(void* const* list, int n, const void* el) {
  for (int i = 0; i < n; i++)
    if (list[i] == el) return i;
  return -1;
}

/* an element's frame in the copy: the copied frame at the same place in the body (a frame of
 * another body is none). *at is where the last one was found: elements come mostly in the order
 * of their frames, so the search starts there (a body of thousands of replicas stays linear) */
static void remap_frame(const gsSpecBody* from, const gsSpecBody* to, struct gsSpecFrame** f, int* at) {
  if (!*f) return;
  int n = from->nframe;
  for (int i = 0; i < n; i++) {
    int k = (*at + i) % n;
    if (from->frame[k] == *f) {
      *at = k;
      *f = to->frame[k];
      return;
    }
  }
  *f = NULL;
}

static gsSpecBody* copy_body(gsSpec* s, const gsSpecBody* b, gsSpecBody* parent) {
  int ok = 1;
  gsSpecBody* nb = copy_of(s, GS_SK_BODY, b, &ok);
  if (!nb) return NULL;
  nb->parent = parent;
  for (int i = 0; i < nb->nframe; i++)  /* copied with the body */
    if (!reintern(s, &nb->frame[i]->info.file)) ok = 0;
  ok = ok && copy_list(s, GS_SK_JOINT, (void* const*)b->joint, b->njoint, (void***)&nb->joint, &nb->njoint, &nb->njoint_cap) &&
       copy_list(s, GS_SK_GEOM, (void* const*)b->geom, b->ngeom, (void***)&nb->geom, &nb->ngeom, &nb->ngeom_cap) &&
       copy_list(s, GS_SK_SITE, (void* const*)b->site, b->nsite, (void***)&nb->site, &nb->nsite, &nb->nsite_cap) &&
       copy_list(s, GS_SK_CAMERA, (void* const*)b->camera, b->ncamera, (void***)&nb->camera, &nb->ncamera, &nb->ncamera_cap) &&
       copy_list(s, GS_SK_LIGHT, (void* const*)b->light, b->nlight, (void***)&nb->light, &nb->nlight, &nb->nlight_cap);
  if (ok) {
    int at = 0;
    for (int i = 0; i < nb->njoint; i++) remap_frame(b, nb, &nb->joint[i]->frame, &at);
    for (int i = 0; i < nb->ngeom; i++) remap_frame(b, nb, &nb->geom[i]->frame, &at);
    for (int i = 0; i < nb->nsite; i++) remap_frame(b, nb, &nb->site[i]->frame, &at);
    for (int i = 0; i < nb->ncamera; i++) remap_frame(b, nb, &nb->camera[i]->frame, &at);
    for (int i = 0; i < nb->nlight; i++) remap_frame(b, nb, &nb->light[i]->frame, &at);
  }
  /* asset references, owned by the copied geom or site at the same place */
  for (int i = 0; ok && i < b->nassetref; i++) {
    const gsSpecAssetRef* r = b->assetref[i];
    int g = index_of((void* const*)b->geom, b->ngeom, r->owner);
    int t = g < 0 ? index_of((void* const*)b->site, b->nsite, r->owner) : -1;
    if (g < 0 && t < 0) continue;  /* an owner no longer there: nothing refers to it */
    gsSpecAssetRef* nr = gs_specAssetRef(nb, g >= 0 ? (void*)nb->geom[g] : (void*)nb->site[t]);
    ok = nr && gs_specSetString(&nr->material, r->material) && gs_specSetString(&nr->mesh, r->mesh) &&
         gs_specSetString(&nr->hfield, r->hfield);
  }
  for (int i = 0, at = 0; ok && i < b->nchild; i++) {
    gsSpecBody* c = copy_body(s, b->child[i], nb);
    ok = c && gs_specPush((void***)&nb->child, &nb->nchild, &nb->nchild_cap, c);
    if (c && !ok) gs_specFreeElement(GS_SK_BODY, c);
    if (ok) remap_frame(b, nb, &c->inframe, &at);
  }
  if (!ok) {
    gs_specFreeElement(GS_SK_BODY, nb);
    return NULL;
  }
  return nb;
}

gsSpec* gs_specCopy(const gsSpec* src) {
  if (!src) return NULL;
  gsSpec* s = malloc(sizeof(gsSpec));
  if (!s) return NULL;
  memcpy(s, src, sizeof(gsSpec));
  /* nothing owned is shared: lists, strings and the tree are rebuilt below */
  s->modelname = NULL;
  s->nstring = s->nstring_cap = 0, s->strings = NULL;
  s->world = NULL;
  s->ntendon = s->ntendon_cap = s->nactuator = s->nactuator_cap = 0, s->tendon = NULL, s->actuator = NULL;
  s->nsensor = s->nsensor_cap = s->nequality = s->nequality_cap = s->nkey = s->nkey_cap = 0;
  s->sensor = NULL, s->equality = NULL, s->key = NULL;
  s->nnumeric = s->nnumeric_cap = s->ntext = s->ntext_cap = s->ntuple = s->ntuple_cap = 0;
  s->numeric = NULL, s->text = NULL, s->tuple = NULL;
  s->nmesh = s->nmesh_cap = s->nhfield = s->nhfield_cap = s->ntexture = s->ntexture_cap = 0;
  s->mesh = NULL, s->hfield = NULL, s->texture = NULL;
  s->nmaterial = s->nmaterial_cap = s->npair = s->npair_cap = s->nexclude = s->nexclude_cap = 0;
  s->material = NULL, s->pair = NULL, s->exclude = NULL;
  s->nframename = s->nframename_cap = 0, s->framename = NULL;
  int ok = gs_specSetString(&s->modelname, src->modelname) && reintern(s, &s->file) &&
           reintern(s, &s->compiler.meshdir) && reintern(s, &s->compiler.texturedir) &&
           reintern(s, &s->compiler.assetdir) && reintern(s, &s->modeldir);
  if (ok) ok = (s->world = copy_body(s, src->world, NULL)) != NULL;
#define LIST(K, name) \
  ok = ok && copy_list(s, K, (void* const*)src->name, src->n##name, (void***)&s->name, &s->n##name, &s->n##name##_cap)
  LIST(GS_SK_TENDON, tendon);
  LIST(GS_SK_ACTUATOR, actuator);
  LIST(GS_SK_SENSOR, sensor);
  LIST(GS_SK_EQUALITY, equality);
  LIST(GS_SK_KEY, key);
  LIST(GS_SK_NUMERIC, numeric);
  LIST(GS_SK_TEXT, text);
  LIST(GS_SK_TUPLE, tuple);
  LIST(GS_SK_MESH, mesh);
  LIST(GS_SK_HFIELD, hfield);
  LIST(GS_SK_TEXTURE, texture);
  LIST(GS_SK_MATERIAL, material);
  LIST(GS_SK_PAIR, pair);
  LIST(GS_SK_EXCLUDE, exclude);
#undef LIST
  for (int i = 0; ok && i < src->nframename; i++) {
    char* name = NULL;
    ok = gs_specSetString(&name, src->framename[i]) &&
         gs_specPush((void***)&s->framename, &s->nframename, &s->nframename_cap, name);
    if (!ok) free(name);
  }
  if (!ok) {
    gs_specFree(s);
    return NULL;
  }
  return s;
}
