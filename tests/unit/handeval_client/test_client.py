"""The typed client without a server: game, declaration, ending and option names read as
people type them, requests built from text, ids or arrays, bad input refused before sending
naming it, errors read from a status, the retry policy and the target list (every method
against a real server: tests/integration/test_client.py). The core's names are the reference
the client's catalogue is held to."""

from __future__ import annotations

import json
from collections.abc import Callable

import grpc
import numpy as np
import pytest
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from handeval_client import (
    HandevalError,
    batch_request,
    evaluate_request,
    parse_game,
    showdown_request,
)
from handeval_client.channel import channel_options, channel_target, service_config
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb
from handeval_client.requests import parse_declaration, parse_ending

from evaluators.cards import EMPTY, parse_card
from evaluators.inputs import Declaration, Game, Options, TonkEnding
from service.wire.enums import game_value, to_wire


@pytest.mark.parametrize(
    ("text", "game"),
    [
        ("tonk", Game.TONK),
        ("poker-high", Game.POKER_HIGH),
        ("Poker high", Game.POKER_HIGH),
        ("POKER_HIGH", Game.POKER_HIGH),
        ("GAME_NOT_POKER", Game.NOT_POKER),
        ("NotPoker", Game.NOT_POKER),
        ("Three Hundred Thirty Three", Game.THREE_THIRTY_THREE),
        ("flop-a", Game.FLOP_A),
        ("Florida Bingo", Game.FLORIDA_BINGO),
        (pb.GAME_NUMBERS, Game.NUMBERS),
        (Game.HIGH_CARD, Game.HIGH_CARD),
    ],
)
def test_game_names_people_type_read_as_the_game(text: str | int | Game, game: Game) -> None:
    """The client's names (its catalogue) lead to the core's game, by its wire value."""
    assert parse_game(text) == game_value(game)


def refusal(call: Callable[[], object]) -> HandevalError:
    """The HandevalError ``call`` raises, which must be an INVALID_ARGUMENT refusal."""
    with pytest.raises(HandevalError) as caught:
        call()
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    return caught.value


def test_an_unknown_game_is_a_handeval_error_naming_the_game_and_the_known_ones() -> None:
    [(field, description)] = refusal(lambda: parse_game("bridge")).violations
    assert field == "game"
    assert description == "unknown game 'bridge': one of " + ", ".join(g.value for g in Game)
    [(field, description)] = refusal(lambda: parse_game(pb.GAME_UNSPECIFIED)).violations
    assert field == "game" and description.startswith("0 is not a game number: one of numbers")


def test_declarations_and_endings_read_in_any_case() -> None:
    assert parse_declaration("HIGH") == to_wire(Declaration.HIGH) == pb.DECLARATION_HIGH
    assert parse_ending("stock-out") == to_wire(TonkEnding.STOCK_OUT) == pb.TONK_ENDING_STOCK_OUT
    assert parse_ending(TonkEnding.DROP) == pb.TONK_ENDING_DROP
    [(field, description)] = refusal(lambda: parse_declaration("middle")).violations
    assert (field, description) == (
        "declaration",
        "unknown declaration 'middle': one of high, low, both",
    )


def test_a_bad_declaration_or_ending_in_a_request_names_its_field() -> None:
    bad_seat = refusal(
        lambda: showdown_request("flop-a", [("ann", "Ah", "high"), ("bob", "Kd", "mid")])
    )
    assert [field for field, _ in bad_seat.violations] == ["seats[1].declaration"]
    bad_ending = refusal(lambda: showdown_request("tonk", {"ann": "Ah", "bob": "Kd"}, ending="won"))
    assert [field for field, _ in bad_ending.violations] == ["ending"]


def test_options_are_keywords_a_mapping_an_options_or_the_wire_message_alike() -> None:
    seats = {"ann": "5h 6h 7h", "bob": "Kd"}
    wanted = pb.Options(texas=True, six_card_tonk=True)
    built = [
        showdown_request("tonk", seats, texas=True, six_card_tonk=True),
        showdown_request("tonk", seats, options={"texas": True, "six_card_tonk": True}),
        showdown_request("tonk", seats, options=Options(texas=True, six_card_tonk=True)),
        showdown_request("tonk", seats, options=wanted),
        showdown_request("tonk", seats, options={"texas": True}, six_card_tonk=True),
    ]
    assert [request.options for request in built] == [wanted] * len(built)
    assert evaluate_request("high-card", "As", ace_low=True).options == pb.Options(ace_low=True)
    assert batch_request("tonk", [["5h"]], hit_runs_only=True).options.hit_runs_only


def test_a_misspelt_or_non_boolean_option_is_refused_naming_it() -> None:
    typed_by_hand: dict[str, object] = {"texsa": True, "texas": "no"}
    error = refusal(lambda: evaluate_request("tonk", "5h", options=typed_by_hand))  # type: ignore[arg-type]
    assert error.violations == (
        (
            "options.texsa",
            "no such option 'texsa': one of ace_low, hit_runs_only, texas, six_card_tonk",
        ),
        ("options.texas", "an option is True or False, not 'no'"),
    )


def test_a_handeval_error_says_each_violation_once() -> None:
    violations = [("hand[1]", "'Zz' is not a card"), ("hand[2]", "'Yy' is not a card")]
    sent = "invalid request: hand[1]: 'Zz' is not a card (and 1 more problem)"
    error = HandevalError(grpc.StatusCode.INVALID_ARGUMENT, sent, violations)
    assert str(error) == (
        "INVALID_ARGUMENT: invalid request\n"
        "  hand[1]: 'Zz' is not a card\n"
        "  hand[2]: 'Yy' is not a card"
    )
    assert error.message == sent
    unavailable = HandevalError(grpc.StatusCode.UNAVAILABLE, "no server at x")
    assert str(unavailable) == "UNAVAILABLE: no server at x"


def test_evaluate_request_takes_text_lists_or_card_ids() -> None:
    from_text = evaluate_request("tonk", "5h 6h,7h", table_spreads=["9h Th Jh"], request_id="r1")
    from_ids = evaluate_request(
        Game.TONK,
        [parse_card("5h"), "6h", "7h"],
        table_spreads=[["9h", "Th", "Jh"]],
        request_id="r1",
    )
    assert from_text == from_ids
    assert list(from_text.hand) == ["5h", "6h", "7h"]
    assert from_text.game == pb.GAME_TONK


def test_showdown_request_takes_a_mapping_or_seat_tuples_with_declarations() -> None:
    mapping = showdown_request("tonk", {"ann": "Ah 2h", "bob": "Kd"}, ending="drop", ender="bob")
    assert [s.player for s in mapping.seats] == ["ann", "bob"]
    assert mapping.ending == pb.TONK_ENDING_DROP
    tuples = showdown_request("flop-a", [("ann", "Ah", "high"), ("bob", "Kd", Declaration.BOTH)])
    assert [s.declaration for s in tuples.seats] == [pb.DECLARATION_HIGH, pb.DECLARATION_BOTH]


def test_batch_rows_are_padded_with_255_and_one_flat_table_serves_every_hand() -> None:
    hands: list[list[str | int]] = [["Ah", "2c"], [parse_card("Kd")]]
    request = batch_request("numbers", hands, tables=["3c", "9d"])
    assert request.hand_size == 2
    assert request.hands == bytes([parse_card("Ah"), parse_card("2c"), parse_card("Kd"), EMPTY])
    assert (request.table_size, request.tables) == (2, bytes([parse_card("3c"), parse_card("9d")]))


def test_batch_takes_arrays_and_packed_bytes_as_they_are() -> None:
    hands = np.array([[0, 1, 2], [3, 4, 5]], dtype=np.uint8)
    from_array = batch_request("poker-high", hands)
    assert (from_array.hands, from_array.hand_size) == (hands.tobytes(), 3)
    from_bytes = batch_request("poker-high", hands.tobytes(), hand_size=3)
    assert from_bytes == from_array
    from_int64 = batch_request("poker-high", hands.astype(np.int64))
    assert from_int64 == from_array
    without_size = refusal(lambda: batch_request("poker-high", hands.tobytes()))
    assert [field for field, _ in without_size.violations] == ["hand_size"]


@pytest.mark.parametrize(
    ("hands", "words"),
    [
        (np.array([[0, 1, 256]]), "outside 0-255"),
        (np.array([[0.0, 1.0]]), "integers, not float64"),
        (np.zeros((2, 2, 2), dtype=np.uint8), "not 3-D"),
        ([[0, 1, 300]], "card id 300 is no byte"),
    ],
    ids=["id-over-a-byte", "floats", "3-d", "list-id-over-a-byte"],
)
def test_batch_cards_that_are_no_card_ids_are_refused_before_sending(
    hands: object, words: str
) -> None:
    [(field, description)] = refusal(lambda: batch_request("poker-high", hands)).violations  # type: ignore[arg-type]
    assert field.startswith("hands") and words in description


def test_batch_card_text_that_is_no_card_is_refused_before_sending() -> None:
    with pytest.raises(HandevalError) as caught:
        batch_request("numbers", [["Ah"], ["Zz"]])
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert [f for f, _ in caught.value.violations] == ["hands[1]"]


def test_error_from_status_carries_the_bad_request_field_violations() -> None:
    detail_any = any_pb2.Any()
    detail_any.Pack(
        error_details_pb2.BadRequest(
            field_violations=[
                error_details_pb2.BadRequest.FieldViolation(field="hand[2]", description="bad")
            ]
        )
    )
    status = status_pb2.Status(code=code_pb2.INVALID_ARGUMENT, message="m", details=[detail_any])
    error = HandevalError.from_status(status)
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT
    assert error.violations == (("hand[2]", "bad"),)
    assert "hand[2]: bad" in str(error)


def test_retry_policy_retries_only_unavailable_within_grpcs_five_attempts() -> None:
    config = service_config()
    (method,) = config["methodConfig"]
    assert {"service": "handeval.v1.HandEvaluator"} in method["name"]
    assert method["retryPolicy"]["retryableStatusCodes"] == ["UNAVAILABLE"]
    assert 2 <= method["retryPolicy"]["maxAttempts"] <= 5
    options = dict(channel_options())
    assert json.loads(str(options["grpc.service_config"])) == config
    assert options["grpc.enable_retries"] == 1
    assert options["grpc.lb_policy_name"] == "round_robin"
    assert config["healthCheckConfig"] == {"serviceName": "handeval.v1.HandEvaluator"}
    without = dict(channel_options(retries=False))
    assert without["grpc.enable_retries"] == 0
    assert "methodConfig" not in json.loads(str(without["grpc.service_config"]))


def test_several_ip_targets_become_one_ipv4_target_list() -> None:
    assert channel_target(["127.0.0.1:1", "127.0.0.1:2"]) == "ipv4:127.0.0.1:1,127.0.0.1:2"
    assert channel_target(["[::1]:1", "[::1]:2"]) == "ipv6:[::1]:1,[::1]:2"
    assert channel_target("dns:///svc:50051") == "dns:///svc:50051"
    [(field, description)] = refusal(
        lambda: channel_target(["a.example:1", "b.example:2"])
    ).violations
    assert field == "target" and "dns:///" in description
