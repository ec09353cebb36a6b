"""Smoke test of the inverse-dynamics benchmark (bench/inverse_bench.py) on 20 states: its pieces
run end to end and write a table and a plot. Speed itself is never asserted in the tests."""

import os
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))

import inverse_bench  # noqa: E402

import gauss  # noqa: E402

ENGINE = "gauss"  # gauss's own inverse (the script can time mj_inverse in its place)


def test_bench_runs_on_20_states(tmp_path):
    states = inverse_bench.generate_states(20, seed=1, max_steps=20000)
    assert 10 <= len(states) <= 20
    rows, overhead = inverse_bench.measure(states, ENGINE, target=5e-6, repeats=1)
    assert len(rows) == len(states)
    for r in rows:
        # both engines find the same constraint rows at the same state (same collisions, limits)
        assert r["gauss_nefc"] == r["mujoco_nefc"]
        for eng in ("gauss", "mujoco"):
            for m in inverse_bench.ALL_METHODS:
                assert r[f"{eng}_{m}"] >= 0.0
    assert 0 < overhead["gauss"] < 1e-4 and 0 < overhead["mujoco"] < 1e-4
    summary = inverse_bench.summarize(rows)
    assert sum(summary[b]["count"] for b in summary) == len(rows)
    text = inverse_bench.table(summary, rows, ENGINE, overhead, 20, 1.0)
    table_lines = [ln for ln in text.splitlines() if ln.startswith("| ")]
    # two tables (whole pipeline; acceleration stage only): header, rule, one line per bin each
    assert len(table_lines) == 2 * (2 + len(inverse_bench.BINS))
    png = tmp_path / "speed.png"
    inverse_bench.plot(summary, str(png), ENGINE)
    head = png.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", head[16:24]) == (900, 560)


def test_missing_inverse_is_reported(monkeypatch, capsys):
    if hasattr(gauss, "inverse"):
        monkeypatch.delattr(gauss, "inverse")
    assert inverse_bench.main(["--states", "1"]) == 2
    assert "no gauss.inverse" in capsys.readouterr().err
