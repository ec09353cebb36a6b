"""The public utilities of inverse dynamics: products and solves with M, Jacobians of frames and
subtree coms and their time derivatives, and the maps between positions and velocities.

- Conformance: every function against MuJoCo 3.3.7's (mj_jacBody, mj_jacBodyCom, mj_jacSite,
  mj_jacGeom, mj_jacSubtreeCom, mj_jacPointAxis, mj_jacDot, mj_mulM, mj_mulM2, mj_solveM,
  mj_solveM2, mj_integratePos, mj_differentiatePos) on every corpus model and on a small model
  with every joint type, at random states, to 1e-10 relative (oracle.rel_err).
- Ground truth: jac_dot against a central difference of jac along the motion; differentiate_pos
  as the inverse of integrate_pos (free, ball, hinge, slide; rotations near pi and past it; equal
  positions); the subtree com Jacobian times qvel against subtree_linvel; M's halves against M.
- Bad input: unknown names, ids out of range, arrays that cannot be written in place.
"""

import numpy as np
import pytest

import gauss
import mujoco
import oracle

TOL = 1e-10
NSTATE = 4

# every joint type, a ball followed by a slide in one body, several joints in one body, a massless
# body, a welded body, sites and geoms on each
MIXED_XML = """
<mujoco model="mixed">
  <option><flag contact="disable" constraint="disable"/></option>
  <worldbody>
    <body name="pend" pos="0 0 1">
      <joint name="ball0" type="ball"/>
      <geom size=".1" pos="0 0 -.5"/><site name="s0" pos=".1 .2 -.3"/>
      <body name="multi" pos="0 0 -.5">
        <joint name="h1" type="hinge" axis="0 1 0" pos=".1 0 0"/>
        <joint name="ball1" type="ball" pos="0 .1 0"/>
        <joint name="sl1" type="slide" axis="1 0 0"/>
        <geom size=".1" pos=".3 0 -.2"/><site name="s1" pos=".1 0 .1"/>
        <body name="leaf" pos=".2 .1 -.4">
          <joint type="slide" axis="0 1 1"/><joint type="hinge" axis="1 0 0"/>
          <geom size=".1" pos=".2 0 0"/><site name="s2" pos="0 .1 0"/>
          <body name="massless" pos=".1 0 0"><site name="s3" pos=".1 .1 0"/></body>
        </body>
      </body>
    </body>
    <body name="floater" pos="1 0 1">
      <freejoint/><geom size=".1" pos=".05 0 0"/>
      <body name="arm" pos=".3 0 0">
        <joint name="shoulder" type="ball" pos="-.05 0 0"/>
        <geom name="upper" type="capsule" size=".05 .2" pos=".1 0 0"/>
        <body name="fore" pos=".3 0 0">
          <joint name="elbow" type="hinge" axis="0 0 1"/><geom type="box" size=".1 .05 .05" pos=".1 0 0"/>
        </body>
      </body>
    </body>
    <body name="weld" pos="2 0 1"><geom size=".1"/><site name="sw"/></body>
  </worldbody>
</mujoco>
"""

# MIXED_XML without the ball followed by a slide in one body, where MuJoCo 3.3.7's mj_jacDot is not
# the derivative of its own mj_jac (see test_jac_dot_ball_then_slide)
BALLS_XML = MIXED_XML.replace('<joint name="sl1" type="slide" axis="1 0 0"/>', "")


def _load(xml):
    pair_m = mujoco.MjModel.from_xml_string(xml)
    gm = gauss.Model.from_xml_string(xml)
    return pair_m, mujoco.MjData(pair_m), gm, gauss.Data(gm)


def _set(mm, md, gm, gd, qpos, qvel):
    for d in (md, gd):
        d.qpos[:] = qpos
        d.qvel[:] = qvel
    mujoco.mj_forward(mm, md)
    gauss.forward(gm, gd)


def _compare_all(mm, md, gm, gd, rng, errors, tag, jacdot=True):
    """Every utility against MuJoCo's at the current state; appends readable failures."""
    nv = mm.nv

    def pair(fn, *args):
        jp, jr = np.zeros((3, nv)), np.zeros((3, nv))
        fn(mm, md, jp, jr, *args)
        return jp, jr

    def close(name, a, b):
        oracle.check_close(errors, f"{tag} {name}", a, b, TOL)

    for b in range(mm.nbody):
        for name, fn, gfn in (("jac_body", mujoco.mj_jacBody, gauss.jac_body),
                              ("jac_body_com", mujoco.mj_jacBodyCom, gauss.jac_body_com)):
            want = pair(fn, b)
            got = gfn(gm, gd, b)
            close(f"{name}({b}) jacp", got[0], want[0])
            close(f"{name}({b}) jacr", got[1], want[1])
        # a massless subtree: MuJoCo divides by its zero mass (NaN), gauss writes zeros
        # (test_jac_subtree_com_velocity)
        if mm.body_subtreemass[b] > 0:
            want = np.zeros((3, nv))
            mujoco.mj_jacSubtreeCom(mm, md, want, b)
            close(f"jac_subtree_com({b})", gauss.jac_subtree_com(gm, gd, b), want)
        point = md.xpos[b] + rng.normal(size=3)
        axis = rng.normal(size=3)
        want = np.zeros((3, nv)), np.zeros((3, nv))
        mujoco.mj_jacPointAxis(mm, md, want[0], want[1], point, axis, b)
        got = gauss.jac_point_axis(gm, gd, point, axis, b)
        close(f"jac_point_axis({b}) point", got[0], want[0])
        close(f"jac_point_axis({b}) axis", got[1], want[1])
        if jacdot:
            want = pair(mujoco.mj_jacDot, point, b)
            got = gauss.jac_dot(gm, gd, point, b)
            close(f"jac_dot({b}) jacp", got[0], want[0])
            close(f"jac_dot({b}) jacr", got[1], want[1])
    for s in range(mm.nsite):
        want = pair(mujoco.mj_jacSite, s)
        got = gauss.jac_site(gm, gd, s)
        close(f"jac_site({s}) jacp", got[0], want[0])
        close(f"jac_site({s}) jacr", got[1], want[1])
    for g in range(mm.ngeom):
        want = pair(mujoco.mj_jacGeom, g)
        got = gauss.jac_geom(gm, gd, g)
        close(f"jac_geom({g}) jacp", got[0], want[0])
        close(f"jac_geom({g}) jacr", got[1], want[1])

    x = rng.normal(size=nv)
    want = np.zeros(nv)
    mujoco.mj_mulM(mm, md, want, x)
    close("mul_M", gauss.mul_M(gm, gd, x), want)
    mujoco.mj_mulM2(mm, md, want, x)
    close("mul_M2", gauss.mul_M2(gm, gd, x), want)
    Y = rng.normal(size=(3, nv))
    want = np.zeros((3, nv))
    mujoco.mj_solveM(mm, md, want, Y)
    close("solve_M (3 right-hand sides)", gauss.solve_M(gm, gd, Y), want)
    close("solve_M (one)", gauss.solve_M(gm, gd, Y[1]), want[1])
    mujoco.mj_solveM2(mm, md, want, Y, np.sqrt(md.qLDiagInv))
    close("solve_M2", gauss.solve_M2(gm, gd, Y), want)

    q1 = md.qpos.copy()
    q2, v = oracle.random_state(mm, rng)
    for dt in (0.01, -0.3):
        want = q1.copy()
        mujoco.mj_integratePos(mm, want, v, dt)
        got = q1.copy()
        gauss.integrate_pos(gm, got, v, dt)
        close(f"integrate_pos dt={dt}", got, want)
        want = np.zeros(nv)
        mujoco.mj_differentiatePos(mm, want, dt, q1, q2)
        got = np.zeros(nv)
        gauss.differentiate_pos(gm, got, dt, q1, q2)
        close(f"differentiate_pos dt={dt}", got, want)
    # quaternions off the unit sphere: both normalise before differencing
    q2s = q2 * 1.7
    want = np.zeros(nv)
    mujoco.mj_differentiatePos(mm, want, 0.1, q1, q2s)
    got = np.zeros(nv)
    gauss.differentiate_pos(gm, got, 0.1, q1, q2s)
    close("differentiate_pos of scaled quaternions", got, want)


def test_conformance_corpus(corpus_model, corpus_pair, model_rng):
    pair = corpus_pair
    errors = []
    for k in range(NSTATE):
        qpos, qvel = oracle.random_state(pair.mjm, model_rng)
        _set(pair.mjm, pair.mjd, pair.gm, pair.gd, qpos, qvel)
        _compare_all(pair.mjm, pair.mjd, pair.gm, pair.gd, model_rng, errors, f"state {k}")
    assert not errors, f"{corpus_model[0]}:\n  " + "\n  ".join(errors[:20])


def test_conformance_every_joint_type():
    mm, md, gm, gd = _load(BALLS_XML)
    assert set(mm.jnt_type) == {0, 1, 2, 3}
    rng = np.random.default_rng(11)
    errors = []
    for k in range(8):
        qpos, qvel = oracle.random_state(mm, rng)
        _set(mm, md, gm, gd, qpos, qvel)
        _compare_all(mm, md, gm, gd, rng, errors, f"state {k}")
    assert not errors, "\n  ".join(errors[:20])


# ---- jac_dot: the derivative of jac along the motion ----

# central differences with h = 1e-6 of Jacobians O(1) changing at O(1): truncation h^2/6 |J'''|
# ~ 1e-12, rounding eps |J| / h ~ 1e-10; 1e-7 leaves room for models with larger entries
H_FD = 1e-6
TOL_FD = 1e-7


def _jac_dot_fd(m, d, point, body):
    """(d/dt jacp, d/dt jacr) at t = 0 for q(t) = integrate_pos(q, qvel, t), the point moving with
    the body (its body-frame coordinates held)."""
    R = d.xmat[body].reshape(3, 3)
    local = R.T @ (np.asarray(point) - d.xpos[body])
    out = []
    for t in (H_FD, -H_FD):
        dd = gauss.Data(m)
        q = d.qpos.copy()
        gauss.integrate_pos(m, q, d.qvel, t)
        dd.qpos[:] = q
        gauss.fwd_position(m, dd)
        p = dd.xpos[body] + dd.xmat[body].reshape(3, 3) @ local
        out.append(gauss.jac(m, dd, p, body))
    return [(a - b) / (2 * H_FD) for a, b in zip(out[0], out[1])]


def _check_jac_dot_fd(m, d, rng, errors, tag):
    for b in range(m.nbody):
        point = d.xpos[b] + rng.normal(size=3) * 0.5
        got = gauss.jac_dot(m, d, point, b)
        want = _jac_dot_fd(m, d, point, b)
        oracle.check_close(errors, f"{tag} body {b} jacp_dot", got[0], want[0], TOL_FD)
        oracle.check_close(errors, f"{tag} body {b} jacr_dot", got[1], want[1], TOL_FD)


@pytest.mark.parametrize("xml", [MIXED_XML, BALLS_XML], ids=["ball-then-slide", "balls"])
def test_jac_dot_finite_difference(xml):
    m = gauss.Model.from_xml_string(xml)
    d = gauss.Data(m)
    mm = mujoco.MjModel.from_xml_string(xml)
    rng = np.random.default_rng(5)
    errors = []
    for k in range(5):
        qpos, qvel = oracle.random_state(mm, rng)
        d.qpos[:] = qpos
        d.qvel[:] = qvel
        gauss.forward(m, d)
        _check_jac_dot_fd(m, d, rng, errors, f"state {k}")
        assert np.abs(gauss.jac_dot(m, d, d.xpos[3], 3)[0]).max() > 0.1, "a moving Jacobian"
    assert not errors, "\n  ".join(errors[:20])


@pytest.mark.parametrize("name", ["mujoco/humanoid", "dm_control/quadruped", "gymnasium/ant"])
def test_jac_dot_finite_difference_corpus(name):
    path = dict(oracle.corpus_models()).get(name)
    if path is None:
        pytest.fail(f"corpus model {name} missing")
    xml, _ = oracle.prepare_xml(path)
    m = gauss.Model.from_xml_string(xml)
    d = gauss.Data(m)
    mm = mujoco.MjModel.from_xml_string(xml)
    rng = np.random.default_rng(7)
    errors = []
    for k in range(2):
        qpos, qvel = oracle.random_state(mm, rng)
        d.qpos[:] = qpos
        d.qvel[:] = qvel
        gauss.forward(m, d)
        _check_jac_dot_fd(m, d, rng, errors, f"state {k}")
    assert not errors, f"{name}:\n  " + "\n  ".join(errors[:20])


def test_jac_dot_ball_then_slide():
    """A ball joint followed by a slide in one body: the ball's anchor does not move with the slide
    (the kinematics place it before the slide) while its axes turn with the body. gauss's jac_dot
    follows that (test_jac_dot_finite_difference); MuJoCo 3.3.7's mj_jacDot crosses the body's
    whole velocity, slide included, with the ball's subspaces, which is not the derivative of its
    own mj_jac there. Elsewhere on this model the two agree to 1e-10."""
    mm, md, gm, gd = _load(MIXED_XML)
    rng = np.random.default_rng(3)
    ball1 = gm.jnt_dofadr[gm.joint("ball1").id]
    ball_cols = np.arange(ball1, ball1 + 3)
    multi = gm.body("multi").id
    errors = []
    differs = 0.0
    for k in range(4):
        qpos, qvel = oracle.random_state(mm, rng)
        _set(mm, md, gm, gd, qpos, qvel)
        for b in range(mm.nbody):
            point = md.xpos[b] + rng.normal(size=3)
            jp, jr = np.zeros((3, mm.nv)), np.zeros((3, mm.nv))
            mujoco.mj_jacDot(mm, md, jp, jr, point, b)
            gp, gr = gauss.jac_dot(gm, gd, point, b)
            other = np.setdiff1d(np.arange(mm.nv), ball_cols)
            oracle.check_close(errors, f"state {k} body {b} jacp_dot other columns", gp[:, other],
                               jp[:, other], TOL)
            oracle.check_close(errors, f"state {k} body {b} jacr_dot", gr, jr, TOL)
            if b == multi:
                fd = _jac_dot_fd(gm, gd, point, b)[0]
                differs = max(differs, oracle.rel_err(jp, fd))
    assert not errors, "\n  ".join(errors[:20])
    # the reason for the exception above: MuJoCo's columns of the ball are not the derivative
    assert differs > 1e-3, f"mj_jacDot now matches the derivative ({differs:.2e}): compare all columns"


# ---- subtree com Jacobian: its product with qvel is the subtree's com velocity ----

def test_jac_subtree_com_velocity():
    for xml in (MIXED_XML, dict(oracle.corpus_models())["mujoco/humanoid"]):
        if xml.endswith(".xml"):
            xml, _ = oracle.prepare_xml(xml)
        m = gauss.Model.from_xml_string(xml)
        d = gauss.Data(m)
        mm = mujoco.MjModel.from_xml_string(xml)
        rng = np.random.default_rng(9)
        for k in range(3):
            qpos, qvel = oracle.random_state(mm, rng)
            d.qpos[:] = qpos
            d.qvel[:] = qvel
            gauss.forward(m, d)
            gauss.subtree_vel(m, d)
            for b in range(m.nbody):
                J = gauss.jac_subtree_com(m, d, b)
                if m.body_subtreemass[b] == 0:
                    assert np.all(J == 0), f"massless subtree {b}: zeros"
                    continue
                err = oracle.rel_err(J @ d.qvel, d.subtree_linvel[b])
                assert err < 1e-12, f"body {b}: J qvel vs subtree_linvel, rel err {err:.2e}"
                # the mass-weighted mean of the bodies' com Jacobians (the definition)
                sub = [i for i in range(b, m.nbody) if _in_subtree(m, i, b)]
                mean = sum(m.body_mass[i] * gauss.jac_body_com(m, d, i)[0] for i in sub)
                err = oracle.rel_err(J, mean / m.body_subtreemass[b])
                assert err < 1e-12, f"body {b}: mass-weighted com Jacobians, rel err {err:.2e}"


def _in_subtree(m, i, root):
    while i > root:
        i = m.body_parentid[i]
    return i == root


# ---- frames: the same numbers as jac at the frame's point ----

def test_frames_are_jac_at_their_points():
    m = gauss.Model.from_xml_string(MIXED_XML)
    d = gauss.Data(m)
    mm = mujoco.MjModel.from_xml_string(MIXED_XML)
    qpos, qvel = oracle.random_state(mm, np.random.default_rng(2))
    d.qpos[:] = qpos
    d.qvel[:] = qvel
    gauss.forward(m, d)
    for b in range(m.nbody):
        for got, p in ((gauss.jac_body(m, d, b), d.xpos[b]), (gauss.jac_body_com(m, d, b), d.xipos[b])):
            want = gauss.jac(m, d, p, b)
            assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
    for s in range(m.nsite):
        want = gauss.jac(m, d, d.site_xpos[s], m.site_bodyid[s])
        got = gauss.jac_site(m, d, s)
        assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
    for g in range(m.ngeom):
        want = gauss.jac(m, d, d.geom_xpos[g], m.geom_bodyid[g])
        got = gauss.jac_geom(m, d, g)
        assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
    # the site's velocity, differenced from the kinematics along the motion
    for s in range(m.nsite):
        pos = []
        for t in (H_FD, -H_FD):
            dd = gauss.Data(m)
            q = d.qpos.copy()
            gauss.integrate_pos(m, q, d.qvel, t)
            dd.qpos[:] = q
            gauss.kinematics(m, dd)
            pos.append(dd.site_xpos[s].copy())
        fd = (pos[0] - pos[1]) / (2 * H_FD)
        err = oracle.rel_err(gauss.jac_site(m, d, s)[0] @ d.qvel, fd)
        assert err < TOL_FD, f"site {s}: jacp qvel vs the differenced site position, {err:.2e}"
    # names, ids and accessors give the same Jacobian; the welded body's is zero
    assert np.array_equal(gauss.jac_site(m, d, "s1")[0], gauss.jac_site(m, d, m.site("s1").id)[0])
    assert np.array_equal(gauss.jac_body(m, d, m.body("arm"))[1], gauss.jac_body(m, d, "arm")[1])
    assert np.array_equal(gauss.jac_geom(m, d, "upper")[0],
                          gauss.jac_geom(m, d, m.geom("upper").id)[0])
    for J in gauss.jac_body(m, d, "weld") + gauss.jac_site(m, d, "sw") + gauss.jac_dot(m, d, d.xpos[0], 0):
        assert np.all(J == 0)


# ---- positions and velocities ----

def _rot_model():
    xml = """<mujoco><worldbody>
      <body><freejoint/><geom size=".1"/></body>
      <body pos="1 0 0"><joint type="ball"/><geom size=".1"/>
        <body pos="0 0 -.3"><joint type="hinge" axis="0 1 0"/><joint type="slide" axis="1 0 0"/>
          <geom size=".1"/></body></body>
    </worldbody></mujoco>"""
    return gauss.Model.from_xml_string(xml), mujoco.MjModel.from_xml_string(xml)


def test_differentiate_inverts_integrate():
    m, mm = _rot_model()
    rng = np.random.default_rng(4)
    free_rot = np.arange(3, 6)
    ball = np.arange(6, 9)
    for k in range(20):
        q, v = oracle.random_state(mm, rng)
        q[0:3] *= 2
        dt = rng.uniform(0.001, 0.5)
        # rotations from tiny to just below pi: |omega| dt = angle
        for cols, angle in ((free_rot, rng.uniform(0, np.pi)), (ball, np.pi * (1 - 10.0 ** -(k % 7 + 1)))):
            axis = rng.normal(size=3)
            v[cols] = axis / np.linalg.norm(axis) * angle / dt
        q2 = q.copy()
        gauss.integrate_pos(m, q2, v, dt)
        got = np.zeros(m.nv)
        gauss.differentiate_pos(m, got, dt, q, q2)
        # the log map near pi loses digits as 1/sin(angle / 2) stays O(1): 1e-9 relative holds
        err = oracle.rel_err(got * dt, v * dt)
        assert err < 1e-9, f"case {k}: differentiate(integrate(v)) vs v, rel err {err:.2e}"
        # equal positions: zero velocity
        zero = np.ones(m.nv)
        gauss.differentiate_pos(m, zero, dt, q, q.copy())
        assert np.all(zero == 0), f"case {k}: q1 == q2 gives {zero}"


def test_differentiate_takes_the_shorter_arc():
    """A turn by an angle between pi and 2 pi is the same rotation as one by angle - 2 pi about the
    same axis: differentiate_pos returns the latter (|omega| dt <= pi)."""
    m, mm = _rot_model()
    rng = np.random.default_rng(6)
    for angle in (np.pi + 1e-3, 4.0, 2 * np.pi - 0.1):
        q, v = oracle.random_state(mm, rng)
        axis = rng.normal(size=3)
        axis /= np.linalg.norm(axis)
        v[6:9] = axis * angle
        q2 = q.copy()
        gauss.integrate_pos(m, q2, v, 1.0)
        got = np.zeros(m.nv)
        gauss.differentiate_pos(m, got, 1.0, q, q2)
        want = v.copy()
        want[6:9] = axis * (angle - 2 * np.pi)
        assert oracle.rel_err(got, want) < 1e-9, (angle, got[6:9], want[6:9])


def test_integrate_pos_closed_form():
    """A hinge and a slide move by v dt; a free body's position by v dt and its quaternion by the
    body-frame rotation exp(omega dt / 2), q <- q * (cos(a/2), sin(a/2) axis)."""
    m, mm = _rot_model()
    rng = np.random.default_rng(8)
    q, v = oracle.random_state(mm, rng)
    dt = 0.37
    q2 = q.copy()
    gauss.integrate_pos(m, q2, v, dt)
    assert np.allclose(q2[0:3], q[0:3] + dt * v[0:3], rtol=0, atol=1e-15)
    assert np.allclose(q2[11:13], q[11:13] + dt * v[9:11], rtol=0, atol=1e-15)
    w = v[3:6]
    a = np.linalg.norm(w) * dt
    dq = np.concatenate([[np.cos(a / 2)], np.sin(a / 2) * w / np.linalg.norm(w)])
    want = np.zeros(4)
    mujoco.mju_mulQuat(want, q[3:7], dq)  # the oracle's quaternion product, a plain formula
    assert oracle.rel_err(oracle.align_quats(q2[3:7], want), want.reshape(1, 4)) < 1e-14


# ---- M and its halves ----

def test_M_utilities_against_dense_M():
    xml, _ = oracle.prepare_xml(dict(oracle.corpus_models())["mujoco/humanoid"])
    for src in (xml, MIXED_XML):
        m = gauss.Model.from_xml_string(src)
        d = gauss.Data(m)
        mm = mujoco.MjModel.from_xml_string(src)
        rng = np.random.default_rng(10)
        qpos, qvel = oracle.random_state(mm, rng)
        d.qpos[:] = qpos
        d.qvel[:] = qvel
        gauss.forward(m, d)
        M = gauss.full_M(m, d)
        x = rng.normal(size=m.nv)
        Y = rng.normal(size=(5, m.nv))
        assert oracle.rel_err(gauss.mul_M(m, d, x), M @ x) < 1e-12
        X = gauss.solve_M(m, d, Y)
        assert X.shape == Y.shape
        assert oracle.rel_err(X @ M, Y) < 1e-10  # M symmetric: rows of X M are M x
        for r in range(5):
            assert np.array_equal(X[r], gauss.solve_M(m, d, Y[r])), "each right-hand side alone"
        h = gauss.mul_M2(m, d, x)
        assert abs(h @ h - x @ M @ x) < 1e-12 * max(1, x @ M @ x)
        Z = gauss.solve_M2(m, d, Y)
        for r in range(5):
            want = Y[r] @ np.linalg.solve(M, Y[r])
            assert abs(Z[r] @ Z[r] - want) < 1e-10 * max(1, want)
        # the two halves: M2 x = D^1/2 L x, solve_M2 y = D^-1/2 L^-T y, so
        # solve_M2(M y') . mul_M2(x) = x . y' for any x, y'
        y = rng.normal(size=m.nv)
        lhs = gauss.solve_M2(m, d, M @ y) @ gauss.mul_M2(m, d, x)
        assert abs(lhs - x @ M @ y) < 1e-10 * max(1, abs(x @ M @ y))


# ---- bad input ----

def test_bad_input():
    m = gauss.Model.from_xml_string(MIXED_XML)
    d = gauss.Data(m)
    gauss.forward(m, d)
    p = np.zeros(3)
    for fn, n, kind in ((gauss.jac_body, m.nbody, "body"), (gauss.jac_body_com, m.nbody, "body"),
                        (gauss.jac_subtree_com, m.nbody, "body"), (gauss.jac_site, m.nsite, "site"),
                        (gauss.jac_geom, m.ngeom, "geom")):
        for bad in (n, -1, 10 ** 6):
            with pytest.raises(IndexError, match=rf"{kind} id {bad} out of range \(0\.\.{n - 1}\)"):
                fn(m, d, bad)
        with pytest.raises(KeyError, match=f"no {kind} named 'nope'"):
            fn(m, d, "nope")
    for fn, args in ((gauss.jac, (p,)), (gauss.jac_dot, (p,)), (gauss.jac_point_axis, (p, p))):
        with pytest.raises(IndexError, match=rf"body id {m.nbody} out of range \(0\.\.{m.nbody - 1}\)"):
            fn(m, d, *args, m.nbody)
        with pytest.raises(KeyError):
            fn(m, d, *args, "nope")
    with pytest.raises(TypeError, match="expected a body"):
        gauss.jac_body(m, d, m.site("s0"))
    with pytest.raises(ValueError, match="point must have 3"):
        gauss.jac_dot(m, d, np.zeros(2), 1)
    # in place: arrays that cannot be written into are refused
    v = np.zeros(m.nv)
    with pytest.raises(TypeError, match="written in place"):
        gauss.integrate_pos(m, list(d.qpos), v, 0.1)
    with pytest.raises(TypeError, match="written in place"):
        gauss.differentiate_pos(m, np.zeros(m.nv, dtype=np.float32), 0.1, d.qpos, d.qpos)
    with pytest.raises(ValueError, match="must have"):
        gauss.integrate_pos(m, np.zeros(m.nq + 1), v, 0.1)
    with pytest.raises(ValueError, match="dt must be finite and non-zero"):
        gauss.differentiate_pos(m, v, 0.0, d.qpos, d.qpos)
    with pytest.raises(ValueError, match="shape"):
        gauss.solve_M(m, d, np.zeros((2, m.nv + 1)))
    # the data's own arrays are valid targets
    q0 = d.qpos.copy()
    gauss.integrate_pos(m, d.qpos, np.ones(m.nv), 0.1)
    assert not np.array_equal(d.qpos, q0)
