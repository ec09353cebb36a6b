/* The fluid interaction of geoms (geom_fluid): the flag and coefficients of the ellipsoid model
 * and the added (virtual) mass and inertia of the equivalent ellipsoid per unit fluid density.
 *
 * Potential flow around an ellipsoid of semi-axes r (doc "Fluid forces", after Tuckerman 1925):
 *   kappa_i = int_0^inf r_i r_j r_k / sqrt((r_i^2 + l)^3 (r_j^2 + l) (r_k^2 + l)) dl,
 *   m_A,i = V kappa_i / (2 - kappa_i),
 *   I_A,i = V/5 (r_j^2 - r_k^2)^2 (kappa_k - kappa_j) / (2 (r_j^2 - r_k^2) + (r_j^2 + r_k^2)(kappa_j - kappa_k)),
 * V = 4/3 pi r_x r_y r_z. MJCF's compiler evaluates kappa by 15-point Gauss-Kronrod quadrature
 * on x in [0, 1] after l = s x^3 / (1 - x)^2 (s = (r_i^3 r_j r_k)^(2/5), which makes l
 * dimensionless against r^2), with the Kronrod nodes and weights rounded to 8 decimals; the same
 * rule with the same rounding gives its numbers to the last digits (its error against the exact integral is
 * near 4e-7 relative: a sphere's kappa is 2/3 exactly). */
#include <math.h>
#include <string.h>

#include "core/math.h"
#include "dynamics/dynamics.h"
#include "model/compile.h"

static gsReal kappa(gsReal rx, gsReal ry, gsReal rz) {
  /* the Kronrod nodes mapped to [0, 1], x = (1 + t) / 2, and the weights of the rule on [0, 1],
   * both rounded to 8 decimals as MJCF's compiler has them */
  static const double kNode[15] = {0.00427231, 0.02544604, 0.06756779, 0.12923441, 0.20695638,
                                   0.29707742, 0.39610752, 0.5,        0.60389248, 0.70292258,
                                   0.79304362, 0.87076559, 0.93243221, 0.97455396, 0.99572769};
  static const double kWeight[15] = {0.01146766, 0.03154605, 0.05239501, 0.07032663, 0.08450236,
                                     0.09517529, 0.10221647, 0.10474107, 0.10221647, 0.09517529,
                                     0.08450236, 0.07032663, 0.05239501, 0.03154605, 0.01146766};
  gsReal ix = 1 / (rx * rx), iy = 1 / (ry * ry), iz = 1 / (rz * rz);
  gsReal s = pow(rx * rx * rx * ry * rz, 0.4), sum = 0;
  for (int k = 0; k < 15; k++) {
    gsReal x = kNode[k];
    gsReal l = x * x * x / ((1 - x) * (1 - x)) * s;
    gsReal dl = x * x * (3 - x) / ((1 - x) * (1 - x) * (1 - x)) * s;  /* dl/dx */
    gsReal a = 1 + l * ix;
    sum += dl / (a * sqrt(a * (1 + l * iy) * (1 + l * iz))) * kWeight[k];
  }
  return sum * ix;
}

/* V/5 times the factor of the virtual moment about the axis whose two others are (rj, kj), (rk, kk);
 * both numerator and denominator change sign together: their magnitudes, the denominator kept
 * away from zero */
static gsReal inertia_factor(gsReal rj, gsReal rk, gsReal kj, gsReal kk) {
  gsReal d2 = rj * rj - rk * rk;
  return d2 * d2 * fabs(kk - kj) / fmax(GS_MINVAL, fabs(2 * d2 + (rj * rj + rk * rk) * (kj - kk)));
}

void gs_compileGeomFluid(const gsSpecGeom* sg, int type, const gsReal size[3], gsReal out[GS_NFLUID]) {
  memset(out, 0, sizeof(gsReal) * GS_NFLUID);
  if (sg->fluidshape != 1) return;
  gsReal r[3];
  gs_geomSemiAxes(type, size, r);
  gsReal V = 4.0 / 3.0 * GS_PI * r[0] * r[1] * r[2];
  /* kappa is symmetric in its last two arguments */
  gsReal k[3] = {kappa(r[0], r[1], r[2]), kappa(r[1], r[2], r[0]), kappa(r[2], r[0], r[1])};
  out[0] = 1;
  for (int i = 0; i < 5; i++) out[1 + i] = sg->fluidcoef[i];
  for (int i = 0; i < 3; i++) {
    int j = (i + 1) % 3, l = (i + 2) % 3;
    out[6 + i] = V * k[i] / fmax(GS_MINVAL, 2 - k[i]);
    out[9 + i] = V * inertia_factor(r[j], r[l], k[j], k[l]) / 5;
  }
}
