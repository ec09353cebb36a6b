"""name2id / id2name for every object type against MuJoCo's mj_name2id / mj_id2name on the
corpus; unknown names raise UnknownNameError (a KeyError) naming the type and the close names;
out-of-range ids raise IndexError; named views are cached yet stay views of the live arrays;
dir() lists every field."""

import mujoco
import numpy as np
import pytest

import gauss

XML = """<mujoco>
  <worldbody>
    <body name="torso" pos="0 0 1">
      <freejoint name="root"/>
      <geom name="chest" type="box" size=".1 .2 .3"/>
      <body name="thigh_left" pos=".2 0 0">
        <joint name="hip_left" axis="0 1 0" range="-30 60"/>
        <geom name="leg_left" size=".05"/>
      </body>
      <body name="thigh_right" pos="-.2 0 0">
        <joint name="hip_right" axis="0 1 0" range="-40 50"/>
        <geom name="leg_right" size=".05"/>
      </body>
    </body>
    <geom name="floor" type="plane" size="5 5 .1"/>
  </worldbody>
  <actuator><motor name="m_left" joint="hip_left"/></actuator>
</mujoco>"""


def test_every_type_against_mujoco(corpus_model):
    _, path = corpus_model
    g = gauss.Model.from_xml_path(path)
    mm = mujoco.MjModel.from_xml_path(path)
    checked = 0
    if True:
        for t in range(1, 26):
            count = gauss._obj_count(g, t)
            for i in range(count):
                name = mujoco.mj_id2name(mm, t, i)
                assert gauss.id2name(g, t, i) == name, (path, t, i)
                if name:
                    assert gauss.name2id(g, t, name) == mujoco.mj_name2id(mm, t, name)
                    checked += 1
            assert gauss.name2id(g, t, "no such name") == -1
            with pytest.raises(IndexError, match=f"out of range: the model has {count}"):
                gauss.id2name(g, t, count)
            with pytest.raises(IndexError):
                gauss.id2name(g, t, -1)
    assert checked > 0


def test_type_names_and_bad_types():
    m = gauss.Model.from_xml_string(XML)
    assert gauss.name2id(m, "body", "torso") == gauss.name2id(m, gauss.OBJ_BODY, "torso") == 1
    assert gauss.name2id(m, "jnt", "hip_left") == 1
    assert gauss.id2name(m, gauss.OBJ_ACTUATOR, 0) == "m_left"
    assert gauss.id2name(m, gauss.OBJ_BODY, 0) == "world"
    with pytest.raises(ValueError, match="unknown object type"):
        gauss.name2id(m, "bodies", "torso")
    with pytest.raises(ValueError, match="out of range"):
        gauss.id2name(m, 26, 0)


def test_unknown_name_lists_close_names():
    m = gauss.Model.from_xml_string(XML)
    d = gauss.Data(m)
    with pytest.raises(gauss.UnknownNameError) as info:
        d.body("thigh_lef")
    e = info.value
    assert isinstance(e, KeyError)
    assert e.objtype == "body" and e.name == "thigh_lef"
    assert e.close[0] == "thigh_left" and "thigh_right" in e.close
    assert str(e).startswith("no body named 'thigh_lef'; close names: 'thigh_left'")
    with pytest.raises(KeyError, match="no joint named 'knee'.*'hip_left'"):
        m.joint("knee")  # nothing close: the names are listed
    with pytest.raises(KeyError, match="no geom named 'flor'; close names: 'floor'"):
        gauss.jac_geom(m, d, "flor")
    with pytest.raises(KeyError, match="no key named 'home'.*has no named key"):
        gauss.reset_data_keyframe(m, d, "home")


def test_out_of_range_ids():
    m = gauss.Model.from_xml_string(XML)
    d = gauss.Data(m)
    with pytest.raises(IndexError, match=r"body id 4 out of range: the model has 4 \(0..3\)"):
        m.body(4)
    with pytest.raises(IndexError):
        d.joint(-4)
    assert d.joint(-1).id == 2  # negative from the end, as MuJoCo's
    with pytest.raises(TypeError):
        m.body(1.0)
    gauss.forward(m, d)
    with pytest.raises(IndexError, match=f"d.ncon is {d.ncon}"):
        gauss.contact_force(m, d, 999)
    with pytest.raises(IndexError):
        gauss.contact_force(m, d, -1)
    if d.ncon:  # the valid ids still work
        assert gauss.contact_force(m, d, 0).shape == (6,)


def test_cached_views_follow_the_data():
    m = gauss.Model.from_xml_string(XML)
    d = gauss.Data(m)
    assert d.body("torso") is d.body("torso") is d.body(1)
    d.qpos[2] = 2.5
    gauss.forward(m, d)
    assert d.body("torso").xpos[2] == 2.5
    d.qpos[2] = 3.5
    gauss.forward(m, d)
    assert d.body("torso").xpos[2] == 3.5  # a view, not a copy taken at the first access
    d.joint("hip_left").qpos = 0.25
    assert d.qpos[7] == 0.25
    assert np.shares_memory(d.body("torso").xpos, d.xpos)
    np.testing.assert_allclose(m.joint("hip_right").range, np.radians([-40, 50]))
    m.body("thigh_left").mass = 7.0
    assert m.body_mass[2] == 7.0
    # another Data of the same model has its own views
    d2 = gauss.Data(m)
    assert d2.body("torso") is not d.body("torso")
    assert not np.shares_memory(d2.body("torso").xpos, d.xpos)


def test_dir_lists_every_field():
    m = gauss.Model.from_xml_string(XML)
    d = gauss.Data(m)
    dm, dd = set(dir(m)), set(dir(d))
    assert set(m.field_names()) <= dm and set(m.size_names()) <= dm
    assert set(d.field_names()) <= dd
    for name in ("efc_force", "efc_J", "efc_type", "efc_pos", "efc_aref", "efc_state", "qpos",
                 "contact", "ncon", "nefc", "time", "energy", "warning", "body", "joint"):
        assert name in dd, name
    gauss.forward(m, d)
    for name in dd:
        if name.startswith("efc_"):
            getattr(d, name)  # every listed name can be read


NAME_KINDS = """<mujoco model="every kind"><asset>
  <texture name="t" type="2d" builtin="checker" width="8" height="8"/><material name="ma"/>
  <mesh name="me" vertex="0 0 0 1 0 0 0 1 0 0 0 1"/><hfield name="h" nrow="2" ncol="2" size="1 1 1 1"/></asset>
  <worldbody><light name="l"/><camera name="c"/>
    <body name="b"><joint name="j"/><geom name="g" size=".1"/><site name="s"/><light name="l2"/></body>
    <body name="b2"><joint name="j2"/><geom name="g2" size=".1"/><geom size=".1"/><camera name="c2"/></body>
  </worldbody>
  <contact><pair name="p" geom1="g" geom2="g2"/><exclude name="x" body1="b" body2="b2"/></contact>
  <equality><joint name="e" joint1="j" joint2="j2"/></equality>
  <tendon><fixed name="te"><joint joint="j" coef="1"/></fixed></tendon>
  <actuator><motor name="a" joint="j"/></actuator><sensor><jointpos name="se" joint="j"/></sensor>
  <custom><numeric name="n" data="1"/><text name="tx" data="abc"/>
    <tuple name="tu"><element objtype="body" objname="b"/></tuple></custom>
  <keyframe><key name="k"/><key/></keyframe></mujoco>"""


@pytest.mark.parametrize("xml", [NAME_KINDS, XML], ids=["every kind", "default model name"])
def test_names_buffer_laid_out_like_mujoco(xml):
    # the model's name first (MJCF's default where none is given), then each kind's names in
    # mjModel's order, unnamed as empty strings: the buffer and every name_*adr as MuJoCo 3.3.7's,
    # and the model's name kept through MJCF written back
    mm, gm = mujoco.MjModel.from_xml_string(xml), gauss.Model.from_xml_string(xml)
    assert bytes(np.asarray(gm.names)) == bytes(mm.names)
    for field in [f for f in dir(mm) if f.startswith("name_") and f.endswith("adr") and hasattr(gm, f)]:
        np.testing.assert_array_equal(np.asarray(getattr(gm, field)), getattr(mm, field), err_msg=field)
    back = gauss.Model.from_xml_string(gm.to_xml())
    assert bytes(np.asarray(back.names)).split(b"\0")[0] == bytes(mm.names).split(b"\0")[0]
