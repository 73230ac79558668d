"""Odds' running sums over the run-outs resolved so far, and the answer they make
(``Odds``: each seat's share, per pot, of the whole pot).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from evaluators.game_odds import (
    CompiledPot,
    Declarations,
    DiscardScore,
    Figures,
    Outcomes,
    ScoredFigures,
)
from evaluators.inputs import Options
from evaluators.kernels import _odds, _poker
from evaluators.odds.request import OddsRequest
from evaluators.runouts.deal import Dealt, Matrix, Weights
from evaluators.runouts.showdown import in_place, run_outs


@dataclass(frozen=True)
class PotOdds:
    """``win``: the chance of taking all or part of ``pot``; ``share``: the expected
    fraction of the whole pot from it."""

    pot: str
    win: float
    share: float


@dataclass(frozen=True)
class SeatOdds:
    """``share``: the expected fraction of the whole pot (a redeal counts 0); ``pots`` one
    per pot name of the game, in its order; ``instant_win``: the chance of being among the
    first to run out of cards."""

    player: str
    share: float
    pots: tuple[PotOdds, ...]
    instant_win: float


@dataclass(frozen=True)
class Odds:
    """Seats in request order; the seats' shares plus ``redeal`` sum to 1. ``runouts``
    counts the distinct completions when ``exact``, else the run-outs sampled;
    ``standard_error`` is the largest of any seat's share (0 when exact)."""

    seats: tuple[SeatOdds, ...]
    redeal: float
    exact: bool
    runouts: int
    standard_error: float


class Tally:
    """Running sums over the run-outs resolved so far, weighted by their probabilities
    where those differ (the discard games' exact tables), else counted.

    A chunk of figures is resolved and added by the compiled tally (``kernels._odds``,
    the game's ``CompiledPot``): per seat and pot, the weight of the run-outs on which the
    seat took that pot split d ways, by d (a half split d/2 ways counts as d), so a share
    is the sum over d of bucket / d. Counted buckets hold whole numbers, and that sum is
    formed exactly and rounded once, whatever the order of the run-outs. A shorter road's
    ``Outcomes`` add to ``share``, ``win`` and ``squares`` directly.
    """

    def __init__(
        self, seats: int, pots: int, pot: CompiledPot, declarations: Declarations, sampled: bool
    ) -> None:
        self.sampled = sampled
        self.seen = 0
        self.seats = seats
        self.pots = pots
        self.pot = pot
        self.buckets = 2 * seats + 1
        self.items = seats * pots * self.buckets + seats + 2
        self.sums = np.zeros(2 * self.items)
        self.squared = np.zeros(2 * seats)
        self.weighted = False
        goes = [pot.goes(declaration) for declaration in declarations] if pot.goes else []
        self.goes_high = bytes(high for high, _ in goes)
        self.goes_low = bytes(low for _, low in goes)
        self.total = 0.0
        self.share = np.zeros((seats, pots))
        self.win = np.zeros((seats, pots))
        self.squares = np.zeros(seats)

    def add(self, figures: Figures, weights: Weights | None) -> None:
        """One chunk's figures (S x R), resolved by the game's pot rule and added."""
        pot = self.pot
        key = np.ascontiguousarray(figures.strength)
        second = np.ascontiguousarray(getattr(figures, pot.second)) if pot.second else _NONE
        out_after = _NONE if pot.instant_pot is None else np.ascontiguousarray(figures.out_after)
        _odds.tally(
            pot.shape,
            self.pots,
            -1 if pot.instant_pot is None else pot.instant_pot,
            pot.split_at,
            self.seats,
            key,
            second,
            out_after,
            self.goes_high,
            self.goes_low,
            self._weights_of(weights),
            self.sums,
            self.squared,
        )
        self.seen += key.shape[1]

    def add_discard(
        self, discard: DiscardScore, hands: list[Matrix], table: Matrix, weights: Weights | None
    ) -> None:
        """One chunk of a discard game, from its cards (read in place) to the tally in one
        compiled call: the discard rule's figures per seat, then as ``add``."""
        seats, table_cards, table_strides, count = _cards_in_place(hands, table)
        _odds.discard_tally(
            *self._discard_rule(discard), seats, table_cards, table_strides, count,
            self._weights_of(weights), self.sums, self.squared,
        )  # fmt: skip
        self.seen += count

    def deal_discard(self, discard: DiscardScore, dealt: Dealt, count: int) -> None:
        """``count`` run-outs of a discard game dealt and tallied in one compiled call (no
        cards written out): the cards ``sample_completions`` deals from the seed in
        ``dealt`` (``Tile.dealt``), then as ``add_discard``."""
        _odds.discard_sampled(
            *self._discard_rule(discard), self.seats, dealt, count, self.sums, self.squared
        )
        self.seen += count

    def _discard_rule(
        self, discard: DiscardScore
    ) -> tuple[
        int, int, int, int, int, bytes, bytes, npt.NDArray[np.uint16], npt.NDArray[np.int64]
    ]:
        """The discard calls' arguments before the cards: the pot rule and the figures."""
        pot = self.pot
        return (
            pot.shape,
            self.pots,
            -1 if pot.instant_pot is None else pot.instant_pot,
            pot.split_at,
            _FIGURE_ROWS[pot.second or "strength"],
            self.goes_high,
            self.goes_low,
            discard.values,
            discard.scores,
        )

    def add_scored(
        self,
        scored: ScoredFigures,
        hands: list[Matrix],
        table: Matrix,
        weights: Weights | None,
        options: Options,
    ) -> None:
        """One chunk of a poker-family game, from its cards (read in place) to the tally
        in one compiled call: each seat's figures as the batch kernels make them, then as
        ``add``."""
        seats, table_cards, table_strides, count = _cards_in_place(hands, table)
        _odds.scored_tally(
            *self._scored_rule(scored, options), seats, table_cards, table_strides, count,
            self._weights_of(weights), self.sums, self.squared,
        )  # fmt: skip
        self.seen += count

    def deal_scored(
        self, scored: ScoredFigures, dealt: Dealt, count: int, options: Options
    ) -> None:
        """``count`` run-outs of a poker-family game dealt and tallied in one compiled
        call, as ``deal_discard`` deals them, then as ``add_scored``."""
        _odds.scored_sampled(
            *self._scored_rule(scored, options), self.seats, dealt, count, self.sums, self.squared
        )
        self.seen += count

    def _scored_rule(
        self, scored: ScoredFigures, options: Options
    ) -> tuple[int, _poker.Tables | npt.NDArray[np.uint8], int, int, int]:
        """The scored calls' arguments before the cards: the figures and the pot rule."""
        pot = self.pot
        return (scored.kind, scored.tables(options), pot.shape, self.pots, pot.split_at)

    def _weights_of(self, weights: Weights | None) -> npt.NDArray[np.float64]:
        """A chunk's weights as the kernels read them (none: every run-out counts once);
        a weighted chunk makes the tally a weighted one."""
        if weights is None:
            return _NO_WEIGHTS
        self.weighted = True
        return np.ascontiguousarray(weights)

    def add_outcomes(self, outcomes: Outcomes) -> None:
        """A single pot's run-outs resolved without fractions (``OddsGame.known_hands``)."""
        self.seen += outcomes.runouts
        self.total += outcomes.runouts
        self.share[:, 0] += outcomes.share
        self.win[:, 0] += outcomes.win
        if self.sampled:
            self.squares += outcomes.squares

    def odds(self, request: OddsRequest, pots: tuple[str, ...], exact: bool, runouts: int) -> Odds:
        values = self.sums[: self.items] + self.sums[self.items :]
        counted = self.seats * self.pots * self.buckets
        buckets = values[:counted].reshape(self.seats, self.pots, self.buckets)
        total = self.total + values[-1]
        if self.weighted or self.total:
            share = (self.share + [[_bucket_sum(row) for row in seat] for seat in buckets]) / total
            seat_share = share.sum(axis=1)
        else:
            share, seat_share = _exact_shares(buckets, int(total))
        win = (self.win + buckets.sum(axis=2)) / total
        instant = values[counted : counted + self.seats] / total
        squares = self.squares + self.squared[: self.seats] + self.squared[self.seats :]
        error = 0.0
        if not exact and runouts > 1:
            variance = (squares / total - np.square(seat_share)) * runouts / (runouts - 1)
            error = float(np.sqrt(np.maximum(variance, 0.0) / runouts).max())
        seats = tuple(
            SeatOdds(
                player=seat.player,
                share=float(seat_share[s]),
                pots=tuple(
                    PotOdds(pot, float(win[s, p]), float(share[s, p])) for p, pot in enumerate(pots)
                ),
                instant_win=float(instant[s]),
            )
            for s, seat in enumerate(request.seats)
        )
        return Odds(seats, float(values[-2] / total), exact, runouts, error)


_NONE = np.zeros(0, dtype=np.int64)
_FIGURE_ROWS = {"strength": 0, "low_strength": 1, "value": 2}
"""Each figure's row in ``DiscardScore.scores``."""
_NO_WEIGHTS = np.zeros(0, dtype=np.float64)


def _cards_in_place(
    hands: list[Matrix], table: Matrix
) -> tuple[tuple[tuple[Matrix, tuple[int, int, int]], ...], Matrix, tuple[int, int, int], int]:
    """A chunk's cards as the compiled chunk calls read them: each seat's and the table's
    buffer and strides (``in_place``, no copies), and its run-outs."""
    table_cards, table_strides = in_place(table)
    return (
        tuple(in_place(hand) for hand in hands),
        table_cards,
        table_strides,
        run_outs(hands, table),
    )


def _bucket_sum(buckets: npt.NDArray[np.float64]) -> float:
    """The sum over d of ``buckets[d] / d`` (weighted run-outs), by ``math.fsum``."""
    return math.fsum(float(buckets[d]) / d for d in np.flatnonzero(buckets).tolist())


def _exact_shares(
    buckets: npt.NDArray[np.float64], total: int
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Counted buckets (whole numbers) as each seat's share of each pot and of the whole
    pot: each the exact fraction, over a common denominator, rounded once."""
    splits = range(1, buckets.shape[2])
    common = math.lcm(*splits)
    numerators = [
        [sum(int(row[d]) * (common // d) for d in splits if row[d]) for row in seat]
        for seat in buckets
    ]
    whole = common * total
    share = np.array([[numerator / whole for numerator in seat] for seat in numerators])
    return share, np.array([sum(seat) / whole for seat in numerators])
