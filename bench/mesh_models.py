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

# the default classes of both models: visual meshes collide with nothing, collision meshes do
DEFAULTS = """  <default>
    <default class="visual"><geom type="mesh" contype="0" conaffinity="0" group="2"/></default>
    <default class="collision"><geom type="mesh" group="3"/></default>
  </default>
"""


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
{DEFAULTS}  <asset>
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


# ---- two arms on a table, in the style of a bimanual mesh robot (many meshes, no contacts) ----

# (name, shape) of the two-arm model's meshes: 1e3 to 1e4 triangles each, elongated like robot
# links, so that bounding spheres overlap where the shapes themselves stay apart
TWO_ARM_MESHES = [
    ("base", lambda: rounded_box(56, half=(0.06, 0.06, 0.03))),
    ("plate", lambda: rounded_box(40, half=(0.05, 0.02, 0.01))),
    ("shoulder", lambda: lumpy_sphere(48, 24, r=(0.035, 0.035, 0.04))),
    ("bar", lambda: rounded_box(64, half=(0.018, 0.018, 0.1))),
    ("motor", lambda: torus(40, 50, R=0.025, r=0.012)),
    ("wrist", lambda: lumpy_sphere(40, 20, r=(0.025, 0.025, 0.03))),
    ("palm", lambda: rounded_box(48, half=(0.03, 0.045, 0.015))),
    ("finger", lambda: rounded_box(36, half=(0.006, 0.01, 0.035))),
    ("pad", lambda: lumpy_sphere(36, 18, r=(0.004, 0.008, 0.012))),
    ("rail", lambda: rounded_box(64, half=(0.01, 0.02, 0.6))),
    ("post", lambda: rounded_box(64, half=(0.01, 0.02, 0.35))),
    ("strut", lambda: rounded_box(48, half=(0.01, 0.02, 0.12))),
    ("camera", lambda: lumpy_sphere(40, 20, r=(0.02, 0.045, 0.015))),
]

# the frame around the table (world geoms that collide, as in robot cells whose extrusions are
# collision meshes): long bars whose bounding spheres take in much of the arms
FRAME = [("rail", f"0 {y} 0.75", "0 90 0") for y in (-0.42, 0.42)] + \
        [("rail", f"{x} 0 0.75", "90 0 0") for x in (-0.62, 0.62)] + \
        [("post", f"{x} {y} 0.38", "0 0 0") for x in (-0.62, 0.62) for y in (-0.42, 0.42)] + \
        [("strut", f"{x} {y} 0.1", "45 0 0") for x in (-0.45, 0.45) for y in (-0.3, 0.3)] + \
        [("rail", "0 -0.42 0.03", "0 90 0"), ("camera", "0 -0.38 0.72", "0 0 0"),
         ("camera", "0 0.38 0.72", "0 0 0")]

# (body, parent offset, joint axis or None, collision meshes with their offsets, home angle)
ARM = [
    ("base", "0 0 0.03", None, [("base", "0 0 0"), ("plate", "0 0 0.035")], 0),
    ("shoulder", "0 0 0.07", "0 0 1", [("shoulder", "0 0 0")], 0),
    ("upper", "0 0 0.04", "0 1 0", [("bar", "0 0 0.1"), ("motor", "0 0 0.2")], -1.1),
    ("fore", "0 0 0.2", "0 1 0", [("bar", "0 0 0.1"), ("motor", "0 0 0.2")], 2.0),
    ("wrist1", "0 0 0.2", "0 1 0", [("wrist", "0 0 0.02")], 0.6),
    ("wrist2", "0 0 0.05", "0 0 1", [("wrist", "0 0 0.02"), ("motor", "0 0 0.05")], 0),
    ("gripper", "0 0 0.05", "1 0 0", [("palm", "0 0 0.02")], 0),
]
FINGERS = [("finger_l", "0 0.03 0.07"), ("finger_r", "0 -0.03 0.07")]


def write_two_arm_meshes(out):
    for name, make in TWO_ARM_MESHES:
        path = os.path.join(out, f"two_arm_{name}.stl")
        if not os.path.exists(path):
            write_stl_binary(path, *make())


def write_two_arm(out):
    """two 7-joint arms with a two-finger gripper each, facing each other over a table; collision
    meshes (contype 1) and visual copies (contype 0), excludes between neighbouring links as robot
    descriptions list them, position servos around a folded home pose that keeps all shapes apart"""
    os.makedirs(out, exist_ok=True)
    write_two_arm_meshes(out)
    assets = "".join(f'    <mesh name="{n}" file="two_arm_{n}.stl"/>\n' for n, _ in TWO_ARM_MESHES)
    body, excl, acts, home = "", "", "", []
    for side, x, yaw in (("left", -0.32, "0 0 0"), ("right", 0.32, "0 0 180")):
        ind = "    "
        names = []
        for k, (name, pos, axis, geoms, q0) in enumerate(ARM):
            bname = f"{side}_{name}"
            names.append(bname)
            extra = f' euler="{yaw}"' if k == 0 else ""
            if k == 0:
                pos = f"{x} 0 0.03"
            body += f'{ind}<body name="{bname}" pos="{pos}"{extra}>\n'
            if axis:
                body += (f'{ind}  <joint name="{bname}" axis="{axis}" range="-3 3"/>\n'
                         f'{ind}  <inertial pos="0 0 0.05" mass="0.4" diaginertia="2e-3 2e-3 5e-4"/>\n')
                acts += (f'    <position joint="{bname}" kp="30" ctrlrange="{q0 - 0.15:.2f} '
                         f'{q0 + 0.15:.2f}"/>\n')
                home.append(q0)
            for mesh, gpos in geoms:
                body += (f'{ind}  <geom class="visual" mesh="{mesh}" pos="{gpos}"/>\n'
                         f'{ind}  <geom class="collision" mesh="{mesh}" pos="{gpos}"/>\n')
            ind += "  "
        for fname, fpos in FINGERS:
            bname = f"{side}_{fname}"
            slide = "0 1 0" if fname.endswith("l") else "0 -1 0"
            body += (f'{ind}<body name="{bname}" pos="{fpos}">\n'
                     f'{ind}  <joint name="{bname}" type="slide" axis="{slide}" range="-0.01 0.02"/>\n'
                     f'{ind}  <inertial pos="0 0 0.03" mass="0.05" diaginertia="2e-5 2e-5 1e-5"/>\n'
                     f'{ind}  <geom class="visual" mesh="finger"/>\n'
                     f'{ind}  <geom class="collision" mesh="finger"/>\n'
                     f'{ind}  <geom class="collision" mesh="pad" pos="0 {-0.012 if fname.endswith("l") else 0.012} 0.025"/>\n'
                     f'{ind}</body>\n')
            acts += f'    <position joint="{bname}" kp="50" ctrlrange="0 0.01"/>\n'
            home.append(0.005)
        for k in reversed(range(len(ARM))):
            body += "    " + "  " * k + "</body>\n"
        # the base (welded to the table) with the shoulder, links two apart, and the fingers with the wrist, as bimanual descriptions list them
        pairs = [(names[0], names[1])] + [(names[i], names[i + 2]) for i in range(len(names) - 2)]
        pairs += [(f"{side}_finger_l", f"{side}_finger_r"), (f"{side}_wrist2", f"{side}_finger_l"),
                  (f"{side}_wrist2", f"{side}_finger_r")]
        excl += "".join(f'    <exclude body1="{a}" body2="{b}"/>\n' for a, b in pairs)
    qpos = " ".join(f"{q:g}" for q in home)
    frame = "".join(f'    <geom class="collision" mesh="{n}" pos="{p}" euler="{e}"/>\n' for n, p, e in FRAME)
    xml = f"""<mujoco model="two_arm">
  <compiler autolimits="true"/>
  <option timestep="0.002"/>
{DEFAULTS}  <asset>
{assets}  </asset>
  <worldbody>
    <geom name="table" type="box" size="0.6 0.4 0.02" pos="0 0 -0.02"/>
    <geom name="bin" type="box" size="0.08 0.08 0.03" pos="0 0.25 0.03"/>
{frame}{body}  </worldbody>
  <contact>
{excl}  </contact>
  <actuator>
{acts}  </actuator>
  <keyframe>
    <key name="home" qpos="{qpos}" ctrl="{qpos}"/>
  </keyframe>
</mujoco>
"""
    path = os.path.join(out, "two_arm.xml")
    with open(path, "w") as f:
        f.write(xml)
    return path


# ---- a pile of meshes in contact (many touching mesh pairs: the narrow phase's expansion) ----

PILE_MESHES = ["shoulder", "motor", "wrist", "palm", "camera", "base", "plate", "finger"]


def write_mesh_pile(out, n=24, settle=1.5):
    """n free bodies, each one collision mesh of the two-arm set with a 1 mm margin (contacts
    made before the shapes touch, as robot models often ask), in a walled box; the first
    keyframe is the pile after `settle` seconds of falling in MuJoCo, so that a run from it times
    a resting pile (most pairs touching) rather than a fall"""
    os.makedirs(out, exist_ok=True)
    write_two_arm_meshes(out)
    assets = "".join(f'    <mesh name="{n_}" file="two_arm_{n_}.stl"/>\n' for n_ in PILE_MESHES)
    rng = np.random.default_rng(1)
    bodies = ""
    for k in range(n):
        x, y, z = -0.09 + 0.09 * (k % 3), -0.09 + 0.09 * (k // 3 % 3), 0.06 + 0.08 * (k // 9)
        q = rng.normal(size=4)
        q /= np.linalg.norm(q)
        bodies += (f'    <body name="b{k}" pos="{x:.3f} {y:.3f} {z:.3f}" '
                   f'quat="{q[0]:.4f} {q[1]:.4f} {q[2]:.4f} {q[3]:.4f}">\n'
                   f'      <freejoint/>\n'
                   f'      <geom type="mesh" mesh="{PILE_MESHES[k % len(PILE_MESHES)]}" density="800" margin="0.001"/>\n'
                   f'    </body>\n')
    walls = "".join(f'    <geom type="box" size="{sx} {sy} 0.1" pos="{px} {py} 0.1"/>\n'
                    for sx, sy, px, py in ((0.01, 0.16, -0.16, 0), (0.01, 0.16, 0.16, 0),
                                           (0.16, 0.01, 0, -0.16), (0.16, 0.01, 0, 0.16)))
    xml = f"""<mujoco model="mesh_pile">
  <option timestep="0.002"/>
  <asset>
{assets}  </asset>
  <worldbody>
    <geom type="plane" size="0.3 0.3 0.01"/>
{walls}{bodies}  </worldbody>
</mujoco>
"""
    path = os.path.join(out, "mesh_pile.xml")
    if os.path.exists(path):
        return path
    import mujoco  # the settling run only (the pile's resting pose), not a reference

    m = mujoco.MjModel.from_xml_string(xml.replace('file="', f'file="{out}/'))
    d = mujoco.MjData(m)
    mujoco.mj_step(m, d, nstep=int(settle / m.opt.timestep))
    qpos = " ".join(f"{v:.9g}" for v in d.qpos)
    xml = xml.replace("</mujoco>", f'  <keyframe>\n    <key qpos="{qpos}"/>\n  </keyframe>\n</mujoco>')
    with open(path, "w") as f:
        f.write(xml)
    return path
