"""A sub-model's own <compiler> settings, against MuJoCo 3.3.7: the attached bodies, joints,
tendons and actuators keep their model's inertiafromgeom, boundmass, boundinertia,
balanceinertia, alignfree and autolimits, whatever the composing model says (and the composing
model's do not reach them); settotalmass, discardvisual and fusestatic are the composing model's
and act on the whole tree. Compared: every compiled array both engines have, and the names."""

import mujoco
import pytest

import gauss
from test_attach import KINDS, compiled_errors, names

# the sub-model's bodies: one with both an explicit inertial and a geom (inertiafromgeom), a light
# one (bounds, total mass), an unbalanced inertial (balanceinertia), a free body with an offset
# geom (alignfree), limits written without limited= (autolimits), a static body and a visual geom
# (fusestatic, discardvisual)
CHILD_BODY = """
  <body name="b" pos="0 0 .5">
    <joint name="j" range="-1 1" actuatorfrcrange="-3 3"/><joint name="j2" axis="0 1 0"/>
    <inertial pos="0 0 0" mass="2" diaginertia=".1 .1 .1"/><geom size=".2" mass="5"/>
    <geom size=".1" group="3" contype="0" conaffinity="0" mass=".5"/>
    <body name="light" pos=".3 0 0"><joint axis="1 0 0"/><geom size=".05" mass="1e-4"/></body>
    <body name="thin" pos="0 .3 0"><joint axis="1 0 0"/>{thin}</body>
  </body>
  <body name="fixed" pos="0 0 .2"><geom size=".05"/></body>
  <body name="free" pos="0 0 2"><freejoint/><geom type="box" size=".1 .2 .3" pos=".1 0 0" euler="10 0 0"/></body>"""
BALANCED = '<inertial pos="0 0 0" mass="1" diaginertia=".2 .1 .1"/>'
UNBALANCED = '<inertial pos="0 0 0" mass="1" diaginertia="1 .1 .1"/>'
CHILD_REST = """
<tendon><fixed name="t" range="0 1"><joint joint="j" coef="1"/></fixed></tendon>
<actuator><motor joint="j2" ctrlrange="-1 1" forcerange="-2 2"/>
  <general joint="j2" actrange="0 1" dyntype="integrator"/></actuator>"""

# name: (the composing model's compiler attributes, the sub-model's, its thin body's inertial)
CASES = {
    "inertiafromgeom_true": ("", 'inertiafromgeom="true"', BALANCED),
    "inertiafromgeom_auto_under_true": ('inertiafromgeom="true"', 'inertiafromgeom="auto"', BALANCED),
    "bounds_of_the_sub_model": ("", 'boundmass=".5" boundinertia=".3"', BALANCED),
    "bounds_of_the_model": ('boundmass=".5" boundinertia=".3"', "", BALANCED),
    "settotalmass_of_the_sub_model": ("", 'settotalmass="10"', BALANCED),
    "settotalmass_of_the_model": ('settotalmass="10"', "", BALANCED),
    "balanceinertia": ("", 'balanceinertia="true"', UNBALANCED),
    "alignfree_of_the_sub_model": ("", 'alignfree="true"', BALANCED),
    "alignfree_of_the_model": ('alignfree="true"', "", BALANCED),
    "autolimits": ('autolimits="false"', 'autolimits="true"', BALANCED),
    "discardvisual_of_the_sub_model": ("", 'discardvisual="true"', BALANCED),
    "discardvisual_of_the_model": ('discardvisual="true"', "", BALANCED),
    "fusestatic_of_the_sub_model": ("", 'fusestatic="true"', BALANCED),
    "fusestatic_of_the_model": ('fusestatic="true"', "", BALANCED),
}


def write(tmp_path, parent, child, thin, rest=CHILD_REST):
    (tmp_path / "child.xml").write_text(
        f'<mujoco model="c"><compiler {child}/>\n<worldbody>{CHILD_BODY.format(thin=thin)}'
        f"\n</worldbody>{rest}</mujoco>")
    (tmp_path / "main.xml").write_text(f"""<mujoco><compiler {parent}/>
  <asset><model name="c" file="child.xml"/></asset>
  <worldbody><body name="pb" pos="0 0 1"><freejoint/><geom size=".1" mass="1" pos=".1 0 0"/>
    <body name="pthin" pos="0 0 .3"><joint/>{BALANCED}</body></body>
    <body name="pfixed" pos="1 1 0"><geom size=".05"/><geom size=".07" contype="0" conaffinity="0"/></body>
    <frame pos="1 0 0" euler="0 0 30"><attach model="c" prefix="c-"/></frame>
  </worldbody>
  <tendon><fixed name="pt"><joint joint="c-j" coef="1"/></fixed></tendon>
</mujoco>""")
    return str(tmp_path / "main.xml")


@pytest.mark.parametrize("name", sorted(CASES))
def test_sub_model_compiler_like_mujoco(name, tmp_path):
    path = write(tmp_path, *CASES[name])
    mm, gm = mujoco.MjModel.from_xml_path(path), gauss.Model.from_xml_path(path)
    errors = compiled_errors(gm, mm)
    assert not errors, "; ".join(errors)
    want, got = names(mm, False), names(gm, True)
    for _, size in KINDS:
        assert got[size] == want[size], size


@pytest.mark.parametrize("elem,rest", [
    ("joint", ""),
    ("tendon", '<tendon><fixed name="t2" range="0 1"><joint joint="j2" coef="1"/></fixed></tendon>'),
    ("actuator", '<actuator><motor joint="j2" ctrlrange="-1 1"/></actuator>')])
def test_sub_model_without_autolimits_is_an_error(elem, rest, tmp_path):
    # the sub-model's autolimits="false" makes its ranges without limited= an error, even where
    # the composing model has autolimits
    child = 'autolimits="false"'
    thin = BALANCED
    path = write(tmp_path, "", child, thin, rest)
    if elem != "joint":  # only the element tested writes a range without limited=
        text = (tmp_path / "child.xml").read_text().replace('range="-1 1" actuatorfrcrange="-3 3"',
                                                            'range="-1 1" limited="true"')
        (tmp_path / "child.xml").write_text(text)
    with pytest.raises(ValueError, match="limited"):
        mujoco.MjModel.from_xml_path(path)
    with pytest.raises(gauss.GaussError) as e:
        gauss.Model.from_xml_path(path)
    msg = str(e.value)
    assert "child.xml" in msg and elem in msg and "limited" in msg, msg
