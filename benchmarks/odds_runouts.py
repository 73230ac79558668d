"""Odds' sampled run-outs a second for every game with Odds at 4 seats, this tree against
another checkout, side by side (issue 24's "Odds sampled run-outs/s" row).

``python -m benchmarks.odds_runouts --against DIR [DIR ...] [--rounds 5] [--samples
500000]``: per round and game, one fresh process of each tree (``PYTHONPATH`` set to it;
the other trees' compiled kernels must be built in place) samples ``--samples`` run-outs
of 4 seats with nothing known (Flop-A declaring HIGH, LOW, BOTH, BOTH) after a warm-up call
of 200,000 (a process's first chunks of a new size pay for fresh memory, which a server has long
paid; with a 20,000-sample warm-up that cost fell in this tree's timed call and not in
one whose per-chunk temporaries had already grown the heap), and reports its thread CPU
and wall time; the trees alternate within each round, so noise from other
work on the machine falls on both. Prints one JSON object: per game each tree's median
run-outs/s by thread CPU and by wall, and this tree's over each ``DIR``'s, with the load
average before the first round and after each. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = (
    "numbers",
    "florida-bingo",
    "flop-a",
    "three-thirty-three",
    "high-card",
    "grocery-store-dots",
    "poker-high",
)

TIMING = """
import json, sys, time
from evaluators.inputs import Declaration
from evaluators.odds import odds
try:
    from evaluators.odds import read_odds
except ImportError:  # trees before the odds package (issue 24's base, 9086968)
    from evaluators.odds_request import read_odds
from evaluators.inputs import Game
from evaluators.registry import GAMES
game = Game(sys.argv[1])
deal = GAMES[game].odds
declarations = (Declaration.HIGH, Declaration.LOW, Declaration.BOTH, Declaration.BOTH)
seats = [
    (f"p{s}", [], deal.hand_max, declarations[s] if game.value == "flop-a" else None)
    for s in range(4)
]
request = read_odds(game, seats)
odds(request, samples=200_000, seed=0)
cpu, wall = time.thread_time(), time.perf_counter()
odds(request, samples=int(sys.argv[2]), seed=1)
print(json.dumps([time.thread_time() - cpu, time.perf_counter() - wall]))
"""


def load() -> str:
    return Path("/proc/loadavg").read_text().split(" ", 3)[:3].__str__()


def timing(tree: Path, game: str, samples: int) -> tuple[float, float]:
    """(thread CPU seconds, wall seconds) of one sampled call in a fresh process of ``tree``."""
    result = subprocess.run(
        [sys.executable, "-c", TIMING, game, str(samples)],
        cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)},
        capture_output=True, text=True, check=True, timeout=600,
    )  # fmt: skip
    cpu, wall = json.loads(result.stdout)
    return cpu, wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.odds_runouts")
    parser.add_argument(
        "--against", type=Path, nargs="+", required=True, help="the other checkouts"
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--samples", type=int, default=500_000)
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    options = parser.parse_args(argv)
    trees = {"this": ROOT} | {str(tree): tree.resolve() for tree in options.against}
    times: dict[str, dict[str, list[tuple[float, float]]]] = {
        game: {name: [] for name in trees} for game in options.games
    }
    loads = [load()]
    for round_ in range(options.rounds):
        for game in options.games:
            order = list(trees.items())
            for name, tree in order if round_ % 2 == 0 else order[::-1]:
                times[game][name].append(timing(tree, game, options.samples))
        loads.append(load())
    report: dict[str, object] = {"loads": loads, "samples": options.samples}
    for game, per_tree in times.items():
        row: dict[str, object] = {}
        for name, measured in per_tree.items():
            cpu = options.samples / statistics.median(cpu for cpu, _ in measured)
            wall = options.samples / statistics.median(wall for _, wall in measured)
            row[name] = {"cpu_runouts_per_s": round(cpu), "wall_runouts_per_s": round(wall)}
        this = row["this"]
        assert isinstance(this, dict)
        for name in trees:
            other = row[name]
            if name != "this" and isinstance(other, dict):
                other["this_over_it_cpu"] = round(
                    this["cpu_runouts_per_s"] / other["cpu_runouts_per_s"], 2
                )
                other["this_over_it_wall"] = round(
                    this["wall_runouts_per_s"] / other["wall_runouts_per_s"], 2
                )
        report[game] = row
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
