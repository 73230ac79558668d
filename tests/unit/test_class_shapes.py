"""Class shapes (evaluators/tables/class_shapes.py) against phevaluator and the rules."""

from __future__ import annotations

from collections import Counter

from phevaluator import evaluate_cards

from evaluators.tables.class_shapes import class_shapes, top_cards
from evaluators.tables.five_card_classes import CLASS_COUNT, PokerCategory, category_of_class


def five_of(rank_class: int) -> tuple[int, ...]:
    """Five cards of the class: the shape's ranks, suits spread out (one suit if suited)."""
    shape = class_shapes()[rank_class]
    if shape.suited_fives:
        return shape.suited_fives[0]
    cards: list[int] = []
    for _shift, base in shape.groups:
        count = base % 4 + 1
        nibble = 15 if count == 4 else 0b0111 if count == 3 else 0b0101 if count == 2 else 0b0010
        cards += top_cards()[base + nibble * 4]
    suits = Counter(card & 3 for card in cards)
    if len(suits) == 1:  # five singles of one suit would be a flush: move one card's suit
        cards[-1] ^= 1
    return tuple(cards)


def test_every_class_has_five_cards_that_score_that_class() -> None:
    for rank_class in range(1, CLASS_COUNT + 1):
        five = five_of(rank_class)
        assert len(set(five)) == 5
        assert evaluate_cards(*five) == rank_class


def test_the_shape_carries_the_category_and_strength_of_its_class() -> None:
    for rank_class in range(1, CLASS_COUNT + 1):
        shape = class_shapes()[rank_class]
        assert shape.category is category_of_class(rank_class)
        assert shape.strength == CLASS_COUNT + 1 - rank_class


def test_groups_come_larger_first_then_higher_rank_and_the_wheel_ends_with_its_ace() -> None:
    for rank_class in range(1, CLASS_COUNT + 1):
        ranks = [card >> 2 for card in five_of(rank_class)]
        shape = class_shapes()[rank_class]
        if shape.category in (PokerCategory.STRAIGHT, PokerCategory.STRAIGHT_FLUSH):
            top = ranks[0]
            expected = [3, 2, 1, 0, 12] if top == 3 else list(range(top, top - 5, -1))
        else:
            counts = Counter(ranks)
            expected = sorted(ranks, key=lambda r: (counts[r], r), reverse=True)
        assert ranks == expected


def test_top_cards_are_the_highest_ids_of_the_rank_held() -> None:
    for rank in range(13):
        for nibble in range(16):
            held = sorted((4 * rank + s for s in range(4) if nibble >> s & 1), reverse=True)
            for count in range(1, 5):
                assert top_cards()[64 * rank + 4 * nibble + count - 1] == tuple(held[:count])
