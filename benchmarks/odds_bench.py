"""Odds against the equity calculators people use today: agreement first, then speed.

``python -m benchmarks.odds_bench`` (``--rounds``, ``--samples``, ``--quick``) first checks
that our exact heads-up preflop equity (every one of the 1,712,304 boards) lies within
the sampling error of eval7's ``py_hand_vs_range_monte_carlo`` and pokerkit's
``calculate_equities``, then times, each the median of ``--rounds`` rounds run side by
side: our exact preflop against eval7's Monte Carlo with 1,000,000 samples; our sampled
run-outs per second against eval7's and pokerkit's samples per second on the same
matchup; and every odds game with 4 seats and nothing known, sampled. Progress goes to
stderr, the table of results to stdout. Bounded: pokerkit, the slowest, gets a fixed
small sample count.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from benchmarks.progress import Progress
from evaluators.inputs import Declaration, Game
from evaluators.odds import Odds, OddsRequest, odds, read_odds, serves_odds
from evaluators.registry import GAMES

HERO = ("As", "Ks")
VILLAIN = ("Qd", "Qc")
EVAL7_SAMPLES = 1_000_000
PREFLOP_BOARDS = 1_712_304
"""Five-card boards from the 48 cards left when two hole cards each are known."""
POKERKIT_SAMPLES = 2_000


@dataclass(frozen=True)
class Row:
    what: str
    figure: str
    target: str
    met: bool | None = None
    """Whether the figure meets ``target`` (None: a check, not a target)."""
    rates: tuple[tuple[str, float], ...] = ()
    """(who, run-outs or samples per second) behind the figure, for the plot."""


def _median(action: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def _side_by_side(
    ours: Callable[[], object], theirs: Callable[[], object], rounds: int
) -> tuple[float, float]:
    """Median seconds of each, timed in alternation round by round, so that a busy
    machine slows both alike."""
    our_times, their_times = [], []
    for _ in range(rounds):
        our_times.append(_median(ours, 1))
        their_times.append(_median(theirs, 1))
    return statistics.median(our_times), statistics.median(their_times)


def _preflop() -> OddsRequest:
    return read_odds(Game.POKER_HIGH, [("hero", HERO, 0, None), ("villain", VILLAIN, 0, None)])


def _eval7_equity(samples: int) -> float:
    import eval7

    hero = [eval7.Card(card) for card in HERO]
    return float(
        eval7.py_hand_vs_range_monte_carlo(hero, eval7.HandRange("".join(VILLAIN)), [], samples)
    )


def _pokerkit_equity(samples: int) -> float:
    from pokerkit import Card, Deck, StandardHighHand, calculate_equities

    ranges = [{tuple(Card.parse("".join(HERO)))}, {tuple(Card.parse("".join(VILLAIN)))}]
    equities = calculate_equities(
        ranges, (), 2, 5, Deck.STANDARD, (StandardHighHand,), sample_count=samples
    )
    return float(equities[0])


def _within(ours: float, theirs: float, samples: int) -> str:
    """'yes (0.4 SE)' when |ours - theirs| is within 4 of the peer's standard errors."""
    error = (max(theirs * (1 - theirs), 1e-12) / samples) ** 0.5
    distance = abs(ours - theirs) / error
    return f"{'yes' if distance <= 4 else 'NO'} ({distance:.1f} SE)"


def _four_seats(game: Game) -> OddsRequest:
    deal = GAMES[game].odds
    assert deal is not None
    declarations = (Declaration.HIGH, Declaration.LOW, Declaration.BOTH, Declaration.BOTH)
    seats = [
        (f"p{s}", (), deal.hand_max, declarations[s] if game is Game.FLOP_A else None)
        for s in range(4)
    ]
    return read_odds(game, seats)


def _sampler(request: OddsRequest, samples: int) -> Callable[[], Odds]:
    return lambda: odds(request, samples=samples, seed=1)


PEERS = ("eval7", "pokerkit")


def missing_peers() -> list[str]:
    """The peers this benchmark needs that are not installed (the ``bench`` extra has them)."""
    return [name for name in PEERS if importlib.util.find_spec(name) is None]


def steps() -> int:
    """How many progress steps ``run`` reports."""
    return 5 + sum(1 for game in GAMES if serves_odds(game))


def run(
    rounds: int, samples: int, quick: bool, progress: Callable[[str], None] | None = None
) -> list[Row]:
    """Every row, timed; progress goes to ``progress`` (default: a bar of its own)."""
    games = [game for game in GAMES if serves_odds(game)]
    own = Progress(steps()) if progress is None else None
    progress = progress or own
    assert progress is not None
    rows: list[Row] = []
    progress("exact preflop equity")
    exact: Odds = odds(_preflop())
    ours = exact.seats[0].share
    progress("eval7 equity")
    eval7_equity = _eval7_equity(EVAL7_SAMPLES)
    progress("pokerkit equity")
    pokerkit_equity = _pokerkit_equity(POKERKIT_SAMPLES)
    rows += [
        Row(f"exact {''.join(HERO)} vs {''.join(VILLAIN)} equity", f"{ours:.5f}", ""),
        Row(
            f"eval7 MC {EVAL7_SAMPLES:,}",
            f"{eval7_equity:.5f}",
            _within(ours, eval7_equity, EVAL7_SAMPLES),
        ),
        Row(
            f"pokerkit MC {POKERKIT_SAMPLES:,}",
            f"{pokerkit_equity:.5f}",
            _within(ours, pokerkit_equity, POKERKIT_SAMPLES),
        ),
    ]
    progress("timing exact preflop vs eval7")
    ours_exact, eval7_mc = _side_by_side(
        lambda: odds(_preflop()), lambda: _eval7_equity(EVAL7_SAMPLES), rounds
    )
    rows.append(
        Row(
            f"exact preflop ({PREFLOP_BOARDS:,} boards) vs eval7 MC 1M",
            f"{ours_exact * 1e3:.0f} ms vs {eval7_mc * 1e3:.0f} ms: {eval7_mc / ours_exact:.2f}x",
            ">= 1x",
            eval7_mc >= ours_exact,
            (
                ("heads-up preflop: handeval exact", PREFLOP_BOARDS / ours_exact),
                ("heads-up preflop: eval7 Monte Carlo", EVAL7_SAMPLES / eval7_mc),
            ),
        )
    )
    progress("timing sampled preflop vs eval7, pokerkit")
    ours_sampled, eval7_sampled = _side_by_side(
        lambda: odds(_preflop(), samples=samples, seed=1),
        lambda: _eval7_equity(EVAL7_SAMPLES),
        rounds,
    )
    pokerkit_mc = _median(lambda: _pokerkit_equity(POKERKIT_SAMPLES), 1 if quick else 3)
    ours_rate = samples / ours_sampled
    eval7_rate = EVAL7_SAMPLES / eval7_sampled
    pokerkit_rate = POKERKIT_SAMPLES / pokerkit_mc
    rows += [
        Row(
            "sampled preflop run-outs/s vs eval7",
            f"{ours_rate:,.0f} vs {eval7_rate:,.0f}: {ours_rate / eval7_rate:.2f}x",
            ">= 2x",
            ours_rate >= 2 * eval7_rate,
            (("heads-up preflop: handeval sampled", ours_rate),),
        ),
        Row(
            "sampled preflop run-outs/s vs pokerkit",
            f"{ours_rate:,.0f} vs {pokerkit_rate:,.0f}: {ours_rate / pokerkit_rate:.0f}x",
            ">= 100x",
            ours_rate >= 100 * pokerkit_rate,
            (("heads-up preflop: pokerkit Monte Carlo", pokerkit_rate),),
        ),
    ]
    for game in games:
        progress(f"sampled {game.value}, 4 seats")
        seconds = _median(_sampler(_four_seats(game), samples), rounds)
        rate = samples / seconds
        rows.append(
            Row(
                f"{game.value}, 4 seats, sampled run-outs/s",
                f"{rate:,.0f}",
                ">= 1M",
                rate >= 1e6,
                ((f"4 seats sampled: handeval {game.value}", rate),),
            )
        )
    if own is not None:
        own.close()
    return rows


def table(rows: list[Row]) -> str:
    """The rows as an aligned text table: measure, figure, target or check, met."""
    columns = [("measure", "figure", "target / check", "met")] + [
        (row.what, row.figure, row.target, "" if row.met is None else "yes" if row.met else "NO")
        for row in rows
    ]
    widths = [max(len(line[c]) for line in columns) for c in range(4)]
    return "\n".join(
        "  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip()
        for line in columns
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds (median)")
    parser.add_argument("--samples", type=int, default=1_000_000, help="our sampled run-outs")
    parser.add_argument("--quick", action="store_true", help="1 round, 200,000 samples")
    args = parser.parse_args(argv)
    rounds, samples = (1, 200_000) if args.quick else (args.rounds, args.samples)
    print(table(run(rounds, samples, args.quick)))


if __name__ == "__main__":
    main()
