"""Per-process limits as numbers: message sizes tied to the batch limit, both ways, and the
pool's default slots (each against a real server: tests/test_limits.py)."""

from __future__ import annotations

from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from service.server.limits import (
    MAX_HAND_BYTES,
    MAX_TABLE_BYTES,
    REPLY_BYTES_PER_HAND,
    SLACK_BYTES,
    message_limits,
    pool_slots,
)


def test_message_limits_fit_the_largest_batch_and_its_reply() -> None:
    limits = message_limits(100_000)
    assert limits.receive == 100_001 * (MAX_HAND_BYTES + MAX_TABLE_BYTES) + SLACK_BYTES
    assert limits.send == 100_001 * REPLY_BYTES_PER_HAND + SLACK_BYTES
    largest = pb.EvaluateBatchRequest(
        game=pb.GAME_TONK, hands=bytes(100_000 * MAX_HAND_BYTES), hand_size=MAX_HAND_BYTES,
        tables=bytes(100_000 * MAX_TABLE_BYTES), table_size=MAX_TABLE_BYTES,
    )  # fmt: skip
    worst_reply = pb.EvaluateBatchResponse(
        strength=[2**64 - 1] * 100_000, low_strength=[2**64 - 1] * 100_000,
        value=[-1] * 100_000, instant_win=[True] * 100_000,
    )  # fmt: skip
    assert largest.ByteSize() < limits.receive
    assert worst_reply.ByteSize() < limits.send


def test_an_explicit_message_limit_sets_both_ways() -> None:
    assert message_limits(100_000, 8 << 20) == (message_limits(1, 8 << 20))
    assert message_limits(5, 8 << 20).receive == message_limits(5, 8 << 20).send == 8 << 20


def test_the_default_pool_slots_leave_a_quarter_of_the_threads_spare() -> None:
    assert pool_slots(0, 32) == 24
    assert pool_slots(0, 1) == 1
    assert pool_slots(5, 32) == 5
