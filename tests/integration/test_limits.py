"""Per-process limits (``service.server.limits`` wired by ``service.server.build``): the bound on
work in progress, the default deadline, message sizes tied to the batch limit, keepalive enforcement
and max connection age, each against a real server."""

from __future__ import annotations

import queue
import signal
import time
from collections.abc import Callable, Iterator

import grpc
import numpy as np
import pytest
from grpc_health.v1 import health_pb2
from handeval_client import HandevalClient, HandevalError, evaluate_request, odds_request
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb
from handeval_client.gen.handeval.v1 import handeval_pb2_grpc as pb_grpc

from tests.conftest import ServerProcess, health_status

HAND = "Ah Kh Qh Jh Th 2c 3d"
WAIT_SECONDS = 30


class OpenStream:
    """An ``EvaluateStream`` held open: requests go in on ``send``, replies come out of
    ``replies``; it holds nothing while it waits."""

    def __init__(self, stub: pb_grpc.HandEvaluatorStub, timeout: float | None = None) -> None:
        self._requests: queue.Queue[pb.EvaluateRequest | None] = queue.Queue()
        self.call = stub.EvaluateStream(iter(self._requests.get, None), timeout=timeout)

    def send(self) -> pb.Evaluation:
        self._requests.put(evaluate_request("poker", HAND))
        reply: pb.Evaluation = next(self.call)
        return reply

    def close(self) -> None:
        self._requests.put(None)
        self.call.cancel()


def _wait_until_done(call: grpc.Future, meanwhile: Callable[[], object] = lambda: None) -> None:
    """Until the server ends ``call`` (doing ``meanwhile`` between looks), never past
    ``WAIT_SECONDS``: the test waits for the event, not for a time it assumes enough."""
    ended = time.monotonic() + WAIT_SECONDS
    while not call.done() and time.monotonic() < ended:
        meanwhile()
        time.sleep(0.02)
    assert call.done(), f"the server did not end the call within {WAIT_SECONDS} s"


@pytest.fixture
def streams() -> Iterator[list[OpenStream]]:
    opened: list[OpenStream] = []
    yield opened
    for stream in opened:
        stream.close()


SLOW_BATCH = pb.EvaluateBatchRequest(
    game=pb.GAME_TONK,
    hands=np.random.default_rng(7)
    .permuted(np.tile(np.arange(52, dtype=np.uint8), (100_000, 1)), axis=1)[:, :10]
    .tobytes(),
    hand_size=10,
)
"""100,000 random 10-card Tonk hands, the slowest batch there is: ~10 ms of one thread's
work with the compiled kernels, too quick to hold a slot for certain."""
LONG_SAMPLES = 10**9
LONG_ODDS = odds_request("poker-high", [(f"p{i}", "?2") for i in range(9)], samples=LONG_SAMPLES)
"""Minutes of sampling at any speed Odds may reach (10,000,000 run-outs of nine seats took
1.7 s with Odds in C, inside ``SLOT_HELD_SECONDS``): it holds the pool's one slot until its
deadline. The server is told to allow it (``ALLOW_LONG_ODDS``)."""
ALLOW_LONG_ODDS = ("--max-odds-samples", str(LONG_SAMPLES), "--cpu-budget-seconds", "100000")
SLOT_HELD_SECONDS = 3.0


def test_pool_work_over_the_bound_is_refused_cheap_calls_and_probes_still_answer(
    launch_server: Callable[..., ServerProcess], streams: list[OpenStream]
) -> None:
    server = launch_server(
        "--threads", "2", "--max-concurrent-rpcs", "1", "--admission-wait-seconds", "0",
        *ALLOW_LONG_ODDS,
    )  # fmt: skip
    with grpc.insecure_channel(server.target) as channel:
        stub = pb_grpc.HandEvaluatorStub(channel)
        for _ in range(3):
            streams.append(OpenStream(stub))
        assert stub.Evaluate(evaluate_request("poker", HAND), timeout=10).strength > 0
        assert streams[0].send().strength > 0, "an idle stream holds no slot"
        holder = stub.Odds.future(LONG_ODDS, timeout=SLOT_HELD_SECONDS)
        refused: list[grpc.RpcError] = []
        evaluated = 0
        health: list[int] = []
        while not holder.done():
            assert stub.Evaluate(evaluate_request("poker", HAND), timeout=10).strength > 0
            assert streams[1].send().strength > 0
            evaluated += 1
            health.append(health_status(server.target))
            try:
                stub.EvaluateBatch(SLOW_BATCH, timeout=60)
            except grpc.RpcError as error:
                refused.append(error)
        assert holder.exception().code() is grpc.StatusCode.DEADLINE_EXCEEDED
        assert evaluated, "the cheap lane answers while Odds holds the pool's one slot"
        assert refused, "batches arriving while Odds held the one slot are refused"
        assert {e.code() for e in refused} == {grpc.StatusCode.RESOURCE_EXHAUSTED}
        assert "all 1 threads for batches and Odds are busy" in (refused[0].details() or "")
        assert set(health) <= {health_pb2.HealthCheckResponse.SERVING}
        assert stub.Evaluate(evaluate_request("poker", HAND), timeout=10).strength > 0


def test_a_call_without_a_deadline_gets_the_default_one(
    launch_server: Callable[..., ServerProcess], streams: list[OpenStream]
) -> None:
    server = launch_server("--default-deadline-seconds", "3")
    with grpc.insecure_channel(server.target) as channel:
        stub = pb_grpc.HandEvaluatorStub(channel)
        bare, own = OpenStream(stub), OpenStream(stub, timeout=60)
        streams += [bare, own]
        assert bare.send().strength > 0 and own.send().strength > 0
        _wait_until_done(bare.call)
        assert bare.call.code() is grpc.StatusCode.DEADLINE_EXCEEDED
        assert own.send().strength > 0, "a call's own deadline is its own"
        assert stub.Evaluate(evaluate_request("poker", HAND)).strength > 0


def test_a_batch_at_the_hand_limit_fits_the_message_limits(
    launch_server: Callable[..., ServerProcess],
) -> None:
    server = launch_server("--max-batch-hands", "20000")
    hands = bytes(range(10)) * 20_000
    with HandevalClient(server.target) as client:
        result = client.evaluate_batch("tonk", hands, hand_size=10)
        assert len(result.strength) == 20_000
        over = pb.EvaluateBatchRequest(game=pb.GAME_TONK, hands=hands + bytes(range(10)),
                                       hand_size=10)  # fmt: skip
        with pytest.raises(HandevalError) as refused:
            client.send_batch(over)
        assert refused.value.code is grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "20000" in refused.value.message.replace(",", "")
        huge = pb.EvaluateRequest(game=pb.GAME_TONK, hand=["Ah"] * 200_000)
        with pytest.raises(HandevalError) as too_big:
            client.send_evaluate(huge)
        assert too_big.value.code is grpc.StatusCode.RESOURCE_EXHAUSTED
        assert client.health() == "SERVING"


def test_a_client_pinging_faster_than_permitted_is_sent_away(
    launch_server: Callable[..., ServerProcess], streams: list[OpenStream]
) -> None:
    server = launch_server("--min-ping-interval-seconds", "10")
    options = [
        ("grpc.keepalive_time_ms", 100),
        ("grpc.http2.max_pings_without_data", 0),
        ("grpc.http2.min_time_between_pings_ms", 10),
    ]
    with grpc.insecure_channel(server.target, options=options) as channel:
        stream = OpenStream(pb_grpc.HandEvaluatorStub(channel))
        streams.append(stream)
        assert stream.send().strength > 0
        ended = time.monotonic() + 15
        while not stream.call.done() and time.monotonic() < ended:
            time.sleep(0.1)
        assert stream.call.code() is grpc.StatusCode.UNAVAILABLE
        assert "ping" in (stream.call.details() or "").lower()
    with HandevalClient(server.target, keepalive_s=60) as polite:
        assert polite.evaluate("poker", HAND).strength > 0


def test_an_aged_connection_ends_its_streams_after_the_grace_and_unary_calls_go_on(
    launch_server: Callable[..., ServerProcess], streams: list[OpenStream]
) -> None:
    server = launch_server(
        "--max-connection-age-seconds", "1", "--max-connection-age-grace-seconds", "1"
    )
    with HandevalClient(server.target, retries=True) as client:
        stream = OpenStream(client._stub)
        streams.append(stream)
        assert stream.send().strength > 0
        _wait_until_done(stream.call, lambda: client.evaluate("poker", HAND))
        assert stream.call.code() is grpc.StatusCode.UNAVAILABLE
        for _ in range(5):
            assert client.evaluate("poker", HAND).strength > 0, "on a new connection"


def test_sighup_without_tls_is_logged_and_the_server_goes_on(
    launch_server: Callable[..., ServerProcess],
) -> None:
    server = launch_server()
    server.process.send_signal(signal.SIGHUP)
    assert "no TLS" in server.wait_for_event("reload", timeout=10)["message"]
    assert health_status(server.target) == health_pb2.HealthCheckResponse.SERVING
