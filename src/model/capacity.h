/* The pipeline's capacities, computed from the model once (like MJCF's narena): contacts, constraint
 * rows, Jacobian non-zeros and arena bytes, stored as model sizes (nconmax, nefcmax, nJmax, narena)
 * so that gs_makeData only carves memory and knows no stage. */
#ifndef GAUSS_MODEL_CAPACITY_H
#define GAUSS_MODEL_CAPACITY_H

#include "gauss/gauss.h"

/* the largest capacities; beyond them a stage reports that it is full. Each of the data's blocks
 * stays below 2 GiB: the arena, the contacts (1e6 of ~300 bytes) and the rows with their Jacobian
 * (5e6 rows of 144 bytes and 1e8 non-zeros of 12 bytes, one block) */
#define GS_MAX_CONTACTS 1000000
/* contacts the arena has room for in gs_inverseRigid (src/pipeline/inverse_rigid.c) */
#define GS_RIGID_ARENACON 40
#define GS_RIGID_ARENANV 128
#define GS_MAX_ROWS 5000000
#define GS_MAX_NNZ 100000000
#define GS_MAX_ARENA ((size_t)2147483647 & ~(size_t)63)

/* the capacities for m's other sizes and arrays (which must be complete and consistent) written
 * into m, with MJCF's <size> where given (-1: the compiler's choice):
 * nconmax contacts, njmax constraint rows (with room for their Jacobian as the compiler sizes a
 * row), memory bytes of arena; each within the largest above */
void gs_setCapacity(gsModel* m, long nconmax, long njmax, long long memory, long nstack);

/* the <size> settings (-1: not given) that give m's capacities again when its MJCF is read back:
 * nconmax and njmax where they differ from the compiler's choice, then nstack for a larger arena
 * or memory for any other (the MJCF writer) */
void gs_capacitySettings(const gsModel* m, long* nconmax, long* njmax, long long* memory, long* nstack);

#endif
