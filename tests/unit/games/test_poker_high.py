"""Poker high: its rules as the game module states them (evaluation by the shared
poker engine is tested in tests/unit/), and how its figures read for people."""

from __future__ import annotations

from typing import Any

from evaluators.cards import parse_card
from evaluators.games import poker_high
from evaluators.inputs import Options

HAND_EXAMPLE: dict[str, Any] = {"hand": ["Ah", "Kh"], "table": ["Qh", "Jh", "Th"]}
"""One valid hand (and its table, and table spreads where the game has them): the tests
that run every game read this file's examples (tests/unit/games/examples.py)."""
DETAIL_FIELD = "poker"
"""The ``oneof detail`` field the game's evaluations fill (docs/api.md)."""
DETAIL_EXAMPLE: dict[str, Any] = {
    "category": "POKER_CATEGORY_STRAIGHT_FLUSH",
    "rank_class": 1,
    "best_five": ["Ah", "Kh", "Qh", "Jh", "Th"],
}
"""The hand's detail as the wire carries it."""
FULL_DEAL = (7, 0)
"""The (hand, table) sizes the dealer deals by default: the most the game takes."""
SHOWDOWN_EXAMPLE: dict[str, Any] = {
    "seats": [("alice", ["Ah", "Kh"]), ("bob", ["2c", "7d"])],
    "table": ["Qh", "Jh", "Th", "3s", "4s"],
}
"""One valid two-seat showdown."""


def test_the_figures_read_as_the_readme_shows() -> None:
    hand = tuple(parse_card(c) for c in ["Ah", "Kh"])
    table = tuple(parse_card(c) for c in ["Qh", "Jh", "Th", "2c", "3d"])
    evaluation = poker_high.evaluate(hand, table, (), Options())
    assert poker_high.RULES.figures(evaluation) == [
        ("category", "straight flush", True),
        ("rank class", "1", True),
        ("best five", "Ah Kh Qh Jh Th", True),
    ]
