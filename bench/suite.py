"""Full steps of gauss and MuJoCo side by side on a list of models, with every actuator driven:
steps per second of each, their ratio, and the per-stage time of both, in one table; ratios below
1.0 are flagged.

    PYTHONPATH=python GAUSS_LIBRARY=build/release/libgauss.so .venv/bin/python bench/suite.py
    ... bench/suite.py --steps 500 --rounds 5 --out docs/performance.md MODEL.xml ...
    ... bench/suite.py --smooth MODEL.xml ...     (contacts disabled in both: smooth dynamics)
    ... bench/suite.py two_arm                    (a model generated at run time, see GENERATED)
    ... bench/suite.py --cpu MODEL.xml ...        (rounds rated by the thread's CPU time: a loaded machine)
    ... bench/suite.py --sync 0 MODEL.xml ...     (each engine on its own trajectory)

Each round resets both engines to the model's first keyframe (or its default state), draws one
random control vector inside the control ranges (the same for both), and steps N times (N at least
--steps, and enough for --seconds of MuJoCo's time) in segments of --sync steps (200), in one call
a segment: gauss.step(m, d, K) and mujoco.mj_step(m, d, nstep=K), both loops in C. Before each
segment, outside the timed calls, gauss is set to MuJoCo's integration state, so that both engines
step through the same states: a chaotic model's two trajectories part ways by the last bits, and
then cost differently (dm_control's Kinova arm, without actuators, swings and comes to rest in
contact with itself or not, at ten times the contacts: its line read 0.83-0.90 on the engines' own
trajectories and 1.28-1.31 on the same states). Who goes first alternates from segment to segment
and round to round, and the median over rounds is reported. `--sync 0` steps each engine along its
own trajectory in one call a round (the tables before this option).

The timed rounds run with both engines' stage timers off (gauss's are off by default; MuJoCo's
Python package turns its own on whenever it makes an MjData, and the suite turns it off after
making the timed one): a timer reads the clock about 25-35 times a step, which a timed round
would count as the engine's. The stage columns come from rounds run before, like the
timed ones but with the timers on (--stage-rounds of them; gauss: Data.timer, MuJoCo:
MjData.timer, both reset with the data, so read after each round), in microseconds per step:
positions (kinematics and inertia), collision, constraint (making the rows and solving), and the
rest. Without model arguments it runs the corpus and the benchmark models of bench/models.
Ratios are speeds: above 1 gauss is faster. Numbers from a machine shared with other
work scatter; compare only ratios of the same run.
"""
import argparse
import os
import platform
import statistics
import subprocess
import sys
import time

import numpy as np

import mujoco

import gauss

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "python"))
import oracle  # noqa: E402

GT = gauss
MJ_TIMERS = mujoco.mjtTimer


def default_models():
    out = [p for _, p in oracle.corpus_models()]
    # MuJoCo's composed benchmarks (<replicate> and <attach> of its humanoid; humanoid100: one
    # humanoid among 100 free primitives)
    for name in ("22_humanoids.xml", "100_humanoids.xml", "humanoid100.xml"):
        out.append(os.path.join(ROOT, "tests", "models", "mujoco", "humanoid", name))
    # MuJoCo's stonehenge (box pillars and lintels, a wrecking ball) and its 3x3x3 cube (26
    # cubelets of mesh on ball joints, six face motors, implicitfast)
    out.append(os.path.join(ROOT, "tests", "models", "mujoco", "replicate", "stonehenge.xml"))
    out.append(os.path.join(ROOT, "tests", "models", "mujoco", "cube", "cube_3x3x3.xml"))
    # a real robot with meshes in self-contact, on MJCF's older convex pipeline (its files set
    # nativeccd="disable")
    out.append(os.path.join(ROOT, "tests", "models", "dm_control", "kinova", "jaco_arm.xml"))
    for name in sorted(os.listdir(os.path.join(HERE, "models"))):
        if name.endswith(".xml"):
            out.append(os.path.join(HERE, "models", name))
    out += [generated(name) for name in GENERATED]
    return out


# models written at run time (their meshes are megabytes: not stored in the repository), named on
# the command line by these names
GENERATED = ("two_arm", "mesh_pile")


def generated(name):
    """writes a generated model into build/bench_models (once) and returns its path"""
    sys.path.insert(0, HERE)
    import mesh_models

    out = os.path.join(ROOT, "build", "bench_models")
    if name == "two_arm":
        return mesh_models.write_two_arm(out)
    if name == "mesh_pile":
        return mesh_models.write_mesh_pile(out)
    raise ValueError(name)


def controls(m, rng):
    u = rng.uniform(-1, 1, m.nu)
    lo, hi = np.asarray(m.actuator_ctrlrange)[:, 0], np.asarray(m.actuator_ctrlrange)[:, 1]
    limited = np.asarray(m.actuator_ctrllimited) > 0
    return np.where(limited, lo + (hi - lo) * (u + 1) / 2, u)


def gauss_stages(d):
    t = d.timer

    def us(i):
        return t[i].duration * 1e6

    return {"pos": us(GT.TIMER_POS_KINEMATICS) + us(GT.TIMER_POS_INERTIA),
            "coll": us(GT.TIMER_POS_COLLISION),
            "cons": us(GT.TIMER_POS_MAKE) + us(GT.TIMER_CONSTRAINT),
            "step": us(GT.TIMER_STEP)}


def mujoco_stages(d):
    def us(k):
        return d.timer[k].duration * 1e6

    return {"pos": us(MJ_TIMERS.mjTIMER_POS_KINEMATICS) + us(MJ_TIMERS.mjTIMER_POS_INERTIA),
            "coll": us(MJ_TIMERS.mjTIMER_POS_COLLISION),
            "cons": us(MJ_TIMERS.mjTIMER_POS_MAKE) + us(MJ_TIMERS.mjTIMER_CONSTRAINT),
            "step": us(MJ_TIMERS.mjTIMER_STEP)}


def load_pair(path, smooth):
    gm = gauss.Model.from_xml_path(path)
    mm = mujoco.MjModel.from_xml_path(path)
    if smooth:  # contacts off in both (MJCF's <flag contact="disable"/>)
        gm.opt.disableflags |= gauss.DSBL_CONTACT
        mm.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONTACT
    return gm, mm, gauss.Data(gm), mujoco.MjData(mm)


def round_steps(mm, md, steps, seconds):
    """at least `steps`, and enough for `seconds` of MuJoCo's time, so that fast models are not
    timed by the scheduler's noise"""
    t0 = time.perf_counter()
    mujoco.mj_step(mm, md, nstep=50)
    return max(steps, int(seconds * 50 / max(time.perf_counter() - t0, 1e-9)))


def timed_round(gm, mm, gd, md, steps, sync, clock, r):
    """one round's steps, who goes first alternating from round to round: in one call each, each
    engine on its own trajectory (sync 0), or in segments of `sync` steps with gauss set to
    MuJoCo's state (MJCF's integration state: time, positions, velocities, activations, warm
    start, controls, applied forces...) before each, outside the timed calls, so that both
    engines step through the same states whatever chaos makes of their own trajectories. Steps per
    second of each engine"""
    segment = sync if sync > 0 else steps
    state = np.empty(mujoco.mj_stateSize(mm, mujoco.mjtState.mjSTATE_INTEGRATION)) if sync else None
    g_time = m_time = 0.0
    done = 0
    while done < steps:
        k = min(segment, steps - done)
        if sync:
            mujoco.mj_getState(mm, md, state, mujoco.mjtState.mjSTATE_INTEGRATION)
            gauss.set_state(gm, gd, state, gauss.STATE_INTEGRATION)
        for who in (("g", "m") if (r + done // segment) % 2 == 0 else ("m", "g")):
            t0 = clock()
            if who == "g":
                gauss.step(gm, gd, k)
                g_time += clock() - t0
            else:
                mujoco.mj_step(mm, md, nstep=k)
                m_time += clock() - t0
        done += k
    return steps / g_time, steps / m_time


def rounds_of(gm, mm, gd, md, steps, rounds, seed, clock, after=None, sync=0):
    """alternating rounds from the first keyframe (or the default state) with one random control
    vector each: the median steps per second of each engine; after(r) is called after round r.
    sync > 0: each round in segments from MuJoCo's states (timed_round)"""
    rng = np.random.default_rng(seed)
    g_rates, m_rates = [], []
    for r in range(rounds):
        u = controls(mm, rng)
        if mm.nkey:
            gauss.reset_data_keyframe(gm, gd, 0)
            mujoco.mj_resetDataKeyframe(mm, md, 0)
        else:
            gauss.reset_data(gm, gd)
            mujoco.mj_resetData(mm, md)
        gd.ctrl[:] = u
        md.ctrl[:] = u
        g, m = timed_round(gm, mm, gd, md, steps, sync, clock, r)
        g_rates.append(g)
        m_rates.append(m)
        if after:
            after(r)
    return statistics.median(g_rates), statistics.median(m_rates)


def stage_times(path, steps, rounds, seconds=0.2, seed=0, smooth=False, sync=0):
    """each engine's own stage timers (gauss: Data.timer, set on here; MuJoCo: MjData.timer, on
    as its Python package makes the MjData), summed over rounds that start as the timed rounds
    do (the same seed, so the same controls): microseconds per step by stage"""
    gm, mm, gd, md = load_pair(path, smooth)
    gauss.set_timer(gd, 1)
    steps = round_steps(mm, md, steps, seconds)
    # the reset clears both engines' timers: they are summed round by round
    gs = dict.fromkeys(("pos", "coll", "cons", "step"), 0.0)
    ms = dict(gs)

    def add(r):
        for total, now in ((gs, gauss_stages(gd)), (ms, mujoco_stages(md))):
            for k in total:
                total[k] += now[k]

    rounds_of(gm, mm, gd, md, steps, rounds, seed, time.perf_counter, add, sync)
    n = steps * rounds
    return {k: v / n for k, v in gs.items()}, {k: v / n for k, v in ms.items()}


def run_model(path, steps, rounds, seconds=0.2, seed=0, smooth=False, clock=time.perf_counter,
              sync=0):
    """steps per second of gauss and MuJoCo, both without stage timers: gauss's are off unless
    set; MuJoCo's Python package installs its clock (mjcb_time) whenever it makes an MjData and
    none is installed, and it is cleared here after the MjData is made (each timed step would
    otherwise read the clock ~25 times in each engine)"""
    gm, mm, gd, md = load_pair(path, smooth)
    gauss.set_timer(gd, 0)
    mujoco.set_mjcb_time(None)
    steps = round_steps(mm, md, steps, seconds)
    rates = rounds_of(gm, mm, gd, md, steps, rounds, seed, clock, sync=sync)
    # neither engine's clock ran (the last round's timers, kept until the next reset)
    if gauss_stages(gd)["step"] != 0 or mujoco_stages(md)["step"] != 0:
        raise RuntimeError("a stage timer ran in the timed rounds")
    return rates


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", nargs="*")
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--stage-rounds", type=int, default=2,
                    help="rounds with the stage timers on, for the stage columns")
    ap.add_argument("--seconds", type=float, default=0.2,
                    help="least duration of a round (more steps for fast models)")
    ap.add_argument("--smooth", action="store_true",
                    help="contacts disabled in both engines (smooth dynamics and limits)")
    ap.add_argument("--sync", type=int, default=200, metavar="K",
                    help="step both engines through MuJoCo's states: gauss set to MuJoCo's "
                         "state every K steps (default 200; chaotic models' trajectories part "
                         "ways and then cost differently: a swinging arm that comes to rest in "
                         "contact with itself or not); 0: each engine on its own trajectory")
    ap.add_argument("--out", help="also write the table (markdown) to this file")
    ap.add_argument("--cpu", action="store_true",
                    help="rate each round by this thread's CPU time instead of wall-clock time "
                         "(on a machine shared with other work: the time the scheduler gives "
                         "to other processes is not counted; the stage columns stay wall-clock)")
    args = ap.parse_args()
    models = [generated(p) if p in GENERATED else p for p in args.models] or default_models()
    rows, slow = [], []
    header = ("| model | gauss steps/s | MuJoCo steps/s | ratio | gauss pos / coll / constraint / "
              "rest (us) | MuJoCo pos / coll / constraint / rest (us) |")
    lines = [header, "|---|---:|---:|---:|---|---|"]
    print(header)
    # first every model's stage times (timers on), then the timed rounds with both engines'
    # timers off: reading the clock ~25-35 times a step costs ~0.5-1 us a step in each engine,
    # which a timed round would count as the engine's
    stages = {}
    for path in models:
        try:
            stages[path] = stage_times(path, args.steps, args.stage_rounds, args.seconds,
                                       smooth=args.smooth, sync=args.sync)
        except Exception:  # reported by the timed pass below
            pass
    for path in models:
        name = os.path.relpath(path, ROOT)
        try:
            g, m = run_model(path, args.steps, args.rounds, args.seconds, smooth=args.smooth,
                             clock=time.thread_time if args.cpu else time.perf_counter,
                             sync=args.sync)
            gs, ms = stages[path]
        except Exception as e:  # a model one engine refuses: listed, not timed
            line = f"| {name} | - | - | - | {type(e).__name__}: {str(e)[:80]} | |"
            print(line)
            lines.append(line)
            continue
        ratio = g / m
        flag = " **< 1**" if ratio < 1 else ""
        if ratio < 1:
            slow.append(name)

        def cols(s):
            rest = s["step"] - s["pos"] - s["coll"] - s["cons"]
            return f"{s['pos']:.1f} / {s['coll']:.1f} / {s['cons']:.1f} / {rest:.1f}"

        line = f"| {name} | {g:.0f} | {m:.0f} | {ratio:.2f}{flag} | {cols(gs)} | {cols(ms)} |"
        print(line, flush=True)
        lines.append(line)
        rows.append(ratio)
    median = f"{statistics.median(rows):.2f}" if rows else "-"
    summary = (f"\n{len(rows)} models timed; median ratio {median}; "
               f"below 1.0: {', '.join(slow) or 'none'}")
    print(summary)
    if args.out:
        commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True).stdout.strip()
        cpu = platform.processor() or platform.machine()
        # the file's hand-written sections (from its first "## " heading on) are kept after the table
        kept = ""
        if os.path.exists(args.out):
            with open(args.out) as f:
                text = f.read()
            at = text.find("\n## ")
            kept = text[at:] if at >= 0 else ""
        with open(args.out, "w") as f:
            f.write("# Performance: gauss against MuJoCo, full steps with actuators driven\n\n")
            f.write(f"Written by `bench/suite.py` (commit {commit}, {cpu}, {os.cpu_count()} cores, "
                    f"{args.rounds} alternating rounds of at least {args.steps} steps and "
                    f"{args.seconds} s per model, median; "
                    + (f"both engines through MuJoCo's states, gauss set to them every "
                       f"{args.sync} steps" if args.sync > 0 else
                       "each engine on its own trajectory") + "). "
                    "Ratios are gauss's speed over MuJoCo's in the same run.\n\n")
            f.write("\n".join(lines) + "\n" + summary + "\n" + kept)


if __name__ == "__main__":
    main()
