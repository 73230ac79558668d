"""Each size and deck rule a request must keep, stated once, with its sentence for people.

The predicates take plain ints or numpy arrays alike (element-wise ``&``), so the single
path (``validation``), the batch path (``batch``, vectorised) and the dealer (``deal``)
read the very same statement of a game's sizes; the sentences are the ones every path
sends back. The bounds themselves are data in each game's ``GameRules``.
"""

from __future__ import annotations

from typing import Any, overload

import numpy as np
import numpy.typing as npt

from evaluators.game_rules import GameRules

Counts = npt.NDArray[np.integer[Any]]
Mask = npt.NDArray[np.bool_]

PAIRING_REMEDY = "the dealer replaces a pairing card"
"""Ends every paired-table sentence: docs/rules.md's "replace the last one" is the dealer's job."""


@overload
def within(count: int, low: int, high: int) -> bool: ...
@overload
def within(count: Counts, low: int, high: int) -> Mask: ...
def within(count: int | Counts, low: int, high: int) -> bool | Mask:
    """``low <= count <= high``, for an int or element-wise for an array."""
    return (low <= count) & (count <= high)


@overload
def sizes_fit(rules: GameRules, hand: int, table: int) -> bool: ...
@overload
def sizes_fit(rules: GameRules, hand: Counts, table: Counts) -> Mask: ...
def sizes_fit(rules: GameRules, hand: int | Counts, table: int | Counts) -> bool | Mask:
    """The game's hand size, table size and hand + table together (Poker high: 5-7), for
    counts or element-wise for arrays of counts."""
    return (
        within(hand, rules.hand_min, rules.hand_max)
        & within(table, rules.table_min, rules.table_max)
        & within(hand + table, rules.cards_min, rules.cards_max)
    )


def size_range(low: int, high: int) -> str:
    """``5`` or ``1-5``: the sizes a game takes, as every message writes them."""
    return f"{low}" if low == high else f"{low}-{high}"


def card_count(cards: int) -> str:
    return "1 card" if cards == 1 else f"{cards} cards"


def size_message(what: str, count: int, low: int, high: int) -> str:
    """``the hand has 3 cards; this game takes 5``."""
    return f"{what} has {card_count(count)}; this game takes {size_range(low, high)}"


def together_message(rules: GameRules, total: int) -> str:
    return (
        f"hand and table together have {card_count(total)}; {rules.name} takes "
        f"{size_range(rules.cards_min, rules.cards_max)}"
    )


def joker_message(rules: GameRules) -> str:
    return f"jokers are not used in {rules.name}"
