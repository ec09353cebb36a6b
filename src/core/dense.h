/* Small dense linear algebra on row-major matrices: the products, Cholesky factors and triangular
 * solves that the rigid-contact solvers (src/solver/lemke.c, ppm.c, qp.c) need for systems of a
 * few hundred unknowns at most. No allocation: callers pass every buffer. */
#ifndef GAUSS_CORE_DENSE_H
#define GAUSS_CORE_DENSE_H

#include "gauss/model.h"

/* res (r x c) = A (r x k) B (k x c); res must not alias A or B */
void gs_denseMul(gsReal* res, const gsReal* A, const gsReal* B, int r, int k, int c);
/* res (r x c) = A (r x k) B^T, B is c x k */
void gs_denseMulBT(gsReal* res, const gsReal* A, const gsReal* B, int r, int k, int c);
/* res (r x c) = A^T B, A is k x r, B is k x c */
void gs_denseMulAT(gsReal* res, const gsReal* A, const gsReal* B, int r, int k, int c);
/* res (r) = A (r x c) x; res[i] += ... when add != 0 */
void gs_denseMulVec(gsReal* res, const gsReal* A, const gsReal* x, int r, int c, int add);
/* res (c) = A^T x, A is r x c; res[j] += ... when add != 0 */
void gs_denseMulVecT(gsReal* res, const gsReal* A, const gsReal* x, int r, int c, int add);

/* In-place Cholesky A = L L^T of a symmetric n x n matrix (lower triangle read and written; the
 * strict upper triangle is left as it was). A pivot below tol times the largest diagonal entry of
 * A fails the factorization: returns the index of the failing pivot, or -1 when it succeeded. */
int gs_cholesky(gsReal* A, int n, gsReal tol);
/* x = L^-1 x and x = L^-T x with the factor of gs_cholesky */
void gs_solveL(const gsReal* L, int n, gsReal* x);
void gs_solveLT(const gsReal* L, int n, gsReal* x);
/* x = (L L^T)^-1 x */
void gs_cholSolve(const gsReal* L, int n, gsReal* x);

/* In-place LU factorization with partial pivoting of a general n x n matrix (piv: n row swaps).
 * A pivot below tol times the largest entry of A fails it: returns the failing column, or -1. */
int gs_luFactor(gsReal* A, int n, int* piv, gsReal tol);
/* x = A^-1 x with gs_luFactor's factor */
void gs_luSolve(const gsReal* LU, int n, const int* piv, gsReal* x);

/* Gram-Schmidt against an orthonormal basis of k rows of length c (Q, k x c): v loses its
 * components along Q's rows (twice, for accuracy); coef (k) gets them when not NULL. Returns the
 * norm of what remains. */
gsReal gs_orthogonalize(const gsReal* Q, int k, int c, gsReal* v, gsReal* coef);

#endif
