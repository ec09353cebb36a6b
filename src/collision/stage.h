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

/* margin of a geom pair for detection (override replaces it with the option's); inline: the
 * broad phase asks it for each plane pair */
static inline gsReal gs_pairMargin(const gsModel* m, int g1, int g2) {
  if (m->opt.enableflags & GS_ENBL_OVERRIDE) return m->opt.o_margin;
  gsReal a = m->geom_margin[g1], b = m->geom_margin[g2];
  return a > b ? a : b;
}

/* whether the dynamic pair (ga, gb) passes contype/conaffinity, same-body, parent-child and
 * <exclude> filters. Inline: the broad phase asks it for every pair whose boxes overlap, most of
 * them geoms of one body or of a parent and its child (an ant's legs: 39 pairs a call, 26 of them
 * rejected), and the call cost more than the tests. The weld groups first: they reject most. */
static inline int gs_dynamicFilter(const gsModel* m, int ga, int gb) {
  int ba = m->geom_bodyid[ga], bb = m->geom_bodyid[gb];
  int wa = m->body_weldid[ba], wb = m->body_weldid[bb];
  /* same body, or bodies welded together (the world and everything fixed to it included) */
  if (wa == wb) return 0;
  if (!((m->geom_contype[ga] & m->geom_conaffinity[gb]) ||
        (m->geom_contype[gb] & m->geom_conaffinity[ga])))
    return 0;
  /* parent and child, compared through their weld groups (the weld group of the body welded to
   * a body's parent); a child of the world still collides with the world */
  if (!(m->opt.disableflags & GS_DSBL_FILTERPARENT)) {
    if ((wa != 0 && wa == m->body_weldid[m->body_parentid[wb]]) ||
        (wb != 0 && wb == m->body_weldid[m->body_parentid[wa]]))
      return 0;
  }
  /* <exclude>: by body, in either order */
  if (m->nexclude) {
    int lo = ba < bb ? ba : bb, hi = ba < bb ? bb : ba;
    int sig = (lo << 16) + hi;
    for (int i = 0; i < m->nexclude; i++)
      if (m->exclude_signature[i] == sig) return 0;
  }
  return 1;
}

/* order key of a dynamic candidate (ga, gb), ga's body the smaller: the body pair, then within
 * it the geoms as the narrow phase takes them (the lower geom type first, else ga first), as
 * MJCF's midphase hands a body pair's geom pairs over: sorted that way (measured against
 * MuJoCo 3.3.7 on 600 random pairs of bodies of 1-5 geoms, planes and meshes among them,
 * tests/python/test_collision_order.py); with the midphase disabled (<flag midphase=
 * "disable"/>), by ga, then gb, the order of its loops over the two bodies' geoms. Exact while
 * nbody * ngeom < 2^32. */
static inline uint64_t gs_candidateKey(const gsModel* m, int ga, int gb) {
  uint64_t ba = (uint64_t)m->geom_bodyid[ga], bb = (uint64_t)m->geom_bodyid[gb];
  uint64_t nb = (uint64_t)m->nbody, ng = (uint64_t)m->ngeom;
  uint64_t first = (uint64_t)ga, second = (uint64_t)gb;
  if (!(m->opt.disableflags & GS_DSBL_MIDPHASE) && m->geom_type[ga] > m->geom_type[gb])
    first = (uint64_t)gb, second = (uint64_t)ga;
  return ((ba * nb + bb) * ng + first) * ng + second;
}

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
