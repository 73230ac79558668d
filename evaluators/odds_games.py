"""What each game deals for Odds, how its completed hands are scored in bulk, and its pot
rule over arrays (RULES.md "Odds" and each game's Showdown).

One ``OddsGame`` per game, each section standing alone (it reads only the shared steps
of ``odds_shared`` and the game's own batch evaluator), so that each can move into its
game's module unchanged. A figures function takes every seat's completed hand, (R, h) or
(1, h) when the seat's hand is fully known, and the table in the order turned, (R, t) or
(1, t); a pot rule takes those figures and the seats' Flop-A declarations and returns a
``Split`` over the game's ``pots``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from evaluators import poker
from evaluators.game_rules import BatchEvaluator
from evaluators.games import (
    flop_a,
    florida_bingo,
    grocery_store_dots,
    high_card,
    numbers,
    three_thirty_three,
)
from evaluators.inputs import Declaration, Game, Options
from evaluators.odds_shared import (
    Figure,
    Figures,
    Matrix,
    Split,
    across,
    best,
    instant_win_first,
    no_redeal,
    out_after,
    share_out,
)
from evaluators.tables.card_keys import SUM_START

Declarations = Sequence[Declaration | None]
FiguresOf = Callable[[Sequence[Matrix], Matrix, Options], Figures]
PotRule = Callable[[Figures, Declarations], Split]


@dataclass(frozen=True)
class OddsGame:
    """One game's deal and pot rule for Odds.

    ``hand_min``-``hand_max``: the cards a seat ends with (known + unknown);
    ``table_size``: the full table; ``table_pairs``: whether a new table card may share a
    rank with the table (False in the discard games: the dealer replaces it, so each new
    card is uniform over the unseen cards of ranks not yet on the table).
    """

    hand_min: int
    hand_max: int
    table_size: int
    table_pairs: bool
    pots: tuple[str, ...]
    figures: FiguresOf
    showdown: PotRule


def _rows(cards: Matrix, count: int) -> Matrix:
    return np.broadcast_to(cards, (count, cards.shape[1]))


def _run_outs(hands: Sequence[Matrix], table: Matrix) -> int:
    return max([int(table.shape[0]), *(int(hand.shape[0]) for hand in hands)])


def _batch_figures(
    evaluate: BatchEvaluator, hands: Sequence[Matrix], table: Matrix, options: Options
) -> tuple[Figure, Figure, Figure]:
    """(strength, low_strength, value), each (S, R), from a game's batch evaluator."""
    count = _run_outs(hands, table)
    results = [evaluate(_rows(hand, count), table, options) for hand in hands]
    return (
        np.stack([r.strength for r in results]).view(np.int64),
        np.stack([r.low_strength for r in results]).view(np.int64),
        np.stack([r.value for r in results]),
    )


def _discard_figures(
    evaluate: BatchEvaluator, hands: Sequence[Matrix], table: Matrix, options: Options
) -> Figures:
    strength, low_strength, value = _batch_figures(evaluate, hands, table, options)
    count = strength.shape[1]
    outs = out_after([_rows(hand, count) for hand in hands], table)
    return Figures(strength, low_strength, value, outs)


# --- Numbers and Florida Bingo ----------------------------------------------------------

_HIGH_LOW_POTS = ("high", "low", "whole")


def high_low_showdown(figures: Figures, declarations: Declarations) -> Split:
    """Numbers, Florida Bingo: highest high and lowest low split the pot (ties split a
    half); an instant win first takes the whole pot."""
    halves = np.stack(
        [
            share_out(best(figures.strength), 0.5),
            share_out(best(figures.low_strength), 0.5),
            np.zeros(figures.strength.shape),
        ],
        axis=1,
    )
    return instant_win_first(Split(halves, no_redeal(halves.shape[2])), figures.out_after, 2)


def numbers_figures(hands: Sequence[Matrix], table: Matrix, options: Options) -> Figures:
    return _discard_figures(numbers.evaluate_batch, hands, table, options)


def florida_bingo_figures(hands: Sequence[Matrix], table: Matrix, options: Options) -> Figures:
    return _discard_figures(florida_bingo.evaluate_batch, hands, table, options)


NUMBERS = OddsGame(5, 5, 7, False, _HIGH_LOW_POTS, numbers_figures, high_low_showdown)
FLORIDA_BINGO = OddsGame(5, 5, 7, False, _HIGH_LOW_POTS, florida_bingo_figures, high_low_showdown)


# --- Flop-A -----------------------------------------------------------------------------


def flop_a_figures(hands: Sequence[Matrix], table: Matrix, options: Options) -> Figures:
    return _discard_figures(flop_a.evaluate_batch, hands, table, options)


def flop_a_showdown(figures: Figures, declarations: Declarations) -> Split:
    """Flop-A: halves by declaration; every BOTH declarer who fails to win (a tie counts)
    both halves is removed at once and the halves decided again; with nobody eligible for
    one half the other takes the whole pot, for neither a redeal. An instant win first."""
    goes_high = np.array([[d in (Declaration.HIGH, Declaration.BOTH)] for d in declarations])
    goes_low = np.array([[d in (Declaration.LOW, Declaration.BOTH)] for d in declarations])
    both = goes_high & goes_low
    still_in = np.ones(figures.strength.shape, dtype=np.bool_)
    while True:
        high = best(figures.strength, still_in & goes_high)
        low = best(figures.low_strength, still_in & goes_low)
        failing = still_in & both & ~(high & low)
        if not failing.any():
            break
        still_in &= ~failing
    has_high = across(np.logical_or, high)
    has_low = across(np.logical_or, low)
    split_pot = has_high & has_low
    fractions = np.stack(
        [
            share_out(high, 0.5) * split_pot,
            share_out(low, 0.5) * split_pot,
            share_out(high | low, 1.0) * (has_high ^ has_low),
        ],
        axis=1,
    )
    redeal = ~(has_high | has_low)
    return instant_win_first(Split(fractions, redeal), figures.out_after, 2)


FLOP_A = OddsGame(3, 3, 5, False, _HIGH_LOW_POTS, flop_a_figures, flop_a_showdown)


# --- Three Hundred Thirty Three ---------------------------------------------------------


def three_thirty_three_figures(hands: Sequence[Matrix], table: Matrix, options: Options) -> Figures:
    return _discard_figures(three_thirty_three.evaluate_batch, hands, table, options)


def three_thirty_three_showdown(figures: Figures, declarations: Declarations) -> Split:
    """Three Hundred Thirty Three: the best blackjack strength (bust hands last) takes the
    whole pot, ties split; an instant win first."""
    whole = share_out(best(figures.strength), 1.0)[:, None]
    return instant_win_first(Split(whole, no_redeal(whole.shape[2])), figures.out_after, 0)


THREE_THIRTY_THREE = OddsGame(
    3, 3, 4, False, ("whole",), three_thirty_three_figures, three_thirty_three_showdown
)


# --- High Card --------------------------------------------------------------------------


def high_card_figures(hands: Sequence[Matrix], table: Matrix, options: Options) -> Figures:
    strength, low_strength, value = _batch_figures(high_card.evaluate_batch, hands, table, options)
    return Figures(strength, low_strength, value, np.zeros(strength.shape, dtype=np.int64))


def high_card_showdown(figures: Figures, declarations: Declarations) -> Split:
    """High Card: the unique most checks survived takes the pot; a tie at the top splits
    at 5 checks and is a redeal below."""
    survived = figures.strength
    top = best(survived)
    wins = (across(np.add, top.view(np.int8)) == 1) | (
        across(np.maximum, survived) == high_card.CHECKS
    )
    whole = share_out(top, 1.0) * wins
    return Split(whole[:, None], ~wins)


HIGH_CARD = OddsGame(5, 5, 5, True, ("whole",), high_card_figures, high_card_showdown)


# --- Grocery Store Dots -----------------------------------------------------------------


def dots_figures(hands: Sequence[Matrix], table: Matrix, options: Options) -> Figures:
    strength, low_strength, value = _batch_figures(
        grocery_store_dots.evaluate_batch, hands, table, options
    )
    return Figures(strength, low_strength, value, np.zeros(strength.shape, dtype=np.int64))


def dots_showdown(figures: Figures, declarations: Declarations) -> Split:
    """Grocery Store Dots: the best poker hand takes the ``high`` half, the most dots the
    ``dots`` half; ties split a half, one seat may win both."""
    halves = np.stack(
        [share_out(best(figures.strength), 0.5), share_out(best(figures.value), 0.5)], axis=1
    )
    return Split(halves, no_redeal(halves.shape[2]))


GROCERY_STORE_DOTS = OddsGame(7, 7, 0, True, ("high", "dots"), dots_figures, dots_showdown)


# --- Poker high -------------------------------------------------------------------------


def poker_high_figures(hands: Sequence[Matrix], table: Matrix, options: Options) -> Figures:
    """The board's key sums once per run-out, each seat's hole cards added to them (a
    fully known hand adds one number): the 7-card lookups without re-adding the board."""
    count = _run_outs(hands, table)
    board = poker.batch_key_sums(table, np.zeros((1, 0), dtype=np.uint8))
    strengths = []
    for hand in hands:
        hole = poker.batch_key_sums(hand, np.zeros((1, 0), dtype=np.uint8))
        key_sums = np.broadcast_to(board + (hole - np.uint64(SUM_START)), (count,)).copy()
        classes = poker.batch_rank_classes(_rows(hand, count), _rows(table, count), key_sums)
        strengths.append(np.subtract(poker.STRENGTH_BASE, classes, dtype=np.int64))
    strength = np.stack(strengths)
    zeros = np.zeros(strength.shape, dtype=np.int64)
    return Figures(strength, zeros, zeros, zeros)


def poker_high_showdown(figures: Figures, declarations: Declarations) -> Split:
    """Poker high: the best hand takes the whole pot, ties split."""
    whole = share_out(best(figures.strength), 1.0)[:, None]
    return Split(whole, no_redeal(whole.shape[2]))


POKER_HIGH = OddsGame(1, 2, 5, True, ("whole",), poker_high_figures, poker_high_showdown)


ODDS_GAMES: dict[Game, OddsGame] = {
    Game.NUMBERS: NUMBERS,
    Game.FLORIDA_BINGO: FLORIDA_BINGO,
    Game.FLOP_A: FLOP_A,
    Game.THREE_THIRTY_THREE: THREE_THIRTY_THREE,
    Game.HIGH_CARD: HIGH_CARD,
    Game.GROCERY_STORE_DOTS: GROCERY_STORE_DOTS,
    Game.POKER_HIGH: POKER_HIGH,
}
"""The games Odds serves; the others change hands by the players' choices."""
