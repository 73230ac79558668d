"""A bug in a handler is ``INTERNAL`` with an incident id for the caller, and its stack and
the request's shape (never its cards) only in the log: the real servicer's ``answer`` on an
aio server in this process."""

from __future__ import annotations

import asyncio
import logging
from concurrent import futures

import grpc
import pytest
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from service.server import errors, servicer
from service.server.limits import CostAdmission, cost_budgets
from service.server.logs import JsonLines


async def _call_a_crashing_handler(request: pb.EvaluateRequest) -> grpc.aio.AioRpcError:
    """Evaluate through ``HandEvaluatorServicer.answer`` with work that raises, on an aio
    server of its own; the error the caller gets."""
    with futures.ThreadPoolExecutor(max_workers=1) as pool:
        evaluator = servicer.HandEvaluatorServicer(
            10, CostAdmission(cost_budgets(0, 0, 1.0, 0.0, 4, 1)), pool, 1 << 20, 0
        )

        async def crash(request: pb.EvaluateRequest, context: grpc.aio.ServicerContext) -> bytes:
            work = lambda _: pb.Evaluation(strength=1 // 0)  # noqa: E731
            return await evaluator.answer(context, "Evaluate", request, work)

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
