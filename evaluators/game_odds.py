"""The shape of one game's Odds rules: what a game module puts in ``GameRules.odds``.

A game serves Odds when its cards still to come are dealt by chance (docs/rules.md "Odds");
its ``OddsGame`` says what the deal completes to and how many run-outs at once are scored
and resolved. Figures are arrays of S seats x R run-outs (seat-major: a step across seats
is an element-wise operation on contiguous rows, far cheaper than a reduction along a
short axis); a pot rule answers each seat's fraction of the whole pot from each of the
game's ``pots`` per run-out (S x P x R) and whether the run-out is a redeal.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from evaluators.costs import UnitCost
from evaluators.inputs import Cards, Declaration, Options
from evaluators.kernels import _poker
from evaluators.results import BatchResult

Matrix = npt.NDArray[np.uint8]
Figure = npt.NDArray[np.int64]
Mask = npt.NDArray[np.bool_]
Fractions = npt.NDArray[np.float64]
Declarations = Sequence[Declaration | None]


def as_figure(values: npt.NDArray[np.integer[Any]]) -> Figure:
    """A batch figure (``BatchResult``: any integer width) as int64, the pot rules' type:
    uint64 is viewed in place (every game's figures fit 63 bits), narrower ones widened."""
    if values.dtype == np.uint64:
        return values.view(np.int64)
    return values.astype(np.int64, copy=False)


@dataclass(frozen=True)
class Figures:
    """What the pot rules read, each (S, R): higher ``strength``, ``low_strength`` and
    ``value`` are better (as in ``Evaluation``); ``out_after`` is the discard rule's (0 if
    the hand never ran out, always 0 outside the discard games)."""

    strength: Figure
    low_strength: Figure
    value: Figure
    out_after: Figure


@dataclass(frozen=True)
class Split:
    """Per seat, pot (in the order of the game's ``pots``) and run-out, the fraction of
    the whole pot (S, P, R); per run-out whether it is a redeal (all zeros)."""

    fractions: Fractions
    redeal: Mask


FiguresOf = Callable[[Sequence[Matrix], Matrix, Options], Figures]
"""(every seat's completed hand, (R, h) or (1, h) when fully known; the table in the
order turned, (R, t) or (1, t); options) -> Figures."""

PotRule = Callable[[Figures, Declarations], Split]
"""(figures, the seats' declarations, None where the game has none) -> Split over pots."""


@dataclass(frozen=True)
class CompiledPot:
    """A game's pot rule as the compiled tally resolves it (``kernels._odds``, whose
    comment states each shape): the game's ``OddsGame.showdown`` is the numpy reference
    the tests hold it to, run-out by run-out.

    ``shape``: one of ``_odds.BEST``, ``HALVES``, ``UNIQUE_BEST``, ``DECLARED``; ``second``:
    the figure its second half reads; ``instant_pot``: the pot an instant win takes whole
    (the discard games; None elsewhere); ``split_at``: the top figure at which a
    ``UNIQUE_BEST`` tie splits instead of redealing; ``goes``: per declaration, whether
    the seat goes (high, low) (``DECLARED``)."""

    shape: int
    second: Literal["low_strength", "value"] | None = None
    instant_pot: int | None = None
    split_at: int = 0
    goes: Callable[[Declaration | None], tuple[bool, bool]] | None = None


@dataclass(frozen=True, eq=False)
class DiscardScore:
    """A discard game's figures as the compiled discard rule makes them
    (``kernels._odds.discard_tally``): ``values`` per card id (256, packed as the game sums
    a hand's kept cards) and ``score``, the game's batch result of a kept sum."""

    values: npt.NDArray[np.uint16]
    score: Callable[[npt.NDArray[np.uint16]], BatchResult]

    @functools.cached_property
    def scores(self) -> npt.NDArray[np.int64]:
        """``score`` of every kept sum (0-65535) as rows of strength, low_strength and
        value: a table built once per game, which the kernel reads by kept sum."""
        result = self.score(np.arange(1 << 16, dtype=np.uint16))
        table = np.stack(
            [as_figure(result.strength), as_figure(result.low_strength), as_figure(result.value)]
        )
        table.flags.writeable = False
        return table


@dataclass(frozen=True)
class ScoredFigures:
    """A poker-family game's figures as the compiled chunk call makes them from the dealt
    cards (``kernels._odds.scored_tally``, the GIL released, no per-seat copies): ``kind``,
    ``_odds.POKER``, ``DOTS`` or ``CHECKS``, and ``tables``, what that kind reads for the
    request's options (the poker tables' capsule, or High Card's check order). The game's
    ``OddsGame.figures`` makes the same figures per seat: the reference the tests hold it to."""

    kind: int
    tables: Callable[[Options], _poker.Tables | npt.NDArray[np.uint8]]


@dataclass(frozen=True)
class Outcomes:
    """Run-outs of a single-pot game resolved: per seat, how many it took all or part of
    the pot on (``win``), its fractions of the pot summed (``share``) and their squares
    summed (``squares``)."""

    runouts: int
    win: npt.NDArray[np.int64]
    share: npt.NDArray[np.float64]
    squares: npt.NDArray[np.float64]


ExactKnown = Callable[[Sequence[Cards], Cards, Cards], Iterator[Outcomes]]
"""(every seat's known hand, the table so far, the unseen cards) -> every table still to
come resolved, a chunk at a time."""

SampledKnown = Callable[
    [Sequence[Cards], Cards, Cards, np.random.Generator, int], Iterator[Outcomes]
]
"""The same with (..., the seeded generator, how many tables to draw) -> exactly that many."""


@dataclass(frozen=True)
class KnownHands:
    """A game's shorter road for the requests whose hands are all known and whose table is
    still to come (Poker high: heads-up equity). Same answers as the general road."""

    exact: ExactKnown
    sampled: SampledKnown


@dataclass(frozen=True)
class OddsGame:
    """One game's deal and pot rule for Odds.

    ``hand_min``-``hand_max``: the cards a seat ends with (known + unknown). The full
    table is the game's ``GameRules.table_max``, and a new table card may share a rank
    with the table unless ``GameRules.distinct_table_ranks`` (the discard games: the
    dealer replaces it, so each new card is uniform over the unseen cards of ranks not yet
    on the table, and hands may run out). ``showdown`` is the pot rule in numpy, the
    reference for ``pot``, the same rule as the compiled tally reads it (what Odds runs).
    ``runout_cost``: one run-out of one seat, dealt, scored and resolved (CPU and the
    chunk's arrays, ``evaluators.costs``): Odds sizes its chunks and the server admits a
    call by it. ``discard``: a discard game's figures for the compiled discard rule, which
    then makes them and tallies each chunk in one call (``figures`` is the same per seat);
    ``scored``: the same for the poker family's figures.
    """

    hand_min: int
    hand_max: int
    figures: FiguresOf
    showdown: PotRule
    pot: CompiledPot
    runout_cost: UnitCost
    known_hands: KnownHands | None = None
    discard: DiscardScore | None = None
    scored: ScoredFigures | None = None
