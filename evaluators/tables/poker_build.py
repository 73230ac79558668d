"""Build the poker lookup tables from the five-card order: 5, 6 and 7 cards, flush and not.

Two class tables (values are Cactus-Kev classes, 1 best .. 7462 worst; 0 = no hand):

- ``flush_classes``: 8,192 entries indexed by the 13-bit rank mask of the suit holding five
  or more cards (5-7 bits set): the best straight flush or flush among those ranks. With at
  most seven cards a flush always beats what the other cards could make (quads or a full
  house leave at most four cards of any suit), so this lookup is final when it applies.
- ``unsuited_classes``: one entry per perfect-hash slot of a packed rank-count key (5-7
  cards, 73,775 keys in 2^17 slots): the best five-card hand ignoring suits.

Six- and seven-card entries come from the five-card ones by dynamic programming: the best
hand of n cards is the best over removing one card (one rank occurrence) of the best of n-1.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from evaluators.tables.builds import record, timed
from evaluators.tables.card_keys import RANK_BITS
from evaluators.tables.distinct import sorted_distinct
from evaluators.tables.five_card_classes import RANK_COUNT, build_five_card_classes
from evaluators.tables.perfect_hash import PerfectHash, build_perfect_hash, slots_of

MAX_CARDS = 7
SLOT_BITS = 17
BUCKET_BITS = 15
MASK_COUNT = 1 << RANK_COUNT


@dataclass(frozen=True)
class PokerClassTables:
    perfect_hash: PerfectHash
    unsuited_classes: npt.NDArray[np.uint16]
    """Indexed by ``slots_of(perfect_hash, packed rank counts)``."""
    flush_classes: npt.NDArray[np.uint16]
    """Indexed by the 13-bit rank mask of the flush suit."""


def _rank_units() -> npt.NDArray[np.uint64]:
    return np.array([1 << (RANK_BITS * r) for r in range(RANK_COUNT)], dtype=np.uint64)


def _count_of_rank(keys: npt.NDArray[np.uint64], rank: int) -> npt.NDArray[np.uint64]:
    return (keys >> np.uint64(RANK_BITS * rank)) & np.uint64(7)


def _next_level(keys: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """All packed rank counts with one more card (no rank above four), sorted."""
    units = _rank_units()
    grown = [keys[_count_of_rank(keys, r) < 4] + units[r] for r in range(RANK_COUNT)]
    return sorted_distinct(np.concatenate(grown))


def _best_after_one_more(
    keys: npt.NDArray[np.uint64],
    smaller_keys: npt.NDArray[np.uint64],
    smaller_classes: npt.NDArray[np.uint16],
) -> npt.NDArray[np.uint16]:
    """Class of each key: the best (lowest) class over dropping one card of some rank."""
    units = _rank_units()
    best = np.full(len(keys), np.iinfo(np.uint16).max, dtype=np.uint16)
    for r in range(RANK_COUNT):
        has_rank = _count_of_rank(keys, r) > 0
        children = keys[has_rank] - units[r]
        positions = np.searchsorted(smaller_keys, children)
        best[has_rank] = np.minimum(best[has_rank], smaller_classes[positions])
    return best


def build_unsuited_levels(
    unsuited: Mapping[int, int],
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint16]]:
    """(packed rank counts of 5, 6 and 7 cards, their best-five classes), sorted per size.

    ``unsuited`` maps five-card packed counts to classes (``build_five_card_classes``).
    """
    keys = np.array(sorted(unsuited), dtype=np.uint64)
    classes = np.array([unsuited[int(k)] for k in keys], dtype=np.uint16)
    all_keys, all_classes = [keys], [classes]
    for _ in range(5, MAX_CARDS):
        bigger = _next_level(keys)
        classes = _best_after_one_more(bigger, keys, classes)
        keys = bigger
        all_keys.append(keys)
        all_classes.append(classes)
    return np.concatenate(all_keys), np.concatenate(all_classes)


def build_flush_classes(suited: Mapping[int, int]) -> npt.NDArray[np.uint16]:
    """Best straight flush or flush for every 13-bit rank mask with 5-7 ranks (else 0).

    ``suited`` maps five-rank masks to classes (``build_five_card_classes``).
    """
    table = np.zeros(MASK_COUNT, dtype=np.uint16)
    for mask, rank_class in suited.items():
        table[mask] = rank_class
    by_size = sorted(range(MASK_COUNT), key=int.bit_count)
    for mask in by_size:
        if 6 <= mask.bit_count() <= MAX_CARDS:
            table[mask] = min(table[mask & ~(1 << r)] for r in range(RANK_COUNT) if mask >> r & 1)
    return table


def build_class_tables() -> PokerClassTables:
    """All poker class tables, from nothing but the rules; each
    table's build is recorded (``builds``): the unsuited classes' is the levels' and the
    slotting's, the perfect hash's its own search."""
    unsuited, suited = build_five_card_classes()
    (keys, classes), levels_seconds = timed(lambda: build_unsuited_levels(unsuited))
    perfect_hash, hash_seconds = timed(lambda: build_perfect_hash(keys, BUCKET_BITS, SLOT_BITS))

    def slotted() -> npt.NDArray[np.uint16]:
        table = np.zeros(perfect_hash.slot_count, dtype=np.uint16)
        table[slots_of(perfect_hash, keys)] = classes
        return table

    unsuited_classes, slot_seconds = timed(slotted)
    flush_classes, flush_seconds = timed(lambda: build_flush_classes(suited))
    record("poker.unsuited_classes", unsuited_classes.nbytes, levels_seconds + slot_seconds)
    record("poker.perfect_hash_displacements", perfect_hash.displacements.nbytes, hash_seconds)
    record("poker.flush_classes", flush_classes.nbytes, flush_seconds)
    return PokerClassTables(perfect_hash, unsuited_classes, flush_classes)
