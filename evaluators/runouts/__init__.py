"""What a game builds its Odds rules from (``GameRules.odds``, ``game_odds.OddsGame``):

- ``deal``: the completions, counted, enumerated (weighted) or sampled.
- ``showdown``: the vectorised showdown's shared steps the games' pot rules are made of.
- ``poker_boards``: poker hands on many boards at once (Poker high's known holes).

The games import these while the registry gathers them, so nothing here reads the registry:
the front door that does (``evaluators.odds``) sits a floor above.
"""
