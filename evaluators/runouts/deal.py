"""The cards still to come: count, enumerate (weighted) or sample every completion.

A completion deals, from the unseen cards, each seat's unknown cards (a set per seat, in
seat order), then the table's missing cards (docs/rules.md "Odds"). Where the table may pair
(``table_pairs``) the missing table cards are one more set and every completion is
equally likely. In the discard games they come one by one, each uniform over the unseen
cards whose rank is not on the table yet, so a completion's probability is the product
of ``1 / candidates`` over its table cards and the table is an ordered sequence.

A completion is one row of card ids: the seats' unknown cards in seat order, then the new
table cards in the order turned. Enumeration yields rows with their probabilities in
chunks (numpy combination index arrays, never a Python loop per completion); sampling
draws rows with exactly those probabilities, seeded, by element-wise passes over every
run-out at once (a sorted list of used cards per run-out, and in the discard games a count
of the cards left per rank), never a Python loop per completion either.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from evaluators.cards import DECK_SIZE
from evaluators.kernels import _deal

Matrix = npt.NDArray[np.uint8]
Weights = npt.NDArray[np.float64]
Dealt = tuple[bytes, int, int, int, bytes, bytes]
"""A sampled chunk's deal as the compiled chunk calls read it (``Tile.dealt``)."""

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
    """Every completion with its probability, at most ``chunk`` rows at a time.

    Each step is dealt to a block of the rows before it small enough that the block's
    completions fit in ``chunk`` rows, and the block is completed before the next one is
    dealt, so no step holds more than ``chunk`` rows at once: memory is bounded by
    ``chunk`` and the plan's width, whatever the number of completions.
    """
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
    yield from _dealt(start, steps, chunk)


def _dealt(partial: _Partial, steps: list[int], chunk: int) -> Iterator[tuple[Matrix, Weights]]:
    """The completions of ``partial``'s rows by ``steps``, in blocks of at most ``chunk``."""
    step, rest = steps[0], steps[1:]
    n = partial.left.shape[1]
    sets = combinations(n, step) if step else np.zeros((n, 0), dtype=np.uint8)
    rows_per_block = max(1, chunk // len(sets))
    for first in range(0, len(partial), rows_per_block):
        block = partial.block(first, first + rows_per_block)
        dealt = (
            (_deal_set(block, sets[s : s + chunk], bool(rest)) for s in range(0, len(sets), chunk))
            if step
            else iter([_deal_table_card(block, bool(rest))])
        )
        for done in dealt:
            if rest:
                yield from _dealt(done, rest, chunk)
            else:
                yield done.rows, done.weights


COMBINATION_TABLE_LIMIT = 1 << 22
"""Largest ``combinations`` table (sets x cards bytes, cached) that sampling draws a
whole table from at once: 5 of 52 is 2,598,960 sets, 13 MB."""

DEAL_BLOCK = 16_384
"""Run-outs dealt in turn at once: their lists of used cards (a byte per card and
run-out) then stay in a core's cache through every position."""


def sample_completions(plan: Plan, rng: np.random.Generator, count: int) -> Matrix:
    """``count`` completions drawn with their probabilities, as rows of card ids
    (position-major in memory: each column of the rows is contiguous), by the compiled
    deal (``kernels._deal``) with the GIL released.

    The draws are the kernel's own generator, seeded by one 64-bit word of ``rng``: a
    seed still fixes the answer, but it is not the answer ``sample_completions_numpy``
    (this package's versions before the kernel) gives for that seed; both deal every
    completion with its probability, the same distribution, which the tests check.
    """
    cards = np.empty((plan.width, count), dtype=np.uint8)
    _deal.sample(
        bytes(plan.unseen), in_turn(plan), plan.width, plan.table_ranks, chunk_seed(rng), cards
    )
    rows: Matrix = cards.T
    return rows


def in_turn(plan: Plan) -> int:
    """The positions the compiled deal deals by its partial shuffle: all of them where the
    table may pair, else the hands' (a discard game's table cards come after, by rank)."""
    return plan.width if plan.table_pairs else plan.hand_cards


def chunk_seed(rng: np.random.Generator) -> int:
    """The compiled deal's seed for one chunk: one 64-bit word of ``rng``."""
    return int(rng.integers(0, 2**64, dtype=np.uint64))


DEALT = 0x80
"""A ``Tile`` layout byte ``DEALT | p``: the row of dealt position p (``kernels._odds``)."""


@dataclass(frozen=True)
class Tile:
    """A sampled chunk's cards as the compiled chunk calls deal them into a tile of rows
    (``_odds.discard_sampled``, ``scored_sampled``): ``widths``, each seat's cards;
    ``layout``, a byte a row, the seats' hands then the table, each its known cards then
    its dealt positions (``DEALT | p``), as ``run._joined`` joins them; and the plan's
    ``deal``, (unseen, in_turn, table_ranks) before each chunk's seed."""

    widths: bytes
    layout: bytes
    deal: tuple[bytes, int, int]

    def dealt(self, seed: int) -> Dealt:
        """The ``deal`` argument of one chunk's call, dealt from ``seed``."""
        return (*self.deal, seed, self.widths, self.layout)


def tile(plan: Plan, hands: tuple[tuple[int, ...], ...], table: tuple[int, ...]) -> Tile:
    """The tile of ``plan``'s run-outs for the seats' known ``hands`` and the known ``table``."""
    layout, position = [], 0
    for known, unknown in zip(hands, plan.unknown, strict=True):
        layout += [*known, *(DEALT | p for p in range(position, position + unknown))]
        position += unknown
    layout += [*table, *(DEALT | p for p in range(position, plan.width))]
    return Tile(
        bytes(len(known) + unknown for known, unknown in zip(hands, plan.unknown, strict=True)),
        bytes(layout),
        (bytes(plan.unseen), in_turn(plan), plan.table_ranks),
    )


def sample_completions_numpy(plan: Plan, rng: np.random.Generator, count: int) -> Matrix:
    """``sample_completions`` by numpy's generator and element-wise passes: the reference
    the tests hold the kernel's distribution to.

    Each card dealt in turn is uniform over the unseen cards not dealt yet
    (``_deal_in_turn``): the seats' cards, and a table that may pair. A discard game's
    table card is uniform over the cards left of the ranks not on the table
    (``_discard_table``). A table that may pair, when nothing else is dealt, is one
    uniform set of the unseen cards: one random row of the ``combinations`` table of
    their positions, where that table is small enough to keep.
    """
    unseen = np.array(plan.unseen, dtype=np.uint8)
    if (
        plan.table_pairs
        and not plan.hand_cards
        and plan.table_cards > 0
        and math.comb(len(unseen), plan.table_cards) <= COMBINATION_TABLE_LIMIT
    ):
        only_table = cards_at(unseen, _random_sets(rng, len(unseen), plan.table_cards, count))
        return only_table
    in_turn = plan.width if plan.table_pairs else plan.hand_cards
    cards = np.empty((plan.width, count), dtype=np.uint8)
    for start in range(0, count, DEAL_BLOCK):
        block = cards[:, start : start + DEAL_BLOCK]
        _deal_in_turn(rng, len(unseen), block[:in_turn])
        block[:in_turn] = cards_at(unseen, block[:in_turn])
        if in_turn < plan.width:
            block[in_turn:] = _discard_table(rng, plan, block[:in_turn])
    rows: Matrix = cards.T
    return rows


def _uniform_below(rng: np.random.Generator, highs: npt.NDArray[np.uint8], count: int) -> Matrix:
    """(len(highs), count) integers, row i uniform over ``range(highs[i])`` (highs in 1-255):
    ``_uniform_below_each`` on fresh random bits."""
    bits = _random_bits(rng, len(highs), count).reshape(-1)
    chosen = _uniform_below_each(rng, bits, np.repeat(highs, count))
    return chosen.reshape(len(highs), count)


def _deal_in_turn(rng: np.random.Generator, unseen: int, out: Matrix) -> None:
    """Fill ``out`` (cards, run-outs) with positions into the unseen cards: row k uniform
    over the positions rows 0..k-1 left (a sequential uniform draw, as Fisher-Yates).

    Each run-out keeps its used positions as a sorted list ``s`` stored as ``s_i - i``:
    the j-th free position is then j plus how many stored values are at most j, and
    storing it keeps the list sorted in three element-wise passes (no gather or scatter).
    """
    cards, count = out.shape
    chosen = _uniform_below(rng, np.arange(unseen, unseen - cards, -1, dtype=np.uint8), count)
    # Row 0 is 0 and rows past the list 255: sentinels for the insertion below.
    used = np.full((cards + 1, count), 255, dtype=np.uint8)
    used[0] = 0
    step = np.empty((cards, count), dtype=np.uint8)
    below = np.empty((cards, count), dtype=np.bool_)
    for k in range(cards):
        free = chosen[k]
        np.less_equal(used[1 : k + 1], free, out=below[:k])
        np.add.reduce(below[:k].view(np.uint8), axis=0, dtype=np.uint8, out=out[k])
        out[k] += free
        if k + 1 < cards:
            # New entry i: min(s_i - i, max(s_(i-1) - (i-1), j + 1) - 1).
            np.maximum(used[: k + 1], free + np.uint8(1), out=step[: k + 1])
            step[: k + 1] -= np.uint8(1)
            np.minimum(used[1 : k + 2], step[: k + 1], out=used[1 : k + 2])


_CARD_AT = np.array(
    [
        4 * rank + ([s for s in range(4) if nibble >> s & 1] + [0] * 4)[i]
        for rank in range(RANK_COUNT)
        for nibble in range(16)
        for i in range(4)
    ],
    dtype=np.uint8,
)
_CARD_AT.flags.writeable = False
"""Index ``64 * rank + 4 * nibble + i``: the card of ``rank`` in the i-th lowest suit
whose bit is set in ``nibble``."""


def _discard_table(rng: np.random.Generator, plan: Plan, hands: Matrix) -> Matrix:
    """The discard games' new table cards (table_cards, run-outs) after ``hands``
    (cards, run-outs): each uniform over the unseen cards not in the hands of the ranks
    not on the table yet.

    Per run-out and rank, a nibble of the suits left: a card is a draw j below the count
    of cards left, the rank where the running count passes j, and the suit left of that
    rank that j then points at; its rank's count is then 0.
    """
    count = hands.shape[1]
    allowed = sum(1 << card for card in plan.unseen if not plan.table_ranks >> (card >> 2) & 1)
    taken = np.zeros(count, dtype=np.uint64)
    for column in hands:
        taken |= np.left_shift(np.uint64(1), column)
    free = np.bitwise_and(np.uint64(allowed), ~taken)
    # Byte b of the free cards holds rank 2b in its low nibble and rank 2b + 1 in its high.
    little = free.astype("<u8", copy=False).view(np.uint8).reshape(count, 8)
    planes = np.ascontiguousarray(little[:, :7].T)
    left = np.empty((RANK_COUNT, count), dtype=np.uint8)
    np.bitwise_and(planes, 15, out=left[0::2])
    np.right_shift(planes[:6], 4, out=left[1::2])
    counts = np.bitwise_count(left)
    # Per rank, its index and its suits left in one byte: rank << 4 | nibble.
    ranked = left + (np.arange(RANK_COUNT, dtype=np.uint8) << 4)[:, None]
    running = np.empty_like(counts)
    # Row r + 1 of ``passed``: whether rank r's running count is at most the draw.
    passed = np.ones((RANK_COUNT + 1, count), dtype=np.bool_)
    chosen = np.empty((RANK_COUNT, count), dtype=np.bool_)
    bits = _random_bits(rng, plan.table_cards, count)
    table = np.empty((plan.table_cards, count), dtype=np.uint8)
    for turn in range(plan.table_cards):
        running[0] = counts[0]
        for rank in range(1, RANK_COUNT):
            np.add(running[rank - 1], counts[rank], out=running[rank])
        draw = _uniform_below_each(rng, bits[turn], running[-1])
        np.less_equal(running, draw, out=passed[1:])
        np.not_equal(passed[:-1], passed[1:], out=chosen)
        within = draw - np.add.reduce(counts * passed[1:], axis=0, dtype=np.uint8)
        picked = np.add.reduce(ranked * chosen, axis=0, dtype=np.uint8)
        at = np.left_shift(picked, 2, dtype=np.uint16) + within
        np.take(_CARD_AT, at, out=table[turn])
        counts *= ~chosen
    return table


def _random_bits(rng: np.random.Generator, rows: int, count: int) -> npt.NDArray[np.uint16]:
    """(rows, count) uniform 16-bit integers from one draw of 64-bit ones."""
    raw = rng.integers(0, 2**64, size=-(-rows * count // 4), dtype=np.uint64)
    bits: npt.NDArray[np.uint16] = raw.view(np.uint16)[: rows * count].reshape(rows, count)
    return bits


def _uniform_below_each(
    rng: np.random.Generator, bits: npt.NDArray[np.uint16], highs: Matrix
) -> Matrix:
    """Per entry of ``highs`` (1-255), an integer uniform below it from the random
    ``bits``: Lemire's multiply-shift, exact, since the rare draw whose low half falls
    under ``2**16 % high`` is redrawn by ``rng.integers`` (that bound is computed only
    where a draw might be biased)."""
    product = np.multiply(bits, highs, dtype=np.uint32)
    chosen: Matrix = (product >> 16).astype(np.uint8)
    low = product.astype(np.uint16)
    maybe = np.flatnonzero(low < highs)
    if len(maybe):
        biased = maybe[low[maybe] < 65536 % highs[maybe].astype(np.uint32)]
        chosen[biased] = rng.integers(0, highs[biased], dtype=np.uint8)
    return chosen


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
