"""High Card: the five checks against the table (docs/rules.md, "High Card")."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluators.cards import RANKS, parse_card
from evaluators.games import high_card
from evaluators.games.high_card import HighCardDetail
from evaluators.inputs import Cards, Game, Options
from evaluators.results import Evaluation, Resolution
from tests.unit.showdowns import (
    HALF,
    Shares,
    as_shares,
    assert_well_formed,
    high_card_hand,
    request,
    seats,
    shares,
)

HAND_EXAMPLE: dict[str, Any] = {
    "hand": ["Ah", "Kd", "5c", "9s", "Tc"],
    "table": ["2s", "3h", "4d", "6c", "7c"],
}
"""One valid hand (and its table, and table spreads where the game has them): the tests
that run every game read this file's examples (tests/unit/games/examples.py)."""
DETAIL_FIELD = "high_card"
"""The ``oneof detail`` field the game's evaluations fill (docs/api.md)."""
DETAIL_EXAMPLE: dict[str, Any] = {"survived": 5, "ascending": ["5c", "9s", "Tc", "Kd", "Ah"]}
"""The hand's detail as the wire carries it."""
FULL_DEAL = (5, 5)
"""The (hand, table) sizes the dealer deals by default: the most the game takes."""
SHOWDOWN_EXAMPLE: dict[str, Any] = {
    "seats": [("alice", ["Ah", "Kd", "5c", "9s", "Tc"]), ("bob", ["Ad", "Qd", "6h", "8s", "Jc"])],
    "table": ["2s", "3h", "4d", "6c", "7c"],
}
"""One valid two-seat showdown."""

ACE_HIGH = Options()
ACE_LOW = Options(ace_low=True)


def cards(text: str) -> Cards:
    return tuple(parse_card(c) for c in text.split())


def score(hand: str, table: str, options: Options = ACE_HIGH) -> Evaluation:
    return high_card.evaluate(cards(hand), cards(table), (), options)


def survived_by_folding(hand: Cards, table: Cards, ace_low: bool) -> int:
    """The seeds' loop, literally: check the n-th lowest cards until the hand folds."""
    order = "A23456789TJQK" if ace_low else "23456789TJQKA"
    mine = sorted(order.index(RANKS[c // 4]) for c in hand)
    theirs = sorted(order.index(RANKS[c // 4]) for c in table)
    survived = 0
    for n in range(5):
        if mine[n] < theirs[n]:
            return survived
        survived += 1
    return survived


def test_a_hand_above_the_table_at_every_check_survives_all_five() -> None:
    result = score("Ah 3d 7c 9s Kh", "2h 3c 8d Ts Qh")
    assert result.strength == 5
    assert result.detail == HighCardDetail(5, cards("3d 7c 9s Kh Ah"))
    assert result.description == "Survived all 5 checks"


def test_equal_is_not_lower() -> None:
    assert score("2h 5d 8c Js Ah", "2c 5s 8d Jh Ad").strength == 5


def test_the_hand_folds_at_its_first_lower_card() -> None:
    result = score("3h 4d 5c Ks Ah", "2h 3c 8d Ts Qh")
    assert result.strength == 2
    assert result.description == "Survived 2 of 5 checks: folds at the 3rd, 5 under the table's 8"


def test_a_later_higher_card_does_not_undo_a_fold() -> None:
    assert score("2d Kc Ks Ad Ac", "3h 4c 5d 6s 7h").strength == 0


def test_aces_are_high_by_default() -> None:
    assert score("Ah 3d 7c 9s Kh", "2h 3c 6d 8s Qh").strength == 5


def test_ace_low_makes_the_ace_the_lowest_card() -> None:
    result = score("Ah 3d 7c 9s Kh", "2h 3c 6d 8s Qh", ACE_LOW)
    assert result.strength == 0
    assert result.detail == HighCardDetail(0, cards("Ah 3d 7c 9s Kh"))
    assert result.description == "Survived 0 of 5 checks: folds at the 1st, A under the table's 2"


def test_ace_low_against_an_ace_on_the_table_is_equal_not_lower() -> None:
    assert score("Ah 3d 7c 9s Kh", "Ac 3c 6d 8s Qh", ACE_LOW).strength == 5


def test_suits_never_matter() -> None:
    assert score("4h 4d 9c 9s Kh", "4c 4s 9h 9d Kd").strength == 5
    assert score("4c 4d 9c 9s Kc", "4h 4s 9h 9d Kd").strength == 5


def test_the_sorting_network_sorts_every_zero_one_input() -> None:
    # The zero-one principle: a network sorting all 0/1 inputs sorts every input.
    for bits in itertools.product((0, 1), repeat=5):
        columns = [np.array([b], dtype=np.uint8) for b in bits]
        assert [int(c[0]) for c in high_card._sorted_columns(columns)] == sorted(bits)


@settings(max_examples=500, deadline=None)
@given(st.permutations(range(52)), st.booleans())
def test_survived_matches_the_fold_loop(deck: list[int], ace_low: bool) -> None:
    hand, table = tuple(deck[:5]), tuple(deck[5:10])
    result = high_card.evaluate(hand, table, (), Options(ace_low=ace_low))
    assert result.strength == survived_by_folding(hand, table, ace_low)
    assert isinstance(result.detail, HighCardDetail)
    assert sorted(result.detail.ascending) == sorted(hand)
    assert not result.instant_win


@pytest.mark.parametrize("options", [ACE_HIGH, ACE_LOW])
def test_batch_equals_single_hands_with_a_table_per_hand(options: Options) -> None:
    rng = random.Random(509)
    deals = [rng.sample(range(52), 10) for _ in range(5000)]
    hands = np.array([d[:5] for d in deals], dtype=np.uint8)
    tables = np.array([d[5:] for d in deals], dtype=np.uint8)
    batch = high_card.evaluate_batch(hands, tables, options)
    singles = [high_card.evaluate(tuple(d[:5]), tuple(d[5:]), (), options) for d in deals]
    assert batch.strength.tolist() == [e.strength for e in singles]
    assert batch.value.tolist() == [e.strength for e in singles]
    assert batch.low_strength.tolist() == [0] * len(singles)
    assert not batch.instant_win.any()
    assert set(batch.value.tolist()) == {0, 1, 2, 3, 4, 5}


@pytest.mark.parametrize("options", [ACE_HIGH, ACE_LOW])
def test_batch_equals_single_hands_with_one_shared_table(options: Options) -> None:
    rng = random.Random(510)
    table = cards("5c 9d 9h Jc Ad")
    rest = [c for c in range(52) if c not in table]
    hand_list = [tuple(rng.sample(rest, 5)) for _ in range(3000)]
    batch = high_card.evaluate_batch(
        np.array(hand_list, dtype=np.uint8), np.array([table], dtype=np.uint8), options
    )
    expected = [high_card.evaluate(h, table, (), options).strength for h in hand_list]
    assert batch.strength.tolist() == expected
    assert batch.value.tolist() == expected


# --- High Card -----------------------------------------------------------------------------


def high(*survived: int) -> Resolution:
    results = seats(*(high_card_hand(s) for s in survived))
    resolution = high_card.resolve(request(Game.HIGH_CARD, results), results)
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


def literal_high_card(survived: list[int]) -> Shares | None:
    """The folding procedure of docs/rules.md, check by check; None is a redeal."""
    remaining = [chr(ord("a") + i) for i in range(len(survived))]
    for check in range(1, 6):
        remaining = [p for p in remaining if survived[ord(p) - ord("a")] >= check]
        if len(remaining) == 1:
            return {(remaining[0], "whole"): Fraction(1)}
        if not remaining:
            return None
    return {(p, "whole"): Fraction(1, len(remaining)) for p in remaining}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=2, max_size=7))
def test_high_card_matches_the_folding_procedure(survived: list[int]) -> None:
    resolution = high(*survived)
    assert as_shares(resolution) == literal_high_card(survived)
