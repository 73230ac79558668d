"""The unary Evaluate's road through C (``service/wire/_evaluation.c``) held to protobuf
and to the long way: a request read in C says what protobuf reads from the same bytes, and
one it declines is left to protobuf; the reply's head is protobuf's bytes exactly; a hand
answered from its C-read ids gets the long way's reply, byte for byte, or is left to it."""

from __future__ import annotations

import random

import pytest
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.cards import DECK_SIZE, JOKERS, card_text
from evaluators.deal import deal
from evaluators.errors import InvalidRequest
from evaluators.inputs import Game
from evaluators.scoring import evaluate
from evaluators.validation import CANONICAL_IDS, read_hand
from service.server.work import evaluate_reply as _evaluate
from service.wire import _evaluation, replies
from service.wire.enums import game_value
from service.wire.request_limits import MAX_ID_BYTES, MAX_REQUEST_BYTES, RequestTooLarge
from service.wire.requests import PlainEvaluate, read_checked_plain, read_plain_evaluate


def _plain_evaluate(plain: PlainEvaluate) -> bytes | None:
    """The reply to a request read in C, as the server gives it: checked as it is read
    (``read_checked_plain``), then scored from its ids; None where the check leaves it to
    the long way."""
    checked = read_checked_plain(plain[4])
    return None if checked is None else _evaluate(checked)


SPELLINGS = [*CANONICAL_IDS, "ah", "AH", "10h", "T♥", "Zz", "", "A", "Ahh", "X3", "x1", "é"]
"""Card texts a caller may send: every canonical one, and others only the long way reads."""


def random_request(rng: random.Random) -> pb.EvaluateRequest:
    """A request of any shape: mostly plain, sometimes with what only the long way reads."""
    hand_size, table_size = rng.choice([(0, 0), (2, 3), (5, 0), (7, 0), (4, 5), (10, 0), (60, 0)])
    canonical = list(CANONICAL_IDS)

    def cards(count: int) -> list[str]:
        return [rng.choice(canonical) if rng.random() < 0.97 else rng.choice(SPELLINGS)
                for _ in range(count)]  # fmt: skip

    request = pb.EvaluateRequest(
        game=rng.choice([*range(12), 99, 2**31 - 1, -1]),
        hand=cards(hand_size),
        table=cards(table_size),
        request_id=rng.choice(["", "1", "req-ü-7", "x" * MAX_ID_BYTES, "y" * (MAX_ID_BYTES + 1)]),
    )
    if rng.random() < 0.1:
        request.table_spreads.add(cards=cards(3))
    if rng.random() < 0.1:
        request.options.ace_low = True
    return request


def test_the_c_reader_reads_what_protobuf_reads_or_declines() -> None:
    rng = random.Random(24)
    read = 0
    for _ in range(20_000):
        request = random_request(rng)
        data = request.SerializeToString()
        plain = read_plain_evaluate(data)
        if plain is None:
            continue
        read += 1
        assert not request.table_spreads and not request.HasField("options")
        assert plain == (
            request.game,
            tuple(CANONICAL_IDS[text] for text in request.hand),
            tuple(CANONICAL_IDS[text] for text in request.table),
            request.request_id,
            data,
        )
    assert read > 5_000


@pytest.mark.parametrize(
    "data",
    [
        b"\x08",  # a tag and no value
        b"\x12\x05Ah",  # a card running past the end
        b"\x08\x01\x08\x02",  # game twice
        b"\x32\x01a\x32\x01b",  # request_id twice
        b"\x32\x02\xc3\x28",  # request_id not UTF-8
        b"\x08\x80\x80\x80\x80\x10",  # game past int32
        b"\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",  # a negative game
        b"\x38\x01",  # a field the request does not have
        b"\x12\x02Ah" * 65,  # a list longer than the reader holds
        b"\x12\x02ah",  # a card not in canonical text
    ],
)
def test_the_c_reader_declines_what_it_does_not_read_as_protobuf_would(data: bytes) -> None:
    assert read_plain_evaluate(data) is None


def test_the_c_reader_reads_lists_interleaved_and_varints_unshortened() -> None:
    data = b"\x12\x02Ah\x1a\x02Kd\x12\x02Qc" + b"\x88\x00\x85\x80\x00"  # tag 1 as 2 bytes
    message = pb.EvaluateRequest.FromString(data)
    assert read_plain_evaluate(data) == (
        message.game,
        tuple(CANONICAL_IDS[t] for t in message.hand),
        (CANONICAL_IDS["Kd"],),
        "",
        data,
    )


def test_what_the_c_reader_takes_is_within_the_request_byte_limit() -> None:
    """The longest request it accepts (every list full, the longest id) is shorter than
    the limit the long way refuses from its length alone, so it never skips that check."""
    widest = b"\x08\xff\xff\xff\xff\x07" + b"\x12\x02Ah" * 64 + b"\x1a\x02Kd" * 64
    widest += pb.EvaluateRequest(request_id="i" * MAX_ID_BYTES).SerializeToString()
    assert read_plain_evaluate(widest) is not None
    assert len(widest) < MAX_REQUEST_BYTES[pb.EvaluateRequest.DESCRIPTOR.full_name]


@pytest.mark.parametrize("game", list(Game), ids=lambda g: g.value)
def test_the_reply_head_is_protobufs_bytes_for_every_game(game: Game) -> None:
    """Every game's dealt hands: the reply is ``to_evaluation``'s message serialised, byte
    for byte, whatever the game number and request id echoed."""
    dealt = deal(game, 60, seed=3)
    echoes = [(game_value(game), "id-7"), (0, ""), (99, "ü" * 40), (-5, "x"), (2**31 - 1, "")]
    for hand, table in dealt.singles(len(dealt)):
        evaluation = evaluate(read_hand(game, texts(hand), texts(table)))
        for number, request_id in echoes:
            message = replies.to_evaluation(evaluation, pb.Game.ValueType(number), request_id)
            expected = message.SerializeToString()
            assert replies.evaluation_bytes(evaluation, number, request_id) == expected


def test_the_head_writer_refuses_values_the_fields_cannot_hold_and_text_that_is_not_str() -> None:
    with pytest.raises(OverflowError):
        _evaluation.evaluation_head("", 2**31, 1, 0, False, 0, (), (), "")
    with pytest.raises(OverflowError):
        _evaluation.evaluation_head("", 1, 1, 0, False, 2**32, (), (), "")
    with pytest.raises(OverflowError):
        _evaluation.evaluation_head("", 1, -1, 0, False, 0, (), (), "")
    with pytest.raises(TypeError):
        _evaluation.evaluation_head(b"id", 1, 1, 0, False, 0, (), (), "")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        _evaluation.evaluation_head("", 1, 1, 0, False, 0, (1,), (), "")  # type: ignore[arg-type]


def test_a_hand_read_in_c_is_answered_as_the_long_way_answers_it_or_left_to_it() -> None:
    """Random hands of every game, valid and not (repeated cards, jokers, wrong sizes,
    unknown games): the C road's reply is ``_evaluate``'s bytes, and where it gives none,
    the long way refuses the request."""
    rng = random.Random(7)
    answered = 0
    deck = list(range(DECK_SIZE + len(JOKERS)))
    for _ in range(6_000):
        game = rng.choice([*Game, None])
        size = rng.randint(0, 11)
        cards = (
            [rng.choice(deck) for _ in range(size)]
            if rng.random() < 0.2
            else rng.sample(deck, size)
        )
        split = rng.randint(0, size)
        request = pb.EvaluateRequest(
            game=pb.GAME_UNSPECIFIED if game is None else game_value(game),
            hand=texts(tuple(cards[:split])),
            table=texts(tuple(cards[split:])),
            request_id=f"r{answered}",
        )
        plain = read_plain_evaluate(request.SerializeToString())
        assert plain is not None
        reply = _plain_evaluate(plain)
        if reply is None:
            with pytest.raises((InvalidRequest, RequestTooLarge)):
                _evaluate(request)
        else:
            answered += 1
            assert reply == _evaluate(request)
    assert answered > 500


def test_dealt_hands_of_every_game_take_the_c_road_to_the_same_reply() -> None:
    for game in Game:
        dealt = deal(game, 200, seed=11)
        for hand, table in dealt.singles(len(dealt)):
            request = pb.EvaluateRequest(
                game=game_value(game), hand=texts(hand), table=texts(table), request_id="d"
            )
            plain = read_plain_evaluate(request.SerializeToString())
            assert plain is not None
            assert _plain_evaluate(plain) == _evaluate(request)


def texts(cards: tuple[int, ...]) -> list[str]:
    return [card_text(c) for c in cards]
