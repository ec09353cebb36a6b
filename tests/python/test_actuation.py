"""Actuators against MuJoCo 3.3.7 and closed forms: transmissions (joint, jointinparent, tendon,
site with and without refsite, slider-crank, body), activation dynamics, gains and biases of every
type, the shortcuts, the force and control limits, the actuator force limits of joints and
tendons, disabled groups; the forward quantities at random states and controls, and rollouts
under every integrator.

Forward quantities are compared as max|gauss - mujoco| / max(1, max|mujoco|) <= 1e-8 (the two
engines factor M differently, which moves qacc in the last digits); rollouts of 100 steps to
1e-6 in qpos, qvel and act."""

import mujoco
import numpy as np
import pytest

import gauss
import oracle

FWD_TOL = 1e-8
ROLL_TOL = 1e-6
INTEGRATORS = ["Euler", "implicit", "implicitfast", "RK4"]


def load(xml):
    return gauss.Model.from_xml_string(xml), mujoco.MjModel.from_xml_string(xml)


def dense_moment(nu, nv, rownnz, rowadr, colind, moment):
    out = np.zeros((nu, nv))
    for i in range(nu):
        for k in range(rowadr[i], rowadr[i] + rownnz[i]):
            out[i, colind[k]] = moment[k]
    return out


def random_controls(mm, rng, spread=1.5):
    """controls around each actuator's range (beyond it by `spread`, so that clamping is
    exercised), normal(0, 1) where the range is not limited"""
    ctrl = rng.normal(size=mm.nu)
    for i in range(mm.nu):
        lo, hi = mm.actuator_ctrlrange[i]
        if mm.actuator_ctrllimited[i]:
            mid, half = 0.5 * (lo + hi), 0.5 * (hi - lo) * spread
            ctrl[i] = rng.uniform(mid - half, mid + half)
    return ctrl


def random_act(mm, rng):
    act = rng.uniform(0.05, 0.95, size=mm.na)
    for i in range(mm.nu):
        adr, n = mm.actuator_actadr[i], mm.actuator_actnum[i]
        if adr >= 0 and mm.actuator_actlimited[i]:
            lo, hi = mm.actuator_actrange[i]
            act[adr:adr + n] = rng.uniform(lo, hi, size=n)
    return act


def set_state(mm, md, gd, rng, scale=0.5):
    qpos, qvel = oracle.random_state(mm, rng, scale)
    md.qpos[:], md.qvel[:] = qpos, qvel * scale
    md.act[:] = random_act(mm, rng)
    md.ctrl[:] = random_controls(mm, rng)
    gd.qpos[:], gd.qvel[:], gd.act[:], gd.ctrl[:] = md.qpos, md.qvel, md.act, md.ctrl


def forward_errors(gm, mm, gd, md, tol=FWD_TOL):
    mujoco.mj_forward(mm, md)
    gauss.forward(gm, gd)
    errors = []
    gmom = dense_moment(gm.nu, gm.nv, np.asarray(gd.moment_rownnz), np.asarray(gd.moment_rowadr),
                        np.asarray(gd.moment_colind), np.asarray(gd.actuator_moment))
    mmom = dense_moment(mm.nu, mm.nv, md.moment_rownnz, md.moment_rowadr, md.moment_colind,
                        md.actuator_moment)
    for name, a, b in (("actuator_length", gd.actuator_length, md.actuator_length),
                       ("actuator_moment", gmom, mmom),
                       ("actuator_velocity", gd.actuator_velocity, md.actuator_velocity),
                       ("ten_velocity", gd.ten_velocity, md.ten_velocity),
                       ("act_dot", gd.act_dot, md.act_dot),
                       ("actuator_force", gd.actuator_force, md.actuator_force),
                       ("qfrc_actuator", gd.qfrc_actuator, md.qfrc_actuator),
                       ("qacc", gd.qacc, md.qacc)):
        oracle.check_close(errors, name, a, b, tol)
    return errors


def compare_forward(xml, nstate=5, seed=0, tol=FWD_TOL):
    gm, mm = load(xml)
    gd, md = gauss.Data(gm), mujoco.MjData(mm)
    rng = np.random.default_rng(seed)
    for s in range(nstate):
        set_state(mm, md, gd, rng)
        errors = forward_errors(gm, mm, gd, md, tol)
        oracle.assert_no_errors(errors, f"state {s}: ")
    return gm, mm


def compare_rollout(xml, integrator, nstep=100, seed=1, tol=ROLL_TOL):
    xml = xml.replace("<mujoco>", f'<mujoco><option integrator="{integrator}"/>', 1)
    gm, mm = load(xml)
    gd, md = gauss.Data(gm), mujoco.MjData(mm)
    rng = np.random.default_rng(seed)
    set_state(mm, md, gd, rng, scale=0.2)
    for _ in range(nstep):
        mujoco.mj_step(mm, md)
        gauss.step(gm, gd)
    errors = []
    oracle.check_close(errors, "qpos", gd.qpos, md.qpos, tol)
    oracle.check_close(errors, "qvel", gd.qvel, md.qvel, tol)
    oracle.check_close(errors, "act", gd.act, md.act, tol)
    oracle.assert_no_errors(errors, f"{integrator}: ")
