"""grpc method handlers built and re-wrapped (``service.server.handlers``): each shape's
factory, the behaviour a handler calls, and a wrapping interceptor that wraps a method
once, leaving health and reflection alone."""

from __future__ import annotations

import asyncio
from typing import Any

import grpc
import pytest

from service.server.handlers import (
    SERVICE,
    Wrappers,
    WrappingInterceptor,
    behavior_of,
    make_handler,
    rewrap,
)


async def _unary(request: Any, context: Any) -> bytes:
    return b"unary"


async def _stream(request: Any, context: Any) -> bytes:
    return b"stream"


@pytest.mark.parametrize("streaming_in", [False, True])
@pytest.mark.parametrize("streaming_out", [False, True])
def test_each_shapes_handler_calls_its_behavior(streaming_in: bool, streaming_out: bool) -> None:
    handler = make_handler(streaming_in, streaming_out, _unary, None, None)
    assert (handler.request_streaming, handler.response_streaming) == (streaming_in, streaming_out)
    assert behavior_of(handler) is _unary
    rewrapped = rewrap(handler, _unary, _stream)
    assert behavior_of(rewrapped) is (_stream if streaming_out else _unary)
    assert rewrapped.request_streaming == streaming_in


class Counting(WrappingInterceptor):
    """Wraps each method's handler, counting how often it was asked to."""

    def __init__(self) -> None:
        super().__init__()
        self.wrapped_methods: list[str] = []

    def wrap(self, handler: grpc.RpcMethodHandler, method: str) -> grpc.RpcMethodHandler:
        self.wrapped_methods.append(method)
        return rewrap(handler, _stream, _stream)


class Details:
    def __init__(self, method: str) -> None:
        self.method = method


def test_an_interceptor_wraps_each_method_once_and_leaves_health_alone() -> None:
    handler = make_handler(False, False, _unary, None, None)
    counting = Counting()
    chain = Wrappers([counting])

    async def continuation(details: Any) -> grpc.RpcMethodHandler:
        return handler

    async def intercepted(method: str) -> grpc.RpcMethodHandler | None:
        return await chain.intercept_service(continuation, Details(method))

    evaluate = f"/{SERVICE.full_name}/Evaluate"
    first = asyncio.run(intercepted(evaluate))
    again = asyncio.run(intercepted(evaluate))
    health = asyncio.run(intercepted("/grpc.health.v1.Health/Check"))
    assert first is again and first is not None and behavior_of(first) is _stream
    assert health is handler
    assert counting.wrapped_methods == [evaluate]
