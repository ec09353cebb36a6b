"""Which meshes get a convex hull graph (mesh_graphadr, mesh_graph), against MuJoCo 3.3.7: only a
mesh that a colliding mesh geom uses (contype or conaffinity not 0), that a contact pair names, that
has inertia="convex" or that was given without triangles; copies made by <attach> follow the same
rule. A flat mesh (builtin plate) that only visual geoms use then loads, as in MuJoCo (qhull has
no hull of a flat mesh), and a distance sensor still measures a mesh without a graph (its
vertices are scanned)."""

import os

import mujoco
import numpy as np
import pytest

import gauss

TET = ('<mesh name="m" vertex="0 0 0 1 0 0 0 2 0 0 0 3 0.1 0.2 0.3" '
       'face="0 2 1 0 1 3 0 3 2 1 2 3" INERTIA/>')
VIS = 'contype="0" conaffinity="0"'


def model(geoms, extra="", inertia=""):
    asset = TET.replace("INERTIA", inertia)
    return (f'<mujoco><asset>{asset}</asset><worldbody><geom name="f" type="plane" size="1 1 1"/>'
            f'<body name="b" pos="0 0 1"><freejoint/>{geoms}</body></worldbody>{extra}</mujoco>')


CASES = {
    "visual": model(f'<geom type="mesh" mesh="m" {VIS}/>'),
    "colliding": model('<geom type="mesh" mesh="m"/>'),
    "contype only": model('<geom type="mesh" mesh="m" contype="1" conaffinity="0"/>'),
    "conaffinity only": model('<geom type="mesh" mesh="m" contype="0" conaffinity="1"/>'),
    "unused": model('<geom type="sphere" size=".1"/>'),
    "visual and colliding": model(f'<geom type="mesh" mesh="m" {VIS}/><geom type="mesh" mesh="m"/>'),
    "pair": model(f'<geom name="g" type="mesh" mesh="m" {VIS}/>',
                  '<contact><pair geom1="f" geom2="g"/></contact>'),
    "exclude": model(f'<geom type="mesh" mesh="m" {VIS}/>',
                     '<contact><exclude body1="world" body2="b"/></contact>'),
    "convex inertia": model(f'<geom type="mesh" mesh="m" {VIS}/>', inertia='inertia="convex"'),
    "shell inertia": model(f'<geom type="mesh" mesh="m" {VIS}/>', inertia='inertia="shell"'),
    "default class": model('<geom class="v" type="mesh" mesh="m"/>').replace(
        "<mujoco>", f'<mujoco><default><default class="v"><geom {VIS}/></default></default>'),
    "no faces": model(f'<geom type="mesh" mesh="m" {VIS}/>').replace(
        ' face="0 2 1 0 1 3 0 3 2 1 2 3"', ""),
    "flat plate visual": (
        '<mujoco><asset><mesh name="p" builtin="plate" params="3 3"/></asset><worldbody>'
        f'<body><freejoint/><geom size=".2"/><geom type="mesh" mesh="p" {VIS} mass="1"/></body>'
        '</worldbody></mujoco>'),
    "flat plate exact": (  # a plate's inertia is a shell's whatever the attribute says
        '<mujoco><asset><mesh name="p" builtin="plate" params="5 5" inertia="exact"/></asset>'
        f'<worldbody><body><freejoint/><geom type="mesh" mesh="p" {VIS}/></body>'
        '</worldbody></mujoco>'),
    "flat plate static": (
        '<mujoco><asset><mesh name="p" builtin="plate" params="4 2"/></asset><worldbody>'
        f'<geom type="mesh" mesh="p" {VIS}/></worldbody></mujoco>'),
}


def assert_graphs_equal(gm, mm):
    assert gm.nmesh == mm.nmesh and gm.nmeshgraph == mm.nmeshgraph
    np.testing.assert_array_equal(np.asarray(gm.mesh_graphadr), mm.mesh_graphadr)
    np.testing.assert_array_equal(np.asarray(gm.mesh_graph), mm.mesh_graph)
    for f in ("mesh_vertnum", "mesh_facenum"):
        np.testing.assert_array_equal(np.asarray(getattr(gm, f)), getattr(mm, f))
    np.testing.assert_allclose(np.asarray(gm.body_mass), mm.body_mass, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(gm.body_inertia), mm.body_inertia, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(np.asarray(gm.body_ipos), mm.body_ipos, atol=1e-12)
    np.testing.assert_allclose(np.asarray(gm.mesh_vert), mm.mesh_vert, atol=1e-9)


@pytest.mark.parametrize("name", list(CASES))
def test_hull_graph_like_mujoco(name):
    xml = CASES[name]
    assert_graphs_equal(gauss.Model.from_xml_string(xml), mujoco.MjModel.from_xml_string(xml))


def test_flat_plate_colliding_refused_like_mujoco():
    """a colliding flat mesh needs a hull that qhull cannot make: both engines refuse it"""
    xml = ('<mujoco><asset><mesh name="p" builtin="plate" params="3 3"/></asset><worldbody>'
           '<geom type="mesh" mesh="p"/></worldbody></mujoco>')
    with pytest.raises(ValueError):
        mujoco.MjModel.from_xml_string(xml)
    with pytest.raises(Exception, match="mesh 'p'"):
        gauss.Model.from_xml_string(xml)


def test_attached_copies(tmp_path):
    """each copy <attach> makes of a mesh gets a graph by how the copy is used"""
    child = f"""<mujoco><asset>{TET.replace("INERTIA", "")}{TET.replace('"m"', '"u"').replace("INERTIA", "")}
</asset><worldbody>
  <body name="b"><joint type="slide"/><geom type="mesh" mesh="m" {VIS}/></body>
  <body name="o"><geom type="mesh" mesh="u"/><geom type="mesh" mesh="m"/></body>
</worldbody></mujoco>"""
    parent = """<mujoco><asset><model name="c" file="child.xml"/></asset><worldbody>
  <body name="p1"><joint/><geom size=".1"/><attach model="c" body="o" prefix="a1_"/></body>
  <body name="p2"><joint/><geom size=".1"/><attach model="c" body="o" prefix="a2_"/></body>
  <body name="p3"><joint/><geom size=".1"/><attach model="c" body="b" prefix="a3_"/></body>
</worldbody></mujoco>"""
    (tmp_path / "child.xml").write_text(child)
    (tmp_path / "parent.xml").write_text(parent)
    path = str(tmp_path / "parent.xml")
    mm, gm = mujoco.MjModel.from_xml_path(path), gauss.Model.from_xml_path(path)
    assert list(mm.mesh_graphadr).count(-1) == 2  # the copies of the third attach
    assert_graphs_equal(gm, mm)


def test_distance_sensor_on_mesh_without_graph():
    """a distance sensor between a visual mesh (no graph) and a plane or a sphere: the distance of
    the nearest vertex, as MuJoCo measures it"""
    xml = model(f'<geom name="g" type="mesh" mesh="m" {VIS}/>',
                '<sensor><distance geom1="g" geom2="f" cutoff="5"/>'
                '<distance geom1="g" geom2="s" cutoff="5"/></sensor>').replace(
        '<body name="b"', '<geom name="s" type="sphere" size=".1" pos="2 0 .5"/><body name="b"')
    mm, gm = mujoco.MjModel.from_xml_string(xml), gauss.Model.from_xml_string(xml)
    assert mm.mesh_graphadr[0] == -1 and gm.mesh_graphadr[0] == -1
    md, gd = mujoco.MjData(mm), gauss.Data(gm)
    rng = np.random.default_rng(3)
    for _ in range(5):
        q = np.r_[rng.uniform(-.3, .3, 3) + [0, 0, 1], rng.normal(size=4)]
        q[3:] /= np.linalg.norm(q[3:])
        md.qpos[:] = q
        gd.qpos[:] = q
        mujoco.mj_forward(mm, md)
        gauss.forward(gm, gd)
        np.testing.assert_allclose(np.asarray(gd.sensordata), md.sensordata, atol=1e-6)


def hull_cell_directions():
    """the centre directions of mesh_hullcell's 96 cells, as fields_world.h lays them out: faces
    +x, -x, +y, -y, +z, -z; on the face of axis a, 4 x 4 squares, rows along axis a + 1 and
    columns along a + 2 (mod 3), centred at -0.75, -0.25, 0.25, 0.75"""
    out = np.zeros((96, 3))
    for k in range(96):
        face, i, j = k // 16, (k // 4) % 4, k % 4
        a = face // 2
        out[k, a] = -1.0 if face % 2 else 1.0
        out[k, (a + 1) % 3] = -0.75 + 0.5 * i
        out[k, (a + 2) % 3] = -0.75 + 0.5 * j
    return out


def random_hull(name, n, seed, half=(0.1, 0.07, 0.05)):
    """n points near an ellipsoid's surface: most of them hull vertices"""
    rng = np.random.default_rng(seed)
    p = rng.normal(size=(n, 3))
    p *= rng.uniform(0.9, 1.0, (n, 1)) / np.linalg.norm(p, axis=1, keepdims=True)
    p *= half
    return f'<mesh name="{name}" vertex="{" ".join(repr(float(x)) for x in p.ravel())}"/>'


def test_hull_cells_are_each_cells_farthest_vertex():
    """mesh_hullcell, where support climbs start: for each cell a hull vertex farthest along its
    centre, against a scan of the hull (the compiler climbs the graph; the random hull has no
    ties); -1 for a mesh without a graph"""
    xml = (f'<mujoco><asset>{random_hull("r", 300, 1)}{TET.replace("INERTIA", "")}'
           f'<mesh name="v" vertex="0 0 0 1 0 0 0 1 0 0 0 1" face="0 2 1 0 1 3 0 3 2 1 2 3"/>'
           f'</asset><worldbody>'
           f'<body><freejoint/><geom type="mesh" mesh="r"/><geom type="mesh" mesh="m"/>'
           f'<geom type="mesh" mesh="v" {VIS}/></body></worldbody></mujoco>')
    m = gauss.Model.from_xml_string(xml)
    cells = np.asarray(m.mesh_hullcell)
    assert cells.shape == (3, 96)
    dirs = hull_cell_directions()
    graphs = 0
    for i in range(m.nmesh):
        ga = m.mesh_graphadr[i]
        if ga < 0:
            assert (cells[i] == -1).all()
            continue
        graphs += 1
        g = np.asarray(m.mesh_graph)[ga:]
        nv = g[0]
        vert = np.asarray(m.mesh_vert)[m.mesh_vertadr[i] + g[2 + nv:2 + 2 * nv]]
        for k, u in enumerate(dirs):
            # the compiler's sums, (x u0 + y u1) + z u2, elementwise
            d = vert[:, 0] * u[0] + vert[:, 1] * u[1] + vert[:, 2] * u[2]
            assert d[cells[i, k]] == d.max(), (i, k)
    assert graphs == 2


def test_large_hull_supports_like_mujoco():
    """support points on a 300-point hull, whose climbs start at the hull cells' vertices or an
    earlier query's: against a plane (the deepest vertex and its neighbours) and a box (GJK and
    EPA) in 60 random orientations, the contacts MuJoCo finds (a climb that stopped short of the
    farthest vertex would report another point)"""
    rng = np.random.default_rng(5)
    for t in range(60):
        q = rng.normal(size=4)
        q /= np.linalg.norm(q)
        for low in ('<geom type="plane" size="1 1 .1"/>',
                    '<geom type="box" size=".3 .3 .1" pos="0 0 -.1"/>'):
            xml = (f'<mujoco><asset>{random_hull("r", 300, 1)}</asset><worldbody>{low}'
                   f'<body pos="0 0 .03" quat="{" ".join(repr(float(x)) for x in q)}"><freejoint/>'
                   f'<geom type="mesh" mesh="r"/></body></worldbody></mujoco>')
            mm, gm = mujoco.MjModel.from_xml_string(xml), gauss.Model.from_xml_string(xml)
            md, gd = mujoco.MjData(mm), gauss.Data(gm)
            mujoco.mj_forward(mm, md)
            gauss.forward(gm, gd)
            assert gd.ncon == md.ncon > 0, (t, low)
            for c in range(md.ncon):
                np.testing.assert_allclose(np.asarray(gd.contact.pos[c]), md.contact[c].pos,
                                           atol=1e-12, err_msg=f"{t} {low}")
                np.testing.assert_allclose(float(gd.contact.dist[c]), md.contact[c].dist, atol=1e-12)
