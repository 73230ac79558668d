"""Florida Bingo (#508): Numbers with a different low count (A one half, J Q K 1).

Strength points up: the high total (higher is better); ``low_strength`` is higher for a
lower low total (``point_totals``).
"""

from __future__ import annotations

from evaluators import point_totals
from evaluators.costs import UnitCost
from evaluators.inputs import Game
from evaluators.point_totals import FACES, PointValues
from evaluators.runouts import showdown as array_showdown

SUMMARY = (
    "Florida Bingo (#508): Numbers with a different low count. Five cards each, up to "
    "seven table cards; hand cards of a table card's rank are discarded and an emptied "
    "hand wins at once. High counts A 15, J Q K 10; low counts A one half, J Q K 1; others "
    "face value. Highest high and lowest low split the pot."
)

VALUES = PointValues(
    high=(*FACES, 10, 10, 10, 15),
    low_halves=(*(2 * v for v in FACES), 2, 2, 2, 1),  # J Q K = 1, A = 1/2
)


ODDS_DISCARD = point_totals.odds_discard(VALUES)
"""The figures Odds' compiled discard rule makes."""

RULES = point_totals.game_rules(
    VALUES,
    game=Game.FLORIDA_BINGO,
    name="Florida Bingo",
    number=508,
    summary=SUMMARY,
    hand_max=5,
    table_max=7,
    odds=array_showdown.discard_odds(
        ODDS_DISCARD,
        hand_min=5,
        hand_max=5,
        showdown=point_totals.odds_high_low,
        pot=point_totals.ODDS_HIGH_LOW,
        runout_cost=UnitCost(cpu_ns=160, bytes=96),
    ),
)
