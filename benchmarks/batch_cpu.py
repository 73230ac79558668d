"""CPU and page faults per EvaluateBatch call, against an Echo of the same bytes.

``python -m benchmarks.batch_cpu [--hands N] [--rounds R] [--seconds S] [--tonk]`` starts
the bench server (``benchmarks.bench_service``) and, in interleaved rounds of ``S``
seconds, calls Echo, EvaluateBatch with column replies and with packed ones from 2 client
threads, each of N 7-card poker hands (the benchmark's seeded deal); with ``--tonk``, Echo
and column replies of N random 10-card Tonk hands (``grpc_bench.tonk_group``). For each
it reads the server's CPU and minor faults from ``/proc/<pid>/stat`` and this process's
from ``os.times`` and ``getrusage`` before and after, and prints the medians per call;
then the server's CPU by thread (``/proc/<pid>/task``): the event loop (the main thread),
grpc's own threads (``event_engine``, ``grpc_global_timer``) and the rest (the batch pool).

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

from benchmarks.grpc_bench import batch_group, bench_server, hammer, new_channel, tonk_group
from benchmarks.hands import named_deal, tonk_deal
from evaluators.inputs import Game
from service.allocator import retain_freed_memory

LAYOUTS = ("Echo", "columns", "packed")


@dataclass(frozen=True)
class PerCall:
    """Medians over the rounds, per call; the server's CPU also by thread (``THREADS``)."""

    layout: str
    calls: int
    server_ms: float
    client_ms: float
    server_faults: float
    client_faults: float
    loop_ms: float
    grpc_ms: float
    pool_ms: float

    @property
    def total_ms(self) -> float:
        return self.server_ms + self.client_ms


def _server_usage(pid: int) -> tuple[float, int]:
    """(CPU seconds, minor faults) of process ``pid`` so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks, int(fields[7])


THREADS = ("loop", "grpc", "pool")
"""The server's threads by what they run: the event loop (the main thread), grpc core's own
(named ``event_engine`` or ``grpc_*``), and the rest (the batch pool's and Python's)."""


def _thread_usage(pid: int) -> tuple[float, float, float]:
    """CPU seconds so far of process ``pid``'s threads, summed by ``THREADS``; a thread
    that ends while being read is left out (the pool's threads stay for the server's life)."""
    ticks = os.sysconf("SC_CLK_TCK")
    loop = grpc_core = pool = 0.0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as stat:
                raw = stat.read()
        except FileNotFoundError:
            continue
        name, fields = raw[raw.index("(") + 1 : raw.rindex(")")], raw.rsplit(")", 1)[1].split()
        cpu = (int(fields[11]) + int(fields[12])) / ticks
        if tid == str(pid):
            loop += cpu
        elif name.startswith(("event_engine", "grpc")):
            grpc_core += cpu
        else:
            pool += cpu
    return loop, grpc_core, pool


def _client_usage() -> tuple[float, int]:
    times = os.times()
    return times.user + times.system, resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def run(
    hands: int,
    rounds: int,
    seconds: float,
    progress: Callable[[str], None] = print,
    tonk: bool = False,
) -> list[PerCall]:
    """One bench server; Echo, columns and packed (``grpc_bench.batch_group``) measured in
    ``rounds`` interleaved rounds on the benchmark's seeded 7-card deal, or with ``tonk``
    Echo and columns of 10-card Tonk hands (``tonk_group``); each layout's medians per
    call."""
    if tonk:
        group = tonk_group(tonk_deal(10, False, hands).hands)
    else:
        group = batch_group(named_deal("poker-7", "", Game.POKER_HIGH, hands, 7, 0).hands)
    layouts = LAYOUTS[: len(group)]
    server = bench_server()
    samples: list[list[tuple[float, ...]]] = [[] for _ in group]
    try:
        channels = [new_channel(server.target) for _ in range(2)]
        for channel in channels:
            grpc.channel_ready_future(channel).result(timeout=60)
        for number in range(rounds):
            for layout, (_, make), rows in zip(layouts, group, samples, strict=True):
                progress(f"round {number + 1} of {rounds}: {layout}")
                server_before, client_before = _server_usage(server.pid), _client_usage()
                threads_before = _thread_usage(server.pid)
                measured = hammer(channels, make, seconds, min(0.3, seconds / 2))
                server_after, client_after = _server_usage(server.pid), _client_usage()
                threads_after = _thread_usage(server.pid)
                calls = max(measured.calls, 1)
                rows.append(
                    (
                        measured.calls,
                        1e3 * (server_after[0] - server_before[0]) / calls,
                        1e3 * (client_after[0] - client_before[0]) / calls,
                        (server_after[1] - server_before[1]) / calls,
                        (client_after[1] - client_before[1]) / calls,
                        *(
                            1e3 * (after - before) / calls
                            for before, after in zip(threads_before, threads_after, strict=True)
                        ),
                    )
                )
        for channel in channels:
            channel.close()
    finally:
        server.stop()
    return [
        PerCall(
            layout,
            int(sum(s[0] for s in rows)),
            *(statistics.median(s[k] for s in rows) for k in range(1, 5 + len(THREADS))),
        )
        for layout, rows in zip(layouts, samples, strict=True)
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.batch_cpu", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--hands", type=int, default=100_000, help="hands a call (100,000)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (5)")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds a window (2)")
    parser.add_argument(
        "--tonk", action="store_true", help="10-card Tonk hands, Echo and columns only"
    )
    args = parser.parse_args(argv)
    retain_freed_memory()  # as benchmarks.run does: the client decodes as advised
    results = run(
        args.hands, args.rounds, args.seconds, lambda line: print(line, flush=True), args.tonk
    )
    echo = results[0]
    kind = "10-card Tonk" if args.tonk else "7-card"
    print(f"\n{args.hands:,} {kind} hands a call, medians of {args.rounds} rounds, per call")
    print(f"{'layout':8} {'calls':>6} {'server ms':>10} {'client ms':>10} {'total ms':>9} "
          f"{'faults srv':>10} {'faults cli':>10} {'Echo/this':>9}")  # fmt: skip
    for r in results:
        print(
            f"{r.layout:8} {r.calls:>6} {r.server_ms:>10.2f} {r.client_ms:>10.2f} "
            f"{r.total_ms:>9.2f} {r.server_faults:>10.0f} {r.client_faults:>10.0f} "
            f"{echo.total_ms / r.total_ms:>9.2f}"
        )
    print(f"\nserver CPU by thread, ms per call\n{'layout':8} {'loop':>6} {'grpc':>6} {'pool':>6}")
    for r in results:
        print(f"{r.layout:8} {r.loop_ms:>6.2f} {r.grpc_ms:>6.2f} {r.pool_ms:>6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
