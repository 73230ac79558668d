"""Tonk spades: the highest spade, ``ace_low``, the side pot (docs/rules.md "Tonk spades")."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from evaluators.cards import EMPTY, RANKS, parse_card
from evaluators.games import tonk_spades
from evaluators.games.tonk_spades import SpadesDetail
from evaluators.inputs import Cards, Game, Options, Seat, ShowdownRequest
from evaluators.results import Award, Evaluation

HAND_EXAMPLE: dict[str, Any] = {"hand": ["Ah", "Ks", "2s", "3d", "4c"], "table": []}
"""One valid hand (and its table, and table spreads where the game has them): the tests
that run every game read this file's examples (tests/unit/games/examples.py)."""
DETAIL_FIELD = "spades"
"""The ``oneof detail`` field the game's evaluations fill (docs/api.md)."""
DETAIL_EXAMPLE: dict[str, Any] = {"highest": "Ks"}
"""The hand's detail as the wire carries it."""
FULL_DEAL = (9, 0)
"""The (hand, table) sizes the dealer deals by default: the most the game takes."""
SHOWDOWN_EXAMPLE: dict[str, Any] = {
    "seats": [("alice", ["Ah", "Ks", "2s", "3d", "4c"]), ("bob", ["As", "Kd", "2c", "3h", "4h"])],
    "table": [],
}
"""One valid two-seat showdown."""

ACE_LOW = Options(ace_low=True)
PLAIN_OPTIONS = Options()


def cards(text: str) -> Cards:
    return tuple(parse_card(c) for c in text.split())


def score(hand: str, options: Options = PLAIN_OPTIONS) -> Evaluation:
    return tonk_spades.evaluate(cards(hand), (), (), options)


def transcribed_strength(hand: Cards, ace_low: bool) -> int:
    """docs/rules.md literally: the rank of the highest spade, 1 (2s) ... 13 (As), 0 without;
    with ace_low the ace is 1 and the other spades move up by one."""
    order = "A23456789TJQK" if ace_low else "23456789TJQKA"
    spades = [order.index(RANKS[c // 4]) + 1 for c in hand if c % 4 == 3]
    return max(spades, default=0)


def test_strength_is_the_rank_of_the_highest_spade_two_is_one_ace_is_thirteen() -> None:
    assert score("2s 3d 4c 5h 6h").strength == 1
    assert score("As 3d 4c 5h 6h").strength == 13
    ace_and_king = score("Ah Ks 2s 3d 4c")
    assert ace_and_king.strength == 12
    assert ace_and_king.detail == SpadesDetail(parse_card("Ks"))
    assert ace_and_king.description == "Highest spade Ks"


def test_a_hand_without_a_spade_scores_zero_and_says_no_spade() -> None:
    result = score("Ah Kh 2d 3d 4c 5c 6c 7c 8c")
    assert (result.strength, result.description, result.detail) == (
        0,
        "No spade",
        SpadesDetail(None),
    )


def test_ace_low_makes_the_ace_the_lowest_spade_and_moves_the_others_up_one() -> None:
    assert score("As 3d 4c 5h 6h", ACE_LOW).strength == 1
    assert score("2s 3d 4c 5h 6h", ACE_LOW).strength == 2
    assert score("Ks As 4c 5h 6h", ACE_LOW).strength == 13
    assert score("Ks As 4c 5h 6h", ACE_LOW).detail == SpadesDetail(parse_card("Ks"))


@pytest.mark.parametrize("ace_low", [False, True])
def test_strength_matches_the_rule_as_written_and_the_batch_path(ace_low: bool) -> None:
    rng = random.Random(f"spades-{ace_low}")
    options = Options(ace_low=ace_low)
    hands = [tuple(rng.sample(range(52), rng.choice((5, 7, 9)))) for _ in range(300)]
    rows = np.full((len(hands), 9), EMPTY, dtype=np.uint8)
    for row, hand in zip(rows, hands, strict=True):
        row[: len(hand)] = hand
    batch = tonk_spades.evaluate_batch(rows, np.zeros((1, 0), dtype=np.uint8), options)
    for index, hand in enumerate(hands):
        expected = transcribed_strength(hand, ace_low)
        assert tonk_spades.evaluate(hand, (), (), options).strength == expected
        assert batch.strength[index] == batch.value[index] == expected
    assert not batch.instant_win.any() and not batch.low_strength.any()


def showdown(seats: list[tuple[str, str]], options: Options = PLAIN_OPTIONS) -> Any:
    request = ShowdownRequest(
        Game.TONK_SPADES, tuple(Seat(p, cards(h)) for p, h in seats), options=options
    )
    results = tuple(
        (seat.player, tonk_spades.evaluate(seat.hand, (), (), options)) for seat in request.seats
    )
    return tonk_spades.resolve(request, results)


def test_the_highest_spade_takes_the_whole_side_pot() -> None:
    resolution = showdown(
        [("ann", "Ks 2d 3d 4d 5d"), ("bob", "As 2c 3c 4c 5c"), ("cat", "Qs 2h 3h 4h 5h")]
    )
    assert resolution.awards == (Award("bob", "spades", Fraction(1)),)
    assert not resolution.redeal and "As" in resolution.explanation


def test_with_ace_low_the_ace_loses_to_any_other_spade() -> None:
    resolution = showdown([("ann", "2s 2d 3d 4d 5d"), ("bob", "As 2c 3c 4c 5c")], ACE_LOW)
    assert resolution.awards == (Award("ann", "spades", Fraction(1)),)


def test_nobody_with_a_spade_gets_the_side_pot_back_in_equal_shares() -> None:
    seats = [("ann", "Kd 2d 3d 4d 5d"), ("bob", "Ac 2c 3c 4c 5c"), ("cat", "Qh 2h 3h 4h 5h")]
    resolution = showdown(seats)
    assert resolution.awards == tuple(
        Award(p, "spades", Fraction(1, 3)) for p in ("ann", "bob", "cat")
    )
    assert not resolution.redeal and resolution.payouts == ()


def test_the_registry_entry_is_the_rules_sizes_pot_and_option() -> None:
    rules = tonk_spades.RULES
    assert (rules.name, rules.hand_min, rules.hand_max, rules.table_min, rules.table_max) == (
        "Tonk spades",
        5,
        9,
        0,
        0,
    )
    assert rules.pots == ("spades",) and rules.options == ("ace_low",) and not rules.jokers
