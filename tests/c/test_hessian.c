/* The primal solvers' Hessian factor (src/constraint/hessian.c) on a heap of free bodies with a
 * hinge chain and a tendon across trees: for random sets of active rows, the dense and the sparse
 * (tree-block) factor solve H x = b with H = M + sum_active D J^T J to rounding, checked by the
 * residual computed from M and J directly; rank-1 updates and downdates from one set to another
 * give the solution of a factor built from scratch. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/hessian.h"
#include "dynamics/dynamics.h"
#include "gauss/gauss.h"

#include "check.h"

static gsModel* heap(void) {
  char xml[16384], *p = xml;
  p += sprintf(p, "<mujoco><worldbody><geom type='plane' size='5 5 .1'/>");
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 2; k++)
        p += sprintf(p, "<body pos='%g %g %g'><freejoint/><geom size='.05'/>%s</body>",
                     i * 0.098, j * 0.098, 0.049 + k * 0.098,
                     i == 0 && j == 0 && k == 1 ? "<site name='s0'/>" : "");
  p += sprintf(p,
               "<body pos='.1 .1 .24'><joint type='hinge' axis='0 1 0'/>"
               "<geom type='capsule' fromto='0 0 0 .2 0 0' size='.03'/><site name='s1' pos='.2 0 0'/>"
               "<body pos='.2 0 0'><joint type='hinge' axis='0 1 0'/>"
               "<geom type='capsule' fromto='0 0 0 .2 0 0' size='.03'/></body></body>");
  p += sprintf(p, "</worldbody><tendon><spatial limited='true' range='0 .01'><site site='s0'/>"
                  "<site site='s1'/></spatial></tendon></mujoco>");
  char err[1024];
  gsModel* m = gs_loadXMLString(xml, err, sizeof(err));
  if (!m) printf("load: %s\n", err);
  return m;
}

static unsigned rng = 12345;
static double uniform(void) {
  rng = rng * 1103515245u + 12345u;
  return ((rng >> 8) & 0xffffff) / (double)0x1000000;
}

static void assemble(const gsModel* m, gsData* d, gsHessian* h, const int* active) {
  gs_hessianSetM(m, d, h);
  for (int r = 0; r < d->nefc; r++)
    if (active[r]) {
      const gsReal* v = d->efc_J + d->efc_J_rowadr[r];
      gs_hessianAddOuter(h, d->efc_J_colind + d->efc_J_rowadr[r], d->efc_J_rownnz[r], v, v,
                         d->efc_D[r]);
    }
}

/* |H x - b| / |b| with H applied from qM and the rows */
static double residual(const gsModel* m, gsData* d, const int* active, const gsReal* x,
                       const gsReal* b, gsReal* tmp) {
  gs_mulM(m, d, tmp, x);
  for (int r = 0; r < d->nefc; r++) {
    if (!active[r]) continue;
    const int* c = d->efc_J_colind + d->efc_J_rowadr[r];
    const gsReal* v = d->efc_J + d->efc_J_rowadr[r];
    gsReal s = 0;
    for (int k = 0; k < d->efc_J_rownnz[r]; k++) s += v[k] * x[c[k]];
    for (int k = 0; k < d->efc_J_rownnz[r]; k++) tmp[c[k]] += d->efc_D[r] * s * v[k];
  }
  double e = 0, n = 0;
  for (int i = 0; i < m->nv; i++) e += (tmp[i] - b[i]) * (tmp[i] - b[i]), n += b[i] * b[i];
  return sqrt(e / n);
}

int main(void) {
  gsModel* m = heap();
  CHECK(m != NULL, "heap loads");
  if (!m) return CHECK_SUMMARY();
  gsData* d = gs_makeData(m);
  gs_forward(m, d);
  int nv = m->nv, nefc = d->nefc;
  CHECK(nefc > 100, "the heap has rows (%d)", nefc);
  int *a1 = calloc((size_t)nefc, sizeof(int)), *a2 = calloc((size_t)nefc, sizeof(int));
  gsReal *b = calloc((size_t)nv, sizeof(gsReal)), *x = calloc((size_t)nv, sizeof(gsReal));
  gsReal *xs = calloc((size_t)nv, sizeof(gsReal)), *tmp = calloc((size_t)nv, sizeof(gsReal));
  for (int i = 0; i < nv; i++) b[i] = uniform() - 0.5;

  for (int trial = 0; trial < 20; trial++) {
    for (int r = 0; r < nefc; r++) a1[r] = uniform() < 0.5;
    /* a few rows change: in and out */
    int nchange = 1 + trial % 7;
    memcpy(a2, a1, sizeof(int) * (size_t)nefc);
    for (int k = 0; k < nchange; k++) {
      int r = (int)(uniform() * nefc) % nefc;
      a2[r] = !a2[r];
    }
    for (int sparse = 0; sparse < 2; sparse++) {
      size_t mark = gs_stackMark(d);
      gsHessian h;
      CHECK(gs_hessianSetup(m, d, &h, sparse), "setup");
      CHECK(sparse ? h.nblk == 19 : h.nblk == 1, "blocks: one per tree when sparse (%d)", h.nblk);
      assemble(m, d, &h, a1);
      CHECK(gs_hessianFactor(&h), "factor");
      memcpy(x, b, sizeof(gsReal) * (size_t)nv);
      gs_hessianSolve(&h, x);
      double e1 = residual(m, d, a1, x, b, tmp);
      CHECK(e1 < 1e-12, "trial %d sparse %d: residual %g", trial, sparse, e1);
      /* updates first, then downdates */
      int ok = 1;
      for (int pass = 0; pass < 2; pass++)
        for (int r = 0; r < nefc && ok; r++) {
          if (a1[r] == a2[r] || a2[r] != (pass == 0)) continue;
          int n = d->efc_J_rownnz[r];
          gsReal v[64];
          for (int k = 0; k < n; k++) v[k] = sqrt(d->efc_D[r]) * d->efc_J[d->efc_J_rowadr[r] + k];
          ok = gs_hessianUpdate(&h, d->efc_J_colind + d->efc_J_rowadr[r], n, v, a2[r] ? 1 : -1);
        }
      CHECK(ok, "trial %d sparse %d: updates succeed", trial, sparse);
      memcpy(x, b, sizeof(gsReal) * (size_t)nv);
      gs_hessianSolve(&h, x);
      double e2 = residual(m, d, a2, x, b, tmp);
      CHECK(e2 < 1e-10, "trial %d sparse %d: residual after updates %g", trial, sparse, e2);
      /* the dense and the sparse path agree */
      if (!sparse) {
        memcpy(xs, x, sizeof(gsReal) * (size_t)nv);
      } else {
        double diff = 0, nx = 0;
        for (int i = 0; i < nv; i++) diff = fmax(diff, fabs(x[i] - xs[i])), nx = fmax(nx, fabs(xs[i]));
        CHECK(diff <= 1e-10 * nx, "trial %d: dense and sparse differ by %g", trial, diff);
      }
      gs_stackRelease(d, mark);
    }
  }
  free(a1), free(a2), free(b), free(x), free(xs), free(tmp);
  gs_freeData(d);
  gs_freeModel(m);
  return CHECK_SUMMARY();
}
