"""Wire <-> core: protobuf messages to parsed requests, core results to protobuf replies.

Enums convert by name (proto ``GAME_TONK`` <-> ``Game.TONK``, ``POKER_CATEGORY_FLUSH`` <->
``PokerCategory.FLUSH``); details convert field by field by name, into the ``oneof`` field
their ``WIRE`` names, never by game.
Violations become a ``google.rpc.Status`` carrying ``google.rpc.BadRequest`` field
violations, kept small enough for gRPC's trailing-metadata limit (8 KiB by default).
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
import re
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from google.protobuf import any_pb2
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message
from google.rpc import code_pb2, error_details_pb2, status_pb2

from evaluators.cards import (
    InvalidRequest,
    Violation,
    cap,
    card_text,
    parse_card,
    problem_count,
)
from evaluators.inputs import Declaration, Game, HandRequest, Options, ShowdownRequest, TonkEnding
from evaluators.odds import Odds
from evaluators.odds_request import OddsRequest, OddsSeatText, read_odds
from evaluators.registry import DETAILS, GameRules
from evaluators.results import Detail, Evaluation, ShowdownOutcome
from evaluators.validation import SeatText, read_hand_in_full, read_plain_hand, read_showdown
from service.gen.handeval.v1 import handeval_pb2 as pb
from service.server.request_limits import (
    check_evaluate,
    check_odds,
    check_request_id,
    check_showdown,
)

MAX_TEXT = 400
"""Longest field path or description sent back: a caller's text is echoed in messages (the
request limits bound it; the longest of ours, the missing game naming every game, is ~270)."""

E = TypeVar("E", bound=enum.Enum)


class _EnumMap:
    """One core enum <-> one proto enum, member by member through the proto's prefix."""

    def __init__(self, core: type[enum.Enum], proto: Any, prefix: str) -> None:
        self.to_proto: dict[enum.Enum, Any] = {m: proto.Value(prefix + m.name) for m in core}
        self.to_core: dict[Any, enum.Enum] = {v: m for m, v in self.to_proto.items()}


_GAME = _EnumMap(Game, pb.Game, "GAME_")
_DECLARATION = _EnumMap(Declaration, pb.Declaration, "DECLARATION_")
_ENDING = _EnumMap(TonkEnding, pb.TonkEnding, "TONK_ENDING_")


def _detail_enums() -> list[type[enum.Enum]]:
    """The enums the details' fields hold (nested details' too), found by type."""
    found: list[type[enum.Enum]] = []
    kinds: list[Any] = list(DETAILS)
    while kinds:
        hints = typing.get_type_hints(kinds.pop())
        for hint in hints.values():
            for kind in (hint, *typing.get_args(hint)):
                if isinstance(kind, type) and issubclass(kind, enum.Enum) and kind not in found:
                    found.append(kind)
                elif dataclasses.is_dataclass(kind):
                    kinds.append(kind)
    return found


def _wire_enum(core: type[enum.Enum]) -> _EnumMap:
    """The map of a core enum onto the proto enum of the same name (``PokerCategory``),
    whose values carry its name as a prefix (``POKER_CATEGORY_``)."""
    prefix = re.sub(r"(?<!^)(?=[A-Z])", "_", core.__name__).upper() + "_"
    return _EnumMap(core, getattr(pb, core.__name__), prefix)


ENUM_MAPS: Mapping[type[enum.Enum], _EnumMap] = {
    Game: _GAME,
    Declaration: _DECLARATION,
    TonkEnding: _ENDING,
} | {core: _wire_enum(core) for core in _detail_enums()}
"""Every enum the wire carries; a test holds each map a bijection onto the proto's values."""


def _core(mapping: _EnumMap, value: int, kind: type[E]) -> E | None:
    member = mapping.to_core.get(value)
    return member if isinstance(member, kind) else None


def to_game(value: int) -> Game | None:
    """The core game of a wire value; None for UNSPECIFIED or a number this server lacks."""
    return _core(_GAME, value, Game)


def game_value(game: Game) -> pb.Game.ValueType:
    value: pb.Game.ValueType = _GAME.to_proto[game]
    return value


_OPTION_NAMES = tuple(f.name for f in dataclasses.fields(Options))
"""The ``Options`` fields, which are the wire ``Options`` fields by name."""
_OPTIONS = {
    flags: Options(*flags) for flags in itertools.product((False, True), repeat=len(_OPTION_NAMES))
}
"""Every Options there is (frozen, so shared): no construction per request."""


_NO_OPTIONS = _OPTIONS[(False,) * len(_OPTION_NAMES)]


def to_options(options: pb.Options) -> Options:
    """The core Options of a wire ``Options`` (an unset message reads as all off)."""
    if not options.ListFields():
        return _NO_OPTIONS
    return _OPTIONS[tuple(getattr(options, name) for name in _OPTION_NAMES)]


def _spreads(spreads: Iterable[pb.Spread]) -> list[list[str]]:
    return [list(s.cards) for s in spreads]


def to_hand_request(request: pb.EvaluateRequest) -> HandRequest:
    """Parse and check one hand: RequestTooLarge when a list or string is over its limit
    (``request_limits``), else InvalidRequest listing every problem.

    A valid hand in canonical text is read first (``read_plain_hand``, bounded by the
    game's sizes): it is within every list limit, so only its ``request_id`` is measured.
    """
    game, options = to_game(request.game), to_options(request.options)
    plain = read_plain_hand(game, request.hand, request.table, request.table_spreads, options)
    if plain is not None:
        check_request_id(request.request_id)
        return plain
    check_evaluate(request)
    return read_hand_in_full(
        game,
        request.hand,
        request.table,
        _spreads(request.table_spreads) if request.table_spreads else (),
        options,
    )


def to_showdown_request(request: pb.ShowdownRequest) -> ShowdownRequest:
    """Parse and check a showdown: RequestTooLarge when a list or string is over its limit
    (``request_limits``), else InvalidRequest listing every problem.

    An unknown declaration or ending number reads as a missing one. A seat's ``unknown``
    is refused (only Odds reads it), with every other problem of the request.
    """
    check_showdown(request)
    seats: list[SeatText] = [
        (s.player, list(s.hand), _core(_DECLARATION, s.declaration, Declaration))
        for s in request.seats
    ]
    unknown = [
        Violation(
            f"seats[{index}].unknown", f"{seat.unknown} unknown cards: only Odds reads unknown"
        )
        for index, seat in enumerate(request.seats)
        if seat.unknown
    ]
    try:
        parsed = read_showdown(
            to_game(request.game),
            seats,
            list(request.table),
            _spreads(request.table_spreads),
            to_options(request.options),
            _core(_ENDING, request.ending, TonkEnding),
            request.ender,
        )
    except InvalidRequest as error:
        raise InvalidRequest([*unknown, *error.violations]) from None
    if unknown:
        raise InvalidRequest(unknown)
    return parsed


def serves_odds(rules: GameRules) -> bool:
    """Whether ``Odds`` serves the game (ListGames' ``odds``)."""
    return rules.odds is not None


def to_odds_request(request: pb.OddsRequest) -> OddsRequest:
    """Parse and check an Odds request: RequestTooLarge when a list or string is over its
    limit (``request_limits``), else InvalidRequest listing every problem. An unknown
    declaration number reads as a missing one."""
    check_odds(request)
    seats: list[OddsSeatText] = [
        (s.player, list(s.hand), s.unknown, _core(_DECLARATION, s.declaration, Declaration))
        for s in request.seats
    ]
    return read_odds(
        to_game(request.game),
        seats,
        list(request.table),
        list(request.dead),
        to_options(request.options),
    )


def to_odds_response(
    result: Odds, game: pb.Game.ValueType, request_id: str = ""
) -> pb.OddsResponse:
    """The wire OddsResponse; ``game`` and ``request_id`` are echoed as the caller sent them."""
    return pb.OddsResponse(
        request_id=request_id,
        game=game,
        seats=[
            pb.SeatOdds(
                player=seat.player,
                share=seat.share,
                pots=[pb.PotOdds(pot=p.pot, win=p.win, share=p.share) for p in seat.pots],
                instant_win=seat.instant_win,
            )
            for seat in result.seats
        ],
        redeal=result.redeal,
        exact=result.exact,
        runouts=result.runouts,
        standard_error=result.standard_error,
    )


def _cards(cards: Iterable[int]) -> list[str]:
    return [card_text(c) for c in cards]


def _message_class(descriptor: Descriptor) -> type[Message]:
    message: type[Message] = getattr(pb, descriptor.name)
    return message


def _item(field: FieldDescriptor, kind: Any) -> Any:
    """The type hint of one element: ``kind`` itself, or its items for a repeated field."""
    return typing.get_args(kind)[0] if field.is_repeated else kind


def _is_card(field: FieldDescriptor, item: Any) -> bool:
    """Card ids in the core, card text on the wire."""
    return field.type == FieldDescriptor.TYPE_STRING and item is int


def _is_card_or_none(field: FieldDescriptor, item: Any) -> bool:
    """A card id or None in the core (``SpadesDetail.highest``), card text or empty on the wire."""
    return field.type == FieldDescriptor.TYPE_STRING and item == int | None


def _card_or_empty(card: int | None) -> str:
    return "" if card is None else card_text(card)


def _card_or_none(text: str) -> int | None:
    return parse_card(text) if text else None


def _to_wire(field: FieldDescriptor, kind: Any) -> Callable[[Any], Any]:
    """How one core field becomes the wire's ``field`` (``kind``: the core's type hint); a
    message field becomes the dict of its fields, which the enclosing message's
    constructor builds in place (no intermediate message to copy)."""
    item = _item(field, kind)
    one: Callable[[Any], Any]
    if field.message_type is not None:
        message = _message_class(field.message_type)
        if dataclasses.is_dataclass(item):
            one = _detail_to_wire(item, message)
        else:  # a bare tuple of card ids for a message of one card field (``Spread``)
            (only,) = message.DESCRIPTOR.fields
            one = lambda cards: {only.name: _cards(cards)}  # noqa: E731
    elif field.enum_type is not None:
        one = ENUM_MAPS[item].to_proto.__getitem__
    elif _is_card(field, item):
        one = card_text
    elif _is_card_or_none(field, item):
        one = _card_or_empty
    else:
        one = _same
    if field.is_repeated:
        return lambda values: [one(v) for v in values]
    return one


def _to_core(field: FieldDescriptor, kind: Any) -> Callable[[Any], Any]:
    """How one wire field becomes the core's (``kind``: the core's type hint)."""
    item = _item(field, kind)
    one: Callable[[Any], Any]
    if field.message_type is not None:
        message = _message_class(field.message_type)
        if dataclasses.is_dataclass(item):
            one = _detail_to_core(item, message)
        else:
            (only,) = message.DESCRIPTOR.fields
            one = lambda spread: tuple(parse_card(c) for c in getattr(spread, only.name))  # noqa: E731
    elif field.enum_type is not None:
        one = ENUM_MAPS[item].to_core.__getitem__
    elif _is_card(field, item):
        one = parse_card
    elif _is_card_or_none(field, item):
        one = _card_or_none
    else:
        one = _same
    if field.is_repeated:
        return lambda values: tuple(one(v) for v in values)
    return one


def _same(value: Any) -> Any:
    return value


def _steps(
    core: Any, message: type[Message], convert: Callable[[FieldDescriptor, Any], Any]
) -> list[tuple[str, Callable[[Any], Any]]]:
    """(field name, converter) for every field of the dataclass ``core``, which are the
    fields of ``message`` by name."""
    hints = typing.get_type_hints(core)
    by_name: Any = message.DESCRIPTOR.fields_by_name
    return [(f.name, convert(by_name[f.name], hints[f.name])) for f in dataclasses.fields(core)]


def _detail_to_wire(core: Any, message: type[Message]) -> Callable[[Any], dict[str, Any]]:
    """The core detail as the fields of ``message``, for a constructor to take."""
    steps = _steps(core, message, _to_wire)
    return lambda detail: {name: step(getattr(detail, name)) for name, step in steps}


def _detail_to_core(core: Any, message: type[Message]) -> Callable[[Message], Any]:
    steps = _steps(core, message, _to_core)
    return lambda wire: core(**{name: step(getattr(wire, name)) for name, step in steps})


def _wire_message(detail: Any) -> type[Message]:
    message_type = pb.Evaluation.DESCRIPTOR.fields_by_name[detail.WIRE].message_type
    assert message_type is not None, f"Evaluation.{detail.WIRE} is a message field"
    return _message_class(message_type)


_TO_WIRE: dict[type[Any], tuple[str, Callable[[Any], dict[str, Any]]]] = {
    kind: (kind.WIRE, _detail_to_wire(kind, _wire_message(kind))) for kind in DETAILS
}
"""Detail type -> (its ``oneof detail`` field, named by its ``WIRE``; its converter)."""
_TO_CORE: dict[str, Callable[[Message], Any]] = {
    kind.WIRE: _detail_to_core(kind, _wire_message(kind)) for kind in DETAILS
}


def _detail_field(detail: Detail) -> tuple[str, dict[str, Any]]:
    field, convert = _TO_WIRE[type(detail)]
    return field, convert(detail)


def from_evaluation(evaluation: pb.Evaluation) -> Evaluation | None:
    """The core Evaluation a wire Evaluation carries, or None without a detail this build
    knows (a newer server's): what a game's ``figures`` read for people."""
    which = evaluation.WhichOneof("detail")
    if which not in _TO_CORE:
        return None
    return Evaluation(
        strength=evaluation.strength,
        description=evaluation.description,
        detail=_TO_CORE[which](getattr(evaluation, which)),
        low_strength=evaluation.low_strength,
        instant_win=evaluation.instant_win,
        out_after=evaluation.out_after,
        kept=tuple(parse_card(c) for c in evaluation.kept),
        discarded=tuple(parse_card(c) for c in evaluation.discarded),
    )


def to_evaluation(
    evaluation: Evaluation, game: pb.Game.ValueType, request_id: str = ""
) -> pb.Evaluation:
    """The wire Evaluation; ``game`` and ``request_id`` are echoed as the caller sent them.
    One constructor call builds it, detail included (the unary path's conversion)."""
    field, fields = _detail_field(evaluation.detail)
    detail: dict[str, Any] = {field: fields}
    return pb.Evaluation(
        request_id=request_id,
        game=game,
        strength=evaluation.strength,
        low_strength=evaluation.low_strength,
        instant_win=evaluation.instant_win,
        out_after=evaluation.out_after,
        description=evaluation.description,
        kept=_cards(evaluation.kept),
        discarded=_cards(evaluation.discarded),
        **detail,
    )


def to_showdown_response(
    outcome: ShowdownOutcome, game: pb.Game.ValueType, request_id: str = ""
) -> pb.ShowdownResponse:
    return pb.ShowdownResponse(
        results=[
            pb.SeatResult(player=player, evaluation=to_evaluation(evaluation, game))
            for player, evaluation in outcome.results
        ],
        awards=[
            pb.Award(
                player=a.player,
                pot=a.pot,
                numerator=a.share.numerator,
                denominator=a.share.denominator,
            )
            for a in outcome.awards
        ],
        redeal=outcome.redeal,
        payouts=[pb.Payout(player=p.player, stakes=p.stakes) for p in outcome.payouts],
        explanation=outcome.explanation,
        request_id=request_id,
    )


def to_game_info(rules: GameRules) -> pb.GameInfo:
    return pb.GameInfo(
        game=game_value(rules.game),
        name=rules.name,
        number=rules.number,
        hand_min=rules.hand_min,
        hand_max=rules.hand_max,
        table_min=rules.table_min,
        table_max=rules.table_max,
        jokers=rules.jokers,
        pots=list(rules.pots),
        options=list(rules.options),
        summary=rules.summary,
        odds=serves_odds(rules),
    )


def to_list_games(games: Iterable[GameRules]) -> pb.ListGamesResponse:
    return pb.ListGamesResponse(games=[to_game_info(rules) for rules in games])


def _clip(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def status(code: int, message: str, violations: Sequence[Violation] = ()) -> status_pb2.Status:
    """A ``google.rpc.Status``; with violations, a BadRequest detail lists them (``cap``ped,
    field paths like ``hand[2]``) and the message names the first and counts the others."""
    reply = status_pb2.Status(code=code, message=_clip(message))
    if violations:
        shown = cap(violations)
        detail = any_pb2.Any()
        detail.Pack(
            error_details_pb2.BadRequest(
                field_violations=[
                    error_details_pb2.BadRequest.FieldViolation(
                        field=_clip(v.field), description=_clip(v.message)
                    )
                    for v in shown
                ]
            )
        )
        reply.details.append(detail)
        reply.message = _clip(_summary(message, violations))
    return reply


def _summary(message: str, violations: Sequence[Violation]) -> str:
    first = violations[0]
    text = f"{message}: {first.field}: {first.message}"
    if (more := problem_count(violations) - 1) > 0:
        text += f" (and {more} more problem{'s' if more > 1 else ''})"
    return text


def invalid_argument(violations: Sequence[Violation]) -> status_pb2.Status:
    return status(code_pb2.INVALID_ARGUMENT, "invalid request", violations)


def request_shape(request: Message) -> dict[str, int]:
    """What a log may say about a request: enum values, sizes and counts, never cards or ids."""
    shape: dict[str, int] = {}
    for field in request.DESCRIPTOR.fields:
        value = getattr(request, field.name)
        if field.is_repeated or field.type == field.TYPE_BYTES:
            shape[f"{field.name}_len"] = len(value)
        elif field.type in (field.TYPE_ENUM, field.TYPE_UINT32, field.TYPE_UINT64):
            shape[field.name] = int(value)
    return shape
