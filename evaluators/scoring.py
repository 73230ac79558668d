"""The core's front door: score a validated hand or batch, resolve a validated showdown.

Each looks the game up in the registry; nothing here knows any game's rules.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from evaluators.inputs import BatchRequest, HandRequest, ShowdownRequest
from evaluators.registry import GAMES
from evaluators.results import BatchResult, Evaluation, ShowdownOutcome

CHUNK_HANDS = 10_000
"""``evaluate_batch`` scores this many hands at a time and asks ``keep_going`` between
chunks: a caller that has gone stops the work within one chunk's time."""


class BatchCancelled(Exception):
    """``keep_going`` said stop (the caller gave up or its deadline passed); nothing is returned."""


def evaluate(request: HandRequest) -> Evaluation:
    rules = GAMES[request.game]
    return rules.evaluate(request.hand, request.table, request.table_spreads, request.options)


def evaluate_batch(
    request: BatchRequest, keep_going: Callable[[], bool] | None = None
) -> BatchResult:
    """The batch form of ``evaluate``: one entry per hand, in order, from the game's
    ``evaluate_batch`` over chunks of ``CHUNK_HANDS`` hands.

    Raises ``BatchCancelled`` when ``keep_going()`` is false before a chunk after the first.
    """
    rules = GAMES[request.game]
    hands, tables, options = request.hands, request.tables, request.options
    count = len(hands)
    parts: list[BatchResult] = []
    for start in range(0, count, CHUNK_HANDS):
        if start and keep_going is not None and not keep_going():
            raise BatchCancelled(f"stopped after {start} of {count} hands")
        stop = start + CHUNK_HANDS
        part = rules.evaluate_batch(
            hands[start:stop], tables if len(tables) == 1 else tables[start:stop], options
        )
        size = min(stop, count) - start
        if any(
            len(a) != size for a in (part.strength, part.low_strength, part.value, part.instant_win)
        ):
            raise RuntimeError(f"{rules.name} batch evaluator returned the wrong number of results")
        parts.append(part)
    if len(parts) == 1:
        return parts[0]
    if not parts:
        return BatchResult(
            strength=np.zeros(0, dtype=np.uint64),
            low_strength=np.zeros(0, dtype=np.uint64),
            value=np.zeros(0, dtype=np.int64),
            instant_win=np.zeros(0, dtype=np.bool_),
        )
    return BatchResult(
        strength=np.concatenate([p.strength for p in parts]),
        low_strength=np.concatenate([p.low_strength for p in parts]),
        value=np.concatenate([p.value for p in parts]),
        instant_win=np.concatenate([p.instant_win for p in parts]),
    )


def showdown(request: ShowdownRequest) -> ShowdownOutcome:
    rules = GAMES[request.game]
    table, spreads, options = request.table, request.table_spreads, request.options
    results = tuple(
        (seat.player, rules.evaluate(seat.hand, table, spreads, options)) for seat in request.seats
    )
    resolution = rules.resolve(request, results)
    return ShowdownOutcome(
        results=results,
        awards=resolution.awards,
        redeal=resolution.redeal,
        payouts=resolution.payouts,
        explanation=resolution.explanation,
    )
