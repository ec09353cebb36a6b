/* Spec elements of the actuation slice: tendons (fixed, spatial with site/geom/pulley wraps) and actuators (general and every shortcut). Included by spec.h. */
#ifndef GAUSS_SPEC_ACTUATION_H
#define GAUSS_SPEC_ACTUATION_H

/* members added to gsSpecBody */
#define GS_SPECBODY_ACTUATION

/* members added to gsSpec */
#define GS_SPEC_ACTUATION

#endif
