"""Each game's batch cost estimate (``GameRules.batch_cost``, which admission reserves)
stays within a factor of what a hand really costs: read, scored and its reply written as
packed fields, the dearer reply form (``benchmarks.batch_costs``). CPU is the thread's
own (``time.thread_time``), so other processes on shared cores do not count; the factor
is generous for what they still do to caches and clocks."""

from __future__ import annotations

import pytest

from benchmarks.batch_costs import measure
from evaluators.inputs import Game
from evaluators.registry import GAMES

FACTOR = 6.0
"""How far an estimate may be from the measure either way: admission a little cautious
is fine; one far too high refuses calls it has room for, one far too low overcommits."""


@pytest.mark.parametrize("game", list(GAMES), ids=lambda game: GAMES[game].name)
def test_a_games_batch_cost_is_within_a_factor_of_its_measured_cost_per_hand(
    game: Game,
) -> None:
    measured = measure(game, hands=100_000, rounds=3, columns=False)
    assert measured.cpu_ns / FACTOR <= measured.estimated_cpu_ns <= measured.cpu_ns * FACTOR, (
        measured
    )
    assert measured.bytes / FACTOR <= measured.estimated_bytes <= measured.bytes * FACTOR, measured
