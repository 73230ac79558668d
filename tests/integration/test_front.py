"""nghttpx in front of the real server (``front/nghttpx.conf``, what the image's sidecar
runs): calls pass through it whole (replies, errors with their details, health), and it
ends the connections below the servicer's reach that gRPC's core keeps serving: rapid
reset (nghttp2's stream-reset rate limit, CVE-2023-44487) and PING floods (its cap on
unsent acknowledgements). Attacks are a few seconds and judged by counts, not times.
Behind it each client connection still gets its own share of the cost lane: the front
names it in a ``Forwarded`` header the server charges (``--peer-from-forwarded``).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2
from handeval_client import evaluate_request, odds_request
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb
from handeval_client.gen.handeval.v1 import handeval_pb2_grpc as pb_grpc

from benchmarks.front import BEHIND_FRONT, FrontProcess, start_front
from benchmarks.hostile_requests import cpu_seconds
from evaluators.odds.plan import OddsLimits, odds_cost, plan_odds
from service.server.admission import PEER_FULL
from service.wire.requests import to_odds_request
from tests.conftest import ROOT, ServerProcess, health_status, require_tool

ATTACK_SECONDS = 3.0
CONNECTIONS = 4
OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]
REQUEST = evaluate_request("poker", "Ah Kh Qh Jh Th 2c 3d")
SEATS = [(f"p{i}", "?2") for i in range(23)]
LONG_ODDS = odds_request("poker", SEATS, samples=40_000_000)
"""Tens of CPU-seconds of sampling: running all through the calls that test the share."""
SHORT_ODDS = odds_request("poker", SEATS, samples=200_000)
"""1/200 of ``LONG_ODDS``: well under a second."""


@pytest.fixture
def front(
    launch_server: Callable[..., ServerProcess],
) -> Iterator[tuple[FrontProcess, ServerProcess]]:
    require_tool("nghttpx", "Debian package `nghttp2-proxy`", also_in=Path("/usr/sbin"))
    server = launch_server("--max-connection-age-seconds", "0", *BEHIND_FRONT)
    proxy = start_front(server.port)
    yield proxy, server
    proxy.stop()


def _cpu_estimate(request: pb.OddsRequest) -> float:
    """The cost lane's CPU price of ``request`` (what the server reserves for it)."""
    limits = OddsLimits(max_samples=request.samples)
    asked = to_odds_request(request)
    return odds_cost(asked, plan_odds(asked, request.samples, limits)).cpu_seconds


def _share_behind_the_front(
    launch_server: Callable[..., ServerProcess], *flags: str
) -> tuple[str, str]:
    """Client A holds a long Odds call through the front; then A and another client B each
    send a short one on their own connections. The CPU budget fits A's long call and one
    short call (1.5x the long one's price), one peer may hold half: A's short call is over
    A's share whoever is charged, B's fits only when it is not charged to A. Returns the
    outcome of A's and B's short calls ("OK", or the refusal's code and details)."""
    require_tool("nghttpx", "Debian package `nghttp2-proxy`", also_in=Path("/usr/sbin"))
    budget = 1.5 * _cpu_estimate(LONG_ODDS)
    assert _cpu_estimate(SHORT_ODDS) * 2 < budget - _cpu_estimate(LONG_ODDS)
    server = launch_server(
        "--max-connection-age-seconds", "0", *BEHIND_FRONT, "--cpu-budget-seconds",
        f"{budget:.3f}", "--memory-budget-mib", "4096", "--peer-share", "0.5",
        "--odds-threads", "2", "--max-odds-samples", str(LONG_ODDS.samples), *flags,
    )  # fmt: skip
    proxy = start_front(server.port)
    clients = [grpc.insecure_channel(proxy.target, options=OWN_CONNECTION) for _ in range(2)]
    first, other = (pb_grpc.HandEvaluatorStub(channel) for channel in clients)
    began = cpu_seconds(server.pid)
    holding = first.Odds.future(LONG_ODDS, timeout=300)
    try:
        computing = time.monotonic() + 60
        while cpu_seconds(server.pid) - began < 0.5:
            assert not holding.done(), holding.exception()
            assert time.monotonic() < computing, "the long call never started computing"
            time.sleep(0.05)
        outcomes = []
        for stub in (first, other):
            try:
                stub.Odds(SHORT_ODDS, timeout=120)
                outcomes.append("OK")
            except grpc.RpcError as error:
                outcomes.append(f"{error.code().name}: {error.details()}")
        assert not holding.done(), "the long call held its price throughout"
        return outcomes[0], outcomes[1]
    finally:
        holding.cancel()
        for channel in clients:
            channel.close()
        proxy.stop()


def test_behind_the_front_each_client_connection_gets_its_own_share_of_the_cost_lane(
    launch_server: Callable[..., ServerProcess],
) -> None:
    mine, other = _share_behind_the_front(launch_server)
    assert mine.startswith(f"RESOURCE_EXHAUSTED: {PEER_FULL}"), mine
    assert "--peer-share" in mine
    assert other == "OK"


def test_without_peer_from_forwarded_every_client_behind_the_front_shares_one_share(
    launch_server: Callable[..., ServerProcess],
) -> None:
    """The behaviour before the setting, and with it off: the peer is the front's
    connection."""
    mine, other = _share_behind_the_front(launch_server, "--no-peer-from-forwarded")
    assert mine.startswith(f"RESOURCE_EXHAUSTED: {PEER_FULL}"), mine
    assert other.startswith(f"RESOURCE_EXHAUSTED: {PEER_FULL}"), other


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
