"""gRPC's own door, below the servicer (``service.server.build.channel_options``): a burst of
calls is answered, never dropped as CANCELLED without details or left out of the metrics;
connections over the cap are refused at once and idle ones closed, so they cannot lock new
clients out; a header block over the metadata limit is refused every time; rapid reset
fails no polite call, and a PING flood is stopped."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from collections.abc import Callable

import grpc
from grpc_health.v1 import health_pb2
from handeval_client import evaluate_request
from handeval_client.gen.handeval.v1 import handeval_pb2_grpc as pb_grpc

from benchmarks import raw_h2
from tests.conftest import ROOT, ServerProcess, health_status

REQUEST = evaluate_request("poker", "Ah Kh Qh Jh Th 2c 3d")
BURST = 5_000
BURST_CONNECTIONS = 50
"""100 streams each (the per-connection cap): all 5,000 calls in flight at once."""
OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]


def _evaluate_counts(metrics_port: int) -> tuple[float, float]:
    """``grpc_server_started_total`` and the sum of ``grpc_server_handled_total`` of Evaluate."""
    url = f"http://127.0.0.1:{metrics_port}/metrics"
    with urllib.request.urlopen(url, timeout=10) as reply:
        text = reply.read().decode()
    started = handled = 0.0
    for line in text.splitlines():
        if 'grpc_method="Evaluate"' not in line:
            continue
        if line.startswith("grpc_server_started_total{"):
            started += float(line.rsplit(" ", 1)[1])
        elif line.startswith("grpc_server_handled_total{"):
            handled += float(line.rsplit(" ", 1)[1])
    return started, handled


async def _burst(target: str) -> Counter[tuple[str, str]]:
    channels = [
        grpc.aio.insecure_channel(target, options=OWN_CONNECTION) for _ in range(BURST_CONNECTIONS)
    ]
    stubs = [pb_grpc.HandEvaluatorStub(channel) for channel in channels]
    codes: Counter[tuple[str, str]] = Counter()

    async def one(index: int) -> None:
        try:
            await stubs[index % BURST_CONNECTIONS].Evaluate(REQUEST, timeout=60)
            codes["OK", ""] += 1
        except grpc.aio.AioRpcError as error:
            codes[error.code().name, error.details() or ""] += 1

    await asyncio.gather(*(one(i) for i in range(BURST)))
    for channel in channels:
        await channel.close()
    return codes


def test_five_thousand_calls_in_flight_are_never_cancelled_unseen_and_all_counted(
    launch_server: Callable[..., ServerProcess],
) -> None:
    server = launch_server()
    port = server.metrics_port()
    started_before, handled_before = _evaluate_counts(port)
    codes = asyncio.run(_burst(server.target))
    assert sum(codes.values()) == BURST
    assert not [code for code in codes if code[0] == "CANCELLED"], codes
    assert all(details for code, details in codes if code != "OK"), codes
    deadline = time.monotonic() + 30
    while True:
        started, handled = _evaluate_counts(port)
        if handled - handled_before >= BURST or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert started - started_before == BURST
    assert handled - handled_before == BURST


def _call(target: str) -> str:
    with grpc.insecure_channel(target, options=OWN_CONNECTION) as channel:
        try:
            pb_grpc.HandEvaluatorStub(channel).Evaluate(REQUEST, timeout=10)
            return "OK"
        except grpc.RpcError as error:
            return str(error.code().name)


def _closed_by_server(connection: socket.socket) -> bool:
    try:
        while data := connection.recv(65536):
            del data
        return True
    except BlockingIOError:
        return False
    except OSError:
        return True


CAP = 20
HOLD_SECONDS = 15
"""Handshake and idle timeouts: long enough that the held connections are all still there
for the refused call, on a loaded machine (the excess is closed within milliseconds)."""
EXCESS_CLOSED_SECONDS = 5
SLIP = 1
"""Connections grpc 1.85's count may let past the cap under a parallel test run (seen: one,
in a few loaded runs; none alone): the excess less these must be closed at once."""


def test_connections_over_the_cap_are_closed_at_once_and_idle_ones_later(
    launch_server: Callable[..., ServerProcess],
) -> None:
    """The excess is closed as soon as it is accepted, then the handshaking and idle ones by
    their timeouts, and a new call is served. (A call made while the cap is full is
    refused UNAVAILABLE alone, and in ``benchmarks.attacks --below``; under a parallel test
    run grpc 1.85's count sometimes let one through, so it is not asserted here.)"""
    hold = str(HOLD_SECONDS)
    server = launch_server("--max-connections", str(CAP), "--handshake-timeout-seconds", hold,
                           "--max-connection-idle-seconds", hold)  # fmt: skip
    held = []
    for index in range(CAP + 10):
        connection = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        if index % 2:
            connection.sendall(raw_h2.PREFACE + raw_h2.settings())
        held.append(connection)
    for connection in held:
        connection.setblocking(False)
    deadline = time.monotonic() + EXCESS_CLOSED_SECONDS
    while sum(_closed_by_server(connection) for connection in held) < len(held) - CAP - SLIP:
        assert time.monotonic() < deadline, "the connections over the cap were not closed"
        time.sleep(0.05)
    deadline = time.monotonic() + 60
    while not all(_closed_by_server(connection) for connection in held):
        assert time.monotonic() < deadline, "idle and handshaking connections were not closed"
        time.sleep(0.2)
    for connection in held:
        connection.close()
    assert _call(server.target) == "OK"


def test_a_header_block_over_the_metadata_limit_is_refused_every_time(
    server: ServerProcess, stub: pb_grpc.HandEvaluatorStub
) -> None:
    for _ in range(5):
        assert stub.Evaluate(REQUEST, metadata=[("x-pad", "a" * 15_000)], timeout=10).strength
        try:
            stub.Evaluate(REQUEST, metadata=[("x-pad", "a" * 20_000)], timeout=10)
            raise AssertionError("a 20 KB header block was accepted")
        except grpc.RpcError as error:
            assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert "metadata size exceeds" in (error.details() or "")


def _attack(kind: str, target: str, seconds: float, *flags: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "benchmarks.transport_attacks", kind, target,
         "--seconds", str(seconds), "--connections", "4", *flags],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip


ATTACK_SECONDS = 3.0
PING_FLOOD_MAX_SECONDS = 60.0
"""Each connection stops at its GOAWAY (the third PING, normally within milliseconds), or
when a write has been blocked for 10 s (the socket's timeout)."""


def test_rapid_reset_fails_no_polite_call_and_the_server_recovers(
    launch_server: Callable[..., ServerProcess],
) -> None:
    server = launch_server()
    attacker = _attack("rapid-reset", server.target, ATTACK_SECONDS)
    codes: Counter[str] = Counter()
    with grpc.insecure_channel(server.target, options=OWN_CONNECTION) as channel:
        stub = pb_grpc.HandEvaluatorStub(channel)
        while attacker.poll() is None:
            try:
                stub.Evaluate(REQUEST, timeout=10)
                codes["OK"] += 1
            except grpc.RpcError as error:
                codes[error.code().name] += 1
    report = json.loads(attacker.communicate()[0])
    assert report["frames_sent"] > 1_000, "the attack ran"
    assert set(codes) == {"OK"}, codes
    assert health_status(server.target) == health_pb2.HealthCheckResponse.SERVING
    assert _call(server.target) == "OK"
    assert server.other_lines == []


def test_a_ping_flood_is_stopped_on_every_connection(
    launch_server: Callable[..., ServerProcess],
) -> None:
    """Each flooding connection is sent GOAWAY (``too_many_pings``) or no longer read (its
    unsent PING acknowledgements pile up until a write blocks for 10 s): either way its
    attacker stops long before the attack's own end, and the server answers. Which of the
    two comes first depends on the machine's load (on a busy one, all four connections once
    stopped by blocked writes, none by GOAWAY), so the test holds the end, not the way."""
    server = launch_server()
    began = time.monotonic()
    flood = _attack("ping-flood", server.target, PING_FLOOD_MAX_SECONDS, "--until-goaway")
    report = json.loads(flood.communicate()[0])
    assert time.monotonic() - began < PING_FLOOD_MAX_SECONDS / 2, report
    assert _call(server.target) == "OK"
