/* The simulation state as one flat array of reals: which parts it holds is a bit set, and the parts
 * follow one another in the order of their bits (MJCF's mjtState, mj_getState, mj_setState). */
#ifndef GAUSS_STATE_H
#define GAUSS_STATE_H

#include "export.h"

#include "model.h"
#include "data.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the components, each a bit; a state array holds the chosen ones in this order */
typedef enum {
  GS_STATE_TIME         = 1 << 0,   /* d->time: 1 */
  GS_STATE_QPOS         = 1 << 1,   /* nq */
  GS_STATE_QVEL         = 1 << 2,   /* nv */
  GS_STATE_ACT          = 1 << 3,   /* na */
  GS_STATE_WARMSTART    = 1 << 4,   /* qacc_warmstart: nv */
  GS_STATE_CTRL         = 1 << 5,   /* nu */
  GS_STATE_QFRC_APPLIED = 1 << 6,   /* nv */
  GS_STATE_XFRC_APPLIED = 1 << 7,   /* 6 * nbody */
  GS_STATE_EQ_ACTIVE    = 1 << 8,   /* neq, as 0 or 1 */
  GS_STATE_MOCAP_POS    = 1 << 9,   /* 3 * nmocap */
  GS_STATE_MOCAP_QUAT   = 1 << 10,  /* 4 * nmocap */
  GS_STATE_USERDATA     = 1 << 11,  /* nuserdata */
  GS_STATE_PLUGIN       = 1 << 12,  /* plugin state: gauss runs no plugins, always 0 reals */
  GS_NSTATE             = 13,

  /* sets: what the dynamics integrate; with time; the inputs a user sets; everything that
   * decides the next step */
  GS_STATE_PHYSICS      = GS_STATE_QPOS | GS_STATE_QVEL | GS_STATE_ACT,
  GS_STATE_FULLPHYSICS  = GS_STATE_TIME | GS_STATE_PHYSICS | GS_STATE_PLUGIN,
  GS_STATE_USER         = GS_STATE_CTRL | GS_STATE_QFRC_APPLIED | GS_STATE_XFRC_APPLIED |
                          GS_STATE_EQ_ACTIVE | GS_STATE_MOCAP_POS | GS_STATE_MOCAP_QUAT |
                          GS_STATE_USERDATA,
  GS_STATE_INTEGRATION  = GS_STATE_FULLPHYSICS | GS_STATE_USER | GS_STATE_WARMSTART
} gsState;

/* reals in a state of the components `spec`; -1 when spec has a bit beyond GS_NSTATE */
GS_API int gs_stateSize(const gsModel* m, unsigned int spec);
/* copy the components `spec` of d into state (gs_stateSize reals); returns the count, -1 on a
 * bad spec (nothing written) */
GS_API int gs_getState(const gsModel* m, const gsData* d, gsReal* state, unsigned int spec);
/* the reverse: set the components `spec` of d from state; eq_active gets 1 where the value is
 * non-zero. Returns the count read, -1 on a bad spec (d unchanged) */
GS_API int gs_setState(const gsModel* m, gsData* d, const gsReal* state, unsigned int spec);

#ifdef __cplusplus
}
#endif

#endif
