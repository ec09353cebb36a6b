/* The pipeline's capacities, computed from the model once (like MJCF's narena): contacts, constraint
 * rows, Jacobian non-zeros and arena bytes, stored as model sizes (nconmax, nefcmax, nJmax, narena)
 * so that gs_makeData only carves memory and knows no stage. */
#ifndef GAUSS_MODEL_CAPACITY_H
#define GAUSS_MODEL_CAPACITY_H

#include "gauss/gauss.h"

/* the four capacities for m's other sizes and arrays (which must be complete and consistent) */
void gs_modelCapacity(const gsModel* m, int* nconmax, int* nefcmax, int* nJmax, int* narena);

/* the same, written into m */
void gs_setCapacity(gsModel* m);

#endif
