"""A load's request pools (``service.client.load_requests``) hold exactly the bad share
asked, each refused by the service's own reading, the way the server will read them."""

from __future__ import annotations

import pytest
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.errors import InvalidRequest
from evaluators.inputs import Game
from evaluators.odds import serves_odds
from service.client.load_requests import ODDS_SAMPLES, build_pool
from service.client.load_spec import Rpc
from service.wire import requests
from tests.unit.service.client.test_load_spec import spec


@pytest.mark.parametrize("game", list(Game))
def test_the_pool_holds_exactly_the_asked_share_of_bad_hands_and_only_they_are_refused(
    game: Game,
) -> None:
    """Checked by the service's own request reading, the way the server will read them."""
    pool = build_pool(spec("127.0.0.1:1", rpc=Rpc.STREAM, game=game, requests=200, bad_share=0.25))
    assert sum(pool.bad) == 50
    for request, bad in zip(pool.payloads, pool.bad, strict=True):
        if bad:
            with pytest.raises(InvalidRequest):
                requests.to_hand_request(request)
        else:
            requests.to_hand_request(request)


def test_unary_pool_is_sent_as_serialized_evaluate_requests() -> None:
    pool = build_pool(spec("127.0.0.1:1", game=Game.TONK, requests=10))
    request = pb.EvaluateRequest.FromString(pool.payloads[3])
    assert request.game == pb.GAME_TONK
    assert len(request.hand) == 10


ODDS_GAMES = [game for game in Game if serves_odds(game)]


@pytest.mark.parametrize("game", ODDS_GAMES)
def test_the_odds_pool_is_sampled_requests_whose_bad_ones_alone_are_refused(game: Game) -> None:
    pool = build_pool(spec("127.0.0.1:1", rpc=Rpc.ODDS, game=game, requests=40, bad_share=0.25))
    assert sum(pool.bad) == 10
    for payload, bad in zip(pool.payloads, pool.bad, strict=True):
        request = pb.OddsRequest.FromString(payload)
        assert request.samples == ODDS_SAMPLES
        assert request.seats[0].unknown == 0 < request.seats[1].unknown
        if bad:
            with pytest.raises(InvalidRequest):
                requests.to_odds_request(request)
        else:
            requests.to_odds_request(request)
