"""The tables the docs show are the ones the code makes: docs/games.md's games table says what
``ListGames`` says, and docs/configuration.md's settings table is the one ``config.py`` writes."""

from __future__ import annotations

from pathlib import Path

from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.registry import GAMES
from service.server.config import configuration_table
from service.wire import replies

ROOT = Path(__file__).resolve().parents[2]


def test_the_configuration_table_is_the_one_config_py_generates() -> None:
    document = (ROOT / "docs" / "configuration.md").read_text()
    shown = document.split("-->\n", 1)[1].split("<!-- end generated -->", 1)[0]
    assert shown == configuration_table(), "run python -m service.server.config"


def _games_table() -> list[list[str]]:
    """The rows of docs/games.md's games table, which the README points to."""
    document = (ROOT / "docs" / "games.md").read_text()
    table = document.split("<!-- games table", 1)[1].split("\n\n", 1)[0].splitlines()[3:]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in table]


def test_the_games_table_says_what_list_games_says() -> None:
    listed = replies.to_list_games(GAMES.values()).games
    rows = _games_table()
    assert len(rows) == len(listed)
    for row, game in zip(rows, listed, strict=True):
        name, wire, hand, table, pots, options, odds = row[:7]

        def span(low: int, high: int) -> str:
            return str(low) if low == high else f"{low}-{high}"

        number = f" (#{game.number})" if game.number else ""
        assert name == game.name + number
        assert wire == f"`{pb.Game.Name(game.game)}`"
        assert hand == span(game.hand_min, game.hand_max)
        assert table == span(game.table_min, game.table_max)
        assert pots == (", ".join(game.pots) or "stakes")
        assert options == (", ".join(game.options) or "-")
        assert odds == ("yes" if game.odds else "no")
