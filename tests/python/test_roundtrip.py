"""Writing MJCF (gs_saveXML): every corpus model, saved and loaded again, compiles to the same
model: every size and integer array identical, every real array identical or within 1e-12 relative
(a unit quaternion or axis normalized once more can move by an ulp, and what is computed from
them at qpos0 by as much as rounding allows); the same for a hand-written model that uses what the
corpus does not (cameras with sensors, lights, textures, layered materials, height fields, pairs,
exclusions, fixed and spatial tendons (stiffness, damping, armature), gravity compensation, every kind of actuator, equality constraints on bodies,
sites, joints and tendons, many sensor kinds, keyframes, custom data, user data, mocap bodies,
names that need escaping)."""

import math
import re

import numpy as np
import pytest

import gauss

RTOL = 1e-12


FRAME_FIELDS = ("nframe", "nframenames", "frame_bodyid", "frame_frameid", "frame_nameadr", "framenames",
                "body_frameid", "jnt_frameid", "geom_frameid", "site_frameid", "cam_frameid", "light_frameid")


def compare(a, b):
    """the differences between two models, as messages. Unnamed frames are not written (as
    MuJoCo's writer leaves them out): where a has some, its frames are not compared"""
    errors = []
    if a.size_names() != b.size_names():
        return ["different size lists"]
    names = bytes(a.framenames).split(b"\0")[:-1]
    skip = FRAME_FIELDS if any(not n for n in names) else ()
    for s in a.size_names():
        if s in skip:
            continue
        if getattr(a, s) != getattr(b, s):
            errors.append(f"size {s}: {getattr(a, s)} != {getattr(b, s)}")
    if errors:
        return errors
    for name in a.field_names():
        if name in skip:
            continue
        x, y = getattr(a, name), getattr(b, name)
        if x.shape != y.shape or x.dtype != y.dtype:
            errors.append(f"{name}: shape {x.shape} != {y.shape}")
        elif x.dtype.kind != "f":
            if not np.array_equal(x, y):
                errors.append(f"{name}: differs")
        elif x.size and not np.array_equal(x, y):
            err = np.abs(x - y).max() / max(1.0, np.abs(y).max())
            if not err <= RTOL:
                errors.append(f"{name}: relative difference {err:.2e}")
    for name in dir(a.opt):
        if not np.array_equal(getattr(a.opt, name), getattr(b.opt, name)):
            errors.append(f"option {name} differs")
    return errors


def _message(warning):
    """a load warning without its file, line and element"""
    return re.sub(r"^.*?:\d+: (<\w+>: )?", "", warning)


def test_corpus_round_trip(corpus_model, tmp_path):
    _, path = corpus_model
    m = gauss.Model.from_xml_path(path)
    xml = m.to_xml()
    again = gauss.Model.from_xml_string(xml)
    errors = compare(m, again)
    assert not errors, errors[:10]
    # the written document warns about nothing the original did not (all of it is read)
    new = {_message(w) for w in again.load_warnings} - {_message(w) for w in m.load_warnings}
    assert not new, new
    # through a file, too
    f = tmp_path / "model.xml"
    m.save_xml(f)
    assert f.read_text() == xml
    assert not compare(m, gauss.Model.from_xml_path(f))


RICH = """<mujoco model="rich &amp; odd">
  <compiler angle="degree" autolimits="true" boundmass="0.01" boundinertia="0.001"/>
  <option timestep="0.004" integrator="implicitfast" gravity="0 0 -9" wind="1 0 0" density="1.2"
          viscosity="0.01" cone="elliptic" jacobian="sparse" solver="CG" iterations="30"
          o_solref="0.03 1.1" o_friction="1 1 0.01 0.001 0.001">
    <flag contact="disable" energy="enable" warmstart="disable"/>
  </option>
  <size nuserdata="7" nuser_body="2" nuser_jnt="1" nuser_geom="3" nuser_site="1" nkey="3"/>
  <visual><map znear="0.02"/></visual>
  <default>
    <joint damping="0.3" armature="0.01"/>
    <geom rgba="0.5 0.5 0.5 1" friction="0.8 0.01 0.001"/>
    <default class="thin"><tendon width="0.003" rgba="1 0 0 1"/></default>
  </default>
  <asset>
    <texture name="grid" type="2d" builtin="checker" width="64" height="32" rgb1="0 0 0" rgb2="1 1 1"/>
    <texture name="sky" type="skybox" builtin="gradient" width="16" height="16" rgb1="1 1 1" rgb2="0 0 0"/>
    <texture name="rough" type="2d" builtin="flat" width="8" height="8" colorspace="linear" nchannel="4"/>
    <material name="floor" texture="grid" texrepeat="4 4" reflectance="0.2" rgba="1 1 1 0.5"/>
    <material name="layered" specular="0.3" shininess="0.7">
      <layer texture="grid" role="rgb"/>
      <layer texture="rough" role="roughness"/>
    </material>
    <hfield name="bumps" nrow="3" ncol="4" size="1 2 0.5 0.1" elevation="0 1 2 3 4 5 6 7 8 9 10 11"/>
  </asset>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1" material="floor"/>
    <geom name="terrain" type="hfield" hfield="bumps" pos="3 0 0"/>
    <light name="sun" directional="true" pos="0 0 5" dir="0 0.1 -1" castshadow="false"/>
    <camera name="fixed" pos="0 -3 1" xyaxes="1 0 0 0 0.3 1" fovy="50"/>
    <camera name="sensor" pos="0 -2 1" sensorsize="0.01 0.008" resolution="640 480" focal="0.012 0.012"/>
    <site name="anchor" pos="0 0 2" size="0.02"/>
    <body name="torso &lt;1&gt;" pos="0 0 1.5" euler="10 20 30" user="1 2">
      <freejoint name="root"/>
      <geom name="chest" type="capsule" fromto="0 -0.1 0 0 0.1 0" size="0.1" material="layered" user="0.5"/>
      <site name="imu" pos="0 0 0.1" user="3"/>
      <camera name="track" mode="trackcom" pos="0 -2 0"/>
      <body name="arm" pos="0.2 0 0" gravcomp="0.75">
        <joint name="shoulder" type="ball" range="0 60" stiffness="1" actuatorgravcomp="true"/>
        <geom name="upper" type="cylinder" fromto="0 0 0 0.3 0 0" size="0.04"/>
        <site name="elbow_site" pos="0.3 0 0.05"/>
        <body name="forearm" pos="0.3 0 0">
          <joint name="elbow" axis="0 1 0" range="-90 0" ref="-10" springref="5" user="9"/>
          <joint name="slide" type="slide" axis="1 0 0" range="-0.1 0.1" frictionloss="0.2"/>
          <geom name="lower" type="box" size="0.15 0.03 0.03" pos="0.15 0 0"/>
          <geom name="ball" type="sphere" size="0.05" pos="0.3 0 0"/>
          <site name="hand" pos="0.3 0 0" type="box" size="0.01 0.02 0.03"/>
        </body>
      </body>
      <body name="leg" pos="0 0 -0.2">
        <joint name="hip" axis="1 0 0" limited="true" range="-30 30"/>
        <inertial pos="0 0 -0.2" mass="2" fullinertia="0.1 0.2 0.15 0.01 0 0.02"/>
        <geom name="thigh" type="ellipsoid" size="0.05 0.06 0.2" pos="0 0 -0.2"/>
      </body>
    </body>
    <body name="target" mocap="true" pos="1 1 1">
      <geom type="box" size="0.05 0.05 0.05" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
  <contact>
    <pair name="p1" geom1="ball" geom2="floor" condim="4" friction="1 1 0.01 0.001 0.001"/>
    <exclude body1="arm" body2="leg"/>
  </contact>
  <tendon>
    <fixed name="coupled" class="thin" limited="true" range="-1 1" damping="0.5" armature="0.02">
      <joint joint="elbow" coef="1"/>
      <joint joint="hip" coef="-0.5"/>
    </fixed>
    <spatial name="rope" width="0.01" stiffness="10" springlength="0.2 0.3">
      <site site="anchor"/>
      <geom geom="ball" sidesite="hand"/>
      <site site="imu"/>
    </spatial>
  </tendon>
  <actuator>
    <motor name="m1" joint="elbow" gear="2" ctrlrange="-1 1"/>
    <position name="p1" joint="hip" kp="50" dampratio="1"/>
    <velocity name="v1" joint="slide" kv="5"/>
    <general name="g1" tendon="rope" dyntype="filter" dynprm="0.1" gainprm="3" biastype="affine" biasprm="0 -1 -0.1"/>
    <muscle name="mus" tendon="coupled" lengthrange="-0.9 0.9"/>
    <intvelocity name="iv" joint="elbow" kp="10" actrange="-1 1"/>
  </actuator>
  <equality>
    <connect name="c1" body1="target" body2="arm" anchor="0 0 0" active="false"/>
    <weld name="w1" site1="hand" site2="anchor" torquescale="0.5"/>
    <joint name="j1" joint1="slide" joint2="hip" polycoef="0 1 0.5 0 0"/>
    <tendon tendon1="rope" polycoef="0.2"/>
  </equality>
  <sensor>
    <accelerometer name="acc" site="imu" noise="0.1"/>
    <jointpos joint="elbow" cutoff="2"/>
    <tendonpos tendon="rope"/>
    <actuatorfrc actuator="m1"/>
    <ballquat joint="shoulder"/>
    <framepos objtype="site" objname="hand" reftype="xbody" refname="arm"/>
    <framelinacc objtype="body" objname="leg"/>
    <subtreecom body="torso &lt;1&gt;"/>
    <insidesite objtype="geom" objname="ball" site="anchor"/>
    <distance geom1="ball" body2="leg"/>
    <contact name="touching" geom1="ball" data="found force" reduce="mindist" num="2"/>
    <clock/>
    <user name="u" dim="3" needstage="vel" datatype="positive" objtype="joint" objname="hip" user="1"/>
    <camprojection site="hand" camera="sensor"/>
  </sensor>
  <keyframe>
    <key name="home" time="1" qpos="0 0 1.5 1 0 0 0 1 0 0 0 0.1 0.02 0.3"/>
  </keyframe>
  <custom>
    <numeric name="gains" data="1 2 3"/>
    <numeric name="padded" size="4" data="5"/>
    <text name="note" data="a &quot;quoted&quot; &amp; tabbed	text"/>
    <tuple name="tup">
      <element objtype="body" objname="arm" prm="0.5"/>
      <element objtype="geom" objname="ball" prm="2"/>
    </tuple>
  </custom>
</mujoco>
"""


def test_rich_model_round_trip(tmp_path):
    m = gauss.Model.from_xml_string(RICH)
    for s in ("ncam", "nlight", "ntex", "nmat", "nhfield", "npair", "nexclude", "ntendon", "nu",
              "neq", "nsensor", "nkey", "nnumeric", "ntext", "ntuple", "nmocap", "nuserdata"):
        assert getattr(m, s) > 0, s
    assert m.body_gravcomp.any() and m.jnt_actgravcomp.any() and m.tendon_armature.any()
    again = gauss.Model.from_xml_string(m.to_xml())
    errors = compare(m, again)
    assert not errors, errors
    # a second generation reads back the same as well
    assert not compare(again, gauss.Model.from_xml_string(again.to_xml()))
    assert m.body(1).name == "torso <1>" and again.body(1).name == "torso <1>"
    assert "&lt;" in m.to_xml() and "&quot;" in m.to_xml()


def test_same_trajectory():
    m = gauss.Model.from_xml_string(RICH)
    m2 = gauss.Model.from_xml_string(m.to_xml())
    d, d2 = gauss.Data(m), gauss.Data(m2)
    for x in (d, d2):
        x.qvel[:] = np.linspace(-1, 1, m.nv)
        gauss.step(m if x is d else m2, x, 50)
    assert np.allclose(d.qpos, d2.qpos, rtol=1e-9, atol=1e-9)


def test_errors(tmp_path):
    m = gauss.Model.from_xml_string("<mujoco><worldbody><body><joint/><geom size='.1'/></body>"
                                    "</worldbody></mujoco>")
    with pytest.raises(gauss.GaussError, match="cannot write"):
        m.save_xml(tmp_path / "no" / "dir" / "x.xml")
    m.opt.timestep = math.nan  # MJCF has no way to write it
    with pytest.raises(gauss.GaussError, match="timestep"):
        m.to_xml()
    m.opt.timestep = 0.002
    assert gauss.Model.from_xml_string(m.to_xml()).opt.timestep == 0.002


# primitives fitted to a mesh (inertia box, bounding box under fitaabb, fitscale, a mesh geom
# without type: a fitted sphere) next to a mesh geom
FITTED = """<mujoco><compiler fitaabb="{aabb}"/>
  <asset><mesh name="b" scale="1 2 3" vertex="0 0 0  .1 0 0  0 .1 0  .1 .1 0  0 0 .1  .1 0 .1  0 .1 .1  .1 .1 .12"/></asset>
  <default><default class="s"><geom mesh="b"/></default></default>
  <worldbody>
    <body pos="0 0 1"><freejoint/><geom type="box" mesh="b" fitscale="1.2"/><geom type="capsule" mesh="b" pos="1 0 0"/></body>
    <body pos="1 0 1"><freejoint/><geom type="mesh" mesh="b"/><geom mesh="b" type="ellipsoid" euler="10 20 30"/>
      <geom mesh="b" type="cylinder" pos="0 1 0"/><geom class="s" type="sphere" pos="0 0 1"/></body>
  </worldbody></mujoco>"""


@pytest.mark.parametrize("aabb", ["false", "true"])
def test_fitted_primitives_round_trip_like_mujoco(aabb, tmp_path):
    # MJCF writes a fitted primitive as the primitive it became, without its mesh: reloaded, the
    # geom has no mesh (geom_dataid -1) in MuJoCo 3.3.7's own round trip; gauss's reload is that
    # model, every other array unchanged
    import mujoco
    xml = FITTED.format(aabb=aabb)
    m = gauss.Model.from_xml_string(xml)
    m2 = gauss.Model.from_xml_string(m.to_xml())
    path = str(tmp_path / "mj.xml")
    mm = mujoco.MjModel.from_xml_string(xml)
    mujoco.mj_saveLastXML(path, mm)
    mm2 = mujoco.MjModel.from_xml_path(path)
    np.testing.assert_array_equal(m2.geom_dataid, mm2.geom_dataid)
    np.testing.assert_array_equal(m2.geom_type, mm2.geom_type)
    np.testing.assert_array_equal(m.geom_dataid, mm.geom_dataid)
    assert (m2.geom_dataid != m.geom_dataid).sum() == 5  # the fitted ones
    assert compare(m, m2) == ["geom_dataid: differs"]


def test_asset_directories_round_trip(tmp_path):
    # a mesh under the model's meshdir and one under assetdir: the written file names them with
    # their directories and reloads beside the model (MuJoCo 3.3.7 writes meshdir instead)
    obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"
    (tmp_path / "m").mkdir()
    (tmp_path / "a").mkdir()
    (tmp_path / "m" / "t.obj").write_text(obj)
    (tmp_path / "a" / "u.obj").write_text(obj.replace("v 0 0 1", "v 0 0 2"))
    (tmp_path / "main.xml").write_text("""<mujoco><compiler meshdir="m"/>
  <asset><mesh file="t.obj"/><mesh name="u" file="../a/u.obj" scale="2 1 1"/></asset>
  <worldbody><body><freejoint/><geom type="mesh" mesh="t"/><geom type="mesh" mesh="u"/></body></worldbody></mujoco>""")
    m = gauss.Model.from_xml_path(str(tmp_path / "main.xml"))
    (tmp_path / "written.xml").write_text(m.to_xml())
    m2 = gauss.Model.from_xml_path(str(tmp_path / "written.xml"))
    files = {"npaths", "paths", "mesh_pathadr", "nreadpaths", "readpaths", "mesh_readadr"}
    assert [e for e in compare(m, m2) if e.split(":")[0].replace("size ", "") not in files] == []
    assert bytes(m.readpaths).split(b"\0")[:2] == [b"m/t.obj", b"m/../a/u.obj"]


def _png(path, side, rgb):
    """a tiny square RGB PNG of one colour"""
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\0" + bytes(rgb) * side for _ in range(side))
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def test_cube_face_files_round_trip(tmp_path):
    # a cube texture from six face files under texturedir: the written file names each face with
    # its directory and reloads to the same pixels, in gauss and in MuJoCo (which reads the
    # original and the written file alike)
    mujoco = pytest.importorskip("mujoco")
    (tmp_path / "tex").mkdir()
    faces = "right left up down front back".split()
    for i, f in enumerate(faces):
        _png(tmp_path / "tex" / f"{f}.png", 2, (40 * i, 7, 200 - 30 * i))
    files = " ".join(f'file{f}="{f}.png"' for f in faces)
    (tmp_path / "main.xml").write_text(f"""<mujoco><compiler texturedir="tex"/><asset>
  <texture name="c" type="cube" {files}/><material name="m" texture="c"/></asset>
  <worldbody><geom size=".1" material="m"/></worldbody></mujoco>""")
    m = gauss.Model.from_xml_path(str(tmp_path / "main.xml"))
    (tmp_path / "written.xml").write_text(m.to_xml())
    m2 = gauss.Model.from_xml_path(str(tmp_path / "written.xml"))
    assert m.nteximage == 6 * 2 * 2 * 3 and np.array_equal(m.tex_image, m2.tex_image)
    assert bytes(m2.readpaths).split(b"\0")[:6] == [f"tex/{f}.png".encode() for f in faces]
    assert compare(m, m2) == []
    ref = mujoco.MjModel.from_xml_path(str(tmp_path / "main.xml"))
    back = mujoco.MjModel.from_xml_path(str(tmp_path / "written.xml"))
    assert np.array_equal(ref.tex_data, back.tex_data)
    assert np.array_equal(ref.tex_data, m.tex_image)


FRAMES = """<mujoco><worldbody>
  <frame name="f1" pos="1 0 0" euler="0 0 30"><geom name="g0" size=".1"/>
    <frame name="f2" pos="0 1 0"><body name="b" pos="0 0 1"><freejoint/><geom size=".1"/>
      <frame name="f3" pos="0 0 .5"><site name="s"/></frame></body></frame></frame>
  <frame pos="0 0 2"><frame name="lifted"><geom size=".05"/></frame></frame>
  <replicate count="2" offset=".3 0 0"><frame name="r"><geom size=".02"/></frame></replicate>
  <body name="a" pos="0 0 -1"><joint name="ja"/><geom name="ga" size=".1"/>
    <frame name="F" pos=".1 .2 .3" euler="10 20 30"><body name="x" pos="0 0 .1"><joint/><geom size=".1"/></body>
      <joint name="jf" type="slide" axis="1 1 0"/><geom name="gf" type="capsule" fromto="0 0 0 .1 .2 .3" size=".02"/>
      <site name="sf" pos="0 .1 0" euler="5 0 0"/><camera name="cf" pos="0 0 .3" euler="0 10 0"/>
      <light name="lf" pos="0 0 1" dir="1 0 -1"/></frame>
    <body name="y" pos=".2 0 0"><joint/><geom size=".1"/></body>
    <frame pos="0 .4 0"><body name="z"><joint/><geom size=".1"/></body>
      <frame name="N" euler="0 90 0"><site name="sn" pos=".1 0 0"/></frame><geom name="gu" size=".03"/></frame>
    <frame name="G" pos="0 0 .5"/><geom name="gh" size=".04" pos="0 0 .2"/></body>
</worldbody></mujoco>"""


def _frame_places(frames):
    """name -> (body, nearest named enclosing frame) of the named frames"""
    def named_up(f):
        f = f.frame
        while f is not None and not f.name:
            f = f.frame
        return f.name if f is not None else None
    return {f.name: (f.parent.name, named_up(f)) for f in frames if f.name}


def _layout(xml):
    """the <worldbody> as a list of opened (tag, name) and closed tags, inertials left out"""
    out = []
    for close, tag, attrs in re.findall(r"<(/?)(\w+)([^>]*?)/?>", xml.split("<worldbody>")[1].split("</worldbody>")[0]):
        if tag != "inertial":
            name = re.search(r'name="([^"]*)"', attrs)
            out.append(("/" + tag) if close else (tag, name.group(1) if name else ""))
    return out


def test_frames_written_nested_like_mujoco():
    import mujoco
    from test_attach import compiled_errors, names
    # MuJoCo's writer nests what a frame holds in <frame name=...> (without a pose: the contents
    # have theirs in the body), leaves unnamed frames out with their contents in their place, and
    # writes a body's children in its order (elements by kind, then bodies and frames
    # interleaved), which renumbers bodies and geoms on reading back; gauss writes the same
    # layout (so the same numbering), and both engines read gauss's file to the same arrays.
    # (MuJoCo's own file is not compared to 1e-9: its writer keeps 6 digits.)
    xml = gauss.Model.from_xml_string(FRAMES).to_xml()
    mj_xml = mujoco.MjSpec.from_string(FRAMES).to_xml()
    assert _layout(xml) == _layout(mj_xml)
    got, want = gauss.Model.from_xml_string(xml), mujoco.MjModel.from_xml_string(xml)
    assert compiled_errors(got, want) == []
    assert names(got, True) == names(want, False) == names(mujoco.MjModel.from_xml_string(mj_xml), False)
    # the original and the file read back: the same bodies, where each is, to 1e-12
    m, again = gauss.Model.from_xml_string(FRAMES), gauss.Model.from_xml_string(xml)
    order = [again.body(m.body(i).name).id if m.body(i).name else i for i in range(m.nbody)]
    assert np.allclose(again.body_pos[order], m.body_pos, atol=1e-12)
    specs = [mujoco.MjSpec.from_string(FRAMES), gauss.Spec.from_string(FRAMES),
             gauss.Spec.from_string(xml), mujoco.MjSpec.from_string(xml)]  # (kept: frames point into them)
    want = _frame_places(specs[0].frames)
    assert want == {"f1": ("world", None), "f2": ("world", "f1"), "f3": ("b", None),
                    "lifted": ("world", None), "r0": ("world", None), "r1": ("world", None),
                    "F": ("a", None), "N": ("a", None), "G": ("a", None)}
    for spec in specs[1:]:
        assert _frame_places(spec.frames) == want
