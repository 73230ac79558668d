"""Point totals: Numbers, Florida Bingo, Flop-A (docs/rules.md, "Point totals")."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluators import point_totals
from evaluators.cards import EMPTY, RANKS, parse_card
from evaluators.games import flop_a, florida_bingo, numbers
from evaluators.inputs import Cards, Game, Options
from evaluators.point_totals import PointsDetail
from evaluators.results import BatchResult, Evaluation
from tests.unit.batch_dtypes import has_batch_dtypes
from tests.unit.discard_deals import discard_deals, random_discard_deals

Evaluate = Callable[[Cards, Cards, tuple[Cards, ...], Options], Evaluation]

EVALUATE: dict[Game, Evaluate] = {
    Game.NUMBERS: numbers.RULES.evaluate,
    Game.FLORIDA_BINGO: florida_bingo.RULES.evaluate,
    Game.FLOP_A: flop_a.RULES.evaluate,
}
EVALUATE_BATCH = {
    Game.NUMBERS: numbers.RULES.evaluate_batch,
    Game.FLORIDA_BINGO: florida_bingo.RULES.evaluate_batch,
    Game.FLOP_A: flop_a.RULES.evaluate_batch,
}
SIZES = {Game.NUMBERS: (5, 7), Game.FLORIDA_BINGO: (5, 7), Game.FLOP_A: (3, 5)}

# docs/rules.md's table, transcribed: (high, low) value of each rank letter.
_FACE: dict[str, Fraction] = {r: Fraction(int(r)) for r in "23456789"} | {"T": Fraction(10)}
_TEN = Fraction(10)
RULE_TABLE: dict[Game, tuple[dict[str, Fraction], dict[str, Fraction]]] = {
    Game.NUMBERS: (
        _FACE | {"J": _TEN, "Q": _TEN, "K": _TEN, "A": Fraction(15)},
        _FACE | {"J": _TEN, "Q": _TEN, "K": _TEN, "A": Fraction(1)},
    ),
    Game.FLORIDA_BINGO: (
        _FACE | {"J": _TEN, "Q": _TEN, "K": _TEN, "A": Fraction(15)},
        _FACE | {"J": Fraction(1), "Q": Fraction(1), "K": Fraction(1), "A": Fraction(1, 2)},
    ),
    Game.FLOP_A: (
        _FACE | {"J": _TEN, "Q": _TEN, "K": _TEN, "A": Fraction(11)},
        _FACE | {"J": _TEN, "Q": _TEN, "K": _TEN, "A": Fraction(1)},
    ),
}


def cards(text: str) -> Cards:
    return tuple(parse_card(c) for c in text.split())


def score(game: Game, hand: str, table: str = "") -> Evaluation:
    return EVALUATE[game](cards(hand), cards(table), (), Options())


def totals_card_by_card(game: Game, hand: Cards, table: Cards) -> tuple[Fraction, Fraction]:
    """(high, low) of the kept cards, each card looked up in the rules' table."""
    table_ranks = {RANKS[c // 4] for c in table}
    high_values, low_values = RULE_TABLE[game]
    kept = [RANKS[c // 4] for c in hand if RANKS[c // 4] not in table_ranks]
    return sum((high_values[r] for r in kept), Fraction(0)), sum(
        (low_values[r] for r in kept), Fraction(0)
    )


def test_numbers_counts_ace_fifteen_high_and_one_low() -> None:
    result = score(Game.NUMBERS, "Ah Kd 7c 2s 9h")
    assert result.detail == PointsDetail(43.0, 29.0)
    assert result.strength == 43
    assert result.description == "High 43, low 29"


def test_florida_bingo_ace_is_one_half_in_the_low() -> None:
    result = score(Game.FLORIDA_BINGO, "Ah 2c")
    assert result.detail == PointsDetail(17.0, 2.5)
    assert result.description == "High 17, low 2½"


def test_florida_bingo_lone_ace_low_reads_one_half() -> None:
    assert score(Game.FLORIDA_BINGO, "Ah").description == "High 15, low ½"


def test_florida_bingo_face_cards_are_one_in_the_low_and_ten_in_the_high() -> None:
    assert score(Game.FLORIDA_BINGO, "Jh Qc Kd").detail == PointsDetail(30.0, 3.0)


def test_flop_a_counts_ace_eleven_high_and_one_low() -> None:
    assert score(Game.FLOP_A, "Ah As Kd").detail == PointsDetail(32.0, 12.0)


def test_every_cards_choice_is_independent_with_no_cap() -> None:
    # Two aces are each 15 in the high and each 1 in the low: no "only one ace high".
    assert score(Game.NUMBERS, "Ah Ad As Ac Kh").detail == PointsDetail(70.0, 14.0)


def test_totals_are_over_the_kept_cards_only() -> None:
    result = score(Game.NUMBERS, "Ah Kd 7c 2s 9h", "7d 3c Ks")
    assert result.kept == cards("Ah 2s 9h")
    assert result.discarded == cards("Kd 7c")
    assert result.detail == PointsDetail(26.0, 12.0)


@pytest.mark.parametrize("game", list(EVALUATE))
def test_an_emptied_hand_wins_instantly_with_zero_totals(game: Game) -> None:
    result = score(game, "7h 9d", "9c 2s 7d")
    assert result.instant_win
    assert (result.strength, result.low_strength, result.out_after) == (0, 0, 3)
    assert result.detail == PointsDetail(0.0, 0.0)
    assert result.description == "Out after 3 table cards: instant win"
    assert point_totals.headline(result) == 0


def test_equal_totals_have_equal_strength_whatever_the_cards() -> None:
    first = score(Game.NUMBERS, "Kh 5d")
    second = score(Game.NUMBERS, "7c 8s")
    assert (first.strength, first.low_strength) == (second.strength, second.low_strength)


def test_a_lower_low_has_the_higher_low_strength() -> None:
    low = score(Game.FLORIDA_BINGO, "Ah Kd")  # 1½
    lower = score(Game.FLORIDA_BINGO, "Ad")  # ½
    assert lower.low_strength > low.low_strength > 0


def test_headline_is_the_high_total() -> None:
    assert point_totals.headline(score(Game.FLORIDA_BINGO, "Ah 2c")) == 17


@pytest.mark.parametrize("game", list(EVALUATE))
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_totals_match_the_rules_table_card_by_card(game: Game, data: st.DataObject) -> None:
    hand, table = data.draw(discard_deals(*SIZES[game]))
    result = EVALUATE[game](hand, table, (), Options())
    high, low = totals_card_by_card(game, hand, table)
    assert result.detail == PointsDetail(float(high), float(low))
    if result.instant_win:
        assert (result.strength, result.low_strength) == (0, 0)
    else:
        assert result.strength == high
        assert result.low_strength > 0


@pytest.mark.parametrize("game", list(EVALUATE))
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_low_strength_orders_hands_by_lower_low_total(game: Game, data: st.DataObject) -> None:
    first, second = data.draw(discard_deals(*SIZES[game])), data.draw(discard_deals(*SIZES[game]))
    a, b = EVALUATE[game](*first, (), Options()), EVALUATE[game](*second, (), Options())
    if a.instant_win or b.instant_win:
        return
    low_a, low_b = totals_card_by_card(game, *first)[1], totals_card_by_card(game, *second)[1]
    assert (a.low_strength > b.low_strength) == (low_a < low_b)
    assert (a.low_strength == b.low_strength) == (low_a == low_b)


def padded(rows: list[Cards], width: int, rng: random.Random) -> np.ndarray:
    """Rows as a uint8 array, short rows filled with EMPTY at random positions."""
    array = np.full((len(rows), width), EMPTY, dtype=np.uint8)
    for index, row in enumerate(rows):
        array[index, sorted(rng.sample(range(width), len(row)))] = row
    return array


def assert_batch_matches(batch: BatchResult, singles: list[Evaluation]) -> None:
    assert has_batch_dtypes(batch)
    assert batch.strength.tolist() == [e.strength for e in singles]
    assert batch.low_strength.tolist() == [e.low_strength for e in singles]
    assert batch.value.tolist() == [point_totals.headline(e) for e in singles]
    assert batch.instant_win.tolist() == [e.instant_win for e in singles]


@pytest.mark.parametrize("game", list(EVALUATE))
def test_batch_equals_single_hands_with_a_table_per_hand(game: Game) -> None:
    rng = random.Random(game.value)
    hand_max, table_max = SIZES[game]
    deals_ = random_discard_deals(rng, 4000, hand_max, table_max)
    hands = padded([h for h, _ in deals_], hand_max, rng)
    tables = padded([t for _, t in deals_], table_max, rng)
    batch = EVALUATE_BATCH[game](hands, tables, Options())
    assert_batch_matches(batch, [EVALUATE[game](h, t, (), Options()) for h, t in deals_])
    assert batch.instant_win.any() and not batch.instant_win.all()


@pytest.mark.parametrize("game", list(EVALUATE))
def test_batch_equals_single_hands_with_one_shared_table(game: Game) -> None:
    rng = random.Random(game.value + "shared")
    hand_max, table_max = SIZES[game]
    for table in (cards("7d 3c Ks Ah 5s")[: min(5, table_max)], cards("2c"), ()):
        rest = [c for c in range(52) if c not in table]
        hands = [tuple(rng.sample(rest, rng.randint(1, hand_max))) for _ in range(1500)]
        shared = np.array([table], dtype=np.uint8).reshape(1, len(table))
        batch = EVALUATE_BATCH[game](padded(hands, hand_max, rng), shared, Options())
        assert_batch_matches(batch, [EVALUATE[game](h, table, (), Options()) for h in hands])
