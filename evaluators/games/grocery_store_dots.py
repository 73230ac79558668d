"""Grocery Store Dots: seven-card stud, the pot split between the best poker hand and the
most dots.

``strength`` is the poker hand's (higher is better, ``poker.strength_of``), never the dots:
the dots half is decided on ``detail.dots`` (the batch ``value``), counted over every card
the player holds, not over the best five.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from evaluators import poker
from evaluators.costs import UnitCost
from evaluators.game_odds import (
    CompiledPot,
    Declarations,
    Figures,
    Matrix,
    OddsGame,
    ScoredFigures,
    Split,
)
from evaluators.game_rules import Figure, GameRules, Results
from evaluators.inputs import Cards, Game, Options, ShowdownRequest
from evaluators.kernels import _odds
from evaluators.results import BatchResult, Detail, Evaluation, Resolution
from evaluators.runouts import showdown as array_showdown
from evaluators.showdown import split_pot, strength
from evaluators.tables.card_keys import DOTS_BY_RANK, DOTS_MASK, DOTS_SHIFT


@dataclass(frozen=True, slots=True)
class DotsDetail(Detail):
    WIRE: ClassVar[str] = "dots"

    dots: int
    poker: poker.PokerDetail


SUMMARY = (
    "Grocery Store Dots: seven-card stud in which the pot is split in two. One half goes to "
    "the best five-card poker hand out of each player's cards, the other to the player whose "
    "cards, all of them and not just a best five, show the most dots: aces, fives, sevens and "
    "nines count 1, twos, eights and tens 2, threes 3, and fours, sixes and picture cards 0. "
    "Ties split each half, and one player may win both."
)


def count_dots(cards: Cards) -> int:
    """Dots of all the cards (ids outside the deck count nothing)."""
    return sum(DOTS_BY_RANK[card >> 2] for card in cards if card < 52)


def evaluate(
    hand: Cards, table: Cards, table_spreads: tuple[Cards, ...], options: Options
) -> Evaluation:
    """Poker hand (strength, higher is better) and dots of the 5-7 cards of hand and table."""
    cards = hand + table
    poker_detail = poker.best_hand(cards)
    count = count_dots(cards)
    plural = "" if count == 1 else "s"
    return Evaluation(
        strength=poker.strength_of(poker_detail.rank_class),
        description=(
            f"{poker.describe(poker_detail.category, poker_detail.best_five)}; {count} dot{plural}"
        ),
        detail=DotsDetail(dots=count, poker=poker_detail),
    )


def evaluate_batch(
    hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8], options: Options
) -> BatchResult:
    """Poker strength and dots (``value``) per hand, 255-padded; equal to ``evaluate``:
    the compiled kernel (``poker.compiled_batch``); ``reference_batch`` is the numpy path
    it is held to."""
    return poker.compiled_batch(hands, tables, dots=True)


def screened_batch(
    hands: npt.NDArray[np.uint8],
    table: npt.NDArray[np.uint8],
    options: Options,
    first_refused: int,
    strength: memoryview,
    value: memoryview,
) -> bool:
    """``evaluate_batch`` into ``strength`` and ``value`` (uint32 and int32 cells: the
    strength and the dots) with each hand's cards checked in the same pass
    (``poker.compiled_screened``); False when a hand fails the check."""
    return poker.compiled_screened(hands, table, first_refused, strength, value, dots=True)


def reference_batch(
    hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8], options: Options
) -> BatchResult:
    """``evaluate_batch`` in numpy, the kernel's reference: the dots ride in the same
    per-card key sums as the poker lookup (card_keys layout)."""
    key_sums = poker.batch_key_sums(hands, tables)
    rank_classes = poker.batch_rank_classes(hands, tables, key_sums)
    key_sums >>= np.uint64(DOTS_SHIFT)
    key_sums &= np.uint64(DOTS_MASK)
    return poker.batch_results(rank_classes, key_sums.view(np.int64))


def dots(evaluation: Evaluation) -> int:
    """The dots of all the player's cards: more is better (the batch ``value``)."""
    return evaluation.detail_as(DotsDetail).dots


def _poker_why(evaluation: Evaluation) -> str:
    """The poker hand alone (the description also counts the dots)."""
    detail = evaluation.detail_as(DotsDetail).poker
    return poker.describe(detail.category, detail.best_five)


def _dots_why(evaluation: Evaluation) -> str:
    count = dots(evaluation)
    return "1 dot" if count == 1 else f"{count} dots"


def resolve(request: ShowdownRequest, results: Results) -> Resolution:
    """The best poker hand takes the ``high`` half and the most dots (all of a player's
    cards) the ``dots`` half; ties split a half, one player may win both."""
    return split_pot(results, (("high", strength, _poker_why), ("dots", dots, _dots_why)))


def figures(evaluation: Evaluation) -> list[Figure]:
    detail = evaluation.detail_as(DotsDetail)
    return [("dots", str(detail.dots), True), *poker.figures(detail.poker)]


def odds_figures(hands: Sequence[Matrix], table: Matrix, options: Options) -> Figures:
    return array_showdown.batch_figures(evaluate_batch, hands, table, options)


def odds_showdown(figures: Figures, declarations: Declarations) -> Split:
    """``resolve`` over arrays (Odds): the best poker hand takes the ``high`` half, the
    most dots the ``dots`` half; ties split a half, one seat may win both."""
    halves = array_showdown.split_pots(
        [(array_showdown.best(figures.strength), 0.5), (array_showdown.best(figures.value), 0.5)]
    )
    return Split(halves, array_showdown.no_redeal(halves.shape[2]))


RULES = GameRules(
    game=Game.GROCERY_STORE_DOTS,
    name="Grocery Store Dots",
    number=0,
    summary=SUMMARY,
    hand_min=5,
    hand_max=7,
    table_min=0,
    table_max=0,
    evaluate=evaluate,
    evaluate_batch=evaluate_batch,
    screened_batch=screened_batch,
    reference_batch=reference_batch,
    resolve=resolve,
    headline=dots,
    figures=figures,
    detail=DotsDetail,
    aliases=("dots",),
    pots=("high", "dots"),
    odds=OddsGame(
        hand_min=7,
        hand_max=7,
        figures=odds_figures,
        showdown=odds_showdown,
        pot=CompiledPot(_odds.HALVES, second="value"),
        scored=ScoredFigures(_odds.DOTS, poker.odds_tables),
        runout_cost=UnitCost(cpu_ns=80, bytes=80),
    ),
)
