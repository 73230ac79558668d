"""A batch scored in chunks, so a call that is cancelled or past its deadline stops within
a few milliseconds of work instead of after the whole batch.

The core scores a batch in one vectorised pass (NotPoker: ~0.45 s for 100,000 hands on one
core) and asks ``keep_going`` only in its per-hand fallback. Here a regular batch is cut
into chunks of hands: the first ``FIRST_CHUNK`` hands measure the speed, later chunks are
sized to take about ``CHUNK_SECONDS``, and ``keep_going()`` is asked between chunks
(``BatchCancelled`` when it says stop). The answer equals one pass over the whole batch.

Violations: the core numbers rows from its input's start, so on a chunk's InvalidRequest
the whole batch is read again in one pass, which raises with the whole batch's numbering
(the core checks before it scores, so that pass scores nothing). Shapes that are not
regular (rows that do not divide, over the hand limit, ``hand_size`` 0) go in one pass,
for the core's own answer.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from evaluators.batch import BatchCancelled, evaluate_batch
from evaluators.cards import InvalidRequest
from evaluators.inputs import Game, Options
from evaluators.results import BatchResult

FIRST_CHUNK = 1024
CHUNK_SECONDS = 0.005


def evaluate_in_chunks(
    game: Game | None,
    hands: bytes,
    hand_size: int,
    tables: bytes,
    table_size: int,
    options: Options,
    max_hands: int,
    keep_going: Callable[[], bool],
) -> BatchResult:
    """``evaluators.batch.evaluate_batch`` of the whole batch, asking ``keep_going``
    between chunks."""
    count = len(hands) // hand_size if hand_size else 0
    per_row = bool(table_size) and len(tables) == count * table_size
    regular = (
        hand_size > 0
        and len(hands) % hand_size == 0
        and count <= max_hands
        and (len(tables) == table_size or per_row)
    )
    whole = (game, hands, hand_size, tables, table_size, options, max_hands)
    if not regular or count <= FIRST_CHUNK:
        return evaluate_batch(*whole, keep_going=keep_going)
    parts: list[BatchResult] = []
    start, size = 0, FIRST_CHUNK
    while start < count:
        if parts and not keep_going():
            raise BatchCancelled(f"stopped after {start} of {count} hands")
        stop = min(count, start + size)
        rows = tables[start * table_size : stop * table_size] if per_row else tables
        began = time.perf_counter()
        try:
            part = evaluate_batch(
                game, hands[start * hand_size : stop * hand_size], hand_size, rows, table_size,
                options, max_hands, keep_going=keep_going,
            )  # fmt: skip
        except InvalidRequest:
            return evaluate_batch(*whole, keep_going=keep_going)
        parts.append(part)
        per_hand = (time.perf_counter() - began) / (stop - start)
        size = max(FIRST_CHUNK, int(CHUNK_SECONDS / per_hand)) if per_hand > 0 else count
        start = stop
    return BatchResult(
        strength=np.concatenate([p.strength for p in parts]),
        low_strength=np.concatenate([p.low_strength for p in parts]),
        value=np.concatenate([p.value for p in parts]),
        instant_win=np.concatenate([p.instant_win for p in parts]),
    )
