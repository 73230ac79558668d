"""Per-process limits: how much work runs at once, how long a call without a deadline may
take, how long a stream may sit idle, and how large a message may be.

Admission counts work in progress, not open calls: a unary call takes a slot while it
runs, a stream takes one for each message while that message is being scored (never while
it waits for the next). With every slot taken, the call (or the stream message) is
answered RESOURCE_EXHAUSTED at once, nothing queued behind the busy ones; a stream's
refused message gets its ``error`` and the stream goes on. A batch's slot is held until its
thread has stopped, so a cancelled batch still counts until it has really let go. The count
is per process; ``--workers N`` admits N times as many. Health and reflection are outside
it (``EXEMPT_PREFIXES``), so probes are answered under overload. (grpc's own
``maximum_concurrent_rpcs`` is not used: it counts open streams and health checks.)

Default deadline (``LimitsInterceptor``): a call that carries no deadline gets one
``default_deadline_s`` after it starts. The handler sees it through its context
(``time_remaining()``); the servicer checks it before work, between the messages of a
stream and between the chunks of a batch, and answers DEADLINE_EXCEEDED once it has
passed. A stream waiting for its client's next message is ended at that deadline too, or
after ``--stream-idle-seconds`` without a message, whichever comes first.

Idle streams hold no thread (the server is grpc.aio): 1,000 of them cost memory, not
service. The per-connection cap (``grpc.max_concurrent_streams``, ``--max-streams-per-
connection``) is HTTP/2's own: a client opening more streams on one connection has the
extra ones wait in its own channel until one of its streams ends.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import grpc

from evaluators.registry import GAMES
from service.server.handlers import behavior_of, rewrap

MAX_HAND_BYTES = max(rules.hand_max for rules in GAMES.values())
"""The widest hand of any game: one row of ``EvaluateBatchRequest.hands``."""
MAX_TABLE_BYTES = max(rules.table_max for rules in GAMES.values())
"""The widest table of any game: one row of ``tables`` when each hand has its own."""
REPLY_BYTES_PER_HAND = 10 + 10 + 10 + 1
"""Worst case in an ``EvaluateBatchResponse``: three 64-bit varints and a bool per hand."""
SLACK_BYTES = 64 * 1024
"""Room for the other fields, framing and a stream message's spreads and texts."""
NO_DEADLINE_S = 10**8
"""grpc reports a call without a deadline as one ~infinitely far off; beyond this is none."""
EXEMPT_PREFIXES = ("/grpc.health.v1.Health/", "/grpc.reflection.")
"""Services outside the bound: probes must be answered when the server is busiest."""


@dataclass(frozen=True)
class MessageLimits:
    """Largest message the server accepts (``receive``) and sends (``send``), in bytes."""

    receive: int
    send: int


def message_limits(max_batch_hands: int, override_bytes: int = 0) -> MessageLimits:
    """The message limits for a batch limit of ``max_batch_hands``.

    Receive: the largest valid batch, every hand as wide as the widest game's hand and
    with a table of its own as wide as the widest table, plus ``SLACK_BYTES``
    (100,000 hands: 100,001 x (10 + 7) + 65,536 = 1,765,553 bytes). Send: that batch's
    reply at ``REPLY_BYTES_PER_HAND`` (100,001 x 31 + 65,536 = 3,165,567). A batch one hand
    over the limit still fits, so it gets the batch limit's own RESOURCE_EXHAUSTED naming
    that limit.
    ``override_bytes`` (``--max-message-bytes``), when not 0, sets both.
    """
    if override_bytes:
        return MessageLimits(override_bytes, override_bytes)
    hands = max_batch_hands + 1
    return MessageLimits(
        receive=hands * (MAX_HAND_BYTES + MAX_TABLE_BYTES) + SLACK_BYTES,
        send=hands * REPLY_BYTES_PER_HAND + SLACK_BYTES,
    )


def concurrency_bound(max_concurrent_rpcs: int, threads: int) -> int:
    """The bound in force: ``max_concurrent_rpcs``, or when 0 three quarters of ``threads``
    (24 of the default 32), so a full bound still leaves batch threads to spare."""
    return max_concurrent_rpcs or max(1, threads * 3 // 4)


def remaining_seconds(context: Any) -> float | None:
    """Seconds until the call's deadline, None when it has none (grpc.aio's convention)."""
    remaining: float | None = context.time_remaining()
    if remaining is None or remaining > NO_DEADLINE_S:
        return None
    return max(remaining, 0.0)


class DeadlineContext:
    """A handler's context whose deadline is no later than ``deadline`` (monotonic time).

    Everything but ``time_remaining`` is the real context's.
    """

    def __init__(self, context: grpc.aio.ServicerContext, deadline: float) -> None:
        self._context = context
        self._deadline = deadline

    def time_remaining(self) -> float:
        own = max(self._deadline - time.monotonic(), 0.0)
        theirs = remaining_seconds(self._context)
        return own if theirs is None else min(theirs, own)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)


class Busy(Exception):
    """Every slot is taken; the message says so, for the caller."""


class Admission:
    """Slots for work in progress, ``bound`` of them; thread-safe, since a batch gives its
    slot back from the thread that ran it."""

    def __init__(self, bound: int) -> None:
        self.bound = bound
        self._lock = threading.Lock()
        self._taken = 0

    def enter(self) -> None:
        """Take a slot, or raise Busy."""
        with self._lock:
            if self._taken >= self.bound:
                raise Busy(
                    f"the server is busy: {self.bound} calls are running, the most it takes "
                    "at once; try again shortly or elsewhere"
                )
            self._taken += 1

    def leave(self) -> None:
        with self._lock:
            self._taken -= 1


class LimitsInterceptor(grpc.aio.ServerInterceptor):  # type: ignore[misc]
    """Gives the evaluator's calls without a deadline ``default_deadline_s`` (0: none);
    health and reflection pass untouched. Admission is the servicer's (per unit of work)."""

    def __init__(self, default_deadline_s: float) -> None:
        self.default_deadline_s = default_deadline_s
        self._wrapped: dict[str, tuple[grpc.RpcMethodHandler, grpc.RpcMethodHandler]] = {}

    async def intercept_service(
        self, continuation: Callable[[Any], Awaitable[grpc.RpcMethodHandler | None]], details: Any
    ) -> grpc.RpcMethodHandler | None:
        handler = await continuation(details)
        method: str = details.method
        cached = self._wrapped.get(method)
        if cached is not None and cached[0] is handler:
            return cached[1]
        if handler is None or method.startswith(EXEMPT_PREFIXES) or not self.default_deadline_s:
            return handler
        wrapped = self._wrap(handler)
        self._wrapped[method] = (handler, wrapped)
        return wrapped

    def _seen(self, context: grpc.aio.ServicerContext) -> Any:
        if remaining_seconds(context) is not None:
            return context
        return DeadlineContext(context, time.monotonic() + self.default_deadline_s)

    def _wrap(self, handler: grpc.RpcMethodHandler) -> grpc.RpcMethodHandler:
        behavior = behavior_of(handler)

        async def with_deadline(request: Any, context: grpc.aio.ServicerContext) -> Any:
            return await behavior(request, self._seen(context))

        return rewrap(handler, with_deadline, with_deadline)
