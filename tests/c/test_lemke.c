/* src/solver/lemke.c: random LCPs with a solution built in (z* >= 0, w* >= 0 complementary,
 * q = w* - M z*): P-matrices (unique solution: z must equal z*), rank-deficient PSD matrices
 * (w = q + M z is unique over the solution set: it must equal w*), degenerate ones (z*_i = w*_i = 0,
 * repeated rows) and an infeasible one (reported, never a wrong "solved"). */
#include <math.h>
#include <string.h>

#include "check.h"
#include "lcp_util.h"
#include "lemke_trot1377.h"
#include "solver/lcp.h"

/* q from a complementary pair; degenerate: every third index has z* = w* = 0 */
static void make_q(int n, const double* M, double* zs, double* ws, double* q, int degenerate) {
  for (int i = 0; i < n; i++) {
    double u = fabs(urand()) + 0.1;
    zs[i] = ws[i] = 0;
    if (degenerate && i % 3 == 0) continue;
    if (urand() > 0) zs[i] = u; else ws[i] = u;
  }
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j < n; j++) s += M[i * n + j] * zs[j];
    q[i] = ws[i] - s;
  }
}

int main(void) {
  gsLCPStat st;
  for (int trial = 0; trial < 30; trial++) {
    int n = 4 + trial;
    int kind = trial % 3;   /* 0 P-matrix, 1 PSD rank n/3, 2 degenerate PSD with repeated rows */
    double* M = dalloc((size_t)n * n);
    double* G = dalloc((size_t)n * n);
    double *q = dalloc(n), *zs = dalloc(n), *ws = dalloc(n), *z = dalloc(n), *w = dalloc(n);
    double* work = dalloc(gs_lemkeWork(n));
    if (kind == 0) {
      /* PD symmetric part plus a skew part: a P-matrix that is not symmetric */
      rand_psd(M, G, n, n);
      for (int i = 0; i < n; i++) {
        M[i * n + i] += 0.5;
        for (int j = 0; j < i; j++) {
          double s = urand();
          M[i * n + j] += s;
          M[j * n + i] -= s;
        }
      }
    } else {
      int r = n / 3 > 1 ? n / 3 : 1;
      rand_psd(M, G, n, r);
      if (kind == 2)   /* row and column 1 repeat row and column 0 */
        for (int k = 0; k < r; k++) G[r + k] = G[k];
      if (kind == 2)
        for (int i = 0; i < n; i++)
          for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < r; k++) s += G[i * r + k] * G[j * r + k];
            M[i * n + j] = s;
          }
    }
    make_q(n, M, zs, ws, q, kind == 2);
    int status = gs_lemke(n, M, q, z, w, 0, 0, &st, work);
    CHECK(status == 0, "trial %d (n %d, kind %d): status %d", trial, n, kind, status);
    CHECK(st.residual < 1e-9, "trial %d: residual %g", trial, st.residual);
    double zmin = 0, wmin = 0, dz = 0, dw = 0;
    for (int i = 0; i < n; i++) {
      zmin = fmin(zmin, z[i]);
      wmin = fmin(wmin, w[i]);
      dz = fmax(dz, fabs(z[i] - zs[i]));
      dw = fmax(dw, fabs(w[i] - ws[i]));
    }
    CHECK(zmin >= 0 && wmin > -1e-9, "trial %d: min z %g, min w %g", trial, zmin, wmin);
    if (kind == 0) CHECK(dz < 1e-9, "trial %d: P-matrix solution off by %g", trial, dz);
    CHECK(dw < 1e-9, "trial %d: w off by %g", trial, dw);
    CHECK(st.pivots > 0 && st.pivots <= 50 * n + 100, "trial %d: %d pivots", trial, st.pivots);
    free(M); free(G); free(q); free(zs); free(ws); free(z); free(w); free(work);
  }
  /* infeasible: w = -1 + 0 z can never be non-negative */
  {
    double M[4] = {0, 0, 0, 0}, q[2] = {-1, -1}, z[2], w[2];
    double* work = dalloc(gs_lemkeWork(2));
    int status = gs_lemke(2, M, q, z, w, 0, 0, &st, work);
    CHECK(status != 0, "an infeasible LCP reported solved without regularisation");
    CHECK(status == -1 || st.reg > 0, "status %d reg %g", status, st.reg);
    free(work);
  }
  /* trivial: q >= 0 gives z = 0 without a pivot */
  {
    double M[4] = {1, 0, 0, 1}, q[2] = {1, 0}, z[2], w[2];
    double* work = dalloc(gs_lemkeWork(2));
    gs_lemke(2, M, q, z, w, 0, 0, &st, work);
    CHECK(st.pivots == 0 && z[0] == 0 && z[1] == 0 && w[0] == 1, "trivial LCP");
    free(work);
  }
  /* the acceptance is per row and scale-free: convex QPs' KKT LCPs with equalities given as
   * pairs of opposite rows (as the rigid-contact QP's Stage II writes them), x* from 1e-3 to 1e5
   * and the equalities' multipliers from 1e2 to 1e6. A status-0 answer solves each row to 1e-9
   * of its terms (w recomputed here from M and q), and x is the unique optimum x* (H positive
   * definite; the split multipliers l+ - l- are not unique). The opposite rows make the pivots
   * degenerate: some attempts without regularisation end on a ray, and the regularised answer
   * (status 1) must still give x* */
  int wide0 = 0;
  for (int trial = 0; trial < 12; trial++) {
    int nx = 4 + trial % 5, ne = 1 + trial % 3, n = nx + 2 * ne;
    double* M = dalloc((size_t)n * n);
    double* G = dalloc((size_t)nx * nx);
    double* H = dalloc((size_t)nx * nx);
    double *q = dalloc(n), *z = dalloc(n), *w = dalloc(n), *xs = dalloc(nx), *lam = dalloc(ne);
    double* work = dalloc(gs_lemkeWork(n));
    double* A = dalloc((size_t)ne * nx);
    rand_psd(H, G, nx, nx);
    for (int i = 0; i < nx; i++) H[i * nx + i] += 0.1;
    for (int i = 0; i < nx; i++) xs[i] = pow(10, -3 + 8 * (urand() + 1) / 2);
    for (int k = 0; k < ne; k++) lam[k] = (urand() > 0 ? 1 : -1) * pow(10, 2 + 4 * (urand() + 1) / 2);
    rand_fill(A, ne * nx);
    /* [H -A^T A^T; A 0 0; -A 0 0] on (x, l+, l-); g = A^T lam - H x*: stationary at x* > 0 */
    for (int i = 0; i < nx; i++) {
      double g = 0;
      for (int j = 0; j < nx; j++) {
        M[i * n + j] = H[i * nx + j];
        g -= H[i * nx + j] * xs[j];
      }
      for (int k = 0; k < ne; k++) {
        M[i * n + nx + k] = -A[k * nx + i];
        M[i * n + nx + ne + k] = A[k * nx + i];
        g += A[k * nx + i] * lam[k];
      }
      q[i] = g;
    }
    for (int k = 0; k < ne; k++) {
      double b = 0;
      for (int j = 0; j < nx; j++) {
        M[(nx + k) * n + j] = A[k * nx + j];
        M[(nx + ne + k) * n + j] = -A[k * nx + j];
        b += A[k * nx + j] * xs[j];
      }
      q[nx + k] = -b;
      q[nx + ne + k] = b;
    }
    int status = gs_lemke(n, M, q, z, w, 0, 0, &st, work);
    double rowmax = 0, dx = 0, xmax = 0;
    for (int i = 0; i < n; i++) {
      double wi = q[i], size = 1 + fabs(q[i]);
      for (int j = 0; j < n; j++) {
        wi += M[i * n + j] * z[j];
        size += fabs(M[i * n + j] * z[j]);
      }
      rowmax = fmax(rowmax, fabs(fmin(z[i], wi)) / size);
    }
    for (int i = 0; i < nx; i++) {
      dx = fmax(dx, fabs(z[i] - xs[i]));
      xmax = fmax(xmax, xs[i]);
    }
    CHECK(status == 0 || status == 1, "wide trial %d: status %d", trial, status);
    if (status == 0) {
      wide0++;
      CHECK(rowmax < 1e-9, "wide trial %d: row residual %g", trial, rowmax);
    }
    CHECK(dx < 1e-7 * xmax, "wide trial %d (status %d): x off by %g of %g", trial, status, dx, xmax);
    free(M); free(G); free(H); free(q); free(z); free(w); free(xs); free(lam); free(A); free(work);
  }
  printf("wide-scale KKT LCPs: %d of 12 solved without regularisation\n", wide0);
  /* the captured KKT system whose spoilt basis passed the old acceptance (lemke_trot1377.h): an
   * answer returned as solved (status 0) must solve it row by row, recomputed here from M and q,
   * and a regularised one (status 1) to within its documented 1e-6 (1 + max |q|) */
  {
    int n = TROT1377_N;
    double *z = dalloc(n), *w = dalloc(n), *work = dalloc(gs_lemkeWork(n));
    int status = gs_lemke(n, trot1377_M, trot1377_q, z, w, 0, 0, &st, work);
    double qmax = 0, res = 0, rowmax = 0, zmin = 0;
    for (int i = 0; i < n; i++) qmax = fmax(qmax, fabs(trot1377_q[i]));
    for (int i = 0; i < n; i++) {
      double wi = trot1377_q[i], size = 1 + fabs(trot1377_q[i]);
      for (int j = 0; j < n; j++) {
        wi += trot1377_M[i * n + j] * z[j];
        size += fabs(trot1377_M[i * n + j] * z[j]);
      }
      double r = fabs(fmin(z[i], wi));
      res = fmax(res, r);
      rowmax = fmax(rowmax, r / size);
      zmin = fmin(zmin, z[i]);
    }
    printf("captured trot LCP (n %d): status %d, reg %g, %d pivots, residual %g (row-relative %g)\n",
           n, status, st.reg, st.pivots, res, rowmax);
    CHECK(zmin >= 0, "captured LCP: negative z %g", zmin);
    if (status == 0) CHECK(rowmax <= 1e-8, "captured LCP solved with row residual %g", rowmax);
    if (status >= 0) CHECK(res <= 1e-6 * (1 + qmax), "captured LCP: residual %g", res);
    free(z); free(w); free(work);
  }
  return CHECK_SUMMARY();
}
