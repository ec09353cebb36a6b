"""PGS's dense setup on contacts and limits (src/solver/dual.c setup_dense: the eliminated rows
ordered by their last dof, each dof's elimination over its span of rows, each product of A ended
at the two rows' last common dof, the pyramids' derived rows from three others) against MuJoCo
3.3.7, to convergence: the Gymnasium humanoid posed with its limbs crossed and pressed into the
floor, so that one solve holds joint limits, contacts with the floor (rows on one chain of
dofs), contacts between limbs of different branches (rows on two chains, whose spans are not
the ones their last dof gives) and pyramids of condim 3, 4 and 6 (their derived rows); and two
humanoids (two trees)."""
import os
import sys

import mujoco
import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))
import gauss  # noqa: E402
import oracle  # noqa: E402

PATH = os.path.join(oracle.MODELS_DIR, "gymnasium", "humanoid.xml")


def _xml(cone, condim, copies):
    with open(PATH) as f:
        xml = f.read()
    for old in ('condim="1"', 'condim="3"'):
        xml = xml.replace(old, f'condim="{condim}"')
    xml = xml.replace('solver="PGS"', f'solver="PGS" cone="{cone}"')
    if copies == 2:
        # a second humanoid beside the first: the same bodies under another free joint
        start = xml.index('<body name="torso"')
        end = xml.index("</worldbody>")
        second = xml[start:end]
        for name in ("name=\"", "joint=\""):
            second = second.replace(name, name + "b_")
        second = second.replace('pos="0 0 1.4"', 'pos="0.3 0.2 1.4"', 1)
        xml = xml[:end] + second + xml[end:]
        xml = xml[:xml.index("<actuator>")] + xml[xml.index("</actuator>") + len("</actuator>"):]
        for block in ("<tendon>", "<keyframe>"):
            if block in xml:
                close = block.replace("<", "</")
                xml = xml[:xml.index(block)] + xml[xml.index(close) + len(close):]
    return xml


def _ancestor(mjm, a, b):
    while b > 0:
        if a == b:
            return True
        b = mjm.body_parentid[b]
    return a == 0


def _states(mjm, n, seed):
    """crouched, crossed poses: hinges anywhere in their ranges and up to 0.05 past them, the
    root low enough that feet, knees or hands press into the floor"""
    rng = np.random.default_rng(seed)
    roots = [mjm.jnt_qposadr[j] for j in range(mjm.njnt)
             if mjm.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE]
    for _ in range(n):
        q = mjm.qpos0.copy()
        for j in range(mjm.njnt):
            if mjm.jnt_type[j] != mujoco.mjtJoint.mjJNT_HINGE:
                continue
            lo, hi = mjm.jnt_range[j]
            q[mjm.jnt_qposadr[j]] = lo - 0.05 + (hi - lo + 0.1) * rng.random()
        for adr in roots:
            q[adr + 2] = 0.6 + 0.5 * rng.random()
            axis = rng.normal(size=3)
            quat = np.zeros(4)
            mujoco.mju_axisAngle2Quat(quat, axis / np.linalg.norm(axis), 0.6 * rng.random())
            q[adr + 3:adr + 7] = quat
        yield q, 0.3 * rng.normal(size=mjm.nv)


# Pyramids only: on elliptic cones both engines' PGS stop short of the optimum at some of these
# states (improvement below the tolerance at 9 % from it after 255 sweeps, both engines), so
# converged forces are no measure there; the elliptic blocks of this setup are compared through
# test_constraint_conformance.py::test_contacts.
@pytest.mark.parametrize("condim,copies", [(3, 1), (4, 1), (6, 1), (3, 2)])
def test_dense_setup_like_mujoco(condim, copies):
    xml = _xml("pyramidal", condim, copies)
    mjm = mujoco.MjModel.from_xml_string(xml)
    gm = gauss.Model.from_xml_string(xml)
    mjd, gd = mujoco.MjData(mjm), gauss.Data(gm)
    # to convergence, so that the forces compared are the problem's, not where 50 sweeps stop;
    # the differences measured at most 1.1e-13 of the largest force or acceleration over these
    # states and five copies of them jittered by up to 4 ulps (a setup that misses a row on two
    # chains, or ends a product a dof early, is off by more than 1e-3; so is one that takes a
    # row's dofs from its last column's chain alone, or ends the products of rows that share
    # dofs past 8 at the last multiple of four below their last common dof: three and all four
    # of the cases fail)
    for m in (mjm, gm):
        m.opt.iterations, m.opt.tolerance = 3000, 1e-15
    two_chain = limits = solves = 0
    for q, v in _states(mjm, 40, seed=condim + 10 * copies):
        mjd.qpos[:], mjd.qvel[:] = q, v
        gd.qpos[:], gd.qvel[:] = q, v
        mujoco.mj_forward(mjm, mjd)
        gauss.forward(gm, gd)
        assert gd.nefc == mjd.nefc
        if not 0 < mjd.nefc <= 64:  # A whole: at most 64 rows (GS_DUAL_DENSE)
            continue
        solves += 1
        assert np.array_equal(gd.efc_id, mjd.efc_id)
        fs = max(1.0, float(np.abs(mjd.efc_force).max()))
        assert np.abs(gd.efc_force - mjd.efc_force).max() <= 1e-9 * fs
        qs = max(1.0, float(np.abs(mjd.qacc).max()))
        assert np.abs(gd.qacc - mjd.qacc).max() <= 1e-9 * qs
        limits += int(np.any(mjd.efc_type == mujoco.mjtConstraint.mjCNSTR_LIMIT_JOINT))
        for c in mjd.contact[:mjd.ncon]:
            b1, b2 = mjm.geom_bodyid[c.geom[0]], mjm.geom_bodyid[c.geom[1]]
            apart = not _ancestor(mjm, b1, b2) and not _ancestor(mjm, b2, b1)
            two_chain += int(b1 > 0 and b2 > 0 and apart)
    # the cases this test is for were among the solves
    assert solves >= 15 and limits >= 10 and two_chain >= 5, (solves, limits, two_chain)
