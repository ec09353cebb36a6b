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


def field_xml(rng, n=20):
    """a field of n x n boxes of the world (some in a body welded to it, one mocap body among
    them), and three free bodies of capsules, a sphere and an ellipsoid above it"""
    boxes = []
    for i in range(n):
        for j in range(n):
            h = rng.uniform(0.005, 0.03)
            boxes.append(f'<geom type="box" size=".045 .045 {h:.4f}" pos="{0.1 * i - 1:.3f} '
                         f'{0.1 * j - 1:.3f} {h:.4f}" euler="0 0 {rng.uniform(0, 3):.3f}"/>')
    half = len(boxes) // 2
    return f"""<mujoco><worldbody>{''.join(boxes[:half])}
<body pos="0 0 0">{''.join(boxes[half:])}</body>
<body mocap="true" pos=".3 .2 .05"><geom type="box" size=".05 .05 .05"/></body>
<body name="a"><freejoint/><geom type="capsule" size=".03 .1"/>
 <geom type="capsule" size=".03 .1" pos=".1 0 0" euler="0 90 0"/></body>
<body name="b"><freejoint/><geom type="sphere" size=".06"/></body>
<body name="c"><freejoint/><geom type="ellipsoid" size=".05 .04 .03"/></body>
</worldbody></mujoco>"""


def test_world_geoms_far_from_moving_ones_left_out_like_mujoco():
    """the broad phase leaves the world's geoms outside the box around the moving ones out of its
    sweep (two of the world's geoms never pair): on a field of 400 of them, with free bodies
    resting on it, apart above it or sunk into it, at random, the contacts are MuJoCo's"""
    rng = np.random.default_rng(5)
    xml = field_xml(rng)
    mm = mujoco.MjModel.from_xml_string(xml)
    md = mujoco.MjData(mm)
    gm = gauss.Model.from_xml_string(xml)
    gd = gauss.Data(gm)
    ncon = 0
    for trial in range(60):
        q = np.zeros(mm.nq)
        for b in range(3):
            quat = rng.normal(size=4)
            q[7 * b:7 * b + 7] = [*rng.uniform(-1, 1, 2), rng.uniform(0.0, 0.15),
                                  *(quat / np.linalg.norm(quat))]
        md.qpos[:] = q
        gd.qpos[:] = q
        md.mocap_pos[0] = gd.mocap_pos[0] = [*rng.uniform(-1, 1, 2), 0.05]
        mujoco.mj_forward(mm, md)
        gauss.forward(gm, gd)
        compare_contacts(mm, md, gm, gd, where=f"trial {trial}")
        ncon += md.ncon
    # most poses touch the field, often several of its boxes
    assert ncon > 120, ncon
