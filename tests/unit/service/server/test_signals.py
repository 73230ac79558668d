"""Stop and reload signals recorded, never acted on in a handler
(``service.server.signals``)."""

from __future__ import annotations

import os
import signal

from service.server.signals import HELD_SIGNALS, catch_signals


def test_stop_and_hangup_signals_are_recorded_in_their_lists() -> None:
    before = {number: signal.getsignal(number) for number in HELD_SIGNALS}
    try:
        caught = catch_signals()
        os.kill(os.getpid(), signal.SIGHUP)
        os.kill(os.getpid(), signal.SIGTERM)
        assert caught.hangups == [signal.SIGHUP]
        assert caught.stops == [signal.SIGTERM]
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)
