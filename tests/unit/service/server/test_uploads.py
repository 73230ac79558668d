"""Requests still arriving (``service.server.uploads``): a call's one message is read; a
stream ended without one is INVALID_ARGUMENT; when the waiting calls would hold more than
the budget, the one waiting longest is ended RESOURCE_EXHAUSTED."""

from __future__ import annotations

import asyncio
from typing import Any

import grpc
import pytest

from service.server.uploads import Uploads


class Aborted(Exception):
    pass


class Context:
    """A call whose message comes when ``arrived`` is set (or is ``message`` at once)."""

    def __init__(self, message: object = b"m", arrived: asyncio.Event | None = None) -> None:
        self.message = message
        self.arrived = arrived
        self.code: grpc.StatusCode | None = None

    async def read(self) -> object:
        if self.arrived is not None:
            await self.arrived.wait()
        return self.message

    async def abort(self, code: grpc.StatusCode, details: str) -> None:
        self.code = code
        raise Aborted(details)


def test_a_calls_one_message_is_read() -> None:
    uploads = Uploads(10.0, 1 << 20, 1024)
    assert asyncio.run(uploads.one_message(Context(b"request"))) == b"request"
    assert uploads.held_bytes == 0


def test_a_call_that_ends_without_a_message_is_invalid_argument() -> None:
    context = Context(grpc.aio.EOF)
    with pytest.raises(Aborted, match="without a request message"):
        asyncio.run(Uploads(10.0, 1 << 20, 1024).one_message(context))
    assert context.code == grpc.StatusCode.INVALID_ARGUMENT


def test_the_call_waiting_longest_makes_room_for_a_new_one_over_the_budget() -> None:
    async def two_calls() -> tuple[Context, Any]:
        uploads = Uploads(10.0, 1024, 1024)
        stalled = Context(arrived=asyncio.Event())
        waiting = asyncio.create_task(uploads.one_message(stalled))
        await asyncio.sleep(0)
        assert uploads.held_bytes == 1024
        newer = await uploads.one_message(Context(b"newer"))
        with pytest.raises(Aborted, match="--upload-budget-mib"):
            await waiting
        return stalled, newer

    stalled, newer = asyncio.run(two_calls())
    assert stalled.code == grpc.StatusCode.RESOURCE_EXHAUSTED and newer == b"newer"
