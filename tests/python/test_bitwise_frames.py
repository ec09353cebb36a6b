"""Frames equal to MuJoCo's to the last bit: the compiled frames of bodies, geoms and sites (from
every orientation form and fromto), and the kinematics at random states (body, joint, geom, site
and inertial frames). Contacts between exactly flush faces (a box resting on a box) follow the last
bit of the geoms' rotation matrices, so "close" is not enough here: every comparison is exact.

The inertial frame comes from the geoms' masses and inertias, written in MJCF's operation order:
body_mass, body_ipos, body_inertia and body_iquat are exact on every corpus body (the body tensor
summed from its lower triangle, gs_eig3 following MJCF's iteration, half-angle rounding, tie rule,
stopping point and unrenormalized sorting exchanges), and so are xipos and ximat; the corpus-wide
counts are asserted in test_inertial_counts."""

import mujoco
import numpy as np
import pytest

import gauss
import oracle

NSTATE = 10

COMPILED = ["body_pos", "body_quat", "geom_pos", "geom_quat", "site_pos", "site_quat", "jnt_pos",
            "jnt_axis", "qpos0", "body_sameframe", "geom_sameframe", "site_sameframe"]
FRAMES = ["xpos", "xquat", "xmat", "xanchor", "xaxis", "geom_xpos", "geom_xmat", "site_xpos",
          "site_xmat"]


def _rows_equal(a, b):
    """Per row, whether the two arrays hold the same doubles (bit for bit, up to the sign of 0)."""
    a = np.asarray(a)
    a = a.reshape(a.shape[0], int(np.prod(a.shape[1:])))
    b = np.asarray(b).reshape(a.shape)
    return np.all(a == b, axis=1)


def _models(xml):
    return mujoco.MjModel.from_xml_string(xml), gauss.Model.from_xml_string(xml)


def test_compiled_frames_bitwise(corpus_model):
    model_id, path = corpus_model
    xml, _ = oracle.prepare_xml(path)
    mjm, gm = _models(xml)
    bad = []
    for f in COMPILED:
        eq = _rows_equal(getattr(mjm, f), getattr(gm, f))
        if not eq.all():
            bad.append(f"{f}: rows {np.flatnonzero(~eq).tolist()} differ")
    assert not bad, f"{model_id}: " + "; ".join(bad)


def test_kinematics_bitwise(corpus_model):
    model_id, path = corpus_model
    xml, _ = oracle.prepare_xml(path)
    mjm, gm = _models(xml)
    mjd, gd = mujoco.MjData(mjm), gauss.Data(gm)
    rng = np.random.default_rng(7)
    # the inertial frame is exact where the compiled one is (see the module's note)
    same_inertial = _rows_equal(mjm.body_ipos, gm.body_ipos) & _rows_equal(mjm.body_iquat, gm.body_iquat)
    bad, inertial = [], [0, 0]
    for k in range(NSTATE):
        qpos, _ = oracle.random_state(mjm, rng)
        # unit quaternions off by a few bits of norm, as integration leaves them
        qpos = qpos * (1 + 4e-16 * rng.standard_normal(mjm.nq))
        mjd.qpos[:] = qpos
        gd.qpos[:] = qpos
        if mjm.nmocap:
            mpos = rng.normal(size=(mjm.nmocap, 3))
            mquat = rng.normal(size=(mjm.nmocap, 4))  # not unit: both engines normalise
            mjd.mocap_pos[:], gd.mocap_pos[:] = mpos, mpos
            mjd.mocap_quat[:], gd.mocap_quat[:] = mquat, mquat
        mujoco.mj_kinematics(mjm, mjd)
        gauss.forward(gm, gd)
        for f in FRAMES:
            eq = _rows_equal(getattr(mjd, f), getattr(gd, f))
            if not eq.all():
                bad.append(f"state {k} {f}: rows {np.flatnonzero(~eq).tolist()}")
        eq = _rows_equal(mjd.xipos, gd.xipos)
        if not eq.all():
            bad.append(f"state {k} xipos: rows {np.flatnonzero(~eq).tolist()}")
        for f in ("ximat",):
            eq = _rows_equal(getattr(mjd, f), getattr(gd, f))
            if not eq[same_inertial].all():
                bad.append(f"state {k} {f}: rows {np.flatnonzero(~eq & same_inertial).tolist()} "
                           "differ with an exact inertial frame")
            inertial[0] += int(eq.sum())
            inertial[1] += eq.size
    print(f"\n[{model_id}] ximat bit-equal on {inertial[0]}/{inertial[1]} rows")
    assert not bad, f"{model_id}: " + "; ".join(bad[:10])


def test_inertial_counts():
    """Body masses, centres of mass, principal moments and principal axes bit-equal on every body
    of the corpus (284 bodies)."""
    total, equal = 0, {f: 0 for f in ("body_mass", "body_ipos", "body_inertia", "body_iquat")}
    for model_id, path in oracle.corpus_models():
        xml, _ = oracle.prepare_xml(path)
        mjm, gm = _models(xml)
        total += mjm.nbody
        for f in equal:
            equal[f] += int(_rows_equal(getattr(mjm, f), getattr(gm, f)).sum())
    print(f"\nof {total} bodies bit-equal: {equal}")
    assert equal["body_mass"] == total and equal["body_ipos"] == total, equal
    assert total >= 284, total
    assert equal["body_inertia"] == total and equal["body_iquat"] == total, equal


# ---- each orientation form, on random values ----

def _fmt(v):
    return " ".join(repr(float(x)) for x in v)


FORMS = {
    "quat": lambda rng: f'quat="{_fmt(rng.normal(size=4))}"',
    "axisangle": lambda rng: f'axisangle="{_fmt(rng.normal(size=3))} {float(rng.normal() * 90)!r}"',
    "euler": lambda rng: f'euler="{_fmt(np.round(rng.normal(size=3) * 90))}"',
    "xyaxes": lambda rng: f'xyaxes="{_fmt(rng.normal(size=6))}"',
    "zaxis": lambda rng: f'zaxis="{_fmt(np.round(rng.normal(size=3), 1))}"',
}


@pytest.mark.parametrize("form", sorted(FORMS))
def test_orientation_forms_bitwise(form):
    """Bodies, geoms and sites given by each form (degrees, so the conversion counts too), and
    capsules and boxes given by fromto, compile to MuJoCo's quaternions exactly."""
    rng = np.random.default_rng(11)
    make = FORMS[form]
    for i in range(60):
        ft = _fmt(np.round(rng.normal(size=6), 2))
        xml = f"""<mujoco><compiler angle="degree"/><worldbody>
          <body {make(rng)}><joint/>
            <geom type="capsule" size="0.1 0.2" {make(rng)}/>
            <geom type="box" size="0.1 0.1 0.1" fromto="{ft}"/>
            <site type="capsule" size="0.1 0.2" {make(rng)}/>
          </body></worldbody></mujoco>"""
        mjm, gm = _models(xml)
        for f in ("body_quat", "geom_quat", "geom_pos", "geom_size", "site_quat"):
            assert _rows_equal(getattr(mjm, f), getattr(gm, f)).all(), f"{form} #{i}: {f}\n{xml}"


def test_zaxis_opposite_and_in_plane():
    """zaxis straight down (a half turn, whose cosine MuJoCo leaves at cos(pi/2), not 0) and zaxis in
    the xy plane (a norm within 1e-15 of 1 kept as it is)."""
    for z in ("0 0 -1", "0 0 -3", "0.2 0.2 0", "-1.2 1.9 0", "1 -1 -0"):
        xml = f'<mujoco><worldbody><body zaxis="{z}"><geom size="1"/></body></worldbody></mujoco>'
        mjm, gm = _models(xml)
        assert np.array_equal(mjm.body_quat, gm.body_quat), z


def test_sameframe_tolerance():
    """A geom within 1e-6 of the body frame takes the body's frame as it is, as in MuJoCo: its
    world matrix is the body's even though its quaternion is not exactly the identity."""
    xml = """<mujoco><worldbody><body euler="10 20 30"><joint type="ball"/>
      <geom size="0.1" quat="1 9e-7 0 0" pos="5e-7 0 0"/>
      <geom size="0.1" quat="1 2e-6 0 0"/>
      <geom size="0.1" pos="0.3 0 0"/>
    </body></worldbody></mujoco>"""
    mjm, gm = _models(xml)
    np.testing.assert_array_equal(gm.geom_sameframe, mjm.geom_sameframe)
    np.testing.assert_array_equal(gm.geom_sameframe, [1, 0, 3])
    mjd, gd = mujoco.MjData(mjm), gauss.Data(gm)
    q = np.array([0.3, -0.5, 0.7, 0.1])
    mjd.qpos[:] = gd.qpos[:] = q / np.linalg.norm(q)
    mujoco.mj_kinematics(mjm, mjd)
    gauss.forward(gm, gd)
    np.testing.assert_array_equal(gd.geom_xmat[0], gd.xmat[1])
    np.testing.assert_array_equal(gd.geom_xpos[0], gd.xpos[1])
    for f in ("geom_xpos", "geom_xmat"):
        np.testing.assert_array_equal(getattr(gd, f), getattr(mjd, f))


def test_capsule_moments_bitwise():
    """A lone capsule's principal moments (mass given or from density) equal MuJoCo's to the bit over
    random radii and lengths: the mass split between cylinder and hemispheres and both moments."""
    rng = np.random.default_rng(11)
    bad = []
    for k in range(200):
        r, half = (float(v) for v in rng.uniform(0.01, 2, 2))
        mass, density = float(rng.uniform(0.1, 10)), float(rng.uniform(1, 3000))
        attr = f'mass="{mass!r}"' if k % 2 else f'density="{density!r}"'
        xml = (f'<mujoco><worldbody><body><freejoint/>'
               f'<geom type="capsule" size="{r!r} {half!r}" {attr}/></body></worldbody></mujoco>')
        mjm, gm = _models(xml)
        if not np.array_equal(np.asarray(gm.body_inertia).reshape(-1, 3)[1], mjm.body_inertia[1]):
            bad.append((r, half, attr))
    assert not bad, f"{len(bad)} of 200 capsules differ, e.g. {bad[:3]}"


@pytest.mark.parametrize("order", [(4, 5, 6), (4, 6, 5), (5, 4, 6), (5, 6, 4), (6, 4, 5), (6, 5, 4)])
def test_sorted_principal_frame_bitwise(order):
    """Principal moments given out of order are sorted by quarter turns; MuJoCo's compiled frame keeps
    the norm those rounded turns leave (0.5000000000000007, not 0.5), from a fullinertia and from a
    box geom alike."""
    a, b, c = order
    full = (f'<mujoco><worldbody><body><freejoint/><inertial pos="0 0 0" mass="1" '
            f'fullinertia="{a} {b} {c} 0 0 0"/></body></worldbody></mujoco>')
    # a box whose principal moments about x, y, z are a, b, c (mass 1), plus a tiny sphere so the
    # body's frame comes from the eigen-decomposition rather than the single geom's own frame
    half = " ".join(repr(float(np.sqrt(1.5 * v))) for v in (-a + b + c, a - b + c, a + b - c))
    box = (f'<mujoco><worldbody><body><freejoint/><geom type="box" size="{half}" mass="1"/>'
           '<geom type="sphere" size=".001" mass="1e-9"/></body></worldbody></mujoco>')
    for xml in (full, box):
        mjm, gm = _models(xml)
        np.testing.assert_array_equal(np.asarray(gm.body_iquat).reshape(-1, 4)[1], mjm.body_iquat[1])
        np.testing.assert_array_equal(np.asarray(gm.body_inertia).reshape(-1, 3)[1], mjm.body_inertia[1])


def _box_body(rng, ngeom, rotated):
    geoms = ""
    for _ in range(ngeom):
        q = rng.normal(size=4) if rotated else np.array([1.0, 0, 0, 0])
        geoms += (f'<geom type="box" size="{_fmt(rng.uniform(0.05, 0.5, 3))}" quat="{_fmt(q)}" '
                  f'pos="{_fmt(rng.uniform(-1, 1, 3))}" mass="{float(rng.uniform(0.1, 5))!r}"/>')
    return f'<mujoco><worldbody><body><freejoint/>{geoms}</body></worldbody></mujoco>'


@pytest.mark.parametrize("rotated", [False, True])
def test_box_body_principal_frame_bitwise(rotated):
    """Bodies of two or three boxes at random offsets, axis-aligned or rotated at random: the tensor
    (rotated inertias and parallel-axis terms, off-diagonal ones included) and its Jacobi
    decomposition give MuJoCo's principal moments and axes to the bit."""
    rng = np.random.default_rng(21 + rotated)
    bad = []
    for k in range(150):
        xml = _box_body(rng, 2 + k % 2, rotated)
        mjm, gm = _models(xml)
        for f, n in (("body_inertia", 3), ("body_iquat", 4)):
            if not np.array_equal(np.asarray(getattr(gm, f)).reshape(-1, n)[1], getattr(mjm, f)[1]):
                bad.append((k, f))
    assert not bad, f"{len(bad)} differ, e.g. {bad[:4]}"


@pytest.mark.parametrize("signs", [(1, 1, 1), (-1, -1, -1), (1, -1, 1), (-1, 1, -1)])
def test_equal_offdiagonal_principal_frame_bitwise(signs):
    """A body whose tensor has three off-diagonal terms of equal magnitude (a capsule along a cube
    diagonal with a sphere on its axis, as in an arm): the Jacobi step picks the same pair as
    MuJoCo's on the tie, so the axes in the degenerate plane are MuJoCo's to the bit."""
    sx, sy, sz = signs
    tip = f"{0.18 * sx!r} {0.18 * sy!r} {0.18 * sz!r}"
    xml = ('<mujoco><worldbody><body><freejoint/>'
           f'<geom type="capsule" fromto="0.01 0.01 0.01 {0.17 * sx!r} {0.17 * sy!r} {0.17 * sz!r}" '
           f'size="0.031"/><geom type="sphere" pos="{tip}" size="0.04"/></body></worldbody></mujoco>')
    mjm, gm = _models(xml)
    np.testing.assert_array_equal(np.asarray(gm.body_inertia).reshape(-1, 3)[1], mjm.body_inertia[1])
    np.testing.assert_array_equal(np.asarray(gm.body_iquat).reshape(-1, 4)[1], mjm.body_iquat[1])


@pytest.mark.parametrize("orient", ['quat="1 0 0 0"', 'axisangle="0 0 1 30"', 'euler="0 0 1"',
                                    'xyaxes="1 0 0 0 1 0"', 'zaxis="0 0 1"'])
def test_fullinertia_with_orientation_rejected(orient):
    """A full inertia matrix already fixes its frame: MuJoCo rejects an orientation beside it, and so
    does gauss, naming the element, the attribute and the line."""
    xml = ('<mujoco><worldbody><body><freejoint/>\n'
           f'<inertial pos="0 0 0" mass="1" fullinertia="1 1 1 0 0 0" {orient}/>'
           '</body></worldbody></mujoco>')
    with pytest.raises(ValueError, match="cannot both be specified"):
        mujoco.MjModel.from_xml_string(xml)
    attr = orient.split("=")[0]
    with pytest.raises(Exception, match=rf":2: <inertial>: fullinertia and {attr} cannot both be given"):
        gauss.Model.from_xml_string(xml)
