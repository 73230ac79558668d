"""The process's shutdown as the calls see it: once the drain has begun (``begin``), calls
that reach the servicer are refused UNAVAILABLE, which clients retry elsewhere, and work
still running (batch chunks, Odds run-outs, which ask ``work_may_go_on`` between chunks)
stops when the grace runs out, however long its own deadline, and is answered UNAVAILABLE
too.

``service.server.serve`` begins the drain, keeps the server taking calls (and refusing
them) until callers have stopped coming (``until_quiet``), and only then stops the server,
which sends every connection GOAWAY. A call gRPC's core receives once the server is
stopping never reaches Python: core drops it and the client sees CANCELLED with no details
(grpc core's server zombifies calls that arrive or are still pending after
``grpc_server_shutdown_and_notify``); so the server stops only once no call has come for a
while, and the refusals before that are the UNAVAILABLE clients retry."""

from __future__ import annotations

import asyncio
import math
import threading
import time

DRAINING_MESSAGE = "the server is shutting down; try again (another server will answer)"
STOP_MARGIN_SECONDS = 0.25
"""Work stops this long before the grace ends, so its UNAVAILABLE is sent before gRPC
cancels every call still open (which the client would see as CANCELLED)."""
QUIET_SECONDS = 0.5
"""The drain waits for this long without a refused call before the server stops: longer
than a retrying client's first backoffs (50 ms, 100 ms, 200 ms, with jitter) and a loaded
machine's scheduling delays, so callers that were told UNAVAILABLE have gone."""
LONGEST_REFUSING_FRACTION = 0.5
"""Callers that never stop coming hold the server at most this share of the grace; the
rest is left for calls in flight."""
_POLL_SECONDS = 0.02


class Drain:
    """Thread-safe: the batch and Odds threads read it."""

    def __init__(self) -> None:
        self._begun = threading.Event()
        self._work_ends = math.inf
        self._last_refused = -math.inf
        self.refused = 0
        """Calls refused UNAVAILABLE since the drain began."""

    def begin(self, grace_seconds: float) -> None:
        """From now on new calls are refused; running work stops by the end of
        ``grace_seconds`` from now, and is answered UNAVAILABLE (``DRAINING_MESSAGE``)."""
        self._work_ends = time.monotonic() + max(0.0, grace_seconds - STOP_MARGIN_SECONDS)
        self._begun.set()

    @property
    def begun(self) -> bool:
        return self._begun.is_set()

    def refuses(self) -> bool:
        """Whether a new call is to be refused (the drain has begun); a refusal is counted
        and timed for ``until_quiet``. Called on the event loop."""
        if not self._begun.is_set():
            return False
        self.refused += 1
        self._last_refused = time.monotonic()
        return True

    def work_may_go_on(self) -> bool:
        return time.monotonic() < self._work_ends

    async def until_quiet(self, grace_seconds: float) -> float:
        """Wait until no call has been refused for ``QUIET_SECONDS``, or
        ``LONGEST_REFUSING_FRACTION`` of ``grace_seconds`` has passed; the seconds waited."""
        began = time.monotonic()
        longest = began + grace_seconds * LONGEST_REFUSING_FRACTION
        while True:
            now = time.monotonic()
            if now >= longest or now - max(began, self._last_refused) >= QUIET_SECONDS:
                return now - began
            await asyncio.sleep(_POLL_SECONDS)
