"""Full steps of gauss and MuJoCo on every file of a collection nobody here wrote (MuJoCo's own
model/ and test/*/testdata/ folders, or any folder of MJCF files with --all): bench/suite.py's
rounds (the first keyframe or the default state, one random control vector per round inside the
control ranges, both engines alternating, the median rate of each, the thread's CPU time), one
row per file, sorted by the ratio, so that a model slower in gauss than in MuJoCo shows at the top.

    PYTHONPATH=python GAUSS_LIBRARY=build/release/libgauss.so .venv/bin/python \\
        bench/speed_sweep.py MUJOCO_ROOT [--all] [--only TEXT] [--rounds 3] [--seconds 0.05] \\
        [--steps 100] [--table docs/speed_sweep.md]

Like for like only: a file is timed where both engines load it with the same sizes and gauss's
load warnings name nothing it does not simulate (flexes, plugins, skins are left out and counted);
each file runs in a child process with a time limit, so that a crash or a very slow model of
either engine is a row, not the end of the sweep. Ratios are speeds (above 1 gauss is faster);
the stage columns are each engine's timers in microseconds per step, as in bench/suite.py. Files
that take less than a microsecond a step in both engines are timed too, but their ratio is mostly
the cost of a call (both loops are in C, so it is small) and of the integrator.
"""
import argparse
import os
import pickle
import platform
import signal
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tools"))

import gauss  # noqa: E402
import mujoco  # noqa: E402
from mujoco_sweep import SIZES, xml_files  # noqa: E402
from suite import run_model  # noqa: E402


def time_file(path, rounds, steps, seconds):
    """one row: how the file loads and, where like for like, both engines' rates and stages"""
    row = {"file": path, "status": ""}
    try:
        mm = mujoco.MjModel.from_xml_path(path)
    except Exception as e:  # noqa: BLE001 (the reference's message is only shown)
        row["status"] = "mujoco refuses: " + str(e).splitlines()[0][:80]
        return row
    try:
        gm = gauss.Model.from_xml_path(path)
    except Exception as e:  # noqa: BLE001
        row["status"] = "gauss refuses: " + str(e).splitlines()[0][:80]
        return row
    unsimulated = [w for w in gm.load_warnings if "not simulated" in w]
    diff = [s for s in SIZES if hasattr(gm, s) and hasattr(mm, s) and getattr(gm, s) != getattr(mm, s)]
    if unsimulated or diff:
        row["status"] = "not like for like: " + (unsimulated[0][:80] if unsimulated else
                                                  "sizes " + ", ".join(diff[:3]))
        return row
    g, m, gs, ms = run_model(path, steps, rounds, seconds, clock=time.thread_time)
    row.update(status="timed", gauss=g, mujoco=m, ratio=g / m, gs=gs, ms=ms)
    return row


def time_apart(path, rounds, steps, seconds, limit):
    """time_file() in a child process, killed after limit seconds"""
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rfd)
        signal.alarm(limit)
        try:
            data = pickle.dumps(time_file(path, rounds, steps, seconds))
        except Exception as e:  # noqa: BLE001
            data = pickle.dumps({"file": path, "status": "error: " + str(e).splitlines()[0][:80]})
        with os.fdopen(wfd, "wb") as out:
            out.write(data)
        os._exit(0)
    os.close(wfd)
    with os.fdopen(rfd, "rb") as f:
        data = f.read()
    _, status = os.waitpid(pid, 0)
    if not data:
        what = "over the time limit" if os.WIFSIGNALED(status) and \
            os.WTERMSIG(status) == signal.SIGALRM else f"crashed (status {status})"
        return {"file": path, "status": what}
    return pickle.loads(data)


def stages(s):
    rest = s["step"] - s["pos"] - s["coll"] - s["cons"]
    return f"{s['pos']:.1f} / {s['coll']:.1f} / {s['cons']:.1f} / {rest:.1f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root", help="a checkout (or extracted snapshot) of MuJoCo's repository, or "
                                 "any folder of MJCF files with --all")
    ap.add_argument("--all", action="store_true", help="every .xml under root")
    ap.add_argument("--only", default="", help="only files whose path contains this")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=0.05,
                    help="least duration of a round (more steps for fast models)")
    ap.add_argument("--limit", type=int, default=120, help="seconds allowed per file")
    ap.add_argument("--table", default="", help="also write the table as Markdown to this file")
    args = ap.parse_args()
    files = [f for f in xml_files(args.root, args.all) if args.only in f]
    rows = []
    for path in files:
        row = time_apart(path, args.rounds, args.steps, args.seconds, args.limit)
        row["file"] = os.path.relpath(path, args.root)
        # messages name files relative to the collection, as the rows do
        row["status"] = row["status"].replace(os.path.join(os.path.abspath(args.root), ""), "")
        rows.append(row)
        shown = f"{row['ratio']:.2f}" if "ratio" in row else row["status"]
        print(f"{row['file']:70s} {shown}", flush=True)
    timed = sorted((r for r in rows if "ratio" in r), key=lambda r: r["ratio"])
    slow = [r["file"] for r in timed if r["ratio"] < 1]
    counts = {}
    for r in rows:
        if "ratio" not in r:
            kind = r["status"].split(":")[0]
            counts[kind] = counts.get(kind, 0) + 1
    summary = (f"{len(timed)} files timed of {len(rows)}; median ratio "
               f"{statistics.median(r['ratio'] for r in timed):.2f}; below 1.0: "
               f"{', '.join(slow) or 'none'}; not timed: "
               + (", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "none"))
    print(summary)
    if args.table:
        lines = ["| file | gauss steps/s | MuJoCo steps/s | ratio | gauss pos / coll / constraint "
                 "/ rest (us) | MuJoCo pos / coll / constraint / rest (us) |",
                 "|---|---:|---:|---:|---|---|"]
        for r in timed:
            flag = " **< 1**" if r["ratio"] < 1 else ""
            lines.append(f"| {r['file']} | {r['gauss']:.0f} | {r['mujoco']:.0f} | "
                         f"{r['ratio']:.2f}{flag} | {stages(r['gs'])} | {stages(r['ms'])} |")
        untimed = [f"| {r['file']} | {r['status']} |" for r in rows if "ratio" not in r]
        with open(args.table, "w") as f:
            commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                                    capture_output=True, text=True).stdout.strip()
            f.write("# Speed on MuJoCo's own files\n\n")
            f.write(f"Written by `bench/speed_sweep.py` (commit {commit}, "
                    f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
                    f"{args.rounds} rounds per file; rerun it to refresh):\n\n")
            f.write("    PYTHONPATH=python GAUSS_LIBRARY=build/release/libgauss.so .venv/bin/python "
                    "bench/speed_sweep.py " + " ".join(sys.argv[1:]).replace(args.root, "ROOT")
                    + "\n\n")
            f.write(__doc__.split("\n\n")[2].replace("\n", " ").strip() + "\n\n")
            f.write(summary + "\n\n" + "\n".join(lines) + "\n\n## Not timed\n\n| file | why |\n"
                    "|---|---|\n" + "\n".join(untimed) + "\n")


if __name__ == "__main__":
    main()
