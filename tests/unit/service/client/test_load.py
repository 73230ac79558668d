"""The load generator without a server: a spec that would not end is refused, no server is a
load error and not a hang, and the request pools hold exactly the bad share asked, each
refused by the service's own reading (runs against real servers: tests/test_load.py)."""

from __future__ import annotations

import time

import pytest
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.cards import InvalidRequest
from evaluators.inputs import Game
from evaluators.odds import serves_odds
from service.client.load import run_load
from service.client.load_requests import ODDS_SAMPLES, build_pool
from service.client.load_spec import LoadError, LoadSpec, Rpc
from service.wire import requests


def spec(target: str | tuple[str, ...], **fields: object) -> LoadSpec:
    targets = (target,) if isinstance(target, str) else target
    values: dict[str, object] = {"concurrency": 4, "duration_s": 20.0, "batch_size": 20}
    values.update(fields)
    return LoadSpec(targets=targets, **values)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"requests": None, "duration_s": None}, "unbounded"),
        ({"requests": None, "duration_s": 0.0}, "unbounded"),
        ({"requests": 0}, "requests must be 1 or more"),
        ({"bad_share": 1.5}, "bad share must be 0-1"),
        ({"concurrency": 0}, "concurrency must be 1 or more"),
        ({"channels": "many"}, "channels must be worker or shared"),
    ],
)
def test_a_spec_that_would_not_end_or_cannot_run_is_refused(
    fields: dict[str, object], problem: str
) -> None:
    with pytest.raises(LoadError, match=problem):
        spec("127.0.0.1:1", **fields).check()


def test_no_server_is_a_load_error_not_a_hang() -> None:
    with pytest.raises(LoadError, match=r"no server at 127\.0\.0\.1:1"):
        run_load(spec("127.0.0.1:1", requests=5, ready_timeout_s=0.5))


def test_a_refused_connection_fails_the_run_early_saying_why() -> None:
    """Nothing listening: the run gives up ``FAIL_FAST_S`` after the first refusal, with
    gRPC's reason, long before the ready timeout it would otherwise wait out."""
    started = time.monotonic()
    with pytest.raises(LoadError) as caught:
        run_load(spec("127.0.0.1:1", duration_s=3.0, ready_timeout_s=60.0))
    assert time.monotonic() - started < 30.0
    message = str(caught.value)
    assert message.startswith("no server at 127.0.0.1:1: none answered in ")
    assert "(UNAVAILABLE: " in message  # gRPC's reason, e.g. "... Connection refused"


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


def test_odds_load_of_a_game_without_odds_is_refused() -> None:
    with pytest.raises(LoadError, match="Odds does not serve Tonk"):
        spec("127.0.0.1:1", rpc=Rpc.ODDS, game=Game.TONK).check()
