/* MJCF composition by models: <model name file> in <asset> names a sub-model, read from its file
 * as a model of its own (its compiler settings, default classes and assets) where it is named;
 * <attach model body prefix> in a body, frame or replicate places a copy of one of its bodies
 * (or, without body=, the contents of its world body) there. The copy and what comes along are
 * made by src/model/spec_attach.c (shared with gs_specAttach); here: reading the sub-models, the
 * replicas' names, the elements other than the tree held until the model's own are read (they
 * follow them, per replica), the check of names two attaches make, and the keyframes made once
 * the tree is whole. Assets come once per model and prefix; inside replicates, keyframes and
 * custom data from the first replica only, keyframes without controls and activations (MJCF
 * 3.3.7). The sub-model's <option>, <size>, <visual> and <statistic> are not used. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/math.h"
#include "model/attach.h"
#include "model/compile.h"
#include "model/spec_slices.h"
#include "xml_internal.h"

/* ---- <model> in <asset> (first pass) ---- */

/* file relative to dir (unless absolute), malloc'ed; NULL out of memory */
static char* resolve(const char* file, const char* dir) {
  while (file[0] == '.' && file[1] == '/') file += 2;
  size_t n = strlen(dir) + strlen(file) + 2;
  char* path = malloc(n);
  if (!path) return NULL;
  if (file[0] == '/' || strcmp(dir, ".") == 0) snprintf(path, n, "%s", file);
  else snprintf(path, n, "%s/%s", dir, file);
  return path;
}

/* the name a <model> without one goes by: the sub-model's own <mujoco model=...>, else MJCF's
 * default model name, as MJCF names it */
static const char* own_name(const gsSpec* spec) {
  return spec->modelname && spec->modelname[0] ? spec->modelname : "MuJoCo Model";
}

static int model_child(gsxCtx* c, xmlNodePtr ch, const gsxFile* src, void* user) {
  (void)user;
  if (strcmp(gsx_name(ch), "model") != 0) return 1;
  int line = gsx_line(ch);
  if (!gsx_checkAttrList(c, ch, src, "model", "name file content_type") ||
      !gsx_requireAttr(c, ch, src, "model", "file") || !gsx_checkChildren(c, ch, src, "model"))
    return 0;
  xmlChar* name = gsx_getAttr(c, ch, "name");  /* optional */
  xmlChar* file = gsx_getAttr(c, ch, "file");
  int ok = file != NULL;
  if (ok && c->nmodel == c->capmodel) {
    int cap = c->capmodel ? 2 * c->capmodel : 4;
    struct gsxModel* p = realloc(c->model, sizeof(*p) * (size_t)cap);
    if (!p) ok = gsx_oom(c);
    else c->model = p, c->capmodel = cap;
  }
  gsSpec* spec = NULL;
  char* path = NULL;
  if (ok) {
    /* relative to the directory of the file that names it (an included file's own), as MJCF
     * does when the model is loaded by an absolute path; MJCF also finds a relative one from the
     * working directory, which the engine does not look at */
    path = resolve((const char*)file, src->dir);
    if (!path) ok = gsx_oom(c);
  }
  /* read now, as MJCF does: a bad sub-model is an error even when nothing attaches it */
  if (ok) ok = (spec = c->parse_model(c, path, src->name, line)) != NULL;
  const char* mname = ok ? (name ? (const char*)name : own_name(spec)) : NULL;
  for (int i = 0; ok && i < c->nmodel; i++)
    if (strcmp(c->model[i].name, mname) == 0)
      ok = gsx_error(c, src->name, line, "model", "repeated name '%.60s'", mname);
  if (ok) {
    struct gsxModel* m = &c->model[c->nmodel];
    memset(m, 0, sizeof(*m));
    m->name = malloc(strlen(mname) + 1);
    if (!m->name) {
      ok = gsx_oom(c);
    } else {
      strcpy(m->name, mname);
      m->path = path, path = NULL;
      m->spec = spec, spec = NULL;
      m->file = src->name;
      m->line = line;
      c->nmodel++;
    }
  }
  gs_specFree(spec);
  free(path);
  xmlFree(name);
  xmlFree(file);
  return ok;
}

int gsx_readModels(gsxCtx* c, xmlNodePtr node, const gsxFile* src) {
  return gsx_eachChild(c, node, src, model_child, NULL);
}

void gsx_attachFree(gsxCtx* c) {
  gs_specFree(c->held);
  c->held = NULL;
  for (int i = 0; i < c->nmodel; i++) {
    free(c->model[i].name);
    free(c->model[i].path);
    gs_specFree(c->model[i].spec);
    for (int k = 0; k < c->model[i].nprefix; k++) free(c->model[i].prefix[k]);
    free(c->model[i].prefix);
  }
  free(c->model);
  c->model = NULL;
  c->nmodel = c->capmodel = 0;
  gs_attachHostFree(&c->host);
  free(c->origin);
  c->origin = NULL;
  c->norigin = c->caporigin = 0;
}


/* move list `name` of the held spec to the end of the model's */
#define MOVE(name)                                                                          \
  for (int i = 0; ok && i < h->n##name; i++) {                                              \
    ok = gs_specPush((void***)&s->name, &s->n##name, &s->n##name##_cap, h->name[i]);        \
    if (ok) h->name[i] = NULL;                                                              \
  }

/* ---- the reader as the host of attaches ---- */

/* the scratch spec holding what attaches bring, made on first use */
static gsSpec* held(gsxCtx* c) {
  if (!c->held) c->held = gs_specNew();
  return c->held;
}

/* inside replicates: the replica's name, recorded so that the model's own elements naming the
 * element are replicated along (MJCF 3.3.7 does so) */
static int host_rename(void* user, char** s, gsSpecInfo* info) {
  gsxCtx* c = user;
  if (!c->nrep) return 1;
  char* full = NULL;
  if (!gsx_replicaName(c, *s, &full)) return 0;
  if (info && !gsx_replicaRecord(c, info, *s)) {
    free(full);
    return 0;
  }
  free(*s);
  *s = full;
  return 1;
}

/* a short file must not grow without bound (models attaching models many times each multiply) */
static int host_made(void* user, const char* file, int line) {
  gsxCtx* c = user;
  if (++c->replicated <= GSX_MAX_REPLICATED) return 1;
  return gsx_error(c, file, line, "attach", "attaches and replicates make more than %d elements",
                   GSX_MAX_REPLICATED);
}

static int host_origin(void* user, int kind, const gsSpecInfo* info, const char* file, int line) {
  gsxCtx* c = user;
  if (c->norigin == c->caporigin) {
    int cap = c->caporigin ? 2 * c->caporigin : 64;
    void* p = realloc(c->origin, sizeof(*c->origin) * (size_t)cap);
    if (!p) return 0;
    c->origin = p;
    c->caporigin = cap;
  }
  c->origin[c->norigin++] = (struct gsxOrigin){info, kind, file, line};
  return 1;
}

static void host_error(void* user, const char* file, int line, const char* elem, const char* msg) {
  gsx_error(user, file, line, elem, "%s", msg);
}

/* a recorded replica name: the element and the suffix its replicas gave its name */
typedef struct {
  const void* el;
  const char* suffix;
} Suffix;

static int by_el(const void* x, const void* y) {
  const Suffix *a = x, *b = y;
  return (a->el > b->el) - (a->el < b->el);
}

static const char* suffix_of(const Suffix* s, int n, const void* el) {
  Suffix key = {el, NULL};
  const Suffix* f = n ? bsearch(&key, s, (size_t)n, sizeof(Suffix), by_el) : NULL;
  return f ? f->suffix : "";
}

/* the held elements of one kind into the model's list. Inside replicates MJCF orders them per
 * replica: the model's own elements made for a replica (those naming replicated ones), then what
 * the attaches of that replica brought; so one made in a replica goes after the last element of
 * the same replica, others at the end. */
static int place_held(const Suffix* sx, int nsx, void*** list, int* n, int* cap, void** held, int nheld) {
  const char** suf = malloc(sizeof(char*) * (size_t)(*n + nheld + 1));
  if (!suf) return 0;
  for (int i = 0; i < *n; i++) suf[i] = suffix_of(sx, nsx, (*list)[i]);
  int ok = 1;
  for (int k = 0; ok && k < nheld; k++) {
    const char* own = suffix_of(sx, nsx, held[k]);
    int at = *n;
    if (own[0])
      for (int i = *n - 1; i >= 0; i--)
        if (strcmp(suf[i], own) == 0) {
          at = i + 1;
          break;
        }
    ok = gs_specPush(list, n, cap, held[k]);  /* grows the list; then moved into place */
    if (!ok) break;
    held[k] = NULL;
    void* el = (*list)[*n - 1];
    memmove(*list + at + 1, *list + at, sizeof(void*) * (size_t)(*n - 1 - at));
    memmove(suf + at + 1, suf + at, sizeof(char*) * (size_t)(*n - 1 - at));
    (*list)[at] = el;
    suf[at] = own;
  }
  free(suf);
  return ok;
}

/* every recorded replica name, sorted by element; NULL with *n 0 when there are none */
static Suffix* suffixes(const gsxCtx* c, int* n) {
  *n = 0;
  if (!c->nrepname) return NULL;
  Suffix* s = malloc(sizeof(Suffix) * (size_t)c->nrepname);
  if (!s) return NULL;
  for (int i = 0; i < c->nrepname; i++) {
    const gsSpecInfo* info = c->repname[i].info;
    size_t nb = strlen(c->repname[i].base);
    const char* name = info->name ? info->name : "";
    s[i] = (Suffix){info, strlen(name) >= nb ? name + nb : ""};
  }
  qsort(s, (size_t)c->nrepname, sizeof(Suffix), by_el);
  *n = c->nrepname;
  return s;
}

#define PLACE(name) \
  ok = ok && place_held(sx, nsx, (void***)&s->name, &s->n##name, &s->n##name##_cap, (void**)h->name, h->n##name);

static int by_kind_name(const void* x, const void* y) {
  const struct gsxOrigin *a = x, *b = y;
  if (a->kind != b->kind) return a->kind - b->kind;
  int d = strcmp(a->info->name, b->info->name);
  if (d) return d;
  return (a->info > b->info) - (a->info < b->info);
}

static const char* kind_name(int kind) {
  switch (kind) {
    case GS_SK_BODY: return "body";
    case GS_SK_JOINT: return "joint";
    case GS_SK_GEOM: return "geom";
    case GS_SK_SITE: return "site";
    case GS_SK_CAMERA: return "camera";
    case GS_SK_LIGHT: return "light";
    case GS_SK_TENDON: return "tendon";
    case GS_SK_ACTUATOR: return "actuator";
    case GS_SK_SENSOR: return "sensor";
    case GS_SK_EQUALITY: return "equality";
    case GS_SK_PAIR: return "pair";
    case GS_SK_EXCLUDE: return "exclude";
    case GS_SK_NUMERIC: return "numeric";
    case GS_SK_TEXT: return "text";
    case GS_SK_TUPLE: return "tuple";
    case GS_SK_MESH: return "mesh";
    case GS_SK_HFIELD: return "hfield";
    case GS_SK_TEXTURE: return "texture";
    case GS_SK_MATERIAL: return "material";
    default: return "element";
  }
}

/* a name two attaches made: the error names both <attach> elements (the compiler's own check
 * would name the sub-model's element twice) */
static int repeated_names(gsxCtx* c) {
  if (c->norigin < 2) return 1;
  qsort(c->origin, (size_t)c->norigin, sizeof(*c->origin), by_kind_name);
  for (int i = 1; i < c->norigin; i++) {
    const struct gsxOrigin *p = &c->origin[i - 1], *q = &c->origin[i];
    if (p->kind != q->kind || strcmp(p->info->name, q->info->name) != 0) continue;
    /* the error at the later <attach> of the two */
    const struct gsxOrigin *x = p->line <= q->line ? p : q, *y = x == p ? q : p;
    return gsx_error(c, y->file, y->line, "attach",
                     "repeated name '%.60s' in %s (also made by the <attach> at %.400s:%d)", y->info->name,
                     kind_name(y->kind), x->file, x->line);
  }
  return 1;
}


int gsx_attachFinish(gsxCtx* c) {
  gsSpec *s = c->spec, *h = c->held;
  int ok = repeated_names(c);
  if (!ok) return 0;
  if (h) {
    int nsx = 0;
    Suffix* sx = suffixes(c, &nsx);
    if (c->nrepname && !sx) return gsx_oom(c);
    MOVE(texture) MOVE(material) MOVE(mesh) MOVE(hfield) MOVE(numeric) MOVE(text) MOVE(tuple)
    PLACE(tendon) PLACE(actuator) PLACE(sensor) PLACE(equality) PLACE(pair) PLACE(exclude)
    free(sx);
    if (!ok) return gsx_oom(c);
    /* what moved is the model's now; the scratch spec frees the rest */
    h->ntexture = h->nmaterial = h->nmesh = h->nhfield = h->ntendon = h->nactuator = 0;
    h->nsensor = h->nequality = h->npair = h->nexclude = h->nnumeric = h->ntext = h->ntuple = 0;
  }
  ok = gs_attachKeys(&c->host);
  return ok ? 1 : gsx_oom(c);
}
#undef MOVE
#undef PLACE
/* ---- <attach> ---- */

/* whether the model's assets are yet to come with this prefix (then remembered); *ok 0 out of
 * memory */
static int new_prefix(struct gsxModel* md, const char* prefix, int* ok) {
  for (int k = 0; k < md->nprefix; k++)
    if (strcmp(md->prefix[k], prefix) == 0) return 0;
  char** p = realloc(md->prefix, sizeof(char*) * (size_t)(md->nprefix + 1));
  if (!p) return *ok = 0;
  md->prefix = p;
  if (!(p[md->nprefix] = malloc(strlen(prefix) + 1))) return *ok = 0;
  strcpy(p[md->nprefix++], prefix);
  return 1;
}


static gsSpecBody* find_body(gsSpecBody* b, const char* name) {
  if (b->info.name && strcmp(b->info.name, name) == 0) return b;
  for (int i = 0; i < b->nchild; i++) {
    gsSpecBody* r = find_body(b->child[i], name);
    if (r) return r;
  }
  return NULL;
}

int gsx_attach(gsxCtx* c, xmlNodePtr node, const gsxFile* src, gsSpecBody* body,
               const gsxAttachFrame* frame) {
  int line = gsx_line(node);
  if (!gsx_checkAttrList(c, node, src, "attach", "model body prefix") ||
      !gsx_requireAttr(c, node, src, "attach", "model") ||
      !gsx_requireAttr(c, node, src, "attach", "prefix") || !gsx_checkChildren(c, node, src, "attach"))
    return 0;
  xmlChar* model = gsx_getAttr(c, node, "model");
  xmlChar* bname = gsx_getAttr(c, node, "body");
  xmlChar* prefix = gsx_getAttr(c, node, "prefix");
  struct gsxModel* md = NULL;
  int ok = model && prefix;
  for (int i = 0; ok && i < c->nmodel && !md; i++)
    if (strcmp(c->model[i].name, (const char*)model) == 0) md = &c->model[i];
  if (ok && !md)
    ok = gsx_error(c, src->name, line, "attach", "unknown model '%.60s' (no <model> of that name in "
                   "<asset>)", (const char*)model);
  gsSpecBody* from = NULL;
  if (ok) {
    from = bname ? find_body(md->spec->world, (const char*)bname) : md->spec->world;
    if (!from || (bname && from == md->spec->world))
      ok = gsx_error(c, src->name, line, "attach", "model '%.60s' (%s) has no body '%.60s'",
                     md->name, md->path, (const char*)bname);
  }
  gsSpec* dst = ok ? held(c) : NULL;
  if (ok && !dst) ok = gsx_oom(c);
  if (ok) {
    gsAttachHost* h = &c->host;
    h->spec = c->spec;
    h->dst = dst;
    h->user = c;
    h->rename = host_rename;
    h->made = host_made;
    h->origin = host_origin;
    h->error = host_error;
    h->err = c->err;
    h->errsz = c->errsz;
    h->failed = 0;
    h->keyctrl = c->nrep == 0;
    /* keyframes and custom data: inside replicates, from the first replica only (MJCF's rule) */
    int first = 1;
    for (int k = 0; k < c->nrep; k++)
      if (c->rep[k].index) first = 0;
    gsAttach a;
    gs_attachBegin(&a, h, md->spec, (const char*)prefix, "", src->name, line);
    int fresh = new_prefix(md, (const char*)prefix, &ok);
    ok = ok && (!fresh || gs_attachAssets(&a)) && gs_attachTree(&a, from, body, frame, first);
    gs_attachEnd(&a);
    if (h->failed) c->failed = 1;
    if (!ok && !c->failed) gsx_oom(c);
  }
  xmlFree(model);
  xmlFree(bname);
  xmlFree(prefix);
  return ok && !c->failed;
}
