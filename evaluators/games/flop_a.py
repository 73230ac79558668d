"""Flop-A (#1035): point totals over the kept cards, and each player declares a half.

High counts A 11, low A 1, J Q K 10 and others face value in both. Strength points up:
the high total (higher is better); ``low_strength`` is higher for a lower low total
(``point_totals``). The pot rule reads the declarations: HIGH, LOW or BOTH, and a BOTH
declarer must win both halves or gets nothing (docs/rules.md "Point totals").
"""

from __future__ import annotations

import numpy as np

from evaluators import point_totals
from evaluators.costs import UnitCost
from evaluators.errors import Violation
from evaluators.game_odds import CompiledPot, Declarations, Figures, Split
from evaluators.game_rules import Results
from evaluators.inputs import Declaration, Game, ShowdownRequest
from evaluators.kernels import _odds
from evaluators.point_totals import FACES, PointValues, high_why, low_why
from evaluators.results import Award, Resolution
from evaluators.runouts import showdown as array_showdown
from evaluators.showdown import (
    HALF,
    WHOLE,
    best_players,
    instant_win_first,
    low_strength,
    names_text,
    sentence,
    share_out,
    strength,
    won_with,
)

SUMMARY = (
    "Flop-A (#1035): three cards each, up to five table cards; hand cards of a table card's "
    "rank are discarded and an emptied hand wins at once. High counts A 11, low A 1, J Q K "
    "10 and others face value in both. Each player declares high, low or both; a player "
    "declaring both must win both halves or gets nothing."
)

VALUES = PointValues(
    high=(*FACES, 10, 10, 10, 11),
    low_halves=tuple(2 * v for v in (*FACES, 10, 10, 10, 1)),
)


def check_declarations(request: ShowdownRequest) -> list[Violation]:
    """Every seat must declare HIGH, LOW or BOTH.

    A declaration sent in any other game is ignored, not refused: no other game reads it,
    so it cannot change a score, and the contract's error table does not list it.
    """
    return [
        Violation(
            f"seats[{index}].declaration",
            f"player {seat.player!r} has no declaration: in Flop-A every player declares "
            "high, low or both",
        )
        for index, seat in enumerate(request.seats)
        if seat.declaration is None
    ]


_GOES_HIGH = (Declaration.HIGH, Declaration.BOTH)
_GOES_LOW = (Declaration.LOW, Declaration.BOTH)


def half_winners(
    declarations: dict[str, Declaration], results: Results
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """(high winners, low winners, removed BOTH declarers) after the BOTH rule.

    Each round decides both halves among the players still in; every BOTH declarer who
    does not win (a tie counts) both halves is removed, all at once, and the halves are
    decided again. Repeated until no BOTH declarer fails, though one removal is always
    enough: a BOTH declarer who won both halves still does with fewer players.
    """
    still_in = results
    removed: list[str] = []
    while True:
        high = best_players(
            tuple(r for r in still_in if declarations[r[0]] in _GOES_HIGH), strength
        )
        low = best_players(
            tuple(r for r in still_in if declarations[r[0]] in _GOES_LOW), low_strength
        )
        failing = {
            player
            for player, _ in still_in
            if declarations[player] is Declaration.BOTH and not (player in high and player in low)
        }
        if not failing:
            return high, low, tuple(removed)
        removed.extend(player for player, _ in still_in if player in failing)
        still_in = tuple(r for r in still_in if r[0] not in failing)


@instant_win_first
def resolve(request: ShowdownRequest, results: Results) -> Resolution:
    """Halves by declaration with the BOTH rule (see ``half_winners``).

    If nobody is eligible for one half the other takes the whole pot (pot ``whole``);
    if nobody is eligible for either, redeal. An instant win first.
    """
    declarations: dict[str, Declaration] = {}
    for seat in request.seats:
        if seat.declaration is None:
            raise ValueError(f"seat {seat.player!r} has no declaration; validate first")
        declarations[seat.player] = seat.declaration
    high, low, removed = half_winners(declarations, results)
    clauses: list[str] = []
    if removed:
        verbs = ("declares", "gets") if len(removed) == 1 else ("declare", "get")
        clauses.append(
            f"{names_text(removed)} {verbs[0]} both without winning both halves and "
            f"{verbs[1]} nothing"
        )
    awards: tuple[Award, ...]
    if high and low:
        awards = share_out(high, "high", HALF) + share_out(low, "low", HALF)
        clauses.append(won_with(results, high, "the high half", high_why))
        clauses.append(won_with(results, low, "the low half", low_why))
    elif high or low:
        winners, missing, why = (high, "low", high_why) if high else (low, "high", low_why)
        awards = share_out(winners, "whole", WHOLE)
        clauses.append(
            f"Nobody is eligible for the {missing} half, so "
            + won_with(results, winners, "the whole pot", why)
        )
    else:
        clauses.append("Nobody is eligible for either half: redeal")
        return Resolution((), True, sentence(clauses))
    return Resolution(awards, False, sentence(clauses))


def goes(declaration: Declaration | None) -> tuple[bool, bool]:
    """Whether a seat that declared ``declaration`` goes for the (high, low) half."""
    return declaration in _GOES_HIGH, declaration in _GOES_LOW


def odds_showdown(figures: Figures, declarations: Declarations) -> Split:
    """``resolve`` over arrays (Odds): halves by declaration; every BOTH declarer who
    fails to win (a tie counts) both halves is removed at once and the halves decided
    again; with nobody eligible for one half the other takes the whole pot, for neither a
    redeal. An instant win first."""
    goes_high = np.array([[d in _GOES_HIGH] for d in declarations])
    goes_low = np.array([[d in _GOES_LOW] for d in declarations])
    both = goes_high & goes_low
    still_in = np.ones(figures.strength.shape, dtype=np.bool_)
    while True:
        high = array_showdown.best(figures.strength, still_in & goes_high)
        low = array_showdown.best(figures.low_strength, still_in & goes_low)
        failing = still_in & both & ~(high & low)
        if not failing.any():
            break
        still_in &= ~failing
    has_high = array_showdown.across(np.logical_or, high)
    has_low = array_showdown.across(np.logical_or, low)
    instant, rest = array_showdown.instant_wins(figures.out_after)
    half = 0.5 * (rest * (has_high & has_low))
    one_half = rest * (has_high ^ has_low)
    whole = np.where(one_half > 0, high | low, instant)
    fractions = array_showdown.split_pots(
        [(high, half), (low, half), (whole, np.maximum(one_half, 1.0 - rest))]
    )
    redeal = ~(has_high | has_low) & (rest > 0)
    return Split(fractions, redeal)


ODDS_DISCARD = point_totals.odds_discard(VALUES)
"""The figures Odds' compiled discard rule makes."""

RULES = point_totals.game_rules(
    VALUES,
    game=Game.FLOP_A,
    name="Flop-A",
    number=1035,
    summary=SUMMARY,
    hand_max=3,
    table_max=5,
    resolve=resolve,
    check_showdown=check_declarations,
    odds=array_showdown.discard_odds(
        ODDS_DISCARD,
        hand_min=3,
        hand_max=3,
        showdown=odds_showdown,
        pot=CompiledPot(_odds.DECLARED, second="low_strength", instant_pot=2, goes=goes),
        runout_cost=UnitCost(cpu_ns=128, bytes=112),
    ),
)
