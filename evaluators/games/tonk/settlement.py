"""Tonk settlement: who pays whom how many stakes when a game ends (RULES.md "Ending a game").

A Tonk showdown has no pot and no awards: every seat gets one payout (+ received,
- paid), in seat order, and they sum to zero because each stake moves from one seat to
another. Drops and stock outs compare ``points`` (lower is better), never deadwood.
"""

from __future__ import annotations

from collections.abc import Callable

from evaluators.cards import Violation
from evaluators.inputs import ShowdownRequest, TonkEnding
from evaluators.results import Evaluation, Payout, Resolution, TonkDetail

_NEEDS_ENDER = {
    TonkEnding.TONK: "laid down every card",
    TonkEnding.OUT: "went out",
    TonkEnding.DROP: "dropped",
}
_ENDING_NAMES = "tonk, out, drop or stock out"


def check_ending(request: ShowdownRequest) -> list[Violation]:
    """Problems with a Tonk showdown's ``ending`` and ``ender``, for people.

    Tonk, out and drop need the ender, one of the seats' players. A stock out has no
    ender, and one given there is refused rather than ignored: the caller may believe
    it counts for something, and a mistake must never silently yield a score.
    """
    if request.ending is None:
        return [Violation("ending", f"the ending is missing: one of {_ENDING_NAMES}")]
    players = [seat.player for seat in request.seats]
    if request.ending is TonkEnding.STOCK_OUT:
        if request.ender:
            return [
                Violation(
                    "ender",
                    f"a stock out has no ender (lowest points wins); leave it empty, "
                    f"not {request.ender!r}",
                )
            ]
        return []
    what = _NEEDS_ENDER[request.ending]
    if not request.ender:
        return [
            Violation(
                "ender",
                f"the ender is missing: a {request.ending.name.lower()} ending needs the "
                f"player who {what}",
            )
        ]
    if request.ender not in players:
        return [
            Violation(
                "ender",
                f"the ender {request.ender!r} has no seat here: one of "
                + ", ".join(repr(p) for p in players),
            )
        ]
    return []


def empty_hand_allowed(request: ShowdownRequest, player: str) -> bool:
    """The ender of a showdown ended by tonk or out may show an empty hand."""
    return (
        request.ending in (TonkEnding.TONK, TonkEnding.OUT)
        and bool(player)
        and player == request.ender
    )


def _points(evaluation: Evaluation) -> int:
    detail = evaluation.detail
    if not isinstance(detail, TonkDetail):
        raise TypeError("Tonk settlement needs Tonk evaluations")
    return detail.points


def _names(players: list[str]) -> str:
    if len(players) < 2:
        return "".join(players)
    return ", ".join(players[:-1]) + " and " + players[-1]


def settle(request: ShowdownRequest, results: tuple[tuple[str, Evaluation], ...]) -> Resolution:
    """Payouts in stakes, one per seat in seat order (summing to zero), from the ending.

    ``request`` is validated (``check_ending`` passed); ``results`` is (player,
    evaluation) per seat in seat order. Awards are always empty; a stock out tied for
    the lowest points is a redeal with every payout 0.
    """
    players = [player for player, _ in results]
    points = {player: _points(evaluation) for player, evaluation in results}
    stakes = dict.fromkeys(players, 0)

    def pay(payer: str, payee: str, amount: int) -> None:
        stakes[payer] -= amount
        stakes[payee] += amount

    ender = request.ender
    others = [p for p in players if p != ender]
    redeal = False
    if request.ending is TonkEnding.TONK:
        for player in others:
            pay(player, ender, 2)
        explanation = f"{ender} tonked: every other player pays {ender} 2 stakes."
    elif request.ending is TonkEnding.OUT:
        for player in others:
            pay(player, ender, 1)
        explanation = f"{ender} went out: every other player pays {ender} 1 stake."
    elif request.ending is TonkEnding.DROP:
        explanation = _settle_drop(ender, others, points, pay)
    elif request.ending is TonkEnding.STOCK_OUT:
        lowest = min(points.values())
        winners = [p for p in players if points[p] == lowest]
        if len(winners) > 1:
            redeal = True
            explanation = (
                f"The stock ran out with {_names(winners)} tied for the lowest points "
                f"({lowest}): redeal, nobody pays."
            )
        else:
            winner = winners[0]
            for player in players:
                if player != winner:
                    pay(player, winner, 1)
            explanation = (
                f"The stock ran out: {winner} has the lowest points ({lowest}); every "
                f"other player pays {winner} 1 stake."
            )
    else:
        raise ValueError("a Tonk showdown needs an ending")
    return Resolution(
        awards=(),
        redeal=redeal,
        explanation=explanation,
        payouts=tuple(Payout(p, stakes[p]) for p in players),
    )


def _settle_drop(
    dropper: str,
    others: list[str],
    points: dict[str, int],
    pay: Callable[[str, str, int], None],
) -> str:
    """Drop: the dropper alone lowest wins 1 from everyone, else is caught (RULES.md)."""
    mine = points[dropper]
    lowest_other = min(points[p] for p in others)
    if mine < lowest_other:
        for player in others:
            pay(player, dropper, 1)
        return (
            f"{dropper} dropped with the lowest points ({mine}): every other player pays "
            f"{dropper} 1 stake."
        )
    winners = [p for p in others if points[p] == lowest_other]
    losers = [p for p in others if p not in winners]
    undercut = [p for p in losers if points[p] < mine]
    for winner in winners:
        pay(dropper, winner, 2)
        for player in losers:
            pay(player, winner, 1)
    for player in undercut:
        pay(dropper, player, 1)
    text = (
        f"{dropper} dropped with {mine} points and was caught: {_names(winners)} "
        f"{'has' if len(winners) == 1 else 'have'} the lowest ({lowest_other}). "
        f"{dropper} pays 2 stakes to each winner"
    )
    if undercut:
        text += f" and 1 to each other player with fewer points ({_names(undercut)})"
    text += "."
    if losers:
        text += f" Every other player ({_names(losers)}) also pays each winner 1 stake."
    return text
