"""The core's front door: score a validated hand or batch, resolve a validated showdown.

Each looks the game up in the registry; nothing here knows any game's rules.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from evaluators.costs import UnitCost
from evaluators.errors import Stopped
from evaluators.inputs import BatchRequest, HandRequest, ShowdownRequest
from evaluators.registry import GAMES
from evaluators.results import BatchResult, Evaluation, ShowdownOutcome

FIRST_CHUNK_HANDS = 16_384
"""With ``keep_going``, ``evaluate_batch`` scores at least this many hands first to learn
the speed: well within ``CHUNK_SECONDS`` for the slowest game with the compiled kernels
(meld-dense 10-card Tonk), so a batch of up to this many hands is one pass."""
CHUNK_SECONDS = 0.005
"""Later chunks are sized to take about this long, and ``keep_going`` is asked between
them: a caller that has gone stops the work within a few milliseconds of it, whatever the
game (chunks are sized by the game's own speed, not by a hand count)."""


def evaluate(request: HandRequest) -> Evaluation:
    """Score one hand by its game's rules; higher ``strength`` is the better hand.

    >>> from evaluators.inputs import Game
    >>> from evaluators.validation import read_hand
    >>> royal = evaluate(read_hand(Game.POKER_HIGH, ["Ah", "Kh"], ["Qh", "Jh", "Th"]))
    >>> royal.description
    'Straight flush, ace high (royal flush)'
    >>> quads = evaluate(read_hand(Game.POKER_HIGH, ["Ah", "Ad", "Ac", "As", "Kd"]))
    >>> royal.strength > quads.strength
    True
    """
    rules = GAMES[request.game]
    return rules.evaluate(request.hand, request.table, request.table_spreads, request.options)


def evaluate_batch(
    request: BatchRequest, keep_going: Callable[[], bool] | None = None
) -> BatchResult:
    """The batch form of ``evaluate``: one entry per hand, in order, from the game's
    ``evaluate_batch``: in one pass, or with ``keep_going`` in chunks of about
    ``CHUNK_SECONDS`` each.

    Raises ``Stopped`` when ``keep_going()`` is false before a chunk after the first.
    """
    rules = GAMES[request.game]
    options = request.options

    def score(hands: Matrix, tables: Matrix) -> BatchResult:
        return rules.evaluate_batch(hands, tables, options)

    return in_chunks(rules.name, score, request.hands, request.tables, keep_going)


Matrix = npt.NDArray[np.uint8]
ChunkScorer = Callable[[Matrix, Matrix], BatchResult]
"""(hands, tables) of one chunk -> their results (``in_chunks``)."""


def in_chunks(
    name: str,
    score: ChunkScorer,
    hands: Matrix,
    tables: Matrix,
    keep_going: Callable[[], bool] | None = None,
) -> BatchResult:
    """``score`` over the batch (``tables`` one shared row or one per hand), chunk by chunk
    as ``over_chunks`` goes, their results joined in order (``name``, the game's, is for the
    error when a chunk's result has the wrong length).

    Raises ``Stopped`` when ``keep_going()`` is false before a chunk after the first.
    """
    parts: list[BatchResult] = []

    def score_chunk(start: int, stop: int) -> None:
        part = score(hands[start:stop], tables if len(tables) == 1 else tables[start:stop])
        if any(
            len(a) != stop - start
            for a in (part.strength, part.low_strength, part.value, part.instant_win)
        ):
            raise RuntimeError(f"{name} batch evaluator returned the wrong number of results")
        parts.append(part)

    over_chunks(len(hands), score_chunk, keep_going)
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


def over_chunks(
    count: int,
    score: Callable[[int, int], None],
    keep_going: Callable[[], bool] | None = None,
    first: int = FIRST_CHUNK_HANDS,
) -> None:
    """``score(start, stop)`` over hands ``0 .. count``: in one pass, or with ``keep_going``
    in chunks of about ``CHUNK_SECONDS`` each (the first ``first`` hands, the next sized by
    its speed), in order. A scorer that writes each chunk where it belongs (a caller's
    outputs) needs no joining; ``in_chunks`` joins the ones that return theirs.

    Raises ``Stopped`` when ``keep_going()`` is false before a chunk after the first.
    """
    start, size = 0, count if keep_going is None else first
    while start < count:
        if start and keep_going is not None and not keep_going():
            raise Stopped(f"stopped after {start} of {count} hands")
        stop = min(count, start + size)
        began = time.perf_counter()
        score(start, stop)
        per_hand = (time.perf_counter() - began) / (stop - start)
        size = max(FIRST_CHUNK_HANDS, int(CHUNK_SECONDS / per_hand)) if per_hand else count
        start = stop


def first_chunk_hands(per_hand: UnitCost) -> int:
    """A first chunk of as many hands as ``per_hand`` (a game's ``batch_cost``, rounded up
    from measurements) puts within ``CHUNK_SECONDS``, and at least ``FIRST_CHUNK_HANDS``:
    250,000 7-card poker hands, so a 100,000-hand batch is one call into its kernel: each
    chunk hands the GIL to the event loop and back, which costs a thread beside a running
    Python more than the chunk's own work saves."""
    return max(FIRST_CHUNK_HANDS, int(CHUNK_SECONDS * 1e9 / per_hand.cpu_ns))


def showdown(request: ShowdownRequest) -> ShowdownOutcome:
    """Score every seat and award the pots by the game's rules.

    >>> from evaluators.inputs import Game
    >>> from evaluators.validation import read_showdown
    >>> seats = [("ann", ["Ah", "Ad"], None), ("bob", ["Kc", "Kd"], None)]
    >>> outcome = showdown(read_showdown(Game.POKER_HIGH, seats, ["2c", "7d", "9h", "Js", "3s"]))
    >>> outcome.explanation
    'ann wins the whole pot with One pair, aces.'
    """
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
        ending=resolution.ending,
    )
