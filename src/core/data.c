/* gsData memory: one buffer for the arrays of GS_DATA_FIELDS, one arena for scratch, and the
 * stack discipline on the arena. */
#include <stdlib.h>
#include <string.h>

#include "gauss/gauss.h"

#define GS_ALIGN 64
static size_t align_up(size_t n, size_t a) { return (n + a - 1) & ~(a - 1); }

static size_t data_bytes(const gsModel* m) {
  size_t total = 0;
#define GS_X(type, name, rows, cols) total += align_up(sizeof(type) * (size_t)m->rows * (cols), GS_ALIGN);
  GS_DATA_FIELDS(GS_X)
#undef GS_X
  return total;
}

/* Scratch needed by the smooth pipeline: RK4 keeps four stage derivatives, the implicit
 * integrator a dense nv x nv matrix and its LU, RNE two spatial vectors per body. Later stages
 * (contacts, constraints) add their own bounds here. */
static size_t arena_bytes(const gsModel* m) {
  size_t nv = (size_t)m->nv, nq = (size_t)m->nq, na = (size_t)m->na, nb = (size_t)m->nbody;
  size_t reals = 2 * nv * nv + 24 * (nq + nv + na) + 24 * nb + 2 * (size_t)m->nM + 256;
  /* collision: boxes and sort records per geom, room for ~16 candidate pairs per geom (and their
   * sorting buffer), the explicit pairs' order, one pair function's contacts */
  reals += 80 * (size_t)m->ngeom + (size_t)m->npair + 2048;
  return reals * sizeof(gsReal) + 64 * 1024;
}

static void data_carve(const gsModel* m, gsData* d) {
  unsigned char* p = d->buffer;
#define GS_X(type, name, rows, cols)                                                              \
  d->name = (type*)p;                                                                              \
  p += align_up(sizeof(type) * (size_t)m->rows * (cols), GS_ALIGN);
  GS_DATA_FIELDS(GS_X)
#undef GS_X
}

gsData* gs_makeData(const gsModel* m) {
  gsData* d = calloc(1, sizeof(gsData));
  if (!d) return NULL;
  d->nbuffer = data_bytes(m);
  d->narena = arena_bytes(m);
  /* aligned_alloc wants a size that is a multiple of the alignment */
  d->narena = align_up(d->narena, GS_ALIGN);
  d->buffer = aligned_alloc(GS_ALIGN, align_up(d->nbuffer ? d->nbuffer : 1, GS_ALIGN));
  d->arena = aligned_alloc(GS_ALIGN, d->narena);
  d->nconmax = gs_contactCapacity(m);
  d->contact = calloc((size_t)d->nconmax, sizeof(gsContact));
  if (!d->buffer || !d->arena || !d->contact) {
    gs_freeData(d);
    return NULL;
  }
  data_carve(m, d);
  gs_resetData(m, d);
  return d;
}

void gs_freeData(gsData* d) {
  if (!d) return;
  free(d->buffer);
  free(d->arena);
  free(d->contact);
  free(d);
}

void gs_resetData(const gsModel* m, gsData* d) {
  memset(d->buffer, 0, d->nbuffer);
  d->time = 0;
  d->energy[0] = d->energy[1] = 0;
  memset(d->warning, 0, sizeof(d->warning));
  d->pstack = 0;
  d->maxuse = 0;
  d->ncon = 0;
  memcpy(d->qpos, m->qpos0, sizeof(gsReal) * (size_t)m->nq);
  /* mocap bodies start where the model puts them */
  for (int b = 0; b < m->nbody; b++) {
    int id = m->body_mocapid[b];
    if (id < 0) continue;
    memcpy(d->mocap_pos + 3 * id, m->body_pos + 3 * b, 3 * sizeof(gsReal));
    memcpy(d->mocap_quat + 4 * id, m->body_quat + 4 * b, 4 * sizeof(gsReal));
  }
}

gsData* gs_copyData(gsData* dst, const gsModel* m, const gsData* src) {
  if (!dst) {
    dst = gs_makeData(m);
    if (!dst) return NULL;
  }
  dst->time = src->time;
  dst->energy[0] = src->energy[0];
  dst->energy[1] = src->energy[1];
  memcpy(dst->warning, src->warning, sizeof(src->warning));
  dst->maxuse = src->maxuse;
  dst->pstack = 0;
  dst->ncon = src->ncon < dst->nconmax ? src->ncon : dst->nconmax;
  memcpy(dst->contact, src->contact, sizeof(gsContact) * (size_t)dst->ncon);
#define GS_X(type, name, rows, cols) \
  memcpy(dst->name, src->name, sizeof(type) * (size_t)m->rows * (cols));
  GS_DATA_FIELDS(GS_X)
#undef GS_X
  return dst;
}

/* room for contacts: every geom pair that can collide could produce a few; beyond this the
 * collision stage stops adding and raises GS_WARN_CONTACTFULL */
int gs_contactCapacity(const gsModel* m) {
  long n = 100 + 16L * m->ngeom;
  return n > 1000000 ? 1000000 : (int)n;
}

gsContact* gs_dataContact(gsData* d, int* ncon, int* nconmax) {
  if (ncon) *ncon = d->ncon;
  if (nconmax) *nconmax = d->nconmax;
  return d->contact;
}

gsReal* gs_dataTime(gsData* d) { return &d->time; }
gsReal* gs_dataEnergy(gsData* d) { return d->energy; }

gsWarningStat* gs_dataWarning(gsData* d, int* n) {
  if (n) *n = GS_NWARNING;
  return d->warning;
}

size_t gs_dataArena(const gsData* d, size_t* pstack, size_t* maxuse) {
  if (pstack) *pstack = d->pstack;
  if (maxuse) *maxuse = d->maxuse;
  return d->narena;
}

/* ---- arena: a stack; callers release to a mark when done ---- */
void* gs_stackAlloc(gsData* d, size_t bytes) {
  size_t start = align_up(d->pstack, 16);
  if (start + bytes > d->narena) {
    d->warning[GS_WARN_ARENAFULL].number++;
    d->warning[GS_WARN_ARENAFULL].lastinfo = (int)(bytes > 2147483647u ? 2147483647u : bytes);
    return NULL;
  }
  d->pstack = start + bytes;
  if (d->pstack > d->maxuse) d->maxuse = d->pstack;
  return d->arena + start;
}

size_t gs_stackMark(const gsData* d) { return d->pstack; }

void gs_stackRelease(gsData* d, size_t mark) { d->pstack = mark; }
