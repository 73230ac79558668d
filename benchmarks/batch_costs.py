"""What one hand of a batch really costs the server, per game, against the estimate the
admission uses (``GameRules.batch_cost``, ``evaluators.costs``): CPU nanoseconds and
working-set bytes a hand of a 100,000-hand batch, read from its bytes, scored and its
reply written (``service.wire.batch_reply``), as ``EvaluateBatch`` does in the pool.

CPU is this thread's (``time.thread_time``), the least of ``rounds`` runs, so other
processes on shared cores do not count; memory is tracemalloc's peak over one run (numpy
reports its arrays to it) less the reply's own bytes, which admission counts apart
(``CallCost.reply_bytes``). ``python -m benchmarks.batch_costs [--hands N] [--rounds R]``
prints one JSON object, a row per game; ``tests/unit/service/test_batch_costs.py`` holds
each estimate within a factor of it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import tracemalloc
from dataclasses import dataclass

from evaluators.batch import evaluate_batch
from evaluators.deal import deal
from evaluators.inputs import Game, Options
from evaluators.registry import GAMES
from service.wire import batch_reply

HANDS = 100_000
ROUNDS = 3
SEED = 23


@dataclass(frozen=True)
class Measured:
    """One game's batch, a hand's worth: CPU ns and working bytes measured, and the
    estimate's."""

    game: str
    cpu_ns: float
    bytes: float
    estimated_cpu_ns: int
    estimated_bytes: int


def measure(game: Game, hands: int = HANDS, rounds: int = ROUNDS, columns: bool = True) -> Measured:
    """``hands`` dealt hands of ``game`` (the largest hand and table it takes, one table
    each) scored as one batch, ``rounds`` times."""
    dealt = deal(game, hands, SEED)
    packed, tables = dealt.hands.tobytes(), dealt.tables.tobytes()
    write = batch_reply.serialized_columns if columns else batch_reply.serialized

    def run() -> int:
        result = evaluate_batch(
            game, packed, dealt.hand_size, tables, dealt.table_size, Options(), hands
        )
        return len(write(result))

    run()  # tables built, kernels loaded
    best = float("inf")
    for _ in range(rounds):
        began = time.thread_time()
        run()
        best = min(best, time.thread_time() - began)
    tracemalloc.start()
    try:
        reply = run()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    estimate = GAMES[game].batch_cost
    return Measured(
        game=GAMES[game].name,
        cpu_ns=round(best * 1e9 / hands, 1),
        bytes=round(max(peak - reply, 0) / hands, 1),
        estimated_cpu_ns=estimate.cpu_ns,
        estimated_bytes=estimate.bytes,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.batch_costs")
    parser.add_argument("--hands", type=int, default=HANDS)
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    options = parser.parse_args(argv)
    rows = [measure(game, options.hands, options.rounds).__dict__ for game in GAMES]
    print(json.dumps({"hands": options.hands, "rounds": options.rounds, "games": rows}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
