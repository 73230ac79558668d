"""The cards still to come: count, enumerate (weighted) or sample every completion.

A completion deals, from the unseen cards, each seat's unknown cards (a set per seat, in
seat order), then the table's missing cards (RULES.md "Odds"). Where the table may pair
(``table_pairs``) the missing table cards are one more set and every completion is
equally likely. In the discard games they come one by one, each uniform over the unseen
cards whose rank is not on the table yet, so a completion's probability is the product
of ``1 / candidates`` over its table cards and the table is an ordered sequence.

A completion is one row of card ids: the seats' unknown cards in seat order, then the new
table cards in the order turned. Enumeration yields rows with their probabilities in
chunks (numpy combination index arrays, never a Python loop per completion); sampling
draws rows with exactly those probabilities (rejection of used cards and, in the discard
games, of table ranks), seeded.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from evaluators.cards import DECK_SIZE

Matrix = npt.NDArray[np.uint8]
Weights = npt.NDArray[np.float64]

RANK_COUNT = 13


@dataclass(frozen=True)
class Plan:
    """What is still to come: ``unseen`` card ids (sorted), each seat's ``unknown`` count,
    ``table_cards`` to turn, whether they may pair the table, and the ranks already on
    the table (bit r = rank r)."""

    unseen: tuple[int, ...]
    unknown: tuple[int, ...]
    table_cards: int
    table_pairs: bool
    table_ranks: int

    @property
    def hand_cards(self) -> int:
        return sum(self.unknown)

    @property
    def width(self) -> int:
        """Cards in one completion row."""
        return self.hand_cards + self.table_cards


def count_completions(plan: Plan) -> int:
    """Distinct completions: seat sets, then the table as a set (may pair) or as an
    ordered sequence of distinct new ranks (the discard games)."""
    ways = math.factorial(plan.hand_cards)
    for unknown in plan.unknown:
        ways //= math.factorial(unknown)
    unseen = len(plan.unseen)
    if plan.table_pairs:
        return (
            ways
            * math.comb(unseen, plan.hand_cards)
            * math.comb(unseen - plan.hand_cards, plan.table_cards)
        )
    return ways * math.factorial(plan.table_cards) * _hand_and_table_sets(plan)


def _hand_and_table_sets(plan: Plan) -> int:
    """Pairs (set of the hands' cards, set of table cards of distinct new ranks), by a
    polynomial over ranks: x counts hand cards, y table cards (at most one per rank)."""
    on_table = [card for card in plan.unseen if plan.table_ranks >> (card >> 2) & 1]
    hands = plan.hand_cards
    table = plan.table_cards
    poly = [
        [math.comb(len(on_table), h) if t == 0 else 0 for t in range(table + 1)]
        for h in range(hands + 1)
    ]
    per_rank = [0] * RANK_COUNT
    for card in plan.unseen:
        if not plan.table_ranks >> (card >> 2) & 1:
            per_rank[card >> 2] += 1
    for cards in per_rank:
        if not cards:
            continue
        grown = [[0] * (table + 1) for _ in range(hands + 1)]
        for h in range(hands + 1):
            for t in range(table + 1):
                if not poly[h][t]:
                    continue
                for k in range(min(cards, hands - h) + 1):
                    ways = poly[h][t] * math.comb(cards, k)
                    grown[h + k][t] += ways
                    if t < table and cards > k:
                        grown[h + k][t + 1] += ways * (cards - k)
        poly = grown
    return poly[hands][table]


@functools.lru_cache(maxsize=32)
def combinations(n: int, k: int) -> Matrix:
    """Every k-subset of ``range(n)`` as sorted rows, in lexicographic order (read-only)."""
    rows = np.arange(n - k + 1, dtype=np.uint8)[:, None] if k else np.zeros((1, 0), np.uint8)
    for position in range(1, k):
        last = rows[:, -1].astype(np.intp)
        counts = n - k + position - last
        starts = np.cumsum(counts) - counts
        offsets = np.arange(int(counts.sum())) - np.repeat(starts, counts)
        following = (np.repeat(last, counts) + 1 + offsets).astype(np.uint8)
        rows = np.column_stack([np.repeat(rows, counts, axis=0), following])
    rows = np.ascontiguousarray(rows)
    rows.flags.writeable = False
    return rows


def subset_sums(values: npt.NDArray[np.int64], k: int) -> npt.NDArray[np.int64]:
    """Per row of ``combinations(len(values), k)``, in its order, the sum of ``values`` at
    the row's indexes.

    Built a level at a time with one add per first index, never a gather per row: the rows
    of j indexes starting at a are a followed by each (j-1)-row of indexes above a, and
    those are the last ``C(n - a - 1, j - 1)`` rows of the level below.
    """
    n = len(values)
    level = np.zeros(1, dtype=np.int64)
    for size in range(1, k + 1):
        sums = np.empty(math.comb(n, size), dtype=np.int64)
        row = 0
        for first in range(n - size + 1):
            rest = level[len(level) - math.comb(n - first - 1, size - 1) :]
            np.add(rest, values[first], out=sums[row : row + len(rest)])
            row += len(rest)
        level = sums
    return level


@dataclass(frozen=True)
class SetHalves:
    """A k-subset of ``range(n)`` drawn as two smaller ones, a row of ``combinations(n,
    small)`` and a row of ``combinations(n, k - small)``: per row, its index bits (bit i:
    index i, to tell the pairs that overlap) and the sum of some ``values`` at its
    indexes, side by side so that one gather reads both. Both tables stay small (48 cards,
    k = 5: 1,128 and 17,296 rows) where the whole ``combinations(n, k)`` does not."""

    small: npt.NDArray[np.int64]
    large: npt.NDArray[np.int64]


def set_halves(values: npt.NDArray[np.int64], k: int) -> SetHalves:
    """The halves of a k-subset of ``range(len(values))`` (at most 63): ``k // 2`` indexes
    and the rest."""
    bits = np.left_shift(1, np.arange(len(values), dtype=np.int64))
    small = k // 2
    return SetHalves(
        np.stack([subset_sums(bits, small), subset_sums(values, small)], axis=1),
        np.stack([subset_sums(bits, k - small), subset_sums(values, k - small)], axis=1),
    )


def draw_set_halves(
    rng: np.random.Generator,
    halves: SetHalves,
    small_rows: npt.NDArray[np.int64],
    large_rows: npt.NDArray[np.int64],
    sums: npt.NDArray[np.int64],
    disjoint: npt.NDArray[np.bool_],
) -> None:
    """Fill the four equal-length arrays, one entry per draw: independent uniform rows of
    each half's table, the sum of their values and whether the two are disjoint.

    The disjoint draws, in order, are independent uniform k-subsets: every k-subset is the
    union of exactly ``C(k, small)`` disjoint pairs and every pair is equally likely (with
    48 cards and k = 5, 88% of them disjoint). One bounded draw makes two pairs: uniform
    below ``pairs ** 2``, its quotient and remainder by ``pairs`` are two independent
    uniform pair numbers (``pairs ** 2`` must stay below 2^63, as it does for k <= 5).
    """
    large = len(halves.large)
    pairs = len(halves.small) * large
    half = -(-len(small_rows) // 2)
    both = rng.integers(0, pairs * pairs, size=half)
    drawn = np.empty(2 * half, dtype=np.int64)
    np.floor_divide(both, pairs, out=drawn[:half])
    np.multiply(drawn[:half], pairs, out=drawn[half:])
    np.subtract(both, drawn[half:], out=drawn[half:])
    drawn = drawn[: len(small_rows)]
    np.floor_divide(drawn, large, out=small_rows)
    np.multiply(small_rows, large, out=large_rows)
    np.subtract(drawn, large_rows, out=large_rows)
    small = np.take(halves.small, small_rows, axis=0, mode="clip")
    large_half = np.take(halves.large, large_rows, axis=0, mode="clip")
    np.add(small[:, 1], large_half[:, 1], out=sums)
    np.bitwise_and(small[:, 0], large_half[:, 0], out=drawn)
    np.equal(drawn, 0, out=disjoint)


FEW_SEEN = 8
"""Up to this many cards missing from a sorted card list, ``cards_at`` compares instead
of gathering."""


def cards_at(cards: Matrix, positions: Matrix) -> Matrix:
    """``cards[positions]`` for ``cards`` sorted (the deck less some seen cards).

    Position i holds i plus the number of seen cards s_j (sorted) with s_j - j <= i, so
    with few seen cards a comparison and an add per seen card over the position bytes
    beat a gather (numpy widens gather indexes to 8 bytes each).
    """
    seen = sorted(set(range(DECK_SIZE)) - set(cards.tolist()))
    if len(seen) > FEW_SEEN:
        gathered: Matrix = np.take(cards, positions)
        return gathered
    result = positions.copy()
    for j, card in enumerate(seen):
        result += positions >= card - j
    return result


def _complements(n: int, chosen: Matrix) -> Matrix:
    """Per row of ``chosen`` (indexes into ``range(n)``), the indexes it leaves, sorted."""
    keep = np.ones((len(chosen), n), dtype=np.bool_)
    np.put_along_axis(keep, chosen.astype(np.intp), False, axis=1)
    left: Matrix = np.nonzero(keep)[1].astype(np.uint8).reshape(len(chosen), -1)
    return left


@dataclass(frozen=True)
class _Partial:
    """Completions dealt up to some point: their rows so far, the unseen cards each has
    left, their probabilities and the ranks on their tables."""

    rows: Matrix
    left: Matrix
    weights: Weights
    ranks: npt.NDArray[np.uint16]

    def __len__(self) -> int:
        return len(self.rows)

    def block(self, start: int, stop: int) -> _Partial:
        return _Partial(
            self.rows[start:stop],
            self.left[start:stop],
            self.weights[start:stop],
            self.ranks[start:stop],
        )


def _deal_set(partial: _Partial, chosen: Matrix, with_left: bool) -> _Partial:
    """Each partial completion extended by every set of ``chosen`` indexes into its left
    cards (uniform: each of the ``C(n, k)`` sets of the full group has the same chance)."""
    n = partial.left.shape[1]
    ways = math.comb(n, chosen.shape[1])
    picked = (
        cards_at(partial.left[0], chosen)
        if len(partial) == 1
        else np.take(partial.left, chosen, axis=1).reshape(-1, chosen.shape[1])
    )
    rows = (
        np.concatenate([np.repeat(partial.rows, len(chosen), axis=0), picked], axis=1)
        if partial.rows.shape[1]
        else picked
    )
    left = (
        partial.left[:, _complements(n, chosen)].reshape(len(rows), -1)
        if with_left
        else np.zeros((len(rows), 0), dtype=np.uint8)
    )
    weights = np.repeat(partial.weights / ways, len(chosen))
    return _Partial(rows, left, weights, np.repeat(partial.ranks, len(chosen)))


def _deal_table_card(partial: _Partial, with_left: bool) -> _Partial:
    """Each partial completion extended by every left card of a rank not on its table
    yet, each with chance ``1 / candidates`` (the discard games' dealer)."""
    left = partial.left
    n = left.shape[1]
    allowed = (partial.ranks[:, None] >> (left >> 2)) & 1 == 0
    candidates = allowed.sum(axis=1)
    parent, index = np.nonzero(allowed)
    card = left[parent, index]
    rows = np.concatenate([partial.rows[parent], card[:, None]], axis=1)
    new_left = (
        left[parent[:, None], _complements(n, np.arange(n, dtype=np.uint8)[:, None])[index]]
        if with_left
        else np.zeros((len(rows), 0), dtype=np.uint8)
    )
    weights = partial.weights[parent] / candidates[parent]
    ranks = partial.ranks[parent] | np.left_shift(np.uint16(1), card >> 2)
    return _Partial(rows, new_left, weights, ranks)


def _groups(plan: Plan) -> list[int]:
    """The deal as steps: a positive k deals a set of k cards, 0 one discard-game table card."""
    steps = [unknown for unknown in plan.unknown if unknown]
    if plan.table_pairs:
        steps += [plan.table_cards] if plan.table_cards else []
    else:
        steps += [0] * plan.table_cards
    return steps


def enumerate_completions(plan: Plan, chunk: int) -> Iterator[tuple[Matrix, Weights]]:
    """Every completion with its probability, about ``chunk`` rows at a time (the last
    step is dealt per block of the completions before it, so memory stays bounded)."""
    start = _Partial(
        np.zeros((1, 0), dtype=np.uint8),
        np.array([plan.unseen], dtype=np.uint8),
        np.ones(1),
        np.array([plan.table_ranks], dtype=np.uint16),
    )
    steps = _groups(plan)
    if not steps:
        yield start.rows, start.weights
        return
    partial = start
    for step in steps[:-1]:
        partial = (
            _deal_set(partial, combinations(partial.left.shape[1], step), True)
            if step
            else _deal_table_card(partial, True)
        )
    last = steps[-1]
    n = partial.left.shape[1]
    sets = combinations(n, last) if last else np.zeros((n, 0), dtype=np.uint8)
    per_row = len(sets)
    rows_per_block = max(1, chunk // per_row)
    for first in range(0, len(partial), rows_per_block):
        block = partial.block(first, first + rows_per_block)
        if not last:
            done = _deal_table_card(block, False)
            yield done.rows, done.weights
            continue
        for set_start in range(0, per_row, chunk):
            done = _deal_set(block, sets[set_start : set_start + chunk], False)
            yield done.rows, done.weights


_RANK_BIT = np.zeros(256, dtype=np.uint16)
_RANK_BIT[:DECK_SIZE] = np.left_shift(1, np.arange(DECK_SIZE) >> 2)


COMBINATION_TABLE_LIMIT = 1 << 22
"""Largest ``combinations`` table (sets x cards bytes, cached) that sampling draws a
whole table from at once: 5 of 52 is 2,598,960 sets, 13 MB."""


def sample_completions(plan: Plan, rng: np.random.Generator, count: int) -> Matrix:
    """``count`` completions drawn with their probabilities, as rows of card ids.

    A Fisher-Yates shuffle of each run-out's own copy of the unseen cards, stopped after
    the cards to come: position k takes a uniform card of positions k.. . A discard game's
    table card redraws, for the rows that hit it, a card whose rank is on the table
    already, which makes it uniform over the cards of the other ranks. A table that may
    pair is one uniform set of the cards left: one random row of the ``combinations``
    table of their positions, where that table is small enough to keep.
    """
    unseen = np.array(plan.unseen, dtype=np.uint8)
    left = len(unseen) - plan.hand_cards
    whole_table = (
        plan.table_pairs
        and plan.table_cards > 0
        and math.comb(left, plan.table_cards) <= COMBINATION_TABLE_LIMIT
    )
    if whole_table and not plan.hand_cards:
        only_table = cards_at(unseen, _random_sets(rng, left, plan.table_cards, count))
        return only_table
    # Position-major (one contiguous row per deck position): each position's draws then
    # touch every row in order, a few streams through memory instead of a random line each.
    deck = np.tile(unseen[:, None], (1, count))
    cards = deck.reshape(-1)
    run_out = np.arange(count, dtype=np.int64)
    dealt = plan.hand_cards if whole_table else plan.width
    ranks = np.full(count, plan.table_ranks, dtype=np.uint16)
    for position in range(dealt):
        at = rng.integers(position, len(unseen), size=count) * count + run_out
        picked = cards[at]
        if position >= plan.hand_cards and not plan.table_pairs:
            pending = np.flatnonzero(ranks & _RANK_BIT[picked])
            while len(pending):
                again = rng.integers(position, len(unseen), len(pending)) * count + pending
                at[pending] = again
                picked[pending] = cards[again]
                pending = pending[(ranks[pending] & _RANK_BIT[picked[pending]]) != 0]
            ranks |= _RANK_BIT[picked]
        cards[at] = deck[position]
        deck[position] = picked
    if not whole_table:
        return np.ascontiguousarray(deck[: plan.width].T)
    chosen = _random_sets(rng, left, plan.table_cards, count)
    at = (chosen + plan.hand_cards).astype(np.int64) * count + run_out[:, None]
    return np.concatenate([deck[: plan.hand_cards].T, cards[at]], axis=1)


def _random_sets(rng: np.random.Generator, n: int, k: int, count: int) -> Matrix:
    """``count`` uniform k-subsets of ``range(n)``, as rows of ``combinations(n, k)``."""
    packed = _packed_combinations(n, k)
    picked = np.take(packed, rng.integers(0, len(packed), size=count))
    chosen: Matrix = picked.view(np.uint8).reshape(count, 8)[:, :k]
    return chosen


@functools.lru_cache(maxsize=4)
def _packed_combinations(n: int, k: int) -> npt.NDArray[np.uint64]:
    """``combinations(n, k)`` (k <= 8) with each row in the bytes of one uint64, so that
    drawing rows is a plain gather (read-only)."""
    rows = np.zeros((math.comb(n, k), 8), dtype=np.uint8)
    rows[:, :k] = combinations(n, k)
    packed: npt.NDArray[np.uint64] = rows.view(np.uint64).ravel()
    packed.flags.writeable = False
    return packed
