"""Three Hundred Thirty Three (#845): blackjack totals over the cards the discard rule keeps.

A = 1 or 11, J/Q/K = 10, others face value, over the cards the discard rule keeps. The
total is the highest one not over 21 (``soft`` when an ace counts 11); if none is, the hand
is ``bust`` with its lowest total (docs/rules.md, "Blackjack totals").

Strength points up and follows the Ruling that a pot always has a winner: every hand
that is not bust ranks above every bust hand; among those, a higher total is better;
among bust hands a LOWER total is better. Equal totals are equal strength (soft 19 ties
hard 19). An instant win has strength 0, and ``instant_win`` decides it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from evaluators.cards import DECK_SIZE
from evaluators.costs import UnitCost
from evaluators.discard import (
    apply_discard,
    discard_figures,
    evaluate_kept,
    instant_win,
    sum_kept,
)
from evaluators.figures import yes_no
from evaluators.game_odds import CompiledPot, Declarations, DiscardScore, Figures, Split
from evaluators.game_rules import Figure, GameRules
from evaluators.inputs import Cards, Game, Options
from evaluators.kernels import _odds
from evaluators.results import BatchResult, Detail, Evaluation
from evaluators.runouts import showdown as array_showdown
from evaluators.showdown import resolve_single_pot


@dataclass(frozen=True, slots=True)
class BlackjackDetail(Detail):
    WIRE: ClassVar[str] = "blackjack"

    total: int
    soft: bool
    bust: bool


SUMMARY = (
    "Three Hundred Thirty Three (#845): three cards each, four table cards turned one by "
    "one; after each, every hand card of its rank is discarded and a player left with no "
    "cards wins at once. Otherwise the kept cards make a blackjack total (A 1 or 11, J Q K "
    "10, others face value): the highest total not over 21 wins, and if everyone is bust "
    "the lowest bust total wins."
)

BUST_PIVOT = 128
"""Strength is ``BUST_PIVOT + total`` when not bust, ``BUST_PIVOT - total`` when bust."""

_ACE_SHIFT = 8
"""Batch packing: hard total (aces as 1) in bits 0-7, number of aces in bits 8-15."""

_HARD_VALUES = (2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 1)
"""Card value by rank index (``2`` ... ``A``), every ace counted as 1."""

_ACE_RANK = 12


def _build_packed_values() -> tuple[int, ...]:
    """Per card id 0-51: hard value plus one in bit ``_ACE_SHIFT`` for an ace.

    Shared by the single-hand and batch paths; sums of up to 25 cards never carry.
    """
    return tuple(
        _HARD_VALUES[card >> 2] | (card >> 2 == _ACE_RANK) << _ACE_SHIFT
        for card in range(DECK_SIZE)
    )


_PACKED_VALUES = _build_packed_values()
_PACKED_ARRAY = np.zeros(256, dtype=np.uint16)
_PACKED_ARRAY[:DECK_SIZE] = _PACKED_VALUES
_PACKED_ARRAY.flags.writeable = False


def _strength(total: int, bust: bool) -> int:
    return BUST_PIVOT - total if bust else BUST_PIVOT + total


def evaluate(
    hand: Cards, table: Cards, table_spreads: tuple[Cards, ...], options: Options
) -> Evaluation:
    """Score ``hand`` against ``table`` (in the order turned); see the module for strength."""
    discard = apply_discard(hand, table)
    if discard.instant_win:
        return instant_win(discard, BlackjackDetail(0, False, False))
    packed = 0
    for card in discard.kept:
        packed += _PACKED_VALUES[card]
    total = packed & 0xFF
    soft = packed >> _ACE_SHIFT > 0 and total + 10 <= 21
    if soft:
        total += 10
    bust = total > 21
    description = f"Bust {total}" if bust else f"Soft {total}" if soft else str(total)
    return Evaluation(
        strength=_strength(total, bust),
        description=description,
        detail=BlackjackDetail(total, soft, bust),
        kept=discard.kept,
        discarded=discard.discarded,
    )


def evaluate_batch(
    hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8], options: Options
) -> BatchResult:
    """The batch form of ``evaluate``; equal to it hand by hand: compiled
    (``discard.evaluate_kept``), equal to ``reference_batch``.

    ``hands`` (N, hand_size), ``tables`` (N or 1, table_size), 255-padded and validated.
    """
    return evaluate_kept(_PACKED_ARRAY, _kept_result, hands, tables)


def reference_batch(
    hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8], options: Options
) -> BatchResult:
    """``evaluate_batch`` in numpy: the reference the compiled batch is held equal to."""
    return _kept_result(sum_kept(_PACKED_ARRAY, hands, tables))


def _kept_result(packed: npt.NDArray[np.uint16]) -> BatchResult:
    """The batch result of hands whose kept cards' ``_PACKED_VALUES`` sum to ``packed``."""
    hard = packed & np.uint16(0xFF)
    soft = (packed > 0xFF) & (hard <= 11)
    total = hard + np.uint16(10) * soft
    bust = total > 21
    kept_any = hard != 0  # every card is worth at least 1
    # BUST_PIVOT + total, or BUST_PIVOT - total when bust; 0 for an instant win.
    strength = (np.uint16(BUST_PIVOT) + total - np.uint16(2) * total * bust) * kept_any
    return BatchResult(
        strength=strength,
        low_strength=np.zeros(len(total), dtype=np.uint8),
        value=total.view(np.int16),
        instant_win=~kept_any,
    )


def headline(evaluation: Evaluation) -> int:
    """The batch ``value``: the blackjack total (bust: its lowest total; 0 for an instant win)."""
    return evaluation.detail_as(BlackjackDetail).total


def figures(evaluation: Evaluation) -> list[Figure]:
    """The discard rule's figures, then the total and whether it is soft or bust."""
    detail = evaluation.detail_as(BlackjackDetail)
    return [
        *discard_figures(evaluation),
        ("total", str(detail.total), True),
        ("soft", yes_no(detail.soft), True),
        ("bust", yes_no(detail.bust), True),
    ]


def odds_showdown(figures: Figures, declarations: Declarations) -> Split:
    """``resolve_single_pot`` over arrays (Odds): the best strength (bust hands last)
    takes the whole pot, ties split; an instant win first."""
    instant, rest = array_showdown.instant_wins(figures.out_after)
    winners = np.where(rest > 0, array_showdown.best(figures.strength), instant)
    whole = array_showdown.split_pots([(winners, 1.0)])
    return Split(whole, array_showdown.no_redeal(whole.shape[2]))


ODDS_DISCARD = DiscardScore(_PACKED_ARRAY, _kept_result)
"""The figures Odds' compiled discard rule makes."""

RULES = GameRules(
    game=Game.THREE_THIRTY_THREE,
    name="Three Hundred Thirty Three",
    number=845,
    summary=SUMMARY,
    hand_min=1,
    hand_max=3,
    table_min=0,
    table_max=4,
    distinct_table_ranks=True,
    evaluate=evaluate,
    evaluate_batch=evaluate_batch,
    reference_batch=reference_batch,
    resolve=resolve_single_pot,
    headline=headline,
    figures=figures,
    detail=BlackjackDetail,
    aliases=("333",),
    odds=array_showdown.discard_odds(
        ODDS_DISCARD,
        hand_min=3,
        hand_max=3,
        showdown=odds_showdown,
        pot=CompiledPot(_odds.BEST, instant_pot=0),
        runout_cost=UnitCost(cpu_ns=80, bytes=64),
    ),
)
