"""Odds: each seat's chances in a showdown whose cards are still to come (docs/rules.md
"Odds"), one package, a module per step:

- ``request``: the caller's request read and checked once (``read_odds``), in
  ``validation``'s words where a showdown shares the rule; whether a game serves Odds.
- ``plan``: the checked request read once into a plan (``plan_odds``): the deal, exact or
  sampled, the run-outs and the chunk size; and its cost (``odds_cost``).
- ``deal``: the completions, counted, enumerated (weighted) or sampled.
- ``rules``: the shape of a game's Odds rules (``OddsGame``), which each game module fills.
- ``showdown``: the vectorised showdown's shared steps the games' pot rules are made of.
- ``tally``: the running sums and the answer (``Odds``).
- ``run``: the front door (``odds``, ``run_odds``), chunk by chunk under ``keep_going``.

The games import ``rules`` and ``showdown`` while ``plan`` and ``run`` read the registry of
games, so the names below are loaded from their modules when first asked for (PEP 562):
importing them here would make every game import the registry that imports it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what the names below are, for the type checker
    from evaluators.odds.plan import CHUNK_BYTES as CHUNK_BYTES
    from evaluators.odds.plan import CHUNK_SECONDS as CHUNK_SECONDS
    from evaluators.odds.plan import MIN_CHUNK as MIN_CHUNK
    from evaluators.odds.plan import OddsLimits as OddsLimits
    from evaluators.odds.plan import PlannedOdds as PlannedOdds
    from evaluators.odds.plan import odds_cost as odds_cost
    from evaluators.odds.plan import plan_odds as plan_odds
    from evaluators.odds.request import OddsRequest as OddsRequest
    from evaluators.odds.request import OddsSeat as OddsSeat
    from evaluators.odds.request import OddsSeatText as OddsSeatText
    from evaluators.odds.request import odds_violations as odds_violations
    from evaluators.odds.request import read_odds as read_odds
    from evaluators.odds.request import serves_odds as serves_odds
    from evaluators.odds.run import odds as odds
    from evaluators.odds.run import run_odds as run_odds
    from evaluators.odds.tally import Odds as Odds
    from evaluators.odds.tally import PotOdds as PotOdds
    from evaluators.odds.tally import SeatOdds as SeatOdds

EXPORTS = {
    "plan": (
        "CHUNK_BYTES",
        "CHUNK_SECONDS",
        "MIN_CHUNK",
        "OddsLimits",
        "PlannedOdds",
        "odds_cost",
        "plan_odds",
    ),
    "request": (
        "OddsRequest",
        "OddsSeat",
        "OddsSeatText",
        "odds_violations",
        "read_odds",
        "serves_odds",
    ),
    "run": ("odds", "run_odds"),
    "tally": ("Odds", "PotOdds", "SeatOdds"),
}
"""Module -> the names this package exports from it."""

_MODULE_OF = {name: module for module, names in EXPORTS.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
