"""Nearly coplanar hull triangles: how MuJoCo 3.3.7 groups them into polygons against gauss, on
two small shapes (a pyramid on a square whose apex rises 1e-5 above the base, and a roof of three
strips 1e-3 rad apart), turned about the coordinate axes and a general one, vertices in 20 random
orders each; then, for the pyramid as built, MuJoCo's top polygons for every order of the hull's
top triangles that the 720 vertex orders produce (labels a..d the base corners, T the apex).

    PYTHONPATH=python GAUSS_LIBRARY=build/release/libgauss.so .venv/bin/python \\
        tools/mujoco_mesh_poly_near.py

The mujoco Python package is only the reference here, as in tools/mujoco_mesh_poly.py.
"""
import itertools
from collections import Counter, defaultdict

import numpy as np

import mujoco

import gauss


def mesh_xml(vert):
    v = " ".join("%.17g" % x for x in np.ravel(vert))
    return (f'<mujoco><asset><mesh name="m" vertex="{v}"/></asset>'
            f'<worldbody><geom type="mesh" mesh="m"/></worldbody></mujoco>')


def polys(m):
    return [tuple(int(x) for x in m.mesh_polyvert[m.mesh_polyvertadr[p]:m.mesh_polyvertadr[p] + m.mesh_polyvertnum[p]])
            for p in range(m.nmeshpoly)]


def hull_faces(m):
    """the hull's triangles in the order of MuJoCo's mesh_graph"""
    g = m.mesh_graph
    nv, nf = g[0], g[1]
    off = 2 + 3 * nv + 3 * nf
    return np.array(g[off:off + 3 * nf]).reshape(-1, 3)


def turned(v, axis, angle):
    k = np.asarray(axis, float) / np.linalg.norm(axis)
    K = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.asarray(v, float) @ (np.eye(3) + np.sin(angle) * K + (1 - np.cos(angle)) * K @ K).T


def main():
    a = 1e-3
    roof = [[np.sin(k * a) * 3, y, np.cos(k * a) * 3] for k in (-1, 0, 1) for y in (-1, 1)]
    roof += [[x * 0.5, y, -1] for x in (-1, 1) for y in (-1, 1)]
    pyramid = [[x, y, 0] for x in (-1, 1) for y in (-1, 1)] + [[0, 0, 1e-5], [0, 0, -1]]
    rng = np.random.default_rng(9)
    print("shape    axis       angle  same  (MuJoCo, gauss) polygon counts")
    for name, shape in (("roof", roof), ("pyramid", pyramid)):
        for axis in ([0, 0, 1], [1, 0, 0], [0, 1, 0], [1, 2, 3]):
            for angle in (0, 0.3, 1.0):
                same, counts = 0, set()
                for _ in range(20):
                    xml = mesh_xml(turned(shape, axis, angle)[rng.permutation(len(shape))])
                    mm, gm = mujoco.MjModel.from_xml_string(xml), gauss.Model.from_xml_string(xml)
                    same += sorted(polys(mm)) == sorted(polys(gm))
                    counts.add((mm.nmeshpoly, gm.nmeshpoly))
                print(f"{name:8s} {str(axis):10s} {angle:5.1f}  {same:2d}/20 {sorted(counts)}")
    names = "abcdTB"
    outcome = defaultdict(Counter)
    pts = np.array(pyramid)
    for p in itertools.permutations(range(6)):
        p = np.array(p)
        mm = mujoco.MjModel.from_xml_string(mesh_xml(pts[p]))
        label = lambda idx: "".join(names[int(p[x])] for x in idx)  # noqa: E731
        top = tuple(label(f) for f in hull_faces(mm) if "T" in label(f))
        outcome[top][tuple(sorted(label(q) for q in polys(mm) if "B" not in label(q)))] += 1
    print("\npyramid as built: hull's top triangles in order -> MuJoCo's top polygons (vertex orders)")
    for top, res in outcome.items():
        for got, n in res.items():
            print(" ".join(top), "->", " ".join(got), f"({n})")


if __name__ == "__main__":
    main()
