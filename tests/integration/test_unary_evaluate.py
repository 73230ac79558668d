"""Unary Evaluate over a real server, read under the upload limits
(``service.server.registration``) and, for the plainest request, from cards read in C: the
default deadline still counts from the call's start, a request spelled out is answered as
its plain twin is, byte for byte, and a plain request the rules refuse is refused as the
long way refuses it, counted so (the C road against the long way, hand by hand:
tests/unit/service/wire/test_plain_evaluate.py)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from tests.conftest import ServerProcess
from tests.integration.test_metrics import rpc, scrape_until, value

EVALUATE = "/handeval.v1.HandEvaluator/Evaluate"
HANDLED = "grpc_server_handled_total"
PLAIN = pb.EvaluateRequest(
    game=pb.GAME_POKER_HIGH, hand=["As", "Kd", "7c", "7h", "2s", "Jd", "9c"], request_id="p-1"
)
SPELLED_OUT = pb.EvaluateRequest(
    game=pb.GAME_POKER_HIGH, hand=["as", "KD", "7♣", "7H", "2S", "jd", "9C"], request_id="p-1"
)
REPEATED = pb.EvaluateRequest(game=pb.GAME_POKER_HIGH, hand=["As", "Kd", "7c", "7h", "As"])
MESSAGE_DELAY_SECONDS = 1.5
"""How long a request waits to send its message: five times the default deadline below."""


def _late(message: bytes, sent: threading.Event) -> Iterator[bytes]:
    """A request stream whose one message comes ``MESSAGE_DELAY_SECONDS`` after the call."""
    sent.wait(MESSAGE_DELAY_SECONDS)
    yield message


def test_a_message_that_comes_after_the_default_deadline_is_answered_deadline_exceeded(
    launch_server: Callable[..., ServerProcess],
) -> None:
    """The default deadline starts with the call, not with its message: a call without a
    deadline whose message comes late is DEADLINE_EXCEEDED; one with its own deadline
    is answered (a call's own deadline is its own)."""
    server = launch_server("--default-deadline-seconds", "0.3", "--upload-seconds", "20")
    port = server.metrics_port()
    data = PLAIN.SerializeToString()
    with grpc.insecure_channel(server.target) as channel:
        call = channel.stream_unary(EVALUATE)
        with pytest.raises(grpc.RpcError) as late:
            call(_late(data, threading.Event()))
        assert late.value.code() is grpc.StatusCode.DEADLINE_EXCEEDED
        assert "deadline passed before the server could answer" in (late.value.details() or "")
        answered = pb.Evaluation.FromString(call(_late(data, threading.Event()), timeout=60))
        assert answered.strength > 0 and answered.request_id == "p-1"
    samples = scrape_until(
        port, lambda s: value(s, HANDLED, **rpc("Evaluate"), grpc_code="OK") == 1
    )
    assert value(samples, HANDLED, **rpc("Evaluate"), grpc_code="DeadlineExceeded") == 1


def test_a_plain_request_is_answered_as_its_spelled_out_twin_and_refused_as_the_long_way(
    launch_server: Callable[..., ServerProcess],
) -> None:
    server = launch_server()
    port = server.metrics_port()
    with grpc.insecure_channel(server.target) as channel:
        call = channel.unary_unary(EVALUATE)
        plain = call(PLAIN.SerializeToString(), timeout=30)
        assert plain == call(SPELLED_OUT.SerializeToString(), timeout=30)
        assert pb.Evaluation.FromString(plain).description == "One pair, sevens"
        with pytest.raises(grpc.RpcError) as refused:
            call(REPEATED.SerializeToString(), timeout=30)
    assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    status = rpc_status.from_call(refused.value)
    assert status is not None
    bad_request = error_details_pb2.BadRequest()
    assert status.details[0].Unpack(bad_request)
    assert [v.field for v in bad_request.field_violations] == ["hand[4]"]
    # The refused call's handled count is recorded after its status went out: wait for it
    # too, not only for the evaluator's error count (recorded before).
    samples = scrape_until(
        port,
        lambda s: (
            value(
                s, "handeval_evaluation_errors_total", game="poker_high", reason="invalid_argument"
            )
            == 1
            and value(s, HANDLED, **rpc("Evaluate"), grpc_code="InvalidArgument") == 1
        ),
    )
    assert value(samples, "handeval_hands_evaluated_total", game="poker_high") == 2
    assert value(samples, HANDLED, **rpc("Evaluate"), grpc_code="OK") == 2
    assert value(samples, HANDLED, **rpc("Evaluate"), grpc_code="InvalidArgument") == 1
