"""The example's quadruped standing on its four feet, with k contact points under each foot
(seed 004, Fig. 14: extra contacts at the foot-ground manifold): the models of the benchmarks
of gauss.inverse_rigid (bench/inverse_rigid_bench.py, bench/qp_library_bench.py)."""

import math
import os

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
QUADRUPED = os.path.join(ROOT, "examples", "quadruped", "quadruped.xml")
STAND = [0.0, 0.5, -1.0] * 4
FOOT_R = 0.012


def standing_xml(k):
    """the quadruped with k spheres per foot (one at the foot's centre, the others beside it along
    the leg's horizontal axis, 1 mm apart), all 0.1 mm into the ground at the standing pose, kept
    as its first keyframe"""
    xml = open(QUADRUPED).read()
    for leg in ("FL", "FR", "HL", "HR"):
        old = f'<geom name="{leg}_foot" type="sphere" pos="0 0 -0.07" size="0.012" mass="0.05"/>'
        assert old in xml
        extra = "".join(
            f'<geom type="sphere" size="{FOOT_R}" mass="0" '
            f'pos="0 {0.001 * (i // 2 + 1) * (1 if i % 2 == 0 else -1):.4f} -0.07"/>'
            for i in range(k - 1))
        xml = xml.replace(old, old + extra)
    # the base height that puts the feet 0.1 mm into the ground: hips at 0.5 rad, knees at -1
    drop = 0.07 * math.cos(0.5) + 0.07 * math.cos(0.5) + FOOT_R - 1e-4
    qpos = [0, 0, drop, 1, 0, 0, 0] + STAND
    key = '<keyframe><key qpos="' + " ".join(f"{v:.9g}" for v in qpos) + '"/></keyframe>'
    return xml.replace("</mujoco>", key + "\n</mujoco>")


def write_models(folder, ks):
    paths = []
    for k in ks:
        p = os.path.join(folder, f"quadruped_{4 * k}.xml")
        with open(p, "w") as f:
            f.write(standing_xml(k))
        paths.append(p)
    return paths


def standing_qpos():
    return np.array(STAND)
