/* Spec elements of the sensing slice: sensors, equality constraints, keyframes, custom numeric/text/tuple data. Included by spec.h. */
#ifndef GAUSS_SPEC_SENSING_H
#define GAUSS_SPEC_SENSING_H

/* members added to gsSpecBody */
#define GS_SPECBODY_SENSING

/* members added to gsSpec */
#define GS_SPEC_SENSING

#endif
