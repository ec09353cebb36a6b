"""Write bench/models/pile100.xml: 50 boxes and 50 capsules, dropped in a column onto a plane and
left to settle, saved with each body at its settled pose (so that the model's default state, which
both engines reset to, is the resting pile).

    .venv/bin/python bench/make_pile.py [--settle SECONDS] [--out PATH]

The settling is simulated with MuJoCo (the `mujoco` package), used here to produce data only.
"""
import argparse
import os

import mujoco
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

HEADER = """<mujoco model="pile100">
  <!-- 50 boxes and 50 capsules at rest in a heap on a plane; written by bench/make_pile.py -->
  <option timestep="0.002"/>
  <default>
    <geom friction="0.8 0.005 0.0001" rgba="0.7 0.6 0.4 1"/>
  </default>
  <worldbody>
    <light pos="0 0 4" dir="0 0 -1"/>
    <geom name="floor" type="plane" size="5 5 0.1" rgba="0.3 0.4 0.5 1"/>
"""


def body_xml(i, kind, size, pos, quat):
    p = " ".join(f"{x:.9g}" for x in pos)
    q = " ".join(f"{x:.9g}" for x in quat)
    s = " ".join(f"{x:.6g}" for x in size)
    return (f'    <body name="{kind}{i}" pos="{p}" quat="{q}">\n'
            f'      <freejoint/>\n'
            f'      <geom type="{kind}" size="{s}"/>\n'
            f'    </body>\n')


def build(poses, kinds, sizes):
    out = [HEADER]
    for i, (kind, size) in enumerate(zip(kinds, sizes)):
        out.append(body_xml(i, kind, size, poses[i][0], poses[i][1]))
    out.append("  </worldbody>\n</mujoco>\n")
    return "".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--settle", type=float, default=4.0, help="seconds of settling")
    ap.add_argument("--out", default=os.path.join(HERE, "models", "pile100.xml"))
    args = ap.parse_args()

    rng = np.random.default_rng(100)
    kinds, sizes, poses = [], [], []
    # a 3 x 3 column, 12 layers high, alternating boxes and capsules: it topples into a heap
    spacing = 0.2
    for i in range(100):
        layer, cell = divmod(i, 9)
        x = (cell % 3 - 1) * spacing + rng.uniform(-0.02, 0.02)
        y = (cell // 3 - 1) * spacing + rng.uniform(-0.02, 0.02)
        z = 0.1 + layer * spacing
        if i % 2 == 0:
            kinds.append("box")
            sizes.append(rng.uniform(0.04, 0.07, size=3))
        else:
            kinds.append("capsule")
            sizes.append([rng.uniform(0.03, 0.045), rng.uniform(0.04, 0.07)])
        q = rng.normal(size=4)
        poses.append(((x, y, z), q / np.linalg.norm(q)))

    m = mujoco.MjModel.from_xml_string(build(poses, kinds, sizes))
    d = mujoco.MjData(m)
    mujoco.mj_step(m, d, nstep=int(round(args.settle / m.opt.timestep)))
    speed = np.abs(d.qvel).max()
    settled = []
    for i in range(100):
        adr = m.jnt_qposadr[i]
        q = d.qpos[adr + 3:adr + 7]
        settled.append((d.qpos[adr:adr + 3].copy(), q / np.linalg.norm(q)))
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        f.write(build(settled, kinds, sizes))
    print(f"{os.path.relpath(args.out)}: settled {args.settle} s, max |qvel| {speed:.3g}, "
          f"{d.ncon} contacts, {d.nefc} constraint rows")


if __name__ == "__main__":
    main()
