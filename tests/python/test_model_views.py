"""The model's views: structural fields (types, ids, addresses, counts, tree links, names) are
read-only, parameters writable; options validated when set; warning totals; Model.validate."""

import math
import os
import pickle

import numpy as np
import pytest

import gauss

HERE = os.path.dirname(os.path.abspath(__file__))
ANT = os.path.join(HERE, "..", "models", "gymnasium", "ant.xml")

SCENE = """<mujoco><option timestep="0.002"/>
  <worldbody><geom name="floor" type="plane" size="5 5 0.1"/>
    <body name="box" pos="0 0 0.1"><freejoint/><geom name="box" type="box" size="0.1 0.1 0.1"/></body>
    <body pos="1 0 0.5"><joint name="h" type="hinge" axis="0 1 0" limited="true" range="-30 30"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.02"/></body>
  </worldbody>
  <contact><pair geom1="floor" geom2="box"/></contact>
  <actuator><motor joint="h"/></actuator></mujoco>"""


@pytest.fixture
def ant():
    return gauss.Model.from_xml_path(ANT)


def structural_by_name(name):
    """The naming conventions of structural fields (what the rule must cover at least)."""
    if name == "geom_contype":  # a collision bitmask, not a type
        return False
    if name == "geom_fluid":  # fluid coefficients (reals), "id" only by the spelling of "fluid"
        return False
    return (name.endswith(("type", "id", "adr", "num")) or name.startswith("name_")
            or name in ("body_parentid", "body_rootid", "body_weldid", "dof_parentid", "dof_Madr",
                        "jnt_qposadr", "names", "paths"))


def test_the_rule_covers_the_naming_conventions(ant):
    names = ant.field_names()
    for name in names:
        ftype = ant._fieldinfo[name][0]
        if structural_by_name(name):
            assert gauss.is_structural(name, ftype), name
        if ftype == gauss.TYPE_REAL:
            assert not gauss.is_structural(name, ftype), name
    # the exceptions: integer parameters stay writable
    for name in ("geom_contype", "geom_conaffinity", "geom_priority", "geom_group", "jnt_limited",
                 "actuator_ctrllimited", "eq_active0", "tendon_limited"):
        if name in names:
            assert not gauss.is_structural(name, ant._fieldinfo[name][0]), name
    # structural though their names say less
    for name in ("geom_condim", "pair_dim", "sensor_dim", "geom_sameframe", "mesh_face",
                 "mesh_graph", "hfield_nrow", "pair_geom1", "pair_signature", "numeric_size",
                 "text_data", "sensor_intprm"):
        if name in names:
            assert gauss.is_structural(name, ant._fieldinfo[name][0]), name


@pytest.mark.parametrize("field,index,value", [
    ("geom_type", 1, 99), ("geom_type", 1, -1), ("body_parentid", 2, 1000), ("jnt_qposadr", 0, 5),
    ("dof_Madr", 3, 0), ("dof_parentid", 1, 7), ("body_rootid", 1, 0), ("name_geomadr", 0, 3),
    ("geom_condim", 0, 5), ("body_jntnum", 1, 9), ("actuator_trnid", 0, 0),
])
def test_structural_writes_raise(ant, field, index, value):
    arr = getattr(ant, field)
    before = arr.copy()
    with pytest.raises(gauss.StructuralFieldError, match=f"{field} is a structural field.*MJCF"):
        arr[index] = value
    with pytest.raises(ValueError):  # a GaussError, hence a ValueError
        arr[index] = value
    with pytest.raises(gauss.StructuralFieldError):
        arr[...] = value
    with pytest.raises(gauss.StructuralFieldError):
        arr[index:index + 1] = value  # a slice is a read-only view too
    with pytest.raises(gauss.StructuralFieldError):
        arr += 1
    with pytest.raises(gauss.StructuralFieldError):
        setattr(ant, field, before)
    with pytest.raises(ValueError):
        arr.flags.writeable = True  # the buffer underneath is read-only
    with pytest.raises(ValueError):
        np.copyto(arr, before + 1)
    assert np.array_equal(arr, before)
    # the engine still runs on the intact model
    d = gauss.Data(ant)
    gauss.step(ant, d, 20)
    assert np.isfinite(d.qpos).all()


def test_structural_through_named_access(ant):
    with pytest.raises(gauss.StructuralFieldError, match="geom_type"):
        ant.geom(1).type = 3
    with pytest.raises(gauss.StructuralFieldError, match="body_parentid"):
        ant.body(2).parentid[0] = 0
    with pytest.raises(gauss.StructuralFieldError):
        ant.joint(1).qposadr[0] = 0
    assert ant.joint(1).qposadr[0] == ant.jnt_qposadr[1]


def test_reads_and_copies_are_ordinary_arrays(ant):
    t = ant.geom_type
    assert isinstance(t, np.ndarray) and t.dtype == np.int32
    c = t.copy()
    c[0] = 42  # a copy is the caller's
    assert type(c) is np.ndarray and t[0] != 42
    assert type(np.array(t)) is np.ndarray
    assert type(t == gauss.GEOM_PLANE) is np.ndarray
    assert type(t + 1) is np.ndarray and (t + 1)[0] == t[0] + 1
    assert int(t.max()) < gauss.NGEOMTYPE
    assert np.array_equal(pickle.loads(pickle.dumps(t)), t)
    ids = ant.body_parentid[ant.geom_bodyid]  # fancy indexing copies
    ids[0] = -5


def test_parameters_stay_writable(ant):
    d = gauss.Data(ant)
    ant.geom_size[1, 0] *= 1.01
    ant.geom_friction[:, 0] = 0.8
    ant.body_mass[1] += 0.1
    ant.dof_damping[6:] = 0.5
    ant.geom_margin[:] = 0.001
    ant.geom_contype[0] = 1
    ant.geom_conaffinity[0] = 1
    ant.geom_priority[0] = 2
    ant.jnt_limited[1] = 1
    ant.geom(1).friction = [1, 0.005, 0.0001]
    ant.actuator_gear[:, 0] = 100
    ant.actuator_ctrllimited[0] = 0
    gauss.step(ant, d, 50)
    assert np.isfinite(d.qpos).all()
    assert d.warning.total.sum() == 0


@pytest.mark.parametrize("name,bad,valid", [
    ("integrator", [99, -1, 4], ["Euler", "RK4", "implicit", "implicitfast"]),
    ("solver", [-1, 3], ["PGS", "CG", "Newton"]),
    ("cone", [7, -1, 2], ["pyramidal", "elliptic"]),
    ("jacobian", [9, 3, -2], ["dense", "sparse", "auto"]),
])
def test_option_enums_validated(ant, name, bad, valid):
    before = getattr(ant.opt, name)
    for v in bad:
        with pytest.raises(ValueError, match=f"opt.{name} = {v}: valid values are .*{valid[-1]}"):
            setattr(ant.opt, name, v)
        assert getattr(ant.opt, name) == before
    with pytest.raises(ValueError, match="valid values"):
        setattr(ant.opt, name, "nonsense")
    for i, label in enumerate(valid):
        setattr(ant.opt, name, i)
        assert getattr(ant.opt, name) == i
        setattr(ant.opt, name, label)  # by MJCF's name too
        assert getattr(ant.opt, name) == i


@pytest.mark.parametrize("name", ["iterations", "ls_iterations", "noslip_iterations",
                                  "ccd_iterations"])
def test_option_counts_not_negative(ant, name):
    with pytest.raises(ValueError, match=f"opt.{name} = -1: must be at least 0"):
        setattr(ant.opt, name, -1)
    setattr(ant.opt, name, 0)
    assert getattr(ant.opt, name) == 0
    with pytest.raises(ValueError, match="C int"):
        setattr(ant.opt, name, 2**40)


def test_option_flags_and_reals(ant):
    with pytest.raises(ValueError, match="disableflags"):
        ant.opt.disableflags = 1 << gauss.NDISABLE
    with pytest.raises(ValueError, match="enableflags"):
        ant.opt.enableflags = -1
    ant.opt.disableflags = gauss.DSBL_GRAVITY | gauss.DSBL_AUTORESET
    ant.opt.timestep = 0.005
    ant.opt.gravity = [0, 0, -1]
    assert ant.opt.timestep == 0.005 and ant.opt.gravity[2] == -1


def test_iterations_zero_runs(ant):
    ant.opt.iterations = 0
    d = gauss.Data(ant)
    gauss.step(ant, d, 10)
    assert np.isfinite(d.qpos).all()
    assert d.warning.total.sum() == 0


# ---- runtime faults: warnings, totals ----

def test_warning_record_has_totals():
    m = gauss.Model.from_xml_string(SCENE)
    d = gauss.Data(m)
    assert d.warning.dtype.names == ("lastinfo", "number", "total")
    assert len(d.warning) == gauss.NWARNING
    for _ in range(3):
        d.qvel[0] = math.nan
        gauss.step(m, d)
    w = d.warning[gauss.WARN_BADQVEL]
    assert (w.number, w.total) == (1, 3)  # each reset clears number; the total counts on
    gauss.reset_data(m, d)
    assert d.warning[gauss.WARN_BADQVEL].number == 0
    assert d.warning[gauss.WARN_BADQVEL].total == 3
    assert d.copy().warning[gauss.WARN_BADQVEL].total == 3


def test_bad_ctrl_counted_each_step():
    m = gauss.Model.from_xml_string(SCENE)
    d = gauss.Data(m)
    d.ctrl[0] = math.nan
    gauss.step(m, d, 7)
    assert d.warning[gauss.WARN_BADCTRL].number == 7
    assert d.warning[gauss.WARN_BADCTRL].total == 7
    assert math.isnan(d.ctrl[0])
    assert np.isfinite(d.qpos).all() and np.isfinite(d.qacc).all()


@pytest.mark.parametrize("field", ["geom_friction", "geom_size", "geom_margin", "geom_solref",
                                   "geom_solimp", "pair_friction"])
@pytest.mark.parametrize("value", [math.nan, math.inf])
def test_nonfinite_contact_parameters_warn_and_reset(field, value):
    m = gauss.Model.from_xml_string(SCENE)
    d = gauss.Data(m)
    box = m.geom("box").id
    arr = getattr(m, field)
    if field == "pair_friction":
        arr[0, 0] = value
        expect = m.ngeom
    else:
        arr[box] = value
        expect = box
    for _ in range(200):
        d.qvel[2] = -2.0  # pushed into the floor: without contacts it would fall through
        gauss.step(m, d)
    w = d.warning[gauss.WARN_BADCONTACT]
    assert w.number >= 1 and w.total >= 200 and w.lastinfo == expect
    assert d.warning[gauss.WARN_BADQACC].total == 0
    assert abs(d.qpos[2] - 0.1) < 0.01  # reset every step: never below the floor
    assert np.isfinite(d.qpos).all()


def test_ant_with_nan_friction_resets_instead_of_falling(ant):
    d = gauss.Data(ant)
    ant.geom_friction[1, 0] = math.nan
    gauss.step(ant, d, 500)
    assert d.qpos[2] > 0.2  # the torso never falls through the floor (it did to z = -19 m)
    assert d.warning[gauss.WARN_BADCONTACT].total >= 500


def test_validate():
    m = gauss.Model.from_xml_path(ANT)
    assert m.validate() is None
    # a parameter written into nonsense from Python: validate names the field and index
    m.body_mass[2] = -1.0
    with pytest.raises(gauss.GaussError, match=r"body_mass\[2\]"):
        m.validate()


def test_data_field_table_in_one_call_equals_field_by_field(ant):
    """A Data reads its field table with gs_dataFields; it must equal gs_dataField's answers one
    index at a time (names, types, rows, columns, pointers), also for a short or empty request."""
    import ctypes
    from gauss import _lib
    d = gauss.Data(ant)
    one = {}
    info = _lib.FieldInfo()
    for i in range(_lib.gs_dataFieldCount()):
        assert _lib.gs_dataField(ant._ptr, d._ptr, i, ctypes.byref(info))
        one[info.name.decode()] = (info.type, info.rows, info.cols, info.ptr)
    assert {k: v[:4] for k, v in d._fieldinfo.items()} == one
    n = _lib.gs_dataFieldCount()
    buf = (_lib.FieldInfo * (n + 3))()
    assert _lib.gs_dataFields(ant._ptr, d._ptr, buf, n + 3) == n
    assert _lib.gs_dataFields(ant._ptr, d._ptr, buf, 5) == 5
    assert _lib.gs_dataFields(ant._ptr, d._ptr, buf, 0) == 0
    # a second Data has its own pointers
    d2 = gauss.Data(ant)
    assert d2._fieldinfo["qpos"][3] != d._fieldinfo["qpos"][3]
    d2.qpos[0] = 7.0
    assert d.qpos[0] != 7.0
