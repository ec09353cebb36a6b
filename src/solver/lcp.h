/* Solvers of the small dense problems of rigid-contact inverse dynamics (seed 004): Lemke's
 * algorithm (lemke.c), the warm-started principal pivoting method I on a low-rank factored LCP
 * (ppm.c) and a convex QP solved through its KKT conditions (qp.c). Matrices are row-major. Each
 * takes its scratch from a caller's buffer of the size its *Work function gives, so that the
 * callers can carve it from the data's arena (or from the heap, in tests). */
#ifndef GAUSS_SOLVER_LCP_H
#define GAUSS_SOLVER_LCP_H

#include "gauss/model.h"

typedef struct {
  int pivots;        /* pivots (Lemke) or principal pivots (PPM), all attempts together */
  int status;        /* 0 solved, 1 solved after regularisation, -1 not solved */
  int fallback;      /* PPM: 1 when it handed the problem to Lemke */
  gsReal reg;        /* the regularisation of the accepted attempt (0: none) */
  gsReal residual;   /* max_i |min(z_i, w_i)| with the unregularised matrix */
} gsLCPStat;

/* LCP: w = q + M z, z >= 0, w >= 0, z^T w = 0. Lemke with the covering vector e, a lexicographic
 * ratio test (no cycling under degeneracy), and, when a ray ends it or maxpivot is reached, again
 * on M + eps I for eps growing from reg0 (0: 1e-10 of M's largest entry) by 100 up to 1e-2 of it,
 * keeping a regularised solution when its residual on M is within 1e-6 (1 + max |q|) (a problem
 * without solution gives -1, not the huge z the regularisation balances). An unregularised
 * solution is kept when every row solves to its own terms' size, |min(z_i, w_i)| <= 1e-8 (1 +
 * |q_i| + sum_j |M_ij z_j|), w = q + M z recomputed from M and q. Returns stat->status. */
size_t gs_lemkeWork(int n);
int gs_lemke(int n, const gsReal* M, const gsReal* q, gsReal* z, gsReal* w, gsReal reg0,
             int maxpivot, gsLCPStat* stat, gsReal* work);

/* LCP with M = G G^T, G n x r (r small: the dofs that contact forces move): Algorithm 2 of
 * seed 004. Only |nb| x |nb| systems G_nb G_nb^T are formed, nb the non-basic (positive z) set,
 * at most r of them. nb/nnb: on entry the warm start (indices of a previous solve, duplicates and
 * out-of-range ones dropped; nnb 0: cold), on exit the final set. nb needs room for n ints.
 * When it does not settle within maxiter principal pivots it forms M and runs gs_lemke. */
size_t gs_ppmWork(int n, int r);
int gs_ppm(int n, int r, const gsReal* G, const gsReal* q, gsReal* z, gsReal* w, int* nb,
           int* nnb, int maxiter, gsLCPStat* stat, gsReal* work);

/* Convex QP: minimise 1/2 x^T H x + g^T x subject to A x >= b (mA rows) and, when nonneg, x >= 0.
 * nonneg: the KKT conditions are the LCP in (x, lambda) of matrix [H -A^T; A 0], monotone, solved
 * by gs_lemke. Otherwise, with H positive definite, x = H^-1 (A^T lambda - g) and the LCP in
 * lambda is A H^-1 A^T; with H singular, x = x+ - x- and the nonneg form on both. reg: Lemke's
 * first regularisation (0: its default). lambda (mA) may be NULL. Returns stat->status. */
size_t gs_qpWork(int n, int mA, int nonneg);
int gs_qp(int n, const gsReal* H, const gsReal* g, int mA, const gsReal* A, const gsReal* b,
          int nonneg, gsReal reg, gsReal* x, gsReal* lambda, gsLCPStat* stat, gsReal* work);

/* Every solution of a small LCP by its complementary bases (seed 004, Algorithm 3, by
 * enumeration: 2^n principal systems, n <= GS_LCP_ENUM_MAX), and the one nearest z0 in
 * sum_i wt_i (z_i - z0_i)^2 into z (w with it). Returns how many bases gave a solution (0: none:
 * z and w untouched). */
#define GS_LCP_ENUM_MAX 16
size_t gs_lcpEnumWork(int n);
int gs_lcpNearest(int n, const gsReal* M, const gsReal* q, const gsReal* z0, const gsReal* wt,
                  gsReal* z, gsReal* w, gsReal* work);

/* Algorithm 3 by contact modes for the Coulomb LCP with a four-edge pyramid: contact c's force
 * f_c = (normal, t1, t2) (3nc), its velocity u = b + K f (K 3nc x 3nc, symmetric PSD), the
 * conditions 0 <= f_N _|_ u_N >= 0, |f_t1| + |f_t2| <= mu f_N, and the pyramid's maximal
 * dissipation (eq. 58 with E lambda). Enumerates the ten modes of each contact (apart, sticking,
 * sliding against one of four edges or four faces) by branch and bound on sum_c |f_c - f0_c|^2
 * and returns into f the nearest solution it finds (lambda: nc), the nearest point of an
 * indeterminate mode's continuum included. maxbases > 0 stops after that many assignments (the
 * best so far is kept); *bases (may be NULL) counts those solved. Returns the number of
 * assignments that gave a solution (0: none found, f untouched). nc <= GS_FRICTION_ENUM_MAX. */
#define GS_FRICTION_ENUM_MAX 4
size_t gs_frictionEnumWork(int nc);
int gs_frictionNearest(int nc, const gsReal* K, const gsReal* b, const gsReal* mu,
                       const gsReal* f0, long maxbases, gsReal* f, gsReal* lambda, long* bases,
                       gsReal* work);

/* max_i |min(z_i, w_i)|: zero exactly at a solution */
gsReal gs_lcpResidual(int n, const gsReal* z, const gsReal* w);

#endif
