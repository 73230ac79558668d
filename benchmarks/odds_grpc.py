"""Odds through gRPC against the same Odds in process: what the service adds.

``python -m benchmarks.odds_grpc`` (``--rounds``) starts one server (one worker, as
``benchmarks.launcher`` starts them) and times heads-up Poker high before the flop, exact
over all 1,712,304 boards (AsKs vs QdQc), both ways, round by round in alternation so that
a busy machine slows both alike; each figure is the median of ``--rounds``. Target: the
call through gRPC within 1.5x of the core in process (the wire carries a few hundred
bytes; the rest is the thread hand-off and the server's own process).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from handeval_client import HandevalClient, odds_request

from benchmarks.launcher import start_server
from evaluators.inputs import Game
from evaluators.odds import odds, read_odds

HERO = "As Ks"
VILLAIN = "Qd Qc"
TARGET_RATIO = 1.5


def _seconds(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def run(rounds: int) -> tuple[float, float]:
    """(median seconds through gRPC, median seconds in process) of the exact preflop."""
    core_request = read_odds(
        Game.POKER_HIGH, [("hero", HERO.split(), 0, None), ("villain", VILLAIN.split(), 0, None)]
    )
    wire_request = odds_request("poker-high", {"hero": HERO, "villain": VILLAIN})
    server = start_server()
    try:
        with HandevalClient(server.target, timeout=120) as client:
            assert client.send_odds(wire_request).exact  # warm: tables built, channel open
            assert odds(core_request).exact  # and this process's tables
            wire, core = [], []
            for _ in range(rounds):
                wire.append(_seconds(lambda: client.send_odds(wire_request)))
                core.append(_seconds(lambda: odds(core_request)))
    finally:
        server.stop()
    return statistics.median(wire), statistics.median(core)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds (default 5)")
    args = parser.parse_args()
    wire, core = run(args.rounds)
    ratio = wire / core
    matchup = f"{HERO.replace(' ', '')} vs {VILLAIN.replace(' ', '')}"
    print(f"exact preflop {matchup}, median of {args.rounds}")
    print(f"  through gRPC  {wire * 1e3:7.0f} ms")
    print(f"  in process    {core * 1e3:7.0f} ms")
    print(f"  ratio         {ratio:7.2f}x (target <= {TARGET_RATIO}x)")


if __name__ == "__main__":
    main()
