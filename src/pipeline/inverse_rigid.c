/* Inverse dynamics under rigid contact (include/gauss/inverse_rigid.h; seed 004, sections 3-5).
 *
 * Every method shares one reduction. With the actuated accelerations a_A fixed to the desired
 * ones, the rows of the dofs no actuator drives (U: a floating base) give
 *   M_UU a_U = f0_U - M_UA a_A + J_U^T f,        f0 = qfrc_passive - qfrc_bias + qfrc_applied,
 * so a_U = a_U0 + L^-T G^T f with M_UU = L L^T and G = J_U L^-T (rows: contact directions, |U|
 * columns). The contact velocities after the step are v+ = J qvel + dt J a = dt (b + G G^T f),
 * b = J qvel / dt + J a0. This is the Schur complement of the seed's X = [M P^T; P 0] (eq. 57):
 * its LCPs N X^-1 N^T are G G^T, of rank |U| at most (Appendix D), never formed as n x n where the
 * method does not need it. The actuated forces follow from the actuated rows (eq. 73):
 *   tau = (M a - f0 - J^T f)_A. */
#include <math.h>
#include <string.h>

#include "core/arena.h"
#include "core/dense.h"
#include "gauss/inverse_rigid.h"
#include "pipeline/pipeline.h"
#include "solver/lcp.h"

void gs_defaultRigidOpt(gsRigidOpt* opt) {
  memset(opt, 0, sizeof(*opt));
  opt->method = GS_RIGID_NOSLIP;
  opt->friction = 1;
  opt->warmstart = 1;
  opt->stage2 = 1;
  opt->skipstage = GS_STAGE_NONE;
}

/* an upper bound of the reals one call takes from the arena (src/model/capacity.c adds it) */
size_t gs_inverseRigidReals(int nv_, int ncon) {
  size_t nv = (size_t)nv_, nc = (size_t)ncon, r = 3 * nc;
  size_t common = 3 * nv * nv + 2 * r * nv + r + 12 * nv + 8 * nc + 64;
  size_t noslip = 2 * nv * nv + 2 * nc * nv + 7 * nc + 2 * nv + gs_ppmWork(ncon, nv_);
  /* section 3.5's repair after it: the regularised LCP, then a QP in the actuated dofs */
  size_t nrow = nc + 2 * nv;
  size_t repair = nc * nc + gs_lemkeWork(ncon) + 2 * nrow * nv + nrow + nv * nv + 5 * nv + 16 +
                  gs_qpWork(nv_, (int)nrow, 0);
  noslip += repair;
  size_t s = 6 * nc;
  size_t coulomb = s * s + 2 * s + gs_lemkeWork((int)s) + 2 * s + gs_lcpEnumWork(GS_LCP_ENUM_MAX);
  size_t nz = 5 * nc, m1 = 2 * nc, m2 = 2 * nv + nc + 2;
  /* the QP: what both stages keep, then the larger stage (Stage I's scratch is released) */
  size_t qp1 = nz * nz + m1 * nz + m1 + nz + gs_qpWork((int)nz, (int)m1, 1);
  size_t qp2 = nv * nz + nz * nz + m2 * nz + m2 + 2 * nz + 2 * nv + gs_qpWork((int)nz, (int)m2, 1);
  size_t qp = nz * nv + 2 * nz + nv + r + (qp1 > qp2 ? qp1 : qp2);
  size_t meth = noslip > coulomb ? noslip : coulomb;
  if (qp > meth) meth = qp;
  return common + meth + 64;
}

typedef struct {
  int nv, nf, na, nc;     /* dofs, unactuated (free) dofs, actuated dofs, contacts used */
  int *fid, *aid, *con;   /* unactuated dof ids, actuated dof ids, contact ids */
  int *sel, nsel;         /* no-slip: the tangent rows Algorithm 1 kept (rows of J) */
  gsReal h;
  gsReal *M, *J, *L, *G, *b, *a, *f0, *mu;
} Setup;

static gsReal* take(gsData* d, size_t n, int* ok) {
  gsReal* p = gs_arenaAlloc(d, sizeof(gsReal) * (n > 0 ? n : 1));
  if (!p) *ok = 0;
  return p;
}

/* dofs driven by an actuator with a joint transmission */
static void actuated_dofs(const gsModel* m, char* act) {
  memset(act, 0, (size_t)m->nv);
  for (int i = 0; i < m->nu; i++) {
    int t = m->actuator_trntype[i];
    if (t != GS_TRN_JOINT && t != GS_TRN_JOINTINPARENT) continue;
    int j = m->actuator_trnid[2 * i];
    if (j < 0 || j >= m->njnt) continue;
    int nd = m->jnt_type[j] == GS_JNT_FREE ? 6 : m->jnt_type[j] == GS_JNT_BALL ? 3 : 1;
    for (int k = 0; k < nd; k++) act[m->jnt_dofadr[j] + k] = 1;
  }
}

/* the shared reduction; 0 when M_UU is not positive definite or the arena is full */
static int setup(const gsModel* m, gsData* d, const gsRigidOpt* opt, Setup* s, int* ok) {
  int nv = m->nv;
  s->nv = nv;
  s->h = opt->dt > 0 ? opt->dt : m->opt.timestep;
  char* act = (char*)take(d, (size_t)nv / sizeof(gsReal) + 1, ok);
  s->fid = (int*)take(d, (size_t)nv / 2 + 1, ok);
  s->aid = (int*)take(d, (size_t)nv / 2 + 1, ok);
  s->con = (int*)take(d, (size_t)d->ncon / 2 + 1, ok);
  s->sel = (int*)take(d, (size_t)nv / 2 + 1, ok);
  s->nsel = 0;
  if (!*ok) return 0;
  actuated_dofs(m, act);
  s->nf = s->na = 0;
  for (int i = 0; i < nv; i++) {
    if (act[i]) s->aid[s->na++] = i;
    else s->fid[s->nf++] = i;
  }
  s->nc = 0;
  for (int c = 0; c < d->ncon; c++)
    if (d->contact[c].efc_address >= 0) s->con[s->nc++] = c;
  int nc = s->nc, nf = s->nf, r = 3 * nc;
  s->M = take(d, (size_t)nv * nv, ok);
  s->J = take(d, (size_t)r * nv, ok);
  s->L = take(d, (size_t)nf * nf, ok);
  s->G = take(d, (size_t)r * nf, ok);
  s->b = take(d, (size_t)r, ok);
  s->a = take(d, (size_t)nv, ok);
  s->f0 = take(d, (size_t)nv, ok);
  s->mu = take(d, (size_t)nc, ok);
  gsReal* jac = take(d, 6 * (size_t)nv, ok);
  gsReal* tmp = take(d, (size_t)nv, ok);
  if (!*ok) return 0;
  gs_fullM(m, s->M, d->qM);
  for (int i = 0; i < nv; i++) s->f0[i] = d->qfrc_passive[i] - d->qfrc_bias[i] + d->qfrc_applied[i];
  /* contact rows: the frame's directions on the relative velocity of geom2's body to geom1's */
  for (int k = 0; k < nc; k++) {
    const gsContact* c = &d->contact[s->con[k]];
    int b1 = m->geom_bodyid[c->geom1], b2 = m->geom_bodyid[c->geom2];
    memset(jac, 0, sizeof(gsReal) * 6 * (size_t)nv);
    if (b1 > 0) gs_jac(m, d, jac, NULL, c->pos, b1);
    if (b2 > 0) gs_jac(m, d, jac + 3 * (size_t)nv, NULL, c->pos, b2);
    for (int row = 0; row < 3; row++) {
      gsReal* jr = s->J + (size_t)(3 * k + row) * nv;
      const gsReal* fr = c->frame + 3 * row;
      for (int i = 0; i < nv; i++) {
        gsReal v = 0;
        for (int x = 0; x < 3; x++) v += fr[x] * (jac[(size_t)(3 + x) * nv + i] - jac[(size_t)x * nv + i]);
        jr[i] = v;
      }
    }
    s->mu[k] = c->dim > 1 ? c->friction[0] : 0;
  }
  /* a0: the desired a_A, and a_U0 from the unactuated rows without contact */
  memcpy(s->a, d->qacc, sizeof(gsReal) * (size_t)nv);
  for (int i = 0; i < nf; i++) {
    int p = s->fid[i];
    for (int j = 0; j < nf; j++) s->L[(size_t)i * nf + j] = s->M[(size_t)p * nv + s->fid[j]];
    gsReal t = s->f0[p];
    for (int j = 0; j < s->na; j++) t -= s->M[(size_t)p * nv + s->aid[j]] * s->a[s->aid[j]];
    tmp[i] = t;
  }
  if (nf > 0 && gs_cholesky(s->L, nf, 1e-14) >= 0) return 0;
  gs_cholSolve(s->L, nf, tmp);
  for (int i = 0; i < nf; i++) s->a[s->fid[i]] = tmp[i];
  /* b = J (qvel / dt + a0), G = J_U L^-T */
  for (int i = 0; i < nv; i++) tmp[i] = d->qvel[i] / s->h + s->a[i];
  gs_denseMulVec(s->b, s->J, tmp, r, nv, 0);
  for (int row = 0; row < r; row++) {
    gsReal* g = s->G + (size_t)row * nf;
    for (int i = 0; i < nf; i++) g[i] = s->J[(size_t)row * nv + s->fid[i]];
    gs_solveL(s->L, nf, g);
  }
  return 1;
}

/* ---- no-slip (section 3) ---- */
static int solve_noslip(const gsModel* m, gsData* d, const gsRigidOpt* opt, gsRigidWarm* warm,
                        Setup* s, gsReal* frow, gsRigidStat* st, int* ok) {
  (void)m;
  int nc = s->nc, nf = s->nf;
  gsReal* Q = take(d, (size_t)nf * nf, ok);     /* orthonormal basis of the kept tangent rows */
  gsReal* C = take(d, (size_t)nf * nf, ok);     /* kept rows = C Q, C lower triangular */
  gsReal* Gp = take(d, (size_t)nc * nf, ok);    /* normal rows with Q's span removed */
  gsReal* P = take(d, (size_t)nc * nf, ok);     /* their components along Q */
  gsReal* q = take(d, (size_t)nc, ok);
  gsReal* z = take(d, (size_t)nc, ok);
  gsReal* w = take(d, (size_t)nc, ok);
  gsReal* y = take(d, 2 * (size_t)nf + 2, ok);
  int* sel = (int*)take(d, (size_t)nf / 2 + 1, ok);
  int* nb = (int*)take(d, (size_t)nc / 2 + 1, ok);
  char* loose = (char*)take(d, (size_t)nc / sizeof(gsReal) + 1, ok);
  gsReal* work = take(d, gs_ppmWork(nc, nf), ok);
  if (!*ok) return -2;
  memset(loose, 0, (size_t)nc);
  int nnb = 0;
  if (warm && opt->warmstart)
    for (int i = 0; i < warm->nnb; i++)
      for (int c = 0; c < nc; c++)
        if (s->con[c] == warm->nb[i]) { nb[nnb++] = c; break; }
  gsLCPStat ls;
  memset(&ls, 0, sizeof ls);
  int k = 0;
  /* A contact that carries no normal force is not held tangentially: the seed's S v+ = 0,
   * T v+ = 0 would otherwise pin a lifting foot, and a contact that neither opens nor presses
   * (a foot the motion keeps exactly on the ground) would take unbounded tangential force with
   * none normal. Such contacts are let go and the problem solved again from the set found (a
   * few passes: each lets at least one contact go). */
  for (int pass = 0; pass < 4; pass++) {
    /* Algorithm 1: keep a tangent row when it is independent of those kept (with M_UU's metric,
     * G's rows); at most |U| of them. Gram-Schmidt is the incremental factor of X^T M^-1 X; a
     * row whose independent part is below 1e-6 of its norm counts as dependent, so that C stays
     * well conditioned. */
    k = 0;
    for (int c = 0; c < nc && k < nf; c++) {
      if (loose[c]) continue;
      for (int t = 1; t <= 2 && k < nf; t++) {
        const gsReal* g = s->G + (size_t)(3 * c + t) * nf;
        gsReal* v = Q + (size_t)k * nf;
        memcpy(v, g, sizeof(gsReal) * (size_t)nf);
        gsReal n0 = 0;
        for (int i = 0; i < nf; i++) n0 += g[i] * g[i];
        n0 = sqrt(n0);
        gsReal rest = gs_orthogonalize(Q, k, nf, v, y);
        if (!(rest > 1e-6 * n0) || n0 == 0) continue;
        for (int i = 0; i < nf; i++) v[i] /= rest;
        for (int j = 0; j < nf; j++) C[(size_t)k * nf + j] = j < k ? y[j] : (j == k ? rest : 0);
        sel[k++] = 3 * c + t;
      }
    }
    /* eq. 38-39: the normal LCP after the kept tangent rows are eliminated; with G_T = C Q^T,
     * Q_NN - Q_NT Q_TT^-1 Q_TN = (G_N (I - Q Q^T)) (...)^T and r = b_N - P C^-1 b_T */
    gsReal* cb = y;   /* C^-1 b_T */
    for (int i = 0; i < k; i++) {
      gsReal t = s->b[sel[i]];
      for (int j = 0; j < i; j++) t -= C[(size_t)i * nf + j] * cb[j];
      cb[i] = t / C[(size_t)i * nf + i];
    }
    for (int c = 0; c < nc; c++) {
      gsReal* gp = Gp + (size_t)c * nf;
      memcpy(gp, s->G + (size_t)(3 * c) * nf, sizeof(gsReal) * (size_t)nf);
      gsReal n0 = 0;
      for (int i = 0; i < nf; i++) n0 += gp[i] * gp[i];
      /* a normal row in the kept tangents' span is zero, not rounding: the pivots must not
       * divide by what is left of it */
      if (gs_orthogonalize(Q, k, nf, gp, P + (size_t)c * nf) <= 1e-9 * sqrt(n0))
        memset(gp, 0, sizeof(gsReal) * (size_t)nf);
      gsReal t = s->b[3 * c];
      for (int j = 0; j < k; j++) t -= P[(size_t)c * nf + j] * cb[j];
      q[c] = t;
    }
    /* Algorithm 2, warm-started from the contacts that carried force last time */
    int piv = st->pivots;
    gs_ppm(nc, nf, Gp, q, z, w, nb, &nnb, 0, &ls, work);
    st->pivots = piv + ls.pivots;
    if (ls.status < 0) break;
    gsReal wmax = 0;
    for (int c = 0; c < nc; c++) wmax = fmax(wmax, fabs(w[c]));
    int changed = 0;
    for (int c = 0; c < nc; c++)
      if (!loose[c] && z[c] == 0) { loose[c] = 1; changed = 1; }
    if (!changed) break;
  }
  if (ls.status < 0 && opt->repair) {
    /* section 3.5: no force set keeps every contact from closing. The normal LCP regularised
     * until it is a P-matrix one (1e-3 of its largest diagonal) has a solution: its forces are
     * kept and the desired accelerations repaired around them (repair_acc) */
    size_t mk = gs_arenaMark(d);
    gsReal* Mn = take(d, (size_t)nc * nc, ok);
    gsReal* lw = take(d, gs_lemkeWork(nc), ok);
    if (!*ok) return -2;
    gs_denseMulBT(Mn, Gp, Gp, nc, nf, nc);
    gsReal dmax = 0;
    for (int c = 0; c < nc; c++) dmax = fmax(dmax, Mn[(size_t)c * nc + c]);
    for (int c = 0; c < nc; c++) {
      /* a contact whose force cannot move the base (its projected row is zero) gets none: the
       * regularisation alone would balance its q with a force of -q / eps */
      if (Mn[(size_t)c * nc + c] == 0) {
        Mn[(size_t)c * nc + c] = 1;
        if (q[c] < 0) q[c] = -q[c];
      }
      Mn[(size_t)c * nc + c] += 1e-3 * (dmax > 0 ? dmax : 1);
    }
    gsLCPStat lr;
    gs_lemke(nc, Mn, q, z, w, 0, 0, &lr, lw);
    st->pivots += lr.pivots;
    gs_arenaRelease(d, mk);
    if (lr.status == 0) {
      ls.status = 2;
      ls.reg = 1e-3 * (dmax > 0 ? dmax : 1);
      nnb = 0;
      for (int c = 0; c < nc; c++) if (z[c] > 0) nb[nnb++] = c;
    }
  }
  st->ntangent = k;
  st->fallback = ls.fallback;
  st->residual = ls.residual;
  st->reg = ls.reg;
  st->nnb = nnb;
  if (warm) {
    warm->nnb = 0;
    for (int i = 0; i < nnb && i < GS_RIGID_MAXWARM; i++) warm->nb[warm->nnb++] = s->con[nb[i]];
  }
  if (ls.status < 0) return -1;
  /* the kept tangent forces: C^T f_T = -C^-1 b_T - P^T f_N */
  gsReal* cb = y;
  gsReal* ft = y + nf;
  for (int j = 0; j < k; j++) {
    gsReal t = -cb[j];
    for (int c = 0; c < nc; c++) t -= P[(size_t)c * nf + j] * z[c];
    ft[j] = t;
  }
  for (int i = k - 1; i >= 0; i--) {
    gsReal t = ft[i];
    for (int j = i + 1; j < k; j++) t -= C[(size_t)j * nf + i] * ft[j];
    ft[i] = t / C[(size_t)i * nf + i];
  }
  memset(frow, 0, sizeof(gsReal) * 3 * (size_t)nc);
  for (int c = 0; c < nc; c++) frow[3 * c] = z[c];
  for (int j = 0; j < k; j++) frow[sel[j]] = ft[j];
  s->nsel = k;
  memcpy(s->sel, sel, sizeof(int) * (size_t)k);
  return ls.status;
}

/* Section 3.5 (eqs. 40-45) with the forces f fixed: the actuated accelerations nearest the
 * desired ones, min 1/2 |a_A - a_des|^2, such that after the step no contact closes (normal rows
 * v+ >= 0) and the tangent rows Algorithm 1 kept do not slide (v+ = 0). With f fixed the base
 * follows a_A: a_U = M_UU^-1 (f0_U - M_UA a_A + J_U^T f), so each row's velocity after the step is
 * v+ = c + dt W a_A, W = J_A - J_U M_UU^-1 M_UA. s->a becomes the repaired acceleration (base
 * included). 1: repaired, 0: the QP has no solution (s->a untouched). */
static int repair_acc(gsData* d, Setup* s, const gsReal* frow, int* ok) {
  int nv = s->nv, nf = s->nf, na = s->na, nc = s->nc, nrow = nc + 2 * s->nsel;
  size_t mark = gs_arenaMark(d);
  gsReal* W = take(d, (size_t)nrow * na + 1, ok);
  gsReal* A = take(d, (size_t)nrow * na + 1, ok);
  gsReal* bA = take(d, (size_t)nrow + 1, ok);
  gsReal* H = take(d, (size_t)na * na + 1, ok);
  gsReal* g = take(d, (size_t)na + 1, ok);
  gsReal* x = take(d, (size_t)na + 1, ok);
  gsReal* aU = take(d, (size_t)nf + 1, ok);
  gsReal* col = take(d, (size_t)nf + 1, ok);
  gsReal* a = take(d, (size_t)nv, ok);
  gsReal* work = take(d, gs_qpWork(na, nrow, 0), ok);
  if (!*ok) { gs_arenaRelease(d, mark); return 0; }
  /* a_U with a_A = 0 (the forces' and f0's share): M_UU^-1 (f0_U + J_U^T f) */
  for (int i = 0; i < nf; i++) {
    int p = s->fid[i];
    gsReal t = s->f0[p];
    for (int r = 0; r < 3 * nc; r++) t += s->J[(size_t)r * nv + p] * frow[r];
    aU[i] = t;
  }
  gs_cholSolve(s->L, nf, aU);
  memset(a, 0, sizeof(gsReal) * (size_t)nv);
  for (int i = 0; i < nf; i++) a[s->fid[i]] = aU[i];
  for (int k = 0; k < nrow; k++) {
    int row = k < nc ? 3 * k : s->sel[(k - nc) / 2];
    const gsReal* jr = s->J + (size_t)row * nv;
    gsReal c = 0;
    for (int i = 0; i < nv; i++) c += jr[i] * (d->qvel[i] + s->h * a[i]);
    /* W: the actuated column j moves the row directly and through the base */
    for (int j = 0; j < na; j++) {
      int pa = s->aid[j];
      for (int i = 0; i < nf; i++) col[i] = s->M[(size_t)s->fid[i] * nv + pa];
      gs_cholSolve(s->L, nf, col);
      gsReal t = jr[pa];
      for (int i = 0; i < nf; i++) t -= jr[s->fid[i]] * col[i];
      W[(size_t)k * na + j] = s->h * t;
    }
    /* rows: normal c + W x >= 0; kept tangents as two inequalities */
    gsReal sign = k < nc || (k - nc) % 2 == 0 ? 1 : -1;
    for (int j = 0; j < na; j++) A[(size_t)k * na + j] = sign * W[(size_t)k * na + j];
    bA[k] = -sign * c;
  }
  memset(H, 0, sizeof(gsReal) * (size_t)na * na);
  for (int j = 0; j < na; j++) {
    H[(size_t)j * na + j] = 1;
    g[j] = -s->a[s->aid[j]];
  }
  gsLCPStat ls;
  gs_qp(na, H, g, nrow, A, bA, 0, 0, x, NULL, &ls, work);
  int good = ls.status == 0;
  if (good) {
    /* the repaired a_A = x, and a_U0 = M_UU^-1 (f0_U - M_UA x): the caller adds the forces' */
    for (int j = 0; j < na; j++) s->a[s->aid[j]] = x[j];
    for (int i = 0; i < nf; i++) {
      gsReal t = s->f0[s->fid[i]];
      for (int j = 0; j < na; j++) t -= s->M[(size_t)s->fid[i] * nv + s->aid[j]] * x[j];
      col[i] = t;
    }
    gs_cholSolve(s->L, nf, col);
    for (int i = 0; i < nf; i++) s->a[s->fid[i]] = col[i];
  }
  gs_arenaRelease(d, mark);
  return good;
}

/* the five force directions of contact c in G's space: normal, +t1, -t1, +t2, -t2 */
static void pyramid_rows(const Setup* s, gsReal* D) {
  int nf = s->nf;
  for (int c = 0; c < s->nc; c++)
    for (int e = 0; e < 5; e++) {
      int row = 3 * c + (e + 1) / 2;
      gsReal sign = e == 2 || e == 4 ? -1 : 1;
      const gsReal* g = s->G + (size_t)row * nf;
      gsReal* dd = D + (size_t)(5 * c + e) * nf;
      for (int i = 0; i < nf; i++) dd[i] = sign * g[i];
    }
}

/* ---- Coulomb friction (section 4): the LCP of eq. 58 in (f_N, f_F, lambda) ---- */
/* the force the last call gave the contact between the same geoms (0 when none) */
static void last_force(const gsRigidWarm* warm, const gsContact* c, gsReal f[3]) {
  f[0] = f[1] = f[2] = 0;
  for (int i = 0; warm && i < warm->ncon; i++)
    if (warm->geom[2 * i] == c->geom1 && warm->geom[2 * i + 1] == c->geom2) {
      memcpy(f, warm->force + 3 * i, sizeof(gsReal) * 3);
      return;
    }
}

static int solve_coulomb(gsData* d, const gsRigidOpt* opt, const gsRigidWarm* warm, Setup* s,
                         gsReal* frow, gsRigidStat* st, int* ok) {
  int nc = s->nc, nf = s->nf, n = 6 * nc;
  gsReal* D = take(d, 5 * (size_t)nc * nf, ok);
  gsReal* A = take(d, (size_t)n * n, ok);
  gsReal* q = take(d, (size_t)n, ok);
  gsReal* z = take(d, (size_t)n, ok);
  gsReal* w = take(d, (size_t)n, ok);
  gsReal* work = take(d, gs_lemkeWork(n), ok);
  if (!*ok) return -2;
  pyramid_rows(s, D);
  /* variable order: f_N (nc), f_F (4 per contact), lambda (nc); row i of the force block is
   * direction var_dir(i) */
  memset(A, 0, sizeof(gsReal) * (size_t)n * n);
  for (int i = 0; i < 5 * nc; i++) {
    int di = i < nc ? 5 * i : 5 * ((i - nc) / 4) + 1 + (i - nc) % 4;
    for (int j = 0; j < 5 * nc; j++) {
      int dj = j < nc ? 5 * j : 5 * ((j - nc) / 4) + 1 + (j - nc) % 4;
      gsReal t = 0;
      for (int x = 0; x < nf; x++) t += D[(size_t)di * nf + x] * D[(size_t)dj * nf + x];
      A[(size_t)i * n + j] = t;
    }
  }
  for (int c = 0; c < nc; c++) {
    q[c] = s->b[3 * c];
    for (int e = 0; e < 4; e++) {
      int i = nc + 4 * c + e;
      q[i] = (e % 2 ? -1 : 1) * s->b[3 * c + 1 + e / 2];
      A[(size_t)i * n + 5 * nc + c] = 1;                 /* E lambda */
      A[(size_t)(5 * nc + c) * n + i] = -1;              /* -E^T f_F */
    }
    A[(size_t)(5 * nc + c) * n + c] = s->mu[c];          /* mu f_N */
    q[5 * nc + c] = 0;
  }
  gsLCPStat ls;
  memset(&ls, 0, sizeof ls);
  int found = 0;
  if (opt->mindiff && warm && nc <= GS_FRICTION_ENUM_MAX) {
    /* Algorithm 3 by contact modes: the solution nearest the last call's forces (net forces per
     * contact, matched by geom pair), with the velocities u = b + G G^T f */
    int n3 = 3 * nc;
    gsReal* K = take(d, (size_t)n3 * n3, ok);
    gsReal* f0 = take(d, (size_t)n3, ok);
    gsReal* fm = take(d, (size_t)n3, ok);
    gsReal* lam = take(d, (size_t)nc, ok);
    gsReal* ework = take(d, gs_frictionEnumWork(nc), ok);
    if (!*ok) return -2;
    for (int i = 0; i < n3; i++)
      for (int j = 0; j < n3; j++) {
        gsReal t = 0;
        for (int x = 0; x < nf; x++) t += s->G[(size_t)i * nf + x] * s->G[(size_t)j * nf + x];
        K[(size_t)i * n3 + j] = t;
      }
    for (int c = 0; c < nc; c++) last_force(warm, &d->contact[s->con[c]], f0 + 3 * c);
    long bases = 0;
    found = gs_frictionNearest(nc, K, s->b, s->mu, f0, 0, fm, lam, &bases, ework);
    ls.pivots = (int)bases;
    if (found) {
      /* the LCP's variables of that solution, and its residual there */
      memset(z, 0, sizeof(gsReal) * (size_t)n);
      for (int c = 0; c < nc; c++) {
        z[c] = fm[3 * c];
        for (int e = 0; e < 4; e++) {
          gsReal t = fm[3 * c + 1 + e / 2] * (e % 2 ? -1 : 1);
          z[nc + 4 * c + e] = t > 0 ? t : 0;
        }
        z[5 * nc + c] = lam[c];
      }
      for (int i = 0; i < n; i++) {
        gsReal t = q[i];
        for (int j = 0; j < n; j++) t += A[(size_t)i * n + j] * z[j];
        w[i] = t;
      }
      ls.residual = gs_lcpResidual(n, z, w);
    }
  }
  if (!found) {
    gs_lemke(n, A, q, z, w, opt->reg, 0, &ls, work);
    if (ls.status < 0) { st->pivots += ls.pivots; return -1; }
  }
  st->pivots += ls.pivots;
  st->residual = ls.residual;
  st->reg = ls.reg;
  for (int c = 0; c < nc; c++) {
    frow[3 * c] = z[c];
    frow[3 * c + 1] = z[nc + 4 * c] - z[nc + 4 * c + 1];
    frow[3 * c + 2] = z[nc + 4 * c + 2] - z[nc + 4 * c + 3];
  }
  return ls.status;
}

/* ---- two-stage QP (section 5) ---- */

/* Contact c's force f = sum_j beta_j ray_j, beta >= 0: with friction the four edges of the
 * pyramid (n +- mu t1, n +- mu t2), without it the normal and the four half tangents. Bounds
 * only, so that a stage without the non-penetration rows is a non-negative least-squares problem
 * of rank |U|, which the principal pivoting method solves in systems of |U| unknowns. */
static int ray_count(const gsRigidOpt* opt) { return opt->friction ? 4 : 5; }

static void ray_coef(const gsRigidOpt* opt, gsReal mu, int j, gsReal co[3]) {
  co[0] = co[1] = co[2] = 0;
  if (opt->friction) {
    co[0] = 1;
    co[1 + j / 2] = j % 2 ? -mu : mu;
  } else {
    int row = (j + 1) / 2;
    co[row] = j == 2 || j == 4 ? -1 : 1;
  }
}

/* rays in G's space (nr x nf) and, when Y is given, the actuated torque each removes (na x nr) */
static void ray_rows(const gsRigidOpt* opt, const Setup* s, const char* open, gsReal* E,
                     gsReal* Y) {
  int nf = s->nf, nrc = ray_count(opt), nr = nrc * s->nc;
  for (int c = 0; c < s->nc; c++)
    for (int j = 0; j < nrc; j++) {
      gsReal co[3];
      ray_coef(opt, s->mu[c], j, co);
      if (open && open[c]) co[0] = co[1] = co[2] = 0;   /* no force on an opening contact */
      gsReal* e = E + (size_t)(nrc * c + j) * nf;
      for (int i = 0; i < nf; i++) {
        gsReal v = 0;
        for (int k = 0; k < 3; k++) v += co[k] * s->G[(size_t)(3 * c + k) * nf + i];
        e[i] = v;
      }
      if (Y)
        for (int a = 0; a < s->na; a++) {
          gsReal v = 0;
          for (int k = 0; k < 3; k++) v += co[k] * s->J[(size_t)(3 * c + k) * s->nv + s->aid[a]];
          Y[(size_t)a * nr + nrc * c + j] = v;
        }
    }
}

/* the five-variable form (normal, +t1, -t1, +t2, -t2) of ray weights */
static void rays_to_z(const gsRigidOpt* opt, const Setup* s, const gsReal* beta, gsReal* z) {
  int nrc = ray_count(opt);
  for (int c = 0; c < s->nc; c++) {
    gsReal f[3] = {0, 0, 0};
    for (int j = 0; j < nrc; j++) {
      gsReal co[3];
      ray_coef(opt, s->mu[c], j, co);
      gsReal b = beta[nrc * c + j] > 0 ? beta[nrc * c + j] : 0;
      for (int k = 0; k < 3; k++) f[k] += b * co[k];
    }
    gsReal* zc = z + 5 * c;
    zc[0] = f[0];
    zc[1] = f[1] > 0 ? f[1] : 0;
    zc[2] = f[1] < 0 ? -f[1] : 0;
    zc[3] = f[2] > 0 ? f[2] : 0;
    zc[4] = f[2] < 0 ? -f[2] : 0;
  }
}

/* Stage I without the non-penetration rows (eq. 70): min 1/2 |E^T beta|^2 + q^T beta, beta >= 0,
 * q_j = ray_j . gb (gb: the linear term per contact direction; G c' for the seed's objective, where
 * this is min 1/2 |E^T beta + c'|^2), the LCP (q, E E^T) in Baraff's form; when its answer keeps
 * every contact from closing it is Stage I's. 1: solved, 0: the full QP is needed. */
static int stage1_fast(gsData* d, const gsRigidOpt* opt, const Setup* s, const gsReal* gb,
                       gsReal* z0, gsRigidStat* st, int* ok) {
  int nc = s->nc, nf = s->nf, nr = ray_count(opt) * nc;
  size_t mark = gs_arenaMark(d);
  gsReal* E = take(d, (size_t)nr * nf, ok);
  gsReal* q = take(d, (size_t)nr, ok);
  gsReal* beta = take(d, (size_t)nr, ok);
  gsReal* w = take(d, (size_t)nr, ok);
  gsReal* y = take(d, (size_t)nf + 1, ok);
  int* nb = (int*)take(d, (size_t)nr / 2 + 1, ok);
  gsReal* work = take(d, gs_ppmWork(nr, nf), ok);
  if (!*ok) { gs_arenaRelease(d, mark); return 0; }
  ray_rows(opt, s, NULL, E, NULL);
  for (int j = 0; j < nr; j++) {
    int c = j / ray_count(opt);
    gsReal co[3];
    ray_coef(opt, s->mu[c], j % ray_count(opt), co);
    q[j] = co[0] * gb[3 * c] + co[1] * gb[3 * c + 1] + co[2] * gb[3 * c + 2];
  }
  int nnb = 0;
  gsLCPStat ls;
  gs_ppm(nr, nf, E, q, beta, w, nb, &nnb, 0, &ls, work);
  st->pivots += ls.pivots;
  int solved = ls.status == 0 && !ls.fallback;
  if (solved) {
    gs_denseMulVecT(y, E, beta, nr, nf, 0);
    gsReal scale = 0;
    for (int c = 0; c < nc; c++) if (fabs(s->b[3 * c]) > scale) scale = fabs(s->b[3 * c]);
    for (int c = 0; c < nc && solved; c++) {
      gsReal v = s->b[3 * c];
      for (int i = 0; i < nf; i++) v += s->G[(size_t)(3 * c) * nf + i] * y[i];
      if (v < -1e-10 * (1 + scale)) solved = 0;
    }
  }
  if (solved) {
    rays_to_z(opt, s, beta, z0);
    st->residual = ls.residual;
  }
  gs_arenaRelease(d, mark);
  return solved;
}

/* Stage II with the bounds left out: min 1/2 |Y beta - tau_c|^2 + eps/2 |beta|^2 subject to
 * E^T beta = E^T beta0 in closed form, with (Y^T Y + eps I)^-1 by Woodbury (na x na) and the
 * equality's multipliers from an ne x ne system; when every beta >= 0 this is Stage II's answer.
 * gb (3 per contact, NULL for the energy objective): the contact objective's linear term, whose
 * value is kept too (one more column of E): with G^T f kept, that keeps its optimum.
 * 1: solved (z2 written), 0: the full QP is needed. */
/* Stage II's weight of a used contact (opt->weight is per contact of d->contact) */
static gsReal contact_weight(const gsRigidOpt* opt, const Setup* s, int c) {
  if (!opt->weight) return 0;
  gsReal w = opt->weight[s->con[c]];
  return isfinite(w) && w > 0 ? w : 0;
}

/* Stage II with contact weights (opt->weight), in the pyramid's edges beta >= 0 (the same cone
 * as the five variables and their friction row): minimise 1/2 |tau_c - Y beta|^2 + 1/2 sum_j
 * diag (1e-6 + w_c) beta_j^2 with the impulse on the free dofs (and the contact objective's
 * value) kept, by the QP's KKT LCP. One path for every call with weights, so that the weighted
 * objective does not change with the path taken (the closed form and the five-variable QP
 * would weigh the forces differently, and the closed form's Woodbury identity loses its digits
 * when the weights span many orders). diag: the mean |Y_j|^2. 0 when it does not solve. */
static int stage2_weighted(gsData* d, const gsRigidOpt* opt, const Setup* s, const char* open,
                           const gsReal* D, const gsReal* z0, const gsReal* gb, const gsReal* tc,
                           gsReal* z2, gsRigidStat* st, int* ok) {
  int nc = s->nc, nf = s->nf, na = s->na, nrc = ray_count(opt), nr = nrc * nc;
  int ne = nf + (gb ? 1 : 0), mA = 2 * ne;
  size_t mark = gs_arenaMark(d);
  gsReal* E0 = take(d, (size_t)nr * nf, ok);
  gsReal* Y = take(d, (size_t)na * nr + 1, ok);
  gsReal* H = take(d, (size_t)nr * nr, ok);
  gsReal* g = take(d, (size_t)nr, ok);
  gsReal* A = take(d, (size_t)mA * nr, ok);
  gsReal* bA = take(d, (size_t)mA, ok);
  gsReal* x = take(d, (size_t)nr + (size_t)nf, ok);
  gsReal* work = take(d, gs_qpWork(nr, mA, 1), ok);
  if (!*ok) { gs_arenaRelease(d, mark); return 0; }
  ray_rows(opt, s, open, E0, Y);
  gs_denseMulAT(H, Y, Y, nr, na, nr);
  gsReal diag = 0;
  for (int j = 0; j < nr; j++) diag += H[(size_t)j * nr + j];
  diag = diag > 0 ? diag / nr : 1;
  for (int j = 0; j < nr; j++)
    H[(size_t)j * nr + j] += diag * (1e-6 + contact_weight(opt, s, j / nrc));
  gs_denseMulVecT(g, Y, tc, na, nr, 0);
  for (int j = 0; j < nr; j++) g[j] = -g[j];
  /* the kept impulse D^T z0 (equalities as pairs of rows) */
  gsReal* y = x + nr;
  gs_denseMulVecT(y, D, z0, 5 * nc, nf, 0);
  for (int i = 0; i < nf; i++) {
    for (int j = 0; j < nr; j++) {
      A[(size_t)i * nr + j] = E0[(size_t)j * nf + i];
      A[(size_t)(nf + i) * nr + j] = -E0[(size_t)j * nf + i];
    }
    bA[i] = y[i];
    bA[nf + i] = -y[i];
  }
  if (gb) {   /* the contact objective's linear term, scaled like the other rows */
    gsReal gmax = 0, t = 0;
    for (int i = 0; i < 3 * nc; i++) gmax = fmax(gmax, fabs(gb[i]));
    gmax = gmax > 0 ? 1 / gmax : 1;
    for (int c = 0; c < nc; c++) {
      const gsReal* p = z0 + 5 * c;
      if (!open[c])
        t += gb[3 * c] * p[0] + gb[3 * c + 1] * (p[1] - p[2]) + gb[3 * c + 2] * (p[3] - p[4]);
      for (int j = 0; j < nrc; j++) {
        gsReal co[3], v = 0;
        ray_coef(opt, s->mu[c], j, co);
        if (!open[c])
          for (int k = 0; k < 3; k++) v += co[k] * gb[3 * c + k];
        A[(size_t)(2 * nf) * nr + nrc * c + j] = gmax * v;
        A[(size_t)(2 * nf + 1) * nr + nrc * c + j] = -gmax * v;
      }
    }
    bA[2 * nf] = gmax * t;
    bA[2 * nf + 1] = -gmax * t;
  }
  gsLCPStat ls;
  gs_qp(nr, H, g, mA, A, bA, 1, opt->reg, x, NULL, &ls, work);
  st->pivots += ls.pivots;
  int good = ls.status == 0;
  if (good) {
    rays_to_z(opt, s, x, z2);
    if (ls.residual > st->residual) st->residual = ls.residual;
  }
  gs_arenaRelease(d, mark);
  return good;
}

static int stage2_fast(gsData* d, const gsRigidOpt* opt, const Setup* s, const char* open,
                       const gsReal* D, const gsReal* z0, const gsReal* gb, const gsReal* tc,
                       gsReal* z2, int* ok) {
  int nc = s->nc, nf = s->nf, na = s->na, nr = ray_count(opt) * nc, ne = nf + (gb ? 1 : 0);
  size_t mark = gs_arenaMark(d);
  gsReal* E0 = take(d, (size_t)nr * nf, ok);
  gsReal* E = take(d, (size_t)nr * ne, ok);
  gsReal* Y = take(d, (size_t)na * nr + 1, ok);
  gsReal* S = take(d, (size_t)na * na + 1, ok);
  gsReal* YE = take(d, (size_t)na * ne + 1, ok);
  gsReal* Phi = take(d, (size_t)nr * ne, ok);
  gsReal* K = take(d, (size_t)ne * ne, ok);
  gsReal* beta = take(d, (size_t)nr, ok);
  gsReal* v = take(d, (size_t)(na > ne ? na : ne) + (size_t)ne + 2, ok);
  if (!*ok) { gs_arenaRelease(d, mark); return 0; }
  ray_rows(opt, s, open, E0, Y);
  for (int j = 0; j < nr; j++) {
    memcpy(E + (size_t)j * ne, E0 + (size_t)j * nf, sizeof(gsReal) * (size_t)nf);
    if (gb) {
      int c = j / ray_count(opt);
      gsReal co[3], t = 0;
      ray_coef(opt, s->mu[c], j % ray_count(opt), co);
      if (!open[c])
        for (int k = 0; k < 3; k++) t += co[k] * gb[3 * c + k];
      E[(size_t)j * ne + nf] = t;
    }
  }
  gsReal diag = 0;
  for (size_t i = 0; i < (size_t)na * nr; i++) diag += Y[i] * Y[i];
  diag = diag > 0 ? diag / nr : 0;
  /* a larger share than the full QP's: the closed form divides by eps */
  gsReal eps = diag > 0 ? 1e-4 * diag : 1;
  /* S = eps I + Y Y^T */
  gs_denseMulBT(S, Y, Y, na, nr, na);
  for (int a = 0; a < na; a++) S[(size_t)a * na + a] += eps;
  if (na > 0 && gs_cholesky(S, na, 1e-14) >= 0) { gs_arenaRelease(d, mark); return 0; }
  /* Phi = H^-1 E = (E - Y^T S^-1 Y E) / eps */
  gs_denseMul(YE, Y, E, na, nr, ne);
  for (int i = 0; i < ne; i++) {
    for (int a = 0; a < na; a++) v[a] = YE[(size_t)a * ne + i];
    gs_cholSolve(S, na, v);
    for (int j = 0; j < nr; j++) {
      gsReal t = E[(size_t)j * ne + i];
      for (int a = 0; a < na; a++) t -= Y[(size_t)a * nr + j] * v[a];
      Phi[(size_t)j * ne + i] = t / eps;
    }
  }
  /* K nu = E^T beta0 - E^T Y^T S^-1 tau_c, beta = Y^T S^-1 tau_c + Phi nu */
  gs_denseMulAT(K, E, Phi, ne, nr, ne);
  gsReal tr = 0;
  for (int i = 0; i < ne; i++) tr += K[(size_t)i * ne + i];
  for (int i = 0; i < ne; i++) K[(size_t)i * ne + i] += 1e-14 * (tr > 0 ? tr : 1);
  if (gs_cholesky(K, ne, 0) >= 0) { gs_arenaRelease(d, mark); return 0; }
  for (int a = 0; a < na; a++) v[a] = tc[a];
  if (na > 0) gs_cholSolve(S, na, v);
  gs_denseMulVecT(beta, Y, v, na, nr, 0);
  gsReal* rhs = v + (na > ne ? na : ne);
  gs_denseMulVecT(rhs, D, z0, 5 * nc, nf, 0);      /* E^T beta0 = D^T z0 */
  if (gb) {
    gsReal t = 0;
    for (int c = 0; c < nc; c++) {
      const gsReal* p = z0 + 5 * c;
      t += gb[3 * c] * p[0] + gb[3 * c + 1] * (p[1] - p[2]) + gb[3 * c + 2] * (p[3] - p[4]);
    }
    rhs[nf] = t;
  }
  gsReal ynorm = 0;
  for (int i = 0; i < ne; i++) ynorm = fmax(ynorm, fabs(rhs[i]));
  for (int i = 0; i < ne; i++) {
    gsReal t = 0;
    for (int j = 0; j < nr; j++) t += E[(size_t)j * ne + i] * beta[j];
    rhs[i] -= t;
  }
  gs_cholSolve(K, ne, rhs);
  gs_denseMulVec(beta, Phi, rhs, nr, ne, 1);
  /* accepted when inside the bounds and the impulse on the free dofs is kept */
  gsReal bmax = 0;
  for (int j = 0; j < nr; j++) bmax = fmax(bmax, fabs(beta[j]));
  int good = 1;
  for (int j = 0; j < nr; j++) if (beta[j] < -1e-12 * bmax) good = 0;
  if (good) {
    gsReal* y = v;
    gsReal* y0 = v + nf;
    gs_denseMulVecT(y, E0, beta, nr, nf, 0);
    gs_denseMulVecT(y0, D, z0, 5 * nc, nf, 0);
    for (int i = 0; i < nf; i++) if (fabs(y[i] - y0[i]) > 1e-11 * (1 + ynorm)) good = 0;
  }
  if (good) rays_to_z(opt, s, beta, z2);
  gs_arenaRelease(d, mark);
  return good;
}

/* Stage II keeps Stage I's impulse on the free dofs, D^T z2 = D^T z0 (its equality rows), and
 * so Stage I's motion. The equality rows' multipliers can grow by round-off until a basis is
 * spoilt while the base's motion changes (a contact driven into the ground); Lemke's per-row
 * acceptance now rejects those bases (it once accepted them against a bound scaled by the
 * largest variable), and this check stays as a guard of Stage II's own equality: the kept
 * impulse against its own size, 1e-6 of it, where correct answers keep it to round-off (1e-14
 * of it on the quadruped's flat ground) and the spoilt ones missed by 0.3-4x.
 * 0: not kept (the next path, or Stage I's answer, is used). y: nf scratch. */
static int keeps_impulse(const Setup* s, const gsReal* D, const gsReal* z0, const gsReal* z2,
                         gsReal* y) {
  int nz = 5 * s->nc, nf = s->nf;
  gsReal ymax = 0, dmax = 0;
  gs_denseMulVecT(y, D, z0, nz, nf, 0);
  for (int i = 0; i < nf; i++) ymax = fmax(ymax, fabs(y[i]));
  for (int i = 0; i < nf; i++) {
    gsReal t = 0;
    for (int j = 0; j < nz; j++) t += D[(size_t)j * nf + i] * z2[j];
    dmax = fmax(dmax, fabs(t - y[i]));
  }
  return dmax <= 1e-6 * ymax;
}

static int solve_qp(const gsModel* m, gsData* d, const gsRigidOpt* opt, const gsRigidWarm* warm,
                    Setup* s, gsReal* frow, gsRigidStat* st, int* ok) {
  (void)m;
  int nc = s->nc, nf = s->nf, nv = s->nv, na = s->na, nz = 5 * nc;
  int m1 = opt->friction ? 2 * nc : nc;
  gsReal* D = take(d, (size_t)nz * nf, ok);
  gsReal* z0 = take(d, (size_t)nz, ok);
  gsReal* cp = take(d, (size_t)nf + 1, ok);
  gsReal* mv = take(d, (size_t)nf + 1, ok);
  if (!*ok) return -2;
  pyramid_rows(s, D);
  /* the linear term (5.1.2): c' = (L^T p + L^-1 M_UA v+_A) / dt, p = v_U + dt a_U0 */
  for (int i = 0; i < nf; i++) {
    gsReal t = 0;
    for (int j = i; j < nf; j++) {
      int pj = s->fid[j];
      t += s->L[(size_t)j * nf + i] * (d->qvel[pj] + s->h * s->a[pj]);
    }
    cp[i] = t;
    t = 0;
    for (int j = 0; j < na; j++) {
      int pa = s->aid[j];
      t += s->M[(size_t)s->fid[i] * nv + pa] * (d->qvel[pa] + s->h * s->a[pa]);
    }
    mv[i] = t;
  }
  gs_solveL(s->L, nf, mv);
  for (int i = 0; i < nf; i++) cp[i] = (cp[i] + mv[i]) / s->h;
  /* the linear term per contact direction: G c' (the seed's kinetic energy) or b (the contact
   * objective: the edges' velocities after the step are the optimality conditions' slacks) */
  int contact_obj = opt->objective == GS_RIGID_CONTACT;
  /* without a friction bound the contact objective is unbounded below whenever a tangential
   * velocity the base cannot cancel remains (no-slip is that model: GS_RIGID_NOSLIP) */
  if (contact_obj && !opt->friction) return -1;
  gsReal* gb = take(d, (size_t)3 * nc, ok);
  if (!*ok) return -2;
  if (contact_obj) memcpy(gb, s->b, sizeof(gsReal) * (size_t)(3 * nc));
  else gs_denseMulVec(gb, s->G, cp, 3 * nc, nf, 0);
  int status = 0;
  if (opt->kkt || !stage1_fast(d, opt, s, gb, z0, st, ok)) {
    if (!*ok) return -2;
    /* the whole Stage I (eqs. 69-72) in the five variables per contact, by its KKT LCP */
    size_t mark = gs_arenaMark(d);
    gsReal* H = take(d, (size_t)nz * nz, ok);
    gsReal* g = take(d, (size_t)nz, ok);
    gsReal* A = take(d, (size_t)m1 * nz, ok);
    gsReal* bA = take(d, (size_t)m1, ok);
    gsReal* work = take(d, gs_qpWork(nz, m1, 1), ok);
    if (!*ok) return -2;
    gs_denseMulBT(H, D, D, nz, nf, nz);
    for (int c = 0; c < nc; c++)
      for (int e = 0; e < 5; e++) g[5 * c + e] = (e == 2 || e == 4 ? -1 : 1) * gb[3 * c + (e + 1) / 2];
    /* eq. 70: b_N + G_N D^T z >= 0; eq. 72: mu f_N >= 1^T f_F */
    memset(A, 0, sizeof(gsReal) * (size_t)m1 * nz);
    for (int c = 0; c < nc; c++) {
      gs_denseMulVec(A + (size_t)c * nz, D, s->G + (size_t)(3 * c) * nf, nz, nf, 0);
      bA[c] = -s->b[3 * c];
      if (opt->friction) {
        gsReal* fr = A + (size_t)(nc + c) * nz;
        fr[5 * c] = s->mu[c];
        for (int e = 1; e < 5; e++) fr[5 * c + e] = -1;
        bA[nc + c] = 0;
      }
    }
    gsLCPStat ls;
    gs_qp(nz, H, g, m1, A, bA, 1, opt->reg, z0, NULL, &ls, work);
    st->pivots += ls.pivots;
    st->residual = ls.residual;
    st->reg = ls.reg;
    status = ls.status;
    gs_arenaRelease(d, mark);
    if (ls.status < 0) return -1;
  }
  if (opt->stage2 && nc > 0) {
    /* Stage II (eqs. 96-106): the same impulse on the free dofs (D^T z = D^T z0 keeps v+, so the
     * Stage I objective and the non-penetration rows), torques of least norm; a small multiple
     * of |z|^2 picks the least forces among equal torques (an unactuated body's own split) */
    int m2 = 2 * nf + (opt->friction ? nc : 0) + (contact_obj ? 2 : 0);
    gsReal* tc = take(d, (size_t)na + 1, ok);
    gsReal* z2 = take(d, (size_t)nz, ok);
    gsReal* a1 = take(d, (size_t)nv, ok);
    if (!*ok) return -2;
    /* tau_c = (M a1 - f0)_A with a1 Stage I's acceleration */
    memcpy(a1, s->a, sizeof(gsReal) * (size_t)nv);
    gs_denseMulVecT(cp, D, z0, nz, nf, 0);
    gs_solveLT(s->L, nf, cp);
    for (int i = 0; i < nf; i++) a1[s->fid[i]] += cp[i];
    for (int j = 0; j < na; j++) {
      int pa = s->aid[j];
      gsReal t = -s->f0[pa];
      for (int i = 0; i < nv; i++) t += s->M[(size_t)pa * nv + i] * a1[i];
      tc[j] = t;
    }
    /* smooth: |tau - tau_last|^2 = |tc - tau_last - Y beta|^2 */
    if (opt->smooth && warm && warm->ntau == na)
      for (int j = 0; j < na; j++) tc[j] -= warm->tau[j];
    /* Stage I has no normal complementarity; Stage II puts no force on a contact that Stage I's
     * motion opens and Stage I left without force (else the least torques come from the ground
     * pushing a lifting foot) */
    char* open = (char*)take(d, (size_t)nc / sizeof(gsReal) + 1, ok);
    if (!*ok) return -2;
    {
      gsReal bmax = 0;
      for (int c = 0; c < nc; c++) bmax = fmax(bmax, fabs(s->b[3 * c]));
      gs_denseMulVecT(mv, D, z0, nz, nf, 0);
      for (int c = 0; c < nc; c++) {
        gsReal vn = s->b[3 * c];
        for (int i = 0; i < nf; i++) vn += s->G[(size_t)(3 * c) * nf + i] * mv[i];
        open[c] = vn > 1e-9 * (1 + bmax) && z0[5 * c] == 0;
      }
    }
    gsReal res1 = st->residual;
    int done = opt->weight &&
               stage2_weighted(d, opt, s, open, D, z0, contact_obj ? gb : NULL, tc, z2, st, ok) &&
               keeps_impulse(s, D, z0, z2, mv);
    if (!*ok) return -2;
    if (!done) st->residual = res1;   /* a rejected answer's residual is not the one returned */
    if (done) {
      memcpy(z0, z2, sizeof(gsReal) * (size_t)nz);
    } else if (!opt->kkt && stage2_fast(d, opt, s, open, D, z0, contact_obj ? gb : NULL, tc, z2, ok)) {
      memcpy(z0, z2, sizeof(gsReal) * (size_t)nz);
    } else {
      if (!*ok) return -2;
      size_t mark = gs_arenaMark(d);
      gsReal* Y = take(d, (size_t)na * nz + 1, ok);   /* the torque each force variable removes */
      gsReal* H2 = take(d, (size_t)nz * nz, ok);
      gsReal* g2 = take(d, (size_t)nz, ok);
      gsReal* A2 = take(d, (size_t)m2 * nz, ok);
      gsReal* b2 = take(d, (size_t)m2, ok);
      gsReal* work2 = take(d, gs_qpWork(nz, m2, 1), ok);
      if (!*ok) return -2;
      for (int c = 0; c < nc; c++)
        for (int e = 0; e < 5; e++) {
          int row = 3 * c + (e + 1) / 2;
          gsReal sign = open[c] ? 0 : e == 2 || e == 4 ? -1 : 1;
          for (int j = 0; j < na; j++)
            Y[(size_t)j * nz + 5 * c + e] = sign * s->J[(size_t)row * nv + s->aid[j]];
        }
      gs_denseMulAT(H2, Y, Y, nz, na, nz);
      gsReal diag = 0;
      for (int i = 0; i < nz; i++) diag += H2[(size_t)i * nz + i];
      diag = diag > 0 ? diag / nz : 0;
      /* without actuators (or none touching the contacts) the least forces are all it picks */
      gsReal eps = diag > 0 ? 1e-6 * diag : 1;
      for (int i = 0; i < nz; i++) H2[(size_t)i * nz + i] += eps;
      gs_denseMulVecT(g2, Y, tc, na, nz, 0);
      for (int i = 0; i < nz; i++) g2[i] = -g2[i];
      memset(A2, 0, sizeof(gsReal) * (size_t)m2 * nz);
      gsReal* Dz = cp;
      gs_denseMulVecT(Dz, D, z0, nz, nf, 0);
      for (int i = 0; i < nf; i++) {
        for (int j = 0; j < nz; j++) {
          gsReal dj = open[j / 5] ? 0 : D[(size_t)j * nf + i];
          A2[(size_t)i * nz + j] = dj;
          A2[(size_t)(nf + i) * nz + j] = -dj;
        }
        b2[i] = Dz[i];
        b2[nf + i] = -Dz[i];
      }
      if (opt->friction)
        for (int c = 0; c < nc; c++) {
          gsReal* fr = A2 + (size_t)(2 * nf + c) * nz;
          fr[5 * c] = s->mu[c];
          for (int e = 1; e < 5; e++) fr[5 * c + e] = -1;
          b2[2 * nf + c] = 0;
        }
      if (contact_obj) {
        /* the contact objective's linear term kept as well: with D^T z kept, its optimum */
        int r0 = m2 - 2;
        gsReal t = 0, gmax = 0;
        for (int i = 0; i < 3 * nc; i++) gmax = fmax(gmax, fabs(gb[i]));
        gmax = gmax > 0 ? 1 / gmax : 1;   /* the row scaled like the others: Lemke's pivots */
        for (int c = 0; c < nc; c++)
          for (int e = 0; e < 5; e++) {
            gsReal gj = open[c] ? 0 : gmax * (e == 2 || e == 4 ? -1 : 1) * gb[3 * c + (e + 1) / 2];
            A2[(size_t)r0 * nz + 5 * c + e] = gj;
            A2[(size_t)(r0 + 1) * nz + 5 * c + e] = -gj;
            t += gj * z0[5 * c + e];
          }
        b2[r0] = t;
        b2[r0 + 1] = -t;
      }
      gsLCPStat l2;
      gs_qp(nz, H2, g2, m2, A2, b2, 1, opt->reg, z2, NULL, &l2, work2);
      st->pivots += l2.pivots;
      /* a regularised answer would move the base, so would one losing the impulse: keep Stage I's */
      if (l2.status == 0 && keeps_impulse(s, D, z0, z2, mv)) {
        memcpy(z0, z2, sizeof(gsReal) * (size_t)nz);
        if (l2.residual > st->residual) st->residual = l2.residual;
        if (l2.status > status) status = l2.status;
      }
      gs_arenaRelease(d, mark);
    }
  }
  for (int c = 0; c < nc; c++) {
    const gsReal* p = z0 + 5 * c;
    frow[3 * c] = p[0];
    frow[3 * c + 1] = p[1] - p[2];
    frow[3 * c + 2] = p[3] - p[4];
  }
  return status;
}

int gs_inverseRigid(const gsModel* m, gsData* d, const gsRigidOpt* opt_, gsRigidWarm* warm,
                    gsReal* qfrc, gsReal* force, gsReal* qacc, gsRigidStat* stat) {
  gsRigidOpt defopt;
  const gsRigidOpt* opt = opt_;
  if (!opt) { gs_defaultRigidOpt(&defopt); opt = &defopt; }
  gsRigidStat local;
  gsRigidStat* st = stat ? stat : &local;
  memset(st, 0, sizeof(*st));
  if (opt->skipstage < GS_STAGE_POS) gs_fwdPosition(m, d);
  if (opt->skipstage < GS_STAGE_VEL) gs_fwdVelocity(m, d);
  int nv = m->nv;
  if (qfrc) memset(qfrc, 0, sizeof(gsReal) * (size_t)nv);
  if (force) memset(force, 0, sizeof(gsReal) * 3 * (size_t)d->ncon);
  /* a non-finite desired acceleration or velocity has no inverse: nothing is computed from it */
  for (int i = 0; i < nv; i++)
    if (!isfinite(d->qacc[i]) || !isfinite(d->qvel[i])) {
      if (qacc) memcpy(qacc, d->qacc, sizeof(gsReal) * (size_t)nv);
      st->status = -1;
      return -1;
    }
  size_t mark = gs_arenaMark(d);
  int ok = 1;
  Setup s;
  int fine = setup(m, d, opt, &s, &ok);
  if (!fine) {
    st->status = ok ? -1 : -2;
    if (qacc) memcpy(qacc, d->qacc, sizeof(gsReal) * (size_t)nv);
    gs_arenaRelease(d, mark);
    return st->status;
  }
  st->ncon = s.nc;
  int nc = s.nc, r = 3 * nc;
  gsReal* frow = take(d, (size_t)r, &ok);
  gsReal* t = take(d, 2 * (size_t)nv + (size_t)r, &ok);
  int status = -2;
  if (ok) {
    memset(frow, 0, sizeof(gsReal) * (size_t)r);
    /* no contacts, or every dof prescribed (a fixed base): no force can change the motion, the
     * contacts carry none (stat->penetration tells whether the motion closes one) */
    if (nc == 0 || s.nf == 0) status = 0;
    else if (opt->method == GS_RIGID_COULOMB) status = solve_coulomb(d, opt, warm, &s, frow, st, &ok);
    else if (opt->method == GS_RIGID_QP) status = solve_qp(m, d, opt, warm, &s, frow, st, &ok);
    else status = solve_noslip(m, d, opt, warm, &s, frow, st, &ok);
    if (status == 2 && ok && !repair_acc(d, &s, frow, &ok)) status = -1;
    if (!ok) status = -2;
  }
  if (status < 0 && ok) memset(frow, 0, sizeof(gsReal) * (size_t)r);
  if (ok) {
    /* a_U = a_U0 + L^-T G^T f; tau = (M a - f0 - J^T f)_A */
    gs_denseMulVecT(t, s.G, frow, r, s.nf, 0);
    gs_solveLT(s.L, s.nf, t);
    for (int i = 0; i < s.nf; i++) s.a[s.fid[i]] += t[i];
    gs_denseMulVec(t, s.M, s.a, nv, nv, 0);
    gs_denseMulVecT(t + nv, s.J, frow, r, nv, 0);
    for (int j = 0; j < s.na && qfrc; j++) {
      int p = s.aid[j];
      qfrc[p] = t[p] - s.f0[p] - t[nv + p];
    }
    if (force)
      for (int c = 0; c < nc; c++)
        for (int k = 0; k < 3; k++) force[3 * s.con[c] + k] = frow[3 * c + k];
    if (warm) {   /* the forces, for the next call's minimum-change selection */
      warm->ncon = 0;
      for (int c = 0; c < nc && c < GS_RIGID_MAXWARM; c++) {
        warm->geom[2 * c] = d->contact[s.con[c]].geom1;
        warm->geom[2 * c + 1] = d->contact[s.con[c]].geom2;
        memcpy(warm->force + 3 * c, frow + 3 * c, sizeof(gsReal) * 3);
        warm->ncon++;
      }
    }
    if (warm) {   /* the actuated forces, for the next call's smooth Stage II */
      warm->ntau = 0;
      if (s.na <= GS_RIGID_MAXWARM && status >= 0) {
        for (int j = 0; j < s.na; j++) {
          int p = s.aid[j];
          warm->tau[j] = t[p] - s.f0[p] - t[nv + p];
        }
        warm->ntau = s.na;
      }
    }
    if (qacc) memcpy(qacc, s.a, sizeof(gsReal) * (size_t)nv);
    /* the normal velocities after the step: v+ = J (qvel + dt a) */
    gsReal pen = 0;
    for (int c = 0; c < nc; c++) {
      const gsReal* jr = s.J + (size_t)(3 * c) * nv;
      gsReal v = 0;
      for (int i = 0; i < nv; i++) v += jr[i] * (d->qvel[i] + s.h * s.a[i]);
      if (v < pen) pen = v;
    }
    st->penetration = pen;
  } else if (qacc) {
    memcpy(qacc, d->qacc, sizeof(gsReal) * (size_t)nv);
  }
  st->status = status;
  gs_arenaRelease(d, mark);
  return status;
}
