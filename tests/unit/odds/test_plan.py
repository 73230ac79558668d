"""Odds' working set is bounded by construction and its cost estimate covers it
(``evaluators.costs``, ``odds.plan.CHUNK_BYTES``): tracemalloc sees numpy's arrays."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable

import pytest

from evaluators.cards import card_text
from evaluators.costs import CallCost
from evaluators.errors import Stopped
from evaluators.inputs import Declaration, Game
from evaluators.odds import (
    CHUNK_BYTES,
    CHUNK_SECONDS,
    MIN_CHUNK,
    OddsLimits,
    OddsRequest,
    OddsSeat,
    odds,
    odds_cost,
    plan_odds,
    read_odds,
)


def fifteen_seat_flop_a() -> OddsRequest:
    """15 seats, 4 table cards known, 7 seats with a card to come: 1,814,400 run-outs."""
    table = [card_text(4 * rank) for rank in range(4)]
    rest = [card_text(c) for c in range(52) if c not in (0, 4, 8, 12)]
    seats = []
    for seat in range(15):
        known = 2 if seat < 7 else 3
        seats.append((f"p{seat}", rest[:known], 3 - known, Declaration.BOTH))
        rest = rest[known:]
    return read_odds(Game.FLOP_A, seats, table)


def _peak(request: OddsRequest, samples: int) -> int:
    """Peak bytes of one call, after one call has built the game's tables."""
    odds(request, samples=1_000, seed=0)
    tracemalloc.start()
    try:
        odds(request, samples=samples, seed=1)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def poker_23_seats() -> OddsRequest:
    return OddsRequest(Game.POKER_HIGH, tuple(OddsSeat(f"p{i}", (), 2) for i in range(23)))


def numbers_heads_up() -> OddsRequest:
    return OddsRequest(Game.NUMBERS, (OddsSeat("a", (), 5), OddsSeat("b", (), 5)))


@pytest.mark.parametrize(
    ("request_of", "samples"),
    [(fifteen_seat_flop_a, 0), (poker_23_seats, 200_000), (numbers_heads_up, 300_000)],
)
def test_an_odds_call_holds_at_most_its_chunk_bytes_and_its_estimate_covers_it(
    request_of: Callable[[], OddsRequest], samples: int
) -> None:
    request = request_of()
    cost = odds_cost(request, plan_odds(request, samples))
    peak = _peak(request, samples)
    assert peak <= cost.working_bytes <= CHUNK_BYTES + 64 * 1024
    assert odds(request, samples=samples, seed=1).exact == (samples == 0)


def test_odds_cost_counts_runouts_times_seats_at_the_games_rate() -> None:
    request = fifteen_seat_flop_a()
    cost = odds_cost(request, plan_odds(request, 0, OddsLimits()))
    assert isinstance(cost, CallCost)
    assert cost.cpu_seconds == pytest.approx(1_814_400 * 15 * 128 / 1e9)
    sampled = odds_cost(request, plan_odds(request, 5_000_000))
    assert sampled.cpu_seconds == pytest.approx(5_000_000 * 15 * 128 / 1e9)


@pytest.mark.parametrize(
    ("request_of", "samples"), [(fifteen_seat_flop_a, 0), (poker_23_seats, 200_000)]
)
def test_odds_asks_keep_going_at_least_once_per_chunk_seconds_of_its_estimated_work(
    request_of: Callable[[], OddsRequest], samples: int
) -> None:
    """So a passed deadline stops the work within about ``CHUNK_SECONDS`` of CPU."""
    request = request_of()
    asked = 0

    def keep_going() -> bool:
        nonlocal asked
        asked += 1
        return True

    odds(request, samples=samples, seed=1, keep_going=keep_going)
    assert asked >= odds_cost(request, plan_odds(request, samples)).cpu_seconds / CHUNK_SECONDS


def test_odds_asks_keep_going_before_any_run_out() -> None:
    """So a deadline that passed while the call was planned stops it at once."""
    asked = []

    def keep_going() -> bool:
        asked.append(True)
        return False

    with pytest.raises(Stopped, match="before any"):
        odds(numbers_heads_up(), samples=300_000, seed=1, keep_going=keep_going)
    assert len(asked) == 1


@pytest.mark.parametrize("request_of", [poker_23_seats, numbers_heads_up])
def test_a_sampled_odds_first_chunk_is_smaller_than_the_rest(
    request_of: Callable[[], OddsRequest],
) -> None:
    """The server's ``keep_going`` learns a chunk's time from the first before a full one."""
    planned = plan_odds(request_of(), 1_000_000)
    assert MIN_CHUNK <= planned.first_chunk < planned.chunk
