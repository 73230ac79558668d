"""Point totals: Numbers (#137), Florida Bingo (#508) and Flop-A (#1035).

The three games differ only in what each rank is worth, so each is a ``PointValues``
table (data, RULES.md "Point totals") fed to one implementation. Totals are over the
cards the discard rule keeps. Low values are held in half points so Florida Bingo's ace
(one half) stays an integer everywhere; the wire's ``low_total`` is a float, exact for halves.

Strength points up: ``strength`` is the high total (a larger total is better);
``low_strength`` is ``LOW_STRENGTH_BASE`` minus the low total in half points (a larger
value is a better, i.e. lower, low). Both are 0 for an instant win.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from evaluators.cards import DECK_SIZE
from evaluators.discard import apply_discard, instant_win, sum_kept
from evaluators.inputs import Cards, Options
from evaluators.results import BatchResult, Evaluation, PointsDetail

LOW_STRENGTH_BASE = 256
"""``low_strength`` = this minus twice the low total; a kept hand's low is below 128."""

_LOW_SHIFT = 8
"""Batch packing: high total in bits 0-7, low total in half points in bits 8-15."""

NUMBERS_SUMMARY = (
    "Numbers (#137): five cards each, up to seven table cards turned one by one; after "
    "each, every hand card of its rank is discarded and a player left with no cards wins "
    "at once. Otherwise the kept cards are totalled: high counts A 15, J Q K 10; low "
    "counts A 1, J Q K 10; others face value. Highest high and lowest low split the pot."
)
FLORIDA_BINGO_SUMMARY = (
    "Florida Bingo (#508): Numbers with a different low count. Five cards each, up to "
    "seven table cards; hand cards of a table card's rank are discarded and an emptied "
    "hand wins at once. High counts A 15, J Q K 10; low counts A one half, J Q K 1; others "
    "face value. Highest high and lowest low split the pot."
)
FLOP_A_SUMMARY = (
    "Flop-A (#1035): three cards each, up to five table cards; hand cards of a table card's "
    "rank are discarded and an emptied hand wins at once. High counts A 11, low A 1, J Q K "
    "10 and others face value in both. Each player declares high, low or both; a player "
    "declaring both must win both halves or gets nothing."
)


@dataclass(frozen=True)
class PointValues:
    """One game's card values by rank index (``2`` ... ``A``): high, and low in half points."""

    high: tuple[int, ...]
    low_halves: tuple[int, ...]


_FACES = (2, 3, 4, 5, 6, 7, 8, 9, 10)
"""Ranks 2-T count their face value in every total."""

NUMBERS = PointValues(
    high=(*_FACES, 10, 10, 10, 15),
    low_halves=tuple(2 * v for v in (*_FACES, 10, 10, 10, 1)),
)
FLORIDA_BINGO = PointValues(
    high=(*_FACES, 10, 10, 10, 15),
    low_halves=(*(2 * v for v in _FACES), 2, 2, 2, 1),  # J Q K = 1, A = 1/2
)
FLOP_A = PointValues(
    high=(*_FACES, 10, 10, 10, 11),
    low_halves=tuple(2 * v for v in (*_FACES, 10, 10, 10, 1)),
)


@cache
def packed_card_values(values: PointValues) -> tuple[int, ...]:
    """Per card id 0-51: high value plus low half points shifted by ``_LOW_SHIFT``.

    52 ints, built in microseconds. The single-hand and the batch path read this one table,
    so a test holding them equal also holds the table; totals of up to 12 cards never
    carry across the fields.
    """
    return tuple(
        values.high[card >> 2] | values.low_halves[card >> 2] << _LOW_SHIFT
        for card in range(DECK_SIZE)
    )


@cache
def packed_card_array(values: PointValues) -> npt.NDArray[np.uint16]:
    """``packed_card_values`` as 256 uint16 indexed by card id, 0 for the padding byte."""
    array = np.zeros(256, dtype=np.uint16)
    array[:DECK_SIZE] = packed_card_values(values)
    array.flags.writeable = False
    return array


def _half_text(halves: int) -> str:
    whole, half = divmod(halves, 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


def evaluate_points(values: PointValues, hand: Cards, table: Cards) -> Evaluation:
    """Score ``hand`` against ``table`` (in the order turned) with one game's values."""
    return _evaluate(packed_card_values(values), hand, table)


def _evaluate(card_values: tuple[int, ...], hand: Cards, table: Cards) -> Evaluation:
    discard = apply_discard(hand, table)
    if discard.instant_win:
        return instant_win(discard, PointsDetail(0.0, 0.0))
    packed = 0
    for card in discard.kept:
        packed += card_values[card]
    high = packed & 0xFF
    low_halves = packed >> _LOW_SHIFT
    return Evaluation(
        strength=high,
        description=f"High {high}, low {_half_text(low_halves)}",
        detail=PointsDetail(float(high), low_halves / 2),
        low_strength=LOW_STRENGTH_BASE - low_halves,
        kept=discard.kept,
        discarded=discard.discarded,
    )


def evaluate_points_batch(
    values: PointValues, hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8]
) -> BatchResult:
    """The batch form of ``evaluate_points``; equal to it hand by hand.

    ``hands`` (N, hand_size), ``tables`` (N or 1, table_size), 255-padded and validated.
    """
    packed = sum_kept(packed_card_array(values), hands, tables)
    high = packed & np.uint16(0xFF)
    low_halves = packed >> np.uint16(_LOW_SHIFT)
    kept_any = high != 0  # every card's high value is at least 2
    low_strength = (np.uint16(LOW_STRENGTH_BASE) - low_halves) * kept_any
    return BatchResult(
        strength=high.astype(np.uint64),
        low_strength=low_strength.astype(np.uint64),
        value=high.astype(np.int64),
        instant_win=~kept_any,
    )


_NUMBERS_CARDS = packed_card_values(NUMBERS)
_FLORIDA_BINGO_CARDS = packed_card_values(FLORIDA_BINGO)
_FLOP_A_CARDS = packed_card_values(FLOP_A)


def headline(evaluation: Evaluation) -> int:
    """The batch ``value``: the high total, always whole (0 for an instant win)."""
    detail = evaluation.detail
    if not isinstance(detail, PointsDetail):
        raise TypeError(f"not a point-total evaluation: {detail!r}")
    return int(detail.high_total)


def evaluate_numbers(
    hand: Cards, table: Cards, table_spreads: tuple[Cards, ...], options: Options
) -> Evaluation:
    return _evaluate(_NUMBERS_CARDS, hand, table)


def evaluate_florida_bingo(
    hand: Cards, table: Cards, table_spreads: tuple[Cards, ...], options: Options
) -> Evaluation:
    return _evaluate(_FLORIDA_BINGO_CARDS, hand, table)


def evaluate_flop_a(
    hand: Cards, table: Cards, table_spreads: tuple[Cards, ...], options: Options
) -> Evaluation:
    return _evaluate(_FLOP_A_CARDS, hand, table)


def evaluate_numbers_batch(
    hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8], options: Options
) -> BatchResult:
    return evaluate_points_batch(NUMBERS, hands, tables)


def evaluate_florida_bingo_batch(
    hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8], options: Options
) -> BatchResult:
    return evaluate_points_batch(FLORIDA_BINGO, hands, tables)


def evaluate_flop_a_batch(
    hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8], options: Options
) -> BatchResult:
    return evaluate_points_batch(FLOP_A, hands, tables)
