"""The evaluator's methods as grpc handlers: for each RPC of the proto, its reader
(``service.server.readers``), the servicer's method and the writer of its replies.

Every method gives a call that came without a deadline the default one before anything
else (``deadlines.with_default_deadline``). With ``uploads``, a unary-request method is
registered request-streaming and reads its one message under ``uploads``' read deadline
and budget (``service.server.uploads``): grpc would run a unary handler only once the
whole request had arrived, with nothing to bound what core buffers meanwhile. The
metrics' ``grpc_type`` stays ``unary`` (it is read from the proto).

The servicer is registered from the proto, not as a subclass of the generated servicer:
a missing method fails at start-up instead of answering UNIMPLEMENTED, and a reply may
leave as bytes already serialised.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import grpc
from google.protobuf.message import Message
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from service.server.deadlines import with_default_deadline
from service.server.handlers import SERVICE, make_handler
from service.server.readers import reader
from service.server.uploads import Uploads

Behavior = Callable[[Any, Any], Awaitable[Any]]


def method_handlers(
    servicer: object, uploads: Uploads | None = None, default_deadline_s: float = 0.0
) -> dict[str, grpc.RpcMethodHandler]:
    """A handler for every RPC of the proto's service, by method name: the servicer's
    method of that name, its calls given ``default_deadline_s`` (0: none) and, with
    ``uploads``, a unary request read under them."""
    handlers: dict[str, grpc.RpcMethodHandler] = {}
    for method in SERVICE.methods:
        rpc: Behavior = getattr(servicer, method.name)
        reads_one = uploads is not None and not method.client_streaming
        if reads_one:
            assert uploads is not None
            behavior = _reading_one(rpc, uploads, default_deadline_s)
        else:
            behavior = _with_deadline(rpc, default_deadline_s)
        handlers[method.name] = make_handler(
            method.client_streaming or reads_one,
            method.server_streaming,
            behavior,
            reader(getattr(pb, method.input_type.name)),
            write_reply,
        )
    return handlers


def write_reply(reply: Message | bytes) -> bytes:
    """A reply's bytes; a reply already serialised (``batch_reply``) goes out as it is."""
    return reply if isinstance(reply, bytes) else reply.SerializeToString()


def _reading_one(rpc: Behavior, uploads: Uploads, default_deadline_s: float) -> Behavior:
    """``rpc`` registered request-streaming: its one request read under ``uploads``."""
    read = uploads.one_message

    async def read_then_answer(requests: Any, context: Any) -> Any:
        context = with_default_deadline(context, default_deadline_s)
        return await rpc(await read(context), context)

    return read_then_answer


def _with_deadline(rpc: Behavior, default_deadline_s: float) -> Behavior:
    """``rpc`` with its calls given the default deadline (0: ``rpc`` itself)."""
    if not default_deadline_s:
        return rpc

    async def with_deadline(request: Any, context: Any) -> Any:
        return await rpc(request, with_default_deadline(context, default_deadline_s))

    return with_deadline
