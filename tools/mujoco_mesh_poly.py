"""Mesh polygons against MuJoCo 3.3.7: for every mesh of the MJCF files of a MuJoCo checkout
(model/ and test/*/testdata/, as tools/mujoco_sweep.py walks them) that both engines load with
the same meshes, whether its compiled polygons (mesh_polynum, mesh_polyvertnum, mesh_polyvert,
mesh_polymapnum, mesh_polymap exactly, mesh_polynormal to --tol, 1e-9 unless given) equal
MuJoCo's; for those that differ, whether only the normals do (by how much: the mesh's frame, or
three nearly collinear first corners), or the number of polygons each engine makes.

    PYTHONPATH=python GAUSS_LIBRARY=build/release/libgauss.so .venv/bin/python \\
        tools/mujoco_mesh_poly.py /path/to/mujoco [-v] [--tol 0]
    ... tools/mujoco_mesh_poly.py /path/to/mujoco --rule [-v]

--rule checks the normal rule of src/model/mesh_poly.c against MuJoCo alone, in MuJoCo's own
frame (mesh_pos, mesh_quat): for every mesh whose given vertices can be read back (inline or
builtin ones from the compiled spec, OBJ files parsed here; no refpos/refquat), whether each
stored normal equals, to the bit, the rule applied to its polygon's first three corners.

Each such line also says how far mesh_pos and mesh_quat are apart: where they are equal to the
bit, so are the normals (src/model/mesh_poly.c). A normal MuJoCo stores as (inf, nan, nan) (its first three corners exactly in a line in the
mesh's frame) counts as equal to gauss's finite stand-in (1, 0, 0): see src/model/mesh_poly.c.

The mujoco Python package is only the reference here, as in tools/mujoco_sweep.py. One file
(test/user/testdata/rigid_flex.xml, a mesh no geom collides with) differs only in the sweep:
MuJoCo's asset cache hands it the hull polygons of the same file loaded earlier by a colliding
geom; loaded alone, both engines make its polygons from its triangles, alike.
"""
import os
import sys
from collections import Counter

import numpy as np

import mujoco

import gauss

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mujoco_sweep import mesh_models  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "python"))
from mesh_polygons import normal_rule, polygons  # noqa: E402




def maps(m, i):
    v0, nv = m.mesh_vertadr[i], m.mesh_vertnum[i]
    return [tuple(int(x) for x in m.mesh_polymap[m.mesh_polymapadr[v]:m.mesh_polymapadr[v] + m.mesh_polymapnum[v]])
            for v in range(v0, v0 + nv)]


def gap(a, b):
    """largest difference of two normals; MuJoCo's (inf, nan, nan) against gauss's (1, 0, 0) is 0"""
    if not np.all(np.isfinite(a)):
        return 0.0 if (a[0] == np.inf and np.all(b == [1, 0, 0])) else np.inf
    return float(np.abs(a - b).max())


def verdict(mm, gm, i, tol):
    """'equal', 'equal as sets' (the same polygons in another order), or what differs"""
    P, Q = polygons(mm, i), polygons(gm, i)
    if len(P) != len(Q):
        return f"count {len(P)} vs {len(Q)}"
    same = all(p[0] == q[0] and gap(p[1], q[1]) <= tol for p, q in zip(P, Q))
    if same and maps(mm, i) == maps(gm, i):
        return "equal"
    if all(p[0] == q[0] for p, q in zip(P, Q)) and maps(mm, i) == maps(gm, i):
        most = max(gap(p[1], q[1]) for p, q in zip(P, Q))
        # normals of nearly collinear first corners follow the frame's last bits
        frame = max(float(np.abs(mm.mesh_pos[i] - gm.mesh_pos[i]).max()),
                    float(np.abs(mm.mesh_quat[i] - gm.mesh_quat[i]).max()))
        return f"same polygons, normals apart by {most:.1e} (mesh_pos/quat apart by {frame:.1e})"
    if {p[0] for p in P} == {q[0] for q in Q}:
        return "equal as sets"
    if {frozenset(p[0]) for p in P} == {frozenset(q[0]) for q in Q}:
        return "same corners, other start/order"
    return "other polygons"




def given_vertices(spec, me, path):
    """a mesh's vertices as given (float, as MJCF reads them) times its scale, or None"""
    v = np.array(me.uservert, float).reshape(-1, 3)
    if not len(v) and me.file.lower().endswith(".obj"):
        here = os.path.dirname(path)
        name = os.path.join(here, spec.meshdir or "", me.file)
        rows = []
        with open(name if os.path.exists(name) else os.path.join(here, me.file)) as f:
            for line in f:
                if line.startswith("v "):
                    rows.append([np.float32(x) for x in line.split()[1:4]])
        v = np.array(rows, np.float32).astype(float)
    return v * np.asarray(me.scale) if len(v) else None


def check_rule(root, verbose):
    from mujoco_sweep import xml_files

    tally = Counter()
    for path in xml_files(root):
        try:
            spec = mujoco.MjSpec.from_file(path)
            m = spec.compile()
        except Exception:
            continue
        for i, me in enumerate(spec.meshes):
            if not m.mesh_polynum[i]:
                continue
            try:
                given = given_vertices(spec, me, path)
            except OSError:
                given = None
            if (given is None or len(given) != m.mesh_vertnum[i] or np.any(me.refpos != 0)
                    or np.any(me.refquat != [1, 0, 0, 0])):
                tally["vertices not read back"] += 1
                continue
            bad = 0
            for corners, normal in polygons(m, i):
                bad += not np.array_equal(normal, normal_rule(m, i, given, corners, False), equal_nan=True)
            tally["rule differs" if bad else "rule equal to the bit"] += 1
            if verbose and bad:
                print(f"{os.path.relpath(path, root)} mesh {i} ({me.name}): {bad} normals differ")
    for key, n in sorted(tally.items(), key=lambda kv: -kv[1]):
        print(f"{key:34s} {n}")


def main():
    root, verbose = sys.argv[1], "-v" in sys.argv
    if "--rule" in sys.argv:
        return check_rule(root, verbose)
    tol = float(sys.argv[sys.argv.index("--tol") + 1]) if "--tol" in sys.argv else 1e-9
    tally = Counter()
    for path, mm, gm in mesh_models(root):
        if not np.array_equal(mm.mesh_vertnum, gm.mesh_vertnum):
            continue
        for i in range(mm.nmesh):
            v = verdict(mm, gm, i, tol)
            tally["meshes"] += 1
            tally[v.split(" ")[0] if v.startswith("count") else v.split(" apart")[0]] += 1
            if verbose and v != "equal":
                name = mujoco.mj_id2name(mm, mujoco.mjtObj.mjOBJ_MESH, i)
                print(f"{os.path.relpath(path, root)} mesh {i} ({name}, {mm.mesh_vertnum[i]} vertices): {v}")
    for key, n in sorted(tally.items(), key=lambda kv: -kv[1]):
        print(f"{key:34s} {n}")


if __name__ == "__main__":
    main()
