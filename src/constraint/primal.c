/* The reduced primal problem (seed 000 eq. 13; MJCF's Newton and CG solvers): minimise over
 * accelerations a
 *     cost(a) = 1/2 (a - a0)^T M (a - a0) + sum_i s_i(J_i a - aref_i),
 * with a0 = qacc_smooth and s the soft-constraint penalty of each row or contact: quadratic for
 * equality rows, Huber for friction loss, half-quadratic for limits and pyramid edges, and for an
 * elliptic contact the squared R^-1-distance to the dual cone, which is analytic because
 * R_j mu_j^2 = R_0 mu^2. The constraint force is f = -grad s. The line search is exact: Newton's
 * method in one dimension on the piecewise-smooth cost, safeguarded by a bracket. */
#include <math.h>
#include <string.h>

#include "constraint/constraint.h"
#include "constraint/hessian.h"
#include "core/math.h"
#include "dynamics/dynamics.h"

/* ---- the penalty of an elliptic contact ---- */

typedef struct {
  gsReal N, T, u[5];  /* normal, tangential norm, scaled tangential residuals u_j = f_j/mu jar_j */
  gsReal mu, D0, s[5];
} gsConeEval;

static void cone_setup(gsConeEval* k, const gsData* d, const gsContact* c, int r, const gsReal* x) {
  int n = c->dim;
  k->mu = c->mu;
  k->D0 = d->efc_D[r];
  k->N = x[0];
  gsReal T2 = 0;
  for (int j = 1; j < n; j++) {
    k->s[j - 1] = k->mu > GS_MINVAL ? c->friction[j - 1] / k->mu : 0;
    k->u[j - 1] = k->s[j - 1] * x[j];
    T2 += k->u[j - 1] * k->u[j - 1];
  }
  k->T = sqrt(T2);
}

/* zone of an elliptic contact: 0 inside the dual cone (no force), 1 quadratic, 2 on the cone */
static int cone_zone(const gsConeEval* k) {
  if (k->N >= k->mu * k->T) return 0;
  if (k->mu * k->N + k->T <= 0 || k->mu <= GS_MINVAL) return 1;
  return 2;
}

void gs_constraintForce(const gsModel* m, gsData* d, const gsReal* jar, gsReal* force, int* state,
                        gsReal* cost) {
  gsReal total = 0;
  for (int r = 0; r < d->nefc;) {
    int type = d->efc_type[r];
    gsReal D = d->efc_D[r], x = jar[r];
    if (type == GS_CNSTR_CONTACT_ELLIPTIC) {
      const gsContact* c = d->contact + d->efc_id[r];
      int n = c->dim;
      gsConeEval k;
      cone_setup(&k, d, c, r, jar + r);
      int zone = cone_zone(&k);
      if (zone == 0) {
        for (int j = 0; j < n; j++) force[r + j] = 0, state[r + j] = GS_CNSTRSTATE_SATISFIED;
      } else if (zone == 1) {
        for (int j = 0; j < n; j++) {
          gsReal Dj = d->efc_D[r + j], xj = jar[r + j];
          force[r + j] = -Dj * xj;
          state[r + j] = GS_CNSTRSTATE_QUADRATIC;
          total += 0.5 * Dj * xj * xj;
        }
      } else {
        gsReal a = k.D0 / (1 + k.mu * k.mu), gap = k.N - k.mu * k.T, cc = a * gap;
        force[r] = -cc;
        for (int j = 1; j < n; j++) force[r + j] = cc * c->friction[j - 1] * k.u[j - 1] / k.T;
        for (int j = 0; j < n; j++) state[r + j] = GS_CNSTRSTATE_CONE;
        total += 0.5 * a * gap * gap;
      }
      r += n;
      continue;
    }
    gsReal f = 0;
    int s = GS_CNSTRSTATE_SATISFIED;
    if (type == GS_CNSTR_EQUALITY) {
      f = -D * x, s = GS_CNSTRSTATE_QUADRATIC;
    } else if (type == GS_CNSTR_FRICTION_DOF || type == GS_CNSTR_FRICTION_TENDON) {
      gsReal fl = d->efc_frictionloss[r], R = d->efc_R[r];
      if (x <= -R * fl) {
        f = fl, s = GS_CNSTRSTATE_LINEARNEG;
        total += -fl * x - 0.5 * R * fl * fl;
      } else if (x >= R * fl) {
        f = -fl, s = GS_CNSTRSTATE_LINEARPOS;
        total += fl * x - 0.5 * R * fl * fl;
      } else {
        f = -D * x, s = GS_CNSTRSTATE_QUADRATIC;
      }
    } else if (x < 0) {
      f = -D * x, s = GS_CNSTRSTATE_QUADRATIC;
    }
    if (s == GS_CNSTRSTATE_QUADRATIC) total += 0.5 * D * x * x;
    force[r] = f;
    state[r] = s;
    r++;
  }
  (void)m;
  if (cost) *cost = total;
}

/* slope and curvature of the constraint penalty along jar + alpha Jp */
static void penalty_line(const gsData* d, const gsReal* jar, const gsReal* Jp, gsReal alpha,
                         gsReal* d1, gsReal* d2) {
  gsReal s1 = 0, s2 = 0;
  for (int r = 0; r < d->nefc;) {
    int type = d->efc_type[r];
    gsReal D = d->efc_D[r], x = jar[r] + alpha * Jp[r], v = Jp[r];
    if (type == GS_CNSTR_CONTACT_ELLIPTIC) {
      const gsContact* c = d->contact + d->efc_id[r];
      int n = c->dim;
      gsReal xb[6] = {0};
      for (int j = 0; j < n; j++) xb[j] = jar[r + j] + alpha * Jp[r + j];
      gsConeEval k;
      cone_setup(&k, d, c, r, xb);
      int zone = cone_zone(&k);
      if (zone == 1) {
        for (int j = 0; j < n; j++) {
          gsReal Dj = d->efc_D[r + j];
          s1 += Dj * xb[j] * Jp[r + j];
          s2 += Dj * Jp[r + j] * Jp[r + j];
        }
      } else if (zone == 2) {
        gsReal a = k.D0 / (1 + k.mu * k.mu), gap = k.N - k.mu * k.T;
        gsReal dT = 0, du2 = 0;
        for (int j = 1; j < n; j++) {
          gsReal du = k.s[j - 1] * Jp[r + j];
          dT += k.u[j - 1] * du;
          du2 += du * du;
        }
        dT /= k.T;
        gsReal dgap = Jp[r] - k.mu * dT, d2T = (du2 - dT * dT) / k.T;
        s1 += a * gap * dgap;
        s2 += a * dgap * dgap - a * gap * k.mu * d2T;
      }
      r += n;
      continue;
    }
    if (type == GS_CNSTR_FRICTION_DOF || type == GS_CNSTR_FRICTION_TENDON) {
      gsReal fl = d->efc_frictionloss[r], R = d->efc_R[r];
      if (x <= -R * fl) {
        s1 -= fl * v;
      } else if (x >= R * fl) {
        s1 += fl * v;
      } else {
        s1 += D * x * v, s2 += D * v * v;
      }
    } else if (type == GS_CNSTR_EQUALITY || x < 0) {
      s1 += D * x * v, s2 += D * v * v;
    }
    r++;
  }
  *d1 = s1;
  *d2 = s2;
}

/* ---- the Hessian ---- */

/* H = M + sum J^T (d2 s) J over the rows with curvature, at the current states; returns the rows
 * assembled */
static int hessian(const gsModel* m, const gsData* d, const gsReal* jar, const int* state,
                   gsHessian* h) {
  int nrow = 0;
  gs_hessianSetM(m, d, h);
  for (int r = 0; r < d->nefc;) {
    const int* col = d->efc_J_colind + d->efc_J_rowadr[r];
    int nnz = d->efc_J_rownnz[r];
    if (d->efc_type[r] == GS_CNSTR_CONTACT_ELLIPTIC && state[r] == GS_CNSTRSTATE_CONE) {
      /* the cone block: a g g^T + a (-mu gap / T) S (I - e e^T) S, in the rows' coordinates */
      const gsContact* c = d->contact + d->efc_id[r];
      int n = c->dim;
      gsConeEval k;
      cone_setup(&k, d, c, r, jar + r);
      gsReal a = k.D0 / (1 + k.mu * k.mu), gap = k.N - k.mu * k.T, t = -k.mu * gap / k.T;
      gsReal g[6];
      g[0] = 1;
      for (int j = 1; j < n; j++) g[j] = -k.mu * k.s[j - 1] * k.u[j - 1] / k.T;
      /* all rows of a contact share their columns */
      for (int p = 0; p < n; p++)
        for (int q = 0; q < n; q++) {
          gsReal b = a * g[p] * g[q];
          if (p > 0 && q > 0) {
            gsReal e = (p == q) - k.u[p - 1] * k.u[q - 1] / (k.T * k.T);
            b += a * t * k.s[p - 1] * k.s[q - 1] * e;
          }
          if (b == 0) continue;
          gs_hessianAddOuter(h, col, nnz, d->efc_J + d->efc_J_rowadr[r + p],
                             d->efc_J + d->efc_J_rowadr[r + q], b);
        }
      nrow += n;
      r += n;
      continue;
    }
    if (state[r] == GS_CNSTRSTATE_QUADRATIC) {
      const gsReal* v = d->efc_J + d->efc_J_rowadr[r];
      gs_hessianAddOuter(h, col, nnz, v, v, d->efc_D[r]);
      nrow++;
    }
    r++;
  }
  return nrow;
}

/* the factor for the new states: rank-1 updates with the rows that entered or left the
 * quadratic state when they cost less than a refactor, else (or when a downdate fails) a
 * refactor. Returns the updates or rows assembled, -1 when H is not positive definite. */
static int refresh_factor(const gsModel* m, const gsData* d, const gsReal* jar, const int* state,
                          const int* oldstate, int factored, gsHessian* h) {
  int nefc = d->nefc, refactor = !factored;
  double cost = 0;
  for (int r = 0; r < nefc && !refactor; r++) {
    /* a cone block depends on the point, not only on the state */
    if (state[r] == GS_CNSTRSTATE_CONE || oldstate[r] == GS_CNSTRSTATE_CONE) {
      refactor = 1;
    } else if ((state[r] == GS_CNSTRSTATE_QUADRATIC) != (oldstate[r] == GS_CNSTRSTATE_QUADRATIC)) {
      cost += gs_hessianUpdateCost(h, d->efc_J_colind + d->efc_J_rowadr[r], d->efc_J_rownnz[r]);
      refactor = cost > h->factorcost;
    }
  }
  if (!refactor) {
    /* updates before downdates, so that H stays as far from singular as it can */
    int nupdate = 0;
    for (int pass = 0; pass < 2 && !refactor; pass++)
      for (int r = 0; r < nefc; r++) {
        int now = state[r] == GS_CNSTRSTATE_QUADRATIC, before = oldstate[r] == GS_CNSTRSTATE_QUADRATIC;
        if (now == before || now != (pass == 0)) continue;
        /* sqrt(D) J_r, scaled in the update's sign */
        int nnz = d->efc_J_rownnz[r];
        gsReal sd = sqrt(d->efc_D[r]), *v = h->row;
        const gsReal* J = d->efc_J + d->efc_J_rowadr[r];
        for (int k = 0; k < nnz; k++) v[k] = sd * J[k];
        if (!gs_hessianUpdate(h, d->efc_J_colind + d->efc_J_rowadr[r], nnz, v, now ? 1 : -1)) {
          refactor = 1;
          break;
        }
        nupdate++;
      }
    if (!refactor) return nupdate;
  }
  int nrow = hessian(m, d, jar, state, h);
  return gs_hessianFactor(h) ? nrow : -1;
}

/* ---- the solver ---- */

typedef struct {
  gsReal *a, *Ma, *grad, *Mgrad, *p, *Mp, *jar, *Jp, *force, *tmp;
  int* state;
  int* oldstate;
} gsPrimal;

/* cost, gradient, forces and states at w->a, given w->Ma = M a and w->jar = J a - aref */
static gsReal evaluate_products(const gsModel* m, gsData* d, gsPrimal* w) {
  int nv = m->nv;
  gsReal cost;
  gs_constraintForce(m, d, w->jar, w->force, w->state, &cost);
  gs_mulJT(m, d, w->tmp, w->force);
  gsReal gauss = 0;
  for (int i = 0; i < nv; i++) {
    gsReal e = w->Ma[i] - d->qfrc_smooth[i];
    gauss += 0.5 * (w->a[i] - d->qacc_smooth[i]) * e;
    w->grad[i] = e - w->tmp[i];
  }
  return gauss + cost;
}

/* the same from a alone */
static gsReal evaluate(const gsModel* m, gsData* d, gsPrimal* w) {
  gs_mulM(m, d, w->Ma, w->a);
  gs_constraintResidual(d, w->a, w->jar);
  return evaluate_products(m, d, w);
}

/* exact line search along p from a; returns the step, and the evaluations in *neval */
static gsReal line_search(const gsModel* m, gsData* d, gsPrimal* w, gsReal* slope0, int* neval) {
  int nv = m->nv;
  gs_mulM(m, d, w->Mp, w->p);
  gs_mulJ(d, w->Jp, w->p);
  gsReal g1 = 0, g2 = 0;
  for (int i = 0; i < nv; i++) {
    g1 += w->p[i] * (w->Ma[i] - d->qfrc_smooth[i]);
    g2 += w->p[i] * w->Mp[i];
  }
  gsReal s1, s2;
  penalty_line(d, w->jar, w->Jp, 0, &s1, &s2);
  gsReal d0 = g1 + s1;
  *slope0 = d0;
  *neval = 1;
  if (!(d0 < 0)) return 0;
  gsReal lo = 0, hi = -1, alpha = 0, dphi = d0, d2phi = g2 + s2;
  gsReal tol = m->opt.ls_tolerance * fabs(d0);
  int maxit = m->opt.ls_iterations > 0 ? m->opt.ls_iterations : 1;
  for (int it = 0; it < maxit; it++) {
    gsReal next = d2phi > 0 ? alpha - dphi / d2phi : (hi < 0 ? 2 * alpha + 1 : 0.5 * (lo + hi));
    if (!(next > lo) || (hi >= 0 && !(next < hi))) next = hi < 0 ? 2 * alpha + 1 : 0.5 * (lo + hi);
    alpha = next;
    penalty_line(d, w->jar, w->Jp, alpha, &s1, &s2);
    (*neval)++;
    dphi = g1 + alpha * g2 + s1;
    d2phi = g2 + s2;
    if (fabs(dphi) <= tol) break;
    if (dphi < 0) lo = alpha; else hi = alpha;
  }
  return alpha;
}

int gs_solveNewton(const gsModel* m, gsData* d, int cg) {
  int nv = m->nv, nefc = d->nefc;
  size_t mark = gs_stackMark(d);
  gsPrimal w;
  gsReal** vec[] = {&w.a, &w.Ma, &w.grad, &w.Mgrad, &w.p, &w.Mp, &w.tmp};
  int ok = 1;
  for (size_t i = 0; i < sizeof(vec) / sizeof(vec[0]); i++)
    ok &= (*vec[i] = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nv)) != NULL;
  w.jar = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nefc);
  w.Jp = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nefc);
  w.force = gs_stackAlloc(d, sizeof(gsReal) * (size_t)nefc);
  w.state = gs_stackAlloc(d, sizeof(int) * (size_t)nefc);
  w.oldstate = gs_stackAlloc(d, sizeof(int) * (size_t)nefc);
  /* MJCF's jacobian option selects the Hessian's path: dense, sparse, or sparse from 60 dofs */
  gsHessian h;
  int sparse = m->opt.jacobian == GS_JAC_SPARSE || (m->opt.jacobian == GS_JAC_AUTO && nv >= 60);
  if (!ok || !w.jar || !w.Jp || !w.force || !w.state || !w.oldstate ||
      (!cg && !gs_hessianSetup(m, d, &h, sparse))) {
    gs_stackRelease(d, mark);
    return -1;
  }

  /* start from the better of the smooth acceleration and the last step's (warm start) */
  gs_copy(w.a, d->qacc_smooth, nv);
  gsReal cost = evaluate(m, d, &w);
  if (!(m->opt.disableflags & GS_DSBL_WARMSTART)) {
    gs_copy(w.p, w.a, nv);
    gs_copy(w.a, d->qacc_warmstart, nv);
    gsReal warm = evaluate(m, d, &w);
    if (warm < cost) {
      cost = warm;
    } else {
      gs_copy(w.a, w.p, nv);
      cost = evaluate(m, d, &w);
    }
  }

  gsReal scale = gs_solverScale(m, d);
  gsReal tol = m->opt.tolerance;

  int iter = 0, factored = 0;
  gsReal gMg = 0;
  if (cg) {
    gs_solveM(m, d, w.Mgrad, w.grad, 1);
    for (int i = 0; i < nv; i++) w.p[i] = -w.Mgrad[i];
    gMg = gs_dot(w.grad, w.Mgrad, nv);
  }
  memcpy(w.oldstate, w.state, sizeof(int) * (size_t)nefc);
  for (; iter < m->opt.iterations; iter++) {
    gsReal gnorm = sqrt(gs_dot(w.grad, w.grad, nv));
    if (scale * gnorm < tol) break;
    int nupdate = 0;
    if (!cg) {
      nupdate = refresh_factor(m, d, w.jar, w.state, w.oldstate, factored, &h);
      if (nupdate < 0) break;
      factored = 1;
      for (int i = 0; i < nv; i++) w.p[i] = -w.grad[i];
      gs_hessianSolve(&h, w.p);
    }
    memcpy(w.oldstate, w.state, sizeof(int) * (size_t)nefc);
    gsReal slope;
    int neval;
    gsReal alpha = line_search(m, d, &w, &slope, &neval);
    if (alpha == 0) break;
    /* the line search has M p and J p: the products move with a */
    gs_addScl(w.a, w.p, alpha, nv);
    gs_addScl(w.Ma, w.Mp, alpha, nv);
    gs_addScl(w.jar, w.Jp, alpha, nefc);
    gsReal old = cost;
    cost = evaluate_products(m, d, &w);
    int nchange = 0, nactive = 0;
    for (int r = 0; r < nefc; r++) {
      nchange += w.state[r] != w.oldstate[r];
      nactive += w.state[r] != GS_CNSTRSTATE_SATISFIED;
    }
    gsReal improvement = scale * (old - cost);
    if (iter < GS_NSOLVER) {
      gsSolverStat* st = d->solver + iter;
      st->improvement = improvement;
      st->gradient = scale * sqrt(gs_dot(w.grad, w.grad, nv));
      st->lineslope = slope;
      st->nactive = nactive;
      st->nchange = nchange;
      st->neval = neval;
      st->nupdate = nupdate;
    }
    if (cg) {
      /* Polak-Ribiere with M^-1 as preconditioner, restarted when beta < 0 */
      gs_copy(w.tmp, w.Mgrad, nv);
      gs_solveM(m, d, w.Mgrad, w.grad, 1);
      gsReal num = 0;
      for (int i = 0; i < nv; i++) num += w.grad[i] * (w.Mgrad[i] - w.tmp[i]);
      gsReal beta = gMg > 0 ? num / gMg : 0;
      if (beta < 0) beta = 0;
      for (int i = 0; i < nv; i++) w.p[i] = -w.Mgrad[i] + beta * w.p[i];
      gMg = gs_dot(w.grad, w.Mgrad, nv);
    }
    if (improvement < tol) {
      iter++;
      break;
    }
  }

  gs_copy(d->qacc, w.a, nv);
  memcpy(d->efc_force, w.force, sizeof(gsReal) * (size_t)nefc);
  memcpy(d->efc_state, w.state, sizeof(int) * (size_t)nefc);
  gs_mulJT(m, d, d->qfrc_constraint, d->efc_force);
  gs_stackRelease(d, mark);
  return iter;
}
