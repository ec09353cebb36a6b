"""State arrays, pickling and deep copies: gauss.state_size / get_state / set_state hold MuJoCo
3.3.7's components in its order (sizes and values equal mj_stateSize / mj_getState for every
component bit and every set, on every corpus model); a state restored into a fresh Data continues
bit for bit the way the original does for 1000 steps with contacts; pickled and deep-copied Data
and Model continue bit for bit; bad input raises ValueError."""

import copy
import pickle

import mujoco
import numpy as np
import pytest

import gauss

BITS = [1 << i for i in range(gauss.NSTATE)]
SETS = [gauss.STATE_PHYSICS, gauss.STATE_FULLPHYSICS, gauss.STATE_USER,
        gauss.STATE_INTEGRATION]


def test_constants_are_mujocos():
    for name in gauss.STATE_NAMES + ("PHYSICS", "FULLPHYSICS", "USER", "INTEGRATION"):
        assert getattr(gauss, "STATE_" + name) == int(getattr(mujoco.mjtState, "mjSTATE_" + name)), name
    # MuJoCo takes every bit below NSTATE and rejects the next one
    mm = mujoco.MjModel.from_xml_string("<mujoco/>")
    mujoco.mj_stateSize(mm, (1 << gauss.NSTATE) - 1)
    with pytest.raises(mujoco.FatalError):
        mujoco.mj_stateSize(mm, 1 << gauss.NSTATE)


def fill_random(gm, gd, mm, md, rng):
    """The same random values in every state component of both engines' data."""
    gd.time = md.time = rng.uniform(0, 10)
    for name in ("qpos", "qvel", "act", "qacc_warmstart", "ctrl", "qfrc_applied",
                 "xfrc_applied", "mocap_pos", "mocap_quat", "userdata"):
        target = getattr(md, name)
        value = rng.normal(size=target.shape)
        target[...] = value
        getattr(gd, name)[...] = value
    active = rng.integers(0, 2, size=mm.neq)
    md.eq_active[:] = active
    gd.eq_active[:] = active


def load_both(path):
    return gauss.Model.from_xml_path(path), mujoco.MjModel.from_xml_path(path)


def test_sizes_and_layout_match_mujoco(corpus_model):
    _, path = corpus_model
    gm, mm = load_both(path)
    gd, md = gauss.Data(gm), mujoco.MjData(mm)
    fill_random(gm, gd, mm, md, np.random.default_rng(7))
    for spec in BITS + SETS + [(1 << gauss.NSTATE) - 1, 0]:
        n = mujoco.mj_stateSize(mm, spec)
        assert gauss.state_size(gm, spec) == n, spec
        want = np.empty(n)
        mujoco.mj_getState(mm, md, want, spec)
        got = gauss.get_state(gm, gd, spec)
        assert got.shape == (n,) and got.dtype == np.float64
        assert got.tobytes() == want.tobytes(), spec
        # MuJoCo's state written into a fresh gauss data reads back the same
        fresh = gauss.Data(gm)
        gauss.set_state(gm, fresh, want, spec)
        assert gauss.get_state(gm, fresh, spec).tobytes() == want.tobytes(), spec


def drive(m, d, rng, nstep):
    """nstep steps under random controls inside the control ranges (which brings the models'
    bodies into contact with the floor and each other)."""
    lo, hi = (m.actuator_ctrlrange[:, 0], m.actuator_ctrlrange[:, 1]) if m.nu else (0, 0)
    for _ in range(nstep):
        if m.nu:
            d.ctrl[:] = np.where(m.actuator_ctrllimited > 0, rng.uniform(lo, hi), rng.normal(size=m.nu))
        gauss.step(m, d)


def trajectory_bytes(m, d, nstep, every=100):
    """qpos, qvel, act, qacc and time of d every `every` steps, as bytes, and the most contacts."""
    out, most = [], 0
    for i in range(nstep):
        gauss.step(m, d)
        most = max(most, d.ncon)
        if (i + 1) % every == 0:
            out.append(b"".join(np.asarray(x).tobytes()
                                for x in (d.qpos, d.qvel, d.act, d.qacc, [d.time])))
    return out, most


def continued(m, start):
    """The trajectory of a data restored from `start` (a Data), against the original's."""
    return trajectory_bytes(m, start, 1000)


def test_restored_state_continues_bit_identically(corpus_model):
    _, path = corpus_model
    m = gauss.Model.from_xml_path(path)
    d = gauss.Data(m)
    drive(m, d, np.random.default_rng(3), 300)
    # FULLPHYSICS holds what the dynamics integrate; the inputs (USER) and the solver's warm start
    # decide the next step too: restored as separate sets, the three make INTEGRATION
    full = gauss.get_state(m, d, gauss.STATE_FULLPHYSICS)
    user = gauss.get_state(m, d, gauss.STATE_USER)
    warm = gauss.get_state(m, d, gauss.STATE_WARMSTART)
    whole = gauss.get_state(m, d, gauss.STATE_INTEGRATION)
    a = gauss.Data(m)
    gauss.set_state(m, a, full, gauss.STATE_FULLPHYSICS)
    gauss.set_state(m, a, user, gauss.STATE_USER)
    gauss.set_state(m, a, warm, gauss.STATE_WARMSTART)
    assert gauss.get_state(m, a, gauss.STATE_INTEGRATION).tobytes() == whole.tobytes()
    b = gauss.Data(m)
    gauss.set_state(m, b, whole, gauss.STATE_INTEGRATION)
    ref, most = trajectory_bytes(m, d, 1000)
    for restored in (a, b):
        got, _ = trajectory_bytes(m, restored, 1000)
        assert got == ref
    print(f"most contacts during the continuation: {most}")


def test_some_corpus_models_have_contacts():
    # the continuation test is meant to cover contacts: the legged models touch the floor
    from oracle import corpus_models
    path = dict(corpus_models())["gymnasium/ant"]
    m = gauss.Model.from_xml_path(path)
    d = gauss.Data(m)
    drive(m, d, np.random.default_rng(3), 300)
    assert max(trajectory_bytes(m, d, 100)[1], d.ncon) > 0


def test_pickle_and_deepcopy_continue_bit_identically(corpus_model):
    _, path = corpus_model
    m = gauss.Model.from_xml_path(path)
    d = gauss.Data(m)
    drive(m, d, np.random.default_rng(5), 200)
    pickled = pickle.loads(pickle.dumps(d))
    deep = copy.deepcopy(d)
    assert pickled.model is not m and deep.model is not m
    for name in m.field_names():
        assert getattr(pickled.model, name).tobytes() == getattr(m, name).tobytes(), name
        assert getattr(deep.model, name).tobytes() == getattr(m, name).tobytes(), name
    for name in d.field_names():
        assert getattr(pickled, name).tobytes() == getattr(d, name).tobytes(), name
    assert pickled.time == d.time
    ref, _ = trajectory_bytes(m, d, 1000)
    for other in (pickled, deep):
        got, _ = trajectory_bytes(other.model, other, 1000)
        assert got == ref


def test_deepcopy_keeps_shared_model_shared():
    m = gauss.Model.from_xml_string(
        '<mujoco><worldbody><body><freejoint/><geom size=".1"/></body></worldbody></mujoco>')
    d1, d2 = gauss.Data(m), gauss.Data(m)
    m2, c1, c2 = copy.deepcopy((m, d1, d2))
    assert c1.model is m2 and c2.model is m2 and m2 is not m
    m3, c3 = pickle.loads(pickle.dumps((m, d1)))
    assert c3.model is m3


def test_model_deepcopy_and_pickle_step_the_same():
    from oracle import corpus_models
    path = dict(corpus_models())["gymnasium/humanoid"]
    m = gauss.Model.from_xml_path(path)
    runs = []
    for mm in (m, copy.deepcopy(m), pickle.loads(pickle.dumps(m))):
        d = gauss.Data(mm)
        drive(mm, d, np.random.default_rng(9), 200)
        runs.append(d.qpos.tobytes() + d.qvel.tobytes())
    assert runs[0] == runs[1] == runs[2]


def test_bad_input():
    m = gauss.Model.from_xml_string(
        '<mujoco><worldbody><body><freejoint/><geom size=".1"/></body></worldbody></mujoco>')
    d = gauss.Data(m)
    n = gauss.state_size(m, gauss.STATE_PHYSICS)
    assert n == 13
    with pytest.raises(ValueError, match=r"\(12,\).*13"):
        gauss.set_state(m, d, np.zeros(12), gauss.STATE_PHYSICS)
    with pytest.raises(ValueError, match="13"):
        gauss.set_state(m, d, np.zeros((13, 1)), gauss.STATE_PHYSICS)
    for bad in (1 << gauss.NSTATE, -1, 1 << 20):
        with pytest.raises(ValueError, match="bits"):
            gauss.state_size(m, bad)
        with pytest.raises(ValueError, match="bits"):
            gauss.get_state(m, d, bad)
        with pytest.raises(ValueError, match="bits"):
            gauss.set_state(m, d, np.zeros(1), bad)
    with pytest.raises(ValueError, match="shape"):
        gauss.get_state(m, d, gauss.STATE_PHYSICS, out=np.zeros(12))
    other = gauss.Model.from_xml_string('<mujoco/>')
    with pytest.raises(ValueError, match="another model"):
        gauss.get_state(other, d)
    # nothing was written by the rejected calls
    assert np.array_equal(d.qpos, m.qpos0)
