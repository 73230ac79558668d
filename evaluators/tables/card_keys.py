"""Additive per-card keys: the sum of a hand's card keys packs everything the lookups need.

One uint64 per card id (any byte 0..255; ids outside the deck, such as the 255 padding,
add nothing), laid out as:

- bits 0..38: rank counts, 3 bits per rank (rank ``r`` at bit ``3 * r``), the packed-counts
  key of ``five_card_classes``;
- bits 40..55: suit counts, 4 bits per suit (suit ``s`` at bit ``40 + 4 * s``); a hand's sum
  starts from ``SUM_START``, which puts 3 in every suit nibble, so a suit holds five or more
  cards exactly when bit 3 of its nibble is set (``FLUSH_BITS``);
- bits 56..60: Grocery Store Dots (at most 7 x 3 = 21).

A second key per card, ``FLUSH_RANK_BITS``, is ``1 << (16 * suit + rank)``: summed, it holds
one 13-bit rank mask per suit, read only for the few hands that have a flush.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from evaluators.cards import DECK_SIZE

RANK_BITS: Final = 3
RANK_MASK: Final = (1 << 39) - 1
SUIT_SHIFT: Final = 40
SUM_START: Final = 0x3333 << SUIT_SHIFT
FLUSH_BITS: Final = 0x8888 << SUIT_SHIFT
DOTS_SHIFT: Final = 56
DOTS_MASK: Final = 0x1F
SUIT_MASK_SHIFT: Final = 16
"""Spacing of the per-suit rank masks in a sum of ``FLUSH_RANK_BITS``."""

DOTS_BY_RANK: Final = (2, 3, 0, 1, 0, 1, 2, 1, 2, 0, 0, 0, 1)
"""Grocery Store Dots per rank, deuce first: A, 5, 7, 9 -> 1; 2, 8, T -> 2; 3 -> 3; else 0."""

ID_SPACE: Final = 256

BOARD_RANK_WEIGHTS: Final = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)
"""Per rank, deuce first: no two multisets of at most five ranks (at most four of a rank)
have the same sum of weights (each weight the smallest keeping that so, in rank order), so
the sum over a board's cards is a dense index of its rank multiset, additive card by card."""
BOARD_RANK_INDEXES: Final = 4 * BOARD_RANK_WEIGHTS[-1] + BOARD_RANK_WEIGHTS[-2] + 1
"""Sums of ``BOARD_RANK_WEIGHTS`` over five cards or fewer are below this (360,919)."""


def card_key(card: int) -> int:
    """The additive key of one card id; 0 for anything outside the 52-card deck."""
    if not 0 <= card < DECK_SIZE:
        return 0
    rank, suit = card >> 2, card & 3
    return (
        (1 << (RANK_BITS * rank))
        | (1 << (SUIT_SHIFT + 4 * suit))
        | (DOTS_BY_RANK[rank] << DOTS_SHIFT)
    )


def flush_rank_bit(card: int) -> int:
    """``1 << (16 * suit + rank)``; 0 for anything outside the deck."""
    if not 0 <= card < DECK_SIZE:
        return 0
    return 1 << (SUIT_MASK_SHIFT * (card & 3) + (card >> 2))


def card_key_array() -> npt.NDArray[np.uint64]:
    """``card_key`` for every byte 0..255, for gathering a batch column at a time."""
    return np.array([card_key(c) for c in range(ID_SPACE)], dtype=np.uint64)


def flush_rank_bit_array() -> npt.NDArray[np.uint64]:
    return np.array([flush_rank_bit(c) for c in range(ID_SPACE)], dtype=np.uint64)


def flush_suit(key_sum: int) -> int:
    """The suit holding five or more cards in a key sum (made from ``SUM_START``), or -1."""
    bits = key_sum & FLUSH_BITS
    if not bits:
        return -1
    return (bits.bit_length() - 1 - SUIT_SHIFT) // 4
