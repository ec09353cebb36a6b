/* The noslip pass (MJCF's noslip_iterations): after the main solver, the friction dimensions
 * are re-solved on the dual of dual.h with R = 0 and the normal forces held, which removes the
 * slip the soft model allows. */
#include <string.h>

#include "constraint/constraint.h"
#include "core/arena.h"
#include "core/math.h"
#include "solver/dual.h"
#include "solver/solver.h"

int gs_solveNoslip(const gsModel* m, gsData* d) {
  size_t mark = gs_arenaMark(d);
  gsDual w;
  if (!gs_dualSetup(m, d, &w, 0)) {
    gs_arenaRelease(d, mark);
    return -1;
  }
  /* start from the main solver's forces, which efc_force holds */
  gs_dualAccumulate(d, &w, m->nv);
  gsReal scale = gs_solverScale(m);
  int iter = 0;
  for (; iter < m->opt.noslip_iterations; iter++) {
    gsReal change = 0;
    for (int r = 0; r < d->nefc;) {
      int type = d->efc_type[r];
      if (type == GS_CNSTR_FRICTION_DOF || type == GS_CNSTR_FRICTION_TENDON) {
        change += gs_dualRowUpdate(d, &w, r, 0);
        r++;
      } else if (type == GS_CNSTR_CONTACT_ELLIPTIC) {
        int n = d->contact[d->efc_id[r]].dim;
        if (n > 1) change += gs_dualBlockUpdate(d, &w, r, n, 1);
        r += n;
      } else if (type == GS_CNSTR_CONTACT_PYRAMIDAL) {
        /* each pair of opposite edges: their sum (the normal force) held, their difference
         * (the friction force) re-solved within [-sum, sum] */
        int n = gs_contactRows(m, d->contact + d->efc_id[r]);
        for (int p = r; p < r + n; p += 2) {
          gsReal A = w.diag[p] + w.diag[p + 1] - 2 * gs_dualRowProduct(&w, p, p + 1);
          if (A <= GS_MINVAL) continue;
          gsReal g = gs_dualRowGrad(&w, p) - gs_dualRowGrad(&w, p + 1);
          gsReal f1 = d->efc_force[p], f2 = d->efc_force[p + 1], sum = f1 + f2;
          /* f1 = (sum + t)/2, f2 = (sum - t)/2; the cost in t has curvature A/4 and slope g/2 */
          gsReal t = f1 - f2, tn = t - 2 * g / A;
          tn = tn < -sum ? -sum : tn > sum ? sum : tn;
          gsReal dt = tn - t;
          gs_dualApply(d, &w, p, 0.5 * dt);
          gs_dualApply(d, &w, p + 1, -0.5 * dt);
          change += 0.5 * g * dt + 0.125 * A * dt * dt;
        }
        r += n;
      } else {
        r++;
      }
    }
    if (-scale * change < m->opt.noslip_tolerance) {
      iter++;
      break;
    }
  }
  gs_dualFinish(m, d, NULL, 0);
  gs_arenaRelease(d, mark);
  return iter;
}
