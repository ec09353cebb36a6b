"""Every MJCF file of a MuJoCo checkout in both engines: which load, whether the sizes agree, and
how far apart qacc is at random states; with gauss's load warnings.

    PYTHONPATH=python GAUSS_LIBRARY=build/release/libgauss.so .venv/bin/python \
        tools/mujoco_sweep.py /path/to/mujoco [--states 3] [--seed 0] [--only SUBSTRING]

It walks model/ and test/*/testdata/ of the checkout (or of an extracted snapshot of it) and
prints one row per XML file:

    loads    both | mujoco | gauss | neither (a file both refuse is usually an include)
    sizes    = when every size both engines name agrees, else the first differing ones
    qacc     max |qacc_gauss - qacc_mujoco| / max(1, |qacc_mujoco|) over --states random states
             (Newton, tolerance 1e-12, converged ccd settings in both), or '-'
    warns    gauss's load warnings, after the table

then a summary: counts per outcome and the warnings by kind with the files that raise them.
The mujoco Python package is only the reference here (as in the tests); nothing of it is used
by the library.
"""
import argparse
import glob
import os
import re
import sys
from collections import defaultdict

import numpy as np

import mujoco

import gauss

# the sizes compared: those both models have, of the kinds most files define
SIZES = ("nq", "nv", "nu", "na", "nbody", "njnt", "ngeom", "nsite", "ncam", "nlight", "nmesh",
         "nhfield", "ntex", "nmat", "npair", "nexclude", "neq", "ntendon", "nwrap", "nsensor",
         "nkey", "nmocap", "nnumeric", "ntext", "ntuple", "nflex", "nskin", "nplugin")


def xml_files(root):
    out = sorted(glob.glob(os.path.join(root, "model", "**", "*.xml"), recursive=True))
    out += sorted(glob.glob(os.path.join(root, "test", "*", "testdata", "**", "*.xml"), recursive=True))
    return out


def tighten(mm, gm):
    """Newton with a tight tolerance and converged ccd settings, the same in both engines."""
    for m in (mm, gm):
        m.opt.solver = 2  # Newton in both enumerations
        m.opt.tolerance = 1e-12
        m.opt.iterations = max(int(m.opt.iterations), 200)
        m.opt.ccd_tolerance = 1e-12
        m.opt.ccd_iterations = 500


def random_state(mm, rng):
    qpos = mm.qpos0.copy()
    # joints moved a little from qpos0: hinge and slide by up to 0.1, free and ball untouched
    for j in range(mm.njnt):
        if mm.jnt_type[j] in (2, 3):
            qpos[mm.jnt_qposadr[j]] += rng.uniform(-0.1, 0.1)
    qvel = rng.uniform(-0.1, 0.1, mm.nv)
    ctrl = rng.uniform(-1, 1, mm.nu)
    return qpos, qvel, ctrl


def compare(path, nstates, seed):
    row = {"file": path, "loads": "", "sizes": "-", "qacc": "-", "warns": [], "error": ""}
    mm = gm = None
    try:
        mm = mujoco.MjModel.from_xml_path(path)
    except Exception as e:  # noqa: BLE001 (the reference's message is only shown)
        row["error"] = "mujoco: " + str(e).splitlines()[0][:120]
    try:
        gm = gauss.Model.from_xml_path(path)
        row["warns"] = list(gm.load_warnings)
    except Exception as e:  # noqa: BLE001
        row["error"] += (" | " if row["error"] else "") + "gauss: " + str(e).splitlines()[0][:160]
    row["loads"] = {(True, True): "both", (True, False): "mujoco", (False, True): "gauss",
                    (False, False): "neither"}[(mm is not None, gm is not None)]
    if mm is None or gm is None:
        return row
    diff = [f"{s} {getattr(gm, s)}/{getattr(mm, s)}" for s in SIZES
            if hasattr(gm, s) and hasattr(mm, s) and getattr(gm, s) != getattr(mm, s)]
    row["sizes"] = "=" if not diff else ", ".join(diff[:3])
    if diff:
        return row
    try:
        tighten(mm, gm)
        md, gd = mujoco.MjData(mm), gauss.Data(gm)
        rng = np.random.default_rng(seed)
        worst = 0.0
        for _ in range(nstates):
            qpos, qvel, ctrl = random_state(mm, rng)
            for d in (md, gd):
                d.qpos[:] = qpos
                d.qvel[:] = qvel
                if mm.nu:
                    d.ctrl[:] = ctrl
                if mm.na:
                    d.act[:] = 0
            mujoco.mj_forward(mm, md)
            gauss.forward(gm, gd)
            scale = max(1.0, float(np.abs(md.qacc).max(initial=0)))
            worst = max(worst, float(np.abs(np.asarray(gd.qacc) - md.qacc).max(initial=0)) / scale)
        row["qacc"] = f"{worst:.1e}"
    except Exception as e:  # noqa: BLE001
        row["qacc"] = "error: " + str(e).splitlines()[0][:80]
    return row


def warning_kind(line):
    """A warning without its file, line and numbers: the key that groups the same warning."""
    s = re.sub(r"^[^:]*:\d+:\s*", "", line)
    return re.sub(r"\d+", "N", s)[:100]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root", help="a checkout (or extracted snapshot) of MuJoCo's repository")
    ap.add_argument("--states", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", default="", help="only files whose path contains this")
    a = ap.parse_args()
    files = [f for f in xml_files(a.root) if a.only in f]
    rows = []
    for f in files:
        r = compare(f, a.states, a.seed)
        rows.append(r)
        rel = os.path.relpath(f, a.root)
        print(f"{rel:70s} {r['loads']:8s} {r['sizes']:12s} {r['qacc']:10s} "
              f"{len(r['warns'])} warn {r['error']}", flush=True)
    print("\nsummary")
    count = defaultdict(int)
    for r in rows:
        count["loads " + r["loads"]] += 1
        if r["loads"] == "both":
            count["sizes equal" if r["sizes"] == "=" else "sizes differ"] += 1
            q = r["qacc"]
            if q != "-" and not q.startswith("error"):
                v = float(q)
                count["qacc <= 1e-8" if v <= 1e-8 else "qacc <= 1e-4" if v <= 1e-4 else "qacc > 1e-4"] += 1
    for k in sorted(count):
        print(f"  {k:20s} {count[k]}")
    kinds = defaultdict(list)
    for r in rows:
        for w in r["warns"]:
            kinds[warning_kind(w)].append(os.path.relpath(r["file"], a.root))
    print("\nload warnings by kind (files)")
    for k, fs in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
        print(f"  {len(fs):4d}  {k}")
        for f in sorted(set(fs))[:4]:
            print(f"          {f}")


if __name__ == "__main__":
    sys.exit(main())
