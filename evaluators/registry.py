"""Every game the service knows, gathered from the game modules: ``Game -> GameRules``.

Each module under ``evaluators.games`` holds all of one game's rules and exports them as
``RULES``; this list is the only place that names them all. Adding a game is its module,
one line here, one enum value in the proto.
"""

from __future__ import annotations

from evaluators.game_rules import GameRules
from evaluators.games import (
    flop_a,
    florida_bingo,
    grocery_store_dots,
    high_card,
    not_poker,
    numbers,
    poker_high,
    three_thirty_three,
    tonk,
    tonk_spades,
)
from evaluators.inputs import Game
from evaluators.results import Detail

__all__ = ["DETAILS", "GAMES", "GameRules"]

GAMES: dict[Game, GameRules] = {
    rules.game: rules
    for rules in (
        numbers.RULES,
        florida_bingo.RULES,
        flop_a.RULES,
        three_thirty_three.RULES,
        high_card.RULES,
        grocery_store_dots.RULES,
        poker_high.RULES,
        not_poker.RULES,
        tonk.RULES,
        tonk_spades.RULES,
    )
}
"""In ``ListGames`` order."""

DETAILS: tuple[type[Detail], ...] = tuple(dict.fromkeys(rules.detail for rules in GAMES.values()))
"""Every kind of ``Evaluation.detail`` the games' evaluations carry, each once; details held
inside a detail (Dots' poker hand) are reached through its fields."""

DEFAULT_GAME = poker_high.RULES.game
"""The game a caller gets when it names none (the load generator): the hot path's."""
