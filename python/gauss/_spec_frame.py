"""Frames of a gauss.Spec (MuJoCo's MjsFrame) and the poses of bodies written in them.

A gauss spec places what a <frame> holds when the frame is read or attached to: the elements keep
their poses in the body, and the frame is a record of its name, its enclosing frame and its pose
(`pos`, `quat`, as written: in the enclosing frame). So a frame's pose can be set while nothing is
placed in it (`placed` 0: a frame made by `add_frame`, until something is attached to it); once
placed it stays. A body written in frames reads and writes its `pos`, `quat` and orientation forms
in its frame, as on MuJoCo's spec (the library converts: gs_specFramedPose and friends)."""

import ctypes

import numpy as np

from . import _lib

# a body's attributes that MuJoCo's spec gives in the body's frame
FRAMED_ATTRS = ("pos", "quat", "alttype", "axisangle", "euler", "xyaxes", "zaxis")


def framed_pose(el):
    """(pos, quat) of a body written in frames, in its frame; None for anything else."""
    pos, quat = (ctypes.c_double * 3)(), (ctypes.c_double * 4)()
    if not _lib.gs_specFramedPose(el._spec._ptr, el._kind, el._addr(), pos, quat):
        return None
    return np.array(pos), np.array(quat)


def set_framed(el, name, value, generic_set):
    """Write a pose attribute of a body written in frames, meant in its frame."""
    from ._spec import SpecError
    if name == "pos":
        v = np.asarray(value, dtype=np.float64).reshape(-1)
        if v.size != 3:
            raise SpecError(f"body.pos takes 3 values, got {v.size}")
        if not _lib.gs_specFramedSetPos(el._spec._ptr, el._kind, el._addr(),
                                        (ctypes.c_double * 3)(*v)):
            raise SpecError("body.pos: the body is not written in a frame")
        return
    if name == "alttype" and int(value) == 0:
        return  # a framed body's orientation is held as a quaternion already: unchanged
    generic_set(name, value)  # the form as given (selecting it), then made a quaternion in the parent
    err = ctypes.create_string_buffer(500)
    if not _lib.gs_specFramedOrient(el._spec._ptr, el._kind, el._addr(), err, len(err)):
        raise SpecError(err.value.decode(errors="replace") or f"body.{name}: invalid orientation")


def check_frame_write(el, name):
    """A frame's pose can change only while nothing is placed in it."""
    from ._spec import SpecError
    if name == "placed":
        raise SpecError("frame.placed is read only")
    if name in ("pos", "quat") and el.placed:
        raise SpecError(f"frame.{name}: what this frame holds is already placed by it (gauss places "
                        "a frame's contents when they are read or attached); set the pose first")


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


def body_pose(el):
    """A frame's pose in its body (its enclosing frames composed), as (pos, quat)."""
    pos, quat = (ctypes.c_double * 3)(), (ctypes.c_double * 4)()
    _lib.gs_specFrameBodyPose(el._addr(), pos, quat)
    return np.array(pos), np.array(quat)


def spec_frames(spec):
    """Every frame of the spec, body by body in the compiled order."""
    return [f for b in spec.bodies for f in b.frames]
