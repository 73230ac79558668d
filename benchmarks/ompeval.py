"""OMPEval (zekyll/OMPEval, C++, ISC) as an optional peer: its "Rand1" case on our hands.

``python -m benchmarks.ompeval [--ompeval-dir DIR] [--hands N] [--rounds R]`` builds
``benchmarks/ompeval_rand1.cpp`` against a checkout of OMPEval (``--ompeval-dir`` or the
``OMPEVAL_DIR`` environment variable; the project never vendors it) with
``g++ -O3 -msse4.2``, writes N of the benchmark's seeded 7-card hands to a file, and in R
interleaved rounds times OMPEval scoring that array of 7 x uint8 hands on one thread (its
README's Rand1) and our validated batch path on the same bytes
(``evaluators.batch.evaluate_batch``: screen, then the compiled kernel), each side's rate
the median of ``PASSES`` passes in a row. Before timing, the two must order every hand
alike. Without a checkout it says "skipped". The process keeps its freed memory as the
server does (``service.allocator``), so our figure is what the server's core sees.

The ratios reported are medians of the per-round ratios (ours / OMPEval), each pair
measured moments apart, by wall time and by the scoring thread's CPU time (which other
processes on a shared machine disturb far less: under load the wall-time ratio swings
from round to round).

Every report names the CPU (``cpu_line``: model, family and model numbers, the vector
extensions it has) and the instruction-set path our kernels took; ``--isa NAME [NAME ...]``
(names from ``evaluators.kernels._poker.isas()``, docs/kernels.md) times our path forced to
each in the same rounds, the first reported as ours, the others beside it; each path also
scores as many seeded 5-card hands (validated, from bytes) in each round, reported against
OMPEval's 7-card rate of the same round.

``--against DIR [DIR ...]`` times other checkouts' validated batch path in the same rounds
(a process of each tree per round, ``PYTHONPATH`` set to it, its compiled kernels built in
place; the same hands, a warm-up call, then ``PASSES`` passes), for a before and after
within one run: each tree's ratio to OMPEval, and this tree's to it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from benchmarks.hands import named_deal
from evaluators import batch
from evaluators.inputs import Game, Options
from evaluators.kernels import _poker, kernel_isa
from service.allocator import retain_freed_memory

ENV = "OMPEVAL_DIR"
DRIVER = Path(__file__).with_name("ompeval_rand1.cpp")
COMPILE = ("g++", "-O3", "-msse4.2", "-std=c++11")
NAME = "OMPEval Rand1 (C++, one thread)"
FIVE = "5-card hands, path "
"""The name of the rounds' 5-card rates (the same count of seeded 5-card hands, validated,
from bytes, on each path), compared with OMPEval's 7-card rate in the same rounds."""
PASSES = 3
"""Each side's rate in a round is the median of this many passes over the hands in a row,
so that neither is timed with caches another process just emptied."""


VECTOR_FLAGS = ("sse4_2", "avx2", "bmi2", "avx512f", "avx512bw", "avx512vl")


def cpu_line() -> str:
    """The CPU every figure was measured on: its model name, family and model numbers and
    which of ``VECTOR_FLAGS`` it has (from /proc/cpuinfo; "unknown" elsewhere)."""
    fields: dict[str, str] = {}
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                key, _, value = line.partition(":")
                if not line.strip():
                    break
                fields.setdefault(key.strip(), value.strip())
    except OSError:
        return "CPU unknown"
    flags = set(fields.get("flags", "").split())
    return (
        f"CPU {fields.get('model name', 'unknown')} (family {fields.get('cpu family', '?')} "
        f"model {fields.get('model', '?')}; "
        f"{' '.join(flag for flag in VECTOR_FLAGS if flag in flags) or 'no vector flags'})"
    )


class OmpevalUnavailable(Exception):
    """No checkout given, or it does not build here: the peer is skipped with this reason."""


def checkout(given: str | None = None) -> Path:
    """The OMPEval checkout: ``given``, else ``$OMPEVAL_DIR``; raises OmpevalUnavailable."""
    where = given or os.environ.get(ENV)
    if not where:
        raise OmpevalUnavailable(f"no OMPEval checkout (set {ENV} or pass --ompeval-dir)")
    path = Path(where)
    if not (path / "omp" / "HandEvaluator.cpp").is_file():
        raise OmpevalUnavailable(f"{path} holds no omp/HandEvaluator.cpp")
    return path


def build(source: Path, into: Path) -> Path:
    """Compile the Rand1 driver against ``source`` into ``into``; the binary's path."""
    if shutil.which(COMPILE[0]) is None:
        raise OmpevalUnavailable("g++ is not installed")
    binary = into / "ompeval_rand1"
    command = [
        *COMPILE,
        f"-I{source}",
        str(DRIVER),
        str(source / "omp" / "HandEvaluator.cpp"),
        "-o",
        str(binary),
    ]
    built = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    if built.returncode:
        raise OmpevalUnavailable(f"OMPEval did not build: {built.stderr.strip()[-500:]}")
    return binary


Rates = tuple[float, float]
"""Hands per second of wall time, and per second of the scoring thread's CPU time."""


OTHER_TREE = """
import json, statistics, sys, time
from evaluators import batch
from evaluators.inputs import Game, Options
try:
    from service.allocator import retain_freed_memory
    retain_freed_memory()
except ImportError:
    pass
packed = open(sys.argv[1], "rb").read()
count, options = len(packed) // 7, Options()
batch.evaluate_batch(Game.POKER_HIGH, packed, 7, b"", 0, options, count)
walls, cpus = [], []
for _ in range(int(sys.argv[2])):
    started, cpu = time.perf_counter(), time.thread_time()
    batch.evaluate_batch(Game.POKER_HIGH, packed, 7, b"", 0, options, count)
    walls.append(count / (time.perf_counter() - started))
    cpus.append(count / max(time.thread_time() - cpu, 1e-9))
print(json.dumps([statistics.median(walls), statistics.median(cpus)]))
"""
"""Another checkout's validated batch path on the hands file, timed as ``compare`` times ours."""


@dataclass(frozen=True)
class Comparison:
    """Each round's rates (ours, OMPEval's), and the medians of the per-round ratios; with
    ``against``, each other tree's rates in the same rounds."""

    hands: int
    rounds: tuple[tuple[Rates, Rates], ...]
    against: tuple[tuple[str, tuple[Rates, ...]], ...] = ()
    isa: str = ""
    """The path our rounds took."""

    @property
    def ratio(self) -> float:
        """Ours / OMPEval by wall time: the median of the rounds' ratios."""
        return statistics.median(ours[0] / theirs[0] for ours, theirs in self.rounds)

    @property
    def cpu_ratio(self) -> float:
        """The same by CPU time, which load from other processes disturbs far less."""
        return statistics.median(ours[1] / theirs[1] for ours, theirs in self.rounds)

    def ratio_of(self, tree: int) -> Rates:
        """Another tree's (``against[tree]``) rate over OMPEval's in the same rounds, by
        wall and CPU time: medians of the per-round ratios."""
        pairs = list(zip(self.against[tree][1], self.rounds, strict=True))
        return (
            statistics.median(other[0] / pair[1][0] for other, pair in pairs),
            statistics.median(other[1] / pair[1][1] for other, pair in pairs),
        )

    def median(self, side: int) -> Rates:
        """One side's (0 ours, 1 OMPEval) median wall and CPU rates over the rounds."""
        return (
            statistics.median(pair[side][0] for pair in self.rounds),
            statistics.median(pair[side][1] for pair in self.rounds),
        )


def same_order(strength: npt.NDArray[np.integer], theirs: npt.NDArray[np.integer]) -> bool:
    """Whether two scores rank every hand alike: one strictly increasing map between them."""
    pairs = np.unique(np.stack([strength.astype(np.int64), theirs.astype(np.int64)]), axis=1)
    return len(np.unique(pairs[0])) == len(np.unique(pairs[1])) == pairs.shape[1] and bool(
        np.all(np.diff(pairs[1]) > 0)
    )


def other_tree(tree: Path, hands: Path) -> Rates:
    """``tree``'s validated batch path on ``hands``, in a process of its own."""
    run = subprocess.run(
        [sys.executable, "-c", OTHER_TREE, str(hands), str(PASSES)],
        cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)},
        capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    wall, cpu = json.loads(run.stdout)
    return float(wall), float(cpu)


def compare(
    source: Path,
    count: int,
    rounds: int,
    progress: Callable[[str], None] = print,
    against: Sequence[Path] = (),
    isas: Sequence[str] = (),
) -> Comparison:
    """OMPEval and our validated batch path on the same ``count`` seeded 7-card hands,
    ``rounds`` interleaved rounds (and each ``against`` tree's in the same rounds); with
    ``isas``, ours on the first path, each other path beside it as an ``against`` entry
    named ``isa:NAME``. Raises OmpevalUnavailable, or RuntimeError if the two disagree on
    the order of any hand."""
    hands = named_deal("poker-7", "", Game.POKER_HIGH, count, 7, 0).hands
    packed = hands.tobytes()
    options = Options()

    five = named_deal("poker-5", "", Game.POKER_HIGH, count, 5, 0).hands.tobytes()
    paths = list(isas) or [kernel_isa()]

    def ours(path: str, hands: bytes = packed, size: int = 7) -> Rates:
        _poker.set_isa(path)
        walls, cpus = [], []
        for _ in range(PASSES):
            started, cpu = time.perf_counter(), time.thread_time()
            batch.evaluate_batch(Game.POKER_HIGH, hands, size, b"", 0, options, count)
            walls.append(count / (time.perf_counter() - started))
            cpus.append(count / max(time.thread_time() - cpu, 1e-9))
        return statistics.median(walls), statistics.median(cpus)

    with tempfile.TemporaryDirectory(prefix="ompeval-") as scratch:
        folder = Path(scratch)
        progress("ompeval: building")
        binary = build(source, folder)
        (folder / "hands").write_bytes(packed)

        def theirs() -> Rates:
            run = subprocess.run(
                [str(binary), str(folder / "hands"), str(PASSES), str(folder / "values")],
                capture_output=True,
                text=True,
                timeout=300,
                check=True,
            )
            lines = [line.split() for line in run.stdout.splitlines()]
            return (
                statistics.median(float(wall) for wall, _ in lines),
                statistics.median(float(cpu) for _, cpu in lines),
            )

        theirs()
        values = np.fromfile(folder / "values", dtype=np.uint16)
        strength = batch.evaluate_batch(Game.POKER_HIGH, packed, 7, b"", 0, options, count).strength
        if not same_order(strength, values):
            raise RuntimeError("OMPEval and handeval order these hands differently")
        measured = []
        others: list[list[Rates]] = [[] for _ in against]
        beside: list[list[Rates]] = [[] for _ in paths[1:]]
        fives: list[list[Rates]] = [[] for _ in paths]
        for number in range(rounds):
            progress(f"ompeval: round {number + 1} of {rounds}")
            measured.append((ours(paths[0]), theirs()))
            for path, rates in zip(paths[1:], beside, strict=True):
                rates.append(ours(path))
            for path, rates in zip(paths, fives, strict=True):
                rates.append(ours(path, five, 5))
            for tree, rates in zip(against, others, strict=True):
                rates.append(other_tree(tree.resolve(), folder / "hands"))
        _poker.set_isa(paths[0])
    return Comparison(
        count,
        tuple(measured),
        tuple((f"isa:{path}", tuple(rates)) for path, rates in zip(paths[1:], beside, strict=True))
        + tuple((f"{FIVE}{path}", tuple(rates)) for path, rates in zip(paths, fives, strict=True))
        + tuple((str(tree), tuple(rates)) for tree, rates in zip(against, others, strict=True)),
        paths[0],
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.ompeval", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--ompeval-dir", help=f"an OMPEval checkout (default: ${ENV})")
    parser.add_argument("--hands", type=int, default=1_000_000, help="hands (1,000,000)")
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds (7)")
    parser.add_argument(
        "--against", type=Path, nargs="*", default=[], help="other checkouts, timed alike"
    )
    parser.add_argument(
        "--isa", nargs="*", default=[], choices=_poker.isas(),
        help="kernel paths to time, the first as ours (default: the one chosen)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    retain_freed_memory()
    print(f"{cpu_line()}; kernel path {kernel_isa()} (of {', '.join(_poker.isas())})")
    try:
        result = compare(
            checkout(args.ompeval_dir), args.hands, args.rounds, against=args.against,
            isas=args.isa,
        )  # fmt: skip
    except OmpevalUnavailable as why:
        print(f"{NAME}: skipped: {why}")
        return 0
    with open("/proc/loadavg") as load:
        print(f"load average {load.read().split()[0]}; {result.hands:,} 7-card hands")
    for number, (a, b) in enumerate(result.rounds, start=1):
        print(
            f"round {number}: wall ours {a[0] / 1e6:.1f}M/s, OMPEval {b[0] / 1e6:.1f}M/s, "
            f"{a[0] / b[0]:.2f}x; CPU ours {a[1] / 1e6:.1f}M/s, OMPEval {b[1] / 1e6:.1f}M/s, "
            f"{a[1] / b[1]:.2f}x"
        )
    ours, theirs = result.median(0), result.median(1)
    print(
        f"ours ({result.isa} path, validated, from bytes) {ours[0] / 1e6:.1f}M hands/s "
        f"({ours[1] / 1e6:.1f}M per "
        f"CPU-second), {NAME} {theirs[0] / 1e6:.1f}M ({theirs[1] / 1e6:.1f}M): ours/OMPEval "
        f"{result.ratio:.2f}x by wall time, {result.cpu_ratio:.2f}x by CPU time (medians of "
        "per-round ratios)"
    )
    for number, (tree, rates) in enumerate(result.against):
        wall, cpu = result.ratio_of(number)
        if tree.startswith(FIVE):
            print(
                f"{tree}: {statistics.median(r[0] for r in rates) / 1e6:.1f}M hands/s "
                f"({statistics.median(r[1] for r in rates) / 1e6:.1f}M per CPU-second): over "
                f"OMPEval's 7-card rate {wall:.2f}x by wall time, {cpu:.2f}x by CPU time"
            )
            continue
        print(
            f"{tree}: {statistics.median(r[0] for r in rates) / 1e6:.1f}M hands/s "
            f"({statistics.median(r[1] for r in rates) / 1e6:.1f}M per CPU-second): "
            f"/OMPEval {wall:.2f}x by wall time, {cpu:.2f}x by CPU time; this tree over it "
            f"{result.ratio / wall:.2f}x by wall, {result.cpu_ratio / cpu:.2f}x by CPU"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
