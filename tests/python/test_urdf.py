"""URDF files loaded by gauss and by MuJoCo 3.3.7 (whose mj_loadXML takes URDF): sizes, names,
every compiled field, the accelerations at random states and a short trajectory; every joint type,
geometry kind (a mesh file at two scales among them), materials, the <mujoco> extension; and the
bad files an importer meets, refused with file, line and element."""

import struct

import mujoco
import numpy as np
import pytest

import gauss
import oracle
from test_compiled import compare_models
from test_mjcf_all import compare as compare_all

NAMED = {mujoco.mjtObj.mjOBJ_BODY: "nbody", mujoco.mjtObj.mjOBJ_GEOM: "ngeom",
         mujoco.mjtObj.mjOBJ_JOINT: "njnt", mujoco.mjtObj.mjOBJ_MESH: "nmesh"}


def box_stl(path, half=(0.1, 0.05, 0.15), centre=(0.01, 0.0, 0.0)):
    """A binary STL of a box (12 triangles, outward normals)."""
    quads = [((-1, -1, -1), (-1, 1, -1), (1, 1, -1), (1, -1, -1)),
             ((-1, -1, 1), (1, -1, 1), (1, 1, 1), (-1, 1, 1)),
             ((-1, -1, -1), (1, -1, -1), (1, -1, 1), (-1, -1, 1)),
             ((-1, 1, -1), (-1, 1, 1), (1, 1, 1), (1, 1, -1)),
             ((-1, -1, -1), (-1, -1, 1), (-1, 1, 1), (-1, 1, -1)),
             ((1, -1, -1), (1, 1, -1), (1, 1, 1), (1, -1, 1))]
    tris = [t for a, b, c, d in quads for t in ((a, b, c), (a, c, d))]
    with open(path, "wb") as f:
        f.write(b"\0" * 80 + struct.pack("<I", len(tris)))
        for t in tris:
            f.write(struct.pack("<3f", 0, 0, 0))
            for p in t:
                f.write(struct.pack("<3f", *(centre[i] + half[i] * p[i] for i in range(3))))
            f.write(b"\0\0")


INERTIA = '<inertia ixx="{0}" iyy="{0}" izz="{0}" ixy="0" ixz="0" iyz="0"/>'

# every joint type but floating and spherical (in EXTENSION), every geometry kind, a mesh at two
# scales (two assets), a material table and inline colours (the last visual's colour goes to the
# collision geoms after it), fixed joints turned by rpy (the fixed child fused into its parent)
KINDS = """<?xml version="1.0"?>
<robot name="kinds">
  <material name="blue"><color rgba="0 0 1 1"/></material>
  <link name="base">
    <inertial><origin xyz="0 0 0.1" rpy="0.1 0.2 0.3"/><mass value="2"/>
      <inertia ixx="0.1" ixy="0.01" ixz="0" iyy="0.2" iyz="0.02" izz="0.25"/></inertial>
    <visual name="bv"><geometry><box size="0.2 0.3 0.4"/></geometry><material name="blue"/></visual>
    <collision name="bc"><origin xyz="0 0 -0.4"/><geometry><box size="0.2 0.3 0.4"/></geometry></collision>
  </link>
  <link name="l1">
    <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.02"/></inertial>
    <collision><geometry><cylinder radius="0.05" length="0.3"/></geometry></collision>
    <visual><geometry><sphere radius="0.1"/></geometry><material name="red"><color rgba="1 0 0 1"/></material></visual>
    <collision name="ball"><origin rpy="0 1.57 0"/><geometry><sphere radius="0.06"/></geometry></collision>
  </link>
  <link name="l2"><inertial><mass value="0.5"/>""" + INERTIA.format(0.002) + """</inertial>
    <collision><geometry><mesh filename="meshes/box.stl" scale="1 2 1"/></geometry></collision></link>
  <link name="fixedlink"><inertial><origin xyz="0 0.02 0"/><mass value="0.3"/>""" + INERTIA.format(0.001) + """</inertial>
    <collision><geometry><box size=".05 .05 .05"/></geometry></collision></link>
  <link name="l3"><inertial><mass value="0.5"/>""" + INERTIA.format(0.002) + """</inertial>
    <collision><geometry><mesh filename="box.stl"/></geometry></collision></link>
  <link name="l4"><collision><geometry><capsule radius="0.02" length="0.1"/></geometry></collision></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/><origin xyz="0 0 0.3" rpy="0 0 0.5"/>
    <axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="5" velocity="2"/><dynamics damping="0.1" friction="0.2"/></joint>
  <joint name="j2" type="prismatic"><parent link="l1"/><child link="l2"/><origin xyz="0.1 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-.1" upper=".2" effort="-10"/></joint>
  <joint name="jf" type="fixed"><parent link="l1"/><child link="fixedlink"/><origin xyz="0 0.1 0" rpy="0.3 0 0"/></joint>
  <joint name="j3" type="continuous"><parent link="fixedlink"/><child link="l3"/><origin xyz="0 0.3 0.3"/><axis xyz="1 0 0"/>
    <limit effort="1" velocity="1"/></joint>
  <joint name="j4" type="planar"><parent link="l3"/><child link="l4"/><axis xyz="0 1 1"/><dynamics damping="0.3" friction="0.01"/>
    <limit lower="0.5" upper="-0.5"/></joint>
  <transmission name="t"><type>transmission_interface/SimpleTransmission</type></transmission>
</robot>"""

# the <mujoco> extension: compiler (meshdir, no strippath, visuals kept, nothing fused, inertia
# balanced, angle ignored: URDF is radians), option; a "world" link; floating and spherical joints;
# a repeated geom name (the second geom is unnamed, as in MuJoCo)
EXTENSION = """<?xml version="1.0"?>
<robot name="extension">
  <mujoco><compiler meshdir="assets" discardvisual="false" fusestatic="false" balanceinertia="true"
      strippath="false" angle="degree"/><option timestep="0.005" gravity="0 0 -9"/></mujoco>
  <link name="world"/>
  <link name="torso">
    <inertial><origin xyz="0.01 0.02 0.03"/><mass value="3"/>
      <inertia ixx="0.05" ixy="0.004" ixz="-0.003" iyy="0.06" iyz="0.002" izz="0.07"/></inertial>
    <visual name="tv"><origin xyz="0 0 0.05" rpy="0 0.5 0"/><geometry><box size=".1 .1 .1"/></geometry>
      <material name="grey"><color rgba=".5 .5 .5 1"/></material></visual>
    <collision name="tc"><geometry><capsule radius="0.05" length="0.2"/></geometry></collision>
  </link>
  <link name="arm">
    <inertial><mass value="1"/><inertia ixx="0.02" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.015"/></inertial>
    <visual><geometry><cylinder radius=".02" length=".3"/></geometry><material name="grey"/></visual>
    <collision name="tc"><geometry><sphere radius="0.03"/></geometry></collision>
  </link>
  <link name="hand"><inertial><mass value="0.2"/><inertia ixx="0.001" iyy="0.001" izz="0.0004" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><origin xyz="0 0 .1"/><geometry><mesh filename="part.stl"/></geometry></collision></link>
  <link name="tip"><collision><geometry><box size=".02 .02 .02"/></geometry></collision></link>
  <joint name="root" type="floating"><parent link="world"/><child link="torso"/><origin xyz="0 0 1"/></joint>
  <joint name="shoulder" type="spherical"><parent link="torso"/><child link="arm"/><origin xyz="0.1 0 0.2" rpy="0 0 1"/></joint>
  <joint name="wrist" type="revolute"><parent link="arm"/><child link="hand"/><origin xyz="0 0 -0.3"/><axis xyz="1 1 0"/>
    <limit lower="-0.5" upper="0.7" effort="3"/><dynamics damping="0.05"/></joint>
  <joint name="tipj" type="fixed"><parent link="hand"/><child link="tip"/><origin xyz="0 0.05 0.2" rpy="0.2 0.1 0"/></joint>
</robot>"""

# several roots (links no joint names as a child), each hung on the world in the order of the
# links, as MuJoCo 3.3.7's loader does; with fusestatic a static root is fused into the world and
# a floating joint below it becomes a free body of the world
ROOTS = """<?xml version="1.0"?>
<robot name="roots">
  <link name="b"><inertial><mass value="3"/>""" + INERTIA.format(0.1) + """</inertial>
    <collision><geometry><box size=".1 .2 .3"/></geometry></collision></link>
  <link name="c"><inertial><mass value="2"/>""" + INERTIA.format(0.05) + """</inertial>
    <collision><geometry><sphere radius=".1"/></geometry></collision></link>
  <link name="a"><inertial><mass value="1"/>""" + INERTIA.format(0.02) + """</inertial>
    <collision><geometry><sphere radius=".05"/></geometry></collision></link>
  <link name="d"><inertial><mass value="1"/>""" + INERTIA.format(0.02) + """</inertial>
    <collision><geometry><capsule radius=".03" length=".2"/></geometry></collision></link>
  <joint name="free" type="floating"><parent link="b"/><child link="c"/><origin xyz="1 0 .5"/></joint>
  <joint name="hinge" type="continuous"><parent link="a"/><child link="d"/><origin xyz="0 1 0" rpy="0 .3 0"/>
    <axis xyz="0 1 0"/><dynamics damping=".1"/></joint>
</robot>"""

# the same without fusing: the static roots stay bodies of the world; a slide body in one has
# MJCF's diagonal weights (1/mass) as in a body of the world
ROOTS_KEPT = """<?xml version="1.0"?>
<robot name="roots_kept"><mujoco><compiler fusestatic="false" discardvisual="false"/></mujoco>
  <link name="b"><inertial><mass value="3"/>""" + INERTIA.format(0.1) + """</inertial>
    <visual><geometry><sphere radius=".2"/></geometry></visual></link>
  <link name="c"><inertial><mass value="2"/>""" + INERTIA.format(0.05) + """</inertial>
    <collision><geometry><sphere radius=".1"/></geometry></collision></link>
  <link name="a"><inertial><mass value="1"/>""" + INERTIA.format(0.02) + """</inertial>
    <collision><geometry><box size=".1 .1 .1"/></geometry></collision></link>
  <link name="d"><inertial><mass value="1"/>""" + INERTIA.format(0.02) + """</inertial></link>
  <joint name="slide" type="prismatic"><parent link="b"/><child link="c"/><origin xyz="1 0 0" rpy="0 0 .4"/>
    <axis xyz="1 0 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="hinge" type="revolute"><parent link="a"/><child link="d"/><origin xyz="0 0 1" rpy="0 .3 0"/>
    <axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>"""

FILES = {"kinds": KINDS, "extension": EXTENSION, "roots": ROOTS, "roots_kept": ROOTS_KEPT}


@pytest.fixture(scope="module")
def urdf_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("urdf")
    (d / "meshes").mkdir()
    (d / "assets").mkdir()
    box_stl(d / "box.stl")          # strippath: meshes/box.stl is read as box.stl
    box_stl(d / "meshes" / "box.stl", half=(1, 1, 1))  # (never read)
    box_stl(d / "assets" / "part.stl", half=(0.03, 0.02, 0.05))
    for name, text in FILES.items():
        (d / f"{name}.urdf").write_text(text)
    return d


def set_state(m, d, qpos, qvel):
    d.qpos[:] = qpos
    d.qvel[:] = qvel


@pytest.mark.parametrize("name", sorted(FILES))
def test_urdf_compiles_like_mujoco(urdf_dir, name):
    path = str(urdf_dir / f"{name}.urdf")
    mm = mujoco.MjModel.from_xml_path(path)
    gm = gauss.Model.from_urdf_path(path)
    errors = compare_models(gm, mm) + oracle.name_errors(gm, mm, NAMED)
    if not errors:
        errors, compared = compare_all(gm, mm)
        assert len(compared) > 50
    oracle.assert_no_errors(errors, name + ": ")
    # the loaders agree: from_xml_path takes URDF as MuJoCo's does
    gx = gauss.Model.from_xml_path(path)
    assert (gx.nbody, gx.ngeom, gx.nq) == (gm.nbody, gm.ngeom, gm.nq)
    np.testing.assert_array_equal(gx.body_mass, gm.body_mass)


@pytest.mark.parametrize("name", sorted(FILES))
def test_urdf_accelerations_like_mujoco(urdf_dir, name):
    # links of these small robots overlap at random configurations, deeply: contacts between
    # overlapping meshes and boxes are the collision stage's work, compared elsewhere; the
    # dynamics the import builds are compared without them
    path = str(urdf_dir / f"{name}.urdf")
    mm, gm = mujoco.MjModel.from_xml_path(path), gauss.Model.from_urdf_path(path)
    mm.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONTACT
    gm.opt.disableflags |= gauss.DSBL_CONTACT
    md, gd = mujoco.MjData(mm), gauss.Data(gm)
    rng = np.random.default_rng(5)
    for _ in range(4):
        qpos, qvel = oracle.random_state(mm, rng, scale=0.5)
        set_state(mm, md, qpos, qvel)
        set_state(gm, gd, qpos, qvel)
        md.ctrl[:] = gd.ctrl[:] = 0
        mujoco.mj_forward(mm, md)
        gauss.forward(gm, gd)
        assert oracle.rel_err(gd.qacc, md.qacc) < 1e-8


@pytest.mark.parametrize("name", sorted(FILES))
def test_urdf_trajectory_like_mujoco(urdf_dir, name):
    # from the file's configuration, contacts on: the links start apart or touch their parents
    # only (which MuJoCo filters), joint friction and damping act
    path = str(urdf_dir / f"{name}.urdf")
    mm, gm = mujoco.MjModel.from_xml_path(path), gauss.Model.from_urdf_path(path)
    md, gd = mujoco.MjData(mm), gauss.Data(gm)
    rng = np.random.default_rng(6)
    qvel = rng.normal(scale=0.3, size=mm.nv)
    md.qvel[:] = gd.qvel[:] = qvel
    for _ in range(40):
        mujoco.mj_step(mm, md)
        gauss.step(gm, gd)
    assert gd.ncon == md.ncon
    assert oracle.rel_err(gd.qpos, md.qpos) < 1e-8
    assert oracle.rel_err(gd.qvel, md.qvel) < 1e-8


def test_urdf_defaults_and_names(urdf_dir):
    m = gauss.Model.from_urdf_path(str(urdf_dir / "kinds.urdf"))
    # fixed links fused (base into the world, fixedlink into l1), visuals discarded, radians
    assert [gauss.id2name(m, gauss.OBJ_BODY, i) for i in range(m.nbody)] == ["world", "l1", "l2", "l3", "l4"]
    assert [gauss.id2name(m, gauss.OBJ_JOINT, i) for i in range(m.njnt)] == [
        "j1", "j2", "j3", "j4_TX", "j4_TY", "j4_RZ"]
    assert [gauss.id2name(m, gauss.OBJ_MESH, i) for i in range(m.nmesh)] == ["box", "box1"]
    assert m.jnt_range[0].tolist() == [-1, 1] and m.jnt_actfrcrange[1].tolist() == [-10, 10]
    assert not m.load_warnings


# ---- bad files: (robot body, line, element, phrase, whether MuJoCo refuses it too) ----
LINK = '<link name="{}"><inertial><mass value="1"/>' + INERTIA.format(0.01) + '</inertial></link>'


def joint(name, parent, child, type_="revolute"):
    return f'<joint name="{name}" type="{type_}"><parent link="{parent}"/><child link="{child}"/></joint>'


BAD = [
    ("missing link", LINK.format("a") + "\n" + joint("j", "a", "c"), ":2:", "<joint>",
     "child link 'c' not found", True),
    ("two parents", LINK.format("a") + LINK.format("b") + LINK.format("c") + joint("j", "a", "b") +
     "\n" + joint("j2", "c", "b"), ":2:", "<joint>", "link 'b' has two parents", True),
    ("cycle", '<link name="r"/>' + LINK.format("a") + LINK.format("b") + "\n" + joint("j", "a", "b") +
     joint("j2", "b", "a"), ":2:", "<joint>", "loop", True),
    # roots, but a floating joint below one that is kept (no fusestatic): not a body of the world
    ("floating below a root", '<mujoco><compiler fusestatic="false"/></mujoco>' + LINK.format("a") +
     LINK.format("b") + "\n" + joint("j", "a", "b", "floating"), ":2:", "joint 'j'", "free joint", True),
    ("repeated link", LINK.format("a") + "\n" + LINK.format("a"), ":2:", "<link>", "repeated link name", True),
    ("joint type", LINK.format("a") + LINK.format("b") + "\n" + joint("j", "a", "b", "hinge"), ":2:",
     "<joint>", "unknown type 'hinge'", True),
    ("no geometry", '\n<link name="a"><collision><geometry/></collision></link>', ":2:", "<geometry>",
     "no box, cylinder, sphere, capsule or mesh", True),
    ("no parent", LINK.format("a") + '\n<joint name="j" type="fixed"><child link="a"/></joint>', ":2:",
     "<joint>", "missing element <parent>", True),
    ("bad number", '\n<link name="a"><collision><geometry><sphere radius="x"/></geometry></collision></link>',
     ":2:", "<sphere>", "radius", True),
    ("missing mesh", '\n<link name="a"><collision><geometry><mesh filename="none.stl"/></geometry></collision></link>',
     ":2:", "<mesh>", "none.stl", True),
]


@pytest.mark.parametrize("case", BAD, ids=[c[0] for c in BAD])
def test_bad_urdf_is_refused_naming_line_and_element(tmp_path, case):
    _, body, line, elem, phrase, mujoco_refuses = case
    path = tmp_path / "bad.urdf"
    path.write_text(f'<robot name="bad">{body}</robot>')
    with pytest.raises(gauss.GaussError) as e:
        gauss.Model.from_urdf_path(str(path))
    msg = str(e.value)
    assert f"bad.urdf{line}" in msg and elem in msg and phrase in msg, msg
    if mujoco_refuses:
        with pytest.raises(ValueError):
            mujoco.MjModel.from_xml_path(str(path))
    else:
        mujoco.MjModel.from_xml_path(str(path))


def test_from_urdf_path_refuses_mjcf(tmp_path):
    path = tmp_path / "m.xml"
    path.write_text('<mujoco><worldbody/></mujoco>')
    with pytest.raises(gauss.GaussError, match="m.xml:1: <mujoco>: the root element of URDF must be <robot>"):
        gauss.Model.from_urdf_path(str(path))


@pytest.mark.parametrize("name", sorted(FILES))
def test_urdf_written_as_mjcf_reloads_the_same(urdf_dir, name):
    # the mesh files are named as they were read (strippath, the <mujoco> extension's meshdir)
    from test_attach import FILE_FIELDS
    from test_roundtrip import compare
    gm = gauss.Model.from_urdf_path(str(urdf_dir / f"{name}.urdf"))
    written = urdf_dir / f"{name}_written.xml"
    written.write_text(gm.to_xml())
    errors = [e for e in compare(gm, gauss.Model.from_xml_path(str(written)))
              if e.split(":")[0].replace("size ", "") not in FILE_FIELDS]
    assert not errors, errors
