"""Throughput of gauss.rollout against mujoco.rollout.rollout in the same run: nbatch Gymnasium
humanoids from the same random initial states, the same random controls, nstep steps, at 1 and 2
threads. Prints steps per second and the ratios (gauss / MuJoCo), best of `repeat` runs.

    PYTHONPATH=python GAUSS_LIBRARY=build/release/libgauss.so python bench/rollout_bench.py
"""

import argparse
import os
import time

import mujoco
import numpy as np
from mujoco import rollout as mj_rollout

import gauss

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.join(HERE, "..", "tests", "models", "gymnasium", "humanoid.xml")


def best(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nbatch", type=int, default=64)
    ap.add_argument("--nstep", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threads", default="1,2")
    args = ap.parse_args()
    gm = gauss.Model.from_xml_path(MODEL)
    mm = mujoco.MjModel.from_xml_path(MODEL)
    rng = np.random.default_rng(0)
    d = gauss.Data(gm)
    s0 = []
    for _ in range(args.nbatch):
        gauss.reset_data(gm, d)
        d.qvel[:] = rng.normal(size=gm.nv) * 0.1
        s0.append(gauss.get_state(gm, d, gauss.STATE_FULLPHYSICS))
    s0 = np.array(s0)
    lo, hi = gm.actuator_ctrlrange[:, 0], gm.actuator_ctrlrange[:, 1]
    ctrl = rng.uniform(lo, hi, size=(args.nbatch, args.nstep, gm.nu))
    total = args.nbatch * args.nstep
    print(f"{args.nbatch} Gymnasium humanoids x {args.nstep} steps, best of {args.repeat}")
    base = {}
    for nt in [int(x) for x in args.threads.split(",")]:
        gd = [gauss.Data(gm) for _ in range(nt)]
        md = [mujoco.MjData(mm) for _ in range(nt)]
        with mj_rollout.Rollout(nthread=nt) as r:
            tm = best(lambda: r.rollout(mm, md, s0, ctrl), args.repeat)
        tg = best(lambda: gauss.rollout(gm, gd, s0, ctrl), args.repeat)
        base.setdefault("g", tg)
        base.setdefault("m", tm)
        print(f"threads {nt}: gauss {total / tg:10.0f} steps/s  MuJoCo {total / tm:10.0f} steps/s  "
              f"ratio {tm / tg:.2f}  scaling gauss {base['g'] / tg:.2f} MuJoCo {base['m'] / tm:.2f}")


if __name__ == "__main__":
    main()
