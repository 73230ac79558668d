"""Every lookup table the core builds, pinned by a SHA-256 of its contents, its type and
its dtype and shape: any change to a table (a builder's edit, a new numpy, another
platform) fails here, by name, even where no behaviour test happens to read the entry
that moved. Each table is also checked against an independent slow path in its own tests;
this says only that it is what it was. A change that is meant: paste the printed value.
"""

from __future__ import annotations

import dataclasses
import hashlib
import sys
from array import array
from collections.abc import Callable, Mapping

import numpy as np
import pytest

from evaluators.games.high_card import rank_order, sort_keys
from evaluators.games.not_poker import batch_symbols, batch_weights, reading_table, triple_weights
from evaluators.games.tonk.deadwood import suit_deadwood_table, suit_points_table, suit_runs_table
from evaluators.tables import poker_tables
from evaluators.tables.class_shapes import class_shapes, top_cards
from evaluators.tables.five_card_classes import build_five_card_classes

TABLES: dict[str, Callable[[], object]] = {
    "poker.unsuited_classes": lambda: poker_tables().classes.unsuited_classes,
    "poker.perfect_hash": lambda: poker_tables().classes.perfect_hash,
    "poker.flush_classes": lambda: poker_tables().classes.flush_classes,
    "poker.card_keys": lambda: poker_tables().card_keys,
    "poker.pair_keys": lambda: poker_tables().pair_keys,
    "poker.flush_rank_bits": lambda: poker_tables().flush_rank_bits,
    "poker.python_copies": lambda: (
        poker_tables().py_card_keys,
        poker_tables().py_displacements,
        poker_tables().py_unsuited_classes,
        poker_tables().py_flush_classes,
    ),
    "poker.five_card_classes": build_five_card_classes,
    "class_shapes": class_shapes,
    "class_shapes.top_cards": top_cards,
    "not_poker.reading_table": reading_table,
    "not_poker.triple_weights": triple_weights,
    "not_poker.batch_symbols": batch_symbols,
    "not_poker.batch_weights": batch_weights,
    "tonk.suit_points_table": suit_points_table,
    "tonk.suit_deadwood_table": suit_deadwood_table,
    "tonk.suit_runs_table": suit_runs_table,
    "high_card.sort_keys": lambda: (sort_keys(False), sort_keys(True)),
    "high_card.rank_order": lambda: (rank_order(False), rank_order(True)),
}
"""Name -> the table as the core builds it (each builder under evaluators/tables and
evaluators/games; the cached ones are the very objects the evaluators read)."""

GOLDEN: dict[str, tuple[str, str]] = {
    "poker.unsuited_classes": (
        "ndarray uint16 (131072,)",
        "3ce34495a4744da76a2f1440e73c0882ae44dc2eaf8732fa554142515fd2e86a",
    ),
    "poker.perfect_hash": (
        "PerfectHash",
        "0373eadeb361bc3136b171eb11263228aeed11a541fa5f409d8915a1cc18dece",
    ),
    "poker.flush_classes": (
        "ndarray uint16 (8192,)",
        "1a51f54ea348d4b9646b701a981bece06113c449a6c1b37eeb23f25d8b0f0798",
    ),
    "poker.card_keys": (
        "ndarray uint64 (256,)",
        "de37ef38a0dafcd6af54ef2c5ef21425cd132bad295659c231653d0913857682",
    ),
    "poker.pair_keys": (
        "ndarray uint64 (65536,)",
        "1def11224e25c375d69c3470e904d3c3e37fad7b39cb77db06ba554de3aea344",
    ),
    "poker.flush_rank_bits": (
        "ndarray uint64 (256,)",
        "09025dbc97e9453cda330f5b1c139591ef56fa7a21f7906311d8fe334b0a4472",
    ),
    "poker.python_copies": (
        "tuple 4",
        "0743a255f6afe78cb3ea416595bda73fd539992882380fb33ce4216f32a61c92",
    ),
    "poker.five_card_classes": (
        "tuple 2",
        "1f3d3902f52654b5d611f03a2dd6b2adde7f9fed7e35ec60f4a9e65d64ce2863",
    ),
    "class_shapes": (
        "tuple 7463",
        "2534ccaa66c6b3328d9df1f45289a05586d319da494c14090c83ec7580ba7a21",
    ),
    "class_shapes.top_cards": (
        "tuple 832",
        "479c95c2e12015d92e69838623879235b1729ea88e8891769975c554c4c7a1a8",
    ),
    "not_poker.reading_table": (
        "ReadingTable",
        "f1c3d10990740b65f70d52da05f29e9d7e845dbaf761faf964841a4119a8f971",
    ),
    "not_poker.triple_weights": (
        "ndarray int64 (2, 4096)",
        "4f469dd98afc5564a178f84e32d59dd5b17c2d20e6346601ef861bd386c0e388",
    ),
    "not_poker.batch_symbols": (
        "ndarray uint8 (256,)",
        "2eae0fa25e6c2a05ffa19923fc3868ac06335de795d36eb676da039456fc7ddb",
    ),
    "not_poker.batch_weights": (
        "ndarray int32 (6, 14)",
        "8217d1fde0d04b5ab816a4f5bce51e560cbea503c9d2277c983f5b40a69f625b",
    ),
    "tonk.suit_points_table": (
        "tuple 8192",
        "a09718c213c6d3d26867cc2fb01842601e896f9006c97e0637a0af650bb52545",
    ),
    "tonk.suit_deadwood_table": (
        "tuple 8192",
        "858a30b9cdbf8f8c94b40bef21456fe4f18eb689e7ea85b85607e8ed5cffb8d8",
    ),
    "tonk.suit_runs_table": (
        "tuple 8192",
        "8b90529d24a1297feecf28cee8756d6800d7dcfbbf56100d86d343fadcae6df5",
    ),
    "high_card.sort_keys": (
        "tuple 2",
        "018c9a9835f94acc594fb018421d6fb7fe398484912b977e0909436094afd042",
    ),
    "high_card.rank_order": (
        "tuple 2",
        "d5c190c9bdd664e2ad6dbf52f084dbca1a6f628cac09b73ff135d0a5561ba28f",
    ),
}
"""Name -> ``fingerprint`` of the table."""


def _holds_arrays(value: object) -> bool:
    return isinstance(value, np.ndarray | array) or (
        dataclasses.is_dataclass(value) and not isinstance(value, type)
    )


def _feed(value: object, digest: hashlib._Hash) -> None:
    """Write ``value`` into ``digest`` unambiguously: arrays as their dtype, shape and
    bytes; dataclasses field by field; anything else (ints, strings, enums, tuples and
    mappings of them) as its repr, which Python writes in full and in order."""
    if isinstance(value, np.ndarray):
        digest.update(f"ndarray {value.dtype.str} {value.shape}|".encode())
        digest.update(np.ascontiguousarray(value).tobytes())
    elif isinstance(value, array):
        digest.update(f"array {value.typecode} {len(value)}|".encode())
        digest.update(value.tobytes())
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = dataclasses.fields(value)
        digest.update(f"{type(value).__name__} {len(fields)}|".encode())
        for field in fields:
            digest.update(f"{field.name}=".encode())
            _feed(getattr(value, field.name), digest)
    elif isinstance(value, tuple | list) and any(_holds_arrays(item) for item in value):
        digest.update(f"{type(value).__name__} {len(value)}|".encode())
        for item in value:
            _feed(item, digest)
    else:
        with np.printoptions(threshold=sys.maxsize):
            text = f"{type(value).__name__}|{value!r}|"
        if " at 0x" in text:
            raise TypeError(f"no canonical bytes for {type(value).__name__}: {text[:80]}")
        digest.update(text.encode())


def fingerprint(table: object) -> tuple[str, str]:
    """(type, length or dtype and shape; SHA-256) of a table: a failure says what changed
    shape as well as that something changed."""
    digest = hashlib.sha256()
    _feed(table, digest)
    if isinstance(table, np.ndarray):
        kind = f"ndarray {table.dtype} {table.shape}"
    elif isinstance(table, tuple | list | Mapping | array):
        kind = f"{type(table).__name__} {len(table)}"
    else:
        kind = type(table).__name__
    return kind, digest.hexdigest()


def test_every_table_has_a_golden_value_and_nothing_else_does() -> None:
    assert set(GOLDEN) == set(TABLES)


@pytest.mark.parametrize("name", TABLES)
def test_each_table_is_what_it_was(name: str) -> None:
    now = fingerprint(TABLES[name]())
    assert now == GOLDEN.get(name), f"{name} changed; if meant, its value is now {now!r}"


def test_a_fingerprint_sees_one_changed_entry_and_a_changed_dtype() -> None:
    table = np.arange(256, dtype=np.uint16)
    changed = table.copy()
    changed[200] += 1
    assert len({fingerprint(table), fingerprint(changed), fingerprint(table.astype(np.int16))}) == 3
    assert fingerprint(((1, "a"), (2, "b"))) != fingerprint(((1, "a"), (2, "c")))
    assert fingerprint((table, 1)) != fingerprint((changed, 1))
