"""Valid, tiny requests whose cost is large, measured: what a polite caller sees
and what the server holds. ``python -m benchmarks.attacks --cost`` runs them, each on a
fresh server of the checkout (``attacks.start``):

1. ``odds_flood``: ``ODDS_CALLS`` Odds calls of 10M sampled run-outs (Poker high, 23 seats
   x 2 unknown cards, ~200 B each) kept in flight over ``connections`` connections for
   ``FLOOD_SECONDS``, while a polite caller makes sequential unary Evaluates
   (``POLITE_INTERVAL_SECONDS`` apart): its OK share and p50/p99 against the same server
   quiet, and the Odds calls' codes over the whole flood (OK: answered);
2. ``exact_flop_a``: ``EXACT_CALLS`` exact 15-seat Flop-A Odds calls (1,814,400 run-outs
   each) at once over 4 connections: peak RSS growth (VmRSS polled every 20 ms), the codes
   (answered or RESOURCE_EXHAUSTED, nothing else), the server still alive, RSS after;
3. ``unread_replies``: 8 connections whose stream window is 0 (``raw_connection``) each send 100
   EvaluateBatch of 100,000 poker hands (byte-column replies, ~2.6 MB each) and never read
   a reply: RSS growth while they hang, and a polite caller meanwhile;
4. ``partial_uploads``: 200 streams (2 connections) each sending all but the last byte of
   a 1,765,000-byte request: RSS growth while they hang, and streams the server ended (at
   once, by the budget for requests still arriving, and within 15 s more, by the read
   deadline; ``service.server.uploads``).

Bounded in count and time; prints figures, asserts nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc
import numpy as np
from handeval_client import batch_request, odds_request
from handeval_client.gen.handeval.v1 import handeval_pb2_grpc as pb_grpc

from benchmarks.raw_connection import RawConnection

OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]
ODDS_CALLS = 24
FLOOD_SECONDS = 30.0
EXACT_CALLS = 24
POLITE_CALLS = 500
POLITE_INTERVAL_SECONDS = 0.02
"""The polite caller's calls start this far apart, so its 500 span ~10 s of the flood (back
to back they would span a short stretch, whose p99 is mostly the machine's noise)."""
SAMPLED_ODDS = odds_request("poker", [(f"p{i}", "?2") for i in range(23)], samples=10_000_000)


def fifteen_seat_flop_a() -> Any:
    """15 seats, 4 table cards known, 7 seats with a card to come: 1,814,400 run-outs."""
    cards = [f"{rank}{suit}" for rank in "A23456789TJQK" for suit in "cdhs"]
    table = ["Ac", "2c", "3c", "4c"]
    rest = [card for card in cards if card not in table]
    seats = []
    for seat in range(15):
        known = 2 if seat < 7 else 3
        seats.append((f"p{seat}", " ".join(rest[:known]) + " ?1" * (3 - known), "both"))
        rest = rest[known:]
    return odds_request("flop-a", seats, table=" ".join(table))


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class RssWatch:
    """The largest VmRSS of ``pids`` summed, polled every 20 ms in a thread."""

    def __init__(self, pids: list[int]) -> None:
        self.pids = pids
        self.before = self.now()
        self.peak = self.before
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)
        self._thread.start()

    def now(self) -> int:
        total = 0
        for pid in self.pids:
            with contextlib.suppress(OSError):
                total += rss_kib(pid)
        return total

    def _poll(self) -> None:
        while not self._stop.wait(0.02):
            self.peak = max(self.peak, self.now())

    def stop(self) -> dict[str, float]:
        self._stop.set()
        self._thread.join()
        return {
            "rss_before_mib": round(self.before / 1024, 1),
            "rss_peak_growth_mib": round((self.peak - self.before) / 1024, 1),
            "rss_now_growth_mib": round((self.now() - self.before) / 1024, 1),
        }


async def odds_flood(
    target: str, connections: int, calls: int, polite: Callable[..., Any]
) -> dict[str, Any]:
    """``calls`` 10M-sample Odds calls in flight over ``connections`` connections (each
    re-sent as it ends) while ``polite`` runs; the polite report and the Odds codes.

    The attackers run in a process of their own (``python -m benchmarks.cost_attacks``),
    as another client would: in the polite caller's process their many refused calls a
    second queued its calls behind theirs on its own event loop, so its latency was partly
    the benchmark's own."""
    quiet = await polite(target, POLITE_CALLS, FLOOD_SECONDS, POLITE_INTERVAL_SECONDS)
    flood = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "benchmarks.cost_attacks", target, str(connections), str(calls),
        stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert flood.stdout is not None
    await flood.stdout.readline()  # the attackers' first calls are out
    await asyncio.sleep(2.0)
    attacked = await polite(target, POLITE_CALLS, FLOOD_SECONDS - 2.0, POLITE_INTERVAL_SECONDS)
    codes = json.loads(await flood.stdout.read())
    await flood.wait()
    return {
        "odds_calls_in_flight": calls,
        "connections": connections,
        "quiet": quiet,
        "under_attack": attacked,
        "polite_ok_share": round(attacked["ok"] / max(attacked["calls"], 1), 4),
        "p99_vs_quiet": round(attacked["p99_ms"] / max(quiet["p99_ms"], 1e-9), 2),
        "odds_codes": codes,
    }


async def _flood(target: str, connections: int, calls: int) -> dict[str, int]:
    """The flood's attackers: ``calls`` Odds calls kept in flight for ``FLOOD_SECONDS``;
    prints a line once they are out, and returns their codes."""
    channels = [
        grpc.aio.insecure_channel(target, options=OWN_CONNECTION) for _ in range(connections)
    ]
    stubs = [pb_grpc.HandEvaluatorStub(channel) for channel in channels]
    codes: Counter[str] = Counter()
    ended = time.monotonic() + FLOOD_SECONDS

    async def attacker(stub: pb_grpc.HandEvaluatorStub) -> None:
        while time.monotonic() < ended:
            try:
                await stub.Odds(SAMPLED_ODDS, timeout=max(ended - time.monotonic(), 0.1) + 5)
                codes["OK"] += 1
            except grpc.aio.AioRpcError as error:
                codes[error.code().name] += 1

    attackers = [asyncio.create_task(attacker(stubs[i % connections])) for i in range(calls)]
    print("flooding", flush=True)
    await asyncio.gather(*attackers, return_exceptions=True)
    for channel in channels:
        await channel.close()
    return dict(codes)


async def exact_flop_a(target: str, pids: list[int]) -> dict[str, Any]:
    """``EXACT_CALLS`` exact 15-seat Flop-A calls at once over 4 connections."""
    request = fifteen_seat_flop_a()
    channels = [grpc.aio.insecure_channel(target, options=OWN_CONNECTION) for _ in range(4)]
    stubs = [pb_grpc.HandEvaluatorStub(channel) for channel in channels]
    watch = RssWatch(pids)
    codes: Counter[str] = Counter()

    async def one(stub: pb_grpc.HandEvaluatorStub) -> None:
        try:
            await stub.Odds(request, timeout=120)
            codes["OK"] += 1
        except grpc.aio.AioRpcError as error:
            codes[error.code().name] += 1

    began = time.monotonic()
    await asyncio.gather(*(one(stubs[i % 4]) for i in range(EXACT_CALLS)))
    seconds = time.monotonic() - began
    await asyncio.sleep(3.0)  # the cost lane returns freed memory after 1 s idle
    for channel in channels:
        await channel.close()
    alive = all(Path(f"/proc/{p}").exists() for p in pids)
    return {"calls": EXACT_CALLS, "codes": dict(codes), "seconds": round(seconds, 1),
            "server_alive": alive, **watch.stop()}  # fmt: skip


def _big_batch() -> bytes:
    hands = np.random.default_rng(7).permuted(
        np.tile(np.arange(52, dtype=np.uint8), (100_000, 1)), axis=1
    )
    request = batch_request("poker", hands[:, :7], columns=True)
    return bytes(request.SerializeToString())


async def unread_replies(
    target: str, pids: list[int], polite: Callable[..., Any]
) -> dict[str, Any]:
    """8 window-0 connections x 100 EvaluateBatch of 100,000 hands, replies never read."""
    message = _big_batch()
    path = "/handeval.v1.HandEvaluator/EvaluateBatch"
    watch = RssWatch(pids)
    connections = [RawConnection(target, window=0) for _ in range(8)]

    def send(connection: RawConnection) -> None:
        for _ in range(100):
            connection.call(path, message, timeout=60)

    began = time.monotonic()
    await asyncio.gather(*(asyncio.to_thread(send, c) for c in connections))
    sent_seconds = time.monotonic() - began
    await asyncio.sleep(5.0)
    polite_report = await polite(target, 200, 20.0)
    answered = sum(c.headers_received for c in connections)
    held = watch.stop()
    for connection in connections:
        connection.close()
    await asyncio.sleep(3.0)
    after = round((watch.now() - watch.before) / 1024, 1)
    return {"calls": 800, "request_bytes": len(message), "sent_seconds": round(sent_seconds, 1),
            "header_frames_received": answered, "polite": polite_report, **held,
            "rss_after_close_growth_mib": after}  # fmt: skip


async def partial_uploads(target: str, pids: list[int]) -> dict[str, Any]:
    """200 streams each missing the last byte of a 1,765,000-byte EvaluateBatch."""
    message = bytes(1_765_000)
    path = "/handeval.v1.HandEvaluator/EvaluateBatch"
    watch = RssWatch(pids)
    connections = [RawConnection(target) for _ in range(2)]
    stalled: Counter[str] = Counter()

    def send(connection: RawConnection) -> None:
        for _ in range(100):
            try:
                connection.call(path, message, leave_out=1, timeout=10)
                stalled["sent"] += 1
            except (TimeoutError, ConnectionError) as error:
                stalled[type(error).__name__] += 1

    await asyncio.gather(*(asyncio.to_thread(send, c) for c in connections))
    await asyncio.sleep(5.0)
    resets = sum(c.resets for c in connections)
    held = watch.stop()
    waited = time.monotonic()
    while sum(c.resets for c in connections) < 200 and time.monotonic() - waited < 15:
        await asyncio.sleep(0.1)  # the read deadline (--upload-seconds, 10 s) ends the rest
    await asyncio.sleep(2.0)  # what core buffered goes back to the kernel once none waits
    later = {"streams_reset_by_server_15s_later": sum(c.resets for c in connections),
             "rss_15s_later_growth_mib": round((watch.now() - watch.before) / 1024, 1)}  # fmt: skip
    for connection in connections:
        connection.close()
    return {"streams": 200, "outcomes": dict(stalled), "streams_reset_by_server": resets,
            **held, **later}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    """``python -m benchmarks.cost_attacks TARGET CONNECTIONS CALLS``: the Odds flood's
    attackers (``_flood``), their codes printed as JSON at the end."""
    target, connections, calls = argv or sys.argv[1:]
    codes = asyncio.run(_flood(target, int(connections), int(calls)))
    print(json.dumps(codes), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
