"""gauss.Spec.attach and site.attach_body (gs_specAttachSite) against MuJoCo 3.3.7's MjSpec.attach
and MjsSite.attach_body making the same edit: the compiled arrays both engines have and every
name; the child spec is left as it was; the forms gauss's spec cannot take are errors."""

import mujoco
import pytest

import gauss
from test_attach import KINDS, compiled_errors, names

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
    errors = compiled_errors(gm, mm)
    assert not errors, "; ".join(errors)
    want, got = names(mm, False), names(gm, True)
    for _, size in KINDS:
        assert got[size] == want[size], size
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
