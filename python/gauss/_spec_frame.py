"""Frames of a gauss.Spec (MuJoCo's MjsFrame) and the poses of elements written in them.

A gauss spec places what a <frame> holds when the frame is read or attached to: the elements keep
their poses in the body, and the frame is a record of its name, its enclosing frame and its pose
(`pos`, `quat`, as written: in the enclosing frame). A frame's pose set while nothing is placed in
it (`placed` 0: a frame made by `add_frame`, until something is attached to it) is just recorded;
once placed, what it holds moves with it (gs_specSetFramePose), as MuJoCo compiles an edited
frame. An element written in frames (a body, joint, geom, site, camera or light) reads and writes
its pose (`pos`, `quat` and the orientation forms; a joint's `axis`, a light's `dir`; a geom's or
site's `fromto` on writing) in its frame, as on MuJoCo's spec: the library gives the frame's pose
(gs_specFramePose), turns an orientation written in the frame into the one it holds
(gs_specFramedOrient) and a fromto into the pose and size it stands for (gs_specFramedFromto).
`element.set_frame(frame)` puts an element in a frame of its body (gs_specSetFrame), its pose in
the frame kept as it reads; a nonzero pos beside a fromto that gives the pose is refused as
MuJoCo refuses it ("both pos and fromto defined"), and such an element's pos and quat read as not
given (zero, identity) and are not edited by a zero pos or any orientation, as on MuJoCo's spec."""

import ctypes

import numpy as np

from . import _lib

# the attributes MuJoCo's spec gives in an element's frame, by kind: points, direction vectors,
# and the orientation (its quaternion and the alternative forms)
_FORMS = ("alttype", "axisangle", "euler", "xyaxes", "zaxis")
_ORIENTED = {"pos": "point", "quat": "quat", **{f: "form" for f in _FORMS}}
FRAMED = {
    _lib.GS_SK_BODY: _ORIENTED, _lib.GS_SK_GEOM: {**_ORIENTED, "fromto": "segment"},
    _lib.GS_SK_SITE: {**_ORIENTED, "fromto": "segment"},
    _lib.GS_SK_CAMERA: _ORIENTED,
    _lib.GS_SK_JOINT: {"pos": "point", "axis": "vector"},
    _lib.GS_SK_LIGHT: {"pos": "point", "dir": "vector"},
}


def _qmul(a, b):
    return np.array([a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
                     a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
                     a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
                     a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]])


def _conj(q):
    return np.array([q[0], -q[1], -q[2], -q[3]])


def _rotate(q, v):
    return _qmul(_qmul(q, np.r_[0.0, v]), _conj(q))[1:]


def frame_pose(el):
    """(pos, quat) of the frames el's pose is held in (a body's in its parent, others' in their
    body); None when el is not in a frame."""
    pos, quat = (ctypes.c_double * 3)(), (ctypes.c_double * 4)()
    if not _lib.gs_specFramePose(el._kind, el._addr(), pos, quat):
        return None
    return np.array(pos), np.array(quat)


def get_framed(el, name, raw):
    """An attribute of an element in a frame, given in its frame (None: not in a frame)."""
    what = FRAMED.get(el._kind, {}).get(name)
    pose = frame_pose(el) if what in ("point", "vector", "quat") else None
    if pose is None:
        return None
    fp, fq = pose
    if name in ("pos", "quat") and _fromto_given(el):
        # the pose is the fromto's: pos and quat read as not given, as on MuJoCo's spec
        return np.zeros(3) if name == "pos" else np.array([1.0, 0, 0, 0])
    raw = np.asarray(raw, dtype=np.float64)
    if what == "point":
        return _rotate(_conj(fq), raw - fp)
    if what == "vector":
        return _rotate(_conj(fq), raw)
    q = _qmul(_conj(fq), raw)
    return q / np.linalg.norm(q)


# the types a fromto stands for a pose and size on (capsule, ellipsoid, cylinder, box)
_FROMTO_POSE = (3, 4, 5, 6)


def _raw(el, name):
    """an attribute as the spec holds it (in the body)"""
    from ._spec import _Struct, _table
    return np.array(_Struct._get(el, name, _table(el._kind)[name]), dtype=np.float64)


def _fromto_given(el):
    """a geom or site whose fromto gives its pose (an unset fromto reads zero; a zero one is
    refused anyway)"""
    if el._kind not in (_lib.GS_SK_GEOM, _lib.GS_SK_SITE) or int(el.type) not in _FROMTO_POSE:
        return False
    return bool(np.any(_raw(el, "fromto") != 0))


def _fromto_clash(el, name, value, fp, fq):
    """MJCF refuses a nonzero pos beside a fromto on a geom or site it gives the pose of ("both pos
    and fromto defined", MuJoCo's compile error): raised here, where gauss places what the fromto
    stands for in the frame. True when pos is written as zero beside a fromto (nothing to do)."""
    from ._spec import SpecError
    if el._kind not in (_lib.GS_SK_GEOM, _lib.GS_SK_SITE) or int(el.type) not in _FROMTO_POSE:
        return False
    given = _fromto_given(el)
    if name == "pos":
        if not given:
            return False
        if np.any(np.asarray(value, dtype=np.float64) != 0):
            raise SpecError(f"{el.name or 'element'}: both pos and fromto defined")
        return True
    # a fromto written beside a pos given in the frame (none given: the pos is the frame's origin)
    if not given and not np.allclose(_rotate(_conj(fq), _raw(el, "pos") - fp), 0,
                                     atol=1e-12):
        raise SpecError(f"{el.name or 'element'}: both pos and fromto defined")
    return False


def set_framed(el, name, value, generic_set):
    """Write an attribute of an element in a frame, meant in its frame; False when el is not in a
    frame (the caller writes it as it is)."""
    from ._spec import SpecError
    what = FRAMED.get(el._kind, {}).get(name)
    pose = frame_pose(el) if what else None
    if pose is None:
        return False
    fp, fq = pose
    err = ctypes.create_string_buffer(500)
    if what in ("point", "segment") and _fromto_clash(el, name, value, fp, fq):
        return True  # a zero pos beside a fromto: not given (the fromto's pose stays)
    if what in ("quat", "form") and _fromto_given(el):
        return True  # the fromto gives the orientation, as in MuJoCo (which keeps what was written)
    if what == "segment":  # kept as written (read back so); the pose and size it stands for placed
        generic_set(name, value)
        if not _lib.gs_specFramedFromto(el._spec._ptr, el._kind, el._addr(), err, len(err)):
            raise SpecError(err.value.decode(errors="replace") or f"{name}: cannot place it")
        return True
    if what in ("point", "vector"):
        v = np.asarray(value, dtype=np.float64).reshape(-1)
        if v.size != 3:
            raise SpecError(f"{name} takes 3 values, got {v.size}")
        generic_set(name, _rotate(fq, v) + (fp if what == "point" else 0))
        return True
    if name == "alttype" and int(value) == 0:
        return True  # the orientation of an element in a frame is held as a quaternion already
    generic_set(name, value)  # the form as given (selecting it), then made a quaternion outside
    if not _lib.gs_specFramedOrient(el._spec._ptr, el._kind, el._addr(), err, len(err)):
        raise SpecError(err.value.decode(errors="replace") or f"{name}: invalid orientation")
    return True


def frame_write(el, name, value):
    """A frame's pos or quat written (what it holds moves with it); True when handled."""
    from ._spec import SpecError
    if name == "placed":
        raise SpecError("frame.placed is read only")
    if name not in ("pos", "quat"):
        return False
    v = np.asarray(value, dtype=np.float64).reshape(-1)
    size = 3 if name == "pos" else 4
    if v.size != size:
        raise SpecError(f"frame.{name} takes {size} values, got {v.size}")
    pos = v if name == "pos" else np.array(el.pos, dtype=np.float64)
    quat = v if name == "quat" else np.array(el.quat, dtype=np.float64)
    err = ctypes.create_string_buffer(500)
    dbl = ctypes.POINTER(ctypes.c_double)
    pos, quat = np.ascontiguousarray(pos), np.ascontiguousarray(quat)
    if not _lib.gs_specSetFramePose(el._spec._ptr, el.parent._addr(), el._addr(), pos.ctypes.data_as(dbl),
                                    quat.ctypes.data_as(dbl), err, len(err)):
        raise SpecError(f"frame.{name}: " + (err.value.decode(errors="replace") or "cannot move it"))
    return True


def add_frame(el, kwargs):
    """A new frame in body `el` (or, for a frame, in its body, written in it)."""
    from ._spec import SpecError
    if el._kind == _lib.GS_SK_FRAME:
        body, up = el.parent, el
    elif el._kind == _lib.GS_SK_BODY:
        body, up = el, kwargs.pop("frame", None)
    else:
        raise SpecError("only bodies and frames hold frames")
    if up is not None and (getattr(up, "_kind", None) != _lib.GS_SK_FRAME or up._spec is not el._spec):
        raise SpecError("add_frame: frame must be a frame of this spec")
    p = _lib.gs_specAddFrame(body._addr(), up._addr() if up is not None else None)
    if not p:
        raise SpecError("add_frame: the enclosing frame is not in this body")
    return el._spec._wrap(p, _lib.GS_SK_FRAME)._setmany(kwargs)


class _FrameHead(ctypes.Structure):
    """The start of gsSpecFrame: its gsSpecInfo (name, file, line), then the enclosing frame."""
    _fields_ = [("name", ctypes.c_void_p), ("file", ctypes.c_void_p), ("line", ctypes.c_int),
                ("frame", ctypes.c_void_p)]


def enclosing(el):
    """The frame a frame is written in (None: directly in its body)."""
    p = _FrameHead.from_address(el._addr()).frame
    return el._spec._wrap(p, _lib.GS_SK_FRAME) if p else None


def frame_of(el):
    """The frame el is written in (None: none)."""
    if el._kind not in FRAMED and el._kind != _lib.GS_SK_FRAME:
        raise AttributeError("only bodies, joints, geoms, sites, cameras, lights and frames are "
                             "written in frames")
    if el._kind == _lib.GS_SK_FRAME:
        return enclosing(el)
    p = _lib.gs_specFrameOf(el._kind, el._addr())
    return el._spec._wrap(p, _lib.GS_SK_FRAME) if p else None


def set_frame(el, frame):
    """Put el (a body, joint, geom, site, camera, light or frame) in `frame`, one of its body's
    frames (a body: of its parent's; None: directly in the body), its pose in its frame kept as it
    reads, as MuJoCo's element.set_frame."""
    from ._spec import SpecError
    if frame is not None and (getattr(frame, "_kind", None) != _lib.GS_SK_FRAME or frame._spec is not el._spec):
        raise SpecError("set_frame: frame must be a frame of this spec")
    err = ctypes.create_string_buffer(500)
    if not _lib.gs_specSetFrame(el._spec._ptr, el._kind, el._addr(), frame._addr() if frame is not None else None,
                                err, len(err)):
        raise SpecError("set_frame: " + (err.value.decode(errors="replace") or "cannot put it there"))


def body_pose(el):
    """A frame's pose in its body (its enclosing frames composed), as (pos, quat)."""
    pos, quat = (ctypes.c_double * 3)(), (ctypes.c_double * 4)()
    _lib.gs_specFrameBodyPose(el._addr(), pos, quat)
    return np.array(pos), np.array(quat)


def spec_frames(spec):
    """Every frame of the spec, body by body in the compiled order."""
    return [f for b in spec.bodies for f in b.frames]
