"""Tonk (rummy family): the deadwood search (``deadwood``) and the settlement in stakes
(``settlement``), gathered here as the game's ``RULES``.

Strength points up: ``1000 - points``, so fewer points (the drop comparison) is stronger.
"""

from __future__ import annotations

from evaluators.cards import card_text
from evaluators.costs import UnitCost
from evaluators.figures import cards_text, enum_text, yes_no
from evaluators.game_rules import Figure, GameRules
from evaluators.games.tonk import deadwood, settlement
from evaluators.games.tonk.deadwood import TonkDetail
from evaluators.inputs import Game
from evaluators.results import Evaluation

SUMMARY = (
    "Tonk (rummy family, 5, 7 or 9 cards dealt). Cards count A = 1, 2-10 face value, "
    "J/Q/K = 10; points are the sum of the hand. Spreads are 3 or 4 cards of one rank or "
    "3+ consecutive cards of one suit (ace low or high, never K-A-2); a hand card may also "
    "hit a spread on the table (option hit_runs_only: runs only). Deadwood is the least "
    "sum of points left after the best spreads and hits; a tonk lays down the whole hand. "
    "Strength: fewer points is stronger (a drop compares points). Showdowns settle in "
    "stakes: tonk 2 from everyone, out 1, drop (caught droppers pay double), stock out, "
    "deal (a dealt bonus: nine or less 3, thirteen or less 2, fifty or forty-nine 1). "
    "Showdown house rules: texas (Texas Tonk payouts), six_card_tonk (a tonk of fewer "
    "than six cards is paid as an out)."
)


def figures(evaluation: Evaluation) -> list[Figure]:
    detail = evaluation.detail_as(TonkDetail)
    hits = ", ".join(f"{card_text(h.card)} on table spread {h.spread_index}" for h in detail.hits)
    return [
        ("points", str(detail.points), True),
        ("deadwood", str(detail.deadwood), True),
        ("spreads", ", ".join(cards_text(s) for s in detail.spreads) or "-", False),
        ("hits", hits or "-", False),
        ("deadwood cards", cards_text(detail.deadwood_cards), True),
        ("tonk", yes_no(detail.tonk), False),
        ("deal bonus", enum_text(detail.deal_bonus), False),
    ]


RULES = GameRules(
    game=Game.TONK,
    name="Tonk",
    number=0,
    summary=SUMMARY,
    hand_min=1,
    hand_max=10,
    table_min=0,
    table_max=0,
    evaluate=deadwood.evaluate,
    evaluate_batch=deadwood.evaluate_batch,
    reference_batch=deadwood.reference_batch,
    resolve=settlement.settle,
    headline=deadwood.headline,
    figures=figures,
    detail=TonkDetail,
    pots=(),
    options=("hit_runs_only", "texas", "six_card_tonk"),
    showdown_options=("texas", "six_card_tonk"),
    check_spread=deadwood.check_spread,
    check_showdown=settlement.check_ending,
    empty_hand_allowed=settlement.empty_hand_allowed,
    batch_cost=UnitCost(cpu_ns=40, bytes=16),
)
