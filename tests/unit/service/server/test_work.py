"""Each RPC's plan and work (``service.server.work``): a plan prices the call and names its
lane with no side effect, and the work gives the reply the long way gives, counted."""

from __future__ import annotations

import math
import threading

import numpy as np
import pytest
from handeval_client import batch_request, odds_request
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.cards import card_text
from evaluators.errors import InvalidRequest
from evaluators.odds import OddsLimits, odds_cost, plan_odds
from service.server import work
from service.server.calls import Lane
from service.server.deadlines import Stopping
from service.wire.batch_request import read_batch_call
from service.wire.requests import read_checked_plain, to_odds_request

EVALUATE = pb.EvaluateRequest(
    game=pb.GAME_POKER_HIGH, hand=["Ah", "Kh", "Qh", "Jh", "Th"], request_id="w"
)


def _stopping() -> Stopping:
    return Stopping(threading.Event(), math.inf, lambda: True)


def _batch(hands: int, columns: bool = True) -> pb.EvaluateBatchRequest:
    cards = np.tile(np.arange(5, dtype=np.uint8), (hands, 1))
    return batch_request("poker", cards, columns=columns)


def test_an_evaluate_read_in_c_gets_the_long_ways_reply_byte_for_byte() -> None:
    plain = read_checked_plain(EVALUATE.SerializeToString())
    assert plain is not None
    assert work.evaluate_reply(plain) == work.evaluate_reply(EVALUATE)
    call = work.evaluate_call(EVALUATE)
    assert (call.cost, call.lane, call.stopping) == (None, Lane.LOOP, None)
    assert call.work(EVALUATE) == work.evaluate_reply(EVALUATE)


def test_a_stream_message_the_rules_refuse_is_answered_with_its_error() -> None:
    bad = pb.EvaluateRequest(game=pb.GAME_POKER_HIGH, hand=["Ah", "Ah"], request_id="s")
    reply = work.stream_reply(bad)
    assert isinstance(reply, pb.Evaluation) and reply.request_id == "s"
    assert reply.error.code == 3  # INVALID_ARGUMENT
    with pytest.raises(InvalidRequest):
        work.evaluate_reply(bad)


def test_a_batch_of_one_chunk_runs_on_the_loop_a_larger_one_in_the_pool_both_priced() -> None:
    small = work.batch_call(read_batch_call(_batch(10).SerializeToString()), 100_000, _stopping())
    large_request = _batch(work.INLINE_BATCH_HANDS + 1).SerializeToString()
    large = work.batch_call(read_batch_call(large_request), 100_000, _stopping())
    assert small.lane is Lane.LOOP and large.lane is Lane.POOL
    assert small.cost is not None and large.cost is not None
    assert large.cost.cpu_seconds > small.cost.cpu_seconds
    assert large.stopping is not None


def test_a_batchs_work_scores_every_hand_as_one_evaluate_does() -> None:
    batch = read_batch_call(_batch(3, columns=False).SerializeToString())
    reply = work.batch_call(batch, 100_000, _stopping()).work(batch)
    assert isinstance(reply, bytes)
    one = pb.Evaluation.FromString(
        work.evaluate_reply(
            pb.EvaluateRequest(game=pb.GAME_POKER_HIGH, hand=[card_text(c) for c in range(5)])
        )
    )
    assert list(pb.EvaluateBatchResponse.FromString(reply).strength) == [one.strength] * 3


def test_odds_is_planned_once_priced_by_its_plan_and_run_in_the_odds_lane() -> None:
    asked = odds_request("poker", {"a": "Ah Kh", "b": "?2"}, "2c 3d 4s", samples=500, seed=1)
    call = work.odds_call(asked, OddsLimits(), _stopping())
    request = to_odds_request(asked)
    assert call.lane is Lane.ODDS
    assert call.cost == odds_cost(request, plan_odds(request, 500, OddsLimits()))
    reply = call.work(asked)
    assert isinstance(reply, pb.OddsResponse) and len(reply.seats) == 2


def test_list_games_lists_every_game() -> None:
    reply = work.list_games_call(pb.ListGamesRequest()).work(pb.ListGamesRequest())
    assert isinstance(reply, pb.ListGamesResponse) and len(reply.games) > 5
