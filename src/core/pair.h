/* Two doubles at a time for short kernels (six-vectors, rows of M, the solvers' dot products):
 * GCC's vector types, SSE2 on x86-64's baseline, and the same operations in plain C
 * elsewhere, in the same order, so that both give the same numbers. */
#ifndef GAUSS_CORE_PAIR_H
#define GAUSS_CORE_PAIR_H

#include <string.h>

#include "core/math.h"
#include "gauss/gauss.h"

#if defined(__GNUC__)
#define GS_PAIR 1
/* aligned(8): loads and stores of any two consecutive doubles */
typedef double gs_pair __attribute__((vector_size(16), aligned(8)));

/* two consecutive doubles at any address */
static inline gs_pair gs_pairLoad(const gsReal* p) {
  gs_pair v;
  memcpy(&v, p, sizeof v);
  return v;
}
#endif

/* r[0 .. 2n-1] = the values x (n pairs of them), stored as whole pairs: a pair load that spans
 * two 8-byte stores cannot take its value from them and waits until they reach the cache (about
 * a dozen cycles on the chain), so values that are read back two at a time are written two at a
 * time; the same values either way */
static inline void gs_pairStore(gsReal* r, const gsReal* x, int n) {
#ifdef GS_PAIR
  for (int k = 0; k < n; k++) {
    gs_pair v = {x[2 * k], x[2 * k + 1]};
    memcpy(r + 2 * k, &v, sizeof v);
  }
#else
  memcpy(r, x, sizeof(gsReal) * 2 * (size_t)n);
#endif
}

/* sum_i a_i b_i over n values: core/math.h's gs_dot (four partial sums, the remainder into the
 * first) computed as two pairs with GCC's vector types, in exactly gs_dot's order of additions */
static inline gsReal gs_dotN(const gsReal* a, const gsReal* b, int n) {
#ifdef GS_PAIR
  gs_pair p01 = {0, 0}, p23 = {0, 0};
  int k = 0;
  for (; k + 4 <= n; k += 4) {
    p01 += gs_pairLoad(a + k) * gs_pairLoad(b + k);
    p23 += gs_pairLoad(a + k + 2) * gs_pairLoad(b + k + 2);
  }
  gsReal s0 = p01[0];
  /* the last n % 4 values written out: a loop here is compiled into a vectorised loop with its
   * own remainder, which cost more than the main loop on rows of 15-30 values */
  int left = n - k;
  if (left > 0) s0 += a[k] * b[k];
  if (left > 1) s0 += a[k + 1] * b[k + 1];
  if (left > 2) s0 += a[k + 2] * b[k + 2];
  return (s0 + p01[1]) + (p23[0] + p23[1]);
#else
  return gs_dot(a, b, n);
#endif
}

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
  /* two pairs a turn: the rows of M's factor are short, and the loop's own count and branch
   * were a third of its instructions */
  for (; t + 4 <= n; t += 4) {
    *(gs_pair*)(r + t) -= *(const gs_pair*)(x + t) * a2;
    *(gs_pair*)(r + t + 2) -= *(const gs_pair*)(x + t + 2) * a2;
  }
  if (t + 2 <= n) {
    *(gs_pair*)(r + t) -= *(const gs_pair*)(x + t) * a2;
    t += 2;
  }
  if (t < n) r[t] -= x[t] * a;
#else
  for (; t < n; t++) r[t] -= x[t] * a;
#endif
}

/* The straight code of the short kernels below for n values, 1 to 16 (a humanoid's rows of M
 * reach 15): one jump into a ladder of pairs from the end down (PAIR(t) on values t, t + 1), an
 * odd first value alone (ONE), instead of a loop's count, its two tests and its scalar remainder;
 * each value the same operation, so the same numbers. Falls out of the switch for other lengths. */
#define GS_PAIRS_BY_LENGTH(n, PAIR, ONE)                                               \
  switch (n) {                                                                         \
    case 16: PAIR(14); /* fall through */                                              \
    case 14: PAIR(12); /* fall through */                                              \
    case 12: PAIR(10); /* fall through */                                              \
    case 10: PAIR(8);  /* fall through */                                              \
    case 8: PAIR(6);   /* fall through */                                              \
    case 6: PAIR(4);   /* fall through */                                              \
    case 4: PAIR(2);   /* fall through */                                              \
    case 2: PAIR(0); return;                                                           \
    case 15: PAIR(13); /* fall through */                                              \
    case 13: PAIR(11); /* fall through */                                              \
    case 11: PAIR(9);  /* fall through */                                              \
    case 9: PAIR(7);   /* fall through */                                              \
    case 7: PAIR(5);   /* fall through */                                              \
    case 5: PAIR(3);   /* fall through */                                              \
    case 3: PAIR(1);   /* fall through */                                              \
    case 1: ONE; return;                                                               \
    default: break;                                                                    \
  }

/* gs_subScaled for the rows of M's tree factor, mostly 1 to 16 values */
static inline void gs_subScaledShort(gsReal* restrict r, const gsReal* restrict x, gsReal a,
                                     int n) {
#ifdef GS_PAIR
  gs_pair a2 = {a, a};
#define GS_SUB_PAIR(t) *(gs_pair*)(r + (t)) -= *(const gs_pair*)(x + (t)) * a2
  GS_PAIRS_BY_LENGTH(n, GS_SUB_PAIR, r[0] -= x[0] * a)
#undef GS_SUB_PAIR
#endif
  gs_subScaled(r, x, a, n);
}

/* r = (r - a x) - b y over n values: gs_subScaledShort(r, x, a, n) then (r, y, b, n) in one
 * pass over r, each value the same two operations in the same order (two dofs of a chain
 * eliminated from a common ancestor's row: r loaded and stored once, one jump) */
static inline void gs_subScaled2Short(gsReal* restrict r, const gsReal* restrict x, gsReal a,
                                      const gsReal* restrict y, gsReal b, int n) {
#ifdef GS_PAIR
  gs_pair a2 = {a, a}, b2 = {b, b};
#define GS_SUB2_PAIR(t)                                                                 \
  *(gs_pair*)(r + (t)) = (*(gs_pair*)(r + (t)) - *(const gs_pair*)(x + (t)) * a2) -   \
                         *(const gs_pair*)(y + (t)) * b2
  GS_PAIRS_BY_LENGTH(n, GS_SUB2_PAIR, r[0] = (r[0] - x[0] * a) - y[0] * b)
#undef GS_SUB2_PAIR
#endif
  for (int t = 0; t < n; t++) r[t] = (r[t] - x[t] * a) - y[t] * b;
}

/* r = ((r - a x) - b y) - c z over n values: three dofs of a chain from a common ancestor's row,
 * each value the same three operations in the same order as three gs_subScaledShort calls */
static inline void gs_subScaled3Short(gsReal* restrict r, const gsReal* restrict x, gsReal a,
                                      const gsReal* restrict y, gsReal b, const gsReal* restrict z,
                                      gsReal c, int n) {
#ifdef GS_PAIR
  gs_pair a2 = {a, a}, b2 = {b, b}, c2 = {c, c};
#define GS_SUB3_PAIR(t)                                                                   \
  *(gs_pair*)(r + (t)) = ((*(gs_pair*)(r + (t)) - *(const gs_pair*)(x + (t)) * a2) -    \
                          *(const gs_pair*)(y + (t)) * b2) -                            \
                         *(const gs_pair*)(z + (t)) * c2
  GS_PAIRS_BY_LENGTH(n, GS_SUB3_PAIR, r[0] = ((r[0] - x[0] * a) - y[0] * b) - z[0] * c)
#undef GS_SUB3_PAIR
#endif
  for (int t = 0; t < n; t++) r[t] = ((r[t] - x[t] * a) - y[t] * b) - z[t] * c;
}

#ifdef GS_PAIR
/* gs_subScaledRev6 and gs_subScaled2Rev6 below on the six values held as three pairs (h[0] the
 * values of dofs r, r + 1; h[1] r + 2, r + 3; h[2] r + 4, r + 5): for a caller that keeps them
 * in registers across many pushes (the tree solve's first pass) */
static inline void gs_pairsSubScaledRev6(gs_pair h[3], const gsReal* a, gsReal s) {
  gs_pair s2 = {s, s};
  h[2] -= (gs_pair){a[1], a[0]} * s2;
  h[1] -= (gs_pair){a[3], a[2]} * s2;
  h[0] -= (gs_pair){a[5], a[4]} * s2;
}

static inline void gs_pairsSubScaled2Rev6(gs_pair h[3], const gsReal* a, gsReal s,
                                          const gsReal* b, gsReal t) {
  gs_pair s2 = {s, s}, t2 = {t, t};
  h[2] = (h[2] - (gs_pair){a[1], a[0]} * s2) - (gs_pair){b[1], b[0]} * t2;
  h[1] = (h[1] - (gs_pair){a[3], a[2]} * s2) - (gs_pair){b[3], b[2]} * t2;
  h[0] = (h[0] - (gs_pair){a[5], a[4]} * s2) - (gs_pair){b[5], b[4]} * t2;
}

/* the six values at x as three pairs, and back */
static inline void gs_pairsLoad6(gs_pair h[3], const gsReal* x) {
  h[0] = gs_pairLoad(x), h[1] = gs_pairLoad(x + 2), h[2] = gs_pairLoad(x + 4);
}

static inline void gs_pairsStore6(gsReal* x, const gs_pair h[3]) {
  memcpy(x, &h[0], sizeof h[0]), memcpy(x + 2, &h[1], sizeof h[1]);
  memcpy(x + 4, &h[2], sizeof h[2]);
}
#endif

/* A free joint's six dofs r .. r + 5 against the end of a row of M's storage, which lists them
 * backwards (r + 5 first): x[5 - u] op= a[u] s for u = 0 .. 5 with x at dof r, two values at a
 * time; each value the same operation as one at a time. x and a do not overlap. */
static inline void gs_subScaledRev6(gsReal* restrict x, const gsReal* restrict a, gsReal s) {
#ifdef GS_PAIR
  gs_pair h[3];
  gs_pairsLoad6(h, x);
  gs_pairsSubScaledRev6(h, a, s);
  gs_pairsStore6(x, h);
#else
  for (int u = 0; u < 6; u++) x[5 - u] -= a[u] * s;
#endif
}

/* gs_subScaledRev6(x, a, s) then (x, b, t) in one pass: each value the same two operations */
static inline void gs_subScaled2Rev6(gsReal* restrict x, const gsReal* restrict a, gsReal s,
                                     const gsReal* restrict b, gsReal t) {
#ifdef GS_PAIR
  gs_pair h[3];
  gs_pairsLoad6(h, x);
  gs_pairsSubScaled2Rev6(h, a, s, b, t);
  gs_pairsStore6(x, h);
#else
  for (int u = 0; u < 6; u++) x[5 - u] = (x[5 - u] - a[u] * s) - b[u] * t;
#endif
}

static inline void gs_addScaledRev6(gsReal* restrict x, const gsReal* restrict a, gsReal s) {
#ifdef GS_PAIR
  gs_pair s2 = {s, s};
  *(gs_pair*)(x + 4) += (gs_pair){a[1], a[0]} * s2;
  *(gs_pair*)(x + 2) += (gs_pair){a[3], a[2]} * s2;
  *(gs_pair*)x += (gs_pair){a[5], a[4]} * s2;
#else
  for (int u = 0; u < 6; u++) x[5 - u] += a[u] * s;
#endif
}

#endif
