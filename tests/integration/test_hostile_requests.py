"""Hostile requests at a live server cost it a small constant per byte (benchmarks/
hostile_requests.py builds them): each flood just under the receive limit is
RESOURCE_EXHAUSTED, decided from the message's length (unparsed) or its lists' lengths,
for less CPU per byte than a maximal valid batch and a bounded peak of memory. Before the
request limits, the 882,700 empty seats cost 11-15 s of CPU and 1.68 GB; each other flood
1.3-7 s. CPU is read from
/proc (not wall clock), in 10 ms ticks, so each request is sent several times."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb
from handeval_client.gen.handeval.v1 import handeval_pb2_grpc as pb_grpc

from benchmarks.hostile_requests import Cost, attacks, measure, reference_batch
from service.wire.request_limits import MAX_REQUEST_BYTES, MAX_SEATS
from tests.conftest import ServerProcess, start_server

EVALUATE = pb.EvaluateRequest.DESCRIPTOR.full_name
REPEAT = 3
CPU_LIMIT_S = 0.5
"""Per request; measured 0.01-0.04 s (before: 1.5-14 s)."""
PEAK_GROWTH_LIMIT_MIB = 32.0
"""Measured: a few MiB, the request's bytes in grpc's buffers (before: up to 1.68 GB)."""
PER_BYTE_MARGIN = 3.0
"""Measured: the worst flood ~20 ns a byte, the batch ~44 (CPU ticks are coarse)."""


@pytest.fixture(scope="module")
def hostile_server() -> Iterator[ServerProcess]:
    running = start_server()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def batch_cost(hostile_server: ServerProcess) -> Cost:
    return measure(hostile_server.pid, hostile_server.target, "batch", "EvaluateBatch",
                   reference_batch(), REPEAT)  # fmt: skip


@pytest.mark.parametrize("name", list(attacks()))
def test_a_flood_is_refused_cheaply_by_its_lengths(
    hostile_server: ServerProcess, batch_cost: Cost, name: str
) -> None:
    method, build = attacks()[name]
    cost = measure(hostile_server.pid, hostile_server.target, name, method, build(), REPEAT)
    assert cost.code == "RESOURCE_EXHAUSTED"
    assert cost.cpu_s < CPU_LIMIT_S, cost
    assert cost.peak_rss_mib - cost.rss_before_mib < PEAK_GROWTH_LIMIT_MIB, cost
    assert cost.ns_per_byte <= PER_BYTE_MARGIN * batch_cost.ns_per_byte, (cost, batch_cost)
    assert batch_cost.code == "OK"


def test_a_stream_message_over_a_limit_gets_its_error_and_the_stream_goes_on(
    hostile_server: ServerProcess,
) -> None:
    good = pb.EvaluateRequest(game=pb.GAME_POKER_HIGH, hand=["Ah", "Kh", "Qh", "Jh", "Th"])
    flood = pb.EvaluateRequest(game=pb.GAME_POKER_HIGH, hand=[""] * 55, request_id="x")
    huge = pb.EvaluateRequest(game=pb.GAME_POKER_HIGH, hand=[""] * 100_000, request_id="y")
    with grpc.insecure_channel(hostile_server.target) as channel:
        stub = pb_grpc.HandEvaluatorStub(channel)
        replies = list(stub.EvaluateStream(iter([good, flood, huge, good]), timeout=30))
    assert [r.HasField("error") for r in replies] == [False, True, True, False]
    exhausted = grpc.StatusCode.RESOURCE_EXHAUSTED.value[0]
    assert [r.error.code for r in replies[1:3]] == [exhausted, exhausted]
    assert "at most 54 cards" in replies[1].error.message and replies[1].request_id == "x"
    assert f"at most {MAX_REQUEST_BYTES[EVALUATE]:,} bytes" in replies[2].error.message


def test_a_showdown_over_the_seat_limit_names_it(hostile_server: ServerProcess) -> None:
    seats = [pb.Seat(player=str(i), hand=["Ah"]) for i in range(MAX_SEATS + 1)]
    with grpc.insecure_channel(hostile_server.target) as channel:
        stub = pb_grpc.HandEvaluatorStub(channel)
        with pytest.raises(grpc.RpcError) as refused:
            stub.Showdown(pb.ShowdownRequest(game=pb.GAME_TONK, seats=seats), timeout=30)
    assert refused.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
    assert f"at most {MAX_SEATS} seats" in (refused.value.details() or "")
