"""Poker high: the best five-card hand out of 5-7 cards, by table lookups.

Every card adds a precomputed key (``tables.card_keys``); the sum holds the rank counts,
the suit counts and the dots. If a suit holds five or more cards, the flush suit's 13-bit
rank mask indexes the flush table; otherwise the packed rank counts go through a perfect
hash into the unsuited table. No five-card subsets are enumerated, per hand or per batch.

``rank_class`` is the Cactus-Kev class: 1 (royal flush) .. 7462 (7-5-4-3-2 unsuited),
lower is better, equal to phevaluator's ``evaluate_cards``. ``strength`` points the other
way, as everywhere in this service: ``7463 - rank_class``, higher is better, equal hands
equal strength.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from evaluators.cards import DECK_SIZE
from evaluators.inputs import Cards, Options
from evaluators.results import BatchResult, Evaluation, PokerCategory, PokerDetail
from evaluators.tables import PokerTables, poker_tables
from evaluators.tables.card_keys import (
    FLUSH_BITS,
    RANK_MASK,
    SUIT_MASK_SHIFT,
    SUIT_SHIFT,
    SUM_START,
    flush_suit,
)
from evaluators.tables.five_card_classes import CLASS_COUNT, WHEEL_TOP, category_of_class
from evaluators.tables.perfect_hash import BUCKET_MULTIPLIER, slots_of

SUMMARY = (
    "Poker high: each player's best five-card poker hand out of five to seven cards (their "
    "hole cards plus any board) wins; straight flush, four of a kind, full house, flush, "
    "straight, three of a kind, two pair, one pair, high card. A-2-3-4-5 is the lowest "
    "straight and straights do not wrap around. Hands are also given their Cactus-Kev class, "
    "1 for a royal flush to 7462 for 7-5-4-3-2, so they can be checked against other evaluators."
)

STRENGTH_BASE = CLASS_COUNT + 1
"""strength = STRENGTH_BASE - rank_class: higher is better."""

_U64 = (1 << 64) - 1
_FLUSH_RANK_MASK = 0x1FFF

_RANK_NAMES = (
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king", "ace",
)
_RANK_PLURALS = (
    "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
    "jacks", "queens", "kings", "aces",
)
_FIRST_CLASS = {
    PokerCategory.STRAIGHT_FLUSH: 1,
    PokerCategory.STRAIGHT: 1600,
}


def strength_of(rank_class: int) -> int:
    """Poker strength of a class: higher is better, 1 (worst) .. 7462 (royal flush)."""
    return STRENGTH_BASE - rank_class


def rank_class_of(cards: Cards) -> int:
    """Cactus-Kev class (1 best .. 7462 worst) of the best five of 5-7 distinct cards.

    Pure Python, a handful of integer operations and three table reads.
    """
    tables = poker_tables()
    card_keys = tables.py_card_keys
    key_sum = SUM_START
    for card in cards:
        key_sum += card_keys[card]
    if key_sum & FLUSH_BITS:
        suit = flush_suit(key_sum)
        mask = 0
        for card in cards:
            if card & 3 == suit and card < DECK_SIZE:
                mask |= 1 << (card >> 2)
        return tables.py_flush_classes[mask]
    return _unsuited_class(tables, key_sum & RANK_MASK)


def _unsuited_class(tables: PokerTables, rank_counts: int) -> int:
    perfect_hash = tables.classes.perfect_hash
    bucket = ((rank_counts * BUCKET_MULTIPLIER) & _U64) >> (64 - perfect_hash.bucket_bits)
    base = ((rank_counts * perfect_hash.slot_multiplier) & _U64) >> (64 - perfect_hash.slot_bits)
    return tables.py_unsuited_classes[base ^ tables.py_displacements[bucket]]


def best_five(cards: Cards, category: PokerCategory, rank_class: int) -> Cards:
    """The five cards making the hand, from its category and ranks (no subset search).

    Order: the hand's groups first (quads, trips, pairs, higher group first), then kickers
    high to low; straights from the top card down (the wheel ends with its ace). Among cards
    of equal rank the higher card id (suit order c < d < h < s) is taken first.
    """
    ordered = sorted(cards, reverse=True)
    while ordered and ordered[0] >= DECK_SIZE:
        del ordered[0]
    if category is PokerCategory.FLUSH or category is PokerCategory.STRAIGHT_FLUSH:
        suit_counts = [0, 0, 0, 0]
        for card in ordered:
            suit_counts[card & 3] += 1
        suit = suit_counts.index(max(suit_counts))
        ordered = [c for c in ordered if c & 3 == suit]
        if category is PokerCategory.FLUSH:
            return tuple(ordered[:5])
    if category is PokerCategory.STRAIGHT or category is PokerCategory.STRAIGHT_FLUSH:
        top = 12 - (rank_class - _FIRST_CLASS[category])
        ranks = (3, 2, 1, 0, 12) if top == WHEEL_TOP else range(top, top - 5, -1)
        first_of_rank: dict[int, int] = {}
        for card in ordered:
            first_of_rank.setdefault(card >> 2, card)
        return tuple(first_of_rank[r] for r in ranks)
    runs: list[list[int]] = []
    previous = -1
    for card in ordered:
        if card >> 2 == previous:
            runs[-1].append(card)
        else:
            runs.append([card])
            previous = card >> 2
    runs.sort(key=len, reverse=True)
    sizes = _GROUP_SIZES[category]
    chosen = [c for run, size in zip(runs, sizes, strict=False) for c in run[:size]]
    kickers = [c for c in ordered if c not in chosen]
    return tuple(chosen + kickers[: 5 - len(chosen)])


_GROUP_SIZES = {
    PokerCategory.FOUR_OF_A_KIND: (4,),
    PokerCategory.FULL_HOUSE: (3, 2),
    PokerCategory.THREE_OF_A_KIND: (3,),
    PokerCategory.TWO_PAIR: (2, 2),
    PokerCategory.ONE_PAIR: (2,),
    PokerCategory.HIGH_CARD: (),
}
"""Group sizes before kickers. Runs of equal rank sorted longest first (stable, so higher
rank first among equal lengths) line up with these: with no quads in a full house, the
first run is the best trips and the second the best pair (or lower trips)."""


def describe(category: PokerCategory, five: Cards) -> str:
    """For people: "Full house, kings full of twos", "Two pair, aces and eights"."""
    first, third, fourth = five[0] >> 2, five[2] >> 2, five[3] >> 2
    match category:
        case PokerCategory.STRAIGHT_FLUSH:
            royal = " (royal flush)" if first == 12 else ""
            return f"Straight flush, {_RANK_NAMES[first]} high{royal}"
        case PokerCategory.FOUR_OF_A_KIND:
            return f"Four of a kind, {_RANK_PLURALS[first]}"
        case PokerCategory.FULL_HOUSE:
            return f"Full house, {_RANK_PLURALS[first]} full of {_RANK_PLURALS[fourth]}"
        case PokerCategory.FLUSH:
            return f"Flush, {_RANK_NAMES[first]} high"
        case PokerCategory.STRAIGHT:
            return f"Straight, {_RANK_NAMES[first]} high"
        case PokerCategory.THREE_OF_A_KIND:
            return f"Three of a kind, {_RANK_PLURALS[first]}"
        case PokerCategory.TWO_PAIR:
            return f"Two pair, {_RANK_PLURALS[first]} and {_RANK_PLURALS[third]}"
        case PokerCategory.ONE_PAIR:
            return f"One pair, {_RANK_PLURALS[first]}"
        case _:
            return f"High card, {_RANK_NAMES[first]}"


def best_hand(cards: Cards) -> PokerDetail:
    """Category, Cactus-Kev class and best five of 5-7 distinct cards (255 padding ignored)."""
    rank_class = rank_class_of(cards)
    category = category_of_class(rank_class)
    return PokerDetail(category, rank_class, best_five(cards, category, rank_class))


def evaluate_poker_high(
    hand: Cards, table: Cards, table_spreads: tuple[Cards, ...], options: Options
) -> Evaluation:
    """Best five of hand plus table (5-7 cards together); strength higher is better."""
    detail = best_hand(hand + table)
    return Evaluation(
        strength=strength_of(detail.rank_class),
        description=describe(detail.category, detail.best_five),
        detail=detail,
    )


def headline(evaluation: Evaluation) -> int:
    """The batch ``value`` of Poker high: the rank_class."""
    if not isinstance(evaluation.detail, PokerDetail):
        raise TypeError("not a Poker high evaluation")
    return evaluation.detail.rank_class


def _add_card_keys(
    total: npt.NDArray[np.uint64], cards: npt.NDArray[np.uint8], poker: PokerTables
) -> None:
    """Add each row's card keys into ``total``, two columns per gather (bytes read as uint16).

    ``cards`` has one row per total, or one row added to every total.
    """
    cards = np.ascontiguousarray(cards, dtype=np.uint8)
    width = cards.shape[1]
    if len(cards) == 1 and len(total) != 1:
        total += np.uint64(sum(poker.py_card_keys[c] for c in cards[0].tolist()))
        return
    scratch = np.empty(len(cards), dtype=np.uint64)
    for column in range(0, width - 1, 2):
        pairs = cards[:, column : column + 2].view(np.uint16)[:, 0]
        np.take(poker.pair_keys, pairs, out=scratch, mode="clip")
        total += scratch
    if width % 2:
        np.take(poker.card_keys, cards[:, width - 1], out=scratch, mode="clip")
        total += scratch


def batch_key_sums(
    hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8]
) -> npt.NDArray[np.uint64]:
    """Per hand, ``SUM_START`` plus the keys of its cards and its table's (layout in card_keys).

    ``tables`` has one row per hand or a single row shared by all; 255 adds nothing.
    """
    poker = poker_tables()
    sums = np.full(len(hands), SUM_START, dtype=np.uint64)
    _add_card_keys(sums, hands, poker)
    if tables.shape[1]:
        _add_card_keys(sums, tables, poker)
    return sums


def batch_rank_classes(
    hands: npt.NDArray[np.uint8],
    tables: npt.NDArray[np.uint8],
    key_sums: npt.NDArray[np.uint64],
) -> npt.NDArray[np.uint16]:
    """Cactus-Kev class per hand (1 best .. 7462), from ``batch_key_sums(hands, tables)``."""
    poker = poker_tables()
    classes = poker.classes
    slots = slots_of(classes.perfect_hash, key_sums & np.uint64(RANK_MASK))
    rank_classes = np.take(classes.unsuited_classes, slots, mode="clip")
    flushed = np.flatnonzero(key_sums & np.uint64(FLUSH_BITS))
    if len(flushed):
        suit_bits = (key_sums[flushed] & np.uint64(FLUSH_BITS)) >> np.uint64(SUIT_SHIFT + 3)
        suits = (suit_bits > 1).astype(np.uint64) + (suit_bits > 16) + (suit_bits > 256)
        masks = np.zeros(len(flushed), dtype=np.uint64)
        _add_flush_rank_bits(masks, hands[flushed], poker)
        if tables.shape[1]:
            _add_flush_rank_bits(masks, tables if len(tables) == 1 else tables[flushed], poker)
        masks >>= suits * np.uint64(SUIT_MASK_SHIFT)
        masks &= np.uint64(_FLUSH_RANK_MASK)
        rank_classes[flushed] = classes.flush_classes[masks]
    return rank_classes


def _add_flush_rank_bits(
    masks: npt.NDArray[np.uint64], cards: npt.NDArray[np.uint8], poker: PokerTables
) -> None:
    masks += poker.flush_rank_bits[cards].sum(axis=1, dtype=np.uint64)


def batch_results(
    rank_classes: npt.NDArray[np.uint16], values: npt.NDArray[np.int64]
) -> BatchResult:
    """A BatchResult with poker strength (higher is better) and the given headline values."""
    count = len(rank_classes)
    return BatchResult(
        strength=np.subtract(np.uint64(STRENGTH_BASE), rank_classes, dtype=np.uint64),
        low_strength=np.zeros(count, dtype=np.uint64),
        value=values,
        instant_win=np.zeros(count, dtype=np.bool_),
    )


def evaluate_poker_high_batch(
    hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8], options: Options
) -> BatchResult:
    """Poker high for N hands (N, hand_size) plus tables (N or 1, table_size), 255-padded.

    Same strength and value (rank_class) as ``evaluate_poker_high`` hand by hand.
    """
    rank_classes = batch_rank_classes(hands, tables, batch_key_sums(hands, tables))
    return batch_results(rank_classes, rank_classes.astype(np.int64))
