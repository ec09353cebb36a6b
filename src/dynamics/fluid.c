/* Fluid forces (MJCF's two stateless models, doc "Fluid forces") and their velocity derivatives.
 *
 * Both models work in a frame moving with the object: the local velocity lv = [w; v] (angular,
 * then linear, wind subtracted from v) gives a local wrench f = [torque; force], rotated to the
 * world and applied at the frame's origin.
 *  - Inertia box (bodies whose geoms all have fluidshape none): the box with the body's mass and
 *    principal moments, full sides b_i = sqrt(6 (I_j + I_k - I_i) / M), at the centre of mass in
 *    the inertial frame. Quadratic drag f_i = -rho/2 b_j b_k |v_i| v_i, torque
 *    -rho b_i (b_j^4 + b_k^4) |w_i| w_i / 64; Stokes drag of the sphere of diameter
 *    D = (b_x + b_y + b_z) / 3: f = -3 pi D beta v, torque = -pi D^3 beta w.
 *  - Ellipsoid (per geom with fluidshape ellipsoid, at the geom's frame, semi-axes r): added mass
 *    (its gyroscopic part; the part in the acceleration is left out, as in MJCF), quadratic and
 *    Stokes drag, Kutta and Magnus lift, angular drag; all scaled by the geom's flag.
 * The implicit integrators take the velocity derivative J^T B J of each wrench, B = df/dlv
 * (analytic) and J the frame's Jacobian in local coordinates; implicitfast its symmetric part. */
#include <math.h>

#include "core/arena.h"
#include "core/math.h"
#include "dynamics/dynamics.h"

void gs_geomSemiAxes(int type, const gsReal size[3], gsReal r[3]) {
  switch (type) {
    case GS_GEOM_SPHERE: r[0] = r[1] = r[2] = size[0]; break;
    case GS_GEOM_CAPSULE: r[0] = r[1] = size[0]; r[2] = size[0] + size[1]; break;
    case GS_GEOM_CYLINDER: r[0] = r[1] = size[0]; r[2] = size[1]; break;
    default: gs_copy3(r, size); break;
  }
}

int gs_fluidActive(const gsModel* m) {
  /* with both springs and dampers off, MJCF skips every passive force, the fluid's too */
  int off = (m->opt.disableflags & GS_DSBL_SPRING) && (m->opt.disableflags & GS_DSBL_DAMPER);
  return !off && (m->opt.density > 0 || m->opt.viscosity > 0);
}

/* whether body b uses the ellipsoid model: any of its geoms has the flag */
static int uses_ellipsoid(const gsModel* m, int b) {
  for (int g = m->body_geomadr[b]; g >= 0 && g < m->body_geomadr[b] + m->body_geomnum[b]; g++)
    if (m->geom_fluid[GS_NFLUID * g] > 0) return 1;
  return 0;
}

/* full sides of the equivalent inertia box */
static void inertia_box(const gsModel* m, int b, gsReal box[3]) {
  const gsReal* I = m->body_inertia + 3 * b;
  for (int i = 0; i < 3; i++) {
    gsReal s = I[(i + 1) % 3] + I[(i + 2) % 3] - I[i];
    box[i] = sqrt((s > GS_MINVAL ? s : GS_MINVAL) / m->body_mass[b] * 6.0);
  }
}

/* local velocity [w; v - wind] of the frame (pos, mat) moving with body b */
static void local_velocity(const gsModel* m, const gsData* d, int b, const gsReal pos[3],
                           const gsReal mat[9], gsReal lv[6]) {
  const gsReal* cv = d->cvel + 6 * b;
  gsReal off[3], t[3], v[3];
  gs_sub3(off, pos, d->subtree_com + 3 * m->body_rootid[b]);
  gs_cross(t, cv, off);
  gs_add3(v, cv + 3, t);
  gs_sub3(v, v, m->opt.wind);
  gs_mulMatTVec3(lv, mat, cv);
  gs_mulMatTVec3(lv + 3, mat, v);
}

static void box_wrench(const gsReal box[3], gsReal rho, gsReal beta, const gsReal lv[6], gsReal f[6]) {
  gs_zero(f, 6);
  if (beta > 0) {
    gsReal D = (box[0] + box[1] + box[2]) / 3;
    for (int i = 0; i < 3; i++) {
      f[i] = -GS_PI * D * D * D * beta * lv[i];
      f[3 + i] = -3 * GS_PI * D * beta * lv[3 + i];
    }
  }
  if (rho > 0) {
    for (int i = 0; i < 3; i++) {
      gsReal bi = box[i], bj = box[(i + 1) % 3], bk = box[(i + 2) % 3];
      f[3 + i] -= 0.5 * rho * bj * bk * fabs(lv[3 + i]) * lv[3 + i];
      f[i] -= rho * bi * (bj * bj * bj * bj + bk * bk * bk * bk) * fabs(lv[i]) * lv[i] / 64;
    }
  }
}

static gsReal pow4(gsReal x) { return (x * x) * (x * x); }

/* the ellipsoid model's local wrench; fl: the geom's GS_NFLUID values, r: its semi-axes */
/* the area of the ellipsoid with semi-axes r projected along v (the doc's lemma), with a_i = r_j r_k
 * and the normal n of the cross-section that casts it, n_i = (r_j r_k)^2 v_i, left unnormalised:
 * cos(alpha) = (n . v) / (|v| |n|), where n . v = num and |n|^2 = den */
static gsReal projected_area(const gsReal r[3], const gsReal v[3], gsReal a[3], gsReal n[3],
                             gsReal* num, gsReal* den) {
  a[0] = r[1] * r[2], a[1] = r[2] * r[0], a[2] = r[0] * r[1];
  *num = *den = 0;
  for (int i = 0; i < 3; i++) {
    *num += (a[i] * v[i]) * (a[i] * v[i]);
    *den += pow4(a[i]) * v[i] * v[i];
    n[i] = a[i] * a[i] * v[i];
  }
  return GS_PI * sqrt(*den / gs_fmax(GS_MINVAL, *num));
}

static void ellipsoid_wrench(const gsReal* fl, const gsReal r[3], gsReal rho, gsReal beta,
                             const gsReal lv[6], gsReal f[6]) {
  const gsReal *w = lv, *v = lv + 3;
  gsReal blunt = fl[1], slender = fl[2], angular = fl[3], kutta = fl[4], magnus = fl[5];
  const gsReal *vmass = fl + 6, *vinert = fl + 9;
  gsReal t[3];

  /* added mass, potential flow (doc eq. for f_A, g_A without the acceleration terms):
   * f += p x w, torque += p x v + L x w, with p = rho m_A v and L = rho I_A w */
  gsReal p[3], L[3];
  for (int i = 0; i < 3; i++) {
    p[i] = rho * vmass[i] * v[i];
    L[i] = rho * vinert[i] * w[i];
  }
  gs_zero(f, 6);
  gs_cross(t, p, v);
  gs_add3(f, f, t);
  gs_cross(t, L, w);
  gs_add3(f, f, t);
  gs_cross(t, p, w);
  gs_add3(f + 3, f + 3, t);

  gsReal rmax = gs_fmax(gs_fmax(r[0], r[1]), r[2]), rmin = gs_fmin(gs_fmin(r[0], r[1]), r[2]);
  gsReal rmid = r[0] + r[1] + r[2] - rmax - rmin;
  gsReal volume = 4.0 / 3.0 * GS_PI * r[0] * r[1] * r[2];
  gsReal speed = gs_norm3(v);

  /* Magnus lift: C_M rho V w x v */
  gsReal fm[3];
  gs_cross(fm, w, v);
  gs_scl3(fm, fm, magnus * rho * volume);

  gsReal a[3], n[3], num, den;
  gsReal Aproj = projected_area(r, v, a, n, &num, &den);
  /* n . v = num and |n| = sqrt(den): cos(alpha) n / |n| = cosa n with cosa as below */
  gsReal cosa = num / gs_fmax(GS_MINVAL, speed * den);

  /* Kutta lift: C_K rho A cos(alpha) (n/|n| x v) x v */
  gsReal circ[3], fk[3];
  gs_cross(circ, n, v);
  gs_scl3(circ, circ, kutta * rho * cosa * Aproj);
  gs_cross(fk, circ, v);

  /* drag: Stokes for the sphere of mean radius, plus quadratic between the blunt (projected) and
   * slender (largest projection pi r_max r_mid) areas */
  gsReal Dsph = 2.0 / 3.0 * (r[0] + r[1] + r[2]);
  gsReal Amax = GS_PI * rmax * rmid;
  gsReal lin = beta * 3 * GS_PI * Dsph + rho * speed * (Aproj * blunt + slender * (Amax - Aproj));

  /* angular drag: per axis the moment of the ellipsoid swept by rotating about it,
   * 8/15 pi r_i max(r_j, r_k)^4, and the largest such moment, 8/15 pi r_mid r_max^4 */
  gsReal Imax = 8.0 / 15.0 * GS_PI * rmid * pow4(rmax), mom[3];
  for (int i = 0; i < 3; i++) {
    gsReal Ii = 8.0 / 15.0 * GS_PI * r[i] * pow4(gs_fmax(r[(i + 1) % 3], r[(i + 2) % 3]));
    mom[i] = w[i] * (angular * Ii + slender * (Imax - Ii));
  }
  gsReal ang = beta * GS_PI * Dsph * Dsph * Dsph + rho * gs_norm3(mom);

  for (int i = 0; i < 3; i++) {
    f[i] -= ang * w[i];
    f[3 + i] += fm[i] + fk[i] - lin * v[i];
  }
  for (int i = 0; i < 6; i++) f[i] *= fl[0];
}

/* world wrench of the local one f in frame mat, applied at pos on body b */
static void apply_local(const gsModel* m, gsData* d, int b, const gsReal pos[3], const gsReal mat[9],
                        const gsReal f[6]) {
  gsReal torque[3], force[3];
  gs_mulMatVec3(torque, mat, f);
  gs_mulMatVec3(force, mat, f + 3);
  gs_applyFT(m, d, force, torque, pos, b, d->qfrc_fluid);
}

/* the frames fluid forces act on: each body's inertia box (g = -1), or the body's ellipsoid geoms
 * when it has any; fn gets the frame, its local velocity (rotation, then translation) and ctx,
 * and returns 0 to stop (then so does this) */
typedef int (*frame_fn)(const gsModel* m, gsData* d, int b, int g, const gsReal pos[3],
                        const gsReal mat[9], const gsReal lv[6], void* ctx);

static int each_frame(const gsModel* m, gsData* d, frame_fn fn, void* ctx) {
  gsReal lv[6];
  for (int b = 1; b < m->nbody; b++) {
    if (m->body_mass[b] < GS_MINVAL) continue;
    if (!uses_ellipsoid(m, b)) {
      local_velocity(m, d, b, d->xipos + 3 * b, d->ximat + 9 * b, lv);
      if (!fn(m, d, b, -1, d->xipos + 3 * b, d->ximat + 9 * b, lv, ctx)) return 0;
      continue;
    }
    for (int g = m->body_geomadr[b]; g < m->body_geomadr[b] + m->body_geomnum[b]; g++) {
      if (m->geom_fluid[GS_NFLUID * g] == 0) continue;
      local_velocity(m, d, b, d->geom_xpos + 3 * g, d->geom_xmat + 9 * g, lv);
      if (!fn(m, d, b, g, d->geom_xpos + 3 * g, d->geom_xmat + 9 * g, lv, ctx)) return 0;
    }
  }
  return 1;
}

static int apply_wrench(const gsModel* m, gsData* d, int b, int g, const gsReal pos[3],
                        const gsReal mat[9], const gsReal lv[6], void* ctx) {
  (void)ctx;
  gsReal f[6], r[3];
  if (g < 0) {
    inertia_box(m, b, r);
    box_wrench(r, m->opt.density, m->opt.viscosity, lv, f);
  } else {
    gs_geomSemiAxes(m->geom_type[g], m->geom_size + 3 * g, r);
    ellipsoid_wrench(m->geom_fluid + GS_NFLUID * g, r, m->opt.density, m->opt.viscosity, lv, f);
  }
  apply_local(m, d, b, pos, mat, f);
  return 1;
}

void gs_fluid(const gsModel* m, gsData* d) {
  gs_zero(d->qfrc_fluid, m->nv);
  if (gs_fluidActive(m)) each_frame(m, d, apply_wrench, NULL);
}

/* ---- velocity derivatives, for the implicit integrators ---- */

/* B[rows rb.., cols cb..] += c M, for 3 x 3 blocks of the 6 x 6 B (0: angular, 3: linear) */
static void add_block(gsReal B[36], int rb, int cb, const gsReal M[9], gsReal c) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) B[6 * (rb + i) + cb + j] += c * M[3 * i + j];
}

/* [a]x, the matrix of b -> a x b */
static void cross_matrix(gsReal M[9], const gsReal a[3]) {
  M[0] = 0;     M[1] = -a[2]; M[2] = a[1];
  M[3] = a[2];  M[4] = 0;     M[5] = -a[0];
  M[6] = -a[1]; M[7] = a[0];  M[8] = 0;
}

/* B = d f / d lv of ellipsoid_wrench, term by term (the wrench's notation):
 *  added mass   d(p x v)/dv = [p]x - [v]x rho diag(m_A), d(L x w)/dw = [L]x - [w]x rho diag(I_A),
 *               d(p x w)/dv = -[w]x rho diag(m_A),       d(p x w)/dw = [p]x;
 *  Magnus       d(w x v)/dw = -[v]x, d(w x v)/dv = [w]x;
 *  Kutta        f = g q with g = C_K rho pi sqrt(num / den) / |v| and q = num v - |v|^2 n
 *               ((n x v) x v expanded), num = sum a_i^2 v_i^2, den = sum a_i^4 v_i^2, n_i = a_i^2 v_i;
 *  drag         d(lin v)/dv = lin I + v (d lin/dv)^T, dA/dv_i = A (a_i^4 v_i / den - a_i^2 v_i / num);
 *  angular drag d(ang w)/dw = ang I + w (d ang/dw)^T, d|mom|/dw_i = mom_i c_i / |mom|.
 * Where v = 0 (or w = 0) the terms through |v| (|mom|) are of second order and their derivative
 * is zero. */
static void ellipsoid_jacobian(const gsReal* fl, const gsReal r[3], gsReal rho, gsReal beta,
                               const gsReal lv[6], gsReal B[36]) {
  const gsReal *w = lv, *v = lv + 3;
  gsReal blunt = fl[1], slender = fl[2], angular = fl[3], kutta = fl[4], magnus = fl[5];
  const gsReal *vmass = fl + 6, *vinert = fl + 9;
  gsReal X[9], p[3], L[3];
  gs_zero(B, 36);

  /* added mass */
  for (int i = 0; i < 3; i++) {
    p[i] = rho * vmass[i] * v[i];
    L[i] = rho * vinert[i] * w[i];
  }
  cross_matrix(X, p);
  add_block(B, 0, 3, X, 1);
  add_block(B, 3, 0, X, 1);
  cross_matrix(X, v);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) B[6 * i + 3 + j] -= X[3 * i + j] * rho * vmass[j];
  cross_matrix(X, L);
  add_block(B, 0, 0, X, 1);
  cross_matrix(X, w);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      B[6 * i + j] -= X[3 * i + j] * rho * vinert[j];
      B[6 * (3 + i) + 3 + j] -= X[3 * i + j] * rho * vmass[j];
    }

  gsReal rmax = gs_fmax(gs_fmax(r[0], r[1]), r[2]), rmin = gs_fmin(gs_fmin(r[0], r[1]), r[2]);
  gsReal rmid = r[0] + r[1] + r[2] - rmax - rmin;
  gsReal volume = 4.0 / 3.0 * GS_PI * r[0] * r[1] * r[2];
  gsReal speed = gs_norm3(v);

  /* Magnus */
  gsReal cm = magnus * rho * volume;
  cross_matrix(X, v);
  add_block(B, 3, 0, X, -cm);
  cross_matrix(X, w);
  add_block(B, 3, 3, X, cm);

  /* projected area and its derivative */
  gsReal a[3], n[3], num, den;
  gsReal Aproj = projected_area(r, v, a, n, &num, &den);
  int regular = speed > GS_MINVAL && num > GS_MINVAL && den > GS_MINVAL;
  gsReal dA[3] = {0, 0, 0};
  if (regular) {
    for (int i = 0; i < 3; i++) dA[i] = Aproj * (pow4(a[i]) * v[i] / den - a[i] * a[i] * v[i] / num);

    /* Kutta */
    gsReal g = kutta * rho * GS_PI * sqrt(num / den) / speed, q[3], dg[3];
    for (int i = 0; i < 3; i++) {
      q[i] = num * v[i] - speed * speed * n[i];
      dg[i] = g * (a[i] * a[i] * v[i] / num - pow4(a[i]) * v[i] / den - v[i] / (speed * speed));
    }
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) {
        gsReal dq = v[i] * 2 * a[j] * a[j] * v[j] + (i == j ? num - speed * speed * a[i] * a[i] : 0) -
                    n[i] * 2 * v[j];
        B[6 * (3 + i) + 3 + j] += q[i] * dg[j] + g * dq;
      }
  }

  /* drag */
  gsReal Dsph = 2.0 / 3.0 * (r[0] + r[1] + r[2]);
  gsReal Amax = GS_PI * rmax * rmid;
  gsReal area = Aproj * blunt + slender * (Amax - Aproj);
  gsReal lin = beta * 3 * GS_PI * Dsph + rho * speed * area;
  for (int i = 0; i < 3; i++) {
    B[6 * (3 + i) + 3 + i] -= lin;
    if (speed > GS_MINVAL)
      for (int j = 0; j < 3; j++)
        B[6 * (3 + i) + 3 + j] -= v[i] * rho * (v[j] / speed * area + speed * (blunt - slender) * dA[j]);
  }

  /* angular drag */
  gsReal Imax = 8.0 / 15.0 * GS_PI * rmid * pow4(rmax), c[3], mom[3];
  for (int i = 0; i < 3; i++) {
    gsReal Ii = 8.0 / 15.0 * GS_PI * r[i] * pow4(gs_fmax(r[(i + 1) % 3], r[(i + 2) % 3]));
    c[i] = angular * Ii + slender * (Imax - Ii);
    mom[i] = w[i] * c[i];
  }
  gsReal nmom = gs_norm3(mom);
  gsReal ang = beta * GS_PI * Dsph * Dsph * Dsph + rho * nmom;
  for (int i = 0; i < 3; i++) {
    B[6 * i + i] -= ang;
    if (nmom > GS_MINVAL)
      for (int j = 0; j < 3; j++) B[6 * i + j] -= w[i] * rho * mom[j] * c[j] / nmom;
  }
  for (int k = 0; k < 36; k++) B[k] *= fl[0];
}

/* the box wrench is separable: B is diagonal */
static void box_jacobian(const gsReal box[3], gsReal rho, gsReal beta, const gsReal lv[6], gsReal B[36]) {
  gs_zero(B, 36);
  gsReal D = (box[0] + box[1] + box[2]) / 3;
  for (int i = 0; i < 3; i++) {
    gsReal bi = box[i], bj = box[(i + 1) % 3], bk = box[(i + 2) % 3];
    gsReal ang = 0, lin = 0;
    if (beta > 0) {
      ang -= GS_PI * D * D * D * beta;
      lin -= 3 * GS_PI * D * beta;
    }
    if (rho > 0) {
      ang -= rho * bi * (bj * bj * bj * bj + bk * bk * bk * bk) * 2 * fabs(lv[i]) / 64;
      lin -= rho * bj * bk * fabs(lv[3 + i]);
    }
    B[7 * i] = ang;
    B[7 * (3 + i)] = lin;
  }
}

/* MJCF's "simple" bodies: children of the world with no children, the centre of mass at the
 * body's origin and the inertia along its axes, joints at the origin, hinge and slide axes along
 * a body axis, at most one rotational joint (ball, hinge; a free joint counts as one). MuJoCo
 * takes their rows of the mass matrix as diagonal, and its implicitfast factorisation drops the
 * off-diagonal entries that the velocity derivative puts there (measured against MuJoCo 3.3.7:
 * the step of a lone free body in a fluid follows M - h diag(D), not M - h D) */
static int simple_body(const gsModel* m, int b) {
  if (m->body_parentid[b] != 0) return 0;
  if (b + 1 < m->nbody && m->body_parentid[b + 1] == b) return 0;  /* children follow parents */
  const gsReal *ip = m->body_ipos + 3 * b, *iq = m->body_iquat + 4 * b;
  if (ip[0] != 0 || ip[1] != 0 || ip[2] != 0 || iq[0] != 1 || iq[1] != 0 || iq[2] != 0 || iq[3] != 0)
    return 0;
  int rotational = 0;
  for (int j = m->body_jntadr[b]; j >= 0 && j < m->body_jntadr[b] + m->body_jntnum[b]; j++) {
    const gsReal *p = m->jnt_pos + 3 * j, *a = m->jnt_axis + 3 * j;
    if (p[0] != 0 || p[1] != 0 || p[2] != 0) return 0;
    int t = m->jnt_type[j];
    if (t != GS_JNT_SLIDE) rotational++;
    if (t == GS_JNT_HINGE || t == GS_JNT_SLIDE) {
      int nonzero = (a[0] != 0) + (a[1] != 0) + (a[2] != 0);
      if (nonzero != 1) return 0;
    }
  }
  return rotational <= 1;
}

/* adds -h J^T B J to the tree-pattern matrix, J the 6 x nv Jacobian of the frame (pos, mat) on
 * body b in local coordinates (rows: rotation, then translation); J's columns are the dofs of
 * b's chain, which are each other's ancestors, so every entry lies in the pattern */
static int add_jtbj(const gsModel* m, gsData* d, int b, const gsReal pos[3], const gsReal mat[9],
                    const gsReal B[36], gsReal h, gsReal* R, gsReal* C) {
  int nv = m->nv;
  size_t mark = gs_arenaMark(d);
  gsReal* jac = gs_arenaAlloc(d, sizeof(gsReal) * 6 * (size_t)nv);  /* world: rot, then pos */
  gsReal* J = gs_arenaAlloc(d, sizeof(gsReal) * 6 * (size_t)nv);    /* local */
  gsReal* BJ = gs_arenaAlloc(d, sizeof(gsReal) * 6 * (size_t)nv);
  if (!jac || !J || !BJ) {
    gs_arenaRelease(d, mark);
    return 0;
  }
  int last = gs_bodyLastDof(m, b);
  gs_jacChain(m, d, jac + 3 * nv, jac, pos, b);
  for (int j = last; j >= 0; j = m->dof_parentid[j]) {
    for (int row = 0; row < 6; row += 3) {  /* rotation, then translation, into the frame */
      gsReal col[3] = {jac[row * nv + j], jac[(row + 1) * nv + j], jac[(row + 2) * nv + j]}, loc[3];
      gs_mulMatTVec3(loc, mat, col);
      for (int k = 0; k < 3; k++) J[(row + k) * nv + j] = loc[k];
    }
    for (int k = 0; k < 6; k++) {
      gsReal s = 0;
      for (int l = 0; l < 6; l++) s += B[6 * k + l] * J[l * nv + j];
      BJ[k * nv + j] = s;
    }
  }
  int diagonal = !C && simple_body(m, b);
  for (int i = last; i >= 0; i = m->dof_parentid[i]) {
    int adr = m->dof_Madr[i], t = 0;
    for (int a = i; a >= 0 && !(diagonal && t > 0); a = m->dof_parentid[a], t++) {
      gsReal lower = 0, upper = 0;  /* (J^T B J)[i][a] and [a][i] */
      for (int k = 0; k < 6; k++) {
        lower += J[k * nv + i] * BJ[k * nv + a];
        upper += J[k * nv + a] * BJ[k * nv + i];
      }
      R[adr + t] -= h * lower;  /* the diagonal lives in R alone */
      if (C && t > 0) C[adr + t] -= h * upper;
    }
  }
  gs_arenaRelease(d, mark);
  return 1;
}

/* where the derivative goes: -h J^T B J into R (and C, the LU's columns; NULL: implicitfast) */
typedef struct {
  gsReal h;
  gsReal* R;
  gsReal* C;
} derivative_target;

static int add_derivative(const gsModel* m, gsData* d, int b, int g, const gsReal pos[3],
                          const gsReal mat[9], const gsReal lv[6], void* ctx) {
  const derivative_target* t = ctx;
  gsReal B[36], r[3];
  if (g < 0) {
    inertia_box(m, b, r);
    box_jacobian(r, m->opt.density, m->opt.viscosity, lv, B);
  } else {
    gs_geomSemiAxes(m->geom_type[g], m->geom_size + 3 * g, r);
    ellipsoid_jacobian(m->geom_fluid + GS_NFLUID * g, r, m->opt.density, m->opt.viscosity, lv, B);
    if (!t->C)  /* implicitfast: the symmetric part, as MJCF takes it there */
      for (int k = 0; k < 6; k++)
        for (int l = 0; l < k; l++) B[6 * k + l] = B[6 * l + k] = 0.5 * (B[6 * k + l] + B[6 * l + k]);
  }
  return add_jtbj(m, d, b, pos, mat, B, t->h, t->R, t->C);
}

int gs_fluidDerivative(const gsModel* m, gsData* d, gsReal h, gsReal* R, gsReal* C) {
  if (!gs_fluidActive(m)) return 1;
  derivative_target t = {h, R, C};
  return each_frame(m, d, add_derivative, &t);
}
