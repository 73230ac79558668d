"""``batch_request.read_batch_call`` reads a batch request exactly as protobuf does: the
same message, hands and tables for any bytes protobuf reads, and a refusal wherever
protobuf refuses (held to ``EvaluateBatchRequest.FromString`` on every input)."""

from __future__ import annotations

import numpy as np
import pytest
from google.protobuf.message import DecodeError
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from service.wire.batch_request import WALK_FROM_BYTES, BatchCall, read_batch_call

LARGE = WALK_FROM_BYTES + 7


def protobufs_reading(data: bytes) -> BatchCall | None:
    """What protobuf makes of ``data`` in the same terms, None when it refuses it."""
    try:
        message = pb.EvaluateBatchRequest.FromString(data)
    except DecodeError:
        return None
    hands, tables = message.hands, message.tables
    message.ClearField("hands")
    message.ClearField("tables")
    return BatchCall(message, hands, tables)


def ours(data: bytes) -> BatchCall | None:
    try:
        call = read_batch_call(data)
    except DecodeError:
        return None
    message = pb.EvaluateBatchRequest()
    message.CopyFrom(call.message)
    message.ClearField("hands")
    message.ClearField("tables")
    return BatchCall(message, bytes(call.hands), bytes(call.tables))


def assert_read_as_protobuf_reads(data: bytes) -> None:
    assert ours(data) == protobufs_reading(data)


def request(rng: np.random.Generator, hand_bytes: int) -> pb.EvaluateBatchRequest:
    return pb.EvaluateBatchRequest(
        game=pb.Game.ValueType(int(rng.integers(0, 11))),
        hands=rng.integers(0, 256, hand_bytes, dtype=np.uint8).tobytes(),
        hand_size=int(rng.integers(0, 70)),
        tables=rng.integers(0, 256, int(rng.integers(0, 3000)), dtype=np.uint8).tobytes(),
        table_size=int(rng.integers(0, 1 << 32)),
        options=pb.Options(ace_low=bool(rng.integers(0, 2)), texas=bool(rng.integers(0, 2))),
        columns=bool(rng.integers(0, 2)),
    )


@pytest.mark.parametrize("hand_bytes", [0, 100, LARGE, 700_000])
def test_a_request_reads_as_protobuf_reads_it(hand_bytes: int) -> None:
    rng = np.random.default_rng(hand_bytes)
    for _ in range(20):
        assert_read_as_protobuf_reads(request(rng, hand_bytes).SerializeToString())


def test_a_large_requests_hands_and_tables_are_views_of_its_bytes() -> None:
    data = request(np.random.default_rng(1), LARGE).SerializeToString()
    call = read_batch_call(data)
    assert isinstance(call.hands, memoryview) and isinstance(call.tables, memoryview)
    assert call.hands.obj is data


def test_fields_sent_twice_or_in_any_order_read_as_protobuf_reads_them() -> None:
    # The last hands and tables win, the options merge, unknown fields are kept.
    rng = np.random.default_rng(2)
    first = request(rng, LARGE).SerializeToString()
    second = request(rng, 50).SerializeToString()
    unknown = bytes([15 << 3 | 0, 42, 16 << 3 | 2, 3]) + b"abc" + bytes([17 << 3 | 5]) + b"1234"
    for data in (first + second, second + first, unknown + first, first + unknown + second):
        assert_read_as_protobuf_reads(data)
    hands_as_varint = bytes([2 << 3 | 0, 7])
    assert_read_as_protobuf_reads(first + hands_as_varint)


def test_cut_or_spoiled_bytes_are_refused_exactly_where_protobuf_refuses_them() -> None:
    rng = np.random.default_rng(3)
    data = request(rng, LARGE).SerializeToString()
    for cut in [*range(0, 12), *rng.integers(0, len(data), 40), len(data) - 1]:
        assert_read_as_protobuf_reads(data[: int(cut)])
        padded = data[: int(cut)] + bytes(LARGE)
        assert_read_as_protobuf_reads(padded)
    for _ in range(200):
        spoiled = bytearray(data)
        for place in rng.integers(0, 40, int(rng.integers(1, 4))):
            spoiled[int(place)] = int(rng.integers(0, 256))
        assert_read_as_protobuf_reads(bytes(spoiled))
    groups_and_bad_tags = [bytes([3 << 3 | 3, 3 << 3 | 4]), bytes([0, 0]), b"\xff" * 11]
    for extra in groups_and_bad_tags:
        assert_read_as_protobuf_reads(data + extra)
        assert_read_as_protobuf_reads(extra + data)
