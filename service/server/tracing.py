"""OpenTelemetry traces of the evaluator's calls, opt-in: a span per RPC, exported by OTLP.

With an endpoint (``--otlp-endpoint``, else the standard ``OTEL_EXPORTER_OTLP_ENDPOINT``)
each call of ``handeval.v1.HandEvaluator`` gets a SERVER span named for its method, the
child of the caller's span when its metadata carries a W3C ``traceparent``, with the
game (``handeval.game``, the wire enum name), the hands it scores (``handeval.hands``: one
for Evaluate, the batch's hands, a showdown's or Odds' seats, a stream's requests) and the
status code (``rpc.grpc.status_code``, and the span's error status when not OK). A batch's
and Odds' phases are its child spans (``service.server.trace_phases``: ``handeval.batch.read``,
``.score``, ``.reply``; ``handeval.odds.plan``, ``.runouts``, ``.reply``), in the pool's
thread too. A line logged during a call carries its ``trace_id``. Health and reflection are
not traced. With ``slow_seconds`` (``--slow-call-seconds``) a unary call that takes at least
that long also logs a ``slow_call`` line (method, game, hands, status, seconds) while its span is
current, so the line carries the ``trace_id`` that leads from the log to the call's spans;
calls are otherwise not logged (``service.server.logs``: events, not requests).

Without an endpoint nothing here is imported: ``interceptors()`` answers no interceptor,
so an untraced server pays nothing. The SDK and its exporter are the ``otel`` extra
(``pip install 'handeval[otel]'``); spans leave in batches (the SDK's
``BatchSpanProcessor``, its ``OTEL_BSP_*`` settings), and the provider flushes at exit.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import grpc
from google.protobuf.message import Message
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from service.server import trace_phases
from service.server.handlers import SERVICE, WrappingInterceptor, behavior_of, rewrap
from service.server.logs import log_event
from service.wire.batch_request import BatchCall

if TYPE_CHECKING:
    from opentelemetry.trace import Tracer

ENDPOINT_ENV = "OTEL_EXPORTER_OTLP_ENDPOINT"


def endpoint(setting: str) -> str:
    """Where spans go: the setting, else the standard environment variable; empty: off."""
    return setting or os.environ.get(ENDPOINT_ENV, "")


def interceptors(setting: str, slow_seconds: float = 0.0) -> list[grpc.aio.ServerInterceptor]:
    """``[TracingInterceptor]`` exporting to ``endpoint(setting)`` and logging calls of at
    least ``slow_seconds`` (0: none), or ``[]`` when off."""
    where = endpoint(setting)
    if not where:
        return []
    return [TracingInterceptor(_tracer(where), slow_seconds)]


def _tracer(where: str) -> Tracer:
    """This process's tracer, exporting to ``where`` over OTLP/gRPC (plaintext unless
    ``https://``), and the log filter that stamps lines with the current trace id."""
    from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    provider = TracerProvider(resource=Resource.create({"service.name": "handeval"}))
    exporter = OTLPSpanExporter(endpoint=where, insecure=not where.startswith("https://"))
    provider.add_span_processor(BatchSpanProcessor(exporter))
    logging.getLogger("handeval").addFilter(stamp_trace_id)
    tracer = provider.get_tracer("handeval")
    trace_phases.trace_with(tracer)
    return tracer


def stamp_trace_id(record: logging.LogRecord) -> bool:
    """Add the current span's trace id to a log line's fields (``logs.log_event``)."""
    from opentelemetry import trace

    context = trace.get_current_span().get_span_context()
    if context.is_valid:
        record.fields = {**getattr(record, "fields", {}), "trace_id": f"{context.trace_id:032x}"}
    return True


def hands_of(request: Any) -> int:
    """The hands a request scores: a batch's hands, a showdown's or Odds' seats, else one
    (an Evaluate read in C, ``service.wire.requests.PlainEvaluate``, too; none for bytes
    that were no request)."""
    if isinstance(request, tuple):
        return 1
    if isinstance(request, BatchCall):
        hand_size = request.message.hand_size
        return len(request.hands) // hand_size if hand_size else 0
    if not isinstance(request, Message):
        return 0
    fields, message = request.DESCRIPTOR.fields_by_name, _as_any(request)
    if "hand_size" in fields:
        size: int = message.hand_size
        return len(message.hands) // size if size else 0
    if "seats" in fields:
        return len(message.seats)
    return 1


def _as_any(message: Message) -> Any:
    """A request whose fields are read by name (any of the service's request types)."""
    return message


def game_of(request: Any) -> str:
    """The wire name of a request's game (``GAME_TONK``), or ``""`` when it has none or a
    number this build does not know."""
    if isinstance(request, tuple):
        game = request[0]
    elif isinstance(request, BatchCall | Message):
        game = getattr(request.message if isinstance(request, BatchCall) else request, "game", None)
    else:
        game = None
    known = _GAME_VALUES.get(game) if game is not None else None
    return "" if known is None else str(known.name)


_GAME_VALUES = pb.DESCRIPTOR.enum_types_by_name["Game"].values_by_number
"""Game enum number -> its value (every request's ``game`` is this enum)."""


class TracingInterceptor(WrappingInterceptor):
    """A span around each evaluator call (see the module docstring); wrapped handlers are
    cached per method, as the metrics' are."""

    def __init__(self, tracer: Tracer, slow_seconds: float = 0.0) -> None:
        super().__init__()
        self._tracer = tracer
        self._slow_seconds = slow_seconds

    def wrap(self, handler: grpc.RpcMethodHandler, method: str) -> grpc.RpcMethodHandler:
        from opentelemetry.propagate import extract
        from opentelemetry.trace import SpanKind, Status, StatusCode

        behavior = behavior_of(handler)
        streaming_in = handler.request_streaming
        service, _, name = method.strip("/").partition("/")
        tracer = self._tracer
        # The proto says whether a call streams: a unary method may be registered
        # request-streaming to bound its upload (service.server.uploads).
        proto = SERVICE.methods_by_name.get(name) if service == SERVICE.full_name else None
        streaming = proto is None or proto.client_streaming or proto.server_streaming
        slow_seconds = 0.0 if streaming else self._slow_seconds
        read_as_stream = streaming_in and proto is not None and not proto.client_streaming

        async def traced(request: Any, context: grpc.aio.ServicerContext) -> Any:
            carrier = {key: value for key, value in context.invocation_metadata() or ()}
            seen = _Seen()
            if read_as_stream:
                context = _NotingRead(context, seen)
            elif streaming_in:
                request = _noting(request, seen)
            else:
                seen.hands, seen.game = hands_of(request), game_of(request)
            with tracer.start_as_current_span(
                f"{service}/{name}",
                context=extract(carrier),
                kind=SpanKind.SERVER,
                attributes={"rpc.system": "grpc", "rpc.service": service, "rpc.method": name},
                record_exception=False,
                set_status_on_exception=False,
            ) as span:
                code, started = grpc.StatusCode.UNKNOWN, time.perf_counter()
                try:
                    response = await behavior(request, context)
                    code = context.code() or grpc.StatusCode.OK
                    return response
                except BaseException:
                    code = context.code() or (
                        grpc.StatusCode.CANCELLED if context.cancelled() else code
                    )
                    raise
                finally:
                    span.set_attribute("handeval.game", seen.game)
                    span.set_attribute("handeval.hands", seen.hands)
                    span.set_attribute("rpc.grpc.status_code", code.value[0])
                    if code is not grpc.StatusCode.OK:
                        span.set_status(Status(StatusCode.ERROR, code.name))
                    seconds = time.perf_counter() - started
                    if slow_seconds and seconds >= slow_seconds:
                        _log_slow(name, seen, code, seconds)

        return rewrap(handler, traced, traced)


def _log_slow(method: str, seen: _Seen, code: grpc.StatusCode, seconds: float) -> None:
    """The ``slow_call`` line, written while the call's span is current (its ``trace_id``)."""
    log_event("slow_call", logging.WARNING, method=method, game=seen.game, hands=seen.hands,
              code=code.name, seconds=round(seconds, 6))  # fmt: skip


@dataclass
class _Seen:
    """What a call's requests said: the hands they score, and the game of the first."""

    hands: int = 0
    game: str = ""


class _NotingRead:
    """The context of a unary call read as a stream (``service.server.uploads`` reads its
    one message with ``read()``): that message is noted into ``seen``."""

    def __init__(self, context: grpc.aio.ServicerContext, seen: _Seen) -> None:
        self._context = context
        self._seen = seen

    async def read(self) -> Any:
        request = await self._context.read()
        if request is not grpc.aio.EOF:
            self._seen.hands, self._seen.game = hands_of(request), game_of(request)
        return request

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)


async def _noting(requests: AsyncIterator[Any], seen: _Seen) -> AsyncIterator[Any]:
    """A stream's requests, counted into ``seen``."""
    async for request in requests:
        seen.hands += hands_of(request)
        seen.game = seen.game or game_of(request)
        yield request
