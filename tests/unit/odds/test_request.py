"""An Odds request read and checked (``evaluators.odds.request``): each refusal names its
field, and only the games dealt by chance serve Odds."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from evaluators.errors import InvalidRequest
from evaluators.inputs import Declaration, Game, Options
from evaluators.odds import (
    OddsSeatText,
    read_odds,
    serves_odds,
)
from evaluators.registry import GAMES

HIGH = Declaration.HIGH
SeatSpec = tuple[str, str, int, Declaration | None]


def _fields(
    game: Game | None, seats: Sequence[SeatSpec], table: str = "", dead: str = "", **kw: bool
) -> list[str]:
    texts: list[OddsSeatText] = [(p, hand.split(), unknown, d) for p, hand, unknown, d in seats]
    with pytest.raises(InvalidRequest) as refused:
        read_odds(game, texts, table.split(), dead.split(), Options(**kw))
    return [v.field for v in refused.value.violations]


def test_refusals_name_their_fields() -> None:
    two = [("a", "As", 4, None), ("b", "", 5, None)]
    assert _fields(Game.NOT_POKER, [("a", "As", 5, None), ("b", "", 6, None)]) == ["game"]
    assert _fields(Game.TONK, [("a", "As", 4, None), ("b", "", 5, None)]) == ["game"]
    assert _fields(None, two) == ["game"]
    assert _fields(Game.NUMBERS, [("a", "As", 3, None), ("b", "", 5, None)]) == ["seats[0].unknown"]
    assert _fields(Game.POKER_HIGH, [("a", "As", 2, None), ("b", "", 0, None)]) == [
        "seats[0].unknown",
        "seats[1].unknown",
    ]
    six_less_one = [("a", "As 2s 3s 4s 5s 6s", -1, None), ("b", "", 5, None)]
    assert _fields(Game.NUMBERS, six_less_one) == ["seats[0].unknown"]
    assert _fields(Game.NUMBERS, two, dead="As") == ["dead[0]"]
    assert _fields(Game.NUMBERS, two, table="2c As") == ["table[1]"]
    assert _fields(Game.NUMBERS, two, table="2c 2d") == ["table[1]"]
    assert _fields(Game.NUMBERS, two, table="2c 3c 4c 5c 6c 7c 8c 9c") == ["table"]
    assert _fields(Game.NUMBERS, two, ace_low=True) == ["options.ace_low"]
    assert _fields(Game.FLOP_A, [("a", "As", 2, HIGH), ("b", "", 3, None)]) == [
        "seats[1].declaration"
    ]
    assert _fields(Game.NUMBERS, [("a", "As", 4, None)]) == ["seats"]
    assert _fields(Game.NUMBERS, [("a", "As", 4, None), ("a", "", 5, None)]) == ["seats[1].player"]
    assert _fields(Game.NUMBERS, [("a", "Zz", 4, None), ("b", "", 5, None)]) == ["seats[0].hand[0]"]


def test_too_few_unseen_cards_is_refused_on_the_table() -> None:
    dead = " ".join(f"{rank}{suit}" for rank in "23456789TJQ" for suit in "cdhs")
    seats = [("a", "Ks", 4, None), ("b", "", 5, None)]
    fields = _fields(Game.NUMBERS, seats, dead=dead)
    assert fields == ["table"]
    texts: list[OddsSeatText] = [(p, h.split(), u, d) for p, h, u, d in seats]
    with pytest.raises(InvalidRequest, match=r"needs 16 unseen cards .* 7 are left"):
        read_odds(Game.NUMBERS, texts, (), dead.split())
    few_ranks = " ".join(f"{rank}{suit}" for rank in "23456789" for suit in "cdhs")
    with pytest.raises(InvalidRequest, match="ranks not on it"):
        read_odds(Game.NUMBERS, [("a", ["Ks"], 4, None), ("b", [], 5, None)], (), few_ranks.split())


def test_the_games_dealt_by_chance_serve_odds() -> None:
    assert [game for game in GAMES if serves_odds(game)] == [
        Game.NUMBERS,
        Game.FLORIDA_BINGO,
        Game.FLOP_A,
        Game.THREE_THIRTY_THREE,
        Game.HIGH_CARD,
        Game.GROCERY_STORE_DOTS,
        Game.POKER_HIGH,
    ]
