"""The contact list of every corpus model at 50 states of a MuJoCo rollout with random controls:
gauss, given the same qpos (and mocap poses), finds the same contacts as MuJoCo's mj_forward,
in the same order, with the same geoms, dim and parameters (exactly), dist to 1e-6 and pos and
frame to 1e-5 (compare_contacts in test_collision_filters.py).

Pairs of geom types whose narrow phase does not reproduce MuJoCo's contacts yet are listed in
MISSING with the reason: their contacts are taken out of both engines' lists before comparing
(gauss may find a stand-in contact from the general convex path, or none), and
test_corpus_missing_pairs reports, as an expected failure, which models meet them."""

import gauss
import mujoco
import numpy as np
import pytest

from test_collision_filters import compare_contacts

NSTATE = 50
STEPS_BETWEEN = 10

TYPE = {int(getattr(mujoco.mjtGeom, "mjGEOM_" + n)): n.lower()
        for n in ("PLANE", "HFIELD", "SPHERE", "CAPSULE", "ELLIPSOID", "CYLINDER", "BOX", "MESH")}

# (type1, type2) with type1 <= type2 in MuJoCo's numbering -> why gauss finds no contact there
MISSING = {}
# height fields: boxes and meshes match MuJoCo with any margin > 0, but at a margin of exactly 0
# MJCF's polytope depths are shallower than the prisms' penetration on ~86% (boxes) and ~91%
# (meshes) of contacts, by up to 0.17, whatever its ccd settings, along directions that do not
# separate the shapes (pair_hfield.c; test_polytopes_at_zero_margin and
# test_box_corner_in_flat_field_closed_form in test_collision_hfield.py): gauss keeps the exact
# penetration there, so these types are left out of this comparison (no corpus model meets
# them). Cylinders match (normal rule included) and are compared; MuJoCo's defaults stop its EPA before their normals converge, but
# no corpus model meets that pair (the quadruped's field lies under its floor).
MISSING[(1, 6)] = "pair type hfield-box: MuJoCo's depths at margin 0 are not the penetration"
MISSING[(1, 7)] = "pair type hfield-mesh: MuJoCo's depths at margin 0 are not the penetration"


def _pair_types(m, c):
    t1, t2 = int(m.geom_type[c.geom1]), int(m.geom_type[c.geom2])
    return (t1, t2) if t1 <= t2 else (t2, t1)


def rollout_states(mjm, seed=0):
    """NSTATE (qpos, mocap_pos, mocap_quat) from a rollout with random controls."""
    rng = np.random.default_rng(seed)
    d = mujoco.MjData(mjm)
    if mjm.nkey:
        mujoco.mj_resetDataKeyframe(mjm, d, 0)
    lo, hi = mjm.actuator_ctrlrange[:, 0], mjm.actuator_ctrlrange[:, 1]
    limited = mjm.actuator_ctrllimited.astype(bool) if mjm.nu else np.zeros(0, bool)
    out = []
    for _ in range(NSTATE):
        for _ in range(STEPS_BETWEEN):
            u = rng.normal(size=mjm.nu)
            d.ctrl[:] = np.where(limited, lo + (hi - lo) * rng.uniform(size=mjm.nu), u)
            mujoco.mj_step(mjm, d)
        out.append((d.qpos.copy(), d.mocap_pos.copy(), d.mocap_quat.copy()))
    return out


class _Filtered:
    """MuJoCo's data with the contacts of MISSING pair types left out."""

    def __init__(self, m, d):
        self.contact = [d.contact[i] for i in range(d.ncon) if _pair_types(m, d.contact[i]) not in MISSING]
        self.ncon = len(self.contact)


class _FilteredGauss:
    """gauss's data with the contacts of MISSING pair types left out."""

    def __init__(self, m, d):
        keep = [_pair_types(m, c) not in MISSING for c in d.contact]
        self.contact = d.contact[np.array(keep, dtype=bool)] if len(keep) else d.contact
        self.ncon = len(self.contact)


def _run(path):
    mjm = mujoco.MjModel.from_xml_path(path)
    gm = gauss.Model.from_xml_path(path)
    mjd, gd = mujoco.MjData(mjm), gauss.Data(gm)
    missing, ncon, worst = set(), 0, {"dist": 0.0, "pos": 0.0, "frame": 0.0}
    for k, (qpos, mpos, mquat) in enumerate(rollout_states(mjm)):
        for d in (mjd, gd):
            d.qpos[:] = qpos
            d.mocap_pos[:] = mpos
            d.mocap_quat[:] = mquat
        mujoco.mj_forward(mjm, mjd)
        gauss.forward(gm, gd)
        missing |= {MISSING[_pair_types(mjm, mjd.contact[i])] for i in range(mjd.ncon)
                    if _pair_types(mjm, mjd.contact[i]) in MISSING}
        ref = _Filtered(mjm, mjd)
        err = compare_contacts(mjm, ref, gm, _FilteredGauss(mjm, gd), where=f"state {k}")
        ncon += ref.ncon
        for key in worst:
            worst[key] = max(worst[key], err[key])
    return missing, ncon, worst


_RESULTS = {}


def _result(model_id, path):
    if model_id not in _RESULTS:
        _RESULTS[model_id] = _run(path)
    return _RESULTS[model_id]


def test_corpus_contacts(corpus_model):
    model_id, path = corpus_model
    missing, ncon, worst = _result(model_id, path)
    print(f"\n[{model_id}] {ncon} contacts compared over {NSTATE} states; max errors "
          + ", ".join(f"{k} {v:.1e}" for k, v in worst.items())
          + (f"; left out: {'; '.join(sorted(missing))}" if missing else ""))


def test_corpus_missing_pairs(corpus_model):
    model_id, path = corpus_model
    missing, _, _ = _result(model_id, path)
    if missing:
        pytest.xfail("; ".join(sorted(missing)))
