"""MuJoCo's benchmark scenes that bench/suite.py times besides the corpus (tests/models/README.md):
humanoid100 (one humanoid among 100 free primitives, by <attach> and nested <replicate>s),
stonehenge (rings of box pillars and lintels, a wrecking ball on a ramp) and the 3x3x3 cube (26
mesh cubelets on ball joints and face hinges, implicitfast). Each compiles as in MuJoCo 3.3.7
(sizes, names and every compiled array both engines have, as test_attach.py compares them), and
at states MuJoCo reached with contacts in force, the forward pass gives MuJoCo's contact count
and accelerations: Newton to a tight tolerance in both engines, so that the two solutions differ
by rounding, not by where two solvers stopped.

Bounds on qacc (error relative to its scale), from the agreement measured over more states than
these (humanoid100 after 200-500 steps, the cube after 20-200, stonehenge after 20-400): the cube
and stonehenge at most 1e-12, bound 1e-9; humanoid100 1e-11 to 3e-15 on four states and 4.3e-7 on
one (after 250 steps), bound 1e-5. A wrong contact or force moves qacc by far more. The contact
counts were equal at every state measured (the cube's 6, humanoid100's 5, the narrowed
stonehenge's 5), and at each of the test's states they stay equal and unchanged, and qacc within
4e-11, with the positions jittered by 1e-12 (eight draws, far above the last bits in which two
machines' trigonometry may differ): no count here is decided by a last-bit tie.

Stonehenge's lintels are exactly as wide as the pillars they rest on: their side faces are flush
to the last bit, which in MuJoCo's box-box test is a tie (its contact count moves with a 1e-15
offset across such faces; src/collision/pair_box.c), and gauss's count differed there by one or
two a pair after 1 and 50 steps. The test narrows every lintel (half width 0.5 -> 0.49) in both
engines, so that what it compares is not decided by a tie; the scene is timed as MuJoCo wrote it."""

import os

import mujoco
import numpy as np
import pytest

import gauss
import oracle
from test_attach import assert_compiled_alike

MODELS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "models", "mujoco")

# file, nv, MuJoCo's steps before each comparison, qacc bound
SCENES = [("humanoid/humanoid100.xml", 627, (200, 300, 400), 1e-5),
          ("replicate/stonehenge.xml", 456, (50, 200), 1e-9),
          ("cube/cube_3x3x3.xml", 66, (20, 80, 200), 1e-9)]


def narrow_lintels(m):
    """the stonehenge lintels (the boxes 0.4 in half height) 0.49 in half width instead of 0.5"""
    for g in range(m.ngeom):
        if m.geom_type[g] == mujoco.mjtGeom.mjGEOM_BOX and m.geom_size[g, 2] == 0.4:
            m.geom_size[g, 1] = 0.49


@pytest.mark.parametrize("file,nv,states,bound", SCENES)
def test_scene_like_mujoco(file, nv, states, bound):
    path = os.path.join(MODELS, file)
    mm, gm = mujoco.MjModel.from_xml_path(path), gauss.Model.from_xml_path(path)
    assert mm.nv == gm.nv == nv
    assert_compiled_alike(gm, mm)
    if "stonehenge" in file:
        narrow_lintels(mm)
        narrow_lintels(gm)
        assert np.array_equal(gm.geom_size, mm.geom_size) and np.sum(mm.geom_size[:, 1] == 0.49) == 35
    md, gd = mujoco.MjData(mm), gauss.Data(gm)
    # controls inside [-1, 1], clamped to the motors' ranges by both engines
    md.ctrl[:] = np.random.default_rng(2).uniform(-1, 1, mm.nu)
    state = np.empty(mujoco.mj_stateSize(mm, mujoco.mjtState.mjSTATE_INTEGRATION))
    tight = {"solver": 2, "tolerance": 1e-15, "ls_tolerance": 1e-12, "iterations": 200}
    done = 0
    for steps in states:
        mujoco.mj_step(mm, md, nstep=steps - done)
        done = steps
        mujoco.mj_getState(mm, md, state, mujoco.mjtState.mjSTATE_INTEGRATION)
        gauss.set_state(gm, gd, state, gauss.STATE_INTEGRATION)
        saved = {k: getattr(mm.opt, k) for k in tight}
        for m in (mm, gm):
            for k, v in tight.items():
                setattr(m.opt, k, v)
        mujoco.mj_forward(mm, md)
        gauss.forward(gm, gd)
        assert gd.ncon == md.ncon > 0, steps
        assert oracle.rel_err(np.asarray(gd.qacc), md.qacc) < bound, steps
        # MuJoCo steps on with the scene's own options
        for k, v in saved.items():
            setattr(mm.opt, k, v)
