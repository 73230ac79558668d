"""The core's front door: score a validated hand, resolve a validated showdown.

Both look the game up in the registry; nothing here knows any game's rules.
"""

from __future__ import annotations

from evaluators.inputs import HandRequest, ShowdownRequest
from evaluators.registry import GAMES
from evaluators.results import Evaluation, ShowdownOutcome


def evaluate(request: HandRequest) -> Evaluation:
    rules = GAMES[request.game]
    return rules.evaluate(request.hand, request.table, request.table_spreads, request.options)


def showdown(request: ShowdownRequest) -> ShowdownOutcome:
    rules = GAMES[request.game]
    table, spreads, options = request.table, request.table_spreads, request.options
    results = tuple(
        (seat.player, rules.evaluate(seat.hand, table, spreads, options)) for seat in request.seats
    )
    resolution = rules.resolve(request, results)
    return ShowdownOutcome(
        results=results,
        awards=resolution.awards,
        redeal=resolution.redeal,
        payouts=resolution.payouts,
        explanation=resolution.explanation,
    )
