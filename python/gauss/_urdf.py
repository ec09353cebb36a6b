"""URDF files: gauss.Model.from_urdf_path (gs_loadURDF). Model.from_xml_path takes URDF too, as
MuJoCo's loader does; this one refuses any other file."""

import ctypes as _ctypes

from . import _lib


def _load(cls, fn, arg, what):
    from . import GaussError
    err = _ctypes.create_string_buffer(1000)
    ptr = fn(arg, err, len(err))
    if not ptr:
        raise GaussError(err.value.decode(errors="replace") or f"cannot load {what}")
    return cls(ptr, cls._warnings())


def from_urdf_path(cls, path):
    """Load a URDF file (root element <robot>) as MuJoCo's loader reads it: links are bodies,
    joints (revolute, continuous, prismatic, fixed, floating, planar, spherical) their joints,
    collision geometry kept, visual geometry discarded unless the file's
    <mujoco><compiler discardvisual="false"/></mujoco> says otherwise, bodies without joints fused
    into their parents (fusestatic), angles in radians. Errors name the file, line and element."""
    return _load(cls, _lib.gs_loadURDF, str(path).encode(), path)


def from_urdf_string(cls, urdf):
    """Load URDF text, as from_urdf_path (mesh files are found relative to the working directory)."""
    if isinstance(urdf, str):
        urdf = urdf.encode()
    return _load(cls, _lib.gs_loadURDFString, urdf, "the URDF string")


def _install(model_cls):
    model_cls.from_urdf_path = classmethod(from_urdf_path)
    model_cls.from_urdf_string = classmethod(from_urdf_string)
