"""Flop-A's pot rule: halves by declaration, the BOTH rule, redeals (docs/rules.md "Point totals"),
on evaluations built by hand, and against a literal transcription of the rule."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluators.game_rules import Results
from evaluators.games.flop_a import check_declarations
from evaluators.games.flop_a import resolve as resolve_flop_a
from evaluators.inputs import Declaration, Game, Seat, ShowdownRequest
from evaluators.results import Award, Evaluation, Resolution
from tests.unit.showdowns import (
    HALF,
    B,
    H,
    L,
    Shares,
    as_shares,
    assert_well_formed,
    literal_best,
    literal_halves,
    literal_instant,
    point_hands,
    points_hand,
    request,
    seats,
    shares,
)

HAND_EXAMPLE: dict[str, Any] = {"hand": ["Ah", "Kd", "5c"], "table": ["2s", "3h", "4d"]}
"""One valid hand (and its table, and table spreads where the game has them): the tests
that run every game read this file's examples (tests/unit/games/examples.py)."""
DETAIL_FIELD = "points"
"""The ``oneof detail`` field the game's evaluations fill (docs/api.md)."""
DETAIL_EXAMPLE: dict[str, Any] = {"high_total": 26.0, "low_total": 16.0}
"""The hand's detail as the wire carries it."""
FULL_DEAL = (3, 5)
"""The (hand, table) sizes the dealer deals by default: the most the game takes."""
SHOWDOWN_EXAMPLE: dict[str, Any] = {
    "seats": [
        ("alice", ["Ah", "Kd", "5c"], Declaration.HIGH),
        ("bob", ["4d", "9c", "Qs"], Declaration.LOW),
    ],
    "table": ["2s", "3h"],
}
"""One valid two-seat showdown."""


def test_flop_a_instant_win_ignores_the_declaration() -> None:
    results = seats(points_hand(30, 30), points_hand(0, 0, out_after=3))
    resolution = resolve_flop_a(request(Game.FLOP_A, results, (H, H)), results)
    assert shares(resolution) == {("b", "whole"): 1}


def flop_a(declarations: Sequence[Declaration], *evaluations: Evaluation) -> Resolution:
    results = seats(*evaluations)
    resolution = resolve_flop_a(request(Game.FLOP_A, results, declarations), results)
    assert_well_formed(resolution)
    return resolution


def test_flop_a_high_declarers_share_the_high_half_and_low_declarers_the_low() -> None:
    resolution = flop_a(
        (H, L, H, L), points_hand(21, 21), points_hand(5, 5), points_hand(19, 19), points_hand(4, 4)
    )
    assert shares(resolution) == {("a", "high"): HALF, ("d", "low"): HALF}


def test_a_low_declarer_never_wins_the_high_half() -> None:
    resolution = flop_a((H, L), points_hand(10, 10), points_hand(30, 30))
    assert shares(resolution) == {("a", "high"): HALF, ("b", "low"): HALF}


def test_a_both_declarer_who_wins_both_halves_takes_both() -> None:
    resolution = flop_a((B, H, L), points_hand(21, 3), points_hand(20, 20), points_hand(12, 4))
    assert resolution.awards == (Award("a", "high", HALF), Award("a", "low", HALF))


def test_a_tie_counts_as_winning_for_a_both_declarer() -> None:
    resolution = flop_a((B, H, L), points_hand(21, 3), points_hand(21, 20), points_hand(12, 3))
    quarter = Fraction(1, 4)
    assert shares(resolution) == {
        ("a", "high"): quarter,
        ("b", "high"): quarter,
        ("a", "low"): quarter,
        ("c", "low"): quarter,
    }


def test_a_both_declarer_who_loses_a_half_gets_nothing_and_the_halves_are_decided_again() -> None:
    # a has the best high but loses the low to c; without a, b takes the high half.
    resolution = flop_a((B, H, L), points_hand(21, 5), points_hand(19, 19), points_hand(12, 3))
    assert shares(resolution) == {("b", "high"): HALF, ("c", "low"): HALF}
    assert "a declares both without winning both halves and gets nothing" in resolution.explanation


def test_every_failing_both_declarer_is_removed_at_once() -> None:
    # a wins the high, b the low; both fail together, so c and d take the halves.
    resolution = flop_a(
        (B, B, H, L),
        points_hand(25, 9),
        points_hand(10, 2),
        points_hand(20, 20),
        points_hand(15, 6),
    )
    assert shares(resolution) == {("c", "high"): HALF, ("d", "low"): HALF}
    assert "a and b declare both" in resolution.explanation


def test_a_both_declarer_who_would_win_once_another_is_removed_is_removed_too() -> None:
    # a wins the high, b the low: both fail at once. Removed one by one, b would have won
    # both halves after a left; at once, only c (LOW) is left and takes the whole pot.
    resolution = flop_a((B, B, L), points_hand(25, 9), points_hand(20, 2), points_hand(4, 5))
    assert shares(resolution) == {("c", "whole"): 1}


def test_with_nobody_declaring_low_the_high_half_takes_the_whole_pot() -> None:
    resolution = flop_a((H, H, H), points_hand(21, 21), points_hand(19, 19), points_hand(21, 3))
    assert shares(resolution) == {("a", "whole"): HALF, ("c", "whole"): HALF}
    assert "Nobody is eligible for the low half" in resolution.explanation


def test_with_nobody_declaring_high_the_low_half_takes_the_whole_pot() -> None:
    resolution = flop_a((L, L), points_hand(21, 9), points_hand(19, 4))
    assert shares(resolution) == {("b", "whole"): 1}


def test_a_removed_both_declarer_can_leave_a_half_without_anyone_eligible() -> None:
    # a is the only low contender, fails the high to b, so b takes the whole pot.
    resolution = flop_a((B, H), points_hand(19, 3), points_hand(21, 21))
    assert shares(resolution) == {("b", "whole"): 1}


def test_flop_a_is_a_redeal_when_nobody_is_eligible_for_either_half() -> None:
    resolution = flop_a((B, B), points_hand(25, 9), points_hand(10, 2))
    assert resolution.redeal
    assert resolution.awards == ()
    assert "redeal" in resolution.explanation


def test_a_lone_both_declarer_who_wins_both_halves_is_not_a_redeal() -> None:
    resolution = flop_a((B, B), points_hand(25, 2), points_hand(10, 9))
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
    results = seats(points_hand(10, 10), points_hand(11, 11))
    with pytest.raises(ValueError, match="no declaration"):
        resolve_flop_a(request(Game.FLOP_A, results), results)


def literal_flop_a(results: Results, declarations: dict[str, Declaration]) -> Shares | None:
    """Flop-A as docs/rules.md words it; None is a redeal."""
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


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(point_hands, st.sampled_from(list(Declaration))), min_size=2, max_size=7))
def test_flop_a_matches_the_literal_loop(seated: list[tuple[Evaluation, Declaration]]) -> None:
    results = seats(*(e for e, _ in seated))
    declared = [d for _, d in seated]
    expected = literal_flop_a(results, {p: d for (p, _), d in zip(results, declared, strict=True)})
    resolution = resolve_flop_a(request(Game.FLOP_A, results, declared), results)
    assert as_shares(resolution) == expected
