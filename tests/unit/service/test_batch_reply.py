"""The hand-written EvaluateBatchResponse bytes are exactly protobuf's own serialisation."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluators.results import BatchResult
from service.gen.handeval.v1 import handeval_pb2 as pb
from service.server import batch_reply

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
