"""How long the event loop's thread waits for the GIL while Odds runs in a pool thread:
the reason a polite caller's p99 grows under an Odds flood (docs/reliability.md, "Cost").

``python -m benchmarks.gil_wait [--seconds 5]``: the main thread sleeps 0.5 ms in a loop
and records how late it wakes (the time it then waits for the GIL), first alone, then
while a thread set up as the server's pool threads are (``yield_to_the_loop``: nice 10, a
1 ms switch interval) samples 23-seat Poker high Odds. Prints one JSON object of
p50/p99/max milliseconds late; wall-clock figures, so say the load with them.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time

from evaluators.errors import Stopped
from evaluators.inputs import Game
from evaluators.odds import OddsRequest, OddsSeat, odds
from service.server.limits import yield_to_the_loop

NAP_SECONDS = 0.0005
REQUEST = OddsRequest(Game.POKER_HIGH, tuple(OddsSeat(f"p{i}", (), 2) for i in range(23)))


def lateness(seconds: float) -> dict[str, float]:
    """p50, p99 and max of how late a 0.5 ms sleep wakes, in ms, over ``seconds``."""
    late = []
    ended = time.perf_counter() + seconds
    while time.perf_counter() < ended:
        began = time.perf_counter()
        time.sleep(NAP_SECONDS)
        late.append((time.perf_counter() - began - NAP_SECONDS) * 1000)
    late.sort()
    return {
        "p50_ms": round(late[len(late) // 2], 3),
        "p99_ms": round(late[int(len(late) * 0.99)], 3),
        "max_ms": round(late[-1], 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.gil_wait")
    parser.add_argument("--seconds", type=float, default=5.0)
    options = parser.parse_args(argv)
    odds(REQUEST, samples=10_000, seed=0)  # tables built
    quiet = lateness(options.seconds)
    stop = threading.Event()

    def sample() -> None:
        yield_to_the_loop()
        while not stop.is_set():
            try:
                odds(REQUEST, samples=200_000, seed=1, keep_going=lambda: not stop.is_set())
            except Stopped:
                return

    worker = threading.Thread(target=sample)
    worker.start()
    time.sleep(0.5)
    try:
        busy = lateness(options.seconds)
    finally:
        stop.set()
        worker.join()
    print(json.dumps({"quiet": quiet, "odds_in_a_pool_thread": busy}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
