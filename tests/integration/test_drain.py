"""SIGTERM under load (``service.server.drain``): calls that come once the drain has begun are
refused UNAVAILABLE, none CANCELLED by gRPC's core; work still running when the grace ends
stops between chunks and is answered UNAVAILABLE too, which clients retry elsewhere, instead
of burning CPU to the end; and the server's stderr stays JSON."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable

import grpc
from handeval_client import evaluate_request, odds_request
from handeval_client.gen.handeval.v1 import handeval_pb2_grpc as pb_grpc

from service.server.drain import DRAINING_MESSAGE
from service.server.serve import DRAIN_NOTICE_SECONDS
from tests.conftest import ServerProcess

GRACE_SECONDS = 2.0
LONG_SAMPLES = 1_000_000_000
LONG_ODDS = odds_request("poker", {"a": "As Ks", "b": "?2", "c": "?2"}, samples=LONG_SAMPLES)
"""About 90 CPU-s with Odds in C (10M samples, under 1 CPU-s, could end before the grace):
far longer than the grace at any speed Odds may reach."""
ALLOW_LONG_ODDS = ("--max-odds-samples", str(LONG_SAMPLES), "--cpu-budget-seconds", "100000")
EVALUATE = evaluate_request("poker", "Ah Kh Qh Jh Th 2c 3d")
EXIT_MARGIN_SECONDS = 10.0
"""Beyond notice + grace: slack for a loaded machine (the Odds alone would take minutes)."""


def test_calls_after_the_drain_begins_and_odds_at_the_grace_end_are_answered_unavailable(
    launch_server: Callable[..., ServerProcess],
) -> None:
    server = launch_server("--grace-seconds", str(GRACE_SECONDS), *ALLOW_LONG_ODDS)
    codes: Counter[tuple[str, str]] = Counter()
    stop = threading.Event()

    def evaluate_until_stopped(stub: pb_grpc.HandEvaluatorStub) -> None:
        while not stop.is_set():
            try:
                stub.Evaluate(EVALUATE, timeout=10)
                codes["OK", ""] += 1
            except grpc.RpcError as error:
                codes[error.code().name, error.details() or ""] += 1
                if error.code() == grpc.StatusCode.UNAVAILABLE:
                    return

    with grpc.insecure_channel(server.target) as channel:
        stub = pb_grpc.HandEvaluatorStub(channel)
        odds = stub.Odds.future(LONG_ODDS, timeout=120)
        callers = [threading.Thread(target=evaluate_until_stopped, args=(stub,)) for _ in range(4)]
        for caller in callers:
            caller.start()
        time.sleep(1.0)
        assert not odds.done(), "the Odds call is still running when SIGTERM comes"
        began = time.monotonic()
        assert server.stop() == 0
        took = time.monotonic() - began
        stop.set()
        for caller in callers:
            caller.join(30)
        error = odds.exception()
    assert isinstance(error, grpc.RpcError)
    assert error.code() == grpc.StatusCode.UNAVAILABLE
    assert error.details() == DRAINING_MESSAGE
    assert took < DRAIN_NOTICE_SECONDS + GRACE_SECONDS + EXIT_MARGIN_SECONDS
    assert codes["OK", ""], "the callers were served until the drain"
    ended = Counter(code for code, _ in codes.elements() if code != "OK")
    assert ended == {"UNAVAILABLE": len(callers)}, f"told to go, none CANCELLED: {codes}"
    assert codes["UNAVAILABLE", DRAINING_MESSAGE], "refused by the draining servicer"
    assert server.named("stop")[0]["refused"] >= len(callers)
    assert server.other_lines == []
