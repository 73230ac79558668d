"""What h2load sends for the unary benchmark: each body one framed gRPC message."""

from __future__ import annotations

from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from benchmarks import unary_h2load


def test_h2load_bodies_are_one_framed_message_each() -> None:
    body = unary_h2load.evaluate_body()
    assert body[0] == 0 and int.from_bytes(body[1:5], "big") == len(body) - 5
    assert list(pb.EvaluateRequest.FromString(body[5:]).hand) == list(unary_h2load.SEVEN_CARDS)
    assert unary_h2load.check_body() == b"\x00\x00\x00\x00\x00"
