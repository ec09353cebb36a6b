"""Gymnasium's eleven MuJoCo v5 environments on gauss, registered on import as
gauss/<Name>-v5 (e.g. gymnasium.make("gauss/Humanoid-v5")), with the constructor arguments and
semantics of Gymnasium's own, and a vectorised environment stepping many of them in C on threads
(gauss.gym.GaussVectorEnv("Ant", 16), or gymnasium.make_vec("gauss/Ant-v5", num_envs=16,
vectorization_mode="vector_entry_point"))."""

import gymnasium

from ._base import GaussEnv, gymnasium_assets
from ._arms import InvertedDoublePendulumEnv, InvertedPendulumEnv, PusherEnv, ReacherEnv
from ._legged import AntEnv, HumanoidEnv, HumanoidStandupEnv
from ._planar import HalfCheetahEnv, HopperEnv, SwimmerEnv, Walker2dEnv
from ._vector import GaussVectorEnv, vector_entry_point

__all__ = ["GaussEnv", "gymnasium_assets", "ENVIRONMENTS", "AntEnv", "HalfCheetahEnv",
           "HopperEnv", "HumanoidEnv", "HumanoidStandupEnv", "InvertedDoublePendulumEnv",
           "InvertedPendulumEnv", "PusherEnv", "ReacherEnv", "SwimmerEnv", "Walker2dEnv",
           "GaussVectorEnv"]

# name: (class, episode length, reward threshold), as Gymnasium registers its v5 environments
ENVIRONMENTS = {
    "Ant": (AntEnv, 1000, 6000.0),
    "HalfCheetah": (HalfCheetahEnv, 1000, 4800.0),
    "Hopper": (HopperEnv, 1000, 3800.0),
    "Humanoid": (HumanoidEnv, 1000, None),
    "HumanoidStandup": (HumanoidStandupEnv, 1000, None),
    "InvertedDoublePendulum": (InvertedDoublePendulumEnv, 1000, 9100.0),
    "InvertedPendulum": (InvertedPendulumEnv, 1000, 950.0),
    "Pusher": (PusherEnv, 100, 0.0),
    "Reacher": (ReacherEnv, 50, -3.75),
    "Swimmer": (SwimmerEnv, 1000, 360.0),
    "Walker2d": (Walker2dEnv, 1000, None),
}


def _register():
    for name, (cls, steps, threshold) in ENVIRONMENTS.items():
        env_id = f"gauss/{name}-v5"
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(id=env_id, entry_point=f"{cls.__module__}:{cls.__name__}",
                           vector_entry_point=vector_entry_point(name),
                           max_episode_steps=steps, reward_threshold=threshold)


_register()
