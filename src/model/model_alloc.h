/* Internal: allocation of a gsModel whose sizes are known (used by the compiler and loaders). */
#ifndef GAUSS_MODEL_ALLOC_H
#define GAUSS_MODEL_ALLOC_H

#include "gauss/model.h"

/* a zeroed model with the sizes (nq, nv, ... nnames) of `sizes` and all arrays allocated */
gsModel* gs_allocModel(const gsModel* sizes);

#endif
