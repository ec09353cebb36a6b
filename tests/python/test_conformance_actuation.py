"""Conformance of the actuators against MuJoCo on every corpus model that has them: the model
loaded with everything it holds (oracle.prepare_xml strips nothing; contacts and constraints
disabled).

At 20 random states with random controls and activations: actuator_length, the moments
(densified), actuator_velocity, ten_velocity, act_dot, actuator_force, qfrc_actuator and qacc to
1e-8 relative (oracle.rel_err); and 100-step rollouts with fixed random controls (qpos, qvel, act
to 1e-6) under implicitfast, whose matrix holds the actuators' damping (the models' own
integrators: test_conformance_actuated.py, with everything else the models hold). RK4 models with
ball or free joints are rolled out under Euler (gauss's RK4 integrates rotations on SO(3), MuJoCo's
does not)."""

import os
import xml.etree.ElementTree as ET

import mujoco
import numpy as np
import pytest

import gauss
import oracle
import test_actuation as A

def _actuated():
    out = []
    for model_id, path in oracle.corpus_models():
        xml, _ = oracle.prepare_xml(path)
        root = ET.fromstring(xml)
        if any(len(list(el)) for el in root.findall("actuator")):
            out.append((model_id, xml))
    return out


ACTUATED = _actuated()


def test_corpus_has_actuated_models():
    assert len(ACTUATED) >= 15


@pytest.mark.parametrize("model_id,xml", ACTUATED, ids=[m for m, _ in ACTUATED])
def test_actuator_quantities(model_id, xml):
    gm, mm = A.load(xml)
    gd, md = gauss.Data(gm), mujoco.MjData(mm)
    assert gm.nu == mm.nu and gm.na == mm.na
    seed = sum((i + 1) * ord(c) for i, c in enumerate(model_id))
    rng = np.random.default_rng(seed)
    for s in range(20):
        A.set_state(mm, md, gd, rng, scale=1.0)
        errors = A.forward_errors(gm, mm, gd, md)
        oracle.assert_no_errors(errors, f"{model_id} state {s}: ")


@pytest.mark.parametrize("model_id,xml", ACTUATED, ids=[m for m, _ in ACTUATED])
def test_actuated_rollout_implicitfast(model_id, xml):
    """implicitfast: the actuators' damping in its matrix"""
    integrator = "implicitfast"
    root = ET.fromstring(xml)
    for opt in root.findall("option"):
        opt.attrib.pop("integrator", None)
    xml = ET.tostring(root, encoding="unicode")
    seed = sum((i + 1) * ord(c) for i, c in enumerate(model_id))
    A.compare_rollout(xml, integrator, nstep=100, seed=seed, at_rest=True)
