"""How far past a deadline Odds runs on (docs/reliability.md, "Deadlines").

``python -m benchmarks.deadline_overshoot [--runs 5] [--rounds 2]``: in a thread set up as
the server's pool threads are (``yield_to_the_loop``: nice 10), each case of
``CASES`` runs with a 100 ms deadline, stopped by one of two ``keep_going`` gates:
``passed`` (only whether the deadline has passed, as the servicer asked before) and
``WorkGate`` (the servicer's: no chunk the deadline would cut). Rounds alternate the two.
Prints one JSON object: per gate and case, the milliseconds from the deadline to the
work's stop in each run, sorted, and the median wall time of a chunk; wall-clock figures,
so say the load with them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from evaluators.errors import Stopped
from evaluators.odds import OddsLimits, OddsRequest, plan_odds, run_odds
from service.server.deadlines import WorkGate
from service.server.limits import yield_to_the_loop
from service.server.serve import warm_up
from tests.unit.odds.test_plan import fifteen_seat_flop_a, numbers_heads_up, poker_23_seats

DEADLINE_SECONDS = 0.1


CASES: dict[str, tuple[OddsRequest, int]] = {
    "15-seat exact Flop-A": (fifteen_seat_flop_a(), 0),
    "heads-up Numbers, 10M": (numbers_heads_up(), 10_000_000),
    "23-seat Poker high, 10M": (poker_23_seats(), 10_000_000),
}
"""The working-set cases of ``tests.unit.odds.test_plan.py``, sampled as the docs measure."""


def _passed(deadline: float) -> Callable[[], bool]:
    return lambda: time.monotonic() < deadline


def _work_gate(deadline: float) -> Callable[[], bool]:
    return WorkGate(threading.Event(), deadline, lambda: True)


GATES: dict[str, Callable[[float], Callable[[], bool]]] = {
    "passed": _passed,
    "WorkGate": _work_gate,
}


def overshoot(request: OddsRequest, samples: int, gate: Callable[[float], Callable[[], bool]]
              ) -> tuple[float, list[float]]:  # fmt: skip
    """Milliseconds from the deadline to the work's stop, and each chunk's wall seconds."""
    planned = plan_odds(request, samples, OddsLimits())
    chunks: list[float] = []
    asked = [time.monotonic()]
    deadline = asked[0] + DEADLINE_SECONDS
    keep_going = gate(deadline)

    def timed() -> bool:
        now = time.monotonic()
        chunks.append(now - asked[0])
        asked[0] = now
        return keep_going()

    try:
        run_odds(request, planned, 1, timed)
    except Stopped:
        return (time.monotonic() - deadline) * 1e3, chunks[1:]
    raise AssertionError("the work ended before its deadline: make the case larger")


def measure(runs: int, rounds: int) -> dict[str, Any]:
    warm_up()
    found: dict[str, dict[str, Any]] = {
        g: {c: {"ms": [], "chunks": []} for c in CASES} for g in GATES
    }
    with ThreadPoolExecutor(1, initializer=yield_to_the_loop) as pool:
        for _ in range(rounds):
            for name, gate in GATES.items():
                for case, (request, samples) in CASES.items():
                    for _ in range(runs):
                        ms, chunks = pool.submit(overshoot, request, samples, gate).result()
                        found[name][case]["ms"].append(round(ms, 1))
                        found[name][case]["chunks"] += chunks
    return {
        name: {
            case: {"past_deadline_ms": sorted(row["ms"]),
                   "chunk_ms_median": round(statistics.median(row["chunks"]) * 1e3, 1)}
            for case, row in cases.items()
        }
        for name, cases in found.items()
    }  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.deadline_overshoot", description=__doc__
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.runs, args.rounds), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
