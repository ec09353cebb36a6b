/* Small fixed-size math: 3-vectors, quaternions (w x y z), 3x3 row-major matrices, and spatial
 * vectors in the com-based frame, ordered [angular; linear]. Inline because they sit in the
 * innermost loops of every stage. */
#ifndef GAUSS_CORE_MATH_H
#define GAUSS_CORE_MATH_H

#include <math.h>
#include <string.h>

#include "gauss/model.h"

#define GS_PI 3.14159265358979323846
#define GS_MINVAL 1e-15    /* below this a norm or a mass counts as zero */
#define GS_MAXVAL 1e10     /* above this a state value counts as diverged */

/* fmax and fmin as glibc computes them (the first argument on a tie, so -0 and +0 keep their
 * order; the other where one is NaN), inline: libm's went through the PLT, 22 calls in one
 * capsule-box pair */
static inline gsReal gs_fmax(gsReal a, gsReal b) { return a >= b || b != b ? a : b; }
static inline gsReal gs_fmin(gsReal a, gsReal b) { return a <= b || b != b ? a : b; }

/* ---- 3-vectors ---- */
static inline void gs_zero3(gsReal r[3]) { r[0] = r[1] = r[2] = 0; }
static inline void gs_copy3(gsReal r[3], const gsReal a[3]) { r[0] = a[0]; r[1] = a[1]; r[2] = a[2]; }
static inline gsReal gs_dot3(const gsReal a[3], const gsReal b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static inline void gs_add3(gsReal r[3], const gsReal a[3], const gsReal b[3]) {
  r[0] = a[0] + b[0]; r[1] = a[1] + b[1]; r[2] = a[2] + b[2];
}
static inline void gs_sub3(gsReal r[3], const gsReal a[3], const gsReal b[3]) {
  r[0] = a[0] - b[0]; r[1] = a[1] - b[1]; r[2] = a[2] - b[2];
}
static inline void gs_scl3(gsReal r[3], const gsReal a[3], gsReal s) {
  r[0] = a[0] * s; r[1] = a[1] * s; r[2] = a[2] * s;
}
static inline void gs_addScl3(gsReal r[3], const gsReal a[3], const gsReal b[3], gsReal s) {
  r[0] = a[0] + s * b[0]; r[1] = a[1] + s * b[1]; r[2] = a[2] + s * b[2];
}
static inline void gs_cross(gsReal r[3], const gsReal a[3], const gsReal b[3]) {
  gsReal x = a[1] * b[2] - a[2] * b[1];
  gsReal y = a[2] * b[0] - a[0] * b[2];
  gsReal z = a[0] * b[1] - a[1] * b[0];
  r[0] = x; r[1] = y; r[2] = z;
}
static inline gsReal gs_norm3(const gsReal a[3]) { return sqrt(gs_dot3(a, a)); }
/* normalise in place; returns the old norm (a zero vector becomes (1,0,0)). Scaling by the
 * reciprocal, not dividing, rounds as MuJoCo does. */
static inline gsReal gs_normalize3(gsReal a[3]) {
  gsReal n = gs_norm3(a);
  if (n < GS_MINVAL) {
    a[0] = 1; a[1] = a[2] = 0;
  } else {
    gsReal s = 1 / n;
    a[0] *= s; a[1] *= s; a[2] *= s;
  }
  return n;
}

/* ---- 3x3 matrices, row-major ---- */
static inline void gs_mulMatVec3(gsReal r[3], const gsReal m[9], const gsReal v[3]) {
  gsReal x = m[0] * v[0] + m[1] * v[1] + m[2] * v[2];
  gsReal y = m[3] * v[0] + m[4] * v[1] + m[5] * v[2];
  gsReal z = m[6] * v[0] + m[7] * v[1] + m[8] * v[2];
  r[0] = x; r[1] = y; r[2] = z;
}
static inline void gs_mulMatTVec3(gsReal r[3], const gsReal m[9], const gsReal v[3]) {
  gsReal x = m[0] * v[0] + m[3] * v[1] + m[6] * v[2];
  gsReal y = m[1] * v[0] + m[4] * v[1] + m[7] * v[2];
  gsReal z = m[2] * v[0] + m[5] * v[1] + m[8] * v[2];
  r[0] = x; r[1] = y; r[2] = z;
}
static inline void gs_mulMat3(gsReal r[9], const gsReal a[9], const gsReal b[9]) {
  gsReal t[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      t[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
  memcpy(r, t, sizeof(t));
}

/* ---- quaternions (w, x, y, z) ---- */
static inline void gs_unitQuat(gsReal q[4]) { q[0] = 1; q[1] = q[2] = q[3] = 0; }
static inline void gs_copy4(gsReal r[4], const gsReal a[4]) {
  r[0] = a[0]; r[1] = a[1]; r[2] = a[2]; r[3] = a[3];
}
/* normalise in place; returns the old norm (a zero quaternion becomes the identity). A norm
 * within GS_MINVAL of 1 leaves q as it is, and the scaling is by the reciprocal: both as MuJoCo
 * does, so that frames agree with it to the last bit. */
static inline gsReal gs_normalize4(gsReal q[4]) {
  gsReal n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (n < GS_MINVAL) {
    gs_unitQuat(q);
  } else if (fabs(n - 1) >= GS_MINVAL) {
    gsReal s = 1 / n;
    q[0] *= s; q[1] *= s; q[2] *= s; q[3] *= s;
  }
  return n;
}
/* r = a * b (Hamilton product: rotation b, then a) */
static inline void gs_mulQuat(gsReal r[4], const gsReal a[4], const gsReal b[4]) {
  gsReal w = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  gsReal x = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  gsReal y = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  gsReal z = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  r[0] = w; r[1] = x; r[2] = y; r[3] = z;
}
static inline void gs_negQuat(gsReal r[4], const gsReal q[4]) {
  r[0] = q[0]; r[1] = -q[1]; r[2] = -q[2]; r[3] = -q[3];
}
/* rotate a vector by a unit quaternion: t = w v + q_v x v, r = v + 2 q_v x t (this grouping,
 * term by term, rounds as MuJoCo does) */
static inline void gs_rotVecQuat(gsReal r[3], const gsReal v[3], const gsReal q[4]) {
  gsReal t0 = q[0] * v[0] + q[2] * v[2] - q[3] * v[1];
  gsReal t1 = q[0] * v[1] + q[3] * v[0] - q[1] * v[2];
  gsReal t2 = q[0] * v[2] + q[1] * v[1] - q[2] * v[0];
  gsReal x = v[0] + 2 * (q[2] * t2 - q[3] * t1);
  gsReal y = v[1] + 2 * (q[3] * t0 - q[1] * t2);
  gsReal z = v[2] + 2 * (q[1] * t1 - q[2] * t0);
  r[0] = x; r[1] = y; r[2] = z;
}
/* rotation matrix of a unit quaternion */
static inline void gs_quat2Mat(gsReal m[9], const gsReal q[4]) {
  gsReal ww = q[0] * q[0], xx = q[1] * q[1], yy = q[2] * q[2], zz = q[3] * q[3];
  gsReal wx = q[0] * q[1], wy = q[0] * q[2], wz = q[0] * q[3];
  gsReal xy = q[1] * q[2], xz = q[1] * q[3], yz = q[2] * q[3];
  m[0] = ww + xx - yy - zz; m[1] = 2 * (xy - wz);      m[2] = 2 * (xz + wy);
  m[3] = 2 * (xy + wz);     m[4] = ww - xx + yy - zz; m[5] = 2 * (yz - wx);
  m[6] = 2 * (xz - wy);     m[7] = 2 * (yz + wx);      m[8] = ww - xx - yy + zz;
}
/* quaternion of a rotation about a unit axis, from the half angle's sine s and cosine c */
static inline void gs_axisSinCos2Quat(gsReal q[4], const gsReal axis[3], gsReal s, gsReal c) {
  q[0] = c;
  q[1] = axis[0] * s; q[2] = axis[1] * s; q[3] = axis[2] * s;
}
/* the same from the angle */
static inline void gs_axisAngle2Quat(gsReal q[4], const gsReal axis[3], gsReal angle) {
  gs_axisSinCos2Quat(q, axis, sin(0.5 * angle), cos(0.5 * angle));
}

/* ---- spatial algebra, com-based, [angular; linear] ---- */
/* r = v x s (motion cross motion) */
static inline void gs_crossMotion(gsReal r[6], const gsReal v[6], const gsReal s[6]) {
  gsReal a[3], b[3], c[3];
  gs_cross(a, v, s);
  gs_cross(b, v, s + 3);
  gs_cross(c, v + 3, s);
  r[0] = a[0]; r[1] = a[1]; r[2] = a[2];
  r[3] = b[0] + c[0]; r[4] = b[1] + c[1]; r[5] = b[2] + c[2];
}
/* r = v x* f (motion cross force) */
static inline void gs_crossForce(gsReal r[6], const gsReal v[6], const gsReal f[6]) {
  gsReal a[3], b[3], c[3];
  gs_cross(a, v, f);
  gs_cross(b, v + 3, f + 3);
  gs_cross(c, v, f + 3);
  r[0] = a[0] + b[0]; r[1] = a[1] + b[1]; r[2] = a[2] + b[2];
  r[3] = c[0]; r[4] = c[1]; r[5] = c[2];
}
/* force = I * v, with the 10-vector inertia (Ixx Iyy Izz Ixy Ixz Iyz, m*c (3), m) about the
 * frame origin, where c is the centre of mass relative to the origin: angular I w + (m c) x v_lin,
 * linear m v_lin - (m c) x w. A macro over the element type so that the two-bodies-at-a-time
 * kernels (core/pair.h types) take the same sums in the same order. */
#define GS_MUL_INERT_VEC(r, I, v)                                                        \
  do {                                                                                   \
    r[0] = I[0] * v[0] + I[3] * v[1] + I[4] * v[2] - I[8] * v[4] + I[7] * v[5];          \
    r[1] = I[3] * v[0] + I[1] * v[1] + I[5] * v[2] + I[8] * v[3] - I[6] * v[5];          \
    r[2] = I[4] * v[0] + I[5] * v[1] + I[2] * v[2] - I[7] * v[3] + I[6] * v[4];          \
    r[3] = I[9] * v[3] + I[8] * v[1] - I[7] * v[2];                                      \
    r[4] = I[9] * v[4] - I[8] * v[0] + I[6] * v[2];                                      \
    r[5] = I[9] * v[5] + I[7] * v[0] - I[6] * v[1];                                      \
  } while (0)
static inline void gs_mulInertVec(gsReal r[6], const gsReal I[10], const gsReal v[6]) {
  GS_MUL_INERT_VEC(r, I, v);
}
static inline gsReal gs_dot6(const gsReal a[6], const gsReal b[6]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5];
}

/* ---- dense vectors ---- */
/* n zeros; a short vector (forces scattered into it right after, value by value) in 16-byte
 * stores, not by the C library's memset: its call and size dispatch, and its 32- or 64-byte
 * stores, which a load of one value right after may not take its value from (perf: the Gymnasium
 * humanoid's actuation, qfrc_actuator zeroed and the forces added, 4.1 -> 2.9 % of its smooth
 * step; the step 1.5 % faster) */
#define GS_ZERO_SHORT 64
static inline void gs_zero(gsReal* r, int n) {
#if defined(__GNUC__) && defined(__x86_64__)
  if (n <= GS_ZERO_SHORT) {
    typedef double zero_pair __attribute__((vector_size(16), aligned(8)));
    zero_pair z = {0, 0};
    int k = 0;
    for (; k + 2 <= n; k += 2) {
      __asm__("" : "+x"(z));  /* z "changes": GCC would make the loop a memset call again */
      memcpy(r + k, &z, sizeof z);
    }
    if (k < n) r[k] = 0;
    return;
  }
#endif
  memset(r, 0, (size_t)n * sizeof(gsReal));
}
static inline void gs_copy(gsReal* r, const gsReal* a, int n) { memcpy(r, a, (size_t)n * sizeof(gsReal)); }
static inline gsReal gs_dot(const gsReal* a, const gsReal* b, int n) {
  /* four partial sums: independent chains the processor can overlap */
  gsReal s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += a[i] * b[i];
    s1 += a[i + 1] * b[i + 1];
    s2 += a[i + 2] * b[i + 2];
    s3 += a[i + 3] * b[i + 3];
  }
  for (; i < n; i++) s0 += a[i] * b[i];
  return (s0 + s1) + (s2 + s3);
}
static inline void gs_addScl(gsReal* r, const gsReal* a, gsReal s, int n) {  /* r += s a */
  for (int i = 0; i < n; i++) r[i] += s * a[i];
}

/* out-of-line helpers (math.c) */
void gs_mat2Quat(gsReal q[4], const gsReal m[9]);
void gs_quatZ2Vec(gsReal q[4], const gsReal vec[3]);
void gs_quatIntegrate(gsReal q[4], const gsReal omega[3], gsReal h);
void gs_subQuat(gsReal r[3], const gsReal qa[4], const gsReal qb[4]);
int gs_eig3(gsReal eigval[3], gsReal eigvec[9], gsReal quat[4], const gsReal mat[9]);

#endif
