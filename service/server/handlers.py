"""Building and re-wrapping gRPC method handlers, for the servicer and the interceptors.

grpc has one handler factory per (request streaming, response streaming) shape; these
helpers pick it, so the servicer and each interceptor do not repeat that table. Each
interceptor wraps a method's handler once (``WrappingInterceptor``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import grpc
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

SERVICE = pb.DESCRIPTOR.services_by_name["HandEvaluator"]
"""The evaluator's service as the proto describes it: its methods are what the servicer
registers, the metrics start at zero and the traces name; the one lookup of it."""
EXEMPT_PREFIXES = ("/grpc.health.v1.Health/", "/grpc.reflection.")
"""Services no interceptor wraps and no limit counts: probes must be answered when the
server is busiest, and they are not the evaluator's traffic."""

_FACTORIES = {
    (False, False): grpc.unary_unary_rpc_method_handler,
    (False, True): grpc.unary_stream_rpc_method_handler,
    (True, False): grpc.stream_unary_rpc_method_handler,
    (True, True): grpc.stream_stream_rpc_method_handler,
}


def make_handler(
    streaming_in: bool,
    streaming_out: bool,
    behavior: Callable[..., Any],
    request_deserializer: Callable[[bytes], Any] | None,
    response_serializer: Callable[[Any], bytes] | None,
) -> grpc.RpcMethodHandler:
    handler: grpc.RpcMethodHandler = _FACTORIES[streaming_in, streaming_out](
        behavior,
        request_deserializer=request_deserializer,
        response_serializer=response_serializer,
    )
    return handler


def behavior_of(handler: grpc.RpcMethodHandler) -> Callable[..., Any]:
    """The function a handler calls, whatever its shape."""
    behavior: Callable[..., Any]
    if handler.request_streaming:
        behavior = handler.stream_stream if handler.response_streaming else handler.stream_unary
    else:
        behavior = handler.unary_stream if handler.response_streaming else handler.unary_unary
    return behavior


def rewrap(
    handler: grpc.RpcMethodHandler,
    unary_out: Callable[..., Any],
    stream_out: Callable[..., Any],
    request_deserializer: Callable[[bytes], Any] | None = None,
) -> grpc.RpcMethodHandler:
    """``handler`` with its behavior replaced by ``stream_out`` (streamed replies) or
    ``unary_out`` (one reply), keeping its shape and serializer, and its deserializer
    unless ``request_deserializer`` is given."""
    return make_handler(
        handler.request_streaming,
        handler.response_streaming,
        stream_out if handler.response_streaming else unary_out,
        request_deserializer or handler.request_deserializer,
        handler.response_serializer,
    )


class WrappingInterceptor(grpc.aio.ServerInterceptor):  # type: ignore[misc]
    """An interceptor that wraps each evaluator method's handler once: grpc.aio asks on every
    call, so ``wrap(handler, method)`` runs the first time and its answer is cached (anew if
    grpc hands over another handler). Health and reflection (``EXEMPT_PREFIXES``) pass
    untouched, and every method does while ``active`` is false."""

    def __init__(self) -> None:
        self._wrapped: dict[str, tuple[grpc.RpcMethodHandler, grpc.RpcMethodHandler]] = {}

    @property
    def active(self) -> bool:
        return True

    def wrap(self, handler: grpc.RpcMethodHandler, method: str) -> grpc.RpcMethodHandler:
        raise NotImplementedError

    def wrapped(self, handler: grpc.RpcMethodHandler, method: str) -> grpc.RpcMethodHandler:
        """``handler`` as this interceptor has it run: wrapped while ``active``."""
        return self.wrap(handler, method) if self.active else handler

    async def intercept_service(
        self, continuation: Callable[[Any], Awaitable[grpc.RpcMethodHandler | None]], details: Any
    ) -> grpc.RpcMethodHandler | None:
        handler = await continuation(details)
        method: str = details.method
        cached = self._wrapped.get(method)
        if cached is not None and cached[0] is handler:
            return cached[1]
        if handler is None or method.startswith(EXEMPT_PREFIXES):
            return handler
        wrapped = self.wrapped(handler, method)
        self._wrapped[method] = (handler, wrapped)
        return wrapped


class Wrappers(WrappingInterceptor):
    """Several wrapping interceptors as one, the first outermost: grpc.aio awaits every
    interceptor it has on every call (a coroutine and a ``functools.partial`` each), so the
    server registers this one, which asks for the handler once and caches the handler every
    active one has wrapped."""

    def __init__(self, interceptors: Sequence[WrappingInterceptor]) -> None:
        super().__init__()
        self._interceptors = tuple(interceptors)

    def wrapped(self, handler: grpc.RpcMethodHandler, method: str) -> grpc.RpcMethodHandler:
        for interceptor in reversed(self._interceptors):
            handler = interceptor.wrapped(handler, method)
        return handler
