"""Rounding spread of the tests that assert a measured rate of agreement or a count.

A rate measured on one processor may not hold to the last case on another: where a case lies on a
tie that the last bit decides (an exactly aligned pose, a point on a border, an iteration whose
improvement lies within rounding of the tolerance), the outcome follows rounding, and rounding
is not the same everywhere. The inputs themselves come from numpy (np.linalg.norm goes through the
BLAS dot, whose kernel OpenBLAS picks per processor; numpy's sin and cos may dispatch on the
instruction set too), and the engines' calls into the C library's maths may take other paths.

So each such test measures its rate again on inputs jittered by a few ulps (every coordinate
multiplied by 1 + k eps, k a whole number drawn from [-ULPS, ULPS], a new seed per jitter; exact
zeros stay zero, arrays equal by construction stay equal, and quaternions are normalized again,
as the code that made them normalized them), prints the nominal value and the jittered minimum
and maximum, and asserts that the nominal value and every jittered one clear a threshold. Each
threshold was set from 100 jitters (GAUSS_JITTERS=100) on the processor named in its test: the
smallest jittered count less the spread of all the counts, nominal included, and at least one
case below it (another processor behaves like one more jitter). Counts that must stay small are
bounded the same way from above. Where the jitters take too long to run with the test, they were
measured once and are written down in it (recorded()). Tests that assert agreement on every case
classify ties instead: a case that disagrees but agrees at some jitter of it is a tie, counted
apart (test_collision_pairs.compare_or_tie).
"""

import os

import numpy as np

EPS = np.finfo(float).eps
ULPS = 4
# jitters per test; more (GAUSS_JITTERS=100) to measure a spread again
NJITTER = int(os.environ.get("GAUSS_JITTERS", "10"))


def scale(x, rng, ulps=ULPS):
    """x with every element multiplied by 1 + k eps, k uniform in [-ulps, ulps]"""
    x = np.asarray(x, float)
    return x * (1 + rng.integers(-ulps, ulps + 1, size=x.shape) * EPS)


def rngs(tag, n=NJITTER):
    """n generators, one per jitter, seeded from the test's tag"""
    base = sum((i + 1) * ord(c) for i, c in enumerate(tag))
    return [np.random.default_rng([base, j]) for j in range(n)]


def quat(q, rng, ulps=ULPS):
    """a unit quaternion jittered and normalized again, as the code that made it normalized it:
    unit to rounding, as on any processor (MuJoCo does not normalize a quaternion within 1e-15 of
    unit length, and a few ulps off unit length would be a pose no processor makes)"""
    q = scale(q, rng, ulps)
    return q / np.linalg.norm(q)


def poses(pose_list, rng, ulps=ULPS):
    """jittered copies of pose tuples (pos, quat, pos, quat); arrays equal within one pose stay
    equal (an exact alignment, coincident centres), as they are on any processor"""
    out = []
    for pose in pose_list:
        new = []
        for i, a in enumerate(pose):
            same = next((j for j in range(i) if np.array_equal(pose[j], a)), None)
            if same is not None:
                new.append(new[same].copy())
            else:
                new.append(quat(a, rng, ulps) if len(a) == 4 else scale(a, rng, ulps))
        out.append(tuple(new))
    return out


# every line printed by spread() and recorded(), for the summary at the end of the run (conftest.py)
LINES = []


def _say(line):
    LINES.append(line)
    print("\n" + line)


def _report(tag, nominal, low, high, how, asserted, at_least, at_most, total):
    """print the nominal value and the jittered minimum and maximum (`how`: how they were got);
    assert that every value in `asserted` is >= at_least and <= at_most (where given)"""
    of = f"/{total}" if total is not None else ""
    _say(f"[jitter] {tag}: nominal {nominal}{of}, {how}: min {low}{of}, max {high}{of}"
         + (f"; asserted >= {at_least}" if at_least is not None else "")
         + (f"; asserted <= {at_most}" if at_most is not None else ""))
    if at_least is not None:
        assert min(asserted) >= at_least, f"{tag}: {asserted} (nominal first), threshold {at_least}"
    if at_most is not None:
        assert max(asserted) <= at_most, f"{tag}: {asserted} (nominal first), bound {at_most}"


def spread(tag, nominal, jittered, at_least=None, at_most=None, total=None):
    """print the nominal value and the jittered minimum and maximum; assert that every one of them
    is >= at_least and <= at_most (where given)"""
    values = [nominal] + list(jittered)
    _report(tag, nominal, min(jittered), max(jittered), f"{len(jittered)} jitters of {ULPS} ulps",
            values, at_least, at_most, total)
    return values


def qpos(m, q, rng, ulps=ULPS):
    """a jittered joint configuration of model m (MuJoCo's or gauss's): the quaternions of free and
    ball joints normalized again, as a rollout leaves them"""
    q = scale(q, rng, ulps)
    for j in range(len(m.jnt_type)):
        if m.jnt_type[j] in (0, 1):  # free, ball
            a = m.jnt_qposadr[j] + (3 if m.jnt_type[j] == 0 else 0)
            q[a:a + 4] /= np.linalg.norm(q[a:a + 4])
    return q


def recorded(tag, nominal, low, high, njitter, at_least=None, at_most=None, total=None):
    """spread() for a test whose jitters take too long to run with it: low and high are the
    jittered minimum and maximum measured (njitter jitters) and written down in the test; only the
    nominal value is asserted"""
    _report(tag, nominal, low, high,
            f"{njitter} jitters of {ULPS} ulps (measured once, recorded in the test)", [nominal],
            at_least, at_most, total)
