"""Environment steps per second of gauss.gym against Gymnasium's own environments on MuJoCo.

    PYTHONPATH=python .venv/bin/python bench/gym_bench.py [--steps 2000] [--envs 16] [--threads 2]

For gauss/Humanoid-v5 and gauss/Ant-v5 against Humanoid-v5 and Ant-v5 (same process, same random
actions, seeded resets; an env that ends is reset and the reset counts in the time):

- single: one environment from gymnasium.make (with its usual wrappers) on each engine;
- vector: --envs environments, gauss's GaussVectorEnv on --threads threads (one C call runs the
  physics of all of them) against Gymnasium's SyncVectorEnv of MuJoCo environments (one process;
  MuJoCo's environments have no threaded vector env), and against its AsyncVectorEnv with
  one worker process per environment (as Gymnasium makes it) when --async is given.

Each figure is the best of 5 runs (the two engines alternating) of --steps env steps (vector:
--steps // --envs vector steps, so that the same number of env steps is timed). The ratio is
gauss / MuJoCo.
"""

import argparse
import os
import platform
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import gymnasium  # noqa: E402

import gauss.gym  # noqa: E402


def _actions(space, n, seed):
    rng = np.random.default_rng(seed)
    return rng.uniform(space.low, space.high, size=(n,) + space.shape).astype(np.float32)


REPS = 5


def run_single(env, acts, seed):
    env.reset(seed=seed)
    t = time.perf_counter()
    for a in acts:
        _, _, term, trunc, _ = env.step(a)
        if term or trunc:
            env.reset()
    return time.perf_counter() - t


def run_vector(vec, acts, seed):
    vec.reset(seed=seed)
    t = time.perf_counter()
    for a in acts:
        vec.step(a)  # autoreset inside
    return time.perf_counter() - t


def interleaved(run, first, second, acts):
    """Best times of the two engines over REPS runs, alternating, so that a busy moment of the
    machine does not fall on one engine only."""
    best = [float("inf"), float("inf")]
    for rep in range(REPS):
        for k, env in enumerate((first, second)):
            best[k] = min(best[k], run(env, acts, rep))
    return best


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--steps", type=int, default=2000)
    p.add_argument("--envs", type=int, default=16)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--async", dest="use_async", action="store_true")
    args = p.parse_args()
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
          f"gymnasium {gymnasium.__version__}; env steps per second (best of 5)")
    print(f"{'environment':12s} {'mode':22s} {'gauss':>10s} {'MuJoCo':>10s} {'ratio':>7s}")
    for name in ("Humanoid", "Ant"):
        ge, me = gymnasium.make(f"gauss/{name}-v5"), gymnasium.make(f"{name}-v5")
        acts = _actions(ge.action_space, args.steps, 0)
        tg, tm = interleaved(run_single, ge, me, acts)
        g, m = args.steps / tg, args.steps / tm
        print(f"{name:12s} {'single':22s} {g:10.0f} {m:10.0f} {g / m:7.2f}")
        gv = gauss.gym.GaussVectorEnv(name, args.envs, nthread=args.threads)
        sync = gymnasium.make_vec(f"{name}-v5", num_envs=args.envs, vectorization_mode="sync")
        nvec = max(1, args.steps // args.envs)
        vacts = _actions(gv.action_space, nvec, 1)
        tg, tm = interleaved(run_vector, gv, sync, vacts)
        g, m = nvec * args.envs / tg, nvec * args.envs / tm
        mode = f"vector {args.envs}/{args.threads} thr (sync)"
        print(f"{name:12s} {mode:22s} {g:10.0f} {m:10.0f} {g / m:7.2f}")
        sync.close()
        if args.use_async:
            asy = gymnasium.make_vec(f"{name}-v5", num_envs=args.envs, vectorization_mode="async")
            m = nvec * args.envs / min(run_vector(asy, vacts, rep) for rep in range(REPS))
            mode = f"vector {args.envs} (async procs)"
            print(f"{name:12s} {mode:22s} {g:10.0f} {m:10.0f} {g / m:7.2f}")
            asy.close()
        gv.close()


if __name__ == "__main__":
    main()
