"""Mesh pairs apart within a margin, on hulls large enough to be climbed (more than 24 vertices):
MJCF takes the contact of such a pair from the penetration of the first mesh grown by the margin.
Its depth and normal are the pair's distance and normal; its point is unique where one shape faces
the other with a lone vertex, or both with crossing edges, and there gauss answers from the pair's
own distance query instead of expanding the grown pair (src/collision/convex.c, unique_witness).
Random poses of a lumpy ball and a torus's hull against a mesh bar, each apart by 0 to 3 mm with a
3 mm margin, are compared with MuJoCo 3.3.7 at converged ccd settings: the count, the distance
(1e-9), the point (1e-6) and the normal (1e-4). MuJoCo's expansion of the grown pair, a rounded
shape, stops at its tolerance tol = 1e-12 with its normal within ~sqrt(2 tol / r) = 2.6e-5 of the
exact one for r = 3 mm and its point within ~sqrt(2 r tol) = 8e-8 (measured over these poses:
distances 1e-12, points 2e-8, normals 1.6e-5, the same before and after the shortcut), while a
wrong witness (one shape's point for both, or the grown pair's point not moved back by the
margin) is off by up to millimetres: reporting one shape's point for the pairs the shortcut
answers fails here."""

import mujoco
import numpy as np

import gauss


def lumpy_ball(nu=20, nv=10, r=(0.03, 0.025, 0.035)):
    pts = []
    for i in range(1, nv):
        th = np.pi * i / nv
        for j in range(nu):
            ph = 2 * np.pi * j / nu
            b = 1 + 0.05 * np.sin(5 * ph) * np.sin(3 * th)
            pts.append((r[0] * b * np.sin(th) * np.cos(ph), r[1] * b * np.sin(th) * np.sin(ph),
                        r[2] * b * np.cos(th)))
    pts += [(0, 0, r[2]), (0, 0, -r[2])]
    return pts


def torus(nu=16, nv=20, R=0.03, r=0.01):
    return [((R + r * np.cos(p)) * np.cos(t), (R + r * np.cos(p)) * np.sin(t), r * np.sin(p))
            for t in np.linspace(0, 2 * np.pi, nv, endpoint=False)
            for p in np.linspace(0, 2 * np.pi, nu, endpoint=False)]


def text(pts):
    return " ".join(f"{x:.6f}" for p in pts for x in p)


# a box's corners with a lumpy ball stretched along it: flat faces, edges and curved parts
BAR = [(x, y, z) for x in (-0.1, 0.1) for y in (-0.02, 0.02) for z in (-0.015, 0.015)] + \
    lumpy_ball(12, 6, (0.1, 0.021, 0.016))

XML = f"""<mujoco>
  <option ccd_tolerance="1e-12" ccd_iterations="500"/>
  <asset>
    <mesh name="ball" vertex="{text(lumpy_ball())}"/>
    <mesh name="ring" vertex="{text(torus())}"/>
    <mesh name="bar" vertex="{text(BAR)}"/>
  </asset>
  <worldbody>
    <body name="m"><freejoint/><geom type="mesh" mesh="MESH" margin="0.003"/></body>
    <body><freejoint/><geom type="mesh" mesh="bar"/></body>
  </worldbody>
</mujoco>"""


def quat_between(a, b):
    """a unit quaternion turning unit vector a onto b"""
    v, c = np.cross(a, b), np.dot(a, b)
    q = np.array([1 + c, *v])
    return q / np.linalg.norm(q)


def test_climbed_meshes_apart_within_the_margin_like_mujoco():
    rng = np.random.default_rng(5)
    compared = 0
    for mesh in ("ball", "ring"):
        xml = XML.replace("MESH", mesh)
        mm, gm = mujoco.MjModel.from_xml_string(xml), gauss.Model.from_xml_string(xml)
        assert min(mm.mesh_vertnum) > 24  # climbed, not scanned
        md, gd = mujoco.MjData(mm), gauss.Data(gm)
        for trial in range(40):
            # the mesh at a random attitude, then moved along a random direction until its hull is
            # apart from the bar's by a gap drawn in [0, 3 mm)
            q = np.zeros(mm.nq)
            quat = rng.normal(size=4)
            q[3:7] = quat / np.linalg.norm(quat)
            bq = rng.normal(size=4)
            q[10:14] = bq / np.linalg.norm(bq)
            u = rng.normal(size=3)
            u /= np.linalg.norm(u)
            lo, hi = 0.0, 0.3
            for _ in range(50):  # bisection on the separation along u (the hulls' distance)
                q[:3] = u * 0.5 * (lo + hi)
                gd.qpos[:] = q
                gauss.kinematics(gm, gd)
                d, _ = gauss.geom_distance(gm, gd, 0, 1, 0.1)
                lo, hi = (0.5 * (lo + hi), hi) if d < 0 else (lo, 0.5 * (lo + hi))
            q[:3] = u * (hi + rng.uniform(0, 0.003))
            md.qpos[:] = q
            gd.qpos[:] = q
            mujoco.mj_forward(mm, md)
            gauss.forward(gm, gd)
            assert gd.ncon == md.ncon, (mesh, trial)
            for i in range(md.ncon):
                c = md.contact[i]
                assert c.dist > 0, (mesh, trial)  # apart, inside the margin
                assert abs(gd.contact.dist[i] - c.dist) < 1e-9, (mesh, trial)
                np.testing.assert_allclose(gd.contact.pos[i], c.pos, rtol=0, atol=1e-6)
                np.testing.assert_allclose(gd.contact.frame[i][:3], c.frame[:3], rtol=0, atol=1e-4)
                compared += 1
    assert compared >= 70
