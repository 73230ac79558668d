"""Per-process limits: how many calls run at once, how long a call without a deadline may
take, and how large a message may be.

``LimitsInterceptor`` (a grpc server interceptor) does the first two for the evaluator's
RPCs; health and reflection calls pass untouched, so probes are answered under overload.

Concurrency: a call takes a slot when its handler starts and gives it back when the handler
ends (for a stream, when the stream ends). With every slot taken, the call is answered
RESOURCE_EXHAUSTED at once, nothing queued behind the busy ones. A grpc server hands calls
to its thread pool before any handler runs, so the bound must stay below ``--threads``:
the threads above it are the ones that turn the excess away (and answer health checks)
in microseconds. The count is per process; ``--workers N`` admits N times as many.
(grpc's own ``maximum_concurrent_rpcs`` is not used: it counts health checks too, so a
busy server would fail its probes and be restarted just when it is needed most.)

Default deadline: a call that carries no deadline gets one ``default_deadline_s`` after it
starts. The handler sees it through its context (``time_remaining()``, ``is_active()``):
the servicer checks both before work, between the messages of a stream and between the
chunks of a batch, and answers DEADLINE_EXCEEDED once it has passed. This is cooperative:
nothing preempts a handler, and a stream idly waiting for its client's next message is not
ended by it; ``max_connection_age`` plus its grace bounds such a stream's life instead.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
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
    (100,000 hands: 100,000 x (10 + 7) + 65,536 = 1,765,536 bytes). Send: that batch's
    reply at ``REPLY_BYTES_PER_HAND`` (3,165,536 bytes). A batch one hand over the limit
    still fits, so it gets the batch limit's own RESOURCE_EXHAUSTED naming that limit.
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
    (24 of the default 32), leaving a quarter to refuse the excess and answer probes."""
    return max_concurrent_rpcs or max(1, threads * 3 // 4)


class DeadlineContext:
    """A handler's context whose deadline is no later than ``deadline`` (monotonic time).

    Everything but ``time_remaining`` and ``is_active`` is the real context's.
    """

    def __init__(self, context: grpc.ServicerContext, deadline: float) -> None:
        self._context = context
        self._deadline = deadline

    def time_remaining(self) -> float:
        own = max(self._deadline - time.monotonic(), 0.0)
        remaining: float = min(self._context.time_remaining(), own)
        return remaining

    def is_active(self) -> bool:
        return bool(self._context.is_active()) and time.monotonic() < self._deadline

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)


class _Slot:
    """One taken slot, given back exactly once however the call ends."""

    def __init__(self, slots: threading.BoundedSemaphore) -> None:
        self._slots = slots
        self._lock = threading.Lock()
        self._held = True

    def release(self) -> None:
        with self._lock:
            if not self._held:
                return
            self._held = False
        self._slots.release()


class LimitsInterceptor(grpc.ServerInterceptor):  # type: ignore[misc]
    """Bounds concurrent calls and gives calls without a deadline ``default_deadline_s``
    (0: none). See the module docstring for what each guarantees."""

    def __init__(self, max_concurrent_rpcs: int, default_deadline_s: float) -> None:
        self.max_concurrent_rpcs = max_concurrent_rpcs
        self.default_deadline_s = default_deadline_s
        self._slots = threading.BoundedSemaphore(max_concurrent_rpcs)
        self._wrapped: dict[str, tuple[grpc.RpcMethodHandler, grpc.RpcMethodHandler]] = {}

    def intercept_service(
        self, continuation: Callable[[Any], grpc.RpcMethodHandler | None], details: Any
    ) -> grpc.RpcMethodHandler | None:
        handler = continuation(details)
        method: str = details.method
        if handler is None or method.startswith(EXEMPT_PREFIXES):
            return handler
        cached = self._wrapped.get(method)
        if cached is not None and cached[0] is handler:
            return cached[1]
        wrapped = self._wrap(handler)
        self._wrapped[method] = (handler, wrapped)
        return wrapped

    def _admit(self, context: grpc.ServicerContext) -> tuple[_Slot, grpc.ServicerContext]:
        """A slot and the context the handler sees, or the call aborted RESOURCE_EXHAUSTED."""
        if not self._slots.acquire(blocking=False):
            context.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"the server is busy: {self.max_concurrent_rpcs} calls are running, the most "
                "it takes at once; try again shortly or elsewhere",
            )
        slot = _Slot(self._slots)
        if not context.add_callback(slot.release):
            slot.release()
        seen = context
        if self.default_deadline_s and context.time_remaining() > NO_DEADLINE_S:
            deadline = time.monotonic() + self.default_deadline_s
            seen = DeadlineContext(context, deadline)
        return slot, seen

    def _wrap(self, handler: grpc.RpcMethodHandler) -> grpc.RpcMethodHandler:
        behavior = behavior_of(handler)

        def unary_out(request: Any, context: grpc.ServicerContext) -> Any:
            slot, seen = self._admit(context)
            try:
                return behavior(request, seen)
            finally:
                slot.release()

        def stream_out(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
            slot, seen = self._admit(context)
            try:
                yield from behavior(request, seen)
            finally:
                slot.release()

        return rewrap(handler, unary_out, stream_out)
