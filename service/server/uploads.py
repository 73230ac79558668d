"""Requests still arriving: a read deadline, and a per-process cap on the bytes they may
hold.

grpc runs a unary handler only once its whole request has arrived, and grpc core buffers
the message meanwhile (up to ``grpc.max_receive_message_length``), so streams each
missing the last byte of a large request held hundreds of MiB with no handler to see them
(docs/reliability.md). A request-streaming handler starts as soon as the call's headers
are in, and the wire is the same, so the evaluator's unary methods are registered that
way (``service.server.registration``): the handler waits for the one message under a
read deadline (``one_message``), then calls the unary behaviour.
The metrics' ``grpc_type`` stays ``unary`` (it is read from the proto).

While it waits, a call counts as holding ``message_bytes`` (the receive limit: what core
may buffer for it, since nobody can see how much has come). When a new call would take the
total past ``budget_bytes``, the call that has waited longest is ended RESOURCE_EXHAUSTED:
a polite request arrives in milliseconds, so the oldest waiter is the stalled one. A call
whose message does not come within ``read_seconds`` is ended DEADLINE_EXCEEDED (checked
every ``SWEEP_SECONDS``; the call's own deadline is core's); one whose client ends the
stream with no message, INVALID_ARGUMENT (grpc's unary handler would wait for it until
the deadline). Either way grpc resets the stream and core drops what it buffered.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from typing import Any

import grpc

SWEEP_SECONDS = 0.25
"""How often waiting calls are checked against the read deadline while any wait: a call is
ended at most this long after its deadline, and none carries a timer of its own."""


class _Waiting:
    """One call waiting for its message: its handler's task, cancelled to end the wait
    (as ``asyncio.timeout`` ends one), and why it was ended."""

    __slots__ = ("ended", "started", "task")

    def __init__(self, task: asyncio.Task[Any], started: float) -> None:
        self.task = task
        self.started = started
        self.ended: tuple[grpc.StatusCode, str] | None = None

    def end(self, code: grpc.StatusCode, details: str) -> None:
        self.ended = (code, details)
        self.task.cancel()


class Uploads:
    """The calls of one process whose message has not yet arrived, oldest first.
    ``on_ended`` (``service.allocator.return_freed_memory``) runs in a thread when the read
    deadline has ended calls and none is left waiting, so what core buffered for them goes
    back to the kernel."""

    def __init__(
        self,
        read_seconds: float,
        budget_bytes: int,
        message_bytes: int,
        on_ended: Callable[[], object] | None = None,
    ) -> None:
        self.read_seconds = read_seconds
        self.budget_bytes = budget_bytes
        self.message_bytes = message_bytes
        self._on_ended = on_ended
        self._waiting: dict[int, _Waiting] = {}
        self._ids = itertools.count()
        self._sweep: asyncio.TimerHandle | None = None

    @property
    def held_bytes(self) -> int:
        """The most the waiting calls' messages may hold in grpc core."""
        return len(self._waiting) * self.message_bytes

    async def one_message(self, context: Any) -> Any:
        """The call's one request, read under the read deadline and the budget; the call is
        aborted (never returns) when it does not come. (The call's own deadline is grpc
        core's to enforce.) Read with ``context.read()``, not the request iterator: that is
        an async generator, which a call leaves unfinished and the loop then closes in a
        task of its own."""
        task = asyncio.current_task()
        assert task is not None
        loop = task.get_loop()
        while self._waiting and self.held_bytes + self.message_bytes > self.budget_bytes:
            self._waiting.pop(next(iter(self._waiting))).end(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                "the request had not arrived when newer calls needed room: calls still "
                f"sending their request may hold {self.budget_bytes / 2**20:g} MiB per "
                "process (--upload-budget-mib); send it without pausing, or try again",
            )
        key = next(self._ids)
        waiting = self._waiting[key] = _Waiting(task, loop.time())
        if self._sweep is None and self.read_seconds:
            self._sweep = loop.call_later(SWEEP_SECONDS, self._end_late, loop)
        try:
            message = await context.read()
        except asyncio.CancelledError:
            if waiting.ended is None:
                raise
            task.uncancel()
            await context.abort(*waiting.ended)
        finally:
            self._waiting.pop(key, None)
        if message is grpc.aio.EOF:
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT, "the call ended without a request message"
            )
        return message

    def _end_late(self, loop: asyncio.AbstractEventLoop) -> None:
        """On the loop: end the calls waiting longer than ``read_seconds`` (oldest first,
        so the first one in time stops the scan); again later while any wait."""
        self._sweep = None
        late = loop.time() - self.read_seconds
        ended = False
        while self._waiting:
            key, oldest = next(iter(self._waiting.items()))
            if oldest.started > late:
                break
            del self._waiting[key]
            ended = True
            oldest.end(
                grpc.StatusCode.DEADLINE_EXCEEDED,
                f"the request did not arrive within {self.read_seconds:g} s of the call's "
                "start (--upload-seconds); send it without pausing",
            )
        if self._waiting:
            self._sweep = loop.call_later(SWEEP_SECONDS, self._end_late, loop)
        elif ended and self._on_ended is not None:
            loop.call_later(SWEEP_SECONDS, loop.run_in_executor, None, self._on_ended)
