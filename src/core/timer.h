/* Stage timers: cheap when off (one test of d->timeron), two monotonic clock reads when on. */
#ifndef GAUSS_CORE_TIMER_H
#define GAUSS_CORE_TIMER_H

#include "gauss/gauss.h"

/* seconds on the monotonic clock */
double gs_clock(void);

/* the start of a timed stage: the clock when the timers are on, else 0 */
static inline double gs_timerStart(const gsData* d) { return d->timeron ? gs_clock() : 0; }

/* the end of stage `id` started at t0: its duration added and its call counted */
static inline void gs_timerStop(gsData* d, gsTimer id, double t0) {
  if (!d->timeron) return;
  d->timer[id].duration += gs_clock() - t0;
  d->timer[id].number++;
}

#endif
