/* The reduced primal problem (seed 000 eq. 13; MJCF's Newton and CG solvers): minimise over
 * accelerations a
 *     cost(a) = 1/2 (a - a0)^T M (a - a0) + sum_i s_i(J_i a - aref_i),
 * with a0 = qacc_smooth and s the soft-constraint penalty of each row or contact: quadratic for
 * equality rows, Huber for friction loss, half-quadratic for limits and pyramid edges, and for an
 * elliptic contact the squared R^-1-distance to the dual cone, which is analytic because
 * R_j mu_j^2 = R_0 mu^2. The constraint force is f = -grad s. The line search is exact: Newton's
 * method in one dimension on the piecewise-smooth cost, safeguarded by a bracket. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "constraint/constraint.h"
#include "constraint/force.h"
#include "core/arena.h"
#include "solver/hessian.h"
#include "solver/solver.h"
#include "core/math.h"
#include "core/pair.h"
#include "dynamics/dynamics.h"

/* limits and frictionless or pyramidal contact rows: a force only when violated */
static inline int one_sided(int type) {
  return type >= GS_CNSTR_LIMIT_JOINT && type <= GS_CNSTR_CONTACT_PYRAMIDAL;
}

/* v when keep is 1, +0 when it is 0, by a mask rather than a branch: which rows are violated
 * follows no pattern a branch predictor could learn, and compilers turn a plain select back
 * into a branch */
static inline gsReal keep_if(gsReal v, int keep) {
  uint64_t u;
  _Static_assert(sizeof(u) == sizeof(v), "gsReal is a double");
  memcpy(&u, &v, sizeof(u));
  u &= (uint64_t)0 - (uint64_t)keep;
  memcpy(&v, &u, sizeof(v));
  return v;
}

/* GCC and Clang: keep a rarely taken path out of the caller, so that the caller's loop keeps its
 * values in registers */
#if defined(__GNUC__)
#define GS_OUTLINE __attribute__((noinline))
#else
#define GS_OUTLINE
#endif

/* GCC: general_rows and general_line not vectorised. Vectorised, an elliptic contact's moved
 * residual (3 rows) went out in one 16-byte store and one 8-byte store, and the cone setup read
 * rows 1-2 back in one 16-byte load across both: a failed store-to-load forward, about a third
 * of general_line's time at the stacker's settled states. The same operations on each value
 * either way (the same numbers). */
#if defined(__GNUC__) && !defined(__clang__)
#define GS_SCALAR __attribute__((optimize("no-tree-vectorize")))
#else
#define GS_SCALAR
#endif

/* rows_force's other rows: an equality, friction-loss or elliptic-contact row (with its contact's
 * rows) at r, by gs_rowForce; sets *total to its cost and count as rows_force's; returns its rows */
static GS_OUTLINE GS_SCALAR int general_rows(const gsData* d, int r, gsReal* jar,
                                             const gsReal* Jp, gsReal alpha, gsReal* force,
                                             int* state, int* oldstate, gsReal* total,
                                             int count[2]) {
  int type = d->efc_type[r];
  int n = type == GS_CNSTR_CONTACT_ELLIPTIC ? d->contact[d->efc_id[r]].dim : 1;
  int old[6];
  if (Jp)
    for (int j = 0; j < n; j++) jar[r + j] += alpha * Jp[r + j], old[j] = state[r + j];
  gsReal cost = 0;
  gs_rowForce(d, r, jar, force, state, &cost);
  *total = cost;
  count[0] = count[1] = 0;
  if (Jp)
    for (int j = 0; j < n; j++) {
      count[0] += state[r + j] != old[j];
      count[1] += state[r + j] != GS_CNSTRSTATE_SATISFIED;
      oldstate[r + j] = old[j];
    }
  return n;
}

/* the same over a list of rows (an elliptic contact's rows are listed together), after moving
 * jar by alpha Jp when Jp is given; then the states before the move go to oldstate, and
 * count[0] and count[1] get the rows whose state changed and the rows not satisfied. The
 * one-sided rows, most of a contact-rich problem, take no branch on their state. */
static inline __attribute__((always_inline)) gsReal
rows_force_body(const gsData* d, const int* rows, int nrow, gsReal* jar, const gsReal* Jp,
                gsReal alpha, gsReal* force, int* state, int* oldstate, int count[2]) {
  gsReal total = 0;
  int nchange = 0, nactive = 0;
  const int* type = d->efc_type;
  const gsReal* efc_D = d->efc_D;
  for (int q = 0; q < nrow;) {
    int r = rows[q];
    if (!one_sided(type[r])) {
      /* through locals: total and the counts stay in registers */
      gsReal cost;
      int n[2];
      q += general_rows(d, r, jar, Jp, alpha, force, state, oldstate, &cost, n);
      total += cost;
      nchange += n[0];
      nactive += n[1];
      continue;
    }
    gsReal x = jar[r];
    if (Jp) jar[r] = x = x + alpha * Jp[r];
    gsReal D = efc_D[r];
    int on = x < 0;
    int s = GS_CNSTRSTATE_SATISFIED + on * (GS_CNSTRSTATE_QUADRATIC - GS_CNSTRSTATE_SATISFIED);
    force[r] = keep_if(-D * x, on);
    total += keep_if(0.5 * D * x * x, on);
    if (Jp) {
      int was = state[r];
      nchange += s != was;
      nactive += on;
      oldstate[r] = was;
    }
    state[r] = s;
    q++;
  }
  if (count) count[0] = nchange, count[1] = nactive;
  return total;
}

/* rows_force_body in two copies, at jar and after a move along Jp: the tests on Jp, made per row,
 * are decided once */
static GS_OUTLINE gsReal rows_force_at(const gsData* d, const int* rows, int nrow, gsReal* jar,
                                       gsReal* force, int* state) {
  return rows_force_body(d, rows, nrow, jar, NULL, 0, force, state, NULL, NULL);
}

static GS_OUTLINE gsReal rows_force_moved(const gsData* d, const int* rows, int nrow, gsReal* jar,
                                          const gsReal* Jp, gsReal alpha, gsReal* force,
                                          int* state, int* oldstate, int count[2]) {
  return rows_force_body(d, rows, nrow, jar, Jp, alpha, force, state, oldstate, count);
}

/* adds the slope and curvature of an elliptic contact's penalty on the cone (zone 2, set up in k)
 * along its rows' Jp */
static void cone_line(const gsConeResidual* k, int n, const gsReal* Jp, gsReal* s1, gsReal* s2) {
  gsReal a = k->D0 / (1 + k->mu * k->mu), gap = k->N - k->mu * k->T;
  gsReal dT = 0, du2 = 0;
  for (int j = 1; j < n; j++) {
    gsReal du = k->s[j - 1] * Jp[j];
    dT += k->u[j - 1] * du;
    du2 += du * du;
  }
  dT /= k->T;
  gsReal dgap = Jp[0] - k->mu * dT, d2T = (du2 - dT * dT) / k->T;
  *s1 += a * gap * dgap;
  *s2 += a * dgap * dgap - a * gap * k->mu * d2T;
}

/* penalty_line's other rows: an elliptic contact's (all its rows), a friction-loss or an equality
 * row at r; adds their slope and curvature to *d1 and *d2 (in the order of a loop over rows);
 * returns its rows */
static GS_OUTLINE GS_SCALAR int general_line(const gsData* d, int r, const gsReal* jar,
                                             const gsReal* Jp, gsReal alpha, gsReal* d1,
                                             gsReal* d2) {
  int type = d->efc_type[r];
  gsReal s1 = *d1, s2 = *d2;
  gsReal D = d->efc_D[r], x = jar[r] + alpha * Jp[r], v = Jp[r];
  int n = 1;
  if (type == GS_CNSTR_CONTACT_ELLIPTIC) {
    const gsContact* c = d->contact + d->efc_id[r];
    n = c->dim;
    gsReal xb[6] = {0};
    for (int j = 0; j < n; j++) xb[j] = jar[r + j] + alpha * Jp[r + j];
    gsConeResidual k;
    gs_coneSetup(&k, d, c, r, xb);
    int zone = gs_coneZone(&k);
    if (zone == 1) {
      for (int j = 0; j < n; j++) {
        gsReal Dj = d->efc_D[r + j];
        s1 += Dj * xb[j] * Jp[r + j];
        s2 += Dj * Jp[r + j] * Jp[r + j];
      }
    } else if (zone == 2) {
      gsReal c1 = 0, c2 = 0;
      cone_line(&k, n, Jp + r, &c1, &c2);
      s1 += c1, s2 += c2;
    }
  } else if (type == GS_CNSTR_FRICTION_DOF || type == GS_CNSTR_FRICTION_TENDON) {
    gsReal fl = d->efc_frictionloss[r], R = d->efc_R[r];
    if (x <= -R * fl) {
      s1 -= fl * v;
    } else if (x >= R * fl) {
      s1 += fl * v;
    } else {
      s1 += D * x * v, s2 += D * v * v;
    }
  } else {
    s1 += D * x * v, s2 += D * v * v;  /* equality */
  }
  *d1 = s1;
  *d2 = s2;
  return n;
}

/* slope and curvature of the constraint penalty along jar + alpha Jp */
static void penalty_line(const gsData* d, const int* rows, int nrow, const gsReal* jar,
                         const gsReal* Jp, gsReal alpha, gsReal* d1, gsReal* d2) {
  gsReal s1 = 0, s2 = 0;
  const int* type = d->efc_type;
  const gsReal* efc_D = d->efc_D;
  for (int q = 0; q < nrow;) {
    int r = rows[q];
    if (!one_sided(type[r])) {
      /* through copies, so that s1 and s2 stay in registers */
      gsReal c1 = s1, c2 = s2;
      q += general_line(d, r, jar, Jp, alpha, &c1, &c2);
      s1 = c1, s2 = c2;
      continue;
    }
    gsReal D = efc_D[r], x = jar[r] + alpha * Jp[r], v = Jp[r];
    int on = x < 0;
    s1 += keep_if(D * x * v, on);
    s2 += keep_if(D * v * v, on);
    q++;
  }
  *d1 = s1;
  *d2 = s2;
}

/* ---- the Hessian ---- */

/* Rows of the part that are consecutive, share their columns and are stored one after the other
 * (a contact's rows, a connect's or a weld's): the products gather and scatter the columns once
 * per block, and each row's sums keep the order of a row-by-row loop. */
typedef struct {
  int r, n;      /* first row and how many */
  int adr, nnz;  /* values at efc_J + adr, nnz a row; columns at efc_J_colind + adr */
  int path;      /* 1 when the columns lie on one path up a tree */
} gsRowBlock;

typedef struct {
  gsReal *a, *Ma, *grad, *Mgrad, *p, *Mp, *jar, *Jp, *force, *tmp;
  gsReal* qfrc;  /* J^T force on the part's dofs at a: qfrc_constraint when the solve ends */
  int* state;
  int* oldstate;
  const int *rows, *dofs;  /* the part being solved: an island, or everything */
  int dof0;                /* dofs[0] when the part's dofs are consecutive (a whole model, an
                            * island of one tree), else -1: see PART_DOF */
  const int *tail, *head;  /* by dof: dof_freetail and free_heads */
  const int* headM;        /* head for M and its factor, where diagonal dofs have none (and no
                            * tail: a diagonal dof is one of its free joint's own six) */
  int nrow, ndof;
  gsRowBlock* blocks;  /* its rows in blocks */
  int nblock;
  gsReal* tmprow;  /* nv of scratch: a scaled row */
  gsReal* Dq;      /* nefc of scratch: D J p on the quadratic rows */
  int exact;       /* 1 when p = -H^-1 grad, H = M + sum D J^T J over the quadratic rows */
} gsPrimal;

/* the part's k-th dof. Parts are mostly consecutive dofs (a humanoid, an ant): their loops then
 * index the vectors directly, without the list's load a value, and the compiler takes each loop
 * apart on the test (loop unswitching: one copy per case), which leaves the elementwise ones
 * two values at a time. The same values in the same order either way. */
#define PART_DOF(d0, dofs, k) ((d0) >= 0 ? (d0) + (k) : (dofs)[k])

/* dst = src on the part's dofs */
static void copy_part(int d0, const int* dofs, int n, gsReal* dst, const gsReal* src) {
  if (d0 >= 0) {
    memcpy(dst + d0, src + d0, sizeof(gsReal) * (size_t)n);
    return;
  }
  for (int k = 0; k < n; k++) dst[dofs[k]] = src[dofs[k]];
}

/* dofs[0] when the n dofs are consecutive, else -1 */
static int consecutive_dofs(const int* dofs, int n) {
  for (int k = 1; k < n; k++)
    if (dofs[k] != dofs[0] + k) return -1;
  return n > 0 ? dofs[0] : -1;
}

/* the curvature of an elliptic contact's penalty on the cone (rows r ..), in its rows'
 * coordinates, n x n: a g g^T + a (-mu gap / T) S (I - e e^T) S */
static void cone_block(const gsData* d, int r, const gsReal* jar, gsReal* b) {
  const gsContact* c = d->contact + d->efc_id[r];
  int n = c->dim;
  gsConeResidual k;
  gs_coneSetup(&k, d, c, r, jar + r);
  gsReal a = k.D0 / (1 + k.mu * k.mu), gap = k.N - k.mu * k.T, t = -k.mu * gap / k.T;
  gsReal g[6];
  g[0] = 1;
  for (int j = 1; j < n; j++) g[j] = -k.mu * k.s[j - 1] * k.u[j - 1] / k.T;
  for (int p = 0; p < n; p++)
    for (int q = 0; q < n; q++) {
      gsReal v = a * g[p] * g[q];
      if (p > 0 && q > 0) {
        gsReal e = (p == q) - k.u[p - 1] * k.u[q - 1] / (k.T * k.T);
        v += a * t * k.s[p - 1] * k.s[q - 1] * e;
      }
      b[p * n + q] = v;
    }
}

/* the most rows off paths that the tree factor takes as a low-rank correction */
#define GS_NCROSS 8

/* When every row's columns form one path up a tree, each column the parent of the next (a
 * contact with the world or between a body and its ancestor, a limit, a dof's friction), each
 * J^T (d2 s) J term couples only dofs of which one is an ancestor of the other, so H keeps M's
 * pattern, and its L^T D L factor from the leaves (as M's) fills in nothing: no block structure,
 * no dense factor, and a refactor costs about as much as M's. The values are stored as qM's. */
typedef struct {
  gsReal* val;        /* T while assembling, its L^T D L factor after tree_factor */
  gsReal* diaginv;    /* 1/D, by dof */
  gsReal* w;          /* nv of scratch for the updates, 0 between them */
  double factorcost;  /* multiply-adds of assembling and factoring, estimated */
  /* H = T + U U^T, U's columns sqrt(D_r) J_r^T for the quadratic rows off paths (nq <= GS_NCROSS):
   * Z = T^-1 U (nv a column) and the Cholesky factor of C = I + U^T Z */
  const int *tail, *head;  /* the solve's dof_freetail and free_heads */
  int nq;
  int qrow[GS_NCROSS];
  gsReal* Z;
  gsReal C[GS_NCROSS * GS_NCROSS];
} gsTreeHessian;

/* marks the blocks whose columns lie on one path up a tree (a block's rows share their columns);
 * returns the rows of the other blocks (rows that join two branches of a tree), or GS_NCROSS + 1
 * when one of them is an elliptic contact's (its cone block is not a sum of its rows' terms) */
static int path_blocks(const gsModel* m, const gsData* d, gsRowBlock* blocks, int nblock) {
  int ncross = 0;
  for (int b = 0; b < nblock; b++) {
    int nnz = blocks[b].nnz, path = 1;
    const int* c = d->efc_J_colind + blocks[b].adr;
    for (int k = 1; k < nnz && path; k++) path = m->dof_parentid[c[k]] == c[k - 1];
    blocks[b].path = path;
    if (path) continue;
    if (d->efc_type[blocks[b].r] == GS_CNSTR_CONTACT_ELLIPTIC) return GS_NCROSS + 1;
    ncross += blocks[b].n;
  }
  return ncross;
}

/* 1 when row r's columns lie on one path up a tree */
static int row_on_path(const gsModel* m, const gsData* d, int r) {
  int nnz = d->efc_J_rownnz[r];
  const int* c = d->efc_J_colind + d->efc_J_rowadr[r];
  for (int k = 1; k < nnz; k++)
    if (m->dof_parentid[c[k]] != c[k - 1]) return 0;
  return 1;
}

/* H += s x y^T (lower part) for a row on a path: column cols[a - t] is the t-th ancestor of
 * cols[a], so row cols[a]'s entries from its diagonal up are consecutive in the storage */
static void tree_add_outer(const gsModel* m, gsTreeHessian* th, const int* cols, int nnz,
                           const gsReal* x, const gsReal* y, gsReal s) {
  for (int a = 0; a < nnz; a++) {
    gsReal sx = s * x[a];
    if (sx == 0) continue;
    gsReal* H = th->val + m->dof_Madr[cols[a]];
    for (int t = 0; t <= a; t++) H[t] += sx * y[a - t];
  }
}

/* H += sum_j s_j v_j v_j^T for n <= 4 rows on the same path (a contact's pyramid edges): each
 * entry loaded and stored once; n is a constant at each call, so that the terms stay in
 * registers */
static inline void tree_add_rows(const gsModel* m, gsTreeHessian* th, const int* cols, int nnz,
                                 const gsReal* const* v, const gsReal* s, int n) {
  for (int a = 0; a < nnz; a++) {
    gsReal sx[4];
    for (int j = 0; j < n; j++) sx[j] = s[j] * v[j][a];
    gsReal* H = th->val + m->dof_Madr[cols[a]];
    int t = 0;
#ifdef GS_PAIR
    /* two entries at a time (each the same sum in the same order): H's row runs forwards, the
     * rows' values backwards */
    gs_pair sp[4];
    for (int j = 0; j < n; j++) sp[j] = (gs_pair){sx[j], sx[j]};
    for (; t + 1 <= a; t += 2) {
      gs_pair h = gs_pairLoad(H + t);
      for (int j = 0; j < n; j++) h += sp[j] * (gs_pair){v[j][a - t], v[j][a - t - 1]};
      memcpy(H + t, &h, sizeof h);
    }
#endif
    for (; t <= a; t++) {
      gsReal h = H[t];
      for (int j = 0; j < n; j++) h += sx[j] * v[j][a - t];
      H[t] = h;
    }
  }
}

static void tree_add_group(const gsModel* m, gsTreeHessian* th, const int* cols, int nnz,
                           const gsReal* const* v, const gsReal* s, int n) {
  switch (n) {
    case 1: tree_add_rows(m, th, cols, nnz, v, s, 1); break;
    case 2: tree_add_rows(m, th, cols, nnz, v, s, 2); break;
    case 3: tree_add_rows(m, th, cols, nnz, v, s, 3); break;
    case 4: tree_add_rows(m, th, cols, nnz, v, s, 4); break;
    default: break;
  }
}

/* L^T D L of H on the listed dofs (whole trees), stored as M's (the diagonal, then the
 * ancestors nearest first): M's own elimination; 0 when a pivot is not positive */
static int tree_factor(const gsModel* m, const int* dofs, int ndof, gsTreeHessian* th) {
  return gs_factorLTDLDofs(m, th->val, th->diaginv, dofs, ndof) < 0;
}

/* the factor of H + alpha v v^T for a row on a path (v on cols): H = sum_k D_k l_k l_k^T with
 * l_k = e_k + sum_a L_ka e_a over k's ancestors, so taking w = v, for each k up the path from the
 * deepest column (the only dofs w reaches), p = w_k:
 *   D_k' = D_k + alpha p^2, w_a -= p L_ka, L_ka += (alpha p / D_k') w_a, alpha *= D_k / D_k'.
 * 0 when a downdate cancels most of a pivot (the factor is then invalid: refactor). */
static int tree_update(const gsModel* m, gsTreeHessian* th, const int* cols, int nnz,
                       const gsReal* v, gsReal alpha) {
  gsReal* w = th->w;
  for (int k = 0; k < nnz; k++) w[cols[k]] = v[k];
  int k = nnz ? cols[nnz - 1] : -1;
  for (; k >= 0; k = m->dof_parentid[k]) {
    gsReal p = w[k];
    w[k] = 0;
    if (p == 0) continue;
    gsReal* Hk = th->val + m->dof_Madr[k];
    gsReal Dk = Hk[0], Dn = Dk + alpha * p * p;
    if (!(Dn > 1e-10 * Dk) || !(Dn > GS_MINVAL)) break;
    gsReal beta = alpha * p / Dn;
    alpha *= Dk / Dn;
    /* k's ancestors from M_dofid (loads that do not wait on each other, as a walk up
     * dof_parentid would), a free joint's six with known offsets */
    const int* anc = m->M_dofid + m->dof_Madr[k] + 1;
    int n = th->head[k], r = th->tail[k];
    for (int t = 0; t < n; t++) {
      int a = anc[t];
      w[a] -= p * Hk[1 + t];
      Hk[1 + t] += beta * w[a];
    }
    if (r >= 0) {
      gsReal* T = Hk + 1 + n;
#pragma GCC unroll 6
      for (int u = 0; u < 6; u++) {
        w[r + 5 - u] -= p * T[u];
        T[u] += beta * w[r + 5 - u];
      }
    }
    Hk[0] = Dn;
    th->diaginv[k] = 1 / Dn;
  }
  if (k < 0) return 1;
  for (; k >= 0; k = m->dof_parentid[k]) w[k] = 0;
  return 0;
}

/* multiply-adds of tree_update on a row whose deepest column is dof k: each dof up the path
 * updates its row of ancestors, twice */
static double tree_update_cost(const gsModel* m, int k) {
  double len = 0;
  for (; k >= 0; k = m->dof_parentid[k]) len++;
  return len * (len + 1);
}

static void solve_LTDL_dofs(const gsModel* m, const int* tail, const int* head, int d0,
                            const int* dofs, int ndof, const gsReal* LD, const gsReal* diaginv,
                            gsReal* x);

/* x = H^-1 x on the dofs with T's factor and the correction (Woodbury's identity):
 * H^-1 = T^-1 - Z C^-1 Z^T, Z^T x = U^T T^-1 x */
static void tree_solve(const gsModel* m, const gsData* d, const gsPrimal* w,
                       const gsTreeHessian* th, gsReal* x) {
  const int* dofs = w->dofs;
  int ndof = w->ndof, nq = th->nq, nv = m->nv, d0 = w->dof0;
  solve_LTDL_dofs(m, w->tail, w->head, d0, dofs, ndof, th->val, th->diaginv, x);
  if (!nq) return;
  gsReal c[GS_NCROSS];
  for (int j = 0; j < nq; j++) {
    int r = th->qrow[j], nnz = d->efc_J_rownnz[r];
    const int* col = d->efc_J_colind + d->efc_J_rowadr[r];
    const gsReal* J = d->efc_J + d->efc_J_rowadr[r];
    gsReal s = 0;
    for (int k = 0; k < nnz; k++) s += J[k] * x[col[k]];
    c[j] = sqrt(d->efc_D[r]) * s;
  }
  /* C c = U^T T^-1 x by C's Cholesky factor (lower, row-major) */
  for (int i = 0; i < nq; i++) {
    for (int j = 0; j < i; j++) c[i] -= th->C[i * GS_NCROSS + j] * c[j];
    c[i] /= th->C[i * GS_NCROSS + i];
  }
  for (int i = nq - 1; i >= 0; i--) {
    for (int j = i + 1; j < nq; j++) c[i] -= th->C[j * GS_NCROSS + i] * c[j];
    c[i] /= th->C[i * GS_NCROSS + i];
  }
  for (int j = 0; j < nq; j++) {
    const gsReal* z = th->Z + (size_t)j * nv;
    for (int k = 0; k < ndof; k++) {
      int i = PART_DOF(d0, dofs, k);
      x[i] -= c[j] * z[i];
    }
  }
}

/* Z and C for the quadratic rows off paths at the current states, after T's factor; nq <=
 * GS_NCROSS rows (path_blocks counted them) */
static void tree_correction(const gsModel* m, const gsData* d, const gsPrimal* w,
                            gsTreeHessian* th) {
  int nq = 0, nv = m->nv;
  for (int b = 0; b < w->nblock; b++) {
    if (w->blocks[b].path) continue;
    for (int r = w->blocks[b].r; r < w->blocks[b].r + w->blocks[b].n; r++)
      if (w->state[r] == GS_CNSTRSTATE_QUADRATIC) th->qrow[nq++] = r;
  }
  th->nq = nq;
  for (int j = 0; j < nq; j++) {
    int r = th->qrow[j], nnz = d->efc_J_rownnz[r];
    const int* col = d->efc_J_colind + d->efc_J_rowadr[r];
    const gsReal* J = d->efc_J + d->efc_J_rowadr[r];
    gsReal* z = th->Z + (size_t)j * nv, sd = sqrt(d->efc_D[r]);
    for (int k = 0; k < w->ndof; k++) z[PART_DOF(w->dof0, w->dofs, k)] = 0;
    for (int k = 0; k < nnz; k++) z[col[k]] = sd * J[k];
    solve_LTDL_dofs(m, w->tail, w->head, w->dof0, w->dofs, w->ndof, th->val, th->diaginv, z);
  }
  /* C = I + U^T Z, then its Cholesky factor (C >= I: never singular) */
  for (int i = 0; i < nq; i++) {
    int r = th->qrow[i], nnz = d->efc_J_rownnz[r];
    const int* col = d->efc_J_colind + d->efc_J_rowadr[r];
    const gsReal* J = d->efc_J + d->efc_J_rowadr[r];
    gsReal sd = sqrt(d->efc_D[r]);
    for (int j = 0; j <= i; j++) {
      const gsReal* z = th->Z + (size_t)j * nv;
      gsReal s = 0;
      for (int k = 0; k < nnz; k++) s += J[k] * z[col[k]];
      th->C[i * GS_NCROSS + j] = (i == j) + sd * s;
    }
  }
  for (int j = 0; j < nq; j++) {
    gsReal* Cj = th->C + j * GS_NCROSS;
    for (int k = 0; k < j; k++) Cj[j] -= Cj[k] * Cj[k];
    Cj[j] = sqrt(Cj[j]);
    for (int i = j + 1; i < nq; i++) {
      gsReal* Ci = th->C + i * GS_NCROSS;
      for (int k = 0; k < j; k++) Ci[j] -= Ci[k] * Cj[k];
      Ci[j] /= Cj[j];
    }
  }
}

/* H = M + sum J^T (d2 s) J over the rows with curvature, at the current states, by blocks of rows
 * that share their columns, into th's storage when th is given (rows on paths), else h's; returns
 * the rows assembled */
static int hessian(const gsModel* m, const gsData* d, const gsPrimal* w, gsTreeHessian* th,
                   gsHessian* h) {
  const gsRowBlock* blocks = w->blocks;
  int nblock = w->nblock;
  const gsReal* jar = w->jar;
  const int* state = w->state;
  int nrow = 0;
  if (th) {
    /* M's rows of the dofs, stored back to back in dof order: one copy per run of consecutive
     * dofs (a whole part when it is everything) */
    for (int q = 0; q < w->ndof;) {
      int i0 = w->dofs[q], n = 1;
      while (q + n < w->ndof && w->dofs[q + n] == i0 + n) n++;
      int a0 = m->dof_Madr[i0], a1 = m->dof_Madr[i0 + n - 1] + gs_rowLen(m, i0 + n - 1);
      memcpy(th->val + a0, d->qM + a0, sizeof(gsReal) * (size_t)(a1 - a0));
      q += n;
    }
    for (int bk = 0; bk < nblock; bk++) {
      /* rows off paths: the low-rank correction (tree_correction) */
      if (!blocks[bk].path) continue;
      const int* col = d->efc_J_colind + blocks[bk].adr;
      int nnz = blocks[bk].nnz, r1 = blocks[bk].r + blocks[bk].n;
      if (blocks[bk].n == 1 && nnz == 1 && d->efc_type[blocks[bk].r] != GS_CNSTR_CONTACT_ELLIPTIC) {
        /* a dof's own row (a limit, a friction loss): tree_add_rows' one term on the diagonal */
        int r = blocks[bk].r;
        if (state[r] == GS_CNSTRSTATE_QUADRATIC) {
          gsReal v = d->efc_J[d->efc_J_rowadr[r]];
          th->val[m->dof_Madr[col[0]]] += d->efc_D[r] * v * v;
          nrow++;
        }
        continue;
      }
      const gsReal* v[4];
      gsReal s[4];
      int ngroup = 0;
      for (int r = blocks[bk].r; r < r1;) {
        if (d->efc_type[r] == GS_CNSTR_CONTACT_ELLIPTIC && state[r] == GS_CNSTRSTATE_CONE) {
          if (ngroup) tree_add_group(m, th, col, nnz, v, s, ngroup), ngroup = 0;
          int n = d->contact[d->efc_id[r]].dim;
          gsReal b[36];
          cone_block(d, r, jar, b);
          for (int p = 0; p < n; p++)
            for (int q = 0; q < n; q++)
              if (b[p * n + q] != 0)
                tree_add_outer(m, th, col, nnz, d->efc_J + d->efc_J_rowadr[r + p],
                               d->efc_J + d->efc_J_rowadr[r + q], b[p * n + q]);
          nrow += n;
          r += n;
          continue;
        }
        if (state[r] == GS_CNSTRSTATE_QUADRATIC) {
          v[ngroup] = d->efc_J + d->efc_J_rowadr[r];
          s[ngroup++] = d->efc_D[r];
          if (ngroup == 4) tree_add_group(m, th, col, nnz, v, s, ngroup), ngroup = 0;
          nrow++;
        }
        r++;
      }
      if (ngroup) tree_add_group(m, th, col, nnz, v, s, ngroup);
    }
    return nrow;
  }
  gs_hessianSetM(m, d, h);
  for (int bk = 0; bk < nblock; bk++) {
    const int* col = d->efc_J_colind + blocks[bk].adr;
    int nnz = blocks[bk].nnz, r1 = blocks[bk].r + blocks[bk].n;
    /* quadratic rows gather up to four at a time; the terms of each entry keep the rows' order */
    const gsReal* v[4];
    gsReal s[4];
    int ngroup = 0;
    for (int r = blocks[bk].r; r < r1;) {
      if (d->efc_type[r] == GS_CNSTR_CONTACT_ELLIPTIC && state[r] == GS_CNSTRSTATE_CONE) {
        if (ngroup) gs_hessianAddOuterRows(h, col, nnz, v, s, ngroup), ngroup = 0;
        int n = d->contact[d->efc_id[r]].dim;
        gsReal b[36];
        cone_block(d, r, jar, b);
        /* all rows of a contact share their columns */
        for (int p = 0; p < n; p++)
          for (int q = 0; q < n; q++)
            if (b[p * n + q] != 0)
              gs_hessianAddOuter(h, col, nnz, d->efc_J + d->efc_J_rowadr[r + p],
                                 d->efc_J + d->efc_J_rowadr[r + q], b[p * n + q]);
        nrow += n;
        r += n;
        continue;
      }
      if (state[r] == GS_CNSTRSTATE_QUADRATIC) {
        v[ngroup] = d->efc_J + d->efc_J_rowadr[r];
        s[ngroup++] = d->efc_D[r];
        if (ngroup == 4) gs_hessianAddOuterRows(h, col, nnz, v, s, ngroup), ngroup = 0;
        nrow++;
      }
      r++;
    }
    if (ngroup) gs_hessianAddOuterRows(h, col, nnz, v, s, ngroup);
  }
  return nrow;
}

/* the factor for the new states, in M's tree pattern when th is given, else by blocks: rank-1
 * updates with the rows that entered or left the quadratic state when they cost less than a
 * refactor, else (or when a downdate fails) a refactor. Returns the updates or rows assembled, -1
 * when H is not positive definite; *updated tells whether the factor holds rank-1 updates made
 * since its last refactor. */
static int refresh_factor(const gsModel* m, const gsData* d, const gsPrimal* w, int factored,
                          gsTreeHessian* th, gsHessian* h, int* updated) {
  const int *rows = w->rows, *state = w->state, *oldstate = w->oldstate;
  int nrow = w->nrow;
  int refactor = !factored;
  double cost = 0;
  for (int q = 0; q < nrow && !refactor; q++) {
    int r = rows[q];
    /* rows off paths are not in T (tree_correction takes them) */
    if (th && (state[r] != oldstate[r]) && !row_on_path(m, d, r)) continue;
    /* a cone block depends on the point, not only on the state */
    if (state[r] == GS_CNSTRSTATE_CONE || oldstate[r] == GS_CNSTRSTATE_CONE) {
      refactor = 1;
    } else if ((state[r] == GS_CNSTRSTATE_QUADRATIC) != (oldstate[r] == GS_CNSTRSTATE_QUADRATIC)) {
      const int* cols = d->efc_J_colind + d->efc_J_rowadr[r];
      int nnz = d->efc_J_rownnz[r];
      if (th) {
        cost += nnz ? tree_update_cost(m, cols[nnz - 1]) : 0;
        refactor = cost > th->factorcost;
      } else {
        cost += gs_hessianUpdateCost(h, cols, nnz);
        refactor = cost > h->factorcost;
      }
    }
  }
  if (!refactor) {
    /* updates before downdates, so that H stays as far from singular as it can */
    int nupdate = 0;
    for (int pass = 0; pass < 2 && !refactor; pass++)
      for (int q = 0; q < nrow; q++) {
        int r = rows[q];
        int now = state[r] == GS_CNSTRSTATE_QUADRATIC, before = oldstate[r] == GS_CNSTRSTATE_QUADRATIC;
        if (now == before || now != (pass == 0)) continue;
        if (th && !row_on_path(m, d, r)) continue;
        /* sqrt(D) J_r, scaled in the update's sign */
        int nnz = d->efc_J_rownnz[r];
        const int* cols = d->efc_J_colind + d->efc_J_rowadr[r];
        gsReal sd = sqrt(d->efc_D[r]), *v = w->tmprow;
        const gsReal* J = d->efc_J + d->efc_J_rowadr[r];
        for (int k = 0; k < nnz; k++) v[k] = sd * J[k];
        int ok = th ? tree_update(m, th, cols, nnz, v, now ? 1 : -1)
                    : gs_hessianUpdate(h, cols, nnz, v, now ? 1 : -1);
        if (!ok) {
          refactor = 1;
          break;
        }
        nupdate++;
      }
    if (!refactor) {
      if (th) tree_correction(m, d, w, th);
      *updated |= nupdate > 0;
      return nupdate;
    }
  }
  *updated = 0;
  if (th) {
    int nassembled = hessian(m, d, w, th, NULL);
    if (!tree_factor(m, w->dofs, w->ndof, th)) return -1;
    tree_correction(m, d, w, th);
    return nassembled + th->nq;
  }
  int nassembled = hessian(m, d, w, NULL, h);
  return gs_hessianFactor(h) ? nassembled : -1;
}

/* ---- products on a part of the problem: listed dofs (whole trees) and rows ---- */

/* tail[i] (the model's dof_freetail): for dof i below a free joint, the joint's first dof r, else
 * -1. Row i of M's storage (and of the factors in its pattern) then ends with the entries of
 * r + 5, r + 4, ..., r: most rows of a floating robot do, and the loops take those six with
 * offsets known to the compiler rather than through M_dofid, the same additions in the same
 * order. head[i]: the off-diagonal entries of row i left to the loops through M_dofid (all of
 * them, or all but tail's six). headM: the same for M and its factor, where a diagonal dof's row
 * (dof_diagonal) holds zeros off the diagonal, which the products and solves leave out (the
 * Hessian's rows are not zero there: it keeps head); a diagonal dof, one of its free joint's
 * own six, has no tail. */
static void free_heads(const gsModel* m, int* head, int* headM) {
  for (int i = 0; i < m->nv; i++) {
    head[i] = gs_rowLen(m, i) - 1 - (m->dof_freetail[i] >= 0 ? 6 : 0);
    headM[i] = m->dof_diagonal[i] ? 0 : head[i];
  }
}

/* res = M vec on the dofs; M couples a dof with its ancestors only, which are listed too */
static inline __attribute__((always_inline)) void
mul_M_part(const gsModel* m, const gsData* d, const int* tail, const int* head, int d0,
           const int* dofs, int ndof, gsReal* res, const gsReal* vec) {
  for (int q = 0; q < ndof; q++) {
    int i = PART_DOF(d0, dofs, q);
    res[i] = d->qM[m->dof_Madr[i]] * vec[i];
  }
  for (int q = 0; q < ndof; q++) {
    int i = PART_DOF(d0, dofs, q), adr = m->dof_Madr[i], n = head[i], r = tail[i];
    const int* anc = m->M_dofid + adr + 1;
    const gsReal* Mi = d->qM + adr + 1;
    /* res[i] gets nothing from its ancestors' turns, which come later */
    gsReal ri = res[i], vi = vec[i];
    for (int t = 0; t < n; t++) {
      ri += Mi[t] * vec[anc[t]];
      res[anc[t]] += Mi[t] * vi;
    }
    if (r >= 0) {
      const gsReal* T = Mi + n;
#pragma GCC unroll 6
      for (int u = 0; u < 6; u++) ri += T[u] * vec[r + 5 - u];
      gs_addScaledRev6(res + r, T, vi);  /* the free joint's dofs: never i, and res is not vec */
    }
    res[i] = ri;
  }
}

/* consecutive dofs and listed ones each their own copy of mul_M_part (in the first the
 * compiler knows d0 >= 0, in the second d0 = -1) */
static void mul_M_dofs(const gsModel* m, const gsData* d, const int* tail, const int* head,
                       int d0, const int* dofs, int ndof, gsReal* res, const gsReal* vec) {
  if (d0 >= 0)
    mul_M_part(m, d, tail, head, d0, dofs, ndof, res, vec);
  else
    mul_M_part(m, d, tail, head, -1, dofs, ndof, res, vec);
}

/* x = H^-1 x on the dofs, with an LTDL factor in M's pattern (as gs_solveLTDL, on the listed
 * trees): M's, or the Hessian's on paths; tail as in mul_M_dofs */
static inline __attribute__((always_inline)) void
solve_LTDL_part(const gsModel* m, const int* tail, const int* head, int d0, const int* dofs,
                int ndof, const gsReal* LD, const gsReal* diaginv, gsReal* x) {
  for (int q = ndof - 1; q >= 0; q--) {
    int i = PART_DOF(d0, dofs, q), adr = m->dof_Madr[i], n = head[i], r = tail[i];
    gsReal xk = x[i];
    const int* anc = m->M_dofid + adr + 1;
    const gsReal* L = LD + adr + 1;
    if (n > 0 && q > 0 && PART_DOF(d0, dofs, q - 1) == i - 1 && m->dof_parentid[i] == i - 1 && tail[i - 1] == r) {
      /* i's parent i - 1 in the same pass (its row is i's from the second entry on): each
       * ancestor's value loses i's part, then i - 1's, as in two turns */
      x[i - 1] -= L[0] * xk;
      gsReal xp = x[i - 1];
      const gsReal* Lp = LD + m->dof_Madr[i - 1];  /* Lp[t], t > 0: i - 1's entry of anc[t] */
      for (int t = 1; t < n; t++) x[anc[t]] = (x[anc[t]] - L[t] * xk) - Lp[t] * xp;
      if (r >= 0) gs_subScaled2Rev6(x + r, L + n, xk, Lp + n, xp);
      q--;
      continue;
    }
    for (int t = 0; t < n; t++) x[anc[t]] -= L[t] * xk;
    if (r >= 0) gs_subScaledRev6(x + r, L + n, xk);  /* LD is not x */
  }
  /* D^-1 then L x = z, each value scaled at its turn (its ancestors' are final) */
  for (int q = 0; q < ndof; q++) {
    int i = PART_DOF(d0, dofs, q), adr = m->dof_Madr[i], n = head[i], r = tail[i];
    const int* anc = m->M_dofid + adr + 1;
    const gsReal* L = LD + adr + 1;
    gsReal xi = x[i] * diaginv[i], s = 0;
    for (int t = 0; t < n; t++) s += L[t] * x[anc[t]];
    if (r >= 0) {
#pragma GCC unroll 6
      for (int u = 0; u < 6; u++) s += L[n + u] * x[r + 5 - u];
    }
    x[i] = xi - s;
  }
}

/* consecutive dofs and listed ones each their own copy, as mul_M_dofs */
static void solve_LTDL_dofs(const gsModel* m, const int* tail, const int* head, int d0,
                            const int* dofs, int ndof, const gsReal* LD, const gsReal* diaginv,
                            gsReal* x) {
  if (d0 >= 0)
    solve_LTDL_part(m, tail, head, d0, dofs, ndof, LD, diaginv, x);
  else
    solve_LTDL_part(m, tail, head, -1, dofs, ndof, LD, diaginv, x);
}

/* the blocks of the listed rows; returns how many (at most nrow) */
static int row_blocks(const gsData* d, const int* rows, int nrow, gsRowBlock* blocks) {
  int nblock = 0;
  for (int q = 0; q < nrow;) {
    int r = rows[q], adr = d->efc_J_rowadr[r], nnz = d->efc_J_rownnz[r], n = 1;
    const int* col = d->efc_J_colind + adr;
    while (q + n < nrow && rows[q + n] == r + n &&
           d->efc_J_rownnz[r + n] == nnz && d->efc_J_rowadr[r + n] == adr + n * nnz &&
           (nnz == 0 || col[0] == col[n * nnz]) &&  /* most rows differ at once: no call */
           memcmp(col, col + n * nnz, sizeof(int) * (size_t)nnz) == 0)
      n++;
    blocks[nblock++] = (gsRowBlock){r, n, adr, nnz, 0};
    q += n;
  }
  return nblock;
}

/* y = J x on n <= 4 rows of a block; called with n a constant, so that the compiler keeps the
 * sums in registers */
static inline void mul_J_block(const int* c, const gsReal* v, int n, int nnz, gsReal* y,
                              const gsReal* x) {
  gsReal s[4] = {0};
  for (int k = 0; k < nnz; k++) {
    gsReal xk = x[c[k]];
    for (int j = 0; j < n; j++) s[j] += v[j * nnz + k] * xk;
  }
  for (int j = 0; j < n; j++) y[j] = s[j];
}

/* x += J^T y on n <= 4 rows of a block; the rows add to a column in their order, as row by row */
static inline void mul_JT_block(const int* c, const gsReal* v, int n, int nnz, gsReal* x,
                               const gsReal* y) {
  for (int k = 0; k < nnz; k++) {
    gsReal xk = x[c[k]];
    for (int j = 0; j < n; j++) xk += v[j * nnz + k] * y[j];
    x[c[k]] = xk;
  }
}

/* y = J x on the blocks' rows, four rows at a time */
static void mul_J_blocks(const gsData* d, const gsRowBlock* blocks, int nblock, gsReal* y,
                        const gsReal* x) {
  for (int b = 0; b < nblock; b++) {
    int n = blocks[b].n, nnz = blocks[b].nnz, j = 0;
    const int* c = d->efc_J_colind + blocks[b].adr;
    const gsReal* v = d->efc_J + blocks[b].adr;
    gsReal* yb = y + blocks[b].r;
    if (n == 1 && nnz == 1) {
      /* a dof's own row (a limit, a friction loss): mul_J_block's sum, from 0 */
      yb[0] = 0 + v[0] * x[c[0]];
      continue;
    }
    for (; j + 4 <= n; j += 4) mul_J_block(c, v + j * nnz, 4, nnz, yb + j, x);
    switch (n - j) {
      case 1: mul_J_block(c, v + j * nnz, 1, nnz, yb + j, x); break;
      case 2: mul_J_block(c, v + j * nnz, 2, nnz, yb + j, x); break;
      case 3: mul_J_block(c, v + j * nnz, 3, nnz, yb + j, x); break;
      default: break;
    }
  }
}

/* x = J^T y on the dofs, from the blocks' rows (which touch no other dof), four rows at a time */
static void mul_JT_blocks(const gsData* d, const gsRowBlock* blocks, int nblock, int d0,
                         const int* dofs, int ndof, gsReal* x, const gsReal* y) {
  for (int k = 0; k < ndof; k++) x[PART_DOF(d0, dofs, k)] = 0;
  for (int b = 0; b < nblock; b++) {
    int n = blocks[b].n, nnz = blocks[b].nnz, j = 0;
    const int* c = d->efc_J_colind + blocks[b].adr;
    const gsReal* v = d->efc_J + blocks[b].adr;
    const gsReal* yb = y + blocks[b].r;
    if (n == 1 && nnz == 1) {
      /* a dof's own row */
      if (yb[0] != 0) x[c[0]] += v[0] * yb[0];
      continue;
    }
    int any = 0;
    for (int i = 0; i < n; i++) any |= yb[i] != 0;
    if (!any) continue;
    for (; j + 4 <= n; j += 4) mul_JT_block(c, v + j * nnz, 4, nnz, x, yb + j);
    switch (n - j) {
      case 1: mul_JT_block(c, v + j * nnz, 1, nnz, x, yb + j); break;
      case 2: mul_JT_block(c, v + j * nnz, 2, nnz, x, yb + j); break;
      case 3: mul_JT_block(c, v + j * nnz, 3, nnz, x, yb + j); break;
      default: break;
    }
  }
}

static gsReal dot_list(int d0, const int* idx, int n, const gsReal* x, const gsReal* y) {
  gsReal s = 0;
  for (int k = 0; k < n; k++) {
    int i = PART_DOF(d0, idx, k);
    s += x[i] * y[i];
  }
  return s;
}

/* ---- the solver ---- */

/* cost, gradient, forces and states at w->a, given w->Ma = M a and w->jar = J a - aref; or,
 * when alpha is not 0, after moving a, Ma and jar by alpha times p, Mp and Jp (the line search
 * has them), with count as in rows_force_body */
static gsReal evaluate_products(const gsData* d, gsPrimal* w, gsReal alpha, int count[2]) {
  gsReal cost = alpha != 0 ? rows_force_moved(d, w->rows, w->nrow, w->jar, w->Jp, alpha, w->force,
                                              w->state, w->oldstate, count)
                           : rows_force_at(d, w->rows, w->nrow, w->jar, w->force, w->state);
  mul_JT_blocks(d, w->blocks, w->nblock, w->dof0, w->dofs, w->ndof, w->qfrc, w->force);
  gsReal gauss = 0;
  for (int k = 0; k < w->ndof; k++) {
    int i = PART_DOF(w->dof0, w->dofs, k);
    if (alpha != 0) {
      w->a[i] += alpha * w->p[i];
      w->Ma[i] += alpha * w->Mp[i];
    }
    gsReal e = w->Ma[i] - d->qfrc_smooth[i];
    gauss += 0.5 * (w->a[i] - d->qacc_smooth[i]) * e;
    w->grad[i] = e - w->qfrc[i];
  }
  return gauss + cost;
}

/* the same from a alone */
static gsReal evaluate(const gsModel* m, const gsData* d, gsPrimal* w) {
  mul_M_dofs(m, d, w->tail, w->headM, w->dof0, w->dofs, w->ndof, w->Ma, w->a);
  mul_J_blocks(d, w->blocks, w->nblock, w->jar, w->a);
  for (int q = 0; q < w->nrow; q++) w->jar[w->rows[q]] -= d->efc_aref[w->rows[q]];
  return evaluate_products(d, w, 0, NULL);
}

/* Jp = J p, and the slope and curvature of the penalty along it at jar (alpha = 0), from the
 * forces and states there: the slope is -force . Jp whatever the row's kind (force = -grad s),
 * the curvature D Jp^2 on the quadratic rows, plus the cone's own on elliptic contacts on it */
static void mul_J_line0(const gsData* d, const gsPrimal* w, int ready, gsReal* d1, gsReal* d2) {
  if (!ready) mul_J_blocks(d, w->blocks, w->nblock, w->Jp, w->p);
  gsReal s1 = 0, s2 = 0;
  int ncone = 0;
  for (int q = 0; q < w->nrow; q++) {
    int r = w->rows[q], st = w->state[r];
    gsReal v = w->Jp[r];
    s1 -= w->force[r] * v;
    s2 += keep_if(d->efc_D[r] * v * v, st == GS_CNSTRSTATE_QUADRATIC);
    ncone += st == GS_CNSTRSTATE_CONE;
  }
  for (int q = 0; ncone && q < w->nrow; q++) {
    int r = w->rows[q];
    if (w->state[r] != GS_CNSTRSTATE_CONE) continue;
    const gsContact* c = d->contact + d->efc_id[r];
    gsConeResidual k;
    gs_coneSetup(&k, d, c, r, w->jar + r);
    gsReal c1 = 0, c2 = 0;
    cone_line(&k, c->dim, w->Jp + r, &c1, &c2);
    s2 += c2;
    q += c->dim - 1;
  }
  *d1 = s1;
  *d2 = s2;
}

/* w->tmp = J^T D J p over the quadratic rows (the rows' part of H p), from w->Jp; w->Dq scratch */
static void mul_JT_DJp(const gsData* d, gsPrimal* w) {
  for (int q = 0; q < w->nrow; q++) {
    int r = w->rows[q];
    w->Dq[r] = keep_if(d->efc_D[r] * w->Jp[r], w->state[r] == GS_CNSTRSTATE_QUADRATIC);
  }
  mul_JT_blocks(d, w->blocks, w->nblock, w->dof0, w->dofs, w->ndof, w->tmp, w->Dq);
}

/* the share of the tolerance above which the Newton step's residual is refined */
#define GS_REFINE 0.01

/* One step of iterative refinement of p = -H^-1 grad, for factors that lose accuracy where
 * contacts are stiff against the bodies' inertia: the tree factor with its low-rank correction for
 * rows joining two branches (Woodbury's identity subtracts Z C^-1 Z^T x from T^-1 x, with C = I +
 * U^T T^-1 U up to about 1 + d / (1 - d) per row, 100 at solimp's 0.99, and the difference keeps
 * that many roundings of the larger terms), and the block factor after rank-1 updates and
 * downdates. A unit step leaves the gradient -r, r = -grad - H p the solve's residual: such a
 * step ended on a gradient 100 times MJCF's (a dense factor's), above a tight tolerance, and the
 * solve took an iteration more. r comes from products with M and the quadratic rows (no row on
 * its cone: exact); it is solved for once more only where it could decide the tolerance test,
 * scale |r| above GS_REFINE of the tolerance (not at the default tolerance in general).
 * Returns 1 when p stays, its products M p and J p then ready for the line search. */
static int refine(const gsModel* m, const gsData* d, gsPrimal* w, const gsTreeHessian* th,
                  gsHessian* h, gsReal scale) {
  /* Mp, Jp, Dq and tmp are scratch until the line search computes them */
  mul_M_dofs(m, d, w->tail, w->headM, w->dof0, w->dofs, w->ndof, w->Mp, w->p);
  mul_J_blocks(d, w->blocks, w->nblock, w->Jp, w->p);
  mul_JT_DJp(d, w);
  gsReal rr = 0;
  for (int k = 0; k < w->ndof; k++) {
    int i = PART_DOF(w->dof0, w->dofs, k);
    w->tmp[i] = -w->grad[i] - w->Mp[i] - w->tmp[i];
    rr += w->tmp[i] * w->tmp[i];
  }
  if (!(scale * sqrt(rr) > GS_REFINE * m->opt.tolerance)) return 1;
  if (th)
    tree_solve(m, d, w, th, w->tmp);
  else
    gs_hessianSolve(h, w->tmp);
  for (int k = 0; k < w->ndof; k++) {
    int i = PART_DOF(w->dof0, w->dofs, k);
    w->p[i] += w->tmp[i];
  }
  return 0;
}

/* how far the rows' curvature may outweigh M's for M p taken from the Newton system: its
 * error is then within about GS_MP_CANCEL + 1 roundings of M p. Measured: MuJoCo's cards agree
 * (5e-14) up to 4096 and part without a bound (2e-11); a robot's contacts exceed 16 often, and
 * each product with M costs (200 steps of MuJoCo's humanoid: +5% instructions at 16, +2.7% at
 * 256, +1.7% at 4096, with the refinement below) */
#define GS_MP_CANCEL 256

/* exact line search along p from a; returns the step, and the evaluations in *neval. ready: M p
 * and J p are the products at p already (refine's) */
static gsReal line_search(const gsModel* m, gsData* d, gsPrimal* w, int ready, gsReal* slope0,
                          int* neval) {
  gsReal s1, s2;
  mul_J_line0(d, w, ready, &s1, &s2);
  gsReal g1 = 0;
  for (int k = 0; k < w->ndof; k++) {
    int i = PART_DOF(w->dof0, w->dofs, k);
    g1 += w->p[i] * (w->Ma[i] - d->qfrc_smooth[i]);
  }
  /* With p = -H^-1 grad, M p = -grad - J^T D J p (D on the quadratic rows) saves the product
   * with M. It is a difference, though, with the error of the solve's residual, eps |J^T D J p|
   * in size: where the rows' curvature outweighs M's (stiff contacts on light bodies) it is far
   * from M p, and M a, moved by it at every step, drifts from the product, so the solve ends at
   * the zero of a gradient that is off (thin cards of 0.2 g pressed together: qacc 2.6e-8 from
   * MuJoCo's, moving by 1e-7 under 4-ulp changes of the state). Taken only where the rows' part
   * is at most GS_MP_CANCEL times M's, along p (p^T H p = -p^T grad = -(g1 + s1), s2 the rows'
   * part) and in every dof; elsewhere M p is the product, as MJCF's solver takes it. */
  int shortcut = !ready && w->exact && s2 <= GS_MP_CANCEL * (-(g1 + s1) - s2);
  if (shortcut) {
    mul_JT_DJp(d, w);
    for (int k = 0; k < w->ndof; k++) {
      int i = PART_DOF(w->dof0, w->dofs, k);
      gsReal mp = -w->grad[i] - w->tmp[i];
      shortcut &= fabs(w->tmp[i]) <= GS_MP_CANCEL * fabs(mp);
      w->Mp[i] = mp;
    }
  }
  if (!shortcut && !ready) mul_M_dofs(m, d, w->tail, w->headM, w->dof0, w->dofs, w->ndof, w->Mp, w->p);
  gsReal g2 = dot_list(w->dof0, w->dofs, w->ndof, w->p, w->Mp);
  gsReal d0 = g1 + s1;
  *slope0 = d0;
  *neval = 1;
  /* No step where the slope at 0 is within tolerance ls_tolerance |p| (absolute); then the
   * search stops where the slope is within 0.01 of that at 0. Measured against MuJoCo's
   * iteration and evaluation counts: without the first test the search took a step at a resting
   * box's converged states, where MuJoCo takes none, and bisected a kink there for all 50
   * iterations (MuJoCo's collision_convex/box_boxmesh.xml: 4.36 evaluations a step, MuJoCo 1.81,
   * now 1.85; the iteration count MuJoCo's at 554 of 600 steps, 429 before). The tolerance
   * divided by the solve's scale (as its gradient is measured) matched fewer (471); the stop
   * inside the search absolute as well bisected for all 50 iterations at sensor/contact_sorted.xml
   * (28.3 evaluations a step, MuJoCo 2). */
  gsReal pnorm = dot_list(w->dof0, w->dofs, w->ndof, w->p, w->p);
  if (!(d0 < -m->opt.tolerance * m->opt.ls_tolerance * sqrt(pnorm))) return 0;
  gsReal tol = m->opt.ls_tolerance * fabs(d0);
  gsReal lo = 0, hi = -1, alpha = 0, dphi = d0, d2phi = g2 + s2;
  int maxit = m->opt.ls_iterations > 0 ? m->opt.ls_iterations : 1;
  for (int it = 0; it < maxit; it++) {
    gsReal next = d2phi > 0 ? alpha - dphi / d2phi : (hi < 0 ? 2 * alpha + 1 : 0.5 * (lo + hi));
    if (!(next > lo) || (hi >= 0 && !(next < hi))) next = hi < 0 ? 2 * alpha + 1 : 0.5 * (lo + hi);
    alpha = next;
    penalty_line(d, w->rows, w->nrow, w->jar, w->Jp, alpha, &s1, &s2);
    (*neval)++;
    dphi = g1 + alpha * g2 + s1;
    d2phi = g2 + s2;
    if (fabs(dphi) <= tol) break;
    /* a slope within rounding of its terms is zero: at a converged state the initial slope is
     * itself rounding (1e-29 from terms of 1e-15: MuJoCo's rne_post/weld files), tol below an
     * ulp, and the bisection would take every iteration left (50 evaluations, MuJoCo's 2) for
     * an alpha the flat line does not determine */
    if (fabs(dphi) <= 4 * DBL_EPSILON * (fabs(g1) + fabs(alpha * g2) + fabs(s1))) break;
    if (dphi < 0) lo = alpha; else hi = alpha;
  }
  return alpha;
}

/* Newton or CG on the part of the problem in w, from the better of the smooth acceleration and
 * the warm start on its dofs, to its own tolerance; stats (may be NULL) get GS_NSOLVER records.
 * Returns the iterations, -1 when the arena cannot hold the part's vectors; a part whose Hessian
 * does not fit is solved by CG. */
static int solve_part(const gsModel* m, gsData* d, gsPrimal* w, int cg, int sparse,
                      gsSolverStat* stats) {
  int ndof = w->ndof, nrow = w->nrow;
  const int *dofs = w->dofs, *rows = w->rows;
  int d0 = w->dof0 = consecutive_dofs(dofs, ndof);
  size_t mark = gs_arenaMark(d);
  gsHessian h;
  w->blocks = gs_arenaAlloc(d, sizeof(gsRowBlock) * (size_t)(nrow > 0 ? nrow : 1));
  if (!w->blocks) {
    gs_arenaRelease(d, mark);
    return -1;
  }
  w->nblock = row_blocks(d, rows, nrow, w->blocks);
  size_t hmark = gs_arenaMark(d);
  gsTreeHessian tree, *th = NULL;
  int ncross = cg ? GS_NCROSS + 1 : path_blocks(m, d, w->blocks, w->nblock);
  /* its memory, when the arena has room (else the block factor, as before) */
  size_t treebytes = sizeof(gsReal) * ((size_t)m->nM + (size_t)(2 + ncross) * (size_t)m->nv) + 64;
  if (ncross <= GS_NCROSS && d->narena - gs_arenaMark(d) > treebytes) {
    tree.val = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)m->nM);
    tree.diaginv = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)m->nv);
    tree.w = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)m->nv);
    tree.Z = gs_arenaAlloc(d, sizeof(gsReal) * ((size_t)ncross * (size_t)m->nv + 1));
    tree.nq = 0;
    tree.tail = w->tail, tree.head = w->head;
    if (tree.val && tree.diaginv && tree.w && tree.Z) {
      th = &tree;
      gs_zero(tree.w, m->nv);
      /* the factor's multiply-adds and as many again for the assembly */
      tree.factorcost = 0;
      for (int q = 0; q < ndof; q++) {
        double n = gs_rowLen(m, dofs[q]);
        tree.factorcost += n * (n + 1);
      }
    }
  }
  if (!cg && !th && !gs_hessianSetupPart(m, d, &h, sparse, rows, nrow, dofs, ndof)) {
    /* no room for Newton's Hessian (on the sparse path its fill follows the contacts, which the
     * arena's size can only estimate): this part by CG, which needs none; the arena's warning
     * counted the event */
    gs_arenaRelease(d, hmark);
    cg = 1;
  }

  copy_part(d0, dofs, ndof, w->a, d->qacc_smooth);
  gsReal cost;
  if (!(m->opt.disableflags & GS_DSBL_WARMSTART)) {
    /* the cost at the smooth acceleration is its penalty alone (the Gauss term is 0 there):
     * the products M a and J^T f are needed only if it beats the warm start */
    mul_J_blocks(d, w->blocks, w->nblock, w->jar, w->a);
    for (int q = 0; q < nrow; q++) w->jar[rows[q]] -= d->efc_aref[rows[q]];
    cost = rows_force_at(d, rows, nrow, w->jar, w->force, w->state);
    copy_part(d0, dofs, ndof, w->a, d->qacc_warmstart);
    gsReal warm = evaluate(m, d, w);
    if (warm < cost) {
      cost = warm;
    } else {
      copy_part(d0, dofs, ndof, w->a, d->qacc_smooth);
      cost = evaluate(m, d, w);
    }
  } else {
    cost = evaluate(m, d, w);
  }

  /* an island's improvement and gradient are measured per its own dofs */
  gsReal scale = gs_solverScale(m) * m->nv / (ndof > 1 ? ndof : 1);
  gsReal tol = m->opt.tolerance;

  int iter = 0, factored = 0, updated = 0;
  gsReal gMg = 0;
  w->exact = 0;
  if (cg) {
    copy_part(d0, dofs, ndof, w->Mgrad, w->grad);
    solve_LTDL_dofs(m, w->tail, w->headM, d0, dofs, ndof, d->qLD, d->qLDiagInv, w->Mgrad);
    for (int k = 0; k < ndof; k++) {
      int i = PART_DOF(d0, dofs, k);
      w->p[i] = -w->Mgrad[i];
    }
    gMg = dot_list(d0, dofs, ndof, w->grad, w->Mgrad);
  }
  /* only elliptic contacts' rows ever take the cone state */
  int elliptic = 0;
  for (int q = 0; q < nrow; q++) {
    w->oldstate[rows[q]] = w->state[rows[q]];
    elliptic |= d->efc_type[rows[q]] == GS_CNSTR_CONTACT_ELLIPTIC;
  }
  for (; iter < m->opt.iterations; iter++) {
    /* MJCF's solvers take at least one iteration, then stop on the gradient or improvement */
    gsReal gnorm = sqrt(dot_list(d0, dofs, ndof, w->grad, w->grad));
    if (iter > 0 && scale * gnorm < tol) break;
    int nupdate = 0, ready = 0;
    if (!cg) {
      nupdate = refresh_factor(m, d, w, factored, th, &h, &updated);
      if (nupdate < 0) break;
      factored = 1;
      for (int k = 0; k < ndof; k++) {
        int i = PART_DOF(d0, dofs, k);
        w->p[i] = -w->grad[i];
      }
      if (th)
        tree_solve(m, d, w, th, w->p);
      else
        gs_hessianSolve(&h, w->p);
      /* an elliptic contact on its cone adds the cone's curvature to H */
      w->exact = 1;
      for (int q = 0; elliptic && q < nrow; q++) w->exact &= w->state[rows[q]] != GS_CNSTRSTATE_CONE;
      if (w->exact && (th ? th->nq > 0 : updated)) ready = refine(m, d, w, th, &h, scale);
    }
    gsReal slope;
    int neval;
    gsReal alpha = line_search(m, d, w, ready, &slope, &neval);
    if (alpha == 0) break;
    /* the line search has M p and J p: the products move with a; the states before the step
     * go to oldstate, those at which Newton's factor is */
    gsReal old = cost;
    int count[2];
    cost = evaluate_products(d, w, alpha, count);
    int nchange = count[0], nactive = count[1];
    gsReal improvement = scale * (old - cost);
    if (stats && iter < GS_NSOLVER) {
      gsSolverStat* st = stats + iter;
      st->improvement = improvement;
      st->gradient = scale * sqrt(dot_list(d0, dofs, ndof, w->grad, w->grad));
      st->lineslope = slope;
      st->nactive = nactive;
      st->nchange = nchange;
      st->neval = neval;
      st->nupdate = nupdate;
    }
    if (cg) {
      /* Polak-Ribiere with M^-1 as preconditioner, restarted when beta < 0 */
      for (int k = 0; k < ndof; k++) {
        int i = PART_DOF(d0, dofs, k);
        w->tmp[i] = w->Mgrad[i];
        w->Mgrad[i] = w->grad[i];
      }
      solve_LTDL_dofs(m, w->tail, w->headM, d0, dofs, ndof, d->qLD, d->qLDiagInv, w->Mgrad);
      gsReal num = 0, gMgnew = 0;
      for (int k = 0; k < ndof; k++) {
        int i = PART_DOF(d0, dofs, k);
        num += w->grad[i] * (w->Mgrad[i] - w->tmp[i]);
        gMgnew += w->grad[i] * w->Mgrad[i];
      }
      gsReal beta = gMg > 0 ? num / gMg : 0;
      if (beta < 0) beta = 0;
      for (int k = 0; k < ndof; k++) {
        int i = PART_DOF(d0, dofs, k);
        w->p[i] = -w->Mgrad[i] + beta * w->p[i];
      }
      gMg = gMgnew;
    }
    if (improvement < tol) {
      iter++;
      break;
    }
  }
  gs_arenaRelease(d, mark);
  return iter;
}

int gs_solveNewton(const gsModel* m, gsData* d, int cg) {
  int nv = m->nv, nefc = d->nefc;
  size_t mark = gs_arenaMark(d);
  gsPrimal w;
  gsReal** vec[] = {&w.a, &w.Ma, &w.grad, &w.Mgrad, &w.p, &w.Mp, &w.tmp, &w.tmprow, &w.qfrc};
  int ok = 1;
  for (size_t i = 0; i < sizeof(vec) / sizeof(vec[0]); i++)
    ok &= (*vec[i] = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nv)) != NULL;
  w.jar = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nefc);
  w.Jp = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nefc);
  w.force = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nefc);
  w.Dq = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nefc);
  w.exact = 0;
  w.state = gs_arenaAlloc(d, sizeof(int) * (size_t)nefc);
  w.oldstate = gs_arenaAlloc(d, sizeof(int) * (size_t)nefc);
  int* head = gs_arenaAlloc(d, sizeof(int) * 2 * (size_t)nv);
  w.tail = m->dof_freetail;
  w.head = head, w.headM = head ? head + nv : NULL;
  int nisland = d->nisland;
  int* all = nisland ? NULL : gs_arenaAlloc(d, sizeof(int) * (size_t)(nv > nefc ? nv : nefc));
  if (!ok || !w.jar || !w.Jp || !w.force || !w.Dq || !w.state || !w.oldstate || !head ||
      (!nisland && !all)) {
    gs_arenaRelease(d, mark);
    return -1;
  }
  free_heads(m, head, head + nv);
  /* MJCF's jacobian option selects the Hessian's path: dense, sparse, or sparse from 60 dofs;
   * a value out of the enumeration is auto, MJCF's default (counted by the position stage) */
  int jac = m->opt.jacobian;
  int sparse = jac == GS_JAC_SPARSE || (jac != GS_JAC_DENSE && nv >= 60);

  int iter = 0;
  if (!nisland) {
    /* no islands: all rows and dofs at once */
    for (int i = 0; i < (nv > nefc ? nv : nefc); i++) all[i] = i;
    w.rows = all, w.nrow = nefc, w.dofs = all, w.ndof = nv;
    iter = solve_part(m, d, &w, cg, sparse, d->solver);
    d->solver_niter[0] = iter;
  } else {
    /* each island its own problem, to its own tolerance; the dofs of none keep qacc_smooth */
    for (int k = 0; k < nisland && iter >= 0; k++) {
      w.dofs = d->map_idof2dof + d->island_idofadr[k], w.ndof = d->island_nv[k];
      w.rows = d->map_iefc2efc + d->island_iefcadr[k], w.nrow = d->island_nefc[k];
      int n = solve_part(m, d, &w, cg, sparse, k < GS_NISLAND ? d->solver + k * GS_NSOLVER : NULL);
      if (k < GS_NISLAND) d->solver_niter[k] = n;
      iter = n < 0 ? -1 : (n > iter ? n : iter);
    }
    for (int q = d->nidof; q < nv; q++) {
      w.a[d->map_idof2dof[q]] = d->qacc_smooth[d->map_idof2dof[q]];
      w.qfrc[d->map_idof2dof[q]] = 0;  /* no row has a column there */
    }
    /* rows without columns: their force is fixed by aref */
    gsReal unused = 0;
    int first = nisland ? d->island_iefcadr[nisland - 1] + d->island_nefc[nisland - 1] : 0;
    for (int q = first; q < nefc;) {
      int r = d->map_iefc2efc[q];
      w.jar[r] = -d->efc_aref[r];
      q += gs_rowForce(d, r, w.jar, w.force, w.state, &unused);
    }
  }

  if (iter >= 0) {
    gs_copy(d->qacc, w.a, nv);
    memcpy(d->efc_force, w.force, sizeof(gsReal) * (size_t)nefc);
    memcpy(d->efc_state, w.state, sizeof(int) * (size_t)nefc);
    /* J^T f from the last evaluation, whose rows add to each dof in the order of a row-by-row
     * product (a dof's rows are all in its island, in increasing order): no second product */
    gs_copy(d->qfrc_constraint, w.qfrc, nv);
  }
  gs_arenaRelease(d, mark);
  return iter;
}
