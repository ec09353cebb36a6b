"""Rollouts on a Ray cluster with gauss.distributed, checked against the local threaded rollout.

    PYTHONPATH=python .venv/bin/python examples/distributed_rollout.py [--address ADDR]
        [--nbatch 64] [--nstep 500] [--rounds 3] [--model tests/models/gymnasium/humanoid.xml]

Without --address a local Ray instance is started (all this machine's CPUs); with one (e.g.
"auto" on a node of a running cluster, or "ray://head:10001") the rollouts run on that cluster,
whose nodes need gauss installed. Prints both rollouts' throughput (physics steps per second,
best of --rounds alternating runs), their ratio (the cost of going distributed) and whether the
results are the same bits.
"""

import argparse
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))

import gauss  # noqa: E402
import gauss.distributed  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--address", default=None)
    p.add_argument("--nbatch", type=int, default=64)
    p.add_argument("--nstep", type=int, default=500)
    p.add_argument("--nthread", type=int, default=1, help="threads inside each Ray worker")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--model", default=os.path.join(HERE, "..", "tests", "models", "gymnasium",
                                                   "humanoid.xml"))
    args = p.parse_args()

    m = gauss.Model.from_xml_path(args.model)
    rng = np.random.default_rng(0)
    s0 = np.tile(gauss.get_state(m, gauss.Data(m)), (args.nbatch, 1))
    s0[:, 1:1 + m.nq] += 0.01 * rng.normal(size=(args.nbatch, m.nq))
    lo, hi = m.actuator_ctrlrange.T
    u = rng.uniform(lo, hi, size=(args.nbatch, args.nstep, m.nu))

    pool = gauss.distributed.Pool(address=args.address, nthread=args.nthread)
    pool.rollout(m, s0[:1], u[:1, :1], nstep=1)  # start the workers before timing
    nthread = os.cpu_count() or 1
    datas = [gauss.Data(m) for _ in range(nthread)]
    # best of --rounds, the two alternating, so that a busy moment falls on both
    t_dist = t_local = float("inf")
    for _ in range(args.rounds):
        t = time.perf_counter()
        dist = pool.rollout(m, s0, u)
        t_dist = min(t_dist, time.perf_counter() - t)
        t = time.perf_counter()
        local = gauss.rollout(m, datas, s0, u)
        t_local = min(t_local, time.perf_counter() - t)

    steps = args.nbatch * args.nstep
    same = all(np.array_equal(a, b) for a, b in zip(dist, local))
    print(f"{os.path.basename(args.model)}: {args.nbatch} rollouts x {args.nstep} steps")
    print(f"local rollout, {nthread} threads:   {steps / t_local:10.0f} steps/s")
    print(f"Ray, {pool.nworker} workers x {pool.nthread} thread(s): {steps / t_dist:10.0f} steps/s")
    print(f"Ray / local throughput: {t_local / t_dist:.2f}; same bits: {same}")
    pool.close()
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
