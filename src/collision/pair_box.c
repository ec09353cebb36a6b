/* Narrow phase: not written yet. */
#include "collision/collision.h"

int gs_collideBoxBox(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2, gsReal margin) {
  (void)m, (void)d, (void)con, (void)g1, (void)g2, (void)margin;
  return 0;
}
