"""Grocery Store Dots (docs/rules.md): dots over all the cards, strength is the poker hand."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluators import poker
from evaluators.cards import EMPTY, RANKS, parse_card
from evaluators.games import grocery_store_dots as dots
from evaluators.games import poker_high
from evaluators.games.grocery_store_dots import DotsDetail
from evaluators.inputs import Cards, Game, Options
from evaluators.results import Award, Evaluation, Resolution
from tests.unit.batch_dtypes import has_batch_dtypes
from tests.unit.showdowns import (
    HALF,
    as_shares,
    assert_well_formed,
    dots_hand,
    literal_halves,
    request,
    seats,
    shares,
)

HAND_EXAMPLE: dict[str, Any] = {"hand": ["Ah", "Kd", "5c", "9s", "Tc", "2d", "3d"], "table": []}
"""One valid hand (and its table, and table spreads where the game has them): the tests
that run every game read this file's examples (tests/unit/games/examples.py)."""
DETAIL_FIELD = "dots"
"""The ``oneof detail`` field the game's evaluations fill (docs/api.md)."""
DETAIL_EXAMPLE: dict[str, Any] = {
    "dots": 10,
    "poker": {
        "category": "POKER_CATEGORY_HIGH_CARD",
        "rank_class": 6269,
        "best_five": ["Ah", "Kd", "Tc", "9s", "5c"],
    },
}
"""The hand's detail as the wire carries it."""
FULL_DEAL = (7, 0)
"""The (hand, table) sizes the dealer deals by default: the most the game takes."""
SHOWDOWN_EXAMPLE: dict[str, Any] = {
    "seats": [
        ("alice", ["Ah", "Kd", "5c", "9s", "Tc", "2d", "3d"]),
        ("bob", ["As", "Qd", "6c", "8s", "Jc", "4h", "7h"]),
    ],
    "table": [],
}
"""One valid two-seat showdown."""

OPTIONS = Options()
NO_TABLE = np.zeros((1, 0), dtype=np.uint8)
RULES_DOTS = {"A": 1, "5": 1, "7": 1, "9": 1, "2": 2, "8": 2, "T": 2, "3": 3}
"""docs/rules.md's dots per rank; every rank not listed (4, 6, J, Q, K) has none."""


def cards(text: str) -> Cards:
    return tuple(parse_card(c) for c in text.split())


def score(hand: str) -> Evaluation:
    return dots.evaluate(cards(hand), (), (), OPTIONS)


def dots_by_the_rules(hand: Cards) -> int:
    return sum(RULES_DOTS.get(RANKS[c // 4], 0) for c in hand)


@pytest.mark.parametrize("rank", list(RANKS))
def test_each_rank_has_its_dots_in_every_suit(rank: str) -> None:
    four_of_the_rank = cards(" ".join(rank + suit for suit in "cdhs"))
    other = "4c" if rank != "4" else "6c"
    result = dots.evaluate(four_of_the_rank + cards(other), (), (), OPTIONS)
    assert dots.RULES.headline(result) == 4 * RULES_DOTS.get(rank, 0)


def test_dots_count_all_seven_cards_not_the_best_five() -> None:
    result = score("As Ks Qs Js Ts 3c 3d")
    assert isinstance(result.detail, DotsDetail)
    assert result.detail.poker.best_five == cards("As Ks Qs Js Ts")
    assert result.detail.dots == 1 + 2 + 3 + 3
    assert result.description == "Straight flush, ace high (royal flush); 9 dots"


def test_strength_is_the_poker_strength_not_the_dots() -> None:
    many_dots = score("3c 3d 3h 8s 8c Kd 2s")
    few_dots = score("Kc Kd Ks Qs Qc Jd 4s")
    assert many_dots.detail.dots > few_dots.detail.dots  # type: ignore[union-attr]
    assert few_dots.strength > many_dots.strength
    poker_hand = poker.best_hand(cards("3c 3d 3h 8s 8c Kd 2s"))
    assert many_dots.strength == poker.strength_of(poker_hand.rank_class)
    assert many_dots.detail.poker == poker_hand  # type: ignore[union-attr]


def test_equal_poker_hands_have_equal_strength_whatever_their_dots() -> None:
    seven = score("Ah Kd 9c 7s 4h 3c 2d")
    five = score("Ac Kh 9d 7h 4s")
    assert seven.detail.dots != five.detail.dots  # type: ignore[union-attr]
    assert seven.strength == five.strength


def test_one_dot_is_singular_in_the_description() -> None:
    assert score("Ah Kd Qc Js 4h").description == "High card, ace; 1 dot"


@settings(max_examples=200)
@given(st.lists(st.integers(0, 51), min_size=5, max_size=7, unique=True))
def test_dots_are_the_rules_sum_over_every_card(hand: list[int]) -> None:
    result = dots.evaluate(tuple(hand), (), (), OPTIONS)
    assert dots.RULES.headline(result) == dots_by_the_rules(tuple(hand))


def test_batch_gives_the_single_hand_strength_and_dots_also_when_padded() -> None:
    rng = np.random.default_rng(29)
    hands = np.argsort(rng.random((3_000, 52)), axis=1)[:, :7].astype(np.uint8)
    sizes = rng.integers(5, 8, len(hands))
    for row, size in enumerate(sizes):
        hands[row, size:] = EMPTY
    batch = dots.evaluate_batch(hands, NO_TABLE, OPTIONS)
    assert has_batch_dtypes(batch)
    assert not batch.instant_win.any() and not batch.low_strength.any()
    for row in range(len(hands)):
        hand = tuple(c for c in hands[row].tolist() if c != EMPTY)
        single = dots.evaluate(hand, (), (), OPTIONS)
        assert batch.value[row] == dots.RULES.headline(single) == dots_by_the_rules(hand)
        assert batch.strength[row] == single.strength


def test_headline_refuses_another_games_evaluation() -> None:
    with pytest.raises(TypeError):
        dots.RULES.headline(poker_high.evaluate(cards("Ah Kh Qh Jh Th"), (), (), OPTIONS))


# --- Grocery Store Dots --------------------------------------------------------------------


def grocery(*evaluations: Evaluation) -> Resolution:
    results = seats(*evaluations)
    resolution = dots.resolve(request(Game.GROCERY_STORE_DOTS, results), results)
    assert_well_formed(resolution)
    return resolution


def test_best_poker_hand_takes_the_high_half_and_most_dots_the_dots_half() -> None:
    resolution = grocery(dots_hand(500, 4), dots_hand(100, 11), dots_hand(300, 7))
    assert shares(resolution) == {("a", "high"): HALF, ("b", "dots"): HALF}
    assert resolution.explanation == (
        "a wins the high half with High card, ace; b wins the dots half with 11 dots."
    )


def test_one_player_may_win_the_high_and_the_dots_half() -> None:
    resolution = grocery(dots_hand(500, 12), dots_hand(100, 11))
    assert resolution.awards == (Award("a", "high", HALF), Award("a", "dots", HALF))


def test_ties_split_each_half_of_grocery_store_dots() -> None:
    resolution = grocery(dots_hand(500, 9), dots_hand(500, 3), dots_hand(100, 9), dots_hand(200, 9))
    quarter, sixth = Fraction(1, 4), Fraction(1, 6)
    assert shares(resolution) == {
        ("a", "high"): quarter,
        ("b", "high"): quarter,
        ("a", "dots"): sixth,
        ("c", "dots"): sixth,
        ("d", "dots"): sixth,
    }


@settings(max_examples=300, deadline=None)
@given(st.lists(st.builds(dots_hand, st.integers(1, 4), st.integers(0, 4)), min_size=2, max_size=7))
def test_grocery_store_dots_matches_the_literal_rule(evaluations: list[Evaluation]) -> None:
    results = seats(*evaluations)
    expected = literal_halves(
        {
            "high": {p: e.strength for p, e in results},
            "dots": {p: e.detail.dots for p, e in results if isinstance(e.detail, DotsDetail)},
        }
    )
    assert as_shares(grocery(*evaluations)) == expected
