/* Tendons and actuator transmissions at the current configuration.
 *
 * gs_tendon: lengths and dense Jacobians (ten_J, ntendon x nv) of every tendon, and the points of
 * each spatial tendon's path. A fixed tendon is a linear combination of scalar joint coordinates;
 * a spatial tendon is a chain of straight segments between sites, bent around spheres and
 * cylinders (shortest path on the side chosen by the side site), with pulleys dividing the length
 * of the branches after them.
 *
 * gs_transmission: the length and moment arm (d length / d qpos, per dof) of one actuator. */
#include "core/arena.h"
#include "core/math.h"
#include "dynamics/dynamics.h"

/* ---- wrapping around a circle, in its plane (centre at the origin) ---- */

/* the two tangent points on the circle of radius r seen from p (|p| > r): t[0] counterclockwise
 * of p's direction, t[1] clockwise */
static void tangents(gsReal t[2][2], const gsReal p[2], gsReal r) {
  gsReal d = sqrt(p[0] * p[0] + p[1] * p[1]);
  gsReal base = atan2(p[1], p[0]), half = acos(r / d);
  for (int s = 0; s < 2; s++) {
    gsReal a = base + (s == 0 ? half : -half);
    t[s][0] = r * cos(a);
    t[s][1] = r * sin(a);
  }
}

static gsReal dist2(const gsReal a[2], const gsReal b[2]) {
  return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]));
}

static gsReal cross2(const gsReal a[2], const gsReal b[2]) { return a[0] * b[1] - a[1] * b[0]; }

/* 1 when the segments [a, b] and [c, e] cross */
static int segments_cross(const gsReal a[2], const gsReal b[2], const gsReal c[2],
                          const gsReal e[2]) {
  gsReal ab[2] = {b[0] - a[0], b[1] - a[1]}, ce[2] = {e[0] - c[0], e[1] - c[1]};
  gsReal ac[2] = {c[0] - a[0], c[1] - a[1]}, ae[2] = {e[0] - a[0], e[1] - a[1]};
  gsReal ca[2] = {a[0] - c[0], a[1] - c[1]}, cb[2] = {b[0] - c[0], b[1] - c[1]};
  gsReal d1 = cross2(ab, ac), d2 = cross2(ab, ae), d3 = cross2(ce, ca), d4 = cross2(ce, cb);
  return d1 * d2 < 0 && d3 * d4 < 0;
}

/* f(z) of touch_point: zero at the touch point */
static gsReal touch_f(gsReal z, gsReal a, gsReal b, gsReal g) {
  return asin(a * z) + asin(b * z) - 2 * asin(z) + g;
}

/* The point q of the circle where the path p0 - q - p1 touches it (reflection: both pieces make
 * the same angle beta with the normal at q), on the side facing the segment. With z = sin(beta),
 * a = r/|p0|, b = r/|p1| and g the angle between the ends seen from the centre, the sines rule in
 * the triangles centre-q-p0 and centre-q-p1 gives the angle at the centre from p0 to q as
 * beta - asin(a z), and likewise from p1, so f(z) = asin(a z) + asin(b z) - 2 asin(z) + g = 0.
 * MuJoCo 3.3.7's point is not the exact minimiser of the length: measured on random poses
 * (spheres and cylinders, planar and 3-D), it is, to 2e-16, Newton's method on f started at
 * z = 1 - 1e-7 and stopped as soon as |f| < 1e-6, which leaves the angle 1e-12 to 5e-7 rad off
 * the exact one, always on the same side; the point is then turned from the end that lies
 * clockwise of the other (from p1 for a cylinder whose ends turn clockwise; the two ends give
 * different points when z is inexact). The length is stationary at the minimiser, but ten_J and
 * ten_velocity follow the point, so the same iteration is kept. Where it cannot run the point is
 * the segment's midpoint pushed out onto the circle, also measured: ends almost in line with the
 * centre (cos g > 1 - 1e-15, g from the cosine rule), and f > 0 at the start (the segment
 * passes within about 1e-7 r of the circle; the length then jumps, as in MuJoCo). The limit of
 * 20 steps and the guards against a step that does not go down are only safety nets: no
 * measured pose reached them. */
static void touch_point(gsReal q[2], const gsReal p0[2], const gsReal p1[2], gsReal r) {
  gsReal mid[2] = {0.5 * (p0[0] + p1[0]), 0.5 * (p0[1] + p1[1])};
  gsReal nm = sqrt(mid[0] * mid[0] + mid[1] * mid[1]);
  /* the segment misses the circle, so its midpoint is away from the centre */
  q[0] = r * mid[0] / nm;
  q[1] = r * mid[1] / nm;
  gsReal l0 = sqrt(p0[0] * p0[0] + p0[1] * p0[1]), l1 = sqrt(p1[0] * p1[0] + p1[1] * p1[1]);
  gsReal dx = p1[0] - p0[0], dy = p1[1] - p0[1], dd = dx * dx + dy * dy;
  gsReal a = r / l0, b = r / l1;
  gsReal cosg = (l0 * l0 + l1 * l1 - dd) / (2 * l0 * l1);
  if (cosg > 1 - GS_MINVAL) return;
  gsReal g = acos(cosg < -1 ? -1 : cosg);
  gsReal z = 1 - 1e-7, f = touch_f(z, a, b, g);
  if (f > 0) return;
  for (int it = 0; fabs(f) >= 1e-6; it++) {
    if (it == 20) return;
    gsReal df = a / sqrt(gs_fmax(GS_MINVAL, 1 - z * z * a * a)) +
                b / sqrt(gs_fmax(GS_MINVAL, 1 - z * z * b * b)) -
                2 / sqrt(gs_fmax(GS_MINVAL, 1 - z * z));
    if (df > -GS_MINVAL) return;
    gsReal z1 = z - f / df;
    if (z1 > z) return;
    z = z1;
    f = touch_f(z, a, b, g);
  }
  /* turn the direction of the end clockwise of the other counterclockwise by the angle at the
   * centre seen from that end (measured: with z inexact, the two ends give different points) */
  int ccw = cross2(p0, p1) >= 0;
  const gsReal* e = ccw ? p0 : p1;
  gsReal le = ccw ? l0 : l1, ang = asin(z) - asin((ccw ? a : b) * z);
  gsReal c = cos(ang), s = sin(ang), u[2] = {e[0] / le, e[1] / le};
  q[0] = r * (u[0] * c - u[1] * s);
  q[1] = r * (u[0] * s + u[1] * c);
}

/* Path from p0 to p1 around the circle of radius r (centre at the origin): tangent points w0, w1
 * and the arc length between them; -1 when the straight segment stands. side: a point choosing
 * the side, or NULL; inside: that point is inside the geom. Without a side point the path bends
 * only when the segment cuts the circle, the way whose tangent points are closer; with one outside
 * the geom it bends around the side whose tangent points lie towards the side point, unless the
 * segment already passes on that side; with one inside, a path that misses the circle is pulled
 * onto it at a single point (w0 = w1). (MJCF's choices, found by experiment.) */
static gsReal wrap_circle(gsReal w0[2], gsReal w1[2], const gsReal p0[2], const gsReal p1[2],
                          gsReal r, const gsReal* side, int inside) {
  if (p0[0] * p0[0] + p0[1] * p0[1] <= r * r || p1[0] * p1[0] + p1[1] * p1[1] <= r * r) return -1;
  /* the point of the segment nearest the centre */
  gsReal dx = p1[0] - p0[0], dy = p1[1] - p0[1], dd = dx * dx + dy * dy;
  if (dd < GS_MINVAL) return -1;
  gsReal u = -(p0[0] * dx + p0[1] * dy) / dd;
  u = u < 0 ? 0 : u > 1 ? 1 : u;
  gsReal cp[2] = {p0[0] + u * dx, p0[1] + u * dy};
  int cuts = cp[0] * cp[0] + cp[1] * cp[1] < r * r;
  if (side && inside) {
    if (cuts) return -1;
    touch_point(w0, p0, p1, r);
    w1[0] = w0[0];
    w1[1] = w0[1];
    return 0;
  }
  if (!cuts && (!side || side[0] * cp[0] + side[1] * cp[1] >= 0)) return -1;
  gsReal t0[2][2], t1[2][2];
  tangents(t0, p0, r);
  tangents(t1, p1, r);
  /* counterclockwise around the circle (s = 0) the path leaves p0 by its counterclockwise
   * tangent and reaches p1 by its clockwise one; clockwise (s = 1) the opposite. A way is
   * impossible when its two straight pieces cross. */
  gsReal arc[2], score[2];
  int valid[2];
  for (int s = 0; s < 2; s++) {
    const gsReal* a = t0[s];
    const gsReal* b = t1[1 - s];
    gsReal ang = atan2(cross2(a, b), a[0] * b[0] + a[1] * b[1]);
    if (s == 0 && ang < 0) ang += 2 * GS_PI;
    if (s == 1 && ang > 0) ang -= 2 * GS_PI;
    arc[s] = r * fabs(ang);
    valid[s] = !segments_cross(p0, a, b, p1);
    if (side) {
      /* the way whose tangent points lie towards the side point */
      gsReal mid[2] = {a[0] + b[0], a[1] + b[1]};
      gsReal n = sqrt(mid[0] * mid[0] + mid[1] * mid[1]);
      score[s] = n > GS_MINVAL ? -(mid[0] * side[0] + mid[1] * side[1]) / n : 0;
    } else {
      score[s] = dist2(a, b);
    }
  }
  if (!valid[0] && !valid[1]) return -1;
  int s = valid[0] && valid[1] ? score[1] < score[0] : valid[1];
  const gsReal* a = t0[s];
  const gsReal* b = t1[1 - s];
  w0[0] = a[0];
  w0[1] = a[1];
  w1[0] = b[0];
  w1[1] = b[1];
  return arc[s];
}

/* Wrap the segment x0-x1 (world) around geom g: the two tangent points in wpnt (world) and the
 * length of the path on the surface; -1 when the segment is not bent */
static gsReal wrap_geom(const gsModel* m, const gsData* d, int g, const gsReal x0[3],
                        const gsReal x1[3], int sidesite, gsReal wpnt[6]) {
  const gsReal* mat = d->geom_xmat + 9 * g;
  const gsReal* pos = d->geom_xpos + 3 * g;
  gsReal r = m->geom_size[3 * g];
  /* the ends (and the side site) in the geom's frame */
  gsReal p0[3], p1[3], sd[3], tmp[3];
  gs_sub3(tmp, x0, pos);
  gs_mulMatTVec3(p0, mat, tmp);
  gs_sub3(tmp, x1, pos);
  gs_mulMatTVec3(p1, mat, tmp);
  if (sidesite >= 0) {
    gs_sub3(tmp, d->site_xpos + 3 * sidesite, pos);
    gs_mulMatTVec3(sd, mat, tmp);
  }
  /* the plane of the wrap: for a sphere the one through the centre and both ends, for a cylinder
   * the cross-section (the path climbs along z in proportion to its length there) */
  gsReal ex[3], ey[3];
  if (m->geom_type[g] == GS_GEOM_SPHERE) {
    gsReal n[3];
    gs_cross(n, p0, p1);
    if (gs_norm3(n) < GS_MINVAL) {
      /* ends in line with the centre: any plane through them will do */
      gsReal axis[3] = {1, 1, 1};
      gs_cross(n, p0, axis);
      if (gs_norm3(n) < GS_MINVAL) {
        axis[2] = -1;
        gs_cross(n, p0, axis);
      }
    }
    gs_copy3(ex, p0);
    gs_normalize3(ex);
    gs_normalize3(n);
    gs_cross(ey, n, ex);
  } else {
    ex[0] = 1, ex[1] = 0, ex[2] = 0;
    ey[0] = 0, ey[1] = 1, ey[2] = 0;
  }
  gsReal q0[2] = {gs_dot3(p0, ex), gs_dot3(p0, ey)}, q1[2] = {gs_dot3(p1, ex), gs_dot3(p1, ey)};
  gsReal qs[2] = {0, 0};
  if (sidesite >= 0) {
    qs[0] = gs_dot3(sd, ex);
    qs[1] = gs_dot3(sd, ey);
  }
  gsReal w0[2], w1[2];
  /* inside or outside the geom is judged in 3-D (a site above a cylinder is outside) */
  int inside = sidesite >= 0 && gs_dot3(sd, sd) < r * r;
  gsReal arc = wrap_circle(w0, w1, q0, q1, r, sidesite >= 0 ? qs : NULL, inside);
  if (arc < 0) return -1;
  gsReal t0[3], t1[3];
  for (int i = 0; i < 3; i++) {
    t0[i] = w0[0] * ex[i] + w0[1] * ey[i];
    t1[i] = w1[0] * ex[i] + w1[1] * ey[i];
  }
  gsReal length = arc;
  if (m->geom_type[g] == GS_GEOM_CYLINDER) {
    /* height along the axis grows linearly with the length of the path's projection */
    gsReal l0 = dist2(q0, w0), l1 = dist2(w1, q1), total = l0 + arc + l1;
    gsReal dz = p1[2] - p0[2];
    t0[2] = p0[2] + (total > GS_MINVAL ? dz * l0 / total : 0);
    t1[2] = p0[2] + (total > GS_MINVAL ? dz * (l0 + arc) / total : 0);
    length = sqrt(arc * arc + (t1[2] - t0[2]) * (t1[2] - t0[2]));
  }
  gs_mulMatVec3(wpnt, mat, t0);
  gs_add3(wpnt, wpnt, pos);
  gs_mulMatVec3(wpnt + 3, mat, t1);
  gs_add3(wpnt + 3, wpnt + 3, pos);
  return length;
}

/* ---- gs_tendon ---- */

/* 1 when dof j moves body b */
static int dof_moves(const gsModel* m, int j, int b) {
  for (int k = gs_bodyLastDof(m, b); k >= j; k = m->dof_parentid[k])
    if (k == j) return 1;
  return 0;
}

/* add (dir / divisor)^T (J(b at pb) - J(a at pa)) to J: the rate of a straight segment. Dofs that
 * move both ends move the segment rigidly and contribute exactly nothing. */
static void segment_jacobian(const gsModel* m, const gsData* d, gsReal* J, const gsReal pa[3],
                             int ba, const gsReal pb[3], int bb, gsReal divisor, gsReal* jac) {
  gsReal dir[3];
  gs_sub3(dir, pb, pa);
  if (gs_normalize3(dir) < GS_MINVAL) return;
  int nv = m->nv;
  gs_jac(m, d, jac, NULL, pb, bb);
  for (int j = gs_bodyLastDof(m, bb); j >= 0; j = m->dof_parentid[j])
    if (!dof_moves(m, j, ba))
      J[j] += (dir[0] * jac[j] + dir[1] * jac[nv + j] + dir[2] * jac[2 * nv + j]) / divisor;
  gs_jac(m, d, jac, NULL, pa, ba);
  for (int j = gs_bodyLastDof(m, ba); j >= 0; j = m->dof_parentid[j])
    if (!dof_moves(m, j, bb))
      J[j] -= (dir[0] * jac[j] + dir[1] * jac[nv + j] + dir[2] * jac[2 * nv + j]) / divisor;
}

/* one point of a spatial tendon's path */
static void add_point(gsData* d, int* npoint, const gsReal x[3], int obj) {
  int k = *npoint;
  gs_copy3(d->wrap_xpos + 3 * k, x);
  d->wrap_obj[k] = obj;
  (*npoint)++;
}

int gs_tendonsUnread(const gsModel* m) {
  for (int t = 0; t < m->ntendon; t++)
    if (m->tendon_limited[t] || m->tendon_frictionloss[t] != 0 || m->tendon_stiffness[t] != 0 ||
        m->tendon_damping[t] != 0 || m->tendon_armature[t] != 0)
      return 0;
  for (int i = 0; i < m->nu; i++)
    if (m->actuator_trntype[i] == GS_TRN_TENDON) return 0;
  for (int e = 0; e < m->neq; e++)
    if (m->eq_type[e] == GS_EQ_TENDON) return 0;
  return 1;
}

void gs_tendonSpanOf(const gsModel* m, int t, int* lo, int* hi) {
  int adr = m->tendon_adr[t], end = adr + m->tendon_num[t];
  *lo = 0;
  *hi = 0;
  if (adr == end) return;
  if (m->wrap_type[adr] == GS_WRAP_JOINT) {
    int first = m->nv, last = -1;
    for (int k = adr; k < end; k++) {
      int da = m->jnt_dofadr[m->wrap_objid[k]];
      if (da < first) first = da;
      if (da > last) last = da;
    }
    if (last >= 0) *lo = first, *hi = last + 1;
    return;
  }
  /* a spatial tendon moves with the chains of its sites' and wrapping geoms' bodies */
  int last = -1;
  for (int k = adr; k < end; k++) {
    int type = m->wrap_type[k], b = -1;
    if (type == GS_WRAP_SITE) b = m->site_bodyid[m->wrap_objid[k]];
    else if (type == GS_WRAP_SPHERE || type == GS_WRAP_CYLINDER) b = m->geom_bodyid[m->wrap_objid[k]];
    if (b < 0) continue;
    int l = gs_bodyLastDof(m, b);
    if (l > last) last = l;
  }
  *hi = last + 1;
}

void gs_tendon(const gsModel* m, gsData* d) {
  int nv = m->nv;
  if (m->ntendon == 0) return;
  /* each row is written only inside its span, so only the span is cleared: the rest of the row
   * stays zero from the data's reset (on many bodies the whole ntendon x nv clear was a tenth
   * of the step) */
  for (int t = 0; t < m->ntendon; t++) {
    int lo, hi;
    gs_tendonSpan(m, t, &lo, &hi);
    gs_zero(d->ten_J + (size_t)t * nv + lo, hi - lo);
  }
  gs_zero(d->wrap_xpos, 6 * m->nwrap);
  for (int k = 0; k < 2 * m->nwrap; k++) d->wrap_obj[k] = 0;
  size_t mark = gs_arenaMark(d);
  gsReal* jac = gs_arenaAlloc(d, sizeof(gsReal) * 3 * (size_t)(nv ? nv : 1));
  int npoint = 0;
  for (int t = 0; t < m->ntendon; t++) {
    int adr = m->tendon_adr[t], end = adr + m->tendon_num[t];
    gsReal* J = d->ten_J + (size_t)t * nv;
    gsReal length = 0;
    d->ten_wrapadr[t] = npoint;
    d->ten_wrapnum[t] = 0;
    if (m->tendon_num[t] > 0 && m->wrap_type[adr] == GS_WRAP_JOINT) {
      /* fixed: coordinates of scalar joints, weighted */
      for (int k = adr; k < end; k++) {
        int j = m->wrap_objid[k];
        gsReal coef = m->wrap_prm[k];
        length += coef * d->qpos[m->jnt_qposadr[j]];
        J[m->jnt_dofadr[j]] += coef;
      }
      d->ten_length[t] = length;
      continue;
    }
    gsReal divisor = 1;
    for (int k = adr; k < end; k++) {
      int type = m->wrap_type[k];
      if (type == GS_WRAP_PULLEY) {
        divisor = m->wrap_prm[k];
        add_point(d, &npoint, (const gsReal[3]){0, 0, 0}, -2);
        continue;
      }
      if (type != GS_WRAP_SITE) continue;  /* geoms are handled with the site before them */
      int s0 = m->wrap_objid[k];
      const gsReal* x0 = d->site_xpos + 3 * s0;
      int b0 = m->site_bodyid[s0];
      add_point(d, &npoint, x0, -1);
      if (k + 1 >= end || m->wrap_type[k + 1] == GS_WRAP_PULLEY) continue;
      if (m->wrap_type[k + 1] == GS_WRAP_SITE) {
        int s1 = m->wrap_objid[k + 1];
        const gsReal* x1 = d->site_xpos + 3 * s1;
        length += sqrt((x1[0] - x0[0]) * (x1[0] - x0[0]) + (x1[1] - x0[1]) * (x1[1] - x0[1]) +
                       (x1[2] - x0[2]) * (x1[2] - x0[2])) / divisor;
        if (jac) segment_jacobian(m, d, J, x0, b0, x1, m->site_bodyid[s1], divisor, jac);
        continue;
      }
      /* site, geom, site: bent around the geom when the straight segment would cross it */
      int g = m->wrap_objid[k + 1], s1 = m->wrap_objid[k + 2];
      const gsReal* x1 = d->site_xpos + 3 * s1;
      int b1 = m->site_bodyid[s1];
      gsReal wpnt[6];
      gsReal arc = wrap_geom(m, d, g, x0, x1, (int)m->wrap_prm[k + 1], wpnt);
      if (arc < 0) {
        length += sqrt((x1[0] - x0[0]) * (x1[0] - x0[0]) + (x1[1] - x0[1]) * (x1[1] - x0[1]) +
                       (x1[2] - x0[2]) * (x1[2] - x0[2])) / divisor;
        if (jac) segment_jacobian(m, d, J, x0, b0, x1, b1, divisor, jac);
        continue;
      }
      int gb = m->geom_bodyid[g];
      add_point(d, &npoint, wpnt, g);
      add_point(d, &npoint, wpnt + 3, g);
      gsReal a[3], b[3];
      gs_sub3(a, wpnt, x0);
      gs_sub3(b, x1, wpnt + 3);
      length += (gs_norm3(a) + arc + gs_norm3(b)) / divisor;
      if (jac) {
        /* the tangent points move with the geom; the arc's own change is second order */
        segment_jacobian(m, d, J, x0, b0, wpnt, gb, divisor, jac);
        segment_jacobian(m, d, J, wpnt + 3, gb, x1, b1, divisor, jac);
      }
    }
    d->ten_wrapnum[t] = npoint - d->ten_wrapadr[t];
    d->ten_length[t] = length;
  }
  gs_arenaRelease(d, mark);
}

/* ---- actuator transmissions ---- */

/* moment of a wrench (force f, torque tq, world frame) applied at point p of body b: J^T [f; tq] */
static void wrench_moment(const gsModel* m, const gsData* d, gsReal* moment, const gsReal f[3],
                          const gsReal tq[3], const gsReal p[3], int b, gsReal* jacp,
                          gsReal* jacr, gsReal sign) {
  int nv = m->nv;
  gs_jac(m, d, jacp, jacr, p, b);
  for (int j = 0; j < nv; j++)
    moment[j] += sign * (f[0] * jacp[j] + f[1] * jacp[nv + j] + f[2] * jacp[2 * nv + j] +
                         tq[0] * jacr[j] + tq[1] * jacr[nv + j] + tq[2] * jacr[2 * nv + j]);
}

/* the dofs that move body b: 1 for each dof on its chain to the world */
static void chain_mask(const gsModel* m, int b, unsigned char* mask) {
  for (int j = gs_bodyLastDof(m, b); j >= 0; j = m->dof_parentid[j]) mask[j] = 1;
}

int gs_jointTransmission(const gsModel* m, const gsData* d, int i, gsReal* length, gsReal* vals) {
  const gsReal* gear = m->actuator_gear + 6 * i;
  int id = m->actuator_trnid[2 * i];
  const gsReal* q = d->qpos + m->jnt_qposadr[id];
  *length = 0;
  switch (m->jnt_type[id]) {
    case GS_JNT_SLIDE:
    case GS_JNT_HINGE:
      *length = q[0] * gear[0];
      vals[0] = gear[0];
      return 1;
    case GS_JNT_BALL: {
      /* length: the rotation vector of the joint's quaternion along the gear */
      gsReal unit[4] = {1, 0, 0, 0}, rv[3];
      gs_subQuat(rv, q, unit);
      *length = gs_dot3(rv, gear);
      if (m->actuator_trntype[i] == GS_TRN_JOINTINPARENT) {
        gsReal R[9];
        gs_quat2Mat(R, q);
        gs_mulMatTVec3(vals, R, gear);
      } else {
        gs_copy3(vals, gear);
      }
      return 3;
    }
    default:
      /* free: no length; translation in the world frame, rotation in the body's (or, in parent,
       * the world's) */
      gs_copy3(vals, gear);
      if (m->actuator_trntype[i] == GS_TRN_JOINTINPARENT) {
        gsReal R[9];
        gs_quat2Mat(R, q + 3);
        gs_mulMatTVec3(vals + 3, R, gear + 3);
      } else {
        gs_copy3(vals + 3, gear + 3);
      }
      return 6;
  }
}

int gs_transmission(const gsModel* m, gsData* d, int i, gsReal* length, gsReal* moment) {
  int nv = m->nv;
  const gsReal* gear = m->actuator_gear + 6 * i;
  int id = m->actuator_trnid[2 * i], id1 = m->actuator_trnid[2 * i + 1];
  gs_zero(moment, nv);
  *length = 0;
  size_t mark = gs_arenaMark(d);
  gsReal* jacp = gs_arenaAlloc(d, sizeof(gsReal) * 3 * (size_t)(nv ? nv : 1));
  gsReal* jacr = gs_arenaAlloc(d, sizeof(gsReal) * 3 * (size_t)(nv ? nv : 1));
  gsReal* jac2 = gs_arenaAlloc(d, sizeof(gsReal) * 3 * (size_t)(nv ? nv : 1));
  unsigned char* mask = gs_arenaAlloc(d, (size_t)(nv ? nv : 1));
  if (!jacp || !jacr || !jac2 || !mask) {
    gs_arenaRelease(d, mark);
    return 0;
  }
  switch (m->actuator_trntype[i]) {
    case GS_TRN_JOINT:
    case GS_TRN_JOINTINPARENT:
      gs_jointTransmission(m, d, i, length, moment + m->jnt_dofadr[id]);
      break;
    case GS_TRN_TENDON: {
      int lo, hi;
      gs_tendonSpan(m, id, &lo, &hi);
      *length = d->ten_length[id] * gear[0];
      for (int j = lo; j < hi; j++) moment[j] = d->ten_J[(size_t)id * nv + j] * gear[0];
      break;
    }
    case GS_TRN_SITE: {
      const gsReal* R = d->site_xmat + 9 * id;
      const gsReal* p = d->site_xpos + 3 * id;
      int b = m->site_bodyid[id];
      gsReal f[3], tq[3];
      if (id1 < 0) {
        /* the gear is a wrench in the site's frame; no length */
        gs_mulMatVec3(f, R, gear);
        gs_mulMatVec3(tq, R, gear + 3);
        wrench_moment(m, d, moment, f, tq, p, b, jacp, jacr, 1);
        break;
      }
      /* relative to a reference site: translation and rotation in its frame */
      const gsReal* Rr = d->site_xmat + 9 * id1;
      const gsReal* pr = d->site_xpos + 3 * id1;
      int br = m->site_bodyid[id1];
      gsReal dp[3], v[3];
      gs_sub3(dp, p, pr);
      gs_mulMatTVec3(v, Rr, dp);
      *length = gs_dot3(v, gear);
      /* MJCF composes a site's orientation for this as site_quat * body_quat */
      gsReal qs[4], qr[4], rv[3];
      gs_mulQuat(qs, m->site_quat + 4 * id, d->xquat + 4 * b);
      gs_mulQuat(qr, m->site_quat + 4 * id1, d->xquat + 4 * br);
      gs_subQuat(rv, qs, qr);
      *length += gs_dot3(rv, gear + 3);
      /* moment: the gear in the reference frame on the relative motion of the two sites; dofs
       * that move both sites move them rigidly together and change nothing */
      gs_mulMatVec3(f, Rr, gear);
      gs_mulMatVec3(tq, Rr, gear + 3);
      wrench_moment(m, d, moment, f, tq, p, b, jacp, jacr, 1);
      wrench_moment(m, d, moment, f, tq, pr, br, jacp, jacr, -1);
      memset(mask, 0, (size_t)nv);
      chain_mask(m, b, mask);
      for (int k = gs_bodyLastDof(m, br); k >= 0; k = m->dof_parentid[k])
        if (mask[k]) moment[k] = 0;
      break;
    }
    case GS_TRN_SLIDERCRANK: {
      /* the crank site (id) moves a rod of length r whose other end slides along the z axis of
       * the slider site (id1): length = a.z - sqrt((a.z)^2 - a.a + r^2), a = crank - slider */
      const gsReal* pc = d->site_xpos + 3 * id;
      const gsReal* ps = d->site_xpos + 3 * id1;
      const gsReal* Rs = d->site_xmat + 9 * id1;
      gsReal axis[3] = {Rs[2], Rs[5], Rs[8]}, a[3];
      gs_sub3(a, pc, ps);
      gsReal r = m->actuator_cranklength[i];
      gsReal av = gs_dot3(a, axis), det = av * av + r * r - gs_dot3(a, a);
      gsReal sdet = det > 0 ? sqrt(det) : 0;
      *length = (av - sdet) * gear[0];
      /* d(av) = axis.(da) + a.(dR axis); d(sqrt det) = (av d(av) - a.da) / sqrt(det) */
      int bc = m->site_bodyid[id], bs = m->site_bodyid[id1];
      gsReal* dav = jac2;  /* per dof: d(av) and a.da */
      gsReal* ada = jac2 + nv;
      gs_zero(jac2, 2 * nv);
      gs_jac(m, d, jacp, NULL, pc, bc);
      for (int j = 0; j < nv; j++) {
        gsReal col[3] = {jacp[j], jacp[nv + j], jacp[2 * nv + j]};
        dav[j] += gs_dot3(axis, col);
        ada[j] += gs_dot3(a, col);
      }
      gs_jac(m, d, jacp, jacr, ps, bs);
      gsReal ax[3];
      gs_cross(ax, axis, a);
      for (int j = 0; j < nv; j++) {
        gsReal col[3] = {jacp[j], jacp[nv + j], jacp[2 * nv + j]};
        gsReal rot[3] = {jacr[j], jacr[nv + j], jacr[2 * nv + j]};
        dav[j] += -gs_dot3(axis, col) + gs_dot3(rot, ax);
        ada[j] -= gs_dot3(a, col);
      }
      for (int j = 0; j < nv; j++) {
        gsReal dl = dav[j];
        if (sdet > 0) dl -= (av * dav[j] - ada[j]) / sdet;
        moment[j] = dl * gear[0];
      }
      break;
    }
    case GS_TRN_BODY:
    default:
      /* adhesion pulls through contacts: nothing without them */
      break;
  }
  gs_arenaRelease(d, mark);
  return 1;
}
