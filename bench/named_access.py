"""Cost of named access (d.body("torso").xpos, m.joint(3).range, ...) against MuJoCo's bindings.

    PYTHONPATH=python .venv/bin/python bench/named_access.py [--model tests/models/mujoco/humanoid.xml]

Both engines load the same MJCF file. Each expression is timed in a plain Python loop (timeit,
the best of 7 repeats of a batch of about 0.1 s), in gauss and in MuJoCo in the same run, and the
table gives the cost per access and the ratio gauss / MuJoCo (target: at most 2).
"""

import argparse
import os
import sys
import timeit

import mujoco

import gauss

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

EXPRESSIONS = [
    'd.body("torso").xpos',
    'd.joint("abdomen_y").qpos',
    'd.actuator(0).ctrl',
    "d.body(1).cvel",
    'm.body("torso").mass',
    "m.joint(3).range",
    'm.geom("torso").size',
    'd.body("torso").xpos[2]',
]


def per_call(stmt, env):
    timer = timeit.Timer(stmt, globals=env)
    n, _ = timer.autorange()
    n = max(n // 2, 1)
    return min(timer.repeat(repeat=7, number=n)) / n


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=os.path.join(ROOT, "tests/models/mujoco/humanoid.xml"))
    args = parser.parse_args()
    gm = gauss.Model.from_xml_path(args.model)
    gd = gauss.Data(gm)
    mm = mujoco.MjModel.from_xml_path(args.model)
    md = mujoco.MjData(mm)
    gauss.forward(gm, gd)
    mujoco.mj_forward(mm, md)
    print(f"model {os.path.relpath(args.model, ROOT)}, Python {sys.version.split()[0]}, "
          f"mujoco {mujoco.__version__}")
    print(f"{'expression':32s} {'gauss us':>9s} {'mujoco us':>10s} {'ratio':>6s}")
    worst = 0.0
    for stmt in EXPRESSIONS:
        g = per_call(stmt, {"m": gm, "d": gd})
        mj = per_call(stmt, {"m": mm, "d": md})
        worst = max(worst, g / mj)
        print(f"{stmt:32s} {g * 1e6:9.3f} {mj * 1e6:10.3f} {g / mj:6.2f}")
    print(f"worst ratio {worst:.2f} (target <= 2)")


if __name__ == "__main__":
    main()
