"""Recover the torques that drove a humanoid, and its contact forces, by inverse dynamics.

    PYTHONPATH=python .venv/bin/python examples/inverse_recovery.py [--out inverse_recovery.png]

The Gymnasium humanoid is driven for 2 s by random motor commands (piecewise constant, redrawn
every 0.06 s, seeded), falls and hits the floor. Only its states are kept: qpos and qvel at every
step. Then, as one would with motion-capture data, the accelerations are finite-differenced from
the states and the inverse dynamics (gauss.inverse) recovers, at each step, the generalized force
that produced them and the contact forces. They are compared with what the simulation actually
applied: qfrc_actuator + qfrc_applied, and the forward's efc_force.

Why the recovery is exact here, not approximate:
- The integrator is Euler. Its step is qvel' = qvel + h qacc_d, then qpos' = qpos (+) h qvel'
  (semi-implicit: the new velocity moves the positions). So qacc_d = (qvel' - qvel) / h is exactly
  the acceleration of the step, up to rounding, and the positions need no differencing at all.
- With joint damping D, Euler treats damping implicitly: (M + h D) qacc_d = M qacc, where qacc is
  the continuous-time acceleration of the forward. The enable flag invdiscrete tells the inverse
  that its qacc is such a discrete one, so it undoes the (M + h D) before inverting.
- The forward's constraint solver is Newton at a tight tolerance: the inverse is analytical and
  recovers exactly the forces of a converged forward; with the humanoid's own PGS at 50 iterations
  the forward's forces are only as accurate as that solver, and so is the match (--solver PGS
  shows by how much).

--engine mujoco runs the same recording and recovery on MuJoCo (its Python package, pinned in
tests/requirements.txt), for comparison.
"""

import argparse
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MODEL = os.path.join(ROOT, "tests", "models", "gymnasium", "humanoid.xml")
PLOT_DOFS = ("right_hip_y", "right_knee", "left_knee", "abdomen_y", "right_shoulder1",
             "left_elbow")


class InverseUnavailable(RuntimeError):
    """The engine has no inverse dynamics."""


class Engine:
    """The few calls the example needs, on gauss or on MuJoCo."""

    def __init__(self, engine, path, solver="Newton", tolerance=1e-12, iterations=200):
        self.engine = engine
        if engine == "gauss":
            import gauss
            if not hasattr(gauss, "inverse"):
                raise InverseUnavailable(
                    "this build of the gauss package has no gauss.inverse (inverse dynamics); "
                    "update gauss, or run with --engine mujoco")
            self.lib = gauss
            self.m = gauss.Model.from_xml_path(path)
            self.m.opt.integrator = "Euler"
            self.m.opt.solver = solver
            self.m.opt.enableflags = self.m.opt.enableflags | gauss.ENBL_INVDISCRETE
            self.new_data = lambda: gauss.Data(self.m)
            self.dof_name = lambda j: self.m.joint(int(self.m.dof_jntid[j])).name
        elif engine == "mujoco":
            import mujoco
            self.lib = mujoco
            self.m = mujoco.MjModel.from_xml_path(path)
            self.m.opt.integrator = mujoco.mjtIntegrator.mjINT_EULER
            self.m.opt.solver = getattr(mujoco.mjtSolver, "mjSOL_" + solver.upper())
            self.m.opt.enableflags |= mujoco.mjtEnableBit.mjENBL_INVDISCRETE
            self.new_data = lambda: mujoco.MjData(self.m)
            self.dof_name = lambda j: self.m.joint(int(self.m.dof_jntid[j])).name
        else:
            raise ValueError(f"unknown engine {engine!r} (gauss or mujoco)")
        self.m.opt.tolerance = tolerance
        self.m.opt.iterations = iterations

    def integrate_pos(self, qpos, qvel, h):
        """qpos moved by the velocity qvel for time h (quaternions on their sphere)."""
        q = np.array(qpos, dtype=np.float64)
        v = np.ascontiguousarray(qvel, dtype=np.float64)
        if self.engine == "mujoco":
            self.lib.mj_integratePos(self.m, q, v, h)
        else:  # the library's own position update, the one gs_step uses
            self.lib._lib.gs_integratePos(self.m._ptr, q, v, h)
        return q

    def step(self, d):
        self.lib.mj_step(self.m, d) if self.engine == "mujoco" else self.lib.step(self.m, d)

    def inverse(self, d):
        self.lib.mj_inverse(self.m, d) if self.engine == "mujoco" else self.lib.inverse(self.m, d)


def record(eng, duration, seed, hold=0.06, applied_scale=0.0):
    """Simulate `duration` seconds under random piecewise-constant controls; returns the states at
    every step and what the forward applied during that step."""
    m = eng.m
    d = eng.new_data()
    rng = np.random.default_rng(seed)
    h = m.opt.timestep
    nstep = int(round(duration / h))
    nhold = max(int(round(hold / h)), 1)
    lo, hi = m.actuator_ctrlrange[:, 0], m.actuator_ctrlrange[:, 1]
    rec = {k: [] for k in ("qpos", "qvel", "ctrl", "qfrc_applied", "qfrc_actuator", "efc_force")}
    for t in range(nstep + 1):
        if t % nhold == 0:
            d.ctrl[:] = rng.uniform(lo, hi)
            # optional random generalized forces on the joints, also to be recovered
            d.qfrc_applied[:] = applied_scale * rng.standard_normal(m.nv)
        rec["qpos"].append(np.array(d.qpos))
        rec["qvel"].append(np.array(d.qvel))
        if t == nstep:
            break
        rec["ctrl"].append(np.array(d.ctrl))
        rec["qfrc_applied"].append(np.array(d.qfrc_applied))
        eng.step(d)  # forward at (qpos, qvel) then Euler: the forces below belong to step t
        rec["qfrc_actuator"].append(np.array(d.qfrc_actuator))
        rec["efc_force"].append(np.array(d.efc_force[:d.nefc]))
    out = {k: (np.array(v) if k != "efc_force" else v) for k, v in rec.items()}
    out["h"] = h
    return out


def recover(eng, rec):
    """Inverse dynamics at every recorded step, from qpos, qvel and the finite-differenced qacc."""
    d = eng.new_data()
    h = rec["h"]
    qacc = (rec["qvel"][1:] - rec["qvel"][:-1]) / h  # exactly the Euler step's acceleration
    qfrc, efc = [], []
    for t in range(len(qacc)):
        d.qpos[:] = rec["qpos"][t]
        d.qvel[:] = rec["qvel"][t]
        d.qacc[:] = qacc[t]
        d.ctrl[:] = rec["ctrl"][t]
        d.qfrc_applied[:] = rec["qfrc_applied"][t]
        eng.inverse(d)
        qfrc.append(np.array(d.qfrc_inverse))
        efc.append(np.array(d.efc_force[:d.nefc]))
    return qacc, np.array(qfrc), efc


def run(engine="gauss", duration=2.0, seed=0, solver="Newton", tolerance=1e-12,
        applied_scale=0.0, model=MODEL):
    """Record, recover and measure the recovery errors; returns a dict (arrays and errors)."""
    eng = Engine(engine, model, solver=solver, tolerance=tolerance)
    rec = record(eng, duration, seed, applied_scale=applied_scale)
    qacc, qfrc_rec, efc_rec = recover(eng, rec)
    qfrc_true = rec["qfrc_actuator"] + rec["qfrc_applied"]
    # the recorded positions follow the Euler step: qpos[t+1] = qpos[t] moved by qvel[t+1] for h
    qpos_err = max(float(np.abs(eng.integrate_pos(rec["qpos"][t], rec["qvel"][t + 1], rec["h"])
                                - rec["qpos"][t + 1]).max()) for t in range(len(qacc)))
    err = np.abs(qfrc_rec - qfrc_true)
    scale = np.abs(qfrc_true).max()
    # contact and other constraint forces: same rows when the inverse sees the same qpos
    efc_err, efc_scale, nrows, mismatch = 0.0, 0.0, 0, 0
    for fwd, inv in zip(rec["efc_force"], efc_rec):
        if fwd.shape != inv.shape:
            mismatch += 1
            continue
        nrows = max(nrows, fwd.size)
        if fwd.size:
            efc_err = max(efc_err, float(np.abs(fwd - inv).max()))
            efc_scale = max(efc_scale, float(np.abs(fwd).max()))
    return {
        "engine": engine, "eng": eng, "rec": rec, "qacc": qacc, "qfrc_true": qfrc_true,
        "qfrc_rec": qfrc_rec, "efc_rec": efc_rec,
        "t": np.arange(len(qacc)) * rec["h"],
        "qfrc_abs": float(err.max()), "qfrc_rel": float(err.max() / scale),
        "efc_abs": efc_err, "efc_rel": efc_err / efc_scale if efc_scale else 0.0,
        "efc_scale": efc_scale, "max_nefc": nrows, "row_mismatch": mismatch,
        "qpos_err": qpos_err,
        "steps_with_contact": sum(1 for f in rec["efc_force"] if f.size),
    }


def plot(res, path, dofs=PLOT_DOFS):
    sys.path.insert(0, HERE)
    import pngplot
    eng = res["eng"]
    names = [eng.dof_name(j) for j in range(eng.m.nv)]
    picks = [names.index(n) for n in dofs if n in names]
    cols = 2
    rows = (len(picks) + 2 + cols - 1) // cols
    fig = pngplot.Figure(1100, 250 * rows + 30, rows=rows, cols=cols,
                         title=f"humanoid, random torques: applied vs recovered by inverse "
                               f"dynamics ({res['engine']})")
    t = res["t"]
    for k, j in enumerate(picks):
        p = fig.panel(k, title=names[j], xlabel="time (s)", ylabel="generalized force")
        p.line(t, res["qfrc_true"][:, j], color=pngplot.BLUE, width=5, label="applied")
        p.line(t, res["qfrc_rec"][:, j], color=pngplot.RED, width=1, label="recovered")
    p = fig.panel(len(picks), title="constraint forces, sum of efc_force", xlabel="time (s)",
                  ylabel="force")
    p.line(t, [f.sum() for f in res["rec"]["efc_force"]], color=pngplot.BLUE, width=5,
           label="forward")
    p.line(t, [f.sum() for f in res["efc_rec"]], color=pngplot.RED, width=1, label="inverse")
    p = fig.panel(len(picks) + 1, title="recovery error, max over dofs", xlabel="time (s)",
                  ylabel="abs error", logy=True)
    err = np.abs(res["qfrc_rec"] - res["qfrc_true"]).max(axis=1)
    p.line(t, np.maximum(err, 1e-16), color=pngplot.PURPLE, width=1, label="qfrc")
    efc_err = [float(np.abs(a - b).max()) if a.size and a.shape == b.shape else np.nan
               for a, b in zip(res["rec"]["efc_force"], res["efc_rec"])]
    p.line(t, np.maximum(efc_err, 1e-16), color=pngplot.ORANGE, width=1, label="efc_force")
    fig.save(path)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", choices=("gauss", "mujoco"), default="gauss")
    ap.add_argument("--duration", type=float, default=2.0, help="seconds simulated (2)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--solver", choices=("Newton", "CG", "PGS"), default="Newton",
                    help="the forward's constraint solver (Newton)")
    ap.add_argument("--tolerance", type=float, default=1e-12,
                    help="the forward solver's tolerance (1e-12)")
    ap.add_argument("--applied", type=float, default=0.0,
                    help="scale of random qfrc_applied added to the controls (0)")
    ap.add_argument("--out", default="inverse_recovery.png", help="the PNG plot")
    a = ap.parse_args(argv)
    try:
        res = run(a.engine, a.duration, a.seed, a.solver, a.tolerance, a.applied)
    except InverseUnavailable as e:
        print(f"inverse_recovery: {e}", file=sys.stderr)
        return 2
    rec = res["rec"]
    print(f"engine {a.engine}: humanoid, {len(res['t'])} Euler steps of {rec['h']} s, "
          f"solver {a.solver} (tolerance {a.tolerance:g}), invdiscrete on")
    print(f"contacts: {res['steps_with_contact']} steps with constraint rows, "
          f"up to {res['max_nefc']} rows")
    print(f"positions: max |qpos[t+1] - integrate_pos(qpos[t], qvel[t+1], h)| = "
          f"{res['qpos_err']:.3e} (Euler: the new velocity moves the positions)")
    print(f"applied generalized force: max |qfrc_actuator + qfrc_applied| = "
          f"{np.abs(res['qfrc_true']).max():.4g}")
    print(f"recovered qfrc_inverse:   max abs error {res['qfrc_abs']:.3e}, "
          f"relative {res['qfrc_rel']:.3e}")
    print(f"recovered efc_force:      max abs error {res['efc_abs']:.3e}, "
          f"relative {res['efc_rel']:.3e} (max |efc_force| {res['efc_scale']:.4g})")
    if res["row_mismatch"]:
        print(f"warning: {res['row_mismatch']} steps where the inverse found other constraint "
              f"rows than the forward")
    plot(res, a.out)
    print(f"plot: {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
