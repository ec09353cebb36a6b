/* Sizes and model arrays of the actuation slice: tendons (fixed and spatial, with their wraps) and actuators. See fields.h. */
#ifndef GAUSS_FIELDS_ACTUATION_H
#define GAUSS_FIELDS_ACTUATION_H

#define GS_SIZES_ACTUATION(X)

#define GS_FIELDS_ACTUATION(X)

#endif
