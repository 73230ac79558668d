"""Odds: each seat's chances in a showdown whose cards are still to come (docs/rules.md
"Odds"), one package, a module per step:

- ``request``: the caller's request read and checked once (``read_odds``), in
  ``validation``'s words where a showdown shares the rule; whether a game serves Odds.
- ``plan``: the checked request read once into a plan (``plan_odds``): the deal, exact or
  sampled, the run-outs and the chunk size; and its cost (``odds_cost``).
- ``tally``: the running sums and the answer (``Odds``).
- ``run``: the front door (``odds``, ``run_odds``), chunk by chunk under ``keep_going``.

These read the registry of games. What the games build their Odds rules from sits a floor
below, in ``evaluators.game_odds`` (the shape) and ``evaluators.runouts`` (the deal, the
vectorised showdown, poker's boards), so that no game imports this package.
"""

from evaluators.odds.plan import (
    CHUNK_BYTES,
    CHUNK_SECONDS,
    MIN_CHUNK,
    OddsLimits,
    PlannedOdds,
    odds_cost,
    plan_odds,
)
from evaluators.odds.request import (
    OddsRequest,
    OddsSeat,
    OddsSeatText,
    odds_violations,
    read_odds,
    serves_odds,
)
from evaluators.odds.run import odds, run_odds
from evaluators.odds.tally import Odds, PotOdds, SeatOdds

__all__ = [
    "CHUNK_BYTES",
    "CHUNK_SECONDS",
    "MIN_CHUNK",
    "Odds",
    "OddsLimits",
    "OddsRequest",
    "OddsSeat",
    "OddsSeatText",
    "PlannedOdds",
    "PotOdds",
    "SeatOdds",
    "odds",
    "odds_cost",
    "odds_violations",
    "plan_odds",
    "read_odds",
    "run_odds",
    "serves_odds",
]
