"""Where one MJCF file's qacc parts from MuJoCo's at tools/mujoco_sweep.py's random states: the
compiled arrays, then stage by stage (kinematics, bias, mass matrix, contacts, constraint rows,
forces, qacc), the contacts side by side; and whether a difference is a tie, by turning every free
and ball joint (and moving hinges and slides) by a small random amount.

    PYTHONPATH=python GAUSS_LIBRARY=build/release/libgauss.so .venv/bin/python \
        tools/mujoco_probe.py FILE [--states 2] [--contacts] [--turn 1e-6] [--tries 3]

--contacts lists each contact of both engines in MuJoCo's order (geoms, dist, point, normal);
--turn A adds, after each state, --tries states turned by about A (radians for free and ball
joints, radians or length for hinges and slides) and prints the qacc difference and the contact
counts there: a difference that goes away under such a turn was decided by a tie of the state
(exactly parallel faces, coincident borders, a repeated moment), one that stays is a rule.
The mujoco Python package is only the reference here, as in tools/mujoco_sweep.py.
"""
import argparse
import os
import sys

import numpy as np

import mujoco

import gauss

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mujoco_sweep import compiled_differences, random_state, set_state, tighten  # noqa: E402

STAGES = ("xpos", "xquat", "geom_xpos", "qfrc_bias", "qfrc_passive", "qfrc_actuator", "qM",
          "efc_pos", "efc_aref", "efc_force", "qacc")


def turned(mm, qpos, rng, angle):
    q = qpos.copy()
    for j in range(mm.njnt):
        a, t = mm.jnt_qposadr[j], mm.jnt_type[j]
        if t in (0, 1):  # free, ball: the orientation turned by about angle
            o = a + 3 if t == 0 else a
            dq = np.r_[1.0, rng.normal(size=3) * angle / 2]
            res = np.zeros(4)
            mujoco.mju_mulQuat(res, q[o:o + 4], dq)
            q[o:o + 4] = res / np.linalg.norm(res)
        else:
            q[a] += rng.normal() * angle
    return q


def contact_rows(d):
    return [(tuple(int(g) for g in d.contact.geom[i]), float(d.contact.dist[i]),
             np.asarray(d.contact.pos[i]), np.asarray(d.contact.frame[i][:3])) for i in range(d.ncon)]


def qacc_gap(md, gd):
    return float(np.abs(md.qacc - np.asarray(gd.qacc)).max(initial=0)) / max(1.0, float(np.abs(md.qacc).max(initial=0)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file")
    ap.add_argument("--states", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--contacts", action="store_true")
    ap.add_argument("--turn", type=float, default=0.0)
    ap.add_argument("--tries", type=int, default=3)
    a = ap.parse_args()
    mm = mujoco.MjModel.from_xml_path(a.file)
    gm = gauss.Model.from_xml_path(a.file)
    print("compiled arrays differing:", compiled_differences(mm, gm) or "none")
    tighten(mm, gm)
    md, gd = mujoco.MjData(mm), gauss.Data(gm)
    rng = np.random.default_rng(a.seed)
    for s in range(a.states):
        qpos, qvel, ctrl = random_state(mm, rng)
        set_state(mm, (md, gd), qpos, qvel, ctrl)
        mujoco.mj_forward(mm, md)
        gauss.forward(gm, gd)
        print(f"state {s}: ncon {md.ncon}/{gd.ncon} nefc {md.nefc}/{gd.nefc} (MuJoCo/gauss)")
        for name in STAGES:
            x, y = getattr(md, name), np.asarray(getattr(gd, name))
            gap = "shape differs" if x.shape != y.shape else f"{np.abs(x - y).max(initial=0):.2e}"
            print(f"  {name:14s} {gap}")
        if a.contacts:
            mc, gc = contact_rows(md), contact_rows(gd)
            for i in range(max(len(mc), len(gc))):
                for tag, rows in (("mujoco", mc), ("gauss ", gc)):
                    r = rows[i] if i < len(rows) else None
                    print(f"  {tag} " + ("-" if r is None else
                          f"geoms {r[0]} dist {r[1]:+.9e} pos {np.round(r[2], 6)} normal {np.round(r[3], 6)}"))
        rng_t = np.random.default_rng([a.seed, s])
        for _ in range(a.tries if a.turn else 0):
            set_state(mm, (md, gd), turned(mm, qpos, rng_t, a.turn), qvel, ctrl)
            mujoco.mj_forward(mm, md)
            gauss.forward(gm, gd)
            print(f"  turned by ~{a.turn:g}: qacc {qacc_gap(md, gd):.1e}, ncon {md.ncon}/{gd.ncon}")


if __name__ == "__main__":
    main()
