"""Metrics in process: go-grpc-prometheus names, labels and Go-spelled codes, and each call
and stream message counted by the interceptor around the real servicer on an aio server in
this process (the real ``/metrics`` of a 2-worker server: tests/test_metrics.py)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from concurrent import futures
from typing import NamedTuple

import grpc
import pytest
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb
from handeval_client.gen.handeval.v1 import handeval_pb2_grpc as pb_grpc
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest

from service.server.admission import CostAdmission, cost_budgets
from service.server.metrics import (
    GAMES,
    GO_CODES,
    Instruments,
    MetricsInterceptor,
    adder,
    grpc_type,
    observer,
)
from service.server.registration import method_handlers
from service.server.servicer import HandEvaluatorServicer

SERVICE = "handeval.v1.HandEvaluator"
POKER = pb.GAME_POKER_HIGH
GOOD = pb.EvaluateRequest(game=POKER, hand=["Ah", "Kh"], table=["Qh", "Jh", "Th"])
BAD = pb.EvaluateRequest(game=POKER, hand=["Zz", "Kh"], table=["Qh", "Jh", "Th"])
GO_SPELLING = [
    "OK",
    "Canceled",
    "Unknown",
    "InvalidArgument",
    "DeadlineExceeded",
    "NotFound",
    "AlreadyExists",
    "PermissionDenied",
    "ResourceExhausted",
    "FailedPrecondition",
    "Aborted",
    "OutOfRange",
    "Unimplemented",
    "Internal",
    "Unavailable",
    "DataLoss",
    "Unauthenticated",
]
"""Go's codes.Code.String() of codes 0-16, from google.golang.org/grpc/codes."""


def rpc(method: str, kind: str = "unary") -> dict[str, str]:
    return {"grpc_type": kind, "grpc_service": SERVICE, "grpc_method": method}


def call_error(call: Callable[[], object]) -> grpc.StatusCode:
    with pytest.raises(grpc.RpcError) as caught:
        call()
    code: grpc.StatusCode = caught.value.code()
    return code


def test_codes_are_spelled_as_go_spells_them() -> None:
    assert [GO_CODES[code] for code in sorted(grpc.StatusCode, key=lambda c: c.value[0])] == (
        GO_SPELLING
    )


def test_adder_and_observer_write_what_inc_and_observe_write() -> None:
    """The same amounts added through ``inc``/``observe`` in one registry and through
    ``adder``/``observer`` in another expose the same text: amounts on a bucket's bound,
    between bounds, past the last one, zero and fractional."""
    amounts = [0.0, 0.0005, 0.0004, 0.001, 0.0011, 7.0, 99.0, 0.25, 2.5e-5, 3.0]
    pages = []
    for fast in (False, True):
        registry = CollectorRegistry()
        counter = Counter("c_total", "c", ["m"], registry=registry).labels("x")
        histogram = Histogram(
            "h_seconds", "h", ["m"], registry=registry, buckets=(0.0005, 0.001, 5)
        )
        child = histogram.labels("x")
        add = adder(counter) if fast else counter.inc
        observe = observer(child) if fast else child.observe
        for amount in amounts:
            add(amount)
            observe(amount)
        lines = generate_latest(registry).decode().splitlines()
        pages.append([line for line in lines if "_created" not in line])
    assert 'c_total{m="x"}' in "\n".join(pages[0]) and pages[0] == pages[1]


def test_grpc_type_names_the_four_shapes_as_go_does() -> None:
    assert grpc_type(False, False) == "unary"
    assert grpc_type(True, False) == "client_stream"
    assert grpc_type(False, True) == "server_stream"
    assert grpc_type(True, True) == "bidi_stream"


def test_game_labels_are_the_enum_names_without_prefix() -> None:
    assert GAMES[POKER] == "poker_high"
    assert GAMES[pb.GAME_THREE_THIRTY_THREE] == "three_thirty_three"
    assert GAMES[pb.GAME_UNSPECIFIED] == "unspecified"


class InProcess(NamedTuple):
    registry: CollectorRegistry
    stub: pb_grpc.HandEvaluatorStub
    channel: grpc.Channel


@pytest.fixture
def in_process() -> Iterator[InProcess]:
    """The real servicer behind the interceptor on an aio server in this process (its loop
    in a thread of its own), with its own registry."""
    registry = CollectorRegistry()
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    pool = futures.ThreadPoolExecutor(max_workers=2)

    async def start() -> tuple[grpc.aio.Server, int]:
        server = grpc.aio.server(
            interceptors=(MetricsInterceptor(Instruments(registry)),),
            options=(("grpc.so_reuseport", 0),),
        )
        servicer = HandEvaluatorServicer(
            10, CostAdmission(cost_budgets(0, 0, 1.0, 0.0, 4, 1)), pool, 1 << 20, 0
        )
        handlers = grpc.method_handlers_generic_handler(SERVICE, method_handlers(servicer))
        server.add_generic_rpc_handlers((handlers,))
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        return server, port

    server, port = asyncio.run_coroutine_threadsafe(start(), loop).result(30)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            yield InProcess(registry, pb_grpc.HandEvaluatorStub(channel), channel)
    finally:
        asyncio.run_coroutine_threadsafe(server.stop(None), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
        pool.shutdown()


def test_every_evaluator_method_starts_at_zero_with_code_ok(
    in_process: InProcess,
) -> None:
    registry, _, _ = in_process
    kinds = {"EvaluateStream": "bidi_stream"}
    for method in ("Evaluate", "EvaluateStream", "EvaluateBatch", "Showdown", "ListGames"):
        labels = rpc(method, kinds.get(method, "unary"))
        assert registry.get_sample_value("grpc_server_started_total", labels) == 0
        assert (
            registry.get_sample_value("grpc_server_handled_total", {**labels, "grpc_code": "OK"})
            == 0
        )
        assert registry.get_sample_value("grpc_server_handling_seconds_count", labels) == 0


def test_a_unary_call_counts_one_message_each_way_and_code_ok(
    in_process: InProcess,
) -> None:
    registry, stub, _ = in_process
    stub.Evaluate(GOOD)
    stub.Evaluate(GOOD)
    labels = rpc("Evaluate")
    assert registry.get_sample_value("grpc_server_started_total", labels) == 2
    assert registry.get_sample_value("grpc_server_msg_received_total", labels) == 2
    assert registry.get_sample_value("grpc_server_msg_sent_total", labels) == 2
    assert (
        registry.get_sample_value("grpc_server_handled_total", {**labels, "grpc_code": "OK"}) == 2
    )
    assert registry.get_sample_value("grpc_server_handling_seconds_count", labels) == 2


def test_an_aborted_call_is_handled_with_its_go_code_and_sends_nothing(
    in_process: InProcess,
) -> None:
    registry, stub, _ = in_process
    assert call_error(lambda: stub.Evaluate(BAD)) == grpc.StatusCode.INVALID_ARGUMENT
    too_big = pb.EvaluateBatchRequest(game=POKER, hands=bytes(range(7)) * 11, hand_size=7)
    assert call_error(lambda: stub.EvaluateBatch(too_big)) == grpc.StatusCode.RESOURCE_EXHAUSTED
    handled = "grpc_server_handled_total"
    evaluate, batch = rpc("Evaluate"), rpc("EvaluateBatch")
    counted_by = time.monotonic() + 10  # an abort sends its status before the count is made
    while registry.get_sample_value(handled, {**batch, "grpc_code": "ResourceExhausted"}) != 1:
        assert time.monotonic() < counted_by
        time.sleep(0.01)
    assert registry.get_sample_value(handled, {**evaluate, "grpc_code": "InvalidArgument"}) == 1
    assert registry.get_sample_value(handled, {**batch, "grpc_code": "ResourceExhausted"}) == 1
    assert registry.get_sample_value(handled, {**evaluate, "grpc_code": "OK"}) == 0
    assert registry.get_sample_value("grpc_server_msg_received_total", evaluate) == 1
    assert registry.get_sample_value("grpc_server_msg_sent_total", evaluate) == 0
    assert registry.get_sample_value("grpc_server_handling_seconds_count", batch) == 1


def test_a_stream_counts_each_message_and_one_handled_call(
    in_process: InProcess,
) -> None:
    registry, stub, _ = in_process
    replies = list(stub.EvaluateStream(iter([GOOD, BAD, GOOD, GOOD, GOOD])))
    assert len(replies) == 5
    labels = rpc("EvaluateStream", "bidi_stream")
    assert registry.get_sample_value("grpc_server_started_total", labels) == 1
    assert registry.get_sample_value("grpc_server_msg_received_total", labels) == 5
    assert registry.get_sample_value("grpc_server_msg_sent_total", labels) == 5
    assert (
        registry.get_sample_value("grpc_server_handled_total", {**labels, "grpc_code": "OK"}) == 1
    )


def test_an_unknown_method_is_left_to_grpc(
    in_process: InProcess,
) -> None:
    registry, _, channel = in_process
    missing = channel.unary_unary(f"/{SERVICE}/Missing")
    assert call_error(lambda: missing(b"")) == grpc.StatusCode.UNIMPLEMENTED
    assert registry.get_sample_value("grpc_server_started_total", rpc("Missing")) is None
