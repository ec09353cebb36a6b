"""The world slice of MJCF against MuJoCo: cameras, lights, frames, assets (textures, materials,
meshes, height fields), contact pairs and exclusions, visual and statistic. Every corpus file as it
is, then hand-written models for what the corpus lacks (asset files are written to a temporary
folder and also given as in-memory files), then bad models."""

import struct
import zlib

import mujoco
import numpy as np
import pytest

import gauss
import oracle

SIZES = ["ncam", "nlight", "nmesh", "nhfield", "nhfielddata", "ntex", "nmat", "npair",
         "nexclude", "nuser_cam", "npaths"]

FIELDS = [
    "geom_dataid", "geom_matid", "site_matid",
    "cam_mode", "cam_bodyid", "cam_targetbodyid", "cam_pos", "cam_quat", "cam_poscom0",
    "cam_pos0", "cam_mat0", "cam_orthographic", "cam_fovy", "cam_ipd", "cam_resolution",
    "cam_sensorsize", "cam_intrinsic", "cam_user",
    "light_mode", "light_bodyid", "light_targetbodyid", "light_type", "light_texid",
    "light_castshadow", "light_bulbradius", "light_intensity", "light_range", "light_active",
    "light_pos", "light_dir", "light_poscom0", "light_pos0", "light_dir0", "light_attenuation",
    "light_cutoff", "light_exponent", "light_ambient", "light_diffuse", "light_specular",
    "mesh_scale", "mesh_pathadr",
    "hfield_size", "hfield_nrow", "hfield_ncol", "hfield_adr", "hfield_data", "hfield_pathadr",
    "tex_type", "tex_colorspace", "tex_height", "tex_width", "tex_nchannel", "tex_adr",
    "tex_pathadr",
    "mat_texid", "mat_texuniform", "mat_texrepeat", "mat_emission", "mat_specular",
    "mat_shininess", "mat_reflectance", "mat_metallic", "mat_roughness", "mat_rgba",
    "pair_dim", "pair_geom1", "pair_geom2", "pair_signature", "pair_solref",
    "pair_solreffriction", "pair_solimp", "pair_margin", "pair_gap", "pair_friction",
    "exclude_signature",
]
# what frames move: the poses of the tree's objects
TREE_FIELDS = ["body_pos", "body_quat", "body_ipos", "body_mass", "body_inertia", "jnt_pos",
               "jnt_axis", "geom_pos", "geom_quat", "geom_size", "geom_rbound", "site_pos",
               "site_quat", "site_size"]
QUATS = {"cam_quat", "body_quat", "geom_quat", "site_quat"}

# object types whose names are compared: camera, light, mesh, hfield, texture, material, pair,
# exclude (numbered as mjtObj)
NAMED = {7: "ncam", 8: "nlight", 10: "nmesh", 12: "nhfield", 13: "ntex", 14: "nmat",
         15: "npair", 16: "nexclude"}


def too_far(f, a, b):
    """entries beyond 1e-9 relative to the largest of MuJoCo's array"""
    tol = 1e-9 * max(1.0, np.abs(b).max())
    if f in QUATS:  # q and -q are the same rotation: whole rows are compared
        row = np.minimum(np.abs(a - b).max(axis=1), np.abs(a + b).max(axis=1))
        return np.broadcast_to(~(row <= tol)[:, None], b.shape)
    return ~(np.abs(a - b) <= tol)


def compare(gm, mm, fields=FIELDS):
    """readable differences between the world slice of a gauss and a MuJoCo model"""
    errors = oracle.size_errors(gm, mm, SIZES)
    if errors:
        return errors
    errors = oracle.field_errors(gm, mm, fields, too_far) + oracle.name_errors(gm, mm, NAMED)
    paths_g = bytes(np.asarray(gm.paths, dtype=np.uint8))
    if paths_g.rstrip(b"\0") != bytes(mm.paths).rstrip(b"\0"):
        errors.append(f"paths: gauss {paths_g!r} mujoco {bytes(mm.paths)!r}")
    return errors


def both_from_string(xml, fields=FIELDS):
    gm = gauss.Model.from_xml_string(xml)
    mm = mujoco.MjModel.from_xml_string(xml)
    oracle.assert_no_errors(compare(gm, mm, fields))
    return gm, mm


# ---- the corpus ----

def test_corpus_world(corpus_model):
    model_id, path = corpus_model
    gm = gauss.Model.from_xml_path(path)
    mm = mujoco.MjModel.from_xml_path(path)
    oracle.assert_no_errors(compare(gm, mm), f"{model_id}: ")
    # valid visual, statistic, asset and camera attributes are read, not warned about
    mine = ("<camera>", "<light>", "<texture>", "<material>", "<visual>", "<statistic>", "<map>",
            "<global>", "<quality>", "<headlight>", "<rgba>", "<hfield>", "<contact>",
            "<exclude>", "<asset>", "'material'", "'hfield'", "'meshdir'", "'texturedir'")
    assert not [w for w in gm.load_warnings if any(k in w for k in mine)], gm.load_warnings


# ---- hand-written models ----

CAMERAS_LIGHTS = """
<mujoco>
  <compiler angle="radian" eulerseq="ZYX"/>
  <size nuser_cam="4"/>
  <visual><map znear="0.03"/></visual>
  <default>
    <camera fovy="33" ipd="0.1" pos="0.1 0 0"/>
    <light diffuse="0.1 0.2 0.3" castshadow="false" directional="true"/>
    <default class="C">
      <camera mode="track" euler="0.1 0.2 0.3" orthographic="true" fovy="3" resolution="640 480"/>
      <light type="point" attenuation="1 0.5 0.25" cutoff="30" exponent="3" bulbradius="0.1"
             intensity="7" range="3" ambient=".1 .1 .1" specular=".2 .3 .4" active="false"/>
    </default>
    <default class="S">
      <camera sensorsize="0.02 0.01" resolution="200 100" focalpixel="150 120"
              principalpixel="3 4"/>
    </default>
  </default>
  <asset><texture name="env" type="skybox" builtin="gradient" width="8" height="8"/></asset>
  <worldbody>
    <camera name="w0" pos="1 2 3" xyaxes="1 0 0 0 1 1"/>
    <camera name="w1" pos="1 2 3" zaxis="0 -1 1" mode="trackcom"/>
    <light name="l0" pos="0 0 3" dir="0 1 -1" mode="targetbodycom" target="b2"/>
    <light name="l1" pos="0 0 3" directional="false" mode="track"/>
    <body name="b1" pos="0.5 0 2" axisangle="1 1 0 0.3">
      <freejoint/>
      <geom size="0.1" mass="2"/>
      <camera name="c1" class="S" mode="targetbody" target="b2" user="1 2 3"/>
      <camera name="c2" class="C" user="4" quat="1 2 3 4"/>
      <camera name="c3" sensorsize="0.013 0.017" resolution="333 257" focal="0.021 0.033"
              principal="0.001 -0.002"/>
      <camera name="c4" sensorsize="0.013 0.017" resolution="333 257" focalpixel="411.3 297.7"
              principalpixel="-3.5 2.25"/>
      <camera name="c5" sensorsize="0.013 0.017" resolution="333 257"/>
      <body name="b2" pos="0 1 0">
        <joint type="ball"/>
        <geom size="0.2" pos="0 0.1 0"/>
        <light name="l2" mode="trackcom" pos="1 1 1" class="C" texture="env" type="image"/>
        <camera name="c6" mode="targetbodycom" target="b1" ipd="0.2" fovy="90"/>
        <camera name="c7" target="world" euler="0.3 -0.2 0.1"/>
      </body>
    </body>
  </worldbody>
</mujoco>
"""

FRAMES = """
<mujoco>
  <default><default class="R"><geom rgba="1 0 0 1"/><camera fovy="20"/><light cutoff="20"/></default></default>
  <worldbody>
    <frame pos="1 2 3" euler="0 0 90">
      <geom size=".1" pos="1 0 0"/>
      <camera pos="1 0 0"/>
      <frame name="inner" pos="0 1 0" axisangle="1 0 0 90" childclass="R">
        <body pos="1 0 0" euler="0 90 0">
          <joint type="hinge" axis="1 0 0" pos="0 0 1"/>
          <geom type="capsule" fromto="0 0 0 1 0 0" size=".1"/>
          <frame pos="0 0 1" euler="90 0 0">
            <geom type="box" size=".1 .2 .3" pos="1 1 1"/>
            <joint type="slide" axis="0 1 0" pos="1 0 0"/>
            <site pos="1 0 0" zaxis="1 0 0"/>
            <camera pos="0 1 0" xyaxes="0 1 0 -1 0 0"/>
            <light pos="0 0 1" dir="1 2 3"/>
            <geom type="capsule" fromto="0 0 0 1 2 3" size=".1"/>
            <site type="box" fromto="0 0 0 1 2 3" size=".1"/>
            <geom type="ellipsoid" fromto="0 0 0 -1 2 3" size=".1"/>
            <geom type="cylinder" fromto="0 0 0 0 0 3" size=".1"/>
            <frame quat="0 1 0 0"><inertial pos="0.1 0.2 0.3" mass="1" diaginertia="1 2 2.5"/></frame>
          </frame>
        </body>
      </frame>
    </frame>
    <frame pos="0 0 1" class="R" xyaxes="0 1 0 -1 0 0">
      <body name="b"><freejoint/><geom size="0.3" pos="0.1 0 0"/></body>
    </frame>
  </worldbody>
</mujoco>
"""

ASSETS = """
<mujoco>
  <default>
    <mesh scale="2 2 2"/>
    <material rgba="0.3 0.4 0.5 1" shininess="0.9"/>
    <default class="X"><mesh scale="1 2 3"/><material emission="0.7" specular="0.125"/></default>
  </default>
  <asset>
    <texture name="grid" type="2d" builtin="checker" width="512" height="512" rgb1=".1 .2 .3"
             rgb2=".2 .3 .4" mark="edge" markrgb=".2 .3 .4"/>
    <texture name="body" type="cube" builtin="flat" mark="cross" width="127" height="1278"
             rgb1="0.8 0.6 0.4" rgb2="0.8 0.6 0.4" markrgb="1 1 1" random="0.01"/>
    <texture type="skybox" builtin="gradient" rgb1=".4 .6 .8" rgb2="0 0 0" width="800" height="800"/>
    <texture name="four" type="2d" builtin="flat" width="3" height="5" nchannel="4" colorspace="sRGB"/>
    <texture name="lin" type="cube" builtin="checker" width="4" colorspace="linear" hflip="true"
             vflip="true" gridsize="2 3" gridlayout="LRUDFB"/>
    <material name="m0"/>
    <material name="m1" class="X" texture="grid" texrepeat="2 3" texuniform="true" emission=".3"
              specular=".7" shininess=".1" reflectance=".2" metallic=".4" roughness=".6"
              rgba=".1 .2 .3 .4"/>
    <material name="m2">
      <layer texture="grid" role="rgb"/><layer texture="body" role="normal"/>
      <layer texture="four" role="roughness"/><layer texture="lin" role="orm"/>
      <layer texture="grid" role="occlusion"/><layer texture="body" role="metallic"/>
      <layer texture="four" role="opacity"/><layer texture="lin" role="emissive"/>
      <layer texture="grid" role="rgba"/>
    </material>
    <mesh name="tet" vertex="0 0 0 1 0 0 0 1 0 0 0 1" face="0 2 1 0 1 3 0 3 2 1 2 3"/>
    <mesh name="tet2" class="X" vertex="0 0 0 1 0 0 0 1 0 0 0 1" refpos="0.1 0 0"
          refquat="1 0 0 0" smoothnormal="true" maxhullvert="10" inertia="convex"/>
    <hfield name="terrain" nrow="3" ncol="4" size="1 2 3 4"/>
    <hfield name="bumps" nrow="2" ncol="3" size="3 1 0.5 7" elevation="0.1 0.7 -1.3 2.9 5 0.3"/>
    <hfield name="flat" nrow="2" ncol="2" size="2 2 10 1" elevation="5 5 5 5"/>
  </asset>
  <worldbody>
    <geom type="hfield" hfield="terrain" material="m1"/>
    <geom type="hfield" hfield="bumps" pos="1 2 3" euler="10 20 30" size="7 7 7"/>
    <geom type="hfield" hfield="flat" material="m2"/>
    <geom type="mesh" mesh="tet" material="m0"/>
    <site material="m2"/>
    <body pos="0 0 1">
      <joint/>
      <inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>
      <geom type="mesh" mesh="tet2"/>
      <geom type="sphere" size="0.1" material="m1"/>
      <site/><site material="m1"/>
    </body>
  </worldbody>
</mujoco>
"""

CONTACT = """
<mujoco>
  <default>
    <pair margin="0.01"/>
    <default class="X"><pair condim="4" friction="3 3" solref="0.05 1.5" solimp="0.8 0.9"/></default>
  </default>
  <worldbody>
    <geom name="e" size="1"/>
    <body name="B1"><freejoint/><geom name="a" size="1"/></body>
    <body name="B2"><freejoint/><geom name="b" size="1"/><geom name="c" size="1"/></body>
    <body name="B3"><freejoint/><geom name="d" size="1"/></body>
  </worldbody>
  <contact>
    <pair name="p0" geom1="c" geom2="b"/>
    <pair name="p1" class="X" geom1="d" geom2="a" gap="0.2"/>
    <pair geom1="e" geom2="c" condim="6" friction="1 2 3 4 5" solreffriction="-1 -2" margin="0.3"/>
    <pair name="p3" geom1="b" geom2="a" condim="1" solimp="0.5 0.6 0.01 0.4 3"/>
    <exclude name="x1" body1="B3" body2="B1"/>
    <exclude body1="world" body2="B1"/>
    <exclude name="x3" body1="B2" body2="B1"/>
  </contact>
</mujoco>
"""

HAND = {"cameras_lights": CAMERAS_LIGHTS, "frames": FRAMES, "assets": ASSETS, "contact": CONTACT}


@pytest.mark.parametrize("name", sorted(HAND))
def test_hand_written(name):
    gm, _ = both_from_string(HAND[name], FIELDS + TREE_FIELDS if name == "frames" else FIELDS)
    assert gm.load_warnings == []


def test_named_access():
    gm = gauss.Model.from_xml_string(CAMERAS_LIGHTS)
    mm = mujoco.MjModel.from_xml_string(CAMERAS_LIGHTS)
    i = mm.camera("c4").id
    assert gm.camera("c4").id == i
    assert np.array_equal(gm.camera("c4").intrinsic, mm.cam_intrinsic[i])
    assert np.allclose(gm.light("l2").poscom0, mm.light("l2").poscom0, rtol=0, atol=1e-12)
    gm = gauss.Model.from_xml_string(CONTACT)
    assert gm.pair("p1").dim[0] == 4


def test_hfield_geom_size():
    """the height field sizes its geom (whatever the geom's own size): half-height centred
    between base and top; the mesh geoms of ASSETS are left out (mesh data not loaded)"""
    gm, mm = both_from_string(ASSETS)
    hf = mm.geom_type == mujoco.mjtGeom.mjGEOM_HFIELD
    assert hf.sum() == 3
    assert np.allclose(gm.geom_size[hf], mm.geom_size[hf], rtol=0, atol=1e-12)
    assert np.allclose(gm.geom_rbound[hf], mm.geom_rbound[hf], rtol=0, atol=1e-12)
    assert np.allclose(gm.geom_size[1], [3, 1, 0.25 * 0.5 + 0.5 * 7])


def test_hfield_moving_body():
    """height fields are allowed in moving bodies; MJCF gives them the mass and inertia of the
    box of their geom size"""
    xml = """<mujoco><asset><hfield name="h" nrow="3" ncol="4" size="1 2 0.5 0.25"
               elevation="0 1 2 3 4 5 6 7 8 9 10 11"/></asset><worldbody>
      <body pos="0 0 1"><freejoint/><geom type="hfield" hfield="h" pos="0.1 0.2 0.3"/>
        <geom type="sphere" size=".1"/></body>
      <body pos="0 0 3"><joint type="hinge"/><geom type="hfield" hfield="h" mass="2"/></body>
    </worldbody></mujoco>"""
    gm, mm = both_from_string(xml, FIELDS + TREE_FIELDS)
    for f in ("body_mass", "body_inertia", "body_ipos"):
        assert np.allclose(getattr(gm, f), getattr(mm, f), rtol=1e-12, atol=1e-12), f

    # the principal axes may differ in sign: the inertia tensors R diag(I) R' are compared, to
    # 1e-8 of the largest moment (MJCF's eigen solver leaves errors of ~1e-9 relative in iquat)
    def tensor(q, i):
        R = np.zeros(9)
        mujoco.mju_quat2Mat(R, q)
        R = R.reshape(3, 3)
        return R @ np.diag(i) @ R.T
    for b in range(1, mm.nbody):
        assert np.allclose(tensor(gm.body_iquat[b], gm.body_inertia[b]),
                           tensor(mm.body_iquat[b], mm.body_inertia[b]), rtol=0,
                           atol=1e-8 * mm.body_inertia[b].max())


# ---- asset files ----

def png(w, h, channels=3, srgb=False):
    """a PNG image, as bytes"""
    ctype = {1: 0, 2: 4, 3: 2, 4: 6}[channels]
    raw = b"".join(b"\0" + bytes((x * 7 + y * 3) % 256 for x in range(w * channels))
                   for y in range(h))

    def chunk(tag, data):
        return (struct.pack(">I", len(data)) + tag + data
                + struct.pack(">I", zlib.crc32(tag + data) & 0xffffffff))
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, ctype, 0, 0, 0))
    if srgb:
        out += chunk(b"sRGB", b"\0")
    return out + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def png_rows(w, rows, ctype, depth=8, palette=None, interlace=0):
    """a PNG image from its packed rows (no filter bytes): colour type, bit depth, palette"""
    def chunk(tag, data):
        return (struct.pack(">I", len(data)) + tag + data
                + struct.pack(">I", zlib.crc32(tag + data) & 0xffffffff))
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, len(rows), depth,
                                                              ctype, 0, 0, interlace))
    if palette:
        out += chunk(b"PLTE", palette)
    raw = b"".join(b"\0" + bytes(r) for r in rows)
    return out + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


_RNG = np.random.default_rng(7)
_GREY = _RNG.integers(0, 256, size=(6, 9))
_RGBA = _RNG.integers(0, 256, size=(5, 4, 4))
_GREY16 = _RNG.integers(0, 65536, size=(3, 5))
# height field images in every PNG colour type (MJCF keeps the first channel: grey or red)
HFIELD_PNGS = {
    "hf/grey.png": png_rows(9, _GREY.tolist(), 0),
    "hf/rgb.png": png_rows(4, _RGBA[:, :, :3].reshape(5, 12).tolist(), 2),
    "hf/rgba.png": png_rows(4, _RGBA.reshape(5, 16).tolist(), 6),
    "hf/greyalpha.png": png_rows(4, _RGBA[:, :, :2].reshape(5, 8).tolist(), 4),
    "hf/grey16.png": png_rows(5, [sum(([v >> 8, v & 255] for v in r), []) for r in _GREY16.tolist()],
                              0, depth=16),
    "hf/palette.png": png_rows(3, [[0, 1, 2], [2, 2, 1]], 3, palette=bytes([10, 200, 0, 50, 0, 0,
                                                                            90, 90, 90])),
    "hf/bits.png": png_rows(8, [[0b10110010], [0b01000001]], 0, depth=1),
    "hf/flat.png": png_rows(2, [[5, 5], [5, 5]], 0),
}

FILES = {
    "tex/sub/a.b.png": png(8, 4),
    "tex/sq.png": png(16, 16),
    "tex/srgb.png": png(6, 6, srgb=True),
    "tex/grid.png": png(12, 9),
    "tex/rgba.png": png(5, 3, 4),
    "tex/gray.png": png(5, 3, 1),
    "tex/wide.png": png(8, 4),
    "terrain.bin": struct.pack("<ii", 3, 2) + np.array([1, 2, 3, 4, 5, 6.5], "<f4").tobytes(),
    **HFIELD_PNGS,
    "hf/named.image": png_rows(2, [[1, 2], [3, 4], [0, 9]], 0),
}

FILE_MODEL = """
<mujoco>
  <compiler texturedir="tex" meshdir="."/>
  <asset>
    <texture type="2d" file="sub/a.b.png"/>
    <texture file="sq.png" colorspace="sRGB"/>
    <texture name="sk" type="skybox" file="sq.png"/>
    <texture name="s2" type="2d" file="srgb.png"/>
    <texture name="g" type="cube" file="grid.png" gridsize="3 4" gridlayout=".U..LFRB.D.."/>
    <texture name="w" type="cube" file="wide.png" gridsize="1 2"/>
    <texture name="r" type="2d" file="rgba.png"/>
    <texture name="r4" type="2d" file="rgba.png" nchannel="4"/>
    <texture name="g1" type="2d" file="gray.png" nchannel="1"/>
    <texture name="sep" type="cube" fileright="sq.png" fileleft="sq.png"/>
    <texture name="sepsky" type="skybox" fileup="sq.png"/>
    <texture name="bi" type="2d" builtin="flat" width="2" height="2" file="not/read.png"/>
    <hfield file="terrain.bin" size="1 1 1 1"/>
    <hfield file="hf/grey.png" size="1 2 0.3 0.1"/>
    <hfield file="hf/rgb.png" size="1 2 0.3 0.1"/>
    <hfield file="hf/rgba.png" size="1 2 0.3 0.1"/>
    <hfield file="hf/greyalpha.png" size="1 2 0.3 0.1"/>
    <hfield file="hf/grey16.png" size="1 2 0.3 0.1"/>
    <hfield file="hf/palette.png" size="1 2 0.3 0.1"/>
    <hfield file="hf/bits.png" size="1 2 0.3 0.1"/>
    <hfield file="hf/flat.png" size="1 2 0.3 0.1"/>
    <hfield name="typed" file="hf/named.image" content_type="image/png" size="3 2 1 0.5"/>
    <material name="m" texture="g"/>
  </asset>
  <worldbody>
    <geom type="hfield" hfield="terrain" material="m"/>
    <geom type="hfield" hfield="typed" pos="5 0 0"/>
    <light texture="s2"/>
  </worldbody>
</mujoco>
"""


def test_asset_files(tmp_path):
    for name, data in FILES.items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    model = tmp_path / "model.xml"
    model.write_text(FILE_MODEL)
    gm = gauss.Model.from_xml_path(str(model))
    mm = mujoco.MjModel.from_xml_path(str(model))
    oracle.assert_no_errors(compare(gm, mm))
    # the same files in memory
    gv = gauss.Model.from_xml_string(FILE_MODEL, assets=FILES)
    oracle.assert_no_errors(compare(gv, mm))
    assert np.array_equal(np.asarray(gm.tex_image), np.asarray(gv.tex_image))
    assert image_errors(gm, mm) == []
    # strippath drops the directories of the files read (a builtin's file name stays as written)
    stripped = tmp_path / "stripped.xml"
    stripped.write_text('<mujoco><compiler strippath="true" texturedir="tex"/><asset>'
                        '<texture type="2d" file="/nonexistent/dir/sq.png"/>'
                        '<texture name="b" type="2d" builtin="flat" width="2" height="2" '
                        'file="a/b/c.png"/></asset></mujoco>')
    oracle.assert_no_errors(compare(gauss.Model.from_xml_path(str(stripped)),
                                    mujoco.MjModel.from_xml_path(str(stripped))))


def image_errors(gm, mm):
    """the pixels of every texture read from a file against MuJoCo's tex_data (builtin textures
    keep their recipe in gauss: tex_imageadr -1)"""
    errors = []
    for i in range(mm.ntex):
        n = mm.tex_width[i] * mm.tex_height[i] * mm.tex_nchannel[i]
        a, ga = mm.tex_adr[i], gm.tex_imageadr[i]
        if gm.tex_builtin[i] > 0:
            continue
        if ga < 0:
            errors.append(f"texture {i}: no pixels in gauss")
        elif not np.array_equal(np.asarray(gm.tex_image[ga:ga + n]), mm.tex_data[a:a + n]):
            errors.append(f"texture {i}: pixels differ")
    return errors


def test_texture_pixels():
    """every way of giving a texture's image: colour types converted to 1, 3 or 4 channels, cube
    faces from a grid (flipped before it is cut) and from separate files (missing faces rgb1,
    truncated to bytes). Cube faces are compared with 3 channels only: MuJoCo 3.3.7 fills missing
    faces and copies face files 3 bytes a pixel whatever nchannel is (gauss fills whole pixels)."""
    files = {"a.png": png(4, 3), "g.png": png(4, 3, 1), "r.png": png(4, 3, 4), "ga.png": png(4, 3, 2),
             "sq.png": png(2, 2), "g2.png": png(2, 2, 1), "grid.png": png(8, 6), "wide.png": png(12, 2)}
    xml = """<mujoco><asset>
      <texture name="a" type="2d" file="a.png"/>
      <texture name="g3" type="2d" file="g.png"/>
      <texture name="r3" type="2d" file="r.png"/>
      <texture name="a4" type="2d" file="a.png" nchannel="4"/>
      <texture name="ga4" type="2d" file="ga.png" nchannel="4"/>
      <texture name="r1" type="2d" file="r.png" nchannel="1"/>
      <texture name="af" type="2d" file="a.png" hflip="true" vflip="true"/>
      <texture name="sk" type="skybox" file="sq.png"/>
      <texture name="cu" type="cube" file="sq.png" hflip="true"/>
      <texture name="grid" type="cube" file="grid.png" gridsize="3 4" gridlayout=".U..LFRB.D.."
               vflip="true" hflip="true"/>
      <texture name="w" type="cube" file="wide.png" gridsize="1 6" rgb1=".5 .3 .1"/>
      <texture name="sep" type="cube" fileright="sq.png" fileup="sq.png" hflip="true" vflip="true"
               rgb1=".9 .2 .45"/>
      <texture name="sep6" type="skybox" fileright="sq.png" fileleft="sq.png" fileup="sq.png"
               filedown="sq.png" filefront="sq.png" fileback="g2.png"/>
    </asset></mujoco>"""
    gm = gauss.Model.from_xml_string(xml, assets=files)
    mm = mujoco.MjModel.from_xml_string(xml, files)
    assert gm.nteximage == sum(mm.tex_width * mm.tex_height * mm.tex_nchannel)
    assert image_errors(gm, mm) == []


def test_unreadable_texture_warns(tmp_path):
    """a texture file that cannot be read or decoded: the model compiles (untextured) with a warning
    naming the file and line, where MuJoCo fails; the texture keeps no pixels"""
    (tmp_path / "bad.png").write_bytes(b"not a png at all, but long enough to be read as one")
    (tmp_path / "sq.png").write_bytes(png(4, 4))
    cases = [('<texture name="t" type="2d" file="bad.png"/>', "'bad.png': not a PNG image"),
             ('<texture name="t" type="2d" file="missing.png"/>', "'missing.png' cannot be read"),
             ('<texture name="t" type="2d" file="x.ktx"/>', "'x.ktx' cannot be read"),
             ('<texture name="t" type="cube" fileright="sq.png" fileup="gone.png"/>',
              "'gone.png' cannot be read"),
             ('<texture name="t" type="skybox" file="missing.png"/>', "'missing.png' cannot be read")]
    for asset, phrase in cases:
        model = tmp_path / "model.xml"
        model.write_text(f"<mujoco>\n<asset>\n{asset}\n<material name='m' texture='t'/>\n</asset>\n"
                         "<worldbody><geom size='1' material='m'/></worldbody>\n</mujoco>\n")
        with pytest.raises(ValueError):
            mujoco.MjModel.from_xml_path(str(model))
        gm = gauss.Model.from_xml_path(str(model))
        assert any("model.xml:3" in w and phrase in w for w in gm.load_warnings), (asset, gm.load_warnings)
        assert gm.tex_imageadr[0] == -1 and gm.tex_width[0] == 0 and gm.nteximage == 0


def test_asset_file_errors(tmp_path):
    (tmp_path / "bad.png").write_bytes(b"not a png at all, but long enough to be read as one")
    (tmp_path / "bad.bin").write_bytes(struct.pack("<ii", 2, 2) + b"\0" * 12)
    (tmp_path / "wide.png").write_bytes(png(8, 4))
    (tmp_path / "cut.png").write_bytes(png(8, 4)[:-30])  # image data cut short
    crc = bytearray(png(8, 4))
    crc[40] ^= 0xff  # a byte of the image data changed: checksum mismatch
    (tmp_path / "crc.png").write_bytes(bytes(crc))
    cases = [
        ('<texture name="t" type="cube" file="wide.png"/>', "is not a grid of 1x1 square faces"),
        ('<texture name="t" type="cube" fileright="wide.png"/>', "is not square"),
        ('<texture name="t" type="2d" fileright="wide.png"/>', "separate cube faces"),
        ('<texture name="t" type="2d" file="wide.png" content_type="image/ktx"/>', "KTX"),
        ('<texture name="t" type="2d" file="wide.png" content_type="image/foo"/>', "content type"),
        ('<hfield name="h" file="bad.bin" size="1 1 1 1"/>', "not a valid height field file"),
        ('<hfield name="h" file="bad.png" size="1 1 1 1"/>', "file 'bad.png': not a PNG image"),
        ('<hfield name="h" file="cut.png" size="1 1 1 1"/>', "file 'cut.png': not a valid PNG"),
        ('<hfield name="h" file="crc.png" size="1 1 1 1"/>', "file 'crc.png': not a valid PNG"),
        ('<hfield name="h" file="wide.png" size="1 1 1 1" content_type="image/foo"/>',
         "content type"),
        ('<hfield name="h" file="bad.bin" nrow="2" ncol="2" size="1 1 1 1"/>', "nrow and ncol"),
        ('<mesh name="m" file="missing.stl"/>', "cannot read file 'missing.stl'"),
    ]
    for asset, phrase in cases:
        model = tmp_path / "model.xml"
        model.write_text(f"<mujoco>\n<asset>\n{asset}\n</asset>\n</mujoco>\n")
        with pytest.raises(gauss.GaussError) as e:
            gauss.Model.from_xml_path(str(model))
        assert "model.xml:3:" in str(e.value) and phrase in str(e.value), (asset, str(e.value))


# ---- what is parsed and stored without warnings ----

STORED = """
<mujoco>
  <compiler meshdir="m" texturedir="t" assetdir="a" strippath="false" discardvisual="false"
            fusestatic="false" alignfree="false"/>
  <statistic meaninertia="2" meanmass="3" meansize="0.3" extent="5" center="1 2 3"/>
  <visual>
    <global cameraid="0" orthographic="true" fovy="40" ipd="0.07" azimuth="30" elevation="-20"
            linewidth="2" glow="0.2" realtime="0.5" offwidth="800" offheight="600"
            ellipsoidinertia="true" bvactive="false"/>
    <quality shadowsize="1024" offsamples="2" numslices="10" numstacks="8" numquads="2"/>
    <headlight ambient=".1 .2 .3" diffuse=".4 .5 .6" specular=".7 .8 .9" active="0"/>
    <map stiffness="10" stiffnessrot="20" force="0.1" torque="0.2" alpha="0.5" fogstart="2"
         fogend="4" znear="0.02" zfar="30" haze="0.1" shadowclip="2" shadowscale="0.5"
         actuatortendon="3"/>
    <scale forcewidth="0.2" contactwidth="0.2" contactheight="0.2" connect="0.3" com="0.5"
           camera="0.4" light="0.4" selectpoint="0.3" jointlength="2" jointwidth="0.2"
           actuatorlength="0.5" actuatorwidth="0.3" framelength="2" framewidth="0.2"
           constraint="0.2" slidercrank="0.3" frustum="5"/>
    <rgba fog="0 0 0 1" haze="1 1 1 1" force="1 0 0 1" inertia="1 0 0 1" joint="1 0 0 1"
          actuator="1 0 0 1" actuatornegative="1 0 0 1" actuatorpositive="1 0 0 1" com="1 0 0 1"
          camera="1 0 0 1" light="1 0 0 1" selectpoint="1 0 0 1" connect="1 0 0 1"
          contactpoint="1 0 0 1" contactforce="1 0 0 1" contactfriction="1 0 0 1"
          contacttorque="1 0 0 1" contactgap="1 0 0 1" rangefinder="1 0 0 1"
          constraint="1 0 0 1" slidercrank="1 0 0 1" crankbroken="1 0 0 1" frustum="1 0 0 1"
          bv="1 0 0 1" bvactive="1 0 0 1"/>
  </visual>
  <worldbody><camera/></worldbody>
</mujoco>
"""


def test_visual_statistic_compiler_stored_without_warnings():
    gm, mm = both_from_string(STORED)
    assert gm.load_warnings == []
    # znear is where a camera without a sensor puts its focal length
    assert np.allclose(gm.cam_intrinsic[0], [0.02, 0.02, 0, 0], atol=1e-8)


def test_transformations_not_applied_are_warned():
    # fitaabb is applied (test_mjcf_sweep_cases.py) and fusestatic too (test_fusestatic.py): not named
    m = gauss.Model.from_xml_string('<mujoco><compiler fitaabb="true"/></mujoco>')
    assert not any("fitaabb" in w for w in m.load_warnings)
    m = gauss.Model.from_xml_string('<mujoco><compiler fusestatic="true"/></mujoco>')
    assert not any("fusestatic" in w for w in m.load_warnings)


# ---- bad models: (body of <mujoco> with the culprit on line 2, element, phrase, MuJoCo too) ----

BAD = [
    ('<worldbody><camera fovy="30" sensorsize="1 1" resolution="1 1"/></worldbody>', "<camera>",
     "fovy and sensorsize", True),
    ('<worldbody><camera focal="1 1"/></worldbody>', "<camera>", "'sensorsize'", True),
    ('<worldbody><camera sensorsize="1 1"/></worldbody>', "<camera>", "'resolution'", True),
    ('<worldbody><camera resolution="-1 1"/></worldbody>', "<camera>", "negative", True),
    ('<worldbody><camera fovy="180"/></worldbody>', "camera", "fovy too large", True),
    ('<worldbody><camera mode="targetbody" target="nope"/></worldbody>', "camera",
     "unknown target body 'nope'", True),
    ('<worldbody><camera mode="bogus"/></worldbody>', "<camera>", "invalid value 'bogus'", True),
    ('<worldbody><camera pos="1 2"/></worldbody>', "<camera>", "expected 3 numbers", True),
    ('<worldbody><camera quat="0 0 0 0"/></worldbody>', "<camera>", "zero quaternion", True),
    ('<worldbody><camera xyaxes="1 0 0 1 0 0"/></worldbody>', "camera", "parallel", True),
    ('<worldbody><camera name="a"/><camera name="a"/></worldbody>', "camera 'a'",
     "repeated name", True),
    ('<worldbody><camera class="nope"/></worldbody>', "<camera>", "undefined class", True),
    ('<worldbody><camera bogus="1"/></worldbody>', "<camera>", "unknown attribute", True),
    ('<worldbody><light dir="0 0 0"/></worldbody>', "light", "zero direction", True),
    ('<worldbody><light type="spot" directional="true"/></worldbody>', "<light>",
     "type and directional", True),
    ('<worldbody><light type="laser"/></worldbody>', "<light>", "invalid value 'laser'", True),
    ('<worldbody><light texture="nope"/></worldbody>', "light", "unknown texture 'nope'", True),
    ('<worldbody><light target="nope"/></worldbody>', "light", "unknown target body", True),
    ('<worldbody><light name="a"/><light name="a"/></worldbody>', "light 'a'", "repeated name",
     True),
    ('<worldbody><light quat="1 0 0 0"/></worldbody>', "<light>", "unknown attribute 'quat'",
     True),
    ('<default><camera target="world"/></default>', "<camera>", "not allowed in <default>", True),
    ('<default><light texture="x"/></default>', "<light>", "not allowed in <default>", True),
    ('<default><camera focal="1 1"/></default>', "<camera>", "'sensorsize'", True),
    ('<default><pair geom1="a"/></default>', "<pair>", "not allowed in <default>", True),
    ('<default><mesh file="a.stl"/></default>', "<mesh>", "not allowed in <default>", True),
    ('<asset><texture name="t" type="2d" builtin="checker"/></asset>', "texture 't'",
     "positive width", True),
    ('<asset><texture name="t" type="2d" builtin="checker" width="2"/></asset>', "texture 't'",
     "positive height", True),
    ('<asset><texture name="t" type="3d" builtin="checker" width="2"/></asset>', "<texture>",
     "invalid value '3d'", True),
    ('<asset><texture type="2d" builtin="checker" width="2" height="2"/></asset>', "texture",
     "needs a name", True),
    ('<asset><texture name="t" type="2d"/></asset>', "texture 't'", "no data", True),
    ('<asset><texture name="t" type="cube"/></asset>', "texture 't'", "no data", True),
    ('<asset><texture name="t" type="2d" builtin="flat" width="2" height="2"/>'
     '<texture name="t" type="2d" builtin="flat" width="2" height="2"/></asset>', "texture 't'",
     "repeated name", True),
    ('<asset><texture name="t" builtin="flat" width="2" gridlayout="LR"/></asset>', "<texture>",
     "gridlayout", True),
    ('<asset><texture name="t" type="2d" builtin="flat" width="2" height="2" nchannel="2"/>'
     '</asset>', "texture 't'", "3 or 4 channels", None),  # MuJoCo corrupts its heap
    ('<asset><material name="m" texture="nope"/></asset>', "material 'm'",
     "unknown texture 'nope'", True),
    ('<asset><material texture="nope"/></asset>', "material", "needs a name", True),
    ('<asset><material name="m" rgba="1 1 1"/></asset>', "<material>", "expected 4 numbers",
     True),
    ('<asset><material name="m" class="nope"/></asset>', "<material>", "undefined class", True),
    ('<asset><texture name="t" type="2d" builtin="flat" width="2" height="2"/>'
     '<material name="m" texture="t"><layer texture="t" role="rgb"/></material></asset>',
     "<material>", "cannot have <layer>", True),
    ('<asset><texture name="t" type="2d" builtin="flat" width="2" height="2"/>'
     '<material name="m"><layer texture="t" role="bad"/></material></asset>', "<layer>",
     "invalid value 'bad'", True),
    ('<asset><material name="m"><layer role="rgb"/></material></asset>', "<layer>",
     "'texture'", True),
    ('<asset><material name="m"><layer texture="nope" role="rgb"/></material></asset>',
     "material 'm'", "unknown texture 'nope'", True),
    ('<asset><material name="m"><texture/></material></asset>', "<texture>", "not allowed", True),
    ('<asset><hfield name="h" nrow="2" ncol="2"/></asset>', "<hfield>", "'size'", True),
    ('<asset><hfield name="h" nrow="2" ncol="2" size="1 1 1 0"/></asset>', "hfield 'h'",
     "must be positive", True),
    ('<asset><hfield name="h" nrow="2" ncol="2" size="1 1 1 1" elevation="1 2 3"/></asset>',
     "<hfield>", "elevation has 3 values", True),
    ('<asset><hfield name="h" nrow="2" size="1 1 1 1"/></asset>', "hfield 'h'", "no data", True),
    ('<asset><hfield nrow="2" ncol="2" size="1 1 1 1"/></asset>', "hfield", "needs a name", True),
    ('<asset><hfield name="h" nrow="-2" ncol="2" size="1 1 1 1"/></asset>', "<hfield>",
     "negative", True),
    ('<asset><mesh name="m"/></asset>', "mesh 'm'", "no data", True),
    ('<asset><mesh vertex="0 0 0 1 0 0 0 1 0 0 0 1"/></asset>', "mesh", "needs a name", True),
    ('<asset><mesh name="m" vertex="0 0 0 1 0"/></asset>', "<mesh>", "multiple of 3", True),
    ('<asset><mesh name="m" vertex="0 0 0 1 0 0 0 1 0 0 0 1" inertia="heavy"/></asset>',
     "<mesh>", "invalid value 'heavy'", True),
    ('<asset><mesh name="m" vertex="0 0 0 1 0 0 0 1 0 0 0 1"/>'
     '<mesh name="m" vertex="0 0 0 1 0 0 0 1 0 0 0 1"/></asset>', "mesh 'm'", "repeated name",
     True),
    ('<asset><bogus/></asset>', "<bogus>", "unknown element", True),
    ('<asset><joint/></asset>', "<joint>", "not allowed in <asset>", True),
    ('<worldbody><geom type="hfield"/></worldbody>', "geom", "needs an hfield", True),
    ('<worldbody><geom type="hfield" hfield="nope"/></worldbody>', "geom", "unknown hfield",
     True),
    ('<worldbody><geom type="mesh"/></worldbody>', "geom", "needs a mesh", True),
    ('<worldbody><geom type="mesh" mesh="nope"/></worldbody>', "geom", "unknown mesh", True),
    ('<worldbody><geom size="1" material="nope"/></worldbody>', "geom",
     "unknown material 'nope'", True),
    ('<worldbody><site material="nope"/></worldbody>', "site", "unknown material 'nope'", True),
    ('<worldbody><geom name="a" size="1"/></worldbody><contact><pair geom1="a" geom2="b"/>'
     '</contact>', "pair", "unknown geom 'b'", True),
    ('<worldbody><geom name="a" size="1"/></worldbody><contact><pair geom1="a"/></contact>',
     "<pair>", "'geom2'", True),
    ('<worldbody><geom name="a" size="1"/></worldbody><contact>'
     '<pair geom1="a" geom2="a" condim="2"/></contact>', "pair", "condim", True),
    ('<worldbody><geom name="a" size="1"/></worldbody><contact>'
     '<pair geom1="a" geom2="a" friction="1 2 3 4 5 6"/></contact>', "<pair>",
     "expected 1 to 5 numbers", True),
    ('<worldbody><geom name="a" size="1"/></worldbody><contact>'
     '<pair geom1="a" geom2="a" class="nope"/></contact>', "<pair>", "undefined class", True),
    ('<worldbody><geom name="a" size="1"/></worldbody><contact>'
     '<pair name="p" geom1="a" geom2="a"/><pair name="p" geom1="a" geom2="a"/></contact>',
     "pair 'p'", "repeated name", True),
    ('<contact><exclude body1="world"/></contact>', "<exclude>", "'body2'", True),
    ('<contact><exclude body1="world" body2="nope"/></contact>', "exclude",
     "unknown body 'nope'", True),
    ('<contact><exclude name="e" body1="world" body2="world"/>'
     '<exclude name="e" body1="world" body2="world"/></contact>', "exclude 'e'", "repeated name",
     True),
    ('<contact><geom/></contact>', "<geom>", "not allowed in <contact>", True),
    ('<visual><global fovy="a"/></visual>', "<global>", "malformed number", True),
    ('<visual><global bogus="1"/></visual>', "<global>", "unknown attribute", True),
    ('<visual><quality shadowsize="1.5"/></visual>', "<quality>", "malformed integer", True),
    ('<visual><headlight ambient="1 1"/></visual>', "<headlight>", "expected 3 numbers", True),
    ('<visual><rgba haze="1 1 1"/></visual>', "<rgba>", "expected 4 numbers", True),
    ('<visual><body/></visual>', "<body>", "not allowed in <visual>", True),
    ('<statistic extent="-1"/>', "<statistic>", "must be positive", True),
    ('<statistic center="1 2"/>', "<statistic>", "expected 3 numbers", True),
    ('<worldbody><frame pos="1 2"/></worldbody>', "<frame>", "expected 3 numbers", True),
    ('<worldbody><frame quat="0 0 0 0"/></worldbody>', "<frame>", "zero quaternion", True),
    ('<worldbody><frame childclass="nope"/></worldbody>', "<frame>", "undefined class", True),
    ('<worldbody><frame name="f"/><frame name="f"/></worldbody>', "<frame>", "repeated name",
     True),
    ('<worldbody><frame><joint/></frame></worldbody>', "<joint>", "joint on the world body",
     True),
    ('<worldbody><frame axisangle="0 0 0 1"/></worldbody>', "frame", "zero axis", True),
    ('<worldbody><frame><bogus/></frame></worldbody>', "<bogus>", "unknown element", True),
    ('<compiler discardvisual="maybe"/>', "<compiler>", "invalid value 'maybe'", True),
    ('<size nuser_cam="1"/><worldbody><camera user="1 2"/></worldbody>', "camera",
     "more than nuser_cam", True),
]


@pytest.mark.parametrize("body,elem,phrase,mujoco_rejects", BAD,
                         ids=[f"{i}" for i in range(len(BAD))])
def test_bad_model(body, elem, phrase, mujoco_rejects):
    xml = "<mujoco>\n" + body + "\n</mujoco>\n"
    oracle.assert_rejected(xml, "<string>:2:", elem, phrase, mujoco_rejects)


# ---- what the next stages have to provide: clear errors now ----

MESH = '<asset><mesh name="m" vertex="0 0 0 1 0 0 0 1 0 0 0 1"/></asset>'


def test_geom_with_a_mesh_and_no_type_is_a_fitted_sphere():
    # the default type is sphere: it is fitted to the mesh (its size attribute is replaced)
    xml = f"<mujoco>\n{MESH}\n<worldbody>\n<geom size='1' mesh='m'/>\n</worldbody>\n</mujoco>"
    gm = gauss.Model.from_xml_string(xml)
    mm = mujoco.MjModel.from_xml_string(xml)
    assert gm.geom_type[0] == mm.geom_type[0] == 2
    assert abs(gm.geom_size - mm.geom_size).max() < 1e-12 and mm.geom_size[0, 0] != 1


def test_mesh_geom_with_explicit_inertia_compiles():
    xml = (f"<mujoco>{MESH}<worldbody><geom type='mesh' mesh='m'/><body><freejoint/>"
           "<inertial pos='0 0 0' mass='1' diaginertia='1 1 1'/><geom type='mesh' mesh='m'/>"
           "</body></worldbody></mujoco>")
    gm = gauss.Model.from_xml_string(xml)
    assert list(gm.geom_dataid) == [0, 0] and gm.nmesh == 1


# ---- texture coordinates of meshes ----

QUAD_OBJ = """v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0.5 0.5 1
vt 0 0
vt 1 0
vt 1 1
vt 0 1
vt 0.5 0.25
f 1/1 4/4 3/3 2/2
f 1/1/1 2/2/1 5/5/1
f 2/2 3/3 5/5
f 3/3 4/4 5/1
f -2/-2 -5/-5 5/5
"""

TEXCOORD_MODEL = """<mujoco><asset>
  <mesh name="obj" file="quad.obj"/><mesh name="objnotex" file="plain.obj"/><mesh name="msh" file="p.msh"/>
  <mesh name="none" vertex="0 0 0 1 0 0 0 1 0 0 0 1"/>
  <mesh name="hull" vertex="0 0 0 1 0 0 0 1 0 0 0 1" texcoord="0 0 1 0 0 1 .5 .5"/>
  <mesh name="faces" vertex="0 0 0 1 0 0 0 1 0 0 0 1" texcoord="0 0 1 0 0 1 .5 .5"
        face="0 2 1 0 1 3 0 3 2 1 2 3"/>
</asset><worldbody>
  <geom type="mesh" mesh="obj"/><geom type="mesh" mesh="objnotex" pos="1 0 0"/>
  <geom type="mesh" mesh="msh" pos="2 0 0"/><geom type="mesh" mesh="none" pos="3 0 0"/>
  <geom type="mesh" mesh="hull" pos="4 0 0"/><geom type="mesh" mesh="faces" pos="5 0 0"/>
</worldbody></mujoco>"""

TEXCOORD_FIELDS = ("mesh_texcoordadr", "mesh_texcoordnum", "mesh_texcoord", "mesh_facetexcoord")


def test_mesh_texcoords(tmp_path):
    """texture coordinates of OBJ files (v turned to 1 - v, per face corner), MSH files and
    MJCF's texcoord (per vertex, also on the hull's faces), none for a mesh without them: the
    compiled arrays equal MuJoCo's; they survive the binary model and the MJCF writer; a texcoord
    that is not one pair per vertex is refused naming the mesh's line"""
    (tmp_path / "quad.obj").write_text(QUAD_OBJ)
    (tmp_path / "plain.obj").write_text("\n".join(QUAD_OBJ.splitlines()[:5]) + "\nf 1 4 3 2\nf 1 2 5\n"
                                        "f 2 3 5\nf 3 4 5\nf 4 1 5\n")
    v = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [.5, .5, 1]], np.float32)
    t = np.array([[0, 0], [1, 0], [1, 1], [0, 1], [.5, .25]], np.float32)
    f = np.array([[0, 3, 2], [0, 2, 1], [0, 1, 4], [1, 2, 4], [2, 3, 4], [3, 0, 4]], np.int32)
    (tmp_path / "p.msh").write_bytes(struct.pack("<4i", 5, 0, 5, 6) + v.tobytes() + t.tobytes() + f.tobytes())
    path = tmp_path / "model.xml"
    path.write_text(TEXCOORD_MODEL)
    gm, mm = gauss.Model.from_xml_path(str(path)), mujoco.MjModel.from_xml_path(str(path))
    assert mm.nmeshtexcoord == 5 + 5 + 4 + 4 and list(mm.mesh_texcoordadr)[1] == -1
    for name in TEXCOORD_FIELDS + ("mesh_face",):
        np.testing.assert_array_equal(getattr(gm, name), getattr(mm, name), err_msg=name)
    gm.save_binary(str(tmp_path / "m.gsb"))
    (tmp_path / "out.xml").write_text(gm.to_xml())
    for again in (gauss.Model.from_binary_path(str(tmp_path / "m.gsb")),
                  gauss.Model.from_xml_path(str(tmp_path / "out.xml"))):
        for name in TEXCOORD_FIELDS:
            np.testing.assert_array_equal(getattr(again, name), getattr(mm, name), err_msg=name)
    bad = TEXCOORD_MODEL.replace('texcoord="0 0 1 0 0 1 .5 .5"/>', 'texcoord="0 0 1 0 0 1"/>')
    with pytest.raises(Exception, match="texcoord gives 3 pairs for 4 vertices") as e:
        gauss.Model.from_xml_string(bad.replace('file="', 'file="' + str(tmp_path) + "/"))
    assert "<string>:4: mesh 'hull'" in str(e.value), str(e.value)
    with pytest.raises(Exception):
        mujoco.MjModel.from_xml_string(bad.replace('file="', 'file="' + str(tmp_path) + "/"))


def test_file_names_laid_out_like_mujoco(tmp_path):
    """The paths buffer holds height fields' files first, then meshes', then textures', whatever
    order the assets come in (MuJoCo's test/benchmark/testdata/cache_hits.xml: gauss had the
    meshes first)."""
    (tmp_path / "terrain.bin").write_bytes(FILES["terrain.bin"])
    (tmp_path / "sq.png").write_bytes(FILES["tex/sq.png"])
    (tmp_path / "t.obj").write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")
    model = tmp_path / "model.xml"
    model.write_text("""<mujoco><asset><texture type="2d" file="sq.png"/><mesh file="t.obj"/>
  <hfield file="terrain.bin" size="1 1 1 1"/><mesh name="again" file="t.obj"/></asset>
  <worldbody><geom type="mesh" mesh="t"/></worldbody></mujoco>""")
    gm, mm = gauss.Model.from_xml_path(str(model)), mujoco.MjModel.from_xml_path(str(model))
    assert bytes(np.asarray(gm.paths, dtype=np.uint8)) == bytes(mm.paths)
    for f in ("mesh_pathadr", "hfield_pathadr", "tex_pathadr"):
        np.testing.assert_array_equal(getattr(gm, f), getattr(mm, f))
