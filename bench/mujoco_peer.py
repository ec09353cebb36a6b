#!/usr/bin/env python3
"""MuJoCo side of `gauss bench`: a persistent process that steps MuJoCo on request.

    python bench/mujoco_peer.py MODEL.xml [--disable f,..] [--enable f,..] [--integrator NAME]
                                          [--solver NAME] [--ctrl zero|random]

Loads MODEL.xml with MuJoCo, applies the same <flag> names as `gauss bench` to
model.opt.disableflags / enableflags (and the integrator and solver), and writes one line:

    ready NQ NV TIMESTEP         or     error MESSAGE   (then exits 1)

Then it answers one line per request on standard input:

    reset      mj_resetData (then the --ctrl random controls)  -> "ok"
    run N      mj_step(m, d, nstep=N), the loop in C++        -> "SECONDS SIMTIME"
    profile N  mj_resetData, then N calls of mj_step from Python, with MuJoCo's stage timers
               (d.timer, which time the C code only) and per-step means of the problem size:
               -> "ncon=X nefc=X niter=X nisland=X STEP=SECONDS,CALLS FORWARD=..." with every
                  mjtTimer by its name less mjTIMER_ (timer durations are in seconds)
    ctrl       the controls, space-separated, each as repr    -> "C0 C1 ..."
    quit       (or end of input) exits
"""

import argparse
import sys
import time


def reply(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def flag_bits(enum, prefix, names):
    bits = 0
    for name in filter(None, (n.strip() for n in (names or "").split(","))):
        try:
            bits |= int(getattr(enum, prefix + name.upper()))
        except AttributeError:
            raise ValueError(f"MuJoCo has no flag {name!r}") from None
    return bits


def random_controls(m, d):
    """the fixed controls of `gauss bench --ctrl random`: splitmix64 from seed 12345, one draw
    per actuator, u = top 53 bits / 2^53, uniform in ctrlrange ([-1, 1] where not limited)"""
    mask = (1 << 64) - 1
    state = 12345
    for i in range(m.nu):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        z ^= z >> 31
        u = (z >> 11) * 2.0 ** -53
        lo, hi = (m.actuator_ctrlrange[i] if m.actuator_ctrllimited[i] else (-1.0, 1.0))
        d.ctrl[i] = lo + u * (hi - lo)


def reset(mujoco, m, d, ctrl):
    mujoco.mj_resetData(m, d)
    if ctrl == "random":
        random_controls(m, d)


def profile(mujoco, m, d, n, ctrl):
    reset(mujoco, m, d, ctrl)  # also zeroes d.timer
    ncon = nefc = niter = nisland = 0
    for _ in range(n):
        mujoco.mj_step(m, d)
        ncon += d.ncon
        nefc += d.nefc
        islands = max(int(d.nisland), 1)
        niter += int(max(d.solver_niter[:islands]))
        nisland += int(d.nisland)
    words = [f"ncon={ncon / n!r}", f"nefc={nefc / n!r}", f"niter={niter / n!r}",
             f"nisland={nisland / n!r}"]
    for name, value in mujoco.mjtTimer.__members__.items():
        if name == "mjNTIMER":
            continue
        t = d.timer[int(value)]
        words.append(f"{name[len('mjTIMER_'):]}={float(t.duration)!r},{int(t.number)}")
    return " ".join(words)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    parser.add_argument("--disable", default="")
    parser.add_argument("--enable", default="")
    parser.add_argument("--integrator", default="")
    parser.add_argument("--solver", default="")
    parser.add_argument("--ctrl", default="zero", choices=("zero", "random"))
    args = parser.parse_args()

    try:
        import mujoco
    except Exception as exc:  # noqa: BLE001 - any import failure means no peer
        reply(f"error cannot import mujoco: {exc}")
        return 1

    try:
        m = mujoco.MjModel.from_xml_path(args.model)
        m.opt.disableflags |= flag_bits(mujoco.mjtDisableBit, "mjDSBL_", args.disable)
        m.opt.enableflags |= flag_bits(mujoco.mjtEnableBit, "mjENBL_", args.enable)
        if args.integrator:
            m.opt.integrator = int(getattr(mujoco.mjtIntegrator, "mjINT_" + args.integrator.upper()))
        if args.solver:
            m.opt.solver = int(getattr(mujoco.mjtSolver, "mjSOL_" + args.solver.upper()))
        d = mujoco.MjData(m)
    except Exception as exc:  # noqa: BLE001 - report whatever went wrong, on one line
        reply("error " + " ".join(str(exc).split()))
        return 1

    reply(f"ready {m.nq} {m.nv} {m.opt.timestep!r}")
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "reset":
            reset(mujoco, m, d, args.ctrl)
            reply("ok")
        elif words[0] == "run" and len(words) == 2:
            n = int(words[1])
            t0 = time.perf_counter()
            mujoco.mj_step(m, d, nstep=n)
            elapsed = time.perf_counter() - t0
            reply(f"{elapsed!r} {d.time!r}")
        elif words[0] == "profile" and len(words) == 2:
            reply(profile(mujoco, m, d, int(words[1]), args.ctrl))
        elif words[0] == "ctrl":
            reply(" ".join(repr(float(c)) for c in d.ctrl))
        elif words[0] == "quit":
            break
        else:
            reply("error unknown request " + line.strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
