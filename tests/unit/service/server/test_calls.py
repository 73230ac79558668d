"""A bug in a handler is ``INTERNAL`` with an incident id for the caller, and its stack and
the request's shape (never its cards) only in the log: the real servicer's ``answer`` on an
aio server in this process.

(The call machinery, ``service.server.calls``, is what every RPC of the servicer answers
through.)"""

from __future__ import annotations

import asyncio
import logging
import math
import threading
from concurrent import futures

import grpc
import pytest
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.costs import CallCost
from evaluators.errors import InvalidRequest, Violation
from service.server import errors
from service.server.admission import CostAdmission, cost_budgets
from service.server.calls import Call, Calls, Lane
from service.server.deadlines import Stopping
from service.server.drain import Drain
from service.server.logs import JsonLines


async def _call_a_crashing_handler(request: pb.EvaluateRequest) -> grpc.aio.AioRpcError:
    """Evaluate through ``Calls.answer`` with work that raises, on an aio
    server of its own; the error the caller gets."""
    with futures.ThreadPoolExecutor(max_workers=1) as pool:
        calls = Calls(
            CostAdmission(cost_budgets(0, 0, 1.0, 0.0, 4, 1)), pool, 1 << 20, Drain(), None
        )

        async def crash(request: pb.EvaluateRequest, context: grpc.aio.ServicerContext) -> bytes:
            work = lambda _: pb.Evaluation(strength=1 // 0)  # noqa: E731
            return await calls.answer(context, "Evaluate", request, lambda _: Call(work))

        handler = grpc.method_handlers_generic_handler(
            "test.Crash",
            {
                "Call": grpc.unary_unary_rpc_method_handler(
                    crash, request_deserializer=pb.EvaluateRequest.FromString
                )
            },
        )
        server = grpc.aio.server(handlers=[handler])
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                call = channel.unary_unary(
                    "/test.Crash/Call",
                    request_serializer=pb.EvaluateRequest.SerializeToString,
                    response_deserializer=pb.Evaluation.FromString,
                )
                with pytest.raises(grpc.aio.AioRpcError) as caught:
                    await call(request, timeout=10)
                return caught.value
        finally:
            await server.stop(None)


def test_a_bug_is_internal_with_an_incident_id_and_its_stack_only_in_the_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    request = pb.EvaluateRequest(
        game=pb.GAME_POKER_HIGH, hand=["Ah", "Kh"], table=["Qh", "Jh", "Th"]
    )
    with caplog.at_level(logging.ERROR):
        error = asyncio.run(_call_a_crashing_handler(request))
    assert error.code() == grpc.StatusCode.INTERNAL
    assert "incident" in error.details()
    assert "ZeroDivisionError" not in error.details() and "Traceback" not in error.details()
    [record] = [r for r in caplog.records if getattr(r, "event", "") == "error"]
    fields = record.fields  # type: ignore[attr-defined]
    assert fields["incident"] in error.details()
    assert fields == {
        "method": "Evaluate",
        "incident": fields["incident"],
        **errors.request_shape(request),
    }
    line = JsonLines().format(record)
    assert "ZeroDivisionError" in line
    assert not any(card in line for card in request.hand)


REQUEST = pb.EvaluateRequest(game=pb.GAME_POKER_HIGH, hand=["Ah", "Kh"])


class Aborted(Exception):
    """What ``FakeContext.abort`` raises, as grpc.aio's context raises its own."""

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(code, details)
        self.code = code
        self.details = details


class FakeContext:
    """A handler's context without a server: ``remaining`` seconds to its deadline (None:
    none), its aborts raised as ``Aborted``, its done callbacks kept."""

    def __init__(self, remaining: float | None = None) -> None:
        self.remaining = remaining
        self.done: list[object] = []
        self.written: list[object] = []

    def time_remaining(self) -> float | None:
        return self.remaining

    def peer(self) -> str:
        return "ipv4:127.0.0.1:1"

    def add_done_callback(self, callback: object) -> None:
        self.done.append(callback)

    async def abort(self, code: grpc.StatusCode, details: str) -> None:
        raise Aborted(code, details)

    async def abort_with_status(self, status: grpc.Status) -> None:
        raise Aborted(status.code, status.details)

    async def write(self, message: object) -> None:
        self.written.append(message)


def _calls(
    pool: futures.Executor, max_reply_bytes: int = 1 << 20, drain: Drain | None = None
) -> Calls:
    budgets = cost_budgets(0, 0, 1.0, 0.0, 4, 1, cpus=2.0, pod_bytes=1 << 30)
    return Calls(CostAdmission(budgets), pool, max_reply_bytes, drain or Drain(), None)


def _answer(calls: Calls, context: FakeContext, call: Call, request: object = REQUEST) -> bytes:
    async def answer() -> bytes:
        return await calls.answer(context, "Evaluate", request, lambda _: call)  # type: ignore[arg-type]

    return asyncio.run(answer())


def test_work_on_the_loop_is_answered_with_its_bytes_and_holds_nothing() -> None:
    with futures.ThreadPoolExecutor(max_workers=1) as pool:
        calls = _calls(pool)
        context = FakeContext()
        assert _answer(calls, context, Call(lambda _: b"reply")) == b"reply"
        assert context.done == [], "nothing reserved, nothing to give back"


def test_a_call_with_a_cost_reserves_it_and_gives_it_back_when_the_call_is_done() -> None:
    with futures.ThreadPoolExecutor(max_workers=1) as pool:
        calls = _calls(pool)
        context = FakeContext()
        stopping = Stopping(threading.Event(), math.inf, lambda: True)
        call = Call(
            lambda _: pb.Evaluation(strength=3), CallCost(0.01, 100, 10), Lane.POOL, stopping
        )
        assert _answer(calls, context, call) == pb.Evaluation(strength=3).SerializeToString()
        [release] = context.done
        assert callable(release)


def test_a_late_call_a_draining_server_and_unreadable_bytes_are_refused_before_planning() -> None:
    planned: list[object] = []

    def plan(request: object) -> Call:
        planned.append(request)
        return Call(lambda _: b"")

    async def answer(calls: Calls, context: FakeContext, request: object) -> bytes:
        return await calls.answer(context, "Evaluate", request, plan)  # type: ignore[arg-type]

    draining = Drain()
    draining.begin(10.0)
    unreadable = errors.Unreadable("x", "no")
    with futures.ThreadPoolExecutor(max_workers=1) as pool:
        cases = [
            (_calls(pool), FakeContext(remaining=0.0), REQUEST, grpc.StatusCode.DEADLINE_EXCEEDED),
            (_calls(pool), FakeContext(), unreadable, grpc.StatusCode.INVALID_ARGUMENT),
            (_calls(pool, drain=draining), FakeContext(), REQUEST, grpc.StatusCode.UNAVAILABLE),
        ]
        for calls, context, request, code in cases:
            with pytest.raises(Aborted) as caught:
                asyncio.run(answer(calls, context, request))
            assert caught.value.code == code
    assert planned == []


def test_a_reply_over_the_send_limit_is_resource_exhausted_naming_the_limit() -> None:
    with futures.ThreadPoolExecutor(max_workers=1) as pool, pytest.raises(Aborted) as caught:
        _answer(_calls(pool, max_reply_bytes=4), FakeContext(), Call(lambda _: b"12345"))
    assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "--max-message-bytes" in caught.value.details


def test_a_refusal_raised_by_the_plan_is_invalid_argument() -> None:
    def plan(request: object) -> Call:
        raise InvalidRequest([Violation("hand", "no such card")])

    async def answer(calls: Calls) -> bytes:
        return await calls.answer(FakeContext(), "Evaluate", REQUEST, plan)  # type: ignore[arg-type]

    with futures.ThreadPoolExecutor(max_workers=1) as pool, pytest.raises(Aborted) as caught:
        asyncio.run(answer(_calls(pool)))
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
