/* Dense row-major products, Cholesky and triangular solves (core/dense.h). */
#include "core/dense.h"

#include <math.h>
#include <string.h>

void gs_denseMul(gsReal* res, const gsReal* A, const gsReal* B, int r, int k, int c) {
  memset(res, 0, sizeof(gsReal) * (size_t)r * (size_t)c);
  for (int i = 0; i < r; i++) {
    gsReal* ri = res + (size_t)i * c;
    for (int l = 0; l < k; l++) {
      gsReal a = A[(size_t)i * k + l];
      if (a == 0) continue;
      const gsReal* bl = B + (size_t)l * c;
      for (int j = 0; j < c; j++) ri[j] += a * bl[j];
    }
  }
}

void gs_denseMulBT(gsReal* res, const gsReal* A, const gsReal* B, int r, int k, int c) {
  for (int i = 0; i < r; i++) {
    const gsReal* ai = A + (size_t)i * k;
    for (int j = 0; j < c; j++) {
      const gsReal* bj = B + (size_t)j * k;
      gsReal s = 0;
      for (int l = 0; l < k; l++) s += ai[l] * bj[l];
      res[(size_t)i * c + j] = s;
    }
  }
}

void gs_denseMulAT(gsReal* res, const gsReal* A, const gsReal* B, int r, int k, int c) {
  memset(res, 0, sizeof(gsReal) * (size_t)r * (size_t)c);
  for (int l = 0; l < k; l++) {
    const gsReal* al = A + (size_t)l * r;
    const gsReal* bl = B + (size_t)l * c;
    for (int i = 0; i < r; i++) {
      gsReal a = al[i];
      if (a == 0) continue;
      gsReal* ri = res + (size_t)i * c;
      for (int j = 0; j < c; j++) ri[j] += a * bl[j];
    }
  }
}

void gs_denseMulVec(gsReal* res, const gsReal* A, const gsReal* x, int r, int c, int add) {
  for (int i = 0; i < r; i++) {
    const gsReal* ai = A + (size_t)i * c;
    gsReal s = 0;
    for (int j = 0; j < c; j++) s += ai[j] * x[j];
    res[i] = add ? res[i] + s : s;
  }
}

void gs_denseMulVecT(gsReal* res, const gsReal* A, const gsReal* x, int r, int c, int add) {
  if (!add) memset(res, 0, sizeof(gsReal) * (size_t)c);
  for (int i = 0; i < r; i++) {
    const gsReal* ai = A + (size_t)i * c;
    gsReal xi = x[i];
    if (xi == 0) continue;
    for (int j = 0; j < c; j++) res[j] += ai[j] * xi;
  }
}

int gs_cholesky(gsReal* A, int n, gsReal tol) {
  gsReal dmax = 0;
  for (int i = 0; i < n; i++) {
    gsReal a = fabs(A[(size_t)i * n + i]);
    if (a > dmax) dmax = a;
  }
  gsReal floor_ = tol * (dmax > 0 ? dmax : 1);
  for (int j = 0; j < n; j++) {
    gsReal* rj = A + (size_t)j * n;
    gsReal s = rj[j];
    for (int k = 0; k < j; k++) s -= rj[k] * rj[k];
    if (!(s > floor_)) return j;   /* also catches NaN */
    gsReal djj = sqrt(s);
    rj[j] = djj;
    for (int i = j + 1; i < n; i++) {
      gsReal* ri = A + (size_t)i * n;
      gsReal t = ri[j];
      for (int k = 0; k < j; k++) t -= ri[k] * rj[k];
      ri[j] = t / djj;
    }
  }
  return -1;
}

void gs_solveL(const gsReal* L, int n, gsReal* x) {
  for (int i = 0; i < n; i++) {
    const gsReal* li = L + (size_t)i * n;
    gsReal s = x[i];
    for (int k = 0; k < i; k++) s -= li[k] * x[k];
    x[i] = s / li[i];
  }
}

void gs_solveLT(const gsReal* L, int n, gsReal* x) {
  for (int i = n - 1; i >= 0; i--) {
    gsReal s = x[i];
    for (int k = i + 1; k < n; k++) s -= L[(size_t)k * n + i] * x[k];
    x[i] = s / L[(size_t)i * n + i];
  }
}

void gs_cholSolve(const gsReal* L, int n, gsReal* x) {
  gs_solveL(L, n, x);
  gs_solveLT(L, n, x);
}

int gs_luFactor(gsReal* A, int n, int* piv, gsReal tol) {
  gsReal amax = 0;
  for (size_t i = 0; i < (size_t)n * n; i++) if (fabs(A[i]) > amax) amax = fabs(A[i]);
  gsReal floor_ = tol * (amax > 0 ? amax : 1);
  for (int j = 0; j < n; j++) {
    int p = j;
    for (int i = j + 1; i < n; i++)
      if (fabs(A[(size_t)i * n + j]) > fabs(A[(size_t)p * n + j])) p = i;
    piv[j] = p;
    if (!(fabs(A[(size_t)p * n + j]) > floor_)) return j;
    if (p != j)
      for (int k = 0; k < n; k++) {
        gsReal t = A[(size_t)j * n + k];
        A[(size_t)j * n + k] = A[(size_t)p * n + k];
        A[(size_t)p * n + k] = t;
      }
    gsReal inv = 1 / A[(size_t)j * n + j];
    for (int i = j + 1; i < n; i++) {
      gsReal f = A[(size_t)i * n + j] *= inv;
      if (f == 0) continue;
      for (int k = j + 1; k < n; k++) A[(size_t)i * n + k] -= f * A[(size_t)j * n + k];
    }
  }
  return -1;
}

void gs_luSolve(const gsReal* LU, int n, const int* piv, gsReal* x) {
  for (int j = 0; j < n; j++) {
    if (piv[j] != j) {
      gsReal t = x[j];
      x[j] = x[piv[j]];
      x[piv[j]] = t;
    }
  }
  for (int i = 0; i < n; i++) {
    gsReal s = x[i];
    for (int k = 0; k < i; k++) s -= LU[(size_t)i * n + k] * x[k];
    x[i] = s;
  }
  for (int i = n - 1; i >= 0; i--) {
    gsReal s = x[i];
    for (int k = i + 1; k < n; k++) s -= LU[(size_t)i * n + k] * x[k];
    x[i] = s / LU[(size_t)i * n + i];
  }
}

gsReal gs_orthogonalize(const gsReal* Q, int k, int c, gsReal* v, gsReal* coef) {
  if (coef) memset(coef, 0, sizeof(gsReal) * (size_t)k);
  /* classical Gram-Schmidt applied twice is as accurate as the modified one ("twice is enough") */
  for (int pass = 0; pass < 2; pass++) {
    for (int i = 0; i < k; i++) {
      const gsReal* qi = Q + (size_t)i * c;
      gsReal s = 0;
      for (int j = 0; j < c; j++) s += qi[j] * v[j];
      for (int j = 0; j < c; j++) v[j] -= s * qi[j];
      if (coef) coef[i] += s;
    }
  }
  gsReal s = 0;
  for (int j = 0; j < c; j++) s += v[j] * v[j];
  return sqrt(s);
}
