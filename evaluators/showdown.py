"""What every game's pot rule shares: best-of with ties, exact shares, halves, instant wins.

Each game's own pot rule lives in its module under ``evaluators.games`` and is built from
these pieces. A resolver takes the validated request and each seat's evaluation (seat
order) and returns a ``Resolution``. Shares are exact ``Fraction``s of the *whole* pot, summing to 1
over one showdown, or no awards at all when the hand is a redeal. A half of a split pot
is the ``"high"``, ``"low"`` or ``"dots"`` pot; an undivided pot is ``"whole"``.

Every ranking read here points up: a larger key (``strength``, ``low_strength``, a
game's own figure) is better.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from fractions import Fraction

from evaluators.game_rules import Resolver, Results
from evaluators.inputs import ShowdownRequest
from evaluators.results import Award, Evaluation, Resolution

WHOLE = Fraction(1)
HALF = Fraction(1, 2)


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
    """Players with the smallest non-zero ``out_after`` (docs/rules.md Ruling), seat order.

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


def description(evaluation: Evaluation) -> str:
    return evaluation.description


def strength(evaluation: Evaluation) -> int:
    return evaluation.strength


def low_strength(evaluation: Evaluation) -> int:
    return evaluation.low_strength


def won_with(
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
    return share_out(winners, pot, HALF), won_with(results, winners, f"the {pot} half", why)


def split_pot(
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


@instant_win_first
def resolve_single_pot(request: ShowdownRequest, results: Results) -> Resolution:
    """The highest ``strength`` takes the whole pot, ties split it; an instant win first
    (it only fires in a game with the discard rule: the others report ``out_after`` 0)."""
    winners = best_players(results, strength)
    explanation = won_with(results, winners, "the whole pot", description) + "."
    return Resolution(share_out(winners, "whole", WHOLE), False, explanation)


def sentence(clauses: Sequence[str]) -> str:
    """Clauses as sentences; a clause may start with a player id, which keeps its case."""
    return " ".join(clause + "." for clause in clauses)
