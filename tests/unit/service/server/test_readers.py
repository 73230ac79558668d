"""How request bytes become what an RPC reads (``service.server.readers``): the plainest
Evaluate read in C and checked, any other as its message, a batch with its hands beside
its message, and bytes that are no request ``Unreadable``."""

from __future__ import annotations

from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from service.server.errors import Unreadable
from service.server.readers import message_reader, reader
from service.wire.batch_request import BatchCall
from service.wire.requests import to_hand_request

PLAIN = pb.EvaluateRequest(
    game=pb.GAME_POKER_HIGH, hand=["Ah", "Kh", "Qh", "Jh", "Th"], request_id="r1"
)


def test_the_plainest_evaluate_is_read_in_c_with_its_hand_checked() -> None:
    read = reader(pb.EvaluateRequest)(PLAIN.SerializeToString())
    assert isinstance(read, tuple)
    game, request_id, hand, data = read
    assert (game, request_id) == (pb.GAME_POKER_HIGH, "r1")
    assert hand == to_hand_request(PLAIN)
    assert pb.EvaluateRequest.FromString(data) == PLAIN


def test_an_evaluate_that_fails_a_check_or_is_not_plain_is_read_as_its_message() -> None:
    repeated = pb.EvaluateRequest(game=pb.GAME_POKER_HIGH, hand=["Ah", "Ah"])
    spelled = pb.EvaluateRequest(game=pb.GAME_POKER_HIGH, hand=["ah", "Kh"])
    for request in (repeated, spelled):
        assert reader(pb.EvaluateRequest)(request.SerializeToString()) == request


def test_a_batch_is_read_with_its_hands_and_tables_beside_its_message() -> None:
    request = pb.EvaluateBatchRequest(game=pb.GAME_POKER_HIGH, hands=bytes(range(7)), hand_size=7)
    read = reader(pb.EvaluateBatchRequest)(request.SerializeToString())
    assert isinstance(read, BatchCall)
    assert bytes(read.hands) == bytes(range(7)) and read.message.game == pb.GAME_POKER_HIGH


def test_bytes_that_are_no_request_are_unreadable_never_an_exception() -> None:
    for message_type in (pb.EvaluateRequest, pb.ShowdownRequest, pb.EvaluateBatchRequest):
        read = reader(message_type)(b"\xff\xff\xff")
        assert isinstance(read, Unreadable) and not read.too_long


def test_the_message_reader_reads_even_the_plainest_evaluate_as_its_message() -> None:
    assert message_reader(pb.EvaluateRequest)(PLAIN.SerializeToString()) == PLAIN
