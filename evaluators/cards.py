"""Cards as small ints: text <-> ids, and the problems a request can have with them.

A card id is ``rank_index * 4 + suit_index`` (rank 0 = ``2`` ... 12 = ``A``; suit
0 = ``c``, 1 = ``d``, 2 = ``h``, 3 = ``s``); the jokers are 52 (``X1``) and 53 (``X2``).
Text is parsed once, at the edge; everything behind it computes on these ids.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import overload

import numpy as np
import numpy.typing as npt

from evaluators.errors import Violation

RANKS = "23456789TJQKA"
SUITS = "cdhs"
JOKER_1 = 52
JOKER_2 = 53
JOKERS = (JOKER_1, JOKER_2)
DECK_SIZE = 52
EMPTY = 255
"""Packed (batch) input pads a short hand or table with this byte."""

ACE = 12
TEN = 8

_SUIT_ALIASES = {"c": 0, "d": 1, "h": 2, "s": 3, "♣": 0, "♦": 1, "♥": 2, "♠": 3}
_RANK_ALIASES = {r.lower(): i for i, r in enumerate(RANKS)} | {"10": TEN}
CARD_HELP = "ranks are 2-9 T J Q K A, suits c d h s (or X1, X2 for jokers)"
"""What a refused card text is told: the notation in one line."""


def rank_of(card: int) -> int:
    """Rank index 0 (``2``) ... 12 (``A``); higher is the higher rank, ace high."""
    return card >> 2


def suit_of(card: int) -> int:
    return card & 3


def card_id(rank: int, suit: int) -> int:
    return rank * 4 + suit


def is_joker(card: int) -> bool:
    return card >= DECK_SIZE


def _cases(text: str) -> set[str]:
    return {text.lower(), text.upper()}


def _build_text_to_id() -> dict[str, int]:
    """Every accepted spelling, each case of rank and suit: a lookup is one exact dict read,
    so nothing around a card (whitespace) or folded into one (``\u212a``, the Kelvin sign,
    lowers to ``k``) is read as a card."""
    table = {case: joker for text, joker in (("x1", JOKER_1), ("x2", JOKER_2))
             for case in _cases(text)}  # fmt: skip
    for rank_text, rank in _RANK_ALIASES.items():
        for suit_text, suit in _SUIT_ALIASES.items():
            for rank_case in _cases(rank_text):
                for suit_case in _cases(suit_text):
                    table[rank_case + suit_case] = card_id(rank, suit)
    return table


_TEXT_TO_ID = _build_text_to_id()
TEXT_TO_ID: Mapping[str, int] = MappingProxyType(_TEXT_TO_ID)
"""Every accepted card spelling and its id (read-only): the client's catalogue is made
from it (``service.wire.client_catalogue``)."""
_ID_TO_TEXT = (*(RANKS[c >> 2] + SUITS[c & 3] for c in range(DECK_SIZE)), "X1", "X2")


def parse_card(text: str) -> int:
    """Card id of ``text`` (``Ah``, ``10d``, ``q♠``, ``X1``; case-insensitive).

    Nothing else is a card (docs/rules.md "Cards"): text with whitespace around or inside it
    (``" Ah"``, ``"Ah\n"``) is refused, never trimmed. Raises ValueError with a sentence a
    person understands.
    """
    card = _TEXT_TO_ID.get(text)
    if card is None:
        raise ValueError(f"{text!r} is not a card: {CARD_HELP}")
    return card


def card_text(card: int) -> str:
    """Canonical text of a card id: ``Ah``, ``Td``, ``2c``, ``X1``."""
    return _ID_TO_TEXT[card]


def parse_cards(texts: Sequence[str], field: str, violations: list[Violation]) -> tuple[int, ...]:
    """Parse every card of one field; a bad card becomes EMPTY and a Violation.

    Positions are kept, so later checks name the same index the caller sent.
    """
    cards: list[int] = []
    for index, text in enumerate(texts):
        try:
            cards.append(parse_card(text))
        except ValueError as error:
            cards.append(EMPTY)
            violations.append(Violation(f"{field}[{index}]", str(error)))
    return tuple(cards)


# --- the card rules ---------------------------------------------------------------------
# Each stated once here, for ids and row by row for a batch's matrix (``kernels/_screen.c``
# is the compiled screen of a whole batch; tests hold the three equal: tests/unit/
# test_cards.py, tests/unit/test_batch.py). The single path (``validation``), the batch
# path (``batch``) and the dealer (``deal``) all read them:
# - one deck: no card twice in a request (``repeats``, ``rows_with_repeats``); EMPTY, the
#   batch padding, is no card;
# - a table of distinct ranks, where the game deals one (``GameRules.distinct_table_ranks``):
#   no rank twice on it (``table_pairs``, over ``table_ranks``);
# - jokers only where the game deals them (``deck_size``).

Matrix = npt.NDArray[np.uint8]
Mask = npt.NDArray[np.bool_]


def deck_size(jokers: bool) -> int:
    """How many ids a game deals, from 0: the 52 cards, then the two jokers where the game
    has them (``GameRules.jokers``). A card id from here up is one the game refuses."""
    return DECK_SIZE + len(JOKERS) if jokers else DECK_SIZE


def repeats(values: Sequence[int]) -> list[tuple[int, int]]:
    """(place, first place) for each place holding a value already seen at an earlier one,
    in order; EMPTY is no value. Empty when nothing repeats, which costs one ``set``."""
    if len(set(values)) == len(values):
        return []
    first: dict[int, int] = {}
    found = []
    for place, value in enumerate(values):
        if value == EMPTY:
            continue
        if value in first:
            found.append((place, first[value]))
        else:
            first[value] = place
    return found


def rows_with_repeats(rows: Matrix) -> Mask:
    """The rows for which ``repeats`` is not empty, vectorised: a sorted row holds two equal
    neighbours other than EMPTY."""
    if rows.shape[1] < 2:
        return np.zeros(rows.shape[0], dtype=np.bool_)
    ordered = np.sort(rows, axis=1)
    same = (ordered[:, 1:] == ordered[:, :-1]) & (ordered[:, 1:] != EMPTY)
    found: Mask = same.any(axis=1)
    return found


@overload
def table_ranks(cards: Sequence[int]) -> tuple[int, ...]: ...
@overload
def table_ranks(cards: Matrix) -> Matrix: ...
def table_ranks(cards: Sequence[int] | Matrix) -> tuple[int, ...] | Matrix:
    """What a paired table compares, place by place: a card's rank, EMPTY for a joker or
    padding (neither pairs); for ids or element-wise for a matrix of them."""
    if isinstance(cards, np.ndarray):
        return np.where(cards < DECK_SIZE, cards >> 2, EMPTY).astype(np.uint8)
    return tuple([card >> 2 if card < DECK_SIZE else EMPTY for card in cards])


@overload
def table_pairs(table: Sequence[int]) -> list[tuple[int, int]]: ...
@overload
def table_pairs(table: Matrix) -> Mask: ...
def table_pairs(table: Sequence[int] | Matrix) -> list[tuple[int, int]] | Mask:
    """Where a table pairs: (place, first place) for each card sharing the rank of an
    earlier one; for a matrix of tables, the rows that pair."""
    if isinstance(table, np.ndarray):
        return rows_with_repeats(table_ranks(table))
    return repeats(table_ranks(table))


def check_one_deck(
    fields: Iterable[tuple[str, Sequence[int]]], violations: list[Violation]
) -> None:
    """One deck: each card at most once across all the given (field, cards) pairs.

    Every repeat is reported at its own position, naming where the card was first seen.
    """
    spans = list(fields)
    cards = [card for _, values in spans for card in values]
    found = repeats(cards)
    if not found:
        return
    places = [f"{field}[{index}]" for field, values in spans for index in range(len(values))]
    violations += [
        Violation(
            places[place], f"duplicate card {card_text(cards[place])!r}: also at {places[first]}"
        )
        for place, first in found
    ]
