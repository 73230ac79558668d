"""Tonk evaluator: card points, spreads, hits, deadwood, tonk, deal bonus, batch path."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluators.cards import EMPTY, parse_card
from evaluators.games.tonk import deadwood as tonk
from evaluators.games.tonk.deadwood import DealBonus, TonkDetail
from evaluators.inputs import Cards, Options, TonkEnding
from evaluators.results import Evaluation

HAND_EXAMPLE: dict[str, Any] = {
    "hand": ["Kd", "Kc", "Ks", "Jh", "2c"],
    "table": [],
    "spreads": [["8h", "9h", "Th"]],
}
"""One valid hand (and its table, and table spreads where the game has them): the tests
that run every game read this file's examples (tests/unit/games/examples.py)."""
DETAIL_FIELD = "tonk"
"""The ``oneof detail`` field the game's evaluations fill (docs/api.md)."""
DETAIL_EXAMPLE: dict[str, Any] = {
    "points": 42,
    "deadwood": 2,
    "spreads": [{"cards": ["Kc", "Kd", "Ks"]}],
    "hits": [{"card": "Jh", "spread_index": 0}],
    "deadwood_cards": ["2c"],
    "deal_bonus": "DEAL_BONUS_NONE",
    "tonk": False,
}
"""The hand's detail as the wire carries it."""
FULL_DEAL = (10, 0)
"""The (hand, table) sizes the dealer deals by default: the most the game takes."""
SHOWDOWN_EXAMPLE: dict[str, Any] = {
    "seats": [("alice", ["5h", "6h", "7h"]), ("bob", ["Kd", "2c", "3s"])],
    "table": [],
    "ending": TonkEnding.DROP,
    "ender": "alice",
}
"""One valid two-seat showdown."""

RUNS_ONLY = Options(hit_runs_only=True)
PLAIN = Options()


def cards(text: str) -> Cards:
    return tuple(parse_card(t) for t in text.split())


def evaluate(hand: str, spreads: Iterable[str] = (), options: Options = PLAIN) -> Evaluation:
    return tonk.evaluate(cards(hand), (), tuple(cards(s) for s in spreads), options)


def detail(evaluation: Evaluation) -> TonkDetail:
    assert isinstance(evaluation.detail, TonkDetail)
    return evaluation.detail


# --- an obviously correct brute force, independent of the module ---------------------


def points(card: int) -> int:
    rank = card // 4
    return 1 if rank == 12 else min(rank + 2, 10)


def is_set(spread: Iterable[int]) -> bool:
    group = list(spread)
    return (
        3 <= len(group) <= 4
        and len(set(group)) == len(group)
        and (len({c // 4 for c in group}) == 1)
    )


def is_run(spread: Iterable[int]) -> bool:
    group = list(spread)
    if len(group) < 3 or len({c % 4 for c in group}) != 1:
        return False
    for ace in (1, 14):
        values = sorted(ace if c // 4 == 12 else c // 4 + 2 for c in group)
        if values == list(range(values[0], values[0] + len(values))):
            return True
    return False


def may_hit(spread: tuple[int, ...], card: int, runs_only: bool) -> bool:
    grown = (*spread, card)
    if is_run(spread):
        return is_run(grown)
    return not runs_only and is_set(grown)


def brute_deadwood(hand: Cards, spreads: tuple[Cards, ...], runs_only: bool) -> int:
    """Every sequence of hits, then every way to lay the rest as spreads from the hand.

    Laying the hand's own spreads never changes what may hit the table, so hits first
    and spreads after loses nothing.
    """

    @functools.cache
    def best_laid(left: frozenset[int]) -> int:
        if not left:
            return 0
        first = min(left)
        rest = sorted(left - {first})
        best = points(first) + best_laid(left - {first})
        for size in range(1 << len(rest)):
            group = [first] + [c for i, c in enumerate(rest) if size >> i & 1]
            if is_set(group) or is_run(group):
                best = min(best, best_laid(left - set(group)))
        return best

    seen: set[tuple[frozenset[int], tuple[tuple[int, ...], ...]]] = set()
    best = sum(points(c) for c in hand)

    def hit_all(left: frozenset[int], table: tuple[tuple[int, ...], ...]) -> None:
        nonlocal best
        key = (left, tuple(tuple(sorted(s)) for s in table))
        if key in seen:
            return
        seen.add(key)
        best = min(best, best_laid(left))
        for card in left:
            for index, spread in enumerate(table):
                if may_hit(spread, card, runs_only):
                    grown = (*table[:index], (*spread, card), *table[index + 1 :])
                    hit_all(left - {card}, grown)

    hit_all(frozenset(hand), tuple(spreads))
    return best


def assert_arrangement_valid(
    hand: Cards, spreads: tuple[Cards, ...], runs_only: bool, evaluation: Evaluation
) -> None:
    result = detail(evaluation)
    for spread in result.spreads:
        assert is_set(spread) or is_run(spread), spread
    table = list(spreads)
    for hit in result.hits:
        assert may_hit(table[hit.spread_index], hit.card, runs_only), hit
        table[hit.spread_index] = (*table[hit.spread_index], hit.card)
    used = [c for s in result.spreads for c in s] + [h.card for h in result.hits]
    assert sorted(used + list(result.deadwood_cards)) == sorted(hand)
    assert sum(points(c) for c in result.deadwood_cards) == result.deadwood
    assert result.points == sum(points(c) for c in hand)
    assert result.tonk == (bool(hand) and not result.deadwood_cards)


def _run_cards(suit: int, start: int, length: int) -> Cards:
    return tuple((12 if p in (0, 13) else p - 1) * 4 + suit for p in range(start, start + length))


@st.composite
def tonk_cases(draw: st.DrawFn, max_hand: int = 8) -> tuple[Cards, tuple[Cards, ...], bool]:
    """A hand near some table spreads (ranks in a window, so spreads and hits happen)."""
    used: set[int] = set()
    spreads: list[Cards] = []
    for _ in range(draw(st.integers(0, 3))):
        if draw(st.booleans()):
            rank = draw(st.integers(0, 12))
            suits = draw(st.lists(st.integers(0, 3), min_size=3, max_size=4, unique=True))
            spread = tuple(rank * 4 + s for s in suits)
        else:
            length = draw(st.integers(3, 5))
            start = draw(st.integers(0, 14 - length))
            spread = _run_cards(draw(st.integers(0, 3)), start, length)
        if used.isdisjoint(spread):
            used.update(spread)
            spreads.append(spread)
    near: set[int] = set()
    for spread in spreads:
        for card in spread:
            near.update(card + 4 * step for step in (-2, -1, 1, 2) if 0 <= card + 4 * step < 52)
            near.update(card // 4 * 4 + suit for suit in range(4))
    low = draw(st.integers(0, 12))
    window = {(low + i) % 13 for i in range(draw(st.integers(3, 13)))}
    near.update(c for c in range(52) if c // 4 in window)
    pool = sorted(near - used)
    size = draw(st.integers(min(2, len(pool)), min(max_hand, len(pool))))
    hand = draw(st.lists(st.sampled_from(pool), unique=True, min_size=size, max_size=size))
    return tuple(hand), tuple(spreads), draw(st.booleans())


def check_against_the_search(case: tuple[Cards, tuple[Cards, ...], bool]) -> None:
    hand, spreads, runs_only = case
    evaluation = tonk.evaluate(hand, (), spreads, Options(hit_runs_only=runs_only))
    assert detail(evaluation).deadwood == brute_deadwood(hand, spreads, runs_only)
    assert_arrangement_valid(hand, spreads, runs_only, evaluation)


@settings(max_examples=300, deadline=None)
@given(tonk_cases())
def test_deadwood_matches_exhaustive_search_with_table_spreads(
    case: tuple[Cards, tuple[Cards, ...], bool],
) -> None:
    check_against_the_search(case)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(tonk_cases())
def test_deadwood_matches_exhaustive_search_with_table_spreads_on_1000_more_cases(
    case: tuple[Cards, tuple[Cards, ...], bool],
) -> None:
    """The unit layer's 300 cases were 1000 before issue 25's 60 s."""
    check_against_the_search(case)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 51), unique=True, max_size=8), st.booleans())
def test_deadwood_matches_exhaustive_search_for_any_hand_alone(
    hand: list[int], runs_only: bool
) -> None:
    evaluation = tonk.evaluate(tuple(hand), (), (), Options(hit_runs_only=runs_only))
    assert detail(evaluation).deadwood == brute_deadwood(tuple(hand), (), runs_only)
    assert_arrangement_valid(tuple(hand), (), runs_only, evaluation)


@settings(max_examples=150, deadline=None)
@given(tonk_cases(max_hand=10))
def test_ten_card_arrangement_is_valid_and_no_worse_than_hits_alone(
    case: tuple[Cards, tuple[Cards, ...], bool],
) -> None:
    hand, spreads, runs_only = case
    evaluation = tonk.evaluate(hand, (), spreads, Options(hit_runs_only=runs_only))
    assert_arrangement_valid(hand, spreads, runs_only, evaluation)
    alone = tonk.evaluate(hand, (), (), Options())
    assert detail(evaluation).deadwood <= detail(alone).deadwood


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), unique=True, min_size=1, max_size=10))
def test_a_hand_without_table_spreads_reads_its_tables_as_the_search_would(
    hand: list[int],
) -> None:
    searched = tonk._evaluate_with_spreads(tuple(hand), (), PLAIN)
    assert tonk.evaluate(tuple(hand), (), (), PLAIN) == searched


def test_suit_runs_table_lays_what_the_suit_search_lays() -> None:
    table = tonk.suit_runs_table()
    assert len(table) == 8192
    for mask in range(8192):
        runs, left = table[mask]
        laid = [rank for run in runs for rank in run]
        laid_mask = sum(1 << rank for rank in laid)
        assert len(laid) == len(set(laid)) and all(len(run) >= 3 for run in runs)
        assert left | laid_mask == mask and not left & laid_mask
        assert tonk.suit_points_table()[left] == tonk.suit_deadwood_table()[mask]


# --- tables against a slow path -------------------------------------------------------


def test_suit_points_table_sums_card_points() -> None:
    table = tonk.suit_points_table()
    assert len(table) == 8192
    for mask in range(8192):
        assert table[mask] == sum(points(r * 4) for r in range(13) if mask >> r & 1)


def _slow_suit_deadwood(mask: int) -> int:
    """Runs alone in one suit: every maximal block of 3+ consecutive values is laid."""
    ranks = [r for r in range(13) if mask >> r & 1]
    best = sum(points(r * 4) for r in ranks)
    for ace in (1, 14):
        values = sorted(ace if r == 12 else r + 2 for r in ranks)
        left = 0
        block: list[int] = []
        for value in [*values, 99]:
            if block and value != block[-1] + 1:
                if len(block) < 3:
                    left += sum(1 if v in (1, 14) else min(v, 10) for v in block)
                block = []
            block.append(value)
        best = min(best, left)
    return best


def test_suit_deadwood_table_matches_block_scan_for_every_mask() -> None:
    table = tonk.suit_deadwood_table()
    assert len(table) == 8192
    for mask in range(8192):
        assert table[mask] == _slow_suit_deadwood(mask), mask


# --- spreads ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spread",
    [
        "Ah 2h 3h",
        "Qh Kh Ah",
        "5c 5d 5h",
        "5c 5d 5h 5s",
        "9d Td Jd Qd Kd",
        "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh",
    ],
)
def test_check_spread_accepts_sets_and_runs_with_ace_low_or_high(spread: str) -> None:
    assert tonk.check_spread(cards(spread)) is None


@pytest.mark.parametrize(
    ("spread", "words"),
    [
        ("Kh Ah 2h", "K-A-2"),
        ("Qh Kh Ah 2h", "K-A-2"),
        ("5c 6c 8c", "consecutive"),
        ("5c 6d 7c", "neither a set"),
        ("5c 5d 6c", "neither a set"),
        ("5c 5d", "at least 3"),
        ("5c 5d 5h 5s 5c", "repeats"),
    ],
)
def test_check_spread_refuses_wraps_gaps_mixed_suits_short_and_five_card_sets(
    spread: str, words: str
) -> None:
    problem = tonk.check_spread(cards(spread))
    assert problem is not None and words in problem


def test_check_spread_refuses_jokers() -> None:
    assert tonk.check_spread((52, 0, 4)) is not None


@settings(max_examples=300)
@given(st.lists(st.integers(0, 51), unique=True, max_size=6))
def test_check_spread_agrees_with_set_or_run_definition(spread: list[int]) -> None:
    assert (tonk.check_spread(spread) is None) == (is_set(spread) or is_run(spread))


# --- rules by example ------------------------------------------------------------------


def test_card_points_ace_one_faces_ten() -> None:
    assert detail(evaluate("Ac 2d 9h Ts Jc Qd Kh")).points == 1 + 2 + 9 + 10 + 10 + 10 + 10


def test_ace_is_played_high_when_that_leaves_less_deadwood() -> None:
    result = detail(evaluate("Ah 2h 3h Qh Kh"))
    assert result.deadwood == 5
    assert result.spreads == (cards("Qh Kh Ah"),)


def test_run_never_wraps_king_ace_two() -> None:
    assert detail(evaluate("Kh Ah 2h")).deadwood == 13


def test_hits_chain_across_hand_cards() -> None:
    result = detail(evaluate("8h 9h Kc", ["5h 6h 7h"]))
    assert result.deadwood == 10
    assert [(h.card, h.spread_index) for h in result.hits] == [
        (parse_card("8h"), 0),
        (parse_card("9h"), 0),
    ]


def test_hits_extend_a_run_at_both_ends() -> None:
    result = detail(evaluate("4h 8h", ["5h 6h 7h"]))
    assert result.tonk
    assert {h.card for h in result.hits} == set(cards("4h 8h"))


def test_hit_never_goes_past_the_ace() -> None:
    assert detail(evaluate("2h", ["Qh Kh Ah"])).deadwood == 2
    assert detail(evaluate("Kh", ["Ah 2h 3h"])).deadwood == 10


def test_hand_ace_hits_a_run_at_either_end() -> None:
    assert detail(evaluate("Ah", ["2h 3h 4h"])).tonk
    assert detail(evaluate("Ah", ["Jh Qh Kh"])).tonk


def test_cards_between_two_table_runs_all_hit() -> None:
    result = detail(evaluate("5h 6h 7h", ["2h 3h 4h", "8h 9h Th"]))
    assert result.tonk
    assert len(result.hits) == 3


def test_three_card_set_takes_its_fourth_card() -> None:
    result = detail(evaluate("6h Kd", ["6c 6d 6s"]))
    assert result.deadwood == 10
    assert [(h.card, h.spread_index) for h in result.hits] == [(parse_card("6h"), 0)]


def test_hit_runs_only_refuses_hits_on_sets() -> None:
    assert detail(evaluate("6h Kd", ["6c 6d 6s"], RUNS_ONLY)).deadwood == 16
    assert detail(evaluate("8h", ["5h 6h 7h"], RUNS_ONLY)).tonk


def test_card_that_could_hit_a_set_still_serves_in_a_run() -> None:
    result = detail(evaluate("5h 6h 7h", ["6c 6d 6s"]))
    assert result.tonk
    assert result.spreads == (cards("5h 6h 7h"),)


def test_four_of_a_rank_may_lay_a_set_of_three_and_run_the_fourth() -> None:
    result = detail(evaluate("7c 7d 7h 7s 5s 6s"))
    assert result.tonk
    assert sorted(result.spreads) == sorted([cards("7c 7d 7h"), cards("5s 6s 7s")])


def test_set_and_run_compete_for_a_card_and_the_cheaper_choice_wins() -> None:
    result = detail(evaluate("7c 7d 7h 8h 9h 2c 2d 2s 4c 4d"))
    assert result.deadwood == 7 + 7 + 4 + 4


def test_description_says_deadwood_or_tonk() -> None:
    assert evaluate("Kh 2c").description == "Deadwood 12"
    assert evaluate("2c 3c 4c").description == "Tonk!"
    assert tonk.headline(evaluate("Kh 2c")) == 12


def test_empty_hand_has_no_points_and_is_not_a_tonk() -> None:
    result = detail(evaluate(""))
    assert (result.points, result.deadwood, result.tonk) == (0, 0, False)


def test_fewer_points_is_stronger_and_equal_points_are_equal_strength() -> None:
    assert evaluate("2c 3d").strength > evaluate("Kc").strength
    assert evaluate("Kc").strength == evaluate("Td").strength
    assert evaluate("4c 5c 6c").strength == evaluate("Ks 5d").strength


@pytest.mark.parametrize(
    ("hand", "bonus"),
    [
        ("Kc Kd Qh Qs Jc", DealBonus.FIFTY),
        ("Kc Kd Qh Qs 9c", DealBonus.FORTY_NINE),
        ("Ac Ad Ah As 5c", DealBonus.NINE_OR_LESS),
        ("Ac Ad 2c 3c 6d", DealBonus.THIRTEEN_OR_LESS),
        ("Ac Ad 2c 3c 7d", DealBonus.NONE),
        ("Kc Kd Qh Qs 8c", DealBonus.NONE),
        ("Ac Ad Ah As 2c 3c", DealBonus.NONE),
        ("Ac 2c 3c 2d", DealBonus.NONE),
    ],
)
def test_deal_bonus_only_for_five_cards_most_specific_first(hand: str, bonus: DealBonus) -> None:
    assert detail(evaluate(hand)).deal_bonus == bonus


# --- batch -----------------------------------------------------------------------------


def _packed(hands: list[Cards], width: int) -> np.ndarray:
    return np.array([list(h) + [EMPTY] * (width - len(h)) for h in hands], dtype=np.uint8)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.lists(st.integers(0, 51), unique=True, min_size=1, max_size=10), min_size=1, max_size=40
    ),
    st.booleans(),
)
def test_batch_matches_single_hand_path(hands: list[list[int]], runs_only: bool) -> None:
    packed = _packed([tuple(h) for h in hands], 10)
    result = tonk.evaluate_batch(packed, np.zeros((1, 0), np.uint8), Options(runs_only))
    for index, hand in enumerate(hands):
        single = tonk.evaluate(tuple(hand), (), (), Options())
        assert result.value[index] == tonk.headline(single)
        assert result.strength[index] == single.strength
    assert not result.instant_win.any()
    assert not result.low_strength.any()


def test_batch_tries_every_set_choice_on_random_ten_card_hands() -> None:
    rng = np.random.default_rng(3)
    rank_heavy = [tuple(int(c) for c in rng.choice(24, size=10, replace=False)) for _ in range(300)]
    packed = _packed(rank_heavy, 10)
    result = tonk.evaluate_batch(packed, np.zeros((1, 0), np.uint8), Options())
    expected = [tonk.headline(tonk.evaluate(h, (), (), Options())) for h in rank_heavy]
    assert result.value.tolist() == expected
