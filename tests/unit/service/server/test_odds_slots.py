"""The Odds lane's slot files (``service.server.odds_lane``): a place is an exclusive lock
on one, so lanes over the same directory (each worker's) exclude each other, and a
process killed while holding one frees it."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from service.server.odds_lane import SLOTS_ENV, OddsLane, shared_slots

NOT_FREED_SECONDS = 0.2
"""How long a waiter is given to take a place that is held: it can never get one."""
FREED_SECONDS = 30.0
"""How long a waiter may take to find a freed place (it polls every few ms)."""

HOLD_IN_A_CHILD = """
import asyncio, sys
from service.server.odds_lane import OddsLane

async def hold() -> None:
    await OddsLane(1, sys.argv[1]).acquire()
    print("held", flush=True)
    sys.stdin.read()

asyncio.run(hold())
"""


async def _waits(lane: OddsLane) -> bool:
    """True if ``lane`` gives no place within ``NOT_FREED_SECONDS``."""
    try:
        give_back = await asyncio.wait_for(lane.acquire(), NOT_FREED_SECONDS)
    except TimeoutError:
        return True
    give_back()
    return False


def test_two_lanes_over_the_same_slots_hold_one_place_between_them() -> None:
    async def run(directory: str) -> None:
        first, second = OddsLane(1, directory), OddsLane(1, directory)
        give_back = await first.acquire()
        assert await _waits(second), "a second lane took the one place already held"
        give_back()
        (await asyncio.wait_for(second.acquire(), FREED_SECONDS))()

    with shared_slots(1) as directory:
        asyncio.run(run(directory))


def test_one_lane_over_slots_holds_its_width_and_a_cancelled_waiter_holds_nothing() -> None:
    async def run(directory: str) -> None:
        lane = OddsLane(2, directory)
        held = [await lane.acquire(), await lane.acquire()]
        assert await _waits(lane), "a third place was taken in a lane 2 wide"
        held.pop()()
        (await asyncio.wait_for(lane.acquire(), FREED_SECONDS))()
        held.pop()()

    with shared_slots(2) as directory:
        asyncio.run(run(directory))


def test_a_place_held_by_a_killed_process_is_free_again() -> None:
    async def run(directory: str) -> None:
        child = subprocess.Popen(
            [sys.executable, "-c", HOLD_IN_A_CHILD, directory],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            assert child.stdout is not None
            assert child.stdout.readline().strip() == "held"
            lane = OddsLane(1, directory)
            assert await _waits(lane), "the place the child holds was taken"
            child.send_signal(signal.SIGKILL)
            child.wait(FREED_SECONDS)
            (await asyncio.wait_for(lane.acquire(), FREED_SECONDS))()
        finally:
            child.kill()
            child.wait()

    with shared_slots(1) as directory:
        asyncio.run(run(directory))


def test_a_lane_without_slots_counts_its_places_in_this_process() -> None:
    async def run() -> None:
        lane = OddsLane(1)
        give_back = await lane.acquire()
        waiting = asyncio.ensure_future(lane.acquire())
        assert await _waits(lane)
        give_back()
        (await asyncio.wait_for(waiting, FREED_SECONDS))()

    asyncio.run(run())


async def _lanes_of_two_processes_exclude_each_other() -> bool:
    """Whether two lanes 1 wide made as two workers make theirs hold one place between them."""
    first, second = OddsLane.for_process(1), OddsLane.for_process(1)
    give_back = await first.acquire()
    try:
        return await _waits(second)
    finally:
        give_back()


def test_workers_forked_inside_the_slot_directory_share_it_and_it_goes_away_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(SLOTS_ENV, raising=False)
    with shared_slots(3) as directory:
        assert os.environ[SLOTS_ENV] == directory
        assert len(list(Path(directory).iterdir())) == 3
        assert asyncio.run(_lanes_of_two_processes_exclude_each_other())
    assert not Path(directory).exists()
    assert SLOTS_ENV not in os.environ
    assert not asyncio.run(_lanes_of_two_processes_exclude_each_other())
