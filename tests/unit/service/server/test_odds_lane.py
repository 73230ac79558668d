"""The Odds lane (``HandEvaluatorServicer``'s ``odds_lane``): admitted Odds calls beyond
its width wait on the loop for a place instead of taking another core, and all are
answered; its default width leaves a core for the event loop
(``service.server.limits.odds_lane_width``). The real servicer on an aio server in this
process, its pool counting the work it runs at once."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent import futures
from typing import Any

import grpc
from handeval_client import odds_request
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from service.server.admission import CostAdmission, cost_budgets
from service.server.handlers import SERVICE
from service.server.limits import odds_lane_width
from service.server.odds_lane import OddsLane
from service.server.registration import method_handlers
from service.server.servicer import HandEvaluatorServicer

ODDS = odds_request("poker", [(f"p{i}", "?2") for i in range(9)], samples=200_000)
CALLS = 4


class CountingPool(futures.ThreadPoolExecutor):
    """A thread pool that counts the most work it ran at once."""

    def __init__(self, threads: int) -> None:
        super().__init__(max_workers=threads)
        self._lock = threading.Lock()
        self._running = 0
        self.most = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> futures.Future[Any]:
        def counted() -> Any:
            with self._lock:
                self._running += 1
                self.most = max(self.most, self._running)
            try:
                return fn(*args, **kwargs)
            finally:
                with self._lock:
                    self._running -= 1

        return super().submit(counted)


async def _odds_at_once(odds_threads: int) -> tuple[list[pb.OddsResponse], int]:
    """``CALLS`` Odds calls at once against a servicer whose lane is ``odds_threads`` wide
    (budgets with room for all of them); their replies and the most the pool ran at once."""
    with CountingPool(CALLS) as pool:
        evaluator = HandEvaluatorServicer(
            10,
            CostAdmission(cost_budgets(10_000, 0, 1.0, 10.0, CALLS, 1)),
            pool,
            1 << 20,
            0,
            odds_lane=OddsLane(odds_threads),
        )
        handlers = method_handlers(evaluator)
        server = grpc.aio.server()
        server.add_generic_rpc_handlers(
            (grpc.method_handlers_generic_handler(SERVICE.full_name, handlers),)
        )
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                call = channel.unary_unary(
                    f"/{SERVICE.full_name}/Odds",
                    request_serializer=pb.OddsRequest.SerializeToString,
                    response_deserializer=pb.OddsResponse.FromString,
                )
                replies = await asyncio.gather(*(call(ODDS, timeout=120) for _ in range(CALLS)))
        finally:
            await server.stop(None)
        return list(replies), pool.most


def test_admitted_odds_calls_beyond_the_lanes_width_wait_their_turn_and_are_all_answered() -> None:
    replies, most = asyncio.run(_odds_at_once(odds_threads=1))
    assert len(replies) == CALLS and all(reply.runouts == 200_000 for reply in replies)
    assert most == 1, f"{most} Odds calls computed at once in a lane 1 wide"


def test_the_odds_lanes_width_leaves_a_core_of_the_pod_for_the_loops_and_is_never_0() -> None:
    assert odds_lane_width(0, cpus=2.0) == 1
    assert odds_lane_width(0, cpus=8.0) == 7
    assert odds_lane_width(0, cpus=1.0) == 1
    assert odds_lane_width(0, cpus=0.5) == 1
    assert odds_lane_width(3, cpus=2.0) == 3
