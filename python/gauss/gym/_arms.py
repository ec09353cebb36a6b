"""The balancing and reaching tasks: InvertedPendulum, InvertedDoublePendulum, Reacher and Pusher
(v5 semantics)."""

import numpy as np
from gymnasium.spaces import Box

from ._base import GaussEnv
from ._pickle import ezpickle


def _box(n):
    return Box(low=-np.inf, high=np.inf, shape=(n,), dtype=np.float64)


class InvertedPendulumEnv(GaussEnv):
    """Reward 1 while the pole stays within 0.2 rad of upright."""

    def __init__(self, xml_file="inverted_pendulum.xml", frame_skip=2,
                 default_camera_config={"trackbodyid": 0, "distance": 2.04},
                 reset_noise_scale=0.01, **kwargs):
        ezpickle(self, locals())
        self._reset_noise_scale = reset_noise_scale
        GaussEnv.__init__(self, xml_file, frame_skip, _box(4),
                          default_camera_config=default_camera_config, **kwargs)
        self.observation_structure = {"qpos": self.model.nq, "qvel": self.model.nv}

    def _after_step(self, action, before):
        obs = self._get_obs()
        terminated = bool(not np.isfinite(obs).all() or abs(obs[1]) > 0.2)
        reward = int(not terminated)
        return obs, reward, terminated, False, {"reward_survive": reward}

    def reset_model(self):
        return self._noisy_reset(normal_qvel=False)

    def _get_obs(self):
        return np.concatenate([self.data.qpos, self.data.qvel]).ravel()


class InvertedDoublePendulumEnv(GaussEnv):
    """Ends when the tip (site 0) drops to a height of 1; penalties on its distance from
    (0, 2) and on the link velocities."""

    def __init__(self, xml_file="inverted_double_pendulum.xml", frame_skip=5,
                 default_camera_config=None, healthy_reward=10.0, reset_noise_scale=0.1,
                 **kwargs):
        ezpickle(self, locals())
        self._healthy_reward = healthy_reward
        self._reset_noise_scale = reset_noise_scale
        if default_camera_config is None:
            default_camera_config = {"trackbodyid": 0, "distance": 4.1225,
                                     "lookat": np.array((0.0, 0.0, 0.1225))}
        GaussEnv.__init__(self, xml_file, frame_skip, _box(9),
                          default_camera_config=default_camera_config, **kwargs)

    def _after_step(self, action, before):
        x, _, y = self.data.site_xpos[0]
        obs = self._get_obs()
        terminated = bool(y <= 1)
        v1, v2 = self.data.qvel[1:3]
        dist = 0.01 * x ** 2 + (y - 2) ** 2
        vel = 1e-3 * v1 ** 2 + 5e-3 * v2 ** 2
        alive = self._healthy_reward * int(not terminated)
        info = {"reward_survive": alive, "distance_penalty": -dist, "velocity_penalty": -vel}
        return obs, alive - dist - vel, terminated, False, info

    def _get_obs(self):
        d = self.data
        return np.concatenate([d.qpos[:1], np.sin(d.qpos[1:]), np.cos(d.qpos[1:]),
                               np.clip(d.qvel, -10, 10),
                               np.clip(d.qfrc_constraint, -10, 10)[:1]]).ravel()

    def reset_model(self):
        s = self._reset_noise_scale
        qpos = self.init_qpos + self._uniform(s, self.model.nq)
        qvel = self.init_qvel + self.np_random.standard_normal(self.model.nv) * s
        self.set_state(qpos, qvel)
        return self._get_obs()


class ReacherEnv(GaussEnv):
    """A two-link arm reaching a random target in a disc of radius 0.2."""

    def __init__(self, xml_file="reacher.xml", frame_skip=2,
                 default_camera_config={"trackbodyid": 0}, reward_dist_weight=1,
                 reward_control_weight=1, **kwargs):
        ezpickle(self, locals())
        self._reward_dist_weight = reward_dist_weight
        self._reward_control_weight = reward_control_weight
        GaussEnv.__init__(self, xml_file, frame_skip, _box(10),
                          default_camera_config=default_camera_config, **kwargs)

    def _after_step(self, action, before):
        obs = self._get_obs()
        to_target = self.get_body_com("fingertip") - self.get_body_com("target")
        dist = -np.linalg.norm(to_target) * self._reward_dist_weight
        ctrl = -np.square(action).sum() * self._reward_control_weight
        return obs, dist + ctrl, False, False, {"reward_dist": dist, "reward_ctrl": ctrl}

    def reset_model(self):
        qpos = self.np_random.uniform(low=-0.1, high=0.1, size=self.model.nq) + self.init_qpos
        while True:  # rejection sampling of a target strictly inside the disc
            self.goal = self.np_random.uniform(low=-0.2, high=0.2, size=2)
            if np.linalg.norm(self.goal) < 0.2:
                break
        qpos[-2:] = self.goal
        qvel = self.init_qvel + self.np_random.uniform(low=-5e-3, high=5e-3, size=self.model.nv)
        qvel[-2:] = 0
        self.set_state(qpos, qvel)
        return self._get_obs()

    def _get_obs(self):
        qpos = self.data.qpos.ravel()
        theta = qpos[:2]
        tip = self.get_body_com("fingertip") - self.get_body_com("target")
        return np.concatenate([np.cos(theta), np.sin(theta), qpos[2:].copy(),
                               self.data.qvel.ravel()[:2].copy(), tip[:2]])


class PusherEnv(GaussEnv):
    """A seven-dof arm pushing a cylinder to a goal at the origin."""

    def __init__(self, xml_file="pusher_v5.xml", frame_skip=5,
                 default_camera_config={"trackbodyid": -1, "distance": 4.0},
                 reward_near_weight=0.5, reward_dist_weight=1, reward_control_weight=0.1,
                 **kwargs):
        ezpickle(self, locals())
        self._reward_near_weight = reward_near_weight
        self._reward_dist_weight = reward_dist_weight
        self._reward_control_weight = reward_control_weight
        GaussEnv.__init__(self, xml_file, frame_skip, _box(23),
                          default_camera_config=default_camera_config, **kwargs)

    def _after_step(self, action, before):
        obs = self._get_obs()
        obj = self.get_body_com("object")
        near = -np.linalg.norm(obj - self.get_body_com("tips_arm")) * self._reward_near_weight
        dist = -np.linalg.norm(obj - self.get_body_com("goal")) * self._reward_dist_weight
        ctrl = -np.square(action).sum() * self._reward_control_weight
        return (obs, dist + ctrl + near, False, False,
                {"reward_dist": dist, "reward_ctrl": ctrl, "reward_near": near})

    def reset_model(self):
        qpos = self.init_qpos.copy()
        self.goal_pos = np.asarray([0, 0])
        while True:  # a cylinder start at least 0.17 from the goal
            self.cylinder_pos = np.concatenate([
                self.np_random.uniform(low=-0.3, high=0, size=1),
                self.np_random.uniform(low=-0.2, high=0.2, size=1)])
            if np.linalg.norm(self.cylinder_pos - self.goal_pos) > 0.17:
                break
        qpos[-4:-2] = self.cylinder_pos
        qpos[-2:] = self.goal_pos
        qvel = self.init_qvel + self.np_random.uniform(low=-5e-3, high=5e-3, size=self.model.nv)
        qvel[-4:] = 0
        self.set_state(qpos, qvel)
        return self._get_obs()

    def _get_obs(self):
        d = self.data
        return np.concatenate([d.qpos.ravel()[:7].copy(), d.qvel.ravel()[:7].copy(),
                               self.get_body_com("tips_arm").copy(),
                               self.get_body_com("object").copy(),
                               self.get_body_com("goal").copy()])
