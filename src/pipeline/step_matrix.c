/* The matrix of each integrator's velocity update in qM's tree storage: Euler's M + h B with the
 * joint damping treated implicitly, implicitfast's and implicit's M - h dF/dv. The integrators
 * solve with it; the discrete-time inverse (invdiscrete) multiplies by it. */
#include <string.h>

#include "core/arena.h"
#include "core/math.h"
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

/* Adds h d(qfrc_bias)/d(qvel) to the tree-pattern matrix (R rows, C columns). c(q, v) is a
 * quadratic form in v, so the central difference with a unit step is exact up to rounding:
 * c(v + e_j) - c(v - e_j) = 2 (dc/dv) e_j. Column j is non-zero only at j's ancestors and
 * descendants; the descendants of dof j are the dofs after it that are deeper in the tree.
 *
 * The dofs' trees (a root dof, without a parent dof, and its descendants: consecutive dofs) do not
 * see each other's velocities: no body force of one reaches another's dofs (the world's force is
 * read by none). So the k-th dof of every tree is perturbed in one pass, and each tree's column
 * read from it takes the same operations on the same numbers as a pass of its own: the same
 * values, in passes as many as the largest tree has dofs instead of nv (MuJoCo's 100 humanoids,
 * 27 passes for 2700 dofs: its implicit step ~30x MuJoCo's time before). */
static int add_bias_derivative(const gsModel* m, gsData* d, gsReal* R, gsReal* C, gsReal h) {
  int nv = m->nv, nb = m->nbody;
  gsReal* v = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nv);
  gsReal* cp = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nv);
  gsReal* cm = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)nv);
  gsReal* cvel = gs_arenaAlloc(d, sizeof(gsReal) * 6 * (size_t)nb);
  gsReal* cdd = gs_arenaAlloc(d, sizeof(gsReal) * 6 * (size_t)nv);
  gsReal* scratch = gs_arenaAlloc(d, sizeof(gsReal) * 12 * (size_t)nb);
  int* rank = gs_arenaAlloc(d, sizeof(int) * (size_t)nv);  /* a dof's place in its tree */
  if (!v || !cp || !cm || !cvel || !cdd || !scratch || !rank) return 0;
  memcpy(v, d->qvel, sizeof(gsReal) * (size_t)nv);
  int passes = 0, root = 0;
  for (int j = 0; j < nv; j++) {
    int p = m->dof_parentid[j];
    if (p < 0) root = j;
    rank[j] = j - root;
    if (rank[j] >= passes) passes = rank[j] + 1;
    if (p >= 0 && p < root) {  /* a tree not in consecutive dofs (not MJCF's order): one dof a pass */
      for (int i = 0; i < nv; i++) rank[i] = i;
      passes = nv;
      break;
    }
  }
  for (int k = 0; k < passes; k++) {
    for (int j = 0; j < nv; j++)
      if (rank[j] == k) v[j] = d->qvel[j] + 1;
    gs_comVelOf(m, v, cvel, cdd, d->cdof);
    gs_rneOf(m, d, cvel, cdd, v, NULL, 0, scratch, cp);
    for (int j = 0; j < nv; j++)
      if (rank[j] == k) v[j] = d->qvel[j] - 1;
    gs_comVelOf(m, v, cvel, cdd, d->cdof);
    gs_rneOf(m, d, cvel, cdd, v, NULL, 0, scratch, cm);
    for (int j = 0; j < nv; j++) {
      if (rank[j] != k) continue;
      v[j] = d->qvel[j];
      /* column j: diagonal, ancestors (stored in C of j), descendants (stored in R of each) */
      int adr = m->dof_Madr[j], depth = dof_depth(m, j);
      R[adr] += h * 0.5 * (cp[j] - cm[j]);
      int t = 1;
      for (int a = m->dof_parentid[j]; a >= 0; a = m->dof_parentid[a], t++) C[adr + t] += h * 0.5 * (cp[a] - cm[a]);
      for (int i = j + 1; i < nv && dof_depth(m, i) > depth; i++)
        R[m->dof_Madr[i] + dof_depth(m, i) - depth] += h * 0.5 * (cp[i] - cm[i]);
    }
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

