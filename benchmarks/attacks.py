"""Hostile callers, measured: a well-behaved client while idle streams are held open, and
the unary Evaluate rate, against this tree's server or another checkout's.

``python -m benchmarks.attacks [--checkout DIR] [--compare DIR] [--streams 1000]
[--calls 500] [--rounds 3] [--seconds 3]`` starts ``python -m service serve`` of ``DIR``
(default this tree; e.g. ``/work/main`` for the sync server, read only) on a free loopback
port, then:

1. ``quiet``: ``--calls`` sequential Evaluate calls (7-card poker), latency p50/p99 and
   failures;
2. ``under_attack``: ``--streams`` EvaluateStreams that never send, spread over
   connections of 100 (each channel its own connection), held open while the same calls
   run again (each with a 2 s deadline; the phase stops after 30 s whatever is left);
3. ``rate``: Evaluate calls per second from 32 calls in flight over 2 connections, for
   ``--seconds`` a round, median of ``--rounds``. With ``--compare DIR`` that checkout's
   server runs too and the rounds alternate between the two (the cores are shared and
   noisy, so alternating is fairer than one server after the other); its median and the
   ratio are added.

Prints one JSON object. Bounded in count and time; nothing here is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import grpc

from service.client.typed_client import evaluate_request
from service.gen.handeval.v1 import handeval_pb2_grpc as pb_grpc

ROOT = Path(__file__).resolve().parents[1]
OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]
"""Channels to one target share one connection unless each has its own subchannel pool."""
STREAMS_PER_CONNECTION = 100
ATTACK_PHASE_SECONDS = 30.0
REQUEST = evaluate_request("poker", "Ah Kh Qh Jh Th 2c 3d")


def start(checkout: Path, *extra: str) -> tuple[subprocess.Popen[str], str]:
    """``handeval serve`` of ``checkout`` on 127.0.0.1, one worker unless ``extra`` flags
    say otherwise; it and its target."""
    python = checkout / ".venv" / "bin" / "python"
    process = subprocess.Popen(
        [str(python if python.exists() else sys.executable), "-m", "service", "serve",
         "--host", "127.0.0.1", "--port", "0", "--metrics-port", "0", "--workers", "1",
         "--max-connection-age-seconds", "0", *extra],
        cwd=checkout, env={**os.environ, "PYTHONPATH": str(checkout)},
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert process.stderr is not None
    for line in process.stderr:
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if event.get("event") == "ready":
            return process, f"127.0.0.1:{event['port']}"
    raise RuntimeError(f"the server exited {process.wait()} before it was ready")


async def polite(target: str, calls: int, budget_s: float) -> dict[str, Any]:
    """``calls`` sequential Evaluates on a connection of their own, within ``budget_s``."""
    latencies: list[float] = []
    failures: dict[str, int] = {}
    ended = time.monotonic() + budget_s
    async with grpc.aio.insecure_channel(target, options=OWN_CONNECTION) as channel:
        stub = pb_grpc.HandEvaluatorStub(channel)
        for _ in range(calls):
            if time.monotonic() > ended:
                break
            began = time.perf_counter()
            try:
                await stub.Evaluate(REQUEST, timeout=2.0)
                latencies.append(time.perf_counter() - began)
            except grpc.aio.AioRpcError as error:
                failures[error.code().name] = failures.get(error.code().name, 0) + 1
    quantiles = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [0.0] * 99
    return {
        "calls": len(latencies) + sum(failures.values()),
        "ok": len(latencies),
        "failures": failures,
        "p50_ms": round(quantiles[49] * 1000, 3),
        "p99_ms": round(quantiles[98] * 1000, 3),
    }


async def under_attack(target: str, streams: int, calls: int) -> dict[str, Any]:
    connections = -(-streams // STREAMS_PER_CONNECTION)
    channels = [
        grpc.aio.insecure_channel(target, options=OWN_CONNECTION) for _ in range(connections)
    ]
    idle = [
        pb_grpc.HandEvaluatorStub(channels[i // STREAMS_PER_CONNECTION]).EvaluateStream()
        for i in range(streams)
    ]
    await asyncio.sleep(2.0)  # let every stream reach the server
    report = await polite(target, calls, ATTACK_PHASE_SECONDS)
    report["idle_streams_still_open"] = sum(not call.done() for call in idle)
    for call in idle:
        call.cancel()
    for channel in channels:
        await channel.close()
    return report


async def rate(target: str, seconds: float, in_flight: int = 32) -> float:
    """Evaluate calls per second with ``in_flight`` calls outstanding over 2 connections."""
    channels = [grpc.aio.insecure_channel(target, options=OWN_CONNECTION) for _ in range(2)]
    stubs = [pb_grpc.HandEvaluatorStub(c) for c in channels]
    done = 0
    ended = time.monotonic() + seconds

    async def caller(stub: pb_grpc.HandEvaluatorStub) -> None:
        nonlocal done
        while time.monotonic() < ended:
            await stub.Evaluate(REQUEST, timeout=10)
            done += 1

    began = time.monotonic()
    await asyncio.gather(*(caller(stubs[i % 2]) for i in range(in_flight)))
    elapsed = time.monotonic() - began
    for channel in channels:
        await channel.close()
    return done / elapsed


async def measure(target: str, other: str | None, options: argparse.Namespace) -> dict[str, Any]:
    quiet = await polite(target, options.calls, ATTACK_PHASE_SECONDS)
    attacked = await under_attack(target, options.streams, options.calls)
    rounds: list[float] = []
    others: list[float] = []
    for _ in range(options.rounds):
        rounds.append(await rate(target, options.seconds))
        if other is not None:
            others.append(await rate(other, options.seconds))
    result = {
        "quiet": quiet,
        "under_attack": attacked,
        "evaluate_per_s_median": round(statistics.median(rounds)),
        "evaluate_per_s_rounds": [round(r) for r in rounds],
    }
    if others:
        result |= {
            "compare_evaluate_per_s_median": round(statistics.median(others)),
            "compare_evaluate_per_s_rounds": [round(r) for r in others],
            "ratio": round(statistics.median(rounds) / statistics.median(others), 2),
        }
    return result


def server_pids(process: subprocess.Popen[str]) -> list[int]:
    """The server and its worker processes (``--workers`` above 1)."""
    pids = [process.pid]
    for task in Path(f"/proc/{process.pid}/task").iterdir():
        pids += [int(p) for p in (task / "children").read_text().split()]
    return pids


async def cost_rows(checkout: Path, rows: list[str]) -> dict[str, Any]:
    """``benchmarks.cost_attacks``' rows, each on a fresh server of ``checkout``."""
    from benchmarks import cost_attacks

    results: dict[str, Any] = {}
    for row in rows:
        workers = "2" if row == "odds_flood_96" else "1"
        process, target = start(checkout, "--workers", workers)
        try:
            if workers != "1":
                await asyncio.sleep(3.0)  # every worker ready
            pids = server_pids(process)
            if row == "odds_flood_24":
                results[row] = await cost_attacks.odds_flood(target, 4, 24, polite)
            elif row == "odds_flood_96":
                results[row] = await cost_attacks.odds_flood(target, 8, 96, polite)
            elif row == "exact_flop_a":
                results[row] = await cost_attacks.exact_flop_a(target, pids)
            elif row == "unread_replies":
                results[row] = await cost_attacks.unread_replies(target, pids, polite)
            elif row == "partial_uploads":
                results[row] = await cost_attacks.partial_uploads(target, pids)
        finally:
            process.terminate()
            process.wait(30)
    return results


COST_ROWS = ["odds_flood_24", "odds_flood_96", "exact_flop_a", "unread_replies", "partial_uploads"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.attacks", description=__doc__)
    parser.add_argument("--checkout", type=Path, default=ROOT, help="tree whose server to run")
    parser.add_argument("--compare", type=Path, help="another tree: alternate rate rounds")
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument(
        "--cost", nargs="*", choices=COST_ROWS, metavar="ROW",
        help=f"run the cost attacks instead (benchmarks.cost_attacks): {', '.join(COST_ROWS)}; "
        "none named: all",
    )  # fmt: skip
    options = parser.parse_args(argv)
    if options.cost is not None:
        checkout = options.checkout.resolve()
        costs = asyncio.run(cost_rows(checkout, options.cost or COST_ROWS))
        print(json.dumps({"checkout": str(options.checkout), **costs}))
        return 0
    process, target = start(options.checkout.resolve())
    processes = [process]
    try:
        other = None
        if options.compare:
            compared, other = start(options.compare.resolve())
            processes.append(compared)
        result = asyncio.run(measure(target, other, options))
    finally:
        for running in processes:
            running.terminate()
            running.wait(30)
    print(
        json.dumps(
            {
                "checkout": str(options.checkout),
                "compare": options.compare and str(options.compare),
                "streams": options.streams,
                **result,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
