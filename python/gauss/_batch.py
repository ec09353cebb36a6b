"""Stepping many datas of one model in one C call on threads (gs_stepBatch): the physics of a
vectorised environment."""

import ctypes
import os

import numpy as np

from . import _lib

__all__ = ["step_batch"]


def step_batch(model, datas, ctrl=None, nstep=1, nthread=None, post=False):
    """Step each Data of `datas` (all made for `model`) `nstep` times, data i after setting its
    controls to ctrl[i] (ctrl: (len(datas), nu); None keeps each data's ctrl), then run
    rne_post_constraint on it when `post` is true. The datas run on `nthread` threads (default:
    as many as there are CPUs, at most one per data) without the GIL; the results are the bits of
    stepping each data alone."""
    datas = list(datas)
    for d in datas:
        if d.model is not model and d.model._sizes != model._sizes:
            raise ValueError("every Data must be made for the model")
        if d.__dict__.get("_callbacks"):
            raise ValueError("step_batch does not run Python callbacks (their exceptions could "
                             "not be raised): step such a Data with gauss.step")
    n = len(datas)
    if ctrl is not None:
        ctrl = np.ascontiguousarray(ctrl, dtype=np.float64)
        if ctrl.shape != (n, model.nu):
            raise ValueError(f"ctrl has shape {ctrl.shape}, expected ({n}, {model.nu})")
    if nthread is None:
        nthread = os.cpu_count() or 1
    nthread = max(1, min(int(nthread), max(n, 1)))
    if int(nstep) < 0:
        raise ValueError(f"nstep must be >= 0, got {nstep}")
    ptrs = (ctypes.c_void_p * max(n, 1))(*[d._ptr.value for d in datas])
    rc = _lib.gs_stepBatch(model._ptr, ptrs, n, nthread, int(nstep),
                           None if ctrl is None else ctrl.ctypes.data, 1 if post else 0)
    if rc != 0:
        raise ValueError("gs_stepBatch rejected its arguments")
