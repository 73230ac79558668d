"""How a request's bytes become what its RPC reads: its message, ``Unreadable`` when they
are none or too long.

Requests are decoded here (registered as each method's deserializer), not by grpc: bytes
that are no message of the request's type are the caller's mistake, INVALID_ARGUMENT (a
stream replies with ``error`` and goes on). grpc's own decoding would answer INTERNAL
and, in a stream, leave the call open until the shutdown grace runs out.

Two requests are read their own way, each still one reader: a batch with its hands and
tables left in grpc's bytes (``service.wire.batch_request``), and an Evaluate, when it is
the plainest kind and its cards pass every check, in C (``PlainHand``); any other
Evaluate is read as its message, whose answer says what is wrong with it.
"""

from __future__ import annotations

from collections.abc import Callable

from google.protobuf.message import Message
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from service.server.errors import Unreadable
from service.wire.batch_request import BatchCall, read_batch_call
from service.wire.request_limits import MAX_REQUEST_BYTES, too_many_bytes
from service.wire.requests import PlainHand, read_checked_plain

Read = Message | BatchCall | PlainHand | Unreadable
"""What an RPC's reader gives it."""


def reader(message_type: type[Message]) -> Callable[[bytes], Read]:
    """The reader of ``message_type``'s requests."""
    read = message_reader(message_type)
    if message_type is not pb.EvaluateRequest:
        return read

    def read_plain_first(data: bytes) -> Read:
        try:
            plain = read_checked_plain(data)
        except Exception:
            plain = None  # read as its message, whose answer says what is wrong
        return read(data) if plain is None else plain

    return read_plain_first


def message_reader(message_type: type[Message]) -> Callable[[bytes], Read]:
    """The request's message (an Evaluate's too), ``Unreadable`` when it is none or too
    long; a batch request is read with its hands and tables left in grpc's bytes
    (``batch_request``)."""
    name = message_type.DESCRIPTOR.full_name
    limit = MAX_REQUEST_BYTES.get(name)
    parse = read_batch_call if message_type is pb.EvaluateBatchRequest else message_type.FromString

    def read(data: bytes) -> Read:
        if limit is not None and len(data) > limit:
            return Unreadable(name, too_many_bytes(name, len(data), limit), too_long=True)
        try:
            return parse(data)
        except Exception as error:
            return Unreadable(name, str(error) or type(error).__name__)

    return read
