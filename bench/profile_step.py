"""Steps one engine on a model from its first keyframe (or its default state) with the suite's
controls, for instruction counts under valgrind's callgrind (deterministic where wall time on a
shared machine is not):

    valgrind --tool=callgrind --toggle-collect=gs_step \\
        .venv/bin/python bench/profile_step.py gauss MODEL.xml STEPS
    valgrind --tool=callgrind --toggle-collect=mj_step \\
        .venv/bin/python bench/profile_step.py mujoco MODEL.xml STEPS

(PYTHONPATH=python and GAUSS_LIBRARY=build/release/libgauss.so for gauss). Only the steps are
counted (--toggle-collect), so both engines' totals compare directly; callgrind_annotate lists the
functions.
"""
import sys

import mujoco
import numpy as np


def main():
    engine, path, steps = sys.argv[1], sys.argv[2], int(sys.argv[3])
    mm = mujoco.MjModel.from_xml_path(path)
    # bench/suite.py's first round: one control vector drawn inside the control ranges
    u = np.random.default_rng(0).uniform(-1, 1, mm.nu)
    lo, hi = mm.actuator_ctrlrange[:, 0], mm.actuator_ctrlrange[:, 1]
    u = np.where(mm.actuator_ctrllimited > 0, lo + (hi - lo) * (u + 1) / 2, u)
    if engine == "mujoco":
        d = mujoco.MjData(mm)
        if mm.nkey:
            mujoco.mj_resetDataKeyframe(mm, d, 0)
        d.ctrl[:] = u
        for _ in range(steps):
            mujoco.mj_step(mm, d)
    else:
        import gauss

        m = gauss.Model.from_xml_path(path)
        d = gauss.Data(m)
        if m.nkey:
            gauss.reset_data_keyframe(m, d, 0)
        d.ctrl[:] = u
        for _ in range(steps):
            gauss.step(m, d)
    print(f"{engine}: {steps} steps, ncon {d.ncon}, qpos[:3] {np.asarray(d.qpos)[:3]}")


if __name__ == "__main__":
    main()
