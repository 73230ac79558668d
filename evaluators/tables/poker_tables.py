"""The poker lookup tables of this process, in the two shapes the evaluators read.

``poker_tables()`` builds everything once per process (functools.cache) from the rules,
and hands out numpy arrays for the batch path and compact ``array.array`` / tuple copies
for the pure-Python single-hand path (indexing those is several times cheaper than
indexing numpy from Python). Both shapes hold the same values, so both paths agree.

Sizes (CPython 3.11, one core of an AMD EPYC; see ``builds.table_info()``):

| table | entries | bytes |
| --- | --- | --- |
| unsuited classes (perfect-hash slots) | 131,072 uint16 | 262,144 |
| perfect-hash displacements | 32,768 int64 | 262,144 |
| flush classes (13-bit rank masks) | 8,192 uint16 | 16,384 |
| card keys, flush rank bits (byte -> uint64) | 2 x 256 | 4,096 |
| card-pair keys (two bytes as uint16 -> uint64) | 65,536 | 524,288 |
| Python copies (array.array / tuple of the above) | | 411,648 |

Built at start-up, in less than the second from which a file cache would pay for itself
(each table's own build time is in ``builds.table_info()``, which a server exports as
``handeval_table_build_seconds``; docs/performance.md "Lookup tables"), so there is none:
nothing to go stale, nothing to write on a read-only root filesystem. A server builds them
while warming up, before it serves.
"""

from __future__ import annotations

import functools
from array import array
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from evaluators.tables.builds import record, timed
from evaluators.tables.card_keys import card_key_array, flush_rank_bit_array
from evaluators.tables.poker_build import PokerClassTables, build_class_tables


@dataclass(frozen=True)
class PokerTables:
    classes: PokerClassTables
    card_keys: npt.NDArray[np.uint64]
    """``card_keys.card_key`` of every byte 0..255."""
    pair_keys: npt.NDArray[np.uint64]
    """``card_keys[a] + card_keys[b]`` at index ``a + 256 * b``: two cards per gather."""
    flush_rank_bits: npt.NDArray[np.uint64]
    py_card_keys: tuple[int, ...]
    py_displacements: array[int]
    py_unsuited_classes: array[int]
    py_flush_classes: array[int]


def _python_copy(values: npt.NDArray[np.integer], typecode: str) -> array[int]:
    """A compact copy whose items index as plain Python ints (``H``: uint16, ``I``: uint32)."""
    copy = array(typecode)
    copy.frombytes(values.astype(np.uint16 if typecode == "H" else np.uint32).tobytes())
    if len(copy) != len(values):
        raise RuntimeError(f"array({typecode!r}) does not fit {values.dtype}")
    return copy


def build_poker_tables() -> PokerTables:
    """Build every poker table from the rules; see the module docstring for cost. Each
    table's build is recorded on its own (``builds``)."""
    classes = build_class_tables()
    card_keys, card_key_seconds = timed(card_key_array)
    flush_rank_bits, flush_bit_seconds = timed(flush_rank_bit_array)
    pair_keys, pair_seconds = timed(
        lambda: (card_keys[np.newaxis, :] + card_keys[:, np.newaxis]).ravel()
    )
    copies, copy_seconds = timed(
        lambda: (
            tuple(int(k) for k in card_keys),
            _python_copy(classes.perfect_hash.displacements, "I"),
            _python_copy(classes.unsuited_classes, "H"),
            _python_copy(classes.flush_classes, "H"),
        )
    )
    py_card_keys, py_displacements, py_unsuited_classes, py_flush_classes = copies
    record(
        "poker.card_keys", card_keys.nbytes + flush_rank_bits.nbytes,
        card_key_seconds + flush_bit_seconds,
    )  # fmt: skip
    record("poker.pair_keys", pair_keys.nbytes, pair_seconds)
    record(
        "poker.python_copies",
        sum(len(a) * a.itemsize for a in copies[1:]) + 8 * len(py_card_keys),
        copy_seconds,
    )
    return PokerTables(
        classes=classes,
        card_keys=card_keys,
        pair_keys=pair_keys,
        flush_rank_bits=flush_rank_bits,
        py_card_keys=py_card_keys,
        py_displacements=py_displacements,
        py_unsuited_classes=py_unsuited_classes,
        py_flush_classes=py_flush_classes,
    )


@functools.cache
def poker_tables() -> PokerTables:
    """This process's poker tables, built on first use."""
    return build_poker_tables()
