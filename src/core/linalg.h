/* Small dense linear algebra on row-major matrices. */
#ifndef GAUSS_CORE_LINALG_H
#define GAUSS_CORE_LINALG_H

#include "gauss/model.h"

/* LU with partial pivoting, in place; returns 0 when singular */
int gs_luFactor(gsReal* A, int n, int* piv);
/* x <- A^-1 x with a factor from gs_luFactor */
void gs_luSolve(const gsReal* LU, int n, const int* piv, gsReal* x);

#endif
