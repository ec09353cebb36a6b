"""The trotting example (examples/quadruped/trot.py) in short: the leg's inverse kinematics
against the forward kinematics of the model, the planned feet of a stance pair moving together,
and a short trot under the predictive QP controller twice, with identical records."""

import math
import os
import sys

import numpy as np

import gauss

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples", "quadruped"))
import trot  # noqa: E402


def test_leg_ik_matches_the_model():
    m = trot.model(True, 1.0)
    d = gauss.Data(m)
    rng = np.random.default_rng(0)
    foot = gauss.name2id(m, gauss.OBJ_GEOM, "FL_foot")
    hip = gauss.name2id(m, gauss.OBJ_BODY, "FL_hip")
    for _ in range(10):
        p = np.array([0.03 * rng.uniform(-1, 1), 0.02 * rng.uniform(-1, 1),
                      -0.11 + 0.015 * rng.uniform(-1, 1)])   # within reach (0.14)
        d.qpos[:] = 0
        d.qpos[3] = 1
        d.qpos[7:10] = trot.leg_ik(p)
        gauss.kinematics(m, d)
        np.testing.assert_allclose(d.geom_xpos[foot] - d.xpos[hip], p, atol=1e-12)


def test_stance_feet_move_together():
    vel = np.array([0.2, 0.05])
    for t in np.linspace(0, 0.6, 41):
        a, b = trot.foot_path(t, "FL", vel), trot.foot_path(t, "HR", vel)
        np.testing.assert_allclose(a, b, atol=1e-15)   # a diagonal pair
        ph = (t / trot.CYCLE) % 1.0
        if ph >= 1 - trot.DUTY:
            assert a[2] == -(trot.L1 + trot.L2) * math.cos(0.5)


def test_short_trot_is_deterministic():
    runs = [trot.run("rigid-high", "qp_mu", 0.15) for _ in range(2)]
    assert not runs[0]["fell"].any()
    for key in ("com", "eq", "tau", "fpred", "fsim"):
        np.testing.assert_array_equal(runs[0][key], runs[1][key])
    # the predicted normal forces carry about the weight while walking
    assert abs(np.nanmean(runs[0]["fpred"]) - 4.8 * 9.81) < 0.25 * 4.8 * 9.81
