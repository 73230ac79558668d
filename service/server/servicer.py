"""The RPCs of ``handeval.v1.HandEvaluator``: convert, call the core, convert back.

Errors follow docs/api.md, each failure mapped to its status in one place
(``service.server.errors``): a caller's mistake is INVALID_ARGUMENT with BadRequest details,
an over-limit call RESOURCE_EXHAUSTED, a passed deadline DEADLINE_EXCEEDED; anything else
is a bug, answered INTERNAL with an incident id. Each RPC counts its own metrics (hands,
seats, a batch's size, Odds' run-outs) as it is answered; refusals count as errors.

Requests are decoded here (``method_handlers``), not by grpc: bytes that are no message of
the request's type are the caller's mistake, INVALID_ARGUMENT (a stream replies with
``error`` and goes on). grpc's own decoding would answer INTERNAL and, in a stream, leave
the call open until the shutdown grace runs out.

A stream that sends nothing for ``--stream-idle-seconds`` is ended DEADLINE_EXCEEDED: a time
limit ran out, which is what that code says; CANCELLED would read, in the caller's error and
in ``grpc_server_handled_total``, as the client's own cancel.
"""

from __future__ import annotations

import asyncio
import math
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import Executor
from typing import NoReturn, TypeVar

import grpc
from google.protobuf.message import Message
from google.rpc.status_pb2 import Status
from grpc_status import rpc_status
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.batch import open_batch, score_batch
from evaluators.costs import BATCH_HAND_COST, CallCost, batch_cost
from evaluators.odds import (
    OddsLimits,
    OddsRequest,
    PlannedOdds,
    odds_cost,
    plan_odds,
    run_odds,
)
from evaluators.registry import GAMES
from evaluators.scoring import FIRST_CHUNK_HANDS, evaluate, showdown
from service.server import metrics, trace_phases
from service.server.drain import DRAINING_MESSAGE, Drain
from service.server.errors import STOPPED, Unreadable, failure, reason, reply_too_large
from service.server.handlers import SERVICE, make_handler
from service.server.limits import (
    NO_DEADLINE_S,
    REPLY_BYTES_PER_HAND,
    CostAdmission,
    DeadlineContext,
    Reservation,
    WorkGate,
    remaining_seconds,
)
from service.server.odds_lane import OddsLane
from service.server.uploads import Uploads
from service.wire import batch_reply
from service.wire.batch_request import BatchCall, read_batch_call
from service.wire.enums import to_game
from service.wire.replies import (
    evaluation_bytes,
    to_list_games,
    to_odds_response,
    to_showdown_response,
)
from service.wire.request_limits import MAX_REQUEST_BYTES, too_many_bytes
from service.wire.requests import (
    PlainEvaluate,
    plain_hand_request,
    read_plain_evaluate,
    to_hand_request,
    to_odds_request,
    to_options,
    to_showdown_request,
)

Request = TypeVar("Request", bound=Message)
DEFAULT_ODDS_LIMITS = OddsLimits()
"""The core's limits, which are also the settings' defaults."""
INLINE_BATCH_HANDS = FIRST_CHUNK_HANDS
"""A batch this small is one chunk (at most ~5 ms for the slowest game), scored on the
loop: handing it to a pool thread cost ~1 ms of CPU a call in GIL hand-offs between the
thread and the loop (10,000 hands: 3.8-5.8 against 3.0-4.7 ms of server and client CPU a
call, ``docs/performance.md``), and a cancel could not stop it sooner anyway."""


def _reader(message_type: type[Message]) -> Callable[[bytes], Message | BatchCall | Unreadable]:
    """The request's message, ``Unreadable`` when it is none or too long; a batch request
    is read with its hands and tables left in grpc's bytes (``batch_request``)."""
    name = message_type.DESCRIPTOR.full_name
    limit = MAX_REQUEST_BYTES.get(name)
    parse = read_batch_call if message_type is pb.EvaluateBatchRequest else message_type.FromString

    def read(data: bytes) -> Message | BatchCall | Unreadable:
        if limit is not None and len(data) > limit:
            return Unreadable(name, too_many_bytes(name, len(data), limit), too_long=True)
        try:
            return parse(data)
        except Exception as error:
            return Unreadable(message_type.DESCRIPTOR.full_name, str(error) or type(error).__name__)

    return read


def _plain_or(
    read: Callable[[bytes], Message | BatchCall | Unreadable],
) -> Callable[[bytes], PlainEvaluate | Message | BatchCall | Unreadable]:
    """Evaluate's reader: the plainest request read in C (``read_plain_evaluate``), any
    other by ``read``."""

    def read_plain_first(data: bytes) -> PlainEvaluate | Message | BatchCall | Unreadable:
        plain = read_plain_evaluate(data)
        return read(data) if plain is None else plain

    return read_plain_first


def _answered(
    work: Callable[[Request], Message | bytes], request: Request, reservation: Reservation | None
) -> bytes:
    """``work(request)`` written as bytes; the reservation's working set is given back once
    it is done (the reply's bytes stay reserved until gRPC reports the call done)."""
    reply_bytes = None
    try:
        reply = _writer(work(request))
        reply_bytes = len(reply)
        return reply
    finally:
        if reservation is not None:
            reservation.work_done(reply_bytes)


def _writer(reply: Message | bytes) -> bytes:
    """A reply's bytes; a reply already serialised (``batch_reply``) goes out as it is."""
    return reply if isinstance(reply, bytes) else reply.SerializeToString()


OWN_DEADLINE_METHODS = frozenset({f"/{SERVICE.full_name}/Evaluate"})
"""Methods whose handler, read under ``uploads``, gives a call without a deadline the
default one itself (``HandEvaluatorServicer.evaluate_reading``): the limits' wrapper
(``service.server.limits.LimitsInterceptor``) leaves them as they are."""


def method_handlers(
    servicer: HandEvaluatorServicer,
    uploads: Uploads | None = None,
    default_deadline_s: float = 0.0,
) -> dict[str, grpc.RpcMethodHandler]:
    """A handler for every RPC of the proto's service, reading requests with ``_reader``.
    With ``uploads``, a unary-request method is registered request-streaming and reads its
    one message under ``uploads``' read deadline and budget (``service.server.uploads``);
    Evaluate then does so in one coroutine with the default deadline
    (``default_deadline_s``, 0: none) and its answer (``evaluate_reading``)."""
    handlers: dict[str, grpc.RpcMethodHandler] = {}
    for method in SERVICE.methods:
        request_type = getattr(pb, method.input_type.name)
        behavior = getattr(servicer, method.name)
        streaming_in = method.client_streaming
        read = _reader(request_type)
        reader: Callable[[bytes], object] = read
        if uploads is not None and method.name == "Evaluate":
            behavior, streaming_in = servicer.evaluate_reading(uploads, default_deadline_s), True
            reader = _plain_or(read)
        elif uploads is not None and not streaming_in:
            behavior, streaming_in = uploads.unary_reading(behavior), True
        handlers[method.name] = make_handler(
            streaming_in, method.server_streaming, behavior, reader, _writer
        )
    return handlers


class HandEvaluatorServicer:
    """Stateless apart from its limits; its methods are coroutines on grpc.aio's loop.

    Not a subclass of the generated servicer: ``method_handlers`` registers its methods from
    the proto, so a missing one fails at start-up instead of answering UNIMPLEMENTED, and
    ``EvaluateBatch`` may reply with bytes already serialised.

    Each request arrives as its message or, when its bytes are not one, ``Unreadable``.
    Every reply leaves as bytes, checked against ``max_reply_bytes`` first, so a reply too
    large to send is RESOURCE_EXHAUSTED with the limit, seen as such by the metrics (grpc
    would fail it after the handler returned, which no interceptor sees). Scoring a hand
    or a showdown takes microseconds and runs on the loop, and so does a batch of one chunk
    (``INLINE_BATCH_HANDS``); a larger batch runs in ``pool``, in chunks
    (``evaluators.batch.score_batch``) that stop when the call is cancelled or
    expires, and so does Odds (``odds_limits``), between chunks of run-outs; at most
    ``odds_lane``'s width of Odds calls compute at once (across the worker processes:
    ``service.server.odds_lane``; None: no bound of its own), an admitted one beyond them
    waiting on the loop for its turn.
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
        self._odds_lane = odds_lane
        self._max_batch_hands = max_batch_hands
        self._costs = costs
        self._pool = pool
        self._max_reply_bytes = max_reply_bytes
        self._stream_idle_seconds = stream_idle_seconds
        self._odds_limits = odds_limits

    async def Evaluate(
        self, request: pb.EvaluateRequest | Unreadable, context: grpc.aio.ServicerContext
    ) -> bytes:
        return await self.answer(context, "Evaluate", request, _evaluate)

    def evaluate_reading(
        self, uploads: Uploads, default_deadline_s: float
    ) -> Callable[[AsyncIterator[object], grpc.aio.ServicerContext], Awaitable[bytes]]:
        """Evaluate registered request-streaming, in one coroutine: what the limits'
        default deadline (``LimitsInterceptor``), ``uploads.unary_reading`` and ``answer()``
        do for it, each the same, without their layers. Its work is microseconds of Python
        a call, and on the server each layer's coroutine and call cost several times what
        it costs in a hot loop (docs/performance.md, "Unary Evaluate").

        The usual call (read, not late, not draining) is answered here; any other is handed
        to ``answer()`` with the context its deadline is read from, so it ends as it did.
        The plainest request arrives read in C (``_plain_or``) and is answered from its card
        ids (``_plain_evaluate``); one that fails any check is read again as its message and
        answered the long way, which says why."""
        read = uploads.one_message
        drain = self._drain
        max_reply_bytes = self._max_reply_bytes
        read_message = _reader(pb.EvaluateRequest)

        async def evaluate(
            requests: AsyncIterator[object], context: grpc.aio.ServicerContext
        ) -> bytes:
            deadline = math.inf
            remaining = context.time_remaining()
            if default_deadline_s and (remaining is None or remaining > NO_DEADLINE_S):
                deadline = time.monotonic() + default_deadline_s
            request = await read(context)
            late = (
                time.monotonic() >= deadline if deadline < math.inf else _deadline_passed(context)
            )
            if type(request) is tuple:
                plain: PlainEvaluate = request
                if not late and not drain.begun:
                    try:
                        reply = _plain_evaluate(plain)
                    except Exception:
                        reply = None  # answered the long way below, which maps the error
                    if reply is not None and len(reply) <= max_reply_bytes:
                        return reply
                request = read_message(plain[4])
            if late or drain.begun or not isinstance(request, pb.EvaluateRequest):
                if deadline < math.inf:
                    context = DeadlineContext(context, deadline)
                return await self.answer(context, "Evaluate", request, _evaluate)
            try:
                reply = _evaluate(request)
            except Exception as error:
                problem = failure(error, "Evaluate", request)
            else:
                if len(reply) <= max_reply_bytes:
                    return reply
                problem = reply_too_large(len(reply), max_reply_bytes)
            await _refuse(context, request, problem)

        return evaluate

    async def EvaluateStream(
        self,
        requests: AsyncIterator[pb.EvaluateRequest | Unreadable],
        context: grpc.aio.ServicerContext,
    ) -> None:
        """One reply per request, in order; a stream idle for ``stream_idle_seconds`` (or
        past its deadline) is ended DEADLINE_EXCEEDED."""
        reading = aiter(requests)
        while (request := await self._next_request(reading, context)) is not None:
            if _deadline_passed(context):
                await _abort_late(context)
            if isinstance(request, Unreadable):
                await context.write(pb.Evaluation(error=request.status()))
                continue
            await context.write(_evaluate_or_error(request))

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
            if _deadline_passed(context):
                await _abort_late(context)
            await context.abort(
                grpc.StatusCode.DEADLINE_EXCEEDED,
                f"no request on this stream for {self._stream_idle_seconds:g} s, the server's "
                "idle-stream limit; open a new stream when there is work",
            )
            raise AssertionError("context.abort returns only by raising") from None

    async def EvaluateBatch(
        self, request: BatchCall | Unreadable, context: grpc.aio.ServicerContext
    ) -> bytes:
        """The reply is a serialised ``EvaluateBatchResponse`` (``service.wire.batch_reply``):
        byte columns when the request sets ``columns``, else the packed fields.

        The request's ``hands`` and ``tables`` arrive beside its message, read once
        (``batch_request``: in a large request, left in grpc's bytes, not copied); the
        batch counts its own metrics from its result.

        A batch of at most ``INLINE_BATCH_HANDS`` hands is scored on the loop, in one pass;
        a larger one in the pool, in chunks that stop when the call is cancelled.
        """
        remaining = remaining_seconds(context)
        deadline = math.inf if remaining is None else time.monotonic() + remaining
        stop = threading.Event()
        message = request.message if isinstance(request, BatchCall) else request
        hands, tables = (
            (request.hands, request.tables) if isinstance(request, BatchCall) else (b"", b"")
        )

        def work(batch: pb.EvaluateBatchRequest) -> bytes:
            started = time.perf_counter()
            with trace_phases.phase("batch.read"):
                opened = open_batch(
                    to_game(batch.game),
                    hands,
                    batch.hand_size,
                    tables,
                    batch.table_size,
                    to_options(batch.options),
                    self._max_batch_hands,
                )
            scored = len(opened.hands)
            room = batch_reply.ColumnsReply(scored) if batch.columns else None
            with trace_phases.phase("batch.score"):
                gate = WorkGate(stop, deadline, self._drain.work_may_go_on)
                result = score_batch(opened, gate, room)
            with trace_phases.phase("batch.reply"):
                reply = batch_reply.reply_bytes(result, room)
            metrics.record_batch(batch.game, scored)
            metrics.record_evaluation(batch.game, scored, time.perf_counter() - started)
            return reply

        one_pass = isinstance(message, pb.EvaluateBatchRequest) and len(hands) <= (
            INLINE_BATCH_HANDS * max(message.hand_size, 1)
        )

        def cost(batch: pb.EvaluateBatchRequest) -> CallCost:
            return _batch_cost(batch, len(hands), len(tables))

        sizes = {"hands_len": len(hands), "tables_len": len(tables)}
        return await self.answer(
            context, "EvaluateBatch", message, work, None if one_pass else stop, cost, sizes
        )

    async def Showdown(
        self, request: pb.ShowdownRequest | Unreadable, context: grpc.aio.ServicerContext
    ) -> bytes:
        return await self.answer(context, "Showdown", request, _showdown)

    async def ListGames(
        self, request: pb.ListGamesRequest | Unreadable, context: grpc.aio.ServicerContext
    ) -> bytes:
        return await self.answer(context, "ListGames", request, _list_games)

    async def answer(
        self,
        context: grpc.aio.ServicerContext,
        method: str,
        request: Request | Unreadable,
        work: Callable[[Request], Message | bytes],
        stop: threading.Event | None = None,
        cost: Callable[[Request], CallCost] | None = None,
        sizes: dict[str, int] | None = None,
        lane: OddsLane | None = None,
    ) -> bytes:
        """``work(request)``'s reply as bytes, or the call aborted with the status docs/api.md
        gives its failure (INVALID_ARGUMENT for an Unreadable request). With ``stop``,
        ``work`` runs in the pool and ``stop`` is set when the call is cancelled.

        A call with a ``cost`` (a batch, Odds) reserves it from ``costs`` first
        (``reserve``); one without is scored on the loop, where it holds nothing. ``sizes``
        are the lengths of fields read beside the message (a batch's hands and tables), for
        the log of an internal error; work bound for the pool with a ``lane`` runs once it
        holds one of the lane's places (``_in_pool``)."""
        if _deadline_passed(context):
            await _abort_late(context)
        if isinstance(request, Unreadable):
            await context.abort_with_status(rpc_status.to_status(request.status()))
            raise AssertionError("context.abort_with_status returns only by raising")
        if self._drain.refuses():
            await context.abort(grpc.StatusCode.UNAVAILABLE, DRAINING_MESSAGE)
        reservation: Reservation | None = None
        try:
            if cost is not None:
                reservation = await self.reserve(context, cost(request), pooled=stop is not None)
            if stop is None:
                # Never awaits: calls on the loop run one at a time and hold nothing.
                reply = _answered(work, request, reservation)
            else:
                assert reservation is not None, "work bound for the pool reserves its cost"
                reply = await self._in_pool(work, request, stop, reservation, lane)
        except Exception as error:
            if isinstance(error, STOPPED):
                await self._abort_if_late_or_draining(context)
            problem = failure(error, method, request, sizes)
        else:
            if len(reply) <= self._max_reply_bytes:
                return reply
            problem = reply_too_large(len(reply), self._max_reply_bytes)
        await _refuse(context, request, problem)

    async def _abort_if_late_or_draining(self, context: grpc.aio.ServicerContext) -> None:
        """A batch or Odds stopped by its deadline or by the drain is answered so (a
        stopped call is otherwise the caller's cancel)."""
        if _deadline_passed(context):
            await _abort_late(context)
        if not self._drain.work_may_go_on():
            await context.abort(grpc.StatusCode.UNAVAILABLE, DRAINING_MESSAGE)

    async def reserve(
        self, context: grpc.aio.ServicerContext, cost: CallCost, pooled: bool
    ) -> Reservation:
        """Hold ``cost`` in the cost lane for this call's peer, waiting at most the
        budgets' wait (or until the deadline); held until gRPC reports the call done, so
        a reply nobody reads keeps its bytes counted. Raises ``OverBudget``."""
        wait = self._costs.budgets.wait_seconds
        remaining = remaining_seconds(context)
        if remaining is not None:
            wait = min(wait, remaining)
        reservation = await self._costs.reserve(cost, self._costs.peer_of(context), pooled, wait)
        context.add_done_callback(reservation.release)
        return reservation

    async def _in_pool(
        self,
        work: Callable[[Request], Message | bytes],
        request: Request,
        stop: threading.Event,
        reservation: Reservation,
        lane: OddsLane | None = None,
    ) -> bytes:
        """``work(request)`` in the pool; its reservation's working set is given back when
        the thread is done with it (or at once if it never started), so a cancelled batch
        counts until then. With a ``lane``, the work starts once it holds a place in it,
        given back when its thread is done (a cancelled call's until its chunk ends)."""

        def run() -> bytes:
            return _answered(work, request, reservation)

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
            stop.set()
            if running.cancelled():
                reservation.work_done(None)
            raise

    async def Odds(
        self, request: pb.OddsRequest | Unreadable, context: grpc.aio.ServicerContext
    ) -> bytes:
        """Runs in the pool like a batch: its run-outs stop between chunks when the call is
        cancelled or its deadline passes (CANCELLED or DEADLINE_EXCEEDED)."""
        remaining = remaining_seconds(context)
        deadline = math.inf if remaining is None else time.monotonic() + remaining
        stop = threading.Event()

        read: list[tuple[OddsRequest, PlannedOdds]] = []

        def cost(asked: pb.OddsRequest) -> CallCost:
            """Admission's price, from the request read and planned once for the work."""
            request = to_odds_request(asked)
            read.append((request, plan_odds(request, asked.samples, self._odds_limits)))
            return odds_cost(*read[0])

        def work(asked: pb.OddsRequest) -> pb.OddsResponse:
            started = time.perf_counter()
            with trace_phases.phase("odds.plan") as span:
                request, planned = read[0]
                span.set_attribute("handeval.runouts", planned.runouts)
                span.set_attribute("handeval.exact", planned.exact)
                span.set_attribute("handeval.chunk", planned.chunk)
            with trace_phases.phase("odds.runouts"):
                result = run_odds(
                    request,
                    planned,
                    asked.seed,
                    WorkGate(stop, deadline, self._drain.work_may_go_on),
                )
            metrics.record_odds(
                asked.game, result.exact, result.runouts, time.perf_counter() - started
            )
            with trace_phases.phase("odds.reply"):
                return to_odds_response(result, asked.game, asked.request_id)

        return await self.answer(context, "Odds", request, work, stop, cost, lane=self._odds_lane)


def _on_loop(
    loop: asyncio.AbstractEventLoop, act: Callable[[], object]
) -> Callable[[object], None]:
    """A done callback for a pool future that runs ``act`` on ``loop``, unless the loop has
    closed (the server is gone, and with it whoever waited)."""

    def callback(_done: object) -> None:
        if not loop.is_closed():
            loop.call_soon_threadsafe(act)

    return callback


def _batch_cost(request: pb.EvaluateBatchRequest, hands_bytes: int, tables_bytes: int) -> CallCost:
    """A batch's cost at its game's rate (the default rate for a game it lacks, which is
    refused anyway): its hands, its request's bytes held while it runs, and the largest
    reply it can have (``REPLY_BYTES_PER_HAND``)."""
    hands = hands_bytes // max(request.hand_size, 1)
    game = to_game(request.game)
    per_hand = GAMES[game].batch_cost if game is not None else BATCH_HAND_COST
    request_bytes = hands_bytes + tables_bytes
    return batch_cost(per_hand, hands, request_bytes, hands * REPLY_BYTES_PER_HAND)


def _evaluate(request: pb.EvaluateRequest) -> bytes:
    """One hand (a unary call or a stream message) as its serialised ``Evaluation``,
    counted once scored."""
    started = time.perf_counter()
    evaluation = evaluate(to_hand_request(request))
    reply = evaluation_bytes(evaluation, request.game, request.request_id)
    metrics.record_evaluation(request.game, 1, time.perf_counter() - started)
    return reply


def _plain_evaluate(plain: PlainEvaluate) -> bytes | None:
    """``_evaluate`` of a request read in C (``read_plain_evaluate``) whose cards pass every
    check, None for one that does not; the same reply and metrics, byte for byte."""
    started = time.perf_counter()
    request = plain_hand_request(plain)
    if request is None:
        return None
    game = plain[0]
    reply = evaluation_bytes(evaluate(request), game, plain[3])
    metrics.record_evaluation(game, 1, time.perf_counter() - started)
    return reply


def _list_games(request: pb.ListGamesRequest) -> pb.ListGamesResponse:
    return to_list_games(GAMES.values())


def _showdown(request: pb.ShowdownRequest) -> pb.ShowdownResponse:
    """Counted as each seat's hand scored, and by how the game ended."""
    started = time.perf_counter()
    outcome = showdown(to_showdown_request(request))
    reply = to_showdown_response(outcome, request.game, request.request_id)
    metrics.record_evaluation(request.game, len(request.seats), time.perf_counter() - started)
    metrics.record_ending(outcome.ending)
    return reply


def _evaluate_or_error(request: pb.EvaluateRequest) -> pb.Evaluation | bytes:
    """A stream's reply: the evaluation, or one carrying ``error`` so the stream goes on."""
    try:
        return _evaluate(request)
    except Exception as error:
        problem = failure(error, "EvaluateStream", request)
    metrics.record_error(request.game, reason(problem))
    return pb.Evaluation(request_id=request.request_id, game=request.game, error=problem)


async def _refuse(context: grpc.aio.ServicerContext, request: object, problem: Status) -> NoReturn:
    """End the call with ``problem``, counted as an error of the request's game."""
    if isinstance(game := getattr(request, "game", None), int):
        metrics.record_error(game, reason(problem))
    await context.abort_with_status(rpc_status.to_status(problem))
    raise AssertionError("context.abort_with_status returns only by raising")


def _deadline_passed(context: grpc.aio.ServicerContext) -> bool:
    remaining = remaining_seconds(context)
    return remaining is not None and remaining <= 0


async def _abort_late(context: grpc.aio.ServicerContext) -> NoReturn:
    await context.abort(
        grpc.StatusCode.DEADLINE_EXCEEDED, "the deadline passed before the server could answer"
    )
    raise AssertionError("context.abort returns only by raising")
