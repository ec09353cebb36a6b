/* The data's arena as the stages see it beside gs_stackAlloc: where the next allocation starts
 * (its 16-byte alignment) and how much it could take. A stage whose use of the arena is optional
 * (a faster path with a fallback) checks the room first, so that an arena without it is not a
 * warning. */
#ifndef GAUSS_CORE_ARENA_H
#define GAUSS_CORE_ARENA_H

#include <stddef.h>

#include "gauss/gauss.h"

/* the offset of the next allocation */
static inline size_t gs_stackStart(const gsData* d) { return (d->pstack + 15) & ~(size_t)15; }

/* the bytes one more allocation could take now */
static inline size_t gs_stackRoom(const gsData* d) {
  size_t start = gs_stackStart(d);
  return start < d->narena ? d->narena - start : 0;
}

#endif
