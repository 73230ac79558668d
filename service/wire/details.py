"""A game's result detail <-> its proto message, read from the two definitions.

Each detail dataclass names its ``oneof detail`` field of ``Evaluation`` in ``WIRE``, and
its fields are that message's fields by name. How a field converts follows from its type
hint in the core and its field in the descriptor, never from the game:

- ``tuple[X, ...]`` <-> a repeated field, item by item;
- ``X | None``: None <-> the wire field's default (empty text, 0), X as X converts;
- a dataclass <-> a message, field by field (``DotsDetail.poker``, ``Hit``);
- any other value <-> a message of one field, as that field (``Cards`` <-> ``Spread``);
- an enum <-> the proto enum of its name (``enums``);
- ``int`` where the wire has ``string``: a card id <-> its text;
- anything else as it is (numbers, bools, text).

So a new game's detail needs no edit here; only a kind of field no detail has had yet
would, and the test that converts every game's detail both ways says so.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from typing import Any

from google.protobuf import message_factory
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.cards import card_text, parse_card
from evaluators.registry import DETAILS
from evaluators.results import Detail
from service.wire.enums import enum_map

Step = Callable[[Any], Any]
"""One value converted one way."""


def detail_types() -> tuple[Any, ...]:
    """Every detail dataclass of the core, gathered by the registry from the games."""
    return tuple(DETAILS)


def _same(value: Any) -> Any:
    return value


def _optional(hint: Any) -> Any | None:
    """X of a hint ``X | None``; None for any other hint."""
    if typing.get_origin(hint) not in (types.UnionType, typing.Union):
        return None
    others = [arg for arg in typing.get_args(hint) if arg is not type(None)]
    return others[0] if len(others) == 1 else None


def _message_class(descriptor: Descriptor) -> type[Message]:
    return message_factory.GetMessageClass(descriptor)


def _one(field: FieldDescriptor, hint: Any) -> tuple[Step, Step]:
    """(to wire, to core) of one value of ``field`` (one item of a repeated field), whose
    core type hint is ``hint``. A message value goes to the wire as the dict of its fields,
    which the enclosing constructor builds in place (no message built to be copied)."""
    inner = _optional(hint)
    if inner is not None:
        to_wire, to_core = _one(field, inner)
        default = field.default_value
        return (
            lambda value: default if value is None else to_wire(value),
            lambda wire: None if wire == default else to_core(wire),
        )
    if field.message_type is not None:
        message = _message_class(field.message_type)
        if dataclasses.is_dataclass(hint):
            return _fields(hint, message)
        fields: Any = message.DESCRIPTOR.fields
        (only,) = fields
        to_wire, to_core = converters(only, hint)
        return (
            lambda value: {only.name: to_wire(value)},
            lambda wire: to_core(getattr(wire, only.name)),
        )
    if field.enum_type is not None:
        mapping = enum_map(hint)
        return mapping.to_proto.__getitem__, mapping.to_core.__getitem__
    if field.type == FieldDescriptor.TYPE_STRING and hint is int:
        return card_text, parse_card
    return _same, _same


def converters(field: FieldDescriptor, hint: Any) -> tuple[Step, Step]:
    """(to wire, to core) of the wire's ``field`` whose core type hint is ``hint``."""
    if not field.is_repeated:
        return _one(field, hint)
    to_wire, to_core = _one(field, typing.get_args(hint)[0])
    return (
        lambda values: [to_wire(v) for v in values],
        lambda wires: tuple(to_core(w) for w in wires),
    )


def _fields(core: Any, message: type[Message]) -> tuple[Step, Step]:
    """(to wire, to core) of the dataclass ``core`` whose fields are ``message``'s by name:
    to the wire as the dict of the message's fields, to the core as the dataclass."""
    hints = typing.get_type_hints(core)
    by_name: Any = message.DESCRIPTOR.fields_by_name
    steps = [
        (f.name, *converters(by_name[f.name], hints[f.name])) for f in dataclasses.fields(core)
    ]

    def to_wire(value: Any) -> dict[str, Any]:
        return {name: step(getattr(value, name)) for name, step, _ in steps}

    def to_core(wire: Any) -> Any:
        return core(**{name: step(getattr(wire, name)) for name, _, step in steps})

    return to_wire, to_core


def _detail_steps(kind: Any) -> tuple[Step, Step]:
    field = pb.Evaluation.DESCRIPTOR.fields_by_name[kind.WIRE]
    assert field.message_type is not None, f"Evaluation.{kind.WIRE} is a message field"
    return _fields(kind, _message_class(field.message_type))


_TO_WIRE: dict[type[Any], tuple[str, Step]] = {
    kind: (kind.WIRE, _detail_steps(kind)[0]) for kind in detail_types()
}
"""Detail type -> (its ``oneof detail`` field, named by its ``WIRE``; its fields' dict)."""
_TO_CORE: dict[str, Step] = {kind.WIRE: _detail_steps(kind)[1] for kind in detail_types()}
"""``oneof detail`` field -> the detail dataclass it reads into."""


def detail_to_wire(detail: Detail) -> dict[str, Any]:
    """``Evaluation``'s keyword for ``detail``: ``{"tonk": {"points": 12, ...}}``."""
    field, to_wire = _TO_WIRE[type(detail)]
    return {field: to_wire(detail)}


def detail_from_wire(evaluation: pb.Evaluation) -> Detail | None:
    """The core detail an ``Evaluation`` carries; None without one this build knows."""
    which = evaluation.WhichOneof("detail")
    to_core = _TO_CORE.get(which) if which is not None else None
    return None if to_core is None else to_core(getattr(evaluation, which))  # type: ignore[arg-type]
