"""Pot resolution (evaluators/showdown.py), on evaluations built by hand.

Each rule and Ruling of RULES.md that decides a pot has a test; hypothesis then checks
every resolver against a literal transcription of its rule written below.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from fractions import Fraction
from math import gcd

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluators.game_rules import Resolver, Results
from evaluators.games.flop_a import check_declarations
from evaluators.games.flop_a import resolve as resolve_flop_a
from evaluators.games.grocery_store_dots import resolve as resolve_poker_and_dots
from evaluators.games.high_card import resolve as resolve_high_card
from evaluators.inputs import Declaration, Game, Seat, ShowdownRequest
from evaluators.point_totals import resolve_high_low
from evaluators.results import (
    Award,
    BlackjackDetail,
    DotsDetail,
    Evaluation,
    HighCardDetail,
    NotPokerCategory,
    NotPokerDetail,
    PointsDetail,
    PokerCategory,
    PokerDetail,
    Resolution,
)
from evaluators.showdown import resolve_single_pot

H, L, B = Declaration.HIGH, Declaration.LOW, Declaration.BOTH
HALF = Fraction(1, 2)

# --- evaluations built by hand (strength: higher is better) -------------------------------


def points(high: float, low: float, out_after: int = 0) -> Evaluation:
    """A point-game hand; low_strength grows as the low total falls. An out hand scores 0."""
    if out_after:
        return Evaluation(0, "Out", PointsDetail(0, 0), 0, True, out_after)
    return Evaluation(
        int(high * 2), f"High {high}, low {low}", PointsDetail(high, low), int(200 - low * 2)
    )


def blackjack(strength: int, out_after: int = 0) -> Evaluation:
    if out_after:
        return Evaluation(0, "Out", BlackjackDetail(0, False, False), 0, True, out_after)
    return Evaluation(strength, f"Blackjack {strength}", BlackjackDetail(strength, False, False))


def poker(strength: int) -> Evaluation:
    detail = PokerDetail(PokerCategory.HIGH_CARD, 7463 - strength, ())
    return Evaluation(strength, f"Poker {strength}", detail)


def not_poker(strength: int) -> Evaluation:
    detail = NotPokerDetail(NotPokerCategory.HIGH_CARD, (), ())
    return Evaluation(strength, f"NotPoker {strength}", detail)


def dots(strength: int, dot_count: int) -> Evaluation:
    """A hand ranked by ``strength`` alone; its best five always reads as ace high."""
    ace_high = (51, 44, 29, 18, 6)  # As Kc 9d 6h 3h
    detail = DotsDetail(dot_count, PokerDetail(PokerCategory.HIGH_CARD, 7463 - strength, ace_high))
    return Evaluation(strength, f"Poker {strength}; {dot_count} dots", detail)


def high_card(survived: int) -> Evaluation:
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


# --- instant win (discard games) ----------------------------------------------------------

DISCARD_GAMES: list[tuple[Game, Resolver, Sequence[Declaration]]] = [
    (Game.NUMBERS, resolve_high_low, ()),
    (Game.FLORIDA_BINGO, resolve_high_low, ()),
    (Game.FLOP_A, resolve_flop_a, (H, L, B)),
    (Game.THREE_THIRTY_THREE, resolve_single_pot, ()),
]


def discard_hand(game: Game, score: int, out_after: int = 0) -> Evaluation:
    if game is Game.THREE_THIRTY_THREE:
        return blackjack(score, out_after)
    return points(score, score, out_after)


@pytest.mark.parametrize(("game", "resolve", "declarations"), DISCARD_GAMES)
def test_running_out_of_cards_wins_the_whole_pot_whatever_the_totals(
    game: Game, resolve: Resolver, declarations: Sequence[Declaration]
) -> None:
    results = seats(
        discard_hand(game, 30), discard_hand(game, 0, out_after=4), discard_hand(game, 2)
    )
    resolution = resolve(request(game, results, declarations), results)
    assert shares(resolution) == {("b", "whole"): 1}
    assert not resolution.redeal
    assert "instant win" in resolution.explanation


@pytest.mark.parametrize(("game", "resolve", "declarations"), DISCARD_GAMES)
def test_the_earliest_player_out_wins_and_a_later_out_gets_nothing(
    game: Game, resolve: Resolver, declarations: Sequence[Declaration]
) -> None:
    results = seats(
        discard_hand(game, 0, out_after=5),
        discard_hand(game, 9),
        discard_hand(game, 0, out_after=3),
    )
    resolution = resolve(request(game, results, declarations), results)
    assert shares(resolution) == {("c", "whole"): 1}


@pytest.mark.parametrize(("game", "resolve", "declarations"), DISCARD_GAMES)
def test_players_out_at_the_same_table_card_split_the_whole_pot(
    game: Game, resolve: Resolver, declarations: Sequence[Declaration]
) -> None:
    results = seats(
        discard_hand(game, 0, out_after=2),
        discard_hand(game, 9),
        discard_hand(game, 0, out_after=2),
    )
    resolution = resolve(request(game, results, declarations), results)
    assert shares(resolution) == {("a", "whole"): HALF, ("c", "whole"): HALF}
    assert "a and c" in resolution.explanation


def test_flop_a_instant_win_ignores_the_declaration() -> None:
    results = seats(points(30, 30), points(0, 0, out_after=3))
    resolution = resolve_flop_a(request(Game.FLOP_A, results, (H, H)), results)
    assert shares(resolution) == {("b", "whole"): 1}


# --- Numbers, Florida Bingo ----------------------------------------------------------------


@pytest.mark.parametrize("game", [Game.NUMBERS, Game.FLORIDA_BINGO])
def test_highest_high_total_and_lowest_low_total_split_the_pot(game: Game) -> None:
    results = seats(points(25, 12), points(18, 3.5), points(20, 9))
    resolution = resolve_high_low(request(game, results), results)
    assert shares(resolution) == {("a", "high"): HALF, ("b", "low"): HALF}
    assert resolution.explanation == (
        "a wins the high half with a high total of 25; b wins the low half with a low total of 3½."
    )


def test_one_player_may_win_both_halves_as_two_awards() -> None:
    results = seats(points(25, 2), points(18, 9))
    resolution = resolve_high_low(request(Game.NUMBERS, results), results)
    assert resolution.awards == (Award("a", "high", HALF), Award("a", "low", HALF))


def test_a_tie_splits_only_that_half() -> None:
    results = seats(points(25, 10), points(25, 12), points(11, 0.5))
    resolution = resolve_high_low(request(Game.FLORIDA_BINGO, results), results)
    quarter = Fraction(1, 4)
    assert shares(resolution) == {
        ("a", "high"): quarter,
        ("b", "high"): quarter,
        ("c", "low"): HALF,
    }
    assert "a and b split the high half" in resolution.explanation


def test_a_three_way_tie_on_both_halves_gives_sixths() -> None:
    results = seats(points(20, 5), points(20, 5), points(20, 5))
    resolution = resolve_high_low(request(Game.NUMBERS, results), results)
    assert set(shares(resolution).values()) == {Fraction(1, 6)}
    assert len(resolution.awards) == 6


# --- Flop-A --------------------------------------------------------------------------------


def flop_a(declarations: Sequence[Declaration], *evaluations: Evaluation) -> Resolution:
    results = seats(*evaluations)
    resolution = resolve_flop_a(request(Game.FLOP_A, results, declarations), results)
    assert_well_formed(resolution)
    return resolution


def test_flop_a_high_declarers_share_the_high_half_and_low_declarers_the_low() -> None:
    resolution = flop_a((H, L, H, L), points(21, 21), points(5, 5), points(19, 19), points(4, 4))
    assert shares(resolution) == {("a", "high"): HALF, ("d", "low"): HALF}


def test_a_low_declarer_never_wins_the_high_half() -> None:
    resolution = flop_a((H, L), points(10, 10), points(30, 30))
    assert shares(resolution) == {("a", "high"): HALF, ("b", "low"): HALF}


def test_a_both_declarer_who_wins_both_halves_takes_both() -> None:
    resolution = flop_a((B, H, L), points(21, 3), points(20, 20), points(12, 4))
    assert resolution.awards == (Award("a", "high", HALF), Award("a", "low", HALF))


def test_a_tie_counts_as_winning_for_a_both_declarer() -> None:
    resolution = flop_a((B, H, L), points(21, 3), points(21, 20), points(12, 3))
    quarter = Fraction(1, 4)
    assert shares(resolution) == {
        ("a", "high"): quarter,
        ("b", "high"): quarter,
        ("a", "low"): quarter,
        ("c", "low"): quarter,
    }


def test_a_both_declarer_who_loses_a_half_gets_nothing_and_the_halves_are_decided_again() -> None:
    # a has the best high but loses the low to c; without a, b takes the high half.
    resolution = flop_a((B, H, L), points(21, 5), points(19, 19), points(12, 3))
    assert shares(resolution) == {("b", "high"): HALF, ("c", "low"): HALF}
    assert "a declares both without winning both halves and gets nothing" in resolution.explanation


def test_every_failing_both_declarer_is_removed_at_once() -> None:
    # a wins the high, b the low; both fail together, so c and d take the halves.
    resolution = flop_a((B, B, H, L), points(25, 9), points(10, 2), points(20, 20), points(15, 6))
    assert shares(resolution) == {("c", "high"): HALF, ("d", "low"): HALF}
    assert "a and b declare both" in resolution.explanation


def test_a_both_declarer_who_would_win_once_another_is_removed_is_removed_too() -> None:
    # a wins the high, b the low: both fail at once. Removed one by one, b would have won
    # both halves after a left; at once, only c (LOW) is left and takes the whole pot.
    resolution = flop_a((B, B, L), points(25, 9), points(20, 2), points(4, 5))
    assert shares(resolution) == {("c", "whole"): 1}


def test_with_nobody_declaring_low_the_high_half_takes_the_whole_pot() -> None:
    resolution = flop_a((H, H, H), points(21, 21), points(19, 19), points(21, 3))
    assert shares(resolution) == {("a", "whole"): HALF, ("c", "whole"): HALF}
    assert "Nobody is eligible for the low half" in resolution.explanation


def test_with_nobody_declaring_high_the_low_half_takes_the_whole_pot() -> None:
    resolution = flop_a((L, L), points(21, 9), points(19, 4))
    assert shares(resolution) == {("b", "whole"): 1}


def test_a_removed_both_declarer_can_leave_a_half_without_anyone_eligible() -> None:
    # a is the only low contender, fails the high to b, so b takes the whole pot.
    resolution = flop_a((B, H), points(19, 3), points(21, 21))
    assert shares(resolution) == {("b", "whole"): 1}


def test_flop_a_is_a_redeal_when_nobody_is_eligible_for_either_half() -> None:
    resolution = flop_a((B, B), points(25, 9), points(10, 2))
    assert resolution.redeal
    assert resolution.awards == ()
    assert "redeal" in resolution.explanation


def test_a_lone_both_declarer_who_wins_both_halves_is_not_a_redeal() -> None:
    resolution = flop_a((B, B), points(25, 2), points(10, 9))
    assert resolution.awards == (Award("a", "high", HALF), Award("a", "low", HALF))


def test_a_seat_without_a_declaration_is_refused_at_its_own_field() -> None:
    req = ShowdownRequest(
        Game.FLOP_A,
        (Seat("a", (), H), Seat("b", (), None), Seat("c", (), B), Seat("d", (), None)),
    )
    violations = check_declarations(req)
    assert [v.field for v in violations] == ["seats[1].declaration", "seats[3].declaration"]
    assert "'b' has no declaration" in violations[0].message


def test_declarations_present_everywhere_are_accepted() -> None:
    req = ShowdownRequest(Game.FLOP_A, (Seat("a", (), H), Seat("b", (), L), Seat("c", (), B)))
    assert check_declarations(req) == []


def test_resolving_flop_a_without_declarations_is_a_bug_not_a_guess() -> None:
    results = seats(points(10, 10), points(11, 11))
    with pytest.raises(ValueError, match="no declaration"):
        resolve_flop_a(request(Game.FLOP_A, results), results)


# --- single pot: Three Hundred Thirty Three, Poker high, NotPoker ---------------------------


@pytest.mark.parametrize(
    ("game", "make"),
    [(Game.THREE_THIRTY_THREE, blackjack), (Game.POKER_HIGH, poker), (Game.NOT_POKER, not_poker)],
)
def test_the_highest_strength_takes_the_whole_pot(
    game: Game, make: Callable[[int], Evaluation]
) -> None:
    results = seats(make(7), make(9), make(3))
    resolution = resolve_single_pot(request(game, results), results)
    assert shares(resolution) == {("b", "whole"): 1}
    assert resolution.explanation.startswith("b wins the whole pot with ")


@pytest.mark.parametrize(
    ("game", "make"),
    [(Game.THREE_THIRTY_THREE, blackjack), (Game.POKER_HIGH, poker), (Game.NOT_POKER, not_poker)],
)
def test_equal_strength_splits_the_whole_pot(game: Game, make: Callable[[int], Evaluation]) -> None:
    results = seats(make(9), make(9), make(3), make(9))
    resolution = resolve_single_pot(request(game, results), results)
    third = Fraction(1, 3)
    assert shares(resolution) == {
        ("a", "whole"): third,
        ("b", "whole"): third,
        ("d", "whole"): third,
    }
    assert "a, b and d split the whole pot" in resolution.explanation


def test_333_a_bust_hand_loses_to_any_hand_that_is_not_bust_by_strength() -> None:
    # Strength already ranks bust hands below every standing hand; the resolver just
    # compares it, so a weak standing hand beats a bust one.
    standing = Evaluation(3, "Hard 4", BlackjackDetail(4, False, False))
    bust = Evaluation(1, "Bust 26", BlackjackDetail(26, False, True))
    results = seats(bust, standing)
    resolution = resolve_single_pot(request(Game.THREE_THIRTY_THREE, results), results)
    assert shares(resolution) == {("b", "whole"): 1}


# --- High Card -----------------------------------------------------------------------------


def high(*survived: int) -> Resolution:
    results = seats(*(high_card(s) for s in survived))
    resolution = resolve_high_card(request(Game.HIGH_CARD, results), results)
    assert_well_formed(resolution)
    return resolution


def test_the_unique_longest_survivor_below_five_checks_wins() -> None:
    resolution = high(2, 3, 1)
    assert shares(resolution) == {("b", "whole"): 1}
    assert "b passes 3 of 5 checks" in resolution.explanation


def test_a_lone_survivor_of_all_five_checks_wins() -> None:
    assert shares(high(5, 4, 4)) == {("a", "whole"): 1}


def test_a_tie_at_the_top_below_five_is_a_redeal() -> None:
    resolution = high(3, 3, 1)
    assert resolution.redeal
    assert resolution.awards == ()
    assert "fold at check 4" in resolution.explanation


def test_everyone_folding_at_the_first_check_is_a_redeal() -> None:
    resolution = high(0, 0, 0)
    assert resolution.redeal
    assert resolution.explanation == "Everyone folds at the first check: redeal."


def test_players_surviving_all_five_checks_split_the_pot() -> None:
    resolution = high(5, 2, 5)
    assert shares(resolution) == {("a", "whole"): HALF, ("c", "whole"): HALF}


# --- Grocery Store Dots --------------------------------------------------------------------


def grocery(*evaluations: Evaluation) -> Resolution:
    results = seats(*evaluations)
    resolution = resolve_poker_and_dots(request(Game.GROCERY_STORE_DOTS, results), results)
    assert_well_formed(resolution)
    return resolution


def test_best_poker_hand_takes_the_high_half_and_most_dots_the_dots_half() -> None:
    resolution = grocery(dots(500, 4), dots(100, 11), dots(300, 7))
    assert shares(resolution) == {("a", "high"): HALF, ("b", "dots"): HALF}
    assert resolution.explanation == (
        "a wins the high half with High card, ace; b wins the dots half with 11 dots."
    )


def test_one_player_may_win_the_high_and_the_dots_half() -> None:
    resolution = grocery(dots(500, 12), dots(100, 11))
    assert resolution.awards == (Award("a", "high", HALF), Award("a", "dots", HALF))


def test_ties_split_each_half_of_grocery_store_dots() -> None:
    resolution = grocery(dots(500, 9), dots(500, 3), dots(100, 9), dots(200, 9))
    quarter, sixth = Fraction(1, 4), Fraction(1, 6)
    assert shares(resolution) == {
        ("a", "high"): quarter,
        ("b", "high"): quarter,
        ("a", "dots"): sixth,
        ("c", "dots"): sixth,
        ("d", "dots"): sixth,
    }


# --- properties against literal transcriptions of the rules ---------------------------------

Shares = dict[tuple[str, str], Fraction]


def literal_best(contenders: dict[str, int]) -> list[str]:
    top = max(contenders.values())
    return [p for p, v in contenders.items() if v == top]


def literal_instant(results: Results) -> Shares | None:
    """RULES.md: the player(s) with the smallest non-zero out_after win the whole pot."""
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


def literal_flop_a(results: Results, declarations: dict[str, Declaration]) -> Shares | None:
    """Flop-A as RULES.md words it; None is a redeal."""
    instant = literal_instant(results)
    if instant is not None:
        return instant
    hands = dict(results)
    players = set(hands)
    while True:
        high_in = {p: hands[p].strength for p in players if declarations[p] != Declaration.LOW}
        low_in = {p: hands[p].low_strength for p in players if declarations[p] != Declaration.HIGH}
        high_won = set(literal_best(high_in)) if high_in else set()
        low_won = set(literal_best(low_in)) if low_in else set()
        failed = {
            p
            for p in players
            if declarations[p] == Declaration.BOTH and not (p in high_won and p in low_won)
        }
        if not failed:
            break
        players -= failed
    if high_won and low_won:
        return literal_halves({"high": high_in, "low": low_in})
    if not high_won and not low_won:
        return None
    winners = high_won or low_won
    return {(p, "whole"): Fraction(1, len(winners)) for p in winners}


def literal_high_card(survived: list[int]) -> Shares | None:
    """The folding procedure of RULES.md, check by check; None is a redeal."""
    remaining = [chr(ord("a") + i) for i in range(len(survived))]
    for check in range(1, 6):
        remaining = [p for p in remaining if survived[ord(p) - ord("a")] >= check]
        if len(remaining) == 1:
            return {(remaining[0], "whole"): Fraction(1)}
        if not remaining:
            return None
    return {(p, "whole"): Fraction(1, len(remaining)) for p in remaining}


def as_shares(resolution: Resolution) -> Shares | None:
    assert_well_formed(resolution)
    return None if resolution.redeal else shares(resolution)


# Small value ranges make ties and equal out_after frequent.
point_hands = st.builds(
    points,
    high=st.integers(0, 8).map(lambda n: n * 1.5),
    low=st.integers(0, 8).map(lambda n: n / 2),
    out_after=st.sampled_from([0, 0, 0, 0, 1, 2, 3]),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(point_hands, min_size=2, max_size=7))
def test_high_low_matches_the_literal_rule(evaluations: list[Evaluation]) -> None:
    results = seats(*evaluations)
    expected = literal_instant(results) or literal_halves(
        {
            "high": {p: e.strength for p, e in results},
            "low": {p: e.low_strength for p, e in results},
        }
    )
    assert as_shares(resolve_high_low(request(Game.NUMBERS, results), results)) == expected


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(point_hands, st.sampled_from(list(Declaration))), min_size=2, max_size=7))
def test_flop_a_matches_the_literal_loop(seated: list[tuple[Evaluation, Declaration]]) -> None:
    results = seats(*(e for e, _ in seated))
    declared = [d for _, d in seated]
    expected = literal_flop_a(results, {p: d for (p, _), d in zip(results, declared, strict=True)})
    resolution = resolve_flop_a(request(Game.FLOP_A, results, declared), results)
    assert as_shares(resolution) == expected


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.builds(blackjack, st.integers(1, 6), st.sampled_from([0, 0, 0, 1, 2])),
        min_size=2,
        max_size=7,
    )
)
def test_single_pot_matches_the_literal_rule(evaluations: list[Evaluation]) -> None:
    results = seats(*evaluations)
    expected = literal_instant(results)
    if expected is None:
        winners = literal_best({p: e.strength for p, e in results})
        expected = {(p, "whole"): Fraction(1, len(winners)) for p in winners}
    resolution = resolve_single_pot(request(Game.THREE_THIRTY_THREE, results), results)
    assert as_shares(resolution) == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=2, max_size=7))
def test_high_card_matches_the_folding_procedure(survived: list[int]) -> None:
    resolution = high(*survived)
    assert as_shares(resolution) == literal_high_card(survived)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.builds(dots, st.integers(1, 4), st.integers(0, 4)), min_size=2, max_size=7))
def test_grocery_store_dots_matches_the_literal_rule(evaluations: list[Evaluation]) -> None:
    results = seats(*evaluations)
    expected = literal_halves(
        {
            "high": {p: e.strength for p, e in results},
            "dots": {p: e.detail.dots for p, e in results if isinstance(e.detail, DotsDetail)},
        }
    )
    assert as_shares(grocery(*evaluations)) == expected
