"""The three-dimensional walkers: Ant, Humanoid and HumanoidStandup (v5 semantics: the free
root's planar speed, external contact forces cfrc_ext of the last step, the humanoids' body
inertias cinert, velocities cvel and actuator forces in the observation)."""

import numpy as np
from gymnasium.spaces import Box

from ._base import GaussEnv
from ._pickle import ezpickle

_INF = float("inf")


def _box(n):
    return Box(low=-np.inf, high=np.inf, shape=(n,), dtype=np.float64)


class AntEnv(GaussEnv):
    def __init__(self, xml_file="ant.xml", frame_skip=5, default_camera_config={"distance": 4.0},
                 forward_reward_weight=1, ctrl_cost_weight=0.5, contact_cost_weight=5e-4,
                 healthy_reward=1.0, main_body=1, terminate_when_unhealthy=True,
                 healthy_z_range=(0.2, 1.0), contact_force_range=(-1.0, 1.0),
                 reset_noise_scale=0.1, exclude_current_positions_from_observation=True,
                 include_cfrc_ext_in_observation=True, **kwargs):
        ezpickle(self, locals())
        self._forward_reward_weight = forward_reward_weight
        self._ctrl_cost_weight = ctrl_cost_weight
        self._contact_cost_weight = contact_cost_weight
        self._healthy_reward = healthy_reward
        self._main_body = main_body
        self._terminate_when_unhealthy = terminate_when_unhealthy
        self._healthy_z_range = healthy_z_range
        self._contact_force_range = contact_force_range
        self._reset_noise_scale = reset_noise_scale
        self._exclude_current_positions_from_observation = (
            exclude_current_positions_from_observation)
        self._include_cfrc_ext_in_observation = include_cfrc_ext_in_observation
        GaussEnv.__init__(self, xml_file, frame_skip, None,
                          default_camera_config=default_camera_config, **kwargs)
        skipped = 2 * bool(exclude_current_positions_from_observation)
        ncfrc = 6 * (self.model.nbody - 1) * bool(include_cfrc_ext_in_observation)
        self.observation_space = _box(self.model.nq - skipped + self.model.nv + ncfrc)
        self.observation_structure = {"skipped_qpos": skipped, "qpos": self.model.nq - skipped,
                                      "qvel": self.model.nv, "cfrc_ext": ncfrc}

    @property
    def healthy_reward(self):
        return self.is_healthy * self._healthy_reward

    def control_cost(self, action):
        return self._ctrl_cost_weight * np.sum(np.square(action))

    @property
    def contact_forces(self):
        lo, hi = self._contact_force_range
        return np.clip(self.data.cfrc_ext, lo, hi)

    @property
    def contact_cost(self):
        return self._contact_cost_weight * np.sum(np.square(self.contact_forces))

    @property
    def is_healthy(self):
        state = self.state_vector()
        lo, hi = self._healthy_z_range
        return bool(np.isfinite(state).all() and lo <= state[2] <= hi)

    def _xy(self):
        return self.data.body(self._main_body).xpos[:2].copy()

    def _before_step(self):
        return self._xy()

    def _after_step(self, action, xy0):
        xy1 = self._xy()
        vx, vy = (xy1 - xy0) / self.dt
        obs = self._get_obs()
        forward = vx * self._forward_reward_weight
        survive = self.healthy_reward
        ctrl = self.control_cost(action)
        contact = self.contact_cost
        reward = (forward + survive) - (ctrl + contact)
        terminated = (not self.is_healthy) and self._terminate_when_unhealthy
        info = {**self._position_info(),
                "x_velocity": vx, "y_velocity": vy, "reward_forward": forward,
                "reward_ctrl": -ctrl, "reward_contact": -contact, "reward_survive": survive}
        return obs, reward, terminated, False, info

    def _get_obs(self):
        qpos = self.data.qpos.ravel().copy()
        if self._exclude_current_positions_from_observation:
            qpos = qpos[2:]
        parts = [qpos, self.data.qvel.ravel().copy()]
        if self._include_cfrc_ext_in_observation:
            parts.append(self.contact_forces[1:].ravel())
        return np.concatenate(parts)

    def reset_model(self):
        return self._noisy_reset(normal_qvel=True)

    def _get_reset_info(self):
        return self._position_info()


class _Humanoid(GaussEnv):
    """Observation: qpos (less x, y when excluded), qvel, then optionally cinert, cvel (bodies
    1..), qfrc_actuator of the non-root dofs and cfrc_ext (bodies 1..)."""

    def _setup(self, xml_file, frame_skip, default_camera_config, reset_noise_scale, exclude,
               cinert, cvel, qfrc_actuator, cfrc_ext, kwargs):
        self._reset_noise_scale = reset_noise_scale
        self._exclude_current_positions_from_observation = exclude
        self._include_cinert_in_observation = cinert
        self._include_cvel_in_observation = cvel
        self._include_qfrc_actuator_in_observation = qfrc_actuator
        self._include_cfrc_ext_in_observation = cfrc_ext
        GaussEnv.__init__(self, xml_file, frame_skip, None,
                          default_camera_config=default_camera_config, **kwargs)
        m = self.model
        skipped = 2 * bool(exclude)
        nb = m.nbody - 1
        sizes = {"skipped_qpos": skipped, "qpos": m.nq - skipped, "qvel": m.nv,
                 "cinert": 10 * nb * bool(cinert), "cvel": 6 * nb * bool(cvel),
                 "qfrc_actuator": (m.nv - 6) * bool(qfrc_actuator),
                 "cfrc_ext": 6 * nb * bool(cfrc_ext), "ten_length": 0, "ten_velocity": 0}
        self.observation_space = _box(sum(v for k, v in sizes.items() if k != "skipped_qpos"))
        self.observation_structure = sizes

    def _get_obs(self):
        d = self.data
        qpos = d.qpos.ravel().copy()
        if self._exclude_current_positions_from_observation:
            qpos = qpos[2:]
        parts = [qpos, d.qvel.ravel().copy()]
        # the flags are compared with `is True` as in the reference environments: only the
        # boolean True includes a block
        if self._include_cinert_in_observation is True:
            parts.append(d.cinert[1:].ravel().copy())
        if self._include_cvel_in_observation is True:
            parts.append(d.cvel[1:].ravel().copy())
        if self._include_qfrc_actuator_in_observation is True:
            parts.append(d.qfrc_actuator[6:].ravel().copy())
        if self._include_cfrc_ext_in_observation is True:
            parts.append(d.cfrc_ext[1:].ravel().copy())
        return np.concatenate(parts)

    def reset_model(self):
        return self._noisy_reset(normal_qvel=False)

    def _tendons(self):
        return {"tendon_length": self.data.ten_length.copy(),
                "tendon_velocity": self.data.ten_velocity.copy()}


def mass_center(model, data):
    """x, y of the whole body's centre of mass."""
    mass = model.body_mass
    return (mass @ data.xipos / mass.sum())[0:2].copy()


class HumanoidEnv(_Humanoid):
    def __init__(self, xml_file="humanoid.xml", frame_skip=5,
                 default_camera_config={"trackbodyid": 1, "distance": 4.0,
                                        "lookat": np.array((0.0, 0.0, 2.0)), "elevation": -20.0},
                 forward_reward_weight=1.25, ctrl_cost_weight=0.1, contact_cost_weight=5e-7,
                 contact_cost_range=(-_INF, 10.0), healthy_reward=5.0,
                 terminate_when_unhealthy=True, healthy_z_range=(1.0, 2.0),
                 reset_noise_scale=1e-2, exclude_current_positions_from_observation=True,
                 include_cinert_in_observation=True, include_cvel_in_observation=True,
                 include_qfrc_actuator_in_observation=True, include_cfrc_ext_in_observation=True,
                 **kwargs):
        ezpickle(self, locals())
        self._forward_reward_weight = forward_reward_weight
        self._ctrl_cost_weight = ctrl_cost_weight
        self._contact_cost_weight = contact_cost_weight
        self._contact_cost_range = contact_cost_range
        self._healthy_reward = healthy_reward
        self._terminate_when_unhealthy = terminate_when_unhealthy
        self._healthy_z_range = healthy_z_range
        self._setup(xml_file, frame_skip, default_camera_config, reset_noise_scale,
                    exclude_current_positions_from_observation, include_cinert_in_observation,
                    include_cvel_in_observation, include_qfrc_actuator_in_observation,
                    include_cfrc_ext_in_observation, kwargs)

    @property
    def healthy_reward(self):
        return self.is_healthy * self._healthy_reward

    def control_cost(self, action):
        # of the clamped controls the model applied, not of the raw action
        return self._ctrl_cost_weight * np.sum(np.square(self.data.ctrl))

    @property
    def contact_cost(self):
        cost = self._contact_cost_weight * np.sum(np.square(self.data.cfrc_ext))
        return np.clip(cost, *self._contact_cost_range)

    @property
    def is_healthy(self):
        lo, hi = self._healthy_z_range
        return lo < self.data.qpos[2] < hi

    def _before_step(self):
        return mass_center(self.model, self.data)

    def _after_step(self, action, xy0):
        xy1 = mass_center(self.model, self.data)
        vx, vy = (xy1 - xy0) / self.dt
        obs = self._get_obs()
        forward = self._forward_reward_weight * vx
        survive = self.healthy_reward
        ctrl = self.control_cost(action)
        contact = self.contact_cost
        reward = (forward + survive) - (ctrl + contact)
        terminated = (not self.is_healthy) and self._terminate_when_unhealthy
        info = {"x_position": self.data.qpos[0], "y_position": self.data.qpos[1],
                **self._tendons(),
                "distance_from_origin": np.linalg.norm(self.data.qpos[0:2], ord=2),
                "x_velocity": vx, "y_velocity": vy, "reward_survive": survive,
                "reward_forward": forward, "reward_ctrl": -ctrl, "reward_contact": -contact}
        return obs, reward, terminated, False, info

    def _get_reset_info(self):
        return {"x_position": self.data.qpos[0], "y_position": self.data.qpos[1],
                **self._tendons(),
                "distance_from_origin": np.linalg.norm(self.data.qpos[0:2], ord=2)}


class HumanoidStandupEnv(_Humanoid):
    def __init__(self, xml_file="humanoidstandup.xml", frame_skip=5,
                 default_camera_config={"trackbodyid": 1, "distance": 4.0,
                                        "lookat": np.array((0.0, 0.0, 0.8925)),
                                        "elevation": -20.0},
                 uph_cost_weight=1, ctrl_cost_weight=0.1, impact_cost_weight=5e-7,
                 impact_cost_range=(-_INF, 10.0), reset_noise_scale=1e-2,
                 exclude_current_positions_from_observation=True,
                 include_cinert_in_observation=True, include_cvel_in_observation=True,
                 include_qfrc_actuator_in_observation=True, include_cfrc_ext_in_observation=True,
                 **kwargs):
        ezpickle(self, locals())
        # stored as the reference environment does; its reward uses the fixed weight 1 (the
        # height over the physics timestep)
        self._uph_cost_weight = uph_cost_weight
        self._ctrl_cost_weight = ctrl_cost_weight
        self._impact_cost_weight = impact_cost_weight
        self._impact_cost_range = impact_cost_range
        self._setup(xml_file, frame_skip, default_camera_config, reset_noise_scale,
                    exclude_current_positions_from_observation, include_cinert_in_observation,
                    include_cvel_in_observation, include_qfrc_actuator_in_observation,
                    include_cfrc_ext_in_observation, kwargs)

    def _after_step(self, action, before):
        z = self.data.qpos[2]
        linup = z / self.model.opt.timestep
        quadctrl = self._ctrl_cost_weight * np.square(self.data.ctrl).sum()
        impact = self._impact_cost_weight * np.square(self.data.cfrc_ext).sum()
        impact = np.clip(impact, *self._impact_cost_range)
        reward = linup - quadctrl - impact + 1
        info = {"x_position": self.data.qpos[0], "y_position": self.data.qpos[1],
                "z_distance_from_origin": self.data.qpos[2] - self.init_qpos[2],
                **self._tendons(), "reward_linup": linup, "reward_quadctrl": -quadctrl,
                "reward_impact": -impact}
        return self._get_obs(), reward, False, False, info

    def _get_reset_info(self):
        return {"x_position": self.data.qpos[0], "y_position": self.data.qpos[1],
                "z_distance_from_origin": self.data.qpos[2] - self.init_qpos[2],
                **self._tendons()}
