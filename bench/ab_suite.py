"""Two builds of libgauss timed against each other in the suite's kind of rounds: each round
resets the model to its first keyframe (or its default state), draws one control vector inside
the control ranges as bench/suite.py draws it (seed 0, a new vector every round) and takes N steps
in one call, rated by the thread's CPU time. Each build runs in a process of its own (the Python
package loads one library per process), the builds alternating run by run; prints each build's
microseconds per step per run, their medians and the ratio before / after (above 1: after is
faster).

    .venv/bin/python bench/ab_suite.py MODEL.xml BEFORE/libgauss.so AFTER/libgauss.so \\
        [--runs 5] [--rounds 5] [--steps 4000] [--smooth]

Why beside bench/ab_step.c: the states a model's timed steps pass through depend on the rounds.
The Gymnasium humanoid's PGS, for one, takes 2-4.5 sweeps a solve in these rounds (reset, new
controls) and ~6.6 at the late states of `bench/cg_step.c ... skip=2000`, so the parts of a
solve weigh differently in the two; a change is judged where the suite times it.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def controls(m, rng):
    """bench/suite.py's draw (there from MuJoCo's model; the ranges are the same)"""
    u = rng.uniform(-1, 1, m.nu)
    lo, hi = np.asarray(m.actuator_ctrlrange)[:, 0], np.asarray(m.actuator_ctrlrange)[:, 1]
    limited = np.asarray(m.actuator_ctrllimited) > 0
    return np.where(limited, lo + (hi - lo) * (u + 1) / 2, u)


def child(path, rounds, steps, smooth):
    """one run in this process: the mean microseconds per step over the rounds"""
    import gauss

    m = gauss.Model.from_xml_path(path)
    if smooth:
        m.opt.disableflags |= gauss.DSBL_CONTACT
    d = gauss.Data(m)
    rng = np.random.default_rng(0)
    total = 0.0
    for _ in range(rounds):
        u = controls(m, rng)
        if m.nkey:
            gauss.reset_data_keyframe(m, d, 0)
        else:
            gauss.reset_data(m, d)
        d.ctrl[:] = u
        t0 = time.thread_time()
        gauss.step(m, d, steps)
        total += time.thread_time() - t0
    print(f"{total / (rounds * steps) * 1e6:.4f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model")
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--runs", type=int, default=5, help="runs of each build, alternating")
    ap.add_argument("--rounds", type=int, default=5, help="rounds a run (a control vector each)")
    ap.add_argument("--steps", type=int, default=4000, help="steps a round")
    ap.add_argument("--smooth", action="store_true", help="contacts disabled")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.model, args.rounds, args.steps, args.smooth)
        return
    times = {"before": [], "after": []}
    for run in range(args.runs):
        order = [("before", args.before), ("after", args.after)]
        if run % 2:
            order.reverse()
        for name, lib in order:
            env = dict(os.environ, GAUSS_LIBRARY=os.path.abspath(lib),
                       PYTHONPATH=os.path.join(ROOT, "python"), OPENBLAS_NUM_THREADS="1")
            cmd = [sys.executable, os.path.abspath(__file__), args.model, args.before, args.after,
                   "--child", "--rounds", str(args.rounds), "--steps", str(args.steps)]
            if args.smooth:
                cmd.append("--smooth")
            out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)
            times[name].append(float(out.stdout.split()[-1]))
    for name in ("before", "after"):
        print(f"{name:6s} us/step " + " ".join(f"{t:.3f}" for t in times[name]) +
              f"  median {statistics.median(times[name]):.3f}  min {min(times[name]):.3f}")
    b, a = statistics.median(times["before"]), statistics.median(times["after"])
    print(f"before / after: median {b / a:.3f}, min {min(times['before']) / min(times['after']):.3f}")


if __name__ == "__main__":
    main()
