"""Every game the service knows, gathered from the game modules: ``Game -> GameRules``.

Each module under ``evaluators.games`` holds all of one game's rules and exports them as
``RULES``; ``evaluators.games.MODULES`` names them, and ``Game`` has a member per name.
Adding a game is its module, its name in that list, one enum value in the proto.
"""

from __future__ import annotations

import importlib

from evaluators.game_rules import GameRules
from evaluators.games import MODULES
from evaluators.inputs import Game
from evaluators.results import Detail

__all__ = ["DETAILS", "GAMES", "GameRules"]


def _rules_of(module: str) -> GameRules:
    """The ``RULES`` of ``evaluators.games.<module>``, which must be its own game's."""
    rules = importlib.import_module(f"evaluators.games.{module}").RULES
    if not isinstance(rules, GameRules) or rules.game is not Game[module.upper()]:
        raise TypeError(f"evaluators.games.{module}.RULES are not Game.{module.upper()}'s rules")
    return rules


GAMES: dict[Game, GameRules] = {rules.game: rules for rules in map(_rules_of, MODULES)}
"""In ``ListGames`` order."""

DETAILS: tuple[type[Detail], ...] = tuple(dict.fromkeys(rules.detail for rules in GAMES.values()))
"""Every kind of ``Evaluation.detail`` the games' evaluations carry, each once; details held
inside a detail (Dots' poker hand) are reached through its fields."""

DEFAULT_GAME = Game.POKER_HIGH
"""The game a caller gets when it names none (the load generator): the hot path's."""
