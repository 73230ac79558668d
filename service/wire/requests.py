"""Request messages read and checked into the core's requests.

Each reader raises RequestTooLarge when a list or string is over its limit
(``request_limits``), else InvalidRequest listing every problem the core's readers find;
an unknown enum number (game, declaration, ending) reads as a missing one.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable

from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.errors import InvalidRequest, Violation
from evaluators.inputs import Declaration, HandRequest, Options, ShowdownRequest, TonkEnding
from evaluators.odds import OddsRequest, OddsSeatText, read_odds
from evaluators.validation import (
    CANONICAL_IDS,
    SeatText,
    read_hand_in_full,
    read_plain_hand,
    read_plain_ids,
    read_showdown,
)
from service.wire import _evaluation
from service.wire.enums import to_core, to_game
from service.wire.request_limits import (
    MAX_ID_BYTES,
    check_evaluate,
    check_odds,
    check_request_id,
    check_showdown,
)

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


PlainEvaluate = tuple[int, tuple[int, ...], tuple[int, ...], str, bytes]
"""An EvaluateRequest read by ``read_plain_evaluate``: (game number, hand ids, table ids,
request_id, the request's bytes)."""


def _plain_card_ids() -> bytes:
    """What ``_evaluation.plain_request`` reads a card's two characters with: at index
    ``first << 8 | second``, the card's id + 1 for each canonical text (``CANONICAL_IDS``),
    0 elsewhere."""
    table = bytearray(1 << 16)
    for text, card in CANONICAL_IDS.items():
        first, second = text.encode("ascii")
        table[first << 8 | second] = card + 1
    return bytes(table)


_PLAIN_CARD_IDS = _plain_card_ids()


def read_plain_evaluate(data: bytes) -> PlainEvaluate | None:
    """The serialised EvaluateRequest most callers send (``game``, ``hand``, ``table`` and
    ``request_id``, cards in canonical text, ``request_id`` within its limit), read
    without protobuf; None for any other bytes, which are read the long way
    (``service/wire/_evaluation.c``). Its cards are checked by ``plain_hand_request``."""
    return _evaluation.plain_request(data, _PLAIN_CARD_IDS, MAX_ID_BYTES)


def plain_hand_request(plain: PlainEvaluate) -> HandRequest | None:
    """The hand of a ``read_plain_evaluate`` answer if it passes every check (it has no
    options: the game's defaults), else None: ``to_hand_request`` of its message says why."""
    return read_plain_ids(to_game(plain[0]), plain[1], plain[2])


PlainHand = tuple[int, str, HandRequest, bytes]
"""An EvaluateRequest read in C whose cards pass every check (``read_checked_plain``):
(game number, request_id, the checked hand, the request's bytes, read as its message
should a log need its shape). A plain tuple, the one kind of request that is one, and as
cheap to make as one; its first item is the game, as ``PlainEvaluate``'s is."""


def read_checked_plain(data: bytes) -> PlainHand | None:
    """The serialised EvaluateRequest in ``data`` read in C and checked, None when it is
    not the plainest kind or fails a check (its message, read the long way, says why)."""
    plain = read_plain_evaluate(data)
    if plain is None:
        return None
    hand = plain_hand_request(plain)
    return None if hand is None else (plain[0], plain[3], hand, plain[4])


def _spreads(spreads: Iterable[pb.Spread]) -> list[list[str]]:
    return [list(s.cards) for s in spreads]


def to_hand_request(request: pb.EvaluateRequest) -> HandRequest:
    """One hand, read and checked.

    A valid hand in canonical text is read first (``read_plain_hand``, bounded by the
    game's sizes): it is within every list limit, so only its ``request_id`` is measured.
    A request without ``options`` (most) hands it None, which asks no option refusals.
    """
    game = to_game(request.game)
    options = to_options(request.options) if request.HasField("options") else None
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
    """A showdown, read and checked. A seat's ``unknown`` is refused (only Odds reads
    it), with every other problem of the request."""
    check_showdown(request)
    seats: list[SeatText] = [
        (s.player, list(s.hand), to_core(Declaration, s.declaration)) for s in request.seats
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
            to_core(TonkEnding, request.ending),
            request.ender,
        )
    except InvalidRequest as error:
        raise InvalidRequest([*unknown, *error.violations]) from None
    if unknown:
        raise InvalidRequest(unknown)
    return parsed


def to_odds_request(request: pb.OddsRequest) -> OddsRequest:
    """An Odds request, read and checked."""
    check_odds(request)
    seats: list[OddsSeatText] = [
        (s.player, list(s.hand), s.unknown, to_core(Declaration, s.declaration))
        for s in request.seats
    ]
    return read_odds(
        to_game(request.game),
        seats,
        list(request.table),
        list(request.dead),
        to_options(request.options),
    )
