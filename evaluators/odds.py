"""Each seat's chances in a showdown whose cards are still to come (docs/rules.md "Odds").

``odds(request, ...)`` checks the request, plans what is still to come (``odds_deal``),
enumerates every completion with its probability when there are at most
``max_exact_runouts`` of them and ``samples`` is 0, else samples ``samples`` (or the
default count) with the seed, and resolves them in chunks: every seat's completed hand by
its game's batch evaluator, every run-out at once by the game's vectorised pot rule
(``GameRules.odds``, in each game's module). A request whose hands are all known, its
table still to come, takes the game's shorter road where it has one (``OddsGame.known_hands``;
Poker high reads each board from sums of per-card keys, never as rows of card ids, and
counts each seat's wins and shares per chunk). ``keep_going`` is asked between chunks, so a caller's
deadline stops the work (``OddsStopped``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from evaluators.cards import InvalidRequest
from evaluators.costs import CallCost
from evaluators.inputs import Game, Options
from evaluators.kernels import _odds
from evaluators.odds_deal import (
    Matrix,
    Plan,
    Weights,
    count_completions,
    enumerate_completions,
    sample_completions,
)
from evaluators.odds_request import OddsRequest, odds_violations, unseen_cards
from evaluators.odds_rules import (
    CompiledPot,
    Declarations,
    DiscardScore,
    Figures,
    OddsGame,
    Outcomes,
    ScoredFigures,
)
from evaluators.odds_shared import in_place, run_outs
from evaluators.registry import GAMES

CHUNK = 131_072
"""Most run-outs resolved at once: large enough that numpy's per-call cost vanishes."""

SAMPLE_CHUNK = 65_536
"""Most run-outs sampled and resolved at once: half a ``CHUNK``, as the sampled path's
arrays (the deal's, the figures', every pot's shares) then stay closer to a core's cache
(measured 5-30% more run-outs a second than a whole ``CHUNK`` in the discard games and
Grocery Store Dots)."""

CHUNK_BYTES = 16 * 1024 * 1024
"""The most a chunk's arrays may hold, by the game's ``runout_cost``: with many seats a
chunk has fewer run-outs, so a call's working set is bounded whatever its seats (15-seat
exact Flop-A held ~175 MiB in chunks of ``CHUNK``)."""

CHUNK_SECONDS = 0.008
"""The most CPU a chunk should take, by the game's ``runout_cost``: ``keep_going`` is asked
between chunks, so a passed deadline or a cancel stops the work within about this."""

MIN_CHUNK = 1024
"""Fewest run-outs in a chunk, so numpy's per-call cost stays small beside the work."""


@dataclass(frozen=True)
class OddsLimits:
    """The server's limits (docs/rules.md: by default at least 2,000,000 exact run-outs, at most
    10,000,000 samples)."""

    max_exact_runouts: int = 2_000_000
    default_samples: int = 200_000
    max_samples: int = 10_000_000


class OddsStopped(Exception):
    """``keep_going`` said stop (the caller gave up or its deadline passed)."""


class TooManySamples(Exception):
    """More samples asked than the server allows (the service answers RESOURCE_EXHAUSTED)."""

    def __init__(self, samples: int, limit: int) -> None:
        self.samples = samples
        self.limit = limit
        super().__init__(f"{samples} samples asked; this server samples at most {limit}")


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


def serves_odds(game: Game) -> bool:
    """Whether Odds answers for ``game`` (``GameRules.odds`` is set): its cards still to
    come are dealt by chance. ``GameInfo.odds`` and the refusal on ``game`` follow it."""
    return GAMES[game].odds is not None


def _always() -> bool:
    return True


def odds(
    request: OddsRequest,
    samples: int = 0,
    seed: int = 0,
    limits: OddsLimits | None = None,
    keep_going: Callable[[], bool] = _always,
) -> Odds:
    """Each seat's chances over every way the deal can still go.

    >>> from evaluators.inputs import Game
    >>> from evaluators.odds_request import read_odds
    >>> seats = [("ann", ["Ah", "Ad"], 0, None), ("bob", ["Kc", "Kd"], 0, None)]
    >>> chances = odds(read_odds(Game.POKER_HIGH, seats, table=["2c", "7d", "9h"]))
    >>> chances.exact, chances.runouts, [round(seat.share, 4) for seat in chances.seats]
    (True, 990, [0.9162, 0.0838])

    Raises ``InvalidRequest`` for a request ``odds_violations`` refuses, ``TooManySamples``
    over ``limits.max_samples`` and ``OddsStopped`` when ``keep_going()`` turns false.
    """
    return run_odds(request, plan_odds(request, samples, limits), seed, keep_going)


def run_odds(
    request: OddsRequest,
    planned: PlannedOdds,
    seed: int = 0,
    keep_going: Callable[[], bool] = _always,
) -> Odds:
    """The second half of ``odds``: the planned run-outs, resolved chunk by chunk."""
    game, plan, exact, runouts = planned.game, planned.plan, planned.exact, planned.runouts
    pots = GAMES[request.game].pots
    chunk = planned.chunk
    declarations = [seat.declaration for seat in request.seats]
    tally = _Tally(len(request.seats), len(pots), game.pot, declarations, sampled=not exact)
    if game.known_hands is not None and not plan.hand_cards and plan.table_cards:
        holes = [seat.hand for seat in request.seats]
        known = (
            game.known_hands.exact(holes, request.table, plan.unseen)
            if exact
            else game.known_hands.sampled(
                holes, request.table, plan.unseen, np.random.default_rng(seed), runouts
            )
        )
        for outcomes in known:
            if not keep_going():
                raise OddsStopped(f"stopped after {tally.seen} of {runouts} run-outs")
            tally.add_outcomes(outcomes)
        return tally.odds(request, pots, exact, runouts)
    if exact:
        chunks: Iterator[tuple[Matrix, Weights | None]] = (
            (rows, None if plan.table_pairs else weights)
            for rows, weights in enumerate_completions(plan, min(CHUNK, chunk))
        )
    else:
        chunks = _samples(plan, seed, runouts, min(SAMPLE_CHUNK, chunk))
    for rows, weights in chunks:
        if not keep_going():
            raise OddsStopped(f"stopped after {tally.seen} of {runouts} run-outs")
        _resolve(request, game, rows, weights, tally)
    return tally.odds(request, pots, exact, runouts)


def odds_cost(request: OddsRequest, samples: int = 0, limits: OddsLimits | None = None) -> CallCost:
    """What ``odds`` would cost: run-outs x seats at the game's ``runout_cost`` in CPU, and
    one chunk's arrays in memory. Raises as ``odds`` does for a request it refuses."""
    planned = plan_odds(request, samples, limits)
    seats = len(request.seats)
    per = planned.game.runout_cost
    return CallCost(
        planned.runouts * seats * per.cpu_ns / 1e9,
        min(planned.runouts, planned.chunk) * seats * per.bytes + TALLY_BYTES,
    )


TALLY_BYTES = 64 * 1024
"""A call's arrays besides its chunk (the plan, the tally, the reply): a few KiB."""


@dataclass(frozen=True)
class PlannedOdds:
    """An Odds request's plan (``plan_odds``), which ``run_odds`` resolves."""

    game: OddsGame
    plan: Plan
    exact: bool
    runouts: int
    chunk: int
    """Run-outs a chunk may hold within ``CHUNK_BYTES`` and ``CHUNK_SECONDS``."""


def plan_odds(
    request: OddsRequest, samples: int = 0, limits: OddsLimits | None = None
) -> PlannedOdds:
    """The first half of ``odds``: the checked request's deal, whether it is exact, its
    run-outs and chunk size (raises as ``odds`` does, ``OddsStopped`` aside)."""
    limits = limits or OddsLimits()
    violations = odds_violations(
        request.game, request.seats, request.table, request.dead, request.options
    )
    if violations:
        raise InvalidRequest(violations)
    rules = GAMES[request.game]
    game = rules.odds
    assert game is not None, "odds_violations refuses a game without odds"
    plan = Plan(
        unseen=unseen_cards(request.seats, request.table, request.dead),
        unknown=tuple(seat.unknown for seat in request.seats),
        table_cards=rules.table_max - len(request.table),
        table_pairs=not rules.distinct_table_ranks,
        table_ranks=_rank_bits(request.table),
    )
    completions = count_completions(plan)
    exact = samples == 0 and completions <= limits.max_exact_runouts
    runouts = completions if exact else samples or limits.default_samples
    if runouts > limits.max_samples and not exact:
        raise TooManySamples(runouts, limits.max_samples)
    seats = len(request.seats)
    per = game.runout_cost
    chunk = min(
        CHUNK_BYTES // (seats * per.bytes), int(CHUNK_SECONDS * 1e9) // (seats * per.cpu_ns)
    )
    return PlannedOdds(game, plan, exact, runouts, max(MIN_CHUNK, chunk))


def _rank_bits(cards: tuple[int, ...]) -> int:
    bits = 0
    for card in cards:
        bits |= 1 << (card >> 2)
    return bits


def _samples(plan: Plan, seed: int, count: int, chunk: int) -> Iterator[tuple[Matrix, None]]:
    rng = np.random.default_rng(seed)
    for start in range(0, count, chunk):
        yield sample_completions(plan, rng, min(chunk, count - start)), None


def _resolve(
    request: OddsRequest,
    game: OddsGame,
    rows: Matrix,
    weights: Weights | None,
    tally: _Tally,
) -> None:
    """Score and resolve one chunk of completions and add it to ``tally``."""
    hands = []
    column = 0
    for seat in request.seats:
        hands.append(_joined(seat.hand, rows[:, column : column + seat.unknown]))
        column += seat.unknown
    table = _joined(request.table, rows[:, column:])
    if game.discard is not None:
        tally.add_discard(game.discard, hands, table, weights)
    elif game.scored is not None:
        tally.add_scored(game.scored, hands, table, weights, request.options)
    else:
        tally.add(game.figures(hands, table, request.options), weights)


def _joined(known: tuple[int, ...], dealt: Matrix) -> Matrix:
    """Known cards then the dealt ones, per run-out; (1, known) when nothing is dealt."""
    if not dealt.shape[1]:
        return np.array([known], dtype=np.uint8).reshape(1, len(known))
    if not known:
        return dealt
    shared = np.broadcast_to(np.array(known, dtype=np.uint8), (len(dealt), len(known)))
    return np.concatenate([shared, dealt], axis=1)


class _Tally:
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
        if weights is not None:
            self.weighted = True
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
            _NO_WEIGHTS if weights is None else np.ascontiguousarray(weights),
            self.sums,
            self.squared,
        )
        self.seen += key.shape[1]

    def add_discard(
        self, discard: DiscardScore, hands: list[Matrix], table: Matrix, weights: Weights | None
    ) -> None:
        """One chunk of a discard game, from its cards (read in place) to the tally in one
        compiled call: the discard rule's figures per seat, then as ``add``."""
        pot = self.pot
        count = run_outs(hands, table)
        table_cards, table_strides = in_place(table)
        if weights is not None:
            self.weighted = True
        _odds.discard_tally(
            pot.shape,
            self.pots,
            -1 if pot.instant_pot is None else pot.instant_pot,
            pot.split_at,
            _FIGURE_ROWS[pot.second or "strength"],
            self.goes_high,
            self.goes_low,
            discard.values,
            discard.scores,
            tuple(in_place(hand) for hand in hands),
            table_cards,
            table_strides,
            count,
            _NO_WEIGHTS if weights is None else np.ascontiguousarray(weights),
            self.sums,
            self.squared,
        )
        self.seen += count

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
        pot = self.pot
        count = run_outs(hands, table)
        table_cards, table_strides = in_place(table)
        if weights is not None:
            self.weighted = True
        _odds.scored_tally(
            scored.kind,
            scored.tables(options),
            pot.shape,
            self.pots,
            pot.split_at,
            tuple(in_place(hand) for hand in hands),
            table_cards,
            table_strides,
            count,
            _NO_WEIGHTS if weights is None else np.ascontiguousarray(weights),
            self.sums,
            self.squared,
        )
        self.seen += count

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
