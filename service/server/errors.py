"""How each failure of a call becomes the status docs/api.md gives it: the servicer's one map.

- A request the rules or the limits refuse: the wire's ``refusal`` (INVALID_ARGUMENT with
  BadRequest violations, RESOURCE_EXHAUSTED naming the limit).
- A call over the cost budgets (``OverBudget``), or a reply over the send limit:
  RESOURCE_EXHAUSTED naming the budget or the limit.
- Request bytes that are no message of the request's type (``Unreadable``):
  INVALID_ARGUMENT; more bytes than any request within the limits: RESOURCE_EXHAUSTED.
- A batch or Odds stopped between chunks (``STOPPED``): CANCELLED. The servicer answers
  DEADLINE_EXCEEDED or UNAVAILABLE instead when the deadline or the drain stopped it,
  since those are not the caller's cancel.
- Anything else is a bug: INTERNAL with an incident id, logged with the request's shape
  (never its cards) and the stack, which never reaches the caller.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass

from google.protobuf.message import Message
from google.rpc import code_pb2, status_pb2
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.errors import Stopped
from service.server.admission import OverBudget
from service.server.logs import log_event
from service.wire.batch_request import BatchCall
from service.wire.status import refusal, status

STOPPED = Stopped
"""A batch or Odds stopped between chunks: cancelled, past its deadline, or drained."""


def failure(error: Exception, method: str, request: object) -> status_pb2.Status:
    """The status of a call (or one stream message) of ``method`` that raised ``error``;
    a logged bug's request shape is read from ``request`` as the RPC read it
    (``logged_shape``)."""
    refused = refusal(error)
    if refused is not None:
        return refused
    if isinstance(error, OverBudget):
        return status(code_pb2.RESOURCE_EXHAUSTED, str(error))
    if isinstance(error, STOPPED):
        return status(code_pb2.CANCELLED, "the call was cancelled")
    return _internal(method, request)


def reply_too_large(size: int, limit: int) -> status_pb2.Status:
    """A reply of ``size`` bytes that the server may not send (``--max-message-bytes``)."""
    return status(
        code_pb2.RESOURCE_EXHAUSTED,
        f"the reply is {size:,} bytes; this server sends at most {limit:,} (--max-message-bytes)",
    )


@dataclass(frozen=True)
class Unreadable:
    """Request bytes that are not a message of the expected type, or (``too_long``) more
    than any request within the request limits takes, refused unparsed."""

    type_name: str
    reason: str
    too_long: bool = False

    def status(self) -> status_pb2.Status:
        if self.too_long:
            return status(code_pb2.RESOURCE_EXHAUSTED, self.reason)
        return status(
            code_pb2.INVALID_ARGUMENT,
            f"the request is not a readable {self.type_name} message: {self.reason}",
        )


def reason(problem: status_pb2.Status) -> str:
    """The metrics' ``reason`` label: the status code's name, e.g. ``invalid_argument``."""
    return str(code_pb2.Code.Name(problem.code)).lower()


def game_of(request: object) -> int | None:
    """The wire number of a request's game as the RPC read it (None: it has none)."""
    if isinstance(request, BatchCall):
        return int(request.message.game)
    if isinstance(request, tuple):  # an Evaluate read in C: a PlainHand
        return int(request[0])
    game = getattr(request, "game", None)
    return game if isinstance(game, int) else None


def _internal(method: str, request: object) -> status_pb2.Status:
    """Log the bug being handled (with the stack) and the status the caller gets instead."""
    incident = uuid.uuid4().hex[:12]
    shape = logged_shape(request)
    log_event("error", logging.ERROR, exc_info=True, method=method, incident=incident, **shape)
    return status(code_pb2.INTERNAL, f"internal error, incident {incident}: the server logged it")


def logged_shape(request: object) -> dict[str, int]:
    """``request_shape`` of a request as the RPC read it: a batch's message with the sizes
    of its hands and tables (read beside it), an Evaluate read in C as its message."""
    if isinstance(request, BatchCall):
        sizes = {"hands_len": len(request.hands), "tables_len": len(request.tables)}
        return request_shape(request.message) | sizes
    if isinstance(request, tuple):  # an Evaluate read in C: a PlainHand
        return request_shape(pb.EvaluateRequest.FromString(request[3]))
    return request_shape(request) if isinstance(request, Message) else {}


def request_shape(request: Message) -> dict[str, int]:
    """What a log may say about a request: enum values, sizes and counts, never cards or ids."""
    shape: dict[str, int] = {}
    for field in request.DESCRIPTOR.fields:
        value = getattr(request, field.name)
        if field.is_repeated or field.type == field.TYPE_BYTES:
            shape[f"{field.name}_len"] = len(value)
        elif field.type in (field.TYPE_ENUM, field.TYPE_UINT32, field.TYPE_UINT64):
            shape[field.name] = int(value)
    return shape
