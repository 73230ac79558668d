"""Tonk settlement: who pays whom how many stakes when a game ends (docs/rules.md "Ending a game").

A Tonk showdown has no pot and no awards: every seat gets one payout (+ received,
- paid), in seat order, and they sum to zero because each stake moves from one seat to
another. Drops and stock outs compare ``points`` (lower is better), never deadwood.
"""

from __future__ import annotations

from collections.abc import Callable

from evaluators.cards import DECK_SIZE, card_text
from evaluators.errors import Violation
from evaluators.figures import cards_text
from evaluators.games.tonk import deadwood
from evaluators.games.tonk.deadwood import DealBonus, TonkDetail, check_spread
from evaluators.inputs import Cards, ShowdownRequest, TonkEnding
from evaluators.results import Evaluation, Payout, Resolution

_NEEDS_ENDER = {
    TonkEnding.TONK: "laid down every card",
    TonkEnding.OUT: "went out",
    TonkEnding.DROP: "dropped",
    TonkEnding.DEAL: "declared a deal bonus",
}
_ENDING_NAMES = (
    "TONK_ENDING_TONK (tonk), TONK_ENDING_OUT (out), TONK_ENDING_DROP (drop), "
    "TONK_ENDING_STOCK_OUT (stock out) or TONK_ENDING_DEAL (deal)"
)
"""The endings as the wire spells them, with the words people use beside them."""
DEAL_STAKES = {
    DealBonus.NINE_OR_LESS: 3,
    DealBonus.THIRTEEN_OR_LESS: 2,
    DealBonus.FIFTY: 1,
    DealBonus.FORTY_NINE: 1,
}
"""What every other player pays a deal ender, by the ender's bonus (Texas Tonk: fifty 2)."""
_BONUS_WORDS = {
    DealBonus.NINE_OR_LESS: "nine or less",
    DealBonus.THIRTEEN_OR_LESS: "thirteen or less",
    DealBonus.FIFTY: "fifty",
    DealBonus.FORTY_NINE: "forty-nine",
}
SIX_CARD_TONK = 6
"""Under ``six_card_tonk`` a tonk pays 2 only from a hand of at least this many cards."""


def check_ending(request: ShowdownRequest) -> list[Violation]:
    """Problems with a Tonk showdown's ``ending`` and ``ender``, for people.

    Tonk, out, drop and deal need the ender, one of the seats' players. A stock out has
    no ender, and one given there is refused rather than ignored: the caller may believe
    it counts for something, and a mistake must never silently yield a score. Once the
    ender is known, its hand must fit the ending (``check_fit``).
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
    return check_fit(request)


def _scorable(request: ShowdownRequest) -> bool:
    """Whether every hand and table spread is made of valid cards the search can read;
    otherwise their own violations stand and the fit is not judged."""
    hands_ok = all(
        len(seat.hand) <= 10 and all(c < DECK_SIZE for c in seat.hand) for seat in request.seats
    )
    return hands_ok and all(
        all(c < DECK_SIZE for c in spread) and check_spread(spread) is None
        for spread in request.table_spreads
    )


def check_fit(request: ShowdownRequest) -> list[Violation]:
    """The ender's hand must fit the ending (docs/rules.md), on a request whose ender is seated.

    Tonk: a non-empty hand lays down whole with the table spreads (and, under
    ``six_card_tonk``, is not empty). Out: a non-empty hand lays down whole once one card
    is taken away (a one-card hand fits). Deal: the hand is 5 cards carrying a deal bonus.
    """
    index = next(i for i, seat in enumerate(request.seats) if seat.player == request.ender)
    hand = request.seats[index].hand
    field = f"seats[{index}].hand"
    if request.ending is TonkEnding.TONK and not hand and request.options.six_card_tonk:
        return [
            Violation(
                field,
                "under six_card_tonk a tonk ender's hand cannot be empty: send the hand "
                "before laying down, so that its six or more cards can be checked",
            )
        ]
    if not hand or not _scorable(request):
        return []
    if request.ending is TonkEnding.TONK:
        left = _evaluate(request, hand)
        if left.tonk:
            return []
        return [Violation(field, f"this hand cannot tonk: {_left_text(left)}")]
    if request.ending is TonkEnding.OUT:
        if len(hand) == 1:
            return []
        rests = [_evaluate(request, hand[:i] + hand[i + 1 :]) for i in range(len(hand))]
        if any(rest.tonk for rest in rests):
            return []
        best = min(range(len(hand)), key=lambda i: rests[i].deadwood)
        return [
            Violation(
                field,
                f"this hand cannot go out: whichever card is discarded, cards are left; "
                f"at best, discarding {card_text(hand[best])}, {_left_text(rests[best])}",
            )
        ]
    if request.ending is TonkEnding.DEAL:
        detail = _evaluate(request, hand)
        if detail.deal_bonus is DealBonus.NONE:
            return [
                Violation(
                    "ender",
                    f"{request.ender}'s hand carries no deal bonus: {len(hand)} cards, "
                    f"{detail.points} points (a deal bonus is a dealt 5-card hand of 50, "
                    "49, 13 or less points)",
                )
            ]
    return []


def _evaluate(request: ShowdownRequest, hand: Cards) -> TonkDetail:
    evaluation = deadwood.evaluate(hand, (), request.table_spreads, request.options)
    return evaluation.detail_as(TonkDetail)


def _left_text(detail: TonkDetail) -> str:
    count = len(detail.deadwood_cards)
    verb = "is" if count == 1 else "are"
    return f"{cards_text(detail.deadwood_cards)} {verb} left, {detail.deadwood} points"


def empty_hand_allowed(request: ShowdownRequest, player: str) -> bool:
    """The ender of a showdown ended by tonk or out may show an empty hand."""
    return (
        request.ending in (TonkEnding.TONK, TonkEnding.OUT)
        and bool(player)
        and player == request.ender
    )


def _names(players: list[str]) -> str:
    if len(players) < 2:
        return "".join(players)
    return ", ".join(players[:-1]) + " and " + players[-1]


def _stakes(amount: int) -> str:
    return f"{amount} stake" + ("" if amount == 1 else "s")


Pay = Callable[[str, str, int], None]


def settle(request: ShowdownRequest, results: tuple[tuple[str, Evaluation], ...]) -> Resolution:
    """Payouts in stakes, one per seat in seat order (summing to zero), from the ending.

    ``request`` is validated (``check_ending`` passed); ``results`` is (player,
    evaluation) per seat in seat order. Awards are always empty; a stock out tied for
    the lowest points, and a deal bonus another seat was dealt too, are a redeal with
    every payout 0. The house rules ``texas`` and ``six_card_tonk`` change what they
    name and nothing else; the explanation says which rule decided the payouts.
    """
    players = [player for player, _ in results]
    details = {player: evaluation.detail_as(TonkDetail) for player, evaluation in results}
    points = {player: detail.points for player, detail in details.items()}
    stakes = dict.fromkeys(players, 0)

    def pay(payer: str, payee: str, amount: int) -> None:
        stakes[payer] -= amount
        stakes[payee] += amount

    ender = request.ender
    hand = {seat.player: seat.hand for seat in request.seats}
    others = [p for p in players if p != ender]
    options = request.options
    redeal = False
    if request.ending is TonkEnding.TONK and options.six_card_tonk:
        explanation = _settle_six_card_tonk(ender, len(hand[ender]), others, pay)
    elif request.ending is TonkEnding.TONK:
        for player in others:
            pay(player, ender, 2)
        explanation = _texas(options.texas, "a tonk is paid double")
        explanation += f"{ender} tonked: every other player pays {ender} 2 stakes."
    elif request.ending is TonkEnding.OUT:
        for player in others:
            pay(player, ender, 1)
        explanation = _texas(options.texas, "an out is paid the standard stake")
        explanation += f"{ender} went out: every other player pays {ender} 1 stake."
    elif request.ending is TonkEnding.DROP:
        explanation = _settle_drop(ender, others, points, pay, options.texas)
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
    elif request.ending is TonkEnding.DEAL:
        bonuses = {player: detail.deal_bonus for player, detail in details.items()}
        redeal, explanation = _settle_deal(ender, others, bonuses, pay, options.texas)
    else:
        raise ValueError("a Tonk showdown needs an ending")
    return Resolution(
        awards=(),
        redeal=redeal,
        explanation=explanation,
        payouts=tuple(Payout(p, stakes[p]) for p in players),
        ending=request.ending.name.lower(),
    )


def _texas(texas: bool, rule: str) -> str:
    """The Texas Tonk rule that decided a payout, as the explanation's first sentence."""
    return f"Texas Tonk: {rule}. " if texas else ""


def _settle_six_card_tonk(ender: str, cards: int, others: list[str], pay: Pay) -> str:
    """Six-card tonk: 2 from everyone for six or more cards laid down, else paid as an out."""
    if cards >= SIX_CARD_TONK:
        for player in others:
            pay(player, ender, 2)
        return (
            f"Six-card tonk: {ender} laid down {cards} cards: every other player pays "
            f"{ender} 2 stakes."
        )
    for player in others:
        pay(player, ender, 1)
    return (
        f"Six-card tonk: {ender} laid down only {cards} cards, fewer than six, so it is paid "
        f"as an out: every other player pays {ender} 1 stake."
    )


def _settle_deal(
    ender: str, others: list[str], bonuses: dict[str, DealBonus], pay: Pay, texas: bool
) -> tuple[bool, str]:
    """Deal: everyone pays the ender by the ender's bonus; the same bonus dealt to another
    seat is a redeal (docs/rules.md "two fifties are a draw")."""
    bonus = bonuses[ender]
    words = _BONUS_WORDS[bonus]
    same = [p for p in others if bonuses[p] is bonus]
    if same:
        return True, (
            f"{ender} declared {words}, but {_names(same)} {'was' if len(same) == 1 else 'were'}"
            f" dealt {words} too: redeal, nobody pays."
        )
    amount = DEAL_STAKES[bonus]
    rule = ""
    if texas and bonus is DealBonus.FIFTY:
        amount, rule = 2, _texas(texas, "a dealt fifty is paid double")
    elif texas and bonus is DealBonus.FORTY_NINE:
        rule = _texas(texas, "a dealt forty-nine is paid the standard stake")
    for player in others:
        pay(player, ender, amount)
    return False, (
        f"{rule}{ender} was dealt {words}: every other player pays {ender} {_stakes(amount)}."
    )


def _settle_drop(
    dropper: str, others: list[str], points: dict[str, int], pay: Pay, texas: bool
) -> str:
    """Drop: the dropper alone lowest wins 1 from everyone, else is caught (docs/rules.md);
    under ``texas`` a caught dropper pays only the winners."""
    mine = points[dropper]
    lowest_other = min(points[p] for p in others)
    if mine < lowest_other:
        for player in others:
            pay(player, dropper, 1)
        return _texas(texas, "a won drop is paid the standard stake") + (
            f"{dropper} dropped with the lowest points ({mine}): every other player pays "
            f"{dropper} 1 stake."
        )
    winners = [p for p in others if points[p] == lowest_other]
    losers = [p for p in others if p not in winners]
    undercut = [] if texas else [p for p in losers if points[p] < mine]
    for winner in winners:
        pay(dropper, winner, 2)
        for player in losers:
            pay(player, winner, 1)
    for player in undercut:
        pay(dropper, player, 1)
    text = _texas(texas, "a caught dropper pays the winner double and nobody else")
    text += (
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
