"""compiler fusestatic against MuJoCo 3.3.7: bodies without joints merged into their parents (their
geoms, sites and children taking their place, their inertia added), bodies that other elements
name kept; sizes, names, every compiled field and the accelerations at random states. Cameras and
lights in fused bodies are checked against the unfused model (MuJoCo 3.3.7 crashes on them)."""

import mujoco
import numpy as np
import pytest

import gauss
import oracle
from test_compiled import compare_models
from test_mjcf_all import compare as compare_all

NAMED = {mujoco.mjtObj.mjOBJ_BODY: "nbody", mujoco.mjtObj.mjOBJ_GEOM: "ngeom",
         mujoco.mjtObj.mjOBJ_SITE: "nsite", mujoco.mjtObj.mjOBJ_JOINT: "njnt"}

HAND = {
    # a static chain under a hinge body: fused children replaced by theirs, in place; geoms of
    # fused bodies appended after the parent's own; a fromto capsule in a turned body; a static
    # child of the world fused into the world; a mocap body kept
    "chain": """
<mujoco><compiler fusestatic="true"/><worldbody>
 <body name="s0" pos="0 0 1"><geom name="g_s0" size=".1"/></body>
 <body name="a" pos="0 0 1" euler="0 0 30"><joint type="hinge"/><geom name="ga" size=".1" pos=".1 0 0"/>
  <body name="b" pos=".2 0 0" euler="10 0 0"><geom name="gb" type="box" size=".1 .2 .3"/><site name="sb"/>
    <body name="c" pos="0 .3 0"><joint name="jc"/><geom name="gc" size=".05"/></body>
    <body name="d" pos="0 .1 0" euler="0 40 20"><geom name="gd" type="capsule" fromto="0 0 0 .1 .2 .3" size=".05"/></body>
  </body>
  <geom name="ga2" size=".1" pos="-.1 0 0"/>
  <body name="e"><joint/><geom name="ge" size=".1"/></body>
 </body>
 <body name="mc" mocap="true"><geom size=".1" contype="0" conaffinity="0"/></body>
</worldbody></mujoco>""",
    # named by a sensor, an exclusion, a weld, a force sensor's site: kept; the rest fused
    "references": """
<mujoco><compiler fusestatic="true"/><worldbody>
 <body name="h" pos="1 0 0"><joint axis="0 1 0"/><geom size=".1"/></body>
 <body name="a"><freejoint/><geom size=".1"/>
  <body name="b" pos="0 0 .2"><geom size=".1"/><site name="s"/></body>
  <body name="c" pos="0 0 .4" euler="20 0 0"><geom type="box" size=".1 .05 .02" pos=".1 0 0"/><site name="s2"/></body>
  <body name="d" pos="0 .3 0"><geom size=".05"/></body>
  <body name="e" pos="0 -.3 0"><geom size=".05"/><body name="f" pos=".1 0 0"><geom size=".04"/></body></body>
  <body name="g" pos=".3 0 0"><geom size=".05"/></body>
 </body>
</worldbody>
<contact><exclude body1="d" body2="h"/></contact>
<equality><weld body1="e" body2="h" active="false"/></equality>
<sensor><subtreecom body="c"/><force site="s"/><accelerometer site="s2"/></sensor></mujoco>""",
    # explicit inertials, turned and shifted: the combined inertia; a massless static body
    "inertials": """
<mujoco><compiler fusestatic="true" angle="radian"/><worldbody>
 <body name="a" pos="0 0 1"><joint type="ball"/>
  <inertial pos=".1 0 0" quat="1 .2 0 .1" mass="2" diaginertia=".1 .2 .25"/>
  <body name="b" pos=".2 .1 0"><inertial pos="0 .1 0" quat="1 0 .3 0" mass="1" diaginertia=".01 .02 .025"/>
   <body name="c" pos="0 0 .3"><geom type="cylinder" size=".05 .1" density="300"/></body></body>
  <body name="empty" pos="0 1 0"/>
  <body name="k" pos="0 0 -.3"><joint type="slide" axis="0 0 1"/><geom type="ellipsoid" size=".1 .05 .08"/></body>
 </body>
</worldbody></mujoco>""",
}


def load_both(xml):
    return gauss.Model.from_xml_string(xml), mujoco.MjModel.from_xml_string(xml)


def assert_like_mujoco(gm, mm, label):
    errors = compare_models(gm, mm)
    errors += oracle.name_errors(gm, mm, NAMED)
    if not errors:
        errors, compared = compare_all(gm, mm)
        assert len(compared) > 50
    oracle.assert_no_errors(errors, label + ": ")
    assert not any("fusestatic" in w for w in gm.load_warnings)
    # the same accelerations at random states
    rng = np.random.default_rng(3)
    gd, md = gauss.Data(gm), mujoco.MjData(mm)
    for _ in range(3):
        qpos, qvel = oracle.random_state(mm, rng, scale=0.5)
        md.qpos[:] = gd.qpos[:] = qpos
        md.qvel[:] = gd.qvel[:] = qvel
        mujoco.mj_forward(mm, md)
        gauss.forward(gm, gd)
        assert oracle.rel_err(gd.qacc, md.qacc) < 1e-8, label


@pytest.mark.parametrize("name", sorted(HAND))
def test_fusestatic_like_mujoco(name):
    gm, mm = load_both(HAND[name])
    unfused = mujoco.MjModel.from_xml_string(HAND[name].replace('fusestatic="true"', ""))
    assert mm.nbody < unfused.nbody  # something was fused
    assert_like_mujoco(gm, mm, name)


# MuJoCo 3.3.7 finds a named body by the place it had when last looked at, and a place beyond the
# bodies left after some were fused counts as a failed reference: then named bodies stay (unnamed
# ones are not checked). gauss fuses the same bodies.
CHAIN = """<body name="a"><joint/><geom size=".1"/>
 <body name="b" pos="0 0 .2"><geom size=".1"/></body><body name="c" pos="0 0 .4"><geom size=".1"/></body>
 <body name="d" pos="0 .4 0"><geom size=".1"/></body></body>"""
TREE = """<body name="a"><joint/><geom size=".1"/>
 <body name="b" pos="0 0 .2"><geom size=".1"/><body name="b2"><geom size=".1"/></body><body name="b3"><geom size=".1"/></body></body>
 <body name="c" pos="0 0 .4"><geom size=".1"/><body name="c2"><geom size=".1"/></body></body></body>"""
W = '<body name="w" pos="1 0 0"><geom size=".1"/></body>'
PLACES = {
    "last body named": (CHAIN + W, "<sensor><subtreecom body='w'/></sensor>"),
    "last body named, c unnamed": (CHAIN.replace('name="c" ', "") + W, "<sensor><subtreecom body='w'/></sensor>"),
    "first body named": (W + CHAIN, "<sensor><subtreecom body='w'/></sensor>"),
    "inner body named": (CHAIN + W, "<sensor><subtreecom body='d'/></sensor>"),
    "last leaf named": (TREE, "<sensor><subtreecom body='c2'/></sensor>"),
    "middle leaf named": (TREE, "<sensor><subtreecom body='b2'/></sensor>"),
    "camera target": (CHAIN + W + '<camera mode="targetbody" target="w"/>', ""),
}


@pytest.mark.parametrize("name", sorted(PLACES))
def test_fusestatic_fuses_the_bodies_mujoco_fuses(name):
    tree, extra = PLACES[name]
    xml = f'<mujoco><compiler fusestatic="true"/><worldbody>{tree}</worldbody>{extra}</mujoco>'
    gm, mm = load_both(xml)
    oracle.assert_no_errors(oracle.name_errors(gm, mm, NAMED), name + ": ")


def test_fusestatic_keeps_referenced_bodies():
    gm, mm = load_both(HAND["references"])
    names = [gauss.id2name(gm, gauss.OBJ_BODY, i) for i in range(gm.nbody)]
    # b holds the force sensor's site, c the subtreecom's body, d and h the exclusion, e the weld
    assert names == ["world", "h", "a", "b", "c", "d", "e"]


@pytest.mark.parametrize("name", ["gymnasium/ant", "gymnasium/pusher", "gymnasium/humanoid"])
def test_fusestatic_corpus_like_mujoco(name):
    xml, _ = oracle.prepare_xml(dict(oracle.corpus_models())[name])
    head, rest = xml.split(">", 1)
    xml = head + '><compiler fusestatic="true"/>' + rest
    gm, mm = load_both(xml)
    assert mm.nbody < mujoco.MjModel.from_xml_string(xml.replace('fusestatic="true"', "")).nbody
    assert_like_mujoco(gm, mm, name)


def test_fusestatic_cameras_and_lights_keep_their_place():
    # MuJoCo 3.3.7 crashes compiling a camera or light in a fused body; the truth here is the
    # unfused model: the same world poses at a random configuration
    xml = """
<mujoco><compiler fusestatic="%s"/><worldbody>
 <body pos="0 0 1" euler="0 0 30"><joint type="ball"/><geom size=".1"/>
  <body pos=".2 0 0" euler="10 20 0"><geom size=".05"/>
   <camera name="cam" pos=".1 .2 .3" euler="0 20 40"/>
   <light name="lit" pos="0 .1 1" dir="1 0 -1"/></body></body>
</worldbody></mujoco>"""
    fused, plain = gauss.Model.from_xml_string(xml % "true"), gauss.Model.from_xml_string(xml % "false")
    assert fused.nbody == 2 and plain.nbody == 3
    rng = np.random.default_rng(4)
    q = oracle.random_unit_quat(rng)
    out = []
    for m in (fused, plain):
        d = gauss.Data(m)
        d.qpos[:] = q
        gauss.forward(m, d)
        poses = []
        for pos, bodyid, vec in ((m.cam_pos[0], m.cam_bodyid[0], oracle.quat2mat(m.cam_quat[0])),
                                 (m.light_pos[0], m.light_bodyid[0], m.light_dir[0])):
            R = d.xmat[bodyid].reshape(3, 3)
            poses += [d.xpos[bodyid] + R @ pos, R @ vec]
        out.append(poses)
    for a, b in zip(*out):
        np.testing.assert_allclose(a, b, atol=1e-12)
