"""Carrying a simulation's state from a model to its recompiled successor (Spec.recompile)."""

import numpy as np

_NQ = {0: 7, 1: 4, 2: 1, 3: 1}  # joint type -> qpos size (free, ball, slide, hinge)
_NV = {0: 6, 1: 3, 2: 1, 3: 1}


def _layout(model, kind, count):
    layout = getattr(model, "_spec_layout", None)
    keys = layout.get(kind) if layout is not None else None
    return keys if keys is not None and len(keys) == count else None


def _pairs(old_m, new_m, kind, objtype, n_old, n_new):
    """(new id, old id) of the elements of `kind` in both models: matched by the spec element
    behind them when both were compiled from the spec, else by name (unnamed ones unmatched)."""
    from . import id2name
    old, new = _layout(old_m, kind, n_old), _layout(new_m, kind, n_new)
    same_spec = (getattr(old_m, "_spec_layout", {}).get("spec") is
                 getattr(new_m, "_spec_layout", {}).get("spec", False))
    if old is None or new is None or not same_spec:
        old = [id2name(old_m, objtype, i) or None for i in range(n_old)]
        new = [id2name(new_m, objtype, i) or None for i in range(n_new)]
    where = {k: i for i, k in enumerate(old) if k is not None}
    return [(i, where[k]) for i, k in enumerate(new) if k is not None and k in where]


def carry_state(old_m, old_d, new_m):
    from . import Data, OBJ_ACTUATOR, OBJ_BODY, OBJ_JOINT
    new_d = Data(new_m)
    new_d.time = old_d.time

    for j, k in _pairs(old_m, new_m, "joint", OBJ_JOINT, old_m.njnt, new_m.njnt):
        t = int(new_m.jnt_type[j])
        if t != int(old_m.jnt_type[k]):
            continue
        qa, qb = int(new_m.jnt_qposadr[j]), int(old_m.jnt_qposadr[k])
        new_d.qpos[qa:qa + _NQ[t]] = old_d.qpos[qb:qb + _NQ[t]]
        va, vb = int(new_m.jnt_dofadr[j]), int(old_m.jnt_dofadr[k])
        for f in ("qvel", "qacc_warmstart", "qfrc_applied"):
            getattr(new_d, f)[va:va + _NV[t]] = getattr(old_d, f)[vb:vb + _NV[t]]

    if new_m.nu and old_m.nu:
        for a, k in _pairs(old_m, new_m, "actuator", OBJ_ACTUATOR, old_m.nu, new_m.nu):
            new_d.ctrl[a] = old_d.ctrl[k]
            n = int(new_m.actuator_actnum[a])
            if n and n == int(old_m.actuator_actnum[k]):
                aa, ab = int(new_m.actuator_actadr[a]), int(old_m.actuator_actadr[k])
                new_d.act[aa:aa + n] = old_d.act[ab:ab + n]

    for b, k in _pairs(old_m, new_m, "body", OBJ_BODY, old_m.nbody, new_m.nbody):
        new_d.xfrc_applied[b] = old_d.xfrc_applied[k]
        ma, mb = int(new_m.body_mocapid[b]), int(old_m.body_mocapid[k])
        if ma >= 0 and mb >= 0:
            new_d.mocap_pos[ma] = old_d.mocap_pos[mb]
            new_d.mocap_quat[ma] = old_d.mocap_quat[mb]

    if new_m.nuserdata and new_m.nuserdata == old_m.nuserdata:
        new_d.userdata[:] = np.asarray(old_d.userdata)
    return new_d
