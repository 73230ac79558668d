"""How figures read for people: the shared formats every game's ``figures`` uses."""

from __future__ import annotations

from evaluators.figures import cards_text, enum_text, half_text, yes_no
from evaluators.games.tonk.deadwood import DealBonus
from evaluators.tables.five_card_classes import PokerCategory


def test_cards_text_joins_canonical_cards() -> None:
    assert cards_text([51, 8, 0, 52]) == "As 4c 2c X1"


def test_no_cards_read_as_a_dash() -> None:
    assert cards_text([]) == "-"


def test_halves_read_as_people_write_them() -> None:
    assert [half_text(h) for h in (0, 1, 7, 24)] == ["0", "½", "3½", "12"]


def test_enum_members_read_as_lower_case_words() -> None:
    assert enum_text(PokerCategory.FULL_HOUSE) == "full house"
    assert enum_text(DealBonus.THIRTEEN_OR_LESS) == "thirteen or less"
    assert (yes_no(True), yes_no(False)) == ("yes", "no")
