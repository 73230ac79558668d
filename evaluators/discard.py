"""The discard rule of Numbers, Florida Bingo, Three Hundred Thirty Three and Flop-A.

After each table card is turned, every hand card of that card's rank is discarded; a hand
that becomes empty wins at once (docs/rules.md, "Discard rule"). This is the one implementation
those games share, so the games cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from evaluators.figures import cards_text, yes_no
from evaluators.game_odds import Figures, FiguresOf, Matrix, as_figure
from evaluators.game_rules import Figure
from evaluators.inputs import Cards, Options
from evaluators.kernels import _points
from evaluators.results import BatchResult, Detail, Evaluation
from evaluators.runouts.showdown import run_outs

_ALL_RANKS = (1 << 13) - 1
_CARD_RANK = np.arange(256, dtype=np.uint16) >> 2
"""Rank index of every byte (63 for the padding byte 255, above every rank bit)."""
_CARD_RANK.flags.writeable = False


@dataclass(frozen=True)
class Discard:
    """What the discard rule leaves of a dealt hand.

    ``kept`` and ``discarded`` keep the dealt order. ``out_after`` is how many table cards
    had been turned when the hand became empty, 0 if it never did. ``instant_win`` is
    whether nothing is kept.
    """

    kept: Cards
    discarded: Cards
    out_after: int
    instant_win: bool


def apply_discard(hand: Cards, table: Cards) -> Discard:
    """Apply the discard rule to ``hand`` with ``table`` in the order it was turned.

    Input is validated (the table never pairs). A hand dealt empty (which validation
    refuses) is reported as an instant win with ``out_after`` 0. Pure Python, about a
    microsecond per hand.
    """
    on_table = 0
    for card in table:
        on_table |= 1 << (card >> 2)
    kept: list[int] = []
    discarded: list[int] = []
    for card in hand:
        if on_table >> (card >> 2) & 1:
            discarded.append(card)
        else:
            kept.append(card)
    if kept or not hand:
        return Discard(tuple(kept), tuple(discarded), 0, not kept)
    return Discard((), tuple(discarded), _turns_to_empty(hand, table), True)


def _turns_to_empty(hand: Cards, table: Cards) -> int:
    """How many table cards are turned before every rank of ``hand`` has shown."""
    waiting = {card >> 2 for card in hand}
    for turn, card in enumerate(table, 1):
        waiting.discard(card >> 2)
        if not waiting:
            return turn
    return 0


def out_after_text(out_after: int) -> str:
    """The description of an instant win, shared by the discard games."""
    cards = "card" if out_after == 1 else "cards"
    return f"Out after {out_after} table {cards}: instant win"


def instant_win(discard: Discard, empty_detail: Detail) -> Evaluation:
    """The evaluation of a hand that ran out: strength 0, ``instant_win`` decides."""
    return Evaluation(
        strength=0,
        description=out_after_text(discard.out_after),
        detail=empty_detail,
        instant_win=True,
        out_after=discard.out_after,
        discarded=discard.discarded,
    )


def card_columns(cards: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint16]:
    """(N, size) cards as (size, N) uint16: one contiguous array per card position.

    Element-wise work on contiguous columns beats both strided columns and reductions
    along rows; uint16 saves casts in the rank shifts.
    """
    return np.ascontiguousarray(cards.T, dtype=np.uint16)


def _kept_ranks(table_columns: npt.NDArray[np.uint16]) -> npt.NDArray[np.uint16]:
    """Per table, a bit per rank (bit r = rank index r) that the table does NOT show.

    Bits above the 13 ranks stay clear, so the padding byte 255 (rank 63) is never kept.
    """
    on_table = np.zeros(table_columns.shape[1], dtype=np.uint16)
    for column in table_columns:
        on_table |= np.left_shift(np.uint16(1), column >> 2)
    kept: npt.NDArray[np.uint16] = ~on_table & np.uint16(_ALL_RANKS)
    return kept


def sum_kept(
    values: npt.NDArray[np.uint16],
    hands: npt.NDArray[np.uint8],
    tables: npt.NDArray[np.uint8],
) -> npt.NDArray[np.uint16]:
    """The batch form of the rule: per hand, the sum of ``values[card]`` over its kept cards.

    ``values`` has 256 entries indexed by card id (0 at 255, the padding byte); callers pack
    several small per-card figures into its bits. ``hands`` is (N, hand_size), ``tables``
    (N, table_size) or (1, table_size) shared by every hand, both 255-padded. The caller
    keeps each packed field's sum below its bit width. Vectorised per card position
    (column), never per hand.
    """
    kept_ranks = _kept_ranks(card_columns(tables))
    hand_columns = card_columns(hands)
    total = np.zeros(hands.shape[0], dtype=np.uint16)
    if tables.shape[0] == 1:
        # One table for all: fold the discard into the card table, one gather per column.
        card_kept = np.right_shift(kept_ranks[0], _CARD_RANK) & np.uint16(1)
        kept_values = values * card_kept
        for column in hand_columns:
            total += np.take(kept_values, column, mode="wrap")
        return total
    for column in hand_columns:
        card_kept = np.right_shift(kept_ranks, column >> 2) & np.uint16(1)
        total += np.take(values, column, mode="wrap") * card_kept
    return total


def discard_figures(evaluation: Evaluation) -> list[Figure]:
    """The discard rule's figures, which lead every discard game's ``figures``."""
    return [
        ("instant win", yes_no(evaluation.instant_win), False),
        ("out after", str(evaluation.out_after), False),
        ("kept", cards_text(evaluation.kept), True),
        ("discarded", cards_text(evaluation.discarded), False),
    ]


KeptScore = Callable[[npt.NDArray[np.uint16]], BatchResult]
"""A discard game's batch result from each hand's ``sum_kept`` (its packed card values)."""

SUMS = 1 << 16
"""Every packed sum a hand can have: ``sum_kept`` adds in uint16."""


FIGURE_SHIFTS = {"strength": 0, "low_strength": 16, "value": 32, "instant_win": 48}
"""Where each figure sits in a ``SumFigures.packed`` entry (bits 0-15, 16-31, 32-47 as a
16-bit two's complement, 48-55): the kernel reads one entry a hand, not four tables."""


@dataclass(frozen=True)
class SumFigures:
    """A discard game's batch figures of every packed sum, indexed by the sum: what its
    ``KeptScore`` answers for each, so the compiled batch gathers them instead of
    computing them (and the game's rule for them stays stated once, in numpy). The four
    figures of a sum share one uint64 (``FIGURE_SHIFTS``); the properties read them out."""

    packed: npt.NDArray[np.uint64]

    def _bits(self, name: str) -> npt.NDArray[np.uint16]:
        shifted = self.packed >> np.uint64(FIGURE_SHIFTS[name])
        return (shifted & np.uint64(0xFFFF)).astype(np.uint16)

    @property
    def strength(self) -> npt.NDArray[np.uint16]:
        return self._bits("strength")

    @property
    def low_strength(self) -> npt.NDArray[np.uint16]:
        return self._bits("low_strength")

    @property
    def value(self) -> npt.NDArray[np.int16]:
        return self._bits("value").view(np.int16)

    @property
    def instant_win(self) -> npt.NDArray[np.bool_]:
        return self._bits("instant_win").astype(np.bool_)


@cache
def sum_figures(score: KeptScore) -> SumFigures:
    """``score`` of all ``SUMS`` packed sums, once per process (65,536 entries of 8
    bytes, 512 KiB). Raises ValueError if a figure does not fit its type (uint16, uint16,
    int16, bool), which would make the kernel differ from ``score``."""
    result = score(np.arange(SUMS, dtype=np.uint16))
    packed = np.zeros(SUMS, dtype=np.uint64)
    for name, dtype in (
        ("strength", np.uint16),
        ("low_strength", np.uint16),
        ("value", np.int16),
        ("instant_win", np.bool_),
    ):
        figure = getattr(result, name)
        fitted = np.asarray(figure).astype(dtype)
        if not np.array_equal(fitted, figure):
            raise ValueError(f"{score.__qualname__}'s {name} does not fit {np.dtype(dtype)}")
        bits = fitted.astype(np.uint16).astype(np.uint64)  # int16 as its two's complement
        packed |= bits << np.uint64(FIGURE_SHIFTS[name])
    packed.flags.writeable = False
    return SumFigures(packed)


def evaluate_kept(
    values: npt.NDArray[np.uint16],
    score: KeptScore,
    hands: npt.NDArray[np.uint8],
    tables: npt.NDArray[np.uint8],
) -> BatchResult:
    """``score(sum_kept(values, hands, tables))`` in one compiled pass (``_points``),
    the GIL released: per hand its kept cards' packed sum, then that sum's
    ``sum_figures``. Equal to the numpy form hand by hand; figures are 16 bits wide."""
    figures = sum_figures(score)
    count = len(hands)
    strength = np.empty(count, dtype=np.uint16)
    low_strength = np.empty(count, dtype=np.uint16)
    value = np.empty(count, dtype=np.int16)
    instant = np.empty(count, dtype=np.bool_)
    _points.discard_totals(
        values,
        figures.packed,
        np.ascontiguousarray(hands, dtype=np.uint8),
        hands.shape[1],
        np.ascontiguousarray(tables, dtype=np.uint8),
        tables.shape[1],
        strength,
        low_strength,
        value,
        instant,
    )
    return BatchResult(strength, low_strength, value, instant)


def odds_figures(values: npt.NDArray[np.uint16], score: KeptScore) -> FiguresOf:
    """A discard game's Odds figures: ``score`` of each seat's ``sum_kept(values, ...)``,
    with ``out_after``, which its ``evaluate_batch`` (``score`` of ``sum_kept``) equals.

    Every seat reads the table's ranks shown after each turn, computed once; a hand card
    is kept when its rank never shows. ``out_after`` is 1 plus the turns after which some
    rank of the hand is still unshown, when every rank of it shows by the last turn.
    """

    def figures(hands: Sequence[Matrix], table: Matrix, options: Options) -> Figures:
        count = run_outs(hands, table)
        shown = np.zeros(table.shape[0], dtype=np.uint16)
        unshown_after = []
        for column in range(table.shape[1]):
            shown = shown | np.left_shift(np.uint16(1), table[:, column] >> 2)
            unshown_after.append(~shown)
        kept_ranks = np.bitwise_and(~shown, np.uint16(_ALL_RANKS))
        kept = np.empty((len(hands), count), dtype=np.uint16)
        outs = np.zeros((len(hands), count), dtype=np.int64)
        for seat, hand in enumerate(hands):
            total = kept[seat]
            total[...] = 0
            waiting = np.zeros(hand.shape[0], dtype=np.uint16)
            for column in range(hand.shape[1]):
                cards = hand[:, column]
                bits = np.left_shift(np.uint16(1), cards >> 2)
                waiting |= bits
                total += np.take(values, cards, mode="clip") * ((bits & kept_ranks) != 0)
            if not unshown_after:
                continue
            turned = np.ones(count, dtype=np.uint8)
            for unshown in unshown_after:
                turned += (waiting & unshown) != 0
            np.multiply(turned, (waiting & unshown_after[-1]) == 0, out=outs[seat])
        result = score(kept.reshape(-1))
        shape = kept.shape
        return Figures(
            as_figure(result.strength).reshape(shape),
            as_figure(result.low_strength).reshape(shape),
            as_figure(result.value).reshape(shape),
            outs,
        )

    return figures
