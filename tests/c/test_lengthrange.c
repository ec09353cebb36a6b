/* actuator_lengthrange at compile time (src/model/compile_lengthrange.c), without the Python
 * oracle (tests/python/test_lengthrange.py compares with MuJoCo), so that the sanitizers see it:
 * - a muscle on a hinge with a soft limit settles where the limit's force balances the pushing
 *   force: the penetration is a0 (1 - imp) / (k imp^2) with a0 = accel, imp = solimp's dmax (the
 *   penetration is past its width) and k = 1 / (dmax tc dr)^2 (seed 000's soft constraint at rest);
 * - a tendon from the world to a link on an unlimited hinge: its range is |D - r| .. D + r, the
 *   distances from the fixed site to the circle the moving one describes;
 * - uselimit copies the joint's range; a given range is kept (useexisting); mode none leaves it;
 * - an unlimited muscle is a compile error naming the actuator and its line. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gauss/gauss.h"

#include "check.h"

static const char* kModel =
    "<mujoco>\n"
    "  <compiler angle='radian'>%s</compiler>\n"
    "  <worldbody>\n"
    "    <site name='w' pos='-0.2 0 0.3'/>\n"
    "    <body>\n"
    "      <joint name='h' axis='0 1 0' %s/>\n"
    "      <geom type='capsule' fromto='0 0 0 0.5 0 0' size='0.05'/>\n"
    "      <site name='tip' pos='0.3 0 0.1'/>\n"
    "    </body>\n"
    "  </worldbody>\n"
    "  <tendon><spatial name='t'><site site='w'/><site site='tip'/></spatial></tendon>\n"
    "  <actuator>\n"
    "    %s\n"
    "  </actuator>\n"
    "</mujoco>\n";

static gsModel* load(const char* compiler, const char* joint, const char* act, char* err, int n) {
  char xml[2048];
  snprintf(xml, sizeof(xml), kModel, compiler, joint, act);
  return gs_loadXMLString(xml, err, n);
}

int main(void) {
  char err[1024];
  /* soft limit at rest */
  gsModel* m = load("", "range='-1 0.5' solreflimit='0.1 1'", "<muscle joint='h'/>", err, sizeof(err));
  CHECK(m != NULL, "soft limit model loads: %s", err);
  if (m) {
    double imp = 0.95, k = 1 / ((0.95 * 0.1) * (0.95 * 0.1)), pen = 20 * (1 - imp) / (k * imp * imp);
    double* lr = m->actuator_lengthrange;
    CHECK(fabs(lr[0] - (-1 - pen)) < 1e-6 && fabs(lr[1] - (0.5 + pen)) < 1e-6,
          "soft limit range (%.9g, %.9g), want (%.9g, %.9g)", lr[0], lr[1], -1 - pen, 0.5 + pen);
    gs_freeModel(m);
  }

  /* geometry only: the moving site circles the joint with radius r, the fixed one is D away */
  m = load("", "", "<muscle tendon='t'/>", err, sizeof(err));
  CHECK(m != NULL, "tendon model loads: %s", err);
  if (m) {
    double r = hypot(0.3, 0.1), D = hypot(0.2, 0.3);
    double* lr = m->actuator_lengthrange;
    CHECK(fabs(lr[0] - (D - r)) < 1e-3 && fabs(lr[1] - (D + r)) < 1e-3,
          "tendon range (%g, %g), want (%g, %g)", lr[0], lr[1], D - r, D + r);
    gs_freeModel(m);
  }

  /* uselimit, useexisting, mode none */
  m = load("<lengthrange uselimit='true'/>", "range='-1 0.5'",
           "<muscle joint='h' gear='2'/><muscle tendon='t' lengthrange='0.1 0.2'/>", err,
           sizeof(err));
  CHECK(m != NULL, "uselimit model loads: %s", err);
  if (m) {
    double* lr = m->actuator_lengthrange;
    CHECK(lr[0] == -1 && lr[1] == 0.5, "uselimit copies the joint range (%g, %g)", lr[0], lr[1]);
    CHECK(lr[2] == 0.1 && lr[3] == 0.2, "a given range is kept (%g, %g)", lr[2], lr[3]);
    gs_freeModel(m);
  }
  m = load("<lengthrange mode='none'/>", "", "<muscle joint='h'/>", err, sizeof(err));
  CHECK(m != NULL && m->actuator_lengthrange[0] == 0 && m->actuator_lengthrange[1] == 0,
        "mode none computes nothing");
  if (m) gs_freeModel(m);

  /* nothing limits the hinge: the error names the actuator at its line (13) */
  err[0] = 0;
  m = load("", "", "<muscle name='loose' joint='h'/>", err, sizeof(err));
  CHECK(m == NULL, "an unlimited muscle does not compile");
  CHECK(strstr(err, ":13:") && strstr(err, "actuator 'loose'") && strstr(err, "did not converge"),
        "error names the actuator and its line: %s", err);
  if (m) gs_freeModel(m);
  return CHECK_SUMMARY();
}
