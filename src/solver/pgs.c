/* PGS (MJCF's solver="PGS"): projected Gauss-Seidel sweeps over the dual problem of dual.h,
 * scalar rows by their exact minimiser clipped to their admissible set, elliptic contacts as one
 * block on their cone; from the warm start's forces when they beat zero. */
#include <math.h>
#include <string.h>

#include "constraint/constraint.h"
#include "constraint/force.h"
#include "core/arena.h"
#include "solver/dual.h"
#include "solver/solver.h"

/* the forces of qacc_warmstart when they are better than no force */
static void dual_start(const gsModel* m, gsData* d, gsDual* w) {
  int nefc = d->nefc;
  memset(d->efc_force, 0, sizeof(gsReal) * (size_t)nefc);
  if (m->opt.disableflags & GS_DSBL_WARMSTART) return;
  size_t mark = gs_arenaMark(d);
  gsReal* jar = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nefc);
  int* state = gs_arenaAlloc(d, sizeof(int) * (size_t)nefc);
  if (jar && state) {
    gs_constraintResidual(d, d->qacc_warmstart, jar);
    gs_constraintForce(m, d, jar, d->efc_force, state, NULL);
    gs_dualAccumulate(d, w, m->nv);
    /* dual cost: 1/2 f^T (A + R) f + f^T b; zero force costs 0 */
    gsReal cost = 0;
    for (int r = 0; r < nefc; r++) {
      gsReal f = d->efc_force[r];
      cost += f * (0.5 * (gs_dualRowGrad(w, r) - w->b[r]) + 0.5 * d->efc_R[r] * f + w->b[r]);
    }
    if (!(cost < 0)) {
      memset(d->efc_force, 0, sizeof(gsReal) * (size_t)nefc);
      memset(w->u, 0, sizeof(gsReal) * (size_t)m->nv);
    }
  }
  gs_arenaRelease(d, mark);
}

/* one sweep over the scalar rows 0 .. n-1 with A whole. The sweep is one chain of dependent rows:
 * row r's gradient waits on the force row r - 1 just moved. So row r + 1's product with the
 * forces is taken while row r is updated (f_r still old) and row r's move enters after, as
 * A_(r+1,r) delta_r: the new force is x = (f - inv (b + A f + R f)) - inv A_(r+1,r) delta_r
 * clipped, and the chain from one row to the next is one product, the clip and a difference,
 * not a dot product over all rows. lo, hi: each row's admissible interval; box: 1 where hi is
 * finite (friction loss). */
static inline __attribute__((always_inline)) gsReal sweep_dense_n(gsData* d, const gsDual* w,
                                                                  int n, const gsReal* lo,
                                                                  const gsReal* hi,
                                                                  const char* box, int N) {
  const gsReal *A = w->A, *R = d->efc_R;
  gsReal* f = d->efc_force;
  gsReal change = 0, moved = 0, next = gs_dotN(A, f, N);
  /* The next rows' products load the forces as pairs (f_(2k), f_(2k+1)). A pair load that
   * overlaps an 8-byte store of one force cannot take its value from the store and waits for it
   * to reach the cache, on the chain of every row; so each force is stored as its whole pair,
   * the partner taken from a register (the row before's new force, or the next row's force, not
   * moved yet), never loaded back: the same values, and the next load matches the store. */
  gsReal fr = n > 0 ? f[0] : 0, fprev = 0;
  for (int r = 0; r < n; r++) {
    const gsReal* a = A + (size_t)r * N;
    gsReal Rr = R[r], inv = w->inv[r];
    gsReal fnext = r + 1 < N ? f[r + 1] : 0;
    gsReal t = w->b[r] + next + Rr * fr, c = r > 0 ? a[r - 1] : 0;
    if (r + 1 < n) next = gs_dotN(a + N, f, N);  /* f_r not yet moved: its move comes after */
    gsReal x = fr;
    if (inv == 0) {
      moved = 0;  /* a row that cannot move */
    } else {
      x = (fr - inv * t) - (inv * c) * moved;
      gsReal g = t + c * moved;
      x = x < lo[r] ? lo[r] : x;
      if (box[r]) x = x > hi[r] ? hi[r] : x;
      moved = x - fr;
      change += g * moved + 0.5 * (a[r] + Rr) * moved * moved;
    }
#ifdef GS_PAIR
    if (r & 1) {
      gs_pair p = {fprev, x};
      memcpy(f + r - 1, &p, sizeof p);
    } else if (r + 1 < N) {
      gs_pair p = {x, fnext};
      memcpy(f + r, &p, sizeof p);
    } else {
      f[r] = x;
    }
#else
    f[r] = x;
#endif
    fprev = x;
    fr = fnext;
  }
  return change;
}

/* sweep_dense_n with A's row length known to the compiler for up to 48 rows (limits alone, and
 * a fallen humanoid's limits and contacts, 20-40 rows): each row's dot product is then straight
 * code, without the loop's count and the remainder's three tests (about half of a row's
 * instructions at nefc ~9; the Gymnasium humanoids' steps 1.04-1.06x when the cases went from
 * 16 to 48 rows, one copy of ~1 kB each); the same operations in the same order, so the same
 * forces bit for bit. (Not inlined: inlined, it changed the register use of the sweeps over Y's
 * rows beside it, 1.5 % more instructions there.) */
static __attribute__((noinline)) gsReal sweep_dense(gsData* d, const gsDual* w, int n,
                                                    const gsReal* lo, const gsReal* hi,
                                                    const char* box) {
  switch (w->nefc) {
#define GS_SWEEP_FIXED(k) \
  case k: return sweep_dense_n(d, w, n, lo, hi, box, k);
    GS_SWEEP_FIXED(1) GS_SWEEP_FIXED(2) GS_SWEEP_FIXED(3) GS_SWEEP_FIXED(4)
    GS_SWEEP_FIXED(5) GS_SWEEP_FIXED(6) GS_SWEEP_FIXED(7) GS_SWEEP_FIXED(8)
    GS_SWEEP_FIXED(9) GS_SWEEP_FIXED(10) GS_SWEEP_FIXED(11) GS_SWEEP_FIXED(12)
    GS_SWEEP_FIXED(13) GS_SWEEP_FIXED(14) GS_SWEEP_FIXED(15) GS_SWEEP_FIXED(16)
    GS_SWEEP_FIXED(17) GS_SWEEP_FIXED(18) GS_SWEEP_FIXED(19) GS_SWEEP_FIXED(20)
    GS_SWEEP_FIXED(21) GS_SWEEP_FIXED(22) GS_SWEEP_FIXED(23) GS_SWEEP_FIXED(24)
    GS_SWEEP_FIXED(25) GS_SWEEP_FIXED(26) GS_SWEEP_FIXED(27) GS_SWEEP_FIXED(28)
    GS_SWEEP_FIXED(29) GS_SWEEP_FIXED(30) GS_SWEEP_FIXED(31) GS_SWEEP_FIXED(32)
    GS_SWEEP_FIXED(33) GS_SWEEP_FIXED(34) GS_SWEEP_FIXED(35) GS_SWEEP_FIXED(36)
    GS_SWEEP_FIXED(37) GS_SWEEP_FIXED(38) GS_SWEEP_FIXED(39) GS_SWEEP_FIXED(40)
    GS_SWEEP_FIXED(41) GS_SWEEP_FIXED(42) GS_SWEEP_FIXED(43) GS_SWEEP_FIXED(44)
    GS_SWEEP_FIXED(45) GS_SWEEP_FIXED(46) GS_SWEEP_FIXED(47) GS_SWEEP_FIXED(48)
#undef GS_SWEEP_FIXED
    default: return sweep_dense_n(d, w, n, lo, hi, box, w->nefc);
  }
}

/* the same over Y's rows (u = Y f); not inlined either, for the same reason (three boxes with
 * 56 pyramidal rows: 122.9 -> 121.2 M instructions over 200 steps) */
static __attribute__((noinline)) gsReal sweep_rows(gsData* d, gsDual* w, int n) {
  gsReal change = 0;
  for (int r = 0; r < n; r++) change += gs_dualRowUpdate(d, w, r, d->efc_R[r]);
  return change;
}

int gs_solvePGS(const gsModel* m, gsData* d, const gsDual* kept, int rates) {
  size_t mark = gs_arenaMark(d);
  gsDual w;
  if (kept ? !gs_dualReuse(m, d, &w, kept) : !gs_dualSetup(m, d, &w, 1)) {
    gs_arenaRelease(d, mark);
    return -1;
  }
  /* A whole where it pays (a humanoid's contacts and limits), before the warm start, whose cost
   * then reads it too: the sweeps over its rows are the cheaper ones from the first */
  gs_dualDense(m, d, &w);
  dual_start(m, d, &w);
  gsReal scale = gs_solverScale(m);
  /* the rows before the first elliptic contact (equalities, friction loss, limits come first)
   * are scalar: their own loop, without the per-row test of the type, which mispredicts where
   * the kinds change */
  int scalar = 0;
  while (scalar < d->nefc && d->efc_type[scalar] != GS_CNSTR_CONTACT_ELLIPTIC) scalar++;
  /* the scalar rows' admissible intervals, for the dense sweep */
  gsReal* lo = gs_arenaAlloc(d, sizeof(gsReal) * 2 * (size_t)(scalar ? scalar : 1));
  char* box = gs_arenaAlloc(d, (size_t)(scalar ? scalar : 1));
  gsReal* hi = lo ? lo + scalar : NULL;
  for (int r = 0; lo && box && r < scalar; r++) {
    int type = d->efc_type[r];
    box[r] = type == GS_CNSTR_FRICTION_DOF || type == GS_CNSTR_FRICTION_TENDON;
    lo[r] = box[r] ? -d->efc_frictionloss[r] : type == GS_CNSTR_EQUALITY ? -INFINITY : 0;
    hi[r] = box[r] ? d->efc_frictionloss[r] : INFINITY;
  }
  int iter = 0;
  for (; iter < m->opt.iterations; iter++) {
    gsReal change = 0;
    if (w.A && lo && box) change += sweep_dense(d, &w, scalar, lo, hi, box);
    else change += sweep_rows(d, &w, scalar);
    for (int r = scalar; r < d->nefc;) {
      if (d->efc_type[r] == GS_CNSTR_CONTACT_ELLIPTIC) {
        int n = d->contact[d->efc_id[r]].dim;
        change += gs_dualBlockUpdate(d, &w, r, n, 0);
        r += n;
      } else {
        change += gs_dualRowUpdate(d, &w, r, d->efc_R[r]);
        r++;
      }
    }
    gsReal improvement = -scale * change;
    if (iter < GS_NSOLVER) {
      memset(d->solver + iter, 0, sizeof(gsSolverStat));
      d->solver[iter].improvement = improvement;
    }
    if (improvement < m->opt.tolerance) {
      iter++;
      break;
    }
  }
  gs_dualFinish(m, d, &w, rates);
  gs_arenaRelease(d, mark);
  return iter;
}

