/* Whether any geom is on a body that moves relative to the world (weld group other than the
 * world's): two geoms of one weld group never pair (the filter's first rule), so a model whose
 * geoms are all fixed to the world makes no contact but by its explicit pairs. body_weldid and
 * geom_bodyid are structural (fixed at compile). */
#ifndef GAUSS_CORE_MOVING_H
#define GAUSS_CORE_MOVING_H

#include "gauss/gauss.h"

static inline int gs_anyMovingGeom(const gsModel* m) {
  for (int g = 0; g < m->ngeom; g++)
    if (m->body_weldid[m->geom_bodyid[g]] != 0) return 1;
  return 0;
}

#endif
