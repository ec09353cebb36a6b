"""The renderer honours the model's <visual> settings: the colours and sizes of decorations
(<rgba>, <scale>), the fog's colour, the shadow maps' size and the samples per pixel (<quality>).

Colours are checked in closed form: with the headlight's ambient 0.7 and no other light, a
decoration (emission 0.3) shows exactly its colour, (ambient + emission) * rgba."""

import numpy as np

import gauss

H, W = 96, 128

SCENE = """<mujoco><visual><headlight ambient="%(amb)s" diffuse="%(dif)s" specular="0 0 0"/>
  <quality shadowsize="%(shadowsize)d" offsamples="%(offsamples)d"/>
  <map fogstart="%(fogstart)g" fogend="%(fogend)g"/>
  <rgba contactpoint="%(contactpoint)s" com="%(com)s" fog="%(fog)s"/>
  <scale contactwidth="%(contactwidth)g" com="%(comsize)g"/></visual>
  <worldbody>%(light)s<geom type="plane" size="2 2 .1" rgba=".5 .5 .5 1"/>
  <body pos="0 0 .1"><freejoint/><geom type="box" size=".1 .1 .1" rgba=".2 .2 .8 1"/></body>
  </worldbody></mujoco>"""

BASE = dict(amb=".7 .7 .7", dif="0 0 0", shadowsize=4096, offsamples=4, fogstart=3, fogend=10,
            contactpoint=".2 .4 .8 1", com=".9 .3 .1 1", fog="0 0 0 1", contactwidth=0.3,
            comsize=0.4, light="")
CAM = gauss.FreeCamera(lookat=(0, 0, 0.1), distance=1.0, azimuth=225, elevation=-30)


def _render(flags=(), **kw):
    """the RGB image and the decorations' mask of the box resting on the plane"""
    m = gauss.Model.from_xml_string(SCENE % {**BASE, **kw})
    d = gauss.Data(m)
    for _ in range(150):
        gauss.step(m, d)
    gauss.forward(m, d)
    assert d.ncon == 4
    with gauss.Renderer(m, H, W) as r:
        for f in flags:
            setattr(r.option, f[0], f[1])
        r.update_scene(d, camera=CAM)
        rgb = r.render().copy()
        r.enable_segmentation_rendering()
        seg = r.render()
    return rgb, (seg[..., 0] == -1) & (seg[..., 1] == 0)


def test_decoration_colours_and_sizes():
    """contact points in <rgba contactpoint>, centres of mass in <rgba com>, each as large as
    <scale contactwidth> and <scale com> make them"""
    for colour in ("0.2 0.4 0.8 1", "0.8 0.6 0.2 1"):
        rgb, decor = _render(flags=[("contactpoint", 1), ("multisample", 0)], contactpoint=colour)
        want = 255 * np.array(colour.split(), float)[:3]
        near = np.abs(rgb[decor].astype(int) - want).max(-1) <= 1
        assert decor.sum() > 50 and near.mean() > 0.95, near.mean()
    small = _render(flags=[("contactpoint", 1)], contactwidth=0.3)[1].sum()
    large = _render(flags=[("contactpoint", 1)], contactwidth=0.6)[1].sum()
    # discs twice as wide: about four times the area where the box does not hide them
    assert 2.5 < large / small < 5, (small, large)
    # the centre of mass: a sphere of radius com * (mean bounding radius), out of the box at 1.2
    rgb, decor = _render(flags=[("com", 1), ("multisample", 0)], comsize=1.2)
    near = np.abs(rgb[decor].astype(int) - 255 * np.array([0.9, 0.3, 0.1])).max(-1) <= 1
    assert decor.sum() > 200 and near.mean() > 0.95, near.mean()
    assert _render(flags=[("com", 1)], comsize=0.4)[1].sum() == 0  # inside the box: hidden


def test_fog_colour():
    """fog from fogstart to fogend extents of view depth blends to <rgba fog>: with both short of
    the camera's distance every surface is the fog's colour"""
    rgb, _ = _render(flags=[("fog", 1)], fogstart=0.001, fogend=0.002, fog="1 0.5 0 1")
    plane = rgb[-10:, :, :].reshape(-1, 3).astype(int)
    assert (np.abs(plane - [255, 128, 0]).max(axis=1) <= 1).all()


def test_shadow_size_and_samples():
    """<quality shadowsize> sizes the shadow maps (0: no shadows, a coarse map moves the
    shadow's edge), <quality offsamples> the samples per pixel (1: none)"""
    lit = dict(light='<light pos=".6 -.4 .8" dir="-.6 .4 -.8" castshadow="true"/>',
               amb=".2 .2 .2", dif=".1 .1 .1")
    full, _ = _render(flags=[("multisample", 0)], **lit)
    plain, _ = _render(flags=[("multisample", 0), ("shadow", 0)], **lit)
    shadowed = np.abs(full.astype(int) - plain).max(-1) > 20
    assert shadowed.sum() > 50  # the box's shadow on the plane
    none, _ = _render(flags=[("multisample", 0)], shadowsize=0, **lit)
    assert (none == plain).all()
    # coarser maps move the shadow's edge further (measured: 576, 68 and 24 pixels against 4096's
    # image at 16, 64 and 256), and nowhere but about the shadow
    ys, xs = np.nonzero(shadowed)
    moved = []
    for size in (16, 64, 256):
        img, _ = _render(flags=[("multisample", 0)], shadowsize=size, **lit)
        diff = np.abs(img.astype(int) - full).max(-1) > 20
        y, x = np.nonzero(diff)
        assert y.min() >= ys.min() - 6 and y.max() <= ys.max() + 6, size
        assert x.min() >= xs.min() - 6 and x.max() <= xs.max() + 6, size
        moved.append(diff.sum())
    assert moved[0] > moved[1] > moved[2] > 0, moved
    # samples: offsamples 1 is the image without multisampling; 4 smooths edges
    one, _ = _render(offsamples=1, **lit)
    four, _ = _render(offsamples=4, **lit)
    assert (one == full).all()
    assert (four != full).any(-1).sum() > 20
