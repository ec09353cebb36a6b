"""Stage timers (d.timer): off by default, counting each stage once per call when on, nested as the
pipeline nests, zeroed by reset, and without effect on the simulation."""

import numpy as np

import gauss

# two boxes on a plane: every timed stage has work (contacts, rows, solver iterations)
BOXES = """<mujoco model="boxes">
  <option timestep="0.002" integrator="{integrator}"/>
  <worldbody>
    <geom type="plane" size="5 5 0.1"/>
    <body pos="0 0 0.1"><freejoint/><geom type="box" size="0.1 0.1 0.1"/></body>
    <body pos="0.05 0 0.35"><freejoint/><geom type="capsule" size="0.05 0.1"/></body>
  </worldbody>
</mujoco>"""

STAGES = (gauss.TIMER_POS_KINEMATICS, gauss.TIMER_POS_INERTIA, gauss.TIMER_POS_COLLISION,
          gauss.TIMER_POS_MAKE, gauss.TIMER_VEL_REFERENCE, gauss.TIMER_CONSTRAINT,
          gauss.TIMER_ACTUATION, gauss.TIMER_PASSIVE)


def run(integrator, nstep, timer):
    m = gauss.Model.from_xml_string(BOXES.format(integrator=integrator))
    d = gauss.Data(m)
    if timer:
        gauss.set_timer(d)
    gauss.step(m, d, nstep=nstep)
    return m, d


def test_off_by_default():
    _, d = run("Euler", 50, timer=False)
    assert d.ncon > 0 and d.nefc > 0
    assert d.timer.shape == (gauss.NTIMER,)
    assert np.all(d.timer.number == 0) and np.all(d.timer.duration == 0)


def test_counts_and_nesting():
    # RK4 evaluates the forward dynamics four times per step, the other integrators once
    for integrator, per_step in (("Euler", 1), ("RK4", 4), ("implicitfast", 1)):
        nstep = 40
        _, d = run(integrator, nstep, timer=True)
        t = d.timer
        assert t.number[gauss.TIMER_STEP] == nstep, integrator
        assert t.number[gauss.TIMER_FORWARD] == per_step * nstep, integrator
        for s in STAGES:
            assert t.number[s] == per_step * nstep, (integrator, s)
        # sensors: three stages per step, computed once per step (RK4's inner stages skip them)
        assert t.number[gauss.TIMER_SENSOR] == 3 * nstep, integrator
        assert np.all(t.duration > 0), integrator
        # the stages run inside gs_forward, which runs inside gs_step
        inside = list(STAGES) + [gauss.TIMER_SENSOR]
        assert t.duration[inside].sum() <= t.duration[gauss.TIMER_FORWARD], integrator
        assert t.duration[gauss.TIMER_FORWARD] <= t.duration[gauss.TIMER_STEP], integrator


def test_reset_zeroes_and_keeps_the_switch():
    m, d = run("Euler", 10, timer=True)
    gauss.reset_data(m, d)
    assert np.all(d.timer.number == 0) and np.all(d.timer.duration == 0)
    gauss.step(m, d, nstep=3)
    assert d.timer.number[gauss.TIMER_STEP] == 3
    gauss.set_timer(d, False)
    gauss.step(m, d, nstep=3)
    assert d.timer.number[gauss.TIMER_STEP] == 3
    # a copy carries the timers
    assert d.copy().timer.number[gauss.TIMER_STEP] == 3


def test_timers_do_not_change_the_motion():
    for integrator in ("Euler", "RK4"):
        _, a = run(integrator, 200, timer=False)
        _, b = run(integrator, 200, timer=True)
        assert np.array_equal(a.qpos, b.qpos) and np.array_equal(a.qvel, b.qvel), integrator
