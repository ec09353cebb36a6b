/* The joint-space inertia matrix: composite rigid bodies (CRB), its tree-sparse LTDL factor
 * (Featherstone: the sparsity of the branches, no fill-in), and products and solves with it.
 * Storage: row i at dof_Madr[i] holds M(i,i), then M(i,p(i)), M(i,p(p(i))), ...; M_dofid gives
 * each entry's column, so the loops over a row index by it rather than walk the chain of parents
 * (a load that waits on the one before). */
#include <string.h>

#include "core/math.h"
#include "dynamics/dynamics.h"
#include "core/pair.h"

/* slides and a free joint's first three dofs move without turning: their cdof is (0, v), and the
 * products below leave out its zeros (they would add exact zeros, so the sums are the same) */
static inline int translational(const gsModel* m, int i) {
  int j = m->dof_jntid[i], type = m->jnt_type[j];
  return type == GS_JNT_SLIDE || (type == GS_JNT_FREE && i < m->jnt_dofadr[j] + 3);
}

/* gs_mulInertVec for the motion (0, v) */
static inline void mul_inert_translation(gsReal r[6], const gsReal I[10], const gsReal v[3]) {
  const gsReal* h = I + 6;  /* m c */
  r[0] = -h[2] * v[1] + h[1] * v[2];
  r[1] = h[2] * v[0] - h[0] * v[2];
  r[2] = -h[1] * v[0] + h[0] * v[1];
  r[3] = I[9] * v[0];
  r[4] = I[9] * v[1];
  r[5] = I[9] * v[2];
}

/* the rows of a free joint's six dofs (from a, a root joint: no dofs above it). The cdof of its
 * translations are (0, e_k) (gs_comPos), so the products with them pick entries: the generic sums
 * with their exact zeros left out, the same values; only the rotations need I s and dot products. */
static void free_block(const gsModel* m, gsData* d, int a) {
  if (m->dof_diagonal[a]) {
    /* a diagonal free body (dof_diagonal): diag(m, m, m, I) exactly, as MuJoCo writes its simple
     * bodies' (the sums below give the same values to rounding, with rounding off the diagonal) */
    int b = m->dof_bodyid[a];
    for (int k = 0; k < 6; k++) {
      gsReal* row = d->qM + m->dof_Madr[a + k];
      row[0] = (k < 3 ? m->body_mass[b] : m->body_inertia[3 * b + k - 3]) + m->dof_armature[a + k];
      for (int t = 1; t <= k; t++) row[t] = 0;
    }
    return;
  }
  const gsReal* I = d->crb + 10 * m->dof_bodyid[a];
  const gsReal* s = d->cdof + 6 * a;
  for (int k = 0; k < 3; k++) {
    gsReal* row = d->qM + m->dof_Madr[a + k];
    row[0] = I[9];
    for (int t = 1; t <= k; t++) row[t] = 0;
  }
  for (int k = 3; k < 6; k++) {
    gsReal r[6], f[6];
    gs_mulInertVec(r, I, s + 6 * k);
    gs_pairStore(f, r, 3);  /* read two values at a time below */
    gsReal* row = d->qM + m->dof_Madr[a + k];
    int t = 0;
    for (int q = k; q >= 3; q--) row[t++] = gs_dot6Pair(s + 6 * q, f);
    for (int q = 2; q >= 0; q--) row[t++] = f[3 + q];
  }
  for (int k = 0; k < 6; k++) d->qM[m->dof_Madr[a + k]] += m->dof_armature[a + k];
}

/* I s for dof i, I its body's composite inertia */
static inline void dof_force(const gsModel* m, const gsData* d, int i, gsReal f[6]) {
  const gsReal* I = d->crb + 10 * m->dof_bodyid[i];
  gsReal r[6];
  if (translational(m, i)) mul_inert_translation(r, I, d->cdof + 6 * i + 3);
  else gs_mulInertVec(r, I, d->cdof + 6 * i);
  gs_pairStore(f, r, 3);  /* the dot products read f two values at a time */
}

/* row i of M from f = I s_i: s_j . f for i and its ancestors j */
static void crb_row(const gsModel* m, gsData* d, int i, const gsReal f[6]) {
  /* the whole dot products along the chain, two values at a time: testing each ancestor for
   * a translation costs more than the products with zeros it would leave out */
  int adr = m->dof_Madr[i], end = adr + gs_rowLen(m, i);
  /* in a tree on a free joint the row ends with the joint's translations (dofs root + 2,
   * root + 1, root), whose cdof are (0, e_k): their products are f's linear part, as
   * free_block writes them (the dot products would give the same values) */
  int root = m->M_dofid[end - 1];
  if (m->jnt_type[m->dof_jntid[root]] == GS_JNT_FREE) {
    end -= 3;
    d->qM[end] = f[5];
    d->qM[end + 1] = f[4];
    d->qM[end + 2] = f[3];
  }
  for (int t = adr; t < end; t++) d->qM[t] = gs_dot6Pair(d->cdof + 6 * m->M_dofid[t], f);
  d->qM[adr] += m->dof_armature[i];
}

#ifdef GS_PAIR
/* rows i and i + 1 of M when i + 1's parent is i (dofs of one body, a chain): row i + 1 is
 * (i + 1, i, ancestors of i), so after its diagonal it has row i's columns, and each column's
 * s_j is dotted with f (row i) and g (row i + 1) side by side (structure of arrays: value k of
 * both in one pair), each sum in gs_dot6Pair's order: the same values as crb_row's */
static void crb_rows_pair(const gsModel* m, gsData* d, int i, const gsReal f[6],
                          const gsReal g[6]) {
  int adr = m->dof_Madr[i], end = adr + gs_rowLen(m, i), adr2 = m->dof_Madr[i + 1] + 1 - adr;
  int root = m->M_dofid[end - 1];
  if (m->jnt_type[m->dof_jntid[root]] == GS_JNT_FREE) {
    end -= 3;
    for (int k = 0; k < 3; k++) {
      d->qM[end + k] = f[5 - k];
      d->qM[adr2 + end + k] = g[5 - k];
    }
  }
  d->qM[adr2 - 1 + adr] = gs_dot6Pair(d->cdof + 6 * (i + 1), g);
  gs_pair F[6];
  for (int k = 0; k < 6; k++) F[k] = (gs_pair){f[k], g[k]};
  for (int t = adr; t < end; t++) {
    const gsReal* c = d->cdof + 6 * m->M_dofid[t];
    gs_pair e = (gs_pair){c[0], c[0]} * F[0], o = (gs_pair){c[1], c[1]} * F[1];
    e += (gs_pair){c[2], c[2]} * F[2];
    o += (gs_pair){c[3], c[3]} * F[3];
    e += (gs_pair){c[4], c[4]} * F[4];
    o += (gs_pair){c[5], c[5]} * F[5];
    gs_pair s = e + o;
    d->qM[t] = s[0];
    d->qM[adr2 + t] = s[1];
  }
  d->qM[adr] += m->dof_armature[i];
  d->qM[adr2 - 1 + adr] += m->dof_armature[i + 1];
}
#endif

void gs_crb(const gsModel* m, gsData* d) {
  memcpy(d->crb, d->cinert, sizeof(gsReal) * 10 * (size_t)m->nbody);
  for (int b = m->nbody - 1; b > 0; b--) {
    int p = m->body_parentid[b];
    if (p > 0)
      gs_addToPair(d->crb + 10 * p, d->crb + 10 * b, 10);  /* parent and child: never the same */
  }
  for (int i = 0; i < m->nv; i++) {
    int j = m->dof_jntid[i];
    if (m->jnt_type[j] == GS_JNT_FREE && i == m->jnt_dofadr[j]) {
      free_block(m, d, i);
      i += 5;
      continue;
    }
    gsReal f[6];
    dof_force(m, d, i, f);
#ifdef GS_PAIR
    if (i + 1 < m->nv && m->dof_parentid[i + 1] == i) {
      gsReal g[6];
      dof_force(m, d, i + 1, g);
      crb_rows_pair(m, d, i, f, g);
      i++;
      continue;
    }
#endif
    crb_row(m, d, i, f);
  }
  /* a tendon's armature is the inertia of a mass moving with the tendon: a J^T J */
  gs_addTendonTree(m, d->ten_J, m->tendon_armature, 1, d->qM);
}

void gs_addTendonTree(const gsModel* m, const gsReal* ten_J, const gsReal* coef, gsReal scale,
                      gsReal* H) {
  int nv = m->nv;
  for (int t = 0; t < m->ntendon; t++) {
    gsReal a = scale * coef[t];
    if (a == 0) continue;
    const gsReal* J = ten_J + (size_t)t * nv;
    /* row i: (i, i), then (i, ancestor) nearest first; pairs of dofs on different branches have
     * no slot in the storage and are left out (so M keeps its sparsity, as MJCF does) */
    for (int i = 0; i < nv; i++) {
      if (J[i] == 0) continue;
      gsReal aJi = a * J[i];
      int adr = m->dof_Madr[i], end = adr + gs_rowLen(m, i);
      for (int t = adr; t < end; t++) H[t] += aJi * J[m->M_dofid[t]];
    }
  }
}

/* the end of eliminate_dof's loop in a tree on a free joint: the last six ancestors are the
 * joint's dofs r + 5, ..., r, whose rows (lengths 6, ..., 1) are stored back to back from
 * madr_r; x is row k from the entry of r + 5 on. The same operations with every bound known. */
static inline void eliminate_into_free(gsReal* LD, int madr_r, gsReal* x, gsReal invD) {
#pragma GCC unroll 6
  for (int q = 0; q < 6; q++) {
    gsReal* row = LD + madr_r + (5 - q) * (6 - q) / 2;  /* dof r + 5 - q */
    gsReal a = x[q] * invD;
    /* two values at a time (row and x are different rows of LD: gs_subScaled's condition) */
    gs_subScaled(row, x + q, a, 6 - q);
    x[q] = a;
  }
}

/* D_k (final once k's descendants are eliminated) and 1/D_k into diaginv; a pivot that is not
 * positive becomes GS_MINVAL (keep going: the caller decides what a singular M means) and sets
 * `bit` in *bad */
static inline gsReal pivot(gsReal* LD, int adr, gsReal* diaginv, int k, int* bad, int bit) {
  gsReal D = LD[adr];
  if (!(D > GS_MINVAL)) {
    *bad |= bit;
    D = LD[adr] = GS_MINVAL;
  }
  return diaginv[k] = 1 / D;
}

/* eliminate dof k (its descendants done): D_k final, row k becomes the multipliers, the ancestors'
 * rows lose k's part; returns whether the pivot was not positive. free_r: the first dof of the
 * tree's free joint at its root, or -1. */
static inline int eliminate_dof(const gsModel* m, gsReal* LD, gsReal* diaginv, int k, int free_r) {
  int adr_k = m->dof_Madr[k], bad = 0;
  gsReal invD = pivot(LD, adr_k, diaginv, k, &bad, 1);
  /* eliminate k from each ancestor i: H_ij -= H_ki H_kj / D for j in {i} and ancestors(i).
   * Row k from adr_ki on lists exactly the chain i, p(i), ..., so it lines up with row i. */
  int adr_ki = adr_k + 1, len = gs_rowLen(m, k) - 1;
  int stop = free_r >= 0 && k > free_r + 5 ? 6 : 0;  /* the free joint's six, written out below */
  for (; len > stop; adr_ki++, len--) {
    int i = m->M_dofid[adr_ki];
    gsReal a = LD[adr_ki] * invD;
    gs_subScaledShort(LD + m->dof_Madr[i], LD + adr_ki, a, len);  /* rows never overlap */
    LD[adr_ki] = a;
  }
  if (stop) eliminate_into_free(LD, m->dof_Madr[free_r], LD + adr_ki, invD);
  return bad;
}

/* eliminate_into_free for two rows x (of k) and y (of k - 1) at once, the same operations on
 * each value as the two calls one after the other */
static inline void eliminate_into_free2(gsReal* LD, int madr_r, gsReal* x, gsReal invx, gsReal* y,
                                        gsReal invy) {
#pragma GCC unroll 6
  for (int q = 0; q < 6; q++) {
    gsReal* row = LD + madr_r + (5 - q) * (6 - q) / 2;
    gsReal a = x[q] * invx, b = y[q] * invy;
    gs_subScaled2Short(row, x + q, a, y + q, b, 6 - q);
    x[q] = a;
    y[q] = b;
  }
}

/* eliminate_dof of k, then of its parent k - 1 (a chain: row k is k - 1 and then k - 1's row's
 * ancestors, and no dof but k is left to eliminate from row k - 1): k's entry of k - 1 first,
 * after which D_{k-1} is final, then both from each common ancestor's row in one pass. Every
 * value takes the same operations in the same order as the two calls one after the other (an
 * ancestor's row is touched by nothing else between them). stop: whether both rows end with
 * the free joint's six (free_r's, as eliminate_dof). Returns a bit per bad pivot (1: k, 2: k-1). */
static inline int eliminate_pair(const gsModel* m, gsReal* LD, gsReal* diaginv, int k, int stop,
                                 int free_r) {
  int adr_k = m->dof_Madr[k], adr_p = m->dof_Madr[k - 1], bad = 0;
  gsReal invk = pivot(LD, adr_k, diaginv, k, &bad, 1);
  int len = gs_rowLen(m, k) - 1;  /* row k's entries after the diagonal: k - 1's row's length */
  gsReal a = LD[adr_k + 1] * invk;
  gs_subScaledShort(LD + adr_p, LD + adr_k + 1, a, len);
  LD[adr_k + 1] = a;
  gsReal invp = pivot(LD, adr_p, diaginv, k - 1, &bad, 2);
  /* entry t of row k - 1 (and t + 1 of row k) is ancestor i's, whose row has len - t values */
  int t = 1;
  for (; len - t > stop; t++) {
    gsReal *x = LD + adr_k + 1 + t, *y = LD + adr_p + t;
    gsReal ak = *x * invk, ap = *y * invp;
    gs_subScaled2Short(LD + m->dof_Madr[m->M_dofid[adr_p + t]], x, ak, y, ap, len - t);
    *x = ak;
    *y = ap;
  }
  if (stop) eliminate_into_free2(LD, m->dof_Madr[free_r], LD + adr_k + 1 + t, invk, LD + adr_p + t, invp);
  return bad;
}

/* eliminate_into_free2 for three rows */
static inline void eliminate_into_free3(gsReal* LD, int madr_r, gsReal* x, gsReal invx, gsReal* y,
                                        gsReal invy, gsReal* z, gsReal invz) {
#pragma GCC unroll 6
  for (int q = 0; q < 6; q++) {
    gsReal* row = LD + madr_r + (5 - q) * (6 - q) / 2;
    gsReal a = x[q] * invx, b = y[q] * invy, c = z[q] * invz;
    gs_subScaled3Short(row, x + q, a, y + q, b, z + q, c, 6 - q);
    x[q] = a;
    y[q] = b;
    z[q] = c;
  }
}

/* eliminate_pair for a chain of three, k, k - 1, k - 2: k from row k - 1, then k and k - 1 from
 * row k - 2, then all three from each common ancestor's row in one pass; the same operations in
 * the same order as three eliminate_dof calls. Returns a bit per bad pivot (1: k, 2: k - 1,
 * 4: k - 2). */
static inline int eliminate_triple(const gsModel* m, gsReal* LD, gsReal* diaginv, int k, int stop,
                                   int free_r) {
  int a0 = m->dof_Madr[k], a1 = m->dof_Madr[k - 1], a2 = m->dof_Madr[k - 2], bad = 0;
  gsReal invk = pivot(LD, a0, diaginv, k, &bad, 1);
  int len = gs_rowLen(m, k) - 1;  /* row k - 1's length; row k - 2's is len - 1 */
  gsReal a = LD[a0 + 1] * invk;
  gs_subScaledShort(LD + a1, LD + a0 + 1, a, len);
  LD[a0 + 1] = a;
  gsReal invp = pivot(LD, a1, diaginv, k - 1, &bad, 2);
  gsReal ak = LD[a0 + 2] * invk, ap = LD[a1 + 1] * invp;
  gs_subScaled2Short(LD + a2, LD + a0 + 2, ak, LD + a1 + 1, ap, len - 1);
  LD[a0 + 2] = ak;
  LD[a1 + 1] = ap;
  gsReal invq = pivot(LD, a2, diaginv, k - 2, &bad, 4);
  /* entry t of row k - 2 (t + 1 of row k - 1, t + 2 of row k) is ancestor i's, whose row has
   * len - 1 - t values */
  int t = 1;
  for (; len - 1 - t > stop; t++) {
    gsReal *x = LD + a0 + 2 + t, *y = LD + a1 + 1 + t, *z = LD + a2 + t;
    gsReal bk = *x * invk, bp = *y * invp, bq = *z * invq;
    gs_subScaled3Short(LD + m->dof_Madr[m->M_dofid[a2 + t]], x, bk, y, bp, z, bq, len - 1 - t);
    *x = bk;
    *y = bp;
    *z = bq;
  }
  if (stop)
    eliminate_into_free3(LD, m->dof_Madr[free_r], LD + a0 + 2 + t, invk, LD + a1 + 1 + t, invp,
                         LD + a2 + t, invq);
  return bad;
}

/* a tree that is a chain of 6 dofs (a free body without children): rows s, s+1, ... hold
 * 1, 2, ... values back to back, the same elimination as eliminate_dof with every bound known to
 * the compiler */
static int eliminate_chain6(const gsReal* src, gsReal* LD, gsReal* diaginv, int s, int madr) {
  int bad = -1;
  /* a local copy the compiler can keep in registers: the chain of divisions then does not also
   * wait on stores and loads */
  gsReal L[21];
  memcpy(L, src + madr, sizeof(L));
#pragma GCC unroll 6
  for (int k = 5; k >= 0; k--) {
    gsReal* row_k = L + k * (k + 1) / 2;
    gsReal D = row_k[0];
    if (!(D > GS_MINVAL)) {
      if (bad < 0) bad = s + k;
      D = row_k[0] = GS_MINVAL;
    }
    gsReal invD = diaginv[s + k] = 1 / D;
#pragma GCC unroll 6
    for (int i = k - 1, t = 1; i >= 0; i--, t++) {
      gsReal a = row_k[t] * invD;
      gsReal* row_i = L + i * (i + 1) / 2;
#pragma GCC unroll 6
      for (int q = 0; q <= i; q++) row_i[q] -= row_k[t + q] * a;
      row_k[t] = a;
    }
  }
  memcpy(LD + madr, L, sizeof(L));
  return bad;
}

/* each tree (a root dof and the dofs after it up to the next root, as the bodies are depth first)
 * from its last dof down; trees share nothing, so their order does not matter. The rows come from
 * src (LD itself, or M copied tree by tree: the factor then takes one pass over the storage, not a
 * copy of the whole of M and a second pass). */
static int factor_trees(const gsModel* m, const gsReal* src, gsReal* LD, gsReal* diaginv,
                        int diagonal, const int* dofs, int ndof) {
  int bad = -1;
  for (int q = dofs ? ndof : m->nv; q > 0;) {
    /* the tree's root: the last entry of its last row */
    int end = (dofs ? dofs[q - 1] : q - 1) + 1;
    int start = m->M_dofid[m->dof_Madr[end - 1] + gs_rowLen(m, end - 1) - 1];
    q -= end - start;
    if (diagonal && m->dof_diagonal[start]) {
      /* M's block of a diagonal free body (diagonal: src is M): D its diagonal, L zero (what the
       * elimination gives from exact zeros) */
      int madr = m->dof_Madr[start];
      if (src != LD) memcpy(LD + madr, src + madr, sizeof(gsReal) * 21);
      for (int k = start; k < end; k++) {
        int b = 0;
        pivot(LD, m->dof_Madr[k], diaginv, k, &b, 1);
        if (b && k > bad) bad = k;
      }
      continue;
    }
    int chain6 = end - start == 6;
    for (int k = start + 1; chain6 && k < end; k++) chain6 = m->dof_parentid[k] == k - 1;
    if (chain6) {
      int b = eliminate_chain6(src, LD, diaginv, start, m->dof_Madr[start]);
      if (b >= 0 && b > bad) bad = b;
    } else {
      if (src != LD) {
        /* rows are stored in dof order, back to back: the tree's rows are one range */
        int a0 = m->dof_Madr[start], a1 = end < m->nv ? m->dof_Madr[end] : m->nM;
        memcpy(LD + a0, src + a0, sizeof(gsReal) * (size_t)(a1 - a0));
      }
      int free_r = m->jnt_type[m->dof_jntid[start]] == GS_JNT_FREE ? start : -1;
      /* the rows of dofs from `tailed` on end with the free joint's six; k, its parent k - 1 and
       * theirs k - 2 go together (a chain), or k and k - 1, where their rows end alike (all from
       * tailed on, or all before it) */
      int tailed = free_r >= 0 ? free_r + 6 : end;
      for (int k = end - 1; k >= start;) {
        int low = k >= tailed ? tailed : start, stop = k >= tailed ? 6 : 0, b, n;
        if (k > low + 1 && m->dof_parentid[k] == k - 1 && m->dof_parentid[k - 1] == k - 2)
          b = eliminate_triple(m, LD, diaginv, k, stop, free_r), n = 3;
        else if (k > low && m->dof_parentid[k] == k - 1)
          b = eliminate_pair(m, LD, diaginv, k, stop, free_r), n = 2;
        else
          b = eliminate_dof(m, LD, diaginv, k, free_r), n = 1;
        /* bit j of b: dof k - j's pivot was not positive */
        for (int j = 0; b; j++, b >>= 1)
          if ((b & 1) && k - j > bad) bad = k - j;
        k -= n;
      }
    }
  }
  return bad;
}

int gs_factorLTDL(const gsModel* m, gsReal* LD, gsReal* diaginv) {
  return factor_trees(m, LD, LD, diaginv, 0, NULL, 0);
}

int gs_factorLTDLDofs(const gsModel* m, gsReal* LD, gsReal* diaginv, const int* dofs, int ndof) {
  return factor_trees(m, LD, LD, diaginv, 0, dofs, ndof);
}

/* D^-1 then L x = z, the second half of the solve: roots first, each value scaled at its turn
 * (its ancestors' are final); scale: D^-1 (diaginv), or any other diagonal. The parent's term
 * (the row's first entry) is subtracted last: the other ancestors' values were final long before,
 * so the chain from one generation to the next is one product and one subtraction, not the
 * row's whole sum (the gather along a leg is otherwise ~2 cycles an entry of every row on it). */
static inline __attribute__((always_inline)) void solve_lower(const gsModel* m,
                                                              const gsReal* LD,
                                                              const gsReal* diaginv,
                                                              gsReal* x, int first, int end,
                                                              int diagonal) {
  const int* col = m->M_dofid;
  for (int k = first; k < end; k++) {
    gsReal xk = x[k] * diaginv[k];
    int a0 = m->dof_Madr[k] + 1, a1 = m->dof_Madr[k] + gs_rowLen(m, k);
    if ((diagonal && m->dof_diagonal[k]) || a0 == a1) {
      x[k] = xk;
      continue;
    }
    /* the farther ancestors in two partial sums (entry t in sum (t - a0 - 1) % 2, in order) */
#ifdef GS_PAIR
    gs_pair acc = {0, 0};
    int t = a0 + 1;
    for (; t + 2 <= a1; t += 2)
      acc += (gs_pair){LD[t], LD[t + 1]} * (gs_pair){x[col[t]], x[col[t + 1]]};
    if (t < a1) acc[0] += LD[t] * x[col[t]];
    x[k] = (xk - (acc[0] + acc[1])) - LD[a0] * x[col[a0]];
#else
    gsReal s0 = 0, s1 = 0;
    int t = a0 + 1;
    for (; t + 2 <= a1; t += 2) {
      s0 += LD[t] * x[col[t]];
      s1 += LD[t + 1] * x[col[t + 1]];
    }
    if (t < a1) s0 += LD[t] * x[col[t]];
    x[k] = (xk - (s0 + s1)) - LD[a0] * x[col[a0]];
#endif
  }
}

/* with diagonal (LD is M's factor), the rows of diagonal dofs (dof_diagonal: all zeros off the
 * diagonal) are left out. For k below a free joint at the root of its tree (r = dof_freetail[k],
 * its dofs r .. r + 5 a chain) row k ends with the entries of r + 5, r + 4, ..., r, which the
 * scatters take two at a time (gs_subScaledRev6), each value the same operation; gs_mulM too. */
static void solve_range(const gsModel* m, const gsReal* LD, const gsReal* diaginv, gsReal* x,
                        int first, int end, int diagonal) {
  /* L^T z = x: leaves first, pushing each solved value to its ancestors */
  const int* col = m->M_dofid;
#ifdef GS_PAIR
  /* the six values of the free joint below which the pushes are (hr; -1 none) held in three
   * pairs from its tree's first push to its own turn: every dof of the tree pushes onto them, a
   * chain of subtractions that would otherwise go through memory (a store, then its load) at
   * each. The same operations in the same order. */
  int hr = -1;
  gs_pair h[3] = {{0, 0}, {0, 0}, {0, 0}};
#endif
  for (int k = end - 1; k >= first; k--) {
#ifdef GS_PAIR
    if (hr >= 0 && k <= hr + 5) {  /* the joint's own turns read them */
      gs_pairsStore6(x + hr, h);
      hr = -1;
    }
#endif
    gsReal xk = x[k];
    if (xk == 0 || (diagonal && m->dof_diagonal[k])) continue;
    int a0 = m->dof_Madr[k] + 1, a1 = m->dof_Madr[k] + gs_rowLen(m, k);
    int r = m->dof_freetail[k];
    if (r >= 0) a1 -= 6;
#ifdef GS_PAIR
    if (r >= 0 && r != hr) {  /* a tree's first push: its pushes come next, up to r + 6 */
      if (hr >= 0) gs_pairsStore6(x + hr, h);
      hr = r;
      gs_pairsLoad6(h, x + r);
    }
#endif
    if (a0 < a1 && k > first && m->dof_parentid[k] == k - 1 && (r < 0 || k - 1 > r + 5)) {
      /* k's parent k - 1 (row k from a0 + 1 on is row k - 1's, b0 on) takes its turn in the
       * same pass when its value is not zero: each ancestor's value loses k's part, then k - 1's,
       * as in two turns */
      x[k - 1] -= LD[a0++] * xk;
      gsReal xp = x[k - 1];
      if (xp != 0) {
        int off = m->dof_Madr[k - 1] + 1 - a0;  /* LD[t + off]: row k - 1's entry of col[t] */
        if (r >= 0) {
#ifdef GS_PAIR
          gs_pairsSubScaled2Rev6(h, LD + a1, xk, LD + a1 + off, xp);
#else
          gs_subScaled2Rev6(x + r, LD + a1, xk, LD + a1 + off, xp);
#endif
        }
        for (int t = a0; t < a1; t++) x[col[t]] = (x[col[t]] - LD[t] * xk) - LD[t + off] * xp;
        k--;
        continue;
      }
      k--;  /* k - 1's turn would do nothing */
    }
    if (r >= 0) {
#ifdef GS_PAIR
      gs_pairsSubScaledRev6(h, LD + a1, xk);
#else
      gs_subScaledRev6(x + r, LD + a1, xk);  /* LD is not x */
#endif
    }
    for (int t = a0; t < a1; t++) x[col[t]] -= LD[t] * xk;
  }
#ifdef GS_PAIR
  if (hr >= 0) gs_pairsStore6(x + hr, h);
#endif
  solve_lower(m, LD, diaginv, x, first, end, diagonal);
}

void gs_solveLTDLRange(const gsModel* m, const gsReal* LD, const gsReal* diaginv, gsReal* x,
                       int first, int end) {
  solve_range(m, LD, diaginv, x, first, end, 0);
}

void gs_solveLTDL(const gsModel* m, const gsReal* LD, const gsReal* diaginv, gsReal* x, int n) {
  for (int r = 0; r < n; r++, x += m->nv) solve_range(m, LD, diaginv, x, 0, m->nv, 0);
}

/* Non-symmetric matrices with the same tree pattern (H_ij != 0 only when i and j are equal or one is
 * an ancestor of the other), as M - h dF/dv is: R holds each row from the diagonal to the
 * ancestors (H_kk, H_k,p(k), ...), C the mirrored column entries (unused, H_p(k),k, ...). Gaussian
 * elimination from the leaves fills in nothing, so no pivoting and no dense storage. */
int gs_factorTreeLU(const gsModel* m, gsReal* R, gsReal* C) {
  int bad = -1;
  for (int k = m->nv - 1; k >= 0; k--) {
    int adr_k = m->dof_Madr[k], len = gs_rowLen(m, k);
    gsReal D = R[adr_k];
    if (!(fabs(D) > GS_MINVAL)) {
      if (bad < 0) bad = k;
      D = R[adr_k] = GS_MINVAL;
    }
    gsReal invD = 1 / D;
    /* for ancestors a = chain[t] and b = chain[u], u >= t:
     * H_ab -= H_ak H_kb / D (row of a), H_ba -= H_bk H_ka / D (column of a) */
    int t = 1;
    for (int a = m->dof_parentid[k]; a >= 0; a = m->dof_parentid[a], t++) {
      gsReal* Ra = R + m->dof_Madr[a];
      gsReal* Ca = C + m->dof_Madr[a];
      gsReal hak = C[adr_k + t] * invD, hka = R[adr_k + t] * invD;
      Ra[0] -= hak * R[adr_k + t];
      for (int u = t + 1; u < len; u++) {
        Ra[u - t] -= hak * R[adr_k + u];
        Ca[u - t] -= C[adr_k + u] * hka;
      }
    }
    for (int u = 1; u < len; u++) C[adr_k + u] *= invD;  /* multipliers of the elimination */
  }
  return bad;
}

void gs_solveTreeLU(const gsModel* m, const gsReal* R, const gsReal* C, gsReal* x) {
  int nv = m->nv;
  for (int k = nv - 1; k >= 0; k--) {
    int adr = m->dof_Madr[k] + 1;
    for (int a = m->dof_parentid[k]; a >= 0; a = m->dof_parentid[a]) x[a] -= C[adr++] * x[k];
  }
  for (int k = 0; k < nv; k++) {
    int adr = m->dof_Madr[k];
    gsReal s = x[k];
    int u = 1;
    for (int b = m->dof_parentid[k]; b >= 0; b = m->dof_parentid[b], u++) s -= R[adr + u] * x[b];
    x[k] = s / R[adr];
  }
}

void gs_factorM(const gsModel* m, gsData* d) {
  d->deferred &= ~GS_DEFER_FACTOR;
  int bad = factor_trees(m, d->qM, d->qLD, d->qLDiagInv, 1, NULL, 0);
  if (bad >= 0) {
    gs_warning(d, GS_WARN_INERTIA, bad);
  }
}

void gs_solveLowerScaled(const gsModel* m, const gsData* d, gsReal* x, const gsReal* scale) {
  solve_lower(m, d->qLD, scale, x, 0, m->nv, 1);
}

void gs_solveM(const gsModel* m, gsData* d, gsReal* x, const gsReal* y, int n) {
  if (d->deferred & GS_DEFER_FACTOR) gs_factorM(m, d);  /* left out by the inverse */
  if (x != y) memcpy(x, y, sizeof(gsReal) * (size_t)m->nv * (size_t)n);
  for (int r = 0; r < n; r++) solve_range(m, d->qLD, d->qLDiagInv, x + (size_t)r * m->nv, 0, m->nv, 1);
}

void gs_mulM(const gsModel* m, const gsData* d, gsReal* res, const gsReal* vec) {
  for (int i = 0; i < m->nv; i++) res[i] = d->qM[m->dof_Madr[i]] * vec[i];
  for (int i = 0; i < m->nv; i++) {
    int a0 = m->dof_Madr[i] + 1, a1 = m->dof_Madr[i] + gs_rowLen(m, i);
    int r = m->dof_freetail[i];
    if (r >= 0) a1 -= 6;
    /* row i's sum held in a register (its ancestors j < i are other entries of res): the same
     * additions in the same order */
    gsReal ri = res[i], vi = vec[i];
    for (int adr = a0; adr < a1; adr++) {
      int j = m->M_dofid[adr];
      ri += d->qM[adr] * vec[j];
      res[j] += d->qM[adr] * vi;
    }
    if (r >= 0) {
      const gsReal* T = d->qM + a1;
#pragma GCC unroll 6
      for (int u = 0; u < 6; u++) ri += T[u] * vec[r + 5 - u];
      gs_addScaledRev6(res + r, T, vi);  /* never res[i]; res is not vec */
    }
    res[i] = ri;
  }
}

/* M = L^T D L (qLD: D on the diagonal, L's unit lower rows to the ancestors), so M's square-root
 * factor is D^1/2 L: |mulM2(v)|^2 = v^T M v and |solveM2(y)|^2 = y^T M^-1 y */
void gs_mulM2(const gsModel* m, const gsData* d, gsReal* res, const gsReal* vec) {
  for (int k = 0; k < m->nv; k++) {
    int adr = m->dof_Madr[k] + 1;
    gsReal s = vec[k];
    for (int a = m->dof_parentid[k]; a >= 0; a = m->dof_parentid[a]) s += d->qLD[adr++] * vec[a];
    res[k] = s * sqrt(d->qLD[m->dof_Madr[k]]);
  }
}

void gs_solveM2(const gsModel* m, gsData* d, gsReal* x, const gsReal* y, int n) {
  int nv = m->nv;
  if (x != y) memcpy(x, y, sizeof(gsReal) * (size_t)nv * (size_t)n);
  for (int r = 0; r < n; r++, x += nv) {
    /* L^T z = y, leaves first (the first half of gs_solveLTDL), then D^-1/2 */
    for (int k = nv - 1; k >= 0; k--) {
      int adr = m->dof_Madr[k] + 1;
      for (int a = m->dof_parentid[k]; a >= 0; a = m->dof_parentid[a]) x[a] -= d->qLD[adr++] * x[k];
    }
    for (int k = 0; k < nv; k++) x[k] *= sqrt(d->qLDiagInv[k]);
  }
}

void gs_fullM(const gsModel* m, gsReal* dst, const gsReal* M) {
  int nv = m->nv;
  memset(dst, 0, sizeof(gsReal) * (size_t)nv * (size_t)nv);
  for (int i = 0; i < nv; i++) {
    int adr = m->dof_Madr[i];
    for (int j = i; j >= 0; j = m->dof_parentid[j], adr++) {
      dst[i * nv + j] = M[adr];
      dst[j * nv + i] = M[adr];
    }
  }
}
