/* Internal to the collision stage: the broad phase and the contact parameters, shared by
 * broadphase.c (the driver) and mix.c. */
#ifndef GAUSS_COLLISION_STAGE_H
#define GAUSS_COLLISION_STAGE_H

#include <stdint.h>

#include "collision/collision.h"

/* a candidate geom pair: ga belongs to the body with the smaller id; `key` orders candidates as
 * the stage visits them (body pair first, then ga, then gb) */
typedef struct {
  uint64_t key;
  int ga, gb;
} gsCandidate;

/* margin of a geom pair for detection (override replaces it with the option's) */
gsReal gs_pairMargin(const gsModel* m, int g1, int g2);

/* whether the dynamic pair (ga, gb) passes contype/conaffinity, same-body, parent-child and
 * <exclude> filters */
int gs_dynamicFilter(const gsModel* m, int ga, int gb);

/* order key of a dynamic candidate (ga, gb) */
uint64_t gs_candidateKey(const gsModel* m, int ga, int gb);

/* sort n records by key (stable merge sort; tmp holds n records) */
void gs_sortCandidates(gsCandidate* a, gsCandidate* tmp, int n);

/* broad phase: the dynamic candidates that pass the filters, sorted by key, in arena memory that
 * the caller releases; *n is their number. Candidates that do not fit in the arena are dropped
 * (GS_WARN_ARENAFULL). */
gsCandidate* gs_broadphase(const gsModel* m, gsData* d, int* n);

/* contact parameters of a dynamic pair (pair < 0) or of the explicit pair `pair` */
void gs_contactParams(const gsModel* m, gsContact* con, int g1, int g2, int pair);

/* the tangents frame[3..8] from the normal frame[0..2] */
void gs_contactFrame(gsReal frame[9]);

#endif
