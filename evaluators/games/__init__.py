"""One module (or small package) per game, each holding all of that game's rules and
exporting them as ``RULES``; ``evaluators.registry`` gathers them.

``MODULES`` names them, in ``ListGames`` order: it is the one list of games. A module's name
is its game's name everywhere: ``tonk_spades`` is ``Game.TONK_SPADES``, its slug is
``tonk-spades`` and its wire value ``GAME_TONK_SPADES``.
"""

MODULES = (
    "numbers",
    "florida_bingo",
    "flop_a",
    "three_thirty_three",
    "high_card",
    "grocery_store_dots",
    "poker_high",
    "not_poker",
    "tonk",
    "tonk_spades",
)
