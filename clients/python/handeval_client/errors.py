"""``HandevalError``, and the message format of a refusal, both halves stated here once.

A refusal's ``google.rpc.Status`` message is ``lead: field: description (and N more
problems)``: the first violation restated for logs that keep only the message, while the
``google.rpc.BadRequest`` detail lists every violation. The server writes it with
``summary`` and the client reads it back with ``lead`` and ``violations``.
"""

from __future__ import annotations

from collections.abc import Sequence

import grpc
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status


def summary(lead: str, field: str, description: str, problems: int) -> str:
    """The message of a refusal with ``problems`` problems, the first on ``field``."""
    text = f"{lead}: {field}: {description}"
    if (more := problems - 1) > 0:
        text += f" (and {more} more problem{'s' if more > 1 else ''})"
    return text


def lead(message: str, violations: Sequence[tuple[str, str]]) -> str:
    """``message`` without its restatement of the first violation (``summary``'s form)."""
    if violations:
        found_lead, found, _ = message.partition(f": {violations[0][0]}: ")
        if found:
            return found_lead
    return message


def violations(status: status_pb2.Status) -> list[tuple[str, str]]:
    """Every ``(field, description)`` of the BadRequest details ``status`` carries."""
    found: list[tuple[str, str]] = []
    for any_detail in status.details:
        if any_detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad_request = error_details_pb2.BadRequest()
            any_detail.Unpack(bad_request)
            found += [(v.field, v.description) for v in bad_request.field_violations]
    return found


_CODES = {code.value[0]: code for code in grpc.StatusCode}


class HandevalError(Exception):
    """Every failure of the client: the gRPC ``code``, the ``message`` and, for a request
    the rules refuse (INVALID_ARGUMENT), every ``(field, description)`` violation, e.g.
    ``("hand[2]", "'Zz' is not a card: ...")``. The server's or, for a request the client
    refuses before sending, the client's (``refused``).

    ``str()`` says each violation once, one a line under the message's lead: the server's
    message also names the first violation (for logs that keep only the message), which
    ``message`` keeps as sent.
    """

    def __init__(
        self,
        code: grpc.StatusCode,
        message: str,
        violations: Sequence[tuple[str, str]] = (),
    ) -> None:
        self.code = code
        self.message = message
        self.violations = tuple(violations)
        lines = [f"{code.name}: {lead(message, self.violations)}"]
        lines += [f"  {field}: {description}" for field, description in self.violations]
        super().__init__("\n".join(lines))

    @classmethod
    def refused(cls, field: str, description: str) -> HandevalError:
        """A request refused on the client's side, one ``field`` wrong: INVALID_ARGUMENT,
        as the server would answer it."""
        return cls.invalid([(field, description)])

    @classmethod
    def invalid(cls, found: Sequence[tuple[str, str]]) -> HandevalError:
        """A request refused on the client's side with every violation ``found``."""
        return cls(grpc.StatusCode.INVALID_ARGUMENT, "invalid request", found)

    @classmethod
    def from_status(cls, status: status_pb2.Status) -> HandevalError:
        """From a ``google.rpc.Status``, e.g. an ``EvaluateStream`` reply's ``error``."""
        code = _CODES.get(status.code, grpc.StatusCode.UNKNOWN)
        return cls(code, status.message, violations(status))

    @classmethod
    def from_rpc_error(cls, error: grpc.RpcError) -> HandevalError:
        """From a failed call: its rich status when the server sent one."""
        try:
            status = rpc_status.from_call(error)
        except ValueError:
            status = None
        if status is not None:
            return cls.from_status(status)
        return cls(error.code(), error.details() or "")
