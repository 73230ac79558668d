"""Poker hands: the best five-card hand out of 5-7 cards, by table lookups (Poker high,
Grocery Store Dots).

Every card adds a precomputed key (``tables.card_keys``); the sum holds the rank counts,
the suit counts and the dots. If a suit holds five or more cards, the flush suit's 13-bit
rank mask indexes the flush table; otherwise the packed rank counts go through a perfect
hash into the unsuited table. No five-card subsets are enumerated, per hand or per batch.
A batch runs the same lookups in C (``compiled_batch``, ``kernels/_poker.c``); the numpy
form (``batch_key_sums``, ``batch_rank_classes``) serves Odds and is the kernel's reference.

``rank_class`` is the Cactus-Kev class: 1 (royal flush) .. 7462 (7-5-4-3-2 unsuited),
lower is better, equal to phevaluator's ``evaluate_cards``. ``strength`` points the other
way, as everywhere in this service: ``7463 - rank_class``, higher is better, equal hands
equal strength.
"""

from __future__ import annotations

import functools
from array import array
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from evaluators.cards import DECK_SIZE
from evaluators.figures import cards_text, enum_text
from evaluators.game_rules import Figure
from evaluators.inputs import Cards, Options
from evaluators.kernels import _poker
from evaluators.results import BatchResult, Detail
from evaluators.tables import PokerTables, poker_tables
from evaluators.tables.card_keys import (
    DOTS_MASK,
    DOTS_SHIFT,
    FLUSH_BITS,
    RANK_MASK,
    SUIT_MASK_SHIFT,
    SUIT_SHIFT,
    SUM_START,
    flush_suit,
)
from evaluators.tables.class_shapes import ClassShape, class_shapes, describe_ranks, top_cards
from evaluators.tables.five_card_classes import CLASS_COUNT, PokerCategory
from evaluators.tables.perfect_hash import BUCKET_MULTIPLIER, slots_of


@dataclass(frozen=True, slots=True)
class PokerDetail(Detail):
    WIRE: ClassVar[str] = "poker"

    category: PokerCategory
    rank_class: int
    """Cactus-Kev equivalence class: 1 (royal flush) ... 7462 (7-5-4-3-2); lower is better."""
    best_five: Cards


STRENGTH_BASE = CLASS_COUNT + 1
"""strength = STRENGTH_BASE - rank_class: higher is better."""

_U64 = (1 << 64) - 1
_FLUSH_RANK_MASK = 0x1FFF

_CARD_MASK_SHIFT = 64
"""In ``_single_hand_tables`` key sums, bits 64.. hold the card mask (bit ``card``)."""


_SingleHandTables = tuple[
    tuple[int, ...],
    tuple[ClassShape, ...],
    tuple[Cards, ...],
    "array[int]",
    "array[int]",
    "array[int]",
    int,
    int,
    int,
]


@functools.cache
def _single_hand_tables() -> _SingleHandTables:
    """What ``classify`` reads, in one tuple (one cached call per hand, no attribute reads):
    per byte its card key plus ``1 << (64 + card)`` (one sum gives the lookup key and the
    card mask; 0 outside the deck), the class shapes, ``top_cards``, the flush, unsuited
    and displacement tables, and the perfect hash's multiplier and shifts."""
    tables = poker_tables()
    perfect_hash = tables.classes.perfect_hash
    hand_keys = tuple(
        key | (1 << (_CARD_MASK_SHIFT + card)) if card < DECK_SIZE else 0
        for card, key in enumerate(tables.py_card_keys)
    )
    return (
        hand_keys,
        class_shapes(),
        top_cards(),
        tables.py_flush_classes,
        tables.py_unsuited_classes,
        tables.py_displacements,
        perfect_hash.slot_multiplier,
        64 - perfect_hash.slot_bits,
        64 - perfect_hash.bucket_bits,
    )


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
        return _flush_class(tables, cards, flush_suit(key_sum))
    return _unsuited_class(tables, key_sum & RANK_MASK)


def _flush_class(tables: PokerTables, cards: Cards, suit: int) -> int:
    mask = 0
    for card in cards:
        if card & 3 == suit and card < DECK_SIZE:
            mask |= 1 << (card >> 2)
    return tables.py_flush_classes[mask]


def _unsuited_class(tables: PokerTables, rank_counts: int) -> int:
    perfect_hash = tables.classes.perfect_hash
    bucket = ((rank_counts * BUCKET_MULTIPLIER) & _U64) >> (64 - perfect_hash.bucket_bits)
    base = ((rank_counts * perfect_hash.slot_multiplier) & _U64) >> (64 - perfect_hash.slot_bits)
    return tables.py_unsuited_classes[base ^ tables.py_displacements[bucket]]


def classify(cards: Cards) -> tuple[int, ClassShape, Cards]:
    """(rank class, its shape, best five) of 5-7 distinct cards (255 padding ignored).

    One pass over the cards sums their keys and card bits; the class gives the ranks of
    the best five, filled with each rank's highest cards (the flush suit's for flushes).
    Same lookups as ``rank_class_of``, inlined.
    """
    (
        hand_keys,
        shapes,
        top,
        flush_classes,
        unsuited_classes,
        displacements,
        slot_multiplier,
        slot_shift,
        bucket_shift,
    ) = _single_hand_tables()
    key_sum = SUM_START
    for card in cards:
        key_sum += hand_keys[card]
    if key_sum & FLUSH_BITS:
        suit = flush_suit(key_sum)
        mask = 0
        for card in cards:
            if card & 3 == suit and card < DECK_SIZE:
                mask |= 1 << (card >> 2)
        rank_class = flush_classes[mask]
        shape = shapes[rank_class]
        return rank_class, shape, shape.suited_fives[suit]
    counts = key_sum & RANK_MASK
    bucket = ((counts * BUCKET_MULTIPLIER) & _U64) >> bucket_shift
    rank_class = unsuited_classes[
        (((counts * slot_multiplier) & _U64) >> slot_shift) ^ displacements[bucket]
    ]
    shape = shapes[rank_class]
    mask = key_sum >> _CARD_MASK_SHIFT
    five: Cards = ()
    for shift, base in shape.groups:
        five += top[base + ((mask >> shift) & 15) * 4]
    return rank_class, shape, five


def best_hand(cards: Cards) -> PokerDetail:
    """Category, Cactus-Kev class and best five of 5-7 distinct cards (255 padding ignored).

    Best-five order: the hand's groups first (quads, trips, pairs, higher group first),
    then kickers high to low; straights from the top card down (the wheel ends with its
    ace). Among cards of equal rank the higher card id (suit order c < d < h < s) first.
    """
    rank_class, shape, five = classify(cards)
    return PokerDetail(shape.category, rank_class, five)


def describe(category: PokerCategory, five: Cards) -> str:
    """For people: "Full house, kings full of twos", "Two pair, aces and eights"."""
    return describe_ranks(category, tuple(card >> 2 for card in five))


def figures(detail: PokerDetail) -> list[Figure]:
    """How a poker hand reads for people: category, Cactus-Kev class, best five."""
    return [
        ("category", enum_text(detail.category), True),
        ("rank class", str(detail.rank_class), True),
        ("best five", cards_text(detail.best_five), True),
    ]


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


def odds_tables(options: Options) -> _poker.Tables:
    """The compiled kernel's tables, whatever the options: what Odds' fused chunk call
    reads for Poker high and Grocery Store Dots (``game_odds.ScoredFigures``)."""
    return _kernel_tables()


@functools.cache
def _kernel_tables() -> _poker.Tables:
    """This process's poker tables and key layout, handed once to the compiled kernel
    (``kernels._poker``), which holds them without a copy; the displacements as one byte
    each (the largest is 30), so that their 32 KiB stay in the first-level cache while a
    server's request and reply bytes stream through the others (a uint32 copy is slower
    even with every table cached)."""
    tables = poker_tables()
    perfect_hash = tables.classes.perfect_hash
    if int(perfect_hash.displacements.max()) > 0xFF:
        raise RuntimeError("a perfect-hash displacement does not fit a byte")
    return _poker.tables(
        tables.card_keys,
        tables.flush_rank_bits,
        perfect_hash.displacements.astype(np.uint8),
        tables.classes.unsuited_classes,
        tables.classes.flush_classes,
        BUCKET_MULTIPLIER,
        perfect_hash.slot_multiplier,
        perfect_hash.bucket_bits,
        perfect_hash.slot_bits,
        SUM_START,
        FLUSH_BITS,
        RANK_MASK,
        SUIT_SHIFT,
        SUIT_MASK_SHIFT,
        _FLUSH_RANK_MASK,
        STRENGTH_BASE,
        DOTS_SHIFT,
        DOTS_MASK,
    )


def compiled_batch(
    hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8], dots: bool
) -> BatchResult:
    """Poker strength per hand, and as ``value`` the dots (``dots``) or the Cactus-Kev
    class: the compiled kernel, one pass with the GIL released. Equal to
    ``batch_key_sums`` + ``batch_rank_classes`` (the numpy reference), hand by hand.

    ``hands`` (N, w) and ``tables`` (N or 1, t) as ``GameRules.evaluate_batch`` takes them:
    validated, 5-7 cards in all per hand, 255-padded.
    """
    strength, value = _outputs(len(hands), dots)
    _poker.evaluate(
        _kernel_tables(),
        np.ascontiguousarray(hands, dtype=np.uint8),
        np.ascontiguousarray(tables, dtype=np.uint8),
        strength,
        None if dots else value,
        value if dots else None,
    )
    return BatchResult.ranked_only(strength, value)


def compiled_screened(
    hands: npt.NDArray[np.uint8],
    table: npt.NDArray[np.uint8],
    first_refused: int,
    strength: memoryview,
    value: memoryview,
    dots: bool,
) -> bool:
    """``compiled_batch`` for full rows sharing one table, written into the caller's
    ``strength`` and ``value`` (N uint32 and int32 cells: a columns reply's own, so nothing
    is copied or widened later), with each row's cards checked in the same pass
    (``kernels._poker.screened``): the bytes read once, the check beside the lookups. False
    when some row holds a byte from ``first_refused`` up, a card twice or one of the
    table's, or when this CPU has no such pass; the cells then mean nothing, and the caller
    screens the batch.

    ``hands`` (N, w) hold no padding; ``table`` (1, t) has passed the screen; both are
    C-contiguous uint8, as ``batch.open_batch`` reads them.
    """
    return _poker.screened(
        _kernel_tables(),
        hands,
        table,
        first_refused,
        strength,
        None if dots else value,
        value if dots else None,
    )


def _outputs(
    count: int, dots: bool
) -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.signedinteger[Any]]]:
    """The kernel's outputs for ``count`` hands: strength, and the dots or the class."""
    value: npt.NDArray[np.signedinteger[Any]] = np.empty(
        count, dtype=np.int64 if dots else np.int16
    )
    return np.empty(count, dtype=np.uint16), value


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
    classes = poker_tables().classes
    slots = slots_of(classes.perfect_hash, key_sums & np.uint64(RANK_MASK))
    rank_classes = np.take(classes.unsuited_classes, slots, mode="clip")
    flushed = np.flatnonzero((key_sums & np.uint64(FLUSH_BITS)).astype(np.bool_))
    if len(flushed):
        rank_classes[flushed] = flush_classes_of(key_sums[flushed], hands, tables, flushed)
    return rank_classes


def flush_classes_of(
    key_sums: npt.NDArray[np.uint64],
    hands: npt.NDArray[np.uint8],
    tables: npt.NDArray[np.uint8],
    flushed: npt.NDArray[np.intp],
) -> npt.NDArray[np.uint16]:
    """Classes of the ``flushed`` rows (their ``key_sums`` given), by their flush suit's
    rank mask; ``hands`` and ``tables`` have one row per hand or a single shared row."""
    poker = poker_tables()
    suit_bits = (key_sums & np.uint64(FLUSH_BITS)) >> np.uint64(SUIT_SHIFT + 3)
    suits = (suit_bits > 1).astype(np.uint64) + (suit_bits > 16) + (suit_bits > 256)
    masks = np.zeros(len(flushed), dtype=np.uint64)
    for cards in (hands, tables):
        if cards.shape[1]:
            _add_flush_rank_bits(masks, cards if len(cards) == 1 else cards[flushed], poker)
    masks >>= suits * np.uint64(SUIT_MASK_SHIFT)
    masks &= np.uint64(_FLUSH_RANK_MASK)
    flush_classes: npt.NDArray[np.uint16] = poker.classes.flush_classes[masks]
    return flush_classes


def _add_flush_rank_bits(
    masks: npt.NDArray[np.uint64], cards: npt.NDArray[np.uint8], poker: PokerTables
) -> None:
    masks += poker.flush_rank_bits[cards].sum(axis=1, dtype=np.uint64)


def batch_results(
    rank_classes: npt.NDArray[np.uint16], values: npt.NDArray[np.signedinteger[Any]]
) -> BatchResult:
    """A BatchResult with poker strength (higher is better, 16 bits) and the given headline
    values."""
    return BatchResult.ranked_only(
        np.subtract(np.uint16(STRENGTH_BASE), rank_classes, dtype=np.uint16), values
    )
