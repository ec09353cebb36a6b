"""Builtin meshes (<mesh builtin= params=>) against MuJoCo 3.3.7: every type MuJoCo documents
(sphere, hemisphere, cone, supersphere, supertorus, wedge, plate) gives the same vertices in the
same order, so the same counts, convex hull graph (qhull's order follows the input), volume,
centre of mass and inertia; qacc at random states of bodies resting on them and a short
trajectory; MuJoCo's makemesh.xml loads; bad parameters give errors naming the mesh's line.

Compared frame-free where MuJoCo's frame is not unique: a mesh whose inertia has a repeated
principal moment (the icosahedron, tori about their axis) has no unique principal frame, and the
eigen-solvers pick different ones (mesh_quat, then mesh_vert and geom_quat, differ; the body does
not). What is compared there is each vertex where the geom puts it in its body, which does not
depend on that choice."""

import os

import mujoco
import numpy as np
import pytest

import gauss
import jitter
import oracle
from oracle import quat2mat
from test_compiled import compare_models, inertia_tensors

COMPOSED = os.path.join(oracle.MODELS_DIR, "mujoco", "composed")

# (builtin, params, extra mesh attributes)
CASES = [
    ("sphere", "0", ""), ("sphere", "2", 'inertia="exact"'), ("sphere", "3", 'scale=".1 .2 .3"'),
    ("hemisphere", "0", ""), ("hemisphere", "3", 'inertia="shell"'), ("hemisphere", "10", ""),
    ("cone", "3 1", ""), ("cone", "5 .5", 'scale=".6 .6 .7"'), ("cone", "7 0", ""),
    ("cone", "40 .3", 'inertia="convex"'),
    ("supersphere", "30 .4 .4", ""), ("supersphere", "12 1 3", 'refpos=".1 0 0"'),
    ("supersphere", "5 1 1", ""),
    ("supertorus", "30 .5 .4 2", ""), ("supertorus", "20 .3 1 1", 'inertia="exact"'),
    ("supertorus", "8 .5 2 .4", 'maxhullvert="12"'),
    ("wedge", "30 30 45 20 0", ""), ("wedge", "3 4 90 30 0", ""),
    # foveal deformation: cells denser at the centre (gauss refused gamma > 0 before)
    ("wedge", "9 6 60 40 .5", ""), ("wedge", "4 5 170 80 1", ""),
    # points on the sphere in a symmetric grid: flat quadrilateral hull facets that qhull splits
    # by the points' last bits (test_wedge_points_to_the_bit)
    ("wedge", "30 30 180 90 0", ""), ("wedge", "11 7 170 77 .3", ""),
]

# Frame-free vertex positions of meshes whose principal frame is not unique: MJCF keeps mesh
# vertices in single precision in the principal frame, so two engines that pick different frames
# round each vertex to a different float, up to one float step apart (6e-8 at 1) once rotated
# back. Elsewhere vertices compare to 1e-9.
VERT_TOL = 2e-7


def model_xml(builtin, params, extra):
    return f"""<mujoco><asset><mesh name="m" builtin="{builtin}" params="{params}" {extra}/></asset>
<worldbody><body pos="0 0 1"><freejoint/><geom type="mesh" mesh="m" density="300"/></body>
</worldbody></mujoco>"""


def mesh_in_body(m, g):
    """The vertices of geom g's mesh where the geom puts them in its body (frame-free)."""
    mid = int(m.geom_dataid[g])
    adr, num = int(m.mesh_vertadr[mid]), int(m.mesh_vertnum[mid])
    v = np.asarray(m.mesh_vert)[adr:adr + num]
    return v @ quat2mat(np.asarray(m.geom_quat)[g]).T + np.asarray(m.geom_pos)[g]


def degenerate(m):
    """a repeated principal moment of the mesh: its principal frame is not unique"""
    i = np.sort(np.asarray(m.body_inertia)[1])
    return np.min(np.diff(i)) < 1e-6 * i[-1]


@pytest.mark.parametrize("builtin,params,extra", CASES)
def test_builtin_mesh_like_mujoco(builtin, params, extra):
    xml = model_xml(builtin, params, extra)
    mm, gm = mujoco.MjModel.from_xml_string(xml), gauss.Model.from_xml_string(xml)
    assert not gm.load_warnings, gm.load_warnings
    for f in ("nmeshvert", "nmeshface", "nmeshgraph"):
        assert getattr(gm, f) == getattr(mm, f), f
    np.testing.assert_array_equal(np.asarray(gm.mesh_graph), mm.mesh_graph)
    np.testing.assert_allclose(gm.body_mass, mm.body_mass, rtol=1e-9)
    np.testing.assert_allclose(inertia_tensors(gm), inertia_tensors(mm), rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(mesh_in_body(gm, 0), mesh_in_body(mm, 0), atol=VERT_TOL)
    if not degenerate(mm):
        errors = compare_models(gm, mm)
        assert not errors, "; ".join(errors)
        np.testing.assert_allclose(np.asarray(gm.mesh_vert), mm.mesh_vert, atol=1e-9)
        np.testing.assert_array_equal(np.asarray(gm.mesh_face), mm.mesh_face)


def test_counts_follow_the_reference():
    """The vertex and face counts MuJoCo's XML reference gives: sphere V = 2 + 10 4^s,
    F = 20 4^s; hemisphere V = 2 + 2 (r+1)(r+2), F = 4 (r+1)(r+2); cone 2 n (n + 1 with radius
    0); supersphere and supertorus grids."""
    def counts(builtin, params):
        m = gauss.Model.from_xml_string(model_xml(builtin, params, ""))
        return int(m.mesh_vertnum[0]), int(m.mesh_facenum[0])
    for s in range(5):
        assert counts("sphere", str(s)) == (2 + 10 * 4 ** s, 20 * 4 ** s)
    for r in (0, 1, 4, 10):
        assert counts("hemisphere", str(r)) == (2 + 2 * (r + 1) * (r + 2), 4 * (r + 1) * (r + 2))
    assert counts("cone", "6 .5")[0] == 12 and counts("cone", "6 0")[0] == 7
    assert counts("supersphere", "10 1 1") == (2 + 10 * 9, 2 * 10 * 9)
    assert counts("supertorus", "10 .5 1 1") == (100, 200)


def test_sphere_volume_converges():
    """Independent truth: the icosphere is inscribed in the unit sphere, so as it is subdivided
    its volume grows toward 4/3 pi from below, and its moment of inertia per unit mass toward the
    ball's 2/5 (the icosahedron's is (phi^2 / 10) a^2 for edge a, 0.2896 at radius 1)."""
    vols, ratios = [], []
    for s in range(5):
        m = gauss.Model.from_xml_string(model_xml("sphere", str(s), ""))
        mass = float(m.body_mass[1])
        vols.append(mass / 300)
        ratios.append(float(np.mean(m.body_inertia[1])) / mass)
    phi = (1 + 5 ** 0.5) / 2
    edge = 4 / (10 + 2 * 5 ** 0.5) ** 0.5
    np.testing.assert_allclose(ratios[0], phi ** 2 / 10 * edge ** 2, rtol=1e-6)
    assert all(a < b for a, b in zip(vols, vols[1:])) and vols[-1] < 4 / 3 * np.pi
    assert all(a < b for a, b in zip(ratios, ratios[1:])) and ratios[-1] < 0.4
    assert abs(vols[-1] - 4 / 3 * np.pi) < 5e-3 * 4 / 3 * np.pi
    assert abs(ratios[-1] - 0.4) < 5e-3 * 0.4


def test_dynamics_on_builtin_meshes_like_mujoco():
    """qacc at random states of bodies on builtin meshes touching a plane, and a short
    trajectory; the meshes are scaled unequally, so that no principal moment repeats and both
    engines give them the same frame (see the module's note)."""
    xml = """<mujoco><option solver="Newton" tolerance="1e-13" iterations="200"/>
<asset><mesh name="h" builtin="hemisphere" params="3" scale=".1 .13 .1"/>
  <mesh name="c" builtin="cone" params="6 .4" scale=".1 .12 .15"/>
  <mesh name="s" builtin="supersphere" params="10 .5 1.5" scale=".1 .13 .11"/>
  <mesh name="t" builtin="supertorus" params="12 .4 1 2" scale=".1 .12 .1"/></asset>
<worldbody><geom type="plane" size="2 2 .1"/>
  <body pos="0 0 .3"><freejoint/><geom type="mesh" mesh="h" density="100" euler="180 0 0"/>
  </body>
  <body pos=".4 0 .3"><freejoint/><geom type="mesh" mesh="c"/></body>
  <body pos="0 .4 .3"><freejoint/><geom type="mesh" mesh="s"/></body>
  <body pos=".4 .4 .3"><freejoint/><geom type="mesh" mesh="t"/></body>
</worldbody></mujoco>"""
    mm, gm = mujoco.MjModel.from_xml_string(xml), gauss.Model.from_xml_string(xml)
    for b in range(1, mm.nbody):
        np.testing.assert_allclose(gm.body_mass[b], mm.body_mass[b], rtol=1e-9)
    rng = np.random.default_rng(3)
    md, gd = mujoco.MjData(mm), gauss.Data(gm)
    contacts = 0
    for _ in range(6):
        # each body at a random orientation, low enough to touch the floor
        qpos = np.array(mm.qpos0)
        for b in range(4):
            qpos[7 * b + 2] = rng.uniform(0.02, 0.12)
            qpos[7 * b + 3:7 * b + 7] = oracle.random_unit_quat(rng)
        qvel = rng.normal(scale=0.3, size=mm.nv)
        md.qpos[:], md.qvel[:] = qpos, qvel
        gd.qpos[:], gd.qvel[:] = qpos, qvel
        mujoco.mj_forward(mm, md)
        gauss.forward(gm, gd)
        assert gd.ncon == md.ncon
        contacts += md.ncon
        errors = []
        oracle.check_close(errors, "qacc", gd.qacc, md.qacc, 1e-8)
        assert not errors, errors
    assert contacts > 0
    # a short trajectory from one of them
    for _ in range(50):
        mujoco.mj_step(mm, md)
        gauss.step(gm, gd)
    np.testing.assert_allclose(gd.qpos, md.qpos, atol=1e-8)


def test_makemesh_loads_like_mujoco():
    """MuJoCo's own test model of the builtin meshes (test/user/testdata/makemesh.xml): the same
    sizes, hull graphs and, frame-free, the same vertices in every geom."""
    path = os.path.join(COMPOSED, "makemesh.xml")
    mm, gm = mujoco.MjModel.from_xml_path(path), gauss.Model.from_xml_path(path)
    assert not gm.load_warnings, gm.load_warnings
    for f in ("nmesh", "ngeom", "nmeshvert", "nmeshface", "nmeshgraph"):
        assert getattr(gm, f) == getattr(mm, f), f
    # the hull graphs, the wedge of 180 x 90 degrees included (see test_wedge_points_to_the_bit)
    for i in range(mm.nmesh):
        a, ga = mm.mesh_graphadr[i], gm.mesh_graphadr[i]
        end = mm.mesh_graphadr[i + 1] if i + 1 < mm.nmesh else mm.nmeshgraph
        np.testing.assert_array_equal(np.asarray(gm.mesh_graph)[ga:ga + end - a],
                                      mm.mesh_graph[a:end], err_msg=f"mesh {i}")
    for g in range(mm.ngeom):
        if mm.geom_type[g] == mujoco.mjtGeom.mjGEOM_MESH:
            np.testing.assert_allclose(mesh_in_body(gm, g), mesh_in_body(mm, g), atol=VERT_TOL,
                                       err_msg=f"geom {g}")
    # written back, builtin meshes become their vertices (as MJCF writes them) and reload the same
    g2 = gauss.Model.from_xml_string(gm.to_xml())
    np.testing.assert_array_equal(np.asarray(g2.mesh_vert), np.asarray(gm.mesh_vert))
    np.testing.assert_array_equal(np.asarray(g2.mesh_graph), np.asarray(gm.mesh_graph))


def wedge_points(xml):
    """a builtin wedge's points as each engine makes them, before its frame: MuJoCo's spec holds
    them, gauss writes them back as the mesh's vertices"""
    spec = mujoco.MjSpec.from_string(xml)
    mj = np.array(spec.meshes[0].uservert, dtype=np.float64)
    text = gauss.Model.from_xml_string(xml).to_xml()
    at = text.index('vertex="', text.index("<mesh")) + len('vertex="')
    gs = np.array([float(x) for x in text[at:text.index('"', at)].split()])
    return mj, gs


def test_wedge_points_to_the_bit():
    """A wedge's points equal MuJoCo's to the bit (both engines take sin and cos from the C
    library, and keep single precision): the last bits decide how qhull splits the flat
    quadrilateral facets of a wedge of points on the sphere (180 x 90 degrees: points 1e-16 off
    the plane z = 0, of either sign), so then the hull graph is MuJoCo's too. Before, gauss took
    each cell's angle from its index and 60 coordinates of that wedge had the other sign: 32 of
    its 1796 hull triangles split the other way. Each field also jittered by up to 4 ulp down."""
    for params in ("30 30 180 90 0", "5 11 90 60 0", "7 3 33 10 0", "11 7 170 77 .3", "4 5 170 80 1"):
        p = [float(x) for x in params.split()]
        for jr in (None, jitter.rngs("wedge points", 1)[0]):
            if jr is not None:
                # downwards only: 180 and 90 degrees are the largest fields MuJoCo takes
                p[2:4] = [float(x * (1 - int(jr.integers(0, jitter.ULPS + 1)) * jitter.EPS)) for x in p[2:4]]
            q = f"{int(p[0])} {int(p[1])} {p[2]!r} {p[3]!r} {p[4]!r}"
            xml = model_xml("wedge", q, "")
            mj, gs = wedge_points(xml)
            np.testing.assert_array_equal(gs, mj, err_msg=q)
            mm, gm = mujoco.MjModel.from_xml_string(xml), gauss.Model.from_xml_string(xml)
            np.testing.assert_array_equal(np.asarray(gm.mesh_graph), mm.mesh_graph, err_msg=q)


def test_hull_of_mujocos_wedge_points_is_mujocos():
    """The hull call itself (qhull's options and the order the points are given in) is MJCF's:
    given MuJoCo's own points of the wedge of 180 x 90 degrees as explicit vertices, both engines
    make the same hull graph, flat quadrilaterals split alike; and so from the points only of a
    jittered copy (each coordinate moved by up to 4 ulp, which decides other splits)."""
    spec = mujoco.MjSpec.from_string(model_xml("wedge", "30 30 180 90 0", ""))
    pts = np.array(spec.meshes[0].uservert, dtype=np.float64)
    rng = np.random.default_rng(7)
    jittered = pts + rng.integers(-4, 5, pts.size) * np.spacing(np.abs(pts).astype(np.float32)).astype(np.float64)
    for p in (pts, jittered.astype(np.float32).astype(np.float64)):
        xml = model_xml("", "", "").replace('builtin="" params=""', 'vertex="%s"' % " ".join(f"{x:.9g}" for x in p))
        mm, gm = mujoco.MjModel.from_xml_string(xml), gauss.Model.from_xml_string(xml)
        assert gm.nmeshgraph == mm.nmeshgraph
        np.testing.assert_array_equal(np.asarray(gm.mesh_graph), mm.mesh_graph)
        np.testing.assert_array_equal(np.asarray(gm.mesh_face), mm.mesh_face)


@pytest.mark.parametrize("mesh,phrase", [
    ('builtin="sphere" params="1 2"', "requires 1 parameter"),
    ('builtin="sphere" params="5"', "greater than 4"),
    ('builtin="hemisphere" params="-1"', "negative"),
    ('builtin="cone" params="3"', "requires 2 parameters"),
    ('builtin="supersphere" params="2 1 1"', "greater than 2"),
    ('builtin="supertorus" params="3 1.5 1 1"', "(0, 1]"),
    ('builtin="wedge" params="1 1 0 20 0"', "fov[0]"),
    ('builtin="plate" params="0 1"', "positive"),
    ('builtin="bogus" params="1"', "invalid keyword"),
    ('builtin="sphere" params="0" vertex="0 0 0 1 0 0 0 1 0 0 0 1"', "vertex"),
])
def test_bad_builtin_names_line_and_element(mesh, phrase):
    xml = f'<mujoco>\n<asset>\n<mesh name="m" {mesh}/>\n</asset>\n</mujoco>'
    oracle.assert_rejected(xml, ":3:", "mesh", phrase, True)
