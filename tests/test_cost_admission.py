"""Admission by cost against a real server (``service.server.limits.CostAdmission``):
expensive calls cannot crowd out cheap ones, a refusal names its budget, and replies a
client never reads stay counted until the call is over."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable

import grpc
import numpy as np

from benchmarks.raw_connection import RawConnection
from service.client.typed_client import batch_request, evaluate_request, odds_request
from service.gen.handeval.v1 import handeval_pb2 as pb
from service.gen.handeval.v1 import handeval_pb2_grpc as pb_grpc
from tests.conftest import ServerProcess

HAND = "Ah Kh Qh Jh Th 2c 3d"
COSTLY_ODDS = odds_request("poker", [(f"p{i}", "?2") for i in range(23)], samples=4_000_000)
"""~3.7 CPU-s by Poker high's rate (4M run-outs x 23 seats x 40 ns), seconds of real work."""
BATCH_PATH = "/handeval.v1.HandEvaluator/EvaluateBatch"


def _batch(hands: int, seed: int = 1) -> bytes:
    deck = np.tile(np.arange(52, dtype=np.uint8), (hands, 1))
    cards = np.random.default_rng(seed).permuted(deck, axis=1)[:, :7]
    return bytes(batch_request("poker", cards, columns=True).SerializeToString())


def _answered(connection: RawConnection, calls: int) -> bool:
    return connection.headers_received >= calls


def _wait_for(predicate: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


def test_costly_odds_in_flight_neither_refuse_nor_stall_a_polite_callers_unary_calls(
    launch_server: Callable[..., ServerProcess],
) -> None:
    server = launch_server("--cpu-budget-seconds", "8", "--admission-wait-seconds", "0.2")
    attackers = [grpc.insecure_channel(server.target, [("grpc.use_local_subchannel_pool", 1)])
                 for _ in range(2)]  # fmt: skip
    try:
        odds = [
            pb_grpc.HandEvaluatorStub(attackers[i % 2]).Odds.future(COSTLY_ODDS, timeout=60)
            for i in range(8)
        ]
        assert _wait_for(lambda: sum(f.done() for f in odds) >= 4, 30), "no refusals came"
        running = [f for f in odds if not f.done()]
        refused = [f.exception() for f in odds if f.done()]
        assert running, "some Odds calls hold the CPU budget while the polite caller calls"
        with grpc.insecure_channel(server.target) as channel:
            stub = pb_grpc.HandEvaluatorStub(channel)
            for _ in range(50):
                assert stub.Evaluate(evaluate_request("poker", HAND), timeout=10).strength > 0
        assert any(not f.done() for f in running), "the Odds calls were still running"
        assert all(isinstance(e, grpc.RpcError) for e in refused)
        codes = {e.code() for e in refused if isinstance(e, grpc.RpcError)}
        assert codes == {grpc.StatusCode.RESOURCE_EXHAUSTED}
        details = " ".join(e.details() or "" for e in refused if isinstance(e, grpc.RpcError))
        assert "CPU budget (8 CPU-s, --cpu-budget-seconds)" in details
    finally:
        for future in odds:
            future.cancel()
        for channel in attackers:
            channel.close()


def test_replies_a_client_never_reads_stay_reserved_and_bound_the_servers_memory(
    launch_server: Callable[..., ServerProcess],
) -> None:
    """100 calls of 50,000 hands (650 kB replies), one after another, from a client with a
    stream window of 0: unbounded, 65 MB of replies would sit in the server; with a 16 MiB
    budget the rest are refused naming it, and so is a polite caller's batch as large,
    until the client goes (a unary Evaluate is not held up)."""
    server = launch_server(
        "--memory-budget-mib", "16", "--peer-share", "1", "--admission-wait-seconds", "0.1"
    )
    message = _batch(50_000)
    polite = pb.EvaluateBatchRequest.FromString(_batch(50_000, seed=2))
    before = server.rss_kib()
    reader = RawConnection(server.target, window=0)
    try:
        for sent in range(1, 101):
            reader.call(BATCH_PATH, message)
            assert _wait_for(functools.partial(_answered, reader, sent), 30), "each is answered"
        growth_mib = (server.rss_kib() - before) / 1024
        with grpc.insecure_channel(server.target) as channel:
            stub = pb_grpc.HandEvaluatorStub(channel)
            try:
                stub.EvaluateBatch(polite, timeout=10)
                raise AssertionError("the memory budget was full of unread replies")
            except grpc.RpcError as error:
                assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                assert "memory budget (16.0 MiB, --memory-budget-mib)" in (error.details() or "")
            assert stub.Evaluate(evaluate_request("poker", HAND), timeout=10).strength > 0
            reader.close()

            def batch_fits() -> bool:
                try:
                    stub.EvaluateBatch(polite, timeout=10)
                    return True
                except grpc.RpcError:
                    return False

            assert _wait_for(batch_fits, 20), "the replies' bytes are given back with the calls"
        assert growth_mib < 100, f"RSS grew {growth_mib:.0f} MiB"
    finally:
        reader.close()
