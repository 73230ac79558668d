"""The typed client reads a column reply in place as protobuf's parser would read it."""

from __future__ import annotations

import numpy as np
import pytest
from google.protobuf.message import DecodeError
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluators.results import BatchResult
from service.client import typed_client
from service.client.typed_client import batch_result, read_batch_reply
from service.gen.handeval.v1 import handeval_pb2 as pb
from service.server import batch_reply


def random_result(size: int, seed: int) -> BatchResult:
    rng = np.random.default_rng(seed)
    return BatchResult(
        strength=rng.integers(0, 2**32, size, dtype=np.uint64),
        low_strength=rng.integers(0, 2**32, size, dtype=np.uint64),
        value=rng.integers(-(2**31), 2**31, size, dtype=np.int64),
        instant_win=rng.random(size) < 0.5,
    )


def protobufs_reading(data: bytes) -> BatchResult:
    return batch_result(pb.EvaluateBatchResponse.FromString(data))


def assert_same(got: BatchResult, want: BatchResult) -> None:
    for name in ("strength", "low_strength", "value", "instant_win"):
        mine, theirs = getattr(got, name), getattr(want, name)
        assert mine.dtype == theirs.dtype, name
        assert np.array_equal(mine, theirs), name


@settings(max_examples=100, deadline=None)
@given(size=st.integers(0, 300), seed=st.integers(0, 2**32 - 1))
def test_a_column_reply_read_in_place_equals_protobufs_reading(size: int, seed: int) -> None:
    data = batch_reply.serialized_columns(random_result(size, seed))
    assert_same(read_batch_reply(data), protobufs_reading(data))


@settings(max_examples=50, deadline=None)
@given(size=st.integers(0, 300), seed=st.integers(0, 2**32 - 1))
def test_a_packed_reply_goes_to_protobufs_parser(size: int, seed: int) -> None:
    data = batch_reply.serialized(random_result(size, seed))
    assert_same(read_batch_reply(data), protobufs_reading(data))


def test_a_repeated_or_unknown_field_is_read_as_protobuf_reads_it() -> None:
    first = batch_reply.serialized_columns(random_result(50, 1))
    second = batch_reply.serialized_columns(random_result(50, 2))
    unknown = bytes([15 << 3 | 0, 7])
    for data in (first + second, first + unknown, unknown + first):
        assert_same(read_batch_reply(data), protobufs_reading(data))


def test_a_column_repeated_inside_the_columns_is_read_as_protobuf_reads_it() -> None:
    reply = pb.EvaluateBatchResponse.FromString(
        batch_reply.serialized_columns(random_result(20, 3))
    )
    column = reply.columns.strength
    data = (
        reply.SerializeToString()
        + pb.EvaluateBatchResponse(
            columns=pb.BatchColumns(strength=column[::-1])
        ).SerializeToString()
    )
    assert_same(read_batch_reply(data), protobufs_reading(data))


def test_truncated_bytes_raise_as_protobufs_parser_does() -> None:
    data = batch_reply.serialized_columns(random_result(100, 4))
    with pytest.raises(DecodeError):
        read_batch_reply(data[:-1])


def test_a_plain_column_reply_is_sliced_where_it_lies() -> None:
    result = random_result(10, 5)
    data = memoryview(batch_reply.serialized_columns(result))
    top = typed_client._only_fields(data, (pb.EvaluateBatchResponse.COLUMNS_FIELD_NUMBER,))
    assert top is not None and top[0].obj is data.obj
    columns = typed_client._only_fields(top[0], (1, 2, 3, 4))
    assert columns is not None
    assert bytes(columns[0]) == result.strength.astype("<u4").tobytes()
    assert bytes(columns[3]) == result.instant_win.astype(np.uint8).tobytes()
