"""The Python package: arrays are views on the engine's memory (writes reach it, nothing is
copied), options and sizes, names, copies and resets, and the model-level errors."""

import numpy as np
import pytest

import gauss

PENDULUM = """<mujoco model="p">
  <option timestep="0.001"/>
  <worldbody>
    <body name="pole" pos="0 0 1">
      <joint name="hinge" axis="0 1 0" damping="0.1"/>
      <geom name="rod" type="capsule" fromto="0 0 0 0 0 -0.5" size="0.05"/>
      <site name="tip" pos="0 0 -0.5"/>
    </body>
  </worldbody>
</mujoco>"""


def test_views_write_through():
    m = gauss.Model.from_xml_string(PENDULUM)
    d = gauss.Data(m)
    assert (m.nq, m.nv, m.nu, m.nbody, m.ngeom, m.nsite) == (1, 1, 0, 2, 1, 1)
    q = d.qpos
    q[0] = 0.5                      # written through the view
    gauss.forward(m, d)
    # the tip hangs 0.5 below the pivot, rotated by 0.5 rad about +y
    tip = d.site_xpos[m.site("tip").id]
    assert np.allclose(tip, [-0.5 * np.sin(0.5), 0, 1 - 0.5 * np.cos(0.5)], atol=1e-14)
    assert np.shares_memory(q, d.qpos), "two reads of a field view the same memory"
    # a model option written from Python changes the simulation
    m.opt.gravity[2] = 0
    gauss.forward(m, d)
    assert abs(d.qacc[0]) < 1e-15
    m.opt.timestep = 0.01
    gauss.step(m, d, nstep=3)
    assert d.time == pytest.approx(0.03, abs=1e-15)


def test_names_copy_reset():
    m = gauss.Model.from_xml_string(PENDULUM)
    d = gauss.Data(m)
    assert m.body("pole").id == 1 and m.joint("hinge").id == 0 and m.geom("rod").id == 0
    with pytest.raises(KeyError):
        m.body("nothing")
    d.qpos[0] = 1.0
    d.qvel[0] = -2.0
    gauss.step(m, d, nstep=10)
    c = gauss.copy_data(m, d)
    assert not np.shares_memory(c.qpos, d.qpos)
    gauss.step(m, d, nstep=10)
    gauss.step(m, c, nstep=10)
    assert np.array_equal(c.qpos, d.qpos) and np.array_equal(c.qvel, d.qvel)
    gauss.reset_data(m, d)
    assert d.time == 0 and np.array_equal(d.qpos, m.qpos0) and not d.qvel.any()


def test_step1_step2_equal_step():
    """step1, then step2, is one step (Euler)"""
    m = gauss.Model.from_xml_string(PENDULUM)
    a, b = gauss.Data(m), gauss.Data(m)
    a.qpos[0] = b.qpos[0] = 0.3
    for _ in range(50):
        gauss.step(m, a)
        gauss.step1(m, b)
        gauss.step2(m, b)
    assert np.array_equal(a.qpos, b.qpos) and np.array_equal(a.qvel, b.qvel)


def test_file_errors(tmp_path):
    bad = tmp_path / "bad.xml"
    bad.write_text("<mujoco>\n  <worldbody>\n    <body>\n      <geom size='0.1' mass='-1'/>\n"
                   "    </body>\n  </worldbody>\n</mujoco>\n")
    with pytest.raises(gauss.GaussError) as e:
        gauss.Model.from_xml_path(str(bad))
    assert "bad.xml:4" in str(e.value) and "geom" in str(e.value)
    with pytest.raises(gauss.GaussError):
        gauss.Model.from_xml_path(str(tmp_path / "missing.xml"))


def test_load_warnings_name_unsimulated_elements():
    m = gauss.Model.from_xml_string(PENDULUM.replace(
        "</worldbody>", "</worldbody><actuator><motor joint='hinge'/></actuator>"
        "<deformable><skin vertex='0 0 0 1 0 0 0 1 0' face='0 1 2'/></deformable>"))
    assert any("<deformable>" in w and "not simulated" in w for w in m.load_warnings)
    # actuators are simulated: named nowhere
    assert not any("actuator" in w for w in m.load_warnings)
    assert m.nu == 1
