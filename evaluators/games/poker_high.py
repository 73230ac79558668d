"""Poker high: each player's best five-card poker hand out of hole cards plus a board.

Strength points up: ``7463 - rank_class`` (higher is better); the batch ``value`` is the
Cactus-Kev ``rank_class`` itself (1 best .. 7462), the figure other evaluators report.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from evaluators import odds_shared, poker
from evaluators.game_rules import Figure, GameRules
from evaluators.inputs import Cards, Game, Options
from evaluators.odds_rules import Declarations, Figures, Matrix, OddsGame, Split
from evaluators.poker import classify
from evaluators.results import BatchResult, Evaluation, PokerDetail
from evaluators.showdown import resolve_single_pot
from evaluators.tables.card_keys import SUM_START

SUMMARY = (
    "Poker high: each player's best five-card poker hand out of five to seven cards (their "
    "hole cards plus any board) wins; straight flush, four of a kind, full house, flush, "
    "straight, three of a kind, two pair, one pair, high card. A-2-3-4-5 is the lowest "
    "straight and straights do not wrap around. Hands are also given their Cactus-Kev class, "
    "1 for a royal flush to 7462 for 7-5-4-3-2, so they can be checked against other evaluators."
)


def evaluate(
    hand: Cards, table: Cards, table_spreads: tuple[Cards, ...], options: Options
) -> Evaluation:
    """Best five of hand plus table (5-7 cards together); strength higher is better."""
    rank_class, shape, five = classify(hand + table)
    return Evaluation(
        shape.strength, shape.description, PokerDetail(shape.category, rank_class, five)
    )


def _detail(evaluation: Evaluation) -> PokerDetail:
    if not isinstance(evaluation.detail, PokerDetail):
        raise TypeError("not a Poker high evaluation")
    return evaluation.detail


def headline(evaluation: Evaluation) -> int:
    """The batch ``value`` of Poker high: the rank_class (lower is better)."""
    return _detail(evaluation).rank_class


def figures(evaluation: Evaluation) -> list[Figure]:
    return poker.figures(_detail(evaluation))


def evaluate_batch(
    hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8], options: Options
) -> BatchResult:
    """Poker high for N hands (N, hand_size) plus tables (N or 1, table_size), 255-padded.

    Same strength and value (rank_class) as ``evaluate`` hand by hand.
    """
    rank_classes = poker.batch_rank_classes(hands, tables, poker.batch_key_sums(hands, tables))
    return poker.batch_results(rank_classes, rank_classes.astype(np.int64))


def odds_figures(hands: Sequence[Matrix], table: Matrix, options: Options) -> Figures:
    """The boards read once per run-out (``poker.boards``); a fully known hand then takes
    one gather per board (``poker.rank_classes_on``), a dealt one adds its hole cards'
    keys to the board's: the 7-card lookups without re-reading the board."""
    count = odds_shared.run_outs(hands, table)
    played = poker.boards(table)
    strength = np.empty((len(hands), count), dtype=np.int64)
    for seat, hand in enumerate(hands):
        if len(hand) == 1:
            classes = poker.rank_classes_on(played, tuple(hand[0].tolist()))
        else:
            hole = poker.batch_key_sums(hand, np.zeros((1, 0), dtype=np.uint8))
            key_sums = np.broadcast_to(played.key_sums + (hole - np.uint64(SUM_START)), (count,))
            classes = poker.batch_rank_classes(
                hand, odds_shared.rows(table, count), key_sums.copy()
            )
        np.subtract(poker.STRENGTH_BASE, classes, out=strength[seat], dtype=np.int64)
    zeros = np.zeros(strength.shape, dtype=np.int64)
    return Figures(strength, zeros, zeros, zeros)


def odds_showdown(figures: Figures, declarations: Declarations) -> Split:
    """``resolve_single_pot`` over arrays (Odds): the best hand takes the pot, ties split."""
    return odds_shared.single_pot(odds_shared.best(figures.strength))


RULES = GameRules(
    game=Game.POKER_HIGH,
    name="Poker high",
    number=0,
    summary=SUMMARY,
    hand_min=1,
    hand_max=7,
    table_min=0,
    table_max=5,
    cards_min=5,
    cards_max=7,
    evaluate=evaluate,
    evaluate_batch=evaluate_batch,
    resolve=resolve_single_pot,
    headline=headline,
    figures=figures,
    aliases=("poker",),
    odds=OddsGame(
        hand_min=1,
        hand_max=2,
        table_size=5,
        table_pairs=True,
        figures=odds_figures,
        showdown=odds_showdown,
    ),
)
