"""A real OTLP/gRPC trace receiver: the collector's own ``TraceService`` (from the
opentelemetry-proto package), keeping every span it is sent. The tracing test checks the
server's spans with it, and ``benchmarks.tracing_overhead`` sends a traced server's spans
to it, so both see what a collector would."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from concurrent import futures
from contextlib import contextmanager

import grpc
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc
from opentelemetry.proto.common.v1.common_pb2 import KeyValue
from opentelemetry.proto.trace.v1.trace_pb2 import Span


class Receiver(trace_service_pb2_grpc.TraceServiceServicer):
    """An OTLP/gRPC trace collector that keeps every span it is sent, with its resource."""

    def __init__(self) -> None:
        self.spans: list[tuple[dict[str, object], Span]] = []
        self.lock = threading.Lock()

    def Export(
        self, request: trace_service_pb2.ExportTraceServiceRequest, context: grpc.ServicerContext
    ) -> trace_service_pb2.ExportTraceServiceResponse:
        with self.lock:
            for resource_spans in request.resource_spans:
                resource = attributes(resource_spans.resource.attributes)
                for scope_spans in resource_spans.scope_spans:
                    self.spans.extend((resource, span) for span in scope_spans.spans)
        return trace_service_pb2.ExportTraceServiceResponse()

    def named(self, name: str) -> list[tuple[dict[str, object], Span]]:
        with self.lock:
            return [(resource, span) for resource, span in self.spans if span.name == name]


def attributes(pairs: Iterable[KeyValue]) -> dict[str, object]:
    """OTLP attributes as a dict of their plain values."""
    found: dict[str, object] = {}
    for pair in pairs:
        kind = pair.value.WhichOneof("value")
        found[pair.key] = getattr(pair.value, kind) if kind else None
    return found


@contextmanager
def receiving() -> Iterator[tuple[Receiver, int]]:
    """A receiver listening on 127.0.0.1 (any free port), and its port; stopped after."""
    collector = Receiver()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    trace_service_pb2_grpc.add_TraceServiceServicer_to_server(collector, server)  # type: ignore[no-untyped-call]
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield collector, port
    finally:
        server.stop(None)
