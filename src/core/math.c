/* Out-of-line geometry helpers: conversions and the 3x3 symmetric eigenproblem. */
#include "core/math.h"

/* rotation matrix to quaternion, branching on the largest diagonal term for accuracy; each sum
 * is taken left to right from 1, as MuJoCo does, so that the bits agree */
void gs_mat2Quat(gsReal q[4], const gsReal m[9]) {
  if (m[0] + m[4] + m[8] > 0) {
    gsReal s = 2 * sqrt(1 + m[0] + m[4] + m[8]);
    q[0] = 0.25 * s;
    q[1] = (m[7] - m[5]) / s;
    q[2] = (m[2] - m[6]) / s;
    q[3] = (m[3] - m[1]) / s;
  } else if (m[0] > m[4] && m[0] > m[8]) {
    gsReal s = 2 * sqrt(1 + m[0] - m[4] - m[8]);
    q[0] = (m[7] - m[5]) / s;
    q[1] = 0.25 * s;
    q[2] = (m[1] + m[3]) / s;
    q[3] = (m[2] + m[6]) / s;
  } else if (m[4] > m[8]) {
    gsReal s = 2 * sqrt(1 - m[0] + m[4] - m[8]);
    q[0] = (m[2] - m[6]) / s;
    q[1] = (m[1] + m[3]) / s;
    q[2] = 0.25 * s;
    q[3] = (m[5] + m[7]) / s;
  } else {
    gsReal s = 2 * sqrt(1 - m[0] - m[4] + m[8]);
    q[0] = (m[3] - m[1]) / s;
    q[1] = (m[2] + m[6]) / s;
    q[2] = (m[5] + m[7]) / s;
    q[3] = 0.25 * s;
  }
  gs_normalize4(q);
}

/* the smallest rotation taking the z axis to vec */
void gs_quatZ2Vec(gsReal q[4], const gsReal vec[3]) {
  gsReal v[3] = {vec[0], vec[1], vec[2]};
  gs_unitQuat(q);
  if (gs_normalize3(v) < GS_MINVAL) return;
  gsReal z[3] = {0, 0, 1}, axis[3];
  gs_cross(axis, z, v);
  gsReal s = gs_normalize3(axis);
  if (s < GS_MINVAL) {
    if (v[2] < 0) { q[0] = 0; q[1] = 1; }  /* opposite: half turn about x */
    return;
  }
  gs_axisAngle2Quat(q, axis, atan2(s, v[2]));
}

/* q <- q * exp(omega h / 2): rotate by the local angular velocity omega for time h */
void gs_quatIntegrate(gsReal q[4], const gsReal omega[3], gsReal h) {
  gsReal axis[3] = {omega[0], omega[1], omega[2]};
  gsReal angle = gs_normalize3(axis) * h;
  if (angle == 0) return;
  gsReal dq[4];
  gs_axisAngle2Quat(dq, axis, angle);
  gs_mulQuat(q, q, dq);
  gs_normalize4(q);
}

/* r: the rotation vector (local to qb) with qa = qb * exp(r/2) */
void gs_subQuat(gsReal r[3], const gsReal qa[4], const gsReal qb[4]) {
  gsReal nb[4], dq[4];
  gs_negQuat(nb, qb);
  gs_mulQuat(dq, nb, qa);
  if (dq[0] < 0) { dq[0] = -dq[0]; dq[1] = -dq[1]; dq[2] = -dq[2]; dq[3] = -dq[3]; }
  gsReal s = gs_norm3(dq + 1);
  if (s < GS_MINVAL) { gs_zero3(r); return; }
  gsReal angle = 2 * atan2(s, dq[0]);
  gs_scl3(r, dq + 1, angle / s);
}

/* Eigen-decomposition of a symmetric 3x3, as MJCF compilers do it (matched by experiment against
 * MuJoCo's compiled inertial frames, bit for bit; its public mju_eig3 differs only in renormalizing
 * after each sorting exchange): the frame is a quaternion
 * q; each step rotates q about one axis by the Jacobi angle that zeroes the largest off-diagonal
 * term of R(q)^T A R(q) (the later pair on a tie), with the half-angle quaternion's sine taken
 * from the rotation's cosine and its cosine from that sine; it stops
 * when that cosine is within 1e-12 of 1, so off-diagonal terms of ~1e-6 relative may remain (the
 * eigenvalues are the diagonal there), or when the largest off-diagonal term is below 1e-12 in
 * absolute value. Then the axes are sorted by decreasing eigenvalue with quarter turns (exchanging
 * two axes, one negated), whose quaternion has MJCF's rounded 0.707106781186548; two values are
 * exchanged only when the later exceeds the earlier by more than 1e-12, again absolute. Both
 * absolute thresholds are MJCF's (measured on mju_eig3 over scaled matrices: the iteration counts
 * agree at every scale from 1e-13 to 1): they decide the frames of small inertias, such as a
 * mesh's per unit density (a 1 cm part: ~1e-10), where a nearly round section is left
 * unconverged and its two moments unsorted. eigvec holds the axes as columns (the matrix of quat).
 * Returns the number of rotations. */
#define EIG3_MAXITER 500
#define EIG3_COSTOL 1e-12
#define EIG3_ABSTOL 1e-12  /* off-diagonal and sorting thresholds, absolute */
#define EIG3_QUARTER 0.707106781186548

/* q <- q * (quarter turn about axis); d[i] and d[j] exchanged. Not renormalized: MJCF's compiled
 * inertial frames (from geoms, meshes and fullinertia alike) keep the norm the rounded quarter
 * turns leave, ~1 + 7e-16 per exchange */
static void eig3_swap(gsReal q[4], gsReal d[3], int i, int j, int axis) {
  gsReal dq[4] = {EIG3_QUARTER, 0, 0, 0}, t = d[i];
  dq[1 + axis] = EIG3_QUARTER;
  gs_mulQuat(q, q, dq);
  d[i] = d[j];
  d[j] = t;
}

int gs_eig3(gsReal eigval[3], gsReal eigvec[9], gsReal quat[4], const gsReal mat[9]) {
  /* the off-diagonal pairs (i, j), the axis k a rotation about which mixes them, and the sign
   * that makes the rotation zero a[i][j] (its orientation: +1 where (i, j, k) is cyclic) */
  static const int pair[3][4] = {{0, 1, 2, -1}, {0, 2, 1, 1}, {1, 2, 0, -1}};
  gsReal q[4] = {1, 0, 0, 0}, r[9], tmp[9], a[9];
  int iter = 0;
  for (;;) {
    /* a = R^T mat R, as (R^T mat) R */
    gs_quat2Mat(r, q);
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        tmp[3 * i + j] = r[i] * mat[j] + r[3 + i] * mat[3 + j] + r[6 + i] * mat[6 + j];
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        a[3 * i + j] = tmp[3 * i] * r[j] + tmp[3 * i + 1] * r[3 + j] + tmp[3 * i + 2] * r[6 + j];
    if (iter >= EIG3_MAXITER) break;
    int p = 0;
    /* on a tie the later pair wins, as in MJCF (symmetric bodies have equal off-diagonal terms) */
    for (int k = 1; k < 3; k++)
      if (fabs(a[3 * pair[k][0] + pair[k][1]]) >= fabs(a[3 * pair[p][0] + pair[p][1]])) p = k;
    int i = pair[p][0], j = pair[p][1];
    gsReal aij = a[3 * i + j];
    if (!(fabs(aij) >= EIG3_ABSTOL)) break;
    gsReal theta = (a[4 * j] - a[4 * i]) / (2 * aij);
    gsReal sgn = theta >= 0 ? 1 : -1;
    gsReal t = sgn / (fabs(theta) + sqrt(theta * theta + 1));
    gsReal c = 1 / sqrt(t * t + 1);
    if (1 - c < EIG3_COSTOL) break;
    /* half-angle quaternion: its sine from the cosine, its cosine from the sine, so that the two
     * round as MJCF's do */
    gsReal s = pair[p][3] * sgn * sqrt((1 - c) / 2);
    gsReal dq[4] = {sqrt(1 - s * s), 0, 0, 0};
    dq[1 + pair[p][2]] = s;
    gs_mulQuat(q, q, dq);
    gs_normalize4(q);
    iter++;
  }
  gsReal d[3] = {a[0], a[4], a[8]};
  if (d[0] + EIG3_ABSTOL < d[1]) eig3_swap(q, d, 0, 1, 2);
  if (d[1] + EIG3_ABSTOL < d[2]) eig3_swap(q, d, 1, 2, 0);
  if (d[0] + EIG3_ABSTOL < d[1]) eig3_swap(q, d, 0, 1, 2);
  gs_copy3(eigval, d);
  memcpy(quat, q, 4 * sizeof(gsReal));
  gs_quat2Mat(eigvec, q);
  return iter;
}
