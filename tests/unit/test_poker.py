"""Poker high (docs/rules.md "Poker high hands"): classes as phevaluator's, best five, batches."""

from __future__ import annotations

from collections import Counter
from itertools import chain, combinations

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from phevaluator import evaluate_cards

from evaluators import poker
from evaluators.cards import EMPTY, parse_card
from evaluators.games import poker_high
from evaluators.inputs import Cards, Options
from evaluators.poker import PokerDetail
from evaluators.tables.five_card_classes import PokerCategory, category_of_class
from tests.unit.batch_dtypes import has_batch_dtypes

OPTIONS = Options()
NO_TABLE = np.zeros((1, 0), dtype=np.uint8)


def cards(text: str) -> Cards:
    return tuple(parse_card(c) for c in text.split())


def detail(text: str) -> PokerDetail:
    return poker.best_hand(cards(text))


def random_deals(count: int, size: int, seed: int) -> npt.NDArray[np.uint8]:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((count, 52)), axis=1)[:, :size].astype(np.uint8)


def phevaluator_classes(deals: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    columns = [deals[:, i].tolist() for i in range(deals.shape[1])]
    return np.fromiter(map(evaluate_cards, *columns), dtype=np.int64, count=len(deals))


def brute_force_order(hand: Cards) -> tuple[int, tuple[int, ...]]:
    """Obviously correct and slow: the best (category, tie-break) over every five cards."""

    def five_card(five: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
        counts = Counter(c >> 2 for c in five)
        groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
        ranks = tuple(r for _, r in groups)
        shape = tuple(n for n, _ in groups)
        flush = len({c & 3 for c in five}) == 1
        straight_top = None
        if shape == (1, 1, 1, 1, 1):
            if ranks[0] - ranks[4] == 4:
                straight_top = ranks[0]
            elif ranks == (12, 3, 2, 1, 0):
                straight_top = 3
        if straight_top is not None:
            return (9 if flush else 5), (straight_top,)
        if flush:
            return 6, ranks
        category = {(4, 1): 8, (3, 2): 7, (3, 1, 1): 4, (2, 2, 1): 3, (2, 1, 1, 1): 2}
        return category.get(shape, 1), ranks

    return max(five_card(five) for five in combinations(hand, 5))


def all_five_card_hands() -> npt.NDArray[np.uint8]:
    flat = chain.from_iterable(combinations(range(52), 5))
    return np.fromiter(flat, dtype=np.uint8, count=2_598_960 * 5).reshape(-1, 5)


@pytest.fixture(scope="module")
def five_card_batch() -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    hands = all_five_card_hands()
    return hands, poker_high.evaluate_batch(hands, NO_TABLE, OPTIONS).value


def test_all_five_card_hands_have_the_textbook_category_counts(
    five_card_batch: tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]],
) -> None:
    _, classes = five_card_batch
    per_class = np.bincount(classes, minlength=7463)
    per_category = Counter[PokerCategory]()
    for rank_class in np.flatnonzero(per_class):
        per_category[category_of_class(int(rank_class))] += int(per_class[rank_class])
    assert per_category == {
        PokerCategory.STRAIGHT_FLUSH: 40,
        PokerCategory.FOUR_OF_A_KIND: 624,
        PokerCategory.FULL_HOUSE: 3_744,
        PokerCategory.FLUSH: 5_108,
        PokerCategory.STRAIGHT: 10_200,
        PokerCategory.THREE_OF_A_KIND: 54_912,
        PokerCategory.TWO_PAIR: 123_552,
        PokerCategory.ONE_PAIR: 1_098_240,
        PokerCategory.HIGH_CARD: 1_302_540,
    }
    assert np.count_nonzero(per_class) == 7462


def test_all_five_card_hands_have_phevaluators_class(
    five_card_batch: tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]],
) -> None:
    """phevaluator is asked once per kind of hand (its sorted ranks, and whether it is a
    flush), which decides a five-card class, and its answer is spread over every hand."""
    hands, classes = five_card_batch
    ranks = np.sort(hands >> 2, axis=1).astype(np.int64)
    flush = (hands & 3 == hands[:, :1] & 3).all(axis=1)
    kind = (ranks * 13 ** np.arange(5)).sum(axis=1) * 2 + flush
    _, first, of_kind = np.unique(kind, return_index=True, return_inverse=True)
    assert len(first) == 1287 + 6175  # rank sets a flush can have, and the other rank multisets
    assert (classes == phevaluator_classes(hands[first])[of_kind]).all()


@pytest.mark.parametrize("size", [6, 7])
def test_random_six_and_seven_card_batches_match_phevaluator(size: int) -> None:
    deals = random_deals(200_000 if size == 7 else 50_000, size, seed=size)
    result = poker_high.evaluate_batch(deals, NO_TABLE, OPTIONS)
    expected = phevaluator_classes(deals)
    assert (result.value == expected).all()
    assert (result.strength == 7463 - expected).all()
    assert not result.low_strength.any()
    assert not result.instant_win.any()
    assert has_batch_dtypes(result)


def test_single_hands_match_phevaluator_and_the_batch() -> None:
    deals = random_deals(3_000, 7, seed=11)
    expected = phevaluator_classes(deals)
    batch = poker_high.evaluate_batch(deals, NO_TABLE, OPTIONS)
    for row, rank_class, strength in zip(deals.tolist(), expected, batch.strength, strict=True):
        evaluation = poker_high.evaluate(tuple(row[:2]), tuple(row[2:]), (), OPTIONS)
        assert poker_high.headline(evaluation) == rank_class
        assert evaluation.strength == strength == 7463 - rank_class


@pytest.mark.parametrize(
    ("hole", "board"), [(2, 5), (3, 4), (4, 3), (7, 0), (1, 4), (4, 1), (5, 0), (2, 3), (1, 5)]
)
def test_hole_cards_plus_a_board_match_phevaluator(hole: int, board: int) -> None:
    deals = random_deals(5_000, hole + board, seed=hole * 10 + board)
    expected = phevaluator_classes(deals)
    hands, tables = deals[:, :hole], deals[:, hole:]
    assert (poker_high.evaluate_batch(hands, tables, OPTIONS).value == expected).all()
    for row in deals[:200].tolist():
        evaluation = poker_high.evaluate(tuple(row[:hole]), tuple(row[hole:]), (), OPTIONS)
        assert evaluation.detail == poker.best_hand(tuple(row))


def test_a_shared_board_scores_like_the_same_board_on_every_row() -> None:
    deck = random_deals(1, 52, seed=3)[0]
    board = deck[:5].reshape(1, 5)
    holes = np.array(list(combinations(deck[5:].tolist(), 2)), dtype=np.uint8)
    shared = poker_high.evaluate_batch(holes, board, OPTIONS)
    repeated = poker_high.evaluate_batch(holes, np.repeat(board, len(holes), axis=0), OPTIONS)
    assert (shared.value == repeated.value).all()
    full = np.concatenate([holes, np.repeat(board, len(holes), axis=0)], axis=1)
    assert (shared.value == phevaluator_classes(full)).all()


def test_padded_hands_and_tables_score_like_their_real_cards() -> None:
    rng = np.random.default_rng(17)
    deals = random_deals(4_000, 7, seed=17)
    real_cards = rng.integers(5, 8, len(deals))
    hands = deals[:, :4].copy()
    tables = deals[:, 4:].copy()
    for row, real in enumerate(real_cards):
        hand_real = int(rng.integers(max(1, real - 3), 5))
        hands[row, hand_real:] = EMPTY
        tables[row, real - hand_real :] = EMPTY
    batch = poker_high.evaluate_batch(hands, tables, OPTIONS)
    for row in range(len(deals)):
        hand = tuple(c for c in hands[row].tolist() if c != EMPTY)
        table = tuple(c for c in tables[row].tolist() if c != EMPTY)
        assert 5 <= len(hand + table) <= 7
        assert batch.value[row] == evaluate_cards(*hand, *table)
        assert batch.strength[row] == poker_high.evaluate(hand, table, (), OPTIONS).strength


def test_a_royal_flush_is_class_1_and_seven_five_high_is_class_7462() -> None:
    royal = poker_high.evaluate(cards("As Ks"), cards("Qs Js Ts"), (), OPTIONS)
    assert poker_high.headline(royal) == 1
    assert royal.strength == 7462
    assert royal.description == "Straight flush, ace high (royal flush)"
    worst = poker_high.evaluate(cards("7c 5d"), cards("4h 3s 2c"), (), OPTIONS)
    assert poker_high.headline(worst) == 7462
    assert worst.strength == 1
    assert worst.description == "High card, seven"


def test_the_wheel_is_the_lowest_straight() -> None:
    wheel = detail("Ah 2c 3d 4s 5h")
    six_high = detail("2c 3d 4s 5h 6h")
    assert wheel.category is PokerCategory.STRAIGHT
    assert wheel.rank_class == 1609
    assert six_high.rank_class == wheel.rank_class - 1
    assert wheel.best_five == cards("5h 4s 3d 2c Ah")
    assert detail("Ah 2h 3h 4h 5h").rank_class == 10


def test_straights_do_not_wrap_around_the_ace() -> None:
    wrapped = detail("Kh Ac 2d 3s 4h")
    assert wrapped.category is PokerCategory.HIGH_CARD


@pytest.mark.parametrize(
    ("hand", "description"),
    [
        ("Kh Kd Ks 2c 2d 9h 3c", "Full house, kings full of twos"),
        ("Ah Ad 8c 8s 3d 3h Kc", "Two pair, aces and eights"),
        ("9h 9d 9s 9c Ah Ad", "Four of a kind, nines"),
        ("Qh 8h 5h 3h 2h Kc", "Flush, queen high"),
        ("6c 7d 8h 9s Th Tc", "Straight, ten high"),
        ("5s 6s 7s 8s 9s As", "Straight flush, nine high"),
        ("Jc Jd Js 4h 2c", "Three of a kind, jacks"),
        ("Th Tc 2d 5s 9h", "One pair, tens"),
    ],
)
def test_descriptions_name_the_hand_for_people(hand: str, description: str) -> None:
    evaluation = poker_high.evaluate(cards(hand), (), (), OPTIONS)
    assert evaluation.description == description


@pytest.mark.parametrize(
    ("hand", "best_five"),
    [
        ("Kh Kd Ks 2c 2d 2h 3c", "Ks Kh Kd 2h 2d"),
        ("Ah Ad 8c 8s 3d 3h Kc", "Ah Ad 8s 8c Kc"),
        ("Ah Ad 8c 8s Kd Kh 2c", "Ah Ad Kh Kd 8s"),
        ("9h 9d 9s 9c Kh Kd 2c", "9s 9h 9d 9c Kh"),
        ("2h 5h 7h 9h Jh Kh 3c", "Kh Jh 9h 7h 5h"),
        ("As 2d 3c 4h 5s 5d 5c", "5s 4h 3c 2d As"),
        ("7c 7d 7s 2h 9h Jc Qd", "7s 7d 7c Qd Jc"),
    ],
)
def test_best_five_takes_the_groups_then_the_highest_kickers(hand: str, best_five: str) -> None:
    assert detail(hand).best_five == cards(best_five)


def test_best_five_score_what_the_seven_cards_score() -> None:
    for row in random_deals(3_000, 7, seed=23).tolist():
        found = poker.best_hand(tuple(row))
        assert set(found.best_five) <= set(row)
        assert len(set(found.best_five)) == 5
        assert evaluate_cards(*found.best_five) == found.rank_class


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 51), min_size=5, max_size=7, unique=True),
    st.lists(st.integers(0, 51), min_size=5, max_size=7, unique=True),
)
def test_strength_orders_hands_like_the_brute_force(first: list[int], second: list[int]) -> None:
    one, other = poker.best_hand(tuple(first)), poker.best_hand(tuple(second))
    assert one.category == brute_force_order(tuple(first))[0]
    by_strength = poker.strength_of(one.rank_class) - poker.strength_of(other.rank_class)
    by_brute_force = (brute_force_order(tuple(first)) > brute_force_order(tuple(second))) - (
        brute_force_order(tuple(first)) < brute_force_order(tuple(second))
    )
    assert np.sign(by_strength) == by_brute_force


def test_headline_refuses_another_games_evaluation() -> None:
    from evaluators.games import grocery_store_dots

    evaluation = grocery_store_dots.evaluate(cards("Ah Kh Qh Jh Th"), (), (), OPTIONS)
    with pytest.raises(TypeError):
        poker_high.headline(evaluation)
