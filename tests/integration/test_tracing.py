"""OpenTelemetry traces: a real server exports a span per evaluator call to a real OTLP
receiver (the collector's own TraceService, from opentelemetry-proto) run here, as the
child of the caller's W3C ``traceparent``, with a batch's and Odds' phases as its children;
off, nothing is traced or imported."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import grpc
import numpy as np
import pytest
from handeval_client import (
    HandevalClient,
    HandevalError,
    batch_request,
    evaluate_request,
    odds_request,
)
from opentelemetry.proto.trace.v1.trace_pb2 import Span, Status

from benchmarks.otlp_receiver import Receiver, attributes, receiving
from service.server.work import INLINE_BATCH_HANDS
from tests.conftest import ServerProcess

TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT_ID = "00f067aa0ba902b7"


@pytest.fixture
def receiver() -> Iterator[tuple[Receiver, int]]:
    with receiving() as running:
        yield running


def wait_for(found: Callable[[], bool], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not found():
        assert time.monotonic() < deadline, "the spans did not arrive"
        time.sleep(0.1)


METHOD = "handeval.v1.HandEvaluator/"
TRACEPARENT = (("traceparent", f"00-{TRACE_ID}-{PARENT_ID}-01"),)


def call(
    channel: grpc.Channel, method: str, request: object, metadata: tuple[tuple[str, str], ...]
) -> grpc.RpcError | None:
    """``method`` called with ``request`` and ``metadata``: None, or its error."""
    send = channel.unary_unary(
        f"/{METHOD}{method}",
        request_serializer=lambda m: m.SerializeToString(),
        response_deserializer=lambda b: b,
    )
    try:
        send(request, metadata=metadata, timeout=30)
    except grpc.RpcError as error:
        return error
    return None


def children(collector: Receiver, parent: Span) -> dict[str, Span]:
    """The spans whose parent is ``parent``, by name, in the order they started."""
    with collector.lock:
        found = [s for _, s in collector.spans if s.parent_span_id == parent.span_id]
    return {s.name: s for s in sorted(found, key=lambda s: s.start_time_unix_nano)}


def test_each_call_is_a_span_under_the_callers_traceparent_with_game_hands_and_status(
    launch_server: Callable[..., ServerProcess], receiver: tuple[Receiver, int]
) -> None:
    collector, port = receiver
    server = launch_server(
        "--otlp-endpoint", f"http://127.0.0.1:{port}", "--metrics-port", "0",
        env={"OTEL_BSP_SCHEDULE_DELAY": "100"},
    )  # fmt: skip
    traceparent = (("traceparent", f"00-{TRACE_ID}-{PARENT_ID}-01"),)
    with grpc.insecure_channel(server.target) as channel:
        evaluate = channel.unary_unary(
            f"/{METHOD}Evaluate",
            request_serializer=lambda m: m.SerializeToString(),
            response_deserializer=lambda b: b,
        )
        evaluate(evaluate_request("tonk", "5h 6h 7h Kd 2c"), metadata=traceparent, timeout=10)
    with HandevalClient(server.target) as client:
        client.evaluate_batch("poker-high", np.arange(15, dtype=np.uint8).reshape(3, 5))
        with pytest.raises(HandevalError):
            client.evaluate("numbers", "Ah Zz")
        replies = client.evaluate_stream([evaluate_request("tonk", "5h")] * 2)
        assert len(list(replies)) == 2
    wait_for(
        lambda: (
            len(collector.named(METHOD + "Evaluate")) >= 2
            and bool(collector.named(METHOD + "EvaluateBatch"))
            and bool(collector.named(METHOD + "EvaluateStream"))
        )
    )
    assert server.stop() == 0

    evaluations = collector.named(METHOD + "Evaluate")
    resource, child = next((r, s) for r, s in evaluations if s.parent_span_id)
    assert resource["service.name"] == "handeval"
    assert (child.trace_id.hex(), child.parent_span_id.hex()) == (TRACE_ID, PARENT_ID)
    assert child.kind == Span.SPAN_KIND_SERVER
    assert attributes(child.attributes).items() >= {
        "rpc.system": "grpc", "rpc.method": "Evaluate", "handeval.game": "GAME_TONK",
        "handeval.hands": 1, "rpc.grpc.status_code": 0,
    }.items()  # fmt: skip
    (_, refused) = next((r, s) for r, s in evaluations if not s.parent_span_id)
    assert attributes(refused.attributes)["rpc.grpc.status_code"] == 3  # INVALID_ARGUMENT
    assert refused.status.code == Status.STATUS_CODE_ERROR
    [(_, batch)] = collector.named(METHOD + "EvaluateBatch")
    assert attributes(batch.attributes)["handeval.hands"] == 3
    assert attributes(batch.attributes)["handeval.game"] == "GAME_POKER_HIGH"
    assert batch.trace_id.hex() != TRACE_ID
    [(_, stream)] = collector.named(METHOD + "EvaluateStream")
    assert attributes(stream.attributes)["handeval.hands"] == 2
    assert not collector.named("grpc.health.v1.Health/Check")


def test_batch_and_odds_phases_are_child_spans_in_the_pool_too_and_slow_call_lines_carry_trace_ids(
    launch_server: Callable[..., ServerProcess], receiver: tuple[Receiver, int]
) -> None:
    collector, port = receiver
    server = launch_server(
        "--otlp-endpoint", f"http://127.0.0.1:{port}", "--slow-call-seconds", "0.000001",
        env={"OTEL_BSP_SCHEDULE_DELAY": "100"},
    )  # fmt: skip
    pooled = np.tile(np.arange(5, dtype=np.uint8), (INLINE_BATCH_HANDS + 1, 1))
    with grpc.insecure_channel(server.target) as channel:
        big = batch_request("poker-high", pooled)
        assert call(channel, "EvaluateBatch", big, TRACEPARENT) is None
        seats = {"ann": "As Ks", "bob": "?2"}
        asked = odds_request("poker", seats, samples=3000, seed=7)
        assert call(channel, "Odds", asked, TRACEPARENT) is None
        bad = batch_request("poker-high", np.full((2, 5), 60, dtype=np.uint8))
        refused = call(channel, "EvaluateBatch", bad, TRACEPARENT)
        assert refused is not None and refused.code() == grpc.StatusCode.INVALID_ARGUMENT
        malformed = (("traceparent", "00-not-a-trace-01"),)
        assert call(channel, "Evaluate", evaluate_request("tonk", "5h 6h Kd"), malformed) is None
    wait_for(
        lambda: (
            len(collector.named(METHOD + "EvaluateBatch")) == 2
            and bool(collector.named("handeval.odds.reply"))
            and len(collector.named("handeval.batch.read")) == 2
            and bool(collector.named(METHOD + "Evaluate"))
        )
    )
    server.wait_for_event("slow_call", timeout=60, count=4)
    assert server.stop() == 0

    slow = {(line["method"], line["code"]): line for line in server.named("slow_call")}
    assert set(slow) == {
        ("EvaluateBatch", "OK"), ("Odds", "OK"), ("EvaluateBatch", "INVALID_ARGUMENT"),
        ("Evaluate", "OK"),
    }  # fmt: skip
    assert slow["Odds", "OK"].items() >= {
        "level": "warning", "game": "GAME_POKER_HIGH", "hands": 2, "trace_id": TRACE_ID,
    }.items()  # fmt: skip
    assert slow["EvaluateBatch", "INVALID_ARGUMENT"]["trace_id"] == TRACE_ID
    [(_, evaluation)] = collector.named(METHOD + "Evaluate")
    assert not evaluation.parent_span_id  # a malformed traceparent starts a new trace
    assert slow["Evaluate", "OK"]["trace_id"] == evaluation.trace_id.hex() != TRACE_ID

    batches = [span for _, span in collector.named(METHOD + "EvaluateBatch")]
    [batch] = [s for s in batches if s.status.code != Status.STATUS_CODE_ERROR]
    assert (batch.trace_id.hex(), batch.parent_span_id.hex()) == (TRACE_ID, PARENT_ID)
    assert attributes(batch.attributes)["handeval.hands"] == INLINE_BATCH_HANDS + 1
    phases = children(collector, batch)
    assert list(phases) == ["handeval.batch.read", "handeval.batch.score", "handeval.batch.reply"]
    assert all(phase.trace_id.hex() == TRACE_ID for phase in phases.values())
    assert all(phase.kind == Span.SPAN_KIND_INTERNAL for phase in phases.values())
    read, score, reply = phases.values()
    assert read.end_time_unix_nano <= score.start_time_unix_nano
    assert score.end_time_unix_nano <= reply.start_time_unix_nano <= batch.end_time_unix_nano

    [failed] = [s for s in batches if s.status.code == Status.STATUS_CODE_ERROR]
    # The batch opened (its shape is right); its cards are screened as they are scored.
    failed_phases = children(collector, failed)
    assert list(failed_phases) == ["handeval.batch.read", "handeval.batch.score"]
    screened = failed_phases["handeval.batch.score"]
    assert failed_phases["handeval.batch.read"].status.code != Status.STATUS_CODE_ERROR
    assert screened.status.code == Status.STATUS_CODE_ERROR
    assert screened.status.message == "InvalidRequest"

    [(_, odds)] = collector.named(METHOD + "Odds")
    assert odds.parent_span_id.hex() == PARENT_ID
    assert attributes(odds.attributes).items() >= {
        "handeval.game": "GAME_POKER_HIGH", "handeval.hands": 2, "rpc.grpc.status_code": 0,
    }.items()  # fmt: skip
    phases = children(collector, odds)
    assert list(phases) == ["handeval.odds.plan", "handeval.odds.runouts", "handeval.odds.reply"]
    assert attributes(phases["handeval.odds.plan"].attributes).items() >= {
        "handeval.runouts": 3000, "handeval.exact": False,
    }.items()  # fmt: skip
