"""Size limits on every list and string of an Evaluate, Showdown or Odds request (docs/api.md: "any
list longer than the server's limit" is RESOURCE_EXHAUSTED, naming the limit).

Checked on the protobuf message before any card is read: a list's length costs nothing
to read, and its strings are measured only once it is known to be short, so a refused
request costs a small constant per byte received, and one that passes has at most a few
thousand elements for the rules to check (each problem of each element would otherwise
become a stored violation). Every limit is what one deck allows, so no valid request
comes near it:

- ``MAX_SEATS`` 54: every seat holds a card (a Tonk ender at most one empty seat), and
  the deck has 52 cards plus 2 jokers.
- ``MAX_CARDS`` 54: any one list of cards (a hand, the table, a spread, Odds' ``dead``),
  the whole deck.
- ``MAX_SPREADS`` 18: a spread takes at least 3 cards, so 52 cards make at most 17.
- ``MAX_CARD_CHARS`` 8: the longest card text is 3 characters (``10♠``); up to 8, a typo
  is still answered INVALID_ARGUMENT saying what a card is.
- ``MAX_ID_BYTES`` 128 (UTF-8): a player id, ``ender`` and ``request_id``; a UUID takes 36.
  Bytes, not characters, because they bound the reply (ids are echoed in results, awards,
  payouts and the explanation): with these limits the largest Showdown reply is a few
  tens of KB, within the smallest send limit
  (``tests/unit/service/wire/test_request_limits.py``).

Before even that, ``MAX_REQUEST_BYTES``: a request within every limit, each string in
4-byte characters, serialises to at most this many bytes (about 150 KB for a Showdown),
so a longer one is refused from its length alone, before it is parsed (882,700 empty
seats parsed would take some 50 MB).
"""

from __future__ import annotations

from collections.abc import Sequence

from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.cards import DECK_SIZE, JOKERS

DECK_CARDS = DECK_SIZE + len(JOKERS)
MAX_SEATS = DECK_CARDS
MAX_CARDS = DECK_CARDS
MAX_SPREADS = 18
MAX_CARD_CHARS = 8
MAX_ID_BYTES = 128


_WIDE = "\U0010ffff"
"""A character of 4 UTF-8 bytes: the widest a limited string can be."""
_SLACK_BYTES = 1024
"""For the scalars (enums, counts) at their widest varints, and framing."""


def _largest_evaluate() -> pb.EvaluateRequest:
    cards = [_WIDE * MAX_CARD_CHARS] * MAX_CARDS
    return pb.EvaluateRequest(
        hand=cards,
        table=cards,
        table_spreads=[pb.Spread(cards=cards)] * MAX_SPREADS,
        request_id=_WIDE * (MAX_ID_BYTES // 4),
    )


def _largest_showdown() -> pb.ShowdownRequest:
    widest = _largest_evaluate()
    player = widest.request_id
    return pb.ShowdownRequest(
        seats=[pb.Seat(player=player, hand=widest.hand)] * MAX_SEATS,
        table=widest.table,
        table_spreads=widest.table_spreads,
        ender=player,
        request_id=player,
    )


def _largest_odds() -> pb.OddsRequest:
    widest = _largest_showdown()
    return pb.OddsRequest(
        seats=widest.seats, table=widest.table, dead=widest.table, request_id=widest.request_id
    )


MAX_REQUEST_BYTES: dict[str, int] = {
    message.DESCRIPTOR.full_name: message.ByteSize() + _SLACK_BYTES
    for message in (_largest_evaluate(), _largest_showdown(), _largest_odds())
}
"""Request type (full name) -> the most bytes a request within the limits can take."""


class RequestTooLarge(Exception):
    """A list or string over its limit; the message names the field and the limit."""

    def __init__(self, field: str, size: int, unit: str, limit: str) -> None:
        super().__init__(f"{field} has {size:,} {unit}; the server takes at most {limit}")


def too_many_bytes(type_name: str, size: int, limit: int) -> str:
    """Why a request of ``size`` bytes is refused unparsed, naming the limit."""
    return (
        f"the {type_name} has {size:,} bytes; within the request limits (at most "
        f"{MAX_SEATS} seats, {MAX_CARDS} cards a list, {MAX_SPREADS} spreads) it takes at "
        f"most {limit:,} bytes"
    )


def _count(field: str, size: int, limit: int, unit: str, limit_unit: str = "") -> None:
    if size > limit:
        raise RequestTooLarge(field, size, unit, f"{limit} {limit_unit or unit}")


def _cards(field: str, cards: Sequence[str]) -> None:
    """One pass over the lengths; the field path is formatted only for a text over it."""
    _count(field, len(cards), MAX_CARDS, "cards")
    if cards and max(map(len, cards)) > MAX_CARD_CHARS:
        index = next(i for i, text in enumerate(cards) if len(text) > MAX_CARD_CHARS)
        _count(f"{field}[{index}]", len(cards[index]), MAX_CARD_CHARS, "characters")


def _spreads(spreads: Sequence[pb.Spread]) -> None:
    _count("table_spreads", len(spreads), MAX_SPREADS, "spreads")
    for index, spread in enumerate(spreads):
        _cards(f"table_spreads[{index}].cards", spread.cards)


def _id(field: str, text: str) -> None:
    """Nothing to check for a text too short to exceed the limit (a character takes at
    most 4 bytes: every id a caller sends). Else characters first (free: a longer text has
    more bytes), so a huge id is never encoded; then its UTF-8 bytes."""
    if len(text) * 4 <= MAX_ID_BYTES:
        return
    _count(field, len(text), MAX_ID_BYTES, "characters", "bytes")
    _count(field, len(text.encode()), MAX_ID_BYTES, "bytes")


def check_request_id(request_id: str) -> None:
    """Raise RequestTooLarge if ``request_id`` is over its limit."""
    _id("request_id", request_id)


def check_evaluate(request: pb.EvaluateRequest) -> None:
    """Raise RequestTooLarge if any list or string of ``request`` is over its limit."""
    check_request_id(request.request_id)
    _cards("hand", request.hand)
    _cards("table", request.table)
    _spreads(request.table_spreads)


def check_showdown(request: pb.ShowdownRequest) -> None:
    """Raise RequestTooLarge if any list or string of ``request`` is over its limit."""
    _count("seats", len(request.seats), MAX_SEATS, "seats")
    _id("ender", request.ender)
    _id("request_id", request.request_id)
    for index, seat in enumerate(request.seats):
        _id(f"seats[{index}].player", seat.player)
        _cards(f"seats[{index}].hand", seat.hand)
    _cards("table", request.table)
    _spreads(request.table_spreads)


def check_odds(request: pb.OddsRequest) -> None:
    """Raise RequestTooLarge if any list or string of ``request`` is over its limit."""
    _count("seats", len(request.seats), MAX_SEATS, "seats")
    _id("request_id", request.request_id)
    for index, seat in enumerate(request.seats):
        _id(f"seats[{index}].player", seat.player)
        _cards(f"seats[{index}].hand", seat.hand)
    _cards("table", request.table)
    _cards("dead", request.dead)
