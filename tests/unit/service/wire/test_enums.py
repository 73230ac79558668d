"""Core enums <-> proto enums by name: every member, every proto value but UNSPECIFIED."""

from __future__ import annotations

import pytest

from evaluators.inputs import Declaration, Game, TonkEnding
from evaluators.results import (
    DealBonus,
    NotPokerCategory,
    PokerCategory,
)
from service.gen.handeval.v1 import handeval_pb2 as pb
from service.wire import enums

PROTO_ENUMS = {
    Game: (pb.Game, "GAME_"),
    Declaration: (pb.Declaration, "DECLARATION_"),
    TonkEnding: (pb.TonkEnding, "TONK_ENDING_"),
    PokerCategory: (pb.PokerCategory, "POKER_CATEGORY_"),
    NotPokerCategory: (pb.NotPokerCategory, "NOT_POKER_CATEGORY_"),
    DealBonus: (pb.DealBonus, "DEAL_BONUS_"),
}


@pytest.mark.parametrize("core", list(PROTO_ENUMS), ids=lambda e: e.__name__)
def test_every_enum_maps_by_name_onto_every_proto_value_but_unspecified(core: type) -> None:
    proto, prefix = PROTO_ENUMS[core]
    mapping = enums.enum_map(core)
    assert {proto.Name(v): m.name for m, v in mapping.to_proto.items()} == {
        prefix + m.name: m.name for m in core
    }
    assert set(mapping.to_core) == set(proto.values()) - {0}


def test_an_unspecified_or_unknown_game_reads_as_missing() -> None:
    assert enums.to_game(pb.GAME_UNSPECIFIED) is None
    assert enums.to_game(99) is None
    assert enums.to_game(pb.GAME_TONK) is Game.TONK
