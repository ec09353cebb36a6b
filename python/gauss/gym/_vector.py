"""A vectorised environment (Gymnasium's VectorEnv API) running N gauss environments of one kind:
the physics of all of them in one C call on threads (gauss.step_batch), the rewards and
observations of each by its own environment's code, and Gymnasium's autoreset modes (by default
an environment that ended is reset by the next step, which ignores its action and returns the
reset observation with reward 0). Results equal N independent environments in a
gymnasium.vector.SyncVectorEnv with the same seeds."""

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

import gauss


class GaussVectorEnv(VectorEnv):
    """num_envs environments `name` (a key of gauss.gym.ENVIRONMENTS, e.g. "Ant") built with
    the keyword arguments `kwargs`, truncated after max_episode_steps (None: the registered
    length; 0 or less: never), stepped on `nthread` threads (None: one per CPU). autoreset_mode:
    Gymnasium's AutoresetMode (or its value): NEXT_STEP (the default), SAME_STEP (an env that
    ends is reset in the same step; its last observation and info go to info["final_obs"] and
    info["final_info"]) or DISABLED (reset ended envs with reset(options={"reset_mask": ...}))."""

    def __init__(self, name, num_envs=1, max_episode_steps=None, nthread=None,
                 autoreset_mode=AutoresetMode.NEXT_STEP, **kwargs):
        from . import ENVIRONMENTS
        if name not in ENVIRONMENTS:
            raise ValueError(f"unknown environment {name!r}: one of {sorted(ENVIRONMENTS)}")
        cls, steps, _ = ENVIRONMENTS[name]
        num_envs = int(num_envs)
        if num_envs < 1:
            raise ValueError(f"num_envs must be >= 1, got {num_envs}")
        self.name = name
        self.num_envs = num_envs
        self.max_episode_steps = steps if max_episode_steps is None else max_episode_steps
        self._limit = int(self.max_episode_steps or 0)
        self.nthread = nthread
        self.envs = [cls(**kwargs) for _ in range(num_envs)]
        # one model for all: its datas step together in one call
        self.model = self.envs[0].model
        for env in self.envs[1:]:
            env.model = self.model
            env.data = gauss.Data(self.model)
        first = self.envs[0]
        self.frame_skip = first.frame_skip
        self.render_mode = first.render_mode
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.metadata = dict(first.metadata, autoreset_mode=self.autoreset_mode)
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._elapsed = np.zeros(num_envs, dtype=np.int64)
        self._autoreset = np.zeros(num_envs, dtype=bool)

    @property
    def dt(self):
        return self.envs[0].dt

    def _seeds(self, seed):
        if seed is None:
            return [None] * self.num_envs
        if isinstance(seed, (int, np.integer)):
            return [int(seed) + i for i in range(self.num_envs)]
        seed = list(seed)
        if len(seed) != self.num_envs:
            raise ValueError(f"{len(seed)} seeds for {self.num_envs} environments")
        return seed

    def reset(self, *, seed=None, options=None):
        # the vector env's own generator takes an int seed only (a list seeds the envs alone)
        super().reset(seed=int(seed) if isinstance(seed, (int, np.integer)) else None)
        seeds = self._seeds(seed)
        mask = np.ones(self.num_envs, dtype=bool)
        if options is not None and "reset_mask" in options:
            options = dict(options)
            mask = np.asarray(options.pop("reset_mask"))
            if mask.shape != (self.num_envs,) or mask.dtype != np.bool_ or not mask.any():
                raise ValueError("options['reset_mask'] must be a boolean array of shape "
                                 f"({self.num_envs},) with at least one True")
        obs = self._last_obs if hasattr(self, "_last_obs") else np.zeros(
            self.observation_space.shape, dtype=self.observation_space.dtype)
        obs = obs.copy()
        infos = {}
        for i in np.flatnonzero(mask):
            obs[i], info = self.envs[i].reset(seed=seeds[i], options=options)
            self._elapsed[i] = 0
            self._autoreset[i] = False
            infos = self._add_info(infos, info, i)
        self._last_obs = obs
        return obs.copy(), infos

    def step(self, actions):
        actions = np.asarray(actions)
        if actions.shape != self.action_space.shape:
            raise ValueError(f"actions have shape {actions.shape}, expected "
                             f"{self.action_space.shape}")
        n = self.num_envs
        obs = self._last_obs.copy()
        rewards = np.zeros(n, dtype=np.float64)
        terminated = np.zeros(n, dtype=bool)
        truncated = np.zeros(n, dtype=bool)
        env_infos = [None] * n
        active = []
        for i in range(n):
            if not self._autoreset[i]:
                active.append(i)
            elif self.autoreset_mode == AutoresetMode.NEXT_STEP:
                obs[i], env_infos[i] = self.envs[i].reset()
                self._elapsed[i] = 0
            else:
                raise ValueError(f"environment {i} has ended: reset it first (autoreset mode "
                                 f"{self.autoreset_mode.value})")
        before = [self.envs[i]._before_step() for i in active]
        gauss.step_batch(self.model, [self.envs[i].data for i in active],
                         ctrl=actions[active].astype(np.float64), nstep=self.frame_skip,
                         nthread=self.nthread, post=True)
        infos = {}
        for i, b in zip(active, before):
            o, r, term, trunc, info = self.envs[i]._after_step(actions[i], b)
            self._elapsed[i] += 1
            if self._limit > 0 and self._elapsed[i] >= self._limit:
                trunc = True
            if self.autoreset_mode == AutoresetMode.SAME_STEP and (term or trunc):
                infos = self._add_info(infos, {"final_obs": o, "final_info": info}, i)
                o, info = self.envs[i].reset()
                self._elapsed[i] = 0
            obs[i], rewards[i], terminated[i], truncated[i], env_infos[i] = o, r, term, trunc, info
        for i in range(n):
            infos = self._add_info(infos, env_infos[i], i)
        # SAME_STEP has reset them already
        same_step = self.autoreset_mode == AutoresetMode.SAME_STEP
        self._autoreset = (terminated | truncated) & (not same_step)
        self._last_obs = obs
        if self.render_mode == "human":
            self.render()
        return obs.copy(), rewards, terminated, truncated, infos

    def render(self):
        frames = tuple(env.render() for env in self.envs)
        return None if self.render_mode == "human" else frames

    def close_extras(self, **kwargs):
        for env in self.envs:
            env.close()


def vector_entry_point(name):
    """The callable gymnasium.make_vec calls for gauss/<name>-v5 in the "vector_entry_point"
    mode (it passes num_envs, max_episode_steps and the environment's keyword arguments)."""
    def make(num_envs=1, **kwargs):
        return GaussVectorEnv(name, num_envs=num_envs, **kwargs)
    make.__name__ = f"make_{name}_vector"
    return make


__all__ = ["GaussVectorEnv", "vector_entry_point"]
