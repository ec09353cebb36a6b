"""Mesh polygon normals (mesh_polynormal, src/model/mesh_poly.c) where a polygon's first three
corners are nearly in a line, against MuJoCo 3.3.7.

MJCF's rule, as measured: with p = R^T (v - pos) the corners (scaled given vertices) moved into
the mesh's inertial frame in double and c = (p1 - p0) x (p2 - p0), the normal is c / |c| where
|c| >= 1e-14, else (1 / |c|, 0, 0), and (inf, nan, nan) where |c| is 0 (gauss keeps the model
finite and stores (1, 0, 0) there). The triangles' normals that group them into polygons follow
the same rule on the vertices as given (before scale), so a sliver triangle whose corners are
nearly in a line makes a polygon of its own.

Such normals depend on the last bits of the mesh's frame (mesh_pos, mesh_quat: 1e-16 there moves
a |c| of 1e-15 by percents), which is computed elsewhere and may differ from MuJoCo's in those
bits. So each engine's normals are checked bit for bit against the rule applied to that engine's
own frame and the given vertices (MuJoCo's: that the rule is MuJoCo's; gauss's: that gauss
follows it), and the two engines' polygons are compared exactly."""

import random

import numpy as np
import pytest

import gauss

mujoco = pytest.importorskip("mujoco")

from mesh_polygons import FLAT, normal_rule, polygons  # noqa: E402

# a box whose bottom face (z = 0) has a ninth corner pushed out from the edge y = 0 by d: the
# sliver triangle (0, 1, 8) has corners nearly in a line; faces outward
FACES = [(0, 1, 8), (0, 2, 1), (0, 3, 2), (4, 5, 6), (4, 6, 7), (0, 1, 5), (0, 5, 4), (1, 2, 6),
         (1, 6, 5), (2, 3, 7), (2, 7, 6), (3, 0, 4), (3, 4, 7)]


def box_xml(d, size=(1, 1, 1), scale=None, faces=FACES, extra=()):
    sx, sy, sz = size
    v = [(0, 0, 0), (sx, 0, 0), (sx, sy, 0), (0, sy, 0), (0, 0, sz), (sx, 0, sz), (sx, sy, sz),
         (0, sy, sz), (sx / 2, -d, 0)] + list(extra)
    vs = " ".join("%.17g" % x for row in v for x in row)
    fs = " ".join("%d %d %d" % f for f in faces)
    sc = "" if scale is None else ' scale="%.17g %.17g %.17g"' % tuple(scale)
    # no collision: the polygons come from the mesh's own triangles, not from its convex hull
    return (f'<mujoco><asset><mesh name="m" vertex="{vs}" face="{fs}"{sc}/></asset><worldbody>'
            '<body><freejoint/><geom type="mesh" mesh="m" contype="0" conaffinity="0"/></body>'
            '</worldbody></mujoco>')


def builtin_xml(builtin, params, scale):
    return (f'<mujoco><asset><mesh name="m" builtin="{builtin}" params="{params}" scale="{scale}"/>'
            '</asset><worldbody><body><freejoint/><geom type="mesh" mesh="m"/></body></worldbody>'
            '</mujoco>')






def check(xml):
    """polygons equal in both engines, each engine's normals bit for bit by the rule in its own
    frame; returns MuJoCo's polygons"""
    spec = mujoco.MjSpec.from_string(xml)
    mm = spec.compile()
    gm = gauss.Model.from_xml_string(xml)
    given = np.array(spec.meshes[0].uservert, float).reshape(-1, 3) * np.asarray(spec.meshes[0].scale)
    P, Q = polygons(mm, 0), polygons(gm, 0)
    assert [p[0] for p in P] == [q[0] for q in Q]
    for (corners, mn), (_, gn) in zip(P, Q):
        assert np.array_equal(mn, normal_rule(mm, 0, given, corners, False), equal_nan=True), corners
        assert np.array_equal(gn, normal_rule(gm, 0, given, corners, True)), corners
        assert np.all(np.isfinite(gn))
    return P


@pytest.mark.parametrize("d", [2.0 ** -47, 5e-15, 1e-15, 1e-16, 2e-14, 1e-12])
@pytest.mark.parametrize("size,scale", [((1, 1, 1), None), ((1, 2, 4), None), ((1, 0.5, 2), None),
                                        ((1, 1, 1), (2, 0.5, 3)), ((1, 1, 1), (0.3, 0.3, 0.3))])
def test_first_corners_nearly_in_a_line(d, size, scale):
    P = check(box_xml(d, size, scale))
    lengths = [np.linalg.norm(n) for _, n in P]
    sx, sy, _ = (1, 1, 1) if scale is None else scale
    # the sliver's |c| decides, the cases well away from the switch: as given (before scale) for
    # the grouping, in the inertial frame (after scale) for the normal of the polygon starting
    # with its corners
    assert ((0, 1, 8) in [p[0] for p in P]) == (d * size[0] < FLAT)
    if d * size[0] * sx * sy < FLAT:  # (1 / |c|, 0, 0), not unit
        assert max(lengths) > 1e13
    else:
        assert max(abs(x - 1) for x in lengths) < 1e-15


@pytest.mark.parametrize("size", [(1, 1, 1), (2, 1, 0.5)])
def test_first_corners_exactly_in_a_line(size):
    """d small enough that the sliver's corners stay in a line in the inertial frame: MuJoCo's
    normal is (inf, nan, nan), gauss's the finite (1, 0, 0)"""
    P = check(box_xml(2.0 ** -60, size))
    assert (0, 1, 8) in [p[0] for p in P]
    assert any(n[0] == np.inf for _, n in P)


@pytest.mark.parametrize("builtin,params,scale", [("supersphere", "30 .4 2", ".7 .7 .7"),
                                                  ("supersphere", "30 2 2", ".7 .7 .7"),
                                                  ("supertorus", "30 .5 2 .4", ".5 .5 .5")])
def test_builtin_meshes(builtin, params, scale):
    """MuJoCo's makemesh.xml meshes ss2, ss8 and st6, whose normals were up to 3e-8 apart"""
    check(builtin_xml(builtin, params, scale))


def test_triangles_of_no_area():
    """triangles whose corners are exactly in a line as given (|c| = 0, normal (inf, nan, nan)
    in the grouping's map, whose order then compares nan): polygons as MuJoCo's in 40 orders of
    the faces, with one or two such triangles (gauss with (1, 0, 0) there: 48 of 60 differed)"""
    rng = random.Random(1)
    for trial in range(40):
        faces = FACES + ([(7, 9, 6)] if trial % 2 else [])  # a second one on the top's edge
        rng.shuffle(faces)
        faces = [f if rng.random() < 0.5 else (f[1], f[2], f[0]) for f in faces]
        P = check(box_xml(0, faces=faces, extra=[(0.5, 1, 1)]))
        assert any(set(p[0]) == {0, 1, 8} for p in P)
