/* What the spec's files share (spec.c and the slices' spec_*.c): growing their pointer lists, and
 * an orientation set to a resolved quaternion. Kept apart from spec.c, which calls the slices, so
 * that the slices do not call back into it. */
#include <stdlib.h>
#include <string.h>

#include "gauss/gauss.h"
#include "model/spec_slices.h"

int gs_specPush(void*** list, int* n, int* cap, void* p) {
  if (!p) return 0;
  if (*n == *cap) {
    int ncap = *cap ? 2 * *cap : 4;
    void** grown = realloc(*list, (size_t)ncap * sizeof(void*));
    if (!grown) return 0;
    *list = grown;
    *cap = ncap;
  }
  (*list)[(*n)++] = p;
  return 1;
}

void gs_orientSetQuat(gsOrientation* o, const gsReal q[4]) {
  gsReal r[4] = {1, 0, 0, 0};
  if (q) memcpy(r, q, sizeof(r));  /* q may lie in o */
  memset(o, 0, sizeof(*o));
  o->type = GS_ORIENT_QUAT;
  memcpy(o->quat, r, sizeof(r));
}
