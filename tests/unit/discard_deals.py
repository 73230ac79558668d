"""Dealt hands for the discard games' tests (``test_discard``, ``test_point_totals``, the
games' own tests): a hand and a table whose ranks all differ, the dealer's promise the
discard rule relies on; as a hypothesis strategy, or many at once from a seeded rng."""

from __future__ import annotations

import random
from collections.abc import Sequence

from hypothesis import strategies as st

from evaluators.inputs import Cards


def _distinct_ranks(cards: Sequence[int], size: int) -> list[int]:
    """The first cards of ``cards``, in order, whose ranks all differ, up to ``size``."""
    table: list[int] = []
    for card in cards:
        if len(table) < size and all(card // 4 != t // 4 for t in table):
            table.append(card)
    return table


@st.composite
def discard_deals(draw: st.DrawFn, hand_max: int, table_max: int) -> tuple[Cards, Cards]:
    """A hand of 1 to ``hand_max`` cards and a table of 0 to ``table_max`` cards of
    different ranks, none of them in the hand."""
    deck = draw(st.permutations(range(52)))
    hand_size = draw(st.integers(1, hand_max))
    table_size = draw(st.integers(0, table_max))
    table = _distinct_ranks(deck[hand_size:], table_size)
    return tuple(deck[:hand_size]), tuple(table)


def random_discard_deals(
    rng: random.Random, count: int, hand_max: int, table_max: int
) -> list[tuple[Cards, Cards]]:
    """``count`` valid deals drawn from ``rng``; about one in five is built to be emptied by
    the table (its hand holds only ranks the table shows)."""
    result = []
    for _ in range(count):
        deck = rng.sample(range(52), 52)
        table_size = rng.randint(0, table_max)
        table = _distinct_ranks(deck, table_size)
        rest = [c for c in deck if c not in table]
        if table and rng.random() < 0.2:
            rest = [c for c in rest if any(c // 4 == t // 4 for t in table)]
        result.append((tuple(rest[: rng.randint(1, hand_max)]), tuple(table)))
    return result
