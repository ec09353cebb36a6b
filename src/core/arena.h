/* The data's arena as the stages see it: where the next allocation starts (its 16-byte
 * alignment), how much it could take, and the stack's allocation, mark and release inline (the
 * exported gs_stackAlloc, gs_stackMark and gs_stackRelease are these). A stage whose use of the
 * arena is optional (a faster path with a fallback) checks the room first, so that an arena
 * without it is not a warning. */
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

/* the arena's full case: warns (GS_WARN_ARENAFULL) and returns NULL (data.c) */
void* gs_arenaFull(gsData* d, size_t bytes);

/* inline for the stages: a step takes some eighty blocks, and a call into another unit costs its
 * caller the registers live across it besides the call itself (0.2-0.7 % of the headline
 * models' instructions) */
static inline void* gs_arenaAlloc(gsData* d, size_t bytes) {
  if (bytes > gs_stackRoom(d)) return gs_arenaFull(d, bytes);
  size_t start = gs_stackStart(d);
  d->pstack = start + bytes;
  if (d->pstack > d->maxuse) d->maxuse = d->pstack;
  return d->arena + start;
}

static inline size_t gs_arenaMark(const gsData* d) { return d->pstack; }

static inline void gs_arenaRelease(gsData* d, size_t mark) { d->pstack = mark; }

#endif
