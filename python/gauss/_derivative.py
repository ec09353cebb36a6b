"""Transition derivatives by finite differences (MuJoCo's mjd_transitionFD)."""

import ctypes

import numpy as np

from . import _lib

_ptr = ctypes.c_void_p  # a matrix, or NULL
_gs_transitionFD = _lib._fn("gs_transitionFD", None, _lib.M, _lib.D, ctypes.c_double,
                            ctypes.c_int, _ptr, _ptr, _ptr, _ptr)


def transition_fd(m, d, eps=1e-6, centered=False):
    """(A, B, C, D): the derivatives of one step (step's integrator) by finite differences of
    step `eps` (forward, or centred when `centered`), MuJoCo's mjd_transitionFD layout. The state
    x = (dq, qvel, act) has n = 2 nv + na entries, dq in the tangent space of qpos (ball and free
    joints: body-frame rotation vectors). A = dx'/dx, shape (n, n); B = dx'/dctrl, (n, nu);
    C = d sensordata/dx, (nsensordata, n); D = d sensordata/dctrl, (nsensordata, nu). A control
    at a limit of its ctrlrange is differenced one-sided, into the range. The data's state (time,
    qpos, qvel, act, ctrl, qacc_warmstart) is left bit-identical; its computed fields hold the
    last perturbed step's."""
    pkg = _package()
    pkg._check(m, d)
    eps = float(eps)
    if not eps > 0 or eps == float("inf"):
        raise ValueError(f"eps must be a positive finite number, got {eps}")
    n = 2 * m.nv + m.na
    nu, ns = m.nu, m.nsensordata
    # every entry is written by gs_transitionFD (all four matrices are asked for)
    mats = (np.empty((n, n)), np.empty((n, nu)), np.empty((ns, n)), np.empty((ns, nu)))
    _gs_transitionFD(m._ptr, d._ptr, eps, 1 if centered else 0,
                     *(x.__array_interface__["data"][0] if x.size else None for x in mats))
    pkg._raise_callback_error(d)
    return mats


_pkg = []


def _package():
    """The package module (its checks), imported once: it imports this module first."""
    if not _pkg:
        import sys
        _pkg.append(sys.modules[__package__])
    return _pkg[0]
