"""Grocery Store Dots: seven-card stud, the pot split between the best poker hand and the most dots.

``strength`` is the poker hand's (higher is better, ``poker.strength_of``), never the dots:
the dots half is decided on ``detail.dots`` (the batch ``value``), counted over every card
the player holds, not over the best five.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from evaluators import poker
from evaluators.inputs import Cards, Options
from evaluators.results import BatchResult, DotsDetail, Evaluation
from evaluators.tables.card_keys import DOTS_BY_RANK, DOTS_MASK, DOTS_SHIFT

SUMMARY = (
    "Grocery Store Dots: seven-card stud in which the pot is split in two. One half goes to "
    "the best five-card poker hand out of each player's cards, the other to the player whose "
    "cards, all of them and not just a best five, show the most dots: aces, fives, sevens and "
    "nines count 1, twos, eights and tens 2, threes 3, and fours, sixes and picture cards 0. "
    "Ties split each half, and one player may win both."
)

__all__ = [
    "DOTS_BY_RANK",
    "SUMMARY",
    "count_dots",
    "evaluate_dots",
    "evaluate_dots_batch",
    "headline",
]


def count_dots(cards: Cards) -> int:
    """Dots of all the cards (ids outside the deck count nothing)."""
    return sum(DOTS_BY_RANK[card >> 2] for card in cards if card < 52)


def evaluate_dots(
    hand: Cards, table: Cards, table_spreads: tuple[Cards, ...], options: Options
) -> Evaluation:
    """Poker hand (strength, higher is better) and dots of the 5-7 cards of hand and table."""
    cards = hand + table
    poker_detail = poker.best_hand(cards)
    dots = count_dots(cards)
    plural = "" if dots == 1 else "s"
    return Evaluation(
        strength=poker.strength_of(poker_detail.rank_class),
        description=(
            f"{poker.describe(poker_detail.category, poker_detail.best_five)}; {dots} dot{plural}"
        ),
        detail=DotsDetail(dots=dots, poker=poker_detail),
    )


def headline(evaluation: Evaluation) -> int:
    """The batch ``value`` of Grocery Store Dots: the dots count."""
    if not isinstance(evaluation.detail, DotsDetail):
        raise TypeError("not a Grocery Store Dots evaluation")
    return evaluation.detail.dots


def evaluate_dots_batch(
    hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8], options: Options
) -> BatchResult:
    """Poker strength and dots (``value``) per hand, 255-padded; equal to ``evaluate_dots``.

    The dots ride in the same per-card key sums as the poker lookup (card_keys layout).
    """
    key_sums = poker.batch_key_sums(hands, tables)
    rank_classes = poker.batch_rank_classes(hands, tables, key_sums)
    key_sums >>= np.uint64(DOTS_SHIFT)
    key_sums &= np.uint64(DOTS_MASK)
    return poker.batch_results(rank_classes, key_sums.astype(np.int64))
