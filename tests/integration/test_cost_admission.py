"""Admission by cost against a real server (``service.server.admission.CostAdmission``):
expensive calls cannot crowd out cheap ones, a refusal names its budget, and replies a
client never reads stay counted until the call is over."""

from __future__ import annotations

import contextlib
import functools
import time
import urllib.request
from collections.abc import Callable

import grpc
import numpy as np
from handeval_client import batch_request, evaluate_request, odds_request
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb
from handeval_client.gen.handeval.v1 import handeval_pb2_grpc as pb_grpc

from benchmarks.raw_connection import RawConnection
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


def test_a_stream_may_send_only_the_receive_window_before_its_request_is_read(
    launch_server: Callable[..., ServerProcess],
) -> None:
    """gRPC's BDP probing raised every stream's window to 4-8 MiB after a few large
    requests, so requests nobody had read yet came in whole (800 of 700 kB: +650 MiB); with
    ``--receive-window-bytes`` (64 KiB) the window stays put however many batches come,
    and each batch is still answered."""
    server = launch_server("--admission-wait-seconds", "0")
    message = _batch(100_000)
    connection = RawConnection(server.target)
    try:
        assert _wait_for(lambda: connection.stream_window == 65_535, 10), connection.stream_window
        for sent in range(1, 21):
            connection.call(BATCH_PATH, message)
            assert _wait_for(functools.partial(_answered, connection, sent), 30), "answered"
        assert connection.stream_window == 65_535, f"grew to {connection.stream_window}"
    finally:
        connection.close()


STALLED_STREAMS = 100
STALLED_BYTES = 1_765_000
"""A request just inside the receive limit: grpc core buffers it until its last byte."""


def test_requests_that_never_finish_arriving_are_bounded_and_ended_at_the_read_deadline(
    launch_server: Callable[..., ServerProcess],
) -> None:
    """100 streams each sending all but the last byte of a 1.76 MB EvaluateBatch: unbounded,
    core held them all (+176 MB) until the connection went; with a 16 MiB budget for
    requests still arriving the oldest are ended as new ones come, the rest at the 2 s read
    deadline, and a polite caller is answered meanwhile."""
    server = launch_server("--upload-budget-mib", "16", "--upload-seconds", "2")
    before = server.rss_kib()
    stalled = RawConnection(server.target)
    peak = before
    try:
        for _ in range(STALLED_STREAMS):
            with contextlib.suppress(ConnectionError):  # ended while sending: room was made
                stalled.call(BATCH_PATH, bytes(STALLED_BYTES), leave_out=1, timeout=30)
            peak = max(peak, server.rss_kib())
        with grpc.insecure_channel(server.target) as channel:
            stub = pb_grpc.HandEvaluatorStub(channel)
            assert stub.Evaluate(evaluate_request("poker", HAND), timeout=10).strength > 0
        assert _wait_for(lambda: stalled.resets >= STALLED_STREAMS, 30), (
            f"{stalled.resets} of {STALLED_STREAMS} streams ended"
        )
    finally:
        stalled.close()
    growth_mib = (peak - before) / 1024
    assert growth_mib < 80, f"RSS grew {growth_mib:.0f} MiB while requests hung"


def _handled(text: str, method: str, code: str) -> float:
    """``grpc_server_handled_total`` of a unary evaluator method and code, 0 when absent."""
    for line in text.splitlines():
        if line.startswith("grpc_server_handled_total{") and f'grpc_method="{method}"' in line:
            assert 'grpc_type="unary"' in line, line
            if f'grpc_code="{code}"' in line:
                return float(line.rsplit(" ", 1)[1])
    return 0.0


def test_a_unary_call_is_still_unary_in_the_metrics_and_one_without_a_message_is_refused(
    launch_server: Callable[..., ServerProcess],
) -> None:
    """Read as a request stream, a unary method keeps its ``grpc_type``; a call whose client
    ends it with no request is INVALID_ARGUMENT at once (grpc's unary handler waited for
    the deadline), one whose request stalls DEADLINE_EXCEEDED at the read deadline, both
    counted."""
    server = launch_server("--upload-seconds", "1")
    port = int(server.wait_for_event("start")["metrics_port"])
    evaluate = "/handeval.v1.HandEvaluator/Evaluate"
    with grpc.insecure_channel(server.target) as channel:
        stub = pb_grpc.HandEvaluatorStub(channel)
        assert stub.Evaluate(evaluate_request("poker", HAND), timeout=10).strength > 0
        empty = channel.stream_unary(evaluate)
        try:
            empty(iter(()), timeout=10)
            raise AssertionError("a call without a request was answered")
        except grpc.RpcError as error:
            assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, error
            assert "without a request message" in (error.details() or "")
    stalled = RawConnection(server.target)
    try:
        stalled.call(evaluate, evaluate_request("poker", HAND).SerializeToString(), leave_out=1)
        assert _wait_for(lambda: stalled.resets >= 1, 10), "the stalled request was not ended"
    finally:
        stalled.close()
    url = f"http://127.0.0.1:{port}/metrics"

    def counted() -> bool:
        with urllib.request.urlopen(url, timeout=10) as reply:
            text = reply.read().decode()
        return (
            _handled(text, "Evaluate", "OK") == 1
            and _handled(text, "Evaluate", "InvalidArgument") == 1
            and _handled(text, "Evaluate", "DeadlineExceeded") == 1
        )

    assert _wait_for(counted, 10), "each call counted under its code"
