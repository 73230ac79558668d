"""NotPoker against docs/rules.md's worked examples and an obviously correct brute force.

The brute force tries every joker assignment (13 ranks per joker, in every order), reads
the groups literally and compares by a plain Python tuple; the module under test instead
looks the hand up in a table built once.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluators.cards import RANKS, parse_card
from evaluators.games import not_poker
from evaluators.games.not_poker import (
    SUMMARY,
    TABLE_SIZE,
    NotPokerCategory,
    NotPokerDetail,
    evaluate_batch,
    headline,
    reading_table,
    signature_index,
)
from evaluators.inputs import Cards, Options
from evaluators.results import Evaluation

HAND_EXAMPLE: dict[str, Any] = {"hand": ["As", "Ad", "Ac", "X1", "2h", "2d"], "table": []}
"""One valid hand (and its table, and table spreads where the game has them): the tests
that run every game read this file's examples (tests/unit/games/examples.py)."""
DETAIL_FIELD = "not_poker"
"""The ``oneof detail`` field the game's evaluations fill (docs/api.md)."""
DETAIL_EXAMPLE: dict[str, Any] = {
    "category": "NOT_POKER_CATEGORY_TWO_TRIPS",
    "groups": ["AAA", "222"],
    "jokers_as": ["2"],
}
"""The hand's detail as the wire carries it."""
FULL_DEAL = (6, 0)
"""The (hand, table) sizes the dealer deals by default: the most the game takes."""
SHOWDOWN_EXAMPLE: dict[str, Any] = {
    "seats": [
        ("alice", ["As", "Ad", "Ac", "X1", "2h", "2d"]),
        ("bob", ["Ks", "Kd", "Qc", "X2", "3h", "3d"]),
    ],
    "table": [],
}
"""One valid two-seat showdown."""

X1, X2 = 52, 53
NO_OPTIONS = Options()

BruteKey = tuple[int, tuple[int, ...]]


def brute_read(ranks: list[int]) -> tuple[BruteKey, tuple[str, ...]]:
    """Read six ranks literally: (comparison key, larger is better; groups as text)."""
    trips: list[int] = []
    pairs: list[int] = []
    singles: list[int] = []
    for rank, n in Counter(ranks).items():
        if n == 1:
            singles.append(rank)
        elif n == 2:
            pairs.append(rank)
        elif n == 3:
            trips.append(rank)
        elif n == 4:
            pairs += [rank, rank]
        elif n == 5:
            trips.append(rank)
            pairs.append(rank)
        else:
            trips += [rank, rank]
    trips.sort(reverse=True)
    pairs.sort(reverse=True)
    singles.sort(reverse=True)
    if len(trips) == 2:
        category = 1
    elif len(pairs) == 3:
        category = 2
    elif trips and pairs:
        category = 3
    elif trips:
        category = 4
    elif len(pairs) == 2:
        category = 5
    elif pairs:
        category = 6
    else:
        category = 7
    groups = (
        [RANKS[r] * 3 for r in trips] + [RANKS[r] * 2 for r in pairs] + [RANKS[r] for r in singles]
    )
    return (-category, tuple(trips + pairs + singles)), tuple(groups)


def brute_best(hand: Cards) -> tuple[BruteKey, tuple[str, ...], list[str]]:
    """Best (key, groups, sorted joker ranks) over every joker assignment, in every order."""
    naturals = [card // 4 for card in hand if card < 52]
    jokers = len(hand) - len(naturals)
    best: tuple[BruteKey, tuple[str, ...], list[str]] | None = None
    for assignment in itertools.product(range(13), repeat=jokers):
        key, groups = brute_read(naturals + list(assignment))
        if best is None or key > best[0]:
            best = (key, groups, sorted(RANKS[r] for r in assignment))
    assert best is not None
    return best


def cards(text: str) -> Cards:
    return tuple(parse_card(t) for t in text.split())


def evaluate(text: str) -> Evaluation:
    return not_poker.evaluate(cards(text), (), (), NO_OPTIONS)


def detail(evaluation: Evaluation) -> NotPokerDetail:
    assert isinstance(evaluation.detail, NotPokerDetail)
    return evaluation.detail


def hand_of(symbols: tuple[int, ...]) -> Cards:
    """A concrete hand for a multiset of rank symbols (13 = joker): suits c, d, h, s in turn."""
    hand: list[int] = []
    seen: Counter[int] = Counter()
    jokers = iter((X1, X2))
    for symbol in symbols:
        if symbol == 13:
            hand.append(next(jokers))
        else:
            hand.append(symbol * 4 + seen[symbol])
            seen[symbol] += 1
    return tuple(hand)


def real_hands(jokers: int) -> list[Cards]:
    """One hand for every rank multiset of 6 - jokers natural cards (at most 4 a rank)."""
    return [
        hand_of(naturals + (13,) * jokers)
        for naturals in itertools.combinations_with_replacement(range(13), 6 - jokers)
        if max(Counter(naturals).values()) <= 4
    ]


# docs/rules.md's worked examples, one test each.


def test_two_trips_compare_the_higher_trips_first() -> None:
    kings_and_twos = evaluate("Kc Kd Kh 2c 2d 2h")
    queens_and_nines = evaluate("Qc Qd Qh 9c 9d 9h")
    assert detail(kings_and_twos).category is NotPokerCategory.TWO_TRIPS
    assert detail(kings_and_twos).groups == ("KKK", "222")
    assert kings_and_twos.description == "Two trips, kings and twos"
    assert kings_and_twos.strength > queens_and_nines.strength


def test_full_house_compares_the_trips_before_the_pair() -> None:
    kings_full = evaluate("Kc Kd Kh 2c 2d 3h")
    queens_full_of_aces = evaluate("Qc Qd Qh Ac Ad Kh")
    assert detail(kings_full).category is NotPokerCategory.FULL_HOUSE
    assert detail(kings_full).groups == ("KKK", "22", "3")
    assert detail(queens_full_of_aces).groups == ("QQQ", "AA", "K")
    assert kings_full.strength > queens_full_of_aces.strength


def test_four_of_a_kind_reads_as_two_pairs_and_beats_lower_two_pairs() -> None:
    four_kings = evaluate("Kc Kd Kh Ks 5c 3d")
    kings_and_queens = evaluate("Kc Kd Qc Qd Ac 2d")
    assert detail(four_kings).category is NotPokerCategory.TWO_PAIRS
    assert detail(four_kings).groups == ("KK", "KK", "5", "3")
    assert detail(kings_and_queens).groups == ("KK", "QQ", "A", "2")
    assert four_kings.strength > kings_and_queens.strength


def test_joker_beside_four_aces_pairs_the_single_for_three_pairs() -> None:
    result = evaluate("Ac Ad Ah As X1 3c")
    assert detail(result) == NotPokerDetail(
        NotPokerCategory.THREE_PAIRS, ("AA", "AA", "33"), ("3",)
    )


def test_two_jokers_beside_trips_and_a_single_make_two_trips() -> None:
    result = evaluate("Ac Ad Ah X1 X2 3c")
    assert detail(result) == NotPokerDetail(NotPokerCategory.TWO_TRIPS, ("AAA", "333"), ("3", "3"))


def test_four_aces_and_both_jokers_is_the_best_hand_there_is() -> None:
    result = evaluate("Ac Ad Ah As X1 X2")
    assert detail(result) == NotPokerDetail(NotPokerCategory.TWO_TRIPS, ("AAA", "AAA"), ("A", "A"))
    assert result.strength == int(reading_table().strength.max())


# The rest of the rules.


def test_categories_rank_best_first_in_rules_order() -> None:
    one_of_each = [
        "2c 2d 2h 3c 3d 3h",  # two trips, the lowest
        "Ac Ad Kc Kd Qc Qd",  # three pairs
        "Ac Ad Ah Kc Kd Qc",  # full house
        "Ac Ad Ah Kc Qc Jc",  # trips
        "Ac Ad Kc Kd Qc Jc",  # two pairs
        "Ac Ad Kc Qc Jc 9c",  # pair
        "Ac Kc Qc Jc 9c 8c",  # high card
    ]
    results = [evaluate(text) for text in one_of_each]
    assert [detail(r).category for r in results] == list(NotPokerCategory)
    strengths = [r.strength for r in results]
    assert strengths == sorted(strengths, reverse=True)
    assert len(set(strengths)) == len(strengths)


def test_singles_break_a_tie_between_equal_combinations() -> None:
    assert evaluate("Ac Ad Kc Kd 9c 3d").strength > evaluate("Ah As Kh Ks 8c 7d").strength


def test_suits_never_matter_and_equal_readings_tie() -> None:
    assert evaluate("Kc Kd Kh 2c 2d 2h").strength == evaluate("Ks Kd Kc 2s 2h 2d").strength
    assert evaluate("Ac Ad Ah X1 X2 3c").strength == evaluate("Ac Ad Ah 3c 3d 3h").strength


def test_jokers_as_lists_x1_first_whatever_the_hand_order() -> None:
    result = evaluate("Ac Ad Kh Ks X2 X1")
    assert detail(result).groups == ("AAA", "KKK")
    assert detail(result).jokers_as == ("A", "K")


def test_a_lone_x2_is_reported_like_a_lone_x1() -> None:
    with_x2 = evaluate("Ac Ad Kc Qd X2 2c")
    with_x1 = evaluate("Ac Ad Kc Qd X1 2c")
    assert with_x2 == with_x1
    assert detail(with_x2) == NotPokerDetail(NotPokerCategory.TRIPS, ("AAA", "K", "Q", "2"), ("A",))


def test_descriptions_name_the_combinations() -> None:
    assert evaluate("Kc Kd Kh 2c 2d 3h").description == "Full house, kings full of twos"
    assert evaluate("Kc Kd Kh Ks 5c 3d").description == "Two pairs, both kings"
    assert evaluate("Ac Ad Ah As X1 3c").description == "Three pairs, aces, aces and threes"
    assert evaluate("Tc Td 2c 3c 4c 5c").description == "Pair of tens"
    assert evaluate("Ac Kc Qc Jc 9c 8c").description == "High card, ace"


def test_headline_is_the_category_number() -> None:
    assert headline(evaluate("Ac Ad Ah As X1 X2")) == 1
    assert headline(evaluate("Ac Kc Qc Jc 9c 8c")) == 7


def test_summary_is_a_paragraph_for_people() -> None:
    assert "joker" in SUMMARY and "two pairs" in SUMMARY


def test_signature_index_numbers_every_multiset_densely() -> None:
    indexes = [
        signature_index(symbols)
        for symbols in itertools.combinations_with_replacement(range(14), 6)
    ]
    assert sorted(indexes) == list(range(TABLE_SIZE))


def test_table_is_built_once_per_process() -> None:
    assert reading_table() is reading_table()


# Every real hand shape against the brute force.


@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_every_hand_shape_reads_as_the_brute_force_best(jokers: int) -> None:
    for hand in real_hands(jokers):
        _, groups, joker_ranks = brute_best(hand)
        got = detail(not_poker.evaluate(hand, (), (), NO_OPTIONS))
        assert got.groups == groups, hand
        assert sorted(got.jokers_as) == joker_ranks, hand
        assert list(got.jokers_as) == sorted(got.jokers_as, key=RANKS.index, reverse=True)


def test_strength_orders_every_hand_shape_as_the_brute_force() -> None:
    pairs: list[tuple[BruteKey, int]] = []
    for jokers in (0, 1, 2):
        for hand in real_hands(jokers):
            key = brute_best(hand)[0]
            evaluation = not_poker.evaluate(hand, (), (), NO_OPTIONS)
            assert headline(evaluation) == -key[0]
            pairs.append((key, evaluation.strength))
    pairs.sort()
    for (key_a, strength_a), (key_b, strength_b) in itertools.pairwise(pairs):
        assert (strength_a < strength_b) if key_a < key_b else (strength_a == strength_b)


# Hypothesis: random hands, weighted towards many same-rank cards and jokers.


@st.composite
def hands(draw: st.DrawFn) -> Cards:
    jokers = draw(st.sampled_from([(), (X1,), (X2,), (X1, X2)]))
    pool = draw(st.lists(st.integers(0, 12), min_size=2, max_size=13, unique=True))
    ranks = draw(
        st.lists(st.sampled_from(pool), min_size=6 - len(jokers), max_size=6 - len(jokers)).filter(
            lambda rs: max(Counter(rs).values()) <= 4
        )
    )
    suits: Counter[int] = Counter()
    natural: list[int] = []
    for rank in ranks:
        natural.append(rank * 4 + suits[rank])
        suits[rank] += 1
    return tuple(draw(st.permutations(natural + list(jokers))))


any_hand = st.one_of(
    hands(), st.lists(st.integers(0, 53), min_size=6, max_size=6, unique=True).map(tuple)
)


@settings(max_examples=300, deadline=None)
@given(any_hand)
def test_random_hand_reads_as_the_brute_force_best(hand: Cards) -> None:
    key, groups, joker_ranks = brute_best(hand)
    got = detail(not_poker.evaluate(hand, (), (), NO_OPTIONS))
    assert got.category == -key[0]
    assert got.groups == groups
    assert sorted(got.jokers_as) == joker_ranks


@settings(max_examples=300, deadline=None)
@given(any_hand, any_hand)
def test_stronger_hand_is_the_one_the_brute_force_prefers(a: Cards, b: Cards) -> None:
    key_a, key_b = brute_best(a)[0], brute_best(b)[0]
    strength_a = not_poker.evaluate(a, (), (), NO_OPTIONS).strength
    strength_b = not_poker.evaluate(b, (), (), NO_OPTIONS).strength
    assert (strength_a > strength_b) == (key_a > key_b)
    assert (strength_a == strength_b) == (key_a == key_b)


# Batch path: same table, same answers.


def random_hands(rng: np.random.Generator, count: int, deck: int) -> np.ndarray:
    return np.argsort(rng.random((count, deck)), axis=1)[:, :6].astype(np.uint8)


@pytest.mark.parametrize("deck", [52, 54], ids=["no-jokers", "with-jokers"])
def test_batch_equals_single_hand_path(deck: int) -> None:
    batch_hands = random_hands(np.random.default_rng(deck), 5000, deck)
    result = evaluate_batch(batch_hands, np.zeros((1, 0), np.uint8), NO_OPTIONS)
    singles = [not_poker.evaluate(tuple(map(int, h)), (), (), NO_OPTIONS) for h in batch_hands]
    assert result.strength.tolist() == [e.strength for e in singles]
    assert result.value.tolist() == [headline(e) for e in singles]
    assert not result.instant_win.any()
    assert not result.low_strength.any()


def test_batch_equals_single_hand_path_on_every_hand_shape() -> None:
    every = [h for jokers in (0, 1, 2) for h in real_hands(jokers)]
    batch_hands = np.array([list(h) for h in every], dtype=np.uint8)[:, ::-1]
    result = evaluate_batch(batch_hands, np.zeros((len(every), 0), np.uint8), NO_OPTIONS)
    singles = [not_poker.evaluate(h, (), (), NO_OPTIONS) for h in every]
    assert result.strength.tolist() == [e.strength for e in singles]
    assert result.value.tolist() == [headline(e) for e in singles]


def test_the_batch_index_of_every_symbol_multiset_is_its_signature_index() -> None:
    multisets = list(itertools.combinations_with_replacement(range(not_poker.SYMBOLS), 6))
    rng = np.random.default_rng(6)
    symbols = rng.permuted(np.array(multisets, dtype=np.uint8), axis=1)
    cards = symbols * np.uint8(4) + rng.integers(0, 2, symbols.shape, dtype=np.uint8)
    index = not_poker.batch_signature_index(cards)
    assert index.tolist() == [not_poker.signature_index(m) for m in multisets]
    assert sorted(index.tolist()) == list(range(not_poker.TABLE_SIZE))


def test_empty_batch_scores_nothing() -> None:
    result = evaluate_batch(np.zeros((0, 6), np.uint8), np.zeros((1, 0), np.uint8), NO_OPTIONS)
    assert result.strength.shape == result.value.shape == (0,)
