"""Numbers (#137): the discard rule, then high and low point totals split the pot.

Strength points up: the high total (higher is better); ``low_strength`` is higher for a
lower low total (``point_totals``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from evaluators import point_totals
from evaluators.costs import UnitCost
from evaluators.game_rules import GameRules
from evaluators.inputs import Cards, Game, Options
from evaluators.odds import showdown as odds_shared
from evaluators.odds.rules import OddsGame
from evaluators.point_totals import FACES, PointValues
from evaluators.results import BatchResult, Evaluation

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
_CARDS = point_totals.packed_card_values(VALUES)


def evaluate(
    hand: Cards, table: Cards, table_spreads: tuple[Cards, ...], options: Options
) -> Evaluation:
    return point_totals.evaluate(_CARDS, hand, table)


def evaluate_batch(
    hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8], options: Options
) -> BatchResult:
    return point_totals.evaluate_batch(VALUES, hands, tables)


def reference_batch(
    hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8], options: Options
) -> BatchResult:
    return point_totals.reference_batch(VALUES, hands, tables)


ODDS_DISCARD = point_totals.odds_discard(VALUES)
"""The figures Odds' compiled discard rule makes."""

RULES = GameRules(
    game=Game.NUMBERS,
    name="Numbers",
    number=137,
    summary=SUMMARY,
    hand_min=1,
    hand_max=5,
    table_min=0,
    table_max=7,
    distinct_table_ranks=True,
    evaluate=evaluate,
    evaluate_batch=evaluate_batch,
    reference_batch=reference_batch,
    resolve=point_totals.resolve_high_low,
    headline=point_totals.headline,
    figures=point_totals.figures,
    detail=point_totals.PointsDetail,
    pots=("high", "low", "whole"),
    odds=OddsGame(
        hand_min=5,
        hand_max=5,
        figures=odds_shared.discard_figures(ODDS_DISCARD),
        discard=ODDS_DISCARD,
        showdown=point_totals.odds_high_low,
        pot=point_totals.ODDS_HIGH_LOW,
        runout_cost=UnitCost(cpu_ns=160, bytes=96),
    ),
)
