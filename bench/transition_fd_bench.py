"""Time gauss.transition_fd against mujoco.mjd_transitionFD in the same process.

The Gymnasium humanoid (tests/models/gymnasium/humanoid.xml) at STATES states of a MuJoCo rollout
with random controls (contacts with the floor from its first steps on), forward and centred
differences, both engines writing into matrices of their own. MuJoCo refuses RK4 in
mjd_transitionFD: the model's RK4 is switched to Euler in both engines. The engines alternate
call by call; per state the median of REPEATS calls, the table the sums over the states.

    PYTHONPATH=python GAUSS_LIBRARY=build/release/libgauss.so python bench/transition_fd_bench.py
"""

import os
import sys
import time

import mujoco
import numpy as np

import gauss

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL = os.path.join(ROOT, "tests", "models", "gymnasium", "humanoid.xml")
STATES = 8
REPEATS = 15
EPS = 1e-6


def states(mm, n, seed=1, every=50):
    rng = np.random.default_rng(seed)
    md = mujoco.MjData(mm)
    out = []
    while len(out) < n:
        for _ in range(every):
            md.ctrl[:] = rng.uniform(-0.4, 0.4, mm.nu)
            mujoco.mj_step(mm, md)
        out.append((md.time, md.qpos.copy(), md.qvel.copy(), md.act.copy(), md.ctrl.copy(),
                    md.qacc_warmstart.copy(), md.ncon))
    return out


def main(path=MODEL, nstate=STATES, repeats=REPEATS):
    mm = mujoco.MjModel.from_xml_path(path)
    gm = gauss.Model.from_xml_path(path)
    mm.opt.integrator = gm.opt.integrator = 0
    md, gd = mujoco.MjData(mm), gauss.Data(gm)
    n = 2 * mm.nv + mm.na
    A, B = np.zeros((n, n)), np.zeros((n, mm.nu))
    C, D = np.zeros((mm.nsensordata, n)), np.zeros((mm.nsensordata, mm.nu))
    total = {}
    for t, qpos, qvel, act, ctrl, warm, ncon in states(mm, nstate):
        for d in (md, gd):
            d.time = t
            d.qpos[:], d.qvel[:], d.act[:], d.ctrl[:], d.qacc_warmstart[:] = qpos, qvel, act, ctrl, warm
        for centered in (False, True):
            tm, tg = [], []
            for _ in range(repeats):
                s = time.perf_counter()
                mujoco.mjd_transitionFD(mm, md, EPS, centered, A, B, C, D)
                tm.append(time.perf_counter() - s)
                s = time.perf_counter()
                gauss.transition_fd(gm, gd, EPS, centered)
                tg.append(time.perf_counter() - s)
            acc = total.setdefault(centered, [0.0, 0.0])
            acc[0] += float(np.median(tm))
            acc[1] += float(np.median(tg))
    print(f"{os.path.basename(path)}: nv {mm.nv}, nu {mm.nu}, nsensordata {mm.nsensordata}, "
          f"{nstate} states, Euler")
    print(f"{'differences':12s} {'mujoco ms':>10s} {'gauss ms':>10s} {'ratio':>7s}")
    for centered, (sm, sg) in total.items():
        print(f"{'centred' if centered else 'forward':12s} {1e3 * sm / nstate:10.3f} "
              f"{1e3 * sg / nstate:10.3f} {sm / sg:7.2f}")
    return total


if __name__ == "__main__":
    main(*(sys.argv[1:2] or [MODEL]))
