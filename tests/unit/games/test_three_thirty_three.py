"""Blackjack totals: Three Hundred Thirty Three (docs/rules.md, "Blackjack totals")."""

from __future__ import annotations

import itertools
import random
from typing import Any

import numpy as np
from hypothesis import given, settings

from evaluators.cards import EMPTY, RANKS, parse_card
from evaluators.games import three_thirty_three as blackjack
from evaluators.games.three_thirty_three import BlackjackDetail
from evaluators.inputs import Cards, Options
from evaluators.results import Evaluation
from tests.unit.batch_dtypes import has_batch_dtypes
from tests.unit.discard_deals import discard_deals, random_discard_deals

HAND_EXAMPLE: dict[str, Any] = {"hand": ["Ah", "6d", "4c"], "table": ["2s"]}
"""One valid hand (and its table, and table spreads where the game has them): the tests
that run every game read this file's examples (tests/unit/games/examples.py)."""
DETAIL_FIELD = "blackjack"
"""The ``oneof detail`` field the game's evaluations fill (docs/api.md)."""
DETAIL_EXAMPLE: dict[str, Any] = {"total": 21, "soft": True, "bust": False}
"""The hand's detail as the wire carries it."""
FULL_DEAL = (3, 4)
"""The (hand, table) sizes the dealer deals by default: the most the game takes."""
SHOWDOWN_EXAMPLE: dict[str, Any] = {
    "seats": [("alice", ["Ah", "6d", "4c"]), ("bob", ["Td", "9c"])],
    "table": ["2s"],
}
"""One valid two-seat showdown."""


def cards(text: str) -> Cards:
    return tuple(parse_card(c) for c in text.split())


def score(hand: str, table: str = "") -> Evaluation:
    return blackjack.evaluate(cards(hand), cards(table), (), Options())


def blackjack_by_every_ace_choice(hand: Cards, table: Cards) -> tuple[int, bool, bool]:
    """(total, soft, bust) of the kept cards, trying every ace as 1 and as 11."""
    table_ranks = {c // 4 for c in table}
    kept = [RANKS[c // 4] for c in hand if c // 4 not in table_ranks]
    choices = [(1, 11) if r == "A" else (10,) if r in "TJQK" else (int(r),) for r in kept]
    ways = list(itertools.product(*choices))
    under = [sum(w) for w in ways if sum(w) <= 21]
    if not under:
        return min(sum(w) for w in ways), False, True
    best = max(under)
    soft = any(sum(w) == best and 11 in w for w in ways)
    return best, soft, False


def ranks_above(first: tuple[int, bool], second: tuple[int, bool]) -> bool:
    """The Ruling, literally: (total, bust) of ``first`` beats ``second``."""
    first_total, first_bust = first
    second_total, second_bust = second
    if first_bust != second_bust:
        return second_bust
    return first_total < second_total if first_bust else first_total > second_total


def test_an_ace_counts_eleven_when_it_fits() -> None:
    result = score("Ah 8d")
    assert result.detail == BlackjackDetail(19, soft=True, bust=False)
    assert result.description == "Soft 19"


def test_an_ace_counts_one_when_eleven_would_bust() -> None:
    result = score("Ah 8d 5c")
    assert result.detail == BlackjackDetail(14, soft=False, bust=False)
    assert result.description == "14"


def test_only_one_ace_can_count_eleven() -> None:
    assert score("Ah Ad 9c").detail == BlackjackDetail(21, soft=True, bust=False)


def test_face_cards_count_ten() -> None:
    assert score("Kh Qd").description == "20"


def test_a_bust_hand_reports_its_lowest_total() -> None:
    result = score("Kh Qd 5c")
    assert result.detail == BlackjackDetail(25, soft=False, bust=True)
    assert result.description == "Bust 25"
    assert blackjack.headline(result) == 25


def test_soft_and_hard_equal_totals_have_equal_strength() -> None:
    assert score("Ah 8d").strength == score("Th 9d").strength


def test_no_bonus_for_a_two_card_21() -> None:
    assert score("Ah Kd").strength == score("7h 7d 7c").strength


def test_a_bust_hand_ranks_below_every_hand_that_is_not_bust() -> None:
    assert score("Kh Qd 2c").strength < score("2h").strength


def test_among_bust_hands_the_lower_total_ranks_higher() -> None:
    assert score("Kh Qd 2c").strength > score("Kh Qd 5c").strength > score("Kh Qd Tc").strength


def test_totals_are_over_the_kept_cards_only() -> None:
    result = score("Kh Qd 5c", "5d 3h")
    assert result.kept == cards("Kh Qd")
    assert result.detail == BlackjackDetail(20, soft=False, bust=False)


def test_an_emptied_hand_wins_instantly_with_strength_zero() -> None:
    result = score("Kh 5c", "5d 3h Ks")
    assert result.instant_win
    assert (result.strength, result.out_after) == (0, 3)
    assert result.description == "Out after 3 table cards: instant win"
    assert blackjack.headline(result) == 0


@settings(max_examples=400, deadline=None)
@given(discard_deals(3, 4))
def test_totals_match_every_ace_choice(deal: tuple[Cards, Cards]) -> None:
    hand, table = deal
    result = blackjack.evaluate(hand, table, (), Options())
    if result.instant_win:
        assert result.strength == 0
        return
    total, soft, bust = blackjack_by_every_ace_choice(hand, table)
    assert result.detail == BlackjackDetail(total, soft, bust)


@settings(max_examples=400, deadline=None)
@given(discard_deals(3, 4), discard_deals(3, 4))
def test_strength_follows_the_bust_ruling(
    first: tuple[Cards, Cards], second: tuple[Cards, Cards]
) -> None:
    a = blackjack.evaluate(*first, (), Options())
    b = blackjack.evaluate(*second, (), Options())
    if a.instant_win or b.instant_win:
        return
    total_a, _, bust_a = blackjack_by_every_ace_choice(*first)
    total_b, _, bust_b = blackjack_by_every_ace_choice(*second)
    assert (a.strength > b.strength) == ranks_above((total_a, bust_a), (total_b, bust_b))
    assert (a.strength == b.strength) == ((total_a, bust_a) == (total_b, bust_b))
    assert a.strength > 0


def padded(rows: list[Cards], width: int, rng: random.Random) -> np.ndarray:
    array = np.full((len(rows), width), EMPTY, dtype=np.uint8)
    for index, row in enumerate(rows):
        array[index, sorted(rng.sample(range(width), len(row)))] = row
    return array


def assert_batch_matches(
    hands: list[Cards], tables: list[Cards], table_array: np.ndarray, rng: random.Random
) -> None:
    singles = [blackjack.evaluate(h, t, (), Options()) for h, t in zip(hands, tables, strict=True)]
    batch = blackjack.evaluate_batch(padded(hands, 3, rng), table_array, Options())
    assert batch.strength.tolist() == [e.strength for e in singles]
    assert batch.low_strength.tolist() == [0] * len(singles)
    assert batch.value.tolist() == [blackjack.headline(e) for e in singles]
    assert batch.instant_win.tolist() == [e.instant_win for e in singles]
    assert has_batch_dtypes(batch)


def test_batch_equals_single_hands_with_a_table_per_hand() -> None:
    rng = random.Random(333)
    deals = random_discard_deals(rng, 5000, 3, 4)
    hands, tables = [hand for hand, _ in deals], [table for _, table in deals]
    assert_batch_matches(hands, tables, padded(tables, 4, rng), rng)


def test_batch_equals_single_hands_with_one_shared_table() -> None:
    rng = random.Random(845)
    for table in (cards("Ad 5c Ks 9h"), cards("7d"), ()):
        rest = [c for c in range(52) if c not in table]
        hands = [tuple(rng.sample(rest, rng.randint(1, 3))) for _ in range(2000)]
        shared = np.array([table], dtype=np.uint8).reshape(1, len(table))
        assert_batch_matches(hands, [table] * len(hands), shared, rng)
