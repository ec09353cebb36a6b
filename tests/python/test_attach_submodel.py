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


# ---- custom data and frame names ----

CUSTOM_CHILD = """<mujoco model="c"><worldbody>
  <frame name="cf"><body name="b"><joint/><geom size=".1"/><frame name="inb"/></body></frame>
  <body name="o"><geom size=".1"/></body></worldbody>
<custom><numeric name="n" data="1 2"/><text name="t" data="hello"/>
  <tuple name="onlyb"><element objtype="body" objname="b" prm="3"/></tuple>
  <tuple name="both"><element objtype="body" objname="o"/><element objtype="body" objname="b" prm="2"/></tuple>
</custom></mujoco>"""


def custom(m, is_gauss):
    if is_gauss:
        name = lambda t, i: gauss.id2name(m, t, i)  # noqa: E731
        kinds = (gauss.OBJ_NUMERIC, gauss.OBJ_TEXT, gauss.OBJ_TUPLE)
    else:
        name = lambda t, i: mujoco.mj_id2name(m, t, i)  # noqa: E731
        kinds = (mujoco.mjtObj.mjOBJ_NUMERIC, mujoco.mjtObj.mjOBJ_TEXT, mujoco.mjtObj.mjOBJ_TUPLE)
    return ([[name(t, i) for i in range(n)] for t, n in zip(kinds, (m.nnumeric, m.ntext, m.ntuple))],
            list(m.numeric_data), list(m.tuple_objtype), list(m.tuple_objid), list(m.tuple_objprm),
            bytes(m.text_data).rstrip(b"\0").split(b"\0"))


@pytest.mark.parametrize("attach", [
    '<attach model="c" prefix="p-"/>',
    '<attach model="c" body="b" prefix="p-"/>',
    '<attach model="c" body="b" prefix="p-"/><body name="x"><attach model="c" body="o" prefix="q-"/></body>',
    '<replicate count="2" offset="1 0 0"><attach model="c" body="o" prefix="p-"/></replicate>'])
def test_custom_data_of_the_sub_model_like_mujoco(attach, tmp_path):
    (tmp_path / "c.xml").write_text(CUSTOM_CHILD)
    (tmp_path / "main.xml").write_text(f"""<mujoco><asset><model name="c" file="c.xml"/></asset>
  <worldbody><frame name="cf"/>{attach}</worldbody>
  <custom><numeric name="mine" data="5"/><text name="tmine" data="x"/></custom></mujoco>""")
    path = str(tmp_path / "main.xml")
    mm, gm = mujoco.MjModel.from_xml_path(path), gauss.Model.from_xml_path(path)
    assert custom(gm, True) == custom(mm, False)


@pytest.mark.parametrize("attach,extra,phrase", [
    # a tuple naming a replicated body: MJCF names it without the replica's suffix
    ('<replicate count="2" offset="1 0 0"><attach model="c" prefix="p-"/></replicate>', "", "p-b"),
    # custom data brought twice under one prefix
    ('<attach model="c" body="b" prefix="p-"/><body name="x"><attach model="c" body="o" prefix="p-"/></body>',
     "", "p-n"),
    # frame names: those of the sub-model with the prefix and the replicas' suffixes
    ('<attach model="c" prefix="p-"/>', '<frame name="p-cf"/>', "p-cf"),
    ('<replicate count="2" offset="1 0 0"><attach model="c" prefix="p-"/></replicate>',
     '<frame name="p-inb1"/>', "p-inb1"),
    # with body=, the frames written inside the copied subtree come along
    ('<attach model="c" body="b" prefix="p-"/>', '<frame name="p-inb"/>', "p-inb"),
    ('<replicate count="2" offset="1 0 0"><attach model="c" body="b" prefix="p-"/></replicate>',
     '<frame name="p-inb0"/>', "p-inb0"),
    ('<body name="h"><attach model="c" body="b" prefix="p-"/></body><attach model="c" body="b" prefix="p-"/>',
     '', "p-")])
def test_custom_and_frame_name_clashes_are_errors(attach, extra, phrase, tmp_path):
    (tmp_path / "c.xml").write_text(CUSTOM_CHILD)
    (tmp_path / "main.xml").write_text(f"""<mujoco><asset><model name="c" file="c.xml"/></asset>
  <worldbody>{extra}{attach}</worldbody></mujoco>""")
    path = str(tmp_path / "main.xml")
    with pytest.raises(ValueError, match=phrase):
        mujoco.MjModel.from_xml_path(path)
    with pytest.raises(gauss.GaussError, match=phrase):
        gauss.Model.from_xml_path(path)


def test_frames_outside_the_attached_subtree_stay_behind(tmp_path):
    # the frame holding body b is not part of b's subtree: its name is free in the model
    (tmp_path / "c.xml").write_text(CUSTOM_CHILD)
    (tmp_path / "main.xml").write_text("""<mujoco><asset><model name="c" file="c.xml"/></asset>
  <worldbody><frame name="p-cf"/><attach model="c" body="b" prefix="p-"/></worldbody></mujoco>""")
    path = str(tmp_path / "main.xml")
    mm, gm = mujoco.MjModel.from_xml_path(path), gauss.Model.from_xml_path(path)
    assert gm.nbody == mm.nbody == 2


# frames inside an attached body's subtree, in a sub-model with its own angle unit and euler
# sequence: nested, rotated, holding bodies, geoms given by fromto, sites, cameras, lights, joints
# and an <attach> of a third model
FRAMED_CHILD = """<mujoco model="c"><compiler angle="degree" eulerseq="ZYX"/>
<asset><model name="leaf" file="leaf.xml"/></asset>
<worldbody><frame name="outside" euler="10 0 0"><body name="b" pos="0 0 1" euler="10 20 30">
  <joint name="j" axis="0 1 0" range="-30 30"/><geom size=".1"/>
  <frame name="f1" pos=".2 0 0" euler="30 0 15">
    <body name="c1" pos="0 .1 0" euler="0 20 0"><joint range="0 45"/>
      <geom type="capsule" size=".05" fromto="0 0 0 .1 .2 .3"/>
      <frame name="f3" quat="0 1 0 0"><body name="d1" pos=".1 0 0"><joint type="slide"/><geom size=".02"/></body></frame></body>
    <frame name="f2" axisangle="1 1 0 40" pos="0 0 .1">
      <geom type="box" size=".1 .2 .3" pos=".1 0 0" euler="5 6 7"/><site name="s" zaxis="1 0 1"/>
      <camera name="cam" pos="0 0 .5" xyaxes="0 1 0 -1 0 0"/><light name="l" pos="0 0 1" dir="0 1 -1"/>
      <attach model="leaf" body="leafb" prefix="lf-"/></frame>
  </frame></body></frame></worldbody></mujoco>"""
LEAF = """<mujoco model="leaf"><worldbody><body name="leafb" pos="0 .1 0" euler=".3 0 0">
  <frame name="lff" euler="0 .5 0"><body name="leafc" pos=".1 0 0"><joint/><geom size=".03"/></body></frame>
</body></worldbody></mujoco>"""


@pytest.mark.parametrize("where", [
    '<body name="h" pos="0 0 .5" euler="0 .3 0"><attach model="c" body="b" prefix="p-"/></body>',
    '<frame pos="1 0 0" euler=".2 .1 0"><attach model="c" body="c1" prefix="p-"/></frame>',
    '<replicate count="2" offset="0 1 0" euler="0 0 .5"><attach model="c" body="b" prefix="p-"/></replicate>'])
def test_frames_inside_an_attached_body_like_mujoco(where, tmp_path):
    (tmp_path / "c.xml").write_text(FRAMED_CHILD)
    (tmp_path / "leaf.xml").write_text(LEAF)
    (tmp_path / "main.xml").write_text(f"""<mujoco><compiler angle="radian"/>
  <asset><model name="c" file="c.xml"/></asset><worldbody>{where}</worldbody></mujoco>""")
    path = str(tmp_path / "main.xml")
    mm, gm = mujoco.MjModel.from_xml_path(path), gauss.Model.from_xml_path(path)
    errors = compiled_errors(gm, mm)
    assert not errors, "; ".join(errors)
    want, got = names(mm, False), names(gm, True)
    for _, size in KINDS:
        assert got[size] == want[size], size


def test_massless_body_in_frames_like_mujoco(tmp_path):
    # a body without mass has its inertial frame at its pose as written inside its frames and
    # replicates (MuJoCo 3.3.7), which shows in body_ipos, body_iquat and body_sameframe
    (tmp_path / "m.xml").write_text("""<mujoco><worldbody>
  <frame pos="1 0 0" euler="0 0 30"><frame pos="0 0 1" euler="10 0 0">
    <body name="y" pos="0 1 0" euler="0 5 0"><body><joint/><geom size=".1"/></body></body></frame></frame>
  <replicate count="3" offset="0 .5 0" euler="0 0 20"><body name="r" pos=".2 0 0"><body><joint/><geom size=".1"/></body></body></replicate>
  <body name="z" pos="0 3 0"><frame pos="0 0 1" euler="10 0 0">
    <body name="y2" pos="0 1 0" euler="0 5 0"><body><joint/><geom size=".1"/></body></body></frame></body>
</worldbody></mujoco>""")
    path = str(tmp_path / "m.xml")
    mm, gm = mujoco.MjModel.from_xml_path(path), gauss.Model.from_xml_path(path)
    errors = compiled_errors(gm, mm)
    assert not errors, "; ".join(errors)


# ---- the model's own elements naming attached ones, inside replicates ----

REPLICATED_CHILD = """<mujoco model="c"><worldbody><body name="b"><joint name="j"/><geom name="g" size=".1"/>
  <site name="s"/></body><body name="o" pos="0 1 0"><joint/><geom name="og" size=".1"/></body></worldbody>
  <tendon><fixed name="ct"><joint joint="j" coef="2"/></fixed></tendon></mujoco>"""


@pytest.mark.parametrize("body", ['body="b"', ""])
def test_own_elements_naming_attached_ones_are_replicated_like_mujoco(body, tmp_path):
    # MJCF replicates the model's own tendons, actuators, sensors, equalities, pairs and
    # exclusions that name an attached element by its prefixed name, as it does for elements
    # written inside the replicate
    (tmp_path / "c.xml").write_text(REPLICATED_CHILD)
    (tmp_path / "main.xml").write_text(f"""<mujoco><asset><model name="c" file="c.xml"/></asset>
  <worldbody><geom name="floor" type="plane" size="5 5 .1"/>
    <replicate count="3" offset="1 0 0" euler="0 0 10">
      <body name="holder"><geom size=".05" pos="0 0 -.3"/><attach model="c" {body} prefix="p-"/></body></replicate></worldbody>
  <tendon><fixed name="t"><joint joint="p-j" coef="1"/></fixed></tendon>
  <actuator><motor name="m" joint="p-j"/><motor name="mt" tendon="p-ct"/></actuator>
  <sensor><framepos name="fp" objtype="site" objname="p-s"/><jointpos name="jp" joint="p-j"/></sensor>
  <equality><joint name="e" joint1="p-j" polycoef=".1 0 0 0 0"/></equality>
  <contact><exclude body1="p-b" body2="holder"/><pair geom1="p-g" geom2="floor"/></contact>
</mujoco>""")
    path = str(tmp_path / "main.xml")
    mm, gm = mujoco.MjModel.from_xml_path(path), gauss.Model.from_xml_path(path)
    errors = compiled_errors(gm, mm)
    assert not errors, "; ".join(errors)
    want, got = names(mm, False), names(gm, True)
    for _, size in KINDS:
        assert got[size] == want[size], size


# ---- a name two attaches make ----

def test_name_made_by_two_attaches_names_both_attach_lines(tmp_path):
    (tmp_path / "c.xml").write_text(REPLICATED_CHILD)
    (tmp_path / "main.xml").write_text("""<mujoco><asset><model name="c" file="c.xml"/></asset>
  <worldbody>
    <body name="x"><attach model="c" body="b" prefix="p-"/></body>
    <body name="y">
      <attach model="c" body="b" prefix="p-"/></body>
  </worldbody></mujoco>""")
    path = str(tmp_path / "main.xml")
    with pytest.raises(ValueError, match="attach"):  # MuJoCo refuses it too, at the second
        mujoco.MjModel.from_xml_path(path)
    with pytest.raises(gauss.GaussError) as e:
        gauss.Model.from_xml_path(path)
    msg = str(e.value)
    assert "main.xml:5" in msg and "main.xml:3" in msg and "p-b" in msg and "c.xml" not in msg, msg


@pytest.mark.parametrize("name", sorted(CASES))
def test_sub_model_compiler_written_as_mjcf_reloads_the_same(name, tmp_path):
    # the sub-model's own settings act on what is written (explicit inertia, limits, quaternions):
    # the written file reloads to the same arrays
    from test_roundtrip import compare
    gm = gauss.Model.from_xml_path(write(tmp_path, *CASES[name]))
    assert compare(gm, gauss.Model.from_xml_string(gm.to_xml())) == []
