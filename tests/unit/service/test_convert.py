"""Wire <-> core conversion: enums by name, every detail type, errors small and complete."""

from __future__ import annotations

import enum
import re
from fractions import Fraction
from typing import Any

import pytest
from google.protobuf import json_format
from google.rpc import code_pb2, error_details_pb2

from evaluators.cards import InvalidRequest, Violation, parse_card
from evaluators.games.not_poker import NotPokerCategory
from evaluators.games.tonk.deadwood import DealBonus
from evaluators.inputs import Declaration, Game, Options, TonkEnding
from evaluators.point_totals import PointsDetail
from evaluators.registry import GAMES
from evaluators.results import Award, Evaluation, Payout, ShowdownOutcome
from evaluators.scoring import evaluate
from evaluators.tables.five_card_classes import PokerCategory
from evaluators.validation import read_hand
from service.gen.handeval.v1 import handeval_pb2 as pb
from service.server import convert
from tests.unit.games.examples import examples


def _proto_enum(core: type[enum.Enum]) -> tuple[Any, str]:
    """The proto enum of a core enum's name and its values' prefix (``PokerCategory``:
    ``POKER_CATEGORY_``)."""
    return getattr(pb, core.__name__), re.sub(r"(?<!^)(?=[A-Z])", "_", core.__name__).upper() + "_"


def ids(text: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in text.split())


def test_the_wire_enums_are_the_requests_and_every_one_the_details_hold() -> None:
    assert {Game, Declaration, TonkEnding, PokerCategory, NotPokerCategory, DealBonus} <= set(
        convert.ENUM_MAPS
    )


@pytest.mark.parametrize("core", list(convert.ENUM_MAPS), ids=lambda e: e.__name__)
def test_every_enum_maps_by_name_onto_every_proto_value_but_unspecified(
    core: type[enum.Enum],
) -> None:
    proto, prefix = _proto_enum(core)
    mapping = convert.ENUM_MAPS[core]
    assert {proto.Name(v): m.name for m, v in mapping.to_proto.items()} == {
        prefix + m.name: m.name for m in core
    }
    assert set(mapping.to_core) == set(proto.values()) - {0}


def test_an_unspecified_or_unknown_game_reads_as_missing() -> None:
    assert convert.to_game(pb.GAME_UNSPECIFIED) is None
    assert convert.to_game(99) is None
    assert convert.to_game(pb.GAME_TONK) is Game.TONK


def test_an_unknown_game_number_is_refused_naming_the_game_field() -> None:
    with pytest.raises(InvalidRequest) as caught:
        convert.to_hand_request(pb.EvaluateRequest(game=99, hand=["Ah"]))
    assert [v.field for v in caught.value.violations] == ["game"]


def test_a_request_reads_into_card_ids_options_and_spreads() -> None:
    request = pb.EvaluateRequest(
        game=pb.GAME_TONK,
        hand=["5h", "6H", "7♥"],
        table_spreads=[pb.Spread(cards=["8h", "9h", "10h"])],
        options=pb.Options(hit_runs_only=True),
    )
    hand = convert.to_hand_request(request)
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
    core = convert.to_showdown_request(request)
    assert [(s.player, s.hand, s.declaration) for s in core.seats] == [
        ("a", ids("Ah"), Declaration.BOTH),
        ("b", ids("Kh"), Declaration.LOW),
    ]
    assert core.ending is None


@pytest.mark.parametrize("game", list(Game), ids=lambda g: g.value)
def test_each_games_detail_fills_its_oneof_field_as_its_tests_show_and_reads_back(
    game: Game,
) -> None:
    example = examples(game)
    evaluation = evaluate(read_hand(game, example.hand, example.table, example.spreads))
    assert isinstance(evaluation.detail, GAMES[game].detail)
    reply = convert.to_evaluation(evaluation, convert.game_value(game))
    assert reply.WhichOneof("detail") == example.detail_field == type(evaluation.detail).WIRE
    wire = json_format.MessageToDict(
        getattr(reply, example.detail_field),
        preserving_proto_field_name=True,
        always_print_fields_with_no_presence=True,
    )
    assert wire == example.detail
    assert convert.from_evaluation(reply) == evaluation


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
    reply = convert.to_evaluation(evaluation, pb.GAME_NUMBERS, "r-1")
    assert reply.points == pb.PointsDetail(high_total=30.5, low_total=3.5)
    assert (reply.request_id, reply.game, reply.strength, reply.low_strength) == (
        "r-1",
        pb.GAME_NUMBERS,
        7,
        3,
    )
    assert (list(reply.kept), list(reply.discarded)) == (["Ah", "Kd"], ["2c"])


def test_awards_are_fractions_of_the_whole_pot_and_payouts_signed_stakes() -> None:
    outcome = ShowdownOutcome(
        results=(),
        awards=(Award("a", "high", Fraction(1, 4)), Award("b", "whole", Fraction(3, 4))),
        redeal=False,
        payouts=(Payout("a", 2), Payout("b", -2)),
        explanation="why",
    )
    reply = convert.to_showdown_response(outcome, pb.GAME_NUMBERS, "pot-1")
    assert [(a.player, a.pot, a.numerator, a.denominator) for a in reply.awards] == [
        ("a", "high", 1, 4),
        ("b", "whole", 3, 4),
    ]
    assert [(p.player, p.stakes) for p in reply.payouts] == [("a", 2), ("b", -2)]
    assert (reply.request_id, reply.explanation) == ("pot-1", "why")


def test_list_games_carries_every_registry_entry() -> None:
    reply = convert.to_list_games(GAMES.values())
    assert [convert.to_game(g.game) for g in reply.games] == list(GAMES)
    tonk = next(g for g in reply.games if g.game == pb.GAME_TONK)
    assert list(tonk.pots) == []
    assert list(tonk.options) == ["hit_runs_only", "texas", "six_card_tonk"]
    spades = next(g for g in reply.games if g.game == pb.GAME_TONK_SPADES)
    assert (spades.name, spades.hand_min, spades.hand_max, spades.table_max) == (
        "Tonk spades",
        5,
        9,
        0,
    )
    assert list(spades.pots) == ["spades"] and list(spades.options) == ["ace_low"]
    assert not spades.jokers and spades.summary


def test_every_options_field_converts_by_name() -> None:
    wire = pb.Options(ace_low=True, hit_runs_only=False, texas=True, six_card_tonk=True)
    assert convert.to_options(wire) == Options(
        ace_low=True, hit_runs_only=False, texas=True, six_card_tonk=True
    )


def test_a_spades_detail_without_a_spade_is_empty_text_and_back() -> None:
    for hand, highest in (("Ah Ks 2s 3d 4c", "Ks"), ("Ah Kh 2h 3d 4c", "")):
        evaluation = evaluate(read_hand(Game.TONK_SPADES, hand.split()))
        wire = convert.to_evaluation(evaluation, pb.GAME_TONK_SPADES)
        assert wire.spades.highest == highest
        assert convert.from_evaluation(wire) == evaluation


def _bad_request(status: object) -> list[error_details_pb2.BadRequest.FieldViolation]:
    bad_request = error_details_pb2.BadRequest()
    assert status.details[0].Unpack(bad_request)  # type: ignore[attr-defined]
    return list(bad_request.field_violations)


def test_violations_become_a_bad_request_with_the_first_in_the_message() -> None:
    status = convert.invalid_argument(
        [Violation("hand[2]", "'Zz' is not a card"), Violation("table", "too many")]
    )
    assert status.code == code_pb2.INVALID_ARGUMENT
    assert status.message == "invalid request: hand[2]: 'Zz' is not a card (and 1 more problem)"
    assert [(v.field, v.description) for v in _bad_request(status)] == [
        ("hand[2]", "'Zz' is not a card"),
        ("table", "too many"),
    ]


def test_ten_indexed_violations_are_listed_and_the_rest_counted_per_field() -> None:
    violations = [Violation(f"hand[{i}]", "bad") for i in range(25)]
    violations += [Violation("hand", "too many cards"), Violation("table[0]", "bad")]
    listed = _bad_request(convert.invalid_argument(violations))
    assert [v.field for v in listed] == [f"hand[{i}]" for i in range(10)] + [
        "hand",
        "hand",
        "table",
    ]
    assert listed[-2].description == "15 more problems in hand are not listed"


def test_an_error_status_stays_small_however_big_the_request() -> None:
    huge = repr("x" * 100_000) + " is not a card"
    violations = [Violation(f"hand[{i}]", huge) for i in range(10_000)]
    violations += [Violation(f"seats[{i}].player", huge) for i in range(10_000)]
    status = convert.invalid_argument([Violation(huge, huge), *violations])
    assert status.ByteSize() < 12 * 2 * convert.MAX_TEXT + 1024  # at most 12 entries, each clipped
    assert len(status.message) <= convert.MAX_TEXT


def test_a_request_shape_has_sizes_and_enums_but_no_cards_or_ids() -> None:
    request = pb.ShowdownRequest(
        game=pb.GAME_TONK,
        seats=[pb.Seat(player="alice", hand=["Ah"]), pb.Seat(player="bob", hand=["Kh"])],
        ending=pb.TONK_ENDING_DROP,
        ender="alice",
        request_id="secret",
    )
    assert convert.request_shape(request) == {
        "game": pb.GAME_TONK,
        "seats_len": 2,
        "table_len": 0,
        "table_spreads_len": 0,
        "ending": pb.TONK_ENDING_DROP,
    }
    batch = pb.EvaluateBatchRequest(game=pb.GAME_POKER_HIGH, hands=bytes(14), hand_size=7)
    assert convert.request_shape(batch) == {
        "game": pb.GAME_POKER_HIGH,
        "hands_len": 14,
        "hand_size": 7,
        "tables_len": 0,
        "table_size": 0,
    }
