"""The README's promises hold: its Python example runs against a real server and prints
what its comments say, and every server setting is documented."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from evaluators.registry import GAMES
from service.client.typed_client import HandevalClient, HandevalError
from service.gen.handeval.v1 import handeval_pb2 as pb
from service.server.config import configuration_table
from service.wire import replies
from tests.conftest import ServerProcess

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def _python_example() -> str:
    section = README.split("### From Python", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def test_the_python_example_prints_what_its_comments_say(server: ServerProcess) -> None:
    code = _python_example().replace("localhost:50051", server.target)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "README.md", "exec"), {})
    lines = printed.getvalue().splitlines()
    comments = [line.split("# ", 1)[1].strip() for line in code.splitlines() if "print(" in line]
    assert len(comments) >= 6
    assert lines == comments


def test_the_python_errors_example_is_what_a_handeval_error_prints(server: ServerProcess) -> None:
    lead = "`print(error)` says each violation once:\n\n```\n"
    shown = README.split(lead, 1)[1].split("```", 1)[0]
    with (
        HandevalClient(server.target, timeout=10) as handeval,
        pytest.raises(HandevalError) as caught,
    ):
        handeval.evaluate("numbers", "Ah Zz Ah")
    assert str(caught.value) + "\n" == shown


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
