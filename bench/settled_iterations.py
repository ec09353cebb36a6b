"""Newton iterations per island, gauss against MuJoCo, at MuJoCo's own states of a settled pile.

Runs MuJoCo on a model under bench/suite.py's first control draw, copies its state (qpos, qvel,
qacc_warmstart) into both engines every `every` steps from `start` on, calls forward in both and
compares solver_niter island by island. It then repeats MuJoCo's solves with the tolerance and
the line-search tolerance changed, to show which islands end without an iteration whatever the
tolerances are (see docs/performance.md, "Iterations at the settled states").

    PYTHONPATH=python GAUSS_LIBRARY=build/release/libgauss.so python bench/settled_iterations.py \
        [model.xml] [--states 250] [--start 1000] [--every 20]
"""
import argparse
import os
import sys

import mujoco
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gauss  # noqa: E402
from suite import controls  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model", nargs="?", default="tests/models/dm_control/stacker.xml")
    ap.add_argument("--states", type=int, default=250)
    ap.add_argument("--start", type=int, default=1000)
    ap.add_argument("--every", type=int, default=20)
    a = ap.parse_args()
    mm = mujoco.MjModel.from_xml_path(a.model)
    gm = gauss.Model.from_xml_path(a.model)
    md, gd = mujoco.MjData(mm), gauss.Data(gm)
    if mm.nkey:
        mujoco.mj_resetDataKeyframe(mm, md, 0)
        gauss.reset_data_keyframe(gm, gd, 0)
    u = controls(mm, np.random.default_rng(0))
    md.ctrl[:] = u
    gd.ctrl[:] = u
    states = []
    k = 0
    while len(states) < a.states:
        mujoco.mj_step(mm, md)
        k += 1
        if k >= a.start and k % a.every == 0:
            states.append((md.qpos.copy(), md.qvel.copy(), md.qacc_warmstart.copy(), md.time))

    def load(d, s):
        d.qpos[:], d.qvel[:], d.qacc_warmstart[:], d.time = s

    equal = islands = mj_it = g_it = more = fewer = 0
    for s in states:
        load(md, s)
        load(gd, s)
        mujoco.mj_forward(mm, md)
        gauss.forward(gm, gd)
        n = md.nisland
        x, y = np.asarray(md.solver_niter[:n]), np.asarray(gd.solver_niter[:n])
        equal += int(np.sum(x == y))
        islands += n
        mj_it += int(x.sum())
        g_it += int(y.sum())
        more += int(np.sum(y > x))
        fewer += int(np.sum(y < x))
    print(f"{a.model}: {len(states)} states, {islands} island solves; iterations MuJoCo {mj_it}, "
          f"gauss {g_it}; equal in {equal}, gauss more in {more}, fewer in {fewer}")

    tol, lstol = mm.opt.tolerance, mm.opt.ls_tolerance
    for t, ls in ((tol, lstol), (0.0, lstol), (tol, 0.0), (tol, 0.5)):
        mm.opt.tolerance, mm.opt.ls_tolerance = t, ls
        zero = 0
        for s in states:
            load(md, s)
            mujoco.mj_forward(mm, md)
            zero += int(np.sum(np.asarray(md.solver_niter[:md.nisland]) == 0))
        print(f"MuJoCo, tolerance {t:g}, ls_tolerance {ls:g}: {zero} island solves of 0 iterations")


if __name__ == "__main__":
    main()
