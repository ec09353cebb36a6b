"""Model and Data free their C memory when their last Python reference goes, views included."""

import gc
import weakref

import numpy as np

import gauss

XML = """
<mujoco>
  <worldbody>
    <body name="a" pos="0 0 1">
      <freejoint/>
      <geom size=".1"/>
      <body name="b" pos="0 0 -.3"><joint name="h" type="hinge"/><geom size=".05"/></body>
    </body>
  </worldbody>
  <actuator><motor joint="h" name="m"/></actuator>
</mujoco>
"""


def _rss():
    """Resident set size of this process in bytes (/proc/self/statm, second field, pages)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def test_data_freed_without_cycle_collection():
    m = gauss.Model.from_xml_string(XML)
    datas = [gauss.Data(m) for _ in range(100)]
    for d in datas:  # views cached on the objects must not tie them into cycles
        d.qpos, d.xpos, d.energy, d.contact, d.efc_force, d.body("b").xpos
    refs = [weakref.ref(d) for d in datas]
    gc.disable()
    try:
        del datas, d
        assert sum(r() is not None for r in refs) == 0  # reference counting alone frees them
    finally:
        gc.enable()


def test_model_freed_after_arrays_read():
    m = gauss.Model.from_xml_string(XML)
    m.body_mass, m.opt.gravity, m.stat, m.body("a").mass, m.joint(1).range
    d = gauss.Data(m)
    gauss.step(m, d)
    rm, rd = weakref.ref(m), weakref.ref(d)
    del m, d
    gc.collect()
    assert rm() is None and rd() is None


def test_rss_flat_over_1e5_data():
    m = gauss.Model.from_xml_string(XML)
    nbytes = gauss.Data(m).narena  # each Data holds at least its arena
    for _ in range(2000):  # warm up: allocator pools, caches of the first objects
        gauss.Data(m).qpos
    gc.collect()
    before = _rss()
    n = 100_000
    for _ in range(n):
        d = gauss.Data(m)
        d.qpos[0] = 1.0
        d.xpos
    del d
    gc.collect()
    grown = _rss() - before
    # A leak would keep every Data: at least n * narena bytes (tens of MB or more). The margin,
    # 2 % of that (and at least 4 MB), allows for allocator fragmentation and the interpreter's
    # own pools, which do not grow with n.
    margin = max(4 << 20, n * nbytes // 50)
    assert n * nbytes > 10 * margin
    assert grown < margin, (grown, margin)


def test_view_outlives_data():
    m = gauss.Model.from_xml_string(XML)
    d = gauss.Data(m)
    d.qpos[:] = np.arange(m.nq) + 0.5
    gauss.forward(m, d)
    qpos, xpos = d.qpos, d.body("b").xpos
    expect_x = xpos.copy()
    rd = weakref.ref(d)
    del d
    gc.collect()
    assert rd() is None
    # the views keep the C memory: the values are still there, and writable
    for _ in range(50):  # new allocations would reuse freed memory
        gauss.Data(m).qpos[:] = -7.0
    assert np.array_equal(qpos, np.arange(m.nq) + 0.5)
    assert np.array_equal(xpos, expect_x)
    qpos[0] = 3.0
    assert qpos[0] == 3.0


def test_view_outlives_model():
    m = gauss.Model.from_xml_string(XML)
    mass = m.body_mass
    expect = mass.copy()
    gravity = m.opt.gravity
    rm = weakref.ref(m)
    del m
    gc.collect()
    assert rm() is None
    for _ in range(20):
        gauss.Model.from_xml_string(XML).body_mass[:] = -1.0
    assert np.array_equal(mass, expect)
    assert np.array_equal(gravity, [0, 0, -9.81])


def test_data_keeps_model_memory():
    d = gauss.Data(gauss.Model.from_xml_string(XML))
    gc.collect()
    gauss.step(d.model, d)  # the model lives as long as the data
    assert d.time > 0


def test_callbacks_do_not_keep_data_alive():
    m = gauss.Model.from_xml_string(XML)
    calls = []
    refs = []
    for _ in range(20):
        d = gauss.Data(m)

        def control(mm, dd, d=d):  # the callable refers to its own Data: a cycle
            calls.append(1)
            d.ctrl[0] = 1.0
        gauss.set_callbacks(d, control=control)
        gauss.step(m, d)
        refs.append(weakref.ref(d))
    assert len(calls) == 20
    del d, control
    gc.collect()
    assert sum(r() is not None for r in refs) == 0
    # callbacks without a cycle go with reference counting alone
    d = gauss.Data(m)
    gauss.set_callbacks(d, control=lambda mm, dd: None)
    r = weakref.ref(d)
    gc.disable()
    try:
        del d
        assert r() is None
    finally:
        gc.enable()


def test_copies_freed():
    m = gauss.Model.from_xml_string(XML)
    d = gauss.Data(m)
    refs = [weakref.ref(x) for x in (d.copy(), m.copy(), gauss.copy_data(m, d))]
    gc.collect()
    assert all(r() is None for r in refs)
