"""Florida Bingo (#508): its rules as the game module states them (evaluation by the
shared point totals is tested in tests/unit/), and how its figures read for people."""

from __future__ import annotations

from typing import Any

from evaluators.cards import parse_card
from evaluators.games import florida_bingo
from evaluators.inputs import Options

HAND_EXAMPLE: dict[str, Any] = {"hand": ["Ah", "Qd", "5c", "9s"], "table": ["2s"]}
"""One valid hand (and its table, and table spreads where the game has them): the tests
that run every game read this file's examples (tests/unit/games/examples.py)."""
DETAIL_FIELD = "points"
"""The ``oneof detail`` field the game's evaluations fill (docs/api.md)."""
DETAIL_EXAMPLE: dict[str, Any] = {"high_total": 39.0, "low_total": 15.5}
"""The hand's detail as the wire carries it."""
FULL_DEAL = (5, 7)
"""The (hand, table) sizes the dealer deals by default: the most the game takes."""
SHOWDOWN_EXAMPLE: dict[str, Any] = {
    "seats": [("alice", ["Ah", "Kd", "5c"]), ("bob", ["4d", "9c", "Qs"])],
    "table": ["2s", "3h"],
}
"""One valid two-seat showdown."""


def test_the_figures_read_as_the_readme_shows() -> None:
    hand = tuple(parse_card(c) for c in ["Ac", "Qd", "4s"])
    table = tuple(parse_card(c) for c in ["9h"])
    evaluation = florida_bingo.RULES.evaluate(hand, table, (), Options())
    assert florida_bingo.RULES.figures(evaluation) == [
        ("low strength", "245", True),
        ("instant win", "no", False),
        ("out after", "0", False),
        ("kept", "Ac Qd 4s", True),
        ("discarded", "-", False),
        ("high total", "29", True),
        ("low total", "5½", True),
    ]
