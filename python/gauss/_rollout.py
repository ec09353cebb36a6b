"""Open-loop rollouts in C on a pool of threads, with the arguments and shapes of MuJoCo's
mujoco.rollout.rollout."""

import ctypes

import numpy as np

from . import _lib
from ._state import STATE_CTRL, STATE_FULLPHYSICS, STATE_USER

__all__ = ["rollout"]


def _batch(name, arr, ndim, last):
    """`arr` as float64 with `ndim` dimensions (leading ones added), its last dimension `last`."""
    a = np.asarray(arr, dtype=np.float64)
    while a.ndim < ndim:
        a = a[np.newaxis]
    if a.ndim != ndim or a.shape[-1] != last:
        raise ValueError(f"{name} has shape {np.shape(arr)}, expected "
                         f"{('(nbatch or 1, nstep or 1, ' if ndim == 3 else '(nbatch or 1, ')}{last})")
    return a


def _output(name, arr, shape):
    if arr is None:
        return np.empty(shape)
    if (not isinstance(arr, np.ndarray) or arr.dtype != np.float64 or arr.shape != shape
            or not arr.flags.c_contiguous or not arr.flags.writeable):
        raise ValueError(f"{name} must be a writeable C-contiguous float64 array of shape {shape}")
    return arr


def _arguments(model, initial_state, control, control_spec, nstep, initial_warmstart):
    """The checks and batch rules of a rollout's arguments (shared with gauss.distributed): the
    models (one, or a sequence of the same sizes), the control spec, and the initial states,
    controls and warm starts broadcast to nbatch (each batch dimension is 1 or nbatch; controls
    have 1 or nstep steps). Returns (models, first, spec, s0, ctrl, warm, nbatch, nstep), the
    arrays as read-only broadcast views (ctrl and warm None when not given)."""
    models = list(model) if isinstance(model, (list, tuple)) else [model]
    if not models:
        raise ValueError("rollout needs a model")
    first = models[0]
    for mm in models[1:]:
        if mm is not first and mm._sizes != first._sizes:
            raise ValueError("the models of a rollout must have the same sizes (the same "
                             "structure, with other parameters)")
    spec = int(control_spec)
    if spec & ~STATE_USER:
        raise ValueError(f"control_spec {spec:#x} must be a subset of STATE_USER ({STATE_USER:#x})")
    nstate = _lib.gs_stateSize(first._ptr, STATE_FULLPHYSICS)
    ncontrol = _lib.gs_stateSize(first._ptr, spec)
    s0 = _batch("initial_state", initial_state, 2, nstate)
    batches = [s0.shape[0]]
    ctrl = warm = None
    if control is not None:
        ctrl = _batch("control", control, 3, ncontrol)
        batches.append(ctrl.shape[0])
    if initial_warmstart is not None:
        warm = _batch("initial_warmstart", initial_warmstart, 2, first.nv)
        batches.append(warm.shape[0])
    if len(models) > 1:
        batches.append(len(models))
    nbatch = max(batches)
    if any(b not in (1, nbatch) for b in batches):
        raise ValueError(f"batch sizes {batches} disagree: each must be 1 or nbatch")
    if nstep is None:
        if ctrl is None:
            raise ValueError("nstep is needed when there is no control")
        nstep = ctrl.shape[1]
    nstep = int(nstep)
    if nstep < 0:
        raise ValueError(f"nstep must be >= 0, got {nstep}")
    if ctrl is not None and ctrl.shape[1] not in (1, nstep):
        raise ValueError(f"control has {ctrl.shape[1]} steps, nstep is {nstep}")
    s0 = np.broadcast_to(s0, (nbatch, nstate))
    if ctrl is not None:
        ctrl = np.broadcast_to(ctrl, (nbatch, nstep, ncontrol))
    if warm is not None:
        warm = np.broadcast_to(warm, (nbatch, first.nv))
    return models, first, spec, s0, ctrl, warm, nbatch, nstep


def rollout(model, data, initial_state, control=None, *, control_spec=STATE_CTRL,
            skip_checks=False, nstep=None, initial_warmstart=None, state=None, sensordata=None,
            chunk_size=None, persistent_pool=False):
    """Roll out open-loop trajectories (MuJoCo's mujoco.rollout.rollout): rollout i starts from a
    reset data set to initial_state[i] (STATE_FULLPHYSICS) and initial_warmstart[i] (zeros when
    None), and at each step t sets the components `control_spec` from control[i, t] and steps;
    a step that resets the data on a NaN, Inf or huge qpos, qvel or qacc ends the rollout, its
    state and sensors repeated to the last step (as MuJoCo's).

    model: a Model, or a sequence of nbatch Models of the same sizes (rollout i runs model[i]:
    e.g. randomised masses). data: a Data or a sequence of them, one per thread, made for a model
    of those sizes. initial_state: (nbatch or 1, nstate). control: (nbatch or 1, nstep or 1,
    ncontrol) with ncontrol = state_size(model, control_spec). Returns (state, sensordata), of
    shapes (nbatch, nstep, nstate) and (nbatch, nstep, nsensordata), written into `state` and
    `sensordata` when given. The whole batch runs in one C call without the GIL; the results are
    the same bits for any number of threads. chunk_size and persistent_pool are accepted for
    MuJoCo's signature: rollouts go to threads in a fixed round-robin, and the threads live for
    the call. skip_checks is accepted and ignored: the checks cost little here."""
    del skip_checks, chunk_size, persistent_pool
    models, first, spec, s0, ctrl, warm, nbatch, nstep = _arguments(
        model, initial_state, control, control_spec, nstep, initial_warmstart)
    nstate = s0.shape[1]
    datas = list(data) if isinstance(data, (list, tuple)) else [data]
    if not datas:
        raise ValueError("rollout needs at least one Data")
    for d in datas:
        if d.model is not first and d.model._sizes != first._sizes:
            raise ValueError("every Data must be made for the model (or one of its sizes)")
    s0 = np.ascontiguousarray(s0)
    ctrl = None if ctrl is None else np.ascontiguousarray(ctrl)
    warm = None if warm is None else np.ascontiguousarray(warm)
    state = _output("state", state, (nbatch, nstep, nstate))
    sensordata = _output("sensordata", sensordata, (nbatch, nstep, first.nsensordata))
    if len(models) == 1 or all(mm is first for mm in models):
        _run(first, datas, nbatch, nstep, spec, s0, warm, ctrl, state, sensordata)
        return state, sensordata
    # one C call per distinct model, on its rollouts; each rollout starts from a reset data, so
    # the grouping changes no bit of any result
    groups = {}
    for i, mm in enumerate(models):
        groups.setdefault(id(mm), (mm, []))[1].append(i)
    for mm, idx in groups.values():
        idx = np.asarray(idx)
        sub_state = np.empty((len(idx), nstep, nstate))
        sub_sens = np.empty((len(idx), nstep, first.nsensordata))
        _run(mm, datas, len(idx), nstep, spec, np.ascontiguousarray(s0[idx]),
             None if warm is None else np.ascontiguousarray(warm[idx]),
             None if ctrl is None else np.ascontiguousarray(ctrl[idx]), sub_state, sub_sens)
        state[idx] = sub_state
        sensordata[idx] = sub_sens
    return state, sensordata


def _run(model, datas, nbatch, nstep, spec, s0, warm, ctrl, state, sensordata):
    ptrs = (ctypes.c_void_p * len(datas))(*[d._ptr.value for d in datas])
    rc = _lib.gs_rollout(model._ptr, ptrs, len(datas), nbatch, nstep, spec, s0.ctypes.data,
                         None if warm is None else warm.ctypes.data,
                         None if ctrl is None else ctrl.ctypes.data, state.ctypes.data,
                         sensordata.ctypes.data)
    if rc != 0:
        raise ValueError("gs_rollout rejected its arguments")
