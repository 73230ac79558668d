"""The gRPC section: the real server on loopback against its own ceilings.

The server is a child process (``python -m benchmarks.bench_service``: ``build_server``
plus the benchmark-only ``Bench`` service), so it has its own interpreter and GIL and the
client (this process) is not competing for it. Several client threads, each with its own
channel and connection, keep calls in flight so that the server is the bottleneck as far
as a 2-core machine allows (client and server share those cores: rates are a floor).

Measured, each for a fixed time after a short warm-up: unary ``Evaluate`` next to
``Noop``; ``EvaluateStream`` messages; ``EvaluateBatch`` at 10,000 and 100,000 hands, with
column replies and with packed ones, next to ``Echo`` of the same bytes; latency p50/p99
of the unary calls; and the start-up of ``python -m service`` until health answers
SERVING. The calls compared with each other are measured in interleaved rounds
(``interleaved``), so that each ratio is the median of ratios taken moments apart. A batch
call counts once the client holds the numpy arrays (the typed client's ``batch_method``):
decoding the reply is the caller's cost of the layout it asked for.
"""

from __future__ import annotations

import functools
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import grpc
import numpy as np
import numpy.typing as npt
from handeval_client import batch_request
from handeval_client.client import batch_method
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb
from handeval_client.gen.handeval.v1 import handeval_pb2_grpc as pb_grpc

from benchmarks.hands import NamedDeal
from benchmarks.launcher import ServerProcess, start_server
from evaluators.cards import card_text
from evaluators.inputs import Game
from service.gen.handeval.bench.v1 import bench_pb2 as bench_pb
from service.gen.handeval.bench.v1 import bench_pb2_grpc as bench_grpc

MAX_MESSAGE = 64 * 1024 * 1024
START_TIMEOUT = 60.0


@dataclass
class Measured:
    """Calls completed in a timed window, and each call's latency."""

    calls: int
    seconds: float
    latencies: list[float] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.calls / self.seconds if self.seconds else 0.0

    def percentile_ms(self, q: float) -> float | None:
        if not self.latencies:
            return None
        return float(np.percentile(np.asarray(self.latencies), q) * 1e3)


def bench_server(threads: int = 32) -> ServerProcess:
    """``python -m benchmarks.bench_service`` on 127.0.0.1, any free port; stop() ends it."""
    return start_server(
        "--threads",
        str(threads),
        "--max-message-bytes",
        str(MAX_MESSAGE),
        command=(sys.executable, "-m", "benchmarks.bench_service"),
    )


def new_channel(target: str) -> grpc.Channel:
    """A channel with a connection of its own (no subchannel sharing between channels)."""
    return grpc.insecure_channel(
        target,
        options=[
            ("grpc.use_local_subchannel_pool", 1),
            ("grpc.max_receive_message_length", MAX_MESSAGE),
            ("grpc.max_send_message_length", MAX_MESSAGE),
        ],
    )


Call = Callable[[], object]


def hammer(
    channels: Sequence[grpc.Channel],
    make_call: Callable[[grpc.Channel], Call],
    seconds: float,
    warmup: float,
) -> Measured:
    """One thread per channel, each calling back to back; counts calls that end inside the
    timed window (after ``warmup``) and their latencies."""
    calls = [make_call(channel) for channel in channels]
    start = time.perf_counter() + warmup
    stop = start + seconds
    latencies: list[list[float]] = [[] for _ in calls]

    def worker(call: Call, mine: list[float]) -> None:
        now = time.perf_counter()
        while now < stop:
            before = now
            call()
            now = time.perf_counter()
            if before >= start and now <= stop:
                mine.append(now - before)

    threads = [
        threading.Thread(target=worker, args=(call, mine), daemon=True)
        for call, mine in zip(calls, latencies, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    flat = [x for mine in latencies for x in mine]
    return Measured(len(flat), seconds, flat)


def stream_messages(
    channels: Sequence[grpc.Channel],
    requests: Sequence[pb.EvaluateRequest],
    seconds: float,
    warmup: float,
) -> Measured:
    """One bidi EvaluateStream per channel, fed as fast as flow control allows; counts the
    replies received inside the timed window."""
    start = time.perf_counter() + warmup
    stop = start + seconds
    counts = [0] * len(channels)

    def feed() -> Iterator[pb.EvaluateRequest]:
        index = 0
        while time.perf_counter() < stop:
            yield requests[index % len(requests)]
            index += 1

    def worker(position: int, channel: grpc.Channel) -> None:
        stub = pb_grpc.HandEvaluatorStub(channel)
        for _ in stub.EvaluateStream(feed()):
            now = time.perf_counter()
            if start <= now <= stop:
                counts[position] += 1

    threads = [
        threading.Thread(target=worker, args=(i, c), daemon=True) for i, c in enumerate(channels)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return Measured(sum(counts), seconds)


def evaluate_requests(deal: NamedDeal, count: int) -> list[pb.EvaluateRequest]:
    """Poker high requests (card text, as a caller sends them) for the deal's first hands."""
    return [
        pb.EvaluateRequest(
            game=pb.GAME_POKER_HIGH, hand=[card_text(c) for c in hand], request_id=str(i)
        )
        for i, (hand, _) in enumerate(deal.singles(count))
    ]


@dataclass(frozen=True)
class GrpcResult:
    name: str
    rate: float
    unit: str
    p50_ms: float | None = None
    p99_ms: float | None = None
    note: str = ""
    rounds: tuple[float, ...] = ()
    """The rate of each round, in round order: a ratio of two rows of one group is the
    median of their per-round ratios (each pair measured back to back)."""


Member = tuple[str, Callable[[grpc.Channel], Call]]


def interleaved(
    members: Sequence[Member],
    channels: Sequence[grpc.Channel],
    seconds: float,
    rounds: int,
    progress: Callable[[str], None],
) -> list[list[Measured]]:
    """Each member's window, one after the other, ``rounds`` times: a ceiling and the calls
    measured against it see the same moments of a machine whose speed drifts (this VM's
    rates move by a third within a minute), so their per-round ratios are comparable."""
    warm = min(0.5, seconds / 2)
    measured: list[list[Measured]] = [[] for _ in members]
    for number in range(rounds):
        for (name, make), runs in zip(members, measured, strict=True):
            progress(f"grpc: {name} (round {number + 1} of {rounds})")
            runs.append(hammer(channels, make, seconds, warm))
    return measured


def _result(name: str, runs: Sequence[Measured], scale: int, unit: str, note: str) -> GrpcResult:
    """The median round's rate and latencies, with every round's rate."""
    middle = sorted(runs, key=lambda m: m.rate)[len(runs) // 2]
    return GrpcResult(
        name,
        middle.rate * scale,
        unit,
        middle.percentile_ms(50),
        middle.percentile_ms(99),
        note,
        tuple(m.rate * scale for m in runs),
    )


def _echo_call(channel: grpc.Channel, request: bench_pb.EchoRequest) -> Call:
    method = bench_grpc.BenchStub(channel).Echo
    return lambda: method(request)


def _batch_call(channel: grpc.Channel, request: pb.EvaluateBatchRequest) -> Call:
    method = batch_method(channel)
    return lambda: method(request)


def batch_group(hands: npt.NDArray[np.uint8]) -> list[Member]:
    """Echo of the hands' bytes (the ceiling), then EvaluateBatch of them (Poker high) with
    column replies and with packed ones: the calls a batch ratio compares."""
    size = len(hands)
    echo = bench_pb.EchoRequest(payload=hands.tobytes())
    return [
        (f"Echo {size:,} hands' bytes (ceiling)", functools.partial(_echo_call, request=echo)),
        *(
            (
                f"EvaluateBatch {size:,} 7-card hands, {layout}",
                functools.partial(
                    _batch_call,
                    request=batch_request(Game.POKER_HIGH, hands, columns=layout == "columns"),
                ),
            )
            for layout in ("columns", "packed")
        ),
    ]


def tonk_group(hands: npt.NDArray[np.uint8]) -> list[Member]:
    """Echo of 10-card Tonk hands' bytes (the ceiling), then EvaluateBatch of them with
    column replies: the slowest game's batch against the transport of the same bytes."""
    size = len(hands)
    echo = bench_pb.EchoRequest(payload=hands.tobytes())
    request = batch_request(Game.TONK, hands, columns=True)
    return [
        (
            f"Echo {size:,} Tonk-10 hands' bytes (ceiling)",
            functools.partial(_echo_call, request=echo),
        ),
        (
            f"EvaluateBatch {size:,} Tonk-10 hands, columns",
            functools.partial(_batch_call, request=request),
        ),
    ]


def run_grpc(
    deal: NamedDeal,
    seconds: float,
    batch_sizes: Sequence[int],
    threads: int,
    repeats: int,
    progress: Callable[[str], None],
    tonk: NamedDeal | None = None,
) -> list[GrpcResult]:
    """Every gRPC figure against one fresh bench server: each group (Noop and Evaluate; per
    batch size Echo, columns and packed; with ``tonk``, its 10-card hands at the largest
    size, Echo and columns) measured in ``repeats`` interleaved rounds, each figure the
    median round's."""
    server = bench_server()
    results: list[GrpcResult] = []
    try:
        channels = [new_channel(server.target) for _ in range(threads)]
        for channel in channels:
            grpc.channel_ready_future(channel).result(timeout=START_TIMEOUT)
        requests = evaluate_requests(deal, 1000)
        noop_request = bench_pb.NoopRequest()

        def evaluate_call(channel: grpc.Channel) -> Call:
            method = pb_grpc.HandEvaluatorStub(channel).Evaluate
            index = iter(range(1 << 62))
            return lambda: method(requests[next(index) % len(requests)])

        def noop_call(channel: grpc.Channel) -> Call:
            method = bench_grpc.BenchStub(channel).Noop
            return lambda: method(noop_request)

        unary: list[Member] = [
            ("Noop (ceiling)", noop_call),
            ("Evaluate, 7-card poker", evaluate_call),
        ]
        for (name, _), runs in zip(
            unary, interleaved(unary, channels, seconds, repeats, progress), strict=True
        ):
            results.append(_result(name, runs, 1, "requests/s", f"{threads} client threads"))
        progress("grpc: EvaluateStream")
        streams = sorted(
            (stream_messages(channels, requests, seconds, min(0.5, seconds / 2))
             for _ in range(repeats)),
            key=lambda m: m.rate,
        )  # fmt: skip
        results.append(
            GrpcResult(
                "EvaluateStream, 7-card poker",
                streams[len(streams) // 2].rate,
                "messages/s",
                note=f"{threads} streams",
            )
        )
        groups = [(deal.hands[:size], batch_group) for size in batch_sizes]
        if tonk is not None and batch_sizes:
            groups.append((tonk.hands[: max(batch_sizes)], tonk_group))
        for hands, make_group in groups:
            size, group = len(hands), make_group(hands)
            note = f"2 client threads, {hands.nbytes:,} bytes a request"
            for (name, _), runs in zip(
                group, interleaved(group, channels[:2], seconds, repeats, progress), strict=True
            ):
                results.append(_result(name, runs, size, "hands/s", note))
        for channel in channels:
            channel.close()
    finally:
        server.stop()
    return results


def startup_seconds() -> float:
    """Seconds from spawning ``python -m service serve`` to its ``ready`` line and health
    answering SERVING."""
    started = time.perf_counter()
    server = start_server()
    seconds = time.perf_counter() - started
    server.stop()
    return seconds
