"""An Odds request's plan: what is still to come, whether it is enumerated or sampled, how
many run-outs and how many at a time (docs/rules.md "Odds"), and what the call costs.

``plan_odds`` reads a checked ``OddsRequest`` once into a ``PlannedOdds`` that carries all
the later steps need (the game's ``OddsGame``, the deal's ``Plan``); ``odds_cost`` is the
server's admission price of that plan.
"""

from __future__ import annotations

from dataclasses import dataclass

from evaluators.costs import CallCost
from evaluators.errors import TooManySamples
from evaluators.game_odds import OddsGame
from evaluators.odds.request import OddsRequest
from evaluators.registry import GAMES
from evaluators.runouts.deal import Plan, count_completions

CHUNK = 131_072
"""Most run-outs resolved at once: large enough that numpy's per-call cost vanishes."""

SAMPLE_CHUNK = 65_536
"""Most run-outs sampled and resolved at once: half a ``CHUNK``, as the sampled path's
arrays (the deal's, the figures', every pot's shares) then stay closer to a core's cache
(more run-outs a second than a whole ``CHUNK`` in the discard games and Grocery Store
Dots)."""

CHUNK_BYTES = 16 * 1024 * 1024
"""The most a chunk's arrays may hold, by the game's ``runout_cost``: with many seats a
chunk has fewer run-outs, so a call's working set is bounded whatever its seats (a chunk
of ``CHUNK`` run-outs grows with every seat)."""

CHUNK_SECONDS = 0.003
"""The most CPU a chunk should take, by the game's ``runout_cost``: ``keep_going`` is asked
between chunks, so a passed deadline or a cancel stops the work within about this (a
compiled chunk's fixed cost is small beside its work)."""

FIRST_CHUNK_SECONDS = 0.0005
"""The first sampled chunk's CPU, by the same estimate: ``keep_going`` (the server's
``WorkGate``) learns how long a chunk takes on this machine from the one before, so the
first is small, as a batch's first chunk is (``scoring.FIRST_CHUNK_HANDS``)."""

MIN_CHUNK = 1024
"""Fewest run-outs in a chunk, so numpy's per-call cost stays small beside the work."""


@dataclass(frozen=True)
class OddsLimits:
    """The server's limits (docs/rules.md: by default at least 2,000,000 exact run-outs, at most
    10,000,000 samples)."""

    max_exact_runouts: int = 2_000_000
    default_samples: int = 200_000
    max_samples: int = 10_000_000


@dataclass(frozen=True)
class PlannedOdds:
    """An Odds request's plan (``plan_odds``), which ``run_odds`` resolves."""

    game: OddsGame
    plan: Plan
    exact: bool
    runouts: int
    chunk: int
    """Run-outs a chunk may hold within ``CHUNK_BYTES`` and ``CHUNK_SECONDS``."""
    first_chunk: int
    """Run-outs in the first sampled chunk (``FIRST_CHUNK_SECONDS``)."""


def odds_cost(request: OddsRequest, planned: PlannedOdds) -> CallCost:
    """What ``run_odds(request, planned, ...)`` costs: run-outs x seats at the game's
    ``runout_cost`` in CPU, and one chunk's arrays in memory."""
    seats = len(request.seats)
    per = planned.game.runout_cost
    return CallCost(
        planned.runouts * seats * per.cpu_ns / 1e9,
        min(planned.runouts, planned.chunk) * seats * per.bytes + TALLY_BYTES,
    )


TALLY_BYTES = 64 * 1024
"""A call's arrays besides its chunk (the plan, the tally, the reply): a few KiB."""


def plan_odds(
    request: OddsRequest, samples: int = 0, limits: OddsLimits | None = None
) -> PlannedOdds:
    """The first half of ``odds``: the checked request's deal, whether it is exact, its
    run-outs and chunk size. Raises ``TooManySamples`` over ``limits.max_samples``. The
    completions are counted only when no ``samples`` are asked (a discard game's count is a
    real share of a sampled call's CPU, and sampling does not need it)."""
    limits = limits or OddsLimits()
    rules = GAMES[request.game]
    game = rules.odds
    assert game is not None, "a checked request's game serves odds (odds_violations)"
    plan = Plan(
        unseen=request.unseen,
        unknown=tuple(seat.unknown for seat in request.seats),
        table_cards=rules.table_max - len(request.table),
        table_pairs=not rules.distinct_table_ranks,
        table_ranks=_rank_bits(request.table),
    )
    completions = count_completions(plan) if not samples else 0
    exact = samples == 0 and completions <= limits.max_exact_runouts
    runouts = completions if exact else samples or limits.default_samples
    if runouts > limits.max_samples and not exact:
        raise TooManySamples(runouts, limits.max_samples)
    seats = len(request.seats)
    per = game.runout_cost
    chunk = min(
        CHUNK_BYTES // (seats * per.bytes), int(CHUNK_SECONDS * 1e9) // (seats * per.cpu_ns)
    )
    first = int(FIRST_CHUNK_SECONDS * 1e9) // (seats * per.cpu_ns)
    return PlannedOdds(
        game, plan, exact, runouts, max(MIN_CHUNK, chunk), max(MIN_CHUNK, min(first, chunk))
    )


def _rank_bits(cards: tuple[int, ...]) -> int:
    bits = 0
    for card in cards:
        bits |= 1 << (card >> 2)
    return bits
