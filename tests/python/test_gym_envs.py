"""gauss.gym's environments as Gymnasium environments: registration, check_env, v5's
constructor arguments (observation layouts equal to Gymnasium's own for the same arguments),
pickling, and rendering's clear error without a renderer."""

import pickle

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import gauss  # noqa: E402
import gauss.gym  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

NAMES = list(gauss.gym.ENVIRONMENTS)


def test_gym_registered():
    for name in NAMES:
        spec = gymnasium.spec(f"gauss/{name}-v5")
        ref = gymnasium.spec(f"{name}-v5")
        assert spec.max_episode_steps == ref.max_episode_steps
        assert spec.reward_threshold == ref.reward_threshold


@pytest.mark.parametrize("name", NAMES)
def test_gym_check_env(name):
    env = gymnasium.make(f"gauss/{name}-v5")
    check_env(env.unwrapped, skip_render_check=True)
    ref = gymnasium.make(f"{name}-v5").unwrapped
    assert env.observation_space == ref.observation_space
    assert env.action_space == ref.action_space
    assert env.unwrapped.dt == ref.dt
    assert env.unwrapped.metadata["render_fps"] == ref.metadata["render_fps"]


# constructor arguments that change the layout or the scale; each compared with Gymnasium's
# environment built with the same arguments, over 5 steps from the same seed
VARIANTS = [
    ("Ant", dict(exclude_current_positions_from_observation=False,
                 include_cfrc_ext_in_observation=False, frame_skip=3, main_body="torso",
                 contact_force_range=(-0.5, 0.5), healthy_z_range=(0.3, 0.9))),
    ("Humanoid", dict(include_cinert_in_observation=False, include_cvel_in_observation=False,
                      include_qfrc_actuator_in_observation=False,
                      exclude_current_positions_from_observation=False,
                      forward_reward_weight=2.0, ctrl_cost_weight=0.3, healthy_reward=1.0)),
    ("HumanoidStandup", dict(include_cfrc_ext_in_observation=False, ctrl_cost_weight=0.2,
                             impact_cost_range=(-1.0, 1.0), reset_noise_scale=0.05)),
    ("HalfCheetah", dict(exclude_current_positions_from_observation=False, frame_skip=2,
                         ctrl_cost_weight=0.5, reset_noise_scale=0.2)),
    ("Hopper", dict(healthy_angle_range=(-1.0, 1.0), healthy_state_range=(-5.0, 5.0),
                    terminate_when_unhealthy=False, xml_file="hopper.xml")),
    ("Walker2d", dict(xml_file="walker2d.xml", healthy_z_range=(0.5, 3.0),
                      forward_reward_weight=0.5)),
    ("Swimmer", dict(exclude_current_positions_from_observation=False, frame_skip=2)),
    ("InvertedDoublePendulum", dict(healthy_reward=3.0, reset_noise_scale=0.2)),
    ("InvertedPendulum", dict(reset_noise_scale=0.1, frame_skip=4)),
    ("Pusher", dict(reward_near_weight=2.0, reward_dist_weight=0.5, xml_file="pusher.xml")),
    ("Reacher", dict(reward_dist_weight=2.0, reward_control_weight=0.1, frame_skip=4)),
]


@pytest.mark.parametrize("name,kwargs", VARIANTS, ids=[v[0] for v in VARIANTS])
def test_gym_constructor_arguments(name, kwargs):
    ref = gymnasium.make(f"{name}-v5", **kwargs).unwrapped
    env = gymnasium.make(f"gauss/{name}-v5", **kwargs).unwrapped
    if name in ("Ant", "Humanoid", "HumanoidStandup"):
        # free joints under RK4 differ by design (test_gym_equivalence.py): compare under Euler
        ref.model.opt.integrator = 0
        env.model.opt.integrator = gauss.INT_EULER
    assert env.observation_space == ref.observation_space
    structure = getattr(ref, "observation_structure", None)
    assert getattr(env, "observation_structure", None) == structure
    o1, _ = ref.reset(seed=2)
    o2, _ = env.reset(seed=2)
    np.testing.assert_allclose(o2, o1, rtol=1e-8, atol=1e-8)
    rng = np.random.default_rng(0)
    for _ in range(5):
        a = rng.uniform(ref.action_space.low, ref.action_space.high).astype(np.float32)
        r1, r2 = ref.step(a), env.step(a)
        np.testing.assert_allclose(r2[0], r1[0], rtol=1e-8, atol=1e-8)
        np.testing.assert_allclose(r2[1], r1[1], rtol=1e-8, atol=1e-8)
        assert r1[2:4] == r2[2:4]


def test_gym_xml_file_path(tmp_path):
    # a path starting with '/' is used as given (here a copy of the reacher with a longer arm)
    src = open(gauss.gym.gymnasium_assets() + "/reacher.xml").read()
    assert 'fromto="0 0 0 0.1 0 0"' in src
    path = tmp_path / "long_reacher.xml"
    path.write_text(src.replace('fromto="0 0 0 0.1 0 0"', 'fromto="0 0 0 0.2 0 0"', 1))
    env = gymnasium.make("gauss/Reacher-v5", xml_file=str(path)).unwrapped
    ref = gymnasium.make("Reacher-v5", xml_file=str(path)).unwrapped
    assert env.fullpath == str(path)
    o1, _ = ref.reset(seed=0)
    o2, _ = env.reset(seed=0)
    np.testing.assert_allclose(o2, o1, rtol=1e-8, atol=1e-8)
    with pytest.raises(OSError, match="does not exist"):
        gymnasium.make("gauss/Reacher-v5", xml_file="no_such_model.xml")


def test_gym_pickle_and_seed():
    env = gymnasium.make("gauss/Hopper-v5", ctrl_cost_weight=0.01).unwrapped
    clone = pickle.loads(pickle.dumps(env))
    assert clone._ctrl_cost_weight == 0.01
    o1, _ = env.reset(seed=4)
    o2, _ = clone.reset(seed=4)
    np.testing.assert_array_equal(o1, o2)
    a = env.action_space.sample()
    np.testing.assert_array_equal(env.step(a)[0], clone.step(a)[0])


def test_gym_render_without_renderer(monkeypatch):
    # gauss.Renderer is looked up when rendering: without it the error says what is missing
    monkeypatch.delattr(gauss, "Renderer", raising=False)
    env = gymnasium.make("gauss/InvertedPendulum-v5", render_mode="rgb_array")
    env.reset(seed=0)
    with pytest.raises(gymnasium.error.DependencyNotInstalled, match="gauss.Renderer"):
        env.render()
    with pytest.raises(ValueError, match="render_mode"):
        gymnasium.make("gauss/InvertedPendulum-v5", render_mode="bogus").unwrapped


def test_gym_bad_action_shape():
    env = gymnasium.make("gauss/Reacher-v5").unwrapped
    env.reset(seed=0)
    with pytest.raises(ValueError, match="Action dimension mismatch"):
        env.step(np.zeros(3, dtype=np.float32))


def test_gym_render_uses_gauss_renderer(monkeypatch):
    """With a gauss.Renderer present, rgb_array frames come from it: made once with the env's
    size, given the env's data and one free camera: Gymnasium's start (the median of the geoms'
    positions) with default_camera_config's fields on it."""
    calls = []

    class FakeRenderer:
        def __init__(self, model, height, width, max_geom):
            calls.append(("init", model, height, width))

        def update_scene(self, data, camera=-1):
            calls.append(("scene", data, camera))

        def render(self):
            return np.zeros((24, 32, 3), dtype=np.uint8)

    class FakeCamera:
        def __init__(self):
            self.lookat, self.distance, self.azimuth, self.elevation = np.zeros(3), 2.0, 90.0, -45.0

    monkeypatch.setattr(gauss, "Renderer", FakeRenderer, raising=False)
    monkeypatch.setattr(gauss, "FreeCamera", FakeCamera, raising=False)
    env = gymnasium.make("gauss/Hopper-v5", render_mode="rgb_array", width=32, height=24)
    env.reset(seed=0)
    frame = env.render()
    env.step(env.action_space.sample())
    env.render()
    assert frame.shape == (24, 32, 3)
    inits = [c for c in calls if c[0] == "init"]
    scenes = [c for c in calls if c[0] == "scene"]
    assert len(inits) == 1 and inits[0][2:] == (24, 32)
    assert len(scenes) == 2 and scenes[0][1] is env.unwrapped.data
    cam = scenes[-1][2]
    assert cam is scenes[0][2]
    # Hopper's default camera: distance 3, elevation -20, lookat (0, 0, 1.15), trackbodyid 2
    assert cam.distance == 3.0 and cam.elevation == -20.0 and cam.trackbodyid == 2
    np.testing.assert_array_equal(cam.lookat, [0.0, 0.0, 1.15])
    # without a lookat in the configuration, the median of the geoms' positions at the start
    env = gymnasium.make("gauss/Swimmer-v5", render_mode="rgb_array").unwrapped
    env.reset(seed=0)
    env.render()
    np.testing.assert_array_equal(calls[-1][2].lookat, np.median(env.data.geom_xpos, axis=0))
