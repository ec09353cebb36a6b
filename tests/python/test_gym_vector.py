"""The vectorised environment: N gauss environments stepped in one C call on threads equal N
independent environments in Gymnasium's SyncVectorEnv (same seeds, same actions, autoreset
included), bit for bit; gauss.step_batch equals stepping each data alone."""

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import gauss  # noqa: E402
import gauss.gym  # noqa: E402


def _sync_envs(name, n, autoreset_mode=None, **kwargs):
    extra = {} if autoreset_mode is None else {"autoreset_mode": autoreset_mode}
    return gymnasium.vector.SyncVectorEnv(
        [lambda: gymnasium.make(f"gauss/{name}-v5", **kwargs) for _ in range(n)], **extra)


def _same_infos(a, b):
    assert a.keys() == b.keys()
    for key in a:
        if isinstance(a[key], dict):
            _same_infos(a[key], b[key])
        elif a[key].dtype == object:  # final_obs: one array (or None) per env
            for x, y in zip(a[key], b[key]):
                assert (x is None) == (y is None)
                if x is not None:
                    np.testing.assert_array_equal(y, x)
        else:
            np.testing.assert_array_equal(b[key], a[key])


def _compare(vec, ref, nstep, seed, rng):
    o1, i1 = ref.reset(seed=seed)
    o2, i2 = vec.reset(seed=seed)
    np.testing.assert_array_equal(o2, o1)
    assert i1.keys() == i2.keys()
    ends = 0
    for _ in range(nstep):
        a = rng.uniform(ref.action_space.low, ref.action_space.high).astype(np.float32)
        r1, r2 = ref.step(a), vec.step(a)
        for x, y in zip(r1[:4], r2[:4]):
            np.testing.assert_array_equal(y, x)
        _same_infos(r1[4], r2[4])
        ends += int(np.sum(r1[2] | r1[3]))
    return ends


def test_gym_vector_16_equal_independent():
    """16 hoppers, 2 threads, 60 steps with episodes cut at 25 steps: terminations, truncations
    and the autoresets after them all happen, and every output equals 16 separate envs'."""
    n = 16
    vec = gauss.gym.GaussVectorEnv("Hopper", n, max_episode_steps=25, nthread=2)
    ref = _sync_envs("Hopper", n, max_episode_steps=25)
    assert vec.observation_space == ref.observation_space
    assert vec.action_space == ref.action_space
    ends = _compare(vec, ref, 60, 3, np.random.default_rng(0))
    assert ends >= n  # every env ended at least once, so autoreset was exercised


@pytest.mark.parametrize("name", ["Ant", "InvertedDoublePendulum"])
def test_gym_vector_other_envs(name):
    """Free joints and contacts (Ant: cfrc_ext from the batched post-constraint pass) and early
    terminations (the double pendulum falls)."""
    vec = gauss.gym.GaussVectorEnv(name, 4, nthread=2)
    ref = _sync_envs(name, 4)
    _compare(vec, ref, 30, 9, np.random.default_rng(1))


def test_gym_vector_same_step_autoreset():
    """SAME_STEP: ended envs reset within the step, final_obs and final_info as Gymnasium's."""
    mode = gymnasium.vector.AutoresetMode.SAME_STEP
    vec = gauss.gym.GaussVectorEnv("Hopper", 6, max_episode_steps=15, nthread=2,
                                   autoreset_mode=mode)
    ref = _sync_envs("Hopper", 6, autoreset_mode=mode, max_episode_steps=15)
    assert _compare(vec, ref, 40, 5, np.random.default_rng(3)) >= 6
    disabled = gauss.gym.GaussVectorEnv("InvertedPendulum", 2, max_episode_steps=3,
                                        autoreset_mode="Disabled")
    disabled.reset(seed=0)
    a = np.zeros(disabled.action_space.shape, dtype=np.float32)
    for _ in range(3):
        disabled.step(a)
    with pytest.raises(ValueError, match="reset it first"):
        disabled.step(a)


def test_gym_make_vec_entry_point():
    vec = gymnasium.make_vec("gauss/Reacher-v5", num_envs=3,
                             vectorization_mode="vector_entry_point", reward_dist_weight=2.0)
    assert isinstance(vec, gauss.gym.GaussVectorEnv)
    assert vec.max_episode_steps == 50
    assert vec.envs[0]._reward_dist_weight == 2.0
    ref = _sync_envs("Reacher", 3, reward_dist_weight=2.0)
    _compare(vec, ref, 55, 0, np.random.default_rng(2))  # past the 50-step truncation


def test_gym_vector_reset_mask():
    vec = gauss.gym.GaussVectorEnv("Swimmer", 3)
    o, _ = vec.reset(seed=1)
    vec.step(np.zeros(vec.action_space.shape, dtype=np.float32))
    o2, info = vec.reset(seed=[5, 6, 7], options={"reset_mask": np.array([False, True, False])})
    single = gymnasium.make("gauss/Swimmer-v5").unwrapped
    np.testing.assert_array_equal(o2[1], single.reset(seed=6)[0])
    assert not np.array_equal(o2[0], o[0])  # the others keep their stepped state
    assert list(info["_x_position"]) == [False, True, False]


def test_step_batch_equals_separate_steps():
    m = gauss.Model.from_xml_path(gauss.gym.gymnasium_assets() + "/ant.xml")
    rng = np.random.default_rng(0)
    datas = [gauss.Data(m) for _ in range(5)]
    alone = [gauss.Data(m) for _ in range(5)]
    for d, e in zip(datas, alone):
        d.qvel[:] = e.qvel[:] = rng.normal(size=m.nv)
    ctrl = rng.uniform(-1, 1, size=(5, m.nu))
    gauss.step_batch(m, datas, ctrl=ctrl, nstep=7, nthread=3, post=True)
    for i, e in enumerate(alone):
        e.ctrl[:] = ctrl[i]
        gauss.step(m, e, 7)
        gauss.rne_post_constraint(m, e)
        for field in ("qpos", "qvel", "qacc", "cfrc_ext", "cacc", "xpos"):
            np.testing.assert_array_equal(getattr(datas[i], field), getattr(e, field))
    with pytest.raises(ValueError, match="ctrl has shape"):
        gauss.step_batch(m, datas, ctrl=np.zeros((4, m.nu)))
