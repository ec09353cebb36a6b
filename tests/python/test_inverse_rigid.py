"""Rigid-contact inverse dynamics (gauss.inverse_rigid, seed 004) on scenes with known answers:
a table on four legs (indeterminate: Stage II's least-norm split, the warm start keeping its
set), a one-legged and a two-legged robot standing, a box on a slope at its friction limit, and
a standing quadruped whose predicted torques, applied in the forward simulation, keep it still."""

import os
import sys

import numpy as np
import pytest

import gauss

G = 9.81
METHODS = ("noslip", "coulomb", "qp")
QUADRUPED = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "quadruped",
                         "quadruped.xml")


def load(xml):
    m = gauss.Model.from_xml_string(xml)
    m.opt.gravity[:] = (0, 0, -G)
    return m, gauss.Data(m)


def world_force(d, r):
    """the sum of the contact forces in the world frame"""
    return sum(np.asarray(d.contact[i].frame).reshape(3, 3).T @ r.contact_force[i]
               for i in range(d.ncon))


def table_xml(extra=""):
    # a box resting on four spheres at its corners; penetration 1e-4 so all four touch
    feet = "".join(f'<geom type="sphere" size="0.01" pos="{x} {y} -0.05" mass="0.1"/>'
                   for x in (-0.2, 0.2) for y in (-0.1, 0.1))
    return ('<mujoco><option timestep="0.002"/><worldbody><geom type="plane" size="5 5 .1"/>'
            '<body pos="0 0 0.0599"><freejoint/>'
            f'<geom type="box" size="0.2 0.1 0.01" mass="2"/>{feet}{extra}'
            '</body></worldbody></mujoco>')


@pytest.mark.parametrize("method", METHODS)
def test_table_forces_carry_the_weight(method):
    m, d = load(table_xml())
    gauss.forward(m, d)
    assert d.ncon == 4
    d.qacc[:] = 0
    r = gauss.inverse_rigid(m, d, method=method)
    assert r.status == 0 and r.ncon == 4
    weight = m.body_mass.sum() * G
    np.testing.assert_allclose(world_force(d, r), [0, 0, weight], atol=1e-9)
    np.testing.assert_allclose(r.qacc, 0, atol=1e-9)
    assert np.all(r.contact_force[:, 0] >= -1e-12)
    assert r.residual < 1e-9
    np.testing.assert_array_equal(r.qfrc, 0)   # nothing is actuated


def test_table_qp_stage2_least_norm_split():
    """Stage I's optimum is a whole set of force distributions; Stage II (no actuators: least
    forces) takes the least-norm one: W/4 each when symmetric; with the centre of mass moved,
    the least-norm normal forces of the three equilibrium equations, in closed form."""
    m, d = load(table_xml())
    gauss.forward(m, d)
    d.qacc[:] = 0
    r = gauss.inverse_rigid(m, d, method="qp")
    weight = m.body_mass.sum() * G
    np.testing.assert_allclose(r.contact_force[:, 0], weight / 4, rtol=1e-6)
    np.testing.assert_allclose(r.contact_force[:, 1:], 0, atol=1e-6 * weight)
    # 1 kg more at (0.1, 0.05): sum f = W, sum x f = W xc, sum y f = W yc
    m, d = load(table_xml('<geom type="sphere" size="0.01" pos="0.1 0.05 0" mass="1"/>'))
    gauss.forward(m, d)
    d.qacc[:] = 0
    r = gauss.inverse_rigid(m, d, method="qp")
    pts = np.array([d.contact[i].pos[:2] for i in range(4)])
    A = np.vstack([np.ones(4), pts[:, 0], pts[:, 1]])
    com = d.subtree_com[1][:2]
    weight = m.body_mass.sum() * G
    rhs = weight * np.array([1, com[0], com[1]])
    least = A.T @ np.linalg.solve(A @ A.T, rhs)
    np.testing.assert_allclose(r.contact_force[:, 0], least, rtol=1e-6)


def test_noslip_warm_start_keeps_its_set():
    """Four contacts, six dofs: the normal LCP has rank three and many solutions. Warm-started
    from the last call's set, PPM reaches a solution with the same contacts and no pivot."""
    m, d = load(table_xml())
    gauss.forward(m, d)
    warm = gauss.RigidWarm()
    d.qacc[:] = 0
    first = gauss.inverse_rigid(m, d, method="noslip", warm=warm)
    kept = warm.contacts
    assert first.status == 0 and first.pivots >= 1 and 1 <= len(kept) <= 3
    rng = np.random.default_rng(3)
    for _ in range(5):
        # moving down: larger forces, the same contacts suffice
        d.qvel[:] = 0
        d.qvel[2] = -1e-3 * rng.uniform()
        d.qacc[:] = 0
        r = gauss.inverse_rigid(m, d, method="noslip", warm=warm)
        assert r.status == 0 and r.pivots == 0
        assert warm.contacts == kept
        cold = gauss.inverse_rigid(m, d, method="noslip")
        assert cold.pivots >= 1
        np.testing.assert_allclose(world_force(d, r), world_force(d, cold), atol=1e-9)


def slope_xml(mu, theta):
    c, s, h = np.cos(theta), np.sin(theta), 0.0499
    return ('<mujoco><compiler angle="radian"/><option timestep="0.002"/><worldbody>'
            f'<geom type="plane" size="5 5 .1" euler="0 {theta} 0" friction="{mu}"/>'
            f'<body pos="{s * h} 0 {c * h}" euler="0 {theta} 0"><freejoint/>'
            f'<geom type="box" size="0.2 0.1 0.05" mass="2" friction="{mu}"/>'
            '</body></worldbody></mujoco>')


@pytest.mark.parametrize("method", METHODS)
def test_slope_at_the_friction_limit(method):
    """A box on a slope of angle theta with mu = tan(theta) (1 +- 1e-3), the slope along a
    tangent of the contact frames (the pyramid's bound is then Coulomb's). Above the limit it
    stays: forces carry the weight. Below it, with Coulomb friction it slides with acceleration
    g (sin theta - mu cos theta) down the slope; without slip it stays."""
    theta = 0.3
    for sign in (1, -1):
        mu = np.tan(theta) * (1 + sign * 1e-3)
        m, d = load(slope_xml(mu, theta))
        gauss.forward(m, d)
        assert d.ncon == 4
        d.qacc[:] = 0
        r = gauss.inverse_rigid(m, d, method=method)
        assert r.status == 0
        weight = 2 * G
        if sign > 0 or method == "noslip":
            np.testing.assert_allclose(r.qacc, 0, atol=1e-9)
            np.testing.assert_allclose(world_force(d, r), [0, 0, weight], atol=1e-9)
        else:
            down = np.array([np.cos(theta), 0, -np.sin(theta)])
            along = r.qacc[:3] @ down
            if method == "coulomb":
                np.testing.assert_allclose(r.qacc[:3], along * down, atol=1e-12)
                np.testing.assert_allclose(along, G * (np.sin(theta) - mu * np.cos(theta)),
                                           rtol=1e-9)
            else:   # no normal complementarity: it may also leave the slope (section 2.2.4)
                assert along > 0
            # friction is at its bound on every contact that carries force
            f = r.contact_force
            np.testing.assert_allclose(np.abs(f[:, 1]) + np.abs(f[:, 2]), mu * f[:, 0],
                                       atol=1e-9)


ROBOT = """<mujoco><option timestep="0.002"/><worldbody><geom type="plane" size="5 5 .1"/>
<body name="base" pos="0 0 0.2599"><freejoint/><geom type="box" size="0.1 0.15 0.02" mass="3"/>
{legs}</body></worldbody><actuator>{acts}</actuator></mujoco>"""


def robot_xml(ys):
    legs, acts = "", ""
    for i, y in enumerate(ys):
        legs += (f'<body pos="0 {y} 0"><joint name="abd{i}" axis="1 0 0"/>'
                 f'<geom type="sphere" size="0.02" mass="0.2" contype="0" conaffinity="0"/><body>'
                 f'<joint name="leg{i}" type="slide" axis="0 0 1"/>'
                 f'<geom type="capsule" fromto="0 0 0 0 0 -0.2" size="0.01" mass="0.3" '
                 'contype="0" conaffinity="0"/>'
                 f'<geom type="sphere" pos="0 0 -0.25" size="0.01" mass="0.1"/></body></body>')
        acts += f'<motor joint="abd{i}"/><motor joint="leg{i}"/>'
    return ROBOT.format(legs=legs, acts=acts)


@pytest.mark.parametrize("method", METHODS)
def test_standing_on_one_foot(method):
    """One leg under the centre of mass: the single contact carries the whole weight, the leg's
    slide carries what is above it (base, hip, upper leg), and nothing accelerates."""
    m, d = load(robot_xml([0]))
    gauss.forward(m, d)
    assert d.ncon == 1
    d.qacc[:] = 0
    r = gauss.inverse_rigid(m, d, method=method)
    assert r.status == 0
    np.testing.assert_allclose(r.qacc, 0, atol=1e-9)
    np.testing.assert_allclose(r.contact_force[0], [m.body_mass.sum() * G, 0, 0], atol=1e-9)
    slide = m.jnt_dofadr[gauss.name2id(m, gauss.OBJ_JOINT, "leg0")]
    abd = m.jnt_dofadr[gauss.name2id(m, gauss.OBJ_JOINT, "abd0")]
    # the slide pushes the base and hip up: (3 + 0.2) g
    np.testing.assert_allclose(r.qfrc[slide], -(3 + 0.2) * G, rtol=1e-9)
    assert abs(r.qfrc[abd]) < 1e-9


@pytest.mark.parametrize("method", METHODS)
def test_standing_on_two_feet(method):
    """Two legs symmetric about the centre of mass: W/2 on each foot (the internal squeeze along
    the feet's line is the methods' own choice), nothing accelerates."""
    m, d = load(robot_xml([-0.1, 0.1]))
    gauss.forward(m, d)
    assert d.ncon == 2
    d.qacc[:] = 0
    r = gauss.inverse_rigid(m, d, method=method)
    assert r.status == 0
    np.testing.assert_allclose(r.qacc, 0, atol=1e-9)
    weight = m.body_mass.sum() * G
    np.testing.assert_allclose(r.contact_force[:, 0], weight / 2, rtol=1e-9)
    np.testing.assert_allclose(world_force(d, r), [0, 0, weight], atol=1e-9)


def quadruped_on_ground(xml):
    """the quadruped of xml standing, legs bent, its feet (radius 12 mm) 0.1 mm into the ground"""
    m = gauss.Model.from_xml_string(xml)
    d = gauss.Data(m)
    d.qpos[3] = 1
    d.qpos[7:] = np.tile([0, 0.5, -1.0], 4)
    d.qpos[2] = 0
    gauss.kinematics(m, d)
    feet = [gauss.name2id(m, gauss.OBJ_GEOM, f"{n}_foot") for n in ("FL", "FR", "HL", "HR")]
    d.qpos[2] = -(min(d.geom_xpos[f][2] for f in feet) - 0.012) - 1e-4
    return m, d


def standing_quadruped(stiff=False):
    xml = open(QUADRUPED).read()
    if stiff:   # rigid-ish ground: stiff contacts and the noslip pass
        xml = xml.replace('noslip_iterations="0"', 'noslip_iterations="20"')
        xml = xml.replace('<geom friction="1 0.005 0.0001"/>',
                          '<geom friction="1 0.005 0.0001" solref="0.002 1"/>')
    m, d = quadruped_on_ground(xml)
    gauss.forward(m, d)
    return m, d


def hold(m, d, qfrc, nstep):
    """steps with the motors pushing qfrc; how far the base (m) and the joints (rad) moved"""
    act_dofs = m.jnt_dofadr[m.actuator_trnid[:, 0]]
    q0 = d.qpos.copy()
    for _ in range(nstep):
        d.ctrl[:] = qfrc[act_dofs]
        gauss.step(m, d)
    return np.abs(d.qpos[:3] - q0[:3]).max(), np.abs(d.qpos[7:] - q0[7:]).max()


def stiff_robot(ys):
    xml = robot_xml(ys).replace('<option timestep="0.002"/>',
                                '<option timestep="0.001" noslip_iterations="20"/>')
    xml = xml.replace('<worldbody>', '<default><geom solref="0.002 1"/></default><worldbody>')
    m, d = load(xml)
    gauss.forward(m, d)
    return m, d


@pytest.mark.parametrize("method", METHODS)
def test_one_foot_still_forward(method):
    """The torques predicted for zero acceleration, applied by the motors in gauss's forward
    simulation on stiff ground with noslip, keep the one-legged robot still for 0.1 s; 90 % of
    them let it sink."""
    moved = []
    for scale in (1.0, 0.9):
        m, d = stiff_robot([0])
        d.qacc[:] = 0
        r = gauss.inverse_rigid(m, d, method=method)
        moved.append(hold(m, d, scale * r.qfrc, 100))
    assert moved[0][0] < 1e-5 and moved[0][1] < 1e-4, moved
    assert moved[1][1] > 1e-3, moved


def test_quadruped_standing_still_forward():
    """The same with the quadruped on four feet: Stage II spreads the load over the four feet as
    the simulator's contacts do, and the robot stays (the compliance of solref 0.002 and the
    0.1 mm initial penetration give it a small start); with 90 % of the torques it sinks. The
    LCP methods' choices among the indeterminate distributions (two diagonal feet) are valid
    rigid-contact answers that a compliant simulator does not reproduce, so they are checked on
    the determinate robot above."""
    moved = []
    for scale in (1.0, 0.9):
        m, d = standing_quadruped(stiff=True)
        d.qacc[:] = 0
        r = gauss.inverse_rigid(m, d, method="qp")
        assert r.status == 0
        np.testing.assert_allclose(world_force(d, r), [0, 0, 4.8 * G], atol=1e-9)
        moved.append(hold(m, d, scale * r.qfrc, 100))
    assert moved[0][0] < 1e-4 and moved[0][1] < 5e-3, moved
    assert moved[1][1] > 5e-2, moved


def test_qp_energy_objective_removes_the_base_momentum():
    """Stage I's kinetic-energy objective (eq. 92, the base free) has the gradient in the
    contact forces h J_b A^-1 (A v+_b + B v+_q) (A, B: the base rows of M): where no bound
    binds its optimum leaves the base rows of M v+ zero, v+_b = -A^-1 B v+_q. The joint
    velocities are taken where that motion keeps every foot's normal velocity zero (the null
    space of J_N [-A^-1 B; I]), the base moves against it; the forces stay inside the cones."""
    m, d = standing_quadruped()
    h = 0.01
    M = gauss.full_M(m, d)
    A, B = M[:6, :6], M[:6, 6:]
    jn = []
    for i in range(d.ncon):
        c = d.contact[i]
        foot = max(c.geom1, c.geom2)   # the floor is geom 0
        jp, _ = gauss.jac(m, d, np.array(c.pos), int(m.geom_bodyid[foot]))
        jn.append((1 if foot == c.geom2 else -1) * np.asarray(c.frame)[:3] @ jp)
    jn = np.array(jn)
    assert jn.shape[0] == 4
    free = np.vstack([-np.linalg.solve(A, B), np.eye(12)])
    vq = np.linalg.svd(jn @ free)[2][4:].T @ np.random.default_rng(1).uniform(-0.1, 0.1, 8)
    d.qvel[6:] = vq
    d.qvel[:6] = -np.linalg.solve(A, B @ vq) + (0.005, -0.005, -0.02, 0.01, -0.01, 0.02)
    gauss.forward(m, d)
    d.qacc[:] = 0
    r = gauss.inverse_rigid(m, d, method="qp", friction=True, objective="energy", dt=h)
    assert r.status == 0 and r.ncon == 4
    f = r.contact_force
    assert np.all(f[:, 0] > 0.2 * 4.8 * G / 4)
    assert np.all(np.abs(f[:, 1:]).sum(1) < 0.5 * f[:, 0])   # mu = 1: inside the pyramid
    vp = d.qvel + h * r.qacc
    np.testing.assert_allclose(vp[6:], vq, atol=1e-12)
    p0 = np.abs(M[:6] @ d.qvel).max()
    assert p0 > 0.05
    np.testing.assert_allclose(M[:6] @ vp, 0, atol=1e-9 * p0)
    np.testing.assert_allclose(vp[:6], -np.linalg.solve(A, B @ vq), atol=1e-9)


def test_same_call_same_bits():
    m, d = standing_quadruped()
    outs = []
    for _ in range(2):
        for method in METHODS:
            d.qacc[:] = 0
            r = gauss.inverse_rigid(m, d, method=method)
            outs.append(np.concatenate([r.qfrc, r.contact_force.ravel(), r.qacc]))
    for a, b in zip(outs[:3], outs[3:]):
        np.testing.assert_array_equal(a, b)


def test_qp_fast_paths_agree_with_kkt():
    """The QP's fast paths (least squares over the pyramid's edges) and the KKT LCPs of both
    stages reach the same optimum: Stage I's impulse on the base is unique, hence the base's
    acceleration; Stage II's torques (its objective is strictly convex in them through the small
    share of |z|^2, which the two paths weigh alike only up to that share: 1e-6 against 1e-4 of
    the mean diagonal, hence the tolerance)."""
    m, d = standing_quadruped()
    d.qacc[:] = 0
    d.qacc[6:] = np.linspace(-1, 1, 12)
    fast = gauss.inverse_rigid(m, d, method="qp")
    full = gauss.inverse_rigid(m, d, method="qp", kkt=True)
    assert fast.status == 0 and full.status == 0
    np.testing.assert_allclose(fast.qacc, full.qacc, atol=1e-9)
    np.testing.assert_allclose(fast.qfrc, full.qfrc, atol=1e-3 * np.abs(full.qfrc).max())
    np.testing.assert_allclose(world_force(d, fast), world_force(d, full), atol=1e-9)


@pytest.mark.parametrize("method", METHODS)
def test_foot_driven_into_the_ground(method):
    """The one-legged robot asks its slide for -1 m/s^2 (foot down into the ground): the contact
    holds the foot, so the base goes up at 1 m/s^2 and the ground pushes the weight plus 3.2 kg
    (base and hip) times 1 m/s^2. For the QP this is the case where the non-penetration rows bind
    (the fast path's answer would close the contact), so the full Stage I runs."""
    m, d = load(robot_xml([0]))
    gauss.forward(m, d)
    d.qacc[:] = 0
    slide = m.jnt_dofadr[gauss.name2id(m, gauss.OBJ_JOINT, "leg0")]
    d.qacc[slide] = -1
    r = gauss.inverse_rigid(m, d, method=method)
    assert r.status == 0
    np.testing.assert_allclose(r.qacc[:6], [0, 0, 1, 0, 0, 0], atol=1e-9)
    np.testing.assert_allclose(r.contact_force[0], [m.body_mass.sum() * G + 3.2, 0, 0],
                               atol=1e-9)
    assert r.penetration > -1e-9


@pytest.mark.parametrize("method", METHODS)
def test_fixed_base_prescribes_everything(method):
    """A fixed-base arm resting its tip on the floor: every dof is actuated, so the motion is
    prescribed and no contact force can change it; the contacts get none and the torques are
    those of the arm alone (at rest: the bias force, gravity)."""
    m, d = load('<mujoco><option timestep="0.002"/><worldbody><geom type="plane" size="5 5 .1"/>'
                '<body pos="0 0 0.3"><joint name="a" axis="0 1 0"/>'
                '<geom type="capsule" fromto="0 0 0 0.2 0 -0.2" size="0.02" mass="1"/>'
                '<body pos="0.2 0 -0.2"><joint name="b" axis="0 1 0"/>'
                '<geom type="capsule" fromto="0 0 0 0 0 -0.0801" size="0.02" mass="0.5"/>'
                '</body></body></worldbody><actuator><motor joint="a"/><motor joint="b"/>'
                '</actuator></mujoco>')
    gauss.forward(m, d)
    assert d.ncon >= 1
    d.qacc[:] = 0
    r = gauss.inverse_rigid(m, d, method=method)
    assert r.status == 0
    np.testing.assert_array_equal(r.contact_force, 0)
    np.testing.assert_allclose(r.qfrc, d.qfrc_bias, atol=1e-12)


@pytest.mark.parametrize("method", METHODS)
def test_non_finite_input(method):
    """NaN or Inf in the desired acceleration or the velocity: status -1, zero forces, no hang"""
    m, d = load(table_xml())
    gauss.forward(m, d)
    for field, bad in (("qacc", np.nan), ("qacc", np.inf), ("qvel", np.nan)):
        d.qacc[:] = 0
        d.qvel[:] = 0
        getattr(d, field)[2] = bad
        r = gauss.inverse_rigid(m, d, method=method)
        assert r.status == -1
        np.testing.assert_array_equal(r.contact_force, 0)
        np.testing.assert_array_equal(r.qfrc, 0)


def test_coulomb_mindiff_keeps_the_squeeze():
    """A bar on two feet along x, its centre of mass on the feet's line: the two normal forces
    are W/2 each, but the feet may squeeze the bar along x (equal and opposite friction, up to
    mu W/2) in any amount: the Coulomb LCP has a continuum of solutions. Algorithm 3 (by contact
    modes) takes the one nearest the last call's forces: none when they were none, the same
    squeeze when the last forces squeezed by 0.9 of the limit (they are a solution)."""
    xml = ('<mujoco><option timestep="0.002"/><worldbody><geom type="plane" size="5 5 .1"/>'
           '<body pos="0 0 0.0599"><freejoint/><geom type="box" size="0.2 0.02 0.01" mass="2"/>'
           '<geom type="sphere" size="0.01" pos="0.2 0 -0.05" mass="0.1"/>'
           '<geom type="sphere" size="0.01" pos="-0.2 0 -0.05" mass="0.1"/>'
           '</body></worldbody></mujoco>')
    m, d = load(xml)
    gauss.forward(m, d)
    assert d.ncon == 2
    weight, mu = m.body_mass.sum() * G, 1.0
    frames = [np.asarray(d.contact[i].frame).reshape(3, 3) for i in range(2)]
    xs = [d.contact[i].pos[0] for i in range(2)]
    warm = gauss.RigidWarm()
    d.qacc[:] = 0
    r = gauss.inverse_rigid(m, d, method="coulomb", warm=warm, mindiff=True)
    assert r.status == 0 and r.residual < 1e-9
    np.testing.assert_allclose(r.qacc, 0, atol=1e-9)
    np.testing.assert_allclose(r.contact_force[:, 0], weight / 2, rtol=1e-9)
    np.testing.assert_allclose(r.contact_force[:, 1:], 0, atol=1e-9)
    # last forces: each foot pushed outward... squeezing inward by 0.9 mu W/2
    for i in range(2):
        f = np.array([0.9 * mu * weight / 2 * (-np.sign(xs[i])), 0, weight / 2])
        warm._c.force[3 * i:3 * i + 3] = list(frames[i] @ f)
    r = gauss.inverse_rigid(m, d, method="coulomb", warm=warm, mindiff=True)
    assert r.status == 0 and r.residual < 1e-9
    np.testing.assert_allclose(r.qacc, 0, atol=1e-9)
    world = [frames[i].T @ r.contact_force[i] for i in range(2)]
    for i in range(2):
        np.testing.assert_allclose(world[i][0], 0.9 * mu * weight / 2 * (-np.sign(xs[i])),
                                   rtol=1e-9)
    np.testing.assert_allclose(world[0] + world[1], [0, 0, weight], atol=1e-9)


def test_coulomb_mindiff_on_four_feet():
    """The table on four feet: twelve force components, six equations, a six-dimensional
    continuum of solutions inside the pyramids. Algorithm 3 by contact modes takes its point
    nearest the last forces: from none, the least-norm solution, W/4 on each foot and no friction
    (the weight's row spans it); from the last forces W/4 with an inward radial squeeze (its
    forces cancel, and its moments, the feet being at one height), that squeeze itself, where
    Lemke returns a vertex. Both are solutions (residual below 1e-9)."""
    m, d = load(table_xml())
    gauss.forward(m, d)
    assert d.ncon == 4
    weight, mu = m.body_mass.sum() * G, 1.0
    frames = [np.asarray(d.contact[i].frame).reshape(3, 3) for i in range(4)]
    pos = [np.asarray(d.contact[i].pos)[:2] for i in range(4)]
    warm = gauss.RigidWarm()
    d.qacc[:] = 0
    r = gauss.inverse_rigid(m, d, method="coulomb", warm=warm, mindiff=True)
    assert r.status == 0 and r.residual < 1e-9
    np.testing.assert_allclose(r.qacc, 0, atol=1e-9)
    np.testing.assert_allclose(r.contact_force[:, 0], weight / 4, rtol=1e-9)
    np.testing.assert_allclose(r.contact_force[:, 1:], 0, atol=1e-9)
    squeeze = []
    for i in range(4):
        radial = -pos[i] / np.linalg.norm(pos[i]) * 0.3 * mu * weight / 4
        f = np.array([radial[0], radial[1], weight / 4])
        squeeze.append(f)
        warm._c.force[3 * i:3 * i + 3] = list(frames[i] @ f)
    r = gauss.inverse_rigid(m, d, method="coulomb", warm=warm, mindiff=True)
    assert r.status == 0 and r.residual < 1e-9
    np.testing.assert_allclose(r.qacc, 0, atol=1e-9)
    for i in range(4):
        np.testing.assert_allclose(frames[i].T @ r.contact_force[i], squeeze[i], atol=1e-9 * weight)
    lemke = gauss.inverse_rigid(m, d, method="coulomb")
    assert lemke.status == 0
    assert np.abs(lemke.contact_force - r.contact_force).max() > 1e-3


def test_bad_method():
    m, d = load(table_xml())
    with pytest.raises(ValueError):
        gauss.inverse_rigid(m, d, method="pgs")


def velocity_level_quadruped(mu):
    """the quadruped on ground as rigid as the soft model gets at the velocity level: reference
    acceleration -v / h (solref in its direct form, no spring), impedance 0.9999"""
    xml = open(QUADRUPED).read().replace(
        '<geom friction="1 0.005 0.0001"/>',
        f'<geom friction="{mu} 0.005 0.0001" solref="0 -1000" solimp="0.9999 0.9999 0.001"/>')
    return quadruped_on_ground(xml)


@pytest.mark.parametrize("mu", [1.5, 0.1])
def test_qp_contact_objective_predicts_the_forward_step(mu):
    """With the contact objective, Stage I's optimality conditions are those of the forward step
    of the complementarity-free model (MuJoCo's pyramidal cone with the reference -v/h): the
    torques it returns, applied in gauss's forward simulation, give the predicted contact forces
    and base acceleration. The quadruped lands moving down and sideways (at mu 0.1
    its feet slide). Tolerance 1e-3: the simulator's impedance 0.9999 leaves a regulariser of
    1e-4 of each row's inverse weight. The seed's kinetic-energy objective on the same state
    (its conditions hold on the base's share of the contact velocities) is checked the same way:
    the simulator's summed normal force under its torques misses its prediction by over 5e-3
    (1.2 % at mu 1.5), five times the tolerance above."""
    m, d = velocity_level_quadruped(mu)
    d.qvel[:3] = (0.3, -0.2, -0.15)
    d.qvel[6:] = np.linspace(-0.5, 0.5, 12)
    gauss.forward(m, d)
    assert d.ncon == 4
    desired = np.linspace(1.0, -2.0, 12)
    act = m.jnt_dofadr[m.actuator_trnid[:, 0]]
    preds = {}
    for objective in ("contact", "energy"):
        d.qacc[:] = 0
        d.qacc[act] = desired
        r = gauss.inverse_rigid(m, d, method="qp", dt=m.opt.timestep, objective=objective)
        assert r.status == 0
        preds[objective] = r
    r = preds["contact"]
    d.ctrl[:] = r.qfrc[act]
    gauss.forward(m, d)
    sim = np.array([gauss.contact_force(m, d, c)[0] for c in range(d.ncon)])
    scale = sim.sum()
    assert scale > 10 * 4.8 * G     # an impact: the landing's impulse dominates the weight
    np.testing.assert_allclose(r.contact_force[:, 0], sim, atol=1e-3 * scale)
    # the base's acceleration too (the legs' are not compared: their links weigh 50 to 150 g,
    # and the forces' 1e-3 moves them by much more)
    np.testing.assert_allclose(d.qacc[:3], r.qacc[:3], atol=3e-3 * np.abs(r.qacc[:3]).max())
    e = preds["energy"]
    d.ctrl[:] = e.qfrc[act]
    gauss.forward(m, d)
    sim_e = np.array([gauss.contact_force(m, d, c)[0] for c in range(d.ncon)])
    assert abs(e.contact_force[:, 0].sum() - sim_e.sum()) > 5e-3 * sim_e.sum()


def test_qp_contact_objective_needs_friction():
    """Without a friction bound the contact objective is unbounded below (a sliding velocity the
    base cannot cancel); the call refuses it rather than return a huge force."""
    m, d = velocity_level_quadruped(1.0)
    d.qvel[:3] = (0.3, -0.2, -0.15)
    gauss.forward(m, d)
    d.qacc[:] = 0
    r = gauss.inverse_rigid(m, d, method="qp", friction=False, objective="contact")
    assert r.status == -1 and not r.contact_force.any()
    with pytest.raises(ValueError):
        gauss.inverse_rigid(m, d, method="qp", objective="kinetic")


SLIDER = """<mujoco><option timestep="0.001"/>
  <worldbody><geom type="plane" size="1 1 0.1" condim="1"/>
    <body name="base" pos="0 0 0.1999"><joint name="y" type="slide" axis="0 1 0"/>
      <geom type="box" size="0.1 0.05 0.02" mass="2" contype="0" conaffinity="0"/>
      <body name="leg"><joint name="hip" axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 0.1 0 -0.17" size="0.01" mass="0.3" contype="0"
              conaffinity="0"/>
        <geom name="foot" type="sphere" pos="0.1 0 -0.17" size="0.03" mass="0.1" condim="1"/>
      </body></body></worldbody>
  <actuator><motor joint="hip"/></actuator></mujoco>"""


def test_noslip_repair_of_an_impossible_acceleration():
    """Section 3.5: a base that only slides sideways (across the leg's plane) cannot rise, so a hip
    accelerating its foot
    into the ground asks the contact for the impossible (its force cannot move the base) and the
    no-slip LCP has no solution (status -1). With repair the foot gets no force and the hip the
    acceleration nearest the desired one that keeps the foot out of the ground: the foot, rising
    at 0.1 m/s (hip at -1 rad/s), stops within the step, a = -qvel / dt = 1000 rad/s^2 (the
    desired 2000 would drive it in). Applied in gauss's forward dynamics (contacts off: no
    force), the torque gives that acceleration and the base's. A consistent desired acceleration
    is left as it is."""
    m, d = load(SLIDER)
    d.qvel[:] = (0, -1.0)
    gauss.forward(m, d)
    assert d.ncon == 1
    d.qacc[:] = (0, 2000.0)
    assert gauss.inverse_rigid(m, d, method="noslip").status == -1
    d.qacc[:] = (0, 2000.0)
    r = gauss.inverse_rigid(m, d, method="noslip", repair=True)
    assert r.status == 2
    assert not r.contact_force.any()
    np.testing.assert_allclose(r.qacc[1], 1000.0, rtol=1e-9)
    assert abs(r.penetration) < 1e-9
    m.opt.disableflags |= gauss.DSBL_CONTACT
    d.ctrl[:] = r.qfrc[1]
    gauss.forward(m, d)
    np.testing.assert_allclose(d.qacc, r.qacc, rtol=1e-9, atol=1e-9)
    m.opt.disableflags &= ~gauss.DSBL_CONTACT
    d.qacc[:] = (0, 500.0)      # the foot still rises: nothing to repair
    r = gauss.inverse_rigid(m, d, method="noslip", repair=True)
    assert r.status == 0 and r.qacc[1] == 500.0


def test_qp_smooth_stage2_keeps_the_last_torques_when_optimal():
    """The smooth Stage II takes, among Stage I's optima, the torques nearest the last call's.
    On four legs Stage I's own split is one of those optima: given its torques as the last ones,
    the smooth Stage II returns them (to the 1e-4 share of |beta|^2 the closed form adds) with the
    same base acceleration, where the least-norm Stage II returns smaller ones."""
    m, d = standing_quadruped()
    act = np.sort(m.jnt_dofadr[m.actuator_trnid[:, 0]])
    d.qacc[:] = 0           # standing: Stage I's split against the least torques'
    desired = d.qacc.copy()
    one = gauss.inverse_rigid(m, d, method="qp", stage2=False)
    d.qacc[:] = desired
    least = gauss.inverse_rigid(m, d, method="qp")
    warm = gauss.RigidWarm()
    warm._c.ntau = len(act)
    for j, p in enumerate(act):
        warm._c.tau[j] = one.qfrc[p]
    d.qacc[:] = desired
    smooth = gauss.inverse_rigid(m, d, method="qp", warm=warm, smooth=True)
    assert one.status == least.status == smooth.status == 0
    scale = np.abs(one.qfrc).max()
    assert np.linalg.norm(least.qfrc) < 0.5 * np.linalg.norm(one.qfrc)
    np.testing.assert_allclose(smooth.qfrc, one.qfrc, atol=1e-3 * scale)
    np.testing.assert_allclose(smooth.qacc, one.qacc, atol=1e-9)
    # and the warm start now holds this call's torques
    np.testing.assert_allclose([warm._c.tau[j] for j in range(len(act))], smooth.qfrc[act])


@pytest.mark.parametrize("objective", ["energy", "contact"])
def test_qp_stage2_weights_move_the_load(objective):
    """Stage II's contact weights (a controller's load transfer): on four feet Stage I leaves a
    choice of forces (a diagonal pair can carry the robot alone); weighting the other pair moves
    its load onto this one, the more the larger the weight, while the base's acceleration and
    the net contact force stay Stage I's (the weights act only among its optima). Zero weights
    give the least-norm Stage II's answer (to the 1e-6 and 1e-4 shares of the forces' squares
    that the two paths add to pick among equal torques)."""
    m, d = velocity_level_quadruped(1.5)
    gauss.forward(m, d)
    feet = [gauss.id2name(m, gauss.OBJ_GEOM, int(d.contact[i].geom2)) for i in range(d.ncon)]
    pair = np.array([f in ("FL_foot", "HR_foot") for f in feet])
    assert d.ncon == 4 and pair.sum() == 2
    desired = np.zeros(m.nv)

    def call(weight):
        d.qacc[:] = desired
        r = gauss.inverse_rigid(m, d, method="qp", objective=objective, weight=weight)
        assert r.status == 0
        return r

    r0 = call(None)
    rz = call(np.zeros(d.ncon))
    scale = np.abs(r0.qfrc).max()
    np.testing.assert_allclose(rz.qfrc, r0.qfrc, atol=1e-5 * scale)
    weight_n = m.body_subtreemass[1] * 9.81
    np.testing.assert_allclose(rz.contact_force, r0.contact_force, atol=1e-5 * weight_n)
    load0 = r0.contact_force[pair, 0].sum()
    assert load0 > 0.3 * weight_n
    last = load0
    for w in (0.1, 1.0, 10.0):
        r = call(np.where(pair, w, 0.0))
        np.testing.assert_allclose(r.qacc, r0.qacc, atol=1e-8)
        np.testing.assert_allclose(world_force(d, r), world_force(d, r0), atol=1e-9 * weight_n)
        load = r.contact_force[pair, 0].sum()
        assert load < last
        last = load
    assert last < 0.05 * load0
    with pytest.raises(ValueError):
        call(np.zeros(d.ncon + 1))


# the trot's state at 1.377 s (rigid ground, mu 0.1, qpc_mu with the stabilising layer, 1 ms):
# a two-foot stance whose weighted Stage II came back from Lemke as solved with an equality
# basis spoilt by round-off (LCP residual 151), the impulse on the base not kept and a foot
# entering the ground at 5.2 cm/s
TROT_1377_QPOS = np.array([
    0.21028844582965214, -0.008729749572551807, 0.13516084809997547, 0.9998393734505022,
    0.01323919667280019, -0.012058634576325465, 0.0007350521886493962, -0.014413607994855946,
    0.392363379963311, -0.8463215581036786, -0.011251575562893886, 0.7347821331554707,
    -1.3110603115912864, -0.006898104800446209, 0.7467730551164884, -1.3389711172728433,
    0.005392949880941115, 0.5360364887545139, -1.1078359624755814])
TROT_1377_QVEL = np.array([
    0.1555337107309848, -0.012038452544260558, -0.03747159491034524, 0.18582917801559795,
    0.226595946003831, 0.01331605376495859, -0.08634638894323253, 1.937520812164805,
    -1.946879726999483, 0.2782396548199601, -0.21585679674634384, -16.14887324798081,
    0.27827113117076685, -0.9926944725350475, -14.850559712949261, -0.05078725025683861,
    1.4819834585282856, -0.9262918648459888])
TROT_1377_QACC = np.array([
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -15.648860773930263, -208.4172637664405, 259.1015466874216,
    -4.596570014890828, -1189.8859699735774, 1415.2648898237112, -11.780644627448869,
    -1244.802221270794, 1518.5603463898624, -20.208412391450185, -194.0418527692683,
    219.01574241542613])
TROT_1377_CTRL = np.array([
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])


def test_qp_stage2_keeps_stage1_motion_trot_1377():
    """Stage II only redistributes forces: with the impulse on the free dofs kept, the
    acceleration is Stage I's and no contact moves into the ground (eq. 70's rows)"""
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples",
                                    "quadruped"))
    import trot
    m = trot.model(True, 0.1)
    d = gauss.Data(m)
    d.qpos[:], d.qvel[:] = TROT_1377_QPOS, TROT_1377_QVEL
    d.qacc[:], d.ctrl[:] = TROT_1377_QACC, TROT_1377_CTRL

    def call(**kw):
        return gauss.inverse_rigid(m, d, method="qp", friction=True, dt=1e-3,
                                   objective="contact", **kw)

    r1 = call(stage2=False)
    assert r1.status >= 0 and d.ncon == 2
    for kkt in (False, True):
        r = call(weight=np.zeros(d.ncon), kkt=kkt)
        assert r.status >= 0
        # the LCP residual of an answer returned as solved: round-off of forces ~100 N
        assert r.residual < 1e-6
        assert r.penetration >= -1e-9
        np.testing.assert_allclose(r.qacc, r1.qacc, atol=1e-6 * np.abs(r1.qacc).max())
