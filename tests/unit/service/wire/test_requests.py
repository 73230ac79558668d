"""Request messages read into the core's requests: card ids, options, seats, refusals."""

from __future__ import annotations

import pytest
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.cards import parse_card
from evaluators.errors import InvalidRequest
from evaluators.inputs import Declaration, Game, Options
from service.wire import requests


def ids(text: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in text.split())


def test_an_unknown_game_number_is_refused_naming_the_game_field() -> None:
    with pytest.raises(InvalidRequest) as caught:
        requests.to_hand_request(pb.EvaluateRequest(game=99, hand=["Ah"]))
    assert [v.field for v in caught.value.violations] == ["game"]


def test_a_request_reads_into_card_ids_options_and_spreads() -> None:
    request = pb.EvaluateRequest(
        game=pb.GAME_TONK,
        hand=["5h", "6H", "7♥"],
        table_spreads=[pb.Spread(cards=["8h", "9h", "10h"])],
        options=pb.Options(hit_runs_only=True),
    )
    hand = requests.to_hand_request(request)
    assert hand.game is Game.TONK
    assert hand.hand == ids("5h 6h 7h")
    assert hand.table_spreads == (ids("8h 9h Th"),)
    assert hand.options == Options(hit_runs_only=True)


def test_a_showdown_reads_seats_declarations_and_ending() -> None:
    request = pb.ShowdownRequest(
        game=pb.GAME_FLOP_A,
        seats=[
            pb.Seat(player="a", hand=["Ah"], declaration=pb.DECLARATION_BOTH),
            pb.Seat(player="b", hand=["Kh"], declaration=pb.DECLARATION_LOW),
        ],
        table=["2c"],
    )
    core = requests.to_showdown_request(request)
    assert [(s.player, s.hand, s.declaration) for s in core.seats] == [
        ("a", ids("Ah"), Declaration.BOTH),
        ("b", ids("Kh"), Declaration.LOW),
    ]
    assert core.ending is None


def test_every_options_field_converts_by_name() -> None:
    wire = pb.Options(ace_low=True, hit_runs_only=False, texas=True, six_card_tonk=True)
    assert requests.to_options(wire) == Options(
        ace_low=True, hit_runs_only=False, texas=True, six_card_tonk=True
    )
