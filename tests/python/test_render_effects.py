"""Reflections and shadows of several lights in gauss.Renderer's colour images, where a closed form
says what must be seen: the mirror image of a ball at the projection of its reflection through a
reflecting floor, and the shadows of a pillar lit by two spot lights, in the regions their rays
to the floor cross the pillar, each region lit by the other light alone."""

import numpy as np

import gauss

BLACK_SKY = '<headlight ambient=".1 .1 .1" diffuse="0 0 0" specular="0 0 0"/>'


def images(xml, camera, h, w, seg=False):
    m = gauss.Model.from_xml_string(xml)
    d = gauss.Data(m)
    gauss.forward(m, d)
    with gauss.Renderer(m, h, w) as r:
        r.update_scene(d, camera=camera)
        rgb = r.render().astype(float)
        if seg:
            r.enable_segmentation_rendering()
            return rgb, r.render().copy()
    return rgb


MIRROR = """<mujoco><visual>{head}</visual>
  <asset><material name="floor" reflectance="{refl}" rgba=".4 .4 .4 1" specular="0"/>
    <material name="glow" emission=".8" rgba="1 .1 .1 1"/></asset>
  <worldbody>
    <light pos="0 -1 3" dir="0 .3 -1" castshadow="false"/>
    <geom name="floor" type="plane" size="3 3 .1" material="floor"/>
    <geom name="ball" type="sphere" size=".25" pos="0 0 .6" material="glow"/>
    <camera name="c" pos="0 -3 1.5" xyaxes="1 0 0 0 .447 .894" fovy="45"/>
  </worldbody></mujoco>"""


def project(p, h, w):
    """pixel (row, column) of world point p in camera c of MIRROR (pinhole, fovy 45)"""
    pos = np.array([0, -3, 1.5])
    x = np.array([1.0, 0, 0])
    y = np.array([0, 0.447, 0.894])
    y /= np.linalg.norm(y)
    z = np.cross(x, y)  # backward
    dv = np.asarray(p, float) - pos
    xc, yc, zc = dv @ x, dv @ y, -(dv @ z)
    f = (h / 2) / np.tan(np.radians(45 / 2))
    return int(h / 2 - yc / zc * f), int(w / 2 + xc / zc * f)


def test_mirror_image_of_ball():
    """a floor with reflectance shows the (glowing) ball's mirror image around the projection of the ball's
    centre reflected through the floor, (0, 0, -0.6); without reflectance that spot is the grey
    floor; beside the image (0.6 to the side) the floor is the same grey in both; the mirror image
    is no object of the segmentation (the floor's id there)"""
    h, w = 96, 128
    mirror, seg = images(MIRROR.format(head=BLACK_SKY, refl=0.6), "c", h, w, seg=True)
    plain = images(MIRROR.format(head=BLACK_SKY, refl=0), "c", h, w)
    i, j = project([0, 0, -0.6], h, w)
    ball_i, ball_j = project([0, 0, 0.6], h, w)
    assert seg[ball_i, ball_j, 0] == 1  # the ball itself, where the closed form puts it
    assert seg[i, j, 0] == 0 and seg[i, j, 1] == 5  # the floor
    spot = mirror[i - 1:i + 2, j - 1:j + 2].reshape(-1, 3).mean(axis=0)
    bare = plain[i - 1:i + 2, j - 1:j + 2].reshape(-1, 3).mean(axis=0)
    assert abs(bare[0] - bare[1]) < 3  # grey without reflection
    assert spot[0] > spot[1] + 30 and spot[0] > bare[0] + 20, (spot, bare)
    k, m = project([0.6, 0, -0.6], h, w)
    side = mirror[k - 1:k + 2, m - 1:m + 2].reshape(-1, 3).mean(axis=0)
    assert abs(side[0] - side[1]) < 3, side
    # where nothing is mirrored the floor is as without reflectance; where the ball is, the floor
    # plus reflectance times its mirror image: MuJoCo's colours there (measured within 0.4 of 255
    # at reflectance 0.6 and 0.3)
    side_plain = plain[k - 1:k + 2, m - 1:m + 2].reshape(-1, 3).mean(axis=0)
    assert np.allclose(side, side_plain, atol=1), (side, side_plain)
    theirs = mujoco_image(MIRROR.format(head=BLACK_SKY, refl=0.6), "c", h, w)
    theirs = theirs[i - 1:i + 2, j - 1:j + 2].reshape(-1, 3).mean(axis=0)
    assert np.abs(spot - theirs).max() < 2, (spot, theirs)


def mujoco_image(xml, camera, h, w):
    import mujoco
    mm = mujoco.MjModel.from_xml_string(xml)
    md = mujoco.MjData(mm)
    mujoco.mj_forward(mm, md)
    with mujoco.Renderer(mm, h, w) as r:
        r.update_scene(md, camera=camera)
        return r.render().astype(float)


TABLE = """<mujoco><visual>{head}</visual>
  <asset><material name="top" reflectance="{refl}" rgba=".4 .4 .4 1" specular="0"/>
    <material name="glow" emission=".8" rgba="1 .1 .1 1"/></asset>
  <worldbody>
    <light pos="0 -1 3" dir="0 .3 -1" castshadow="false"/>
    <geom type="plane" size="3 3 .1" rgba=".2 .3 .2 1"/>
    <geom name="table" type="box" size="1 .8 .2" pos="0 0 .2" euler="0 0 20" material="top"/>
    <geom name="ball" type="sphere" size=".2" pos="0 0 .8" material="glow"/>
    <camera name="c" pos="0 -3 2.5" xyaxes="1 0 0 0 .707 .707" fovy="45"/>
  </worldbody></mujoco>"""


def test_mirror_on_box_top():
    """a box with reflectance mirrors the ball on its top face, as MuJoCo does: what reflectance
    changes in the image is the same region in both engines (the ball's mirror image on the top),
    changed alike; nothing else changes (the box's other faces, the floor). The red channel
    saturates at 255 where the top's own shade (which differs from MuJoCo's: light per vertex of
    the box's 8 corners against MuJoCo's subdivided faces) adds to the image: measured 126.4
    against 131.1 there, green 13.7 against 13.8."""
    h, w = 96, 128
    refl, plain = (images(TABLE.format(head=BLACK_SKY, refl=r), "c", h, w) for r in (0.6, 0))
    mrefl, mplain = (mujoco_image(TABLE.format(head=BLACK_SKY, refl=r), "c", h, w) for r in (0.6, 0))
    ours, theirs = refl - plain, mrefl - mplain
    a, b = np.abs(ours).max(-1) > 10, np.abs(theirs).max(-1) > 10
    assert a.sum() > 80 and (a & b).sum() / (a | b).sum() > 0.95, (a.sum(), b.sum())
    assert np.abs(ours[~a]).max() <= 10 and np.abs(ours[~(a | b)]).max() == 0
    both = a & b
    assert abs(ours[both][:, 1].mean() - theirs[both][:, 1].mean()) < 1.5
    assert abs(ours[both][:, 0].mean() - theirs[both][:, 0].mean()) < 8


SHADOWS = """<mujoco><visual>{head}</visual>
  <worldbody>
    <light pos="-2 0 3" dir="0 0 -1" cutoff="80" exponent="1" diffuse=".45 .45 .45" specular="0 0 0"
           active="{a1}"/>
    <light pos="2 0 3" dir="0 0 -1" cutoff="80" exponent="1" diffuse=".45 .45 .45" specular="0 0 0"
           active="{a2}"/>
    <geom type="plane" size="3 3 .1" rgba=".8 .8 .8 1"/>
    <geom type="box" size=".2 .2 .5" pos="0 0 .5" rgba="1 0 0 {alpha}"/>
    <camera name="top" pos="0 0 6" xyaxes="1 0 0 0 1 0" orthographic="true" fovy="4"/>
  </worldbody></mujoco>"""


def shadowed(q, light):
    """whether the segment from floor point q to the light crosses the pillar [-.2 .2]^2 x [0 1]"""
    lo, hi = np.array([-0.2, -0.2, 0.0]), np.array([0.2, 0.2, 1.0])
    d = np.asarray(light, float) - q
    t0, t1 = np.zeros(q.shape[:-1]), np.ones(q.shape[:-1])
    for k in range(3):
        with np.errstate(divide="ignore", invalid="ignore"):
            a, b = (lo[k] - q[..., k]) / d[..., k], (hi[k] - q[..., k]) / d[..., k]
        a, b = np.minimum(a, b), np.maximum(a, b)
        t0, t1 = np.maximum(t0, a), np.minimum(t1, b)
    return t0 <= t1


def test_two_lights_two_shadows():
    """two spot lights over a pillar: on the floor, where only light 1's rays cross the pillar the
    image equals the floor lit by light 2 alone (no pillar), and the other way round; elsewhere the
    floor lit by both; so two shadows, on the two sides, where the closed form puts them"""
    n = 128
    img = images(SHADOWS.format(head=BLACK_SKY, a1="true", a2="true", alpha=1), "top", n, n)
    both = images(SHADOWS.format(head=BLACK_SKY, a1="true", a2="true", alpha=0), "top", n, n)
    only1 = images(SHADOWS.format(head=BLACK_SKY, a1="true", a2="false", alpha=0), "top", n, n)
    only2 = images(SHADOWS.format(head=BLACK_SKY, a1="false", a2="true", alpha=0), "top", n, n)
    # floor points at pixel centres, sampled 3 x 3 per pixel to find the pixels a border crosses
    sub = (np.arange(3 * n) + 0.5) / (3 * n) * 4 - 2
    x, y = np.meshgrid(sub, -sub)
    q = np.stack([x, y, np.zeros_like(x)], axis=-1)
    s1 = shadowed(q, [-2, 0, 3]).reshape(n, 3, n, 3)
    s2 = shadowed(q, [2, 0, 3]).reshape(n, 3, n, 3)
    foot = ((np.abs(x) < 0.3) & (np.abs(y) < 0.3)).reshape(n, 3, n, 3).any(axis=(1, 3))
    pure = lambda s: s.all(axis=(1, 3)) | ~s.any(axis=(1, 3))  # noqa: E731
    # each pixel's class (shadowed by neither, light 1, light 2; -1 a border crosses it); kept are
    # pixels whose neighbours up to two away have their class: a texel of the shadow map (4096,
    # MJCF's default, over the spot's 160 degrees) covers under a pixel of this floor, lookups filter 2 x 2 texels
    # and colour images are multisampled
    cls = np.where(pure(s1) & pure(s2) & ~foot, s1.all(axis=(1, 3)) + 2 * s2.all(axis=(1, 3)), -1)
    clear = cls >= 0
    for di in range(-2, 3):
        for dj in range(-2, 3):
            clear &= np.roll(np.roll(cls, di, axis=0), dj, axis=1) == cls
    in1, in2 = s1.all(axis=(1, 3)) & clear, s2.all(axis=(1, 3)) & clear
    assert in1.sum() > 100 and in2.sum() > 100 and not (in1 & in2).any()
    # light 1 (at -x) throws its shadow towards +x, light 2 towards -x
    cols = np.arange(n)[None, :].repeat(n, axis=0)
    assert cols[in1].min() > n // 2 and cols[in2].max() < n // 2
    lit = clear & ~in1 & ~in2
    # 8-bit rounding of each image: 2 levels
    assert np.abs(img[in1] - only2[in1]).max() <= 2
    assert np.abs(img[in2] - only1[in2]).max() <= 2
    assert np.abs(img[lit] - both[lit]).max() <= 2
    # and a shadow is a visible one: the blocked light gives at least a third of the light there
    assert (both[in1] - img[in1]).mean() > 0.33 * both[in1].mean()


RAY = """<mujoco><visual>{head}</visual>
  <worldbody>
    <geom type="plane" size="2 2 .1" rgba=".3 .3 .3 1"/>
    <body pos=".5 0 1.2" euler="0 30 0">
      <geom type="box" size=".05 .05 .05" rgba=".2 .2 .9 1"/>
      <site name="eye" zaxis="0 0 -1"/>
    </body>
    <camera name="side" pos="0 -4 .6" xyaxes="1 0 0 0 0 1" orthographic="true" fovy="2"/>
  </worldbody>
  <sensor><rangefinder site="eye"/></sensor></mujoco>"""


def test_rangefinder_ray():
    """a rangefinder looking down and 30 degrees to the side from (0.5, 0, 1.2): its ray is drawn
    in MJCF's rangefinder yellow from the site to the floor point it measures, (0.5 - 1.2 tan 30,
    0, 0), along the measured distance 1.2 / cos 30; with the rangefinder option off it is not"""
    m = gauss.Model.from_xml_string(RAY.format(head=BLACK_SKY))
    d = gauss.Data(m)
    gauss.forward(m, d)
    assert abs(d.sensordata[0] - 1.2 / np.cos(np.radians(30))) < 1e-9
    n = 128
    with gauss.Renderer(m, n, n) as r:
        r.update_scene(d, camera="side")
        on = r.render().astype(int)
        r.option.rangefinder = 0
        r.update_scene(d, camera="side")
        off = r.render().astype(int)
    yellow = lambda img: (img[..., 0] > 150) & (img[..., 1] > 150) & (img[..., 2] < 80)  # noqa: E731
    assert not yellow(off).any()
    # the camera sees x in [-1 1] and z in [-0.4 1.6]; points along the ray away from its ends
    end = 0.5 - 1.2 * np.tan(np.radians(30))
    for f in np.linspace(0.15, 0.85, 8):
        x, z = 0.5 + f * (end - 0.5), 1.2 * (1 - f)
        i, j = int((1.6 - z) / 2 * n), int((x + 1) / 2 * n)
        assert yellow(on[i - 1:i + 2, j - 1:j + 2]).any(), (f, i, j)
    # beyond the floor point and above the site: no ray
    for x, z in [(end - 0.15, -0.1), (0.5 + 0.1, 1.4)]:
        i, j = int((1.6 - z) / 2 * n), int((x + 1) / 2 * n)
        assert not yellow(on[i - 2:i + 3, j - 2:j + 3]).any()
