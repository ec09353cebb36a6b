/* Sizes and model arrays of the sensing slice: sensors, equality constraints, keyframes, custom numeric/text/tuple data and user data. See fields.h. */
#ifndef GAUSS_FIELDS_SENSING_H
#define GAUSS_FIELDS_SENSING_H

#define GS_SIZES_SENSING(X)

#define GS_FIELDS_SENSING(X)

#endif
