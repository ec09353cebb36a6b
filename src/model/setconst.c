/* What is defined at the default configuration qpos0, computed in one place for the compiler and
 * for gs_setConst (MuJoCo's mj_setConst), which recomputes it after model fields were edited:
 * subtree masses, the inverse weights, the mean inertia, camera and light frames, tendon and
 * actuator lengths and gains, equality anchors. Length ranges, which simulate, are the
 * compiler's alone. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/math.h"
#include "dynamics/dynamics.h"
#include "gauss/gauss.h"
#include "model/compile.h"
#include "pipeline/pipeline.h"

void gs_compileSubtreeMass(gsModel* m) {
  /* leaves first: children come after their parents in the numbering */
  for (int b = 0; b < m->nbody; b++) m->body_subtreemass[b] = m->body_mass[b];
  for (int b = m->nbody - 1; b > 0; b--) m->body_subtreemass[m->body_parentid[b]] += m->body_subtreemass[b];
}

/* The "end-effector" inverse inertias at qpos0 from which the constraint stage approximates the
 * diagonal of J M^-1 J^T (seed 000 eq. 27): per dof, the diagonal of M^-1, averaged over the
 * translational and the rotational part of free joints and over ball joints; per body, the mean
 * diagonal of J M^-1 J^T for the translation and the rotation of its centre of mass. */
/* [first, end) of the dofs of each dof's kinematic tree (contiguous): the solves with M below touch
 * only those, so that the cost grows with the trees' sizes, not with nv^2 */
static void tree_ranges(const gsModel* m, int* first, int* end) {
  for (int i = 0; i < m->nv;) {
    int root = m->body_rootid[m->dof_bodyid[i]], e = i;
    while (e < m->nv && m->body_rootid[m->dof_bodyid[e]] == root) e++;
    for (int k = i; k < e; k++) first[k] = i, end[k] = e;
    i = e;
  }
}

static int invweight0(gsCompileCtx* c, gsModel* m, gsData* d) {
  int nv = m->nv;
  gsReal* x = calloc((size_t)(7 * nv + 1), sizeof(gsReal));
  int* range = malloc(sizeof(int) * (size_t)(2 * nv + 1));
  if (!x || !range) {
    free(x);
    free(range);
    return gs_compileFail(c, NULL, "model", "out of memory");
  }
  int *first = range, *end = range + nv;
  tree_ranges(m, first, end);
  gsReal *jac = x + nv, *minvdiag = x;  /* minvdiag first, reused below */
  for (int i = 0; i < nv; i++) {
    /* (M^-1)_ii from M^-1 e_i, on i's tree; jac is zero outside the range written last */
    gsReal* e = jac;
    e[i] = 1;
    gs_solveLTDLRange(m, d->qLD, d->qLDiagInv, e, first[i], end[i]);
    minvdiag[i] = e[i];
    gs_zero(e + first[i], end[i] - first[i]);
  }
  for (int j = 0; j < m->njnt; j++) {
    int a = m->jnt_dofadr[j], type = m->jnt_type[j];
    if (type == GS_JNT_FREE || type == GS_JNT_BALL) {
      for (int part = 0; part < (type == GS_JNT_FREE ? 2 : 1); part++) {
        int s = a + 3 * part;
        gsReal mean = (minvdiag[s] + minvdiag[s + 1] + minvdiag[s + 2]) / 3;
        for (int k = 0; k < 3; k++) m->dof_invweight0[s + k] = mean;
      }
    } else {
      m->dof_invweight0[a] = minvdiag[a];
    }
  }
  gs_zero(m->body_invweight0, 2);
  for (int b = 1; b < m->nbody; b++) {
    gsReal *jp = jac, *jr = jac + 3 * nv, w[2] = {0, 0};
    m->body_invweight0[2 * b] = m->body_invweight0[2 * b + 1] = 0;
    if (!nv || m->body_weldid[b] == 0) continue;  /* welded to the world: never moves */
    if (m->body_slider[b]) {
      gsReal w0 = 1 / m->body_mass[b];
      m->body_invweight0[2 * b] = w0;
      for (int k = 0; k < m->body_dofnum[b]; k++) m->dof_invweight0[m->body_dofadr[b] + k] = w0;
      continue;
    }
    /* the body's Jacobian lies on its tree's dofs: written, solved, read and cleared there */
    int last = gs_bodyLastDof(m, b), a = first[last], n = end[last] - a;
    gs_jacChain(m, d, jp, jr, d->xipos + 3 * b, b);
    for (int r = 0; r < 6; r++) {
      gsReal* row = jac + (size_t)r * nv;
      gs_copy(x + a, row + a, n);
      gs_solveLTDLRange(m, d->qLD, d->qLDiagInv, x, a, a + n);
      w[r / 3] += gs_dot(row + a, x + a, n);
      gs_zero(row + a, n);
      gs_zero(x + a, n);
    }
    m->body_invweight0[2 * b] = w[0] / 3;
    m->body_invweight0[2 * b + 1] = w[1] / 3;
  }
  free(x);
  free(range);
  /* a mass matrix singular at qpos0 (two slides along one axis, a moving body without inertia for
   * one of its dofs) leaves no finite inverse weight: the model cannot be simulated */
  for (int i = 0; i < nv; i++)
    if (!isfinite(m->dof_invweight0[i]) || !(m->dof_invweight0[i] < 1e300))
      return gs_compileFail(c, NULL, "model", "the mass matrix is singular at qpos0 (dof %d of joint %d)",
                            i, m->dof_jntid[i]);
  for (int b = 0; b < 2 * m->nbody; b++)
    if (!isfinite(m->body_invweight0[b]))
      return gs_compileFail(c, NULL, "model", "the mass matrix is singular at qpos0 (body %d)", b / 2);
  return 1;
}

int gs_compileAtQpos0(gsCompileCtx* c, gsModel* m, gsData* d) {
  gs_fwdPositionSmooth(m, d);  /* what qpos0 quantities need; contacts are not among them */
  return invweight0(c, m, d) && gs_compileWorldAtQpos0(c, m, d) && gs_compileActuationAtQpos0(c, m, d) &&
         gs_compileSensingAtQpos0(c, m, d);
}

int gs_setConst(gsModel* m, gsData* d, char* err, int errsz) {
  gsCompileCtx c;
  memset(&c, 0, sizeof(c));
  c.err = err;
  c.errsz = errsz;
  if (err && errsz > 0) err[0] = 0;
  gs_compileSubtreeMass(m);
  for (int b = 1; b < m->nbody; b++) {
    if (m->body_dofnum[b] && !(m->body_subtreemass[b] >= GS_MINVAL))
      return gs_compileFail(&c, NULL, "body", "body %d moves but its subtree has mass %g: M would be singular",
                            b, m->body_subtreemass[b]);
  }
  gs_resetData(m, d);
  int ok = gs_compileAtQpos0(&c, m, d);
  gs_resetData(m, d);
  return ok;
}
