/* Dense LU with partial pivoting: for the non-symmetric matrices of the implicit integrator. */
#include <math.h>

#include "core/linalg.h"

int gs_luFactor(gsReal* A, int n, int* piv) {
  int ok = 1;
  for (int k = 0; k < n; k++) {
    int p = k;
    for (int i = k + 1; i < n; i++)
      if (fabs(A[i * n + k]) > fabs(A[p * n + k])) p = i;
    piv[k] = p;
    if (p != k)
      for (int j = 0; j < n; j++) {
        gsReal t = A[k * n + j];
        A[k * n + j] = A[p * n + j];
        A[p * n + j] = t;
      }
    gsReal pivot = A[k * n + k];
    if (pivot == 0) {
      ok = 0;
      continue;
    }
    for (int i = k + 1; i < n; i++) {
      gsReal f = A[i * n + k] / pivot;
      A[i * n + k] = f;
      if (f == 0) continue;
      for (int j = k + 1; j < n; j++) A[i * n + j] -= f * A[k * n + j];
    }
  }
  return ok;
}

void gs_luSolve(const gsReal* LU, int n, const int* piv, gsReal* x) {
  for (int k = 0; k < n; k++) {
    int p = piv[k];
    if (p != k) {
      gsReal t = x[k];
      x[k] = x[p];
      x[p] = t;
    }
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++) x[i] -= LU[i * n + j] * x[j];
  for (int i = n - 1; i >= 0; i--) {
    for (int j = i + 1; j < n; j++) x[i] -= LU[i * n + j] * x[j];
    x[i] /= LU[i * n + i];
  }
}
