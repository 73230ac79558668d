"""The Odds lane's width holds across worker processes: a real server with ``--workers 2
--odds-threads 1`` and Odds calls on connections of their own (so on both workers) runs
their run-outs one at a time, seen in the ``handeval.odds.runouts`` spans each worker
exports (``tests.integration.test_tracing``'s receiver; ``process.pid`` tells the workers
apart), and answers every one."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest
from handeval_client import odds_request
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb
from handeval_client.gen.handeval.v1 import handeval_pb2_grpc as pb_grpc
from opentelemetry.proto.trace.v1.trace_pb2 import Span

from benchmarks.otlp_receiver import Receiver, receiving
from tests.conftest import ServerProcess

CALLS = 16
"""Odds calls, each on its own connection: all on one worker by chance once in 2^15."""
ODDS = odds_request("poker", [(f"p{i}", "?2") for i in range(9)], samples=200_000)
RUNOUTS = "handeval.odds.runouts"


@pytest.fixture
def receiver() -> Iterator[tuple[Receiver, int]]:
    with receiving() as running:
        yield running


def odds_on_a_connection_of_its_own(target: str) -> pb.OddsResponse:
    """One Odds call on a new connection (channels share grpc's global subchannels)."""
    with grpc.insecure_channel(target, [("grpc.use_local_subchannel_pool", 1)]) as channel:
        reply: pb.OddsResponse = pb_grpc.HandEvaluatorStub(channel).Odds(ODDS, timeout=120)
        return reply


def most_at_once(spans: list[Span]) -> int:
    """The most of ``spans`` open at one time (an end before a start at the same instant)."""
    edges = sorted(
        [(span.start_time_unix_nano, 1) for span in spans]
        + [(span.end_time_unix_nano, -1) for span in spans]
    )
    most = running = 0
    for _, step in edges:
        running += step
        most = max(most, running)
    return most


def test_odds_calls_on_two_workers_compute_one_at_a_time_in_a_lane_1_wide_and_are_all_answered(
    launch_server: Callable[..., ServerProcess], receiver: tuple[Receiver, int]
) -> None:
    collector, port = receiver
    server = launch_server(
        "--workers", "2", "--odds-threads", "1", "--otlp-endpoint", f"http://127.0.0.1:{port}",
        "--cpu-budget-seconds", "1000", "--memory-budget-mib", "2048", "--peer-share", "1",
        env={"OTEL_BSP_SCHEDULE_DELAY": "100", "OTEL_EXPERIMENTAL_RESOURCE_DETECTORS": "process"},
    )  # fmt: skip
    server.wait_for_event("ready", count=2)
    with ThreadPoolExecutor(CALLS) as callers:
        replies = list(callers.map(odds_on_a_connection_of_its_own, [server.target] * CALLS))
    assert [reply.runouts for reply in replies] == [ODDS.samples] * CALLS

    deadline = time.monotonic() + 60
    while len(collector.named(RUNOUTS)) < CALLS:
        assert time.monotonic() < deadline, "the spans did not arrive"
        time.sleep(0.1)
    assert server.stop() == 0
    runouts = collector.named(RUNOUTS)
    assert len({resource["process.pid"] for resource, _ in runouts}) == 2
    assert most_at_once([span for _, span in runouts]) == 1
