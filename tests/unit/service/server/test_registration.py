"""The evaluator's methods registered (``service.server.registration``): every RPC of the
proto, a unary one read as a stream when ``uploads`` bound its request, and each call
without a deadline given the default one before anything else."""

from __future__ import annotations

import asyncio
from typing import Any

from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from service.server.deadlines import NO_DEADLINE_S
from service.server.handlers import SERVICE, behavior_of
from service.server.registration import method_handlers, write_reply
from service.server.uploads import Uploads


class Recording:
    """A servicer whose every method records the request and the deadline it was given."""

    def __init__(self) -> None:
        self.seen: list[tuple[object, float | None]] = []

    def __getattr__(self, name: str) -> Any:
        async def method(request: object, context: Any) -> bytes:
            self.seen.append((request, context.time_remaining()))
            return b""

        return method


class Context:
    """A call without a deadline whose one request message is ``message``."""

    def __init__(self, message: object = None) -> None:
        self.message = message

    def time_remaining(self) -> float:
        return NO_DEADLINE_S * 2

    async def read(self) -> object:
        return self.message


def test_every_rpc_of_the_proto_is_registered_in_its_shape() -> None:
    handlers = method_handlers(Recording())
    assert set(handlers) == {method.name for method in SERVICE.methods}
    for method in SERVICE.methods:
        assert handlers[method.name].request_streaming == method.client_streaming
        assert handlers[method.name].response_streaming == method.server_streaming


def test_with_uploads_a_unary_request_is_read_as_a_stream_of_one_message() -> None:
    handlers = method_handlers(Recording(), Uploads(10.0, 1 << 30, 1 << 20))
    for method in SERVICE.methods:
        assert handlers[method.name].request_streaming


def test_a_call_without_a_deadline_is_given_the_default_one() -> None:
    servicer = Recording()
    uploads = Uploads(10.0, 1 << 30, 1 << 20)
    read_one = behavior_of(method_handlers(servicer, uploads, 30.0)["Showdown"])
    request = pb.ShowdownRequest(game=pb.GAME_POKER_HIGH)
    asyncio.run(read_one(iter(()), Context(request)))
    unary = behavior_of(method_handlers(servicer, None, 30.0)["Showdown"])
    asyncio.run(unary(request, Context()))
    none = behavior_of(method_handlers(servicer)["Showdown"])
    asyncio.run(none(request, Context()))
    [(read, given), (_, unary_given), (_, kept)] = servicer.seen
    assert read == request
    assert given is not None and 29.0 < given <= 30.0
    assert unary_given is not None and 29.0 < unary_given <= 30.0
    assert kept == NO_DEADLINE_S * 2, "0: no default deadline"


def test_a_reply_leaves_as_bytes_whether_serialised_already_or_not() -> None:
    assert write_reply(b"\x08\x01") == b"\x08\x01"
    assert write_reply(pb.Evaluation(strength=1)) == pb.Evaluation(strength=1).SerializeToString()
