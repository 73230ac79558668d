"""Per Cactus-Kev class, everything a single-hand answer needs besides the cards themselves.

A class fixes the category, the description ("Full house, kings full of twos") and the
ranks of the best five in order (groups first, larger then higher, kickers high to low;
straights from the top, the wheel ending with its ace). So a single hand needs no subset
search and no sorting: its best five are, per group of the class, that rank's highest
cards in the hand (read from a 4-bit nibble of the hand's 52-bit card mask), or for a
flush the class's ranks in the flush suit.

``class_shapes()``: 7,463 entries (index 0 a placeholder), built once from
``build_five_card_classes`` (cached: the same order the lookup tables use).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from evaluators.tables.builds import container_bytes, lookup_table
from evaluators.tables.five_card_classes import (
    CLASS_COUNT,
    RANK_COUNT,
    WHEEL_TOP,
    PokerCategory,
    build_five_card_classes,
    category_of_class,
    counts_of,
)

RANK_NAMES = (
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)
RANK_PLURALS = (
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "sevens",
    "eights",
    "nines",
    "tens",
    "jacks",
    "queens",
    "kings",
    "aces",
)
NIBBLE_BITS = 4
"""Card ``4 * rank + suit`` is bit ``card`` of a card mask: rank ``r`` owns bits 4r..4r+3."""

Group = tuple[int, int]
"""(shift of the rank's nibble in a card mask, index base into ``top_cards``)."""


class ClassShape(NamedTuple):
    category: PokerCategory
    description: str
    strength: int
    """``CLASS_COUNT + 1 - rank_class``: higher is better."""
    groups: tuple[Group, ...]
    """Unsuited classes: the groups of the best five, in order; empty for flushes."""
    suited_fives: tuple[tuple[int, ...], ...]
    """Flushes and straight flushes: the best five card ids per flush suit (index = suit)."""


def describe_ranks(category: PokerCategory, ranks: tuple[int, ...]) -> str:
    """For people, from the ranks of the best five in order (0 = deuce .. 12 = ace)."""
    first, third, fourth = ranks[0], ranks[2], ranks[3]
    match category:
        case PokerCategory.STRAIGHT_FLUSH:
            royal = " (royal flush)" if first == 12 else ""
            return f"Straight flush, {RANK_NAMES[first]} high{royal}"
        case PokerCategory.FOUR_OF_A_KIND:
            return f"Four of a kind, {RANK_PLURALS[first]}"
        case PokerCategory.FULL_HOUSE:
            return f"Full house, {RANK_PLURALS[first]} full of {RANK_PLURALS[fourth]}"
        case PokerCategory.FLUSH:
            return f"Flush, {RANK_NAMES[first]} high"
        case PokerCategory.STRAIGHT:
            return f"Straight, {RANK_NAMES[first]} high"
        case PokerCategory.THREE_OF_A_KIND:
            return f"Three of a kind, {RANK_PLURALS[first]}"
        case PokerCategory.TWO_PAIR:
            return f"Two pair, {RANK_PLURALS[first]} and {RANK_PLURALS[third]}"
        case PokerCategory.ONE_PAIR:
            return f"One pair, {RANK_PLURALS[first]}"
        case _:
            return f"High card, {RANK_NAMES[first]}"


def ranks_in_order(counts: tuple[int, ...], category: PokerCategory) -> tuple[int, ...]:
    """The five ranks of a five-card rank multiset in best-five order (one per card)."""
    groups = sorted(((n, r) for r, n in enumerate(counts) if n), reverse=True)
    ranks = tuple(r for n, r in groups for _ in range(n))
    straight = category in (PokerCategory.STRAIGHT, PokerCategory.STRAIGHT_FLUSH)
    if straight and ranks[:2] == (12, WHEEL_TOP):
        return (*ranks[1:], 12)
    return ranks


@functools.cache
def top_cards() -> tuple[tuple[int, ...], ...]:
    """At ``64 * rank + 4 * nibble + (count - 1)``: the ``count`` highest card ids of that
    rank among the suits set in ``nibble``, highest first (832 entries)."""
    entries: list[tuple[int, ...]] = []
    for rank in range(RANK_COUNT):
        for nibble in range(1 << NIBBLE_BITS):
            held = tuple(4 * rank + s for s in (3, 2, 1, 0) if nibble >> s & 1)
            entries.extend(held[:count] for count in range(1, 5))
    return tuple(entries)


def _groups(ranks: tuple[int, ...]) -> tuple[Group, ...]:
    groups: list[Group] = []
    for rank in dict.fromkeys(ranks):
        count = ranks.count(rank)
        groups.append((NIBBLE_BITS * rank, 64 * rank + count - 1))
    return tuple(groups)


@lookup_table("poker.class_shapes", container_bytes)
def class_shapes() -> tuple[ClassShape, ...]:
    """``ClassShape`` of every class 1 .. 7462 at its index (index 0: an empty placeholder)."""
    unsuited, suited = build_five_card_classes()
    shapes = [ClassShape(PokerCategory.HIGH_CARD, "", 0, (), ())] * (CLASS_COUNT + 1)
    for packed, rank_class in unsuited.items():
        category = category_of_class(rank_class)
        ranks = ranks_in_order(counts_of(packed), category)
        shapes[rank_class] = ClassShape(
            category,
            describe_ranks(category, ranks),
            CLASS_COUNT + 1 - rank_class,
            _groups(ranks),
            (),
        )
    for mask, rank_class in suited.items():
        category = category_of_class(rank_class)
        counts = tuple(mask >> r & 1 for r in range(RANK_COUNT))
        ranks = ranks_in_order(counts, category)
        shapes[rank_class] = ClassShape(
            category,
            describe_ranks(category, ranks),
            CLASS_COUNT + 1 - rank_class,
            (),
            tuple(tuple(4 * r + suit for r in ranks) for suit in range(4)),
        )
    return tuple(shapes)
