/* <replicate>'s names and references: elements named inside replicas get the replicas' suffixes
 * (innermost first: separator and index, zero-padded to the digits of the count), and, once the
 * whole model is read, the tendons, actuators, sensors, equality constraints, contact pairs and
 * exclusions that name such an element are replicated along: MJCF keeps those that name nothing
 * replicated in place and appends, replicate by replicate and replica after replica, a copy of
 * each one that does, with the replica's suffix on its own name and on the names it refers to. (The reading of the replicas
 * themselves, placed like frames, is in xml_read.c.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/spec_slices.h"
#include "xml_internal.h"

int gsx_replicaName(gsxCtx* c, const char* name, char** out) {
  size_t n = strlen(name) + 1;
  for (int k = 0; k < c->nrep; k++) n += strlen(c->rep[k].sep) + (size_t)c->rep[k].digits + 12;
  char* s = malloc(n);
  if (!s) return 0;
  size_t used = (size_t)snprintf(s, n, "%s", name);
  for (int k = c->nrep - 1; k >= 0; k--)
    used += (size_t)snprintf(s + used, n - used, "%s%0*d", c->rep[k].sep, c->rep[k].digits, c->rep[k].index);
  *out = s;
  return 1;
}

int gsx_replicaRecord(gsxCtx* c, gsSpecInfo* info, const char* base) {
  /* an element inside nested replicates is recorded once, when it is made (its name then has
   * every suffix); its base is what the XML wrote */
  if (c->nrepname == c->caprepname) {
    int cap = c->caprepname ? 2 * c->caprepname : 256;
    struct gsxRepName* p = realloc(c->repname, sizeof(*p) * (size_t)cap);
    if (!p) return 0;
    c->repname = p;
    c->caprepname = cap;
  }
  size_t n = strlen(base) + 1;
  char* copy = malloc(n);
  if (!copy) return 0;
  memcpy(copy, base, n);
  c->repname[c->nrepname].info = info;
  c->repname[c->nrepname].base = copy;
  c->repname[c->nrepname].group = c->repgroup;
  c->nrepname++;
  return 1;
}

/* ---- references ---- */

typedef struct {
  const char* base;
  int order;  /* creation order */
  const struct gsxRepName* rec;
} Entry;

static int by_base(const void* a, const void* b) {
  const Entry *x = a, *y = b;
  int d = strcmp(x->base, y->base);
  return d ? d : (x->order > y->order) - (x->order < y->order);
}

typedef struct {
  Entry* e;
  int n;
} Index;

/* the records whose base is name: [*first, *first + count), in creation order */
static int find(const Index* ix, const char* name, int* first) {
  int lo = 0, hi = ix->n;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (strcmp(ix->e[mid].base, name) < 0) lo = mid + 1;
    else hi = mid;
  }
  int end = lo;
  while (end < ix->n && strcmp(ix->e[end].base, name) == 0) end++;
  *first = lo;
  return end - lo;
}

/* append suffix to *s (when set); 0 out of memory */
static int append(char** s, const char* suffix) {
  if (!*s) return 1;
  size_t a = strlen(*s), b = strlen(suffix);
  char* t = realloc(*s, a + b + 1);
  if (!t) return 0;
  memcpy(t + a, suffix, b + 1);
  *s = t;
  return 1;
}

#define MAXREF 512

typedef struct {
  const char* s;
  int order;
} Suffix;

static int by_suffix(const void* a, const void* b) {
  const Suffix *x = a, *y = b;
  int d = strcmp(x->s, y->s);
  return d ? d : (x->order > y->order) - (x->order < y->order);
}

/* the suffixes of the replicas of the elements named `name` (of any kind: a geom and a site of one
 * replica share the suffix), each once, in the order the replicas were made; the count. Only
 * those of the first outermost replicate that made the name (*group): MJCF replicates a
 * reference along the first replicate that holds its target, and the names of a later one no
 * longer match it. */
static int suffixes(const Index* ix, const char* name, const char*** out, int* group) {
  int first, n = find(ix, name, &first), m = 0;
  *out = NULL;
  if (!n) return 0;
  *group = ix->e[first].rec->group;  /* sorted by creation order within a name: the first made */
  const char** list = malloc(sizeof(char*) * (size_t)n);
  if (!list) return -1;
  Suffix* sorted = malloc(sizeof(Suffix) * (size_t)n);
  if (!sorted) {
    free(list);
    return -1;
  }
  for (int k = 0; k < n; k++) {
    const Entry* e = &ix->e[first + k];
    /* another replicate's elements are left out (an empty suffix, which no replica has) */
    list[k] = e->rec->group == *group ? e->rec->info->name + strlen(e->base) : "";
    sorted[k] = (Suffix){list[k], k};
  }
  /* each suffix once, at its first place: elements of several kinds (a site and the tendon made
   * from it, both named "b") share the replicas' suffixes, and a repeat need not follow its first */
  qsort(sorted, (size_t)n, sizeof(Suffix), by_suffix);
  for (int k = 1; k < n; k++)
    if (strcmp(sorted[k].s, sorted[k - 1].s) == 0) list[sorted[k].order] = NULL;
  for (int k = 0; k < n; k++)
    if (list[k] && !*list[k]) list[k] = NULL;
  free(sorted);
  for (int k = 0; k < n; k++)
    if (list[k]) list[m++] = list[k];
  *out = list;
  return m;
}

/* the list of one kind, rebuilt: elements naming nothing replicated, then per replica a copy of
 * each that does; the copies of named elements are recorded as replicated names (a sensor may
 * name a replicated tendon) */
static int replicate_list(gsxCtx* c, const Index* ix, int kind, void*** list, int* n, int* cap) {
  int nref = 0, maxrep = 0, ok = 1, n0 = *n;
  const char*** suf = calloc((size_t)(n0 ? n0 : 1), sizeof(*suf));
  int* count = calloc((size_t)(n0 ? n0 : 1), sizeof(int));
  int* group = calloc((size_t)(n0 ? n0 : 1), sizeof(int));  /* the replicate each follows */
  if (!suf || !count || !group) ok = 0;
  /* which elements refer to a replicated name, and the suffixes of its replicas */
  for (int i = 0; ok && i < n0; i++) {
    char** refs[MAXREF];
    int nr = gs_specReferences(kind, (*list)[i], refs, MAXREF);
    for (int r = 0; ok && r < nr && !count[i]; r++)
      if (*refs[r]) {
        count[i] = suffixes(ix, *refs[r], &suf[i], &group[i]);
        ok = count[i] >= 0;
      }
    if (count[i] > 0) nref++;
    if (count[i] > maxrep) maxrep = count[i];
  }
  void** out = NULL;
  int nout = 0, capout = 0, ncopy = 0;
  int* orig = NULL;  /* each copy's original */
  if (ok && nref) {
    for (int i = 0; ok && i < n0; i++)
      if (!count[i]) ok = gs_specPush(&out, &nout, &capout, (*list)[i]);
    for (int i = 0; i < n0; i++) ncopy += count[i];
    c->replicated += ncopy;
    if (c->replicated > GSX_MAX_REPLICATED) {
      for (int i = 0; i < n0; i++) free(suf[i]);
      free(suf);
      free(count);
      free(group);
      free(out);
      return gsx_error(c, c->spec->file, 0, "replicate",
                       "replicates make more than %d elements (with the copies of the elements that name "
                       "replicated ones)", GSX_MAX_REPLICATED);
    }
    orig = malloc(sizeof(int) * (size_t)ncopy);
    ok = ok && orig;
    /* replicate by replicate (in the order they were made), replica after replica, a copy of
     * each element that follows that replicate (MuJoCo's newton_cradle.xml: the tendons of its
     * first replicate for all five replicas, then those of the second) */
    int lastgroup = -1, made = 0;
    for (;;) {
      int g = -1;
      for (int i = 0; i < n0; i++)
        if (count[i] > 0 && group[i] > lastgroup && (g < 0 || group[i] < g)) g = group[i];
      if (g < 0 || !ok) break;
      lastgroup = g;
      for (int k = 0; ok && k < maxrep; k++) {
        for (int i = 0; ok && i < n0; i++) {
          if (k >= count[i] || group[i] != g) continue;
          const char* suffix = suf[i][k];
          void* copy = gs_specCopyElement(kind, (*list)[i]);
          ok = copy != NULL;
          /* the copy's own name and every name it refers to that is replicated take the suffix */
          char** refs[MAXREF];
          int nr = ok ? gs_specReferences(kind, copy, refs, MAXREF) : 0;
          for (int r = 0; ok && r < nr; r++) {
            int f;
            if (*refs[r] && find(ix, *refs[r], &f)) ok = append(refs[r], suffix);
          }
          if (ok) ok = append(&((gsSpecInfo*)copy)->name, suffix);
          if (ok) ok = gs_specPush(&out, &nout, &capout, copy);
          if (!ok) gs_specFreeElement(kind, copy);
          if (ok) orig[made++] = i;
        }
      }
    }
    for (int j = 0; ok && j < ncopy; j++) {
      const gsSpecInfo* o = (*list)[orig[j]];
      if (o->name) ok = gsx_replicaRecord(c, out[nout - ncopy + j], o->name);
      if (o->name && ok) c->repname[c->nrepname - 1].group = group[orig[j]];
    }
    if (ok) {
      for (int i = 0; i < n0; i++)
        if (count[i]) gs_specFreeElement(kind, (*list)[i]);
      free(*list);
      *list = out;
      *n = nout;
      *cap = capout;
    } else {
      /* the originals stay in *list; the copies made go */
      for (int j = n0 - nref; j < nout; j++) gs_specFreeElement(kind, out[j]);
      free(out);
    }
  }
  free(orig);
  for (int i = 0; suf && i < n0; i++) free(suf[i]);
  free(suf);
  free(count);
  free(group);
  return ok ? 1 : gsx_oom(c);
}

static int build_index(gsxCtx* c, Index* ix) {
  ix->n = c->nrepname;
  ix->e = malloc(sizeof(Entry) * (size_t)(ix->n ? ix->n : 1));
  if (!ix->e) return 0;
  for (int i = 0; i < ix->n; i++) ix->e[i] = (Entry){c->repname[i].base, i, &c->repname[i]};
  qsort(ix->e, (size_t)ix->n, sizeof(Entry), by_base);
  return 1;
}

int gsx_replicateReferences(gsxCtx* c) {
  if (!c->nrepname) return 1;
  gsSpec* s = c->spec;
  /* in this order, each kind after those it may name: the index is rebuilt after each, with the
   * copies just made */
  struct {
    int kind;
    void*** list;
    int *n, *cap;
  } kinds[] = {
      {GS_SK_TENDON, (void***)&s->tendon, &s->ntendon, &s->ntendon_cap},
      {GS_SK_ACTUATOR, (void***)&s->actuator, &s->nactuator, &s->nactuator_cap},
      {GS_SK_SENSOR, (void***)&s->sensor, &s->nsensor, &s->nsensor_cap},
      {GS_SK_EQUALITY, (void***)&s->equality, &s->nequality, &s->nequality_cap},
      {GS_SK_PAIR, (void***)&s->pair, &s->npair, &s->npair_cap},
      {GS_SK_EXCLUDE, (void***)&s->exclude, &s->nexclude, &s->nexclude_cap},
  };
  int ok = 1;
  for (size_t k = 0; ok && k < sizeof(kinds) / sizeof(kinds[0]); k++) {
    Index ix;
    if (!build_index(c, &ix)) return gsx_oom(c);
    ok = replicate_list(c, &ix, kinds[k].kind, kinds[k].list, kinds[k].n, kinds[k].cap);
    free(ix.e);
  }
  return ok;
}
