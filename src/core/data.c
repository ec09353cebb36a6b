/* gsData memory: one buffer for the arrays of GS_DATA_FIELDS, one arena for scratch, and the
 * stack discipline on the arena. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "dynamics/dynamics.h"
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

static int max_chain(const gsModel* m);

/* Scratch needed by the smooth pipeline: RK4 keeps four stage derivatives, the implicit
 * integrator a dense nv x nv matrix and its LU, RNE two spatial vectors per body; then the
 * collision and constraint stages' bounds. */
static size_t arena_bytes(const gsModel* m, int nefcmax, long nJmax) {
  size_t nv = (size_t)m->nv, nq = (size_t)m->nq, na = (size_t)m->na, nb = (size_t)m->nbody;
  size_t reals = 2 * nv * nv + 24 * (nq + nv + na) + 24 * nb + 2 * (size_t)m->nM + 256;
  /* collision: boxes and sort records per geom, room for ~16 candidate pairs per geom (and their
   * sorting buffer) and the sort's count per body, the explicit pairs' order, one pair function's
   * contacts */
  reals += 80 * (size_t)m->ngeom + nb + (size_t)m->npair + 2048;
  /* constraint solver: the primal solvers' dense Hessian and its factor, a dozen vectors per dof
   * and per row (with the blocks of rows), and the pattern of M on the dofs solved (an int per
   * entry, counted as a real) */
  size_t rows = (size_t)nefcmax;
  reals += 2 * nv * nv + 24 * nv + 16 * rows + (size_t)m->nM;
  /* islands: five ints per dof while finding them; without islands the solver lists every dof
   * and row (ints, counted as reals) */
  reals += 3 * nv + rows;
  /* PGS: Y = D^-1/2 L^-T J^T by rows (a value and a column each), on the ancestors of J's
   * columns: a row of J holds its chains whole, except a dof's rows (friction loss, limits) which
   * grow by at most a chain; its runs of consecutive dofs (two ints each, at most one a value);
   * the elliptic blocks (at most 6 values a row) and 10 more per row; 14 vectors of nv */
  size_t nY = (size_t)nJmax + rows * (size_t)max_chain(m);
  if (nY > rows * nv) nY = rows * nv;
  reals += 3 * nY + 16 * rows + 14 * nv;
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

/* ---- constraint rows ---- */

/* dofs on the longest path from a body to the world: the most a body Jacobian touches */
static int max_chain(const gsModel* m) {
  int best = 0;
  for (int b = 1; b < m->nbody; b++) {
    int n = 0;
    for (int j = gs_bodyLastDof(m, b); j >= 0; j = m->dof_parentid[j]) n++;
    if (n > best) best = n;
  }
  return best;
}

/* rows and Jacobian non-zeros the constraint stage may need: every equality, friction loss and
 * limit row at once, and every contact of the contact capacity with the most rows a contact of
 * this model can have (a pyramidal condim 6 contact: 10) */
static void efc_capacity(const gsModel* m, int nconmax, int* nefc, long* nJ) {
  long rows = 0, nnz = 0, nv = m->nv;
  int chain = max_chain(m);
  for (int i = 0; i < m->neq; i++) {
    int r = m->eq_type[i] == GS_EQ_CONNECT ? 3 : m->eq_type[i] == GS_EQ_WELD ? 6 : 1;
    rows += r;
    nnz += r * nv;
  }
  for (int i = 0; i < m->nv; i++) rows += m->dof_frictionloss[i] > 0, nnz += m->dof_frictionloss[i] > 0;
  for (int i = 0; i < m->ntendon; i++) {
    int r = (m->tendon_frictionloss[i] > 0) + 2 * (m->tendon_limited[i] != 0);
    rows += r;
    nnz += r * nv;
  }
  for (int j = 0; j < m->njnt; j++) {
    if (!m->jnt_limited[j]) continue;
    int r = m->jnt_type[j] == GS_JNT_BALL ? 1 : m->jnt_type[j] == GS_JNT_FREE ? 0 : 2;
    rows += r;
    nnz += r * (m->jnt_type[j] == GS_JNT_BALL ? 3 : 1);
  }
  int condim = 1;
  for (int g = 0; g < m->ngeom; g++) condim = m->geom_condim[g] > condim ? m->geom_condim[g] : condim;
  for (int p = 0; p < m->npair; p++) condim = m->pair_dim[p] > condim ? m->pair_dim[p] : condim;
  long per = condim == 1 ? 1 : 2 * (condim - 1);
  long width = 2L * chain < nv ? 2L * chain : nv;
  rows += per * nconmax;
  nnz += per * nconmax * width;
  if (rows > 10000000) rows = 10000000;
  *nefc = (int)rows;
  *nJ = nnz;
}

static size_t efc_bytes(int nefcmax, long nJmax) {
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
  d->nconmax = gs_contactCapacity(m);
  long nJmax;
  efc_capacity(m, d->nconmax, &d->nefcmax, &nJmax);
  d->narena = arena_bytes(m, d->nefcmax, nJmax);
  /* aligned_alloc wants a size that is a multiple of the alignment */
  d->narena = align_up(d->narena, GS_ALIGN);
  d->buffer = aligned_alloc(GS_ALIGN, align_up(d->nbuffer ? d->nbuffer : 1, GS_ALIGN));
  d->arena = aligned_alloc(GS_ALIGN, d->narena);
  d->contact = calloc((size_t)d->nconmax, sizeof(gsContact));
  d->nJmax = nJmax > 200000000 ? 200000000 : (int)nJmax;
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
  memset(d->warning, 0, sizeof(d->warning));
  memset(d->timer, 0, sizeof(d->timer));
  d->pstack = 0;
  d->maxuse = 0;
  d->ncon = 0;
  d->nefc = d->ne = d->nf = d->nl = d->nJ = 0;
  d->nisland = d->nidof = 0;
  memset(d->solver_niter, 0, sizeof(d->solver_niter));
  d->solver_nnoslip = 0;
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
  memcpy(dst->solver, src->solver, sizeof(src->solver));
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
