/* gsData: everything that changes while simulating. The arrays listed in fields.h, a few scalars,
 * warning counters, and an arena from which every stage takes its scratch memory, so that stepping
 * never touches the heap. */
#ifndef GAUSS_DATA_H
#define GAUSS_DATA_H

#include "model.h"

typedef enum {
  GS_WARN_INERTIA = 0,   /* (near-)singular inertia matrix */
  GS_WARN_CONTACTFULL,   /* too many contacts */
  GS_WARN_CNSTRFULL,     /* too many constraint rows */
  GS_WARN_ARENAFULL,     /* scratch arena exhausted */
  GS_WARN_BADQPOS,       /* NaN, Inf or huge value in qpos: data reset */
  GS_WARN_BADQVEL,       /* ... in qvel: data reset */
  GS_WARN_BADQACC,       /* ... in qacc: data reset */
  GS_WARN_BADCTRL,       /* ... in ctrl */
  GS_NWARNING
} gsWarning;

typedef struct {
  int lastinfo;  /* index of the offending element (dof, body, ...) at the last occurrence */
  int number;    /* how many times it happened since the last reset */
} gsWarningStat;

typedef struct gsData {
  gsReal time;
  gsReal energy[2];                   /* potential, kinetic */
  gsWarningStat warning[GS_NWARNING];

  /* arena: a stack of scratch memory, in bytes */
  size_t narena;
  size_t pstack;                      /* bytes in use */
  size_t maxuse;                      /* high-water mark */
  unsigned char* arena;

#define GS_X(type, name, rows, cols) type* name;
  GS_DATA_FIELDS(GS_X)
#undef GS_X

  void* buffer;
  size_t nbuffer;
} gsData;

#endif
