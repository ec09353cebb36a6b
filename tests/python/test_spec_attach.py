"""gauss.Spec.attach and site.attach_body (gs_specAttachSite) against MuJoCo 3.3.7's MjSpec.attach
and MjsSite.attach_body making the same edit: the compiled arrays both engines have and every
name; the child spec is left as it was; the forms gauss's spec cannot take are errors."""

import mujoco
import numpy as np
import pytest

import gauss
from test_attach import assert_compiled_alike, compiled_errors

CHILD = """<mujoco model="c"><compiler angle="radian" autolimits="true" boundmass=".2"/>
  <asset><material name="red" rgba="1 0 0 1"/></asset>
  <worldbody><geom name="wg" size=".05" pos=".05 .02 .1"/>
    <body name="b" pos="0 0 .5" euler="0 .3 0"><joint name="j" range="-1 1"/>
      <geom name="g" size=".1" material="red"/><site name="s"/>
      <body name="b2" pos=".2 0 0"><joint name="j2"/><geom size=".05" mass=".01"/></body></body>
    <body name="o" pos="0 .4 0"><joint name="oj" axis="1 0 0"/><geom size=".1"/></body></worldbody>
  <tendon><fixed name="t"><joint joint="j" coef="1"/><joint joint="j2" coef="1"/></fixed></tendon>
  <actuator><motor name="m" joint="j" ctrlrange="-1 1"/><motor name="mo" joint="oj"/></actuator>
  <sensor><jointpos name="jp" joint="j2"/></sensor>
  <custom><numeric name="n" data="1 2"/></custom>
  <keyframe><key name="k" qpos=".1 .2 .3" ctrl=".5 .6"/></keyframe></mujoco>"""

PARENT = """<mujoco><worldbody>
  <body name="base" pos="1 0 0"><joint name="bj"/><geom size=".1"/>
    <site name="mount" pos="0 0 .2" euler="0 0 30"/></body></worldbody>
  <actuator><motor name="own" joint="bj"/></actuator></mujoco>"""


def attach(lib, form, parent, child):
    if form == "spec":
        parent.attach(child, prefix="p-", site=parent.site("mount"))
    else:
        parent.site("mount").attach_body(child.body("b"), prefix="p-", suffix="-x")


@pytest.mark.parametrize("form", ["spec", "site"])
def test_spec_attach_like_mujoco(form):
    mp, mc = mujoco.MjSpec.from_string(PARENT), mujoco.MjSpec.from_string(CHILD)
    gp, gc = gauss.Spec.from_string(PARENT), gauss.Spec.from_string(CHILD)
    attach(mujoco, form, mp, mc)
    attach(gauss, form, gp, gc)
    mm, gm = mp.compile(), gp.compile()
    assert_compiled_alike(gm, mm)
    assert gm.nnumeric == mm.nnumeric == 1
    # the child is copied, not moved: it compiles as before
    assert [b.name for b in gc.bodies] == ["world", "b", "b2", "o"]
    assert gc.compile().nbody == 4


def test_spec_attach_returns_the_attached_body_and_refuses_what_it_cannot_do():
    gp, gc = gauss.Spec.from_string(PARENT), gauss.Spec.from_string(CHILD)
    b = gp.site("mount").attach_body(gc.body("b"), prefix="q-")
    assert b.name == "q-b" and b.parent.name == "base"
    with pytest.raises(gauss.SpecError, match="frame"):
        gp.attach(gc, prefix="r-", frame=object())
    with pytest.raises(gauss.SpecError, match="no frame"):
        gp.attach(gc, prefix="r-", frame="nowhere")
    with pytest.raises(gauss.SpecError, match="site"):
        gp.attach(gc, prefix="r-")
    with pytest.raises(gauss.SpecError, match="itself"):
        gp.attach(gp, prefix="r-", site="mount")
    with pytest.raises(gauss.SpecError, match="no site"):
        gp.attach(gc, prefix="r-", site="nowhere")
    # the same names twice: the compiler names the repeated one
    gp.site("mount").attach_body(gc.body("b"), prefix="q-")
    with pytest.raises(gauss.SpecError, match="repeated name 'q-b'"):
        gp.compile()


FRAMED = """<mujoco><worldbody>
  <frame name="top" pos="0 .3 0" euler="0 0 -20"/>
  <body name="base" pos="1 0 0"><joint name="bj"/><geom size=".1"/>
    <frame name="outer" pos="0 0 .2" euler="0 0 30">
      <frame name="inner" pos=".1 0 0" euler="10 0 0"><geom size=".02"/></frame></frame></body>
  </worldbody></mujoco>"""


def test_spec_attach_in_a_frame_like_mujoco():
    # attach into a frame read from MJCF (nested in another), and into one made by add_frame in
    # the world body, then moved: MuJoCo writes what is attached in a new unnamed frame inside the
    # one given and returns it; compiled arrays and names as MuJoCo's, frames listed as MuJoCo
    # lists them
    specs = []
    for lib in (mujoco, gauss):
        parent = (mujoco.MjSpec if lib is mujoco else gauss.Spec).from_string(FRAMED)
        frames = {f.name: f for f in parent.frames}
        made = parent.worldbody.add_frame(name="mine", pos=[0, 0, 1], quat=[0.8, 0, 0.6, 0])
        child = (mujoco.MjSpec if lib is mujoco else gauss.Spec).from_string(CHILD)
        r1 = parent.attach(child, frame=frames["inner"], prefix="i-")
        r2 = parent.attach((mujoco.MjSpec if lib is mujoco else gauss.Spec).from_string(CHILD),
                           frame=made, prefix="w-", suffix="-2")
        assert not r1.name and r1.parent.name == "base" and r1.frame.name == "inner"
        assert not r2.name and r2.parent.name == "world" and r2.frame.name == "mine"
        # a frame holding what was attached, moved afterwards: its contents move with it
        parent.frame("mine").pos = [0, 0.5, 2]
        specs.append((parent, [f.name or "" for f in parent.frames]))
    (mp, mframes), (gp, gframes) = specs
    assert gframes == mframes
    mm, gm = mp.compile(), gp.compile()
    assert_compiled_alike(gm, mm)
    # a frame without contents takes a new pose too
    empty = gp.body("base").add_frame(frame=gp.frame("outer"), name="later")
    empty.pos = [0, 0, 3]
    assert empty.frame.name == "outer" and list(empty.pos) == [0, 0, 3]


def test_spec_attach_at_a_site_returns_its_frame():
    gp, gc = gauss.Spec.from_string(PARENT), gauss.Spec.from_string(CHILD)
    mp, mc = mujoco.MjSpec.from_string(PARENT), mujoco.MjSpec.from_string(CHILD)
    g, m = gp.attach(gc, prefix="p-", site="mount"), mp.attach(mc, prefix="p-", site=mp.site("mount"))
    assert isinstance(m, mujoco.MjsFrame) and g.kind == "frame"
    assert not g.name and not m.name and g.parent.name == m.parent.name == "base"
    assert np.allclose(g.pos, m.pos) and np.allclose(g.quat, m.quat)


def test_framed_body_pose_edits_like_mujoco():
    # a body written in two frames reads its pose in its frame and is edited there, as on
    # MuJoCo's spec (gauss places frames when reading, so the library converts); its inner
    # massless body's inertial frame and an attach of the edited body (which drops the frames
    # around it) follow
    xml = """<mujoco><worldbody><body name="p" pos="0 0 1">
      <frame name="f" pos="1 0 0" euler="0 0 90"><frame pos="0 0 .5" euler="30 0 0">
        <body name="b" pos="0 1 0" quat="0.8 0 0.6 0"><joint/><geom size=".1" pos=".2 0 0"/>
          <body name="e" pos="0 0 .3"/></body></frame></frame></body></worldbody></mujoco>"""
    models = []
    for lib in (mujoco, gauss):
        spec = (mujoco.MjSpec if lib is mujoco else gauss.Spec).from_string(xml)
        b = spec.body("b")
        assert np.allclose(b.pos, [0, 1, 0]) and np.allclose(b.quat, [0.8, 0, 0.6, 0])
        b.pos = [0.5, 2, -1]
        b.pos[0] = 0.25
        models.append(spec.compile())
        b.alt.euler = [10, 20, 45]
        b.alt.type = mujoco.mjtOrientation.mjORIENTATION_EULER
        models.append(spec.compile())
        assert np.allclose(b.pos, [0.25, 2, -1])
        host = (mujoco.MjSpec if lib is mujoco else gauss.Spec).from_string(PARENT)
        host.site("mount").attach_body(b, prefix="a-")
        models.append(host.compile())
    for mm, gm in zip(models[:3], models[3:]):
        errors = compiled_errors(gm, mm, tol=1e-12)
        assert not errors, "; ".join(errors)


def test_framed_elements_read_and_edit_like_mujoco():
    # geoms, sites, joints, cameras and lights written in frames (and replicas, which MJCF makes
    # unnamed frames) read their poses in the frame and are edited there, as on MuJoCo's spec
    xml = """<mujoco><worldbody><body name="p" pos="0 0 1"><joint type="slide"/><geom size=".2"/>
      <frame pos="1 0 0" euler="0 0 90"><frame pos="0 0 .5" euler="30 0 0">
        <geom name="g" type="box" size=".1 .2 .3" pos=".2 .1 0" quat="0.8 0 0.6 0"/>
        <site name="s" pos="0 .3 0" euler="0 10 0"/><joint name="j" pos=".1 0 0" axis="0 1 0"/>
        <camera name="c" pos="0 0 .4" euler="0 0 20"/><light name="l" pos="0 0 1" dir="1 0 0"/>
      </frame></frame></body>
      <replicate count="2" offset=".5 0 0"><geom name="r" size=".05" pos="0 .1 0"/></replicate>
      </worldbody></mujoco>"""
    models, reads = [], []
    for lib in (mujoco, gauss):
        spec = (mujoco.MjSpec if lib is mujoco else gauss.Spec).from_string(xml)
        g, s, j, c, li, r = (spec.geom("g"), spec.site("s"), spec.joint("j"), spec.camera("c"),
                             spec.light("l"), spec.geom("r1"))
        reads.append(np.concatenate([g.pos, g.quat, s.pos, j.pos, j.axis, c.pos, li.pos, li.dir, r.pos]))
        g.pos = [0.3, 0, 0.1]
        g.quat = [0, 1, 0, 0]
        s.pos[1] = 0.6
        j.axis = [1, 0, 0]
        c.pos = [1, 1, 1]
        li.dir = [0, 1, 0]
        r.pos = [0, 0, 0.2]
        models.append(spec.compile())
    np.testing.assert_allclose(reads[1], reads[0], atol=1e-12)
    errors = compiled_errors(models[1], models[0], tol=1e-12)
    assert not errors, "; ".join(errors)
