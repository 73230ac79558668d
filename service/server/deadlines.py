"""Deadlines: how long a call may take, and the gate that stops its work in time.

A call that carries no deadline gets one ``--default-deadline-seconds`` after it starts
(``with_default_deadline``, applied where each method is registered, before its request
is read). The handler sees it through its context (``time_remaining()``); the servicer
checks it before work, between the messages of a stream and between the chunks of a batch
or Odds (``WorkGate``, which does not start a chunk the deadline would cut), and answers
DEADLINE_EXCEEDED once it has passed. A stream waiting for its client's next message is
ended at that deadline too, or after ``--stream-idle-seconds`` without a message,
whichever comes first.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

import grpc

NO_DEADLINE_S = 10**8
"""grpc reports a call without a deadline as one ~infinitely far off; beyond this is none."""
DEADLINE_SLACK_SECONDS = 0.001
"""How far past the deadline a stopped call's gate waits, so gRPC's own clock also says it
has passed and the call is answered DEADLINE_EXCEEDED."""
LATE_MESSAGE = "the deadline passed before the server could answer"


def remaining_seconds(context: Any) -> float | None:
    """Seconds until the call's deadline, None when it has none (grpc.aio's convention)."""
    remaining: float | None = context.time_remaining()
    if remaining is None or remaining > NO_DEADLINE_S:
        return None
    return max(remaining, 0.0)


def deadline_passed(context: grpc.aio.ServicerContext) -> bool:
    remaining: float | None = context.time_remaining()  # None or > 0: none, or not yet
    return remaining is not None and remaining <= 0


async def abort_late(context: grpc.aio.ServicerContext) -> NoReturn:
    await context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, LATE_MESSAGE)
    raise AssertionError("context.abort returns only by raising")


class DeadlineContext:
    """The context of a call that came without a deadline, given ``deadline`` (monotonic
    time): the client's cannot be set later, so ``time_remaining`` is this one's alone.

    Everything but ``time_remaining`` is the real context's.
    """

    __slots__ = ("_context", "_deadline")

    def __init__(self, context: grpc.aio.ServicerContext, deadline: float) -> None:
        self._context = context
        self._deadline = deadline

    def time_remaining(self) -> float:
        remaining = self._deadline - time.monotonic()
        return remaining if remaining > 0.0 else 0.0

    def read(self) -> Any:
        """The call's next message (``uploads``); named here, as ``__getattr__`` is reached
        only after a failed lookup, which costs more than the rest of a cheap call's
        reading."""
        return self._context.read()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)


def with_default_deadline(context: Any, default_s: float) -> Any:
    """``context``, given a deadline ``default_s`` from now when it has none (0: none)."""
    if default_s and remaining_seconds(context) is None:
        return DeadlineContext(context, time.monotonic() + default_s)
    return context


class WorkGate:
    """``keep_going`` for a batch's or Odds' chunks, asked before each: False once the call is
    cancelled (``stop``), the drain says work must end (``may_go_on``), or its ``deadline``
    (monotonic time) is nearer than the last chunk took. A chunk that would end past the
    deadline could not be answered in time, so it is not started; the gate then waits out
    the deadline (no CPU) and the call is answered DEADLINE_EXCEEDED at it. Checking only
    whether the deadline had passed let the last chunk run on past it, further still on a
    loaded machine (docs/reliability.md, "Deadlines"). A chunk much slower than the one
    before it can still end past the deadline."""

    def __init__(self, stop: threading.Event, deadline: float, may_go_on: Callable[[], bool]):
        self._stop = stop
        self._deadline = deadline
        self._may_go_on = may_go_on
        self._asked = time.monotonic()
        """When the gate was made or last asked: the time since is the chunk just run."""

    def __call__(self) -> bool:
        now = time.monotonic()
        chunk, self._asked = now - self._asked, now
        if self._stop.is_set() or not self._may_go_on():
            return False
        if now + chunk < self._deadline:
            return True
        if now < self._deadline:
            self._stop.wait(self._deadline - now + DEADLINE_SLACK_SECONDS)
        return False


@dataclass(frozen=True, slots=True)
class Stopping:
    """How a call's work stops: ``stop`` set (the call was cancelled), its ``deadline``
    (monotonic time, ``math.inf``: none) near, or the drain's ``may_go_on`` false. Made
    when the call starts; its work makes the gate when its chunks begin (``gate``), so the
    gate's first chunk is timed from there."""

    stop: threading.Event
    deadline: float
    may_go_on: Callable[[], bool]

    def gate(self) -> WorkGate:
        return WorkGate(self.stop, self.deadline, self.may_go_on)
