"""The RPCs (``service.server.servicer``), each driven with a context of its own and no
server: a reply is the work's bytes, a stream answers each message in order (a bad one
with its error, and goes on), and a stream with nothing to read ends at the idle limit."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from concurrent import futures

import grpc
import pytest
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from service.server import work
from service.server.admission import CostAdmission, cost_budgets
from service.server.servicer import HandEvaluatorServicer
from tests.unit.service.server.test_calls import Aborted, FakeContext

HAND = pb.EvaluateRequest(game=pb.GAME_POKER_HIGH, hand=["Ah", "Kh", "Qh", "Jh", "Th"])
BAD = pb.EvaluateRequest(game=pb.GAME_POKER_HIGH, hand=["Ah", "Ah"], request_id="bad")


def _servicer(pool: futures.Executor, stream_idle_seconds: float = 0.0) -> HandEvaluatorServicer:
    budgets = cost_budgets(0, 0, 1.0, 0.0, 4, 1, cpus=2.0, pod_bytes=1 << 30)
    return HandEvaluatorServicer(10, CostAdmission(budgets), pool, 1 << 20, stream_idle_seconds)


def test_evaluate_showdown_and_list_games_reply_with_their_works_bytes() -> None:
    showdown = pb.ShowdownRequest(
        game=pb.GAME_POKER_HIGH,
        seats=[
            pb.Seat(player="a", hand=["Ah", "Kh", "Qh", "Jh", "Th"]),
            pb.Seat(player="b", hand=["2c", "3d", "4s", "5h", "7c"]),
        ],
    )

    async def answers(servicer: HandEvaluatorServicer) -> list[bytes]:
        return [
            await servicer.Evaluate(HAND, FakeContext()),  # type: ignore[arg-type]
            await servicer.Showdown(showdown, FakeContext()),  # type: ignore[arg-type]
            await servicer.ListGames(pb.ListGamesRequest(), FakeContext()),  # type: ignore[arg-type]
        ]

    with futures.ThreadPoolExecutor(max_workers=1) as pool:
        evaluated, shown, listed = asyncio.run(answers(_servicer(pool)))
    assert evaluated == work.evaluate_reply(HAND)
    assert shown == work.showdown_reply(showdown).SerializeToString()
    assert pb.ListGamesResponse.FromString(listed).games


def test_a_bad_evaluate_is_refused_invalid_argument() -> None:
    async def answer(servicer: HandEvaluatorServicer) -> bytes:
        return await servicer.Evaluate(BAD, FakeContext())  # type: ignore[arg-type]

    with futures.ThreadPoolExecutor(max_workers=1) as pool, pytest.raises(Aborted) as caught:
        asyncio.run(answer(_servicer(pool)))
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT


async def _requests(*requests: pb.EvaluateRequest) -> AsyncIterator[pb.EvaluateRequest]:
    for request in requests:
        yield request


def test_a_stream_answers_each_message_in_order_a_bad_one_with_its_error() -> None:
    context = FakeContext()

    async def stream(servicer: HandEvaluatorServicer) -> None:
        await servicer.EvaluateStream(_requests(HAND, BAD, HAND), context)  # type: ignore[arg-type]

    with futures.ThreadPoolExecutor(max_workers=1) as pool:
        asyncio.run(stream(_servicer(pool)))
    first, bad, last = context.written
    assert first == last == work.evaluate_reply(HAND)
    assert isinstance(bad, pb.Evaluation) and bad.request_id == "bad" and bad.error.code == 3


def test_a_stream_with_nothing_to_read_ends_deadline_exceeded_at_the_idle_limit() -> None:
    async def never() -> AsyncIterator[pb.EvaluateRequest]:
        await asyncio.Event().wait()
        yield HAND

    async def stream(servicer: HandEvaluatorServicer) -> None:
        await servicer.EvaluateStream(never(), FakeContext())  # type: ignore[arg-type]

    with futures.ThreadPoolExecutor(max_workers=1) as pool, pytest.raises(Aborted) as caught:
        asyncio.run(stream(_servicer(pool, stream_idle_seconds=0.05)))
    assert caught.value.code == grpc.StatusCode.DEADLINE_EXCEEDED
    assert "idle-stream limit" in caught.value.details
