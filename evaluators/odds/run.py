"""Each seat's chances in a showdown whose cards are still to come (docs/rules.md "Odds").

``odds(request, ...)`` plans what is still to come (``plan``, ``deal``),
enumerates every completion with its probability when there are at most
``max_exact_runouts`` of them and ``samples`` is 0, else samples ``samples`` (or the
default count) with the seed, and resolves them in chunks: every seat's completed hand by
its game's batch evaluator, every run-out at once by the game's vectorised pot rule
(``GameRules.odds``, in each game's module). A request whose hands are all known, its
table still to come, takes the game's shorter road where it has one (``OddsGame.known_hands``;
Poker high reads each board from sums of per-card keys, never as rows of card ids, and
counts each seat's wins and shares per chunk). A sampled call of a game whose chunks
the compiled tally scores from the cards (``OddsGame.discard`` or ``scored``) deals each
chunk in that same call, the cards never written out (``_deal_and_tally``: the cards
``sample_completions`` would deal from the seed). ``keep_going`` is asked between chunks,
so a caller's deadline stops the work (``Stopped``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from evaluators.errors import Stopped
from evaluators.game_odds import OddsGame
from evaluators.odds.plan import CHUNK, SAMPLE_CHUNK, OddsLimits, PlannedOdds, plan_odds
from evaluators.odds.request import OddsRequest
from evaluators.odds.tally import Odds, Tally
from evaluators.registry import GAMES
from evaluators.runouts.deal import (
    Matrix,
    Plan,
    Weights,
    chunk_seed,
    enumerate_completions,
    sample_completions,
    tile,
)


def _always() -> bool:
    return True


def odds(
    request: OddsRequest,
    samples: int = 0,
    seed: int = 0,
    limits: OddsLimits | None = None,
    keep_going: Callable[[], bool] = _always,
) -> Odds:
    """Each seat's chances over every way the deal can still go.

    >>> from evaluators.inputs import Game
    >>> from evaluators.odds import read_odds
    >>> seats = [("ann", ["Ah", "Ad"], 0, None), ("bob", ["Kc", "Kd"], 0, None)]
    >>> chances = odds(read_odds(Game.POKER_HIGH, seats, table=["2c", "7d", "9h"]))
    >>> chances.exact, chances.runouts, [round(seat.share, 4) for seat in chances.seats]
    (True, 990, [0.9162, 0.0838])

    ``request`` is checked (``read_odds``). Raises ``TooManySamples`` over
    ``limits.max_samples`` and ``Stopped`` when ``keep_going()`` turns false.
    """
    return run_odds(request, plan_odds(request, samples, limits), seed, keep_going)


def run_odds(
    request: OddsRequest,
    planned: PlannedOdds,
    seed: int = 0,
    keep_going: Callable[[], bool] = _always,
) -> Odds:
    """The second half of ``odds``: the planned run-outs, resolved chunk by chunk.
    ``keep_going`` is asked before any of them too, so the time spent planning counts."""
    game, plan, exact, runouts = planned.game, planned.plan, planned.exact, planned.runouts
    if not keep_going():
        raise Stopped(f"stopped before any of {runouts} run-outs")
    pots = GAMES[request.game].pots
    chunk = planned.chunk
    declarations = [seat.declaration for seat in request.seats]
    tally = Tally(len(request.seats), len(pots), game.pot, declarations, sampled=not exact)
    if game.known_hands is not None and not plan.hand_cards and plan.table_cards:
        holes = [seat.hand for seat in request.seats]
        known = (
            game.known_hands.exact(holes, request.table, plan.unseen)
            if exact
            else game.known_hands.sampled(
                holes, request.table, plan.unseen, np.random.default_rng(seed), runouts
            )
        )
        for outcomes in known:
            if not keep_going():
                raise Stopped(f"stopped after {tally.seen} of {runouts} run-outs")
            tally.add_outcomes(outcomes)
        return tally.odds(request, pots, exact, runouts)
    if not exact and (game.discard is not None or game.scored is not None):
        _deal_and_tally(request, planned, seed, tally, keep_going)
        return tally.odds(request, pots, exact, runouts)
    if exact:
        chunks: Iterator[tuple[Matrix, Weights | None]] = (
            (rows, None if plan.table_pairs else weights)
            for rows, weights in enumerate_completions(plan, min(CHUNK, chunk))
        )
    else:
        chunks = _samples(plan, seed, runouts, min(SAMPLE_CHUNK, chunk), planned.first_chunk)
    for rows, weights in chunks:
        if not keep_going():
            raise Stopped(f"stopped after {tally.seen} of {runouts} run-outs")
        _resolve(request, game, rows, weights, tally)
    return tally.odds(request, pots, exact, runouts)


def _sizes(count: int, chunk: int, first: int) -> Iterator[int]:
    """A sampled call's chunks: ``first`` run-outs, then ``chunk`` at a time, ``count`` in all."""
    start = 0
    while start < count:
        size = min(first if not start else chunk, count - start)
        yield size
        start += size


def _samples(
    plan: Plan, seed: int, count: int, chunk: int, first: int
) -> Iterator[tuple[Matrix, None]]:
    """``count`` sampled run-outs, a chunk at a time (``_sizes``)."""
    rng = np.random.default_rng(seed)
    for size in _sizes(count, chunk, first):
        yield sample_completions(plan, rng, size), None


def _deal_and_tally(
    request: OddsRequest,
    planned: PlannedOdds,
    seed: int,
    tally: Tally,
    keep_going: Callable[[], bool],
) -> None:
    """A sampled call of a game whose chunks the compiled tally scores from the cards: each
    chunk dealt, scored and tallied in one call (``Tally.deal_discard``, ``deal_scored``),
    the cards ``_samples`` deals from the same seed, in the same chunks."""
    game, plan = planned.game, planned.plan
    cards = tile(plan, tuple(seat.hand for seat in request.seats), request.table)
    rng = np.random.default_rng(seed)
    for size in _sizes(planned.runouts, min(SAMPLE_CHUNK, planned.chunk), planned.first_chunk):
        if not keep_going():
            raise Stopped(f"stopped after {tally.seen} of {planned.runouts} run-outs")
        dealt = cards.dealt(chunk_seed(rng))
        if game.discard is not None:
            tally.deal_discard(game.discard, dealt, size)
        elif game.scored is not None:
            tally.deal_scored(game.scored, dealt, size, request.options)


def _resolve(
    request: OddsRequest,
    game: OddsGame,
    rows: Matrix,
    weights: Weights | None,
    tally: Tally,
) -> None:
    """Score and resolve one chunk of completions and add it to ``tally``."""
    hands = []
    column = 0
    for seat in request.seats:
        hands.append(_joined(seat.hand, rows[:, column : column + seat.unknown]))
        column += seat.unknown
    table = _joined(request.table, rows[:, column:])
    if game.discard is not None:
        tally.add_discard(game.discard, hands, table, weights)
    elif game.scored is not None:
        tally.add_scored(game.scored, hands, table, weights, request.options)
    else:
        tally.add(game.figures(hands, table, request.options), weights)


def _joined(known: tuple[int, ...], dealt: Matrix) -> Matrix:
    """Known cards then the dealt ones, per run-out; (1, known) when nothing is dealt."""
    if not dealt.shape[1]:
        return np.array([known], dtype=np.uint8).reshape(1, len(known))
    if not known:
        return dealt
    shared = np.broadcast_to(np.array(known, dtype=np.uint8), (len(dealt), len(known)))
    return np.concatenate([shared, dealt], axis=1)
