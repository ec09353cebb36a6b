/* Readable dumps of every model and data field, driven by the field list. */
#include <stdio.h>

#include "gauss/gauss.h"

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

static FILE* open_out(const char* path) { return path ? fopen(path, "w") : stdout; }
static int close_out(FILE* f, const char* path) { return path ? fclose(f) == 0 : fflush(f) == 0; }

int gs_printModel(const gsModel* m, const char* path) {
  FILE* f = open_out(path);
  if (!f) return 0;
  fprintf(f, "SIZES\n  nq %d  nv %d  nu %d  na %d  nbody %d  njnt %d  ngeom %d  nsite %d  nM %d  nnames %d\n",
          m->nq, m->nv, m->nu, m->na, m->nbody, m->njnt, m->ngeom, m->nsite, m->nM, m->nnames);
  const gsOption* o = &m->opt;
  fprintf(f, "OPTION\n  timestep %.9g  gravity %.9g %.9g %.9g  integrator %d  solver %d  cone %d  jacobian %d\n"
             "  iterations %d  tolerance %.9g  disableflags %#x  enableflags %#x\n",
          o->timestep, o->gravity[0], o->gravity[1], o->gravity[2], o->integrator, o->solver, o->cone,
          o->jacobian, o->iterations, o->tolerance, (unsigned)o->disableflags, (unsigned)o->enableflags);
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
