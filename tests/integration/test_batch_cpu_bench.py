"""The batch CPU benchmark runs end to end against the real bench server (its figures are
its report's, not a test's: timings on a shared machine are no pass or fail)."""

from __future__ import annotations

import pytest

from benchmarks import batch_cpu


@pytest.mark.slow
def test_one_round_counts_cpu_for_echo_and_both_layouts() -> None:
    results = batch_cpu.run(hands=1_000, rounds=1, seconds=0.3, progress=lambda line: None)
    assert [r.layout for r in results] == list(batch_cpu.LAYOUTS)
    for r in results:
        assert r.calls > 0
        assert r.server_ms > 0 and r.client_ms >= 0


@pytest.mark.slow
def test_the_tonk_round_counts_cpu_for_echo_and_columns() -> None:
    results = batch_cpu.run(
        hands=1_000, rounds=1, seconds=0.3, progress=lambda line: None, tonk=True
    )
    assert [r.layout for r in results] == ["Echo", "columns"]
    assert all(r.calls > 0 and r.server_ms > 0 for r in results)
