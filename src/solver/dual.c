/* The dual problem's machinery (dual.h): Y by rows with its runs, the diagonal and elliptic
 * blocks of A, the row and block updates of the sweeps, and the final accelerations. An elliptic
 * contact is one block: in the coordinates y_j = f_j / mu_j its cone is circular; a normal step
 * and a friction step on the ball that normal force allows (closed form for condim 3), and the
 * block's exact minimiser over its cone where that pair stalls. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "constraint/constraint.h"
#include "constraint/force.h"
#include "core/arena.h"
#include "core/math.h"
#include "dynamics/dynamics.h"
#include "solver/dual.h"

/* the dofs of Y's row r: the ancestors of J's columns (mark[i] == stamp once i is listed);
 * written to out (when given) ascending; returns how many */
static int row_pattern(const gsModel* m, const gsData* d, int r, int* mark, int stamp, int* out) {
  const int* c = d->efc_J_colind + d->efc_J_rowadr[r];
  int n = 0;
  for (int k = d->efc_J_rownnz[r] - 1; k >= 0; k--) {
    for (int i = c[k]; i >= 0 && mark[i] != stamp; i = m->dof_parentid[i]) {
      mark[i] = stamp;
      if (out) out[n] = i;
      n++;
    }
  }
  if (!out) return n;
  /* each walk lists a chain descending: reversed, the usual one or two chains are ascending
   * already, and the insertion sort only checks */
  for (int a = 0, e = n - 1; a < e; a++, e--) {
    int t = out[a];
    out[a] = out[e];
    out[e] = t;
  }
  for (int a = 1; a < n; a++) {
    int t = out[a], e = a - 1;
    for (; e >= 0 && out[e] > t; e--) out[e + 1] = out[e];
    out[e + 1] = t;
  }
  return n;
}

/* whether J's row r holds the ancestors of its columns already, as the rows of contacts and of
 * connect and weld constraints do: then Y's row has J's columns (marks them with stamp) */
static int closed_pattern(const gsModel* m, const gsData* d, int r, int* mark, int stamp) {
  const int* c = d->efc_J_colind + d->efc_J_rowadr[r];
  /* ascending: a parent in the row comes before its child */
  for (int k = 0, n = d->efc_J_rownnz[r]; k < n; k++) {
    int p = m->dof_parentid[c[k]];
    if (p >= 0 && mark[p] != stamp) return 0;
    mark[c[k]] = stamp;
  }
  return 1;
}

/* rows of one contact share their Jacobian's columns, hence Y's: they are eliminated together */
enum { GS_PGS_GROUP = 10 };

/* whether two rows of J list the same columns (a, na of them; b, nb, -1 for no row) */
static inline int same_columns(const int* a, int na, const int* b, int nb) {
  /* one column (limits, a dof's friction loss): compared here, not by a call */
  return na == nb && (na == 1 ? a[0] == b[0] : !memcmp(a, b, sizeof(int) * (size_t)na));
}

/* z = L^-T z for k interleaved vectors that are non-zero on the dofs col (n, ascending, closed
 * under ancestors): leaves first, each dof pushing onto its ancestors */
static inline void eliminate_chains(const gsModel* m, const gsData* d, const int* col, int n,
                                    gsReal* z, int k) {
  for (int e = n - 1; e >= 0; e--) {
    int j = col[e];
    const gsReal* zj = z + j * k;
    int adr = m->dof_Madr[j] + 1;
    for (int i = m->dof_parentid[j]; i >= 0; i = m->dof_parentid[i]) {
      gsReal l = d->qLD[adr++];
      gsReal* zi = z + i * k;
      for (int t = 0; t < k; t++) zi[t] -= l * zj[t];
    }
  }
}

/* z's k interleaved vectors on col, scaled by D^-1/2, into Y's rows rows[0 .. k-1] (n values
 * each), z cleared on the way; then the diagonal of A */
static inline void scale_group(gsDual* w, const int* rows, int k, const int* col, int n, gsReal* z,
                               const gsReal* dsqrt) {
  gsReal* y[GS_PGS_GROUP];
  for (int t = 0; t < k; t++) y[t] = w->val + w->adr[rows[t]];
  for (int e = 0; e < n; e++) {
    gsReal* ze = z + col[e] * k;
    gsReal s = dsqrt[col[e]];
    for (int t = 0; t < k; t++) {
      y[t][e] = ze[t] * s;
      ze[t] = 0;
    }
  }
  for (int t = 0; t < k; t++) {
    gsReal sum = 0;
    for (int e = 0; e < n; e++) sum += y[t][e] * y[t][e];
    w->diag[rows[t]] = sum;
  }
}

/* Y's rows rows[0 .. k-1], which share the columns col (n of them): z = L^-T J^T for all k at once
 * (z holds them interleaved, zero on entry and on return); then the scaling by D^-1/2 and the
 * diagonal of A */
static void eliminate_group(const gsModel* m, gsData* d, gsDual* w, const int* rows, int k,
                            const int* col, int n, gsReal* z, const gsReal* dsqrt) {
  for (int t = 0; t < k; t++) {
    const int* c = d->efc_J_colind + d->efc_J_rowadr[rows[t]];
    const gsReal* v = d->efc_J + d->efc_J_rowadr[rows[t]];
    for (int e = 0, ne = d->efc_J_rownnz[rows[t]]; e < ne; e++) z[c[e] * k + t] = v[e];
  }
  /* the usual group sizes get their own copy of the loops, with k known to the compiler */
  switch (k) {
    case 1:
      eliminate_chains(m, d, col, n, z, 1);
      scale_group(w, rows, 1, col, n, z, dsqrt);
      break;
    case 3:
      eliminate_chains(m, d, col, n, z, 3);
      scale_group(w, rows, 3, col, n, z, dsqrt);
      break;
    case 4:
      eliminate_chains(m, d, col, n, z, 4);
      scale_group(w, rows, 4, col, n, z, dsqrt);
      break;
    case 6:
      eliminate_chains(m, d, col, n, z, 6);
      scale_group(w, rows, 6, col, n, z, dsqrt);
      break;
    default:
      eliminate_chains(m, d, col, n, z, k);
      scale_group(w, rows, k, col, n, z, dsqrt);
  }
}

/* A pyramid's rows are n + mu_i t_i and n - mu_i t_i for each friction direction i (rows.c), so
 * the second row of every pair after the first is row 0 + row 1 - its partner; Y's rows and A's
 * are linear in J's, so that row of Y (and of A) follows from three others without an
 * elimination (a condim-3 contact: three of four). The first row of row q's contact when q is
 * such a row and its contact's rows share their columns (same: 1 where a row has the columns of
 * the row before), else -1. */
static int pyramid_first(const gsData* d, const int* same, int q) {
  if (d->efc_type[q] != GS_CNSTR_CONTACT_PYRAMIDAL) return -1;
  int first = d->contact[d->efc_id[q]].efc_address, i = q - first;
  if (i < 3 || !(i & 1)) return -1;
  for (int p = first + 1; p <= q; p++)
    if (same[p] != 1) return -1;
  return first;
}

/* how many bits of x are set, in a few operations without a branch (x86-64's baseline has no
 * popcount instruction: the builtin is a call) */
static inline int popcount64(uint64_t x) {
  x -= (x >> 1) & 0x5555555555555555u;
  x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
  return (int)((x * 0x0101010101010101u) >> 56);
}

/* the length of the products of two rows of Y whose dofs are the bits of sa and sb (each set
 * closed under ancestors): up to their last common dof, rounded up to four; 0 when they share
 * none. Past it one of the two rows is zero at every dof. */
static inline int common_length(uint64_t sa, uint64_t sb) {
  uint64_t c = sa & sb;
  if (!c) return 0;
#if defined(__GNUC__)
  int last = 63 - __builtin_clzll(c);
#else
  int last = 63;
  while (!(c >> last)) last--;
#endif
  return (last + 4) & ~3;
}

/* Y's rows held as the columns of Z (dof-major: dof k's values of all rows in Z's row k, nz of
 * them; the rows past nv zero), as the elimination leaves them: a product of two rows reads down
 * two columns, and a pair of neighbouring columns is one pair load a dof. Every product sums its
 * terms as gs_dotN does, in the same order: four classes by dof mod 4, each in order, then
 * (0 + 1) + (2 + 3). */

/* columns a and b over dofs 0 .. n-1 (n a multiple of four) */
static inline gsReal dot_columns(const gsReal* Z, int nz, int a, int b, int n) {
  gsReal c0 = 0, c1 = 0, c2 = 0, c3 = 0;
  for (int k = 0; k < n; k += 4) {
    const gsReal* z = Z + (size_t)k * nz;
    c0 += z[a] * z[b];
    c1 += z[nz + a] * z[nz + b];
    c2 += z[2 * nz + a] * z[2 * nz + b];
    c3 += z[3 * nz + a] * z[3 * nz + b];
  }
  return (c0 + c1) + (c2 + c3);
}

#ifdef GS_PAIR
/* The passes of a block's products, for a vector type V of neighbouring columns (a pair or a
 * quad, 8-aligned: one load at any column a; SPLAT(y): y in every lane): V's columns from a on
 * against column b into the four class sums s0 .. s3 and, when two, against b + 1 into
 * t0 .. t3, dof by dof over 0 .. n-1 (n a multiple of four, the dofs of a pass its four
 * classes), then each product's classes as (0 + 1) + (2 + 3) into *r and *q. The caller holds
 * Z, nz, a, b, two, n, r, q and the sums. */
#define GS_COLUMN_PASSES(V, SPLAT)                               \
  for (int k = 0; k < n; k += 4) {                               \
    const gsReal* z = Z + (size_t)k * nz;                        \
    GS_COLUMN_CLASS(V, SPLAT, 0, s0, t0)                         \
    GS_COLUMN_CLASS(V, SPLAT, 1, s1, t1)                         \
    GS_COLUMN_CLASS(V, SPLAT, 2, s2, t2)                         \
    GS_COLUMN_CLASS(V, SPLAT, 3, s3, t3)                         \
  }                                                              \
  *r = (s0 + s1) + (s2 + s3);                                    \
  *q = (t0 + t1) + (t2 + t3)
#define GS_COLUMN_CLASS(V, SPLAT, c, s, t)                       \
  {                                                              \
    const gsReal* zc = z + (c) * (size_t)nz;                     \
    V x = *(const V*)(zc + a);                                   \
    gsReal yb = zc[b];                                           \
    s += x * SPLAT(yb);                                          \
    if (two) {                                                   \
      gsReal yc = zc[b + 1];                                     \
      t += x * SPLAT(yc);                                        \
    }                                                            \
  }
#define GS_PAIR_SPLAT(y) ((gs_pair){y, y})

/* columns a, a + 1 with column b (r = (a.b, a1.b)) and, when two, with b + 1 (q = (a.b1,
 * a1.b1)), over dofs 0 .. n-1 (n a multiple of four); the four classes of each product are the
 * four dofs of a pass */
static inline __attribute__((always_inline)) void dot_pair_columns(const gsReal* Z, int nz, int a,
                                                                   int b, int two, int n,
                                                                   gs_pair* r, gs_pair* q) {
  gs_pair s0 = {0, 0}, s1 = {0, 0}, s2 = {0, 0}, s3 = {0, 0};
  gs_pair t0 = {0, 0}, t1 = {0, 0}, t2 = {0, 0}, t3 = {0, 0};
  GS_COLUMN_PASSES(gs_pair, GS_PAIR_SPLAT);
}
#endif

/* A's entries between Y's independent rows from Z's column a0 on, each with the columns after it
 * (nvp rows, a multiple of four; column a is row ind[a]'s, ni of them), zero off their dofs,
 * which are the bits of sup[a] (all of nvp when sup is NULL). Each entry of A is one dot product
 * up to the two rows' last common dof (common_length): the terms past it are products with exact
 * zeros, which change no sum. Two columns with two columns at a time (dot_pair_columns), each
 * block as long as its longest product (the others' extra terms are zeros too). */
static inline __attribute__((always_inline)) void pair_products(const gsReal* Z, int nz, int nvp,
                                                                gsReal* A, int N, const int* ind,
                                                                int a0, int ni,
                                                                const uint64_t* sup) {
  int a = a0;
#ifdef GS_PAIR
  for (; a + 1 < ni; a += 2) {
    int r0 = ind[a], r1 = ind[a + 1];
    uint64_t sa = sup ? sup[a] | sup[a + 1] : 0;
    A[(size_t)r0 * N + r1] = A[(size_t)r1 * N + r0] =
        dot_columns(Z, nz, a, a + 1, sup ? common_length(sup[a], sup[a + 1]) : nvp);
    for (int b = a + 2; b < ni; b += 2) {
      int two = b + 1 < ni, s0 = ind[b];
      int n = sup ? common_length(sa, two ? sup[b] | sup[b + 1] : sup[b]) : nvp;
      gs_pair p, q;
      if (two) dot_pair_columns(Z, nz, a, b, 1, n, &p, &q);
      else dot_pair_columns(Z, nz, a, b, 0, n, &p, &q);
      A[(size_t)r0 * N + s0] = A[(size_t)s0 * N + r0] = p[0];
      A[(size_t)r1 * N + s0] = A[(size_t)s0 * N + r1] = p[1];
      if (two) {
        int s1 = ind[b + 1];
        A[(size_t)r0 * N + s1] = A[(size_t)s1 * N + r0] = q[0];
        A[(size_t)r1 * N + s1] = A[(size_t)s1 * N + r1] = q[1];
      }
    }
  }
#endif
  for (; a < ni; a++) {
    int r = ind[a];
    for (int b = a + 1; b < ni; b++) {
      int s = ind[b], n = sup ? common_length(sup[a], sup[b]) : nvp;
      A[(size_t)r * N + s] = A[(size_t)s * N + r] = dot_columns(Z, nz, a, b, n);
    }
  }
}

/* the pyramids' derived rows (der, nd of them) as combinations of A's entries: their columns
 * against the eliminated rows, then against each other (the diagonal is Y's own, as inv was
 * formed) */
static void derived_products(const gsDual* w, gsReal* A, const int* ind, int ni, const int* der,
                             int nd) {
  int N = w->nefc;
  for (int a = 0; a < nd; a++) {
    int q = der[a], f = w->derive[q];
    for (int b = 0; b < ni; b++) {
      const gsReal* ax = A + (size_t)ind[b] * N;
      A[(size_t)ind[b] * N + q] = A[(size_t)q * N + ind[b]] = (ax[f] + ax[f + 1]) - ax[q - 1];
    }
  }
  for (int a = 0; a < nd; a++) {
    int q = der[a], f = w->derive[q];
    for (int b = a + 1; b < nd; b++) {
      int x = der[b];
      gsReal v = (A[(size_t)f * N + x] + A[(size_t)(f + 1) * N + x]) - A[(size_t)(q - 1) * N + x];
      A[(size_t)q * N + x] = A[(size_t)x * N + q] = v;
    }
  }
}

/* A = Y^T Y from Y's independent rows held as Z's columns (pair_products) and the derived rows
 * (derived_products) */
static void dense_products(const gsDual* w, const gsReal* Z, int nz, int nvp, gsReal* A,
                           const int* ind, int ni, const int* der, int nd, const uint64_t* sup) {
  int N = w->nefc;
  for (int r = 0; r < N; r++) A[(size_t)r * N + r] = w->diag[r];
  pair_products(Z, nz, nvp, A, N, ind, 0, ni, sup);
  derived_products(w, A, ind, ni, der, nd);
}

#ifdef GS_DUAL_AVX2
int gs_dualNoAVX2 = 0;

int gs_dualAVX2(void) { return !gs_dualNoAVX2 && __builtin_cpu_supports("avx2"); }

/* 32-byte vectors: four of Z's neighbouring columns at one dof in one load */
typedef double gs_quad __attribute__((vector_size(32), aligned(8)));
#define GS_QUAD_SPLAT(y) ((gs_quad){y, y, y, y})

/* columns a .. a + 3 with column b (r: a.b, a1.b, a2.b, a3.b) and, when two, with b + 1 (q), over
 * dofs 0 .. n-1 (n a multiple of four); the four classes of each product are the four dofs of a
 * pass, as in dot_pair_columns: the same sums */
static inline __attribute__((always_inline, target("avx2"))) void dot_quad_columns(
    const gsReal* Z, int nz, int a, int b, int two, int n, gs_quad* r, gs_quad* q) {
  gs_quad s0 = {0, 0, 0, 0}, s1 = s0, s2 = s0, s3 = s0, t0 = s0, t1 = s0, t2 = s0, t3 = s0;
  GS_COLUMN_PASSES(gs_quad, GS_QUAD_SPLAT);
}

/* dense_products with four columns against two at a time in 32-byte vectors (AVX2, where the
 * processor has it): each entry the same dot product, summed in the same four classes in the
 * same order, so the same A to the bit (tests/c/test_dual.c); the columns left over, and the
 * products inside a block of four, as dense_products takes them. The Gymnasium humanoid's limits:
 * the products' share of a step 696 -> 560 perf samples (of ~10.6 k), the step 1.00-1.03x. */
__attribute__((target("avx2"))) static void dense_products_avx2(const gsDual* w, const gsReal* Z,
                                                                int nz, int nvp, gsReal* A,
                                                                const int* ind, int ni,
                                                                const int* der, int nd,
                                                                const uint64_t* sup) {
  int N = w->nefc, a = 0;
  for (int r = 0; r < N; r++) A[(size_t)r * N + r] = w->diag[r];
  for (; a + 3 < ni; a += 4) {
    /* inside the block: its two pairs as pair_products takes them */
    pair_products(Z + a, nz, nvp, A, N, ind + a, 0, 4, sup ? sup + a : NULL);
    const int* r = ind + a;
    uint64_t sa = sup ? sup[a] | sup[a + 1] | sup[a + 2] | sup[a + 3] : 0;
    for (int b = a + 4; b < ni; b += 2) {
      int two = b + 1 < ni, s0 = ind[b];
      int n = sup ? common_length(sa, two ? sup[b] | sup[b + 1] : sup[b]) : nvp;
      gs_quad p, q;
      if (two) dot_quad_columns(Z, nz, a, b, 1, n, &p, &q);
      else dot_quad_columns(Z, nz, a, b, 0, n, &p, &q);
      for (int e = 0; e < 4; e++) A[(size_t)r[e] * N + s0] = A[(size_t)s0 * N + r[e]] = p[e];
      if (two) {
        int s1 = ind[b + 1];
        for (int e = 0; e < 4; e++) A[(size_t)r[e] * N + s1] = A[(size_t)s1 * N + r[e]] = q[e];
      }
    }
  }
  /* the upper halves cleared for the 16-byte code that follows (GCC emitted no vzeroupper here:
   * the SSE code after it waited on the dirty upper state, the whole step 0.87x) */
  __builtin_ia32_vzeroupper();
  pair_products(Z, nz, nvp, A, N, ind, a, ni, sup);
  derived_products(w, A, ind, ni, der, nd);
}
#endif

/* A = Y^T Y whole, when it pays and the arena has room (without a warning: Y's rows serve
 * otherwise): a sweep over dense rows reads nefc^2 values, over Y's rows twice their non-zeros
 * (the gradient, then u's update), with more work per value. Each row of Y is scattered into z
 * (nv values, zeroed here and on return) and dotted with the rows after it. */
void gs_dualDense(const gsModel* m, gsData* d, gsDual* w) {
  int nefc = d->nefc, nv = m->nv;
  if (w->A || nefc > GS_DUAL_DENSE) return;
  size_t total = 0;
  for (int r = 0; r < nefc; r++) total += (size_t)w->nnz[r];
  if ((size_t)nefc * (size_t)nefc > 4 * total) return;
  /* a few dofs (a humanoid's 23): Y's rows written out whole as the columns of Z, zero off
   * their dofs (nv rounded up to four), and each entry of A one dot product of fixed length,
   * without the runs' loops, whose varying lengths mispredicted (a fallen humanoid's ~30 rows:
   * 35 k instructions and 270 mispredicts a call by runs, fewer than a third of the
   * instructions this way) */
  int nvp = (nv + 3) & ~3, nz = (nefc + 1) & ~1;
  if (nv <= GS_DUAL_DENSE &&
      sizeof(gsReal) * ((size_t)nefc * (size_t)nefc + (size_t)nz * (size_t)nvp + nefc) + 48 <=
          gs_stackRoom(d)) {
    gsReal* A = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nefc * (size_t)nefc);
    gsReal* Z = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nz * (size_t)nvp);
    int* list = gs_arenaAlloc(d, sizeof(int) * 2 * (size_t)nefc);
    if (!A || !Z || !list) return;
    memset(Z, 0, sizeof(gsReal) * (size_t)nz * (size_t)nvp);
    int *ind = list, *der = list + nefc, ni = 0, nd = 0;
    for (int r = 0; r < nefc; r++) {
      if (w->derive[r] >= 0) {
        der[nd++] = r;
        continue;
      }
      const int* run = w->run + 2 * w->runadr[r];
      const gsReal* y = w->val + w->adr[r];
      for (int t = 0; t < w->nrun[r]; t++, run += 2)
        for (int k = 0; k < run[1]; k++) Z[(size_t)(run[0] + k) * nz + ni] = *y++;
      ind[ni++] = r;
    }
    dense_products(w, Z, nz, nvp, A, ind, ni, der, nd, NULL);
    w->A = A;
    return;
  }
  size_t bytes = sizeof(gsReal) * ((size_t)nefc * (size_t)nefc + (size_t)nv) + 16;
  if (bytes > gs_stackRoom(d)) return;
  gsReal* A = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nefc * (size_t)nefc);
  gsReal* z = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nv);
  if (!A || !z) return;
  memset(z, 0, sizeof(gsReal) * (size_t)nv);
  for (int r = 0; r < nefc; r++) {
    const int* run = w->run + 2 * w->runadr[r];
    const gsReal* y = w->val + w->adr[r];
    for (int t = 0, e = 0; t < w->nrun[r]; t++, run += 2)
      for (int k = 0; k < run[1]; k++) z[run[0] + k] = y[e++];
    A[(size_t)r * nefc + r] = w->diag[r];
    for (int s = r + 1; s < nefc; s++) {
      const int* rs = w->run + 2 * w->runadr[s];
      const gsReal* ys = w->val + w->adr[s];
      gsReal sum = 0;
      for (int t = 0; t < w->nrun[s]; t++, rs += 2) {
        sum += gs_dotN(ys, z + rs[0], rs[1]);
        ys += rs[1];
      }
      A[(size_t)r * nefc + s] = A[(size_t)s * nefc + r] = sum;
    }
    run = w->run + 2 * w->runadr[r];
    for (int t = 0; t < w->nrun[r]; t++, run += 2)
      for (int k = 0; k < run[1]; k++) z[run[0] + k] = 0;
  }
  w->A = A;
}

/* a symmetric 2 x 2 matrix (a b; b e) by its eigenvalues l1 >= l2, their reciprocals and l1's
 * unit eigenvector v (l2's is (-v1, v0)); 0 when it is too near singular for the closed forms
 * below */
typedef struct {
  gsReal l1, l2, v0, v1, il1, il2;
} eig2;

static int eig2_of(gsReal a, gsReal b, gsReal e, eig2* q) {
  gsReal mean = 0.5 * (a + e), diff = 0.5 * (a - e), rad = sqrt(diff * diff + b * b);
  q->l1 = mean + rad;
  if (!(q->l1 > 0)) return 0;
  /* the small eigenvalue from the determinant: mean - rad would cancel */
  q->l2 = (a * e - b * b) / q->l1;
  if (!(q->l2 > 1e-10 * q->l1)) return 0;
  /* ball_eig2's first step divides by them: products there, off the sweep's chain of latencies */
  q->il1 = 1 / q->l1, q->il2 = 1 / q->l2;
  /* l1's eigenvector from a column of H - l2 I, without cancellation */
  q->v0 = 1, q->v1 = 0;
  if (rad > 0) {
    gsReal v0 = diff >= 0 ? diff + rad : b, v1 = diff >= 0 ? b : rad - diff;
    gsReal nv = sqrt(v0 * v0 + v1 * v1);
    q->v0 = v0 / nv, q->v1 = v1 / nv;
  }
  return 1;
}

/* condim 3's friction block keeps, after its 3 x 3 A, the eigenvalues, their reciprocals and the
 * eigenvector of its scaled 2 x 2 friction matrix mu (A + R) mu (see friction_step), which the
 * sweeps would otherwise take again at every update (l1 = 0 where the closed form does not
 * apply) */
#define FRICTION_EIG 6

static void friction_eig(gsReal* B, const gsContact* c, const gsReal* R) {
  gsReal* e = B + 9;
  e[0] = e[1] = e[2] = e[3] = e[4] = e[5] = 0;
  if (!(c->friction[0] > 0 && c->friction[1] > 0)) return;
  gsReal m1 = c->friction[0], m2 = c->friction[1];
  gsReal a11 = B[4] + (R ? R[1] : 0), a12 = B[5], a22 = B[8] + (R ? R[2] : 0);
  eig2 q;
  if (eig2_of(m1 * a11 * m1, m1 * a12 * m2, m2 * a22 * m2, &q))
    e[0] = q.l1, e[1] = q.l2, e[2] = q.v0, e[3] = q.v1, e[4] = q.il1, e[5] = q.il2;
}

/* condim 4 and 6 keep, after their n x n A, the eigenvalues l (k = n - 1 of them) and the
 * eigenvectors V (k x k, column i the i-th) of the scaled friction matrix mu (A + R) mu, which
 * friction_step's ball then takes as a scalar secular equation instead of a Cholesky factor and
 * solve at every Newton step (l[0] = 0 where it does not apply: a friction without a coefficient,
 * or a matrix too near singular) */
#define FRICTION_EIGN(n) ((n) - 1 + ((n) - 1) * ((n) - 1))

/* eigenvalues l and eigenvectors V (column i for l[i]) of the symmetric k x k H by cyclic Jacobi
 * rotations; 0 when they do not converge */
static int jacobi_eig(const gsReal* H, int k, gsReal* l, gsReal* V) {
  gsReal a[25];
  memcpy(a, H, sizeof(gsReal) * (size_t)(k * k));
  for (int i = 0; i < k; i++)
    for (int j = 0; j < k; j++) V[i * k + j] = i == j;
  for (int sweep = 0; sweep < 30; sweep++) {
    gsReal off = 0, diag = 0;
    for (int i = 0; i < k; i++) {
      diag += a[i * k + i] * a[i * k + i];
      for (int j = i + 1; j < k; j++) off += a[i * k + j] * a[i * k + j];
    }
    if (!(off <= 1e-32 * diag)) {
      if (!(off == off)) return 0;  /* NaN */
    } else {
      for (int i = 0; i < k; i++) l[i] = a[i * k + i];
      return 1;
    }
    for (int p = 0; p < k; p++)
      for (int q = p + 1; q < k; q++) {
        gsReal apq = a[p * k + q];
        if (apq == 0) continue;
        /* the rotation that zeroes a_pq: t = tan(theta), the smaller root */
        gsReal theta = (a[q * k + q] - a[p * k + p]) / (2 * apq);
        gsReal t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
        gsReal c = 1 / sqrt(t * t + 1), sn = t * c;
        for (int r = 0; r < k; r++) {  /* columns p, q of a */
          gsReal arp = a[r * k + p], arq = a[r * k + q];
          a[r * k + p] = c * arp - sn * arq;
          a[r * k + q] = sn * arp + c * arq;
        }
        for (int r = 0; r < k; r++) {  /* rows p, q of a */
          gsReal apr = a[p * k + r], aqr = a[q * k + r];
          a[p * k + r] = c * apr - sn * aqr;
          a[q * k + r] = sn * apr + c * aqr;
        }
        for (int r = 0; r < k; r++) {  /* V = V J */
          gsReal vrp = V[r * k + p], vrq = V[r * k + q];
          V[r * k + p] = c * vrp - sn * vrq;
          V[r * k + q] = sn * vrp + c * vrq;
        }
      }
  }
  return 0;
}

static void friction_eign(gsReal* B, int n, const gsContact* c, const gsReal* R) {
  int k = n - 1;
  gsReal *l = B + n * n, *V = l + k, H[25];
  l[0] = 0;
  for (int i = 0; i < k; i++)
    if (!(c->friction[i] > 0)) return;
  /* H as scaled_block forms it */
  for (int i = 0; i < k; i++)
    for (int j = 0; j < k; j++) {
      gsReal a = B[(i + 1) * n + (j + 1)] + (i == j && R ? R[i + 1] : 0);
      H[i * k + j] = c->friction[i] * a * c->friction[j];
    }
  gsReal lv[5];
  if (!jacobi_eig(H, k, lv, V)) return;
  gsReal lo = lv[0], hi = lv[0];
  for (int i = 1; i < k; i++) {
    if (lv[i] < lo) lo = lv[i];
    if (lv[i] > hi) hi = lv[i];
  }
  if (!(lo > 1e-10 * hi)) return;
  for (int i = 0; i < k; i++) l[i] = lv[i];
}

/* dof i's values of z's rows a .. b-1 scaled by s (Y = D^-1/2 z), each square added to the row's
 * diagonal dg */
static inline void scale_run(gsReal* restrict zi, gsReal* restrict dg, gsReal s, int a, int b) {
  for (int r = a; r < b; r++) {
    gsReal y = zi[r] * s;
    zi[r] = y;
    dg[r] += y * y;
  }
}

/* z_i -= L_ji z_j over a span of n values for each ancestor i of dof j (row j of the factor:
 * entries a0 .. a1-1, their dofs in col; zc: z's column where the span starts, nz values a row).
 * The limbs' short spans (a leaf's one row to a hip's four) are held in registers across the
 * ancestors, whose rows the factor's columns list (no walk up the parents): each value the same
 * operation as the general case's. */
static inline void push_span(const int* col, const gsReal* LD, int a0, int a1, gsReal* zc, int nz,
                             const gsReal* zj, int n) {
#ifdef GS_PAIR
  switch (n) {
    case 1: {
      gsReal x = zj[0];
      for (int t = a0; t < a1; t++) zc[(size_t)col[t] * nz] -= LD[t] * x;
      return;
    }
    case 2: {
      gs_pair x = gs_pairLoad(zj);
      for (int t = a0; t < a1; t++) {
        gsReal* r = zc + (size_t)col[t] * nz;
        gs_pair v = gs_pairLoad(r) - x * (gs_pair){LD[t], LD[t]};
        memcpy(r, &v, sizeof v);
      }
      return;
    }
    case 3: {
      gsReal x0 = zj[0];
      gs_pair x = gs_pairLoad(zj + 1);
      for (int t = a0; t < a1; t++) {
        gsReal* r = zc + (size_t)col[t] * nz;
        gs_pair v = gs_pairLoad(r + 1) - x * (gs_pair){LD[t], LD[t]};
        r[0] -= x0 * LD[t];
        memcpy(r + 1, &v, sizeof v);
      }
      return;
    }
    case 4: {
      gs_pair x = gs_pairLoad(zj), y = gs_pairLoad(zj + 2);
      for (int t = a0; t < a1; t++) {
        gsReal* r = zc + (size_t)col[t] * nz;
        gs_pair l = {LD[t], LD[t]};
        gs_pair v = gs_pairLoad(r) - x * l, u = gs_pairLoad(r + 2) - y * l;
        memcpy(r, &v, sizeof v);
        memcpy(r + 2, &u, sizeof u);
      }
      return;
    }
    default:
      break;
  }
#endif
  for (int t = a0; t < a1; t++) gs_subScaledShort(zc + (size_t)col[t] * nz, zj, LD[t], n);
}

/* Y's rows held whole (as the columns of z) and A = Y^T Y with them, in the setup, where
 * gs_dualDense would form A from Y's rows (nefc, nv <= GS_DUAL_DENSE, nefc^2 <= 4 nnz(Y): a
 * humanoid's limits and contacts): z = L^-T J^T for all rows at once, z held by dof (a dof's
 * values of the rows in a row of z), each dof's row pushed onto its ancestors' once over its span
 * of rows. Formed row by row (or contact by contact), each walked its own chains, whose exits mispredicted about once a
 * dof a row (a fallen humanoid: ~115 of the setup's ~290 mispredicts a call), and Y's columns
 * and runs were listed only to be written out whole again. Each row's values are the sparse
 * elimination's: the same operations in the same order, and those skipped subtract products with
 * exact zeros; so Y, its diagonal, the blocks and A are the same bit for bit. 0 when the arena
 * has no room for it (nothing allocated then). (A fallen Gymnasium humanoid, ~28 rows: the rows
 * in z by their last column, the spans and the products' lengths took the setup from ~67 k to
 * ~49 k instructions a call, the step 1.05-1.07x; limits alone, the same time as forming A dof
 * by dof in four sums, which this replaced.) The products read z's columns where the
 * elimination left them (dense_products): copying them into rows first cost more than the
 * products' extra loads (the Gymnasium humanoid's limits: 98.6 -> 97.3 M instructions over 300
 * steps, its smooth step ~4 % faster). */
_Static_assert(GS_DUAL_DENSE <= 64, "setup_dense holds a row's dofs in 64 bits");

static int setup_dense(const gsModel* m, gsData* d, gsDual* w, int* same) {
  int nv = m->nv, nefc = d->nefc;
  if (nefc <= 0 || nefc > GS_DUAL_DENSE || nv > GS_DUAL_DENSE) return 0;
  int nvp = (nv + 3) & ~3;  /* Y's rows: a multiple of four, for the products' fixed length */
  size_t lists = sizeof(int) * 4 * (size_t)nefc + sizeof(uint64_t) * ((size_t)nefc + (size_t)nv) +
                 3 * 16;
  if (lists > gs_stackRoom(d)) return 0;
  size_t mark = gs_arenaMark(d);
  int* list = gs_arenaAlloc(d, sizeof(int) * 4 * (size_t)nefc);
  uint64_t* sup = gs_arenaAlloc(d, sizeof(uint64_t) * (size_t)nefc);
  uint64_t* anc = gs_arenaAlloc(d, sizeof(uint64_t) * (size_t)nv);
  if (!list || !sup || !anc) return 0;
  int *ind = list, *der = list + nefc, *pos = der + nefc, *len = pos + nefc, ni = 0, nd = 0;
  /* each dof's bits: its own and its ancestors' (the parent comes first) */
  for (int i = 0; i < nv; i++) {
    int p = m->dof_parentid[i];
    anc[i] = (p >= 0 ? anc[p] : 0) | (uint64_t)1 << i;
  }

  /* One pass over the rows: whether each has the columns of the row before (same), its dofs as
   * bits (its columns and their ancestors: nv <= 64), whose count is its length in Y, and the
   * pyramids' derived rows; the eliminated rows by their last column, ascending (a stable
   * insertion sort; len holds the keys meanwhile): Y's row is zero past its last column, so a
   * product of two rows ends at the first's last column, and along this order each row's
   * products with the rows after it have one length (len[a], rounded up to four). A row's
   * position in this order (pos) is its column in z. */
  size_t total = 0;
  uint64_t bits = 0;
  const int* pc = NULL;  /* the row before's columns, pn of them (none before row 0) */
  int pn = -1;
  for (int r = 0; r < nefc; r++) {
    int n = d->efc_J_rownnz[r];
    const int* c = d->efc_J_colind + d->efc_J_rowadr[r];
    same[r] = same_columns(c, n, pc, pn);
    pc = c, pn = n;
    if (!same[r]) {
      bits = 0;
      for (int e = 0; e < n; e++) bits |= anc[c[e]];
    }
    total += (size_t)popcount64(bits);
    w->diag[r] = 0;
    w->derive[r] = pyramid_first(d, same, r);
    if (w->derive[r] >= 0) {
      der[nd++] = r;
      continue;
    }
    int key = n > 0 ? c[n - 1] : -1, e = ni++;
    for (; e > 0 && len[e - 1] > key; e--)
      ind[e] = ind[e - 1], len[e] = len[e - 1], sup[e] = sup[e - 1];
    ind[e] = r, len[e] = key, sup[e] = bits;
  }
  int nz = (ni + 1) & ~1;  /* z's rows: the eliminated rows' values */
  size_t bytes = sizeof(gsReal) * ((size_t)nefc * (size_t)nefc + (size_t)nvp * (size_t)nz +
                                   (size_t)ni) +
                 sizeof(int) * 2 * (size_t)nv + sizeof(gsReal) * (size_t)nv + 4 * 16;
  if ((size_t)nefc * (size_t)nefc > 4 * total || bytes > gs_stackRoom(d)) {
    gs_arenaRelease(d, mark);
    return 0;
  }
  gsReal* A = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nefc * (size_t)nefc);
  gsReal* z = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nvp * (size_t)(nz ? nz : 2));
  gsReal* dg = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)(ni ? ni : 1));
  int* span = gs_arenaAlloc(d, sizeof(int) * 2 * (size_t)nv);
  gsReal* scale = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nv);
  if (!A || !z || !dg || !span || !scale) return 0;
  for (int a = 0; a < ni; a++) {
    pos[ind[a]] = a;
    len[a] = (len[a] + 4) & ~3;  /* dofs 0 .. key, rounded up to four: at most nvp */
    dg[a] = 0;
  }
  /* J^T into z; each dof's span: the least and the greatest of z's columns whose J rows reach
   * its subtree (empty when the first exceeds the second), pushed onto its parent's below */
  memset(z, 0, sizeof(gsReal) * (size_t)nvp * (size_t)nz);  /* the rows past nv stay zero */
  for (int i = 0; i < nv; i++) span[2 * i] = ni, span[2 * i + 1] = -1;
  for (int a = 0; a < ni; a++) {
    int r = ind[a];
    const int* c = d->efc_J_colind + d->efc_J_rowadr[r];
    const gsReal* v = d->efc_J + d->efc_J_rowadr[r];
    for (int e = 0, ne = d->efc_J_rownnz[r]; e < ne; e++) {
      int j = c[e];
      z[(size_t)j * nz + a] = v[e];
      if (a < span[2 * j]) span[2 * j] = a;
      span[2 * j + 1] = a;  /* a ascending */
    }
  }
  /* z = L^-T z: leaves first, each dof's row pushed onto its ancestors' over its span (z's
   * values off it are exact zeros, whose products change nothing) */
  for (int j = nv - 1; j >= 0; j--) {
    int lo = span[2 * j], hi = span[2 * j + 1];
    if (lo > hi) continue;
    int p = m->dof_parentid[j];
    if (p >= 0) {  /* the parent's span, final before its own turn (p < j) */
      if (lo < span[2 * p]) span[2 * p] = lo;
      if (hi > span[2 * p + 1]) span[2 * p + 1] = hi;
    }
    push_span(m->M_dofid, d->qLD, m->dof_Madr[j] + 1, m->dof_Madr[j] + gs_rowLen(m, j),
              z + lo, nz, z + (size_t)j * nz + lo, hi - lo + 1);
  }
  /* Y = D^-1/2 z along z's contiguous rows, each row's diagonal summed dof by dof as before;
   * the derived rows' values dof by dof from their three rows' (the same three operations as
   * their Y rows were formed with) for their diagonal */
  for (int i = 0; i < nv; i++) {
    int lo = span[2 * i], hi = span[2 * i + 1];
    scale[i] = 0;  /* a dof that no row reaches: Y f is zero there */
    if (lo > hi) continue;
    gsReal* zi = z + (size_t)i * nz;
    scale[i] = sqrt(d->qLDiagInv[i]);
    scale_run(zi, dg, scale[i], lo, hi + 1);
    for (int a = 0; a < nd; a++) {
      int q = der[a], f = w->derive[q];
      gsReal y = (zi[pos[f]] + zi[pos[f + 1]]) - zi[pos[q - 1]];
      w->diag[q] += y * y;
    }
  }
  for (int a = 0; a < ni; a++) w->diag[ind[a]] = dg[a];
  w->nefc = nefc;
#ifdef GS_DUAL_AVX2
  if (gs_dualAVX2()) dense_products_avx2(w, z, nz, nvp, A, ind, ni, der, nd, sup);
  else
#endif
    dense_products(w, z, nz, nvp, A, ind, ni, der, nd, sup);
  /* the elliptic blocks, each entry summed over the dofs in order as the rows' merge summed it
   * (the products off a row's columns are exact zeros; a contact's rows share their columns,
   * so their values past len are zeros too) */
  for (int r = 0; r < nefc; r++) {
    if (w->blockadr[r] < 0) continue;
    int n = d->contact[d->efc_id[r]].dim, ne = len[pos[r]] < nv ? len[pos[r]] : nv;
    gsReal* B = w->block + w->blockadr[r];
    for (int p = 0; p < n; p++) {
      B[p * n + p] = w->diag[r + p];
      const gsReal* yp = z + pos[r + p];
      for (int q = p + 1; q < n; q++) {
        const gsReal* yq = z + pos[r + q];
        gsReal sum = 0;
        for (int i = 0; i < ne; i++) sum += yp[(size_t)i * nz] * yq[(size_t)i * nz];
        B[p * n + q] = B[q * n + p] = sum;
      }
    }
    if (n == 3) friction_eig(B, d->contact + d->efc_id[r], d->efc_R + r);
    else if (n > 3) friction_eign(B, n, d->contact + d->efc_id[r], d->efc_R + r);
  }
  w->A = A;
  w->z = z, w->nz = nz, w->ncol = ni, w->zrow = ind, w->zpos = pos, w->zspan = span;
  w->zscale = scale;
  return 1;
}

/* Y by rows, its runs, the diagonal of A and the elliptic contacts' blocks; u = 0. With
 * regularised, the rows' R count in inv (the main solve), else not (noslip). */
int gs_dualSetup(const gsModel* m, gsData* d, gsDual* w, int regularised) {
  int nv = m->nv, nefc = d->nefc;
  size_t rows = (size_t)nefc;
  w->blockadr = gs_arenaAlloc(d, sizeof(int) * rows);
  w->derive = gs_arenaAlloc(d, sizeof(int) * rows);
  w->diag = gs_arenaAlloc(d, sizeof(gsReal) * rows);
  w->inv = gs_arenaAlloc(d, sizeof(gsReal) * rows);
  w->b = gs_arenaAlloc(d, sizeof(gsReal) * rows);
  w->u = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nv);
  int* source = gs_arenaAlloc(d, sizeof(int) * rows);
  if (!w->blockadr || !w->derive || !w->diag || !w->inv || !w->b || !w->u || !source) return 0;
  /* the elliptic contacts' blocks */
  size_t nblock = 0;
  for (int r = 0; r < nefc; r++) {
    w->blockadr[r] = -1;
    if (d->efc_type[r] == GS_CNSTR_CONTACT_ELLIPTIC && (r == 0 || d->efc_id[r - 1] != d->efc_id[r] ||
                                                        d->efc_type[r - 1] != d->efc_type[r])) {
      int n = d->contact[d->efc_id[r]].dim;
      w->blockadr[r] = (int)nblock;
      nblock += (size_t)(n * n) + (n == 3 ? FRICTION_EIG : n > 3 ? FRICTION_EIGN(n) : 0);
    }
  }
  w->block = gs_arenaAlloc(d, sizeof(gsReal) * (nblock ? nblock : 1));
  if (!w->block) return 0;
  w->A = NULL;
  w->z = NULL;
  w->f = d->efc_force;
  w->nefc = nefc;
  for (int i = 0; i < nv; i++) w->u[i] = 0;
  if (regularised && setup_dense(m, d, w, source)) {
    /* Y's rows are not listed: the sweeps read A (dual.h's products take it when present) */
    w->adr = w->nnz = w->runadr = w->nrun = NULL;
    w->col = NULL, w->val = NULL, w->run = NULL;
    gs_mulJ(d, w->b, d->qacc_smooth);
    for (int r = 0; r < nefc; r++) w->b[r] -= d->efc_aref[r];
    w->same = source;
    for (int r = 0; r < nefc; r++) {
      gsReal A = w->diag[r] + d->efc_R[r];
      w->inv[r] = A > GS_MINVAL ? 1 / A : 0;
    }
    return 1;
  }
  w->adr = gs_arenaAlloc(d, sizeof(int) * rows);
  w->nnz = gs_arenaAlloc(d, sizeof(int) * rows);
  w->runadr = gs_arenaAlloc(d, sizeof(int) * rows);
  w->nrun = gs_arenaAlloc(d, sizeof(int) * rows);
  gsReal* z = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nv * GS_PGS_GROUP);
  gsReal* dsqrt = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nv);
  int* mark = gs_arenaAlloc(d, sizeof(int) * (size_t)nv);
  if (!w->adr || !w->nnz || !w->runadr || !w->nrun || !z || !dsqrt || !mark) return 0;
  /* sizes first: Y's non-zeros */
  for (int i = 0; i < nv; i++) mark[i] = -1;
  size_t total = 0;
  const int* pc = NULL;  /* the row before's columns, pn of them (none before row 0) */
  int pn = -1;
  for (int r = 0; r < nefc; r++) {
    w->adr[r] = (int)total;
    int n = d->efc_J_rownnz[r];
    const int* c = d->efc_J_colind + d->efc_J_rowadr[r];
    /* how Y's columns come: 1 those of the row before, 2 J's own, 0 the ancestors' walk */
    int same = same_columns(c, n, pc, pn);
    pc = c, pn = n;
    if (same) source[r] = 1, w->nnz[r] = w->nnz[r - 1];
    else if (closed_pattern(m, d, r, mark, r)) source[r] = 2, w->nnz[r] = d->efc_J_rownnz[r];
    else if (d->efc_J_rownnz[r] == 1)  /* one dof (a joint limit): it and its ancestors */
      source[r] = 0, w->nnz[r] = gs_rowLen(m, d->efc_J_colind[d->efc_J_rowadr[r]]);
    else source[r] = 0, w->nnz[r] = row_pattern(m, d, r, mark, nefc + r, NULL);
    total += (size_t)w->nnz[r];
  }
  if (total > 0x7fffffff) return 0;
  w->col = gs_arenaAlloc(d, sizeof(int) * (total ? total : 1));
  w->val = gs_arenaAlloc(d, sizeof(gsReal) * (total ? total : 1));
  if (!w->col || !w->val) return 0;

  /* the columns of each row and their runs of consecutive dofs, in one pass (at most a run a
   * column: capacity.c reserves that); a row with the columns of the row before shares its runs
   * (a contact's rows: most rows of a contact model) */
  w->run = gs_arenaAlloc(d, sizeof(int) * 2 * (total ? total : 1));
  if (!w->run) return 0;
  for (int i = 0; i < nv; i++) mark[i] = -1;
  int nruns = 0;
  for (int r = 0; r < nefc; r++) {
    int* col = w->col + w->adr[r];
    int n = w->nnz[r];
    if (source[r] == 1) {
      memcpy(col, col - n, sizeof(int) * (size_t)n);
      w->runadr[r] = w->runadr[r - 1], w->nrun[r] = w->nrun[r - 1];
      continue;
    }
    if (source[r] == 2) memcpy(col, d->efc_J_colind + d->efc_J_rowadr[r], sizeof(int) * (size_t)n);
    else row_pattern(m, d, r, mark, r, col);
    int* run = w->run + 2 * nruns;
    w->runadr[r] = nruns;
    for (int e = 0; e < n; e++) {
      if (e == 0 || col[e] != col[e - 1] + 1) {
        run[0] = col[e], run[1] = 0;
        run += 2;
      }
      run[-1]++;
    }
    w->nrun[r] = (int)(run - (w->run + 2 * nruns)) / 2;
    nruns += w->nrun[r];
  }

  for (int i = 0; i < nv; i++) dsqrt[i] = sqrt(d->qLDiagInv[i]);  /* u is zero from above */
  memset(z, 0, sizeof(gsReal) * (size_t)nv * GS_PGS_GROUP);
  gs_mulJ(d, w->b, d->qacc_smooth);
  for (int r = 0; r < nefc; r++) w->b[r] -= d->efc_aref[r];
  for (int r = 0; r < nefc;) {
    int k = 1, rows[GS_PGS_GROUP], ne = 0, n = w->nnz[r];
    while (r + k < nefc && k < GS_PGS_GROUP && source[r + k] == 1) k++;
    for (int t = 0; t < k; t++) {
      w->derive[r + t] = pyramid_first(d, source, r + t);
      if (w->derive[r + t] < 0) rows[ne++] = r + t;
    }
    eliminate_group(m, d, w, rows, ne, w->col + w->adr[r], n, z, dsqrt);
    /* the derived rows, from rows eliminated before them (in this group or an earlier one) */
    for (int q = r; q < r + k; q++) {
      int f = w->derive[q];
      if (f < 0) continue;
      const gsReal *y0 = w->val + w->adr[f], *y1 = w->val + w->adr[f + 1];
      const gsReal* yp = w->val + w->adr[q - 1];
      gsReal* y = w->val + w->adr[q];
      gsReal sum = 0;
      for (int e = 0; e < n; e++) {
        y[e] = (y0[e] + y1[e]) - yp[e];
        sum += y[e] * y[e];
      }
      w->diag[q] = sum;
    }
    r += k;
  }
  for (int r = 0; r < nefc; r++) source[r] = source[r] == 1;
  w->same = source;
  w->nefc = nefc;
  w->f = d->efc_force;
  w->A = NULL;
  for (int r = 0; r < nefc; r++) {
    /* a multiply in the sweeps, not a divide: the sweep is one chain of dependent rows */
    gsReal A = w->diag[r] + (regularised ? d->efc_R[r] : 0);
    w->inv[r] = A > GS_MINVAL ? 1 / A : 0;
  }
  for (int r = 0; r < nefc; r++) {
    if (w->blockadr[r] < 0) continue;
    int n = d->contact[d->efc_id[r]].dim;
    gsReal* B = w->block + w->blockadr[r];
    for (int p = 0; p < n; p++) {
      B[p * n + p] = w->diag[r + p];
      for (int q = p + 1; q < n; q++) B[p * n + q] = B[q * n + p] = gs_dualRowProduct(w, r + p, r + q);
    }
    if (n == 3) friction_eig(B, d->contact + d->efc_id[r], regularised ? d->efc_R + r : NULL);
    else if (n > 3) friction_eign(B, n, d->contact + d->efc_id[r], regularised ? d->efc_R + r : NULL);
  }
  return 1;
}

int gs_dualReuse(const gsModel* m, gsData* d, gsDual* w, const gsDual* kept) {
  *w = *kept;
  w->b = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)d->nefc);
  w->u = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)m->nv);
  if (!w->b || !w->u) return 0;
  memset(w->u, 0, sizeof(gsReal) * (size_t)m->nv);
  gs_mulJ(d, w->b, d->qacc_smooth);
  for (int r = 0; r < d->nefc; r++) w->b[r] -= d->efc_aref[r];
  return 1;
}

/* u = Y f for the forces efc_force holds */
void gs_dualAccumulate(gsData* d, gsDual* w, int nv) {
  for (int i = 0; i < nv; i++) w->u[i] = 0;
  if (w->A) return;  /* the dense rows read the forces themselves */
  for (int r = 0; r < d->nefc; r++)
    if (d->efc_force[r] != 0) gs_dualMoveU(w, r, d->efc_force[r]);
}

/* whether the n values of x are all finite */
static int all_finite(const gsReal* x, int n) {
  for (int i = 0; i < n; i++)
    if (!isfinite(x[i])) return 0;
  return 1;
}

/* Cholesky factor L of H + lam I (k x k, k <= 6, row-major lower triangle); 0 when H + lam I is
 * not positive definite */
static int small_factor(const gsReal* H, gsReal lam, int k, gsReal* L) {
  for (int i = 0; i < k; i++)
    for (int j = 0; j <= i; j++) {
      gsReal v = H[i * k + j] + (i == j ? lam : 0);
      for (int t = 0; t < j; t++) v -= L[i * k + t] * L[j * k + t];
      if (i == j) {
        if (!(v > 0)) return 0;
        L[i * k + i] = sqrt(v);
      } else {
        L[i * k + j] = v / L[j * k + j];
      }
    }
  return 1;
}

/* x = (L L^T)^-1 b, with q = L^-1 b on the way */
static void small_solve(const gsReal* L, const gsReal* b, int k, gsReal* x, gsReal* q) {
  for (int i = 0; i < k; i++) {
    gsReal v = b[i];
    for (int t = 0; t < i; t++) v -= L[i * k + t] * q[t];
    q[i] = v / L[i * k + i];
  }
  for (int i = k - 1; i >= 0; i--) {
    gsReal v = q[i];
    for (int t = i + 1; t < k; t++) v -= L[t * k + i] * x[t];
    x[i] = v / L[i * k + i];
  }
}

/* ball_qp for k = 2 in H's eigenvectors (q), c in them as (c1, c2): the secular equation is
 * sum_i c_i^2 / (l_i + lam)^2 = r^2, and ball_qp's Newton iteration takes scalar work. z in the
 * eigenvectors is -(w1, w2); returns lam, ||z|| in *nz (before the final scaling to r) and the
 * reciprocals 1 / (l_i + lam) in inv (cone_slope's derivative reads them). */
static gsReal ball_eig2(const eig2* q, gsReal c1, gsReal c2, gsReal r, gsReal lam0, gsReal* w1,
                        gsReal* w2, gsReal* nz, gsReal* inv) {
  gsReal l1 = q->l1, l2 = q->l2;
  gsReal lam = 0, x1 = c1 * q->il1, x2 = c2 * q->il2, n = sqrt(x1 * x1 + x2 * x2);
  gsReal i1 = q->il1, i2 = q->il2;
  if (lam0 > 0) {
    /* a warm start below the root keeps Newton's monotone convergence: ||z(lam0)|| >= r */
    gsReal y1 = c1 / (l1 + lam0), y2 = c2 / (l2 + lam0), ny = sqrt(y1 * y1 + y2 * y2);
    if (ny >= r) lam = lam0, x1 = y1, x2 = y2, n = ny;
  }
  if (lam > 0 || n > r) {
    /* the divisions are the iteration's latency: the step's quotient N / D and the two
     * reciprocals 1 / (e_i + N / D) after it; written D / (e_i D + N), the reciprocals need not
     * wait for the quotient (only the test of convergence reads it, a branch): one division on
     * the chain a step */
    gsReal e1 = l1 + lam, e2 = l2 + lam;
    if (lam > 0) i1 = 1 / e1, i2 = 1 / e2;
    for (int it = 0; it < 50; it++) {
      /* Newton on 1/||z(lam)|| = 1/r: z^T (H + lam I)^-1 z is a sum of two terms here */
      gsReal nq = x1 * x1 * i1 + x2 * x2 * i2;
      if (!(nq > 0)) break;
      gsReal N = n * n * (n - r), D = nq * r, next = lam + N / D;
      if (!(next > lam)) break;  /* converged to rounding */
      i1 = D / (e1 * D + N), i2 = D / (e2 * D + N);
      lam = next, e1 = l1 + lam, e2 = l2 + lam;
      x1 = c1 * i1, x2 = c2 * i2;
      n = sqrt(x1 * x1 + x2 * x2);
      if (fabs(n - r) <= 1e-14 * r) break;
    }
  }
  *w1 = x1, *w2 = x2, *nz = n;
  inv[0] = i1, inv[1] = i2;
  return lam;
}

/* z in the original coordinates from -(w1, w2) in q's eigenvectors, on the sphere of radius r
 * when rounding left it outside */
static void ball_back2(const eig2* q, gsReal w1, gsReal w2, gsReal nz, gsReal r, gsReal* z) {
  z[0] = -(w1 * q->v0 - w2 * q->v1);
  z[1] = -(w1 * q->v1 + w2 * q->v0);
  /* without a branch: on the sphere the iteration stops on either side of r by rounding, and the
   * test mispredicted about every other call. The factor is 1 (exactly) wherever the test was
   * false, NaN included (0 / 0 takes 1 as the test did) */
  gsReal k = r / nz;
  k = k < 1 ? k : 1;
  z[0] *= k, z[1] *= k;
}

/* minimise 1/2 z^T H z + c^T z over the ball ||z|| <= r (H k x k, symmetric positive semidefinite,
 * k <= 6); returns the multiplier lam of the ball (0 inside): the unconstrained minimiser when it lies inside, else (H + lam I) z = -c with
 * ||z|| = r and lam > 0, found by Newton's method on the secular equation 1/||z(lam)|| = 1/r,
 * which is concave in lam and converges monotonically from below (the trust-region subproblem;
 * Moré and Sorensen 1983) */
static gsReal ball_qp(const gsReal* H, const gsReal* c, int k, gsReal r, gsReal lam0, gsReal* z) {
  gsReal b[6] = {0}, q[6] = {0}, L[36];
  for (int i = 0; i < k; i++) b[i] = -c[i], z[i] = 0;
  if (!(r > 0) || k <= 0) return 0;
  eig2 q2;
  if (k == 2 && eig2_of(H[0], H[1], H[3], &q2)) {
    /* condim 3's two frictions: closed-form eigenvectors, a scalar secular equation */
    gsReal w1, w2, nz, inv[2];
    gsReal lam = ball_eig2(&q2, q2.v0 * c[0] + q2.v1 * c[1], q2.v0 * c[1] - q2.v1 * c[0], r, lam0,
                           &w1, &w2, &nz, inv);
    ball_back2(&q2, w1, w2, nz, r, z);
    return lam;
  }
  gsReal nz = 0, lam = 0;
  /* a warm start below the root keeps Newton's monotone convergence: ||z(lam0)|| >= r */
  if (lam0 > 0 && small_factor(H, lam0, k, L)) {
    small_solve(L, b, k, z, q);
    for (int i = 0; i < k; i++) nz += z[i] * z[i];
    nz = sqrt(nz);
    if (nz >= r) lam = lam0;
  }
  if (lam == 0) {
    gsReal scale = 0;
    for (int i = 0; i < k; i++) scale += H[i * k + i];
    gsReal floor = GS_MINVAL * (scale > 1 ? scale : 1);
    /* a singular H (noslip's unregularised rows) takes the smallest shift that factors; one
     * holding a NaN or an infinity factors under none (from a NaN state, when autoreset is off:
     * the ~315 tenfold shifts up to 1e300 at every block of every sweep took a step of a
     * 1252-contact coil 81 s), so it gives no force */
    while (!small_factor(H, lam, k, L)) {
      if (lam == 0 && !all_finite(H, k * k)) return 0;
      lam = lam > 0 ? 10 * lam : floor;
      if (lam > 1e300) return 0;
    }
    small_solve(L, b, k, z, q);
    nz = 0;
    for (int i = 0; i < k; i++) nz += z[i] * z[i];
    nz = sqrt(nz);
    if (nz <= r) return lam;
  }
  for (int it = 0; it < 50; it++) {
    /* Newton on 1/||z(lam)|| = 1/r: the step needs ||L^-1 z||^2 = z^T (H + lam I)^-1 z */
    gsReal nq = 0;
    for (int i = 0; i < k; i++) {
      gsReal v = z[i];
      for (int t = 0; t < i; t++) v -= L[i * k + t] * q[t];
      q[i] = v / L[i * k + i];
      nq += q[i] * q[i];
    }
    if (!(nq > 0)) break;
    gsReal next = lam + (nz * nz / nq) * (nz - r) / r;
    if (!(next > lam)) break;  /* converged to rounding */
    lam = next;
    if (!small_factor(H, lam, k, L)) break;
    small_solve(L, b, k, z, q);
    nz = 0;
    for (int i = 0; i < k; i++) nz += z[i] * z[i];
    nz = sqrt(nz);
    if (fabs(nz - r) <= 1e-14 * r) break;
  }
  /* on the sphere, whatever the last rounding left */
  if (nz > r)
    for (int i = 0; i < k; i++) z[i] *= r / nz;
  return lam;
}

/* a ball solve of ball_eig2 kept for later: the multiplier, -(w1, w2) and its norm nz, the
 * reciprocals; ok: whether it was taken */
typedef struct {
  gsReal lam, w1, w2, nz, inv[2];
  int ok;
} ball_point;

/* the state of one elliptic block through its update: the forces f (moved here, written back
 * with u at the end), the gradient G of the block's cost at f (regulariser included where the pass
 * counts it), and the block's A (B, n x n) and R */
typedef struct {
  const gsContact* c;
  const gsReal* B;
  int n;
  gsReal R[6], f[6], G[6];
  ball_point ball;  /* friction_step's closed-form ball at the normal force f[0] */
} block_state;

/* f_p += delta, and the gradient with it: G += (B + R)_(:,p) delta */
static void block_shift(block_state* s, int p, gsReal delta) {
  int n = s->n;
  s->f[p] += delta;
  if (n == 3) {
    s->G[0] += s->B[p] * delta;
    s->G[1] += s->B[3 + p] * delta;
    s->G[2] += s->B[6 + p] * delta;
    s->G[p] += s->R[p] * delta;
    return;
  }
  for (int q = 0; q < n; q++) s->G[q] += s->B[q * n + p] * delta;
  s->G[p] += s->R[p] * delta;
}

/* the block's rows idx (k of them) as a problem in the scaled forces x_i / mu_i: A = B + R on
 * those rows; the cost in the absolute forces x, 1/2 x^T A x + (G - A f)^T x, becomes
 * 1/2 z^T H z + cs^T z with H = mu A mu, cs = mu (G - A f) */
static void scaled_block(const block_state* s, const int* idx, const gsReal* mu, int k, gsReal* A,
                         gsReal* H, gsReal* cs) {
  int n = s->n;
  for (int i = 0; i < k; i++)
    for (int j = 0; j < k; j++)
      A[i * k + j] = s->B[idx[i] * n + idx[j]] + (i == j ? s->R[idx[i]] : 0);
  for (int i = 0; i < k; i++) {
    gsReal ci = s->G[idx[i]];
    for (int j = 0; j < k; j++) ci -= A[i * k + j] * s->f[idx[j]];
    cs[i] = mu[i] * ci;
    for (int j = 0; j < k; j++) H[i * k + j] = mu[i] * A[i * k + j] * mu[j];
  }
}

/* the cost change of moving the block's rows idx by dx: G^T dx + 1/2 dx^T A dx */
static gsReal step_cost(const block_state* s, const int* idx, const gsReal* A, const gsReal* dx,
                        int k) {
  gsReal dc = 0;
  for (int i = 0; i < k; i++) {
    dc += s->G[idx[i]] * dx[i];
    for (int j = 0; j < k; j++) dc += 0.5 * dx[i] * A[i * k + j] * dx[j];
  }
  return dc;
}

/* ball_qp with H = V diag(l) V^T (friction_eign's, k values): in y = V^T z the minimiser at the
 * ball's multiplier lam is y_i = -w_i / (l_i + lam), w = V^T c, so the Newton steps on the
 * secular equation 1/||z(lam)|| = 1/r (ball_qp's, from its warm start lam0 where that lies
 * below the root) take scalar sums, not a factor and two solves each: the same minimiser to
 * rounding. Returns lam. */
static gsReal ball_eign(const gsReal* l, const gsReal* V, const gsReal* c, int k, gsReal r,
                        gsReal lam0, gsReal* z) {
  gsReal w[5], y[5], lam = 0, nz = 0;
  for (int i = 0; i < k; i++) z[i] = 0;
  if (!(r > 0)) return 0;
  for (int i = 0; i < k; i++) {
    w[i] = 0;
    for (int j = 0; j < k; j++) w[i] += V[j * k + i] * c[j];
  }
  if (lam0 > 0) {
    for (int i = 0; i < k; i++) {
      y[i] = -w[i] / (l[i] + lam0);
      nz += y[i] * y[i];
    }
    nz = sqrt(nz);
    if (nz >= r) lam = lam0;
  }
  if (lam == 0) {
    nz = 0;
    for (int i = 0; i < k; i++) {
      y[i] = -w[i] / l[i];
      nz += y[i] * y[i];
    }
    nz = sqrt(nz);
  }
  for (int it = 0; nz > r && it < 50; it++) {
    /* ||L^-1 z||^2 of ball_qp's step: z^T (H + lam I)^-1 z */
    gsReal nq = 0;
    for (int i = 0; i < k; i++) nq += y[i] * y[i] / (l[i] + lam);
    if (!(nq > 0)) break;
    gsReal next = lam + (nz * nz / nq) * (nz - r) / r;
    if (!(next > lam)) break;  /* converged to rounding */
    lam = next;
    nz = 0;
    for (int i = 0; i < k; i++) {
      y[i] = -w[i] / (l[i] + lam);
      nz += y[i] * y[i];
    }
    nz = sqrt(nz);
    if (fabs(nz - r) <= 1e-14 * r) break;
  }
  /* on the sphere, whatever the last rounding left */
  gsReal scale = nz > r ? r / nz : 1;
  for (int i = 0; i < k; i++) {
    gsReal v = 0;
    for (int j = 0; j < k; j++) v += V[i * k + j] * y[j];
    z[i] = v * scale;
  }
  return lam;
}

/* the friction rows of an elliptic contact with its normal force fixed: minimise the dual cost
 * over the friction forces f_i with sum (f_i / mu_i)^2 <= normal^2, in the scaled forces
 * z_i = f_i / mu_i (a ball); rows with no friction coefficient keep no force. Returns the cost
 * change. */
static gsReal friction_step(block_state* s, gsReal normal) {
  int n = s->n, idx[5], k = 0;
  gsReal A[25], H[25], cs[5], z[5], mu[5];
  eig2 q;
  if (n == 3 && s->c->friction[0] > 0 && s->c->friction[1] > 0) {
    /* condim 3 with both frictions: the same steps with the 2 x 2 ball in closed form */
    const gsReal* B = s->B;
    gsReal m1 = s->c->friction[0], m2 = s->c->friction[1];
    gsReal a11 = B[4] + s->R[1], a12 = B[5], a22 = B[8] + s->R[2];
    gsReal f1 = s->f[1], f2 = s->f[2], g1 = s->G[1], g2 = s->G[2];
    const gsReal* e = B + 9;  /* friction_eig's, for this R */
    q.l1 = e[0], q.l2 = e[1], q.v0 = e[2], q.v1 = e[3], q.il1 = e[4], q.il2 = e[5];
    if (q.l1 > 0) {
      gsReal c1 = m1 * (g1 - a11 * f1 - a12 * f2), c2 = m2 * (g2 - a12 * f1 - a22 * f2);
      gsReal w1, w2, nz, zz[2], inv[2];
      s->ball.lam =
          ball_eig2(&q, q.v0 * c1 + q.v1 * c2, q.v0 * c2 - q.v1 * c1, normal, 0, &w1, &w2, &nz, inv);
      s->ball.w1 = w1, s->ball.w2 = w2, s->ball.nz = nz, s->ball.ok = 1;
      s->ball.inv[0] = inv[0], s->ball.inv[1] = inv[1];
      ball_back2(&q, w1, w2, nz, normal, zz);
      gsReal d1 = m1 * zz[0] - f1, d2 = m2 * zz[1] - f2;
      gsReal dc = g1 * d1 + g2 * d2 + 0.5 * (a11 * d1 * d1 + 2 * a12 * d1 * d2 + a22 * d2 * d2);
      if (d1 != 0) block_shift(s, 1, d1);
      if (d2 != 0) block_shift(s, 2, d2);
      return dc;
    }
  }
  for (int p = 1; p < n; p++) {
    if (s->c->friction[p - 1] > 0) {
      idx[k] = p;
      mu[k] = s->c->friction[p - 1];
      k++;
    } else if (s->f[p] != 0) {
      block_shift(s, p, -s->f[p]);
    }
  }
  if (!k) return 0;
  scaled_block(s, idx, mu, k, A, H, cs);
  const gsReal* l = s->B + n * n;  /* friction_eign's, for condim 4 and 6 (all frictions) */
  if (n > 3 && l[0] > 0) ball_eign(l, l + k, cs, k, normal, 0, z);
  else ball_qp(H, cs, k, normal, 0, z);
  gsReal dx[5], dc = 0;
  for (int i = 0; i < k; i++) dx[i] = mu[i] * z[i] - s->f[idx[i]];
  dc = step_cost(s, idx, A, dx, k);
  /* applied even when it costs more: the forces it replaces may lie outside the ellipse of a
   * normal force just lowered */
  for (int i = 0; i < k; i++)
    if (dx[i] != 0) block_shift(s, idx[i], dx[i]);
  return dc;
}
/* the cone problem of cone_qp: H (k x k), c; for k = 3 the frictions' 2 x 2 block of H by its
 * eigenvectors (eig), with c_t and H's column 0 in them, which every value of s shares */
typedef struct {
  const gsReal* H;
  const gsReal* c;
  int k, eig;
  eig2 q;
  gsReal c1, c2, h1, h2;
  const gsReal *el, *ev;  /* k > 3: the frictions' block by friction_eign (NULL: none) */
} cone_problem;

static void cone_problem_of(const gsReal* H, const gsReal* c, int k, cone_problem* p) {
  p->H = H, p->c = c, p->k = k, p->eig = 0;
  p->el = p->ev = NULL;
  if (k == 3 && eig2_of(H[4], H[5], H[8], &p->q)) {
    gsReal v0 = p->q.v0, v1 = p->q.v1;
    p->eig = 1;
    p->c1 = v0 * c[1] + v1 * c[2], p->c2 = v0 * c[2] - v1 * c[1];
    p->h1 = v0 * H[3] + v1 * H[6], p->h2 = v0 * H[6] - v1 * H[3];
  }
}

/* cone_slope for k = 3 from a ball solve b at s (ball_eig2 on c_t + H_t0 s in the frictions'
 * eigenvectors, a_i = c_i + h_i s): y_t written to t, F'(s) returned, F''(s) in *curv, the
 * multiplier's derivative in *dlam. With e_i = l_i + lam and w_i = a_i / e_i,
 * F'(s) = H_00 s + c_0 - lam s - sum h_i w_i. Inside the ball (lam = 0) F'' = H_00 - sum h_i^2 / l_i,
 * the Schur complement; on the sphere sum w_i^2 = s^2 fixes lam(s), whose derivative by the
 * implicit function theorem is lam' = (P - s) / Q with P = sum h_i w_i / e_i,
 * Q = sum w_i^2 / e_i, and F'' = H_00 - lam - sum h_i^2 / e_i + lam' (P - s) */
static gsReal eig_slope(const cone_problem* p, gsReal s, const ball_point* b, gsReal* t,
                        gsReal* curv, gsReal* dlam) {
  const gsReal* H = p->H;
  gsReal h1 = p->h1, h2 = p->h2, w1 = b->w1, w2 = b->w2, lam = b->lam;
  gsReal i1 = b->inv[0], i2 = b->inv[1];
  ball_back2(&p->q, w1, w2, b->nz, s, t);
  gsReal d2 = H[0] - h1 * h1 * i1 - h2 * h2 * i2;
  *dlam = 0;
  if (lam > 0) {
    gsReal P = (h1 * w1) * i1 + (h2 * w2) * i2 - s;
    gsReal Q = (w1 * w1) * i1 + (w2 * w2) * i2;
    *dlam = Q > 0 ? P / Q : 0;
    d2 += *dlam * P - lam;
  }
  *curv = d2;
  return H[0] * s + p->c[0] - lam * s + H[1] * t[0] + H[2] * t[1];
}

/* the derivative at the normal value s of F(s) = min over ||y_t|| <= s of 1/2 y^T H y + c^T y with
 * y = (s, y_t) (y_t written to t): by the envelope theorem, the partial in y_0 less the ball's
 * multiplier times s. *curv: F''(s) where the closed form has it (k = 3), else 0 */
static gsReal cone_slope(const cone_problem* p, gsReal s, gsReal* lam, gsReal* t, gsReal* curv,
                         gsReal* dlam) {
  const gsReal *H = p->H, *c = p->c;
  int k = p->k, m = k - 1;
  *curv = 0, *dlam = 0;
  if (!(s > 0)) {
    /* at the apex, from the right: the frictions grow along -c_t, F(s) ~ (c_0 - |c_t|) s (so the
     * apex is the minimum exactly when c is in the cone, which is its own dual) */
    gsReal nt = 0;
    for (int i = 0; i < m; i++) t[i] = 0, nt += c[i + 1] * c[i + 1];
    return c[0] - sqrt(nt);
  }
  if (p->eig) {
    /* c_t + H_t0 s in the eigenvectors: linear in s */
    ball_point b;
    *lam = ball_eig2(&p->q, p->c1 + p->h1 * s, p->c2 + p->h2 * s, s, *lam, &b.w1, &b.w2, &b.nz,
                     b.inv);
    b.lam = *lam;
    return eig_slope(p, s, &b, t, curv, dlam);
  }
  gsReal Ht[25], ct[5];
  for (int i = 0; i < m; i++) ct[i] = c[i + 1] + H[(i + 1) * k] * s;
  if (p->el) {
    *lam = ball_eign(p->el, p->ev, ct, m, s, *lam, t);
  } else {
    for (int i = 0; i < m; i++)
      for (int j = 0; j < m; j++) Ht[i * m + j] = H[(i + 1) * k + j + 1];
    *lam = ball_qp(Ht, ct, m, s, *lam, t);
  }
  gsReal slope = H[0] * s + c[0] - *lam * s;
  for (int i = 0; i < m; i++) slope += H[i + 1] * t[i];
  return slope;
}

/* minimise 1/2 y^T H y + c^T y over the second-order cone ||y_1..k-1|| <= y_0 (H k x k symmetric
 * positive definite, 2 <= k <= 6), exactly: over the normal value s >= 0 of the convex
 * F(s) = min over ||y_t|| <= s (a ball, ball_qp), whose derivative is nondecreasing: the apex
 * when F'(0+) >= 0, else the root of F'. From `guess` (the current normal force: the sweeps
 * move it little), Newton's steps on F' where cone_slope has F'' (k = 3: quadratic convergence,
 * ~3 evaluations a call against ~7 for regula falsi), kept inside the bracket of the root the
 * evaluations build; outside it, or without F'', the bracket grows by doubling and then shrinks
 * by regula falsi (Illinois). `at` (may be NULL): the ball already solved at s = guess (the
 * block's friction step), the first evaluation when k = 3 */
static void cone_qp(const gsReal* H, const gsReal* c, int k, gsReal guess, const ball_point* at,
                    const gsReal* eig, gsReal* y) {
  gsReal t[5] = {0}, lam = 0, curv, dlam, start = 0;
  for (int i = 0; i < k; i++) y[i] = 0;
  if (k <= 1) {
    if (k == 1 && H[0] > 0 && c[0] < 0) y[0] = -c[0] / H[0];
    return;
  }
  cone_problem p;
  cone_problem_of(H, c, k, &p);
  if (eig && k > 3) p.el = eig, p.ev = eig + (k - 1);  /* friction_eign's, for H's frictions */
  gsReal lo = 0, flo = cone_slope(&p, 0, &lam, t, &curv, &dlam);
  if (flo >= 0) return;  /* the apex */
  gsReal s = guess > 0 ? guess : H[0] > 0 ? -c[0] / H[0] : 1;
  if (!(s > 0)) s = 1;
  /* the ball's multiplier falls with s, so its value at the bracket's upper end lies below the
   * root at every s inside the bracket: each evaluation there starts from it (ball_eig2 and
   * ball_qp check the start and take zero where it is not below the root) */
  gsReal hi = DBL_MAX, fhi = 0, lamhi = 0, fs = 0;  /* DBL_MAX: no upper end yet */
  int side = 0, known = at && at->ok && p.eig && s == guess;
  for (int it = 0; it < 300; it++) {
    if (known) {
      known = 0, lam = at->lam;
      fs = eig_slope(&p, s, at, t, &curv, &dlam);
    } else {
      lam = s < hi && lamhi > start ? lamhi : start;
      fs = cone_slope(&p, s, &lam, t, &curv, &dlam);
    }
    /* the tolerance on F': rounding of its terms */
    if (fabs(fs) <= 1e-13 * (fabs(c[0]) + H[0] * s) + GS_MINVAL) break;
    if (fs < 0) {
      lo = s, flo = fs;
      if (side == -1) fhi *= 0.5;  /* Illinois: the end kept twice counts half */
      side = -1;
    } else {
      hi = s, fhi = fs, lamhi = lam;
      if (side == 1) flo *= 0.5;
      side = 1;
    }
    if (hi - lo <= 1e-15 * hi) break;
    gsReal next = s - fs / curv;  /* curv = 0: infinite or NaN, refused below */
    if (!(next > lo && next < hi)) {
      if (hi == DBL_MAX) {
        next = 2 * s;
      } else {
        next = (lo * fhi - hi * flo) / (fhi - flo);
        if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
      }
    }
    /* the next evaluation's start for the ball's multiplier: its tangent at s (where cone_slope
     * has lam', a start below the root more often than not, and checked there), else lamhi */
    start = dlam != 0 ? lam + dlam * (next - s) : 0;
    s = next;
  }
  y[0] = s;
  for (int i = 1; i < k; i++) y[i] = t[i - 1];
}

/* the block's exact minimiser over its cone (cone_qp), only when the forces miss the block's
 * optimality conditions (in y = x / mu: y in the cone, the gradient G in the cone, which is
 * its own dual, and y.G = 0) by more than 1e-6 of the block's scale; returns the cost change */
static gsReal block_exact(block_state* s) {
  int n = s->n;
  /* the rows that take part: the normal, and the frictions with a coefficient (those without one
   * carry no force) */
  int idx[6], k = 0;
  gsReal mu[6], A[36], H[36], cs[6], y[6];
  for (int p = 0; p < n; p++) {
    if (p > 0 && !(s->c->friction[p - 1] > 0)) {
      if (s->f[p] != 0) block_shift(s, p, -s->f[p]);
      continue;
    }
    idx[k] = p;
    mu[k] = p ? s->c->friction[p - 1] : 1;
    k++;
  }
  {
    /* the gradient at the current forces, in y */
    gsReal Gy[6] = {0}, yy[6] = {0}, g0 = 0, gt = 0, yg = 0, size = 0;
    for (int i = 0; i < k; i++) {
      Gy[i] = mu[i] * s->G[idx[i]];
      yy[i] = s->f[idx[i]] / mu[i];
      size += fabs(Gy[i]) + mu[i] * mu[i] * (s->B[idx[i] * (n + 1)] + s->R[idx[i]]) * fabs(yy[i]);
      yg += Gy[i] * yy[i];
      if (i) gt += Gy[i] * Gy[i];
    }
    g0 = Gy[0];
    gt = sqrt(gt);
    gsReal tol = 1e-6 * size + GS_MINVAL;
    if (gt - g0 <= tol && fabs(yg) <= tol * (fabs(yy[0]) + 1)) return 0;
    /* a block with a NaN or an infinity (a NaN state stepped on with autoreset off) has no
     * minimiser to find: cone_qp's 300 evaluations, each a ball solve to its own limit, at every
     * block of every sweep */
    if (!(size < INFINITY)) return 0;
  }
  scaled_block(s, idx, mu, k, A, H, cs);  /* y = x / mu: the cone */
  /* every friction with a coefficient (k = n): H's friction block is friction_eign's */
  const gsReal* eig = s->B + n * n;
  cone_qp(H, cs, k, s->f[0], &s->ball, n > 3 && k == n && eig[0] > 0 ? eig : NULL, y);
  gsReal dx[6] = {0}, dc = 0;  /* k of them written below (GCC cannot tell that k <= 6) */
  for (int i = 0; i < k; i++) dx[i] = mu[i] * y[i] - s->f[idx[i]];
  dc = step_cost(s, idx, A, dx, k);
  /* the block's exact minimiser cannot cost more than the forces it replaces (they are in the
   * cone) but for rounding */
  if (!(dc < 0)) return 0;
  for (int i = 0; i < k; i++) block_shift(s, idx[i], dx[i]);
  return dc;
}

/* whether the block's rows share row r's columns (a contact's rows do): then their values lie
 * consecutive in val, nnz[r] apart, and one pass over u serves them all */
static int block_shared(const gsDual* w, int r, int n) {
  for (int p = 1; p < n; p++)
    if (!w->same[r + p]) return 0;
  return 1;
}

/* g_p = (A f)_(r+p) + b_(r+p) for the block's rows */
static void block_grad(const gsDual* w, int r, int n, gsReal* g) {
  if (w->A) {
    int N = w->nefc;
    const gsReal *a = w->A + (size_t)r * N, *f = w->f;
#ifdef GS_PAIR
    if (n == 3) {
      /* the three rows in one pass over f, two values at a time */
      gs_pair p0 = {0, 0}, p1 = {0, 0}, p2 = {0, 0};
      int k = 0;
      for (; k + 2 <= N; k += 2) {
        gs_pair fk = gs_pairLoad(f + k);
        p0 += gs_pairLoad(a + k) * fk;
        p1 += gs_pairLoad(a + N + k) * fk;
        p2 += gs_pairLoad(a + 2 * N + k) * fk;
      }
      gsReal s0 = p0[0], s1 = p1[0], s2 = p2[0];
      for (; k < N; k++) s0 += a[k] * f[k], s1 += a[N + k] * f[k], s2 += a[2 * N + k] * f[k];
      g[0] = w->b[r] + (s0 + p0[1]), g[1] = w->b[r + 1] + (s1 + p1[1]);
      g[2] = w->b[r + 2] + (s2 + p2[1]);
      return;
    }
#endif
    for (int p = 0; p < n; p++) g[p] = w->b[r + p] + gs_dotN(a + (size_t)p * N, f, N);
    return;
  }
  if (!block_shared(w, r, n)) {
    for (int p = 0; p < n; p++) g[p] = gs_dualRowGrad(w, r + p);
    return;
  }
  const int* run = w->run + 2 * w->runadr[r];
  const gsReal* y = w->val + w->adr[r];
  int nnz = w->nnz[r], e = 0;
  if (n == 3) {
    /* condim 3, the usual contact: its own loop, three sums in registers */
    gsReal s0 = 0, s1 = 0, s2 = 0;
    for (int t = 0, nrun = w->nrun[r]; t < nrun; t++, run += 2) {
      const gsReal* u = w->u + run[0];
      for (int k = 0; k < run[1]; k++, e++) {
        s0 += y[e] * u[k];
        s1 += y[nnz + e] * u[k];
        s2 += y[2 * nnz + e] * u[k];
      }
    }
    g[0] = w->b[r] + s0, g[1] = w->b[r + 1] + s1, g[2] = w->b[r + 2] + s2;
    return;
  }
  gsReal sum[6] = {0};
  for (int t = 0, nrun = w->nrun[r]; t < nrun; t++, run += 2) {
    const gsReal* u = w->u + run[0];
    for (int k = 0; k < run[1]; k++, e++)
      for (int p = 0; p < n; p++) sum[p] += y[p * nnz + e] * u[k];
  }
  for (int p = 0; p < n; p++) g[p] = w->b[r + p] + sum[p];
}

/* u += sum_p Y_(r+p) delta_p */
static void block_move(gsDual* w, int r, int n, const gsReal* delta) {
  if (w->A) return;
  if (!block_shared(w, r, n)) {
    for (int p = 0; p < n; p++)
      if (delta[p] != 0) gs_dualMoveU(w, r + p, delta[p]);
    return;
  }
  const int* run = w->run + 2 * w->runadr[r];
  const gsReal* y = w->val + w->adr[r];
  int nnz = w->nnz[r], e = 0;
  if (n == 3) {
    gsReal d0 = delta[0], d1 = delta[1], d2 = delta[2];
    for (int t = 0, nrun = w->nrun[r]; t < nrun; t++, run += 2) {
      gsReal* u = w->u + run[0];
      for (int k = 0; k < run[1]; k++, e++) u[k] += y[e] * d0 + y[nnz + e] * d1 + y[2 * nnz + e] * d2;
    }
    return;
  }
  for (int t = 0, nrun = w->nrun[r]; t < nrun; t++, run += 2) {
    gsReal* u = w->u + run[0];
    for (int k = 0; k < run[1]; k++, e++) {
      gsReal v = 0;
      for (int p = 0; p < n; p++) v += y[p * nnz + e] * delta[p];
      u[k] += v;
    }
  }
}

/* one elliptic contact at rows r .. r+n-1: its normal force by the exact minimiser with the
 * frictions fixed (clipped at 0), then the frictions on the ellipse that normal force allows; this
 * cheap pair of steps stalls where the optimum needs both to move at once (out of the apex, along
 * the cone's surface), so the block's exact minimiser follows when the result misses the block's
 * optimality conditions (noslip: the frictions only, under the normal force it is given). The
 * block's gradient is read from u once and then follows the forces through the block's own A;
 * u moves once, at the end. Returns the cost change. */
gsReal gs_dualBlockUpdate(gsData* d, gsDual* w, int r, int n, int noslip) {
  /* not zeroed whole: only the block's n rows are read, and a zeroed struct cost a string store
   * (a mispredicted exit at every call); its three vectors are cleared by plain stores */
  static const gsReal zero6[6] = {0};
  block_state s;
  gsReal f0[6], delta[6];
  memcpy(s.R, zero6, sizeof s.R);
  memcpy(s.f, zero6, sizeof s.f);
  memcpy(s.G, zero6, sizeof s.G);
  s.c = d->contact + d->efc_id[r];
  s.B = w->block + w->blockadr[r];
  s.n = n;
  s.ball.ok = 0;
  block_grad(w, r, n, s.G);
  for (int p = 0; p < n; p++) {
    s.R[p] = noslip ? 0 : d->efc_R[r + p];
    s.f[p] = f0[p] = d->efc_force[r + p];
    s.G[p] += s.R[p] * s.f[p];
  }
  gsReal dc = 0;
  if (noslip) {
    dc = friction_step(&s, s.f[0]);
  } else {
    gsReal A0 = s.B[0] + s.R[0];
    if (A0 > GS_MINVAL) {
      gsReal g = s.G[0], x = s.f[0] - g / A0;
      x = x < 0 ? 0 : x;
      gsReal step = x - s.f[0];
      if (step != 0) {
        block_shift(&s, 0, step);
        dc += g * step + 0.5 * A0 * step * step;
      }
    }
    dc += friction_step(&s, s.f[0]);
    /* while the pair of steps makes progress, the sweeps carry on with it; stalled, the block's
     * optimality is checked and, when missed, the exact minimiser takes over */
    gsReal size = A0 * s.f[0] * s.f[0];
    if (!(dc < -1e-10 * size)) dc += block_exact(&s);
  }
  int moved = 0;
  for (int p = 0; p < n; p++) {
    delta[p] = s.f[p] - f0[p];
    d->efc_force[r + p] = s.f[p];
    moved |= delta[p] != 0;
  }
  if (moved) block_move(w, r, n, delta);
  return dc;
}

/* x = M^-1 J^T f from the dense setup's Y: L^-1 D^-1/2 (Y f), where M^-1 = L^-1 D^-1 L^-T and
 * Y = D^-1/2 L^-T J^T, so the first half of the solve (L^-T J^T) is the elimination's, done
 * already; Y f reads each dof's span of z's columns. The pyramids' derived rows (their Y rows
 * Y_f + Y_f+1 - Y_q-1) add their forces to the three columns. 0 when the arena has no room. */
static int dense_accel(const gsModel* m, gsData* d, const gsDual* w, gsReal* x) {
  int nv = m->nv, nz = w->nz;
  gsReal* g = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)(w->ncol ? w->ncol : 1));
  if (!g) return 0;
  const gsReal* f = d->efc_force;
  for (int a = 0; a < w->ncol; a++) g[a] = f[w->zrow[a]];  /* the spans end before ncol */
  for (int q = 0; q < d->nefc; q++) {
    int r = w->derive[q];
    if (r < 0) continue;
    g[w->zpos[r]] += f[q];
    g[w->zpos[r + 1]] += f[q];
    g[w->zpos[q - 1]] -= f[q];
  }
  for (int i = 0; i < nv; i++) {
    int lo = w->zspan[2 * i], hi = w->zspan[2 * i + 1];
    const gsReal* zi = w->z + (size_t)i * nz;
    gsReal s0 = 0, s1 = 0;
    int a = lo;
    for (; a + 1 <= hi; a += 2) {
      s0 += zi[a] * g[a];
      s1 += zi[a + 1] * g[a + 1];
    }
    if (a == hi) s0 += zi[a] * g[a];
    x[i] = s0 + s1;
  }
  gs_solveLowerScaled(m, d, x, w->zscale);
  return 1;
}

void gs_dualFinish(const gsModel* m, gsData* d, const gsDual* w, int rates) {
  int nefc = d->nefc;
  size_t mark = gs_arenaMark(d);
  int dense = w && w->z && dense_accel(m, d, w, d->qacc);
  gs_arenaRelease(d, mark);
  if (!dense || !rates) gs_mulJT(m, d, d->qfrc_constraint, d->efc_force);
  if (!dense) gs_solveM(m, d, d->qacc, d->qfrc_constraint, 1);
  for (int i = 0; i < m->nv; i++) d->qacc[i] += d->qacc_smooth[i];
  if (rates) return;
  gsReal* jar = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nefc);
  gsReal* f = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nefc);
  if (jar && f) {
    gs_constraintResidual(d, d->qacc, jar);
    gs_constraintForce(m, d, jar, f, d->efc_state, NULL);
  }
  gs_arenaRelease(d, mark);
}

