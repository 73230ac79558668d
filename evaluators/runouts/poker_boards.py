"""Poker hands on many five-card boards at once, for Odds: a known hole read against every
board of a chunk (``boards``, ``rank_classes_on``), or every seat's hole known and the
table still to come (``KnownHoles``: one additive key per board). The same classes as
``poker.batch_rank_classes``, reached with fewer lookups per board.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from evaluators.inputs import Cards
from evaluators.poker import batch_key_sums, flush_classes_of
from evaluators.tables import poker_tables
from evaluators.tables.card_keys import (
    BOARD_RANK_INDEXES,
    BOARD_RANK_WEIGHTS,
    FLUSH_BITS,
    RANK_BITS,
    RANK_MASK,
    SUIT_MASK_SHIFT,
    SUIT_SHIFT,
)
from evaluators.tables.perfect_hash import slots_of


@dataclass(frozen=True)
class Boards:
    """Five-card boards read once for every hand played on them (Odds): the cards (R, 5),
    their ``batch_key_sums``, the unsuited slot of their rank counts and their suit nibbles."""

    cards: npt.NDArray[np.uint8]
    key_sums: npt.NDArray[np.uint64]
    slots: npt.NDArray[np.int64]
    suits: npt.NDArray[np.uint16]


def boards(cards: npt.NDArray[np.uint8]) -> Boards:
    """``cards`` (R, 5) read as ``Boards``."""
    key_sums = batch_key_sums(cards, np.zeros((1, 0), dtype=np.uint8))
    slots = slots_of(poker_tables().classes.perfect_hash, key_sums & np.uint64(RANK_MASK))
    suits = (key_sums >> np.uint64(SUIT_SHIFT)).astype(np.uint16)
    return Boards(cards, key_sums, slots, suits)


@functools.cache
def _five_rank_counts() -> npt.NDArray[np.uint64]:
    """The rank counts (as in a key sum) of every multiset of five ranks, at most four
    of a rank: what any five-card board shows (6,175 of them)."""
    return _packed_counts(_rank_multisets(5)).astype(np.uint64)


@functools.lru_cache(maxsize=32)
def _unsuited_on_boards(hole_counts: int) -> npt.NDArray[np.uint16]:
    """Per unsuited slot of a five-card board's rank counts, the unsuited class of that
    board plus hole cards with rank counts ``hole_counts`` (0 at slots of no board; a
    board the hole makes impossible reads anything). 256 KB; cached for 32 holes, so a
    request's chunks build each hole's once (about a millisecond)."""
    classes = poker_tables().classes
    board = _five_rank_counts()
    table = np.zeros(classes.perfect_hash.slot_count, dtype=np.uint16)
    with_hole = slots_of(classes.perfect_hash, board + np.uint64(hole_counts))
    table[slots_of(classes.perfect_hash, board)] = classes.unsuited_classes[with_hole]
    table.flags.writeable = False
    return table


def rank_classes_on(played: Boards, hole: Cards) -> npt.NDArray[np.uint16]:
    """``batch_rank_classes`` of one known hole (1-2 cards) on every board: one gather
    from the hole's table of unsuited classes by board slot, flushes apart."""
    hole_keys = sum(poker_tables().py_card_keys[card] for card in hole)
    unsuited = _unsuited_on_boards(hole_keys & RANK_MASK)
    rank_classes = np.take(unsuited, played.slots)
    hole_suits = np.uint16((hole_keys >> SUIT_SHIFT) & 0xFFFF)
    flushed = np.flatnonzero((played.suits + hole_suits) & np.uint16(FLUSH_BITS >> SUIT_SHIFT))
    if len(flushed):
        key_sums = played.key_sums[flushed] + np.uint64(hole_keys)
        hand = np.array([hole], dtype=np.uint8)
        rank_classes[flushed] = flush_classes_of(key_sums, hand, played.cards, flushed)
    return rank_classes


# A board key (``KnownHoles``): bits 0..18 the ``BOARD_RANK_WEIGHTS`` index of its ranks,
# then from bit 32 one nibble per suit counting its cards, started so that a nibble's bit 3
# is set exactly when that suit may make a flush.
_BOARD_SUIT_SHIFT = 32
_BOARD_RANK_INDEX = (1 << 19) - 1
_BOARD_FLUSH_BITS = 0x8888 << _BOARD_SUIT_SHIFT  # bit 3 of every suit's nibble
_FLUSH_LANE = 0x1FFF  # one suit's 13 rank bits
_FLUSH_ROWS_PER_SHIFT = (_FLUSH_LANE + 1) // SUIT_MASK_SHIFT
"""A suit's shift (16 * suit) times this is its part's start in a seat's flush table."""

FlushBitsOf = Callable[[npt.NDArray[np.intp]], npt.NDArray[np.int64]]
"""Rows of a chunk of boards -> the sums of their dealt cards' ``FLUSH_RANK_BITS``."""


class KnownHoles:
    """Every seat's hole cards known and the table still to come (Odds): each board of
    dealt cards read from one additive key; its cards' suits and ranks are read only on the
    few boards where some seat may hold a flush.

    The key of an unseen card (``card_keys``, by position in ``unseen``) is its rank's
    ``BOARD_RANK_WEIGHTS`` (bits 0..18) plus one in its suit's nibble at bit 32 + 4 * suit.
    A board's key is ``start`` plus its cards' keys; ``start`` fills each suit's nibble so
    that its bit 3 is set exactly when the board has enough cards of that suit for some seat
    to flush. A seat's class, flushes apart, is one gather by the board's rank index from
    its table; at most one suit can be set (it needs three of the five table cards), and on
    those boards the dealt cards' rank mask in that suit reads the seat's flush table: per
    suit, 8,192 entries (dealt mask) of ``flush_classes`` with the seat's known cards of the
    suit added, 65535 where that makes no flush.
    """

    def __init__(self, holes: Sequence[Cards], table: Cards, unseen: Cards) -> None:
        cards = np.array(unseen, dtype=np.int64)
        ranks, suits = cards >> 2, cards & 3
        weights = np.array(BOARD_RANK_WEIGHTS, dtype=np.int64)
        self.card_keys = weights[ranks] + np.left_shift(1, _BOARD_SUIT_SHIFT + 4 * suits)
        self.flush_bits = np.left_shift(1, SUIT_MASK_SHIFT * suits + ranks)
        dealt = 5 - len(table)
        self.start = 0
        for suit in range(4):
            on_table = sum(card & 3 == suit for card in table)
            in_hole = max(sum(card & 3 == suit for card in hole) for hole in holes)
            needed = 5 - on_table - in_hole
            self.start += (8 - needed) << (_BOARD_SUIT_SHIFT + 4 * suit)
        self._tables = tuple(
            _board_rank_classes(_rank_counts(tuple(hole) + table), dealt) for hole in holes
        )
        flushes = _flushes_or_none()
        dealt_masks = np.arange(_FLUSH_LANE + 1)
        self._flushes = tuple(
            np.concatenate(
                [flushes[dealt_masks | _suit_mask(tuple(hole) + table, suit)] for suit in range(4)]
            )
            for hole in holes
        )

    def classes(
        self,
        board_keys: npt.NDArray[np.int64],
        flush_bits_of: FlushBitsOf,
        out: npt.NDArray[np.uint16],
    ) -> None:
        """Each seat's class (row of ``out``) on each board of ``board_keys``, asking
        ``flush_bits_of`` only for the rows that may hold a flush. Any int64 is a key:
        one that no board makes (a sampled pair of half-boards that overlap) reads some
        class, never out of bounds."""
        index = board_keys & _BOARD_RANK_INDEX
        for seat, table in enumerate(self._tables):
            np.take(table, index, out=out[seat], mode="clip")
        rows = np.flatnonzero((board_keys & _BOARD_FLUSH_BITS) != 0)
        if not len(rows):
            return
        flags = (board_keys[rows] >> (_BOARD_SUIT_SHIFT + 3)) & 0x1111
        shift = np.take(_lane_shifts(), flags, mode="clip")
        lane = flush_bits_of(rows) >> shift
        lane &= _FLUSH_LANE
        lane += shift * _FLUSH_ROWS_PER_SHIFT
        for seat, flushes in enumerate(self._flushes):
            held = np.take(flushes, lane, mode="clip")
            classes = out[seat]
            classes[rows] = np.minimum(classes[rows], held)


def _suit_mask(cards: Cards, suit: int) -> int:
    return sum(1 << (card >> 2) for card in cards if card & 3 == suit)


@functools.cache
def _lane_shifts() -> npt.NDArray[np.int64]:
    """By a board key's flag bits moved down to bits 0, 4, 8, 12 (one is set), the shift
    of that suit's rank mask in a sum of ``FLUSH_RANK_BITS``: ``16 * suit``."""
    shifts = np.zeros(0x1001, dtype=np.int64)
    for suit in range(4):
        shifts[1 << (4 * suit)] = SUIT_MASK_SHIFT * suit
    shifts.flags.writeable = False
    return shifts


def _rank_counts(cards: Cards) -> int:
    return sum(1 << (RANK_BITS * (card >> 2)) for card in cards)


@functools.cache
def _rank_multisets(size: int) -> npt.NDArray[np.int64]:
    """Rank counts (one row of 13, deuce first) of every multiset of ``size`` ranks, at
    most four of a rank."""
    rows = [
        [ranks.count(rank) for rank in range(13)]
        for ranks in itertools.combinations_with_replacement(range(13), size)
        if all(ranks.count(rank) <= 4 for rank in ranks)
    ]
    return np.array(rows, dtype=np.int64).reshape(-1, 13)


def _packed_counts(counts: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Rows of 13 rank counts packed as in a key sum (``RANK_BITS`` per rank)."""
    packed: npt.NDArray[np.int64] = (counts << (RANK_BITS * np.arange(13))).sum(axis=1)
    return packed


@functools.lru_cache(maxsize=32)
def _board_rank_classes(known_counts: int, dealt: int) -> npt.NDArray[np.uint16]:
    """By the ``BOARD_RANK_WEIGHTS`` index of ``dealt`` cards' ranks, the unsuited class
    of those cards plus known cards of rank counts ``known_counts`` (0 where no such deal
    fits beside them). 722 KB; cached for 32 known hands (hole plus table so far)."""
    classes = poker_tables().classes
    counts = _rank_multisets(dealt)
    known = np.array([known_counts >> (RANK_BITS * rank) & 7 for rank in range(13)])
    counts = counts[(counts + known <= 4).all(axis=1)]
    packed = _packed_counts(counts) + known_counts
    table = np.zeros(BOARD_RANK_INDEXES, dtype=np.uint16)
    slots = slots_of(classes.perfect_hash, packed.astype(np.uint64))
    table[counts @ np.array(BOARD_RANK_WEIGHTS)] = classes.unsuited_classes[slots]
    table.flags.writeable = False
    return table


@functools.cache
def _flushes_or_none() -> npt.NDArray[np.uint16]:
    """``flush_classes`` by rank mask with 65535 (worse than any class) where the mask
    holds no flush, so that a minimum keeps the unsuited class."""
    flushes = poker_tables().classes.flush_classes
    table = np.where(flushes == 0, np.uint16(0xFFFF), flushes).astype(np.uint16)
    table.flags.writeable = False
    return table
