"""actuator_lengthrange computed at compile time (<compiler><lengthrange>) against MuJoCo 3.3.7's
compiled m.actuator_lengthrange, on models written here: muscles on limited hinges and slides, on
fixed and spatial tendons (wrapping cylinders with side sites, across two limited joints), a
muscle whose range only the geometry limits, the modes (none, muscle, muscleuser, all),
useexisting, uselimit, the simulation options (timestep, accel, timeconst, maxforce, inttotal,
interval), the integrators, equality constraints (kept on during the simulation) and the passive
forces, gravity, contacts and friction loss (all off during it); and the failures: a muscle that
nothing limits, or one that has not settled, is a compile error naming the actuator and its line.

Tolerance. The result is the extreme length over the last `interval` seconds of a damped
simulation that settles where the force along the moment meets the limits. MuJoCo certifies only
that the lengths in that interval spread over less than tolrange (5 %) of the range; both engines
simulate the same soft limits with the same time stepping, so they agree far closer than that: to
rounding in the ranges below, which the tolerance TOL = 1e-9 (relative to the range) leaves room
for across compilers. A settled length sits on the equilibrium of the limit's soft constraint,
so every digit compared is physics, not the last bit of a tie."""

import os

import gauss
import mujoco
import numpy as np
import pytest

TOL = 1e-9

# two limited hinges, spatial tendons wrapping the cylinders at both joints (with and without side
# sites), a fixed tendon, and a limited slide
ARM = """
<mujoco>
  <compiler angle="degree">{compiler}</compiler>
  <option timestep="0.005" {option}/>
  <default>
    <joint type="hinge" axis="0 0 1" limited="true" range="0 120" damping="0.1" {joint}/>
  </default>
  <worldbody>
    <site name="s0" pos="-0.15 0 0"/>
    <site name="x0" pos="0 -0.15 0"/>
    <geom name="floor" type="plane" size="1 1 0.1" pos="0 0 -0.5"/>
    <body name="upper">
      <joint name="shoulder"/>
      <geom name="upper" type="capsule" size="0.045" fromto="0 0 0 0.5 0 0"/>
      <geom name="shoulder" type="cylinder" size="0.1 0.05" mass="0" contype="0" conaffinity="0"/>
      <site name="s1" pos="0.15 0.06 0"/>
      <site name="s2" pos="0.15 -0.06 0"/>
      <site name="s3" pos="0.4 0.06 0"/>
      <site name="s4" pos="0.4 -0.06 0"/>
      <site name="s5" pos="0.25 0.1 0"/>
      <site name="x1" pos="0.5 -0.15 0"/>
      <body name="fore" pos="0.5 0 0">
        <joint name="elbow" frictionloss="0.3" stiffness="2"/>
        <geom name="fore" type="capsule" size="0.035" fromto="0 0 0 0.5 0 0"/>
        <geom name="elbow" type="cylinder" size="0.08 0.05" mass="0" contype="0" conaffinity="0"/>
        <site name="s7" pos="0.11 0.05 0"/>
        <site name="s8" pos="0.11 -0.05 0"/>
        <body name="slider" pos="0.5 0 0">
          <joint name="slide" type="slide" axis="1 0 0" range="-0.1 0.2"/>
          <geom type="box" size="0.03 0.03 0.03"/>
        </body>
      </body>
    </body>
  </worldbody>
  <tendon>
    <spatial name="SF"><site site="s0"/><geom geom="shoulder"/><site site="s1"/></spatial>
    <spatial name="SE"><site site="s0"/><geom geom="shoulder" sidesite="x0"/><site site="s2"/></spatial>
    <spatial name="EF"><site site="s3"/><geom geom="elbow"/><site site="s7"/></spatial>
    <spatial name="EE"><site site="s4"/><geom geom="elbow" sidesite="x1"/><site site="s8"/></spatial>
    <spatial name="BF"><site site="s0"/><geom geom="shoulder"/><site site="s5"/>
      <geom geom="elbow"/><site site="s7"/></spatial>
    <fixed name="FX"><joint joint="shoulder" coef="0.3"/><joint joint="elbow" coef="-0.2"/></fixed>
  </tendon>
  {extra}
  <actuator>
    <muscle name="SF" tendon="SF"/>
    <muscle name="SE" tendon="SE"/>
    <muscle name="EF" tendon="EF" gear="2"/>
    <muscle name="EE" tendon="EE"/>
    <muscle name="BF" tendon="BF"/>
    <muscle name="FX" tendon="FX"/>
    <muscle name="J" joint="elbow"/>
    <muscle name="S" joint="slide" gear="0.5"/>
    {actuators}
  </actuator>
</mujoco>"""


def arm(compiler="", option="", joint="", extra="", actuators=""):
    return ARM.format(compiler=compiler, option=option, joint=joint, extra=extra,
                      actuators=actuators)


def both(xml):
    return gauss.Model.from_xml_string(xml), mujoco.MjModel.from_xml_string(xml)


def assert_ranges(xml):
    gm, mm = both(xml)
    g, j = np.asarray(gm.actuator_lengthrange), mm.actuator_lengthrange
    scale = np.maximum(j[:, 1] - j[:, 0], 1e-12)[:, None]
    err = np.abs(g - j) / scale
    assert err.max(initial=0) <= TOL, (g, j)
    return g, j


def test_arm_muscles():
    g, j = assert_ranges(arm())
    # every muscle got a range, and the limits made it so (nonzero, ordered)
    assert np.all(j[:, 0] < j[:, 1])


@pytest.mark.parametrize("integrator", ["Euler", "RK4", "implicit", "implicitfast"])
def test_integrators(integrator):
    assert_ranges(arm(option=f'integrator="{integrator}"'))


@pytest.mark.parametrize("lr", [
    'timestep="0"',                                   # the model's timestep
    'timestep="0.02" inttotal="6" interval="1"',
    'accel="10" timeconst="0.5" inttotal="20"',
    'accel="40" maxforce="50" tolrange="1"',         # maxforce bounds the joint force's norm
    'maxforce="2"',
    'accel="5" timeconst="0.3" tolrange="1"',        # not settled, accepted by tolrange
])
def test_options(lr):
    assert_ranges(arm(compiler=f"<lengthrange {lr}/>"))


def test_not_settled_in_a_tendon():
    # slow and damped hard: the first muscle is still moving at the end, in both engines
    msg = compile_error(arm(compiler='<lengthrange accel="5" timeconst="0.3"/>'))
    assert "actuator 'SF'" in msg and "did not converge" in msg


def test_forces_off_during_the_simulation():
    # gravity (the arm hangs in the x-z plane: gravity pulls the hinges), stiff springs,
    # damping, friction loss and contacts do not move the result; passive forces of fluids neither
    xml = arm(option='gravity="0 -9.81 0" density="1000" viscosity="1" wind="0 3 0"',
              joint='stiffness="50" springref="30" frictionloss="1"')
    # gravity compensation as well (off with gravity), and the muscles' own forces (actuation off)
    xml = xml.replace('<body name="upper">', '<body name="upper" gravcomp="0.5">')
    g, j = assert_ranges(xml)
    assert np.array_equal(j, mujoco.MjModel.from_xml_string(arm()).actuator_lengthrange)


def test_equality_kept():
    # the elbow coupled to the shoulder by a joint equality: the ranges follow the coupling
    xml = arm(extra='<equality><joint joint1="elbow" joint2="shoulder" polycoef="0.1 0.5 0 0 0"/>'
                    '</equality>')
    g, j = assert_ranges(xml)
    free = mujoco.MjModel.from_xml_string(arm()).actuator_lengthrange
    assert not np.allclose(j, free)  # the coupling matters


def test_modes_and_existing():
    acts = ('<motor name="m" joint="shoulder"/>'
            '<general name="u" joint="elbow" gaintype="user" biastype="user"/>'
            '<muscle name="given" tendon="SF" lengthrange="0.1 0.2"/>')
    for mode in ("none", "muscle", "muscleuser", "all"):
        for existing in ("true", "false"):
            for limit in ("false",):  # uselimit: test_uselimit_*
                xml = arm(compiler=f'<lengthrange mode="{mode}" useexisting="{existing}" '
                                   f'uselimit="{limit}"/>', actuators=acts)
                g, j = assert_ranges(xml)
                # the given range is kept only where useexisting says so
                if existing == "true" or mode == "none":
                    assert tuple(j[-1]) == (0.1, 0.2)


# MuJoCo 3.3.7 looks the limited joint or tendon of actuator i up as actuator_trnid[i] instead of
# actuator_trnid[2 i]: right for the first actuator only (the second reads the first's unused
# -1 and simulates; the third copies the joint of the second). gauss copies the limits of each
# actuator's own joint or tendon, as documented; MuJoCo is compared on single actuators.
TWO = """
<mujoco>
  <compiler angle="radian"><lengthrange uselimit="true"/></compiler>
  <worldbody>
    <body>
      <joint name="j0" axis="0 1 0" range="-1 0.5"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05"/>
      <site name="a" pos="0.2 0 0.1"/>
      <body pos="0.5 0 0">
        <joint name="j1" axis="0 1 0" range="-0.3 0.2"/>
        <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05"/>
        <site name="b" pos="0.2 0 0.1"/>
      </body>
    </body>
  </worldbody>
  <tendon>
    <fixed name="f" range="-0.4 0.3"><joint joint="j0" coef="1"/><joint joint="j1" coef="-1"/></fixed>
    <spatial name="s" range="0.3 0.6"><site site="a"/><site site="b"/></spatial>
  </tendon>
  <actuator>{}</actuator>
</mujoco>"""


@pytest.mark.parametrize("act", ['<muscle joint="j1" gear="2"/>', '<muscle joint="j0"/>',
                                 '<muscle tendon="f" gear="3"/>', '<muscle tendon="s"/>',
                                 '<general joint="j1" gaintype="muscle" gainprm="0.75 1.05 -1 200 0.5 1.6 1.5 1.3 1.2"/>'])
def test_uselimit_single(act):
    g, j = assert_ranges(TWO.format(act))
    gm = gauss.Model.from_xml_string(TWO.format(act))
    # the limits as written, not scaled by the gear
    kind, name = act.split('"')[0].split()[-1][:-1], act.split('"')[1]
    want = gm.jnt_range[gm.joint(name).id] if kind == "joint" else gm.tendon_range[gm.tendon(name).id]
    assert tuple(g[0]) == tuple(want)


def test_uselimit_each_actuator_its_own_limits():
    acts = '<muscle joint="j1"/><muscle joint="j0"/><muscle tendon="s"/><muscle tendon="f"/>'
    gm = gauss.Model.from_xml_string(TWO.format(acts))
    g = gm.actuator_lengthrange
    assert tuple(g[0]) == (-0.3, 0.2) and tuple(g[1]) == (-1, 0.5)
    assert tuple(g[2]) == (0.3, 0.6) and tuple(g[3]) == (-0.4, 0.3)
    # MuJoCo's lookup (see above) differs from the second actuator on: recorded, not followed
    j = mujoco.MjModel.from_xml_string(TWO.format(acts)).actuator_lengthrange
    assert tuple(j[0]) == (-0.3, 0.2) and tuple(j[1]) != (-1, 0.5)


# a single hinge with a spatial tendon from the world to the link: nothing limits the joint, but
# the tendon's length is bounded by the circle its end describes
LINK = """
<mujoco>
  <compiler angle="radian">{compiler}</compiler>
  <worldbody>
    <site name="w" pos="-0.2 0 0.3"/>
    <body name="link">
      <joint name="hinge" axis="0 1 0" {joint}/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05"/>
      <site name="tip" pos="0.3 0 0.1"/>
    </body>
  </worldbody>
  <tendon><spatial name="t"><site site="w"/><site site="tip"/></spatial></tendon>
  <actuator>{actuators}</actuator>
</mujoco>"""


def link(compiler="", joint="", actuators='<muscle name="m" tendon="t"/>'):
    return LINK.format(compiler=compiler, joint=joint, actuators=actuators)


def test_geometry_limits_a_tendon():
    g, j = assert_ranges(link())
    # the extremes of |w - tip(q)| over a full turn, in closed form: the tip circles the joint
    # (radius r = |(0.3, 0.1)|) in the x-z plane, the site w sits at distance D from the joint
    r, D = np.hypot(0.3, 0.1), np.hypot(0.2, 0.3)
    assert abs(g[0, 0] - (D - r)) < 1e-3 and abs(g[0, 1] - (D + r)) < 1e-3


def test_soft_limit_equilibrium():
    # a hinge with a soft limit: the muscle presses it until the limit's force balances its own;
    # with solref (0.1, 1) the penetration is a0 (1 - imp) / (k imp^2), k = 1 / (dmax tc dr)^2
    g, j = assert_ranges(link(joint='range="-1 0.5" solreflimit="0.1 1"',
                              actuators='<muscle name="m" joint="hinge"/>'))
    imp, k = 0.95, 1 / (0.95 * 0.1) ** 2
    pen = 20 * (1 - imp) / (k * imp ** 2)
    assert abs(g[0, 0] - (-1 - pen)) < 1e-6 and abs(g[0, 1] - (0.5 + pen)) < 1e-6


def compile_error(xml):
    with pytest.raises(Exception) as exc:
        gauss.Model.from_xml_string(xml)
    with pytest.raises(Exception):
        mujoco.MjModel.from_xml_string(xml)  # MuJoCo refuses it as well
    return str(exc.value)


def test_unlimited_muscle_fails_with_its_name_and_line():
    xml = link(actuators='<motor joint="hinge"/>\n    <muscle name="free" joint="hinge"/>')
    msg = compile_error(xml)
    line = next(i for i, s in enumerate(xml.split("\n"), 1) if 'name="free"' in s)
    assert f":{line}:" in msg and "actuator 'free'" in msg and "did not converge" in msg


def test_unsettled_fails():
    # a strong limit but too little time to get there
    xml = link(compiler='<lengthrange inttotal="0.5" interval="0.4"/>',
               joint='range="-1 0.5"', actuators='<muscle name="slow" joint="hinge"/>')
    msg = compile_error(xml)
    assert "actuator 'slow'" in msg and "did not converge" in msg
    # a larger tolrange accepts what MuJoCo accepts
    xml = link(compiler='<lengthrange inttotal="3" interval="0.5" tolrange="0.9"/>',
               joint='range="-1 0.5"', actuators='<muscle name="slow" joint="hinge"/>')
    assert_ranges(xml)


def test_too_long_a_simulation_is_refused():
    with pytest.raises(gauss.GaussError, match="10\\^6"):
        gauss.Model.from_xml_string(link(compiler='<lengthrange inttotal="1e4" timestep="0.001"/>'))


def test_bad_options_are_errors():
    for bad in ('mode="some"', 'timeconst="0"', 'inttotal="-1"', 'tolrange="x"', 'accel="0"'):
        with pytest.raises(Exception, match="lengthrange"):
            gauss.Model.from_xml_string(link(compiler=f"<lengthrange {bad}/>"))


def test_saved_model_keeps_the_range(tmp_path):
    # the written model carries the computed ranges, which useexisting keeps on reload
    gm = gauss.Model.from_xml_string(arm())
    path = os.path.join(tmp_path, "arm.xml")
    gm.save_xml(path) if hasattr(gm, "save_xml") else gauss.save_xml(gm, path)
    again = gauss.Model.from_xml_path(path)
    assert np.array_equal(again.actuator_lengthrange, gm.actuator_lengthrange)


# the other transmissions, with mode="all"
TRANSMISSIONS = """
<mujoco>
  <compiler angle="radian"><lengthrange mode="all"/></compiler>
  <worldbody>
    <site name="w" pos="0 0 0.3"/>
    <body name="b">
      <joint name="j" axis="0 1 0" range="-1 0.5"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05"/>
      <site name="s" pos="0.4 0 0"/>
      <site name="crank" pos="0.2 0 0"/>
      <body pos="0.5 0 0">
        <joint name="j2" axis="0 1 0" range="-0.5 0.5"/>
        <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.04"/>
      </body>
    </body>
    <body name="sl" pos="0 0 -0.5">
      <joint type="slide" axis="1 0 0" range="-0.2 0.2"/>
      <geom size="0.05"/>
      <site name="slider"/>
    </body>
  </worldbody>
  <actuator>
    {}
  </actuator>
</mujoco>"""


@pytest.mark.parametrize("act", [
    '<general site="s" refsite="w" gear="0 0 1 0 0 0"/>',            # Cartesian, along z of w
    '<general site="s" refsite="w" gear="0 0 0 0 1 0"/>',            # a rotation about y of w
    '<general cranksite="crank" slidersite="slider" cranklength="0.6"/>',
    '<general jointinparent="j2" gear="1.5"/>',
    '<motor joint="j"/><position joint="j2" kp="1"/>',
])
def test_transmissions(act):
    assert_ranges(TRANSMISSIONS.format(act))


@pytest.mark.parametrize("act", ['<general name="a" site="s" gear="1 0 0 0 0 0"/>',
                                 '<adhesion name="a" body="b" ctrlrange="0 1"/>'])
def test_no_length_is_an_error(act):
    # a site without refsite, and a body transmission, have zero length whatever the motion
    msg = compile_error(TRANSMISSIONS.format(act))
    assert "actuator 'a'" in msg and "invalid length range (0, 0)" in msg
