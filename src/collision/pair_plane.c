/* Narrow phase: not written yet. */
#include "collision/collision.h"

int gs_collidePlaneSphere(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2, gsReal margin) {
  (void)m, (void)d, (void)con, (void)g1, (void)g2, (void)margin;
  return 0;
}

int gs_collidePlaneCapsule(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2, gsReal margin) {
  (void)m, (void)d, (void)con, (void)g1, (void)g2, (void)margin;
  return 0;
}

int gs_collidePlaneEllipsoid(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2, gsReal margin) {
  (void)m, (void)d, (void)con, (void)g1, (void)g2, (void)margin;
  return 0;
}

int gs_collidePlaneCylinder(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2, gsReal margin) {
  (void)m, (void)d, (void)con, (void)g1, (void)g2, (void)margin;
  return 0;
}

int gs_collidePlaneBox(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2, gsReal margin) {
  (void)m, (void)d, (void)con, (void)g1, (void)g2, (void)margin;
  return 0;
}
