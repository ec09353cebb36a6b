"""Newton's two Hessian paths (option jacobian: dense, sparse, auto = sparse from 60 dofs).

The dense path factors M + J^T D J as one block; the sparse path blocks it by kinematic trees in a
minimum-degree order and updates the factor by rank-1 updates as rows change state. Both are the
same Newton method, so run until the active set is exact they give the same qacc to rounding
(1e-12 relative) on every corpus model and on the pile of bench/models/pile100.xml; on heaps whose
pair types gauss makes exactly like MuJoCo (spheres and capsules), both equal MuJoCo's Newton
solution as the conformance tests measure it (qacc 1e-6 relative, efc_force 1e-5).
"""

import itertools
import os
import sys

import mujoco
import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import gauss  # noqa: E402
from test_constraint_conformance import (constraint_xml, rollout, set_solver,  # noqa: E402
                                         skip_state, compare_rows, compare_solution, BOUNDARY)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PILE = os.path.join(ROOT, "bench", "models", "pile100.xml")
JAC = {"dense": 0, "sparse": 1, "auto": 2}


def solve_both(gm, gd, qpos, qvel, warm):
    """qacc and efc_force of the dense and the sparse path from the same state and warm start,
    run to the exact solution (tolerance 0: the iterations stop when no step improves)."""
    out = {}
    for path in ("dense", "sparse"):
        gm.opt.jacobian = JAC[path]
        gm.opt.solver = 2
        gm.opt.tolerance = 0
        gm.opt.iterations = 200
        gd.qpos[:], gd.qvel[:] = qpos, qvel
        gd.qacc_warmstart[:] = warm
        gauss.forward(gm, gd)
        out[path] = (gd.qacc.copy(), gd.efc_force.copy(), gd.nefc)
    return out


def assert_same(out, tag):
    (a1, f1, n1), (a2, f2, n2) = out["dense"], out["sparse"]
    assert n1 == n2, tag
    scale = max(1.0, float(np.max(np.abs(a1)))) if len(a1) else 1.0
    err = float(np.max(np.abs(a1 - a2))) if len(a1) else 0.0
    assert err <= 1e-12 * scale, f"{tag}: dense and sparse qacc differ by {err} (scale {scale})"
    return err / scale


def test_dense_sparse_corpus(corpus_model):
    model_id, path = corpus_model
    xml, _ = constraint_xml(path)
    mjm = mujoco.MjModel.from_xml_string(xml)
    gm = gauss.Model.from_xml_string(xml)
    gd = gauss.Data(gm)
    worst = 0.0
    states = rollout(mjm, path)[::4]
    for k, (qpos, qvel) in enumerate(states):
        worst = max(worst, assert_same(solve_both(gm, gd, qpos, qvel, np.zeros(gm.nv)),
                                       f"{model_id} state {k}"))
    print(f"\n[{model_id}] dense vs sparse qacc rel {worst:.1e} over {len(states)} states")


def test_dense_sparse_pile():
    gm = gauss.Model.from_xml_path(PILE)
    gd = gauss.Data(gm)
    assert gm.nv >= 60 and gm.opt.jacobian == JAC["auto"]
    qpos, qvel = gd.qpos.copy(), gd.qvel.copy()
    worst, rows = 0.0, 0
    for k in range(4):
        # a few steps of the heap, then the same state by both paths, warm and cold
        for _ in range(10):
            gauss.step(gm, gd)
        qpos, qvel, warm = gd.qpos.copy(), gd.qvel.copy(), gd.qacc_warmstart.copy()
        for w in (warm, np.zeros(gm.nv)):
            out = solve_both(gm, gd, qpos, qvel, w)
            worst = max(worst, assert_same(out, f"pile state {k}"))
            rows = max(rows, out["dense"][2])
        gd.qpos[:], gd.qvel[:] = qpos, qvel
    assert rows > 1000  # the heap has its hundreds of contacts
    print(f"\n[pile100] dense vs sparse qacc rel {worst:.1e}, up to {rows} rows")


def heap_xml(cone, n=4, seed=0):
    """n^3 spheres and capsules on a jittered lattice, touching their neighbours and the floor."""
    rng = np.random.default_rng(seed)
    bodies = []
    r = 0.05
    for i in range(n):
        for j in range(n):
            for k in range(n):
                p = np.array([i, j, k]) * 1.96 * r + [0, 0, r * 0.98] + 0.002 * rng.normal(size=3)
                if (i + j + k) % 3 == 0:
                    geom = f'<geom type="capsule" size="{r * 0.8}" fromto="-.02 0 0 .02 0 0"/>'
                else:
                    geom = f'<geom type="sphere" size="{r}"/>'
                bodies.append(f'<body pos="{p[0]} {p[1]} {p[2]}"><freejoint/>{geom}</body>')
    return (f'<mujoco><option cone="{cone}"/><default><geom friction="0.8 0.01 0.001" condim="3"/>'
            f'</default><worldbody><geom type="plane" size="5 5 .1"/>{"".join(bodies)}'
            f'</worldbody></mujoco>')


@pytest.mark.parametrize("cone", ["pyramidal", "elliptic"])
def test_heap_like_mujoco(cone):
    xml = heap_xml(cone)
    mjm = mujoco.MjModel.from_xml_string(xml)
    mjd = mujoco.MjData(mjm)
    gm = gauss.Model.from_xml_string(xml)
    gd = gauss.Data(gm)
    assert mjm.nv >= 60
    compared, ncon = 0, 0
    for step in range(0, 60, 20):
        for _ in range(20):
            mujoco.mj_step(mjm, mjd)
        qpos, qvel = mjd.qpos.copy(), mjd.qvel.copy()
        set_solver(mjm, gm, "Newton")
        mujoco.mj_forward(mjm, mjd)
        if skip_state(mjm, mjd):
            continue
        for path in ("dense", "sparse", "auto"):
            gm.opt.jacobian = JAC[path]
            gd.qpos[:], gd.qvel[:] = qpos, qvel
            gd.qacc_warmstart[:] = mjd.qacc_warmstart
            gauss.forward(gm, gd)
            if any(abs(c.dist - c.includemargin) < BOUNDARY for c in gd.contact):
                break
            tag = f"heap {cone} after {step + 20} steps, {path}"
            compare_rows(mjm, mjd, gm, gd, tag)
            compare_solution(mjd, gd, tag)
        else:
            compared += 1
            ncon = max(ncon, mjd.ncon)
    assert compared >= 2
    assert ncon > 60  # a heap, not a few separate contacts


# ---- the solvers' unit of cost: stat.meaninertia ----

def test_meaninertia_corpus(corpus_model):
    """trace(M(qpos0)) / nv as MuJoCo compiles it (the full model, nothing stripped)."""
    model_id, path = corpus_model
    mjm = mujoco.MjModel.from_xml_path(path)
    gm = gauss.Model.from_xml_path(path)
    assert abs(gm.stat.meaninertia - mjm.stat.meaninertia) <= 1e-12 * mjm.stat.meaninertia, model_id


def test_meaninertia_given_and_saved():
    xml = ('<mujoco><statistic meaninertia="2.5"/><worldbody><body><joint type="hinge"/>'
           '<geom size=".1"/></body></worldbody></mujoco>')
    gm = gauss.Model.from_xml_string(xml)
    assert gm.stat.meaninertia == mujoco.MjModel.from_xml_string(xml).stat.meaninertia == 2.5
    # the MJCF writer, the binary format and copies keep it
    assert gauss.Model.from_xml_string(gm.to_xml()).stat.meaninertia == 2.5
    assert gauss.Model.from_binary(gm.to_binary()).stat.meaninertia == 2.5
    assert gm.copy().stat.meaninertia == 2.5


# ---- one Newton step: the Hessian itself, not only the converged solution ----

def rows_on_paths(gm, gd):
    """whether every row's columns lie on one path up a tree (each the parent of the next): the
    case in which gauss factors the Hessian in M's tree pattern instead of by blocks"""
    parent = np.asarray(gm.dof_parentid)
    for r in range(gd.nefc):
        a, n = gd.efc_J_rowadr[r], gd.efc_J_rownnz[r]
        c = np.asarray(gd.efc_J_colind[a:a + n])
        if n > 1 and np.any(parent[c[1:]] != c[:-1]):
            return False
    return True


# a box on the floor with two two-link arms pressed against each other by their motors: rows
# between the arms join two branches of the tree in nearly every state
TWO_ARMS = """<mujoco><option timestep="0.005"/><worldbody><geom type="plane" size="5 5 .1"/>
<body pos="0 0 0.2"><freejoint/><geom type="box" size=".15 .1 .05"/>
 <body pos=".1 0 .05"><joint name="a" axis="0 1 0" range="-90 90" damping=".1"/>
  <geom type="capsule" fromto="0 0 0 0 0 .25" size=".03"/>
  <body pos="0 0 .25"><joint name="a2" axis="0 1 0" damping=".1"/>
   <geom type="capsule" fromto="0 0 0 0 0 .15" size=".03"/></body></body>
 <body pos="-.1 0 .05"><joint name="b" axis="0 1 0" range="-90 90" damping=".1"/>
  <geom type="capsule" fromto="0 0 0 0 0 .25" size=".03"/>
  <body pos="0 0 .25"><joint name="b2" axis="0 1 0" damping=".1"/>
   <geom type="capsule" fromto="0 0 0 0 0 .15" size=".03"/></body></body>
</body></worldbody>
<actuator><motor joint="a"/><motor joint="b"/><motor joint="a2" gear=".3"/><motor joint="b2" gear=".3"/>
</actuator><keyframe><key ctrl="-1 1 -1 1"/></keyframe></mujoco>"""


@pytest.mark.parametrize("name,cone", [("mujoco/humanoid.xml", "pyramidal"),
                                       ("mujoco/humanoid.xml", "elliptic"),
                                       ("gymnasium/ant.xml", "pyramidal"),
                                       ("two_arms", "pyramidal")])
def test_one_newton_step_like_mujoco(name, cone):
    """One and two Newton iterations with exact line searches, from the same state and warm
    start: qacc = a0 - alpha H^-1 g depends on the whole Hessian (a converged solution does not: a
    wrong H only costs iterations), so both engines agree to rounding only when H and its factor
    are right; the second iteration's factor comes from rank-1 updates of the first when few rows
    changed state. States of both kinds: all rows on paths (M's tree pattern) and rows that join
    two branches of a tree (the block factor)."""
    if name == "two_arms":
        xml = TWO_ARMS
    else:
        xml, _ = constraint_xml(os.path.join(ROOT, "tests", "models", name))
    mjm = mujoco.MjModel.from_xml_string(xml)
    gm = gauss.Model.from_xml_string(xml)
    mjm.opt.cone = gm.opt.cone = {"pyramidal": 0, "elliptic": 1}[cone]
    mjd, gd = mujoco.MjData(mjm), gauss.Data(gm)
    # states of MuJoCo's own stepping with random controls (the humanoid falls, and its limbs
    # then touch each other too), before the options of the comparison
    if mjm.nkey:
        mujoco.mj_resetDataKeyframe(mjm, mjd, 0)
    rng = np.random.default_rng(1)
    mjd.ctrl[:] = mjm.key_ctrl[0] if name == "two_arms" else rng.uniform(-1, 1, mjm.nu)
    states = []
    for _ in range(30):
        mujoco.mj_step(mjm, mjd, nstep=10)
        states.append((mjd.qpos.copy(), mjd.qvel.copy()))
    gd.ctrl[:] = mjd.ctrl
    # one iteration; the line searches run to the minimum along the direction (MuJoCo's stops
    # on tolerance * ls_tolerance times its gradient scale, gauss's on ls_tolerance times the
    # initial slope: both tight)
    for m in (mjm, gm):
        m.opt.solver, m.opt.tolerance = 2, 1e-10
        m.opt.ls_iterations, m.opt.ls_tolerance = 100, 1e-8
    kinds, worst = {True: 0, False: 0}, 0.0
    for (k, (qpos, qvel)), iterations in itertools.product(enumerate(states), (1, 2)):
        mjm.opt.iterations = gm.opt.iterations = iterations
        mjd.qpos[:], mjd.qvel[:] = qpos, qvel
        mjd.qacc_warmstart[:] = 0
        mujoco.mj_forward(mjm, mjd)
        if mjd.nefc == 0 or skip_state(mjm, mjd):
            continue
        gd.qpos[:], gd.qvel[:] = qpos, qvel
        gd.qacc_warmstart[:] = 0
        gauss.forward(gm, gd)
        assert gd.nefc == mjd.nefc
        step = mjd.qacc - mjd.qacc_smooth
        err = float(np.max(np.abs(gd.qacc - mjd.qacc))) / max(1e-3, float(np.max(np.abs(step))))
        assert err <= 1e-8, (f"{name} {cone} state {k}: qacc after {iterations} iterations off by "
                             f"{err} of the step")
        kinds[rows_on_paths(gm, gd)] += 1
        worst = max(worst, err)
    assert kinds[name != "two_arms"] >= 6
    print(f"\n[{name} {cone}] one and two Newton steps: qacc within {worst:.1e} of the step; "
          f"states on paths {kinds[True]}, joining branches {kinds[False]}")


# ---- light bodies on stiff contacts: the Newton step's accuracy ----

def card_fan_xml(n=53, bend=26):
    """MuJoCo's model/cards/cards.xml as its physics has it, without the meshes and textures: n
    thin boxes of 0.18 g (free joints, fluid forces) fanned out above a capsule, falling onto it
    and onto each other; contacts much stiffer than the cards' inertia (solref 5e-5, solimp up to
    0.99). The fan's positions follow the file's pattern, not its numbers."""
    bodies = "".join(
        f'<body pos="{0.005 * k:.3f} {-0.04 * (1 - k / bend) ** 2:.4f} {-0.005 * k:.3f}" '
        f'euler="{-100 - 3 * k} 180 0"><freejoint/><geom class="card"/><geom class="hit"/></body>'
        for k in range(n))
    return f"""<mujoco>
<option density="1.225" viscosity="1.8e-5" timestep="1e-3" integrator="implicitfast"/>
<default><geom solref=".5e-4" solimp="0.9 0.99 1e-4" fluidcoef="0.5 0.25 0.5 2.0 1.0"/>
 <default class="card"><geom type="box" size=".0445 .0315 .0002" mass="1.84e-4"
  fluidshape="ellipsoid" contype="0" conaffinity="0"/></default>
 <default class="hit"><geom type="box" mass="0" size=".047 .032 .00035" friction=".1"/></default>
</default>
<worldbody><geom type="capsule" size=".03" fromto=".1 -.1 -.3 .1 .1 -.3"/>{bodies}</worldbody>
</mujoco>"""


def test_light_cards_newton_like_mujoco():
    """Cards pressed against each other: M + J^T D J is dominated by the contact rows (D J M^-1
    J^T up to d / (1 - d) = 99 per row) and M p = -grad - J^T D J p, from the Newton system, is a
    difference that keeps eps |J^T D J p| of error; M a, moved by it at every step, drifted and the
    solve converged to where the drifted gradient vanished: qacc 4e-8 to 9e-8 from MuJoCo's at
    several states of this fan (the sweep's model/cards/cards.xml 2.6e-8), while the solution
    itself is unique. Likewise a factor whose rows join two cards (a low-rank correction of the
    tree factor, or block factors after rank-1 updates) left a gradient 100 times MuJoCo's after
    the step, above a tight tolerance: an iteration more. Newton to 1e-12 at MuJoCo's simulated
    states (every 20 steps from 100 to 300, 2 to 28 contacts): qacc within 1e-11 of MuJoCo's
    (1.5e-13 measured). The per-island iteration counts are printed, not asserted: they differ
    in 13 of the 30 islands, the same before this fix (the line searches stop at other points:
    MuJoCo's first one here evaluates 5 points where gauss's takes 2; and an island without force
    counts 0 iterations in MuJoCo, 1 in gauss)."""
    xml = card_fan_xml()
    mjm = mujoco.MjModel.from_xml_string(xml)
    gm = gauss.Model.from_xml_string(xml)
    mjd, gd = mujoco.MjData(mjm), gauss.Data(gm)
    states = []
    for k in range(1, 301):
        mujoco.mj_step(mjm, mjd)
        if k >= 100 and k % 20 == 0:
            states.append((mjd.qpos.copy(), mjd.qvel.copy(), mjd.qacc_warmstart.copy(), mjd.time))
    for m in (mjm, gm):
        m.opt.solver, m.opt.tolerance, m.opt.iterations = 2, 1e-12, 200
    worst, equal, islands, contacts = 0.0, 0, 0, []
    for qpos, qvel, warm, time in states:
        for d in (mjd, gd):
            d.qpos[:], d.qvel[:], d.time = qpos, qvel, time
            d.qacc_warmstart[:] = warm
        mujoco.mj_forward(mjm, mjd)
        gauss.forward(gm, gd)
        assert gd.ncon == mjd.ncon and gd.nefc == mjd.nefc and gd.nisland == mjd.nisland
        contacts.append(mjd.ncon)
        gap = float(np.abs(gd.qacc - mjd.qacc).max()) / max(1.0, float(np.abs(mjd.qacc).max()))
        assert gap <= 1e-11, f"t={time:.3f}: qacc {gap:.1e} from MuJoCo's"
        worst = max(worst, gap)
        n = mjd.nisland
        equal += int(np.sum(np.asarray(gd.solver_niter)[:n] == mjd.solver_niter[:n]))
        islands += n
    assert max(contacts) >= 20 and islands >= 20
    print(f"\n[cards] {len(states)} states, {min(contacts)}-{max(contacts)} contacts: qacc within "
          f"{worst:.1e} of MuJoCo's; iteration counts equal in {equal} of {islands} islands")


def test_light_cards_newton_step_like_mujoco():
    """The Newton step itself where rows join two cards: the tree factor takes such rows as a
    low-rank correction (Woodbury's identity), which loses about 1 + d / (1 - d) = 100 roundings
    here; without a refinement of the step the gradient after it was 1.5e-12 (MuJoCo's 1.2e-14),
    above the tolerance of 1e-12, and the solve took an iteration more than MuJoCo's. 20 cards,
    MuJoCo's state after 140 steps, no warm start: the islands with a force take MuJoCo's
    iteration counts and end on a gradient below the tolerance (an island without force counts
    0 iterations in MuJoCo, 1 in gauss: left out)."""
    xml = card_fan_xml(20, 24)
    mjm = mujoco.MjModel.from_xml_string(xml)
    gm = gauss.Model.from_xml_string(xml)
    mjd, gd = mujoco.MjData(mjm), gauss.Data(gm)
    mujoco.mj_step(mjm, mjd, nstep=140)
    for m in (mjm, gm):
        m.opt.solver, m.opt.tolerance, m.opt.iterations = 2, 1e-12, 200
    gd.qpos[:], gd.qvel[:], gd.time = mjd.qpos, mjd.qvel, mjd.time
    mjd.qacc_warmstart[:] = gd.qacc_warmstart[:] = 0
    mujoco.mj_forward(mjm, mjd)
    gauss.forward(gm, gd)
    assert gd.nisland == mjd.nisland == 3
    stride = mujoco.mjNSOLVER
    checked = 0
    for k in range(mjd.nisland):
        n = int(mjd.solver_niter[k])
        if n == 0:
            continue
        assert gd.solver_niter[k] == n, f"island {k}: {gd.solver_niter[k]} iterations, MuJoCo {n}"
        last = gd.solver[k * stride + n - 1].gradient
        assert last < gm.opt.tolerance, f"island {k}: gradient {last:.1e} after the last step"
        checked += 1
    assert checked == 2
    gap = float(np.abs(gd.qacc - mjd.qacc).max()) / max(1.0, float(np.abs(mjd.qacc).max()))
    assert gap <= 1e-11


# a free box welded to a turned fixed box (MuJoCo's rne_post/weld/force_torque_free_rotated.xml):
# after a few hundred steps the weld is satisfied to rounding, Newton's initial slope along its
# direction is itself rounding (1e-29 from terms of 1e-15) and the line search's tolerance lies
# below an ulp of it
WELD = """<mujoco><option gravity="0 0 -1"/>
<default><geom size="0.05 0.05 0.05" type="box"/></default>
<worldbody><body name="b1" euler="0 45 0"><geom/></body>
<body name="b2" pos="0 1 0" euler="30 30 30"><joint type="free"/><geom/></body></worldbody>
<equality><weld body1="b1" body2="b2"/></equality></mujoco>"""


def test_line_search_stops_at_a_slope_within_rounding():
    """Newton's line search at converged states: a slope within rounding of its terms counts as
    zero, so it stops after MuJoCo's number of evaluations (2 per iteration) instead of bisecting
    rounding noise for all 50 (24.6 a step on average before); the accelerations stay MuJoCo's"""
    mm = mujoco.MjModel.from_xml_string(WELD)
    md = mujoco.MjData(mm)
    gm = gauss.Model.from_xml_string(WELD)
    gd = gauss.Data(gm)
    most, gap = 0, 0.0
    for _ in range(1000):
        mujoco.mj_step(mm, md)
        gauss.step(gm, gd)
        n = int(np.asarray(gd.solver_niter).ravel()[0])
        most = max(most, sum(int(gd.solver[i].neval) for i in range(n)))
        gap = max(gap, float(np.abs(md.qacc - gd.qacc).max()))
    assert most <= 3, most
    # 9.9e-12 measured (1e-12 before the line search took no step where the slope at 0 is within
    # an absolute tolerance, as MuJoCo's counts on a resting box show,
    # test_line_search_no_step_at_rest_like_mujoco: gauss now stops at some of these states where
    # MuJoCo takes one more iteration, the slope there rounding); qacc is of order 1 here, and
    # the gap stayed 9.9e-12 with the initial pose jittered by 4 ulps (11 draws)
    assert gap < 3e-11, gap


# MuJoCo's test/engine/testdata/collision_convex/box_boxmesh.xml: a mesh box resting on a box
BOX_BOXMESH = """<mujoco><option><flag multiccd="enable"/></option>
<asset><mesh name="box" vertex="-1 -1 -1 1 -1 -1 1 1 -1 1 1 1 1 -1 1 -1 1 -1 -1 1 1 -1 -1 1"/></asset>
<worldbody><geom pos="0 0 -1" type="box" size="5 5 1"/>
<body pos="0 0 0.9999"><freejoint/><geom type="mesh" mesh="box"/></body></worldbody></mujoco>"""


def test_line_search_no_step_at_rest_like_mujoco():
    """At rest the slope along Newton's direction is rounding: with no step where the slope at 0 is
    within tolerance ls_tolerance |p|, none is taken there, as MuJoCo takes none; before, the
    search bisected a contact row's kink for all 50 iterations: 4.36 evaluations a step over 600
    steps, MuJoCo 1.81, now 1.85. Asserted within 1.5x of MuJoCo's, and the state MuJoCo's."""
    mm, gm = mujoco.MjModel.from_xml_string(BOX_BOXMESH), gauss.Model.from_xml_string(BOX_BOXMESH)
    md, gd = mujoco.MjData(mm), gauss.Data(gm)
    mj = gs = 0
    for _ in range(600):
        mujoco.mj_step(mm, md)
        gauss.step(gm, gd)
        mj += sum(md.solver[k].neval for k in range(min(md.solver_niter[0], 20)))
        gs += sum(int(gd.solver[k].neval) for k in range(min(int(np.asarray(gd.solver_niter)[0]), 20)))
    assert gs <= 1.5 * mj, (gs / 600, mj / 600)
    assert np.abs(np.asarray(gd.qpos) - md.qpos).max() < 1e-12
