"""gauss.rollout and gauss.step(m, d, nstep): a batch of open-loop rollouts equals, bit for bit, a
plain Python loop of set_state / step / get_state; the same bits on 1, 2 and 4 threads and with
any data left in the Data beforehand; shapes and argument handling as mujoco.rollout.rollout; the
trajectories follow MuJoCo's rollout on a corpus model; bad input raises ValueError."""

import mujoco
import numpy as np
import pytest
from mujoco import rollout as mj_rollout

import gauss
import oracle

PATHS = dict(oracle.corpus_models())
FULL = gauss.STATE_FULLPHYSICS


def initial_states(m, nbatch, rng):
    """nbatch FULLPHYSICS states: qpos0 plus small noise (quaternions renormalised by the first
    step's integration do not matter here: both sides start from the same numbers), random qvel."""
    d = gauss.Data(m)
    out = []
    for _ in range(nbatch):
        gauss.reset_data(m, d)
        d.qvel[:] = rng.normal(size=m.nv) * 0.5
        d.act[:] = rng.uniform(0, 1, size=m.na)
        d.time = rng.uniform(0, 1)
        out.append(gauss.get_state(m, d, FULL))
    return np.array(out)


def controls(m, nbatch, nstep, rng):
    lo, hi = m.actuator_ctrlrange[:, 0], m.actuator_ctrlrange[:, 1]
    u = rng.uniform(-1, 1, size=(nbatch, nstep, m.nu))
    return np.where(m.actuator_ctrllimited > 0, lo + (hi - lo) * (u + 1) / 2, u)


def plain_loop(m, s0, ctrl):
    nbatch, nstep, _ = ctrl.shape
    state = np.empty((nbatch, nstep, s0.shape[1]))
    sens = np.empty((nbatch, nstep, m.nsensordata))
    for i in range(nbatch):
        d = gauss.Data(m)
        gauss.set_state(m, d, s0[i], FULL)
        for t in range(nstep):
            d.ctrl[:] = ctrl[i, t]
            gauss.step(m, d)
            state[i, t] = gauss.get_state(m, d, FULL)
            sens[i, t] = d.sensordata
    return state, sens


@pytest.mark.parametrize("name", ["dm_control/quadruped", "dm_control/humanoid", "gymnasium/ant"])
def test_rollout_equals_plain_loop_on_any_thread_count(name):
    m = gauss.Model.from_xml_path(PATHS[name])
    rng = np.random.default_rng(1)
    nbatch, nstep = 7, 200
    s0 = initial_states(m, nbatch, rng)
    ctrl = controls(m, nbatch, nstep, rng)
    want_state, want_sens = plain_loop(m, s0, ctrl)
    for nthread in (1, 2, 4):
        datas = [gauss.Data(m) for _ in range(nthread)]
        # leftovers in the Data must not matter: each rollout starts from a reset
        for d in datas:
            d.qfrc_applied[:] = 1.0
            d.qacc_warmstart[:] = 3.0
        state, sens = gauss.rollout(m, datas, s0, ctrl)
        assert state.shape == (nbatch, nstep, gauss.state_size(m, FULL))
        assert sens.shape == (nbatch, nstep, m.nsensordata)
        assert state.tobytes() == want_state.tobytes(), nthread
        assert sens.tobytes() == want_sens.tobytes(), nthread


def test_outputs_written_in_place_and_broadcast():
    m = gauss.Model.from_xml_path(PATHS["dm_control/walker"])
    rng = np.random.default_rng(2)
    s0 = initial_states(m, 1, rng)
    ctrl = controls(m, 1, 30, rng)
    state = np.zeros((3, 30, s0.shape[1]))
    sens = np.zeros((3, 30, m.nsensordata))
    out = gauss.rollout(m, gauss.Data(m), s0, np.repeat(ctrl, 3, axis=0), state=state,
                        sensordata=sens)
    assert out[0] is state and out[1] is sens
    # one initial state broadcast to the three control sequences, all equal: the same three times
    assert state[0].tobytes() == state[1].tobytes() == state[2].tobytes()
    want_state, want_sens = plain_loop(m, s0, ctrl)
    assert state[:1].tobytes() == want_state.tobytes() and sens[:1].tobytes() == want_sens.tobytes()
    # a control held for every step (nstep given), and no control at all
    held, _ = gauss.rollout(m, gauss.Data(m), s0, ctrl[:, :1], nstep=30)
    loop_held, _ = plain_loop(m, s0, np.repeat(ctrl[:, :1], 30, axis=1))
    assert held.tobytes() == loop_held.tobytes()
    free, _ = gauss.rollout(m, gauss.Data(m), s0, nstep=30)
    loop_free, _ = plain_loop(m, s0, np.zeros((1, 30, m.nu)))
    assert free.tobytes() == loop_free.tobytes()


def test_initial_warmstart_and_control_spec():
    m = gauss.Model.from_xml_path(PATHS["gymnasium/ant"])
    rng = np.random.default_rng(4)
    s0 = initial_states(m, 2, rng)
    warm = rng.normal(size=(2, m.nv))
    spec = gauss.STATE_CTRL | gauss.STATE_QFRC_APPLIED
    u = rng.normal(size=(2, 50, gauss.state_size(m, spec)))
    state, _ = gauss.rollout(m, [gauss.Data(m)], s0, u, control_spec=spec, initial_warmstart=warm)
    for i in range(2):
        d = gauss.Data(m)
        gauss.set_state(m, d, s0[i], FULL)
        d.qacc_warmstart[:] = warm[i]
        for t in range(50):
            gauss.set_state(m, d, u[i, t], spec)
            gauss.step(m, d)
            assert gauss.get_state(m, d, FULL).tobytes() == state[i, t].tobytes()


@pytest.mark.parametrize("name", ["dm_control/cartpole", "dm_control/walker"])
def test_rollout_follows_mujoco(name):
    gm = gauss.Model.from_xml_path(PATHS[name])
    mm = mujoco.MjModel.from_xml_path(PATHS[name])
    rng = np.random.default_rng(3)
    s0 = initial_states(gm, 4, rng)
    ctrl = controls(gm, 4, 100, rng)
    gs, gsens = gauss.rollout(gm, [gauss.Data(gm), gauss.Data(gm)], s0, ctrl)
    ms, msens = mj_rollout.rollout(mm, [mujoco.MjData(mm), mujoco.MjData(mm)], s0, ctrl)
    assert gs.shape == ms.shape and gsens.shape == msens.shape
    # time exactly; the state within the 100-step rollout tolerance of the conformance tests
    assert np.array_equal(gs[..., 0], ms[..., 0])
    assert oracle.rel_err(gs, ms) < 1e-6
    assert oracle.rel_err(gsens, msens) < 1e-6


def test_step_n_equals_single_steps():
    m = gauss.Model.from_xml_path(PATHS["gymnasium/humanoid"])
    a, b = gauss.Data(m), gauss.Data(m)
    a.ctrl[:] = b.ctrl[:] = 0.2
    gauss.step(m, a, 300)
    for _ in range(300):
        gauss.step(m, b)
    assert a.qpos.tobytes() == b.qpos.tobytes() and a.qvel.tobytes() == b.qvel.tobytes()
    assert a.time == b.time


def test_bad_input():
    m = gauss.Model.from_xml_path(PATHS["dm_control/walker"])
    d = gauss.Data(m)
    n = gauss.state_size(m, FULL)
    s0 = np.zeros((2, n))
    with pytest.raises(ValueError, match="initial_state"):
        gauss.rollout(m, d, np.zeros((2, n + 1)), np.zeros((2, 5, m.nu)))
    with pytest.raises(ValueError, match="control"):
        gauss.rollout(m, d, s0, np.zeros((2, 5, m.nu + 1)))
    with pytest.raises(ValueError, match="batch"):
        gauss.rollout(m, d, s0, np.zeros((3, 5, m.nu)))
    with pytest.raises(ValueError, match="subset"):
        gauss.rollout(m, d, s0, np.zeros((2, 5, m.nq)), control_spec=gauss.STATE_QPOS)
    with pytest.raises(ValueError, match="nstep"):
        gauss.rollout(m, d, s0)
    with pytest.raises(ValueError, match="state"):
        gauss.rollout(m, d, s0, np.zeros((2, 5, m.nu)), state=np.zeros((2, 4, n)))
    other = gauss.Model.from_xml_string("<mujoco/>")
    with pytest.raises(ValueError, match="model"):
        gauss.rollout(m, gauss.Data(other), s0, np.zeros((2, 5, m.nu)))


def test_diverged_rollout_repeats_its_last_state_as_mujoco():
    # a NaN in the initial qvel: the first step resets the data and warns; MuJoCo's rollout then
    # stops and repeats that step's state to the end, the other rollouts running on
    gm = gauss.Model.from_xml_path(PATHS["dm_control/cartpole"])
    mm = mujoco.MjModel.from_xml_path(PATHS["dm_control/cartpole"])
    rng = np.random.default_rng(6)
    s0 = initial_states(gm, 3, rng)
    s0[1, 1 + gm.nq] = np.nan
    ctrl = controls(gm, 3, 20, rng)
    gs, gsens = gauss.rollout(gm, [gauss.Data(gm), gauss.Data(gm)], s0, ctrl)
    ms, msens = mj_rollout.rollout(mm, [mujoco.MjData(mm), mujoco.MjData(mm)], s0, ctrl)
    assert np.all(gs[1] == gs[1, 0]) and np.all(gsens[1] == gsens[1, 0])
    assert np.array_equal(gs[..., 0], ms[..., 0])
    assert oracle.rel_err(gs, ms) < 1e-6 and oracle.rel_err(gsens, msens) < 1e-6


def test_rollout_lets_other_python_threads_run():
    # the whole batch is one C call made without the GIL: a Python thread keeps running meanwhile.
    # Were the GIL held, the loop below would stall for the whole call; allow gaps up to half of it
    # (the machine may be busy), far below a stall.
    import threading
    import time
    m = gauss.Model.from_xml_path(PATHS["gymnasium/humanoid"])
    s0 = initial_states(m, 8, np.random.default_rng(8))
    ctrl = np.zeros((8, 400, m.nu))
    t0 = time.perf_counter()
    gauss.rollout(m, gauss.Data(m), s0, ctrl)
    duration = time.perf_counter() - t0
    worker = threading.Thread(target=gauss.rollout, args=(m, gauss.Data(m), s0, ctrl))
    stamps = [time.perf_counter()]
    worker.start()
    while worker.is_alive():
        stamps.append(time.perf_counter())
    worker.join()
    gaps = np.diff(stamps)
    assert stamps[-1] - stamps[0] > 0.5 * duration  # the loop did overlap the call
    assert gaps.max() < 0.5 * duration, (gaps.max(), duration)


def test_rollout_of_different_models_equals_each_alone_and_mujoco():
    # domain randomisation: the same structure with other masses and gears, one model per rollout
    # (an Euler model: RK4 with free joints differs from MuJoCo by design)
    path = PATHS["dm_control/cheetah"]
    rng = np.random.default_rng(8)
    gms, mms = [], []
    for k in range(3):
        gm, mm = gauss.Model.from_xml_path(path), mujoco.MjModel.from_xml_path(path)
        scale = rng.uniform(0.5, 2, gm.nbody)
        gear = rng.uniform(0.5, 2, gm.nu)
        for m in (gm, mm):
            m.body_mass[:] *= scale
            m.actuator_gear[:, 0] *= gear
        gms.append(gm)
        mms.append(mm)
    models = [gms[0], gms[1], gms[2], gms[1]]
    s0 = initial_states(gms[0], 4, rng)
    ctrl = controls(gms[0], 4, 60, rng)
    datas = [gauss.Data(gms[0]), gauss.Data(gms[0])]
    state, sens = gauss.rollout(models, datas, s0, ctrl)
    for i, m in enumerate(models):
        alone, alone_sens = gauss.rollout(m, gauss.Data(m), s0[i:i + 1], ctrl[i:i + 1])
        assert np.array_equal(state[i], alone[0]) and np.array_equal(sens[i], alone_sens[0])
    ms, msens = mj_rollout.rollout([mms[0], mms[1], mms[2], mms[1]],
                                   [mujoco.MjData(mms[0]), mujoco.MjData(mms[0])], s0, ctrl)
    assert oracle.rel_err(state, ms) < 1e-6
    assert oracle.rel_err(sens, msens) < 1e-6
    # models of other sizes are refused
    other = gauss.Model.from_xml_path(PATHS["dm_control/cartpole"])
    with pytest.raises(ValueError, match="same sizes"):
        gauss.rollout([gms[0], other], datas, s0[:2], ctrl[:2])
