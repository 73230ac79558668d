"""The RPCs of ``handeval.v1.HandEvaluator``, each one road, read top to bottom: its
request arrives read (``service.server.readers``, registered by
``service.server.registration``), is admitted, planned into a call, worked (on the loop
or in the pool) and answered by the call machinery (``service.server.calls``), the plan
and the work being the RPC's own (``service.server.work``).

Errors follow docs/api.md, each failure mapped to its status in one place
(``service.server.errors``): a caller's mistake is INVALID_ARGUMENT with BadRequest
details, an over-limit call RESOURCE_EXHAUSTED, a passed deadline DEADLINE_EXCEEDED;
anything else is a bug, answered INTERNAL with an incident id. Each RPC counts its own
metrics (hands, seats, a batch's size, Odds' run-outs) as it is answered; refusals count
as errors.

A stream that sends nothing for ``--stream-idle-seconds`` is ended DEADLINE_EXCEEDED: a time
limit ran out, which is what that code says; CANCELLED would read, in the caller's error and
in ``grpc_server_handled_total``, as the client's own cancel.
"""

from __future__ import annotations

import asyncio
import functools
import math
import threading
import time
from collections.abc import AsyncIterator
from concurrent.futures import Executor

import grpc
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.odds import OddsLimits
from service.server import work
from service.server.admission import CostAdmission
from service.server.calls import Calls
from service.server.deadlines import Stopping, abort_late, deadline_passed, remaining_seconds
from service.server.drain import Drain
from service.server.errors import Unreadable
from service.server.odds_lane import OddsLane
from service.wire.batch_request import BatchCall
from service.wire.requests import PlainHand

DEFAULT_ODDS_LIMITS = OddsLimits()
"""The core's limits, which are also the settings' defaults."""


class HandEvaluatorServicer:
    """Stateless apart from its limits; its methods are coroutines on grpc.aio's loop, each
    given its request as read, or ``Unreadable`` when its bytes were none.

    Scoring a hand or a showdown takes microseconds and runs on the loop, and so does a
    batch of one chunk (``work.INLINE_BATCH_HANDS``); a larger batch runs in ``pool``, in
    chunks (``evaluators.batch.score_batch``) that stop when the call is cancelled or
    expires, and so does Odds (``odds_limits``), between chunks of run-outs; at most
    ``odds_lane``'s width of Odds calls compute at once (across the worker processes:
    ``service.server.odds_lane``; None: no bound of its own), an admitted one beyond them
    waiting on the loop for its turn. Every reply is at most ``max_reply_bytes``.
    """

    def __init__(
        self,
        max_batch_hands: int,
        costs: CostAdmission,
        pool: Executor,
        max_reply_bytes: int,
        stream_idle_seconds: float,
        odds_limits: OddsLimits = DEFAULT_ODDS_LIMITS,
        drain: Drain | None = None,
        odds_lane: OddsLane | None = None,
    ) -> None:
        self._drain = drain or Drain()
        self._calls = Calls(costs, pool, max_reply_bytes, self._drain, odds_lane)
        self._max_batch_hands = max_batch_hands
        self._stream_idle_seconds = stream_idle_seconds
        self._odds_limits = odds_limits

    async def Evaluate(
        self,
        request: PlainHand | pb.EvaluateRequest | Unreadable,
        context: grpc.aio.ServicerContext,
    ) -> bytes:
        return await self._calls.answer(context, "Evaluate", request, work.evaluate_call)

    async def EvaluateStream(
        self,
        requests: AsyncIterator[pb.EvaluateRequest | Unreadable],
        context: grpc.aio.ServicerContext,
    ) -> None:
        """One reply per request, in order; a stream idle for ``stream_idle_seconds`` (or
        past its deadline) is ended DEADLINE_EXCEEDED."""
        reading = aiter(requests)
        while (request := await self._next_request(reading, context)) is not None:
            if deadline_passed(context):
                await abort_late(context)
            if isinstance(request, Unreadable):
                await context.write(pb.Evaluation(error=request.status()))
                continue
            await context.write(work.stream_reply(request))

    async def _next_request(
        self,
        reading: AsyncIterator[pb.EvaluateRequest | Unreadable],
        context: grpc.aio.ServicerContext,
    ) -> pb.EvaluateRequest | Unreadable | None:
        """The stream's next request, None at its end; aborts a stream that waits too long."""
        idle = self._stream_idle_seconds or None
        remaining = remaining_seconds(context)
        wait = idle if remaining is None else min(idle or remaining, remaining)
        try:
            return await asyncio.wait_for(anext(reading, None), wait)
        except TimeoutError:
            if deadline_passed(context):
                await abort_late(context)
            await context.abort(
                grpc.StatusCode.DEADLINE_EXCEEDED,
                f"no request on this stream for {self._stream_idle_seconds:g} s, the server's "
                "idle-stream limit; open a new stream when there is work",
            )
            raise AssertionError("context.abort returns only by raising") from None

    async def EvaluateBatch(
        self, request: BatchCall | Unreadable, context: grpc.aio.ServicerContext
    ) -> bytes:
        """The request's ``hands`` and ``tables`` arrive beside its message, read once
        (``batch_request``: in a large request, left in grpc's bytes, not copied)."""
        plan = functools.partial(
            work.batch_call, max_batch_hands=self._max_batch_hands, stopping=self._stopping(context)
        )
        return await self._calls.answer(context, "EvaluateBatch", request, plan)

    async def Showdown(
        self, request: pb.ShowdownRequest | Unreadable, context: grpc.aio.ServicerContext
    ) -> bytes:
        return await self._calls.answer(context, "Showdown", request, work.showdown_call)

    async def ListGames(
        self, request: pb.ListGamesRequest | Unreadable, context: grpc.aio.ServicerContext
    ) -> bytes:
        return await self._calls.answer(context, "ListGames", request, work.list_games_call)

    async def Odds(
        self, request: pb.OddsRequest | Unreadable, context: grpc.aio.ServicerContext
    ) -> bytes:
        """Runs in the pool like a batch: its run-outs stop between chunks when the call is
        cancelled or its deadline passes (CANCELLED or DEADLINE_EXCEEDED)."""
        plan = functools.partial(
            work.odds_call, limits=self._odds_limits, stopping=self._stopping(context)
        )
        return await self._calls.answer(context, "Odds", request, plan)

    def _stopping(self, context: grpc.aio.ServicerContext) -> Stopping:
        """How this call's chunks stop: its cancel, its deadline as of now, the drain."""
        remaining = remaining_seconds(context)
        deadline = math.inf if remaining is None else time.monotonic() + remaining
        return Stopping(threading.Event(), deadline, self._drain.work_may_go_on)
