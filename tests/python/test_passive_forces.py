"""Passive forces as MJCF splits them (qfrc_spring, qfrc_damper, qfrc_gravcomp, qfrc_passive),
tendon armature in M and in the bias force, gravity compensation routed to the actuators, and the
tendon damping of the implicit integrators: compared with MuJoCo 3.3.7 at random states and over
rollouts, on small models and on the corpus models that have tendons; and two closed forms (a body
with gravcomp=1 stays at rest, a slide pulled by a tendon spring oscillates at sqrt(k/m))."""

import math
import xml.etree.ElementTree as ET

import mujoco
import numpy as np
import pytest

import gauss
import oracle

TOL = 1e-8         # relative (oracle.rel_err) at one state
ROLL_TOL = 1e-6    # qpos after 100 steps
NSTATE = 10
FIELDS = ("qfrc_spring", "qfrc_damper", "qfrc_gravcomp", "qfrc_passive", "qfrc_bias",
          "qfrc_actuator", "qacc")

# A floating base with two branches: fixed tendons across branches and along one branch, spatial
# tendons through sites and a pulley (with armature), one wrapping a sphere and a cylinder (springs
# and dampers only: MJCF refuses armature on wrapping paths), a dead-band spring length, and
# gravity compensation: full, partial, above one (a lifted body), and routed to the actuators.
# No contacts: the constraint solver's tolerance is not what these tests measure.
TREE = """
<mujoco>
  <option integrator="{integrator}" timestep="0.002"><flag {flags}/></option>
  <default><geom contype="0" conaffinity="0"/></default>
  <worldbody>
    <body name="base" pos="0 0 1" gravcomp="{gc_base}">
      {root}
      <geom type="box" size="0.1 0.08 0.05" mass="2"/>
      <site name="b0" pos="0.1 0.05 0.05"/>
      <site name="b1" pos="-0.1 -0.05 0.05"/>
      <body name="arm" pos="0.15 0 0" gravcomp="1">
        <joint name="shoulder" type="{shoulder}" damping="0.2" stiffness="0.5"/>
        <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03"/>
        <site name="a0" pos="0.15 0.03 0"/>
        <body name="forearm" pos="0.3 0 0" gravcomp="0.5">
          <joint name="elbow" axis="0 1 0" damping="0.1" actuatorgravcomp="{actgc}"/>
          <joint name="slide" type="slide" axis="1 0 0" stiffness="3"/>
          <geom type="capsule" fromto="0 0 0 0.25 0 0" size="0.025"/>
          <site name="f0" pos="0.2 0 0.03"/>
          <site name="f1" pos="0.25 0.02 -0.03"/>
        </body>
      </body>
      <body name="leg" pos="-0.15 0 -0.05" gravcomp="1.5">
        <joint name="hip" axis="1 0 0" actuatorgravcomp="{actgc}"/>
        <joint name="hip2" axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 0 0 -0.3" size="0.03"/>
        <geom name="knee_cyl" type="cylinder" pos="0 0 -0.3" size="0.04 0.05" euler="0 90 0"/>
        <site name="l0" pos="0.03 0 -0.15"/>
        <body name="shin" pos="0 0 -0.3">
          <joint name="knee" axis="1 0 0" stiffness="1" springref="20"/>
          <geom type="capsule" fromto="0 0 0 0 0 -0.25" size="0.025"/>
          <geom name="ankle_ball" type="sphere" pos="0 0 -0.25" size="0.035"/>
          <site name="s0" pos="0.03 0 -0.1"/>
          <site name="s1" pos="0 0.03 -0.3"/>
          <site name="side" pos="0 -0.1 -0.3"/>
        </body>
      </body>
    </body>
  </worldbody>
  <tendon>
    <fixed name="across" stiffness="4" damping="0.6" armature="{arm}" springlength="-0.2 0.3">
      <joint joint="elbow" coef="1"/><joint joint="hip" coef="-0.7"/><joint joint="knee" coef="0.4"/>
    </fixed>
    <fixed name="along" stiffness="2" damping="0.3" armature="{arm}">
      <joint joint="hip" coef="0.5"/><joint joint="knee" coef="1"/>
    </fixed>
    <spatial name="pulley" stiffness="6" damping="0.4" armature="{arm}" springlength="0.3 0.5">
      <site site="b0"/><site site="a0"/><site site="f0"/>
      <pulley divisor="2"/><site site="f1"/><site site="l0"/>
      <pulley divisor="3"/><site site="b1"/><site site="s0"/>
    </spatial>
    <spatial name="wrapped" stiffness="5" damping="0.5" springlength="0.1">
      <site site="l0"/><geom geom="knee_cyl"/><site site="s0"/>
      <geom geom="ankle_ball" sidesite="side"/><site site="s1"/>
    </spatial>
  </tendon>
  <actuator>
    <motor joint="hip2"/>
  </actuator>
</mujoco>
"""


def tree_xml(integrator="Euler", flags="", free=True, actgc="true", arm=0.05, gc_base=0.25,
             ball=True):
    root = '<freejoint name="root"/>' if free else (
        '<joint name="rx" type="slide" axis="1 0 0"/><joint name="ry" axis="0 0 1" damping="0.4"/>')
    return TREE.format(integrator=integrator, flags=flags, root=root, actgc=actgc, arm=arm,
                       gc_base=gc_base, shoulder="ball" if ball else "hinge")


def load_pair(xml):
    mjm = mujoco.MjModel.from_xml_string(xml)
    gm = gauss.Model.from_xml_string(xml)
    return mjm, mujoco.MjData(mjm), gm, gauss.Data(gm)


def compare_states(xml, seed, fields=FIELDS, nstate=NSTATE):
    mjm, mjd, gm, gd = load_pair(xml)
    rng = np.random.default_rng(seed)
    errors = []
    for _ in range(nstate):
        qpos, qvel = oracle.random_state(mjm, rng)
        for d in (mjd, gd):
            d.qpos[:] = qpos
            d.qvel[:] = qvel
        mujoco.mj_forward(mjm, mjd)
        gauss.forward(gm, gd)
        M = np.zeros((mjm.nv, mjm.nv))
        mujoco.mj_fullM(mjm, M, mjd.qM)
        oracle.check_close(errors, "M", gauss.full_M(gm, gd), M, TOL)
        for f in fields:
            oracle.check_close(errors, f, getattr(gd, f), getattr(mjd, f), TOL)
    return mjm, mjd, gm, gd, errors


FLAG_CASES = ["", 'spring="disable"', 'damper="disable"', 'spring="disable" damper="disable"',
              'gravity="disable"', 'actuation="disable"']


@pytest.mark.parametrize("flags", FLAG_CASES)
@pytest.mark.parametrize("actgc", ["false", "true"])
def test_tree_forces(flags, actgc):
    mjm, mjd, gm, gd, errors = compare_states(tree_xml(flags=flags, actgc=actgc), seed=3)
    assert not errors, errors[:6]


def test_tree_forces_are_not_trivial():
    """the forces compared above are all present in the plain case"""
    mjm, mjd, gm, gd, errors = compare_states(tree_xml(), seed=4, nstate=1)
    assert not errors, errors
    for f in ("qfrc_spring", "qfrc_damper", "qfrc_gravcomp", "qfrc_actuator"):
        assert np.abs(getattr(mjd, f)).max() > 1e-3, f
    # the routed dofs (elbow, hip) carry their compensation in qfrc_actuator, not qfrc_passive
    routed = [mjm.jnt_dofadr[mjm.joint(n).id] for n in ("elbow", "hip")]
    assert np.allclose(gd.qfrc_actuator[routed], gd.qfrc_gravcomp[routed])
    rest = gd.qfrc_spring + gd.qfrc_damper
    assert np.allclose(gd.qfrc_passive[routed], rest[routed])
    # the tendon armature adds a bias force: without it qfrc_bias differs
    mjm0, mjd0, gm0, gd0, errors = compare_states(tree_xml(arm=0), seed=4, nstate=1)
    assert not errors, errors
    assert np.abs(gd.qfrc_bias - gd0.qfrc_bias).max() > 1e-6


def test_dead_band():
    """the spring of a tendon is silent between its two spring lengths and pulls toward the nearer
    one outside: -k (L - upper) above, -k (L - lower) below"""
    xml = """<mujoco><worldbody><body><joint name="x" type="slide" axis="1 0 0"/>
      <geom size="0.1" mass="2"/></body></worldbody>
      <tendon><fixed stiffness="7" springlength="-0.1 0.2"><joint joint="x" coef="2"/></fixed>
      </tendon></mujoco>"""
    m = gauss.Model.from_xml_string(xml)
    d = gauss.Data(m)
    for x in np.linspace(-0.3, 0.3, 25):
        d.qpos[0] = x
        gauss.forward(m, d)
        L = 2 * x
        f = -7 * (L - 0.2) if L > 0.2 else -7 * (L + 0.1) if L < -0.1 else 0.0
        assert abs(d.qfrc_spring[0] - 2 * f) <= 1e-12 * max(1, abs(f)), (x, d.qfrc_spring[0])


@pytest.mark.parametrize("integrator", ["Euler", "implicit", "implicitfast", "RK4"])
def test_rollouts(integrator):
    """100 steps: MuJoCo's qpos within 1e-6. Free and ball joints only under the Euler family:
    gauss's RK4 moves quaternions along the stage derivatives with the dexp correction
    (integrate.c), MuJoCo combines the raw angular velocities, so their RK4 differ by the method
    itself."""
    free = integrator != "RK4"
    mjm, mjd, gm, gd = load_pair(tree_xml(integrator=integrator, free=free, ball=free))
    rng = np.random.default_rng(7)
    qpos, qvel = oracle.random_state(mjm, rng, scale=0.5)
    for d in (mjd, gd):
        d.qpos[:] = qpos
        d.qvel[:] = qvel
        d.ctrl[:] = 0  # the motor is there for the routed compensation, not for its force
    for _ in range(100):
        mujoco.mj_step(mjm, mjd)
        gauss.step(gm, gd)
    q = gd.qpos.copy()
    if free:
        q[3:7] = oracle.align_quats(q[3:7], mjd.qpos[3:7])[0]
    assert oracle.rel_err(q, mjd.qpos) <= ROLL_TOL, (q, mjd.qpos)
    assert oracle.rel_err(gd.qvel, mjd.qvel) <= ROLL_TOL * 100, (gd.qvel, mjd.qvel)


def test_tendon_damping_is_implicit():
    """a stiff tendon damper (b h / m = 10) on two branches: implicit and implicitfast take b J^T J
    into their matrix (kept to M's tree pattern, as MuJoCo), Euler's implicit damping only the
    joints' (as MuJoCo); one step checked against MuJoCo, and against the explicit update for
    Euler"""
    xml = """<mujoco><option integrator="{}" timestep="0.01" gravity="0 0 0"/><worldbody>
      <body><joint name="r" type="slide" axis="1 0 0"/><geom size=".1" mass="1"/>
      <body pos="0 0 1"><joint name="a" type="slide" damping="7"/><geom size=".1" mass="1"/></body>
      <body pos="0 1 1"><joint name="b" type="slide"/><geom size=".1" mass="2"/></body></body>
      </worldbody><tendon><fixed damping="1000"><joint joint="a" coef="1"/>
      <joint joint="b" coef="1"/><joint joint="r" coef="0.3"/></fixed></tendon></mujoco>"""
    for integrator in ("Euler", "implicit", "implicitfast"):
        mjm, mjd, gm, gd = load_pair(xml.format(integrator))
        for d in (mjd, gd):
            d.qvel[:] = [0.2, 1, 0]
        gauss.forward(gm, gd)
        explicit = gd.qvel + 0.01 * gd.qacc
        mujoco.mj_step(mjm, mjd)
        gauss.step(gm, gd)
        assert oracle.rel_err(gd.qvel, mjd.qvel) <= 1e-12, (integrator, gd.qvel, mjd.qvel)
        if integrator != "Euler":
            assert np.abs(gd.qvel - explicit).max() > 0.1  # the implicit update is not the explicit


def test_qpos0_quantities_include_tendon_armature():
    """invweight0 of dofs, bodies and tendons come from M at qpos0, tendon armature included"""
    mjm, _, gm, _ = load_pair(tree_xml(arm=0.5))
    errors = []
    for f in ("dof_invweight0", "body_invweight0", "tendon_invweight0", "tendon_length0",
              "tendon_lengthspring", "body_gravcomp", "jnt_actgravcomp"):
        oracle.check_close(errors, f, getattr(gm, f), getattr(mjm, f), TOL)
    assert not errors, errors


def test_load_warnings():
    """tendon stiffness, damping and armature and gravcomp load without a warning"""
    m = gauss.Model.from_xml_string(tree_xml())
    assert not [w for w in m.load_warnings if "tendon" in w or "gravcomp" in w], m.load_warnings


def _has_tendons(path):
    xml, _ = oracle.prepare_xml(path, sections=())
    return any(len(list(t)) for t in ET.fromstring(xml).findall("tendon"))


TENDON_CORPUS = [(i, p) for i, p in oracle.corpus_models() if _has_tendons(p)]


@pytest.mark.parametrize("model", TENDON_CORPUS, ids=[i for i, _ in TENDON_CORPUS])
def test_corpus_with_tendons(model):
    """the corpus models that have tendons, with their <tendon> section kept (actuators, sensors
    and the rest stripped as in test_conformance): forces at random states, and a rollout"""
    _, path = model
    sections = tuple(s for s in oracle.STRIP_SECTIONS if s != "tendon")
    xml, _ = oracle.prepare_xml(path, sections=sections)
    mjm, mjd, gm, gd, errors = compare_states(xml, seed=11, fields=FIELDS[:5] + ("qacc",),
                                              nstate=5)
    assert not errors, errors[:6]
    assert mjm.ntendon > 0
    # 100 steps under the model's own integrator (RK4 with quaternion joints under Euler: the two
    # engines' RK4 differ there by method, see test_rollouts)
    quat = any(t in (oracle.JNT_FREE, oracle.JNT_BALL) for t in mjm.jnt_type)
    if mjm.opt.integrator == mujoco.mjtIntegrator.mjINT_RK4 and quat:
        mjm.opt.integrator = mujoco.mjtIntegrator.mjINT_EULER
        gm.opt.integrator = gauss.INT_EULER
    qpos, qvel = oracle.random_state(mjm, np.random.default_rng(12), scale=0.3)
    for d in (mjd, gd):
        d.qpos[:] = qpos
        d.qvel[:] = 0.3 * qvel
    for _ in range(100):
        mujoco.mj_step(mjm, mjd)
        gauss.step(gm, gd)
    q = gd.qpos.copy()
    for j in range(mjm.njnt):
        t, a = mjm.jnt_type[j], mjm.jnt_qposadr[j]
        if t in (oracle.JNT_FREE, oracle.JNT_BALL):
            a += 3 if t == oracle.JNT_FREE else 0
            q[a:a + 4] = oracle.align_quats(q[a:a + 4], mjd.qpos[a:a + 4])[0]
    assert oracle.rel_err(q, mjd.qpos) <= ROLL_TOL, np.abs(q - mjd.qpos).max()


# ---- closed forms ----

def test_gravcomp_one_stays_at_rest():
    """a free body with gravcomp=1 in gravity: its weight is cancelled exactly, so it stays where
    it is (a body of the same model without compensation falls g t^2 / 2)"""
    xml = """<mujoco><option timestep="0.001"/><worldbody>
      <body name="held" pos="0 0 1" gravcomp="1"><freejoint/><geom size="0.1" mass="3"/>
        <body pos="0.2 0 0.1" euler="10 20 30" gravcomp="1"><joint axis="1 1 0"/>
          <geom type="box" size="0.05 0.1 0.02" pos="0.05 0 0" mass="1"/></body></body>
      <body name="partial" pos="2 0 1" gravcomp="0.25"><freejoint/><geom size="0.1"/></body>
      </worldbody></mujoco>"""
    m = gauss.Model.from_xml_string(xml)
    d = gauss.Data(m)
    q0 = d.qpos.copy()
    gauss.step(m, d, 1000)
    assert np.abs(d.qpos[:8] - q0[:8]).max() <= 1e-12, d.qpos[:8] - q0[:8]
    # the partly compensated body falls at (1 - 0.25) g
    t = d.time
    z = d.qpos[8 + 2]
    assert abs((1 - z) - 0.75 * 9.81 * t * t / 2) <= 0.01 * 0.75 * 9.81 * t * t / 2


def test_tendon_spring_frequency():
    """a slide of mass m held by a tendon spring of stiffness k (coefficient c: k_eff = k c^2)
    oscillates with period 2 pi sqrt(m / k_eff); measured from the zero crossings under RK4"""
    mass, k, c = 2.0, 50.0, 1.5
    xml = f"""<mujoco><option timestep="0.0005" integrator="RK4" gravity="0 0 0"/><worldbody>
      <body><joint name="x" type="slide" axis="1 0 0"/><geom size="0.1" mass="{mass}"/></body>
      </worldbody><tendon><fixed stiffness="{k}" springlength="0"><joint joint="x" coef="{c}"/>
      </fixed></tendon></mujoco>"""
    m = gauss.Model.from_xml_string(xml)
    d = gauss.Data(m)
    d.qpos[0] = 0.1
    crossings = []
    prev = d.qpos[0]
    while d.time < 3.0:
        gauss.step(m, d)
        x = d.qpos[0]
        if prev > 0 >= x or prev < 0 <= x:
            crossings.append(d.time - m.opt.timestep * x / (x - prev))  # linear interpolation
        prev = x
    period = 2 * np.mean(np.diff(crossings))
    expected = 2 * math.pi * math.sqrt(mass / (k * c * c))
    assert abs(period - expected) <= 1e-5 * expected, (period, expected)


def test_energy():
    """potential energy with the tendon springs (dead band included) and kinetic energy with the
    tendon armature (through M), as MuJoCo's"""
    xml = tree_xml(flags='energy="enable"', arm=0.3)
    mjm, mjd, gm, gd = load_pair(xml)
    rng = np.random.default_rng(5)
    errors = []
    for _ in range(NSTATE):
        qpos, qvel = oracle.random_state(mjm, rng)
        for d in (mjd, gd):
            d.qpos[:] = qpos
            d.qvel[:] = qvel
        mujoco.mj_forward(mjm, mjd)
        gauss.forward(gm, gd)
        oracle.check_close(errors, "energy", gd.energy, mjd.energy, TOL)
    assert not errors, errors[:4]
    # the tendon springs are a part of it: without them the potential energy differs
    gm.tendon_stiffness[:] = 0
    gauss.forward(gm, gd)
    assert abs(gd.energy[0] - mjd.energy[0]) > 1e-3
