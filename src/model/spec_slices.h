/* The glue between the spec (spec.c) and its slices (spec_actuation.c, spec_sensing.c,
 * spec_world.c) and the MJCF reader: what a new spec starts with, (freeing is table-driven, spec_access.c), and the
 * list helper the gs_specAdd* functions share (spec_util.c). Internal: not part of the API. */
#ifndef GAUSS_MODEL_SPEC_SLICES_H
#define GAUSS_MODEL_SPEC_SLICES_H

#include "gauss/gauss.h"

/* the slices' defaults in a new spec (called by gs_specNew; nuser_* automatic) */
void gs_specInitSensing(gsSpec* spec);
void gs_specInitWorld(gsSpec* spec);

/* freeing (spec_access.c): an element with what its attribute table says it owns (a body with its
 * subtree, a tendon with its path, a tuple with its elements); a list of elements and the list */
void gs_specFreeElement(int kind, void* element);
void gs_specFreeList(int kind, void*** list, int* n, int* cap);
/* a deep copy of an element outside any list (a body without its contents); NULL when out of
 * memory */
void* gs_specCopyElement(int kind, const void* element);

/* an orientation given as the quaternion q (the identity where q is NULL), every other form
 * cleared: for an element whose orientation the reader or an edit has resolved */
void gs_orientSetQuat(gsOrientation* o, const gsReal q[4]);

/* grow a pointer list by one and append p; 0 when out of memory (for the gs_specAdd* functions) */
int gs_specPush(void*** list, int* n, int* cap, void* p);

/* a new asset-reference record for an owner known to have none yet (no search) */
gsSpecAssetRef* gs_specAddAssetRef(gsSpecBody* body, const void* owner);

/* the names an element of kind refers to (pointers to its owned strings, at most max): tendon
 * wraps and side sites, actuator targets, sensor objects, equality, pair and exclude partners */
int gs_specReferences(int kind, void* element, char*** refs, int max);

#endif
