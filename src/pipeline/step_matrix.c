/* The matrix of each integrator's velocity update in qM's tree storage: Euler's M + h B with the
 * joint damping treated implicitly, implicitfast's and implicit's M - h dF/dv. The integrators
 * solve with it; the discrete-time inverse (invdiscrete) multiplies by it. */
#include <string.h>

#include "core/arena.h"
#include "core/math.h"
#include "core/pair.h"
#include "dynamics/dynamics.h"
#include "pipeline/pipeline.h"

/* number of ancestor dofs: the stored length of the dof's row of M, less the diagonal */
static int dof_depth(const gsModel* m, int i) { return gs_rowLen(m, i) - 1; }

/* H = M + h B in qM's storage, B the joint damping (none when the damper flag is off), and with
 * tendons (the implicit integrators) the tendons' damping b J^T J, kept to M's tree pattern as
 * MJCF keeps it; Euler's implicit damping is the joints' alone, as MJCF's */
static void damped_mass(const gsModel* m, const gsData* d, gsReal* H, int tendons) {
  memcpy(H, d->qM, sizeof(gsReal) * (size_t)m->nM);
  if (!(m->opt.disableflags & GS_DSBL_DAMPER)) {
    for (int i = 0; i < m->nv; i++) H[m->dof_Madr[i]] += m->opt.timestep * m->dof_damping[i];
    if (tendons) gs_addTendonTree(m, d->ten_J, m->tendon_damping, m->opt.timestep, H);
  }
}

static int has_damping(const gsModel* m) {
  if (m->opt.disableflags & GS_DSBL_DAMPER) return 0;
  for (int i = 0; i < m->nv; i++)
    if (m->dof_damping[i] > 0) return 1;
  return 0;
}

/* Subtracts h d(qfrc_actuator)/d(qvel) = h sum_i dforce_i/dvelocity_i moment_i^T moment_i (affine
 * gains and biases in the velocity) from the tree-pattern matrix H, symmetric: products of two
 * dofs neither of which is an ancestor of the other lie outside the pattern and are left out, as
 * MJCF's implicit-fast integrator leaves out what lies outside the pattern of M. MuJoCo's
 * implicit-fast also leaves out the couplings between the dofs of a "simple" body (below), whose
 * part of M is diagonal and stored so: drop_simple does the same. */

/* MuJoCo's simple bodies, found by experiment with its compiler: a leaf child of the world whose
 * inertial frame is its body frame, with joints at the body origin, slides with orthogonal axes,
 * and at most one rotational joint, the last */
static int simple_body(const gsModel* m, int b) {
  if (m->body_parentid[b] != 0 || m->body_sameframe[b] != GS_SAMEFRAME_BODY) return 0;
  if (b + 1 < m->nbody && m->body_parentid[b + 1] == b) return 0;  /* children follow at once */
  int adr = m->body_jntadr[b], n = m->body_jntnum[b];
  for (int k = adr; k < adr + n; k++) {
    const gsReal* p = m->jnt_pos + 3 * k;
    if (p[0] != 0 || p[1] != 0 || p[2] != 0) return 0;
    if (m->jnt_type[k] != GS_JNT_SLIDE) {
      if (k != adr + n - 1) return 0;
      continue;
    }
    for (int l = adr; l < k; l++)
      if (fabs(gs_dot3(m->jnt_axis + 3 * k, m->jnt_axis + 3 * l)) > GS_MINVAL) return 0;
  }
  return 1;
}

static void add_actuator_damping(const gsModel* m, const gsData* d, gsReal* H, gsReal h,
                                 int drop_simple) {
  for (int i = 0; i < m->nu; i++) {
    gsReal g;
    if (!gs_actuatorVelocityGain(m, d, i, &g)) continue;
    int adr = d->moment_rowadr[i], n = d->moment_rownnz[i];
    const int* col = d->moment_colind + adr;
    const gsReal* mom = d->actuator_moment + adr;
    /* columns ascend: for a pair a > b, b is an ancestor of a or outside the pattern */
    for (int p = 0; p < n; p++) {
      int a = col[p], madr = m->dof_Madr[a], b = a, k = 0;
      int simple = drop_simple && simple_body(m, m->dof_bodyid[a]);
      for (int q = p; q >= 0; q--) {
        while (b > col[q]) b = m->dof_parentid[b], k++;
        if (b == col[q] && (k == 0 || !simple)) H[madr + k] -= h * g * mom[p] * mom[q];
        if (b < 0) break;
      }
    }
  }
}

/* Central differences of the bias force c(q, v) in one velocity, v_j = value, on a base pass at v:
 * perturbing v_j moves the bodies of dof j's subtree (from its body on: a range of bodies in
 * MJCF's depth-first order) and, through their forces, its ancestors' summed forces; every other
 * body keeps the base pass's values. So only those are worked out again, each with the same
 * operations in the same order as a whole pass at the perturbed v would take (a body's
 * velocity from its parent's, the accelerations, its own force, then each body's sum of its own
 * force and its children's in descending order): the same values, at a subtree's and a path's
 * cost instead of the whole model's. */
typedef struct {
  gsReal *v, *cvel0, *cdd0, *cacc0, *own0, *cfrc0;  /* the base pass */
  gsReal *cvel1, *cdd1, *cacc1, *cfrc1, *anc;       /* the perturbed subtree, the ancestors */
  int *last, *chadr, *child;  /* each body's last descendant; children, descending */
} bias_diff;

static void bias_perturbed(const gsModel* m, const gsData* d, bias_diff* w, int j, gsReal value,
                           gsReal* out) {
  int bj = m->dof_bodyid[j], e = w->last[bj];
  gsReal keep = w->v[j];
  w->v[j] = value;
  for (int b = bj; b <= e; b++) {
    int p = m->body_parentid[b];
    const gsReal* pv = (b == bj ? w->cvel0 : w->cvel1) + 6 * p;
    gs_comVelBody(m, w->v, w->cvel1, w->cdd1, d->cdof, pv, b);
    gs_rneBiasAccBody(m, w->cdd1, w->v, (b == bj ? w->cacc0 : w->cacc1) + 6 * p, w->cacc1, b);
    gs_bodyForce(d->cinert, w->cacc1, w->cvel1, w->cfrc1, b);
  }
  for (int b = e; b > bj; b--) gs_addToPair(w->cfrc1 + 6 * m->body_parentid[b], w->cfrc1 + 6 * b, 6);
  for (int b = bj; b <= e; b++)
    for (int k = m->body_dofadr[b], end = k + m->body_dofnum[b]; k < end; k++)
      out[k] = gs_dot6Pair(d->cdof + 6 * k, w->cfrc1 + 6 * b);
  const gsReal* moved = w->cfrc1 + 6 * bj;  /* the path's child's new sum */
  for (int c = bj, a = m->body_parentid[bj]; a > 0; c = a, a = m->body_parentid[a]) {
    gsReal* f = w->anc + 6 * a;
    memcpy(f, w->own0 + 6 * a, 6 * sizeof(gsReal));
    for (int t = w->chadr[a]; t < w->chadr[a + 1]; t++) {
      int ch = w->child[t];
      gs_addToPair(f, ch == c ? moved : w->cfrc0 + 6 * ch, 6);
    }
    for (int k = m->body_dofadr[a], end = k + m->body_dofnum[a]; k < end; k++)
      out[k] = gs_dot6Pair(d->cdof + 6 * k, f);
    moved = f;
  }
  w->v[j] = keep;
}

/* the base pass and the bodies' tables; 0 when the arena has no room or the bodies are not in
 * depth-first order (a subtree not a range: each column then takes whole passes) */
static int bias_base(const gsModel* m, gsData* d, bias_diff* w) {
  int nv = m->nv, nb = m->nbody;
  size_t b6 = sizeof(gsReal) * 6 * (size_t)nb, v6 = sizeof(gsReal) * 6 * (size_t)nv;
  w->v = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nv);
  w->cvel0 = gs_arenaAlloc(d, b6), w->cdd0 = gs_arenaAlloc(d, v6);
  w->cacc0 = gs_arenaAlloc(d, 2 * b6), w->own0 = gs_arenaAlloc(d, b6);
  w->cfrc0 = w->cacc0 ? w->cacc0 + 6 * (size_t)nb : NULL;  /* gs_rneOf's scratch: both at once */
  gsReal* bias = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nv);
  w->cvel1 = gs_arenaAlloc(d, b6), w->cdd1 = gs_arenaAlloc(d, v6);
  w->cacc1 = gs_arenaAlloc(d, b6), w->cfrc1 = gs_arenaAlloc(d, b6), w->anc = gs_arenaAlloc(d, b6);
  w->last = gs_arenaAlloc(d, sizeof(int) * (size_t)nb);
  w->chadr = gs_arenaAlloc(d, sizeof(int) * ((size_t)nb + 1));
  w->child = gs_arenaAlloc(d, sizeof(int) * (size_t)nb);
  if (!w->v || !w->cvel0 || !w->cdd0 || !w->cacc0 || !w->own0 || !w->cfrc0 || !w->cvel1 ||
      !w->cdd1 || !w->cacc1 || !w->cfrc1 || !w->anc || !w->last || !w->chadr || !w->child || !bias)
    return 0;
  /* depth-first: each body's parent is the body before it or one of that body's ancestors */
  for (int b = 2; b < nb; b++) {
    int a = b - 1, p = m->body_parentid[b];
    while (a > p) a = m->body_parentid[a];
    if (a != p) return 0;
  }
  for (int b = 0; b < nb; b++) w->last[b] = b, w->chadr[b] = 0;
  for (int b = nb - 1; b > 0; b--) {
    int p = m->body_parentid[b];
    if (w->last[b] > w->last[p]) w->last[p] = w->last[b];
    w->chadr[p]++;
  }
  /* children lists, each in descending order (the whole pass adds them so) */
  int total = 0;
  for (int b = 0; b < nb; b++) {
    int n = w->chadr[b];
    w->chadr[b] = total;
    total += n;
  }
  w->chadr[nb] = total;
  for (int b = nb - 1; b > 0; b--) w->child[w->chadr[m->body_parentid[b]]++] = b;
  for (int b = nb - 1; b > 0; b--) w->chadr[b] = w->chadr[b - 1];
  w->chadr[0] = 0;
  /* the base pass: gs_rneOf without gravity (its accelerations and summed forces kept in its
   * scratch), and the bodies' own forces again from them */
  memcpy(w->v, d->qvel, sizeof(gsReal) * (size_t)nv);
  gs_comVelOf(m, w->v, w->cvel0, w->cdd0, d->cdof);
  gs_rneOf(m, d, w->cvel0, w->cdd0, w->v, NULL, 0, w->cacc0, bias);
  gs_bodyForces(m, d->cinert, w->cacc0, w->cvel0, NULL, w->own0);
  return 1;
}

/* Adds h d(qfrc_bias)/d(qvel) to the tree-pattern matrix (R rows, C columns). c(q, v) is a
 * quadratic form in v, so the central difference with a unit step is exact up to rounding:
 * c(v + e_j) - c(v - e_j) = 2 (dc/dv) e_j. Column j is non-zero only at j's ancestors and
 * descendants; the descendants of dof j are the dofs after it that are deeper in the tree. Each
 * difference from bias_perturbed (the subtree and the path), or, where the bodies are not in
 * depth-first order, from whole passes (the same values either way). */
static int add_bias_derivative(const gsModel* m, gsData* d, gsReal* R, gsReal* C, gsReal h) {
  int nv = m->nv, nb = m->nbody;
  gsReal* cp = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nv);
  gsReal* cm = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nv);
  if (!cp || !cm) return 0;
  bias_diff w;
  int local = bias_base(m, d, &w);
  gsReal *v = w.v, *cvel = w.cvel1, *cdd = w.cdd1, *scratch = NULL;
  if (!local) {
    v = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nv);
    cvel = gs_arenaAlloc(d, sizeof(gsReal) * 6 * (size_t)nb);
    cdd = gs_arenaAlloc(d, sizeof(gsReal) * 6 * (size_t)nv);
    scratch = gs_arenaAlloc(d, sizeof(gsReal) * 12 * (size_t)nb);
    if (!v || !cvel || !cdd || !scratch) return 0;
    memcpy(v, d->qvel, sizeof(gsReal) * (size_t)nv);
  }
  for (int j = 0; j < nv; j++) {
    gsReal vj = d->qvel[j];
    if (local) {
      bias_perturbed(m, d, &w, j, vj + 1, cp);
      bias_perturbed(m, d, &w, j, vj - 1, cm);
    } else {
      v[j] = vj + 1;
      gs_comVelOf(m, v, cvel, cdd, d->cdof);
      gs_rneOf(m, d, cvel, cdd, v, NULL, 0, scratch, cp);
      v[j] = vj - 1;
      gs_comVelOf(m, v, cvel, cdd, d->cdof);
      gs_rneOf(m, d, cvel, cdd, v, NULL, 0, scratch, cm);
      v[j] = vj;
    }
    /* column j: diagonal, ancestors (stored in C of j), descendants (stored in R of each) */
    int adr = m->dof_Madr[j], depth = dof_depth(m, j);
    R[adr] += h * 0.5 * (cp[j] - cm[j]);
    int t = 1;
    for (int a = m->dof_parentid[j]; a >= 0; a = m->dof_parentid[a], t++) C[adr + t] += h * 0.5 * (cp[a] - cm[a]);
    for (int i = j + 1; i < nv && dof_depth(m, i) > depth; i++)
      R[m->dof_Madr[i] + dof_depth(m, i) - depth] += h * 0.5 * (cp[i] - cm[i]);
  }
  return 1;
}

/* the matrix H of the velocity update H (qvel' - qvel) / h = force, in qM's tree storage:
 * Euler's M + h B (joint damping; 0 when Euler has none to treat implicitly: H = M), implicitfast's
 * M - h dF/dv with the damping part of dF/dv (symmetric, R), implicit's with the velocity
 * derivative of the bias force too (R lower, C upper); 0 for RK4 (no such matrix) */
int gs_stepMatrix(const gsModel* m, gsData* d, int integrator, gsReal* R, gsReal* C) {
  gsReal h = m->opt.timestep;
  switch (integrator) {
    case GS_INT_IMPLICIT:
    case GS_INT_IMPLICITFAST: {
      int full = integrator == GS_INT_IMPLICIT;
      damped_mass(m, d, R, 1);
      add_actuator_damping(m, d, R, h, !full);
      if (!full) {
        /* fluid forces' velocity derivative, symmetric form (dynamics/fluid.c) */
        return gs_fluidDerivative(m, d, h, R, NULL) ? 1 : -1;
      }
      memcpy(C, R, sizeof(gsReal) * (size_t)m->nM);
      if (!add_bias_derivative(m, d, R, C, h)) return -1;
      /* fluid forces' velocity derivative (dynamics/fluid.c) */
      return gs_fluidDerivative(m, d, h, R, C) ? 2 : -1;
    }
    case GS_INT_RK4: return 0;
    default:
      if ((m->opt.disableflags & GS_DSBL_EULERDAMP) || !has_damping(m)) return 0;
      damped_mass(m, d, R, 0);
      return 1;
  }
}

