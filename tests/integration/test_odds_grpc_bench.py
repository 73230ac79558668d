"""The gRPC-vs-in-process odds benchmark runs end to end (its ratio is its report's, not a
test's: timings on a shared machine are no pass or fail)."""

from __future__ import annotations

import pytest

from benchmarks import odds_grpc


@pytest.mark.slow
def test_one_round_times_both_ways() -> None:
    wire, core = odds_grpc.run(rounds=1)
    assert wire > 0 and core > 0
