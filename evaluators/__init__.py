"""Pure scoring for the card games of docs/rules.md: card ids in, plain results out.

Imports nothing from ``service``, grpc or protobuf; a game server may use it directly:

>>> from evaluators.inputs import Game
>>> from evaluators.scoring import evaluate
>>> from evaluators.validation import read_hand
>>> evaluate(read_hand(Game.POKER_HIGH, ["Ah", "Kh"], ["Qh", "Jh", "Th"])).description
'Straight flush, ace high (royal flush)'

The front doors, each with an example the tests run (``tests/unit/test_doctests.py``):
``validation.read_hand``, ``scoring.evaluate``, ``scoring.showdown`` (of a request from
``validation.read_showdown``) and ``odds.odds`` (of one from ``odds.read_odds``).
"""
