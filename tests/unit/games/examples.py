"""Each game's examples, kept in its own unit tests and read here by the tests that run
every game (the dealer, validation, the wire, the server): a new game adds its examples to
its test file and to no table elsewhere.

A game's tests are the test file of its module (``evaluators/games/numbers.py`` ->
``tests/unit/games/test_numbers.py``), or for a game that is a package, of the module its
``evaluate`` lives in (Tonk's ``evaluators/games/tonk/deadwood.py`` ->
``tests/unit/games/tonk/test_deadwood.py``). It
defines ``HAND_EXAMPLE``, ``DETAIL_FIELD``, ``DETAIL_EXAMPLE``, ``FULL_DEAL`` and
``SHOWDOWN_EXAMPLE`` (``GameExamples`` says what each holds).
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from evaluators.inputs import Game
from evaluators.registry import GAMES


def game_tests(game: Game) -> ModuleType:
    """The unit tests of ``game``'s module (named for the game), or for a game that is a
    package, of the module in it that holds its ``evaluate``."""
    name = f"evaluators.games.{game.name.lower()}"
    if hasattr(importlib.import_module(name), "__path__"):
        name = GAMES[game].evaluate.__module__
    package, module = name.rsplit(".", 1)
    return importlib.import_module(
        f"{package.replace('evaluators', 'tests.unit', 1)}.test_{module}"
    )


@dataclass(frozen=True)
class GameExamples:
    hand: list[str]
    table: list[str]
    spreads: list[list[str]]
    """``HAND_EXAMPLE``: one valid hand, its table and table spreads (``{"hand": [...],
    "table": [...], "spreads": [...]}``, spreads only where the game has them)."""
    detail_field: str
    """``DETAIL_FIELD``: the ``oneof detail`` field the game's evaluations fill."""
    detail: dict[str, Any]
    """``DETAIL_EXAMPLE``: the hand's detail as the wire carries it, every field by its proto
    name (card text, enum value names), as ``json_format.MessageToDict`` gives it."""
    full_deal: tuple[int, int]
    """``FULL_DEAL``: the (hand, table) sizes the dealer deals by default, the most the game
    takes."""
    showdown: dict[str, Any]
    """``SHOWDOWN_EXAMPLE``: one valid two-seat showdown (``seats``, ``table`` and the
    game's own showdown fields)."""


@functools.cache
def examples(game: Game) -> GameExamples:
    tests = game_tests(game)
    hand = tests.HAND_EXAMPLE
    return GameExamples(
        hand=hand["hand"],
        table=hand["table"],
        spreads=hand.get("spreads", []),
        detail_field=tests.DETAIL_FIELD,
        detail=tests.DETAIL_EXAMPLE,
        full_deal=tests.FULL_DEAL,
        showdown=tests.SHOWDOWN_EXAMPLE,
    )
