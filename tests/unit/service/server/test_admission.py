"""The cost lane's rules (``service.server.admission.CostAdmission``), in process: what fits,
who waits, who is refused at once and what the refusal names."""

from __future__ import annotations

import asyncio
import time

import pytest

from evaluators.costs import CallCost
from service.server.admission import (
    IDLE_SECONDS,
    Budgets,
    CostAdmission,
    OverBudget,
    cost_budgets,
)

BUDGETS = Budgets(cpu_seconds=10.0, memory_bytes=100, peer_share=0.5, wait_seconds=1.0, slots=4)


def run(coroutine: object) -> object:
    return asyncio.run(coroutine)  # type: ignore[arg-type]


def test_calls_within_the_budgets_are_admitted_at_once_and_give_everything_back() -> None:
    async def scenario() -> None:
        lane = CostAdmission(BUDGETS)
        first = await lane.reserve(CallCost(4.0, 20, 10), "a", pooled=True, wait=0)
        second = await lane.reserve(CallCost(4.0, 20, 10), "b", pooled=True, wait=0)
        assert (lane.cpu, lane.memory, lane.running) == (8.0, 80, 2), "replies count twice"
        first.work_done(reply_bytes=4)
        assert (lane.cpu, lane.memory, lane.running) == (4.0, 48, 1)
        first.release()
        second.release()
        first.release()
        assert (lane.cpu, lane.memory, lane.running) == (0.0, 0, 0)

    run(scenario())


def test_a_reply_and_request_stay_reserved_after_the_work_until_the_call_is_done() -> None:
    async def scenario() -> None:
        lane = CostAdmission(BUDGETS)
        held = await lane.reserve(CallCost(1.0, 10, 30, request_bytes=10), "a", True, wait=0)
        held.work_done(reply_bytes=30)
        assert lane.memory == 2 * (30 + 10)
        with pytest.raises(OverBudget, match="memory budget"):
            await lane.reserve(CallCost(1.0, 50, 20), "b", pooled=True, wait=0)
        held.release()
        assert await lane.reserve(CallCost(1.0, 50, 20), "b", pooled=True, wait=0)

    run(scenario())


def test_a_call_that_does_not_fit_waits_for_room_and_is_refused_naming_the_budget() -> None:
    async def scenario() -> None:
        lane = CostAdmission(BUDGETS)
        running = await lane.reserve(CallCost(5.0, 10, 0), "a", pooled=True, wait=0)
        waiting = asyncio.create_task(lane.reserve(CallCost(8.0, 10, 0), "b", True, wait=5.0))
        await asyncio.sleep(0.05)
        assert not waiting.done()
        running.work_done()
        assert (await waiting).cpu == 8.0
        with pytest.raises(OverBudget, match=r"CPU budget \(10 CPU-s, --cpu-budget-seconds\)"):
            await lane.reserve(CallCost(5.0, 10, 0), "c", pooled=True, wait=0.05)

    run(scenario())


def test_one_connection_holds_at_most_its_share_and_is_refused_without_waiting() -> None:
    async def scenario() -> None:
        lane = CostAdmission(BUDGETS)
        await lane.reserve(CallCost(4.0, 10, 0), "greedy", pooled=True, wait=0)
        began = asyncio.get_running_loop().time()
        with pytest.raises(OverBudget, match="this connection already holds 4 CPU-s"):
            await lane.reserve(CallCost(4.0, 10, 0), "greedy", pooled=True, wait=5.0)
        assert asyncio.get_running_loop().time() - began < 1.0
        assert await lane.reserve(CallCost(4.0, 10, 0), "polite", pooled=True, wait=0)

    run(scenario())


def test_a_call_larger_than_a_whole_budget_runs_alone_rather_than_never() -> None:
    async def scenario() -> None:
        lane = CostAdmission(BUDGETS)
        huge = await lane.reserve(CallCost(50.0, 10, 0), "a", pooled=True, wait=0)
        with pytest.raises(OverBudget):
            await lane.reserve(CallCost(0.1, 10, 0), "b", pooled=True, wait=0)
        huge.release()
        assert await lane.reserve(CallCost(0.1, 10, 0), "b", pooled=True, wait=0)

    run(scenario())


def test_pool_slots_bound_calls_in_the_pool_but_not_those_on_the_loop() -> None:
    async def scenario() -> None:
        lane = CostAdmission(Budgets(100.0, 1000, 1.0, 0.0, slots=1))
        await lane.reserve(CallCost(1.0, 1, 0), "a", pooled=True, wait=0)
        with pytest.raises(OverBudget, match="all 1 threads for batches and Odds are busy"):
            await lane.reserve(CallCost(1.0, 1, 0), "b", pooled=True, wait=0)
        assert await lane.reserve(CallCost(1.0, 1, 0), "b", pooled=False, wait=0)

    run(scenario())


def test_default_budgets_are_the_pods_share_per_worker() -> None:
    budgets = cost_budgets(0, 0, 0.5, 1.0, 24, workers=2, cpus=4.0, pod_bytes=2 << 30)
    assert budgets.cpu_seconds == 4.0 * 10 / 2
    assert budgets.memory_bytes == (2 << 30) // 8 // 2
    assert cost_budgets(3.0, 64, 0.5, 1.0, 24, workers=2, cpus=4.0).cpu_seconds == 3.0
    assert cost_budgets(3.0, 64, 0.5, 1.0, 24, workers=2, cpus=4.0).memory_bytes == 64 << 20


def test_on_idle_runs_once_after_nothing_has_held_work_for_idle_seconds_never_while_busy() -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        ran: list[float] = []
        lane = CostAdmission(BUDGETS, on_idle=lambda: ran.append(time.monotonic()))
        held = await lane.reserve(CallCost(1.0, 10, 0), "a", pooled=True, wait=0)
        await asyncio.sleep(IDLE_SECONDS * 1.5)
        assert not ran, "on_idle ran while a call held its working set"
        await loop.run_in_executor(None, held.work_done)  # work ends on a pool thread
        quiet_from = time.monotonic()
        for _ in range(100):
            if ran:
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(IDLE_SECONDS * 1.5)
        assert len(ran) == 1 and ran[0] - quiet_from >= IDLE_SECONDS * 0.99

    run(scenario())
