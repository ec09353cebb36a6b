"""gauss.distributed.rollout on a local Ray instance (2 CPUs): the same bits as gauss.rollout
with the same inputs, also when a worker is killed while the batch is in flight."""

import os

import numpy as np
import pytest

ray = pytest.importorskip("ray")

import gauss  # noqa: E402
import gauss.distributed as gdist  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
HOPPER = os.path.join(HERE, "..", "models", "gymnasium", "hopper.xml")


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    gdist._default.clear()
    ray.shutdown()


def _inputs(m, nbatch, nstep, seed):
    rng = np.random.default_rng(seed)
    s0 = np.tile(gauss.get_state(m, gauss.Data(m)), (nbatch, 1))
    s0[:, 1:1 + m.nq] += 0.01 * rng.normal(size=(nbatch, m.nq))  # after time: qpos
    u = rng.uniform(-1, 1, size=(nbatch, nstep, m.nu))
    warm = rng.normal(size=(nbatch, m.nv))
    return s0, u, warm


def _equal(a, b):
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)


def test_distributed_equals_local(local_ray):
    m = gauss.Model.from_xml_path(HOPPER)
    s0, u, warm = _inputs(m, 7, 40, 0)
    local = gauss.rollout(m, [gauss.Data(m), gauss.Data(m)], s0, u, initial_warmstart=warm)
    pool = gdist.Pool(nworker=2)
    try:
        _equal(pool.rollout(m, s0, u, initial_warmstart=warm), local)
        # chunks of 3 (7 = 3 + 3 + 1), a broadcast initial state and control of one step
        local1 = gauss.rollout(m, gauss.Data(m), s0[:1], u[:, :1], nstep=40)
        _equal(pool.rollout(m, s0[:1], u[:, :1], nstep=40, chunk_size=3), local1)
        # one model per rollout (more joint damping on some): as gauss.rollout with the model list
        heavy = m.copy()
        heavy.dof_damping[:] += 0.5
        models = [m, heavy] * 3 + [m]
        _equal(pool.rollout(models, s0, u), gauss.rollout(models, gauss.Data(m), s0, u))
        with pytest.raises(ValueError, match="batch sizes"):
            pool.rollout(m, s0[:2], u[:3])
    finally:
        pool.close()


def test_distributed_worker_killed(local_ray):
    """Worker 0 is killed as soon as every chunk is submitted: its chunks are run again on a
    fresh worker and the result is complete and equal."""
    m = gauss.Model.from_xml_path(HOPPER)
    s0, u, _ = _inputs(m, 6, 60, 1)
    local = gauss.rollout(m, gauss.Data(m), s0, u)
    pool = gdist.Pool(nworker=2)
    pool._on_submit = lambda p: ray.kill(p.workers[0])
    try:
        _equal(pool.rollout(m, s0, u), local)
        assert pool.retries >= 1
    finally:
        pool.close()


def test_distributed_module_rollout(local_ray):
    m = gauss.Model.from_xml_path(HOPPER)
    s0, u, _ = _inputs(m, 4, 20, 2)
    _equal(gdist.rollout(m, s0, u, nworker=1), gauss.rollout(m, gauss.Data(m), s0, u))
    for pool in gdist._default.values():
        pool.close()


def test_distributed_policy(local_ray):
    """Closed loop: a feedback policy run on the workers gives the same bits as the same policy
    in a plain loop of gauss.step over each rollout alone."""
    m = gauss.Model.from_xml_path(HOPPER)
    s0, _, warm = _inputs(m, 5, 0, 3)
    rng = np.random.default_rng(4)
    gain = rng.normal(size=(m.nq + m.nv, m.nu)) * 0.1

    # a local function: Ray ships it by value. Each row is computed alone to the last bit, as
    # the API asks (a BLAS matrix product is not: its rounding depends on the batch's shape)
    def policy(x):
        return np.tanh((x[:, 1:1 + m.nq + m.nv, None] * gain[None]).sum(axis=1))

    nstep = 30
    nstate = gauss.state_size(m, gauss.STATE_FULLPHYSICS)
    want = np.empty((5, nstep, nstate))
    for i in range(5):
        d = gauss.Data(m)
        gauss.set_state(m, d, s0[i])
        d.qacc_warmstart[:] = warm[i]
        for t in range(nstep):
            d.ctrl[:] = policy(gauss.get_state(m, d)[None])[0]
            gauss.step(m, d)
            want[i, t] = gauss.get_state(m, d)
    pool = gdist.Pool(nworker=2)
    try:
        state, _ = pool.rollout(m, s0, policy=policy, nstep=nstep, initial_warmstart=warm,
                                chunk_size=2)
        np.testing.assert_array_equal(state, want)
        with pytest.raises(ValueError, match="control or policy"):
            pool.rollout(m, s0, np.zeros((5, nstep, m.nu)), policy=policy, nstep=nstep)
    finally:
        pool.close()
