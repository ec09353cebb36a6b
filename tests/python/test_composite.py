"""MJCF's <composite> (MuJoCo 3.3.7 keeps one type, cable) against MuJoCo: a chain of count - 1
bodies (or one per edge of `vertex`), each with its x axis along its edge (the first body's frame
from the first corner, the next ones carried along by the least rotation), ball joints (the first
one set by `initial`), a capsule, cylinder or box along the edge, the sites S_first and S_last,
exclusions between neighbours and the custom text "composite_<prefix>"; names as MJCF makes them
(B_first, B_<i>, B_last, J_..., G<i>, prefix first, replica suffixes last) so that references
resolve. Compared: sizes, names of every kind, every compiled field of test_compiled, qacc at
random states (Newton, tight tolerance) and a short trajectory; MuJoCo's own cable models
(model/plugin/elasticity: cable, belt, coil) load with the same arrays, their elasticity plugin
named in the load warnings; bad input gives errors naming the line and the element."""

import os

import mujoco
import numpy as np
import pytest

import gauss
import oracle
from test_compiled import compare_models

COMPOSED = os.path.join(oracle.MODELS_DIR, "mujoco", "composed")

KINDS = [(gauss.OBJ_BODY, "nbody"), (gauss.OBJ_JOINT, "njnt"), (gauss.OBJ_GEOM, "ngeom"),
         (gauss.OBJ_SITE, "nsite"), (gauss.OBJ_TENDON, "ntendon"), (gauss.OBJ_ACTUATOR, "nu"),
         (gauss.OBJ_SENSOR, "nsensor"), (gauss.OBJ_EQUALITY, "neq"),
         (gauss.OBJ_EXCLUDE, "nexclude"), (gauss.OBJ_TEXT, "ntext")]

# Newton with a tight tolerance, so that qacc compares to 1e-8 where contacts are active
OPTION = '<option solver="Newton" tolerance="1e-13" iterations="200" ls_iterations="100"/>'

MODELS = {
    # a straight cable hanging from a hinged arm, no joint on its first body; damping, armature,
    # stiffness and limits from <joint kind="main"> (range in degrees, the compiler's unit)
    "straight": f"""<mujoco>{OPTION}<worldbody><geom type="plane" size="2 2 .1"/>
  <body name="arm" pos="0 0 1"><joint name="swing" axis="0 1 0"/><geom type="capsule" size=".02"
    fromto="0 0 0 .2 0 0"/>
    <composite type="cable" curve="s" count="7 1 1" size=".6" offset=".2 0 0" initial="none">
      <joint kind="main" damping=".02" armature=".001" stiffness=".05" limited="true" range="0 40"/>
      <geom type="capsule" size=".01" rgba=".8 .2 .1 1" condim="1" density="500"/>
    </composite></body></worldbody>
  <sensor><framepos objtype="site" objname="S_last"/></sensor></mujoco>""",
    # a helix on the curve functions, turned by quat, a free first body, box geoms, site values
    "helix": f"""<mujoco>{OPTION}<worldbody><geom type="plane" size="2 2 .1"/>
  <composite type="cable" prefix="h" curve="cos(s) sin(s) s" count="9" size=".4 .1 1.5"
      offset=".1 .2 .5" quat="0.9238795325112867 0 0.3826834323650898 0" initial="free">
    <joint kind="main" damping=".05"/>
    <geom type="box" size=".01 .02 .005" mass=".01" friction=".7"/>
    <site size=".02" group="1" rgba="0 1 0 1"/>
  </composite></worldbody></mujoco>""",
    # given vertices inside a frame, and elements that name what the cable makes (capsules: deep
    # cylinder-cylinder contacts are where MuJoCo's general convex collision and gauss's part)
    "vertex": f"""<mujoco>{OPTION}<worldbody><geom type="plane" size="2 2 .1"/>
  <frame pos=".3 0 .8" euler="10 20 30">
    <composite type="cable" prefix="v" vertex="0 0 0  .1 0 .05  .2 .05 .05  .25 .12 0  .3 .1 -.08
        .28 .2 -.1" initial="ball">
      <joint kind="main" damping=".01" frictionloss=".001"/>
      <geom type="capsule" size=".012" solref=".01 1"/>
    </composite></frame>
  <body name="slider" pos=".9 0 .5"><joint type="slide" axis="1 0 0" damping=".1"/>
    <geom size=".03"/></body></worldbody>
  <equality><connect body1="vB_last" body2="slider" anchor=".02 0 0"/></equality>
  <contact><exclude body1="vB_last" body2="slider"/></contact>
  <tendon><spatial><site site="vS_first"/><site site="vS_last"/></spatial></tendon>
  <actuator><motor site="vS_last" gear="0 0 0 1 0 0"/><motor joint="vJ_2" gear="0 1 0"/></actuator>
  <sensor><ballquat joint="vJ_last"/></sensor></mujoco>""",
    # cylinders, contacts off (deep cylinder-cylinder contacts are where MuJoCo's general convex
    # collision and gauss's part, test_collision_convex)
    "cylinders": """<mujoco><option><flag contact="disable"/></option><worldbody>
  <composite type="cable" curve="s sin(s) 0" count="6" size=".5 .1 2" offset="0 0 1">
    <joint kind="main" damping=".01"/><geom type="cylinder" size=".015" group="2"/></composite>
  </worldbody></mujoco>""",
    # composites in replicas (each replica's names suffixed, the custom text made once)
    "replicated": f"""<mujoco>{OPTION}<worldbody><geom type="plane" size="2 2 .1"/>
  <replicate count="2" offset="0 .3 0">
    <composite type="cable" prefix="r" curve="s 0 s" count="5" size=".3" offset="0 0 .6"
        initial="free">
      <geom type="capsule" size=".01"/></composite>
  </replicate></worldbody>
  <contact><exclude body1="rB_first0" body2="rB_last1"/></contact></mujoco>""",
}


def names(m, objtype, n, is_gauss):
    if is_gauss:
        return [gauss.id2name(m, objtype, i) or None for i in range(n)]
    return [mujoco.mj_id2name(m, objtype, i) or None for i in range(n)]


def check_structure(gm, mm):
    errors = compare_models(gm, mm)
    assert not errors, "; ".join(errors)
    for objtype, size in KINDS:
        n = getattr(mm, size)
        assert getattr(gm, size) == n, size
        assert names(gm, objtype, n, True) == names(mm, objtype, n, False), size
    for f in ("exclude_signature", "text_size", "eq_obj1id", "eq_obj2id", "actuator_trnid",
              "wrap_objid", "sensor_objid", "site_group", "site_rgba", "jnt_group", "geom_rgba",
              "geom_group"):
        a, b = np.asarray(getattr(gm, f)).ravel(), np.asarray(getattr(mm, f)).ravel()
        np.testing.assert_allclose(a, b, atol=1e-12, err_msg=f)
    # the custom texts (MuJoCo gives bytes)
    assert bytes(np.asarray(gm.text_data).astype(np.uint8)) == bytes(mm.text_data)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_composite_like_mujoco(name):
    xml = MODELS[name]
    mm, gm = mujoco.MjModel.from_xml_string(xml), gauss.Model.from_xml_string(xml)
    assert not gm.load_warnings, gm.load_warnings
    check_structure(gm, mm)
    # qacc at random states (contacts among the links and with the floor, limits, the connect)
    rng = np.random.default_rng(7)
    md, gd = mujoco.MjData(mm), gauss.Data(gm)
    for _ in range(5):
        qpos, qvel = oracle.random_state(mm, rng, scale=0.5)
        md.qpos[:], md.qvel[:] = qpos, qvel
        gd.qpos[:], gd.qvel[:] = qpos, qvel
        md.ctrl[:] = gd.ctrl[:] = rng.normal(size=mm.nu) * 0.01
        mujoco.mj_forward(mm, md)
        gauss.forward(gm, gd)
        assert gd.ncon == md.ncon
        errors = []
        oracle.check_close(errors, "qacc", gd.qacc, md.qacc, 1e-8)
        assert not errors, errors
    # a short trajectory from rest
    md, gd = mujoco.MjData(mm), gauss.Data(gm)
    for _ in range(100):
        mujoco.mj_step(mm, md)
        gauss.step(gm, gd)
    np.testing.assert_allclose(gd.qpos, md.qpos, atol=1e-9)
    np.testing.assert_allclose(gd.sensordata, md.sensordata, atol=1e-9)


@pytest.mark.parametrize("name", ["cable", "belt", "coil"])
def test_mujoco_cable_models_load(name):
    """MuJoCo's model/plugin/elasticity models: the same bodies, joints, geoms, sites, names and
    exclusions; the elasticity plugin (a passive force MuJoCo adds) is named in the warnings."""
    path = os.path.join(COMPOSED, name + ".xml")
    mm, gm = mujoco.MjModel.from_xml_path(path), gauss.Model.from_xml_path(path)
    check_structure(gm, mm)
    warnings = "\n".join(gm.load_warnings)
    assert "<plugin>" in warnings and "not simulated" in warnings


@pytest.mark.parametrize("vertex", [
    "0 0 0 1 0 0 2 0 0 2 0 1 2 0 2",            # straight, then a right angle up
    "0 0 0 1 0 0 2 0 0 2 1 1 2 2 2",            # straight, then a right angle to (0 1 1)
    "0 0 0 0 1 0 0 2 0 0 2 1",                  # straight along y, then up
    "0 0 0 1 0 0 2 0 0 2.6 0 .8 3.2 .8 .8 3.2 1.8 1.8",  # straight, then general bends
    "0 0 0 1 0 0 1 1 0 1.6 1 .8 1.6 2 .8 1.6 2 1.8",     # a corner first: transported frames
])
def test_cable_frames_after_a_straight_start_like_mujoco(vertex):
    """After a straight start MJCF gives every body the first one's rule (the least rotation from
    the composite's x onto its edge, twisted where the edge is perpendicular to x), not the
    previous frame carried along: at a right-angle corner a 90 or 180 degree twist about the edge
    (gauss transported the frame before)."""
    xml = ('<mujoco><worldbody><composite type="cable" prefix="c" initial="none" vertex="%s">'
           '<geom type="capsule" size=".01"/></composite></worldbody></mujoco>' % vertex)
    gm, mm = gauss.Model.from_xml_string(xml), mujoco.MjModel.from_xml_string(xml)
    np.testing.assert_allclose(gm.body_pos, mm.body_pos, atol=1e-12)
    np.testing.assert_allclose(gm.body_quat, mm.body_quat, atol=1e-12)


def test_frames_follow_the_curve():
    """Each body's x axis runs along its edge to the next body (S_last at the end of the last
    edge), independently of MuJoCo: the vertices are where the chain puts its body origins."""
    vert = np.array([[0, 0, 0], [.1, 0, .05], [.2, .05, .05], [.25, .12, 0], [.3, .1, -.08]])
    xml = ('<mujoco><worldbody><composite type="cable" vertex="%s"><geom type="capsule" '
           'size=".01"/></composite></worldbody></mujoco>' % " ".join(map(str, vert.ravel())))
    gm = gauss.Model.from_xml_string(xml)
    gd = gauss.Data(gm)
    gauss.forward(gm, gd)
    ends = np.vstack([np.asarray(gd.xpos)[1:], np.asarray(gd.site_xpos)[-1]])
    np.testing.assert_allclose(ends, vert, atol=1e-7)  # vertices kept in single precision
    for i in range(1, gm.nbody):
        edge = vert[i] - vert[i - 1]
        np.testing.assert_allclose(np.asarray(gd.xmat)[i].reshape(3, 3)[:, 0],
                                   edge / np.linalg.norm(edge), atol=1e-7)


@pytest.mark.parametrize("body,elem,phrase,mujoco_rejects", [
    ('<composite type="cable" curve="s"><geom type="capsule" size=".01"/></composite>',
     "composite", "count", True),
    ('<composite type="bogus" count="4"><geom type="capsule" size=".01"/></composite>',
     "composite", "invalid keyword", True),
    ('<composite type="particle" count="4"><geom size=".01"/></composite>',
     "composite", 'use "replicate"', True),
    ('<composite type="grid" count="4 4 1"><geom size=".01"/></composite>',
     "composite", 'use "flex"', True),
    ('<composite count="4" curve="s"><geom type="capsule" size=".01"/></composite>',
     "composite", "type", True),
    ('<composite type="cable" count="4 2 1" curve="s"><geom type="capsule" size=".01"/>'
     '</composite>', "composite", "one-dimensional", True),
    ('<composite type="cable" count="0" curve="s"><geom type="capsule" size=".01"/></composite>',
     "composite", "positive counts", True),
    ('<composite type="cable" count="4" vertex="0 0 0 1 0 0"><geom type="capsule" size=".01"/>'
     '</composite>', "composite", "not both", True),
    ('<composite type="cable" count="4" curve="s"><geom type="sphere" size=".01"/></composite>',
     "composite", "capsule, cylinder or box", True),
    ('<composite type="cable" count="4" curve="s"/>', "composite", "<geom>", True),
    ('<composite type="cable" count="4" curve="t"><geom type="capsule" size=".01"/></composite>',
     "composite", "invalid shape", True),
    ('<composite type="cable" count="4" curve="s"><geom type="capsule" size=".01"/>'
     '<joint kind="main"/><joint kind="main"/></composite>', "composite", "multiple joints", True),
    ('<composite type="cable" count="4" curve="s" spacing="1"><geom type="capsule" size=".01"/>'
     '</composite>', "composite", "spacing", True),
    ('<composite type="cable" count="4" curve="s"><geom type="capsule" size=".01"/><pin/>'
     '</composite>', "pin", "not allowed", True),
    # MuJoCo 3.3.7's schema has no <frame> inside <composite> (a composite inside a frame is the
    # "vertex" model above)
    ('<composite type="cable" count="4" curve="s"><geom type="capsule" size=".01"/><frame/>'
     '</composite>', "frame", "not allowed", True),
])
def test_bad_composite_names_line_and_element(body, elem, phrase, mujoco_rejects):
    xml = f"<mujoco>\n<worldbody>\n{body}\n</worldbody>\n</mujoco>"
    oracle.assert_rejected(xml, ":3:", elem, phrase, mujoco_rejects)


def test_three_vertices_refused_as_mujoco_does():
    """MuJoCo 3.3.7 names the second body of the first exclusion B_1 even when the chain has two
    bodies (B_first, B_last), and refuses the model; so does gauss, naming the body."""
    xml = ('<mujoco><worldbody><composite type="cable" count="3" curve="s"><geom type="capsule" '
           'size=".01"/></composite></worldbody></mujoco>')
    with pytest.raises(ValueError):
        mujoco.MjModel.from_xml_string(xml)
    with pytest.raises(gauss.GaussError, match="B_1"):
        gauss.Model.from_xml_string(xml)


# the first 16 vertices of MuJoCo's model/plugin/elasticity/coil.xml: one and a half turns of a
# flat helix
COIL = np.array([[.1, 0, 0], [.0809017, .05877853, .001256637], [.0309017, .09510565, .002513274],
                 [-.0309017, .09510565, .003769911], [-.0809017, .05877853, .005026548],
                 [-.1, 0, .006283185], [-.0809017, -.05877853, .007539822],
                 [-.0309017, -.09510565, .008796459], [.0309017, -.09510565, .010053096],
                 [.0809017, -.05877853, .011309734], [.1, 0, .012566371],
                 [.0809017, .05877853, .01256637], [.0309017, .09510565, .02513274],
                 [-.0309017, .09510565, .03769911], [-.0809017, .05877853, .05026548],
                 [-.1, 0, .06283185]])


@pytest.mark.parametrize("jitter", [0, 1, 2, 3])
def test_bent_cable_quaternion_signs_like_mujoco(jitter):
    """Along a bent cable MJCF keeps each frame as a rotation matrix gives it back (w > 0 where the
    trace is positive, else the component of the largest diagonal term positive), so some bodies'
    quaternions have w < 0 (body_quat compared as stored, not up to sign; gauss made every one
    w > 0 before). jitter > 0 moves each vertex coordinate by up to 4 single-precision ulps (MJCF
    reads vertices in single precision; zeros stay, MJCF refuses denormals): the signs do not hang
    on a last-bit tie."""
    rng = np.random.default_rng(jitter)
    vert = COIL.astype(np.float32)
    if jitter:
        steps = rng.integers(-4, 5, vert.shape)
        for idx in np.ndindex(vert.shape):
            for _ in range(abs(steps[idx]) if vert[idx] else 0):
                vert[idx] = np.nextafter(vert[idx], np.float32(np.sign(steps[idx]) * np.inf))
    text = " ".join(repr(float(v)) for v in vert.ravel())
    xml = ('<mujoco><worldbody><composite type="cable" prefix="c" initial="free" vertex="%s">'
           '<geom type="capsule" size=".005"/></composite></worldbody></mujoco>' % text)
    gm, mm = gauss.Model.from_xml_string(xml), mujoco.MjModel.from_xml_string(xml)
    assert (np.asarray(mm.body_quat)[:, 0] < 0).any()  # the case this test is about
    np.testing.assert_allclose(gm.body_quat, mm.body_quat, atol=1e-9)
