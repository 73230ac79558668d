"""Core enums <-> proto enums, member by member, by name.

Proto ``GAME_TONK`` <-> ``Game.TONK``, ``POKER_CATEGORY_FLUSH`` <-> ``PokerCategory.FLUSH``:
a proto enum's values carry its name as a prefix (buf's rule), so each core enum maps onto
the proto enum of its name with no table kept by hand. ``UNSPECIFIED`` (0) and a number
this build lacks map to no member.
"""

from __future__ import annotations

import enum
import functools
import re
from typing import Any, TypeVar

from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.inputs import Game

E = TypeVar("E", bound=enum.Enum)


class EnumMap:
    """One core enum <-> one proto enum, member by member through the proto's prefix."""

    def __init__(self, core: type[enum.Enum], proto: Any, prefix: str) -> None:
        self.to_proto: dict[enum.Enum, Any] = {m: proto.Value(prefix + m.name) for m in core}
        self.to_core: dict[Any, enum.Enum] = {v: m for m, v in self.to_proto.items()}


@functools.cache
def enum_map(core: type[enum.Enum]) -> EnumMap:
    """The map of a core enum onto the proto enum of the same name (``PokerCategory``),
    whose values carry its name as a prefix (``POKER_CATEGORY_``); built once per enum.
    A test holds each map a bijection onto the proto's values."""
    prefix = re.sub(r"(?<!^)(?=[A-Z])", "_", core.__name__).upper() + "_"
    return EnumMap(core, getattr(pb, core.__name__), prefix)


def to_core(kind: type[E], value: int) -> E | None:
    """The member of ``kind`` a wire value names; None for UNSPECIFIED or an unknown number."""
    member = enum_map(kind).to_core.get(value)
    return member if isinstance(member, kind) else None


def to_game(value: int) -> Game | None:
    """The core game of a wire value; None for UNSPECIFIED or a number this build lacks."""
    return to_core(Game, value)


def to_wire(member: enum.Enum) -> int:
    """The wire value of a core enum member."""
    value: int = enum_map(type(member)).to_proto[member]
    return value


def game_value(game: Game) -> pb.Game.ValueType:
    """The wire value of a core game."""
    return pb.Game.ValueType(to_wire(game))
