/* Readable dumps of every model and data field, driven by the field list. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gauss/gauss.h"
#include "model/io.h"

static void print_field(FILE* f, const gsFieldInfo* fi) {
  fprintf(f, "  %s (%d x %d)\n", fi->name, fi->rows, fi->cols);
  if (fi->type == GS_TYPE_CHAR) {
    /* names: NUL-separated strings */
    const char* s = fi->ptr;
    fprintf(f, "    ");
    for (int i = 0; i < fi->rows; i++) fputc(s[i] ? s[i] : '|', f);
    fprintf(f, "\n");
    return;
  }
  for (int r = 0; r < fi->rows; r++) {
    fprintf(f, "    %4d:", r);
    for (int c = 0; c < fi->cols; c++) {
      int k = r * fi->cols + c;
      if (fi->type == GS_TYPE_REAL) fprintf(f, " % .9g", ((const gsReal*)fi->ptr)[k]);
      else fprintf(f, " %d", ((const int*)fi->ptr)[k]);
    }
    fprintf(f, "\n");
  }
}

/* the shortest of %.15g..%.17g that reads back as the same value */
static void print_real(FILE* f, gsReal x) {
  char buf[40];
  for (int digits = 15; digits <= 17; digits++) {
    snprintf(buf, sizeof buf, "%.*g", digits, x);
    if (strtod(buf, NULL) == x) break;
  }
  fprintf(f, " %s", buf);
}

static FILE* open_out(const char* path) { return path ? fopen(path, "w") : stdout; }
static int close_out(FILE* f, const char* path) { return path ? fclose(f) == 0 : fflush(f) == 0; }

int gs_printModel(const gsModel* m, const char* path) {
  FILE* f = open_out(path);
  if (!f) return 0;
  /* every size, eight to a line */
  fprintf(f, "SIZES\n");
  const char* name;
  int v, k = 0;
  for (int i = 0; (name = gs_modelSize(m, i, &v)); i++, k++)
    fprintf(f, "  %s %d%s", name, v, k % 8 == 7 ? "\n" : "");
  if (k % 8) fprintf(f, "\n");
  /* every option: reals with all their digits, flags also by name */
  fprintf(f, "OPTION\n");
  int type, count;
  const void* ptr;
  for (int i = 0; gs_optionField(&m->opt, i, &name, &type, &count, &ptr); i++) {
    fprintf(f, "  %-18s", name);
    for (int c = 0; c < count; c++) {
      if (type == GS_TYPE_REAL) print_real(f, ((const gsReal*)ptr)[c]);
      else fprintf(f, " %d", ((const int*)ptr)[c]);
    }
    int bits = type == GS_TYPE_INT ? ((const int*)ptr)[0] : 0;
    const char* const* names = NULL;
    int nnames = 0;
    if (strcmp(name, "disableflags") == 0) names = gs_disable_names, nnames = GS_NDISABLE;
    if (strcmp(name, "enableflags") == 0) names = gs_enable_names, nnames = GS_NENABLE;
    for (int b = 0; names && b < nnames; b++)
      if (bits & (1 << b)) fprintf(f, " %s", names[b]);
    fprintf(f, "\n");
  }
  fprintf(f, "FIELDS\n");
  gsFieldInfo fi;
  for (int i = 0; gs_modelField(m, i, &fi); i++) print_field(f, &fi);
  return close_out(f, path);
}

int gs_printData(const gsModel* m, const gsData* d, const char* path) {
  FILE* f = open_out(path);
  if (!f) return 0;
  fprintf(f, "time %.9g  energy %.9g %.9g  arena %zu/%zu bytes (max %zu)\n", d->time, d->energy[0],
          d->energy[1], d->pstack, d->narena, d->maxuse);
  for (int w = 0; w < GS_NWARNING; w++)
    if (d->warning[w].number) fprintf(f, "warning %d: %d times, last %d\n", w, d->warning[w].number, d->warning[w].lastinfo);
  gsFieldInfo fi;
  for (int i = 0; gs_dataField(m, d, i, &fi); i++) print_field(f, &fi);
  return close_out(f, path);
}
