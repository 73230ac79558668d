"""The shared pot rules (evaluators/showdown.py, the high-low split of point_totals), on
evaluations built by hand; each game's own pot rule is tested beside the game.

Each rule and Ruling of docs/rules.md that decides a pot has a test; hypothesis then checks
every resolver against a literal transcription of its rule written below.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluators.game_rules import Resolver
from evaluators.games.flop_a import resolve as resolve_flop_a
from evaluators.games.three_thirty_three import BlackjackDetail
from evaluators.inputs import Declaration, Game
from evaluators.point_totals import resolve_high_low
from evaluators.results import Award, Evaluation
from evaluators.showdown import resolve_single_pot
from tests.unit.showdowns import (
    HALF,
    B,
    H,
    L,
    as_shares,
    blackjack_hand,
    literal_best,
    literal_halves,
    literal_instant,
    not_poker_hand,
    point_hands,
    points_hand,
    poker_hand,
    request,
    seats,
    shares,
)

# --- instant win (discard games) ----------------------------------------------------------

DISCARD_GAMES: list[tuple[Game, Resolver, Sequence[Declaration]]] = [
    (Game.NUMBERS, resolve_high_low, ()),
    (Game.FLORIDA_BINGO, resolve_high_low, ()),
    (Game.FLOP_A, resolve_flop_a, (H, L, B)),
    (Game.THREE_THIRTY_THREE, resolve_single_pot, ()),
]


def discard_hand(game: Game, score: int, out_after: int = 0) -> Evaluation:
    if game is Game.THREE_THIRTY_THREE:
        return blackjack_hand(score, out_after)
    return points_hand(score, score, out_after)


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


# --- Numbers, Florida Bingo ----------------------------------------------------------------


@pytest.mark.parametrize("game", [Game.NUMBERS, Game.FLORIDA_BINGO])
def test_highest_high_total_and_lowest_low_total_split_the_pot(game: Game) -> None:
    results = seats(points_hand(25, 12), points_hand(18, 3.5), points_hand(20, 9))
    resolution = resolve_high_low(request(game, results), results)
    assert shares(resolution) == {("a", "high"): HALF, ("b", "low"): HALF}
    assert resolution.explanation == (
        "a wins the high half with a high total of 25; b wins the low half with a low total of 3½."
    )


def test_one_player_may_win_both_halves_as_two_awards() -> None:
    results = seats(points_hand(25, 2), points_hand(18, 9))
    resolution = resolve_high_low(request(Game.NUMBERS, results), results)
    assert resolution.awards == (Award("a", "high", HALF), Award("a", "low", HALF))


def test_a_tie_splits_only_that_half() -> None:
    results = seats(points_hand(25, 10), points_hand(25, 12), points_hand(11, 0.5))
    resolution = resolve_high_low(request(Game.FLORIDA_BINGO, results), results)
    quarter = Fraction(1, 4)
    assert shares(resolution) == {
        ("a", "high"): quarter,
        ("b", "high"): quarter,
        ("c", "low"): HALF,
    }
    assert "a and b split the high half" in resolution.explanation


def test_a_three_way_tie_on_both_halves_gives_sixths() -> None:
    results = seats(points_hand(20, 5), points_hand(20, 5), points_hand(20, 5))
    resolution = resolve_high_low(request(Game.NUMBERS, results), results)
    assert set(shares(resolution).values()) == {Fraction(1, 6)}
    assert len(resolution.awards) == 6


# --- single pot: Three Hundred Thirty Three, Poker high, NotPoker ---------------------------


@pytest.mark.parametrize(
    ("game", "make"),
    [
        (Game.THREE_THIRTY_THREE, blackjack_hand),
        (Game.POKER_HIGH, poker_hand),
        (Game.NOT_POKER, not_poker_hand),
    ],
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
    [
        (Game.THREE_THIRTY_THREE, blackjack_hand),
        (Game.POKER_HIGH, poker_hand),
        (Game.NOT_POKER, not_poker_hand),
    ],
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


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.builds(blackjack_hand, st.integers(1, 6), st.sampled_from([0, 0, 0, 1, 2])),
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
