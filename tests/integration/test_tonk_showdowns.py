"""Tonk as its source plays it, over a real channel: the deal ending, the fit rules, Texas
and six-card tonk give the same figures as in process; options a game does not read are
refused in every RPC; Tonk spades; and ``handeval_tonk_endings_total`` on the real
``/metrics`` after real Showdown calls."""

from __future__ import annotations

from collections.abc import Callable

import grpc
import pytest
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb
from handeval_client.gen.handeval.v1 import handeval_pb2_grpc as pb_grpc

from evaluators.inputs import Game, Options, TonkEnding
from evaluators.scoring import showdown
from evaluators.validation import read_showdown
from service.wire import enums, replies
from tests.conftest import ServerProcess
from tests.integration.test_metrics import scrape_until, value
from tests.integration.test_server import call_error, violations_of

Seats = list[tuple[str, str]]

CASES: list[tuple[Game, Seats, TonkEnding | None, str, Options]] = [
    (Game.TONK, [("ann", "Ac 2c 3d 2h Ad"), ("bob", "Kd Qd Jd 5h 6h")], TonkEnding.DEAL, "ann",
     Options()),
    (Game.TONK, [("ann", "Ks Qs Js Ts Kh"), ("bob", "Kd Qd Jd 5h 6h")], TonkEnding.DEAL, "ann",
     Options(texas=True)),
    (Game.TONK, [("ann", "Ks Qs Js Ts Kh"), ("bob", "Kd Qd Jd Td Kc")], TonkEnding.DEAL, "ann",
     Options()),
    (Game.TONK, [("d", "Tc"), ("lo", "5c"), ("mid", "8c"), ("hi", "Qc 2d")], TonkEnding.DROP, "d",
     Options(texas=True)),
    (Game.TONK, [("ann", "2c 3c 4c 5c 6c"), ("bob", "Kd")], TonkEnding.TONK, "ann",
     Options(six_card_tonk=True)),
    (Game.TONK, [("ann", "5h 6h 7h 9c"), ("bob", "Kd")], TonkEnding.OUT, "ann", Options()),
    (Game.TONK_SPADES, [("ann", "Ks 2d 3d 4d 5d"), ("bob", "As 2c 3c 4c 5c")], None, "",
     Options()),
    (Game.TONK_SPADES, [("ann", "Kd 2d 3d 4d 5d"), ("bob", "Ac 2c 3c 4c 5c")], None, "",
     Options(ace_low=True)),
]  # fmt: skip


def wire_showdown(
    game: Game, seats: Seats, ending: TonkEnding | None, ender: str, options: Options
) -> pb.ShowdownRequest:
    return pb.ShowdownRequest(
        game=enums.game_value(game),
        seats=[pb.Seat(player=p, hand=h.split()) for p, h in seats],
        ending=enums.to_wire(ending) if ending else 0,
        ender=ender,
        options=pb.Options(
            ace_low=options.ace_low, texas=options.texas, six_card_tonk=options.six_card_tonk
        ),
    )


@pytest.mark.parametrize("case", CASES)
def test_a_showdown_over_the_wire_gives_the_figures_of_the_core(
    stub: pb_grpc.HandEvaluatorStub, case: tuple[Game, Seats, TonkEnding | None, str, Options]
) -> None:
    game, seats, ending, ender, options = case
    reply = stub.Showdown(wire_showdown(*case), timeout=10)
    request = read_showdown(
        game, [(p, h.split(), None) for p, h in seats], options=options, ending=ending, ender=ender
    )
    assert reply == replies.to_showdown_response(showdown(request), enums.game_value(game))


def test_a_tonk_enders_hand_that_does_not_fit_is_refused_over_the_wire(
    stub: pb_grpc.HandEvaluatorStub,
) -> None:
    request = wire_showdown(
        Game.TONK, [("bob", "Kd"), ("ann", "5h 6h 7h 7c 2d")], TonkEnding.TONK, "ann", Options()
    )
    error = call_error(stub.Showdown, request)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert [(v.field, v.description) for v in violations_of(error)] == [
        ("seats[1].hand", "this hand cannot tonk: 7c 2d are left, 9 points")
    ]


def test_a_deal_ending_without_a_deal_bonus_is_refused_on_ender(
    stub: pb_grpc.HandEvaluatorStub,
) -> None:
    request = wire_showdown(
        Game.TONK, [("ann", "Kd Qd Jd 5h 6h"), ("bob", "2c")], TonkEnding.DEAL, "ann", Options()
    )
    error = call_error(stub.Showdown, request)
    assert [v.field for v in violations_of(error)] == ["ender"]
    assert "41 points" in violations_of(error)[0].description


def test_an_option_the_game_does_not_read_is_refused_in_every_rpc(
    stub: pb_grpc.HandEvaluatorStub,
) -> None:
    texas = pb.Options(texas=True)
    hand = pb.EvaluateRequest(
        game=pb.GAME_HIGH_CARD,
        hand=["Ah", "Kd", "5c", "9s", "Tc"],
        table=["2s", "3h", "4d", "6c", "7c"],
        options=texas,
    )
    seats = [pb.Seat(player=p, hand=hand.hand if p == "a" else ["Ad", "Qd", "6h", "8s", "Jc"])
             for p in "ab"]  # fmt: skip
    duel = pb.ShowdownRequest(game=pb.GAME_HIGH_CARD, seats=seats, table=hand.table, options=texas)
    batch = pb.EvaluateBatchRequest(
        game=pb.GAME_TONK_SPADES, hands=bytes(range(5)), hand_size=5, options=texas
    )
    for call, request in (
        (stub.Evaluate, hand),
        (stub.Showdown, duel),
        (stub.EvaluateBatch, batch),
    ):
        error = call_error(call, request)
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
        (violation,) = violations_of(error)
        assert violation.field == "options.texas"
        assert "this game reads only: ace_low" in violation.description


def test_tonk_reads_its_showdown_house_rules_only_in_a_showdown(
    stub: pb_grpc.HandEvaluatorStub,
) -> None:
    request = pb.EvaluateRequest(
        game=pb.GAME_TONK, hand=["5h", "6h", "7h"], options=pb.Options(six_card_tonk=True)
    )
    (violation,) = violations_of(call_error(stub.Evaluate, request))
    assert violation.field == "options.six_card_tonk"
    assert "only in a showdown" in violation.description


def test_the_endings_counter_counts_settled_tonk_showdowns_by_ending(
    launch_server: Callable[..., ServerProcess],
) -> None:
    server = launch_server("--metrics-port", "0")
    port = server.metrics_port()
    counted = {"deal": 3, "drop": 1, "out": 1, "tonk": 1}
    with grpc.insecure_channel(server.target) as channel:
        stub = pb_grpc.HandEvaluatorStub(channel)
        for case in CASES[:6]:
            stub.Showdown(wire_showdown(*case), timeout=10)
        refused = wire_showdown(Game.TONK, [("a", "Kd 9d"), ("b", "2c")], TonkEnding.TONK, "a",
                                Options())  # fmt: skip
        call_error(stub.Showdown, refused)
        stub.Showdown(wire_showdown(*CASES[6]), timeout=10)
    name = "handeval_tonk_endings_total"
    samples = scrape_until(port, lambda s: value(s, name, ending="deal") >= 3)
    assert {e: value(samples, name, ending=e) for e in counted} == counted
    assert value(samples, name, ending="stock_out") == 0
    assert (name, frozenset({("ending", "stock_out")})) in samples
