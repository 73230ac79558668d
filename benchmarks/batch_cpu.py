"""CPU and page faults per EvaluateBatch call, against an Echo of the same bytes.

``python -m benchmarks.batch_cpu [--hands N] [--rounds R] [--seconds S]`` starts the bench
server (``benchmarks.bench_service``) and, in interleaved rounds of ``S`` seconds, calls
Echo, EvaluateBatch with column replies and with packed ones from 2 client threads, each
of N random 7-card poker hands. For each it reads the server's CPU and minor faults from
``/proc/<pid>/stat`` and this process's from ``os.times`` and ``getrusage`` before and
after, and prints the medians per call.

Why CPU and not rate: on a shared 2-core VM a call's rate moves by a third within a
minute, while the CPU a call takes moves far less; with client and server on the same two
cores, the ratio of total CPU per call is what the throughput ratio tends to once both
cores are busy. Linux only (``/proc``).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass

import grpc
import numpy as np

from benchmarks.grpc_bench import Call, bench_server, hammer, new_channel
from evaluators.inputs import Game
from service.allocator import retain_freed_memory
from service.client.typed_client import batch_method, batch_request
from service.gen.handeval.bench.v1 import bench_pb2 as bench_pb
from service.gen.handeval.bench.v1 import bench_pb2_grpc as bench_grpc

LAYOUTS = ("Echo", "columns", "packed")


@dataclass(frozen=True)
class PerCall:
    """Medians over the rounds, per call."""

    layout: str
    calls: int
    server_ms: float
    client_ms: float
    server_faults: float
    client_faults: float

    @property
    def total_ms(self) -> float:
        return self.server_ms + self.client_ms


def _server_usage(pid: int) -> tuple[float, int]:
    """(CPU seconds, minor faults) of process ``pid`` so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks, int(fields[7])


def _client_usage() -> tuple[float, int]:
    times = os.times()
    return times.user + times.system, resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def random_hands(count: int, seed: int = 1) -> np.ndarray:
    """``count`` 7-card hands of distinct cards, as (count, 7) card ids."""
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((count, 52)), axis=1)[:, :7].astype(np.uint8)


def run(
    hands: int, rounds: int, seconds: float, progress: Callable[[str], None] = print
) -> list[PerCall]:
    """One bench server; Echo, columns and packed measured in ``rounds`` interleaved
    rounds; each layout's medians per call."""
    cards = random_hands(hands)
    echo_request = bench_pb.EchoRequest(payload=cards.tobytes())
    requests = {
        layout: batch_request(Game.POKER_HIGH, cards, columns=layout == "columns")
        for layout in LAYOUTS[1:]
    }
    server = bench_server()
    samples: dict[str, list[tuple[int, float, float, float, float]]] = {n: [] for n in LAYOUTS}
    try:
        channels = [new_channel(server.target) for _ in range(2)]
        for channel in channels:
            grpc.channel_ready_future(channel).result(timeout=60)

        def make(layout: str) -> Callable[[grpc.Channel], Call]:
            def call(channel: grpc.Channel) -> Call:
                if layout == "Echo":
                    echo = bench_grpc.BenchStub(channel).Echo
                    return lambda: echo(echo_request)
                method, request = batch_method(channel), requests[layout]
                return lambda: method(request)

            return call

        for number in range(rounds):
            for layout in LAYOUTS:
                progress(f"round {number + 1} of {rounds}: {layout}")
                server_before, client_before = _server_usage(server.pid), _client_usage()
                measured = hammer(channels, make(layout), seconds, min(0.3, seconds / 2))
                server_after, client_after = _server_usage(server.pid), _client_usage()
                calls = max(measured.calls, 1)
                samples[layout].append(
                    (
                        measured.calls,
                        1e3 * (server_after[0] - server_before[0]) / calls,
                        1e3 * (client_after[0] - client_before[0]) / calls,
                        (server_after[1] - server_before[1]) / calls,
                        (client_after[1] - client_before[1]) / calls,
                    )
                )
        for channel in channels:
            channel.close()
    finally:
        server.stop()
    return [
        PerCall(
            layout,
            sum(s[0] for s in rows),
            *(statistics.median(s[k] for s in rows) for k in range(1, 5)),
        )
        for layout, rows in samples.items()
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.batch_cpu", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--hands", type=int, default=100_000, help="hands a call (100,000)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (5)")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds a window (2)")
    args = parser.parse_args(argv)
    retain_freed_memory()  # as benchmarks.run does: the client decodes as advised
    results = run(args.hands, args.rounds, args.seconds, lambda line: print(line, flush=True))
    echo = results[0]
    print(f"\n{args.hands:,} 7-card hands a call, medians of {args.rounds} rounds, per call")
    print(f"{'layout':8} {'calls':>6} {'server ms':>10} {'client ms':>10} {'total ms':>9} "
          f"{'faults srv':>10} {'faults cli':>10} {'Echo/this':>9}")  # fmt: skip
    for r in results:
        print(
            f"{r.layout:8} {r.calls:>6} {r.server_ms:>10.2f} {r.client_ms:>10.2f} "
            f"{r.total_ms:>9.2f} {r.server_faults:>10.0f} {r.client_faults:>10.0f} "
            f"{echo.total_ms / r.total_ms:>9.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
