"""The dense QP solver of gauss (src/solver/qp.c: the KKT conditions as an LCP, by Lemke) against
QP libraries on the problems of rigid-contact inverse dynamics: Stage I of the two-stage QP
(seed 004, eqs. 69-72) for the example quadruped standing on 4 to 40 contacts.

    python bench/qp_library_bench.py [--build build/release]

Needs numpy and, for the comparison, the PyPI packages daqp, osqp and proxsuite (in any
environment: they are not dependencies of gauss). Builds each problem in numpy from gauss's
arrays (M, contact Jacobians, bias forces; the same reduction as src/pipeline/inverse_rigid.c),
checks that every solver reaches the optimum gauss's inverse_rigid(method="qp", stage2=False)
reaches (the base's acceleration), and prints a markdown table: each library's own solve time
(its internal timer, setup excluded), gauss's KKT solver (build/release/qp_bench, a C loop) and
gauss's whole QP method with its fast path (build/release/inverse_rigid_bench: reduction, solve
and forces)."""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "python"))

import quadruped_models  # noqa: E402

import gauss  # noqa: E402


def stage1(m, d):
    """(H, g, A, b, D, L): Stage I in the five variables per contact: min 1/2 z'Hz + g'z,
    z >= 0, A z >= b (non-penetration, then friction), on the unactuated (base) dofs"""
    nv, h = m.nv, m.opt.timestep
    act = np.zeros(nv, bool)
    for i in range(m.nu):
        act[m.jnt_dofadr[m.actuator_trnid[i, 0]]] = True
    U, Aa = np.where(~act)[0], np.where(act)[0]
    M = gauss.full_M(m, d)
    f0 = d.qfrc_passive - d.qfrc_bias + d.qfrc_applied
    rows, mus = [], []
    for i in range(d.ncon):
        c = d.contact[i]
        frame = np.asarray(c.frame).reshape(3, 3)
        b1, b2 = m.geom_bodyid[c.geom1], m.geom_bodyid[c.geom2]
        jp = np.zeros((3, nv))
        if b2 > 0:
            jp += gauss.jac(m, d, c.pos, int(b2))[0]
        if b1 > 0:
            jp -= gauss.jac(m, d, c.pos, int(b1))[0]
        rows.append(frame @ jp)
        mus.append(c.friction[0])
    J = np.vstack(rows)
    a = d.qacc.copy()
    L = np.linalg.cholesky(M[np.ix_(U, U)])
    a[U] = np.linalg.solve(M[np.ix_(U, U)], f0[U] - M[np.ix_(U, Aa)] @ a[Aa])
    b = J @ (d.qvel / h + a)
    G = np.linalg.solve(L, J[:, U].T).T
    nc = d.ncon
    D = np.zeros((5 * nc, len(U)))
    for c in range(nc):
        D[5 * c] = G[3 * c]
        D[5 * c + 1], D[5 * c + 2] = G[3 * c + 1], -G[3 * c + 1]
        D[5 * c + 3], D[5 * c + 4] = G[3 * c + 2], -G[3 * c + 2]
    p = d.qvel[U] + h * a[U]
    vA = d.qvel[Aa] + h * a[Aa]
    cp = (L.T @ p + np.linalg.solve(L, M[np.ix_(U, Aa)] @ vA)) / h
    H, g = D @ D.T, D @ cp
    A = np.zeros((2 * nc, 5 * nc))
    bA = np.zeros(2 * nc)
    for c in range(nc):
        A[c] = D @ G[3 * c]
        bA[c] = -b[3 * c]
        A[nc + c, 5 * c] = mus[c]
        A[nc + c, 5 * c + 1:5 * c + 5] = -1
    return H, g, A, bA, D, L, U, a


def base_acc(z, D, L, U, a):
    """the base acceleration a solution z gives"""
    out = a.copy()
    out[U] += np.linalg.solve(L.T, D.T @ z)
    return out[U]


def run_daqp(H, g, A, b):
    import daqp
    n = len(g)
    # z >= 0 as simple bounds (the first n bounds), then A z >= b
    bu = np.concatenate([np.full(n, 1e30), np.full(len(b), 1e30)])
    bl = np.concatenate([np.zeros(n), b])
    sense = np.zeros(n + len(b), dtype=np.int32)
    best, x = 1e9, None
    for _ in range(20):
        x, _, flag, info = daqp.solve(H, g, A, bu, bl, sense)
        best = min(best, info["solve_time"])
    return x, best * 1e6, flag


def run_osqp(H, g, A, b):
    import osqp
    import scipy.sparse as sp
    n = len(g)
    P = sp.csc_matrix(np.triu(H))
    Aall = sp.csc_matrix(np.vstack([np.eye(n), A]))
    lo = np.concatenate([np.zeros(n), b])
    up = np.full(n + len(b), np.inf)
    best, x = 1e9, None
    for _ in range(5):
        s = osqp.OSQP()
        s.setup(P=P, q=g, A=Aall, l=lo, u=up, verbose=False, eps_abs=1e-9, eps_rel=1e-9,
                max_iter=200000, polishing=True)
        r = s.solve()
        best = min(best, r.info.solve_time)
        x = r.x
    return x, best * 1e6, r.info.status


def run_proxsuite(H, g, A, b):
    import proxsuite
    n = len(g)
    C = np.vstack([np.eye(n), A])
    lo = np.concatenate([np.zeros(n), b])
    up = np.full(n + len(b), 1e20)
    best, x = 1e9, None
    for _ in range(20):
        qp = proxsuite.proxqp.dense.QP(n, 0, n + len(b))
        qp.settings.eps_abs = 1e-9
        qp.settings.verbose = False
        qp.settings.compute_timings = True
        qp.init(H, g, None, None, C, lo, up)
        qp.solve()
        best = min(best, qp.results.info.solve_time)
        x = qp.results.x
    return x, best, str(qp.results.info.status)


def own(build, H, g, A, b, reps):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(f"{len(g)} {len(b)}\n")
        for arr in (H, g, A, b):
            f.write(" ".join(f"{v:.17g}" for v in np.ravel(arr)) + "\n")
        path = f.name
    out = subprocess.run([os.path.join(build, "qp_bench"), path, str(reps)], check=True,
                         capture_output=True, text=True).stdout.split()
    os.unlink(path)
    return np.array([float(v) for v in out[4:]]), float(out[0])


def method_time(build, path):
    out = subprocess.run([os.path.join(build, "inverse_rigid_bench"), path, "500"], check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("qp_stage1 "):
            return float(line.split()[2])
    return float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(quadruped_models.ROOT, "build", "release"))
    a = ap.parse_args()
    print("Each cell: solve time in microseconds (the base acceleration's largest difference from "
          "gauss.inverse_rigid's).\n")
    print("| contacts | variables | daqp | osqp | proxsuite | gauss KKT-Lemke "
          "| gauss Stage I, whole method (us) |")
    print("|" + " --- |" * 7)
    with tempfile.TemporaryDirectory() as tmp:
        for k, path in zip(range(1, 11), quadruped_models.write_models(tmp, range(1, 11))):
            m = gauss.Model.from_xml_path(path)
            d = gauss.Data(m)
            gauss.reset_data_keyframe(m, d, 0)
            gauss.forward(m, d)
            d.qacc[:] = 0
            ref = gauss.inverse_rigid(m, d, method="qp", stage2=False)
            H, g, A, b, D, L, U, a0 = stage1(m, d)
            res = {}
            for name, fn in (("daqp", run_daqp), ("osqp", run_osqp), ("proxsuite", run_proxsuite)):
                try:
                    x, t, _ = fn(H, g, A, b)
                    err = np.abs(base_acc(x, D, L, U, a0) - ref.qacc[U]).max()
                    res[name] = f"{t:.1f} ({err:.0e})"
                except ImportError:
                    res[name] = "-"
            x, t = own(a.build, H, g, A, b, 20 if k > 5 else 200)
            err = np.abs(base_acc(x, D, L, U, a0) - ref.qacc[U]).max()
            res["own"] = f"{t:.1f} ({err:.0e})"
            print(f"| {d.ncon} | {len(g)} | {res['daqp']} | {res['osqp']} | {res['proxsuite']} | "
                  f"{res['own']} | {method_time(a.build, path):.1f} |")


if __name__ == "__main__":
    main()
