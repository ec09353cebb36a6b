"""Robustness: bad numbers while stepping, bad models while loading, and every corpus model loading
and simulating.

Bad state (MuJoCo's behaviour, checked against MuJoCo in the same test): mj_step finds NaN, Inf or a
value beyond 1e10 in qpos or qvel before the step, or in qacc after forward; it then counts a warning
(the data reset clears the counters first, so the count reads 1), records the index in lastinfo,
resets the data to the model's initial state (qpos0, zero velocities, forces and time) and carries
on with the step from there. So after the bad step the data equals a fresh data stepped once."""

import os
import re

import numpy as np
import pytest

import gauss
import mujoco
import oracle
from conftest import Pair

ROBUST_XML = """<mujoco model="robust">
  <option timestep="0.002">
    <flag contact="disable"/>
  </option>
  <worldbody>
    <body name="a" pos="0 0 1">
      <joint name="h1" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 -0.3" size="0.05"/>
      <body name="b" pos="0.3 0 -0.3">
        <joint name="s2" type="slide" axis="1 0 1"/>
        <geom type="box" size="0.1 0.05 0.05"/>
      </body>
    </body>
    <body name="c" pos="1 0 2">
      <freejoint/>
      <geom type="ellipsoid" size="0.1 0.2 0.15"/>
    </body>
  </worldbody>
</mujoco>
"""

BAD_STATES = {
    # name: (array to corrupt, index, value, gauss warning, MuJoCo warning)
    "qpos-nan": ("qpos", 3, np.nan, "WARN_BADQPOS", mujoco.mjtWarning.mjWARN_BADQPOS),
    "qpos-inf": ("qpos", 0, -np.inf, "WARN_BADQPOS", mujoco.mjtWarning.mjWARN_BADQPOS),
    "qvel-inf": ("qvel", 1, np.inf, "WARN_BADQVEL", mujoco.mjtWarning.mjWARN_BADQVEL),
    "qvel-nan": ("qvel", 4, np.nan, "WARN_BADQVEL", mujoco.mjtWarning.mjWARN_BADQVEL),
    # a huge applied force gives a huge qacc (beyond 1e10): bad acceleration
    "qacc-huge": ("qfrc_applied", 2, 1e300, "WARN_BADQACC", mujoco.mjtWarning.mjWARN_BADQACC),
}


@pytest.mark.parametrize("case", list(BAD_STATES))
def test_bad_state_resets(case):
    array, index, value, gwarn_name, mwarn = BAD_STATES[case]
    gwarn = getattr(gauss, gwarn_name)
    assert gwarn == int(mwarn), f"gauss.{gwarn_name} is {gwarn}, MuJoCo's is {int(mwarn)}"
    pair = Pair(ROBUST_XML)
    h = pair.mjm.opt.timestep
    # move away from the initial state first, so that a reset shows
    rng = np.random.default_rng(11)
    qpos, qvel = oracle.random_state(pair.mjm, rng)
    pair.set_state(qpos, qvel)
    for _ in range(10):
        mujoco.mj_step(pair.mjm, pair.mjd)
        gauss.step(pair.gm, pair.gd)
    assert pair.gd.time == pytest.approx(10 * h)
    assert all(int(w.number) == 0 for w in pair.gd.warning)

    getattr(pair.gd, array)[index] = value
    getattr(pair.mjd, array)[index] = value
    mujoco.mj_step(pair.mjm, pair.mjd)
    gauss.step(pair.gm, pair.gd)

    # what a reset followed by one step gives, in each engine
    fresh_g = gauss.Data(pair.gm)
    gauss.step(pair.gm, fresh_g)
    fresh_m = mujoco.MjData(pair.mjm)
    mujoco.mj_step(pair.mjm, fresh_m)

    # MuJoCo does what the module docstring says (a check on the test's premise)
    assert pair.mjd.warning[mwarn].number == 1
    assert np.array_equal(pair.mjd.qpos, fresh_m.qpos) and pair.mjd.time == pytest.approx(h)

    g = pair.gd
    numbers = [int(w.number) for w in g.warning]
    assert numbers[gwarn] == 1, f"warning counters {numbers}; expected 1 at index {gwarn}"
    assert sum(numbers) == 1, f"warning counters {numbers}"
    # the kinds both engines have (gauss adds kinds after MuJoCo's eight)
    common = min(len(numbers), len(pair.mjd.warning))
    assert numbers[:common] == [int(w.number) for w in pair.mjd.warning][:common]
    assert int(g.warning[gwarn].lastinfo) == int(pair.mjd.warning[mwarn].lastinfo)
    assert np.all(np.isfinite(g.qpos)) and np.all(np.isfinite(g.qvel))
    assert g.time == pytest.approx(h, abs=1e-15), f"time {g.time}: expected reset, then one step"
    # reset to the initial state, then one step: equal to a fresh data stepped once
    assert np.allclose(g.qpos, fresh_g.qpos, rtol=0, atol=1e-12), (g.qpos, fresh_g.qpos)
    assert np.allclose(g.qvel, fresh_g.qvel, rtol=0, atol=1e-12), (g.qvel, fresh_g.qvel)
    assert np.all(g.qfrc_applied == 0), "the reset must clear the applied forces"
    # and the same as MuJoCo
    errors = []
    oracle.check_close(errors, "qpos", g.qpos, pair.mjd.qpos, 1e-9)
    oracle.check_close(errors, "qvel", g.qvel, pair.mjd.qvel, 1e-9)
    assert not errors, "; ".join(errors)
    # the reset state really is the model's: qpos0 stepped once from rest moves little
    assert np.max(np.abs(g.qpos - pair.gm.qpos0)) < 1e-3


def test_bad_state_counter_after_repeat():
    """A second bad step counts 1 again (the reset clears the counters first), as in MuJoCo."""
    pair = Pair(ROBUST_XML)
    for _ in range(2):
        pair.gd.qpos[0] = np.nan
        pair.mjd.qpos[0] = np.nan
        gauss.step(pair.gm, pair.gd)
        mujoco.mj_step(pair.mjm, pair.mjd)
    mnum = [int(w.number) for w in pair.mjd.warning]
    gnum = [int(w.number) for w in pair.gd.warning][:len(mnum)]  # the kinds both engines have
    assert gnum == mnum, f"gauss {gnum}, MuJoCo {mnum}"


NAN_PILE_XML = """<mujoco>
  <option solver="PGS" cone="elliptic" iterations="100"><flag autoreset="disable"/></option>
  <worldbody>
    <geom type="plane" size="5 5 0.1"/>
%s
  </worldbody>
</mujoco>""" % "\n".join(
    f'    <body pos="{0.3 * i} {0.3 * j} 0.1"><freejoint/>'
    f'<geom type="sphere" size="0.1" condim="{3 if (i + j) % 2 else 4}"/></body>'
    for i in range(4) for j in range(4))


def test_nan_state_without_autoreset_returns():
    """With autoreset off a NaN state is stepped on (as MuJoCo does, counting the warnings); NaN
    then reaches the elliptic contacts' blocks in PGS, which must give up on them at once. The
    block solves had iterated to their limits on NaN (a tenfold shift of the friction matrix up
    to 1e300, ~315 Cholesky attempts, and 300 evaluations of the cone's minimiser, each a ball
    solve to its own limit) at every block of every sweep: these three steps of 16 spheres took
    19 s of CPU time, a 1252-contact coil 81 s a step; now a few milliseconds. The bound is a
    guard against that hang, not a speed measurement: ~300 times what the steps take now, a
    tenth of what they took."""
    import time
    m = gauss.Model.from_xml_string(NAN_PILE_XML)
    d = gauss.Data(m)
    gauss.step(m, d, 50)
    assert d.ncon == 16  # every sphere on the plane: the elliptic blocks are there
    d.qvel[:] = np.nan
    t0 = time.process_time()
    gauss.step(m, d, 3)
    spent = time.process_time() - t0
    assert d.nefc > 0  # the NaN state did reach the solver
    assert int(d.warning[gauss.WARN_BADQVEL].number) > 0  # and was counted, not reset
    assert spent < 2.0, f"three steps from a NaN state took {spent:.1f} s of CPU time"


# ---- bad models: each raises gauss.GaussError naming the line and the element ----

BAD_MODELS = {
    # name: (xml, [(element, line) any one of which the message must name])
    "joint-on-world": ("""<mujoco>
  <worldbody>
    <geom type="plane" size="1 1 0.1"/>
    <joint name="j" type="hinge"/>
  </worldbody>
</mujoco>""", [("joint", 4)]),
    "negative-mass": ("""<mujoco>
  <worldbody>
    <body>
      <joint type="hinge"/>
      <inertial pos="0 0 0" mass="-1" diaginertia="1 1 1"/>
    </body>
  </worldbody>
</mujoco>""", [("inertial", 5), ("body", 3)]),  # MuJoCo names the body; the attribute is on line 5
    "zero-quaternion": ("""<mujoco>
  <worldbody>
    <body quat="0 0 0 0">
      <geom type="sphere" size="0.1"/>
    </body>
  </worldbody>
</mujoco>""", [("body", 3)]),
    "zero-quaternion-geom": ("""<mujoco>
  <worldbody>
    <body>
      <joint type="hinge"/>
      <geom type="sphere" size="0.1" quat="0 0 0 0"/>
    </body>
  </worldbody>
</mujoco>""", [("geom", 5)]),
    "malformed-number": ("""<mujoco>
  <worldbody>
    <body pos="0 0 1.x">
      <geom type="sphere" size="0.1"/>
    </body>
  </worldbody>
</mujoco>""", [("body", 3)]),
    "malformed-size": ("""<mujoco>
  <worldbody>
    <body>
      <geom type="sphere" size="0.1abc"/>
    </body>
  </worldbody>
</mujoco>""", [("geom", 4)]),
    "inertial-without-mass": ("""<mujoco>
  <worldbody>
    <body>
      <joint type="hinge"/>
      <inertial pos="0 0 0" diaginertia="1 1 1"/>
    </body>
  </worldbody>
</mujoco>""", [("inertial", 5)]),
    "unknown-element": ("""<mujoco>
  <worldbody>
    <body>
      <gizmo size="1"/>
    </body>
  </worldbody>
</mujoco>""", [("gizmo", 4)]),
    # <body> opened on line 3 is never closed; the parser finds out at </worldbody> on line 5
    "unclosed-tag": ("""<mujoco>
  <worldbody>
    <body>
      <geom type="sphere" size="0.1"/>
  </worldbody>
</mujoco>""", [("body", 3), ("body", 5)]),
}


def _names(msg, element, line):
    return (re.search(rf"(?<![\w]){re.escape(element)}(?![\w])", msg) is not None
            and re.search(rf"(?<!\d){line}(?!\d)", msg) is not None)


@pytest.mark.parametrize("case", list(BAD_MODELS))
def test_bad_model_error(case):
    xml, expected = BAD_MODELS[case]
    with pytest.raises(ValueError):  # the premise: MuJoCo refuses it too
        mujoco.MjModel.from_xml_string(xml)
    with pytest.raises(gauss.GaussError) as info:
        gauss.Model.from_xml_string(xml)
    assert isinstance(info.value, ValueError)
    msg = str(info.value)
    assert any(_names(msg, el, line) for el, line in expected), (
        f"message {msg!r} should name one of {expected} (element and line)")


def test_bad_model_file_names_file(tmp_path):
    """Loading a bad file: the message names the file as well as the line and element."""
    xml, expected = BAD_MODELS["inertial-without-mass"]
    path = tmp_path / "bad_inertial.xml"
    path.write_text(xml)
    with pytest.raises(gauss.GaussError) as info:
        gauss.Model.from_xml_path(str(path))
    msg = str(info.value)
    assert "bad_inertial.xml" in msg, msg
    assert any(_names(msg, el, line) for el, line in expected), msg


def test_missing_file():
    with pytest.raises(gauss.GaussError) as info:
        gauss.Model.from_xml_path("/nonexistent/dir/no_model.xml")
    assert "no_model.xml" in str(info.value)


# ---- every corpus model, original file: loads and simulates ----

def test_corpus_loads_and_simulates(corpus_model):
    """The original file (includes and all) loads through from_xml_path and simulates 200 steps
    with contacts disabled, without NaN and without a bad-state warning (which would hide a NaN
    behind a reset). The load warnings are printed (pytest -s)."""
    model_id, path = corpus_model
    m = gauss.Model.from_xml_path(path)
    print(f"\n[{model_id}] {len(m.load_warnings)} load warnings")
    for w in m.load_warnings:
        print(f"    {w}")
    mjm = mujoco.MjModel.from_xml_path(path)
    assert (m.nq, m.nv, m.nbody, m.njnt) == (mjm.nq, mjm.nv, mjm.nbody, mjm.njnt)
    m.opt.disableflags = m.opt.disableflags | gauss.DSBL_CONTACT
    d = gauss.Data(m)
    assert np.array_equal(d.qpos, m.qpos0)
    gauss.step(m, d, 200)
    assert d.time == pytest.approx(200 * m.opt.timestep)
    bad = [gauss.WARN_BADQPOS, gauss.WARN_BADQVEL, gauss.WARN_BADQACC]
    numbers = {i: int(d.warning[i].number) for i in bad}
    assert not any(numbers.values()), f"{model_id}: bad-state warnings {numbers}"
    for name in ("qpos", "qvel", "qacc", "xpos"):
        assert np.all(np.isfinite(getattr(d, name))), f"{model_id}: {name} not finite"


def test_corpus_files_present():
    """The corpus is where the tests look for it (a guard against testing nothing)."""
    ids = [mid for mid, _ in oracle.corpus_models()]
    assert len(ids) >= 30, ids
    assert "mujoco/humanoid" in ids and "dm_control/quadruped" in ids
    assert all(os.path.isfile(p) for _, p in oracle.corpus_models())
