"""The completions (``evaluators.runouts.deal``): counted, enumerated with their
probabilities and sampled by them, and the set tables they are drawn from."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import numpy as np
import pytest

from evaluators.cards import DECK_SIZE
from evaluators.runouts.deal import (
    Plan,
    cards_at,
    combinations,
    count_completions,
    draw_set_halves,
    enumerate_completions,
    sample_completions,
    sample_completions_numpy,
    set_halves,
    subset_sums,
)


@pytest.mark.parametrize(("n", "k"), [(5, 0), (6, 1), (10, 3), (12, 5), (20, 4), (48, 2)])
def test_subset_sums_equal_sums_over_the_combination_rows(n: int, k: int) -> None:
    values = np.random.default_rng(n).integers(0, 1 << 40, size=n)
    rows = combinations(n, k).astype(np.intp)
    np.testing.assert_array_equal(subset_sums(values, k), values[rows].sum(axis=1))


@pytest.mark.parametrize(
    ("n", "k"),
    [
        pytest.param(7, 5, marks=pytest.mark.slow),
        (8, 4),
        pytest.param(9, 1, marks=pytest.mark.slow),
    ],
)
def test_disjoint_set_halves_are_uniform_k_subsets_with_their_sums(n: int, k: int) -> None:
    values = np.random.default_rng(n).integers(0, 1 << 40, size=n)
    halves = set_halves(values, k)
    small = combinations(n, k // 2)
    large = combinations(n, k - k // 2)
    size = 199_999
    small_rows = np.empty(size, dtype=np.int64)
    large_rows = np.empty(size, dtype=np.int64)
    sums = np.empty(size, dtype=np.int64)
    disjoint = np.empty(size, dtype=np.bool_)
    draw_set_halves(np.random.default_rng(k), halves, small_rows, large_rows, sums, disjoint)
    unions: Counter[tuple[int, ...]] = Counter()
    draws = zip(small[small_rows].tolist(), large[large_rows].tolist(), disjoint, sums, strict=True)
    for first, second, apart, total in draws:
        assert apart == (not set(first) & set(second))
        if apart:
            unions[tuple(sorted(first + second))] += 1
            assert total == values[list(first + second)].sum()
    assert len(unions) == count_completions(Plan(tuple(range(n)), (), k, True, 0))
    expected = sum(unions.values()) / len(unions)
    chi_square = sum((seen - expected) ** 2 / expected for seen in unions.values())
    assert chi_square < len(unions) + 8 * np.sqrt(2 * len(unions))
    for counts in (np.bincount(small_rows, minlength=len(small)), np.bincount(large_rows)):
        assert counts.min() > 0.9 * size / len(counts)


@pytest.mark.parametrize(
    "plan",
    [
        Plan(tuple(range(20)), (1, 2), 2, False, 0b11),
        Plan(tuple(range(5, 22)), (0, 1, 1), 2, False, 1 << 12),
        Plan(tuple(range(12)), (2, 1), 2, True, 0),
        Plan(tuple(range(10)), (), 3, False, 0),
    ],
)
def test_enumeration_deals_every_completion_once_with_probabilities_summing_to_one(
    plan: Plan,
) -> None:
    rows = []
    total = 0.0
    for chunk, weights in enumerate_completions(plan, chunk=50):
        rows += [tuple(row) for row in chunk.tolist()]
        total += float(weights.sum())
    assert len(rows) == len(set(rows)) == count_completions(plan)
    assert total == pytest.approx(1)


def _completion_key(plan: Plan, row: list[int]) -> tuple[int, ...]:
    """A completion as enumeration deals it: each seat's cards as a set, the table as a
    set where it may pair and in the order turned in the discard games."""
    key: list[int] = []
    column = 0
    for unknown in plan.unknown:
        key += sorted(row[column : column + unknown])
        column += unknown
    table = row[column:]
    return (*key, *(sorted(table) if plan.table_pairs else table))


@pytest.mark.parametrize(
    "plan",
    [
        # Seen cards leave gaps in the unseen ones; rank 4 (card 16) is on the table.
        Plan((0, 2, 5, 6, 9, 10, 13, 15, 16), (1, 2), 2, False, 1 << 4),
        Plan((0, 1, 4, 5, 8, 9, 12, 13, 14, 16), (0, 2, 1), 2, False, 1 << 1),
        Plan((0, 1, 2, 3, 4, 5, 6, 8, 9, 12, 13), (), 3, False, 1 << 1),
        Plan((1, 3, 4, 8, 9, 12, 20, 21), (2, 1), 2, True, 0),
    ],
)
@pytest.mark.parametrize(
    "sample",
    # The numpy reference is held to the kernel (test_kernels_deal); its own check is slow.
    [sample_completions, pytest.param(sample_completions_numpy, marks=pytest.mark.slow)],
)
def test_sampled_completions_follow_the_exact_probabilities(
    plan: Plan, sample: Callable[[Plan, np.random.Generator, int], np.ndarray]
) -> None:
    """Chi-square of the sampled completions against their exact probabilities, by the
    compiled deal and by numpy's reference (seeded, so it cannot flake; the bound is about
    5 standard deviations above the mean)."""
    expected: dict[tuple[int, ...], float] = {}
    for chunk, weights in enumerate_completions(plan, chunk=10_000):
        for row, weight in zip(chunk.tolist(), weights.tolist(), strict=True):
            expected[tuple(row)] = weight
    samples = 300_000
    rows = sample(plan, np.random.default_rng(11), samples)
    assert rows.shape == (samples, plan.width)
    observed: dict[tuple[int, ...], int] = dict.fromkeys(expected, 0)
    for row in rows.tolist():
        key = _completion_key(plan, row)
        assert key in observed, f"impossible completion {row}"
        observed[key] += 1
    chi_square = sum(
        (observed[key] - samples * p) ** 2 / (samples * p) for key, p in expected.items()
    )
    freedom = len(expected) - 1
    assert chi_square < freedom + 5 * np.sqrt(2 * freedom)


def test_cards_at_equals_a_gather_with_few_or_many_cards_seen() -> None:
    rng = np.random.default_rng(5)
    for seen_count in (0, 1, 4, 8, 9, 30):
        seen = set(rng.choice(DECK_SIZE, seen_count, replace=False).tolist())
        cards = np.array([c for c in range(DECK_SIZE) if c not in seen], dtype=np.uint8)
        positions = rng.integers(0, len(cards), size=(100, 5)).astype(np.uint8)
        np.testing.assert_array_equal(cards_at(cards, positions), cards[positions])
