"""Inverse dynamics under rigid contact (seed 004): gs_inverseRigid."""

import ctypes

import numpy as np

from . import _lib

__all__ = ["inverse_rigid", "InverseRigidResult", "RigidWarm"]

METHODS = {"noslip": 0, "coulomb": 1, "qp": 2}
OBJECTIVES = {"energy": 0, "contact": 1}
_MAXWARM = 64


class _Opt(ctypes.Structure):
    _fields_ = [("method", ctypes.c_int), ("friction", ctypes.c_int), ("warmstart", ctypes.c_int),
                ("stage2", ctypes.c_int), ("skipstage", ctypes.c_int), ("reg", ctypes.c_double),
                ("dt", ctypes.c_double), ("kkt", ctypes.c_int), ("mindiff", ctypes.c_int),
                ("objective", ctypes.c_int), ("smooth", ctypes.c_int), ("repair", ctypes.c_int),
                ("weight", ctypes.c_void_p)]


class _Warm(ctypes.Structure):
    _fields_ = [("nnb", ctypes.c_int), ("nb", ctypes.c_int * _MAXWARM), ("ncon", ctypes.c_int),
                ("geom", ctypes.c_int * (2 * _MAXWARM)), ("force", ctypes.c_double * (3 * _MAXWARM)),
                ("ntau", ctypes.c_int), ("tau", ctypes.c_double * _MAXWARM)]


class _Stat(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int), ("ncon", ctypes.c_int), ("pivots", ctypes.c_int),
                ("fallback", ctypes.c_int), ("ntangent", ctypes.c_int), ("nnb", ctypes.c_int),
                ("residual", ctypes.c_double), ("reg", ctypes.c_double),
                ("penetration", ctypes.c_double)]


_P = ctypes.c_void_p
_gs_inverseRigid = _lib._fn("gs_inverseRigid", ctypes.c_int, _lib.M, _lib.D, ctypes.POINTER(_Opt),
                            ctypes.POINTER(_Warm), _P, _P, _P, ctypes.POINTER(_Stat))


class RigidWarm:
    """What one call leaves for the next, kept by passing the same object as `warm`: the
    no-slip method's warm start (seed 004, Algorithm 2: the contacts that carried force) and the
    forces of every contact (the Coulomb method's minimum-change selection, Algorithm 3)."""

    def __init__(self):
        """an empty set: the first call starts cold"""
        self._c = _Warm()

    @property
    def contacts(self):
        """contact ids (into d.contact of that call) with a positive normal force"""
        return [self._c.nb[i] for i in range(self._c.nnb)]

    def clear(self):
        """forget the set: the next call starts cold"""
        self._c.nnb = 0
        self._c.ncon = 0
        self._c.ntau = 0


class InverseRigidResult:
    """What gauss.inverse_rigid returns.

    qfrc: (nv,) generalized forces, zero on the dofs no actuator drives (joint transmissions).
    contact_force: (ncon, 3) per contact of the data, normal first, then the two tangents of its
        frame; zero for contacts the constraint stage did not include.
    qacc: (nv,) the accelerations the forces produce (the desired ones on actuated dofs, the
        base's from the contact forces).
    status: 0 solved, 1 solved with regularisation, 2 solved for repaired accelerations
        (repair), -1 not solved, -2 arena full.
    ncon (contacts used), pivots, residual (LCP/KKT max |min(z, w)|), reg, fallback (no-slip:
    PPM handed over to Lemke), ntangent (no-slip: tangent rows kept by Algorithm 1), nnb (no-slip:
    contacts with force), penetration (most negative normal velocity after the step)."""

    __slots__ = ("qfrc", "contact_force", "qacc", "status", "ncon", "pivots", "residual", "reg",
                 "fallback", "ntangent", "nnb", "penetration", "method")

    def __repr__(self):
        """method, status, contacts, pivots and residual"""
        return (f"InverseRigidResult(method={self.method!r}, status={self.status}, "
                f"ncon={self.ncon}, pivots={self.pivots}, residual={self.residual:.3g})")


def inverse_rigid(m, d, method="noslip", friction=True, warm=None, stage2=True, reg=0.0, dt=0.0,
                  skipstage=0, kkt=False, mindiff=False, objective="energy",
                  smooth=False, repair=False, weight=None):
    """Actuator forces and contact forces under rigid contact for the desired acceleration d.qacc.

    method: "noslip" (seed 004 section 3: contacts do not slide; Algorithm 1 and the warm-started
    principal pivoting method), "coulomb" (section 4: friction pyramid, Lemke), "qp" (section 5:
    Stage I, then Stage II's least-norm torques when `stage2`). friction: for "qp", False drops
    the friction bound (the seed's QP with infinite friction). warm: a RigidWarm kept between
    calls (no-slip; None: cold start). reg: Lemke's first regularisation (0: automatic). dt: the
    step of the velocity-level discretization (0: the model's timestep). skipstage: as
    gauss.forward's (0 runs the position and velocity stages first, with collision). kkt: for
    "qp", solve both stages through their KKT systems, without the fast paths (comparisons).
    mindiff: for "coulomb" with `warm`, the solution nearest the last call's forces among all the
    LCP's solutions (seed 004 Algorithm 3, by enumeration; at most 2 contacts). objective: for
    "qp", Stage I's objective: "energy" (the seed's eq. 63, the kinetic energy after the step with
    the actuated velocities prescribed) or "contact" (1/2 |G^T f|^2 + b^T f: its optimality
    conditions are the complementarity of each pyramid edge's force with that edge's velocity
    after the step, so that it inverts the complementarity-free forward step, MuJoCo's pyramidal
    cone with a velocity-level reference). smooth: for "qp" with `warm`, Stage II takes the
    actuated forces nearest the last call's instead of the least ones. repair: for "noslip", when the contacts cannot give
    the desired motion (the normal LCP has no solution), the forces of the regularised LCP and
    the actuated accelerations nearest the desired ones that they allow (seed 004 section 3.5);
    status 2, and qacc holds the repaired accelerations. weight: for "qp", None or one
    non-negative weight per contact of d.contact (as the collision stage finds them for this
    state): Stage II adds weight[c] times the squared forces along the contact's pyramid edges
    (in units of the mean squared torque a unit edge force gives) to its objective, so that
    among Stage I's optima a weighted contact carries less."""
    pkg = _package()
    pkg._check(m, d)
    if method not in METHODS:
        raise ValueError(f"method must be one of {sorted(METHODS)}, got {method!r}")
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {sorted(OBJECTIVES)}, got {objective!r}")
    if warm is not None and not isinstance(warm, RigidWarm):
        raise TypeError("warm must be a gauss.RigidWarm or None")
    opt = _Opt(METHODS[method], 1 if friction else 0, 1 if warm is not None else 0,
               1 if stage2 else 0, int(skipstage), float(reg), float(dt), 1 if kkt else 0,
               1 if mindiff else 0, OBJECTIVES[objective], 1 if smooth else 0,
               1 if repair else 0)
    # the stages first, here, so that the forces' array has the collision stage's contact count
    skipstage = int(skipstage)
    if skipstage < 1:
        _lib.gs_fwdPosition(m._ptr, d._ptr)
    if skipstage < 2:
        _lib.gs_fwdVelocity(m._ptr, d._ptr)
    opt.skipstage = 2
    if weight is not None:
        weight = np.ascontiguousarray(weight, dtype=np.float64).ravel()
        if weight.shape != (d.ncon,):
            raise ValueError(f"weight must have one entry per contact ({d.ncon}), "
                             f"got {weight.shape[0]}")
        opt.weight = weight.ctypes.data if weight.size else None
    nv = m.nv
    qfrc = np.zeros(nv)
    qacc = np.zeros(nv)
    force = np.zeros((d.ncon, 3))
    st = _Stat()
    _gs_inverseRigid(m._ptr, d._ptr, ctypes.byref(opt),
                     ctypes.byref(warm._c) if warm is not None else None,
                     qfrc.ctypes.data if nv else None, force.ctypes.data if force.size else None,
                     qacc.ctypes.data if nv else None, ctypes.byref(st))
    pkg._raise_callback_error(d)
    r = InverseRigidResult()
    r.method = method
    r.qfrc, r.contact_force, r.qacc = qfrc, force, qacc
    for name in ("status", "ncon", "pivots", "fallback", "ntangent", "nnb"):
        setattr(r, name, int(getattr(st, name)))
    for name in ("residual", "reg", "penetration"):
        setattr(r, name, float(getattr(st, name)))
    return r


_pkg = []


def _package():
    """The package module (its checks), imported once: it imports this module first."""
    if not _pkg:
        import sys
        _pkg.append(sys.modules[__package__])
    return _pkg[0]
