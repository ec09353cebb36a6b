"""Cost of one Python step call on a trivial model (one free body): gauss.step against
mujoco.mj_step in the same process, alternating, the minimum over repeats of the mean per call.

    PYTHONPATH=python GAUSS_LIBRARY=build/release/libgauss.so .venv/bin/python bench/step_call.py
"""
import timeit

import mujoco

import gauss

XML = '<mujoco><worldbody><body><freejoint/><geom size="0.1"/></body></worldbody></mujoco>'


def main(rounds=3, number=20000, repeat=5):
    gm = gauss.Model.from_xml_string(XML)
    gd = gauss.Data(gm)
    mm = mujoco.MjModel.from_xml_string(XML)
    md = mujoco.MjData(mm)
    for _ in range(rounds):
        g = min(timeit.repeat(lambda: gauss.step(gm, gd), number=number, repeat=repeat)) / number
        m = min(timeit.repeat(lambda: mujoco.mj_step(mm, md), number=number, repeat=repeat)) / number
        print(f"gauss.step {g * 1e6:.2f} us   mujoco.mj_step {m * 1e6:.2f} us   ratio {g / m:.2f}")


if __name__ == "__main__":
    main()
