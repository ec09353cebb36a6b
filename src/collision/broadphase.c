/* The collision stage: candidate geom pairs, filters, narrow phase, contact parameters. Not
 * written yet: no contacts. */
#include "collision/collision.h"

void gs_collision(const gsModel* m, gsData* d) {
  (void)m;
  d->ncon = 0;
}
