"""A mesh's frame to the last bit against MuJoCo 3.3.7: centre of mass (mesh_pos), volume (the
body's mass, density times volume), principal axes (mesh_quat, body_iquat), on small hand-made
meshes under each inertia rule (exact, legacy, shell, convex). The order of operations that gives
these bits is written in src/model/compile_mesh.c (mass_properties).

The principal moments (body_inertia) too, to the bit: they pass through the mesh's box of equal
inertia (gs_compileMeshInertia), which moves them an ulp or two from the eigenvalues; with a
density, a given mass, and the default density."""

import math
import os

import numpy as np
import pytest

import gauss
import oracle

mujoco = pytest.importorskip("mujoco")

TETRA = np.array([[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])


def f32(a):
    return np.asarray(a, dtype=np.float32).astype(np.float64)


def star(rng, nlat, nlon, jitter, floatv):
    """a closed star-shaped mesh (latitude-longitude grid, radii jittered), outward triangles"""
    v = [[0, 0, 1.0], [0, 0, -1.0]]
    for i in range(1, nlat):
        th = math.pi * i / nlat
        for j in range(nlon):
            ph = 2 * math.pi * j / nlon
            v.append([math.sin(th) * math.cos(ph), math.sin(th) * math.sin(ph), math.cos(th)])
    v = np.array(v) * (1 + jitter * rng.random((len(v), 1))) * rng.uniform(0.5, 2, 3) + [0.3, -1.2, 2.1]
    if floatv:
        v = f32(v)

    def at(i, j):
        return 2 + (i - 1) * nlon + j % nlon
    f = [[0, at(1, j), at(1, j + 1)] for j in range(nlon)]
    for i in range(1, nlat - 1):
        for j in range(nlon):
            a, b, c, d = at(i, j), at(i, j + 1), at(i + 1, j), at(i + 1, j + 1)
            f += [[a, c, d], [a, d, b]]
    f += [[1, at(nlat - 1, j + 1), at(nlat - 1, j)] for j in range(nlon)]
    return v, np.array(f)


def box(rng):
    """a box far from the origin, its corners moved a little, 12 outward triangles"""
    c = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], float)
    v = c * [0.7, 1.3, 0.4] + [5.1, -3.3, 0.9] + 0.05 * rng.standard_normal((8, 3))
    f = [[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
         [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]]
    return v, np.array(f)


def xml(v, f, rule, geom=""):
    vs = " ".join(repr(float(x)) for x in np.ravel(v))
    fs = "" if f is None else ' face="%s"' % " ".join(str(int(x)) for x in np.ravel(f))
    return (f'<mujoco><asset><mesh name="m" vertex="{vs}"{fs} inertia="{rule}"/></asset>'
            f'<worldbody><body><freejoint/><geom type="mesh" mesh="m" {geom}/></body></worldbody></mujoco>')


def meshes():
    rng = np.random.default_rng(23)
    out = []
    for k in range(4):
        v = rng.standard_normal((4, 3)) + [1, 2, 3]
        if k % 2 == 0:
            v = f32(v)
        d = np.linalg.det(np.array([v[1] - v[0], v[2] - v[0], v[3] - v[0]]))
        out.append(("tetra%d" % k, v, TETRA if d > 0 else TETRA[:, [0, 2, 1]]))
    for k in range(3):
        v, f = box(rng)
        out.append(("box%d" % k, v, f))
    for k in range(6):
        v, f = star(rng, int(rng.integers(2, 6)), int(rng.integers(3, 8)), 0.6, k % 2 == 0)
        out.append(("star%d" % k, v, f))
    for k in range(3):  # no triangles given: the convex hull's
        out.append(("hull%d" % k, rng.standard_normal((12, 3)) + [0.5, 0.2, -1.0], None))
    return out


CASES = [(n, v, f, r) for n, v, f in meshes() for r in ("exact", "legacy", "shell", "convex")
         if f is not None or r != "legacy"]
GEOM = ("", 'density="321.7"', 'mass="2.5"')


@pytest.mark.parametrize("name,v,f,rule", CASES, ids=[c[0] + "-" + c[3] for c in CASES])
def test_mesh_frame_bits(name, v, f, rule):
    text = xml(v, f, rule, GEOM[sum(map(ord, name + rule)) % 3])
    m = mujoco.MjModel.from_xml_string(text)
    g = gauss.Model.from_xml_string(text)
    assert np.array_equal(g.mesh_pos[0], m.mesh_pos[0]), (g.mesh_pos[0] - m.mesh_pos[0])
    assert g.body_mass[1] == m.body_mass[1], g.body_mass[1] - m.body_mass[1]
    assert np.array_equal(g.mesh_quat[0], m.mesh_quat[0]), (g.mesh_quat[0], m.mesh_quat[0])
    assert np.array_equal(g.body_iquat[1], m.body_iquat[1])
    assert np.array_equal(g.body_inertia[1], m.body_inertia[1]), (g.body_inertia[1] - m.body_inertia[1])


def test_builtin_meshes_frame_bits():
    """MuJoCo's makemesh.xml (its builtin meshes: spheres, supersurfaces, supertori, wedges,
    plates ...): every mesh's frame and every body's mass and principal inertia to the bit (before,
    ss2, ss5, ss8 and st6 had mesh_pos apart in the last bits)."""
    path = os.path.join(oracle.REPO, "tests/models/mujoco/composed/makemesh.xml")
    m = mujoco.MjModel.from_xml_path(path)
    g = gauss.Model.from_xml_path(path)
    assert g.nmesh == m.nmesh > 0
    for i in range(m.nmesh):
        name = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_MESH, i)
        assert np.array_equal(g.mesh_pos[i], m.mesh_pos[i]), (name, g.mesh_pos[i] - m.mesh_pos[i])
        assert np.array_equal(g.mesh_quat[i], m.mesh_quat[i]), (name, g.mesh_quat[i] - m.mesh_quat[i])
    assert np.array_equal(g.body_mass, m.body_mass)
    assert np.array_equal(g.body_inertia, m.body_inertia), np.abs(g.body_inertia - m.body_inertia).max()
