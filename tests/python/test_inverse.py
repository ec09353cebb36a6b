"""Inverse dynamics (gauss.inverse) against MuJoCo 3.3.7's mj_inverse and against gauss's own
forward dynamics.

- Conformance: every corpus model (whole, contacts on) at NSTATE states of a MuJoCo rollout with
  random controls and forces, at the forward's qacc plus a random perturbation (so that rows move
  between their zones: satisfied, quadratic, cone, Huber's linear parts): qfrc_inverse, efc_force,
  efc_state, qfrc_constraint and sensordata equal MuJoCo's to 1e-8 relative (oracle.rel_err), with
  the model's integrator and, with the invdiscrete flag, under Euler, implicitfast and implicit.
  Random actuated models (test_random_actuated.random_model) the same way.
- Round trip: the forward by Newton at tolerance 1e-12, then the inverse of its qacc gives back
  qfrc_applied + qfrc_actuator + J^T xfrc_applied and the forward's efc_force to 1e-8 relative, in
  both engines. PGS at 5 and 50 iterations: the discrepancy is printed (-s), not asserted.
- Seed 000's Fig. 2 mechanism (one hinge with dry friction, its tip on the ground, random
  controls): forward and inverse impulses within 1e-5.
- Bad input, the skip functions, and the fwdinv diagnostic.

NSTATE is 50 per corpus model, 10 steps apart. The inverse is compared where both engines made
the same rows (test_constraint_conformance.compare_rows): at a few rollout states (one of 50 on the
quadruped, humanoid_CMU and stacker) the forward's rows differ between the engines (efc_aref, or a
contact more), which is the collision and constraint tests' matter; those states are left out and
counted, and the count, a matter of rounding, is bounded as jitter.py bounds counts
(ROW_MISMATCH_BOUND). Rows of convex-collider contacts compare at 1e-7 (compare in the test).
"""

import numpy as np
import pytest

import gauss
import mujoco
import jitter
import oracle
from test_constraint_conformance import (compare_rows, constraint_xml, margin_shifted, missing_pair,
                                         on_boundary, row_tolerances, skip_state)
from test_random_actuated import random_model

TOL = 1e-8
NSTATE = 50
STEPS_BETWEEN = 10
EULER, RK4, IMPLICIT, IMPLICITFAST = 0, 1, 2, 3
ENBL_INVDISCRETE = gauss.ENBL_INVDISCRETE
assert ENBL_INVDISCRETE == int(mujoco.mjtEnableBit.mjENBL_INVDISCRETE)


def rollout(mjm, path, seed=0):
    """NSTATE (qpos, qvel, act, ctrl) of a MuJoCo rollout from the file's first keyframe with random
    controls and applied forces."""
    rng = np.random.default_rng(seed)
    d = mujoco.MjData(mjm)
    full = mujoco.MjModel.from_xml_path(path)
    if full.nkey:
        d.qpos[:], d.qvel[:] = full.key_qpos[0], full.key_qvel[0]
        d.act[:] = full.key_act[0]
    out = []
    for _ in range(NSTATE):
        for _ in range(STEPS_BETWEEN):
            d.ctrl[:] = rng.uniform(-1, 1, size=mjm.nu)
            d.qfrc_applied[:] = rng.normal(size=mjm.nv) * 0.5 * np.sqrt(np.abs(d.qM[mjm.dof_Madr]))
            mujoco.mj_step(mjm, d)
        out.append((d.qpos.copy(), d.qvel.copy(), d.act.copy(), d.ctrl.copy()))
    return out


def load(xml):
    mjm = mujoco.MjModel.from_xml_string(xml)
    gm = gauss.Model.from_xml_string(xml)
    return mjm, mujoco.MjData(mjm), gm, gauss.Data(gm)


def set_state(mjd, gd, state):
    qpos, qvel, act, ctrl = state
    for d in (mjd, gd):
        d.qpos[:], d.qvel[:] = qpos, qvel
        if len(act):
            d.act[:] = act
        if len(ctrl):
            d.ctrl[:] = ctrl


def set_options(mjm, gm, integrator=None, invdiscrete=False, solver=None, tol=None, iterations=None):
    for m in (mjm, gm):
        if integrator is not None:
            m.opt.integrator = integrator
        if invdiscrete:
            m.opt.enableflags |= ENBL_INVDISCRETE
        else:
            m.opt.enableflags &= ~ENBL_INVDISCRETE
        if solver is not None:
            m.opt.solver = solver
        if tol is not None:
            m.opt.tolerance = tol
        if iterations is not None:
            m.opt.iterations = iterations
        # convex colliders stop at ccd_tolerance: at 1e-10 both engines' contact frames agree to
        # ~1e-9 (test_constraint_conformance.set_solver)
        m.opt.ccd_tolerance = 1e-10


def compare_inverse(errors, tag, mjm, mjd, gm, gd, qacc, tol=TOL):
    """mj_inverse and gauss.inverse at the same state and qacc."""
    mjd.qacc[:] = qacc
    gd.qacc[:] = qacc
    mujoco.mj_inverse(mjm, mjd)
    gauss.inverse(gm, gd)
    if gd.nefc != mjd.nefc:
        errors.append(f"{tag}: nefc {gd.nefc} != {mjd.nefc}")
        return
    oracle.check_close(errors, f"{tag} qfrc_inverse", gd.qfrc_inverse, mjd.qfrc_inverse, tol)
    oracle.check_close(errors, f"{tag} efc_force", gd.efc_force, mjd.efc_force, tol)
    oracle.check_close(errors, f"{tag} qfrc_constraint", gd.qfrc_constraint, mjd.qfrc_constraint, tol)
    oracle.check_close(errors, f"{tag} sensordata", gd.sensordata, mjd.sensordata, tol)
    # qacc is an input: kept as given, with invdiscrete too
    if not np.array_equal(gd.qacc, qacc):
        errors.append(f"{tag}: qacc changed by the inverse")


def integrator_cases(mjm):
    """(integrator, invdiscrete): the model's own without the flag, and each integrator with a
    discrete step matrix with it (RK4 has none: MuJoCo refuses invdiscrete under RK4)."""
    own = int(mjm.opt.integrator)
    return [(own, False), (EULER, True), (IMPLICITFAST, True), (IMPLICIT, True)]


# States (of NSTATE) at which the forward's rows differ between the engines, per corpus model:
# measured with 100 jitters of 4 ulps of the rollout states (GAUSS_JITTERS=100, AMD EPYC): 0 to 2
# on the quadruped and stacker, 1 on humanoid_CMU (nominal 1 each), none elsewhere. The bound is
# jitter.py's: the largest count (2) plus the spread of the counts (2) plus one more case.
ROW_MISMATCH_BOUND = 5


def forward_pair(plain, xml, shifted, state, options):
    """(mjm, mjd, gm, gd, shifted) after both forwards at `state`, options(mjm, gm) applied: in the
    model with every contact's margin moved to 1 mm where a contact lies on the inclusion boundary
    (which engine makes its rows is then decided by the last bit), as the constraint tests do"""
    mjm, mjd, gm, gd = plain
    for attempt in range(2):
        options(mjm, gm)
        set_state(mjd, gd, state)
        mujoco.mj_forward(mjm, mjd)
        gauss.forward(gm, gd)
        if attempt == 0 and on_boundary(mjd, gd) and not missing_pair(mjm, mjd):
            shifted = shifted or load(margin_shifted(xml))
            mjm, mjd, gm, gd = shifted
    return mjm, mjd, gm, gd, shifted


def rows_differ(mjm, mjd, gm, gd, tag):
    """compare_rows' complaint (first line), or None when the forward's rows agree"""
    try:
        compare_rows(mjm, mjd, gm, gd, tag)
    except AssertionError as e:
        return str(e).splitlines()[0]
    return None


def row_mismatches(plain, xml, states):
    """the states (under the model's own options) at which the forward's rows differ between the
    engines: [(index, complaint)]"""
    shifted, out = None, []
    for k, state in enumerate(states):
        mjm, mjd, gm, gd, shifted = forward_pair(plain, xml, shifted, state, set_options)
        if skip_state(mjm, mjd) or on_boundary(mjd, gd):
            continue
        why = rows_differ(mjm, mjd, gm, gd, f"state {k}")
        if why:
            out.append((k, why))
    return out


def jittered_states(mjm, states, rng):
    """the rollout states with qpos and qvel jittered by a few ulps (jitter.py)"""
    return [(jitter.qpos(mjm, q, rng), jitter.scale(v, rng), act, ctrl)
            for q, v, act, ctrl in states]


def test_conformance_corpus(corpus_model):
    """States with a contact on the inclusion boundary are compared in the model with every
    contact's margin moved to 1 mm (forward_pair). States whose forward rows differ between the
    engines are left out; their number, nominal and under jitter, stays within
    ROW_MISMATCH_BOUND."""
    model_id, path = corpus_model
    xml, _ = constraint_xml(path)
    plain = load(xml)
    states = rollout(plain[0], path)
    mismatched = dict(row_mismatches(plain, xml, states))
    jittered = [len(row_mismatches(plain, xml, jittered_states(plain[0], states, r)))
                for r in jitter.rngs(f"inverse rows {model_id}")]
    if mismatched or any(jittered):
        jitter.spread(f"{model_id}: states whose forward rows differ between the engines",
                      len(mismatched), jittered, at_most=ROW_MISMATCH_BOUND, total=len(states))
    shifted = None
    rng = np.random.default_rng(7)
    errors, compared, missing = [], 0, 0
    for integrator, discrete in integrator_cases(plain[0]):
        def options(mjm, gm):
            set_options(mjm, gm, integrator=integrator, invdiscrete=discrete)
        for k, state in enumerate(states):
            mjm, mjd, gm, gd, shifted = forward_pair(plain, xml, shifted, state, options)
            if skip_state(mjm, mjd) or on_boundary(mjd, gd):
                missing += missing_pair(mjm, mjd)
                continue
            if k in mismatched:
                continue  # the forward's rows differ: counted and bounded above
            tag = f"{model_id} state {k} integrator {integrator} invdiscrete {int(discrete)}"
            why = rows_differ(mjm, mjd, gm, gd, tag)
            if why:
                errors.append(why)
                continue
            qacc = mjd.qacc + rng.normal(size=mjm.nv) * (1 + np.abs(mjd.qacc))
            # contacts from a convex collider stop at ccd_tolerance: their rows agree to ~4e-9
            # (test_constraint_conformance.row_tolerances), and the inverse multiplies a row's
            # error by its stiffness D |J|^2, well above M for these contacts at a perturbed qacc
            # (measured: 5e-8 on the quadruped's ball against its ellipsoid torso)
            tol = TOL if np.all(row_tolerances(mjm, mjd) <= 1e-9) else 10 * TOL
            compare_inverse(errors, tag, mjm, mjd, gm, gd, qacc, tol)
            compared += 1
    # a model whose every state holds a contact of a pair type gauss does not make like MuJoCo yet
    # (test_collision_corpus.MISSING) has nothing to compare here
    assert compared or missing, f"{model_id}: no state compared"
    if not compared:
        print(f"\n{model_id}: every state has a contact of a pair type not made like MuJoCo yet")
    assert not errors, "\n".join(errors[:8])


@pytest.mark.parametrize("seed", range(12))
def test_conformance_random_actuated(seed):
    mjm, mjd, gm, gd = load(random_model(seed))
    rng = np.random.default_rng(500 + seed)
    errors = []
    for integrator, discrete in integrator_cases(mjm):
        set_options(mjm, gm, integrator=integrator, invdiscrete=discrete)
        for k in range(3):
            qpos, qvel = oracle.random_state(mjm, rng)
            state = (qpos, qvel, rng.uniform(-1, 1, size=mjm.na), rng.uniform(-1, 1, size=mjm.nu))
            set_state(mjd, gd, state)
            mujoco.mj_forward(mjm, mjd)
            gauss.forward(gm, gd)
            qacc = rng.normal(size=mjm.nv) * (1 + np.abs(mjd.qacc))
            compare_inverse(errors, f"seed {seed} state {k} integrator {integrator} "
                            f"invdiscrete {int(discrete)}", mjm, mjd, gm, gd, qacc)
    assert not errors, "\n".join(errors[:8])


def test_invdiscrete_rk4_reads_continuous():
    """RK4 has no velocity-update matrix to invert (MuJoCo stops with an error): gauss reads qacc
    as continuous, the same bits as without the flag."""
    mjm, mjd, gm, gd = load(random_model(3))
    rng = np.random.default_rng(0)
    qpos, qvel = oracle.random_state(mjm, rng)
    assert mjm.dof_damping.max() > 0  # Euler's discrete step differs from the continuous one
    out = []
    for integrator, flag in ((RK4, False), (RK4, True), (EULER, True)):
        set_options(mjm, gm, integrator=integrator, invdiscrete=flag)
        gd.qpos[:], gd.qvel[:], gd.qacc[:] = qpos, qvel, np.arange(gm.nv) * 0.3
        gauss.inverse(gm, gd)
        out.append(gd.qfrc_inverse.copy())
    assert np.array_equal(out[0], out[1])
    assert not np.allclose(out[0], out[2])


# ---- round trip ----

def applied_force(mjm, mjd):
    """qfrc_applied + qfrc_actuator + J^T xfrc_applied (at each body's centre of mass), from
    MuJoCo's data after its forward pass."""
    q = mjd.qfrc_applied + mjd.qfrc_actuator
    for b in range(1, mjm.nbody):
        f = mjd.xfrc_applied[b]
        if np.any(f):
            mujoco.mj_applyFT(mjm, mjd, f[:3].copy(), f[3:].copy(), mjd.xipos[b].copy(), b, q)
    return q


def round_trip(mjm, mjd, gm, gd, state, rng, solver, iterations, tol):
    """Forward, then the inverse of the forward's qacc, in both engines: the errors of
    qfrc_inverse against the applied force and of efc_force against the forward's, gauss's then
    MuJoCo's, and the rows."""
    set_options(mjm, gm, solver=solver, tol=tol, iterations=iterations)
    for m in (mjm, gm):
        m.opt.noslip_iterations = 0  # noslip changes the forces after the solve: no inverse of it
    set_state(mjd, gd, state)
    body = int(rng.integers(1, mjm.nbody)) if mjm.nbody > 1 else 0  # the world's is ignored
    qfrc, xfrc = rng.normal(size=mjm.nv), rng.normal(size=6)
    for d in (mjd, gd):
        d.qfrc_applied[:] = qfrc
        d.xfrc_applied[:] = 0
        d.xfrc_applied[body] = xfrc
    rng_state = rng.bit_generator.state
    out = []
    for engine, m, d, fwd, inv in (("gauss", gm, gd, gauss.forward, gauss.inverse),
                                   ("mujoco", mjm, mjd, mujoco.mj_forward, mujoco.mj_inverse)):
        d.qacc_warmstart[:] = 0
        fwd(m, d)
        if engine == "gauss":
            mujoco.mj_forward(mjm, mjd)  # MuJoCo's data at the same state, for mj_applyFT
        applied = applied_force(mjm, mjd)
        force = d.efc_force.copy()
        inv(m, d)
        out.append((oracle.rel_err(d.qfrc_inverse, applied), oracle.rel_err(d.efc_force, force)))
    rng.bit_generator.state = rng_state
    return out, int(mjd.nefc)


def test_round_trip_corpus(corpus_model):
    model_id, path = corpus_model
    xml, _ = constraint_xml(path)
    mjm, mjd, gm, gd = load(xml)
    set_options(mjm, gm)
    rng = np.random.default_rng(3)
    worst = np.zeros(4)
    pgs = {5: np.zeros(2), 50: np.zeros(2)}
    with_rows = 0
    for state in rollout(mjm, path, seed=1):
        errs, nefc = round_trip(mjm, mjd, gm, gd, state, rng, mujoco.mjtSolver.mjSOL_NEWTON, 1000, 1e-12)
        worst = np.maximum(worst, np.ravel(errs))
        with_rows += nefc > 0
        for its in pgs:
            errs, _ = round_trip(mjm, mjd, gm, gd, state, rng, mujoco.mjtSolver.mjSOL_PGS, its, 1e-12)
            pgs[its] = np.maximum(pgs[its], errs[0])
    print(f"\n{model_id}: states with rows {with_rows}/{NSTATE}; Newton round trip "
          f"qfrc {worst[0]:.1e} efc {worst[1]:.1e} (MuJoCo {worst[2]:.1e} {worst[3]:.1e}); "
          f"PGS 5: qfrc {pgs[5][0]:.1e} efc {pgs[5][1]:.1e}; PGS 50: qfrc {pgs[50][0]:.1e} "
          f"efc {pgs[50][1]:.1e}")
    assert worst[0] <= TOL and worst[1] <= TOL, f"{model_id}: gauss round trip {worst[:2]}"
    assert worst[2] <= TOL and worst[3] <= TOL, f"{model_id}: MuJoCo round trip {worst[2:]}"


FIG2 = """<mujoco><option timestep="0.01" solver="{solver}" iterations="{its}" tolerance="1e-15"/>
<worldbody><geom type="plane" size="2 2 .1"/>
<body pos="0 0 0.5"><joint name="hinge" type="hinge" axis="0 1 0" frictionloss="1"/>
<geom type="capsule" fromto="0 0 0 0.45 0 -0.4" size="0.05" mass="1"/></body></worldbody>
<actuator><motor joint="hinge" gear="1"/></actuator></mujoco>"""


def fig2_discrepancy(solver, iterations):
    """The largest difference between the forward's impulses (efc_force h) and the inverse's from
    the forward's qacc over 300 steps under random controls; the steps with a ground contact."""
    gm = gauss.Model.from_xml_string(FIG2.format(solver=solver, its=iterations))
    gd = gauss.Data(gm)
    rng = np.random.default_rng(0)
    h = gm.opt.timestep
    worst, with_contact = 0.0, 0
    for _ in range(300):
        gd.ctrl[:] = rng.normal() * 5
        gauss.step(gm, gd)
        gauss.forward(gm, gd)
        impulse = gd.efc_force * h
        types = gd.efc_type.copy()
        gauss.inverse(gm, gd)
        worst = max(worst, float(np.max(np.abs(gd.efc_force * h - impulse), initial=0)))
        with_contact += bool(np.any(types >= 5))
    return worst, with_contact


@pytest.mark.parametrize("solver,iterations", [("PGS", 1000), ("Newton", 100)])
def test_fig2_single_joint_mechanism(solver, iterations):
    """Seed 000 Fig. 2: a single joint with dry friction whose tip rests on the ground, perturbed
    by random controls; the forward's impulses and the inverse's from the forward's qacc agree
    within 1e-5. The seed's forward is its GPGS; gauss's PGS on the friction loss and contact of
    this mechanism converges slowly: at MJCF's default 100 iterations the impulses differ by ~6e-3
    (printed), at 1000 by ~4e-9; Newton converges in a few iterations."""
    worst, with_contact = fig2_discrepancy(solver, iterations)
    if solver == "PGS":
        print(f"\nFig. 2 mechanism, PGS at 100 iterations: {fig2_discrepancy('PGS', 100)[0]:.1e}")
    assert with_contact > 100, f"the tip touched the ground in {with_contact} of 300 steps"
    assert worst < 1e-5, f"{solver}: forward and inverse impulses differ by {worst:.2e}"


# ---- bad input ----

def test_bad_qacc_counted_nothing_computed():
    mjm, mjd, gm, gd = load(constraint_xml(oracle.corpus_models()[0][1])[0])
    gauss.step(gm, gd, 50)
    gauss.forward(gm, gd)
    qpos = gd.qpos.copy()
    for n, bad in enumerate((np.nan, np.inf, -np.inf)):
        gd.qacc[2] = bad
        gauss.inverse(gm, gd)
        w = gd.warning[gauss.WARN_BADQACC]
        assert w.number == n + 1 and w.lastinfo == 2
        assert not np.any(gd.qfrc_inverse) and not np.any(gd.efc_force)
        assert np.array_equal(gd.qpos, qpos), "no reset: the state is an input"


STIFF = """<mujoco><option timestep="0.002" tolerance="1e-14" iterations="500"/>
<worldbody><geom type="plane" size="2 2 .1" solimp="{imp} {imp} 0.001"/>
<body pos="0 0 0.099"><freejoint/><geom type="box" size=".1 .1 .1" solimp="{imp} {imp} 0.001"/></body>
</worldbody></mujoco>"""


@pytest.mark.parametrize("imp", [0.9, 0.9999, 1.0])
def test_stiff_rows_finite_and_warned(imp):
    """solimp at or past MJCF's clamp 0.9999 makes R = 1e-4 of the row's diagApprox: the inverse's
    force multiplies any error of qacc by A / R = 1e4, so such rows are warned
    (WARN_STIFFINVERSE); the result stays finite and equals MuJoCo's for the same qacc. Default-like
    rows (0.9) are not warned."""
    xml = STIFF.format(imp=imp)
    mjm, mjd, gm, gd = load(xml)
    set_options(mjm, gm)
    for d, step in ((mjd, mujoco.mj_step), (gd, gauss.step)):
        for _ in range(100):
            step(mjm if d is mjd else gm, d)
    gd.qpos[:], gd.qvel[:] = mjd.qpos, mjd.qvel
    mujoco.mj_forward(mjm, mjd)
    gauss.forward(gm, gd)
    assert mjd.nefc > 0
    errors = []
    rng = np.random.default_rng(1)
    compare_inverse(errors, f"solimp {imp}", mjm, mjd, gm, gd, mjd.qacc + rng.normal(size=mjm.nv))
    assert not errors, "\n".join(errors)
    assert np.all(np.isfinite(gd.efc_force)) and np.all(np.isfinite(gd.qfrc_inverse))
    warned = gd.warning[gauss.WARN_STIFFINVERSE].number
    assert (warned > 0) == (imp > 0.999), f"solimp {imp}: warned {warned}"


# ---- skip functions ----

def humanoid():
    path = [p for i, p in oracle.corpus_models() if i == "mujoco/humanoid"][0]
    xml, _ = constraint_xml(path)
    return xml, path


def test_skip_bit_identical():
    xml, path = humanoid()
    mjm, mjd, gm, gd = load(xml)
    state = rollout(mjm, path)[3]
    set_state(mjd, gd, state)
    gauss.forward(gm, gd)
    assert gd.nefc > 0
    rng = np.random.default_rng(0)
    checks = 0
    for stage, change in ((gauss.STAGE_VEL, "ctrl"), (gauss.STAGE_VEL, "qfrc_applied"),
                          (gauss.STAGE_POS, "qvel")):
        new = getattr(gd, change) + 0.1 * rng.normal(size=getattr(gd, change).shape)
        getattr(gd, change)[:] = new
        ref = gauss.copy_data(gm, gd)
        gauss.forward(gm, ref)
        gauss.forward_skip(gm, gd, stage)
        for name in ("qacc", "efc_force", "qfrc_constraint", "sensordata", "actuator_force"):
            assert np.array_equal(getattr(gd, name), getattr(ref, name)), f"forward skip {change}: {name}"
        # the inverse of a changed qacc (and with STAGE_POS, a changed qvel)
        gd.qacc[:] += 0.1 * rng.normal(size=gm.nv)
        if stage == gauss.STAGE_POS:
            gd.qvel[:] += 0.1 * rng.normal(size=gm.nv)
        ref = gauss.copy_data(gm, gd)
        gauss.inverse(gm, ref)
        gauss.inverse_skip(gm, gd, stage)
        for name in ("qfrc_inverse", "efc_force", "qfrc_constraint", "sensordata"):
            assert np.array_equal(getattr(gd, name), getattr(ref, name)), f"inverse skip {change}: {name}"
        checks += 1
    assert checks == 3


def test_finite_difference_with_skip():
    """d(qfrc_inverse)/d(qvel) by central differences with the position stage skipped equals the
    full computation bit for bit, and MuJoCo's (mj_inverseSkip with mjSTAGE_POS) to 1e-6."""
    xml, path = humanoid()
    mjm, mjd, gm, gd = load(xml)
    state = rollout(mjm, path)[4]
    eps = 1e-6
    fd = {}
    for engine in ("gauss", "gauss_full", "mujoco"):
        set_state(mjd, gd, state)
        m, d = (mjm, mjd) if engine == "mujoco" else (gm, gd)
        (mujoco.mj_forward if engine == "mujoco" else gauss.forward)(m, d)
        qvel0 = d.qvel.copy()
        cols = []
        for j in range(m.nv):
            res = []
            for s in (1, -1):
                d.qvel[:] = qvel0
                d.qvel[j] += s * eps
                if engine == "mujoco":
                    mujoco.mj_inverseSkip(m, d, mujoco.mjtStage.mjSTAGE_POS, 1)
                elif engine == "gauss":
                    gauss.inverse_skip(m, d, gauss.STAGE_POS, 1)
                else:
                    gauss.inverse(m, d)
                res.append(d.qfrc_inverse.copy())
            cols.append((res[0] - res[1]) / (2 * eps))
        fd[engine] = np.array(cols).T
    assert np.array_equal(fd["gauss"], fd["gauss_full"])
    assert oracle.rel_err(fd["gauss"], fd["mujoco"]) < 1e-6


# ---- fwdinv ----

@pytest.mark.parametrize("solver,iterations,integrator", [("Newton", 100, None), ("PGS", 5, None),
                                                     ("PGS", 5, IMPLICITFAST)])
def test_fwdinv(solver, iterations, integrator):
    """solver_fwdinv after a step is |qfrc_constraint (forward) - qfrc_constraint (inverse of its
    qacc)| and |qfrc_applied + qfrc_actuator + J^T xfrc - qfrc_inverse|, as MuJoCo's mj_step
    reports them (checked here on MuJoCo's own numbers too: its first value is the constraint
    forces' difference in joint space, not efc_force's)."""
    xml, path = humanoid()
    mjm, mjd, gm, gd = load(xml)
    sid = {"Newton": mujoco.mjtSolver.mjSOL_NEWTON, "PGS": mujoco.mjtSolver.mjSOL_PGS}[solver]
    state = rollout(mjm, path)[2]
    # with an implicit integrator, the comparison runs the discrete-time inverse (invdiscrete)
    set_options(mjm, gm, solver=sid, iterations=iterations, integrator=integrator,
                invdiscrete=integrator is not None)
    for m in (mjm, gm):
        m.opt.enableflags |= gauss.ENBL_FWDINV
    for engine, m, d, fwd, inv, step in (
            ("gauss", gm, gd, gauss.forward, gauss.inverse_skip, gauss.step),
            ("mujoco", mjm, mjd, mujoco.mj_forward, mujoco.mj_inverseSkip, mujoco.mj_step)):
        set_state(mjd, gd, state)
        d.xfrc_applied[5] = [1, 2, 3, 0.1, 0.2, 0.3]
        d.qfrc_applied[:] = 0.5
        d.qacc_warmstart[:] = 0
        fwd(m, d)
        assert d.nefc > 0
        applied = d.qfrc_smooth - d.qfrc_passive + d.qfrc_bias
        force = d.efc_force.copy()
        qc = d.qfrc_constraint.copy()
        inv(m, d, 2, 1)  # skip the position and velocity stages, and the sensors
        expect = (np.linalg.norm(qc - d.qfrc_constraint), np.linalg.norm(applied - d.qfrc_inverse))
        if solver == "PGS":  # the rows' forces differ as well (a check of the setting)
            assert np.linalg.norm(force - d.efc_force) > 1e-6
        set_state(mjd, gd, state)
        d.qacc_warmstart[:] = 0
        step(m, d)
        got = np.array(d.solver_fwdinv)
        # under Newton both norms are rounding (~1e-12), which the order of the sums decides: an
        # absolute bound at 1e-10 of the forces' scale; under PGS they are O(1) and match to 1e-9
        scale = max(1.0, float(np.max(np.abs(force))), float(np.max(np.abs(applied))))
        assert np.allclose(got, expect, rtol=1e-9, atol=1e-10 * scale), f"{engine}: {got} != {expect}"
        if solver == "PGS":
            assert got[1] > 1e-6, f"{engine}: PGS at 5 iterations leaves a discrepancy"
    # no rows: zeros
    gd2 = gauss.Data(gm)
    gd2.qpos[2] = 10
    gauss.step(gm, gd2)
    assert gd2.nefc == 0 and not np.any(gd2.solver_fwdinv)
