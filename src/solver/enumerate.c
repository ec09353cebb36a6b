/* All solutions of a small LCP, by enumerating its complementary bases (solver/lcp.h): the
 * minimum-change selection of seed 004's Algorithm 3, where the recursion over the non-basic set
 * is a loop over the 2^n subsets. Exponential: for a handful of variables only. */
#include <math.h>
#include <string.h>

#include "core/dense.h"
#include "solver/lcp.h"

size_t gs_lcpEnumWork(int n) { return (size_t)n * n + 4 * (size_t)n + 8; }

int gs_lcpNearest(int n, const gsReal* M, const gsReal* q, const gsReal* z0, const gsReal* wt,
                  gsReal* z, gsReal* w, gsReal* work) {
  if (n <= 0 || n > GS_LCP_ENUM_MAX) return 0;
  gsReal* A = work;
  gsReal* zs = A + (size_t)n * n;
  gsReal* ww = zs + n;
  int* idx = (int*)(ww + n);
  int* piv = idx + n;
  gsReal qmax = 0;
  for (int i = 0; i < n; i++) qmax = fmax(qmax, fabs(q[i]));
  gsReal tol = 1e-10 * (1 + qmax);
  gsReal best = INFINITY;
  int found = 0;
  for (unsigned long mask = 0; mask < (1ul << n); mask++) {
    /* the basis: z_S free (w_S = 0), z elsewhere 0 */
    int k = 0;
    for (int i = 0; i < n; i++) if (mask >> i & 1) idx[k++] = i;
    for (int a = 0; a < k; a++) {
      for (int b = 0; b < k; b++) A[(size_t)a * k + b] = M[(size_t)idx[a] * n + idx[b]];
      zs[a] = -q[idx[a]];
    }
    if (k > 0) {
      if (gs_luFactor(A, k, piv, 1e-12) >= 0) continue;
      gs_luSolve(A, k, piv, zs);
    }
    int ok = 1;
    for (int a = 0; a < k && ok; a++) if (zs[a] < -tol) ok = 0;
    if (!ok) continue;
    for (int i = 0; i < n; i++) {
      gsReal t = q[i];
      for (int a = 0; a < k; a++) t += M[(size_t)i * n + idx[a]] * zs[a];
      ww[i] = t;
      if (!(mask >> i & 1) && t < -tol) { ok = 0; break; }
    }
    if (!ok) continue;
    found++;
    gsReal dist = 0;
    int a = 0;
    for (int i = 0; i < n; i++) {
      gsReal zi = mask >> i & 1 ? (zs[a] > 0 ? zs[a] : 0) : 0;
      if (mask >> i & 1) a++;
      dist += wt[i] * (zi - z0[i]) * (zi - z0[i]);
    }
    if (dist < best) {
      best = dist;
      a = 0;
      for (int i = 0; i < n; i++) {
        z[i] = mask >> i & 1 ? (zs[a] > 0 ? zs[a] : 0) : 0;
        if (mask >> i & 1) a++;
        w[i] = mask >> i & 1 ? 0 : ww[i];
      }
    }
  }
  return found;
}

/* ---- Algorithm 3 by contact modes (friction pyramid |f_t1| + |f_t2| <= mu f_N) ----
 * A contact of the Coulomb LCP (eq. 58 with a four-edge pyramid) is in one of ten modes: apart
 * (f = 0, u_N >= 0); sticking (u = 0, f inside the pyramid); sliding against one edge (f =
 * f_N (1, +-mu e_k), u_N = 0, u_k = -+lambda, |u_other| <= lambda); or against a face (two
 * edges, f_t1 = s1 a, f_t2 = s2 (mu f_N - a), u_t = -(s1, s2) lambda). Every LCP solution is, in
 * its net forces, one of these, and a mode assignment fixes a set of linear equations. Among the
 * solutions of an assignment the nearest to f0 is an equality-constrained least-squares problem
 * (an augmented Lagrangian on one Cholesky factor; a nonsingular one's solution by LU):
 * indeterminate assignments (four feet down,
 * whose solutions form a continuum) give that continuum's nearest point rather than being
 * skipped as singular bases. Branch and bound: the distance from f0_c to the cone of forces that
 * contact c's mode allows is a lower bound of its share, so that an assignment whose partial
 * bound reaches the best distance found is dropped with all its completions; the modes are tried
 * nearest first. */
enum { MODES = 10, APART = 0, STICK = 1 };

/* contact c's force for mode md and unknowns x (f_N first), into f */
static void mode_force(int md, gsReal mu, const gsReal* x, gsReal f[3]) {
  f[0] = f[1] = f[2] = 0;
  if (md == APART) return;
  if (md == STICK) { f[0] = x[0]; f[1] = x[1]; f[2] = x[2]; return; }
  f[0] = x[0];
  if (md < 6) {
    int k = (md - 2) / 2;
    f[1 + k] = ((md - 2) % 2 ? -mu : mu) * x[0];
  } else {
    gsReal s1 = (md - 6) & 1 ? -1 : 1, s2 = (md - 6) & 2 ? -1 : 1;
    f[1] = s1 * x[1];
    f[2] = s2 * (mu * x[0] - x[1]);
  }
}

static int mode_unknowns(int md) { return md == APART ? 0 : md == STICK || md >= 6 ? 3 : 2; }

/* least |a r - p|^2 over a >= 0, returned as the distance squared */
static gsReal ray_dist(const gsReal p[3], const gsReal r[3]) {
  gsReal pr = p[0] * r[0] + p[1] * r[1] + p[2] * r[2], rr = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  gsReal pp = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
  return pr > 0 ? fmax(pp - pr * pr / rr, 0) : pp;
}

/* distance squared from p to the cone spanned by r1, r2 */
static gsReal face_dist(const gsReal p[3], const gsReal r1[3], const gsReal r2[3]) {
  gsReal a11 = 0, a12 = 0, a22 = 0, b1 = 0, b2 = 0;
  for (int i = 0; i < 3; i++) {
    a11 += r1[i] * r1[i]; a12 += r1[i] * r2[i]; a22 += r2[i] * r2[i];
    b1 += r1[i] * p[i]; b2 += r2[i] * p[i];
  }
  gsReal det = a11 * a22 - a12 * a12;
  gsReal c1 = (a22 * b1 - a12 * b2) / det, c2 = (a11 * b2 - a12 * b1) / det;
  if (c1 >= 0 && c2 >= 0) {
    gsReal s = 0;
    for (int i = 0; i < 3; i++) { gsReal e = p[i] - c1 * r1[i] - c2 * r2[i]; s += e * e; }
    return s;
  }
  return fmin(ray_dist(p, r1), ray_dist(p, r2));
}

/* the lower bound of mode md's share: distance squared from p to the forces it allows */
static gsReal mode_bound(int md, gsReal mu, const gsReal p[3]) {
  gsReal edge[4][3] = {{1, mu, 0}, {1, -mu, 0}, {1, 0, mu}, {1, 0, -mu}};
  if (md == APART) return p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
  if (md >= 2 && md < 6) return ray_dist(p, edge[md - 2]);
  if (md >= 6) return face_dist(p, edge[(md - 6) & 1], edge[2 + ((md - 6) >> 1 & 1)]);
  /* sticking: inside the pyramid, or the distance to its nearest face */
  if (mu * p[0] >= fabs(p[1]) + fabs(p[2])) return 0;
  gsReal best = INFINITY;
  for (int f = 0; f < 4; f++) best = fmin(best, face_dist(p, edge[f & 1], edge[2 + (f >> 1)]));
  return best;
}

typedef struct {
  int nc;
  const gsReal *K, *b, *mu, *f0;
  gsReal *lb, *H, *E, *P, *rhs, *x, *y, *r, *fbest, *lbest, *f;
  int *order, *mode;
  gsReal *V, *C;       /* an orthonormal basis of K's range (3nc x rank), columns of a check */
  int rank;
  gsReal kmax;         /* K's largest entry: velocities' round-off grows with it and the forces */
  gsReal tolv, best, tailmin[2 * GS_FRICTION_ENUM_MAX + 2];
  long bases, maxbases;
  int found;
} ModeSearch;

/* the velocity rows that contact c's mode fixes: row i (0 normal, 1, 2 tangents) and the sign
 * of lambda in it (0: none); returns how many */
static int mode_rows(int md, int row[3], gsReal sgn[3]) {
  if (md == APART) return 0;
  row[0] = 0; sgn[0] = 0;
  if (md == STICK) { row[1] = 1; row[2] = 2; sgn[1] = sgn[2] = 0; return 3; }
  if (md < 6) { row[1] = 1 + (md - 2) / 2; sgn[1] = (md - 2) % 2 ? -1 : 1; return 2; }
  row[1] = 1; sgn[1] = (md - 6) & 1 ? -1 : 1;
  row[2] = 2; sgn[2] = (md - 6) & 2 ? -1 : 1;
  return 3;
}

/* contact c's velocity u = b + K f for the forces f */
static void contact_vel(const ModeSearch* S, const gsReal* f, int c, gsReal u[3]) {
  int n3 = 3 * S->nc;
  for (int i = 0; i < 3; i++) {
    gsReal t = S->b[3 * c + i];
    for (int a = 0; a < n3; a++) t += S->K[(size_t)(3 * c + i) * n3 + a] * f[a];
    u[i] = t;
  }
}

/* the assignment's solution x checked against the modes' equations (when eq) and inequalities:
 * its distance to f0 (kept when the best), or -1 */
static gsReal mode_accept(ModeSearch* S, const gsReal* x, const int* off, const int* lam, int eq) {
  int nc = S->nc, n3 = 3 * nc;
  gsReal* f = S->f;
  gsReal fmaxabs = 0;
  for (int c = 0; c < nc; c++) {
    mode_force(S->mode[c], S->mu[c], S->mode[c] == APART ? NULL : x + off[c], f + 3 * c);
    for (int i = 0; i < 3; i++) fmaxabs = fmax(fmaxabs, fabs(f[3 * c + i]));
  }
  gsReal tolf = 1e-9 * (1 + fmaxabs), tolv = S->tolv + 1e-10 * S->kmax * fmaxabs * n3;
  gsReal dist = 0;
  for (int c = 0; c < nc; c++) {
    int md = S->mode[c];
    const gsReal* fc = f + 3 * c;
    gsReal u[3];
    contact_vel(S, f, c, u);
    gsReal lc = lam[c] >= 0 ? x[lam[c]] : 0;
    if (!eq) {
      int row[3];
      gsReal sgn[3];
      int m = mode_rows(md, row, sgn);
      for (int i = 0; i < m; i++) if (fabs(u[row[i]] + sgn[i] * lc) > 10 * tolv) return -1;
    }
    if (md == APART) {
      if (u[0] < -tolv) return -1;
      lc = fmax(fabs(u[1]), fabs(u[2]));
    } else {
      if (fc[0] < -tolf) return -1;
      if (S->mu[c] * fc[0] - fabs(fc[1]) - fabs(fc[2]) < -tolf) return -1;
      if (md >= 2 && lc < -tolv) return -1;
      if (md >= 2 && md < 6) {
        int o = 2 - (md - 2) / 2;                 /* the other tangent's row */
        if (fabs(u[o]) > lc + tolv) return -1;
      }
      if (md >= 6 && (x[off[c] + 1] < -tolf || S->mu[c] * fc[0] - x[off[c] + 1] < -tolf))
        return -1;
      lc = fmax(lc, 0);
    }
    S->r[c] = lc;
    for (int i = 0; i < 3; i++) dist += (fc[i] - S->f0[3 * c + i]) * (fc[i] - S->f0[3 * c + i]);
  }
  S->found++;
  if (dist < S->best) {
    S->best = dist;
    memcpy(S->fbest, f, sizeof(gsReal) * (size_t)n3);
    memcpy(S->lbest, S->r, sizeof(gsReal) * (size_t)nc);
  }
  return dist;
}

/* the nearest solution of the current assignment, if it has one; 1 when it beats the best */
static void mode_solve(ModeSearch* S) {
  int nc = S->nc, nx = 0, ne = 0, n3 = 3 * nc;
  int off[GS_FRICTION_ENUM_MAX], lam[GS_FRICTION_ENUM_MAX];
  for (int c = 0; c < nc; c++) {
    off[c] = nx;
    nx += mode_unknowns(S->mode[c]);
    lam[c] = S->mode[c] >= 2 ? nx - 1 : -1;     /* lambda is a sliding mode's last unknown */
  }
  S->bases++;
  /* P: forces (3nc) from unknowns (nx), column by column */
  memset(S->P, 0, sizeof(gsReal) * (size_t)n3 * (nx > 0 ? nx : 1));
  for (int c = 0; c < nc; c++) {
    int md = S->mode[c], k = mode_unknowns(md);
    for (int j = 0; j < k; j++) {
      gsReal e[3] = {0, 0, 0}, f[3];
      e[j] = 1;
      mode_force(md, S->mu[c], e, f);
      for (int i = 0; i < 3; i++) S->P[(size_t)(3 * c + i) * nx + off[c] + j] = f[i];
    }
  }
  /* E x = rhs: the velocity rows of the touching contacts, u = b + K P x */
  for (int c = 0; c < nc; c++) {
    int md = S->mode[c];
    if (md == APART) continue;
    for (int i = 0; i < 3; i++) {
      gsReal s = 0;
      if (i > 0 && md >= 2 && md < 6) {
        if ((md - 2) / 2 != i - 1) continue;     /* the other tangent is an inequality */
        s = (md - 2) % 2 ? -1 : 1;
      }
      if (i > 0 && md >= 6) s = i == 1 ? ((md - 6) & 1 ? -1 : 1) : ((md - 6) & 2 ? -1 : 1);
      gsReal* er = S->E + (size_t)ne * nx;
      const gsReal* kr = S->K + (size_t)(3 * c + i) * n3;
      for (int j = 0; j < nx; j++) {
        gsReal t = 0;
        for (int a = 0; a < n3; a++) t += kr[a] * S->P[(size_t)a * nx + j];
        er[j] = t;
      }
      if (s != 0) er[lam[c]] += s;
      S->rhs[ne++] = -S->b[3 * c + i];
    }
  }
  int exact = 0;
  if (nx > 0 && ne == nx) {
    /* a determinate assignment (as many equations as unknowns, nonsingular): its one solution */
    memcpy(S->H, S->E, sizeof(gsReal) * (size_t)nx * nx);
    int* piv = (int*)S->y;
    if (gs_luFactor(S->H, nx, piv, 1e-10) < 0) {
      memcpy(S->x, S->rhs, sizeof(gsReal) * (size_t)nx);
      gs_luSolve(S->H, nx, piv, S->x);
      exact = 1;
    }
  }
  if (nx > 0 && !exact) {
    /* H = P^T P + eps on lambda + E^T E / rho; rho so that the constraint term dominates */
    gsReal emax = 0;
    for (int j = 0; j < nx; j++) {
      gsReal t = 0;
      for (int e = 0; e < ne; e++) t += S->E[(size_t)e * nx + j] * S->E[(size_t)e * nx + j];
      emax = fmax(emax, t);
    }
    gsReal rho = 1e-6 * (emax > 0 ? emax : 1);
    for (int i = 0; i < nx; i++)
      for (int j = 0; j <= i; j++) {
        gsReal t = 0;
        for (int a = 0; a < n3; a++) t += S->P[(size_t)a * nx + i] * S->P[(size_t)a * nx + j];
        gsReal u = 0;
        for (int e = 0; e < ne; e++) u += S->E[(size_t)e * nx + i] * S->E[(size_t)e * nx + j];
        S->H[(size_t)i * nx + j] = t + u / rho;
      }
    for (int c = 0; c < nc; c++)
      if (lam[c] >= 0) S->H[(size_t)lam[c] * nx + lam[c]] += 1e-12 * emax / rho;
    if (gs_cholesky(S->H, nx, 1e-15) >= 0) return;
    memset(S->y, 0, sizeof(gsReal) * (size_t)(ne > 0 ? ne : 1));
    gsReal res = INFINITY;
    for (int it = 0; it < 40; it++) {
      /* x = H^-1 (P^T f0 + E^T (rhs / rho - y)) */
      for (int j = 0; j < nx; j++) {
        gsReal t = 0;
        for (int a = 0; a < n3; a++) t += S->P[(size_t)a * nx + j] * S->f0[a];
        for (int e = 0; e < ne; e++) t += S->E[(size_t)e * nx + j] * (S->rhs[e] / rho - S->y[e]);
        S->x[j] = t;
      }
      gs_cholSolve(S->H, nx, S->x);
      res = 0;
      for (int e = 0; e < ne; e++) {
        gsReal t = -S->rhs[e];
        for (int j = 0; j < nx; j++) t += S->E[(size_t)e * nx + j] * S->x[j];
        S->r[e] = t;
        res = fmax(res, fabs(t));
        S->y[e] += t / rho;
      }
      if (res <= 1e-3 * S->tolv) break;
    }
    gsReal xmax = 0;
    for (int j = 0; j < nx; j++) xmax = fmax(xmax, fabs(S->x[j]));
    if (res > S->tolv + 1e-10 * S->kmax * xmax * n3) return;   /* inconsistent: no solution */
  }
  mode_accept(S, S->x, off, lam, 1);
}

/* whether contacts 0..c-1's modes can hold at all: u - b lies in K's range whatever the forces,
 * so the rows the modes fix, V_R t + S lambda = -b_R, must be consistent (a necessary condition
 * that only grows with c: a failing assignment fails with every completion) */
static int partial_consistent(ModeSearch* S, int c) {
  int n3 = 3 * S->nc, ne = 0, nl = 0, r = S->rank;
  int rows[3 * GS_FRICTION_ENUM_MAX], lc[3 * GS_FRICTION_ENUM_MAX];
  gsReal sg[3 * GS_FRICTION_ENUM_MAX], y[3 * GS_FRICTION_ENUM_MAX];
  for (int k = 0; k < c; k++) {
    int row[3];
    gsReal sgn[3];
    int m = mode_rows(S->mode[k], row, sgn);
    for (int i = 0; i < m; i++) {
      rows[ne] = 3 * k + row[i];
      sg[ne] = sgn[i];
      lc[ne] = S->mode[k] >= 2 ? nl : -1;
      y[ne] = -S->b[3 * k + row[i]];
      ne++;
    }
    if (S->mode[k] >= 2) nl++;
  }
  if (ne == 0) return 1;
  /* the columns (V's restricted rows, then one per lambda), orthonormalised; y's residual */
  int nq = 0;
  gsReal* Q = S->C;
  for (int j = 0; j < r + nl; j++) {
    gsReal* q = Q + (size_t)nq * n3;
    gsReal nrm0 = 0;
    for (int e = 0; e < ne; e++) {
      q[e] = j < r ? S->V[(size_t)rows[e] * r + j] : (lc[e] == j - r ? sg[e] : 0);
      nrm0 += q[e] * q[e];
    }
    for (int pass = 0; pass < 2; pass++)
      for (int a = 0; a < nq; a++) {
        gsReal* qa = Q + (size_t)a * n3;
        gsReal t = 0;
        for (int e = 0; e < ne; e++) t += qa[e] * q[e];
        for (int e = 0; e < ne; e++) q[e] -= t * qa[e];
      }
    gsReal nrm = 0;
    for (int e = 0; e < ne; e++) nrm += q[e] * q[e];
    if (nrm <= 1e-20 * (nrm0 > 0 ? nrm0 : 1) || nrm == 0) continue;
    nrm = sqrt(nrm);
    for (int e = 0; e < ne; e++) q[e] /= nrm;
    nq++;
  }
  for (int pass = 0; pass < 2; pass++)
    for (int a = 0; a < nq; a++) {
      gsReal* qa = Q + (size_t)a * n3;
      gsReal t = 0;
      for (int e = 0; e < ne; e++) t += qa[e] * y[e];
      for (int e = 0; e < ne; e++) y[e] -= t * qa[e];
    }
  gsReal res = 0;
  for (int e = 0; e < ne; e++) res = fmax(res, fabs(y[e]));
  return res <= 1e3 * S->tolv;
}

static void mode_search(ModeSearch* S, int c, gsReal partial) {
  if (S->maxbases > 0 && S->bases >= S->maxbases) return;
  if (c > 0 && S->mode[c - 1] != APART && !partial_consistent(S, c)) return;
  if (c == S->nc) { mode_solve(S); return; }
  for (int k = 0; k < MODES; k++) {
    int md = S->order[c * MODES + k];
    gsReal p = partial + S->lb[c * MODES + md];
    if (p + S->tailmin[c + 1] >= S->best) return;   /* the rest are ordered: no better */
    S->mode[c] = md;
    mode_search(S, c + 1, p);
  }
}

size_t gs_frictionEnumWork(int nc) {
  size_t n3 = 3 * (size_t)nc, nx = 4 * (size_t)nc;
  return 2 * MODES * (size_t)nc + nx * nx + 2 * n3 * nx + 4 * nx + 8 * n3 + 2 * (size_t)nc + 16 +
         n3 * n3 + n3 * (n3 + nc);
}

int gs_frictionNearest(int nc, const gsReal* K, const gsReal* b, const gsReal* mu,
                       const gsReal* f0, long maxbases, gsReal* f, gsReal* lambda, long* bases,
                       gsReal* work) {
  if (bases) *bases = 0;
  if (nc <= 0 || nc > GS_FRICTION_ENUM_MAX) return 0;
  size_t n3 = 3 * (size_t)nc, nx = 4 * (size_t)nc;
  ModeSearch S;
  memset(&S, 0, sizeof S);
  S.nc = nc; S.K = K; S.b = b; S.mu = mu; S.f0 = f0; S.maxbases = maxbases;
  S.lb = work;
  S.H = S.lb + MODES * (size_t)nc;
  S.E = S.H + nx * nx;
  S.P = S.E + n3 * nx;
  S.rhs = S.P + n3 * nx;
  S.x = S.rhs + n3;
  S.y = S.x + nx;
  S.r = S.y + n3;
  S.fbest = S.r + n3;
  S.lbest = S.fbest + n3;
  S.f = S.lbest + nc;
  int* iw = (int*)(S.f + n3 + 2);
  S.order = iw;
  S.mode = iw + MODES * nc;
  S.V = S.f + n3 + 2 + MODES * (size_t)nc;
  S.C = S.V + n3 * n3;
  /* K's range, by Gram-Schmidt on its columns (dropping those within 1e-9 of the others) */
  gsReal kmax = 0;
  for (size_t i = 0; i < n3 * n3; i++) kmax = fmax(kmax, fabs(K[i]));
  S.kmax = kmax;
  for (size_t j = 0; j < n3; j++) {
    gsReal* v = S.C;
    for (size_t i = 0; i < n3; i++) v[i] = K[i * n3 + j];
    for (int pass = 0; pass < 2; pass++)
      for (int a = 0; a < S.rank; a++) {
        gsReal t = 0;
        for (size_t i = 0; i < n3; i++) t += S.V[i * n3 + a] * v[i];
        for (size_t i = 0; i < n3; i++) v[i] -= t * S.V[i * n3 + a];
      }
    gsReal nrm = 0;
    for (size_t i = 0; i < n3; i++) nrm += v[i] * v[i];
    nrm = sqrt(nrm);
    if (nrm <= 1e-9 * kmax) continue;
    for (size_t i = 0; i < n3; i++) S.V[i * n3 + S.rank] = v[i] / nrm;
    S.rank++;
  }
  /* V is stored with row stride n3; repack to stride rank */
  for (size_t i = 0; i < n3; i++)
    for (int a = 0; a < S.rank; a++) S.V[i * S.rank + a] = S.V[i * n3 + a];
  gsReal bmax = 0;
  for (size_t i = 0; i < n3; i++) bmax = fmax(bmax, fabs(b[i]));
  S.tolv = 1e-10 * (1 + bmax);
  S.best = INFINITY;
  /* each contact's bounds, its modes nearest first, and the least bound of the contacts after */
  for (int c = 0; c < nc; c++) {
    for (int md = 0; md < MODES; md++) {
      S.lb[c * MODES + md] = mode_bound(md, mu[c], f0 + 3 * c);
      int k = md;
      while (k > 0 && S.lb[c * MODES + S.order[c * MODES + k - 1]] > S.lb[c * MODES + md]) {
        S.order[c * MODES + k] = S.order[c * MODES + k - 1];
        k--;
      }
      S.order[c * MODES + k] = md;
    }
  }
  S.tailmin[nc] = 0;
  for (int c = nc - 1; c >= 0; c--)
    S.tailmin[c] = S.tailmin[c + 1] + S.lb[c * MODES + S.order[c * MODES]];
  mode_search(&S, 0, 0);
  if (bases) *bases = S.bases;
  if (!S.found) return 0;
  memcpy(f, S.fbest, sizeof(gsReal) * n3);
  memcpy(lambda, S.lbest, sizeof(gsReal) * (size_t)nc);
  return S.found;
}
