"""The vectorised showdown's shared steps: what several games' Odds rules are made of.

Odds resolves many run-outs at once, as arrays of S seats x R run-outs (``rules``).
These are the array forms of ``showdown.py``'s shared steps (best-of with ties, splitting
a share, the discard games' instant win) and the bulk scoring of completed hands by a
game's batch evaluator; each game's own pot rule lives in its game module, and the
discard rule's ``out_after`` over arrays in ``discard``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from evaluators.costs import UnitCost
from evaluators.game_odds import (
    CompiledPot,
    DiscardScore,
    Figure,
    Figures,
    FiguresOf,
    Fractions,
    Mask,
    Matrix,
    OddsGame,
    PotRule,
    Split,
    as_figure,
)
from evaluators.game_rules import BatchEvaluator
from evaluators.inputs import Options
from evaluators.kernels import _odds

ArrayT = TypeVar("ArrayT", bound=npt.NDArray[np.generic])


def rows(cards: Matrix, count: int) -> Matrix:
    """``cards`` as ``count`` rows: a (1, h) fully known hand repeated without copying."""
    return np.broadcast_to(cards, (count, cards.shape[1]))


def run_outs(hands: Sequence[Matrix], table: Matrix) -> int:
    """How many run-outs a figures call scores (a fully known hand or table has one row)."""
    return max([int(table.shape[0]), *(int(hand.shape[0]) for hand in hands)])


def batch_figures(
    evaluate: BatchEvaluator, hands: Sequence[Matrix], table: Matrix, options: Options
) -> Figures:
    """Every seat's figures from a game's batch evaluator (``out_after`` all 0)."""
    count = run_outs(hands, table)
    results = [evaluate(rows(hand, count), table, options) for hand in hands]
    strength = as_figure(np.stack([r.strength for r in results]))
    return Figures(
        strength,
        as_figure(np.stack([r.low_strength for r in results])),
        as_figure(np.stack([r.value for r in results])),
        np.zeros(strength.shape, dtype=np.int64),
    )


def in_place(cards: Matrix) -> tuple[Matrix, tuple[int, int, int]]:
    """``cards`` (R, k), or (1, k) for one row repeated, as a C-contiguous buffer and the
    (run, card, cards) strides a kernel reads it at, without a copy where the matrix is a
    block of rows of another (a sampled chunk's run-outs are position-major) or its own."""
    count, width = cards.shape
    if count == 1:
        return np.ascontiguousarray(cards[0]), (0, 1, width)
    if cards.flags.c_contiguous:
        return cards, (width, 1, width)
    if cards.T.flags.c_contiguous:
        return cards.T, (1, count, width)
    return np.ascontiguousarray(cards), (width, 1, width)


def discard_odds(
    discard: DiscardScore,
    *,
    hand_min: int,
    hand_max: int,
    showdown: PotRule,
    pot: CompiledPot,
    runout_cost: UnitCost,
) -> OddsGame:
    """A discard game's Odds rules: its figures made by the discard rule from ``discard``,
    per seat (``discard_figures``) and per chunk in the compiled tally, so the game states
    its discard score once."""
    return OddsGame(
        hand_min=hand_min,
        hand_max=hand_max,
        figures=discard_figures(discard),
        discard=discard,
        showdown=showdown,
        pot=pot,
        runout_cost=runout_cost,
    )


def discard_figures(discard: DiscardScore) -> FiguresOf:
    """A discard game's Odds figures by the compiled discard rule (``_odds.discard_seat``,
    the GIL released, the cards read in place): ``score`` of each seat's kept cards'
    ``values`` summed, and ``out_after``; equal to ``discard.odds_figures``, the numpy
    reference the tests hold it to."""
    values, score = discard.values, discard.score

    def figures(hands: Sequence[Matrix], table: Matrix, options: Options) -> Figures:
        count = run_outs(hands, table)
        kept = np.empty((len(hands), count), dtype=np.uint16)
        outs = np.empty((len(hands), count), dtype=np.int64)
        table_cards, table_strides = in_place(table)
        for seat, hand in enumerate(hands):
            hand_cards, hand_strides = in_place(hand)
            _odds.discard_seat(
                values, hand_cards, hand_strides, table_cards, table_strides, count,
                kept[seat], outs[seat],
            )  # fmt: skip
        result = score(kept.reshape(-1))
        return Figures(
            as_figure(result.strength).reshape(kept.shape),
            as_figure(result.low_strength).reshape(kept.shape),
            as_figure(result.value).reshape(kept.shape),
            outs,
        )

    return figures


def across(operation: np.ufunc, seats: ArrayT) -> ArrayT:
    """``operation`` folded over the seats (axis 0): with a handful of seats, a few
    element-wise passes over contiguous rows beat numpy's reduction along a short axis."""
    result: ArrayT = seats[0]
    for row in seats[1:]:
        result = operation(result, row)
    return result


def best(key: Figure, eligible: Mask | None = None) -> Mask:
    """Seats whose ``key`` is the largest of the run-out (ties: several), among
    ``eligible`` seats when given (none eligible: none chosen). Keys are non-negative."""
    if eligible is None:
        result: Mask = key == across(np.maximum, key)
        return result
    masked = np.where(eligible, key, -1)
    chosen: Mask = eligible & (masked == across(np.maximum, masked))
    return chosen


def share_out(winners: Mask, share: float) -> Fractions:
    """``share`` of the whole pot split equally among each run-out's ``winners``."""
    count = across(np.add, winners.view(np.int8))
    result: Fractions = winners * (share / np.maximum(count, 1))
    return result


def split_pots(pots: Sequence[tuple[Mask, float | Fractions]]) -> Fractions:
    """Per pot (winners, share): ``share_out`` of each, as one (S, P, R) array written in
    place (no stacking copy)."""
    seats, count = pots[0][0].shape
    fractions: Fractions = np.empty((seats, len(pots), count))
    for pot, (winners, share) in enumerate(pots):
        tied = across(np.add, winners.view(np.int8))
        np.multiply(winners, share / np.maximum(tied, 1), out=fractions[:, pot])
    return fractions


def first_out(out: Figure) -> Mask:
    """The instant winners: seats with the run-out's smallest non-zero ``out_after``.

    ``out_after`` counts table cards (below 255): as bytes less one, a seat that never
    ran out wraps to 255, above every seat that did.
    """
    turns = (out - 1).astype(np.uint8)
    earliest = across(np.minimum, turns)
    result: Mask = (turns == earliest) & (turns != 255)
    return result


def instant_wins(out: Figure) -> tuple[Mask, Fractions]:
    """A discard game's instant win, which comes before its pot rule: the instant winners
    (``first_out``), who take the whole pot, and per run-out the factor on every other
    award (1 where nobody ran out, else 0)."""
    instant = first_out(out)
    rest: Fractions = np.where(across(np.logical_or, instant), 0.0, 1.0)
    return instant, rest


def single_pot(winners: Mask) -> Split:
    """The whole pot split among each run-out's ``winners``, never a redeal."""
    whole = share_out(winners, 1.0)[:, None]
    return Split(whole, no_redeal(whole.shape[2]))


def no_redeal(count: int) -> Mask:
    return np.zeros(count, dtype=np.bool_)
