"""Pot resolution for every game but Tonk: who wins which share of the pot, and why.

A resolver takes the validated request and each seat's evaluation (seat order) and
returns a ``Resolution``. Shares are exact ``Fraction``s of the *whole* pot, summing to 1
over one showdown, or no awards at all when the hand is a redeal. A half of a split pot
is the ``"high"``, ``"low"`` or ``"dots"`` pot; an undivided pot is ``"whole"``.

Every ranking read here points up: larger ``strength``, ``low_strength``, ``dots`` and
``survived`` are better. The shared steps (best-of with ties, splitting a share, the
instant win of the discard games) are written once and used by every game.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from fractions import Fraction

from evaluators import poker
from evaluators.cards import Violation
from evaluators.inputs import Declaration, ShowdownRequest
from evaluators.results import (
    Award,
    DotsDetail,
    Evaluation,
    HighCardDetail,
    PointsDetail,
    Resolution,
)

Results = tuple[tuple[str, Evaluation], ...]
"""(player, evaluation) per seat, in seat order."""

Resolver = Callable[[ShowdownRequest, Results], Resolution]

WHOLE = Fraction(1)
HALF = Fraction(1, 2)
HIGH_CARD_CHECKS = 5


# --- shared steps -----------------------------------------------------------------------


def best_players(results: Results, key: Callable[[Evaluation], int]) -> tuple[str, ...]:
    """Players whose ``key`` is the largest (higher is better), in seat order.

    Several players on a tie; empty only when ``results`` is.
    """
    if not results:
        return ()
    top = max(key(evaluation) for _, evaluation in results)
    return tuple(player for player, evaluation in results if key(evaluation) == top)


def share_out(players: Sequence[str], pot: str, share: Fraction) -> tuple[Award, ...]:
    """``share`` of the whole pot split equally among ``players`` (exact, lowest terms)."""
    if not players:
        return ()
    each = share / len(players)
    return tuple(Award(player, pot, each) for player in players)


def names_text(players: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(players) <= 1:
        return "".join(players)
    return ", ".join(players[:-1]) + " and " + players[-1]


def wins_text(players: Sequence[str], what: str) -> str:
    """``alice wins the high half`` / ``alice and bob split the high half``."""
    verb = "wins" if len(players) == 1 else "split"
    return f"{names_text(players)} {verb} {what}"


def evaluation_of(results: Results, player: str) -> Evaluation:
    for seat_player, evaluation in results:
        if seat_player == player:
            return evaluation
    raise KeyError(player)


def instant_winners(results: Results) -> tuple[str, ...]:
    """Players with the smallest non-zero ``out_after`` (RULES.md Ruling), seat order.

    Empty when nobody ran out of cards. Games without the discard rule always report
    ``out_after`` 0, so for them this is always empty.
    """
    outs = [evaluation.out_after for _, evaluation in results if evaluation.out_after > 0]
    if not outs:
        return ()
    first = min(outs)
    return tuple(player for player, evaluation in results if evaluation.out_after == first)


def instant_win_first(resolver: Resolver) -> Resolver:
    """Wrap a discard game's resolver: an instant win takes the whole pot before anything.

    The earliest player(s) to run out of cards win (split if several), whatever the
    totals, declarations or later table cards; otherwise ``resolver`` decides.
    """

    @functools.wraps(resolver)
    def resolve(request: ShowdownRequest, results: Results) -> Resolution:
        winners = instant_winners(results)
        if not winners:
            return resolver(request, results)
        turned = evaluation_of(results, winners[0]).out_after
        verb = "runs" if len(winners) == 1 else "run"
        explanation = (
            f"{names_text(winners)} {verb} out of cards at table card {turned}: "
            f"{wins_text(winners, 'the whole pot')} (instant win)."
        )
        return Resolution(share_out(winners, "whole", WHOLE), False, explanation)

    return resolve


def _amount_text(value: float) -> str:
    """A point total with an exact half written as ``½`` (``3½``, ``½``, ``12``)."""
    whole = int(value)
    if value == whole:
        return str(whole)
    return f"{whole}½" if whole else "½"


def _high_why(evaluation: Evaluation) -> str:
    if isinstance(evaluation.detail, PointsDetail):
        return f"a high total of {_amount_text(evaluation.detail.high_total)}"
    return evaluation.description


def _low_why(evaluation: Evaluation) -> str:
    if isinstance(evaluation.detail, PointsDetail):
        return f"a low total of {_amount_text(evaluation.detail.low_total)}"
    return evaluation.description


def _description(evaluation: Evaluation) -> str:
    return evaluation.description


def _strength(evaluation: Evaluation) -> int:
    return evaluation.strength


def _low_strength(evaluation: Evaluation) -> int:
    return evaluation.low_strength


def _dots(evaluation: Evaluation) -> int:
    detail = evaluation.detail
    if not isinstance(detail, DotsDetail):
        raise TypeError(f"Grocery Store Dots needs a DotsDetail, got {type(detail).__name__}")
    return detail.dots


def _poker_why(evaluation: Evaluation) -> str:
    """The poker hand alone (a Grocery Store Dots description also counts the dots)."""
    detail = evaluation.detail
    if not isinstance(detail, DotsDetail):
        raise TypeError(f"Grocery Store Dots needs a DotsDetail, got {type(detail).__name__}")
    return poker.describe(detail.poker.category, detail.poker.best_five)


def _dots_why(evaluation: Evaluation) -> str:
    dots = _dots(evaluation)
    return "1 dot" if dots == 1 else f"{dots} dots"


def _survived(evaluation: Evaluation) -> int:
    detail = evaluation.detail
    if not isinstance(detail, HighCardDetail):
        raise TypeError(f"High Card needs a HighCardDetail, got {type(detail).__name__}")
    return detail.survived


def _won_with(
    results: Results, winners: Sequence[str], what: str, why: Callable[[Evaluation], str]
) -> str:
    """``alice wins the high half with a high total of 25`` (why: the first winner's figure)."""
    return f"{wins_text(winners, what)} with {why(evaluation_of(results, winners[0]))}"


def _half(
    results: Results,
    pot: str,
    key: Callable[[Evaluation], int],
    why: Callable[[Evaluation], str],
) -> tuple[tuple[Award, ...], str]:
    """One half of a split pot: its awards and a clause saying who won it and with what."""
    winners = best_players(results, key)
    if not winners:
        return (), ""
    return share_out(winners, pot, HALF), _won_with(results, winners, f"the {pot} half", why)


def _split_pot(
    results: Results,
    halves: Sequence[tuple[str, Callable[[Evaluation], int], Callable[[Evaluation], str]]],
) -> Resolution:
    """A pot split in two halves, each decided over every seat; one player may win both."""
    awards: list[Award] = []
    clauses: list[str] = []
    for pot, key, why in halves:
        half_awards, clause = _half(results, pot, key, why)
        awards.extend(half_awards)
        clauses.append(clause)
    return Resolution(tuple(awards), False, "; ".join(clauses) + ".")


# --- the games --------------------------------------------------------------------------


@instant_win_first
def resolve_high_low(request: ShowdownRequest, results: Results) -> Resolution:
    """Numbers, Florida Bingo: the highest high total takes the high half, the lowest low
    total (highest ``low_strength``) the low half; ties split a half. An instant win first.
    """
    return _split_pot(
        results,
        (("high", _strength, _high_why), ("low", _low_strength, _low_why)),
    )


@instant_win_first
def resolve_single_pot(request: ShowdownRequest, results: Results) -> Resolution:
    """Three Hundred Thirty Three, Poker high, NotPoker: the highest ``strength`` takes the
    whole pot, ties split it. 333's strength already ranks bust hands last (lower bust
    total higher). The instant-win step only ever fires in 333 (the others never discard).
    """
    winners = best_players(results, _strength)
    explanation = _won_with(results, winners, "the whole pot", _description) + "."
    return Resolution(share_out(winners, "whole", WHOLE), False, explanation)


def resolve_poker_and_dots(request: ShowdownRequest, results: Results) -> Resolution:
    """Grocery Store Dots: the best poker hand takes the ``high`` half and the most dots
    (all of a player's cards) the ``dots`` half; ties split a half, one player may win both.
    """
    return _split_pot(
        results,
        (
            ("high", _strength, _poker_why),
            ("dots", _dots, _dots_why),
        ),
    )


def resolve_high_card(request: ShowdownRequest, results: Results) -> Resolution:
    """High Card: the unique most ``survived`` checks wins the whole pot.

    A tie at the top below 5 means those players all fold at the same check and nobody is
    left: redeal (this covers everyone folding at the first check). A tie at 5 splits.
    """
    winners = best_players(results, _survived)
    top = _survived(evaluation_of(results, winners[0]))
    if len(winners) == 1:
        checks = "all 5 checks" if top == HIGH_CARD_CHECKS else f"{top} of 5 checks"
        explanation = (
            f"{winners[0]} passes {checks}, more than anyone else, and wins the whole pot."
        )
        return Resolution(share_out(winners, "whole", WHOLE), False, explanation)
    if top == HIGH_CARD_CHECKS:
        explanation = f"{wins_text(winners, 'the whole pot')}: they pass all 5 checks."
        return Resolution(share_out(winners, "whole", WHOLE), False, explanation)
    if top == 0:
        return Resolution((), True, "Everyone folds at the first check: redeal.")
    explanation = (
        f"{names_text(winners)} pass {top} of 5 checks and all fold at check {top + 1}, "
        "so everyone has folded: redeal."
    )
    return Resolution((), True, explanation)


def check_declarations(request: ShowdownRequest) -> list[Violation]:
    """Flop-A: every seat must declare HIGH, LOW or BOTH.

    Only Flop-A's registry entry calls this. A declaration sent in any other game is
    ignored, not refused: no other game reads it, so it cannot change a score, and the
    contract's error table does not list it.
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


def flop_a_winners(
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
            tuple(r for r in still_in if declarations[r[0]] in _GOES_HIGH), _strength
        )
        low = best_players(
            tuple(r for r in still_in if declarations[r[0]] in _GOES_LOW), _low_strength
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
def resolve_flop_a(request: ShowdownRequest, results: Results) -> Resolution:
    """Flop-A: halves by declaration with the BOTH rule (see ``flop_a_winners``).

    If nobody is eligible for one half the other takes the whole pot (pot ``whole``);
    if nobody is eligible for either, redeal. An instant win first.
    """
    declarations: dict[str, Declaration] = {}
    for seat in request.seats:
        if seat.declaration is None:
            raise ValueError(f"seat {seat.player!r} has no declaration; validate first")
        declarations[seat.player] = seat.declaration
    high, low, removed = flop_a_winners(declarations, results)
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
        clauses.append(_won_with(results, high, "the high half", _high_why))
        clauses.append(_won_with(results, low, "the low half", _low_why))
    elif high or low:
        winners, missing, why = (high, "low", _high_why) if high else (low, "high", _low_why)
        awards = share_out(winners, "whole", WHOLE)
        clauses.append(
            f"Nobody is eligible for the {missing} half, so "
            + _won_with(results, winners, "the whole pot", why)
        )
    else:
        clauses.append("Nobody is eligible for either half: redeal")
        return Resolution((), True, _sentence(clauses))
    return Resolution(awards, False, _sentence(clauses))


def _sentence(clauses: Sequence[str]) -> str:
    """Clauses as sentences; a clause may start with a player id, which keeps its case."""
    return " ".join(clause + "." for clause in clauses)
