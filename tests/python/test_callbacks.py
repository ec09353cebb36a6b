"""User callbacks from Python (gauss.set_callbacks): per Data, no global state.

- control: called once per forward (Euler: once per step) with the Model and Data objects of the
  data it runs on; ctrl written in it is what the step sees and leaves; two Data objects with
  different callables each get only their own; copies made by copy_data carry the callbacks but
  receive themselves; an exception raised in a callable is raised again by the stepping function,
  after the step, and the data steps on normally afterwards.
- contactfilter: dropping one dynamic geom pair gives the contacts MuJoCo 3.3.7 finds when the
  same pair of bodies is left out with <exclude> (the oracle's equivalent of the filter); it is
  asked only about pairs that passed the built-in filters, never about explicit <pair>s.
- act_dyn, act_gain, act_bias, sensor: stored and reachable through the C struct (the stages that
  call them are tested with them).

Tolerances: contact ids exactly; dist 1e-9 and pos 1e-9 against MuJoCo (sphere-plane and
sphere-sphere contacts are closed forms of the positions, which agree to rounding)."""

import ctypes

import gauss
import mujoco
import numpy as np
import pytest
from gauss import _lib

# a pendulum with a motor (the actuator's force is another stage's; here only ctrl matters)
PENDULUM = """
<mujoco>
  <worldbody>
    <body name="arm" pos="0 0 1">
      <joint name="hinge" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05"/>
    </body>
  </worldbody>
  <actuator><motor joint="hinge" ctrlrange="-5 5"/></actuator>
</mujoco>"""

# three spheres resting into a plane and into each other, and one explicit pair
SCENE = """
<mujoco>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1"/>
    <body name="a" pos="0 0 0.09"><freejoint/><geom name="ga" size="0.1"/></body>
    <body name="b" pos="0.18 0 0.095"><freejoint/><geom name="gb" size="0.1"/></body>
    <body name="c" pos="-0.19 0 0.098"><freejoint/><geom name="gc" size="0.1"/></body>
  </worldbody>
  <contact>%s</contact>
</mujoco>"""


def load(xml):
    m = gauss.Model.from_xml_string(xml)
    return m, gauss.Data(m)


def test_control_called_once_per_forward_with_its_data():
    m, d = load(PENDULUM)
    seen = []

    def control(mm, dd):
        seen.append((mm, dd, dd.time))
        dd.ctrl[0] = 0.25 + len(seen)

    gauss.set_callbacks(d, control=control)
    gauss.forward(m, d)
    assert len(seen) == 1
    assert seen[0][0] is m and seen[0][1] is d
    # Euler: one forward per step, each at the time the step starts
    for k in range(5):
        t0 = d.time
        gauss.step(m, d)
        assert len(seen) == k + 2
        assert seen[-1][2] == t0
        # the value written in the callback is what the step kept
        assert d.ctrl[0] == 0.25 + len(seen)
    # RK4 evaluates the forces four times per step, as MuJoCo's mj_RungeKutta, which calls the
    # control callback in each evaluation
    m.opt.integrator = gauss.INT_RK4
    mjm = mujoco.MjModel.from_xml_string(PENDULUM)
    mjm.opt.integrator = mujoco.mjtIntegrator.mjINT_RK4
    mjd = mujoco.MjData(mjm)
    mjcalls = []
    mujoco.set_mjcb_control(lambda a, b: mjcalls.append(1))
    try:
        mujoco.mj_step(mjm, mjd)
    finally:
        mujoco.set_mjcb_control(None)
    n = len(seen)
    gauss.step(m, d)
    assert len(mjcalls) == 4
    assert len(seen) - n == len(mjcalls)


def test_rk4_control_callback_steers_every_evaluation_like_mujoco():
    """RK4 with a control callback whose control changes with time: each of the four force
    evaluations sees its own control, as in MuJoCo's mj_RungeKutta (the motor on a hinge would
    otherwise let the later evaluations keep the first one's actuator force). The pendulum's
    angle after 50 steps against MuJoCo's with the same callback: 1e-10 (rounding; measured equal
    to the bit); with the first evaluation's force kept the angles part by ~1e-4."""
    m, d = load(PENDULUM)
    m.opt.integrator = gauss.INT_RK4
    mjm = mujoco.MjModel.from_xml_string(PENDULUM)
    mjm.opt.integrator = mujoco.mjtIntegrator.mjINT_RK4
    mjd = mujoco.MjData(mjm)

    def control(mm, dd):
        dd.ctrl[0] = 4 * np.sin(300 * dd.time)

    gauss.set_callbacks(d, control=control)
    mujoco.set_mjcb_control(control)
    try:
        mujoco.mj_step(mjm, mjd, nstep=50)
    finally:
        mujoco.set_mjcb_control(None)
    gauss.step(m, d, 50)
    assert abs(d.qpos[0] - mjd.qpos[0]) <= 1e-10
    assert abs(d.qvel[0] - mjd.qvel[0]) <= 1e-10 * max(1.0, abs(mjd.qvel[0]))


def test_two_data_do_not_interfere():
    m = gauss.Model.from_xml_string(PENDULUM)
    d1, d2, d3 = gauss.Data(m), gauss.Data(m), gauss.Data(m)
    got1, got2 = [], []

    def c1(mm, dd):
        got1.append(dd)
        dd.ctrl[0] = 1.0

    def c2(mm, dd):
        got2.append(dd)
        dd.ctrl[0] = -2.0

    gauss.set_callbacks(d1, control=c1)
    gauss.set_callbacks(d2, control=c2)
    for _ in range(3):
        gauss.step(m, d1)
        gauss.step(m, d2)
        gauss.step(m, d3)
    assert len(got1) == 3 and all(x is d1 for x in got1)
    assert len(got2) == 3 and all(x is d2 for x in got2)
    assert d1.ctrl[0] == 1.0 and d2.ctrl[0] == -2.0 and d3.ctrl[0] == 0.0
    assert gauss.get_callbacks(d3)["control"] is None


def test_copy_keeps_callbacks_and_receives_itself():
    m, d = load(PENDULUM)
    got = []
    gauss.set_callbacks(d, control=lambda mm, dd: got.append(dd))
    c = gauss.copy_data(m, d)
    assert gauss.get_callbacks(c)["control"] is gauss.get_callbacks(d)["control"]
    gauss.forward(m, c)
    gauss.forward(m, d)
    assert len(got) == 2 and got[0] is c and got[1] is d
    # the copy's C callbacks stay valid after the source is gone
    del d
    import gc
    gc.collect()
    gauss.forward(m, c)
    assert len(got) == 3 and got[2] is c
    # reset keeps them
    gauss.reset_data(m, c)
    gauss.forward(m, c)
    assert len(got) == 4


def test_none_removes_and_unnamed_are_kept():
    m, d = load(PENDULUM)
    calls = []
    gauss.set_callbacks(d, control=lambda mm, dd: calls.append(1),
                        contactfilter=lambda mm, dd, a, b: False)
    gauss.set_callbacks(d, control=None)
    cb = _lib.gs_dataCallbacks(d._ptr).contents
    assert not ctypes.cast(cb.control, ctypes.c_void_p).value
    assert ctypes.cast(cb.contactfilter, ctypes.c_void_p).value
    gauss.forward(m, d)
    assert calls == []
    with pytest.raises(TypeError):
        gauss.set_callbacks(d, control=3)


def test_exception_raised_after_the_step():
    m, d = load(PENDULUM)
    state = {"n": 0}

    def control(mm, dd):
        state["n"] += 1
        if state["n"] == 3:
            raise ValueError("boom in control")
        dd.ctrl[0] = 1.0

    gauss.set_callbacks(d, control=control)
    gauss.step(m, d, 2)
    t = d.time
    with pytest.raises(ValueError, match="boom in control"):
        gauss.step(m, d, 10)  # stops after the step whose callback raised
    assert d.time == pytest.approx(t + m.opt.timestep, abs=1e-15)
    gauss.step(m, d)  # the error was raised once; stepping goes on
    assert state["n"] == 4
    # a contact filter that raises, through forward
    m2, d2 = load(SCENE % "")
    gauss.set_callbacks(d2, contactfilter=lambda mm, dd, a, b: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        gauss.forward(m2, d2)


def contacts(d):
    return sorted((int(c.geom1), int(c.geom2), float(c.dist), tuple(np.round(c.pos, 12)))
                  for c in d.contact)


def mj_contacts(m, d):
    return sorted((int(c.geom1), int(c.geom2), float(c.dist), tuple(c.pos))
                  for c in d.contact[:d.ncon])


def assert_same_contacts(gd, mjm, mjd):
    g, j = contacts(gd), mj_contacts(mjm, mjd)
    assert [c[:2] for c in g] == [c[:2] for c in j]
    for a, b in zip(g, j):
        assert abs(a[2] - b[2]) < 1e-9
        assert np.allclose(a[3], b[3], atol=1e-9, rtol=0)


@pytest.mark.parametrize("drop", [("floor", "gb"), ("ga", "gb"), ("gc", "ga")])
def test_contactfilter_drops_a_pair_as_exclude_does(drop):
    m, d = load(SCENE % "")
    g1, g2 = (gauss_id(m, n) for n in drop)
    asked = []

    def filt(mm, dd, a, b):
        assert mm is m and dd is d
        asked.append((a, b))
        return {a, b} == {g1, g2}

    gauss.set_callbacks(d, contactfilter=filt)
    gauss.forward(m, d)
    bodies = [mujoco_body(drop[0]), mujoco_body(drop[1])]
    mjxml = SCENE % f'<exclude body1="{bodies[0]}" body2="{bodies[1]}"/>'
    mjm = mujoco.MjModel.from_xml_string(mjxml)
    mjd = mujoco.MjData(mjm)
    mujoco.mj_forward(mjm, mjd)
    assert_same_contacts(d, mjm, mjd)
    # the unfiltered scene has the dropped pair: the filter did the work
    full = contacts(load_forward(SCENE % ""))
    assert any({c[0], c[1]} == {g1, g2} for c in full)
    assert not any({c[0], c[1]} == {g1, g2} for c in contacts(d))
    # asked once per pair the built-in filters kept, each pair once
    assert len(asked) == len(set(frozenset(p) for p in asked))
    # the same as gauss's own <exclude>
    assert contacts(d) == contacts(load_forward(mjxml))


def test_contactfilter_sees_only_pairs_the_builtin_filters_keep():
    # gb and gc do not collide by contype/conaffinity; gb and ga are excluded; ga and gc form an
    # explicit pair, which the filter never sees and cannot drop
    xml = SCENE.replace('name="gb" size="0.1"', 'name="gb" size="0.1" contype="2" conaffinity="2"')
    xml = xml.replace('name="gc" size="0.1"', 'name="gc" size="0.1" contype="1" conaffinity="1"')
    xml = xml % '<exclude body1="a" body2="b"/><pair geom1="ga" geom2="gc"/>'
    m, d = load(xml)
    asked = []
    gauss.set_callbacks(d, contactfilter=lambda mm, dd, a, b: asked.append({a, b}) or True)
    gauss.forward(m, d)
    mjm = mujoco.MjModel.from_xml_string(xml)
    mjd = mujoco.MjData(mjm)
    mjasked = []
    mujoco.set_mjcb_contactfilter(lambda a, b, g1, g2: mjasked.append({g1, g2}) or 1)
    try:
        mujoco.mj_forward(mjm, mjd)
    finally:
        mujoco.set_mjcb_contactfilter(None)
    # same contacts (the explicit pair only), and the same pairs asked about, as MuJoCo
    assert_same_contacts(d, mjm, mjd)
    ga, gc = gauss_id(m, "ga"), gauss_id(m, "gc")
    assert [(c[0], c[1]) for c in contacts(d)] == [(ga, gc)]
    assert sorted(map(sorted, asked)) == sorted(map(sorted, mjasked))


def test_act_and_sensor_callbacks_are_stored_and_reachable():
    m, d = load(PENDULUM)
    got = []
    gauss.set_callbacks(
        d,
        act_dyn=lambda mm, dd, i: got.append(("dyn", dd, i)) or 1.5,
        act_gain=lambda mm, dd, i: got.append(("gain", dd, i)) or 2.5,
        act_bias=lambda mm, dd, i: got.append(("bias", dd, i)) or -3.5,
        sensor=lambda mm, dd, stage: got.append(("sensor", dd, stage)))
    names = gauss.get_callbacks(d)
    assert all(names[k] is not None for k in ("act_dyn", "act_gain", "act_bias", "sensor"))
    cb = _lib.gs_dataCallbacks(d._ptr).contents
    # call the C function pointers as the stages do
    assert cb.act_dyn(m._ptr, d._ptr, 0, None) == 1.5
    assert cb.act_gain(m._ptr, d._ptr, 0, None) == 2.5
    assert cb.act_bias(m._ptr, d._ptr, 0, None) == -3.5
    cb.sensor(m._ptr, d._ptr, 2, None)
    assert [(k, x is d, i) for k, x, i in got] == [
        ("dyn", True, 0), ("gain", True, 0), ("bias", True, 0), ("sensor", True, 2)]


def gauss_id(m, name):
    return _lib.gs_name2id(m._ptr, gauss.OBJ_GEOM, name.encode())


def mujoco_body(geom):
    return {"floor": "world", "ga": "a", "gb": "b", "gc": "c"}[geom]


def load_forward(xml):
    m, d = load(xml)
    gauss.forward(m, d)
    return d


# ---- the callbacks against MuJoCo's global ones: the same Python functions drive both ----

USER_ACTUATED = """
<mujoco>
  <option integrator="{integrator}" timestep="0.005"/>
  <worldbody>
    <body pos="0 0 1">
      <joint name="h1" type="hinge" axis="0 1 0" damping="0.1"/>
      <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.05"/>
      <body pos="0.4 0 0">
        <joint name="h2" type="hinge" axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.04"/>
      </body>
    </body>
  </worldbody>
  <actuator>
    <general joint="h1" dyntype="user" gaintype="user" biastype="user" ctrlrange="-1 1"/>
    <general joint="h2" dyntype="filter" dynprm="0.05" gaintype="user" biastype="affine"
             biasprm="0 -2 -0.3"/>
  </actuator>
</mujoco>"""


def _control(m, d):
    # a feedback law on the state, so that a wrong call order shows in the trajectory
    d.ctrl[0] = np.clip(-1.5 * d.qpos[0] - 0.2 * d.qvel[0] + 0.3 * np.sin(5 * d.time), -1, 1)
    d.ctrl[1] = 0.5 * np.cos(3 * d.time)


def _act_dyn(m, d, i):
    return 4.0 * (d.ctrl[i] - d.act[m.actuator_actadr[i]])


def _act_gain(m, d, i):
    return 2.0 + 0.5 * d.qpos[i] ** 2


def _act_bias(m, d, i):
    return -0.4 * d.qvel[i] - 1.0 * d.qpos[i]


@pytest.mark.parametrize("integrator", ["Euler", "RK4", "implicitfast"])
def test_user_actuators_and_control_like_mujoco(integrator):
    """A control law and user activation dynamics, gain and bias, set as MuJoCo's global callbacks
    and as gauss's per-data ones: 200 steps agree to 1e-9 (qpos, qvel, act, actuator_force)."""
    xml = USER_ACTUATED.format(integrator=integrator)
    mm = mujoco.MjModel.from_xml_string(xml)
    md = mujoco.MjData(mm)
    gm, gd = load(xml)
    gauss.set_callbacks(gd, control=_control, act_dyn=_act_dyn, act_gain=_act_gain,
                        act_bias=_act_bias)
    md.qpos[:] = gd.qpos[:] = [0.4, -0.3]
    mujoco.set_mjcb_control(_control)
    mujoco.set_mjcb_act_dyn(_act_dyn)
    mujoco.set_mjcb_act_gain(_act_gain)
    mujoco.set_mjcb_act_bias(_act_bias)
    try:
        worst = 0.0
        for _ in range(200):
            mujoco.mj_step(mm, md)
            gauss.step(gm, gd)
            for a, b in ((gd.qpos, md.qpos), (gd.qvel, md.qvel), (gd.act, md.act),
                         (gd.actuator_force, md.actuator_force)):
                worst = max(worst, float(np.max(np.abs(np.asarray(a) - b))))
    finally:
        mujoco.set_mjcb_control(None)
        mujoco.set_mjcb_act_dyn(None)
        mujoco.set_mjcb_act_gain(None)
        mujoco.set_mjcb_act_bias(None)
    assert np.any(gd.actuator_force != 0) and np.ptp(md.qpos) > 0.1
    assert worst <= 1e-9, f"{integrator}: max difference {worst:.2e}"
