"""gauss: multi-joint dynamics, a ctypes binding of libgauss.

    import gauss
    m = gauss.Model.from_xml_path("pendulum.xml")
    d = gauss.Data(m)
    gauss.step(m, d, 1000)
    print(d.time, d.qpos, d.body("pole").xpos)

Every array of the model and the data is a numpy view of the engine's memory: writing into it
(d.qpos[:] = ..., d.ctrl[0] = ...) changes what the engine sees. The model's structural arrays
(types, ids, addresses, counts, tree links, names: gauss.is_structural) are read-only views, since
the engine indexes memory with them; parameters (masses, sizes, friction, gains, ...) are writable. The list of arrays comes from the
library itself (gs_modelField / gs_dataField), so it is never repeated here; so do the sizes
(gs_modelSize: m.nq, m.ntendon, ...), whatever the build has.

Named access, as in MuJoCo's bindings: m.body("torso").mass, m.actuator("a").gear,
d.body("torso").xpos, d.joint("hip").qpos, d.sensor("s").data; m.body(3) by id.

Models travel as bytes: m.to_binary(), Model.from_binary(b), Model.from_binary_path(path), and
pickling uses the binary format. m.to_xml() / m.save_xml(path) write an equivalent MJCF document.
"""

# imported under private names: the package's namespace holds only gauss's own names
import ctypes as _ctypes
import difflib as _difflib
import operator as _operator
import weakref as _weakref

import numpy as _np

from . import _fielddoc, _lib

_GS_NWARNING = 12  # gsWarning in data.h; Data checks it against the library
_GS_NTIMER = 11  # gsTimer in data.h; Data checks it against the library

__version__ = "0.1.0"

__all__ = [
    "GaussError", "StructuralFieldError", "StructuralArray", "is_structural", "Model", "Data", "Option",
    "forward", "forward_skip", "inverse", "inverse_skip", "step", "step1", "step2", "contact_force", "reset_data", "reset_data_keyframe", "copy_data",
    "kinematics", "com_pos", "crb", "factor_M", "com_vel", "passive", "rne",
    "fwd_position", "fwd_velocity", "fwd_actuation", "fwd_acceleration",
    "rne_post_constraint", "subtree_vel", "set_sensor_callback", "sensor_pos", "sensor_vel", "sensor_acc",
    "energy_pos", "energy_vel", "set_timer", "full_M", "mul_M", "solve_M", "mul_M2", "solve_M2",
    "jac", "jac_body", "jac_body_com", "jac_site", "jac_geom", "jac_subtree_com", "jac_point_axis",
    "jac_dot", "integrate_pos", "differentiate_pos",
    "print_model", "print_data", "OBJECT_KINDS", "set_callbacks", "get_callbacks",
    "UnknownNameError", "name2id", "id2name", "ray", "geom_distance", "field_doc",
    "transition_fd",
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
 WARN_BADQACC, WARN_BADCTRL, WARN_BADSOLREF, WARN_BADOPTION, WARN_BADCONTACT,
 WARN_STIFFINVERSE) = range(_GS_NWARNING)
NWARNING = _GS_NWARNING
# lastinfo of WARN_BADOPTION: which option (gsOptionCode in data.h)
(OPTION_INTEGRATOR, OPTION_CONE, OPTION_JACOBIAN, OPTION_SOLVER, OPTION_ITERATIONS,
 OPTION_LS_ITERATIONS, OPTION_NOSLIP_ITERATIONS, OPTION_CCD_ITERATIONS) = range(8)

# stage timers (gsTimer in data.h): rows of Data.timer
(TIMER_STEP, TIMER_FORWARD, TIMER_POS_KINEMATICS, TIMER_POS_INERTIA, TIMER_POS_COLLISION,
 TIMER_POS_MAKE, TIMER_VEL_REFERENCE, TIMER_CONSTRAINT, TIMER_ACTUATION, TIMER_PASSIVE,
 TIMER_SENSOR) = range(_GS_NTIMER)
NTIMER = _GS_NTIMER

# object types, numbered as in include/gauss/gauss.h (gsObject), as MJCF's mjtObj
(OBJ_UNKNOWN, OBJ_BODY, OBJ_XBODY, OBJ_JOINT, OBJ_DOF, OBJ_GEOM, OBJ_SITE, OBJ_CAMERA, OBJ_LIGHT,
 OBJ_FLEX, OBJ_MESH, OBJ_SKIN, OBJ_HFIELD, OBJ_TEXTURE, OBJ_MATERIAL, OBJ_PAIR, OBJ_EXCLUDE,
 OBJ_EQUALITY, OBJ_TENDON, OBJ_ACTUATOR, OBJ_SENSOR, OBJ_NUMERIC, OBJ_TEXT, OBJ_TUPLE, OBJ_KEY,
 OBJ_PLUGIN) = range(26)
TYPE_REAL, TYPE_INT, TYPE_CHAR = range(3)
# gsStage (fields_sensing.h): the stages gs_forwardSkip and gs_inverseSkip may leave as computed
STAGE_NONE, STAGE_POS, STAGE_VEL, STAGE_ACC = range(4)

# MJCF's <flag> names, indexed by bit number, as the library spells them
DISABLE_NAMES = _lib.flag_names("gs_disable_names", NDISABLE)
ENABLE_NAMES = _lib.flag_names("gs_enable_names", NENABLE)

# the constants above are public too (tests/python/test_surface.py checks that __all__ holds
# every public name and nothing else)
__all__ += sorted(n for n in list(globals()) if n.isupper() and not n.startswith("_"))


class GaussError(ValueError):
    """A model could not be loaded (the message names the file, line and element)."""


class StructuralFieldError(GaussError):
    """A write into a structural field of a compiled model (a type, id, address, count, tree link
    or name): the engine indexes memory with these, so they are read-only views."""


# ---- which model arrays are structural ----
# Integer and text arrays of the model say how the model is laid out: types and other enums
# (*type, *_mode, mesh_inertia, tex_colorspace, *_sameframe, sensor_needstage), ids (*id,
# pair_geom1/2, *_plugin, *_signature), addresses and counts (*adr, *num, *_size, *dim,
# sensor_intprm, hfield_nrow/ncol, tex_height/width/nchannel), index arrays (mesh_face,
# mesh_graph) and names (names, paths, text_data, read as NUL-terminated strings). The engine
# indexes memory with them, so a write could send it out of bounds: they are read-only. The
# exceptions are the integer parameters below, flags and masks that select behaviour without
# indexing anything. Real arrays are parameters and stay writable.
_WRITABLE_INT_SUFFIXES = ("_group", "limited")
_WRITABLE_INT_FIELDS = frozenset({
    "geom_contype", "geom_conaffinity", "geom_priority", "actuator_actearly", "eq_active0",
    "cam_orthographic", "cam_resolution", "light_castshadow", "light_active", "mat_texuniform",
    "mesh_maxhullvert", "jnt_actgravcomp",
})


def is_structural(name, ftype):
    """Whether the model array `name` of type `ftype` (TYPE_*) is structural (read-only)."""
    if ftype == TYPE_REAL:
        return False
    if ftype == TYPE_CHAR:
        return True
    return not (name in _WRITABLE_INT_FIELDS or name.endswith(_WRITABLE_INT_SUFFIXES))


def _structural_message(name):
    return (f"{name} is a structural field of the compiled model (types, ids, addresses, counts "
            "and names are read-only): edit the model through its spec or MJCF and compile it "
            "again")


# ---- numpy views of C memory ----

_CTYPES = {TYPE_REAL: (_ctypes.c_double, _np.float64),
           TYPE_INT: (_ctypes.c_int32, _np.int32),
           TYPE_CHAR: (_ctypes.c_uint8, _np.uint8)}


class StructuralArray(_np.ndarray):
    """A read-only view of a structural model field: writing into it raises
    StructuralFieldError, naming the field. Copies (a.copy(), _np.array(a)) are ordinary arrays."""

    def __array_finalize__(self, obj):
        self._field = getattr(obj, "_field", None)

    def __setitem__(self, key, value):
        if not self.flags.writeable and self._field:
            raise StructuralFieldError(_structural_message(self._field))
        super().__setitem__(key, value)

    def __array_ufunc__(self, ufunc, method, *inputs, out=None, **kwargs):
        # in-place arithmetic (m.geom_type += 1) writes through `out`
        if out is not None:
            for o in out:
                if isinstance(o, StructuralArray) and not o.flags.writeable and o._field:
                    raise StructuralFieldError(_structural_message(o._field))
            kwargs["out"] = tuple(o.view(_np.ndarray) if isinstance(o, StructuralArray) else o
                                  for o in out)
        inputs = tuple(x.view(_np.ndarray) if isinstance(x, StructuralArray) else x
                       for x in inputs)
        return getattr(ufunc, method)(*inputs, **kwargs)

    def copy(self, order="C"):
        """An ordinary (writable) numpy copy."""
        return _np.array(self, order=order, subok=False)

    def __reduce__(self):
        return _np.asarray(self).copy().__reduce__()


class _Memory:
    """Owner of one block of C memory (a gsModel or a gsData): frees it when the last reference
    goes. Every numpy view keeps the _Memory of its block alive (its base holds it), never the
    Model or Data object, so that the views the objects cache create no reference cycle (numpy
    arrays are invisible to the cycle collector: a cycle through one is never freed). `keep`
    holds what must outlive the block (a Data's memory keeps its model's memory)."""

    __slots__ = ("ptr", "_free", "keep")

    def __init__(self, ptr, free, keep=None):
        self.ptr = ptr
        self._free = free
        self.keep = keep

    def __del__(self):
        ptr = self.ptr
        if ptr is not None and ptr.value and _lib is not None and self._free is not None:
            self._free(ptr)
            ptr.value = None


def _view(ptr, ftype, rows, cols, owner, structural=None):
    """A numpy array on `rows * cols` elements at `ptr`, keeping `owner` alive while it lives;
    with `structural` (the field's name), a read-only StructuralArray."""
    ctype, dtype = _CTYPES[ftype]
    shape = (rows,) if cols == 1 else (rows, cols)
    n = rows * cols
    if n <= 0 or not ptr:
        arr = _np.zeros(shape, dtype)
    else:
        buf = (ctype * n).from_address(ptr)
        buf._owner = owner  # the numpy array's base is `buf`, which keeps the model/data alive
        if structural:
            # through a read-only buffer, so that the flag cannot be turned back on
            buf = memoryview(buf).toreadonly()
        arr = _np.frombuffer(buf, dtype=dtype).reshape(shape)
    if structural:
        arr = arr.view(StructuralArray)
        arr._field = structural
        arr.flags.writeable = False
    return arr


def _owned(cobj, owner):
    """cobj, keeping `owner` alive while it or a numpy view on it lives"""
    cobj._owner = owner
    return cobj


def _struct_view(cobj, owner, dtype=None):
    """A numpy view of a ctypes array or structure array living inside C memory."""
    cobj._owner = owner
    arr = _np.ctypeslib.as_array(cobj)
    return arr if dtype is None else arr.view(dtype)


def _fields(count_fn, field_fn, rows_fn, *args):
    """name -> (type, rows, cols, ptr, rows size name) of every array the library lists."""
    info = _lib.FieldInfo()
    out = {}
    for i in range(count_fn()):
        if not field_fn(*args, i, _ctypes.byref(info)):
            break
        rows = rows_fn(i)
        out[info.name.decode()] = (info.type, info.rows, info.cols, info.ptr,
                                   rows.decode() if rows else "")
    return out


# the names and row sizes of the data's fields (the same for every data), and the numpy layout of
# gsFieldInfo, so that a new Data reads its whole field table with one call (gs_dataFields)
_data_names = None
_FIELDINFO_DTYPE = _np.dtype({
    "names": [n for n, _ in _lib.FieldInfo._fields_],
    "formats": [_np.uint64, _np.int32, _np.int32, _np.int32, _np.uint64],
    "offsets": [getattr(_lib.FieldInfo, n).offset for n, _ in _lib.FieldInfo._fields_],
    "itemsize": _ctypes.sizeof(_lib.FieldInfo)})


def _data_fields(model_ptr, data_ptr):
    """_fields of a data, from one call to the library."""
    global _data_names
    if _data_names is None:
        table = _fields(_lib.gs_dataFieldCount, _lib.gs_dataField, _lib.gs_dataFieldRows,
                        model_ptr, data_ptr)
        _data_names = [(name, info[4]) for name, info in table.items()]
        return table
    n = len(_data_names)
    buf = (_lib.FieldInfo * n)()
    k = _lib.gs_dataFields(model_ptr, data_ptr, buf, n)
    a = _np.frombuffer(buf, dtype=_FIELDINFO_DTYPE)[:k]
    ptrs = [p or None for p in a["ptr"].tolist()]  # as ctypes reads a NULL c_void_p
    return {name: (t, r, c, p, rows) for (name, rows), t, r, c, p in
            zip(_data_names, a["type"].tolist(), a["rows"].tolist(), a["cols"].tolist(), ptrs)}


def _sizes(ptr):
    """name -> value of every size of the model, in the library's order."""
    out = {}
    value = _ctypes.c_int()
    for i in range(_lib.gs_modelSizeCount()):
        name = _lib.gs_modelSize(ptr, i, _ctypes.byref(value))
        if name is None:
            break
        out[name.decode()] = value.value
    return out


class _FieldAccess:
    """Attribute access to the arrays listed by the library, built on first use, then cached."""

    def __getattr__(self, name):
        info = self.__dict__.get("_fieldinfo", {}).get(name)
        if info is None:
            raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")
        structural = name if name in self.__dict__.get("_structural", ()) else None
        arr = _view(info[3], info[0], info[1], info[2], self.__dict__["_mem"], structural)
        self.__dict__[name] = arr
        return arr

    def __setattr__(self, name, value):
        if name in self.__dict__.get("_structural", ()):
            raise StructuralFieldError(_structural_message(name))
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
        if isinstance(value, _ctypes.Array):
            value = _struct_view(value, self._owner)
        return value

    # the enumerations (model.h) and their valid values; the iteration counts and their least
    # values
    _ENUMS = {
        "integrator": {"Euler": INT_EULER, "RK4": INT_RK4, "implicit": INT_IMPLICIT,
                       "implicitfast": INT_IMPLICITFAST},
        "cone": {"pyramidal": CONE_PYRAMIDAL, "elliptic": CONE_ELLIPTIC},
        "jacobian": {"dense": JAC_DENSE, "sparse": JAC_SPARSE, "auto": JAC_AUTO},
        "solver": {"PGS": SOL_PGS, "CG": SOL_CG, "Newton": SOL_NEWTON},
    }
    _LEAST = {"iterations": 0, "ls_iterations": 0, "noslip_iterations": 0, "ccd_iterations": 0}

    def __setattr__(self, name, value):
        if name not in Option._names:
            raise AttributeError(f"Option has no attribute {name!r}")
        current = getattr(self._s, name)
        if isinstance(current, _ctypes.Array):
            _struct_view(current, self._owner)[...] = value
            return
        if not isinstance(current, int):
            setattr(self._s, name, float(value))
            return
        enum = Option._ENUMS.get(name)
        if enum is not None and isinstance(value, str):
            if value not in enum:
                raise ValueError(f"opt.{name} = {value!r}: valid values are "
                                 + ", ".join(f"{k!r} ({v})" for k, v in enum.items()))
            value = enum[value]
        value = _operator.index(value)
        if enum is not None and value not in enum.values():
            raise ValueError(f"opt.{name} = {value}: valid values are "
                             + ", ".join(f"{v} ({k})" for k, v in enum.items()))
        least = Option._LEAST.get(name)
        if least is not None and value < least:
            raise ValueError(f"opt.{name} = {value}: must be at least {least}")
        if name in ("disableflags", "enableflags"):
            nbit = NDISABLE if name == "disableflags" else NENABLE
            if value < 0 or value >> nbit:
                raise ValueError(f"opt.{name} = {value}: only the low {nbit} bits are flags")
        if not -2**31 <= value < 2**31:
            raise ValueError(f"opt.{name} = {value}: out of the range of a C int")
        setattr(self._s, name, value)

    def __dir__(self):
        return list(Option._names)

    def __repr__(self):
        parts = []
        for name in Option._names:
            v = getattr(self, name)
            parts.append(f"{name}={v.tolist() if isinstance(v, _np.ndarray) else v}")
        return "Option(" + ", ".join(parts) + ")"


# ---- named access: m.body("torso").mass, d.joint("hip").qpos ----

class _Kind:
    """One kind of named object: its gsObject type, its count, the prefixes of its model and data
    arrays (MuJoCo's), and how data arrays of other sizes are sliced for it."""

    def __init__(self, name, otype, size, model_prefix, data_prefixes=()):
        self.name = name
        self.otype = otype
        self.size = size
        self.model_prefix = model_prefix
        self.data_prefixes = data_prefixes


# every object type with a name_*adr field, with MuJoCo's accessor names
_KIND_LIST = [
    (_Kind("body", OBJ_BODY, "nbody", "body_", ("", "body_")), ("body",)),
    (_Kind("joint", OBJ_JOINT, "njnt", "jnt_", ("", "jnt_")), ("joint", "jnt")),
    (_Kind("geom", OBJ_GEOM, "ngeom", "geom_", ("geom_",)), ("geom",)),
    (_Kind("site", OBJ_SITE, "nsite", "site_", ("site_",)), ("site",)),
    (_Kind("camera", OBJ_CAMERA, "ncam", "cam_", ("cam_",)), ("camera", "cam")),
    (_Kind("light", OBJ_LIGHT, "nlight", "light_", ("light_",)), ("light",)),
    (_Kind("mesh", OBJ_MESH, "nmesh", "mesh_"), ("mesh",)),
    (_Kind("hfield", OBJ_HFIELD, "nhfield", "hfield_"), ("hfield",)),
    (_Kind("texture", OBJ_TEXTURE, "ntex", "tex_"), ("texture", "tex")),
    (_Kind("material", OBJ_MATERIAL, "nmat", "mat_"), ("material", "mat")),
    (_Kind("pair", OBJ_PAIR, "npair", "pair_"), ("pair",)),
    (_Kind("exclude", OBJ_EXCLUDE, "nexclude", "exclude_"), ("exclude",)),
    (_Kind("equality", OBJ_EQUALITY, "neq", "eq_", ("eq_",)), ("equality", "eq")),
    (_Kind("tendon", OBJ_TENDON, "ntendon", "tendon_", ("ten_", "tendon_")), ("tendon", "ten")),
    (_Kind("actuator", OBJ_ACTUATOR, "nu", "actuator_", ("", "actuator_")), ("actuator",)),
    (_Kind("sensor", OBJ_SENSOR, "nsensor", "sensor_", ("sensor_",)), ("sensor",)),
    (_Kind("numeric", OBJ_NUMERIC, "nnumeric", "numeric_"), ("numeric",)),
    (_Kind("text", OBJ_TEXT, "ntext", "text_"), ("text",)),
    (_Kind("tuple", OBJ_TUPLE, "ntuple", "tuple_"), ("tuple",)),
    (_Kind("key", OBJ_KEY, "nkey", "key_"), ("key", "keyframe")),
]
_KINDS = {k.name: k for k, _ in _KIND_LIST}
# accessor name -> kind, for Model and Data
OBJECT_KINDS = {alias: k.name for k, aliases in _KIND_LIST for alias in aliases}

_JNT_NQ = {JNT_FREE: 7, JNT_BALL: 4, JNT_SLIDE: 1, JNT_HINGE: 1}
_JNT_NV = {JNT_FREE: 6, JNT_BALL: 3, JNT_SLIDE: 1, JNT_HINGE: 1}


def _segment(model, adr_field, num_field, i):
    """(start, length) of object i's part of an array addressed by two model fields, or None."""
    if adr_field not in model._fieldinfo or num_field not in model._fieldinfo:
        return None
    adr = int(getattr(model, adr_field)[i])
    num = int(getattr(model, num_field)[i])
    return (adr, num) if num > 0 and adr >= 0 else (0, 0)


# the name address field and count of each object type (gs_name2id's table in src/model/model.c);
# types without names (dofs, flexes, skins, plugins) are counted by their size
_NAME_FIELDS = {
    OBJ_BODY: "name_bodyadr", OBJ_XBODY: "name_bodyadr", OBJ_JOINT: "name_jntadr",
    OBJ_GEOM: "name_geomadr", OBJ_SITE: "name_siteadr", OBJ_CAMERA: "name_camadr",
    OBJ_LIGHT: "name_lightadr", OBJ_MESH: "name_meshadr", OBJ_HFIELD: "name_hfieldadr",
    OBJ_TEXTURE: "name_texadr", OBJ_MATERIAL: "name_matadr", OBJ_PAIR: "name_pairadr",
    OBJ_EXCLUDE: "name_excludeadr", OBJ_EQUALITY: "name_eqadr", OBJ_TENDON: "name_tendonadr",
    OBJ_ACTUATOR: "name_actuatoradr", OBJ_SENSOR: "name_sensoradr",
    OBJ_NUMERIC: "name_numericadr", OBJ_TEXT: "name_textadr", OBJ_TUPLE: "name_tupleadr",
    OBJ_KEY: "name_keyadr",
}
_UNNAMED_SIZES = {OBJ_DOF: "nv", OBJ_FLEX: "nflex", OBJ_SKIN: "nskin", OBJ_PLUGIN: "nplugin"}
_OBJ_NAMES = ("unknown", "body", "xbody", "joint", "dof", "geom", "site", "camera", "light",
              "flex", "mesh", "skin", "hfield", "texture", "material", "pair", "exclude",
              "equality", "tendon", "actuator", "sensor", "numeric", "text", "tuple", "key",
              "plugin")


class UnknownNameError(KeyError):
    """No object of this type has this name; the message lists the close valid names.
    Attributes: objtype (the type's name), name, and close (the close names, best first)."""

    def __init__(self, objtype, name, valid):
        close = _difflib.get_close_matches(str(name), list(valid), n=5, cutoff=0.6)
        msg = f"no {objtype} named {name!r}"
        if close:
            msg += "; close names: " + ", ".join(repr(c) for c in close)
        elif valid:
            shown = sorted(valid)[:10]
            msg += (f"; the {len(valid)} {objtype} names are " if len(valid) <= 10 else
                    f"; {len(valid)} {objtype} names, the first: ") + ", ".join(map(repr, shown))
        else:
            msg += f" (the model has no named {objtype})"
        super().__init__(msg)
        self.objtype, self.name, self.close = objtype, name, close

    def __str__(self):
        return self.args[0]


def _objtype(objtype):
    """An OBJ_* number from a number or a type name ("body", "joint", ...)."""
    if isinstance(objtype, str):
        name = OBJECT_KINDS.get(objtype, objtype)
        if name not in _OBJ_NAMES:
            raise ValueError(f"unknown object type {objtype!r}; types: {', '.join(_OBJ_NAMES[1:])}")
        return _OBJ_NAMES.index(name)
    t = _operator.index(objtype)
    if not 0 <= t < len(_OBJ_NAMES):
        raise ValueError(f"object type {t} out of range (OBJ_UNKNOWN..OBJ_PLUGIN: 0..{len(_OBJ_NAMES) - 1})")
    return t


def _obj_count(m, otype):
    field = _NAME_FIELDS.get(otype)
    if field is not None:
        info = m._fieldinfo.get(field)
        return info[1] if info else 0
    return m._sizes.get(_UNNAMED_SIZES.get(otype), 0)


def _name_ids(m, otype):
    """name -> id of the named objects of type `otype`, made once per model (the names of a
    compiled model are read-only); the first object with a name wins, as in gs_name2id."""
    cache = m.__dict__.setdefault("_name_ids", {})
    table = cache.get(otype)
    if table is None:
        table = {}
        if otype in _NAME_FIELDS:
            for i in range(_obj_count(m, otype)):
                s = _lib.gs_id2name(m._ptr, otype, i)
                if s:
                    table.setdefault(s.decode(errors="replace"), i)
        cache[otype] = table
    return table


def name2id(m, objtype, name):
    """The id of the object of type `objtype` (OBJ_BODY, ... or "body") named `name`, or -1 when
    none is (MuJoCo's mj_name2id)."""
    return _name_ids(m, _objtype(objtype)).get(name, -1)


def id2name(m, objtype, id):
    """The name of object `id` of type `objtype`, or None when it has none (MuJoCo's
    mj_id2name); IndexError for an id outside 0..n-1."""
    t = _objtype(objtype)
    n = _obj_count(m, t)
    i = _operator.index(id)
    if not 0 <= i < n:
        raise IndexError(f"{_OBJ_NAMES[t]} id {i} out of range: the model has {n} (0..{n - 1})")
    s = _lib.gs_id2name(m._ptr, t, i)
    return s.decode(errors="replace") if s else None


def _lookup(model, k, key):
    """The id of the `k` object given by name or index (negative from the end)."""
    n = model._sizes[k.size]
    if isinstance(key, str):
        names = _name_ids(model, k.otype)
        i = names.get(key)
        if i is None:
            raise UnknownNameError(k.name, key, names)
        return i
    i = _operator.index(key)
    if i < 0:
        i += n
    if not 0 <= i < n:
        raise IndexError(f"{k.name} id {key} out of range: the model has {n} (0..{n - 1})")
    return i


class _Named:
    """One named object (body, joint, actuator, ...): its id, name, and the rows of the arrays
    that belong to it, as attributes without the kind's prefix (m.actuator("a").gear). The
    attributes are views: writing into them writes the model or the data. Each view is made on
    first use and kept on the object, which its Model or Data keeps per name and id, so that a
    repeated d.body("torso").xpos is two dictionary look-ups. The object refers to its owner
    weakly (the owner keeps it: no cycle)."""

    def __init__(self, owner, model, kind, key):
        k = _KINDS[kind]
        if k.size not in model._sizes:
            raise AttributeError(f"this build of gauss has no {kind} objects ({k.size})")
        i = _lookup(model, k, key)
        object.__setattr__(self, "_ref", _weakref.ref(owner))
        object.__setattr__(self, "_is_model", owner is model)
        object.__setattr__(self, "_mptr", model._ptr)
        object.__setattr__(self, "_mmem", model._mem)  # the name below reads model memory
        object.__setattr__(self, "_kind", k)
        object.__setattr__(self, "id", i)
        object.__setattr__(self, "_attrs", None)

    @property
    def name(self):
        s = _lib.gs_id2name(self._mptr, self._kind.otype, self.id)
        return (s or b"").decode()

    def _owner(self):
        owner = self._ref()
        if owner is None:
            raise ReferenceError(f"the {'Model' if self._is_model else 'Data'} of this "
                                 f"{self._kind.name} is gone (views taken before remain valid)")
        return owner

    def _table(self):
        """attribute -> (field, how) where how is 'row', or a (start, length) slice."""
        if self._attrs is not None:
            return self._attrs
        owner = self._owner()
        is_model = self._is_model
        model = owner if is_model else owner.model
        k, i = self._kind, self.id
        table = {}
        prefixes = (k.model_prefix,) if is_model else k.data_prefixes
        # rows that follow this kind's count, named without the prefix
        for field, info in owner._fieldinfo.items():
            if info[4] != k.size:
                continue
            for prefix in prefixes:
                if field.startswith(prefix) and len(field) > len(prefix):
                    table.setdefault(field[len(prefix):], (field, "row"))
                    break
        # slices of arrays of other sizes that belong to the object
        if k.name == "joint":
            jtype = int(model.jnt_type[i])
            qpos = (int(model.jnt_qposadr[i]), _JNT_NQ.get(jtype, 1))
            dofs = (int(model.jnt_dofadr[i]), _JNT_NV.get(jtype, 1))
            for field, info in owner._fieldinfo.items():
                if info[4] == "nq":
                    table.setdefault(field, (field, qpos))
                elif info[4] == "nv":
                    name = field[4:] if is_model and field.startswith("dof_") else field
                    table.setdefault(name, (field, dofs))
        elif k.name == "sensor" and not is_model:
            seg = _segment(model, "sensor_adr", "sensor_dim", i)
            if seg and "sensordata" in owner._fieldinfo:
                table["data"] = ("sensordata", seg)
        elif k.name == "actuator" and not is_model:
            seg = _segment(model, "actuator_actadr", "actuator_actnum", i)
            if seg:
                for field in ("act", "act_dot"):
                    if field in owner._fieldinfo:
                        table[field] = (field, seg)
        elif k.name == "tendon" and not is_model:
            # the dense tendon Jacobian is stored flat, ntendon x nv
            info = owner._fieldinfo.get("ten_J")
            if info and info[1] * info[2] == model.ntendon * model.nv:
                table["J"] = ("ten_J", (i * model.nv, model.nv))
        elif k.name == "numeric" and is_model:
            seg = _segment(model, "numeric_adr", "numeric_size", i)
            if seg and "numeric_data" in owner._fieldinfo:
                table["data"] = ("numeric_data", seg)
        elif k.name == "tuple" and is_model:
            seg = _segment(model, "tuple_adr", "tuple_size", i)
            if seg:
                for f in ("objtype", "objid", "objprm"):
                    if "tuple_" + f in owner._fieldinfo:
                        table[f] = ("tuple_" + f, seg)
        elif k.name == "text" and is_model:
            seg = _segment(model, "text_adr", "text_size", i)
            if seg and "text_data" in owner._fieldinfo:
                table["data"] = ("text_data", seg)
        object.__setattr__(self, "_attrs", table)
        return table

    def _view(self, attr):
        entry = self._table().get(attr)
        if entry is None:
            return None
        field, how = entry
        arr = getattr(self._owner(), field)
        if how == "row":
            v = arr[self.id:self.id + 1] if arr.ndim == 1 else arr[self.id]
        else:
            start, n = how
            v = arr[start:start + n]
        object.__setattr__(self, attr, v)  # later reads find it in __dict__
        return v

    def __getattr__(self, attr):
        if attr.startswith("_"):
            raise AttributeError(attr)
        v = self._view(attr)
        if v is None:
            raise AttributeError(f"{self._kind.name} has no attribute {attr!r}; it has "
                                 + ", ".join(sorted(self._table())))
        return v

    def __setattr__(self, attr, value):
        v = self.__dict__.get(attr)
        if v is None:
            v = self._view(attr)
        if v is None:
            raise AttributeError(f"cannot set {attr!r} of a {self._kind.name}")
        v[...] = value

    def __dir__(self):
        return sorted(set(self._table()) | {"id", "name"})

    def __repr__(self):
        owner = "Model" if self._is_model else "Data"
        return f"<{owner} {self._kind.name} {self.id} {self.name!r}>"


def _accessor(alias, kind):
    ckey = "_named_" + kind

    def get(self, key):
        cache = self.__dict__.get(ckey)
        if cache is None:
            cache = {}
            object.__setattr__(self, ckey, cache)
        else:
            obj = cache.get(key)
            # (a float equal to an int hashes as it: only str and int keys are served here)
            if obj is not None and (type(key) is str or type(key) is int):
                return obj
        model = self if isinstance(self, Model) else self.model
        k = _KINDS[kind]
        if k.size not in model._sizes:
            raise AttributeError(f"this build of gauss has no {kind} objects ({k.size})")
        i = _lookup(model, k, key)
        obj = cache.get(i)  # by name and by id: one object
        if obj is None:
            obj = cache[i] = _Named(self, model, kind, i)
        if type(key) is str or type(key) is int:
            cache[key] = obj
        return obj
    get.__name__ = alias
    get.__doc__ = (f"The {kind} with this name or id: its id, name, and its rows of the arrays "
                   "as attributes without their prefix (views). An unknown name raises "
                   "UnknownNameError (a KeyError) listing the close names; an id out of range "
                   "IndexError.")
    return get


def _add_accessors(cls):
    for alias, kind in OBJECT_KINDS.items():
        setattr(cls, alias, _accessor(alias, kind))
    return cls


def _load_vfs(assets):
    """A gsVFS holding `assets` ({name: bytes}); the caller frees it."""
    vfs = _lib.gs_vfsNew()
    if not vfs:
        raise MemoryError("gs_vfsNew failed")
    for name, data in assets.items():
        if isinstance(data, str):
            data = data.encode()
        data = bytes(data)
        if not _lib.gs_vfsAdd(vfs, str(name).encode(), data, len(data)):
            _lib.gs_vfsFree(vfs)
            raise GaussError(f"cannot add the in-memory file {name!r} (empty or repeated name)")
    return vfs


def _read_xml(reader, path, xml, assets, confined):
    """Call a C MJCF reader (gs_loadXMLOpt, gs_parseXMLOpt) with the assets in a VFS; returns its
    pointer and the error buffer."""
    err = _ctypes.create_string_buffer(1000)
    vfs = _load_vfs(assets) if assets else None
    try:
        ptr = reader(path, xml, vfs, _lib.GS_LOAD_CONFINED if confined else 0, err, len(err))
    finally:
        if vfs:
            _lib.gs_vfsFree(vfs)
    return ptr, err


# ---- model ----

@_add_accessors
class Model(_FieldAccess):
    """A compiled model (gsModel). Load with Model.from_xml_path / from_xml_string /
    from_binary_path / from_binary. Sizes (m.nq, m.nbody, ...) are those the library lists."""

    def __init__(self, ptr, load_warnings=()):
        if not ptr:
            raise ValueError("Model needs a gsModel pointer; use Model.from_xml_path")
        object.__setattr__(self, "_ptr", _ctypes.c_void_p(ptr))
        object.__setattr__(self, "_mem", _Memory(self._ptr, _lib.gs_freeModel))
        object.__setattr__(self, "_sizes", _sizes(self._ptr))
        object.__setattr__(self, "_fieldinfo",
                           _fields(_lib.gs_modelFieldCount, _lib.gs_modelField,
                                   _lib.gs_modelFieldRows, self._ptr))
        object.__setattr__(self, "_structural",
                           frozenset(n for n, i in self._fieldinfo.items()
                                     if is_structural(n, i[0])))
        object.__setattr__(self, "load_warnings", list(load_warnings))
        object.__setattr__(self, "opt", Option(_lib.gs_modelOption(self._ptr).contents, self._mem))
        # gsStatistic (meaninertia): a ctypes view on the model's struct, keeping its memory
        stat = _lib.gs_modelStatistic(self._ptr).contents
        stat._owner = self._mem
        object.__setattr__(self, "stat", stat)
        # gsVisual (MuJoCo's m.vis, the renderer's part of it): a view the same way
        vis = _lib.gs_modelVisual(self._ptr).contents
        vis._owner = self._mem
        object.__setattr__(self, "vis", vis)

    def __getattr__(self, name):
        sizes = self.__dict__.get("_sizes", {})
        if name in sizes:
            return sizes[name]
        return super().__getattr__(name)

    def __setattr__(self, name, value):
        if name in self.__dict__.get("_sizes", {}):
            raise AttributeError(f"{name} is a size of the compiled model and cannot change")
        super().__setattr__(name, value)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._sizes))

    def size_names(self):
        """The names of the sizes, in the library's order."""
        return list(self._sizes)

    @staticmethod
    def _warnings():
        s = _lib.gs_loadWarnings()
        return [line for line in (s or b"").decode(errors="replace").splitlines() if line.strip()]

    @classmethod
    def _load_xml(cls, path, xml, assets, confined):
        ptr, err = _read_xml(_lib.gs_loadXMLOpt, path, xml, assets, confined)
        if not ptr:
            raise GaussError(err.value.decode(errors="replace") or
                             (f"cannot load {path.decode(errors='replace')}" if path
                              else "cannot load the XML string"))
        return cls(ptr, cls._warnings())

    @classmethod
    def from_xml_path(cls, path, assets=None, confined=False):
        """Load an MJCF file. `assets` ({name: bytes}) holds files the model names (includes,
        meshes, textures): each is looked up there first, by the name the XML writes (or the
        trailing part of its path), then on the disk. `confined=True` (for models from untrusted
        sources) reads files only from the model's directory (after resolving "..", absolute
        paths and links) and from `assets`, and quotes nothing of other files in errors."""
        return cls._load_xml(str(path).encode(), None, assets, confined)

    @classmethod
    def from_xml_string(cls, xml, assets=None, confined=False):
        """Load MJCF text; `assets` as for from_xml_path. `confined=True`: files only from
        `assets`, never from the disk."""
        if isinstance(xml, str):
            xml = xml.encode()
        return cls._load_xml(None, xml, assets, confined)

    @classmethod
    def from_binary_path(cls, path):
        """Load a binary model (Model.save_binary, `gauss compile`)."""
        err = _ctypes.create_string_buffer(1000)
        ptr = _lib.gs_loadModel(str(path).encode(), err, len(err))
        if not ptr:
            raise GaussError(err.value.decode(errors="replace") or f"cannot load {path}")
        return cls(ptr)

    @classmethod
    def from_binary(cls, data):
        """A model from the bytes of Model.to_binary."""
        data = bytes(data)
        err = _ctypes.create_string_buffer(1000)
        ptr = _lib.gs_loadModelBuffer(data, len(data), err, len(err))
        if not ptr:
            raise GaussError(err.value.decode(errors="replace") or "cannot load the binary model")
        return cls(ptr)

    def to_binary(self):
        """The model in the binary format, as bytes."""
        n = _lib.gs_sizeModel(self._ptr)
        buf = _ctypes.create_string_buffer(n)
        if not n or _lib.gs_saveModelBuffer(self._ptr, buf, n) != n:
            raise GaussError("gs_saveModelBuffer failed")
        return buf.raw

    def save_binary(self, path):
        """Write the model in the binary format to `path`."""
        err = _ctypes.create_string_buffer(1000)
        if not _lib.gs_saveModel(self._ptr, str(path).encode(), err, len(err)):
            raise GaussError(err.value.decode(errors="replace") or f"cannot write {path}")

    def to_xml(self):
        """An MJCF document equivalent to the model: loading it compiles to the same arrays."""
        err = _ctypes.create_string_buffer(1000)
        n = _lib.gs_saveXMLString(self._ptr, None, 0, err, len(err))
        if n < 0:
            raise GaussError(err.value.decode(errors="replace") or "gs_saveXMLString failed")
        buf = _ctypes.create_string_buffer(n + 1)
        _lib.gs_saveXMLString(self._ptr, buf, n + 1, err, len(err))
        return buf.value.decode()

    def save_xml(self, path):
        """Write the model as MJCF to `path`."""
        err = _ctypes.create_string_buffer(1000)
        if not _lib.gs_saveXML(self._ptr, str(path).encode(), err, len(err)):
            raise GaussError(err.value.decode(errors="replace") or f"cannot write {path}")

    def validate(self):
        """Check the model as the binary loader does (tree, ids, addresses, counts, and every
        value: finite reals, the signs the compiler keeps); raises GaussError naming the first
        field and index at fault. The Python views cannot write the structural fields, but a
        parameter written from Python (a NaN mass) or C code can make a model invalid."""
        err = _ctypes.create_string_buffer(1000)
        if not _lib.gs_validateModel(self._ptr, err, len(err)):
            raise GaussError(err.value.decode(errors="replace") or "the model is inconsistent")

    def __reduce__(self):
        # pickling (multiprocessing): the binary format
        return (Model.from_binary, (self.to_binary(),))

    def copy(self):
        """A new Model holding a copy of this one (its own C memory)."""
        ptr = _lib.gs_copyModel(self._ptr)
        if not ptr:
            raise MemoryError("gs_copyModel failed")
        return Model(ptr, self.load_warnings)

    __copy__ = copy

    def __deepcopy__(self, memo):
        return self.copy()

    def __repr__(self):
        counts = " ".join(f"{n}={self._sizes[n]}" for n in
                          ("nq", "nv", "nu", "nbody", "njnt", "ngeom", "nsite") if n in self._sizes)
        return f"<gauss.Model {counts}>"


# ---- data ----

def _contact_dtype():
    """gsContact as a numpy dtype, plus `geom`: geom1 and geom2 as one (2,) field."""
    base = _np.dtype(_lib.Contact)
    names = list(base.names) + ["geom"]
    formats = [base.fields[n][0] for n in base.names] + [_np.dtype((_np.int32, 2))]
    offsets = [base.fields[n][1] for n in base.names] + [_lib.Contact.geom1.offset]
    return _np.dtype({"names": names, "formats": formats, "offsets": offsets,
                     "itemsize": _ctypes.sizeof(_lib.Contact)})


_CONTACT_DTYPE = _contact_dtype()


@_add_accessors
class Data(_FieldAccess):
    """Simulation state (gsData) for a model; keeps the model alive."""

    def __init__(self, model, _ptr=None):
        if not isinstance(model, Model):
            raise TypeError("Data(model) needs a gauss.Model")
        ptr = _ptr if _ptr is not None else _lib.gs_makeData(model._ptr)
        if not ptr:
            raise MemoryError("gs_makeData failed")
        object.__setattr__(self, "_ptr", _ctypes.c_void_p(ptr))
        object.__setattr__(self, "_mem", _Memory(self._ptr, _lib.gs_freeData, model._mem))
        object.__setattr__(self, "model", model)
        _live_data[ptr] = self  # callbacks find their Data by the C pointer they receive
        object.__setattr__(self, "_fieldinfo",
                           _data_fields(model._ptr, self._ptr))
        object.__setattr__(self, "_time", _lib.gs_dataTime(self._ptr))
        energy = _ctypes.cast(_lib.gs_dataEnergy(self._ptr), _ctypes.POINTER(_ctypes.c_double * 2))
        energy = energy.contents
        energy._owner = self._mem
        object.__setattr__(self, "energy", _np.frombuffer(energy, dtype=_np.float64))
        nwarn = _ctypes.c_int()
        warn = _lib.gs_dataWarning(self._ptr, _ctypes.byref(nwarn))
        if nwarn.value != _GS_NWARNING:
            raise RuntimeError(f"gauss: the library has {nwarn.value} warning kinds, the binding "
                               f"{_GS_NWARNING}; reinstall the package")
        # lastinfo and number as MuJoCo's (reset clears them); total counts on over resets
        warn = _ctypes.cast(warn, _ctypes.POINTER(_lib.WarningStat * nwarn.value)).contents
        wtype = _np.dtype([("lastinfo", _np.int32), ("number", _np.int32), ("total", _np.int64)])
        object.__setattr__(self, "warning",
                           _np.frombuffer(_owned(warn, self._mem), dtype=wtype)
                           .view(_np.recarray))
        ntimer = _ctypes.c_int()
        timer = _lib.gs_dataTimer(self._ptr, _ctypes.byref(ntimer))
        if ntimer.value != _GS_NTIMER:
            raise RuntimeError(f"gauss: the library has {ntimer.value} timers, the binding "
                               f"{_GS_NTIMER}; reinstall the package")
        buf = (_lib.TimerStat * ntimer.value).from_address(_ctypes.addressof(timer.contents))
        buf._owner = self._mem
        object.__setattr__(self, "timer", _np.frombuffer(buf, dtype=_np.dtype(_lib.TimerStat))
                           .view(_np.recarray))

    @property
    def time(self):
        """Simulation time, s."""
        return self._time[0]

    @time.setter
    def time(self, value):
        self._time[0] = float(value)

    def _arena(self):
        pstack, maxuse = _ctypes.c_size_t(), _ctypes.c_size_t()
        narena = _lib.gs_dataArena(self._ptr, _ctypes.byref(pstack), _ctypes.byref(maxuse))
        return narena, pstack.value, maxuse.value

    def _contacts(self):
        ncon, nconmax = _ctypes.c_int(), _ctypes.c_int()
        ptr = _lib.gs_dataContact(self._ptr, _ctypes.byref(ncon), _ctypes.byref(nconmax))
        return ptr, ncon.value, nconmax.value

    @property
    def ncon(self):
        """Number of contacts of the last collision stage."""
        return self._contacts()[1]

    @property
    def nconmax(self):
        """Room for contacts."""
        return self._contacts()[2]

    @property
    def contact(self):
        """The contacts of the last collision stage: a numpy record array over the first `ncon`
        entries of the C array, with MuJoCo's field names (dist, pos, frame, includemargin,
        friction, solref, solreffriction, solimp, mu, dim, geom1, geom2, geom = (geom1, geom2),
        exclude, efc_address). It is a view: take it again after the next step."""
        ptr, ncon, _ = self._contacts()
        if ncon <= 0 or not ptr:
            return _np.zeros(0, _CONTACT_DTYPE).view(_np.recarray)
        buf = (_lib.Contact * ncon).from_address(_ctypes.addressof(ptr.contents))
        buf._owner = self._mem
        return _np.frombuffer(buf, dtype=_CONTACT_DTYPE).view(_np.recarray)

    # ---- constraint rows: views over the first nefc rows, taken anew on each access ----

    def _efc_counts(self):
        counts = (_ctypes.c_int * 9)()
        _lib.gs_dataEfcCounts(self._ptr, _ctypes.byref(counts))
        return list(counts)

    nefc = property(lambda self: self._efc_counts()[0], doc="constraint rows of the last step")
    ne = property(lambda self: self._efc_counts()[1], doc="equality rows")
    nf = property(lambda self: self._efc_counts()[2], doc="friction loss rows")
    nl = property(lambda self: self._efc_counts()[3], doc="limit rows")
    nJ = property(lambda self: self._efc_counts()[4], doc="non-zeros of the constraint Jacobian")
    solver_nnoslip = property(lambda self: self._efc_counts()[6], doc="noslip iterations")
    nisland = property(lambda self: self._efc_counts()[7], doc="constraint islands of the last step")
    nidof = property(lambda self: self._efc_counts()[8], doc="dofs in all islands")

    @property
    def solver_fwdinv(self):
        """fwdinv flag: norms of the differences of qfrc_constraint and of the applied force
        between the forward and the inverse of the last step (2 values, a view), as MuJoCo's."""
        ptr = _lib.gs_dataFwdinv(self._ptr)
        return _view(_ctypes.cast(ptr, _ctypes.c_void_p).value, TYPE_REAL, 2, 1, self._mem).reshape(-1)

    @property
    def solver_niter(self):
        """Solver iterations of the last step per island (GS_NISLAND values, a view; island 0
        holds the whole problem without islands and with PGS), as MuJoCo's array."""
        niter = _ctypes.POINTER(_ctypes.c_int)()
        _lib.gs_dataSolver(self._ptr, _ctypes.byref(niter))
        return _view(_ctypes.cast(niter, _ctypes.c_void_p).value, TYPE_INT,
                     _lib.GS_NISLAND, 1, self._mem).reshape(-1)

    def _island(self, name):
        info = _lib.FieldInfo()
        for i in range(_lib.gs_dataIslandFieldCount()):
            if _lib.gs_dataIslandField(self._ptr, i, _ctypes.byref(info)) and info.name.decode() == name:
                return _view(info.ptr, info.type, info.rows, info.cols, self._mem).reshape(-1)
        return None

    def _efc(self, name):
        info = _lib.FieldInfo()
        for i in range(_lib.gs_dataEfcFieldCount()):
            if _lib.gs_dataEfcField(self._ptr, i, _ctypes.byref(info)) and info.name.decode() == name:
                return _view(info.ptr, info.type, info.rows, info.cols, self._mem)
        return None

    def __getattr__(self, name):
        if name.startswith(("efc_", "map_efc2iefc", "map_iefc2efc")):
            if name == "efc_J":
                return self.efc_J_dense()
            arr = self._efc(name)
            if arr is not None:
                return arr
        if name.startswith(("island_", "dof_island", "map_dof2idof", "map_idof2dof")):
            arr = self._island(name)
            if arr is not None:
                return arr
        return super().__getattr__(name)

    def __dir__(self):
        # the constraint and island arrays are views taken anew on each access (their row count
        # changes every step): listed here so that dir() and completion show them
        names = set(super().__dir__()) | {"efc_J"}
        info = _lib.FieldInfo()
        for count, field in ((_lib.gs_dataEfcFieldCount, _lib.gs_dataEfcField),
                             (_lib.gs_dataIslandFieldCount, _lib.gs_dataIslandField)):
            for i in range(count()):
                if field(self._ptr, i, _ctypes.byref(info)):
                    names.add(info.name.decode())
        return sorted(names)

    def efc_J_dense(self):
        """The constraint Jacobian as a dense (nefc, nv) array (a copy)."""
        nv = self.model.nv
        J = _np.zeros((self.nefc, nv))
        nnz, adr = self._efc("efc_J_rownnz"), self._efc("efc_J_rowadr")
        col, val = self._efc("efc_J_colind"), self._efc("efc_J_values")
        for r in range(self.nefc):
            s = slice(adr[r], adr[r] + nnz[r])
            J[r, col[s]] = val[s]
        return J

    @property
    def solver(self):
        """Statistics of the solver's iterations in the last step, GS_NSOLVER records per island
        for GS_NISLAND islands, as MuJoCo's (a record array, a view)."""
        ptr = _lib.gs_dataSolver(self._ptr, None)
        buf = (_lib.SolverStat * (_lib.GS_NSOLVER * _lib.GS_NISLAND)).from_address(_ctypes.addressof(ptr.contents))
        buf._owner = self._mem
        return _np.frombuffer(buf, dtype=_np.dtype(_lib.SolverStat)).view(_np.recarray)

    narena = property(lambda self: self._arena()[0], doc="arena size in bytes")
    pstack = property(lambda self: self._arena()[1], doc="arena bytes in use")
    maxuse = property(lambda self: self._arena()[2], doc="arena high-water mark in bytes")

    def __setattr__(self, name, value):
        if name in ("energy", "warning", "timer"):
            getattr(self, name)[...] = value
        else:
            super().__setattr__(name, value)

    def copy(self):
        """A new Data holding a copy of this one (copy_data)."""
        return copy_data(self.model, self)

    __copy__ = copy

    def __deepcopy__(self, memo):
        return self.copy()

    def __repr__(self):
        return f"<gauss.Data time={self.time}>"


# ---- functions ----

def _check(m, d):
    if d.model is not m and d.model._ptr.value != m._ptr.value:
        raise ValueError("the data was made for another model")


def _vec(x, n, what):
    a = _np.ascontiguousarray(x, dtype=_np.float64)
    if a.size != n:
        raise ValueError(f"{what} must have {n} elements, got {a.size}")
    return a


def forward(m, d):
    """Everything up to qacc, no integration."""
    _check(m, d)
    _lib.gs_forward(m._ptr, d._ptr)
    _raise_callback_error(d)


def forward_skip(m, d, skipstage, skipsensor=0):
    """forward with the stages before `skipstage` (STAGE_POS: position; STAGE_VEL: position and
    velocity) left as computed, for callers that changed only later inputs; `skipsensor` leaves
    sensordata as it is."""
    _check(m, d)
    _lib.gs_forwardSkip(m._ptr, d._ptr, int(skipstage), int(bool(skipsensor)))
    _raise_callback_error(d)


def inverse(m, d):
    """Inverse dynamics: from qpos, qvel and qacc, efc_force (analytically, no solver) and
    qfrc_inverse, the applied generalized force that produces qacc (with the invdiscrete flag,
    qacc read as the integrator's discrete step)."""
    _check(m, d)
    _lib.gs_inverse(m._ptr, d._ptr)
    _raise_callback_error(d)


def inverse_skip(m, d, skipstage, skipsensor=0):
    """inverse with the stages before `skipstage` left as computed (forward_skip's rule)."""
    _check(m, d)
    _lib.gs_inverseSkip(m._ptr, d._ptr, int(skipstage), int(bool(skipsensor)))
    _raise_callback_error(d)


def step(m, d, nstep=1):
    """Advance the simulation by `nstep` steps (stopping after a step in which a Python
    callback raised, and raising its exception)."""
    _check(m, d)
    f, mp, dp = _lib.gs_step, m._ptr, d._ptr
    if d.__dict__.get("_callbacks"):
        for _ in range(int(nstep)):
            f(mp, dp)
            _raise_callback_error(d)
    else:
        _lib.gs_stepN(mp, dp, int(nstep))  # the loop in C, one call


def step1(m, d):
    """Position and velocity stages; set ctrl after, then call step2."""
    _check(m, d)
    _lib.gs_step1(m._ptr, d._ptr)
    _raise_callback_error(d)


def step2(m, d):
    """Force stage and integration."""
    _check(m, d)
    _lib.gs_step2(m._ptr, d._ptr)
    _raise_callback_error(d)


# ---- user callbacks (gsCallbacks in data.h), per Data ----

# the live Data objects by their C pointer: a callback receives the pointers of the gsModel and
# gsData it runs on, and hands the callable the Python objects (a copy made by copy_data shares
# the C callbacks of its source but receives itself)
_live_data = _weakref.WeakValueDictionary()

_CALLBACK_NAMES = ("control", "sensor", "act_dyn", "act_gain", "act_bias", "contactfilter")
_UNSET = object()


def _raise_callback_error(d):
    err = d.__dict__.pop("_callback_error", None)
    if err is not None:
        raise err


def _trampoline(name, fn):
    """The C function for the Python callable `fn` of callback `name`. An exception in `fn` is
    kept on the Data (the first one of a step; callbacks are not called again until it is raised)
    and raised when the stepping function returns: it never unwinds through the C stack."""
    def enter(dptr):
        d = _live_data.get(dptr)
        if d is None or "_callback_error" in d.__dict__:
            return None
        return d

    def fail(d, exc):
        object.__setattr__(d, "_callback_error", exc)

    if name == "control":
        def cb(mptr, dptr, user):
            d = enter(dptr)
            if d is not None:
                try:
                    fn(d.model, d)
                except BaseException as exc:  # noqa: B902 - re-raised after the step
                    fail(d, exc)
        return _lib.CB_CONTROL(cb)
    if name == "sensor":
        def cb(mptr, dptr, stage, user):
            d = enter(dptr)
            if d is not None:
                try:
                    fn(d.model, d, stage)
                except BaseException as exc:
                    fail(d, exc)
        return _lib.CB_SENSOR(cb)
    if name == "contactfilter":
        def cb(mptr, dptr, g1, g2, user):
            d = enter(dptr)
            if d is None:
                return 0
            try:
                return 1 if fn(d.model, d, g1, g2) else 0
            except BaseException as exc:
                fail(d, exc)
                return 0
        return _lib.CB_CONTACTFILTER(cb)

    def cb(mptr, dptr, i, user):
        d = enter(dptr)
        if d is None:
            return 0.0
        try:
            return float(fn(d.model, d, i))
        except BaseException as exc:
            fail(d, exc)
            return 0.0
    return _lib.CB_ACT(cb)


def set_callbacks(d, control=_UNSET, sensor=_UNSET, act_dyn=_UNSET, act_gain=_UNSET,
                  act_bias=_UNSET, contactfilter=_UNSET):
    """Install Python callables as the user callbacks of `d` (those not named are kept; None
    removes one). Signatures: control(m, d); sensor(m, d, stage) for user sensors;
    act_dyn(m, d, id), act_gain(m, d, id), act_bias(m, d, id) -> float for actuators of type
    'user'; contactfilter(m, d, geom1, geom2) -> True to drop that dynamic geom pair. An exception
    raised in one is raised again when forward/step/step1/step2 returns. The callbacks are
    copied by copy_data and kept by reset_data."""
    given = dict(control=control, sensor=sensor, act_dyn=act_dyn, act_gain=act_gain,
                 act_bias=act_bias, contactfilter=contactfilter)
    for name, fn in given.items():
        if fn is not _UNSET and fn is not None and not callable(fn):
            raise TypeError(f"the {name} callback must be callable or None")
    cbs = _lib.gs_dataCallbacks(d._ptr).contents
    kept = dict(d.__dict__.get("_callbacks") or {})
    for name, fn in given.items():
        if fn is _UNSET:
            continue
        if fn is None:
            kept.pop(name, None)
            setattr(cbs, name, type(getattr(cbs, name))())  # a NULL pointer
        else:
            cfunc = _trampoline(name, fn)
            kept[name] = (fn, cfunc)  # the C side points into cfunc: keep it alive with d
            setattr(cbs, name, cfunc)
    object.__setattr__(d, "_callbacks", kept)


def get_callbacks(d):
    """The Python callables installed on `d`, by name (None where none is)."""
    kept = d.__dict__.get("_callbacks") or {}
    return {name: kept[name][0] if name in kept else None for name in _CALLBACK_NAMES}


def set_timer(d, on=True):
    """Turn the stage timers of `d` (d.timer, rows TIMER_*: seconds and calls) on or off. They are
    off by default; reset_data zeroes them and keeps the switch."""
    _lib.gs_setTimer(d._ptr, 1 if on else 0)


def reset_data(m, d):
    """qpos = qpos0, everything else zero."""
    _check(m, d)
    _lib.gs_resetData(m._ptr, d._ptr)


_resetDataKeyframe = _lib._fn("gs_resetDataKeyframe", None, _lib.M, _lib.D, _ctypes.c_int)


def reset_data_keyframe(m, d, key):
    """Reset, then the state stored in keyframe `key` (an index, negative from the end, or a
    name): time, qpos, qvel, act, ctrl and the mocap poses."""
    _check(m, d)
    n = len(m.key_time)
    if isinstance(key, str):
        k = _lookup(m, _KINDS["key"], key)
    else:
        k = _operator.index(key)
        if k < 0:
            k += n
        if not 0 <= k < n:
            raise IndexError(f"keyframe {key} out of range (the model has {n})")
    _resetDataKeyframe(m._ptr, d._ptr, k)


def contact_force(m, d, i):
    """Force and torque of contact i in its frame (normal, two tangents, three torques: N and
    N m), shape (6,); IndexError for i outside 0..ncon-1."""
    _check(m, d)
    ncon = d.ncon
    i = _operator.index(i)
    if not 0 <= i < ncon:
        raise IndexError(f"contact {i} out of range: d.ncon is {ncon}"
                         + (f" (0..{ncon - 1})" if ncon else " (no contacts)"))
    out = _np.zeros(6)
    _lib.gs_contactForce(m._ptr, d._ptr, int(i), out)
    return out


def copy_data(m, d):
    """A new Data holding a copy of `d`."""
    _check(m, d)
    ptr = _lib.gs_copyData(None, m._ptr, d._ptr)
    if not ptr:
        raise MemoryError("gs_copyData failed")
    out = Data(m, _ptr=ptr)
    if d.__dict__.get("_callbacks"):
        # gs_copyData copied the C callbacks: the copy keeps their functions alive too
        object.__setattr__(out, "_callbacks", dict(d._callbacks))
    return out


def set_sensor_callback(d, fn):
    """Call fn(m, d, stage) at each stage (1 position, 2 velocity, 3 acceleration) that has user
    sensors, after the built-in sensors of the stage and before the cutoffs: fn writes the user
    sensors' values to d.sensordata. None removes it. The same as set_callbacks(d, sensor=fn)."""
    if not isinstance(d, Data):
        raise TypeError("set_sensor_callback(d, fn) needs a gauss.Data")
    set_callbacks(d, sensor=fn)


def _stage(cfunc, doc=None):
    def run(m, d):
        _check(m, d)
        cfunc(m._ptr, d._ptr)
        _raise_callback_error(d)
    run.__doc__ = doc
    return run


kinematics = _stage(_lib.gs_kinematics, "Forward kinematics: body, joint, geom and site poses (xpos m, xquat, xmat, ...) from qpos.")
com_pos = _stage(_lib.gs_comPos, "Subtree centres of mass (m), cinert and cdof, after kinematics.")
crb = _stage(_lib.gs_crb, "Composite rigid-body inertias (crb) and the joint-space inertia qM (kg, kg m^2).")
factor_M = _stage(_lib.gs_factorM, "Sparse L^T D L factorization of qM into qLD and qLDiagInv.")
com_vel = _stage(_lib.gs_comVel, "Body velocities cvel (rad/s, m/s) and cdof_dot from qvel.")
passive = _stage(_lib.gs_passive, "Passive forces (N, N m): springs, dampers, gravity compensation, fluid; qfrc_passive and its parts.")
fwd_position = _stage(_lib.gs_fwdPosition, "The position stage of forward: kinematics, inertia, collision, constraints.")
fwd_velocity = _stage(_lib.gs_fwdVelocity, "The velocity stage of forward: velocities, qfrc_bias, passive forces.")
fwd_actuation = _stage(_lib.gs_fwdActuation,
                       "The force stage's actuators: act_dot, actuator_force, qfrc_actuator.")
fwd_acceleration = _stage(_lib.gs_fwdAcceleration, "The acceleration stage of forward: qacc_smooth, the constraint solver, qacc.")


def rne(m, d, with_acc=True):
    """Recursive Newton-Euler: the bias forces (with_acc False) or the inverse dynamics (True)."""
    _check(m, d)
    out = _np.zeros(m.nv)
    _lib.gs_rne(m._ptr, d._ptr, 1 if with_acc else 0, out)
    return out


rne_post_constraint = _stage(
    _lib.gs_rnePostConstraint,
    "Body accelerations and forces after the constraint solver: d.cacc, d.cfrc_int, d.cfrc_ext.")
subtree_vel = _stage(_lib.gs_subtreeVel,
                     "Subtree linear velocities and angular momenta: d.subtree_linvel, d.subtree_angmom.")
sensor_pos = _stage(_lib.gs_sensorPos, "The position-stage sensors, written to d.sensordata.")
sensor_vel = _stage(_lib.gs_sensorVel, "The velocity-stage sensors, written to d.sensordata.")
sensor_acc = _stage(_lib.gs_sensorAcc, "The acceleration-stage sensors, written to d.sensordata.")


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
    dst = _np.zeros((m.nv, m.nv))
    if m.nv:
        _lib.gs_fullM(m._ptr, dst, d.qM)
    return dst


def mul_M(m, d, vec):
    """M @ vec (MuJoCo's mj_mulM), from d.qM."""
    _check(m, d)
    y = _vec(vec, m.nv, "vec")
    res = _np.zeros(m.nv)
    if m.nv:
        _lib.gs_mulM(m._ptr, d._ptr, res, y)
    return res


def _rhs(m, vec):
    y = _np.ascontiguousarray(vec, dtype=_np.float64)
    if y.ndim not in (1, 2) or y.shape[-1] != m.nv:
        raise ValueError(f"vec must have shape (nv,) or (n, nv) with nv = {m.nv}")
    return y, 1 if y.ndim == 1 else y.shape[0]


def solve_M(m, d, vec):
    """M^-1 vec (MuJoCo's mj_solveM), using the factorisation in d (qLD). `vec` is (nv,), or
    (n, nv) for n right-hand sides, one per row; the result has vec's shape."""
    _check(m, d)
    y, n = _rhs(m, vec)
    x = _np.zeros_like(y)
    if m.nv and n:
        _lib.gs_solveM(m._ptr, d._ptr, x, y, n)
    return x


def mul_M2(m, d, vec):
    """D^1/2 L vec for M = L^T D L (MuJoCo's mj_mulM2): its squared norm is vec^T M vec."""
    _check(m, d)
    y = _vec(vec, m.nv, "vec")
    res = _np.zeros(m.nv)
    if m.nv:
        _lib.gs_mulM2(m._ptr, d._ptr, res, y)
    return res


def solve_M2(m, d, vec):
    """D^-1/2 L^-T vec for M = L^T D L (MuJoCo's mj_solveM2, which takes D^-1/2 as an argument;
    here it comes from d.qLDiagInv): the squared norm of each result row is vec^T M^-1 vec.
    `vec` is (nv,) or (n, nv)."""
    _check(m, d)
    y, n = _rhs(m, vec)
    x = _np.zeros_like(y)
    if m.nv and n:
        _lib.gs_solveM2(m._ptr, d._ptr, x, y, n)
    return x


def _object_id(m, kind, key):
    """The id of a `kind` object (body, site, geom) given by name, id or m.<kind>(...) accessor:
    KeyError for an unknown name, IndexError naming the valid range for an id outside it
    (negative ids included: no wrapping, as the C functions take them)."""
    k = _KINDS[kind]
    n = m._sizes[k.size]
    if isinstance(key, _Named):
        if key._kind is not k or key._mptr.value != m._ptr.value:
            raise TypeError(f"expected a {kind} of this model, got {key!r}")
        return key.id
    if isinstance(key, str):
        return _lookup(m, k, key)
    i = _operator.index(key)
    if not 0 <= i < n:
        raise IndexError(f"{kind} id {i} out of range (0..{n - 1})")
    return i


def _jac_pair(cfunc, m, d, *args):
    jacp = _np.zeros((3, m.nv))
    jacr = _np.zeros((3, m.nv))
    cfunc(m._ptr, d._ptr, jacp, jacr, *args)
    return jacp, jacr


def jac(m, d, point, body):
    """Jacobians (jacp, jacr), each 3 x nv, of a world-frame point attached to `body` (name or
    id; MuJoCo's mj_jac): jacp @ qvel is the point's velocity, jacr @ qvel the body's angular
    velocity. After the position stage."""
    _check(m, d)
    body = _object_id(m, "body", body)
    return _jac_pair(_lib.gs_jac, m, d, _vec(point, 3, "point"), body)


def jac_body(m, d, body):
    """(jacp, jacr) of the body's frame origin, d.xpos[body] (MuJoCo's mj_jacBody)."""
    _check(m, d)
    return _jac_pair(_lib.gs_jacBody, m, d, _object_id(m, "body", body))


def jac_body_com(m, d, body):
    """(jacp, jacr) of the body's centre of mass, d.xipos[body] (MuJoCo's mj_jacBodyCom)."""
    _check(m, d)
    return _jac_pair(_lib.gs_jacBodyCom, m, d, _object_id(m, "body", body))


def jac_site(m, d, site):
    """(jacp, jacr) of a site, d.site_xpos[site] (MuJoCo's mj_jacSite)."""
    _check(m, d)
    return _jac_pair(_lib.gs_jacSite, m, d, _object_id(m, "site", site))


def jac_geom(m, d, geom):
    """(jacp, jacr) of a geom's centre, d.geom_xpos[geom] (MuJoCo's mj_jacGeom)."""
    _check(m, d)
    return _jac_pair(_lib.gs_jacGeom, m, d, _object_id(m, "geom", geom))


def jac_subtree_com(m, d, body):
    """jacp (3 x nv) of the centre of mass of the subtree rooted at `body`, d.subtree_com[body]
    (MuJoCo's mj_jacSubtreeCom, linear only: a subtree has no single angular velocity); zeros
    for a massless subtree."""
    _check(m, d)
    body = _object_id(m, "body", body)
    jacp = _np.zeros((3, m.nv))
    _lib.gs_jacSubtreeCom(m._ptr, d._ptr, jacp, body)
    return jacp


def jac_point_axis(m, d, point, axis, body):
    """(jac_point, jac_axis), each 3 x nv (MuJoCo's mj_jacPointAxis): jac_point is jac's jacp of
    the point; jac_axis @ qvel the rate of change of a world-frame axis turning with the body."""
    _check(m, d)
    body = _object_id(m, "body", body)
    return _jac_pair(_lib.gs_jacPointAxis, m, d, _vec(point, 3, "point"), _vec(axis, 3, "axis"),
                     body)


def jac_dot(m, d, point, body):
    """(jacp_dot, jacr_dot): d/dt of jac(m, d, point, body) along d.qvel, for a point moving with
    the body (MuJoCo's mj_jacDot). Needs the velocity stage (cvel, cdof_dot: fwd_velocity or
    forward)."""
    _check(m, d)
    body = _object_id(m, "body", body)
    return _jac_pair(_lib.gs_jacDot, m, d, _vec(point, 3, "point"), body)


def _inplace(x, n, what):
    if not (isinstance(x, _np.ndarray) and x.dtype == _np.float64 and x.flags.c_contiguous
            and x.flags.writeable):
        raise TypeError(f"{what} must be a writable C-contiguous float64 numpy array "
                        "(it is written in place)")
    if x.size != n:
        raise ValueError(f"{what} must have {n} elements, got {x.size}")
    return x


def integrate_pos(m, qpos, qvel, dt):
    """qpos moved by qvel over time dt, in place (MuJoCo's mj_integratePos): ball and free
    quaternions turn by the body-frame angular velocity and are normalised."""
    q = _inplace(qpos, m.nq, "qpos")
    _lib.gs_integratePos(m._ptr, q, _vec(qvel, m.nv, "qvel"), float(dt))


def differentiate_pos(m, qvel, dt, qpos1, qpos2):
    """Write into qvel the velocity that moves qpos1 to qpos2 in time dt (MuJoCo's
    mj_differentiatePos, same argument order): integrate_pos(m, qpos1, qvel, dt) gives qpos2.
    Quaternions by the shorter arc (rotations up to pi)."""
    v = _inplace(qvel, m.nv, "qvel")
    dt = float(dt)
    if dt == 0 or not _np.isfinite(dt):
        raise ValueError(f"dt must be finite and non-zero, got {dt}")
    _lib.gs_differentiatePos(m._ptr, v, dt, _vec(qpos1, m.nq, "qpos1"), _vec(qpos2, m.nq, "qpos2"))


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


# ---- geometric queries ----

def ray(m, d, pnt, vec, geomgroup=None, flg_static=1, bodyexclude=-1):
    """Cast a ray from `pnt` along `vec` (MuJoCo's mj_ray): returns (distance in units of |vec|,
    geom id), (-1, -1) when nothing is hit. geomgroup: 6 flags (None: every group); flg_static:
    include geoms of bodies welded to the world; bodyexclude: a body id to skip (-1: none)."""
    _check(m, d)
    p = _vec(pnt, 3, "pnt")
    v = _vec(vec, 3, "vec")
    gid = _np.full(1, -1, dtype=_np.int32)
    grp = None
    if geomgroup is not None:
        grp = _np.ascontiguousarray(geomgroup, dtype=_np.uint8)
        if grp.size != 6:
            raise ValueError(f"geomgroup must have 6 elements, got {grp.size}")
    bodyexclude = _operator.index(bodyexclude)
    if not -1 <= bodyexclude < m.nbody:
        raise IndexError(f"bodyexclude {bodyexclude} out of range: -1 (none) or a body id "
                         f"0..{m.nbody - 1}")
    x = _lib.gs_ray(m._ptr, d._ptr, p, v, None if grp is None else grp.ctypes.data,
                    int(flg_static), int(bodyexclude), gid)
    return float(x), int(gid[0])


def geom_distance(m, d, g1, g2, distmax):
    """Signed distance between the surfaces of geoms g1 and g2, capped at distmax (MuJoCo's
    mj_geomDistance): returns (dist, fromto), fromto = closest point on g1, then on g2 (zeros when
    dist >= distmax)."""
    _check(m, d)
    for g in (g1, g2):
        g = _operator.index(g)
        if not 0 <= g < m.ngeom:
            raise IndexError(f"geom id {g} out of range: the model has {m.ngeom} (0..{m.ngeom - 1})")
        if int(m.geom_type[int(g)]) == 1:
            raise ValueError(f"geom {g} is a height field: distances to height fields are not "
                             "supported (MuJoCo's mj_geomDistance gives no distance there either)")
    fromto = _np.zeros(6)
    x = _lib.gs_geomDistance(m._ptr, d._ptr, int(g1), int(g2), float(distmax), fromto)
    return float(x), fromto


# ---- state arrays, pickling and deep copies (_state.py) ----
from . import _state  # noqa: E402
from ._state import *  # noqa: E402,F401,F403
__all__ += _state.__all__
_state._install(Model, Data)
from . import _rollout  # noqa: E402
from ._rollout import rollout  # noqa: E402,F401
__all__ += _rollout.__all__

from . import _batch  # noqa: E402
from ._batch import step_batch  # noqa: E402,F401
__all__ += _batch.__all__


from ._derivative import transition_fd  # noqa: E402  (after _check, which it uses)
from . import _inverse_rigid  # noqa: E402
from ._inverse_rigid import InverseRigidResult, RigidWarm, inverse_rigid  # noqa: E402,F401
__all__ += _inverse_rigid.__all__
# offscreen rendering (libgauss_render, loaded on first use)
from . import _render  # noqa: E402
from ._render import Renderer, RenderOption, FreeCamera, show_frame  # noqa: E402,F401
__all__ += _render.__all__
# gauss.viewer is imported on demand, as MuJoCo's mujoco.viewer: `import gauss.viewer`

# ---- the cache of mesh files (_mesh_cache.py) ----
from . import _mesh_cache  # noqa: E402
from ._mesh_cache import *  # noqa: E402,F401,F403
__all__ += _mesh_cache.__all__

# ---- URDF files (_urdf.py): Model.from_urdf_path, Model.from_urdf_string ----
from . import _urdf  # noqa: E402
_urdf._install(Model)

# ---- model editing (_spec.py) ----
from ._spec import Spec, SpecError  # noqa: E402,F401
__all__ += ["Spec", "SpecError", "set_const"]


def set_const(m, d):
    """Recompute every quantity defined at qpos0 after model fields were edited (MuJoCo's
    mj_setConst): body_subtreemass, body/dof/tendon_invweight0, stat.meaninertia, camera and light
    frames at qpos0, tendon_length0, actuator_length0 and acc0, servo damping from dampratio,
    equality anchors. `d` is used for the computation and left reset to qpos0 (reset_data).
    Raises GaussError when the edited model has no valid constants (a moving body without mass)."""
    _check(m, d)
    err = _ctypes.create_string_buffer(1000)
    if not _lib.gs_setConst(m._ptr, d._ptr, err, len(err)):
        raise GaussError(err.value.decode(errors="replace") or "set_const failed")


# ---- docstrings of the array fields (units and shape), from the library's field list ----

def _doc_xml(k, extra, actuator=""):
    """A small model whose sizes (nq, nv, nu, nmocap, nuser_*) all depend on k, so that two of
    them tell which column counts follow a size."""
    users = " ".join(f'nuser_{n}="{i + k}"' for i, n in enumerate(
        ("body", "jnt", "geom", "site", "cam", "tendon", "actuator", "sensor")))
    return (f'<mujoco><size {users} nuserdata="{k}"/><worldbody>'
            '<body mocap="true"><geom size="1" contype="0" conaffinity="0"/></body>'
            f'{extra}<body><joint name="h"/><geom size="1"/></body></worldbody>'
            f'<actuator><motor joint="h"/>{actuator}</actuator></mujoco>')


_DOC_XML = _doc_xml(1, "")
_DOC_XML2 = _doc_xml(11, '<body><freejoint/><geom size="1"/></body>'
                         '<body mocap="true"/><body mocap="true"/><body><joint name="h2"/><geom size="1"/></body>',
                         '<general joint="h2" dyntype="filter"/>')


def _columns(name, ca, cb, sa, sb):
    """The columns of a field as text: a number, or the size (times a number) they follow."""
    if ca == cb:
        return max(ca, 1)
    first = ("nq", "nv", "nu", "na", "nmocap")  # before sizes that change with them (nbody)
    for size in first + tuple(n for n in sa if n not in first):
        if size not in sa or sa[size] == sb.get(size, sa[size]):
            continue
        for k in (1, 3, 4):
            if ca == k * sa[size] and cb == k * sb[size]:
                return size if k == 1 else f"{k}*{size}"
    return "ncol"


def _field_docs():
    """name -> one-line doc of every model ("model.<name>") and data ("data.<name>") array:
    shape from the rows' size name and the column count (or the size it follows), units by
    field family."""
    global _FIELD_DOCS
    if _FIELD_DOCS is None:
        m = Model.from_xml_string(_DOC_XML)
        m2 = Model.from_xml_string(_DOC_XML2)
        d, d2 = Data(m), Data(m2)
        docs = {}
        for owner, obj, obj2 in (("model", m, m2), ("data", d, d2)):
            for name, info in obj._fieldinfo.items():
                cols = _columns(name, info[2], obj2._fieldinfo[name][2], m._sizes, m2._sizes)
                docs[f"{owner}.{name}"] = _fielddoc.doc(name, info[0], info[4], cols, owner)
        info = _lib.FieldInfo()
        for count, field, rows in ((_lib.gs_dataEfcFieldCount, _lib.gs_dataEfcField, "nefc"),
                                   (_lib.gs_dataIslandFieldCount, _lib.gs_dataIslandField,
                                    "nisland")):
            for i in range(count()):
                if field(d._ptr, i, _ctypes.byref(info)):
                    name = info.name.decode()
                    docs[f"data.{name}"] = (_fielddoc.doc(name, info.type, rows, 1, "data")
                                            + " (rows of the last step; taken anew on each read)")
        _FIELD_DOCS = docs
    return _FIELD_DOCS


_FIELD_DOCS = None


def field_doc(name):
    """The docstring of an array field: field_doc("qpos") or field_doc("data.qpos"),
    field_doc("model.body_mass"): its dtype, shape (the rows' size name, the columns) and units."""
    docs = _field_docs()
    if name in docs:
        return docs[name]
    found = [docs[k] for k in (f"data.{name}", f"model.{name}") if k in docs]
    if not found:
        close = _difflib.get_close_matches(name, [k.split(".", 1)[1] for k in docs], n=5)
        raise KeyError(f"no array field named {name!r}"
                       + (f"; close names: {', '.join(map(repr, close))}" if close else ""))
    return "\n".join(found)


def _document_classes():
    """Append the field tables to Model's and Data's docstrings (help(gauss.Data))."""
    try:
        docs = _field_docs()
    except Exception:  # noqa: BLE001 - documentation must never stop the import
        return
    for cls, owner in ((Model, "model"), (Data, "data")):
        lines = [v[len(owner) + 1:] for k, v in docs.items() if k.startswith(owner + ".")]
        cls.__doc__ = (cls.__doc__ or "") + "\n\n    Arrays (views of the engine's memory):\n" + \
            "".join(f"\n    {line}" for line in lines)


_document_classes()
