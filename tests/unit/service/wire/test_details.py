"""Every detail type fills its ``oneof`` field, field by field, and reads back."""

from __future__ import annotations

import pytest
from google.protobuf import json_format
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.cards import card_text, parse_card
from evaluators.deal import deal
from evaluators.inputs import Game
from evaluators.point_totals import PointsDetail
from evaluators.registry import GAMES
from evaluators.results import Evaluation
from evaluators.scoring import evaluate
from evaluators.validation import read_hand
from service.wire import replies
from service.wire.enums import game_value
from tests.unit.games.examples import examples


def ids(text: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in text.split())


@pytest.mark.parametrize("game", list(Game), ids=lambda g: g.value)
def test_each_games_detail_fills_its_oneof_field_as_its_tests_show_and_reads_back(
    game: Game,
) -> None:
    example = examples(game)
    evaluation = evaluate(read_hand(game, example.hand, example.table, example.spreads))
    assert isinstance(evaluation.detail, GAMES[game].detail)
    reply = replies.to_evaluation(evaluation, game_value(game))
    assert reply.WhichOneof("detail") == example.detail_field == type(evaluation.detail).WIRE
    wire = json_format.MessageToDict(
        getattr(reply, example.detail_field),
        preserving_proto_field_name=True,
        always_print_fields_with_no_presence=True,
    )
    assert wire == example.detail
    assert replies.from_evaluation(reply) == evaluation


def test_an_evaluation_echoes_the_call_and_carries_its_figures_and_cards() -> None:
    evaluation = Evaluation(
        strength=7,
        description="for people",
        detail=PointsDetail(30.5, 3.5),
        low_strength=3,
        instant_win=False,
        out_after=0,
        kept=ids("Ah Kd"),
        discarded=ids("2c"),
    )
    reply = replies.to_evaluation(evaluation, pb.GAME_NUMBERS, "r-1")
    assert reply.points == pb.PointsDetail(high_total=30.5, low_total=3.5)
    assert (reply.request_id, reply.game, reply.strength, reply.low_strength) == (
        "r-1",
        pb.GAME_NUMBERS,
        7,
        3,
    )
    assert (list(reply.kept), list(reply.discarded)) == (["Ah", "Kd"], ["2c"])


def test_a_spades_detail_without_a_spade_is_empty_text_and_back() -> None:
    for hand, highest in (("Ah Ks 2s 3d 4c", "Ks"), ("Ah Kh 2h 3d 4c", "")):
        evaluation = evaluate(read_hand(Game.TONK_SPADES, hand.split()))
        wire = replies.to_evaluation(evaluation, pb.GAME_TONK_SPADES)
        assert wire.spades.highest == highest
        assert replies.from_evaluation(wire) == evaluation


@pytest.mark.parametrize("game", list(Game), ids=lambda g: g.value)
def test_every_games_dealt_evaluations_go_to_the_wire_and_back_unchanged(game: Game) -> None:
    """From the registry and the dealer alone: a new game's detail is covered with no edit."""
    dealt = deal(game, 40, seed=11)
    for hand, table in dealt.singles(len(dealt)):
        evaluation = evaluate(read_hand(game, texts(hand), texts(table)))
        wire = replies.to_evaluation(evaluation, game_value(game))
        assert wire.WhichOneof("detail") == type(evaluation.detail).WIRE
        assert replies.from_evaluation(wire) == evaluation


def texts(cards: tuple[int, ...]) -> list[str]:
    return [card_text(c) for c in cards]


def test_an_evaluation_without_a_detail_this_build_knows_reads_as_none() -> None:
    assert replies.from_evaluation(pb.Evaluation(strength=3)) is None
