"""RK4 with contacts off: the first three force evaluations of a step leave the geom frames out
where nothing reads them before the last evaluation computes them (src/pipeline/integrate.c,
geoms_unread). What a user reads after the step must not change, and whatever reads geom frames
inside an evaluation (a sensor of the first evaluation, fluid forces on geom ellipsoids, a tendon
wrapped around a geom) must still see this evaluation's frames. Each model below holds one such
reader; against MuJoCo 3.3.7 after a few steps (a stale frame in any evaluation moves the result
by ~1e-4 and more). No free or ball joint: there gauss's RK4 differs from MuJoCo's on purpose
(test_conformance.py, test_rk4_rotation_order)."""

import mujoco
import numpy as np
import pytest

import gauss
import oracle

BODY = """
    <body name="torso" pos="0 0 1">
      <joint name="x" type="slide" axis="1 0 0"/>
      <joint name="z" type="slide" axis="0 0 1"/>
      <joint name="pitch" type="hinge" axis="0 1 0"/>
      <geom name="core" type="capsule" fromto="-.1 0 0 .1 0 0" size=".05" {fluid}/>
      <site name="s0" pos=".1 0 0"/>
      <body name="arm" pos=".1 0 0" euler="0 20 0">
        <joint name="hinge1" type="hinge" axis="0 1 0" damping=".1"/>
        <geom name="upper" type="capsule" fromto="0 0 0 .3 0 0" size=".03"/>
        <geom name="pulley" type="cylinder" pos=".15 0 .01" size=".03 .02" euler="90 0 0"/>
        <body name="fore" pos=".3 0 0" euler="0 -30 0">
          <joint name="hinge2" type="hinge" axis="0 1 0"/>
          <geom name="lower" type="capsule" fromto="0 0 0 .25 0 0" size=".025" {fluid}/>
          <site name="s1" pos=".2 0 0"/>
        </body>
      </body>
    </body>
"""


def _xml(option="", fluid="", extra=""):
    return f"""<mujoco>
  <option integrator="RK4" timestep="0.005" {option}>
    <flag contact="disable"/>
  </option>
  <worldbody>
    <geom type="plane" size="3 3 .1"/>
{BODY.format(fluid=fluid)}
  </worldbody>
  <actuator>
    <motor joint="hinge1" gear="2"/>
    <motor joint="hinge2"/>
  </actuator>
  {extra}
</mujoco>"""


MODELS = {
    # nothing reads the geom frames: the first three evaluations leave them out
    "plain": _xml(),
    # a sensor of a geom frame, read by the first evaluation
    "sensor": _xml(extra="""<sensor>
    <framepos objtype="geom" objname="lower"/>
    <framequat objtype="geom" objname="upper"/>
  </sensor>"""),
    # fluid forces on the geoms' equivalent ellipsoids, every evaluation
    "fluid": _xml(option='density="1000" viscosity="0.01"', fluid='fluidshape="ellipsoid"'),
    # a spatial tendon wrapped around a cylinder geom, every evaluation
    "wrap": _xml(extra="""<tendon>
    <spatial name="t" stiffness="200" springlength=".2" damping="1">
      <site site="s0"/>
      <geom geom="pulley"/>
      <site site="s1"/>
    </spatial>
  </tendon>"""),
}


@pytest.mark.parametrize("name", sorted(MODELS))
def test_rk4_contacts_off_frames_like_mujoco(name):
    xml = MODELS[name]
    mjm, gm = mujoco.MjModel.from_xml_string(xml), gauss.Model.from_xml_string(xml)
    mjd, gd = mujoco.MjData(mjm), gauss.Data(gm)
    ctrl = np.array([0.7, -0.4])
    mjd.ctrl[:] = ctrl
    gd.ctrl[:] = ctrl
    mjd.qvel[:] = gd.qvel[:] = np.linspace(-1, 1, gm.nv)
    errors = []
    for _ in range(30):
        mujoco.mj_step(mjm, mjd)
        gauss.step(gm, gd)
    for f in ["qpos", "qvel", "qacc", "xpos", "xmat", "geom_xpos", "geom_xmat", "site_xpos",
              "sensordata", "ten_length"]:
        a, b = np.asarray(getattr(gd, f)), np.asarray(getattr(mjd, f))
        if b.size:
            oracle.check_close(errors, f, a, b, 1e-9)
    oracle.assert_no_errors(errors, name)
    # the geom frames after the step are those of the body frames after it (the last evaluation's)
    for g in range(gm.ngeom):
        b = gm.geom_bodyid[g]
        R = np.asarray(gd.xmat[b]).reshape(3, 3)
        expect = np.asarray(gd.xpos[b]) + R @ np.asarray(gm.geom_pos[g])
        assert np.allclose(gd.geom_xpos[g], expect, rtol=0, atol=1e-12), (name, g)
