/* The soft model's force: from a row's residual to its force and state (force.h). */
#include <math.h>

#include "constraint/constraint.h"
#include "constraint/force.h"
#include "core/math.h"

void gs_constraintForce(const gsModel* m, gsData* d, const gsReal* jar, gsReal* force, int* state,
                        gsReal* cost) {
  gsReal total = 0;
  for (int r = 0; r < d->nefc;) r += gs_rowForce(d, r, jar, force, state, &total);
  (void)m;
  if (cost) *cost = total;
}

/* Euclidean projection on the circular cone y0 >= |y_t| (n values) */
void gs_projectCone(gsReal* y, int n) {
  gsReal t = 0;
  for (int j = 1; j < n; j++) t += y[j] * y[j];
  t = sqrt(t);
  if (t <= y[0]) return;
  if (t <= -y[0]) {
    for (int j = 0; j < n; j++) y[j] = 0;
    return;
  }
  gsReal s = 0.5 * (y[0] + t);
  y[0] = s;
  for (int j = 1; j < n; j++) y[j] *= s / t;
}

/* Euclidean projection on the ball |y| <= radius (n values) */
void gs_projectBall(gsReal* y, int n, gsReal radius) {
  gsReal t = sqrt(gs_dot(y, y, n));
  if (t > radius) {
    for (int j = 0; j < n; j++) y[j] = t > 0 ? y[j] * radius / t : 0;
  }
}

/* the force of contact i in its frame from its rows (gauss.h) */
void gs_contactForce(const gsModel* m, const gsData* d, int i, gsReal result[6]) {
  for (int k = 0; k < 6; k++) result[k] = 0;
  if (i < 0 || i >= d->ncon) return;
  const gsContact* c = d->contact + i;
  int r = c->efc_address;
  if (r < 0 || r >= d->nefc) return;
  const gsReal* f = d->efc_force + r;
  if (c->dim == 1 || d->efc_type[r] == GS_CNSTR_CONTACT_ELLIPTIC) {
    for (int k = 0; k < c->dim; k++) result[k] = f[k];
    return;
  }
  /* pyramid edges: the normal force is their sum, friction j the weighted difference of pair j */
  int n = gs_contactRows(m, c);
  for (int k = 0; k < n; k++) result[0] += f[k];
  for (int j = 1; j < c->dim; j++) result[j] = c->friction[j - 1] * (f[2 * j - 2] - f[2 * j - 1]);
}
