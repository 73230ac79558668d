"""Rates of the Poker high / Grocery Store Dots core: table build, single hands, batches.

Run: ``.venv/bin/python benchmarks/rates_poker.py [hands]`` (default 1,000,000 seven-card
hands). Prints best-of-five timings; nothing here is asserted.
"""

from __future__ import annotations

import functools
import sys
import time
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from evaluators import dots, poker
from evaluators.inputs import Options
from evaluators.results import BatchResult
from evaluators.tables import table_info

BatchEvaluator = Callable[[npt.NDArray[np.uint8], npt.NDArray[np.uint8], Options], BatchResult]


def best_of(runs: int, action: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - started)
    return best


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    options = Options()
    infos = table_info()
    print(f"tables: {sum(i.bytes for i in infos):,} bytes, built in {infos[0].build_seconds:.3f} s")
    for info in infos:
        print(f"  {info.name}: {info.bytes:,} bytes")

    rng = np.random.default_rng(7)
    hands = np.argsort(rng.random((count, 52)), axis=1)[:, :7].astype(np.uint8)
    no_table = np.zeros((1, 0), dtype=np.uint8)
    batch_evaluators: tuple[tuple[str, BatchEvaluator], ...] = (
        ("poker batch", poker.evaluate_poker_high_batch),
        ("dots batch", dots.evaluate_dots_batch),
    )
    for name, evaluate in batch_evaluators:
        seconds = best_of(5, functools.partial(evaluate, hands, no_table, options))
        print(f"{name}: {count:,} 7-card hands in {seconds * 1e3:.1f} ms, "
              f"{count / seconds / 1e6:.1f} M hands/s")
    holes, board = hands[:, :2].copy(), hands[:1, 2:].copy()
    seconds = best_of(5, lambda: poker.evaluate_poker_high_batch(holes, board, options))
    print(f"poker batch, 2 hole + shared board (hands may repeat board cards: timing only): "
          f"{count / seconds / 1e6:.1f} M hands/s")

    singles = [tuple(int(c) for c in row) for row in hands[:100_000]]
    for name, call in (
        ("rank_class_of", lambda: [poker.rank_class_of(h) for h in singles]),
        ("evaluate_poker_high", lambda: [
            poker.evaluate_poker_high(h[:2], h[2:], (), options) for h in singles
        ]),
        ("evaluate_dots", lambda: [dots.evaluate_dots(h, (), (), options) for h in singles]),
    ):
        seconds = best_of(3, call)
        print(f"{name}: {seconds / len(singles) * 1e6:.2f} us per 7-card hand")


if __name__ == "__main__":
    main()
