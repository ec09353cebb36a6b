/* gsData memory: one buffer for the arrays of GS_DATA_FIELDS, one arena for scratch, and the
 * stack discipline on the arena. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
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

static void data_carve(const gsModel* m, gsData* d) {
  unsigned char* p = d->buffer;
#define GS_X(type, name, rows, cols)                                                              \
  d->name = (type*)p;                                                                              \
  p += align_up(sizeof(type) * (size_t)m->rows * (cols), GS_ALIGN);
  GS_DATA_FIELDS(GS_X)
#undef GS_X
}

/* ---- constraint rows: room for the model's nefcmax rows and nJmax Jacobian non-zeros ---- */

static size_t efc_bytes(int nefcmax, int nJmax) {
  size_t total = 0;
#define GS_X(type, name, cols) total += align_up(sizeof(type) * (size_t)nefcmax * (cols), GS_ALIGN);
  GS_EFC_FIELDS(GS_X)
#undef GS_X
  total += align_up(sizeof(int) * (size_t)nJmax, GS_ALIGN) + align_up(sizeof(gsReal) * (size_t)nJmax, GS_ALIGN);
  return total;
}

static void efc_carve(gsData* d) {
  unsigned char* p = d->efcbuffer;
#define GS_X(type, name, cols)                                                                      \
  d->name = (type*)p;                                                                              \
  p += align_up(sizeof(type) * (size_t)d->nefcmax * (cols), GS_ALIGN);
  GS_EFC_FIELDS(GS_X)
#undef GS_X
  d->efc_J_colind = (int*)p;
  p += align_up(sizeof(int) * (size_t)d->nJmax, GS_ALIGN);
  d->efc_J = (gsReal*)p;
}

/* ---- constraint islands: every array has room for nv (an island holds a tree with dofs) ---- */

static const char* const kIslandName[] = {
#define GS_X(name, rows) #name,
    GS_ISLAND_FIELDS(GS_X)
#undef GS_X
};
#define ISLAND_NFIELD ((int)(sizeof(kIslandName) / sizeof(kIslandName[0])))

static void island_carve(const gsModel* m, gsData* d) {
  int* p = d->islandbuffer;
  d->nislandmax = m->nv;
#define GS_X(name, rows) d->name = p, p += m->nv + 1;
  GS_ISLAND_FIELDS(GS_X)
#undef GS_X
}

gsData* gs_makeData(const gsModel* m) {
  gsData* d = calloc(1, sizeof(gsData));
  if (!d) return NULL;
  d->nbuffer = data_bytes(m);
  /* the capacities are the model's (src/model/capacity.c); the arena's is a multiple of the
   * alignment, as aligned_alloc wants */
  d->nconmax = m->nconmax;
  d->nefcmax = m->nefcmax;
  d->nJmax = m->nJmax;
  d->narena = align_up((size_t)m->narena, GS_ALIGN);
  d->buffer = aligned_alloc(GS_ALIGN, align_up(d->nbuffer ? d->nbuffer : 1, GS_ALIGN));
  d->arena = aligned_alloc(GS_ALIGN, d->narena ? d->narena : GS_ALIGN);
  d->contact = calloc((size_t)(d->nconmax ? d->nconmax : 1), sizeof(gsContact));
  d->efcbuffer = aligned_alloc(GS_ALIGN, align_up(efc_bytes(d->nefcmax, d->nJmax) + 1, GS_ALIGN));
  d->islandbuffer = calloc((size_t)ISLAND_NFIELD * (size_t)(m->nv + 1), sizeof(int));
  if (!d->buffer || !d->arena || !d->contact || !d->efcbuffer || !d->islandbuffer) {
    gs_freeData(d);
    return NULL;
  }
  data_carve(m, d);
  efc_carve(d);
  island_carve(m, d);
  gs_resetData(m, d);
  return d;
}

void gs_freeData(gsData* d) {
  if (!d) return;
  free(d->buffer);
  free(d->arena);
  free(d->contact);
  free(d->efcbuffer);
  free(d->islandbuffer);
  free(d);
}

void gs_resetData(const gsModel* m, gsData* d) {
  memset(d->buffer, 0, d->nbuffer);
  d->time = 0;
  d->energy[0] = d->energy[1] = 0;
  /* number and lastinfo start again, as MJCF's reset clears them; the totals count on, so that
   * the warnings behind automatic resets stay visible */
  for (int i = 0; i < GS_NWARNING; i++) d->warning[i].number = d->warning[i].lastinfo = 0;
  memset(d->timer, 0, sizeof(d->timer));
  d->pstack = 0;
  d->maxuse = 0;
  d->ncon = 0;
  d->nefc = d->ne = d->nf = d->nl = d->nJ = 0;
  d->nisland = d->nidof = 0;
  memset(d->solver_niter, 0, sizeof(d->solver_niter));
  d->solver_nnoslip = 0;
  d->solver_fwdinv[0] = d->solver_fwdinv[1] = 0;
  d->deferred = 0;
  memset(d->solver, 0, sizeof(d->solver));
  for (int i = 0; i < m->neq; i++) d->eq_active[i] = m->eq_active0[i];
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
  dst->timeron = src->timeron;
  memcpy(dst->timer, src->timer, sizeof(src->timer));
  dst->maxuse = src->maxuse;
  dst->pstack = 0;
  dst->ncon = src->ncon < dst->nconmax ? src->ncon : dst->nconmax;
  memcpy(dst->contact, src->contact, sizeof(gsContact) * (size_t)dst->ncon);
  if (src->nefc <= dst->nefcmax && src->nJ <= dst->nJmax) {
    dst->nefc = src->nefc, dst->ne = src->ne, dst->nf = src->nf, dst->nl = src->nl;
    dst->nJ = src->nJ;
#define GS_X(type, name, cols) memcpy(dst->name, src->name, sizeof(type) * (size_t)src->nefc * (cols));
    GS_EFC_FIELDS(GS_X)
#undef GS_X
    memcpy(dst->efc_J_colind, src->efc_J_colind, sizeof(int) * (size_t)src->nJ);
    memcpy(dst->efc_J, src->efc_J, sizeof(gsReal) * (size_t)src->nJ);
  } else {
    dst->nefc = dst->ne = dst->nf = dst->nl = dst->nJ = 0;
  }
  dst->nisland = src->nisland, dst->nidof = src->nidof;
  memcpy(dst->islandbuffer, src->islandbuffer, sizeof(int) * (size_t)ISLAND_NFIELD * (size_t)(m->nv + 1));
  memcpy(dst->solver_niter, src->solver_niter, sizeof(src->solver_niter));
  dst->solver_nnoslip = src->solver_nnoslip;
  memcpy(dst->solver_fwdinv, src->solver_fwdinv, sizeof(src->solver_fwdinv));
  dst->deferred = src->deferred;
  dst->cb = src->cb;
  memcpy(dst->solver, src->solver, sizeof(src->solver));
#define GS_X(type, name, rows, cols) \
  memcpy(dst->name, src->name, sizeof(type) * (size_t)m->rows * (cols));
  GS_DATA_FIELDS(GS_X)
#undef GS_X
  return dst;
}

int gs_contactCapacity(const gsModel* m) { return m->nconmax; }

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

void gs_warning(gsData* d, gsWarning warning, int info) {
  if ((unsigned)warning >= GS_NWARNING) return;
  d->warning[warning].number++;
  d->warning[warning].total++;
  d->warning[warning].lastinfo = info;
}

gsTimerStat* gs_dataTimer(gsData* d, int* n) {
  if (n) *n = GS_NTIMER;
  return d->timer;
}

void gs_setTimer(gsData* d, int on) { d->timeron = on != 0; }

size_t gs_dataArena(const gsData* d, size_t* pstack, size_t* maxuse) {
  if (pstack) *pstack = d->pstack;
  if (maxuse) *maxuse = d->maxuse;
  return d->narena;
}

/* ---- arena: a stack; callers release to a mark when done (arena.h: the stages' inline
 * versions) ---- */
void* gs_arenaFull(gsData* d, size_t bytes) {
  gs_warning(d, GS_WARN_ARENAFULL, (int)(bytes > 2147483647u ? 2147483647u : bytes));
  return NULL;
}

void* gs_stackAlloc(gsData* d, size_t bytes) { return gs_arenaAlloc(d, bytes); }

size_t gs_stackMark(const gsData* d) { return gs_arenaMark(d); }

void gs_stackRelease(gsData* d, size_t mark) { gs_arenaRelease(d, mark); }

/* ---- constraint rows for bindings ---- */

typedef struct {
  const char* name;
  int type, cols;
  size_t offset;
} gsEfcDesc;

#define GS_TYPEOF_int GS_TYPE_INT
#define GS_TYPEOF_gsReal GS_TYPE_REAL
static const gsEfcDesc kEfc[] = {
#define GS_X(type, name, cols) {#name, GS_TYPEOF_##type, cols, offsetof(gsData, name)},
    GS_EFC_FIELDS(GS_X)
#undef GS_X
    {"efc_J_colind", GS_TYPE_INT, 1, offsetof(gsData, efc_J_colind)},
    {"efc_J_values", GS_TYPE_REAL, 1, offsetof(gsData, efc_J)},
};
#define NEFC ((int)(sizeof(kEfc) / sizeof(kEfc[0])))

int gs_dataEfcFieldCount(void) { return NEFC; }

int gs_dataEfcField(const gsData* d, int i, gsFieldInfo* info) {
  if (i < 0 || i >= NEFC) return 0;
  info->name = kEfc[i].name;
  info->type = kEfc[i].type;
  info->cols = kEfc[i].cols;
  info->rows = i >= NEFC - 2 ? d->nJ : d->nefc;
  info->ptr = *(void* const*)((const char*)d + kEfc[i].offset);
  return 1;
}

void gs_dataEfcCounts(const gsData* d, int counts[9]) {
  counts[0] = d->nefc, counts[1] = d->ne, counts[2] = d->nf, counts[3] = d->nl, counts[4] = d->nJ;
  counts[5] = gs_solverIterations(d), counts[6] = d->solver_nnoslip;
  counts[7] = d->nisland, counts[8] = d->nidof;
}

int gs_solverIterations(const gsData* d) {
  int n = 0;
  for (int i = 0; i < GS_NISLAND; i++)
    if (d->solver_niter[i] > n) n = d->solver_niter[i];
  return n;
}

gsSolverStat* gs_dataSolver(gsData* d, int** niter) {
  if (niter) *niter = d->solver_niter;
  return d->solver;
}

gsReal* gs_dataFwdinv(gsData* d) { return d->solver_fwdinv; }

int gs_dataIslandFieldCount(void) { return ISLAND_NFIELD; }

int gs_dataIslandField(const gsData* d, int i, gsFieldInfo* info) {
  if (i < 0 || i >= ISLAND_NFIELD) return 0;
  int* const* ptr[] = {
#define GS_X(name, rows) &d->name,
      GS_ISLAND_FIELDS(GS_X)
#undef GS_X
  };
  /* the dof arrays have nv rows, the island arrays nisland */
  int nv = d->nislandmax;
  info->name = kIslandName[i];
  info->type = GS_TYPE_INT;
  info->cols = 1;
  info->rows = i < 3 ? nv : d->nisland;
  info->ptr = *ptr[i];
  return 1;
}

gsCallbacks* gs_dataCallbacks(gsData* d) { return &d->cb; }
