"""The hand-written EvaluateBatchResponse bytes are exactly protobuf's own serialisation,
and a reply read in place reads as protobuf's parser reads it."""

from __future__ import annotations

import numpy as np
import pytest
from google.protobuf.message import DecodeError
from handeval_client import batch as client_batch
from handeval_client.batch import batch_result, read_batch_reply
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluators.results import BatchResult
from service.wire import batch_reply

U64 = st.integers(0, 2**64 - 1)
I64 = st.integers(-(2**63), 2**63 - 1)
SMALL = st.integers(0, 8000)


def result_of(
    strength: list[int], low: list[int], value: list[int], win: list[bool]
) -> BatchResult:
    return BatchResult(
        strength=np.array(strength, dtype=np.uint64),
        low_strength=np.array(low, dtype=np.uint64),
        value=np.array(value, dtype=np.int64),
        instant_win=np.array(win, dtype=np.bool_),
    )


def protobufs_bytes(result: BatchResult) -> bytes:
    return pb.EvaluateBatchResponse(
        strength=result.strength.tolist(),
        low_strength=result.low_strength.tolist(),
        value=result.value.tolist(),
        instant_win=result.instant_win.tolist(),
    ).SerializeToString()


@settings(max_examples=200, deadline=None)
@given(
    size=st.integers(0, 40),
    data=st.data(),
)
def test_hand_written_bytes_equal_protobufs_serialisation(size: int, data: st.DataObject) -> None:
    numbers = data.draw(st.sampled_from([U64, SMALL]))
    result = result_of(
        data.draw(st.lists(numbers, min_size=size, max_size=size)),
        data.draw(st.lists(numbers, min_size=size, max_size=size)),
        data.draw(
            st.lists(
                I64 if numbers is U64 else st.integers(-8000, 8000), min_size=size, max_size=size
            )
        ),
        data.draw(st.lists(st.booleans(), min_size=size, max_size=size)),
    )
    assert batch_reply.serialized(result) == protobufs_bytes(result)


def test_every_varint_length_from_one_to_ten_bytes_matches_protobuf() -> None:
    edges = sorted({0, 2**64 - 1} | {(1 << (7 * k)) + d for k in range(1, 10) for d in (-1, 0)})
    signed = [e - 2**63 for e in edges]
    result = result_of(edges, edges[::-1], signed, [True] * len(edges))
    assert batch_reply.serialized(result) == protobufs_bytes(result)


def test_the_bytes_read_back_as_the_same_numbers() -> None:
    rng = np.random.default_rng(5)
    result = BatchResult(
        strength=rng.integers(1, 7463, 1000, dtype=np.uint64),
        low_strength=np.zeros(1000, dtype=np.uint64),
        value=rng.integers(-50, 7463, 1000, dtype=np.int64),
        instant_win=rng.random(1000) < 0.1,
    )
    reply = pb.EvaluateBatchResponse.FromString(batch_reply.serialized(result))
    assert list(reply.strength) == result.strength.tolist()
    assert list(reply.low_strength) == [0] * 1000
    assert list(reply.value) == result.value.tolist()
    assert list(reply.instant_win) == result.instant_win.tolist()


def test_an_empty_batch_is_an_empty_message() -> None:
    assert batch_reply.serialized(result_of([], [], [], [])) == b""


def protobufs_columns(result: BatchResult) -> bytes:
    return pb.EvaluateBatchResponse(
        columns=pb.BatchColumns(
            strength=result.strength.astype("<u4").tobytes(),
            low_strength=result.low_strength.astype("<u4").tobytes(),
            value=result.value.astype("<i4").tobytes(),
            instant_win=result.instant_win.astype(np.uint8).tobytes(),
        )
    ).SerializeToString()


@settings(max_examples=200, deadline=None)
@given(size=st.integers(0, 40), data=st.data())
def test_hand_written_columns_equal_protobufs_serialisation(size: int, data: st.DataObject) -> None:
    def column(numbers: st.SearchStrategy[int]) -> list[int]:
        return data.draw(st.lists(numbers, min_size=size, max_size=size))

    u32, i32 = st.integers(0, 2**32 - 1), st.integers(-(2**31), 2**31 - 1)
    win = data.draw(st.lists(st.booleans(), min_size=size, max_size=size))
    result = result_of(column(u32), column(u32), column(i32), win)
    assert batch_reply.serialized_columns(result) == protobufs_columns(result)


def test_columns_of_a_large_batch_read_back_with_frombuffer() -> None:
    rng = np.random.default_rng(16)
    count = 100_003
    result = BatchResult(
        strength=rng.integers(0, 2**32, count, dtype=np.uint64),
        low_strength=rng.integers(0, 257, count, dtype=np.uint64),
        value=rng.integers(-(2**31), 2**31, count, dtype=np.int64),
        instant_win=rng.random(count) < 0.1,
    )
    columns = pb.EvaluateBatchResponse.FromString(batch_reply.serialized_columns(result)).columns
    assert np.array_equal(np.frombuffer(columns.strength, "<u4"), result.strength)
    assert np.array_equal(np.frombuffer(columns.low_strength, "<u4"), result.low_strength)
    assert np.array_equal(np.frombuffer(columns.value, "<i4"), result.value)
    assert np.array_equal(np.frombuffer(columns.instant_win, np.uint8), result.instant_win)


@pytest.mark.parametrize(
    ("strength", "value"), [(2**32, 0), (0, 2**31), (0, -(2**31) - 1)], ids=str
)
def test_a_figure_outside_its_column_is_refused_not_truncated(strength: int, value: int) -> None:
    result = result_of([1, strength], [0, 0], [0, value], [False, False])
    with pytest.raises(batch_reply.ColumnOverflow):
        batch_reply.serialized_columns(result)


@pytest.mark.parametrize(
    "kinds",
    [
        ("u1", "u1", "i1", "?"),
        ("u2", "u1", "i2", "?"),
        ("u4", "u4", "i4", "u1"),
        ("u8", "u8", "i8", "?"),
        ("i8", "i4", "u2", "u1"),
        ("u2", "i2", "u4", "?"),
    ],
    ids="-".join,
)
def test_columns_of_every_integer_width_equal_protobufs_serialisation(
    kinds: tuple[str, str, str, str],
) -> None:
    # The games' arrays come in many widths; each is cast as it is written, strided or not.
    rng = np.random.default_rng(len("".join(kinds)))
    count = 1_001
    strength, low, value, win = (
        rng.integers(0, 2, count * 2).astype(kind)
        if kind in ("?", "u1") and position == 3
        else rng.integers(
            max(np.iinfo(np.dtype(kind)).min, -(2**31) if position == 2 else 0),
            min(np.iinfo(np.dtype(kind)).max, 2**31 - 1 if position == 2 else 2**32 - 1),
            count * 2,
            endpoint=True,
        ).astype(kind)
        for position, kind in enumerate(kinds)
    )
    result = BatchResult(strength=strength[::2], low_strength=low[:count], value=value[1::2],
                         instant_win=win[:count])  # fmt: skip
    assert batch_reply.serialized_columns(result) == protobufs_columns(result)


def test_an_empty_batch_in_columns_is_an_empty_columns_message() -> None:
    empty = result_of([], [], [], [])
    assert batch_reply.serialized_columns(empty) == protobufs_columns(empty) == b"\x2a\x00"


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


@pytest.mark.parametrize("size", [1, 2, 9, 31, 32, 33, 4095, 4096, 100_000])
def test_every_column_reply_the_writer_writes_is_sliced_where_it_lies(size: int) -> None:
    """Sizes around the varint boundaries of the columns' lengths (4 x 32 = 128 bytes,
    4 x 4096 = 16 KiB), so the reader finds the hand count from the length alone."""
    result = random_result(size, 5)
    data = batch_reply.serialized_columns(result)
    columns = client_batch._columns_in_place(data)
    assert columns is not None and all(column.obj is data for column in columns)
    for column, figure, dtype in zip(
        columns, batch_reply.FIGURES, ("<u4", "<u4", "<i4", "u1"), strict=True
    ):
        assert bytes(column) == getattr(result, figure).astype(dtype).tobytes()


def test_the_columns_frame_is_what_the_compiled_writer_writes() -> None:
    """``columns_frame`` is the one statement of the layout the reader expects; the C
    writer's literals must agree with it (and protobuf with both, above)."""
    for size in (1, 32, 4096):
        data = batch_reply.serialized_columns(random_result(size, 6))
        head, columns = client_batch.columns_frame(size)
        assert data.startswith(head)
        at = len(head)
        for column_head, length in columns:
            assert data[at : at + len(column_head)] == column_head
            at += len(column_head) + length
        assert at == len(data)


def test_bytes_that_only_look_like_a_column_reply_go_to_protobuf() -> None:
    """A reply of the right length whose columns come in another order is no reply the
    writer wrote: protobuf's parser reads it."""
    data = batch_reply.serialized_columns(random_result(7, 8))
    head, columns = client_batch.columns_frame(7)
    segments, at = [], len(head)
    for column_head, length in columns:
        segments.append(data[at : at + len(column_head) + length])
        at += len(column_head) + length
    reordered = head + segments[1] + segments[0] + b"".join(segments[2:])
    assert len(reordered) == len(data)
    assert client_batch._columns_in_place(reordered) is None
    assert_same(read_batch_reply(reordered), protobufs_reading(reordered))


def test_a_column_reply_is_read_as_views_of_its_own_bytes_in_wire_types() -> None:
    data = batch_reply.serialized_columns(random_result(50, 7))
    read = read_batch_reply(data)
    assert [getattr(read, f).dtype for f in batch_reply.FIGURES] == [
        np.dtype("<u4"), np.dtype("<u4"), np.dtype("<i4"), np.dtype(np.bool_)
    ]  # fmt: skip
    for figure in batch_reply.FIGURES:
        array = getattr(read, figure)
        assert not array.flags.writeable and np.shares_memory(array, np.frombuffer(data, np.uint8))


def test_an_instant_win_byte_past_one_reads_as_true_like_protobufs_bool() -> None:
    one = result_of([5], [0], [1], [False])
    data = bytearray(batch_reply.serialized_columns(one))
    data[-1] = 2
    mine, theirs = read_batch_reply(bytes(data)), protobufs_reading(bytes(data))
    assert mine.instant_win.tolist() == [True] == theirs.instant_win.tolist()
