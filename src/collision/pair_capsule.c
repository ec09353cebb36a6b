/* Narrow phase: a capsule against a capsule or a box. */
#include "collision/pair_util.h"

/* the nearest points of the two segments, as spheres; exactly parallel axes give up to 2
 * contacts, found by trying the ends of segment 1, then those of segment 2, against the other
 * segment */
int gs_collideCapsuleCapsule(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2,
                             gsReal margin) {
  const gsReal* p1 = d->geom_xpos + 3 * g1;
  const gsReal* p2 = d->geom_xpos + 3 * g2;
  gsReal r1 = m->geom_size[3 * g1], r2 = m->geom_size[3 * g2];
  gsReal a1[3], a2[3], dif[3], q1[3], q2[3];
  gs_pairAxis(a1, d->geom_xmat + 9 * g1, 2);
  gs_pairAxis(a2, d->geom_xmat + 9 * g2, 2);
  gs_scl3(a1, a1, m->geom_size[3 * g1 + 1]);  /* half-axes: points are p + x*a, x in [-1,1] */
  gs_scl3(a2, a2, m->geom_size[3 * g2 + 1]);
  gsReal z1[3], z2[3];
  gs_pairZ(z1, z2, d, g1, g2);
  gs_sub3(dif, p2, p1);
  gsReal aa = gs_dot3(a1, a1), bb = gs_dot3(a2, a2), ab = gs_dot3(a1, a2);
  gsReal ad = gs_dot3(a1, dif), bd = gs_dot3(a2, dif);
  gsReal det = aa * bb - ab * ab;
  if (fabs(det) >= GS_MINVAL) {
    /* minimise |p1 + x1 a1 - p2 - x2 a2|^2 */
    gsReal x1 = (bb * ad - ab * bd) / det, x2 = (ab * ad - aa * bd) / det;
    if (x1 > 1 || x1 < -1) {
      x1 = x1 > 1 ? 1 : -1;
      x2 = (x1 * ab - bd) / bb;
    }
    if (x2 > 1 || x2 < -1) {
      x2 = x2 > 1 ? 1 : -1;
      x1 = gs_pairClamp((ad + x2 * ab) / aa, -1, 1);
    }
    gs_addScl3(q1, p1, a1, x1);
    gs_addScl3(q2, p2, a2, x2);
    return gs_pairSpheres(con, q1, r1, q2, r2, margin, z1, z2);
  }
  int ncon = 0;
  for (int e = 0; e < 4 && ncon < 2; e++) {
    gsReal s = (e & 1) ? -1 : 1;
    if (e < 2) {
      gs_addScl3(q1, p1, a1, s);
      gsReal x2 = bb > GS_MINVAL ? gs_pairClamp((s * ab - bd) / bb, -1, 1) : 0;
      gs_addScl3(q2, p2, a2, x2);
    } else {
      gs_addScl3(q2, p2, a2, s);
      gsReal x1 = aa > GS_MINVAL ? gs_pairClamp((ad + s * ab) / aa, -1, 1) : 0;
      gs_addScl3(q1, p1, a1, x1);
    }
    ncon += gs_pairSpheres(con + ncon, q1, r1, q2, r2, margin, z1, z2);
  }
  return ncon;
}

/* ---- capsule-box ------------------------------------------------------------------------- */

/* signed distance from point p (box frame) to the box of half-sizes s: negative inside */
static gsReal box_dist(const gsReal p[3], const gsReal s[3]) {
  gsReal out = 0, depth = GS_MAXVAL;
  for (int i = 0; i < 3; i++) {
    gsReal e = fabs(p[i]) - s[i];
    if (e > 0) out += e * e;
    if (s[i] - fabs(p[i]) < depth) depth = s[i] - fabs(p[i]);
  }
  return out > 0 ? sqrt(out) : -depth;
}

/* the point of the segment c + t*h (t in [-1,1]) nearest to the box edge through e0 along axis
 * ax (the other two coordinates of e0 are +-s): returns the distance, sets *t and the edge
 * point q. The squared distance is piecewise quadratic in t, split where the segment's ax
 * coordinate leaves [-s, s]. */
static gsReal segment_edge(const gsReal c[3], const gsReal h[3], const gsReal s[3],
                           const gsReal e0[3], int ax, gsReal* tbest, gsReal qbest[3]) {
  gsReal bp[4] = {-1, 1, 1, 1};
  int nb = 2;
  if (h[ax] != 0)
    for (int sg = -1; sg <= 1; sg += 2) {
      gsReal t = (sg * s[ax] - c[ax]) / h[ax];
      if (t > -1 && t < 1) bp[nb++] = t;
    }
  if (nb == 4 && bp[2] > bp[3]) {
    gsReal tmp = bp[2]; bp[2] = bp[3]; bp[3] = tmp;
  }
  /* order: -1, interior breakpoints, 1 */
  gsReal ts[4];
  int nt = 0;
  ts[nt++] = -1;
  for (int i = 2; i < nb; i++) ts[nt++] = bp[i];
  ts[nt++] = 1;
  gsReal best = GS_MAXVAL;
  for (int iv = 0; iv + 1 < nt; iv++) {
    gsReal a = ts[iv], b = ts[iv + 1], tm = 0.5 * (a + b);
    gsReal w = c[ax] + tm * h[ax];
    int sg = w > s[ax] ? 1 : (w < -s[ax] ? -1 : 0);
    gsReal num = 0, den = 0;
    for (int k = 0; k < 3; k++) {
      gsReal tgt;
      if (k != ax) tgt = e0[k];
      else if (sg) tgt = sg * s[ax];
      else continue;
      num += h[k] * (c[k] - tgt);
      den += h[k] * h[k];
    }
    /* parallel to the edge: its end (the corner) when within the segment */
    gsReal t = den > 0 ? gs_pairClamp(-num / den, a, b) : (iv == 0 && nt > 2 ? b : a);
    gsReal p[3], q[3], dq[3];
    gs_addScl3(p, c, h, t);
    gs_copy3(q, e0);
    q[ax] = gs_pairClamp(p[ax], -s[ax], s[ax]);
    gs_sub3(dq, p, q);
    gsReal dd = gs_norm3(dq);
    if (dd < best) {
      best = dd;
      *tbest = t;
      gs_copy3(qbest, q);
    }
  }
  return best;
}

/* MuJoCo's capsule-box, as measured: spheres of the capsule's radius at one or two points of
 * its axis segment, each collided with the box.
 *  - An end of the segment inside the box (the -1 end first) is the only point.
 *  - Otherwise the first point is the nearest to the box among the points of the segment nearest
 *    to each of the 12 edges (box point on the edge; a segment parallel to an edge takes the
 *    edge's end) and the two ends (box point: the end clamped to the box), edges winning ties;
 *    this is the segment-box distance when the segment misses the box.
 *  - The second point slides along the segment from the first over one face of the box: for an
 *    end nearest to a face (one box coordinate at its limit) over that face, towards the other
 *    end; for an edge or corner, over the adjacent face most parallel to the segment, in the
 *    direction that brings the box point inwards across the edge. It stops where the box point
 *    would cross the face's border (the face's own normal coordinate is not limiting), or at the
 *    end of the segment. When that direction leaves the segment at once (the first point is an
 *    end), the first point is repeated if the slide moves away from the face's plane, and
 *    nothing is added otherwise. A first point at an edge of a segment that passes through the
 *    box while the first point itself is outside it gets no second point. */
int gs_collideCapsuleBox(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2,
                         gsReal margin) {
  const gsReal* pc = d->geom_xpos + 3 * g1;
  const gsReal* pb = d->geom_xpos + 3 * g2;
  const gsReal* mb = d->geom_xmat + 9 * g2;
  const gsReal* s = m->geom_size + 3 * g2;
  gsReal r = m->geom_size[3 * g1], len = m->geom_size[3 * g1 + 1];
  gsReal ax[3], dif[3], c[3], h[3], p[3], hw[3];
  gs_pairAxis(ax, d->geom_xmat + 9 * g1, 2);
  gs_sub3(dif, pc, pb);
  gs_mulMatTVec3(c, mb, dif);
  gs_scl3(hw, ax, len);           /* half axis, world */
  gs_mulMatTVec3(h, mb, hw);      /* half axis, box frame */

  gsReal cw[3];
  /* an end inside the box */
  for (int e = -1; e <= 1; e += 2) {
    gs_addScl3(p, c, h, e);
    if (box_dist(p, s) < 0) {
      gs_addScl3(cw, pc, hw, e);
      return gs_pairSphereBox(m, d, con, cw, r, g2, margin);
    }
  }

  /* the first point: ends, then the 12 edges */
  gsReal best = GS_MAXVAL, t1 = 0, b1[3] = {0, 0, 0};
  int nbnd = 0, bnd[3] = {0, 0, 0}, isedge = 0;
  for (int a = 0; a < 3; a++) {
    int o1 = (a + 1) % 3, o2 = (a + 2) % 3;
    if (o1 > o2) {
      int tmp = o1; o1 = o2; o2 = tmp;
    }
    for (int s1 = -1; s1 <= 1; s1 += 2)
      for (int s2 = -1; s2 <= 1; s2 += 2) {
        gsReal e0[3], q[3] = {0, 0, 0}, t = 0;
        e0[a] = 0;
        e0[o1] = s1 * s[o1];
        e0[o2] = s2 * s[o2];
        gsReal dd = segment_edge(c, h, s, e0, a, &t, q);
        if (dd < best) {
          best = dd;
          t1 = t;
          isedge = 1;
          gs_copy3(b1, q);
          nbnd = 2;
          bnd[0] = o1;
          bnd[1] = o2;
        }
      }
  }
  for (int e = -1; e <= 1; e += 2) {
    gs_addScl3(p, c, h, e);
    gsReal dd = box_dist(p, s);
    if (dd < best) {
      best = dd;
      t1 = e;
      isedge = 0;
      nbnd = 0;
      for (int i = 0; i < 3; i++) {
        b1[i] = gs_pairClamp(p[i], -s[i], s[i]);
        if (fabs(p[i]) >= s[i]) bnd[nbnd++] = i;
      }
    }
  }
  gs_addScl3(cw, pc, hw, t1);
  int ncon = gs_pairSphereBox(m, d, con, cw, r, g2, margin);
  if (!ncon || nbnd == 0) return ncon;

  /* the second point */
  int end = (t1 == 1 || t1 == -1);
  int k, dir;
  if (nbnd == 1) {
    k = bnd[0];
    dir = end ? (t1 > 0 ? -1 : 1) : 1;
  } else {
    k = bnd[0];
    for (int i = 1; i < nbnd; i++)
      if (fabs(h[bnd[i]]) < fabs(h[k])) k = bnd[i];
    int j = -1;
    for (int i = 0; i < nbnd; i++)
      if (bnd[i] != k && (j < 0 || fabs(h[bnd[i]]) > fabs(h[j]))) j = bnd[i];
    dir = h[j] * b1[j] < 0 ? 1 : -1;
    if (end && dir == (t1 > 0 ? 1 : -1) && dir * h[k] * b1[k] < 0) return ncon;
  }
  if (isedge) {
    gs_addScl3(p, c, h, t1);
    if (box_dist(p, s) > 0) {
      /* does the segment pass through the box? (slab test) */
      gsReal lo = -1, hi = 1;
      for (int i = 0; i < 3 && lo <= hi; i++) {
        if (h[i] == 0) {
          if (fabs(c[i]) > s[i]) lo = 2;
          continue;
        }
        gsReal ta = (-s[i] - c[i]) / h[i], tb = (s[i] - c[i]) / h[i];
        if (ta > tb) {
          gsReal tmp = ta; ta = tb; tb = tmp;
        }
        if (ta > lo) lo = ta;
        if (tb < hi) hi = tb;
      }
      if (lo <= hi) return ncon;
    }
  }
  gsReal shift = GS_MAXVAL;
  for (int i = 0; i < 3; i++) {
    gsReal v = dir * h[i];
    if (v == 0 || i == k) continue;
    gsReal x = ((v < 0 ? -s[i] : s[i]) - b1[i]) / v;
    if (x > 0 && x < shift) shift = x;
  }
  gsReal t2 = gs_pairClamp(t1 + dir * shift, -1, 1);
  gs_addScl3(cw, pc, hw, t2);
  return ncon + gs_pairSphereBox(m, d, con + ncon, cw, r, g2, margin);
}
