"""Numbers (#137): its rules as the game module states them (evaluation by the shared
point totals is tested in tests/unit/), and how its figures read for people."""

from __future__ import annotations

from typing import Any

from evaluators.cards import parse_card
from evaluators.games import numbers
from evaluators.inputs import Options

HAND_EXAMPLE: dict[str, Any] = {"hand": ["Ah", "Kd", "5c"], "table": ["2s", "3h"]}
"""One valid hand (and its table, and table spreads where the game has them): the tests
that run every game read this file's examples (tests/unit/games/examples.py)."""
DETAIL_FIELD = "points"
"""The ``oneof detail`` field the game's evaluations fill (docs/api.md)."""
DETAIL_EXAMPLE: dict[str, Any] = {"high_total": 30.0, "low_total": 16.0}
"""The hand's detail as the wire carries it."""
FULL_DEAL = (5, 7)
"""The (hand, table) sizes the dealer deals by default: the most the game takes."""
SHOWDOWN_EXAMPLE: dict[str, Any] = {
    "seats": [("alice", ["Ah", "Kd", "5c"]), ("bob", ["4d", "9c", "Qs"])],
    "table": ["2s", "3h"],
}
"""One valid two-seat showdown."""


def test_the_figures_read_as_the_readme_shows() -> None:
    hand = tuple(parse_card(c) for c in ["7h", "2c", "Kd", "9s"])
    table = tuple(parse_card(c) for c in ["2d", "Kh"])
    evaluation = numbers.RULES.evaluate(hand, table, (), Options())
    assert numbers.RULES.figures(evaluation) == [
        ("low strength", "224", True),
        ("instant win", "no", False),
        ("out after", "0", False),
        ("kept", "7h 9s", True),
        ("discarded", "2c Kd", False),
        ("high total", "16", True),
        ("low total", "16", True),
    ]
