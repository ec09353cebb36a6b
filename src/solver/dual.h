/* The dual problem shared by PGS and the noslip pass (seed 000 eq. 17): minimise
 * 1/2 f^T (A + R) f + f^T (J a0 - aref) over the admissible forces, A = J M^-1 J^T, one row or one
 * elliptic contact at a time.
 *
 * A is never formed. With M = L^T D L, A = Y^T Y for Y = D^-1/2 L^-T J^T, whose column for row r
 * is non-zero only on the ancestors of the dofs of J's row r (a chain, or two). The solvers keep
 * u = Y f (nv values): (A f)_r = Y_r . u, and a change of f_r moves u by Y_r times it, so a row
 * update costs the length of its chains and memory grows with the non-zeros of Y, not nefc^2.
 * The products the sweeps repeat are inline here. */
#ifndef GAUSS_SOLVER_DUAL_H
#define GAUSS_SOLVER_DUAL_H

#include <string.h>

#include "core/pair.h"
#include "gauss/gauss.h"

typedef struct gsDual {
  int* adr;       /* row r of Y at adr[r] in col/val, nnz[r] values */
  int* nnz;
  int* col;       /* its dofs, ascending */
  gsReal* val;    /* Y = D^-1/2 L^-T J^T by rows */
  int* runadr;    /* the columns of row r as nrun[r] runs of consecutive dofs at run + 2 runadr[r]: */
  int* nrun;      /* (first dof, length) pairs, which the sweeps walk without indexing */
  int* run;
  gsReal* diag;   /* A_rr */
  gsReal* inv;    /* 1 / (A_rr + R_r), R as the pass uses it; 0 for a row that cannot move */
  int* same;      /* 1 where row r has the columns (and runs) of row r - 1: a contact's rows */
  int* derive;    /* a pyramid row whose Y (and A) row is row f + row f+1 - row r-1: f; else -1 */
  int* blockadr;  /* first row of an elliptic contact: its dim x dim block of A in block */
  gsReal* block;
  gsReal* b;      /* J a0 - aref: the dual gradient at f = 0 */
  gsReal* u;      /* Y f, nv values (Y's mode only) */
  /* A = Y^T Y whole (nefc x nefc, row-major; gs_dualDense) where a dense row costs less than a
   * row of Y read and written back (few rows on long chains: a humanoid's contacts and limits);
   * then the gradients are read from the forces f (efc_force) and u is not kept. NULL otherwise. */
  gsReal* A;
  const gsReal* f;
  int nefc;
  /* the dense setup's Y (setup_dense in dual.c): its ncol eliminated rows as the columns of z
   * (dof-major, nz values a dof), the row of each column (zrow) and the column of each row
   * (zpos), each dof's first and last column that is not zero (zspan) and D^-1/2 (zscale):
   * the finish takes M^-1 J^T f as L^-1 D^-1/2 (Y f) from them. z NULL otherwise. */
  const gsReal* z;
  const int *zrow, *zpos, *zspan;
  const gsReal* zscale;
  int nz, ncol;
} gsDual;

/* A's products in 32-byte vectors where the processor has AVX2 (x86-64 with GCC or Clang; the
 * same bits as the 16-byte path): gs_dualAVX2() says whether the setup takes them, and
 * gs_dualNoAVX2, set by a test, turns them off */
#if defined(__GNUC__) && defined(__x86_64__)
#define GS_DUAL_AVX2 1
extern int gs_dualNoAVX2;
int gs_dualAVX2(void);
#endif
/* the most rows for the dense A (its nefc^2 values come from the arena; capacity.c reserves them) */
#define GS_DUAL_DENSE 64

/* (A f)_r + b_r: the dual gradient of row r without its regulariser */
static inline gsReal gs_dualRowGrad(const gsDual* w, int r) {
  if (w->A) return w->b[r] + gs_dotN(w->A + (size_t)r * w->nefc, w->f, w->nefc);
  const int* run = w->run + 2 * w->runadr[r];
  const gsReal* y = w->val + w->adr[r];
  /* four partial sums: the products are independent, a single sum would wait on each add */
  gsReal s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  for (int t = 0, nrun = w->nrun[r]; t < nrun; t++, run += 2) {
    const gsReal* u = w->u + run[0];
    int n = run[1], k = 0;
    for (; k + 4 <= n; k += 4) {
      s0 += y[k] * u[k];
      s1 += y[k + 1] * u[k + 1];
      s2 += y[k + 2] * u[k + 2];
      s3 += y[k + 3] * u[k + 3];
    }
    for (; k < n; k++) s0 += y[k] * u[k];
    y += n;
  }
  return w->b[r] + ((s0 + s1) + (s2 + s3));
}

/* A_rs = Y_r . Y_s, both rows ascending */
static inline gsReal gs_dualRowProduct(const gsDual* w, int r, int s) {
  if (w->A) return w->A[(size_t)r * w->nefc + s];
  const int *cr = w->col + w->adr[r], *cs = w->col + w->adr[s];
  const gsReal *yr = w->val + w->adr[r], *ys = w->val + w->adr[s];
  int nr = w->nnz[r], ns = w->nnz[s], i = 0, j = 0;
  gsReal sum = 0;
  while (i < nr && j < ns) {
    if (cr[i] < cs[j]) i++;
    else if (cr[i] > cs[j]) j++;
    else sum += yr[i++] * ys[j++];
  }
  return sum;
}

/* u += Y_r delta */
static inline void gs_dualMoveU(gsDual* w, int r, gsReal delta) {
  if (w->A) return;
  const int* run = w->run + 2 * w->runadr[r];
  const gsReal* y = w->val + w->adr[r];
  for (int t = 0, nrun = w->nrun[r]; t < nrun; t++, run += 2) {
    gsReal* u = w->u + run[0];
    for (int k = 0; k < run[1]; k++) u[k] += y[k] * delta;
    y += run[1];
  }
}

/* f_r += delta, and u with it */
static inline void gs_dualApply(gsData* d, gsDual* w, int r, gsReal delta) {
  d->efc_force[r] += delta;
  gs_dualMoveU(w, r, delta);
}

/* Y, its runs, A's diagonal and elliptic blocks, and b for the rows of d, from the arena;
 * regularised: the sweeps' inv includes R (PGS) or not (noslip). 0 when the arena is too small. */
int gs_dualSetup(const gsModel* m, gsData* d, gsDual* w, int regularised);
/* w as `kept` (a setup of the same position stage: Y, the diagonal and the blocks depend on it
 * alone), with its own b (from this pass's qacc_smooth and aref) and u from the arena; 0 no room */
int gs_dualReuse(const gsModel* m, gsData* d, gsDual* w, const gsDual* kept);

/* A = Y^T Y whole (w->A) from the arena when nefc <= GS_DUAL_DENSE, a dense row costs less than
 * a row of Y read and written back, and the arena has room; else nothing changes. The sweeps then
 * read the forces, not u. PGS forms it before its warm start: a sweep over Y's rows costs more
 * than forming A on the models where A pays (a humanoid's limits and contacts). */
void gs_dualDense(const gsModel* m, gsData* d, gsDual* w);

/* u = Y f for the forces efc_force holds */
void gs_dualAccumulate(gsData* d, gsDual* w, int nv);

/* one elliptic contact at rows r .. r+n-1 (noslip: its friction rows within the ball of its held
 * normal force); returns the dual cost change */
gsReal gs_dualBlockUpdate(gsData* d, gsDual* w, int r, int n, int noslip);

/* one scalar row (R: its regulariser in this pass, as in inv); returns the dual cost change.
 * Inline: the sweeps call it for every scalar row, and the call cost as much as a short row. */
static inline gsReal gs_dualRowUpdate(gsData* d, gsDual* w, int r, gsReal R) {
  if (w->inv[r] == 0) return 0;
  gsReal A = w->diag[r] + R;
  gsReal f = d->efc_force[r];
  gsReal g = gs_dualRowGrad(w, r) + R * f;
  gsReal x = f - g * w->inv[r];
  int type = d->efc_type[r];
  if (type == GS_CNSTR_FRICTION_DOF || type == GS_CNSTR_FRICTION_TENDON) {
    gsReal fl = d->efc_frictionloss[r];
    x = x < -fl ? -fl : x > fl ? fl : x;
  } else if (type != GS_CNSTR_EQUALITY) {
    x = x < 0 ? 0 : x;
  }
  gsReal delta = x - f;
  if (delta == 0) return 0;  /* a row held at its bound: u stays */
  gs_dualApply(d, w, r, delta);
  return g * delta + 0.5 * A * delta * delta;
}

/* qacc = a0 + M^-1 J^T f, qfrc_constraint = J^T f, and the states the primal solvers would
 * report there; w: the solve's dual problem, whose dense Y gives M^-1 J^T f when it has one
 * (NULL: solved with M); rates: qacc alone where that is possible (pipeline.h's GS_PASS_RATES) */
void gs_dualFinish(const gsModel* m, gsData* d, const gsDual* w, int rates);

#endif
