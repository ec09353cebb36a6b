"""Textures read from PNG files, drawn by gauss.Renderer: a 2d image on a plane against the image's
closed form (texel per pixel), the faces of a cube texture on a box and a skybox's six faces
against the cube-map convention and against mujoco.Renderer (3.3.7, same EGL back end), the mean
colour of textured objects under the model's lights against MuJoCo's, and a texture file that
cannot be read (a load warning, the model drawn untextured).

The scenes are lit by the headlight's ambient light only (ambient 1, no diffuse or specular, no
model lights) where colours are compared with a closed form: a pixel's colour is then the texture's
colour (times the geom's white rgba) exactly, up to the 8-bit rounding and the blending of texels
at texel borders, which the closed-form checks stay away from."""

import struct
import zlib

import mujoco
import numpy as np
import pytest

import gauss

AMBIENT = '<visual><headlight ambient="1 1 1" diffuse="0 0 0" specular="0 0 0"/></visual>'


def png(img):
    """an RGB image (h, w, 3 uint8) as PNG bytes"""
    h, w, _ = img.shape
    raw = b"".join(b"\0" + img[y].tobytes() for y in range(h))

    def chunk(tag, data):
        return (struct.pack(">I", len(data)) + tag + data
                + struct.pack(">I", zlib.crc32(tag + data) & 0xffffffff))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


# a 4 x 4 image of 16 different colours: texel (row, col) has red 40 + 60 col, green 40 + 60 row
TEXELS = np.zeros((4, 4, 3), np.uint8)
TEXELS[:, :, 0] = 40 + 60 * np.arange(4)[None, :]
TEXELS[:, :, 1] = 40 + 60 * np.arange(4)[:, None]
TEXELS[:, :, 2] = 200

# six faces of a cube texture: a colour each, with a black top-left quarter (it shows each face's
# orientation)
FACE_RGB = {"right": (255, 0, 0), "left": (0, 255, 0), "up": (0, 0, 255), "down": (255, 255, 0),
            "front": (255, 0, 255), "back": (0, 255, 255)}


def face_png(rgb):
    f = np.zeros((8, 8, 3), np.uint8)
    f[:] = rgb
    f[:4, :4] = 0
    return png(f)


FILES = {"texels.png": png(TEXELS), **{f"{k}.png": face_png(v) for k, v in FACE_RGB.items()}}
CUBE_FILES = " ".join(f'file{k}="{k}.png"' for k in FACE_RGB)


def images(renderer, d, camera, seg):
    """the renderer's image from camera (a name, or a list of names: a list of images); either
    engine's Renderer (gauss's has MuJoCo's interface)"""
    with renderer as r:
        if seg:
            r.enable_segmentation_rendering()
        out = []
        for c in [camera] if isinstance(camera, str) else camera:
            r.update_scene(d, camera=c)
            out.append(r.render().copy())
    return out[0] if isinstance(camera, str) else out


def render(xml, camera, h=64, w=64, seg=False):
    """gauss's image from camera (a name, or a list of names: a list of images)"""
    m = gauss.Model.from_xml_string(xml, assets=FILES)
    d = gauss.Data(m)
    gauss.forward(m, d)
    return images(gauss.Renderer(m, h, w), d, camera, seg)


def render_mujoco(xml, camera, h=64, w=64, seg=False):
    """mujoco.Renderer's image(s), as render"""
    m = mujoco.MjModel.from_xml_string(xml, FILES)
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    return images(mujoco.Renderer(m, h, w), d, camera, seg)


def bilinear(u, v):
    """the image sampled as GL samples a magnified texture with linear filtering and repetition:
    the four texels whose centres surround (u, v) (in repetitions, v from the top row), weighted
    by distance"""
    s, t = u * 4 - 0.5, v * 4 - 0.5
    i0, j0 = np.floor(s).astype(int), np.floor(t).astype(int)
    fs, ft = (s - i0)[..., None], (t - j0)[..., None]
    c = TEXELS.astype(float)
    at = lambda j, i: c[j % 4, i % 4]  # noqa: E731
    return ((1 - ft) * ((1 - fs) * at(j0, i0) + fs * at(j0, i0 + 1))
            + ft * ((1 - fs) * at(j0 + 1, i0) + fs * at(j0 + 1, i0 + 1)))


@pytest.mark.parametrize("repeat,uniform", [("1 1", "false"), ("2 3", "false"), ("1 2", "true")])
def test_plane_image_closed_form(repeat, uniform):
    """a 2d image on a 1.5 x 1 plane seen head-on by an orthographic camera: every pixel has the
    image's colour, linearly filtered, at MJCF's texture coordinates u = 1/2 + r x / (2 sx)
    (texuniform: 1/2 + r x / 2), v = 1/2 - r y / (2 sy) (rows from the top), repeated"""
    xml = f"""<mujoco>{AMBIENT}<asset><texture name="t" type="2d" file="texels.png"/>
      <material name="m" texture="t" texrepeat="{repeat}" texuniform="{uniform}" specular="0"/>
      </asset><worldbody><geom type="plane" size="1.5 1 .1" material="m"/>
      <camera name="top" pos="0 0 2" xyaxes="1 0 0 0 1 0" orthographic="true" fovy="2"/>
      </worldbody></mujoco>"""
    n = 96
    img = render(xml, "top", n, n).astype(float)
    rx, ry = (float(v) for v in repeat.split())
    # pixel centres in the world: the camera sees [-1 1]^2
    c = (np.arange(n) + 0.5) / n * 2 - 1
    x, y = np.meshgrid(c, -c)
    sx = 1 if uniform == "true" else 1.5
    sy = 1
    want = bilinear(0.5 + rx * x / (2 * sx), 0.5 - ry * y / (2 * sy))
    err = np.abs(img - want).max(axis=2)
    # the result is rounded to 8 bits (and the blend weights are fixed point): measured 0.5 at
    # most on llvmpipe
    assert err.max() <= 1, (err.max(), np.argwhere(err > 1)[:5])


def _face_cameras(center, dist):
    """cameras outside each face of a box at center, looking at it: +z up for the side faces, +y
    up for the top and bottom"""
    out = []
    for name, n, up in [("px", (1, 0, 0), (0, 0, 1)), ("nx", (-1, 0, 0), (0, 0, 1)),
                        ("py", (0, 1, 0), (0, 0, 1)), ("ny", (0, -1, 0), (0, 0, 1)),
                        ("pz", (0, 0, 1), (0, 1, 0)), ("nz", (0, 0, -1), (0, 1, 0))]:
        n, up = np.array(n, float), np.array(up, float)
        x, p = np.cross(up, n), np.array(center) + dist * n
        out.append((name, p, x, up))
    return out


def _quarters(img):
    """mean colour of the four quarters of an image's central region: TL, TR, BL, BR"""
    h, w = img.shape[:2]
    q = []
    for y0, x0 in [(0, 0), (0, 1), (1, 0), (1, 1)]:
        ys = slice(h // 8 + y0 * h // 2, h // 2 - h // 8 + y0 * h // 2)
        xs = slice(w // 8 + x0 * w // 2, w // 2 - w // 8 + x0 * w // 2)
        q.append(img[ys, xs].reshape(-1, 3).mean(axis=0))
    return np.array(q)


# where each face of the box shows its image's black top-left quarter, from GL's cube-map rule
# (face +x: s = -z, t = -y; -x: s = z, t = -y; +y: s = x, t = z; -y: s = x, t = -z; +z: s = x,
# t = -y; -z: s = -x, t = -y; s left to right, t top to bottom), seen by _face_cameras
CUBE_FACES = {"px": ("right", 1), "nx": ("left", 2), "py": ("up", 3), "ny": ("down", 0),
              "pz": ("front", 0), "nz": ("back", 0)}


def test_cube_texture_faces_on_box():
    """a cube texture from six files on a box: each face shows its file (right +x, left -x, up +y,
    down -y, front +z, back -z, as GL's cube map and MuJoCo), turned as the cube-map rule says, and
    the same quarters as mujoco.Renderer's image"""
    cams = _face_cameras((0, 0, 0), 2.0)
    cam_xml = "".join(f'<camera name="{k}" pos="{p[0]} {p[1]} {p[2]}" xyaxes="{x[0]} {x[1]} {x[2]} '
                      f'{u[0]} {u[1]} {u[2]}" fovy="20"/>' for k, p, x, u in cams)
    xml = f"""<mujoco>{AMBIENT}<asset><texture name="c" type="cube" {CUBE_FILES}/>
      <material name="m" texture="c" specular="0"/></asset>
      <worldbody><geom type="box" size=".5 .5 .5" material="m"/>{cam_xml}</worldbody></mujoco>"""
    names = [c[0] for c in cams]
    for name, img, mimg in zip(names, render(xml, names), render_mujoco(xml, names)):
        q = _quarters(img)
        face, black = CUBE_FACES[name]
        for k in range(4):
            want = np.zeros(3) if k == black else np.array(FACE_RGB[face], float)
            assert np.abs(q[k] - want).max() <= 2, (name, k, q[k], want)
        # MuJoCo's image: the same quarters (its texels are sampled the same way)
        assert np.abs(q - _quarters(mimg)).max() <= 2, name


def test_skybox_from_files():
    """a skybox from six files around the camera: MJCF turns it so that its up face is at the
    zenith and its front face towards -y; each view direction shows the face and orientation
    mujoco.Renderer shows"""
    cams = []
    for name, n, up in [("px", (1, 0, 0), (0, 0, 1)), ("ny", (0, -1, 0), (0, 0, 1)),
                        ("pz", (0, 0, 1), (0, 1, 0)), ("nz", (0, 0, -1), (0, 1, 0)),
                        ("nx", (-1, 0, 0), (0, 0, 1)), ("py", (0, 1, 0), (0, 0, 1))]:
        n, up = np.array(n, float), np.array(up, float)
        x = np.cross(up, -n)
        cams.append(f'<camera name="{name}" pos="0 0 0" xyaxes="{x[0]} {x[1]} {x[2]} '
                    f'{up[0]} {up[1]} {up[2]}" fovy="60"/>')
    xml = f"""<mujoco>{AMBIENT}<asset><texture type="skybox" {CUBE_FILES}/></asset>
      <worldbody><geom type="sphere" size=".01" pos="5 5 5"/>{"".join(cams)}</worldbody></mujoco>"""
    seen = {}
    names = ["px", "nx", "py", "ny", "pz", "nz"]
    for name, img, mimg in zip(names, render(xml, names), render_mujoco(xml, names)):
        q = _quarters(img)
        assert np.abs(q - _quarters(mimg)).max() <= 2, name
        seen[name] = tuple(int(v) for v in q.max(axis=0).round())
    # the zenith shows the up face, the nadir the down face, -y the front, +y the back
    assert seen["pz"] == FACE_RGB["up"] and seen["nz"] == FACE_RGB["down"]
    assert seen["ny"] == FACE_RGB["front"] and seen["py"] == FACE_RGB["back"]


LIT = f"""<mujoco>
  <asset><texture name="t" type="2d" file="texels.png"/>
    <texture name="c" type="cube" {CUBE_FILES}/>
    <material name="floor" texture="t" texrepeat="3 3"/>
    <material name="cube" texture="c"/>
  </asset>
  <worldbody>
    <light pos="0 0 3" dir="0 0 -1" castshadow="false"/>
    <geom name="floor" type="plane" size="2 2 .1" material="floor"/>
    <geom name="box" type="box" size=".3 .3 .3" pos="-.5 0 .3" euler="0 0 30" material="cube"/>
    <geom name="ball" type="sphere" size=".3" pos=".6 .2 .3" material="cube"/>
    <camera name="view" pos="1.5 -2.5 1.8" xyaxes=".86 .5 0 -.25 .45 .86"/>
  </worldbody>
</mujoco>"""


def test_lit_textured_objects_mean_colour():
    """under a model light and the headlight (no shadows, no reflections), the mean colour of each
    textured object agrees with mujoco.Renderer's within 6 of 255 per channel: measured 0.6 (the
    floor), 4.0 (the box) and 2.4 (the ball); both light per vertex, and the two tessellations
    put their vertices, and so the lit colours between them, in different places"""
    seg = render(LIT, "view", 96, 128, seg=True)
    mseg = render_mujoco(LIT, "view", 96, 128, seg=True)
    img = render(LIT, "view", 96, 128).astype(float)
    mimg = render_mujoco(LIT, "view", 96, 128).astype(float)
    for g in range(3):
        mine = (seg[:, :, 0] == g) & (seg[:, :, 1] == 5)
        theirs = (mseg[:, :, 0] == g) & (mseg[:, :, 1] == 5)
        assert mine.sum() > 200 and theirs.sum() > 200
        a, b = img[mine].mean(axis=0), mimg[theirs].mean(axis=0)
        assert np.abs(a - b).max() <= 6, (g, a, b)


def test_unreadable_texture_draws_untextured(tmp_path):
    """a texture whose file is missing: a load warning naming the file and line, and the model
    draws as it would with no texture on its material"""
    body = ('<worldbody><geom type="box" size=".5 .5 .5" material="m"/>'
            '<camera name="c" pos="2 -2 1.5" xyaxes="1 1 0 -.3 .3 .9"/></worldbody></mujoco>')
    broken = tmp_path / "broken.xml"
    broken.write_text(f'<mujoco>{AMBIENT}\n<asset>\n<texture name="t" type="cube" file="gone.png"/>\n'
                      f'<material name="m" texture="t" rgba=".2 .6 .9 1"/></asset>{body}')
    plain = f'<mujoco>{AMBIENT}<asset><material name="m" rgba=".2 .6 .9 1"/></asset>{body}'
    m = gauss.Model.from_xml_path(str(broken))
    assert any("broken.xml:3" in w and "'gone.png' cannot be read" in w for w in m.load_warnings)
    d = gauss.Data(m)
    gauss.forward(m, d)
    with gauss.Renderer(m, 48, 48) as r:
        r.update_scene(d, camera="c")
        img = r.render().copy()
    assert np.array_equal(img, render(plain, "c", 48, 48))
    assert (np.abs(img.astype(int) - [51, 153, 229]).max(axis=2) <= 1).sum() > 300


# a slab whose top face (z = 0.1 over [-1 1]^2) carries OBJ texture coordinates from (0 0) at
# (-1 -1) to (1 1) at (1 1); the other faces one texture coordinate each
SLAB_OBJ = b"""v -1 -1 0.1
v 1 -1 0.1
v 1 1 0.1
v -1 1 0.1
v -1 -1 0
v 1 -1 0
v 1 1 0
v -1 1 0
vt 0 0
vt 1 0
vt 1 1
vt 0 1
vt 0.7 0.3
f 1/1 2/2 3/3 4/4
f 5/5 8/5 7/5 6/5
f 1/5 5/5 6/5 2/5
f 2/5 6/5 7/5 3/5
f 3/5 7/5 8/5 4/5
f 4/5 8/5 5/5 1/5
"""


def test_mesh_texcoords_closed_form():
    """a mesh with texture coordinates maps a 2d image by them (texrepeat does not apply, as in
    MuJoCo's images): seen from above every pixel of the slab's top is the image linearly
    filtered at (u, 1 - v) of the OBJ's coordinates (MJCF's v turned, rows from the top), within
    1 of 255; MuJoCo's image is the same within 1 (measured 0)"""
    xml = f"""<mujoco>{AMBIENT}<asset><texture name="t" type="2d" file="texels.png"/>
      <material name="m" texture="t" texrepeat="2 3" specular="0"/><mesh name="slab" file="slab.obj"/>
      </asset><worldbody><geom type="mesh" mesh="slab" material="m"/>
      <camera name="top" pos="0 0 2" xyaxes="1 0 0 0 1 0" orthographic="true" fovy="2"/>
      </worldbody></mujoco>"""
    FILES["slab.obj"] = SLAB_OBJ
    try:
        n = 64
        img = render(xml, "top", n, n).astype(float)
        mimg = render_mujoco(xml, "top", n, n).astype(float)
    finally:
        del FILES["slab.obj"]
    c = (np.arange(n) + 0.5) / n * 2 - 1
    x, y = np.meshgrid(c, -c)
    want = bilinear((x + 1) / 2, (1 - y) / 2)
    assert np.abs(img - want).max() <= 1, np.abs(img - want).max()
    assert np.abs(img - mimg).max() <= 1, np.abs(img - mimg).max()
