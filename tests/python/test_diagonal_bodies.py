"""Free bodies whose mass-matrix block is diagonal whatever their pose (model field dof_diagonal:
a free joint alone at the body's origin, no child body, the inertial frame at the origin and
unrotated), against MuJoCo 3.3.7's simple bodies: the same bodies are marked, and their rows of
qM are MuJoCo's to the bit (diag(m, m, m, I) with armature, zeros off the diagonal, which gauss's
CRB sums gave only to rounding: up to 2.8e-18 off the diagonal, 8.5e-15 relative on it)."""
import os
import sys

import mujoco
import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))
import gauss  # noqa: E402

BODIES = {
    "sphere": '<body pos="0 0 1"><freejoint/><geom type="sphere" size=".1"/></body>',
    "box": '<body pos="0 0 1"><freejoint/><geom type="box" size=".1 .2 .3"/></body>',
    "armature": '<body pos="0 0 1"><joint type="free" armature="0.01"/>'
                '<geom type="box" size=".1 .2 .3"/></body>',
    "rotated geom": '<body pos="0 0 1"><freejoint/><geom type="box" size=".1 .2 .3" euler="0 30 0"/></body>',
    "offset geom": '<body pos="0 0 1"><freejoint/><geom type="sphere" size=".1" pos=".1 0 0"/></body>',
    "child": '<body pos="0 0 1"><freejoint/><geom type="sphere" size=".1"/>'
             '<body pos="0 0 .3"><joint type="hinge"/><geom type="sphere" size=".1"/></body></body>',
    "welded child": '<body pos="0 0 1"><freejoint/><geom type="sphere" size=".1"/>'
                    '<body pos="0 0 .3"><geom type="sphere" size=".1"/></body></body>',
    "hinge": '<body pos="0 0 1"><joint type="hinge"/><geom type="box" size=".1 .2 .3"/></body>',
}


def _xml(body, compiler=""):
    return (f'<mujoco>{compiler}<worldbody><geom type="plane" size="5 5 .1"/>{body}'
            '</worldbody></mujoco>')


def _simple_free_dofs(mm):
    return (mm.dof_simplenum > 0) & (mm.jnt_type[mm.dof_jntid] == mujoco.mjtJoint.mjJNT_FREE)


@pytest.mark.parametrize("name", sorted(BODIES))
def test_marked_like_mujoco_simple_free_bodies(name):
    xml = _xml(BODIES[name])
    mm, gm = mujoco.MjModel.from_xml_string(xml), gauss.Model.from_xml_string(xml)
    np.testing.assert_array_equal(np.asarray(gm.dof_diagonal).astype(bool), _simple_free_dofs(mm))


def test_aligned_free_body_is_diagonal_like_mujoco():
    # alignfree moves the inertial frame to the body's origin: MuJoCo marks it simple after that
    xml = _xml(BODIES["rotated geom"].replace('euler="0 30 0"', 'euler="0 30 0" pos=".1 0 0"'),
               '<compiler alignfree="true"/>')
    mm, gm = mujoco.MjModel.from_xml_string(xml), gauss.Model.from_xml_string(xml)
    assert _simple_free_dofs(mm).all()
    np.testing.assert_array_equal(np.asarray(gm.dof_diagonal).astype(bool), _simple_free_dofs(mm))


def test_pile_mass_matrix_bits_like_mujoco():
    """a pile of spheres, boxes and cylinders in random poses, some with armature, beside a
    hinged body: qM equal to MuJoCo's bit for bit on the diagonal bodies' rows, the hinged body's
    rows to rounding; the accelerations at MuJoCo's states as the pile falls and rests, MuJoCo's"""
    rng = np.random.default_rng(3)
    bodies = []
    for i in range(12):
        shape = ['type="sphere" size=".05"', 'type="box" size=".04 .05 .06"',
                 'type="cylinder" size=".04 .05"'][i % 3]
        arm = ' armature="0.003"' if i % 4 == 0 else ""
        bodies.append(f'<body pos="{0.15 * (i % 4)} {0.15 * (i // 4)} {0.3 + 0.1 * i}">'
                      f'<joint type="free"{arm}/><geom {shape}/></body>')
    bodies.append('<body pos="1 1 .5"><joint type="hinge" axis="1 1 0"/>'
                  '<geom type="capsule" fromto="0 0 0 .3 0 0" size=".03"/></body>')
    xml = _xml("".join(bodies))
    mm, gm = mujoco.MjModel.from_xml_string(xml), gauss.Model.from_xml_string(xml)
    md, gd = mujoco.MjData(mm), gauss.Data(gm)
    diagonal = np.asarray(gm.dof_diagonal).astype(bool)
    assert diagonal.sum() == 72 and np.array_equal(diagonal, _simple_free_dofs(mm))
    rows = np.zeros(mm.nM, bool)
    for i in np.nonzero(diagonal)[0]:
        start = mm.dof_Madr[i]
        rows[start:start + (i - mm.jnt_dofadr[mm.dof_jntid[i]]) + 1] = True
    for k in range(5):
        q = mm.qpos0.copy()
        for j in range(mm.njnt):
            if mm.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE:
                a = mm.jnt_qposadr[j]
                quat = rng.normal(size=4)
                q[a + 3:a + 7] = quat / np.linalg.norm(quat)
            else:
                q[mm.jnt_qposadr[j]] = rng.uniform(-1, 1)
        md.qpos[:], gd.qpos[:] = q, q
        mujoco.mj_forward(mm, md)
        gauss.forward(gm, gd)
        gqM = np.asarray(gd.qM)
        np.testing.assert_array_equal(gqM[rows], md.qM[rows])
        np.testing.assert_allclose(gqM[~rows], md.qM[~rows], rtol=1e-13, atol=1e-15)
    # the dynamics at MuJoCo's own states, every 10 steps of its 300 (the pile falls onto the
    # plane and comes to rest): gauss's qacc from the same state and warm start. Not a trajectory
    # of gauss's own: boxes landing flat part at rounding level (4-ulp jitters of the start moved
    # 200 steps apart by 0.026), and at rest a corner at the margin can make one contact more in
    # either engine. Measured over the nominal start and 5 jitters of 4 ulps: qacc within 2.2e-15
    # of MuJoCo's (relative to its largest), contact counts apart at 0 to 2 of the 30 states; 24
    # asserted equal, those compared to 1e-9.
    mujoco.mj_resetData(mm, md)
    same = with_contacts = 0
    for k in range(1, 301):
        mujoco.mj_step(mm, md)
        if k % 10:
            continue
        gd.qpos[:], gd.qvel[:], gd.qacc_warmstart[:] = md.qpos, md.qvel, md.qacc_warmstart
        gauss.forward(gm, gd)
        mujoco.mj_forward(mm, md)
        if gd.ncon != md.ncon:
            continue
        same += 1
        with_contacts += md.ncon > 0
        scale = max(1.0, float(np.abs(md.qacc).max()))
        assert np.abs(np.asarray(gd.qacc) - md.qacc).max() <= 1e-9 * scale, k
    assert same >= 24 and with_contacts >= 15, (same, with_contacts)
