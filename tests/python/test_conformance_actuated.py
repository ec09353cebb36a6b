"""Conformance of the corpus as its authors drive it: every model with its own actuators, tendons,
sensors, equality constraints, keyframes and fluid options (nothing stripped), against MuJoCo.

States come from a MuJoCo rollout with random controls, so that activations, tendon lengths and
actuator forces take the values a controlled simulation gives them. Contacts and constraints are
disabled (<flag contact="disable" constraint="disable"/>): the quantities compared here are the
smooth ones, which do not depend on how far an iterative solver converged
(test_constraint_conformance.py compares the constrained ones).

Tolerances: "relative 1e-8" is oracle.rel_err (max |gauss - mujoco| <= 1e-8 max(1, max |mujoco|)
per array). Rollouts: 100 steps with a fixed random control sequence, qpos within 1e-6 absolute.
RK4 models with ball or free joints are stepped with Euler in both engines: gauss integrates
rotations with the Munthe-Kaas correction (integrate.c), which is more accurate than MuJoCo's RK4
on quaternions and so differs from it by O(h^3) per step (test_conformance.py, rotation order).
"""

import numpy as np
import pytest

import gauss
import mujoco
import oracle

TOL = 1e-8
TRAJ_TOL = 1e-6
NSTATE = 20
NSTEP = 100

JNT_FREE, JNT_BALL = 0, 1


def corpus_xml(path, integrator=None):
    xml, _ = oracle.prepare_xml(path, sections=())
    return xml


def random_ctrl(mjm, rng):
    """Controls inside the control range where the actuator has one, N(0, 1) otherwise."""
    u = rng.normal(size=mjm.nu)
    for i in range(mjm.nu):
        if mjm.actuator_ctrllimited[i]:
            lo, hi = mjm.actuator_ctrlrange[i]
            u[i] = rng.uniform(lo, hi)
    return u


def load_pair(path):
    xml = corpus_xml(path)
    mjm = mujoco.MjModel.from_xml_string(xml)
    gm = gauss.Model.from_xml_string(xml)
    rotations = any(t in (JNT_FREE, JNT_BALL) for t in mjm.jnt_type)
    if mjm.opt.integrator == mujoco.mjtIntegrator.mjINT_RK4 and rotations:
        mjm.opt.integrator = mujoco.mjtIntegrator.mjINT_EULER
        gm.opt.integrator = gauss.INT_EULER
    return mjm, gm


def model_seed(model_id):
    return sum((i + 1) * ord(c) for i, c in enumerate(model_id))


def copy_state(mjm, mjd, gd):
    gd.time = mjd.time
    gd.qpos[:] = mjd.qpos
    gd.qvel[:] = mjd.qvel
    if mjm.na:
        gd.act[:] = mjd.act
    if mjm.nu:
        gd.ctrl[:] = mjd.ctrl
    if mjm.nmocap:
        gd.mocap_pos[:] = mjd.mocap_pos
        gd.mocap_quat[:] = mjd.mocap_quat


QUANTITIES = ("actuator_length", "actuator_velocity", "actuator_force", "qfrc_actuator", "act_dot",
              "ten_length", "ten_velocity", "qfrc_passive", "qfrc_fluid", "sensordata", "cacc",
              "cfrc_ext", "cfrc_int", "qacc")


def test_actuated_states(corpus_model):
    """The actuation, tendon, passive, sensor and post-constraint quantities and qacc at 20 states
    of a MuJoCo rollout with random controls."""
    model_id, path = corpus_model
    mjm, gm = load_pair(path)
    mjd, gd = mujoco.MjData(mjm), gauss.Data(gm)
    if mjm.nkey:
        mujoco.mj_resetDataKeyframe(mjm, mjd, 0)
    rng = np.random.default_rng(model_seed(model_id))
    worst, failures = {}, []
    for k in range(NSTATE):
        mjd.ctrl[:] = random_ctrl(mjm, rng)
        for _ in range(5):
            mujoco.mj_step(mjm, mjd)
        copy_state(mjm, mjd, gd)
        mujoco.mj_forward(mjm, mjd)
        gauss.forward(gm, gd)
        mujoco.mj_rnePostConstraint(mjm, mjd)
        gauss.rne_post_constraint(gm, gd)
        checks = [(name, getattr(gd, name), getattr(mjd, name)) for name in QUANTITIES]
        if mjm.nu:
            checks.append(("actuator_moment", oracle.dense_moment(gm, gd),
                           oracle.dense_moment(mjm, mjd)))
        for name, a, b in checks:
            errs = []
            e = oracle.check_close(errs, name, np.asarray(a), np.asarray(b), TOL)
            if e > worst.get(name, (-1.0,))[0]:
                worst[name] = (e, k)
            if errs and len(failures) < 8:
                failures.append(f"state {k}: {errs[0]}")
    summary = ", ".join(f"{n} {e:.1e}" for n, (e, _) in worst.items())
    print(f"\n[{model_id}] nu {mjm.nu} na {mjm.na} ntendon {mjm.ntendon} nsensor {mjm.nsensor}: "
          f"largest relative errors: {summary}")
    assert not failures, f"{model_id}:\n  " + "\n  ".join(failures)


def test_actuated_rollout(corpus_model):
    """100 steps with a fixed random control sequence: qpos (and act) stay within 1e-6."""
    model_id, path = corpus_model
    mjm, gm = load_pair(path)
    mjd, gd = mujoco.MjData(mjm), gauss.Data(gm)
    if mjm.nkey:
        mujoco.mj_resetDataKeyframe(mjm, mjd, 0)
    copy_state(mjm, mjd, gd)
    rng = np.random.default_rng(model_seed(model_id) + 1)
    worst = worst_act = 0.0
    for _ in range(NSTEP):
        u = random_ctrl(mjm, rng)
        mjd.ctrl[:] = u
        gd.ctrl[:] = u
        mujoco.mj_step(mjm, mjd)
        gauss.step(gm, gd)
        worst = max(worst, float(np.max(np.abs(gd.qpos - mjd.qpos), initial=0)))
        if mjm.na:
            worst_act = max(worst_act, float(np.max(np.abs(gd.act - mjd.act))))
    print(f"\n[{model_id}] {NSTEP} steps (integrator {mjm.opt.integrator}): max |dqpos| {worst:.1e}, "
          f"max |dact| {worst_act:.1e}")
    assert worst < TRAJ_TOL and worst_act < TRAJ_TOL
