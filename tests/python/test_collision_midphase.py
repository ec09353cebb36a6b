"""The mid-phase of mesh pairs: a pair with a mesh whose bounding spheres overlap is tested by the
geoms' boxes in their own frames (separating axes, grown by the margin) before the hull distance
query, and the broad phase boxes a mesh by its oriented box rather than its bounding sphere. Both
only drop pairs that are apart beyond the margin, so the contacts must be MuJoCo's exactly as
before: long thin meshes (whose bounding spheres take in much more than the meshes) and a capsule
are posed at random around a fixed mesh bar, near it, touching it, within the margin and just
beyond it, and every contact list is compared with MuJoCo 3.3.7's (converged ccd settings, as in
test_collision_mesh.py)."""

import mujoco
import numpy as np

import gauss
from test_collision_filters import compare_contacts


def bar_points(half, n=12):
    """a rounded bar: rings of n points along z, squashed towards the ends (a hull of 6n points)"""
    pts = []
    for z, s in ((-1, 0.6), (-0.95, 1), (-0.3, 1), (0.3, 1), (0.95, 1), (1, 0.6)):
        for k in range(n):
            a = 2 * np.pi * (k + 0.5 * (z > 0)) / n
            pts.append((half[0] * s * np.cos(a), half[1] * s * np.sin(a), half[2] * z))
    return " ".join(f"{x:.6f}" for p in pts for x in p)


XML = f"""<mujoco>
  <option ccd_tolerance="1e-13" ccd_iterations="2000"/>
  <asset>
    <mesh name="bar" vertex="{bar_points((0.01, 0.02, 0.3))}"/>
    <mesh name="plate" vertex="{bar_points((0.15, 0.1, 0.004))}"/>
  </asset>
  <worldbody>
    <geom name="fixed" type="mesh" mesh="bar" margin="0.004" euler="0 90 0"/>
    <body name="b1"><freejoint/><geom type="mesh" mesh="bar" margin="0.002"/></body>
    <body name="b2"><freejoint/><geom type="mesh" mesh="plate"/></body>
    <body name="b3"><freejoint/><geom type="capsule" size="0.01 0.2"/></body>
  </worldbody>
</mujoco>"""


def test_mesh_pairs_near_apart_and_touching_match_mujoco():
    mm = mujoco.MjModel.from_xml_string(XML)
    md = mujoco.MjData(mm)
    gm = gauss.Model.from_xml_string(XML)
    gd = gauss.Data(gm)
    rng = np.random.default_rng(11)
    touching = near = gap = 0  # pairs in contact, contacts in the gap, pairs apart but near
    for trial in range(300):
        q = np.zeros(mm.nq)
        for b in range(3):
            # far along the fixed bar, a few centimetres off it: spheres overlap, shapes mostly not
            off = np.array([rng.uniform(-0.3, 0.3), *rng.normal(scale=0.06, size=2)])
            quat = rng.normal(size=4)
            q[7 * b:7 * b + 7] = [*off, *(quat / np.linalg.norm(quat))]
        md.qpos[:] = q
        gd.qpos[:] = q
        mujoco.mj_forward(mm, md)
        gauss.forward(gm, gd)
        compare_contacts(mm, md, gm, gd, where=f"trial {trial}")
        pairs = {tuple(sorted((int(c.geom1), int(c.geom2)))) for c in md.contact[:md.ncon]}
        touching += len(pairs)
        gap += int(np.sum(md.contact.dist[:md.ncon] > 0))
        for g1 in range(mm.ngeom):
            for g2 in range(g1 + 1, mm.ngeom):
                d = np.linalg.norm(md.geom_xpos[g1] - md.geom_xpos[g2])
                near += (d < mm.geom_rbound[g1] + mm.geom_rbound[g2]) and (g1, g2) not in pairs
    # the sweep holds all kinds: pairs in contact, within the margin, and apart inside their
    # bounding spheres (where the mid-phase decides)
    assert touching > 300 and gap > 20 and near > 500, (touching, gap, near)
