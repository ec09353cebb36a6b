/* Spec elements of the world slice: cameras and lights (in bodies), assets (mesh, hfield, texture, material), contact pairs and exclusions, visual and statistic. Included by spec.h. */
#ifndef GAUSS_SPEC_WORLD_H
#define GAUSS_SPEC_WORLD_H

/* members added to gsSpecBody */
#define GS_SPECBODY_WORLD

/* members added to gsSpec */
#define GS_SPEC_WORLD

#endif
