"""The typed Python client: card text in, the contract's messages out.

One place builds channels, stubs and requests, so the CLI, the tests, the load generator
and game servers never do it by hand::

    with HandevalClient("localhost:50051") as client:
        ev = client.evaluate("tonk", "5h 6h 7h Kd 2c")
        ev.description, ev.strength, ev.tonk.deadwood      # "Deadwood 12", ..., 12

Results are the protobuf messages of the contract (docs/api.md: ``Evaluation``,
``ShowdownResponse``, ``OddsResponse``, ``ListGamesResponse``), not a third vocabulary:
they are the documented contract every language sees, carry cards back as text in the
notation sent, cost nothing to convert on the hot path and grow with the proto.
``share()`` turns an award into a ``Fraction`` and ``detail()`` returns the game's detail
message. The batch call takes numpy arrays of card ids and answers with the core's
``BatchResult`` (numpy arrays, one entry per hand), the shape a batch caller computes on.
Strength always points up: a larger ``strength`` is a better hand.

House options go as plain keywords (``texas=True``), a mapping (``{"texas": True}``),
the core's ``Options`` or the wire's ``pb.Options``, on every call that takes them.

Every RPC is idempotent, so the channel retries UNAVAILABLE with exponential backoff
(``service_config()``). Every failure raises ``HandevalError``: a call the server refused
or could not answer, with the status code and the ``google.rpc.BadRequest`` field
violations, and a request the client can already tell is wrong (an unknown game, ending,
declaration or option, a batch array that holds no card ids), as INVALID_ARGUMENT naming
the field, before anything is sent.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeAlias, TypedDict

import grpc
import numpy as np
import numpy.typing as npt
from google.protobuf.message import Message
from google.rpc import status_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_status import rpc_status

from evaluators.cards import EMPTY, card_text, parse_card
from evaluators.inputs import Declaration, Game, Options, TonkEnding
from evaluators.registry import GAMES
from evaluators.results import BatchResult
from service.gen.handeval.v1 import handeval_pb2 as pb
from service.gen.handeval.v1 import handeval_pb2_grpc as pb_grpc
from service.wire.batch_reply import batch_result as batch_result  # the client's API
from service.wire.batch_reply import read_batch_reply as read_batch_reply
from service.wire.enums import game_value, to_wire
from service.wire.status import lead as status_lead
from service.wire.status import violations

if TYPE_CHECKING:
    from typing_extensions import Unpack

SERVICE_NAME = "handeval.v1.HandEvaluator"
DEFAULT_TARGET = "localhost:50051"
DEFAULT_TIMEOUT_S = 10.0
"""Deadline of each unary call; retries happen within it."""

CardsIn: TypeAlias = str | Sequence[str | int]
"""Cards as one string (``"5h 6h 7h"`` or ``"5h,6h,7h"``), texts, or card ids."""
GameIn: TypeAlias = Game | str | int
SeatIn: TypeAlias = "pb.Seat | tuple[str, CardsIn] | tuple[str, CardsIn, Declaration | str | None]"
OptionsIn: TypeAlias = "Options | pb.Options | Mapping[str, bool] | None"
"""House options: the core's ``Options``, the wire's, or a mapping of option names."""
BatchCardsIn: TypeAlias = (
    "bytes | npt.NDArray[np.uint8] | Sequence[Sequence[str | int]] | Sequence[str | int]"
)

# --- names people type ---------------------------------------------------------------


def _squash(text: str) -> str:
    return re.sub(r"[\s_\-]", "", text.strip().lower())


def parse_game(value: GameIn, field: str = "game") -> Game:
    """The game a caller means: the ``Game``, its slug (``"poker-high"``), its name
    (``"Poker high"``), its proto name (``"GAME_POKER_HIGH"``), one of its ``aliases``
    (``"333"``) or the proto enum number; case, ``-``, ``_`` and spaces do not matter.
    Anything else raises HandevalError(INVALID_ARGUMENT) on ``field``, listing the games.
    """
    if isinstance(value, Game):
        return value
    names = ", ".join(g.value for g in Game)
    if isinstance(value, int):
        name = pb.Game.Name(pb.Game.ValueType(value)) if value in pb.Game.values() else ""
        if name.startswith("GAME_") and name != "GAME_UNSPECIFIED":
            return Game[name.removeprefix("GAME_")]
        raise HandevalError.refused(field, f"{value} is not a game number: one of {names}")
    key = _squash(value).removeprefix("game")
    for game in Game:
        if key in (_squash(game.value), _squash(game.name)):
            return game
    for rules in GAMES.values():
        if key in (_squash(rules.name), *rules.aliases):
            return rules.game
    raise HandevalError.refused(field, f"unknown game {value!r}: one of {names}")


def _parse_member(value: str, members: Iterable[Any], what: str, field: str) -> Any:
    key = _squash(value)
    for member in members:
        if key == _squash(member.name):
            return member
    names = ", ".join(m.name.lower().replace("_", "-") for m in members)
    raise HandevalError.refused(field, f"unknown {what} {value!r}: one of {names}")


def parse_declaration(value: Declaration | str, field: str = "declaration") -> Declaration:
    """``"high"``, ``"low"``, ``"both"`` (any case) or a ``Declaration``; anything else
    raises HandevalError(INVALID_ARGUMENT) on ``field``."""
    if isinstance(value, Declaration):
        return value
    result: Declaration = _parse_member(value, Declaration, "declaration", field)
    return result


def parse_ending(value: TonkEnding | str, field: str = "ending") -> TonkEnding:
    """``"tonk"``, ``"out"``, ``"drop"``, ``"stock-out"``, ``"deal"`` (any case) or a
    ``TonkEnding``; anything else raises HandevalError(INVALID_ARGUMENT) on ``field``."""
    if isinstance(value, TonkEnding):
        return value
    result: TonkEnding = _parse_member(value, TonkEnding, "ending", field)
    return result


class OptionFlags(TypedDict, total=False):
    """The house options as plain keywords of a call: ``showdown(..., texas=True)``."""

    ace_low: bool
    hit_runs_only: bool
    texas: bool
    six_card_tonk: bool


OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Options))
"""Every house option, as ``Options``, ``pb.Options`` and ``OptionFlags`` name them."""


def options_proto(options: OptionsIn = None, **flags: Unpack[OptionFlags]) -> pb.Options:
    """The wire ``Options`` from ``options`` (``Options``, ``pb.Options``, a mapping of
    option names to booleans, or None) with the keyword ``flags`` set over it.

    A name that is no option, or a value that is no bool, raises
    HandevalError(INVALID_ARGUMENT) naming ``options.<name>``: a typo must not turn into
    a score under other rules.
    """
    proto = pb.Options()
    if isinstance(options, pb.Options):
        proto.CopyFrom(options)
        chosen: dict[str, object] = {}
    elif isinstance(options, Options):
        chosen = dataclasses.asdict(options)
    else:
        chosen = dict(options or {})
    chosen.update(flags)
    violations = [
        (f"options.{name}", _option_problem(name, value))
        for name, value in chosen.items()
        if name not in OPTION_NAMES or not isinstance(value, bool)
    ]
    if violations:
        raise HandevalError(grpc.StatusCode.INVALID_ARGUMENT, "invalid request", violations)
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


def game_proto(game: GameIn) -> pb.Game.ValueType:
    """The wire enum of a game given in any form ``parse_game`` reads."""
    return game_value(parse_game(game))


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
        game=game_proto(game),
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
        declared = parse_declaration(declaration, f"seats[{index}].declaration")
        proto.declaration = to_wire(declared)  # type: ignore[assignment]
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
    ending: TonkEnding | str | None = None,
    ender: str = "",
    request_id: str = "",
    **flags: Unpack[OptionFlags],
) -> pb.ShowdownRequest:
    """The ``ShowdownRequest``; ``seats`` maps player to hand, or lists ``(player, hand)``
    or ``(player, hand, declaration)`` tuples (Flop-A needs the declaration). Tonk:
    ``ending`` (``"tonk"``, ``"out"``, ``"drop"``, ``"stock-out"``, ``"deal"`` or a
    ``TonkEnding``) says how the game ended and ``ender`` who ended it; options as
    ``options_proto`` reads them (``texas=True``)."""
    request = pb.ShowdownRequest(
        game=game_proto(game),
        seats=_seats_proto(seats, _seat_proto),
        table=_card_texts(table),
        table_spreads=_spreads_proto(table_spreads),
        options=options_proto(options, **flags),
        ender=ender,
        request_id=request_id,
    )
    if ending is not None:
        request.ending = to_wire(parse_ending(ending))  # type: ignore[assignment]
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
        game=game_proto(game),
        seats=_seats_proto(seats, _odds_seat_proto),
        table=_card_texts(table),
        dead=_card_texts(dead),
        options=options_proto(options, **flags),
        samples=samples,
        seed=seed,
        request_id=request_id,
    )


def _card_ids(
    cards: Sequence[str | int] | str, field: str, violations: list[tuple[str, str]]
) -> list[int]:
    ids: list[int] = []
    for card in split_cards(cards) if isinstance(cards, str) else cards:
        if isinstance(card, int):
            if not 0 <= card <= 255:
                violations.append((field, f"card id {card} is no byte: ids are 0-255"))
            ids.append(card if 0 <= card <= 255 else EMPTY)
            continue
        try:
            ids.append(parse_card(card))
        except ValueError as error:
            violations.append((field, str(error)))
            ids.append(EMPTY)
    return ids


def _pack(
    rows: Sequence[Sequence[str | int] | str], size: int | None, field: str
) -> tuple[bytes, int]:
    """Rows of texts or ids as packed bytes; a text that is no card is refused here, as
    the server would refuse it (HandevalError naming ``hands[i]`` or ``tables[i]``)."""
    violations: list[tuple[str, str]] = []
    parsed = [_card_ids(r, f"{field}[{i}]", violations) for i, r in enumerate(rows)]
    if violations:
        raise HandevalError(grpc.StatusCode.INVALID_ARGUMENT, "invalid request", violations)
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
    as ``options_proto`` reads them.
    ``columns`` asks for the reply as byte columns (``batch_result`` reads either layout):
    a client reads them with one ``numpy.frombuffer`` each, where the packed varints cost
    a protobuf parse of every number, ~20x as long for a large batch.
    """
    hand_bytes, hand_width = _pack_cards(hands, hand_size, "hands", flat_is_one_row=False)
    table_bytes, table_width = _pack_cards(tables, table_size, "tables", flat_is_one_row=True)
    return pb.EvaluateBatchRequest(
        game=game_proto(game),
        hands=hand_bytes,
        hand_size=hand_width,
        tables=table_bytes,
        table_size=table_width,
        options=options_proto(options, **flags),
        columns=columns,
    )


# --- results -------------------------------------------------------------------------


def share(award: pb.Award) -> Fraction:
    """The award's share of the whole pot."""
    return Fraction(award.numerator, award.denominator or 1)


def detail(evaluation: pb.Evaluation) -> Message | None:
    """The game's detail message (``PointsDetail``, ``TonkDetail``, ...), or None."""
    which = evaluation.WhichOneof("detail")
    found: Message | None = None if which is None else getattr(evaluation, which)
    return found


def batch_method(channel: grpc.Channel) -> grpc.UnaryUnaryMultiCallable:
    """``EvaluateBatch`` on ``channel``, its replies read by ``read_batch_reply``: calling
    it with an ``EvaluateBatchRequest`` answers a ``BatchResult``."""
    return channel.unary_unary(
        f"/{SERVICE_NAME}/EvaluateBatch",
        request_serializer=pb.EvaluateBatchRequest.SerializeToString,
        response_deserializer=read_batch_reply,
    )


# --- errors --------------------------------------------------------------------------

_CODES = {code.value[0]: code for code in grpc.StatusCode}


class HandevalError(Exception):
    """Every failure of the client: the gRPC ``code``, the ``message`` and, for a request
    the rules refuse (INVALID_ARGUMENT), every ``(field, description)`` violation, e.g.
    ``("hand[2]", "'Zz' is not a card: ...")``. The server's or, for a request the client
    refuses before sending, the client's (``refused``).

    ``str()`` says each violation once, one a line under the message's lead: the server's
    message also names the first violation (for logs that keep only the message), which
    ``message`` keeps as sent.
    """

    def __init__(
        self,
        code: grpc.StatusCode,
        message: str,
        violations: Sequence[tuple[str, str]] = (),
    ) -> None:
        self.code = code
        self.message = message
        self.violations = tuple(violations)
        lead = status_lead(message, self.violations)
        lines = [f"{code.name}: {lead}"] + [f"  {f}: {d}" for f, d in self.violations]
        super().__init__("\n".join(lines))

    @classmethod
    def refused(cls, field: str, description: str) -> HandevalError:
        """A request refused on the client's side, one ``field`` wrong: INVALID_ARGUMENT,
        as the server would answer it."""
        return cls(grpc.StatusCode.INVALID_ARGUMENT, "invalid request", [(field, description)])

    @classmethod
    def from_status(cls, status: status_pb2.Status) -> HandevalError:
        """From a ``google.rpc.Status``, e.g. an ``EvaluateStream`` reply's ``error``."""
        code = _CODES.get(status.code, grpc.StatusCode.UNKNOWN)
        return cls(code, status.message, violations(status))

    @classmethod
    def from_rpc_error(cls, error: grpc.RpcError) -> HandevalError:
        try:
            status = rpc_status.from_call(error)
        except ValueError:
            status = None
        if status is not None:
            return cls.from_status(status)
        return cls(error.code(), error.details() or "")


# --- the channel ---------------------------------------------------------------------


def service_config(retries: bool = True, wait_for_ready: bool = False) -> dict[str, Any]:
    """The channel's service config (gRPC's JSON form).

    Every handeval RPC and the health check is idempotent, so a call that fails with
    UNAVAILABLE (server restarting, draining, a pod gone) is retried up to 5 attempts
    (gRPC's cap), backing off 50 ms, 100 ms, 200 ms, ... at most 1 s, with jitter, always
    within the call's deadline. Retry throttling (100 tokens, a failure costs 1, a success
    earns 0.1; no retries below 50) lets a burst of failures be retried, such as every
    call in flight on a pod that died, but stops retrying once failures outrun a tenth of
    the successes, so an outage is not multiplied into a retry storm. A stream is retried
    only until its first reply arrives.

    Client-side health checking (``healthCheckConfig``) watches each server's
    ``grpc.health.v1`` status for the evaluator: round_robin sends calls only to servers
    reporting SERVING, so calls wait out a server's warm-up and move off a draining one as
    soon as it reports NOT_SERVING, before it closes the connection.

    ``wait_for_ready``: a call made while no server is ready (all reconnecting, or the only
    one warming up after a restart) waits for one within its deadline instead of failing
    at once; the load generator uses it so a restarted worker costs latency, not calls.
    """
    config: dict[str, Any] = {"healthCheckConfig": {"serviceName": SERVICE_NAME}}
    if retries:
        config["methodConfig"] = [
            {
                "name": [{"service": SERVICE_NAME}, {"service": "grpc.health.v1.Health"}],
                "waitForReady": wait_for_ready,
                "retryPolicy": {
                    "maxAttempts": 5,
                    "initialBackoff": "0.05s",
                    "maxBackoff": "1s",
                    "backoffMultiplier": 2,
                    "retryableStatusCodes": ["UNAVAILABLE"],
                },
            }
        ]
        config["retryThrottling"] = {"maxTokens": 100, "tokenRatio": 0.1}
    return config


def channel_target(target: str | Sequence[str]) -> str:
    """One gRPC target for one or several servers.

    A string is used as is (``host:port``, ``dns:///name:port``, ``ipv4:a:1,b:2``). A list of
    ``ip:port`` addresses becomes ``ipv4:a:1,b:2`` (or ``ipv6:[::1]:1,...``), which the
    client spreads calls over with ``round_robin``; for host names use one ``dns:///`` name
    that resolves to every server (a Kubernetes headless Service).
    """
    if isinstance(target, str):
        return target
    targets = list(target)
    if len(targets) == 1:
        return targets[0]
    if not targets:
        raise HandevalError.refused("target", "no target given")
    if all(t.startswith("[") for t in targets):
        return "ipv6:" + ",".join(targets)
    if all(re.fullmatch(r"\d{1,3}(\.\d{1,3}){3}:\d+", t) for t in targets):
        return "ipv4:" + ",".join(targets)
    raise HandevalError.refused(
        "target", "several targets must be ip:port addresses; for host names use one dns:/// target"
    )


def channel_options(
    retries: bool = True,
    wait_for_ready: bool = False,
    keepalive_s: float = 60.0,
    max_message_bytes: int = 64 * 1024 * 1024,
) -> list[tuple[str, str | int]]:
    """Channel arguments: the service config, round_robin over every resolved address,
    keepalive pings (every ``keepalive_s`` while calls are open, so a dead connection
    fails fast instead of hanging; the server must permit that interval), and a receive
    limit large enough for big batches."""
    return [
        ("grpc.service_config", json.dumps(service_config(retries, wait_for_ready))),
        ("grpc.enable_retries", 1 if retries else 0),
        ("grpc.lb_policy_name", "round_robin"),
        ("grpc.keepalive_time_ms", int(keepalive_s * 1000)),
        ("grpc.keepalive_timeout_ms", 20_000),
        ("grpc.keepalive_permit_without_calls", 0),
        ("grpc.max_receive_message_length", max_message_bytes),
    ]


class HandevalClient:
    """A channel to one or several handeval servers and the calls it makes.

    ``target``: ``host:port``, any gRPC target string, or a list of ``ip:port`` addresses
    to spread calls over (round_robin). ``timeout``: deadline of each unary call in
    seconds (streams have none unless given). ``credentials``: TLS channel credentials, or
    None for plaintext. Thread-safe; use one client per process and close it (or use it
    as a context manager).
    """

    def __init__(
        self,
        target: str | Sequence[str] = DEFAULT_TARGET,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
        retries: bool = True,
        credentials: grpc.ChannelCredentials | None = None,
        keepalive_s: float = 60.0,
        max_message_bytes: int = 64 * 1024 * 1024,
    ) -> None:
        self.target = channel_target(target)
        self.timeout = timeout
        options = channel_options(
            retries, keepalive_s=keepalive_s, max_message_bytes=max_message_bytes
        )
        if credentials is None:
            self._channel = grpc.insecure_channel(self.target, options=options)
        else:
            self._channel = grpc.secure_channel(self.target, credentials, options=options)
        self._stub = pb_grpc.HandEvaluatorStub(self._channel)
        self._batch = batch_method(self._channel)
        self._health = health_pb2_grpc.HealthStub(self._channel)

    def __enter__(self) -> HandevalClient:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        self._channel.close()

    def wait_ready(self, timeout: float = 10.0) -> None:
        """Block until the channel connects; raises HandevalError(UNAVAILABLE) on timeout."""
        try:
            grpc.channel_ready_future(self._channel).result(timeout=timeout)
        except grpc.FutureTimeoutError:
            raise HandevalError(
                grpc.StatusCode.UNAVAILABLE, f"no server at {self.target} after {timeout} s"
            ) from None

    def _call(self, method: Any, request: Message, timeout: float | None) -> Any:
        try:
            return method(request, timeout=self.timeout if timeout is None else timeout)
        except grpc.RpcError as error:
            raise HandevalError.from_rpc_error(error) from None

    def evaluate(
        self,
        game: GameIn,
        hand: CardsIn,
        table: CardsIn = (),
        table_spreads: Sequence[CardsIn] = (),
        options: OptionsIn = None,
        request_id: str = "",
        *,
        timeout: float | None = None,
        **flags: Unpack[OptionFlags],
    ) -> pb.Evaluation:
        """Score one hand (``Evaluate``); higher ``strength`` is better. Options as
        ``options_proto`` reads them: ``evaluate("high-card", ..., ace_low=True)``."""
        request = evaluate_request(game, hand, table, table_spreads, options, request_id, **flags)
        return self.send_evaluate(request, timeout=timeout)

    def send_evaluate(
        self, request: pb.EvaluateRequest, *, timeout: float | None = None
    ) -> pb.Evaluation:
        """``Evaluate`` with a request already built (``evaluate_request``)."""
        result: pb.Evaluation = self._call(self._stub.Evaluate, request, timeout)
        return result

    def evaluate_stream(
        self, requests: Iterable[pb.EvaluateRequest], *, timeout: float | None = None
    ) -> Iterator[pb.Evaluation]:
        """One ``Evaluation`` per request, in order, over one ``EvaluateStream`` call.

        A bad request gets a reply with ``error`` set (``HandevalError.from_status(reply.
        error)`` reads it) and the stream goes on; a failure of the whole call raises
        HandevalError. Requests are sent as the iterable yields them.
        """
        replies = self._stub.EvaluateStream(iter(requests), timeout=timeout)
        try:
            yield from replies
        except grpc.RpcError as error:
            raise HandevalError.from_rpc_error(error) from None
        finally:
            replies.cancel()

    def evaluate_batch(
        self,
        game: GameIn,
        hands: BatchCardsIn,
        tables: BatchCardsIn = (),
        options: OptionsIn = None,
        *,
        hand_size: int | None = None,
        table_size: int | None = None,
        columns: bool = True,
        timeout: float | None = None,
        **flags: Unpack[OptionFlags],
    ) -> BatchResult:
        """Score many hands of one game (``EvaluateBatch``; see ``batch_request``): with
        ``hands`` an (N, hand_size) uint8 array and ``tables`` one, the call has no
        per-hand Python on either side. The answer is numpy arrays, one entry per hand
        (``strength``, ``low_strength``, ``value``, ``instant_win``) in the columns' wire
        types (uint32, uint32, int32, bool), read-only views of the reply's bytes: copy one
        to write to it. The reply comes as columns unless ``columns`` is False; the result
        is the same either way (the packed figures narrowed to those types).

        Any bad hand fails the whole batch: HandevalError with ``hands[i]`` violations.
        """
        request = batch_request(
            game, hands, tables, options, hand_size, table_size, columns, **flags
        )
        result: BatchResult = self._call(self._batch, request, timeout)
        return result

    def send_batch(
        self, request: pb.EvaluateBatchRequest, *, timeout: float | None = None
    ) -> pb.EvaluateBatchResponse:
        """``EvaluateBatch`` with a request already built, answering the raw response."""
        result: pb.EvaluateBatchResponse = self._call(self._stub.EvaluateBatch, request, timeout)
        return result

    def showdown(
        self,
        game: GameIn,
        seats: Mapping[str, CardsIn] | Sequence[SeatIn],
        table: CardsIn = (),
        table_spreads: Sequence[CardsIn] = (),
        options: OptionsIn = None,
        ending: TonkEnding | str | None = None,
        ender: str = "",
        request_id: str = "",
        *,
        timeout: float | None = None,
        **flags: Unpack[OptionFlags],
    ) -> pb.ShowdownResponse:
        """Who wins what share of the pot, or for Tonk who pays whom (``Showdown``; see
        ``showdown_request``): ``showdown("tonk", seats, ending="drop", ender="bob",
        texas=True)``."""
        request = showdown_request(
            game, seats, table, table_spreads, options, ending, ender, request_id, **flags
        )
        return self.send_showdown(request, timeout=timeout)

    def send_showdown(
        self, request: pb.ShowdownRequest, *, timeout: float | None = None
    ) -> pb.ShowdownResponse:
        """``Showdown`` with a request already built (``showdown_request``)."""
        result: pb.ShowdownResponse = self._call(self._stub.Showdown, request, timeout)
        return result

    def odds(
        self,
        game: GameIn,
        seats: Mapping[str, CardsIn] | Sequence[SeatIn],
        table: CardsIn = (),
        dead: CardsIn = (),
        options: OptionsIn = None,
        samples: int = 0,
        seed: int = 0,
        request_id: str = "",
        *,
        timeout: float | None = None,
        **flags: Unpack[OptionFlags],
    ) -> pb.OddsResponse:
        """Each seat's chances over the cards still to come (``Odds``; see
        ``odds_request``): ``odds("poker-high", {"ann": "As Ks", "bob": "?2"}, table=...)``
        answers each seat's ``share`` of the pot and win rates, and whether the figures are
        ``exact`` or sampled."""
        request = odds_request(
            game, seats, table, dead, options, samples, seed, request_id, **flags
        )
        return self.send_odds(request, timeout=timeout)

    def send_odds(
        self, request: pb.OddsRequest, *, timeout: float | None = None
    ) -> pb.OddsResponse:
        """``Odds`` with a request already built (``odds_request``)."""
        result: pb.OddsResponse = self._call(self._stub.Odds, request, timeout)
        return result

    def list_games(self, *, timeout: float | None = None) -> pb.ListGamesResponse:
        """Every game with its limits, pots and options."""
        result: pb.ListGamesResponse = self._call(
            self._stub.ListGames, pb.ListGamesRequest(), timeout
        )
        return result

    def health(self, service: str = "", *, timeout: float | None = None) -> str:
        """The health status name of ``service`` (``""``: the whole server):
        ``"SERVING"``, ``"NOT_SERVING"``, ... Raises HandevalError(NOT_FOUND) for an
        unknown service."""
        request = health_pb2.HealthCheckRequest(service=service)
        response = self._call(self._health.Check, request, timeout)
        name: str = health_pb2.HealthCheckResponse.ServingStatus.Name(response.status)
        return name
