"""The sort-based distinct values the table builders use give what ``np.unique`` gives."""

from __future__ import annotations

import numpy as np

from evaluators.tables.distinct import all_distinct, sorted_distinct


def test_sorted_distinct_matches_numpy_unique_on_random_keys() -> None:
    rng = np.random.default_rng(24)
    for size in (0, 1, 2, 1000, 50_000):
        keys = rng.integers(0, 4000, size=size).astype(np.uint64)
        assert np.array_equal(sorted_distinct(keys), np.unique(keys))
        assert sorted_distinct(keys).dtype == np.uint64


def test_all_distinct_finds_one_repeated_value() -> None:
    keys = np.arange(10_000, dtype=np.uint64) * np.uint64(7919)
    assert all_distinct(keys) and all_distinct(keys[:1]) and all_distinct(keys[:0])
    keys[9_999] = keys[17]
    assert not all_distinct(keys)
