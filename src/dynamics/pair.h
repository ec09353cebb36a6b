/* Two doubles at a time for the short fixed-length kernels of the smooth stages (six-vectors,
 * rows of M): GCC's vector types, SSE2 on x86-64's baseline, and the same operations in plain C
 * elsewhere, in the same order, so that both give the same numbers. */
#ifndef GAUSS_DYNAMICS_PAIR_H
#define GAUSS_DYNAMICS_PAIR_H

#include "gauss/gauss.h"

#if defined(__GNUC__)
#define GS_PAIR 1
/* aligned(8): loads and stores of any two consecutive doubles */
typedef double gs_pair __attribute__((vector_size(16), aligned(8)));
#endif

/* a . b over six values summed as two interleaved halves, ((a0 b0 + a2 b2) + a4 b4) +
 * ((a1 b1 + a3 b3) + a5 b5): three products and two sums of pairs, then one sum */
static inline gsReal gs_dot6Pair(const gsReal* a, const gsReal* b) {
#ifdef GS_PAIR
  gs_pair s = *(const gs_pair*)a * *(const gs_pair*)b;
  s += *(const gs_pair*)(a + 2) * *(const gs_pair*)(b + 2);
  s += *(const gs_pair*)(a + 4) * *(const gs_pair*)(b + 4);
  return s[0] + s[1];
#else
  gsReal s0 = a[0] * b[0], s1 = a[1] * b[1];
  s0 += a[2] * b[2];
  s1 += a[3] * b[3];
  s0 += a[4] * b[4];
  s1 += a[5] * b[5];
  return s0 + s1;
#endif
}

/* r += x over n values (six-vectors, ten-value inertias summed down the tree); r and x do not
 * overlap */
static inline void gs_addToPair(gsReal* restrict r, const gsReal* restrict x, int n) {
  int t = 0;
#ifdef GS_PAIR
  for (; t + 2 <= n; t += 2) *(gs_pair*)(r + t) += *(const gs_pair*)(x + t);
#endif
  for (; t < n; t++) r[t] += x[t];
}

/* r += x a over n values; r and x do not overlap */
static inline void gs_addScaledPair(gsReal* restrict r, const gsReal* restrict x, gsReal a, int n) {
  int t = 0;
#ifdef GS_PAIR
  gs_pair a2 = {a, a};
  for (; t + 2 <= n; t += 2) *(gs_pair*)(r + t) += *(const gs_pair*)(x + t) * a2;
#endif
  for (; t < n; t++) r[t] += x[t] * a;
}

/* r -= a x over n values; r and x do not overlap */
static inline void gs_subScaled(gsReal* restrict r, const gsReal* restrict x, gsReal a, int n) {
  int t = 0;
#ifdef GS_PAIR
  gs_pair a2 = {a, a};
  for (; t + 2 <= n; t += 2) *(gs_pair*)(r + t) -= *(const gs_pair*)(x + t) * a2;
#endif
  for (; t < n; t++) r[t] -= x[t] * a;
}

#endif
