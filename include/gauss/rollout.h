/* Many steps in one call: one data for nstep steps, and batches of open-loop rollouts run on a
 * pool of threads (MJCF's rollout module). */
#ifndef GAUSS_ROLLOUT_H
#define GAUSS_ROLLOUT_H

#include "export.h"

#include "model.h"
#include "data.h"

#ifdef __cplusplus
extern "C" {
#endif

/* gs_step nstep times */
GS_API void gs_stepN(const gsModel* m, gsData* d, int nstep);

/* nbatch open-loop rollouts of nstep steps, run on nthread threads, one data each (d[0] ..
 * d[nthread-1], all made for m). Rollout i resets its data, sets the GS_STATE_FULLPHYSICS state
 * state0[i] (state0 + i * gs_stateSize(m, GS_STATE_FULLPHYSICS)), the warm start warmstart0[i]
 * (nv reals; NULL: zeros), then steps nstep times, each step after setting the components
 * control_spec (a subset of GS_STATE_USER) from control[i][t] (NULL: no controls). After step t
 * it writes the FULLPHYSICS state to state[i][t] and sensordata to sensordata[i][t] (either may
 * be NULL). A step that resets the data on a NaN, Inf or huge qpos, qvel or qacc ends its
 * rollout: that step's state and sensors fill the remaining rows (as MJCF's rollout). Each rollout depends only on its inputs, so the results are the same bits for any
 * nthread. Returns 0, or -1 on bad arguments (a spec outside GS_STATE_USER, counts < 0). */
GS_API int gs_rollout(const gsModel* m, gsData* const* d, int nthread, int nbatch, int nstep,
                      unsigned int control_spec, const gsReal* state0, const gsReal* warmstart0,
                      const gsReal* control, gsReal* state, gsReal* sensordata);

/* One step of a batch of environments, on nthread threads (data i on thread i mod nthread):
 * data d[i] takes the nu controls ctrl[i] (ctrl + i * nu; NULL: keeps its own), steps nstep
 * times, then runs gs_rnePostConstraint when post is non-zero (cacc, cfrc_int, cfrc_ext of the
 * last step, as Gymnasium's environments read them). Each data depends only on itself, so the
 * results are the bits of stepping each data alone. Returns 0, or -1 on bad arguments. */
GS_API int gs_stepBatch(const gsModel* m, gsData* const* d, int ndata, int nthread, int nstep,
                        const gsReal* ctrl, int post);

#ifdef __cplusplus
}
#endif

#endif
