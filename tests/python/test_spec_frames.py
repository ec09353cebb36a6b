"""Frames through gauss.Spec against MuJoCo 3.3.7's MjSpec making the same edit: a frame's pose
edited after its contents are placed (they move with it, nested frames too), a fromto written
in a frame (taken in the frame), unnamed elements' names (""), and the frames of bodies that
fusestatic removes (dropped, what they held kept in the parent and written there)."""

import mujoco
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
