/* Sensors against closed forms, without the Python oracle (tests/python/test_sensors.py compares
 * every type with MuJoCo):
 * - a pendulum (hinge about y at height 2, a point-like bob at distance L): jointpos, jointvel,
 *   framepos, velocimeter, gyro, magnetometer and the energies at any state; hanging at rest, the
 *   accelerometer reads +g up and the force sensor the bob's weight, the torque about the bob zero;
 * - a free body in free fall: the accelerometer reads zero; its subtree linear velocity is its
 *   velocity and its angular momentum I w;
 * - a box resting on the floor: the touch sensors of its bottom read its weight, the top's zero;
 * - cutoff and the sensor flag; the clock. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core_util.h"

#include "check.h"

#define G 9.81
#define L 0.7
#define MASS 2.0

static const char* kPendulum =
    "<mujoco><option gravity=\"0 0 -9.81\" magnetic=\"0.3 -0.2 0.5\"/><worldbody>\n"
    "<body pos=\"0 0 2\"><joint name=\"h\" type=\"hinge\" axis=\"0 1 0\"/>\n"
    "<geom size=\".0001\" pos=\"0 0 -0.7\" mass=\"2\" contype=\"0\" conaffinity=\"0\"/>\n"
    "<site name=\"bob\" pos=\"0 0 -0.7\"/></body></worldbody>\n"
    "<sensor><jointpos joint=\"h\"/><jointvel joint=\"h\"/>\n"
    "<framepos objtype=\"site\" objname=\"bob\"/><velocimeter site=\"bob\"/><gyro site=\"bob\"/>\n"
    "<magnetometer site=\"bob\"/><accelerometer site=\"bob\"/><force site=\"bob\"/>\n"
    "<torque site=\"bob\"/><e_potential/><e_kinetic/><clock/>\n"
    "<jointpos joint=\"h\" cutoff=\"0.25\"/><velocimeter site=\"bob\" cutoff=\"0.1\"/></sensor>\n"
    "</mujoco>";

/* sensordata offsets of the pendulum's sensors */
enum { JPOS = 0, JVEL = 1, FPOS = 2, VELO = 5, GYRO = 8, MAGN = 11, ACCEL = 14, FORCE = 17,
       TORQUE = 20, EPOT = 23, EKIN = 24, CLOCK = 25, JPOSCUT = 26, VELOCUT = 27, NDATA = 30 };

static void cross(double r[3], const double a[3], const double b[3]) {
  r[0] = a[1] * b[2] - a[2] * b[1];
  r[1] = a[2] * b[0] - a[0] * b[2];
  r[2] = a[0] * b[1] - a[1] * b[0];
}

static int near(double a, double b, double tol) { return fabs(a - b) <= tol * (1 + fabs(b)); }

static int near3(const double* a, double x, double y, double z, double tol) {
  return near(a[0], x, tol) && near(a[1], y, tol) && near(a[2], z, tol);
}

static void test_pendulum(void) {
  gsModel* m = load_xml(kPendulum);
  CHECK(m != NULL, "pendulum loads");
  if (!m) return;
  CHECK(m->nsensordata == NDATA, "pendulum: %d values", m->nsensordata);
  gsData* d = gs_makeData(m);
  /* the bob's mass is the geom's; its own inertia is that of a 0.1 mm sphere: ~1e-8 of m L^2 */
  const double tol = 1e-5;
  const double states[][2] = {{0.4, -1.3}, {-2.0, 0.5}, {3.0, 2.2}};
  for (int s = 0; s < 3; s++) {
    double q = states[s][0], v = states[s][1], c = cos(q), sn = sin(q);
    d->qpos[0] = q, d->qvel[0] = v, d->time = 0.25 * s;
    gs_forward(m, d);
    const double* x = d->sensordata;
    CHECK(x[JPOS] == q && x[JVEL] == v, "state %d: joint sensors", s);
    /* R_y(q) (0, 0, -L) from the pivot at height 2 */
    CHECK(near3(x + FPOS, -L * sn, 0, 2 - L * c, 1e-14), "state %d: framepos", s);
    /* in the bob's frame the bob moves along -x at L v, and turns about y at v */
    CHECK(near3(x + VELO, -L * v, 0, 0, 1e-14), "state %d: velocimeter %g %g %g", s, x[VELO],
          x[VELO + 1], x[VELO + 2]);
    CHECK(near3(x + GYRO, 0, v, 0, 1e-14), "state %d: gyro", s);
    /* the field in the bob's frame: R_y(q)^T b */
    const double b[3] = {0.3, -0.2, 0.5};
    CHECK(near3(x + MAGN, c * b[0] - sn * b[2], b[1], sn * b[0] + c * b[2], 1e-14),
          "state %d: magnetometer", s);
    CHECK(near(x[EPOT], MASS * G * (2 - L * c), tol), "state %d: potential %g", s, x[EPOT]);
    CHECK(near(x[EKIN], 0.5 * MASS * L * L * v * v, tol), "state %d: kinetic %g", s, x[EKIN]);
    CHECK(x[CLOCK] == d->time, "state %d: clock", s);
    CHECK(x[JPOSCUT] == (q > 0.25 ? 0.25 : q < -0.25 ? -0.25 : q), "state %d: cutoff", s);
    for (int k = 0; k < 3; k++) {
      double want = x[VELO + k] > 0.1 ? 0.1 : x[VELO + k] < -0.1 ? -0.1 : x[VELO + k];
      CHECK(x[VELOCUT + k] == want, "state %d: vector cutoff %d", s, k);
    }
    /* the accelerometer: centripetal L v^2 towards the pivot (+z in the bob's frame) and the
     * tangential L qacc along x, plus +g up, which in the bob's frame is g (-sin q, 0, cos q)
     * ... with qacc = -(g/L) sin q: the tangential parts cancel */
    CHECK(near3(x + ACCEL, 0, 0, L * v * v + G * c, tol), "state %d: accelerometer %g %g %g", s,
          x[ACCEL], x[ACCEL + 1], x[ACCEL + 2]);
    /* the rod pulls the bob along it: m (L v^2 + g cos q), and about the bob no torque */
    CHECK(near3(x + FORCE, 0, 0, MASS * (L * v * v + G * c), tol), "state %d: force", s);
    CHECK(near3(x + TORQUE, 0, 0, 0, tol), "state %d: torque", s);
  }
  /* the energies do not need the energy flag, and leave it as they found it for d->energy's
   * other users: both are written */
  CHECK(!(m->opt.enableflags & GS_ENBL_ENERGY) && d->energy[1] == d->sensordata[EKIN],
        "energy sensors without the flag");
  /* the sensor flag off: nothing written */
  m->opt.disableflags |= GS_DSBL_SENSOR;
  for (int k = 0; k < NDATA; k++) d->sensordata[k] = 7;
  gs_forward(m, d);
  int untouched = 1;
  for (int k = 0; k < NDATA; k++) untouched &= d->sensordata[k] == 7;
  CHECK(untouched, "sensor flag disabled: sensordata untouched");
  gs_freeData(d);
  gs_freeModel(m);
}

static const char* kFree =
    "<mujoco><option gravity=\"0 0 -9.81\"/><worldbody>\n"
    "<body name=\"b\" pos=\"0 0 3\"><freejoint/>\n"
    "<geom type=\"box\" size=\".1 .2 .3\" mass=\"3\" contype=\"0\" conaffinity=\"0\"/>\n"
    "<site name=\"s\" pos=\".1 .05 0\" quat=\"1 .2 .3 .4\"/></body></worldbody>\n"
    "<sensor><accelerometer site=\"s\"/><subtreelinvel body=\"b\"/><subtreeangmom body=\"b\"/>\n"
    "</sensor></mujoco>";

static void test_free_fall(void) {
  gsModel* m = load_xml(kFree);
  CHECK(m != NULL, "free body loads");
  if (!m) return;
  gsData* d = gs_makeData(m);
  const double v[3] = {0.3, -1.0, 2.0}, w[3] = {0.7, -0.4, 1.1};
  for (int k = 0; k < 3; k++) d->qvel[k] = v[k], d->qvel[3 + k] = w[k];
  /* the box unrotated: angular momentum diag(I) w, with I of a box of half sizes a, b, c */
  gs_forward(m, d);
  const double mass = 3, a = .1, bb = .2, cc = .3;
  const double I[3] = {mass * (bb * bb + cc * cc) / 3, mass * (a * a + cc * cc) / 3,
                       mass * (a * a + bb * bb) / 3};
  const double* x = d->sensordata;
  /* free fall: the com falls with gravity; the site, at r from the com, adds the rotation's
   * alpha x r + w x (w x r), alpha = -I^-1 (w x I w) (Euler's equations, the box unrotated); an
   * accelerometer reads acceleration minus gravity: only the rotation's part remains */
  double r[3] = {0.1, 0.05, 0}, Iw[3] = {I[0] * w[0], I[1] * w[1], I[2] * w[2]}, al[3], t[3];
  cross(t, w, Iw);
  for (int i = 0; i < 3; i++) al[i] = -t[i] / I[i];
  double ar[3], wr[3], wwr[3], acc[3];
  cross(ar, al, r);
  cross(wr, w, r);
  cross(wwr, w, wr);
  for (int i = 0; i < 3; i++) acc[i] = ar[i] + wwr[i];
  /* in the site's frame: R^T acc */
  const double* R = d->site_xmat;
  double want[3];
  for (int i = 0; i < 3; i++) want[i] = R[i] * acc[0] + R[3 + i] * acc[1] + R[6 + i] * acc[2];
  CHECK(near3(x, want[0], want[1], want[2], 1e-12), "free fall: accelerometer %g %g %g, want %g %g %g",
        x[0], x[1], x[2], want[0], want[1], want[2]);
  CHECK(near3(x + 3, v[0], v[1], v[2], 1e-14), "free body: subtree linear velocity");
  CHECK(near3(x + 6, I[0] * w[0], I[1] * w[1], I[2] * w[2], 1e-12),
        "free body: angular momentum %g %g %g", x[6], x[7], x[8]);
  gs_freeData(d);
  gs_freeModel(m);
}

static const char* kResting =
    "<mujoco><option gravity=\"0 0 -9.81\" timestep=\"0.002\"/><worldbody>\n"
    "<geom name=\"floor\" type=\"plane\" size=\"5 5 .1\"/>\n"
    "<body pos=\"0 0 .1\"><freejoint/><geom type=\"box\" size=\".2 .15 .1\" mass=\"4\"/>\n"
    "<site name=\"bottom\" type=\"box\" size=\".21 .16 .02\" pos=\"0 0 -.1\"/>\n"
    "<site name=\"top\" type=\"box\" size=\".21 .16 .02\" pos=\"0 0 .1\"/>\n"
    "<site name=\"com\"/></body></worldbody>\n"
    "<sensor><touch site=\"bottom\"/><touch site=\"top\"/><accelerometer site=\"com\"/>\n"
    "<contact geom1=\"floor\" subtree2=\"world\" data=\"found force\" reduce=\"netforce\"/>\n"
    "<contact geom2=\"floor\" data=\"found force\" num=\"6\"/></sensor>\n"
    "</mujoco>";

static void test_resting_box(void) {
  gsModel* m = load_xml(kResting);
  CHECK(m != NULL, "resting box loads");
  if (!m) return;
  gsData* d = gs_makeData(m);
  /* settle: the soft contacts reach equilibrium, where the normal forces carry the weight */
  for (int i = 0; i < 3000; i++) gs_step(m, d);
  gs_forward(m, d);
  const double weight = 4 * G;
  CHECK(d->ncon > 0 && near(d->sensordata[0], weight, 1e-6), "bottom touch %g, weight %g",
        d->sensordata[0], weight);
  CHECK(d->sensordata[1] == 0, "top touch %g", d->sensordata[1]);
  /* at rest on the floor: +g up */
  CHECK(near3(d->sensordata + 2, 0, 0, G, 1e-6), "resting accelerometer %g %g %g",
        d->sensordata[2], d->sensordata[3], d->sensordata[4]);
  /* the contact sensors: the net force the box receives from the floor is its weight up; seen
   * from the box (the floor second), each contact's normal force is positive and its normal
   * points down, and the slots past the contacts found are zero */
  const double* net = d->sensordata + 5;
  CHECK(net[0] == d->ncon && near3(net + 1, 0, 0, weight, 1e-6), "net contact: %g %g %g %g",
        net[0], net[1], net[2], net[3]);
  const double* slots = d->sensordata + 9;
  double sum = 0;
  int ok = 1;
  for (int s = 0; s < 6; s++) {
    const double* x = slots + 4 * s;
    if (s < d->ncon) ok &= x[0] == d->ncon && x[1] >= 0, sum += x[1];
    else ok &= x[0] == 0 && x[1] == 0 && x[2] == 0 && x[3] == 0;
  }
  CHECK(ok && near(sum, weight, 1e-6), "contact slots: normal forces sum to %g, weight %g", sum,
        weight);
  /* cfrc_ext of the box holds the floor's push: its weight up */
  gs_rnePostConstraint(m, d);
  CHECK(near(d->cfrc_ext[6 + 5], weight, 1e-6), "cfrc_ext %g", d->cfrc_ext[6 + 5]);
  gs_freeData(d);
  gs_freeModel(m);
}

/* a model from a binary file may hold anything: the check refuses sensors the stages would read
 * or write outside their arrays */
static void test_check(void) {
  const char* xml =
      "<mujoco><worldbody><body><joint name=\"h\" type=\"hinge\"/><geom size=\".1\"/>\n"
      "<site name=\"s\"/></body><body pos=\"1 0 0\"><joint name=\"b\" type=\"ball\"/>\n"
      "<geom size=\".1\"/></body></worldbody>\n"
      "<sensor><jointpos joint=\"h\"/><gyro site=\"s\"/><contact data=\"found force\" num=\"2\"/>\n"
      "<ballquat joint=\"b\"/></sensor></mujoco>";
  gsModel* m = load_xml(xml);
  CHECK(m != NULL, "check model loads");
  if (!m) return;
  char err[300];
  CHECK(gs_validateModel(m, err, sizeof err), "valid as compiled: %s", err);
  struct {
    int* field;
    int value;
    const char* phrase;
  } bad[] = {
      {&m->sensor_objtype[0], GS_OBJ_BODY, "are not its types"},
      {&m->sensor_objid[0], -1, "its object is missing"},
      {&m->sensor_objid[0], 1, "joint 1 is of type"},
      {&m->sensor_objid[3], 0, "joint 0 is of type"},
      {&m->sensor_dim[1], 1, "has 1 values, not 3"},
      {&m->sensor_intprm[GS_NSENS * 2 + 1], 7, "contact parameters"},
      {&m->sensor_intprm[GS_NSENS * 2 + 2], 0, "contact parameters"},
      {&m->sensor_intprm[GS_NSENS * 2 + 0], 1, "has 8 values, not 2"},
      {&m->sensor_type[1], GS_SENS_TACTILE, "are not its types"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    int keep = *bad[k].field;
    *bad[k].field = bad[k].value;
    int ok = gs_validateModel(m, err, sizeof err);
    CHECK(!ok && strstr(err, bad[k].phrase), "tampered sensor field %zu: %s", k, ok ? "accepted" : err);
    *bad[k].field = keep;
  }
  CHECK(gs_validateModel(m, err, sizeof err), "valid again: %s", err);
  gs_freeModel(m);
}

int main(void) {
  test_check();
  test_pendulum();
  test_free_fall();
  test_resting_box();
  return CHECK_SUMMARY();
}
