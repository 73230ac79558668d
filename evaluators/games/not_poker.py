"""NotPoker (docs/rules.md "NotPoker"): six cards, jokers wild, read as same-rank groups.

Strength points up: a larger ``strength`` is a better hand; equal readings have equal
strength. It packs the category first (two trips best) and then the compared ranks:
combinations from the highest down (trips before pairs, higher rank first), then the
single cards from the highest down.

How a hand is read: a hand's reading depends only on its multiset of *rank symbols*,
the 13 ranks plus one symbol (13) for a joker, which is ``card >> 2`` for every card id
including X1 (52) and X2 (53). That multiset is exactly the signature (rank-count
histogram, joker count). Sorted ascending as v0..v5 it is numbered densely by the
combinatorial number system, ``index = sum(C(v_i + i, i + 1))``, 0 <= index < C(19, 6),
so the single-hand and the batch path share one flat table with no hashing, and no joker
assignment is tried when a hand is scored.
"""

from __future__ import annotations

import enum
import itertools
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import ClassVar, NamedTuple

import numpy as np
import numpy.typing as npt

from evaluators.cards import RANKS
from evaluators.figures import enum_text
from evaluators.game_rules import Figure, GameRules
from evaluators.inputs import Cards, Game, Options
from evaluators.kernels import _not_poker
from evaluators.results import BatchResult, Detail, Evaluation
from evaluators.showdown import resolve_single_pot
from evaluators.tables.builds import container_bytes, lookup_table


class NotPokerCategory(enum.IntEnum):
    """NotPoker categories in docs/rules.md order: 1 (two trips) is the best."""

    TWO_TRIPS = 1
    THREE_PAIRS = 2
    FULL_HOUSE = 3
    TRIPS = 4
    TWO_PAIRS = 5
    PAIR = 6
    HIGH_CARD = 7


@dataclass(frozen=True, slots=True)
class NotPokerDetail(Detail):
    WIRE: ClassVar[str] = "not_poker"

    category: NotPokerCategory
    groups: tuple[str, ...]
    jokers_as: tuple[str, ...]


SUMMARY = (
    "Six cards from a 54-card deck whose two jokers (X1, X2) are wild and take whatever "
    "ranks make the best hand. Same-rank cards form groups: a pair, trips, and four of a "
    "kind counts as two pairs (five as trips and a pair, six as two trips). Best first: "
    "two trips, three pairs, full house, trips, two pairs, pair, high card; ties compare "
    "the combinations from the highest down, then the single cards."
)

HAND_SIZE = 6
JOKER_SYMBOL = 13
"""Rank symbol of both jokers: ``52 >> 2 == 53 >> 2 == 13``."""
SYMBOLS = 14
MAX_JOKERS = 2
MAX_NATURAL_OF_A_RANK = 4
TABLE_SIZE = math.comb(SYMBOLS + HAND_SIZE - 1, HAND_SIZE)
"""27132 signatures; 26390 are real hands (at most 2 jokers, 4 natural cards a rank)."""

_CATEGORY_SHIFT = 24
_RANK_BITS = 4

_SPLIT: tuple[tuple[int, int, int], ...] = (
    (0, 0, 0),
    (0, 0, 1),
    (0, 1, 0),
    (1, 0, 0),
    (0, 2, 0),
    (1, 1, 0),
    (2, 0, 0),
)
"""Same-rank group of n cards -> (trips, pairs, singles) it reads as; 4 is two pairs."""

_CATEGORY_OF: dict[tuple[int, int], NotPokerCategory] = {
    (2, 0): NotPokerCategory.TWO_TRIPS,
    (0, 3): NotPokerCategory.THREE_PAIRS,
    (1, 1): NotPokerCategory.FULL_HOUSE,
    (1, 0): NotPokerCategory.TRIPS,
    (0, 2): NotPokerCategory.TWO_PAIRS,
    (0, 1): NotPokerCategory.PAIR,
    (0, 0): NotPokerCategory.HIGH_CARD,
}
"""(trips, pairs) in six cards -> category; these seven are all that six cards allow."""

_SINGULAR: tuple[str, ...] = ("two", "three", "four", "five", "six", "seven", "eight", "nine")
_SINGULAR += ("ten", "jack", "queen", "king", "ace")
_PLURAL = tuple("sixes" if name == "six" else name + "s" for name in _SINGULAR)

_GROUP_TEXT = tuple(tuple(rank * size for rank in RANKS) for size in range(4))
"""``_GROUP_TEXT[size][rank]``: ``"KKK"``; one shared string each keeps the table small."""

_WEIGHTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(math.comb(v + i, i + 1) for v in range(SYMBOLS)) for i in range(HAND_SIZE)
)
"""``_WEIGHTS[i][v]``: what the i-th smallest symbol v adds to a signature's index."""
_W0, _W1, _W2, _W3, _W4, _W5 = _WEIGHTS


class Reading(NamedTuple):
    """The best reading of one signature: what an Evaluation of it reports."""

    strength: int
    category: NotPokerCategory
    groups: tuple[str, ...]
    jokers_as: tuple[str, ...]
    description: str


@dataclass(frozen=True)
class ReadingTable:
    """Best reading per signature index; ``None``/0 where no real hand has the signature.

    ``strength`` (uint32, higher is better) and ``category`` (int8, 1 = two trips) are
    the same figures as ``readings``, laid out for numpy gathers, each as narrow as its
    figures (a batch gathers every hand's from them).
    """

    readings: tuple[Reading | None, ...]
    strength: npt.NDArray[np.uint32]
    category: npt.NDArray[np.int8]


def signature_index(symbols: Sequence[int]) -> int:
    """Dense index of six rank symbols (0-12 ranks, 13 joker) taken as a multiset."""
    a, b, c, d, e, f = sorted(symbols)
    return _W0[a] + _W1[b] + _W2[c] + _W3[d] + _W4[e] + _W5[f]


def read_literally(ranks: Sequence[int]) -> Reading:
    """The reading of six ranks taken as they are (no jokers); strength higher is better.

    Strength is ``(8 - category) << 24``, then the compared ranks (combinations, trips
    before pairs, higher rank first, then singles from the highest) four bits each from
    bit 20 down. Every hand of one category compares as many ranks, so integer order is
    the order of docs/rules.md.
    """
    descending = sorted(ranks, reverse=True)
    trips: list[int] = []
    pairs: list[int] = []
    singles: list[int] = []
    start = 0
    while start < HAND_SIZE:
        rank = descending[start]
        end = start + 1
        while end < HAND_SIZE and descending[end] == rank:
            end += 1
        t, p, s = _SPLIT[end - start]
        trips += [rank] * t
        pairs += [rank] * p
        singles += [rank] * s
        start = end
    category = _CATEGORY_OF[(len(trips), len(pairs))]
    strength = (8 - category) << _CATEGORY_SHIFT
    shift = _CATEGORY_SHIFT
    for rank in trips + pairs + singles:
        shift -= _RANK_BITS
        strength |= rank << shift
    groups = (
        tuple(_GROUP_TEXT[3][r] for r in trips)
        + tuple(_GROUP_TEXT[2][r] for r in pairs)
        + tuple(_GROUP_TEXT[1][r] for r in singles)
    )
    description = sys.intern(_describe(category, trips + pairs, descending[0]))
    return Reading(strength, category, groups, (), description)


def _describe(category: NotPokerCategory, combos: list[int], top: int) -> str:
    if category is NotPokerCategory.HIGH_CARD:
        return f"High card, {_SINGULAR[top]}"
    if category is NotPokerCategory.PAIR:
        return f"Pair of {_PLURAL[combos[0]]}"
    if category is NotPokerCategory.TRIPS:
        return f"Trips, {_PLURAL[combos[0]]}"
    if category is NotPokerCategory.FULL_HOUSE:
        return f"Full house, {_PLURAL[combos[0]]} full of {_PLURAL[combos[1]]}"
    label = {
        NotPokerCategory.TWO_TRIPS: "Two trips",
        NotPokerCategory.THREE_PAIRS: "Three pairs",
        NotPokerCategory.TWO_PAIRS: "Two pairs",
    }[category]
    names = [_PLURAL[r] for r in combos]
    if len(names) == 2 and names[0] == names[1]:
        return f"{label}, both {names[0]}"
    return f"{label}, {', '.join(names[:-1])} and {names[-1]}"


def _joker_candidates(naturals: tuple[int, ...]) -> list[int]:
    """Ranks a joker may usefully take, highest first: those in hand and the two highest absent.

    Any absent rank reads the same as any other except for its height, so the two highest
    absent ranks (two jokers may both stand apart) do at least as well as the rest.
    """
    present = set(naturals)
    absent = [r for r in range(len(RANKS) - 1, -1, -1) if r not in present][:MAX_JOKERS]
    return sorted(present | set(absent), reverse=True)


def _best_with_jokers(
    naturals: tuple[int, ...], jokers: int, literal: dict[tuple[int, ...], Reading]
) -> Reading:
    """Best reading of ascending natural ranks plus 1-2 jokers (each tried over useful ranks).

    Equal strength fixes the multiset of joker ranks; X1 takes the higher of two.
    """
    best: Reading | None = None
    chosen_best: tuple[int, ...] = ()
    for chosen in itertools.combinations_with_replacement(_joker_candidates(naturals), jokers):
        reading = literal[tuple(sorted(naturals + chosen))]
        if best is None or reading.strength > best.strength:
            best, chosen_best = reading, chosen
    assert best is not None
    return best._replace(jokers_as=tuple(RANKS[r] for r in chosen_best))


def _is_real(symbols: tuple[int, ...]) -> bool:
    """At most two jokers and four natural cards of a rank (``symbols`` ascending)."""
    if symbols[HAND_SIZE - MAX_JOKERS - 1] == JOKER_SYMBOL:
        return False
    return not any(
        symbols[i] == symbols[i + MAX_NATURAL_OF_A_RANK] != JOKER_SYMBOL
        for i in range(HAND_SIZE - MAX_NATURAL_OF_A_RANK)
    )


@lookup_table(
    "not_poker.readings",
    lambda table: container_bytes(table.readings) + table.strength.nbytes + table.category.nbytes,
)
def reading_table() -> ReadingTable:
    """Build, once per process, the best reading of every signature.

    27132 slots, 26390 of them real hands. Jokers are tried here, once per signature, over
    the ranks in hand and the two highest absent ranks.
    """
    literal = {
        ranks: read_literally(ranks)
        for ranks in itertools.combinations_with_replacement(range(len(RANKS)), HAND_SIZE)
    }
    readings: list[Reading | None] = [None] * TABLE_SIZE
    for symbols in itertools.combinations_with_replacement(range(SYMBOLS), HAND_SIZE):
        if not _is_real(symbols):
            continue
        if symbols[-1] != JOKER_SYMBOL:
            readings[signature_index(symbols)] = literal[symbols]
        else:
            naturals = tuple(s for s in symbols if s != JOKER_SYMBOL)
            readings[signature_index(symbols)] = _best_with_jokers(
                naturals, HAND_SIZE - len(naturals), literal
            )
    strength = np.array([r.strength if r else 0 for r in readings], dtype=np.uint32)
    category = np.array([r.category if r else 0 for r in readings], dtype=np.int8)
    strength.setflags(write=False)
    category.setflags(write=False)
    return ReadingTable(tuple(readings), strength, category)


def evaluate(
    hand: Cards, table: Cards, table_spreads: tuple[Cards, ...], options: Options
) -> Evaluation:
    """Score a validated six-card hand (jokers 52, 53 wild); strength higher is better.

    ``table``, ``table_spreads`` and ``options`` are unused: NotPoker has none.
    ``jokers_as`` lists the rank each joker present stood for, X1 before X2.
    """
    if len(hand) != HAND_SIZE:
        raise ValueError(f"a NotPoker hand has {HAND_SIZE} cards, got {len(hand)}")
    reading = reading_table().readings[signature_index([card >> 2 for card in hand])]
    if reading is None:
        raise ValueError("a NotPoker hand has at most two jokers and four cards of a rank")
    return Evaluation(
        strength=reading.strength,
        description=reading.description,
        detail=NotPokerDetail(reading.category, reading.groups, reading.jokers_as),
    )


def headline(evaluation: Evaluation) -> int:
    """The batch ``value``: the category number, 1 (two trips, the best) ... 7 (high card)."""
    return int(evaluation.detail_as(NotPokerDetail).category)


def figures(evaluation: Evaluation) -> list[Figure]:
    detail = evaluation.detail_as(NotPokerDetail)
    return [
        ("category", enum_text(detail.category), True),
        ("groups", " ".join(detail.groups) or "-", True),
        ("jokers as", " ".join(detail.jokers_as) or "-", False),
    ]


_NETWORK = (
    ((0, 5), (1, 3), (2, 4)),
    ((1, 2), (3, 4)),
    ((0, 3), (2, 5)),
    ((0, 1), (2, 3), (4, 5)),
    ((1, 2), (3, 4)),
)
"""An optimal sorting network for six values: 12 compare-exchanges in 5 layers."""
_SYMBOL_BITS = 4
"""Symbols (0-13) fit 4 bits, so three sorted ones make one 12-bit key (``triple_weights``)."""


@cache
def triple_weights() -> npt.NDArray[np.intp]:
    """``_WEIGHTS`` for three places at once: row k (0 or 1) at key ``a << 8 | b << 4 | c``
    holds what symbols a, b, c in places 3k, 3k+1 and 3k+2 add to a signature's index.

    2 x 4,096 intp (64 KiB). A batch then takes two gathers where it would take one per
    place: numpy converts each gather's index array to intp first, which for byte-sized
    symbols costs more than the gather itself.
    """
    weights = np.array(_WEIGHTS, dtype=np.intp)
    side = 1 << _SYMBOL_BITS
    table = np.zeros((2, side, side, side), dtype=np.intp)
    for k in range(2):
        first, second, third = weights[3 * k : 3 * k + 3]
        table[k, :SYMBOLS, :SYMBOLS, :SYMBOLS] = (
            first[:, None, None] + second[None, :, None] + third[None, None, :]
        )
    flat = table.reshape(2, side**3)
    flat.setflags(write=False)
    return flat


def _key(
    a: npt.NDArray[np.uint8], b: npt.NDArray[np.uint8], c: npt.NDArray[np.uint8]
) -> npt.NDArray[np.uint16]:
    key = a.astype(np.uint16) << np.uint16(2 * _SYMBOL_BITS)
    key |= (b << np.uint8(_SYMBOL_BITS)) | c
    return key


def batch_signature_index(hands: npt.NDArray[np.uint8]) -> npt.NDArray[np.intp]:
    """``signature_index`` of every row of (N, 6) card ids, without a Python loop per hand:
    the rows' symbols column by column (one contiguous pass each), sorted by a sorting
    network, then two gathers of ``triple_weights``."""
    columns = list(np.ascontiguousarray(hands.T) >> np.uint8(2))
    for i, j in itertools.chain.from_iterable(_NETWORK):
        columns[i], columns[j] = (
            np.minimum(columns[i], columns[j]),
            np.maximum(columns[i], columns[j]),
        )
    # mode="clip": keys are inside the table by construction, and numpy's bounds-checked
    # gather is slower.
    weights = triple_weights()
    index: npt.NDArray[np.intp] = np.take(weights[0], _key(*columns[:3]), mode="clip")
    index += np.take(weights[1], _key(*columns[3:]), mode="clip")
    return index


@cache
def batch_symbols() -> npt.NDArray[np.uint8]:
    """Per byte 0-255: its rank symbol (``card >> 2``: 0-12, 13 for a joker); 0 for bytes
    that are not cards (never in a validated hand). 256 uint8, read by the compiled batch."""
    symbols = np.zeros(256, dtype=np.uint8)
    symbols[: SYMBOLS * 4 - 2] = np.arange(SYMBOLS * 4 - 2) >> 2
    symbols.flags.writeable = False
    return symbols


@cache
def batch_weights() -> npt.NDArray[np.int32]:
    """``_WEIGHTS`` as a (6, 14) int32 array, read by the compiled batch."""
    weights = np.array(_WEIGHTS, dtype=np.int32)
    weights.flags.writeable = False
    return weights


def _checked(hands: npt.NDArray[np.uint8]) -> None:
    if hands.ndim != 2 or hands.shape[1] != HAND_SIZE:
        raise ValueError(f"NotPoker hands are (N, {HAND_SIZE}) card ids, got {hands.shape}")


def evaluate_batch(
    hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8], options: Options
) -> BatchResult:
    """Score validated hands (N, 6) at once; ``tables`` (N or 1, 0) and options are unused.

    Compiled (``_not_poker.multiset_readings``, the GIL released): per hand its symbols
    sorted by a network and weighed into ``signature_index``, then the same table as the
    single-hand path, so ``strength`` (higher is better) and ``value`` (category number,
    1 = two trips) equal ``evaluate`` hand by hand, and ``reference_batch``.
    """
    _checked(hands)
    table = reading_table()
    count = hands.shape[0]
    strength = np.empty(count, dtype=np.uint32)
    category = np.empty(count, dtype=np.int8)
    _not_poker.multiset_readings(
        batch_symbols(),
        batch_weights(),
        table.strength,
        table.category,
        np.ascontiguousarray(hands, dtype=np.uint8),
        HAND_SIZE,
        strength,
        category,
    )
    return BatchResult.ranked_only(strength, category)


def reference_batch(
    hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8], options: Options
) -> BatchResult:
    """``evaluate_batch`` in numpy (``batch_signature_index``, then gathers): the
    reference the compiled batch is held equal to."""
    _checked(hands)
    table = reading_table()
    index = batch_signature_index(hands)
    count = hands.shape[0]
    return BatchResult(
        strength=np.take(table.strength, index, mode="clip"),
        low_strength=np.zeros(count, dtype=np.uint64),
        value=np.take(table.category, index, mode="clip"),
        instant_win=np.zeros(count, dtype=np.bool_),
    )


RULES = GameRules(
    game=Game.NOT_POKER,
    name="NotPoker",
    number=0,
    summary=SUMMARY,
    hand_min=HAND_SIZE,
    hand_max=HAND_SIZE,
    table_min=0,
    table_max=0,
    jokers=True,
    evaluate=evaluate,
    evaluate_batch=evaluate_batch,
    reference_batch=reference_batch,
    resolve=resolve_single_pot,
    headline=headline,
    figures=figures,
    detail=NotPokerDetail,
)
