/* Block Cholesky of the primal Hessian (hessian.h). The blocks are kinematic trees: a row's
 * Jacobian touches the dofs of at most a few trees, so H is sparse between trees and dense within
 * one (a contact on a chain fills its ancestors anyway). The symbolic part runs once per solve on
 * the graph of trees, where every row joins the trees it involves whatever its state; every
 * Hessian of the solve, and every rank-1 update, then fits the same fill. */
#include "core/arena.h"
#include "solver/hessian.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/math.h"
#include "core/pair.h"

/* ---- symbolic: blocks, minimum-degree order, fill ---- */

/* weighted degree of t in the graph of live blocks: dofs of its neighbours */
static int live_degree(const uint64_t* adj, const uint64_t* live, const int* n0, int W, int t) {
  int deg = 0;
  const uint64_t* row = adj + (size_t)t * W;
  for (int q = 0; q < W; q++) {
    uint64_t b = row[q] & live[q];
    while (b) {
      int u = q * 64 + __builtin_ctzll(b);
      deg += n0[u];
      b &= b - 1;
    }
  }
  return deg;
}

/* blocks: the trees of the listed dofs (runs of consecutive dofs with the same root body);
 * 0 when a tree is not contiguous */
static int tree_blocks(const gsModel* m, const int* dofs, int ndof, int* adr0, int* n0,
                       int* dofblk0, int* nblk) {
  int T = 0, last = -1;
  for (int k = 0; k < ndof; k++) {
    int i = dofs[k], root = m->body_rootid[m->dof_bodyid[i]];
    if (k == 0 || root != last || i != dofs[k - 1] + 1) {
      /* a tree seen before would not be contiguous */
      for (int t = 0; t < T; t++)
        if (m->body_rootid[m->dof_bodyid[adr0[t]]] == root) return 0;
      adr0[T] = i;
      n0[T] = 0;
      T++;
      last = root;
    }
    n0[T - 1]++;
    dofblk0[i] = T - 1;
  }
  *nblk = T;
  return 1;
}

int gs_hessianSetup(const gsModel* m, gsData* d, gsHessian* h, int sparse) {
  size_t mark = gs_arenaMark(d);
  int* rows = gs_arenaAlloc(d, sizeof(int) * (size_t)(d->nefc + 1));
  int* dofs = gs_arenaAlloc(d, sizeof(int) * (size_t)(m->nv + 1));
  if (!rows || !dofs) {
    gs_arenaRelease(d, mark);
    return 0;
  }
  for (int r = 0; r < d->nefc; r++) rows[r] = r;
  for (int i = 0; i < m->nv; i++) dofs[i] = i;
  return gs_hessianSetupPart(m, d, h, sparse, rows, d->nefc, dofs, m->nv);
}

int gs_hessianSetupPart(const gsModel* m, gsData* d, gsHessian* h, int sparse, const int* rows,
                        int nrow, const int* dofs, int ndof) {
  int nv = m->nv;
  memset(h, 0, sizeof(*h));
  h->nv = nv;
  int* adr0 = gs_arenaAlloc(d, sizeof(int) * (size_t)(nv + 1));
  int* n0 = gs_arenaAlloc(d, sizeof(int) * (size_t)(nv + 1));
  int* dofblk0 = gs_arenaAlloc(d, sizeof(int) * (size_t)(nv + 1));
  h->dof_blk = gs_arenaAlloc(d, sizeof(int) * (size_t)(nv + 1));
  h->w = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)(nv + 1));
  h->row = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)(nv + 1));
  if (!adr0 || !n0 || !dofblk0 || !h->dof_blk || !h->w || !h->row) return 0;
  for (int k = 0; k < ndof; k++) h->w[dofs[k]] = 0;
  int T = 1;
  /* one dense block needs the dofs to be contiguous */
  int contiguous = ndof > 0 && dofs[ndof - 1] - dofs[0] == ndof - 1;
  if ((sparse || !contiguous) && !tree_blocks(m, dofs, ndof, adr0, n0, dofblk0, &T)) return 0;
  if (!sparse && contiguous) {
    T = 1;
    adr0[0] = dofs[0], n0[0] = ndof;
    for (int k = 0; k < ndof; k++) dofblk0[dofs[k]] = 0;
  }
  h->nblk = T;
  h->blk_adr = gs_arenaAlloc(d, sizeof(int) * (size_t)T);
  h->blk_n = gs_arenaAlloc(d, sizeof(int) * (size_t)T);
  h->blk_parent = gs_arenaAlloc(d, sizeof(int) * (size_t)T);
  h->colptr = gs_arenaAlloc(d, sizeof(int) * (size_t)(T + 1));
  h->diagadr = gs_arenaAlloc(d, sizeof(size_t) * (size_t)T);
  h->pathcost = gs_arenaAlloc(d, sizeof(double) * (size_t)T);
  h->seg = gs_arenaAlloc(d, sizeof(int) * 2 * (size_t)T);
  int* order = gs_arenaAlloc(d, sizeof(int) * (size_t)T);
  int* pos = gs_arenaAlloc(d, sizeof(int) * (size_t)T);
  int* deg = gs_arenaAlloc(d, sizeof(int) * (size_t)T);
  int W = (T + 63) / 64;
  uint64_t* adj = gs_arenaAlloc(d, sizeof(uint64_t) * (size_t)T * W);
  uint64_t* live = gs_arenaAlloc(d, sizeof(uint64_t) * (size_t)W);
  if (!h->blk_adr || !h->blk_n || !h->blk_parent || !h->colptr || !h->diagadr || !h->pathcost ||
      !h->seg || !order || !pos || !deg || !adj || !live)
    return 0;

  /* the graph of blocks: each row joins the blocks it involves (rows of one contact share their
   * columns: they are looked at once) */
  memset(adj, 0, sizeof(uint64_t) * (size_t)T * W);
  int* blks = h->seg;
  if (T > 1) {
    for (int q = 0; q < nrow; q++) {
      int r = rows[q];
      const int* col = d->efc_J_colind + d->efc_J_rowadr[r];
      int nnz = d->efc_J_rownnz[r];
      if (q > 0 && nnz == d->efc_J_rownnz[rows[q - 1]] &&
          !memcmp(col, d->efc_J_colind + d->efc_J_rowadr[rows[q - 1]], sizeof(int) * (size_t)nnz))
        continue;
      int nb = 0;
      for (int k = 0; k < nnz; k++) {
        int t = dofblk0[col[k]];
        if (!nb || blks[nb - 1] != t) blks[nb++] = t;
      }
      for (int a = 0; a < nb; a++)
        for (int b = 0; b < nb; b++)
          if (a != b) adj[(size_t)blks[a] * W + blks[b] / 64] |= (uint64_t)1 << (blks[b] % 64);
    }
  }

  /* minimum degree (in dofs), eliminating on the bit sets; adj ends as the filled graph */
  memset(live, 0, sizeof(uint64_t) * (size_t)W);
  for (int t = 0; t < T; t++) live[t / 64] |= (uint64_t)1 << (t % 64);
  for (int t = 0; t < T; t++) deg[t] = live_degree(adj, live, n0, W, t);
  for (int k = 0; k < T; k++) {
    int best = -1;
    for (int t = 0; t < T; t++)
      if ((live[t / 64] >> (t % 64) & 1) && (best < 0 || deg[t] < deg[best])) best = t;
    order[k] = best;
    pos[best] = k;
    live[best / 64] &= ~((uint64_t)1 << (best % 64));
    uint64_t* row = adj + (size_t)best * W;
    for (int q = 0; q < W; q++) {
      uint64_t b = row[q] & live[q];
      while (b) {
        int u = q * 64 + __builtin_ctzll(b);
        b &= b - 1;
        uint64_t* urow = adj + (size_t)u * W;
        for (int p = 0; p < W; p++) urow[p] |= row[p] & live[p];
        urow[u / 64] &= ~((uint64_t)1 << (u % 64));
        deg[u] = live_degree(adj, live, n0, W, u);
      }
    }
  }

  /* the pattern of L by block columns, in elimination positions */
  int nnzL = 0;
  for (int k = 0; k < T; k++) {
    int t = order[k];
    h->colptr[k] = nnzL;
    for (int q = 0; q < W; q++) {
      uint64_t b = adj[(size_t)t * W + q];
      while (b) {
        int u = q * 64 + __builtin_ctzll(b);
        b &= b - 1;
        if (pos[u] > k) nnzL++;
      }
    }
  }
  h->colptr[T] = nnzL;
  h->rowblk = gs_arenaAlloc(d, sizeof(int) * (size_t)(nnzL + 1));
  h->offadr = gs_arenaAlloc(d, sizeof(size_t) * (size_t)(nnzL + 1));
  if (!h->rowblk || !h->offadr) return 0;
  for (int k = 0; k < T; k++) {
    int t = order[k], e = h->colptr[k];
    h->blk_adr[k] = adr0[t];
    h->blk_n[k] = n0[t];
    for (int q = 0; q < W; q++) {
      uint64_t b = adj[(size_t)t * W + q];
      while (b) {
        int u = q * 64 + __builtin_ctzll(b);
        b &= b - 1;
        if (pos[u] <= k) continue;
        /* insertion keeps the column ascending */
        int i = e++;
        while (i > h->colptr[k] && h->rowblk[i - 1] > pos[u]) h->rowblk[i] = h->rowblk[i - 1], i--;
        h->rowblk[i] = pos[u];
      }
    }
  }
  for (int k = 0; k < ndof; k++) h->dof_blk[dofs[k]] = pos[dofblk0[dofs[k]]];

  /* addresses and costs */
  size_t nval = 0;
  /* M's non-zeros in the part */
  double flops = 0;
  for (int k = 0; k < ndof; k++)
    for (int j = dofs[k]; j >= 0; j = m->dof_parentid[j]) flops += 2;
  for (int k = 0; k < T; k++) {
    double nk = h->blk_n[k], below = 0, below2 = 0;
    h->diagadr[k] = nval;
    nval += (size_t)h->blk_n[k] * h->blk_n[k];
    for (int e = h->colptr[k]; e < h->colptr[k + 1]; e++) {
      int ni = h->blk_n[h->rowblk[e]];
      h->offadr[e] = nval;
      nval += (size_t)ni * h->blk_n[k];
      below += ni;
      below2 += (double)ni * ni;
    }
    h->blk_parent[k] = h->colptr[k + 1] > h->colptr[k] ? h->rowblk[h->colptr[k]] : -1;
    flops += nk * nk * nk / 3 + below * nk * nk + nk * (below * below + below2) / 2;
    h->pathcost[k] = 4 * nk * (nk / 2 + below);
  }
  for (int k = T - 1; k >= 0; k--)
    if (h->blk_parent[k] >= 0) h->pathcost[k] += h->pathcost[h->blk_parent[k]];
  h->factorcost = flops;
  h->val = gs_arenaAlloc(d, sizeof(gsReal) * (nval + 1));
  return h->val != NULL;
}

/* ---- assembly ---- */

/* address of block (i, k), i >= k in elimination positions */
static size_t block_adr(const gsHessian* h, int i, int k) {
  if (i == k) return h->diagadr[k];
  for (int e = h->colptr[k]; e < h->colptr[k + 1]; e++)
    if (h->rowblk[e] == i) return h->offadr[e];
  return (size_t)-1;  /* not in the pattern: the setup saw every row, so never */
}

void gs_hessianSetM(const gsModel* m, const gsData* d, gsHessian* h) {
  for (int k = 0; k < h->nblk; k++) {
    gsReal* D = h->val + h->diagadr[k];
    int n = h->blk_n[k], adr = h->blk_adr[k];
    gs_zero(D, (size_t)n * n);
    for (int e = h->colptr[k]; e < h->colptr[k + 1]; e++)
      gs_zero(h->val + h->offadr[e], (size_t)h->blk_n[h->rowblk[e]] * n);
    /* M's non-zeros of the tree lie in its own block */
    for (int i = adr; i < adr + n; i++) {
      int a = m->dof_Madr[i];
      D[(i - adr) * n + (i - adr)] = d->qM[a++];
      for (int j = m->dof_parentid[i]; j >= 0; j = m->dof_parentid[j], a++)
        D[(i - adr) * n + (j - adr)] = d->qM[a];
    }
  }
}

/* a row's columns split into runs, one per block: seg[2 s] the block, seg[2 s + 1] the first
 * column of the run; returns the number of runs */
static int row_segments(gsHessian* h, const int* cols, int nnz) {
  int nseg = 0, *seg = h->seg;
  for (int k = 0; k < nnz; k++) {
    int b = h->dof_blk[cols[k]];
    if (!nseg || seg[2 * nseg - 2] != b) seg[2 * nseg] = b, seg[2 * nseg + 1] = k, nseg++;
  }
  return nseg;
}

void gs_hessianAddOuter(gsHessian* h, const int* cols, int nnz, const gsReal* x, const gsReal* y,
                        gsReal s) {
  int nseg = row_segments(h, cols, nnz), *seg = h->seg;
  for (int p = 0; p < nseg; p++) {
    int bi = seg[2 * p], i0 = seg[2 * p + 1], i1 = p + 1 < nseg ? seg[2 * p + 3] : nnz;
    int ai = h->blk_adr[bi];
    for (int q = 0; q < nseg; q++) {
      int bj = seg[2 * q], j0 = seg[2 * q + 1], j1 = q + 1 < nseg ? seg[2 * q + 3] : nnz;
      if (bi < bj) continue;
      int aj = h->blk_adr[bj], nj = h->blk_n[bj];
      gsReal* B = h->val + block_adr(h, bi, bj);
      for (int a = i0; a < i1; a++) {
        gsReal sx = s * x[a];
        if (sx == 0) continue;
        gsReal* Brow = B + (size_t)(cols[a] - ai) * nj;
        int jend = bi == bj ? a + 1 : j1;
        for (int b = j0; b < jend; b++) Brow[cols[b] - aj] += sx * y[b];
      }
    }
  }
}

/* B[cols[b] - aj] += sum_j sx[j] y[j][b] over b in [j0, jend), for n rows (a constant at each
 * call, so that the sums stay in registers) */
static inline void add_rows(gsReal* B, const int* cols, int aj, int j0, int jend,
                            const gsReal* sx, const gsReal* const* y, int n) {
  for (int b = j0; b < jend; b++) {
    gsReal t = B[cols[b] - aj];
    for (int j = 0; j < n; j++) t += sx[j] * y[j][b];
    B[cols[b] - aj] = t;
  }
}

void gs_hessianAddOuterRows(gsHessian* h, const int* cols, int nnz, const gsReal* const* v,
                            const gsReal* s, int n) {
  int nseg = row_segments(h, cols, nnz), *seg = h->seg;
  for (int p = 0; p < nseg; p++) {
    int bi = seg[2 * p], i0 = seg[2 * p + 1], i1 = p + 1 < nseg ? seg[2 * p + 3] : nnz;
    int ai = h->blk_adr[bi];
    for (int q = 0; q < nseg; q++) {
      int bj = seg[2 * q], j0 = seg[2 * q + 1], j1 = q + 1 < nseg ? seg[2 * q + 3] : nnz;
      if (bi < bj) continue;
      int aj = h->blk_adr[bj], nj = h->blk_n[bj];
      gsReal* B = h->val + block_adr(h, bi, bj);
      for (int a = i0; a < i1; a++) {
        /* the rows whose term is not 0 here, as gs_hessianAddOuter skips them */
        gsReal sx[4];
        const gsReal* y[4];
        int m = 0;
        for (int j = 0; j < n; j++) {
          sx[m] = s[j] * v[j][a];
          y[m] = v[j];
          m += sx[m] != 0;
        }
        gsReal* Brow = B + (size_t)(cols[a] - ai) * nj;
        int jend = bi == bj ? a + 1 : j1;
        switch (m) {
          case 1: add_rows(Brow, cols, aj, j0, jend, sx, y, 1); break;
          case 2: add_rows(Brow, cols, aj, j0, jend, sx, y, 2); break;
          case 3: add_rows(Brow, cols, aj, j0, jend, sx, y, 3); break;
          case 4: add_rows(Brow, cols, aj, j0, jend, sx, y, 4); break;
          default: break;
        }
      }
    }
  }
}

/* ---- numeric factor, solve, updates ---- */

/* dense Cholesky of the lower triangle of A (n x n, row-major) in place, by dot products of
 * rows (gs_dotN's partial sums: independent chains instead of one) */
static int chol_dense(gsReal* A, int n) {
  for (int j = 0; j < n; j++) {
    gsReal* Aj = A + (size_t)j * n;
    gsReal s = Aj[j] - gs_dotN(Aj, Aj, j);
    if (!(s > GS_MINVAL)) return 0;
    gsReal l = sqrt(s), inv = 1 / l;
    Aj[j] = l;
    for (int i = j + 1; i < n; i++) {
      gsReal* Ai = A + (size_t)i * n;
      Ai[j] = (Ai[j] - gs_dotN(Ai, Aj, j)) * inv;
    }
  }
  return 1;
}

int gs_hessianFactor(gsHessian* h) {
  for (int k = 0; k < h->nblk; k++) {
    int nk = h->blk_n[k];
    gsReal* Lkk = h->val + h->diagadr[k];
    if (!chol_dense(Lkk, nk)) return 0;
    int e0 = h->colptr[k], e1 = h->colptr[k + 1];
    /* L_ik = A_ik L_kk^-T, row by row */
    for (int e = e0; e < e1; e++) {
      int ni = h->blk_n[h->rowblk[e]];
      gsReal* B = h->val + h->offadr[e];
      for (int a = 0; a < ni; a++) {
        gsReal* x = B + (size_t)a * nk;
        for (int c = 0; c < nk; c++) {
          const gsReal* Lc = Lkk + (size_t)c * nk;
          x[c] = (x[c] - gs_dotN(Lc, x, c)) / Lc[c];
        }
      }
    }
    /* A_ij -= L_ik L_jk^T for i >= j below k; i is in column j's pattern (the fill is closed) */
    for (int ej = e0; ej < e1; ej++) {
      int j = h->rowblk[ej], nj = h->blk_n[j];
      const gsReal* Ljk = h->val + h->offadr[ej];
      int f = h->colptr[j];
      for (int ei = ej; ei < e1; ei++) {
        int i = h->rowblk[ei], ni = h->blk_n[i];
        const gsReal* Lik = h->val + h->offadr[ei];
        gsReal* A;
        if (i == j) {
          A = h->val + h->diagadr[j];
        } else {
          while (h->rowblk[f] != i) f++;
          A = h->val + h->offadr[f];
        }
        for (int a = 0; a < ni; a++) {
          const gsReal* la = Lik + (size_t)a * nk;
          int bend = i == j ? a + 1 : nj;
          for (int b = 0; b < bend; b++) A[(size_t)a * nj + b] -= gs_dotN(la, Ljk + (size_t)b * nk, nk);
        }
      }
    }
  }
  return 1;
}

void gs_hessianSolve(const gsHessian* h, gsReal* x) {
  for (int k = 0; k < h->nblk; k++) {
    int nk = h->blk_n[k];
    const gsReal* Lkk = h->val + h->diagadr[k];
    gsReal* xk = x + h->blk_adr[k];
    for (int c = 0; c < nk; c++) {
      const gsReal* Lc = Lkk + (size_t)c * nk;
      xk[c] = (xk[c] - gs_dotN(Lc, xk, c)) / Lc[c];
    }
    for (int e = h->colptr[k]; e < h->colptr[k + 1]; e++) {
      int i = h->rowblk[e], ni = h->blk_n[i];
      const gsReal* B = h->val + h->offadr[e];
      gsReal* xi = x + h->blk_adr[i];
      for (int a = 0; a < ni; a++) xi[a] -= gs_dotN(B + (size_t)a * nk, xk, nk);
    }
  }
  for (int k = h->nblk - 1; k >= 0; k--) {
    int nk = h->blk_n[k];
    const gsReal* Lkk = h->val + h->diagadr[k];
    gsReal* xk = x + h->blk_adr[k];
    for (int e = h->colptr[k]; e < h->colptr[k + 1]; e++) {
      int i = h->rowblk[e], ni = h->blk_n[i];
      const gsReal* B = h->val + h->offadr[e];
      const gsReal* xi = x + h->blk_adr[i];
      for (int a = 0; a < ni; a++) {
        const gsReal* Ba = B + (size_t)a * nk;
        for (int q = 0; q < nk; q++) xk[q] -= Ba[q] * xi[a];
      }
    }
    /* L^T x = y by rows of L: each solved value leaves its row's multiples behind (a row is
     * contiguous, a column is not) */
    for (int c = nk - 1; c >= 0; c--) {
      const gsReal* Lc = Lkk + (size_t)c * nk;
      gsReal xc = xk[c] /= Lc[c];
      for (int q = 0; q < c; q++) xk[q] -= Lc[q] * xc;
    }
  }
}

static int first_block(const gsHessian* h, const int* cols, int nnz) {
  int first = h->nblk;
  for (int k = 0; k < nnz; k++)
    if (h->dof_blk[cols[k]] < first) first = h->dof_blk[cols[k]];
  return first;
}

double gs_hessianUpdateCost(const gsHessian* h, const int* cols, int nnz) {
  return nnz ? h->pathcost[first_block(h, cols, nnz)] : 0;
}

int gs_hessianUpdate(gsHessian* h, const int* cols, int nnz, const gsReal* v, int sign) {
  if (!nnz) return 1;
  gsReal* w = h->w;
  for (int k = 0; k < nnz; k++) w[cols[k]] = v[k];
  int ok = 1;
  /* the non-zeros of w move up the elimination tree: every block it reaches is on the path from
   * the row's first block, which holds all the row's blocks */
  for (int k = first_block(h, cols, nnz); k >= 0; k = h->blk_parent[k]) {
    int nk = h->blk_n[k];
    gsReal* Lkk = h->val + h->diagadr[k];
    gsReal* wk = w + h->blk_adr[k];
    for (int c = 0; c < nk && ok; c++) {
      if (wk[c] == 0) continue;
      gsReal l = Lkk[(size_t)c * nk + c], r2 = l * l + sign * wk[c] * wk[c];
      /* a downdate that cancels most of the pivot would lose the factor's accuracy */
      if (!(r2 > 1e-10 * l * l) || !(r2 > GS_MINVAL)) {
        ok = 0;
        break;
      }
      gsReal r = sqrt(r2), cs = r / l, sn = wk[c] / l, sg = sign * sn, ic = 1 / cs;
      Lkk[(size_t)c * nk + c] = r;
      for (int a = c + 1; a < nk; a++) {
        gsReal* La = Lkk + (size_t)a * nk + c;
        *La = (*La + sg * wk[a]) * ic;
        wk[a] = cs * wk[a] - sn * *La;
      }
      for (int e = h->colptr[k]; e < h->colptr[k + 1]; e++) {
        int i = h->rowblk[e], ni = h->blk_n[i];
        gsReal* B = h->val + h->offadr[e] + c;
        gsReal* wi = w + h->blk_adr[i];
        for (int a = 0; a < ni; a++) {
          gsReal* La = B + (size_t)a * nk;
          *La = (*La + sg * wi[a]) * ic;
          wi[a] = cs * wi[a] - sn * *La;
        }
      }
    }
    gs_zero(wk, nk);
    if (!ok) break;
  }
  if (!ok) gs_zero(w, h->nv);
  return ok;
}
