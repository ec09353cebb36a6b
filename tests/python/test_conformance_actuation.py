"""Conformance of the actuators against MuJoCo on every corpus model that has them: the model
loaded WITH its <actuator> and <tendon> sections (oracle.prepare_xml still strips <sensor>,
<equality>, <contact> and <keyframe>, and the fluid options; contacts and constraints disabled).

At 20 random states with random controls and activations: actuator_length, the moments
(densified), actuator_velocity, ten_velocity, act_dot, actuator_force and qfrc_actuator to 1e-8
relative (oracle.rel_err). qacc, and 100-step rollouts with fixed random controls (qpos, qvel, act
to 1e-6), only where the model's tendons have no stiffness, damping or armature: those passive
forces are not part of this comparison. RK4 models with ball or free joints are rolled out under
Euler (gauss's RK4 integrates rotations on SO(3), MuJoCo's does not)."""

import os
import xml.etree.ElementTree as ET

import mujoco
import numpy as np
import pytest

import gauss
import oracle
import test_actuation as A

KEEP = tuple(s for s in oracle.STRIP_SECTIONS if s not in ("actuator", "tendon"))


def _actuated():
    out = []
    for model_id, path in oracle.corpus_models():
        xml, _ = oracle.prepare_xml(path, sections=KEEP)
        root = ET.fromstring(xml)
        if any(len(list(el)) for el in root.findall("actuator")):
            out.append((model_id, xml))
    return out


ACTUATED = _actuated()


def _tendon_passive(mm):
    return bool(np.any(mm.tendon_stiffness) or np.any(mm.tendon_damping) or np.any(mm.tendon_armature))


def test_corpus_has_actuated_models():
    assert len(ACTUATED) >= 15


@pytest.mark.parametrize("model_id,xml", ACTUATED, ids=[m for m, _ in ACTUATED])
def test_actuator_quantities(model_id, xml):
    gm, mm = A.load(xml)
    gd, md = gauss.Data(gm), mujoco.MjData(mm)
    assert gm.nu == mm.nu and gm.na == mm.na
    seed = sum((i + 1) * ord(c) for i, c in enumerate(model_id))
    rng = np.random.default_rng(seed)
    skip_qacc = _tendon_passive(mm)
    for s in range(20):
        A.set_state(mm, md, gd, rng, scale=1.0)
        errors = A.forward_errors(gm, mm, gd, md)
        if skip_qacc:
            errors = [e for e in errors if not e.startswith("qacc")]
        oracle.assert_no_errors(errors, f"{model_id} state {s}: ")


ROLLOUT = [(m, x) for m, x in ACTUATED if not _tendon_passive(mujoco.MjModel.from_xml_string(x))]


@pytest.mark.parametrize("which", ["own", "implicitfast"])
@pytest.mark.parametrize("model_id,xml", ROLLOUT, ids=[m for m, _ in ROLLOUT])
def test_actuated_rollout(model_id, xml, which):
    """the model's own integrator, and implicitfast (the actuators' damping in its matrix)"""
    mm = mujoco.MjModel.from_xml_string(xml)
    integrator = ["Euler", "RK4", "implicit", "implicitfast"][mm.opt.integrator]
    if which != "own":
        integrator = which
    if integrator == "RK4" and np.any(mm.jnt_type <= 1):
        integrator = "Euler"
    root = ET.fromstring(xml)
    for opt in root.findall("option"):
        opt.attrib.pop("integrator", None)
    xml = ET.tostring(root, encoding="unicode")
    seed = sum((i + 1) * ord(c) for i, c in enumerate(model_id))
    A.compare_rollout(xml, integrator, nstep=100, seed=seed, at_rest=True)
