/* The pipeline's capacities, computed from the model once (like MJCF's narena): contacts, constraint
 * rows, Jacobian non-zeros and arena bytes, stored as model sizes (nconmax, nefcmax, nJmax, narena)
 * so that gs_makeData only carves memory and knows no stage. */
#ifndef GAUSS_MODEL_CAPACITY_H
#define GAUSS_MODEL_CAPACITY_H

#include "gauss/gauss.h"

/* the largest capacities an int size holds; beyond them a stage reports that it is full */
#define GS_MAX_CONTACTS 1000000
#define GS_MAX_ROWS 10000000
#define GS_MAX_NNZ 200000000
#define GS_MAX_ARENA ((size_t)2147483647 & ~(size_t)63)

/* the four capacities for m's other sizes and arrays (which must be complete and consistent),
 * as the compiler chooses them */
void gs_modelCapacity(const gsModel* m, int* nconmax, int* nefcmax, int* nJmax, int* narena);

/* the capacities written into m, with MJCF's <size> where given (-1: the compiler's choice):
 * nconmax contacts, njmax constraint rows (with room for their Jacobian as the compiler sizes a
 * row), memory bytes of arena; each within the largest above */
void gs_setCapacity(gsModel* m, long nconmax, long njmax, long long memory);

#endif
