/* gs_stateSize, gs_getState, gs_setState: the components of the state in the order of their bits
 * (gsState, include/gauss/state.h). Data only: no stage runs here. */
#include <string.h>

#include "gauss/gauss.h"

#define ALL_STATE_BITS ((1u << GS_NSTATE) - 1u)

/* reals of one component */
static int component_size(const gsModel* m, unsigned int bit) {
  switch (bit) {
    case GS_STATE_TIME:         return 1;
    case GS_STATE_QPOS:         return m->nq;
    case GS_STATE_QVEL:         return m->nv;
    case GS_STATE_ACT:          return m->na;
    case GS_STATE_WARMSTART:    return m->nv;
    case GS_STATE_CTRL:         return m->nu;
    case GS_STATE_QFRC_APPLIED: return m->nv;
    case GS_STATE_XFRC_APPLIED: return 6 * m->nbody;
    case GS_STATE_EQ_ACTIVE:    return m->neq;
    case GS_STATE_MOCAP_POS:    return 3 * m->nmocap;
    case GS_STATE_MOCAP_QUAT:   return 4 * m->nmocap;
    case GS_STATE_USERDATA:     return m->nuserdata;
    default:                    return 0;   /* GS_STATE_PLUGIN: no plugin holds state */
  }
}

/* the real array of d behind a component; NULL for eq_active (ints), time and plugin */
static gsReal* component_reals(gsData* d, unsigned int bit) {
  switch (bit) {
    case GS_STATE_QPOS:         return d->qpos;
    case GS_STATE_QVEL:         return d->qvel;
    case GS_STATE_ACT:          return d->act;
    case GS_STATE_WARMSTART:    return d->qacc_warmstart;
    case GS_STATE_CTRL:         return d->ctrl;
    case GS_STATE_QFRC_APPLIED: return d->qfrc_applied;
    case GS_STATE_XFRC_APPLIED: return d->xfrc_applied;
    case GS_STATE_MOCAP_POS:    return d->mocap_pos;
    case GS_STATE_MOCAP_QUAT:   return d->mocap_quat;
    case GS_STATE_USERDATA:     return d->userdata;
    default:                    return NULL;
  }
}

int gs_stateSize(const gsModel* m, unsigned int spec) {
  if (spec & ~ALL_STATE_BITS) return -1;
  int n = 0;
  for (int i = 0; i < GS_NSTATE; i++)
    if (spec & (1u << i)) n += component_size(m, 1u << i);
  return n;
}

int gs_getState(const gsModel* m, const gsData* d, gsReal* state, unsigned int spec) {
  if (spec & ~ALL_STATE_BITS) return -1;
  /* the arrays are read only; component_reals takes a mutable data so set and get share it */
  gsData* src = (gsData*)d;
  int adr = 0;
  for (int i = 0; i < GS_NSTATE; i++) {
    unsigned int bit = 1u << i;
    if (!(spec & bit)) continue;
    int n = component_size(m, bit);
    if (bit == GS_STATE_TIME) {
      state[adr] = d->time;
    } else if (bit == GS_STATE_EQ_ACTIVE) {
      for (int k = 0; k < n; k++) state[adr + k] = (gsReal)d->eq_active[k];
    } else if (n > 0) {
      memcpy(state + adr, component_reals(src, bit), sizeof(gsReal) * (size_t)n);
    }
    adr += n;
  }
  return adr;
}

int gs_setState(const gsModel* m, gsData* d, const gsReal* state, unsigned int spec) {
  if (spec & ~ALL_STATE_BITS) return -1;
  int adr = 0;
  for (int i = 0; i < GS_NSTATE; i++) {
    unsigned int bit = 1u << i;
    if (!(spec & bit)) continue;
    int n = component_size(m, bit);
    if (bit == GS_STATE_TIME) {
      d->time = state[adr];
    } else if (bit == GS_STATE_EQ_ACTIVE) {
      for (int k = 0; k < n; k++) d->eq_active[k] = state[adr + k] != 0;
    } else if (n > 0) {
      memcpy(component_reals(d, bit), state + adr, sizeof(gsReal) * (size_t)n);
    }
    adr += n;
  }
  return adr;
}
