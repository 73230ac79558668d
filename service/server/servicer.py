"""The RPCs of ``handeval.v1.HandEvaluator``: convert, call the core, convert back.

Errors follow API.md: a caller's mistake is INVALID_ARGUMENT with BadRequest details, an
over-limit batch RESOURCE_EXHAUSTED, a passed deadline DEADLINE_EXCEEDED; anything else is
a bug, answered INTERNAL with an incident id and logged with the request's shape (never its
cards) and the stack, which never reaches the caller.

Requests are decoded here (``method_handlers``), not by grpc: bytes that are no message of
the request's type are the caller's mistake, INVALID_ARGUMENT (a stream replies with
``error`` and goes on). grpc's own decoding would answer INTERNAL and, in a stream, leave
the call open until the shutdown grace runs out.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, NoReturn, TypeVar

import grpc
from google.protobuf.message import Message
from google.rpc import code_pb2, status_pb2
from grpc_status import rpc_status

from evaluators.batch import BatchCancelled, BatchTooLarge, evaluate_batch
from evaluators.cards import InvalidRequest
from evaluators.registry import GAMES
from evaluators.scoring import evaluate, showdown
from service.gen.handeval.v1 import handeval_pb2 as pb
from service.server import batch_reply, convert, metrics
from service.server.handlers import make_handler
from service.server.logs import log_event
from service.server.request_limits import MAX_REQUEST_BYTES, RequestTooLarge, too_many_bytes

Request = TypeVar("Request", bound=Message)
Reply = TypeVar("Reply", bound=Message | bytes)
SERVICE = pb.DESCRIPTOR.services_by_name["HandEvaluator"]


@dataclass(frozen=True)
class Unreadable:
    """Request bytes that are not a message of the expected type, or (``too_long``) more
    than any request within the request limits takes, refused unparsed."""

    type_name: str
    reason: str
    too_long: bool = False

    def status(self) -> status_pb2.Status:
        if self.too_long:
            return convert.status(code_pb2.RESOURCE_EXHAUSTED, self.reason)
        return convert.status(
            code_pb2.INVALID_ARGUMENT,
            f"the request is not a readable {self.type_name} message: {self.reason}",
        )


def _reader(message_type: type[Message]) -> Callable[[bytes], Message | Unreadable]:
    name = message_type.DESCRIPTOR.full_name
    limit = MAX_REQUEST_BYTES.get(name)

    def read(data: bytes) -> Message | Unreadable:
        if limit is not None and len(data) > limit:
            return Unreadable(name, too_many_bytes(name, len(data), limit), too_long=True)
        try:
            return message_type.FromString(data)
        except Exception as error:
            return Unreadable(message_type.DESCRIPTOR.full_name, str(error) or type(error).__name__)

    return read


def _writer(reply: Message | bytes) -> bytes:
    """A reply's bytes; a reply already serialised (``batch_reply``) goes out as it is."""
    return reply if isinstance(reply, bytes) else reply.SerializeToString()


def method_handlers(servicer: HandEvaluatorServicer) -> dict[str, grpc.RpcMethodHandler]:
    """A handler for every RPC of the proto's service, reading requests with ``_reader``."""
    handlers: dict[str, grpc.RpcMethodHandler] = {}
    for method in SERVICE.methods:
        request_type = getattr(pb, method.input_type.name)
        handlers[method.name] = make_handler(
            method.client_streaming,
            method.server_streaming,
            getattr(servicer, method.name),
            _reader(request_type),
            _writer,
        )
    return handlers


class HandEvaluatorServicer:
    """Stateless apart from its limits; safe to call from many threads at once.

    Not a subclass of the generated servicer: ``method_handlers`` registers its methods from
    the proto, so a missing one fails at start-up instead of answering UNIMPLEMENTED, and
    ``EvaluateBatch`` may reply with bytes already serialised.

    Each request arrives as its message or, when its bytes are not one, ``Unreadable``.
    """

    def __init__(self, max_batch_hands: int) -> None:
        self._max_batch_hands = max_batch_hands

    def Evaluate(
        self, request: pb.EvaluateRequest | Unreadable, context: grpc.ServicerContext
    ) -> pb.Evaluation:
        return answer(context, "Evaluate", request, _evaluate)

    def EvaluateStream(
        self, requests: Iterable[pb.EvaluateRequest | Unreadable], context: grpc.ServicerContext
    ) -> Iterator[pb.Evaluation]:
        for request in requests:
            if _deadline_passed(context):
                _abort_late(context)
            if isinstance(request, Unreadable):
                yield pb.Evaluation(error=request.status())
            else:
                yield _evaluate_or_error(request)

    def EvaluateBatch(
        self, request: pb.EvaluateBatchRequest | Unreadable, context: grpc.ServicerContext
    ) -> bytes:
        """The reply is a serialised ``EvaluateBatchResponse`` (``server.batch_reply``)."""

        def work(batch: pb.EvaluateBatchRequest) -> bytes:
            result = evaluate_batch(
                convert.to_game(batch.game),
                batch.hands,
                batch.hand_size,
                batch.tables,
                batch.table_size,
                convert.to_options(batch.options),
                self._max_batch_hands,
                keep_going=context.is_active,
            )
            return batch_reply.serialized(result)

        return answer(context, "EvaluateBatch", request, work)

    def Showdown(
        self, request: pb.ShowdownRequest | Unreadable, context: grpc.ServicerContext
    ) -> pb.ShowdownResponse:
        return answer(context, "Showdown", request, _showdown)

    def ListGames(
        self, request: pb.ListGamesRequest | Unreadable, context: grpc.ServicerContext
    ) -> pb.ListGamesResponse:
        return answer(context, "ListGames", request, _list_games)

    def Odds(
        self, request: pb.OddsRequest | Unreadable, context: grpc.ServicerContext
    ) -> pb.OddsResponse:
        """A placeholder so the server starts with every RPC of the proto registered."""
        context.abort(
            grpc.StatusCode.UNIMPLEMENTED, "Odds is not served by this server version yet"
        )
        raise AssertionError("context.abort returns only by raising")


def _evaluate(request: pb.EvaluateRequest) -> pb.Evaluation:
    evaluation = evaluate(convert.to_hand_request(request))
    return convert.to_evaluation(evaluation, request.game, request.request_id)


def _list_games(request: pb.ListGamesRequest) -> pb.ListGamesResponse:
    return convert.to_list_games(GAMES.values())


def _showdown(request: pb.ShowdownRequest) -> pb.ShowdownResponse:
    outcome = showdown(convert.to_showdown_request(request))
    return convert.to_showdown_response(outcome, request.game, request.request_id)


def _evaluate_or_error(request: pb.EvaluateRequest) -> pb.Evaluation:
    """A stream's reply: the evaluation, or one carrying ``error`` so the stream goes on."""
    started = time.perf_counter()
    try:
        reply = _evaluate(request)
    except InvalidRequest as error:
        problem = convert.invalid_argument(error.violations)
    except RequestTooLarge as error:
        problem = convert.status(code_pb2.RESOURCE_EXHAUSTED, str(error))
    except Exception:
        problem = _internal("EvaluateStream", request)
    else:
        metrics.record_evaluation(request.game, 1, time.perf_counter() - started)
        return reply
    metrics.record_error(request.game, _reason(problem))
    return pb.Evaluation(request_id=request.request_id, game=request.game, error=problem)


def _deadline_passed(context: grpc.ServicerContext) -> bool:
    remaining: float = context.time_remaining()
    return remaining <= 0


def _abort_late(context: grpc.ServicerContext) -> NoReturn:
    context.abort(
        grpc.StatusCode.DEADLINE_EXCEEDED, "the deadline passed before the server could answer"
    )
    raise AssertionError("context.abort returns only by raising")


def answer(
    context: grpc.ServicerContext,
    method: str,
    request: Request | Unreadable,
    work: Callable[[Request], Reply],
) -> Reply:
    """``work(request)``'s reply, or the call aborted with the status API.md gives its
    failure (INVALID_ARGUMENT for an Unreadable request)."""
    if _deadline_passed(context):
        _abort_late(context)
    if isinstance(request, Unreadable):
        context.abort_with_status(rpc_status.to_status(request.status()))
        raise AssertionError("context.abort_with_status returns only by raising")
    started = time.perf_counter()
    try:
        reply = work(request)
    except InvalidRequest as error:
        problem = convert.invalid_argument(error.violations)
    except (BatchTooLarge, RequestTooLarge) as error:
        problem = convert.status(code_pb2.RESOURCE_EXHAUSTED, str(error))
    except BatchCancelled:
        if _deadline_passed(context):
            _abort_late(context)
        problem = convert.status(code_pb2.CANCELLED, "the call was cancelled")
    except Exception:
        problem = _internal(method, request)
    else:
        _record(request, time.perf_counter() - started)
        return reply
    if isinstance(game := getattr(request, "game", None), int):
        metrics.record_error(game, _reason(problem))
    context.abort_with_status(rpc_status.to_status(problem))
    raise AssertionError("context.abort_with_status returns only by raising")


def _record(request: Message, seconds: float) -> None:
    """Count what a successful call scored: each hand of a batch, each seat of a showdown."""
    game = getattr(request, "game", None)
    if not isinstance(game, int):
        return  # ListGames scores nothing
    if isinstance(request, pb.EvaluateBatchRequest):
        hands = len(request.hands) // request.hand_size if request.hand_size else 0
        metrics.record_batch(game, hands)
    else:
        hands = len(request.seats) if isinstance(request, pb.ShowdownRequest) else 1
    metrics.record_evaluation(game, hands, seconds)


def _reason(problem: status_pb2.Status) -> str:
    """The ``reason`` label: the status code's name, e.g. ``invalid_argument``."""
    return str(code_pb2.Code.Name(problem.code)).lower()


def _internal(method: str, request: Message) -> status_pb2.Status:
    """Log the bug being handled (with the stack) and the status the caller gets instead."""
    incident = uuid.uuid4().hex[:12]
    shape: dict[str, Any] = convert.request_shape(request)
    log_event("error", logging.ERROR, exc_info=True, method=method, incident=incident, **shape)
    return convert.status(
        code_pb2.INTERNAL, f"internal error, incident {incident}: the server logged it"
    )
