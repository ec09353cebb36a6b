"""Random small models of moving and welded bodies with masses and inertias around MJCF's
thresholds (0, 1e-16, 1e-15, 1e-14, 1), loaded by gauss and by MuJoCo 3.3.7: how often one engine
loads a model the other refuses, and, where both load, how often the bodies' compiled mass,
inertia, ipos or iquat differ (bit for bit; remaining differences are last-bit eigen-solver ties).

    PYTHONPATH=python GAUSS_LIBRARY=build/release/libgauss.so .venv/bin/python \\
        tools/inertia_rules_sweep.py --seed 1 --n 1000 [--mild] [--fuse] [--discard] [--no-total]

--mild draws the values 1 more often (fewer models refused by both); --fuse and --discard add
compiler fusestatic and discardvisual to a third / half of the models; --no-total leaves
settotalmass out. --show N prints the first N models that differ.
"""

import argparse
import random

import mujoco
import numpy as np

import gauss

FIELDS = ("body_mass", "body_inertia", "body_ipos", "body_iquat")
GEOMS = ['size="0.1" contype="0" conaffinity="0"', 'size="0.1" pos="1 0 0" contype="0" conaffinity="0"',
         'size="0.1"', 'size="1e-5"', 'size="1e-3"', 'size=".1" mass="1e-14"', 'size=".1" density="0"',
         'size=".1" mass="1e-16"', 'type="box" size=".1 .1 1e-9"']


class Maker:
    def __init__(self, rng, args):
        self.rng, self.args = rng, args
        self.vals = ["0", "1e-16", "1e-14", "1", "1", "1", "1"] if args.mild else ["0", "1e-16", "1e-15", "1e-14", "1"]

    def inertial(self):
        r = self.rng.random()
        if r < 0.15:
            return ""
        if r < 0.3:
            return f"<geom {self.rng.choice(GEOMS)}/>"
        m = self.rng.choice(self.vals)
        d = " ".join(self.rng.choice(self.vals) for _ in range(3))
        pos = self.rng.choice(["0 0 0", "1 0 0", "0 0 1"])
        return f'<inertial pos="{pos}" mass="{m}" diaginertia="{d}"/>'

    def body(self, depth, root):
        rng = self.rng
        if root:
            joint = rng.choice(["<freejoint/>", "<joint/>", ""])
        else:
            joint = rng.choice(["", "", "", '<joint type="hinge"/>', '<joint type="slide"/>', '<joint type="ball"/>'])
        nkid = rng.choice([0, 1, 1, 2]) if depth < 3 else 0
        kids = "".join(self.body(depth + 1, False) for _ in range(nkid))
        pos = rng.choice(["0 0 0", "1 0 0", "0 1 0"])
        return f'<body pos="{pos}">{joint}{self.inertial()}{kids}</body>'

    def model(self):
        rng, a = self.rng, self.args
        opts = [rng.choice(["", 'inertiafromgeom="true"', 'inertiafromgeom="false"']),
                rng.choice(["", "", "boundmass='1e-15'", "boundmass='1e-3'"]),
                rng.choice(["", "", "boundinertia='1e-15'", "boundinertia='1e-16'"]),
                rng.choice(["", "balanceinertia='true'"]),
                "" if a.no_total else rng.choice(["", "", "settotalmass='1e3'"]),
                rng.choice(["", "", "fusestatic='true'"]) if a.fuse else "",
                rng.choice(["", "discardvisual='true'"]) if a.discard else ""]
        comp = " ".join(x for x in opts if x)
        second = self.body(0, True) if rng.random() < 0.3 else ""
        return f"<mujoco><compiler {comp}/><worldbody>{self.body(0, True)}{second}</worldbody></mujoco>"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--n", type=int, default=1000)
    p.add_argument("--mild", action="store_true")
    p.add_argument("--fuse", action="store_true")
    p.add_argument("--discard", action="store_true")
    p.add_argument("--no-total", action="store_true")
    p.add_argument("--show", type=int, default=0)
    args = p.parse_args()
    maker = Maker(random.Random(args.seed), args)
    outcomes, values, shown = {}, {}, 0
    for _ in range(args.n):
        xml = maker.model()
        try:
            mm = mujoco.MjModel.from_xml_string(xml)
            merr = ""
        except ValueError as e:
            mm, merr = None, str(e).split("\n")[0]
        try:
            gm = gauss.Model.from_xml_string(xml)
            gerr = ""
        except gauss.GaussError as e:
            gm, gerr = None, str(e)
        key = ("ok" if mm else "refused", "ok" if gm else "refused")
        outcomes[key] = outcomes.get(key, 0) + 1
        differ = (mm is None) != (gm is None)
        if mm is not None and gm is not None:
            fields = [f for f in FIELDS if mm.nbody != gm.nbody
                      or not np.array_equal(np.asarray(getattr(mm, f)), np.asarray(getattr(gm, f)))]
            for f in fields:
                values[f] = values.get(f, 0) + 1
            differ = differ or bool(fields)
        if differ and shown < args.show:
            shown += 1
            print(f"MuJoCo: {merr or 'loads'} | gauss: {gerr or 'loads'}\n  {xml}")
    print("(MuJoCo, gauss):", {f"{k[0]}/{k[1]}": v for k, v in sorted(outcomes.items())})
    print("load outcome differs:", sum(v for k, v in outcomes.items() if k[0] != k[1]), "of", args.n)
    print("both load, arrays differ:", values or "none")


if __name__ == "__main__":
    main()
