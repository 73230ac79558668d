"""The vectorised showdown's shared steps: what several games' pot rules are made of.

Odds resolves many run-outs at once. Every figure is an array of S seats x R run-outs
(seat-major: a step across seats is an element-wise operation on contiguous rows, far
cheaper than a reduction along a short axis), and a pot rule answers each seat's fraction
of the whole pot from each of the game's pots per run-out (S x P x R) plus whether the
run-out is a redeal. These are the array forms of
``showdown.py``'s shared steps (best-of with ties, splitting a share, the discard games'
instant win) and of the discard rule's ``out_after``; per-game rules live beside their
deal specs in ``odds_games``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from evaluators.cards import DECK_SIZE

Matrix = npt.NDArray[np.uint8]
Figure = npt.NDArray[np.int64]
Mask = npt.NDArray[np.bool_]
Fractions = npt.NDArray[np.float64]
ArrayT = TypeVar("ArrayT", bound=npt.NDArray[np.generic])

_RANK_BIT = np.zeros(256, dtype=np.uint16)
_RANK_BIT[:DECK_SIZE] = np.left_shift(1, np.arange(DECK_SIZE) >> 2)
_RANK_BIT.flags.writeable = False
"""Card id -> ``1 << rank``; 0 for the padding byte and anything outside the deck."""


@dataclass(frozen=True)
class Figures:
    """What the pot rules read, each (S, R): higher ``strength``, ``low_strength`` and
    ``value`` are better (as in ``Evaluation``); ``out_after`` is the discard rule's (0 if
    the hand never ran out, always 0 outside the discard games)."""

    strength: Figure
    low_strength: Figure
    value: Figure
    out_after: Figure


@dataclass(frozen=True)
class Split:
    """Per seat, pot (in the order of the game's ``pots``) and run-out, the fraction of
    the whole pot (S, P, R); per run-out whether it is a redeal (all zeros)."""

    fractions: Fractions
    redeal: Mask


def rank_mask(cards: Matrix) -> npt.NDArray[np.uint16]:
    """Per row, a bit per rank its cards show (255 padding shows none)."""
    mask = np.zeros(cards.shape[0], dtype=np.uint16)
    for column in range(cards.shape[1]):
        mask |= _RANK_BIT[cards[:, column]]
    return mask


def out_after(hands: Sequence[Matrix], tables: Matrix) -> Figure:
    """The discard rule's ``out_after`` per seat and row (S, R): how many table cards
    (turned in column order) it took until every rank of the hand had shown, 0 if that
    never happened.

    ``hands`` one (R, h) per seat and ``tables`` (R or 1, t), 255-padded at the end of a row.
    """
    count = max(tables.shape[0], *(hand.shape[0] for hand in hands))
    shown = np.zeros(tables.shape[0], dtype=np.uint16)
    unshown_after = []
    for column in range(tables.shape[1]):
        shown = shown | _RANK_BIT[tables[:, column]]
        unshown_after.append(~shown)
    outs = np.empty((len(hands), count), dtype=np.int64)
    for seat, hand in enumerate(hands):
        waiting = rank_mask(hand)
        turned = np.ones(count, dtype=np.int8)
        for unshown in unshown_after:
            turned += (waiting & unshown) != 0
        outs[seat] = turned
        if unshown_after:
            outs[seat] *= (waiting & unshown_after[-1]) == 0
        else:
            outs[seat] *= waiting == 0
    return outs


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


def first_out(out: Figure) -> Mask:
    """The instant winners: seats with the run-out's smallest non-zero ``out_after``."""
    ran_out = out > 0
    earliest = across(np.minimum, np.where(ran_out, out, np.iinfo(np.int64).max))
    result: Mask = ran_out & (out == earliest)
    return result


def instant_win_first(split: Split, out: Figure, whole: int) -> Split:
    """A discard game's pot rule with its instant win put first: where any seat ran out,
    the first to do so take the whole pot (pot index ``whole``) and nothing else counts."""
    instant = first_out(out)
    any_instant = across(np.logical_or, instant)
    fractions = np.where(any_instant, 0.0, split.fractions)
    fractions[:, whole] += share_out(instant, 1.0)
    return Split(fractions, split.redeal & ~any_instant)


def no_redeal(count: int) -> Mask:
    return np.zeros(count, dtype=np.bool_)
