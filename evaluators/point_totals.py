"""Point totals, shared by Numbers, Florida Bingo and Flop-A (docs/rules.md "Point totals").

The games differ only in what each rank is worth, so each game module holds a
``PointValues`` table (data) and feeds it to this one implementation. Totals are over the
cards the discard rule keeps. Low values are held in half points so Florida Bingo's ace
(one half) stays an integer everywhere; the wire's ``low_total`` is a float, exact for halves.

Strength points up: ``strength`` is the high total (a larger total is better);
``low_strength`` is ``LOW_STRENGTH_BASE`` minus the low total in half points (a larger
value is a better, i.e. lower, low). Both are 0 for an instant win.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from evaluators import discard
from evaluators.cards import DECK_SIZE
from evaluators.discard import apply_discard, discard_figures, instant_win, sum_kept
from evaluators.figures import half_text
from evaluators.game_odds import CompiledPot, Declarations, DiscardScore, Figures, OddsGame, Split
from evaluators.game_rules import Figure, GameRules, Resolver, Results, ShowdownCheck
from evaluators.inputs import Cards, Game, Options, ShowdownRequest
from evaluators.kernels import _odds
from evaluators.results import BatchResult, Detail, Evaluation, Resolution
from evaluators.runouts import showdown as array_showdown
from evaluators.showdown import instant_win_first, low_strength, split_pot, strength


@dataclass(frozen=True, slots=True)
class PointsDetail(Detail):
    """Numbers, Florida Bingo, Flop-A: totals of the kept cards (halves are exact floats)."""

    WIRE: ClassVar[str] = "points"

    high_total: float
    low_total: float


LOW_STRENGTH_BASE = 256
"""``low_strength`` = this minus twice the low total; a kept hand's low is below 128."""

_LOW_SHIFT = 8
"""Batch packing: high total in bits 0-7, low total in half points in bits 8-15."""


@dataclass(frozen=True)
class PointValues:
    """One game's card values by rank index (``2`` ... ``A``): high, and low in half points."""

    high: tuple[int, ...]
    low_halves: tuple[int, ...]


FACES = (2, 3, 4, 5, 6, 7, 8, 9, 10)
"""Ranks 2-T count their face value in every total."""


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


def evaluate(card_values: tuple[int, ...], hand: Cards, table: Cards) -> Evaluation:
    """Score ``hand`` against ``table`` (in the order turned) with one game's
    ``packed_card_values``, which its module computes once."""
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
        description=f"High {high}, low {half_text(low_halves)}",
        detail=PointsDetail(float(high), low_halves / 2),
        low_strength=LOW_STRENGTH_BASE - low_halves,
        kept=discard.kept,
        discarded=discard.discarded,
    )


def evaluate_batch(
    values: PointValues, hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8]
) -> BatchResult:
    """The batch form of ``evaluate``; equal to it hand by hand: compiled
    (``discard.evaluate_kept``), equal to ``reference_batch``.

    ``hands`` (N, hand_size), ``tables`` (N or 1, table_size), 255-padded and validated.
    """
    return discard.evaluate_kept(packed_card_array(values), kept_result, hands, tables)


def reference_batch(
    values: PointValues, hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8]
) -> BatchResult:
    """``evaluate_batch`` in numpy: the reference the compiled batch is held equal to."""
    return kept_result(sum_kept(packed_card_array(values), hands, tables))


def kept_result(packed: npt.NDArray[np.uint16]) -> BatchResult:
    """The batch result of hands whose kept cards' ``packed_card_values`` sum to ``packed``."""
    high = packed & np.uint16(0xFF)
    low_halves = packed >> np.uint16(_LOW_SHIFT)
    kept_any = high != 0  # every card's high value is at least 2
    low = (np.uint16(LOW_STRENGTH_BASE) - low_halves) * kept_any
    return BatchResult(
        strength=high,
        low_strength=low,
        value=high.view(np.int16),
        instant_win=~kept_any,
    )


def headline(evaluation: Evaluation) -> int:
    """The batch ``value``: the high total, always whole (0 for an instant win)."""
    return int(evaluation.detail_as(PointsDetail).high_total)


def _amount_text(value: float) -> str:
    return half_text(round(2 * value))


def high_why(evaluation: Evaluation) -> str:
    """``a high total of 25``: why a seat won the high half."""
    return f"a high total of {_amount_text(evaluation.detail_as(PointsDetail).high_total)}"


def low_why(evaluation: Evaluation) -> str:
    """``a low total of 3½``: why a seat won the low half."""
    return f"a low total of {_amount_text(evaluation.detail_as(PointsDetail).low_total)}"


@instant_win_first
def resolve_high_low(request: ShowdownRequest, results: Results) -> Resolution:
    """The highest high total takes the high half, the lowest low total (highest
    ``low_strength``) the low half; ties split a half. An instant win first."""
    return split_pot(results, (("high", strength, high_why), ("low", low_strength, low_why)))


def odds_high_low(figures: Figures, declarations: Declarations) -> Split:
    """``resolve_high_low`` over arrays (Odds): highest high and lowest low split the
    pot, ties split a half; an instant win first takes the whole pot."""
    instant, rest = array_showdown.instant_wins(figures.out_after)
    half = 0.5 * rest
    fractions = array_showdown.split_pots(
        [
            (array_showdown.best(figures.strength), half),
            (array_showdown.best(figures.low_strength), half),
            (instant, 1.0),
        ]
    )
    return Split(fractions, array_showdown.no_redeal(fractions.shape[2]))


ODDS_HIGH_LOW = CompiledPot(_odds.HALVES, second="low_strength", instant_pot=2)
"""``odds_high_low`` as the compiled tally resolves it."""


def figures(evaluation: Evaluation) -> list[Figure]:
    """Low strength, the discard rule's figures, then the two totals."""
    detail = evaluation.detail_as(PointsDetail)
    return [
        ("low strength", str(evaluation.low_strength), True),
        *discard_figures(evaluation),
        ("high total", _amount_text(detail.high_total), True),
        ("low total", _amount_text(detail.low_total), True),
    ]


def odds_discard(values: PointValues) -> DiscardScore:
    """One game's figures for Odds' compiled discard rule, with its point values."""
    return DiscardScore(packed_card_array(values), kept_result)


def game_rules(
    values: PointValues,
    *,
    game: Game,
    name: str,
    number: int,
    summary: str,
    hand_max: int,
    table_max: int,
    odds: OddsGame,
    resolve: Resolver = resolve_high_low,
    check_showdown: ShowdownCheck | None = None,
) -> GameRules:
    """A point-totals game's ``RULES``: the discard rule (from one card up, table ranks
    distinct), totals by ``values``, high and low pots; what the games differ in is named.

    The three games state their sizes, pot rule and Odds here and nothing else, so the
    scoring, figures and table rules are written once, in this module.
    """
    card_values = packed_card_values(values)

    def evaluate_hand(
        hand: Cards, table: Cards, table_spreads: tuple[Cards, ...], options: Options
    ) -> Evaluation:
        return evaluate(card_values, hand, table)

    def evaluate_hands(
        hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8], options: Options
    ) -> BatchResult:
        return evaluate_batch(values, hands, tables)

    def reference_hands(
        hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8], options: Options
    ) -> BatchResult:
        return reference_batch(values, hands, tables)

    return GameRules(
        game=game,
        name=name,
        number=number,
        summary=summary,
        hand_min=1,
        hand_max=hand_max,
        table_min=0,
        table_max=table_max,
        distinct_table_ranks=True,
        evaluate=evaluate_hand,
        evaluate_batch=evaluate_hands,
        reference_batch=reference_hands,
        resolve=resolve,
        headline=headline,
        figures=figures,
        detail=PointsDetail,
        pots=("high", "low", "whole"),
        check_showdown=check_showdown,
        odds=odds,
    )
