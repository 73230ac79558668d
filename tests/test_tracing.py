"""OpenTelemetry traces: a real server exports a span per evaluator call to a real OTLP
receiver (the collector's own TraceService, from opentelemetry-proto) run here, as the
child of the caller's W3C ``traceparent``; off, nothing is traced or imported."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent import futures

import grpc
import numpy as np
import pytest
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc
from opentelemetry.proto.common.v1.common_pb2 import KeyValue
from opentelemetry.proto.trace.v1.trace_pb2 import Span, Status
from opentelemetry.sdk.trace import TracerProvider

from service.client.typed_client import HandevalClient, HandevalError, evaluate_request
from service.server import tracing
from tests.conftest import ServerProcess

TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT_ID = "00f067aa0ba902b7"


class Receiver(trace_service_pb2_grpc.TraceServiceServicer):
    """An OTLP/gRPC trace collector that keeps every span it is sent, with its resource."""

    def __init__(self) -> None:
        self.spans: list[tuple[dict[str, object], Span]] = []
        self._lock = threading.Lock()

    def Export(
        self, request: trace_service_pb2.ExportTraceServiceRequest, context: grpc.ServicerContext
    ) -> trace_service_pb2.ExportTraceServiceResponse:
        with self._lock:
            for resource_spans in request.resource_spans:
                resource = attributes(resource_spans.resource.attributes)
                for scope_spans in resource_spans.scope_spans:
                    self.spans.extend((resource, span) for span in scope_spans.spans)
        return trace_service_pb2.ExportTraceServiceResponse()

    def named(self, name: str) -> list[tuple[dict[str, object], Span]]:
        with self._lock:
            return [(resource, span) for resource, span in self.spans if span.name == name]


def attributes(pairs: Iterable[KeyValue]) -> dict[str, object]:
    found: dict[str, object] = {}
    for pair in pairs:
        kind = pair.value.WhichOneof("value")
        found[pair.key] = getattr(pair.value, kind) if kind else None
    return found


@pytest.fixture
def receiver() -> Iterator[tuple[Receiver, int]]:
    collector = Receiver()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    trace_service_pb2_grpc.add_TraceServiceServicer_to_server(collector, server)  # type: ignore[no-untyped-call]
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    yield collector, port
    server.stop(None)


def wait_for(found: Callable[[], bool], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not found():
        assert time.monotonic() < deadline, "the spans did not arrive"
        time.sleep(0.1)


METHOD = "handeval.v1.HandEvaluator/"


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


def test_without_an_endpoint_no_call_is_traced(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(tracing.ENDPOINT_ENV, raising=False)
    assert tracing.interceptors("") == []
    monkeypatch.setenv(tracing.ENDPOINT_ENV, "http://127.0.0.1:4317")
    assert tracing.endpoint("") == "http://127.0.0.1:4317"
    assert tracing.endpoint("http://collector:4317") == "http://collector:4317"


def test_a_line_logged_during_a_call_carries_its_trace_id() -> None:
    tracer = TracerProvider().get_tracer("test")
    record = logging.LogRecord("handeval", logging.ERROR, "", 0, "error", None, None)
    record.fields = {"incident": "abc"}  # as logs.log_event sets them
    with tracer.start_as_current_span("call") as span:
        assert tracing.stamp_trace_id(record)
    trace_id = f"{span.get_span_context().trace_id:032x}"
    assert vars(record)["fields"] == {"incident": "abc", "trace_id": trace_id}
    outside = logging.LogRecord("handeval", logging.INFO, "", 0, "ready", None, None)
    assert tracing.stamp_trace_id(outside) and not hasattr(outside, "fields")
