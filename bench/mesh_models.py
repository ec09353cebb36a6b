"""Mesh-heavy models for the load benchmark: a small arm whose links are meshes of the size robot
descriptions ship (10^4 to 10^5 triangles per file), written into a folder as binary STL and
Wavefront OBJ files (MuJoCo reads no ASCII STL): a shape per link (a lumpy ellipsoid, a torus, a
rounded box), each tessellated finely. Each mesh is used twice, as in robot descriptions: by a visual geom (no
contacts) and by a collision geom; one MJCF file and one URDF file name them.

    .venv/bin/python bench/mesh_models.py OUTDIR    (prints the paths of the models it wrote)
"""
import math
import os
import struct
import sys

import numpy as np


def lumpy_sphere(nu, nv, r=(0.05, 0.04, 0.06)):
    """vertices and triangles of a UV sphere with a bumpy radius (a non-trivial convex hull)"""
    verts, tris = [], []
    for i in range(nv + 1):
        th = math.pi * i / nv
        for j in range(nu):
            ph = 2 * math.pi * j / nu
            bump = 1 + 0.03 * math.sin(5 * ph) * math.sin(3 * th)
            verts.append((r[0] * bump * math.sin(th) * math.cos(ph),
                          r[1] * bump * math.sin(th) * math.sin(ph), r[2] * bump * math.cos(th)))
    for i in range(nv):
        for j in range(nu):
            a, b = i * nu + j, i * nu + (j + 1) % nu
            c, d = a + nu, b + nu
            if i > 0:
                tris.append((a, b, d))
            if i < nv - 1:
                tris.append((a, d, c))
    return verts, tris


def torus(nu, nv, R=0.05, r=0.015):
    verts, tris = [], []
    for i in range(nv):
        th = 2 * math.pi * i / nv
        for j in range(nu):
            ph = 2 * math.pi * j / nu
            verts.append(((R + r * math.cos(ph)) * math.cos(th), (R + r * math.cos(ph)) * math.sin(th),
                          r * math.sin(ph)))
    for i in range(nv):
        for j in range(nu):
            a, b = i * nu + j, i * nu + (j + 1) % nu
            c, d = ((i + 1) % nv) * nu + j, ((i + 1) % nv) * nu + (j + 1) % nu
            tris += [(a, c, d), (a, d, b)]
    return verts, tris


def rounded_box(n, half=(0.03, 0.02, 0.08), p=6):
    """a superellipsoid |x|^p + |y|^p + |z|^p = 1 scaled by half: flat-ish faces, many vertices"""
    verts, tris = lumpy_sphere(n, n // 2)
    out = []
    for x, y, z in verts:
        s = (abs(x) ** p + abs(y) ** p + abs(z) ** p) ** (1 / p)
        out.append((half[0] * x / s, half[1] * y / s, half[2] * z / s) if s > 0 else (0, 0, 0))
    return out, tris


def write_stl_binary(path, verts, tris):
    """binary STL: per triangle its normal, three corners and a zero attribute word"""
    v = np.asarray(verts, dtype=np.float64)[np.asarray(tris)]  # (ntri, 3, 3)
    n = np.cross(v[:, 1] - v[:, 0], v[:, 2] - v[:, 0])
    n /= np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-300)
    rec = np.zeros(len(v), dtype=[("n", "<f4", 3), ("v", "<f4", 9), ("attr", "<u2")])
    rec["n"], rec["v"] = n, v.reshape(-1, 9)
    with open(path, "wb") as f:
        f.write(b"bench mesh".ljust(80, b" "))
        f.write(struct.pack("<I", len(v)))
        f.write(rec.tobytes())


def write_obj(path, verts, tris):
    with open(path, "w") as f:
        f.write("".join("v %.7f %.7f %.7f\n" % v for v in verts))
        f.write("".join("f %d %d %d\n" % (t[0] + 1, t[1] + 1, t[2] + 1) for t in tris))


# (link, shape, file): 2e4 to 1e5 triangles per file
LINKS = [
    ("base", lambda: lumpy_sphere(320, 160), "base.stl"),
    ("shoulder", lambda: torus(200, 250), "shoulder.stl"),
    ("upper", lambda: rounded_box(240), "upper.obj"),
    ("lower", lambda: lumpy_sphere(160, 80), "lower.stl"),
    ("wrist", lambda: torus(100, 100), "wrist.stl"),
    ("gripper", lambda: rounded_box(140), "gripper.stl"),
]


def write_meshes(out):
    for _, make, fname in LINKS:
        path = os.path.join(out, fname)
        if os.path.exists(path):
            continue
        verts, tris = make()
        if fname.endswith(".obj"):
            write_obj(path, verts, tris)
        else:
            write_stl_binary(path, verts, tris)


def write_mjcf(out):
    assets = "".join(f'    <mesh name="{n}" file="{f}"/>\n' for n, _, f in LINKS)
    body = ""
    for k, (n, _, _) in enumerate(LINKS):
        body += (f'{"  " * k}    <body name="{n}" pos="0 0 {0.1 if k else 0}">\n'
                 + (f'{"  " * k}      <joint name="j{k}" axis="{"0 0 1" if k % 2 == 0 else "0 1 0"}"/>\n' if k else "")
                 + f'{"  " * k}      <geom class="visual" mesh="{n}"/>\n'
                 + f'{"  " * k}      <geom class="collision" mesh="{n}"/>\n')
    body += "".join(f'{"  " * k}    </body>\n' for k in reversed(range(len(LINKS))))
    xml = f"""<mujoco model="mesh_arm">
  <default>
    <default class="visual"><geom type="mesh" contype="0" conaffinity="0" group="2"/></default>
    <default class="collision"><geom type="mesh" group="3"/></default>
  </default>
  <asset>
{assets}  </asset>
  <worldbody>
{body}  </worldbody>
  <actuator>
{"".join(f'    <motor joint="j{k}"/>{chr(10)}' for k in range(1, len(LINKS)))}  </actuator>
</mujoco>
"""
    path = os.path.join(out, "mesh_arm.xml")
    with open(path, "w") as f:
        f.write(xml)
    return path


def write_urdf(out):
    links = ""
    joints = ""
    for k, (n, _, f) in enumerate(LINKS):
        geom = f'<geometry><mesh filename="{f}"/></geometry>'
        links += (f'  <link name="{n}">\n    <inertial><mass value="0.5"/>'
                  '<inertia ixx="1e-3" ixy="0" ixz="0" iyy="1e-3" iyz="0" izz="1e-3"/></inertial>\n'
                  f'    <visual>{geom}</visual>\n    <collision>{geom}</collision>\n  </link>\n')
        if k:
            joints += (f'  <joint name="j{k}" type="revolute"><parent link="{LINKS[k - 1][0]}"/>'
                       f'<child link="{n}"/><origin xyz="0 0 0.1"/><axis xyz="0 {k % 2} {1 - k % 2}"/>'
                       '<limit lower="-2" upper="2" effort="10" velocity="3"/></joint>\n')
    path = os.path.join(out, "mesh_arm.urdf")
    with open(path, "w") as f:
        f.write(f'<robot name="mesh_arm">\n{links}{joints}</robot>\n')
    return path


def write_models(out):
    """writes the meshes (once) and the two models into out; returns the models' paths"""
    os.makedirs(out, exist_ok=True)
    write_meshes(out)
    return [write_mjcf(out), write_urdf(out)]


if __name__ == "__main__":
    for p in write_models(sys.argv[1]):
        print(p)
