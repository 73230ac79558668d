"""What each RPC's call does: its plan (a ``calls.Call``: the work, its cost, its lane,
how it stops) and its work, from the request as read to the reply's bytes, counted in the
metrics as it is answered.

Planning has no side effect: Odds' request is read and planned here, before admission
reserves its price, and its work runs the plan. A fast way is a variant inside a step,
never a road of its own: an Evaluate read in C (``PlainHand``) is scored from its card
ids, and a batch's screen is part of its scoring (``evaluators.batch``).
"""

from __future__ import annotations

import functools
import time

from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.batch import open_batch, score_batch
from evaluators.costs import BATCH_HAND_COST, CallCost, batch_cost
from evaluators.odds import OddsLimits, OddsRequest, PlannedOdds, odds_cost, plan_odds, run_odds
from evaluators.registry import GAMES
from evaluators.scoring import FIRST_CHUNK_HANDS, evaluate, showdown
from service.server import metrics, trace_phases
from service.server.calls import Call, Lane
from service.server.deadlines import Stopping
from service.server.errors import failure, reason
from service.server.limits import REPLY_BYTES_PER_HAND
from service.wire import batch_reply
from service.wire.batch_request import BatchCall
from service.wire.enums import to_game
from service.wire.replies import (
    evaluation_bytes,
    to_list_games,
    to_odds_response,
    to_showdown_response,
)
from service.wire.requests import (
    PlainHand,
    to_hand_request,
    to_odds_request,
    to_options,
    to_showdown_request,
)

INLINE_BATCH_HANDS = FIRST_CHUNK_HANDS
"""A batch this small is one chunk, scored on the loop: a pool thread would cost it more
in GIL hand-offs between the thread and the loop than it saves (docs/performance.md), and
a cancel could not stop it sooner anyway."""


def evaluate_call(request: PlainHand | pb.EvaluateRequest) -> Call:
    return _EVALUATE


def evaluate_reply(request: PlainHand | pb.EvaluateRequest) -> bytes:
    """One hand (a unary call or a stream message) as its serialised ``Evaluation``,
    counted once scored; a request read in C is scored from its checked card ids, to the
    same reply byte for byte."""
    started = time.perf_counter()
    if isinstance(request, tuple):
        game, request_id, hand, _ = request
    else:
        game, request_id, hand = request.game, request.request_id, to_hand_request(request)
    reply = evaluation_bytes(evaluate(hand), game, request_id)
    metrics.record_evaluation(game, 1, time.perf_counter() - started)
    return reply


def stream_reply(request: pb.EvaluateRequest) -> pb.Evaluation | bytes:
    """A stream's reply: the evaluation, or one carrying ``error`` so the stream goes on."""
    try:
        return evaluate_reply(request)
    except Exception as error:
        problem = failure(error, "EvaluateStream", request)
    metrics.record_error(request.game, reason(problem))
    return pb.Evaluation(request_id=request.request_id, game=request.game, error=problem)


def showdown_call(request: pb.ShowdownRequest) -> Call:
    return _SHOWDOWN


def showdown_reply(request: pb.ShowdownRequest) -> pb.ShowdownResponse:
    """Counted as each seat's hand scored, and by how the game ended."""
    started = time.perf_counter()
    outcome = showdown(to_showdown_request(request))
    reply = to_showdown_response(outcome, request.game, request.request_id)
    metrics.record_evaluation(request.game, len(request.seats), time.perf_counter() - started)
    metrics.record_ending(outcome.ending)
    return reply


def list_games_call(request: pb.ListGamesRequest) -> Call:
    return _LIST_GAMES


def list_games_reply(request: pb.ListGamesRequest) -> pb.ListGamesResponse:
    return to_list_games(GAMES.values())


def batch_call(batch: BatchCall, max_batch_hands: int, stopping: Stopping) -> Call:
    """A batch of at most ``INLINE_BATCH_HANDS`` hands is scored on the loop, in one pass;
    a larger one in the pool, in chunks that stop when the call is cancelled. Either way
    it reserves its cost: the reply's bytes are held until the reply has left."""
    message, hands = batch.message, len(batch.hands)
    one_pass = hands <= INLINE_BATCH_HANDS * max(message.hand_size, 1)
    return Call(
        functools.partial(batch_reply_bytes, max_batch_hands=max_batch_hands, stopping=stopping),
        _batch_cost(message, hands, len(batch.tables)),
        Lane.LOOP if one_pass else Lane.POOL,
        stopping,
    )


def batch_reply_bytes(batch: BatchCall, max_batch_hands: int, stopping: Stopping) -> bytes:
    """A serialised ``EvaluateBatchResponse`` (``service.wire.batch_reply``): byte columns
    when the request sets ``columns``, else the packed fields; counted from its result."""
    started = time.perf_counter()
    message = batch.message
    with trace_phases.phase("batch.read"):
        opened = open_batch(
            to_game(message.game),
            batch.hands,
            message.hand_size,
            batch.tables,
            message.table_size,
            to_options(message.options),
            max_batch_hands,
        )
    scored = len(opened.hands)
    room = batch_reply.ColumnsReply(scored) if message.columns else None
    with trace_phases.phase("batch.score"):
        result = score_batch(opened, stopping.gate(), room)
    with trace_phases.phase("batch.reply"):
        reply = batch_reply.reply_bytes(result, room)
    metrics.record_batch(message.game, scored)
    metrics.record_evaluation(message.game, scored, time.perf_counter() - started)
    return reply


def _batch_cost(request: pb.EvaluateBatchRequest, hands_bytes: int, tables_bytes: int) -> CallCost:
    """A batch's cost at its game's rate (the default rate for a game it lacks, which is
    refused anyway): its hands, its request's bytes held while it runs, and the largest
    reply it can have (``REPLY_BYTES_PER_HAND``)."""
    hands = hands_bytes // max(request.hand_size, 1)
    game = to_game(request.game)
    per_hand = GAMES[game].batch_cost if game is not None else BATCH_HAND_COST
    request_bytes = hands_bytes + tables_bytes
    return batch_cost(per_hand, hands, request_bytes, hands * REPLY_BYTES_PER_HAND)


def odds_call(asked: pb.OddsRequest, limits: OddsLimits, stopping: Stopping) -> Call:
    """Odds, read and planned once: the plan prices the call and is what its work runs,
    in the pool once it holds a place in the Odds lane."""
    request = to_odds_request(asked)
    planned = plan_odds(request, asked.samples, limits)
    return Call(
        functools.partial(odds_reply, request=request, planned=planned, stopping=stopping),
        odds_cost(request, planned),
        Lane.ODDS,
        stopping,
    )


def odds_reply(
    asked: pb.OddsRequest, request: OddsRequest, planned: PlannedOdds, stopping: Stopping
) -> pb.OddsResponse:
    """The run-outs of ``planned``, which stop between chunks when the call is cancelled
    or its deadline passes."""
    started = time.perf_counter()
    with trace_phases.phase("odds.plan") as span:
        span.set_attribute("handeval.runouts", planned.runouts)
        span.set_attribute("handeval.exact", planned.exact)
        span.set_attribute("handeval.chunk", planned.chunk)
    with trace_phases.phase("odds.runouts"):
        result = run_odds(request, planned, asked.seed, stopping.gate())
    metrics.record_odds(asked.game, result.exact, result.runouts, time.perf_counter() - started)
    with trace_phases.phase("odds.reply"):
        return to_odds_response(result, asked.game, asked.request_id)


_EVALUATE = Call(evaluate_reply)
_SHOWDOWN = Call(showdown_reply)
_LIST_GAMES = Call(list_games_reply)
