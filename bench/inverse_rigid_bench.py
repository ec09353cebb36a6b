"""Runtime of gauss's rigid-contact inverse dynamics against the number of contacts (seed 004,
Fig. 14), from 4 to 40 contacts under the example quadruped's feet.

    python bench/inverse_rigid_bench.py [--build build/release] [--reps 2000] [--png PATH]

Runs build/release/inverse_rigid_bench (bench/inverse_rigid_bench.c) on each model and prints a
markdown table (microseconds per call of each method alone: the reduction, the solve and the
forces; the position and velocity stages are not counted), and writes the plot."""

import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))

import quadruped_models  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(quadruped_models.ROOT, "build", "release"))
    ap.add_argument("--reps", type=int, default=2000)
    ap.add_argument("--png", default=os.path.join(quadruped_models.ROOT, "docs",
                                                  "inverse_rigid_runtime.png"))
    a = ap.parse_args()
    exe = os.path.join(a.build, "inverse_rigid_bench")
    ks = list(range(1, 11))
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        for p in quadruped_models.write_models(tmp, ks):
            out = subprocess.run([exe, p, str(a.reps)], check=True, capture_output=True,
                                 text=True).stdout
            for line in out.split("\n"):
                if line.strip():
                    name, ncon, us, piv, status = line.split()
                    rows.setdefault(int(ncon), {})[name] = (float(us), int(piv), int(status))
    names = ["noslip", "qp", "qp_stage1", "qp_kkt", "coulomb"]
    print("| contacts | " + " | ".join(f"{n} (us)" for n in names) + " |")
    print("|" + " --- |" * (len(names) + 1))
    for nc in sorted(rows):
        r = rows[nc]
        print(f"| {nc} | " + " | ".join(f"{r[n][0]:.1f}" for n in names) + " |")
    try:
        import pngplot
        fig = pngplot.Figure(800, 500)
        p = fig.panel(0, title="inverse dynamics runtime", xlabel="contacts", ylabel="us", logy=True)
        for i, n in enumerate(names):
            xs = sorted(rows)
            p.line(xs, [rows[x][n][0] for x in xs], color=pngplot.PALETTE[i], width=3, label=n)
        fig.save(a.png)
        print(f"wrote {a.png}")
    except ImportError:
        pass


if __name__ == "__main__":
    main()
