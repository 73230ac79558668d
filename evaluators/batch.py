"""Packed batches: many hands of one game as card-id bytes in, one array per figure out.

The contract (docs/api.md ``EvaluateBatchRequest``): ``hands`` holds ``hand_size`` bytes per
hand, ``tables`` either one table of ``table_size`` bytes for every hand or one per hand;
byte 255 pads a short hand or table. The whole batch is screened first (``screen``, one
compiled pass), and any bad hand fails it all (no partial scores): ``batch_check.check``
then finds every problem for the ``InvalidRequest`` (``read_batch``). Then
``scoring.evaluate_batch`` runs the game's own ``evaluate_batch`` on the narrowest layout
(each row's padding moved to its end, all-padding columns dropped), chunk by chunk.
``evaluate_batch`` (``open_batch``: the shape and options checked, then ``score_batch``)
does both in one pass where the game has a ``screened_batch`` and the hands share a table,
and the two-pass way for any batch that pass refuses. Strength points up, as everywhere.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import overload

import numpy as np
import numpy.typing as npt

from evaluators import scoring
from evaluators.batch_check import check
from evaluators.cards import (
    DECK_SIZE,
    EMPTY,
    JOKER_1,
    JOKER_2,
    deck_size,
)
from evaluators.errors import BatchTooLarge, InvalidRequest, Violation
from evaluators.game_rules import GameRules
from evaluators.inputs import BatchRequest, Game, Options
from evaluators.kernels import _screen
from evaluators.results import BatchResult, RankedCells
from evaluators.validation import check_options, rules_for

__all__ = [
    "OpenedBatch",
    "evaluate_batch",
    "open_batch",
    "read_batch",
    "score_batch",
]

Matrix = npt.NDArray[np.uint8]
Mask = npt.NDArray[np.bool_]

MAX_ROW_BYTES = 64
"""Most bytes one hand or one table may take, padding included: no game deals more than
10 cards, and refusing wider rows up front keeps a hostile shape from costing time."""


@dataclass(frozen=True, slots=True)
class OpenedBatch:
    """A batch opened (``open_batch``): its game's rules, its options, and its hands and
    tables as matrices of the request's shape, checked but with their cards not screened
    yet (``score_batch`` screens them, in the same pass as the scoring where it can)."""

    rules: GameRules
    hands: Matrix
    tables: Matrix
    options: Options


def open_batch(
    game: Game | None,
    hands: bytes | memoryview,
    hand_size: int,
    tables: bytes | memoryview,
    table_size: int,
    options: Options,
    max_hands: int,
) -> OpenedBatch:
    """The batch's game, options and shape checked (``_shape``), its bytes left where they
    lie. Raises ``BatchTooLarge`` over ``max_hands`` and ``InvalidRequest`` for a missing
    game, an option the game does not read or a bad shape."""
    rules = rules_for(game)
    if refused := check_options(rules, options, showdown=False):
        raise InvalidRequest(refused)
    return OpenedBatch(rules, *_shape(hands, hand_size, tables, table_size, max_hands), options)


def read_batch(
    game: Game | None,
    hands: bytes | memoryview,
    hand_size: int,
    tables: bytes | memoryview,
    table_size: int,
    options: Options,
    max_hands: int,
) -> BatchRequest:
    """Parse and check a packed batch, the batch form of ``validation.read_hand``.

    Raises ``BatchTooLarge`` over ``max_hands`` and ``InvalidRequest`` for any bad hand or
    shape. The matrices of the request are in the narrowest layout (``_packed``).
    """
    return _screened_request(
        open_batch(game, hands, hand_size, tables, table_size, options, max_hands)
    )


@overload
def score_batch(
    batch: OpenedBatch, keep_going: Callable[[], bool] | None = None, into: None = None
) -> BatchResult: ...


@overload
def score_batch(
    batch: OpenedBatch, keep_going: Callable[[], bool] | None, into: RankedCells
) -> BatchResult | None: ...


def score_batch(
    batch: OpenedBatch,
    keep_going: Callable[[], bool] | None = None,
    into: RankedCells | None = None,
) -> BatchResult | None:
    """The opened batch screened and scored: one entry per hand, in order. Where the game
    has a ``screened_batch`` and the hands share one table, the bytes are checked and
    scored in one pass (``_scored_in_one_pass``); a batch that pass refuses goes the
    two-pass way (``_screened_request``, then ``scoring.evaluate_batch``), so its errors
    are ``read_batch``'s.

    With ``into`` (a columns reply's own cells), a batch that takes the one pass is written
    there, chunk by chunk in place, and None is returned: nothing is joined, widened or
    copied. Any other batch returns its figures as without ``into``, whose cells then mean
    nothing.

    Raises ``InvalidRequest`` for any bad hand and ``Stopped`` when ``keep_going()``
    turns false between chunks.
    """
    if _takes_one_pass(batch):
        if into is not None:
            if _scored_in_one_pass(batch, into.strength, into.value, keep_going):
                return None
        else:
            count = len(batch.hands)
            strength, value = np.empty(count, np.uint32), np.empty(count, np.int32)
            if _scored_in_one_pass(batch, strength.data, value.data, keep_going):
                return BatchResult.ranked_only(strength, value)
    return scoring.evaluate_batch(_screened_request(batch), keep_going)


def evaluate_batch(
    game: Game | None,
    hands: bytes | memoryview,
    hand_size: int,
    tables: bytes | memoryview,
    table_size: int,
    options: Options,
    max_hands: int,
    keep_going: Callable[[], bool] | None = None,
) -> BatchResult:
    """``open_batch`` then ``score_batch``: read and scored in one call.

    Raises ``BatchTooLarge``, ``InvalidRequest`` (see ``read_batch``) and
    ``Stopped`` when ``keep_going()`` turns false between chunks.
    """
    return score_batch(
        open_batch(game, hands, hand_size, tables, table_size, options, max_hands), keep_going
    )


def _screened_request(batch: OpenedBatch) -> BatchRequest:
    """The batch screened (``screen``, then ``check`` for a batch it refuses), in the
    narrowest layout."""
    rules, hand_matrix, table_matrix = batch.rules, batch.hands, batch.tables
    verdict = screen(rules, hand_matrix, table_matrix)
    if not verdict:
        check(rules, hand_matrix, table_matrix)
    hands_full = verdict & _screen.HANDS_FULL or EMPTY not in hand_matrix
    tables_full = verdict & _screen.TABLES_FULL or EMPTY not in table_matrix
    return BatchRequest(
        rules.game,
        hand_matrix if hands_full else _packed(hand_matrix),
        table_matrix if tables_full else _packed(table_matrix),
        batch.options,
    )


class _Refused(Exception):
    """The one-pass check refused a chunk: the batch is screened the two-pass way."""


def _takes_one_pass(batch: OpenedBatch) -> bool:
    """Whether the batch may go ``_scored_in_one_pass``: its game has a ``screened_batch``,
    its hands share one table, and a full hand of theirs passes the screen with it
    (``full_hands_pass``: the table's rules and the sizes)."""
    rules, hands, tables = batch.rules, batch.hands, batch.tables
    return (
        rules.screened_batch is not None
        and len(tables) == 1
        and len(hands) > 0
        and full_hands_pass(rules.game, hands.shape[1], tables.tobytes())
    )


@functools.lru_cache(maxsize=64)
def full_hands_pass(game: Game, width: int, table: bytes) -> bool:
    """Whether a hand of ``width`` cards passes the screen with ``table`` in ``game``: the
    screen asked of the lowest cards the table does not hold, once per shape and table
    (cached). What else a full hand must pass is its own cards' (in range, none twice,
    none of the table's), which the one pass checks for every hand; so a batch need not
    screen its first hand, a call that let the GIL go (a hand-off to the event loop and
    back) for one row."""
    unused = [card for card in range(DECK_SIZE) if card not in table][:width]
    if len(unused) < width:
        return False
    hand = np.array(unused, dtype=np.uint8).reshape(1, width)
    row = np.frombuffer(table, dtype=np.uint8).reshape(1, len(table))
    return screen(rules_for(game), hand, row) != 0


def _scored_in_one_pass(
    batch: OpenedBatch,
    strength: memoryview,
    value: memoryview,
    keep_going: Callable[[], bool] | None,
) -> bool:
    """The game's ``screened_batch`` over a batch that ``_takes_one_pass``, into
    ``strength`` and ``value`` (a cell per hand), chunk by chunk as
    ``scoring.over_chunks`` goes, each chunk into its own slice of them: each hand's
    cards are checked as it is scored (``first_refused``). The check refuses a padded
    hand, so every hand scored holds the first hand's count of cards. False when it
    refuses a hand.
    """
    rules, hands, table, options = batch.rules, batch.hands, batch.tables, batch.options
    screened = rules.screened_batch
    assert screened is not None, "a batch that takes the one pass has its game's"
    first = first_refused(rules)

    def score(start: int, stop: int) -> None:
        if not screened(
            hands[start:stop], table, options, first, strength[start:stop], value[start:stop]
        ):
            raise _Refused

    try:
        scoring.over_chunks(
            len(hands), score, keep_going, scoring.first_chunk_hands(rules.batch_cost)
        )
    except _Refused:
        return False
    return True


def first_refused(rules: GameRules) -> int:
    """The lowest byte a full hand may not hold, every byte from it up refused too (the
    order of ``card_bits``): the jokers where the game deals none, then the bytes that are
    no card, then the padding byte."""
    return deck_size(rules.jokers)


def _shape(
    hands: bytes | memoryview,
    hand_size: int,
    tables: bytes | memoryview,
    table_size: int,
    max_hands: int,
) -> tuple[Matrix, Matrix]:
    """(N, hand_size) and (1 or N, table_size) views of the bytes, or the shape's problems."""
    violations = [
        Violation(field, f"{field} is {size}; at most {MAX_ROW_BYTES} bytes per row")
        for field, size in (("hand_size", hand_size), ("table_size", table_size))
        if size > MAX_ROW_BYTES
    ]
    if violations:
        raise InvalidRequest(violations)
    if hand_size == 0:
        if hands:
            violations.append(
                Violation("hand_size", f"hand_size is 0 but hands has {len(hands)} bytes")
            )
        count = 0
    else:
        count = -(-len(hands) // hand_size)
        if count > max_hands:
            raise BatchTooLarge(count, max_hands)
        if len(hands) % hand_size:
            violations.append(
                Violation(
                    "hands",
                    f"hands has {len(hands)} bytes, not a whole number of hands of "
                    f"hand_size {hand_size} bytes",
                )
            )
    if table_size == 0:
        if tables:
            violations.append(
                Violation("table_size", f"table_size is 0 but tables has {len(tables)} bytes")
            )
    elif len(tables) not in (table_size, count * table_size):
        violations.append(
            Violation(
                "tables",
                f"tables has {len(tables)} bytes: expected {table_size} (one table for every "
                f"hand) or {count * table_size} ({count} hands x table_size {table_size})",
            )
        )
    if violations:
        raise InvalidRequest(violations)
    hand_matrix = np.frombuffer(hands, dtype=np.uint8).reshape(count, hand_size)
    if table_size == 0:
        return hand_matrix, np.zeros((1, 0), dtype=np.uint8)
    return hand_matrix, np.frombuffer(tables, dtype=np.uint8).reshape(-1, table_size)


def _packed(rows: Matrix) -> Matrix:
    """The same cards in the same order, padding moved to the end of each row and columns
    that only pad dropped: a game's ``evaluate_batch`` sees the narrowest layout."""
    is_pad = rows == EMPTY
    width = int((~is_pad).sum(axis=1).max(initial=0))
    if not is_pad[:, :width].any():
        return np.ascontiguousarray(rows[:, :width])
    order = np.argsort(is_pad, axis=1, kind="stable")
    return np.ascontiguousarray(np.take_along_axis(rows, order, axis=1)[:, :width])


_NOT_A_CARD_BIT = 1 << 63
_JOKER_BITS = (1 << JOKER_1) | (1 << JOKER_2)


@functools.cache
def card_bits() -> npt.NDArray[np.uint64]:
    """Byte -> ``1 << id`` for the 54 cards (jokers included), 0 for EMPTY, and
    ``1 << 63`` for any other byte: 256 uint64 (2 KiB), built in microseconds."""
    bits = np.full(256, _NOT_A_CARD_BIT, dtype=np.uint64)
    bits[: JOKER_2 + 1] = np.left_shift(np.uint64(1), np.arange(JOKER_2 + 1, dtype=np.uint64))
    bits[EMPTY] = 0
    return bits


@functools.cache
def rank_bits() -> npt.NDArray[np.uint64]:
    """Byte -> ``1 << rank`` for the 52 cards, 0 for every other byte (jokers, EMPTY)."""
    bits = np.zeros(256, dtype=np.uint64)
    bits[:DECK_SIZE] = np.left_shift(np.uint64(1), np.arange(DECK_SIZE, dtype=np.uint64) >> 2)
    return bits


def screen(rules: GameRules, hands: Matrix, tables: Matrix) -> int:
    """The compiled screen (``kernels._screen``), the card-set and size rules (``cards``,
    ``rules_check``) over a whole batch in one pass over the bytes with the GIL released,
    exact against ``check`` (tests/unit/test_batch.py): 0 when ``check`` would refuse the
    batch (or it is empty or too wide: ``check`` decides), else
    ``_screen.PASSED`` plus ``_screen.HANDS_FULL`` / ``TABLES_FULL`` when the hands or the
    tables hold no padding byte (the caller need not look for one).

    Each byte becomes one bit (``card_bits``), added and OR-ed along its row: a non-card
    byte or a joker the game does not deal shows as its flag bits, a repeated card as a sum
    that differs from the OR; the sizes are the game's ``GameRules``.
    """
    if not len(hands) or max(hands.shape[1], tables.shape[1]) > MAX_ROW_BYTES:
        return 0
    return _screen.screen(
        np.ascontiguousarray(hands),
        np.ascontiguousarray(tables),
        card_bits(),
        rank_bits(),
        _NOT_A_CARD_BIT | (0 if rules.jokers else _JOKER_BITS),
        EMPTY,
        rules.hand_min,
        rules.hand_max,
        rules.table_min,
        rules.table_max,
        rules.cards_min,
        rules.cards_max,
        rules.distinct_table_ranks,
    )
