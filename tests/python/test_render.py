"""The offscreen renderer (gauss.Renderer, libgauss_render) against MuJoCo's mujoco.Renderer at the
same state and camera: segmentation per object (intersection over union) and depth where both see
the same object. MuJoCo runs on the same GL back end (MUJOCO_GL=egl, set by conftest.py before
MuJoCo is first imported).

Images are small (96 x 128) to keep the file fast; objects that cover fewer than MIN_PIXELS pixels
in MuJoCo's image are left out of the IoU bound, because there a single boundary pixel (the two
tessellations round a silhouette differently by a fraction of a pixel) moves the ratio by more
than 2 %; they must still appear in both images or in neither when they cover MIN_PIXELS.
"""

import os

import mujoco
import numpy as np
import pytest

import gauss
from oracle import MODELS_DIR

H, W = 96, 128
MIN_PIXELS = 150
IOU = 0.98
DEPTH_REL = 0.01


def _load(path_or_xml, is_xml=False):
    if is_xml:
        return gauss.Model.from_xml_string(path_or_xml), mujoco.MjModel.from_xml_string(path_or_xml)
    return gauss.Model.from_xml_path(path_or_xml), mujoco.MjModel.from_xml_path(path_or_xml)


def _state(m, mm, seed, scale=0.3):
    """the same perturbed qpos0 in both engines, positions computed"""
    d, md = gauss.Data(m), mujoco.MjData(mm)
    rng = np.random.default_rng(seed)
    q = mm.qpos0.copy()
    q[7 if mm.nq >= 7 and mm.jnt_type[0] == 0 else 0:] += scale * rng.standard_normal(
        mm.nq - (7 if mm.nq >= 7 and mm.jnt_type[0] == 0 else 0))
    md.qpos[:] = q
    mujoco.mj_normalizeQuat(mm, md.qpos)
    d.qpos[:] = md.qpos
    gauss.forward(m, d)
    mujoco.mj_forward(mm, md)
    return d, md


def _mujoco_option():
    """MuJoCo's default visual options (geom, site and tendon groups 0-2) without the rangefinder
    rays, given to both engines: rays are decorations (no object of the segmentation), drawn by
    MuJoCo as lines one pixel wide and by gauss as thin cylinders, which would cut differently
    into the objects behind them"""
    opt = mujoco.MjvOption()
    opt.flags[mujoco.mjtVisFlag.mjVIS_RANGEFINDER] = False
    return opt


def _pair(m, mm, d, md, camera, mode, mcamera=None):
    """gauss's and MuJoCo's images in `mode` (rgb, seg, depth) from camera (MuJoCo: mcamera when
    given)"""
    r, mr = gauss.Renderer(m, H, W), mujoco.Renderer(mm, H, W)
    try:
        for x in (r, mr):
            if mode == "seg":
                x.enable_segmentation_rendering()
            elif mode == "depth":
                x.enable_depth_rendering()
        r.update_scene(d, camera=camera, scene_option=_mujoco_option())
        mr.update_scene(md, camera=camera if mcamera is None else mcamera,
                        scene_option=_mujoco_option())
        return r.render().copy(), mr.render().copy()
    finally:
        r.close()
        mr.close()


def _compare(m, mm, d, md, camera, label, mcamera=None):
    seg, mseg = _pair(m, mm, d, md, camera, "seg", mcamera)
    dep, mdep = _pair(m, mm, d, md, camera, "depth", mcamera)
    assert seg.shape == mseg.shape == (H, W, 2) and seg.dtype == np.int32
    objs = {tuple(o) for o in np.unique(np.concatenate([seg, mseg]).reshape(-1, 2), axis=0)
            if o[0] >= 0}
    checked = 0
    for o in sorted(objs):
        a, b = (seg == o).all(-1), (mseg == o).all(-1)
        if max(a.sum(), b.sum()) < MIN_PIXELS:
            continue
        iou = (a & b).sum() / (a | b).sum()
        assert iou >= IOU, f"{label}: object {o} IoU {iou:.4f} (gauss {a.sum()} px, MuJoCo {b.sum()} px)"
        checked += 1
    assert checked >= 1, f"{label}: no object covers {MIN_PIXELS} pixels"
    same = (seg == mseg).all(-1) & (seg[..., 0] >= 0)
    assert same.sum() >= 0.95 * (seg[..., 0] >= 0).sum() > 0, label
    rel = np.abs(dep - mdep)[same] / mdep[same]
    assert rel.max() <= DEPTH_REL, f"{label}: depth differs by {rel.max():.3g} relative"
    return checked


# (model, camera, seed): named cameras of every camera mode in the corpus (fixed, tracking,
# trackcom, egocentric inside a geom), a height field (quadruped), and the free camera
CASES = [
    ("dm_control/cartpole", "fixed", 0),
    ("dm_control/cartpole", "lookatcart", 1),
    ("dm_control/humanoid", "side", 2),
    ("dm_control/humanoid", "egocentric", 3),
    ("dm_control/fish", "eye", 4),
    ("dm_control/quadruped", "x", 5),
    ("gymnasium/ant", 0, 6),
    ("mujoco/humanoid", 1, 7),
]


@pytest.mark.parametrize("model_id,camera,seed", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_named_camera_matches_mujoco(model_id, camera, seed):
    m, mm = _load(os.path.join(MODELS_DIR, model_id + ".xml"))
    d, md = _state(m, mm, seed)
    _compare(m, mm, d, md, camera, f"{model_id} camera {camera}")


def test_free_camera_matches_mujoco():
    m, mm = _load(os.path.join(MODELS_DIR, "dm_control/walker.xml"))
    d, md = _state(m, mm, 8)
    cam = mujoco.MjvCamera()
    mujoco.mjv_defaultFreeCamera(mm, cam)
    # gauss's own default free camera is MuJoCo's (center and extent of the model statistic)
    g = gauss.FreeCamera()
    r = gauss.Renderer(m, 8, 8)
    try:
        camid = r._camera_of(d, -1)
        np.testing.assert_allclose(list(camid.lookat), cam.lookat, atol=1e-12)
        assert abs(camid.distance - cam.distance) <= 1e-12 * cam.distance
        assert (camid.azimuth, camid.elevation) == (cam.azimuth, cam.elevation)
    finally:
        r.close()
    cam.azimuth, cam.elevation, cam.distance = 130.0, -25.0, 0.8 * cam.distance
    g.lookat, g.distance, g.azimuth, g.elevation = cam.lookat.copy(), cam.distance, 130.0, -25.0
    _compare(m, mm, d, md, g, "walker free camera", mcamera=cam)
    seg, _ = _pair(m, mm, d, md, g, "seg", cam)
    seg2, _ = _pair(m, mm, d, md, cam, "seg")
    np.testing.assert_array_equal(seg, seg2)  # an MjvCamera and a FreeCamera are the same camera


# every geom type and a site, with a mesh, a height field with relief, a material and an
# ellipsoid, seen from a fixed camera and a camera that targets a body
SHAPES = """
<mujoco>
  <asset>
    <mesh name="tet" vertex="0 0 0  .3 0 0  0 .3 0  0 0 .3"/>
    <hfield name="hill" nrow="5" ncol="6" size=".6 .5 .3 .1"
            elevation="0 0 0 0 0 0  0 .2 .5 .5 .2 0  0 .5 1 1 .5 0  0 .2 .5 .5 .2 0  0 0 0 0 0 0"/>
    <material name="red" rgba=".8 .1 .1 1"/>
  </asset>
  <worldbody>
    <light pos="0 0 4" dir="0 0 -1"/>
    <geom type="plane" size="3 3 .1" rgba=".3 .3 .3 1"/>
    <geom type="hfield" hfield="hill" pos="-1 1 .05"/>
    <camera name="top" pos="-.2 -1.3 1.6" xyaxes="1 0 0 0 .8 .6"/>
    <body pos="0 0 .5">
      <freejoint/>
      <geom type="box" size=".2 .15 .1" material="red"/>
      <geom type="sphere" size=".12" pos=".4 0 0"/>
      <geom type="capsule" size=".07 .15" pos="-.4 0 0" euler="0 60 0"/>
      <geom type="cylinder" size=".1 .12" pos="0 .4 0" euler="30 0 0"/>
      <geom type="ellipsoid" size=".15 .08 .05" pos="0 -.4 0"/>
      <geom type="mesh" mesh="tet" pos=".4 .4 0"/>
      <site type="box" size=".05 .05 .05" pos="-.4 -.4 0" rgba="0 1 0 1"/>
    </body>
    <body name="target" pos="1 0 .3"><geom type="box" size=".1 .1 .1"/></body>
    <camera name="aim" pos="1.5 -1.5 1.2" mode="targetbody" target="target"/>
  </worldbody>
</mujoco>
"""


@pytest.mark.parametrize("camera", ["top", "aim"])
def test_every_geom_type_matches_mujoco(camera):
    m, mm = _load(SHAPES, is_xml=True)
    d, md = gauss.Data(m), mujoco.MjData(mm)
    quat = np.array([0.9, 0.2, 0.3, 0.1])
    md.qpos[3:7] = d.qpos[3:7] = quat / np.linalg.norm(quat)
    gauss.forward(m, d)
    mujoco.mj_forward(mm, md)
    checked = _compare(m, mm, d, md, camera, f"shapes camera {camera}")
    assert checked >= (4 if camera == "top" else 2)
    if camera == "top":
        seg, _ = _pair(m, mm, d, md, camera, "seg")
        types = {tuple(o) for o in seg.reshape(-1, 2)}
        assert (0, 6) in types  # the site, as MuJoCo's objtype mjOBJ_SITE


def test_rgb_image():
    m, mm = _load(SHAPES, is_xml=True)
    d = gauss.Data(m)
    gauss.forward(m, d)
    with gauss.Renderer(m, H, W) as r:
        r.update_scene(d, camera="top")
        rgb = r.render()
        r.enable_segmentation_rendering()
        seg = r.render()
    assert rgb.shape == (H, W, 3) and rgb.dtype == np.uint8
    box = (seg[..., 1] == 5) & (seg[..., 0] == 2)   # the red box (its material's colour)
    site = (seg[..., 1] == 6)                        # the green site
    assert box.sum() > 50 and site.sum() > 5
    px = rgb[box].astype(int)
    assert (px[:, 0] > px[:, 1] + 40).all() and (px[:, 0] > px[:, 2] + 40).all()
    px = rgb[site].astype(int)
    assert (px[:, 1] > px[:, 0] + 40).all()
    # lit: the same colour is shaded differently across the model (not a flat mask)
    assert len(np.unique(rgb[seg[..., 0] >= 0].reshape(-1, 3), axis=0)) > 20


def test_camera_errors():
    m, _ = _load(os.path.join(MODELS_DIR, "dm_control/cartpole.xml"))
    d = gauss.Data(m)
    gauss.forward(m, d)
    with gauss.Renderer(m, 16, 16) as r:
        with pytest.raises(ValueError, match="no camera named 'nope'.*fixed, lookatcart"):
            r.update_scene(d, camera="nope")
        with pytest.raises(ValueError, match="out of range"):
            r.update_scene(d, camera=7)
        with pytest.raises(RuntimeError, match="update_scene first"):
            r.render()
    with pytest.raises(RuntimeError, match="closed"):
        r.update_scene(d, camera=0)


def test_osmesa_back_end_matches_egl(monkeypatch):
    m, mm = _load(os.path.join(MODELS_DIR, "dm_control/cartpole.xml"))
    d, md = _state(m, mm, 9)
    images = {}
    for backend in ("egl", "osmesa"):
        monkeypatch.setenv("GAUSS_GL", backend)
        with gauss.Renderer(m, H, W) as r:
            assert r.backend == backend
            r.enable_segmentation_rendering()
            r.update_scene(d, camera="fixed")
            images[backend] = r.render()
    same = (images["egl"] == images["osmesa"]).all(-1).mean()
    assert same >= 0.999, same
    monkeypatch.setenv("GAUSS_GL", "vulkan")
    with pytest.raises(RuntimeError, match="GAUSS_GL=vulkan: expected egl or osmesa"):
        gauss.Renderer(m, H, W)


def _visual_pairs(v, mv):
    """every member of gauss's m.vis beside MuJoCo's m.vis member of the same name, flattened"""
    from gauss._lib import VISUAL_MAP, VISUAL_SCALE, VISUAL_RGBA
    got = [v.fovy, v.azimuth, v.elevation, v.znear, v.zfar, v.fogstart, v.fogend,
           *v.headlight_ambient, *v.headlight_diffuse, *v.headlight_specular,
           v.headlight_active, v.numslices, v.numstacks, v.shadowsize, v.offsamples, v.numquads]
    want = [mv.global_.fovy, mv.global_.azimuth, mv.global_.elevation, mv.map.znear,
            mv.map.zfar, mv.map.fogstart, mv.map.fogend, *mv.headlight.ambient,
            *mv.headlight.diffuse, *mv.headlight.specular, mv.headlight.active,
            mv.quality.numslices, mv.quality.numstacks, mv.quality.shadowsize,
            mv.quality.offsamples, mv.quality.numquads]
    for group, names, count in (("map", VISUAL_MAP, 1), ("scale", VISUAL_SCALE, 1),
                                ("rgba", VISUAL_RGBA, 4)):
        for n in names:
            g, w = getattr(v, group + "_" + n), getattr(getattr(mv, group), n)
            if count > 1 and len(w) == 0:
                continue  # MuJoCo 3.3.7's Python binding gives rgba.bv and rgba.bvactive empty
            got += list(g) if count > 1 else [g]
            want += list(w) if count > 1 else [w]
    return got, want


def test_statistic_matches_mujoco():
    """stat.extent and stat.center (the renderer's clipping planes and default free camera) and
    the renderer's part of <visual> equal MuJoCo's on every corpus model."""
    from oracle import corpus_models
    for model_id, path in corpus_models():
        m, mm = gauss.Model.from_xml_path(path), mujoco.MjModel.from_xml_path(path)
        np.testing.assert_allclose(list(m.stat.center), mm.stat.center, atol=1e-9, err_msg=model_id)
        assert m.stat.extent == pytest.approx(mm.stat.extent, rel=1e-9), model_id
        # the renderer's part of <visual>, as MuJoCo keeps it (single precision)
        got, want = _visual_pairs(m.vis, mm.vis)
        np.testing.assert_array_equal(np.float32(got), np.float32(want), err_msg=model_id)


# every <visual> setting the model keeps, none at MJCF's default, each colour its own
VISUAL = """<mujoco><visual>
  <quality shadowsize="512" offsamples="2" numslices="10" numstacks="8" numquads="2"/>
  <map stiffness="10" stiffnessrot="20" force="0.1" torque="0.2" alpha="0.5" fogstart="2"
       fogend="4" znear="0.02" zfar="30" haze="0.1" shadowclip="2" shadowscale="0.5"
       actuatortendon="3"/>
  <scale forcewidth="0.21" contactwidth="0.22" contactheight="0.23" connect="0.31" com="0.51"
         camera="0.41" light="0.42" selectpoint="0.32" jointlength="2.1" jointwidth="0.24"
         actuatorlength="0.52" actuatorwidth="0.33" framelength="2.2" framewidth="0.25"
         constraint="0.26" slidercrank="0.34" frustum="5"/>
  <rgba %s/>
</visual><worldbody><geom size=".1"/></worldbody></mujoco>"""


def test_visual_settings_match_mujoco(tmp_path):
    """Every <map>, <scale>, <rgba> and <quality> setting the model keeps equals MuJoCo's m.vis,
    and survives the binary model and the MJCF writer."""
    from gauss._lib import VISUAL_MAP, VISUAL_SCALE, VISUAL_RGBA
    colours = " ".join(f'{n}="{0.01 * i:g} {0.5 + 0.01 * i:g} {1 - 0.02 * i:g} {0.9 - 0.01 * i:g}"'
                       for i, n in enumerate(VISUAL_RGBA))
    xml = VISUAL % colours
    m, mm = _load(xml, is_xml=True)
    got, want = _visual_pairs(m.vis, mm.vis)
    np.testing.assert_array_equal(np.float32(got), np.float32(want))
    # (those the binding leaves empty against the values given)
    for i, n in enumerate(VISUAL_RGBA):
        if len(getattr(mm.vis.rgba, n)) == 0:
            np.testing.assert_array_equal(np.float32(getattr(m.vis, "rgba_" + n)), np.float32(
                [0.01 * i, 0.5 + 0.01 * i, 1 - 0.02 * i, 0.9 - 0.01 * i]), err_msg=n)
    # none of the settings above is MJCF's default, so each comparison could fail
    dv = mujoco.MjModel.from_xml_string("<mujoco/>").vis
    for group, names in (("map", VISUAL_MAP), ("scale", VISUAL_SCALE), ("rgba", VISUAL_RGBA)):
        for n in names:
            if n not in ("bv", "bvactive"):
                assert np.any(np.float32(getattr(getattr(mm.vis, group), n)) !=
                              np.float32(getattr(getattr(dv, group), n))), (group, n)
    m.save_binary(str(tmp_path / "m.gsb"))
    for again in (gauss.Model.from_binary_path(str(tmp_path / "m.gsb")),
                  gauss.Model.from_xml_string(m.to_xml())):
        np.testing.assert_array_equal(np.float32(_visual_pairs(again.vis, mm.vis)[0]), np.float32(want))


def test_overlays():
    """Overlays are decorations (segmentation -1, type 0), off by default: body frames in their
    axis colours, contact points at the contacts, contact force arrows."""
    xml = """<mujoco><worldbody><light pos="0 0 3" dir="0 0 -1"/>
      <geom type="plane" size="2 2 .1" rgba=".5 .5 .5 1"/>
      <body pos="0 0 .1"><freejoint/><geom type="box" size=".1 .1 .1" rgba=".2 .2 .8 1"/></body>
      </worldbody></mujoco>"""
    m = gauss.Model.from_xml_string(xml)
    d = gauss.Data(m)
    for _ in range(200):
        gauss.step(m, d)
    gauss.forward(m, d)
    assert d.ncon == 4
    cam = gauss.FreeCamera(lookat=(0, 0, 0.1), distance=1.0, azimuth=225, elevation=-30)

    def seg_of(**flags):
        with gauss.Renderer(m, H, W) as r:
            for k, v in flags.items():
                setattr(r.option, k, v)
            r.update_scene(d, camera=cam)
            rgb = r.render().copy()
            r.enable_segmentation_rendering()
            return rgb, r.render()

    _, plain = seg_of()
    assert not ((plain[..., 0] == -1) & (plain[..., 1] == 0)).any()
    for flag in ("frame", "contactpoint", "contactforce"):  # (the centre of mass is inside the box)
        rgb, seg = seg_of(**{flag: 1})
        decor = (seg[..., 0] == -1) & (seg[..., 1] == 0)
        assert decor.sum() > 3, flag
    rgb, seg = seg_of(frame=1)
    decor = (seg[..., 0] == -1) & (seg[..., 1] == 0)
    px = rgb[decor].astype(int)
    # the x axis red, y green, z blue: each colour leads somewhere
    for c in range(3):
        others = [k for k in range(3) if k != c]
        assert ((px[:, c] > px[:, others[0]] + 60) & (px[:, c] > px[:, others[1]] + 60)).any(), c


# ---- the command line: gauss render ----

def _gauss_command():
    # beside the library in a build tree; in the package's bin/ when installed (the wheel's and
    # pip's layout)
    lib = os.environ.get("GAUSS_LIBRARY") or gauss._lib.path
    here = os.path.dirname(os.path.abspath(lib))
    for exe in (os.path.join(here, "gauss"), os.path.join(here, "bin", "gauss")):
        if os.access(exe, os.X_OK):
            return exe
    raise AssertionError(f"no gauss command beside {lib} or in its bin/")


def _png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def test_command_renders_png_and_mp4(tmp_path):
    import subprocess
    exe = _gauss_command()
    xml = os.path.join(MODELS_DIR, "dm_control", "cartpole.xml")
    png = tmp_path / "frame.png"
    r = subprocess.run([exe, "render", xml, "--camera", "fixed", "--time", "0.2", "--width", "64",
                        "--height", "48", "--out", str(png)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert _png_size(png) == (64, 48)
    mp4 = tmp_path / "run.mp4"
    r = subprocess.run([exe, "render", xml, "--time", "0.5", "--fps", "20", "--width", "64",
                        "--height", "48", "--out", str(mp4)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "11 frames" in r.stdout  # 0, 0.05, ..., 0.5 s
    probe = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
                            "-show_entries", "stream=nb_read_frames,width,height", "-of", "csv=p=0",
                            str(mp4)], capture_output=True, text=True)
    assert probe.stdout.strip() == "64,48,11", probe.stdout + probe.stderr
    # a camera that does not exist: an error that lists the cameras
    r = subprocess.run([exe, "render", xml, "--camera", "nope", "--out", str(png)],
                       capture_output=True, text=True)
    assert r.returncode != 0 and "no camera 'nope'" in r.stderr and "0 (fixed)" in r.stderr
    r = subprocess.run([exe, "render", xml, "--out", str(tmp_path / "x.gif")], capture_output=True,
                       text=True)
    assert r.returncode == 2 and ".png or .mp4" in r.stderr


def test_builtin_textures():
    """A checker plane seen from straight above: 2 x 2 squares per repetition, texrepeat 2 over a
    plane of half-size 2, so squares of 1 m alternating from rgb1 at the corner square [0 1]^2
    ... (the parity of the square's indices); a gradient skybox is rgb1 above and rgb2 below."""
    xml = """<mujoco><asset>
      <texture name="chk" type="2d" builtin="checker" rgb1="1 0 0" rgb2="0 0 1" width="64" height="64"/>
      <texture name="sky" type="skybox" builtin="gradient" rgb1="0 1 0" rgb2="0 0 0" width="32" height="32"/>
      <material name="floor" texture="chk" texrepeat="2 2"/></asset>
      <worldbody><camera name="down" pos="0 0 5"/><camera name="side" pos="0 0 10" xyaxes="1 0 0 0 0 1"/>
      <geom type="plane" size="2 2 .1" material="floor"/></worldbody></mujoco>"""
    m = gauss.Model.from_xml_string(xml)
    d = gauss.Data(m)
    gauss.forward(m, d)
    with gauss.Renderer(m, H, W) as r:
        r.option.headlight = 1
        r.update_scene(d, camera="down")
        rgb = r.render().astype(int)
        f = (H / 2) / (5 * np.tan(np.radians(22.5)))  # pixels per metre on the plane
        for x, y, red in [(0.5, 0.5, True), (1.5, 0.5, False), (-0.5, 0.5, False), (-1.5, -1.5, True)]:
            px, py = int(W / 2 + x * f), int(H / 2 - y * f)
            c = rgb[py, px]
            assert (c[0] > c[2] + 40) == red and (c[2] > c[0] + 40) == (not red), (x, y, c)
        r.update_scene(d, camera="side")  # level, above the plane's far edge: sky above and below
        sky = r.render().astype(int)
    assert sky[0, :, 1].mean() > sky[H // 2 - 5, :, 1].mean() + 20  # greener towards the zenith
    assert (sky[..., 0] == 0).all() and (sky[..., 2] == 0).all()    # green to black only


TENDONS = """<mujoco><worldbody><light pos="0 0 3" dir="0 0 -1"/>
  <camera name="front" pos="0 -1.6 .5" xyaxes="1 0 0 0 0 1"/>
  <site name="a" pos="-.6 0 .8" size=".02"/>
  <body pos=".5 0 .3"><joint type="hinge" axis="0 1 0"/><geom type="box" size=".1 .1 .1"/>
    <site name="b" pos="0 0 .1" size=".02"/></body>
  <body pos="0 0 .3"><geom name="wrap" type="cylinder" size=".12 .2" euler="90 0 0" rgba=".2 .8 .2 1"/>
    <site name="side" pos="0 0 .3" size=".01"/></body>
  <site name="c" pos="-.6 0 .1" size=".02"/>
  </worldbody>
  <tendon>
    <spatial name="t1" width=".03" rgba=".9 .9 .1 1"><site site="a"/><geom geom="wrap" sidesite="side"/><site site="b"/></spatial>
    <spatial name="t2" width=".02"><site site="c"/><site site="b"/><pulley divisor="2"/><site site="c"/><site site="a"/></spatial>
  </tendon>
</mujoco>"""


def test_spatial_tendons_match_mujoco():
    """Spatial tendons (segmentation type 18) through sites, around a wrapping cylinder, and in two
    branches after a pulley, as MuJoCo draws them by default"""
    m, mm = _load(TENDONS, is_xml=True)
    d, md = gauss.Data(m), mujoco.MjData(mm)
    md.qpos[0] = d.qpos[0] = 0.3
    gauss.forward(m, d)
    mujoco.mj_forward(mm, md)
    _compare(m, mm, d, md, "front", "tendons")
    seg, _ = _pair(m, mm, d, md, "front", "seg")
    for t in range(2):
        assert ((seg[..., 0] == t) & (seg[..., 1] == 18)).sum() >= MIN_PIXELS, t


def test_bad_arguments():
    m, _ = _load(os.path.join(MODELS_DIR, "dm_control/cartpole.xml"))
    other = gauss.Model.from_xml_string("<mujoco/>")
    with pytest.raises(RuntimeError, match="positive size"):
        gauss.Renderer(m, 0, 10)
    with pytest.raises(RuntimeError, match="larger than the back end's limit"):
        gauss.Renderer(m, 10, 1 << 20)
    with gauss.Renderer(m, 8, 8) as r:
        with pytest.raises(ValueError, match="another model"):
            r.update_scene(gauss.Data(other))
        with pytest.raises(TypeError, match="camera must be"):
            r.update_scene(gauss.Data(m), camera=1.5)
        d = gauss.Data(m)
        r.update_scene(d, camera=0)
        with pytest.raises(ValueError, match="out must be"):
            r.render(out=np.zeros((8, 8, 3), np.float32))
        out = np.zeros((8, 8, 3), np.uint8)
        assert r.render(out=out) is out


def test_shadow_of_a_box():
    """A directional light along (1, 0, -1) casts the shadow of a box centred at height h onto
    the floor over x + z of the box's points: x in [h - 2a, h + 2a], |y| <= a. Seen from above,
    the floor at x = h + a is in it (darker), the floor at x = -(h + a) is not; without shadows
    both are the same colour."""
    h, a = 1.0, 0.2
    xml = f"""<mujoco><visual><headlight active="0"/></visual><worldbody>
      <light directional="true" dir="1 0 -1" castshadow="true" diffuse=".8 .8 .8" ambient=".2 .2 .2"/>
      <camera name="top" pos="0 0 10"/>
      <geom type="plane" size="3 3 .1" rgba=".8 .8 .8 1"/>
      <geom type="box" size="{a} {a} {a}" pos="0 0 {h}" rgba=".8 .2 .2 1"/></worldbody></mujoco>"""
    m = gauss.Model.from_xml_string(xml)
    d = gauss.Data(m)
    gauss.forward(m, d)
    f = (H / 2) / (10 * np.tan(np.radians(22.5)))

    def floor_at(x, shadow):
        with gauss.Renderer(m, H, W) as r:
            r.option.shadow = shadow
            r.option.multisample = 0
            r.update_scene(d, camera="top")
            rgb = r.render().astype(int)
        return rgb[H // 2, int(W / 2 + x * f)]

    inside, outside = floor_at(h + a, 1), floor_at(-(h + a), 1)
    assert (inside < outside - 40).all(), (inside, outside)
    np.testing.assert_allclose(floor_at(h + a, 0), floor_at(-(h + a), 0), atol=2)


def test_gymnasium_rgb_array_and_depth():
    """Gymnasium's render modes on gauss's environments draw with gauss.Renderer: the frame has
    the environment's size, the robot in it (segmentation through the env's renderer), and depth
    where the robot is nearer than the floor behind it."""
    gymnasium = pytest.importorskip("gymnasium")
    import gauss.gym  # noqa: F401  (registers the environments)
    env = gymnasium.make("gauss/Hopper-v5", render_mode="rgb_array", width=64, height=48)
    env.reset(seed=0)
    frame = env.render()
    assert frame.shape == (48, 64, 3) and frame.dtype == np.uint8
    assert len(np.unique(frame.reshape(-1, 3), axis=0)) > 20
    env.close()
    env = gymnasium.make("gauss/Hopper-v5", render_mode="rgbd_tuple", width=64, height=48)
    env.reset(seed=0)
    rgb, depth = env.render()
    assert rgb.shape == (48, 64, 3) and depth.shape == (48, 64) and depth.dtype == np.float32
    assert depth.min() > 0 and depth.max() > 1.5 * depth.min()
    env.close()
