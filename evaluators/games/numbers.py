"""Numbers (#137): the discard rule, then high and low point totals split the pot.

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
    "Numbers (#137): five cards each, up to seven table cards turned one by one; after "
    "each, every hand card of its rank is discarded and a player left with no cards wins "
    "at once. Otherwise the kept cards are totalled: high counts A 15, J Q K 10; low "
    "counts A 1, J Q K 10; others face value. Highest high and lowest low split the pot."
)

VALUES = PointValues(
    high=(*FACES, 10, 10, 10, 15),
    low_halves=tuple(2 * v for v in (*FACES, 10, 10, 10, 1)),
)


ODDS_DISCARD = point_totals.odds_discard(VALUES)
"""The figures Odds' compiled discard rule makes."""

RULES = point_totals.game_rules(
    VALUES,
    game=Game.NUMBERS,
    name="Numbers",
    number=137,
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
