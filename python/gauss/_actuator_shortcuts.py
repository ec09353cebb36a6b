"""MJCF's actuator shortcuts on a spec actuator (MuJoCo's MjsActuator.set_to_*): each sets the
general actuator's dynamics, gain and bias as the MJCF element of that name does. Negative
optional values mean "not given", as in MuJoCo's signatures."""

import math

import numpy as np

_DYN_NONE, _DYN_INTEGRATOR, _DYN_FILTER, _DYN_FILTEREXACT, _DYN_MUSCLE = range(5)
_GAIN_FIXED, _GAIN_AFFINE, _GAIN_MUSCLE = range(3)
_BIAS_NONE, _BIAS_AFFINE, _BIAS_MUSCLE = range(3)


def _given(v):
    return v is not None and v >= 0


def _prm(a, name):
    return np.array(getattr(a, name), dtype=float)


def set_to_motor(a, gear=None):
    gain = _prm(a, "gainprm")
    gain[0] = 1
    a.gainprm, a.biasprm = gain, np.zeros(10)
    a.dyntype, a.gaintype, a.biastype = _DYN_NONE, _GAIN_FIXED, _BIAS_NONE
    if gear is not None:
        a.gear = gear
    return a


def _servo(a, kp, kv, dampratio, inheritrange, check):
    # a positive biasprm[2] stands for a damping ratio, which the compiler turns into damping
    if check:
        if _given(kv) and _given(dampratio):
            raise ValueError("kv and dampratio cannot both be given")
    gain, bias = _prm(a, "gainprm"), _prm(a, "biasprm")
    gain[0] = kp
    bias[1] = -kp
    if _given(kv) and not _given(dampratio):
        bias[2] = -kv
    if _given(dampratio) and not _given(kv):
        bias[2] = dampratio
    a.gainprm, a.biasprm = gain, bias
    a.gaintype, a.biastype = _GAIN_FIXED, _BIAS_AFFINE
    if inheritrange:
        a.inheritrange = float(inheritrange)


def set_to_position(a, kp, kv=-1, dampratio=-1, timeconst=-1, inheritrange=False):
    if kv is not None and kv < 0 and kv != -1:
        raise ValueError("kv cannot be negative")
    if dampratio is not None and dampratio < 0 and dampratio != -1:
        raise ValueError("dampratio cannot be negative")
    if _given(timeconst):
        dyn = _prm(a, "dynprm")
        dyn[0] = timeconst
        a.dynprm = dyn
        a.dyntype = _DYN_FILTEREXACT if timeconst > 0 else _DYN_NONE
    _servo(a, kp, kv, dampratio, inheritrange, True)
    return a


def set_to_intvelocity(a, kp, kv=-1, dampratio=-1, timeconst=-1, inheritrange=False):
    _servo(a, kp, kv, dampratio, inheritrange, False)
    a.dyntype = _DYN_INTEGRATOR
    a.actlimited = 1
    return a


def set_to_velocity(a, kv):
    gain = _prm(a, "gainprm")
    gain[0] = kv
    bias = np.zeros(10)
    bias[2] = -kv
    a.gainprm, a.biasprm = gain, bias
    a.dyntype, a.gaintype, a.biastype = _DYN_NONE, _GAIN_FIXED, _BIAS_AFFINE
    return a


def set_to_damper(a, kv):
    if kv < 0:
        raise ValueError("damping coefficient kv cannot be negative")
    gain = np.zeros(10)
    gain[2] = -kv
    a.gainprm = gain
    a.ctrllimited = 1
    a.dyntype, a.gaintype, a.biastype = _DYN_NONE, _GAIN_AFFINE, _BIAS_NONE
    return a


def set_to_cylinder(a, timeconst, bias, area, diameter=-1):
    dyn, gain, b = _prm(a, "dynprm"), _prm(a, "gainprm"), _prm(a, "biasprm")
    dyn[0] = timeconst
    gain[0] = area
    if _given(diameter):
        gain[0] = 0.25 * math.pi * diameter * diameter
    b[0] = bias
    a.dynprm, a.gainprm, a.biasprm = dyn, gain, b
    a.dyntype, a.gaintype, a.biastype = _DYN_FILTER, _GAIN_FIXED, _BIAS_AFFINE
    return a


_range = range  # set_to_muscle takes an argument named range, as MuJoCo's does
_MUSCLE = (0.75, 1.05, -1, 200, 0.5, 1.6, 1.5, 1.3, 1.2)


def set_to_muscle(a, timeconst=-1, tausmooth=-1, range=(-1, -1), force=-1, scale=-1, lmin=-1,  # noqa: A002
                  lmax=-1, vmax=-1, fpmax=-1, fvmax=-1):
    lengths = range  # MJCF's name for the operating length range
    dyn, gain = _prm(a, "dynprm"), _prm(a, "gainprm")
    # parameters still at the general actuator's defaults take the muscle's
    if dyn[0] == 1:
        dyn[0] = 0.01
    if dyn[1] == 0:
        dyn[1] = 0.04
    if gain[0] == 1:
        gain[0] = _MUSCLE[0]
    for i in _range(1, 9):
        if gain[i] == 0:
            gain[i] = _MUSCLE[i]
    if tausmooth is not None and tausmooth < -1:
        raise ValueError("tausmooth cannot be negative")
    tc = list(timeconst) if np.ndim(timeconst) else [timeconst, timeconst if timeconst != -1 else -1]
    values = [(dyn, 0, tc[0]), (dyn, 1, tc[1] if len(tc) > 1 else -1), (dyn, 2, tausmooth),
              (gain, 0, lengths[0]), (gain, 1, lengths[1]), (gain, 2, force), (gain, 3, scale),
              (gain, 4, lmin), (gain, 5, lmax), (gain, 6, vmax), (gain, 7, fpmax),
              (gain, 8, fvmax)]
    for arr, i, v in values:
        if _given(v):
            arr[i] = v
    bias = _prm(a, "biasprm")
    bias[:9] = gain[:9]
    a.dynprm, a.gainprm, a.biasprm = dyn, gain, bias
    a.dyntype, a.gaintype, a.biastype = _DYN_MUSCLE, _GAIN_MUSCLE, _BIAS_MUSCLE
    return a


def set_to_adhesion(a, gain):
    if gain < 0:
        raise ValueError("adhesion gain cannot be negative")
    g = _prm(a, "gainprm")
    g[0] = gain
    a.gainprm = g
    a.ctrllimited = 1
    a.gaintype, a.biastype = _GAIN_FIXED, _BIAS_NONE
    return a
