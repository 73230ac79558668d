"""The typed client against the real server started as a subprocess: every method, retries
and round_robin over two servers (request building and error mapping in process:
tests.unit.handeval_client.test_client.py)."""

from __future__ import annotations

import signal
import socket
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

import grpc
import numpy as np
import pytest
from handeval_client import (
    HandevalClient,
    HandevalError,
    detail,
    evaluate_request,
    parse_game,
    share,
)
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.cards import parse_card
from evaluators.inputs import Game, Options, TonkEnding
from service.wire.enums import game_value
from tests.conftest import ServerProcess
from tests.unit.handeval_client.test_client import refusal


def free_port() -> int:
    """A loopback port nothing listens on (just released by the OS)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def target(server: ServerProcess) -> str:
    return server.target


@pytest.fixture(scope="module")
def client(target: str) -> Iterator[HandevalClient]:
    with HandevalClient(target, timeout=10) as handeval:
        handeval.wait_ready()
        yield handeval


def test_evaluate_scores_tonk_deadwood_and_echoes_the_request_id(client: HandevalClient) -> None:
    evaluation = client.evaluate("tonk", "5h 6h 7h Kd 2c", request_id="r-7")
    assert evaluation.request_id == "r-7"
    assert evaluation.game == pb.GAME_TONK
    assert evaluation.tonk.deadwood == 12
    assert detail(evaluation) == evaluation.tonk
    assert list(evaluation.tonk.deadwood_cards) == ["Kd", "2c"]


def test_evaluate_reads_options_and_table_spreads(client: HandevalClient) -> None:
    hit = client.evaluate("tonk", "8h Kd", table_spreads=["5h 6h 7h"])
    assert hit.tonk.deadwood == 10
    low = client.evaluate(
        "high-card", "As 2c 3d 4h 6s", table="Ad 5c 7d 8h 9s", options=Options(ace_low=True)
    )
    high = client.evaluate("high-card", "As 2c 3d 4h 6s", table="Ad 5c 7d 8h 9s")
    assert low.high_card.survived != high.high_card.survived


def test_bad_card_raises_invalid_argument_naming_the_field(client: HandevalClient) -> None:
    with pytest.raises(HandevalError) as caught:
        client.evaluate("numbers", ["Ah", "Kd", "Zz"], table="3c 3d")
    error = caught.value
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT
    fields = [field for field, _ in error.violations]
    assert "hand[2]" in fields and "table[1]" in fields
    assert all(description for _, description in error.violations)


def test_stream_answers_in_order_and_goes_on_after_a_bad_request(client: HandevalClient) -> None:
    requests = [
        evaluate_request("poker-high", "Ah Kh Qh Jh Th", request_id="a"),
        evaluate_request("poker-high", "Ah Ah Qh Jh Th", request_id="b"),
        evaluate_request("numbers", "Ah Kd", table="3c", request_id="c"),
    ]
    replies = list(client.evaluate_stream(requests))
    assert [r.request_id for r in replies] == ["a", "b", "c"]
    assert replies[0].poker.rank_class == 1 and not replies[0].HasField("error")
    error = HandevalError.from_status(replies[1].error)
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT
    assert [f for f, _ in error.violations] == ["hand[1]"]
    assert replies[2].points.high_total == 25


def test_batch_answers_numpy_arrays_one_entry_per_hand(client: HandevalClient) -> None:
    result = client.evaluate_batch(
        "poker-high", [["Ah", "Kh", "Qh", "Jh", "Th"], ["2c", "3d", "4h", "5s", "7c"]]
    )
    assert result.value.tolist() == [1, 7462]
    assert result.strength.dtype == np.uint32 and result.strength[0] > result.strength[1]


def test_bad_batch_hand_fails_the_whole_batch_naming_its_index(client: HandevalClient) -> None:
    hands = np.array([[0, 4, 8], [12, 12, 16]], dtype=np.uint8)
    with pytest.raises(HandevalError) as caught:
        client.evaluate_batch("numbers", hands)
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert [f for f, _ in caught.value.violations] == ["hands[1]"]


def test_showdown_awards_are_fractions_of_the_whole_pot(client: HandevalClient) -> None:
    response = client.showdown(
        "numbers", {"alice": "Ah Kd 2c", "bob": "5s 5d Qc"}, table="3c 9d Kh"
    )
    shares = {(a.player, a.pot): share(a) for a in response.awards}
    assert shares == {("bob", "high"): Fraction(1, 2), ("alice", "low"): Fraction(1, 2)}
    assert [r.player for r in response.results] == ["alice", "bob"]


def test_tonk_showdown_settles_in_stakes_summing_to_zero(client: HandevalClient) -> None:
    response = client.showdown(
        "tonk", {"ann": "5h 6h 7h", "bob": "Kd Qd", "cy": "2c"}, ending="drop", ender="cy"
    )
    stakes = {p.player: p.stakes for p in response.payouts}
    assert stakes == {"ann": -1, "bob": -1, "cy": 2}
    assert not response.awards


def test_showdown_refusal_names_the_seat_field(client: HandevalClient) -> None:
    with pytest.raises(HandevalError) as caught:
        client.showdown("flop-a", [("ann", "Ah 2c"), ("ann", "Kd", "low")])
    fields = {field for field, _ in caught.value.violations}
    assert {"seats[1].player", "seats[0].declaration"} <= fields


def test_list_games_names_every_game(client: HandevalClient) -> None:
    games = client.list_games().games
    assert {parse_game(g.game) for g in games} == {game_value(game) for game in Game}


def test_health_is_serving_overall_and_for_the_evaluator(client: HandevalClient) -> None:
    assert client.health() == "SERVING"
    assert client.health("handeval.v1.HandEvaluator") == "SERVING"
    with pytest.raises(HandevalError) as caught:
        client.health("no.such.Service")
    assert caught.value.code == grpc.StatusCode.NOT_FOUND


def test_calls_succeed_while_one_of_two_targets_is_down(target: str) -> None:
    down = f"127.0.0.1:{free_port()}"
    with HandevalClient([down, target], timeout=10) as both:
        replies = [both.evaluate("tonk", "5h 6h 7h Kd 2c").tonk.deadwood for _ in range(20)]
    assert replies == [12] * 20


def test_round_robin_spreads_calls_over_both_servers(
    target: str, launch_server: Callable[..., ServerProcess]
) -> None:
    """The second server refuses batches of more than one hand, so which server answered
    each call shows in its status: both kinds of answer mean both servers served."""
    small = launch_server("--max-batch-hands", "1", "--metrics-port", "0")
    with HandevalClient([target, small.target], timeout=10) as two:
        two.wait_ready()
        outcomes = {"big": 0, "small": 0}
        for _ in range(200):
            try:
                two.evaluate_batch("tonk", [["5h"], ["6h"]])
                outcomes["big"] += 1
            except HandevalError as error:
                assert error.code == grpc.StatusCode.RESOURCE_EXHAUSTED
                outcomes["small"] += 1
            if min(outcomes.values()) >= 5:
                break
    assert min(outcomes.values()) >= 5, outcomes


def test_no_call_fails_while_one_of_two_servers_drains_and_exits(
    target: str, launch_server: Callable[..., ServerProcess]
) -> None:
    """SIGTERM one server in the middle of a run of calls spread over two: calls in flight
    finish, new ones go to the server still up. (Without the client's health checking,
    about one run in ten lost a call: CANCELLED, racing the server's shutdown.)"""
    leaving = launch_server("--metrics-port", "0", "--grace-seconds", "2")
    stopper = threading.Thread(target=leaving.stop)
    deadwoods = []
    with HandevalClient([target, leaving.target], timeout=10) as two:
        two.wait_ready()
        for index in range(300):
            if index == 50:
                stopper.start()
            deadwoods.append(two.evaluate("tonk", "5h 6h 7h Kd 2c").tonk.deadwood)
    stopper.join()
    assert leaving.process.returncode == 0
    assert deadwoods == [12] * 300


def test_retries_carry_calls_in_flight_on_a_killed_server_to_the_other(
    target: str, launch_server: Callable[..., ServerProcess]
) -> None:
    """kill -9 one of two servers while 8 threads call: the calls it was serving fail with
    UNAVAILABLE at the transport, and the retry policy re-sends them to the server still
    up. (With ``retries=False`` it fails about one run in three here: calls end UNAVAILABLE.)"""
    doomed = launch_server("--metrics-port", "0")
    hands = [["Ah", "Kh", "Qh", "Jh", "Th"]] * 1000
    with HandevalClient([target, doomed.target], timeout=20) as two:
        two.wait_ready()

        def call(index: int) -> int:
            if index == 60:
                doomed.process.send_signal(signal.SIGKILL)
            return int(two.evaluate_batch("poker-high", hands).value[0])

        with ThreadPoolExecutor(8) as pool:
            values = list(pool.map(call, range(240)))
    assert doomed.process.wait(10) == -signal.SIGKILL
    assert values == [1] * 240


def test_tonk_house_rules_reach_the_settlement_given_as_keywords_or_a_mapping(
    client: HandevalClient,
) -> None:
    """A Texas Tonk caught drop: the dropper pays only the winner, who is paid double."""
    seats = {"dan": "Tc", "lo": "5c", "mid": "8c"}
    for response in (
        client.showdown("tonk", seats, ending="drop", ender="dan", texas=True),
        client.showdown(
            "tonk", seats, ending=TonkEnding.DROP, ender="dan", options={"texas": True}
        ),
    ):
        assert {p.player: p.stakes for p in response.payouts} == {"dan": -2, "lo": 3, "mid": -1}
    plain = client.showdown("tonk", seats, ending="drop", ender="dan")
    assert {p.player: p.stakes for p in plain.payouts} != {"dan": -2, "lo": 3, "mid": -1}


def test_odds_answers_each_seats_share_exactly_with_unknown_cards(client: HandevalClient) -> None:
    response = client.odds("poker-high", {"alice": "As Ks", "bob": "?2"}, table="2c 7d 9h")
    assert response.exact
    shares = [seat.share for seat in response.seats]
    assert shares[0] > shares[1] and sum(shares) == pytest.approx(1.0)


def test_an_unknown_game_fails_a_call_as_a_handeval_error_before_sending(
    client: HandevalClient,
) -> None:
    error = refusal(lambda: client.evaluate("bridge", "Ah"))
    assert error.violations[0][0] == "game" and "tonk" in error.violations[0][1]


def test_a_batch_duplicate_names_the_card_and_its_places(client: HandevalClient) -> None:
    hands = np.array([[parse_card(c) for c in ["Ah", "Kd", "2c"]]] * 2, dtype=np.uint8)
    hands[1, 2] = parse_card("Ah")
    alone = refusal(lambda: client.evaluate_batch("numbers", hands))
    assert alone.violations == (("hands[1]", "hand[2]: duplicate card 'Ah': also at hand[0]"),)
    with_table = refusal(lambda: client.evaluate_batch("numbers", hands[:1], tables=["3c", "2c"]))
    assert with_table.violations == (
        ("hands[0]", "table[1]: duplicate card '2c': also at hand[2]"),
    )


def test_a_batch_takes_numpy_tables_and_answers_numpy(client: HandevalClient) -> None:
    hands = np.array([[parse_card(c) for c in row.split()] for row in ("Ah Kd", "5s 5d")])
    shared = client.evaluate_batch("numbers", hands, np.array([parse_card("3c")]))
    own = client.evaluate_batch(
        "numbers", hands, np.array([[parse_card("3c")], [parse_card("3c")]], dtype=np.int32)
    )
    assert isinstance(shared.value, np.ndarray) and shared.value.dtype == np.int32
    assert shared.value.tolist() == own.value.tolist() == [25, 10]
