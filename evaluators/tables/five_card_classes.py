"""The Cactus-Kev order of five-card poker hands, from the rules alone.

A five-card hand's rank depends only on its rank multiset and on whether it is suited
(all one suit). There are 6,175 unsuited rank multisets and 1,287 suited ones (five
distinct ranks): 7,462 equivalence classes. Sorting them by (category, tie-break ranks)
best first and numbering from 1 gives the ``rank_class`` of the common evaluators:
1 is the royal flush, 7462 is 7-5-4-3-2 unsuited. Lower class = stronger hand.

Rank multisets are *packed counts*: 3 bits per rank, rank ``r`` (0 = deuce ... 12 = ace)
at bit ``3 * r``, so adding ``1 << 3 * r`` per card builds one. Suited hands are keyed by
their 13-bit rank mask instead.
"""

from __future__ import annotations

import enum
from bisect import bisect_left
from collections.abc import Mapping
from itertools import combinations
from types import MappingProxyType

from evaluators.tables.builds import container_bytes, lookup_table


class PokerCategory(enum.IntEnum):
    """Poker hand categories; a larger value is a better category."""

    HIGH_CARD = 1
    ONE_PAIR = 2
    TWO_PAIR = 3
    THREE_OF_A_KIND = 4
    STRAIGHT = 5
    FLUSH = 6
    FULL_HOUSE = 7
    FOUR_OF_A_KIND = 8
    STRAIGHT_FLUSH = 9


RANK_COUNT = 13
COUNT_BITS = 3
WHEEL_TOP = 3
"""A-2-3-4-5 is a straight whose top card is the five (rank index 3)."""

CLASS_COUNT = 7462

_OrderKey = tuple[int, tuple[int, ...]]


def counts_of(packed: int) -> tuple[int, ...]:
    """Rank counts (deuce first) of a packed-counts key."""
    return tuple((packed >> (COUNT_BITS * r)) & 7 for r in range(RANK_COUNT))


def pack_counts(counts: tuple[int, ...]) -> int:
    return sum(n << (COUNT_BITS * r) for r, n in enumerate(counts))


def straight_top(ranks_descending: tuple[int, ...]) -> int | None:
    """Top rank of the straight made by five distinct ranks, or None; the wheel tops at five."""
    if ranks_descending == (12, 3, 2, 1, 0):
        return WHEEL_TOP
    if ranks_descending[0] - ranks_descending[4] == 4:
        return ranks_descending[0]
    return None


def order_key(counts: tuple[int, ...], suited: bool) -> _OrderKey:
    """(category, tie-break ranks) of a five-card hand; larger is better.

    Tie-break ranks are grouped by count, larger groups first, higher rank first within a
    count; straights compare by their top card only.
    """
    groups = sorted(((n, r) for r, n in enumerate(counts) if n), reverse=True)
    shape = tuple(n for n, _ in groups)
    ranks = tuple(r for _, r in groups)
    if shape == (1, 1, 1, 1, 1):
        top = straight_top(ranks)
        if top is not None:
            category = PokerCategory.STRAIGHT_FLUSH if suited else PokerCategory.STRAIGHT
            return category, (top,)
        return (PokerCategory.FLUSH if suited else PokerCategory.HIGH_CARD), ranks
    by_shape = {
        (4, 1): PokerCategory.FOUR_OF_A_KIND,
        (3, 2): PokerCategory.FULL_HOUSE,
        (3, 1, 1): PokerCategory.THREE_OF_A_KIND,
        (2, 2, 1): PokerCategory.TWO_PAIR,
        (2, 1, 1, 1): PokerCategory.ONE_PAIR,
    }
    return by_shape[shape], ranks


def five_card_rank_multisets() -> list[tuple[int, ...]]:
    """Every rank-count vector of five cards (each rank at most four times): 6,175."""
    found: list[tuple[int, ...]] = []

    def extend(prefix: tuple[int, ...], left: int) -> None:
        if len(prefix) == RANK_COUNT:
            if left == 0:
                found.append(prefix)
            return
        for n in range(min(4, left) + 1):
            extend((*prefix, n), left - n)

    extend((), 5)
    return found


@lookup_table("poker.five_card_classes", lambda maps: container_bytes(*map(dict, maps)))
def build_five_card_classes() -> tuple[Mapping[int, int], Mapping[int, int]]:
    """(unsuited: packed counts -> class, suited: rank mask -> class) for five cards.

    Classes run 1 (best) .. 7462 (worst); the two maps together use each class once.
    Built once per process and read-only: the lookup tables and the class
    shapes both start from it.
    """
    entries: list[tuple[_OrderKey, bool, int]] = []
    for counts in five_card_rank_multisets():
        entries.append((order_key(counts, suited=False), False, pack_counts(counts)))
    for ranks in combinations(range(RANK_COUNT), 5):
        counts = tuple(1 if r in ranks else 0 for r in range(RANK_COUNT))
        mask = sum(1 << r for r in ranks)
        entries.append((order_key(counts, suited=True), True, mask))
    entries.sort(key=lambda entry: entry[0], reverse=True)
    unsuited: dict[int, int] = {}
    suited: dict[int, int] = {}
    for rank_class, (_, is_suited, key) in enumerate(entries, start=1):
        (suited if is_suited else unsuited)[key] = rank_class
    return MappingProxyType(unsuited), MappingProxyType(suited)


def category_of_class(rank_class: int) -> PokerCategory:
    """The category of a Cactus-Kev class (1 .. 7462)."""
    if not 1 <= rank_class <= CLASS_COUNT:
        raise ValueError(f"rank class {rank_class} is outside 1..{CLASS_COUNT}")
    return _CATEGORIES_BEST_FIRST[bisect_left(_LAST_CLASS, rank_class)]


_CATEGORIES_BEST_FIRST = tuple(sorted(PokerCategory, reverse=True))
_LAST_CLASS = (10, 166, 322, 1599, 1609, 2467, 3325, 6185, 7462)
"""Last class of each category, best category first (the standard boundaries)."""
