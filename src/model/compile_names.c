/* Names must be unique within each kind of element, as MJCF requires (a model with two bodies named
 * alike would resolve references by chance, and MJCF refuses it when read back): the check, naming
 * both places, of the tree's kinds (the compiler's first step) and of the world slice's. */
#include <stdlib.h>
#include <string.h>

#include "gauss/gauss.h"
#include "model/compile.h"

typedef struct {
  const gsSpecInfo** info;
  int n, cap;
} NameList;

static int push(NameList* l, const gsSpecInfo* info) {
  if (!info->name || !info->name[0]) return 1;  /* unnamed elements need no name of their own */
  if (l->n == l->cap) {
    int cap = l->cap ? 2 * l->cap : 64;
    const gsSpecInfo** p = realloc(l->info, sizeof(*p) * (size_t)cap);
    if (!p) return 0;
    l->info = p;
    l->cap = cap;
  }
  l->info[l->n++] = info;
  return 1;
}

/* every element of kind in body's subtree (each element struct starts with its gsSpecInfo) */
static int collect_tree(NameList* l, const gsSpecBody* body, int kind) {
  int n = 0;
  if (kind == GS_SK_BODY && !push(l, &body->info)) return 0;
  if (kind != GS_SK_BODY) {
    gsSpecBody* b = (gsSpecBody*)body;  /* read only: the accessor takes a non-const pointer */
    gs_specChild(b, GS_SK_BODY, kind, 0, &n);
    for (int i = 0; i < n; i++)
      if (!push(l, gs_specChild(b, GS_SK_BODY, kind, i, NULL))) return 0;
  }
  for (int i = 0; i < body->nchild; i++)
    if (!collect_tree(l, body->child[i], kind)) return 0;
  return 1;
}

static int by_name(const void* a, const void* b) {
  const gsSpecInfo* x = *(const gsSpecInfo* const*)a;
  const gsSpecInfo* y = *(const gsSpecInfo* const*)b;
  int d = strcmp(x->name, y->name);
  if (d) return d;
  return (x->line > y->line) - (x->line < y->line);  /* the earlier one first */
}

int gs_compileUniqueInfos(gsCompileCtx* c, const gsSpecInfo* const* infos, int n, const char* kind) {
  NameList l = {NULL, 0, 0};
  int ok = 1;
  for (int i = 0; ok && i < n; i++) ok = push(&l, infos[i]);
  if (!ok) {
    free(l.info);
    return gs_compileFail(c, NULL, "model", "out of memory");
  }
  if (l.n > 1) qsort(l.info, (size_t)l.n, sizeof(*l.info), by_name);  /* l.info is NULL when empty */
  for (int i = 1; ok && i < l.n; i++) {
    if (strcmp(l.info[i - 1]->name, l.info[i]->name) != 0) continue;
    const gsSpecInfo* first = l.info[i - 1];
    if (first->file && first->line > 0)
      ok = gs_compileFail(c, l.info[i], kind, "repeated name '%s' (also at %.400s:%d)", first->name,
                          first->file, first->line);
    else
      ok = gs_compileFail(c, l.info[i], kind, "repeated name '%s' (another %s has it)", first->name, kind);
  }
  free(l.info);
  return ok;
}

int gs_compileUniqueNames(gsCompileCtx* c) {
  /* the tree's kinds; the slices check theirs */
  static const struct {
    int kind;
    const char* name;
  } kKinds[] = {{GS_SK_BODY, "body"}, {GS_SK_JOINT, "joint"}, {GS_SK_GEOM, "geom"}, {GS_SK_SITE, "site"}};
  int ok = 1;
  for (size_t k = 0; ok && k < sizeof(kKinds) / sizeof(kKinds[0]); k++) {
    NameList l = {NULL, 0, 0};
    ok = collect_tree(&l, c->spec->world, kKinds[k].kind);
    ok = ok ? gs_compileUniqueInfos(c, l.info, l.n, kKinds[k].name)
            : gs_compileFail(c, NULL, "model", "out of memory");
    free(l.info);
  }
  return ok;
}

/* ---- the names buffer in MJCF's layout ---- */

/* the model's name as MJCF compiles it: the <mujoco model=...> (or URDF robot) name, else MJCF's
 * default */
const char* gs_compileModelName(const gsSpec* spec) {
  return spec->modelname && spec->modelname[0] ? spec->modelname : "MuJoCo Model";
}

/* The names as the compiler wrote them (element by element in tree order) laid out again as
 * MuJoCo 3.3.7 compiles `names` (measured): the model's name first, then every kind's names in
 * the order of mjModel's name_*adr arrays (bodies, joints, geoms, sites, cameras, lights, meshes,
 * height fields, textures, materials, pairs, excludes, equalities, tendons, actuators, sensors,
 * numerics, texts, tuples, keyframes), an unnamed element as an empty string. The sizes pass
 * counted the model's name in nnames; the other names end where the model's name would. */
int gs_compileNameOrder(gsCompileCtx* c, gsModel* m) {
  const char* model = gs_compileModelName(c->spec);
  size_t mlen = strlen(model) + 1;
  char* old = malloc((size_t)m->nnames + 1);
  if (!old) return gs_compileFail(c, NULL, "model", "out of memory");
  memcpy(old, m->names, (size_t)m->nnames);
  memcpy(m->names, model, mlen);
  size_t at = mlen;
  struct { int* adr; int n; } kind[] = {
      {m->name_bodyadr, m->nbody},         {m->name_jntadr, m->njnt},
      {m->name_geomadr, m->ngeom},         {m->name_siteadr, m->nsite},
      {m->name_camadr, m->ncam},           {m->name_lightadr, m->nlight},
      {m->name_meshadr, m->nmesh},         {m->name_hfieldadr, m->nhfield},
      {m->name_texadr, m->ntex},           {m->name_matadr, m->nmat},
      {m->name_pairadr, m->npair},         {m->name_excludeadr, m->nexclude},
      {m->name_eqadr, m->neq},             {m->name_tendonadr, m->ntendon},
      {m->name_actuatoradr, m->nu},        {m->name_sensoradr, m->nsensor},
      {m->name_numericadr, m->nnumeric},   {m->name_textadr, m->ntext},
      {m->name_tupleadr, m->ntuple},       {m->name_keyadr, m->nkey}};
  for (size_t k = 0; k < sizeof(kind) / sizeof(kind[0]); k++) {
    for (int i = 0; i < kind[k].n; i++) {
      const char* name = old + kind[k].adr[i];
      size_t n = strlen(name) + 1;
      if (at + n > (size_t)m->nnames) {  /* every name was counted: cannot happen */
        free(old);
        return gs_compileFail(c, NULL, "model", "names buffer overflow");
      }
      memcpy(m->names + at, name, n);
      kind[k].adr[i] = (int)at;
      at += n;
    }
  }
  free(old);
  return 1;
}
