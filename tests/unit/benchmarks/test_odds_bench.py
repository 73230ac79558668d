"""The odds benchmark runs end to end on a small count (no timing or peer-sampling checks:
the peers' Monte Carlo is not seeded, so its agreement is the benchmark's to report). Marked
``slow``: with the bench extra it runs the peers, as the other benchmark runs (e2e) do."""

from __future__ import annotations

import pytest

from benchmarks import odds_bench
from evaluators.odds import serves_odds
from evaluators.registry import GAMES


@pytest.mark.slow
def test_a_small_run_reports_the_peers_and_every_game() -> None:
    pytest.importorskip("eval7")
    pytest.importorskip("pokerkit")
    rows = odds_bench.run(rounds=1, samples=20_000, quick=True)
    checks = [row.target for row in rows if row.what.startswith(("eval7 MC", "pokerkit MC"))]
    assert len(checks) == 2
    assert all(check.endswith("SE)") for check in checks)
    assert rows[0].figure == "0.46214"
    assert sum("4 seats" in row.what for row in rows) == sum(map(serves_odds, GAMES))
