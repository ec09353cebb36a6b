"""MJCF's <replicate> against MuJoCo 3.3.7: replicas placed by powers of the step (offset, then
euler) in the enclosing frame, names suffixed (innermost first, zero-padded to the digits of the
count), the replicas in place among their siblings, and the tendons, actuators, sensors,
equalities, pairs and exclusions that name a replicated element replicated along (those naming
nothing replicated first, then a block per replica). Compared: every compiled field of
test_compiled, the names of every kind, and 50 steps of motion; bad input gives errors naming the
line."""

import mujoco
import numpy as np
import pytest

import gauss
from test_compiled import compare_models

# (object type, size name) of the kinds whose names are compared
KINDS = [(gauss.OBJ_BODY, "nbody"), (gauss.OBJ_JOINT, "njnt"), (gauss.OBJ_GEOM, "ngeom"),
         (gauss.OBJ_SITE, "nsite"), (gauss.OBJ_CAMERA, "ncam"), (gauss.OBJ_LIGHT, "nlight"),
         (gauss.OBJ_TENDON, "ntendon"), (gauss.OBJ_ACTUATOR, "nu"), (gauss.OBJ_SENSOR, "nsensor"),
         (gauss.OBJ_EQUALITY, "neq"), (gauss.OBJ_PAIR, "npair"), (gauss.OBJ_EXCLUDE, "nexclude")]

MODELS = {
    # nested replicates with separators, a sensor naming the replicated site. (With nested
    # replicates MuJoCo 3.3.7 also copies elements that name nothing replicated, once per replica
    # and level: a <clock/> sensor here becomes 38 sensors named t, t-0, t-1, t-0-1, tx0, ...;
    # gauss keeps such elements once, as the single-level case does in both engines, so the
    # models here give none.)
    "nested": """
<mujoco><worldbody><body pos="0 0 1"><freejoint/>
  <replicate count="3" offset="0 1 0" euler="90 0 0" sep="x">
    <replicate count="2" sep="-" offset="1 0 0" euler="0 90 0">
      <geom name="ball" size=".1"/><site name="ball" size=".05"/>
    </replicate>
  </replicate>
</body></worldbody>
<sensor><accelerometer name="acc" site="ball"/></sensor></mujoco>""",
    # replicated bodies with joints; actuators, sensors, a tendon, an exclusion and a pair that
    # name them, interleaved with elements that name nothing replicated
    "references": """
<mujoco><worldbody><body name="base"><geom name="floor" type="box" size="2 2 .1"/></body>
  <replicate count="10" offset="0.5 0 0" euler="0 0 15" sep="_">
    <body name="arm" pos="0 0 1"><joint name="hinge" axis="0 1 0"/><geom name="link" size=".1"/>
      <site name="tip" pos=".2 0 0"/><site name="root"/></body>
  </replicate>
  <body name="free" pos="0 0 3"><freejoint/><geom size=".1"/></body>
</worldbody>
<tendon><spatial name="cord"><site site="root"/><site site="tip"/></spatial></tendon>
<actuator><motor name="other" joint="hinge"/><position name="servo" joint="hinge" kp="10"/></actuator>
<sensor><jointpos name="angle" joint="hinge"/><framepos objtype="body" objname="base"/>
  <tendonpos tendon="cord"/></sensor>
<contact><exclude body1="base" body2="arm"/><pair geom1="link" geom2="floor"/></contact></mujoco>""",
    # replicas in place among their siblings, inside a body and inside frames, with frames inside
    "placement": """
<mujoco><worldbody>
  <replicate count="2" offset="1 0 0"><body name="b"><joint/><geom name="g" size=".1"/></body></replicate>
  <body name="after"><geom size=".1"/>
    <replicate count="3" offset="0 0 .3" euler="10 0 0"><geom name="in" size=".1"/>
      <frame name="f" pos=".1 0 0" euler="0 0 30"><site name="s"/><camera name="c"/></frame></replicate>
    <geom name="last" size=".1"/></body>
  <frame pos="0 0 1" euler="0 0 30">
    <replicate count="4" offset=".3 0 0" euler="0 0 20">
      <body name="p"><freejoint/><geom type="capsule" fromto="0 0 0 .1 0 0" size=".02"/><light name="l"/></body>
    </replicate>
  </frame>
</worldbody>
<equality><weld body1="p"/></equality></mujoco>""",
    # a hundred replicas: suffixes of three digits
    "hundred": """
<mujoco><worldbody>
  <replicate count="100" offset=".05 0 0" euler="0 0 3.6">
    <body name="bead" pos="1 0 0"><freejoint/><geom name="bead" size=".02"/></body>
  </replicate>
  <geom type="plane" size="5 5 .1"/>
</worldbody></mujoco>""",
}


@pytest.mark.parametrize("name", sorted(MODELS))
def test_replicate_like_mujoco(name):
    xml = MODELS[name]
    mm, gm = mujoco.MjModel.from_xml_string(xml), gauss.Model.from_xml_string(xml)
    assert not gm.load_warnings, gm.load_warnings
    errors = compare_models(gm, mm)
    assert not errors, "; ".join(errors)
    for objtype, size in KINDS:
        n = getattr(mm, size)
        assert getattr(gm, size) == n, size
        want = [mujoco.mj_id2name(mm, objtype, i) for i in range(n)]
        got = [gauss.id2name(gm, objtype, i) or None for i in range(n)]
        assert got == [w or None for w in want], size
    for f in ("actuator_trnid", "sensor_objid", "sensor_type", "tendon_adr", "wrap_objid",
              "exclude_signature", "pair_geom1", "pair_geom2", "eq_obj1id", "eq_obj2id"):
        if hasattr(mm, f) and hasattr(gm, f):
            np.testing.assert_array_equal(np.asarray(getattr(gm, f)).ravel(),
                                          np.asarray(getattr(mm, f)).ravel(), err_msg=f)
    for f in ("cam_pos", "cam_quat", "light_pos", "light_dir"):
        np.testing.assert_allclose(np.asarray(getattr(gm, f)).ravel(),
                                   np.asarray(getattr(mm, f)).ravel(), atol=1e-12, err_msg=f)
    md, gd = mujoco.MjData(mm), gauss.Data(gm)
    rng = np.random.default_rng(0)
    md.qvel[:] = gd.qvel[:] = rng.normal(scale=0.3, size=mm.nv)
    for _ in range(50):
        mujoco.mj_step(mm, md)
        gauss.step(gm, gd)
    np.testing.assert_allclose(gd.qpos, md.qpos, atol=1e-9)
    np.testing.assert_allclose(gd.sensordata, md.sensordata, atol=1e-9)


@pytest.mark.parametrize("body,match", [
    ('<replicate count="0"><geom size=".1"/></replicate>', "must be positive"),
    ('<replicate count="1000000000"><geom size=".1"/></replicate>', "at most"),
    ('<replicate offset="1 0 0"><geom size=".1"/></replicate>', "count"),
    ('<replicate count="2" bogus="1"><geom size=".1"/></replicate>', "unknown attribute"),
    ('<body><geom size=".1"/>\n<replicate count="2"><joint/></replicate></body>', "wrap them in a body"),
    ('<replicate count="1000"><replicate count="1000"><replicate count="10"><geom size=".1"/>'
     '</replicate></replicate></replicate>', "more than"),
    # a short file must not grow without bound: elements made by replication are capped
    ('<replicate count="100000"><body><geom size=".1"/><geom size=".1"/></body></replicate>',
     "more than 200000 elements"),
])
def test_bad_replicates_are_errors_naming_the_line(body, match):
    xml = f"<mujoco><worldbody>\n{body}</worldbody></mujoco>"
    with pytest.raises(gauss.GaussError, match=match) as e:
        gauss.Model.from_xml_string(xml)
    assert "<string>:2" in str(e.value) or "<string>:3" in str(e.value)


def test_references_replicated_replicate_by_replicate():
    """Tendons and actuators naming the elements of two replicates are copied replicate by
    replicate: all replicas of those following the first replicate, then those of the second
    (MuJoCo's model/replicate/newton_cradle.xml; gauss interleaved them replica by replica)."""
    xml = """<mujoco><worldbody>
  <replicate count="3" offset=".1 0 0"><site name="a" pos="0 0 1"/><site name="c" pos="0 .1 1"/>
    <body name="p"><joint name="j" type="slide" axis="0 0 1"/><geom size=".02"/><site name="b"/></body>
  </replicate>
  <replicate count="2" offset="0 .3 0"><site name="e" pos="0 1 1.5"/>
    <body name="q" pos="0 1 0"><joint name="k" type="slide" axis="0 0 1"/><geom size=".03"/><site name="f"/></body>
  </replicate></worldbody>
  <tendon><spatial name="tf"><site site="e"/><site site="f"/></spatial>
    <spatial name="ta"><site site="a"/><site site="b"/></spatial>
    <spatial name="tc"><site site="c"/><site site="b"/></spatial></tendon>
  <actuator><motor joint="k"/><motor joint="j"/></actuator></mujoco>"""
    mm, gm = mujoco.MjModel.from_xml_string(xml), gauss.Model.from_xml_string(xml)
    for kind, n in ((mujoco.mjtObj.mjOBJ_TENDON, mm.ntendon), (mujoco.mjtObj.mjOBJ_ACTUATOR, mm.nu)):
        assert [gauss.id2name(gm, int(kind), i) for i in range(n)] == \
            [mujoco.mj_id2name(mm, kind, i) for i in range(n)]
    np.testing.assert_allclose(gm.tendon_length0, mm.tendon_length0, atol=1e-12)
    np.testing.assert_array_equal(gm.actuator_trnid, mm.actuator_trnid)
