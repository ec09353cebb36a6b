"""Whether a change keeps gauss's numbers bit for bit: the state (qpos, qvel) after N steps of every
corpus model and the benchmark models, with seeded controls inside the control ranges, written to
an .npz by one library and compared with another's.

    PYTHONPATH=python GAUSS_LIBRARY=BEFORE/libgauss.so .venv/bin/python bench/bitwise_states.py \\
        write /tmp/before.npz
    PYTHONPATH=python GAUSS_LIBRARY=AFTER/libgauss.so .venv/bin/python bench/bitwise_states.py \\
        write /tmp/after.npz
    .venv/bin/python bench/bitwise_states.py compare /tmp/before.npz /tmp/after.npz

`compare` prints each model whose state differs, with the largest difference, and how many do.
`write PATH smooth` steps with contacts disabled and keeps, besides the state, the data fields a
user reads after a step (frames, com quantities, M and its factor, forces, accelerations,
sensordata): for changes that leave work out of a step's passes.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def models():
    sys.path.insert(0, os.path.join(ROOT, "tests", "python"))
    import oracle

    out = [p for _, p in oracle.corpus_models()]
    for name in sorted(os.listdir(os.path.join(HERE, "models"))):
        if name.endswith(".xml"):
            out.append(os.path.join(HERE, "models", name))
    return out


# the data fields `write ... smooth` keeps besides the state (those a model has)
FIELDS = ("act", "qacc", "qacc_smooth", "qacc_warmstart", "qfrc_bias", "qfrc_passive",
          "qfrc_actuator", "qfrc_smooth", "qfrc_constraint", "xpos", "xquat", "xmat", "xipos",
          "ximat", "xanchor", "xaxis", "geom_xpos", "geom_xmat", "site_xpos", "site_xmat",
          "subtree_com", "cinert", "cdof", "cvel", "cdof_dot", "qM", "qLD", "qLDiagInv",
          "ten_length", "ten_J", "ten_velocity", "actuator_moment", "actuator_length", "actuator_velocity", "actuator_force",
          "act_dot", "sensordata", "subtree_linvel", "subtree_angmom", "cacc", "cfrc_int",
          "cfrc_ext")


def write(path, steps=200, smooth=False):
    import gauss

    states = {}
    for xml in models():
        try:
            m = gauss.Model.from_xml_path(xml)
        except Exception:  # a model this build cannot load is left out of both files
            continue
        if smooth:
            m.opt.disableflags |= gauss.DSBL_CONTACT
        d = gauss.Data(m)
        if m.nkey:
            gauss.reset_data_keyframe(m, d, 0)
        if m.nu:
            u = np.random.default_rng(0).uniform(-1, 1, m.nu)
            lo, hi = np.asarray(m.actuator_ctrlrange).T
            limited = np.asarray(m.actuator_ctrllimited) > 0
            d.ctrl[:] = np.where(limited, lo + (hi - lo) * (u + 1) / 2, u)
        gauss.step(m, d, steps)
        key = os.path.relpath(xml, ROOT)
        states[key] = np.concatenate([np.asarray(d.qpos), np.asarray(d.qvel)])
        if smooth:
            for f in FIELDS:
                if hasattr(d, f) and np.asarray(getattr(d, f)).size:
                    states[key + ":" + f] = np.array(getattr(d, f), dtype=float).ravel()
    np.savez(path, **states)


def compare(before, after):
    a, b = np.load(before), np.load(after)
    ndiff = 0
    for k in a.files:
        if k not in b.files:
            print("%-50s missing in %s" % (k, after))
            ndiff += 1
        elif not np.array_equal(a[k], b[k]):
            print("%-50s largest difference %.3g" % (k, np.max(np.abs(a[k] - b[k]))))
            ndiff += 1
    print("%d models, %d differ" % (len(a.files), ndiff))
    return ndiff


if __name__ == "__main__":
    if len(sys.argv) in (3, 4) and sys.argv[1] == "write":
        write(sys.argv[2], smooth=sys.argv[3:] == ["smooth"])
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        sys.exit(1 if compare(sys.argv[2], sys.argv[3]) else 0)
    else:
        sys.exit(__doc__)
