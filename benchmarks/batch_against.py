"""Every game's validated batch from bytes, this tree against other checkouts, side by side.

``python -m benchmarks.batch_against --against DIR [DIR ...] [--rounds 5] [--hands 1000000]
[--games poker-7 dots-7 ...]``: the benchmark's seeded deals (``benchmarks.hands``, made
once here and written to files, so every tree scores the same bytes), and per round and
deal one fresh process of each tree (``PYTHONPATH`` set to it; the other trees' compiled
kernels built in place) that keeps its freed memory as the server does, makes a warm-up
call, then times ``PASSES`` calls of ``evaluators.batch.evaluate_batch`` on the bytes (the
server's path: screened and scored by the compiled kernels, one thread) and reports the
median by thread CPU and by wall. The trees alternate within each round, so noise from
other work falls on both. Prints one table: per deal each tree's median hands a
CPU-second over the rounds and this tree's ratio to each other tree (the median of the
per-round ratios), with the load average before and after. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.hands import NamedDeal, core_deals

ROOT = Path(__file__).resolve().parents[1]
PASSES = 5
"""Timed calls a process makes; its figure is their median."""

TIMING = """
import json, statistics, sys, time
from evaluators import batch
from evaluators.inputs import Game, Options
try:
    from service.allocator import retain_freed_memory
    retain_freed_memory()
except ImportError:
    pass
game, hand_size, table_size, count = Game(sys.argv[1]), *map(int, sys.argv[2:5])
hands, tables = open(sys.argv[5], "rb").read(), open(sys.argv[6], "rb").read()
options = Options()
batch.evaluate_batch(game, hands, hand_size, tables, table_size, options, count)
cpus, walls = [], []
for _ in range(int(sys.argv[7])):
    cpu, wall = time.thread_time(), time.perf_counter()
    batch.evaluate_batch(game, hands, hand_size, tables, table_size, options, count)
    cpus.append(time.thread_time() - cpu)
    walls.append(time.perf_counter() - wall)
print(json.dumps([statistics.median(cpus), statistics.median(walls)]))
"""


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def timing(tree: Path, deal: NamedDeal, folder: Path) -> tuple[float, float]:
    """(thread CPU seconds, wall seconds) of one call on ``deal`` in a process of ``tree``."""
    hands, tables = folder / f"{deal.key}.hands", folder / f"{deal.key}.tables"
    result = subprocess.run(
        [sys.executable, "-c", TIMING, deal.game.value, str(deal.hands.shape[1]),
         str(deal.tables.shape[1]), str(len(deal.hands)), str(hands), str(tables), str(PASSES)],
        cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)},
        capture_output=True, text=True, check=True, timeout=600,
    )  # fmt: skip
    cpu, wall = json.loads(result.stdout)
    return float(cpu), float(wall)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.batch_against")
    parser.add_argument(
        "--against", type=Path, nargs="+", required=True, help="the other checkouts"
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--games", nargs="*", help="deal keys (default: every core deal)")
    options = parser.parse_args(argv)
    deals = [d for d in core_deals(options.hands) if not options.games or d.key in options.games]
    trees = {"this": ROOT} | {str(tree): tree.resolve() for tree in options.against}
    seconds: dict[str, dict[str, list[float]]] = {d.key: {n: [] for n in trees} for d in deals}
    before = load()
    with tempfile.TemporaryDirectory(prefix="batch-against-") as scratch:
        folder = Path(scratch)
        for deal in deals:
            (folder / f"{deal.key}.hands").write_bytes(deal.hands.tobytes())
            (folder / f"{deal.key}.tables").write_bytes(deal.tables.tobytes())
        for number in range(options.rounds):
            print(f"round {number + 1} of {options.rounds}", file=sys.stderr, flush=True)
            for deal in deals:
                order = list(trees.items())
                for name, tree in order if number % 2 == 0 else order[::-1]:
                    seconds[deal.key][name].append(timing(tree, deal, folder)[0])
    others = [name for name in trees if name != "this"]
    header = f"{'deal':22} {'this, M/CPU-s':>14}" + "".join(
        f" {'other ' + str(k + 1) + ', M/CPU-s':>18} {'this/other':>10}" for k in range(len(others))
    )
    print(f"load average {before} before, {load()} after; {options.hands:,} hands a call")
    for k, name in enumerate(others):
        print(f"other {k + 1}: {name}")
    print(header)
    for deal in deals:
        per_tree = seconds[deal.key]
        line = f"{deal.key:22} {options.hands / statistics.median(per_tree['this']) / 1e6:>14.1f}"
        for name in others:
            rate = options.hands / statistics.median(per_tree[name]) / 1e6
            ratio = statistics.median(
                theirs / ours for ours, theirs in zip(per_tree["this"], per_tree[name], strict=True)
            )
            line += f" {rate:>18.1f} {ratio:>9.2f}x"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
