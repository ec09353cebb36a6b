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

/* sensors (check_sensing.c): each sensor's objects of the types its type takes and present where
 * it needs them, its joints of the right kind, its number of values its type's, a contact
 * sensor's parameters in range; what the sensor stages rely on to stay in their arrays */
int gs_checkSensors(const gsModel* m, char* err, int errsz);

/* the sensor types' rules, shared with the compiler (compile_sensing.c): whether type t takes
 * objects of objtype with a reference of reftype; its number of values (-1 for user sensors and
 * types gauss does not compile) */
void gs_sensorObjects(int t, int objtype, int reftype, int* obj_ok, int* ref_ok);
int gs_sensorDim(int t, const int intprm[GS_NSENS]);

#endif
