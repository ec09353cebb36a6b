"""Randomly generated actuated models against MuJoCo: random trees of hinge, slide and ball joints
with random actuators (every shortcut and general dyn/gain/bias types, on joints, tendons and
sites), fixed and spatial tendons with springs and dampers, and sensors of the kinds that read
them. Each model is compared at random states and controls (relative 1e-8, oracle.rel_err) and
over a 50-step rollout (qpos and act within 1e-6).

The generator draws only what both engines accept for any draw: ranges are proper intervals,
muscles get an explicit lengthrange (the compile-time computation has its own test), and tendons
pass through sites on distinct bodies.
"""

import numpy as np
import pytest

import gauss
import mujoco
import oracle

TOL = 1e-8
TRAJ_TOL = 1e-6
NMODEL = 24
NSTATE = 5


def _v(x):
    return " ".join(f"{float(t):.6g}" for t in np.atleast_1d(x))


def random_model(seed):
    rng = np.random.default_rng(seed)
    integrator = rng.choice(["Euler", "implicit", "implicitfast", "RK4"])
    nbody = int(rng.integers(2, 6))
    bodies, joints, sites = [], [], []
    xml_bodies = {}
    for b in range(nbody):
        parent = -1 if b == 0 else int(rng.integers(-1, b))
        jtype = rng.choice(["hinge", "hinge", "slide", "ball"])
        jname = f"j{b}"
        axis = rng.normal(size=3)
        axis /= np.linalg.norm(axis)
        jattr = f'name="{jname}" type="{jtype}" axis="{_v(axis)}" damping="{rng.uniform(0, 0.5):.3g}"'
        if jtype != "ball":
            joints.append((jname, jtype))
            if rng.random() < 0.3:
                jattr += f' stiffness="{rng.uniform(0, 2):.3g}"'
        geom = (f'<geom type="capsule" size="0.05" fromto="0 0 0 {_v(0.3 * rng.normal(size=3))}" '
                f'mass="{rng.uniform(0.2, 2):.3g}"/>')
        sname = f"s{b}"
        sites.append(sname)
        site = f'<site name="{sname}" pos="{_v(0.1 * rng.normal(size=3))}"/>'
        pos = _v(0.3 * rng.normal(size=3))
        xml_bodies[b] = (parent, f'<body name="b{b}" pos="{pos}"><joint {jattr}/>{geom}{site}', [])
        bodies.append(b)
    for b in range(nbody):
        p = xml_bodies[b][0]
        if p >= 0:
            xml_bodies[p][2].append(b)

    def emit(b):
        head, kids = xml_bodies[b][1], xml_bodies[b][2]
        return head + "".join(emit(k) for k in kids) + "</body>"

    world = "".join(emit(b) for b in range(nbody) if xml_bodies[b][0] < 0)

    tendons = []
    tendon_xml = []
    if len(joints) >= 2 and rng.random() < 0.8:
        pick = rng.choice(len(joints), size=2, replace=False)
        coefs = "".join(f'<joint joint="{joints[i][0]}" coef="{rng.uniform(-1, 1):.3g}"/>' for i in pick)
        extra = ""
        if rng.random() < 0.5:
            extra += f' stiffness="{rng.uniform(0, 3):.3g}"'
        if rng.random() < 0.5:
            extra += f' damping="{rng.uniform(0, 0.5):.3g}"'
        tendon_xml.append(f'<fixed name="tf"{extra}>{coefs}</fixed>')
        tendons.append("tf")
    if nbody >= 2 and rng.random() < 0.8:
        a, b = rng.choice(nbody, size=2, replace=False)
        extra = ""
        if rng.random() < 0.5:
            extra += f' stiffness="{rng.uniform(0, 3):.3g}" springlength="0.1 0.3"'
        if rng.random() < 0.5:
            extra += f' damping="{rng.uniform(0, 0.5):.3g}"'
        tendon_xml.append(f'<spatial name="ts"{extra}><site site="s{a}"/><site site="s{b}"/></spatial>')
        tendons.append("ts")

    act_xml = []
    sensors = []
    kinds = ["motor", "position", "velocity", "intvelocity", "damper", "general_filter",
             "general_integrator", "general_affine", "filterexact", "muscle", "site"]
    for i in range(int(rng.integers(1, 5))):
        kind = rng.choice(kinds)
        if kind == "site":
            target = f'site="{rng.choice(sites)}"'
        elif tendons and rng.random() < 0.4:
            target = f'tendon="{rng.choice(tendons)}"'
        elif joints:
            target = f'joint="{joints[int(rng.integers(len(joints)))][0]}"'
        else:
            target = f'site="{rng.choice(sites)}"'
        gear = f'gear="{rng.uniform(0.5, 2):.3g}"'
        if kind == "site":
            g = rng.normal(size=6)
            gear = f'gear="{_v(g)}"'
            act_xml.append(f'<motor name="a{i}" {target} {gear} ctrlrange="-1 1"/>')
        elif kind == "motor":
            act_xml.append(f'<motor name="a{i}" {target} {gear} ctrlrange="-1 1"/>')
        elif kind == "position":
            kv = f' kv="{rng.uniform(0, 1):.3g}"' if rng.random() < 0.5 else ""
            act_xml.append(f'<position name="a{i}" {target} kp="{rng.uniform(1, 10):.3g}"{kv} '
                           f'ctrlrange="-1 1"/>')
        elif kind == "velocity":
            act_xml.append(f'<velocity name="a{i}" {target} kv="{rng.uniform(0.1, 2):.3g}"/>')
        elif kind == "intvelocity":
            act_xml.append(f'<intvelocity name="a{i}" {target} kp="{rng.uniform(1, 10):.3g}" '
                           f'actrange="-1 1"/>')
        elif kind == "damper":
            act_xml.append(f'<damper name="a{i}" {target} kv="{rng.uniform(0.1, 2):.3g}" '
                           f'ctrlrange="0 1"/>')
        elif kind == "general_filter":
            act_xml.append(f'<general name="a{i}" {target} dyntype="filter" '
                           f'dynprm="{rng.uniform(0.01, 0.2):.3g}" gainprm="{rng.uniform(0.5, 3):.3g}" '
                           f'ctrlrange="-1 1" forcerange="-1.5 1.5"/>')
        elif kind == "filterexact":
            act_xml.append(f'<general name="a{i}" {target} dyntype="filterexact" '
                           f'dynprm="{rng.uniform(0.01, 0.2):.3g}" actearly="{rng.choice(["true", "false"])}"/>')
        elif kind == "general_integrator":
            act_xml.append(f'<general name="a{i}" {target} dyntype="integrator" actlimited="true" '
                           f'actrange="-2 2"/>')
        elif kind == "general_affine":
            act_xml.append(f'<general name="a{i}" {target} gaintype="affine" '
                           f'gainprm="{_v(rng.normal(size=3))}" biastype="affine" '
                           f'biasprm="{_v(rng.normal(size=3))}"/>')
        elif kind == "muscle":
            if not tendons and not joints:
                continue
            act_xml.append(f'<muscle name="a{i}" {target} lengthrange="-1 1" force="{rng.uniform(1, 20):.3g}"/>')
        sensors.append(f'<actuatorfrc actuator="a{i}"/>')
        sensors.append(f'<actuatorpos actuator="a{i}"/>')
        sensors.append(f'<actuatorvel actuator="a{i}"/>')
    for jname, _ in joints[:2]:
        sensors.append(f'<jointpos joint="{jname}"/><jointvel joint="{jname}"/>'
                       f'<jointactuatorfrc joint="{jname}"/>')
    for t in tendons:
        sensors.append(f'<tendonpos tendon="{t}"/><tendonvel tendon="{t}"/>')
    s = rng.choice(sites)
    sensors.append(f'<accelerometer site="{s}"/><gyro site="{s}"/><framepos objtype="site" objname="{s}"/>')
    return f"""<mujoco>
  <option integrator="{integrator}" timestep="0.002"><flag contact="disable"/></option>
  <worldbody>{world}</worldbody>
  <tendon>{''.join(tendon_xml)}</tendon>
  <actuator>{''.join(act_xml)}</actuator>
  <sensor>{''.join(sensors)}</sensor>
</mujoco>"""


QUANTITIES = ("actuator_length", "actuator_velocity", "actuator_force", "qfrc_actuator", "act_dot",
              "ten_length", "ten_velocity", "qfrc_passive", "sensordata", "qacc")


@pytest.mark.parametrize("seed", range(NMODEL))
def test_random_actuated_model(seed):
    xml = random_model(seed)
    mjm = mujoco.MjModel.from_xml_string(xml)
    gm = gauss.Model.from_xml_string(xml)
    mjd, gd = mujoco.MjData(mjm), gauss.Data(gm)
    rng = np.random.default_rng(1000 + seed)
    errors = []
    for k in range(NSTATE):
        qpos, qvel = oracle.random_state(mjm, rng)
        act = rng.uniform(-1, 1, size=mjm.na)
        ctrl = rng.uniform(-1.2, 1.2, size=mjm.nu)  # some outside ctrlrange: clamped
        for d in (mjd, gd):
            d.qpos[:], d.qvel[:] = qpos, qvel
            if mjm.na:
                d.act[:] = act
            if mjm.nu:
                d.ctrl[:] = ctrl
        mujoco.mj_forward(mjm, mjd)
        gauss.forward(gm, gd)
        checks = [(n, getattr(gd, n), getattr(mjd, n)) for n in QUANTITIES]
        checks.append(("actuator_moment", oracle.dense_moment(gm, gd), oracle.dense_moment(mjm, mjd)))
        for name, a, b in checks:
            oracle.check_close(errors, f"state {k} {name}", np.asarray(a), np.asarray(b), TOL)
    assert not errors, f"seed {seed}:\n{xml}\n" + "\n".join(errors[:6])
    # rollout from the last state with a fixed control sequence
    worst = 0.0
    for _ in range(50):
        u = rng.uniform(-1, 1, size=mjm.nu)
        mjd.ctrl[:], gd.ctrl[:] = u, u
        mujoco.mj_step(mjm, mjd)
        gauss.step(gm, gd)
        worst = max(worst, float(np.max(np.abs(gd.qpos - mjd.qpos))))
        if mjm.na:
            worst = max(worst, float(np.max(np.abs(gd.act - mjd.act))))
    assert worst < TRAJ_TOL, f"seed {seed}: rollout max |d(qpos, act)| {worst:.1e}\n{xml}"
