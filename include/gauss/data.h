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

/* one contact between two geoms (MJCF's mjContact, without what later stages add) */
typedef struct {
  gsReal dist;                /* signed distance between the surfaces; negative: penetration */
  gsReal pos[3];              /* midpoint between the surfaces */
  gsReal frame[9];            /* rows: normal (from geom1 to geom2), then two tangents */
  gsReal includemargin;       /* included in the constraint problem when dist < includemargin */
  gsReal friction[5];         /* tangent1, tangent2, spin, roll1, roll2 */
  gsReal solref[GS_NREF];     /* normal direction */
  gsReal solreffriction[GS_NREF]; /* friction directions (0 0: use solref) */
  gsReal solimp[GS_NIMP];
  gsReal mu;                  /* friction of the regularised cone, set by the constraint stage */
  int dim;                    /* condim: 1, 3, 4 or 6 */
  int geom1, geom2;           /* geom ids; geom1's type <= geom2's type */
  int exclude;                /* 0: included, 1: in the gap, 2: fused, ... (set later) */
  int efc_address;            /* first constraint row, -1 when none */
} gsContact;

typedef struct gsData {
  gsReal time;
  gsReal energy[2];                   /* potential, kinetic */
  gsWarningStat warning[GS_NWARNING];

  /* arena: a stack of scratch memory, in bytes */
  size_t narena;
  size_t pstack;                      /* bytes in use */
  size_t maxuse;                      /* high-water mark */
  unsigned char* arena;

  /* contacts of the last collision stage: ncon of them, room for nconmax */
  int ncon;
  int nconmax;
  gsContact* contact;

#define GS_X(type, name, rows, cols) type* name;
  GS_DATA_FIELDS(GS_X)
#undef GS_X

  void* buffer;
  size_t nbuffer;
} gsData;

#endif
