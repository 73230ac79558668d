"""Timing for the benchmark run: medians of repeats, adaptive counts, rounds that
interleave our path with a peer's so both see the same machine, and the ``Row`` a
measurement becomes."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Config:
    batch_hands: int
    single_seconds: float
    """Each timed single-hand loop runs about this long (the hand count adapts)."""
    repeats: int
    tonk_peer_hands: int
    grpc_seconds: float
    grpc_repeats: int
    grpc_threads: int
    grpc_batches: tuple[int, ...]
    startup_repeats: int
    odds_rounds: int
    odds_samples: int


FULL = Config(1_000_000, 0.25, 5, 100_000, 1.0, 7, 4, (10_000, 100_000), 3, 5, 1_000_000)
QUICK = Config(20_000, 0.02, 3, 2_000, 0.3, 1, 2, (1_000, 10_000), 1, 1, 200_000)


@dataclass
class Row:
    """One measured rate."""

    section: str
    case: str
    method: str
    rate: float
    unit: str = "hands/s"
    count: int = 0
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def median_seconds(action: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def adaptive_count(run: Callable[[int], object], available: int, seconds: float) -> int:
    """How many hands make one timed loop last about ``seconds`` (at most ``available``)."""
    probe = min(50, available)
    started = time.perf_counter()
    run(probe)
    per_hand = max((time.perf_counter() - started) / probe, 1e-8)
    return int(min(available, max(probe, seconds / per_hand)))


def loop_rate(
    make: Callable[[int], Callable[[], object]], available: int, config: Config
) -> tuple[float, int]:
    """(hands/s, hands) of a Python loop over the first N hands; ``make(n)`` prepares the
    loop for n hands (untimed) and returns it."""
    count = adaptive_count(lambda n: make(n)(), available, config.single_seconds)
    loop = make(count)
    return count / median_seconds(loop, config.repeats), count


@dataclass(frozen=True)
class Rounds:
    """Each action's wall and thread CPU seconds in each interleaved round."""

    wall: list[list[float]]
    cpu: list[list[float]]


def interleaved_rounds(actions: Sequence[Callable[[], object]], repeats: int) -> Rounds:
    """Each action's time in each of ``repeats`` rounds, the actions taking turns within a
    round, so that a ratio of two of them is taken under the same load. Thread CPU time
    too: on a shared machine it moves far less than wall time (a kernel lets the GIL go
    but runs in this thread)."""
    rounds = Rounds([[] for _ in actions], [[] for _ in actions])
    for _ in range(repeats):
        for action, wall, cpu in zip(actions, rounds.wall, rounds.cpu, strict=True):
            started, started_cpu = time.perf_counter(), time.thread_time()
            action()
            cpu.append(time.thread_time() - started_cpu)
            wall.append(time.perf_counter() - started)
    return rounds


def per_round_ratio(ours: list[float], theirs: list[float]) -> float:
    """The median over rounds of how many times quicker ``ours`` was."""
    return statistics.median(t / o if o else 0.0 for o, t in zip(ours, theirs, strict=True))
