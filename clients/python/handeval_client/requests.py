"""The contract's requests built from what callers type: game names, card text or ids,
option keywords, numpy arrays of card ids.

Everything the client can tell is wrong is refused here, before sending, as the server
would refuse it: ``HandevalError`` (INVALID_ARGUMENT) naming the field.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias, TypedDict, Unpack, cast

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

from handeval_client.catalogue import EMPTY, GAMES, card_text, parse_card
from handeval_client.errors import HandevalError
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

CardsIn: TypeAlias = str | Sequence[str | int]
"""Cards as one string (``"5h 6h 7h"`` or ``"5h,6h,7h"``), texts, or card ids."""
GameIn: TypeAlias = str | int | enum.Enum
"""A game's slug, name, alias or wire name, its wire number, or any enum member of a
game's name (the server's ``Game``, say)."""
SeatIn: TypeAlias = "pb.Seat | tuple[str, CardsIn] | tuple[str, CardsIn, str | enum.Enum | None]"
OptionsIn: TypeAlias = "pb.Options | Mapping[str, bool] | Any | None"
"""House options: the wire's ``Options``, a mapping of option names, or a dataclass whose
fields are option names."""
BatchCardsIn: TypeAlias = (
    "bytes | npt.NDArray[np.uint8] | Sequence[Sequence[str | int]] | Sequence[str | int]"
)


# --- names people type ---------------------------------------------------------------


def _squash(text: str) -> str:
    return re.sub(r"[\s_\-]", "", text.strip().lower())


def parse_game(value: GameIn, field: str = "game") -> pb.Game.ValueType:
    """The wire value of the game a caller means: its slug (``"poker-high"``), its name
    (``"Poker high"``), its wire name (``"GAME_POKER_HIGH"``), one of its aliases
    (``"333"``), an enum member of its name, or the wire number; case, ``-``, ``_`` and
    spaces do not matter. Anything else raises HandevalError(INVALID_ARGUMENT) on
    ``field``, listing the games."""
    slugs = ", ".join(game.slug for game in GAMES)
    if isinstance(value, enum.Enum):
        value = value.name
    if isinstance(value, int):
        if any(pb.Game.Value(game.wire) == value for game in GAMES):
            return pb.Game.ValueType(value)
        raise HandevalError.refused(field, f"{value} is not a game number: one of {slugs}")
    key = _squash(value).removeprefix("game")
    for game in GAMES:
        if key in (
            _squash(game.slug),
            _squash(game.wire.removeprefix("GAME_")),
            _squash(game.name),
            *game.aliases,
        ):
            return pb.Game.Value(game.wire)
    raise HandevalError.refused(field, f"unknown game {value!r}: one of {slugs}")


def _parse_member(value: str | enum.Enum, wire: Any, what: str, field: str) -> int:
    """The wire value of ``wire`` (a proto enum) that ``value`` names, by its name without
    the enum's prefix (``"stock-out"`` -> ``TONK_ENDING_STOCK_OUT``), any case."""
    prefix = re.sub(r"(?<!^)(?=[A-Z])", "_", wire.DESCRIPTOR.name).upper() + "_"
    members = {
        _squash(name.removeprefix(prefix)): number for name, number in wire.items() if number != 0
    }
    key = _squash(value.name if isinstance(value, enum.Enum) else value)
    if key in members:
        return int(members[key])
    names = ", ".join(
        name.removeprefix(prefix).lower().replace("_", "-") for name, n in wire.items() if n
    )
    raise HandevalError.refused(field, f"unknown {what} {value!r}: one of {names}")


def parse_declaration(
    value: str | enum.Enum, field: str = "declaration"
) -> pb.Declaration.ValueType:
    """``"high"``, ``"low"`` or ``"both"`` (any case, or an enum member of that name) as
    the wire's ``Declaration``; anything else raises HandevalError(INVALID_ARGUMENT) on
    ``field``."""
    return pb.Declaration.ValueType(_parse_member(value, pb.Declaration, "declaration", field))


def parse_ending(value: str | enum.Enum, field: str = "ending") -> pb.TonkEnding.ValueType:
    """``"tonk"``, ``"out"``, ``"drop"``, ``"stock-out"`` or ``"deal"`` (any case, or an enum
    member of that name) as the wire's ``TonkEnding``; anything else raises
    HandevalError(INVALID_ARGUMENT) on ``field``."""
    return pb.TonkEnding.ValueType(_parse_member(value, pb.TonkEnding, "ending", field))


class OptionFlags(TypedDict, total=False):
    """The house options as plain keywords of a call: ``showdown(..., texas=True)``."""

    ace_low: bool
    hit_runs_only: bool
    texas: bool
    six_card_tonk: bool


OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in pb.Options.DESCRIPTOR.fields)
"""Every house option, as the contract's ``Options`` and ``OptionFlags`` name them."""


def options_proto(options: OptionsIn = None, **flags: Unpack[OptionFlags]) -> pb.Options:
    """The wire ``Options`` from ``options`` (``pb.Options``, a mapping of option names to
    booleans, a dataclass with option fields, or None) with the keyword ``flags`` set over
    it.

    A name that is no option, or a value that is no bool, raises
    HandevalError(INVALID_ARGUMENT) naming ``options.<name>``: a typo must not turn into
    a score under other rules.
    """
    proto = pb.Options()
    chosen: dict[str, object]
    if isinstance(options, pb.Options):
        proto.CopyFrom(options)
        chosen = {}
    elif hasattr(options, "__dataclass_fields__") and not isinstance(options, type):
        import dataclasses  # on first use: only callers passing a dataclass need it

        chosen = dataclasses.asdict(options)  # type: ignore[arg-type]
    else:
        chosen = dict(cast(Mapping[str, object], options or {}))
    chosen.update(flags)
    found = [
        (f"options.{name}", _option_problem(name, value))
        for name, value in chosen.items()
        if name not in OPTION_NAMES or not isinstance(value, bool)
    ]
    if found:
        raise HandevalError.invalid(found)
    for name, value in chosen.items():
        setattr(proto, name, value)
    return proto


def _option_problem(name: str, value: object) -> str:
    if name not in OPTION_NAMES:
        return f"no such option {name!r}: one of {', '.join(OPTION_NAMES)}"
    return f"an option is True or False, not {value!r}"


def split_cards(text: str) -> list[str]:
    """``"5h 6h,7h"`` -> ``["5h", "6h", "7h"]``: cards separated by spaces or commas."""
    return [t for t in re.split(r"[\s,]+", text.strip()) if t]


def _card_texts(cards: CardsIn) -> list[str]:
    if isinstance(cards, str):
        return split_cards(cards)
    return [card_text(c) if isinstance(c, int) and 0 <= c <= 53 else str(c) for c in cards]


# --- requests ------------------------------------------------------------------------


def _spreads_proto(spreads: Sequence[CardsIn]) -> list[pb.Spread]:
    return [pb.Spread(cards=_card_texts(s)) for s in spreads]


def evaluate_request(
    game: GameIn,
    hand: CardsIn,
    table: CardsIn = (),
    table_spreads: Sequence[CardsIn] = (),
    options: OptionsIn = None,
    request_id: str = "",
    **flags: Unpack[OptionFlags],
) -> pb.EvaluateRequest:
    """The ``EvaluateRequest`` for one hand, e.g. to feed ``evaluate_stream``; options as
    ``options_proto`` reads them."""
    return pb.EvaluateRequest(
        game=parse_game(game),
        hand=_card_texts(hand),
        table=_card_texts(table),
        table_spreads=_spreads_proto(table_spreads),
        options=options_proto(options, **flags),
        request_id=request_id,
    )


def _seat_proto(seat: SeatIn, index: int) -> pb.Seat:
    if isinstance(seat, pb.Seat):
        return seat
    player, hand = seat[0], seat[1]
    declaration = seat[2] if len(seat) > 2 else None
    proto = pb.Seat(player=player, hand=_card_texts(hand))
    if declaration is not None:
        proto.declaration = parse_declaration(declaration, f"seats[{index}].declaration")
    return proto


def _seats_proto(
    seats: Mapping[str, CardsIn] | Sequence[SeatIn], seat_proto: Callable[[SeatIn, int], pb.Seat]
) -> list[pb.Seat]:
    """Every seat in order, from a player -> hand mapping or a sequence of seats."""
    items: Sequence[SeatIn] = list(seats.items()) if isinstance(seats, Mapping) else seats
    return [seat_proto(seat, index) for index, seat in enumerate(items)]


def showdown_request(
    game: GameIn,
    seats: Mapping[str, CardsIn] | Sequence[SeatIn],
    table: CardsIn = (),
    table_spreads: Sequence[CardsIn] = (),
    options: OptionsIn = None,
    ending: str | enum.Enum | None = None,
    ender: str = "",
    request_id: str = "",
    **flags: Unpack[OptionFlags],
) -> pb.ShowdownRequest:
    """The ``ShowdownRequest``; ``seats`` maps player to hand, or lists ``(player, hand)``
    or ``(player, hand, declaration)`` tuples (Flop-A needs the declaration). Tonk:
    ``ending`` (``"tonk"``, ``"out"``, ``"drop"``, ``"stock-out"``, ``"deal"``) says how
    the game ended and ``ender`` who ended it; options as ``options_proto`` reads them
    (``texas=True``)."""
    request = pb.ShowdownRequest(
        game=parse_game(game),
        seats=_seats_proto(seats, _seat_proto),
        table=_card_texts(table),
        table_spreads=_spreads_proto(table_spreads),
        options=options_proto(options, **flags),
        ender=ender,
        request_id=request_id,
    )
    if ending is not None:
        request.ending = parse_ending(ending)
    return request


UNKNOWN_CARDS = re.compile(r"\?(\d*)")
"""An Odds seat's ``?N`` (or ``?``): N cards (one) that nobody here knows."""


def _odds_seat_proto(seat: SeatIn, index: int) -> pb.Seat:
    """A seat whose ``?N`` cards are moved out of its hand into ``unknown``."""
    proto = _seat_proto(seat, index)
    known = []
    for text in proto.hand:
        if (match := UNKNOWN_CARDS.fullmatch(text)) is not None:
            proto.unknown += int(match.group(1) or 1)
        else:
            known.append(text)
    proto.ClearField("hand")
    proto.hand.extend(known)
    return proto


def odds_request(
    game: GameIn,
    seats: Mapping[str, CardsIn] | Sequence[SeatIn],
    table: CardsIn = (),
    dead: CardsIn = (),
    options: OptionsIn = None,
    samples: int = 0,
    seed: int = 0,
    request_id: str = "",
    **flags: Unpack[OptionFlags],
) -> pb.OddsRequest:
    """The ``OddsRequest``; ``seats`` as ``showdown_request`` takes them, where ``?N`` among
    a seat's cards says N cards nobody here knows: ``{"alice": "As Ks", "bob": "?2"}``,
    ``("carol", "7h 2c ?1", "high")``. ``samples`` 0: exact when the server's limit allows.
    ``dead``: cards seen and out of play."""
    return pb.OddsRequest(
        game=parse_game(game),
        seats=_seats_proto(seats, _odds_seat_proto),
        table=_card_texts(table),
        dead=_card_texts(dead),
        options=options_proto(options, **flags),
        samples=samples,
        seed=seed,
        request_id=request_id,
    )


def _card_ids(
    cards: Sequence[str | int] | str, field: str, found: list[tuple[str, str]]
) -> list[int]:
    ids: list[int] = []
    for card in split_cards(cards) if isinstance(cards, str) else cards:
        if isinstance(card, int):
            if not 0 <= card <= 255:
                found.append((field, f"card id {card} is no byte: ids are 0-255"))
            ids.append(card if 0 <= card <= 255 else EMPTY)
            continue
        try:
            ids.append(parse_card(card))
        except ValueError as error:
            found.append((field, str(error)))
            ids.append(EMPTY)
    return ids


def _pack(
    rows: Sequence[Sequence[str | int] | str], size: int | None, field: str
) -> tuple[bytes, int]:
    """Rows of texts or ids as packed bytes; a text that is no card is refused here, as
    the server would refuse it (HandevalError naming ``hands[i]`` or ``tables[i]``)."""
    found: list[tuple[str, str]] = []
    parsed = [_card_ids(r, f"{field}[{i}]", found) for i, r in enumerate(rows)]
    if found:
        raise HandevalError.invalid(found)
    width = size if size is not None else max((len(r) for r in parsed), default=0)
    packed = np.full((len(parsed), width), EMPTY, dtype=np.uint8)
    for index, row in enumerate(parsed):
        packed[index, : len(row)] = row[:width]
    return packed.tobytes(), width


def _card_bytes(cards: npt.NDArray[Any], field: str) -> npt.NDArray[np.uint8]:
    """A 1-D or 2-D array of integer card ids as (rows, cards) uint8, copied only when it
    is not uint8 already. Other arrays are refused on ``field``: a cast would wrap an id
    outside a byte into another card, and truncate a float."""
    if not np.issubdtype(cards.dtype, np.integer):
        raise HandevalError.refused(field, f"card ids are integers, not {cards.dtype}")
    if cards.ndim not in (1, 2):
        raise HandevalError.refused(
            field, f"an array of card ids is 1-D (one row) or 2-D (a row each), not {cards.ndim}-D"
        )
    if cards.dtype != np.uint8 and cards.size and (cards.min() < 0 or cards.max() > 255):
        raise HandevalError.refused(field, "holds ids outside 0-255: card ids are bytes")
    array = np.ascontiguousarray(cards, dtype=np.uint8)
    return array.reshape(1, -1) if array.ndim == 1 else array


def _pack_cards(
    cards: BatchCardsIn, size: int | None, field: str, *, flat_is_one_row: bool
) -> tuple[bytes, int]:
    if isinstance(cards, bytes | bytearray | memoryview):
        if size is None:
            size_field = "hand_size" if field == "hands" else "table_size"
            raise HandevalError.refused(size_field, f"packed {field} need {size_field}")
        return bytes(cards), size
    if isinstance(cards, np.ndarray):
        array = _card_bytes(cards, field)
        return array.tobytes(), array.shape[1]
    if isinstance(cards, str):
        return _pack([cards], size, field)
    rows = list(cards)
    if not rows:
        return b"", size or 0
    if flat_is_one_row and all(isinstance(c, int | str) for c in rows):
        return _pack([rows], size, field)  # type: ignore[list-item]
    return _pack(rows, size, field)  # type: ignore[arg-type]


def batch_request(
    game: GameIn,
    hands: BatchCardsIn,
    tables: BatchCardsIn = (),
    options: OptionsIn = None,
    hand_size: int | None = None,
    table_size: int | None = None,
    columns: bool = True,
    **flags: Unpack[OptionFlags],
) -> pb.EvaluateBatchRequest:
    """The packed ``EvaluateBatchRequest``.

    ``hands``: a 2-D array of card ids (N, hand_size; uint8 is sent as its bytes with no
    loop over the hands, any other integer dtype is checked and narrowed once); rows of
    cards (ids or texts; shorter rows are padded with 255); or packed bytes with
    ``hand_size``. ``tables``: nothing, one table for every hand (a flat row of cards, or
    a 1-D array), one row per hand (a 2-D array), or bytes with ``table_size``. Options
    as ``options_proto`` reads them. ``columns`` asks for the reply as byte columns, which
    a client reads with one ``numpy.frombuffer`` each (``handeval_client.batch``).
    """
    hand_bytes, hand_width = _pack_cards(hands, hand_size, "hands", flat_is_one_row=False)
    table_bytes, table_width = _pack_cards(tables, table_size, "tables", flat_is_one_row=True)
    return pb.EvaluateBatchRequest(
        game=parse_game(game),
        hands=hand_bytes,
        hand_size=hand_width,
        tables=table_bytes,
        table_size=table_width,
        options=options_proto(options, **flags),
        columns=columns,
    )
