/* Error and warning reporting, the parsing of attribute values (numbers, keywords, lists), and
 * the attributes that the core's elements and the slices' share (orientations, user=). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/io.h"
#include "xml_internal.h"

/* ---- errors ---- */

/* the text of a message, the file name aside: a message is one line of valid UTF-8 */

static int verror(gsxCtx* c, const char* file, int line, const char* elem, const char* fmt,
                  va_list ap) {
  if (c->failed) return 0;  /* keep the first error: later ones are usually consequences */
  c->failed = 1;
  if (!c->err || c->errsz <= 0) return 0;
  char msg[512];
  vsnprintf(msg, sizeof(msg), fmt, ap);
  char where[1100] = "";
  if (file && line > 0)
    snprintf(where, sizeof(where), "%s:%d: ", file, line);
  else if (file)
    snprintf(where, sizeof(where), "%s: ", file);
  char full[1800];  /* where, <elem>: and msg whole */
  if (elem)
    snprintf(full, sizeof(full), "%s<%.100s>: %s", where, elem, msg);
  else
    snprintf(full, sizeof(full), "%s%s", where, msg);
  gs_copyClean(c->err, (size_t)c->errsz, full);
  return 0;
}

int gsx_error(gsxCtx* c, const char* file, int line, const char* elem, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  verror(c, file, line, elem, fmt, ap);
  va_end(ap);
  return 0;
}

int gsx_attrError(gsxCtx* c, const gsxAt* a, const char* fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  return gsx_error(c, a->file, a->line, a->elem, "attribute '%s': %s", a->name, msg);
}

int gsx_oom(gsxCtx* c) { return gsx_error(c, NULL, 0, NULL, "out of memory"); }

/* ---- warnings ---- */

void gsx_warn(gsxCtx* c, const char* file, int line, const char* fmt, ...) {
  char raw[400], text[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(raw, sizeof(raw), fmt, ap);
  va_end(ap);
  gs_copyClean(text, sizeof(text), raw);
  /* one warning per message and file: a model with a hundred geoms carrying user= gets one */
  for (int i = 0; i < c->nwarn; i++)
    if (c->warn[i].file == file && strcmp(c->warn[i].text, text) == 0) return;
  if (c->nwarn == c->capwarn) {
    int ncap = c->capwarn ? 2 * c->capwarn : 16;
    gsxWarning* p = realloc(c->warn, (size_t)ncap * sizeof(gsxWarning));
    if (!p) return;  /* a lost warning is not worth failing the load */
    c->warn = p;
    c->capwarn = ncap;
  }
  size_t n = strlen(text) + 1;
  char* copy = malloc(n);
  if (!copy) return;
  memcpy(copy, text, n);
  c->warn[c->nwarn].file = file;
  c->warn[c->nwarn].line = line;
  c->warn[c->nwarn].text = copy;
  c->nwarn++;
}

void gsx_warnElement(gsxCtx* c, const char* file, int line, const char* elem) {
  gsx_warn(c, file, line, "element <%s> is not simulated yet: ignored", elem);
}

void gsx_warnAttr(gsxCtx* c, const gsxAt* a) {
  gsx_warn(c, a->file, a->line, "attribute '%s' of <%s> is not simulated yet: ignored", a->name,
           a->elem);
}

/* order of a file in the parse (main file first, includes as read), for sorting */
static int file_rank(const gsxCtx* c, const char* file) {
  for (int i = 0; i < c->nfile; i++)
    if (c->files[i]->name == file) return i;
  return c->nfile;
}

void gsx_formatWarnings(const gsxCtx* c, char* out, size_t outsz) {
  static const char kMore[] = "...\n";
  size_t used = 0;
  out[0] = 0;
  /* by file, then line: the reader visits some sections first, the reader of the list should not
   * care; a selection sort keeps it simple and the list is short */
  int* order = malloc((size_t)(c->nwarn > 0 ? c->nwarn : 1) * sizeof(int));
  int* rank = malloc((size_t)(c->nwarn > 0 ? c->nwarn : 1) * sizeof(int));
  if (!order || !rank) {
    free(order);
    free(rank);
    return;
  }
  for (int i = 0; i < c->nwarn; i++) {
    order[i] = i;
    rank[i] = file_rank(c, c->warn[i].file);
  }
  for (int i = 0; i < c->nwarn; i++) {
    int best = i;
    for (int k = i + 1; k < c->nwarn; k++) {
      int a = order[k], b = order[best];
      if (rank[a] < rank[b] || (rank[a] == rank[b] && c->warn[a].line < c->warn[b].line)) best = k;
    }
    int t = order[i];
    order[i] = order[best];
    order[best] = t;
  }
  for (int i = 0; i < c->nwarn; i++) {
    const gsxWarning* w = &c->warn[order[i]];
    char line[800];
    int n = snprintf(line, sizeof(line), "%s:%d: %s\n", w->file ? w->file : "", w->line, w->text);
    if (n < 0) continue;
    if ((size_t)n >= sizeof(line)) n = (int)sizeof(line) - 1;
    if (used + (size_t)n + sizeof(kMore) > outsz) {
      /* full: say that some were left out, if there is room */
      if (used + sizeof(kMore) <= outsz) memcpy(out + used, kMore, sizeof(kMore));
      break;
    }
    memcpy(out + used, line, (size_t)n + 1);
    used += (size_t)n;
  }
  free(order);
  free(rank);
}

void gsx_ctxFree(gsxCtx* c) {
  for (int i = 0; i < c->nwarn; i++) free(c->warn[i].text);
  free(c->warn);
  gsx_defaultsFree(&c->defs);
  for (int i = 0; i < c->nfile; i++) {
    gsxFile* f = c->files[i];
    if (f->doc) xmlFreeDoc(f->doc);
    free(f->dir);
    free(f->canon);
    free(f);
  }
  free(c->files);
  for (int i = 0; i < c->nrepname; i++) free(c->repname[i].base);
  free(c->repname);
  for (int i = 0; i < c->nrep; i++) free(c->rep[i].sep);
  c->repname = NULL;
  c->nrepname = c->nrep = 0;
  c->warn = NULL;
  c->files = NULL;
  c->nwarn = c->nfile = 0;
}

/* ---- values ---- */

static const char* skip_space(const char* p) {
  while (*p && isspace((unsigned char)*p)) p++;
  return p;
}

static const char* token_end(const char* p) {
  while (*p && !isspace((unsigned char)*p)) p++;
  return p;
}

int gsx_countTokens(const char* s) {
  int n = 0;
  const char* p = skip_space(s);
  while (*p) {
    n++;
    p = skip_space(token_end(p));
  }
  return n;
}

/* "expected 3 numbers" or "expected 1 to 3 numbers" */
static int count_error(gsxCtx* c, const gsxAt* a, int min, int max, int got, const char* what) {
  if (min == max)
    return gsx_attrError(c, a, "expected %d %s%s, got %d", min, what, min == 1 ? "" : "s", got);
  return gsx_attrError(c, a, "expected %d to %d %ss, got %d", min, max, what, got);
}

static int malformed(gsxCtx* c, const gsxAt* a, const char* tok, const char* what) {
  int n = (int)(token_end(tok) - tok);
  return gsx_attrError(c, a, "malformed %s '%.*s'", what, n > 60 ? 60 : n, tok);
}

int gsx_reals(gsxCtx* c, const gsxAt* a, gsReal* out, int min, int max, int* n) {
  int k = gsx_countTokens(a->value);
  if (k < min || k > max) return count_error(c, a, min, max, k, "number");
  const char* p = skip_space(a->value);
  for (int i = 0; i < k; i++) {
    char* end;
    errno = 0;
    double v = strtod(p, &end);
    /* the whole token must be the number; nan and inf are not model input */
    if (end == p || (*end && !isspace((unsigned char)*end)) || !isfinite(v))
      return malformed(c, a, p, "number");
    out[i] = v;
    p = skip_space(end);
  }
  if (n) *n = k;
  return 1;
}

int gsx_real(gsxCtx* c, const gsxAt* a, gsReal* out) { return gsx_reals(c, a, out, 1, 1, NULL); }

int gsx_ints(gsxCtx* c, const gsxAt* a, int* out, int min, int max, int* n) {
  int k = gsx_countTokens(a->value);
  if (k < min || k > max) return count_error(c, a, min, max, k, "integer");
  const char* p = skip_space(a->value);
  for (int i = 0; i < k; i++) {
    char* end;
    errno = 0;
    long v = strtol(p, &end, 10);
    if (end == p || (*end && !isspace((unsigned char)*end)) || errno == ERANGE || v < INT_MIN ||
        v > INT_MAX)
      return malformed(c, a, p, "integer");
    out[i] = (int)v;
    p = skip_space(end);
  }
  if (n) *n = k;
  return 1;
}

int gsx_int(gsxCtx* c, const gsxAt* a, int* out) { return gsx_ints(c, a, out, 1, 1, NULL); }

int gsx_keyword(gsxCtx* c, const gsxAt* a, const char* const* words, int nword, int* out) {
  for (int i = 0; i < nword; i++)
    if (strcmp(a->value, words[i]) == 0) {
      *out = i;
      return 1;
    }
  char allowed[300] = "";
  size_t used = 0;
  for (int i = 0; i < nword && used < sizeof(allowed); i++) {
    int w = snprintf(allowed + used, sizeof(allowed) - used, "%s%s", i ? ", " : "", words[i]);
    if (w < 0) break;
    used += (size_t)w;
  }
  return gsx_attrError(c, a, "invalid value '%.60s' (allowed: %s)", a->value, allowed);
}

int gsx_bool(gsxCtx* c, const gsxAt* a, int* out) {
  static const char* const kBool[] = {"false", "true"};
  return gsx_keyword(c, a, kBool, 2, out);
}

int gsx_setString(gsxCtx* c, char** dst, const gsxAt* a) {
  return gs_specSetString(dst, a->value) ? GSX_OK : gsx_oom(c);
}

int gsx_realList(gsxCtx* c, const gsxAt* a, gsReal** out, int* n, int max) {
  int k = gsx_countTokens(a->value);
  if (k > max) return gsx_attrError(c, a, "expected at most %d numbers, got %d", max, k);
  gsReal* v = malloc(sizeof(gsReal) * (size_t)(k ? k : 1));
  if (!v) return gsx_oom(c);
  if (!gsx_reals(c, a, v, k, k, NULL)) {
    free(v);
    return GSX_ERR;
  }
  free(*out);
  *out = v;
  *n = k;
  return GSX_OK;
}

/* ---- attributes of several elements ---- */

#define IS(s) (strcmp(a->name, (s)) == 0)

int gsx_orientAttr(gsxCtx* c, gsOrientation* o, const gsxAt* a) {
  if (IS("quat")) {
    gsReal q[4];
    if (!gsx_reals(c, a, q, 4, 4, NULL)) return GSX_ERR;
    /* a zero quaternion has no direction to normalize to */
    if (q[0] == 0 && q[1] == 0 && q[2] == 0 && q[3] == 0)
      return gsx_attrError(c, a, "zero quaternion");
    memcpy(o->quat, q, sizeof(q));
    o->type = GS_ORIENT_QUAT;
    return GSX_OK;
  }
  if (IS("axisangle")) {
    if (!gsx_reals(c, a, o->axisangle, 4, 4, NULL)) return GSX_ERR;
    o->type = GS_ORIENT_AXISANGLE;
    return GSX_OK;
  }
  if (IS("euler")) {
    if (!gsx_reals(c, a, o->euler, 3, 3, NULL)) return GSX_ERR;
    o->type = GS_ORIENT_EULER;
    return GSX_OK;
  }
  if (IS("xyaxes")) {
    if (!gsx_reals(c, a, o->xyaxes, 6, 6, NULL)) return GSX_ERR;
    o->type = GS_ORIENT_XYAXES;
    return GSX_OK;
  }
  if (IS("zaxis")) {
    if (!gsx_reals(c, a, o->zaxis, 3, 3, NULL)) return GSX_ERR;
    o->type = GS_ORIENT_ZAXIS;
    return GSX_OK;
  }
  return -1;
}

int gsx_userAttr(gsxCtx* c, const gsxAt* a, gsReal** user, int* nuser) {
  /* MJCF reads an empty user= as not written: the class's values stay */
  if (gsx_countTokens(a->value) == 0) return GSX_OK;
  return gsx_realList(c, a, user, nuser, 1 << 20);
}
