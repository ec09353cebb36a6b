/* src/solver/enumerate.c, Algorithm 3 by contact modes: on two random three-contact problems whose
 * contact space has rank 6 (indeterminate, as a body on three feet), every solution that the
 * brute-force enumeration of the 2^18 complementary bases of the Coulomb LCP (eq. 58, four-edge
 * pyramid) finds is matched: with f0 a brute-force solution the modes' answer is that solution's
 * distance away (zero) or nearer, with f0 random it is never farther than the nearest
 * brute-force solution, and every answer solves the LCP (residual below 1e-9). Four contacts:
 * the answer solves the LCP and is no farther than Lemke's exact solution. */
#include <math.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "core/dense.h"
#include "lcp_util.h"
#include "solver/lcp.h"

/* the LCP of eq. 58 in (f_N, four edges per contact, lambda) from K, b, mu */
static void build_lcp(int nc, const double* K, const double* b, const double* mu, double* A,
                      double* q) {
  int n = 6 * nc, n3 = 3 * nc;
  /* direction of force variable i as a combination of the 3nc rows */
  memset(A, 0, sizeof(double) * n * n);
  for (int i = 0; i < 5 * nc; i++) {
    int ri = i < nc ? 3 * i : 3 * ((i - nc) / 4) + 1 + (i - nc) % 4 / 2;
    double si = i < nc ? 1 : ((i - nc) % 2 ? -1 : 1);
    for (int j = 0; j < 5 * nc; j++) {
      int rj = j < nc ? 3 * j : 3 * ((j - nc) / 4) + 1 + (j - nc) % 4 / 2;
      double sj = j < nc ? 1 : ((j - nc) % 2 ? -1 : 1);
      A[i * n + j] = si * sj * K[ri * n3 + rj];
    }
    q[i] = si * b[ri];
  }
  for (int c = 0; c < nc; c++) {
    for (int e = 0; e < 4; e++) {
      A[(nc + 4 * c + e) * n + 5 * nc + c] = 1;
      A[(5 * nc + c) * n + nc + 4 * c + e] = -1;
    }
    A[(5 * nc + c) * n + c] = mu[c];
    q[5 * nc + c] = 0;
  }
}

/* LCP variables from net forces and lambda, and the residual of the LCP there */
static double lcp_residual(int nc, const double* A, const double* q, const double* f,
                           const double* lam) {
  int n = 6 * nc;
  double z[24], w[24];
  for (int c = 0; c < nc; c++) {
    z[c] = f[3 * c];
    for (int e = 0; e < 4; e++) {
      double t = f[3 * c + 1 + e / 2] * (e % 2 ? -1 : 1);
      z[nc + 4 * c + e] = t > 0 ? t : 0;
    }
    z[5 * nc + c] = lam[c];
  }
  for (int i = 0; i < n; i++) {
    w[i] = q[i];
    for (int j = 0; j < n; j++) w[i] += A[i * n + j] * z[j];
  }
  return gs_lcpResidual(n, z, w);
}

static double dist2(int n, const double* a, const double* b) {
  double s = 0;
  for (int i = 0; i < n; i++) s += (a[i] - b[i]) * (a[i] - b[i]);
  return s;
}

/* every solution of the LCP by its complementary bases, as net forces (3nc each) */
static int brute_force(int nc, const double* A, const double* q, double* sols, int maxsol) {
  int n = 6 * nc, ns = 0, idx[24], piv[24];
  double S[24 * 24], zs[24], qmax = 0;
  for (int i = 0; i < n; i++) qmax = fmax(qmax, fabs(q[i]));
  double tol = 1e-10 * (1 + qmax);
  for (unsigned long mask = 0; mask < (1ul << n); mask++) {
    int k = 0;
    for (int i = 0; i < n; i++) if (mask >> i & 1) idx[k++] = i;
    for (int a = 0; a < k; a++) {
      for (int c = 0; c < k; c++) S[a * k + c] = A[idx[a] * n + idx[c]];
      zs[a] = -q[idx[a]];
    }
    if (k > 0) {
      if (gs_luFactor(S, k, piv, 1e-12) >= 0) continue;
      gs_luSolve(S, k, piv, zs);
    }
    int ok = 1;
    for (int a = 0; a < k; a++) if (zs[a] < -tol) ok = 0;
    double z[24] = {0};
    for (int a = 0; a < k; a++) z[idx[a]] = zs[a] > 0 ? zs[a] : 0;
    for (int i = 0; i < n && ok; i++) {
      double t = q[i];
      for (int j = 0; j < n; j++) t += A[i * n + j] * z[j];
      if (!(mask >> i & 1) && t < -tol) ok = 0;
    }
    if (!ok) continue;
    double f[12];
    for (int c = 0; c < nc; c++) {
      f[3 * c] = z[c];
      f[3 * c + 1] = z[nc + 4 * c] - z[nc + 4 * c + 1];
      f[3 * c + 2] = z[nc + 4 * c + 2] - z[nc + 4 * c + 3];
    }
    int dup = 0;
    for (int s = 0; s < ns && !dup; s++) dup = dist2(3 * nc, f, sols + 3 * nc * s) < 1e-18;
    if (!dup && ns < maxsol) memcpy(sols + 3 * nc * ns++, f, sizeof(double) * 3 * nc);
  }
  return ns;
}

/* a random problem of nc contacts whose forces move 6 dofs: K = G G^T, the normals pushed in */
static void scene(int nc, double* K, double* b, double* mu, int held) {
  int n3 = 3 * nc;
  double G[12 * 6];
  rand_psd(K, G, n3, 6);
  for (int c = 0; c < nc; c++) {
    b[3 * c] = -0.5 - 0.5 * fabs(urand());
    b[3 * c + 1] = 0.5 * urand();
    b[3 * c + 2] = 0.5 * urand();
    mu[c] = 0.6 + 0.5 * urand();
  }
  if (held) {
    /* b = -K f* with f* inside every pyramid: all contacts can stick, and f* plus K's null space
     * (3nc - 6 dimensions) within the pyramids are solutions too (a body resting on its feet) */
    double fs[12];
    for (int c = 0; c < nc; c++) {
      fs[3 * c] = 1 + 0.5 * urand();
      fs[3 * c + 1] = 0.3 * mu[c] * fs[3 * c] * urand();
      fs[3 * c + 2] = 0.3 * mu[c] * fs[3 * c] * urand();
    }
    for (int i = 0; i < n3; i++) {
      b[i] = 0;
      for (int j = 0; j < n3; j++) b[i] -= K[i * n3 + j] * fs[j];
    }
  }
}

int main(void) {
  double K[144], b[12], mu[4], A[24 * 24], q[24], f[12], lam[4], f0[12];
  static double sols[3 * 3 * 4096];
  double* work = dalloc(gs_frictionEnumWork(4));
  int checked = 0;
  int most = 0;
  for (int trial = 0; trial < 2; trial++) {
    int nc = 3;
    scene(nc, K, b, mu, trial >= 1);
    build_lcp(nc, K, b, mu, A, q);
    int ns = brute_force(nc, A, q, sols, 4096);
    CHECK(ns >= 1, "trial %d: brute force found no solution", trial);
    most = ns > most ? ns : most;
    for (int t = 0; t < ns + 4 && t < 40; t++) {
      if (t < ns) memcpy(f0, sols + 9 * t, sizeof(double) * 9);
      else for (int i = 0; i < 9; i++) f0[i] = (i % 3 ? 0.5 : 1) * urand() + (i % 3 ? 0 : 1);
      double dbf = INFINITY, fscale = 1;
      for (int s = 0; s < ns; s++) dbf = fmin(dbf, dist2(9, sols + 9 * s, f0));
      for (int i = 0; i < 9; i++) fscale = fmax(fscale, fabs(f0[i]));
      long bases = 0;
      int found = gs_frictionNearest(nc, K, b, mu, f0, 0, f, lam, &bases, work);
      double res = found ? lcp_residual(nc, A, q, f, lam) : INFINITY;
      double dm = dist2(9, f, f0);
      CHECK(found > 0 && res < 1e-9, "trial %d/%d: found %d, residual %g", trial, t, found, res);
      CHECK(dm <= dbf + 1e-9 * fscale * fscale, "trial %d/%d: %g farther than brute force's %g",
            trial, t, dm, dbf);
      checked++;
    }
  }
  /* four contacts: where Lemke finds a solution the modes find one no farther from f0 (a
   * generic problem of rank 6 may have none); counted and timed from a random f0 and, as in
   * control, from the last answer moved by 1 % */
  double* lw = dalloc(gs_lemkeWork(24));
  double z[24], w[24];
  long total[2] = {0, 0};
  double secs[2] = {0, 0};
  int runs = 0;
  for (int trial = 0; trial < 10; trial++) {
    int nc = 4;
    scene(nc, K, b, mu, trial % 2);
    build_lcp(nc, K, b, mu, A, q);
    gsLCPStat st;
    gs_lemke(24, A, q, z, w, 0, 0, &st, lw);
    double fl[12];
    for (int c = 0; c < nc; c++) {
      fl[3 * c] = z[c];
      fl[3 * c + 1] = z[nc + 4 * c] - z[nc + 4 * c + 1];
      fl[3 * c + 2] = z[nc + 4 * c + 2] - z[nc + 4 * c + 3];
    }
    for (int i = 0; i < 12; i++) f0[i] = (i % 3 ? 0.5 : 1) * urand() + (i % 3 ? 0 : 1);
    long bases = 0;
    clock_t t0 = clock();
    int found = gs_frictionNearest(nc, K, b, mu, f0, 0, f, lam, &bases, work);
    secs[0] += (double)(clock() - t0) / CLOCKS_PER_SEC;
    total[0] += bases;
    if (st.status < 0) continue;
    double res = found ? lcp_residual(nc, A, q, f, lam) : INFINITY;
    CHECK(found > 0 && res < 1e-9, "4 contacts, trial %d: found %d, residual %g (Lemke: %d, %g)",
          trial, found, res, st.status, st.residual);
    /* against Lemke's exact answers only: a regularised one is off by its residual */
    if (st.status == 0 && st.residual < 1e-12)
      CHECK(dist2(12, f, f0) <= dist2(12, fl, f0) + 1e-9, "4 contacts, trial %d: farther than "
            "Lemke's (%g > %g)", trial, dist2(12, f, f0), dist2(12, fl, f0));
    if (!found) continue;
    for (int i = 0; i < 12; i++) f0[i] = f[i] * (1 + 0.01 * urand());
    t0 = clock();
    found = gs_frictionNearest(nc, K, b, mu, f0, 0, f, lam, &bases, work);
    secs[1] += (double)(clock() - t0) / CLOCKS_PER_SEC;
    total[1] += bases;
    runs++;
    CHECK(found > 0 && lcp_residual(nc, A, q, f, lam) < 1e-9, "4 contacts, trial %d, warm", trial);
  }
  CHECK(most >= 4, "the held scenes have several solutions (%d)", most);
  printf("3 contacts: %d nearest solutions checked against brute force (up to %d solutions a "
         "problem); 4 contacts (%d solved): from a random f0 %.0f of 10^4 mode assignments solved, "
         "%.0f us a call; from the last answer moved by 1 %%: %.0f assignments, %.0f us\n",
         checked, most, runs, (double)total[0] / 10, 1e6 * secs[0] / 10,
         (double)total[1] / (runs ? runs : 1), 1e6 * secs[1] / (runs ? runs : 1));
  free(work); free(lw);
  return CHECK_SUMMARY();
}
