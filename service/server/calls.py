"""The call machinery: every RPC's call takes the same steps, in this order.

1. Admit: a call past its deadline is refused DEADLINE_EXCEEDED, bytes that were no
   request INVALID_ARGUMENT (``Unreadable``), any call once the drain has begun
   UNAVAILABLE.
2. Plan: the RPC's ``plan`` reads the request into the core's terms and prices it, with
   no side effect, into a ``Call``: what runs, what it costs, its lane, how it stops. A
   request the rules refuse raises here.
3. Reserve the call's cost, if it has one (``service.server.admission``), for as long as
   its work runs and its reply has not left.
4. Work, in its lane: on the event loop (microseconds, never awaiting, so it holds
   nothing: calls there run one at a time by construction), or in the pool, where a
   cancelled call's ``stop`` is set and its chunks end; Odds waits on the loop for a
   place in the Odds lane first (``service.server.odds_lane``).
5. Reply: bytes, checked against the send limit first, so a reply too large to send is
   RESOURCE_EXHAUSTED with the limit, seen as such by the metrics (grpc would fail it
   after the handler returned, which no interceptor sees).

Any failure becomes the status docs/api.md gives it (``service.server.errors``), counted
as an error of the request's game.
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, NoReturn

import grpc
from google.protobuf.message import Message
from google.rpc.status_pb2 import Status
from grpc_status import rpc_status

from evaluators.costs import CallCost
from service.server import metrics, trace_phases
from service.server.admission import CostAdmission, Reservation
from service.server.deadlines import Stopping, abort_late, deadline_passed, remaining_seconds
from service.server.drain import DRAINING_MESSAGE, Drain
from service.server.errors import STOPPED, Unreadable, failure, game_of, reason, reply_too_large
from service.server.odds_lane import OddsLane


class Lane(enum.Enum):
    """Where a call's work runs."""

    LOOP = "loop"
    """On the event loop, at once."""
    POOL = "pool"
    """In the pool, once admitted."""
    ODDS = "odds"
    """In the pool, once it holds a place in the Odds lane."""


@dataclass(frozen=True, slots=True)
class Call:
    """One call as planned: ``work(request)`` gives its reply; ``cost`` (None: nothing to
    reserve) is held while it runs; ``lane`` is where it runs; ``stopping`` is how its
    chunks stop (None: work too short to stop, on the loop). The call of a cheap RPC is
    one record for all its calls."""

    work: Callable[[Any], Message | bytes]
    cost: CallCost | None = None
    lane: Lane = Lane.LOOP
    stopping: Stopping | None = None


class Calls:
    """Runs the calls of one servicer: its cost admission (``costs``), ``pool``, send limit
    (``max_reply_bytes``), ``drain`` and Odds lane (None: no bound of its own)."""

    def __init__(
        self,
        costs: CostAdmission,
        pool: Executor,
        max_reply_bytes: int,
        drain: Drain,
        odds_lane: OddsLane | None,
    ) -> None:
        self._costs = costs
        self._pool = pool
        self._max_reply_bytes = max_reply_bytes
        self._drain = drain
        self._odds_lane = odds_lane

    async def answer(
        self,
        context: grpc.aio.ServicerContext,
        method: str,
        request: object,
        plan: Callable[[Any], Call],
    ) -> bytes:
        """The reply of ``method``'s call of ``request`` (as read: a message or a read of
        it, or ``Unreadable``) as bytes, or the call aborted with the status its failure
        has: the steps of this module's docstring. ``plan`` takes the request read."""
        if deadline_passed(context):
            await abort_late(context)
        if isinstance(request, Unreadable):
            await context.abort_with_status(rpc_status.to_status(request.status()))
            raise AssertionError("context.abort_with_status returns only by raising")
        if self._drain.refuses():
            await context.abort(grpc.StatusCode.UNAVAILABLE, DRAINING_MESSAGE)
        reservation: Reservation | None = None
        try:
            call = plan(request)
            if call.cost is not None:
                pooled = call.lane is not Lane.LOOP
                reservation = await self._reserve(context, call.cost, pooled)
            if call.lane is Lane.LOOP:
                reply = _answered(call.work, request, reservation)  # never awaits
            else:
                assert reservation is not None, "work bound for the pool reserves its cost"
                reply = await self._in_pool(call, request, reservation)
        except Exception as error:
            if isinstance(error, STOPPED):
                await self._abort_if_late_or_draining(context)
            problem = failure(error, method, request)
        else:
            if len(reply) <= self._max_reply_bytes:
                return reply
            problem = reply_too_large(len(reply), self._max_reply_bytes)
        await refuse(context, request, problem)

    async def _abort_if_late_or_draining(self, context: grpc.aio.ServicerContext) -> None:
        """A batch or Odds stopped by its deadline or by the drain is answered so (a
        stopped call is otherwise the caller's cancel)."""
        if deadline_passed(context):
            await abort_late(context)
        if not self._drain.work_may_go_on():
            await context.abort(grpc.StatusCode.UNAVAILABLE, DRAINING_MESSAGE)

    async def _reserve(
        self, context: grpc.aio.ServicerContext, cost: CallCost, pooled: bool
    ) -> Reservation:
        """Hold ``cost`` for this call's peer, waiting at most the budgets' wait (or until
        the deadline); held until gRPC reports the call done, so a reply nobody reads keeps
        its bytes counted. Raises ``OverBudget``."""
        wait = self._costs.budgets.wait_seconds
        remaining = remaining_seconds(context)
        if remaining is not None:
            wait = min(wait, remaining)
        reservation = await self._costs.reserve(cost, self._costs.peer_of(context), pooled, wait)
        context.add_done_callback(reservation.release)
        return reservation

    async def _in_pool(self, call: Call, request: object, reservation: Reservation) -> bytes:
        """``call``'s work of ``request`` in the pool; its reservation's working set is
        given back when the thread is done with it (or at once if it never started), so a
        cancelled batch counts until then. In the Odds lane, the work starts once it holds
        a place there, given back when its thread is done (a cancelled call's until its
        chunk ends)."""
        assert call.stopping is not None, "work in the pool can be stopped"

        def run() -> bytes:
            return _answered(call.work, request, reservation)

        lane = self._odds_lane if call.lane is Lane.ODDS else None
        give_back: Callable[[], None] | None = None
        if lane is not None:
            try:
                give_back = await lane.acquire()
            except asyncio.CancelledError:
                reservation.work_done(None)
                raise
        try:
            running = self._pool.submit(trace_phases.carried(run))
        except BaseException:
            if give_back is not None:
                give_back()
            raise
        if give_back is not None:
            running.add_done_callback(_on_loop(asyncio.get_running_loop(), give_back))
        try:
            return await asyncio.wrap_future(running)
        except asyncio.CancelledError:
            call.stopping.stop.set()
            if running.cancelled():
                reservation.work_done(None)
            raise


def _answered(
    work: Callable[[Any], Message | bytes], request: object, reservation: Reservation | None
) -> bytes:
    """``work(request)`` written as bytes; the reservation's working set is given back once it is
    done (the reply's bytes stay reserved until gRPC reports the call done)."""
    reply_bytes = None
    try:
        reply = work(request)
        if not isinstance(reply, bytes):
            reply = reply.SerializeToString()
        reply_bytes = len(reply)
        return reply
    finally:
        if reservation is not None:
            reservation.work_done(reply_bytes)


def _on_loop(loop: asyncio.AbstractEventLoop, act: Callable[[], object]) -> Callable[[Any], None]:
    """A done callback for a pool future that runs ``act`` on ``loop``, unless the loop has
    closed (the server is gone, and with it whoever waited)."""

    def callback(_done: Any) -> None:
        if not loop.is_closed():
            loop.call_soon_threadsafe(act)

    return callback


async def refuse(context: grpc.aio.ServicerContext, request: object, problem: Status) -> NoReturn:
    """End the call with ``problem``, counted as an error of the request's game."""
    game = game_of(request)
    if game is not None:
        metrics.record_error(game, reason(problem))
    await context.abort_with_status(rpc_status.to_status(problem))
    raise AssertionError("context.abort_with_status returns only by raising")
