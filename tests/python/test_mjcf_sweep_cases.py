"""MJCF semantics that MuJoCo's own model and test files use and gauss once refused or ignored
(found by tools/mujoco_sweep.py): a joint's springdamper, replicate's prefix, a tendon and an
actuator replicated along a site of the same name, primitives fitted to a mesh (fitscale,
compiler fitaabb), and default classes made before a later top-level <default> (Gymnasium-
Robotics' Adroit hammer). Each hand-written model is compared with MuJoCo 3.3.7: the compiled arrays the
feature sets, to 1e-9, and qacc at random states, to 1e-8."""

import mujoco
import numpy as np
import pytest

import gauss
import oracle


def load_both(xml):
    return mujoco.MjModel.from_xml_string(xml), gauss.Model.from_xml_string(xml)


def assert_fields(gm, mm, fields, tol=1e-9):
    errors = []
    for f in fields:
        a = np.asarray(getattr(gm, f), dtype=float).reshape(-1)
        b = np.asarray(getattr(mm, f), dtype=float).reshape(-1)
        if f.endswith("_quat"):
            a = oracle.align_quats(a, b).reshape(-1)
        if a.shape != b.shape:
            errors.append(f"{f}: shape {a.shape} vs {b.shape}")
        elif a.size and oracle.rel_err(a, b) > tol:
            errors.append(f"{f}: relative error {oracle.rel_err(a, b):.2e}")
    oracle.assert_no_errors(errors)


def assert_qacc(gm, mm, nstates=3, seed=0, tol=1e-8):
    """qacc of both engines at random states (Newton, tight tolerance: the solvers converge)"""
    for m in (mm, gm):
        m.opt.solver = 2
        m.opt.tolerance = 1e-12
        m.opt.iterations = 200
    md, gd = mujoco.MjData(mm), gauss.Data(gm)
    rng = np.random.default_rng(seed)
    for _ in range(nstates):
        qpos, qvel = oracle.random_state(mm, rng, scale=0.3)
        ctrl = rng.uniform(-1, 1, mm.nu)
        for d in (md, gd):
            d.qpos[:] = qpos
            d.qvel[:] = qvel
            if mm.nu:
                d.ctrl[:] = ctrl
        mujoco.mj_forward(mm, md)
        gauss.forward(gm, gd)
        assert oracle.rel_err(gd.qacc, md.qacc) < tol


# ---- springdamper: stiffness k = M/(tc z)^2 and damping b = 2M/tc from the inertia at qpos0 ----

SPRINGDAMPER = """
<mujoco>
  <default><default class="soft"><joint springdamper="0.3 0.7"/></default></default>
  <worldbody>
    <body pos="0 0 1">
      <joint name="a" axis="0 1 0" springdamper="0.5 0.3" armature="0.2" stiffness="7" damping="3"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.05"/>
      <body pos="0.3 0 0">
        <joint name="b" type="slide" axis="1 0 0" class="soft" springref="0.1"/>
        <geom size="0.1" mass="2"/>
        <body pos="0.1 0 0">
          <joint type="ball" springdamper="0.2 2"/>
          <geom type="box" size="0.1 0.05 0.02" pos="0.1 0 0" mass="2"/>
        </body>
      </body>
    </body>
    <body pos="1 0 1"><joint type="free" springdamper="0.4 0.9"/><geom type="box" size="0.1 0.2 0.3"/></body>
  </worldbody>
</mujoco>"""


def test_springdamper_sets_stiffness_and_damping_as_mujoco():
    mm, gm = load_both(SPRINGDAMPER)
    # the joints given one replace stiffness 7 and damping 3: a non-trivial override
    assert mm.jnt_stiffness[0] != 7 and mm.dof_damping[0] != 3
    assert gm.load_warnings == []
    assert_fields(gm, mm, ["jnt_stiffness", "dof_damping", "qpos_spring", "dof_invweight0"])
    assert_qacc(gm, mm)


@pytest.mark.parametrize("value", ["0 1", "1 0", "-1 1"])
def test_springdamper_not_positive_is_refused(value):
    xml = (f'<mujoco><worldbody><body><joint springdamper="{value}"/><geom size=".1"/></body>'
           '</worldbody></mujoco>')
    oracle.assert_rejected(xml, ":1:", "joint", "springdamper", mujoco_rejects=True)


# ---- replicate: prefix names nothing; references shared by several kinds replicate once ----

def test_replicate_prefix_is_accepted_and_names_as_mujoco():
    xml = """
<mujoco><worldbody>
  <replicate count="2" offset=".3 0 0" prefix="A">
    <replicate count="3" offset="0 .3 0" sep="_" prefix="P">
      <body name="b" pos="0 0 1"><freejoint name="j"/><geom name="g" size=".1"/></body>
    </replicate>
  </replicate>
  <replicate count="2" offset=".3 0 0" prefix="Q" sep="-">
    <body name="c" pos="0 0 2"><joint name="h" axis="1 0 0"/><geom size=".1"/></body>
  </replicate>
</worldbody>
<tendon><fixed name="t"><joint joint="h" coef="1"/></fixed></tendon>
</mujoco>"""
    mm, gm = load_both(xml)
    for kind, n in (("BODY", mm.nbody), ("GEOM", mm.ngeom), ("JOINT", mm.njnt), ("TENDON", mm.ntendon)):
        t = int(getattr(mujoco.mjtObj, "mjOBJ_" + kind))
        assert oracle.object_names(gm, t, n, True) == oracle.object_names(mm, t, n, False)
    assert_fields(gm, mm, ["body_pos", "tendon_num", "wrap_objid"])
    assert_qacc(gm, mm)


def test_replicate_prefixes_do_not_separate_names():
    # MuJoCo 3.3.7 does not apply the prefix: the same name under two prefixes repeats
    xml = """
<mujoco><worldbody>
  <replicate count="2" offset=".2 0 0" prefix="A"><body name="b"><freejoint/><geom size=".1"/></body></replicate>
  <replicate count="2" offset=".2 0 0" prefix="B"><body name="b"><freejoint/><geom size=".1"/></body></replicate>
</worldbody></mujoco>"""
    oracle.assert_rejected(xml, ":", "body", "repeated name", mujoco_rejects=True)


def test_tendon_and_actuator_replicated_along_a_site_of_their_name():
    # MuJoCo's test/user/testdata/lengthrange.xml pattern: site "b" in a replicate, tendon "b"
    # through it, actuator "b" on tendon "b": one tendon and one actuator per replica
    xml = """
<mujoco>
  <compiler><lengthrange mode="all"/></compiler>
  <worldbody>
    <site name="a" size=".02"/>
    <replicate offset="0 .1 0" count="3">
      <body pos="1 0 1">
        <joint axis="0 -1 0" range="0 90"/>
        <geom type="capsule" size=".02" fromto="0 0 0 0 0 -1"/>
        <site name="b" pos="0 0 -1"/>
      </body>
    </replicate>
  </worldbody>
  <tendon><spatial name="b"><site site="a"/><site site="b"/></spatial></tendon>
  <actuator><position name="b" tendon="b" ctrlrange="0 3" kp="100" dampratio="1"/></actuator>
</mujoco>"""
    mm, gm = load_both(xml)
    assert (gm.ntendon, gm.nu) == (mm.ntendon, mm.nu) == (3, 3)
    t = int(mujoco.mjtObj.mjOBJ_ACTUATOR)
    assert oracle.object_names(gm, t, 3, True) == oracle.object_names(mm, t, 3, False) == ["b0", "b1", "b2"]
    assert_fields(gm, mm, ["actuator_trnid", "wrap_objid", "actuator_lengthrange", "actuator_biasprm",
                           "tendon_length0"], tol=1e-8)
    assert_qacc(gm, mm)


def test_reference_follows_the_first_replicate_holding_its_target():
    # site "s" is made by two separate replicates: the sensor naming it is replicated along the
    # first one only (6 sensors on its 6 sites), as MuJoCo does
    xml = """
<mujoco><worldbody>
  <replicate count="2" offset=".2 0 0">
    <replicate count="3" offset="0 .2 0" sep="_">
      <body pos="0 0 1"><freejoint/><geom size=".1"/><site name="s"/></body>
    </replicate>
  </replicate>
  <replicate count="2" offset=".2 0 0" sep="-">
    <body pos="0 0 2"><joint axis="1 0 0"/><geom size=".1"/><site name="s"/></body>
  </replicate>
</worldbody>
<sensor><framepos name="p" objtype="site" objname="s"/></sensor>
</mujoco>"""
    mm, gm = load_both(xml)
    assert gm.nsensor == mm.nsensor == 6
    t = int(mujoco.mjtObj.mjOBJ_SENSOR)
    assert oracle.object_names(gm, t, 6, True) == oracle.object_names(mm, t, 6, False)
    assert_fields(gm, mm, ["sensor_objid", "sensor_adr"])


# ---- primitives fitted to a mesh ----

# a skew, asymmetric mesh: its inertia box, bounding box and frame all differ from the identity
FIT_VERTS = "0 0 0  1 0 0  0 2 0  0 0 3  1 2 0  1 0 3  0 2 3  1.3 2.2 3.1  0.5 0.1 -0.4"


def fit_xml(aabb, scale):
    types = ["sphere", "capsule", "cylinder", "ellipsoid", "box"]
    geoms = "".join(f'<geom type="{t}" mesh="m" fitscale="{scale}" pos="0.1 0.2 0.3" euler="10 20 30"/>'
                    for t in types)
    return f"""
<mujoco>
  <compiler fitaabb="{aabb}"/>
  <default><default class="fit"><geom type="box" mesh="m" fitscale="0.7"/></default></default>
  <asset><mesh name="m" vertex="{FIT_VERTS}"/></asset>
  <worldbody>
    <geom type="plane" size="5 5 .1"/>
    <body pos="0 0 4"><freejoint/>{geoms}</body>
    <body pos="4 0 4"><freejoint/><geom class="fit"/><geom mesh="m" pos="0 0 1"/></body>
  </worldbody>
</mujoco>"""


@pytest.mark.parametrize("aabb", ["false", "true"])
@pytest.mark.parametrize("scale", [1, 1.5])
def test_primitives_fitted_to_a_mesh_as_mujoco(aabb, scale):
    mm, gm = load_both(fit_xml(aabb, scale))
    assert gm.load_warnings == []
    assert list(gm.geom_type) == list(mm.geom_type)
    assert_fields(gm, mm, ["geom_size", "geom_pos", "geom_quat", "geom_rbound", "geom_dataid",
                           "body_mass", "body_ipos", "body_inertia", "body_subtreemass"])
    assert_qacc(gm, mm, nstates=2)


def test_fitting_a_plane_to_a_mesh_is_refused():
    xml = ('<mujoco><asset><mesh name="m" vertex="0 0 0 1 0 0 0 1 0 0 0 1"/></asset>'
           '<worldbody><geom type="plane" size="1 1 1" mesh="m"/></worldbody></mujoco>')
    oracle.assert_rejected(xml, ":1:", "geom", "fitted to a mesh", mujoco_rejects=True)


# ---- slide bodies hanging on the world through a static body; free bodies in fused bodies ----

SLIDERS = """<mujoco><worldbody>
  <body name="b" pos="1 2 3" euler="10 20 30"><geom size=".2" contype="0" conaffinity="0" group="1"/>
    <body name="c" pos="1 0 0" euler="5 6 7"><inertial pos="0 0 0" mass="3" diaginertia="1 1 1"/>
      <joint type="slide" axis="1 0 0" armature=".5"/><joint type="slide" axis="0 1 0"/></body>
    <body><body name="e" pos="0 1 0"><inertial pos="0 0 0" mass="2" diaginertia="1 1 1"/>
      <joint type="slide" axis="0 0 1"/></body></body></body>
  <body name="d"><inertial pos="0 0 0" mass="3" diaginertia="1 1 1"/><joint type="slide" axis="1 0 0"/></body>
</worldbody></mujoco>"""


def test_slide_bodies_in_static_bodies_weights_as_mujoco():
    # MJCF takes 1/mass as the weights of a slide-only body in the world or in a static body of
    # the world (c, d), not one static body deeper (e)
    mm, gm = load_both(SLIDERS)
    assert_fields(gm, mm, ["body_invweight0", "dof_invweight0"])
    np.testing.assert_array_equal(gm.body_slider, mm.body_simple == 2)


def test_free_body_in_a_fused_static_body_as_mujoco():
    # with fusestatic the static parent goes and the free body is the world's, as MJCF allows;
    # without it (or when the parent is named) the free joint is refused by both
    xml = """<mujoco><compiler fusestatic="{fuse}"/><worldbody><body name="b" pos="0 0 1" euler="0 0 30">
      <geom size=".1"/><body name="c" pos="1 0 0"><freejoint/><geom size=".1" pos=".1 0 0"/></body></body>
      </worldbody>{sensor}</mujoco>"""
    mm, gm = load_both(xml.format(fuse="true", sensor=""))
    assert gm.nbody == mm.nbody == 2
    assert_fields(gm, mm, ["body_pos", "body_quat", "body_mass", "body_ipos", "geom_pos", "qpos0"])
    for fuse, sensor in (("false", ""), ("true", '<sensor><framepos objtype="body" objname="b"/></sensor>')):
        with pytest.raises(ValueError, match="free joint"):
            mujoco.MjModel.from_xml_string(xml.format(fuse=fuse, sensor=sensor))
        with pytest.raises(gauss.GaussError, match="free joint"):
            gauss.Model.from_xml_string(xml.format(fuse=fuse, sensor=sensor))


# ---- a default class is a copy of its parent when it is made ----

DEFAULT_ORDER = {
    # Gymnasium-Robotics' adroit_hammer.xml: its class "board" comes before the include whose
    # top-level <default> sets the hand's geom friction and margin; the board keeps MJCF's own
    # friction (1, 0.005, 0.0001) and margin 0 in MuJoCo (gauss gave it the later values)
    "a later top-level default": """
      <default><default class="a"><geom type="box"/><motor gear="3"/>
        <default class="b"><joint damping="2"/></default></default></default>
      <default><geom friction="1 0.5 0.01" margin="0.002"/><joint armature="0.3"/>
        <motor ctrllimited="true" ctrlrange="-2 2"/><default class="c"/></default>""",
    # within one <default>, its own values reach the classes inside it wherever they are written
    "own values after the class": """
      <default><default class="a"><geom type="box"/><motor gear="3"/>
        <default class="b"/></default>
        <geom friction="1 0.5 0.01" margin="0.002"/><joint armature="0.3"/>
        <motor ctrllimited="true" ctrlrange="-2 2"/><default class="c"/></default>""",
}


@pytest.mark.parametrize("case", list(DEFAULT_ORDER))
def test_default_class_copies_its_parent_when_made(case):
    classes = ["", "a", "b", "c"]
    childclass = [f' childclass="{c}"' if c else "" for c in classes]
    cls = [f' class="{c}"' if c else "" for c in classes]
    body = "".join(f"""<body pos="{i} 0 1"{childclass[i]}><joint name="j{i}"/>
        <geom size=".1 .1 .1" type="box"/></body>""" for i in range(4))
    acts = "".join(f'<motor joint="j{i}"{cls[i]}/>' for i in range(4))
    xml = f"<mujoco>{DEFAULT_ORDER[case]}<worldbody>{body}</worldbody><actuator>{acts}</actuator></mujoco>"
    mm, gm = load_both(xml)
    assert_fields(gm, mm, ["geom_friction", "geom_margin", "dof_armature", "dof_damping",
                           "actuator_gear", "actuator_ctrlrange", "actuator_ctrllimited"])
    if case == "a later top-level default":  # the case does what it says, in MuJoCo
        assert mm.geom_friction[1][1] == 0.005 and mm.geom_friction[3][1] == 0.5
    assert_qacc(gm, mm)


def test_bodies_outside_worldbody_are_left_out_as_mujoco():
    """a file of bodies meant for an <include> inside <worldbody> (Gymnasium-Robotics'
    hand/robot.xml), loaded on its own: MuJoCo accepts <body> and <frame> directly in <mujoco> and
    leaves them out (an empty model); gauss does the same and names them in the load warnings.
    Other elements there stay errors in both."""
    xml = """<mujoco><body name="b"><joint/><geom size=".1"/></body>
      <frame><body name="c"><geom size=".1"/></body></frame><worldbody><geom size=".2"/></worldbody></mujoco>"""
    mm, gm = load_both(xml)
    assert (gm.nbody, gm.ngeom, gm.njnt) == (mm.nbody, mm.ngeom, mm.njnt) == (1, 1, 0)
    assert len(gm.load_warnings) == 2 and all("not part of the model" in w for w in gm.load_warnings)
    for el in ('<geom size=".1"/>', "<joint/>"):
        with pytest.raises(Exception):
            mujoco.MjModel.from_xml_string(f"<mujoco>{el}</mujoco>")
        with pytest.raises(gauss.GaussError, match="not allowed in <mujoco>"):
            gauss.Model.from_xml_string(f"<mujoco>{el}</mujoco>")


def test_nested_include_found_from_the_main_file_first(tmp_path):
    """MJCF documents an include's file as relative to the main file's directory; MuJoCo 3.3.7
    looks there first and then beside the including file. MyoSim's torso (torso/assets/) includes
    '../../myo_sim/head/...', which only the main file's directory resolves; gauss looked beside
    the including file only."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "main.xml").write_text(
        '<mujoco><worldbody><include file="sub/a.xml"/></worldbody></mujoco>')
    (tmp_path / "sub" / "a.xml").write_text('<mujoco><include file="b.xml"/></mujoco>')
    body = '<mujoco><body name="{}"><geom size=".1"/></body></mujoco>'
    (tmp_path / "sub" / "b.xml").write_text(body.format("beside_the_includer"))
    for expect in ("from_the_main_file", "beside_the_includer"):
        if expect == "from_the_main_file":
            (tmp_path / "b.xml").write_text(body.format(expect))
        else:
            (tmp_path / "b.xml").unlink()
        path = str(tmp_path / "main.xml")
        mm, gm = mujoco.MjModel.from_xml_path(path), gauss.Model.from_xml_path(path)
        assert mm.body(1).name == gm.body(1).name == expect


def test_attributes_with_no_space_between_them():
    """name="a"type="box": malformed XML that MJCF's parser reads as two attributes (a file of
    MyoSuite's exoskeleton elbow has it): read apart, with a warning naming the line; quotes in
    comments and in values are left alone, and the lines of later messages do not move"""
    xml = """<mujoco>
  <!-- not markup: a="1"b="2" -->
  <default><default class="c"><geom rgba="1 0 0 1"/></default></default>
  <worldbody>
    <body name="b"><freejoint/>
      <geom name="a"type="box" size=".1 .2 .3"mass="2"/>
      <geom name='q"'class="c"type="capsule" size=".05 .1" pos="0 0 .4"/>
      <site name="s"pos="0 0 1"/>
    </body>
  </worldbody>
</mujoco>"""
    mm, gm = load_both(xml)
    assert_fields(gm, mm, ["geom_type", "geom_size", "geom_rgba", "geom_pos", "body_mass", "site_pos"])
    assert list(gm.geom_type) == [6, 3]
    glued = [w for w in gm.load_warnings if "no space between them" in w]
    assert len(glued) == 1 and ":6:" in glued[0] and "(5 in the file)" in glued[0], gm.load_warnings
    bad = xml.replace('<site name="s"pos="0 0 1"/>', '<site name="s"pos="0 0 x"/>')
    with pytest.raises(gauss.GaussError) as e:
        gauss.Model.from_xml_string(bad)
    assert ":8:" in str(e.value) and "malformed number" in str(e.value), str(e.value)
