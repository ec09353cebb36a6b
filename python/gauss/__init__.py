"""gauss: multi-joint dynamics, a ctypes binding of libgauss.

    import gauss
    m = gauss.Model.from_xml_path("pendulum.xml")
    d = gauss.Data(m)
    gauss.step(m, d, 1000)
    print(d.time, d.qpos, d.body("pole").xpos)

Every array of the model and the data is a numpy view of the engine's memory: writing into it
(d.qpos[:] = ..., d.ctrl[0] = ...) changes what the engine sees. The list of arrays comes from the
library itself (gs_modelField / gs_dataField), so it is never repeated here.
"""

import ctypes
import operator

import numpy as np

from . import _lib
from ._lib import GS_NWARNING

__version__ = "0.1.0"

__all__ = [
    "GaussError", "Model", "Data", "Option",
    "forward", "step", "step1", "step2", "reset_data", "copy_data",
    "kinematics", "com_pos", "crb", "factor_M", "com_vel", "passive", "rne",
    "fwd_position", "fwd_velocity", "fwd_acceleration",
    "energy_pos", "energy_vel", "full_M", "mul_M", "solve_M", "jac",
    "print_model", "print_data",
]

# ---- constants (model.h, data.h, gauss.h) ----

JNT_FREE, JNT_BALL, JNT_SLIDE, JNT_HINGE = range(4)
(GEOM_PLANE, GEOM_HFIELD, GEOM_SPHERE, GEOM_CAPSULE, GEOM_ELLIPSOID, GEOM_CYLINDER, GEOM_BOX,
 GEOM_MESH, NGEOMTYPE) = range(9)
INT_EULER, INT_RK4, INT_IMPLICIT, INT_IMPLICITFAST = range(4)
CONE_PYRAMIDAL, CONE_ELLIPTIC = range(2)
JAC_DENSE, JAC_SPARSE, JAC_AUTO = range(3)
SOL_PGS, SOL_CG, SOL_NEWTON = range(3)

DSBL_CONSTRAINT = 1 << 0
DSBL_EQUALITY = 1 << 1
DSBL_FRICTIONLOSS = 1 << 2
DSBL_LIMIT = 1 << 3
DSBL_CONTACT = 1 << 4
DSBL_SPRING = 1 << 5
DSBL_DAMPER = 1 << 6
DSBL_GRAVITY = 1 << 7
DSBL_CLAMPCTRL = 1 << 8
DSBL_WARMSTART = 1 << 9
DSBL_FILTERPARENT = 1 << 10
DSBL_ACTUATION = 1 << 11
DSBL_REFSAFE = 1 << 12
DSBL_SENSOR = 1 << 13
DSBL_MIDPHASE = 1 << 14
DSBL_EULERDAMP = 1 << 15
DSBL_AUTORESET = 1 << 16
DSBL_NATIVECCD = 1 << 17
DSBL_ISLAND = 1 << 18
NDISABLE = _lib.GS_NDISABLE

ENBL_OVERRIDE = 1 << 0
ENBL_ENERGY = 1 << 1
ENBL_FWDINV = 1 << 2
ENBL_INVDISCRETE = 1 << 3
ENBL_MULTICCD = 1 << 4
NENABLE = _lib.GS_NENABLE

(WARN_INERTIA, WARN_CONTACTFULL, WARN_CNSTRFULL, WARN_ARENAFULL, WARN_BADQPOS, WARN_BADQVEL,
 WARN_BADQACC, WARN_BADCTRL) = range(GS_NWARNING)
NWARNING = GS_NWARNING

# object types, numbered as in include/gauss/gauss.h (gsObject)
OBJ_BODY, OBJ_JOINT, OBJ_GEOM, OBJ_SITE = 1, 3, 5, 6
TYPE_REAL, TYPE_INT, TYPE_CHAR = range(3)

# MJCF's <flag> names, indexed by bit number, as the library spells them
DISABLE_NAMES = _lib.flag_names("gs_disable_names", NDISABLE)
ENABLE_NAMES = _lib.flag_names("gs_enable_names", NENABLE)


class GaussError(ValueError):
    """A model could not be loaded (the message names the file, line and element)."""


# ---- numpy views of C memory ----

_CTYPES = {TYPE_REAL: (ctypes.c_double, np.float64),
           TYPE_INT: (ctypes.c_int32, np.int32),
           TYPE_CHAR: (ctypes.c_uint8, np.uint8)}


def _view(ptr, ftype, rows, cols, owner):
    """A numpy array on `rows * cols` elements at `ptr`, keeping `owner` alive while it lives."""
    ctype, dtype = _CTYPES[ftype]
    shape = (rows,) if cols == 1 else (rows, cols)
    n = rows * cols
    if n <= 0 or not ptr:
        return np.zeros(shape, dtype)
    buf = (ctype * n).from_address(ptr)
    buf._owner = owner  # the numpy array's base is `buf`, which keeps the model/data alive
    return np.frombuffer(buf, dtype=dtype).reshape(shape)


def _struct_view(cobj, owner, dtype=None):
    """A numpy view of a ctypes array or structure array living inside C memory."""
    cobj._owner = owner
    arr = np.ctypeslib.as_array(cobj)
    return arr if dtype is None else arr.view(dtype)


def _fields(count_fn, field_fn, *args):
    info = _lib.FieldInfo()
    out = {}
    for i in range(count_fn()):
        if not field_fn(*args, i, ctypes.byref(info)):
            break
        out[info.name.decode()] = (info.type, info.rows, info.cols, info.ptr)
    return out


def _check_layout(address, head, fields, first):
    """Check that the ctypes head structure ends where the C struct's first array pointer sits."""
    if first is None:
        return
    ftype, rows, cols, ptr = fields[first]
    if rows * cols <= 0 or not ptr:
        return
    at = ctypes.c_void_p.from_address(address + _lib.first_array_offset(head)).value
    if at != ptr:
        raise RuntimeError(f"gauss: the binding's {head.__name__} does not match the C library's "
                           "struct layout; rebuild the package")


class _FieldAccess:
    """Attribute access to the arrays listed by the library, built on first use, then cached."""

    def __getattr__(self, name):
        info = self.__dict__.get("_fieldinfo", {}).get(name)
        if info is None:
            raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")
        arr = _view(info[3], info[0], info[1], info[2], self)
        self.__dict__[name] = arr
        return arr

    def __setattr__(self, name, value):
        if name in self.__dict__.get("_fieldinfo", {}):
            getattr(self, name)[...] = value
        else:
            object.__setattr__(self, name, value)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self.__dict__.get("_fieldinfo", {})))

    def field_names(self):
        """The names of the arrays, in the library's order."""
        return list(self.__dict__.get("_fieldinfo", {}))


# ---- options ----

class Option:
    """gsOption of a model: reads and writes go straight to the C struct."""

    _names = tuple(f[0] for f in _lib.Option._fields_)

    def __init__(self, cstruct, owner):
        object.__setattr__(self, "_s", cstruct)
        object.__setattr__(self, "_owner", owner)

    def __getattr__(self, name):
        if name not in Option._names:
            raise AttributeError(f"Option has no attribute {name!r}")
        value = getattr(self._s, name)
        if isinstance(value, ctypes.Array):
            value = _struct_view(value, self._owner)
        return value

    def __setattr__(self, name, value):
        if name not in Option._names:
            raise AttributeError(f"Option has no attribute {name!r}")
        current = getattr(self._s, name)
        if isinstance(current, ctypes.Array):
            _struct_view(current, self._owner)[...] = value
        else:
            setattr(self._s, name, operator.index(value) if isinstance(current, int)
                    else float(value))

    def __dir__(self):
        return list(Option._names)

    def __repr__(self):
        parts = []
        for name in Option._names:
            v = getattr(self, name)
            parts.append(f"{name}={v.tolist() if isinstance(v, np.ndarray) else v}")
        return "Option(" + ", ".join(parts) + ")"


# ---- named access: m.body("torso").mass, d.joint("hip").qpos ----

_KINDS = {
    # kind: (object type for gs_name2id, size attribute, model prefix)
    "body": (OBJ_BODY, "nbody", "body_"),
    "joint": (OBJ_JOINT, "njnt", "jnt_"),
    "geom": (OBJ_GEOM, "ngeom", "geom_"),
    "site": (OBJ_SITE, "nsite", "site_"),
}
_JNT_NQ = {JNT_FREE: 7, JNT_BALL: 4, JNT_SLIDE: 1, JNT_HINGE: 1}
_JNT_NV = {JNT_FREE: 6, JNT_BALL: 3, JNT_SLIDE: 1, JNT_HINGE: 1}


class _Named:
    """One body / joint / geom / site: its id, name, and the rows of the arrays that belong to it."""

    def __init__(self, owner, model, kind, key):
        otype, size, _ = _KINDS[kind]
        n = getattr(model, size)
        if isinstance(key, str):
            i = _lib.gs_name2id(model._ptr, otype, key.encode())
            if i < 0:
                raise KeyError(f"no {kind} named {key!r}")
        else:
            i = int(key)
            if i < 0:
                i += n
            if not 0 <= i < n:
                raise IndexError(f"{kind} id {key} out of range (0..{n - 1})")
        object.__setattr__(self, "_owner", owner)
        object.__setattr__(self, "_model", model)
        object.__setattr__(self, "_kind", kind)
        object.__setattr__(self, "id", i)

    @property
    def name(self):
        s = _lib.gs_id2name(self._model._ptr, _KINDS[self._kind][0], self.id)
        return (s or b"").decode()

    def _rows(self, attr):
        """The view for attribute `attr` of this object, or None."""
        owner, model, kind, i = self._owner, self._model, self._kind, self.id
        info = owner._fieldinfo
        size = getattr(model, _KINDS[kind][1])
        if kind == "joint":
            jtype = int(model.jnt_type[i])
            if attr in ("qpos", "qpos0", "qpos_spring") and attr in info:
                adr = int(model.jnt_qposadr[i])
                return getattr(owner, attr)[adr:adr + _JNT_NQ[jtype]]
            dof = "dof_" + attr if isinstance(owner, Model) else attr
            if dof in info and info[dof][1] == model.nv and (dof.startswith(("dof_", "q"))):
                adr = int(model.jnt_dofadr[i])
                return getattr(owner, dof)[adr:adr + _JNT_NV[jtype]]
        prefix = _KINDS[kind][2]
        candidates = [prefix + attr]
        if isinstance(owner, Data) and kind == "body":
            candidates.append(attr)
        elif isinstance(owner, Data) and kind == "joint" and not attr.startswith("q"):
            candidates.append(attr)
        for name in candidates:
            if name in info and info[name][1] == size:
                arr = getattr(owner, name)
                return arr[i:i + 1] if arr.ndim == 1 else arr[i]
        return None

    def __getattr__(self, attr):
        if attr.startswith("_"):
            raise AttributeError(attr)
        rows = self._rows(attr)
        if rows is None:
            raise AttributeError(f"{self._kind} has no attribute {attr!r}")
        return rows

    def __setattr__(self, attr, value):
        rows = self._rows(attr)
        if rows is None:
            raise AttributeError(f"{self._kind} has no attribute {attr!r}")
        rows[...] = value

    def __repr__(self):
        return f"<{type(self._owner).__name__} {self._kind} {self.id} {self.name!r}>"


# ---- model ----

class Model(_FieldAccess):
    """A compiled model (gsModel). Load with Model.from_xml_path / Model.from_xml_string."""

    def __init__(self, ptr, load_warnings=()):
        if not ptr:
            raise ValueError("Model needs a gsModel pointer; use Model.from_xml_path")
        object.__setattr__(self, "_ptr", ctypes.c_void_p(ptr))
        object.__setattr__(self, "_head", _lib.ModelHead.from_address(ptr))
        object.__setattr__(self, "_fieldinfo",
                           _fields(_lib.gs_modelFieldCount, _lib.gs_modelField, self._ptr))
        object.__setattr__(self, "load_warnings", list(load_warnings))
        object.__setattr__(self, "opt", Option(self._head.opt, self))
        _check_layout(ptr, _lib.ModelHead, self._fieldinfo, next(iter(self._fieldinfo), None))

    @staticmethod
    def _warnings():
        s = _lib.gs_loadWarnings()
        return [line for line in (s or b"").decode(errors="replace").splitlines() if line.strip()]

    @classmethod
    def from_xml_path(cls, path):
        err = ctypes.create_string_buffer(1000)
        ptr = _lib.gs_loadXML(str(path).encode(), err, len(err))
        if not ptr:
            raise GaussError(err.value.decode(errors="replace") or f"cannot load {path}")
        return cls(ptr, cls._warnings())

    @classmethod
    def from_xml_string(cls, xml):
        if isinstance(xml, str):
            xml = xml.encode()
        err = ctypes.create_string_buffer(1000)
        ptr = _lib.gs_loadXMLString(xml, err, len(err))
        if not ptr:
            raise GaussError(err.value.decode(errors="replace") or "cannot load the XML string")
        return cls(ptr, cls._warnings())

    def copy(self):
        ptr = _lib.gs_copyModel(self._ptr)
        if not ptr:
            raise MemoryError("gs_copyModel failed")
        return Model(ptr, self.load_warnings)

    __copy__ = copy

    def __deepcopy__(self, memo):
        return self.copy()

    def __del__(self):
        ptr = self.__dict__.get("_ptr")
        if ptr is not None and ptr.value and _lib is not None and _lib.gs_freeModel is not None:
            _lib.gs_freeModel(ptr)
            ptr.value = None

    # sizes
    nq = property(lambda self: self._head.nq, doc="generalized coordinates")
    nv = property(lambda self: self._head.nv, doc="degrees of freedom")
    nu = property(lambda self: self._head.nu, doc="actuators")
    na = property(lambda self: self._head.na, doc="activation states")
    nbody = property(lambda self: self._head.nbody, doc="bodies, including the world body 0")
    njnt = property(lambda self: self._head.njnt, doc="joints")
    ngeom = property(lambda self: self._head.ngeom, doc="geoms")
    nsite = property(lambda self: self._head.nsite, doc="sites")
    nM = property(lambda self: self._head.nM, doc="non-zeros of the sparse mass matrix")
    nnames = property(lambda self: self._head.nnames, doc="bytes of the names buffer")

    def body(self, key):
        return _Named(self, self, "body", key)

    def joint(self, key):
        return _Named(self, self, "joint", key)

    jnt = joint

    def geom(self, key):
        return _Named(self, self, "geom", key)

    def site(self, key):
        return _Named(self, self, "site", key)

    def __repr__(self):
        return (f"<gauss.Model nq={self.nq} nv={self.nv} nu={self.nu} nbody={self.nbody} "
                f"njnt={self.njnt} ngeom={self.ngeom} nsite={self.nsite}>")


# ---- data ----

class Data(_FieldAccess):
    """Simulation state (gsData) for a model; keeps the model alive."""

    def __init__(self, model, _ptr=None):
        if not isinstance(model, Model):
            raise TypeError("Data(model) needs a gauss.Model")
        ptr = _ptr if _ptr is not None else _lib.gs_makeData(model._ptr)
        if not ptr:
            raise MemoryError("gs_makeData failed")
        object.__setattr__(self, "_ptr", ctypes.c_void_p(ptr))
        object.__setattr__(self, "model", model)
        object.__setattr__(self, "_head", _lib.DataHead.from_address(ptr))
        object.__setattr__(self, "_fieldinfo",
                           _fields(_lib.gs_dataFieldCount, _lib.gs_dataField, model._ptr,
                                   self._ptr))
        _check_layout(ptr, _lib.DataHead, self._fieldinfo, next(iter(self._fieldinfo), None))
        wtype = np.dtype([("lastinfo", np.int32), ("number", np.int32)])
        object.__setattr__(self, "energy", _struct_view(self._head.energy, self))
        object.__setattr__(
            self, "warning",
            _struct_view(self._head.warning, self).view(wtype).reshape(GS_NWARNING)
            .view(np.recarray))

    def __del__(self):
        ptr = self.__dict__.get("_ptr")
        if ptr is not None and ptr.value and _lib is not None and _lib.gs_freeData is not None:
            _lib.gs_freeData(ptr)
            ptr.value = None

    @property
    def time(self):
        return self._head.time

    @time.setter
    def time(self, value):
        self._head.time = float(value)

    narena = property(lambda self: self._head.narena, doc="arena size in bytes")
    pstack = property(lambda self: self._head.pstack, doc="arena bytes in use")
    maxuse = property(lambda self: self._head.maxuse, doc="arena high-water mark in bytes")

    def __setattr__(self, name, value):
        if name in ("energy", "warning"):
            getattr(self, name)[...] = value
        else:
            super().__setattr__(name, value)

    def copy(self):
        return copy_data(self.model, self)

    __copy__ = copy

    def __deepcopy__(self, memo):
        return self.copy()

    def body(self, key):
        return _Named(self, self.model, "body", key)

    def joint(self, key):
        return _Named(self, self.model, "joint", key)

    jnt = joint

    def geom(self, key):
        return _Named(self, self.model, "geom", key)

    def site(self, key):
        return _Named(self, self.model, "site", key)

    def __repr__(self):
        return f"<gauss.Data time={self.time}>"


# ---- functions ----

def _check(m, d):
    if d.model is not m and d.model._ptr.value != m._ptr.value:
        raise ValueError("the data was made for another model")


def _vec(x, n, what):
    a = np.ascontiguousarray(x, dtype=np.float64)
    if a.size != n:
        raise ValueError(f"{what} must have {n} elements, got {a.size}")
    return a


def forward(m, d):
    """Everything up to qacc, no integration."""
    _check(m, d)
    _lib.gs_forward(m._ptr, d._ptr)


def step(m, d, nstep=1):
    """Advance the simulation by `nstep` steps."""
    _check(m, d)
    f, mp, dp = _lib.gs_step, m._ptr, d._ptr
    for _ in range(int(nstep)):
        f(mp, dp)


def step1(m, d):
    """Position and velocity stages; set ctrl after, then call step2."""
    _check(m, d)
    _lib.gs_step1(m._ptr, d._ptr)


def step2(m, d):
    """Force stage and integration."""
    _check(m, d)
    _lib.gs_step2(m._ptr, d._ptr)


def reset_data(m, d):
    """qpos = qpos0, everything else zero."""
    _check(m, d)
    _lib.gs_resetData(m._ptr, d._ptr)


def copy_data(m, d):
    """A new Data holding a copy of `d`."""
    _check(m, d)
    ptr = _lib.gs_copyData(None, m._ptr, d._ptr)
    if not ptr:
        raise MemoryError("gs_copyData failed")
    return Data(m, _ptr=ptr)


def _stage(cfunc):
    def run(m, d):
        _check(m, d)
        cfunc(m._ptr, d._ptr)
    return run


kinematics = _stage(_lib.gs_kinematics)
com_pos = _stage(_lib.gs_comPos)
crb = _stage(_lib.gs_crb)
factor_M = _stage(_lib.gs_factorM)
com_vel = _stage(_lib.gs_comVel)
passive = _stage(_lib.gs_passive)
fwd_position = _stage(_lib.gs_fwdPosition)
fwd_velocity = _stage(_lib.gs_fwdVelocity)
fwd_acceleration = _stage(_lib.gs_fwdAcceleration)


def rne(m, d, with_acc=True):
    """Recursive Newton-Euler: the bias forces (with_acc False) or the inverse dynamics (True)."""
    _check(m, d)
    out = np.zeros(m.nv)
    _lib.gs_rne(m._ptr, d._ptr, 1 if with_acc else 0, out)
    return out


def energy_pos(m, d):
    """Potential energy, also written to d.energy[0]."""
    _check(m, d)
    _lib.gs_energyPos(m._ptr, d._ptr)
    return float(d.energy[0])


def energy_vel(m, d):
    """Kinetic energy, also written to d.energy[1]."""
    _check(m, d)
    _lib.gs_energyVel(m._ptr, d._ptr)
    return float(d.energy[1])


def full_M(m, d):
    """The dense (nv, nv) mass matrix from d.qM."""
    _check(m, d)
    dst = np.zeros((m.nv, m.nv))
    if m.nv:
        _lib.gs_fullM(m._ptr, dst, d.qM)
    return dst


def mul_M(m, d, vec):
    """M @ vec."""
    _check(m, d)
    y = _vec(vec, m.nv, "vec")
    res = np.zeros(m.nv)
    if m.nv:
        _lib.gs_mulM(m._ptr, d._ptr, res, y)
    return res


def solve_M(m, d, vec):
    """M^-1 vec, using the factorisation in d (qLD). `vec` is (nv,) or (n, nv)."""
    _check(m, d)
    y = np.ascontiguousarray(vec, dtype=np.float64)
    if y.ndim not in (1, 2) or y.shape[-1] != m.nv:
        raise ValueError(f"vec must have shape (nv,) or (n, nv) with nv = {m.nv}")
    x = np.zeros_like(y)
    n = 1 if y.ndim == 1 else y.shape[0]
    if m.nv and n:
        _lib.gs_solveM(m._ptr, d._ptr, x, y, n)
    return x


def jac(m, d, point, body):
    """Jacobians (jacp, jacr), each 3 x nv, of a world-frame point attached to `body`."""
    _check(m, d)
    if isinstance(body, str):
        body = m.body(body).id
    body = int(body)
    if not 0 <= body < m.nbody:
        raise IndexError(f"body id {body} out of range (0..{m.nbody - 1})")
    p = _vec(point, 3, "point")
    jacp = np.zeros((3, m.nv))
    jacr = np.zeros((3, m.nv))
    _lib.gs_jac(m._ptr, d._ptr, jacp, jacr, p, body)
    return jacp, jacr


def print_model(m, path=None):
    """Write every field of the model, readable, to `path` (stdout when None)."""
    ok = _lib.gs_printModel(m._ptr, None if path is None else str(path).encode())
    if not ok:
        raise OSError(f"gs_printModel could not write {path}")


def print_data(m, d, path=None):
    """Write every field of the data, readable, to `path` (stdout when None)."""
    _check(m, d)
    ok = _lib.gs_printData(m._ptr, d._ptr, None if path is None else str(path).encode())
    if not ok:
        raise OSError(f"gs_printData could not write {path}")
