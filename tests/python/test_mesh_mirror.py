"""Meshes under a mirror scale (an odd number of negative factors) against MuJoCo 3.3.7.

A mirror turns a mesh's triangles inwards. For triangles read from a file (OBJ, STL) MJCF turns
them back, swapping each triangle's last two corners (and those of its texture coordinates), so
that the exact inertia rule accepts the mesh; triangles given in the MJCF itself keep their
corners, and the exact rule refuses them. Found on MuJoCo's test/user/testdata flipped_torus.xml
and textured_torus.xml (mesh_face and mesh_facetexcoord differed in every triangle)."""
import struct

import mujoco
import numpy as np
import pytest

import gauss

VERT = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, .5, 1.2]])
FACE = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]  # outward


def write_files(d):
    with open(d / "t.obj", "w") as f:
        f.writelines(f"v {x} {y} {z}\n" for x, y, z in VERT)
        f.writelines(f"vt {u} {v}\n" for u, v in [(0, 0), (1, 0), (0, 1), (.5, .5)])
        # texture coordinates numbered apart from the vertices, so that a swap shows
        f.writelines(f"f {a + 1}/{(a + 1) % 4 + 1} {b + 1}/{(b + 1) % 4 + 1} {c + 1}/{(c + 1) % 4 + 1}\n"
                     for a, b, c in FACE)
    with open(d / "t.stl", "wb") as f:
        f.write(b"\0" * 80 + struct.pack("<I", len(FACE)))
        for t in FACE:
            f.write(struct.pack("<3f", 0, 0, 0))
            for i in t:
                f.write(struct.pack("<3f", *VERT[i]))
            f.write(b"\0\0")


def load_both(xml):
    out = []
    for load in (mujoco.MjModel.from_xml_string, gauss.Model.from_xml_string):
        try:
            out.append(load(xml))
        except ValueError as e:
            out.append(e)
    return out


@pytest.mark.parametrize("file", ["t.obj", "t.stl"])
@pytest.mark.parametrize("scale", ["1 1 1", "-1 1 1", "1 -2 -1", "-1 -1 -.5"])
@pytest.mark.parametrize("inertia", ["legacy", "exact"])
def test_mirrored_file_mesh_like_mujoco(tmp_path, file, scale, inertia):
    write_files(tmp_path)
    xml = (f'<mujoco><compiler meshdir="{tmp_path}"/><asset><mesh name="t" file="{file}" '
           f'scale="{scale}" inertia="{inertia}"/></asset><worldbody><body><freejoint/>'
           '<geom type="mesh" mesh="t"/></body></worldbody></mujoco>')
    mm, gm = load_both(xml)
    assert not isinstance(mm, Exception), mm
    assert not isinstance(gm, Exception), gm
    np.testing.assert_array_equal(gm.mesh_face, mm.mesh_face)
    np.testing.assert_array_equal(gm.mesh_facetexcoord, mm.mesh_facetexcoord)
    np.testing.assert_allclose(gm.body_mass, mm.body_mass, rtol=1e-12)
    np.testing.assert_allclose(gm.body_inertia, mm.body_inertia, rtol=1e-9, atol=1e-12)


def test_mirrored_inline_mesh_keeps_its_triangles():
    """Triangles given in the MJCF keep their corners under a mirror: the exact rule refuses the
    mesh in both engines, the legacy rule loads it with the triangles as given."""
    v = " ".join(f"{x} {y} {z}" for x, y, z in VERT)
    f = " ".join(f"{a} {b} {c}" for a, b, c in FACE)
    for inertia in ("legacy", "exact"):
        xml = (f'<mujoco><asset><mesh name="t" vertex="{v}" face="{f}" scale="-1 1 1" '
               f'inertia="{inertia}"/></asset><worldbody><body><freejoint/><geom type="mesh" '
               'mesh="t"/></body></worldbody></mujoco>')
        mm, gm = load_both(xml)
        if inertia == "exact":
            assert isinstance(mm, Exception) and isinstance(gm, Exception)
            assert "negative" in str(mm) and "negative" in str(gm)
        else:
            np.testing.assert_array_equal(gm.mesh_face, mm.mesh_face)
            np.testing.assert_array_equal(gm.mesh_face, FACE)
