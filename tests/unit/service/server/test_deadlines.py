"""Deadlines (``service.server.deadlines``): ``WorkGate``, the ``keep_going`` a batch or
Odds asks before each chunk, stops the work before a chunk that would end past the
deadline, and at once on a cancel or the end of the drain's grace; a call without a
deadline is given the default one, and one with a deadline keeps its own."""

from __future__ import annotations

import threading
import time

from service.server.deadlines import (
    NO_DEADLINE_S,
    DeadlineContext,
    Stopping,
    WorkGate,
    deadline_passed,
    remaining_seconds,
    with_default_deadline,
)

FAR = 60.0
"""A deadline no test comes near."""


def test_a_gate_goes_on_while_the_deadline_is_further_than_a_chunk_takes() -> None:
    gate = WorkGate(threading.Event(), time.monotonic() + FAR, lambda: True)
    assert all(gate() for _ in range(100))


def test_no_chunk_starts_that_would_end_past_the_deadline_and_the_gate_waits_for_it() -> None:
    deadline = time.monotonic() + 0.3
    gate = WorkGate(threading.Event(), deadline, lambda: True)
    time.sleep(0.2)  # a chunk of 0.2 s: the next would end at ~0.4 s, past the deadline
    assert not gate(), "checking only that the deadline had passed would start it"
    assert time.monotonic() >= deadline, "answered DEADLINE_EXCEEDED at the deadline, not before"


def test_a_cancelled_call_or_the_end_of_the_grace_stops_at_once_far_from_the_deadline() -> None:
    cancelled = threading.Event()
    cancelled.set()
    began = time.monotonic()
    assert not WorkGate(cancelled, began + FAR, lambda: True)()
    assert not WorkGate(threading.Event(), began + FAR, lambda: False)()
    assert time.monotonic() - began < FAR / 2, "neither waited for the deadline"


class Context:
    """What a handler's context says of its deadline: ``remaining`` seconds (grpc.aio's
    ~infinite figure for a call without one)."""

    def __init__(self, remaining: float) -> None:
        self.remaining = remaining
        self.peer_name = "ipv4:10.0.0.1:5"

    def time_remaining(self) -> float:
        return self.remaining

    def peer(self) -> str:
        return self.peer_name


def test_a_call_without_a_deadline_has_none_and_one_with_a_deadline_has_what_is_left() -> None:
    assert remaining_seconds(Context(NO_DEADLINE_S * 2)) is None
    assert remaining_seconds(Context(2.5)) == 2.5
    assert remaining_seconds(Context(-1.0)) == 0.0
    assert deadline_passed(Context(0.0)) and not deadline_passed(Context(NO_DEADLINE_S * 2))


def test_only_a_call_without_a_deadline_is_given_the_default_one() -> None:
    own = Context(5.0)
    assert with_default_deadline(own, 30.0) is own
    none = Context(NO_DEADLINE_S * 2)
    assert with_default_deadline(none, 0.0) is none, "0: no default deadline"
    given = with_default_deadline(none, 30.0)
    assert isinstance(given, DeadlineContext)
    assert 29.0 < given.time_remaining() <= 30.0
    assert given.peer() == "ipv4:10.0.0.1:5", "everything else is the call's own context's"


def test_a_deadline_given_has_passed_once_its_time_is_up() -> None:
    given = DeadlineContext(Context(NO_DEADLINE_S * 2), time.monotonic() - 1.0)
    assert given.time_remaining() == 0.0
    assert deadline_passed(given)


def test_a_calls_stopping_makes_a_gate_that_sees_its_cancel() -> None:
    stopping = Stopping(threading.Event(), time.monotonic() + FAR, lambda: True)
    gate = stopping.gate()
    assert gate()
    stopping.stop.set()
    assert not gate()
