"""The analytic narrow-phase functions against MuJoCo's contacts.

Each case is a two-geom scene: geom 0 on a mocap body (planes must be static), geom 1 on a body with
a free joint. MuJoCo places both geoms and finds the contacts; gauss's pair function is called
through ctypes on the very same geom poses (copied from MuJoCo's geom_xpos and geom_xmat), so the
comparison isolates the narrow phase. Contacts are compared as an unordered set: count, dist to
1e-6, position and normal to 1e-5. Where a pair function sets tangents (plane-capsule) they are
compared too; elsewhere the caller fills them.
"""

import ctypes

import numpy as np
import pytest

import gauss
import gauss._lib as _glib
import jitter

mujoco = pytest.importorskip("mujoco")

TOL_DIST, TOL_POS, TOL_NORMAL = 1e-6, 1e-5, 1e-5
MAXCONPAIR = 50


class Contact(ctypes.Structure):
    """gsContact, field for field."""
    _fields_ = [
        ("dist", ctypes.c_double), ("pos", ctypes.c_double * 3), ("frame", ctypes.c_double * 9),
        ("includemargin", ctypes.c_double), ("friction", ctypes.c_double * 5),
        ("solref", ctypes.c_double * 2), ("solreffriction", ctypes.c_double * 2),
        ("solimp", ctypes.c_double * 5), ("mu", ctypes.c_double), ("dim", ctypes.c_int),
        ("geom1", ctypes.c_int), ("geom2", ctypes.c_int), ("exclude", ctypes.c_int),
        ("efc_address", ctypes.c_int)]


# the analytic pair functions (src/collision/table.c sends each pair of types to its own)
FUNCS = {
    ("plane", "sphere"): "gs_collidePlaneSphere",
    ("plane", "capsule"): "gs_collidePlaneCapsule",
    ("plane", "ellipsoid"): "gs_collidePlaneEllipsoid",
    ("plane", "cylinder"): "gs_collidePlaneCylinder",
    ("plane", "box"): "gs_collidePlaneBox",
    ("sphere", "sphere"): "gs_collideSphereSphere",
    ("sphere", "capsule"): "gs_collideSphereCapsule",
    ("sphere", "cylinder"): "gs_collideSphereCylinder",
    ("sphere", "box"): "gs_collideSphereBox",
    ("capsule", "capsule"): "gs_collideCapsuleCapsule",
    ("capsule", "box"): "gs_collideCapsuleBox",
    ("box", "box"): "gs_collideBoxBox",
}
# pairs whose function also sets the contact tangents (frame[3:9])
SETS_TANGENTS = {("plane", "capsule")}
# the most contacts each function makes
MAXCON = {
    ("plane", "sphere"): 1, ("plane", "capsule"): 2, ("plane", "ellipsoid"): 1,
    ("plane", "cylinder"): 4, ("plane", "box"): 4, ("sphere", "sphere"): 1,
    ("sphere", "capsule"): 1, ("sphere", "cylinder"): 1, ("sphere", "box"): 1,
    ("capsule", "capsule"): 2, ("capsule", "box"): 2, ("box", "box"): 9,
}

SIZES = {
    "plane": "0 0 1", "sphere": "0.3", "capsule": "0.2 0.4", "ellipsoid": "0.2 0.3 0.4",
    "cylinder": "0.25 0.35", "box": "0.3 0.2 0.4",
}
# a radius bounding each geom above, to spread the random poses around contact
RBOUND = {"plane": 0.0, "sphere": 0.3, "capsule": 0.6, "ellipsoid": 0.4, "cylinder": 0.43,
          "box": 0.54}


def _xml(t1, t2, s1, s2, margin):
    return f"""<mujoco><option gravity="0 0 0"/><worldbody>
      <body mocap="true"><geom type="{t1}" size="{s1}" margin="{margin}"/></body>
      <body><freejoint/><geom type="{t2}" size="{s2}" margin="{margin}"/></body>
    </worldbody></mujoco>"""


def _static_xml(t1, t2, s1, s2):
    return f"""<mujoco><worldbody><geom type="{t1}" size="{s1}"/><geom type="{t2}" size="{s2}"/>
    </worldbody></mujoco>"""


class Scene:
    def __init__(self, t1, t2, margin=0.0, s1=None, s2=None):
        self.key = (t1, t2)
        xml = _xml(t1, t2, s1 or SIZES[t1], s2 or SIZES[t2], margin)
        self.margin = margin
        self.mjm = mujoco.MjModel.from_xml_string(xml)
        self.mjd = mujoco.MjData(self.mjm)
        # gauss gets the same two geoms in the world body (it does not accept a plane on a mocap
        # body); only their types and sizes matter, the poses are copied from MuJoCo
        self.gm = gauss.Model.from_xml_string(_static_xml(t1, t2, s1 or SIZES[t1], s2 or SIZES[t2]))
        self.gd = gauss.Data(self.gm)
        # the pair's function (FUNCS) through the public narrow phase of one pair, which calls
        # the table's function for the two types in this order (test_pairs.c calls them directly)
        self.fn = _glib.lib["gs_collideGeoms"]  # its own function object: argtypes not shared
        self.fn.restype = ctypes.c_int
        self.fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
                            ctypes.c_double, ctypes.POINTER(Contact), ctypes.c_int]
        self.buf = (Contact * MAXCONPAIR)()

    def place(self, p1, q1, p2, q2):
        d = self.mjd
        d.mocap_pos[0], d.mocap_quat[0] = p1, q1
        d.qpos[:] = np.r_[p2, q2]
        mujoco.mj_forward(self.mjm, d)
        self.gd.geom_xpos[:] = d.geom_xpos
        self.gd.geom_xmat[:] = d.geom_xmat.reshape(self.gd.geom_xmat.shape)

    def mujoco_contacts(self):
        d = self.mjd
        out = []
        for c in d.contact[:d.ncon]:
            assert (c.geom1, c.geom2) == (0, 1)
            out.append((c.dist, np.array(c.pos), np.array(c.frame)))
        return out

    def gauss_contacts(self):
        n = self.fn(self.gm._ptr, self.gd._ptr, 0, 1, self.margin, self.buf, MAXCONPAIR)
        assert 0 <= n <= MAXCON[self.key]
        return [(c.dist, np.array(c.pos), np.array(c.frame)) for c in self.buf[:n]]


def _err(a, b, tangents):
    e = [abs(a[0] - b[0]), np.abs(a[1] - b[1]).max(), np.abs(a[2][:3] - b[2][:3]).max()]
    if tangents:
        e[2] = max(e[2], np.abs(a[2][3:] - b[2][3:]).max())
    return e


def compare(scene, where=""):
    """Match gauss's contacts to MuJoCo's as an unordered set; returns the largest errors."""
    ref, got = scene.mujoco_contacts(), scene.gauss_contacts()
    if len(got) > len(ref) and scene.key[0] != "plane":
        # MuJoCo's broad phase (sweep and prune, in single precision) drops pairs whose
        # surfaces are within ~1e-8 of the margin apart before its pair function sees them;
        # such contacts of gauss's pair function have no counterpart to compare with
        got = [c for c in got if abs(c[0] - scene.margin) > 1e-7]
    assert len(got) == len(ref), f"{scene.key} {where}: {len(got)} contacts, MuJoCo {len(ref)}\n" \
        f"gauss {[(c[0], c[1]) for c in got]}\nmujoco {[(c[0], c[1]) for c in ref]}"
    tangents = scene.key in SETS_TANGENTS
    worst = np.zeros(3)
    left = list(range(len(got)))
    for r in ref:
        errs = [_err(got[i], r, tangents) for i in left]
        scores = [e[0] / TOL_DIST + e[1] / TOL_POS + e[2] / TOL_NORMAL for e in errs]
        k = int(np.argmin(scores))
        e = errs[k]
        assert e[0] <= TOL_DIST and e[1] <= TOL_POS and e[2] <= TOL_NORMAL, \
            f"{scene.key} {where}: errors {e} for MuJoCo contact {r} vs gauss {got[left[k]]}"
        worst = np.maximum(worst, e)
        left.pop(k)
    for c in got:
        assert np.isclose(np.linalg.norm(c[2][:3]), 1.0, atol=1e-12)
    return worst, len(ref)


def compare_or_tie(scene, pose, where, ties):
    """compare() on a pose; a pose that disagrees is tried again at jittered copies (a few ulps,
    see jitter.py), and if one of them agrees, the pose lies on a tie of some rule (a contact at
    the margin to the last bit, a centre at equal depths from two faces, an exact alignment) that
    rounding decides, and rounding is not the same on every processor: the pose then counts as a
    tie (appended to ties with the disagreement) instead of failing. Returns compare()'s result on
    the pose or on the jittered copy that agrees."""
    scene.place(*pose)
    try:
        return compare(scene, where)
    except AssertionError as e:
        first = str(e).split("\n")[0]
        for rng in jitter.rngs(where):
            scene.place(*jitter.poses([pose], rng)[0])
            try:
                res = compare(scene, where)
            except AssertionError:
                continue
            ties.append(first)
            return res
        raise


# ties allowed to the tests that assert agreement on every pose (random and hand-placed): the
# nominal poses have none here, and over 100 jitters of 4 ulps of their poses (AMD EPYC, AVX2,
# FMA) at most 4 poses of a run disagreed (hand-placed sphere-box: a centre at equal depths from
# two opposite faces of a box turned by 90 degrees; at margin 0.1 sphere-capsule and
# plane-ellipsoid, 1: a contact at the margin to the last bit), none on the random poses; the
# bound is that count plus its spread
MAX_TIES = 8


def _rand_quat(rng):
    q = rng.normal(size=4)
    return q / np.linalg.norm(q)


ID = np.array([1.0, 0, 0, 0])


def _axis_quat(axis, angle):
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    return np.r_[np.cos(angle / 2), np.sin(angle / 2) * axis]


def random_poses(key, rng, n):
    """n poses spread from deep penetration to beyond the margin, plus exact alignments."""
    t1, t2 = key
    reach = RBOUND[t1] + RBOUND[t2]
    poses = []
    for i in range(n):
        p1 = rng.uniform(-0.2, 0.2, 3)
        q1 = _rand_quat(rng)
        if i % 5 == 4:  # an axis-aligned relative rotation, exactly
            q2 = q1.copy()
        else:
            q2 = _rand_quat(rng)
        if t1 == "plane":
            mat = np.zeros(9)
            mujoco.mju_quat2Mat(mat, q1)
            nrm = mat.reshape(3, 3)[:, 2]
            p2 = p1 + nrm * rng.uniform(-0.5, 1.2) * max(RBOUND[t2], 0.1) \
                + rng.uniform(-1, 1, 3)
            p2 -= nrm * (nrm @ (p2 - p1)) - nrm * rng.uniform(-0.6, 1.1) * RBOUND[t2]
        else:
            dirn = rng.normal(size=3)
            dirn /= np.linalg.norm(dirn)
            p2 = p1 + dirn * reach * rng.uniform(0.0, 1.2)
        poses.append((p1, q1, p2, q2))
    return poses


PAIRS = list(FUNCS)
DONE = [k for k in PAIRS if k not in {("capsule", "box"), ("box", "box")}]


@pytest.mark.parametrize("key", DONE, ids=["-".join(k) for k in DONE])
@pytest.mark.parametrize("margin", [0.0, 0.1])
def test_random_poses(key, margin):
    rng = np.random.default_rng([PAIRS.index(key), int(margin * 10)])
    scene = Scene(*key, margin=margin)
    worst, total, ties = np.zeros(3), 0, []
    for i, pose in enumerate(random_poses(key, rng, 150)):
        w, n = compare_or_tie(scene, pose, f"pose {i}", ties)
        worst, total = np.maximum(worst, w), total + n
    assert total > 0
    print(f"\n{key} margin {margin}: {total} contacts, max errors dist/pos/normal {worst}, "
          f"{len(ties)} ties\n" + "\n".join(ties))
    assert len(ties) <= MAX_TIES


def _special_poses(key, margin):
    """Hand-placed poses: coincident centres, exact axis alignments, touching, penetrating,
    within the margin (0.1) and separated, along and across the axes."""
    t1, t2 = key
    q90x = _axis_quat([1, 0, 0], np.pi / 2)
    q90y = _axis_quat([0, 1, 0], np.pi / 2)
    q45 = _axis_quat([1, 1, 0], np.pi / 4)
    quats = [ID, q90x, q90y, q45]
    poses = []
    if t1 == "plane":
        tilted = _axis_quat([1, -2, 0.5], 0.7)
        for qp in (ID, tilted):
            mat = np.zeros(9)
            mujoco.mju_quat2Mat(mat, qp)
            nrm = mat.reshape(3, 3)[:, 2]
            for q2 in quats + [qp]:
                for h in (-0.8, -0.1, 0.0, 0.05, 0.2, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.65):
                    poses.append((np.zeros(3), qp, nrm * h + [0.3, -0.2, 0], q2))
        return poses
    reach = RBOUND[t1] + RBOUND[t2]
    for q2 in quats:
        for q1 in (ID, q45):
            poses.append((np.zeros(3), q1, np.zeros(3), q2))  # coincident centres
            for dirn in ([1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [1, 1, 1], [0.3, 0, 1]):
                dirn = np.array(dirn, float) / np.linalg.norm(dirn)
                for f in (0.05, 0.3, 0.5, 0.7, 0.85, 1.0, 1.1, 1.3):
                    poses.append((np.zeros(3), q1, dirn * reach * f, q2))
    # exactly touching along x, for the geoms whose extent along x is their first size
    s1 = float(SIZES[t1].split()[0])
    s2 = float(SIZES[t2].split()[0])
    for gap in (0.0, 0.05, 0.1, 0.15):
        poses.append((np.zeros(3), ID, np.array([s1 + s2 + gap, 0, 0]), ID))
    return poses


@pytest.mark.parametrize("key", DONE, ids=["-".join(k) for k in DONE])
@pytest.mark.parametrize("margin", [0.0, 0.1])
def test_special_poses(key, margin):
    scene = Scene(*key, margin=margin)
    total, ties = 0, []
    for i, pose in enumerate(_special_poses(key, margin)):
        total += compare_or_tie(scene, pose, f"special pose {i}: {pose}", ties)[1]
    assert total > 0
    print(f"\n{key} special margin {margin}: {total} contacts, {len(ties)} ties\n"
          + "\n".join(ties))
    assert len(ties) <= MAX_TIES


def test_box_on_plane_corners():
    # a box resting on the plane, sunk by 0.01: its 4 lower corners at depth 0.01
    scene = Scene("plane", "box")
    scene.place(np.zeros(3), ID, np.array([0.5, 0.5, 0.39]), ID)
    got = scene.gauss_contacts()
    assert len(got) == 4
    assert sorted((round(p[0], 9), round(p[1], 9)) for _, p, _ in got) == \
        [(0.2, 0.3), (0.2, 0.7), (0.8, 0.3), (0.8, 0.7)]
    for dist, pos, frame in got:
        assert dist == pytest.approx(-0.01, abs=1e-12) and pos[2] == pytest.approx(-0.005)
        assert list(frame[:3]) == [0, 0, 1]
    compare(scene)


# ---- capsule-box ---------------------------------------------------------------------------
# gs_collideCapsuleBox reproduces MuJoCo's rules as measured (see pair_capsule.c), ties included
# (candidates compared with MuJoCo's 1e-15 tolerance on squared distances, ends on the surface,
# segments parallel to an edge or to a face), but not yet in every case: some ends facing an edge
# or corner (repeated or not), exact alignments where MuJoCo's choice follows the sign of rounding
# noise, and a sphere centre inside the box at depths from two faces equal but for rounding
# (MuJoCo's rounding, not a tie rule: exact ties go to the first axis). So the random and
# hand-placed poses below assert the measured rate of exact agreement (count, dist to 1e-6, pos
# and normal to 1e-5, on the very same poses). The hand-placed configurations after them must
# agree exactly, but for ties (compare_or_tie).
#
# The rates are not portable to the last pose: the poses come from numpy (np.linalg.norm goes
# through the BLAS, whose kernel is chosen per processor; np.cos and np.sin may be too), and on the
# exact alignments and borders above one ulp of a pose decides the outcome (the same 400 random
# poses agreed on 399/400 at margin 0.1 where the rate was first measured, 398/400 on another
# processor). So each rate test measures its rate again on jitter.NJITTER copies of its poses
# jittered by a few ulps (see jitter.py), prints the nominal rate and the jittered minimum and
# maximum, and asserts that each of them clears a threshold set from 200 jitters measured on an
# AMD EPYC (AVX2, FMA; two sets of 100 seeds, one of them the test's own with GAUSS_JITTERS=100): the smallest jittered count less the spread of all the counts (nominal
# included), so that another processor, which behaves like one more jitter, stays above it.

def _agreement(scene, poses):
    ok, worst, total, failures = 0, np.zeros(3), 0, []
    for i, pose in enumerate(poses):
        scene.place(*pose)
        try:
            w, n = compare(scene, f"pose {i}")
        except AssertionError as e:
            failures.append(str(e).split("\n")[0])
            continue
        ok, worst, total = ok + 1, np.maximum(worst, w), total + n
    return ok, worst, total, failures


def _pose_index(failure):
    return int(failure.split("pose ")[1].split(":")[0])


def _jittered(scene, poses, tag, run):
    """run(scene, poses) on jitter.NJITTER jittered copies of the poses"""
    return [run(scene, jitter.poses(poses, rng)) for rng in jitter.rngs(tag)]


# measured agreement over 2000 poses of this generator (these 400 and 4 more seeds, on the first
# processor): 99.75 % (margin 0), 99.65 % (0.1), 99.5 % (0.3); at 0.3 more second points lie
# within the margin, so more of the exact alignments decided by rounding show (8 of the 10
# failures there).
# These 400 poses, nominal and over 200 jitters of 4 ulps (AMD EPYC): margin 0: 399, jittered
# 398-400 (spread 2: threshold 396); 0.1: 398, 396-400 (spread 4: 392); 0.3: 398, 393-400
# (spread 7: 386). The jittered disagreements are all exact alignments.
_CAPSULE_BOX_MIN = {0.0: 396, 0.1: 392, 0.3: 386}


@pytest.mark.parametrize("margin", [0.0, 0.1, 0.3])
def test_capsule_box_random_poses(margin):
    key = ("capsule", "box")
    rng = np.random.default_rng([PAIRS.index(key), int(margin * 10)])
    scene = Scene(*key, margin=margin)
    poses = random_poses(key, rng, 400)
    ok, worst, total, failures = _agreement(scene, poses)
    print(f"\ncapsule-box margin {margin}: {ok}/{len(poses)} poses agree, {total} contacts, "
          f"max errors dist/pos/normal {worst}\n" + "\n".join(failures))
    runs = _jittered(scene, poses, f"capsule-box random {margin}", _agreement)
    jitter.spread(f"capsule-box random poses agreeing, margin {margin}", ok, [r[0] for r in runs],
                  at_least=_CAPSULE_BOX_MIN[margin], total=len(poses))
    assert min([total] + [r[2] for r in runs]) > 100
    # the poses that are not exactly aligned disagree only for some ends facing an edge or
    # corner (measured: 4 of 4800 at the three margins, 0.08 %; none here, nor in 200 jitters of
    # these poses at each margin)
    unaligned = [sum(_pose_index(f) % 5 != 4 for f in fails) for fails in
                 [failures] + [r[3] for r in runs]]
    jitter.spread(f"capsule-box random poses not aligned that disagree, margin {margin}",
                  unaligned[0], unaligned[1:], at_most=1)


# measured: 394/396 at both margins; the other two (75 and 320) are a sphere centre inside the
# box at depths from two faces that are equal but for rounding: MuJoCo's own centre is ~1e-16
# deeper along x, so it takes the y face, while exact ties (constructed for every pair of faces,
# both signs) go to the first axis, as here. Over 200 jitters of 4 ulps (AMD EPYC): margin 0:
# 394, jittered 389-396 (spread 7: threshold 382); margin 0.1: 394, 385-396 (spread 11: 374): the
# hand-placed poses sit on ties by construction (exact alignments, touching, coincident centres)
_CAPSULE_BOX_SPECIAL_MIN = {0.0: 382, 0.1: 374}


@pytest.mark.parametrize("margin", [0.0, 0.1])
def test_capsule_box_special_poses(margin):
    key = ("capsule", "box")
    scene = Scene(*key, margin=margin)
    poses = _special_poses(key, margin)
    ok, worst, total, failures = _agreement(scene, poses)
    print(f"\ncapsule-box special margin {margin}: {ok}/{len(poses)} agree\n" + "\n".join(failures))
    runs = _jittered(scene, poses, f"capsule-box special {margin}", _agreement)
    jitter.spread(f"capsule-box hand-placed poses agreeing, margin {margin}", ok,
                  [r[0] for r in runs], at_least=_CAPSULE_BOX_SPECIAL_MIN[margin], total=len(poses))
    assert min([total] + [r[2] for r in runs]) > 100


# capsule axis along x: _axis_quat([0, 1, 0], np.pi / 2) to the bit as numpy gives it here, written
# out so that the poses below are the same on every processor (np.cos and np.sin need not be
# correctly rounded). Its two halves differ by one ulp, which tilts the axis off the x axis by
# ~1e-16, and which decides the outcome where the capsule lies parallel to a face: on the top face
# (on-face, test_capsule_on_box_face_closed_form) both engines make two contacts with this
# quaternion and one with equal halves (an axis exactly parallel), and over 40 jitters of 4 ulps
# MuJoCo's count follows the jitter on about half of them
_QY = np.array([0.7071067811865476, 0.0, 0.7071067811865475, 0.0])


@pytest.mark.parametrize("margin", [0.0, 0.1])
@pytest.mark.parametrize("case", [
    # lying on the top face (z = 0.4), centred, overhanging an edge, beyond the face, tilted a
    # little (the two ends at different depths), across an edge, an end inside the box, both
    # ends inside, crossing the box, above within the margin
    ([0, 0, 0.59], _QY), ([0.3, 0, 0.59], _QY), ([0.6, 0, 0.59], _QY),
    ([0, 0, 0.59], _axis_quat([0, 1, 0], np.pi / 2 + 0.01)),
    ([0.2, 0.1, 0.57], _axis_quat([0.3, 1, 0.1], 1.45)),
    ([0.45, 0.0, 0.5], _axis_quat([1, 1, 0], np.pi / 2)),
    ([0.35, 0.1, 0.1], _axis_quat([0, 1, 0], 1.2)),
    ([0.0, 0.0, 0.0], _axis_quat([1, 2, 3], 0.4)),
    ([0.05, 0.1, -0.05], _axis_quat([1, 0, 0.2], np.pi / 2)),
    ([0.1, -0.05, 0.65], _axis_quat([0.1, 1, 0], np.pi / 2)),
    # parallel to a side face and beyond both its borders, sunk by 0.02: along +x over the +y
    # face MuJoCo keeps one point, over the -y face two
    ([0, 0.38, 0.1], _QY), ([0, -0.38, 0.1], _QY),
    # nearly upright, the upper end facing the +x+y edge from beyond it: the second point
    # slides down the segment by the box's full height, to the lower end, within the margin
    # at 0.1 only
    ([0.404, 0.22, -0.198], _axis_quat([0.088, 0.996, 0], 3.096)),
    # an end facing a corner, the slide leaving the segment: followed inwards, the segment
    # comes back towards the x face plane (the end is repeated), or recedes from all three
    ([0.199, -0.641, -0.656], _axis_quat([-0.916, 0.4, 0], 1.196)),
    ([-0.408, -0.436, 0.848], _axis_quat([-0.937, 0.35, 0], 2.648)),
], ids=["on-face", "overhang", "beyond", "tilted", "tilted-skew", "across-edge", "end-inside",
        "inside", "crossing", "above", "parallel-pos", "parallel-neg", "end-edge-full-width",
        "end-corner-back", "end-corner-receding"])
def test_capsule_box_configurations(case, margin):
    scene = Scene("capsule", "box", margin=margin)
    ties = []
    pose = (np.array(case[0], float), case[1], np.zeros(3), ID)
    assert compare_or_tie(scene, pose, "configuration", ties)[1] > 0 or case[0][2] == 0.65
    print("\n".join([""] + [f"tie: {t}" for t in ties]))


def test_capsule_on_box_face_closed_form():
    # a capsule (radius 0.2, half-length 0.4) along x on the box's top face (half-width 0.3 in
    # x), sunk by 0.01: the two contacts are the segment's ends clipped to the face, x = +-0.3
    scene = Scene("capsule", "box")
    scene.place(np.array([0, 0, 0.59]), _QY, np.zeros(3), ID)
    got = scene.gauss_contacts()
    assert sorted(round(p[0], 12) for _, p, _ in got) == [-0.3, 0.3]
    for dist, pos, frame in got:
        assert dist == pytest.approx(-0.01, abs=1e-12) and pos[2] == pytest.approx(0.395)
        assert np.allclose(frame[:3], [0, 0, -1], atol=1e-15)
    compare(scene)


def _same_contacts_at(engines, pos):
    """the free body of both engines' models placed at pos: the same contacts in the same order
    (dist and position to 1e-9)"""
    import mujoco
    mm, md, gm, gd = engines
    for d in (md, gd):
        d.qpos[:3] = pos
    mujoco.mj_forward(mm, md)
    gauss.forward(gm, gd)
    theirs = [(con.dist, *con.pos) for con in md.contact[:md.ncon]]
    mine = [(gd.contact[i].dist, *np.asarray(gd.contact[i].pos)) for i in range(gd.ncon)]
    return len(theirs) == len(mine) and np.allclose(theirs, mine, rtol=0, atol=1e-9)


# capsules exactly along a box axis (rotations whose matrices are exact: 0/180 degrees about x,
# 120 degrees about the diagonals, no trigonometry), beside the box's edges and faces along that
# axis, at 10 places along it and 3 lengths (within the box's extent, covering a corner or both,
# beyond it; no end exactly at a corner): the axis's other two components are exactly zero,
# which MuJoCo does not treat as a tie: it follows its rules for rounding noise as if those
# zeros were negative, and a segment within an edge's extent starts at its end farther from the
# edge's middle (see pair_capsule.c). Measured: 3360 of 3360 poses equal (2728 before), and
# under jitters (see the test)
_EXACT_AXES = ["1 0 0 0", "0 1 0 0", "0.5 0.5 0.5 0.5", "0.5 -0.5 -0.5 -0.5", "0.5 0.5 -0.5 0.5",
               "0.5 -0.5 0.5 -0.5", "0.5 0.5 0.5 -0.5", "0.5 -0.5 -0.5 0.5"]


def _capsule_box_aligned_run(jitter_rng=None):
    """(poses agreeing, poses) over the aligned grid; with jitter_rng each position is jittered
    (the rotations stay exact, so the axes stay exactly aligned)"""
    import itertools
    import mujoco
    poses = agree = 0
    for quat, half in itertools.product(_EXACT_AXES, [0.03, 0.07, 0.26]):
        xml = (f'<mujoco><option><flag gravity="disable"/></option><worldbody><geom type="box" '
               f'size="0.1 0.1 0.1"/><body quat="{quat}"><freejoint/><geom type="capsule" '
               f'size="0.1 {half}"/></body></worldbody></mujoco>')
        mm, gm = mujoco.MjModel.from_xml_string(xml), gauss.Model.from_xml_string(xml)
        md, gd = mujoco.MjData(mm), gauss.Data(gm)
        mujoco.mj_forward(mm, md)
        axis = md.geom_xmat[1].reshape(3, 3)[:, 2]
        along = int(np.argmax(np.abs(axis)))
        assert sorted(np.abs(axis)) == [0, 0, 1]  # exactly along an axis
        across = [i for i in range(3) if i != along]
        for u, v, at in itertools.product([0.15, -0.15, 0.05, -0.02, 0], [0.14, -0.14, 0.06, 0],
                                          [-0.2, -0.15, -0.05, -0.02, 0, 0.02, 0.05, 0.15, 0.2, 0.25]):
            if abs(u) < 0.1 and abs(v) < 0.1:
                continue  # the axis inside the box
            pos = np.zeros(3)
            pos[across[0]], pos[across[1]], pos[along] = u, v, at
            if jitter_rng is not None:
                pos = jitter.scale(pos, jitter_rng)
            poses += 1
            agree += _same_contacts_at((mm, md, gm, gd), pos)
    return agree, poses


def test_capsule_box_exactly_aligned():
    agree, poses = _capsule_box_aligned_run()
    print(f"exactly aligned capsule-box poses: {agree}/{poses} agree")
    assert poses == 3360
    # Some of the grid's poses are ties of the geometry (a segment centred on the edge's middle,
    # its two ends equally far from it), which the last bits of the position decide. Jittered by
    # 4 ulps (the rotations stay exact, so the axes stay aligned): measured on an Intel Xeon,
    # nominal 3360, 100 jitters 3356 to 3360 (spread 4): asserted >= 3352, nominal included.
    runs = [_capsule_box_aligned_run(rng)[0] for rng in jitter.rngs("capsule-box exactly aligned")]
    jitter.spread("exactly aligned capsule-box poses agreeing", agree, runs, at_least=3352,
                  total=poses)


# ---- box-box -------------------------------------------------------------------------------
# gs_collideBoxBox (pair_box.c) follows MuJoCo's rules as measured: the separating-axis test picks
# the axis; on a face axis the contacts are the corners of the overlap of the incident face with
# the reference face, at the midpoints between surfaces, with half the corner's distance as dist
# (the full distance where the faces are exactly parallel and apart); on an edge axis the incident
# face of box 2 is projected along the axis onto the face of box 1 most aligned with it and the
# points of their overlap come with the full distance along the axis as dist (the edge-edge
# contact is one of these points; in deep penetration the others are the extra contacts MuJoCo
# reports). On an edge axis MuJoCo thins these points by 1 % tolerances on the contact position
# (the midpoint pm between the faces; s a half size, m the margin, "O" the in-plane axis of a face
# that is not one of the two edge axes), as measured by sweeping the margin and the depth on
# fixed poses (the switches fall on these expressions to 1e-9): a crossing on the incident edge
# farthest along the normal is left out where 1.01 |pm| > s + m on any axis of box 1 (the
# reference border it crosses, or as on random pose 88 box 1's edge axis; moving box 2 along x, y
# and z from pose 88, MuJoCo's switches and gauss's fall at the same offset to 1e-12) and
# |pm| > 1.01 (s + m) on an axis of box 1 or on an in-plane axis of box 2's incident face (so a
# crossing at box 1's corner within 1 % comes: test_box_box_side_by_side_on_floor, from the pile
# of bench/models/pile100.xml; 64 of 9000 random poses at margin 0 mended, none broken); a
# crossing on the deepest incident edge (0-1) where |pm| > 1.01 (s + m) on the reference face's O
# axis and 1.01 |pm| > s + m on an in-plane axis of box 2's incident face (random pose 90; 32 of
# 9000 random poses mended, none broken); the first reference corner inside where |pm| >
# 1.01 (s + m) on the reference face's O axis and 1.01 |pm| > s + m on an in-plane axis of box 2's
# incident face; an incident corner also where 1.01 |pm| > s + m on an in-plane axis of box 1's
# reference face and |pm| > 1.01 (s + m) on one of box 2's incident face, as on a face axis (the
# two mend 25 of 9000 random poses at margin 0 and break none); one on an incident edge across the edge axis (the two ends of the contact edge's
# face) where |pm| > 1.01 (s + m) on either face's O axis; an incident corner where
# |pm| > 1.01 (s + m) on the reference face's O axis. The incident corners are numbered with
# bit 0 on box 2's edge axis (0 on its positive side) and bit 1 on the other in-plane axis (0
# against the normal); the edges go 0-1, 0-2, 3-1, 3-2, and on one edge the crossings come by
# border (-u, +u, -v, +v of the reference face; -z, +z, -y, +y on an x face), as measured on the
# order of MuJoCo's contacts.
# The many 1 % rules above are one rule, on both kinds of axis (pair_box.c): a point is left
# out where its contact position lies out of one face's slab grown by 1 % on an in-plane axis of
# that face, |pm| > 1.01 (s + m), and out of the other face shrunk by 1 % on an in-plane axis of
# that face, 1.01 |pm| > s + m (tabulated on 1000 random poses at each of the margins 0, 0.003,
# 0.01, 0.03, 0.1, 0.3 against MuJoCo's choice of every candidate point: all agree but 6 of about
# 2000 far-edge crossings and reference corners of the corner choice below). A point on a face
# meets the shrunk test for any m < 1 % of the half size across that face, so at margin 0 the
# rules read as the grown test alone, and from m = 0.01 s on the point comes (bisecting the
# margin on random poses at margin 0.01: MuJoCo's switches fall at m = 0.01 s to 1e-16).
# The separating-axis test prefers a face axis unless an edge axis separates more by a relative
# 1e-12 of the face's separation (measured: the switch tilt of two near-parallel faces scales with
# the depth, not the sizes), so faces tilted by 1e-9 are an edge axis, as on MuJoCo.
# On a face axis where an in-plane axis of the incident face is perpendicular to the normal (to
# rounding), MuJoCo adds the incident face's deepest corner (corner 0 of pair_box.c's numbering,
# ties going to the negative side) even outside the reference face, when it touches or penetrates
# and the margin exceeds 1 % of the incident face's larger half size (two stacked boxes offset by
# (-0.35, -0.3), margin 0.1: 5 contacts; up to 9 with the top box turned about the normal).
# On a face axis MuJoCo also thins the clipped polygon by the incident face's tilt (measured by
# sweeping the tilt and the margin on fixed poses; the switches fall on the expressions below to
# 1e-12): an incident face tilted by more than 30 degrees about one in-plane axis (the other
# in-plane axis's component along the normal 1/2 or above, 1/2 to the bit included: hand-placed
# poses 248 and 249) gives only the points of its deepest edge (its two corners and the crossings
# on it), and tilted so about both only its deepest corner. An incident corner is left out where its contact
# position pm lies both out of the reference face shrunk by 1 % (1.01 |pm| > s + m on either
# in-plane axis of the reference face) and out of the incident box's slabs across the incident
# face grown by 1 % (|pm| > 1.01 (s + m)): a deep corner near the reference border, whose midpoint
# sinks out across the incident box's side (hand-placed pose 147 at margin 0, where it was the
# edge's other corner past 30 degrees; on 3 x 3000 random poses at margin 0, seeds 77, 5 and 9,
# it mends 15 poses and breaks none; the first test alone drops shallow corners MuJoCo keeps,
# corners of parallel faces, and the deepest corner on the border in dm_control's stacker).
# And it leaves out a crossing or a reference corner whose contact position (the midpoint pm
# between the faces) lies out of the incident box's slabs across the incident face grown by 1 %:
# |pm| > 1.01 (s + m) on either in-plane axis of the incident face, as on an edge axis (the
# incident corners are not tested so). Measured on every face-axis candidate of the poses below
# (the kept crossings and reference corners reach 1.0098 and 1.0042 of s + m) and by moving box 2
# along x, y and z from random poses 1 and 32 until the count changes: MuJoCo's switches and
# gauss's fall at the same offset to 1e-12. This rule replaced an earlier one (the crossings on
# the two edges away from the deepest corner only with a margin of 1 % of the reference face's
# half size), which it explains: those crossings lie beyond the incident face's border along n.
# Where it agrees, it agrees to rounding (errors ~1e-16). What differs is the count only:
#   - on an edge axis MuJoCo reports at most one reference corner: the first by number inside
#     the incident face whatever its depth (so one beyond the margin hides a deeper one; measured
#     by moving box 2 until the other corner leaves the face: the switch falls where it leaves),
#     kept where it is within the margin and |pm| <= 1.01 (s + m) on the incident face's O axis;
#     on some poses MuJoCo takes a later corner first (random pose 96 at margin 0: corner 3 over
#     corner 0; about 1.6 % of random edge-axis poses with a reference corner inside; ordering
#     rule not found: no sign of the axes against each other decides it);
#   - the margin threshold of the added corner drops a little below 1 % with a tilt about the
#     perpendicular axis (not reproduced);
#   - MuJoCo reports some points twice on a few hand-placed poses with the margin (3 of 396).
# Faces not parallel, apart within the margin, with the deepest incident corner outside the
# reference face give that corner with half its distance, at the midpoint, whatever the overlap
# gives besides (first found with an empty overlap: 10 of 9000 random poses at margin 0.1
# mended, none broken; then 9 of 1000 at margin 0.3, none broken at margins 0 to 0.1).
# Exactly parallel faces apart within the margin whose overlap is empty (offset diagonally: edge
# over edge, corner over corner) give, as measured, the crossings of the first border lines
# beyond the reference face and the incident corners beyond it, each where its distance to the
# reference rectangle is within the margin, with that distance as dist, at the midpoint between
# the point and the rectangle's nearest point (hand-placed poses 127 and 136, random pose 94;
# moving box 2 from pose 136 along -y, MuJoCo has one crossing more: not reproduced).
# The contacts come in MuJoCo's order as measured (edge crossings, then reference corners, then
# incident corners, each numbered as in pair_box.c; on one incident edge the crossings come by
# reference border, -u, +u, -v, +v, and -z, +z, -y, +y on an x face), which the corpus comparison
# checks. Points on the reference face's border to the last bit (coincident or flush faces, equal
# boxes side by side) follow MuJoCo's ties as measured on the hand-placed poses: the border belongs
# to the face on its negative side and not on its positive side, both for an incident edge
# crossing a border line (so an edge's end on the line can be a crossing) and for an incident
# corner inside the face; a reference corner must lie strictly inside the incident face; two
# crossings at the same point (an incident corner on a reference corner) come once. Where the
# faces are parallel only to rounding (1e-16 along the normal, hand-placed poses turned by 90
# degrees, aligned random poses) MuJoCo's corner numbering and so its order follow its own
# rounding. The deepest incident corner, where the incident face has an in-plane axis
# perpendicular to the normal, is a contact while it lies within the reference face grown to
# 1.01 (s + m), so one beyond the border by a bit comes twice, as a crossing and as a corner
# (dm_control stacker; test_box_box_deepest_corner_near_border). The corpus compares box-box
# contacts in order on every model; the random and hand-placed poses below assert the measured
# rate of exact agreement (as sets, and in order); the configurations after them must agree
# exactly.

# measured rates of exact agreement (poses without contacts in either engine included):
# random 199/200 (margin 0), 200/200 (margin 0.1); hand-placed 396/396 and 392/396
# (before the deepest edge's crossings on an edge axis: 198, 200, 396, 392; before the incident
# corners' test against both boxes: 198, 200, 395, 392; before the parallel faces without overlap: 198, 199, 395, 390; before the 30 degrees included: 198, 199, 394, 388; before the far incident edge's crossings were tested on every axis: 197, 199, 394, 388;
# before the face axis's 1 % slab of the incident box: 191, 199, 391, 388; before the edge axis's first reference corner: 184, 195, 389, 385; before the edge-axis tolerances: 164, 195, 379, 385; before the tilt rules: 144, 177, 342,
# 368; before the added corner: 144, 167, 342, 332; before edge axes were clipped like faces:
# 121, 114, 330, 307)
# margins 0.01 and 0.3: random 199/200 and 192/200 (before the one 1 % rule on both kinds of
# axis and corner 0 apart whatever the overlap: 197, 188; before the tests against the faces
# shrunk by 1 %, which at margin 0 always hold on the points they concern: 177, 188).
# At 0.01 the poses are those of margin 0 (the seed takes the margin's tenths), now with the
# margin. Left at 0.3: edge axes with the boxes apart where MuJoCo's points lie outside the
# overlap of the faces (poses 81, 157; rule not found), a face axis with a MuJoCo point more
# (89), a point more of gauss on parallel faces apart without overlap (144, 199).
# These rates are not portable to the last pose (see the capsule-box rates above): each test
# measures its rate again on jitter.NJITTER copies of its poses jittered by a few ulps, prints
# the nominal and the jittered minimum and maximum, and asserts thresholds set from 200 jitters of
# 4 ulps measured on an AMD EPYC (AVX2, FMA; two sets of 100 seeds): the smallest jittered count less the spread of all
# the counts (nominal included), and at least one pose below it; bounds on counts that must stay
# small likewise above the largest. Measured (nominal, jittered min-max: threshold):
#   random, agreeing (of 200): margin 0: 199, 199-199: 198; 0.01: 199, 198-199: 197;
#     0.1: 200, 199-200: 198; 0.3: 192, 192-192: 191
#   random, disagreeing other than in the count: margin 0: 1, 1-1: 2; 0.01: 1, 1-2: 3;
#     0.1: 0, 0-0: 1; 0.3: 3, 3-5: 7
#   hand-placed, agreeing (of 396): margin 0: 396, 388-395: 380; 0.1: 392, 371-388: 350
#   hand-placed, disagreeing other than in the count: margin 0: 0, 0-2: 4; 0.1: 1, 2-15: 29
#   in order: random margin 0: 199, 199-199: 198; 0.1: 194, 190-194: 186;
#     hand-placed margin 0: 383, 373-384: 362; 0.1: 376, 360-374: 344
# The hand-placed poses sit on ties by construction (faces parallel to rounding on the poses
# turned by 90 degrees, whose quaternion halves, np.cos and np.sin of pi/4, differ by one ulp;
# touching and coincident boxes), and the ties follow the jitter: there the nominal poses agree
# far better than the jittered ones (392 against 371-388 at margin 0.1), so another processor,
# whose np.cos or np.sin of pi/4 might differ by one ulp, could land anywhere in that range.
MIN_BOXBOX_RANDOM = {0.0: 198, 0.01: 197, 0.1: 198, 0.3: 191}
# disagreements other than in the count (measured): margins 0 and 0.01, pose 96 (see
# test_box_box_random_poses); margin 0.3, poses 77, 120, 123 (a point elsewhere, not studied)
OTHER_BOXBOX_RANDOM = {0.0: 2, 0.01: 3, 0.1: 1, 0.3: 7}
MIN_BOXBOX_SPECIAL = {0.0: 380, 0.1: 350}
OTHER_BOXBOX_SPECIAL = {0.0: 4, 0.1: 29}
# in MuJoCo's order as well: random 199/200 and 194/200, hand-placed 383/396 and 376/396
# (before the deepest edge's crossings on an edge axis: 198, 194, 383, 376; before the incident
# corners' test against both boxes: 198, 194, 382, 376; before the parallel faces without overlap: 198, 193, 382, 374; before the 30 degrees included: 198, 193, 381, 372; before the far edge's test on every axis: 197, 193, 381, 372; before the face axis's 1 % slab: 191, 193, 378, 372; before the edge axis's first reference corner: 184, 189, 376, 369; before the ties on the border and the face axis's crossings by border: 184, 186, 353, 344;
# before the edge-axis numbering: 157, 156, 338, 327; before the tilt rules: 137, 138, 301, 310;
# before the added corner and the ties of the corner numbering: 133, 123, 258, 262; in the
# clipping's order: 90, 78, 238, 210)
MIN_BOXBOX_ORDERED = {("random", 0.0): 198, ("random", 0.1): 186, ("special", 0.0): 362,
                      ("special", 0.1): 344}


def _same_in_order(scene):
    ref, got = scene.mujoco_contacts(), scene.gauss_contacts()
    return len(ref) == len(got) and all(
        abs(a[0] - b[0]) <= TOL_DIST and np.abs(a[1] - b[1]).max() <= TOL_POS
        and np.abs(a[2][:3] - b[2][:3]).max() <= TOL_NORMAL for a, b in zip(ref, got))


def _box_box_pass(scene, poses):
    """(poses agreeing as sets, disagreements other than in the count, contacts, poses agreeing
    in order, failures, largest errors where they agree)"""
    ok, worst, total, failures = _agreement(scene, poses)
    ordered = 0
    for pose in poses:
        scene.place(*pose)
        ordered += _same_in_order(scene)
    other = sum("contacts, MuJoCo" not in f for f in failures)
    return ok, other, total, ordered, failures, worst


_BOX_BOX_RUNS = {}


def _box_box_runs(kind, margin):
    """_box_box_pass on the random or hand-placed poses, nominal first, then jitter.NJITTER
    jittered copies (once per kind and margin: the order test reuses them)"""
    if (kind, margin) not in _BOX_BOX_RUNS:
        key = ("box", "box")
        scene = Scene(*key, margin=margin)
        if kind == "random":
            rng = np.random.default_rng([PAIRS.index(key), int(margin * 10)])
            poses = random_poses(key, rng, 200)
        else:
            poses = _special_poses(key, margin)
        runs = [_box_box_pass(scene, poses)]
        runs += _jittered(scene, poses, f"box-box {kind} {margin}", _box_box_pass)
        _BOX_BOX_RUNS[(kind, margin)] = (len(poses), runs)
    return _BOX_BOX_RUNS[(kind, margin)]



# boxes exactly aligned (box 2 unturned, turned by a half turn about x or by a third of a turn
# about a diagonal: rotations with exact matrices) at 100 random offsets each, two size pairs:
# the contacts in MuJoCo's order. Where an incident edge crosses both lines across the reference
# face's t2 or two reference corners lie inside, the order follows MJCF's frame of the reference
# face (see face_contacts), and which box gives the reference face on a tie to the bit is the
# box whose axis MuJoCo tests first (see gs_collideBoxBox); before, 1017 of 1200 poses in order.
# The separations are equal on paper, so the poses are also jittered by 4 ulps: measured on an
# Intel Xeon, nominal 1200 of 1200, 100 jitters 1200 to 1200 (spread 0): asserted >= 1199.
_ALIGNED_TURNS = ("1 0 0 0", "0 1 0 0", "0.5 0.5 0.5 0.5", "0.5 -0.5 -0.5 -0.5", "0.5 0.5 -0.5 0.5",
                  "0.5 -0.5 0.5 -0.5")


def _box_box_aligned_run(offsets):
    import mujoco
    agree = poses = 0
    cases = [(q, s) for q in _ALIGNED_TURNS
             for s in (("0.1 0.12 0.08", "0.07 0.09 0.11"), ("0.1 0.12 0.08", "0.1 0.12 0.08"))]
    for c, (quat, sizes) in enumerate(cases):
        xml = (f'<mujoco><option><flag gravity="disable"/></option><worldbody><geom type="box" '
               f'size="{sizes[0]}"/><body quat="{quat}"><freejoint/><geom type="box" '
               f'size="{sizes[1]}"/></body></worldbody></mujoco>')
        mm, gm = mujoco.MjModel.from_xml_string(xml), gauss.Model.from_xml_string(xml)
        md, gd = mujoco.MjData(mm), gauss.Data(gm)
        for pos in offsets[100 * c:100 * (c + 1)]:
            poses += 1
            agree += _same_contacts_at((mm, md, gm, gd), pos)
    return agree, poses


def test_box_box_exactly_aligned():
    offsets = np.random.default_rng(5).uniform(-0.25, 0.25, (1200, 3))
    agree, poses = _box_box_aligned_run(offsets)
    print(f"\nexactly aligned box-box poses in MuJoCo's order: {agree}/{poses}")
    runs = [_box_box_aligned_run(jitter.scale(offsets, rng))[0]
            for rng in jitter.rngs("box-box exactly aligned")]
    jitter.spread("exactly aligned box-box poses in MuJoCo's order", agree, runs, at_least=1199,
                  total=poses)
    assert poses == 1200

@pytest.mark.parametrize("margin", [0.0, 0.01, 0.1, 0.3])
def test_box_box_random_poses(margin):
    n, runs = _box_box_runs("random", margin)
    ok, other, total, _, failures, worst = runs[0]
    print(f"\nbox-box margin {margin}: {ok}/{n} poses agree, {total} contacts, "
          f"max errors dist/pos/normal {worst}\n" + "\n".join(failures))
    jitter.spread(f"box-box random poses agreeing, margin {margin}", ok, [r[0] for r in runs[1:]],
                  at_least=MIN_BOXBOX_RANDOM[margin], total=n)
    assert min(r[2] for r in runs) > 50
    # every disagreement is a count but those measured: at margins 0 and 0.01, pose 96, an edge
    # axis with two reference corners inside, where MuJoCo keeps corner 3 and gauss the first,
    # corner 0 (same count, one point elsewhere; see above); see OTHER_BOXBOX_RANDOM
    jitter.spread(f"box-box random poses disagreeing other than in the count, margin {margin}",
                  other, [r[1] for r in runs[1:]], at_most=OTHER_BOXBOX_RANDOM[margin])


@pytest.mark.parametrize("margin", [0.0, 0.1])
def test_box_box_special_poses(margin):
    n, runs = _box_box_runs("special", margin)
    ok, other, total, _, failures, _ = runs[0]
    print(f"\nbox-box special margin {margin}: {ok}/{n} agree\n" + "\n".join(failures))
    jitter.spread(f"box-box hand-placed poses agreeing, margin {margin}", ok,
                  [r[0] for r in runs[1:]], at_least=MIN_BOXBOX_SPECIAL[margin], total=n)
    assert min(r[2] for r in runs) > 50
    # every disagreement of the nominal poses is a count but one (measured): with the margin, an
    # incident y face parallel to the reference face, where MuJoCo adds a reference corner instead
    # of the incident corner that gauss adds (same count, one point elsewhere); the jittered poses
    # have more, on the faces parallel to rounding (see MIN_BOXBOX_RANDOM)
    jitter.spread(f"box-box hand-placed poses disagreeing other than in the count, margin {margin}",
                  other, [r[1] for r in runs[1:]], at_most=OTHER_BOXBOX_SPECIAL[margin])


@pytest.mark.parametrize("margin", [0.0, 0.1])
@pytest.mark.parametrize("kind", ["random", "special"])
def test_box_box_contact_order(kind, margin):
    # the same poses as above, compared in order (MuJoCo's contact list, entry by entry)
    n, runs = _box_box_runs(kind, margin)
    print(f"\nbox-box {kind} margin {margin}: {runs[0][3]}/{n} agree in order")
    jitter.spread(f"box-box {kind} poses agreeing in order, margin {margin}", runs[0][3],
                  [r[3] for r in runs[1:]], at_least=MIN_BOXBOX_ORDERED[(kind, margin)], total=n)


_Q45X = _axis_quat([1, 0, 0], np.pi / 4)
_R3 = np.sqrt(3.0)


def _qmul(a, b):
    r = np.zeros(4)
    mujoco.mju_mulQuat(r, a, b)
    return r


@pytest.mark.parametrize("margin", [0.0, 0.1])
@pytest.mark.parametrize("case", [
    # (size 1, size 2, pos 1, quat 1, pos 2, quat 2)
    ("0.3 0.2 0.4", "0.3 0.2 0.4", [0, 0, 0], ID, [0.02, -0.03, 0.85], ID),
    ("0.5 0.5 0.1", "0.2 0.3 0.1", [0, 0, 0], ID, [0.1, 0.05, 0.19], ID),
    ("0.5 0.5 0.1", "0.2 0.3 0.1", [0, 0, 0], ID, [0.1, 0.05, 0.19], _axis_quat([0, 0, 1], 0.3)),
    ("0.5 0.5 0.1", "0.2 0.3 0.1", [0, 0, 0], ID, [0.1, 0.05, 0.19],
     _axis_quat([0, 0.2, 1], 0.3)),
    ("0.3 0.3 0.1", "0.2 0.2 0.1", [0, 0, 0], ID, [0.4, 0.35, 0.19], _axis_quat([0, 0, 1], 0.4)),
    ("0.5 0.5 0.1", "0.2 0.2 0.2", [0, 0, 0], ID, [0.05, 0.1, 0.09 + 0.2 * np.sqrt(2)], _Q45X),
    ("0.5 0.5 0.1", "0.2 0.2 0.2", [0, 0, 0], ID, [0.05, 0.1, 0.09 + 0.2 * _R3],
     _qmul(_axis_quat([1, -1, 0], np.arctan(np.sqrt(2))), ID)),
    ("0.3 0.2 0.4", "0.3 0.2 0.4", [0, 0, 0], _Q45X, [0.05, 0.03, 0.84],
     _qmul(_axis_quat([0, 0, 1], np.pi / 2), _Q45X)),
    ("0.3 0.2 0.4", "0.3 0.2 0.4", [0, 0, 0], ID, [0, 0, 0], ID),
    # an edge axis in deep penetration: the edge-edge contact and three more (MuJoCo: 4)
    ("0.5 0.5 0.1", "0.2 0.2 0.2", [0, 0, 0], ID, [0.5, 0.1, 0.1], _axis_quat([1, 2, 0.3], 0.5)),
    # over a corner of the bigger box, parallel: with the margin 0.1 the incident face's corner
    # at its two negative coordinates, outside, is a contact too (MuJoCo: 5, and 4 without the
    # margin), also turned about the normal (7 and 6) or tilted about the incident face's x axis
    # only (5 and 4), but not tilted about both in-plane axes (4 and 4)
    ("0.5 0.5 0.1", "0.2 0.3 0.1", [0, 0, 0], ID, [-0.35, -0.3, 0.19], ID),
    ("0.5 0.5 0.1", "0.2 0.3 0.1", [0, 0, 0], ID, [-0.35, -0.3, 0.19], _axis_quat([0, 0, 1], 1)),
    ("0.5 0.5 0.1", "0.2 0.3 0.1", [0, 0, 0], ID, [-0.35, -0.3, 0.19], _axis_quat([1, 0, 0], -0.01)),
    ("0.5 0.5 0.1", "0.2 0.3 0.1", [0, 0, 0], ID, [-0.35, -0.3, 0.19], _axis_quat([1, 1, 0], 0.01)),
    # faces tilted by 1e-9: an edge axis, the full depth as dist (MuJoCo: 4 at -0.01)
    ("0.5 0.5 0.1", "0.2 0.3 0.1", [0, 0, 0], ID, [-0.35, -0.3, 0.19], _axis_quat([1, 1, 0], 1e-9)),
    # over the border, sunk by 0.15 and tilted about x by 0.3 rad: the whole clipped polygon
    # (MuJoCo: 4); tilted by 0.6 rad, past 30 degrees: only the deepest edge's corner and crossing
    # (MuJoCo: 2 of the 4)
    ("0.3 0.2 0.4", "0.3 0.2 0.4", [0, 0, 0], ID, [0.35, 0, 0.4 + 0.2 * np.sin(0.3) +
                                                   0.4 * np.cos(0.3) - 0.15],
     _axis_quat([1, 0, 0], 0.3)),
    ("0.3 0.2 0.4", "0.3 0.2 0.4", [0, 0, 0], ID, [0.35, 0, 0.4 + 0.2 * np.sin(0.6) +
                                                   0.4 * np.cos(0.6) - 0.15],
     _axis_quat([1, 0, 0], 0.6)),
], ids=["stacked-apart", "on-bigger", "on-bigger-turned", "on-bigger-tilted", "overhang",
        "edge-on-face", "corner-on-face", "crossed-edges", "coincident", "edge-deep",
        "corner-outside", "corner-outside-turned", "corner-outside-tilted", "tilted-both",
        "nearly-parallel", "tilted-below-30", "tilted-past-30"])
def test_box_box_configurations(case, margin):
    s1, s2, p1, q1, p2, q2 = case
    scene = Scene("box", "box", margin=margin, s1=s1, s2=s2)
    ties = []
    pose = (np.array(p1, float), q1, np.array(p2, float), q2)
    assert compare_or_tie(scene, pose, "configuration", ties)[1] > 0 or \
        (margin == 0 and p2[2] == 0.85)
    print("\n".join([""] + [f"tie: {t}" for t in ties]))


@pytest.mark.parametrize("sizes", [("0.3 0.2 0.4", "0.3 0.2 0.4"), ("0.2 0.3 0.1", "0.5 0.5 0.1")],
                         ids=["stacked", "bigger-on-smaller"])
def test_box_box_stacked(sizes):
    # two boxes stacked with parallel faces, sunk by 0.01 (no margin): MuJoCo's 4 contacts at the
    # corners of the overlap rectangle, dist -0.005 (half the overlap, as measured)
    s1, s2 = sizes
    scene = Scene("box", "box", s1=s1, s2=s2)
    h = float(s1.split()[2]) + float(s2.split()[2]) - 0.01
    scene.place(np.zeros(3), ID, np.array([0.02, -0.03, h]), ID)
    assert compare(scene)[1] == 4
    for dist, _, frame in scene.gauss_contacts():
        assert dist == pytest.approx(-0.005, abs=1e-12) and list(frame[:3]) == [0, 0, 1]


# dm_control stacker, state 37: two 0.022 cubes turned about the world y axis (their y axes
# along it, box 1's one bit longer than 1), box 2's face under box 1's x face; the geom frames
# as MuJoCo computes them, to the bit
_STACKER_POS1 = [float.fromhex(x) for x in (
    "0x1.87478b32ec193p-2", "0x0.0p+0", "0x1.5b98d30fdd9b0p-5")]
_STACKER_MAT1 = [float.fromhex(x) for x in (
    "-0x1.f27d5f73f62b9p-1", "0x0.0p+0", "0x1.d35de4ecb338dp-3",
    "-0x0.0p+0", "0x1.0000000000001p+0", "0x0.0p+0",
    "-0x1.d35de4ecb338dp-3", "-0x0.0p+0", "-0x1.f27d5f73f62b9p-1")]
_STACKER_POS2 = [float.fromhex(x) for x in (
    "0x1.5d6100b4c9f48p-2", "0x0.0p+0", "0x1.fc6ba59f50960p-6")]
_STACKER_MAT2 = [float.fromhex(x) for x in (
    "-0x1.1ed740869f8e9p-2", "-0x0.0p+0", "-0x1.eb809ba8c6594p-1",
    "0x0.0p+0", "0x1.0000000000000p+0", "-0x0.0p+0",
    "0x1.eb809ba8c6594p-1", "0x0.0p+0", "-0x1.1ed740869f8e9p-2")]


@pytest.mark.parametrize("margin", [0.0, 1e-4])
def test_box_box_deepest_corner_near_border(margin):
    # the incident face's deepest edge lies along the reference face's border (its y axis is
    # perpendicular to the normal); sliding box 1 along -y takes its deepest corner out of the
    # reference face. MuJoCo keeps that corner as a contact while it lies within the face grown to
    # 1.01 (s + m) (measured: the switch falls at 0.00022 beyond the border at margin 0 and at
    # 0.000321 at margin 1e-4), so a corner one bit beyond (the pose as is) comes twice, as a
    # crossing and as a corner: 5 contacts; slid along +y the far corner goes out and never comes.
    scene = Scene("box", "box", margin=margin, s1="0.022 0.022 0.022", s2="0.022 0.022 0.022")
    counts = {}
    s, d = 0.022, scene.mjd
    for dy in [0.0, -1e-17, -1e-12, -1e-6, -1e-4, -0.99 * (0.01 * s + 1.01 * margin),
               -1.01 * (0.01 * s + 1.01 * margin), -1e-3, 1e-17, 1e-6, 1e-4]:
        mujoco.mj_forward(scene.mjm, d)
        d.geom_xpos[0] = np.array(_STACKER_POS1) + [0, dy, 0]
        d.geom_xmat[0] = _STACKER_MAT1
        d.geom_xpos[1], d.geom_xmat[1] = _STACKER_POS2, _STACKER_MAT2
        mujoco.mj_collision(scene.mjm, d)
        scene.gd.geom_xpos[:] = d.geom_xpos
        scene.gd.geom_xmat[:] = d.geom_xmat.reshape(scene.gd.geom_xmat.shape)
        counts[dy] = compare(scene, f"dy {dy}")[1]
        assert _same_in_order(scene), f"dy {dy}"
    # the pose reaches both sides of the switch (MuJoCo's counts)
    assert counts[0.0] == 5 and counts[-1e-3] == 4 and counts[1e-6] == 4


# bench/models/pile100.xml at its stored state: two boxes side by side on the floor (geoms 9 and 69),
# their faces nearly parallel, on an edge axis (box 1's y axis across box 2's); the geom frames as
# MuJoCo computes them
_PILE_POS1 = [0.270021994, 0.209702564, 0.060040137]
_PILE_MAT1 = [0.5803937473079439, -0.0004838166194998661, 0.8143358422710628,
              -0.8143359342771879, 1.1569126489668902e-05, 0.5803938197560816,
              -0.00029022533021727526, -0.9999998828938101, -0.00038727461018281395]
_PILE_POS2 = [0.314074814, 0.119314571, 0.0499141472]
_PILE_MAT2 = [-0.000245781764749875, -0.815034735007407, -0.5794120470983756,
              5.382340129145291e-06, -0.579412065668935, 0.8150347588466937,
              -0.9999999697811769, 0.00019720208864942856, 0.00014679571417830495]


def test_box_box_side_by_side_on_floor():
    # the crossing on the incident edge farthest along the normal lies at the reference box's
    # corner, out of the box shrunk by 1 % but within it grown by 1 % and within the incident
    # box's slabs grown by 1 %: MuJoCo keeps it (2 contacts, the second 4e-8 deep)
    scene = Scene("box", "box", s1="0.0507051 0.0601039 0.0553067",
                  s2="0.0499776 0.0462035 0.0484325")
    d = scene.mjd
    mujoco.mj_forward(scene.mjm, d)
    d.geom_xpos[0], d.geom_xmat[0] = _PILE_POS1, _PILE_MAT1
    d.geom_xpos[1], d.geom_xmat[1] = _PILE_POS2, _PILE_MAT2
    mujoco.mj_collision(scene.mjm, d)
    scene.gd.geom_xpos[:] = d.geom_xpos
    scene.gd.geom_xmat[:] = d.geom_xmat.reshape(scene.gd.geom_xmat.shape)
    assert compare(scene)[1] == 2
    assert _same_in_order(scene)


@pytest.mark.parametrize("margin", [0.01, 0.1])
@pytest.mark.parametrize("small_first", [True, False])
def test_box_box_parallel_faces_apart_two_corners(small_first, margin):
    # parallel faces apart within the margin where two corners of one box lie inside the other
    # box's face (box 0.3 x 0.15 x 0.3 beside box 0.3 x 0.2 x 0.4 on their x faces, offset by 0.3
    # along z; the pair turned together at random): as measured on MuJoCo, only the first corner
    # of box 1 (by its own axes) inside the other face comes, whichever box gives the reference
    # face, so 3 contacts where box 1 is the small box (2 crossings, 1 corner) and 4 where box 2
    # is (all its corners inside come). Gaps of 0.1 to 0.9 margins and corners 0.05 inside the
    # face: no tie, so every pose and its jittered copies must agree.
    small, big = "0.3 0.15 0.3", "0.3 0.2 0.4"
    s1, s2 = (small, big) if small_first else (big, small)
    scene = Scene("box", "box", margin=margin, s1=s1, s2=s2)
    rng = np.random.default_rng([7, int(margin * 100), small_first])
    for i in range(12):
        q = rng.normal(size=4)
        q /= np.linalg.norm(q)
        mat = np.zeros(9)
        mujoco.mju_quat2Mat(mat, q)
        off = np.array([0.6 + margin * rng.uniform(0.1, 0.9), 0.0, 0.3]) * rng.choice([-1, 1], 3)
        pose = (np.zeros(3), q, mat.reshape(3, 3) @ off, q)
        for k, p in enumerate([pose] + jitter.poses([pose] * 2, rng)):
            scene.place(*p)
            assert compare(scene, f"pose {i}, jitter {k}")[1] == (3 if small_first else 4)


def _rect_xz(c, a, hx, hz):
    """corners (x, z) of a box's section by the xz plane: centre c, turned by a about y"""
    ux, uz = np.array([np.cos(a), -np.sin(a)]), np.array([np.sin(a), np.cos(a)])
    return [c + sx * hx * ux + sz * hz * uz for sx, sz in ((-1, -1), (1, -1), (1, 1), (-1, 1))]


def _polygon_gap(p, q):
    """distance between two disjoint convex polygons: the least corner-to-edge distance"""
    def seg(x, a, b):
        t = np.clip(np.dot(x - a, b - a) / np.dot(b - a, b - a), 0, 1)
        return np.linalg.norm(x - a - t * (b - a))
    return min(min(seg(x, r[k], r[(k + 1) % 4]) for x in o for k in range(4))
               for o, r in ((p, q), (q, p)))


def _overlap(p, q):
    """whether two convex polygons overlap: no separating axis among their edge normals"""
    for r in (p, q):
        for k in range(len(r)):
            e = r[(k + 1) % len(r)] - r[k]
            nrm = np.array([-e[1], e[0]])
            if max(np.dot(x, nrm) for x in p) < min(np.dot(x, nrm) for x in q) or \
                    max(np.dot(x, nrm) for x in q) < min(np.dot(x, nrm) for x in p):
                return False
    return True


def test_box_box_tilted_about_one_axis_apart():
    # planar boxes (turned about y only, as a dm_control stacker's), apart in the xz plane within
    # the margin 0.01 on a face axis: the incident face's y axis is perpendicular to the normal,
    # and MuJoCo then reports each point's full distance along the normal (not half of it, as
    # where the incident face is tilted about both axes) and adds no deepest corner outside the
    # reference face. The y sizes differ and box 2 is offset along y, so no border is flush
    # (flush y faces, as in the stacker itself, are a tie: MuJoCo's count moves with a 1e-15 y
    # offset). Gaps of 0.1 to 0.9 margins: every pose and its jittered copies must agree, and the
    # nearest contact's dist is the boxes' distance (that of their xz sections, closed form).
    margin = 0.01
    scene = Scene("box", "box", margin=margin, s1=".022 .022 .022", s2=".03 .015 .025")
    rng = np.random.default_rng(11)
    with_contacts = 0
    for i in range(12):
        a1, a2 = rng.uniform(-0.3, 0.3, 2)
        q1 = np.array([np.cos(a1 / 2), 0, np.sin(a1 / 2), 0])
        q2 = np.array([np.cos(a2 / 2), 0, np.sin(a2 / 2), 0])
        ang = rng.uniform(0, 2 * np.pi)
        d = np.array([np.cos(ang), np.sin(ang)])
        gap = margin * rng.uniform(0.1, 0.9)
        r1 = _rect_xz(np.zeros(2), a1, 0.022, 0.022)
        lo, hi = 0.0, 1.0  # centre distance for that gap
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            r2 = _rect_xz(d * mid, a2, 0.03, 0.025)
            lo, hi = (mid, hi) if _overlap(r1, r2) or _polygon_gap(r1, r2) < gap else (lo, mid)
        c2 = d * hi
        truth = _polygon_gap(r1, _rect_xz(c2, a2, 0.03, 0.025))
        pose = (np.zeros(3), q1, np.array([c2[0], rng.uniform(-0.005, 0.005), c2[1]]), q2)
        for k, p in enumerate([pose] + jitter.poses([pose] * 2, rng)):
            scene.place(*p)
            if compare(scene, f"pose {i}, jitter {k}")[1] == 0:
                continue  # the overlap of the faces along the normal is empty: none in both
            with_contacts += k == 0
            assert min(c[0] for c in scene.gauss_contacts()) == pytest.approx(truth, abs=1e-9)
    assert with_contacts >= 8


def test_box_on_bigger_box_closed_form():
    # a box (0.2 x 0.3 x 0.1 half sizes) flat on a bigger one (top face at z = 0.1), sunk by h:
    # 4 contacts at the corners of the smaller face, midway between the faces; MuJoCo reports half
    # the overlap as dist (measured), so dist = -h / 2
    h = 0.02
    scene = Scene("box", "box", s1="0.5 0.5 0.1", s2="0.2 0.3 0.1")
    scene.place(np.zeros(3), ID, np.array([0.1, 0.05, 0.2 - h]), ID)
    got = scene.gauss_contacts()
    assert sorted((round(p[0], 12), round(p[1], 12)) for _, p, _ in got) == \
        [(-0.1, -0.25), (-0.1, 0.35), (0.3, -0.25), (0.3, 0.35)]
    for dist, pos, frame in got:
        assert dist == pytest.approx(-h / 2, abs=1e-12) and pos[2] == pytest.approx(0.1 - h / 2)
        assert list(frame[:3]) == [0, 0, 1]
    compare(scene)
