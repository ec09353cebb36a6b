/* The MJCF writer's output buffer and its element and attribute helpers (xml_write_internal.h),
 * shared by xml_write.c and the slices' xml_write_<slice>.c. Kept apart from xml_write.c, which
 * calls the slices, so that the slices do not call back into it. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "xml_write_internal.h"

/* ---- output ---- */

static void grow(gswWriter* w, size_t extra) {
  if (w->failed || w->n + extra + 1 <= w->cap) return;
  size_t cap = w->cap ? w->cap : 1 << 14;
  while (cap < w->n + extra + 1) cap *= 2;
  char* p = realloc(w->buf, cap);
  if (!p) {
    gsw_fail(w, "out of memory");
    return;
  }
  w->buf = p;
  w->cap = cap;
}

void gsw_printf(gswWriter* w, const char* fmt, ...) {
  if (w->failed) return;
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (k < 0) return gsw_fail(w, "formatting failed");
  grow(w, (size_t)k);
  if (w->failed) return;
  va_start(ap, fmt);
  vsnprintf(w->buf + w->n, w->cap - w->n, fmt, ap);
  va_end(ap);
  w->n += (size_t)k;
}

void gsw_fail(gswWriter* w, const char* fmt, ...) {
  if (w->failed) return;
  w->failed = 1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(w->msg, sizeof w->msg, fmt, ap);
  va_end(ap);
}

void gsw_open(gswWriter* w, const char* elem) { gsw_printf(w, "%*s<%s", 2 * w->depth, "", elem); }
void gsw_end(gswWriter* w) { gsw_printf(w, "/>\n"); }
void gsw_begin(gswWriter* w) {
  gsw_printf(w, ">\n");
  w->depth++;
}
void gsw_close(gswWriter* w, const char* elem) {
  w->depth--;
  gsw_printf(w, "%*s</%s>\n", 2 * w->depth, "", elem);
}

/* ---- attributes ---- */

void gsw_str(gswWriter* w, const char* name, const char* value) {
  gsw_printf(w, " %s=\"", name);
  for (const char* p = value; *p; p++) {
    switch (*p) {
      case '&': gsw_printf(w, "&amp;"); break;
      case '<': gsw_printf(w, "&lt;"); break;
      case '>': gsw_printf(w, "&gt;"); break;
      case '"': gsw_printf(w, "&quot;"); break;
      case '\n': gsw_printf(w, "&#10;"); break;
      case '\t': gsw_printf(w, "&#9;"); break;
      case '\r': gsw_printf(w, "&#13;"); break;
      default: gsw_printf(w, "%c", *p); break;
    }
  }
  gsw_printf(w, "\"");
}

/* the fewest significant digits (15 to 17) that read back as exactly x */
static void real_text(char* out, size_t n, gsReal x) {
  for (int digits = 15; digits <= 17; digits++) {
    snprintf(out, n, "%.*g", digits, x);
    if (strtod(out, NULL) == x) return;
  }
}

void gsw_reals(gswWriter* w, const char* name, const gsReal* v, int n) {
  gsw_printf(w, " %s=\"", name);
  for (int i = 0; i < n; i++) {
    if (!isfinite(v[i]))
      return gsw_fail(w, "attribute '%s' holds %g, which MJCF cannot express", name, v[i]);
    char t[40];
    real_text(t, sizeof t, v[i]);
    gsw_printf(w, "%s%s", i ? " " : "", t);
  }
  gsw_printf(w, "\"");
}

void gsw_real(gswWriter* w, const char* name, gsReal v) { gsw_reals(w, name, &v, 1); }

void gsw_ints(gswWriter* w, const char* name, const int* v, int n) {
  gsw_printf(w, " %s=\"", name);
  for (int i = 0; i < n; i++) gsw_printf(w, "%s%d", i ? " " : "", v[i]);
  gsw_printf(w, "\"");
}

void gsw_int(gswWriter* w, const char* name, int v) { gsw_printf(w, " %s=\"%d\"", name, v); }
void gsw_bool(gswWriter* w, const char* name, int v) {
  gsw_printf(w, " %s=\"%s\"", name, v ? "true" : "false");
}

void gsw_keyword(gswWriter* w, const char* name, const char* const* words, int nword, int v) {
  if (v < 0 || v >= nword || !words[v]) return gsw_fail(w, "attribute '%s': no keyword for %d", name, v);
  gsw_printf(w, " %s=\"%s\"", name, words[v]);
}

void gsw_name(gswWriter* w, int type, int id) {
  const char* s = gs_id2name(w->m, type, id);
  if (s && s[0]) gsw_str(w, "name", s);
}

void gsw_ref(gswWriter* w, const char* attr, int type, int id) {
  const char* s = gs_id2name(w->m, type, id);
  if ((!s || !s[0]) && (type == GS_OBJ_BODY || type == GS_OBJ_XBODY) && id == 0) s = "world";
  if (!s || !s[0])
    return gsw_fail(w, "attribute '%s' refers to an unnamed object (type %d, id %d); MJCF refers "
                    "to objects by name", attr, type, id);
  gsw_str(w, attr, s);
}
