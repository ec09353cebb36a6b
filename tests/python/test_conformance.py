"""Conformance against MuJoCo (the `mujoco` package as an oracle).

Every model of the corpus is loaded in both engines from one prepared XML (conftest.prepared:
includes inlined; <actuator>, <tendon>, <sensor>, <equality>, <contact>, <keyframe> removed,
because the reader does not simulate them yet; the fluid options are kept; contacts and
constraints disabled with <flag contact="disable" constraint="disable"/>). What was removed is
printed per model (pytest -s) and summarised at the end of the run.

Tolerance: "relative 1e-9" means max|gauss - mujoco| <= 1e-9 * max(1, max|mujoco|), per array
(oracle.rel_err).
"""

import os

import numpy as np
import pytest

import gauss
import mujoco
import oracle
from conftest import Pair

TOL = 1e-9          # smooth dynamics at one state
TRAJ_TOL = 1e-8     # 1000-step trajectories
NSTATE = 20         # random states per model

SIZES = ("nq", "nv", "nbody", "njnt", "ngeom", "nsite")


def _size_errors(pair):
    errors = []
    for s in SIZES:
        a, b = getattr(pair.gm, s), getattr(pair.mjm, s)
        if a != b:
            errors.append(f"{s}: gauss {a} mujoco {b}")
    return errors


def test_sizes_and_masses(corpus_model, corpus_pair):
    """The sizes and body masses first: a clearer failure than a mismatch of M."""
    pair = corpus_pair
    errors = _size_errors(pair)
    assert not errors, f"{corpus_model[0]}: " + "; ".join(errors)
    off = gauss.DSBL_CONTACT | gauss.DSBL_CONSTRAINT
    assert pair.gm.opt.disableflags & off == off, "contacts and constraints must be off in gauss"
    assert pair.mjm.opt.disableflags & off == off, "contacts and constraints must be off in MuJoCo"
    oracle.check_close(errors, "body_mass", pair.gm.body_mass, pair.mjm.body_mass, TOL)
    assert not errors, f"{corpus_model[0]}: " + "; ".join(errors)


def test_smooth_dynamics(corpus_model, corpus_pair, model_rng):
    """xpos, xquat, dense M, qfrc_bias, qfrc_passive, qfrc_fluid and qacc at 20 random states."""
    pair = corpus_pair
    errors = _size_errors(pair)
    assert not errors, f"{corpus_model[0]}: " + "; ".join(errors)
    worst = {}
    failures = []
    for k in range(NSTATE):
        qpos, qvel = oracle.random_state(pair.mjm, model_rng)
        pair.set_state(qpos, qvel)
        pair.forward()
        gM, mM = pair.full_M()
        g, mj = pair.gd, pair.mjd
        checks = [
            ("xpos", g.xpos, mj.xpos),
            # q and -q are the same rotation: compare each body's quaternion up to its sign
            ("xquat", oracle.align_quats(g.xquat, mj.xquat), mj.xquat),
            ("M", gM, mM),
            ("qfrc_bias", g.qfrc_bias, mj.qfrc_bias),
            ("qfrc_passive", g.qfrc_passive, mj.qfrc_passive),
            ("qfrc_fluid", g.qfrc_fluid, mj.qfrc_fluid),
            ("qacc", g.qacc, mj.qacc),
        ]
        for name, a, b in checks:
            errs = []
            e = oracle.check_close(errs, name, a, b, TOL)
            if e > worst.get(name, (-1.0,))[0]:
                worst[name] = (e, k)
            if errs and len(failures) < 12:
                failures.append(f"state {k}: {errs[0]}")
    bad = {n: v for n, v in worst.items() if not v[0] <= TOL}
    summary = ", ".join(f"{n} {e:.2e} (state {k})" for n, (e, k) in worst.items())
    assert not bad, (f"{corpus_model[0]}: largest relative errors: {summary}\n  "
                     + "\n  ".join(failures))


def test_applied_forces(corpus_model, corpus_pair, model_rng):
    """qacc with random qfrc_applied and xfrc_applied (force and torque at each body's com)."""
    pair = corpus_pair
    errors = _size_errors(pair)
    assert not errors, f"{corpus_model[0]}: " + "; ".join(errors)
    nbody, nv = pair.mjm.nbody, pair.mjm.nv
    worst = (0.0, -1)
    failures = []
    for k in range(5):
        qpos, qvel = oracle.random_state(pair.mjm, model_rng)
        qfrc = model_rng.normal(size=nv) * 3.0
        xfrc = model_rng.normal(size=(nbody, 6)) * 3.0
        xfrc[0] = 0  # the world body does not move
        pair.set_state(qpos, qvel, qfrc, xfrc)
        pair.forward()
        errs = []
        e = oracle.check_close(errs, "qacc", pair.gd.qacc, pair.mjd.qacc, TOL)
        worst = max(worst, (e, k))
        failures += [f"state {k}: {s}" for s in errs]
    assert not failures, (f"{corpus_model[0]}: largest qacc error {worst[0]:.2e}\n  "
                          + "\n  ".join(failures))


def test_jacobian(corpus_model, corpus_pair, model_rng):
    """gauss.jac against mj_jac for a random point on every body (used by the identity tests)."""
    pair = corpus_pair
    errors = _size_errors(pair)
    assert not errors, f"{corpus_model[0]}: " + "; ".join(errors)
    nv = pair.mjm.nv
    qpos, qvel = oracle.random_state(pair.mjm, model_rng)
    pair.set_state(qpos, qvel)
    pair.forward()
    for b in range(pair.mjm.nbody):
        point = pair.mjd.xipos[b] + model_rng.normal(size=3) * 0.2
        jacp, jacr = np.zeros((3, nv)), np.zeros((3, nv))
        mujoco.mj_jac(pair.mjm, pair.mjd, jacp, jacr, point, b)
        gp, gr = gauss.jac(pair.gm, pair.gd, point, b)
        oracle.check_close(errors, f"jacp body {b}", gp, jacp, TOL)
        oracle.check_close(errors, f"jacr body {b}", gr, jacr, TOL)
    assert not errors, f"{corpus_model[0]}: " + "\n  ".join(errors)


def test_energy(corpus_model, corpus_pair, model_rng):
    """gauss.energy_pos / energy_vel against mj_energyPos / mj_energyVel (used by the drift test)."""
    pair = corpus_pair
    errors = _size_errors(pair)
    assert not errors, f"{corpus_model[0]}: " + "; ".join(errors)
    for k in range(3):
        qpos, qvel = oracle.random_state(pair.mjm, model_rng)
        pair.set_state(qpos, qvel)
        pair.forward()
        mujoco.mj_energyPos(pair.mjm, pair.mjd)
        mujoco.mj_energyVel(pair.mjm, pair.mjd)
        pot = gauss.energy_pos(pair.gm, pair.gd)
        kin = gauss.energy_vel(pair.gm, pair.gd)
        oracle.check_close(errors, f"state {k} potential", pot, pair.mjd.energy[0], TOL)
        oracle.check_close(errors, f"state {k} kinetic", kin, pair.mjd.energy[1], TOL)
        oracle.check_close(errors, f"state {k} d.energy", pair.gd.energy, pair.mjd.energy, TOL)
    assert not errors, f"{corpus_model[0]}: " + "\n  ".join(errors)


# ---- trajectories: a 5-link pendulum, 1000 steps, each integrator ----

VARIANTS = {
    # name: (joint damping, third joint a ball joint)
    "hinges-undamped": (0.0, False),
    "ball-damped": (0.05, True),
}


# RK4 with a ball joint is the one deliberate difference from MuJoCo: gauss combines the stage
# derivatives of rotations through dexp^-1 (Runge-Kutta-Munthe-Kaas), which keeps RK4 fourth order
# on SO(3); MuJoCo combines raw body angular velocities, which is second order there. The two differ
# by O(h^3) per step, so that case is checked against a converged solution instead
# (test_rk4_rotation_order below).
CASES = [(i, v) for i in ["Euler", "RK4", "implicit", "implicitfast"] for v in VARIANTS
         if not (i == "RK4" and VARIANTS[v][1])]


@pytest.mark.parametrize("integrator,variant", CASES)
def test_pendulum_trajectory(integrator, variant):
    damping, ball = VARIANTS[variant]
    xml = oracle.pendulum5_xml(integrator, timestep=0.002, damping=damping, ball=ball)
    pair = Pair(xml)
    assert pair.gm.opt.integrator == pair.mjm.opt.integrator
    assert not _size_errors(pair), _size_errors(pair)
    qpos, qvel = oracle.pendulum5_state(ball)
    pair.set_state(qpos, qvel)
    nstep = 1000
    gq, gv = np.zeros((nstep, pair.mjm.nq)), np.zeros((nstep, pair.mjm.nv))
    mq, mv = np.zeros_like(gq), np.zeros_like(gv)
    for i in range(nstep):
        mujoco.mj_step(pair.mjm, pair.mjd)
        gauss.step(pair.gm, pair.gd)
        gq[i], gv[i] = pair.gd.qpos, pair.gd.qvel
        mq[i], mv[i] = pair.mjd.qpos, pair.mjd.qvel
    # the motion must actually go somewhere, or the comparison proves little
    assert np.max(np.abs(mq[-1] - qpos)) > 0.1
    # error per step, each step's state measured relative to that step's MuJoCo state
    eq = np.array([oracle.rel_err(gq[i], mq[i]) for i in range(nstep)])
    ev = np.array([oracle.rel_err(gv[i], mv[i]) for i in range(nstep)])
    first_q = int(np.argmax(~(eq <= TRAJ_TOL))) if not np.all(eq <= TRAJ_TOL) else None
    first_v = int(np.argmax(~(ev <= TRAJ_TOL))) if not np.all(ev <= TRAJ_TOL) else None
    assert first_q is None and first_v is None, (
        f"{integrator} {variant}: qpos max err {eq.max():.2e} (first over {TRAJ_TOL:g} at step "
        f"{first_q}), qvel max err {ev.max():.2e} (first over at step {first_v}); "
        f"errors at steps 1/10/100/1000: qpos {eq[[0, 9, 99, 999]]}, qvel {ev[[0, 9, 99, 999]]}")
    assert abs(pair.gd.time - pair.mjd.time) <= 1e-12


FOREST_XML = """<mujoco model="forest">
  <option timestep="0.002" integrator="implicit"><flag contact="disable"/></option>
  <default>
    <joint damping="0.02"/>
    <geom type="capsule" size="0.04" contype="0" conaffinity="0" density="1000"/>
  </default>
  <worldbody>
    <body pos="0 0 2">
      <joint type="hinge" axis="0 1 0"/>
      <geom fromto="0 0 0 0.3 0 -0.4"/>
      <body pos="0.3 0 -0.4">
        <joint type="ball"/>
        <geom fromto="0 0 0 0 0.3 -0.3"/>
        <body pos="0 0.3 -0.3">
          <joint type="hinge" axis="1 1 0"/>
          <geom fromto="0 0 0 0.2 0 -0.2"/>
        </body>
      </body>
    </body>
    <body pos="1 0 2">
      <freejoint/>
      <geom type="box" size="0.1 0.2 0.05"/>
    </body>
    <body pos="2 0 2">
      <geom type="sphere" size="0.05"/>
      <body pos="0 0 -0.1">
        <joint type="hinge" axis="1 0 0"/>
        <geom fromto="0 0 0 0 0.4 -0.3"/>
        <body pos="0 0.4 -0.3">
          <joint type="slide" axis="0 0.6 -0.8"/>
          <joint type="hinge" axis="0 0 1"/>
          <geom fromto="0 0 0 0.3 0 -0.1"/>
        </body>
      </body>
      <body pos="0.2 0 -0.1">
        <joint type="hinge" axis="0 1 1"/>
        <geom fromto="0 0 0 0 0.2 -0.2"/>
      </body>
    </body>
  </worldbody>
</mujoco>"""


def test_implicit_forest_trajectory():
    """The implicit integrator on several trees (a chain with a ball joint, a tumbling free body,
    two chains under a body welded to the world), 500 steps against MuJoCo: the bias force's
    velocity derivative is taken for the k-th dof of every tree in one pass (the trees do not
    see each other's velocities), which must give each tree's columns as passes of their own."""
    pair = Pair(FOREST_XML)
    assert pair.gm.opt.integrator == pair.mjm.opt.integrator == mujoco.mjtIntegrator.mjINT_IMPLICIT
    rng = np.random.default_rng(7)
    qvel = rng.uniform(-2, 2, pair.mjm.nv)
    pair.set_state(pair.mjm.qpos0.copy(), qvel)
    errors = []
    for i in range(500):
        mujoco.mj_step(pair.mjm, pair.mjd)
        gauss.step(pair.gm, pair.gd)
        eq = oracle.rel_err(pair.gd.qpos, pair.mjd.qpos)
        ev = oracle.rel_err(pair.gd.qvel, pair.mjd.qvel)
        if not (eq <= TRAJ_TOL and ev <= TRAJ_TOL):
            errors.append(f"step {i}: qpos err {eq:.2e}, qvel err {ev:.2e}")
            break
    assert np.max(np.abs(pair.mjd.qvel - qvel)) > 0.1  # it moved
    assert not errors, errors


def _gym_humanoid_smooth_at(seed, nstep):
    """the Gymnasium humanoid (RK4) with contacts off in both engines, MuJoCo stepped nstep times
    with controls drawn from seed and gauss set to its state: (mjm, mjd, gm, gd, rng)"""
    path = os.path.join(oracle.MODELS_DIR, "gymnasium", "humanoid.xml")
    mjm = mujoco.MjModel.from_xml_path(path)
    gm = gauss.Model.from_xml_path(path)
    mjm.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONTACT
    gm.opt.disableflags |= gauss.DSBL_CONTACT
    assert mjm.opt.integrator == mujoco.mjtIntegrator.mjINT_RK4
    mjd, gd = mujoco.MjData(mjm), gauss.Data(gm)
    rng = np.random.default_rng(seed)
    mjd.ctrl[:] = rng.uniform(-0.4, 0.4, mjm.nu)
    mujoco.mj_step(mjm, mjd, nstep=nstep)
    state = np.empty(mujoco.mj_stateSize(mjm, mujoco.mjtState.mjSTATE_INTEGRATION))
    mujoco.mj_getState(mjm, mjd, state, mujoco.mjtState.mjSTATE_INTEGRATION)
    gauss.set_state(gm, gd, state, gauss.STATE_INTEGRATION)
    return mjm, mjd, gm, gd, rng


def test_rk4_warmstart_like_mujoco():
    """RK4's warm start as MJCF's: the four evaluations start the solver from the warm start the
    step was given, and after the step qacc_warmstart is the last evaluation's qacc. The Gymnasium
    humanoid (RK4, PGS; contacts off, its joint limits on) one step from the same state as
    MuJoCo: qacc and qacc_warmstart ~4e-10 of qacc's scale apart; with the later evaluations
    started from the first one's acceleration (as gauss did before) the solver stopped elsewhere
    within its tolerance (qacc 1e-7 apart) and qacc_warmstart was the first evaluation's (5e-2
    apart). The bound, 1e-6, sits between."""
    mjm, mjd, gm, gd, _ = _gym_humanoid_smooth_at(3, 30)
    assert mjm.opt.solver == 0  # PGS
    assert mjd.nefc > 0  # limits in force: the solver's start matters
    mujoco.mj_step(mjm, mjd)
    gauss.step(gm, gd)
    assert np.array_equal(gd.qacc_warmstart, gd.qacc)
    scale = np.max(np.abs(mjd.qacc))
    assert np.max(np.abs(gd.qacc - mjd.qacc)) <= 1e-6 * scale
    assert np.max(np.abs(gd.qacc_warmstart - mjd.qacc_warmstart)) <= 1e-6 * scale


def test_rk4_step_outputs_are_the_last_evaluations():
    """RK4's first three force evaluations leave out what only the data's readers see where
    nothing of the evaluation reads it: the tendons' lengths, Jacobians and velocities (no tendon
    with a limit, spring, damping, friction loss or armature, none pulled or held; no sensor or
    callback) and, in the second and third, the actuators' transmissions and forces where the
    controls alone make them (motors on hinges: the first evaluation's forces). After the step
    every one of them must be the last evaluation's, as MuJoCo's: the Gymnasium humanoid (two such
    tendons, motors on hinges, RK4) one step from MuJoCo's state. Each field is first checked to
    move over the step by far more than the tolerance (so values left from an earlier evaluation
    would fail), then to agree with MuJoCo's to 1e-9 of its scale (rounding of one step). Measured:
    the fields move by 2e-2 to 2 of their scale and agree to 1.6e-14 at most."""
    mjm, mjd, gm, gd, rng = _gym_humanoid_smooth_at(5, 40)
    assert mjm.ntendon == 2
    # the step's new controls: the forces change over this step, not only the positions
    mjd.ctrl[:] = gd.ctrl[:] = rng.uniform(-0.4, 0.4, mjm.nu)
    before = {f: np.array(getattr(mjd, f)) for f in ("ten_length", "ten_velocity",
                                                     "actuator_length", "actuator_velocity",
                                                     "actuator_force", "qfrc_actuator")}
    mujoco.mj_step(mjm, mjd)
    gauss.step(gm, gd)
    for f, old in before.items():
        want = np.array(getattr(mjd, f))
        scale = max(np.max(np.abs(want)), 1e-3)
        assert np.max(np.abs(want - old)) > 1e-6 * scale, f  # the field moved over the step
        assert np.max(np.abs(np.array(getattr(gd, f)) - want)) <= 1e-9 * scale, f
    # the tendons' Jacobians (constant for fixed tendons) and the moments: present and equal
    assert np.array_equal(np.array(gd.ten_J).reshape(2, -1), np.array(mjd.ten_J).reshape(2, -1))
    mom = np.zeros((mjm.nu, mjm.nv))
    mujoco.mju_sparse2dense(mom, mjd.actuator_moment, mjd.moment_rownnz, mjd.moment_rowadr,
                            mjd.moment_colind)
    gmom = np.zeros((gm.nu, gm.nv))
    for i in range(gm.nu):
        a, n = gd.moment_rowadr[i], gd.moment_rownnz[i]
        gmom[i, gd.moment_colind[a:a + n]] = gd.actuator_moment[a:a + n]
    assert np.array_equal(gmom, mom)


def _ball_pendulum_final(engine, h, duration=0.2):
    """qpos of the damped 5-link pendulum with a ball joint after `duration`, RK4 at step h"""
    xml = oracle.pendulum5_xml("RK4", timestep=h, damping=0.05, ball=True)
    qpos, qvel = oracle.pendulum5_state(True)
    if engine == "gauss":
        m = gauss.Model.from_xml_string(xml)
        d = gauss.Data(m)
        d.qpos[:], d.qvel[:] = qpos, qvel
        gauss.step(m, d, int(round(duration / h)))
        return np.array(d.qpos)
    m = mujoco.MjModel.from_xml_string(xml)
    d = mujoco.MjData(m)
    d.qpos[:], d.qvel[:] = qpos, qvel
    mujoco.mj_step(m, d, nstep=int(round(duration / h)))
    return np.array(d.qpos)


def test_rk4_rotation_order():
    """RK4 through a ball joint converges at fourth order: halving h divides the error by ~16
    (measured against h/32), and at h = 2 ms it is closer to the converged motion than MuJoCo's
    RK4, whose orientation update is second order."""
    ref = _ball_pendulum_final("gauss", 0.002 / 32)
    e1 = np.abs(_ball_pendulum_final("gauss", 0.002) - ref).max()
    e2 = np.abs(_ball_pendulum_final("gauss", 0.001) - ref).max()
    e_mj = np.abs(_ball_pendulum_final("mujoco", 0.002) - ref).max()
    assert e1 / e2 > 12, f"error ratio {e1 / e2:.2f} for h -> h/2 (fourth order gives 16)"
    assert e1 < e_mj, f"gauss error {e1:.2e}, MuJoCo error {e_mj:.2e}"
