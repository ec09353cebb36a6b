"""Each model under every integrator, solver and cone (its other options as the file sets them),
gauss against MuJoCo: the suite (bench/suite.py) times each model's own options only, and a
user's choice of integrator or cone can take a path the suite never does (the implicit
integrator's bias derivative on 100 humanoids read 0.03x before it was made local).

    PYTHONPATH=python GAUSS_LIBRARY=build/release/libgauss.so .venv/bin/python \\
        bench/option_sweep.py MODEL.xml ... [--integrators 0 1 2 3] [--solvers 0 1 2] [--cones 0 1]

Both engines get the same options and the same controls (the suite's draw), step 50 steps, then
three alternating timed rounds of as many steps as ~0.05 s of MuJoCo's time, rated by the
thread's CPU time; the median's ratio is printed (above 1 gauss is faster), flagged below 1.0.
Rounds this short scatter by several per cent: rerun a flagged line before reading much into it.
Integrators: 0 Euler, 1 RK4, 2 implicit, 3 implicitfast; solvers: 0 PGS, 1 CG, 2 Newton; cones:
0 pyramidal, 1 elliptic.
"""
import argparse
import itertools
import os
import sys
import time

import numpy as np

import mujoco

import gauss

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import suite  # noqa: E402


def ratio(path, integrator, solver, cone, seed=0):
    """steps per second of gauss over MuJoCo's, and both engines' microseconds a step"""
    gm, mm, gd, md = suite.load_pair(path, False)
    for o in (mm.opt, gm.opt):
        o.integrator, o.solver, o.cone = integrator, solver, cone
    u = suite.controls(mm, np.random.default_rng(seed))
    gd.ctrl[:] = u
    md.ctrl[:] = u
    mujoco.mj_step(mm, md, nstep=50)
    gauss.step(gm, gd, 50)
    t0 = time.thread_time()
    mujoco.mj_step(mm, md)
    n = max(5, min(400, int(0.05 / max(time.thread_time() - t0, 1e-7))))
    tm, tg = [], []
    for r in range(3):
        for who in (("m", "g") if r % 2 == 0 else ("g", "m")):
            t0 = time.thread_time()
            if who == "m":
                mujoco.mj_step(mm, md, nstep=n)
                tm.append(time.thread_time() - t0)
            else:
                gauss.step(gm, gd, n)
                tg.append(time.thread_time() - t0)
    m_us, g_us = 1e6 * np.median(tm) / n, 1e6 * np.median(tg) / n
    return m_us / g_us, m_us, g_us


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", nargs="+")
    ap.add_argument("--integrators", type=int, nargs="+", default=[0, 1, 2, 3])
    ap.add_argument("--solvers", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--cones", type=int, nargs="+", default=[0, 1])
    args = ap.parse_args()
    low = []
    for path in args.models:
        for i, s, c in itertools.product(args.integrators, args.solvers, args.cones):
            r, m_us, g_us = ratio(path, i, s, c)
            flag = " **< 1**" if r < 1 else ""
            line = (f"{os.path.relpath(path)} integrator {i} solver {s} cone {c}: {r:.2f} "
                    f"(MuJoCo {m_us:.1f} us, gauss {g_us:.1f} us){flag}")
            print(line, flush=True)
            if r < 1:
                low.append(line)
    print(f"\n{len(low)} below 1.0" + ("".join("\n  " + x for x in low) if low else ""))


if __name__ == "__main__":
    main()
