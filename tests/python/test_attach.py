"""MJCF composition by models (<model> in <asset>, <attach> in bodies, frames and replicates)
against MuJoCo 3.3.7: sub-models with their own compiler settings (angle unit, euler sequence,
meshdir, autolimits), default classes and assets; a body or the world body's contents attached
with a prefix; the tendons, actuators, sensors, equalities, pairs and exclusions that refer only
to the attached part; keyframes; models inside models; a composing file included. Compared: the
sizes, the names of every kind, every compiled array both engines have, and 50 steps of motion;
MuJoCo's 22- and 100-humanoid benchmarks (their sizes, arrays and qacc at random states); bad
input gives errors naming the file, line and element."""

import os
import warnings

import mujoco
import numpy as np
import pytest

import gauss
import oracle

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HUMANOIDS = os.path.join(ROOT, "tests", "models", "mujoco", "humanoid")

KINDS = [(gauss.OBJ_BODY, "nbody"), (gauss.OBJ_JOINT, "njnt"), (gauss.OBJ_GEOM, "ngeom"),
         (gauss.OBJ_SITE, "nsite"), (gauss.OBJ_CAMERA, "ncam"), (gauss.OBJ_LIGHT, "nlight"),
         (gauss.OBJ_TENDON, "ntendon"), (gauss.OBJ_ACTUATOR, "nu"), (gauss.OBJ_SENSOR, "nsensor"),
         (gauss.OBJ_EQUALITY, "neq"), (gauss.OBJ_PAIR, "npair"), (gauss.OBJ_EXCLUDE, "nexclude"),
         (gauss.OBJ_KEY, "nkey"), (gauss.OBJ_MESH, "nmesh"), (gauss.OBJ_TEXTURE, "ntex"),
         (gauss.OBJ_MATERIAL, "nmat")]

# arrays not compared: where names are laid out in the name buffer (gauss does not store the model
# name there; names themselves are compared), sizes of the arena and of scratch that each engine
# chooses, and the meshes' adjacency graphs, which MuJoCo 3.3.7 leaves out (graphadr -1) for the
# second and later copies of a sub-model's mesh (the graph only speeds up its support searches),
# and so those copies' polygons (MuJoCo then makes them from the mesh's triangles, gauss from the
# hull it keeps: the same faces from another starting corner)
SKIP = ("name_", "names", "nnames", "nconmax", "narena", "nJmom", "mesh_graph", "nmeshgraph", "mesh_poly",
        "nmeshpoly")


def compiled_errors(gm, mm, tol=1e-9):
    """every numeric array of the gauss model that MuJoCo's model has under the same name"""
    errors = []
    for name in sorted(dir(gm)):
        if name.startswith("_") or name.startswith(SKIP) or not hasattr(mm, name):
            continue
        try:
            a, b = getattr(gm, name), getattr(mm, name)
        except Exception:  # noqa: BLE001 (a property that needs data)
            continue
        if callable(a) or callable(b):
            continue
        with warnings.catch_warnings():  # ctypes views of some scalar fields: numpy guesses
            warnings.simplefilter("ignore", RuntimeWarning)
            a, b = np.asarray(a), np.asarray(b)
        if a.dtype.kind not in "fiub" or b.dtype.kind not in "fiub":
            continue
        if a.size != b.size:
            errors.append(f"{name}: shape {a.shape} vs {b.shape}")
            continue
        if not a.size:
            continue
        a, b = a.reshape(-1).astype(float), b.reshape(-1).astype(float)
        d = np.where(np.isnan(a) & np.isnan(b), 0.0, np.abs(a - b))
        if d.max() > tol * max(1.0, np.abs(b[np.isfinite(b)]).max(initial=0)):
            i = int(d.argmax())
            errors.append(f"{name}[{i}]: gauss {a[i]!r} mujoco {b[i]!r}")
    return errors


def names(m, is_gauss):
    out = {}
    for objtype, size in KINDS:
        n = getattr(m, size)
        if is_gauss:
            out[size] = [gauss.id2name(m, objtype, i) or None for i in range(n)]
        else:
            out[size] = [mujoco.mj_id2name(m, objtype, i) or None for i in range(n)]
    return out


def assert_compiled_alike(gm, mm):
    """the compiled arrays (compiled_errors) and every kind's names equal MuJoCo's"""
    errors = compiled_errors(gm, mm)
    assert not errors, "; ".join(errors)
    want, got = names(mm, False), names(gm, True)
    for _, size in KINDS:
        assert got[size] == want[size], size


CHILD = """<mujoco model="child">
  <compiler angle="radian" eulerseq="zyx" autolimits="true"/>
  <option timestep="0.01" gravity="0 0 -1"/>
  <default><joint damping="0.5"/><default class="cc"><geom rgba="1 0 0 1" density="300"/></default></default>
  <asset><material name="red" rgba="1 0 0 1"/><material name="unused" rgba="0 1 0 1"/></asset>
  <worldbody>
    <body name="other" pos="0 .6 0"><joint name="oj"/><geom size=".1"/></body>
    <body name="arm" pos="0 0 1" euler="1.5707963 0.2 0.1">
      <joint name="j" range="-1 1" ref=".1"/>
      <geom name="g" class="cc" type="capsule" fromto="0 0 0 .3 0 0" size=".05" material="red"/>
      <site name="s" pos=".3 0 0"/>
      <camera name="eye" pos="0 0 .2" euler="0 .3 0"/>
      <body name="sub" pos=".3 0 0"><joint name="j2" axis="0 1 0" range="-.5 .7"/><geom size=".05"/>
        <site name="s2"/></body>
    </body>
  </worldbody>
  <tendon><fixed name="t"><joint joint="j" coef="1"/><joint joint="j2" coef="1"/></fixed>
    <fixed name="out"><joint joint="oj" coef="1"/></fixed>
    <spatial name="cord"><site site="s"/><site site="s2"/></spatial></tendon>
  <actuator><motor name="m" joint="j"/><motor name="mo" tendon="t"/><motor name="mout" joint="oj"/>
    <position name="p" joint="j2" kp="3"/></actuator>
  <sensor><jointpos name="jp" joint="j"/><framepos name="fp" objtype="site" objname="s"/>
    <actuatorfrc name="af" actuator="m"/><jointpos name="ojp" joint="oj"/><tendonpos name="tp" tendon="t"/></sensor>
  <equality><joint name="e" joint1="j2" joint2="j" polycoef="0 .5 0 0 0"/><joint name="eo" joint1="oj"/></equality>
  <contact><exclude body1="arm" body2="sub"/><exclude body1="other" body2="arm"/></contact>
  <keyframe><key name="home" qpos="0.3 0.1 0.2" qvel="0 1 2" ctrl=".1 .2 .3 .4" time="2"/></keyframe>
</mujoco>"""

# a sub-model of its own with a mesh in a directory of its own (meshdir relative to its file)
ARM = """<mujoco model="arm">
  <compiler angle="radian" eulerseq="zyx" meshdir="meshes" autolimits="true"/>
  <default><default class="body"><joint damping="2" armature=".1"/><geom rgba="0 1 0 1" density="500"/></default></default>
  <asset><mesh name="box" file="box.obj"/><texture name="t" type="2d" builtin="checker" width="8" height="8"/>
    <material name="m" texture="t"/></asset>
  <worldbody>
    <geom name="ground" type="box" size=".3 .3 .01" pos="0 0 -.2"/>
    <geom name="stick" type="capsule" fromto="0 0 0 .2 .1 0" size=".02"/>
    <site name="anchor" pos="0 .1 0"/>
    <camera name="cam" pos="1 0 0" euler="0 1.2 0.3"/>
    <light name="lamp" pos="0 0 1" dir="0 .2 -1"/>
    <body name="base" pos="0 0 .1" euler="0.3 0.2 0.1" childclass="body">
      <joint name="yaw" axis="0 0 1" range="-1 1"/>
      <geom name="basegeom" type="mesh" mesh="box" material="m"/>
      <body name="link" pos=".1 0 0" quat="0.9 0.1 0.2 0.3">
        <joint name="pitch" axis="0 1 0" range="-2 0.5" ref="0.2" springref="0.1" stiffness="1"/>
        <joint name="ball" type="ball" range="0 1"/>
        <geom name="linkgeom" type="capsule" fromto="0 0 0 .2 0 0" size=".02"/>
        <site name="tip" pos=".2 0 0"/>
        <body name="slider" pos=".2 0 0"><joint name="slide" type="slide" axis="1 0 0" range="0 .1"/>
          <geom name="stop" type="box" size=".02 .02 .02" pos="0 0 .05"/><site name="end"/></body>
      </body>
    </body>
  </worldbody>
  <tendon><spatial name="cable"><site site="anchor"/><site site="tip"/></spatial>
    <fixed name="couple"><joint joint="yaw" coef="1"/><joint joint="pitch" coef="-.5"/></fixed></tendon>
  <actuator><motor name="yawm" joint="yaw" ctrlrange="-1 1"/><position name="pitchp" joint="pitch" kp="5"/>
    <motor name="tm" tendon="couple"/><general name="filt" joint="slide" dyntype="filter" dynprm=".1"/></actuator>
  <sensor><jointpos name="yawpos" joint="yaw"/><actuatorfrc name="yawf" actuator="yawm"/>
    <framepos name="tippos" objtype="site" objname="tip"/><tendonpos name="couplepos" tendon="couple"/>
    <touch name="touchend" site="end"/></sensor>
  <equality><joint name="lock" joint1="slide" polycoef=".05 0 0 0 0"/></equality>
  <contact><exclude body1="base" body2="slider"/><pair geom1="linkgeom" geom2="stop"/></contact>
  <keyframe><key name="pose" qpos=".1 .2 1 0 0 0 .05" qvel="1 2 0 0 0 3" ctrl=".5 .1 .2 .3" act=".4" time="1.5"/>
    <key name="bare" time="2"/></keyframe>
</mujoco>"""

# a box of three different sides (a unique principal frame), off its origin
BOX_OBJ = "".join(f"v {x * .1 + .01:g} {y * .06:g} {z * .03:g}\n"
                  for x in (0, 1) for y in (0, 1) for z in (0, 1)) + "".join(
    f"f {a} {b} {c}\nf {a} {c} {d}\n"
    for a, b, c, d in [(1, 3, 4, 2), (5, 6, 8, 7), (1, 2, 6, 5), (3, 7, 8, 4), (1, 5, 7, 3), (2, 4, 8, 6)])

# mocap bodies and a key that moves them
MOCAP = """<mujoco><worldbody>
  <body name="m1" mocap="true" pos="1 0 0"><geom size=".1" contype="0" conaffinity="0"/></body>
  <body name="free" pos="0 0 1"><freejoint/><geom size=".1"/></body>
  <body name="m2" mocap="true" pos="2 0 0" quat="0 1 0 0"><geom size=".1" contype="0" conaffinity="0"/></body>
</worldbody>
<keyframe><key name="k" mpos="5 5 5 6 6 6" mquat="1 0 0 0 0 0 1 0" qpos="0 0 2 1 0 0 0"/></keyframe></mujoco>"""

FILES = {
    "child.xml": CHILD,
    "mocap.xml": MOCAP,
    "sub/arm.xml": ARM,
    "sub/meshes/box.obj": BOX_OBJ,
    # a composing model that the next ones attach whole (models inside models)
    "sub/pair.xml": """<mujoco model="pair">
  <asset><model name="arm" file="arm.xml"/></asset>
  <worldbody>
    <body name="post" pos="0 0 .5"><geom type="cylinder" size=".05 .5"/>
      <attach model="arm" body="base" prefix="up_"/></body>
    <frame pos="1 0 0" euler="0 0 90"><attach model="arm" body="link" prefix="lo_"/></frame>
  </worldbody>
  <keyframe><key name="own" qpos="0 0 1 0 0 0 0 0 1 0 0 0 0"/></keyframe>
</mujoco>""",
    "inc.xml": """<mujoco>
  <asset><model name="two" file="sub/pair.xml"/></asset>
  <worldbody><body name="holder" pos="0 0 1"><freejoint/><geom size=".1"/>
    <attach model="two" prefix="p_"/></body></worldbody>
</mujoco>""",
}

MODELS = {
    # into a body and into a rotated frame; the child's radians, euler sequence, defaults,
    # materials (all of them, once per prefix), referring elements and keys; its option unused;
    # the model's own elements naming attached ones
    "body_and_frame": """<mujoco model="parent">
  <default><default class="cc"><geom rgba="0 0 1 1"/></default></default>
  <asset><model name="c" file="child.xml"/></asset>
  <worldbody>
    <geom type="plane" size="3 3 .1"/>
    <body name="base" pos="1 0 .5"><joint name="pj" axis="1 0 0"/><geom size=".2" class="cc"/>
      <body name="before"><geom size=".05"/></body>
      <attach model="c" body="arm" prefix="a_"/>
      <body name="after" pos="0 .3 0"><geom size=".05"/></body>
    </body>
    <frame pos="0 2 0" euler="0 30 90"><attach model="c" body="arm" prefix="b_"/></frame>
  </worldbody>
  <keyframe><key name="pk" qpos="1 2 3 4 5"/></keyframe>
  <tendon><fixed name="across"><joint joint="a_j" coef="1"/><joint joint="b_j2" coef="-1"/></fixed></tendon>
  <actuator><motor name="own" joint="b_j"/></actuator>
  <sensor><jointpos name="own_jp" joint="a_j2"/><framepos objtype="site" objname="b_s"/></sensor>
</mujoco>""",
    # keys of sub-models with mocap bodies: the sub-model's poses for its bodies, the defaults
    # elsewhere (one attach per model here: MuJoCo 3.3.7 also gives a key of an earlier attach
    # the values of the bodies of a later attach of the same sub-model)
    "mocap_world": """<mujoco><asset><model name="c" file="mocap.xml"/></asset><worldbody>
  <body name="pm" mocap="true" pos="0 3 0"><geom size=".1" contype="0" conaffinity="0"/></body>
  <attach model="c" prefix="w_"/></worldbody>
  <keyframe><key name="own" mpos="7 7 7 8 8 8 9 9 9"/></keyframe></mujoco>""",
    "mocap_body": """<mujoco><asset><model name="c" file="mocap.xml"/></asset><worldbody>
  <body name="pm" mocap="true" pos="0 3 0"><geom size=".1" contype="0" conaffinity="0"/></body>
  <frame pos="0 0 1"><attach model="c" body="m2" prefix="a_"/></frame></worldbody></mujoco>""",
    # the world body's contents into a body: every element of the child comes along
    "world": """<mujoco>
  <asset><model name="c" file="child.xml"/></asset>
  <worldbody><body name="base" pos="1 0 0" euler="0 0 20"><geom size=".2"/>
    <attach model="c" prefix="w_"/></body></worldbody>
</mujoco>""",
    # replicas of an attached body (prefix, then the replicas' suffixes; keys from the first)
    "replicate": """<mujoco>
  <asset><model name="c" file="sub/arm.xml"/></asset>
  <worldbody><geom type="plane" size="3 3 .1"/>
    <replicate count="3" euler="0 0 40" sep="-">
      <frame pos="0 -1 .5"><attach model="c" body="base" prefix="r_"/></frame>
    </replicate></worldbody>
</mujoco>""",
    # models inside models, a composing file included, a mesh from the sub-model's meshdir, the
    # world body's contents placed by a frame (fromto geoms, cameras, lights)
    "nested_include": """<mujoco model="main">
  <compiler angle="degree"/>
  <default><default class="body"><geom rgba="1 0 0 1"/></default></default>
  <include file="inc.xml"/>
  <asset><model name="arm" file="sub/arm.xml"/></asset>
  <worldbody>
    <geom type="plane" size="3 3 .1"/>
    <frame pos="0 2 .3" euler="30 0 45"><attach model="arm" prefix="w_"/></frame>
    <body name="b" pos="-1 0 1" childclass="body"><joint name="hinge" range="-30 30"/><geom size=".1"/>
      <attach model="arm" body="link" prefix="x_"/></body>
  </worldbody>
</mujoco>""",
}


def write_files(base, main=None):
    for rel, text in FILES.items():
        path = base / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    if main is not None:
        (base / "main.xml").write_text(main)
    return str(base / "main.xml")


@pytest.mark.parametrize("name", sorted(MODELS))
def test_attach_like_mujoco(name, tmp_path):
    path = write_files(tmp_path, MODELS[name])
    mm, gm = mujoco.MjModel.from_xml_path(path), gauss.Model.from_xml_path(path)
    assert not gm.load_warnings, gm.load_warnings
    errors = compiled_errors(gm, mm)
    assert not errors, "; ".join(errors)
    want, got = names(mm, False), names(gm, True)
    if name == "nested_include":
        # MuJoCo 3.3.7 names the keyframes of a sub-model's own sub-models without the outer
        # prefix (it warns "Child model has pending keyframes. They will not be namespaced
        # correctly"); gauss gives them both prefixes, like every other element
        want["nkey"] = [k if k.startswith(("p_", "w_", "x_")) else "p_" + k for k in want["nkey"]]
    for _, size in KINDS:
        assert got[size] == want[size], size
    md, gd = mujoco.MjData(mm), gauss.Data(gm)
    if mm.nkey:
        mujoco.mj_resetDataKeyframe(mm, md, mm.nkey - 1)
        gauss.reset_data_keyframe(gm, gd, mm.nkey - 1)
    rng = np.random.default_rng(0)
    md.qvel[:] = gd.qvel[:] = rng.normal(scale=0.3, size=mm.nv)
    md.ctrl[:] = gd.ctrl[:] = rng.uniform(-1, 1, size=mm.nu)
    for _ in range(50):
        mujoco.mj_step(mm, md)
        gauss.step(gm, gd)
    np.testing.assert_allclose(gd.qpos, md.qpos, atol=1e-9)
    np.testing.assert_allclose(gd.sensordata, md.sensordata, atol=1e-9)


@pytest.mark.parametrize("file,nq", [("22_humanoids.xml", 616), ("100_humanoids.xml", 2800)])
def test_humanoid_benchmarks_like_mujoco(file, nq):
    path = os.path.join(HUMANOIDS, file)
    mm, gm = mujoco.MjModel.from_xml_path(path), gauss.Model.from_xml_path(path)
    assert mm.nq == gm.nq == nq
    assert_compiled_alike(gm, mm)
    # qacc at random states near the rest poses (Newton, tight tolerances): the random joint
    # angles, orientations and velocities press the humanoids into the floor and each other
    for m in (mm, gm):
        m.opt.solver, m.opt.tolerance, m.opt.ls_tolerance, m.opt.iterations = 2, 1e-15, 1e-12, 200
    md, gd = mujoco.MjData(mm), gauss.Data(gm)
    rng = np.random.default_rng(1)
    free = [j for j in range(mm.njnt) if mm.jnt_type[j] == 0]
    for _ in range(2):
        qpos, qvel = oracle.random_state(mm, rng)
        for j in free:
            a = mm.jnt_qposadr[j]
            qpos[a:a + 3] = mm.qpos0[a:a + 3] + 0.05 * rng.normal(size=3)
        md.qpos[:] = gd.qpos[:] = qpos
        md.qvel[:] = gd.qvel[:] = qvel
        mujoco.mj_forward(mm, md)
        gauss.forward(gm, gd)
        assert gd.ncon == md.ncon > 0
        assert oracle.rel_err(np.asarray(gd.qacc), md.qacc) < 1e-8


BAD = {
    "missing_model": ('<attach model="nope" body="arm" prefix="a_"/>', "main.xml:4", "<attach>",
                      "unknown model 'nope'"),
    "missing_body": ('<attach model="c" body="nope" prefix="a_"/>', "main.xml:4", "<attach>",
                     "no body 'nope'"),
    "no_prefix": ('<attach model="c" body="arm"/>', "main.xml:4", "<attach>",
                  "missing required attribute 'prefix'"),
    "bad_attribute": ('<attach model="c" body="arm" prefix="a_" pos="1 0 0"/>', "main.xml:4",
                      "<attach>", "pos"),
    # the same prefix twice: the names repeat (MuJoCo 3.3.7 silently leaves the second attach
    # out when its top body's name is taken)
    "repeated_names": ('<attach model="c" body="arm" prefix="a_"/>\n<attach model="c" body="arm" prefix="a_"/>',
                       "main.xml:5", "attach", "repeated name 'a_arm' in body (also made by the <attach> at "),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_attach_is_an_error_naming_the_line(name, tmp_path):
    body, where, elem, phrase = BAD[name]
    path = write_files(tmp_path, f"""<mujoco>
  <asset><model name="c" file="child.xml"/></asset>
  <worldbody>
{body}
  </worldbody>
</mujoco>""")
    with pytest.raises(gauss.GaussError) as e:
        gauss.Model.from_xml_path(path)
    msg = str(e.value)
    assert where in msg and elem in msg and phrase in msg, msg


def test_missing_file_and_cycles_are_errors(tmp_path):
    (tmp_path / "a.xml").write_text("""<mujoco>
  <asset><model name="b" file="b.xml"/></asset>
  <worldbody><body name="ba"><geom size=".1"/></body></worldbody></mujoco>""")
    (tmp_path / "b.xml").write_text("""<mujoco>

  <asset><model name="a" file="a.xml"/></asset>
  <worldbody><body name="bb"><geom size=".1"/></body></worldbody></mujoco>""")
    # a -> b -> a: MuJoCo 3.3.7 recurses until it crashes
    with pytest.raises(gauss.GaussError, match=r"b\.xml:3: <model>: .*a\.xml.* attaches itself"):
        gauss.Model.from_xml_path(str(tmp_path / "a.xml"))
    # a model naming itself
    (tmp_path / "self.xml").write_text('<mujoco>\n<asset><model name="me" file="self.xml"/></asset></mujoco>')
    with pytest.raises(gauss.GaussError, match=r"self\.xml:2: <model>: .*attaches itself"):
        gauss.Model.from_xml_path(str(tmp_path / "self.xml"))
    # a file that is not there: an error at the <model> element, as in MuJoCo (read even when
    # nothing attaches it)
    (tmp_path / "gone.xml").write_text('<mujoco>\n<asset>\n<model name="x" file="nofile.xml"/></asset></mujoco>')
    with pytest.raises(ValueError):
        mujoco.MjModel.from_xml_path(str(tmp_path / "gone.xml"))
    with pytest.raises(gauss.GaussError, match=r"gone\.xml:3: <model>: cannot read file"):
        gauss.Model.from_xml_path(str(tmp_path / "gone.xml"))
    # an error inside the sub-model names the sub-model's file and line
    (tmp_path / "bad.xml").write_text('<mujoco><worldbody>\n<body><geom bogus="1"/></body></worldbody></mujoco>')
    (tmp_path / "top.xml").write_text('<mujoco><asset><model name="x" file="bad.xml"/></asset></mujoco>')
    with pytest.raises(gauss.GaussError, match=r"bad\.xml:2"):
        gauss.Model.from_xml_path(str(tmp_path / "top.xml"))


@pytest.mark.parametrize("where", ["model_dir", "include_dir", "both"])
def test_model_file_of_an_included_file_is_found_like_mujoco(where, tmp_path):
    """A <model file> in an included file is relative to the included file's directory (each
    place holds a different sub-model here; the model is loaded by its absolute path, as MuJoCo
    3.3.7 would otherwise also look from the working directory)."""
    write_files(tmp_path, '<mujoco>\n<include file="deep/inc.xml"/>\n</mujoco>')
    (tmp_path / "deep").mkdir()
    (tmp_path / "deep" / "inc.xml").write_text(
        '<mujoco><asset><model name="c" file="part.xml"/></asset>'
        '<worldbody><attach model="c" body="b" prefix="x_"/></worldbody></mujoco>')
    part = '<mujoco><worldbody><body name="b"><geom name="{}" size=".1"/></body></worldbody></mujoco>'
    if where in ("model_dir", "both"):
        (tmp_path / "part.xml").write_text(part.format("top"))
    if where in ("include_dir", "both"):
        (tmp_path / "deep" / "part.xml").write_text(part.format("deep"))
    path = str(tmp_path / "main.xml")
    if where == "model_dir":
        with pytest.raises(ValueError, match="part.xml"):
            mujoco.MjModel.from_xml_path(path)
        with pytest.raises(gauss.GaussError, match=r"inc\.xml:1: <model>: cannot read file"):
            gauss.Model.from_xml_path(path)
        return
    mm, gm = mujoco.MjModel.from_xml_path(path), gauss.Model.from_xml_path(path)
    assert mujoco.mj_id2name(mm, mujoco.mjtObj.mjOBJ_GEOM, 0) == "x_deep"
    assert gauss.id2name(gm, gauss.OBJ_GEOM, 0) == "x_deep"


def test_models_attaching_models_many_times_are_capped(tmp_path):
    """Each level attaching the one below 60 times multiplies: a few short files must not make a
    model of millions of elements (the cap of replicates, 200000 elements, holds for attaches)."""
    (tmp_path / "l0.xml").write_text('<mujoco><worldbody><body><geom size=".1"/></body></worldbody></mujoco>')
    for i in range(1, 4):
        bodies = "".join(f'<body name="b{k}"><attach model="m" prefix="p{k}_"/></body>\n' for k in range(60))
        (tmp_path / f"l{i}.xml").write_text(
            f'<mujoco><asset><model name="m" file="l{i - 1}.xml"/></asset><worldbody>\n{bodies}'
            '</worldbody></mujoco>')
    with pytest.raises(gauss.GaussError, match=r"l3\.xml:\d+: <attach>: .*more than 200000 elements"):
        gauss.Model.from_xml_path(str(tmp_path / "l3.xml"))


def test_sub_models_nested_too_deep_are_an_error(tmp_path):
    """A chain of distinct files each attaching the next (no cycle) stops at the include depth."""
    n = 70
    (tmp_path / f"m{n}.xml").write_text('<mujoco><worldbody><body name="b"><geom size=".1"/></body></worldbody></mujoco>')
    for i in range(n):
        (tmp_path / f"m{i}.xml").write_text(
            f'<mujoco>\n<asset><model name="x" file="m{i + 1}.xml"/></asset>'
            '<worldbody><body name="b"><attach model="x" body="b" prefix="p"/></body></worldbody></mujoco>')
    with pytest.raises(gauss.GaussError, match=r"m\d+\.xml:2: <model>: sub-models nest more than 64 deep"):
        gauss.Model.from_xml_path(str(tmp_path / "m0.xml"))


@pytest.mark.parametrize("own", ['model="Kid"', ""])
def test_model_without_name_goes_by_its_own_model_name(own, tmp_path):
    """a <model> without name= is attached by the sub-model's <mujoco model=...>, or by MJCF's
    default model name when it has none (MuJoCo's humanoid100.xml relies on it); two unnamed
    sub-models with one name are a repeated name, and an attach of another name is unknown"""
    kid = "Kid" if own else "MuJoCo Model"
    (tmp_path / "c.xml").write_text(f'<mujoco {own}><worldbody><body name="b" pos="0 0 1"><joint/>'
                                    '<geom size=".1"/></body></worldbody></mujoco>')
    main = tmp_path / "m.xml"
    main.write_text(f'<mujoco><asset><model file="c.xml"/></asset><worldbody>'
                    f'<attach model="{kid}" prefix="p-"/><attach model="{kid}" prefix="q-"/>'
                    '</worldbody></mujoco>')
    gm, mm = gauss.Model.from_xml_path(str(main)), mujoco.MjModel.from_xml_path(str(main))
    assert (gm.nbody, gm.nq) == (mm.nbody, mm.nq) == (3, 2)
    assert names(gm, True) == names(mm, False)
    assert not compiled_errors(gm, mm)
    main.write_text('<mujoco><asset><model file="c.xml"/><model file="c.xml"/></asset></mujoco>')
    with pytest.raises(gauss.GaussError, match="repeated name"):
        gauss.Model.from_xml_path(str(main))
    main.write_text('<mujoco><asset><model file="c.xml"/></asset><worldbody>'
                    '<attach model="other" prefix="p-"/></worldbody></mujoco>')
    with pytest.raises(gauss.GaussError, match="unknown model 'other'"):
        gauss.Model.from_xml_path(str(main))


# what the written file may name differently: the asset files, with the directories they were read
# from (the sub-models' meshdir) where the names as written need them
FILE_FIELDS = {"npaths", "paths", "mesh_pathadr", "hfield_pathadr", "tex_pathadr", "nreadpaths",
               "readpaths", "mesh_readadr", "hfield_readadr", "tex_readadr"}


@pytest.mark.parametrize("name", sorted(MODELS))
def test_attached_models_written_as_mjcf_reload_the_same(name, tmp_path):
    # written beside the composing file: the attached parts' orientations (their own angle units
    # and euler sequences), mass settings and mesh directories are all in what is written
    from test_roundtrip import compare
    path = write_files(tmp_path, MODELS[name])
    gm = gauss.Model.from_xml_path(path)
    (tmp_path / "written.xml").write_text(gm.to_xml())
    g2 = gauss.Model.from_xml_path(str(tmp_path / "written.xml"))
    errors = [e for e in compare(gm, g2) if e.split(":")[0].replace("size ", "") not in FILE_FIELDS]
    assert not errors, errors
    assert gm.nmesh == 0 or g2.nreadpaths == 0  # the files are named as they were read
