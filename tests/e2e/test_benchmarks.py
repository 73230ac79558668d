"""The benchmark runs end to end in ``--quick`` mode, and h2load's unary run (no timing checks;
the hands it deals and the bodies h2load sends: tests/unit/benchmarks/)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import odds_bench, unary_h2load

ROOT = Path(__file__).resolve().parents[2]


def test_quick_run_writes_figures_for_every_section(tmp_path: Path) -> None:
    out, png = tmp_path / "figures.json", tmp_path / "bench.png"
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.run", "--quick", "--json", str(out), "--plot", str(png)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    figures = json.loads(out.read_text())
    sections = {row["section"] for row in figures["rows"]}
    with_odds = not odds_bench.missing_peers()
    assert ("odds" in sections) == with_odds
    assert sections - {"odds"} == {"core", "peers", "grpc"} or (
        sections - {"odds"} == {"core", "grpc"} and figures["skipped_peers"]
    )
    assert "Odds, in process" in run.stdout
    assert ("skipped: needs" in run.stdout) == (not with_odds)
    assert all(row["rate"] > 0 for row in figures["rows"])
    assert figures["machine"]["cores"] >= 1
    assert {t["what"] for t in figures["targets"]} >= {
        "unary Evaluate vs Noop",
        "EvaluateBatch 10,000 10-card Tonk columns e2e vs Echo",
    }
    assert "Targets, from this run" in run.stdout
    if importlib.util.find_spec("matplotlib") is not None:
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.skipif(not unary_h2load.available(), reason="needs h2load (nghttp2-client)")
def test_h2load_unary_run_measures_both_calls_every_round() -> None:
    [result] = unary_h2load.measure(calls=500, rounds=2)
    assert len(result.check) == len(result.evaluate) == 2
    assert min(r.rate for r in result.check + result.evaluate) > 0
    assert min(r.cpu_us for r in result.check + result.evaluate) > 0
    assert result.ratio > 0 and result.cpu_ratio > 0
