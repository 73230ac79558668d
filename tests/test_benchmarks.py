"""The benchmark runs end to end in ``--quick`` mode and its hands are valid (no timing checks)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from benchmarks import hands, odds_bench, unary_h2load
from evaluators.batch import evaluate_batch
from evaluators.inputs import Options
from service.gen.handeval.v1 import handeval_pb2 as pb

ROOT = Path(__file__).resolve().parents[1]


def test_every_seeded_deal_passes_batch_validation() -> None:
    for deal in [*hands.core_deals(500), *hands.tonk_peer_deals(200)]:
        result = evaluate_batch(
            deal.game,
            deal.hands.tobytes(),
            deal.hands.shape[1],
            deal.tables.tobytes() if deal.tables.shape[1] else b"",
            deal.tables.shape[1],
            Options(),
            max_hands=len(deal),
        )
        assert len(result.strength) == len(deal), deal.key


def test_deals_are_the_same_for_the_same_key() -> None:
    first, again = hands.tonk_deal(10, False, 300), hands.tonk_deal(10, False, 300)
    assert np.array_equal(first.hands, again.hands)


def test_tonk_deals_never_hold_a_queen_king_ace_of_one_suit() -> None:
    for deal in hands.tonk_peer_deals(2000):
        assert hands.no_queen_king_ace_run(deal.hands).all(), deal.key


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
    assert "Odds (issue 15), in process" in run.stdout
    assert ("skipped: needs" in run.stdout) == (not with_odds)
    assert all(row["rate"] > 0 for row in figures["rows"])
    assert figures["machine"]["cores"] >= 1
    assert {t["what"] for t in figures["targets"]} >= {
        "unary Evaluate vs Noop",
        "EvaluateBatch 10,000 10-card Tonk columns e2e vs Echo",
    }
    assert "Targets (issues 5 and 16)" in run.stdout
    if importlib.util.find_spec("matplotlib") is not None:
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.skipif(not unary_h2load.available(), reason="needs h2load (nghttp2-client)")
def test_h2load_unary_run_measures_both_calls_every_round() -> None:
    result = unary_h2load.measure(seconds=0.5, rounds=2)
    assert len(result.check) == len(result.evaluate) == 2
    assert min(result.check + result.evaluate) > 0
    assert result.ratio > 0


def test_h2load_bodies_are_one_framed_message_each() -> None:
    body = unary_h2load.evaluate_body()
    assert body[0] == 0 and int.from_bytes(body[1:5], "big") == len(body) - 5
    assert list(pb.EvaluateRequest.FromString(body[5:]).hand) == list(unary_h2load.SEVEN_CARDS)
    assert unary_h2load.check_body() == b"\x00\x00\x00\x00\x00"
