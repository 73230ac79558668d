"""Showdown test helpers: evaluations built by hand (strength: higher is better), seats,
requests, and literal transcriptions of the shared pot rules of docs/rules.md, for the pot-rule
tests of ``test_showdown`` and of each game."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction
from math import gcd

from hypothesis import strategies as st

from evaluators.game_rules import Results
from evaluators.games.grocery_store_dots import DotsDetail
from evaluators.games.high_card import HighCardDetail
from evaluators.games.not_poker import NotPokerCategory, NotPokerDetail
from evaluators.games.three_thirty_three import BlackjackDetail
from evaluators.inputs import Declaration, Game, Seat, ShowdownRequest
from evaluators.point_totals import PointsDetail
from evaluators.poker import PokerDetail
from evaluators.results import Evaluation, Resolution
from evaluators.tables.five_card_classes import PokerCategory

H, L, B = Declaration.HIGH, Declaration.LOW, Declaration.BOTH
HALF = Fraction(1, 2)


def points_hand(high: float, low: float, out_after: int = 0) -> Evaluation:
    """A point-game hand; low_strength grows as the low total falls. An out hand scores 0."""
    if out_after:
        return Evaluation(0, "Out", PointsDetail(0, 0), 0, True, out_after)
    return Evaluation(
        int(high * 2), f"High {high}, low {low}", PointsDetail(high, low), int(200 - low * 2)
    )


def blackjack_hand(strength: int, out_after: int = 0) -> Evaluation:
    if out_after:
        return Evaluation(0, "Out", BlackjackDetail(0, False, False), 0, True, out_after)
    return Evaluation(strength, f"Blackjack {strength}", BlackjackDetail(strength, False, False))


def poker_hand(strength: int) -> Evaluation:
    detail = PokerDetail(PokerCategory.HIGH_CARD, 7463 - strength, ())
    return Evaluation(strength, f"Poker {strength}", detail)


def not_poker_hand(strength: int) -> Evaluation:
    detail = NotPokerDetail(NotPokerCategory.HIGH_CARD, (), ())
    return Evaluation(strength, f"NotPoker {strength}", detail)


def dots_hand(strength: int, dot_count: int) -> Evaluation:
    """A hand ranked by ``strength`` alone; its best five always reads as ace high."""
    ace_high = (51, 44, 29, 18, 6)  # As Kc 9d 6h 3h
    detail = DotsDetail(dot_count, PokerDetail(PokerCategory.HIGH_CARD, 7463 - strength, ace_high))
    return Evaluation(strength, f"Poker {strength}; {dot_count} dots", detail)


def high_card_hand(survived: int) -> Evaluation:
    return Evaluation(survived, f"Survived {survived}", HighCardDetail(survived, ()))


def seats(*evaluations: Evaluation) -> Results:
    """Seats named a, b, c, ... in order."""
    return tuple((chr(ord("a") + i), e) for i, e in enumerate(evaluations))


def request(
    game: Game, results: Results, declarations: Sequence[Declaration] = ()
) -> ShowdownRequest:
    decls: Sequence[Declaration | None] = declarations or [None] * len(results)
    return ShowdownRequest(
        game, tuple(Seat(player, (), d) for (player, _), d in zip(results, decls, strict=True))
    )


def shares(resolution: Resolution) -> dict[tuple[str, str], Fraction]:
    """(player, pot) -> share; each (player, pot) appears once."""
    table: dict[tuple[str, str], Fraction] = {}
    for award in resolution.awards:
        key = (award.player, award.pot)
        assert key not in table, f"two awards for {key}"
        table[key] = award.share
    return table


def assert_well_formed(resolution: Resolution) -> None:
    """Awards sum to exactly 1 in lowest terms, or are empty on a redeal."""
    if resolution.redeal:
        assert resolution.awards == ()
    else:
        assert sum(a.share for a in resolution.awards) == 1
    for award in resolution.awards:
        assert isinstance(award.share, Fraction)
        assert award.share > 0
        assert gcd(award.share.numerator, award.share.denominator) == 1
    assert resolution.explanation


Shares = dict[tuple[str, str], Fraction]


def literal_best(contenders: dict[str, int]) -> list[str]:
    top = max(contenders.values())
    return [p for p, v in contenders.items() if v == top]


def literal_instant(results: Results) -> Shares | None:
    """docs/rules.md: the player(s) with the smallest non-zero out_after win the whole pot."""
    outs = {p: e.out_after for p, e in results if e.out_after != 0}
    if not outs:
        return None
    first = min(outs.values())
    winners = [p for p, o in outs.items() if o == first]
    return {(p, "whole"): Fraction(1, len(winners)) for p in winners}


def literal_halves(halves: dict[str, dict[str, int]]) -> Shares:
    """Each named half split among its best; one player may appear in both halves."""
    result: Shares = defaultdict(Fraction)
    for pot, contenders in halves.items():
        winners = literal_best(contenders)
        for p in winners:
            result[(p, pot)] += Fraction(1, 2) / len(winners)
    return dict(result)


def as_shares(resolution: Resolution) -> Shares | None:
    assert_well_formed(resolution)
    return None if resolution.redeal else shares(resolution)


# Small value ranges make ties and equal out_after frequent.
point_hands = st.builds(
    points_hand,
    high=st.integers(0, 8).map(lambda n: n * 1.5),
    low=st.integers(0, 8).map(lambda n: n / 2),
    out_after=st.sampled_from([0, 0, 0, 0, 1, 2, 3]),
)
