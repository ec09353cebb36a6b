"""The manylinux wheel (scripts/wheel.sh) installed into a fresh virtual environment: it imports,
steps the model it ships as MuJoCo does, runs the `gauss` console script, and its binaries need
no system library outside the manylinux set (the others are inside the wheel).

Building the wheel takes about a minute on 2 cores, so this test runs when GAUSS_WHEEL names the
wheel: scripts/test.sh builds it once and sets it; by hand,
    GAUSS_WHEEL=$(bash scripts/wheel.sh build/dist | tail -1) pytest tests/python/test_wheel.py"""

import os
import subprocess
import sys
import venv
import zipfile

import numpy as np
import pytest

WHEEL = os.environ.get("GAUSS_WHEEL")
pytestmark = pytest.mark.skipif(not WHEEL, reason="GAUSS_WHEEL is not set (scripts/test.sh "
                                "builds the wheel and sets it)")

# what a manylinux wheel may take from the system (PEP 600's libraries in practice: the C
# library and its loader, libm, libpthread, libdl, librt, libgcc_s, libstdc++, libz)
SYSTEM = ("libc.so", "libm.so", "libpthread.so", "libdl.so", "librt.so", "ld-linux",
          "libgcc_s.so", "libstdc++.so", "libz.so")

STEP = r"""
import json, os, sys
import gauss, gauss.models
assert os.path.dirname(gauss.__file__).startswith(sys.prefix), gauss.__file__
m = gauss.Model.from_xml_path(gauss.models.path("double_pendulum.xml"))
d = gauss.Data(m)
d.qpos[1] = 0.1
d.ctrl[0] = 0.5
gauss.step(m, d, 500)
print(json.dumps({"qpos": d.qpos.tolist(), "sensordata": d.sensordata.tolist()}))
"""


def _needed(path):
    out = subprocess.run(["readelf", "-d", path], capture_output=True, text=True, check=True)
    return [line.split("[")[1].split("]")[0] for line in out.stdout.splitlines()
            if "(NEEDED)" in line]


def test_wheel_installs_and_runs(tmp_path):
    assert "manylinux" in os.path.basename(WHEEL)
    with zipfile.ZipFile(WHEEL) as z:
        names = z.namelist()
        z.extractall(tmp_path / "unpacked")
    assert "gauss/libgauss.so" in names and "gauss/bin/gauss" in names
    # every binary of the wheel, the copied system libraries included
    binaries = [n for n in names if (n.startswith("gauss.libs/") and ".so" in n) or n in
                ("gauss/libgauss.so", "gauss/bin/gauss")]
    for binary in binaries:
        for lib in _needed(str(tmp_path / "unpacked" / binary)):
            inside = any(n.startswith("gauss.libs/" + lib) for n in names)
            assert inside or lib.startswith(SYSTEM), f"{binary} needs {lib} from the system"
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    py = str(env_dir / "bin" / "python")
    clean = {k: v for k, v in os.environ.items()
             if k not in ("PYTHONPATH", "GAUSS_LIBRARY", "VIRTUAL_ENV")}
    subprocess.run([py, "-m", "pip", "install", "-q", WHEEL], check=True, env=clean,
                   cwd=tmp_path)
    out = subprocess.run([py, "-c", STEP], capture_output=True, text=True, env=clean,
                         cwd=tmp_path, check=True)
    import json
    got = json.loads(out.stdout.strip().splitlines()[-1])
    # the same motion in MuJoCo (the oracle) from the same start
    mujoco = pytest.importorskip("mujoco")
    src = os.path.join(os.path.dirname(__file__), "..", "..", "python", "gauss", "models",
                       "double_pendulum.xml")
    mm = mujoco.MjModel.from_xml_path(src)
    dd = mujoco.MjData(mm)
    dd.qpos[1] = 0.1
    dd.ctrl[0] = 0.5
    mujoco.mj_step(mm, dd, 500)
    np.testing.assert_allclose(got["qpos"], dd.qpos, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(got["sensordata"], dd.sensordata, rtol=1e-8, atol=1e-10)
    # the console script runs the C command from the wheel
    cmd = str(env_dir / "bin" / "gauss")
    model = str(env_dir / "lib")  # the shipped model, found through the installed package
    path = subprocess.run([py, "-c", "import gauss.models as g; "
                           "print(g.path('double_pendulum.xml'))"], capture_output=True,
                          text=True, env=clean, check=True).stdout.strip()
    assert path.startswith(model)
    sim = subprocess.run([cmd, "simulate", path, "--time", "0.1"], capture_output=True,
                         text=True, env=clean, cwd=tmp_path)
    assert sim.returncode == 0, sim.stderr
    assert sim.stdout.strip(), "gauss simulate printed nothing"
    assert sys.executable != py
