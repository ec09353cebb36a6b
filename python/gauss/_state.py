"""The simulation state as one flat array (MuJoCo's mj_stateSize, mj_getState, mj_setState and
mjtState bits), and pickling and deep copies of Model and Data built on it."""

import copy as _copy

import numpy as np

from . import _lib

# components, one bit each (gsState in include/gauss/state.h); a state array holds the chosen
# components in the order of their bits
STATE_TIME = 1 << 0
STATE_QPOS = 1 << 1
STATE_QVEL = 1 << 2
STATE_ACT = 1 << 3
STATE_WARMSTART = 1 << 4
STATE_CTRL = 1 << 5
STATE_QFRC_APPLIED = 1 << 6
STATE_XFRC_APPLIED = 1 << 7
STATE_EQ_ACTIVE = 1 << 8
STATE_MOCAP_POS = 1 << 9
STATE_MOCAP_QUAT = 1 << 10
STATE_USERDATA = 1 << 11
STATE_PLUGIN = 1 << 12
NSTATE = 13
STATE_PHYSICS = STATE_QPOS | STATE_QVEL | STATE_ACT
STATE_FULLPHYSICS = STATE_TIME | STATE_PHYSICS | STATE_PLUGIN
STATE_USER = (STATE_CTRL | STATE_QFRC_APPLIED | STATE_XFRC_APPLIED | STATE_EQ_ACTIVE
              | STATE_MOCAP_POS | STATE_MOCAP_QUAT | STATE_USERDATA)
STATE_INTEGRATION = STATE_FULLPHYSICS | STATE_USER | STATE_WARMSTART

STATE_NAMES = ("TIME", "QPOS", "QVEL", "ACT", "WARMSTART", "CTRL", "QFRC_APPLIED",
               "XFRC_APPLIED", "EQ_ACTIVE", "MOCAP_POS", "MOCAP_QUAT", "USERDATA", "PLUGIN")

__all__ = ["state_size", "get_state", "set_state", "NSTATE", "STATE_NAMES"] + \
    ["STATE_" + n for n in STATE_NAMES] + \
    ["STATE_PHYSICS", "STATE_FULLPHYSICS", "STATE_USER", "STATE_INTEGRATION"]


def _spec(spec):
    try:
        s = int(spec)
    except (TypeError, ValueError):
        raise TypeError(f"spec must be an int of STATE_* bits, got {spec!r}") from None
    if s < 0 or s >> NSTATE:
        raise ValueError(f"spec {s:#x} has bits beyond the {NSTATE} state components "
                         f"(valid: 0 to {(1 << NSTATE) - 1:#x})")
    return s


def _check(m, d):
    if d.model is not m and d.model._ptr.value != m._ptr.value:
        raise ValueError("the data was made for another model")


def state_size(m, spec):
    """Number of reals in a state holding the components `spec` (STATE_* bits)."""
    return int(_lib.gs_stateSize(m._ptr, _spec(spec)))


def get_state(m, d, spec=STATE_FULLPHYSICS, out=None):
    """The components `spec` of d as one 1-D float64 array of state_size(m, spec) reals, in the
    order of their bits (MuJoCo's mj_getState); written into `out` when given."""
    _check(m, d)
    s = _spec(spec)
    n = _lib.gs_stateSize(m._ptr, s)
    if out is None:
        out = np.empty(n)
    elif (not isinstance(out, np.ndarray) or out.dtype != np.float64 or out.shape != (n,)
          or not out.flags.c_contiguous or not out.flags.writeable):
        raise ValueError(f"out must be a writeable contiguous float64 array of shape ({n},) "
                         f"for spec {s:#x}")
    _lib.gs_getState(m._ptr, d._ptr, out.ctypes.data, s)
    return out


def set_state(m, d, state, spec=STATE_FULLPHYSICS):
    """Set the components `spec` of d from `state` (state_size(m, spec) reals, as get_state
    returns them; MuJoCo's mj_setState). eq_active becomes 1 where the value is non-zero."""
    _check(m, d)
    s = _spec(spec)
    n = _lib.gs_stateSize(m._ptr, s)
    arr = np.ascontiguousarray(state, dtype=np.float64)
    if arr.ndim != 1 or arr.size != n:
        raise ValueError(f"state has shape {arr.shape}, spec {s:#x} needs {n} reals "
                         f"(state_size(m, spec))")
    _lib.gs_setState(m._ptr, d._ptr, arr.ctypes.data, s)


# ---- pickling and deep copies ----

def _data_fields(d):
    """Copies of every array of d, and its scalars."""
    arrays = {name: np.array(getattr(d, name)) for name in d.field_names()}
    return {"arrays": arrays, "time": float(d.time), "energy": np.array(d.energy),
            "warning": np.array(d.warning), "timer": np.array(d.timer)}


def _restore_data(data_cls, model, saved):
    d = data_cls(model)
    for name, value in saved["arrays"].items():
        getattr(d, name)[...] = value
    d.time = saved["time"]
    d.energy[...] = saved["energy"]
    d.warning[...] = saved["warning"]
    d.timer[...] = saved["timer"]
    return d


def _data_reduce(self):
    # the model travels in its binary form (Model.__reduce__), the data as all its arrays: the
    # state, the warm start and every intermediate, so that the copy steps on bit for bit;
    # contacts and constraint rows are remade by the next step. Callbacks are not pickled.
    return (_restore_data, (type(self), self.model, _data_fields(self)))


def _data_deepcopy(self, memo):
    # a copy of the model too (shared with other objects copied in the same call), then the
    # data copied over as gs_copyData does
    model = _copy.deepcopy(self.model, memo)
    out = type(self)(model)
    if not _lib.gs_copyData(out._ptr, model._ptr, self._ptr):
        raise MemoryError("gs_copyData failed")
    if self.__dict__.get("_callbacks"):
        # gs_copyData copied the C callbacks: the copy keeps their functions alive too
        object.__setattr__(out, "_callbacks", dict(self._callbacks))
    return out


def _model_deepcopy(self, memo):
    out = self.copy()
    memo[id(self)] = out
    return out


def _install(model_cls, data_cls):
    """Pickling and deep copies for Model and Data (Model pickles as its binary already)."""
    data_cls.__reduce__ = _data_reduce
    data_cls.__deepcopy__ = _data_deepcopy
    model_cls.__deepcopy__ = _model_deepcopy
