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
