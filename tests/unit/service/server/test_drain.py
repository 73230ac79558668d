"""The drain (``service.server.drain``): before it begins nothing is refused; once begun
every new call is, and counted, and work may go on only until the grace, less its
margin, runs out; ``until_quiet`` waits for callers to stop coming, at most its share of
the grace."""

from __future__ import annotations

import asyncio

from service.server.drain import LONGEST_REFUSING_FRACTION, QUIET_SECONDS, Drain


def test_nothing_is_refused_before_the_drain_begins() -> None:
    drain = Drain()
    assert not drain.begun and not drain.refuses() and drain.work_may_go_on()
    assert drain.refused == 0


def test_once_begun_every_call_is_refused_and_counted() -> None:
    drain = Drain()
    drain.begin(30.0)
    assert drain.begun and drain.refuses() and drain.refuses()
    assert drain.refused == 2
    assert drain.work_may_go_on(), "work goes on until the grace runs out"


def test_work_stops_once_the_grace_less_its_margin_is_over() -> None:
    drain = Drain()
    drain.begin(0.0)
    assert not drain.work_may_go_on()


def test_until_quiet_returns_once_no_call_has_been_refused_for_a_while() -> None:
    drain = Drain()
    drain.begin(60.0)
    waited = asyncio.run(drain.until_quiet(60.0))
    assert QUIET_SECONDS <= waited < 60.0 * LONGEST_REFUSING_FRACTION
