"""``limits.WorkGate``: the ``keep_going`` a batch or Odds asks before each chunk stops the
work before a chunk that would end past the deadline, and at once on a cancel or the end of
the drain's grace."""

from __future__ import annotations

import threading
import time

from service.server.limits import WorkGate

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
