"""The client's catalogue (``clients/python/handeval_client/catalogue.json``) is what the
core says today: regenerate it with ``python -m service.wire.client_catalogue``."""

from __future__ import annotations

from handeval_client import catalogue as client_catalogue

from evaluators.cards import card_text, parse_card
from evaluators.registry import GAMES
from service.wire.client_catalogue import CATALOGUE, text


def test_the_committed_catalogue_is_what_the_core_writes_today() -> None:
    assert CATALOGUE.read_text(encoding="utf-8") == text(), (
        "stale: run python -m service.wire.client_catalogue"
    )


def test_the_client_reads_every_card_spelling_as_the_core_does() -> None:
    for spelling, card in client_catalogue._SPELLINGS.items():
        assert parse_card(spelling) == client_catalogue.parse_card(spelling) == card
    assert [client_catalogue.card_text(c) for c in range(54)] == [card_text(c) for c in range(54)]


def test_the_client_knows_every_game_the_registry_holds_in_its_order() -> None:
    assert [g.slug for g in client_catalogue.GAMES] == [
        rules.game.value for rules in GAMES.values()
    ]
