"""The planar and swimming runners: HalfCheetah, Hopper, Walker2d and Swimmer (v5 semantics:
forward reward from the change of the root's x over dt, quadratic control cost, the healthy
checks of the hopping robots)."""

import numpy as np
from gymnasium.spaces import Box

from ._base import GaussEnv
from ._pickle import ezpickle

_TRACK2 = {"trackbodyid": 2, "lookat": np.array((0.0, 0.0, 1.15)), "elevation": -20.0}


def _box(n):
    return Box(low=-np.inf, high=np.inf, shape=(n,), dtype=np.float64)


class _Runner(GaussEnv):
    """qpos (less its first `nskip` entries when excluded) then qvel (clipped to ±vclip)."""

    nskip = 1
    vclip = None

    def _setup(self, xml_file, frame_skip, default_camera_config, exclude, kwargs):
        self._exclude_current_positions_from_observation = exclude
        GaussEnv.__init__(self, xml_file, frame_skip, None,
                          default_camera_config=default_camera_config, **kwargs)
        skipped = self.nskip * bool(exclude)
        self.observation_space = _box(self.model.nq + self.model.nv - skipped)
        self.observation_structure = {"skipped_qpos": skipped, "qpos": self.model.nq - skipped,
                                      "qvel": self.model.nv}

    def control_cost(self, action):
        return self._ctrl_cost_weight * np.sum(np.square(action))

    def _get_obs(self):
        qpos = self.data.qpos.ravel().copy()
        qvel = self.data.qvel.ravel().copy()
        if self.vclip is not None:
            qvel = np.clip(qvel, -self.vclip, self.vclip)
        if self._exclude_current_positions_from_observation:
            qpos = qpos[self.nskip:]
        return np.concatenate((qpos, qvel))


class HalfCheetahEnv(_Runner):
    def __init__(self, xml_file="half_cheetah.xml", frame_skip=5,
                 default_camera_config={"distance": 4.0}, forward_reward_weight=1.0,
                 ctrl_cost_weight=0.1, reset_noise_scale=0.1,
                 exclude_current_positions_from_observation=True, **kwargs):
        ezpickle(self, locals())
        self._forward_reward_weight = forward_reward_weight
        self._ctrl_cost_weight = ctrl_cost_weight
        self._reset_noise_scale = reset_noise_scale
        self._setup(xml_file, frame_skip, default_camera_config,
                    exclude_current_positions_from_observation, kwargs)

    def _before_step(self):
        return self.data.qpos[0]

    def _after_step(self, action, x0):
        x1 = self.data.qpos[0]
        vx = (x1 - x0) / self.dt
        forward = self._forward_reward_weight * vx
        ctrl = self.control_cost(action)
        info = {"x_position": x1, "x_velocity": vx, "reward_forward": forward,
                "reward_ctrl": -ctrl}
        return self._get_obs(), forward - ctrl, False, False, info

    def reset_model(self):
        return self._noisy_reset(normal_qvel=True)

    def _get_reset_info(self):
        return {"x_position": self.data.qpos[0]}


class _Hopping(_Runner):
    """Hopper and Walker2d: qvel clipped to ±10 in the observation, healthy by z and angle."""

    vclip = 10.0

    @property
    def healthy_reward(self):
        return self.is_healthy * self._healthy_reward

    def _healthy_z_angle(self):
        z, angle = self.data.qpos[1:3]
        zlo, zhi = self._healthy_z_range
        alo, ahi = self._healthy_angle_range
        return zlo < z < zhi and alo < angle < ahi

    def _before_step(self):
        return self.data.qpos[0]

    def _after_step(self, action, x0):
        x1 = self.data.qpos[0]
        vx = (x1 - x0) / self.dt
        obs = self._get_obs()
        forward = self._forward_reward_weight * vx
        survive = self.healthy_reward
        ctrl = self.control_cost(action)
        reward = forward + survive - ctrl
        terminated = (not self.is_healthy) and self._terminate_when_unhealthy
        info = {"x_position": x1, "z_distance_from_origin": self.data.qpos[1] - self.init_qpos[1],
                "x_velocity": vx, "reward_forward": forward, "reward_ctrl": -ctrl,
                "reward_survive": survive}
        return obs, reward, terminated, False, info

    def reset_model(self):
        return self._noisy_reset(normal_qvel=False)

    def _get_reset_info(self):
        return {"x_position": self.data.qpos[0],
                "z_distance_from_origin": self.data.qpos[1] - self.init_qpos[1]}


class HopperEnv(_Hopping):
    def __init__(self, xml_file="hopper.xml", frame_skip=4,
                 default_camera_config=dict(_TRACK2, distance=3.0), forward_reward_weight=1.0,
                 ctrl_cost_weight=1e-3, healthy_reward=1.0, terminate_when_unhealthy=True,
                 healthy_state_range=(-100.0, 100.0), healthy_z_range=(0.7, float("inf")),
                 healthy_angle_range=(-0.2, 0.2), reset_noise_scale=5e-3,
                 exclude_current_positions_from_observation=True, **kwargs):
        ezpickle(self, locals())
        self._forward_reward_weight = forward_reward_weight
        self._ctrl_cost_weight = ctrl_cost_weight
        self._healthy_reward = healthy_reward
        self._terminate_when_unhealthy = terminate_when_unhealthy
        self._healthy_state_range = healthy_state_range
        self._healthy_z_range = healthy_z_range
        self._healthy_angle_range = healthy_angle_range
        self._reset_noise_scale = reset_noise_scale
        self._setup(xml_file, frame_skip, default_camera_config,
                    exclude_current_positions_from_observation, kwargs)

    @property
    def is_healthy(self):
        # every state entry but x and z strictly inside the state range
        rest = self.state_vector()[2:]
        lo, hi = self._healthy_state_range
        return bool(np.all((lo < rest) & (rest < hi))) and self._healthy_z_angle()


class Walker2dEnv(_Hopping):
    def __init__(self, xml_file="walker2d_v5.xml", frame_skip=4,
                 default_camera_config=dict(_TRACK2, distance=4.0), forward_reward_weight=1.0,
                 ctrl_cost_weight=1e-3, healthy_reward=1.0, terminate_when_unhealthy=True,
                 healthy_z_range=(0.8, 2.0), healthy_angle_range=(-1.0, 1.0),
                 reset_noise_scale=5e-3, exclude_current_positions_from_observation=True,
                 **kwargs):
        ezpickle(self, locals())
        self._forward_reward_weight = forward_reward_weight
        self._ctrl_cost_weight = ctrl_cost_weight
        self._healthy_reward = healthy_reward
        self._terminate_when_unhealthy = terminate_when_unhealthy
        self._healthy_z_range = healthy_z_range
        self._healthy_angle_range = healthy_angle_range
        self._reset_noise_scale = reset_noise_scale
        self._setup(xml_file, frame_skip, default_camera_config,
                    exclude_current_positions_from_observation, kwargs)

    @property
    def is_healthy(self):
        return self._healthy_z_angle()


class SwimmerEnv(_Runner):
    nskip = 2

    def __init__(self, xml_file="swimmer.xml", frame_skip=4, default_camera_config=None,
                 forward_reward_weight=1.0, ctrl_cost_weight=1e-4, reset_noise_scale=0.1,
                 exclude_current_positions_from_observation=True, **kwargs):
        ezpickle(self, locals())
        self._forward_reward_weight = forward_reward_weight
        self._ctrl_cost_weight = ctrl_cost_weight
        self._reset_noise_scale = reset_noise_scale
        self._setup(xml_file, frame_skip, default_camera_config,
                    exclude_current_positions_from_observation, kwargs)

    def _before_step(self):
        return self.data.qpos[0:2].copy()

    def _after_step(self, action, xy0):
        xy1 = self.data.qpos[0:2].copy()
        vx, vy = (xy1 - xy0) / self.dt
        forward = self._forward_reward_weight * vx
        ctrl = self.control_cost(action)
        info = {"x_position": xy1[0], "y_position": xy1[1],
                "distance_from_origin": np.linalg.norm(xy1, ord=2), "x_velocity": vx,
                "y_velocity": vy, "reward_forward": forward, "reward_ctrl": -ctrl}
        return self._get_obs(), forward - ctrl, False, False, info

    def reset_model(self):
        return self._noisy_reset(normal_qvel=False)

    def _get_reset_info(self):
        return self._position_info()
