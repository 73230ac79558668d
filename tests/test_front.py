"""nghttpx in front of the real server (``front/nghttpx.conf``, what the image's sidecar
runs): calls pass through it whole (replies, errors with their details, health), and it
ends the connections below the servicer's reach that gRPC's core keeps serving: rapid
reset (nghttp2's stream-reset rate limit, CVE-2023-44487) and PING floods (its cap on
unsent acknowledgements). Attacks are a few seconds and judged by counts, not times.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2

from benchmarks.front import BEHIND_FRONT, FrontProcess, start_front
from benchmarks.hostile_requests import cpu_seconds
from service.client.typed_client import evaluate_request
from service.gen.handeval.v1 import handeval_pb2_grpc as pb_grpc
from tests.conftest import ROOT, ServerProcess, health_status, require_tool

ATTACK_SECONDS = 3.0
CONNECTIONS = 4
OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]
REQUEST = evaluate_request("poker", "Ah Kh Qh Jh Th 2c 3d")


@pytest.fixture
def front(
    launch_server: Callable[..., ServerProcess],
) -> Iterator[tuple[FrontProcess, ServerProcess]]:
    require_tool("nghttpx", "Debian package `nghttp2-proxy`", also_in=Path("/usr/sbin"))
    server = launch_server("--max-connection-age-seconds", "0", *BEHIND_FRONT)
    proxy = start_front(server.port)
    yield proxy, server
    proxy.stop()


def _attack(kind: str, target: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "benchmarks.transport_attacks", kind, target,
         "--seconds", str(ATTACK_SECONDS), "--connections", str(CONNECTIONS)],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip


def _polite_until_done(target: str, attacker: subprocess.Popen[str]) -> Counter[str]:
    """Evaluate calls on a connection of their own while ``attacker`` runs: their codes."""
    codes: Counter[str] = Counter()
    with grpc.insecure_channel(target, options=OWN_CONNECTION) as channel:
        stub = pb_grpc.HandEvaluatorStub(channel)
        while attacker.poll() is None or not codes:
            try:
                stub.Evaluate(REQUEST, timeout=10)
                codes["OK"] += 1
            except grpc.RpcError as error:
                codes[error.code().name] += 1
    return codes


def test_calls_errors_and_health_pass_through_the_front_whole(
    front: tuple[FrontProcess, ServerProcess],
) -> None:
    proxy, _ = front
    with grpc.insecure_channel(proxy.target) as channel:
        stub = pb_grpc.HandEvaluatorStub(channel)
        reply = stub.Evaluate(REQUEST, timeout=10)
        assert reply.description == "Straight flush, ace high (royal flush)"
        with pytest.raises(grpc.RpcError) as refused:
            stub.Evaluate(evaluate_request("poker", "Ah Kh Qh Jh Th 2c 2c"), timeout=10)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "hand[6]: duplicate card '2c'" in (refused.value.details() or "")
    assert (
        health_status(proxy.target, "handeval.v1.HandEvaluator")
        == health_pb2.HealthCheckResponse.SERVING
    )


def test_the_front_ends_every_rapid_reset_connection_and_polite_calls_go_on(
    front: tuple[FrontProcess, ServerProcess],
) -> None:
    proxy, server = front
    attacker = _attack("rapid-reset", proxy.target)
    codes = _polite_until_done(proxy.target, attacker)
    report = json.loads(attacker.communicate()[0])
    assert report["frames_sent"] > 1_000, report
    assert report["connections_ended_by_server"] == CONNECTIONS, report
    assert set(codes) == {"OK"}, codes
    assert server.process.poll() is None
    assert health_status(proxy.target) == health_pb2.HealthCheckResponse.SERVING


def test_the_front_ends_a_ping_flood_or_answers_it_for_less_than_it_costs_the_attacker(
    front: tuple[FrontProcess, ServerProcess],
) -> None:
    """nghttp2 ends a connection once 1,000 PING acknowledgements wait unsent (the attacker
    reads slower than it writes, as here on every run seen); were the attacker to keep
    up, each PING costs the front a few microseconds of C and never reaches the server.
    Nobody else calls during the flood, so the CPU counted is the flood's."""
    proxy, server = front
    pids = [server.pid, *proxy.pids()]
    began = sum(map(cpu_seconds, pids))
    report = json.loads(_attack("ping-flood", proxy.target).communicate()[0])
    spent = sum(map(cpu_seconds, pids)) - began
    assert report["frames_sent"] > 1_000, report
    ended = report["connections_ended_by_server"] == CONNECTIONS
    assert ended or spent <= 3 * report["attacker_cpu_s"], (report, spent)
    with grpc.insecure_channel(proxy.target) as channel:
        assert pb_grpc.HandEvaluatorStub(channel).Evaluate(REQUEST, timeout=10).strength
