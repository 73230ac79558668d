"""What the server's receive window (``--receive-window-bytes``) costs a large batch.

``python -m benchmarks.window_cost [--hands N] [--rounds R] [--seconds S] [--checkout DIR]``
starts bench servers (``benchmarks.bench_service``) of this tree with the window at its
default and at 0 (gRPC's own, which probes the link and grows it to 4-8 MiB), and with
``--checkout`` one of that tree as it is. In ``R`` rounds, the servers' order alternating,
it calls Echo and EvaluateBatch with column replies, each of N 7-card poker hands (the
benchmark's seeded deal), from 2 client threads for ``S`` seconds on each server, and
prints per server and call the medians of calls a second and of CPU a call, server (from
``/proc``) and client. Side by side in one run, so the machine's other load falls on all
alike (docs/reliability.md, "Cost"). Linux only.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import grpc

from benchmarks.batch_cpu import _client_usage as client_usage
from benchmarks.batch_cpu import _server_usage as server_usage
from benchmarks.grpc_bench import MAX_MESSAGE, batch_group, hammer, new_channel
from benchmarks.hands import named_deal
from benchmarks.launcher import ServerProcess, start_server
from evaluators.inputs import Game
from service.allocator import retain_freed_memory

CALLS = ("Echo", "columns")
THREADS = ("--threads", "32", "--max-message-bytes", str(MAX_MESSAGE))


def servers(checkout: Path | None) -> dict[str, ServerProcess]:
    """The bench servers compared, by name."""
    command = (sys.executable, "-m", "benchmarks.bench_service")
    started = {
        "window 64 KiB": start_server(*THREADS, command=command),
        "window 0 (gRPC's)": start_server(*THREADS, "--receive-window-bytes", "0", command=command),
    }
    if checkout is not None:
        python = checkout / ".venv" / "bin" / "python"
        own = (str(python), *command[1:]) if python.exists() else command
        started[f"{checkout}"] = start_server(*THREADS, command=own, root=checkout)
    return started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.window_cost", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--hands", type=int, default=100_000, help="hands a call (100,000)")
    parser.add_argument("--rounds", type=int, default=10, help="interleaved rounds (10)")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds a window (2)")
    parser.add_argument("--checkout", type=Path, help="another tree's server beside these")
    args = parser.parse_args(argv)
    retain_freed_memory()  # as benchmarks.batch_cpu does: the client decodes as advised
    group = batch_group(named_deal("poker-7", "", Game.POKER_HIGH, args.hands, 7, 0).hands)
    calls = dict(zip(CALLS, (make for _, make in group), strict=False))
    running = servers(args.checkout.resolve() if args.checkout else None)
    rows: dict[tuple[str, str], list[tuple[float, float, float]]] = {
        (name, call): [] for name in running for call in CALLS
    }
    try:
        channels = {name: [new_channel(s.target) for _ in range(2)] for name, s in running.items()}
        for pair in channels.values():
            for channel in pair:
                grpc.channel_ready_future(channel).result(timeout=60)
        for number in range(args.rounds):
            order = list(running) if number % 2 == 0 else list(reversed(running))
            for name in order:
                for call, make in calls.items():
                    print(f"round {number + 1} of {args.rounds}: {name}, {call}", flush=True)
                    server_before, client_before = server_usage(running[name].pid), client_usage()
                    measured = hammer(channels[name], make, args.seconds, 0.3)
                    server_after, client_after = server_usage(running[name].pid), client_usage()
                    count = max(measured.calls, 1)
                    rows[name, call].append(
                        (
                            measured.calls / args.seconds,
                            1e3 * (server_after[0] - server_before[0]) / count,
                            1e3 * (client_after[0] - client_before[0]) / count,
                        )
                    )
        for pair in channels.values():
            for channel in pair:
                channel.close()
    finally:
        for server in running.values():
            server.stop()
    print(f"\n{args.hands:,} 7-card hands a call, medians of {args.rounds} rounds")
    print(f"{'server':28} {'call':8} {'calls/s':>8} {'server ms':>10} {'client ms':>10}", end="")
    print(f" {'total ms':>9}")
    for (name, call), samples in rows.items():
        rate, server_ms, client_ms = (statistics.median(s[k] for s in samples) for k in range(3))
        total = statistics.median(s[1] + s[2] for s in samples)
        print(
            f"{name[-28:]:28} {call:8} {rate:>8.1f} {server_ms:>10.2f} {client_ms:>10.2f} "
            f"{total:>9.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
