"""The inverse-dynamics example (examples/inverse_recovery.py) on a shorter horizon: the torques
and contact forces recovered from finite-differenced states equal what the forward applied.

The truth is the simulation itself: qfrc_actuator + qfrc_applied and efc_force of each Euler step,
recorded while stepping, against gauss.inverse at the recorded qpos, qvel and the acceleration
(qvel[t+1] - qvel[t]) / h, with invdiscrete on. The forward's Newton solver runs at tolerance
1e-12, so the forces it returns are the exact ones to far below 1e-6; joint damping is in the
model, so without invdiscrete (M + h D against M) the recovery would be off by about h * D * qacc,
far above 1e-6 (the test checks that, so the tolerance can fail).
"""

import os
import struct
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "examples"))

import inverse_recovery  # noqa: E402

import gauss  # noqa: E402

DURATION = 0.5  # s: 167 steps, with contacts from the first step


# the one guard of this file: gauss.inverse comes with the inverse-dynamics work; once it is in the
# package this decorator line goes, and the test must pass
def test_recovered_torques_equal_applied():
    res = inverse_recovery.run("gauss", duration=DURATION, seed=3, applied_scale=5.0)
    assert res["steps_with_contact"] > len(res["t"]) // 2
    assert res["row_mismatch"] == 0 and res["qpos_err"] < 1e-12
    # the bound: recovered = applied to 1e-6 (absolute, on forces of order 100)
    assert res["qfrc_abs"] < 1e-6, res["qfrc_abs"]
    assert res["efc_abs"] < 1e-6 * max(res["efc_scale"], 1.0), res["efc_abs"]

    # the same recording inverted as if its qacc were the continuous one: the damping term
    # h D qacc is missed, so the bound above is not met by chance
    eng, rec = res["eng"], res["rec"]
    eng.m.opt.enableflags = eng.m.opt.enableflags & ~gauss.ENBL_INVDISCRETE
    _, qfrc, _ = inverse_recovery.recover(eng, rec)
    err = np.abs(qfrc - res["qfrc_true"]).max()
    assert err > 1e-3, err


def test_method_on_reference_engine(tmp_path):
    # the example's recording and finite differences, run on MuJoCo 3.3.7: checks the method
    # itself (the Euler step's qacc, which forces belong to which step), independently of gauss
    res = inverse_recovery.run("mujoco", duration=DURATION, seed=3, applied_scale=5.0)
    assert res["row_mismatch"] == 0 and res["qpos_err"] < 1e-12
    assert res["qfrc_abs"] < 1e-6 and res["efc_abs"] < 1e-6 * res["efc_scale"]
    path = tmp_path / "plot.png"
    inverse_recovery.plot(res, str(path))
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR"
    assert struct.unpack(">II", head[16:24]) == (1100, 4 * 250 + 30)


def test_missing_inverse_is_reported(monkeypatch, capsys):
    # without gauss.inverse the example says so and exits non-zero instead of failing obscurely
    if hasattr(gauss, "inverse"):
        monkeypatch.delattr(gauss, "inverse")
    assert inverse_recovery.main(["--duration", "0.01", "--out", os.devnull]) == 2
    assert "no gauss.inverse" in capsys.readouterr().err
