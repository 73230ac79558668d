"""Odds over the wire (docs/api.md ``Odds``): a real server answers what the core answers in
process, refuses what the core refuses with its fields, keeps to its limits and settings,
counts its run-outs, and stops a call whose deadline passes."""

from __future__ import annotations

import time
from collections.abc import Callable

import grpc
import pytest
from handeval_client import HandevalClient, HandevalError, odds_request, showdown_request
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb
from handeval_client.requests import SeatIn

from evaluators.odds import odds
from service.wire import replies, requests
from tests.conftest import ServerProcess
from tests.integration.test_metrics import rpc, scrape_until, value

ODDS_CASES: list[tuple[str, list[SeatIn], str, str, int]] = [
    ("numbers", [("alice", "7h 2c Kd 9s 3h"), ("bob", "?5")], "2d Kh", "", 20_000),
    ("florida-bingo", [("a", "Ah 2c 3d 4s 5h"), ("b", "6c 7d 8h 9s ?")], "Tc Jd Qh Ks 2d", "", 0),
    ("flop-a", [("a", "Ad ?2", "high"), ("b", "?3", "both")], "2c 5h", "9s", 20_000),
    ("333", [("a", "Ad 6h ?1"), ("b", "Tc ?2")], "2c 5d 7h", "", 0),
    ("high-card", [("a", "7d 8h 9s Tc ?1"), ("b", "Qc Jd 9d Kh ?1")], "2c 5h 8d Jc", "", 0),
    ("grocery-store-dots", [("a", "Ad 3h 4s 5c 7d 9s ?"), ("b", "2c 2d 8c 8d Tc Td ?")], "", "", 0),
    ("poker-high", [("a", "As Ks"), ("b", "?2")], "2c 7d 9h", "Qd", 0),
]  # fmt: skip
"""One request per odds game: exact where it is small, else sampled with a seed."""


def in_process(request: pb.OddsRequest) -> pb.OddsResponse:
    result = odds(requests.to_odds_request(request), request.samples, request.seed)
    return replies.to_odds_response(result, request.game, request.request_id)


@pytest.fixture(scope="module")
def client(server: ServerProcess) -> HandevalClient:
    return HandevalClient(server.target, timeout=60)


@pytest.mark.parametrize(("game", "seats", "table", "dead", "samples"), ODDS_CASES)
def test_odds_over_the_wire_equal_the_core_in_process(
    client: HandevalClient, game: str, seats: list[SeatIn], table: str, dead: str, samples: int
) -> None:
    request = odds_request(game, seats, table, dead, samples=samples, seed=7, request_id=game)
    reply = client.send_odds(request)
    assert reply == in_process(request)
    assert (reply.request_id, reply.game) == (game, request.game)
    assert [s.player for s in reply.seats] == [s.player for s in request.seats]
    assert reply.exact == (samples == 0)
    assert (reply.standard_error == 0) == reply.exact
    assert sum(s.share for s in reply.seats) + reply.redeal == pytest.approx(1)
    pots = next(g.pots for g in client.list_games().games if g.game == request.game)
    assert all([p.pot for p in s.pots] == list(pots) for s in reply.seats)


def test_list_games_says_which_games_odds_serves(client: HandevalClient) -> None:
    served = {g.name for g in client.list_games().games if g.odds}
    assert served == {
        "Numbers",
        "Florida Bingo",
        "Flop-A",
        "Three Hundred Thirty Three",
        "High Card",
        "Grocery Store Dots",
        "Poker high",
    }


def _refused(client: HandevalClient, request: pb.OddsRequest) -> HandevalError:
    with pytest.raises(HandevalError) as caught:
        client.send_odds(request)
    return caught.value


EVERY_CARD_TWO_TO_QUEEN = " ".join(f"{rank}{suit}" for rank in "23456789TJQ" for suit in "cdhs")


@pytest.mark.parametrize(
    ("request_", "field"),
    [
        (odds_request("not-poker", {"a": "?6", "b": "?6"}), "game"),
        (odds_request("tonk", {"a": "?5", "b": "?5"}), "game"),
        (odds_request("numbers", {"a": "?5", "b": "?4"}), "seats[1].unknown"),
        (odds_request("numbers", {"a": "Ks ?4", "b": "?5"}, dead=EVERY_CARD_TWO_TO_QUEEN), "table"),
        (odds_request("numbers", {"a": "As ?4", "b": "?5"}, dead="As"), "dead[0]"),
    ],
    ids=["not-poker", "tonk", "unknown", "too-few-unseen", "duplicate-dead"],
)
def test_a_refused_odds_request_names_its_field(
    client: HandevalClient, request_: pb.OddsRequest, field: str
) -> None:
    error = _refused(client, request_)
    assert error.code is grpc.StatusCode.INVALID_ARGUMENT
    assert [f for f, _ in error.violations] == [field]


def test_unknown_cards_in_a_showdown_are_refused(client: HandevalClient) -> None:
    request = showdown_request("numbers", {"a": "Ah Kd 2c", "b": "5s 5d Qc"}, table="3c 9d Kh")
    request.seats[1].unknown = 2
    with pytest.raises(HandevalError) as caught:
        client.send_showdown(request)
    assert caught.value.code is grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.violations == (
        ("seats[1].unknown", "2 unknown cards: only Odds reads unknown"),
    )


def test_more_samples_than_allowed_is_resource_exhausted_naming_the_limit(
    client: HandevalClient,
) -> None:
    error = _refused(
        client, odds_request("poker-high", {"a": "As Ks", "b": "?2"}, samples=10**7 + 1)
    )
    assert error.code is grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "at most 10000000" in error.message


def test_more_seats_than_the_request_limit_is_resource_exhausted(client: HandevalClient) -> None:
    error = _refused(client, odds_request("numbers", [(f"p{i}", "?1") for i in range(55)]))
    assert error.code is grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "seats has 55 seats" in error.message


def test_settings_bound_exact_odds_and_samples_and_the_metrics_count_them(
    launch_server: Callable[..., ServerProcess],
) -> None:
    server = launch_server(
        "--max-exact-runouts", "100", "--odds-samples", "5000", "--max-odds-samples", "6000"
    )
    turn = odds_request("poker-high", {"a": "As Ks", "b": "Qd Qc"}, "2c 7d 9h 4s")
    flop = odds_request("poker-high", {"a": "As Ks", "b": "Qd Qc"}, "2c 7d 9h")
    with HandevalClient(server.target, timeout=60) as client:
        exact = client.send_odds(turn)
        fallback = client.send_odds(flop)
        flop.samples = 6001
        error = _refused(client, flop)
    assert (exact.exact, exact.runouts) == (True, 44)
    assert (fallback.exact, fallback.runouts) == (False, 5000)
    assert fallback.standard_error > 0
    assert error.code is grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "at most 6000" in error.message

    game = {"game": "poker_high"}
    handled = "grpc_server_handled_total"
    s = scrape_until(
        server.metrics_port(),
        lambda s: value(s, handled, **rpc("Odds"), grpc_code="ResourceExhausted") >= 1,
    )
    assert value(s, handled, **rpc("Odds"), grpc_code="OK") == 2
    assert value(s, "handeval_odds_runouts_total", **game) == 44 + 5000
    assert value(s, "handeval_odds_calls_total", **game, mode="exact") == 1
    assert value(s, "handeval_odds_calls_total", **game, mode="sampled") == 1
    assert value(s, "handeval_odds_seconds_count", **game) == 2
    assert value(s, "handeval_evaluation_errors_total", **game, reason="resource_exhausted") == 1
    assert value(s, "handeval_hands_evaluated_total", **game) == 0
    assert server.stop() == 0


def test_an_odds_call_past_its_deadline_stops_and_frees_its_worker(
    launch_server: Callable[..., ServerProcess],
) -> None:
    """With one call at a time, a worker still sampling the expired call's 10**9 run-outs
    of nine seats (minutes of work; 10**7 took 1.7 s with Odds in C) would refuse the next
    call RESOURCE_EXHAUSTED."""
    samples = 10**9
    server = launch_server(
        "--max-concurrent-rpcs", "1", "--max-odds-samples", str(samples),
        "--cpu-budget-seconds", "100000",
    )  # fmt: skip
    big = odds_request("poker-high", [(f"p{i}", "?2") for i in range(9)], samples=samples)
    small = odds_request("poker-high", {"a": "As Ks", "b": "Qd Qc"}, "2c 7d 9h 4s")
    with HandevalClient(server.target, timeout=60, retries=False) as client:
        with pytest.raises(HandevalError) as caught:
            client.send_odds(big, timeout=0.5)
        assert caught.value.code is grpc.StatusCode.DEADLINE_EXCEEDED
        deadline = time.monotonic() + 30
        while True:
            try:
                assert client.send_odds(small).exact
                break
            except HandevalError as busy:
                assert busy.code is grpc.StatusCode.RESOURCE_EXHAUSTED
                assert time.monotonic() < deadline, "the expired call still holds its worker"
                time.sleep(0.1)
    assert server.stop() == 0
