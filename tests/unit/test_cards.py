"""Card text <-> ids (evaluators/cards.py): every notation docs/rules.md accepts; canonical out.
And the card-set rule: ``repeats`` of ids or of table ranks, and its form for a batch's rows."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evaluators.cards import (
    EMPTY,
    JOKER_1,
    JOKER_2,
    card_id,
    card_text,
    check_one_deck,
    deck_size,
    is_joker,
    parse_card,
    parse_cards,
    rank_of,
    repeats,
    rows_with_repeats,
    suit_of,
    table_pairs,
    table_ranks,
)
from evaluators.errors import Violation

ALL_IDS = range(54)


def test_card_ids_follow_rank_times_four_plus_suit() -> None:
    assert parse_card("2c") == 0
    assert parse_card("2d") == 1
    assert parse_card("2h") == 2
    assert parse_card("2s") == 3
    assert parse_card("3c") == 4
    assert parse_card("Td") == 8 * 4 + 1
    assert parse_card("As") == 51
    assert parse_card("X1") == JOKER_1 == 52
    assert parse_card("X2") == JOKER_2 == 53


@pytest.mark.parametrize("text", ["Ah", "ah", "AH", "aH", "A♥", "a♥"])
def test_every_spelling_of_the_ace_of_hearts_is_one_card(text: str) -> None:
    assert parse_card(text) == card_id(12, 2)


@pytest.mark.parametrize(
    "text", [" Ah", "Ah ", "Ah\n", "\tAh", "\u00a0Ah", "Ah\u00a0", "A h", "A\u200bh", "\u212ah"]
)
def test_whitespace_or_folded_characters_make_unknown_card_text(text: str) -> None:
    with pytest.raises(ValueError, match="is not a card"):
        parse_card(text)


@pytest.mark.parametrize("text", ["Td", "td", "TD", "10d", "10D", "10♦", "t♦"])
def test_ten_is_written_t_or_10(text: str) -> None:
    assert card_text(parse_card(text)) == "Td"


@pytest.mark.parametrize(
    ("text", "canonical"), [("q♠", "Qs"), ("K♣", "Kc"), ("2♦", "2d"), ("j♥", "Jh")]
)
def test_unicode_suits_read_as_their_letters(text: str, canonical: str) -> None:
    assert card_text(parse_card(text)) == canonical


@pytest.mark.parametrize(("text", "card"), [("X1", 52), ("x1", 52), ("X2", 53), ("x2", 53)])
def test_jokers_are_x1_and_x2_in_any_case(text: str, card: int) -> None:
    assert parse_card(text) == card
    assert is_joker(card)


def test_every_card_prints_canonically_and_reads_back() -> None:
    texts = [card_text(c) for c in ALL_IDS]
    assert len(set(texts)) == 54
    for card, text in zip(ALL_IDS, texts, strict=True):
        assert parse_card(text) == card
        if not is_joker(card):
            assert text[0] in "23456789TJQKA"
            assert text[1] in "cdhs"
    assert texts[-2:] == ["X1", "X2"]


@given(st.sampled_from(list(range(52))), st.booleans(), st.booleans(), st.booleans())
def test_any_spelling_reads_as_the_same_card(
    card: int, upper_rank: bool, upper_suit: bool, unicode_suit: bool
) -> None:
    rank = "23456789TJQKA"[rank_of(card)]
    if rank == "T" and upper_rank:
        rank = "10"
    suit = ("♣♦♥♠" if unicode_suit else "cdhs")[suit_of(card)]
    text = (rank.upper() if upper_rank else rank.lower()) + (suit.upper() if upper_suit else suit)
    assert parse_card(text) == card


def test_rank_suit_and_id_agree() -> None:
    for card in range(52):
        assert card_id(rank_of(card), suit_of(card)) == card
    assert not any(is_joker(c) for c in range(52))


@pytest.mark.parametrize(
    "text", ["", "A", "1h", "11h", "Ax", "Zh", "X3", "X", "AhKh", "♥A", "Joker"]
)
def test_unknown_card_text_is_refused_with_a_sentence(text: str) -> None:
    with pytest.raises(ValueError) as error:
        parse_card(text)
    message = str(error.value)
    assert repr(text) in message
    assert "is not a card" in message
    assert "ranks are 2-9 T J Q K A, suits c d h s" in message


def test_parse_cards_reports_each_bad_card_at_its_own_index_and_keeps_positions() -> None:
    violations: list[Violation] = []
    cards = parse_cards(["Ah", "Zz", "10c", "nope"], "seats[1].hand", violations)
    assert cards == (parse_card("Ah"), EMPTY, parse_card("Tc"), EMPTY)
    assert [v.field for v in violations] == ["seats[1].hand[1]", "seats[1].hand[3]"]
    assert "'Zz' is not a card" in violations[0].message


def test_parse_cards_of_good_cards_adds_no_violation() -> None:
    violations: list[Violation] = []
    assert parse_cards(["2c", "X2"], "hand", violations) == (0, 53)
    assert violations == []


def test_one_deck_reports_every_repeat_at_its_own_position_naming_the_first() -> None:
    violations: list[Violation] = []
    ah, kd = parse_card("Ah"), parse_card("Kd")
    check_one_deck(
        [("seats[0].hand", (ah, kd)), ("seats[1].hand", (kd, ah)), ("table", (ah,))], violations
    )
    assert violations == [
        Violation("seats[1].hand[0]", "duplicate card 'Kd': also at seats[0].hand[1]"),
        Violation("seats[1].hand[1]", "duplicate card 'Ah': also at seats[0].hand[0]"),
        Violation("table[0]", "duplicate card 'Ah': also at seats[0].hand[0]"),
    ]


def test_one_deck_catches_a_repeat_within_one_field_and_a_repeated_joker() -> None:
    violations: list[Violation] = []
    check_one_deck([("hand", (52, 0, 52, 0))], violations)
    assert [v.field for v in violations] == ["hand[2]", "hand[3]"]
    assert "'X1'" in violations[0].message


def test_one_deck_skips_unparsed_slots() -> None:
    violations: list[Violation] = []
    check_one_deck([("hand", (EMPTY, EMPTY, 3))], violations)
    assert violations == []


def test_repeats_names_each_later_place_and_the_first_skipping_empty() -> None:
    assert repeats((5, EMPTY, 5, EMPTY, 7, 5)) == [(2, 0), (5, 0)]
    assert repeats((EMPTY, EMPTY, 1, 2)) == []
    assert repeats(()) == []


def test_table_ranks_give_jokers_and_padding_no_rank() -> None:
    assert table_ranks((card_id(3, 0), card_id(3, 2), JOKER_1, JOKER_2, EMPTY)) == (
        3, 3, EMPTY, EMPTY, EMPTY,
    )  # fmt: skip


ROW_BYTES = st.sampled_from([0, 1, 2, 5, 6, 50, 51, JOKER_1, JOKER_2, 200, EMPTY])
"""Few values, so repeats are common: cards of two ranks, jokers, a non-card byte, padding."""


@given(width=st.integers(0, 12), data=st.data())
def test_a_batch_of_rows_repeats_exactly_where_each_row_does(
    width: int, data: st.DataObject
) -> None:
    rows = data.draw(st.lists(st.lists(ROW_BYTES, min_size=width, max_size=width), max_size=20))
    matrix = np.array(rows, dtype=np.uint8).reshape(len(rows), width)
    assert rows_with_repeats(matrix).tolist() == [bool(repeats(row)) for row in rows]
    ranks = table_ranks(matrix)
    assert ranks.tolist() == [list(table_ranks(row)) for row in rows]
    assert rows_with_repeats(ranks).tolist() == [bool(repeats(table_ranks(row))) for row in rows]


def test_a_game_deals_the_jokers_only_where_it_has_them() -> None:
    assert deck_size(jokers=False) == JOKER_1
    assert deck_size(jokers=True) == JOKER_2 + 1


@given(width=st.integers(0, 7), data=st.data())
def test_a_table_pairs_where_its_ranks_repeat_for_ids_and_rows(
    width: int, data: st.DataObject
) -> None:
    ids = st.sampled_from([*range(54), EMPTY])
    rows = data.draw(st.lists(st.lists(ids, min_size=width, max_size=width), max_size=6))
    matrix = np.array(rows, dtype=np.uint8).reshape(len(rows), width)
    assert [table_pairs(tuple(row)) for row in rows] == [repeats(table_ranks(row)) for row in rows]
    assert table_pairs(matrix).tolist() == [bool(table_pairs(tuple(row))) for row in rows]
