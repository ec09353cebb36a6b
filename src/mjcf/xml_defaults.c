/* Default classes: each class keeps, per element kind, the attribute strings written in its
 * <default> element. They are applied as text when an element is created (class chain from the
 * root down, then the element's own attributes), so one setter per element kind serves both. */
#include <stdlib.h>
#include <string.h>

#include "xml_internal.h"

static char* dup(const char* s) {
  size_t n = strlen(s) + 1;
  char* p = malloc(n);
  if (p) memcpy(p, s, n);
  return p;
}

/* make room for one more element of size sz in *arr; 0 when out of memory */
static int grow(void** arr, int n, int* cap, size_t sz) {
  if (n < *cap) return 1;
  int ncap = *cap ? 2 * *cap : 4;
  void* p = realloc(*arr, (size_t)ncap * sz);
  if (!p) return 0;
  *arr = p;
  *cap = ncap;
  return 1;
}

void gsx_defaultsFree(gsxDefaults* d) {
  for (int i = 0; i < d->n; i++) {
    gsxClass* c = &d->cls[i];
    for (int e = 0; e < c->nelem; e++) {
      gsxDefaultElem* el = &c->elem[e];
      for (int a = 0; a < el->nattr; a++) {
        free(el->attr[a].name);
        free(el->attr[a].value);
      }
      free(el->attr);
      free(el->kind);
    }
    free(c->elem);
    free(c->name);
    free(c->main_nattr);
  }
  free(d->cls);
  memset(d, 0, sizeof(*d));
}

int gsx_classFind(const gsxDefaults* d, const char* name) {
  for (int i = 0; i < d->n; i++)
    if (strcmp(d->cls[i].name, name) == 0) return i;
  return -1;
}

int gsx_classAdd(gsxDefaults* d, const char* name, int parent) {
  if (!grow((void**)&d->cls, d->n, &d->cap, sizeof(gsxClass))) return -1;
  gsxClass* c = &d->cls[d->n];
  memset(c, 0, sizeof(*c));
  c->name = dup(name);
  if (!c->name) return -1;
  c->parent = parent;
  if (parent >= 0) {
    /* main as it stands now: seen through the parent below main, or main itself */
    const gsxClass* p = &d->cls[parent];
    const gsxClass* m = &d->cls[0];
    int n = parent == 0 ? m->nelem : p->main_nelem;
    c->main_nattr = malloc(sizeof(int) * (size_t)(n ? n : 1));
    if (!c->main_nattr) {
      free(c->name);
      return -1;
    }
    for (int e = 0; e < n; e++) c->main_nattr[e] = parent == 0 ? m->elem[e].nattr : p->main_nattr[e];
    c->main_nelem = n;
  }
  return d->n++;
}

int gsx_classSees(const gsxDefaults* d, int cls, int of, int e) {
  const gsxClass* k = &d->cls[of];
  if (of != 0 || cls == 0) return e < k->nelem ? k->elem[e].nattr : 0;
  const gsxClass* c = &d->cls[cls];
  return e < c->main_nelem ? c->main_nattr[e] : 0;
}

int gsx_classAddAttr(gsxDefaults* d, int cls, const char* kind, const gsxAttr* a) {
  gsxClass* c = &d->cls[cls];
  gsxDefaultElem* el = NULL;
  for (int e = 0; e < c->nelem; e++)
    if (strcmp(c->elem[e].kind, kind) == 0) el = &c->elem[e];
  if (!el) {
    if (!grow((void**)&c->elem, c->nelem, &c->cap, sizeof(gsxDefaultElem))) return 0;
    el = &c->elem[c->nelem];
    memset(el, 0, sizeof(*el));
    el->kind = dup(kind);
    if (!el->kind) return 0;
    c->nelem++;
  }
  if (!grow((void**)&el->attr, el->nattr, &el->cap, sizeof(gsxAttr))) return 0;
  gsxAttr* dst = &el->attr[el->nattr];
  dst->name = dup(a->name);
  dst->value = dup(a->value);
  dst->file = a->file;
  dst->line = a->line;
  if (!dst->name || !dst->value) {
    free(dst->name);
    free(dst->value);
    return 0;
  }
  el->nattr++;
  return 1;
}

const gsxDefaultElem* gsx_classElem(const gsxDefaults* d, int cls, const char* kind) {
  if (cls < 0 || cls >= d->n) return NULL;
  const gsxClass* c = &d->cls[cls];
  for (int e = 0; e < c->nelem; e++)
    if (strcmp(c->elem[e].kind, kind) == 0) return &c->elem[e];
  return NULL;
}
