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


def stabilised_at_1ms(monkeypatch, **steps):
    """the simulation at 1 ms under the stabilising layer (trot.STAB_GAINS), with the
    predictors' steps given by name (e.g. DT_ENERGY=0.01)"""
    monkeypatch.setattr(trot, "DT", 1e-3)
    for name, value in steps.items():
        monkeypatch.setattr(trot, name, value)
    monkeypatch.setattr(trot, "STAB", dict(trot.STAB_GAINS))


def test_stabilised_trot_is_deterministic(monkeypatch):
    """the layer (its memory, Stage II's weights) keeps the run a function of its inputs"""
    stabilised_at_1ms(monkeypatch)
    runs = [trot.run("rigid-high", "qpc_mu", 0.15) for _ in range(2)]
    assert not runs[0]["fell"].any()
    for key in ("com", "eq", "tauv", "fpred", "fsim"):
        np.testing.assert_array_equal(runs[0][key], runs[1][key])


def test_rough_tiles_are_one_surface_of_many_frictions():
    """The rough terrain's tiles: each tile's samples, as the compiler stores them (normalized
    to [0, 1], scaled by the tile's size and lifted by its position), are the bumps' heights at
    the tile's grid points, so that neighbours agree on their shared edge; their frictions span
    U(0.1, 1.5)."""
    m = trot.model(True, 0.8, rough=True)
    elev = trot.rough_elevation() * 0.03
    step = 3.0 / (elev.shape[0] - 1)
    tiles = [g for g in range(m.ngeom) if m.geom_type[g] == gauss.GEOM_HFIELD]
    assert len(tiles) == trot.PATCH ** 2
    for g in tiles:
        h = m.geom_dataid[g]
        n = m.hfield_nrow[h] * m.hfield_ncol[h]
        z = m.geom_pos[g][2] + m.hfield_size[h][2] * m.hfield_data[m.hfield_adr[h]:m.hfield_adr[h] + n]
        z = z.reshape(m.hfield_nrow[h], m.hfield_ncol[h])
        # grid indices of the tile's lower-left sample (rows: y, first stored row the lowest)
        c = int(round((m.geom_pos[g][0] + 1.5) / step)) - 1
        r = int(round((m.geom_pos[g][1] + 1.5) / step)) - 1
        np.testing.assert_allclose(z, elev[r:r + 3, c:c + 3], atol=1e-6)   # single precision
    mu = m.geom_friction[tiles, 0]
    assert mu.min() >= 0.1 and mu.max() <= 1.5 and mu.max() - mu.min() > 1.0


def landings(r, h=1e-3):
    """(step, leg index, the foot's speed into the ground over the step before) of each swing's
    first contact in the second half of the swing or later (its landing)"""
    feet = np.array(r["feet"])
    pos = np.array(r["footpos"])
    out = []
    for k, leg in enumerate(trot.LEGS):
        armed, last = False, 1.0
        for i in range(2, len(feet)):
            ph = (r["t"][i] / trot.CYCLE + trot.PHASE[leg]) % 1.0
            if ph < 1 - trot.DUTY <= last:
                armed = True
            last = ph
            if armed and (feet[i] >> k) & 1 and ph >= 0.5 * (1 - trot.DUTY):
                out.append((i, k, -(pos[i - 1, k, 2] - pos[i - 2, k, 2]) / h))
                armed = False
    return out


def test_stabilised_trot_with_the_exact_prediction(monkeypatch):
    """The QP with the contact objective at the simulator's step (dt = h: the simulator's own
    model inverted) under the stabilising layer: over 0.6 s (two gait cycles, four touchdowns
    of each diagonal pair) the robot keeps its feet loaded and the predicted summed normal force
    matches the simulator's to 1 % of the mean force. Without the layer the same controller lifts
    its feet (35 % of the steps without load, docs/inverse_rigid.md) and falls within a second.
    The touchdowns: the layer's swing, planned in the world, brings each foot down at about
    LAND_V (0.02 m/s; under 0.06 m/s measured: the PD of the swing lags its path by a
    millimetre), and, the ground stopping the foot in its touchdown step (the last torques
    kept), no torque changes by 0.7 N m in a step around it (0.28 measured; 1.04 when the
    joints braked the leg within the step, 11 N m with the hip-frame swing, which landed early
    at up to 0.54 m/s). On two feet, mid-swing, the contacts' summed normal force is the
    weight to 2 N (0.53 measured): by Newton's law it is m (g + a_com), and the layer asks the
    centre of mass, not the base, for its small PD acceleration (held at the base, the swing
    legs' accelerations came back through the stance feet: +-20 N)."""
    stabilised_at_1ms(monkeypatch)
    r = trot.run("rigid-high", "qpc_mu", 0.6)
    assert not r["fell"].any()
    err, _, rel, noload = trot.prediction_error(r)
    assert rel < 0.01
    assert noload < 0.02
    tau = np.array(r["tauv"])
    jump = np.abs(np.diff(tau, axis=0)).max(axis=1)    # the largest joint's change each step
    landed = landings(r)
    assert len(landed) >= 6
    for i, _, speed in landed:
        assert speed < 0.1
        assert jump[i - 4:i + 4].max() < 0.7
    m = trot.model(True, 1.5)
    weight = m.body_subtreemass[1] * 9.81
    into = np.asarray(r["t"]) % (trot.CYCLE / 2)       # a diagonal pair swings 0-0.075 s
    mid = (into > 0.010) & (into < 0.065)
    assert mid.sum() > 200 and np.all(np.isfinite(r["fpred"][mid]))
    assert np.abs(r["fpred"][mid] - weight).max() < 2.0


def test_load_moves_off_a_foot_before_it_lifts(monkeypatch):
    """The layer's Stage II weights: a foot's predicted load falls to under a tenth of the
    standing share in the step before it lifts (the least-norm split kept a quarter of the
    weight on it to the last step, and the other feet took it within one step). At mu 0.1,
    where loaded planted feet lose their contact for a step (their centres creep up by
    micrometres on the velocity-level ground): from each such step on, no joint's torque
    travels 1.2 N m over five steps (0.83 and 0.65 measured, the last torques kept in the
    lost step and in the step the contact is back; 1.49 and 3.28 when the predictor answers
    the loss and the return)."""
    stabilised_at_1ms(monkeypatch)
    seen = []
    original = gauss.inverse_rigid

    def spy(m, d, **kw):
        r = original(m, d, **kw)
        seen.append({int(d.contact[i].geom2): r.contact_force[i, 0] for i in range(d.ncon)})
        return r

    monkeypatch.setattr(trot.gauss, "inverse_rigid", spy)
    r = trot.run("rigid-low", "qpc_mu", 0.35)
    assert not r["fell"].any()
    m = trot.model(True, 0.1)
    share = m.body_subtreemass[1] * 9.81 / 4
    checked = 0
    for k, leg in enumerate(trot.LEGS):
        geom = gauss.name2id(m, gauss.OBJ_GEOM, f"{leg}_foot")
        for i in range(1, len(seen)):
            ph = (i * 1e-3 / trot.CYCLE + trot.PHASE[leg]) % 1.0
            if 0 < ph * trot.CYCLE < 1.5e-3 and geom in seen[i - 1]:   # the first swing step
                assert seen[i - 1][geom] < 0.1 * share
                checked += 1
    assert checked >= 2
    change = np.abs(np.diff(np.array(r["tauv"]), axis=0))     # change[i - 1]: step i's
    feet = np.array(r["feet"])
    landed = landings(r)
    lost = 0
    for k, leg in enumerate(trot.LEGS):
        on = (feet >> k) & 1
        for i in range(1, len(on) - 5):
            ph = (r["t"][i] / trot.CYCLE + trot.PHASE[leg]) % 1.0
            down = [j for j, kk, _ in landed if kk == k and j <= i]
            # a loaded foot: planted over LOAD_T ago, over UNLOAD_T from lifting
            loaded = (ph >= 1 - trot.DUTY and down and (i - down[-1]) * 1e-3 > trot.LOAD_T
                      and (1 - ph) * trot.CYCLE > trot.UNLOAD_T)
            if loaded and on[i - 1] and not on[i] and on[i + 1]:
                assert change[i - 1:i + 4].sum(axis=0).max() < 1.2
                lost += 1
    assert lost >= 2


def test_seed_energy_objective_trots_at_its_step(monkeypatch):
    """The seed's QP (Stage I's kinetic-energy objective) under the stabilising layer, the
    simulation at 1 ms: Stage I removes the robot's momentum as far as the contacts allow, a
    force of about |p| / dt. Discretized at the simulator's 1 ms it predicts several times the
    weight and fails at 0.71 s; at DT_ENERGY (10 ms) the run passes that point, the predicted
    summed normal force stays within 15 % of the simulator's (9.7 % over 3 s) and the feet are
    loaded. Over 0.8 s, past the 1 ms failure."""
    stabilised_at_1ms(monkeypatch, DT_ENERGY=0.01)
    r = trot.run("rigid-high", "qp_mu", 0.8)
    assert not r["fell"].any()
    e = trot.prediction_error(r)
    assert e[2] < 0.15
    assert e[3] < 0.01


def test_qp_inf_bounds_friction_by_its_large_coefficient(monkeypatch):
    """qp_inf ("infinite" friction) predicts with a pyramid of MU_INF on every contact: on the
    mu 0.1 ground its predictions use friction beyond the ground's own coefficient and never
    beyond MU_INF, and the run passes the point where the QP without a friction bound failed
    (0.07 s on this ground: friction of 1e5 N on unloaded contacts). Over 0.3 s."""
    stabilised_at_1ms(monkeypatch, DT_ENERGY=0.01)
    ratios = []
    solve = trot.gauss.inverse_rigid

    def recorded(m, d, **kw):
        r = solve(m, d, **kw)
        f = r.contact_force
        on = f[:, 0] > 1e-3 if len(f) else []
        if r.status >= 0 and np.any(on):
            ratios.append(((np.abs(f[on, 1]) + np.abs(f[on, 2])) / f[on, 0]).max())
        return r

    monkeypatch.setattr(trot.gauss, "inverse_rigid", recorded)
    r = trot.run("rigid-low", "qp_inf", 0.3)
    assert not r["fell"].any()
    assert len(ratios) > 200
    assert max(ratios) > 10 * trot.TERRAINS["rigid-low"][1]
    assert max(ratios) <= trot.MU_INF * (1 + 1e-9)


def test_compliant_ground_with_the_predictor_at_its_time_scale(monkeypatch):
    """On the compliant ground (solref 0.02) the stabilised QP controller with the predictor's
    step at 0.01 s (the rigid model at the ground's time scale) trots without failing and
    predicts the summed normal force to 15 % (8 % over 3 s, docs/inverse_rigid.md)."""
    stabilised_at_1ms(monkeypatch, DT_COMPLIANT=0.01)
    r = trot.run("compliant-high", "qpc_mu", 0.5)
    assert not r["fell"].any()
    assert trot.prediction_error(r)[2] < 0.15


def test_soft_inverse_predicts_the_compliant_ground(monkeypatch):
    """soft_mu inverts the compliant ground's own soft model (the base's accelerations found by
    Newton, the torques from gauss.inverse): the forward step with its torques gives the
    predicted contact forces (the simulator's solver, not the inverse's closed form), so the
    summed normal force matches to round-off, where the rigid predictors at 10 ms miss by
    about 11 % on this ground. Over 0.3 s with the stabilising layer."""
    stabilised_at_1ms(monkeypatch, DT_COMPLIANT=0.01)
    r = trot.run("compliant-high", "soft_mu", 0.3)
    assert not r["fell"].any()
    e = trot.prediction_error(r)
    assert np.isfinite(r["fpred"]).mean() > 0.9
    assert e[2] < 1e-6


def test_failure_check():
    """The failure check reads the torques and the state, not only the base's height: a
    diverged controller (torques of 1e7 N m, or not finite) fails with its base in the band."""
    m = trot.model(True, 1.0)
    d = trot.standing(m)
    tau = np.full(12, 0.5)
    assert trot.failure(d, tau) is None
    assert trot.failure(d, np.full(12, 1e7)) == "torque"
    assert trot.failure(d, np.full(12, np.nan)) == "not finite"
    d.qvel[7] = 1e3
    assert trot.failure(d, tau) == "speed"
    d.qvel[7] = 0
    d.qpos[3:7] = (math.cos(0.6), math.sin(0.6), 0, 0)    # rolled 69 degrees, base still high
    assert trot.failure(d, tau) == "fell"
    d.qpos[3:7] = (1, 0, 0, 0)
    d.qpos[2] = 0.05
    assert trot.failure(d, tau) == "fell"
