"""Time the collision stage alone: gauss's gs_collision against MuJoCo's mj_collision, on the same
model and state, in the same run, alternating rounds.

    PYTHONPATH=python GAUSS_LIBRARY=build/release/libgauss.so python bench/collision_bench.py

Models: a pile of 200 mixed primitives, of 200 spheres, of 200 ellipsoids and of 200 cylinders
(the last two all GJK and EPA), one of 50 convex meshes (hulls of 20 to 60 random
points) resting on a plane (generated here, settled by a MuJoCo rollout), the heap of 50 boxes and
50 capsules of bench/models/pile100.xml at its stored state, the Gymnasium humanoid and ant (states
after a short rollout with random controls, so that feet touch the floor). Arguments, if any,
select the models whose names contain one of them, e.g. `python bench/collision_bench.py capsules`. Both engines are called from Python in a loop (ctypes for gauss,
the mujoco binding for MuJoCo); the cost of an empty call through each is measured and
subtracted, and printed."""

import ctypes
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "python"))

import gauss  # noqa: E402
import mujoco  # noqa: E402
from gauss import _lib  # noqa: E402


def pile_xml(n=200, seed=0, kinds=("sphere", "capsule", "box", "cylinder", "ellipsoid")):
    """n spheres, capsules, boxes, cylinders and ellipsoids dropped in a column on a plane."""
    rng = np.random.default_rng(seed)
    bodies = []
    side = int(np.ceil(np.sqrt(n / 4)))
    for i in range(n):
        kind = kinds[i % len(kinds)]
        x, y = (i % side - side / 2) * 0.12, ((i // side) % side - side / 2) * 0.12
        z = 0.1 + 0.12 * (i // (side * side)) + rng.uniform(0, 0.02)
        size = {"sphere": "0.04", "capsule": "0.03 0.03", "box": "0.04 0.035 0.03",
                "cylinder": "0.035 0.03", "ellipsoid": "0.045 0.035 0.03"}[kind]
        bodies.append(f'<body pos="{x:.4f} {y:.4f} {z:.4f}"><freejoint/>'
                      f'<geom type="{kind}" size="{size}"/></body>')
    return ("<mujoco><option timestep=\"0.004\"/><worldbody>"
            "<geom type=\"plane\" size=\"5 5 .1\"/>" + "".join(bodies) + "</worldbody></mujoco>")


def mesh_pile_xml(n=50, seed=0):
    """n convex meshes (hulls of 20 to 60 random points) dropped in a column on a plane."""
    rng = np.random.default_rng(seed)
    assets, bodies = [], []
    side = int(np.ceil(np.sqrt(n / 3)))
    for i in range(n):
        pts = rng.normal(size=(rng.integers(20, 61), 3)) * rng.uniform(0.02, 0.04, size=3)
        assets.append(f'<mesh name="m{i}" vertex="{" ".join(f"{v:.5f}" for v in pts.ravel())}"/>')
        x, y = (i % side - side / 2) * 0.15, ((i // side) % side - side / 2) * 0.15
        z = 0.12 + 0.15 * (i // (side * side)) + rng.uniform(0, 0.02)
        bodies.append(f'<body pos="{x:.4f} {y:.4f} {z:.4f}"><freejoint/>'
                      f'<geom type="mesh" mesh="m{i}"/></body>')
    return ("<mujoco><option timestep=\"0.004\"/><asset>" + "".join(assets) + "</asset><worldbody>"
            "<geom type=\"plane\" size=\"5 5 .1\"/>" + "".join(bodies) + "</worldbody></mujoco>")


def settle(mjm, steps, seed=0):
    rng = np.random.default_rng(seed)
    d = mujoco.MjData(mjm)
    for _ in range(steps):
        if mjm.nu:
            d.ctrl[:] = rng.uniform(-1, 1, mjm.nu)
        mujoco.mj_step(mjm, d)
    return d


def best_of(fn, reps, rounds):
    out = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn(reps)
        out.append((time.perf_counter() - t) / reps)
    return min(out)


def bench(name, xml=None, path=None, steps=500, reps=2000, rounds=7):
    mjm = mujoco.MjModel.from_xml_string(xml) if xml else mujoco.MjModel.from_xml_path(path)
    gm = gauss.Model.from_xml_string(xml) if xml else gauss.Model.from_xml_path(path)
    mjd = settle(mjm, steps)
    gd = gauss.Data(gm)
    gd.qpos[:] = mjd.qpos
    mujoco.mj_forward(mjm, mjd)
    gauss.forward(gm, gd)

    coll, mp, dp = _lib.gs_collision, gm._ptr, gd._ptr
    empty = _lib.lib.gs_stackMark  # a C function doing nothing much, for the call overhead
    empty.restype, empty.argtypes = ctypes.c_size_t, [ctypes.c_void_p]

    def run_gauss(k):
        for _ in range(k):
            coll(mp, dp)

    def run_gauss_empty(k):
        for _ in range(k):
            empty(dp)

    def run_mujoco(k):
        for _ in range(k):
            mujoco.mj_collision(mjm, mjd)

    def run_mujoco_empty(k):
        for _ in range(k):
            mujoco.mj_version()

    tg, tm = [], []
    for _ in range(rounds):  # alternate the engines
        tg.append(best_of(run_gauss, reps, 1))
        tm.append(best_of(run_mujoco, reps, 1))
    og = best_of(run_gauss_empty, reps, rounds)
    om = best_of(run_mujoco_empty, reps, rounds)
    g, m = min(tg) - og, min(tm) - om
    print(f"{name:30s} ncon gauss {gd.ncon:4d} mujoco {mjd.ncon:4d} | "
          f"gauss {g * 1e6:8.2f} us  mujoco {m * 1e6:8.2f} us  ratio gauss/mujoco {g / m:5.2f} "
          f"(call overhead subtracted: {og * 1e6:.2f} / {om * 1e6:.2f} us)")


def main():
    print(f"library {_lib.path}")
    runs = [
        ("pile of 200 primitives", lambda n: bench(n, xml=pile_xml(), steps=400, reps=300)),
        ("pile of 200 spheres",
         lambda n: bench(n, xml=pile_xml(kinds=("sphere",)), steps=400, reps=300)),
        ("pile of 200 ellipsoids",
         lambda n: bench(n, xml=pile_xml(kinds=("ellipsoid",)), steps=400, reps=300)),
        ("pile of 200 cylinders",
         lambda n: bench(n, xml=pile_xml(kinds=("cylinder",)), steps=400, reps=300)),
        ("pile of 50 convex meshes", lambda n: bench(n, xml=mesh_pile_xml(), steps=400, reps=300)),
        ("pile of 100 boxes and capsules",
         lambda n: bench(n, path=os.path.join(HERE, "models/pile100.xml"), steps=0, reps=500)),
        ("gymnasium/humanoid",
         lambda n: bench(n, path=os.path.join(REPO, "tests/models/gymnasium/humanoid.xml"))),
        ("gymnasium/ant", lambda n: bench(n, path=os.path.join(REPO, "tests/models/gymnasium/ant.xml"))),
    ]
    for name, run in runs:
        if len(sys.argv) < 2 or any(a in name for a in sys.argv[1:]):
            run(name)


if __name__ == "__main__":
    main()
