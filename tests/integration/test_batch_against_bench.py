"""The side-by-side batch benchmark runs end to end: this tree against a checkout (here
itself), each in processes of its own on the same bytes (its figures are its report's,
not a test's: timings on a shared machine are no pass or fail)."""

from __future__ import annotations

import re

import pytest

from benchmarks import batch_against


@pytest.mark.slow
def test_each_deal_gets_a_rate_per_tree_and_a_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    games = ["poker-7", "dots-7"]
    argv = ["--against", str(batch_against.ROOT), "--rounds", "1", "--hands", "2000"]
    assert batch_against.main([*argv, "--games", *games]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == f"other 1: {batch_against.ROOT}"
    rows = {line.split()[0]: line.split()[1:] for line in lines[3:]}
    assert list(rows) == games
    for this, other, ratio in rows.values():
        assert float(this) > 0 and float(other) > 0
        assert re.fullmatch(r"\d+\.\d\dx", ratio)
