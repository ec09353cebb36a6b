"""Frames through gauss.Spec against MuJoCo 3.3.7's MjSpec making the same edit: a frame's pose
edited after its contents are placed (they move with it, nested frames too), a fromto written
in a frame (taken in the frame), unnamed elements' names (""), the frames of bodies that
fusestatic removes (dropped, what they held kept in the parent and written there), elements put
in frames (element.set_frame, frame.attach_body), and fromto beside pos or on types it gives no
pose for (refused as MuJoCo refuses them)."""

import mujoco
import pytest
import numpy as np

import gauss
from test_attach import compiled_errors, names

# frames given with quaternions: MuJoCo keeps an euler or axisangle read from MJCF as the frame's
# alternative orientation, which then overrides a quat written through its spec (gauss's frame
# holds a quaternion only, so there a quat edit always applies)
FRAMED = """<mujoco><worldbody><body name="base" pos="0 0 1"><joint/><geom size=".1"/>
  <frame name="f" pos="1 0 0" quat=".9 0 .1 .3">
    <geom name="g" size=".1" pos="0 0 1" euler="10 0 0"/>
    <body name="b" pos="0 1 0"><joint name="j" axis="1 0 0"/><geom size=".1"/></body>
    <frame name="n" pos="0 0 3">
      <site name="s" type="capsule" size=".02"/><camera name="c" pos="0 0 1"/>
      <light name="l" dir="1 0 -1"/><joint name="jn" axis="0 1 0"/></frame>
    <geom name="cap" type="capsule" size=".05" fromto="0 0 0 .1 .2 .3"/></frame></body>
  <frame name="top"><frame><geom name="deep" type="box" size=".1 .2 .3"/></frame></frame>
</worldbody></mujoco>"""


def both(edit):
    """the same edit on MuJoCo's spec (before its first compile: MuJoCo 3.3.7 places frames once,
    and ignores frame poses edited after that) and on gauss's; their compiled models"""
    ms, gs = mujoco.MjSpec.from_string(FRAMED), gauss.Spec.from_string(FRAMED)
    edit(ms)
    edit(gs)
    return gs, ms, gs.compile(), ms.compile()


def test_frame_pose_edited_moves_what_it_holds_like_mujoco():
    def edit(s):
        s.frame("f").pos = [0, 2, 0]
        s.frame("f").quat = [0.5, 0.5, 0.5, 0.5]
        s.frame("n").quat = [0, 0, 0, 1]        # nested in f
        s.frame("top").pos = [0, 0, 2]          # holds an unnamed frame holding a geom
    gs, _, gm, mm = both(edit)
    assert compiled_errors(gm, mm) == []
    # it moved: against the unedited model
    assert compiled_errors(gm, mujoco.MjModel.from_xml_string(FRAMED))
    assert np.allclose(gs.frame("f").pos, [0, 2, 0]) and np.allclose(gs.frame("n").quat, [0, 0, 0, 1])
    # the framed elements still read their poses in their frames
    assert np.allclose(gs.geom("g").pos, [0, 0, 1]) and np.allclose(gs.body("b").pos, [0, 1, 0])
    # what is written reads back the same in both engines
    xml = gm.to_xml()
    assert compiled_errors(gauss.Model.from_xml_string(xml), mujoco.MjModel.from_xml_string(xml)) == []


def test_fromto_written_in_a_frame_is_taken_in_it_like_mujoco():
    def edit(s):
        s.geom("cap").fromto = [0, 0, 0, 0.3, 0.2, 0.1]
        s.site("s").fromto = [0, 0, 0, 0, 0.3, 0]
    gs, ms, gm, mm = both(edit)
    assert compiled_errors(gm, mm) == []
    assert np.array_equal(gs.geom("cap").fromto, ms.geom("cap").fromto)  # read back as written
    # the pose is the fromto's: pos and quat read as not given, and writing them back so is no edit
    for name in ("pos", "quat"):
        assert np.array_equal(getattr(gs.geom("cap"), name), getattr(ms.geom("cap"), name))
        setattr(gs.geom("cap"), name, getattr(gs.geom("cap"), name))
    gs.geom("cap").quat = [0, 1, 0, 0]  # the fromto gives the orientation in MuJoCo too
    assert compiled_errors(gs.compile(), mm) == []


def test_elements_say_their_frame_like_mujoco():
    def frames(spec):
        out = []
        for kind in ("bodies", "joints", "geoms", "sites", "cameras", "lights", "frames"):
            for el in getattr(spec, kind):
                f = el.frame
                out.append((kind, el.name, None if f is None else (f.name, f.parent.name)))
        return out
    ms, gs = mujoco.MjSpec.from_string(FRAMED), gauss.Spec.from_string(FRAMED)
    assert frames(gs) == frames(ms)
    assert ("geoms", "deep", ("", "world")) in frames(gs)  # the unnamed frame in "top"


def test_unnamed_elements_read_an_empty_name_like_mujoco():
    xml = """<mujoco><asset><material/></asset><worldbody><frame/><body><joint/><geom size="1"/>
      <site/><camera/><light/></body></worldbody></mujoco>"""
    ms, gs = mujoco.MjSpec.from_string(xml), gauss.Spec.from_string(xml)
    for spec in (ms, gs):
        got = [spec.frames[0].name, spec.bodies[1].name, spec.joints[0].name, spec.geoms[0].name,
               spec.sites[0].name, spec.cameras[0].name, spec.lights[0].name, spec.materials[0].name,
               spec.geoms[0].material, spec.cameras[0].targetbody]
        assert got == [""] * len(got)


def test_frames_of_bodies_fusestatic_removes_are_dropped_like_mujoco():
    xml = """<mujoco><compiler fusestatic="true"/><worldbody><body name="a"><joint/><geom size=".1"/>
      <frame name="P" pos="0 1 0"><body name="s" pos="0 0 1"><geom name="gs" size=".1"/>
        <frame name="F" pos="1 0 0"><geom name="gf" size=".1"/><site name="sf"/>
          <body name="cf"><joint/><geom size=".1"/></body></frame>
        <body name="c"><joint/><geom size=".1"/></body></body></frame>
      <frame name="Q"><geom name="gq" size=".1"/></frame></body></worldbody></mujoco>"""
    ms = mujoco.MjSpec.from_string(xml)
    mm, gm = ms.compile(), gauss.Spec.from_string(xml).compile()
    assert compiled_errors(gm, mm) == [] and names(gm, True) == names(mm, False)
    # MuJoCo's compile removes the fused body and its frames from its spec: the model keeps the rest
    kept = [f.name for f in ms.frames]
    assert kept == ["P", "Q"] and bytes(gm.framenames).split(b"\0")[:-1] == [b"P", b"Q"]
    # what F held is written directly in a (MuJoCo's own writer leaves it out), so the written
    # file reads back to the same model in both engines
    xml2 = gm.to_xml()
    g2, m2 = gauss.Model.from_xml_string(xml2), mujoco.MjModel.from_xml_string(xml2)
    assert compiled_errors(g2, m2) == [] and (g2.nbody, g2.ngeom, g2.nsite) == (mm.nbody, mm.ngeom, mm.nsite)


def _placed(mod):
    """a body's elements put in frames through the spec (MuJoCo 3.3.7's element.set_frame; its
    MjsFrame has no add_* methods): a geom, joint, camera and light in f, a site, a capsule given
    by fromto and a child body in f2 (written in f)"""
    s = mujoco.MjSpec() if mod is mujoco else gauss.Spec()
    capsule = mujoco.mjtGeom.mjGEOM_CAPSULE if mod is mujoco else "capsule"
    b = s.worldbody.add_body(name="b", pos=[0, 0, 1])
    b.add_joint(name="j0")
    b.add_geom(size=[0.2, 0, 0])
    f = b.add_frame(name="f", pos=[1, 0, 0], quat=[0, 0, 0.6, 0.8])
    f2 = b.add_frame(f, name="f2", pos=[0, 1, 0])
    b.add_geom(name="g", size=[0.1, 0, 0], pos=[0, 0, 0.5], euler=[0.1, 0.2, 0.3]).set_frame(f)
    c = b.add_body(name="c", pos=[0, 0, 0.2], quat=[0.8, 0.6, 0, 0])
    c.add_joint(axis=[0, 1, 0])
    c.add_geom(size=[0.1, 0, 0])
    c.set_frame(f2)
    b.add_site(name="s", pos=[0.1, 0, 0]).set_frame(f2)
    b.add_joint(name="j", axis=[1, 0, 0], pos=[0, 0, 0.1]).set_frame(f)
    b.add_camera(name="cam", pos=[0, 0, 0.3]).set_frame(f)
    b.add_light(name="l", pos=[0, 0, 0.3], dir=[1, 0, -1]).set_frame(f)
    b.add_geom(name="cap", type=capsule, size=[0.05, 0, 0], fromto=[0, 0, 0, 0.1, 0.2, 0.3]).set_frame(f2)
    return s


def test_elements_put_in_frames_compile_and_write_like_mujoco():
    ms, gs = _placed(mujoco), _placed(gauss)
    mm, gm = ms.compile(), gs.compile()
    assert compiled_errors(gm, mm) == []
    # they read their poses in their frames, and name them, as on MuJoCo's spec
    for kind, name in (("geom", "g"), ("site", "s"), ("body", "c"), ("camera", "cam"), ("light", "l")):
        el, mel = getattr(gs, kind)(name), getattr(ms, kind)(name)
        assert el.frame.name == mel.frame.name and np.allclose(el.pos, mel.pos, atol=1e-12), (kind, name)
    assert np.allclose(gs.joint("j").axis, [1, 0, 0]) and np.array_equal(gs.geom("cap").fromto, ms.geom("cap").fromto)
    # written nested in the frames and read back alike by both engines
    xml = gm.to_xml()
    assert '<frame name="f2">' in xml.split('<frame name="f">')[1]
    g2, m2 = gauss.Model.from_xml_string(xml), mujoco.MjModel.from_xml_string(xml)
    assert compiled_errors(g2, m2) == [] and compiled_errors(g2, mm) == []


def test_frame_attach_body_writes_the_copy_in_the_frame_like_mujoco():
    def attach(mod):
        child = mujoco.MjSpec() if mod is mujoco else gauss.Spec()
        cb = child.worldbody.add_body(name="cb", pos=[0, 0, 1], quat=[0.8, 0, 0.6, 0])
        cb.add_joint()
        cb.add_geom(size=[0.1, 0, 0])
        s = mujoco.MjSpec() if mod is mujoco else gauss.Spec()
        b = s.worldbody.add_body(name="b")
        b.add_geom(size=[0.1, 0, 0])
        f = b.add_frame(name="f", pos=[1, 0, 0], quat=[0, 0, 0, 1])
        made = f.attach_body(cb, "p-", "")
        return s, made
    (ms, mb), (gs, gb) = attach(mujoco), attach(gauss)
    assert (gb.name, gb.frame.name, [f.name for f in gs.frames]) == \
        (mb.name, mb.frame.name, [f.name for f in ms.frames])
    mm, gm = ms.compile(), gs.compile()
    assert compiled_errors(gm, mm) == []
    xml = gm.to_xml()
    assert compiled_errors(gauss.Model.from_xml_string(xml), mujoco.MjModel.from_xml_string(xml)) == []


def test_a_frame_of_another_body_is_refused_like_mujoco():
    def make(mod):
        s = mujoco.MjSpec() if mod is mujoco else gauss.Spec()
        f = s.worldbody.add_body(name="a").add_frame(name="f")
        g = s.worldbody.add_body(name="o").add_geom(size=[0.1, 0, 0])
        return s, g, f
    ms, mg, mf = make(mujoco)
    with pytest.raises(ValueError, match="mismatched parents"):
        mg.set_frame(mf)
    gs, gg, gf = make(gauss)
    with pytest.raises(gauss.SpecError, match="not one of body 'o'"):
        gg.set_frame(gf)
    assert gg.frame is None and gs.compile().ngeom == 1


FROMTO_CASES = [  # (geom type, in a frame, pos written before or after the fromto, pos)
    (t, framed, order, pos) for t in ("capsule", "box", "sphere") for framed in (False, True)
    for order in ("before", "after") for pos in ([0, 0, 0], [1, 2, 3])]


@pytest.mark.parametrize("typ,framed,order,pos", FROMTO_CASES)
def test_fromto_beside_pos_and_on_other_types_like_mujoco(typ, framed, order, pos):
    """MuJoCo refuses a nonzero pos beside a fromto, and a fromto on a type it does not give the pose
    of, in a frame or not; a zero pos is not given. gauss refuses the same (the frame cases when
    the second is written, MuJoCo's at compile) and compiles the rest to MuJoCo's arrays."""
    def run(mod):
        s = mujoco.MjSpec() if mod is mujoco else gauss.Spec()
        b = s.worldbody.add_body()
        b.add_joint()
        f = b.add_frame(pos=[1, 0, 0], quat=[0, 0, 0.6, 0.8])
        kind = getattr(mujoco.mjtGeom, "mjGEOM_" + typ.upper()) if mod is mujoco else typ
        g = b.add_geom(type=kind, size=[0.1, 0.1, 0.1])
        if framed:
            g.set_frame(f)
        steps = [("pos", pos), ("fromto", [0, 0, 0, 0.1, 0.2, 0.3])]
        for name, value in steps if order == "before" else steps[::-1]:
            setattr(g, name, value)
        return s.compile(), np.array(g.fromto)
    try:
        mm, mfromto = run(mujoco)
        merr = None
    except ValueError as e:
        merr = str(e)
    if merr is not None:
        with pytest.raises(gauss.SpecError) as e:
            run(gauss)
        want = "both pos and fromto" if "both pos" in merr else "fromto requires"
        assert want in str(e.value) and want in merr
        return
    gm, gfromto = run(gauss)
    assert compiled_errors(gm, mm) == [] and np.array_equal(gfromto, mfromto)


def test_fromto_beside_pos_in_mjcf_is_refused_like_mujoco():
    for where in ("{}", "<frame pos='1 0 0'>{}</frame>"):
        for pos, ok in (("0 0 0", True), ("0 0 .5", False)):
            geom = f"<geom type='capsule' size='.1' pos='{pos}' fromto='0 0 0 0 0 1'/>"
            xml = f"<mujoco><worldbody><body>{where.format(geom)}</body></worldbody></mujoco>"
            if ok:
                assert compiled_errors(gauss.Model.from_xml_string(xml), mujoco.MjModel.from_xml_string(xml)) == []
                continue
            with pytest.raises(ValueError, match="both pos and fromto"):
                mujoco.MjModel.from_xml_string(xml)
            with pytest.raises(Exception, match=r"<string>:1: <?geom>?: both pos and fromto defined"):
                gauss.Model.from_xml_string(xml)


@pytest.mark.parametrize("later", [False, True])
def test_frames_put_in_frames_like_mujoco(later):
    """frame.set_frame: the frame keeps its pose in its new enclosing frame and what it holds moves
    with it; the enclosing frame may come later in the body (gauss then lists the frame, with those
    it holds, after it: spec.frames' order differs from MuJoCo's there, the model does not)"""
    def make(mod):
        s = mujoco.MjSpec() if mod is mujoco else gauss.Spec()
        b = s.worldbody.add_body(name="b")
        b.add_joint()
        f1 = b.add_frame(name="f1", pos=[1, 0, 0], quat=[0, 0, 0, 1])
        f2 = b.add_frame(name="f2", pos=[0, 1, 0], quat=[0.8, 0.6, 0, 0])
        f3 = b.add_frame(f2, name="f3", pos=[0, 0, 1])
        b.add_geom(name="g", size=[0.1, 0, 0], pos=[0, 0, 0.5]).set_frame(f3)
        b.add_site(name="s", pos=[0, 0.3, 0]).set_frame(f1)
        c = b.add_body(name="c", pos=[0.2, 0, 0])
        c.add_geom(size=[0.1, 0, 0])
        c.set_frame(f2)
        if later:
            f1.set_frame(f3)
        else:
            f2.set_frame(f1)
        return s
    ms, gs = make(mujoco), make(gauss)
    mm, gm = ms.compile(), gs.compile()
    assert compiled_errors(gm, mm) == []
    assert sorted((f.name, f.frame.name if f.frame else "") for f in gs.frames) == \
        sorted((f.name, f.frame.name if f.frame else "") for f in ms.frames)
    xml = gm.to_xml()
    assert compiled_errors(gauss.Model.from_xml_string(xml), mujoco.MjModel.from_xml_string(xml)) == []
    # a frame put in itself or in one it holds: refused (MuJoCo 3.3.7 accepts it and compiles some
    # placement of the loop)
    with pytest.raises(gauss.SpecError, match="in itself or in a frame it holds"):
        gs.frame("f2").set_frame(gs.frame("f3"))
