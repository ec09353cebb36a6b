"""Binary models and in-memory files from Python: every corpus model survives to_binary /
from_binary and save_binary / from_binary_path with every array and option identical and the same
trajectory; pickling uses the binary format; bad files raise GaussError with a clear message;
models load with their files given as bytes (assets), and the gauss command compiles and reads
binaries."""

import os
import pickle
import subprocess

import numpy as np
import pytest

import gauss
import oracle

REPO = oracle.REPO


def same_model(a, b):
    assert a.size_names() == b.size_names()
    for s in a.size_names():
        assert getattr(a, s) == getattr(b, s), s
    for name in a.field_names():
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.shape == y.shape, name
        assert x.tobytes() == y.tobytes(), name
    for name in dir(a.opt):
        x, y = getattr(a.opt, name), getattr(b.opt, name)
        assert np.array_equal(x, y), name


def trajectory(m, n=100):
    d = gauss.Data(m)
    d.qvel[:] = np.linspace(-0.5, 0.5, m.nv)
    gauss.step(m, d, n)
    return d.qpos.copy(), d.qvel.copy()


def test_corpus_round_trip(corpus_model, tmp_path):
    _, path = corpus_model
    m = gauss.Model.from_xml_path(path)
    blob = m.to_binary()
    assert blob[:8] == b"GAUSSMDL"
    b = gauss.Model.from_binary(blob)
    same_model(m, b)
    assert b.to_binary() == blob
    f = tmp_path / "model.gsb"
    m.save_binary(f)
    assert f.read_bytes() == blob
    c = gauss.Model.from_binary_path(f)
    same_model(m, c)
    qa, va = trajectory(m)
    qb, vb = trajectory(c)
    assert qa.tobytes() == qb.tobytes() and va.tobytes() == vb.tobytes()


def test_passive_fields_round_trip():
    """gravity compensation (body gravcomp, joint actuatorgravcomp) and tendon stiffness, damping
    and armature, which the corpus does not all use, travel through the binary format"""
    m = gauss.Model.from_xml_string("""
    <mujoco><worldbody><body pos="0 0 1" gravcomp="0.7"><joint name="a" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03"/>
      <body pos="0.3 0 0" gravcomp="1"><joint name="b" axis="0 1 0" actuatorgravcomp="true"/>
        <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03"/></body></body></worldbody>
      <tendon><fixed stiffness="3" damping="0.2" armature="0.1" springlength="0 0.1">
        <joint joint="a" coef="1"/><joint joint="b" coef="-1"/></fixed></tendon>
      <actuator><motor joint="b"/></actuator></mujoco>""")
    assert list(m.body_gravcomp) == [0, 0.7, 1] and list(m.jnt_actgravcomp) == [0, 1]
    b = gauss.Model.from_binary(m.to_binary())
    same_model(m, b)
    b.validate()
    # the value checks know the new fields: a routing flag that is not 0 or 1, a non-finite share
    b.jnt_actgravcomp[1] = 2
    with pytest.raises(gauss.GaussError, match=r"jnt_actgravcomp\[1\]"):
        b.validate()
    b.jnt_actgravcomp[1] = 1
    b.body_gravcomp[2] = float("nan")
    with pytest.raises(gauss.GaussError, match=r"body_gravcomp\[2\]"):
        b.validate()
    b.body_gravcomp[2] = 1
    qa, va = trajectory(m)
    qb, vb = trajectory(b)
    assert qa.tobytes() == qb.tobytes() and va.tobytes() == vb.tobytes()


def test_pickle_ships_the_binary():
    m = gauss.Model.from_xml_path(os.path.join(oracle.MODELS_DIR, "mujoco", "humanoid.xml"))
    m.opt.timestep = 0.004  # an option changed after loading travels too
    p = pickle.loads(pickle.dumps(m))
    same_model(m, p)
    assert p.opt.timestep == 0.004


def test_errors(tmp_path):
    m = gauss.Model.from_xml_string("<mujoco><worldbody><body><freejoint/><geom size='.1'/>"
                                    "</body></worldbody></mujoco>")
    blob = m.to_binary()
    cases = [
        (b"", "empty"),
        (blob[:7], "not a gauss binary model"),
        (b"<mujoco/>", "not a gauss binary model"),
        (blob[:40], "truncated"),
        (blob[: len(blob) // 2], "truncated"),
        (blob[:-1], "truncated"),
        (blob + b"\0", "header says"),
        (blob[:100] + bytes([blob[100] ^ 1]) + blob[101:], "checksum"),
        (blob[:8] + b"\x63" + blob[9:], "version"),
    ]
    for data, phrase in cases:
        with pytest.raises(gauss.GaussError, match=phrase):
            gauss.Model.from_binary(data)
    with pytest.raises(gauss.GaussError, match="cannot read file"):
        gauss.Model.from_binary_path(tmp_path / "missing.gsb")
    with pytest.raises(gauss.GaussError, match="cannot write"):
        m.save_binary(tmp_path / "no" / "such" / "dir.gsb")
    # every truncation of a real model fails cleanly
    m = gauss.Model.from_xml_path(os.path.join(oracle.MODELS_DIR, "dm_control", "cheetah.xml"))
    blob = m.to_binary()
    for k in range(64):
        with pytest.raises(gauss.GaussError):
            gauss.Model.from_binary(blob[: len(blob) * k // 64])


# ---- in-memory files ----

MAIN = """<mujoco model="vfs">
  <include file="parts/options.xml"/>
  <worldbody>
    <include file="arm.xml"/>
  </worldbody>
</mujoco>"""
OPTIONS = """<mujoco><option timestep="0.005" integrator="RK4"/></mujoco>"""
ARM = """<mujoco><body name="arm" pos="0 0 1"><joint name="shoulder" axis="0 1 0"/>
  <geom type="capsule" fromto="0 0 0 0 0 -0.4" size="0.04"/></body></mujoco>"""


def test_assets_from_memory(tmp_path):
    # the main file on the disk, the included files only in memory
    main = tmp_path / "model.xml"
    main.write_text(MAIN)
    assets = {"parts/options.xml": OPTIONS.encode(), "arm.xml": ARM.encode()}
    m = gauss.Model.from_xml_path(main, assets=assets)
    assert m.opt.timestep == 0.005 and m.opt.integrator == gauss.INT_RK4
    assert m.body("arm").id == 1 and m.joint("shoulder").id == 0
    # everything in memory, the main file too
    m2 = gauss.Model.from_xml_path("model.xml", assets={"model.xml": MAIN, **assets})
    same_model(m, m2)
    m3 = gauss.Model.from_xml_string(MAIN, assets=assets)
    same_model(m, m3)
    # a file given in memory is taken before the one on the disk
    (tmp_path / "arm.xml").write_text(ARM.replace('name="arm"', 'name="disk"'))
    m4 = gauss.Model.from_xml_path(main, assets=assets)
    assert m4.body(1).name == "arm"
    m5 = gauss.Model.from_xml_path(main, assets={"parts/options.xml": OPTIONS})
    assert m5.body(1).name == "disk"


def test_assets_errors(tmp_path):
    with pytest.raises(gauss.GaussError, match=r"arm\.xml"):
        gauss.Model.from_xml_string(MAIN, assets={"parts/options.xml": OPTIONS})
    # an include cycle through memory is found
    cyc = "<mujoco><include file='a.xml'/></mujoco>"
    with pytest.raises(gauss.GaussError, match="cycle"):
        gauss.Model.from_xml_string(cyc, assets={"a.xml": "<mujoco><include file='b.xml'/>"
                                                 "</mujoco>", "b.xml": cyc})
    with pytest.raises(gauss.GaussError, match="malformed"):
        gauss.Model.from_xml_string(MAIN, assets={"parts/options.xml": b"<mujoco>",
                                                  "arm.xml": ARM})
    with pytest.raises(gauss.GaussError, match="in-memory file"):
        gauss.Model.from_xml_string(MAIN, assets={"": b"x"})


def test_include_of_a_device_is_refused(tmp_path):
    # /dev/zero never ends: the reader takes regular files only
    with pytest.raises(gauss.GaussError, match="include"):
        gauss.Model.from_xml_string("<mujoco><include file='/dev/zero'/></mujoco>")


# ---- the command line ----

def gauss_command():
    lib = os.environ.get("GAUSS_LIBRARY")
    candidates = [os.path.join(os.path.dirname(lib), "gauss")] if lib else []
    candidates.append(os.path.join(REPO, "build", "release", "gauss"))
    for c in candidates:
        if os.access(c, os.X_OK):
            return c
    pytest.skip("no gauss command built")


def test_command_compile_print_simulate(tmp_path):
    exe = gauss_command()
    xml = os.path.join(oracle.MODELS_DIR, "dm_control", "acrobot.xml")
    out = tmp_path / "acrobot.bin"  # any name: the format is told by the first bytes
    r = subprocess.run([exe, "compile", xml, str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert out.read_bytes() == gauss.Model.from_xml_path(xml).to_binary()
    p1 = subprocess.run([exe, "print", str(out)], capture_output=True, text=True)
    p2 = subprocess.run([exe, "print", xml], capture_output=True, text=True)
    assert p1.returncode == 0 and p1.stdout == p2.stdout
    assert "SIZES" in p1.stdout and "timestep" in p1.stdout and "body_parentid" in p1.stdout
    r = subprocess.run([exe, "simulate", str(out), "--time", "0.1"], capture_output=True,
                       text=True)
    assert r.returncode == 0 and "simulated" in r.stdout
    r = subprocess.run([exe, "bench", str(out)], capture_output=True, text=True)
    assert r.returncode == 2 and "--xml" in r.stderr
    bad = tmp_path / "bad.gsb"
    bad.write_bytes(out.read_bytes()[:100])
    r = subprocess.run([exe, "print", str(bad)], capture_output=True, text=True)
    assert r.returncode == 1 and "truncated" in r.stderr


def test_command_simulate_steps_and_controls():
    """gauss simulate --steps N takes N steps whatever the timestep, and --ctrl random drives the
    actuators (the profile-guided build's training runs it so): the end state differs from the
    one with zero controls, and the same seed gives the same run"""
    exe = gauss_command()
    xml = os.path.join(oracle.MODELS_DIR, "dm_control", "acrobot.xml")

    def run(*args):
        r = subprocess.run([exe, "simulate", xml, "--steps", "25", *args], capture_output=True,
                           text=True)
        assert r.returncode == 0, r.stderr
        assert "in 25 steps" in r.stdout
        return [line for line in r.stdout.splitlines() if line.strip().startswith("end")][0]

    zero, rand1, rand2 = run(), run("--ctrl", "random"), run("--ctrl", "random")
    assert rand1 == rand2 and rand1 != zero
    r = subprocess.run([exe, "simulate", xml, "--steps", "0"], capture_output=True, text=True)
    assert r.returncode == 2 and "--steps" in r.stderr


def test_colours_beyond_float_range_saturate():
    """MJCF keeps colours in single precision: a value beyond float's range is stored as float's
    largest magnitude, never as inf, so the compiled model passes the binary check and loads
    again (the fuzzer's case: a material rgba of 2e223)."""
    xml = """<mujoco><asset><material name="m" rgba="0 2e223 1 1"/></asset>
      <worldbody><light diffuse="1e300 0 0"/><body><geom size=".1" material="m" rgba="-1e300 0 0 1"/>
      <site name="a" rgba="1e39 0 0 1"/></body><site name="b" pos="1 0 0"/></worldbody>
      <tendon><spatial rgba="0 0 5e38 1"><site site="a"/><site site="b"/></spatial></tendon></mujoco>"""
    m = gauss.Model.from_xml_string(xml)
    big = float(np.finfo(np.float32).max)
    assert m.mat_rgba[0][1] == big and m.geom_rgba[0][0] == -big and m.site("a").rgba[0] == big
    assert m.tendon_rgba[0][2] == big and m.light_diffuse[0][0] == big
    m.validate()  # the binary check accepts it (it raises on an inf)
    again = pickle.loads(pickle.dumps(m))
    assert np.array_equal(again.mat_rgba, m.mat_rgba)
