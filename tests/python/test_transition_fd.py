"""Transition derivatives (gauss.transition_fd) against MuJoCo 3.3.7's mjd_transitionFD, closed
forms and the data they leave behind.

- Conformance: every corpus model, whole (contacts on), at a few states of a MuJoCo rollout with
  random controls, forward and centred differences: A, B, C, D equal MuJoCo's within TOL relative
  (oracle.rel_err: max|a - b| / max(1, max|b|)). MuJoCo refuses RK4 here, so the RK4 models of the
  corpus are compared under Euler (both engines switched).
  Why 1e-6: a column is (f(x + eps e) - f(x)) / eps. The two engines' steps agree to ~1e-13
  relative at these states (the conformance tests bound them at 1e-8; the solvers' tolerances and
  rounding set the real gap); a gap delta in the step's outputs becomes delta / eps in a column,
  so 1e-12 / 1e-6 = 1e-6 bounds it with the agreement we have (observed: below 1e-7).
- MuJoCo 3.3.7's centred D (sensors by controls) carries the opposite sign of the centred
  difference of its own mj_step (test_mujoco_centred_D_sign shows it), so gauss's centred D is
  compared with that difference built here from mujoco.mj_step, with the same one-sided rule at
  the control limits.
- Closed forms: a damped slide joint driven by a motor is linear; its A and B under Euler (with
  implicit damping) and under RK4 follow from the step's formula, and its sensors' C and D from
  what they read.
- A control at a limit of its range is differenced one-sided, into the range.
- The data's state is left bit-identical: the same fields, and the next step the same to the bit.
"""

import numpy as np
import pytest

import gauss
import mujoco
import oracle

TOL = 1e-6
EPS = 1e-6
EULER, RK4 = 0, 1
STATE_STEPS = (20, 60, 120)   # the rollout steps at which the derivatives are compared

CORPUS = oracle.corpus_models()


def load_pair(path=None, xml=None):
    if xml is None:
        mm = mujoco.MjModel.from_xml_path(path)
        gm = gauss.Model.from_xml_path(path)
    else:
        mm = mujoco.MjModel.from_xml_string(xml)
        gm = gauss.Model.from_xml_string(xml)
    if mm.opt.integrator == RK4:
        mm.opt.integrator = EULER
        gm.opt.integrator = EULER
    return mm, gm


def copy_state(md, gd):
    gd.time = md.time
    gd.qpos[:] = md.qpos
    gd.qvel[:] = md.qvel
    gd.act[:] = md.act
    gd.ctrl[:] = md.ctrl
    gd.qacc_warmstart[:] = md.qacc_warmstart


def mujoco_fd(mm, md, centered):
    n = 2 * mm.nv + mm.na
    A, B = np.zeros((n, n)), np.zeros((n, mm.nu))
    C, D = np.zeros((mm.nsensordata, n)), np.zeros((mm.nsensordata, mm.nu))
    mujoco.mjd_transitionFD(mm, md, EPS, centered, A, B, C, D)
    return A, B, C, D


def sides(mm, i, u):
    """(plus, minus): which sides of control i are evaluated (one-sided into the range at a
    limit, mjd_transitionFD's rule)."""
    lo, hi = mm.actuator_ctrlrange[i]
    limited = bool(mm.actuator_ctrllimited[i])
    plus = not limited or (u >= lo and u + EPS <= hi)
    minus = not limited or (u - EPS >= lo and u <= hi)
    return plus, minus


def centred_D_by_steps(mm, md):
    """The centred sensor-by-control difference from mujoco.mj_step, one-sided at the limits."""
    def sensors(ctrl):
        d2 = mujoco.MjData(mm)
        d2.time, d2.qpos[:], d2.qvel[:], d2.act[:] = md.time, md.qpos, md.qvel, md.act
        d2.qacc_warmstart[:] = md.qacc_warmstart
        d2.ctrl[:] = ctrl
        mujoco.mj_step(mm, d2)
        return d2.sensordata.copy()
    y0 = sensors(md.ctrl)
    D = np.zeros((mm.nsensordata, mm.nu))
    for i in range(mm.nu):
        plus, minus = sides(mm, i, md.ctrl[i])
        up, dn = md.ctrl.copy(), md.ctrl.copy()
        up[i] += EPS
        dn[i] -= EPS
        if plus and minus:
            D[:, i] = (sensors(up) - sensors(dn)) / (2 * EPS)
        elif plus:
            D[:, i] = (sensors(up) - y0) / EPS
        elif minus:
            D[:, i] = (y0 - sensors(dn)) / EPS
    return D


def rollout_states(mm, seed):
    """MuJoCo data at STATE_STEPS of a rollout with random controls (from the first keyframe when
    there is one)."""
    rng = np.random.default_rng(seed)
    md = mujoco.MjData(mm)
    if mm.nkey:
        mujoco.mj_resetDataKeyframe(mm, md, 0)
    for k in range(max(STATE_STEPS) + 1):
        if k in STATE_STEPS:
            yield k, md
        lo, hi = (mm.actuator_ctrlrange.T if mm.nu else (np.zeros(0), np.zeros(0)))
        u = rng.uniform(-1, 1, mm.nu)
        md.ctrl[:] = np.where(mm.actuator_ctrllimited.astype(bool), np.clip(u, lo, hi), u)
        mujoco.mj_step(mm, md)


@pytest.mark.parametrize("name,path", CORPUS, ids=[c[0] for c in CORPUS])
def test_corpus_against_mujoco(name, path):
    mm, gm = load_pair(path)
    gd = gauss.Data(gm)
    bad = []
    for k, md in rollout_states(mm, seed=len(name)):
        copy_state(md, gd)
        for centered in (False, True):
            ref = mujoco_fd(mm, md, centered)
            if centered:
                ref = ref[:3] + (centred_D_by_steps(mm, md),)
            got = gauss.transition_fd(gm, gd, EPS, centered)
            for label, a, b in zip("ABCD", got, ref):
                assert a.shape == b.shape, (label, a.shape, b.shape)
                if b.size and oracle.rel_err(a, b) > TOL:
                    bad.append(f"step {k} centred={centered} {label}: {oracle.rel_err(a, b):.2e}")
    assert not bad, f"{name}: " + "; ".join(bad)


def test_mujoco_centred_D_sign():
    """MuJoCo 3.3.7's centred D is the negative of the centred difference of its own steps (the
    reason the corpus test builds that difference itself); gauss's matches the difference."""
    mm, gm = load_pair(oracle.MODELS_DIR + "/dm_control/hopper.xml")
    gd = gauss.Data(gm)
    for k, md in rollout_states(mm, seed=3):
        if k != STATE_STEPS[-1]:
            continue
        D_steps = centred_D_by_steps(mm, md)
        assert np.abs(D_steps).max() > 1  # the touch sensors feel the controls
        D_mj = mujoco_fd(mm, md, True)[3]
        two_sided = [i for i in range(mm.nu) if all(sides(mm, i, md.ctrl[i]))]
        assert two_sided
        assert oracle.rel_err(D_mj[:, two_sided], -D_steps[:, two_sided]) < TOL
        copy_state(md, gd)
        assert oracle.rel_err(gauss.transition_fd(gm, gd, EPS, True)[3], D_steps) < TOL


ACTIVATED = """
<mujoco>
  <option timestep="0.005" integrator="{integrator}"/>
  <worldbody>
    <geom type="plane" size="5 5 .1"/>
    <body pos="0 0 .3">
      <freejoint/>
      <geom type="box" size=".1 .08 .06" mass="1"/>
      <body pos=".15 0 0">
        <joint name="ball" type="ball" damping=".05"/>
        <geom type="capsule" fromto="0 0 0 .2 0 0" size=".03"/>
        <body pos=".2 0 0">
          <joint name="hinge" axis="0 1 0" damping=".1" range="-1 1"/>
          <geom type="capsule" fromto="0 0 0 .2 0 0" size=".03"/>
          <site name="tip" pos=".2 0 0"/>
        </body>
      </body>
    </body>
  </worldbody>
  <actuator>
    <general name="filter" joint="hinge" dyntype="filter" dynprm=".05" gainprm="2" ctrlrange="-1 1"/>
    <general joint="hinge" dyntype="integrator" gainprm="1" biastype="affine" biasprm="0 -2 -.3"
             ctrlrange="-1 1" actlimited="true" actrange="-.5 .5"/>
    <motor joint="hinge" gear="3" ctrlrange="-1 1"/>
  </actuator>
  <sensor>
    <framepos objtype="site" objname="tip"/>
    <jointvel joint="hinge"/>
    <actuatorfrc actuator="filter"/>
    <accelerometer site="tip"/>
    <touch site="tip"/>
  </sensor>
</mujoco>
"""


@pytest.mark.parametrize("integrator", ["Euler", "implicit", "implicitfast"])
def test_activations_against_mujoco(integrator):
    """Activations (filter and integrator dynamics, an actrange) and ball and free joints under
    each integrator MuJoCo differentiates."""
    mm, gm = load_pair(xml=ACTIVATED.format(integrator=integrator))
    assert mm.na == 2
    gd = gauss.Data(gm)
    for k, md in rollout_states(mm, seed=7):
        copy_state(md, gd)
        for centered in (False, True):
            ref = mujoco_fd(mm, md, centered)
            if centered:
                ref = ref[:3] + (centred_D_by_steps(mm, md),)
            got = gauss.transition_fd(gm, gd, EPS, centered)
            for label, a, b in zip("ABCD", got, ref):
                assert oracle.rel_err(a, b) < TOL, (k, centered, label, oracle.rel_err(a, b))


SLIDE = """
<mujoco>
  <option timestep="{h}" integrator="{integrator}" gravity="0 0 0"/>
  <worldbody>
    <body>
      <joint name="x" type="slide" axis="1 0 0" damping="{b}"/>
      <geom type="sphere" size=".1" mass="{mass}"/>
    </body>
  </worldbody>
  <actuator><motor name="motor" joint="x" gear="{g}" ctrlrange="-1 1"/></actuator>
  <sensor>
    <jointpos joint="x"/>
    <jointvel joint="x"/>
    <actuatorfrc actuator="motor"/>
  </sensor>
</mujoco>
"""


def slide(integrator, h=0.01, b=0.7, mass=2.0, g=3.0):
    m = gauss.Model.from_xml_string(SLIDE.format(integrator=integrator, h=h, b=b, mass=mass, g=g))
    return m, gauss.Data(m)


def slide_euler_AB(h, b, mass, g):
    """Euler with implicit damping: (M + h b) v' = M v + h g u - ... i.e.
    v' = v + h (g u - b v) / (M + h b), q' = q + h v'."""
    k = h / (mass + h * b)
    dv_dv = 1 - k * b
    A = np.array([[1, h * dv_dv], [0, dv_dv]])
    B = np.array([[h * k * g], [k * g]])
    return A, B


def slide_rk4_AB(h, b, mass, g):
    """RK4 on the linear x' = F x + G u is exp(hF) to fourth order: sum of (hF)^k / k!."""
    F = np.array([[0, 1], [0, -b / mass]])
    G = np.array([[0], [g / mass]])
    A = np.eye(2)
    S = np.eye(2) * h   # h sum (hF)^k / (k+1)!
    P = np.eye(2)
    for k in range(1, 5):
        P = P @ (h * F) / k
        A = A + P
        if k < 4:
            S = S + h * P / (k + 1)
    return A, S @ G


@pytest.mark.parametrize("centered", [False, True])
@pytest.mark.parametrize("integrator,closed", [("Euler", slide_euler_AB), ("RK4", slide_rk4_AB)])
def test_linear_closed_form(integrator, closed, centered):
    h, b, mass, g = 0.01, 0.7, 2.0, 3.0
    m, d = slide(integrator, h, b, mass, g)
    d.qpos[0], d.qvel[0], d.ctrl[0] = 0.3, -0.8, 0.25
    A, B, C, D = gauss.transition_fd(m, d, EPS, centered)
    A0, B0 = closed(h, b, mass, g)
    # linear map: the differences are exact up to rounding, ~1e-16 / eps
    assert np.abs(A - A0).max() < 1e-8, (A, A0)
    assert np.abs(B - B0).max() < 1e-8, (B, B0)
    # the sensors read the state before the step: jointpos q, jointvel v, actuatorfrc u
    C0 = np.array([[1, 0], [0, 1], [0, 0]])
    D0 = np.array([[0], [0], [1]])
    assert np.abs(C - C0).max() < 1e-8, C
    assert np.abs(D - D0).max() < 1e-8, D


@pytest.mark.parametrize("centered", [False, True])
@pytest.mark.parametrize("u", [1.0, -1.0])
def test_ctrl_at_range_limit(u, centered):
    """At a limit the step clamps the outer side away: the difference goes into the range and
    still gives the motor's closed-form B (a plain two-sided or outward difference would halve it
    or give zero); MuJoCo does the same."""
    h, b, mass, g = 0.01, 0.7, 2.0, 3.0
    m, d = slide("Euler", h, b, mass, g)
    d.qvel[0], d.ctrl[0] = 0.5, u
    B = gauss.transition_fd(m, d, EPS, centered)[1]
    B0 = slide_euler_AB(h, b, mass, g)[1]
    assert np.abs(B - B0).max() < 1e-8, (B, B0)
    mm = mujoco.MjModel.from_xml_string(SLIDE.format(integrator="Euler", h=h, b=b, mass=mass, g=g))
    md = mujoco.MjData(mm)
    md.qvel[0], md.ctrl[0] = 0.5, u
    assert oracle.rel_err(B, mujoco_fd(mm, md, centered)[1]) < TOL


@pytest.mark.parametrize("clamp", ["enable", "disable"])
def test_ctrl_outside_range(clamp):
    """A control outside its range (possible when clampctrl is disabled, or before the step clamps
    it) has no side inside the range: its column is zero, as MuJoCo's; the flag changes nothing
    in this rule (MuJoCo's neither)."""
    xml = SLIDE.format(integrator="Euler", h=0.01, b=0.7, mass=2.0, g=3.0).replace(
        'gravity="0 0 0"/>', f'gravity="0 0 0"><flag clampctrl="{clamp}"/></option>')
    m = gauss.Model.from_xml_string(xml)
    d = gauss.Data(m)
    mm = mujoco.MjModel.from_xml_string(xml)
    md = mujoco.MjData(mm)
    for u in (1.5, -2.0, 1 - 1e-7):
        d.ctrl[0] = md.ctrl[0] = u
        for centered in (False, True):
            B = gauss.transition_fd(m, d, EPS, centered)[1]
            Bm = mujoco_fd(mm, md, centered)[1]
            assert oracle.rel_err(B, Bm) < TOL, (u, centered, B, Bm)
            if abs(u) > 1:
                assert not B.any()
            else:
                assert np.abs(B).max() > 1e-3   # one-sided into the range


STATE_FIELDS = ("qpos", "qvel", "act", "ctrl", "qacc_warmstart", "qfrc_applied", "xfrc_applied",
                "mocap_pos", "mocap_quat")


@pytest.mark.parametrize("centered", [False, True])
@pytest.mark.parametrize("name", ["dm_control/humanoid", "gymnasium/half_cheetah", "activated"])
def test_data_left_unchanged(name, centered):
    if name == "activated":
        gm = gauss.Model.from_xml_string(ACTIVATED.format(integrator="implicitfast"))
    else:
        gm = gauss.Model.from_xml_path(dict(CORPUS)[name])
    d = gauss.Data(gm)
    rng = np.random.default_rng(5)
    for _ in range(40):
        d.ctrl[:] = rng.uniform(-1, 1, gm.nu)
        gauss.step(gm, d)
    d.qfrc_applied[:] = rng.normal(size=gm.nv)
    before = gauss.copy_data(gm, d)
    t0 = d.time
    gauss.transition_fd(gm, d, EPS, centered)
    assert d.time == t0
    for f in STATE_FIELDS:
        assert np.array_equal(getattr(d, f), getattr(before, f)), f
    # the next steps continue bit for bit as if nothing had happened
    for _ in range(3):
        gauss.step(gm, d)
        gauss.step(gm, before)
        for f in ("qpos", "qvel", "act", "qacc", "sensordata"):
            assert np.array_equal(getattr(d, f), getattr(before, f)), f


def test_shapes_and_bad_eps():
    m, d = slide("Euler")
    A, B, C, D = gauss.transition_fd(m, d)
    assert A.shape == (2, 2) and B.shape == (2, 1) and C.shape == (3, 2) and D.shape == (3, 1)
    for eps in (0, -1e-6, float("nan")):
        with pytest.raises(ValueError):
            gauss.transition_fd(m, d, eps)
