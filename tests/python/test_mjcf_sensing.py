"""The sensing slice of MJCF against MuJoCo: sensors, equality constraints, keyframes (and
gauss.reset_data_keyframe), custom numeric/text/tuple data, mocap bodies and user data. Every
corpus file as it is, then hand-written models for what the corpus lacks, then bad models."""

import mujoco
import numpy as np
import pytest

import gauss
import oracle

SIZES = ["nmocap", "neq", "nsensor", "nsensordata", "nkey", "nnumeric", "nnumericdata", "ntext",
         "ntextdata", "ntuple", "ntupledata", "nuserdata", "nuser_body", "nuser_jnt",
         "nuser_geom", "nuser_site", "nuser_sensor"]

FIELDS = [
    "body_mocapid", "body_user", "jnt_user", "geom_user", "site_user",
    "eq_type", "eq_obj1id", "eq_obj2id", "eq_objtype", "eq_active0", "eq_solref", "eq_solimp",
    "eq_data",
    "sensor_type", "sensor_datatype", "sensor_needstage", "sensor_objtype", "sensor_objid",
    "sensor_reftype", "sensor_refid", "sensor_intprm", "sensor_dim", "sensor_adr",
    "sensor_cutoff", "sensor_noise", "sensor_user", "sensor_plugin",
    "key_time", "key_qpos", "key_qvel", "key_act", "key_ctrl", "key_mpos", "key_mquat",
    "numeric_adr", "numeric_size", "numeric_data", "text_adr", "text_size",
    "tuple_adr", "tuple_size", "tuple_objtype", "tuple_objid", "tuple_objprm",
]

# object types whose names are compared: equality, sensor, numeric, text, tuple, key
NAMED = {17: "neq", 20: "nsensor", 21: "nnumeric", 22: "ntext", 23: "ntuple", 24: "nkey"}


def compare(gm, mm):
    """readable differences between the sensing slice of a gauss and a MuJoCo model"""
    errors = oracle.size_errors(gm, mm, SIZES)
    if errors:
        return errors
    errors = oracle.field_errors(gm, mm, FIELDS, lambda f, a, b: ~(np.abs(a - b) <= 1e-9))
    if bytes(np.asarray(gm.text_data, dtype=np.uint8)) != bytes(mm.text_data):
        errors.append(f"text_data: gauss {bytes(np.asarray(gm.text_data))!r} "
                      f"mujoco {bytes(mm.text_data)!r}")
    return errors + oracle.name_errors(gm, mm, NAMED)


def both(xml):
    mm = mujoco.MjModel.from_xml_string(xml)
    gm = gauss.Model.from_xml_string(xml)
    return gm, mm


def check(xml):
    gm, mm = both(xml)
    oracle.assert_no_errors(compare(gm, mm))
    return gm, mm


# ---- the corpus, as it is ----

def test_corpus_sensing_like_mujoco(corpus_model):
    model_id, path = corpus_model
    gm = gauss.Model.from_xml_path(path)
    mm = mujoco.MjModel.from_xml_path(path)
    oracle.assert_no_errors(compare(gm, mm), f"{model_id}: ")


# ---- sensors ----

TREE = """
  <worldbody>
    <site name="ws" pos="0 0 2"/>
    <body name="b1" pos="0 0 1" euler="10 0 20">
      <joint name="hinge" type="hinge" range="-1 1"/>
      <joint name="slide" type="slide" axis="1 0 0"/>
      <geom name="g1" size=".1"/>
      <site name="s1" pos=".1 0 0"/>
      <body name="b2" pos="0 .2 -.5" quat="1 .2 0 .1">
        <joint name="ball" type="ball" range="0 1"/>
        <geom name="g2" type="box" size=".1 .2 .3"/>
        <site name="s2" pos=".1 .2 .3" euler="40 10 0"/>
      </body>
    </body>
  </worldbody>
"""

SENSORS_CORE = f"""<mujoco>
  <size nuser_sensor="-1"/>
  {TREE}
  <sensor>
    <touch name="touch" site="s1" user="1 2 3"/>
    <accelerometer site="s1" noise="0.5" cutoff="2"/>
    <velocimeter site="s1"/>
    <gyro site="s2"/>
    <force site="s1"/>
    <torque site="ws"/>
    <magnetometer site="s1"/>
    <rangefinder site="s1"/>
    <jointpos joint="hinge"/>
    <jointvel joint="slide"/>
    <jointactuatorfrc joint="hinge"/>
    <ballquat joint="ball"/>
    <ballangvel joint="ball"/>
    <jointlimitpos joint="hinge"/>
    <jointlimitvel joint="ball"/>
    <jointlimitfrc joint="hinge"/>
    <framepos objtype="body" objname="b1" reftype="site" refname="s2"/>
    <framequat objtype="geom" objname="g1"/>
    <framexaxis objtype="site" objname="s1"/>
    <frameyaxis objtype="xbody" objname="b2" reftype="geom" refname="g2"/>
    <framezaxis objtype="xbody" objname="b2"/>
    <framelinvel objtype="site" objname="s1" reftype="xbody" refname="b1"/>
    <frameangvel objtype="geom" objname="g2" reftype="body" refname="world"/>
    <framelinacc objtype="site" objname="s1"/>
    <frameangacc objtype="body" objname="b2"/>
    <subtreecom body="b1"/>
    <subtreelinvel body="world"/>
    <subtreeangmom body="b2"/>
    <insidesite objtype="geom" objname="g1" site="s2"/>
    <insidesite objtype="xbody" objname="b1" site="ws"/>
    <distance geom1="g1" geom2="g2"/>
    <normal body1="b1" body2="b2"/>
    <fromto geom1="g1" body2="b2" cutoff="3"/>
    <contact/>
    <contact geom1="g1" data="found force"/>
    <contact body1="b1" subtree2="b1" num="3" reduce="mindist" data="dist normal tangent"/>
    <contact site="s1" geom2="g2" reduce="maxforce" data="pos"/>
    <contact subtree1="b2" body2="world" reduce="netforce" data="found torque" num="2"/>
    <e_potential name="pe"/>
    <e_kinetic/>
    <clock name="clock"/>
    <user dim="3" needstage="vel" datatype="axis" objtype="joint" objname="hinge"/>
    <user dim="4" datatype="quaternion" needstage="none"/>
    <user dim="2" needstage="pos" datatype="positive" objtype="site" objname="s1" user="7"/>
    <user dim="0"/>
  </sensor>
</mujoco>"""


def test_sensors_of_the_tree():
    gm, mm = check(SENSORS_CORE)
    assert gm.nsensor == 45


SENSORS_OTHERS = """<mujoco>
  <worldbody>
    <camera name="cam" pos="0 0 3"/>
    <body name="b" pos="0 0 1">
      <joint name="j" range="-1 1"/>
      <geom size=".1"/>
      <site name="s"/>
    </body>
  </worldbody>
  <tendon>
    <fixed name="t" range="-1 1"><joint joint="j" coef="2"/></fixed>
    <fixed name="free"><joint joint="j" coef="1"/></fixed>
  </tendon>
  <actuator>
    <motor name="a1" joint="j"/>
    <motor name="a2" tendon="t"/>
  </actuator>
  <sensor>
    <camprojection site="s" camera="cam"/>
    <tendonpos tendon="t"/>
    <tendonvel tendon="free"/>
    <actuatorpos actuator="a1"/>
    <actuatorvel actuator="a2"/>
    <actuatorfrc actuator="a1"/>
    <tendonactuatorfrc tendon="t"/>
    <tendonlimitpos tendon="t"/>
    <tendonlimitvel tendon="t"/>
    <tendonlimitfrc tendon="t"/>
    <framepos objtype="camera" objname="cam" reftype="camera" refname="cam"/>
    <user dim="1" objtype="actuator" objname="a2"/>
    <user dim="1" objtype="tendon" objname="free"/>
  </sensor>
</mujoco>"""


def test_sensors_of_tendons_actuators_cameras():
    check(SENSORS_OTHERS)


def test_sensor_user_columns_from_size():
    xml = SENSORS_CORE.replace('nuser_sensor="-1"', 'nuser_sensor="5"')
    gm, _ = check(xml)
    assert gm.sensor_user.shape == (45, 5)


def test_user_sensor_with_an_unknown_object_type():
    # MuJoCo accepts it and gives the sensor no object; gauss does the same, with a warning
    xml = SENSORS_CORE.replace('<user dim="0"/>', '<user dim="1" objtype="bogus" objname="s1"/>')
    gm, _ = check(xml)
    assert any("bogus" in w for w in gm.load_warnings)


def test_skipped_sensors_warn():
    xml = """<mujoco><worldbody><body><geom name="g" size=".1"/></body></worldbody>
      <sensor><plugin plugin="x"/><clock/></sensor></mujoco>"""
    gm = gauss.Model.from_xml_string(xml)
    assert gm.nsensor == 1
    assert any("plugin" in w for w in gm.load_warnings)


# ---- equality constraints ----

EQUALITY = f"""<mujoco>
  <default>
    <equality solref="0.05 2"/>
    <default class="c">
      <equality solimp="0.8 0.9 0.01 0.4 3" active="false"/>
    </default>
  </default>
  {TREE}
  <equality>
    <connect name="c1" body1="b1" anchor="1 2 3"/>
    <connect body1="b1" body2="b2" anchor="1 2 3" class="c"/>
    <connect body1="world" body2="b2" anchor="0.1 0 0" solref="0.1"/>
    <connect site1="s1" site2="s2"/>
    <weld body1="b1"/>
    <weld name="w" body1="b2" body2="b1"/>
    <weld body1="b2" body2="b1" relpose="1 2 3 2 0 0 0" anchor="0.1 0.2 0.3" torquescale="2"/>
    <weld body1="b1" anchor="1 2 3"/>
    <weld body1="b1" relpose="1 2 3 0 0 0 0" active="false"/>
    <weld site1="s1" site2="s2" torquescale="3" solimp="0.5"/>
    <weld site1="ws" site2="s2"/>
    <joint joint1="hinge"/>
    <joint joint1="hinge" joint2="slide" polycoef="1 2 3 4 5"/>
    <joint joint1="slide" joint2="hinge" polycoef="1 2" class="c" active="true"/>
  </equality>
</mujoco>"""


def test_equality_constraints():
    gm, mm = check(EQUALITY)
    assert gm.neq == 14


def test_equality_tendons():
    xml = """<mujoco>
      <worldbody><body><joint name="j1"/><joint name="j2" axis="1 0 0"/><geom size=".1"/></body>
      </worldbody>
      <tendon><fixed name="t1"><joint joint="j1" coef="2"/></fixed>
        <fixed name="t2"><joint joint="j2" coef="1"/></fixed></tendon>
      <equality>
        <tendon tendon1="t1"/>
        <tendon name="tt" tendon1="t1" tendon2="t2" polycoef="0 1 0.5"/>
      </equality>
    </mujoco>"""
    check(xml)


def test_equality_mocap_and_free_bodies():
    xml = """<mujoco>
      <worldbody>
        <body name="target" mocap="true" pos="1 0 1" euler="0 0 30"><geom size=".1"/></body>
        <body name="box" pos="0 0 1"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
      </worldbody>
      <equality><weld body1="target" body2="box"/><connect body1="box" body2="target"
        anchor="0.1 0 0"/></equality>
    </mujoco>"""
    check(xml)


# ---- keyframes and mocap bodies ----

KEYS = """<mujoco>
  <size nkey="%d"/>
  <worldbody>
    <body name="m1" mocap="true" pos="1 2 3" euler="10 20 30"><geom size=".1"/></body>
    <body name="b1" pos="0 0 1">
      <joint name="j1" type="hinge" ref="10"/>
      <geom size=".1"/>
      <body name="b2"><joint type="ball"/><geom size=".1"/></body>
    </body>
    <body name="f" pos="1 1 1"><freejoint/><geom size=".1"/></body>
    <body name="m2" mocap="true" quat="0 2 0 0"><geom size=".1"/>
      <body pos="0 1 0"><joint/><geom size=".1"/></body>
    </body>
  </worldbody>
  <actuator><motor joint="j1"/><general joint="j1" dyntype="integrator"/></actuator>
  <keyframe>%s</keyframe>
</mujoco>"""

KEY_CASES = {
    "full": '<key name="k" time="1" qpos="0.1 1 0 0 0 5 6 7 1 0 0 0 0.3" ctrl="1 2" act="3"/>',
    "qvel_mpos": '<key qvel="1 2 3 4 5 6 7 8 9 10 11" mpos="1 1 1 2 2 2"/>',
    "short_qpos": '<key qpos="0.5 0.5"/>',
    "unnormalized": '<key qpos="0.1 2 0 0 0 5 6 7 1 1 0 0" mquat="0 0 0 2 1 1 0 0"/>',
    "zero_mquat": '<key mquat="0 0 0 0 1 0 0 0"/>',
    "short_mocap": '<key mpos="5 6 7" mquat="0 0 1 0 5"/><key mpos="5" mquat="1 2 3"/>',
    "empty": '<key qpos=""/><key/>',
    "several": '<key name="a" time="0.5"/><key name="b" qvel="1"/><key name="c" ctrl="0 1"/>',
}


@pytest.mark.parametrize("case", sorted(KEY_CASES))
@pytest.mark.parametrize("nkey", [0, 4])
def test_keyframes(case, nkey):
    gm, mm = check(KEYS % (nkey, KEY_CASES[case]))
    assert gm.nkey == max(nkey, KEY_CASES[case].count("<key"))


def test_reset_data_keyframe_like_mujoco():
    gm, mm = both(KEYS % (3, KEY_CASES["full"] + KEY_CASES["qvel_mpos"]))
    gd, md = gauss.Data(gm), mujoco.MjData(mm)
    for key in range(3):
        gauss.reset_data_keyframe(gm, gd, key)
        mujoco.mj_resetDataKeyframe(mm, md, key)
        for f in ("qpos", "qvel", "act", "ctrl", "mocap_pos", "mocap_quat"):
            np.testing.assert_allclose(getattr(gd, f), getattr(md, f), atol=1e-12, err_msg=f)
        assert gd.time == md.time
    gauss.reset_data_keyframe(gm, gd, "k")
    assert gd.time == 1
    gauss.reset_data_keyframe(gm, gd, -1)
    np.testing.assert_allclose(gd.qpos, mm.key_qpos[2])
    with pytest.raises(IndexError):
        gauss.reset_data_keyframe(gm, gd, 3)
    with pytest.raises(KeyError):
        gauss.reset_data_keyframe(gm, gd, "nope")


def test_mocap_bodies_move_with_the_data():
    gm, mm = both(KEYS % (0, ""))
    gd, md = gauss.Data(gm), mujoco.MjData(mm)
    np.testing.assert_allclose(gd.mocap_pos, md.mocap_pos, atol=1e-12)
    np.testing.assert_allclose(gd.mocap_quat, md.mocap_quat, atol=1e-12)
    for d in (gd, md):
        d.mocap_pos[:] = [[0.5, -1, 2], [3, 2, 1]]
        d.mocap_quat[:] = [[2, 0, 0, 1], [1, 2, 3, 4]]
        d.qpos[:] = np.arange(1, gm.nq + 1) * 0.1
    gauss.kinematics(gm, gd)
    mujoco.mj_kinematics(mm, md)
    np.testing.assert_allclose(gd.xpos, md.xpos, atol=1e-12)
    np.testing.assert_allclose(gd.xmat, md.xmat, atol=1e-12)
    gauss.reset_data(gm, gd)
    np.testing.assert_allclose(gd.mocap_quat, mm.body_quat[mm.body_mocapid >= 0], atol=1e-12)


# ---- custom data ----

CUSTOM = f"""<mujoco>
  {TREE}
  <equality><joint name="eq" joint1="hinge"/></equality>
  <keyframe><key name="home"/></keyframe>
  <custom>
    <numeric name="n1" data="1 2 3"/>
    <numeric name="n2" size="5" data="1 2 3"/>
    <numeric name="n3" size="2"/>
    <text name="t1" data="hello"/>
    <text name="t2" data="  a b  "/>
    <tuple name="tp">
      <element objtype="body" objname="b1" prm="2"/>
      <element objtype="geom" objname="g1"/>
      <element objtype="site" objname="s2" prm="-1.5"/>
      <element objtype="xbody" objname="world"/>
      <element objtype="joint" objname="ball" prm="3"/>
    </tuple>
    <tuple name="meta">
      <element objtype="numeric" objname="n2"/>
      <element objtype="text" objname="t1"/>
      <element objtype="tuple" objname="tp"/>
      <element objtype="equality" objname="eq"/>
      <element objtype="key" objname="home"/>
    </tuple>
  </custom>
</mujoco>"""


def test_custom_data():
    gm, mm = check(CUSTOM)
    assert bytes(np.asarray(gm.text_data)) == b"hello\x00  a b  \x00"


# ---- user data of the tree ----

USER = """<mujoco>
  %s
  <default>
    <joint user="1 2"/>
    <geom user="5"/>
    <default class="c"><site user="3 4 5"/><geom user="6 7 8 9"/></default>
  </default>
  <worldbody>
    <site name="ws"/>
    <body name="b1" user="1 2 3">
      <joint/><joint user="9"/>
      <geom size=".1"/><geom size=".1" class="c"/><geom size=".1" user=""/>
      <site class="c"/><site user="1"/>
    </body>
    <body childclass="c" user=""><geom size=".1"/><site/></body>
  </worldbody>
</mujoco>"""


@pytest.mark.parametrize("size", [
    "", '<size nuser_body="4" nuser_jnt="-1" nuser_geom="6" nuser_site="3" nuserdata="7"/>',
    '<size nuser_body="-1"/><size nuser_body="3"/>'])
def test_user_data(size):
    gm, mm = check(USER % size)
    assert gm.body_user.shape == mm.body_user.shape
    gd = gauss.Data(gm)
    assert gd.userdata.shape == (mm.nuserdata,)


# ---- bad models ----

BODY = '<worldbody><body name="b"><joint name="j"/><joint name="jb" type="ball"/>' \
       '<geom name="g" size=".1"/><site name="s"/></body></worldbody>'


def bad(line3, section="sensor"):
    """a model whose third line holds the element under test"""
    return f"<mujoco>\n{BODY}\n<{section}>{line3}</{section}>\n</mujoco>"


# (xml, element named in the message, phrase, MuJoCo rejects it too); the culprit is on line 3
BAD = [
    (bad('<touch/>'), "touch", "missing required attribute 'site'", True),
    (bad('<touch site="nope"/>'), "touch", "unknown site 'nope'", True),
    (bad('<jointpos joint="nope"/>'), "jointpos", "unknown joint 'nope'", True),
    (bad('<tendonpos tendon="nope"/>'), "tendonpos", "unknown tendon 'nope'", True),
    (bad('<actuatorfrc actuator="nope"/>'), "actuatorfrc", "unknown actuator 'nope'", True),
    (bad('<subtreecom body="nope"/>'), "subtreecom", "unknown body 'nope'", True),
    (bad('<touch site="s" noise="-1"/>'), "touch", "noise must be non-negative", True),
    (bad('<touch site="s" cutoff="-1"/>'), "touch", "cutoff must be non-negative", True),
    (bad('<touch site="s" noise="x"/>'), "touch", "malformed number", True),
    (bad('<touch site="s" cutoff="1 2"/>'), "touch", "expected 1 number", True),
    (bad('<touch site="s" joint="j"/>'), "touch", "unknown attribute 'joint'", True),
    (bad('<touch site="s" name="a"/><gyro site="s" name="a"/>'), "gyro", "repeated name 'a'",
     True),
    (bad('<jointpos joint="jb"/>'), "jointpos", "must be a slide or a hinge", True),
    (bad('<ballquat joint="j"/>'), "ballquat", "must be a ball joint", True),
    (bad('<jointlimitpos joint="j"/>'), "jointlimitpos", "must be limited", True),
    (bad('<framepos objtype="joint" objname="j"/>'), "framepos", "objtype must be body", True),
    (bad('<framepos objtype="bogus" objname="s"/>'), "framepos", "invalid value 'bogus'", True),
    (bad('<framepos objtype="site"/>'), "framepos", "missing required attribute 'objname'",
     True),
    (bad('<framepos objtype="site" objname="s" refname="s"/>'), "framepos",
     "reftype is missing", True),
    (bad('<framepos objtype="site" objname="s" reftype="site"/>'), "framepos",
     "refname is missing", True),
    (bad('<framelinacc objtype="site" objname="s" reftype="site" refname="s"/>'),
     "framelinacc", "unknown attribute 'reftype'", True),
    (bad('<camprojection site="s"/>'), "camprojection", "missing required attribute 'camera'",
     True),
    (bad('<distance geom1="g"/>'), "distance", "exactly one of geom2, body2", True),
    (bad('<distance geom1="g" body1="b" geom2="g"/>'), "distance", "exactly one of geom1, body1",
     True),
    (bad('<normal geom1="g" geom2="g"/>'), "normal", "must differ", True),
    (bad('<contact geom1="g" body1="b"/>'), "contact", "at most one of geom1", True),
    (bad('<contact geom2="g" subtree2="b"/>'), "contact", "at most one of geom2", True),
    (bad('<contact num="0"/>'), "contact", "must be positive", True),
    (bad('<contact data="force found"/>'), "contact", "must be in the order", True),
    (bad('<contact data="force force"/>'), "contact", "is repeated", True),
    (bad('<contact reduce="most"/>'), "contact", "invalid value 'most'", True),
    (bad('<contact site="s" noise="1"/>'), "contact", "unknown attribute 'noise'", True),
    (bad('<user/>'), "user", "missing required attribute 'dim'", True),
    (bad('<user dim="-1"/>'), "user", "dim must be non-negative", True),
    (bad('<user dim="2" datatype="axis"/>'), "user", "requires dim 3", True),
    (bad('<user dim="3" datatype="quaternion"/>'), "user", "requires dim 4", True),
    (bad('<user dim="1" needstage="later"/>'), "user", "invalid value 'later'", True),
    (bad('<user dim="1" objtype="site"/>'), "user", "objname is missing", True),
    (bad('<user dim="1" objtype="site" objname="nope"/>'), "user", "unknown site 'nope'", True),
    (bad('<geomdist geom1="g" geom2="g"/>'), "geomdist", "not allowed in <sensor>", True),
    (bad('<touch site="s" class="main"/>'), "touch", "unknown attribute 'class'", True),
    (bad('<bogus/>'), "bogus", "unknown element", True),
    # equality
    (bad('<connect body1="b"/>', "equality"), "connect", "either body1 and anchor", True),
    (bad('<connect site1="s"/>', "equality"), "connect", "site1 and site2 must both", True),
    (bad('<connect site1="s" site2="s" anchor="0 0 0"/>', "equality"), "connect",
     "cannot be mixed", True),
    (bad('<connect body1="b" anchor="1 2"/>', "equality"), "connect", "expected 3 numbers",
     True),
    (bad('<connect body1="nope" anchor="0 0 0"/>', "equality"), "connect",
     "unknown body 'nope'", True),
    (bad('<connect body1="world" anchor="0 0 0"/>', "equality"), "connect",
     "both objects are body 'world'", True),
    (bad('<weld body2="b"/>', "equality"), "weld", "either body1, or site1 and site2", True),
    (bad('<weld body1="b" relpose="1 2 3"/>', "equality"), "weld", "expected 7 numbers", True),
    (bad('<weld site1="s" site2="nope"/>', "equality"), "weld", "unknown site 'nope'", True),
    (bad('<joint/>', "equality"), "joint", "missing required attribute 'joint1'", True),
    (bad('<joint joint1="jb"/>', "equality"), "joint", "must be a hinge or a slide", True),
    (bad('<joint joint1="j" joint2="j"/>', "equality"), "joint", "both objects are joint 'j'",
     True),
    (bad('<joint joint1="j" polycoef="1 2 3 4 5 6"/>', "equality"), "joint",
     "expected 1 to 5 numbers", True),
    (bad('<joint joint1="j" active="maybe"/>', "equality"), "joint", "invalid value 'maybe'",
     True),
    (bad('<joint joint1="j" class="nope"/>', "equality"), "joint", "undefined class 'nope'",
     True),
    (bad('<tendon tendon1="nope"/>', "equality"), "tendon", "unknown tendon 'nope'", True),
    (bad('<joint name="a" joint1="j"/><connect name="a" body1="b" anchor="0 0 0"/>',
         "equality"), "connect", "repeated name 'a'", True),
    (bad('<distance geom1="g" geom2="g"/>', "equality"), "distance",
     "not allowed in <equality>", True),
    # keyframes
    (bad('<key qpos="0 1 0 0 0 0"/>', "keyframe"), "key", "qpos has 6 values", True),
    (bad('<key qvel="1 2 3 4 5"/>', "keyframe"), "key", "qvel has 5 values", True),
    (bad('<key act="1"/>', "keyframe"), "key", "act has 1 values", True),
    (bad('<key ctrl="1"/>', "keyframe"), "key", "ctrl has 1 values", True),
    (bad('<key mpos="1 2 3"/>', "keyframe"), "key", "mpos has 3 values", True),
    (bad('<key time="x"/>', "keyframe"), "key", "malformed number", True),
    (bad('<key name="k"/><key name="k"/>', "keyframe"), "key", "repeated name 'k'", True),
    (bad('<key qpos="0 1 0 0 0" foo="1"/>', "keyframe"), "key", "unknown attribute 'foo'",
     True),
    # custom
    (bad('<numeric data="1"/>', "custom"), "numeric", "missing required attribute 'name'", True),
    (bad('<numeric name="n"/>', "custom"), "numeric", "size or data must be given", True),
    (bad('<numeric name="n" size="0"/>', "custom"), "numeric", "between 1 and 500", True),
    (bad('<numeric name="n" size="2" data="1 2 3"/>', "custom"), "numeric",
     "more than size 2", True),
    (bad('<numeric name="n" data="1"/><numeric name="n" data="2"/>', "custom"), "numeric",
     "repeated name 'n'", True),
    (bad('<text name="t"/>', "custom"), "text", "missing required attribute 'data'", True),
    (bad('<text name="t" data=""/>', "custom"), "text", "text cannot be empty", True),
    (bad('<tuple name="t"/>', "custom"), "tuple", "tuple is empty", True),
    (bad('<tuple><element objtype="body" objname="b"/></tuple>', "custom"), "tuple",
     "missing required attribute 'name'", True),
    (bad('<tuple name="t"><element objtype="body" objname="zz"/></tuple>', "custom"), "tuple",
     "unknown body 'zz'", True),
    (bad('<tuple name="t"><element objtype="world" objname="b"/></tuple>', "custom"), "element",
     "invalid value 'world'", True),
    (bad('<tuple name="t"><element objtype="body" objname="b" prm="1 2"/></tuple>', "custom"),
     "element", "expected 1 number", True),
    (bad('<tuple name="t"><element objtype="dof" objname="b"/></tuple>', "custom"), "tuple",
     "unknown dof 'b'", True),
    (bad('<numbers name="n"/>', "custom"), "numbers", "unknown element", True),
]

# user data, <size> and mocap bodies: the culprit is on line 3 again
BAD += [
    ('<mujoco>\n<size nuser_body="1"/>\n<worldbody><body user="1 2"><geom size=".1"/></body>'
     '</worldbody></mujoco>', "body", "user has 2 values, more than nuser_body = 1", True),
    ('<mujoco>\n<size nuser_geom="0"/>\n<worldbody><body><geom size=".1" user="1"/></body>'
     '</worldbody></mujoco>', "geom", "more than nuser_geom = 0", True),
    ('<mujoco>\n<size nuser_jnt="1"/>\n<worldbody><body><joint user="1 2"/><geom size=".1"/>'
     '</body></worldbody></mujoco>', "joint", "more than nuser_jnt = 1", True),
    ('<mujoco>\n<size nuser_site="0"/>\n<worldbody><site user="1"/></worldbody></mujoco>',
     "site", "more than nuser_site = 0", True),
    ('<mujoco>\n<size nuser_sensor="0"/>\n<sensor><clock user="1"/></sensor></mujoco>', "clock",
     "more than nuser_sensor = 0", True),
    ('<mujoco>\n<worldbody/>\n<size nuser_body="-2"/></mujoco>', "size", "must be >= -1", True),
    ('<mujoco>\n<worldbody/>\n<size nuserdata="-1"/></mujoco>', "size", "must be non-negative",
     True),
    ('<mujoco>\n<worldbody/>\n<size nkey="x"/></mujoco>', "size", "malformed integer", True),
    ('<mujoco>\n<worldbody>\n<body user="1 x"><geom size=".1"/></body></worldbody></mujoco>',
     "body", "malformed number", True),
    ('<mujoco>\n<worldbody>\n<body mocap="true"><joint/><geom size=".1"/></body></worldbody>'
     '</mujoco>', "body", "mocap body must be a child of the world without joints", True),
    ('<mujoco>\n<worldbody><body>\n<body mocap="true"><geom size=".1"/></body><geom size=".1"/>'
     '</body></worldbody></mujoco>', "body", "mocap body must be a child of the world", True),
    ('<mujoco>\n<worldbody>\n<body mocap="yes"/></worldbody></mujoco>', "body",
     "invalid value 'yes'", True),
    ('<mujoco>\n<default>\n<equality solref="1 2 3"/></default></mujoco>', "equality",
     "expected 1 to 2 numbers", True),
    ('<mujoco>\n<default>\n<equality anchor="1 2 3"/></default></mujoco>', "equality",
     "unknown attribute 'anchor'", True),
]


@pytest.mark.parametrize("xml,elem,phrase,mujoco_rejects", BAD,
                         ids=[f"{i}-{b[1]}" for i, b in enumerate(BAD)])
def test_bad_models(xml, elem, phrase, mujoco_rejects):
    oracle.assert_rejected(xml, ":3:", elem, phrase, mujoco_rejects, ValueError)
