"""Hostile callers against a real server: a flood of idle streams, streams left idle, more
streams on one connection than it may open, batches cancelled or past their deadline and
replies too large to send, each counted in ``/metrics`` with its real code."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from handeval_client import evaluate_request
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb
from handeval_client.gen.handeval.v1 import handeval_pb2_grpc as pb_grpc

from tests.conftest import ServerProcess, health_status
from tests.integration.test_limits import HAND, SLOW_BATCH, OpenStream
from tests.integration.test_metrics import rpc, scrape_until, value

HANDLED = "grpc_server_handled_total"
STREAM = rpc("EvaluateStream", "bidi_stream")
BATCH = rpc("EvaluateBatch")
SERVING = health_pb2.HealthCheckResponse.SERVING
OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]
"""Channels to one target share one connection unless each has its own subchannel pool."""


async def _flood(target: str, connections: int, per_connection: int, port: int) -> dict[str, int]:
    """Open ``connections x per_connection`` EvaluateStreams that never send, wait until the
    server has started them all, then make 200 unary calls and 20 health checks on a
    connection of its own; the tally of what happened."""
    channels = [
        grpc.aio.insecure_channel(target, options=OWN_CONNECTION) for _ in range(connections)
    ]
    idle = [
        pb_grpc.HandEvaluatorStub(channel).EvaluateStream(timeout=120)
        for channel in channels
        for _ in range(per_connection)
    ]
    opened = connections * per_connection
    samples = await asyncio.to_thread(
        scrape_until,
        port,
        lambda s: value(s, "grpc_server_started_total", **STREAM) >= opened,
        60.0,
    )
    tally = {"started": int(value(samples, "grpc_server_started_total", **STREAM))}
    async with grpc.aio.insecure_channel(target, options=OWN_CONNECTION) as polite:
        stub = pb_grpc.HandEvaluatorStub(polite)
        health = health_pb2_grpc.HealthStub(polite)
        ok = failed = serving = 0
        for index in range(200):
            try:
                reply = await stub.Evaluate(evaluate_request("poker", HAND), timeout=10)
                ok += reply.strength > 0
            except grpc.aio.AioRpcError:
                failed += 1
            if index % 10 == 0:
                check = await health.Check(health_pb2.HealthCheckRequest(), timeout=10)
                serving += check.status == SERVING
        tally |= {"ok": ok, "failed": failed, "serving": serving}
    tally["still_open"] = sum(not call.done() for call in idle)
    for call in idle:
        call.cancel()
    for channel in channels:
        await channel.close()
    return tally


def test_a_thousand_idle_streams_leave_a_normal_client_and_health_unharmed(
    launch_server: Callable[..., ServerProcess],
) -> None:
    server = launch_server("--stream-idle-seconds", "300", "--max-connection-age-seconds", "0")
    tally = asyncio.run(_flood(server.target, 10, 100, server.metrics_port()))
    assert tally == {
        "started": 1000, "ok": 200, "failed": 0, "serving": 20, "still_open": 1000,
    }  # fmt: skip
    assert health_status(server.target) == SERVING
    assert server.stop() == 0


def test_idle_streams_are_ended_deadline_exceeded_and_counted_so(
    launch_server: Callable[..., ServerProcess],
) -> None:
    server = launch_server("--stream-idle-seconds", "0.5")
    port = server.metrics_port()
    with grpc.insecure_channel(server.target) as channel:
        stub = pb_grpc.HandEvaluatorStub(channel)
        streams = [OpenStream(stub, timeout=60) for _ in range(5)]
        assert streams[0].send().strength > 0, "a message first: idle after it counts too"
        ended = time.monotonic() + 30
        while not all(s.call.done() for s in streams) and time.monotonic() < ended:
            time.sleep(0.05)
        codes = {s.call.code() for s in streams}
        assert codes == {grpc.StatusCode.DEADLINE_EXCEEDED}
        assert all("idle" in (s.call.details() or "") for s in streams)
        assert stub.Evaluate(evaluate_request("poker", HAND), timeout=10).strength > 0
        assert health_status(server.target) == SERVING
        for stream in streams:
            stream.close()
    s = scrape_until(port, lambda s: value(s, HANDLED, **STREAM, grpc_code="DeadlineExceeded") >= 5)
    assert value(s, HANDLED, **STREAM, grpc_code="DeadlineExceeded") == 5
    assert value(s, HANDLED, **STREAM, grpc_code="OK") == 0
    assert server.stop() == 0


def test_streams_over_the_per_connection_cap_wait_in_the_client(
    launch_server: Callable[..., ServerProcess],
) -> None:
    server = launch_server("--max-streams-per-connection", "2")
    port = server.metrics_port()
    with grpc.insecure_channel(server.target, OWN_CONNECTION) as channel:
        stub = pb_grpc.HandEvaluatorStub(channel)
        first, second = OpenStream(stub, timeout=60), OpenStream(stub, timeout=60)
        assert first.send().strength > 0 and second.send().strength > 0
        waiting = OpenStream(stub, timeout=1.5)
        with pytest.raises(grpc.RpcError) as late:
            waiting.send()
        assert late.value.code() is grpc.StatusCode.DEADLINE_EXCEEDED
        s = scrape_until(port, lambda s: False, timeout=0)
        assert value(s, "grpc_server_started_total", **STREAM) == 2, "the third never started"
        with grpc.insecure_channel(server.target, OWN_CONNECTION) as other:
            other_stub = pb_grpc.HandEvaluatorStub(other)
            assert OpenStream(other_stub, timeout=30).send().strength > 0, "per connection"
        first.close()
        later = OpenStream(stub, timeout=30)
        assert later.send().strength > 0, "a freed place lets the next stream start"
        second.close()
        later.close()
    assert server.stop() == 0


ENDS = ("Canceled", "OK", "DeadlineExceeded", "Unknown")


def test_expired_batches_and_cancelled_streams_count_their_real_code(
    launch_server: Callable[..., ServerProcess],
) -> None:
    server = launch_server("--threads", "1", "--default-deadline-seconds", "0.001")
    port = server.metrics_port()
    small = pb.EvaluateBatchRequest(game=pb.GAME_TONK, hands=SLOW_BATCH.hands[:10], hand_size=10)
    with grpc.insecure_channel(server.target) as channel:
        stub = pb_grpc.HandEvaluatorStub(channel)
        for _ in range(3):  # no deadline of their own: the server's 1 ms one
            with pytest.raises(grpc.RpcError) as late:
                stub.EvaluateBatch(SLOW_BATCH)
            assert late.value.code() is grpc.StatusCode.DEADLINE_EXCEEDED
        assert len(stub.EvaluateBatch(small, timeout=30).strength) == 1, "the thread is free"
        stream = OpenStream(stub, timeout=60)
        assert stream.send().strength > 0
        stream.call.cancel()  # before close(), which half-closes first
        stream.close()
    s = scrape_until(
        port, lambda s: sum(value(s, HANDLED, **STREAM, grpc_code=c) for c in ENDS) >= 1
    )
    assert value(s, HANDLED, **BATCH, grpc_code="DeadlineExceeded") == 3
    assert value(s, HANDLED, **BATCH, grpc_code="OK") == 1
    # A stream cancelled while idle: grpc.aio either cancels the handler (Canceled) or,
    # when its read saw the end first, lets it return after every reply went out (OK).
    assert {c: value(s, HANDLED, **STREAM, grpc_code=c) for c in ENDS} in (
        {"Canceled": 1, "OK": 0, "DeadlineExceeded": 0, "Unknown": 0},
        {"Canceled": 0, "OK": 1, "DeadlineExceeded": 0, "Unknown": 0},
    )
    assert server.stop() == 0


def test_a_reply_too_large_to_send_is_resource_exhausted_and_counted_so(
    launch_server: Callable[..., ServerProcess],
) -> None:
    server = launch_server("--max-message-bytes", "65536")
    port = server.metrics_port()
    one_card_hands = pb.EvaluateBatchRequest(
        game=pb.GAME_TONK, hands=bytes(range(40, 52)) * 5_000, hand_size=1
    )
    with grpc.insecure_channel(server.target) as channel:
        stub = pb_grpc.HandEvaluatorStub(channel)
        with pytest.raises(grpc.RpcError) as too_large:
            stub.EvaluateBatch(one_card_hands, timeout=30)
        assert too_large.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "65,536" in (too_large.value.details() or "")
    s = scrape_until(port, lambda s: value(s, HANDLED, **BATCH, grpc_code="ResourceExhausted") >= 1)
    assert value(s, HANDLED, **BATCH, grpc_code="ResourceExhausted") == 1
    assert value(s, HANDLED, **BATCH, grpc_code="OK") == 0
    assert server.stop() == 0
