"""Stop and reload signals turned into lists the main loop polls.

The handlers only record the signal: the server (``service.server.serve``) and the worker
supervisor (``service.server.workers``) each poll their lists and act from their own loop, never
from inside a signal handler.
"""

from __future__ import annotations

import signal
from dataclasses import dataclass, field
from types import FrameType

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
HELD_SIGNALS = (*STOP_SIGNALS, signal.SIGHUP)
"""Blocked across a worker's fork until ``catch_signals`` has run in the child."""


@dataclass
class Caught:
    stops: list[int] = field(default_factory=list)
    """SIGTERM/SIGINT received, in order: drain and exit."""
    hangups: list[int] = field(default_factory=list)
    """SIGHUP received and not yet acted on: reread the TLS certificates."""


def catch_signals() -> Caught:
    """Install the recording handlers, then let through any signal held while starting."""
    caught = Caught()

    def on_stop(signum: int, frame: FrameType | None) -> None:
        caught.stops.append(signum)

    def on_hangup(signum: int, frame: FrameType | None) -> None:
        caught.hangups.append(signum)

    for stop_signal in STOP_SIGNALS:
        signal.signal(stop_signal, on_stop)
    signal.signal(signal.SIGHUP, on_hangup)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD_SIGNALS)
    return caught
