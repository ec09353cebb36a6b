"""Box-box contacts in deep or coincident overlap, gauss against MuJoCo 3.3.7: on random poses of
four kinds, how many differ in the number of contacts, and how many differ otherwise (the same
count, a point, depth or normal elsewhere; contacts compared as sets, to 1e-6).

    PYTHONPATH=python:tests/python GAUSS_LIBRARY=build/release/libgauss.so .venv/bin/python \\
        tools/box_box_deep.py [--n 200] [--seed 0] [--show K]

Kinds (n poses each, boxes 0.3 x 0.2 x 0.4 half sizes unless said):
  deep        random orientations, centres apart by up to 0.3 of the sum of the bounding radii
  coincident  random orientations, the same centre; every fourth pose two equal cubes
  aligned     the second box turned from the first by a multiple of 90 degrees about each axis,
              centres apart by up to 0.2 of the bounding radii
  cards       thin cards (0.047 x 0.032 x 0.00035) tilted by ~1 degree, pressed into each other
  sized       as deep, each box's half sizes drawn from 0.02 to 0.4 (with --sized only)
  sized-coinc as coincident, half sizes drawn so (with --sized only)
--show K prints the first K differing poses of each kind (MuJoCo's and gauss's contacts).
--apart (with --margin m > 0) places the boxes apart, by a gap drawn from 0.05 m to 0.95 m along
a random direction, random orientations ("apart") and turned by quarter turns ("apart-aligned"):
contacts MuJoCo makes within the margin though the boxes do not touch; poses are told apart by
MuJoCo's normal, along a face axis of either box or not (an edge axis).
--frame also turns the hinge of MuJoCo's test/engine/testdata/frame.xml (written again below:
coincident boxes .1 x .2 x .3, one on a hinge) through 63 angles and counts those where the
contacts differ in number (coincident equal boxes: edges on border lines to the last bit).
--probe steps five free boxes of different sizes on a plane, every geom with margin 0.3 (PROBE_XML
below), in MuJoCo from rest and compares the contacts of both engines at the states it reaches
after 1, 10 and 25 steps (counts, and the geom pairs whose contacts differ as sets).
--stacks stacks boxes of random sizes face on face (as test_collision_robots.py's stacked boxes,
penetrating by 1e-9 to 1e-3) and turns each stack as a whole, at random and about z (n each):
how many contact sets agree, and of the others how many differ only in depth by a factor 2 (the
stack's axis is a face axis and an in-plane edge axis at once; a face axis reports half the
depth, an edge axis the full depth, and rounding picks one).
"""

import argparse

import numpy as np

import test_collision_pairs as tcp

BOX = "0.3 0.2 0.4"
CARD = "0.047 0.032 0.00035"


def rand_quat(rng):
    q = rng.normal(size=4)
    return q / np.linalg.norm(q)


def quarter_turns(rng):
    """a rotation by multiples of 90 degrees about x, y, z (exact quaternion products)"""
    h = np.sqrt(0.5)
    q = np.array([1.0, 0, 0, 0])
    for axis in range(3):
        for _ in range(rng.integers(0, 4)):
            r = np.zeros(4)
            r[0], r[1 + axis] = h, h
            q = quat_mul(q, r)
    return q / np.linalg.norm(q)


def quat_mul(a, b):
    w1, x1, y1, z1 = a
    w2, x2, y2, z2 = b
    return np.array([w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
                     w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2])


def poses(kind, rng, n):
    reach = 2 * np.linalg.norm([0.3, 0.2, 0.4])
    out = []
    for i in range(n):
        p1 = rng.uniform(-0.2, 0.2, 3)
        q1 = rand_quat(rng)
        if kind == "deep":
            d = rng.normal(size=3)
            p2 = p1 + d / np.linalg.norm(d) * reach * rng.uniform(0, 0.3)
            q2 = rand_quat(rng)
        elif kind == "coincident":
            p2, q2 = p1.copy(), rand_quat(rng)
        elif kind == "aligned":
            d = rng.normal(size=3)
            p2 = p1 + d / np.linalg.norm(d) * reach * rng.uniform(0, 0.2)
            q2 = quat_mul(q1, quarter_turns(rng))
        else:  # cards
            p1, q1 = np.zeros(3), np.array([1.0, 0, 0, 0])
            ang = rng.normal(size=3) * 0.02
            q2 = np.array([1, ang[0] / 2, ang[1] / 2, ang[2] / 2])
            q2 /= np.linalg.norm(q2)
            p2 = np.array([rng.uniform(-0.03, 0.03), rng.uniform(-0.02, 0.02), rng.uniform(-0.0006, 0.0006)])
        out.append((p1, q1, p2, q2))
    return out


def same_set(ref, got):
    if len(ref) != len(got):
        return False
    left = list(got)
    for a in ref:
        k = next((j for j, b in enumerate(left) if abs(a[0] - b[0]) <= tcp.TOL_DIST
                  and np.abs(a[1] - b[1]).max() <= tcp.TOL_POS
                  and np.abs(a[2][:3] - b[2][:3]).max() <= tcp.TOL_NORMAL), None)
        if k is None:
            return False
        left.pop(k)
    return True


def sized_scene(rng, margin):
    s1 = " ".join(f"{x:.3f}" for x in rng.uniform(0.02, 0.4, 3))
    s2 = " ".join(f"{x:.3f}" for x in rng.uniform(0.02, 0.4, 3))
    return tcp.Scene("box", "box", margin=margin, s1=s1, s2=s2)


def measure(n, seed, show=0, margin=0.0, sized=False):
    scenes = {"box": tcp.Scene("box", "box", margin=margin, s1=BOX, s2=BOX),
              "cube": tcp.Scene("box", "box", margin=margin, s1="0.2 0.2 0.2", s2="0.2 0.2 0.2"),
              "card": tcp.Scene("box", "box", margin=margin, s1=CARD, s2=CARD)}
    result = {}
    kinds = ("deep", "coincident", "aligned", "cards") + (("sized", "sized-coinc") if sized else ())
    for k, kind in enumerate(kinds):
        rng = np.random.default_rng([seed, k])
        srng = np.random.default_rng([seed, k, 1])
        count = other = shown = 0
        base = {"sized": "deep", "sized-coinc": "coincident"}.get(kind, kind)
        for i, pose in enumerate(poses(base, rng, n)):
            if kind.startswith("sized"):
                scene = sized_scene(srng, margin)
            else:
                scene = scenes["card"] if kind == "cards" else \
                    scenes["cube"] if kind == "coincident" and i % 4 == 3 else scenes["box"]
            scene.place(*pose)
            ref, got = scene.mujoco_contacts(), scene.gauss_contacts()
            if len(ref) != len(got):
                count += 1
            elif not same_set(ref, got):
                other += 1
            else:
                continue
            if shown < show:
                shown += 1
                print(f"{kind} {i}: MuJoCo {len(ref)}, gauss {len(got)}; pose {[list(map(float, x)) for x in pose]}")
                for name, cs in (("  mj", ref), ("  gs", got)):
                    for c in cs:
                        print(name, f"{c[0]: .6f}", np.round(c[1], 6), np.round(c[2][:3], 6))
        result[kind] = (count, other)
    return result


FRAME_XML = """<mujoco><default><geom type="box" size=".1 .2 .3"/></default><worldbody>
  <frame euler="0 0 30"><geom pos=".5 0 0" euler="0 0 20"/></frame>
  <frame quat="0 1 0 0"><geom quat="0 -1 0 0"/></frame>
  <body pos="0 .5 0"><frame quat="0 1 0 0"><geom/></frame></body>
  <frame euler="0 0 30"><frame euler="0 0 20"><geom/></frame></frame>
  <body><geom/><frame euler="90 0 0"><joint type="hinge" axis="0 0 1"/></frame></body>
  </worldbody></mujoco>"""


def frame_hinge():
    """angles of frame.xml's hinge (of 63 from -3.1 to 3.1) where the contact counts differ"""
    import gauss
    import mujoco
    mm = mujoco.MjModel.from_xml_string(FRAME_XML)
    md = mujoco.MjData(mm)
    gm = gauss.Model.from_xml_string(FRAME_XML)
    gd = gauss.Data(gm)
    bad = 0
    for a in np.linspace(-3.1, 3.1, 63):
        md.qpos[0] = gd.qpos[0] = a
        mujoco.mj_forward(mm, md)
        gauss.forward(gm, gd)
        bad += md.ncon != gd.ncon
    return bad


def stacks(n, seed):
    """turned stacks: {mode: (same, depth only x2, other)}"""
    import mujoco
    out = {}
    for mode in ("random", "about z"):
        rng = np.random.default_rng([seed, 7 if mode == "random" else 8])
        same = halved = other = 0
        for _ in range(n):
            s1, s2 = np.round(rng.uniform(0.05, 2, 3), 3), np.round(rng.uniform(0.05, 2, 3), 3)
            off = s1[:2] + s2[:2] - np.minimum(s1[:2], s2[:2]) * rng.uniform(0.2, 1.8, 2)
            z2 = s1[2] + s2[2] - 10 ** rng.uniform(-9, -3)
            if mode == "random":
                q = rand_quat(rng)
            else:
                a = rng.uniform(0, 2 * np.pi)
                q = np.array([np.cos(a / 2), 0, 0, np.sin(a / 2)])
            mat = np.zeros(9)
            mujoco.mju_quat2Mat(mat, q)
            scene = tcp.Scene("box", "box", s1=" ".join(map(str, s1)), s2=" ".join(map(str, s2)))
            scene.place(np.zeros(3), q, mat.reshape(3, 3) @ np.r_[off, z2], q)
            ref, got = scene.mujoco_contacts(), scene.gauss_contacts()
            if same_set(ref, got):
                same += 1
                continue
            ratio = [a[0] / b[0] for a, b in zip(sorted(ref, key=lambda c: c[0]), sorted(got, key=lambda c: c[0]))
                     if b[0] != 0]
            pts = same_set([(0.0, c[1], c[2]) for c in ref], [(0.0, c[1], c[2]) for c in got])
            if pts and ratio and (all(abs(r - 2) < 1e-6 for r in ratio) or
                                  all(abs(r - 0.5) < 1e-6 for r in ratio)):
                halved += 1
            else:
                other += 1
        out[mode] = (same, halved, other)
    return out


def gap_scene(scene, pose):
    """the distance between the two boxes (MuJoCo's mj_geomDistance) at a pose"""
    import mujoco
    scene.place(*pose)
    return mujoco.mj_geomDistance(scene.mjm, scene.mjd, 0, 1, 10.0, None)


def apart(n, seed, margin, show=0):
    """{kind: {axis: (same, count differs, otherwise)}} for boxes apart within the margin"""
    scene = tcp.Scene("box", "box", margin=margin, s1=BOX, s2=BOX)
    out = {}
    for k, kind in enumerate(("apart", "apart-aligned")):
        rng = np.random.default_rng([seed, 10 + k])
        tally = {"face": [0, 0, 0], "edge": [0, 0, 0]}
        shown = 0
        for i in range(n):
            p1, q1 = rng.uniform(-0.2, 0.2, 3), rand_quat(rng)
            q2 = rand_quat(rng) if kind == "apart" else quat_mul(q1, quarter_turns(rng))
            d = rng.normal(size=3)
            d /= np.linalg.norm(d)
            gap = margin * rng.uniform(0.05, 0.95)
            lo, hi = 0.0, 4.0  # centre distance: bisect to the gap
            for _ in range(60):
                mid = 0.5 * (lo + hi)
                if gap_scene(scene, (p1, q1, p1 + d * mid, q2)) < gap:
                    lo = mid
                else:
                    hi = mid
            pose = (p1, q1, p1 + d * hi, q2)
            scene.place(*pose)
            ref, got = scene.mujoco_contacts(), scene.gauss_contacts()
            axes = np.r_[scene.mjd.geom_xmat[0].reshape(3, 3).T, scene.mjd.geom_xmat[1].reshape(3, 3).T]
            axis = "face" if ref and np.abs(axes @ ref[0][2][:3]).max() > 1 - 1e-9 else "edge"
            col = 0 if same_set(ref, got) else 1 if len(ref) != len(got) else 2
            tally[axis][col] += 1
            if col and shown < show:
                shown += 1
                print(f"{kind} {i} ({axis}): gap {gap:.4f}, MuJoCo {len(ref)}, gauss {len(got)}")
                for name, cs in (("  mj", ref), ("  gs", got)):
                    for c in cs:
                        print(name, f"{c[0]: .6f}", np.round(c[1], 6), np.round(c[2][:3], 6))
        out[kind] = tally
    return out


PROBE_XML = """<mujoco><default><geom margin="0.3"/></default><worldbody>
  <geom type="plane" size="3 3 0.1"/>
  <body pos="0 0 0.12"><freejoint/><geom type="box" size="0.1 0.1 0.1"/></body>
  <body pos="0.3 0.02 0.15"><freejoint/><geom type="box" size="0.1 0.1 0.13"/></body>
  <body pos="-0.05 0.32 0.1" euler="0 0 20"><freejoint/><geom type="box" size="0.15 0.08 0.08"/></body>
  <body pos="0.05 0.05 0.45" euler="10 5 30"><freejoint/><geom type="box" size="0.12 0.1 0.06"/></body>
  <body pos="0.35 0.35 0.2" euler="0 30 45"><freejoint/><geom type="box" size="0.08 0.08 0.08"/></body>
  </worldbody></mujoco>"""


def probe(steps=(1, 10, 25)):
    """[(step, MuJoCo's contacts, gauss's, geom pairs whose contacts differ)] on PROBE_XML"""
    import gauss
    import mujoco
    mm = mujoco.MjModel.from_xml_string(PROBE_XML)
    md = mujoco.MjData(mm)
    gm = gauss.Model.from_xml_string(PROBE_XML)
    gd = gauss.Data(gm)
    states = []
    for k in range(1, max(steps) + 1):
        mujoco.mj_step(mm, md)
        if k in steps:
            states.append((k, md.qpos.copy()))
    out = []
    for k, q in states:
        md.qpos[:] = gd.qpos[:] = q
        md.qvel[:] = gd.qvel[:] = 0
        mujoco.mj_forward(mm, md)
        gauss.forward(gm, gd)
        pairs = []
        for d, n in ((md, md.ncon), (gd, gd.ncon)):
            by = {}
            for c in d.contact[:n]:
                by.setdefault((int(c.geom1), int(c.geom2)), []).append(
                    (c.dist, np.array(c.pos), np.array(c.frame)))
            pairs.append(by)
        bad = sorted(p for p in set(pairs[0]) | set(pairs[1])
                     if not same_set(pairs[0].get(p, []), pairs[1].get(p, [])))
        out.append((k, md.ncon, gd.ncon, bad))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--n", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--margin", type=float, default=0.0)
    p.add_argument("--show", type=int, default=0)
    p.add_argument("--sized", action="store_true")
    p.add_argument("--frame", action="store_true")
    p.add_argument("--stacks", action="store_true")
    p.add_argument("--apart", action="store_true")
    p.add_argument("--probe", action="store_true")
    a = p.parse_args()
    if a.probe:
        for k, nm, ng, bad in probe():
            print(f"after {k} steps: MuJoCo {nm} contacts, gauss {ng}; pairs differing {bad}")
        return
    if a.apart:
        for kind, tally in apart(a.n, a.seed, a.margin, a.show).items():
            for axis, (same, count, other) in tally.items():
                print(f"{kind:13s} {axis} axis: {same} the same, count differs {count}, "
                      f"otherwise {other}")
        return
    if a.stacks:
        for mode, (same, halved, other) in stacks(a.n, a.seed).items():
            print(f"stacks turned {mode}: {same} of {a.n} the same, {halved} only the depth "
                  f"(x2 or x1/2), {other} otherwise")
        return
    res = measure(a.n, a.seed, a.show, a.margin, a.sized)
    for kind, (count, other) in res.items():
        print(f"{kind:11s} count differs {count:4d}, otherwise {other:4d} (of {a.n})")
    print(f"total       count differs {sum(r[0] for r in res.values()):4d}, "
          f"otherwise {sum(r[1] for r in res.values()):4d} (of {len(res) * a.n})")
    if a.frame:
        print(f"frame.xml, hinge turned: count differs at {frame_hinge()} of 63 angles")


if __name__ == "__main__":
    main()
