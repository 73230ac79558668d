"""Request limits (service/wire/request_limits.py): at its limit a list or string passes,
one over is RequestTooLarge naming the field and the limit; and the largest reply a request
within them can get fits the smallest send limit, so no valid call fails to send."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from google.rpc import code_pb2
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.cards import card_text
from evaluators.inputs import Declaration, Game, TonkEnding
from evaluators.registry import GAMES
from evaluators.scoring import evaluate, showdown
from evaluators.validation import SeatText, read_hand, read_showdown
from service.server.errors import Unreadable
from service.server.limits import message_limits
from service.server.readers import message_reader as _reader
from service.wire import enums, replies
from service.wire.request_limits import (
    MAX_CARD_CHARS,
    MAX_CARDS,
    MAX_ID_BYTES,
    MAX_REQUEST_BYTES,
    MAX_SEATS,
    MAX_SPREADS,
    RequestTooLarge,
    _largest_showdown,
    check_evaluate,
    check_showdown,
)

SMALLEST_SEND = min(message_limits(1).send, 64 * 1024)
"""The least a server may send: one-hand batches, or the smallest ``--max-message-bytes``."""
WIDE_ID = "\U0001d538" * (MAX_ID_BYTES // 4)
"""An id at the byte limit in 4-byte characters."""
DECK = [card_text(c) for c in range(52)]


def _evaluate(
    n: int = 0, chars: int = 2, spreads: int = 0, id_bytes: int = 0
) -> pb.EvaluateRequest:
    return pb.EvaluateRequest(
        hand=["A" * chars] * max(n, 1),
        table=["K" * chars] * n,
        table_spreads=[pb.Spread(cards=["Q" * chars] * n)] * spreads,
        request_id="r" * id_bytes,
    )


def _showdown(seats: int = 2, cards: int = 1, player_bytes: int = 1) -> pb.ShowdownRequest:
    return pb.ShowdownRequest(
        seats=[
            pb.Seat(player=f"{i:0{player_bytes}d}"[-player_bytes:], hand=["Ah"] * cards)
            for i in range(seats)
        ],
        ender="e" * min(player_bytes, MAX_ID_BYTES),
    )


AT_LIMIT: list[Callable[[], None]] = [
    lambda: check_evaluate(
        _evaluate(n=MAX_CARDS, chars=MAX_CARD_CHARS, spreads=MAX_SPREADS, id_bytes=MAX_ID_BYTES)
    ),
    lambda: check_showdown(_showdown(seats=MAX_SEATS, cards=MAX_CARDS, player_bytes=MAX_ID_BYTES)),
    lambda: check_showdown(pb.ShowdownRequest(seats=[pb.Seat(player=WIDE_ID)])),
]
OVER_LIMIT: list[tuple[str, Callable[[], None], str]] = [
    ("hand", lambda: check_evaluate(_evaluate(n=MAX_CARDS + 1)), f"{MAX_CARDS} cards"),
    ("hand[0]", lambda: check_evaluate(_evaluate(chars=MAX_CARD_CHARS + 1)),
     f"{MAX_CARD_CHARS} characters"),
    ("table_spreads", lambda: check_evaluate(_evaluate(spreads=MAX_SPREADS + 1)),
     f"{MAX_SPREADS} spreads"),
    ("request_id", lambda: check_evaluate(_evaluate(id_bytes=MAX_ID_BYTES + 1)),
     f"{MAX_ID_BYTES} bytes"),
    ("seats", lambda: check_showdown(_showdown(seats=MAX_SEATS + 1)), f"{MAX_SEATS} seats"),
    ("seats[0].hand", lambda: check_showdown(_showdown(cards=MAX_CARDS + 1)), f"{MAX_CARDS} cards"),
    ("seats[0].player", lambda: check_showdown(_showdown(player_bytes=MAX_ID_BYTES + 1)),
     f"{MAX_ID_BYTES} bytes"),
    ("seats[0].player", lambda: check_showdown(
        pb.ShowdownRequest(seats=[pb.Seat(player=WIDE_ID + "é")])), f"{MAX_ID_BYTES} bytes"),
    ("ender", lambda: check_showdown(pb.ShowdownRequest(ender="e" * 850_000)),
     f"{MAX_ID_BYTES} bytes"),
    ("table", lambda: check_showdown(pb.ShowdownRequest(table=[""] * 882_700)),
     f"{MAX_CARDS} cards"),
    ("table_spreads[0].cards", lambda: check_showdown(
        pb.ShowdownRequest(table_spreads=[pb.Spread(cards=["Ah"] * 55)])), f"{MAX_CARDS} cards"),
]  # fmt: skip


@pytest.mark.parametrize("check", AT_LIMIT)
def test_every_list_and_string_at_its_limit_passes(check: Callable[[], None]) -> None:
    check()


@pytest.mark.parametrize(("field", "check", "limit"), OVER_LIMIT)
def test_one_over_a_limit_is_refused_naming_the_field_and_the_limit(
    field: str, check: Callable[[], None], limit: str
) -> None:
    with pytest.raises(RequestTooLarge) as refused:
        check()
    assert str(refused.value).startswith(f"{field} has ")
    assert str(refused.value).endswith(f"at most {limit}")


def test_the_limits_leave_room_for_every_valid_request() -> None:
    assert max(max(r.hand_max, r.table_max) for r in GAMES.values()) < MAX_CARDS
    assert MAX_SPREADS > 52 // 3 and len("10♠") < MAX_CARD_CHARS


def _player(index: int) -> str:
    return WIDE_ID[:-1] + chr(0x4E00 + index)


def _reply_bytes(
    game: Game,
    hands: list[list[str]],
    table: tuple[str, ...] = (),
    ending: TonkEnding | None = None,
    ender: int | None = None,
) -> int:
    declaration = Declaration.BOTH if game is Game.FLOP_A else None
    seats: list[SeatText] = [(_player(i), hand, declaration) for i, hand in enumerate(hands)]
    ender_id = "" if ender is None else _player(ender)
    request = read_showdown(game, seats, table, (), None, ending, ender_id)
    reply = replies.to_showdown_response(showdown(request), enums.game_value(game), WIDE_ID)
    size: int = reply.ByteSize()
    return size


def _singles(count: int) -> list[list[str]]:
    return [[card] for card in DECK[:count]]


WORST_SHOWDOWNS: dict[str, Callable[[], int]] = {
    "tonk drop, 52 seats": lambda: _reply_bytes(Game.TONK, _singles(52), (), TonkEnding.DROP, 51),
    "tonk stock out": lambda: _reply_bytes(Game.TONK, _singles(52), (), TonkEnding.STOCK_OUT),
    "tonk out, an empty ender": lambda: _reply_bytes(
        Game.TONK, [*_singles(51), []], (), TonkEnding.OUT, 51),
    "numbers, 52 seats": lambda: _reply_bytes(Game.NUMBERS, _singles(52)),
    "flop-a, all declaring both": lambda: _reply_bytes(Game.FLOP_A, _singles(52)),
    "three thirty three": lambda: _reply_bytes(Game.THREE_THIRTY_THREE, _singles(52)),
    "poker high, the board plays for 47": lambda: _reply_bytes(
        Game.POKER_HIGH, _singles(47), tuple(DECK[47:52])),
    "high card, 9 seats": lambda: _reply_bytes(
        Game.HIGH_CARD, [DECK[i * 5:i * 5 + 5] for i in range(9)], tuple(DECK[45:50])),
    "dots, 7 seats": lambda: _reply_bytes(
        Game.GROCERY_STORE_DOTS, [DECK[i * 7:i * 7 + 7] for i in range(7)]),
}  # fmt: skip


@pytest.mark.parametrize("case", WORST_SHOWDOWNS)
def test_the_largest_showdown_reply_fits_the_smallest_send_limit(case: str) -> None:
    assert WORST_SHOWDOWNS[case]() < SMALLEST_SEND // 2


def test_the_largest_evaluate_reply_fits_the_smallest_send_limit() -> None:
    hand = read_hand(Game.TONK, DECK[:10])
    reply = replies.to_evaluation(evaluate(hand), pb.GAME_TONK, WIDE_ID)
    assert reply.ByteSize() < SMALLEST_SEND // 16


@pytest.mark.parametrize("message", [pb.EvaluateRequest, pb.ShowdownRequest])
def test_a_request_longer_than_any_within_the_limits_is_refused_unparsed(message: type) -> None:
    name = message.DESCRIPTOR.full_name
    read = _reader(message)
    assert isinstance(read(b""), message)
    refused = read(bytes(MAX_REQUEST_BYTES[name] + 1))
    assert isinstance(refused, Unreadable) and refused.too_long
    assert refused.status().code == code_pb2.RESOURCE_EXHAUSTED
    assert f"at most {MAX_REQUEST_BYTES[name]:,} bytes" in refused.status().message


def test_the_largest_request_within_the_limits_is_read() -> None:
    widest = _largest_showdown()
    check_showdown(widest)
    data = widest.SerializeToString()
    assert len(data) <= MAX_REQUEST_BYTES[widest.DESCRIPTOR.full_name]
    assert _reader(pb.ShowdownRequest)(data) == widest
