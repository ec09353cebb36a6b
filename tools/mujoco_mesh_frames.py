"""Mesh mass frames against MuJoCo 3.3.7: for every mesh of the MJCF files of a MuJoCo checkout
(model/ and test/*/testdata/, as tools/mujoco_sweep.py walks them) that both engines load with
the same number of meshes, whether mesh_pos and mesh_quat agree (to 1e-9, and to the bit), and
for those whose frame differs the principal moments, which show whether the frame is decided at
all (a repeated moment leaves any frame turned about its axis principal).

    PYTHONPATH=python GAUSS_LIBRARY=build/release/libgauss.so .venv/bin/python \\
        tools/mujoco_mesh_frames.py /path/to/mujoco

The mujoco Python package is only the reference here, as in tools/mujoco_sweep.py.
"""
import os
import sys
from collections import Counter

import numpy as np

import mujoco

import gauss

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mujoco_sweep import mesh_models  # noqa: E402


def moments(mm, i):
    """the principal moments (unit density) of MuJoCo's mesh i, from a body holding it alone: its
    compiled vertices are stored in single precision, so moments equal on paper come apart by
    ~1e-7 of their size"""
    spec = mujoco.MjSpec()
    mesh = spec.add_mesh()
    mesh.name = "m"
    a, n = mm.mesh_vertadr[i], mm.mesh_vertnum[i]
    mesh.uservert = mm.mesh_vert[a:a + n].ravel().tolist()
    fa, fn = mm.mesh_faceadr[i], mm.mesh_facenum[i]
    mesh.userface = mm.mesh_face[fa:fa + fn].ravel().tolist()
    body = spec.worldbody.add_body()
    body.add_freejoint()
    body.add_geom(type=mujoco.mjtGeom.mjGEOM_MESH, meshname="m")
    return np.array(spec.compile().body_inertia[1])


def main():
    root = sys.argv[1]
    tally, differ = Counter(), []
    for path, mm, gm in mesh_models(root):
        for i in range(mm.nmesh):
            mp, mq = np.array(mm.mesh_pos[i]), np.array(mm.mesh_quat[i])
            gp, gq = np.array(gm.mesh_pos[i]), np.array(gm.mesh_quat[i])
            dq = min(np.abs(mq - gq).max(), np.abs(mq + gq).max())
            tally["meshes"] += 1
            tally["mesh_pos to 1e-9"] += bool(np.abs(mp - gp).max() <= 1e-9)
            tally["mesh_pos to the bit"] += bool(np.array_equal(mp, gp))
            tally["mesh_quat to 1e-9"] += bool(dq <= 1e-9)
            tally["mesh_quat to the bit"] += bool(np.array_equal(mq, gq) or np.array_equal(mq, -gq))
            if dq > 1e-9:
                differ.append((os.path.relpath(path, root), i, dq, moments(mm, i)))
    for key in ("meshes", "mesh_pos to 1e-9", "mesh_pos to the bit", "mesh_quat to 1e-9",
                "mesh_quat to the bit"):
        print(f"{key:22s} {tally[key]}")
    for path, i, dq, mom in differ:
        print(f"{path} mesh {i}: mesh_quat differs by {dq:.2e}; principal moments {mom}")


if __name__ == "__main__":
    main()
