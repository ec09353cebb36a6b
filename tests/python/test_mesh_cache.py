"""The process-wide cache of mesh files (src/model/mesh_cache.c): a model loaded again, with its
meshes from the cache, is the same model to the last byte as one loaded with the cache off, and
MuJoCo 3.3.7's; a file changed on disk, another scale, or a use that needs the hull graph where
the cached build has none, each builds the mesh again (checked against MuJoCo); capacity 0 keeps
nothing, and a full cache drops its least recently used meshes."""

import struct

import mujoco
import numpy as np
import pytest

import gauss

ARRAYS = ("mesh_vert", "mesh_face", "mesh_graphadr", "mesh_graph", "mesh_vertnum", "mesh_facenum",
          "body_mass", "body_inertia", "body_ipos", "body_iquat", "geom_pos", "geom_quat", "geom_size")


def write_stl(path, nu=24, nv=12, r=(0.3, 0.2, 0.25)):
    """a binary STL of a UV ellipsoid (nu x nv), corners repeated per triangle as STL does"""
    th = np.pi * np.arange(nv + 1) / nv
    ph = 2 * np.pi * np.arange(nu) / nu
    v = np.stack([r[0] * np.outer(np.sin(th), np.cos(ph)), r[1] * np.outer(np.sin(th), np.sin(ph)),
                  r[2] * np.outer(np.cos(th), np.ones(nu))], -1).reshape(-1, 3)
    tris = []
    for i in range(nv):
        for j in range(nu):
            a, b = i * nu + j, i * nu + (j + 1) % nu
            if i > 0:
                tris.append((a, b, b + nu))
            if i < nv - 1:
                tris.append((a, b + nu, a + nu))
    with open(path, "wb") as f:
        f.write(b"\0" * 80 + struct.pack("<I", len(tris)))
        for t in tris:
            f.write(struct.pack("<12fH", 0, 0, 0, *v[t[0]], *v[t[1]], *v[t[2]], 0))


def model(tmp_path, geom_attr="", mesh_attr="", name="m.xml"):
    path = tmp_path / name
    path.write_text(f"""<mujoco><asset><mesh name="m" file="e.stl" {mesh_attr}/></asset><worldbody>
<geom type="plane" size="1 1 1"/>
<body pos="0 0 1"><freejoint/><geom type="mesh" mesh="m" {geom_attr}/></body></worldbody></mujoco>""")
    return str(path)


def assert_like_mujoco(gm, path):
    mm = mujoco.MjModel.from_xml_path(path)
    for name in ARRAYS:
        np.testing.assert_allclose(np.asarray(getattr(gm, name), dtype=float),
                                   np.asarray(getattr(mm, name), dtype=float), rtol=1e-9, atol=1e-9,
                                   err_msg=name)


@pytest.fixture
def cache():
    """the cache emptied before and after each test, its capacity restored"""
    cap = gauss.mesh_cache_capacity()
    gauss.clear_mesh_cache()
    yield
    gauss.set_mesh_cache_capacity(cap)
    gauss.clear_mesh_cache()


def test_reload_is_the_same_model(tmp_path, cache):
    write_stl(tmp_path / "e.stl")
    path = model(tmp_path)
    first = gauss.Model.from_xml_path(path)
    held = gauss.mesh_cache_size()
    assert held > 0
    second = gauss.Model.from_xml_path(path)
    assert gauss.mesh_cache_size() == held  # a hit: nothing more kept
    gauss.set_mesh_cache_capacity(0)
    assert gauss.mesh_cache_size() == 0
    uncached = gauss.Model.from_xml_path(path)
    assert gauss.mesh_cache_size() == 0
    assert second.to_binary() == uncached.to_binary() == first.to_binary()
    assert_like_mujoco(second, path)


def test_changes_build_again(tmp_path, cache):
    write_stl(tmp_path / "e.stl")
    gauss.Model.from_xml_path(model(tmp_path))
    write_stl(tmp_path / "e.stl", r=(0.2, 0.3, 0.25))  # the same name, other contents
    path = model(tmp_path)
    assert_like_mujoco(gauss.Model.from_xml_path(path), path)
    path = model(tmp_path, mesh_attr='scale="1 2 .5" refpos=".1 0 0"')
    assert_like_mujoco(gauss.Model.from_xml_path(path), path)


def test_graph_built_when_a_later_model_needs_it(tmp_path, cache):
    """cached from a model whose geom does not collide (no hull graph); a model whose geom does
    needs it: the mesh is built again, with its graph, as MuJoCo builds it"""
    write_stl(tmp_path / "e.stl")
    path = model(tmp_path, 'contype="0" conaffinity="0"')
    gm = gauss.Model.from_xml_path(path)
    assert gm.mesh_graphadr[0] == -1
    assert_like_mujoco(gm, path)
    path = model(tmp_path)
    gm = gauss.Model.from_xml_path(path)
    assert gm.mesh_graphadr[0] == 0 and gm.nmeshgraph > 0
    assert_like_mujoco(gm, path)
    # and back: the cached build with a graph serves a visual use without it
    path = model(tmp_path, 'contype="0" conaffinity="0"')
    assert_like_mujoco(gauss.Model.from_xml_path(path), path)


def test_capacity_drops_least_recently_used(tmp_path, cache):
    for k in range(3):
        write_stl(tmp_path / f"e{k}.stl", nu=20 + 4 * k)
    paths = []
    for k in range(3):
        p = tmp_path / f"m{k}.xml"
        p.write_text(f'<mujoco><asset><mesh name="m" file="e{k}.stl"/></asset><worldbody><body>'
                     '<freejoint/><geom type="mesh" mesh="m"/></body></worldbody></mujoco>')
        paths.append(str(p))
    sizes = []
    for p in paths:
        before = gauss.mesh_cache_size()
        gauss.Model.from_xml_path(p)
        sizes.append(gauss.mesh_cache_size() - before)
    assert min(sizes) > 0
    gauss.Model.from_xml_path(paths[0])  # the first is now the most recently used
    gauss.set_mesh_cache_capacity(sizes[0] + sizes[2])  # room for two: the second goes
    assert gauss.mesh_cache_size() == sizes[0] + sizes[2]
    gauss.Model.from_xml_path(paths[0])
    assert gauss.mesh_cache_size() == sizes[0] + sizes[2]  # a hit
    gauss.clear_mesh_cache()
    assert gauss.mesh_cache_size() == 0


def test_obj_texture_coordinates_come_back_from_the_cache(tmp_path, cache):
    """an OBJ with texture coordinates loaded again gives its `vt` pairs and the faces' indices
    into them from the cache, equal to MuJoCo's (the cached copy owns them: dropping the first
    model and the cache leaves the later one whole)"""
    (tmp_path / "q.obj").write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nvt 0 0\nvt 1 0\nvt 0 1\n"
                                    "vt 0.5 0.5\nf 1/1 3/3 2/2\nf 1/1 2/2 4/4\nf 1/1 4/4 3/3\n"
                                    "f 2/2 3/3 4/4\n")
    path = tmp_path / "m.xml"
    path.write_text('<mujoco><asset><mesh name="q" file="q.obj"/></asset><worldbody>'
                    '<body><freejoint/><geom type="mesh" mesh="q"/></body></worldbody></mujoco>')
    first = gauss.Model.from_xml_path(str(path))
    again = gauss.Model.from_xml_path(str(path))
    assert gauss.mesh_cache_size() > 0
    del first
    gauss.clear_mesh_cache()
    mm = mujoco.MjModel.from_xml_path(str(path))
    for name in ("mesh_texcoord", "mesh_texcoordadr", "mesh_texcoordnum", "mesh_facetexcoord"):
        np.testing.assert_array_equal(np.asarray(getattr(again, name)), np.asarray(getattr(mm, name)),
                                      err_msg=name)


def test_polygons_come_back_from_the_cache(tmp_path, cache):
    """the cache keeps a build's polygons (on meshes of 1e5 triangles they cost more than the rest
    of a cached load) and hands them out with the faces they were made from: loads that hit a
    build cached with its hull graph (a colliding geom) and without it (a visual geom), in both
    orders, are each the model loaded with the cache off, polygons included"""
    write_stl(tmp_path / "e.stl")
    collide, visual = model(tmp_path), model(tmp_path, 'contype="0" conaffinity="0"', name="v.xml")
    gauss.set_mesh_cache_capacity(0)
    fresh = {p: gauss.Model.from_xml_path(p) for p in (collide, visual)}
    assert fresh[collide].nmeshpoly > 0 and fresh[collide].mesh_graphadr[0] == 0
    assert fresh[visual].mesh_graphadr[0] == -1
    gauss.set_mesh_cache_capacity(1 << 28)
    for order in ((collide, visual, collide), (visual, collide, visual)):
        gauss.clear_mesh_cache()
        for p in order:
            assert gauss.Model.from_xml_path(p).to_binary() == fresh[p].to_binary()


def write_cube_stl(path, h=(0.3, 0.2, 0.25)):
    """a binary STL of a box, two triangles a face: its own polygons (the triangles merged) are the
    hull's faces from other corners, so whose polygons a mesh has shows in the corner order"""
    v = np.array([[x, y, z] for x in (-h[0], h[0]) for y in (-h[1], h[1]) for z in (-h[2], h[2])])
    quads = [(0, 2, 6, 4), (1, 5, 7, 3), (0, 4, 5, 1), (2, 3, 7, 6), (0, 1, 3, 2), (4, 6, 7, 5)]
    with open(path, "wb") as f:
        f.write(b"\0" * 80 + struct.pack("<I", 12))
        for a, b, c, d in quads:
            for t in ((a, b, c), (a, c, d)):
                f.write(struct.pack("<12fH", 0, 0, 0, *v[t[0]], *v[t[1]], *v[t[2]], 0))


POLY_ARRAYS = ("mesh_polynum", "mesh_polyadr", "mesh_polyvertnum", "mesh_polyvertadr",
               "mesh_polyvert", "mesh_polynormal")


@pytest.mark.parametrize("cap", [0, 1 << 28])
def test_visual_mesh_of_a_colliding_file_takes_its_polygons(tmp_path, cache, cap):
    """MuJoCo's compiler gives a mesh that no geom collides with the polygons of an earlier mesh
    asset of the same model from the same file, with the same scale, maxhullvert and inertia, when
    that one collides (the hull's faces, not its own triangles: dm_control's model_with_assets.xml
    lists an unused asset after the colliding one). A visual mesh listed first keeps its own; so do
    another scale or another file with the same bytes; "./" in the path and another refpos do not
    matter. The same with gauss's process-wide cache on or off.

    Each case has files of its own: MuJoCo 3.3.7 also carries such polygons across the models of
    a process (a visual mesh got the hull's polygons after an earlier model had collided with a
    mesh of the same name and file), which gauss does not follow: a model's arrays do not depend
    on what was loaded before it (visual meshes' polygons take no part in the physics)."""
    gauss.set_mesh_cache_capacity(cap)
    cases = {  # (first asset's attributes, second's, which collides, second's polygons shared)
        "later visual": ('file="e.stl"', 'file="./e.stl" refpos="0 0 0.1"', "a", True),
        "visual first": ('file="e.stl"', 'file="e.stl"', "b", False),
        "other scale": ('file="e.stl"', 'file="e.stl" scale="2 2 2"', "a", False),
        "other file": ('file="e.stl"', 'file="f.stl"', "a", False),
    }
    for name, (fa, fb, colliding, shared) in cases.items():
        # each case its own files: MuJoCo's cache remembers a file across the models of a process
        folder = tmp_path / name.replace(" ", "_")
        folder.mkdir()
        write_cube_stl(folder / "e.stl")
        (folder / "f.stl").write_bytes((folder / "e.stl").read_bytes())
        xml = f"""<mujoco><compiler meshdir="{folder}"/>
<asset><mesh name="a" {fa}/><mesh name="b" {fb}/></asset>
<worldbody><geom type="mesh" mesh="{colliding}"/><geom type="sphere" size=".1" pos="0 0 -3"/>
</worldbody></mujoco>"""
        gm, mm = gauss.Model.from_xml_string(xml), mujoco.MjModel.from_xml_string(xml)
        for arr in POLY_ARRAYS:
            np.testing.assert_allclose(np.asarray(getattr(gm, arr), float),
                                       np.asarray(getattr(mm, arr), float), rtol=0, atol=1e-12,
                                       err_msg=f"{name}: {arr}")
        first = lambda m, i: list(m.mesh_polyvert[m.mesh_polyvertadr[m.mesh_polyadr[i]]:][:4])
        # the two meshes' first polygons start alike exactly where the polygons are shared
        assert (first(mm, 0) == first(mm, 1)) == shared, name
