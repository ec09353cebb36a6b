/* The principal pivoting method I warm-started from a previous non-basic set (seed 004,
 * Algorithm 2), on an LCP whose matrix is G G^T with G thin (n x r): a solution needs at most r
 * positive components (seed 004, Appendix D), so each principal pivot solves a system of at most
 * r unknowns and the n x n matrix is never formed (except for the Lemke fallback). */
#include <math.h>
#include <string.h>

#include "core/dense.h"
#include "solver/lcp.h"

size_t gs_ppmWork(int n, int r) {
  size_t nn = (size_t)n, rr = (size_t)r;
  size_t k = nn < rr + 1 ? nn : rr + 1;
  /* the system and its rows, z of the set, G^T z, a flag per index; or M and Lemke's tableau */
  size_t own = k * k + k * rr + k + rr + nn + 8;
  size_t fb = nn * nn + gs_lemkeWork(n);
  return own > fb ? own : fb;
}

static void remove_at(int* nb, int* nnb, int j) {
  for (int l = j; l + 1 < *nnb; l++) nb[l] = nb[l + 1];
  (*nnb)--;
}

/* the rest of the problem to Lemke: M = G G^T formed once */
static int fallback(int n, int r, const gsReal* G, const gsReal* q, gsReal* z, gsReal* w, int* nb,
                    int* nnb, gsLCPStat* stat, gsReal* work) {
  gsReal* M = work;
  gs_denseMulBT(M, G, G, n, r, n);
  int piv = stat->pivots;
  gs_lemke(n, M, q, z, w, 0, 0, stat, M + (size_t)n * n);
  stat->pivots += piv;
  stat->fallback = 1;
  *nnb = 0;
  for (int i = 0; i < n; i++) if (z[i] > 0) nb[(*nnb)++] = i;
  return stat->status;
}

int gs_ppm(int n, int r, const gsReal* G, const gsReal* q, gsReal* z, gsReal* w, int* nb,
           int* nnb, int maxiter, gsLCPStat* stat, gsReal* work) {
  memset(stat, 0, sizeof(*stat));
  memset(z, 0, sizeof(gsReal) * (size_t)(n > 0 ? n : 0));
  if (n <= 0) { *nnb = 0; return 0; }
  gsReal qmax = 0;
  int imin = 0;
  for (int i = 0; i < n; i++) {
    if (fabs(q[i]) > qmax) qmax = fabs(q[i]);
    if (q[i] < q[imin]) imin = i;
  }
  /* trivial solution (Algorithm 2, lines 3-5) */
  if (q[imin] >= 0) {
    memcpy(w, q, sizeof(gsReal) * (size_t)n);
    *nnb = 0;
    return 0;
  }
  gsReal tol = 1e-13 * (1 + qmax);
  size_t k = (size_t)(n < r + 1 ? n : r + 1);
  gsReal* A = work;
  gsReal* Gb = A + k * k;
  gsReal* zb = Gb + k * (size_t)r;
  gsReal* y = zb + k;
  char* in = (char*)(y + r);
  memset(in, 0, (size_t)n);
  /* the warm start: valid, distinct indices, at most k of them */
  int m = 0;
  for (int l = 0; l < *nnb && m < (int)k; l++) {
    int i = nb[l];
    if (i < 0 || i >= n || in[i]) continue;
    in[i] = 1;
    nb[m++] = i;
  }
  *nnb = m;
  if (m == 0) { nb[0] = imin; in[imin] = 1; *nnb = 1; }
  if (maxiter <= 0) maxiter = 3 * n + 10;
  int added_last = -1;
  for (int it = 0; it < maxiter; it++) {
    int kb = *nnb;
    for (int a = 0; a < kb; a++) memcpy(Gb + (size_t)a * r, G + (size_t)nb[a] * r, sizeof(gsReal) * (size_t)r);
    gs_denseMulBT(A, Gb, Gb, kb, r, kb);
    int bad = gs_cholesky(A, kb, 1e-11);
    if (bad >= 0) {
      /* a dependent row: from the warm start it simply leaves; the index just added being
       * dependent means q is outside G's range along it, which the pivots cannot fix */
      if (nb[bad] == added_last) return fallback(n, r, G, q, z, w, nb, nnb, stat, work);
      in[nb[bad]] = 0;
      remove_at(nb, nnb, bad);
      stat->pivots++;
      continue;
    }
    for (int a = 0; a < kb; a++) zb[a] = -q[nb[a]];
    gs_cholSolve(A, kb, zb);
    /* a negative component leaves the non-basic set (lines 18-23 and 33-37) */
    int jneg = -1;
    for (int a = 0; a < kb; a++) if (zb[a] < -tol && (jneg < 0 || zb[a] < zb[jneg])) jneg = a;
    if (jneg >= 0) {
      in[nb[jneg]] = 0;
      remove_at(nb, nnb, jneg);
      stat->pivots++;
      added_last = -1;
      if (*nnb == 0) { nb[0] = imin; in[imin] = 1; *nnb = 1; added_last = imin; }
      continue;
    }
    /* w = q + G (G_nb^T z_nb) (lines 14-15) */
    gs_denseMulVecT(y, Gb, zb, kb, r, 0);
    gs_denseMulVec(w, G, y, n, r, 0);
    int imn = -1;
    for (int i = 0; i < n; i++) {
      w[i] += q[i];
      if (!in[i] && w[i] < -tol && (imn < 0 || w[i] < w[imn])) imn = i;
    }
    if (imn < 0) {
      memset(z, 0, sizeof(gsReal) * (size_t)n);
      for (int a = 0; a < kb; a++) { z[nb[a]] = zb[a] > 0 ? zb[a] : 0; w[nb[a]] = 0; }
      /* w of the set is zero up to rounding: recompute it from the clamped z */
      gs_denseMulVecT(y, G, z, n, r, 0);
      gs_denseMulVec(w, G, y, n, r, 0);
      for (int i = 0; i < n; i++) w[i] += q[i];
      stat->residual = gs_lcpResidual(n, z, w);
      stat->status = 0;
      return 0;
    }
    if (kb >= (int)k) return fallback(n, r, G, q, z, w, nb, nnb, stat, work);
    nb[kb] = imn;
    in[imn] = 1;
    (*nnb)++;
    added_last = imn;
    stat->pivots++;
  }
  return fallback(n, r, G, q, z, w, nb, nnb, stat, work);
}
