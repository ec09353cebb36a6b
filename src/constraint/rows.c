/* Constraint rows (seed 000 §II; MJCF's order): equality constraints, friction loss of dofs and
 * tendons, limits of joints and tendons, then contacts. Each row stores its Jacobian sparse: the
 * dofs of the chains of the (at most two) bodies it involves, ascending. */
#include <math.h>
#include <string.h>

#include "constraint/constraint.h"
#include "core/arena.h"
#include "core/math.h"
#include "dynamics/dynamics.h"

/* ---- sparse rows ---- */

/* dofs that move body b1 or b2 (-1: none), ascending; returns how many */
static int chain_dofs(const gsModel* m, int b1, int b2, int* dofs) {
  int n = 0;
  int i1 = b1 > 0 ? gs_bodyLastDof(m, b1) : -1, i2 = b2 > 0 ? gs_bodyLastDof(m, b2) : -1;
  /* dofs are numbered parents first, so the larger index is never an ancestor of the smaller */
  while (i1 >= 0 || i2 >= 0) {
    int j;
    if (i1 == i2) {
      j = i1;
      i1 = m->dof_parentid[i1];
      i2 = i1;
    } else if (i1 > i2) {
      j = i1;
      i1 = m->dof_parentid[i1];
    } else {
      j = i2;
      i2 = m->dof_parentid[i2];
    }
    dofs[n++] = j;
  }
  for (int a = 0, b = n - 1; a < b; a++, b--) {
    int t = dofs[a];
    dofs[a] = dofs[b];
    dofs[b] = t;
  }
  return n;
}

/* add sign * (Jacobian of `point` on body b) to jp (3 x n) and jr (3 x n), over the columns dofs */
static void add_point_jac(const gsModel* m, const gsData* d, int b, const gsReal point[3],
                          gsReal sign, const int* dofs, int n, gsReal* jp, gsReal* jr) {
  if (b <= 0) return;
  gsReal off[3];
  gs_sub3(off, point, d->subtree_com + 3 * m->body_rootid[b]);
  int k = n - 1;
  for (int j = gs_bodyLastDof(m, b); j >= 0; j = m->dof_parentid[j]) {
    while (k >= 0 && dofs[k] != j) k--;
    if (k < 0) return;
    const gsReal* s = d->cdof + 6 * j;
    if (jp) {
      gsReal lin[3];
      gs_cross(lin, s, off);
      gs_add3(lin, lin, s + 3);
      jp[k] += sign * lin[0];
      jp[n + k] += sign * lin[1];
      jp[2 * n + k] += sign * lin[2];
    }
    if (jr) {
      jr[k] += sign * s[0];
      jr[n + k] += sign * s[1];
      jr[2 * n + k] += sign * s[2];
    }
  }
}

/* a new row with nnz columns; returns its index, or -1 when the rows are full. Its values are
 * left to the caller, which writes all nnz of them (row_values). */
static int add_row(gsData* d, int type, int id, const int* cols, int nnz, gsReal pos,
                   gsReal margin, gsReal frictionloss) {
  if (d->nefc >= d->nefcmax || d->nJ + nnz > d->nJmax) {
    gs_warning(d, GS_WARN_CNSTRFULL, d->nefc);
    return -1;
  }
  int r = d->nefc++;
  d->efc_type[r] = type;
  d->efc_id[r] = id;
  d->efc_J_rownnz[r] = nnz;
  d->efc_J_rowadr[r] = d->nJ;
  if (nnz == 1)  /* a limit's or a dof's friction row: no library call for one index */
    d->efc_J_colind[d->nJ] = cols[0];
  else
    memcpy(d->efc_J_colind + d->nJ, cols, sizeof(int) * (size_t)nnz);
  d->nJ += nnz;
  d->efc_pos[r] = pos;
  d->efc_margin[r] = margin;
  d->efc_frictionloss[r] = frictionloss;
  d->efc_force[r] = 0;
  d->efc_state[r] = GS_CNSTRSTATE_SATISFIED;
  return r;
}

static gsReal* row_values(gsData* d, int r) { return d->efc_J + d->efc_J_rowadr[r]; }

/* a row whose Jacobian is a dense nv vector (tendons): its non-zeros. A Jacobian of zeros (a
 * tendon through the world's sites alone, or one whose length no dof changes here) makes no row,
 * as in MJCF (MuJoCo's core_constraint/dofless_* files,
 * tests/python/test_constraint_conformance.py::test_rows_without_dofs_like_mujoco):
 * returns -2 then, -1 when the arena is full */
static int add_dense_row(gsData* d, int nv, int type, int id, const gsReal* J, gsReal sign,
                         int* cols, gsReal pos, gsReal margin, gsReal frictionloss) {
  int nnz = 0;
  for (int i = 0; i < nv; i++)
    if (J[i] != 0) cols[nnz++] = i;
  if (nnz == 0) return -2;
  int r = add_row(d, type, id, cols, nnz, pos, margin, frictionloss);
  if (r < 0) return -1;
  gsReal* v = row_values(d, r);
  for (int k = 0; k < nnz; k++) v[k] = sign * J[cols[k]];
  return r;
}

/* ---- equality ---- */

static gsReal poly(const gsReal* a, gsReal x, gsReal* slope) {
  *slope = a[1] + x * (2 * a[2] + x * (3 * a[3] + x * 4 * a[4]));
  return a[0] + x * (a[1] + x * (a[2] + x * (a[3] + x * a[4])));
}

/* connect and weld: the frames they join, from bodies or sites */
static void eq_frames(const gsModel* m, const gsData* d, int i, int* b1, int* b2, gsReal p1[3],
                      gsReal p2[3], gsReal q1[4], gsReal q2[4]) {
  const gsReal* data = m->eq_data + GS_NEQDATA * i;
  int o1 = m->eq_obj1id[i], o2 = m->eq_obj2id[i];
  if (m->eq_objtype[i] == GS_OBJ_SITE) {
    *b1 = m->site_bodyid[o1];
    *b2 = m->site_bodyid[o2];
    gs_copy3(p1, d->site_xpos + 3 * o1);
    gs_copy3(p2, d->site_xpos + 3 * o2);
    gs_mat2Quat(q1, d->site_xmat + 9 * o1);
    gs_mat2Quat(q2, d->site_xmat + 9 * o2);
    return;
  }
  *b1 = o1;
  *b2 = o2;
  gsReal t[3];
  if (m->eq_type[i] == GS_EQ_CONNECT) {
    /* data: the anchor in body1's frame, then in body2's */
    gs_rotVecQuat(t, data, d->xquat + 4 * o1);
    gs_add3(p1, t, d->xpos + 3 * o1);
    gs_rotVecQuat(t, data + 3, d->xquat + 4 * o2);
    gs_add3(p2, t, d->xpos + 3 * o2);
    return;
  }
  /* weld data: anchor in body2's frame, relative position and orientation of body2 in body1's */
  gs_rotVecQuat(t, data + 3, d->xquat + 4 * o1);
  gs_add3(p1, t, d->xpos + 3 * o1);
  gs_rotVecQuat(t, data, d->xquat + 4 * o2);
  gs_add3(p2, t, d->xpos + 3 * o2);
  gs_mulQuat(q1, d->xquat + 4 * o1, data + 6);
  gs_copy4(q2, d->xquat + 4 * o2);
}

static void equality_rows(const gsModel* m, gsData* d, int* cols, gsReal* scratch) {
  int nv = m->nv;
  for (int i = 0; i < m->neq; i++) {
    if (!d->eq_active[i]) continue;
    int type = m->eq_type[i];
    const gsReal* data = m->eq_data + GS_NEQDATA * i;
    if (type == GS_EQ_CONNECT || type == GS_EQ_WELD) {
      int b1, b2;
      gsReal p1[3], p2[3], q1[4], q2[4], r[3];
      eq_frames(m, d, i, &b1, &b2, p1, p2, q1, q2);
      int n = chain_dofs(m, b1, b2, cols);
      if (n == 0) continue;  /* between bodies without dofs: no rows, as in MJCF */
      gsReal* jp = scratch;
      memset(jp, 0, sizeof(gsReal) * 3 * (size_t)n);
      add_point_jac(m, d, b1, p1, 1, cols, n, jp, NULL);
      add_point_jac(m, d, b2, p2, -1, cols, n, jp, NULL);
      gs_sub3(r, p1, p2);
      for (int a = 0; a < 3; a++) {
        int row = add_row(d, GS_CNSTR_EQUALITY, i, cols, n, r[a], 0, 0);
        if (row < 0) return;
        memcpy(row_values(d, row), jp + a * n, sizeof(gsReal) * (size_t)n);
      }
      if (type == GS_EQ_CONNECT) continue;
      /* orientation: torquescale * imag(conj(q2) q1), q1 = body1 * relpose; its rate is
       * ts/2 [(e0 + [e]x) R1^T w1 - (e0 - [e]x) R2^T w2] with e = conj(q2) q1 */
      gsReal ts = data[10], q2c[4], e[4], R1[9], R2[9];
      gs_negQuat(q2c, q2);
      gs_mulQuat(e, q2c, q1);
      gs_quat2Mat(R1, q1);
      gs_quat2Mat(R2, q2);
      gsReal P[9], Q[9];  /* (e0 I + [e]x) and (e0 I - [e]x) */
      const gsReal* v = e + 1;
      P[0] = e[0], P[1] = -v[2], P[2] = v[1];
      P[3] = v[2], P[4] = e[0], P[5] = -v[0];
      P[6] = -v[1], P[7] = v[0], P[8] = e[0];
      for (int k = 0; k < 9; k++) Q[k] = (k % 4 == 0) ? e[0] : -P[k];
      /* world angular Jacobians of each body separately */
      gsReal *w1 = scratch + 6 * n, *w2 = scratch + 9 * n;
      memset(w1, 0, sizeof(gsReal) * 6 * (size_t)n);
      add_point_jac(m, d, b1, p1, 1, cols, n, NULL, w1);
      add_point_jac(m, d, b2, p2, 1, cols, n, NULL, w2);
      for (int a = 0; a < 3; a++) {
        int row = add_row(d, GS_CNSTR_EQUALITY, i, cols, n, ts * e[a + 1], 0, 0);
        if (row < 0) return;
        gsReal* out = row_values(d, row);
        for (int k = 0; k < n; k++) {
          gsReal l1[3], l2[3], u1 = 0, u2 = 0;
          for (int c = 0; c < 3; c++) {
            l1[c] = R1[0 + c] * w1[k] + R1[3 + c] * w1[n + k] + R1[6 + c] * w1[2 * n + k];
            l2[c] = R2[0 + c] * w2[k] + R2[3 + c] * w2[n + k] + R2[6 + c] * w2[2 * n + k];
          }
          for (int c = 0; c < 3; c++) u1 += P[3 * a + c] * l1[c], u2 += Q[3 * a + c] * l2[c];
          out[k] = 0.5 * ts * (u1 - u2);
        }
      }
    } else if (type == GS_EQ_JOINT) {
      int j1 = m->eq_obj1id[i], j2 = m->eq_obj2id[i];
      int a1 = m->jnt_qposadr[j1], d1 = m->jnt_dofadr[j1];
      gsReal y = d->qpos[a1] - m->qpos0[a1], slope = 0, target = data[0];
      if (j2 >= 0) {
        int a2 = m->jnt_qposadr[j2];
        target = poly(data, d->qpos[a2] - m->qpos0[a2], &slope);
      }
      gsReal* J = scratch;
      gs_zero(J, nv);
      J[d1] = 1;
      if (j2 >= 0) J[m->jnt_dofadr[j2]] -= slope;
      if (add_dense_row(d, nv, GS_CNSTR_EQUALITY, i, J, 1, cols, y - target, 0, 0) == -1) return;
    } else if (type == GS_EQ_TENDON) {
      int t1 = m->eq_obj1id[i], t2 = m->eq_obj2id[i];
      gsReal y = d->ten_length[t1] - m->tendon_length0[t1], slope = 0, target = data[0];
      if (t2 >= 0) target = poly(data, d->ten_length[t2] - m->tendon_length0[t2], &slope);
      gsReal* J = scratch;
      gs_copy(J, d->ten_J + (size_t)t1 * nv, nv);
      if (t2 >= 0) gs_addScl(J, d->ten_J + (size_t)t2 * nv, -slope, nv);
      if (add_dense_row(d, nv, GS_CNSTR_EQUALITY, i, J, 1, cols, y - target, 0, 0) == -1) return;
    }
  }
}

/* ---- friction loss and limits ---- */

static void friction_rows(const gsModel* m, gsData* d, int* cols) {
  for (int i = 0; i < m->nv; i++) {
    if (m->dof_frictionloss[i] <= 0) continue;
    int r = add_row(d, GS_CNSTR_FRICTION_DOF, i, &i, 1, 0, 0, m->dof_frictionloss[i]);
    if (r < 0) return;
    row_values(d, r)[0] = 1;
  }
  for (int t = 0; t < m->ntendon; t++) {
    if (m->tendon_frictionloss[t] <= 0) continue;
    if (add_dense_row(d, m->nv, GS_CNSTR_FRICTION_TENDON, t, d->ten_J + (size_t)t * m->nv, 1, cols,
                      0, 0, m->tendon_frictionloss[t]) == -1)
      return;
  }
}

static void limit_rows(const gsModel* m, gsData* d, int* cols) {
  for (int j = 0; j < m->njnt; j++) {
    if (!m->jnt_limited[j]) continue;
    int type = m->jnt_type[j], adr = m->jnt_qposadr[j], dof = m->jnt_dofadr[j];
    gsReal margin = m->jnt_margin[j];
    const gsReal* range = m->jnt_range + 2 * j;
    if (type == GS_JNT_SLIDE || type == GS_JNT_HINGE) {
      gsReal q = d->qpos[adr];
      for (int side = 0; side < 2; side++) {
        gsReal dist = side == 0 ? q - range[0] : range[1] - q;
        if (dist >= margin) continue;
        int r = add_row(d, GS_CNSTR_LIMIT_JOINT, j, &dof, 1, dist, margin, 0);
        if (r < 0) return;
        row_values(d, r)[0] = side == 0 ? 1 : -1;
      }
    } else if (type == GS_JNT_BALL) {
      /* the rotation angle of the joint against the larger range value */
      gsReal q[4], axis[3];
      gs_copy4(q, d->qpos + adr);
      gs_normalize4(q);
      gsReal s = gs_norm3(q + 1);
      gsReal angle = 2 * atan2(s, q[0]);
      if (angle > GS_PI) angle -= 2 * GS_PI;
      if (s > GS_MINVAL) {
        gs_scl3(axis, q + 1, 1 / s);
      } else {
        axis[0] = 1, axis[1] = axis[2] = 0;
      }
      if (angle < 0) angle = -angle, gs_scl3(axis, axis, -1);
      gsReal dist = (range[0] > range[1] ? range[0] : range[1]) - angle;
      if (dist >= margin) continue;
      int dofs[3] = {dof, dof + 1, dof + 2};
      int r = add_row(d, GS_CNSTR_LIMIT_JOINT, j, dofs, 3, dist, margin, 0);
      if (r < 0) return;
      for (int k = 0; k < 3; k++) row_values(d, r)[k] = -axis[k];
    }
  }
  for (int t = 0; t < m->ntendon; t++) {
    if (!m->tendon_limited[t]) continue;
    gsReal L = d->ten_length[t], margin = m->tendon_margin[t];
    const gsReal* range = m->tendon_range + 2 * t;
    for (int side = 0; side < 2; side++) {
      gsReal dist = side == 0 ? L - range[0] : range[1] - L;
      if (dist >= margin) continue;
      if (add_dense_row(d, m->nv, GS_CNSTR_LIMIT_TENDON, t, d->ten_J + (size_t)t * m->nv,
                        side == 0 ? 1 : -1, cols, dist, margin, 0) == -1)
        return;
    }
  }
}

/* ---- contacts ---- */

static void contact_rows(const gsModel* m, gsData* d, int* cols, gsReal* scratch) {
  int elliptic = m->opt.cone == GS_CONE_ELLIPTIC;
  for (int i = 0; i < d->ncon; i++) {
    gsContact* c = d->contact + i;
    c->mu = c->dim > 1 ? c->friction[0] / sqrt(m->opt.impratio) : 0;
    if (c->exclude || c->dist >= c->includemargin) continue;
    int b1 = m->geom_bodyid[c->geom1], b2 = m->geom_bodyid[c->geom2];
    int n = chain_dofs(m, b1, b2, cols);
    if (n == 0) continue;  /* no dofs on either side (a model without any): no rows, as in MJCF */
    gsReal *jp = scratch, *jr = scratch + 3 * n, *cart = scratch + 6 * n;
    /* the rotations enter only torsional and rolling friction (condim 4 and 6) */
    int rot = c->dim > 3;
    memset(scratch, 0, sizeof(gsReal) * (rot ? 6 : 3) * (size_t)n);
    /* relative motion of geom2 with respect to geom1 at the contact point */
    add_point_jac(m, d, b2, c->pos, 1, cols, n, jp, rot ? jr : NULL);
    add_point_jac(m, d, b1, c->pos, -1, cols, n, jp, rot ? jr : NULL);
    /* in the contact frame: 3 translations, then 3 rotations, along the frame's axes; the rows
     * past the contact's dimension are never read */
    for (int a = 0; a < c->dim; a++) {
      const gsReal* axis = c->frame + 3 * (a % 3);
      const gsReal* src = a < 3 ? jp : jr;
      for (int k = 0; k < n; k++)
        cart[a * n + k] = axis[0] * src[k] + axis[1] * src[n + k] + axis[2] * src[2 * n + k];
    }
    int first = d->nefc;
    if (c->dim == 1) {
      int r = add_row(d, GS_CNSTR_CONTACT_FRICTIONLESS, i, cols, n, c->dist, c->includemargin, 0);
      if (r < 0) return;
      memcpy(row_values(d, r), cart, sizeof(gsReal) * (size_t)n);
    } else if (elliptic) {
      for (int a = 0; a < c->dim; a++) {
        gsReal pos = a == 0 ? c->dist : 0, margin = a == 0 ? c->includemargin : 0;
        int r = add_row(d, GS_CNSTR_CONTACT_ELLIPTIC, i, cols, n, pos, margin, 0);
        if (r < 0) goto full;
        memcpy(row_values(d, r), cart + a * n, sizeof(gsReal) * (size_t)n);
      }
    } else {
      /* pyramid edges: normal +- friction_j * direction j, j = 1 .. dim-1 */
      for (int j = 1; j < c->dim; j++) {
        for (int sgn = 1; sgn >= -1; sgn -= 2) {
          int r = add_row(d, GS_CNSTR_CONTACT_PYRAMIDAL, i, cols, n, c->dist, c->includemargin, 0);
          if (r < 0) goto full;
          gsReal* v = row_values(d, r);
          gsReal mu = sgn * c->friction[j - 1];
          for (int k = 0; k < n; k++) v[k] = cart[k] + mu * cart[j * n + k];
        }
      }
    }
    c->efc_address = first;
    continue;
  full:
    /* a contact never keeps part of its rows */
    d->nJ = d->efc_J_rowadr[first];
    d->nefc = first;
    return;
  }
}

void gs_makeConstraint(const gsModel* m, gsData* d) {
  d->nefc = d->ne = d->nf = d->nl = d->nJ = 0;
  for (int i = 0; i < d->ncon; i++) d->contact[i].efc_address = -1;
  int dis = m->opt.disableflags;
  if (dis & GS_DSBL_CONSTRAINT) return;
  size_t mark = gs_arenaMark(d);
  int nv = m->nv;
  int* cols = gs_arenaAlloc(d, sizeof(int) * (size_t)(nv + 1));
  gsReal* scratch = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)(12 * nv + 1));
  if (!cols || !scratch) {
    gs_arenaRelease(d, mark);
    return;
  }
  if (!(dis & GS_DSBL_EQUALITY)) equality_rows(m, d, cols, scratch);
  d->ne = d->nefc;
  if (!(dis & GS_DSBL_FRICTIONLOSS)) friction_rows(m, d, cols);
  d->nf = d->nefc - d->ne;
  if (!(dis & GS_DSBL_LIMIT)) limit_rows(m, d, cols);
  d->nl = d->nefc - d->ne - d->nf;
  if (!(dis & GS_DSBL_CONTACT)) contact_rows(m, d, cols, scratch);
  gs_arenaRelease(d, mark);
}

/* ---- products with J ---- */

void gs_mulJ(const gsData* d, gsReal* y, const gsReal* x) {
  for (int r = 0, nefc = d->nefc; r < nefc; r++) {
    int adr = d->efc_J_rowadr[r], nnz = d->efc_J_rownnz[r];
    const int* c = d->efc_J_colind + adr;
    const gsReal* v = d->efc_J + adr;
    if (nnz == 1) {  /* limits: the same sum (0 + v x keeps the sign of a zero) without a loop */
      y[r] = 0 + v[0] * x[c[0]];
      continue;
    }
    gsReal s = 0;
    for (int k = 0; k < nnz; k++) s += v[k] * x[c[k]];
    y[r] = s;
  }
}

void gs_constraintResidual(const gsData* d, const gsReal* a, gsReal* jar) {
  gs_mulJ(d, jar, a);
  for (int r = 0; r < d->nefc; r++) jar[r] -= d->efc_aref[r];
}

void gs_mulJT(const gsModel* m, const gsData* d, gsReal* x, const gsReal* y) {
  gs_zero(x, m->nv);
  for (int r = 0; r < d->nefc; r++) {
    if (y[r] == 0) continue;
    const int* c = d->efc_J_colind + d->efc_J_rowadr[r];
    const gsReal* v = d->efc_J + d->efc_J_rowadr[r];
    for (int k = 0; k < d->efc_J_rownnz[r]; k++) x[c[k]] += v[k] * y[r];
  }
}
