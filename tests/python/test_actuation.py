"""Actuators against MuJoCo 3.3.7 and closed forms: transmissions (joint, jointinparent, tendon,
site with and without refsite, slider-crank, body), activation dynamics, gains and biases of every
type, the shortcuts, the force and control limits, the actuator force limits of joints and
tendons, disabled groups; the forward quantities at random states and controls, and rollouts
under every integrator.

Forward quantities are compared as max|gauss - mujoco| / max(1, max|mujoco|) <= 1e-8 (the two
engines factor M differently, which moves qacc in the last digits); rollouts of 100 steps to
1e-6 in qpos, qvel and act."""

import re

import mujoco
import numpy as np
import pytest

import gauss
import oracle

FWD_TOL = 1e-8
ROLL_TOL = 1e-6
INTEGRATORS = ["Euler", "implicit", "implicitfast", "RK4"]


def load(xml):
    return gauss.Model.from_xml_string(xml), mujoco.MjModel.from_xml_string(xml)


def random_controls(mm, rng, spread=1.5):
    """controls around each actuator's range (beyond it by `spread`, so that clamping is
    exercised), normal(0, 1) where the range is not limited"""
    ctrl = rng.normal(size=mm.nu)
    for i in range(mm.nu):
        lo, hi = mm.actuator_ctrlrange[i]
        if mm.actuator_ctrllimited[i]:
            mid, half = 0.5 * (lo + hi), 0.5 * (hi - lo) * spread
            ctrl[i] = rng.uniform(mid - half, mid + half)
    return ctrl


def random_act(mm, rng):
    act = rng.uniform(0.05, 0.95, size=mm.na)
    for i in range(mm.nu):
        adr, n = mm.actuator_actadr[i], mm.actuator_actnum[i]
        if adr >= 0 and mm.actuator_actlimited[i]:
            lo, hi = mm.actuator_actrange[i]
            act[adr:adr + n] = rng.uniform(lo, hi, size=n)
    return act


def set_state(mm, md, gd, rng, scale=0.5):
    qpos, qvel = oracle.random_state(mm, rng, scale)
    md.qpos[:], md.qvel[:] = qpos, qvel * scale
    md.act[:] = random_act(mm, rng)
    md.ctrl[:] = random_controls(mm, rng)
    gd.qpos[:], gd.qvel[:], gd.act[:], gd.ctrl[:] = md.qpos, md.qvel, md.act, md.ctrl


def forward_errors(gm, mm, gd, md, tol=FWD_TOL):
    mujoco.mj_forward(mm, md)
    gauss.forward(gm, gd)
    errors = []
    gmom, mmom = oracle.dense_moment(gm, gd), oracle.dense_moment(mm, md)
    for name, a, b in (("actuator_length", gd.actuator_length, md.actuator_length),
                       ("actuator_moment", gmom, mmom),
                       ("actuator_velocity", gd.actuator_velocity, md.actuator_velocity),
                       ("ten_velocity", gd.ten_velocity, md.ten_velocity),
                       ("act_dot", gd.act_dot, md.act_dot),
                       ("actuator_force", gd.actuator_force, md.actuator_force),
                       ("qfrc_actuator", gd.qfrc_actuator, md.qfrc_actuator),
                       ("qacc", gd.qacc, md.qacc)):
        oracle.check_close(errors, name, a, b, tol)
    return errors


def compare_forward(xml, nstate=5, seed=0, tol=FWD_TOL):
    gm, mm = load(xml)
    gd, md = gauss.Data(gm), mujoco.MjData(mm)
    rng = np.random.default_rng(seed)
    for s in range(nstate):
        set_state(mm, md, gd, rng)
        errors = forward_errors(gm, mm, gd, md, tol)
        oracle.assert_no_errors(errors, f"state {s}: ")
    return gm, mm


def compare_rollout(xml, integrator, nstep=100, seed=1, tol=ROLL_TOL, at_rest=False, ctrl=None):
    """nstep steps of both engines with fixed random controls, from a random state (at_rest: from
    qpos0 at rest); returns MuJoCo's data"""
    xml = re.sub(r"(<mujoco[^>]*>)", rf'\1<option integrator="{integrator}"/>', xml, count=1)
    gm, mm = load(xml)
    assert mm.opt.integrator == ["Euler", "RK4", "implicit", "implicitfast"].index(integrator)
    gd, md = gauss.Data(gm), mujoco.MjData(mm)
    rng = np.random.default_rng(seed)
    set_state(mm, md, gd, rng, scale=0.2)
    if at_rest:
        md.qpos[:], md.qvel[:] = mm.qpos0, 0
        gd.qpos[:], gd.qvel[:] = md.qpos, md.qvel
    if ctrl is not None:
        md.ctrl[:] = gd.ctrl[:] = ctrl
    for _ in range(nstep):
        mujoco.mj_step(mm, md)
        gauss.step(gm, gd)
    errors = []
    oracle.check_close(errors, "qpos", gd.qpos, md.qpos, tol)
    oracle.check_close(errors, "qvel", gd.qvel, md.qvel, tol)
    oracle.check_close(errors, "act", gd.act, md.act, tol)
    oracle.assert_no_errors(errors, f"{integrator}: ")
    return md


# ---- small models: a chain of hinge, slide and ball joints with sites, a world site, a plane ----

def chain(actuators, tendons="", option="", extra_body="", ball=True):
    return f"""<mujoco>
  <option timestep="0.004" {option}/>
  <worldbody>
    <geom name="floor" type="plane" size="3 3 .1" pos="0 0 -2"/>
    <site name="w0" pos=".4 .2 .3" euler="10 20 30"/>
    <body name="a" pos="0 0 .5">
      <joint name="hinge" type="hinge" axis="0 1 0" damping=".1" range="-90 90"/>
      <geom type="capsule" size=".05" fromto="0 0 0 0 0 -.6" mass="1"/>
      <site name="sa" pos=".1 .05 -.3" euler="0 30 0"/>
      <body name="b" pos="0 0 -.6">
        <joint name="slide" type="slide" axis="1 0 0" range="-.4 .4"/>
        <geom size=".06" mass=".5"/>
        <site name="sb" pos=".2 -.1 -.05" euler="20 0 10"/>
        <body name="c" pos=".2 0 -.2">
          <joint name="ball" {'type="ball"' if ball else 'type="hinge" axis="1 0 0"'}/>
          <geom type="capsule" size=".04" fromto="0 0 0 .3 0 -.1" mass=".4"/>
          <site name="sc" pos=".3 0 -.1" euler="30 0 0"/>
        </body>
      </body>
    </body>
    {extra_body}
  </worldbody>
  {tendons}
  <actuator>{actuators}</actuator>
</mujoco>"""


FIXED = '<tendon><fixed name="t"><joint joint="hinge" coef="1.5"/><joint joint="slide" coef="-.7"/></fixed></tendon>'
SPATIAL = '<tendon><spatial name="st"><site site="w0"/><site site="sb"/><site site="sc"/></spatial></tendon>'

SHORTCUTS = {
    "motor": '<motor joint="hinge" gear="2" ctrlrange="-1 1"/>',
    "position": '<position joint="hinge" kp="20" kv="1"/>',
    "position-dampratio": '<position joint="slide" kp="30" dampratio=".8"/>',
    "position-timeconst": '<position joint="hinge" kp="10" dampratio="1" timeconst=".05"/>',
    "velocity": '<velocity joint="slide" kv="3"/>',
    "intvelocity": '<intvelocity joint="hinge" kp="5" kv=".5" actrange="-.5 .5"/>',
    "damper": '<damper joint="hinge" kv="2" ctrlrange="0 1"/>',
    "cylinder": '<cylinder joint="slide" timeconst=".1" diameter=".2" bias="1 2 3"/>',
    "muscle": '<muscle joint="hinge" lengthrange="-1.5 1.5" force="20" tausmooth=".2"/>',
    "muscle-scale": '<muscle joint="hinge" lengthrange="-1.5 1.5" scale="50"/>',
    "adhesion": '<adhesion body="c" gain="3" ctrlrange="0 1"/>',
}

TRANSMISSIONS = {
    "joint-hinge": '<motor joint="hinge" gear="1.5"/>',
    "joint-slide": '<motor joint="slide" gear="-2"/>',
    "joint-ball": '<motor joint="ball" gear="1 -2 .5"/>',
    "jointinparent-ball": '<motor jointinparent="ball" gear="1 -2 .5"/>',
    "tendon-fixed": '<motor tendon="t" gear="2"/>',
    "tendon-spatial": '<motor tendon="st" gear="1.5"/>',
    "site": '<motor site="sc" gear="1 2 3 .4 .5 .6"/>',
    "site-refsite": '<position site="sc" refsite="sa" gear="1 2 3 .4 .5 .6" kp="3" kv=".2"/>',
    "slider-crank": '<motor cranksite="sc" slidersite="sa" cranklength=".5" gear="2"/>',
    "body": '<adhesion body="c" gain="3" ctrlrange="0 1"/>',
}

DYNAMICS = {
    "none-fixed-none": '<general joint="hinge" gainprm="2"/>',
    "integrator-affine-affine": '<general joint="hinge" dyntype="integrator" gaintype="affine" gainprm="2 .5 .3" biastype="affine" biasprm=".1 -1 -.4"/>',
    "filter": '<general joint="slide" dyntype="filter" dynprm=".05" gainprm="3"/>',
    "filterexact": '<general joint="slide" dyntype="filterexact" dynprm=".05" gainprm="3" biastype="affine" biasprm="0 -2 -.5"/>',
    "actearly": '<general joint="hinge" dyntype="filterexact" dynprm=".02" actearly="true" gaintype="affine" gainprm="3 0 -.2" biastype="affine" biasprm="0 -5 -1"/>',
    "muscle-dyn-fixed": '<general joint="hinge" dyntype="muscle" dynprm=".01 .04 .1" gainprm="4"/>',
    "actlimited": '<general joint="hinge" dyntype="integrator" actlimited="true" actrange="-.3 .3" gainprm="5"/>',
    "forcelimited": '<general joint="hinge" gainprm="10" biastype="affine" biasprm="0 -10 -2" forcelimited="true" forcerange="-1 1"/>',
    # always clamped: the implicit integrators keep the damping kv all the same, as MuJoCo's do
    "clamped-servo": '<position joint="hinge" kp="50" kv="10" forcelimited="true" forcerange="-.01 .01"/>',
    "gear-tendon-limited": '<general tendon="t" gainprm="4" biastype="affine" biasprm="0 -3 -1"/><motor tendon="t" gear="2"/>',
}


def model_for(name, acts, ball=True):
    tendons = ""
    if 'tendon="t"' in acts:
        tendons = FIXED
    if 'tendon="st"' in acts:
        tendons = SPATIAL
    return chain(acts, tendons, ball=ball)


ALL = {**{"shortcut-" + k: v for k, v in SHORTCUTS.items()},
       **{"trn-" + k: v for k, v in TRANSMISSIONS.items()},
       **{"dyn-" + k: v for k, v in DYNAMICS.items()}}


@pytest.mark.parametrize("name", sorted(ALL))
def test_forward_small(name):
    compare_forward(model_for(name, ALL[name]), nstate=6)


@pytest.mark.parametrize("integrator", INTEGRATORS)
@pytest.mark.parametrize("name", sorted(ALL))
def test_rollout_small(name, integrator):
    # gauss's RK4 moves ball joints along the Munthe-Kaas corrected rates (fourth order on SO(3)),
    # MuJoCo's along the raw angular velocities: RK4 rollouts use a hinge in place of the ball
    compare_rollout(model_for(name, ALL[name], ball=integrator != "RK4"), integrator)


# ---- adhesion through contacts: a box resting on the floor, a sphere on a hinged arm touching it ----

ADHESION = """<mujoco>
  <option timestep="0.002"/>
  <worldbody>
    <geom name="floor" type="plane" size="3 3 .1"/>
    <body name="box" pos=".1 .2 .099"><freejoint/>
      <geom type="box" size=".1 .15 .1" margin=".01"/>
      <geom type="sphere" size=".05" pos=".3 0 -.02"/>
    </body>
    <body name="arm" pos="-.5 0 .6">
      <joint name="arm" type="hinge" axis="0 1 0"/>
      <geom type="capsule" size=".04" fromto="0 0 0 .3 0 -.3"/>
      <body name="tip" pos=".3 0 -.3"><joint type="slide" axis="0 0 1"/>
        <geom name="tip" type="sphere" size=".08" pos="0 0 -.1"/></body>
    </body>
  </worldbody>
  <actuator>
    <adhesion body="box" gain="20" ctrlrange="0 1"/>
    <adhesion body="tip" gain="5" ctrlrange="0 1"/>
    <motor joint="arm" gear="3" ctrlrange="-1 1"/>
  </actuator>
</mujoco>"""


def test_adhesion_through_contacts():
    gm, mm = load(ADHESION)
    gd, md = gauss.Data(gm), mujoco.MjData(mm)
    rng = np.random.default_rng(5)
    nmoving = 0
    for s in range(8):
        # small tilts of the box keep it touching the floor with a changing set of contacts
        md.qpos[:] = mm.qpos0
        md.qpos[3:7] = oracle.random_unit_quat(rng) * 0.05 + np.array([1, 0, 0, 0])
        md.qpos[3:7] /= np.linalg.norm(md.qpos[3:7])
        md.qpos[7:] = rng.normal(size=2) * 0.1
        md.qvel[:] = rng.normal(size=mm.nv) * 0.3
        md.ctrl[:] = random_controls(mm, rng)
        gd.qpos[:], gd.qvel[:], gd.ctrl[:] = md.qpos, md.qvel, md.ctrl
        oracle.assert_no_errors(forward_errors(gm, mm, gd, md), f"state {s}: ")
        nmoving += md.ncon > 0 and np.any(md.actuator_moment != 0)
    assert nmoving >= 4  # the moments were not all empty


def test_adhesion_rollout():
    # 200 steps: the box settles and the adhesion pulls it onto the floor through its contacts
    for integrator in ("Euler", "implicitfast"):
        md = compare_rollout(ADHESION, integrator, nstep=200, at_rest=True, ctrl=[0.7, 0.4, 0.3])
        assert md.ncon > 0 and md.actuator_force[0] > 0



def test_adhesion_across_the_gap():
    # a sphere 5 mm into the floor, within its 1 cm gap (active only below margin - gap): the
    # contact makes no constraint row but the adhesion pulls through it, as in MuJoCo's
    # model/adhesion/active_adhesion.xml
    xml = """<mujoco><worldbody><geom type="plane" size="1 1 .1"/>
      <body name="s" pos="0 0 .045"><freejoint/><geom type="sphere" size=".05" gap=".01"/></body>
      </worldbody><actuator><adhesion body="s" gain="5" ctrlrange="0 1"/></actuator></mujoco>"""
    gm, mm = load(xml)
    gd, md = gauss.Data(gm), mujoco.MjData(mm)
    md.ctrl[:] = gd.ctrl[:] = 0.8
    oracle.assert_no_errors(forward_errors(gm, mm, gd, md))
    assert md.ncon == 1 and md.nefc == 0 and md.qfrc_actuator[2] < 0

# ---- limits, disabled groups, flags ----

LIMITS = chain("""
    <motor name="m0" joint="hinge" gear="2" ctrlrange="-1 1"/>
    <general name="g1" joint="hinge" group="2" dyntype="integrator" gainprm="3" actrange="-1 1"/>
    <general name="g2" tendon="t" gear="1.7" dyntype="filter" dynprm=".1" gaintype="affine"
             gainprm="1 .5 .2" biastype="affine" biasprm=".1 -1 -.3"/>
    <general name="g3" tendon="t" gear="-.6" gainprm="3" group="4"/>
    <motor name="m4" joint="slide" gear="3"/>
    <position name="p5" joint="slide" kp="40" kv="3" forcerange="-2 2" group="1"/>""",
    FIXED.replace('<fixed name="t">',
                  '<fixed name="t" actuatorfrclimited="true" actuatorfrcrange="-1 1.2">'))
LIMITS = LIMITS.replace('<joint name="slide" type="slide"',
                        '<joint name="slide" type="slide" actuatorfrcrange="-.5 1.5"')


def test_limits_forward_and_rollout():
    gm, mm = compare_forward(LIMITS, nstate=10, seed=7)
    assert list(gm.jnt_actfrclimited) == list(mm.jnt_actfrclimited) == [0, 1, 0]
    assert np.array_equal(gm.jnt_actfrcrange, mm.jnt_actfrcrange)
    for integrator in INTEGRATORS:
        compare_rollout(LIMITS.replace('type="ball"', 'type="hinge"'), integrator, seed=8)


def test_tendon_actuator_force_limit_scales_the_forces():
    # the sum of the forces of the actuators on the tendon is brought into its range by one factor
    gm = gauss.Model.from_xml_string(LIMITS)
    gd = gauss.Data(gm)
    gd.ctrl[:] = [0, 0, 0, 1, 0, 0]
    gd.act[:] = [0, 0.9]
    gm.opt.actuatorgroupdisable = 0
    gauss.forward(gm, gd)
    f = np.array(gd.actuator_force)
    # unlimited at qpos0, at rest: g2 = 1 * 0.9 + 0.1 = 1, g3 = 3 * 1: their sum 4 is scaled to 1.2
    assert f[2] == pytest.approx(1 * 1.2 / 4, rel=1e-12)
    assert f[3] == pytest.approx(3 * 1.2 / 4, rel=1e-12)
    # within the range: unscaled
    gd.ctrl[3] = 0
    gauss.forward(gm, gd)
    assert gd.actuator_force[2] == pytest.approx(1, rel=1e-12) and gd.actuator_force[3] == 0


def test_joint_actuator_force_limit():
    gm = gauss.Model.from_xml_string(LIMITS)
    gd = gauss.Data(gm)
    gd.ctrl[:] = [0, 0, 0, 0, 2, 0]       # m4 alone on the slide: 6 N clamped to 1.5
    gm.opt.actuatorgroupdisable = 1 << 1  # p5 off
    gauss.forward(gm, gd)
    assert gd.actuator_force[4] == 2   # the gear is in the moment: 6 on the joint
    assert gd.qfrc_actuator[1] == 1.5
    gd.ctrl[4] = -2
    gauss.forward(gm, gd)
    assert gd.qfrc_actuator[1] == -0.5


def test_group_disable_option():
    xml = LIMITS.replace("<mujoco>", '<mujoco><option actuatorgroupdisable="1 4"/>', 1)
    gm, mm = compare_forward(xml, nstate=4, seed=9)
    assert gm.opt.actuatorgroupdisable == mm.opt.disableactuator == (1 << 1) | (1 << 4)
    gd = gauss.Data(gm)
    gd.ctrl[:] = 1
    gauss.forward(gm, gd)
    assert gd.actuator_force[3] == 0 and gd.actuator_force[5] == 0
    # the states of a disabled actuator are not integrated (g1: group 2)
    gm.opt.actuatorgroupdisable = 1 << 2
    gd.act[:] = [0.3, 0.2]
    gauss.step(gm, gd)
    assert gd.act[0] == 0.3 and gd.act[1] != 0.2
    for integrator in INTEGRATORS:
        compare_rollout(xml.replace('type="ball"', 'type="hinge"'), integrator, seed=10)
    # with g1's group off too: its activation stays under every integrator, in both engines
    xml = LIMITS.replace("<mujoco>", '<mujoco><option actuatorgroupdisable="1 2 4"/>', 1)
    for integrator in INTEGRATORS:
        hinge = xml.replace('type="ball"', 'type="hinge"')
        md = compare_rollout(hinge, integrator, seed=10)
        # MuJoCo kept it (one more step leaves it), and gauss's equals MuJoCo's
        act0 = md.act[0]
        mujoco.mj_step(mujoco.MjModel.from_xml_string(hinge), md)
        assert md.act[0] == act0 and md.act[1] != 0


def test_group_disable_round_trip():
    xml = LIMITS.replace("<mujoco>", '<mujoco><option actuatorgroupdisable="0 3 30"/>', 1)
    gm = gauss.Model.from_xml_string(xml)
    assert gm.opt.actuatorgroupdisable == (1 << 0) | (1 << 3) | (1 << 30)
    text = gm.to_xml()
    assert 'actuatorgroupdisable="0 3 30"' in text
    assert gauss.Model.from_xml_string(text).opt.actuatorgroupdisable == gm.opt.actuatorgroupdisable
    with pytest.raises(Exception, match="0 to 30"):
        gauss.Model.from_xml_string(LIMITS.replace("<mujoco>", '<mujoco><option actuatorgroupdisable="31"/>', 1))


def test_ctrl_clamped_to_range():
    gm, mm = load(LIMITS)
    gd, md = gauss.Data(gm), mujoco.MjData(mm)
    gd.ctrl[:] = md.ctrl[:] = [5, 0, 0, 0, 0, 0]
    oracle.assert_no_errors(forward_errors(gm, mm, gd, md))
    assert gd.actuator_force[0] == 1  # gain 1, ctrl 5 clamped to 1
    assert gd.ctrl[0] == 5  # the user's control stays as written
    # clamping off: the control as written
    gm.opt.disableflags |= gauss.DSBL_CLAMPCTRL
    mm.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_CLAMPCTRL
    oracle.assert_no_errors(forward_errors(gm, mm, gd, md))
    assert gd.actuator_force[0] == 5


def test_bad_ctrl_warns_and_zeroes_all_controls():
    gm, mm = load(LIMITS)
    gd, md = gauss.Data(gm), mujoco.MjData(mm)
    rng = np.random.default_rng(11)
    set_state(mm, md, gd, rng)
    gd.ctrl[2] = md.ctrl[2] = np.nan
    oracle.assert_no_errors(forward_errors(gm, mm, gd, md))
    assert gd.warning[gauss.WARN_BADCTRL].number == 1
    assert md.warning[mujoco.mjtWarning.mjWARN_BADCTRL].number == 1
    # the same forces as with every control 0
    f_bad = np.array(gd.actuator_force)
    gd.ctrl[:] = 0
    gauss.forward(gm, gd)
    assert np.array_equal(f_bad, gd.actuator_force)


def test_actuation_disabled():
    gm, mm = load(LIMITS)
    gm.opt.disableflags |= gauss.DSBL_ACTUATION
    mm.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_ACTUATION
    gd, md = gauss.Data(gm), mujoco.MjData(mm)
    set_state(mm, md, gd, np.random.default_rng(12))
    errors = forward_errors(gm, mm, gd, md)
    oracle.assert_no_errors([e for e in errors if not e.startswith("act_dot")])
    assert not np.any(gd.actuator_force) and not np.any(gd.qfrc_actuator)
    act = np.array(gd.act)
    gauss.step(gm, gd)
    mujoco.mj_step(mm, md)
    assert np.array_equal(gd.act, act) and np.array_equal(md.act, act)


# ---- closed forms ----

def slider(actuator, timestep=0.001, integrator="Euler", mass=2.0):
    return f"""<mujoco>
  <option timestep="{timestep}" integrator="{integrator}" gravity="0 0 0"/>
  <worldbody>
    <body><joint name="x" type="slide" axis="1 0 0"/>
      <geom type="sphere" size=".1" mass="{mass}" contype="0" conaffinity="0"/></body>
  </worldbody>
  <actuator>{actuator}</actuator>
</mujoco>"""


@pytest.mark.parametrize("dyntype", ["filter", "filterexact"])
def test_filter_step_response(dyntype):
    # a unit step of the control: act_n = 1 - (1 - h / tau)^n for the explicit filter, and
    # 1 - exp(-n h / tau) for the exact one
    tau, h = 0.05, 0.001
    gm = gauss.Model.from_xml_string(slider(f'<general joint="x" dyntype="{dyntype}" dynprm="{tau}"/>', h))
    gd = gauss.Data(gm)
    gd.ctrl[0] = 1
    for n in range(1, 201):
        gauss.step(gm, gd)
        exact = 1 - ((1 - h / tau) ** n if dyntype == "filter" else np.exp(-n * h / tau))
        assert gd.act[0] == pytest.approx(exact, abs=1e-13), n
    # the force follows the activation with gain 1
    gauss.forward(gm, gd)
    assert gd.actuator_force[0] == gd.act[0]


def test_position_servo_critically_damped():
    # dampratio 1: kv = 2 sqrt(kp m), and x(t) = x0 (1 + w t) exp(-w t) with w = sqrt(kp / m)
    kp, mass = 50.0, 2.0
    gm = gauss.Model.from_xml_string(
        slider(f'<position joint="x" kp="{kp}" dampratio="1"/>', 0.0005, "RK4", mass))
    assert gm.actuator_biasprm[0, 2] == pytest.approx(-2 * np.sqrt(kp * mass), rel=1e-14)
    gd = gauss.Data(gm)
    gd.qpos[0], gd.ctrl[0] = 0.3, 0.0
    w = np.sqrt(kp / mass)
    for n in range(1, 2001):
        gauss.step(gm, gd)
        t = n * 0.0005
        assert gd.qpos[0] == pytest.approx(0.3 * (1 + w * t) * np.exp(-w * t), abs=1e-10), t
    # never overshoots the target
    assert gd.qpos[0] > 0


def test_muscle_isometric_force_on_its_curves():
    # range .75 1.05 and lengthrange 0 .3 give L0 = 1: the normalized length is .75 + qpos; the
    # peak force is given. At rest (V = 0, FV = 1) the force is -F0 (act FL(L) + FP(L)).
    F0, lmin, lmax, fpmax = 30.0, 0.5, 1.6, 1.3
    gm = gauss.Model.from_xml_string(slider(
        f'<muscle joint="x" lengthrange="0 .3" force="{F0}" lmin="{lmin}" lmax="{lmax}" '
        f'fpmax="{fpmax}"/>'))
    gd = gauss.Data(gm)
    a, b = 0.5 * (lmin + 1), 0.5 * (1 + lmax)
    # points of the curves: FL(lmin) = FL(lmax) = 0, FL(a) = FL(b) = 1/2, FL(1) = 1;
    # FP(L <= 1) = 0, FP(b) = fpmax / 2, then linear with slope fpmax / (b - 1)
    points = [(lmin, 0, 0), (a, 0.5, 0), (1.0, 1, 0), (b, 0.5, fpmax / 2), (lmax, 0, fpmax * (0.5 + (lmax - b) / (b - 1)))]
    for L, fl, fp in points:
        for act in (0.0, 0.4, 1.0):
            gd.qpos[0], gd.qvel[0], gd.act[0] = L - 0.75, 0, act
            gauss.forward(gm, gd)
            assert gd.actuator_force[0] == pytest.approx(-F0 * (act * fl + fp), abs=1e-12), (L, act)
    # shortening at vmax (V = -1) leaves only the passive force
    gd.qpos[0], gd.qvel[0], gd.act[0] = 1.0 - 0.75, -1.5, 1.0  # vmax 1.5 times L0 = 1
    gauss.forward(gm, gd)
    assert gd.actuator_force[0] == pytest.approx(0, abs=1e-12)


# ---- random actuated models ----

def random_model(rng, ball=True):
    """a random tree of 3 to 6 bodies (hinge, slide or ball joints, a site on each), a fixed and a
    spatial tendon, and 4 to 8 random actuators of random kinds"""
    nbody = int(rng.integers(3, 7))
    joints, sites, bodies = [], [], []
    body_xml = {}
    parents = [-1] + [int(rng.integers(0, b)) for b in range(1, nbody)]
    for b in range(nbody):
        kinds = ["hinge", "slide"] + (["ball"] if ball else [])
        t = kinds[int(rng.integers(len(kinds)))]
        axis = " ".join(f"{x:.3f}" for x in rng.normal(size=3))
        pos = " ".join(f"{x:.3f}" for x in rng.uniform(-.3, .3, size=3))
        spos = " ".join(f"{x:.3f}" for x in rng.uniform(-.2, .2, size=3))
        euler = " ".join(f"{x:.1f}" for x in rng.uniform(-60, 60, size=3))
        body_xml[b] = (f'<body name="b{b}" pos="{pos}"><joint name="j{b}" type="{t}" axis="{axis}" '
                       f'damping="{rng.uniform(0, .2):.3f}"/>'
                       f'<geom type="capsule" size=".04" fromto="0 0 0 {pos}" mass="{rng.uniform(.3, 1.5):.3f}" '
                       f'contype="0" conaffinity="0"/><site name="s{b}" pos="{spos}" euler="{euler}"/>')
        joints.append((f"j{b}", t))
        sites.append(f"s{b}")
        bodies.append(f"b{b}")

    def emit(b):
        return body_xml[b] + "".join(emit(c) for c in range(nbody) if parents[c] == b) + "</body>"

    scalar = [j for j, t in joints if t != "ball"] or [None]
    tendons = ""
    if scalar[0]:
        coefs = "".join(f'<joint joint="{j}" coef="{rng.uniform(-2, 2):.3f}"/>' for j in scalar[:3])
        tendons += f'<fixed name="t">{coefs}</fixed>'
    tendons += f'<spatial name="st"><site site="w"/><site site="{sites[-1]}"/><site site="{sites[1]}"/></spatial>'

    def r(lo, hi):
        return f"{rng.uniform(lo, hi):.3f}"

    acts = []
    for _ in range(int(rng.integers(4, 9))):
        j, t = joints[int(rng.integers(nbody))]
        target = f'joint="{j}"'
        choice = int(rng.integers(9))
        if choice == 0 and scalar[0]:
            target = 'tendon="t"'
        elif choice == 1:
            target = 'tendon="st"'
        elif choice == 2:
            target = f'site="{sites[int(rng.integers(nbody))]}"'
        elif choice == 3:
            target = f'site="{sites[int(rng.integers(nbody))]}" refsite="{sites[int(rng.integers(nbody))]}"'
        elif choice == 4:
            target = f'cranksite="{sites[-1]}" slidersite="{sites[0]}" cranklength="{r(.5, 1)}"'
        scalar_target = not (target.startswith("joint") and t == "ball")
        gear = " ".join(f"{x:.3f}" for x in rng.normal(size=6))
        if not target.startswith(("site", "joint")) or (target.startswith("joint") and t != "ball"):
            gear = r(.5, 2)
        kind = int(rng.integers(7))
        if kind == 0:
            acts.append(f'<motor {target} gear="{gear}" ctrlrange="-1 1"/>')
        elif kind == 1:
            acts.append(f'<position {target} gear="{gear}" kp="{r(1, 20)}" kv="{r(0, 2)}"/>')
        elif kind == 2:
            acts.append(f'<velocity {target} gear="{gear}" kv="{r(.5, 3)}"/>')
        elif kind == 3:
            acts.append(f'<general {target} gear="{gear}" dyntype="{["filter", "filterexact", "integrator"][int(rng.integers(3))]}" '
                        f'dynprm="{r(.02, .2)}" gaintype="affine" gainprm="{r(.5, 3)} {r(-1, 1)} {r(-.5, .5)}" '
                        f'biastype="affine" biasprm="{r(-1, 1)} {r(-3, 0)} {r(-1, 0)}" actearly="{["false", "true"][int(rng.integers(2))]}" '
                        f'forcelimited="true" forcerange="-{r(1, 5)} {r(1, 5)}"/>')
        elif kind == 4 and scalar_target and not target.startswith("site"):
            # MJCF's muscle takes no site transmission
            acts.append(f'<muscle {target} gear="{r(.5, 2)}" lengthrange="-2 2" force="{r(5, 30)}"/>')
        elif kind == 5:
            acts.append(f'<intvelocity {target} gear="{gear}" kp="{r(1, 10)}" actrange="-1 1"/>')
        else:
            acts.append(f'<cylinder {target} gear="{gear}" timeconst="{r(.05, .3)}" area="{r(.5, 2)}"/>')
    xml = f"""<mujoco>
  <option timestep="0.002"/>
  <worldbody><site name="w" pos=".5 .5 .5"/>{emit(0)}</worldbody>
  <tendon>{tendons}</tendon>
  <actuator>{"".join(acts)}</actuator>
</mujoco>"""
    return xml


@pytest.mark.parametrize("seed", range(12))
def test_random_actuated_models(seed):
    rng = np.random.default_rng(1000 + seed)
    xml = random_model(rng)
    compare_forward(xml, nstate=4, seed=seed)
    for integrator in ("Euler", "implicit", "implicitfast"):
        compare_rollout(xml, integrator, seed=seed)
    xml = random_model(np.random.default_rng(2000 + seed), ball=False)
    compare_rollout(xml, "RK4", seed=seed)


def test_joint_actuatorfrcrange_errors():
    bad = chain('<motor joint="hinge"/>').replace(
        '<joint name="slide" type="slide"', '<joint name="slide" type="slide" actuatorfrclimited="true" actuatorfrcrange="1 -1"')
    with pytest.raises(Exception):
        mujoco.MjModel.from_xml_string(bad)
    with pytest.raises(gauss.GaussError, match=r"joint 'slide'.*actuatorfrcrange"):
        gauss.Model.from_xml_string(bad)


def test_joint_actuatorfrcrange_needs_limited_without_autolimits():
    xml = chain('<motor joint="hinge"/>').replace(
        '<joint name="slide" type="slide"', '<joint name="slide" type="slide" actuatorfrcrange="-1 1"')
    xml = xml.replace("<mujoco>", '<mujoco><compiler autolimits="false"/>', 1)
    xml = xml.replace('range="-90 90"', 'limited="true" range="-90 90"')
    xml = xml.replace('range="-.4 .4"', 'limited="true" range="-.4 .4"')
    with pytest.raises(Exception, match="'slide'"):
        mujoco.MjModel.from_xml_string(xml)
    with pytest.raises(gauss.GaussError, match=r"joint 'slide'.*actuatorfrclimited"):
        gauss.Model.from_xml_string(xml)


def test_damping_across_trees():
    """servo damping through tendons that join two trees: the implicit integrators keep the part
    of moment^T kv moment inside M's tree pattern, as MuJoCo's do (the rollouts agree)"""
    xml = """<mujoco><option timestep="0.01"/>
  <worldbody>
    <body pos="-.3 0 0"><joint name="a" type="hinge" axis="0 1 0"/>
      <geom type="capsule" size=".05" fromto="0 0 0 0 0 -.5"/><site name="sl" pos="0 0 -.5"/></body>
    <body pos=".3 0 0"><joint name="b" type="hinge" axis="0 1 0"/>
      <geom type="capsule" size=".05" fromto="0 0 0 0 0 -.5"/><site name="sr" pos="0 0 -.5"/></body>
  </worldbody>
  <tendon><fixed name="t"><joint joint="a" coef="1"/><joint joint="b" coef="-1"/></fixed>
    <spatial name="s"><site site="sl"/><site site="sr"/></spatial></tendon>
  <actuator><position tendon="t" kp="30" kv="8"/><velocity tendon="s" kv="5"/></actuator>
</mujoco>"""
    for integrator in INTEGRATORS:
        compare_rollout(xml, integrator)


def test_bench_drives_the_same_controls(tmp_path):
    """`gauss bench --ctrl random` gives both engines the same fixed controls, to the bit"""
    import os
    import subprocess
    import sys
    from test_binary import gauss_command
    exe = gauss_command()
    path = tmp_path / "limits.xml"
    path.write_text(LIMITS)
    r = subprocess.run([exe, "bench", str(path), "--steps", "50", "--rounds", "1", "--ctrl",
                        "random", "--peer", sys.executable], capture_output=True, text=True,
                       cwd=oracle.REPO, env={**os.environ, "GAUSS_PEER_SCRIPT": os.path.join(
                           oracle.REPO, "bench", "mujoco_peer.py")})
    assert r.returncode == 0, r.stderr
    assert "controls   random, fixed (seed 12345), the same in both engines" in r.stdout, r.stdout
    r = subprocess.run([exe, "bench", str(path), "--ctrl", "sometimes"], capture_output=True,
                       text=True)
    assert r.returncode == 2 and "--ctrl" in r.stderr


FREE = """<mujoco>
  <option timestep="0.002" gravity="0 0 -1"/>
  <worldbody>
    <body name="f" pos=".1 .2 .3" euler="20 30 40"><freejoint name="free"/>
      <geom type="box" size=".1 .2 .15" mass="2" pos=".04 -.03 .02"/>
      <site name="sf" pos=".1 0 .1" euler="0 40 0"/>
    </body>
    <site name="w" pos="0 0 1"/>
  </worldbody>
  <actuator>
    <motor joint="free" gear="1 -.5 .3 .2 .1 -.4" ctrlrange="-1 1"/>
    <motor jointinparent="free" gear=".3 .2 -.1 .5 -.6 .7" ctrlrange="-1 1"/>
    <general site="sf" refsite="w" gear=".5 .6 .7 .1 .2 .3" dyntype="filter" dynprm=".05"
             biastype="affine" biasprm="0 -2 -1"/>
    <velocity site="sf" gear="0 0 0 1 1 0" kv=".5"/>
  </actuator>
</mujoco>"""


def test_free_joint_transmissions():
    compare_forward(FREE, nstate=10, seed=21)
    # RK4 integrates the rotation on SO(3) unlike MuJoCo: Euler and the implicit ones
    for integrator in ("Euler", "implicit", "implicitfast"):
        compare_rollout(FREE, integrator, seed=22)


def test_every_kind_in_one_model():
    """the hand-written model of test_mjcf_actuation with every actuator kind and transmission
    (free, ball, hinge and slide joints, fixed and spatial tendons, sites, slider-crank, body)"""
    from test_mjcf_actuation import HAND
    compare_forward(HAND["actuator-kinds"], nstate=20, seed=23)


# a leaf child of the world with its inertial frame at its body frame: MuJoCo stores its part of M
# as diagonal when its joints are at the origin, its slides orthogonal and a rotation comes last
# ("simple"), and its implicit-fast integrator then leaves out the couplings actuator damping adds
# between the body's dofs; the others keep them
SIMPLE = """<mujoco><option timestep="0.002"/>
  <worldbody><site name="w" pos="0 0 1"/>
    <body name="s" pos=".1 .2 .3">%s<geom type="box" size=".1 .2 .15" mass="2"/>
      <site name="sf" pos=".1 .05 .1" euler="0 40 20"/></body>
  </worldbody>
  <actuator><velocity site="sf" gear="1 1 1 1 1 1" kv="3"/>
    <position site="sf" refsite="w" gear=".3 .4 .5 .1 .2 .3" kp="2" kv="1"/></actuator>
</mujoco>"""
SIMPLE_JOINTS = {
    "free": '<freejoint/>',
    "slides": '<joint type="slide" axis="1 0 0"/><joint type="slide" axis="0 1 0"/><joint type="slide" axis="0 0 1"/>',
    "slide-hinge": '<joint type="slide" axis="1 0 0"/><joint type="hinge" axis="0 1 0"/>',
    "slide-ball": '<joint type="slide" axis="1 0 0"/><joint type="ball"/>',
    "ball": '<joint type="ball"/>',
    # not simple
    "hinge-slide": '<joint type="hinge" axis="0 1 0"/><joint type="slide" axis="1 0 0"/>',
    "slides-oblique": '<joint type="slide" axis="1 1 0"/><joint type="slide" axis="0 1 0"/>',
    "two-hinges": '<joint type="hinge" axis="1 0 0"/><joint type="hinge" axis="0 1 0"/>',
    "hinge-off-origin": '<joint type="hinge" axis="0 1 0" pos=".1 0 0"/>',
}


@pytest.mark.parametrize("joints", sorted(SIMPLE_JOINTS))
def test_simple_bodies_under_the_implicit_integrators(joints):
    xml = SIMPLE % SIMPLE_JOINTS[joints]
    for integrator in ("implicit", "implicitfast"):
        compare_rollout(xml, integrator, seed=22)
