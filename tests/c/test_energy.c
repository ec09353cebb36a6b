/* Energies (src/dynamics/energy.c) and the conservation laws of the smooth dynamics, without the
 * Python oracle:
 * - the double pendulum's potential and kinetic energy in closed form (Tedrake, "Multi-Body
 *   Dynamics");
 * - gs_energyVel on a model with every joint type against sum 1/2 (m |v|^2 + w^T I w) over the
 *   bodies, velocities by central differences of the kinematics, plus the rotors' 1/2 armature
 *   v^2; the `energy` enable flag fills d->energy in gs_forward;
 * - RK4 with a small step, contacts off, no damping: total energy (gravity, springs, motion) stays
 *   put; with gravity and springs off the linear and angular momentum of free-floating trees stay
 *   put, and with gravity on their linear momentum grows by M g t; with damping on, the energy
 *   lost equals the time integral of the damping power v^T B v. */
#include "core_util.h"

#include "check.h"

#define TOL_EXACT 1e-13
/* kinetic energy from velocities by differences with h = 1e-5: ~1e-10 relative */
#define H_FD 1e-5
#define TOL_FD 1e-8
/* RK4 with h = 1e-3 over 0.4 s at angular rates of a few rad/s: a global error of order
 * (h w)^4 w t ~ 1e-11 relative; the bounds leave room for rounding over 400 steps */
#define NSTEP 400
#define TIMESTEP 1e-3
#define TOL_CONSERVE 1e-8

static void test_pendulum(void) {
  gsModel* m = load_xml(PENDULUM_XML);
  CHECK(m != NULL, "double pendulum loads");
  if (!m) return;
  m->opt.enableflags |= GS_ENBL_ENERGY;
  gsData* d = gs_makeData(m);
  const double states[][4] = {{0, 0, 0, 0}, {0.3, -0.7, 1.5, -2.0}, {2.0, 1.1, -0.4, 3.0}};
  for (int s = 0; s < 3; s++) {
    double q1 = states[s][0], q2 = states[s][1], v1 = states[s][2], v2 = states[s][3];
    d->qpos[0] = q1; d->qpos[1] = q2; d->qvel[0] = v1; d->qvel[1] = v2;
    gs_forward(m, d);
    /* the joints hang at height 2 */
    double y1 = 2 - DP_L1 * cos(q1), y2 = y1 - DP_L2 * cos(q1 + q2), v12 = v1 + v2;
    double U = DP_G * (DP_M1 * y1 + DP_M2 * y2);
    double T = 0.5 * (DP_M1 + DP_M2) * DP_L1 * DP_L1 * v1 * v1 + 0.5 * DP_M2 * DP_L2 * DP_L2 * v12 * v12 +
               DP_M2 * DP_L1 * DP_L2 * v1 * v12 * cos(q2) + 0.5 * DP_I1 * v1 * v1 + 0.5 * DP_I2 * v12 * v12;
    CHECK(fabs(d->energy[0] - U) < TOL_EXACT * 10, "double pendulum state %d: potential %g, want %g", s,
          d->energy[0], U);
    CHECK(fabs(d->energy[1] - T) < TOL_EXACT * 10, "double pendulum state %d: kinetic %g, want %g", s,
          d->energy[1], T);
  }
  gs_freeData(d);
  gs_freeModel(m);
}

static void test_kinetic(void) {
  gsModel* m = load_xml(FLOAT_XML);
  CHECK(m != NULL, "float loads");
  if (!m) return;
  gsData* d = gs_makeData(m);
  gsData* dd = gs_makeData(m);
  unsigned seed = 83;
  random_state(m, d, &seed, 1.0, 2.0);
  gs_forward(m, d);
  CHECK(d->energy[0] == 0 && d->energy[1] == 0, "energy flag off: d->energy untouched");
  m->opt.enableflags |= GS_ENBL_ENERGY;
  for (int trial = 0; trial < 3; trial++) {
    random_state(m, d, &seed, 1.0, 2.0);
    gs_forward(m, d);
    double T = kinetic_fd(m, dd, d->qpos, d->qvel, H_FD);
    for (int i = 0; i < m->nv; i++) T += 0.5 * m->dof_armature[i] * d->qvel[i] * d->qvel[i];
    CHECK(fabs(d->energy[1] - T) < TOL_FD * T, "float: kinetic energy %.12g, bodies' sum %.12g",
          d->energy[1], T);
    double U = 0;
    for (int b = 1; b < m->nbody; b++) U -= m->body_mass[b] * dot3(m->opt.gravity, d->xipos + 3 * b);
    m->opt.disableflags |= GS_DSBL_SPRING;
    gs_energyPos(m, d);
    m->opt.disableflags &= ~GS_DSBL_SPRING;
    CHECK(fabs(d->energy[0] - U) < TOL_EXACT * fabs(U), "float: gravity potential %g, want %g",
          d->energy[0], U);
  }
  gs_freeData(dd);
  gs_freeData(d);
  gs_freeModel(m);
}

static double total_energy(const gsModel* m, gsData* d) {
  gs_forward(m, d);
  return d->energy[0] + d->energy[1];
}

/* linear momentum and angular momentum about the world origin of the bodies of tree `root` */
static void momentum(const gsModel* m, const gsData* d, int root, double P[3], double L[3]) {
  int nv = m->nv;
  double jacp[3 * MAXV], jacr[3 * MAXV];
  P[0] = P[1] = P[2] = L[0] = L[1] = L[2] = 0;
  for (int b = 1; b < m->nbody; b++) {
    if (m->body_rootid[b] != root) continue;
    double v[3] = {0, 0, 0}, w[3] = {0, 0, 0}, I[9], Iw[3], xv[3];
    gs_jac(m, d, jacp, jacr, d->xipos + 3 * b, b);
    for (int c = 0; c < 3; c++)
      for (int i = 0; i < nv; i++) v[c] += jacp[c * nv + i] * d->qvel[i], w[c] += jacr[c * nv + i] * d->qvel[i];
    world_inertia(m, d, b, I);
    matvec3(Iw, I, w);
    cross3(xv, d->xipos + 3 * b, v);
    for (int c = 0; c < 3; c++) {
      P[c] += m->body_mass[b] * v[c];
      L[c] += m->body_mass[b] * xv[c] + Iw[c];
    }
  }
}

static void test_conservation(void) {
  gsModel* m = load_xml(FLOAT_XML);
  CHECK(m != NULL, "float loads");
  if (!m) return;
  m->opt.integrator = GS_INT_RK4;
  m->opt.timestep = TIMESTEP;
  m->opt.enableflags |= GS_ENBL_ENERGY;
  m->opt.disableflags |= GS_DSBL_DAMPER;
  gsData* d = gs_makeData(m);
  unsigned seed = 89;
  random_state(m, d, &seed, 0.5, 1.5);
  double q0[MAXV], v0[MAXV];
  memcpy(q0, d->qpos, sizeof(q0));
  memcpy(v0, d->qvel, sizeof(v0));

  /* energy: gravity, springs, motion */
  double E0 = total_energy(m, d), drift = 0, T0 = d->energy[1];
  for (int s = 0; s < NSTEP; s++) {
    gs_step(m, d);
    drift = fmax(drift, fabs(total_energy(m, d) - E0));
  }
  CHECK(drift < TOL_CONSERVE * fabs(E0), "RK4: energy %g drifts by %g over %d steps", E0, drift, NSTEP);
  CHECK(T0 > 1 && fabs(d->energy[1] - T0) > 0.01 * T0, "RK4: energy moves between kinetic and potential "
        "(%g -> %g)", T0, d->energy[1]);

  /* momenta of the free trees, no gravity or springs: constant. Armature on a free joint adds its
   * share (armature v) to the conserved momentum, which the bodies' sums leave out: none here. */
  int torso = gs_name2id(m, GS_OBJ_BODY, "torso"), rock = gs_name2id(m, GS_OBJ_BODY, "rock");
  m->opt.disableflags |= GS_DSBL_GRAVITY | GS_DSBL_SPRING;
  for (int i = 0; i < 6; i++) m->dof_armature[m->body_dofadr[torso] + i] = 0;
  memcpy(d->qpos, q0, sizeof(q0));
  memcpy(d->qvel, v0, sizeof(v0));
  d->time = 0;
  gs_forward(m, d);
  double P0[2][3], L0[2][3], P[3], L[3], eP = 0, eL = 0, scale = 0;
  momentum(m, d, torso, P0[0], L0[0]);
  momentum(m, d, rock, P0[1], L0[1]);
  for (int s = 0; s < NSTEP; s++) {
    gs_step(m, d);
    gs_forward(m, d);
    for (int t = 0; t < 2; t++) {
      momentum(m, d, t ? rock : torso, P, L);
      eP = fmax(eP, maxdiff(P, P0[t], 3));
      eL = fmax(eL, maxdiff(L, L0[t], 3));
      scale = fmax(scale, fmax(maxabs(P, 3), maxabs(L, 3)));
    }
  }
  CHECK(eP < TOL_CONSERVE * scale, "RK4: linear momentum of the free trees conserved (err %g)", eP);
  CHECK(eL < TOL_CONSERVE * scale, "RK4: angular momentum of the free trees conserved (err %g)", eL);

  /* with gravity: the linear momentum grows by M g t */
  m->opt.disableflags &= ~GS_DSBL_GRAVITY;
  memcpy(d->qpos, q0, sizeof(q0));
  memcpy(d->qvel, v0, sizeof(v0));
  d->time = 0;
  for (int s = 0; s < NSTEP; s++) gs_step(m, d);
  gs_forward(m, d);
  double eg = 0;
  for (int t = 0; t < 2; t++) {
    int root = t ? rock : torso;
    momentum(m, d, root, P, L);
    for (int c = 0; c < 3; c++)
      eg = fmax(eg, fabs(P[c] - P0[t][c] - m->body_subtreemass[root] * m->opt.gravity[c] * d->time));
  }
  CHECK(eg < TOL_CONSERVE * 10, "RK4: linear momentum grows by M g t (err %g)", eg);
  gs_freeData(d);
  gs_freeModel(m);
}

/* with damping: the energy lost is the integral of v^T B v (trapezoid rule, O(h^2)) */
static void test_dissipation(void) {
  gsModel* m = load_xml(FLOAT_XML);
  CHECK(m != NULL, "float loads");
  if (!m) return;
  m->opt.integrator = GS_INT_RK4;
  m->opt.timestep = TIMESTEP;
  m->opt.enableflags |= GS_ENBL_ENERGY;
  gsData* d = gs_makeData(m);
  unsigned seed = 97;
  random_state(m, d, &seed, 0.5, 1.5);
  double E0 = total_energy(m, d), lost = 0, power = 0;
  for (int i = 0; i < m->nv; i++) power += m->dof_damping[i] * d->qvel[i] * d->qvel[i];
  for (int s = 0; s < NSTEP; s++) {
    gs_step(m, d);
    gs_forward(m, d);
    double p = 0;
    for (int i = 0; i < m->nv; i++) p += m->dof_damping[i] * d->qvel[i] * d->qvel[i];
    lost += 0.5 * TIMESTEP * (power + p);
    power = p;
  }
  double E = total_energy(m, d);
  /* trapezoid error h^2/12 T max|P''| with P'' ~ w^2 P: ~1e-7 of what is lost */
  CHECK(lost > 0.01 * fabs(E0), "damping dissipates (%g of %g)", lost, E0);
  CHECK(fabs(E0 - E - lost) < 1e-5 * lost, "energy lost %.10g = integral of the damping power %.10g",
        E0 - E, lost);
  gs_freeData(d);
  gs_freeModel(m);
}

int main(void) {
  test_pendulum();
  test_kinetic();
  test_conservation();
  test_dissipation();
  return CHECK_SUMMARY();
}
