"""Core enums <-> proto enums by name: every member, every proto value but UNSPECIFIED.

The enums checked are found, not listed: the requests' (``Game``, ``Declaration``,
``TonkEnding``) and every enum a detail's fields hold, so a new game's enum is covered
with no edit here.
"""

from __future__ import annotations

import dataclasses
import enum
import typing
from typing import Any

import pytest
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.inputs import Declaration, Game, TonkEnding
from service.wire import enums
from service.wire.details import detail_types


def detail_enums() -> set[type[enum.Enum]]:
    """The enums the details' fields hold (nested details' too), found by type hint."""
    found: set[type[enum.Enum]] = set()
    kinds: list[Any] = list(detail_types())
    while kinds:
        for hint in typing.get_type_hints(kinds.pop()).values():
            for kind in (hint, *typing.get_args(hint)):
                if isinstance(kind, type) and issubclass(kind, enum.Enum):
                    found.add(kind)
                elif dataclasses.is_dataclass(kind):
                    kinds.append(kind)
    return found


def detail_message_enums() -> set[str]:
    """The proto enums the detail messages' fields hold, from the descriptor."""
    names: set[str] = set()
    messages = [
        field.message_type
        for field in pb.Evaluation.DESCRIPTOR.oneofs_by_name["detail"].fields
        if field.message_type is not None
    ]
    while messages:
        for field in messages.pop().fields:
            if field.enum_type is not None:
                names.add(field.enum_type.name)
            elif field.message_type is not None:
                messages.append(field.message_type)
    return names


WIRE_ENUMS = sorted({Game, Declaration, TonkEnding} | detail_enums(), key=lambda e: e.__name__)


def test_the_details_hold_exactly_the_enums_their_messages_hold() -> None:
    assert {kind.__name__ for kind in detail_enums()} == detail_message_enums() != set()


@pytest.mark.parametrize("core", WIRE_ENUMS, ids=lambda e: e.__name__)
def test_every_enum_maps_by_name_onto_every_proto_value_but_unspecified(
    core: type[enum.Enum],
) -> None:
    proto = pb.DESCRIPTOR.enum_types_by_name[core.__name__]
    prefix = proto.values_by_number[0].name.removesuffix("UNSPECIFIED")
    mapping = enums.enum_map(core)
    assert {proto.values_by_number[v].name: m.name for m, v in mapping.to_proto.items()} == {
        prefix + m.name: m.name for m in core
    }
    assert set(mapping.to_core) == set(proto.values_by_number) - {0}


def test_an_unspecified_or_unknown_game_reads_as_missing() -> None:
    assert enums.to_game(pb.GAME_UNSPECIFIED) is None
    assert enums.to_game(99) is None
    assert enums.to_game(pb.GAME_TONK) is Game.TONK
