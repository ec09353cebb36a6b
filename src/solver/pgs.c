/* PGS (MJCF's solver="PGS"): projected Gauss-Seidel sweeps over the dual problem of dual.h,
 * scalar rows by their exact minimiser clipped to their admissible set, elliptic contacts as one
 * block on their cone; from the warm start's forces when they beat zero. */
#include <math.h>
#include <string.h>

#include "constraint/constraint.h"
#include "constraint/force.h"
#include "solver/dual.h"
#include "solver/solver.h"

/* the forces of qacc_warmstart when they are better than no force */
static void dual_start(const gsModel* m, gsData* d, gsDual* w) {
  int nefc = d->nefc;
  memset(d->efc_force, 0, sizeof(gsReal) * (size_t)nefc);
  if (m->opt.disableflags & GS_DSBL_WARMSTART) return;
  size_t mark = gs_stackMark(d);
  gsReal* jar = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nefc);
  int* state = gs_stackAlloc(d, sizeof(int) * (size_t)nefc);
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
  gs_stackRelease(d, mark);
}

/* what the dense sweep reads of a scalar row, together: b, R, 1 / (A_rr + R) (0: the row cannot
 * move), A_(r,r-1) and its product with inv, (A_rr + R) / 2, and the admissible interval */
typedef struct {
  gsReal b, R, inv, c, cinv, half, lo, hi;
} dense_row;

/* one sweep over the scalar rows 0 .. n-1 with A whole (rows S apart, zero-padded to S, a zero
 * row after the last), its products over the first L forces of f (L = S where f is padded with
 * zeros, else nefc). The sweep is one chain of dependent
 * rows: row r's gradient waits on the force row r - 1 just moved. So row r + 1's product with
 * the forces is taken while row r is updated (f_r still old) and row r's move enters after, as
 * A_(r+1,r) delta_r: the new force is x = (f - inv (b + A f + R f)) - inv A_(r+1,r) delta_r
 * clipped, and the chain from one row to the next is one product, the clip and a difference,
 * not a dot product over all rows.
 * (Not inlined: inlined, it changed the register use of the sweeps over Y's rows beside it,
 * 1.5 % more instructions there.) */
static __attribute__((noinline)) gsReal sweep_dense(gsReal* f, const gsReal* A, int S, int L,
                                                    const dense_row* row, int n) {
  gsReal change = 0, moved = 0, next = gs_dotN(A, f, L);
  for (int r = 0; r < n; r++) {
    const dense_row* p = row + r;
    gsReal fr = f[r];
    gsReal t = p->b + next + p->R * fr;
    next = gs_dotN(A + (size_t)(r + 1) * S, f, L);  /* f_r not yet moved: its move comes after */
    if (p->inv == 0) {
      moved = 0;  /* a row that cannot move */
      continue;
    }
    gsReal x = (fr - p->inv * t) - p->cinv * moved;
    gsReal g = t + p->c * moved;
    x = x < p->lo ? p->lo : x;
    x = x > p->hi ? p->hi : x;
    moved = x - fr;
    f[r] = x;
    change += g * moved + p->half * moved * moved;
  }
  return change;
}

/* the same over Y's rows (u = Y f) */
static __attribute__((noinline)) gsReal sweep_rows(gsData* d, gsDual* w, int n) {
  gsReal change = 0;
  for (int r = 0; r < n; r++) change += gs_dualRowUpdate(d, w, r, d->efc_R[r]);
  return change;
}

int gs_solvePGS(const gsModel* m, gsData* d, const gsDual* kept) {
  size_t mark = gs_stackMark(d);
  gsDual w;
  if (kept ? !gs_dualReuse(m, d, &w, kept) : !gs_dualSetup(m, d, &w, 1)) {
    gs_stackRelease(d, mark);
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
  /* the dense sweep's rows; where every row is scalar (pyramidal cones) the forces live in a
   * copy padded with zeros during the sweeps, and the sweep's products have no remainder */
  dense_row* row = NULL;
  gsReal *fp = NULL, *f = d->efc_force;
  int L = d->nefc;
  if (w.A && scalar > 0) {
    int S = w.stride;
    row = gs_stackAlloc(d, sizeof(dense_row) * (size_t)scalar);
    if (scalar == d->nefc) fp = gs_stackAlloc(d, sizeof(gsReal) * (size_t)S);
    if (fp) {
      memcpy(fp, d->efc_force, sizeof(gsReal) * (size_t)d->nefc);
      for (int r = d->nefc; r < S; r++) fp[r] = 0;
      f = fp, L = S;
    }
    for (int r = 0; row && r < scalar; r++) {
      int type = d->efc_type[r];
      int box = type == GS_CNSTR_FRICTION_DOF || type == GS_CNSTR_FRICTION_TENDON;
      dense_row* p = row + r;
      const gsReal* a = w.A + (size_t)r * S;
      p->b = w.b[r], p->R = d->efc_R[r], p->inv = w.inv[r];
      p->c = r > 0 ? a[r - 1] : 0;
      p->cinv = p->inv * p->c;
      p->half = 0.5 * (a[r] + p->R);
      p->lo = box ? -d->efc_frictionloss[r] : type == GS_CNSTR_EQUALITY ? -INFINITY : 0;
      p->hi = box ? d->efc_frictionloss[r] : INFINITY;
    }
  }
  int iter = 0;
  for (; iter < m->opt.iterations; iter++) {
    gsReal change = 0;
    if (row) change += sweep_dense(f, w.A, w.stride, L, row, scalar);
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
  if (fp) memcpy(d->efc_force, fp, sizeof(gsReal) * (size_t)d->nefc);
  gs_dualFinish(m, d);
  gs_stackRelease(d, mark);
  return iter;
}

