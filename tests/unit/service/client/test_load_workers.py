"""A load's workers (``service.client.load_workers``) without a server: how an answer is
tallied, and how a run hands out its requests and bounds its calls."""

from __future__ import annotations

import math
import time

from service.client.load_requests import Pool
from service.client.load_workers import END_GRACE_S, Run, Tally
from tests.unit.service.client.test_load_spec import spec


def test_an_answer_is_as_meant_when_a_good_request_is_ok_or_a_bad_one_is_refused() -> None:
    tally = Tally()
    tally.count("OK", 0.001, bad=False)
    tally.count("INVALID_ARGUMENT", 0.001, bad=True)
    tally.count("OK", 0.001, bad=True)
    tally.count("UNAVAILABLE", 0.001, bad=False)
    assert (tally.done, tally.bad_sent, tally.refused, tally.errors) == (4, 2, 1, 2)
    assert tally.codes == {"OK": 2, "INVALID_ARGUMENT": 1, "UNAVAILABLE": 1}


def test_a_run_cycles_through_its_pool_until_its_requests_are_made() -> None:
    run = Run(spec("127.0.0.1:1", requests=5), Pool([b"a", b"b"], [False, True]), math.inf)
    assert [run.next_index() for _ in range(6)] == [0, 1, 0, 1, 0, None]


def test_a_call_is_given_at_most_the_runs_end_and_its_grace() -> None:
    run = Run(spec("127.0.0.1:1"), Pool([b"a"], [False]), time.perf_counter() + 10.0)
    assert run.timeout(1.0) == 1.0
    assert 10.0 < run.timeout(math.inf) <= 10.0 + END_GRACE_S
    over = Run(spec("127.0.0.1:1"), Pool([b"a"], [False]), time.perf_counter() - 5.0)
    assert over.next_index() is None and over.timeout(1.0) == 0.0 and not over.may_finish()
    run.stop.set()
    assert run.over() and run.next_index() is None
