"""Shared fixtures of the Python tests: the model corpus, the prepared XML that gauss and MuJoCo both
load, and the two engines side by side."""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# MuJoCo picks its GL back end when it is first imported: the renderer tests (test_render.py)
# compare against mujoco.Renderer on the headless EGL back end that gauss uses by default
os.environ.setdefault("MUJOCO_GL", "egl")

import oracle  # noqa: E402

CORPUS = oracle.corpus_models()
CORPUS_IDS = [mid for mid, _ in CORPUS]

# what prepare_xml removed from each model, for the summary at the end of the run
_STRIPPED = {}


def pytest_generate_tests(metafunc):
    # every test taking `corpus_model` runs once per model of the corpus: (id, path)
    if "corpus_model" in metafunc.fixturenames:
        metafunc.parametrize("corpus_model", CORPUS, ids=CORPUS_IDS)


def prepared(model_id, path):
    """(xml, stripped) of oracle.prepare_xml, cached; the stripped list is printed once."""
    if model_id not in _STRIPPED:
        xml, stripped = oracle.prepare_xml(path)
        _STRIPPED[model_id] = (xml, stripped)
        print(f"\n[{model_id}] stripped for conformance: {', '.join(stripped) or 'nothing'}")
    return _STRIPPED[model_id]


class Pair:
    """One model loaded in both engines from the same XML, with one data each."""

    def __init__(self, xml):
        import gauss
        import mujoco
        self.xml = xml
        self.mjm = mujoco.MjModel.from_xml_string(xml)
        self.mjd = mujoco.MjData(self.mjm)
        self.gm = gauss.Model.from_xml_string(xml)
        self.gd = gauss.Data(self.gm)

    def set_state(self, qpos, qvel, qfrc_applied=None, xfrc_applied=None):
        for d in (self.mjd, self.gd):
            d.qpos[:] = qpos
            d.qvel[:] = qvel
            d.qfrc_applied[:] = 0 if qfrc_applied is None else qfrc_applied
            d.xfrc_applied[:] = 0 if xfrc_applied is None else xfrc_applied

    def forward(self):
        import gauss
        import mujoco
        mujoco.mj_forward(self.mjm, self.mjd)
        gauss.forward(self.gm, self.gd)

    def full_M(self):
        """(gauss dense M, MuJoCo dense M)"""
        import gauss
        import mujoco
        nv = self.mjm.nv
        M = np.zeros((nv, nv))
        mujoco.mj_fullM(self.mjm, M, self.mjd.qM)
        return gauss.full_M(self.gm, self.gd), M


@pytest.fixture
def corpus_pair(corpus_model):
    """The prepared XML of one corpus model loaded in both engines."""
    model_id, path = corpus_model
    xml, _ = prepared(model_id, path)
    return Pair(xml)


@pytest.fixture
def model_rng(corpus_model):
    """A random generator seeded from the model's id, so that every run draws the same states."""
    seed = sum((i + 1) * ord(c) for i, c in enumerate(corpus_model[0]))
    return np.random.default_rng(seed)


def pytest_terminal_summary(terminalreporter):
    import jitter
    if jitter.LINES:
        terminalreporter.section("rates and counts: nominal and under jitter (tests/python/jitter.py)")
        for line in jitter.LINES:
            terminalreporter.write_line(line)
    stripped = {k: v[1] for k, v in _STRIPPED.items() if v[1]}
    if not stripped:
        return
    terminalreporter.section("elements stripped from the corpus for the conformance tests")
    for model_id in sorted(stripped):
        terminalreporter.write_line(f"{model_id}: {', '.join(stripped[model_id])}")
