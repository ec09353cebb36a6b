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
