"""The process's shutdown as the calls see it: once the drain has begun (``begin``), calls
that reach the servicer are refused UNAVAILABLE, which clients retry elsewhere, and work
still running (batch chunks, Odds run-outs, which ask ``work_may_go_on`` between chunks)
stops when the grace runs out, however long its own deadline, and is answered UNAVAILABLE
too. ``service.server.serve``
begins the drain when it stops the server (which sends every connection GOAWAY)."""

from __future__ import annotations

import math
import threading
import time

DRAINING_MESSAGE = "the server is shutting down; try again (another server will answer)"
STOP_MARGIN_SECONDS = 0.25
"""Work stops this long before the grace ends, so its UNAVAILABLE is sent before gRPC
cancels every call still open (which the client would see as CANCELLED)."""


class Drain:
    """Thread-safe: the batch and Odds threads read it."""

    def __init__(self) -> None:
        self._begun = threading.Event()
        self._work_ends = math.inf

    def begin(self, grace_seconds: float) -> None:
        """From now on new calls are refused; running work stops by the end of
        ``grace_seconds`` from now, and is answered UNAVAILABLE (``DRAINING_MESSAGE``)."""
        self._work_ends = time.monotonic() + max(0.0, grace_seconds - STOP_MARGIN_SECONDS)
        self._begun.set()

    @property
    def begun(self) -> bool:
        return self._begun.is_set()

    def work_may_go_on(self) -> bool:
        return time.monotonic() < self._work_ends
