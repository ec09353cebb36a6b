"""Where one MJCF file's qacc parts from MuJoCo's at tools/mujoco_sweep.py's random states: the
compiled arrays, then stage by stage (kinematics, bias, mass matrix, contacts, constraint rows,
forces, qacc), the contacts side by side; and whether a difference is a tie, by turning every free
and ball joint (and moving hinges and slides) by a small random amount.

    PYTHONPATH=python GAUSS_LIBRARY=build/release/libgauss.so .venv/bin/python \
        tools/mujoco_probe.py FILE [--states 2] [--sim] [--contacts] [--turn 1e-6] [--tries 3] \
        [--jitter 30] [--normals]

--contacts lists each contact of both engines in MuJoCo's order (geoms, dist, point, normal);
--turn A adds, after each state, --tries states turned by about A (radians for free and ball
joints, radians or length for hinges and slides) and prints the qacc difference and the contact
counts there: a difference that goes away under such a turn was decided by a tie of the state
(exactly parallel faces, coincident borders, a repeated moment), one that stays is a rule.
--sim takes the states of the sweep's 'qacc sim' column instead (MuJoCo simulating the file 200
steps from its first keyframe with its own settings).
--jitter N repeats each state N times with every qpos entry moved by up to 4 ulps and prints how
far MuJoCo's own qacc moves (relative, as the sweep measures), how far gauss's moves, the gap's
least, median and largest value and the contact counts met: where MuJoCo's own answer moves as
much as the gap, the state is a tie by nature and no engine can follow it.
--normals takes each contact between primitives or meshes whose normal differs between the engines
and prints, for each engine's normal n, |(I - n n^T)(p1(n) - p2(-n))| (p1, p2 the geoms' support
points; zero at the exact deepest-penetration normal of smooth shapes) and the overlap
h1(n) + h2(-n) (the penetration depth is its least value over n): it tells which engine's
normal is nearer the exact one where both report the same depth.
The mujoco Python package is only the reference here, as in tools/mujoco_sweep.py.
"""
import argparse
import os
import sys

import numpy as np

import mujoco

import gauss

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mujoco_sweep import (compiled_differences, put_simulated_state, random_state, set_state,  # noqa: E402
                          simulated_states, tighten)

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


def jittered(q, rng, ulps=4):
    """q with every entry moved by up to ulps units in the last place"""
    q = q.copy()
    for i in range(len(q)):
        k = int(rng.integers(-ulps, ulps + 1))
        for _ in range(abs(k)):
            q[i] = np.nextafter(q[i], np.inf if k > 0 else -np.inf)
    return q


def support(m, d, g, n):
    """the point of geom g farthest along the unit world direction n (None for planes and height
    fields)"""
    t, s = m.geom_type[g], m.geom_size[g]
    R = np.asarray(d.geom_xmat[g]).reshape(3, 3)
    u = R.T @ n
    if t == 2:
        p = s[0] * u
    elif t == 3:
        p = np.array([0, 0, s[1] * np.sign(u[2])]) + s[0] * u
    elif t == 4:
        p = s**2 * u / np.sqrt(u @ (s**2 * u))
    elif t == 5:
        r = np.hypot(u[0], u[1])
        p = np.array([s[0] * u[0] / r, s[0] * u[1] / r, s[1] * np.sign(u[2])])
    elif t == 6:
        p = s * np.sign(u)
    elif t == 7:
        k = m.geom_dataid[g]
        v = m.mesh_vert[m.mesh_vertadr[k]:m.mesh_vertadr[k] + m.mesh_vertnum[k]]
        p = v[np.argmax(v @ u)]
    else:
        return None
    return np.asarray(d.geom_xpos[g]) + R @ p


def normal_check(mm, md, gd):
    """per contact whose normal differs: each engine's optimality residual and overlap"""
    nearer = total = 0
    for i in range(min(md.ncon, gd.ncon)):
        g1, g2 = (int(x) for x in md.contact.geom[i])
        nm, ng = md.contact.frame[i][:3], np.asarray(gd.contact.frame[i][:3])
        if tuple(int(x) for x in gd.contact.geom[i]) != (g1, g2) or np.abs(nm - ng).max() < 1e-10:
            continue
        out = []
        for n in (nm, ng):
            p1, p2 = support(mm, md, g1, n), support(mm, md, g2, -n)
            if p1 is None or p2 is None:
                break
            v = p1 - p2
            out.append((np.linalg.norm(v - (v @ n) * n), v @ n))
        if len(out) < 2:
            continue
        (rm, om), (rg, og) = out
        total += 1
        nearer += og <= om
        print(f"  contact {i} types {mm.geom_type[g1]},{mm.geom_type[g2]} normals apart {np.abs(nm - ng).max():.1e}: "
              f"residual MuJoCo {rm:.1e} gauss {rg:.1e}, overlap MuJoCo {om:.15e} gauss {og:.15e}")
    print(f"  gauss's normal gives the smaller overlap in {nearer} of {total}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file")
    ap.add_argument("--states", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--contacts", action="store_true")
    ap.add_argument("--turn", type=float, default=0.0)
    ap.add_argument("--tries", type=int, default=3)
    ap.add_argument("--sim", action="store_true")
    ap.add_argument("--jitter", type=int, default=0)
    ap.add_argument("--normals", action="store_true")
    a = ap.parse_args()
    mm = mujoco.MjModel.from_xml_path(a.file)
    gm = gauss.Model.from_xml_path(a.file)
    print("compiled arrays differing:", compiled_differences(mm, gm) or "none")
    tighten(mm, gm)
    md, gd = mujoco.MjData(mm), gauss.Data(gm)
    rng = np.random.default_rng(a.seed)
    sims = simulated_states(a.file, 200, a.states) if a.sim else None
    for s in range(len(sims) if a.sim else a.states):
        if a.sim:
            put_simulated_state(mm, (md, gd), sims[s])
            qpos, qvel, ctrl = sims[s][0], sims[s][1], sims[s][3]
        else:
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
        if a.normals:
            normal_check(mm, md, gd)
        if a.jitter:
            q0m, q0g = md.qacc.copy(), np.asarray(gd.qacc).copy()
            scale = max(1.0, float(np.abs(q0m).max(initial=0)))
            rng_j = np.random.default_rng([a.seed, s, 1])
            moves, gaps, counts = [], [], set()
            for _ in range(a.jitter):
                q = jittered(qpos, rng_j)
                for d in (md, gd):
                    d.qpos[:] = q
                mujoco.mj_forward(mm, md)
                gauss.forward(gm, gd)
                moves.append((np.abs(md.qacc - q0m).max(initial=0) / scale,
                              np.abs(np.asarray(gd.qacc) - q0g).max(initial=0) / scale))
                gaps.append(qacc_gap(md, gd))
                counts.add((md.ncon, gd.ncon))
            for d in (md, gd):
                d.qpos[:] = qpos
            mj, gs = max(m[0] for m in moves), max(m[1] for m in moves)
            print(f"  {a.jitter} jitters of 4 ulps: MuJoCo's qacc moves up to {mj:.1e}, gauss's {gs:.1e}; "
                  f"gap least {min(gaps):.1e} median {np.median(gaps):.1e} largest {max(gaps):.1e}; "
                  f"ncon (MuJoCo, gauss) {sorted(counts)}")
        rng_t = np.random.default_rng([a.seed, s])
        for _ in range(a.tries if a.turn else 0):
            set_state(mm, (md, gd), turned(mm, qpos, rng_t, a.turn), qvel, ctrl)
            mujoco.mj_forward(mm, md)
            gauss.forward(gm, gd)
            print(f"  turned by ~{a.turn:g}: qacc {qacc_gap(md, gd):.1e}, ncon {md.ncon}/{gd.ncon}")


if __name__ == "__main__":
    main()
