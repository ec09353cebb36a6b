/* Internal: the parts of the check of a model that did not come from the compiler (check.c calls
 * them from gs_checkModel, declared in io.h). */
#ifndef GAUSS_MODEL_CHECK_H
#define GAUSS_MODEL_CHECK_H

#include "gauss/gauss.h"

/* the values (check_values.c): reals finite and signed as the compiler keeps them, the options,
 * equality objects by type, small enumerations. 1 when valid; 0 with a message naming the field
 * and the element. Assumes the sizes, the tree and the ids are checked already. */
int gs_checkValues(const gsModel* m, char* err, int errsz);

/* the real options alone: finite; timestep and impratio positive; tolerances, density and
 * viscosity non-negative (the compiler applies it too, so that it makes no model the binary
 * loader refuses) */
int gs_checkOptionValues(const gsOption* o, char* err, int errsz);

#endif
