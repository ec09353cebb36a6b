"""Model editing (gauss.Spec, gauss.set_const).

- Every corpus model's tree built from scratch through the spec API (each element added with the
  add_* calls and only its attributes that differ from a new element's written, as a user would)
  compiles to the same arrays as the XML, bit for bit.
- The same construction script run on MuJoCo's MjSpec and on gauss.Spec (MuJoCo's names for
  attributes and calls) compiles to the same model and the same motion.
- set_const after edits of masses, positions, armature and qpos0 gives MuJoCo's mj_setConst values
  for every quantity MuJoCo recomputes.
- recompile keeps the state of what persists; deleting removes subtrees; bad use raises errors
  naming the attribute or element.
"""

import mujoco
import numpy as np
import pytest

import gauss
from gauss import _spec as spec_impl

import oracle

MODELS = oracle.corpus_models()


# ---- building a tree from scratch: only what differs from a new element ----

def _changed(src, fresh):
    """(name, value) of src's attributes that differ from those of a fresh element; orientation
    forms are set before the form selector (alttype), which comes last."""
    out, last = [], []
    for name in spec_impl._table(src._kind):
        value, default = getattr(src, name), getattr(fresh, name)
        if name.endswith("alttype"):
            last.append((name, value))
            continue
        same = (np.array_equal(np.asarray(value), np.asarray(default))
                if not isinstance(value, (str, bytes, type(None), list)) else value == default)
        if not same:
            out.append((name, value))
    return out + last


def _copy_attrs(src, dst, scratch_add):
    fresh = scratch_add()
    for name, value in _changed(src, fresh):
        setattr(dst, name, value)


def _copy_body(src, dst, scratch):
    # scratch: a body of a throwaway spec where fresh elements show the defaults
    for kind, add in (("joint", "add_joint"), ("geom", "add_geom"), ("site", "add_site"),
                      ("camera", "add_camera"), ("light", "add_light")):
        for el in getattr(src, kind + "s"):
            new = getattr(dst, add)()
            _copy_attrs(el, new, getattr(scratch, add))
    for child in src.bodies:
        new = dst.add_body()
        _copy_attrs(child, new, scratch.add_body)
        _copy_body(child, new, scratch)


def _copy_settings(src, dst, fresh):
    for name, value in _changed(src, fresh):
        setattr(dst, name, value)


def rebuild(src):
    """A new spec holding src's model, built through the public API."""
    dst, scratch = gauss.Spec(), gauss.Spec()
    for name in gauss.Option._names:
        setattr(dst.option, name, getattr(src.option, name))
    _copy_settings(src.compiler, dst.compiler, scratch.compiler)
    _copy_settings(src.stat, dst.stat, scratch.stat)
    _copy_settings(src.visual, dst.visual, scratch.visual)
    _copy_settings(src._root, dst._root, scratch._root)
    _copy_attrs(src.worldbody, dst.worldbody, lambda: scratch.worldbody)
    _copy_body(src.worldbody, dst.worldbody, scratch.worldbody)
    # spec-level elements, in order (assets before what names them does not matter to the
    # compiler: names resolve after the whole tree is read)
    for kind, (_, listname) in spec_impl._SPEC_KINDS.items():
        for el in getattr(src, listname):
            kw = {"type": el.type} if kind in ("sensor", "equality") else {}
            new = getattr(dst, "add_" + kind)(**kw)
            fresh = getattr(scratch, "add_" + kind)(**kw)
            for name, value in _changed(el, fresh):
                setattr(new, name, value)
            if kind == "tendon":
                for w in el.wraps:
                    if w.type == 0:
                        new.wrap_joint(w.target, w.prm)
                    elif w.type == 1:
                        new.wrap_site(w.target)
                    elif w.type == 2:
                        new.wrap_geom(w.target, w.sidesite or "")
                    else:
                        new.wrap_pulley(w.prm)
            elif kind == "tuple":
                for e in el.elements:
                    new.add_element(e.objtype, e.objname, e.prm)
    return dst


def assert_same_model(a, b, what):
    for name in a._fieldinfo:
        x, y = getattr(a, name), getattr(b, name)
        assert np.array_equal(np.asarray(x), np.asarray(y)), f"{what}: {name} differs"
    for name in a.size_names():
        assert getattr(a, name) == getattr(b, name), f"{what}: size {name}"
    assert a.stat.meaninertia == b.stat.meaninertia
    for name in gauss.Option._names:
        assert np.array_equal(np.asarray(getattr(a.opt, name)), np.asarray(getattr(b.opt, name))), name


@pytest.mark.parametrize("path", [p for _, p in MODELS], ids=[i for i, _ in MODELS])
def test_corpus_tree_built_from_scratch_compiles_to_the_xml_arrays(path):
    want = gauss.Model.from_xml_path(path)
    src = gauss.Spec.from_file(path)
    built = rebuild(src)
    # the rebuilt spec shares nothing with the parsed one
    assert built.worldbody is not src.worldbody
    assert len(built.bodies) == want.nbody and len(built.joints) == want.njnt
    assert_same_model(want, built.compile(), path)
    # and the parsed spec itself compiles to the same model
    assert_same_model(want, src.compile(), path)


def test_tree_order_is_the_models():
    path = dict(MODELS)["dm_control/humanoid_CMU"]
    s = gauss.Spec.from_file(path)
    m = s.compile()
    assert [b.name for b in s.bodies] == [gauss.id2name(m, gauss.OBJ_BODY, i) for i in range(m.nbody)]
    assert [j.name for j in s.joints] == [gauss.id2name(m, gauss.OBJ_JOINT, i) for i in range(m.njnt)]
    assert [g.name or "" for g in s.geoms] == [gauss.id2name(m, gauss.OBJ_GEOM, i) or "" for i in range(m.ngeom)]


# ---- the same script on MuJoCo's MjSpec and on gauss.Spec ----

def _build(lib, spec):
    """A small robot written with MuJoCo's spec API; `lib` gives the enumerations."""
    e = (lambda enum, name: getattr(getattr(mujoco, enum), name)) if lib == "mujoco" else \
        (lambda enum, name: int(getattr(getattr(mujoco, enum), name)))
    spec.modelname = "arm"
    spec.option.timestep = 0.004
    spec.compiler.autolimits = True
    world = spec.worldbody
    world.add_geom(name="floor", type=e("mjtGeom", "mjGEOM_PLANE"), size=[2, 2, 0.1])
    world.add_light(name="top", pos=[0, 0, 3])
    base = world.add_body(name="base", pos=[0, 0, 0.5])
    base.add_joint(name="yaw", axis=[0, 0, 1], range=[-90, 90], damping=0.1)
    base.add_geom(name="base_geom", type=e("mjtGeom", "mjGEOM_CYLINDER"), size=[0.1, 0.05, 0])
    upper = base.add_body(name="upper", pos=[0, 0, 0.05])
    upper.alt.type = e("mjtOrientation", "mjORIENTATION_EULER")
    upper.alt.euler = [0, 30, 0]
    upper.add_joint(name="shoulder", axis=[0, 1, 0], armature=0.01, stiffness=2, springref=10)
    upper.add_geom(name="upper_geom", type=e("mjtGeom", "mjGEOM_CAPSULE"),
                   fromto=[0, 0, 0, 0.4, 0, 0], size=[0.04, 0, 0])
    upper.add_site(name="elbow_site", pos=[0.4, 0, 0])
    fore = upper.add_body(name="fore", pos=[0.4, 0, 0])
    fore.add_joint(name="elbow", axis=[0, 1, 0], range=[-120, 0])
    fore.add_geom(name="fore_geom", type=e("mjtGeom", "mjGEOM_BOX"), size=[0.15, 0.03, 0.03],
                  pos=[0.15, 0, 0], rgba=[1, 0, 0, 1], density=500)
    fore.add_site(name="hand", pos=[0.3, 0, 0])
    ball = world.add_body(name="ball", pos=[0.6, 0, 0.2])
    ball.add_freejoint(name="ball_free")
    ball.add_geom(name="ball_geom", type=e("mjtGeom", "mjGEOM_SPHERE"), size=[0.05, 0, 0], mass=0.3)
    motor = spec.add_actuator(name="yaw_motor", target="yaw", trntype=e("mjtTrn", "mjTRN_JOINT"))
    motor.set_to_motor()
    motor.ctrlrange = [-1, 1]
    servo = spec.add_actuator(name="shoulder_servo", target="shoulder",
                              trntype=e("mjtTrn", "mjTRN_JOINT"))
    servo.set_to_position(kp=20, dampratio=1)
    vel = spec.add_actuator(name="elbow_vel", target="elbow", trntype=e("mjtTrn", "mjTRN_JOINT"))
    vel.set_to_velocity(kv=3)
    tendon = spec.add_tendon(name="reach", stiffness=5)
    tendon.wrap_site("elbow_site")
    tendon.wrap_site("hand")
    spec.add_sensor(name="hand_pos", type=e("mjtSensor", "mjSENS_FRAMEPOS"),
                    objtype=e("mjtObj", "mjOBJ_SITE"), objname="hand")
    spec.add_sensor(name="reach_len", type=e("mjtSensor", "mjSENS_TENDONPOS"),
                    objtype=e("mjtObj", "mjOBJ_TENDON"), objname="reach")
    spec.add_sensor(name="shoulder_pos", type=e("mjtSensor", "mjSENS_JOINTPOS"),
                    objtype=e("mjtObj", "mjOBJ_JOINT"), objname="shoulder")
    spec.add_key(name="bent", qpos=[0.1, 0.2, -0.3, 0.6, 0, 0.2, 1, 0, 0, 0])
    return spec


def _mujoco_pair():
    ms = _build("mujoco", mujoco.MjSpec())
    gs = _build("gauss", gauss.Spec())
    return ms.compile(), gs.compile()


def test_same_script_as_mujocos_spec_compiles_to_mujocos_model():
    mm, gm = _mujoco_pair()
    for name in ("nq", "nv", "nu", "nbody", "ngeom", "nsite", "ntendon", "nsensor", "nkey"):
        assert getattr(mm, name) == getattr(gm, name), name
    for name in ("body_pos", "body_quat", "body_mass", "body_inertia", "body_ipos", "jnt_range",
                 "jnt_limited", "jnt_stiffness", "qpos_spring", "dof_armature", "dof_damping",
                 "geom_size", "geom_pos", "geom_quat", "geom_rgba", "site_pos",
                 "actuator_gainprm", "actuator_biasprm", "actuator_dyntype", "actuator_gaintype",
                 "actuator_biastype", "actuator_ctrlrange", "actuator_ctrllimited",
                 "tendon_stiffness", "sensor_type", "sensor_objid", "key_qpos", "light_pos"):
        want, got = np.asarray(getattr(mm, name)), np.asarray(getattr(gm, name))
        np.testing.assert_allclose(got.reshape(want.shape), want, rtol=1e-12, atol=1e-12, err_msg=name)
    assert gm.opt.timestep == mm.opt.timestep


def test_same_script_as_mujocos_spec_moves_the_same():
    mm, gm = _mujoco_pair()
    md, gd = mujoco.MjData(mm), gauss.Data(gm)
    rng = np.random.default_rng(3)
    for step in range(200):
        ctrl = rng.uniform(-1, 1, mm.nu)
        md.ctrl[:] = ctrl
        gd.ctrl[:] = ctrl
        mujoco.mj_step(mm, md)
        gauss.step(gm, gd)
    # 200 steps with a ball bouncing on the floor: contacts amplify rounding, so the bound is
    # looser than a single step's 1e-12 (measured: ~1e-10)
    np.testing.assert_allclose(gd.qpos, md.qpos, atol=1e-7)
    np.testing.assert_allclose(gd.sensordata, md.sensordata, atol=1e-7)


@pytest.mark.parametrize("shortcut,args", [
    ("set_to_motor", {}), ("set_to_position", {"kp": 7, "kv": 0.5}),
    ("set_to_position", {"kp": 3, "dampratio": 0.7, "timeconst": 0.1}),
    ("set_to_velocity", {"kv": 2}), ("set_to_intvelocity", {"kp": 4}),
    ("set_to_damper", {"kv": 1.5}), ("set_to_cylinder", {"timeconst": 0.2, "bias": 0.1, "area": 2}),
    ("set_to_cylinder", {"timeconst": 0.2, "bias": 0.1, "area": 2, "diameter": 0.3}),
    ("set_to_adhesion", {"gain": 5}),
])
def test_actuator_shortcuts_equal_mujocos(shortcut, args):
    models = []
    for lib, spec in (("mujoco", mujoco.MjSpec()), ("gauss", gauss.Spec())):
        b = spec.worldbody.add_body(name="b")
        b.add_joint(name="j", type=(mujoco.mjtJoint.mjJNT_SLIDE if lib == "mujoco" else 2),
                    range=[-1, 1])
        b.add_geom(size=[0.1, 0, 0])
        b.add_site(name="s")
        spec.worldbody.add_site(name="w", pos=[0, 0, 1])
        a = spec.add_actuator(name="a", target="j",
                              trntype=mujoco.mjtTrn.mjTRN_JOINT if lib == "mujoco" else 0)
        if shortcut in ("set_to_damper", "set_to_adhesion"):
            a.ctrlrange = [0, 1]
        if shortcut == "set_to_intvelocity":
            a.actrange = [-1, 1]
        if shortcut == "set_to_adhesion":
            a.trntype = mujoco.mjtTrn.mjTRN_BODY if lib == "mujoco" else 5
            a.target = "b"
        getattr(a, shortcut)(**args)
        models.append(spec.compile())
    mm, gm = models
    for name in ("actuator_dyntype", "actuator_gaintype", "actuator_biastype", "actuator_dynprm",
                 "actuator_gainprm", "actuator_biasprm", "actuator_ctrllimited",
                 "actuator_ctrlrange", "actuator_actlimited", "actuator_actrange"):
        np.testing.assert_allclose(np.asarray(getattr(gm, name)).reshape(getattr(mm, name).shape),
                                   getattr(mm, name), rtol=1e-12, err_msg=name)


@pytest.mark.parametrize("args,attrs", [
    ({}, ""),
    ({"force": 100, "range": [0.8, 1.2], "tausmooth": 0.1, "timeconst": [0.02, 0.05]},
     'force="100" range="0.8 1.2" tausmooth="0.1" timeconst="0.02 0.05"'),
    ({"scale": 300, "lmin": 0.4, "vmax": 2, "fpmax": 1.1, "fvmax": 1.3},
     'scale="300" lmin="0.4" vmax="2" fpmax="1.1" fvmax="1.3"'),
])
def test_muscle_shortcut_equals_mjcf_muscle(args, attrs):
    # MuJoCo 3.3.7's set_to_muscle cannot be called from Python (its binding rejects every
    # argument list), so the muscle is compared with MuJoCo's compile of MJCF's <muscle>
    body = ('<worldbody><body><joint name="j" type="slide" range="-1 1"/><geom size="0.1"/>'
            '</body></worldbody>')
    mm = mujoco.MjModel.from_xml_string(
        f'<mujoco>{body}<actuator><muscle joint="j" lengthrange="0.5 1.5" {attrs}/></actuator></mujoco>')
    s = gauss.Spec.from_string(f"<mujoco>{body}</mujoco>")
    a = s.add_actuator(target="j", trntype=0, lengthrange=[0.5, 1.5])
    a.set_to_muscle(**args)
    gm = s.compile()
    for name in ("actuator_dyntype", "actuator_gaintype", "actuator_biastype", "actuator_dynprm",
                 "actuator_gainprm", "actuator_biasprm"):
        np.testing.assert_allclose(np.asarray(getattr(gm, name)).reshape(getattr(mm, name).shape),
                                   getattr(mm, name), rtol=1e-12, err_msg=name)


# ---- set_const ----

SET_CONST_FIELDS = ("body_subtreemass", "body_invweight0", "dof_invweight0", "tendon_invweight0",
                    "tendon_length0", "actuator_length0", "actuator_acc0", "actuator_biasprm",
                    "cam_pos0", "cam_poscom0", "cam_mat0", "light_pos0", "light_poscom0",
                    "light_dir0", "eq_data")


def _edit(m, rng):
    """The same edits in either engine's model (arrays written in place)."""
    nb = m.nbody
    m.body_mass[1:] *= rng.uniform(0.5, 2, nb - 1)
    m.body_inertia[1:] *= rng.uniform(0.5, 2, (nb - 1, 1))
    m.body_pos[1:] += rng.normal(scale=0.01, size=(nb - 1, 3))
    m.body_ipos[1:] += rng.normal(scale=0.01, size=(nb - 1, 3))
    m.dof_armature[:] += rng.uniform(0, 0.1, m.nv)
    m.qpos0[:] += rng.normal(scale=0.02, size=m.nq)
    m.actuator_gear[:, 0] *= rng.uniform(0.5, 2, m.nu)


@pytest.mark.parametrize("path", [p for _, p in MODELS], ids=[i for i, _ in MODELS])
def test_set_const_equals_mujocos(path):
    xml, _ = oracle.prepare_xml(path)
    mm = mujoco.MjModel.from_xml_string(xml)
    gm = gauss.Model.from_xml_string(xml)
    # both engines start from equal constants (compile), then take the same edits
    seed = abs(hash(path)) % 2**32
    _edit(mm, np.random.default_rng(seed))
    _edit(gm, np.random.default_rng(seed))
    # quaternions of qpos0 are left as edited (not normalised): both engines use them as given
    md, gd = mujoco.MjData(mm), gauss.Data(gm)
    gd.qpos[:] = 1  # set_const must not depend on the data's state
    mujoco.mj_setConst(mm, md)
    gauss.set_const(gm, gd)
    for name in SET_CONST_FIELDS:
        if not hasattr(gm, name) or getattr(mm, name).size == 0:
            continue
        want = np.asarray(getattr(mm, name))
        got = np.asarray(getattr(gm, name)).reshape(want.shape)
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12, err_msg=name)
    np.testing.assert_allclose(gm.stat.meaninertia, mm.stat.meaninertia, rtol=1e-12)
    # the data is left at qpos0 (MuJoCo's is left with zero qpos: a documented difference)
    np.testing.assert_array_equal(gd.qpos, gm.qpos0)


def test_set_const_fixes_what_an_edit_left_stale():
    s = gauss.Spec()
    b = s.worldbody.add_body(pos=[0, 0, 1])
    b.add_joint(type="slide", axis=[1, 0, 0])
    b.add_geom(size=[0.1, 0, 0], mass=2)
    m = s.compile()
    d = gauss.Data(m)
    assert m.body_subtreemass[1] == 2 and m.body_invweight0[1, 0] == pytest.approx(0.5)
    m.body_mass[1] = 4
    gauss.set_const(m, d)
    # a body on one slide: its inverse weight is 1 / mass (closed form)
    assert m.body_subtreemass[1] == 4 and m.body_invweight0[1, 0] == pytest.approx(0.25)
    assert m.stat.meaninertia == pytest.approx(4)
    m.body_mass[1] = 0
    m.body_inertia[1] = 0
    with pytest.raises(gauss.GaussError, match="mass"):
        gauss.set_const(m, d)


# ---- recompile, delete, errors ----

def test_recompile_keeps_the_state_of_what_persists():
    s = _build("gauss", gauss.Spec())
    m = s.compile()
    d = gauss.Data(m)
    d.ctrl[:] = [0.3, 0.2, -0.1]
    gauss.step(m, d, 150)
    d.xfrc_applied[m.body("ball").id] = [0, 0, 1, 0, 0, 0]
    # add a pendulum before the ball (shifting the ball's addresses) and drop the elbow motor
    pend = s.worldbody.add_body(name="pend", pos=[-0.5, 0, 1])
    s.worldbody.bodies[-1:]  # (the list is rebuilt on each read)
    pend.add_joint(name="swing", axis=[0, 1, 0])
    pend.add_geom(type="capsule", fromto=[0, 0, 0, 0, 0, -0.3], size=[0.02, 0, 0])
    s.delete(s.actuator("elbow_vel"))
    m2, d2 = s.recompile(m, d)
    assert d2.time == d.time
    assert m2.njnt == m.njnt + 1 and m2.nu == m.nu - 1
    for j in ("yaw", "shoulder", "elbow", "ball_free"):
        a, b = m.joint(j), m2.joint(j)
        n = {0: 7, 1: 4}.get(int(m.jnt_type[a.id]), 1)
        nv = {0: 6, 1: 3}.get(int(m.jnt_type[a.id]), 1)
        qa, qb = int(m.jnt_qposadr[a.id]), int(m2.jnt_qposadr[b.id])
        np.testing.assert_array_equal(d2.qpos[qb:qb + n], d.qpos[qa:qa + n])
        va, vb = int(m.jnt_dofadr[a.id]), int(m2.jnt_dofadr[b.id])
        np.testing.assert_array_equal(d2.qvel[vb:vb + nv], d.qvel[va:va + nv])
    # the new joint starts at its qpos0; the kept actuators keep their controls
    assert d2.qpos[int(m2.jnt_qposadr[m2.joint("swing").id])] == 0
    np.testing.assert_array_equal(d2.ctrl, d.ctrl[:2])
    np.testing.assert_array_equal(d2.xfrc_applied[m2.body("ball").id], [0, 0, 1, 0, 0, 0])
    gauss.step(m2, d2, 10)  # and it simulates


def test_recompiled_unchanged_spec_continues_bit_identically():
    s = _build("gauss", gauss.Spec())
    m = s.compile()
    d = gauss.Data(m)
    gauss.step(m, d, 50)
    m2, d2 = s.recompile(m, d)
    gauss.step(m, d, 100)
    gauss.step(m2, d2, 100)
    np.testing.assert_array_equal(d2.qpos, d.qpos)
    np.testing.assert_array_equal(d2.qvel, d.qvel)


def test_delete_removes_a_subtree_and_invalidates_its_elements():
    s = _build("gauss", gauss.Spec())
    upper = s.body("upper")
    elbow = s.joint("elbow")
    n_before = len(s.bodies)
    # the tendon and the sensors name sites under the subtree: remove them too
    s.delete(s.tendon("reach"))
    for name in ("hand_pos", "reach_len", "shoulder_pos"):
        s.delete(s.sensor(name))
    for name in ("shoulder_servo", "elbow_vel"):
        s.delete(s.actuator(name))
    s.delete(s.key("bent"))
    s.delete(upper)
    assert len(s.bodies) == n_before - 2
    assert s.joint("elbow") is None and s.body("fore") is None
    with pytest.raises(gauss.SpecError, match="deleted"):
        elbow.range
    with pytest.raises(gauss.SpecError):
        s.delete(upper)
    m = s.compile()
    assert m.nbody == n_before - 2 and m.njnt == 2
    with pytest.raises(gauss.SpecError, match="world"):
        s.delete(s.worldbody)


@pytest.mark.parametrize("path", [dict(MODELS)[k] for k in ("dm_control/quadruped", "gymnasium/humanoid")],
                         ids=["quadruped", "humanoid"])
def test_copy_is_deep_and_compiles_alike(path):
    s = gauss.Spec.from_file(path)
    c = s.copy()
    assert_same_model(s.compile(), c.compile(), path)
    # editing the copy leaves the original as it was
    b = c.bodies[1]
    b.pos = b.pos + 1
    c.delete(c.bodies[-1])
    c.worldbody.add_body(name="extra").add_geom(size=[0.1, 0, 0])
    assert_same_model(gauss.Model.from_xml_path(path), s.compile(), path)
    assert len(c.bodies) == len(s.bodies) and c.body("extra") is not None and s.body("extra") is None


def test_bad_use_names_the_attribute():
    s = gauss.Spec()
    g = s.worldbody.add_geom()
    with pytest.raises(AttributeError, match="size"):
        g.sise = [1, 2, 3]
    with pytest.raises(gauss.SpecError, match="takes 3 values"):
        g.size = [1, 2, 3, 4]
    with pytest.raises(gauss.SpecError, match="box"):
        g.type = "cube"
    g.type = "box"
    assert g.type == gauss.GEOM_BOX
    g.size = [0.1, 0.1, 0.1]
    b = s.worldbody.add_body(name="b")
    b.add_joint()
    with pytest.raises(gauss.SpecError, match="body 'b'"):
        s.compile()  # a moving body without mass: the message names the body
    with pytest.raises(gauss.SpecError):
        gauss.Spec.from_string("<mujoco><worldbody><geom type='nope'/></worldbody></mujoco>")


def test_element_arrays_write_back_with_their_flags():
    s = gauss.Spec()
    s.compiler.autolimits = True
    b = s.worldbody.add_body()
    j = b.add_joint()
    j.range[1] = 45  # an item write marks the range as given, as writing the attribute does
    b.add_geom(size=[0.1, 0, 0])
    b.alt.euler = [0, 0, 90]  # selects the Euler form (MuJoCo's spec needs alt.type as well)
    assert b.alt.type == int(mujoco.mjtOrientation.mjORIENTATION_EULER)
    m = s.compile()
    assert m.jnt_limited[0] == 1
    np.testing.assert_allclose(m.jnt_range[0], [0, np.pi / 4])
    np.testing.assert_allclose(m.body_quat[1], [np.cos(np.pi / 4), 0, 0, np.sin(np.pi / 4)], atol=1e-15)
    b.pos += 1  # in-place arithmetic assigns back
    np.testing.assert_array_equal(b.pos, [1, 1, 1])


def test_spec_from_string_keeps_assets_and_warnings():
    xml = """<mujoco><asset><mesh name="tet" file="tet.obj"/></asset>
             <worldbody><body><freejoint/><geom type="mesh" mesh="tet"/></body></worldbody></mujoco>"""
    obj = b"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"
    s = gauss.Spec.from_string(xml, assets={"tet.obj": obj})
    assert s.mesh("tet").data == obj
    assert s.geoms[0].meshname == "tet"
    m = s.compile()
    want = gauss.Model.from_xml_string(xml, assets={"tet.obj": obj})
    assert_same_model(want, m, "mesh from assets")
