"""The constraint stage against MuJoCo 3.3.7: the rows (type, id, J, pos, margin, frictionloss,
diagApprox, R, D, aref, in the same order), the forces and the constrained acceleration.

Corpus: every model at NSTATE states of a MuJoCo rollout, each model with its own options, solved
by Newton at tolerance 1e-10 in both engines: qacc to 1e-6 relative, efc_force to 1e-5 (relative
to the largest force). PGS and CG of gauss, run to convergence, reach MuJoCo's Newton solution to
1e-4. The models are whole (actuators, tendons, sensors, equalities, keyframes); states whose
contacts include a pair type gauss does not yet make like MuJoCo (test_collision_corpus.MISSING)
are skipped and counted.

Hand-written models cover what the corpus lacks: welds (bodies, sites, torquescale), joint and
tendon equalities with polynomials, tendon friction loss and limits, ball limits, condim 1/3/4/6
under both cones, solreffriction, the override flag, direct (negative) solref, margins and gaps,
impratio, noslip.
"""

import os
import sys
import xml.etree.ElementTree as ET

import mujoco
import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import gauss  # noqa: E402
import jitter  # noqa: E402
import oracle  # noqa: E402
from test_collision_corpus import MISSING  # noqa: E402

NSTATE = 20
STEPS_BETWEEN = 20

ROW_FIELDS = ("efc_type", "efc_id", "efc_pos", "efc_margin", "efc_frictionloss",
              "efc_diagApprox", "efc_R", "efc_D", "efc_aref", "efc_vel")


def constraint_xml(path):
    """The model at `path`, self-contained (includes inlined), everything it holds kept:
    (xml, stripped), stripped empty now that actuators, tendon springs and sensors are simulated."""
    tree = ET.parse(path)
    root = tree.getroot()
    oracle._inline_includes(root, os.path.dirname(os.path.abspath(path)))
    return ET.tostring(root, encoding="unicode"), []


def rollout(mjm, path, seed=0):
    """NSTATE (qpos, qvel) from a MuJoCo rollout from the file's first keyframe (if any) with
    random applied forces that keep the model moving."""
    rng = np.random.default_rng(seed)
    d = mujoco.MjData(mjm)
    full = mujoco.MjModel.from_xml_path(path)
    if full.nkey:
        d.qpos[:] = full.key_qpos[0]
        d.qvel[:] = full.key_qvel[0]
    out = []
    for _ in range(NSTATE):
        for _ in range(STEPS_BETWEEN):
            d.qfrc_applied[:] = rng.normal(size=mjm.nv) * 0.5 * np.sqrt(np.abs(d.qM[mjm.dof_Madr]))
            mujoco.mj_step(mjm, d)
        out.append((d.qpos.copy(), d.qvel.copy()))
    return out


def set_solver(mm, gm, solver, tol=1e-10, iterations=1000):
    mm.opt.solver = {"PGS": 0, "CG": 1, "Newton": 2}[solver]
    gm.opt.solver = {"PGS": 0, "CG": 1, "Newton": 2}[solver]
    for m in (mm, gm):
        m.opt.tolerance = tol
        m.opt.iterations = iterations
        m.opt.ls_tolerance = 1e-3
        # the general convex collider (sphere-ellipsoid, ...) stops at ccd_tolerance: at MJCF's
        # 1e-6 the two engines' contact frames agree to ~1e-6 only (the quadruped's ball on its
        # ellipsoid torso: efc_aref off by 1e-7 relative), at 1e-10 to ~1e-9, which the rows' 1e-9
        # comparison needs
        m.opt.ccd_tolerance = 1e-10


BOUNDARY = 1e-12


def on_boundary(mjd, gd):
    """A contact exactly on the inclusion boundary (|dist - includemargin| below rounding: e.g. a
    sphere that slides on a plane at distance 0, where the last bit of dist decides whether it has
    rows)."""
    return any(abs(c.dist - c.includemargin) < BOUNDARY for c in list(mjd.contact) + list(gd.contact))


def missing_pair(mjm, mjd):
    """A contact of a pair type gauss does not make like MuJoCo yet."""
    return any((int(mjm.geom_type[mjd.contact[i].geom1]), int(mjm.geom_type[mjd.contact[i].geom2]))
               in MISSING for i in range(mjd.ncon))


def skip_state(mjm, mjd):
    """A state with a contact on the inclusion boundary or of a pair type not made like MuJoCo yet
    (for the tests that compare states as they come, without moving the margin)."""
    return (any(abs(c.dist - c.includemargin) < BOUNDARY for c in mjd.contact)
            or missing_pair(mjm, mjd))


def margin_shifted(xml):
    """The model with every contact's margin overridden to 1 mm (o_margin and the override flag,
    which also sets MJCF's default o_solref/o_solimp/o_friction on contacts): a contact at distance 0
    is then well inside the margin in both engines instead of one rounding away from it."""
    root = ET.fromstring(xml)
    opt = root.find("option")
    if opt is None:
        opt = ET.Element("option")
        root.insert(0, opt)
    opt.set("o_margin", "0.001")
    flag = opt.find("flag")
    if flag is None:
        flag = ET.SubElement(opt, "flag")
    flag.set("override", "enable")
    return ET.tostring(root, encoding="unicode")


# pairs of geom types (MJCF's numbering, type1 <= type2) whose contacts both engines compute in
# closed form; the others go through a convex collider that stops at ccd_tolerance
CLOSED_FORM = {(0, 2), (0, 3), (0, 4), (0, 5), (0, 6), (0, 7), (2, 2), (2, 3), (2, 5), (2, 6),
               (3, 3), (3, 6), (6, 6)}
CONTACT_TYPES = (5, 6, 7)  # efc_type of contact rows: frictionless, pyramidal, elliptic


def row_tolerances(mjm, mjd):
    """1e-9 per row, 1e-8 for the rows of contacts from a convex collider: at ccd_tolerance 1e-10
    (set_solver) the two engines' colliders agree on those contacts' frames to ~4e-9 (measured on
    the quadruped's ball against its ellipsoid torso), not to rounding."""
    tol = np.full(mjd.nefc, 1e-9)
    for r in range(mjd.nefc):
        if mjd.efc_type[r] in CONTACT_TYPES:
            c = mjd.contact[mjd.efc_id[r]]
            types = tuple(sorted(int(mjm.geom_type[g]) for g in c.geom))
            if types not in CLOSED_FORM:
                tol[r] = 1e-8
    return tol


def compare_rows(mjm, mjd, gm, gd, tag):
    """Same rows in the same order, same quantities."""
    assert gd.nefc == mjd.nefc, f"{tag}: nefc {gd.nefc} != {mjd.nefc}"
    assert (gd.ne, gd.nf, gd.nl) == (mjd.ne, mjd.nf, mjd.nl), tag
    tol = row_tolerances(mjm, mjd)
    for f in ROW_FIELDS:
        a, b = getattr(gd, f), getattr(mjd, f)
        if f in ("efc_type", "efc_id"):
            assert np.array_equal(a, b), f"{tag}: {f}\n gauss {a}\n mujoco {b}"
        else:
            scale = max(1.0, float(np.max(np.abs(b)))) if len(b) else 1.0
            err = float(np.max(np.abs(a - b) / tol)) if len(b) else 0.0
            assert err <= scale, f"{tag}: {f} error {err:.3g} tolerances (scale {scale:.3g})"
    if mjd.nefc:
        Jm = np.zeros((mjd.nefc, mjm.nv))
        if mujoco.mj_isSparse(mjm):
            for r in range(mjd.nefc):
                s = slice(mjd.efc_J_rowadr[r], mjd.efc_J_rowadr[r] + mjd.efc_J_rownnz[r])
                Jm[r, mjd.efc_J_colind[s]] = mjd.efc_J[s]
        else:
            Jm = mjd.efc_J.reshape(mjd.nefc, mjm.nv)
        err = float(np.max(np.abs(gd.efc_J - Jm) / tol[:, None]))
        assert err <= max(1.0, float(np.max(np.abs(Jm)))), f"{tag}: efc_J error {err:.3g} tolerances"


def compare_solution(mjd, gd, tag, tol_acc=1e-6, tol_force=1e-5):
    if len(mjd.qacc) == 0:
        return 0.0, 0.0
    scale = max(1.0, float(np.max(np.abs(mjd.qacc))))
    err = float(np.max(np.abs(gd.qacc - mjd.qacc)))
    assert err <= tol_acc * scale, f"{tag}: qacc error {err} (scale {scale})"
    if mjd.nefc:
        fs = max(1.0, float(np.max(np.abs(mjd.efc_force))))
        ferr = float(np.max(np.abs(gd.efc_force - mjd.efc_force)))
        assert ferr <= tol_force * fs, f"{tag}: efc_force error {ferr} (scale {fs})"
        return err / scale, ferr / fs
    return err / scale, 0.0


_RESULTS = {}


def corpus_run(model_id, path):
    if model_id in _RESULTS:
        return _RESULTS[model_id]
    xml, stripped = constraint_xml(path)
    mjm = mujoco.MjModel.from_xml_string(xml)
    gm = gauss.Model.from_xml_string(xml)
    mjd, gd = mujoco.MjData(mjm), gauss.Data(gm)
    states = rollout(mjm, path)
    res = {"stripped": stripped, "skipped": 0, "compared": 0, "acc": 0.0, "force": 0.0,
           "rows": 0, "pgs": 0.0, "cg": 0.0, "failures": [], "shifted": 0}
    shifted = None
    for k, (qpos, qvel) in enumerate(states):
        tag = f"{model_id} state {k}"
        models = (mjm, mjd, gm, gd)
        set_solver(mjm, gm, "Newton")
        mjd.qpos[:], mjd.qvel[:] = qpos, qvel
        mujoco.mj_forward(mjm, mjd)
        gd.qpos[:], gd.qvel[:] = qpos, qvel
        gauss.forward(gm, gd)
        if missing_pair(mjm, mjd):
            res["skipped"] += 1
            continue
        if on_boundary(mjd, gd):
            # the same state with every contact's margin moved off the boundary, in both engines
            shifted = shifted or pair(margin_shifted(xml))
            models = shifted
            res["shifted"] += 1
        sm, sd, sgm, sgd = models
        set_solver(sm, sgm, "Newton")
        sd.qpos[:], sd.qvel[:] = qpos, qvel
        mujoco.mj_forward(sm, sd)
        sgd.qpos[:], sgd.qvel[:] = qpos, qvel
        gauss.forward(sgm, sgd)
        if on_boundary(sd, sgd) or missing_pair(sm, sd):
            res["skipped"] += 1
            continue
        sgd.qpos[:], sgd.qvel[:] = qpos, qvel
        sgd.qacc_warmstart[:] = sd.qacc_warmstart
        try:
            gauss.forward(sgm, sgd)
            compare_rows(sm, sd, sgm, sgd, tag)
            a, f = compare_solution(sd, sgd, tag)
            res["acc"], res["force"] = max(res["acc"], a), max(res["force"], f)
            res["rows"] = max(res["rows"], sd.nefc)
            # the other solvers of gauss, to convergence, reach MuJoCo's Newton solution
            for solver, its in (("PGS", 5000), ("CG", 2000)):
                set_solver(sm, sgm, solver, tol=1e-14, iterations=its)
                gauss.forward(sgm, sgd)
                a, _ = compare_solution(sd, sgd, f"{tag} {solver}", tol_acc=1e-4, tol_force=1e-4)
                res[solver.lower()] = max(res[solver.lower()], a)
        except AssertionError as e:
            res["failures"].append(str(e))
        res["compared"] += 1
    _RESULTS[model_id] = res
    return res


def test_corpus_constraints(corpus_model):
    model_id, path = corpus_model
    res = corpus_run(model_id, path)
    print(f"\n[{model_id}] {res['compared']} states compared ({res['shifted']} with the margin moved off "
          f"a contact on the inclusion boundary), {res['skipped']} skipped (pair types not yet like "
          f"MuJoCo), up to {res['rows']} rows; qacc rel {res['acc']:.1e}, "
          f"efc_force rel {res['force']:.1e}, PGS {res['pgs']:.1e}, CG {res['cg']:.1e}; "
          f"stripped: {', '.join(res['stripped']) or 'nothing'}")
    assert not res["failures"], "\n".join(res["failures"][:5])
    assert res["compared"] + res["skipped"] == NSTATE


# ---- rollouts of the non-chaotic models ----

@pytest.mark.parametrize("name", ["dm_control/pendulum", "dm_control/cartpole", "dm_control/acrobot",
                                  "dm_control/reacher", "dm_control/point_mass"])
def test_rollout_matches(name):
    path = os.path.join(oracle.MODELS_DIR, name + ".xml")
    xml, _ = constraint_xml(path)
    mjm = mujoco.MjModel.from_xml_string(xml)
    gm = gauss.Model.from_xml_string(xml)
    mjd, gd = mujoco.MjData(mjm), gauss.Data(gm)
    rng = np.random.default_rng(3)
    q0 = mjm.qpos0 + 0.3 * rng.normal(size=mjm.nq)
    v0 = rng.normal(size=mjm.nv)
    mjd.qpos[:], mjd.qvel[:] = q0, v0
    gd.qpos[:], gd.qvel[:] = q0, v0
    worst = 0.0
    for _ in range(200):
        mujoco.mj_step(mjm, mjd)
        gauss.step(gm, gd)
        worst = max(worst, float(np.max(np.abs(gd.qpos - mjd.qpos))))
    print(f"\n[{name}] 200 steps ({mjm.opt.integrator=}, solver {mjm.opt.solver}): max |dqpos| {worst:.1e}")
    assert worst < 1e-4


# ---- hand-written models ----

def pair(xml):
    mjm = mujoco.MjModel.from_xml_string(xml)
    gm = gauss.Model.from_xml_string(xml)
    return mjm, mujoco.MjData(mjm), gm, gauss.Data(gm)


def check_model(xml, nstate=10, seed=0, qscale=0.1, vscale=1.0, solvers=("Newton",)):
    """Rows and Newton solution like MuJoCo at random perturbations of qpos0."""
    mjm, mjd, gm, gd = pair(xml)
    rng = np.random.default_rng(seed)
    rows = 0
    for k in range(nstate):
        q = mjm.qpos0.copy()
        for j in range(mjm.njnt):
            adr, t = mjm.jnt_qposadr[j], mjm.jnt_type[j]
            if t == 0:
                q[adr:adr + 3] += qscale * rng.normal(size=3)
                qq = q[adr + 3:adr + 7] + qscale * rng.normal(size=4)
                q[adr + 3:adr + 7] = qq / np.linalg.norm(qq)
            elif t == 1:
                qq = q[adr:adr + 4] + 3 * qscale * rng.normal(size=4)
                q[adr:adr + 4] = qq / np.linalg.norm(qq)
            else:
                q[adr] += 3 * qscale * rng.normal()
        v = vscale * rng.normal(size=mjm.nv)
        # the reference: MuJoCo's Newton solution (its PGS is not always run to the optimum, e.g.
        # on elliptic cones it can stop at a point that is not the minimum of the dual)
        set_solver(mjm, gm, "Newton", tol=1e-12)
        mjd.qpos[:], mjd.qvel[:] = q, v
        mujoco.mj_forward(mjm, mjd)
        for solver in solvers:
            set_solver(mjm, gm, solver, tol=1e-12 if solver != "PGS" else 1e-15,
                       iterations=1000 if solver != "PGS" else 20000)
            gd.qpos[:], gd.qvel[:] = q, v
            gauss.forward(gm, gd)
            tag = f"state {k} {solver}"
            compare_rows(mjm, mjd, gm, gd, tag)
            tol = 1e-6 if solver == "Newton" else 1e-4
            compare_solution(mjd, gd, tag, tol_acc=tol, tol_force=tol * 10)
            rows = max(rows, mjd.nefc)
    return rows


WELD = """<mujoco><option gravity="0 0 -9.81" cone="{cone}"/><worldbody>
<body name="a" pos="0 0 1"><freejoint/><geom size=".1" mass="1"/><site name="sa" pos=".1 0 0" euler="10 0 0"/></body>
<body name="b" pos="0.5 0 1" euler="10 20 30"><freejoint/><geom type="box" size=".1 .2 .3" mass="2"/>
  <site name="sb" pos="-.1 0 .1"/></body>
<body name="c" pos="0 1 1"><joint name="h1" type="hinge" axis="0 1 0"/><geom type="capsule" size=".05" fromto="0 0 0 .3 0 0"/>
  <body pos=".3 0 0"><joint name="h2" type="hinge" axis="0 1 0"/><geom type="capsule" size=".05" fromto="0 0 0 .3 0 0"/></body></body>
</worldbody>
<equality>
  <weld body1="a" body2="b" anchor="0.1 0.2 0.3" torquescale="{ts}" solref="0.05 1" solimp="0.8 0.9 0.5 0.3 3"/>
  <connect body1="a" body2="b" anchor="0.2 0 0"/>
  <weld site1="sa" site2="sb"/>
  <connect site1="sa" site2="sb"/>
  <joint joint1="h2" joint2="h1" polycoef="0.1 0.5 0.2 -0.1 0.05"/>
  <joint joint1="h1" polycoef="0.2 0 0 0 0" solref="-100 -10"/>
</equality></mujoco>"""


@pytest.mark.parametrize("ts", [1, 2.5])
def test_equalities(ts):
    rows = check_model(WELD.format(cone="pyramidal", ts=ts), solvers=("Newton", "CG", "PGS"))
    assert rows >= 6 + 3 + 6 + 3 + 1 + 1  # every equality row (contacts may add more)


TENDON = """<mujoco><worldbody>
<body><joint name="j1" type="hinge" axis="0 1 0" frictionloss=".2" limited="true" range="-20 20" margin=".3"/>
  <geom type="capsule" size=".05" fromto="0 0 0 .3 0 0"/><site name="s1" pos=".3 0 0"/>
  <body pos=".3 0 0"><joint name="j2" type="slide" axis="1 0 0" limited="true" range="-.1 .1" frictionloss=".5"/>
    <geom type="capsule" size=".05" fromto="0 0 0 .3 0 0"/><site name="s2" pos=".3 0 .1"/>
    <body pos=".3 0 0"><joint name="b" type="ball" limited="true" range="0 30" margin=".2"/>
      <geom size=".06" pos=".1 0 0"/></body></body></body>
<body pos="0 0 -1"><freejoint/><geom size=".1"/><site name="s3"/></body>
</worldbody>
<tendon>
  <fixed name="t1" limited="true" range="-.2 .2" frictionloss=".3" margin=".1"><joint joint="j1" coef="1"/><joint joint="j2" coef="-2"/></fixed>
  <spatial name="t2" limited="true" range="0 .5"><site site="s1"/><site site="s3"/></spatial>
  <fixed name="t3"><joint joint="j2" coef="1"/></fixed>
</tendon>
<equality><tendon tendon1="t3" tendon2="t1" polycoef="0 .5 .1 0 0"/></equality>
</mujoco>"""


def test_tendons_friction_limits():
    rows = check_model(TENDON, nstate=20, qscale=0.3, solvers=("Newton", "CG", "PGS"))
    assert rows >= 5


# constraints whose Jacobian holds no dof (MuJoCo's test/engine/testdata/core_constraint/dofless_*
# files, and cases around them): MJCF makes no rows for them
DOFLESS = {
    "tendon limit, no dofs": """<mujoco><worldbody><site name="1"/><site name="2" pos="1 0 0"/>
</worldbody><tendon><spatial limited="true" range="0 0.5"><site site="1"/><site site="2"/></spatial>
</tendon></mujoco>""",
    "tendon friction, no dofs": """<mujoco><worldbody><site name="1"/><site name="2" pos="1 0 0"/>
</worldbody><tendon><spatial frictionloss="1"><site site="1"/><site site="2"/></spatial></tendon>
</mujoco>""",
    "contact, no dofs": """<mujoco><worldbody><body><geom name="1" size="1"/></body><body>
<geom name="2" size="1" pos="1.5 0 0"/></body></worldbody><contact><pair geom1="1" geom2="2"/>
</contact></mujoco>""",
    "weld between static bodies": """<mujoco><worldbody>
<body name="1"><freejoint/><geom size="1" pos="7 0 0"/></body>
<body name="2"><freejoint/><geom size="1" pos="8.5 0 0"/></body>
<body name="3"><geom size="1"/></body><body name="4"><geom size="1" pos="1.5 0 0"/></body>
</worldbody><equality><weld body1="1" body2="2"/><weld body1="3" body2="4"/></equality></mujoco>""",
    "world tendon beside a hinge": """<mujoco><worldbody><site name="1"/><site name="2" pos="1 0 0"/>
<body pos="0 5 0"><joint name="h"/><geom type="capsule" size=".1" fromto="0 0 0 0 0 1"/></body>
</worldbody><tendon><spatial name="t0" limited="true" range="0 0.5" frictionloss="1"><site site="1"/>
<site site="2"/></spatial><fixed name="t1" limited="true" range="0 0.5"><joint joint="h" coef="1"/>
</fixed></tendon><equality><tendon tendon1="t0"/><tendon tendon1="t0" tendon2="t1"/></equality>
</mujoco>""",
    # a site on the hinge's axis: the tendon's length does not change, its Jacobian is 0 (by value)
    "tendon no dof moves": """<mujoco><worldbody><site name="1" pos="1 0 0"/><body>
<joint axis="0 0 1"/><geom type="capsule" size=".1" fromto="0 0 0 0 0 1"/><site name="2" pos="0 0 1"/>
</body></worldbody><tendon><spatial limited="true" range="0 0.5"><site site="1"/><site site="2"/>
</spatial></tendon></mujoco>""",
}


@pytest.mark.parametrize("name", list(DOFLESS))
def test_rows_without_dofs_like_mujoco(name):
    """the rows (type, id) and contacts' addresses as MuJoCo's, where some constraints hold no
    dof: none for them (gauss made rows of empty Jacobians, with forces of 1e18)"""
    xml = DOFLESS[name]
    mm, gm = mujoco.MjModel.from_xml_string(xml), gauss.Model.from_xml_string(xml)
    md, gd = mujoco.MjData(mm), gauss.Data(gm)
    for _ in range(3):
        mujoco.mj_step(mm, md)
        gauss.step(gm, gd)
    assert gd.nefc == md.nefc, (gd.nefc, md.nefc)
    np.testing.assert_array_equal(np.asarray(gd.efc_type)[:gd.nefc], md.efc_type[:md.nefc])
    np.testing.assert_array_equal(np.asarray(gd.efc_id)[:gd.nefc], md.efc_id[:md.nefc])
    assert gd.ncon == md.ncon
    for i in range(md.ncon):
        assert gd.contact.efc_address[i] == md.contact[i].efc_address
    np.testing.assert_allclose(np.asarray(gd.qacc), md.qacc, atol=1e-9)


CONTACTS = """<mujoco><option cone="{cone}" impratio="{imp}" {extra}/><worldbody>
<geom name="floor" type="plane" size="5 5 .1" condim="{cd}" friction="0.7 0.02 0.003" margin=".01" gap=".005"/>
<body pos="0 0 0.1"><freejoint/><geom type="box" size=".1 .15 .1" condim="{cd}" friction="0.8 0.03 0.004"/></body>
<body pos="0.5 0 0.095"><freejoint/><geom name="ball" type="sphere" size=".1" condim="{cd}" solimp="0.7 0.95 0.01 0.4 3" contype="2" conaffinity="2"/></body>
<body pos="1 0 0.06"><freejoint/><geom type="capsule" size=".05" fromto="-.2 0 0 .2 0 0" condim="{cd}" priority="1" friction="0.4 0.01 0.001"/></body>
</worldbody>
<contact><pair geom1="ball" geom2="floor" condim="{cd}" friction="0.6 0.6 0.02 0.003 0.003" solreffriction="0.03 0.8" margin=".01"/></contact>
</mujoco>"""


@pytest.mark.parametrize("cone", ["pyramidal", "elliptic"])
@pytest.mark.parametrize("cd", [1, 3, 4, 6])
def test_contacts(cone, cd):
    rows = check_model(CONTACTS.format(cone=cone, cd=cd, imp=1, extra=""), qscale=0.01, vscale=0.3,
                       solvers=("Newton", "CG", "PGS"))
    assert rows > 0


BOXES = """<mujoco><option cone="elliptic"/><worldbody>
<geom type="plane" size="5 5 .1" friction="0.7 0.02 0.003"/>
{bodies}
</worldbody></mujoco>"""


def test_pgs_many_rows():
    """Eight boxes resting on their four corners (96 elliptic rows): more rows than PGS holds
    A = J M^-1 J^T whole for (64), so its sweeps go through Y's rows instead; PGS still reaches
    MuJoCo's Newton solution."""
    bodies = "\n".join(f'<body pos="{0.4 * i} 0 0.095"><freejoint/><geom type="box" size=".1 .1 .1"/></body>'
                       for i in range(8))
    xml = BOXES.format(bodies=bodies)
    mjm, mjd, _, _ = pair(xml)
    mujoco.mj_forward(mjm, mjd)
    assert mjd.nefc > 64, mjd.nefc
    rows = check_model(xml, nstate=3, qscale=0.001, vscale=0.1, solvers=("PGS",))
    assert rows > 0


@pytest.mark.parametrize("cone", ["pyramidal", "elliptic"])
def test_contacts_impratio_override(cone):
    check_model(CONTACTS.format(cone=cone, cd=4, imp=5, extra=""), qscale=0.01, vscale=0.3)
    extra = 'o_solref="0.01 0.7" o_solimp="0.8 0.95 0.002 0.5 2" o_margin="0.02"><flag override="enable"/></option><option'
    check_model(CONTACTS.format(cone=cone, cd=3, imp=1, extra=extra), qscale=0.01, vscale=0.3)


def test_refsafe_and_direct_solref():
    # timeconst below two steps is raised to two steps unless refsafe is disabled
    xml = CONTACTS.format(cone="pyramidal", cd=3, imp=1, extra='timestep="0.01"')
    xml = xml.replace('margin=".01"', 'margin=".01" solref="0.005 1"')
    check_model(xml, qscale=0.01, vscale=0.3)
    check_model(xml.replace('timestep="0.01"', 'timestep="0.01"><flag refsafe="disable"/></option><option'),
                qscale=0.01, vscale=0.3)
    check_model(xml.replace('solref="0.005 1"', 'solref="-2000 -50"'), qscale=0.01, vscale=0.3)


@pytest.mark.parametrize("cone", ["pyramidal", "elliptic"])
def test_contact_force(cone):
    """gs_contactForce gives MuJoCo's mj_contactForce."""
    mjm, mjd, gm, gd = pair(CONTACTS.format(cone=cone, cd=6, imp=1, extra='tolerance="1e-12"'))
    mujoco.mj_forward(mjm, mjd)
    gauss.forward(gm, gd)
    assert mjd.ncon == gd.ncon and mjd.ncon > 0
    for i in range(mjd.ncon):
        ref = np.zeros(6)
        mujoco.mj_contactForce(mjm, mjd, i, ref)
        got = gauss.contact_force(gm, gd, i)
        assert np.max(np.abs(got - ref)) <= 1e-6 * max(1, np.max(np.abs(ref))), (i, got, ref)


@pytest.mark.parametrize("cone", ["pyramidal", "elliptic"])
def test_noslip(cone):
    """The noslip pass reaches MuJoCo's noslip solution (both run to convergence)."""
    xml = CONTACTS.format(cone=cone, cd=3, imp=1,
                          extra='noslip_iterations="200" noslip_tolerance="1e-14" tolerance="1e-12" iterations="500"')
    mjm, mjd, gm, gd = pair(xml)
    rng = np.random.default_rng(5)
    v = 0.3 * rng.normal(size=mjm.nv)
    mjd.qvel[:], gd.qvel[:] = v, v
    mujoco.mj_forward(mjm, mjd)
    gauss.forward(gm, gd)
    assert gd.solver_nnoslip > 0
    compare_solution(mjd, gd, "noslip", tol_acc=1e-4, tol_force=1e-3)


def test_steps_with_contacts_every_integrator():
    """Whole steps with contacts match MuJoCo for a few dozen steps, under every integrator."""
    for integ in ("Euler", "implicit", "implicitfast", "RK4"):
        xml = CONTACTS.format(cone="elliptic", cd=3, imp=1,
                              extra=f'integrator="{integ}" tolerance="1e-12"')
        mjm, mjd, gm, gd = pair(xml)
        for _ in range(30):
            mujoco.mj_step(mjm, mjd)
            gauss.step(gm, gd)
        err = float(np.max(np.abs(gd.qpos - mjd.qpos)))
        assert err < 1e-6, (integ, err)


def test_humanoid_falls_and_lies_like_mujoco():
    """The Gymnasium humanoid, with its own options (RK4, PGS with 50 iterations), falls from its
    initial pose onto the floor and lies there, as in MuJoCo: the whole trajectory stays within
    1e-4 of MuJoCo's (PGS stops at 50 sweeps short of the optimum, so the two engines' rounding
    enters the state at ~1e-7 per step and grows slowly; measured 7e-6 over the 2.5 s)."""
    path = os.path.join(oracle.MODELS_DIR, "gymnasium/humanoid.xml")
    xml, _ = oracle.prepare_xml(path, extra_flags={"contact": "enable", "constraint": "enable"})
    mjm, mjd, gm, gd = pair(xml)
    nstep = int(round(2.5 / mjm.opt.timestep))
    worst, heights = 0.0, []
    for i in range(nstep):
        mujoco.mj_step(mjm, mjd)
        gauss.step(gm, gd)
        worst = max(worst, float(np.max(np.abs(gd.qpos - mjd.qpos))))
        heights.append((i * mjm.opt.timestep, gd.qpos[2], mjd.qpos[2]))
    assert worst < 1e-4, worst
    # it starts standing (torso at 1.4 m) and ends lying: the torso within a torso's width of the
    # floor for the last second, in both engines
    assert heights[0][1] > 1.3
    lying = [(g, r) for t, g, r in heights if t >= 1.5]
    assert all(0 < g < 0.2 and 0 < r < 0.2 for g, r in lying)
    assert gd.ncon > 0


def test_box_stack_stands_like_mujoco():
    """Four boxes of decreasing size stacked slightly off-centre, dropped from 0.5 mm apart: the
    stack stands (each box moves less than 1 mm sideways in 2 s and comes to rest to the slow
    creep of the soft friction), with the same trajectory as MuJoCo's to 1e-9."""
    sizes = [0.2, 0.15, 0.1, 0.07]
    z, bodies = 0.0, ""
    for i, s in enumerate(sizes):
        z += s
        bodies += (f'<body pos="{0.01 * i} {-0.005 * i} {z + 0.0005 * (i + 1)}"><freejoint/>'
                   f'<geom type="box" size="{s} {s} {s}"/></body>')
        z += s
    xml = (f'<mujoco><option timestep="0.002"/><worldbody><geom type="plane" size="5 5 .1"/>'
           f'{bodies}</worldbody></mujoco>')
    mjm, mjd, gm, gd = pair(xml)
    q0 = gd.qpos.copy().reshape(4, 7)
    worst = 0.0
    for _ in range(1000):
        mujoco.mj_step(mjm, mjd)
        gauss.step(gm, gd)
        worst = max(worst, float(np.max(np.abs(gd.qpos - mjd.qpos))))
    assert worst < 1e-9, worst
    q = gd.qpos.reshape(4, 7)
    assert np.abs(q[:, :2] - q0[:, :2]).max() < 1e-3
    # each box sank by its 0.5 mm drop per level plus the contacts' soft penetration (< 1 mm each)
    sink = q0[:, 2] - q[:, 2]
    drop = 0.0005 * np.arange(1, 5)
    assert np.all(sink > drop) and np.all(sink < drop + 0.001 * np.arange(1, 5))
    assert np.abs(gd.qvel).max() < 1e-5
    assert gd.ncon == 16


def _warmstart_iterations(mjm, mjd, gm, gd, states, tag, rng=None):
    """gauss's Newton iteration counts at the states (jittered by rng, if given), each started from
    MuJoCo's converged acceleration, and how many equal MuJoCo's"""
    counts, same = [], 0
    mjd.qacc_warmstart[:] = 0
    for qpos, qvel in states:
        if rng is not None:
            qpos, qvel = jitter.qpos(mjm, qpos, rng), jitter.scale(qvel, rng)
        mjd.qpos[:], mjd.qvel[:] = qpos, qvel
        mujoco.mj_forward(mjm, mjd)
        warm = mjd.qacc.copy()
        mjd.qacc_warmstart[:] = warm
        mujoco.mj_forward(mjm, mjd)
        gd.qpos[:], gd.qvel[:] = qpos, qvel
        gd.qacc_warmstart[:] = warm
        gauss.forward(gm, gd)
        same += int(gd.solver_niter[0] == mjd.solver_niter[0])
        compare_solution(mjd, gd, tag)
        counts.append(int(gd.solver_niter[0]))
    return counts, same


# The iteration counts equal MuJoCo's at 8 of the 8 states either way, but a count whose last
# iteration's improvement lies within rounding of the tolerance follows rounding, which is not the
# same on every processor. Measured on an AMD EPYC (AVX2, FMA), nominal and over 100 jitters of 4
# ulps of the states (see jitter.py): warm start enabled 8, jittered 7-8; disabled 8, jittered
# 8-8; threshold: the smallest jittered count less the spread (nominal included), 6. The
# iterations the flag saves (the sum over the states disabled less enabled): nominal 5, jittered
# 5-5.
_WARMSTART_SAME = 6


def test_warmstart_flag():
    """Newton started from the converged acceleration takes fewer iterations than from the smooth
    one; with the warmstart flag disabled both engines ignore qacc_warmstart and start from
    qacc_smooth: the iteration counts equal MuJoCo's either way (but for rounding, see above), and
    the flag changes them."""
    path = os.path.join(oracle.MODELS_DIR, "dm_control/quadruped.xml")
    xml, _ = constraint_xml(path)
    runs = {}
    for disable in (False, True):
        mjm, mjd, gm, gd = pair(xml)
        set_solver(mjm, gm, "Newton")
        if disable:
            mjm.opt.disableflags |= int(mujoco.mjtDisableBit.mjDSBL_WARMSTART)
            gm.opt.disableflags |= gauss.DSBL_WARMSTART
        states = rollout(mjm, path)[:8]
        tag = f"warmstart disabled={disable}"
        runs[disable] = [_warmstart_iterations(mjm, mjd, gm, gd, states, tag)] + [
            _warmstart_iterations(mjm, mjd, gm, gd, states, f"{tag} jittered", rng)
            for rng in jitter.rngs(tag)]
        jitter.spread(f"{tag}: Newton iteration counts equal MuJoCo's", runs[disable][0][1],
                      [r[1] for r in runs[disable][1:]], at_least=_WARMSTART_SAME, total=8)
    saved = [sum(d[0]) - sum(e[0]) for e, d in zip(runs[False], runs[True])]
    jitter.spread("iterations the warm start saves over 8 states", saved[0], saved[1:], at_least=1)
