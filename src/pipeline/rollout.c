/* gs_stepN, gs_rollout and gs_stepBatch: stepping loops in C, so that a caller in another
 * language crosses into the library once per batch. Rollouts are spread over threads in a fixed
 * pattern (rollout i on thread i mod nthread); each rollout starts from a reset data, so which
 * data runs it does not change a bit. A batch of datas (gs_stepBatch) is spread the same way;
 * each data depends only on itself. */
#include <pthread.h>
#include <string.h>

#include "gauss/gauss.h"

void gs_stepN(const gsModel* m, gsData* d, int nstep) {
  for (int i = 0; i < nstep; i++) gs_step(m, d);
}

typedef struct {
  const gsModel* m;
  gsData* d;
  int thread, nthread, nbatch, nstep;
  unsigned int control_spec;
  int nstate, ncontrol;
  const gsReal* state0;
  const gsReal* warmstart0;
  const gsReal* control;
  gsReal* state;
  gsReal* sensordata;
} rollout_job;

/* a NaN, Inf or huge value in qpos, qvel or qacc made the step reset the data */
static int diverged(const gsData* d) {
  return d->warning[GS_WARN_BADQPOS].number || d->warning[GS_WARN_BADQVEL].number ||
         d->warning[GS_WARN_BADQACC].number;
}

static void run_one(const rollout_job* job, int i) {
  const gsModel* m = job->m;
  gsData* d = job->d;
  size_t nstep = (size_t)job->nstep, nsd = (size_t)m->nsensordata;
  gs_resetData(m, d);
  gs_setState(m, d, job->state0 + (size_t)i * (size_t)job->nstate, GS_STATE_FULLPHYSICS);
  if (job->warmstart0)
    memcpy(d->qacc_warmstart, job->warmstart0 + (size_t)i * (size_t)m->nv, sizeof(gsReal) * (size_t)m->nv);
  for (size_t t = 0; t < nstep; t++) {
    size_t row = (size_t)i * nstep + t;
    if (job->control && job->ncontrol)
      gs_setState(m, d, job->control + row * (size_t)job->ncontrol, job->control_spec);
    gs_step(m, d);
    if (job->state) gs_getState(m, d, job->state + row * (size_t)job->nstate, GS_STATE_FULLPHYSICS);
    if (job->sensordata && nsd) memcpy(job->sensordata + row * nsd, d->sensordata, sizeof(gsReal) * nsd);
    if (diverged(d)) {
      /* as MJCF's rollout: the step that reset the data ends the rollout, its state and sensors
       * repeat to the last row */
      for (size_t k = t + 1; k < nstep; k++) {
        size_t to = (size_t)i * nstep + k;
        if (job->state)
          memcpy(job->state + to * (size_t)job->nstate, job->state + row * (size_t)job->nstate,
                 sizeof(gsReal) * (size_t)job->nstate);
        if (job->sensordata && nsd)
          memcpy(job->sensordata + to * nsd, job->sensordata + row * nsd, sizeof(gsReal) * nsd);
      }
      break;
    }
  }
}

static void* run_thread(void* arg) {
  const rollout_job* job = arg;
  for (int i = job->thread; i < job->nbatch; i += job->nthread) run_one(job, i);
  return NULL;
}

#define GS_MAXTHREAD 256

int gs_rollout(const gsModel* m, gsData* const* d, int nthread, int nbatch, int nstep,
               unsigned int control_spec, const gsReal* state0, const gsReal* warmstart0,
               const gsReal* control, gsReal* state, gsReal* sensordata) {
  if (nthread < 1 || nbatch < 0 || nstep < 0 || !state0 || (control_spec & ~(unsigned)GS_STATE_USER))
    return -1;
  if (nthread > GS_MAXTHREAD) nthread = GS_MAXTHREAD;
  if (nthread > nbatch) nthread = nbatch > 0 ? nbatch : 1;
  rollout_job jobs[GS_MAXTHREAD];
  pthread_t threads[GS_MAXTHREAD];
  int started[GS_MAXTHREAD];
  for (int k = 0; k < nthread; k++) {
    jobs[k] = (rollout_job){m, d[k], k, nthread, nbatch, nstep, control_spec,
                            gs_stateSize(m, GS_STATE_FULLPHYSICS), gs_stateSize(m, control_spec),
                            state0, warmstart0, control, state, sensordata};
  }
  /* the calling thread runs the first share; a thread that cannot start leaves its share to be
   * run here afterwards, so the results never depend on the system's limits */
  for (int k = 1; k < nthread; k++) started[k] = pthread_create(&threads[k], NULL, run_thread, &jobs[k]) == 0;
  run_thread(&jobs[0]);
  for (int k = 1; k < nthread; k++) {
    if (started[k]) pthread_join(threads[k], NULL);
    else run_thread(&jobs[k]);
  }
  return 0;
}

typedef struct {
  const gsModel* m;
  gsData* const* d;
  int thread, nthread, ndata, nstep, post;
  const gsReal* ctrl;
} batch_job;

static void* batch_thread(void* arg) {
  const batch_job* job = arg;
  const gsModel* m = job->m;
  for (int i = job->thread; i < job->ndata; i += job->nthread) {
    gsData* d = job->d[i];
    if (job->ctrl && m->nu)
      memcpy(d->ctrl, job->ctrl + (size_t)i * (size_t)m->nu, sizeof(gsReal) * (size_t)m->nu);
    for (int t = 0; t < job->nstep; t++) gs_step(m, d);
    if (job->post) gs_rnePostConstraint(m, d);
  }
  return NULL;
}

int gs_stepBatch(const gsModel* m, gsData* const* d, int ndata, int nthread, int nstep,
                 const gsReal* ctrl, int post) {
  if (!m || nthread < 1 || ndata < 0 || nstep < 0 || (ndata > 0 && !d)) return -1;
  if (nthread > GS_MAXTHREAD) nthread = GS_MAXTHREAD;
  if (nthread > ndata) nthread = ndata > 0 ? ndata : 1;
  batch_job jobs[GS_MAXTHREAD];
  pthread_t threads[GS_MAXTHREAD];
  int started[GS_MAXTHREAD];
  for (int k = 0; k < nthread; k++)
    jobs[k] = (batch_job){m, d, k, nthread, ndata, nstep, post, ctrl};
  /* as gs_rollout: the caller runs the first share, and a share whose thread cannot start runs
   * here afterwards */
  for (int k = 1; k < nthread; k++)
    started[k] = pthread_create(&threads[k], NULL, batch_thread, &jobs[k]) == 0;
  batch_thread(&jobs[0]);
  for (int k = 1; k < nthread; k++) {
    if (started[k]) pthread_join(threads[k], NULL);
    else batch_thread(&jobs[k]);
  }
  return 0;
}
