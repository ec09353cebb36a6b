/* Transition derivatives by finite differences (MJCF's mjd_transitionFD): one step of the model's
 * integrator as a map of the state x = (dq, qvel, act), dq in the tangent space of qpos, and of
 * the controls u; A = dx'/dx, B = dx'/du, C = d sensordata/dx, D = d sensordata/du.
 *
 * Inputs are perturbed latest stage first (controls, activations, velocities, positions), so that
 * each perturbed step recomputes only the stages its input reaches: controls and activations
 * leave the position and velocity stages as the nominal step computed them (skipstage VEL),
 * velocities the position stage (skipstage POS). Between steps the inputs the step writes (time,
 * qpos, qvel, act, ctrl, qacc_warmstart) are put back bit for bit, so every perturbed step starts
 * from the nominal step's warmstart and the caller's state is unchanged at the end. */
#include <math.h>
#include <string.h>

#include "core/arena.h"
#include "pipeline/pipeline.h"
#include "solver/dual.h"

/* the inputs a step (or the differencing) overwrites */
typedef struct {
  gsReal time;
  gsReal *qpos, *qvel, *act, *ctrl, *warm;
} Inputs;

static void save(const gsModel* m, const gsData* d, Inputs* s) {
  s->time = d->time;
  memcpy(s->qpos, d->qpos, sizeof(gsReal) * (size_t)m->nq);
  memcpy(s->qvel, d->qvel, sizeof(gsReal) * (size_t)m->nv);
  memcpy(s->act, d->act, sizeof(gsReal) * (size_t)m->na);
  memcpy(s->ctrl, d->ctrl, sizeof(gsReal) * (size_t)m->nu);
  memcpy(s->warm, d->qacc_warmstart, sizeof(gsReal) * (size_t)m->nv);
}

static void restore(const gsModel* m, gsData* d, const Inputs* s) {
  d->time = s->time;
  memcpy(d->qpos, s->qpos, sizeof(gsReal) * (size_t)m->nq);
  memcpy(d->qvel, s->qvel, sizeof(gsReal) * (size_t)m->nv);
  memcpy(d->act, s->act, sizeof(gsReal) * (size_t)m->na);
  memcpy(d->ctrl, s->ctrl, sizeof(gsReal) * (size_t)m->nu);
  memcpy(d->qacc_warmstart, s->warm, sizeof(gsReal) * (size_t)m->nv);
}

/* the step's output: (qpos, qvel, act) in x, sensordata in y (when wanted) */
static void take(const gsModel* m, const gsData* d, gsReal* x, gsReal* y) {
  memcpy(x, d->qpos, sizeof(gsReal) * (size_t)m->nq);
  memcpy(x + m->nq, d->qvel, sizeof(gsReal) * (size_t)m->nv);
  memcpy(x + m->nq + m->nv, d->act, sizeof(gsReal) * (size_t)m->na);
  if (y) memcpy(y, d->sensordata, sizeof(gsReal) * (size_t)m->nsensordata);
}

/* one perturbed step from the current inputs, its output kept, the inputs put back */
static void perturbed_step(const gsModel* m, gsData* d, int skipstage, int skipsensor,
                           gsStepKeep* kept, const Inputs* s, gsReal* x, gsReal* y) {
  gs_stepSkip(m, d, skipstage, skipsensor, kept);
  take(m, d, x, skipsensor ? NULL : y);
  restore(m, d, s);
}

/* (x2 - x1) / h in the state's tangent coordinates: positions through gs_differentiatePos */
static void state_diff(const gsModel* m, gsReal* dx, const gsReal* x1, const gsReal* x2, gsReal h) {
  int nq = m->nq, nv = m->nv, na = m->na;
  gs_differentiatePos(m, dx, h, x1, x2);
  for (int i = 0; i < nv + na; i++) dx[nv + i] = (x2[nq + i] - x1[nq + i]) / h;
}

/* the difference from whichever sides were evaluated: both (centred), the plus side or the minus
 * side (one-sided against the nominal x0); none gives zero */
static void state_diff_sides(const gsModel* m, gsReal* dx, const gsReal* x0, const gsReal* xp,
                             const gsReal* xm, gsReal eps) {
  if (xp && xm) state_diff(m, dx, xm, xp, 2 * eps);
  else if (xp) state_diff(m, dx, x0, xp, eps);
  else if (xm) state_diff(m, dx, xm, x0, eps);
  else memset(dx, 0, sizeof(gsReal) * (size_t)(2 * m->nv + m->na));
}

static void diff_sides(gsReal* dy, int n, const gsReal* y0, const gsReal* yp, const gsReal* ym,
                       gsReal eps) {
  for (int i = 0; i < n; i++) {
    if (yp && ym) dy[i] = (yp[i] - ym[i]) / (2 * eps);
    else if (yp) dy[i] = (yp[i] - y0[i]) / eps;
    else if (ym) dy[i] = (y0[i] - ym[i]) / eps;
    else dy[i] = 0;
  }
}

/* column `col` of the row-major rows x cols matrix M (NULL: nothing) */
static void put_column(gsReal* M, int rows, int cols, int col, const gsReal* v) {
  if (!M) return;
  for (int r = 0; r < rows; r++) M[(size_t)r * cols + col] = v[r];
}

/* the columns of one perturbed input: the plus and minus sides asked for, differenced */
typedef struct {
  const gsModel* m;
  gsData* d;
  const Inputs* s;
  gsReal eps;
  int skipsensor;
  const gsReal *x0, *y0;          /* the nominal step's output */
  gsReal *xp, *yp, *xm, *ym;      /* the perturbed steps' outputs */
  gsReal *dx, *dy;                /* the differences */
} Work;

static void differences(const Work* w, int plus, int minus, gsReal* Mx, gsReal* My, int cols, int col) {
  const gsModel* m = w->m;
  int ndx = 2 * m->nv + m->na, ns = m->nsensordata;
  if (Mx) {
    state_diff_sides(m, w->dx, w->x0, plus ? w->xp : NULL, minus ? w->xm : NULL, w->eps);
    put_column(Mx, ndx, cols, col, w->dx);
  }
  if (My && !w->skipsensor) {
    diff_sides(w->dy, ns, w->y0, plus ? w->yp : NULL, minus ? w->ym : NULL, w->eps);
    put_column(My, ns, cols, col, w->dy);
  }
}

static void fill_nan(gsReal* M, int n) {
  if (M)
    for (int i = 0; i < n; i++) M[i] = NAN;
}

void gs_transitionFD(const gsModel* m, gsData* d, gsReal eps, int centered, gsReal* A, gsReal* B,
                     gsReal* C, gsReal* D) {
  int nq = m->nq, nv = m->nv, na = m->na, nu = m->nu, ns = m->nsensordata;
  int ndx = 2 * nv + na, nx = nq + nv + na;
  if (!A && !B && !C && !D) return;
  size_t mark = gs_arenaMark(d);
  Inputs s;
  s.qpos = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)(nq + 2 * nv + na + nu + 1));
  gsReal* out = gs_arenaAlloc(d, sizeof(gsReal) * ((size_t)3 * (nx + ns) + ndx + ns + nv + 1));
  /* Euler's factor of M + hB, made by the nominal step and shared by the steps of the same
   * position stage (controls, activations, velocities) */
  gsStepKeep factor = {gs_arenaAlloc(d, sizeof(gsReal) * (size_t)(m->nM + 1)),
                       gs_arenaAlloc(d, sizeof(gsReal) * (size_t)(nv + 1)), 0, NULL};
  gsStepKeep* kept = &factor;
  if (!s.qpos || !out || !factor.H || !factor.Hinv) {
    /* no room: NaN matrices, and the arena's warning counts it */
    fill_nan(A, ndx * ndx);
    fill_nan(B, ndx * nu);
    fill_nan(C, ns * ndx);
    fill_nan(D, ns * nu);
    gs_arenaRelease(d, mark);
    return;
  }
  s.qvel = s.qpos + nq;
  s.act = s.qvel + nv;
  s.ctrl = s.act + na;
  s.warm = s.ctrl + nu;
  Work w = {m, d, &s, eps, !C && !D, out, out + nx, out + nx + ns, out + 2 * nx + ns,
            out + 2 * (nx + ns), out + 2 * (nx + ns) + nx, out + 3 * (nx + ns),
            out + 3 * (nx + ns) + ndx};
  gsReal* dpos = w.dy + ns;
  /* RK4's later stages overwrite every stage's outputs (MJCF refuses RK4 here): no reuse */
  int rk4 = m->opt.integrator == GS_INT_RK4;
  int skipvel = rk4 ? GS_STAGE_NONE : GS_STAGE_VEL, skippos = rk4 ? GS_STAGE_NONE : GS_STAGE_POS;

  save(m, d, &s);
  /* the nominal step, with every stage and the sensors */
  gs_stepSkip(m, d, GS_STAGE_NONE, 0, kept);
  take(m, d, out, out + nx);
  restore(m, d, &s);

  /* PGS's dual setup (Y = D^-1/2 L^-T J^T, the diagonal of A and its blocks) depends on the
   * position stage alone: made once here for the steps that keep it, and released before the
   * position perturbations, which make their own (so the arena holds one at a time) */
  size_t mark_dual = gs_arenaMark(d);
  gsDual dual;
  if (!rk4 && m->opt.solver == GS_SOL_PGS && d->nefc > 0 && gs_dualSetup(m, d, &dual, 1))
    factor.dual = &dual;
  else
    gs_arenaRelease(d, mark_dual);

  /* controls: a control at a limit of its range is moved only into the range (one-sided), as the
   * step would clamp the other side away */
  if (B || D) {
    for (int i = 0; i < nu; i++) {
      const gsReal* r = m->actuator_ctrlrange + 2 * i;
      gsReal u = s.ctrl[i];
      int limited = m->actuator_ctrllimited[i] != 0;
      int plus = !limited || (u >= r[0] && u + eps <= r[1]);
      int minus = (centered || !plus) && (!limited || (u - eps >= r[0] && u <= r[1]));
      if (plus) {
        d->ctrl[i] = u + eps;
        perturbed_step(m, d, skipvel, w.skipsensor, kept, &s, w.xp, w.yp);
      }
      if (minus) {
        d->ctrl[i] = u - eps;
        perturbed_step(m, d, skipvel, w.skipsensor, kept, &s, w.xm, w.ym);
      }
      differences(&w, plus, minus, B, D, nu, i);
    }
  }

  /* activations: the velocity stage does not read them */
  if (A || C) {
    for (int i = 0; i < na; i++) {
      d->act[i] = s.act[i] + eps;
      perturbed_step(m, d, skipvel, w.skipsensor, kept, &s, w.xp, w.yp);
      if (centered) {
        d->act[i] = s.act[i] - eps;
        perturbed_step(m, d, skipvel, w.skipsensor, kept, &s, w.xm, w.ym);
      }
      differences(&w, 1, centered, A, C, ndx, 2 * nv + i);
    }
    /* velocities: the position stage does not read them */
    for (int i = 0; i < nv; i++) {
      d->qvel[i] = s.qvel[i] + eps;
      perturbed_step(m, d, skippos, w.skipsensor, kept, &s, w.xp, w.yp);
      if (centered) {
        d->qvel[i] = s.qvel[i] - eps;
        perturbed_step(m, d, skippos, w.skipsensor, kept, &s, w.xm, w.ym);
      }
      differences(&w, 1, centered, A, C, ndx, nv + i);
    }
    factor.dual = NULL;
    gs_arenaRelease(d, mark_dual);
    /* positions: along each tangent direction, quaternions through the exponential map */
    memset(dpos, 0, sizeof(gsReal) * (size_t)nv);
    for (int i = 0; i < nv; i++) {
      dpos[i] = 1;
      gs_integratePos(m, d->qpos, dpos, eps);
      perturbed_step(m, d, GS_STAGE_NONE, w.skipsensor, NULL, &s, w.xp, w.yp);
      if (centered) {
        gs_integratePos(m, d->qpos, dpos, -eps);
        perturbed_step(m, d, GS_STAGE_NONE, w.skipsensor, NULL, &s, w.xm, w.ym);
      }
      dpos[i] = 0;
      differences(&w, 1, centered, A, C, ndx, i);
    }
  }
  gs_arenaRelease(d, mark);
}
