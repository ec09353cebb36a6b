"""MJCF's rules for the mass and inertia of moving bodies, case by case against MuJoCo 3.3.7.

Each hand-written model is loaded by both engines: gauss must refuse exactly the models MuJoCo
refuses, and where both load, the bodies' compiled mass, inertia and inertial frames must agree.
The rules, as measured on MuJoCo 3.3.7 (tools/inertia_rules_sweep.py runs random models of the
same elements through both engines):

- A body with joints, or one of the bodies welded to it (its descendants reached without crossing
  a joint), must by itself have a mass and all three principal moments of at least mjMINVAL
  (1e-15): masses spread over welded bodies do not add up, a jointed child does not count. The
  test comes after boundmass, boundinertia and balanceinertia and before settotalmass.
- A geom's mass counts only above 1e-14, and a given mass only on a volume above 1e-14.
- A body with neither geoms nor <inertial> has its inertial frame at its own pose (as a body
  whose geoms give no mass).
- settotalmass divides by at least mjMINVAL: a massless model is scaled up hugely.
- A fullinertia's eigenvalues, and those of each sum fusestatic makes of a body and a child,
  must be positive: the last one the eigen-solver gives must be at least 1e-14 (moments within
  1e-12 of each other are left unsorted, so "0 1e-14 1e-14" passes and "0 1 1" does not).
- fusestatic adds a child to a massless parent as to any other (its inertia, if any, too).
"""

import mujoco
import numpy as np
import pytest

import gauss

H = '<joint type="hinge"/>'
S = '<joint type="slide"/>'
B = '<joint type="ball"/>'
F = '<freejoint/>'


def I(m, a, b, c, pos="0 0 0"):
    return f'<inertial pos="{pos}" mass="{m}" diaginertia="{a} {b} {c}"/>'


FULL = I(1, 1, 1, 1)
POINT = I(1, 0, 0, 0)
ZERO = I(0, 0, 0, 0)


def model(body, compiler=""):
    return f"<mujoco><compiler {compiler}/><worldbody>\n{body}</worldbody></mujoco>"


def mujoco_loads(xml):
    try:
        return mujoco.MjModel.from_xml_string(xml)
    except ValueError:
        return None


def gauss_loads(xml):
    try:
        return gauss.Model.from_xml_string(xml), ""
    except gauss.GaussError as e:
        return None, str(e)


def quat_err(a, b):
    return min(np.abs(a - b).max(), np.abs(a + b).max())


def check(xml):
    """both engines load xml or both refuse it; where both load, the same inertial arrays"""
    mm = mujoco_loads(xml)
    gm, err = gauss_loads(xml)
    assert (gm is not None) == (mm is not None), (xml, err)
    if mm is None:
        return err
    assert gm.nbody == mm.nbody
    np.testing.assert_allclose(gm.body_mass, mm.body_mass, rtol=1e-14, atol=0)
    np.testing.assert_allclose(gm.body_inertia, mm.body_inertia, rtol=1e-12, atol=0)
    np.testing.assert_allclose(gm.body_ipos, mm.body_ipos, rtol=0, atol=1e-14)
    for b in range(mm.nbody):
        assert quat_err(np.asarray(gm.body_iquat[b]), mm.body_iquat[b]) < 1e-12, b
    return ""


JOINTS = [H, S, B, F]
SOLO = [  # one moving body's own inertial: (inertial, loads)
    (I(1, 0, 0, 0), False),           # zero inertia
    (I(0, 1, 1, 1), False),           # zero mass
    ("", False),                       # nothing at all
    (I(1, 1e-16, 1e-16, 1e-16), False),
    (I(1e-16, 1, 1, 1), False),
    (I(1, 1e-15, 1e-15, 1e-15), True),  # the bound itself passes
    (I(1e-15, 1, 1, 1), True),
    (I(1, 1e-14, 1e-14, 1e-14), True),
    (I(1, 0, 1, 1), False),            # one moment zero, even about a hinge's own axis
    (I(1, 1, 1, 0), False),
    (I(1, 0, 0, 0, pos="1 0 0"), False),  # a point mass off the joint axis
]


@pytest.mark.parametrize("joint", JOINTS)
@pytest.mark.parametrize("case", range(len(SOLO)))
def test_one_moving_body(joint, case):
    inertial, loads = SOLO[case]
    xml = model(f'<body name="b">{joint}{inertial}</body>')
    err = check(xml)
    assert (err == "") == loads
    if not loads:  # names the file, the line and the body
        assert err.startswith("<string>:2: body 'b':") and "moving bodies" in err, err


WELDED = [  # a jointed body and what is welded to it: (body, loads)
    (f'<body>{H}{ZERO}<body>{FULL}</body></body>', True),
    (f'<body>{H}{POINT}<body pos="1 0 0">{FULL}</body></body>', True),
    (f'<body>{H}{ZERO}<body>{ZERO}<body>{FULL}</body></body></body>', True),  # grandchild
    (f'<body>{H}{ZERO}<body>{ZERO}</body><body>{FULL}</body></body>', True),  # second child
    (f'<body>{F}{ZERO}<body><geom size=".1"/></body></body>', True),
    (f'<body>{H}{ZERO}<body>{POINT}</body></body>', False),
    (f'<body>{H}{ZERO}<body pos="1 0 0">{POINT}</body><body pos="0 1 0">{POINT}</body></body>', False),
    (f'<body>{H}{I(0, 1, 1, 1)}<body>{POINT}</body></body>', False),  # mass here, inertia there
    (f'<body>{H}{ZERO}<body>{H}{FULL}</body></body>', False),  # a jointed child does not count
    (f'<body>{H}{ZERO}<body>{ZERO}<body>{H}{FULL}</body></body></body>', False),
    (f'<body>{H}{ZERO}<body>{I(1, 1e-16, 1e-16, 1e-16)}</body></body>', False),
    (f'<body>{H}{FULL}<body>{H}{ZERO}<body>{FULL}</body></body></body>', True),
    (f'<body>{ZERO}<body>{H}{ZERO}<body>{FULL}</body></body></body>', True),
]


@pytest.mark.parametrize("case", range(len(WELDED)))
def test_welded_children(case):
    body, loads = WELDED[case]
    assert (check(model(body)) == "") == loads


def test_the_first_refused_body_is_named():
    xml = model(f'<body name="a">{H}{FULL}\n<body name="b">{H}{ZERO}</body>\n'
                f'<body name="c">{H}{ZERO}</body></body>')
    err = check(xml)
    assert err.startswith("<string>:3: body 'b':"), err


SETTINGS = [  # compiler settings that bound, balance or scale: (compiler, body, loads)
    ("boundmass='1e-15'", f'<body>{H}{I(0, 1, 1, 1)}</body>', True),
    ("boundinertia='1e-15'", f'<body>{H}{I(1, 0, 0, 0)}</body>', True),
    ("boundinertia='1e-16'", f'<body>{H}{I(1, 0, 0, 0)}</body>', False),
    ("boundmass='1' boundinertia='1'", f'<body>{H}</body>', True),
    ("boundinertia='1e-10'", f'<body>{H}<body pos="1 0 0">{POINT}</body></body>', True),
    ("balanceinertia='true'", f'<body>{H}{I(1, 0, 0, 1)}</body>', True),  # balanced to 1/3
    ("balanceinertia='true'", f'<body>{H}{I(1, 0, 1, 1)}</body>', False),  # already balanced
    # settotalmass scales after the test: 1e-16 is refused, 1e-14 scaled to 1e-17 is not
    ("settotalmass='1000'", f'<body>{H}{I(1e-16, 1, 1, 1)}</body><body>{FULL}</body>', False),
    ("settotalmass='1e-3'", f'<body>{H}{I(1e-14, 1, 1, 1)}</body><body>{FULL}</body>', True),
    ("inertiafromgeom='false'", f'<body>{H}<geom size=".1"/></body>', False),
    ("inertiafromgeom='true'", f'<body>{H}{ZERO}<geom size=".1"/></body>', True),
    ("", f'<body>{H}<geom size=".1" density="0"/></body>', False),
    ("", f'<body>{H}<site/></body>', False),
]


@pytest.mark.parametrize("case", range(len(SETTINGS)))
def test_compiler_settings(case):
    compiler, body, loads = SETTINGS[case]
    assert (check(model(body, compiler)) == "") == loads


GEOMS = [  # geom masses near the thresholds: (compiler, body, loads)
    ("", f'<body>{H}<geom size="1" mass="1e-14"/></body>', False),  # not counted
    ("", f'<body>{H}<geom size="1" mass="1.1e-14"/></body>', True),
    ("", f'<body>{H}<geom size="1e-5" mass="1"/></body>', False),  # volume 4.2e-15: not counted
    ("", f'<body>{H}<geom size="1e-4" mass="1"/></body>', True),
    ("boundinertia='1'", f'<body>{H}<geom size="1" density="2e-15"/></body>', False),  # 8.4e-15
    ("boundinertia='1'", f'<body>{H}<geom size="1" density="3e-15"/></body>', True),
    ("boundinertia='1e-15'", f'<body>{H}<geom size="1e-5"/></body>', True),  # density: any volume
    # a geom that does not count leaves the inertial frame: the other geom's, or the body's pose
    ("", f'<body>{H}<geom size="1"/><geom pos="1 0 0" size="1e-5" mass="1"/></body>', True),
    ("", f'<body>{H}<geom size="1" mass="1"/><geom pos="1 0 0" size="1" mass="1e-14"/></body>', True),
    ("boundmass='1' boundinertia='1'",
     f'<body>{H}<geom pos="1 0 0" size="1e-5" mass="1"/><geom pos="0 1 0" size="1e-5" mass="1"/></body>', True),
    ("boundmass='1' boundinertia='1'", f'<body>{H}<geom pos="1 0 0" type="box" size="1 1 1.25e-15" mass="1"/></body>', True),
    ("boundmass='1' boundinertia='1'", f'<body>{H}<geom pos="1 0 0" type="box" size="1 1 1.25e-15" density="1e20"/></body>', True),
]


@pytest.mark.parametrize("case", range(len(GEOMS)))
def test_geom_mass_thresholds(case):
    compiler, body, loads = GEOMS[case]
    assert (check(model(body, compiler)) == "") == loads


def test_massless_frames_and_total_mass():
    """inertial frames of bodies without mass (xipos shows them) and settotalmass on a model
    of no mass"""
    for compiler in ("", "inertiafromgeom='false'", "inertiafromgeom='true'"):
        check(model('<body pos="1 2 3" euler="0 0 30"><geom size="1"/><body pos="0 1 0" euler="10 0 0"/></body>',
                    compiler))
    check(model(f'<body><geom size=".1" mass="1e-16"/></body>',
                "inertiafromgeom='false' boundinertia='1e-15' settotalmass='1e3'"))
    check(model(f'<body>{I(0, 0, 1e-16, 1)}</body>', "balanceinertia='true' settotalmass='1e3'"))
    check(model(f'<body>{F}{I(1e-16, 1, 1, 1)}</body>', "boundmass='1e-15' settotalmass='1e3'"))


def full(m, v):
    return f'<inertial pos="0 0 0" mass="{m}" fullinertia="{v}"/>'


@pytest.mark.parametrize("values,loads", [
    ("1 1 0 0 0 0", False), ("0 1 1 0 0 0", False), ("1 1 1e-15 0 0 0", False),
    ("0 1e-14 1e-14 0 0 0", True), ("1e-14 0 1e-14 0 0 0", True), ("1e-14 1e-14 0 0 0 0", False),
    ("1e-13 1e-13 1e-13 0 0 0", True), ("1 1 2 1 0 0", False),
])
def test_fullinertia_eigenvalues(values, loads):
    """MJCF tests a fullinertia's last eigenvalue (static bodies included)"""
    err = check(model(f'<body name="f">{full(1, values)}</body>'))
    assert (err == "") == loads
    if not loads:
        assert err.startswith("<string>:2: body 'f':") and "eigenvalues" in err, err


FUSED = [  # fusestatic: (body, loads)
    (f'<body>{H}{ZERO}<body pos="0.3 0.1 0" quat="1 0.3 0 0">'
     f'<inertial pos="0.1 0.2 0.3" quat="1 0.2 0.3 0.4" mass="1" diaginertia="1 2 2.5"/></body></body>', True),
    (f'<body>{H}{I(0, 1, 1, 1)}<body pos="0.3 0.1 0">'
     f'<inertial pos="0.1 0.2 0.3" quat="1 0.2 0.3 0.4" mass="1" diaginertia="1 2 2.5"/></body></body>', True),
    (f'<body>{H}<body pos="0.3 0.1 0" quat="1 0.3 0 0"><geom type="box" size=".1 .2 .3" pos=".1 0 0"/></body></body>', True),
    (f'<body>{H}{ZERO}<body>{POINT}</body></body>', False),
    (f'<body>{H}{POINT}<body pos="1 0 0">{POINT}</body></body>', False),
    (f'<body>{H}{ZERO}<body>{I(1, 1e-15, 1e-15, 1e-15)}</body></body>', False),  # fused sum < 1e-14
    (f'<body>{H}{ZERO}<body>{I(1, 1e-14, 1e-14, 1e-14)}</body></body>', True),
    (f'<body>{F}<body pos="1 0 0">{I(1, 0, 1e-14, 1e-14)}</body></body>', False),  # moving rule
    (f'<body>{F}<body pos="1 0 0">{I(1, 0, 1e-14, 1e-14)}<body pos="0 1 0">{FULL}</body></body></body>', True),
    (f'<body>{F}<body pos="1 0 0">{I(1, 0, 1, 1)}<body pos="0 1 0">{FULL}</body></body></body>', False),
    (f'<body>{F}<body pos="1 0 0">{FULL}<body pos="0 1 0">{POINT}</body></body></body>', True),
    (f'<body>{H}{FULL}<body>{I(1e-16, 0, 0, 0)}</body></body>', True),  # too light to add
    (f'<body>{H}{ZERO}<body pos="1 0 0">{POINT}</body><body pos="0 1 0">{POINT}</body>'
     f'<body pos="0 0 1">{POINT}</body></body>', False),
]


@pytest.mark.parametrize("case", range(len(FUSED)))
def test_fusestatic_sums(case):
    body, loads = FUSED[case]
    assert (check(model(body, "fusestatic='true'")) == "") == loads


def test_fusestatic_with_settotalmass_and_bounds():
    """fused sums, then the moving-body rule, then settotalmass, as MJCF orders them"""
    assert check(model(f'<body>{H}{I(1, 1, 1e-16, 1)}</body>',
                       "fusestatic='true' boundinertia='1e-16' settotalmass='1e3'")) != ""
    assert check(model(f'<body>{H}<body pos="1 0 0">{I(1, 1, 1, 0.1)}</body></body>',
                       "fusestatic='true' boundmass='0.5' boundinertia='0.25' settotalmass='7.1'")) == ""
    assert check(model(f'<body>{H}{FULL}<body>{I(1, 1, 1, 5)}</body></body>',
                       "fusestatic='true' balanceinertia='true' discardvisual='true' settotalmass='3.3'")) == ""
