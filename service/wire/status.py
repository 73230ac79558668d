"""``google.rpc.Status`` with BadRequest field violations, as the server (and the in-process
CLI) writes them, with the codes of the refusals the core and the request limits raise
(``refusal``).

The message's format is the client's (``handeval_client.errors.summary``), which reads it
back: the first violation restated for logs that keep only the message; the BadRequest
detail lists the violations (``cap``ped). Texts are clipped to ``MAX_TEXT``, so a status
stays well within gRPC's trailing-metadata limit (8 KiB by default).
"""

from __future__ import annotations

from collections.abc import Sequence

from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from handeval_client.errors import summary

from evaluators.errors import (
    BatchTooLarge,
    InvalidRequest,
    TooManySamples,
    Violation,
    cap,
    problem_count,
)
from service.wire.request_limits import RequestTooLarge

MAX_TEXT = 400
"""Longest field path or description sent back: a caller's text is echoed in messages (the
request limits bound it; the longest of ours, the missing game naming every game, is ~270)."""


def _clip(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def status(code: int, message: str, violations: Sequence[Violation] = ()) -> status_pb2.Status:
    """A ``google.rpc.Status``; with violations, a BadRequest detail lists them (``cap``ped,
    field paths like ``hand[2]``) and the message names the first and counts the others."""
    reply = status_pb2.Status(code=code, message=_clip(message))
    if violations:
        shown = cap(violations)
        detail = any_pb2.Any()
        detail.Pack(
            error_details_pb2.BadRequest(
                field_violations=[
                    error_details_pb2.BadRequest.FieldViolation(
                        field=_clip(v.field), description=_clip(v.message)
                    )
                    for v in shown
                ]
            )
        )
        reply.details.append(detail)
        reply.message = _clip(_summary(message, violations))
    return reply


def _summary(message: str, violations: Sequence[Violation]) -> str:
    first = violations[0]
    return summary(message, first.field, first.message, problem_count(violations))


def invalid_argument(violations: Sequence[Violation]) -> status_pb2.Status:
    return status(code_pb2.INVALID_ARGUMENT, "invalid request", violations)


OVER_A_LIMIT = (RequestTooLarge, BatchTooLarge, TooManySamples)
"""A request over one of the server's limits: RESOURCE_EXHAUSTED, naming the limit."""


def refusal(error: Exception) -> status_pb2.Status | None:
    """The status docs/api.md gives a request the rules or the limits refuse: an
    InvalidRequest is INVALID_ARGUMENT listing its violations, a request ``OVER_A_LIMIT``
    RESOURCE_EXHAUSTED with the error's message; None for any other error. The server and
    the CLI's in-process answers both refuse through it."""
    if isinstance(error, InvalidRequest):
        return invalid_argument(error.violations)
    if isinstance(error, OVER_A_LIMIT):
        return status(code_pb2.RESOURCE_EXHAUSTED, str(error))
    return None
