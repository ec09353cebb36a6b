"""Each function's share of a step's time (perf's samples) against its share of the step's
instructions (callgrind's counts), the same library, model and steps: where the ratio is near 1 a
function's time follows its instruction count; far above 1 it waits (divisions, the C library's
sine, loads behind stores, mispredicted jumps), and fewer instructions there may not be what
pays.

    .venv/bin/python bench/time_vs_instructions.py MODEL.xml [--smooth] [--skip K] \\
        [--steps N] [--perf-steps M] [--lib build/release/libgauss.so]

It builds bench/cg_step.c against the library (and MuJoCo's, which cg_step also loads), counts
instructions over N steps after K uncounted ones under callgrind (toggled on cg_counted_gs, as
cg_step.c's header describes), and samples M steps after the same K with `perf record -e
cpu-clock` (a software clock: no hardware counters needed). Needs valgrind and perf (Debian's
valgrind and linux-perf). The shares are of functions as compiled (static functions inlined into
others count as their callers), self counts only. perf's run includes the K steps before the M
(a few percent of its samples when M is large against K)."""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import cg_stages  # noqa: E402  (the callgrind profile's counts by function)


def mujoco_dir():
    out = subprocess.run([os.path.join(ROOT, ".venv", "bin", "python"), "-c",
                          "import mujoco, os; print(os.path.dirname(mujoco.__file__))"],
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def build(lib, tmp):
    mj = mujoco_dir()
    exe = os.path.join(tmp, "cg_step")
    libdir = os.path.dirname(os.path.abspath(lib))
    subprocess.run(["gcc", "-O2", "-I" + os.path.join(ROOT, "include"),
                    "-I" + os.path.join(mj, "include"), os.path.join(HERE, "cg_step.c"), "-o", exe,
                    os.path.abspath(lib), os.path.join(mj, "libmujoco.so.3.3.7"),
                    "-Wl,-rpath," + libdir + ":" + mj], check=True)
    return exe


def instruction_shares(exe, args, tmp):
    out = os.path.join(tmp, "callgrind.out")
    subprocess.run(["valgrind", "--tool=callgrind", "--collect-atstart=no",
                    "--toggle-collect=cg_counted_gs", "--callgrind-out-file=" + out, exe] + args,
                   check=True, capture_output=True)
    found, total = cg_stages.counts(out, inclusive=False)
    return {name: n / total for name, n in found.items()} if total else {}


def time_shares(exe, args, tmp):
    data = os.path.join(tmp, "perf.data")
    subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-F", "5000", "-o", data, exe] + args,
                   check=True, capture_output=True)
    text = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "symbol",
                           "--stdio"], capture_output=True, text=True, check=True).stdout
    shares = {}
    for line in text.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\[\.\]\s+(\S+)", line)
        if m:  # named as cg_stages.counts names them (compiler suffixes dropped)
            name = m.group(2).split(".")[0]
            shares[name] = shares.get(name, 0) + float(m.group(1)) / 100
    return shares


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model")
    ap.add_argument("--smooth", action="store_true", help="contacts disabled")
    ap.add_argument("--skip", type=int, default=2000, help="uncounted steps first")
    ap.add_argument("--steps", type=int, default=300, help="steps counted by callgrind")
    ap.add_argument("--perf-steps", type=int, default=30000, help="steps sampled by perf")
    ap.add_argument("--lib", default=os.path.join(ROOT, "build", "release", "libgauss.so"))
    ap.add_argument("--top", type=int, default=30, help="rows printed (by time)")
    args = ap.parse_args()
    extra = (["smooth"] if args.smooth else []) + ["skip=%d" % args.skip]
    with tempfile.TemporaryDirectory() as tmp:
        exe = build(args.lib, tmp)
        ins = instruction_shares(exe, ["g", args.model, str(args.steps)] + extra, tmp)
        tim = time_shares(exe, ["g", args.model, str(args.perf_steps)] + extra, tmp)
    print(f"{args.model}{' (contacts off)' if args.smooth else ''}: time share (perf), "
          f"instruction share (callgrind), their ratio")
    print(f"| function | time % | instructions % | ratio |\n|---|---:|---:|---:|")
    for name, t in sorted(tim.items(), key=lambda kv: -kv[1])[:args.top]:
        i = ins.get(name, 0.0)
        ratio = f"{t / i:.2f}" if i > 0 else "-"
        print(f"| {name} | {100 * t:.2f} | {100 * i:.2f} | {ratio} |")


if __name__ == "__main__":
    sys.exit(main())
