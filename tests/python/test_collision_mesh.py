"""Meshes: files (binary and ASCII STL, OBJ, MSH) and inline data compiled like MuJoCo 3.3.7
(vertices, convex hull, inertia, the geom frame that takes the mesh's inertial frame), degenerate
meshes refused with clear errors, and mesh contacts against MuJoCo's.

Principal axes. A mesh's vertices are stored in its principal inertial frame, whose axes are not
unique (each pair of eigenvector signs gives the same body). Frame-free quantities are compared:
the vertices and the geom's pos seen from the body, masses, centres of mass and the inertia tensor.
MuJoCo's eigen-solver stops its iterations with the axes off by up to ~1e-7 rad (measured: its
inertia tensor, rebuilt from its principal moments and axes, is off by that much from the tensor
of the same triangles integrated exactly, which ours reproduces to 1e-12), so what depends on the
axes (geom_size, the rebuilt inertia tensor) is compared to 1e-6 relative, and our tensor against
the exact integral to 1e-12.

Contacts. MuJoCo's default ccd settings (ccd_tolerance 1e-6, 35 iterations) stop its EPA before
it converges: on penetrating meshes its contact positions are off by up to ~1e-4 (measured), so the
full comparison uses converged settings, as tests/python/test_collision_convex.py does; with the
defaults, the contact counts, geoms and depths (1e-6) are compared.
"""

import struct

import mujoco
import numpy as np
import pytest

import gauss
import jitter
from test_collision_filters import compare_contacts
from test_roundtrip import compare as compare_roundtrip
from oracle import quat2mat

RNG_SEED = 7


def blob_points(rng, n, scale=(1, 0.7, 0.5)):
    return rng.normal(size=(n, 3)) * np.asarray(scale)


def vtext(v):
    return " ".join(repr(float(x)) for x in np.asarray(v).ravel())


# ---------------- files ----------------

CUBE_V = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0],
                   [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]], float) * [0.4, 0.6, 0.3]
CUBE_F = [[0, 3, 2], [0, 2, 1], [4, 5, 6], [4, 6, 7], [0, 1, 5], [0, 5, 4],
          [1, 2, 6], [1, 6, 5], [2, 3, 7], [2, 7, 6], [3, 0, 4], [3, 4, 7]]


def stl_binary(v, f):
    b = b"\0" * 80 + struct.pack("<I", len(f))
    for t in f:
        b += struct.pack("<3f", 0, 0, 0) + b"".join(struct.pack("<3f", *v[i]) for i in t) + b"\0\0"
    return b


def stl_ascii(v, f):
    s = "solid cube\n"
    for t in f:
        s += " facet normal 0 0 0\n  outer loop\n"
        s += "".join(f"   vertex {float(v[i][0])!r} {float(v[i][1])!r} {float(v[i][2])!r}\n" for i in t)
        s += "  endloop\n endfacet\n"
    return (s + "endsolid cube\n").encode()


def obj_text(v, f, quads=False):
    s = "# cube\n" + "".join(f"v {float(x)!r} {float(y)!r} {float(z)!r}\n" for x, y, z in v)
    s += "vn 0 0 1\n"
    for t in f:
        s += "f " + " ".join(f"{i + 1}//1" for i in t) + "\n"
    return s.encode()


def msh_bytes(v, f):
    return (struct.pack("<4i", len(v), 0, 0, len(f)) + struct.pack(f"<{3 * len(v)}f", *np.ravel(v))
            + struct.pack(f"<{3 * len(f)}i", *np.ravel(f)))


def one_mesh(asset, geom_attrs='pos="0.1 -0.2 0.3" euler="10 20 30"', body_attrs='pos="0 0 1"'):
    return f"""<mujoco><asset>{asset}</asset><worldbody>
<body {body_attrs}><freejoint/><geom name="g" type="mesh" mesh="m" {geom_attrs}/>
<geom type="sphere" size="0.05" pos="0.3 0 0"/></body></worldbody></mujoco>"""


def load_both(xml, assets=None):
    mm = mujoco.MjModel.from_xml_string(xml, assets or {})
    gm = gauss.Model.from_xml_string(xml, assets=assets)
    return gm, mm


def body_tensor(m, b):
    R = quat2mat(np.asarray(m.body_iquat)[b])
    return R @ np.diag(np.asarray(m.body_inertia)[b]) @ R.T


def exact_tensor(vert, face, density=1000.0):
    """inertia tensor about the com of the solid bounded by the triangles, by divergence over
    tetrahedra from the origin (independent of the library's formulation)"""
    V, c, S = 0.0, np.zeros(3), np.zeros((3, 3))
    for t in face:
        a, b, d = vert[t[0]], vert[t[1]], vert[t[2]]
        v = np.dot(a, np.cross(b, d)) / 6
        s = a + b + d
        V += v
        c += v * s / 4
        S += v / 20 * (np.outer(a, a) + np.outer(b, b) + np.outer(d, d) + np.outer(s, s))
    c /= V
    C = S - V * np.outer(c, c)
    return density * V, c, density * (np.trace(C) * np.eye(3) - C)


def compare_compiled(gm, mm):
    """frame-free comparison of every mesh geom (see the module's docstring)"""
    for f in ["body_mass", "body_ipos", "geom_pos", "mesh_pos", "body_subtreemass"]:
        a, b = np.asarray(getattr(gm, f)), np.asarray(getattr(mm, f))
        assert np.abs(a - b).max() <= 1e-9 * max(1, np.abs(b).max()), f
    for f in ["nmeshvert", "nmeshface", "nmeshgraph"]:
        assert getattr(gm, f) == getattr(mm, f), f
    assert np.array_equal(np.asarray(gm.mesh_vertnum), mm.mesh_vertnum)
    assert np.array_equal(np.asarray(gm.mesh_facenum), mm.mesh_facenum)
    for f in ["geom_size", "geom_rbound"]:
        a, b = np.asarray(getattr(gm, f)), np.asarray(getattr(mm, f))
        assert np.abs(a - b).max() <= 1e-6 * max(1, np.abs(b).max()), f
    for b in range(1, mm.nbody):
        Tm, Tg = body_tensor(mm, b), body_tensor(gm, b)
        assert np.abs(Tg - Tm).max() <= 1e-6 * np.abs(Tm).max()
    for g in np.where(mm.geom_type == mujoco.mjtGeom.mjGEOM_MESH)[0]:
        i = mm.geom_dataid[g]
        a, n = mm.mesh_vertadr[i], mm.mesh_vertnum[i]
        # vertices seen from the body (single precision in both: 1e-6 relative)
        vm = mm.mesh_vert[a:a + n] @ quat2mat(mm.geom_quat[g]).T
        vg = np.asarray(gm.mesh_vert)[a:a + n] @ quat2mat(np.asarray(gm.geom_quat)[g]).T
        assert np.abs(vm - vg).max() <= 1e-6 * max(1, np.abs(vm).max())
        # the principal frame itself is MuJoCo's to rounding where the moments are apart (a gap
        # g amplifies last-bit differences of the inertia integrals by ~1/g; equal moments leave
        # the frame to rounding)
        moments = np.sort(mm.body_inertia[mm.geom_bodyid[g]])
        if mm.geom_bodyid[g] and np.diff(moments).min() > 1e-2 * moments.max():
            qg, qm = np.asarray(gm.geom_quat)[g], mm.geom_quat[g]
            assert min(np.abs(qg - qm).max(), np.abs(qg + qm).max()) < 1e-13
        # the same triangles, and the same hull (its vertices and faces as sets)
        fa, fn = mm.mesh_faceadr[i], mm.mesh_facenum[i]
        assert (sorted(map(tuple, np.sort(np.asarray(gm.mesh_face)[fa:fa + fn], axis=1))) ==
                sorted(map(tuple, np.sort(mm.mesh_face[fa:fa + fn], axis=1))))
        assert hull_sets(gm, i) == hull_sets(mm, i)
        # and the graph itself, in MuJoCo's order (plane-mesh contacts walk the neighbour lists)
        ga, gn = mm.mesh_graphadr[i], (mm.mesh_graphadr[i + 1] if i + 1 < mm.nmesh else mm.nmeshgraph)
        assert np.array_equal(np.asarray(gm.mesh_graph)[ga:gn], mm.mesh_graph[ga:gn])


def hull_sets(m, i):
    g = np.asarray(m.mesh_graph)[m.mesh_graphadr[i]:]
    nv, nf = int(g[0]), int(g[1])
    verts = frozenset(int(x) for x in g[2 + nv:2 + 2 * nv])
    end = 2 + 2 * nv
    for v in range(nv):  # skip the neighbour lists
        k = 2 + 2 * nv + int(g[2 + v])
        while g[k] >= 0:
            k += 1
        end = max(end, k + 1)
    faces = sorted(tuple(sorted(int(x) for x in g[end + 3 * f:end + 3 * f + 3])) for f in range(nf))
    return verts, faces


@pytest.mark.parametrize("mode", ["legacy", "convex", "exact", "shell"])
@pytest.mark.parametrize("fmt", ["stl", "obj", "msh"])
def test_mesh_files_compile_like_mujoco(fmt, mode):
    data = {"stl": stl_binary, "obj": obj_text, "msh": msh_bytes}[fmt](CUBE_V, CUBE_F)
    xml = one_mesh(f'<mesh name="m" file="box.{fmt}" inertia="{mode}" scale="1 2 0.5"/>')
    gm, mm = load_both(xml, {f"box.{fmt}": data})
    compare_compiled(gm, mm)


def test_ascii_stl_equals_binary_stl():
    """MuJoCo reads binary STL only: the ASCII file must give what the binary one gives there"""
    xb = one_mesh('<mesh name="m" file="box.stl"/>')
    mm = mujoco.MjModel.from_xml_string(xb, {"box.stl": stl_binary(CUBE_V, CUBE_F)})
    gm = gauss.Model.from_xml_string(xb, assets={"box.stl": stl_ascii(CUBE_V, CUBE_F)})
    compare_compiled(gm, mm)
    assert gm.nmeshvert == 8  # repeated STL corners merged


def test_obj_polygons_and_unused_vertices():
    quads = [[0, 3, 2, 1], [4, 5, 6, 7], [0, 1, 5, 4], [1, 2, 6, 5], [2, 3, 7, 6], [3, 0, 4, 7]]
    s = obj_text(np.vstack([CUBE_V, [[5, 5, 5]]]), quads).replace(b"//1", b"")
    xml = one_mesh('<mesh name="m" file="q.obj" inertia="exact"/>')
    gm, mm = load_both(xml, {"q.obj": s})
    compare_compiled(gm, mm)
    assert np.array_equal(np.asarray(gm.mesh_face), mm.mesh_face)  # fans from the first corner


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("mode", ["legacy", "convex", "shell"])
def test_inline_random_hulls(seed, mode):
    rng = np.random.default_rng(seed)
    pts = blob_points(rng, 10 + 10 * seed)
    xml = one_mesh(f'<mesh name="m" inertia="{mode}" vertex="{vtext(pts)}" scale="0.5 0.3 0.4" '
                   f'refpos="0.1 0.2 0.3" refquat="0.9 0.1 0.2 0.3"/>',
                   geom_attrs='pos="0.1 -0.2 0.3" euler="10 20 30" density="700"')
    gm, mm = load_both(xml)
    compare_compiled(gm, mm)


def test_inertia_is_the_exact_integral():
    """a closed mesh, inertia="exact": mass, com and tensor against the divergence-theorem integral"""
    v = CUBE_V.astype(np.float32).astype(float)
    xml = one_mesh(f'<mesh name="m" inertia="exact" vertex="{vtext(v)}" '
                   f'face="{" ".join(str(i) for t in CUBE_F for i in t)}"/>',
                   geom_attrs="", body_attrs="")
    gm = gauss.Model.from_xml_string(xml.replace('<geom type="sphere" size="0.05" pos="0.3 0 0"/>', ""))
    mass, com, T = exact_tensor(v, CUBE_F)
    assert abs(gm.body_mass[1] - mass) <= 1e-12 * mass
    assert np.abs(np.asarray(gm.body_ipos)[1] - com).max() <= 1e-12
    assert np.abs(body_tensor(gm, 1) - T).max() <= 1e-12 * np.abs(T).max()
    # and the box's closed form: m (b^2 + c^2) / 12
    a, b, c = 0.4, 0.6, 0.3
    assert np.allclose(sorted(np.asarray(gm.body_inertia)[1]),
                       sorted(mass / 12 * np.array([b * b + c * c, a * a + c * c, a * a + b * b])), rtol=1e-6)


def test_static_and_massive_mesh_geoms():
    pts = blob_points(np.random.default_rng(11), 25)
    xml = f"""<mujoco><asset><mesh name="m" vertex="{vtext(pts)}"/></asset><worldbody>
<geom type="mesh" mesh="m" pos="1 2 3" quat="0.5 0.5 0.5 0.5"/>
<body><freejoint/><geom type="mesh" mesh="m" mass="2.5"/><geom type="box" size=".1 .2 .3" pos="1 0 0"/></body>
</worldbody></mujoco>"""
    gm, mm = load_both(xml)
    compare_compiled(gm, mm)
    assert abs(np.asarray(gm.body_mass)[1] - (2.5 + 1000 * 0.048)) <= 1e-9


# ---------------- degenerate meshes ----------------

BAD = [
    ('<mesh name="m" vertex="0 0 0 1 0 0 0 1 0 1 1 0"/>', "no convex hull"),          # flat
    ('<mesh name="m" vertex="0 0 0 1 0 0 2 0 0 3 0 0"/>', "no convex hull"),          # collinear
    ('<mesh name="m" vertex="0 0 0 1 0 0 0 1 0"/>', "at least 4 vertices"),
    ('<mesh name="m" vertex="0 0 0 1 0 0 0 1 0" face="0 1 2"/>', "at least 4 vertices"),
    ('<mesh name="m" vertex="0 0 0 1 0 0 0 1 0 0 0 1" face="0 1 5"/>', "vertex 5, which does not exist"),
    ('<mesh name="m" vertex="0 0 0 1 0 0 0 1 0 0 0 1" face="0 1 2 0 3 1 0 2 3 1 3 2" inertia="exact"/>',
     "volume is negative"),
    # a mirror scale turns the hull's triangles inwards (MuJoCo keeps their corners as given)
    ('<mesh name="m" vertex="0 0 0 1 0 0 0 1 0 0 0 1" scale="1 -1 1" inertia="convex"/>', "volume is negative"),
    ('<mesh name="m" vertex="0 0 0 1 0 0 0 1 0 0 0 1" scale="-1 -1 -1" inertia="exact"/>', "volume is negative"),
    ('<mesh name="m" vertex="0 0 0 0 0 0 1 0 0 1 0 0 0 1 0 0 1 0"/>', "no convex hull"),  # duplicates, flat
]


@pytest.mark.parametrize("asset,message", BAD)
def test_degenerate_meshes_refused(asset, message):
    xml = one_mesh(asset)
    with pytest.raises(ValueError):  # MuJoCo refuses them too
        mujoco.MjModel.from_xml_string(xml)
    with pytest.raises(gauss.GaussError) as e:
        gauss.Model.from_xml_string(xml)
    assert message in str(e.value) and "mesh 'm'" in str(e.value)
    assert ":2:" in str(e.value) or ":1:" in str(e.value)  # file:line


def test_nan_vertices_refused():
    xml = one_mesh('<mesh name="m" vertex="0 0 0 1 0 0 0 1 0 0 0 nan"/>')
    with pytest.raises(gauss.GaussError) as e:
        gauss.Model.from_xml_string(xml)
    assert "'vertex'" in str(e.value) and "nan" in str(e.value)
    v = CUBE_V.copy()
    v[3, 1] = np.nan
    xml = one_mesh('<mesh name="m" file="nan.stl"/>')
    with pytest.raises(gauss.GaussError) as e:
        gauss.Model.from_xml_string(xml, assets={"nan.stl": stl_binary(v, CUBE_F)})
    assert "not finite" in str(e.value) and "nan.stl" in str(e.value)


FILE_BAD = [
    (b"", "too short"),
    (stl_binary(CUBE_V, CUBE_F)[:200], "truncated"),
    (b"\0" * 80 + struct.pack("<I", 0), "declares 0 triangles"),
    (b"solid x\n facet normal 0 0 1\n outer loop\n vertex 0 0 0\n vertex 1 0 0\n", "truncated inside a facet"),
    (b"solid x\nendsolid x\n", "no facets"),
]


@pytest.mark.parametrize("data,message", FILE_BAD)
def test_bad_stl_files_refused(data, message):
    xml = one_mesh('<mesh name="m" file="bad.stl"/>')
    with pytest.raises(gauss.GaussError) as e:
        gauss.Model.from_xml_string(xml, assets={"bad.stl": data})
    assert message in str(e.value) and "bad.stl" in str(e.value)


def test_bad_obj_and_msh_refused():
    for name, data, message in [("a.obj", b"v 0 0 0\nf 1 2 3\n", "does not exist"),
                                ("a.obj", b"# nothing\n", "no vertices"),
                                ("a.msh", msh_bytes(CUBE_V, CUBE_F)[:-4], "header needs"),
                                ("a.xyz", b"abc", "unknown mesh format")]:
        xml = one_mesh(f'<mesh name="m" file="{name}"/>')
        with pytest.raises(gauss.GaussError) as e:
            gauss.Model.from_xml_string(xml, assets={name: data})
        assert message in str(e.value), str(e.value)


def test_missing_mesh_file():
    with pytest.raises(gauss.GaussError) as e:
        gauss.Model.from_xml_string(one_mesh('<mesh name="m" file="nowhere.stl"/>'))
    assert "nowhere.stl" in str(e.value)


# ---------------- save and load ----------------

def test_mesh_models_round_trip():
    rng = np.random.default_rng(5)
    xml = f"""<mujoco><asset><mesh name="m" file="box.stl" scale="1 2 .5" refpos=".1 .2 .3"
refquat="0.9 0.1 0.2 0.3" inertia="shell"/><mesh name="o" file="box.obj" maxhullvert="6"/></asset>
<worldbody><body pos="0 0 1"><freejoint/><geom type="mesh" mesh="m" pos=".1 .2 .3" euler="10 20 30"/>
<geom type="mesh" mesh="o" pos="0 .5 0"/></body></worldbody></mujoco>"""
    assets = {"box.stl": stl_binary(CUBE_V, CUBE_F),
              "box.obj": obj_text(CUBE_V * 0.5 + rng.normal(size=(8, 3)) * 0.01, CUBE_F)}
    m = gauss.Model.from_xml_string(xml, assets=assets)
    again = gauss.Model.from_xml_string(m.to_xml(), assets=assets)
    errors = compare_roundtrip(m, again)
    assert not errors, errors[:10]
    b = gauss.Model.from_binary(m.to_binary())
    assert not compare_roundtrip(m, b)


def test_inline_meshes_round_trip():
    """inline meshes (vertices only, vertices and faces, a mirror scale) are written back with
    their vertices as given and their triangles: the reloaded model is the same to the last bit,
    and MuJoCo compiles the written document as it compiles the original"""
    rng = np.random.default_rng(8)
    pts = blob_points(rng, 25)
    faces = " ".join(str(i) for t in CUBE_F for i in t)
    xml = f"""<mujoco><asset>
<mesh name="a" vertex="{vtext(pts)}" scale="0.5 0.3 0.4" refpos="0.1 0.2 0.3" refquat="0.9 0.1 0.2 0.3"/>
<mesh name="b" vertex="{vtext(CUBE_V)}" face="{faces}" inertia="exact"/>
<mesh name="c" vertex="{vtext(pts[:12])}" scale="1 -1 1" inertia="shell" maxhullvert="8"/></asset>
<worldbody><body pos="0 0 1"><freejoint/><geom type="mesh" mesh="a" pos=".1 .2 .3" euler="10 20 30"/>
<geom type="mesh" mesh="b" pos="0 .5 0"/><geom type="mesh" mesh="c" pos="0 -.5 0" euler="0 30 0"/>
</body></worldbody></mujoco>"""
    m = gauss.Model.from_xml_string(xml)
    written = m.to_xml()
    again = gauss.Model.from_xml_string(written)
    errors = compare_roundtrip(m, again)
    assert not errors, errors[:10]
    assert not compare_roundtrip(m, gauss.Model.from_binary(m.to_binary()))
    compare_compiled(again, mujoco.MjModel.from_xml_string(written))
    compare_compiled(m, mujoco.MjModel.from_xml_string(xml))


def test_maxhullvert_like_mujoco():
    pts = blob_points(np.random.default_rng(2), 40)
    xml = one_mesh(f'<mesh name="m" maxhullvert="8" vertex="{vtext(pts)}"/>')
    gm, mm = load_both(xml)
    compare_compiled(gm, mm)


# ---------------- contacts ----------------

SIZES = {"sphere": "0.3", "capsule": "0.2 0.3", "ellipsoid": "0.3 0.2 0.4",
         "cylinder": "0.25 0.3", "box": "0.2 0.3 0.25"}
MARGIN = 0.05
CONVERGED = 'ccd_tolerance="1e-13" ccd_iterations="2000"'


def pair_xml(t1, pts1, pts2, option=""):
    g1 = (f'<geom type="mesh" mesh="b" margin="{MARGIN}"/>' if t1 == "mesh"
          else f'<geom type="{t1}" size="{SIZES[t1]}" margin="{MARGIN}"/>')
    return f"""<mujoco><option gravity="0 0 0" {option}/><asset>
<mesh name="a" vertex="{vtext(pts1)}"/><mesh name="b" vertex="{vtext(pts2)}"/></asset><worldbody>
<body><freejoint/>{g1}</body><body><freejoint/><geom type="mesh" mesh="a" margin="{MARGIN}"/></body>
</worldbody></mujoco>"""


def random_poses(rng, n, rmin=0.05, rmax=0.7):
    out = []
    for _ in range(n):
        q = np.zeros(14)
        q[3:7] = rng.normal(size=4)
        q[10:14] = rng.normal(size=4)
        q[3:7] /= np.linalg.norm(q[3:7])
        q[10:14] /= np.linalg.norm(q[10:14])
        p = rng.normal(size=3)
        q[7:10] = p / np.linalg.norm(p) * rng.uniform(rmin, rmax)
        out.append(q)
    return out


@pytest.mark.parametrize("t1", ["sphere", "capsule", "ellipsoid", "cylinder", "box", "mesh"])
def test_mesh_pairs_like_mujoco(t1):
    rng = np.random.default_rng(RNG_SEED)
    pts1, pts2 = blob_points(rng, 30) * 0.3, blob_points(rng, 50, (0.5, 0.7, 0.6)) * 0.3
    xml = pair_xml(t1, pts1, pts2, CONVERGED)
    mjm = mujoco.MjModel.from_xml_string(xml)
    mjd = mujoco.MjData(mjm)
    gm = gauss.Model.from_xml_string(xml)
    gd = gauss.Data(gm)
    ncon, fails = 0, []
    # random poses (touching, penetrating, within the margin, apart)
    for k, q in enumerate(random_poses(rng, 150)):
        mjd.qpos[:] = q
        mujoco.mj_forward(mjm, mjd)
        gd.qpos[:] = q
        gauss.forward(gm, gd)
        ncon += mjd.ncon
        try:
            compare_contacts(mjm, mjd, gm, gd, f"{t1} pose {k}")
        except AssertionError as e:
            fails.append(str(e)[:200])
    assert ncon >= 60  # the poses do exercise contacts
    # curved shapes: EPA on curved surfaces (and GJK near a sphere's or capsule's core) converges
    # to rounding in most poses only, in both engines (as in test_collision_convex.py): a few
    # poses of 150 differ by more than 1e-5 in the normal; polytopes match everywhere.
    # Where EPA stops follows rounding, which is not the same on every processor: measured on an
    # AMD EPYC (AVX2, FMA) over 100 jitters of 4 ulps of the poses (see jitter.py; too slow to run
    # with the test), poses that disagree: sphere 1, jittered 0-1; capsule, ellipsoid and
    # cylinder 0, jittered 0-1; box and mesh 0, jittered 0-0. The bound for the curved shapes
    # lies above the largest jittered count plus the spread; none of 15000 jittered polytope poses
    # disagreed.
    allowed = 0 if t1 in ("box", "mesh") else 3
    jitter.recorded(f"mesh pairs, {t1}: poses that disagree", len(fails),
                    0, 0 if t1 in ("box", "mesh") else 1, 100, at_most=allowed)
    assert len(fails) <= allowed, fails[:3]


@pytest.mark.parametrize("t1", ["sphere", "box", "mesh"])
def test_mesh_pairs_default_settings(t1):
    """MuJoCo's default ccd settings: the same contacts and depths (positions: see the docstring)"""
    rng = np.random.default_rng(RNG_SEED + 1)
    pts1, pts2 = blob_points(rng, 30) * 0.3, blob_points(rng, 50, (0.5, 0.7, 0.6)) * 0.3
    xml = pair_xml(t1, pts1, pts2)
    mjm = mujoco.MjModel.from_xml_string(xml)
    mjd = mujoco.MjData(mjm)
    gm = gauss.Model.from_xml_string(xml)
    gd = gauss.Data(gm)
    for q in random_poses(rng, 100):
        mjd.qpos[:] = q
        mujoco.mj_forward(mjm, mjd)
        gd.qpos[:] = q
        gauss.forward(gm, gd)
        assert gd.ncon == mjd.ncon
        for i in range(mjd.ncon):
            c = gd.contact[i]
            assert (int(c.geom1), int(c.geom2)) == (mjd.contact[i].geom1, mjd.contact[i].geom2)
            assert abs(c.dist - mjd.contact[i].dist) <= 1e-6


def test_mesh_pairs_separated_and_in_margin():
    """distances between two cube meshes face to face: apart, within the margin, touching. With a
    margin MJCF takes EPA's depth of the pair grown by half the margin each, which stops within
    ccd_tolerance (1e-6) of the exact one: measured 4.4e-12 here, and MuJoCo's to the last bits"""
    cube = vtext(np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]) * 0.5)
    xml = f"""<mujoco><option gravity="0 0 0"/><asset><mesh name="c" vertex="{cube}"/></asset>
<worldbody><body><freejoint/><geom type="mesh" mesh="c" margin="0.1"/></body>
<body><freejoint/><geom type="mesh" mesh="c" margin="0.1"/></body></worldbody></mujoco>"""
    gm = gauss.Model.from_xml_string(xml)
    gd = gauss.Data(gm)
    mm = mujoco.MjModel.from_xml_string(xml)
    md = mujoco.MjData(mm)
    for gap, expect in [(0.5, 0), (0.15, 0), (0.05, 1), (0.0, 1), (-0.02, 1)]:
        q = np.array([0, 0, 0, 1, 0, 0, 0, 0.3, 0.2, 1 + gap, 1, 0, 0, 0], float)
        gd.qpos[:] = q
        md.qpos[:] = q
        gauss.forward(gm, gd)
        mujoco.mj_forward(mm, md)
        assert gd.ncon == expect == md.ncon, gap
        if expect:
            assert abs(gd.contact[0].dist - gap) <= 1e-9
            assert np.allclose(gd.contact[0].frame[:3], [0, 0, 1], atol=1e-9)
            assert abs(gd.contact[0].dist - md.contact[0].dist) <= 1e-12
            assert np.abs(gd.contact[0].frame[:3] - md.contact[0].frame[:3]).max() <= 1e-12


PLANE_HULLS = {
    "box": np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]) * [0.5, 0.35, 0.2],
    "tetrahedron": np.array([[1, 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1]]) * 0.3,
    "octahedron": np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]]) * 0.3,
    "blob": blob_points(np.random.default_rng(3), 30) * 0.3,
    "big": blob_points(np.random.default_rng(4), 200) * 0.3,  # climbed, not scanned
}


@pytest.mark.parametrize("margin", [0.0, 0.01, 0.1])
@pytest.mark.parametrize("hull", sorted(PLANE_HULLS))
def test_plane_mesh_like_mujoco(hull, margin):
    """plane-mesh: every contact as MuJoCo's (count, order, dist 1e-6, pos and frame 1e-5), on a
    tilted, shifted plane, from flat rests (ties between vertices) to deep penetrations"""
    rng = np.random.default_rng(len(hull) + int(100 * margin))
    xml = f"""<mujoco><asset><mesh name="b" vertex="{vtext(PLANE_HULLS[hull])}"/></asset><worldbody>
<geom type="plane" size="5 5 .1" pos="0.3 -0.2 0.1" euler="10 -20 5"/>
<body><freejoint/><geom type="mesh" mesh="b" margin="{margin}"/></body></worldbody></mujoco>"""
    mjm = mujoco.MjModel.from_xml_string(xml)
    mjd = mujoco.MjData(mjm)
    gm = gauss.Model.from_xml_string(xml)
    gd = gauss.Data(gm)
    counts = set()
    for k in range(150):
        q = np.r_[rng.normal(size=2) * 0.3, rng.uniform(-0.2, 0.8), rng.normal(size=4)]
        if k < 5:
            q[3:] = [1, 0, 0, 0]
        q[3:] /= np.linalg.norm(q[3:])
        mjd.qpos[:] = q
        mujoco.mj_forward(mjm, mjd)
        gd.qpos[:] = q
        gauss.forward(gm, gd)
        compare_contacts(mjm, mjd, gm, gd, f"{hull} pose {k}")
        counts.add(mjd.ncon)
    assert counts >= {0, 1, 2, 3} or hull == "tetrahedron" and counts >= {0, 1, 3}, counts


def test_geom_distance_with_meshes():
    """gs_geomDistance between a cube mesh and a cube mesh or a box, face to face: the gap
    (mujoco.mj_geomDistance returned 0 for separated mesh pairs here, so the closed form is used)"""
    cube = vtext(np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]) * 0.5)
    for other in ['<geom type="mesh" mesh="c"/>', '<geom type="box" size=".5 .5 .5"/>']:
        xml = f"""<mujoco><asset><mesh name="c" vertex="{cube}"/></asset><worldbody>
<body><freejoint/><geom type="mesh" mesh="c"/></body><body><freejoint/>{other}</body>
</worldbody></mujoco>"""
        gm = gauss.Model.from_xml_string(xml)
        gd = gauss.Data(gm)
        for gap in [0.7, 0.2, 0.01, -0.05]:
            gd.qpos[:] = [0, 0, 0, 1, 0, 0, 0, 0.2, -0.1, 1 + gap, 1, 0, 0, 0]
            gauss.forward(gm, gd)
            dist, fromto = gauss.geom_distance(gm, gd, 0, 1, 1.0)
            assert abs(dist - gap) <= 1e-12, (other, gap, dist)
            assert abs(fromto[2] - 0.5) <= 1e-12 and abs(fromto[5] - (0.5 + gap)) <= 1e-12


MESH_ONLY = """<mujoco><asset>{}</asset><worldbody>
<body pos="0 0 1"><freejoint/><geom type="mesh" mesh="m"/></body></worldbody></mujoco>"""


@pytest.mark.parametrize("mode", ["legacy", "convex", "exact"])
def test_mesh_mass_bit_equal(mode):
    """a solid mesh's mass against MuJoCo's bits (its volume summed from the centre of mass, see
    compile_mesh.c), on random hulls with their triangles given and on the box from a file;
    the centre of mass and the tensor stay a few ulps apart (their integration order is not
    MuJoCo's), so they are compared to rounding: 1e-14 relative"""
    rng = np.random.default_rng(RNG_SEED)
    equal = 0
    for k in range(12):
        pts = blob_points(rng, 30) + rng.normal(size=3)
        hull = mujoco.MjModel.from_xml_string(one_mesh(f'<mesh name="m" vertex="{vtext(pts)}"/>'))
        faces = " ".join(str(i) for i in hull.mesh_face.ravel())
        gm, mm = load_both(MESH_ONLY.format(f'<mesh name="m" inertia="{mode}" vertex="{vtext(pts)}" '
                                            f'face="{faces}"/>'))
        equal += np.asarray(gm.body_mass)[1] == mm.body_mass[1]
        assert abs(np.asarray(gm.body_mass)[1] - mm.body_mass[1]) <= 5e-16 * mm.body_mass[1]  # 2 ulps
        assert np.abs(np.asarray(gm.body_ipos)[1] - mm.body_ipos[1]).max() <= 1e-14 * 10
        assert np.abs(body_tensor(gm, 1) - body_tensor(mm, 1)).max() <= 1e-14 * np.abs(body_tensor(mm, 1)).max()
    # the volume's own sum is MuJoCo's (12 of 12 from MuJoCo's centre of mass, measured); from ours,
    # a few ulps off, the last bit differs on some hulls by up to 2 ulps: 6 of 12 equal measured
    # (8 with a centre from the mean of the face centroids, which is not MJCF's reference: see
    # test_non_convex_mesh_inertia; 4 with the former sum)
    assert equal >= 6
    xml = one_mesh(f'<mesh name="m" file="box.stl" inertia="{mode}"/>')
    gm, mm = load_both(xml, {"box.stl": stl_binary(CUBE_V, CUBE_F)})
    assert np.array_equal(np.asarray(gm.body_mass), mm.body_mass)


def u_prism():
    """a U-shaped prism (not star-shaped from its centroid): vertices and outward triangles"""
    poly = [(0, 0), (3, 0), (3, 3), (2, 3), (2, 0.5), (1, 0.5), (1, 3), (0, 3)]
    n = len(poly)
    v = np.array([(x, y, 0) for x, y in poly] + [(x, y, 1) for x, y in poly], float)
    f = []
    for a, b, c in [(0, 1, 4), (1, 2, 3), (1, 3, 4), (0, 4, 5), (0, 5, 6), (0, 6, 7)]:
        f += [(a, c, b), (a + n, b + n, c + n)]
    for i in range(n):
        j = (i + 1) % n
        f += [(i, j, j + n), (i, j + n, i + n)]
    return v, f


@pytest.mark.parametrize("mode", ["legacy", "convex", "exact", "shell"])
def test_non_convex_mesh_inertia(mode):
    """a non-convex closed mesh under each inertia rule: mass, centre of mass and principal moments
    as MuJoCo's to rounding. The legacy rule (magnitudes of tetrahedra) depends on the point the
    tetrahedra start from: MJCF's reference is the surface's area-weighted centroid for the centre
    of mass and then that centre for the volume and tensor (a vertex mean or a mean of face
    centroids gave masses and moments 1e-4 to 1e-3 off here); exact must equal the closed form."""
    v, f = u_prism()
    xml = MESH_ONLY.format(f'<mesh name="m" inertia="{mode}" vertex="{vtext(v)}" '
                           f'face="{" ".join(str(i) for t in f for i in t)}"/>')
    gm, mm = load_both(xml)
    assert abs(np.asarray(gm.body_mass)[1] - mm.body_mass[1]) <= 1e-12 * mm.body_mass[1]
    assert np.abs(np.asarray(gm.body_ipos)[1] - mm.body_ipos[1]).max() <= 1e-12
    assert np.abs(np.asarray(gm.body_inertia)[1] - mm.body_inertia[1]).max() <= 1e-12 * mm.body_inertia[1].max()
    if mode == "exact":  # the U: a 3 x 3 x 1 block less a 1 x 2.5 x 1 slot, density 1000
        assert abs(np.asarray(gm.body_mass)[1] - 1000 * (9 - 2.5)) <= 1e-9
