"""Poker high: each player's best five-card poker hand out of hole cards plus a board.

Strength points up: ``7463 - rank_class`` (higher is better); the batch ``value`` is the
Cactus-Kev ``rank_class`` itself (1 best .. 7462), the figure other evaluators report.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator, Sequence

import numpy as np
import numpy.typing as npt

from evaluators import poker
from evaluators.costs import UnitCost
from evaluators.game_odds import (
    CompiledPot,
    Declarations,
    Figures,
    KnownHands,
    Matrix,
    OddsGame,
    Outcomes,
    ScoredFigures,
    Split,
)
from evaluators.game_rules import Figure, GameRules
from evaluators.inputs import Cards, Game, Options
from evaluators.kernels import _odds
from evaluators.poker import PokerDetail, classify
from evaluators.results import BatchResult, Evaluation
from evaluators.runouts import poker_boards
from evaluators.runouts import showdown as array_showdown
from evaluators.runouts.deal import draw_set_halves, set_halves, subset_sums
from evaluators.showdown import resolve_single_pot

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


def headline(evaluation: Evaluation) -> int:
    """The batch ``value`` of Poker high: the rank_class (lower is better)."""
    return evaluation.detail_as(PokerDetail).rank_class


def figures(evaluation: Evaluation) -> list[Figure]:
    return poker.figures(evaluation.detail_as(PokerDetail))


def evaluate_batch(
    hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8], options: Options
) -> BatchResult:
    """Poker high for N hands (N, hand_size) plus tables (N or 1, table_size), 255-padded.

    Same strength and value (rank_class) as ``evaluate`` hand by hand: the compiled kernel
    (``poker.compiled_batch``); ``reference_batch`` is the numpy path it is held to.
    """
    return poker.compiled_batch(hands, tables, dots=False)


def screened_batch(
    hands: npt.NDArray[np.uint8],
    table: npt.NDArray[np.uint8],
    options: Options,
    first_refused: int,
    strength: memoryview,
    value: memoryview,
) -> bool:
    """``evaluate_batch`` into ``strength`` and ``value`` (uint32, int32 cells) with each
    hand's cards checked in the same pass (``poker.compiled_screened``); False when a hand
    fails the check."""
    return poker.compiled_screened(hands, table, first_refused, strength, value, dots=False)


def reference_batch(
    hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8], options: Options
) -> BatchResult:
    """``evaluate_batch`` in numpy: the reference the compiled kernel is tested against."""
    rank_classes = poker.batch_rank_classes(hands, tables, poker.batch_key_sums(hands, tables))
    return poker.batch_results(rank_classes, rank_classes.view(np.int16))


def odds_figures(hands: Sequence[Matrix], table: Matrix, options: Options) -> Figures:
    """A fully known hand takes one gather per board (``poker_boards.rank_classes_on`` on the
    boards read once, ``poker_boards.boards``); a dealt one is scored with its table by the
    compiled 7-card kernel (``poker.compiled_batch``, the GIL released), which the tests
    hold to the numpy lookups exactly; the table's rows are made contiguous once for all
    seats (a sampled chunk's columns are contiguous, its rows not)."""
    count = array_showdown.run_outs(hands, table)
    played: poker_boards.Boards | None = None
    rows = np.ascontiguousarray(table)
    strength = np.empty((len(hands), count), dtype=np.int64)
    for seat, hand in enumerate(hands):
        if len(hand) == 1 and count > 1:
            if played is None:
                played = poker_boards.boards(table)
            classes = poker_boards.rank_classes_on(played, tuple(hand[0].tolist()))
            np.subtract(poker.STRENGTH_BASE, classes, out=strength[seat], dtype=np.int64)
        else:
            strength[seat] = poker.compiled_batch(hand, rows, dots=False).strength
    zeros = np.zeros(strength.shape, dtype=np.int64)
    return Figures(strength, zeros, zeros, zeros)


def odds_showdown(figures: Figures, declarations: Declarations) -> Split:
    """``resolve_single_pot`` over arrays (Odds): the best hand takes the pot, ties split."""
    return array_showdown.single_pot(array_showdown.best(figures.strength))


KNOWN_CHUNK = 32_768
"""Boards resolved at once when every hand is known: a chunk's dozen arrays then stay in
the processor's caches, which pays more than fewer, larger numpy calls."""


def known_hands_exact(holes: Sequence[Cards], table: Cards, unseen: Cards) -> Iterator[Outcomes]:
    """Every board of the cards still to come when every seat's hole cards are known, in
    the order of ``combinations`` rows, at most ``KNOWN_CHUNK`` at a time: the boards whose
    first card is ``first`` are that card plus each smaller board of cards above it, the
    last rows of the ``subset_sums`` one card smaller, so a chunk's keys are one add."""
    known = poker_boards.KnownHoles(holes, table, unseen)
    dealt = 5 - len(table)
    rest_keys = subset_sums(known.card_keys, dealt - 1)
    rest_keys += known.start
    rest_flush_bits = subset_sums(known.flush_bits, dealt - 1)
    keys = np.empty(KNOWN_CHUNK, dtype=np.int64)
    classes = np.empty((len(holes), KNOWN_CHUNK), dtype=np.uint16)
    for first in range(len(unseen) - dealt + 1):
        above = len(rest_keys) - math.comb(len(unseen) - first - 1, dealt - 1)
        for start in range(above, len(rest_keys), KNOWN_CHUNK):
            rest = rest_keys[start : start + KNOWN_CHUNK]
            block = np.add(rest, known.card_keys[first], out=keys[: len(rest)])
            flush_bits = functools.partial(
                _first_and_rest_flush_bits, known.flush_bits[first], rest_flush_bits, start
            )
            out = classes[:, : len(rest)]
            known.classes(block, flush_bits, out)
            yield _outcomes(out, None, len(rest))


def _first_and_rest_flush_bits(
    first: np.int64, rest: npt.NDArray[np.int64], start: int, at: npt.NDArray[np.intp]
) -> npt.NDArray[np.int64]:
    bits: npt.NDArray[np.int64] = rest[start + at] + first
    return bits


def known_hands_sampled(
    holes: Sequence[Cards], table: Cards, unseen: Cards, rng: np.random.Generator, count: int
) -> Iterator[Outcomes]:
    """``count`` boards drawn uniformly from the cards still to come, when every seat's hole
    cards are known: each a disjoint pair of uniform half-boards (``draw_set_halves``),
    whose keys and flush rank bits are tables of each half's ``combinations`` rows."""
    known = poker_boards.KnownHoles(holes, table, unseen)
    dealt = 5 - len(table)
    halves = set_halves(known.card_keys, dealt)
    halves.small[:, 1] += known.start
    flush_bits = (
        subset_sums(known.flush_bits, dealt // 2),
        subset_sums(known.flush_bits, dealt - dealt // 2),
    )
    small_rows = np.empty(KNOWN_CHUNK, dtype=np.int64)
    large_rows = np.empty(KNOWN_CHUNK, dtype=np.int64)
    keys = np.empty(KNOWN_CHUNK, dtype=np.int64)
    disjoint = np.empty(KNOWN_CHUNK, dtype=np.bool_)
    classes = np.empty((len(holes), KNOWN_CHUNK), dtype=np.uint16)
    left = count
    while left:
        draw_set_halves(rng, halves, small_rows, large_rows, keys, disjoint)
        drawn, accepted = KNOWN_CHUNK, int(np.count_nonzero(disjoint))
        if accepted > left:
            drawn, accepted = int(np.flatnonzero(disjoint)[left - 1]) + 1, left
        block = keys[:drawn]
        rows = (small_rows[:drawn], large_rows[:drawn])
        out = classes[:, :drawn]
        known.classes(block, functools.partial(_halves_flush_bits, flush_bits, rows), out)
        yield _outcomes(out, disjoint[:drawn], accepted)
        left -= accepted


def _halves_flush_bits(
    flush_bits: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]],
    rows: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]],
    at: npt.NDArray[np.intp],
) -> npt.NDArray[np.int64]:
    bits: npt.NDArray[np.int64] = flush_bits[0][rows[0][at]] + flush_bits[1][rows[1][at]]
    return bits


def _outcomes(
    classes: npt.NDArray[np.uint16], counted: npt.NDArray[np.bool_] | None, runouts: int
) -> Outcomes:
    """The pot to the lowest class of each board, ties split, over the ``counted`` boards
    (all when None); ``runouts`` of them. Heads-up, two comparisons say it all."""
    if len(classes) == 2:
        first, second = classes
        below = first < second
        tied = first == second
        if counted is not None:
            below &= counted
            tied &= counted
        wins, ties = np.count_nonzero(below), np.count_nonzero(tied)
        alone = np.array([wins, runouts - wins - ties])
        return Outcomes(runouts, alone + ties, alone + ties / 2, alone + ties / 4)
    winners = classes == array_showdown.across(np.minimum, classes)
    if counted is not None:
        winners &= counted
    sharing = array_showdown.across(np.add, winners.view(np.int8))
    alone = np.count_nonzero(winners & (sharing == 1), axis=1)
    split = np.flatnonzero(sharing > 1)
    fractions = winners[:, split] / sharing[split]
    return Outcomes(
        runouts,
        np.count_nonzero(winners, axis=1),
        alone + fractions.sum(axis=1),
        alone + np.square(fractions).sum(axis=1),
    )


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
    screened_batch=screened_batch,
    reference_batch=reference_batch,
    resolve=resolve_single_pot,
    headline=headline,
    figures=figures,
    detail=PokerDetail,
    aliases=("poker",),
    odds=OddsGame(
        hand_min=1,
        hand_max=2,
        figures=odds_figures,
        showdown=odds_showdown,
        pot=CompiledPot(_odds.BEST),
        scored=ScoredFigures(_odds.POKER, poker.odds_tables),
        runout_cost=UnitCost(cpu_ns=40, bytes=48),
        known_hands=KnownHands(known_hands_exact, known_hands_sampled),
    ),
)
