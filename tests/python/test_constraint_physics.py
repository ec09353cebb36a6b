"""Ground truth of the constraint solver from the soft contact model, in closed form.

The soft model (seed 000 §V; MuJoCo's "Soft contact model" and "Parameters" in the Computation
chapter and "Solver parameters" in the Modeling chapter). For one scalar row with impedance d,
regulariser R = (1 - d)/d * Â (Â: the diagonal approximation of A = J M^-1 J^T, from the inverse
weights at qpos0), reference aref = -b (J v) - k d(r) r and, with solref = (tc, dr) and
solimp = (d0, dwidth, width, mid, power),

    b = 2 / (dwidth tc),   k d(r) = d(r) / (dwidth^2 tc^2 dr^2)          (standard format)

the force of a row in the quadratic zone is f = -(J qacc - aref) / R. At rest (J qacc = 0,
J v = 0) this is f = aref / R, so a row that carries a load F rests at

    F = k d(r) |r| / R  =  d(r)^2 |r| / ((1 - d(r)) Â dwidth^2 tc^2 dr^2).            (S)

With the impedance constant (d = dwidth) and one row carrying m g with Â = 1/m this is MuJoCo's
r = g (1 - d) tc^2 dr^2, seed 000's κ²εg/(1+ε) with ε = (1-d)/d, κ = d tc dr. Friction rows of an
elliptic cone have k = 0 and R_j = R_0 / impratio (R_j μ_j² = R_0 μ², μ = μ_1/sqrt(impratio)),
so a creeping contact carries F_t = b v / R_j. Every expected value below is derived from these.
"""

import numpy as np
import pytest

import gauss

G = 9.81
INTEGRATORS = ["Euler", "implicit", "implicitfast", "RK4"]


def impedance(solimp, r):
    """d(r) of MJCF's solimp: d0 at r = 0, dwidth beyond width, a two-piece power spline."""
    d0, dw, width, mid, power = solimp
    x = abs(r) / width
    if x >= 1:
        return dw
    if x <= mid:
        y = x ** power / mid ** (power - 1)
    else:
        y = 1 - (1 - x) ** power / (1 - mid) ** (power - 1)
    return d0 + y * (dw - d0)


def resting_residual(solimp, solref, load_per_weight):
    """|r| solving (S): |r| = a (1 - d) dwidth^2 tc^2 dr^2 / d^2, a = F Â, by bisection (the
    right side decreases with |r| since d grows with it)."""
    tc, dr = solref
    dw = solimp[1]

    def excess(p):
        d = impedance(solimp, p)
        return p - load_per_weight * (1 - d) * dw ** 2 * tc ** 2 * dr ** 2 / d ** 2

    lo, hi = 0.0, 1.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if excess(mid) > 0 else (mid, hi)
    return 0.5 * (lo + hi)


def load(xml):
    m = gauss.Model.from_xml_string(xml)
    return m, gauss.Data(m)


# ---- a box resting on a plane ----

def box_xml(mass, integrator="Euler", solimp="0.9 0.95 0.001 0.5 2", solref="0.02 1",
            gravity=(0, 0, -G), cone="elliptic", mu=1.0, noslip=0, impratio=1):
    gx, gy, gz = gravity
    return f"""<mujoco><option timestep="0.002" gravity="{gx} {gy} {gz}" cone="{cone}"
        integrator="{integrator}" tolerance="1e-10" noslip_iterations="{noslip}" impratio="{impratio}"/>
      <default><geom solimp="{solimp}" solref="{solref}" friction="{mu} 0.005 0.0001" condim="3"/></default>
      <worldbody><geom type="plane" size="10 10 0.1"/>
        <body pos="0 0 0.1"><freejoint/><geom type="box" size="0.1 0.1 0.1" mass="{mass}"/></body>
      </worldbody></mujoco>"""


@pytest.mark.parametrize("integrator", INTEGRATORS)
@pytest.mark.parametrize("mass", [0.1, 100.0])
def test_box_resting_penetration(mass, integrator):
    # Four corner contacts share m g equally (symmetry); each normal row has Â = 1/m (the
    # translational inverse weight of a free body; the world's is 0), so (S) per contact reads
    # m g / 4 = d^2 p m / ((1 - d) dwidth^2 tc^2 dr^2): p = g (1 - d(p)) dwidth^2 tc^2 dr^2 /
    # (4 d(p)^2), independent of m. With the default solimp p lies inside the width, so d(p)
    # comes from the spline and p from the fixed point. At rest qacc = 0, so every integrator
    # has the same fixed point.
    m, d = load(box_xml(mass, integrator))
    gauss.step(m, d, 1000)
    expected = resting_residual((0.9, 0.95, 0.001, 0.5, 2), (0.02, 1), G / 4)
    assert d.ncon == 4
    assert abs(d.qvel).max() < 1e-9
    assert abs((0.1 - d.qpos[2]) - expected) < 1e-6 * expected, (0.1 - d.qpos[2], expected)


@pytest.mark.parametrize("solref", [(0.02, 1.0), (0.05, 0.8), (0.01, 2.0)])
def test_sphere_resting_penetration_constant_impedance(solref):
    # One frictionless contact, constant impedance d: (S) with F = m g, Â = 1/m gives
    # MuJoCo's r = g (1 - d) tc^2 dr^2 exactly (seed 000: κ²εg/(1+ε), κ = d tc dr, ε = (1-d)/d).
    tc, dr = solref
    # (both geoms carry the parameters: a contact mixes the two geoms' solref and solimp)
    xml = f"""<mujoco><option timestep="0.001" tolerance="1e-10"/>
      <default><geom condim="1" solref="{tc} {dr}" solimp="0.8 0.8 0.001 0.5 2"/></default>
      <worldbody><geom type="plane" size="5 5 0.1"/>
        <body pos="0 0 0.1"><freejoint/><geom type="sphere" size="0.1" mass="3"/></body>
      </worldbody></mujoco>"""
    m, d = load(xml)
    gauss.step(m, d, 4000)
    expected = G * (1 - 0.8) * tc ** 2 * dr ** 2
    assert abs((0.1 - d.qpos[2]) - expected) < 1e-6 * expected


# ---- a block on an incline (gravity tilted by θ about y; the plane stays horizontal) ----

def creep_prediction(theta, cone, mu, impratio, d=0.9, tc=0.02):
    # Steady creep: qacc = 0, so each contact's rows are in the quadratic zone with f = aref/R.
    # Elliptic: friction row f_t = b v / R_t, R_t = R_0/impratio, R_0 = (1-d)/d * (1/m),
    #   b = 2/(d tc); four contacts carry m g sinθ: v = g sinθ (1-d) tc / (8 impratio).
    # Pyramidal (impratio 1): edge j± has J = n ± μ t, aref = -b (v_n ± μ v_t) - k d r,
    #   R_edge = 2 μ² R_first with R_first = (1-d)/d (1 + μ²)/m; friction = μ (f+ - f-) =
    #   2 μ² b v / R_edge per contact, so v = g sinθ (1-d) (1 + μ²) tc / 8.
    # Both independent of m; d is constant (solimp d0 = dwidth) so the tilt of the box does
    # not change any R.
    if cone == "elliptic":
        return G * np.sin(theta) * (1 - d) * tc / (8 * impratio)
    return G * np.sin(theta) * (1 - d) * (1 + mu ** 2) * tc / 8


def mujoco_run(xml, nstep):
    mujoco = pytest.importorskip("mujoco")
    mm = mujoco.MjModel.from_xml_string(xml)
    md = mujoco.MjData(mm)
    mujoco.mj_step(mm, md, nstep)
    return md


@pytest.mark.parametrize("cone,impratio", [("elliptic", 1), ("elliptic", 3), ("pyramidal", 1)])
def test_incline_creep(cone, impratio):
    theta, mu = 0.3, 1.0  # tanθ = 0.31 < μ
    xml = box_xml(1.0, gravity=(G * np.sin(theta), 0, -G * np.cos(theta)), cone=cone, mu=mu,
                  solimp="0.9 0.9 0.001 0.5 2", impratio=impratio)
    m, d = load(xml)
    gauss.step(m, d, 500)  # 1 s: the creep's time constant is tc
    x0 = d.qpos[0]
    gauss.step(m, d, 500)
    rate = (d.qpos[0] - x0) / 1.0
    expected = creep_prediction(theta, cone, mu, impratio)
    assert abs(rate - expected) < 1e-6 * expected, (rate, expected)
    # and MuJoCo's creep on the same model, within 1%
    md0 = mujoco_run(xml, 500)
    md1 = mujoco_run(xml, 1000)
    mj_rate = md1.qpos[0] - md0.qpos[0]
    assert abs(rate - mj_rate) < 0.01 * abs(mj_rate)


@pytest.mark.parametrize("cone", ["elliptic", "pyramidal"])
def test_incline_noslip_does_not_creep(cone):
    # Noslip solves the friction rows again with R = 0: the friction force then holds m g sinθ
    # exactly and no velocity is left to creep with. The box starts at its resting penetration
    # ((S) with m g cosθ / 4 per contact, d = 0.9) so that no landing happens while the normal
    # force is still small (a drop from zero penetration slips 5e-5 m before the contacts carry
    # the weight). The slip is measured at the centre of the bottom face: the box settles into a
    # small tilt (the corners carry different loads), which moves its centre of mass, not its
    # contacts.
    theta = 0.3
    xml = box_xml(1.0, gravity=(G * np.sin(theta), 0, -G * np.cos(theta)), cone=cone,
                  solimp="0.9 0.9 0.001 0.5 2", noslip=50)
    m, d = load(xml)
    d.qpos[2] = 0.1 - G * np.cos(theta) * (1 - 0.9) * 0.02 ** 2 / 4  # (S), d = dwidth
    gauss.forward(m, d)

    def bottom():
        return (d.xpos[1] + d.xmat[1].reshape(3, 3) @ np.array([0, 0, -0.1]))[0]

    x0 = bottom()
    worst = 0.0
    for _ in range(20):  # 2 s
        gauss.step(m, d, 50)
        worst = max(worst, abs(bottom() - x0))
    assert worst < 1e-6, worst


def slide_xml(theta, mu, dimp, integrator, solreffriction):
    return f"""<mujoco><option timestep="0.002" integrator="{integrator}" tolerance="1e-10"
        gravity="{G * np.sin(theta)} 0 {-G * np.cos(theta)}" cone="elliptic"/>
      <worldbody><geom name="floor" type="plane" size="50 50 0.1"/>
        <body pos="0 0 0.1"><freejoint/><geom name="block" type="box" size="0.1 0.1 0.1" mass="1"/></body>
      </worldbody>
      <contact><pair geom1="floor" geom2="block" condim="3" friction="{mu} {mu} 0.005 0.0001 0.0001"
        solref="0.02 1" solimp="{dimp} {dimp} 0.001 0.5 2" solreffriction="{solreffriction}"/></contact>
    </mujoco>"""


@pytest.mark.parametrize("integrator", ["Euler", "implicitfast", "RK4"])
def test_incline_slides_with_coulomb_acceleration(integrator):
    # tanθ = 0.68 > μ = 0.5. On the elliptic cone a sliding contact is on the cone's surface,
    # |f_t| = μ f_n exactly, so if the normal rows keep m g cosθ the block accelerates at
    # g (sinθ - μ cosθ). The normal force of a contact on the cone is
    #   f_n = D_0/(1 + μ²) (μ |jar_t| - jar_n),  jar_t = a + b_f v,  jar_n = -k d |r|,
    # so staying in contact (|r| > 0) needs μ (a + b_f v) < (1 + μ²) f_n / D_0 with
    # D_0 = d m/(1 - d) and f_n = m g cosθ / 4: the friction reference b_f v lifts a fast block
    # (with the default b_f = 2/(d tc) that happens at a few mm/s and the block hops, see the
    # next test). Here d = 0.5 gives (1 + μ²) g cosθ / 4 = 2.5 m/s² against μ a = 0.75, and
    # solreffriction (10, 1) makes b_f = 0.4/s, so the condition holds up to ~9 m/s.
    theta, mu = 0.6, 0.5
    m, d = load(slide_xml(theta, mu, 0.5, integrator, "10 1"))
    gauss.step(m, d, 250)
    v0 = d.qvel[0]
    ncon = []
    for _ in range(500):
        gauss.step(m, d)
        ncon.append(d.ncon)
    accel = (d.qvel[0] - v0) / 1.0
    expected = G * (np.sin(theta) - mu * np.cos(theta))
    assert min(ncon) == 4
    assert abs(accel - expected) < 0.01 * expected, (accel, expected)


def test_incline_fast_block_leaves_the_plane():
    # The other side of the condition above: with d = 0.9, (1 + μ²) g cosθ (1 - d)/(4 d) =
    # 0.28 m/s² < μ a = 0.75 m/s², so no penetration can hold a sliding contact on the cone:
    # the block must lose its contacts at times (it hops; MuJoCo does the same).
    m, d = load(slide_xml(0.6, 0.5, 0.9, "Euler", "0 0"))
    ncon = []
    for _ in range(750):
        gauss.step(m, d)
        ncon.append(d.ncon)
    assert min(ncon[250:]) == 0


# ---- spin and rolling ----

def ball_xml(condim, noslip=0, integrator="Euler"):
    return f"""<mujoco><option timestep="0.002" cone="elliptic" integrator="{integrator}"
        tolerance="1e-10" noslip_iterations="{noslip}"/>
      <worldbody><geom name="floor" type="plane" size="50 50 0.1"/>
        <body pos="0 0 0.1"><freejoint/><geom name="ball" type="sphere" size="0.1" mass="1"/></body>
      </worldbody>
      <contact><pair geom1="floor" geom2="ball" condim="{condim}" friction="1 1 0.01 0.002 0.002"/></contact>
    </mujoco>"""


@pytest.mark.parametrize("integrator", ["Euler", "RK4"])
def test_top_spin(integrator):
    # A sphere spinning about the vertical touches the plane on its axis: no tangential slip.
    # condim 3 has no torsional row, so nothing brakes the spin (and a sphere has no gyroscopic
    # torque): ω stays. condim 4 brakes with the torsional friction μ_s f_n = μ_s m g on the
    # cone's surface: dω/dt = -μ_s m g / I, I = 2/5 m r², a linear decay.
    omega0, r, mu_s = 50.0, 0.1, 0.01
    m, d = load(ball_xml(3, integrator=integrator))
    gauss.step(m, d, 100)
    d.qvel[5] = omega0
    gauss.step(m, d, 1000)
    assert abs(d.qvel[5] - omega0) < 1e-9 * omega0

    m, d = load(ball_xml(4, integrator=integrator))
    gauss.step(m, d, 100)
    d.qvel[5] = omega0
    w = []
    for _ in range(5):
        gauss.step(m, d, 100)
        w.append(d.qvel[5])
    assert np.all(np.diff(w) < 0)
    rate = (w[0] - w[-1]) / 0.8
    expected = mu_s * G / (0.4 * r ** 2)
    # at 50 rad/s the torsional reference b ω also lifts the sphere a little at some steps (the
    # condition of the sliding test fails for torsion), so the mean normal impulse is m g only
    # on average: 2% (measured 0.6% with Euler, 0.2% with RK4)
    assert abs(rate - expected) < 0.02 * expected, (rate, expected)


def test_ball_rolling_friction_stops():
    # A ball rolling without slip (v = ω r) against the rolling friction torque μ_r f_n = μ_r m g:
    # m dv/dt = F, I dω/dt = -F r - μ_r m g with ω = v/r gives dv/dt = -μ_r g / (r (1 + 2/5)).
    # It decelerates linearly at that rate and, with noslip (hard friction rows), stops at
    # t = v0 / |dv/dt| and stays. Without noslip the soft rolling rows creep below ~0.3 m/s
    # (quadratic zone), so there the speed only decays.
    r, mu_r, v0 = 0.1, 0.002, 1.0
    decel = mu_r * G / (1.4 * r)
    m, d = load(ball_xml(6, noslip=20))
    gauss.step(m, d, 100)
    d.qvel[0], d.qvel[4] = v0, v0 / r
    v = []
    for _ in range(12):
        gauss.step(m, d, 500)
        v.append(d.qvel[0])
    rate = v[0] - v[4]
    assert abs(rate / 4 - decel) < 0.01 * decel, (rate / 4, decel)
    t_stop = v0 / decel  # 7.1 s; the samples reach 12 s
    assert t_stop < 11
    assert abs(v[-1]) < 1e-9 and abs(d.qvel[4]) < 1e-8

    m, d = load(ball_xml(6))
    gauss.step(m, d, 100)
    d.qvel[0], d.qvel[4] = v0, v0 / r
    gauss.step(m, d, 500)
    early = v0 - d.qvel[0]
    assert abs(early - decel) < 0.01 * decel
    speeds = []
    for _ in range(15):
        gauss.step(m, d, 1000)
        speeds.append(d.qvel[0])
    assert np.all(np.diff(speeds) < 0) and speeds[-1] < 1e-2


# ---- a four-bar linkage closed by a connect constraint ----

FOURBAR = """<mujoco><compiler angle="radian"/>
  <option timestep="0.002" integrator="{integrator}" tolerance="1e-12"/>
  <default><geom type="capsule" size="0.02" mass="1" contype="0" conaffinity="0"/></default>
  <worldbody>
    <body name="crank"><joint type="hinge" axis="0 1 0"/><geom fromto="0 0 0 0 0 -0.3"/>
      <body name="coupler" pos="0 0 -0.3"><joint type="hinge" axis="0 1 0"/><geom fromto="0 0 0 0.5 0 0"/></body>
    </body>
    <body name="rocker" pos="0.5 0 0"><joint type="hinge" axis="0 1 0"/><geom fromto="0 0 0 0 0 -0.3"/></body>
  </worldbody>
  <equality><connect body1="coupler" body2="rocker" anchor="0.5 0 0" solref="0.004 1"
    solimp="0.9999 0.9999 0.001 0.5 2"/></equality>
</mujoco>"""


@pytest.mark.parametrize("integrator", INTEGRATORS)
def test_fourbar_loop_closure(integrator):
    # A parallelogram four-bar (crank, coupler, rocker) swinging under gravity from 3 rad/s.
    # Per row, quasi-statically, d k r = (1 - d) a0 (the equation after (S)), so the loop error
    # is about (1 - d) d tc^2 dr^2 |a0|: with d = 0.9999 and tc = 0.004 that is 1.6e-9 |a0|,
    # |a0| ~ tens of m/s², far below 1e-6 m (with MJCF's default solref/solimp it is ~2e-4 m).
    # The error is measured from the bodies' poses, not from efc_pos.
    m, d = load(FOURBAR.format(integrator=integrator))
    d.qvel[:] = [3.0, -3.0, 3.0]  # a motion that keeps the parallelogram closed
    worst = 0.0
    for _ in range(5000):  # 10 s
        gauss.step(m, d)
        p1 = d.xpos[2] + d.xmat[2].reshape(3, 3) @ np.array([0.5, 0, 0])
        p2 = d.xpos[3] + d.xmat[3].reshape(3, 3) @ np.array([0, 0, -0.3])
        worst = max(worst, np.linalg.norm(p1 - p2))
    assert worst < 1e-6, worst
    assert abs(d.qvel).max() > 0.1  # it did move the whole time


# ---- a pendulum stopped by its hinge limit ----

@pytest.mark.parametrize("integrator", INTEGRATORS)
def test_pendulum_stops_at_limit(integrator):
    # A point-like mass (sphere r = 0.05, m = 1) at L = 0.5 on a hinge about y falls from the
    # horizontal onto the upper limit q = 0.5. One dof, so A = Â = 1/I exactly (I = m L² +
    # 2/5 m r², constant), and at rest (S) with the gravity torque m g L cos q gives the
    # overshoot p = a0 (1 - d) dwidth^2 tc^2 dr^2 / d^2, a0 = m g L cos(0.5 + p) / I.
    xml = f"""<mujoco><compiler angle="radian"/>
      <option timestep="0.002" integrator="{integrator}" tolerance="1e-10"/>
      <worldbody><body><joint type="hinge" axis="0 1 0" limited="true" range="-1 0.5"/>
        <geom type="sphere" size="0.05" pos="0.5 0 0" mass="1"/></body></worldbody></mujoco>"""
    m, d = load(xml)
    gauss.step(m, d, 2000)
    inertia = 0.25 + 0.4 * 0.05 ** 2
    solimp = (0.9, 0.95, 0.001, 0.5, 2)
    p = 0.0
    for _ in range(50):  # the load depends on p only through cos(0.5 + p)
        p = resting_residual(solimp, (0.02, 1), G * 0.5 * np.cos(0.5 + p) / inertia)
    assert abs(d.qvel[0]) < 1e-9
    assert abs((d.qpos[0] - 0.5) - p) < 1e-6 * p, (d.qpos[0] - 0.5, p)


# ---- faults: bad inputs give a warning and a safe state, never a crash ----

FAULT = """<mujoco><option timestep="0.002"/>
  <worldbody><geom type="plane" size="5 5 0.1"/>
    <body pos="0 0 0.1"><freejoint/><geom type="box" size="0.1 0.1 0.1" solref="{solref}"/></body>
    <body pos="1 0 0.5"><joint name="h" type="hinge" axis="0 1 0" limited="true" range="-30 30"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.02"/></body>
  </worldbody>
  <actuator><motor joint="h"/></actuator></mujoco>"""


@pytest.mark.parametrize("where", ["ctrl", "qfrc_applied", "xfrc_applied"])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_bad_forces_warn_and_stay_finite(where, bad):
    m, d = load(FAULT.format(solref="0.02 1"))
    gauss.step(m, d, 50)
    if where == "ctrl":
        d.ctrl[0] = bad
        kind = gauss.WARN_BADCTRL
    elif where == "qfrc_applied":
        d.qfrc_applied[2] = bad
        kind = gauss.WARN_BADQACC
    else:
        d.xfrc_applied[1, 4] = bad
        kind = gauss.WARN_BADQACC
    gauss.step(m, d, 10)
    if where == "ctrl":
        # as MuJoCo: the control is left as written, the actuators act as if it were zero, and
        # every step that sees it counts it
        assert d.warning[kind].number == 10
        assert not np.isfinite(d.ctrl[0])
    else:
        # a bad force diverges qacc: the data is reset (the inputs cleared) and counted once
        assert d.warning[kind].number == 1
    for name in ("qpos", "qvel", "qacc", "qfrc_applied", "xfrc_applied"):
        assert np.isfinite(getattr(d, name)).all(), name
    if d.nefc:
        assert np.isfinite(d.efc_force).all()


@pytest.mark.parametrize("solref", ["-0.02 1", "0.02 -1", "0 1"])
def test_mixed_solref_uses_default(solref):
    # A solref is either (timeconst, dampratio), both positive, or (-stiffness, -damping);
    # one negative time constant with a positive damping ratio is neither. As MuJoCo does, the
    # default (0.02, 1) replaces it, and the event is counted. The box must then rest where
    # the default puts it: (S) with four contacts and MJCF's default solimp.
    m, d = load(FAULT.format(solref=solref))
    gauss.step(m, d, 1000)
    assert d.warning[gauss.WARN_BADSOLREF].number > 0
    # the contact's solref is the element-wise minimum with the plane's (0.02, 1) for a
    # non-positive one, the average otherwise; either way it is mixed
    expected = resting_residual((0.9, 0.95, 0.001, 0.5, 2), (0.02, 1), G / 4)
    assert abs((0.1 - d.qpos[2]) - expected) < 1e-6 * expected


def test_ten_thousand_contacts():
    # 2500 small boxes on one free body, all touching the plane: 10 000 contacts at once
    # (40 000 pyramid rows). Every capacity holds them, nothing is counted as a fault, the state
    # stays finite and the body comes to rest.
    n = 50
    boxes = "".join(
        f'<geom type="box" size="0.009 0.009 0.01" pos="{(i - n / 2) * 0.02} {(j - n / 2) * 0.02} 0"/>'
        for i in range(n) for j in range(n))
    xml = f"""<mujoco><option tolerance="1e-10"/><worldbody><geom type="plane" size="5 5 0.1"/>
      <body pos="0 0 0.01"><freejoint/>{boxes}</body></worldbody></mujoco>"""
    m, d = load(xml)
    gauss.step(m, d, 200)
    assert d.ncon == 10000 and d.nefc == 40000
    assert not d.warning.number.any()
    assert np.isfinite(d.qpos).all() and np.isfinite(d.efc_force).all()
    assert abs(d.qvel).max() < 1e-6

