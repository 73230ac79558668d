"""The real server over a real channel: every RPC and game, docs/api.md's error table, health,
reflection, and draining on SIGTERM/SIGINT."""

from __future__ import annotations

import queue
import signal
import sys
import time
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import grpc
import pytest
from google.protobuf.message import Message
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)
from grpc_status import rpc_status
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb
from handeval_client.gen.handeval.v1 import handeval_pb2_grpc as pb_grpc

from evaluators.cards import parse_card
from evaluators.inputs import Game, TonkEnding
from evaluators.registry import GAMES
from evaluators.scoring import evaluate, showdown
from evaluators.validation import read_hand, read_showdown
from service.server.build import (
    SERVICE_NAME,
)
from service.server.config import Settings
from service.server.limits import message_limits
from service.wire import enums, replies, status
from tests.conftest import ServerProcess
from tests.unit.games.examples import game_tests

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


HANDS: dict[Game, dict[str, Any]] = {game: game_tests(game).HAND_EXAMPLE for game in Game}
"""One valid hand per game (and its table, and Tonk's table spreads)."""
DETAIL_FIELD = {game: game_tests(game).DETAIL_FIELD for game in Game}
SEATS: dict[Game, dict[str, Any]] = {game: game_tests(game).SHOWDOWN_EXAMPLE for game in Game}
"""One valid two-seat showdown per game."""


def _value(game: Game) -> pb.Game:
    return enums.game_value(game)


def evaluate_request(game: Game, request_id: str = "") -> pb.EvaluateRequest:
    example = HANDS[game]
    return pb.EvaluateRequest(
        game=_value(game),
        hand=example["hand"],
        table=example["table"],
        table_spreads=[pb.Spread(cards=s) for s in example.get("spreads", [])],
        request_id=request_id,
    )


def expected_evaluation(game: Game, request_id: str = "") -> pb.Evaluation:
    example = HANDS[game]
    hand = read_hand(game, example["hand"], example["table"], example.get("spreads", []))
    return replies.to_evaluation(evaluate(hand), _value(game), request_id)


def showdown_request(game: Game, request_id: str = "") -> pb.ShowdownRequest:
    example = SEATS[game]
    seats = []
    for seat in example["seats"]:
        declaration = enums.to_wire(seat[2]) if len(seat) > 2 else 0
        seats.append(pb.Seat(player=seat[0], hand=seat[1], declaration=declaration))
    ending = example.get("ending")
    return pb.ShowdownRequest(
        game=_value(game),
        seats=seats,
        table=example["table"],
        ending=enums.to_wire(ending) if ending else 0,
        ender=example.get("ender", ""),
        request_id=request_id,
    )


def violations_of(error: grpc.RpcError) -> list[error_details_pb2.FieldViolation]:
    """The BadRequest field violations of a failed call (checks code and message agree)."""
    status = rpc_status.from_call(error)
    assert status is not None, "no google.rpc.Status in the trailers"
    found = []
    for detail in status.details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad_request = error_details_pb2.BadRequest()
            detail.Unpack(bad_request)
            found.extend(bad_request.field_violations)
    return found


def call_error(call: Callable[..., Message], request: Message) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        call(request, timeout=10)
    error = caught.value
    assert isinstance(error, grpc.RpcError)
    return error


@pytest.mark.parametrize("game", list(Game), ids=lambda g: g.value)
def test_evaluate_answers_every_game_as_the_core_does(
    stub: pb_grpc.HandEvaluatorStub, game: Game
) -> None:
    reply = stub.Evaluate(evaluate_request(game, request_id=f"id-{game.value}"), timeout=10)
    assert reply == expected_evaluation(game, f"id-{game.value}")
    assert reply.WhichOneof("detail") == DETAIL_FIELD[game]
    assert reply.description
    assert not reply.HasField("error")


def test_evaluate_stream_answers_every_game_in_order(stub: pb_grpc.HandEvaluatorStub) -> None:
    requests = [evaluate_request(game, request_id=str(i)) for i, game in enumerate(Game)]
    replies = list(stub.EvaluateStream(iter(requests), timeout=10))
    assert replies == [expected_evaluation(g, str(i)) for i, g in enumerate(Game)]


def test_a_stream_carries_on_after_a_bad_request(stub: pb_grpc.HandEvaluatorStub) -> None:
    bad = pb.EvaluateRequest(game=_value(Game.POKER_HIGH), hand=["Ah", "Zz"], request_id="bad")
    requests = [evaluate_request(Game.TONK, "1"), bad, evaluate_request(Game.NUMBERS, "3")]
    replies = list(stub.EvaluateStream(iter(requests), timeout=10))
    assert [r.request_id for r in replies] == ["1", "bad", "3"]
    assert replies[0] == expected_evaluation(Game.TONK, "1")
    assert replies[2] == expected_evaluation(Game.NUMBERS, "3")
    error = replies[1].error
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    assert replies[1].WhichOneof("detail") is None
    bad_request = error_details_pb2.BadRequest()
    assert error.details[0].Unpack(bad_request)
    assert "hand[1]" in [v.field for v in bad_request.field_violations]


@pytest.mark.parametrize("game", list(Game), ids=lambda g: g.value)
def test_evaluate_batch_scores_each_packed_hand_as_evaluate_does(
    stub: pb_grpc.HandEvaluatorStub, game: Game
) -> None:
    rules = GAMES[game]
    example = HANDS[game]
    hand = [parse_card(c) for c in example["hand"]]
    table = [parse_card(c) for c in example["table"]]
    hand_size = rules.hand_max + 1
    packed = bytes(hand + [255] * (hand_size - len(hand)))
    request = pb.EvaluateBatchRequest(
        game=_value(game),
        hands=packed * 3,
        hand_size=hand_size,
        tables=bytes([*table, 255]),
        table_size=len(table) + 1,
    )
    reply = stub.EvaluateBatch(request, timeout=10)
    single = evaluate(read_hand(game, example["hand"], example["table"]))
    assert list(reply.strength) == [single.strength] * 3
    assert list(reply.low_strength) == [single.low_strength] * 3
    assert list(reply.value) == [rules.headline(single)] * 3
    assert list(reply.instant_win) == [single.instant_win] * 3


def test_an_empty_batch_has_empty_answers(stub: pb_grpc.HandEvaluatorStub) -> None:
    reply = stub.EvaluateBatch(
        pb.EvaluateBatchRequest(game=_value(Game.POKER_HIGH), hand_size=7), timeout=10
    )
    assert reply == pb.EvaluateBatchResponse()


@pytest.mark.parametrize("game", list(Game), ids=lambda g: g.value)
def test_showdown_resolves_every_game_and_echoes_the_request_id(
    stub: pb_grpc.HandEvaluatorStub, game: Game
) -> None:
    reply = stub.Showdown(showdown_request(game, request_id=f"pot-{game.value}"), timeout=10)
    example = SEATS[game]
    seats = [(s[0], s[1], s[2] if len(s) > 2 else None) for s in example["seats"]]
    core = read_showdown(
        game, seats, example["table"], ending=example.get("ending"), ender=example.get("ender", "")
    )
    assert reply == replies.to_showdown_response(showdown(core), _value(game), f"pot-{game.value}")
    assert reply.request_id == f"pot-{game.value}"
    assert [r.player for r in reply.results] == ["alice", "bob"]
    if not GAMES[game].pots:
        assert not reply.awards
        assert sum(p.stakes for p in reply.payouts) == 0
    elif not reply.redeal:
        assert sum(Fraction(a.numerator, a.denominator) for a in reply.awards) == 1


def test_list_games_lists_every_game_with_its_limits(stub: pb_grpc.HandEvaluatorStub) -> None:
    reply = stub.ListGames(pb.ListGamesRequest(), timeout=10)
    assert {enums.to_game(info.game) for info in reply.games} == set(Game)
    for info in reply.games:
        rules = GAMES[Game[pb.Game.Name(info.game).removeprefix("GAME_")]]
        assert (info.name, info.number, info.summary) == (rules.name, rules.number, rules.summary)
        assert (info.hand_min, info.hand_max) == (rules.hand_min, rules.hand_max)
        assert (info.table_min, info.table_max) == (rules.table_min, rules.table_max)
        assert (list(info.pots), list(info.options)) == (list(rules.pots), list(rules.options))
        assert info.jokers == rules.jokers
    assert next(i for i in reply.games if i.name == "Numbers").number == 137


# --- docs/api.md's error table -------------------------------------------------------------

POKER = _value(Game.POKER_HIGH)
NUMBERS = _value(Game.NUMBERS)
FLOP_A = _value(Game.FLOP_A)
TONK = _value(Game.TONK)
BOARD = ["Qh", "Jh", "Th"]


def _seat(player: str, *cards: str) -> pb.Seat:
    return pb.Seat(player=player, hand=list(cards))


def _batch_with_bad_hand(index: int) -> pb.EvaluateBatchRequest:
    hands = [bytes([51 - i, 47 - i, 43 - i, 39 - i, 35 - i]) for i in range(4)] * 5
    hands[index] = bytes([51, 51, 43, 39, 35])
    return pb.EvaluateBatchRequest(game=POKER, hands=b"".join(hands), hand_size=5)


def _batch_with_paired_table(index: int) -> pb.EvaluateBatchRequest:
    tables = [bytes([0, 4, 8])] * 20
    tables[index] = bytes([0, 1, 8])
    return pb.EvaluateBatchRequest(
        game=NUMBERS, hands=bytes([51]) * 20, hand_size=1, tables=b"".join(tables), table_size=3
    )


_DROP = enums.to_wire(TonkEnding.DROP)
_TONK_SEATS = [_seat("alice", "5h", "6h", "7h"), _seat("bob", "Kd", "2c", "3s")]

EV = pb.EvaluateRequest
SD = pb.ShowdownRequest
SPREAD = pb.Spread
HIGH_CARD_HAND = ["Ah", "Kd", "5c", "9s", "Tc"]

INVALID: list[tuple[str, str, Message, str]] = [
    ("unknown card text", "Evaluate", EV(game=POKER, hand=["Ah", "Zz"], table=BOARD), "hand[1]"),
    ("joker in poker", "Evaluate", EV(game=POKER, hand=["X1", "Kh"], table=BOARD), "hand[0]"),
    ("duplicate card", "Evaluate", EV(game=POKER, hand=["Qh", "Kh"], table=BOARD), "table[0]"),
    (
        "duplicate card across seats and table",
        "Showdown",
        SD(game=POKER, seats=[_seat("a", "Ah", "Kh"), _seat("b", "2c", "Kh")], table=BOARD),
        "seats[1].hand[1]",
    ),
    ("paired table", "Evaluate", EV(game=NUMBERS, hand=["Ah"], table=["2s", "2h"]), "table[1]"),
    ("wrong hand size", "Evaluate", EV(game=_value(Game.NOT_POKER), hand=["Ah", "Kh"]), "hand"),
    (
        "wrong table size",
        "Evaluate",
        EV(game=_value(Game.HIGH_CARD), hand=HIGH_CARD_HAND, table=["2s"]),
        "table",
    ),
    ("missing game", "Evaluate", EV(hand=["Ah"]), "game"),
    ("unknown game number", "Evaluate", EV(game=99, hand=["Ah"]), "game"),
    (
        "table_spreads outside Tonk",
        "Evaluate",
        EV(game=POKER, hand=HIGH_CARD_HAND, table_spreads=[SPREAD(cards=["2c", "2d", "2h"])]),
        "table_spreads",
    ),
    (
        "invalid table spread",
        "Evaluate",
        EV(game=TONK, hand=["5h"], table_spreads=[SPREAD(cards=["2c", "5d", "9s"])]),
        "table_spreads[0]",
    ),
    (
        "unknown card in a table spread",
        "Evaluate",
        EV(
            game=TONK,
            hand=["5h"],
            table_spreads=[SPREAD(cards=["9s", "9d", "9c"]), SPREAD(cards=["Zz", "2h", "3h"])],
        ),
        "table_spreads[1].cards[0]",
    ),
    ("fewer than 2 seats", "Showdown", SD(game=NUMBERS, seats=[_seat("a", "Ah")]), "seats"),
    (
        "duplicate player ids",
        "Showdown",
        SD(game=NUMBERS, seats=[_seat("a", "Ah"), _seat("a", "Kh")]),
        "seats[1].player",
    ),
    (
        "Flop-A seat without a declaration",
        "Showdown",
        SD(game=FLOP_A, seats=[_seat("a", "Ah"), _seat("b", "Kh")]),
        "seats[0].declaration",
    ),
    ("missing ending", "Showdown", SD(game=TONK, seats=_TONK_SEATS), "ending"),
    ("missing ender", "Showdown", SD(game=TONK, seats=_TONK_SEATS, ending=_DROP), "ender"),
    (
        "unknown ender",
        "Showdown",
        SD(game=TONK, seats=_TONK_SEATS, ending=_DROP, ender="carol"),
        "ender",
    ),
    ("a bad hand in a batch", "EvaluateBatch", _batch_with_bad_hand(17), "hands[17]"),
    ("a paired table in a batch", "EvaluateBatch", _batch_with_paired_table(17), "tables[17]"),
    (
        "batch bytes not whole hands",
        "EvaluateBatch",
        pb.EvaluateBatchRequest(game=POKER, hands=bytes(7), hand_size=5),
        "hands",
    ),
]


@pytest.mark.parametrize(
    ("case", "method", "request_message", "field"), INVALID, ids=[r[0] for r in INVALID]
)
def test_a_bad_request_is_invalid_argument_naming_the_field(
    stub: pb_grpc.HandEvaluatorStub, case: str, method: str, request_message: Message, field: str
) -> None:
    error = call_error(getattr(stub, method), request_message)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    violations = violations_of(error)
    assert field in [v.field for v in violations], (case, violations)
    assert all(v.description for v in violations)
    assert field in error.details()


def test_bytes_that_are_no_request_message_are_invalid_argument(channel: grpc.Channel) -> None:
    call = channel.unary_unary("/handeval.v1.HandEvaluator/Evaluate")
    with pytest.raises(grpc.RpcError) as caught:
        call(b"\xff\xff\xff", timeout=10)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "handeval.v1.EvaluateRequest" in caught.value.details()


def test_a_stream_answers_unreadable_bytes_with_an_error_and_goes_on(
    channel: grpc.Channel,
) -> None:
    call = channel.stream_stream("/handeval.v1.HandEvaluator/EvaluateStream")
    good = evaluate_request(Game.POKER_HIGH, "good").SerializeToString()
    replies = [pb.Evaluation.FromString(r) for r in call(iter([b"\xff\xff", good]), timeout=10)]
    assert replies[0].error.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    assert replies[1] == expected_evaluation(Game.POKER_HIGH, "good")


def test_a_batch_lists_ten_bad_hands_and_counts_the_rest(
    stub: pb_grpc.HandEvaluatorStub,
) -> None:
    request = pb.EvaluateBatchRequest(game=POKER, hands=bytes([0, 0, 4, 8, 12]) * 30, hand_size=5)
    violations = violations_of(call_error(stub.EvaluateBatch, request))
    assert [v.field for v in violations] == [f"hands[{i}]" for i in range(10)] + ["hands"]
    assert "20 more" in violations[-1].description


def test_a_batch_over_the_hand_limit_is_resource_exhausted_naming_the_limit(
    stub: pb_grpc.HandEvaluatorStub,
) -> None:
    limit = Settings().max_batch_hands
    request = pb.EvaluateBatchRequest(game=POKER, hands=bytes(limit + 1), hand_size=1)
    error = call_error(stub.EvaluateBatch, request)
    assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert str(limit) in error.details()


def test_a_message_over_the_byte_limit_is_resource_exhausted(
    stub: pb_grpc.HandEvaluatorStub,
) -> None:
    limit = message_limits(Settings().max_batch_hands).receive
    request = pb.EvaluateBatchRequest(game=POKER, hands=bytes(limit), hand_size=7)
    error = call_error(stub.EvaluateBatch, request)
    assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert str(limit) in error.details()


def test_a_call_past_its_deadline_is_deadline_exceeded(stub: pb_grpc.HandEvaluatorStub) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        stub.Evaluate(evaluate_request(Game.POKER_HIGH), timeout=-1.0)
    assert caught.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert stub.Evaluate(evaluate_request(Game.POKER_HIGH), timeout=10).strength > 0


def test_a_huge_card_text_is_refused_with_a_short_answer(stub: pb_grpc.HandEvaluatorStub) -> None:
    request = pb.EvaluateRequest(game=POKER, hand=["A" * 30_000, "Kh"], table=BOARD)
    error = call_error(stub.Evaluate, request)
    assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert len(error.details()) <= status.MAX_TEXT and "hand[0]" in error.details()
    long_typo = pb.EvaluateRequest(game=POKER, hand=["Ace♥", "Kh"], table=BOARD)
    typo = call_error(stub.Evaluate, long_typo)
    assert typo.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert all(len(v.description) <= status.MAX_TEXT for v in violations_of(typo))


# --- health, reflection ---------------------------------------------------------------


@pytest.mark.parametrize("service", ["", SERVICE_NAME])
def test_health_reports_serving_once_ready(channel: grpc.Channel, service: str) -> None:
    stub = health_pb2_grpc.HealthStub(channel)
    assert stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=5).status == SERVING


def test_health_of_an_unknown_service_is_not_found(channel: grpc.Channel) -> None:
    stub = health_pb2_grpc.HealthStub(channel)
    with pytest.raises(grpc.RpcError) as caught:
        stub.Check(health_pb2.HealthCheckRequest(service="no.such.Service"), timeout=5)
    assert caught.value.code() == grpc.StatusCode.NOT_FOUND


def test_reflection_lists_the_evaluator_and_health(channel: grpc.Channel) -> None:
    services = set(ProtoReflectionDescriptorDatabase(channel).get_services())
    assert {"handeval.v1.HandEvaluator", "grpc.health.v1.Health"} <= services


def test_reflection_can_be_turned_off(launch_server: Callable[..., ServerProcess]) -> None:
    running = launch_server("--no-reflection")
    with grpc.insecure_channel(running.target) as channel:
        with pytest.raises(grpc.RpcError) as caught:
            ProtoReflectionDescriptorDatabase(channel).get_services()
        assert caught.value.code() == grpc.StatusCode.UNIMPLEMENTED
        stub = pb_grpc.HandEvaluatorStub(channel)
        assert stub.ListGames(pb.ListGamesRequest(), timeout=5).games
    assert running.stop() == 0


# --- lifecycle ------------------------------------------------------------------------


def test_logs_are_json_lines_start_ready_draining_stop(
    launch_server: Callable[..., ServerProcess],
) -> None:
    running = launch_server()
    assert running.stop(signal.SIGINT) == 0
    running.wait_for_event("stop", timeout=5)
    names = [e["event"] for e in running.events]
    assert names == ["start", "ready", "draining", "stop"]
    assert running.named("start")[0]["port"] == running.port
    assert running.named("start")[0]["retain_freed_memory"] is sys.platform.startswith("linux")
    assert running.named("draining")[0]["signal"] == "SIGINT"
    assert all({"time", "level", "event"} <= set(e) for e in running.events)


class _OpenStream:
    """An EvaluateStream the test feeds one request at a time."""

    def __init__(self, stub: pb_grpc.HandEvaluatorStub) -> None:
        self._requests: queue.Queue[pb.EvaluateRequest | None] = queue.Queue()
        self.replies: Iterator[pb.Evaluation] = stub.EvaluateStream(
            iter(self._requests.get, None), timeout=30
        )

    def ask(self, request: pb.EvaluateRequest) -> pb.Evaluation:
        self._requests.put(request)
        return next(self.replies)

    def close(self) -> list[pb.Evaluation]:
        self._requests.put(None)
        return list(self.replies)


def _refused(target: str) -> bool:
    with grpc.insecure_channel(target) as channel:
        try:
            pb_grpc.HandEvaluatorStub(channel).ListGames(pb.ListGamesRequest(), timeout=2)
        except grpc.RpcError as error:
            return bool(error.code() == grpc.StatusCode.UNAVAILABLE)
    return False


def test_sigterm_drains_calls_in_flight_refuses_new_ones_and_exits_0(
    launch_server: Callable[..., ServerProcess],
) -> None:
    running = launch_server("--grace-seconds", "20")
    with grpc.insecure_channel(running.target) as channel:
        stub = pb_grpc.HandEvaluatorStub(channel)
        watch = health_pb2_grpc.HealthStub(channel).Watch(
            health_pb2.HealthCheckRequest(service=SERVICE_NAME), timeout=30
        )
        assert next(watch).status == SERVING
        streams = [_OpenStream(stub) for _ in range(3)]
        for i, stream in enumerate(streams):
            assert stream.ask(evaluate_request(Game.POKER_HIGH, f"{i}-before")).strength > 0

        running.process.send_signal(signal.SIGTERM)
        assert next(watch).status == NOT_SERVING
        refused = False
        for _ in range(60):  # refused once serve's DRAIN_NOTICE_SECONDS have passed
            refused = _refused(running.target)
            if refused:
                break
            time.sleep(0.05)
        assert refused, "a new call was served"

        for i, stream in enumerate(streams):
            after = stream.ask(evaluate_request(Game.TONK, f"{i}-after"))
            assert after == expected_evaluation(Game.TONK, f"{i}-after")
            assert stream.close() == []
        watch.cancel()
        assert running.process.wait(timeout=20) == 0
    assert running.named("draining")[0]["signal"] == "SIGTERM"
    running.wait_for_event("stop", timeout=5)
