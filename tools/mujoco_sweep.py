"""Every MJCF file of a MuJoCo checkout in both engines: which load, whether the sizes agree, and
how far apart qacc is at random states; with gauss's load warnings.

    PYTHONPATH=python GAUSS_LIBRARY=build/release/libgauss.so .venv/bin/python \
        tools/mujoco_sweep.py /path/to/mujoco [--states 3] [--seed 0] [--only SUBSTRING] \
        [--steps 200] [--table docs/mujoco_sweep.md] [--all]

It walks model/ and test/*/testdata/ of the checkout (or of an extracted snapshot of it; with
--all, every XML file under the root, for other collections such as dm_control's repository) and
prints one row per XML file:

    loads    both | mujoco | gauss | neither (a file both refuse is usually an include)
    sizes    = when every size both engines name agrees, else the first differing ones
    arrays   = when every numeric compiled array both name agrees to 1e-9 (relative to
             max(1, |value|)), else how many differ and the first ones
    qacc     max |qacc_gauss - qacc_mujoco| / max(1, |qacc_mujoco|) over --states random states
             (Newton, tolerance 1e-12, converged ccd settings in both), or '-'
    qacc sim the same over --states states MuJoCo reaches in --steps steps (200) from the first
             keyframe with the file's own settings, copied into both engines; 'crash in ...'
             where an engine crashed there (each file runs in a child process)
    warns    gauss's load warnings, after the table

then a summary: counts per outcome and the warnings by kind with the files that raise them.
With --table, the same as a Markdown file (the command, the summary, the files MuJoCo loads and
gauss refuses with the reason's kind, every file's row, the warnings by kind): docs/mujoco_sweep.md
is that file for MuJoCo 3.3.7's model/ and test/*/testdata/.
The mujoco Python package is only the reference here (as in the tests); nothing of it is used
by the library.
"""
import argparse
import glob
import os
import pickle
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


def compiled_differences(mm, gm, tol=1e-9):
    """numeric model arrays both engines name whose values differ by more than tol relative to
    max(1, |MuJoCo's value|), each with its largest such difference"""
    out = []
    for name in dir(mm):
        if name.startswith("_"):
            continue
        a = getattr(mm, name, None)
        if not isinstance(a, np.ndarray) or a.dtype.kind not in "fiu" or not hasattr(gm, name):
            continue
        b = np.asarray(getattr(gm, name))
        if a.size != b.size:
            out.append(f"{name}: size {a.size}/{b.size}")
            continue
        x, y = a.astype(float).ravel(), b.astype(float).ravel()
        gap = np.abs(x - y) / np.maximum(1.0, np.abs(x)) if a.size else np.zeros(0)
        if gap.size and not gap.max() <= tol:
            out.append(f"{name}: {gap.max():.1e}")
    return out


def xml_files(root, everything=False):
    if everything:
        return sorted(glob.glob(os.path.join(root, "**", "*.xml"), recursive=True))
    out = sorted(glob.glob(os.path.join(root, "model", "**", "*.xml"), recursive=True))
    out += sorted(glob.glob(os.path.join(root, "test", "*", "testdata", "**", "*.xml"), recursive=True))
    return out


def mesh_models(root):
    """(path, MuJoCo's model, gauss's model) for each file under root that both engines load with
    the same number of meshes, at least one"""
    for path in xml_files(root):
        try:
            mm = mujoco.MjModel.from_xml_path(path)
            if mm.nmesh == 0:
                continue
            gm = gauss.Model.from_xml_path(path)
        except Exception:
            continue
        if gm.nmesh == mm.nmesh:
            yield path, mm, gm


def tighten(mm, gm):
    """Newton with a tight tolerance and converged ccd settings, the same in both engines (with
    --own-ccd, passed to the files' child processes through GAUSS_SWEEP_OWN_CCD: the file's own
    ccd settings, which gauss's GJK and EPA follow step by step)."""
    own_ccd = os.environ.get("GAUSS_SWEEP_OWN_CCD") == "1"
    for m in (mm, gm):
        m.opt.solver = 2  # Newton in both enumerations
        m.opt.tolerance = 1e-12
        m.opt.iterations = max(int(m.opt.iterations), 200)
        if not own_ccd:
            m.opt.ccd_tolerance = 1e-12
            m.opt.ccd_iterations = 500


def set_state(mm, ds, qpos, qvel, ctrl):
    """The same state (activations cleared) in each of the data ds."""
    for d in ds:
        d.qpos[:] = qpos
        d.qvel[:] = qvel
        if mm.nu:
            d.ctrl[:] = ctrl
        if mm.na:
            d.act[:] = 0


def random_state(mm, rng):
    qpos = mm.qpos0.copy()
    # joints moved a little from qpos0: hinge and slide by up to 0.1, free and ball untouched
    for j in range(mm.njnt):
        if mm.jnt_type[j] in (2, 3):
            qpos[mm.jnt_qposadr[j]] += rng.uniform(-0.1, 0.1)
    qvel = rng.uniform(-0.1, 0.1, mm.nv)
    ctrl = rng.uniform(-1, 1, mm.nu)
    return qpos, qvel, ctrl


def simulated_states(path, nsteps, nstates):
    """States MuJoCo reaches from its first keyframe (else qpos0) in nsteps steps of the file's own
    settings (controls at the keyframe's, else zero): nstates evenly spaced along the way, each as
    (qpos, qvel, act, ctrl, mocap_pos, mocap_quat, time). A run that ends in a warning (a diverging
    simulation) or non-finite numbers keeps only the states before it."""
    m = mujoco.MjModel.from_xml_path(path)
    d = mujoco.MjData(m)
    if m.nkey:
        mujoco.mj_resetDataKeyframe(m, d, 0)
    out = []
    every = max(1, nsteps // max(1, nstates))
    for k in range(1, nsteps + 1):
        mujoco.mj_step(m, d)
        if any(w.number for w in d.warning) or not np.isfinite(d.qpos).all():
            break
        if k % every == 0 and len(out) < nstates:
            out.append((d.qpos.copy(), d.qvel.copy(), d.act.copy(), d.ctrl.copy(),
                        d.mocap_pos.copy(), d.mocap_quat.copy(), d.time))
    return out


def put_simulated_state(mm, datas, state):
    """one of simulated_states()'s states written into each of datas"""
    qpos, qvel, act, ctrl, mpos, mquat, t = state
    for d in datas:
        d.qpos[:], d.qvel[:], d.time = qpos, qvel, t
        if mm.na:
            d.act[:] = act
        if mm.nu:
            d.ctrl[:] = ctrl
        if mm.nmocap:
            d.mocap_pos[:], d.mocap_quat[:] = mpos, mquat


def qacc_gap(mm, md, gm, gd, report=None):
    """qacc apart at the state both data hold; report(stage), when given, is told which engine
    runs next (so that a crash can be put down to one)"""
    if report:
        report("crash in mujoco")
    mujoco.mj_forward(mm, md)
    if report:
        report("crash in gauss")
    gauss.forward(gm, gd)
    scale = max(1.0, float(np.abs(md.qacc).max(initial=0)))
    return float(np.abs(np.asarray(gd.qacc) - md.qacc).max(initial=0)) / scale


def compare_apart(path, nstates, seed, nsteps=0):
    """compare() in a child process: a crash of either engine (MuJoCo 3.3.7's mj_forward crashes
    at one simulated state of test/engine/testdata/sensor/fromto_primitive.xml with
    ccd_iterations 500) is reported in the row instead of ending the sweep"""
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rfd)
        out = os.fdopen(wfd, "wb")

        def send(row):
            data = pickle.dumps(row)
            out.write(len(data).to_bytes(8, "little") + data)
            out.flush()
        try:
            send(compare(path, nstates, seed, nsteps, send))
        finally:
            os._exit(0)
    os.close(wfd)
    row = None
    with os.fdopen(rfd, "rb") as f:
        while True:
            n = f.read(8)
            if len(n) < 8:
                break
            row = pickle.loads(f.read(int.from_bytes(n, "little")))
    _, status = os.waitpid(pid, 0)
    if row is None:
        row = {"file": path, "loads": "neither", "sizes": "-", "arrays": "-", "qacc": "-",
               "qacc_sim": "-", "warns": [], "error": f"crashed while loading (status {status})"}
    return row


def compare(path, nstates, seed, nsteps=0, send=None):
    row = {"file": path, "loads": "", "sizes": "-", "arrays": "-", "qacc": "-", "qacc_sim": "-",
           "warns": [], "error": ""}
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
    arrays = compiled_differences(mm, gm)
    row["arrays"] = "=" if not arrays else f"{len(arrays)}: " + ", ".join(arrays[:3])
    try:
        tighten(mm, gm)
        md, gd = mujoco.MjData(mm), gauss.Data(gm)
        rng = np.random.default_rng(seed)
        worst = 0.0
        for _ in range(nstates):
            qpos, qvel, ctrl = random_state(mm, rng)
            set_state(mm, (md, gd), qpos, qvel, ctrl)
            worst = max(worst, qacc_gap(mm, md, gm, gd))
        row["qacc"] = f"{worst:.1e}"
    except Exception as e:  # noqa: BLE001
        row["qacc"] = "error: " + str(e).splitlines()[0][:80]
    if nsteps:
        try:
            states = simulated_states(path, nsteps, nstates)
            worst = 0.0
            if send:
                send(row)  # what is known so far, should an engine crash below

            def report(stage):
                row["qacc_sim"] = stage
                if send:
                    send(row)
            for state in states:
                put_simulated_state(mm, (md, gd), state)
                worst = max(worst, qacc_gap(mm, md, gm, gd, report))
            row["qacc_sim"] = f"{worst:.1e}" if states else "diverges"
        except Exception as e:  # noqa: BLE001
            row["qacc_sim"] = "error: " + str(e).splitlines()[0][:80]
    return row


def warning_kind(line):
    """A warning without its file, line and numbers: the key that groups the same warning."""
    s = re.sub(r"^[^:]*:\d+:\s*", "", line)
    return re.sub(r"\d+", "N", s)[:100]


def refusal_kind(row):
    """why gauss refuses a file MuJoCo loads, by kind: what is out of scope (flex, plugins, SDF
    geoms, skins) apart from MJCF semantics still missing"""
    e, f = row["error"], row["file"]
    if "'sdf'" in e or "/plugin/" in f:
        return "plugin/SDF"
    if "/flex/" in f or "flex" in e:
        return "flex"
    if "skin" in e:
        return "skin"
    return "MJCF semantics"


def size_reason(row):
    """why the sizes differ, from gauss's load warnings: the element kinds not simulated"""
    kinds = sorted({m.group(1) for w in row["warns"] for m in [re.search(r"element <(\w+)>", w)] if m})
    return "not simulated: " + ", ".join(kinds) if kinds else "unexplained"


def bucket(q):
    v = float(q)
    return "<= 1e-8" if v <= 1e-8 else "<= 1e-4" if v <= 1e-4 else "> 1e-4"


def summary_counts(rows):
    count = defaultdict(int)
    for r in rows:
        count["loads " + r["loads"]] += 1
        if r["loads"] == "mujoco":
            count["refused: " + refusal_kind(r)] += 1
        if r["loads"] == "both":
            count["sizes equal" if r["sizes"] == "=" else "sizes differ"] += 1
            if r["sizes"] != "=":
                count["sizes differ, " + size_reason(r)] += 1
            if r["arrays"] != "-":
                count["arrays equal (1e-9)" if r["arrays"] == "=" else "arrays differ"] += 1
            for key, label in (("qacc", "qacc"), ("qacc_sim", "qacc simulated")):
                q = r.get(key, "-")
                if q in ("-", "diverges"):
                    if q == "diverges":
                        count[label + " diverges"] += 1
                elif q.startswith("error"):
                    count[label + " error"] += 1
                elif q.startswith("crash"):
                    count[f"{label} {q}"] += 1
                else:
                    count[f"{label} {bucket(q)}"] += 1
    return count


def warning_groups(rows, root):
    kinds = defaultdict(list)
    for r in rows:
        for w in r["warns"]:
            kinds[warning_kind(w)].append(os.path.relpath(r["file"], root))
    return sorted(kinds.items(), key=lambda kv: -len(kv[1]))


KEPT = "## Remaining differences"


def write_table(path, rows, root, argv, title="MuJoCo's own files in gauss"):
    """the sweep as Markdown: readable as text and rendered"""
    def cell(s):
        return str(s).replace(root.rstrip("/") + "/", "").replace("|", "\\|").replace("\n", " ")
    count = summary_counts(rows)
    out = ["# " + title, "",
           "Written by `tools/mujoco_sweep.py` (rerun it to refresh):", "",
           "    " + " ".join(argv), "",
           "loads: which engine loads the file (both, mujoco = gauss refuses it, gauss = MuJoCo refuses "
           "it, neither); sizes: `=` when every size both name agrees (else the first differing ones; the "
           "summary says which elements gauss's warnings name as not simulated); arrays: `=` when every "
           "numeric compiled array both name agrees to 1e-9 (relative to max(1, |value|)), else how many differ and the first ones; "
           "qacc: max |qacc_gauss - qacc_mujoco| / max(1, |qacc_mujoco|) at random states (hinges and "
           "slides moved by up to 0.1 from qpos0, free and ball joints as compiled, random velocities; "
           "Newton, tolerance 1e-12, converged ccd); qacc sim: the same measure at states MuJoCo reaches "
           "by simulating the file from its first keyframe (else qpos0) with its own settings, copied into "
           "both engines (see below for why both are kept).", "",
           "## Summary", "", "| outcome | files |", "|---|---|"]
    out += [f"| {k} | {count[k]} |" for k in sorted(count)]
    refused = [r for r in rows if r["loads"] == "mujoco"]
    out += ["", "## Files MuJoCo loads and gauss refuses", "", "| file | kind | gauss's error |", "|---|---|---|"]
    out += [f"| {os.path.relpath(r['file'], root)} | {refusal_kind(r)} | {cell(r['error'])} |" for r in refused]
    out += ["", "## Every file", "", "| file | loads | sizes | arrays | qacc | qacc sim | warnings | error |",
            "|---|---|---|---|---|---|---|---|"]
    out += [f"| {os.path.relpath(r['file'], root)} | {r['loads']} | {cell(r['sizes'])} | {cell(r['arrays'])} | "
            f"{cell(r['qacc'])} | {cell(r['qacc_sim'])} | {len(r['warns'])} | {cell(r['error'])} |" for r in rows]
    out += ["", "## gauss's load warnings by kind", "", "| files | warning | some of the files |", "|---|---|---|"]
    out += [f"| {len(fs)} | {cell(k)} | {', '.join(sorted(set(fs))[:4])} |" for k, fs in warning_groups(rows, root)]
    # the hand-written explanations at the end of an earlier table are kept
    if os.path.exists(path):
        with open(path) as f:
            old = f.read()
        if KEPT in old:
            out += ["", old[old.index(KEPT):].rstrip()]
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root", help="a checkout (or extracted snapshot) of MuJoCo's repository")
    ap.add_argument("--states", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", default="", help="only files whose path contains this")
    ap.add_argument("--steps", type=int, default=200,
                    help="steps MuJoCo simulates for the 'qacc sim' states (0: leave them out)")
    ap.add_argument("--all", action="store_true",
                    help="every XML file under the root, not only model/ and test/*/testdata/")
    ap.add_argument("--title", default="MuJoCo's own files in gauss", help="the table's heading")
    ap.add_argument("--table", default="", help="also write the results as a Markdown table file "
                    "(a section '" + KEPT + "' at the end of an earlier one is kept)")
    ap.add_argument("--own-ccd", action="store_true",
                    help="keep each file's ccd_tolerance and ccd_iterations (the qacc columns "
                    "then measure what a user running the file gets)")
    a = ap.parse_args()
    if a.own_ccd:
        os.environ["GAUSS_SWEEP_OWN_CCD"] = "1"
    files = [f for f in xml_files(a.root, a.all) if a.only in f]
    rows = []
    for f in files:
        r = compare_apart(f, a.states, a.seed, a.steps)
        rows.append(r)
        rel = os.path.relpath(f, a.root)
        print(f"{rel:70s} {r['loads']:8s} {r['sizes']:12s} {r['arrays'][:20]:20s} {r['qacc']:10s} {r['qacc_sim']:10s} "
              f"{len(r['warns'])} warn {r['error']}", flush=True)
    print("\nsummary")
    count = summary_counts(rows)
    for k in sorted(count):
        print(f"  {k:28s} {count[k]}")
    print("\nload warnings by kind (files)")
    for k, fs in warning_groups(rows, a.root):
        print(f"  {len(fs):4d}  {k}")
        for f in sorted(set(fs))[:4]:
            print(f"          {f}")
    if a.table:
        write_table(a.table, rows, a.root,
                    ["tools/mujoco_sweep.py", "ROOT" if a.all else "MUJOCO_ROOT"] + sys.argv[2:],
                    a.title)

if __name__ == "__main__":
    sys.exit(main())
