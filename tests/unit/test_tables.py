"""The poker lookup tables, checked against slow paths written here from the rules."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluators.tables import builds, poker_tables, table_info
from evaluators.tables.card_keys import (
    BOARD_RANK_INDEXES,
    BOARD_RANK_WEIGHTS,
    DOTS_BY_RANK,
    DOTS_MASK,
    DOTS_SHIFT,
    RANK_MASK,
    SUM_START,
    card_key,
    flush_rank_bit,
    flush_suit,
)
from evaluators.tables.five_card_classes import (
    CLASS_COUNT,
    PokerCategory,
    build_five_card_classes,
    category_of_class,
    counts_of,
    order_key,
)
from evaluators.tables.perfect_hash import build_perfect_hash, slots_of
from evaluators.tables.poker_build import build_unsuited_levels

FIVE_CARD_CLASSES = build_five_card_classes()
UNSUITED, SUITED = FIVE_CARD_CLASSES


def test_five_card_classes_number_7462_each_used_once() -> None:
    classes = sorted([*UNSUITED.values(), *SUITED.values()])
    assert classes == list(range(1, CLASS_COUNT + 1))
    assert (len(UNSUITED), len(SUITED)) == (6175, 1287)


def test_each_category_has_its_textbook_number_of_classes() -> None:
    per_category = Counter(category_of_class(c) for c in range(1, CLASS_COUNT + 1))
    assert per_category == {
        PokerCategory.STRAIGHT_FLUSH: 10,
        PokerCategory.FOUR_OF_A_KIND: 156,
        PokerCategory.FULL_HOUSE: 156,
        PokerCategory.FLUSH: 1277,
        PokerCategory.STRAIGHT: 10,
        PokerCategory.THREE_OF_A_KIND: 858,
        PokerCategory.TWO_PAIR: 858,
        PokerCategory.ONE_PAIR: 2860,
        PokerCategory.HIGH_CARD: 1277,
    }


def test_class_boundaries_agree_with_the_order_key_category() -> None:
    for packed, rank_class in UNSUITED.items():
        assert order_key(counts_of(packed), suited=False)[0] == category_of_class(rank_class)
    for mask, rank_class in SUITED.items():
        counts = tuple((mask >> r) & 1 for r in range(13))
        assert order_key(counts, suited=True)[0] == category_of_class(rank_class)


def test_category_of_class_refuses_classes_outside_the_range() -> None:
    for bad in (0, CLASS_COUNT + 1):
        with pytest.raises(ValueError, match="outside"):
            category_of_class(bad)


def _best_unsuited_by_subsets(ranks: list[int]) -> int:
    """Slow path: best class over every five-card sub-multiset."""
    best = CLASS_COUNT + 1
    for five in combinations(ranks, 5):
        best = min(best, UNSUITED[sum(1 << (3 * r) for r in five)])
    return best


def test_six_and_seven_card_rank_multisets_take_the_best_five_of_them() -> None:
    keys, classes = build_unsuited_levels(UNSUITED)
    assert len(keys) == 6175 + 18395 + 49205
    for index in range(6175, len(keys)):
        counts = counts_of(int(keys[index]))
        ranks = [r for r, n in enumerate(counts) for _ in range(n)]
        assert classes[index] == _best_unsuited_by_subsets(ranks)


def test_flush_table_takes_the_best_five_ranks_of_the_suit() -> None:
    flush_classes = poker_tables().classes.flush_classes
    for size in (5, 6, 7):
        for ranks in combinations(range(13), size):
            mask = sum(1 << r for r in ranks)
            best = min(SUITED[sum(1 << r for r in five)] for five in combinations(ranks, 5))
            assert flush_classes[mask] == best
    assert not flush_classes[0b1111]


def test_every_unsuited_key_has_its_own_slot_holding_its_class() -> None:
    keys, classes = build_unsuited_levels(UNSUITED)
    tables = poker_tables().classes
    slots = slots_of(tables.perfect_hash, keys)
    assert len(np.unique(slots)) == len(keys)
    assert (tables.unsuited_classes[slots] == classes).all()


def test_perfect_hash_separates_an_arbitrary_key_set() -> None:
    keys = np.unique(np.random.default_rng(3).integers(0, 1 << 40, 5000, dtype=np.uint64))
    perfect_hash = build_perfect_hash(keys, bucket_bits=10, slot_bits=13)
    slots = slots_of(perfect_hash, keys)
    assert len(np.unique(slots)) == len(keys)
    assert slots.max() < perfect_hash.slot_count


def test_perfect_hash_refuses_repeated_keys() -> None:
    with pytest.raises(ValueError, match="distinct"):
        build_perfect_hash([5, 9, 5], bucket_bits=2, slot_bits=4)


@settings(max_examples=200)
@given(st.lists(st.integers(0, 51), min_size=1, max_size=7, unique=True))
def test_summed_card_keys_hold_rank_counts_suit_counts_and_dots(cards: list[int]) -> None:
    key_sum = SUM_START + sum(card_key(c) for c in cards)
    rank_counts = Counter(c >> 2 for c in cards)
    suit_counts = Counter(c & 3 for c in cards)
    assert counts_of(key_sum & RANK_MASK) == tuple(rank_counts[r] for r in range(13))
    assert (key_sum >> DOTS_SHIFT) & DOTS_MASK == sum(DOTS_BY_RANK[c >> 2] for c in cards)
    flushed = [s for s in range(4) if suit_counts[s] >= 5]
    assert flush_suit(key_sum) == (flushed[0] if flushed else -1)
    rank_bits = sum(flush_rank_bit(c) for c in cards)
    for suit in range(4):
        expected = sum(1 << (c >> 2) for c in cards if c & 3 == suit)
        assert (rank_bits >> (16 * suit)) & 0x1FFF == expected


def test_board_rank_weights_give_each_rank_multiset_its_own_index() -> None:
    for size in range(6):
        multisets = [
            ranks
            for ranks in combinations_with_replacement(range(13), size)
            if max(Counter(ranks).values(), default=0) <= 4
        ]
        sums = [sum(BOARD_RANK_WEIGHTS[rank] for rank in ranks) for ranks in multisets]
        assert len(set(sums)) == len(multisets)
        assert max(sums) < BOARD_RANK_INDEXES
    assert max(sums) == BOARD_RANK_INDEXES - 1


def test_bytes_outside_the_deck_add_nothing() -> None:
    tables = poker_tables()
    assert not tables.card_keys[52:].any()
    assert not tables.flush_rank_bits[52:].any()
    assert card_key(255) == 0


def test_numpy_and_python_copies_hold_the_same_values() -> None:
    tables = poker_tables()
    assert list(tables.py_unsuited_classes) == tables.classes.unsuited_classes.tolist()
    assert list(tables.py_flush_classes) == tables.classes.flush_classes.tolist()
    assert list(tables.py_displacements) == tables.classes.perfect_hash.displacements.tolist()
    assert tables.py_card_keys == tuple(tables.card_keys.tolist())
    pairs = tables.pair_keys.reshape(256, 256)
    assert (pairs == tables.card_keys[:, None] + tables.card_keys[None, :]).all()


def test_tables_are_built_once_per_process() -> None:
    assert poker_tables() is poker_tables()


def test_table_info_reports_each_table_size_and_its_own_build_time() -> None:
    poker_tables()
    infos = {info.name: info for info in table_info()}
    assert {"poker.five_card_classes", "poker.unsuited_classes", "poker.flush_classes"} <= set(
        infos
    )
    for name, size, seconds in infos.values():
        assert name.startswith(("poker.", "not_poker.", "tonk.")) and size > 0 and seconds > 0
    assert len({info.build_seconds for info in infos.values()}) == len(infos)


def test_a_build_inside_another_is_timed_as_its_own_and_left_out_of_the_outer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a clock that only the builders move: the outer build spends 1 s of its own
    around an inner one that takes 5 s; each is reported with its own."""
    now = [0.0]
    monkeypatch.setattr(builds, "perf_counter", lambda: now[0])
    monkeypatch.setattr(builds, "_built", {})

    @builds.lookup_table("test.inner", len)
    def inner() -> tuple[int, ...]:
        now[0] += 5.0
        return (1, 2)

    @builds.lookup_table("test.outer", len)
    def outer() -> tuple[int, ...]:
        now[0] += 0.5
        inner()
        now[0] += 0.5
        return (*inner(), 3)

    assert outer() == (1, 2, 3) and outer() is outer()
    assert builds.table_info() == (
        builds.TableInfo("test.inner", 2, 5.0),
        builds.TableInfo("test.outer", 3, 1.0),
    )
