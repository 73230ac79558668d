"""Metrics of a real server: the ``/metrics`` of a 2-worker server summing both workers after a
known set of calls, the service's own ``handeval_*``, one worker's page and none (the names,
labels and counting in process: tests/unit/service/server/test_metrics.py)."""

from __future__ import annotations

import time
import urllib.request
from collections.abc import Callable
from typing import TYPE_CHECKING

import grpc
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb
from handeval_client.gen.handeval.v1 import handeval_pb2_grpc as pb_grpc
from prometheus_client.parser import text_string_to_metric_families

from tests.unit.service.server.test_metrics import BAD, GOOD, POKER, call_error, rpc

if TYPE_CHECKING:
    from conftest import ServerProcess

__all__ = ["BAD", "GOOD", "rpc"]
"""Re-exported for the other server tests that count calls."""

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def samples_of(text: str) -> Samples:
    """Every sample of a /metrics page, keyed by (name, labels)."""
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    """A sample's value; 0 for a series that is not there."""
    return samples.get((name, frozenset(labels.items())), 0.0)


def scrape(port: int) -> Samples:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(f"http://127.0.0.1:{port}/metrics", timeout=5) as reply:
        return samples_of(reply.read().decode())


def scrape_until(port: int, ready: Callable[[Samples], bool], timeout: float = 10.0) -> Samples:
    """Scrape until ``ready(samples)`` (bounded); the last scrape either way."""
    deadline = time.monotonic() + timeout
    samples = scrape(port)
    while not ready(samples) and time.monotonic() < deadline:
        time.sleep(0.1)
        samples = scrape(port)
    return samples


def test_two_workers_metrics_page_sums_both_after_known_calls(
    launch_server: Callable[..., ServerProcess],
) -> None:
    server = launch_server("--workers", "2", "--metrics-port", "0", "--max-batch-hands", "10")
    server.wait_for_event("ready", count=2)
    port = server.metrics_port()
    batch = pb.EvaluateBatchRequest(
        game=POKER, hands=b"".join(bytes(range(i, i + 7)) for i in range(0, 35, 7)), hand_size=7
    )
    too_big = pb.EvaluateBatchRequest(game=POKER, hands=bytes(range(7)) * 11, hand_size=7)
    for _ in range(3):  # a new connection per round: rounds land on either worker
        with grpc.insecure_channel(server.target) as channel:
            stub = pb_grpc.HandEvaluatorStub(channel)
            stub.Evaluate(GOOD, timeout=10)
            assert len(list(stub.EvaluateStream(iter([GOOD, BAD, GOOD, GOOD]), timeout=10))) == 4
            assert len(stub.EvaluateBatch(batch, timeout=10).strength) == 5
            assert call_error(lambda: stub.Evaluate(BAD, timeout=10)) == (  # noqa: B023
                grpc.StatusCode.INVALID_ARGUMENT
            )
            assert call_error(lambda: stub.EvaluateBatch(too_big, timeout=10)) == (  # noqa: B023
                grpc.StatusCode.RESOURCE_EXHAUSTED
            )

    handled = "grpc_server_handled_total"
    evaluate, batched = rpc("Evaluate"), rpc("EvaluateBatch")
    streamed = rpc("EvaluateStream", "bidi_stream")
    s = scrape_until(
        port, lambda s: value(s, handled, **batched, grpc_code="ResourceExhausted") >= 3
    )
    assert value(s, "grpc_server_started_total", **evaluate) == 6
    assert value(s, handled, **evaluate, grpc_code="OK") == 3
    assert value(s, handled, **evaluate, grpc_code="InvalidArgument") == 3
    assert value(s, "grpc_server_msg_received_total", **evaluate) == 6
    assert value(s, "grpc_server_msg_sent_total", **evaluate) == 3
    assert value(s, "grpc_server_handling_seconds_count", **evaluate) == 6
    assert value(s, "grpc_server_handling_seconds_bucket", **evaluate, le="+Inf") == 6
    assert value(s, "grpc_server_started_total", **streamed) == 3
    assert value(s, "grpc_server_msg_received_total", **streamed) == 12
    assert value(s, "grpc_server_msg_sent_total", **streamed) == 12
    assert value(s, handled, **streamed, grpc_code="OK") == 3
    assert value(s, handled, **batched, grpc_code="OK") == 3
    assert value(s, handled, **batched, grpc_code="ResourceExhausted") == 3
    assert value(s, handled, **rpc("Showdown"), grpc_code="OK") == 0  # present at zero

    game = {"game": "poker_high"}
    assert value(s, "handeval_hands_evaluated_total", **game) == 3 * (1 + 3 + 5)
    assert value(s, "handeval_evaluation_errors_total", **game, reason="invalid_argument") == 6
    assert value(s, "handeval_evaluation_errors_total", **game, reason="resource_exhausted") == 3
    assert value(s, "handeval_batch_size_hands_count", **game) == 3
    assert value(s, "handeval_batch_size_hands_sum", **game) == 15
    assert value(s, "handeval_evaluation_seconds_count", **game) == 3 + 9 + 3
    assert value(s, "handeval_workers") == 2
    assert value(s, "handeval_worker_restarts_total") == 0
    assert value(s, "handeval_build_info", version=server.named("start")[0]["version"]) == 1
    builds = {
        dict(labels)["table"]: seconds
        for (name, labels), seconds in s.items()
        if name == "handeval_table_build_seconds"
    }
    assert {"poker.unsuited_classes", "not_poker.readings", "tonk.suit_runs"} <= set(builds)
    assert all(seconds > 0 for seconds in builds.values())
    assert len(set(builds.values())) == len(builds), "each table's own build time"
    assert server.stop() == 0


def test_one_worker_serves_its_own_metrics_from_memory(
    launch_server: Callable[..., ServerProcess],
) -> None:
    server = launch_server("--workers", "1", "--metrics-port", "0")
    start = server.wait_for_event("start")
    assert start["pid"] == server.pid
    with grpc.insecure_channel(server.target) as channel:
        pb_grpc.HandEvaluatorStub(channel).Evaluate(GOOD, timeout=10)
    s = scrape(int(start["metrics_port"]))
    assert value(s, "grpc_server_handled_total", **rpc("Evaluate"), grpc_code="OK") == 1
    assert value(s, "handeval_hands_evaluated_total", game="poker_high") == 1
    assert value(s, "handeval_workers") == 1
    assert ("handeval_worker_restarts_total", frozenset()) in s
    assert not server.named("workers")
    assert server.stop() == 0


def test_metrics_off_serves_no_metrics_page(launch_server: Callable[..., ServerProcess]) -> None:
    server = launch_server("--workers", "1", "--no-metrics")
    with grpc.insecure_channel(server.target) as channel:
        pb_grpc.HandEvaluatorStub(channel).Evaluate(GOOD, timeout=10)
    assert server.wait_for_event("start")["metrics_port"] is None
    assert server.stop() == 0
