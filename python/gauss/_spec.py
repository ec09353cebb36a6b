"""Model editing: gauss.Spec, an editable model tree over the C spec (MuJoCo's MjSpec workflow).

    spec = gauss.Spec.from_file("arm.xml")          # or gauss.Spec() for an empty model
    body = spec.worldbody.add_body(name="ball", pos=[0, 0, 1])
    body.add_freejoint()
    body.add_geom(type=gauss.GEOM_SPHERE, size=[0.1, 0, 0])
    spec.body("ball").mass = 2
    m = spec.compile()
    m, d = spec.recompile(m, d)                      # keeps the state of what persists

Elements (bodies, joints, geoms, ...) are read and written by attribute, with MuJoCo's names
(`pos`, `quat`, `size`, `range`, `gear`, ...); the attribute tables come from the library
(gs_specAttrs), so they are not repeated here. Array attributes read as numpy arrays whose item
writes go back to the element (`geom.size[0] = 0.2`). An orientation can be given as `quat` or,
as in MJCF, through `alt` (`body.alt.euler = [0, 90, 0]`, also `axisangle`, `xyaxes`, `zaxis`; `alt.type`, MuJoCo's mjtOrientation,
says which form the compiler uses; unlike MuJoCo's spec, writing a form also selects it),
in the compiler's angle unit (degrees by default, as MJCF). Setting a joint's `range` marks it as
given (for autolimits); setting a body's `mass`, `ipos`, `iquat`/`ialt`, `inertia` or
`fullinertia` makes its inertial explicit, as writing `<inertial>` does.

Default classes, `<replicate>` and other composition elements are resolved when MJCF is read; a
spec holds the resolved elements. Frames are kept as records (`spec.frames`, `body.add_frame`,
`spec.attach(child, frame=...)`; python/gauss/_spec_frame.py): what a frame holds is placed when it
is read or attached, and an element written in frames reads and writes its pose in its frame.
"""

import ctypes
import os

import numpy as np

from . import _actuator_shortcuts as _shortcuts
from . import _lib
from . import _spec_frame as _frame

_POINTER = ctypes.sizeof(ctypes.c_void_p)

# kinds that bodies hold, and the method names that add them
_BODY_KINDS = {
    "body": _lib.GS_SK_BODY, "joint": _lib.GS_SK_JOINT, "geom": _lib.GS_SK_GEOM,
    "site": _lib.GS_SK_SITE, "camera": _lib.GS_SK_CAMERA, "light": _lib.GS_SK_LIGHT,
    "frame": _lib.GS_SK_FRAME,
}
# kinds the spec holds, with their list names (MuJoCo's: spec.actuators, spec.meshes, ...)
_SPEC_KINDS = {
    "tendon": (_lib.GS_SK_TENDON, "tendons"), "actuator": (_lib.GS_SK_ACTUATOR, "actuators"),
    "sensor": (_lib.GS_SK_SENSOR, "sensors"), "equality": (_lib.GS_SK_EQUALITY, "equalities"),
    "key": (_lib.GS_SK_KEY, "keys"), "numeric": (_lib.GS_SK_NUMERIC, "numerics"),
    "text": (_lib.GS_SK_TEXT, "texts"), "tuple": (_lib.GS_SK_TUPLE, "tuples"),
    "mesh": (_lib.GS_SK_MESH, "meshes"), "hfield": (_lib.GS_SK_HFIELD, "hfields"),
    "texture": (_lib.GS_SK_TEXTURE, "textures"), "material": (_lib.GS_SK_MATERIAL, "materials"),
    "pair": (_lib.GS_SK_PAIR, "pairs"), "exclude": (_lib.GS_SK_EXCLUDE, "excludes"),
}
_KIND_NAMES = {**{v: k for k, v in _BODY_KINDS.items()},
               **{v[0]: k for k, v in _SPEC_KINDS.items()},
               _lib.GS_SK_WRAP: "wrap", _lib.GS_SK_TUPLEELEMENT: "tuple element",
               _lib.GS_SK_SPEC: "spec", _lib.GS_SK_COMPILER: "compiler",
               _lib.GS_SK_STATISTIC: "statistic", _lib.GS_SK_VISUAL: "visual"}

# enumerations that may be given by their MJCF name
_ENUM_NAMES = {
    (_lib.GS_SK_GEOM, "type"): ("plane", "hfield", "sphere", "capsule", "ellipsoid", "cylinder",
                                "box", "mesh"),
    (_lib.GS_SK_SITE, "type"): ("plane", "hfield", "sphere", "capsule", "ellipsoid", "cylinder",
                                "box", "mesh"),
    (_lib.GS_SK_JOINT, "type"): ("free", "ball", "slide", "hinge"),
}
_LIMITED = {"false": 0, "true": 1, "auto": 2}


class SpecError(ValueError):
    """A spec could not be read, edited or compiled (the message says which element and why)."""


def _attr_table(kind):
    n = ctypes.c_int()
    arr = _lib.gs_specAttrs(kind, ctypes.byref(n))
    table = {}
    for i in range(n.value):
        a = arr[i]
        table[a.name.decode()] = (a.type, a.count, a.offset, a.lenoff,
                                  tuple((a.flagoff[k], a.flagval[k], a.flagor[k]) for k in range(2)))
    return table


_TABLES = {}


def _table(kind):
    t = _TABLES.get(kind)
    if t is None:
        t = _TABLES[kind] = _attr_table(kind)
    return t


def _cstr(addr):
    # an unset string (an unnamed element's name, no material, ...) reads "", as on MuJoCo's spec
    return "" if not addr else ctypes.string_at(addr).decode()


class _AttrArray(np.ndarray):
    """An attribute's values, read from the element; item writes go back to it (with the flags the
    attribute implies), so that `geom.size[0] = 0.2` works as on MuJoCo's spec."""

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        owner = getattr(self, "_owner", None)
        if owner is not None:
            owner[0]._set(owner[1], np.asarray(self))

    def __array_finalize__(self, obj):
        pass  # slices and results of arithmetic are plain copies: no write-back


def _attr_array(values, element, name):
    a = np.array(values).view(_AttrArray)
    a._owner = (element, name)
    return a


class _Struct:
    """Attribute access to a C struct described by an attribute table (elements and settings)."""

    __slots__ = ("_spec", "_ptr", "_kind", "__weakref__")

    def __init__(self, spec, ptr, kind):
        object.__setattr__(self, "_spec", spec)
        object.__setattr__(self, "_ptr", ptr)
        object.__setattr__(self, "_kind", kind)

    def _addr(self):
        ptr = self._ptr
        if ptr is None:
            raise SpecError(f"this {_KIND_NAMES.get(self._kind, 'element')} was deleted from its spec")
        return ptr

    def __getattr__(self, name):
        entry = _table(self._kind).get(name)
        if entry is None:
            raise AttributeError(f"{_KIND_NAMES.get(self._kind, 'element')} has no attribute "
                                 f"{name!r}; it has: {', '.join(sorted(_table(self._kind)))}")
        return self._get(name, entry)

    def __setattr__(self, name, value):
        if name.startswith("_"):
            object.__setattr__(self, name, value)
            return
        self._set(name, value)

    def __dir__(self):
        return sorted(set(_table(self._kind)) | set(object.__dir__(self)))

    # reading
    def _get(self, name, entry):
        typ, count, off, lenoff, _ = entry
        addr = self._addr() + off
        if typ == _lib.GS_SA_REAL:
            v = np.ctypeslib.as_array((ctypes.c_double * count).from_address(addr))
            return float(v[0]) if count == 1 else _attr_array(v, self, name)
        if typ == _lib.GS_SA_INT:
            v = np.ctypeslib.as_array((ctypes.c_int * count).from_address(addr))
            return int(v[0]) if count == 1 else _attr_array(v, self, name)
        if typ == _lib.GS_SA_LLONG:
            return ctypes.c_longlong.from_address(addr).value
        if typ == _lib.GS_SA_STRING:
            ptrs = (ctypes.c_void_p * count).from_address(addr)
            return _cstr(ptrs[0]) if count == 1 else [_cstr(p) for p in ptrs]
        if typ == _lib.GS_SA_POOL:
            return _cstr(ctypes.c_void_p.from_address(addr).value)
        if typ == _lib.GS_SA_CHARS:
            return ctypes.string_at(addr).decode()
        if typ in (_lib.GS_SA_REALVEC, _lib.GS_SA_INTVEC):
            n = ctypes.c_int.from_address(self._addr() + lenoff).value
            p = ctypes.c_void_p.from_address(addr).value
            ctype = ctypes.c_double if typ == _lib.GS_SA_REALVEC else ctypes.c_int
            if not p or n <= 0:
                v = np.zeros(0, dtype=np.float64 if typ == _lib.GS_SA_REALVEC else np.int32)
            else:
                v = np.ctypeslib.as_array((ctype * (n * count)).from_address(p)).copy()
            return _attr_array(v if count == 1 else v.reshape(-1, count), self, name)
        if typ == _lib.GS_SA_ASSETREF:
            ref = _lib.gs_specFindAssetRef(self._parent_ptr(), self._addr())
            if not ref:
                return ""
            r = _lib.SpecAssetRef.from_address(ref)
            return _cstr((r.material, r.mesh, r.hfield)[count])
        if typ == _lib.GS_SA_BLOB:
            b = _lib.SpecBlob.from_address(addr)
            return ctypes.string_at(b.bytes, b.n) if b.bytes and b.n else b""
        raise SpecError(f"attribute {name!r} has an unknown storage type {typ}")

    # writing
    def _set(self, name, value):
        entry = _table(self._kind).get(name)
        if entry is None:
            raise AttributeError(f"{_KIND_NAMES.get(self._kind, 'element')} has no attribute "
                                 f"{name!r}; it has: {', '.join(sorted(_table(self._kind)))}")
        typ, count, off, lenoff, flags = entry
        base = self._addr()
        addr = base + off
        what = f"{_KIND_NAMES.get(self._kind, 'element')}.{name}"
        if typ in (_lib.GS_SA_REAL, _lib.GS_SA_INT):
            if typ == _lib.GS_SA_INT:
                value = self._enum(name, value)
            dtype = np.float64 if typ == _lib.GS_SA_REAL else np.int64
            try:
                v = np.asarray(value, dtype=dtype).reshape(-1)
            except (TypeError, ValueError) as exc:
                raise SpecError(f"{what}: {exc}") from None
            if v.size > count or (count == 1 and v.size != 1):
                raise SpecError(f"{what} takes {count} value{'s' if count > 1 else ''}, got {v.size}")
            if typ == _lib.GS_SA_INT and v.size and (v.min() < -2**31 or v.max() >= 2**31):
                raise SpecError(f"{what}: out of the range of a C int")
            ctype = ctypes.c_double if typ == _lib.GS_SA_REAL else ctypes.c_int
            dst = (ctype * count).from_address(addr)
            for i, x in enumerate(v):  # fewer values than the attribute holds: the rest stay
                dst[i] = float(x) if typ == _lib.GS_SA_REAL else int(x)
        elif typ == _lib.GS_SA_LLONG:
            ctypes.c_longlong.from_address(addr).value = int(value)
        elif typ == _lib.GS_SA_STRING:
            values = [value] if count == 1 else list(value)
            if len(values) > count:
                raise SpecError(f"{what} takes {count} strings, got {len(values)}")
            for i, s in enumerate(values):
                if s is not None and not isinstance(s, str):
                    raise SpecError(f"{what} must be a string or None, got {type(s).__name__}")
                s = None if s is None or (s == "" and name != "data") else s.encode()
                if not _lib.gs_specSetString(addr + i * _POINTER, s):
                    raise MemoryError(f"{what}: out of memory")
        elif typ == _lib.GS_SA_POOL:
            p = _lib.gs_specIntern(self._spec._ptr, str(value).encode()) if value else None
            ctypes.c_void_p.from_address(addr).value = p
        elif typ == _lib.GS_SA_CHARS:
            b = str(value).encode()
            if len(b) >= count:
                raise SpecError(f"{what} holds at most {count - 1} characters, got {value!r}")
            ctypes.memmove(addr, b + b"\0", len(b) + 1)
        elif typ in (_lib.GS_SA_REALVEC, _lib.GS_SA_INTVEC):
            dtype = np.float64 if typ == _lib.GS_SA_REALVEC else np.int32
            v = np.ascontiguousarray(np.asarray(value if value is not None else [], dtype=dtype).reshape(-1))
            if v.size % count:
                raise SpecError(f"{what} takes a multiple of {count} values, got {v.size}")
            setter = _lib.gs_specSetReals if typ == _lib.GS_SA_REALVEC else _lib.gs_specSetInts
            if not setter(addr, base + lenoff, v.ctypes.data if v.size else None, v.size // count, count):
                raise MemoryError(f"{what}: out of memory")
        elif typ == _lib.GS_SA_ASSETREF:
            ref = _lib.gs_specAssetRef(self._parent_ptr(), base)
            if not ref:
                raise MemoryError(f"{what}: out of memory")
            field = ref + _POINTER * (1 + count)
            s = None if not value else str(value).encode()
            if not _lib.gs_specSetString(field, s):
                raise MemoryError(f"{what}: out of memory")
        elif typ == _lib.GS_SA_BLOB:
            data = bytes(value or b"")
            if not _lib.gs_specSetBlob(addr, data, len(data)):
                raise MemoryError(f"{what}: out of memory")
        else:
            raise SpecError(f"{what}: unknown storage type {typ}")
        for foff, fval, forr in flags:
            if foff >= 0:
                flag = ctypes.c_int.from_address(base + foff)
                flag.value = (flag.value | fval) if forr else fval

    def _enum(self, name, value):
        if isinstance(value, bool):
            return int(value)
        if hasattr(value, "__int__") and not isinstance(value, (float, np.floating, np.ndarray)):
            return int(value)  # an enumeration member (MuJoCo's mjtGeom, ...) or an integer
        if isinstance(value, str):
            names = _ENUM_NAMES.get((self._kind, name))
            low = value.lower()
            if names and low in names:
                return names.index(low)
            if name.endswith("limited") and low in _LIMITED:
                return _LIMITED[low]
            raise SpecError(f"{_KIND_NAMES.get(self._kind)}.{name} = {value!r}: give its number"
                            + (f" or one of {', '.join(names)}" if names else ""))
        return value

    def _parent_ptr(self):
        p = _lib.gs_specParent(self._spec._ptr, self._kind, self._addr())
        if not p:
            raise SpecError(f"this {_KIND_NAMES.get(self._kind)} is in no body of its spec")
        return p

    def _setmany(self, kwargs):
        for k, v in kwargs.items():
            if k == "alt":
                for ak, av in dict(v).items():
                    setattr(self.alt, ak, av)
            else:
                setattr(self, k, v)
        return self


# MuJoCo's mjtOrientation numbers the forms otherwise than gsOrientType (quat, axisangle, euler,
# xyaxes, zaxis): alt.type speaks MuJoCo's numbers
_ALT_FROM_MUJOCO = {0: 0, 1: 1, 2: 3, 3: 4, 4: 2}
_ALT_TO_MUJOCO = {v: k for k, v in _ALT_FROM_MUJOCO.items()}


class _Alt:
    """An orientation's alternative forms (MuJoCo's `alt`/`ialt`): writing one selects it;
    `type` is MuJoCo's mjtOrientation (0 quat, 1 axisangle, 2 xyaxes, 3 zaxis, 4 euler)."""

    __slots__ = ("_el", "_prefix")

    def __init__(self, el, prefix):
        object.__setattr__(self, "_el", el)
        object.__setattr__(self, "_prefix", prefix)

    def __getattr__(self, name):
        if name == "type":
            return _ALT_TO_MUJOCO[getattr(self._el, self._prefix + "alttype")]
        return getattr(self._el, self._prefix + name)

    def __setattr__(self, name, value):
        if name == "type":
            value = self._el._enum("alttype", value)
            if value not in _ALT_FROM_MUJOCO:
                raise SpecError(f"alt.type = {value}: MuJoCo's mjtOrientation is 0 to 4")
            setattr(self._el, self._prefix + "alttype", _ALT_FROM_MUJOCO[value])
        else:
            setattr(self._el, self._prefix + name, value)

    def __dir__(self):
        return ["type", "axisangle", "euler", "xyaxes", "zaxis"]


class Element(_Struct):
    """An element of a spec (body, joint, geom, site, camera, light, frame, tendon, actuator,
    sensor, equality, key, numeric, text, tuple, mesh, hfield, texture, material, pair, exclude).
    Two reads of the same element give the same object; deleting it from the spec invalidates it."""

    __slots__ = ("_uid",)

    # an element written in frames: its pose in its frame, as MuJoCo's spec (_spec_frame.py)
    def _get(self, name, entry):
        value = super()._get(name, entry)
        if name in _frame.FRAMED.get(self._kind, ()):
            local = _frame.get_framed(self, name, value)
            if local is not None:
                return _attr_array(local, self, name)
        return value

    def _set(self, name, value):
        if name in _frame.FRAMED.get(self._kind, ()) and _frame.set_framed(self, name, value, super()._set):
            return None
        if self._kind == _lib.GS_SK_FRAME and _frame.frame_write(self, name, value):
            return None
        return super()._set(name, value)

    # ---- frames ----
    def add_frame(self, frame=None, **kwargs):
        """A frame in this body (`frame`, also the first argument as in MuJoCo: written in one of
        its frames) or in this frame, with `name`, `pos`, `quat` (MuJoCo's body.add_frame)."""
        if frame is not None:
            kwargs["frame"] = frame
        return _frame.add_frame(self, kwargs)

    @property
    def frames(self):
        """A body's frames, enclosing ones first."""
        return self._children(_lib.GS_SK_FRAME)

    def set_frame(self, frame):
        """Put this body, joint, geom, site, camera, light or frame in `frame` (one of its body's;
        a body: of its parent's), keeping its pose in its frame as it reads: it is then placed by
        the frame and moves with it (MuJoCo's element.set_frame)."""
        _frame.set_frame(self, frame)

    @property
    def frame(self):
        """The frame a body, joint, geom, site, camera, light or frame is written in (None:
        directly in its body; a body: in its parent), as MuJoCo's element.frame."""
        return _frame.frame_of(self)

    @property
    def kind(self):
        """The element's kind: "body", "joint", ..."""
        return _KIND_NAMES[self._kind]

    @property
    def alt(self):
        """The orientation's alternative forms: axisangle, euler, xyaxes, zaxis."""
        return _Alt(self, "")

    @property
    def ialt(self):
        """A body's inertial orientation in its alternative forms."""
        return _Alt(self, "i")

    @property
    def parent(self):
        """The body holding this body, joint, geom, site, camera or light (None for the world)."""
        p = _lib.gs_specParent(self._spec._ptr, self._kind, self._addr())
        return self._spec._wrap(p, _lib.GS_SK_BODY) if p else None

    @property
    def signature(self):
        """A number identifying the element within its spec (kept across compiles)."""
        return self._uid

    def delete(self):
        """Remove the element from its spec (a body with everything under it)."""
        self._spec.delete(self)

    def __repr__(self):
        if self._ptr is None:
            return f"<gauss.Spec {self.kind} (deleted)>"
        name = self.name if "name" in _table(self._kind) else None
        return f"<gauss.Spec {self.kind} {name!r}>" if name else f"<gauss.Spec {self.kind}>"

    def __eq__(self, other):
        return self is other

    def __hash__(self):
        return hash(self._uid)

    # ---- bodies: children ----
    def _children(self, kind):
        return self._spec._children(self._addr(), self._kind, kind)

    def _add(self, kind, add, kwargs):
        if self._kind != _lib.GS_SK_BODY:
            raise SpecError(f"only bodies hold {_KIND_NAMES[kind]}s")
        p = add(self._addr())
        if not p:
            raise MemoryError("out of memory")
        return self._spec._wrap(p, kind)._setmany(kwargs)

    def add_body(self, **kwargs):
        """A child body, with MJCF's defaults and the attributes given."""
        return self._add(_lib.GS_SK_BODY, _lib.gs_specAddBody, kwargs)

    def add_joint(self, **kwargs):
        """A joint of this body (a hinge unless type is given)."""
        return self._add(_lib.GS_SK_JOINT, _lib.gs_specAddJoint, kwargs)

    def add_freejoint(self, **kwargs):
        """A free joint of this body."""
        return self._add(_lib.GS_SK_JOINT, _lib.gs_specAddJoint, {"type": 0, **kwargs})

    def add_geom(self, **kwargs):
        """A geom of this body (a sphere unless type is given)."""
        return self._add(_lib.GS_SK_GEOM, _lib.gs_specAddGeom, kwargs)

    def add_site(self, **kwargs):
        """A site of this body."""
        return self._add(_lib.GS_SK_SITE, _lib.gs_specAddSite, kwargs)

    def add_camera(self, **kwargs):
        """A camera of this body."""
        return self._add(_lib.GS_SK_CAMERA, _lib.gs_specAddCamera, kwargs)

    def add_light(self, **kwargs):
        """A light of this body."""
        return self._add(_lib.GS_SK_LIGHT, _lib.gs_specAddLight, kwargs)

    @property
    def bodies(self):
        """The body's direct children (MuJoCo's body.bodies)."""
        return self._children(_lib.GS_SK_BODY)

    @property
    def joints(self):
        """The body's joints, in order."""
        return self._children(_lib.GS_SK_JOINT)

    @property
    def geoms(self):
        """The body's geoms, in order."""
        return self._children(_lib.GS_SK_GEOM)

    @property
    def sites(self):
        """The body's sites, in order."""
        return self._children(_lib.GS_SK_SITE)

    @property
    def cameras(self):
        """The body's cameras, in order."""
        return self._children(_lib.GS_SK_CAMERA)

    @property
    def lights(self):
        """The body's lights, in order."""
        return self._children(_lib.GS_SK_LIGHT)

    # ---- tendons: the path ----
    def _wrap_add(self, kind, **kwargs):
        if self._kind != _lib.GS_SK_TENDON:
            raise SpecError("only tendons have a path")
        if kind != 0:
            self._set("spatial", 1)  # a path of sites, geoms and pulleys: a spatial tendon
        p = _lib.gs_specAddWrap(self._addr(), kind)
        if not p:
            raise MemoryError("out of memory")
        return self._spec._wrap(p, _lib.GS_SK_WRAP)._setmany(kwargs)

    def wrap_joint(self, name, coef):
        """Add a joint with its coefficient to a fixed tendon."""
        return self._wrap_add(0, target=name, prm=coef)

    def wrap_site(self, name):
        """Add a site to a spatial tendon's path."""
        return self._wrap_add(1, target=name)

    def wrap_geom(self, name, sidesite=""):
        """Add a wrapping geom (sphere or cylinder) to a spatial tendon's path, with an optional side site."""
        return self._wrap_add(2, target=name, sidesite=sidesite or None)

    def wrap_pulley(self, divisor):
        """Start a new branch of a spatial tendon's path, its length divided by divisor."""
        return self._wrap_add(3, prm=divisor)

    @property
    def wraps(self):
        """A tendon's path, in order."""
        return self._spec._children(self._addr(), _lib.GS_SK_TENDON, _lib.GS_SK_WRAP)

    # ---- tuples ----
    def add_element(self, objtype, objname, prm=0.0):
        """Add an object to a custom tuple."""
        if self._kind != _lib.GS_SK_TUPLE:
            raise SpecError("only tuples hold elements")
        p = _lib.gs_specAddTupleElement(self._addr())
        if not p:
            raise MemoryError("out of memory")
        return self._spec._wrap(p, _lib.GS_SK_TUPLEELEMENT)._setmany(
            {"objtype": objtype, "objname": objname, "prm": prm})

    @property
    def elements(self):
        """A tuple's objects, in order."""
        return self._spec._children(self._addr(), _lib.GS_SK_TUPLE, _lib.GS_SK_TUPLEELEMENT)

    # ---- actuators: MJCF's shortcuts (MuJoCo's set_to_*, same arguments) ----
    def set_to_motor(self):
        """A direct-drive motor: gain 1, no bias, no activation dynamics."""
        return _shortcuts.set_to_motor(self)

    def set_to_position(self, kp, kv=-1, dampratio=-1, timeconst=-1, inheritrange=False):
        """A position servo, as MJCF's <position> (a negative value: not given)."""
        return _shortcuts.set_to_position(self, kp, kv, dampratio, timeconst, inheritrange)

    def set_to_velocity(self, kv):
        """A velocity servo, as MJCF's <velocity>."""
        return _shortcuts.set_to_velocity(self, kv)

    def set_to_intvelocity(self, kp, kv=-1, dampratio=-1, timeconst=-1, inheritrange=False):
        """An integrated-velocity servo, as MJCF's <intvelocity>."""
        return _shortcuts.set_to_intvelocity(self, kp, kv, dampratio, timeconst, inheritrange)

    def set_to_damper(self, kv):
        """An active damper, as MJCF's <damper>."""
        return _shortcuts.set_to_damper(self, kv)

    def set_to_cylinder(self, timeconst, bias, area, diameter=-1):
        """A pneumatic or hydraulic cylinder, as MJCF's <cylinder>."""
        return _shortcuts.set_to_cylinder(self, timeconst, bias, area, diameter)

    def set_to_muscle(self, **kwargs):
        """A muscle, as MJCF's <muscle> (timeconst, tausmooth, range, force, scale, lmin, lmax,
        vmax, fpmax, fvmax)."""
        return _shortcuts.set_to_muscle(self, **kwargs)

    def set_to_adhesion(self, gain):
        """An adhesion actuator, as MJCF's <adhesion>."""
        return _shortcuts.set_to_adhesion(self, gain)


class Settings(_Struct):
    """The spec's compiler settings, statistic or visual settings (attributes as in MJCF)."""

    __slots__ = ()

    def __repr__(self):
        return f"<gauss.Spec {_KIND_NAMES[self._kind]} settings>"


class Spec:
    """An editable model (MuJoCo's MjSpec): read from MJCF or built from nothing, edited, and
    compiled into a Model. See the module's documentation."""

    def __init__(self, _ptr=None, _warnings=()):
        ptr = _ptr or _lib.gs_specNew()
        if not ptr:
            raise MemoryError("gs_specNew failed")
        self._ptr = ptr
        self._elements = {}  # address -> Element, so that an element has one wrapper
        self._next_uid = 1
        self._token = object()
        self.load_warnings = list(_warnings)
        from . import Option  # the same option view the Model has
        self.option = Option(_lib.gs_specOption(ptr).contents, self)
        self.compiler = Settings(self, _lib.gs_specSettings(ptr, _lib.GS_SK_COMPILER), _lib.GS_SK_COMPILER)
        self.stat = Settings(self, _lib.gs_specSettings(ptr, _lib.GS_SK_STATISTIC), _lib.GS_SK_STATISTIC)
        self.visual = Settings(self, _lib.gs_specSettings(ptr, _lib.GS_SK_VISUAL), _lib.GS_SK_VISUAL)
        self._root = Settings(self, ptr, _lib.GS_SK_SPEC)

    def __del__(self):
        ptr = getattr(self, "_ptr", None)
        if ptr:
            self._ptr = None
            _lib.gs_specFree(ptr)

    # ---- reading MJCF ----
    @classmethod
    def _parse(cls, path, xml, assets, confined):
        from . import _read_xml, Model
        ptr, err = _read_xml(_lib.gs_parseXMLOpt, path, xml, assets, confined)
        if not ptr:
            raise SpecError(err.value.decode(errors="replace") or "cannot read the model")
        return cls(ptr, Model._warnings())

    @classmethod
    def from_file(cls, path, assets=None, confined=False):
        """Read an MJCF file into a spec (without compiling); arguments as Model.from_xml_path."""
        return cls._parse(os.fsencode(str(path)), None, assets, confined)

    @classmethod
    def from_string(cls, xml, assets=None, confined=False):
        """Read MJCF text into a spec; arguments as Model.from_xml_string."""
        if isinstance(xml, str):
            xml = xml.encode()
        return cls._parse(None, xml, assets, confined)

    def copy(self):
        """A deep copy of the spec (MuJoCo's spec.copy()): editing one leaves the other as it was."""
        ptr = _lib.gs_specCopy(self._ptr)
        if not ptr:
            raise MemoryError("gs_specCopy failed")
        return Spec(ptr, self.load_warnings)

    # ---- the spec's own attributes (modelname, <size>, asset directories) ----
    def __getattr__(self, name):
        if name.startswith("_") or name in ("option", "compiler", "stat", "visual"):
            raise AttributeError(name)
        if name in _table(_lib.GS_SK_SPEC):
            return getattr(self._root, name)
        raise AttributeError(f"Spec has no attribute {name!r}")

    def __setattr__(self, name, value):
        if not name.startswith("_") and name in _table(_lib.GS_SK_SPEC):
            setattr(self._root, name, value)
        else:
            object.__setattr__(self, name, value)

    def __dir__(self):
        return sorted(set(object.__dir__(self)) | set(_table(_lib.GS_SK_SPEC)))

    # ---- elements ----
    def _wrap(self, ptr, kind):
        el = self._elements.get(ptr)
        if el is None or el._kind != kind:
            el = Element(self, ptr, kind)
            object.__setattr__(el, "_uid", self._next_uid)
            self._next_uid += 1
            self._elements[ptr] = el
        return el

    def _children(self, parent, parentkind, kind):
        n = ctypes.c_int()
        first = _lib.gs_specChild(parent, parentkind, kind, 0, ctypes.byref(n))
        out = []
        for i in range(n.value):
            p = first if i == 0 else _lib.gs_specChild(parent, parentkind, kind, i, None)
            out.append(self._wrap(p, kind))
        return out

    @property
    def worldbody(self):
        """The world body: add bodies, geoms, sites, cameras and lights to it."""
        return self._wrap(_lib.gs_specWorld(self._ptr), _lib.GS_SK_BODY)

    def _tree(self, kind):
        """Elements of a body kind over the whole tree, in the compiler's (depth-first) order."""
        out, stack = [], [self.worldbody]
        while stack:
            b = stack.pop()
            if kind == _lib.GS_SK_BODY:
                out.append(b)
            else:
                out.extend(b._children(kind))
            stack.extend(reversed(b._children(_lib.GS_SK_BODY)))
        return out

    @property
    def bodies(self):
        """Every body, the world first, in the compiled model's order."""
        return self._tree(_lib.GS_SK_BODY)

    @property
    def joints(self):
        """Every joint, in the compiled model's order."""
        return self._tree(_lib.GS_SK_JOINT)

    @property
    def geoms(self):
        """Every geom, in the compiled model's order."""
        return self._tree(_lib.GS_SK_GEOM)

    @property
    def sites(self):
        """Every site, in the compiled model's order."""
        return self._tree(_lib.GS_SK_SITE)

    @property
    def cameras(self):
        """Every camera, in the compiled model's order."""
        return self._tree(_lib.GS_SK_CAMERA)

    @property
    def lights(self):
        """Every light, in the compiled model's order."""
        return self._tree(_lib.GS_SK_LIGHT)

    def _find(self, kind, name):
        if kind in _BODY_KINDS.values():
            items = self._tree(kind)
        else:
            items = self._children(self._ptr, _lib.GS_SK_SPEC, kind)
        for el in items:
            if el.name == name:
                return el
        return None

    @property
    def frames(self):
        """Every frame, body by body in the compiled model's order."""
        return _frame.spec_frames(self)

    def delete(self, element):
        """Remove an element (a body with its subtree) from the spec."""
        if not isinstance(element, Element) or element._spec is not self:
            raise SpecError("delete: the element is not in this spec")
        ptr = element._addr()
        if element._kind == _lib.GS_SK_BODY and element.parent is None:
            raise SpecError("the world body cannot be deleted")
        gone = self._subtree(element)
        if not _lib.gs_specDelete(self._ptr, element._kind, ptr):
            raise SpecError(f"delete: the {element.kind} is not in this spec")
        for el in gone:
            self._elements.pop(el._ptr, None)
            object.__setattr__(el, "_ptr", None)

    def _subtree(self, element):
        """The element and every wrapper-holding element freed with it."""
        out = [element]
        if element._kind == _lib.GS_SK_BODY:
            for kind in _BODY_KINDS.values():
                for child in element._children(kind):
                    out.extend(self._subtree(child) if kind == _lib.GS_SK_BODY else [child])
        elif element._kind == _lib.GS_SK_TENDON:
            out.extend(element.wraps)
        elif element._kind == _lib.GS_SK_TUPLE:
            out.extend(element.elements)
        return out

    # ---- compiling ----
    def compile(self):
        """Compile into a new Model; raises SpecError naming the element at fault."""
        from . import Model
        err = ctypes.create_string_buffer(1000)
        ptr = _lib.gs_compile(self._ptr, err, len(err))
        if not ptr:
            raise SpecError(err.value.decode(errors="replace") or "the spec does not compile")
        m = Model(ptr, self.load_warnings)
        object.__setattr__(m, "_spec_layout", self._layout())
        return m

    def _layout(self):
        """The elements behind each compiled id (their uids), to carry state across recompiles."""
        layout = {k: [el._uid for el in self._tree(kind)]
                  for k, kind in (("body", _lib.GS_SK_BODY), ("joint", _lib.GS_SK_JOINT))}
        layout["actuator"] = [el._uid for el in self.actuators]
        layout["spec"] = self._token  # uids are this spec's own
        return layout

    def recompile(self, model, data):
        """Compile again after edits and return (model, data): a new model and a data holding the
        state of `data` for what persists (MuJoCo's recompile): time, each remaining joint's qpos,
        qvel, warm start and applied forces, each remaining actuator's ctrl and act, each
        remaining body's applied force and mocap pose, and user data when its size is unchanged.
        Joints and actuators added since `model` was compiled start at their defaults."""
        from ._spec_state import carry_state
        new = self.compile()
        return new, carry_state(model, data, new)

    def to_xml(self):
        """An MJCF document of the compiled spec (defaults resolved, as Model.to_xml)."""
        return self.compile().to_xml()


def _spec_level(kind, listname):
    def add(self, **kwargs):
        adders = {
            _lib.GS_SK_TENDON: lambda p: _lib.gs_specAddTendon(p, 0),
            _lib.GS_SK_SENSOR: lambda p: _lib.gs_specAddSensor(p, int(kwargs.pop("type", 0))),
            _lib.GS_SK_EQUALITY: lambda p: _lib.gs_specAddEquality(p, int(kwargs.pop("type", 0))),
        }
        adder = adders.get(kind)
        if adder is None:
            fn = getattr(_lib, "gs_specAdd" + {"hfield": "HField"}.get(_KIND_NAMES[kind],
                                                                        _KIND_NAMES[kind].capitalize()))
            adder = fn
        p = adder(self._ptr)
        if not p:
            raise MemoryError("out of memory")
        return self._wrap(p, kind)._setmany(kwargs)

    def listing(self):
        return self._children(self._ptr, _lib.GS_SK_SPEC, kind)

    def find(self, name):
        return self._find(kind, name)

    add.__doc__ = f"Add a {_KIND_NAMES[kind]} with MJCF's defaults and the attributes given."
    listing.__doc__ = f"The spec's {listname}, in order."
    find.__doc__ = f"The {_KIND_NAMES[kind]} with this name, None when there is none."
    return add, property(listing), find


for _name, (_kind, _listname) in _SPEC_KINDS.items():
    _add, _list, _find = _spec_level(_kind, _listname)
    setattr(Spec, "add_" + _name, _add)
    setattr(Spec, _listname, _list)
    setattr(Spec, _name, _find)

for _name, _kind in _BODY_KINDS.items():
    def _finder(kind):
        def find(self, name):
            return self._find(kind, name)
        find.__doc__ = f"The {_KIND_NAMES[kind]} with this name, None when there is none."
        return find
    setattr(Spec, _name, _finder(_kind))


# attaching (python/gauss/_spec_attach.py)
from ._spec_attach import site_attach_body as _site_attach_body, spec_attach as _spec_attach  # noqa: E402
Spec.attach = _spec_attach
Element.attach_body = _site_attach_body
