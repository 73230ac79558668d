"""Tonk's deadwood search: a hand's points, its least deadwood after spreads and hits,
and its deal bonus.

Strength points up, as everywhere: ``strength = STRENGTH_BASE - points``, so fewer points
(the drop comparison of docs/rules.md) is stronger and equal points are equal strength.

Method, and why it is fast at 10 cards with many table spreads. A suit is laid out on 14
positions: 0 is a low ace, 1..12 are the ranks 2..K, 13 is a high ace (a run never wraps,
so an ace sits at one end or the other). Within one suit runs never compete for cards:
every maximal block of 3 or more consecutive hand cards is one run. With table runs of
that suit on the same line, a hand card can be hit exactly when its maximal block of hand
and table-run cards holds a table run (hits chain outwards one card after another from
the nearest table run), and such a block is at least 3 long because a table run is. So
the hand cards that runs and hits remove from a suit are ``H & cover3(H | T)`` (positions
of hand cards H and table-run cards T; ``cover3`` marks every bit inside a block of 3 or
more), once per ace placement. The only real choice is sets: each rank with 3 or 4 hand
cards is laid as a set, as a set of 3 leaving one card for runs (4 ways), or not at all.
Ten cards hold at most 3 such ranks, so at most 6 * 6 * 2 = 72 combinations are tried
(usually one). A hand card that can hit a table set of 3 (its 4th card) costs nothing
whether it hits the set or sits in a run, so it weighs 0 in the runs search and is hit
onto the set when no run takes it. Hits go only onto the request's ``table_spreads``
(docs/rules.md); a hand card that would "hit" the hand's own spread is already counted, as a
longer run or a set of 4.

Tables (data, built once per process, cached): ``suit_points_table`` and
``suit_deadwood_table``, 8192 entries each (a 13-bit rank mask of one suit -> its points,
and -> the least points left by runs alone), and ``suit_runs_table`` (8192 entries: the
runs those laid and the ranks left). A hand
without table spreads is answered from these alone (``_evaluate_alone``); with spreads
they serve the suits the spreads do not touch; the batch path uses them for every suit
(a batch carries no table spreads).
"""

from __future__ import annotations

import enum
import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

import numpy as np
import numpy.typing as npt

from evaluators.cards import ACE, rank_of, suit_of
from evaluators.inputs import Cards, Options
from evaluators.kernels import _tonk
from evaluators.results import BatchResult, Detail, Evaluation
from evaluators.tables.builds import container_bytes, lookup_table


class DealBonus(enum.Enum):
    NONE = 1
    FIFTY = 2
    FORTY_NINE = 3
    THIRTEEN_OR_LESS = 4
    NINE_OR_LESS = 5


@dataclass(frozen=True, slots=True)
class Hit:
    """A hand card laid onto the request's ``table_spreads[spread_index]``."""

    card: int
    spread_index: int


@dataclass(frozen=True, slots=True)
class TonkDetail(Detail):
    WIRE: ClassVar[str] = "tonk"

    points: int
    deadwood: int
    spreads: tuple[Cards, ...]
    hits: tuple[Hit, ...]
    deadwood_cards: Cards
    tonk: bool
    deal_bonus: DealBonus


STRENGTH_BASE = 1000
"""``strength = STRENGTH_BASE - points``: above any hand's points (a whole deck has 340)."""

CARD_POINTS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 1)
"""Points by rank index (``2`` ... ``A``): A = 1, 2-10 face value, J/Q/K = 10."""

_SUIT_MASKS = 1 << 13
_ACE_BIT = 1 << ACE
_LOW_ACE = 1
_SetOption = tuple[int, int]
"""(rank, 4-bit mask of the suits laid as a set of that rank); suits 0 means no set."""


def card_points(card: int) -> int:
    return CARD_POINTS[rank_of(card)]


def _positions(ranks: int, ace_low: bool) -> int:
    """14-bit positions of a 13-bit rank mask of one suit, its ace placed low or high."""
    if ace_low and ranks & _ACE_BIT:
        return ((ranks & ~_ACE_BIT) << 1) | _LOW_ACE
    return ranks << 1


def _ranks(positions: int) -> int:
    """13-bit rank mask of 14-bit positions (both ace positions are the ace)."""
    return (positions >> 1) | (_ACE_BIT if positions & _LOW_ACE else 0)


def _cover3(line: int) -> int:
    """Every bit of ``line`` inside a block of 3 or more consecutive bits."""
    starts = line & (line >> 1) & (line >> 2)
    return starts | (starts << 1) | (starts << 2)


@lookup_table("tonk.suit_points", container_bytes)
def suit_points_table() -> tuple[int, ...]:
    """Points of one suit's cards, by 13-bit rank mask (8192 entries)."""
    table = [0] * _SUIT_MASKS
    for mask in range(1, _SUIT_MASKS):
        low = mask & -mask
        table[mask] = table[mask ^ low] + CARD_POINTS[low.bit_length() - 1]
    return tuple(table)


def _suit_best(ranks: int, table_runs: int, free: int) -> tuple[int, int]:
    """(least points left, positions of the hand cards removed) in one suit.

    ``table_runs``: 14-bit positions of the table runs of this suit; ``free``: rank mask of
    hand cards that weigh 0 (they can hit a table set). Ties keep the ace high.
    """
    points = suit_points_table()
    best_cost = -1
    best_covered = 0
    for ace_low in (False, True) if ranks & _ACE_BIT else (False,):
        hand = _positions(ranks, ace_low)
        covered = hand & _cover3(hand | table_runs)
        cost = points[ranks & ~_ranks(covered) & ~free]
        if best_cost < 0 or cost < best_cost:
            best_cost, best_covered = cost, covered
    return best_cost, best_covered


@lookup_table("tonk.suit_deadwood", container_bytes)
def suit_deadwood_table() -> tuple[int, ...]:
    """Least points left in one suit by runs alone, by 13-bit rank mask (8192 entries)."""
    return tuple(_suit_best(mask, 0, 0)[0] for mask in range(_SUIT_MASKS))


@lookup_table("tonk.suit_runs", container_bytes)
def suit_runs_table() -> tuple[tuple[tuple[tuple[int, ...], ...], int], ...]:
    """Per 13-bit rank mask of one suit (8192 entries): the runs the least-deadwood choice
    lays (each a tuple of ranks in line order, a low ace first) and the rank mask left over.

    The same choice as ``_suit_best(mask, 0, 0)`` (ties keep the ace high), so a hand with
    no table spreads and no rank held 3 times needs no search: one lookup per suit.
    """
    entries = []
    for mask in range(_SUIT_MASKS):
        _, covered = _suit_best(mask, 0, 0)
        runs: list[tuple[int, ...]] = []
        position = 0
        while position < 14:
            if covered >> position & 1:
                end = position
                while end + 1 < 14 and covered >> (end + 1) & 1:
                    end += 1
                runs.append(tuple(_position_rank(p) for p in range(position, end + 1)))
                position = end
            position += 1
        entries.append((tuple(runs), mask & ~_ranks(covered)))
    return tuple(entries)


def _position_rank(position: int) -> int:
    return ACE if position in (0, 13) else position - 1


@functools.cache
def _suit_deadwood_array() -> npt.NDArray[np.int64]:
    return np.asarray(suit_deadwood_table(), dtype=np.int64)


def check_spread(cards: Sequence[int]) -> str | None:
    """Why ``cards`` is not a valid table spread, for people; None if it is one.

    Valid: 3 or 4 cards of one rank, or 3 or more consecutive cards of one suit with the
    ace low (A-2-3) or high (Q-K-A), never both (K-A-2 is not a run).
    """
    if any(card < 0 or card >= 52 for card in cards):
        return "a spread holds only the 52 standard cards (no jokers)"
    if len(set(cards)) != len(cards):
        return "a spread repeats a card"
    if len(cards) < 3:
        return f"a spread needs at least 3 cards, got {len(cards)}"
    if len({rank_of(c) for c in cards}) == 1:
        return None
    if len({suit_of(c) for c in cards}) != 1:
        return (
            "the cards are neither a set (3 or 4 cards of one rank) "
            "nor a run (consecutive cards of one suit)"
        )
    ranks = 0
    for card in cards:
        ranks |= 1 << rank_of(card)
    for ace_low in (False, True):
        line = _positions(ranks, ace_low)
        lowest = line & -line
        if line + lowest == lowest << len(cards):
            return None
    return (
        "the cards of a run must be consecutive, with the ace low (A-2-3) or high "
        "(Q-K-A) but never both (K-A-2 is not a run)"
    )


def _deal_bonus(hand: Cards, points: int) -> DealBonus:
    if len(hand) != 5:
        return DealBonus.NONE
    if points == 50:
        return DealBonus.FIFTY
    if points == 49:
        return DealBonus.FORTY_NINE
    if points <= 9:
        return DealBonus.NINE_OR_LESS
    if points <= 13:
        return DealBonus.THIRTEEN_OR_LESS
    return DealBonus.NONE


class _Table:
    """The request's table spreads as the search needs them (built per request)."""

    def __init__(self, table_spreads: tuple[Cards, ...], hit_runs_only: bool) -> None:
        self.runs = [0, 0, 0, 0]
        """Per suit: 14-bit positions of every table run of that suit."""
        self.run_spans: list[tuple[int, int, int, int]] = []
        """(suit, lowest position, highest position, spread index) per table run."""
        self.set_fourths: dict[int, int] = {}
        """The card that completes a table set of 3 -> that spread's index."""
        for index, spread in enumerate(table_spreads):
            if len({rank_of(c) for c in spread}) == 1:
                if len(spread) == 3 and not hit_runs_only:
                    missing = 15 & ~sum(1 << suit_of(c) for c in spread)
                    self.set_fourths[rank_of(spread[0]) * 4 + missing.bit_length() - 1] = index
                continue
            suit = suit_of(spread[0])
            ranks = sum(1 << rank_of(c) for c in spread)
            line = _positions(ranks, ace_low=bool(ranks & 1))
            self.runs[suit] |= line
            self.run_spans.append(
                (suit, (line & -line).bit_length() - 1, line.bit_length() - 1, index)
            )


def _set_options(suit_masks: Sequence[int]) -> list[list[_SetOption]]:
    """Per rank with 3 or 4 hand cards: no set, the whole set, and (4) each set of 3."""
    options: list[list[_SetOption]] = []
    for rank in range(13):
        suits = sum(((suit_masks[s] >> rank) & 1) << s for s in range(4))
        count = suits.bit_count()
        if count == 3:
            options.append([(rank, 0), (rank, suits)])
        elif count == 4:
            options.append([(rank, 0), (rank, 15)] + [(rank, 15 ^ (1 << s)) for s in range(4)])
    return options


def _without_sets(suit_masks: Sequence[int], sets: Sequence[_SetOption]) -> list[int]:
    left = list(suit_masks)
    for rank, suits in sets:
        for suit in range(4):
            if suits >> suit & 1:
                left[suit] &= ~(1 << rank)
    return left


def _position_card(position: int, suit: int) -> int:
    return (ACE if position in (0, 13) else position - 1) * 4 + suit


def _suit_arrangement(
    suit: int, covered: int, table: _Table, spreads: list[Cards], hits: list[Hit]
) -> None:
    """Turn one suit's removed positions into hand runs and chained hits on table runs."""
    if not covered:
        return
    line = covered | table.runs[suit]
    spans = sorted((low, high, index) for s, low, high, index in table.run_spans if s == suit)
    position = 0
    while position < 14:
        if not line >> position & 1:
            position += 1
            continue
        end = position
        while end + 1 < 14 and line >> (end + 1) & 1:
            end += 1
        inside = [(lo, i) for lo, _, i in spans if position <= lo <= end]
        hand = [p for p in range(position, end + 1) if covered >> p & 1]
        if not inside:
            spreads.append(tuple(_position_card(p, suit) for p in hand))
        else:
            first_low, first_index = inside[0]
            for p in reversed([p for p in hand if p < first_low]):
                hits.append(Hit(_position_card(p, suit), first_index))
            for p in hand:
                if p > first_low:
                    owner = max((lo, i) for lo, i in inside if lo < p)[1]
                    hits.append(Hit(_position_card(p, suit), owner))
        position = end + 1


def _empty_evaluation() -> Evaluation:
    detail = TonkDetail(
        points=0,
        deadwood=0,
        spreads=(),
        hits=(),
        deadwood_cards=(),
        tonk=False,
        deal_bonus=DealBonus.NONE,
    )
    return Evaluation(strength=STRENGTH_BASE, description="No cards left", detail=detail)


def evaluate(
    hand: Cards, table: Cards, table_spreads: tuple[Cards, ...], options: Options
) -> Evaluation:
    """Points, least deadwood with one best arrangement, tonk and deal bonus of a hand.

    ``table`` is unused (Tonk has no table cards); ``table_spreads`` are valid spreads
    (validated by the caller, see ``check_spread``) that hand cards may hit. An empty
    hand (an ender's, in a showdown) has 0 points, 0 deadwood and is not a tonk.
    """
    del table
    if not hand:
        return _empty_evaluation()
    if not table_spreads:
        return _evaluate_alone(hand)
    return _evaluate_with_spreads(hand, table_spreads, options)


_PACKED_SHIFT = 16
_PACKED_FIELD = (1 << 13) - 1
_POINTS_SHIFT = 64
_PACKED_KEYS = tuple(
    (1 << (_PACKED_SHIFT * (card & 3) + (card >> 2))) | (CARD_POINTS[card >> 2] << _POINTS_SHIFT)
    for card in range(52)
)
"""Per card: its rank bit in its suit's 16-bit field, plus its points above bit 64. A hand's
sum holds its four suit masks (bits 0..63) and its points."""
_SUITS_OF = tuple(tuple(s for s in range(4) if suits >> s & 1) for suits in range(16))
_SET_CHOICES = tuple(
    (0, suits) if suits.bit_count() == 3 else (0, 15, 14, 13, 11, 7) if suits == 15 else ()
    for suits in range(16)
)
"""Suits of one rank held 3-4 times -> the suits a set may take (0: no set), in the order
``_set_options`` tries them."""
_SPREAD_OF_SUITS = tuple(
    sum(1 << (_PACKED_SHIFT * s) for s in _SUITS_OF[suits]) for suits in range(16)
)


def _evaluate_alone(hand: Cards) -> Evaluation:
    """``evaluate`` with no table spreads: the same answer by table lookups.

    Suits are independent once sets are chosen, so each suit's runs and leftover come from
    ``suit_runs_table``; only a hand holding some rank 3 or 4 times tries set choices
    (scored by ``suit_deadwood_table``, the four suit masks packed in one int).
    """
    total = 0
    for card in hand:
        total += _PACKED_KEYS[card]
    points = total >> _POINTS_SHIFT
    packed = total & ((1 << _POINTS_SHIFT) - 1)
    clubs, diamonds = packed & _PACKED_FIELD, packed >> 16 & _PACKED_FIELD
    hearts, spades = packed >> 32 & _PACKED_FIELD, packed >> 48
    held_three = (clubs & diamonds & (hearts | spades)) | (hearts & spades & (clubs | diamonds))
    spreads: list[Cards] = []
    if held_three:
        packed, spreads = _best_sets(packed, held_three)
    runs_table = suit_runs_table()
    points_table = suit_points_table()
    leftover = 0
    deadwood = 0
    for suit in range(4):
        runs, left = runs_table[packed >> (_PACKED_SHIFT * suit) & _PACKED_FIELD]
        for run in runs:
            spreads.append(tuple(rank * 4 + suit for rank in run))
        leftover |= left << (_PACKED_SHIFT * suit)
        deadwood += points_table[left]
    keys = _PACKED_KEYS
    deadwood_cards = tuple(c for c in hand if leftover & keys[c])
    tonk = not deadwood_cards
    detail = TonkDetail(
        points, deadwood, tuple(spreads), (), deadwood_cards, tonk, _deal_bonus(hand, points)
    )
    return Evaluation(STRENGTH_BASE - points, "Tonk!" if tonk else f"Deadwood {deadwood}", detail)


def _best_sets(packed: int, held_three: int) -> tuple[int, list[Cards]]:
    """(the packed suit masks left, the sets laid) of the set choice leaving least deadwood
    by runs; the first best in ``_set_options`` order, as the general search picks."""
    choices: list[list[int]] = []
    ranks: list[int] = []
    left = held_three
    while left:
        low = left & -left
        left ^= low
        rank = low.bit_length() - 1
        suits = sum(((packed >> (_PACKED_SHIFT * s + rank)) & 1) << s for s in range(4))
        ranks.append(rank)
        choices.append(list(_SET_CHOICES[suits]))
    table = suit_deadwood_table()
    field = _PACKED_FIELD
    best_cost = -1
    best: tuple[int, ...] = ()
    for combo in itertools.product(*choices):
        removed = 0
        for rank, suits in zip(ranks, combo, strict=True):
            removed |= _SPREAD_OF_SUITS[suits] << rank
        rest = packed & ~removed
        cost = (
            table[rest & field]
            + table[rest >> 16 & field]
            + table[rest >> 32 & field]
            + table[rest >> 48]
        )
        if best_cost < 0 or cost < best_cost:
            best_cost, best = cost, combo
    removed = 0
    sets: list[Cards] = []
    for rank, suits in zip(ranks, best, strict=True):
        if suits:
            removed |= _SPREAD_OF_SUITS[suits] << rank
            sets.append(tuple(rank * 4 + s for s in _SUITS_OF[suits]))
    return packed & ~removed, sets


def _evaluate_with_spreads(
    hand: Cards, table_spreads: tuple[Cards, ...], options: Options
) -> Evaluation:
    """``evaluate`` in general: set choices, then per suit runs and hits."""
    points = sum(card_points(c) for c in hand)
    suit_masks = [0, 0, 0, 0]
    for card in hand:
        suit_masks[suit_of(card)] |= 1 << rank_of(card)
    spread_table = _Table(table_spreads, options.hit_runs_only)
    free = [0, 0, 0, 0]
    for card in hand:
        if card in spread_table.set_fourths:
            free[suit_of(card)] |= 1 << rank_of(card)
    plain = [not spread_table.runs[s] and not free[s] for s in range(4)]
    deadwood_table = suit_deadwood_table()
    cache: dict[tuple[int, int], int] = {}

    best_cost = -1
    best_sets: tuple[_SetOption, ...] = ()
    for sets in itertools.product(*_set_options(suit_masks)):
        cost = 0
        for suit, ranks in enumerate(_without_sets(suit_masks, sets)):
            if plain[suit]:
                cost += deadwood_table[ranks]
            else:
                key = (suit, ranks)
                if key not in cache:
                    cache[key] = _suit_best(ranks, spread_table.runs[suit], free[suit])[0]
                cost += cache[key]
        if best_cost < 0 or cost < best_cost:
            best_cost, best_sets = cost, sets

    spreads: list[Cards] = [
        tuple(rank * 4 + s for s in range(4) if suits >> s & 1)
        for rank, suits in best_sets
        if suits
    ]
    hits: list[Hit] = []
    for suit, ranks in enumerate(_without_sets(suit_masks, best_sets)):
        _, covered = _suit_best(ranks, spread_table.runs[suit], free[suit])
        _suit_arrangement(suit, covered, spread_table, spreads, hits)
    laid = {c for spread in spreads for c in spread} | {h.card for h in hits}
    for card in hand:
        if card not in laid and card in spread_table.set_fourths:
            hits.append(Hit(card, spread_table.set_fourths[card]))
            laid.add(card)
    deadwood_cards = tuple(c for c in hand if c not in laid)
    tonk = not deadwood_cards
    detail = TonkDetail(
        points=points,
        deadwood=best_cost,
        spreads=tuple(spreads),
        hits=tuple(hits),
        deadwood_cards=deadwood_cards,
        tonk=tonk,
        deal_bonus=_deal_bonus(hand, points),
    )
    return Evaluation(
        strength=STRENGTH_BASE - points,
        description="Tonk!" if tonk else f"Deadwood {best_cost}",
        detail=detail,
    )


def headline(evaluation: Evaluation) -> int:
    """The batch ``value`` of a Tonk hand: its deadwood."""
    detail = evaluation.detail_as(TonkDetail)
    return detail.deadwood


_REMOVALS = np.array(
    [
        [0, suits] + ([suits ^ (1 << s) for s in range(4)] if suits == 15 else [0] * 4)
        if suits.bit_count() >= 3
        else [0] * 6
        for suits in range(16)
    ],
    dtype=np.int64,
)
"""[4-bit suits of one rank in hand, option] -> suits laid as a set (options as above)."""


_Key = TypeVar("_Key", np.uint64, np.int64)


def _card_array(value_of: dict[int, int], dtype: type[_Key]) -> npt.NDArray[_Key]:
    """256 entries indexed by card id (padding and anything else 0)."""
    array: npt.NDArray[_Key] = np.zeros(256, dtype=dtype)
    for card, value in value_of.items():
        array[card] = value
    return array


_SUIT_SHIFT = 16
_SUIT_FIELD = (1 << 13) - 1
_SUIT_KEYS = _card_array(
    {c: 1 << (rank_of(c) + _SUIT_SHIFT * suit_of(c)) for c in range(52)}, np.uint64
)
"""Per card, its rank bit in its suit's 16-bit field: a hand's sum holds its 4 suit masks."""
_RANK_COUNT_KEYS = _card_array({c: 1 << (3 * rank_of(c)) for c in range(52)}, np.uint64)
"""Per card, 1 in its rank's 3-bit field: a hand's sum holds its 13 rank counts."""
_POINT_KEYS = _card_array({c: CARD_POINTS[rank_of(c)] for c in range(52)}, np.int64)
_FIELD_LOW_BITS = np.uint64(sum(1 << (3 * rank) for rank in range(13)))


def _column_sum(keys: npt.NDArray[np.generic], columns: npt.NDArray[np.uint8]) -> npt.NDArray[Any]:
    """Per hand, the sum of ``keys`` over its cards; ``columns`` is (hand_size, N)."""
    total: npt.NDArray[Any] = np.take(keys, columns[0])
    scratch = np.empty_like(total)
    for column in columns[1:]:
        np.take(keys, column, out=scratch)
        total += scratch
    return total


_SUIT_SPREAD = np.array(
    [sum(1 << (_SUIT_SHIFT * s) for s in range(4) if suits >> s & 1) for suits in range(16)],
    dtype=np.uint64,
)
"""4-bit suits -> those suits' rank-0 bits in the packed suit masks (shift by the rank)."""


def _suit_fields(packed: npt.NDArray[np.uint64]) -> list[npt.NDArray[np.uint64]]:
    field = np.uint64(_SUIT_FIELD)
    return [(packed >> np.uint64(_SUIT_SHIFT * suit)) & field for suit in range(4)]


def _runs_deadwood(packed: npt.NDArray[np.uint64]) -> npt.NDArray[np.int64]:
    """Least points left by runs alone, from the packed suit masks (4 lookups)."""
    table = _suit_deadwood_array()
    fields = _suit_fields(packed)
    deadwood: npt.NDArray[np.int64] = np.take(table, fields[0])
    for field in fields[1:]:
        deadwood += np.take(table, field)
    return deadwood


def _batch_with_sets(
    packed: npt.NDArray[np.uint64], set_ranks: npt.NDArray[np.uint64]
) -> npt.NDArray[np.int64]:
    """Least deadwood of hands holding at least one rank 3 or 4 times (all combinations).

    ``packed``: the hands' suit masks (``_SUIT_KEYS`` sums); ``set_ranks``: a bit at 3 * rank
    for each rank held 3 or 4 times (at most 3 such ranks in 10 cards).
    """
    count = len(packed)
    slot_rank, slot_suits, slot_options = [], [], []
    left = set_ranks.copy()
    for _ in range(3):
        lowest = left & (~left + np.uint64(1))
        left ^= lowest
        held = lowest != 0
        rank = np.log2(np.where(held, lowest, 1).astype(np.float64)).astype(np.uint64) // np.uint64(
            3
        )
        suits = np.zeros(count, dtype=np.int64)
        for suit in range(4):
            bit = (packed >> (rank + np.uint64(_SUIT_SHIFT * suit))) & np.uint64(1)
            suits |= bit.astype(np.int64) << suit
        slot_rank.append(rank)
        slot_suits.append(suits)
        slot_options.append(np.where(suits == 15, 6, np.where(held, 2, 1)))
    best = np.full(count, np.iinfo(np.int64).max, dtype=np.int64)
    codes = slot_options[0] * 64 + slot_options[1] * 8 + slot_options[2]
    groups, group_of = np.unique(codes, return_inverse=True)
    for group_index, code in enumerate(groups.tolist()):
        sizes = (code >> 6, (code >> 3) & 7, code & 7)
        rows = np.flatnonzero(group_of == group_index)
        masks = packed[rows]
        for combo in itertools.product(*(range(n) for n in sizes)):
            removed = np.zeros(len(rows), dtype=np.uint64)
            for slot, option in enumerate(combo):
                laid = _SUIT_SPREAD[_REMOVALS[slot_suits[slot][rows], option]]
                removed |= laid << slot_rank[slot][rows]
            best[rows] = np.minimum(best[rows], _runs_deadwood(masks & ~removed))
    return best


@functools.cache
def _suit_deadwood_int16() -> npt.NDArray[np.int16]:
    """``suit_deadwood_table`` in int16 (16 KiB, a suit's deadwood is at most 85), read
    by the compiled batch."""
    table = np.asarray(suit_deadwood_table(), dtype=np.int16)
    table.flags.writeable = False
    return table


def evaluate_batch(
    hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8], options: Options
) -> BatchResult:
    """Strength (higher is better: fewer points) and deadwood of each hand, compiled
    (``_tonk.deadwood``, the GIL released) from the tables ``reference_batch`` reads,
    and equal to it hand by hand: per hand its summed keys give the 4 suit masks and the
    points; a hand holding a rank 3 or 4 times tries every set choice (``_REMOVALS``).

    ``hands`` is (N, hand_size) card ids padded with 255; ``tables`` and ``options`` are
    unused (a batch carries no table spreads). Figures are 16 bits wide.
    """
    del tables, options
    count = hands.shape[0]
    strength = np.empty(count, dtype=np.uint16)
    deadwood = np.empty(count, dtype=np.int16)
    _tonk.deadwood(
        _SUIT_KEYS,
        _POINT_KEYS,
        _suit_deadwood_int16(),
        _REMOVALS,
        STRENGTH_BASE,
        np.ascontiguousarray(hands, dtype=np.uint8),
        hands.shape[1],
        strength,
        deadwood,
    )
    return BatchResult.ranked_only(strength, deadwood)


def reference_batch(
    hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8], options: Options
) -> BatchResult:
    """``evaluate_batch`` in numpy, the reference the compiled batch is held equal to.

    ``hands`` is (N, hand_size) card ids padded with 255. A batch carries no table
    spreads, so deadwood is from the hand alone and ``hit_runs_only`` changes nothing;
    ``tables`` is unused. Per hand, one column at a time: summed per-card keys give the 4
    suit masks (one lookup each in ``suit_deadwood_table``), the points and the 13 rank
    counts; only hands holding a rank 3 or 4 times also try every set choice, grouped by
    the number of choices so each group is one numpy pass per combination.
    """
    del tables, options
    columns = np.ascontiguousarray(np.asarray(hands, dtype=np.uint8).T)
    count = columns.shape[1]
    if columns.shape[0] == 0:
        zeros = np.zeros(count, dtype=np.int64)
        return BatchResult(
            strength=np.full(count, STRENGTH_BASE, dtype=np.uint64),
            low_strength=zeros.astype(np.uint64),
            value=zeros,
            instant_win=np.zeros(count, dtype=np.bool_),
        )
    packed = _column_sum(_SUIT_KEYS, columns)
    deadwood = _runs_deadwood(packed)
    points = _column_sum(_POINT_KEYS, columns)
    rank_counts = _column_sum(_RANK_COUNT_KEYS, columns)
    three_or_more = (rank_counts >> np.uint64(2)) | ((rank_counts >> np.uint64(1)) & rank_counts)
    set_ranks = three_or_more & _FIELD_LOW_BITS
    rows = np.flatnonzero(set_ranks)
    if rows.size:
        deadwood[rows] = _batch_with_sets(packed[rows], set_ranks[rows])
    return BatchResult(
        strength=(STRENGTH_BASE - points).astype(np.uint64),
        low_strength=np.zeros(count, dtype=np.uint64),
        value=deadwood.astype(np.int64),
        instant_win=np.zeros(count, dtype=np.bool_),
    )
