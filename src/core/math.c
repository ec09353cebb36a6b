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

/* Eigen-decomposition of a symmetric 3x3 by cyclic Jacobi rotations. Eigenvalues sorted in
 * decreasing order; eigenvectors are the columns of eigvec, a proper rotation whose quaternion is
 * quat. Returns the number of sweeps. */
int gs_eig3(gsReal eigval[3], gsReal eigvec[9], gsReal quat[4], const gsReal mat[9]) {
  gsReal a[9], v[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  memcpy(a, mat, sizeof(a));
  int sweep;
  for (sweep = 0; sweep < 50; sweep++) {
    gsReal off = a[1] * a[1] + a[2] * a[2] + a[5] * a[5];
    gsReal diag = a[0] * a[0] + a[4] * a[4] + a[8] * a[8];
    if (off <= 1e-30 * diag || off == 0) break;
    for (int p = 0; p < 2; p++) {
      for (int q = p + 1; q < 3; q++) {
        gsReal apq = a[3 * p + q];
        if (apq == 0) continue;
        /* rotation that zeroes a[p][q] */
        gsReal theta = (a[3 * q + q] - a[3 * p + p]) / (2 * apq);
        gsReal t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
        gsReal c = 1 / sqrt(t * t + 1), s = t * c;
        for (int k = 0; k < 3; k++) {  /* A <- A J */
          gsReal akp = a[3 * k + p], akq = a[3 * k + q];
          a[3 * k + p] = c * akp - s * akq;
          a[3 * k + q] = s * akp + c * akq;
        }
        for (int k = 0; k < 3; k++) {  /* A <- J^T A */
          gsReal apk = a[3 * p + k], aqk = a[3 * q + k];
          a[3 * p + k] = c * apk - s * aqk;
          a[3 * q + k] = s * apk + c * aqk;
        }
        for (int k = 0; k < 3; k++) {  /* V <- V J */
          gsReal vkp = v[3 * k + p], vkq = v[3 * k + q];
          v[3 * k + p] = c * vkp - s * vkq;
          v[3 * k + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  /* sort decreasing */
  int idx[3] = {0, 1, 2};
  gsReal d[3] = {a[0], a[4], a[8]};
  for (int i = 0; i < 2; i++)
    for (int j = i + 1; j < 3; j++)
      if (d[idx[j]] > d[idx[i]]) { int t = idx[i]; idx[i] = idx[j]; idx[j] = t; }
  for (int j = 0; j < 3; j++) {
    eigval[j] = d[idx[j]];
    for (int k = 0; k < 3; k++) eigvec[3 * k + j] = v[3 * k + idx[j]];
  }
  /* make it a proper rotation */
  gsReal c0[3] = {eigvec[0], eigvec[3], eigvec[6]}, c1[3] = {eigvec[1], eigvec[4], eigvec[7]}, c2[3];
  gs_cross(c2, c0, c1);
  eigvec[2] = c2[0]; eigvec[5] = c2[1]; eigvec[8] = c2[2];
  gs_mat2Quat(quat, eigvec);
  return sweep;
}
