"""OMPEval (zekyll/OMPEval, C++, ISC) as an optional peer: its "Rand1" case on our hands.

``python -m benchmarks.ompeval [--ompeval-dir DIR] [--hands N] [--rounds R]`` builds
``benchmarks/ompeval_rand1.cpp`` against a checkout of OMPEval (``--ompeval-dir`` or the
``OMPEVAL_DIR`` environment variable; the project never vendors it) with
``g++ -O3 -msse4.2``, writes N of the benchmark's seeded 7-card hands to a file, and in R
interleaved rounds times OMPEval scoring that array of 7 x uint8 hands on one thread (its
README's Rand1) and our validated batch path on the same bytes
(``evaluators.batch.evaluate_batch``: screen, then the compiled kernel). Before timing, the
two must order every hand alike. Without a checkout it says "skipped".

The ratio reported is the median of the per-round ratios (ours / OMPEval), each pair
measured moments apart, so that load from elsewhere on a shared machine cancels.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from benchmarks.hands import named_deal
from evaluators import batch
from evaluators.inputs import Game, Options

ENV = "OMPEVAL_DIR"
DRIVER = Path(__file__).with_name("ompeval_rand1.cpp")
COMPILE = ("g++", "-O3", "-msse4.2", "-std=c++11")
NAME = "OMPEval Rand1 (C++, one thread)"


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


@dataclass(frozen=True)
class Comparison:
    """Hands/s of each side in the median round, and the median of per-round ratios."""

    hands: int
    ours: float
    theirs: float
    ratio: float
    rounds: tuple[tuple[float, float], ...]


def same_order(strength: npt.NDArray[np.integer], theirs: npt.NDArray[np.integer]) -> bool:
    """Whether two scores rank every hand alike: one strictly increasing map between them."""
    pairs = np.unique(np.stack([strength.astype(np.int64), theirs.astype(np.int64)]), axis=1)
    return len(np.unique(pairs[0])) == len(np.unique(pairs[1])) == pairs.shape[1] and bool(
        np.all(np.diff(pairs[1]) > 0)
    )


def compare(
    source: Path, count: int, rounds: int, progress: Callable[[str], None] = print
) -> Comparison:
    """OMPEval and our validated batch path on the same ``count`` seeded 7-card hands,
    ``rounds`` interleaved rounds; raises OmpevalUnavailable, or RuntimeError if the two
    disagree on the order of any hand."""
    hands = named_deal("poker-7", "", Game.POKER_HIGH, count, 7, 0).hands
    packed = hands.tobytes()
    options = Options()

    def ours() -> float:
        started = time.perf_counter()
        batch.evaluate_batch(Game.POKER_HIGH, packed, 7, b"", 0, options, count)
        return count / (time.perf_counter() - started)

    with tempfile.TemporaryDirectory(prefix="ompeval-") as scratch:
        folder = Path(scratch)
        progress("ompeval: building")
        binary = build(source, folder)
        (folder / "hands").write_bytes(packed)

        def theirs() -> float:
            run = subprocess.run(
                [str(binary), str(folder / "hands"), "1", str(folder / "values")],
                capture_output=True,
                text=True,
                timeout=300,
                check=True,
            )
            return float(run.stdout.split()[-1])

        theirs()
        values = np.fromfile(folder / "values", dtype=np.uint16)
        strength = batch.evaluate_batch(Game.POKER_HIGH, packed, 7, b"", 0, options, count).strength
        if not same_order(strength, values):
            raise RuntimeError("OMPEval and handeval order these hands differently")
        measured = []
        for number in range(rounds):
            progress(f"ompeval: round {number + 1} of {rounds}")
            measured.append((ours(), theirs()))
    middle = sorted(measured, key=lambda pair: pair[0] / pair[1])[len(measured) // 2]
    return Comparison(
        count,
        middle[0],
        middle[1],
        statistics.median(a / b for a, b in measured),
        tuple(measured),
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.ompeval", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--ompeval-dir", help=f"an OMPEval checkout (default: ${ENV})")
    parser.add_argument("--hands", type=int, default=1_000_000, help="hands (1,000,000)")
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds (7)")
    args = parser.parse_args(argv)
    try:
        result = compare(checkout(args.ompeval_dir), args.hands, args.rounds)
    except OmpevalUnavailable as why:
        print(f"{NAME}: skipped: {why}")
        return 0
    with open("/proc/loadavg") as load:
        print(f"load average {load.read().split()[0]}; {result.hands:,} 7-card hands")
    for number, (a, b) in enumerate(result.rounds, start=1):
        print(f"round {number}: ours {a / 1e6:.1f}M/s, OMPEval {b / 1e6:.1f}M/s, {a / b:.2f}x")
    print(
        f"ours (validated, from bytes) {result.ours / 1e6:.1f}M hands/s, {NAME} "
        f"{result.theirs / 1e6:.1f}M hands/s: ours/OMPEval {result.ratio:.2f}x "
        "(median of per-round ratios)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
