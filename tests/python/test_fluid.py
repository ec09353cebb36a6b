"""Fluid forces (<option density viscosity wind>, geom fluidshape/fluidcoef): the inertia-box and
ellipsoid models against MuJoCo 3.3.7 (the `mujoco` package as an oracle) and against closed forms.

Tolerance "relative" here is max|gauss - ref| / max|ref| (not oracle.rel_err's max(1, ...)): fluid
forces in air are small numbers, and an absolute floor of 1 would hide any error in them.
"""

import numpy as np
import pytest

import gauss
import mujoco
import oracle

RNG_SEED = 12


def rel(a, b):
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    assert a.shape == b.shape
    scale = float(np.max(np.abs(b))) if b.size else 0.0
    return float(np.max(np.abs(a - b))) / scale if scale > 0 else float(np.max(np.abs(a), initial=0))


def pair(xml):
    mm = mujoco.MjModel.from_xml_string(xml)
    gm = gauss.Model.from_xml_string(xml)
    return mm, mujoco.MjData(mm), gm, gauss.Data(gm)


def set_state(mm, md, gd, rng, vscale=3.0):
    qpos, qvel = oracle.random_state(mm, rng)
    md.qpos[:] = qpos
    md.qvel[:] = vscale * qvel
    gd.qpos[:] = qpos
    gd.qvel[:] = vscale * qvel


def model(option, bodies, integrator="Euler"):
    return f"""<mujoco><option {option} integrator="{integrator}"><flag contact="disable"/></option>
    <worldbody>{bodies}</worldbody></mujoco>"""


# a free body, a ball joint and a hinge below it, geoms of every type, box model (fluidshape none)
BOX_TREE = """
<body pos="0 0 1"><freejoint/><geom type="box" size="0.1 0.2 0.3"/><geom type="sphere" size="0.1" pos="0.2 0 0"/>
  <body pos="0.4 0 0"><joint type="ball"/><geom type="capsule" size="0.05 0.2" euler="0 90 0"/>
    <body pos="0.4 0 0"><joint type="hinge" axis="0 1 1"/><geom type="cylinder" size="0.05 0.15" pos="0.1 0 0"/>
      <geom type="ellipsoid" size="0.05 0.1 0.15" pos="0.2 0.1 0"/></body></body></body>"""

ELLIPSOID_TREE = """
<body pos="0 0 1"><freejoint/>
  <geom type="sphere" size="0.1" fluidshape="ellipsoid"/>
  <geom type="capsule" size="0.1 0.2" pos="0.3 0 0" euler="10 20 30" fluidshape="ellipsoid" fluidcoef="0.1 0.2 0.3 0.4 0.5"/>
  <geom type="ellipsoid" size="0.1 0.2 0.3" pos="0 0.5 0" fluidshape="ellipsoid" fluidcoef="1 0.5"/>
  <geom type="cylinder" size="0.1 0.3" pos="0 -0.5 0" euler="30 0 60" fluidshape="ellipsoid"/>
  <geom type="box" size="0.1 0.3 0.2" pos="0 0 0.5" fluidshape="ellipsoid" fluidcoef="0.7 0.1 2 1.5 0.3"/>
  <body pos="0.5 0 0"><joint type="ball"/><geom type="box" size="0.1 0.2 0.05" fluidshape="ellipsoid"/>
    <body pos="0.5 0 0"><joint type="hinge" axis="0 1 1"/><geom type="capsule" size="0.05 0.2" euler="0 90 0" fluidshape="ellipsoid"/></body></body>
</body>"""

# bodies of both models in one tree: the middle body mixes a fluid ellipsoid with a plain geom (the
# plain geom then takes no part, and the body has no inertia box)
MIXED_TREE = """
<body pos="0 0 1"><freejoint/><geom type="box" size="0.1 0.2 0.3"/>
  <body pos="0.4 0 0"><joint type="ball"/><geom type="capsule" size="0.05 0.2" euler="0 90 0" fluidshape="ellipsoid"/>
    <geom type="sphere" size="0.08" pos="0.1 0 0"/>
    <body pos="0.4 0 0"><joint type="hinge" axis="1 0 0"/><geom type="box" size="0.2 0.05 0.01" pos="0.2 0 0"/></body></body></body>"""

OPTIONS = {
    "density": 'density="1000"',
    "viscosity": 'viscosity="0.5"',
    "both": 'density="1.2" viscosity="0.01"',
    "wind": 'density="1.2" viscosity="0.01" wind="3 -2 1"',
}
TREES = {"box": BOX_TREE, "ellipsoid": ELLIPSOID_TREE, "mixed": MIXED_TREE}


@pytest.mark.parametrize("tree", TREES)
def test_geom_fluid_compiled(tree):
    """geom_fluid (flag, coefficients, virtual mass and inertia from the compiler's quadrature)
    equals MuJoCo's for every geom type, default and partial fluidcoef."""
    mm, _, gm, _ = pair(model(OPTIONS["both"], TREES[tree]))
    assert gm.geom_fluid.shape == (mm.ngeom, mujoco.mjNFLUID)
    assert rel(gm.geom_fluid, mm.geom_fluid) < 1e-13
    assert (np.asarray(gm.geom_fluid)[:, 0] > 0).any() == (tree != "box")


def test_geom_fluid_defaults_and_fromto():
    """fluidshape/fluidcoef from default classes, overridden per geom; a fromto capsule; world geoms
    keep their coefficients (MJCF computes them) though the world feels no fluid."""
    xml = """<mujoco><option density="800" viscosity="0.2"/>
    <default><geom fluidshape="ellipsoid" fluidcoef="1 2 3"/>
      <default class="plain"><geom fluidshape="none"/></default></default>
    <worldbody><geom type="plane" size="1 1 0.1"/>
      <body><freejoint/><geom type="capsule" fromto="0 0 0 0.3 0.1 0.2" size="0.05"/>
        <geom class="plain" size="0.1" pos="0 0 0.3"/><geom size="0.1" fluidcoef="0.4" pos="0.3 0 0"/></body>
    </worldbody></mujoco>"""
    mm, md, gm, gd = pair(xml)
    assert rel(gm.geom_fluid, mm.geom_fluid) < 1e-13
    assert np.all(np.asarray(gm.geom_fluid)[2] == 0)
    set_state(mm, md, gd, np.random.default_rng(RNG_SEED))
    mujoco.mj_forward(mm, md)
    gauss.forward(gm, gd)
    assert rel(gd.qfrc_fluid, md.qfrc_fluid) < 1e-8
    assert not any("fluid" in w for w in gm.load_warnings)


def test_mesh_and_hfield_geoms():
    """A mesh geom's ellipsoid is its box of half-sizes (geom_size), a height field's too (in the
    world, where it feels nothing): geom_fluid and the forces equal MuJoCo's."""
    xml = """<mujoco><option density="1000" viscosity="0.1"/>
    <asset><mesh name="m" vertex="0 0 0  1 0 0  0 0.5 0  0 0 0.3  1 0.5 0.3"/>
      <hfield name="h" nrow="3" ncol="3" size="1 1 0.5 0.1" elevation="0 1 0 1 0 1 0 1 0"/></asset>
    <worldbody><geom type="hfield" hfield="h" fluidshape="ellipsoid"/>
      <body><freejoint/><geom type="mesh" mesh="m" fluidshape="ellipsoid"/></body></worldbody></mujoco>"""
    mm, md, gm, gd = pair(xml)
    assert rel(gm.geom_fluid, mm.geom_fluid) < 1e-12
    set_state(mm, md, gd, np.random.default_rng(RNG_SEED))
    mujoco.mj_forward(mm, md)
    gauss.forward(gm, gd)
    assert rel(gd.qfrc_fluid, md.qfrc_fluid) < 1e-8


@pytest.mark.parametrize("option", OPTIONS)
@pytest.mark.parametrize("tree", TREES)
def test_forces_at_random_states(tree, option):
    """qfrc_fluid, qfrc_passive and qacc equal MuJoCo's at random states (free, ball and hinge
    joints; every geom type)."""
    mm, md, gm, gd = pair(model(OPTIONS[option], TREES[tree]))
    rng = np.random.default_rng(RNG_SEED)
    for _ in range(10):
        set_state(mm, md, gd, rng)
        mujoco.mj_forward(mm, md)
        gauss.forward(gm, gd)
        assert np.max(np.abs(md.qfrc_fluid)) > 1e-6  # the fluid acts
        assert rel(gd.qfrc_fluid, md.qfrc_fluid) < 1e-8
        assert rel(gd.qfrc_passive, md.qfrc_passive) < 1e-8
        assert rel(gd.qacc, md.qacc) < 1e-8


@pytest.mark.parametrize("flags,active", [("", True), ('spring="disable"', True),
                                          ('damper="disable"', True),
                                          ('spring="disable" damper="disable"', False)])
def test_disable_flags(flags, active):
    """MJCF skips every passive force, fluid included, only when springs and dampers are both
    disabled; the implicit integrator's fluid derivative follows the same switch."""
    xml = f"""<mujoco><option density="1000" viscosity="1" integrator="implicit"><flag {flags}/></option>
    <worldbody>{ELLIPSOID_TREE}{BOX_TREE.replace('pos="0 0 1"', 'pos="2 0 1"')}</worldbody></mujoco>"""
    mm, md, gm, gd = pair(xml)
    set_state(mm, md, gd, np.random.default_rng(RNG_SEED))
    mujoco.mj_forward(mm, md)
    gauss.forward(gm, gd)
    assert (np.max(np.abs(md.qfrc_fluid)) > 0) == active
    assert rel(gd.qfrc_fluid, md.qfrc_fluid) < 1e-8
    assert rel(gd.qacc, md.qacc) < 1e-8
    mujoco.mj_step(mm, md)
    gauss.step(gm, gd)
    assert rel(gd.qvel, md.qvel) < 1e-12


@pytest.mark.parametrize("integrator", ["Euler", "implicit", "implicitfast", "RK4"])
@pytest.mark.parametrize("tree", TREES)
def test_rollouts(tree, integrator):
    """100 steps from a random state stay within 1e-6 of MuJoCo's qpos. The implicit integrators
    take the fluid forces' velocity derivative into their matrix (implicitfast its symmetric part),
    which one step's qvel shows at 1e-12. RK4 runs the hinge-only variant of each tree: with ball
    and free joints gauss's RK4 deliberately differs from MuJoCo's (test_conformance.py)."""
    option = OPTIONS["wind"].replace("1.2", "50")  # strong enough to matter in 100 steps
    bodies = TREES[tree]
    if integrator == "RK4":
        bodies = (bodies.replace("<freejoint/>", '<joint type="hinge" axis="0 1 0"/>')
                  .replace('<joint type="ball"/>', '<joint type="hinge" axis="1 0 0"/>'))
    mm, md, gm, gd = pair(model(option, bodies, integrator))
    set_state(mm, md, gd, np.random.default_rng(RNG_SEED), vscale=1.0)
    mujoco.mj_step(mm, md)
    gauss.step(gm, gd)
    assert rel(gd.qvel, md.qvel) < 1e-12
    for _ in range(99):
        mujoco.mj_step(mm, md)
        gauss.step(gm, gd)
    assert np.max(np.abs(gd.qpos - md.qpos)) < 1e-6
    assert np.all(np.isfinite(gd.qpos))


def test_implicit_derivative_matters():
    """The derivative is really used: with a stiff fluid (h c / M near 1) implicit and Euler part by
    much more than the tolerance of test_rollouts, and gauss still follows MuJoCo's implicit."""
    bodies = '<body><freejoint/><geom type="box" size="0.1 0.05 0.02" fluidshape="ellipsoid"/></body>'
    out = {}
    for integrator in ("Euler", "implicit", "implicitfast"):
        mm, md, gm, gd = pair(model('density="1000" viscosity="5"', bodies, integrator))
        md.qvel[:] = gd.qvel[:] = [3, -1, 2, 20, -10, 5]
        for _ in range(50):
            mujoco.mj_step(mm, md)
            gauss.step(gm, gd)
        assert np.max(np.abs(gd.qpos - md.qpos)) < 1e-8
        out[integrator] = np.array(gd.qpos)
    assert np.max(np.abs(out["implicit"] - out["Euler"])) > 1e-3
    assert np.max(np.abs(out["implicitfast"] - out["Euler"])) > 1e-3


# single bodies MJCF calls simple (diagonal mass rows, whose off-diagonal derivative entries its
# implicitfast drops) and ones just outside that rule
SINGLE_BODIES = {
    "free aligned": '<body euler="0 0 30"><freejoint/><geom type="box" size="0.1 0.05 0.02"/></body>',
    "free rotated inertia": '<body><freejoint/><geom type="box" size="0.1 0.05 0.02" euler="10 0 0"/></body>',
    "free offset com": '<body><freejoint/><geom type="box" size="0.1 0.05 0.02" pos="0.1 0 0"/></body>',
    "free with child": '<body><freejoint/><geom type="box" size="0.1 0.05 0.02"/><body><geom size="0.05"/></body></body>',
    "ball": '<body><joint type="ball"/><geom type="box" size="0.1 0.05 0.02"/></body>',
    "ball off origin": '<body><joint type="ball" pos="0.1 0 0"/><geom type="box" size="0.1 0.05 0.02"/></body>',
    "slide and hinge": '<body><joint type="slide"/><joint type="hinge" axis="0 1 0"/><geom type="box" size="0.1 0.05 0.02"/></body>',
    "two hinges": '<body><joint type="hinge" axis="1 0 0"/><joint type="hinge" axis="0 1 0"/><geom type="box" size="0.1 0.05 0.02"/></body>',
    "skew slides": '<body><joint type="slide"/><joint type="slide" axis="1 1 0"/><geom type="box" size="0.1 0.05 0.02"/></body>',
    "slides and ball": '<body><joint type="slide" axis="0 0 -1"/><joint type="slide" axis="0 2 0"/><joint type="ball"/><geom type="box" size="0.1 0.05 0.02"/></body>',
    "hinge off origin": '<body><joint type="hinge" axis="0 1 0" pos="0 0 0.1"/><joint type="slide"/><geom type="box" size="0.1 0.05 0.02"/></body>',
}


@pytest.mark.parametrize("shape", ["none", "ellipsoid"])
@pytest.mark.parametrize("integrator", ["implicit", "implicitfast"])
@pytest.mark.parametrize("body", SINGLE_BODIES)
def test_implicit_single_bodies(body, integrator, shape):
    """Strong fluid on lone bodies: the implicit step follows MuJoCo's to 1e-12 (the analytic
    derivative of every term; implicitfast on a simple body keeps only the diagonal of the
    derivative, as MuJoCo's factorisation does)."""
    bodies = SINGLE_BODIES[body].replace("<geom ", f'<geom fluidshape="{shape}" ', 1)
    mm, md, gm, gd = pair(model('density="1000" viscosity="2" wind="1 0 -1"', bodies, integrator))
    rng = np.random.default_rng(RNG_SEED)
    md.qvel[:] = gd.qvel[:] = 5 * rng.normal(size=mm.nv)
    mujoco.mj_step(mm, md)
    gauss.step(gm, gd)
    assert rel(gd.qvel, md.qvel) < 1e-12
    for _ in range(50):
        mujoco.mj_step(mm, md)
        gauss.step(gm, gd)
    assert np.max(np.abs(gd.qpos - md.qpos)) < 1e-8


# ---- closed forms ----

def test_inertia_box_closed_form():
    """A box geom alone: its equivalent inertia box is the box itself (sides b = 2 size), so a
    body moving along its x axis at v (density only) feels -rho/2 b_y b_z v|v|, spinning about
    z at w feels -rho b_z (b_x^4 + b_y^4) w|w| / 64; with viscosity only, the sphere of diameter
    D = mean(b) gives -3 pi D beta v and -pi D^3 beta w."""
    size = np.array([0.1, 0.2, 0.3])
    b = 2 * size
    xml = f"""<mujoco><option density="1000" viscosity="0"/><worldbody>
      <body><freejoint/><geom type="box" size="{size[0]} {size[1]} {size[2]}"/></body></worldbody></mujoco>"""
    gm = gauss.Model.from_xml_string(xml)
    gd = gauss.Data(gm)
    v, w = 1.7, -2.3
    gd.qvel[:] = [v, 0, 0, 0, 0, w]
    gauss.forward(gm, gd)
    f = np.asarray(gd.qfrc_fluid)
    assert abs(f[0] - (-0.5 * 1000 * b[1] * b[2] * v * abs(v))) < 1e-12 * abs(f[0])
    assert abs(f[5] - (-1000 * b[2] * (b[0] ** 4 + b[1] ** 4) * w * abs(w) / 64)) < 1e-12 * abs(f[5])
    assert np.max(np.abs(f[[1, 2, 3, 4]])) < 1e-12
    beta = 0.3
    gm.opt.density, gm.opt.viscosity = 0.0, beta
    gauss.forward(gm, gd)
    D = b.mean()
    f = np.asarray(gd.qfrc_fluid)
    assert abs(f[0] - (-3 * np.pi * D * beta * v)) < 1e-12 * abs(f[0])
    assert abs(f[5] - (-np.pi * D ** 3 * beta * w)) < 1e-12 * abs(f[5])


def test_stokes_terminal_velocity():
    """A sphere falling in a viscous fluid (viscosity only, inertia-box model) reaches its terminal
    velocity. Derivation: a solid sphere of radius r and mass M has moments I = 2/5 M r^2 about
    every axis, so its equivalent inertia box has sides b = sqrt(6 (I + I - I) / M) = r sqrt(12/5)
    and the sphere standing for that box the diameter D = b. The drag is -3 pi D beta v, i.e.
    Stokes' 6 pi R beta v for R = D/2 = r sqrt(3/5) (MuJoCo's box sphere is smaller than the
    sphere: the drag is sqrt(3/5) = 0.775 of Stokes' for the true radius). Terminal velocity:
    M g = 3 pi D beta v_t, v_t = M g / (3 pi sqrt(12/5) r beta). The velocity approaches it as
    exp(-t/tau), tau = M / (3 pi D beta); after 40 tau (and at every step after, Euler's fixed
    point being v_t whatever the step) it is there to 1e-12."""
    r, rho_s, beta, g = 0.1, 1000.0, 50.0, 9.81
    xml = f"""<mujoco><option viscosity="{beta}" gravity="0 0 -{g}" timestep="0.001"/><worldbody>
      <body><freejoint/><geom size="{r}" density="{rho_s}"/></body></worldbody></mujoco>"""
    gm = gauss.Model.from_xml_string(xml)
    gd = gauss.Data(gm)
    M = rho_s * 4 / 3 * np.pi * r ** 3
    D = r * np.sqrt(12 / 5)
    c = 3 * np.pi * D * beta
    stokes_vt = M * g / (6 * np.pi * r * beta)
    vt = M * g / c
    assert abs(vt - stokes_vt / np.sqrt(3 / 5)) < 1e-12 * vt
    tau = M / c
    gauss.step(gm, gd, int(40 * tau / 0.001))
    assert abs(gd.qvel[2] + vt) < 1e-9 * vt
    assert np.max(np.abs(gd.qvel[[0, 1, 3, 4, 5]])) < 1e-12


def test_issue_example_falling_sphere():
    """The issue's example: <option density="1000" viscosity="1"/>, a sphere falling for 1 s from
    rest reaches z = -1.56 in MuJoCo (not the -4.91 of free fall), and gauss follows it."""
    xml = """<mujoco><option density="1000" viscosity="1"/><worldbody>
      <body><freejoint/><geom size="0.1"/></body></worldbody></mujoco>"""
    mm, md, gm, gd = pair(xml)
    n = int(round(1.0 / mm.opt.timestep))
    mujoco.mj_step(mm, md, n)
    gauss.step(gm, gd, n)
    assert abs(md.qpos[2] - (-1.56)) < 0.005
    assert abs(gd.qpos[2] - md.qpos[2]) < 1e-9


# ---- the corpus with its fluid options ----

FLUID_CORPUS = ["gymnasium/swimmer", "dm_control/swimmer", "dm_control/fish"]


@pytest.mark.parametrize("name", FLUID_CORPUS)
def test_corpus_fluid(name):
    """The corpus models with fluid options (prepared as in test_conformance.py, options kept):
    qfrc_fluid and qacc at random states, and a 100-step rollout."""
    path = dict(oracle.corpus_models())[name]
    xml, _ = oracle.prepare_xml(path)
    mm, md, gm, gd = pair(xml)
    assert mm.opt.density > 0 or mm.opt.viscosity > 0
    rng = np.random.default_rng(RNG_SEED)
    for _ in range(20):
        set_state(mm, md, gd, rng, vscale=1.0)
        mujoco.mj_forward(mm, md)
        gauss.forward(gm, gd)
        assert np.max(np.abs(md.qfrc_fluid)) > 0
        assert rel(gd.qfrc_fluid, md.qfrc_fluid) < 1e-8
        assert rel(gd.qfrc_passive, md.qfrc_passive) < 1e-8
        assert rel(gd.qacc, md.qacc) < 1e-8
    set_state(mm, md, gd, rng, vscale=1.0)
    for _ in range(100):
        mujoco.mj_step(mm, md)
        gauss.step(gm, gd)
    assert np.max(np.abs(gd.qpos - md.qpos)) < 1e-6


# ---- models in and out ----

def test_roundtrip_and_binary():
    """geom_fluid survives MJCF out and back and the binary format; the value check refuses a flag
    that is not 0 or 1 and a negative virtual mass."""
    gm = gauss.Model.from_xml_string(model(OPTIONS["wind"], MIXED_TREE + ELLIPSOID_TREE))
    back = gauss.Model.from_xml_string(gm.to_xml())
    assert np.array_equal(back.geom_fluid, gm.geom_fluid)
    binm = gauss.Model.from_binary(gm.to_binary())
    assert np.array_equal(binm.geom_fluid, gm.geom_fluid)
    g = int(np.nonzero(np.asarray(gm.geom_fluid)[:, 0])[0][0])
    gm.validate()
    gm.geom_fluid[g, 0] = 2
    with pytest.raises(gauss.GaussError, match="geom_fluid"):
        gm.validate()
    gm.geom_fluid[g, 0] = 1
    gm.geom_fluid[g, 7] = -1
    with pytest.raises(gauss.GaussError, match="geom_fluid"):
        gm.validate()


def test_bad_fluid_attributes():
    """A fluidshape MJCF does not know and too many fluidcoef values are errors naming the line
    and element; MuJoCo refuses both too."""
    for attr in ('fluidshape="box"', 'fluidcoef="1 2 3 4 5 6"'):
        xml = f"""<mujoco><worldbody><body><freejoint/>
        <geom size="0.1" {attr}/></body></worldbody></mujoco>"""
        with pytest.raises(Exception):
            mujoco.MjModel.from_xml_string(xml)
        with pytest.raises(gauss.GaussError, match=r":2: <geom>"):
            gauss.Model.from_xml_string(xml)
