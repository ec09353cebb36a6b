/* The Hessian of the primal solvers, H = M + sum J^T (d2 s) J, and its Cholesky factor H = L L^T,
 * in blocks: the dofs of each kinematic tree form one dense block (they are contiguous), the
 * blocks are eliminated in a minimum-degree order of the graph in which two trees are joined when
 * a row involves both, and L keeps the blocks of that graph's fill. The dense path is the same
 * structure with all dofs in one block. Rank-1 updates and downdates walk the elimination tree of
 * the blocks. All memory comes from the data's arena. */
#ifndef GAUSS_SOLVER_HESSIAN_H
#define GAUSS_SOLVER_HESSIAN_H

#include "gauss/gauss.h"

typedef struct {
  int nv, nblk;
  int* blk_adr;      /* first dof of the block at each elimination position */
  int* blk_n;        /* its dofs */
  int* blk_parent;   /* the first block below it in L (elimination tree), -1: a root */
  int* dof_blk;      /* elimination position of each dof's block */
  int* colptr;       /* blocks below the diagonal in block column k: rowblk[colptr[k] ..] */
  int* rowblk;       /* their positions, ascending */
  size_t* diagadr;   /* address in val of block column k's diagonal block (n_k x n_k) */
  size_t* offadr;    /* address of each off-diagonal block (n_i x n_k), row-major */
  gsReal* val;       /* H while assembling, L after gs_hessianFactor (lower triangles) */
  double factorcost; /* flops of assembling M and factoring, estimated */
  double* pathcost;  /* flops of a rank-1 update that starts at block k */
  gsReal* w;         /* nv of scratch for the updates */
  gsReal* row;       /* nv of scratch for the caller: a scaled row */
  int* seg;          /* 2 nblk of scratch: a row's blocks and where they start in its columns */
} gsHessian;

/* the block structure for the rows of d (all of them, whatever their state), dense (one block)
 * or sparse; 0 when the arena cannot hold it */
int gs_hessianSetup(const gsModel* m, gsData* d, gsHessian* h, int sparse);

/* the same for a part of the problem that no row outside it touches (an island): the listed rows
 * and dofs (whole trees, ascending); the dense path needs the dofs contiguous and otherwise takes
 * the trees as blocks. Vectors stay indexed by dof: the factor and its solves touch the listed
 * dofs only. */
int gs_hessianSetupPart(const gsModel* m, gsData* d, gsHessian* h, int sparse, const int* rows,
                        int nrow, const int* dofs, int ndof);

/* H = M (tree-sparse qM) */
void gs_hessianSetM(const gsModel* m, const gsData* d, gsHessian* h);

/* H += s x y^T restricted to the columns cols (ascending, nnz of them); only the lower part is
 * kept, so a symmetric sum of such terms gives a symmetric H */
void gs_hessianAddOuter(gsHessian* h, const int* cols, int nnz, const gsReal* x, const gsReal* y,
                        gsReal s);

/* H += sum_j s[j] v[j] v[j]^T for n <= 4 rows with the same columns: each entry loaded and stored
 * once, its terms added in the rows' order (as n calls of gs_hessianAddOuter, to the last bit) */
void gs_hessianAddOuterRows(gsHessian* h, const int* cols, int nnz, const gsReal* const* v,
                            const gsReal* s, int n);

/* factor H in place; 0 when H is not positive definite */
int gs_hessianFactor(gsHessian* h);

/* x = H^-1 x with the factor */
void gs_hessianSolve(const gsHessian* h, gsReal* x);

/* the factor of H + sign v v^T, v with non-zeros on cols; 0 when a downdate loses definiteness
 * (the factor is then invalid and must be rebuilt) */
int gs_hessianUpdate(gsHessian* h, const int* cols, int nnz, const gsReal* v, int sign);

/* estimated flops of gs_hessianUpdate on a row with columns cols */
double gs_hessianUpdateCost(const gsHessian* h, const int* cols, int nnz);

#endif
