"""Dealt hands for the discard games' property tests (``test_discard``, ``test_point_totals``,
the games' own tests): a hand and a table whose ranks all differ, the dealer's promise the
discard rule relies on."""

from __future__ import annotations

from hypothesis import strategies as st

from evaluators.inputs import Cards


@st.composite
def discard_deals(draw: st.DrawFn, hand_max: int, table_max: int) -> tuple[Cards, Cards]:
    """A hand of 1 to ``hand_max`` cards and a table of 0 to ``table_max`` cards of
    different ranks, none of them in the hand."""
    deck = draw(st.permutations(range(52)))
    hand_size = draw(st.integers(1, hand_max))
    table_size = draw(st.integers(0, table_max))
    table: list[int] = []
    for card in deck[hand_size:]:
        if len(table) < table_size and all(card // 4 != t // 4 for t in table):
            table.append(card)
    return tuple(deck[:hand_size]), tuple(table)
